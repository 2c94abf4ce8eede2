/*
 * workpool.c — jobs done on worker threads, results applied in order (see
 * workpool.h).
 *
 * The batches form a ring of NB slots.  A batch's sequence number says its
 * place: the caller fills batch `fill`, every worker goes through batches
 * up to `fill` - 1 (its own `next`), doing the jobs of its shard, and the
 * caller applies batch `applied` once every worker is done with it.  A
 * slot is reused only after its batch was applied, so at most NB batches
 * exist at once, their buffers kept for the next ones.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/workpool.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/thread.h"

enum { B_FREE, B_QUEUED, B_DONE };
#define ALIGN 16

struct batch {
	unsigned char *buf;
	size_t used, cap;
	size_t *off;                  /* each job's offset in buf */
	size_t n, capoff;
	int state;                    /* B_*, under the pool's lock */
	int ndone;                    /* workers done with it (B_QUEUED) */
};

struct worker {
	struct workpool *wp;
	pthread_t thr;
	void *state;
	int ix;                       /* its shard */
	uint64_t next;                /* the next batch it goes through */
};

struct workpool {
	pthread_mutex_t mu;
	pthread_cond_t work_cv;       /* a batch was queued, or stop */
	pthread_cond_t done_cv;       /* a batch is done */
	struct batch *b;
	size_t nb;
	uint64_t fill, applied;
	int stop;
	size_t batch_bytes;
	struct worker *w;
	int nw, nthr;                 /* states made; threads started */
	struct workpool_ops ops;
	void *arg;
};

