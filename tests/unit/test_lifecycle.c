/*
 * test_lifecycle.c — the order of a PMC's calls does not change what it
 * counts, on the simulated PMU where counts are exact: a spawned command is
 * counted from its exec whatever the PMC's state when attached (the
 * launcher's own work before the exec, sim key launch=N instructions, is
 * never the command's), and a group is opened as a group whatever the order
 * of pmc_attach / pmc_start of its leader and members.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmc.h"
#include "helpers/pmc_test.h"

#define NCPU 1
#define LAUNCH 12345ull            /* the launcher's instructions: */
#define LAUNCH_S "12345"           /* PMC_SIM_MACHINE's launch= */
#define HOT70_INSNS 160014427ull   /* examples/sim/hot70.wl, exact */
#define HOT70_CYCLES 100009108ull

/* Each test on a machine of its own (PMC_SIM_MACHINE is read by init). */
static void machine(const char *spec)
{
	setenv("PMC_SIM_MACHINE", spec, 1);
	assert_int_equal(pmc_backend_select("sim"), 0);
	assert_int_equal(pmc_init(), 0);
}

static int fini(void **state)
{
	(void)state;
	pmc_fini();
	return 0;
}

static pid_t spawn_hot70(void)
{
	char *argv[] = { "examples/sim/hot70.wl", NULL };
	pid_t pid;
	assert_int_equal(pmc_spawn(argv, &pid), 0);
	return pid;
}

static void go_and_wait(pid_t pid)
{
	int st;
	assert_int_equal(pmc_spawn_go(pid), 0);
	assert_int_equal(pmc_spawn_wait(pid, &st), 0);
	assert_true(WIFEXITED(st));
}

/*
 * Two commands, one PMC attached to the first before its start and to the
 * second after a stop (hwpmc refuses an attach while a PMC runs: EBUSY),
 * then started again; a second PMC started after its attach; a third
 * never started.  Each counts the commands' instructions exactly, never the
 * launcher's, and the third nothing; a system-mode PMC sees the launchers'
 * work (so it exists).
 */
static void test_spawn_counts_from_exec(void **s)
{
	pmc_id_t tc, late, never, sc[NCPU];
	pmc_value_t v, total = 0;
	pid_t a, b;
	(void)s;
	machine("cpus=1,counters=6,launch=" LAUNCH_S);
	for (int cpu = 0; cpu < NCPU; cpu++) {
		assert_int_equal(pmc_allocate("instructions", PMC_MODE_SC, 0, cpu, &sc[cpu], 0), 0);
		assert_int_equal(pmc_start(sc[cpu]), 0);
	}
	assert_int_equal(pmc_allocate("instructions", PMC_MODE_TC, 0, PMC_CPU_ANY, &tc, 0), 0);
	assert_int_equal(pmc_allocate("instructions", PMC_MODE_TC, 0, PMC_CPU_ANY, &late, 0), 0);
	assert_int_equal(pmc_allocate("instructions", PMC_MODE_TC, 0, PMC_CPU_ANY, &never, 0), 0);
	a = spawn_hot70();
	assert_int_equal(pmc_attach(tc, a), 0);
	assert_int_equal(pmc_start(tc), 0);            /* attached, then started */
	b = spawn_hot70();
	assert_int_equal(pmc_attach(tc, b), -1);       /* hwpmc: not while it runs */
	assert_int_equal(errno, EBUSY);
	assert_int_equal(pmc_stop(tc), 0);
	assert_int_equal(pmc_attach(tc, b), 0);        /* attached stopped, */
	assert_int_equal(pmc_start(tc), 0);            /* started again before either exec */
	assert_int_equal(pmc_attach(late, b), 0);
	assert_int_equal(pmc_attach(never, b), 0);     /* never started */
	go_and_wait(a);
	assert_int_equal(pmc_start(late), 0);          /* started after a's exit, before b's exec */
	go_and_wait(b);
	assert_int_equal(pmc_read(tc, &v), 0);
	assert_int_equal(v, 2 * HOT70_INSNS);
	assert_int_equal(pmc_read(late, &v), 0);
	assert_int_equal(v, HOT70_INSNS);
	assert_int_equal(pmc_read(never, &v), 0);
	assert_int_equal(v, 0);                        /* not enabled by the exec */
	for (int cpu = 0; cpu < NCPU; cpu++) {
		assert_int_equal(pmc_read(sc[cpu], &v), 0);
		total += v;
		assert_int_equal(pmc_release(sc[cpu]), 0);
	}
	assert_int_equal(total, 2 * (HOT70_INSNS + LAUNCH));
	assert_int_equal(pmc_release(tc), 0);
	assert_int_equal(pmc_release(late), 0);
	assert_int_equal(pmc_release(never), 0);
}

