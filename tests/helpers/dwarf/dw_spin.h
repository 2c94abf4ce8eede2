/* dw_spin.h — the one unit of work of dwarf_work: a latency-bound chain of
 * multiplications, so that n iterations cost the same wherever the loop is. */
#ifndef DW_SPIN_H
#define DW_SPIN_H
#include <stdint.h>
/* one function, one frame: no inlining, cloning or merging of the
 * identical-looking workers (gcc's -fipa-icf would fold them into one) */
#if defined(__GNUC__) && !defined(__clang__)
#define DW_NOIPA __attribute__((noipa))
#else
#define DW_NOIPA __attribute__((noinline))
#endif
static inline uint64_t dw_spin(uint64_t n)
{
	uint64_t x = n | 1;
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}
#endif