/* Do the jobs of batch b that are shard ix's of n (n 1: all). */
static void run_batch(struct workpool *wp, struct batch *b, void *state, int ix, int n)
{
	for (size_t i = 0; i < b->n; i++) {
		void *job = b->buf + b->off[i];
		size_t k = wp->ops.shard ? wp->ops.shard(job) : i;
		if (n == 1 || (int)(k % (size_t)n) == ix)
			wp->ops.work(state, job);
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct workpool *wp = w->wp;

	pthread_mutex_lock(&wp->mu);
	for (;;) {
		while (w->next == wp->fill && !wp->stop)
			pthread_cond_wait(&wp->work_cv, &wp->mu);
		if (w->next == wp->fill)
			break;                    /* stopped, nothing left */
		struct batch *b = &wp->b[w->next++ % wp->nb];
		pthread_mutex_unlock(&wp->mu);
		run_batch(wp, b, w->state, w->ix, wp->nthr);
		pthread_mutex_lock(&wp->mu);
		if (++b->ndone == wp->nthr) {
			b->state = B_DONE;
			pthread_cond_broadcast(&wp->done_cv);
		}
	}
	pthread_mutex_unlock(&wp->mu);
	return NULL;
}

int workpool__cpus(void)
{
	cpu_set_t set;
	int n;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? n : 1;
}

struct workpool *workpool__new(int nthreads, size_t batch_bytes, const struct workpool_ops *ops,
    void *arg)
{
	struct workpool *wp = calloc(1, sizeof(*wp));
	if (nthreads < 1)
		nthreads = 1;
	if (!wp)
		return pmc__nomem(), NULL;
	wp->ops = *ops;
	wp->arg = arg;
	wp->batch_bytes = batch_bytes;
	/* two batches per worker keep each busy while the caller applies
	 * and fills; one more is being filled */
	wp->nb = 2 * (size_t)nthreads + 1;
	wp->b = calloc(wp->nb, sizeof(*wp->b));
	wp->w = calloc((size_t)nthreads, sizeof(*wp->w));
	if (!wp->b || !wp->w) {
		free(wp->b);
		free(wp->w);
		free(wp);
		return pmc__nomem(), NULL;
	}
	pthread_mutex_init(&wp->mu, NULL);
	pthread_cond_init(&wp->work_cv, NULL);
	pthread_cond_init(&wp->done_cv, NULL);
	for (wp->nw = 0; wp->nw < nthreads; wp->nw++) {
		wp->w[wp->nw].wp = wp;
		wp->w[wp->nw].ix = wp->nw;
		if (!(wp->w[wp->nw].state = ops->worker_new(arg))) {
			workpool__free(wp);
			return pmc__nomem(), NULL;
		}
	}
	/* one worker: the caller does the jobs itself, without a thread */
	if (nthreads > 1)
		for (; wp->nthr < nthreads; wp->nthr++)
			if (pmc__thread_start(&wp->w[wp->nthr].thr, worker_main, &wp->w[wp->nthr]) != 0)
				break;    /* fewer threads (none: the caller does the jobs) */
	return wp;
}

/* Apply the oldest batch if it is done (wait: until it is): 1 if one was. */
static int apply_one(struct workpool *wp, int wait)
{
	struct batch *b;

	pthread_mutex_lock(&wp->mu);
	if (wp->applied == wp->fill) {
		pthread_mutex_unlock(&wp->mu);
		return 0;
	}
	b = &wp->b[wp->applied % wp->nb];
	while (wait && b->state != B_DONE)
		pthread_cond_wait(&wp->done_cv, &wp->mu);
	if (b->state != B_DONE) {
		pthread_mutex_unlock(&wp->mu);
		return 0;
	}
	pthread_mutex_unlock(&wp->mu);
	for (size_t i = 0; i < b->n; i++)
		wp->ops.apply(wp->arg, b->buf + b->off[i]);
	b->n = 0;
	b->used = 0;
	pthread_mutex_lock(&wp->mu);
	b->state = B_FREE;
	wp->applied++;
	pthread_mutex_unlock(&wp->mu);
	return 1;
}

/* Hand the batch being filled to the workers (or do it here). */
static void submit(struct workpool *wp)
{
	struct batch *b = &wp->b[wp->fill % wp->nb];

	if (b->n == 0)
		return;
	if (!wp->nthr) {
		run_batch(wp, b, wp->w[0].state, 0, 1);
		b->state = B_DONE;
	} else {
		b->state = B_QUEUED;
		b->ndone = 0;
	}
	pthread_mutex_lock(&wp->mu);
	wp->fill++;
	pthread_cond_broadcast(&wp->work_cv);   /* every worker goes through it */
	pthread_mutex_unlock(&wp->mu);
	/* take what is done, without waiting */
	while (apply_one(wp, 0))
		;
}

void *workpool__job(struct workpool *wp, size_t size)
{
	struct batch *b = &wp->b[wp->fill % wp->nb];
	size_t at;

	size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (b->n && b->used + size > wp->batch_bytes) {
		submit(wp);
		b = &wp->b[wp->fill % wp->nb];
	}
	/* the slot is free once its last batch was applied */
	while (wp->fill - wp->applied >= wp->nb)
		apply_one(wp, 1);
	if (GROW_FROM(b->buf, b->used, b->cap, size, wp->batch_bytes) < 0)
		return pmc__nomem(), NULL;
	if (GROW(b->off, b->n, b->capoff) < 0)
		return pmc__nomem(), NULL;
	at = b->used;
	b->off[b->n++] = at;
	b->used += size;
	return b->buf + at;
}

void workpool__drain(struct workpool *wp)
{
	submit(wp);
	while (apply_one(wp, 1))
		;
}

void workpool__free(struct workpool *wp)
{
	if (!wp)
		return;
	workpool__drain(wp);
	pthread_mutex_lock(&wp->mu);
	wp->stop = 1;
	pthread_cond_broadcast(&wp->work_cv);
	pthread_mutex_unlock(&wp->mu);
	for (int i = 0; i < wp->nthr; i++)
		pthread_join(wp->w[i].thr, NULL);
	for (int i = 0; i < wp->nw; i++)
		wp->ops.worker_free(wp->w[i].state);
	for (size_t i = 0; i < wp->nb; i++) {
		free(wp->b[i].buf);
		free(wp->b[i].off);
	}
	pthread_cond_destroy(&wp->work_cv);
	pthread_cond_destroy(&wp->done_cv);
	pthread_mutex_destroy(&wp->mu);
	free(wp->b);
	free(wp->w);
	free(wp);
}
