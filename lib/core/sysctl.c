/*
 * sysctl.c — pmc_sysctlbyname: FreeBSD's sysctlbyname(3) for the names pmc
 * tools read, answered from what Linux says about the machine.  The
 * compatibility header <sys/sysctl.h> (include/freebsd/, pkg-config
 * libpmc-freebsd) maps sysctlbyname to it; glibc has no sysctl at all.
 *
 *   kern.hwpmc.callchaindepth, .logbuffersize, .nbuffers_pcpu, .nsamples,
 *   .mincount (int)      libpmc's settings (core/settings.h)
 *   kern.hwpmc.cpuid     (string) pmc_cpuid, the pmu-events key
 *   hw.ncpu (int)        CPUs online
 *   machdep.hlt_cpus     (cpuset_t bytes) the CPUs that are not online
 *   machdep.logical_cpus_mask (unsigned int) hyperthreads that are not the
 *                        first thread of their core (CPUs 0-31)
 *
 * The names are read-only (EPERM for a new value); others are ENOENT.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "common/error.h"
#include "common/sysinfo.h"
#include "core/settings.h"

/* FreeBSD's cpuset_t as <sys/cpuset.h> declares it: 1024 bits. */
#define SYSCTL_CPUSET_BYTES (1024 / 8)

static int reply(const void *val, size_t len, void *oldp, size_t *oldlenp)
{
	if (!oldlenp)
		return 0;
	if (!oldp) {
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

/* The first CPU of "a-b,c" (a sibling list). */
static int first_sibling(int cpu)
{
	char path[128], buf[64];
	FILE *f;
	int first = cpu;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	if ((f = fopen(path, "r")) == NULL)
		return cpu;
	if (fgets(buf, sizeof(buf), f))
		first = atoi(buf);
	fclose(f);
	return first;
}

int pmc_sysctlbyname(const char *name, void *oldp, size_t *oldlenp, const void *newp,
    size_t newlen)
{
	long v;
	int ncpu = pmc__sys_ncpu();

	pmc__clear_reason();
	if (!name) {
		errno = EINVAL;
		return -1;
	}
	if (newp || newlen) {
		errno = EPERM;
		return -1;
	}
	if (!strncmp(name, "kern.hwpmc.", 11) && strcmp(name, "kern.hwpmc.cpuid") &&
	    pmc__setting_get(name, &v) == 0) {
		int iv = (int)v;
		return reply(&iv, sizeof(iv), oldp, oldlenp);
	}
	if (!strcmp(name, "kern.hwpmc.cpuid")) {
		char id[PMC_CPUID_LEN];
		pmc__sys_cpuid(id, sizeof(id));
		return reply(id, strlen(id) + 1, oldp, oldlenp);
	}
	if (!strcmp(name, "hw.ncpu")) {
		int n = 0;
		for (int c = 0; c < ncpu; c++)
			n += pmc__sys_cpu_online(c) == 1;
		return reply(&n, sizeof(n), oldp, oldlenp);
	}
	if (!strcmp(name, "machdep.hlt_cpus")) {
		unsigned char set[SYSCTL_CPUSET_BYTES];
		memset(set, 0, sizeof(set));
		for (int c = 0; c < ncpu && c < SYSCTL_CPUSET_BYTES * 8; c++)
			if (pmc__sys_cpu_online(c) != 1)
				set[c / 8] |= (unsigned char)(1u << (c % 8));
		return reply(set, sizeof(set), oldp, oldlenp);
	}
	if (!strcmp(name, "machdep.logical_cpus_mask")) {
		unsigned int mask = 0;
		for (int c = 0; c < ncpu && c < 32; c++)
			if (pmc__sys_cpu_online(c) == 1 && first_sibling(c) != c)
				mask |= 1u << c;
		return reply(&mask, sizeof(mask), oldp, oldlenp);
	}
	errno = ENOENT;
	return -1;
}
