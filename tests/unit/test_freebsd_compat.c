/*
 * test_freebsd_compat.c — issue 12: libpmc behaves as FreeBSD's libpmc and
 * hwpmc do, checked the way FreeBSD's tools call the API (pmcstat,
 * pmccontrol, libpmcstat): -1 with errno, counts handed to pmc_allocate,
 * pmc_set / pmc_read / pmc_rw, the driver statistics around a log.  Each
 * test names the issue item it covers; the authority is FreeBSD's
 * lib/libpmc/libpmc.c and sys/dev/hwpmc/hwpmc_mod.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmc.h"
#include "pmclog.h"
#include "core/settings.h"
#include "common/sysinfo.h"
#include "event/event.h"
#include "helpers/pmc_test.h"

/* Item 1: an event libpmc cannot name is EINVAL (libpmc.c's pmc_allocate). */
static void test_unknown_event_einval(void **s)
{
	pmc_id_t id;
	(void)s;
	EXPECT_ERRNO(pmc_allocate("no-such-event", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), EINVAL);
	EXPECT_ERRNO(pmc_allocate("SOFT-NO.SUCH", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), EINVAL);
	EXPECT_ERRNO(pmc_allocate("no-such-event", PMC_MODE_SC, 0, 0, &id, 0), EINVAL);
}

/*
 * Item 2: pmcstat sets PMC_F_CALLCHAIN on every event, counting ones too
 * (its -p / -s); hwpmc accepts it there and it means nothing.
 */
static void test_callchain_on_counting(void **s)
{
	pmc_id_t tc, sc;
	pmc_value_t v;
	(void)s;
	assert_int_equal(pmc_allocate("SOFT-PAGE_FAULT.ALL", PMC_MODE_TC, PMC_F_CALLCHAIN,
	    PMC_CPU_ANY, &tc, (uint64_t)-1), 0);
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_SC, PMC_F_CALLCHAIN, 0, &sc,
	    (uint64_t)-1), 0);
	assert_int_equal(pmc_attach(tc, 0), 0);
	assert_int_equal(pmc_start(tc), 0);
	assert_int_equal(pmc_start(sc), 0);
	assert_int_equal(pmc_stop(tc), 0);
	assert_int_equal(pmc_read(tc, &v), 0);
	assert_int_equal(pmc_stop(sc), 0);
	assert_int_equal(pmc_release(tc), 0);
	assert_int_equal(pmc_release(sc), 0);
}

/*
 * Item 3: hwpmc_mod.c keeps a counting PMC's count as pm_initial, which a
 * system-mode PMC starts from and a process-mode PMC never uses (its
 * per-process values start at 0).  pmcstat allocates with count -1.
 */
static void test_initial_count_per_mode(void **s)
{
	pmc_id_t tc, sc;
	pmc_value_t v, v2;
	(void)s;
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &tc,
	    (uint64_t)-1), 0);
	assert_int_equal(pmc_attach(tc, 0), 0);
	assert_int_equal(pmc_start(tc), 0);
	pmc_test_spin_ms(20);
	assert_int_equal(pmc_stop(tc), 0);
	assert_int_equal(pmc_read(tc, &v), 0);
	/* task-clock ns of ~20 ms of CPU, not 2^64 - 1 + that */
	assert_true(v >= 15000000ull && v < 10000000000ull);
	/* PMCSETCOUNT on a process-mode PMC sets pm_initial only */
	assert_int_equal(pmc_set(tc, 777), 0);
	assert_int_equal(pmc_read(tc, &v2), 0);
	assert_int_equal(v2, v);
	/* PMCRW with a new value sets the saved value, which a read returns */
	assert_int_equal(pmc_write(tc, 1000), 0);
	assert_int_equal(pmc_read(tc, &v2), 0);
	assert_int_equal(v2, 1000);
	assert_int_equal(pmc_release(tc), 0);

	/* system mode: counts from the initial value, and from pmc_set's */
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_SC, 0, 0, &sc, 5000000000ull), 0);
	assert_int_equal(pmc_read(sc, &v), 0);
	assert_int_equal(v, 5000000000ull);
	assert_int_equal(pmc_start(sc), 0);
	assert_int_equal(pmc_stop(sc), 0);
	assert_int_equal(pmc_read(sc, &v), 0);
	assert_true(v >= 5000000000ull);
	assert_int_equal(pmc_set(sc, 777), 0);
	assert_int_equal(pmc_read(sc, &v), 0);
	assert_int_equal(v, 777);
	assert_int_equal(pmc_release(sc), 0);
}

/*
 * Item 7: the driver's statistics outlive the log: pmcstat compares them
 * before and after pmc_close_logfile ("sampling was paused").
 */
