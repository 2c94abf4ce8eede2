/*
 * test_session.c — the sampling session of libpmc (pmc.h, pmc_session_*),
 * what pmc record and pmc top sample through, on the simulated PMU (4
 * CPUs): per-CPU PMCs system-wide (all CPUs or the marked ones), one PMC
 * following the target otherwise, an event allocated whole or not at all,
 * attach/start/stop on a workload, the option checks; a counting session
 * as pmc stat counts through it (per CPU, per thread, groups, readings);
 * and the library's threads leave the program's signals to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmc.h"

static FILE *log_file;

static int setup(void **state)
{
	(void)state;
	setenv("PMC_SIM_MACHINE", "cpus=4,counters=6", 1);
	if (pmc_backend_select("sim") < 0 || pmc_init() < 0)
		return -1;
	/* sampling PMCs start only with a log to write to */
	log_file = tmpfile();
	return log_file && pmc_configure_logfile(fileno(log_file)) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	pmc_close_logfile();
	pmc_fini();
	fclose(log_file);
	return 0;
}

static void test_options(void **state)
{
	unsigned char cpus[4] = { 0 };
	struct pmc_session_opts o = { .ps_system_wide = 1, .ps_threads = 1 };

	(void)state;
	errno = 0;
	assert_null(pmc_session_new(&o));
	assert_int_equal(errno, EINVAL);
	o = (struct pmc_session_opts){ .ps_cpus = cpus, .ps_ncpus = 4 };   /* not system-wide */
	errno = 0;
	assert_null(pmc_session_new(&o));
	assert_int_equal(errno, EINVAL);
	assert_null(pmc_session_new(NULL));
	pmc_session_free(NULL);
}

