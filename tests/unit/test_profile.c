/*
 * test_profile.c — how analysis/profile.c loads a recording, on crafted pmc
 * logs whose record order and timestamps the test chooses: the writer
 * drains per-CPU rings in turn, so a fork may be logged after its child's
 * samples and before its parent's name; a system-mode event is one PMC per
 * CPU; the kernel reports samples of an already released task with tid -1;
 * a mapping may be logged after a newer one at the same address.  And the
 * live aggregator of `pmc top` (analysis/live.h) on such a log as a stream:
 * rows, decay, zoom, pause.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "pmc.h"
#include "pmclog.h"
#include "log/format.h"
#include "log/records.h"
#include "profile.h"
#include "live.h"

static struct pmc_logrec rec;
static char *buf;
static size_t len;

/* Append the record just encoded in rec, stamped ts. */
static void put(uint64_t ts)
{
	size_t rl = PMCLOG_REC_HDR_LEN + rec.len;
	buf = realloc(buf, len + rl);
	assert_non_null(buf);
	pmclog__st32(buf + len, PMCLOG_HDR_MAKE(rec.type, rl));
	pmclog__st32(buf + len + 4, 0);
	memcpy(buf + len + 8, &ts, 8);
	memcpy(buf + len + 16, rec.buf, rec.len);
	len += rl;
}

static void begin(void)
{
	struct pmc_logrec_header h = { PMC_VERSION, 1, 0, 1, 0, 0, "test", "host", "kernel",
		"cpu", "test" };
	free(buf);
	len = PMCLOG_FILE_MAGIC_LEN;
	buf = malloc(len);
	memcpy(buf, PMCLOG_FILE_MAGIC_RAW, len);
	assert_int_equal(pmc__logrec_header(&rec, &h), 0);
	put(1);
}

static void alloc(pmc_id_t id, enum pmc_mode mode, int cpu)
{
	assert_int_equal(pmc__logrec_pmcallocate(&rec, id, 0, "cpu-clock", mode, 0, 4000, 1,
	    cpu), 0);
	put(2);
}

static void sample(pmc_id_t id, pid_t pid, pid_t tid, int cpu, uint64_t ts)
{
	static const uint64_t pc[1] = { 0x401000 };
	static const uint8_t fl[1] = { PMC_CC_F_USERSPACE };
	struct pmc_logrec_sample s = { id, pid, tid, (uint32_t)cpu, 250000, 1, pc, fl };
	assert_int_equal(pmc__logrec_callchain(&rec, &s), 0);
	put(ts);
}

static void comm(pid_t pid, pid_t tid, const char *name, uint64_t ts)
{
	assert_int_equal(pmc__logrec_comm(&rec, pid, tid, PMCLOG_COMM_F_EXEC, name), 0);
	put(ts);
}

static void fork_(pid_t parent, pid_t child, uint64_t ts)
{
	assert_int_equal(pmc__logrec_procfork(&rec, parent, child, parent, child), 0);
	put(ts);
}

/* Close the log, write it out and load it. */
static struct profile *load(void)
{
	char path[] = "/tmp/test_profile_XXXXXX";
	struct profile *p;
	int fd;
	assert_int_equal(pmc__logrec_closelog(&rec), 0);
	put(UINT64_C(1) << 40);
	assert_true((fd = mkstemp(path)) >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	assert_int_equal(profile__load(&p, path, NULL), 0);
	unlink(path);
	assert_string_equal(p->truncated, "");
	profile__resolve(p);
	return p;
}

static const char *comm_of(struct profile *p, pid_t tid)
{
	for (size_t i = 0; i < p->ns; i++)
		if (p->s[i].tid == tid)
			return p->s[i].comm;
	return NULL;
}

/* A child forked without exec has its parent's name (perf: "bash", not
 * ":PID"), even when the fork is logged after the child's samples and the
 * parent's name after the fork. */
static void t_fork_inherits_name_out_of_order(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	sample(0x100, 101, 101, 1, 400);      /* child, CPU 1's ring drained first */
	sample(0x100, 102, 102, 1, 500);      /* grandchild (forked by the child) */
	fork_(101, 102, 350);
	fork_(100, 101, 300);                 /* CPU 0's ring: the fork, ... */
	comm(100, 100, "bash", 100);          /* ... and the parent's exec before it */
	sample(0x100, 100, 100, 0, 200);
	struct profile *p = load();
	assert_string_equal(comm_of(p, 100), "bash");
	assert_string_equal(comm_of(p, 101), "bash");
	assert_string_equal(comm_of(p, 102), "bash");
	profile__free(p);
}

/* A name the child takes later (its exec) wins from then on. */
static void t_fork_then_exec(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	sample(0x100, 101, 101, 1, 250);      /* before the child's exec */
	comm(101, 101, "ls", 260);
	sample(0x100, 101, 101, 1, 270);      /* after */
	fork_(100, 101, 240);
	comm(100, 100, "sh", 100);
	struct profile *p = load();
	assert_int_equal(p->ns, 2);
	assert_string_equal(p->s[0].time == 250 ? p->s[0].comm : p->s[1].comm, "sh");
	assert_string_equal(p->s[0].time == 270 ? p->s[0].comm : p->s[1].comm, "ls");
	profile__free(p);
}

/* tid -1 is no thread: not the process's name (perf: ":-1"). */
static void t_no_thread(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "threads", 100);
	sample(0x100, 100, 100, 0, 200);
	sample(0x100, 100, -1, 0, 300);
	struct profile *p = load();
	assert_string_equal(comm_of(p, 100), "threads");
	assert_string_equal(comm_of(p, -1), ":-1");
	profile__free(p);
}

