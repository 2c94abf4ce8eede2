/*
 * tunables.c — hwpmc's tunables read as FreeBSD's programs read them, with
 * sysctlbyname(3) (libpmc's pmc_sysctlbyname), for `pmc control` (the
 * list) and record's settings.  The names are the kern.hwpmc ones
 * pmc_sysctlbyname documents (include/pmc/linux.h); libpmc's settings
 * (lib/core/settings.c) are where their values come from.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pmc.h"
#include "common/error.h"
#include "toolslib/tunables.h"

static const char *const names[] = {
	"callchaindepth", "logbuffersize", "nbuffers_pcpu", "nsamples", "mincount",
};

const char *tunable__name(int i)
{
	return i >= 0 && i < (int)(sizeof(names) / sizeof(names[0])) ? names[i] : NULL;
}

int tunable__get(const char *name, long *value)
{
	char full[128];
	int v;
	size_t len = sizeof(v);

	if (!name)
		return pmc__err(-ENOENT, "unknown setting ''");
	snprintf(full, sizeof(full), "%s%s", strncmp(name, "kern.hwpmc.", 11) ? "kern.hwpmc." : "",
	    name);
	if (!strcmp(full, "kern.hwpmc.cpuid"))        /* a string, not a tunable */
		return pmc__err(-ENOENT, "unknown setting '%s'", name);
	if (pmc_sysctlbyname(full, &v, &len, NULL, 0) < 0)
		return pmc__err(-errno, "unknown setting '%s'", name);
	*value = v;
	return 0;
}
