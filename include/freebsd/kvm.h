/*
 * <kvm.h> of the libpmc-freebsd include set: FreeBSD's kvm(3) process list
 * (kvm_open/kvm_openfiles/kvm_getprocs/kvm_geterr/kvm_close), implemented
 * by libpmc-freebsd from /proc.  There is no kernel memory image to open:
 * the execfile/corefile/swapfile arguments are ignored (FreeBSD's tools
 * pass NULL or "/dev/null"), and kvm_read/kvm_nlist are not provided.
 * kvm_getprocs answers KERN_PROC_ALL, KERN_PROC_PROC (one entry per
 * process), KERN_PROC_PID, KERN_PROC_UID, KERN_PROC_RUID, KERN_PROC_PGRP
 * and KERN_PROC_SESSION; the array is the handle's until the next call or
 * kvm_close.  See docs/freebsd-compat.md.
 */
#ifndef _PMC_FREEBSD_KVM_H_
#define _PMC_FREEBSD_KVM_H_

#include <sys/types.h>
#include <sys/user.h>
#include <limits.h>
#include <sys/sysctl.h>

typedef struct __kvm kvm_t;

#ifdef __cplusplus
extern "C" {
#endif
kvm_t *kvm_open(const char *execfile, const char *corefile,
    const char *swapfile, int flags, const char *errstr);
kvm_t *kvm_openfiles(const char *execfile, const char *corefile,
    const char *swapfile, int flags, char *errbuf);
struct kinfo_proc *kvm_getprocs(kvm_t *kd, int op, int arg, int *cnt);
char *kvm_geterr(kvm_t *kd);
int kvm_close(kvm_t *kd);
#ifdef __cplusplus
}
#endif

#endif
