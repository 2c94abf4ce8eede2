/*
 * test_rows.c — hwpmc's PMC row disposition on a PMU with fixed counter
 * rows: the simulated ARMv8 PMU (4 CPUs, 6 event counters + the cycle
 * counter = 7 rows).  A row serves process-mode PMCs (THREAD) or
 * system-mode PMCs (STANDALONE), never both; disabled rows serve neither.
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
#include <unistd.h>

#include "pmc.h"

static int ncpu, nrows, armv8;   /* armv8: first global row of the class */

static char rundir[] = "/tmp/pmc-rows-XXXXXX";

static int setup(void **state)
{
	const struct pmc_cpuinfo *ci;
	(void)state;
	setenv("PMC_SIM_MACHINE", "cpus=4,counters=6", 1);
	/* PMCADMIN state is machine-wide: keep this test's apart. */
	if (!mkdtemp(rundir))
		return -1;
	setenv("PMC_RUNDIR", rundir, 1);
	if (pmc_backend_select("sim") < 0 || pmc_init() < 0 || pmc_cpuinfo(&ci) < 0)
		return -1;
	ncpu = (int)ci->pm_ncpu;
	for (uint32_t i = 0, base = 0; i < ci->pm_nclass; base += ci->pm_classes[i++].pm_num)
		if (ci->pm_classes[i].pm_class == PMC_CLASS_ARMV8) {
			nrows = (int)ci->pm_classes[i].pm_num;
			armv8 = (int)base;
		}
	return 0;
}

static int teardown(void **state)
{
	char p[128];
	(void)state;
	pmc_fini();
	snprintf(p, sizeof(p), "%s/disabled-rows.sim", rundir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/disabled-rows.sim.lock", rundir);
	unlink(p);
	rmdir(rundir);
	return 0;
}

static enum pmc_disp disp(int cpu, int row, pid_t *owner)
{
	struct pmc_pmcinfo *pi;
	assert_int_equal(pmc_pmcinfo(cpu, &pi), 0);
	enum pmc_disp d = pi->pm_pmcs[armv8 + row].pm_rowdisp;
	if (owner)
		*owner = pi->pm_pmcs[armv8 + row].pm_ownerpid;
	assert_int_equal(pi->pm_pmcs[armv8 + row].pm_class, PMC_CLASS_ARMV8);
	free(pi);
	return d;
}

static void test_machine(void **s)
{
	pmc_id_t id;
	uint32_t w;
	(void)s;
	assert_int_equal(ncpu, 4);
	assert_int_equal(nrows, 7);
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(PMC_ID_TO_CLASS(id), PMC_CLASS_ARMV8);   /* generic -> the PMU's class */
	assert_int_equal(pmc_width(id, &w), 0);
	assert_int_equal(w, 32);
	assert_int_equal(pmc_release(id), 0);
}

static void test_system_and_thread_rows(void **s)
{
	pmc_id_t sc0, tc, sc0b, sc1;
	pid_t owner;
	(void)s;
	assert_int_equal(disp(0, 0, NULL), PMC_DISP_FREE);
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_SC, 0, 0, &sc0, 0), 0);
	assert_int_equal(PMC_ID_TO_ROWINDEX(sc0), 0);
	assert_int_equal(PMC_ID_TO_CPU(sc0), 0);
	assert_int_equal(disp(0, 0, &owner), PMC_DISP_STANDALONE);
	assert_int_equal(owner, getpid());
	assert_int_equal(disp(1, 0, &owner), PMC_DISP_STANDALONE);   /* the row's disposition */
	assert_int_equal(owner, -1);                                 /* but CPU 1's counter is idle */

	/* A process PMC cannot use a STANDALONE row. */
	assert_int_equal(pmc_allocate("instructions", PMC_MODE_TC, 0, PMC_CPU_ANY, &tc, 0), 0);
	assert_int_equal(PMC_ID_TO_ROWINDEX(tc), 1);
	assert_int_equal(disp(0, 1, NULL), PMC_DISP_THREAD);

	/* A system PMC cannot use a THREAD row: next free on CPU 0 is 2. */
	assert_int_equal(pmc_allocate("instructions", PMC_MODE_SC, 0, 0, &sc0b, 0), 0);
	assert_int_equal(PMC_ID_TO_ROWINDEX(sc0b), 2);
	/* Another CPU's row 0 is free for a system PMC there. */
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_SC, 0, 1, &sc1, 0), 0);
	assert_int_equal(PMC_ID_TO_ROWINDEX(sc1), 0);

	assert_int_equal(pmc_release(sc0), 0);
	assert_int_equal(disp(0, 0, NULL), PMC_DISP_STANDALONE);     /* CPU 1 still uses row 0 */
	assert_int_equal(pmc_release(sc1), 0);
	assert_int_equal(disp(0, 0, NULL), PMC_DISP_FREE);
	assert_int_equal(pmc_release(sc0b), 0);
	assert_int_equal(pmc_release(tc), 0);
	assert_int_equal(disp(0, 1, NULL), PMC_DISP_FREE);
}