/* A system-mode event is one PMC per CPU and one event in the profile. */
static void t_system_mode_one_event(void **state)
{
	(void)state;
	begin();
	alloc(0x4200, PMC_MODE_SS, 0);
	alloc(0x104200, PMC_MODE_SS, 1);
	comm(100, 100, "busy", 100);
	sample(0x4200, 100, 100, 0, 200);
	sample(0x104200, 100, 100, 1, 300);
	sample(0x104200, 100, 100, 1, 400);
	struct profile *p = load();
	assert_int_equal(p->nev, 1);
	assert_string_equal(p->ev[0].name, "cpu-clock");
	assert_int_equal(p->ev[0].samples, 3);
	assert_int_equal(p->s[0].ev, p->s[2].ev);
	profile__free(p);
	/* two different events stay two */
	begin();
	alloc(0x4200, PMC_MODE_SS, 0);
	assert_int_equal(pmc__logrec_pmcallocate(&rec, 0x4201, 0, "page-faults", PMC_MODE_SS,
	    0, 4000, 1, 1), 0);
	put(2);
	sample(0x4200, 100, 100, 0, 200);
	sample(0x4201, 100, 100, 1, 300);
	p = load();
	assert_int_equal(p->nev, 2);
	profile__free(p);
}

/* The exec's COMM is the name (the kernel's: "python3" for the link to
 * python3.11, as perf shows), not the executable's file name that
 * PROCEXEC carries after it; without a COMM (hwpmc logs) the file name. */
static void t_exec_name_from_comm(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "python3", 100);
	assert_int_equal(pmc__logrec_procexec(&rec, 0x100, 100, 100, 0, 0, "/usr/bin/python3.11"), 0);
	put(150);
	sample(0x100, 100, 100, 0, 200);
	assert_int_equal(pmc__logrec_procexec(&rec, 0x100, 101, 101, 0, 0, "/usr/bin/prog"), 0);
	put(150);
	sample(0x100, 101, 101, 0, 200);
	struct profile *p = load();
	assert_string_equal(comm_of(p, 100), "python3");
	assert_string_equal(comm_of(p, 101), "prog");
	profile__free(p);
}

static void map_in(pid_t pid, const char *path, uint64_t ts)
{
	struct pmc_logrec_map m = { pid, 0x400000, 0x10000, 0, 5, 2, 0, NULL, path };
	assert_int_equal(pmc__logrec_map_in(&rec, &m), 0);
	put(ts);
}

/* The latest mapping by time wins, not the last one in the file: a new
 * mapping at an old one's address, logged before it by another CPU's ring. */
static void t_mapping_by_time(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "prog", 50);
	map_in(100, "/nonexistent/new.so", 300);   /* CPU 1's ring, drained first */
	sample(0x100, 100, 100, 1, 400);
	map_in(100, "/nonexistent/old.so", 100);   /* CPU 0's ring */
	struct profile *p = load();
	assert_int_equal(p->ns, 1);
	const struct prof_frame *fr;
	assert_true(profile__frames(p, p->s[0].stack, 0, &fr) >= 1);
	assert_string_equal(sym_dso__path(p->l[fr[0].loc].dso), "/nonexistent/new.so");
	profile__free(p);
}

/* ---- the live aggregator (analysis/live.h) ------------------------------ */

/* The crafted log as a stream: live__follow on a file, read to its end. */
static struct live *live_load(void)
{
	char path[] = "/tmp/test_live_XXXXXX";
	struct live *lv = live__new(NULL);
	int fd;
	assert_non_null(lv);
	assert_int_equal(pmc__logrec_closelog(&rec), 0);
	put(UINT64_C(1) << 40);
	assert_true((fd = mkstemp(path)) >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	unlink(path);
	assert_int_equal(live__follow(lv, fd), 0);
	assert_int_equal(live__wait(lv), 0);
	close(fd);
	return lv;
}

static void live_view_comm(struct live_view *v)
{
	memset(v, 0, sizeof(*v));
	v->sort[0] = SK_COMM;
	v->nsort = 1;
}

/* A stream with one sample of "cold" (pid 20) and nhot of "hot" (pid 10). */
static struct live *hot_and_cold(int nhot)
{
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "hot", 3);
	comm(20, 20, "cold", 3);
	sample(0x100, 20, 20, 0, 4);
	for (int i = 0; i < nhot; i++)
		sample(0x100, 10, 10, 1, 5 + (uint64_t)i);
	return live_load();
}

