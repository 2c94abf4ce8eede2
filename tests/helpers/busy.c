/* busy MS — spin for MS milliseconds of CPU time; print the CPU ns used. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long want = (argc > 1 ? atoll(argv[1]) : 200) * 1000000LL;
	long long t0 = cpu_ns();
	volatile unsigned long x = 0;
	while (cpu_ns() - t0 < want)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
	printf("%lld\n", cpu_ns());
	return 0;
}
