/*
 * <sys/sysctl.h> of the libpmc-freebsd include set: glibc has no sysctl;
 * sysctlbyname() here is libpmc's pmc_sysctlbyname(), which answers the
 * names pmc tools read (kern.hwpmc.*, hw.ncpu, machdep.hlt_cpus,
 * machdep.logical_cpus_mask) from Linux's /proc and /sys; other names are
 * ENOENT.  See pmc.h and docs/freebsd-compat.md.
 */
#ifndef _PMC_FREEBSD_SYS_SYSCTL_H_
#define _PMC_FREEBSD_SYS_SYSCTL_H_

#include <stddef.h>
#include <pmc.h>

#define sysctlbyname(name, oldp, oldlenp, newp, newlen) \
	pmc_sysctlbyname((name), (oldp), (oldlenp), (newp), (newlen))

#endif
