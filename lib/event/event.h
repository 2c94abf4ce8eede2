/*
 * event.h — the one event-specification parser and resolver.
 *
 * Every place that takes an event name (pmc_allocate(3), `pmc stat -e`,
 * `pmc record -e`, `pmc list`) goes through here, so a spec means the same
 * thing everywhere.  A spec resolves to a struct perf_event_attr (counting
 * fields only; the core adds sampling fields) plus the libpmc view of it:
 * class, event number, capabilities, scale and unit.
 *
 * Accepted (perf's syntax, plus hwpmc's spellings):
 *   generic hardware    cycles, instructions, branch-misses, ...  (+ FreeBSD aliases)
 *   hardware cache      L1-dcache-load-misses, LLC-loads, dTLB-load-misses, ...
 *   software            cpu-clock, task-clock, page-faults, cs, ...  (+ "SOFT-" names)
 *   tracepoints         subsys:name             (tracefs events/SUBSYS/NAME/id)
 *   sysfs PMUs          pmu/alias/  pmu/field=v,field=v/  (format/ and events/)
 *   raw                 rNNNN (hex)
 *   ARMv8 PMUv3         INST_RETIRED, EVENT_08H, armv8-cpu_cycles (case-insensitive)
 *   vendor (libpfm4)    INST_RETIRED.ANY, amd64_fam19h_zen3::RETIRED_INSTRUCTIONS
 *   modifiers           :u :k :h :p :pp :ppp :G :H :I :D and combinations
 *   hwpmc qualifiers    ",usr" ",os"
 *
 * All functions return 0 or -errno and, on failure, record a reason with
 * pmc__set_reason() naming the offending token.
 */
#ifndef PMC_EVENT_H
#define PMC_EVENT_H

#include <linux/perf_event.h>
#include "pmc.h"

struct pmc_evspec {
	char name[160];               /* the spec as given, trimmed ("cycles:u", "msr/tsc/") */
	struct perf_event_attr attr;  /* size, type, config*, exclude_*, precise_ip; no sampling fields */
	enum pmc_class pclass;        /* SOFT, GENERIC, CACHE, TRACEPOINT, PMU, RAW, ARMV8, TSC */
	enum pmc_event event;         /* PMC_EV_SOFT_FIRST + index, PMC_EV_ARMV8_EVENT_00H + n, PMC_EV_TSC_TSC */
	uint32_t caps;                /* PMC_CAP_* */
	double scale;                 /* sysfs events/NAME.scale, else 1.0 */
	char unit[32];                /* sysfs events/NAME.unit, else "" */
	char pmu[64];                 /* "cpu", "software", "tracepoint", "msr", "armv8", ... */
	int needs_hw_pmu;             /* 1 if only a hardware PMU can count it */
	uint64_t tick_ns;             /* FreeBSD's CLOCK.* events: ns per clock tick;
	                               * counts and sampling periods are in ticks */
	int mode_given;               /* 1 if :u/:k/:h or ,usr/,os chose the privilege
	                                 levels (the core must not widen or narrow them) */
};

/*
 * What a resolved event counts in perf's terms: its type and config, except
 * that an ARMv8 architectural event equal to a generic hardware event (the
 * kernel's armv8_pmuv3_perf_map) is given as that generic event, and a
 * generic event's extended PMU type (hybrid CPUs, config bits 32-63) is
 * dropped.
 */
void pmc__event_generic(const struct pmc_evspec *ev, uint32_t *type, uint64_t *config);

/* Parse and resolve one spec. 0, -ENOENT (unknown name), -EINVAL (bad syntax). */
int pmc__event_parse(const char *spec, struct pmc_evspec *out);

/* pmc_event_names_of_class(3): malloc'd array of const strings; -EINVAL for
 * a class with no static names. */
int pmc__event_names_of_class(enum pmc_class c, const char ***names, int *n);

/* pmc_name_of_event(3): NULL if unknown. */
const char *pmc__event_name_of(enum pmc_event ev);

/*
 * Call cb for every event of category (NULL = all).  Strings are valid only
 * during the callback.  A non-zero return from cb stops the walk and is
 * returned.  Categories the machine lacks are simply empty.
 */
int pmc__event_foreach(const char *category,
    int (*cb)(const struct pmc_evinfo *, void *), void *arg);

/*
 * The CPU's own event table, FreeBSD's "pmu-events" (pmc_pmu_*(3)): the
 * named events of the core PMU in sysfs, then libpfm4's events of the core
 * PMU.  Empty without a hardware PMU.  Same callback rules as
 * pmc__event_foreach.
 */
int pmc__event_cpu_table_foreach(int (*cb)(const struct pmc_evinfo *, void *), void *arg);

/*
 * For tests: the tracefs directory (NULL = find or mount it; env
 * PMC_TRACEFS).  The sysfs root is lib/common's (pmc__sys_set_sysfs_root).
 */
void pmc__event_set_tracefs_root(const char *dir);

#endif
