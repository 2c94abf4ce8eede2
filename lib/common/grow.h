/*
 * grow.h — the one growth step of a growable array (pointer, count,
 * capacity): room for one more element, doubling, or an out-of-memory answer
 * that leaves the array as it was, so that a failed growth is -ENOMEM
 * carried up (common/error.h), never abort().
 */
#ifndef PMC_COMMON_GROW_H
#define PMC_COMMON_GROW_H

#include <stdlib.h>

/* Room for one more element in ptr (n used of cap): 0, or -1 out of memory
 * (ptr and cap kept).  The first growth makes room for 64. */
#define GROW(ptr, n, cap) ({ \
	int grow_rc_ = 0; \
	if ((n) == (cap)) { \
		size_t grow_cap_ = (cap) ? (cap) * 2 : 64; \
		void *grow_p_ = realloc((ptr), grow_cap_ * sizeof(*(ptr))); \
		if (grow_p_) { \
			(ptr) = grow_p_; \
			(cap) = grow_cap_; \
		} else { \
			grow_rc_ = -1; \
		} \
	} \
	grow_rc_; })

#endif
