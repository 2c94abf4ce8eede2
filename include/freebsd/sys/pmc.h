/*
 * <sys/pmc.h> of the libpmc-freebsd include set (pkg-config libpmc-freebsd):
 * FreeBSD tools include hwpmc's kernel/user header directly.  Everything it
 * gives user space (the enumerations, PMC_* macros, the pmc_op_* request
 * structures, pmc_dyn_event_descr, pmc_cpuid) is in libpmc's <pmc.h>.
 * See docs/freebsd-compat.md.
 */
#ifndef _PMC_FREEBSD_SYS_PMC_H_
#define _PMC_FREEBSD_SYS_PMC_H_

#include <sys/cdefs.h>
#include <stdint.h>
#include <pmc.h>

/* FreeBSD's <sys/pmc.h> declares the log's program-counter type too. */
#ifndef _PMC_UINTFPTR_T_DECLARED
#define _PMC_UINTFPTR_T_DECLARED
typedef uint64_t uintfptr_t;
#endif

#endif
