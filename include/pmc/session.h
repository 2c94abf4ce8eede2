/*
 * pmc/session.h — libpmc's sampling and counting sessions (a Linux
 * extension): the PMCs of several events allocated, attached, started, read
 * and stopped together.
 *
 * Not in FreeBSD's libpmc.  Same conventions as <pmc.h>: 0 or -1 with
 * errno, and pmc_errmsg() says why.  Included by <pmc.h>.
 */
/* <pmc.h> first: it includes this header after what this one uses. */
#include "../pmc.h"

#ifndef _PMC_SESSION_H_
#define _PMC_SESSION_H_

#ifdef __cplusplus
extern "C" {
#endif

/*
 * pmc_session — a session of events (Linux extension; libperf's evlist
 * over perf's util/target.c): events sampled, or with ps_count counted,
 * the same way on one target, their PMCs allocated, configured, grouped,
 * attached, started, read and stopped together.  What `pmc record` and
 * `pmc top` sample and `pmc stat` counts; the log sampling PMCs (and
 * PMC_F_LOG_PROCEXIT) write to is the process's (pmc_configure_logfile).
 *
 * System-wide (ps_system_wide): each event gets one system-mode PMC per
 * CPU, every online CPU or those ps_cpus marks (an offline CPU is skipped
 * unless ps_cpus names it).  Otherwise each event gets one process-mode PMC
 * that follows the targets pmc_session_attach names: processes and the
 * children they start (PMC_F_DESCENDANTS, unless ps_no_inherit), or with
 * ps_threads those threads (a sampling session does not follow their
 * children, as perf record -t; a counting one does, as perf stat -t).
 * With ps_per_target (threads only), each event gets one PMC per target
 * instead, the k-th following the k-th target alone: per-thread counts.
 * Failures: -1 (NULL) with errno and pmc_errmsg().
 */
struct pmc_session_opts {
	uint64_t ps_hz;                /* samples per second (pmc_set_frequency); 0: by period */
	uint64_t ps_period;            /* one sample every ps_period events (0: the default);
	                                * pmc_set_period's: software events and
	                                * tracepoints are not raised to mincount */
	uint64_t ps_tp_period;         /* tracepoints: one sample every ps_tp_period events
	                                * instead of ps_hz (perf's default for them: 1);
	                                * 0: as the other events */
	int ps_callchain;              /* PMC_F_CALLCHAIN */
	uint32_t ps_ustack;            /* user stack bytes per sample (pmc_set_user_stack), 0: none */
	int ps_system_wide;            /* per-CPU PMCs */
	const unsigned char *ps_cpus;  /* system-wide: ps_cpus[c] != 0 samples CPU c; NULL: all */
	int ps_ncpus;                  /* the entries of ps_cpus */
	int ps_threads;                /* the targets are threads (not system-wide) */
	int ps_count;                  /* counting PMCs (PMC_MODE_SC/TC): no sampling settings */
	int ps_no_inherit;             /* not the children of the targets (no PMC_F_DESCENDANTS) */
	uint32_t ps_flags;             /* more flags of process-mode PMCs: PMC_F_LOG_PROCEXIT */
	int ps_per_target;             /* > 0: that many threads, one PMC each per event */
};
struct pmc_session;
/* A session without events (the options are copied).  EINVAL: ps_cpus
 * without ps_system_wide; ps_threads, ps_per_target or ps_flags with it;
 * sampling settings with ps_count; ps_per_target without ps_threads. */
PMC_API struct pmc_session *pmc_session_new(const struct pmc_session_opts *_o);
/*
 * Allocate and configure _spec's PMCs (all of them or, on failure, none):
 * the session's next event, numbered from 0 in the order of the calls that
 * succeeded.  _offcpu: the event is context-switches sampled at every
 * switch-out with switch records (off-CPU time; EINVAL counting).  ENXIO:
 * no CPU to count on.
 */
PMC_API int pmc_session_add(struct pmc_session *_s, const char *_spec, int _offcpu);
/* The PMCs in allocation order: how many, then the i-th one's id, its event
 * as given to pmc_session_add (valid while the session lives) and its CPU
 * (-1: it follows its targets); _spec and _cpu may be NULL. */
PMC_API int pmc_session_npmcs(const struct pmc_session *_s);
PMC_API pmc_id_t pmc_session_pmc(const struct pmc_session *_s, int _i, const char **_spec, int *_cpu);
/* The events added, then event _ev's PMCs: how many, *_first (if not NULL)
 * the index of the first (they follow each other, in the order of the CPUs
 * or the targets); EINVAL: no such event. */
PMC_API int pmc_session_nevents(const struct pmc_session *_s);
PMC_API int pmc_session_event(const struct pmc_session *_s, int _ev, int *_first);
/* Make event _member count in event _leader's group ({a,b}): each PMC of
 * _member joins the PMC of _leader on the same CPU or target.  Before
 * pmc_session_attach.  EINVAL: no such events, or the same one. */
PMC_API int pmc_session_group(struct pmc_session *_s, int _leader, int _member);
/* Attach every PMC to each of the _n targets (nothing to do system-wide;
 * with ps_per_target, _n must be it and each PMC gets its own target);
 * on failure *_failed (if not NULL) is the target refused. */
PMC_API int pmc_session_attach(struct pmc_session *_s, const pid_t *_targets, int _n, pid_t *_failed);
/* Start every PMC; on failure *_failed (if not NULL) is the event of the
 * PMC that did not start. */
PMC_API int pmc_session_start(struct pmc_session *_s, const char **_failed);
/* The i-th PMC's reading (pmc_read_ext). */
PMC_API int pmc_session_read(const struct pmc_session *_s, int _i, struct pmc_reading *_r);
/* Stop every PMC (one that cannot be stopped is left as it is). */
PMC_API void pmc_session_stop(struct pmc_session *_s);
/* Release the PMCs and free the session; NULL is nothing to do. */
PMC_API void pmc_session_free(struct pmc_session *_s);

#ifdef __cplusplus
}
#endif

#endif /* _PMC_SESSION_H_ */