static void test_system_wide(void **state)
{
	struct pmc_session_opts o = { .ps_system_wide = 1, .ps_period = 100000 };
	struct pmc_session *s;
	const char *spec;
	int cpu;

	(void)state;
	assert_non_null(s = pmc_session_new(&o));
	assert_int_equal(pmc_session_add(s, "cycles", 0), 0);
	assert_int_equal(pmc_session_npmcs(s), 4);
	for (int i = 0; i < 4; i++) {
		pmc_id_t id = pmc_session_pmc(s, i, &spec, &cpu);
		assert_int_not_equal(id, PMC_ID_INVALID);
		assert_string_equal(spec, "cycles");
		assert_int_equal(cpu, i);
	}
	/* a bad event adds nothing and says why */
	assert_int_equal(pmc_session_add(s, "no_such_event", 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(pmc_errmsg(), "no_such_event"));
	assert_int_equal(pmc_session_npmcs(s), 4);
	assert_int_equal(pmc_session_pmc(s, 4, NULL, NULL), PMC_ID_INVALID);
	assert_int_equal(pmc_session_start(s, NULL), 0);
	pmc_session_stop(s);
	pmc_session_free(s);

	/* -C 1,3: those CPUs only; the options' bitmap is copied */
	unsigned char *cpus = calloc(1, 8);
	cpus[1] = cpus[3] = 1;
	o.ps_cpus = cpus;
	o.ps_ncpus = 8;
	assert_non_null(s = pmc_session_new(&o));
	memset(cpus, 0, 8);
	free(cpus);
	assert_int_equal(pmc_session_add(s, "instructions", 0), 0);
	assert_int_equal(pmc_session_npmcs(s), 2);
	pmc_session_pmc(s, 0, NULL, &cpu);
	assert_int_equal(cpu, 1);
	pmc_session_pmc(s, 1, NULL, &cpu);
	assert_int_equal(cpu, 3);
	pmc_session_free(s);

	/* a CPU the machine does not have: nothing to sample on */
	unsigned char far[8] = { [6] = 1 };
	o.ps_cpus = far;
	assert_non_null(s = pmc_session_new(&o));
	assert_int_equal(pmc_session_add(s, "cycles", 0), -1);
	assert_int_equal(errno, ENXIO);
	assert_int_equal(pmc_session_npmcs(s), 0);
	pmc_session_free(s);
}

/* Released PMCs free their rows: a session can be made again and again
 * on 7 rows per CPU. */
static void test_free_releases(void **state)
{
	struct pmc_session_opts o = { .ps_system_wide = 1 };

	(void)state;
	for (int round = 0; round < 10; round++) {
		struct pmc_session *s = pmc_session_new(&o);
		assert_non_null(s);
		assert_int_equal(pmc_session_add(s, "cycles", 0), 0);
		assert_int_equal(pmc_session_add(s, "instructions", 0), 0);
		pmc_session_free(s);
	}
}

static void test_target(void **state)
{
	struct pmc_session_opts o = { .ps_hz = 1000, .ps_callchain = 1 };
	char *argv[] = { "examples/sim/hot70.wl", NULL };
	struct pmc_session *s;
	pid_t pid, failed = 0;
	const char *spec;
	int cpu, status;
	pmc_value_t v;

	(void)state;
	assert_non_null(s = pmc_session_new(&o));
	assert_int_equal(pmc_session_add(s, "cycles", 0), 0);
	assert_int_equal(pmc_session_add(s, "instructions", 0), 0);
	assert_int_equal(pmc_session_npmcs(s), 2);
	pmc_id_t id = pmc_session_pmc(s, 1, &spec, &cpu);
	assert_string_equal(spec, "instructions");
	assert_int_equal(cpu, -1);
	/* a process that does not exist is refused, and named */
	pid_t none = 0x7ffffff0;
	assert_int_equal(pmc_session_attach(s, &none, 1, &failed), -1);
	assert_int_equal(failed, none);
	assert_int_equal(pmc_spawn(argv, &pid), 0);
	assert_int_equal(pmc_session_attach(s, &pid, 1, &failed), 0);
	assert_int_equal(pmc_session_start(s, NULL), 0);
	assert_int_equal(pmc_spawn_go(pid), 0);
	assert_int_equal(pmc_spawn_wait(pid, &status), 0);
	assert_true(WIFEXITED(status));
	pmc_session_stop(s);
	pmc_session_free(s);
	/* freed: its PMCs are gone */
	assert_int_equal(pmc_read(id, &v), -1);
}

/* What a counting session refuses: sampling settings, per-target PMCs of
 * processes or of every CPU, process flags system-wide, the off-CPU event. */
static void test_count_options(void **state)
{
	static const struct pmc_session_opts bad[] = {
		{ .ps_count = 1, .ps_hz = 1000 },
		{ .ps_count = 1, .ps_period = 100000 },
		{ .ps_count = 1, .ps_callchain = 1 },
		{ .ps_count = 1, .ps_ustack = 4096 },
		{ .ps_count = 1, .ps_per_target = 2 },                      /* not threads */
		{ .ps_count = 1, .ps_threads = 1, .ps_per_target = -1 },
		{ .ps_count = 1, .ps_system_wide = 1, .ps_flags = PMC_F_LOG_PROCEXIT },
	};
	struct pmc_session_opts o = { .ps_count = 1 };
	struct pmc_session *s;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_null(pmc_session_new(&bad[i]));
		assert_int_equal(errno, EINVAL);
	}
	assert_non_null(s = pmc_session_new(&o));
	errno = 0;
	assert_int_equal(pmc_session_add(s, "context-switches", 1), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(pmc_session_nevents(s), 0);
	assert_int_equal(pmc_session_npmcs(s), 0);
	pmc_session_free(s);
}

/* Run a simulated workload to its end, the session's PMCs attached to it
 * (process mode) and started before it executes. */
static void run_workload(struct pmc_session *s, const char *path, int attach)
{
	char *argv[] = { (char *)path, NULL };
	pid_t pid;
	int status;

	assert_int_equal(pmc_spawn(argv, &pid), 0);
	if (attach)
		assert_int_equal(pmc_session_attach(s, &pid, 1, NULL), 0);
	assert_int_equal(pmc_session_start(s, NULL), 0);
	assert_int_equal(pmc_spawn_go(pid), 0);
	assert_int_equal(pmc_spawn_wait(pid, &status), 0);
	assert_true(WIFEXITED(status));
	pmc_session_stop(s);
}

/* The counts of event ev added over its PMCs. */
static pmc_value_t event_total(const struct pmc_session *s, int ev)
{
	struct pmc_reading r;
	pmc_value_t sum = 0;
	int first, n = pmc_session_event(s, ev, &first);

	assert_true(n > 0);
	for (int k = 0; k < n; k++) {
		assert_int_equal(pmc_session_read(s, first + k, &r), 0);
		sum += r.pm_value;
	}
	return sum;
}

/* pmc stat -a -e '{cycles,instructions}': one counting PMC per CPU and
 * event, each event's PMCs one after the other, grouped CPU by CPU; the
 * whole machine's counts of a workload are its exact totals. */
static void test_count_system_wide(void **state)
{
	struct pmc_session_opts o = { .ps_count = 1, .ps_system_wide = 1 };
	struct pmc_session *s;
	struct pmc_reading r;
	int first, cpu;

	(void)state;
	assert_non_null(s = pmc_session_new(&o));
	assert_int_equal(pmc_session_add(s, "cycles", 0), 0);
	assert_int_equal(pmc_session_add(s, "instructions", 0), 0);
	assert_int_equal(pmc_session_nevents(s), 2);
	assert_int_equal(pmc_session_event(s, 0, &first), 4);
	assert_int_equal(first, 0);
	assert_int_equal(pmc_session_event(s, 1, &first), 4);
	assert_int_equal(first, 4);
	pmc_session_pmc(s, first + 2, NULL, &cpu);
	assert_int_equal(cpu, 2);
	errno = 0;
	assert_int_equal(pmc_session_event(s, 2, NULL), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(pmc_session_read(s, 8, &r), -1);
	/* a failed add is no event: the numbering goes on without it */
	assert_int_equal(pmc_session_add(s, "no_such_event", 0), -1);
	assert_int_equal(pmc_session_nevents(s), 2);
	assert_int_equal(pmc_session_group(s, 0, 0), -1);
	assert_int_equal(pmc_session_group(s, 0, 2), -1);
	assert_int_equal(pmc_session_group(s, 0, 1), 0);
	run_workload(s, "examples/sim/hot70.wl", 0);
	assert_int_equal(event_total(s, 0), 100009108);
	assert_int_equal(event_total(s, 1), 160014427);
	pmc_session_free(s);
}

/* pmc stat -p: one PMC per event following the process and the threads it
 * starts; with ps_no_inherit the main thread alone. */
static void test_count_process(void **state)
{
	struct pmc_session_opts o = { .ps_count = 1 };
	struct pmc_session *s;
	int cpu;

	(void)state;
	assert_non_null(s = pmc_session_new(&o));
	assert_int_equal(pmc_session_add(s, "instructions", 0), 0);
	assert_int_equal(pmc_session_npmcs(s), 1);
	pmc_session_pmc(s, 0, NULL, &cpu);
	assert_int_equal(cpu, -1);
	run_workload(s, "examples/sim/threads.wl", 1);
	assert_int_equal(event_total(s, 0), 36010000);
	pmc_session_free(s);

	o.ps_no_inherit = 1;
	assert_non_null(s = pmc_session_new(&o));
	assert_int_equal(pmc_session_add(s, "instructions", 0), 0);
	run_workload(s, "examples/sim/threads.wl", 1);
	assert_int_equal(event_total(s, 0), 10000 + 9000000);
	pmc_session_free(s);
}

/* pmc stat --per-thread: one PMC per event and thread, the k-th following
 * the k-th thread alone. */
static void test_count_per_target(void **state)
{
	struct pmc_session_opts o = { .ps_count = 1, .ps_threads = 1, .ps_no_inherit = 1,
	    .ps_per_target = 2 };
	char *a[] = { "examples/sim/hot70.wl", NULL }, *b[] = { "examples/sim/threads.wl", NULL };
	struct pmc_session *s;
	struct pmc_reading r;
	pid_t pids[2], failed = 0;
	int first, status;

	(void)state;
	assert_non_null(s = pmc_session_new(&o));
	assert_int_equal(pmc_session_add(s, "instructions", 0), 0);
	assert_int_equal(pmc_session_event(s, 0, &first), 2);
	assert_int_equal(pmc_spawn(a, &pids[0]), 0);
	assert_int_equal(pmc_spawn(b, &pids[1]), 0);
	errno = 0;
	assert_int_equal(pmc_session_attach(s, pids, 1, &failed), -1);   /* one per PMC */
	assert_int_equal(errno, EINVAL);
	assert_int_equal(pmc_session_attach(s, pids, 2, &failed), 0);
	assert_int_equal(pmc_session_start(s, NULL), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pmc_spawn_go(pids[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pmc_spawn_wait(pids[i], &status), 0);
	pmc_session_stop(s);
	assert_int_equal(pmc_session_read(s, first, &r), 0);
	assert_int_equal(r.pm_value, 160014427);
	assert_int_equal(pmc_session_read(s, first + 1, &r), 0);
	assert_int_equal(r.pm_value, 10000 + 9000000);
	pmc_session_free(s);
}

/* The library's own threads (the log writer started in setup, and any
 * other) take no signals: SIGINT, SIGALRM, SIGTERM, SIGCHLD and SIGIO reach
 * the program's threads, without the program blocking them around
 * pmc_configure_logfile as pmc record once had to. */
/* The session answers through the reason channel as every public call
 * does: it clears what an earlier call left, says why it refused, and a
 * failure's reason survives the releases that undo the event (each
 * pmc_release clears the channel on entry). */
static void test_reasons(void **state)
{
	struct pmc_session_opts o = { .ps_system_wide = 1, .ps_threads = 1 };
	struct pmc_session *s;

	(void)state;
	pmc_seterror(-EIO, PMC_CAUSE_NONE, "an older failure");
	assert_null(pmc_session_new(&o));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(pmc_errmsg(), "inconsistent session options");
	assert_int_equal(pmc_errcause(), PMC_CAUSE_OTHER);

	/* the user stack is set after the allocation: the PMC is released
	 * again, and the refusal's reason is the answer */
	o = (struct pmc_session_opts){ .ps_system_wide = 1, .ps_ustack = 1u << 20 };
	assert_non_null(s = pmc_session_new(&o));
	assert_int_equal(pmc_session_add(s, "cycles", 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_true(strlen(pmc_errmsg()) > 0);
	assert_int_equal(pmc_session_npmcs(s), 0);
	assert_int_equal(pmc_session_nevents(s), 0);
	pmc_session_free(s);

	o = (struct pmc_session_opts){ .ps_system_wide = 1 };
	assert_non_null(s = pmc_session_new(&o));
	assert_int_equal(pmc_session_add(s, "cycles", 0), 0);
	pmc_seterror(-EIO, PMC_CAUSE_NONE, "an older failure");
	assert_int_equal(pmc_session_pmc(s, 99, NULL, NULL), PMC_ID_INVALID);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(pmc_errmsg(), "no PMC 99 in the session");
	pmc_seterror(-EIO, PMC_CAUSE_NONE, "an older failure");
	assert_int_equal(pmc_session_event(s, 5, NULL), -1);
	assert_string_equal(pmc_errmsg(), "no event 5 in the session");
	assert_int_equal(pmc_session_group(s, 0, 0), -1);
	assert_string_equal(pmc_errmsg(), "an event cannot join its own group");
	pmc_seterror(-EIO, PMC_CAUSE_NONE, "an older failure");
	assert_int_equal(pmc_session_event(s, 0, NULL), 4);
	assert_string_equal(pmc_errmsg(), "");
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NONE);
	pmc_session_free(s);
}

static void test_threads_take_no_signals(void **state)
{
	static const int sigs[] = { SIGINT, SIGALRM, SIGTERM, SIGCHLD, SIGIO };
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int others = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[300], line[256];
		unsigned long long blk = 0;
		FILE *f;

		if (e->d_name[0] == '.' || atoi(e->d_name) == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;             /* gone meanwhile */
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "SigBlk: %llx", &blk) == 1)
				break;
		fclose(f);
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			assert_true(blk & (1ull << (sigs[i] - 1)));
		others++;
	}
	closedir(d);
	assert_true(others >= 1);         /* the log writer at least */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_take_no_signals),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_system_wide),
		cmocka_unit_test(test_free_releases),
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_count_options),
		cmocka_unit_test(test_count_system_wide),
		cmocka_unit_test(test_count_process),
		cmocka_unit_test(test_count_per_target),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