static void test_driver_stats_after_close(void **s)
{
	struct pmc_driverstats before, after;
	char path[] = "/tmp/pmc-fbsd-XXXXXX";
	pmc_id_t id;
	int fd;
	(void)s;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(pmc_get_driver_stats(&before), 0);
	assert_int_equal(pmc_allocate("cpu-clock", PMC_MODE_TS, 0, PMC_CPU_ANY, &id, 1000000), 0);
	assert_int_equal(pmc_configure_logfile(fd), 0);
	assert_int_equal(pmc_attach(id, 0), 0);
	assert_int_equal(pmc_start(id), 0);
	pmc_test_spin_ms(60);
	assert_int_equal(pmc_stop(id), 0);
	assert_int_equal(pmc_close_logfile(), 0);
	assert_int_equal(pmc_get_driver_stats(&after), 0);
	/* ~60 samples at one per ms of CPU went through the log */
	assert_true(after.pm_intr_processed >= before.pm_intr_processed + 20);
	assert_true(after.pm_log_sweeps > before.pm_log_sweeps);
	assert_true(after.pm_buffer_requests > before.pm_buffer_requests);
	assert_int_equal(pmc_release(id), 0);
	/* and they keep counting across logs: a second log adds to them */
	assert_int_equal(pmc_get_driver_stats(&before), 0);
	assert_int_equal(before.pm_intr_processed, after.pm_intr_processed);
	close(fd);
}

/*
 * Item 4: FreeBSD's SOFT events (pmc.soft(3)), with or without SOFT-; the
 * SOFT class lists FreeBSD's names; CLOCK.* count clock ticks (hz 1000).
 */