/* Three samples of "hot", one of "cold": two rows, 75 / 25 % of the whole,
 * in that order. */
static void t_live_rows(void **state)
{
	(void)state;
	struct live *lv = hot_and_cold(3);
	struct live_view v;
	struct live_stats st;
	struct hist h;
	char name[64];
	live_view_comm(&v);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.n, 2);
	assert_int_equal(h.base, 4 * 250000);
	assert_int_equal(h.e[0].self, 3 * 250000);
	assert_int_equal(h.e[0].self_n, 3);
	live__key_str(lv, &h.e[0], SK_COMM, name, sizeof(name));
	assert_string_equal(name, "hot");
	live__key_str(lv, &h.e[1], SK_COMM, name, sizeof(name));
	assert_string_equal(name, "cold");
	report__hist_free(&h);
	live__stats(lv, &st);
	assert_int_equal(st.samples, 4);
	assert_true(st.ended);
	live__free(lv);
}

/* perf top's decay: 7/8 per interval; -z forgets everything. */
static void t_live_decay(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "hot", 3);
	for (int i = 0; i < 8; i++)
		sample(0x100, 10, 10, 0, 5 + (uint64_t)i);
	struct live *lv = live_load();
	struct live_view v;
	struct hist h;
	live_view_comm(&v);
	live__age(lv, 0);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.e[0].self, 8 * 250000 * 7 / 8);
	assert_int_equal(h.e[0].self_n, 7);
	report__hist_free(&h);
	live__age(lv, 1);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.n, 0);
	assert_int_equal(h.base, 0);
	report__hist_free(&h);
	live__free(lv);
}

/* A zoom keeps one command's rows; percentages stay of the whole.  Paused,
 * samples are not added. */
static void t_live_zoom_pause(void **state)
{
	(void)state;
	struct live *lv = hot_and_cold(2);
	struct live_view v;
	struct live_zoom z;
	struct hist h;
	char name[64];
	live_view_comm(&v);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	memset(&z, 0, sizeof(z));
	z.key = SK_COMM;
	z.val = h.e[1];                 /* "cold" */
	report__hist_free(&h);
	v.zoom = &z;
	v.nzoom = 1;
	v.sort[1] = SK_PID;
	v.nsort = 2;
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.e[0].pid, 20);
	assert_int_equal(h.total, 250000);
	assert_int_equal(h.base, 3 * 250000);
	live__key_str(lv, &h.e[0], SK_COMM, name, sizeof(name));
	assert_string_equal(name, "cold");
	report__hist_free(&h);
	live__zoom_str(lv, &z, name, sizeof(name));
	assert_string_equal(name, "Command 'cold'");

	/* paused: a sample read is counted as paused, not added */
	struct pmclog_ev ev;
	struct live_stats st;
	memset(&ev, 0, sizeof(ev));
	ev.pl_state = PMCLOG_OK;
	ev.pl_type = PMCLOG_TYPE_CALLCHAIN;
	ev.pl_u.pl_cc.pl_pmcid = 0x100;
	ev.pl_u.pl_cc.pl_pid = ev.pl_u.pl_cc.pl_tid = 20;
	ev.pl_u.pl_cc.pl_npc = 1;
	ev.pl_u.pl_cc.pl_pc[0] = 0x401000;
	ev.pl_u.pl_cc.pl_pcflags[0] = PMC_CC_F_USERSPACE;
	ev.pl_u.pl_cc.pl_period = 250000;
	live__pause(lv, 1);
	live__feed(lv, &ev);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.total, 250000);
	report__hist_free(&h);
	live__stats(lv, &st);
	assert_int_equal(st.paused, 1);
	assert_int_equal(st.samples, 3);
	live__pause(lv, 0);
	live__feed(lv, &ev);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.total, 2 * 250000);
	report__hist_free(&h);
	live__free(lv);
}

static int teardown(void **state)
{
	(void)state;
	free(buf);
	buf = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_fork_inherits_name_out_of_order),
		cmocka_unit_test(t_fork_then_exec),
		cmocka_unit_test(t_no_thread),
		cmocka_unit_test(t_system_mode_one_event),
		cmocka_unit_test(t_mapping_by_time),
		cmocka_unit_test(t_exec_name_from_comm),
		cmocka_unit_test(t_live_rows),
		cmocka_unit_test(t_live_decay),
		cmocka_unit_test(t_live_zoom_pause),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