/*
 * A group of three on a PMU with two event counters and the cycle counter
 * (cycles on the cycle counter, two instruction events on the two event
 * counters, plus a fourth PMC that competes for them): the group is
 * scheduled as one unit, so its members are enabled and running for the
 * same time and their values keep the exact ratio.  `order` says which
 * comes first: the leader or a member.
 */
static void group_round(int member_first, int start_member_first)
{
	pmc_id_t l, m1, m2, other;
	struct pmc_reading rl, r1, r2;
	pid_t pid = spawn_hot70();
	(void)start_member_first;
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_TC, 0, PMC_CPU_ANY, &l, 0), 0);
	assert_int_equal(pmc_allocate("instructions", PMC_MODE_TC, 0, PMC_CPU_ANY, &m1, 0), 0);
	assert_int_equal(pmc_allocate("instructions", PMC_MODE_TC, 0, PMC_CPU_ANY, &m2, 0), 0);
	/* a fourth PMC on three rows: past hwpmc's limit, shared (Linux's rules) */
	assert_int_equal(pmc_allocate_shared("branches", PMC_MODE_TC, 0, PMC_CPU_ANY, &other, 0), 0);
	assert_int_equal(pmc_group(l, m1), 0);
	assert_int_equal(pmc_group(l, m2), 0);
	if (member_first) {
		assert_int_equal(pmc_attach(m1, pid), 0);
		assert_int_equal(pmc_attach(m2, pid), 0);
		assert_int_equal(pmc_attach(l, pid), 0);    /* brought along: no EEXIST */
		EXPECT_ERR(pmc_attach(l, pid), EEXIST);      /* asked twice */
	} else {
		assert_int_equal(pmc_attach(l, pid), 0);
		assert_int_equal(pmc_attach(m1, pid), 0);
		assert_int_equal(pmc_attach(m2, pid), 0);
	}
	assert_int_equal(pmc_attach(other, pid), 0);
	if (start_member_first) {
		assert_int_equal(pmc_start(m1), 0);
		assert_int_equal(pmc_start(m2), 0);
		assert_int_equal(pmc_start(other), 0);
		assert_int_equal(pmc_start(l), 0);
	} else {
		assert_int_equal(pmc_start(l), 0);
		assert_int_equal(pmc_start(other), 0);
		assert_int_equal(pmc_start(m1), 0);
		assert_int_equal(pmc_start(m2), 0);
	}
	go_and_wait(pid);
	assert_int_equal(pmc_read_ext(l, &rl), 0);
	assert_int_equal(pmc_read_ext(m1, &r1), 0);
	assert_int_equal(pmc_read_ext(m2, &r2), 0);
	/* multiplexed (four events, three counters), and as one unit */
	assert_true(rl.pm_running < rl.pm_enabled);
	assert_int_equal(r1.pm_running, rl.pm_running);
	assert_int_equal(r2.pm_running, rl.pm_running);
	assert_int_equal(r1.pm_raw, r2.pm_raw);
	assert_true(r1.pm_raw > 0);
	/* the group counted the same stretches of the program: its ratio is
	 * hot70's, to the precision of a block's rounding */
	double ipc = (double)r1.pm_raw / (double)rl.pm_raw;
	double want = (double)HOT70_INSNS / (double)HOT70_CYCLES;
	assert_true(ipc > want * 0.999 && ipc < want * 1.001);
	assert_int_equal(pmc_release(m1), 0);
	assert_int_equal(pmc_release(m2), 0);
	assert_int_equal(pmc_release(l), 0);
	assert_int_equal(pmc_release(other), 0);
}

