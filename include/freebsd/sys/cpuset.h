/*
 * <sys/cpuset.h> of the libpmc-freebsd include set: FreeBSD's cpuset_t and
 * its CPU_* macros (the subset FreeBSD's pmc tools use and a few more).
 * glibc's <sched.h> defines CPU_ZERO/CPU_SET/CPU_ISSET... for cpu_set_t
 * under _GNU_SOURCE; this header includes it first and replaces those
 * macros with FreeBSD's, which take the same arguments, so a file may use
 * both.  1024 CPUs (FreeBSD's CPU_MAXSIZE).  See docs/freebsd-compat.md.
 */
#ifndef _PMC_FREEBSD_SYS_CPUSET_H_
#define _PMC_FREEBSD_SYS_CPUSET_H_

#include <sched.h>
#include <string.h>
#include <sys/cdefs.h>

#define CPU_MAXSIZE 1024
#ifndef CPU_SETSIZE
#define CPU_SETSIZE CPU_MAXSIZE
#endif
#define _NCPUBITS  (sizeof(long) * 8)
#define _NCPUWORDS ((CPU_MAXSIZE + _NCPUBITS - 1) / _NCPUBITS)

typedef struct _cpuset {
	long __bits[_NCPUWORDS];
} cpuset_t;

#define __CPU_WORD(n) ((size_t)(n) / _NCPUBITS)
#define __CPU_MASK(n) (1UL << ((size_t)(n) % _NCPUBITS))

#undef CPU_ZERO
#undef CPU_FILL
#undef CPU_SET
#undef CPU_CLR
#undef CPU_ISSET
#undef CPU_COUNT
#undef CPU_EQUAL
#undef CPU_AND
#undef CPU_OR
#undef CPU_XOR

#define CPU_ZERO(p) memset((p), 0, sizeof(cpuset_t))
#define CPU_FILL(p) memset((p), 0xff, sizeof(cpuset_t))
#define CPU_SETOF(n, p) do { CPU_ZERO(p); CPU_SET((n), (p)); } while (0)
#define CPU_SET(n, p) ((p)->__bits[__CPU_WORD(n)] |= (long)__CPU_MASK(n))
#define CPU_CLR(n, p) ((p)->__bits[__CPU_WORD(n)] &= ~(long)__CPU_MASK(n))
#define CPU_ISSET(n, p) (((p)->__bits[__CPU_WORD(n)] & (long)__CPU_MASK(n)) != 0)

static __inline void __pmc_cpuset_op(cpuset_t *d, const cpuset_t *a, const cpuset_t *b, int op)
{
	for (size_t i = 0; i < _NCPUWORDS; i++) {
		switch (op) {
		case 0: d->__bits[i] = a->__bits[i] & b->__bits[i]; break;
		case 1: d->__bits[i] = a->__bits[i] | b->__bits[i]; break;
		case 2: d->__bits[i] = a->__bits[i] & ~b->__bits[i]; break;
		default: d->__bits[i] = a->__bits[i] ^ b->__bits[i]; break;
		}
	}
}

static __inline int __pmc_cpuset_count(const cpuset_t *p)
{
	int n = 0;
	for (size_t i = 0; i < _NCPUWORDS; i++)
		n += __builtin_popcountl((unsigned long)p->__bits[i]);
	return n;
}

static __inline int __pmc_cpuset_ffs(const cpuset_t *p)
{
	for (size_t i = 0; i < _NCPUWORDS; i++)
		if (p->__bits[i])
			return (int)(i * _NCPUBITS) + __builtin_ffsl(p->__bits[i]);
	return 0;
}

/* FreeBSD 14's forms: CPU_AND(dst, a, b); CPU_NAND(dst, src) is dst &= ~src. */
#define CPU_AND(d, a, b) __pmc_cpuset_op((d), (a), (b), 0)
#define CPU_OR(d, a, b)  __pmc_cpuset_op((d), (a), (b), 1)
#define CPU_ANDNOT(d, a, b) __pmc_cpuset_op((d), (a), (b), 2)
#define CPU_XOR(d, a, b) __pmc_cpuset_op((d), (a), (b), 3)
#define CPU_NAND(d, s)   __pmc_cpuset_op((d), (d), (s), 2)
#define CPU_COUNT(p)     __pmc_cpuset_count(p)
#define CPU_EMPTY(p)     (__pmc_cpuset_count(p) == 0)
#define CPU_EQUAL(a, b)  (memcmp((a), (b), sizeof(cpuset_t)) == 0)
#define CPU_FFS(p)       __pmc_cpuset_ffs(p)
#define CPU_COPY(s, d)   (*(d) = *(s))

/*
 * cpuset_getaffinity(2)/cpuset_setaffinity(2) (libpmc-freebsd): the CPU
 * sets Linux has.  CPU_LEVEL_ROOT is the CPUs online, CPU_LEVEL_CPUSET and
 * CPU_LEVEL_WHICH a thread's or process's sched_getaffinity(2) mask
 * (CPU_WHICH_TID, CPU_WHICH_PID; id -1 is the caller), CPU_WHICH_DOMAIN
 * the CPUs of NUMA node id (/sys/devices/system/node/nodeN/cpulist).
 * Other kinds are EINVAL.  See docs/freebsd-compat.md.
 */
#include <sys/types.h>

typedef int cpulevel_t;
typedef int cpuwhich_t;
typedef int cpusetid_t;

#define CPU_LEVEL_ROOT   1
#define CPU_LEVEL_CPUSET 2
#define CPU_LEVEL_WHICH  3

#define CPU_WHICH_TID     1
#define CPU_WHICH_PID     2
#define CPU_WHICH_CPUSET  3
#define CPU_WHICH_IRQ     4
#define CPU_WHICH_JAIL    5
#define CPU_WHICH_DOMAIN  6
#define CPU_WHICH_INTRHANDLER 7
#define CPU_WHICH_ITHREAD 8
#define CPU_WHICH_TIDPID  9

#ifdef __cplusplus
extern "C" {
#endif
int cpuset_getaffinity(cpulevel_t level, cpuwhich_t which, id_t id,
    size_t setsize, cpuset_t *mask);
int cpuset_setaffinity(cpulevel_t level, cpuwhich_t which, id_t id,
    size_t setsize, const cpuset_t *mask);
#ifdef __cplusplus
}
#endif

#endif
