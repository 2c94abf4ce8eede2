/*
 * shlib_main.c — calls lib_hot (75 %) and lib_cold (25 %) in libwork.so.
 *     cc -O1 -g -fno-omit-frame-pointer -o shlib_main shlib_main.c -L. -lwork -Wl,-rpath,'$ORIGIN'
 */
#include <stdio.h>
#include <stdlib.h>

unsigned long lib_hot(unsigned long n, unsigned long x);
unsigned long lib_cold(unsigned long n, unsigned long x);

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], NULL, 0) : 30, x = 1;
	for (unsigned long r = 0; r < scale; r++) {
		x = lib_hot(3000000, x);
		x = lib_cold(3000000, x);
	}
	printf("%lu\n", x & 1);
	return 0;
}
