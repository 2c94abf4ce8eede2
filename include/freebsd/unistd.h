/*
 * <unistd.h> of the libpmc-freebsd include set: the C library's, plus
 * FreeBSD's sysconf(_SC_CPUSET_SIZE) (the size of a cpuset_t, see
 * <sys/cpuset.h>).  sysconf is wrapped by a macro that answers that one
 * name and passes every other to the C library.
 *
 * getopt(3) is FreeBSD's: it stops at the first operand (glibc's permutes
 * argv, so "pmcstat -p EV sh -c CMD" would take sh's -c as its own) and
 * honours optreset (libbsd's variable).  See docs/freebsd-compat.md.
 */
#include_next <unistd.h>

#ifndef _PMC_FREEBSD_UNISTD_H_
#define _PMC_FREEBSD_UNISTD_H_

#include <sys/cpuset.h>

#define _SC_CPUSET_SIZE (-0x4350)   /* not a glibc _SC_ value */

static __inline long __pmc_freebsd_sysconf(int name)
{
	return name == _SC_CPUSET_SIZE ? (long)sizeof(cpuset_t) : sysconf(name);
}
#define sysconf(name) __pmc_freebsd_sysconf(name)

#ifdef __cplusplus
extern "C" {
#endif
int pmc_fbsd_getopt(int argc, char *const argv[], const char *optstring);
#ifdef __cplusplus
}
#endif
#undef getopt
#define getopt(argc, argv, optstr) pmc_fbsd_getopt((argc), (argv), (optstr))

#endif
