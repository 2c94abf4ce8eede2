/*
 * libwork.c — the work of shlib_main.c, in a shared library: the report must
 * name lib_hot / lib_cold in libwork.so (and main in the executable).
 *     cc -O1 -g -fno-omit-frame-pointer -fPIC -shared -o libwork.so libwork.c
 */
#define NOINLINE __attribute__((noinline))

NOINLINE unsigned long lib_mix(unsigned long x)
{
	__asm__ volatile("" : "+r"(x));
	return x ^ 1;
}

/* not a leaf (it calls lib_mix): leaves get no frame pointer from gcc */
NOINLINE unsigned long lib_spin(unsigned long n, unsigned long x)
{
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ul + i;
		__asm__ volatile("" : "+r"(x));
	}
	return lib_mix(x) + 1;
}

NOINLINE unsigned long lib_hot(unsigned long n, unsigned long x)
{
	return lib_spin(3 * n, x) + 1;
}

NOINLINE unsigned long lib_cold(unsigned long n, unsigned long x)
{
	return lib_spin(n, x) + 1;
}
