/*
 * <sys/param.h> of the libpmc-freebsd include set: the C library's (through
 * libbsd's overlay, which adds MIN/MAX), plus FreeBSD's nitems().
 * See docs/freebsd-compat.md.
 */
#include_next <sys/param.h>

#ifndef _PMC_FREEBSD_SYS_PARAM_H_
#define _PMC_FREEBSD_SYS_PARAM_H_
#ifndef nitems
#define nitems(x) (sizeof((x)) / sizeof((x)[0]))
#endif
#endif
