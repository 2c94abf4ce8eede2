/*
 * <sys/mman.h> of the libpmc-freebsd include set: the C library's, plus
 * FreeBSD's MAP_NOSYNC (no periodic write-back of a shared mapping), which
 * Linux has no counterpart of: it is 0, a plain MAP_SHARED mapping.
 */
#include_next <sys/mman.h>

#ifndef _PMC_FREEBSD_SYS_MMAN_H_
#define _PMC_FREEBSD_SYS_MMAN_H_
#ifndef MAP_NOSYNC
#define MAP_NOSYNC 0
#endif
#endif
