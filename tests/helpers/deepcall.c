/* deepcall THREADS DEPTH ITERATIONS — THREADS threads (the main thread is
 * one of them) each run ITERATIONS times: descend DEPTH nested calls, do a
 * fixed amount of work at the bottom, return.  A fixed amount of work (not
 * of time), so a slower run under a profiler shows as a longer run; frame
 * pointers are kept, so call chains walk through every level.  Prints
 * "threads depth iterations checksum elapsed-ns cpu-ns": wall time from the
 * first thread's start to the last one's end (so a profiler's own start-up
 * and wrap-up are not in it) and the CPU time the process used. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-omit-frame-pointer", "no-optimize-sibling-calls")
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int depth;
static long iterations;

__attribute__((noinline)) static unsigned long work(unsigned long seed)
{
	volatile unsigned long x = seed;
	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

__attribute__((noinline)) static unsigned long descend(int level, unsigned long seed)
{
	unsigned long r;
	if (level >= depth)
		return work(seed);
	r = descend(level + 1, seed + (unsigned long)level);
	__asm__ volatile("" : "+r"(r));     /* keep the frame: no tail call */
	return r ^ (unsigned long)level;
}

static void *run(void *arg)
{
	unsigned long sum = (unsigned long)(size_t)arg;
	for (long i = 0; i < iterations; i++)
		sum += descend(1, sum);
	return (void *)(size_t)sum;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 4;
	depth = argc > 2 ? atoi(argv[2]) : 64;
	iterations = argc > 3 ? atol(argv[3]) : 20000;
	if (nthreads < 1 || depth < 1 || iterations < 0) {
		fprintf(stderr, "usage: deepcall THREADS DEPTH ITERATIONS\n");
		return 2;
	}
	pthread_t *t = calloc((size_t)nthreads, sizeof(*t));
	unsigned long sum = 0;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 1; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, run, (void *)(size_t)i) != 0) {
			perror("pthread_create");
			return 1;
		}
	sum += (unsigned long)(size_t)run(NULL);
	for (int i = 1; i < nthreads; i++) {
		void *r;
		pthread_join(t[i], &r);
		sum += (unsigned long)(size_t)r;
	}
	struct timespec cpu;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
	printf("%d %d %ld %lu %lld %lld\n", nthreads, depth, iterations, sum & 0xffff,
	    (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec),
	    (long long)cpu.tv_sec * 1000000000LL + cpu.tv_nsec);
	free(t);
	return 0;
}