static void test_soft_events(void **s)
{
	const char **names;
	int n, have_all = 0;
	pmc_id_t id;
	pmc_value_t v;
	(void)s;
	assert_int_equal(pmc_event_names_of_class(PMC_CLASS_SOFT, &names, &n), 0);
	assert_string_equal(names[0], "CLOCK.HARD");
	for (int i = 0; i < n; i++)
		have_all |= !strcmp(names[i], "PAGE_FAULT.ALL");
	free(names);
	assert_true(have_all);
	const char *known[] = { "CLOCK.HARD", "CLOCK.STAT", "CLOCK.PROF", "PAGE_FAULT.ALL",
		"SOFT-CLOCK.HARD", "soft-page_fault.all" };
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		assert_int_equal(pmc_allocate(known[i], PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
		assert_int_equal(pmc_release(id), 0);
	}
	/* known to FreeBSD, not countable on Linux: EOPNOTSUPP, with the reason */
	EXPECT_ERRNO(pmc_allocate("SOFT-PAGE_FAULT.READ", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0),
	    EOPNOTSUPP);
	assert_non_null(strstr(pmc_errmsg(), "read/write"));
	EXPECT_ERRNO(pmc_allocate("PAGE_FAULT.WRITE", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0),
	    EOPNOTSUPP);
	if (pmc_allocate("SOFT-LOCK.FAILED", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0) == 0)
		assert_int_equal(pmc_release(id), 0);
	else
		assert_int_equal(errno, EOPNOTSUPP);   /* no lock:contention_begin */

	/* counting: ~50 ms of CPU is ~50 hardclock ticks */
	assert_int_equal(pmc_allocate("CLOCK.HARD", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_attach(id, 0), 0);
	assert_int_equal(pmc_start(id), 0);
	pmc_test_spin_ms(50);
	assert_int_equal(pmc_stop(id), 0);
	assert_int_equal(pmc_read(id, &v), 0);
	assert_true(v >= 40 && v <= 80);
	assert_int_equal(pmc_release(id), 0);
}

/* Item 4: a CLOCK.HARD sampling count is in ticks: 5 = every 5 ms of CPU. */
static void test_clock_sampling_in_ticks(void **s)
{
	struct pmc_driverstats before, after;
	char path[] = "/tmp/pmc-fbsd-XXXXXX";
	pmc_id_t id;
	int fd;
	(void)s;
	/* hwpmc's kern.hwpmc.mincount (1000) would raise 5 to 1000 ticks */
	setenv("PMC_MINCOUNT", "1", 1);
	pmc__settings_reset();
	pmc_fini();
	assert_int_equal(pmc_init(), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(pmc_get_driver_stats(&before), 0);
	assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_TS, 0, PMC_CPU_ANY, &id, 5), 0);
	assert_int_equal(pmc_configure_logfile(fd), 0);
	assert_int_equal(pmc_attach(id, 0), 0);
	assert_int_equal(pmc_start(id), 0);
	pmc_test_spin_ms(100);
	assert_int_equal(pmc_stop(id), 0);
	assert_int_equal(pmc_close_logfile(), 0);
	assert_int_equal(pmc_get_driver_stats(&after), 0);
	/* ~20 samples (a period of 5 ns would have given ~10^7) */
	assert_true(after.pm_intr_processed - before.pm_intr_processed >= 10);
	assert_true(after.pm_intr_processed - before.pm_intr_processed <= 40);
	assert_int_equal(pmc_release(id), 0);
	close(fd);
	unsetenv("PMC_MINCOUNT");
	pmc__settings_reset();
	pmc_fini();
	assert_int_equal(pmc_init(), 0);
}

/*
 * Items 5 and 8: pmcstat -E -p: a TC PMC with LOG_PROCEXIT attached to a
 * process that then execs and exits.  The log has, as hwpmc's: INITIALIZE
 * with pmc_cpuinfo's CPU type; PROCEXEC with the image's full path and
 * hwpmc's addresses (libpmcstat's reading: pl_baseaddr is where the dynamic
 * linker was loaded, pl_dynaddr the load bias of a position-independent
 * executable, 0 for an ET_EXEC one); PROCEXIT for the target itself with
 * its count.
 */
static void test_procexit_and_procexec(void **s)
{
	const struct pmc_cpuinfo *ci;
	char path[] = "/tmp/pmc-fbsd-XXXXXX", sh[PATH_MAX];
	struct pmclog_ev ev;
	int fd, go[2], st, arch = -1, nexit = 0, nexec = 0, next = 0, nall = 0;
	pmc_value_t exit_value = 0;
	pmc_id_t id;
	pid_t child;
	void *lp;
	uint64_t sh_base = 0, ld_base = 0;
	(void)s;
	assert_non_null(realpath("/bin/sh", sh));
	assert_int_equal(pmc_cpuinfo(&ci), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(pipe(go), 0);
	if ((child = fork()) == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(99);
		execl("/bin/sh", "sh", "-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done", (char *)NULL);
		_exit(98);
	}
	close(go[0]);
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, PMC_F_LOG_PROCEXIT, PMC_CPU_ANY,
	    &id, 0), 0);
	assert_int_equal(pmc_configure_logfile(fd), 0);
	assert_int_equal(pmc_attach(id, child), 0);
	assert_int_equal(pmc_start(id), 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(pmc_stop(id), 0);
	assert_int_equal(pmc_close_logfile(), 0);
	assert_int_equal(pmc_release(id), 0);

	lseek(fd, 0, SEEK_SET);
	lp = pmclog_open(fd);
	assert_non_null(lp);
	while (pmclog_read(lp, &ev) == 0) {
		/* item 8: a FreeBSD reader never sees our record types */
		next += ev.pl_type >= PMCLOG_TYPE_HEADER;
		switch (ev.pl_type) {
		case PMCLOG_TYPE_INITIALIZE:
			arch = (int)ev.pl_u.pl_i.pl_arch;
			break;
		case PMCLOG_TYPE_MAP_IN:
			/* sh's first executable mapping, and ld.so's last one
			 * before the PROCEXEC (the child's snapshot before its
			 * exec maps the test program's ld.so too) */
			if (ev.pl_u.pl_mi.pl_pid != child)
				break;
			if (strcmp(ev.pl_u.pl_mi.pl_pathname, sh) == 0 && sh_base == 0)
				sh_base = ev.pl_u.pl_mi.pl_start - ev.pl_u.pl_mi.pl_pgoff;
			else if (strstr(ev.pl_u.pl_mi.pl_pathname, "/ld-") && nexec == 0)
				ld_base = ev.pl_u.pl_mi.pl_start - ev.pl_u.pl_mi.pl_pgoff;
			break;
		case PMCLOG_TYPE_PROCEXEC:
			if (ev.pl_u.pl_x.pl_pid != child)
				break;
			nexec++;
			assert_string_equal(ev.pl_u.pl_x.pl_pathname, sh);
			assert_int_equal(ev.pl_u.pl_x.pl_pmcid, id);
			/* hwpmc's meaning (libpmcstat links the executable at
			 * pi_vaddr + pl_dynaddr and ld.so at pl_baseaddr): sh is a
			 * dynamic PIE on the systems this runs on */
			assert_true(ld_base != 0 && sh_base != 0);
			assert_int_equal(ev.pl_u.pl_x.pl_baseaddr, ld_base);
			assert_int_equal(ev.pl_u.pl_x.pl_dynaddr, sh_base);
			break;
		case PMCLOG_TYPE_PROCEXIT:
			if ((pid_t)ev.pl_u.pl_e.pl_pid == child) {
				nexit++;
				exit_value = ev.pl_u.pl_e.pl_value;
				assert_int_equal(ev.pl_u.pl_e.pl_pmcid, id);
			}
			break;
		default:
			break;
		}
	}
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	assert_non_null(pmclog_header(lp));       /* still parsed, not delivered */
	pmclog_close(lp);
	assert_int_equal(next, 0);
	/* ... unless it asks, as pmc's tools do */
	lseek(fd, 0, SEEK_SET);
	lp = pmclog_open(fd);
	assert_non_null(lp);
	assert_int_equal(pmclog_set_extensions(lp, 1), 0);
	assert_int_equal(pmclog_read(lp, &ev), 0);
	assert_int_equal(ev.pl_type, PMCLOG_TYPE_HEADER);
	while (pmclog_read(lp, &ev) == 0)
		nall += ev.pl_type == PMCLOG_TYPE_COMM;
	pmclog_close(lp);
	assert_true(nall > 0);
	close(fd);
	assert_int_equal(arch, (int)ci->pm_cputype);
	assert_int_equal(nexec, 1);
	assert_int_equal(nexit, 1);
	assert_true(exit_value > 1000000);           /* > 1 ms of task-clock */
}

/*
 * Item 6: hwpmc signals SIGIO to the owner when a PMC loses its last
 * target; pmcstat -p waits for it.  Here an owner gets it when it has a
 * handler or blocks SIGIO to wait for it (the default action would kill).
 */
static volatile sig_atomic_t got_sigio;
static void on_sigio(int sig) { (void)sig; got_sigio = 1; }

static void test_sigio_on_last_target(void **s)
{
	struct sigaction sa;
	sigset_t io, pend, old;
	pmc_id_t id;
	pmc_value_t v;
	pid_t child;
	int go[2], sig, st;
	(void)s;
	/* no handler, not blocked: nothing is sent (it would end this test) */
	signal(SIGIO, SIG_DFL);
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_attach(id, 0), 0);
	assert_int_equal(pmc_detach(id, 0), 0);
	assert_int_equal(pmc_release(id), 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigio;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGIO, &sa, NULL), 0);
	sigemptyset(&io);
	sigaddset(&io, SIGIO);
	assert_int_equal(sigprocmask(SIG_BLOCK, &io, &old), 0);

	/* the last target detached: SIGIO at once */
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_attach(id, 0), 0);
	assert_int_equal(pmc_detach(id, 0), 0);
	assert_int_equal(sigpending(&pend), 0);
	assert_true(sigismember(&pend, SIGIO));
	assert_int_equal(sigwait(&io, &sig), 0);
	assert_int_equal(pmc_release(id), 0);

	/* the last target exited: SIGIO (pmcstat -p PID's end) */
	assert_int_equal(pipe(go), 0);
	if ((child = fork()) == 0) {
		char c;
		close(go[1]);
		_exit(read(go[0], &c, 1) == 1 ? 0 : 1);
	}
	close(go[0]);
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_attach(id, child), 0);
	assert_int_equal(pmc_start(id), 0);
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	assert_int_equal(sigwait(&io, &sig), 0);      /* blocks until it comes */
	assert_int_equal(sig, SIGIO);
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_int_equal(pmc_stop(id), 0);
	assert_int_equal(pmc_read(id, &v), 0);       /* its count stays readable */
	EXPECT_ERRNO(pmc_start(id), ESRCH);          /* nothing left to count */
	assert_int_equal(pmc_release(id), 0);
	assert_int_equal(sigprocmask(SIG_SETMASK, &old, NULL), 0);
	signal(SIGIO, SIG_DFL);
	assert_int_equal(got_sigio, 0);              /* taken by sigwait, not the handler */
}

