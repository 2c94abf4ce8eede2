/*
 * metrics.c — derived metrics keyed on what each event counts (see
 * metrics.h; perf's util/stat-shadow.c is the model).  A metric needs its
 * partner counted over the same privilege levels: instructions:u pairs
 * with cycles:u, not with cycles.
 */
#include <linux/perf_event.h>
#include <stddef.h>

#include "stat/metrics.h"

int metric_is_clock(const struct pmc_event_kind *k)
{
	return k->pk_type == PERF_TYPE_SOFTWARE &&
	    (k->pk_config == PERF_COUNT_SW_TASK_CLOCK || k->pk_config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The counted event of kind (type, config) with c[self]'s privilege levels. */
static const struct metric_count *find(const struct metric_count *c, int n, int self,
    uint32_t type, uint64_t config)
{
	for (int j = 0; j < n; j++)
		if (c[j].counted && c[j].kind.pk_type == type && c[j].kind.pk_config == config &&
		    c[j].kind.pk_exclude == c[self].kind.pk_exclude)
			return &c[j];
	return NULL;
}

/* task-clock, else cpu-clock (perf's preference), whatever their levels. */
static const struct metric_count *find_clock(const struct metric_count *c, int n)
{
	for (int pass = 0; pass < 2; pass++)
		for (int j = 0; j < n; j++)
			if (c[j].counted && c[j].kind.pk_type == PERF_TYPE_SOFTWARE &&
			    c[j].kind.pk_config == (pass ? PERF_COUNT_SW_CPU_CLOCK :
			    PERF_COUNT_SW_TASK_CLOCK))
				return &c[j];
	return NULL;
}

static int ratio(double num, const struct metric_count *den, double times, const char *unit,
    struct metric *m)
{
	if (!den || den->value == 0)
		return 0;
	m->value = times * num / den->value;
	m->unit = unit;
	return 1;
}

/* Generic hardware events: the partner and the metric's unit. */
static int hw_metric(const struct metric_count *c, int n, int i, const struct metric_count *clk,
    struct metric *m)
{
	double v = c[i].value;

	switch (c[i].kind.pk_config) {
	case PERF_COUNT_HW_INSTRUCTIONS:
		return ratio(v, find(c, n, i, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), 1,
		    "insn per cycle", m);
	case PERF_COUNT_HW_CPU_CYCLES:
		return ratio(v, clk, 1, "GHz", m);
	case PERF_COUNT_HW_BRANCH_MISSES:
		return ratio(v, find(c, n, i, PERF_TYPE_HARDWARE,
		    PERF_COUNT_HW_BRANCH_INSTRUCTIONS), 100, "% of all branches", m);
	case PERF_COUNT_HW_CACHE_MISSES:
		return ratio(v, find(c, n, i, PERF_TYPE_HARDWARE,
		    PERF_COUNT_HW_CACHE_REFERENCES), 100, "% of all cache refs", m);
	case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND:
		return ratio(v, find(c, n, i, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), 100,
		    "frontend cycles idle", m);
	case PERF_COUNT_HW_STALLED_CYCLES_BACKEND:
		return ratio(v, find(c, n, i, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), 100,
		    "backend cycles idle", m);
	default:
		return -1;
	}
}

/* Events per second of the clock's time: "/sec", "K/sec", "M/sec", "G/sec". */
static int rate(double v, const struct metric_count *clk, struct metric *m)
{
	static const char *const units[] = { "/sec", "K/sec", "M/sec", "G/sec" };
	int u = 0;

	if (!clk || clk->value == 0)
		return 0;
	m->value = v / (clk->value / 1e9);
	while (u < 3 && m->value >= 1e3) {
		m->value /= 1e3;
		u++;
	}
	m->unit = units[u];
	return 1;
}

int metric_for(const struct metric_count *c, int n, int i, double elapsed_ns,
    struct metric *m)
{
	const struct metric_count *clk = find_clock(c, n);
	const struct pmc_event_kind *k = &c[i].kind;

	if (!c[i].counted)
		return 0;
	if (metric_is_clock(k)) {
		if (elapsed_ns <= 0)
			return 0;
		m->value = c[i].value / elapsed_ns;
		m->unit = "CPUs utilized";
		return 1;
	}
	if (k->pk_type == PERF_TYPE_HARDWARE && hw_metric(c, n, i, clk, m) == 1)
		return 1;
	if (k->pk_type == PERF_TYPE_HW_CACHE &&
	    (k->pk_config >> 16) == PERF_COUNT_HW_CACHE_RESULT_MISS) {
		/* L1-dcache-load-misses over L1-dcache-loads: same cache and op */
		uint64_t access = (k->pk_config & 0xffff) |
		    ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16);
		if (ratio(c[i].value, find(c, n, i, PERF_TYPE_HW_CACHE, access), 100,
		    "% of all accesses", m))
			return 1;
	}
	/* without its partner an event still has a rate (cycles: GHz or none) */
	if (c[i].has_unit || (k->pk_type == PERF_TYPE_HARDWARE &&
	    k->pk_config == PERF_COUNT_HW_CPU_CYCLES))
		return 0;
	return rate(c[i].value, clk, m);
}
