/*
 * test_metrics.c — `pmc stat`'s derived metrics (analysis/stat/metrics.c) with
 * known answers: events pair by what they count (type, config, privilege
 * levels), never by their spelling; and the library's pmc_event_kind()
 * gives cpu-cycles, cycles and the ARMv8 CPU_CYCLES one kind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <string.h>

#include "stat/metrics.h"
#include "pmc.h"

static struct metric_count hw(uint64_t config, double v)
{
	struct metric_count c;
	memset(&c, 0, sizeof(c));
	c.kind.pk_type = PERF_TYPE_HARDWARE;
	c.kind.pk_config = config;
	c.value = v;
	c.counted = 1;
	return c;
}

static struct metric_count sw(uint64_t config, double v)
{
	struct metric_count c = hw(config, v);
	c.kind.pk_type = PERF_TYPE_SOFTWARE;
	return c;
}

static struct metric_count cache(uint64_t id, uint64_t op, uint64_t res, double v)
{
	struct metric_count c = hw(id | (op << 8) | (res << 16), v);
	c.kind.pk_type = PERF_TYPE_HW_CACHE;
	return c;
}

static void test_ipc_and_ratios(void **state)
{
	struct metric_count c[] = {
		hw(PERF_COUNT_HW_INSTRUCTIONS, 160014427),
		hw(PERF_COUNT_HW_CPU_CYCLES, 100009108),
		hw(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 19999872),
		hw(PERF_COUNT_HW_BRANCH_MISSES, 239841),
		sw(PERF_COUNT_SW_TASK_CLOCK, 100009108),
		cache(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
		    PERF_COUNT_HW_CACHE_RESULT_ACCESS, 41969988),
		cache(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
		    PERF_COUNT_HW_CACHE_RESULT_MISS, 1149957),
		hw(PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 25002277),
	};
	int n = (int)(sizeof(c) / sizeof(c[0]));
	struct metric m;
	(void)state;

	assert_int_equal(metric_for(c, n, 0, 1e8, &m), 1);
	assert_string_equal(m.unit, "insn per cycle");
	assert_true(m.value > 1.59998 && m.value < 1.60002);
	assert_int_equal(metric_for(c, n, 1, 1e8, &m), 1);
	assert_string_equal(m.unit, "GHz");
	assert_true(m.value > 0.99999 && m.value < 1.00001);
	assert_int_equal(metric_for(c, n, 2, 1e8, &m), 1);
	assert_string_equal(m.unit, "M/sec");
	assert_int_equal(metric_for(c, n, 3, 1e8, &m), 1);
	assert_string_equal(m.unit, "% of all branches");
	assert_true(m.value > 1.1991 && m.value < 1.1993);
	assert_int_equal(metric_for(c, n, 4, 1e8, &m), 1);
	assert_string_equal(m.unit, "CPUs utilized");
	assert_true(m.value > 1.00008 && m.value < 1.00010);
	assert_int_equal(metric_for(c, n, 6, 1e8, &m), 1);
	assert_string_equal(m.unit, "% of all accesses");
	assert_true(m.value > 2.7399 && m.value < 2.7401);
	assert_int_equal(metric_for(c, n, 7, 1e8, &m), 1);
	assert_string_equal(m.unit, "backend cycles idle");
	assert_true(m.value > 24.99 && m.value < 25.01);
}

/* instructions:u pairs with cycles:u, not with cycles (perf's contexts). */
static void test_privilege_levels(void **state)
{
	struct metric_count c[] = {
		hw(PERF_COUNT_HW_INSTRUCTIONS, 300),
		hw(PERF_COUNT_HW_CPU_CYCLES, 200),
		hw(PERF_COUNT_HW_CPU_CYCLES, 100),
	};
	struct metric m;
	(void)state;

	c[0].kind.pk_exclude = PMC_KIND_EXCL_KERNEL | PMC_KIND_EXCL_HV;
	assert_int_equal(metric_for(c, 2, 0, 1e9, &m), 0);
	c[2].kind.pk_exclude = c[0].kind.pk_exclude;
	assert_int_equal(metric_for(c, 3, 0, 1e9, &m), 1);
	assert_true(m.value > 2.999 && m.value < 3.001);
}

/* No partner, not counted, a sysfs unit: no ratio; a rate if a clock ran. */
static void test_missing_partners(void **state)
{
	struct metric_count c[] = {
		hw(PERF_COUNT_HW_INSTRUCTIONS, 2e6),
		sw(PERF_COUNT_SW_CPU_CLOCK, 1e9),
		sw(PERF_COUNT_SW_PAGE_FAULTS, 500),
		hw(PERF_COUNT_HW_CPU_CYCLES, 1e9),
	};
	struct metric m;
	(void)state;

	c[3].counted = 0;
	assert_int_equal(metric_for(c, 4, 0, 1e9, &m), 1);
	assert_string_equal(m.unit, "M/sec");
	assert_true(m.value > 1.999 && m.value < 2.001);
	assert_int_equal(metric_for(c, 4, 2, 1e9, &m), 1);
	assert_string_equal(m.unit, "/sec");
	assert_int_equal(metric_for(c, 4, 3, 1e9, &m), 0);
	c[2].has_unit = 1;
	assert_int_equal(metric_for(c, 4, 2, 1e9, &m), 0);
	c[1].counted = 0;
	assert_int_equal(metric_for(c, 4, 0, 1e9, &m), 0);
}

/* The library resolves spellings to one kind (sim: no hardware needed). */
static void test_kind_of_spellings(void **state)
{
	static const char *const cyc[] = { "cycles", "cpu-cycles", "CPU_CYCLES", "EVENT_11H" };
	static const char *const ins[] = { "instructions", "INST_RETIRED" };
	pmc_id_t id;
	struct pmc_event_kind k;
	(void)state;

	assert_int_equal(pmc_backend_select("sim"), 0);
	assert_int_equal(pmc_init(), 0);
	for (size_t i = 0; i < sizeof(cyc) / sizeof(cyc[0]); i++) {
		assert_int_equal(pmc_allocate(cyc[i], PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
		assert_int_equal(pmc_event_kind(id, &k), 0);
		assert_int_equal(k.pk_type, PERF_TYPE_HARDWARE);
		assert_int_equal(k.pk_config, PERF_COUNT_HW_CPU_CYCLES);
		assert_int_equal(k.pk_exclude, 0);
		pmc_release(id);
	}
	for (size_t i = 0; i < sizeof(ins) / sizeof(ins[0]); i++) {
		assert_int_equal(pmc_allocate(ins[i], PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
		assert_int_equal(pmc_event_kind(id, &k), 0);
		assert_int_equal(k.pk_config, PERF_COUNT_HW_INSTRUCTIONS);
		pmc_release(id);
	}
	assert_int_equal(pmc_allocate("cycles:u", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_event_kind(id, &k), 0);
	assert_int_equal(k.pk_exclude, PMC_KIND_EXCL_KERNEL | PMC_KIND_EXCL_HV);
	pmc_release(id);
	/* a non-architectural ARMv8 event stays raw */
	assert_int_equal(pmc_allocate("BR_PRED", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_event_kind(id, &k), 0);
	assert_int_equal(k.pk_type, PERF_TYPE_RAW);
	assert_int_equal(k.pk_config, 0x12);
	pmc_release(id);
	assert_int_equal(pmc_event_kind(id, &k), -1);
	pmc_fini();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipc_and_ratios),
		cmocka_unit_test(test_privilege_levels),
		cmocka_unit_test(test_missing_partners),
		cmocka_unit_test(test_kind_of_spellings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