/*
 * The event blocks and alias lists of <sys/pmc.h>, expanded the way
 * FreeBSD's libpmc builds its tables from them.
 */
struct alias { const char *name; enum pmc_event ev; };
#define __PMC_EV_ALIAS(N, CODE) { N, PMC_EV_##CODE },
static const struct alias a76[] = { __PMC_EV_ALIAS_ARMV8_CORTEX_A76() };
static const struct alias a8[] = { __PMC_EV_ALIAS_ARMV7_CORTEX_A8() };
static const struct alias iaf[] = { __PMC_EV_ALIAS_IAF() };
#undef __PMC_EV_ALIAS

static void test_event_blocks_and_aliases(void **s)
{
	int found = 0;
	(void)s;
	assert_int_equal(PMC_EV_K8_FIRST, 0x2080);
	assert_int_equal(PMC_EV_ARMV7_FIRST, 0x14000);
	assert_int_equal(PMC_EV_ARMV8_FIRST, 0x14100);
	assert_string_equal(pmc_name_of_event(PMC_EV_K8_LAST), "NB_HT_BUS2_BANDWIDTH");
	assert_string_equal(pmc_name_of_event(PMC_EV_ARMV7_EVENT_11H), "EVENT_11H");
	for (size_t i = 0; i < sizeof(a76) / sizeof(a76[0]); i++) {
		assert_true(a76[i].ev >= PMC_EV_ARMV8_FIRST && a76[i].ev <= PMC_EV_ARMV8_LAST);
		if (!strcmp(a76[i].name, "CPU_CYCLES")) {
			assert_int_equal(a76[i].ev, PMC_EV_ARMV8_EVENT_11H);
			found++;
		}
		if (!strcmp(a76[i].name, "STALL_BACKEND")) {
			assert_int_equal(a76[i].ev, PMC_EV_ARMV8_EVENT_24H);
			found++;
		}
	}
	assert_int_equal(found, 2);
	assert_true(sizeof(a8) / sizeof(a8[0]) > 50);
	assert_int_equal(iaf[0].ev, PMC_EV_IAF_INSTR_RETIRED_ANY);
	assert_int_equal(PMC_CALLCHAIN_TO_CPUFLAGS(3, PMC_CC_F_USERSPACE), 0x30001);
	assert_int_equal(PMCLOG_HEADER_TO_TYPE(0xEE100028u), PMCLOG_TYPE_CALLCHAIN);
	assert_int_equal(sizeof(((struct pmc_op_getdyneventinfo *)0)->pm_events) /
	    sizeof(struct pmc_dyn_event_descr), PMC_EV_DYN_COUNT);
	assert_true(pmc_cpuid[0] != '\0');            /* filled by pmc_init */
}

