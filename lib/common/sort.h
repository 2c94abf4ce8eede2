/*
 * sort.h — the qsort comparators more than one layer sorts by, once.
 */
#ifndef PMC_COMMON_SORT_H
#define PMC_COMMON_SORT_H

#include <stdint.h>

/* Ascending uint64_t. */
static inline int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

#endif
