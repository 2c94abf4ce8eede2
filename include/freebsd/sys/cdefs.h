/*
 * <sys/cdefs.h> of the libpmc-freebsd include set: the C library's own
 * header, plus the FreeBSD-only macros that FreeBSD tools use (__FBSDID
 * and a few attributes).  With libbsd's overlay (pkg-config libbsd-overlay,
 * which libpmc-freebsd.pc requires) the next <sys/cdefs.h> is libbsd's,
 * which defines most of them already.  See docs/freebsd-compat.md.
 */
#ifndef _PMC_FREEBSD_SYS_CDEFS_H_
#define _PMC_FREEBSD_SYS_CDEFS_H_

#include_next <sys/cdefs.h>

#ifndef __FBSDID
#define __FBSDID(s) struct __pmc_fbsdid_unused   /* swallows the ";" after __FBSDID(...) */
#endif
#ifndef __unused
#define __unused __attribute__((__unused__))
#endif
#ifndef __packed
#define __packed __attribute__((__packed__))
#endif
#ifndef __aligned
#define __aligned(x) __attribute__((__aligned__(x)))
#endif
#ifndef __dead2
#define __dead2 __attribute__((__noreturn__))
#endif
#ifndef __pure2
#define __pure2 __attribute__((__const__))
#endif
#ifndef __printflike
#define __printflike(fmtarg, firstvararg) \
	__attribute__((__format__(__printf__, fmtarg, firstvararg)))
#endif
#ifndef __predict_true
#define __predict_true(exp)  __builtin_expect((exp), 1)
#define __predict_false(exp) __builtin_expect((exp), 0)
#endif
#ifndef __DECONST
#define __DECONST(type, var) ((type)(__UINTPTR_TYPE__)(const void *)(var))
#endif
#ifndef __DEVOLATILE
#define __DEVOLATILE(type, var) ((type)(__UINTPTR_TYPE__)(volatile void *)(var))
#endif
#ifndef __DEQUALIFY
#define __DEQUALIFY(type, var) ((type)(__UINTPTR_TYPE__)(const volatile void *)(var))
#endif
#ifndef __BSD_VISIBLE
#define __BSD_VISIBLE 1
#endif

#endif
