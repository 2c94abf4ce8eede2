/*
 * dwarf_work.c — a workload with known call paths and shares for DWARF
 * unwinding tests (tests/integration/dwarf.sh).  Built -O2
 * -fomit-frame-pointer with libdw_work.so (the same flags): frame-pointer
 * chains cannot walk it, CFI can.
 *
 *   main -> path_a -> leaf_a                      50 % of the work
 *   main -> path_b -> lib_entry -> lib_leaf       30 % (in libdw_work.so)
 *   thread: (start_thread) -> thread_main -> thread_work -> thread_leaf
 *                                                 20 % (a second thread)
 *
 * Usage: dwarf_work [UNITS]  (default 30; one unit is 2^22 iterations)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dw_spin.h"

uint64_t lib_entry(uint64_t n);

#define UNIT (1ULL << 22)
static uint64_t units = 30;
volatile uint64_t sink;

DW_NOIPA static uint64_t leaf_a(uint64_t n) { return dw_spin(n); }
DW_NOIPA static uint64_t thread_leaf(uint64_t n) { return dw_spin(n); }

DW_NOIPA static uint64_t path_a(uint64_t n)
{
	uint64_t r = 0;
	for (uint64_t i = 0; i < n; i++) {
		r += leaf_a(UNIT);
		__asm__ volatile("" : "+r"(r));
	}
	return r + 1;
}

DW_NOIPA static uint64_t path_b(uint64_t n)
{
	uint64_t r = 0;
	for (uint64_t i = 0; i < n; i++) {
		r += lib_entry(UNIT);
		__asm__ volatile("" : "+r"(r));
	}
	return r + 1;
}

DW_NOIPA static uint64_t thread_work(uint64_t n)
{
	uint64_t r = 0;
	for (uint64_t i = 0; i < n; i++) {
		r += thread_leaf(UNIT);
		__asm__ volatile("" : "+r"(r));
	}
	return r + 1;
}

DW_NOIPA static void *thread_main(void *arg)
{
	(void)arg;
	sink += thread_work(units * 2);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		units = strtoull(argv[1], NULL, 0);
	if (pthread_create(&t, NULL, thread_main, NULL) != 0)
		return 1;
	sink += path_a(units * 5);
	sink += path_b(units * 3);
	pthread_join(t, NULL);
	printf("%llu\n", (unsigned long long)sink);
	return 0;
}
