/*
 * grow.h — the one growth policy of a growable array (pointer, count,
 * capacity): doubling, from a first capacity, to the size needed, or an
 * out-of-memory answer that leaves the array as it was, so that a failed
 * growth is -ENOMEM carried up (common/error.h), never abort().
 *
 *   GROW(ptr, n, cap)              room for one more element; first 64
 *   GROW_N(ptr, n, cap, more)      room for `more` elements beyond n; first 64
 *   GROW_FROM(ptr, n, cap, more, first)
 *                                  the same, with a first capacity of `first`
 *   grow__cap(cap, need, first)    the capacity itself, for a caller that
 *                                  grows several parallel arrays on one
 *                                  capacity or clamps to a maximum: cap when
 *                                  it already holds `need`, else the first
 *                                  capacity (`first`, or cap when non-zero)
 *                                  doubled until it holds `need`; 0 when
 *                                  doubling overflows size_t
 *
 * The macros answer 0, or -1 when the array cannot grow (out of memory, or
 * n + more or the byte size overflowing size_t), ptr and cap kept.  A big
 * `more` goes straight to the first power-of-two multiple that fits, one
 * realloc.
 */
#ifndef PMC_COMMON_GROW_H
#define PMC_COMMON_GROW_H

#include <stdint.h>
#include <stdlib.h>

static inline size_t grow__cap(size_t cap, size_t need, size_t first)
{
	size_t c = cap ? cap : (first ? first : 1);
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return 0;
		c *= 2;
	}
	return c;
}

#define GROW_FROM(ptr, n, cap, more, first) ({ \
	int grow_rc_ = 0; \
	size_t grow_n_ = (n), grow_more_ = (more); \
	if (grow_more_ > (cap) - grow_n_) { \
		size_t grow_cap_ = grow_more_ > SIZE_MAX - grow_n_ ? 0 : \
			grow__cap((cap), grow_n_ + grow_more_, (first)); \
		void *grow_p_ = NULL; \
		if (grow_cap_ && grow_cap_ <= SIZE_MAX / sizeof(*(ptr))) \
			grow_p_ = realloc((ptr), grow_cap_ * sizeof(*(ptr))); \
		if (grow_p_) { \
			(ptr) = grow_p_; \
			(cap) = grow_cap_; \
		} else { \
			grow_rc_ = -1; \
		} \
	} \
	grow_rc_; })

#define GROW_N(ptr, n, cap, more) GROW_FROM(ptr, n, cap, more, 64)

/* Room for one more element in ptr (n used of cap): 0, or -1 out of memory
 * (ptr and cap kept).  The first growth makes room for 64. */
#define GROW(ptr, n, cap) GROW_FROM(ptr, n, cap, 1, 64)

#endif
