/*
 * rows.c — PMCADMIN state: which (CPU, row) counters an administrator took
 * out of service with pmc_disable(3).  A disabled row shows as DISABLED /
 * STANDALONE in pmc_pmcinfo(3), as in hwpmc.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/internal.h"

static unsigned char *disabled;   /* ncpu * npmc bytes, allocated lazily */

int pmc__row_disabled(int cpu, int row)
{
	if (!disabled)
		return 0;
	return disabled[(size_t)cpu * pmc__g.ci.pm_npmc + (size_t)row];
}

int pmc__row_set_disabled(int cpu, int row, int d)
{
	if (!disabled) {
		disabled = calloc((size_t)pmc__g.ci.pm_ncpu * pmc__g.ci.pm_npmc + 1, 1);
		if (!disabled)
			return -ENOMEM;
	}
	disabled[(size_t)cpu * pmc__g.ci.pm_npmc + (size_t)row] = (unsigned char)d;
	return 0;
}

void pmc__rows_fini(void)
{
	free(disabled);
	disabled = NULL;
}
