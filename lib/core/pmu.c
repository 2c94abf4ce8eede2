/*
 * pmu.c — FreeBSD's pmc_pmu_*(3): the CPU's own event table ("pmu-events")
 * that pmcstat -L lists, pmcstat -P/-S takes its default sample count from
 * and pmc_allocate tries first.  FreeBSD compiles JSON tables into libpmc
 * and picks one by kern.hwpmc.cpuid; on Linux the machine describes itself:
 * the core PMU's named events in sysfs and libpfm4's tables of the core PMU
 * (lib/event's cpu table walk).  Without a hardware PMU the table is empty
 * and pmc_pmu_enabled() is 0, as on a FreeBSD CPU without tables.
 *
 * The table is read once and kept (names returned by
 * pmc_pmu_event_get_by_idx stay valid) until pmc_fini().
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "common/grow.h"
#include "common/sysinfo.h"
#include "event/event.h"

/* FreeBSD's DEFAULT_SAMPLE_COUNT: the sample count of an event without
 * its own period. */
#define PMU_DEFAULT_SAMPLE_COUNT 65536

struct pmu_ent {
	char *name;                     /* as the table names it: "cpu/cycles/", "amd64_fam17h::RETIRED_UOPS" */
	char *desc;
	char *unit;
};

static pthread_mutex_t tab_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pmu_ent *tab;
static int ntab, cap_tab, tab_read;

static int add_ent(const struct pmc_evinfo *e, void *arg)
{
	struct pmu_ent *n;

	(void)arg;
	if (GROW(tab, ntab, cap_tab) < 0)
		return -ENOMEM;
	n = &tab[ntab];
	n->name = strdup(e->name);
	n->desc = strdup(e->desc ? e->desc : "");
	n->unit = strdup(e->unit ? e->unit : "");
	if (!n->name || !n->desc || !n->unit) {
		free(n->name);
		free(n->desc);
		free(n->unit);
		return -ENOMEM;
	}
	ntab++;
	return 0;
}

/* Under tab_lock. */
static void table_read(void)
{
	if (tab_read)
		return;
	tab_read = 1;
	pmc__event_cpu_table_foreach(add_ent, NULL);
}

void pmc__pmu_table_reset(void)
{
	pthread_mutex_lock(&tab_lock);
	for (int i = 0; i < ntab; i++) {
		free(tab[i].name);
		free(tab[i].desc);
		free(tab[i].unit);
	}
	free(tab);
	tab = NULL;
	ntab = cap_tab = tab_read = 0;
	pthread_mutex_unlock(&tab_lock);
}

/*
 * Does the table's name match what a FreeBSD user types?  The full name
 * ("cpu/cycles/", "pmu::EVENT"), or its event part ("cycles", "EVENT"),
 * case-insensitively, as FreeBSD's table lookup is.
 */
static int name_matches(const char *tname, const char *want)
{
	const char *p;
	size_t n;

	if (!strcasecmp(tname, want))
		return 1;
	if ((p = strstr(tname, "::")) != NULL)
		return !strcasecmp(p + 2, want);
	if ((p = strchr(tname, '/')) != NULL) {
		n = strlen(p + 1);
		if (n > 0 && p[n] == '/')
			n--;
		return strlen(want) == n && !strncasecmp(p + 1, want, n);
	}
	return 0;
}

static int find(const char *want)
{
	for (int i = 0; want && i < ntab; i++)
		if (name_matches(tab[i].name, want))
			return i;
	return -1;
}

int pmc_pmu_enabled(void)
{
	int on;

	pthread_mutex_lock(&tab_lock);
	table_read();
	on = ntab > 0;
	pthread_mutex_unlock(&tab_lock);
	return on;
}

/* The printers: each table event whose name contains filter (NULL: all). */
enum pmu_print { PMU_NAMES, PMU_DESC, PMU_DESC_LONG, PMU_FULL };

