/*
 * writer_impl.h — the writer's private state, shared by writer.c (thread,
 * buffer, I/O) and translate.c (kernel records -> log records).
 */
#ifndef PMC_LOG_WRITER_IMPL_H
#define PMC_LOG_WRITER_IMPL_H

#include <pthread.h>
#include <zstd.h>

#include "log/writer.h"
#include "ring/ring.h"

struct logw_event {
	uint64_t kid;
	pmc_id_t pmc;
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t period;              /* for samples without PERF_SAMPLE_PERIOD */
	enum pmc_logw_role role;
	int used;
};

struct logw_ring {
	const struct pmc_backend_ops *be;
	struct pmc_bctr *c;
	struct pmc_ring ring;
};

struct logw_csw {              /* last group-member value seen per (tid, id) */
	uint64_t kid;
	uint64_t last;
	int32_t tid;
	int used;
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
	struct logw_ring *rings;
	int nrings, ringcap;
	struct pmc_bctr **wait_cs;
	int wait_cap;
	unsigned char *scratch;       /* PMC_RING_SCRATCH_SIZE */
	struct logw_csw *csw;
	size_t ncsw, cswcap;

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
uint64_t pmc__logw_clock(struct pmc_logw *lw);

#endif
