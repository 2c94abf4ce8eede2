/*
 * metrics.h — the derived metrics `pmc stat` prints beside the counts
 * ("insn per cycle", "% of all branches", "CPUs utilized", "M/sec"), as
 * perf's util/stat-shadow.c does: events are paired by what they resolved
 * to (struct pmc_event_kind: type, config, privilege levels), never by the
 * name they were given, so `instructions,cpu-cycles`, `instructions,cycles`
 * and `INST_RETIRED,CPU_CYCLES` give the same IPC.
 */
#ifndef PMCSTAT_METRICS_H
#define PMCSTAT_METRICS_H

#include "pmc.h"

/* One count of a target for the period being printed. */
struct metric_count {
	struct pmc_event_kind kind;
	double value;            /* the count (ns for the clocks) */
	int counted;             /* 0: not supported or never got a counter */
	int has_unit;            /* a sysfs unit (Joules, ...): no rate is shown */
};

struct metric {
	double value;
	const char *unit;        /* "insn per cycle", "GHz", "K/sec", ... */
};

/* 1 if the kind is task-clock or cpu-clock (counts in ns, printed in msec). */
int metric_is_clock(const struct pmc_event_kind *k);

/*
 * The metric of c[i] among the n counts of the same target, elapsed_ns the
 * wall time they were counted over: 1 and *m set, or 0 when there is none.
 */
int metric_for(const struct metric_count *c, int n, int i, double elapsed_ns,
    struct metric *m);

#endif
