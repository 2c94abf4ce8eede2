/*
 * event_list.c — pmc__event_foreach: the catalogue of every event this
 * machine offers, by category, for `pmc list` and anyone else who wants to
 * show choices.  Walks the same tables and directories the parser resolves
 * against, so anything listed parses.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_impl.h"
#include "event/event_pfm.h"

typedef int (*ev_cb)(const struct pmc_evinfo *, void *);

static int want(const char *category, const char *c)
{
	return !category || !strcmp(category, c);
}

static int emit(ev_cb cb, void *arg, const char *name, const char *desc, const char *cat,
		const char *unit, const char *aliases)
{
	struct pmc_evinfo ei = { name, desc ? desc : "", cat, unit ? unit : "", aliases };
	return cb(&ei, arg);
}

static int list_static(ev_cb cb, void *arg, const struct ev_static *t, int n, const char *cat)
{
	int rc;

	for (int i = 0; i < n; i++)
		if ((rc = emit(cb, arg, t[i].name, t[i].desc, cat, "", t[i].aliases)) != 0)
			return rc;
	return 0;
}

static int list_cache(ev_cb cb, void *arg)
{
	char name[64], desc[128];
	int rc;

	for (int t = 0; t < EV_CACHE_TYPES; t++)
		for (int o = 0; o < EV_CACHE_OPS; o++)
			for (int r = 0; r < EV_CACHE_RES; r++) {
				if (!ev__cache_valid(t, o, r))
					continue;
				ev__cache_name(t, o, r, name, sizeof(name));
				ev__cache_desc(t, o, r, desc, sizeof(desc));
				if ((rc = emit(cb, arg, name, desc, "cache", "", NULL)) != 0)
					return rc;
			}
	return 0;
}

static int skip_ent(const char *n)
{
	const char *dot = strrchr(n, '.');
	return n[0] == '.' || (dot && (!strcmp(dot, ".scale") || !strcmp(dot, ".unit") ||
				       !strcmp(dot, ".per-pkg") || !strcmp(dot, ".snapshot")));
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n = 0;

	buf[0] = '\0';
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
}

static int list_pmus(ev_cb cb, void *arg)
{
	struct dirent **pmus, **evs;
	int np, ne, rc = 0;
	char path[700], enc[256], unit[64], name[600], desc[800];

	np = scandir(pmc__sys_pmu_dir(), &pmus, NULL, alphasort);
	if (np < 0)
		return 0;
	for (int i = 0; i < np; i++) {
		const char *pmu = pmus[i]->d_name;
		if (rc || pmu[0] == '.')
			goto next_pmu;
		snprintf(path, sizeof(path), "%s/%s/events", pmc__sys_pmu_dir(), pmu);
		ne = scandir(path, &evs, NULL, alphasort);
		if (ne < 0)
			goto next_pmu;
		for (int j = 0; j < ne; j++) {
			const char *ev = evs[j]->d_name;
			if (!rc && !skip_ent(ev)) {
				char p2[1000];
				snprintf(p2, sizeof(p2), "%s/%s", path, ev);
				read_line(p2, enc, sizeof(enc));
				snprintf(p2, sizeof(p2), "%s/%s.unit", path, ev);
				read_line(p2, unit, sizeof(unit));
				snprintf(name, sizeof(name), "%s/%s/", pmu, ev);
				snprintf(desc, sizeof(desc), "%s event of PMU '%s' (%s)",
					 pmc__sys_is_core_pmu_name(pmu) ? "Hardware" : "Kernel", pmu, enc);
				rc = emit(cb, arg, name, desc, "pmu", unit, NULL);
			}
			free(evs[j]);
		}
		free(evs);
next_pmu:
		free(pmus[i]);
	}
	free(pmus);
	return rc;
}

static int list_tracepoints(ev_cb cb, void *arg)
{
	char dir[256], path[600], name[600];
	struct dirent **subs, **evs;
	int ns, ne, rc = 0;

	if (ev__tracefs_dir(dir, sizeof(dir)) < 0)
		return 0;
	snprintf(path, sizeof(path), "%s/events", dir);
	ns = scandir(path, &subs, NULL, alphasort);
	if (ns < 0)
		return 0;
	for (int i = 0; i < ns; i++) {
		const char *sys = subs[i]->d_name;
		char sp[900];
		if (rc || sys[0] == '.' || subs[i]->d_type == DT_REG)
			goto next;
		snprintf(sp, sizeof(sp), "%s/%s", path, sys);
		ne = scandir(sp, &evs, NULL, alphasort);
		if (ne < 0)
			goto next;
		for (int j = 0; j < ne; j++) {
			const char *ev = evs[j]->d_name;
			if (!rc && ev[0] != '.' && evs[j]->d_type != DT_REG) {
				snprintf(name, sizeof(name), "%s:%s", sys, ev);
				rc = emit(cb, arg, name, "Tracepoint event", "tracepoint", "", NULL);
			}
			free(evs[j]);
		}
		free(evs);
next:
		free(subs[i]);
	}
	free(subs);
	return rc;
}

static int list_armv8(ev_cb cb, void *arg)
{
	char alias[16];
	int rc;

	for (unsigned n = 0; n < 256; n++) {
		const char *nm = ev__armv8_name(n);
		if (!nm)
			continue;
		snprintf(alias, sizeof(alias), "EVENT_%02XH", n);
		if ((rc = emit(cb, arg, nm, ev__armv8_desc(n), "armv8", "", alias)) != 0)
			return rc;
	}
	return 0;
}

struct pfm_ctx { ev_cb cb; void *arg; };

static int pfm_one(const char *pmu, const char *event, const char *desc, void *arg)
{
	struct pfm_ctx *c = arg;
	char name[256];

	snprintf(name, sizeof(name), "%.100s::%.150s", pmu, event);
	return emit(c->cb, c->arg, name, desc, "libpfm4", "", event);
}

int ev__pfm_foreach(ev_cb cb, void *arg)
{
	struct pfm_ctx c = { cb, arg };

	if (!pmc__sys_has_hw_pmu())
		return 0;
	return ev__pfm_walk(pfm_one, &c);
}

int pmc__event_foreach(const char *category, ev_cb cb, void *arg)
{
	int rc = 0;

	if (!cb)
		return -EINVAL;
	if (want(category, "hardware") &&
	    (rc = list_static(cb, arg, ev__generic, ev__ngeneric, "hardware")) != 0)
		return rc;
	if (want(category, "software") &&
	    (rc = list_static(cb, arg, ev__software, ev__nsoftware, "software")) != 0)
		return rc;
	if (want(category, "cache") && (rc = list_cache(cb, arg)) != 0)
		return rc;
	if (want(category, "raw") &&
	    (rc = emit(cb, arg, "rNNNN", "Raw encoding for the core PMU (hex)", "raw", "", NULL)) != 0)
		return rc;
	if (want(category, "pmu") && (rc = list_pmus(cb, arg)) != 0)
		return rc;
	if (want(category, "tracepoint") && (rc = list_tracepoints(cb, arg)) != 0)
		return rc;
	if (want(category, "armv8") && (rc = list_armv8(cb, arg)) != 0)
		return rc;
	if (want(category, "libpfm4") && (rc = ev__pfm_foreach(cb, arg)) != 0)
		return rc;
	return 0;
}

struct core_ctx { ev_cb cb; void *arg; };

static int core_pmu_only(const struct pmc_evinfo *e, void *arg)
{
	struct core_ctx *c = arg;
	const char *slash = strchr(e->name, '/');
	char pmu[64];

	if (!slash || (size_t)(slash - e->name) >= sizeof(pmu))
		return 0;
	memcpy(pmu, e->name, (size_t)(slash - e->name));
	pmu[slash - e->name] = '\0';
	return pmc__sys_is_core_pmu_name(pmu) ? c->cb(e, c->arg) : 0;
}

int pmc__event_cpu_table_foreach(ev_cb cb, void *arg)
{
	struct core_ctx c = { cb, arg };
	int rc;

	if (!cb)
		return -EINVAL;
	if (!pmc__sys_has_hw_pmu())
		return 0;
	if ((rc = list_pmus(core_pmu_only, &c)) != 0)
		return rc;
	return ev__pfm_foreach(cb, arg);
}
