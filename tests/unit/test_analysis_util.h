/*
 * test_analysis_util.h — making logs for the analysis tests until `pmc
 * record` writes complete ones: ta_record() samples a command with libpmc's
 * own sampling API (cpu-clock, call chains) and then adds what the current
 * core does not log yet — the command's name and executable mappings (read
 * from /proc/PID while it runs, with each file's build id) — spliced in
 * before CLOSELOG.  The analysis resolves addresses after the whole log is
 * read, so where in the log those records sit does not matter.
 */
#ifndef TEST_ANALYSIS_UTIL_H
#define TEST_ANALYSIS_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>

#include "lib/logbuild.h"
#include "lib/testio.h"
#include "pmc.h"
#include "pmclog.h"
#include "log/format.h"
#include "log/records.h"

static struct pmc_logrec ta_rec;

/* Mapping snapshot of a running process: executable mappings with a path. */
struct ta_maps {
	char text[1 << 16];
	char comm[32];
	int have;
};

static void ta_snapshot(pid_t pid, const char *self_exe, struct ta_maps *m)
{
	char p[64], exe[PATH_MAX];
	ssize_t n;
	FILE *f;
	snprintf(p, sizeof(p), "/proc/%d/exe", (int)pid);
	n = readlink(p, exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	if (strcmp(exe, self_exe) == 0)
		return;               /* not exec'd yet */
	snprintf(p, sizeof(p), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(p, "r")))
		return;
	size_t got = fread(m->text, 1, sizeof(m->text) - 1, f);
	fclose(f);
	if (got == 0)
		return;
	m->text[got] = '\0';
	snprintf(p, sizeof(p), "/proc/%d/comm", (int)pid);
	if ((f = fopen(p, "r"))) {
		if (fgets(m->comm, sizeof(m->comm), f))
			m->comm[strcspn(m->comm, "\n")] = '\0';
		fclose(f);
	}
	m->have = 1;
}

/*
 * Record argv with cpu-clock every period ns, call chains, into out.
 * markers: USERDATA 1 after the start and 2 after the exit.  0 or -1 (with
 * a message on stderr).
 */
static int ta_record(const char *out, char *const argv[], uint64_t period, int markers)
{
	static struct ta_maps snap;
	char tmpl[] = "/tmp/ta_log_XXXXXX", self[PATH_MAX];
	pmc_id_t id;
	pid_t pid;
	int fd, st = 0;
	ssize_t n;

	memset(&snap, 0, sizeof(snap));
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	if ((fd = mkstemp(tmpl)) < 0)
		return -1;
	pmc_fini();
	if (pmc_init() != 0 || pmc_allocate("cpu-clock", PMC_MODE_TS, PMC_F_CALLCHAIN, PMC_CPU_ANY, &id, period) != 0 ||
	    pmc_configure_logfile(fd) != 0 || pmc_spawn(argv, &pid) != 0 ||
	    pmc_attach(id, pid) != 0 || pmc_start(id) != 0 || pmc_spawn_go(pid) != 0) {
		fprintf(stderr, "ta_record: %s\n", pmc_errmsg());
		close(fd);
		unlink(tmpl);
		return -1;
	}
	if (markers)
		pmc_writelog(1);
	while (pmc_spawn_wait_timeout(pid, &st, 5) != 0 && errno == EAGAIN)
		ta_snapshot(pid, self, &snap);
	if (markers)
		pmc_writelog(2);
	pmc_stop(id);
	pmc_close_logfile();
	pmc_release(id);
	pmc_fini();
	close(fd);

	size_t len;
	char *buf = (char *)tio_slurp(tmpl, &len);
	unlink(tmpl);
	if (!buf || len < 24)
		return -1;
	/* the first sample's time: the new records go just before it */
	uint64_t first = 1;
	for (size_t off = 8; off + 16 <= len;) {
		uint32_t h = pmclog__ld32(buf + off);
		size_t rl = PMCLOG_HDR_LEN(h);
		if (rl < 16)
			break;
		if (PMCLOG_HDR_TYPE(h) == PMCLOG_TYPE_CALLCHAIN) {
			memcpy(&first, buf + off + 8, 8);
			break;
		}
		off += rl;
	}
	/* cut CLOSELOG, add ours, put it back */
	size_t body = len;
	int closed = 0;
	if (len >= 24 && PMCLOG_HDR_TYPE(pmclog__ld32(buf + len - 16)) == PMCLOG_TYPE_CLOSELOG) {
		body = len - 16;
		closed = 1;
	}
	struct lb o = { 0 };
	lb_bytes(&o, buf, body);
	if (snap.have) {
		if (snap.comm[0] && pmc__logrec_comm(&ta_rec, pid, pid, PMCLOG_COMM_F_EXEC,
		    snap.comm) == 0)
			lb_logrec(&o, &ta_rec, first - 1);
		char *line = snap.text, *nl;
		for (; line && *line; line = nl ? nl + 1 : NULL) {
			unsigned long long lo, hi, off;
			char perms[8];
			int k = 0;
			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &lo, &hi, perms, &off, &k) < 4 ||
			    perms[2] != 'x' || k == 0)
				continue;
			uint8_t bid[20];
			const char *path = line + k;
			unsigned bl = path[0] == '/' ? tio_buildid(path, bid) : 0;
			struct pmc_logrec_map m = { pid, lo, hi - lo, off, 5, 2, bl, bid, path };
			if (pmc__logrec_map_in(&ta_rec, &m) == 0)
				lb_logrec(&o, &ta_rec, first - 1);
		}
	}
	if (closed)
		lb_bytes(&o, buf + len - 16, 16);
	free(buf);
	lb_save(&o, out);
	lb_free(&o);
	return snap.have ? 0 : -1;
}

#endif
