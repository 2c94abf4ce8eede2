/*
 * kvm(3)'s process list for FreeBSD programs built with libpmc-freebsd:
 * kvm_getprocs fills FreeBSD's struct kinfo_proc from /proc/PID/stat and
 * /proc/PID/status.  There is no kernel image to read (kvm_read, kvm_nlist
 * are absent); see include/freebsd/kvm.h.
 */
#include <kvm.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compat.h"

struct __kvm {
	struct kinfo_proc *procs;
	char err[_POSIX2_LINE_MAX];
};

static uint64_t boot_time(void)
{
	FILE *f = fopen("/proc/stat", "re");
	char line[256];
	uint64_t bt = 0;
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "btime %lu", &bt) == 1)
			break;
	fclose(f);
	return bt;
}

static int read_proc(pid_t pid, struct kinfo_proc *kp, uint64_t btime, long hz, long page)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return -errno;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *lp = strchr(buf, '('), *rp = strrchr(buf, ')');
	if (lp == NULL || rp == NULL || rp < lp)
		return -EINVAL;
	memset(kp, 0, sizeof(*kp));
	kp->ki_structsize = (int)sizeof(*kp);
	kp->ki_pid = pid;
	kp->ki_tid = pid;
	size_t cl = (size_t)(rp - lp - 1);
	if (cl > COMMLEN)
		cl = COMMLEN;
	memcpy(kp->ki_comm, lp + 1, cl);
	memcpy(kp->ki_tdname, lp + 1, cl < TDNAMLEN ? cl : TDNAMLEN);
	char st = 0;
	int ppid = 0, pgrp = 0, sess = 0, ttynr = 0, tpgid = 0;
	unsigned long utime = 0, stime = 0, vsize = 0;
	long nice = 0, nthr = 0, rss = 0;
	unsigned long long start = 0;
	if (sscanf(rp + 2, "%c %d %d %d %d %d %*u %*u %*u %*u %*u %lu %lu %*d %*d %*d %ld %ld %*d %llu %lu %ld",
		   &st, &ppid, &pgrp, &sess, &ttynr, &tpgid, &utime, &stime, &nice, &nthr,
		   &start, &vsize, &rss) < 13)
		return -EINVAL;
	kp->ki_stat = st;
	kp->ki_ppid = ppid;
	kp->ki_pgid = pgrp;
	kp->ki_sid = sess;
	kp->ki_tpgid = tpgid;
	kp->ki_nice = (int)nice;
	kp->ki_numthreads = (int)nthr;
	kp->ki_size = vsize;
	kp->ki_rssize = (uint64_t)rss;
	(void)page;
	kp->ki_runtime = (uint64_t)(utime + stime) * 1000000ULL / (uint64_t)hz;
	kp->ki_start.tv_sec = (time_t)(btime + start / (unsigned long long)hz);
	kp->ki_start.tv_usec = (suseconds_t)((start % (unsigned long long)hz) * 1000000ULL /
					     (unsigned long long)hz);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "re")) != NULL) {
		unsigned ruid, euid, rgid;
		while (fgets(buf, sizeof(buf), f) != NULL) {
			if (sscanf(buf, "Uid: %u %u", &ruid, &euid) == 2) {
				kp->ki_ruid = ruid;
				kp->ki_uid = euid;
			} else if (sscanf(buf, "Gid: %u", &rgid) == 1)
				kp->ki_rgid = rgid;
		}
		fclose(f);
	}
	return 0;
}

static int wanted(const struct kinfo_proc *kp, int op, int arg)
{
	switch (op & ~KERN_PROC_INC_THREAD) {
	case KERN_PROC_ALL:
	case KERN_PROC_PROC: return 1;
	case KERN_PROC_PID: return kp->ki_pid == arg;
	case KERN_PROC_PGRP: return kp->ki_pgid == arg;
	case KERN_PROC_SESSION: return kp->ki_sid == arg;
	case KERN_PROC_UID: return (int)kp->ki_uid == arg;
	case KERN_PROC_RUID: return (int)kp->ki_ruid == arg;
	default: return 0;
	}
}

int fbsd__procs(int op, int arg, struct kinfo_proc **out, int *count)
{
	switch (op & ~KERN_PROC_INC_THREAD) {
	case KERN_PROC_ALL: case KERN_PROC_PROC: case KERN_PROC_PID: case KERN_PROC_PGRP:
	case KERN_PROC_SESSION: case KERN_PROC_UID: case KERN_PROC_RUID:
		break;
	default:
		return -EINVAL;
	}
	DIR *d = opendir("/proc");
	if (d == NULL)
		return -errno;
	uint64_t bt = boot_time();
	long hz = sysconf(_SC_CLK_TCK), page = sysconf(_SC_PAGESIZE);
	if (hz <= 0)
		hz = 100;
	struct kinfo_proc *v = NULL;
	int n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		struct kinfo_proc kp;
		if (read_proc((pid_t)atoi(de->d_name), &kp, bt, hz, page) < 0 || !wanted(&kp, op, arg))
			continue;       /* exited while we looked: not in the list */
		if (n == cap) {
			/* not GROW: compat/ sees the public headers only (include/freebsd) */
			int nc = cap ? cap * 2 : 64;
			struct kinfo_proc *nv = realloc(v, (size_t)nc * sizeof(*nv));
			if (nv == NULL) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
			cap = nc;
		}
		v[n++] = kp;
	}
	closedir(d);
	*out = v;
	*count = n;
	return 0;
}

kvm_t *kvm_openfiles(const char *execfile, const char *corefile,
		     const char *swapfile, int flags, char *errbuf)
{
	(void)execfile; (void)corefile; (void)swapfile; (void)flags;
	kvm_t *kd = calloc(1, sizeof(*kd));
	if (kd == NULL && errbuf != NULL)
		snprintf(errbuf, _POSIX2_LINE_MAX, "%s", strerror(ENOMEM));
	return kd;
}

kvm_t *kvm_open(const char *execfile, const char *corefile,
		const char *swapfile, int flags, const char *errstr)
{
	kvm_t *kd = kvm_openfiles(execfile, corefile, swapfile, flags, NULL);
	if (kd == NULL && errstr != NULL)
		fprintf(stderr, "%s: %s\n", errstr, strerror(ENOMEM));
	return kd;
}

struct kinfo_proc *kvm_getprocs(kvm_t *kd, int op, int arg, int *cnt)
{
	struct kinfo_proc *v;
	int n;
	int rc = fbsd__procs(op, arg, &v, &n);
	if (rc < 0) {
		snprintf(kd->err, sizeof(kd->err), "kvm_getprocs: %s", strerror(-rc));
		errno = -rc;
		return NULL;
	}
	free(kd->procs);
	kd->procs = v;
	*cnt = n;
	/* An empty list is a list: a non-NULL pointer, as FreeBSD's. */
	if (v == NULL && (kd->procs = malloc(sizeof(*v))) == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	return kd->procs;
}

char *kvm_geterr(kvm_t *kd)
{
	return kd != NULL ? kd->err : (char *)"";
}

int kvm_close(kvm_t *kd)
{
	if (kd == NULL) {
		errno = EINVAL;
		return -1;
	}
	free(kd->procs);
	free(kd);
	return 0;
}
