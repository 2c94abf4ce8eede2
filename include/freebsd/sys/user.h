/*
 * <sys/user.h> of the libpmc-freebsd include set: the C library's (the
 * debugger's register layout), plus FreeBSD's struct kinfo_proc, which
 * kvm_getprocs(3) (<kvm.h>) fills from /proc.  Only the fields a process
 * list needs are there: see docs/freebsd-compat.md.
 */
#include_next <sys/user.h>

#ifndef _PMC_FREEBSD_SYS_USER_H_
#define _PMC_FREEBSD_SYS_USER_H_

#include <stdint.h>
#include <sys/resource.h>	/* FreeBSD's <sys/user.h> brings struct rusage */
#include <sys/time.h>
#include <sys/types.h>

/* <sys/proc.h>'s process flags that FreeBSD tools test in a PROC_CREATE or
 * THR_CREATE record's pl_flags: Linux logs have none of them set. */
#ifndef P_KPROC
#define P_KPROC 0x00004		/* a kernel process */
#endif
#ifndef P_SUGID
#define P_SUGID 0x00100		/* had set-id privileges since the last exec */
#endif

/* FreeBSD's C++ library (libc++) brings <algorithm> with its containers,
 * and FreeBSD's C++ tools (usr.sbin/pmc) call std::sort having included
 * only <vector> and <unordered_map>; libstdc++ does not, so this header
 * (which every such tool includes) does. */
#ifdef __cplusplus
#include <algorithm>
#endif

#ifndef COMMLEN
#define COMMLEN 19
#endif
#ifndef WMESGLEN
#define WMESGLEN 8
#endif
#ifndef TDNAMLEN
#define TDNAMLEN 16
#endif
#ifndef KI_NSPARE_INT
#define KI_NSPARE_INT 2
#endif

struct kinfo_proc {
	int	ki_structsize;		/* size of this structure */
	pid_t	ki_pid;			/* process identifier */
	pid_t	ki_ppid;		/* parent process id */
	pid_t	ki_pgid;		/* process group id */
	pid_t	ki_tpgid;		/* tty process group id */
	pid_t	ki_sid;			/* process session id */
	pid_t	ki_tid;			/* thread id (the main thread's) */
	uid_t	ki_uid;			/* effective user id */
	uid_t	ki_ruid;		/* real user id */
	gid_t	ki_rgid;		/* real group id */
	int	ki_numthreads;		/* threads in the process */
	char	ki_stat;		/* state: R S D Z T... as /proc says */
	int	ki_nice;		/* process "nice" value */
	uint64_t ki_size;		/* virtual size, bytes */
	uint64_t ki_rssize;		/* resident set size, pages */
	uint64_t ki_runtime;		/* CPU time, microseconds */
	struct timeval ki_start;	/* time the process started */
	char	ki_comm[COMMLEN + 1];	/* command name */
	char	ki_tdname[TDNAMLEN + 1];/* thread name */
	int	ki_spareints[KI_NSPARE_INT];
};
#define KINFO_PROC_SIZE ((int)sizeof(struct kinfo_proc))

#endif
