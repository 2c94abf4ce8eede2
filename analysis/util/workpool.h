/*
 * workpool.h — work done on worker threads, its results taken in order.
 *
 * The caller (one thread: a profile's reader) adds jobs one after another;
 * they are gathered into batches, and each full batch is handed to the
 * workers: each does the jobs of its shard (ops.shard), so jobs that build
 * the same state in a worker (one process's address space) can be kept on
 * one worker.  Finished batches are applied on the caller's thread,
 * strictly in the order their jobs were added, whatever order the workers
 * finish them in: what the caller builds from the results is what one
 * thread doing the jobs in turn builds.  At most a fixed number of batches
 * is in flight, so memory stays flat however many jobs pass: adding a job
 * to a full pipeline first applies (waiting for) the oldest batch.
 *
 * With no worker threads (nthreads 1, or none could be started) the jobs
 * of a batch are done on the caller's thread when the batch is full.
 */
#ifndef PMCSTAT_WORKPOOL_H
#define PMCSTAT_WORKPOOL_H

#include <stddef.h>

struct workpool_ops {
	/* a worker's own state, made on the caller's thread (NULL: out of
	 * memory); freed with worker_free once the pool is done */
	void *(*worker_new)(void *arg);
	void (*worker_free)(void *w);
	/* do one job, on a worker thread (w: that worker's state) */
	void (*work)(void *w, void *job);
	/* take one done job's result, on the caller's thread, in order */
	void (*apply)(void *arg, void *job);
	/* which worker does a job (filled): the one numbered shard % workers.
	 * NULL: the jobs of a batch in turn */
	unsigned (*shard)(const void *job);
};

struct workpool;

/* A pool of nthreads workers (>= 1); batches of at most batch_bytes of
 * jobs.  NULL, with pmc_errmsg() saying why, when out of memory. */
struct workpool *workpool__new(int nthreads, size_t batch_bytes, const struct workpool_ops *ops,
    void *arg);
/* Room for one job of size bytes (aligned for any type), to be filled
 * before the next call: NULL out of memory (pmc_errmsg() says so).  May
 * hand a full batch to the workers and apply finished ones first. */
void *workpool__job(struct workpool *wp, size_t size);
/* Do every job added so far and apply them all (in order). */
void workpool__drain(struct workpool *wp);
/* Drain, stop the workers, free everything (NULL: nothing). */
void workpool__free(struct workpool *wp);
/* The CPUs this process may run on (sched_getaffinity), at least 1: the
 * default number of workers. */
int workpool__cpus(void);

#endif
