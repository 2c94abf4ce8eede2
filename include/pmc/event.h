/*
 * pmc/event.h — libpmc's Linux extensions about events: what a spec resolves
 * to (struct perf_event_attr), the event catalogue, what a PMC counts and in
 * which unit.
 *
 * Not in FreeBSD's libpmc.  Same conventions as <pmc.h>: 0 or -1 with
 * errno, and pmc_errmsg() says why.  Included by <pmc.h>.
 */
/* <pmc.h> first: it includes this header after what this one uses. */
#include "../pmc.h"

#ifndef _PMC_EVENT_H_
#define _PMC_EVENT_H_

#ifdef __cplusplus
extern "C" {
#endif

/*
 * pmc_allocate_attr — allocate from a raw struct perf_event_attr (from
 * <linux/perf_event.h>); the mode, flags and cpu rules are pmc_allocate's.
 */
struct perf_event_attr;
PMC_API int pmc_allocate_attr(const struct perf_event_attr *_attr, enum pmc_mode _mode,
    uint32_t _flags, int _cpu, pmc_id_t *_pmcid, uint64_t count);

/*
 * pmc_allocate_shared — pmc_allocate with Linux's rules for rows: past
 * hwpmc's limit for an owner (one process-mode PMC per row of a class with
 * fixed counters or of SOFT, one system-mode PMC per row and CPU), PMCs
 * share rows and the kernel multiplexes them, as perf's events
 * (pmc_read_ext's pm_enabled/pm_running say by how much).  pmc_session_*
 * and pmc_allocate_attr allocate so.
 */
PMC_API int pmc_allocate_shared(const char *_ctrspec, enum pmc_mode _mode, uint32_t _flags,
    int _cpu, pmc_id_t *_pmcid, uint64_t _count);

/*
 * pmc_event_attr — what an event spec resolves to, as pmc_allocate would
 * open it: perf's struct perf_event_attr (<linux/perf_event.h>) with the
 * counting fields (size, type, config*, exclude_*, precise_ip) and no
 * sampling ones.  ENOENT: unknown event; EINVAL: bad syntax.
 */
PMC_API int pmc_event_attr(const char *_spec, struct perf_event_attr *_attr);

/*
 * pmc_event_foreach — the event catalogue (`pmc list`): _cb is called for
 * every event of _category ("hardware", "software", "cache", "tracepoint",
 * "pmu", "raw", "armv8", "libpfm4"; NULL = all).  The strings are valid
 * only during the call.  A non-zero return from _cb stops the walk and is
 * returned.  Categories the machine lacks are empty.
 */
struct pmc_evinfo {
	const char *name;
	const char *desc;
	const char *category;
	const char *unit;      /* "" if none */
	const char *aliases;   /* other accepted spellings, space-separated, or NULL */
};
PMC_API int pmc_event_foreach(const char *_category,
    int (*_cb)(const struct pmc_evinfo *, void *), void *_arg);

/* pmc_event_name — the spec a PMC was allocated with ("cycles:u"). */
PMC_API const char *pmc_event_name(pmc_id_t _pmc);

/*
 * pmc_event_kind — what a PMC counts, whatever its spelling: perf's event
 * type and config (<linux/perf_event.h>), with an ARMv8 architectural event
 * that is one of perf's generic hardware events given as that event
 * (CPU_CYCLES and cpu-cycles are both PERF_TYPE_HARDWARE /
 * PERF_COUNT_HW_CPU_CYCLES), and the privilege levels it leaves out.
 * Derived metrics (insn per cycle, miss ratios) pair PMCs by kind.
 */
#define PMC_KIND_EXCL_USER    0x1
#define PMC_KIND_EXCL_KERNEL  0x2
#define PMC_KIND_EXCL_HV      0x4
struct pmc_event_kind {
	uint32_t pk_type;        /* PERF_TYPE_* */
	uint64_t pk_config;      /* PERF_COUNT_HW_*, PERF_COUNT_SW_*, cache id|op|result, ... */
	unsigned pk_exclude;     /* PMC_KIND_EXCL_* */
};
PMC_API int pmc_event_kind(pmc_id_t _pmc, struct pmc_event_kind *_kind);

/*
 * pmc_event_unit — for events with a sysfs scale and unit (e.g. energy in
 * Joules): the factor to multiply counts by and the unit ("" if none).
 */
PMC_API int pmc_event_unit(pmc_id_t _pmc, double *_scale, const char **_unit);

#ifdef __cplusplus
}
#endif

#endif /* _PMC_EVENT_H_ */
