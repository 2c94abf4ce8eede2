/*
 * work603010.c — a workload with known answers for pmc report: hot60(),
 * warm30() and cold10() do the same work per iteration, 6 : 3 : 1 times as
 * many iterations, so they take 60 %, 30 % and 10 % of the CPU time.
 * Built by the analysis tests (not by make: it needs -g and frame pointers):
 *     cc -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o work603010 work603010.c
 * Usage: work603010 [SCALE]   (SCALE x 10M iterations in all; default 30)
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

/* The same loop in each function, so each one's self time is its share. */
#define SPIN(n, x) do { \
	for (unsigned long i_ = 0; i_ < (n); i_++) { \
		(x) = (x) * 6364136223846793005ul + i_; \
		__asm__ volatile("" : "+r"(x)); \
	} } while (0)

/* Called by each worker, so none of them is a leaf function: gcc gives
 * leaf functions no frame even with -fno-omit-frame-pointer, and their
 * caller would then be missing from frame-pointer call chains. */
NOINLINE unsigned long mix(unsigned long x)
{
	__asm__ volatile("" : "+r"(x));
	return x ^ 1;
}

NOINLINE unsigned long hot60(unsigned long n, unsigned long x)
{
	SPIN(6 * n, x);
	return mix(x) + 1;
}

NOINLINE unsigned long warm30(unsigned long n, unsigned long x)
{
	SPIN(3 * n, x);
	return mix(x) + 1;
}

NOINLINE unsigned long cold10(unsigned long n, unsigned long x)
{
	SPIN(n, x);
	return mix(x) + 1;
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 0) : 30;
	unsigned long n = 1000000, x = 1;
	/* many rounds keep the three interleaved in time */
	for (unsigned long r = 0; r < scale; r++) {
		x = hot60(n, x);
		x = warm30(n, x);
		x = cold10(n, x);
	}
	printf("%lu\n", x & 1);
	return 0;
}
