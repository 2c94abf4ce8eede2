/*
 * spin.c — the known workload of tests/freebsd/run.sh: a position-
 * independent program that spends its CPU time in hot(), called by warm(),
 * called by main(), and prints the CPU time it used in milliseconds (what
 * pmcstat -p SOFT-CLOCK.HARD must count, in ticks of hz = 1000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

__attribute__((noinline)) static void hot(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

__attribute__((noinline)) static void warm(unsigned long n)
{
	hot(n);
}

int main(int argc, char **argv)
{
	struct timespec ts;
	warm(argc > 1 ? strtoul(argv[1], NULL, 10) : 300000000UL);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	fprintf(stderr, "cpu_ms %ld\n", (long)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000));
	return 0;
}