static void print_table(const char *filter, enum pmu_print how)
{
	pthread_mutex_lock(&tab_lock);
	table_read();
	for (int i = 0; i < ntab; i++) {
		const struct pmu_ent *e = &tab[i];
		if (filter && !strcasestr(e->name, filter))
			continue;
		switch (how) {
		case PMU_NAMES:
			printf("\t%s\n", e->name);
			break;
		case PMU_DESC:
			printf("%s:\t%s\n", e->name, e->desc);
			break;
		case PMU_DESC_LONG:
			printf("%s:\n%s\n", e->name, e->desc);
			break;
		case PMU_FULL:
			printf("name: %s\ndesc: %s\n", e->name, e->desc);
			if (e->unit[0])
				printf("unit: %s\n", e->unit);
			printf("period: %llu\n", (unsigned long long)PMU_DEFAULT_SAMPLE_COUNT);
			break;
		}
	}
	pthread_mutex_unlock(&tab_lock);
}

void pmc_pmu_print_counters(const char *f)          { print_table(f, PMU_NAMES); }
void pmc_pmu_print_counter_desc(const char *f)      { print_table(f, PMU_DESC); }
void pmc_pmu_print_counter_desc_long(const char *f) { print_table(f, PMU_DESC_LONG); }
void pmc_pmu_print_counter_full(const char *f)      { print_table(f, PMU_FULL); }

/* An event's own period ("period=N" in its sysfs encoding), else FreeBSD's
 * default sample count. */
uint64_t pmc_pmu_sample_rate_get(const char *name)
{
	uint64_t rate = PMU_DEFAULT_SAMPLE_COUNT;
	const char *p;
	int i;

	pthread_mutex_lock(&tab_lock);
	table_read();
	if ((i = find(name)) >= 0 && (p = strstr(tab[i].desc, "period=")) != NULL) {
		unsigned long long v = strtoull(p + 7, NULL, 0);
		if (v > 0)
			rate = v;
	}
	pthread_mutex_unlock(&tab_lock);
	return rate;
}

/*
 * Fill an allocation request from the table, FreeBSD's way: 0 or an errno
 * value (not -1).  The perf encoding goes into the machine-dependent part:
 * pm_md.__pad[0..2] = config, config1, config2, __pad[3] = perf type.
 */
int pmc_pmu_pmcallocate(const char *name, struct pmc_op_pmcallocate *pm)
{
	struct pmc_evspec ev;
	char full[256];
	int i;

	if (!name || !pm)
		return EINVAL;
	pthread_mutex_lock(&tab_lock);
	table_read();
	i = find(name);
	if (i >= 0)
		snprintf(full, sizeof(full), "%s", tab[i].name);
	pthread_mutex_unlock(&tab_lock);
	if (i < 0)
		return ENOENT;
	memset(&ev, 0, sizeof(ev));
	if (pmc__event_parse(full, &ev) < 0)
		return ENOENT;
	pm->pm_class = ev.pclass;
	pm->pm_caps |= ev.caps;
	pm->pm_ev = ev.event;
	pm->pm_md.__pad[0] = ev.attr.config;
	pm->pm_md.__pad[1] = ev.attr.config1;
	pm->pm_md.__pad[2] = ev.attr.config2;
	pm->pm_md.__pad[3] = ev.attr.type;
	return 0;
}

/* Table lookups by index; a cpuid other than this machine's has no table here. */
static int other_cpu(const char *cpuid)
{
	if (!pmc_cpuid[0])
		pmc__sys_cpuid(pmc_cpuid, sizeof(pmc_cpuid));
	return cpuid && *cpuid && strcmp(cpuid, pmc_cpuid) != 0;
}

const char *pmc_pmu_event_get_by_idx(const char *cpuid, int idx)
{
	const char *n = NULL;

	if (other_cpu(cpuid))
		return NULL;
	pthread_mutex_lock(&tab_lock);
	table_read();
	if (idx >= 0 && idx < ntab)
		n = tab[idx].name;
	pthread_mutex_unlock(&tab_lock);
	return n;
}

int pmc_pmu_idx_get_by_event(const char *cpuid, const char *event)
{
	int i;

	if (other_cpu(cpuid))
		return -1;
	pthread_mutex_lock(&tab_lock);
	table_read();
	i = find(event);
	pthread_mutex_unlock(&tab_lock);
	return i;
}
