/*
 * Internal helpers of libpmc-freebsd (the compatibility library FreeBSD
 * programs link through libpmc-freebsd.pc): shared by its files, exported
 * by none of its headers.
 */
#ifndef PMC_FREEBSD_COMPAT_H
#define PMC_FREEBSD_COMPAT_H

#include <stddef.h>
#include <sys/cpuset.h>
#include <sys/user.h>

/* Parses a Linux CPU list ("0-3,8,10-11") into *set; -EINVAL if malformed. */
int fbsd__cpulist(const char *list, cpuset_t *set);
/* Reads the CPU list in file path into *set; -errno on failure. */
int fbsd__cpulist_file(const char *path, cpuset_t *set);
/* sysctl's answer protocol: the size if oldp is NULL, ENOMEM if *oldlenp is
 * short, EPERM for a write; returns 0 or -1 with errno. */
int fbsd__sysctl_answer(const void *val, size_t len, void *oldp, size_t *oldlenp,
			const void *newp, size_t newlen);
/* The process list kvm_getprocs(3) and sysctl KERN_PROC answer: a malloc'ed
 * array in *out (count in *n); -errno on failure. */
int fbsd__procs(int op, int arg, struct kinfo_proc **out, int *n);

#endif
