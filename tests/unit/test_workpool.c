/*
 * test_workpool.c — analysis/workpool: jobs done on worker threads are
 * applied on the caller's thread in the order they were added, each once,
 * with the worker's result; the jobs in flight stay bounded (a reader that
 * adds millions of jobs keeps a flat memory); a worker's state is its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/workpool.h"

struct job {
	uint64_t seq, in, out;
	uint32_t pad;                 /* bytes after the job, all seq's low byte */
	void *by;                     /* the worker state that did it */
};

struct run {
	uint64_t added, applied, max_pending;
	int bad_order, bad_result, bad_pad, workers, freed, wrong_shard, sharded;
	void *states[64];
};

static uint64_t mix(uint64_t x)
{
	for (int i = 0; i < (int)(x % 64); i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

static void *w_new(void *arg)
{
	struct run *r = arg;
	int *st = malloc(sizeof(*st));
	if (st)
		r->states[r->workers++] = st;
	return st;
}

static void w_free(void *w)
{
	free(w);
}

static void work(void *w, void *jp)
{
	struct job *j = jp;
	j->out = mix(j->in);
	j->by = w;
}

static void apply(void *arg, void *jp)
{
	struct run *r = arg;
	struct job *j = jp;
	const unsigned char *pad = (const unsigned char *)(j + 1);
	int known = 0;

	if (j->seq != r->applied)
		r->bad_order++;
	if (j->out != mix(j->in))
		r->bad_result++;
	for (uint32_t i = 0; i < j->pad; i++)
		if (pad[i] != (unsigned char)j->seq)
			r->bad_pad++;
	for (int i = 0; i < r->workers; i++)
		known |= j->by == r->states[i];
	if (!known)
		r->bad_result++;
	/* sharded (test_shards): worker k (made k-th) does shard k */
	if (r->sharded && j->by != r->states[(j->seq % 7) % (uint64_t)r->workers])
		r->wrong_shard++;
	r->applied++;
}

static const struct workpool_ops ops = { w_new, w_free, work, apply, NULL };

/* n jobs of varied sizes through a pool of t workers, batches of 4 KiB. */
static void run_jobs(int t, uint64_t n, int drain_every)
{
	struct run r;
	struct workpool *wp;

	memset(&r, 0, sizeof(r));
	wp = workpool__new(t, 4096, &ops, &r);
	assert_non_null(wp);
	assert_int_equal(r.workers, t);
	for (uint64_t i = 0; i < n; i++) {
		uint32_t pad = (uint32_t)(mix(i) % 600);
		struct job *j = workpool__job(wp, sizeof(*j) + pad);
		assert_non_null(j);
		j->seq = i;
		j->in = i * 7919;
		j->pad = pad;
		memset(j + 1, (unsigned char)i, pad);
		r.added++;
		if (r.added - r.applied > r.max_pending)
			r.max_pending = r.added - r.applied;
		if (drain_every && i % (uint64_t)drain_every == 0) {
			workpool__drain(wp);
			assert_int_equal(r.applied, r.added);
		}
	}
	workpool__drain(wp);
	assert_int_equal(r.applied, n);
	workpool__free(wp);
	assert_int_equal(r.bad_order, 0);
	assert_int_equal(r.bad_result, 0);
	assert_int_equal(r.bad_pad, 0);
	/* at most 2 t + 1 batches of at most 4096 / 48 jobs each are held */
	assert_true(r.max_pending <= (uint64_t)(2 * t + 1) * (4096 / sizeof(struct job) + 1));
}

static void test_one_worker_in_order(void **state)
{
	(void)state;
	run_jobs(1, 20000, 0);
}

static void test_four_workers_in_order(void **state)
{
	(void)state;
	run_jobs(4, 200000, 0);
}

static void test_drained_now_and_then(void **state)
{
	(void)state;
	run_jobs(3, 50000, 777);
}

static void test_big_job(void **state)
{
	/* a job larger than a batch gets a batch of its own */
	struct run r;
	struct workpool *wp;
	(void)state;
	memset(&r, 0, sizeof(r));
	assert_non_null(wp = workpool__new(2, 1024, &ops, &r));
	for (uint64_t i = 0; i < 10; i++) {
		struct job *j = workpool__job(wp, sizeof(*j) + 5000);
		assert_non_null(j);
		*j = (struct job){ .seq = i, .in = i, .pad = 5000 };
		memset(j + 1, (unsigned char)i, 5000);
	}
	workpool__free(wp);           /* drains */
	assert_int_equal(r.applied, 10);
	assert_int_equal(r.bad_order + r.bad_result + r.bad_pad, 0);
}

/* ops.shard: a job is done by worker shard % workers, whichever batch it
 * is in, and the jobs are still applied in order. */
static unsigned job_shard(const void *jp)
{
	return (unsigned)(((const struct job *)jp)->seq % 7);
}
static const struct workpool_ops sharded = { w_new, w_free, work, apply, job_shard };

static void test_shards(void **state)
{
	struct run r;
	struct workpool *wp;
	(void)state;
	memset(&r, 0, sizeof(r));
	r.sharded = 1;
	assert_non_null(wp = workpool__new(3, 2048, &sharded, &r));
	for (uint64_t i = 0; i < 5000; i++) {
		struct job *j = workpool__job(wp, sizeof(*j));
		assert_non_null(j);
		*j = (struct job){ .seq = i, .in = i };
		if (i % 500 == 0)
			workpool__drain(wp);   /* a part-filled batch */
	}
	workpool__free(wp);
	assert_int_equal(r.applied, 5000);
	assert_int_equal(r.bad_order + r.bad_result + r.bad_pad, 0);
	assert_int_equal(r.workers, 3);
	assert_int_equal(r.wrong_shard, 0);
}

static void test_cpus(void **state)
{
	(void)state;
	assert_true(workpool__cpus() >= 1);
	workpool__free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_worker_in_order),
		cmocka_unit_test(test_four_workers_in_order),
		cmocka_unit_test(test_drained_now_and_then),
		cmocka_unit_test(test_big_job),
		cmocka_unit_test(test_shards),
		cmocka_unit_test(test_cpus),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
