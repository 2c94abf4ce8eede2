/*
 * <sys/_cpuset.h> of the libpmc-freebsd include set: FreeBSD splits the
 * cpuset_t type (here) from its CPU_* macros (<sys/cpuset.h>); this set
 * keeps both in <sys/cpuset.h>.  See docs/freebsd-compat.md.
 */
#ifndef _PMC_FREEBSD_SYS__CPUSET_H_
#define _PMC_FREEBSD_SYS__CPUSET_H_
#include <sys/cpuset.h>
#endif
