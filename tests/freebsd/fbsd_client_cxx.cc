/*
 * fbsd_client_cxx.cc — a C++ client written as usr.sbin/pmc is (issue 23):
 * FreeBSD's headers in FreeBSD's order, <pmcformat.h>'s event_to_json,
 * struct rusage and P_KPROC through <sys/user.h>, std::sort with only the
 * containers included (libc++ brings <algorithm> with them).  It renders
 * a few records built here as JSON lines on stdout, one per record, which
 * tests/integration/freebsd_compat.sh parses.
 */
#include <sys/param.h>
#include <sys/cpuset.h>
#include <sys/event.h>
#include <sys/queue.h>
#include <sys/sysctl.h>
#include <sys/ttycom.h>
#include <sys/user.h>
#include <sys/wait.h>

#include <pmc.h>
#include <pmclog.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>
#include <unordered_map>

#include <pmcformat.h>

int main(void)
{
	struct pmclog_ev ev;
	struct rusage ru;
	std::vector<int> v = { 3, 1, 2 };

	std::sort(v.begin(), v.end());
	memset(&ru, 0, sizeof(ru));
	memset(&ev, 0, sizeof(ev));
	ev.pl_type = PMCLOG_TYPE_PROC_CREATE;
	ev.pl_u.pl_pc.pl_pid = 42;
	ev.pl_u.pl_pc.pl_flags = P_KPROC;
	snprintf(ev.pl_u.pl_pc.pl_pcomm, sizeof(ev.pl_u.pl_pc.pl_pcomm), "a\"b\\c\td");
	fputs(event_to_json(&ev).c_str(), stdout);
	memset(&ev, 0, sizeof(ev));
	ev.pl_type = PMCLOG_TYPE_CALLCHAIN;
	ev.pl_ts.tv_sec = 1;
	ev.pl_ts.tv_nsec = 5;
	ev.pl_u.pl_cc.pl_pid = 7;
	ev.pl_u.pl_cc.pl_tid = 8;
	ev.pl_u.pl_cc.pl_pmcid = 0x1f00;
	ev.pl_u.pl_cc.pl_npc = 2;
	ev.pl_u.pl_cc.pl_pc[0] = 0x401000;
	ev.pl_u.pl_cc.pl_pc[1] = 0x401234;
	fputs(event_to_json(&ev).c_str(), stdout);
	printf("sorted %d%d%d rusage %zu\n", v[0], v[1], v[2], sizeof(ru.ru_utime));
	return 0;
}
