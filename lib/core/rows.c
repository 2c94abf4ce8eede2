/*
 * rows.c — PMC rows: hwpmc's row disposition (FREE / THREAD / STANDALONE),
 * the choice of a new PMC's row (and so its id), and PMCADMIN state — which
 * (CPU, row) counters an administrator took out of service with
 * pmc_disable(3).
 */
#include <errno.h>
#include <stdlib.h>

#include <stdio.h>
#include <unistd.h>

#include "core/internal.h"
#include "core/error.h"

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

/* ---- PMC rows (hwpmc's row disposition) -------------------------------- */

/* Index of class c in the machine's class table, or -1. */
int pmc__class_index(enum pmc_class c)
{
	for (uint32_t i = 0; i < pmc__g.m.nclass; i++)
		if (pmc__g.m.classes[i].pm_class == c)
			return (int)i;
	return -1;
}

/* pmc_pmcinfo's row number of (class, hardware row r). */
static int global_row(int ci, int r)
{
	int base = 0;
	for (int i = 0; i < ci; i++)
		base += (int)pmc__g.m.classes[i].pm_num;
	return base + r;
}

/* The hardware row a PMC occupies (ids past pm_num share rows: multiplexed). */
int pmc__hw_row(const struct pmc *pm, int num)
{
	return num > 0 ? (int)PMC_ID_TO_ROWINDEX(pm->id) % num : (int)PMC_ID_TO_ROWINDEX(pm->id);
}

/*
 * A row's use: PMC_DISP_THREAD if a process-mode PMC is on it,
 * PMC_DISP_STANDALONE if a system-mode PMC is on it on `cpu` (any CPU when
 * cpu < 0) or an administrator disabled it there, else PMC_DISP_FREE.
 */
enum pmc_disp pmc__row_use(int ci, int r, int cpu)
{
	enum pmc_class cls = pmc__g.m.classes[ci].pm_class;
	int num = (int)pmc__g.m.classes[ci].pm_num;

	for (int c = 0; c < pmc__g.m.ncpu; c++)
		if ((cpu < 0 || c == cpu) && pmc__row_disabled(c, global_row(ci, r)))
			return PMC_DISP_STANDALONE;
	for (struct pmc *pm = pmc__g.pmcs; pm; pm = pm->next) {
		if (pm->ev.pclass != cls || pmc__hw_row(pm, num) != r)
			continue;
		if (!PMC_IS_SYSTEM_MODE(pm->mode))
			return PMC_DISP_THREAD;
		if (cpu < 0 || pm->cpu == cpu)
			return PMC_DISP_STANDALONE;
	}
	return PMC_DISP_FREE;
}

static int id_in_use(pmc_id_t id)
{
	return pmc__find(id) != NULL;
}

/*
 * Choose the PMC's row, hwpmc's way, and so its id.  On classes with a
 * fixed set of counters (strict_rows: the sim's ARMv8 PMU) a row serves
 * either process-mode PMCs (THREAD) or system-mode PMCs (STANDALONE, one per
 * CPU), never both, and disabled rows serve neither.  Unlike hwpmc, more
 * process-mode PMCs than rows may exist: they share rows and the backend
 * multiplexes them, as Linux does.  Other classes are virtual: any row.
 */
int pmc__pick_row(struct pmc *pm, pmc_id_t *id)
{
	int ci = pmc__class_index(pm->ev.pclass);
	int strict = ci >= 0 && pmc__g.m.strict_rows[ci];
	int num = ci >= 0 ? (int)pmc__g.m.classes[ci].pm_num : 0;
	int cpu = PMC_IS_SYSTEM_MODE(pm->mode) ? pm->cpu : PMC_CPU_ANY;

	for (int r = 0; r < 256; r++) {
		pmc_id_t cand = PMC_ID_MAKE_ID(cpu, pm->mode, pm->ev.pclass, r);
		if (id_in_use(cand))
			continue;
		if (strict) {
			if (num == 0)
				break;
			int hr = r % num;
			if (PMC_IS_SYSTEM_MODE(pm->mode)) {
				if (r >= num)
					break;
				if (pmc__row_use(ci, hr, pm->cpu) != PMC_DISP_FREE)
					continue;
			} else if (pmc__row_use(ci, hr, -1) == PMC_DISP_STANDALONE) {
				continue;
			}
		}
		*id = cand;
		return 0;
	}
	if (strict)
		pmc__set_reason("no %s counter row is free for a %s-mode PMC%s (rows used by "
		    "the other scope or disabled)", pmc_name_of_class(pm->ev.pclass),
		    PMC_IS_SYSTEM_MODE(pm->mode) ? "system" : "process",
		    PMC_IS_SYSTEM_MODE(pm->mode) ? " on this CPU" : "");
	else
		pmc__set_reason("too many PMCs in class %s", pmc_name_of_class(pm->ev.pclass));
	return -EINVAL;
}

