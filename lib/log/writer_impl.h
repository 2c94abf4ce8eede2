/*
 * writer_impl.h — the writer's private state, shared by writer.c (thread,
 * buffer, I/O) and translate.c (kernel records -> log records).
 */
#ifndef PMC_LOG_WRITER_IMPL_H
#define PMC_LOG_WRITER_IMPL_H

#include <pthread.h>
#include <zstd.h>

#include "log/chains.h"
#include "log/writer.h"
#include "ring/ring.h"

struct logw_event {
	uint64_t kid;
	pmc_id_t pmc;
	struct psample_layout layout; /* as opened: decodes its records */
	uint64_t period;              /* for samples without PERF_SAMPLE_PERIOD */
	enum pmc_logw_role role;
	int used;
};

/* A ring the writer drains: its counter and the reader over its mapping. */
struct logw_source {
	const struct pmc_backend_ops *be;
	struct pmc_bctr *c;
	struct pmc_ring_reader ring;
};

struct logw_csw {              /* last group-member value seen per (tid, id) */
	uint64_t kid;
	uint64_t last;
	int32_t tid;
	int used;
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
 * A process whose exit gets a PROCEXIT with its own count (LOG_PROCEXIT on
 * the target itself; its descendants' come from the kernel's READ records
 * at their exits).  The kernel adds each exited descendant's count to the
 * target's counters, so the target's own count is their sum less the
 * descendants' PROCEXIT values.  Descendants exit after it too, so the
 * record is written when the counters are about to close (detach, release)
 * or the log closes — unless the kernel sent a READ for the target itself
 * (it does when it swapped the target's context with a child's).
 */
struct logw_exitwatch {
	int32_t pid, tid;
	pmc_id_t pmc;
	const struct pmc_backend_ops *be;
	struct pmc_bctr **ctr;        /* copied array; the counters are the core's */
	int nctr;
	int exited;                   /* its EXIT record was seen */
	int got_read;                 /* the kernel sent its count itself */
	int done;
	uint64_t others;              /* descendants' PROCEXIT values so far */
	uint64_t exit_ts;
};

struct pmc_logw {
	int fd;
	unsigned flags;
	pthread_mutex_t mu;
	pthread_cond_t cv;            /* wakes the thread; signals in_wait changes */
	pthread_t thr;
	int thr_started;
	int stop;
	int in_wait;                  /* the thread is inside ring_wait */
	int removing;                 /* pmc__logw_remove_ring calls waiting */

	unsigned char *buf;
	size_t len, cap;
	uint64_t buf_samples;         /* CALLCHAIN records in buf */
	uint64_t last_write_ns;       /* CLOCK_MONOTONIC of the last write-out */
	ZSTD_CCtx *zc;
	unsigned char *zbuf;
	size_t zcap;

	struct logw_event *ev;        /* open addressing on kid, evcap a power of 2 */
	size_t nev, evcap;
	struct logw_source *rings;
	int nrings, ringcap;
	struct pmc_bctr **wait_cs;
	int wait_cap;
	unsigned char *scratch;       /* PMC_RING_SCRATCH_SIZE */
	struct logw_csw *csw;
	size_t ncsw, cswcap;
	struct logw_exec *pexec;
	int npexec, pexeccap;
	struct logw_exitwatch *xw;
	int nxw, xwcap;

	struct pmc_logchains *chains; /* interned call chains; made at the first sample */
	struct pmc_logrec rec;        /* translation scratch (under mu) */
	uint64_t (*now)(void);
	const struct pmc_backend_ops *cur_be; /* ring being drained */
	struct pmc_logw_stats st;
};

/* Append one record (under mu).  0, or -errno if logging has stopped. */
int pmc__logw_append(struct pmc_logw *lw, int type, uint64_t ts, const void *payload,
    size_t len);
/* Translate one kernel record into log records (under mu). */
void pmc__logw_translate(struct pmc_logw *lw, const struct perf_event_header *h);
struct logw_event *pmc__logw_find_event(struct pmc_logw *lw, uint64_t kid);
/* Write a watched process's PROCEXIT if it exited and has none (under mu). */
void pmc__logw_exit_emit(struct pmc_logw *lw, struct logw_exitwatch *w);
/* Write every PROCEXEC still waiting for mappings (under mu). */
void pmc__logw_exec_flush_all(struct pmc_logw *lw, uint64_t ts);
uint64_t pmc__logw_clock(struct pmc_logw *lw);

#endif