static void test_group_any_order(void **s)
{
	(void)s;
	/* two event counters and the cycle counter for four PMCs */
	machine("cpus=1,counters=2,launch=" LAUNCH_S);
	for (int mf = 0; mf < 2; mf++)
		for (int sf = 0; sf < 2; sf++)
			group_round(mf, sf);
}

/* ---- Linux, software events ------------------------------------------- */

static const char *helper(const char *name)
{
	static char path[512];
	const char *b = getenv("PMC_BUILD");
	snprintf(path, sizeof(path), "%s/helpers/%s", b && *b ? b : "build", name);
	return path;
}

/* perf stat's count of EVENT for CMD (0 and a skip note if perf is absent
 * or keeps failing: perf 6.1 aborts now and then). */
static long perf_stat(const char *event, const char *cmd)
{
	char line[512], q[1024];
	snprintf(q, sizeof(q), "perf stat -x, -e %s -- %s 2>&1 >/dev/null", event, cmd);
	for (int tries = 0; tries < 3; tries++) {
		FILE *f = popen(q, "r");
		long v = -1;
		if (!f)
			return 0;
		while (fgets(line, sizeof(line), f))
			if (strstr(line, ",page-faults,") && line[0] >= '0' && line[0] <= '9')
				v = atol(line);
		if (pclose(f) == 0 && v >= 0)
			return v;
	}
	return 0;
}

static const char *touch_cmd(void)
{
	static char cmd[600];
	snprintf(cmd, sizeof(cmd), "%s 2000", helper("touch_pages"));
	return cmd;
}

static pid_t spawn_touch(void)
{
	char *argv[] = { (char *)helper("touch_pages"), "2000", NULL };
	pid_t pid;
	assert_int_equal(pmc_spawn(argv, &pid), 0);
	return pid;
}

/*
 * One command, two PMCs of page-faults: one attached and then started, one
 * started (on a sleeping process), refused an attach while it runs
 * (EBUSY), stopped, attached and started again.  Both count the
 * command from its exec: the same number, as perf stat's within 2 %.
 */
static void test_linux_spawn_counts_from_exec(void **s)
{
	pmc_id_t a, b;
	pmc_value_t va, vb;
	pid_t idle, pid;
	long want;
	(void)s;
	assert_int_equal(pmc_backend_select("linux"), 0);
	assert_int_equal(pmc_init(), 0);
	if ((idle = fork()) == 0) {
		pause();
		_exit(0);
	}
	assert_true(idle > 0);
	/* its copy-on-write faults after the fork are its own, not the
	 * command's: b is attached only once it sleeps in pause() */
	for (;;) {
		char path[64], st[256], *r;
		FILE *f;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)idle);
		assert_non_null(f = fopen(path, "r"));
		r = fgets(st, sizeof(st), f);
		fclose(f);
		assert_non_null(r);
		if ((r = strrchr(st, ')')) && r[1] == ' ' && r[2] == 'S')
			break;
		usleep(1000);
	}
	assert_int_equal(pmc_allocate("page-faults", PMC_MODE_TC, 0, PMC_CPU_ANY, &a, 0), 0);
	assert_int_equal(pmc_allocate("page-faults", PMC_MODE_TC, 0, PMC_CPU_ANY, &b, 0), 0);
	assert_int_equal(pmc_attach(b, idle), 0);
	assert_int_equal(pmc_start(b), 0);
	pid = spawn_touch();
	assert_int_equal(pmc_attach(a, pid), 0);
	assert_int_equal(pmc_start(a), 0);
	assert_int_equal(pmc_attach(b, pid), -1);      /* hwpmc: not while b runs */
	assert_int_equal(errno, EBUSY);
	assert_int_equal(pmc_stop(b), 0);
	assert_int_equal(pmc_attach(b, pid), 0);       /* stopped: attached, */
	assert_int_equal(pmc_start(b), 0);             /* running again before the exec */
	go_and_wait(pid);
	kill(idle, SIGKILL);
	waitpid(idle, NULL, 0);
	assert_int_equal(pmc_read(a, &va), 0);
	assert_int_equal(pmc_read(b, &vb), 0);
	assert_true(va >= 2000);
	assert_int_equal(vb, va);                      /* the launcher's faults: none */
	want = perf_stat("page-faults", touch_cmd());
	if (want > 0) {
		print_message("page-faults: pmc %llu, perf stat %ld\n", (unsigned long long)va, want);
		assert_true((double)va >= want * 0.98 && (double)va <= want * 1.02);
	}
	assert_int_equal(pmc_release(a), 0);
	assert_int_equal(pmc_release(b), 0);
}

