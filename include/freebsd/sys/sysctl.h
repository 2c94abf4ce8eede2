/*
 * <sys/sysctl.h> of the libpmc-freebsd include set: glibc has no sysctl.
 * sysctlbyname() answers the names FreeBSD's pmc tools read: libpmc's
 * pmc_sysctlbyname() (kern.hwpmc.*, hw.ncpu, machdep.hlt_cpus,
 * machdep.logical_cpus_mask) and, from libpmc-freebsd, vm.ndomains,
 * security.bsd.unprivileged_syspmcs, kern.clockrate, kern.hz and
 * hw.pagesize.  sysctl() by MIB answers CTL_KERN/KERN_CLOCKRATE,
 * KERN_PROC (the kinfo_proc list of <kvm.h>), CTL_HW/HW_NCPU and
 * HW_PAGESIZE; sysctlnametomib() maps the names above to MIBs.  All are
 * read-only (EPERM); other names are ENOENT.  See docs/freebsd-compat.md.
 */
#ifndef _PMC_FREEBSD_SYS_SYSCTL_H_
#define _PMC_FREEBSD_SYS_SYSCTL_H_

#include <stddef.h>
#include <sys/types.h>
#include <pmc.h>

#define CTL_MAXNAME 24

#define CTL_KERN 1
#define CTL_VM   2
#define CTL_HW   6

#define KERN_CLOCKRATE 12
#define KERN_PROC      14
#define KERN_HZ        0x7001	/* not FreeBSD's number: kern.hz is OID_AUTO */

#define KERN_PROC_ALL     0
#define KERN_PROC_PID     1
#define KERN_PROC_PGRP    2
#define KERN_PROC_SESSION 3
#define KERN_PROC_TTY     4
#define KERN_PROC_UID     5
#define KERN_PROC_RUID    6
#define KERN_PROC_PROC    8
#define KERN_PROC_INC_THREAD 0x10

#define HW_NCPU     3
#define HW_PAGESIZE 7

struct clockinfo {
	int hz;		/* clock frequency */
	int tick;	/* micro-seconds per hz tick */
	int spare;
	int stathz;	/* statistics clock frequency */
	int profhz;	/* profiling clock frequency */
};

#ifdef __cplusplus
extern "C" {
#endif
int pmc_fbsd_sysctlbyname(const char *name, void *oldp, size_t *oldlenp,
    const void *newp, size_t newlen);
int sysctl(const int *name, unsigned int namelen, void *oldp, size_t *oldlenp,
    const void *newp, size_t newlen);
int sysctlnametomib(const char *name, int *mibp, size_t *sizep);
#ifdef __cplusplus
}
#endif

#define sysctlbyname(name, oldp, oldlenp, newp, newlen) \
	pmc_fbsd_sysctlbyname((name), (oldp), (oldlenp), (newp), (newlen))

#endif
