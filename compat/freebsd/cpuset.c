/*
 * cpuset_getaffinity(2)/cpuset_setaffinity(2) for FreeBSD programs built
 * with libpmc-freebsd, over sched_getaffinity(2) and the CPU lists of
 * /sys/devices/system (online CPUs, NUMA nodes).  The levels and kinds kept
 * are listed in include/freebsd/sys/cpuset.h.
 */
#include <sys/cpuset.h>

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"

int fbsd__cpulist(const char *s, cpuset_t *set)
{
	CPU_ZERO(set);
	while (*s != '\0' && *s != '\n') {
		char *end;
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		unsigned long a = strtoul(s, &end, 10), b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -EINVAL;
			b = strtoul(end + 1, &end, 10);
		}
		if (b < a || b >= CPU_MAXSIZE)
			return -EINVAL;
		for (unsigned long c = a; c <= b; c++)
			CPU_SET(c, set);
		s = end;
		if (*s == ',')
			s++;
	}
	return 0;
}

int fbsd__cpulist_file(const char *path, cpuset_t *set)
{
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return -errno;
	char buf[4096];
	int rc = fgets(buf, sizeof(buf), f) != NULL ? fbsd__cpulist(buf, set) : -EIO;
	fclose(f);
	return rc;
}

/* The process's or thread's affinity as a cpuset_t. */
static int affinity_get(id_t id, cpuset_t *set)
{
	cpu_set_t *cs = CPU_ALLOC(CPU_MAXSIZE);
	size_t sz = CPU_ALLOC_SIZE(CPU_MAXSIZE);
	if (cs == NULL)
		return -ENOMEM;
	if (sched_getaffinity(id == (id_t)-1 ? 0 : (pid_t)id, sz, cs) < 0) {
		int e = errno;
		CPU_FREE(cs);
		return -e;
	}
	CPU_ZERO(set);
	for (int c = 0; c < CPU_MAXSIZE; c++)
		if (CPU_ISSET_S(c, sz, cs))
			CPU_SET(c, set);
	CPU_FREE(cs);
	return 0;
}

static int copy_out(const cpuset_t *set, size_t setsize, cpuset_t *mask)
{
	/* FreeBSD: ERANGE when the caller's set cannot hold every CPU of it. */
	size_t bits = setsize * 8;
	for (size_t c = bits; c < CPU_MAXSIZE; c++)
		if (CPU_ISSET(c, set)) {
			errno = ERANGE;
			return -1;
		}
	memcpy(mask, set, setsize < sizeof(*set) ? setsize : sizeof(*set));
	if (setsize > sizeof(*set))
		memset((char *)mask + sizeof(*set), 0, setsize - sizeof(*set));
	return 0;
}

int cpuset_getaffinity(cpulevel_t level, cpuwhich_t which, id_t id,
		       size_t setsize, cpuset_t *mask)
{
	cpuset_t set;
	int rc;
	if (mask == NULL || setsize == 0) {
		errno = EINVAL;
		return -1;
	}
	if (level == CPU_LEVEL_ROOT)
		rc = fbsd__cpulist_file("/sys/devices/system/cpu/online", &set);
	else if (level != CPU_LEVEL_CPUSET && level != CPU_LEVEL_WHICH)
		rc = -EINVAL;
	else if (which == CPU_WHICH_PID || which == CPU_WHICH_TID || which == CPU_WHICH_TIDPID)
		rc = affinity_get(id, &set);
	else if (which == CPU_WHICH_DOMAIN) {
		char path[96];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%ld/cpulist", (long)id);
		rc = fbsd__cpulist_file(path, &set);
		/* A kernel without NUMA has no node directory: one domain, 0. */
		if (rc == -ENOENT && id == 0)
			rc = fbsd__cpulist_file("/sys/devices/system/cpu/online", &set);
		else if (rc == -ENOENT)
			rc = -ESRCH;
	} else
		rc = -EINVAL;
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	return copy_out(&set, setsize, mask);
}

int cpuset_setaffinity(cpulevel_t level, cpuwhich_t which, id_t id,
		       size_t setsize, const cpuset_t *mask)
{
	if ((level != CPU_LEVEL_WHICH && level != CPU_LEVEL_CPUSET) ||
	    (which != CPU_WHICH_PID && which != CPU_WHICH_TID && which != CPU_WHICH_TIDPID) ||
	    mask == NULL) {
		errno = EINVAL;
		return -1;
	}
	cpu_set_t *cs = CPU_ALLOC(CPU_MAXSIZE);
	size_t sz = CPU_ALLOC_SIZE(CPU_MAXSIZE);
	if (cs == NULL) {
		errno = ENOMEM;
		return -1;
	}
	CPU_ZERO_S(sz, cs);
	size_t bits = setsize * 8 < CPU_MAXSIZE ? setsize * 8 : CPU_MAXSIZE;
	for (size_t c = 0; c < bits; c++)
		if (CPU_ISSET(c, mask))
			CPU_SET_S(c, sz, cs);
	int rc = sched_setaffinity(id == (id_t)-1 ? 0 : (pid_t)id, sz, cs);
	CPU_FREE(cs);
	return rc;
}