/*
 * The PowerPC and Arm uncore blocks of FreeBSD's pmc_events.h: each class
 * at its own base (PPC7450 0x13000, PPC970 0x13100, POWER8 0x13200, E500
 * 0x13300, DMC620_PMU_CD2 0x14500, DMC620_PMU_C 0x14520, CMN600_PMU
 * 0x14600), events
 * numbered in FreeBSD's order; the expected codes are positions counted in
 * FreeBSD's lists.
 */
static void test_ppc_and_uncore_event_blocks(void **s)
{
	(void)s;
	assert_int_equal(PMC_EV_PPC7450_FIRST, 0x13000);
	assert_int_equal(PMC_EV_PPC7450_LAST, 0x130db);
	assert_int_equal(PMC_EV_PPC7450_INSTR_COMPLETED, 0x13001);
	assert_int_equal(PMC_EV_PPC7450_BTIC_MISS, 0x1307f);
	assert_int_equal(PMC_EV_PPC7450_DTLB_MISSES, 0x1308c);
	assert_int_equal(PMC_EV_PPC7450_L2_CACHE_HITS, 0x130ab);
	assert_int_equal(PMC_EV_PPC970_FIRST, 0x13100);
	assert_int_equal(PMC_EV_PPC970_LAST, 0x13131);
	assert_int_equal(PMC_EV_PPC970_GROUP_COMPLETED, 0x1311e);
	assert_int_equal(PMC_EV_PPC970_TIMEBASE_EVENT, 0x13124);
	assert_int_equal(PMC_EV_POWER8_FIRST, 0x13200);
	assert_int_equal(PMC_EV_POWER8_LAST, 0x1321d);
	assert_int_equal(PMC_EV_POWER8_TIMEBASE_EVENT, 0x13211);
	assert_int_equal(PMC_EV_POWER8_BRANCH_MISPREDICTED, 0x13218);
	assert_int_equal(PMC_EV_E500_FIRST, 0x13300);
	assert_int_equal(PMC_EV_E500_LAST, 0x1339c);
	assert_int_equal(PMC_EV_E500_L2MMU_MISSES, 0x13341);
	assert_int_equal(PMC_EV_E500_DAC1S_DTECTED, 0x13385);   /* FreeBSD's spelling */
	/* Arm's uncore blocks, FreeBSD's lower-case names */
	assert_int_equal(PMC_EV_DMC620_PMU_CD2_FIRST, 0x14500);
	assert_int_equal(PMC_EV_DMC620_PMU_CD2_LAST, 0x14519);
	assert_int_equal(PMC_EV_DMC620_PMU_C_FIRST, 0x14520);
	assert_int_equal(PMC_EV_DMC620_PMU_C_LAST, 0x14522);
	assert_int_equal(PMC_EV_CMN600_PMU_FIRST, 0x14600);
	assert_int_equal(PMC_EV_CMN600_PMU_LAST, 0x146b0);
	assert_int_equal(PMC_EV_CMN600_PMU_dn_rxreq_trk_full, 0x1460c);
	assert_int_equal(PMC_EV_CMN600_PMU_hnf_cache_miss, 0x1460d);
	assert_int_equal(PMC_EV_CMN600_PMU_xp_txflit_valid, 0x1463f);
	assert_int_equal(PMC_EV_CMN600_PMU_rni_rdb_ord, 0x1467a);
	assert_string_equal(pmc_name_of_event(PMC_EV_DMC620_PMU_C_clk_request), "clk_request");
	assert_string_equal(pmc_name_of_event(PMC_EV_CMN600_PMU_LAST), "cxla_avg_latency_form_tx_tlp");
	assert_null(pmc_name_of_event((enum pmc_event)(PMC_EV_DMC620_PMU_CD2_LAST + 1)));
	assert_null(pmc_name_of_event((enum pmc_event)(PMC_EV_CMN600_PMU_LAST + 1)));
	/* named by pmc_name_of_event, first to last; nothing past the ends */
	assert_string_equal(pmc_name_of_event(PMC_EV_PPC7450_LAST), "PREFETCH_ENGINE_FULL");
	assert_string_equal(pmc_name_of_event(PMC_EV_PPC970_FIRST), "INSTR_COMPLETED");
	assert_string_equal(pmc_name_of_event(PMC_EV_POWER8_LAST), "INSTR_COMPLETED");
	assert_string_equal(pmc_name_of_event(PMC_EV_E500_STWCX_FAILURES), "STWCX_FAILURES");
	assert_null(pmc_name_of_event((enum pmc_event)(PMC_EV_PPC7450_LAST + 1)));
	assert_null(pmc_name_of_event((enum pmc_event)(PMC_EV_E500_LAST + 1)));
	assert_null(pmc_name_of_event((enum pmc_event)(PMC_EV_E500_FIRST - 1)));
}

