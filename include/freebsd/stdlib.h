/*
 * <stdlib.h> of the libpmc-freebsd include set: the C library's (through
 * libbsd's overlay), with reallocarray(3) moving the block whenever it
 * grows, as FreeBSD's jemalloc does for the small blocks pmc tools grow.
 * FreeBSD's libpmcstat (pmcstat_image_add_symbols) takes "the same pointer
 * back" for a failed realloc; glibc grows a block in place when it can,
 * and that code then dropped every symbol of the image's second symbol
 * table, now and then (by heap layout).  Moving is what C allows realloc
 * to do at any time.  See docs/freebsd-compat.md.
 */
#include_next <stdlib.h>

#ifndef _PMC_FREEBSD_STDLIB_H_
#define _PMC_FREEBSD_STDLIB_H_

#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif
void *pmc_fbsd_reallocarray(void *p, size_t n, size_t size);
#ifdef __cplusplus
}
#endif
#undef reallocarray
#define reallocarray(p, n, size) pmc_fbsd_reallocarray((p), (n), (size))

#endif
