/*
 * test_hwpmc_owner.c — issue 23, "behaviour as hwpmc": what one owner
 * process may do, with hwpmc's errno values (sys/dev/hwpmc/hwpmc_mod.c,
 * hwpmc_logging.c): when a sampling PMC needs a log (PMC_F_NEEDS_LOGFILE),
 * and how a log's write errors reach the owner (at flush and close, not at
 * configure or WRITELOG).  Called the way FreeBSD's tests/sys/pmc and
 * pmcstat call the API.
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
#include <sys/wait.h>
#include <unistd.h>

#include "pmc.h"
#include "pmclog.h"
#include "helpers/pmc_test.h"

static pid_t idle_child(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	assert_true(pid > 0);
	return pid;
}

static void reap(pid_t pid)
{
	int st;
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
}

/*
 * hwpmc's pmc_start: EDOOFUS only for a PMC flagged NEEDS_LOGFILE while
 * its owner has no log.  The flag: every system-mode sampling PMC (at
 * allocation), LOG_PROCEXIT/LOG_PROCCSW ones, and a process-mode sampling
 * PMC attached to a process other than its owner while it is not on its
 * owner (pmc_attach_one_process).  A TS PMC that only samples its owner
 * starts without a log (FreeBSD's sampling_owner_needs_no_log).
 */
static void test_ts_on_owner_needs_no_log(void **s)
{
	pmc_id_t ts, ts2, ts3, ss, tc;
	pid_t child;
	(void)s;

	/* implicit attach to the owner at the first start */
	assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_TS, 0, PMC_CPU_ANY, &ts, 1000), 0);
	assert_int_equal(pmc_start(ts), 0);
	pmc_test_spin_ms(5);
	assert_int_equal(pmc_stop(ts), 0);
	assert_int_equal(pmc_release(ts), 0);

	/* explicit attach to the owner (pid 0 and getpid()) */
	assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_TS, 0, PMC_CPU_ANY, &ts, 1000), 0);
	assert_int_equal(pmc_attach(ts, 0), 0);
	assert_int_equal(pmc_start(ts), 0);
	assert_int_equal(pmc_stop(ts), 0);
	assert_int_equal(pmc_release(ts), 0);

	/* another process as the target: EDOOFUS (sampling_foreign_target_needs_a_log) */
	child = idle_child();
	assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_TS, 0, PMC_CPU_ANY, &ts2, 1000), 0);
	assert_int_equal(pmc_attach(ts2, child), 0);
	EXPECT_ERRNO(pmc_start(ts2), EDOOFUS);
	/* the flag stays after the foreign target is gone, as hwpmc's */
	assert_int_equal(pmc_detach(ts2, child), 0);
	assert_int_equal(pmc_attach(ts2, 0), 0);
	EXPECT_ERRNO(pmc_start(ts2), EDOOFUS);
	assert_int_equal(pmc_release(ts2), 0);

	/* on the owner first, then another process: hwpmc does not flag it
	 * (ATTACHED_TO_OWNER at the second attach), so it starts */
	assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_TS, 0, PMC_CPU_ANY, &ts3, 1000), 0);
	assert_int_equal(pmc_attach(ts3, getpid()), 0);
	assert_int_equal(pmc_attach(ts3, child), 0);
	assert_int_equal(pmc_start(ts3), 0);
	assert_int_equal(pmc_stop(ts3), 0);
	assert_int_equal(pmc_release(ts3), 0);
	reap(child);

	/* every system-mode sampling PMC needs a log */
	assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_SS, 0, 0, &ss, 1000), 0);
	EXPECT_ERRNO(pmc_start(ss), EDOOFUS);
	assert_int_equal(pmc_release(ss), 0);
	/* and a counting PMC that logs process exits, even on its owner */
	assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_TC, PMC_F_LOG_PROCEXIT,
	    PMC_CPU_ANY, &tc, 0), 0);
	EXPECT_ERRNO(pmc_start(tc), EDOOFUS);
	assert_int_equal(pmc_release(tc), 0);
}

/* A TS PMC on its owner with a log: its samples are in the log (pmc's
 * extension; hwpmc would give them to profil(2)). */