/*
 * pmc_pmu_*: FreeBSD's pmu-events, from the machine's own tables.  A fake
 * sysfs with a core PMU ("cpu") and two named events stands in for a
 * machine with a hardware PMU.
 */
static void put_file(const char *root, const char *rel, const char *text)
{
	char path[512], dir[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Runs fn with stdout redirected to a temporary file; its output lands in buf. */
static void capture_stdout(void (*fn)(void), char *buf, size_t len)
{
	char out[] = "/tmp/pmc-fbsd-out-XXXXXX";
	int fd, saved;
	ssize_t n;

	fd = mkstemp(out);
	assert_true(fd >= 0);
	unlink(out);
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	fn();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, len - 1);
	close(fd);
	assert_true(n > 0);
	buf[n] = '\0';
}

static void print_all(void) { pmc_pmu_print_counters(NULL); }
static void print_slow(void) { pmc_pmu_print_counters("slow"); }
static void print_desc_cycles(void) { pmc_pmu_print_counter_desc("cycles"); }

static void test_pmu_events(void **s)
{
	char root[] = "/tmp/pmc-fbsd-sysfs-XXXXXX";
	char buf[1 << 16], cmd[600];
	struct pmc_op_pmcallocate pa;
	int idx;
	(void)s;
	assert_non_null(mkdtemp(root));
	put_file(root, "bus/event_source/devices/cpu/type", "4\n");
	put_file(root, "bus/event_source/devices/cpu/format/event", "config:0-7\n");
	put_file(root, "bus/event_source/devices/cpu/format/umask", "config:8-15\n");
	put_file(root, "bus/event_source/devices/cpu/events/cycles", "event=0x3c\n");
	put_file(root, "bus/event_source/devices/cpu/events/slow-thing", "event=0x11,umask=0x2,period=2000\n");
	pmc_fini();                                   /* forget the real table */
	pmc__sys_set_sysfs_root(root);
	assert_true(pmc_pmu_enabled());
	/* lookups by index and by name agree; case-insensitive, with or without pmu/ */
	idx = pmc_pmu_idx_get_by_event(NULL, "CYCLES");
	assert_true(idx >= 0);
	assert_string_equal(pmc_pmu_event_get_by_idx(NULL, idx), "cpu/cycles/");
	assert_int_equal(pmc_pmu_idx_get_by_event(NULL, "cpu/cycles/"), idx);
	assert_int_equal(pmc_pmu_idx_get_by_event(NULL, "no-such"), -1);
	assert_null(pmc_pmu_event_get_by_idx("SomeOtherVendor-1-2-3", 0));
	assert_null(pmc_pmu_event_get_by_idx(NULL, 100000));
	/* an event's own period, else FreeBSD's default sample count */
	assert_int_equal(pmc_pmu_sample_rate_get("slow-thing"), 2000);
	assert_int_equal(pmc_pmu_sample_rate_get("cycles"), 65536);
	/* the allocation request, filled as FreeBSD's does; errno values */
	memset(&pa, 0, sizeof(pa));
	assert_int_equal(pmc_pmu_pmcallocate("Cycles", &pa), 0);
	assert_int_equal(pa.pm_md.__pad[0], 0x3c);    /* config */
	assert_int_equal(pa.pm_md.__pad[3], 4);       /* the PMU's perf type */
	assert_true(pa.pm_caps & PMC_CAP_READ);
	assert_int_equal(pmc_pmu_pmcallocate("no-such", &pa), ENOENT);
	/* pmccontrol -L / pmcstat -L print "\tname" lines: the sysfs PMU's
	 * events first, then (on a CPU libpfm4 knows) the libpfm4 table, so
	 * only the sysfs part and the filter are exact */
	capture_stdout(print_all, buf, sizeof(buf));
	assert_ptr_equal(strstr(buf, "\tcpu/cycles/\n\tcpu/slow-thing/\n"), buf);
	capture_stdout(print_slow, buf, sizeof(buf));
	assert_ptr_equal(strstr(buf, "\tcpu/slow-thing/\n"), buf);
	for (char *l = buf, *nl; *l; l = nl + 1) {      /* only names with "slow" */
		assert_non_null(nl = strchr(l, '\n'));
		*nl = '\0';
		assert_non_null(strcasestr(l, "slow"));
	}
	capture_stdout(print_desc_cycles, buf, sizeof(buf));
	assert_ptr_equal(strstr(buf, "cpu/cycles/:\t"), buf);
	pmc__sys_set_sysfs_root(NULL);
	pmc_fini();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(pmc_init(), 0);
}

/* Item 10: hwpmc_mod.c's errno for each condition. */
static void test_hwpmc_errnos(void **s)
{
	const struct pmc_cpuinfo *ci;
	pmc_id_t id, other;
	pmc_value_t v;
	(void)s;
	assert_int_equal(pmc_cpuinfo(&ci), 0);
	/* a process that owns no PMC: ESRCH (no owner descriptor) */
	EXPECT_ERRNO(pmc_release(0x12345678), ESRCH);
	EXPECT_ERRNO(pmc_detach(0x12345678, 0), ESRCH);
	/* a CPU past the last one: EINVAL */
	EXPECT_ERRNO(pmc_allocate("task-clock", PMC_MODE_SC, 0, (int)ci->pm_ncpu, &id, 0), EINVAL);
	/* USERCALLCHAIN only with CALLCHAIN */
	EXPECT_ERRNO(pmc_allocate("cpu-clock", PMC_MODE_TS, PMC_F_USERCALLCHAIN, PMC_CPU_ANY,
	    &id, 100000), EINVAL);
	assert_int_equal(pmc_allocate("cpu-clock", PMC_MODE_TS,
	    PMC_F_USERCALLCHAIN | PMC_F_CALLCHAIN, PMC_CPU_ANY, &id, 100000), 0);
	/* sampling PMCs can be read and written (PMCRW) */
	assert_int_equal(pmc_read(id, &v), 0);
	assert_int_equal(pmc_write(id, 42), 0);
	assert_int_equal(pmc_read(id, &v), 0);
	assert_int_equal(v, 42);
	/* stopping a PMC that never started: EINVAL */
	EXPECT_ERRNO(pmc_stop(id), EINVAL);
	assert_int_equal(pmc_release(id), 0);

	/* start after every target was detached: ESRCH, no silent re-attach */
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &other, 0), 0);
	assert_int_equal(pmc_attach(id, 0), 0);
	assert_int_equal(pmc_detach(id, 0), 0);
	EXPECT_ERRNO(pmc_start(id), ESRCH);
	/* an id this owner does not have: EINVAL (it owns some) */
	EXPECT_ERRNO(pmc_release(id ^ 0x80), EINVAL);
	assert_int_equal(pmc_release(id), 0);
	assert_int_equal(pmc_release(other), 0);
	/* ... and ESRCH again once it owns none */
	EXPECT_ERRNO(pmc_start(other), ESRCH);
}

