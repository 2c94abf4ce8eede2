/*
 * offcpu [PERIODS [BUSY_PCT]] — a known answer for off-CPU and wall-clock
 * profiles: PERIODS (default 200) periods of 10 ms, each spending BUSY_PCT
 * (default 70) % of its wall time computing in compute() and the rest
 * asleep in wait_for_io().  Both run to absolute deadlines on one clock, so
 * the split of wall time is exact whatever the machine's load: a preempted
 * compute() is still compute()'s wall time, a late wake-up wait_for_io()'s.
 * A compute() preempted past its deadline eats into the next sleep, so on a
 * loaded machine the split drifts from BUSY_PCT: the program measures its
 * own and prints it at the end on standard error ("compute 70.12
 * wait_for_io 29.88 total_ns 2000123456 nvcsw 187": % of the time in the
 * two, that time, and the kernel's count of this thread's voluntary context
 * switches over it: the sleeps that really slept, each a switch-out), the
 * truth a profile is held to.
 */
#include <sys/resource.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define PERIOD_NS 10000000ull

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static volatile uint64_t sink;

__attribute__((noinline)) static void compute(uint64_t until)
{
	uint64_t x = sink;
	while (now() < until)
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

__attribute__((noinline)) static void wait_for_io(uint64_t until)
{
	struct timespec ts = { (time_t)(until / 1000000000ull), (long)(until % 1000000000ull) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
		;
}

int main(int argc, char **argv)
{
	int periods = argc > 1 ? atoi(argv[1]) : 200;
	int busy = argc > 2 ? atoi(argv[2]) : 70;
	uint64_t t = now(), in_compute = 0, in_wait = 0;
	struct rusage r0, r1;

	if (periods < 1 || busy < 0 || busy > 100)
		return 2;
	getrusage(RUSAGE_THREAD, &r0);
	for (int i = 0; i < periods; i++) {
		uint64_t t0 = now(), t1;
		compute(t + PERIOD_NS * (uint64_t)busy / 100);
		t1 = now();
		t += PERIOD_NS;
		wait_for_io(t);
		in_compute += t1 - t0;
		in_wait += now() - t1;
	}
	getrusage(RUSAGE_THREAD, &r1);
	fprintf(stderr, "compute %.2f wait_for_io %.2f total_ns %llu nvcsw %ld\n",
	    100.0 * (double)in_compute / (double)(in_compute + in_wait),
	    100.0 * (double)in_wait / (double)(in_compute + in_wait),
	    (unsigned long long)(in_compute + in_wait), r1.ru_nvcsw - r0.ru_nvcsw);
	return 0;
}
