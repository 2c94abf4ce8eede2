/*
 * rows.c — PMC rows: hwpmc's row disposition (FREE / THREAD / STANDALONE),
 * the choice of a new PMC's row (and so its id), and PMCADMIN state — which
 * (CPU, row) counters an administrator took out of service with
 * pmc_disable(3).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"
#include "common/error.h"

/*
 * PMCADMIN state is the machine's, as hwpmc's is the kernel's: a row that
 * `pmccontrol -d` disabled stays disabled for every process until enabled.
 * It lives in a file, $PMC_RUNDIR (default /run/pmc) /disabled-rows.BACKEND,
 * one "cpu row" pair a line, rewritten whole (under flock, by rename) on
 * each change and re-read whenever it changed.
 */
static unsigned char *disabled;   /* ncpu * npmc bytes */
static struct stat seen;          /* the file as last read (st_ino 0: none) */

static void rows_path(char *buf, size_t len)
{
	const char *dir = getenv("PMC_RUNDIR");
	snprintf(buf, len, "%s/disabled-rows.%s", dir && *dir ? dir : "/run/pmc",
	    pmc__g.be ? pmc__g.be->name : "none");
}

static size_t nrows(void)
{
	return (size_t)pmc__g.ci.pm_ncpu * pmc__g.ci.pm_npmc;
}

static int ensure_map(void)
{
	if (!disabled && (disabled = calloc(nrows() + 1, 1)) == NULL)
		return -ENOMEM;
	return 0;
}

/* Re-read the file if it changed since we last did. */
static void refresh(void)
{
	char path[512];
	struct stat st;
	FILE *f;
	int cpu, row;

	rows_path(path, sizeof(path));
	if (stat(path, &st) < 0) {
		if (seen.st_ino && disabled)
			memset(disabled, 0, nrows());
		memset(&seen, 0, sizeof(seen));
		return;
	}
	if (st.st_ino == seen.st_ino && st.st_mtim.tv_sec == seen.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == seen.st_mtim.tv_nsec && st.st_size == seen.st_size)
		return;
	if (ensure_map() < 0 || (f = fopen(path, "r")) == NULL)
		return;
	memset(disabled, 0, nrows());
	while (fscanf(f, "%d %d", &cpu, &row) == 2)
		if (cpu >= 0 && row >= 0 && cpu < (int)pmc__g.ci.pm_ncpu &&
		    row < (int)pmc__g.ci.pm_npmc)
			disabled[(size_t)cpu * pmc__g.ci.pm_npmc + (size_t)row] = 1;
	fclose(f);
	seen = st;
}

int pmc__row_disabled(int cpu, int row)
{
	refresh();
	if (!disabled)
		return 0;
	return disabled[(size_t)cpu * pmc__g.ci.pm_npmc + (size_t)row];
}

/* Write the whole state (the caller holds the lock file). */
static int save(const char *path)
{
	char tmp[600];
	FILE *f;
	int rc = 0;

	snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid());
	if ((f = fopen(tmp, "w")) == NULL)
		return -errno;
	for (size_t i = 0; i < nrows(); i++)
		if (disabled[i])
			fprintf(f, "%u %u\n", (unsigned)(i / pmc__g.ci.pm_npmc),
			    (unsigned)(i % pmc__g.ci.pm_npmc));
	if (fclose(f) != 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0)
		unlink(tmp);
	return rc;
}

int pmc__row_set_disabled(int cpu, int row, int d)
{
	char path[512], dir[512], lockp[600];
	int lfd, rc;

	rows_path(path, sizeof(path));
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		rc = -errno;
		pmc__set_reason("cannot create %s for the PMC row state: %s", dir, strerror(-rc));
		return rc;
	}
	snprintf(lockp, sizeof(lockp), "%s.lock", path);
	if ((lfd = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0) {
		rc = -errno;
		pmc__set_reason("cannot open %s: %s", lockp, strerror(-rc));
		return rc;
	}
	flock(lfd, LOCK_EX);
	memset(&seen, 0, sizeof(seen));      /* read what others wrote */
	refresh();
	if ((rc = ensure_map()) == 0) {
		disabled[(size_t)cpu * pmc__g.ci.pm_npmc + (size_t)row] = (unsigned char)d;
		if ((rc = save(path)) < 0)
			pmc__set_reason("cannot write %s: %s", path, strerror(-rc));
		memset(&seen, 0, sizeof(seen));
	}
	flock(lfd, LOCK_UN);
	close(lfd);
	return rc;
}

void pmc__rows_fini(void)
{
	free(disabled);
	disabled = NULL;
	memset(&seen, 0, sizeof(seen));
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
 * CPU), never both, and disabled rows serve neither.  On those and on
 * FreeBSD's SOFT class (hwpmc's 16 rows) an owner has hwpmc's limit
 * (pmc_can_allocate_row / pmc_can_allocate_rowindex): one process-mode PMC
 * per row, one system-mode PMC per row and CPU; past it PMCALLOCATE is
 * EINVAL.  With share (sessions, pmc_allocate_attr: Linux's rules) more
 * process-mode PMCs than rows may exist: they share rows and the backend
 * multiplexes them, as Linux does.  Other classes are virtual: any row.
 */
int pmc__pick_row(struct pmc *pm, pmc_id_t *id, int share)
{
	int ci = pmc__class_index(pm->ev.pclass);
	int strict = ci >= 0 && pmc__g.m.strict_rows[ci];
	int num = ci >= 0 ? (int)pmc__g.m.classes[ci].pm_num : 0;
	int limited = ci >= 0 && (strict || (pm->ev.pclass == PMC_CLASS_SOFT && !share));
	int cpu = PMC_IS_SYSTEM_MODE(pm->mode) ? pm->cpu : PMC_CPU_ANY;

	for (int r = 0; r < 256; r++) {
		pmc_id_t cand = PMC_ID_MAKE_ID(cpu, pm->mode, pm->ev.pclass, r);
		if (id_in_use(cand))
			continue;
		if (limited) {
			if (num == 0)
				break;
			int hr = r % num;
			if (PMC_IS_SYSTEM_MODE(pm->mode)) {
				if (r >= num)
					break;
				if (pmc__row_use(ci, hr, pm->cpu) != PMC_DISP_FREE)
					continue;
			} else if (!share) {
				/* hwpmc: a row without a system-mode PMC (or an
				 * administrator's disable) and without one of the
				 * owner's process-mode PMCs */
				if (r >= num)
					break;
				if (pmc__row_use(ci, hr, -1) != PMC_DISP_FREE)
					continue;
			} else if (pmc__row_use(ci, hr, -1) == PMC_DISP_STANDALONE) {
				continue;
			}
		}
		*id = cand;
		return 0;
	}
	if (limited)
		pmc__set_reason("no %s counter row is free for a %s-mode PMC%s (each row "
		    "holds one of this process's process-mode PMCs, or its system-mode "
		    "PMCs, one per CPU; rows used by the other scope or disabled serve "
		    "neither)", pmc_name_of_class(pm->ev.pclass),
		    PMC_IS_SYSTEM_MODE(pm->mode) ? "system" : "process",
		    PMC_IS_SYSTEM_MODE(pm->mode) ? " on this CPU" : "");
	else
		pmc__set_reason("too many PMCs in class %s", pmc_name_of_class(pm->ev.pclass));
	return -EINVAL;
}
