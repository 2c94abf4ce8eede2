/*
 * reallocarray(3) for FreeBSD programs built with libpmc-freebsd: one that
 * always moves a block it grows (include/freebsd/stdlib.h says why).
 */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <string.h>

#include <stdlib.h>

void *pmc_fbsd_reallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	size_t want = n * size, have = p ? malloc_usable_size(p) : 0;
	if (p == NULL || want > have) {
		void *q = malloc(want ? want : 1);
		if (q == NULL)
			return NULL;
		if (p != NULL) {
			memcpy(q, p, have);
			free(p);
		}
		return q;
	}
	return (realloc)(p, want ? want : 1);
}
