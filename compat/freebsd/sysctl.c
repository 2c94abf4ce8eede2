/*
 * sysctl(3) for FreeBSD programs built with libpmc-freebsd: the names
 * FreeBSD's pmc tools read beyond libpmc's own (pmc_sysctlbyname answers
 * kern.hwpmc.*, hw.ncpu, machdep.*), by name and by MIB.  The list is in
 * include/freebsd/sys/sysctl.h; values in docs/freebsd-compat.md.
 */
#include <sys/sysctl.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compat.h"

/* FreeBSD's default clock rates, the ones libpmc converts SOFT clock
 * counts to (docs/freebsd-compat.md, point 4). */
#define FBSD_HZ 1000
#define FBSD_STATHZ 127
#define FBSD_PROFHZ 8128

int fbsd__sysctl_answer(const void *val, size_t len, void *oldp, size_t *oldlenp,
			const void *newp, size_t newlen)
{
	if (newp != NULL || newlen != 0) {
		errno = EPERM;
		return -1;
	}
	if (oldlenp == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (oldp == NULL) {
		*oldlenp = len;
		return 0;
	}
	if (*oldlenp < len) {
		memcpy(oldp, val, *oldlenp);
		errno = ENOMEM;
		return -1;
	}
	memcpy(oldp, val, len);
	*oldlenp = len;
	return 0;
}

static int ndomains(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	int n = 0;
	struct dirent *de;
	if (d == NULL)
		return 1;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, "node", 4) == 0 && de->d_name[4] >= '0' && de->d_name[4] <= '9')
			n++;
	closedir(d);
	return n > 0 ? n : 1;
}

/* FreeBSD lets unprivileged users allocate system-mode PMCs when this is 1;
 * Linux lets them count CPU-wide events when perf_event_paranoid <= 0. */
static int unprivileged_syspmcs(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;
	if (f != NULL) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v <= 0;
}

static const struct clockinfo clockrate = {
	.hz = FBSD_HZ, .tick = 1000000 / FBSD_HZ, .spare = 0,
	.stathz = FBSD_STATHZ, .profhz = FBSD_PROFHZ,
};

int pmc_fbsd_sysctlbyname(const char *name, void *oldp, size_t *oldlenp,
			  const void *newp, size_t newlen)
{
	int v;
	if (name == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (strcmp(name, "vm.ndomains") == 0)
		v = ndomains();
	else if (strcmp(name, "security.bsd.unprivileged_syspmcs") == 0)
		v = unprivileged_syspmcs();
	else if (strcmp(name, "kern.hz") == 0)
		v = FBSD_HZ;
	else if (strcmp(name, "hw.pagesize") == 0)
		v = (int)sysconf(_SC_PAGESIZE);
	else if (strcmp(name, "kern.clockrate") == 0)
		return fbsd__sysctl_answer(&clockrate, sizeof(clockrate), oldp, oldlenp, newp, newlen);
	else
		return pmc_sysctlbyname(name, oldp, oldlenp, newp, newlen);
	return fbsd__sysctl_answer(&v, sizeof(v), oldp, oldlenp, newp, newlen);
}

/* MIBs of names FreeBSD numbers with OID_AUTO: a private top level. */
#define MIB_BYNAME 0x7fff
static const char *const byname[] = {
	"vm.ndomains", "security.bsd.unprivileged_syspmcs", "kern.hwpmc.cpuid",
	"kern.hwpmc.callchaindepth", "kern.hwpmc.logbuffersize", "kern.hwpmc.nbuffers_pcpu",
	"kern.hwpmc.nsamples", "kern.hwpmc.mincount", "machdep.hlt_cpus",
	"machdep.logical_cpus_mask",
};

int sysctlnametomib(const char *name, int *mibp, size_t *sizep)
{
	int mib[2];
	if (name == NULL || mibp == NULL || sizep == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (strcmp(name, "kern.clockrate") == 0) {
		mib[0] = CTL_KERN; mib[1] = KERN_CLOCKRATE;
	} else if (strcmp(name, "kern.hz") == 0) {
		mib[0] = CTL_KERN; mib[1] = KERN_HZ;
	} else if (strcmp(name, "hw.ncpu") == 0) {
		mib[0] = CTL_HW; mib[1] = HW_NCPU;
	} else if (strcmp(name, "hw.pagesize") == 0) {
		mib[0] = CTL_HW; mib[1] = HW_PAGESIZE;
	} else {
		size_t i;
		for (i = 0; i < sizeof(byname) / sizeof(byname[0]); i++)
			if (strcmp(name, byname[i]) == 0)
				break;
		if (i == sizeof(byname) / sizeof(byname[0])) {
			errno = ENOENT;
			return -1;
		}
		mib[0] = MIB_BYNAME; mib[1] = (int)i;
	}
	if (*sizep < 2) {
		errno = ENOMEM;
		return -1;
	}
	mibp[0] = mib[0];
	mibp[1] = mib[1];
	*sizep = 2;
	return 0;
}

int sysctl(const int *name, unsigned int namelen, void *oldp, size_t *oldlenp,
	   const void *newp, size_t newlen)
{
	if (name == NULL || namelen < 2 || namelen > CTL_MAXNAME) {
		errno = EINVAL;
		return -1;
	}
	if (name[0] == CTL_KERN && name[1] == KERN_CLOCKRATE && namelen == 2)
		return pmc_fbsd_sysctlbyname("kern.clockrate", oldp, oldlenp, newp, newlen);
	if (name[0] == CTL_KERN && name[1] == KERN_HZ && namelen == 2)
		return pmc_fbsd_sysctlbyname("kern.hz", oldp, oldlenp, newp, newlen);
	if (name[0] == CTL_HW && name[1] == HW_NCPU && namelen == 2)
		return pmc_fbsd_sysctlbyname("hw.ncpu", oldp, oldlenp, newp, newlen);
	if (name[0] == CTL_HW && name[1] == HW_PAGESIZE && namelen == 2)
		return pmc_fbsd_sysctlbyname("hw.pagesize", oldp, oldlenp, newp, newlen);
	if (name[0] == CTL_KERN && name[1] == KERN_PROC && namelen >= 3) {
		struct kinfo_proc *v;
		int n;
		int rc = fbsd__procs(name[2], namelen > 3 ? name[3] : 0, &v, &n);
		if (rc < 0) {
			errno = -rc;
			return -1;
		}
		rc = fbsd__sysctl_answer(v, (size_t)n * sizeof(*v), oldp, oldlenp, newp, newlen);
		free(v);
		return rc;
	}
	if (name[0] == MIB_BYNAME && namelen == 2 && name[1] >= 0 &&
	    (size_t)name[1] < sizeof(byname) / sizeof(byname[0]))
		return pmc_fbsd_sysctlbyname(byname[name[1]], oldp, oldlenp, newp, newlen);
	errno = ENOENT;
	return -1;
}
