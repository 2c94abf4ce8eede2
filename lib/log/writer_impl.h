/*
 * writer_impl.h — the writer's private state, shared by writer.c (thread,
 * buffer, I/O) and translate.c (kernel records -> log records).
 */
#ifndef PMC_LOG_WRITER_IMPL_H
#define PMC_LOG_WRITER_IMPL_H

#include <pthread.h>

#include "common/hmap.h"
#include "log/chains.h"
#include "log/stream.h"
#include "log/writer.h"
#include "ring/ring.h"

struct logw_event {
	uint64_t kid;
	pmc_id_t pmc;
	struct psample_layout layout; /* as opened: decodes its records */
	uint64_t period;              /* for samples without PERF_SAMPLE_PERIOD */
	enum pmc_logw_role role;
};

/* A ring the writer drains: its counter and the reader over its mapping. */
struct logw_source {
	const struct pmc_backend_ops *be;
	struct pmc_bctr *c;
	struct pmc_ring_reader ring;
	uint64_t lost_seen;           /* in its LOST records so far */
};

struct logw_csw {              /* last group-member value seen per (tid, id) */
	uint64_t kid;
	uint64_t last;
	int32_t tid;
};

/*
 * An exec whose PROCEXEC waits for the new image's mappings: the first
 * executable mapping after the COMM(exec) is the program (its path and
 * load base), a second file is the dynamic linker (its base is hwpmc's
 * pl_dynaddr).  Written at the second file, or when the process does
 * anything else (a sample, its exit), or at close.
 */
struct logw_exec {
	int32_t pid, tid;
	pmc_id_t pmc;
	uint64_t base;
	int have_exe;
	char name[20];                /* MAXCOMLEN + 1 */
	char *path;                   /* malloc'ed, NULL until the first mapping */
};

/*
 * The exit counts of a process tree followed with LOG_PROCEXIT (hwpmc logs
 * the target's own exit with its count; the descendants' come from the
 * kernel's READ records at their exits, inherit_stat).  The kernel sends
 * no READ for the task that holds the original, uncloned context when it
 * exits: the target itself, or a descendant it swapped contexts with at a
 * context switch.  Every exited task's count has been added to the
 * target's counters by then, so that one task's count is their total less
 * every READ value of the tree (its threads' included).  The record is
 * written when the counters are about to close (detach, release) or the
 * log closes, when every READ is in; with more than one task unreported
 * their counts stay unknown.  Tasks are processes (their main threads):
 * a thread's READ carries that thread's own count.
 */
struct logw_exitproc {
	int32_t pid;
	int32_t tid;                  /* the thread whose EXIT was seen */
	int exited;                   /* its main thread's EXIT record was seen */
	int got_read;                 /* the kernel sent its main thread's count */
	uint64_t exit_ts;
};

struct logw_exitwatch {
	pmc_id_t pmc;
	const struct pmc_backend_ops *be;
	struct pmc_bctr **ctr;        /* copied array; the counters are the core's */
	int nctr;
	int done;
	struct logw_exitproc *procs;  /* [0]: the target; then forked descendants */
	int nprocs, proccap;
	uint64_t reported;            /* the tree's READ values so far */
};

struct pmc_logw {
	unsigned flags;
	pthread_mutex_t mu;
	pthread_cond_t cv;            /* wakes the thread; signals in_wait changes */
	pthread_t thr;
	int thr_started;
	int stop;
	int in_wait;                  /* the thread is inside ring_wait */
	int removing;                 /* pmc__logw_remove_ring calls waiting */

	struct pmc_logstream out;     /* the file: magic, framing, zstd */
	uint64_t buf_samples;         /* CALLCHAIN records in out's buffer */
	uint64_t last_write_ns;       /* CLOCK_MONOTONIC of the last write-out */

	struct logw_event *ev;        /* in the order added */
	size_t nev, evcap;
	struct hidx evix;             /* of ev by kid */
	struct logw_source *rings;
	int nrings, ringcap;
	struct pmc_bctr **wait_cs;
	int wait_cap;
	unsigned char *scratch;       /* PMC_RING_SCRATCH_SIZE */
	struct logw_csw *csw;
	size_t ncsw, cswcap;
	struct hidx cswix;            /* of csw by (tid, kid) */
	struct logw_exec *pexec;
	int npexec, pexeccap;
	struct logw_exitwatch *xw;
	int nxw, xwcap;
	struct { pmc_id_t pmc; uint64_t unit; } *units; /* pmc__logw_set_unit */
	int nunits, capunits;

	struct pmc_logchains *chains; /* interned call chains; made at the first sample */
	struct pmc_logrec rec;        /* translation scratch (under mu) */
	uint64_t (*now)(void);
	const struct pmc_backend_ops *cur_be; /* ring being drained */
	struct logw_source *cur_src;          /* ... and which */
	struct pmc_logw_stats st;
};

/* Append one record (under mu).  0, or -errno if logging has stopped. */
int pmc__logw_append(struct pmc_logw *lw, int type, uint64_t ts, const void *payload,
    size_t len);
/* Translate one kernel record into log records (under mu). */
void pmc__logw_translate(struct pmc_logw *lw, const struct perf_event_header *h);
struct logw_event *pmc__logw_find_event(struct pmc_logw *lw, uint64_t kid);
/* v in pmc's own units (pmc__logw_set_unit): what PROCEXIT and PROCCSW say. */
uint64_t pmc__logw_in_units(const struct pmc_logw *lw, pmc_id_t pmc, uint64_t v);
/* Write a watched process's PROCEXIT if it exited and has none (under mu). */
void pmc__logw_exit_emit(struct pmc_logw *lw, struct logw_exitwatch *w);
/* Add pid to w's tree (NULL without memory); the entry, zeroed. */
struct logw_exitproc *pmc__logw_exit_proc_add(struct logw_exitwatch *w, int32_t pid);
/* Write every PROCEXEC still waiting for mappings (under mu). */
void pmc__logw_exec_flush_all(struct pmc_logw *lw, uint64_t ts);
uint64_t pmc__logw_clock(struct pmc_logw *lw);

#endif