static void test_ts_on_owner_with_log_samples(void **s)
{
	char path[] = "/tmp/pmc-test-owner-XXXXXX";
	int fd = mkstemp(path), n = 0;
	pmc_id_t ts;
	struct pmclog_ev ev;
	void *ps;
	(void)s;

	assert_true(fd >= 0);
	assert_int_equal(pmc_configure_logfile(fd), 0);
	assert_int_equal(pmc_allocate("cpu-clock", PMC_MODE_TS, 0, PMC_CPU_ANY, &ts, 1000), 0);
	assert_int_equal(pmc_set_period(ts, 200000), 0);  /* every 0.2 ms of CPU */
	assert_int_equal(pmc_start(ts), 0);
	pmc_test_spin_ms(30);
	assert_int_equal(pmc_stop(ts), 0);
	assert_int_equal(pmc_close_logfile(), 0);
	assert_int_equal(pmc_release(ts), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_non_null(ps = pmclog_open(fd));
	while (pmclog_read(ps, &ev) == 0)
		n += ev.pl_type == PMCLOG_TYPE_CALLCHAIN;
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	pmclog_close(ps);
	close(fd);
	unlink(path);
	assert_true(n > 0);
}

/*
 * hwpmc_logging.c: CONFIGURELOG takes any descriptor open for writing
 * (fget_write; EBADF otherwise) and only queues INITIALIZE; the log thread
 * writes, and its first error is kept (po_error) and returned by FLUSHLOG.
 * WRITELOG only queues.  FreeBSD's log_write_error_is_reported: /dev/full
 * is accepted, pmc_writelog succeeds, pmc_flush_logfile is ENOSPC.
 */
static void test_log_write_error_at_flush(void **s)
{
	int fd, ro;
	char path[] = "/tmp/pmc-test-ro-XXXXXX";
	(void)s;

	if ((fd = open("/dev/full", O_WRONLY)) < 0)
		skip();
	assert_int_equal(pmc_configure_logfile(fd), 0);
	assert_int_equal(pmc_writelog(0x1234), 0);
	EXPECT_ERRNO(pmc_flush_logfile(), ENOSPC);
	EXPECT_ERRNO(pmc_flush_logfile(), ENOSPC);        /* kept, as po_error */
	assert_int_equal(pmc_writelog(0x5678), 0);        /* still only queued */
	EXPECT_ERRNO(pmc_close_logfile(), ENOSPC);        /* and the close says it too */
	EXPECT_ERRNO(pmc_flush_logfile(), EINVAL);        /* the log is gone */
	close(fd);

	/* the same through the deconfigure call */
	assert_true((fd = open("/dev/full", O_WRONLY)) >= 0);
	assert_int_equal(pmc_configure_logfile(fd), 0);
	close(fd);                                         /* the library holds its own */
	EXPECT_ERRNO(pmc_configure_logfile(-1), ENOSPC);
	EXPECT_ERRNO(pmc_configure_logfile(-1), EINVAL);

	/* not open for writing: EBADF at configure (fget_write) */
	assert_true((fd = mkstemp(path)) >= 0);
	assert_true((ro = open(path, O_RDONLY)) >= 0);
	EXPECT_ERRNO(pmc_configure_logfile(ro), EBADF);
	close(ro);
	assert_true((ro = open(path, O_PATH)) >= 0);
	EXPECT_ERRNO(pmc_configure_logfile(ro), EBADF);
	close(ro);
	assert_true((ro = open("/tmp", O_RDONLY | O_DIRECTORY)) >= 0);
	EXPECT_ERRNO(pmc_configure_logfile(ro), EBADF);
	close(ro);
	close(fd);
	unlink(path);
}

/* What reached the file before the error stays readable: a pipe whose
 * reader took the first records and went away. */
static void test_log_write_error_keeps_what_was_written(void **s)
{
	int pfd[2], n = 0, ud = 0;
	char path[] = "/tmp/pmc-test-kept-XXXXXX";
	unsigned char buf[65536];
	ssize_t got;
	int out = mkstemp(path);
	struct pmclog_ev ev;
	void *ps;
	(void)s;

	assert_true(out >= 0);
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(pipe(pfd), 0);
	assert_int_equal(pmc_configure_logfile(pfd[1]), 0);
	close(pfd[1]);
	assert_int_equal(pmc_writelog(42), 0);
	assert_int_equal(pmc_flush_logfile(), 0);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	while ((got = read(pfd[0], buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)got), got);
	close(pfd[0]);
	assert_int_equal(pmc_writelog(43), 0);
	EXPECT_ERRNO(pmc_flush_logfile(), EPIPE);
	EXPECT_ERRNO(pmc_close_logfile(), EPIPE);
	signal(SIGPIPE, SIG_DFL);

	assert_int_equal(lseek(out, 0, SEEK_SET), 0);
	assert_non_null(ps = pmclog_open(out));
	while (pmclog_read(ps, &ev) == 0) {
		n++;
		if (ev.pl_type == PMCLOG_TYPE_USERDATA)
			ud = (int)ev.pl_u.pl_u.pl_userdata;
	}
	assert_int_equal(ev.pl_state, PMCLOG_EOF);        /* no CLOSELOG: cut, not corrupt */
	pmclog_close(ps);
	close(out);
	unlink(path);
	assert_true(n >= 2);                               /* INITIALIZE, USERDATA */
	assert_int_equal(ud, 42);
}

/* The number of rows of class c (pmc_cpuinfo), 0 if not listed. */
static int class_rows(enum pmc_class c)
{
	const struct pmc_cpuinfo *ci;
	assert_int_equal(pmc_cpuinfo(&ci), 0);
	for (uint32_t i = 0; i < ci->pm_nclass; i++)
		if (ci->pm_classes[i].pm_class == c)
			return (int)ci->pm_classes[i].pm_num;
	return 0;
}

/*
 * hwpmc's per-owner row limit (pmc_can_allocate_row, _rowindex,
 * PMC_OP_PMCALLOCATE): one process-mode PMC per row of the class, one
 * system-mode PMC per row and CPU, a row serving one scope; past that
 * EINVAL.  FreeBSD's exhaust_then_release_reverse, with SOFT PMCs: the
 * allocations stop at the class's rows and every release succeeds in
 * reverse order.
 */
static void test_soft_row_limit(void **s)
{
	pmc_id_t ids[64], sc, more;
	int rows = class_rows(PMC_CLASS_SOFT), n = 0;
	(void)s;

	assert_true(rows > 0 && rows < 64);
	while (n < 64 && pmc_allocate(n % 3 ? "SOFT-CLOCK.HARD" : "SOFT-PAGE_FAULT.ALL",
	    n % 2 ? PMC_MODE_TS : PMC_MODE_TC, 0, PMC_CPU_ANY, &ids[n], 1000) == 0) {
		assert_int_equal(PMC_ID_TO_CLASS(ids[n]), PMC_CLASS_SOFT);
		assert_int_equal(PMC_ID_TO_ROWINDEX(ids[n]), n);
		n++;
	}
	assert_int_equal(errno, EINVAL);
	assert_int_equal(n, rows);
	/* every row is THREAD: no system-mode PMC either */
	EXPECT_ERRNO(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_SC, 0, 0, &sc, 0), EINVAL);
	for (int i = n - 1; i >= 0; i--)
		assert_int_equal(pmc_release(ids[i]), 0);

	/* system mode: one per row on each CPU */
	for (n = 0; n < rows; n++)
		assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_SC, 0, 0, &ids[n], 0), 0);
	EXPECT_ERRNO(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_SC, 0, 0, &sc, 0), EINVAL);
	if (pmc_ncpu() > 1) {
		assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_SC, 0, 1, &sc, 0), 0);
		assert_int_equal(PMC_ID_TO_ROWINDEX(sc), 0);
		assert_int_equal(pmc_release(sc), 0);
	}
	/* STANDALONE rows serve no process-mode PMC */
	EXPECT_ERRNO(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_TC, 0, PMC_CPU_ANY, &more, 0), EINVAL);
	for (int i = 0; i < n; i += 2)
		assert_int_equal(pmc_release(ids[i]), 0);
	/* a row freed on every CPU is FREE again: a process-mode PMC takes it */
	assert_int_equal(pmc_allocate("SOFT-CLOCK.HARD", PMC_MODE_TC, 0, PMC_CPU_ANY, &more, 0), 0);
	assert_int_equal(PMC_ID_TO_ROWINDEX(more), 0);
	assert_int_equal(pmc_release(more), 0);
	for (int i = 1; i < n; i += 2)
		assert_int_equal(pmc_release(ids[i]), 0);

	/* Linux's software events are SOFT PMCs too: the same rows */
	for (n = 0; n < rows; n++)
		assert_int_equal(pmc_allocate(n % 2 ? "cpu-clock" : "page-faults", PMC_MODE_TC, 0,
		    PMC_CPU_ANY, &ids[n], 0), 0);
	EXPECT_ERRNO(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &more, 0), EINVAL);
	for (int i = 0; i < n; i++)
		assert_int_equal(pmc_release(ids[i]), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ts_on_owner_needs_no_log),
		cmocka_unit_test(test_ts_on_owner_with_log_samples),
		cmocka_unit_test(test_log_write_error_at_flush),
		cmocka_unit_test(test_log_write_error_keeps_what_was_written),
		cmocka_unit_test(test_soft_row_limit),
	};
	return cmocka_run_group_tests(tests, pmc_test_setup, pmc_test_teardown);
}