/* A child that waits for a byte on fd, spins ms of CPU time, exits 0. */
static pid_t spin_child(int *go_w, int ms)
{
	int go[2];
	pid_t pid;
	assert_int_equal(pipe(go), 0);
	if ((pid = fork()) == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(99);
		pmc_test_spin_ms(ms);
		_exit(0);
	}
	close(go[0]);
	*go_w = go[1];
	return pid;
}

/*
 * hwpmc_mod.c's errnos for attach and detach (issue 23): a running PMC
 * cannot be attached (PMC_OP_PMCATTACH: EBUSY); a target that exited was
 * detached by hwpmc at its exit, so detaching it again finds no process
 * (ESRCH), as FreeBSD's detach_after_target_reaped test expects.
 */
static void test_attach_running_detach_reaped(void **s)
{
	pmc_id_t id;
	int go, st;
	pid_t a, b;
	(void)s;
	a = spin_child(&go, 20);
	b = spin_child(&st, 20);
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_attach(id, a), 0);
	assert_int_equal(pmc_start(id), 0);
	EXPECT_ERRNO(pmc_attach(id, b), EBUSY);
	assert_int_equal(pmc_stop(id), 0);
	assert_int_equal(pmc_attach(id, b), 0);       /* stopped: allowed */
	assert_int_equal(write(go, "g", 1), 1);
	assert_int_equal(write(st, "g", 1), 1);
	close(go);
	close(st);
	assert_int_equal(waitpid(a, &st, 0), a);
	assert_int_equal(waitpid(b, &st, 0), b);
	EXPECT_ERRNO(pmc_detach(id, a), ESRCH);
	EXPECT_ERRNO(pmc_detach(id, b), ESRCH);
	assert_int_equal(pmc_release(id), 0);
}

/*
 * PROCEXIT in the PMC's own units (issue 23): pmcstat -E on SOFT-CLOCK.HARD
 * prints clock ticks, what pmc_read of the same PMC returns, not the
 * kernel's nanoseconds.
 */