static void test_exhaustion(void **s)
{
	pmc_id_t ids[8], tc[12];
	int n = 0;
	(void)s;
	/* System mode: one PMC per row per CPU, then EINVAL. */
	for (; n < nrows; n++)
		assert_int_equal(pmc_allocate("cycles", PMC_MODE_SC, 0, 2, &ids[n], 0), 0);
	errno = 0;
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_SC, 0, 2, &ids[n], 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(pmc_errmsg(), "row"));
	/* Every row is STANDALONE now: no process PMC fits. */
	errno = 0;
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_TC, 0, PMC_CPU_ANY, &tc[0], 0), -1);
	assert_int_equal(errno, EINVAL);
	for (int i = 0; i < n; i++)
		assert_int_equal(pmc_release(ids[i]), 0);
	/* Process mode, hwpmc's per-owner limit (pmc_can_allocate_rowindex):
	 * one PMC per row, whatever its mode (TC and TS share rows), then
	 * EINVAL (PMCALLOCATE found no row). */
	for (int i = 0; i < nrows; i++)
		assert_int_equal(pmc_allocate("cycles", i % 2 ? PMC_MODE_TS : PMC_MODE_TC, 0,
		    PMC_CPU_ANY, &tc[i], 100000), 0);
	errno = 0;
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_TC, 0, PMC_CPU_ANY, &tc[nrows], 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(pmc_errmsg(), "row"));
	errno = 0;
	assert_int_equal(pmc_allocate("instructions", PMC_MODE_TS, 0, PMC_CPU_ANY, &tc[nrows],
	    100000), -1);
	assert_int_equal(errno, EINVAL);
	/* a released row is free again, whichever it was */
	assert_int_equal(pmc_release(tc[3]), 0);
	assert_int_equal(pmc_allocate("instructions", PMC_MODE_TC, 0, PMC_CPU_ANY, &tc[3], 0), 0);
	assert_int_equal(PMC_ID_TO_ROWINDEX(tc[3]), 3);
	/* Linux's rules (sessions): more PMCs than rows share them (multiplexed). */
	for (int i = nrows; i < 12; i++)
		assert_int_equal(pmc_allocate_shared("cycles", PMC_MODE_TC, 0, PMC_CPU_ANY,
		    &tc[i], 0), 0);
	for (int i = 0; i < 12; i++)
		for (int j = i + 1; j < 12; j++)
			assert_true(tc[i] != tc[j]);                    /* ids stay unique */
	for (int r = 0; r < nrows; r++)
		assert_int_equal(disp(3, r, NULL), PMC_DISP_THREAD);
	errno = 0;
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_SC, 0, 3, &ids[0], 0), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_TC, 0, PMC_CPU_ANY, &ids[0], 0), -1);
	assert_int_equal(errno, EINVAL);
	for (int i = 11; i >= 0; i--)                           /* any order */
		assert_int_equal(pmc_release(tc[i]), 0);
	for (int r = 0; r < nrows; r++)
		assert_int_equal(disp(3, r, NULL), PMC_DISP_FREE);
}

static void test_admin(void **s)
{
	pmc_id_t tc, sc;
	(void)s;
	if (geteuid() != 0)
		skip();                 /* PMCADMIN needs root */
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_TC, 0, PMC_CPU_ANY, &tc, 0), 0);
	errno = 0;
	assert_int_equal(pmc_disable(0, armv8 + 0), -1);                /* THREAD row */
	assert_int_equal(errno, EBUSY);
	assert_int_equal(pmc_disable(0, armv8 + 1), 0);                 /* FREE row */
	assert_int_equal(disp(0, 1, NULL), PMC_DISP_STANDALONE);
	/* A system PMC on CPU 0 skips the disabled row and the THREAD row. */
	assert_int_equal(pmc_allocate("cycles", PMC_MODE_SC, 0, 0, &sc, 0), 0);
	assert_int_equal(PMC_ID_TO_ROWINDEX(sc), 2);
	assert_int_equal(pmc_release(sc), 0);
	assert_int_equal(pmc_release(tc), 0);
	assert_int_equal(pmc_enable(0, armv8 + 1), 0);
	assert_int_equal(disp(0, 1, NULL), PMC_DISP_FREE);
	errno = 0;
	assert_int_equal(pmc_disable(0, 10000), -1);
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machine),
		cmocka_unit_test(test_system_and_thread_rows),
		cmocka_unit_test(test_exhaustion),
		cmocka_unit_test(test_admin),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