/*
 * A group whose members are attached before the leader is still a group:
 * a member counts only while its leader runs (perf's group scheduling),
 * nothing while the leader is stopped.  Both orders, then the counts
 * against perf stat's of the same group.
 */
static void test_linux_group_any_order(void **s)
{
	(void)s;
	assert_int_equal(pmc_backend_select("linux"), 0);
	assert_int_equal(pmc_init(), 0);
	for (int member_first = 0; member_first < 2; member_first++) {
		pmc_id_t l, m;
		pmc_value_t vl, vm;
		pid_t pid;
		assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &l, 0), 0);
		assert_int_equal(pmc_allocate("page-faults", PMC_MODE_TC, 0, PMC_CPU_ANY, &m, 0), 0);
		assert_int_equal(pmc_group(l, m), 0);
		pid = spawn_touch();
		if (member_first) {
			assert_int_equal(pmc_attach(m, pid), 0);
			assert_int_equal(pmc_attach(l, pid), 0);
		} else {
			assert_int_equal(pmc_attach(l, pid), 0);
			assert_int_equal(pmc_attach(m, pid), 0);
		}
		assert_int_equal(pmc_start(m), 0);     /* the leader stays stopped */
		go_and_wait(pid);
		assert_int_equal(pmc_read(l, &vl), 0);
		assert_int_equal(pmc_read(m, &vm), 0);
		assert_int_equal(vl, 0);
		assert_int_equal(vm, 0);               /* in the group: off with its leader */
		assert_int_equal(pmc_release(m), 0);
		assert_int_equal(pmc_release(l), 0);

		assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &l, 0), 0);
		assert_int_equal(pmc_allocate("page-faults", PMC_MODE_TC, 0, PMC_CPU_ANY, &m, 0), 0);
		assert_int_equal(pmc_group(l, m), 0);
		pid = spawn_touch();
		assert_int_equal(pmc_attach(member_first ? m : l, pid), 0);
		assert_int_equal(pmc_attach(member_first ? l : m, pid), 0);
		assert_int_equal(pmc_start(m), 0);     /* the member started first */
		assert_int_equal(pmc_start(l), 0);
		go_and_wait(pid);
		assert_int_equal(pmc_read(l, &vl), 0);
		assert_int_equal(pmc_read(m, &vm), 0);
		assert_true(vl > 0);
		assert_true(vm >= 2000);
		long want = perf_stat("'{task-clock,page-faults}'", touch_cmd());
		if (want > 0) {
			print_message("grouped page-faults: pmc %llu, perf stat %ld\n",
			    (unsigned long long)vm, want);
			assert_true((double)vm >= want * 0.98 && (double)vm <= want * 1.02);
		}
		assert_int_equal(pmc_release(m), 0);
		assert_int_equal(pmc_release(l), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_spawn_counts_from_exec, fini),
		cmocka_unit_test_teardown(test_group_any_order, fini),
		cmocka_unit_test_teardown(test_linux_spawn_counts_from_exec, fini),
		cmocka_unit_test_teardown(test_linux_group_any_order, fini),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