static void test_procexit_in_pmc_units(void **s)
{
	char path[] = "/tmp/pmc-fbsd-XXXXXX";
	struct pmclog_ev ev;
	pmc_value_t v = 0, exit_value = 0;
	pmc_id_t id;
	int fd, go, st, nexit = 0;
	pid_t child;
	void *lp;
	(void)s;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	child = spin_child(&go, 300);
	assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_TC, PMC_F_LOG_PROCEXIT,
	    PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_configure_logfile(fd), 0);
	assert_int_equal(pmc_attach(id, child), 0);
	assert_int_equal(pmc_start(id), 0);
	assert_int_equal(write(go, "g", 1), 1);
	close(go);
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_int_equal(pmc_read(id, &v), 0);
	assert_int_equal(pmc_stop(id), 0);
	assert_int_equal(pmc_close_logfile(), 0);
	assert_int_equal(pmc_release(id), 0);
	lseek(fd, 0, SEEK_SET);
	lp = pmclog_open(fd);
	assert_non_null(lp);
	while (pmclog_read(lp, &ev) == 0)
		if (ev.pl_type == PMCLOG_TYPE_PROCEXIT && (pid_t)ev.pl_u.pl_e.pl_pid == child) {
			nexit++;
			exit_value += ev.pl_u.pl_e.pl_value;
		}
	pmclog_close(lp);
	close(fd);
	assert_int_equal(nexit, 1);
	/* ~300 ticks of 1 ms (hz = 1000), as pmc_read says; nanoseconds
	 * would be ~3*10^8 */
	assert_true(v >= 200 && v < 100000);
	assert_true(exit_value >= 200 && exit_value < 100000);
	assert_true(exit_value <= v + 2 && exit_value + 2 + v / 50 >= v);
}

/*
 * pmc_configure_logfile takes its own reference on the file, as hwpmc's
 * fget (issue 23; FreeBSD's log_survives_userland_closing_the_fd): the
 * caller may close its descriptor and the log is still written and closed.
 */
static void test_log_survives_closing_the_fd(void **s)
{
	char path[] = "/tmp/pmc-fbsd-XXXXXX";
	struct pmclog_ev ev;
	int fd, nud = 0;
	void *lp;
	(void)s;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(pmc_configure_logfile(fd), 0);
	assert_int_equal(close(fd), 0);
	assert_int_equal(pmc_writelog(0x1234), 0);
	assert_int_equal(pmc_flush_logfile(), 0);
	assert_int_equal(pmc_close_logfile(), 0);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	unlink(path);
	lp = pmclog_open(fd);
	assert_non_null(lp);
	while (pmclog_read(lp, &ev) == 0)
		nud += ev.pl_type == PMCLOG_TYPE_USERDATA && ev.pl_u.pl_u.pl_userdata == 0x1234;
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	pmclog_close(lp);
	close(fd);
	assert_int_equal(nud, 1);
}

/* Item 10: "TSC" in any case; the TSC counts system-wide only. */
static void test_tsc(void **s)
{
	pmc_id_t id;
	(void)s;
	if (pmc_allocate("TSC", PMC_MODE_SC, 0, 0, &id, 0) < 0) {
		assert_int_equal(errno, EINVAL);
		skip();          /* no msr PMU (no /sys/bus/event_source/devices/msr) */
	}
	assert_int_equal(PMC_ID_TO_CLASS(id), PMC_CLASS_TSC);
	assert_int_equal(pmc_release(id), 0);
	assert_int_equal(pmc_allocate("tsc", PMC_MODE_SC, 0, 0, &id, 0), 0);
	assert_int_equal(pmc_release(id), 0);
	assert_int_equal(pmc_allocate("TSC-TSC", PMC_MODE_SC, 0, 0, &id, 0), 0);
	assert_int_equal(pmc_release(id), 0);
	EXPECT_ERRNO(pmc_allocate("TSC", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_event_einval),
		cmocka_unit_test(test_callchain_on_counting),
		cmocka_unit_test(test_initial_count_per_mode),
		cmocka_unit_test(test_driver_stats_after_close),
		cmocka_unit_test(test_soft_events),
		cmocka_unit_test(test_clock_sampling_in_ticks),
		cmocka_unit_test(test_procexit_and_procexec),
		cmocka_unit_test(test_sigio_on_last_target),
		cmocka_unit_test(test_hwpmc_errnos),
		cmocka_unit_test(test_attach_running_detach_reaped),
		cmocka_unit_test(test_procexit_in_pmc_units),
		cmocka_unit_test(test_log_survives_closing_the_fd),
		cmocka_unit_test(test_tsc),
		cmocka_unit_test(test_event_blocks_and_aliases),
		cmocka_unit_test(test_ppc_and_uncore_event_blocks),
		cmocka_unit_test(test_pmu_events),
	};
	return cmocka_run_group_tests(tests, pmc_test_setup, pmc_test_teardown);
}
