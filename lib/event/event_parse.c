/*
 * event_parse.c — pmc__event_parse: one spec ("cycles:u", "msr/tsc/",
 * "sched:sched_switch", "instructions,usr") to a struct pmc_evspec, trying
 * the kinds of event in a fixed order so that a name means one thing
 * everywhere; modifiers (perf's :ukhp...) and hwpmc's qualifiers (,usr ,os);
 * and the event-number registry behind
 * pmc_name_of_event(3) / pmc_event_names_of_class(3).
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/grow.h"
#include "common/error.h"
#include "event/event_impl.h"
#include "event/event_pfm.h"

/* ---- registry of dynamic event numbers ------------------------------- */
#define EV_NDYN (PMC_EV_DYN_COUNT - EV_IDX_DYNAMIC)
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static char *reg_names[EV_NDYN];
static int reg_n;

enum pmc_event ev__intern(const char *name)
{
	int i;

	pthread_mutex_lock(&reg_lock);
	for (i = 0; i < reg_n; i++)
		if (!strcmp(reg_names[i], name))
			break;
	if (i == reg_n) {
		if (reg_n < EV_NDYN && (reg_names[reg_n] = strdup(name)) != NULL)
			reg_n++;
		else
			i = EV_NDYN - 1;     /* full: share the last number */
	}
	pthread_mutex_unlock(&reg_lock);
	return (enum pmc_event)(PMC_EV_SOFT_FIRST + EV_IDX_DYNAMIC + i);
}

const char *ev__interned_name(unsigned idx)
{
	const char *s = NULL;

	pthread_mutex_lock(&reg_lock);
	if (idx < (unsigned)reg_n)
		s = reg_names[idx];
	pthread_mutex_unlock(&reg_lock);
	return s;
}

/* ---- static names of FreeBSD's fixed event blocks -------------------- */
#undef __PMC_EV
#define __PMC_EV(C, N) #N,
static const char *const armv8_ev_names[] = { __PMC_EV_ARMV8() };
static const char *const armv7_ev_names[] = { __PMC_EV_ARMV7() };
static const char *const k8_ev_names[] = { __PMC_EV_K8() };
static const char *const iaf_ev_names[] = { __PMC_EV_IAF() };
static const char *const tsc_ev_names[] = { __PMC_EV_TSC() };
static const char *const ppc7450_ev_names[] = { __PMC_EV_PPC7450() };
static const char *const ppc970_ev_names[] = { __PMC_EV_PPC970() };
static const char *const power8_ev_names[] = { __PMC_EV_POWER8() };
static const char *const e500_ev_names[] = { __PMC_EV_E500() };
static const char *const dmc620_cd2_ev_names[] = { __PMC_EV_DMC620_PMU_CD2() };
static const char *const dmc620_c_ev_names[] = { __PMC_EV_DMC620_PMU_C() };
static const char *const cmn600_ev_names[] = { __PMC_EV_CMN600_PMU() };
#undef __PMC_EV

/* Each fixed block: its first and last event and its names. */
#define EV_BLOCK(C, T) { PMC_EV_##C##_FIRST, PMC_EV_##C##_LAST, T }
static const struct {
	long first, last;
	const char *const *names;
} fixed_blocks[] = {
	EV_BLOCK(TSC, tsc_ev_names), EV_BLOCK(IAF, iaf_ev_names),
	EV_BLOCK(ARMV8, armv8_ev_names), EV_BLOCK(ARMV7, armv7_ev_names),
	EV_BLOCK(K8, k8_ev_names), EV_BLOCK(PPC7450, ppc7450_ev_names),
	EV_BLOCK(PPC970, ppc970_ev_names), EV_BLOCK(POWER8, power8_ev_names),
	EV_BLOCK(E500, e500_ev_names), EV_BLOCK(DMC620_PMU_CD2, dmc620_cd2_ev_names),
	EV_BLOCK(DMC620_PMU_C, dmc620_c_ev_names), EV_BLOCK(CMN600_PMU, cmn600_ev_names),
};
#undef EV_BLOCK

static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static char cache_names[EV_CACHE_TYPES * EV_CACHE_OPS * EV_CACHE_RES][48];
static const char *cache_list[EV_CACHE_TYPES * EV_CACHE_OPS * EV_CACHE_RES];
static int cache_nlist;

static void cache_init(void)
{
	for (int t = 0; t < EV_CACHE_TYPES; t++)
		for (int o = 0; o < EV_CACHE_OPS; o++)
			for (int r = 0; r < EV_CACHE_RES; r++) {
				int i = (t * 3 + o) * 2 + r;
				if (!ev__cache_valid(t, o, r))
					continue;
				ev__cache_name(t, o, r, cache_names[i], sizeof(cache_names[i]));
				cache_list[cache_nlist++] = cache_names[i];
			}
}

const char *pmc__event_name_of(enum pmc_event ev)
{
	long e = (long)ev;

	for (size_t i = 0; i < sizeof(fixed_blocks) / sizeof(fixed_blocks[0]); i++)
		if (e >= fixed_blocks[i].first && e <= fixed_blocks[i].last)
			return fixed_blocks[i].names[e - fixed_blocks[i].first];
	if (e < PMC_EV_SOFT_FIRST || e > PMC_EV_SOFT_LAST)
		return NULL;
	e -= PMC_EV_SOFT_FIRST;
	if (e >= EV_IDX_GENERIC && e < EV_IDX_GENERIC + ev__ngeneric)
		return ev__generic[e - EV_IDX_GENERIC].name;
	if (e >= EV_IDX_SOFTWARE && e < EV_IDX_SOFTWARE + ev__nsoftware)
		return ev__software[e - EV_IDX_SOFTWARE].name;
	if (e >= EV_IDX_FBSD_SOFT && e < EV_IDX_FBSD_SOFT + ev__nfbsd_soft)
		return ev__fbsd_soft[e - EV_IDX_FBSD_SOFT].name;
	if (e >= EV_IDX_CACHE && e < EV_IDX_CACHE + EV_CACHE_TYPES * EV_CACHE_OPS * EV_CACHE_RES) {
		pthread_once(&cache_once, cache_init);
		return cache_names[e - EV_IDX_CACHE][0] ? cache_names[e - EV_IDX_CACHE] : NULL;
	}
	if (e >= EV_IDX_DYNAMIC)
		return ev__interned_name((unsigned)(e - EV_IDX_DYNAMIC));
	return NULL;
}

/*
 * Classes whose events the machine names (tracepoints, sysfs PMU events,
 * the core PMU's events in libpfm4's tables): their names, read once and
 * kept for the life of the process, since callers free only the array.
 */
struct name_store { pthread_once_t once; char **v; int n, cap; const char *cat; };

static int store_add(const struct pmc_evinfo *e, void *arg)
{
	struct name_store *st = arg;
	if (GROW(st->v, st->n, st->cap) < 0)
		return -ENOMEM;
	if ((st->v[st->n] = strdup(e->name)) == NULL)
		return -ENOMEM;
	st->n++;
	return 0;
}

static struct name_store st_tp = { PTHREAD_ONCE_INIT, NULL, 0, 0, "tracepoint" };
static struct name_store st_pmu = { PTHREAD_ONCE_INIT, NULL, 0, 0, "pmu" };
static struct name_store st_pfm = { PTHREAD_ONCE_INIT, NULL, 0, 0, "libpfm4" };
static void fill_tp(void)  { pmc__event_foreach(st_tp.cat, store_add, &st_tp); }
static void fill_pmu(void) { pmc__event_foreach(st_pmu.cat, store_add, &st_pmu); }
static void fill_pfm(void) { pmc__event_foreach(st_pfm.cat, store_add, &st_pfm); }

static int dyn_names_of_class(enum pmc_class c, const char ***names, int *n)
{
	struct name_store *st;
	const char **v;

	switch (c) {
	case PMC_CLASS_TRACEPOINT:
		pthread_once(&st_tp.once, fill_tp);
		st = &st_tp;
		break;
	case PMC_CLASS_PMU:
		pthread_once(&st_pmu.once, fill_pmu);
		st = &st_pmu;
		break;
	case PMC_CLASS_RAW: case PMC_CLASS_IAP: case PMC_CLASS_K8: case PMC_CLASS_IBS:
		/* the core PMU's own (vendor) events */
		pthread_once(&st_pfm.once, fill_pfm);
		st = &st_pfm;
		break;
	default:
		pmc__set_reason("class %d has no list of event names", (int)c);
		return -EINVAL;
	}
	v = malloc(sizeof(*v) * (size_t)(st->n + 1));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < st->n; i++)
		v[i] = st->v[i];
	*names = v;
	*n = st->n;
	return 0;
}

/*
 * The SOFT class: FreeBSD's SOFT events this machine can count (hwpmc lists
 * the ones registered), then Linux's software events (an extension).
 */
static int soft_names(const char ***names, int *n)
{
	const char **v = malloc(sizeof(*v) * (size_t)(ev__nfbsd_soft + ev__nsoftware));
	struct pmc_evspec ev;
	int cnt = 0;

	if (!v)
		return -ENOMEM;
	for (int i = 0; i < ev__nfbsd_soft; i++) {
		memset(&ev, 0, sizeof(ev));
		if (ev__lookup_freebsd(ev__fbsd_soft[i].name, &ev) == 0)
			v[cnt++] = ev__fbsd_soft[i].name;
	}
	pmc__clear_reason();
	for (int i = 0; i < ev__nsoftware; i++)
		v[cnt++] = ev__software[i].name;
	*names = v;
	*n = cnt;
	return 0;
}

int pmc__event_names_of_class(enum pmc_class c, const char ***names, int *n)
{
	const char **v;
	int cnt = 0;

	if (!names || !n)
		return -EINVAL;
	switch (c) {
	case PMC_CLASS_SOFT:    return soft_names(names, n);
	case PMC_CLASS_GENERIC: cnt = ev__ngeneric; break;
	case PMC_CLASS_CACHE:
		pthread_once(&cache_once, cache_init);
		cnt = cache_nlist;
		break;
	case PMC_CLASS_ARMV8:   cnt = (int)(sizeof(armv8_ev_names) / sizeof(armv8_ev_names[0])); break;
	case PMC_CLASS_IAF:     cnt = (int)(sizeof(iaf_ev_names) / sizeof(iaf_ev_names[0])); break;
	case PMC_CLASS_TSC:     cnt = 1; break;
	default:
		return dyn_names_of_class(c, names, n);
	}
	v = malloc(sizeof(*v) * (size_t)cnt);
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < cnt; i++) {
		switch (c) {
		case PMC_CLASS_GENERIC: v[i] = ev__generic[i].name; break;
		case PMC_CLASS_CACHE:   v[i] = cache_list[i]; break;
		case PMC_CLASS_ARMV8:   v[i] = armv8_ev_names[i]; break;
		case PMC_CLASS_IAF:     v[i] = iaf_ev_names[i]; break;
		default:                v[i] = tsc_ev_names[0]; break;
		}
	}
	*names = v;
	*n = cnt;
	return 0;
}

/* ---- vendor events (libpfm4) ----------------------------------------- */
int ev__pfm_resolve(const char *name, struct pmc_evspec *out)
{
	struct ev_pfm_enc enc;
	int rc;

	if (!pmc__sys_has_hw_pmu() || !ev__pfm_core_present())
		return pmc__err_cause(-ENOENT, PMC_CAUSE_NO_PMU, "this machine has no hardware PMU "
				      "(software events only); vendor event '%s' cannot be "
				      "resolved", name);
	memset(&enc, 0, sizeof(enc));
	rc = ev__pfm_encode(name, &enc);
	if (rc < 0)
		return rc;
	out->attr.type = enc.type;
	out->attr.config = enc.config;
	out->attr.config1 = enc.config1;
	out->attr.config2 = enc.config2;
	out->attr.exclude_user = enc.exclude_user != 0;
	out->attr.exclude_kernel = enc.exclude_kernel != 0;
	out->attr.exclude_hv = enc.exclude_hv != 0;
	out->pclass = PMC_CLASS_RAW;
	ev__set_hw_caps(out);
	out->event = ev__intern(name);
	return 0;
}

/* ---- modifiers and qualifiers --------------------------------------------- */
static const char mod_chars[] = "ukhpGHID";

static int is_mod_string(const char *s)
{
	return *s && strspn(s, mod_chars) == strlen(s);
}

static int apply_mods(const char *mods, const char *base, struct pmc_evspec *out)
{
	struct perf_event_attr *a = &out->attr;
	int eu = a->exclude_user, ek = a->exclude_kernel, eh = a->exclude_hv;
	int exclude = eu | ek | eh, precise = 0;

	for (const char *c = mods; *c; c++) {
		switch (*c) {
		case 'u': case 'k': case 'h':
			out->mode_given = 1;
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (*c == 'u')
				eu = 0;
			else if (*c == 'k')
				ek = 0;
			else
				eh = 0;
			break;
		case 'p': precise++; break;
		case 'G': a->exclude_host = 1; break;
		case 'H': a->exclude_guest = 1; break;
		case 'I': a->exclude_idle = 1; break;
		case 'D': a->pinned = 1; break;
		default:
			return pmc__err(-EINVAL, "bad modifier '%c' in ':%s' of '%s' (modifiers: u k h "
					"p G H I D)", *c, mods, base);
		}
	}
	if (precise > 3)
		return pmc__err(-EINVAL, "too many 'p' in ':%s' of '%s' (precise level is 0-3)",
				mods, base);
	if (precise && !(out->caps & PMC_CAP_PRECISE))
		return pmc__err_cause(-EINVAL, PMC_CAUSE_UNSUPPORTED, "'%s' does not support "
				      "precise sampling (modifier 'p'): only hardware events do",
				      base);
	if (exclude && !(out->caps & (PMC_CAP_USER | PMC_CAP_SYSTEM)) &&
	    (out->pclass == PMC_CLASS_PMU || out->pclass == PMC_CLASS_TSC))
		return pmc__err(-EINVAL, "'%s' cannot count user and kernel mode separately "
				"(modifier ':%s')", base, mods);
	a->exclude_user = (unsigned)eu;
	a->exclude_kernel = (unsigned)ek;
	a->exclude_hv = (unsigned)eh;
	a->precise_ip = (unsigned)precise;
	return 0;
}

/* hwpmc's comma qualifiers: "usr", "os" (both = count everything). */
static int apply_qualifiers(const char *quals, const char *base, struct pmc_evspec *out)
{
	char buf[160], *save = NULL, *t;
	int usr = 0, os = 0;

	snprintf(buf, sizeof(buf), "%s", quals);
	if (!*buf || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,"))
		return pmc__err(-EINVAL, "empty qualifier after '%s'", base);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*t))
			t++;
		size_t l = strlen(t);
		while (l && isspace((unsigned char)t[l - 1]))
			t[--l] = '\0';
		if (!strcasecmp(t, "usr"))
			usr = 1;
		else if (!strcasecmp(t, "os"))
			os = 1;
		else
			return pmc__err(-EINVAL, "unknown qualifier '%s' after '%s' (hwpmc qualifiers: "
					"usr, os)", t, base);
	}
	if (!(out->caps & (PMC_CAP_USER | PMC_CAP_SYSTEM)) &&
	    (out->pclass == PMC_CLASS_PMU || out->pclass == PMC_CLASS_TSC) && usr != os)
		return pmc__err(-EINVAL, "'%s' cannot count user and kernel mode separately "
				"(qualifier '%s')", base, usr ? "usr" : "os");
	out->mode_given = usr || os;
	if (usr && os) {
		out->attr.exclude_user = out->attr.exclude_kernel = out->attr.exclude_hv = 0;
	} else if (usr) {
		out->attr.exclude_user = 0;
		out->attr.exclude_kernel = out->attr.exclude_hv = 1;
	} else if (os) {
		out->attr.exclude_kernel = 0;
		out->attr.exclude_user = out->attr.exclude_hv = 1;
	}
	return 0;
}

/* ---- name resolution ------------------------------------------------- */
static int is_raw(const char *s)
{
	size_t n = strlen(s);
	return s[0] == 'r' && n >= 2 && n <= 17 && strspn(s + 1, "0123456789abcdefABCDEF") == n - 1;
}

static int looks_vendor(const char *s)
{
	int upper = 0, lower = 0;

	if (strchr(s, '.') || strstr(s, "::"))
		return 1;
	for (; *s; s++) {
		upper |= isupper((unsigned char)*s) != 0;
		lower |= islower((unsigned char)*s) != 0;
	}
	return upper && !lower;
}

static int resolve_other(const char *name, int use_pfm, struct pmc_evspec *out);

/* Every kind of name except tracepoints (which need "sys:name"). */
static int resolve_plain(const char *name, int use_pfm, struct pmc_evspec *out)
{
	struct pmc__errsave cache_err = { .cause = PMC_CAUSE_NONE };
	int rc;

	if (ev__lookup_generic(name, out) == 0 || ev__lookup_software(name, out) == 0)
		return 0;
	if ((rc = ev__lookup_freebsd(name, out)) != -ENOENT)
		return rc;
	/* "LLC-foo" is a bad cache event unless something else knows the name */
	rc = ev__lookup_cache(name, out);
	if (rc == 0)
		return 0;
	if (rc == -EINVAL) {
		pmc__err_save(&cache_err, rc);
		pmc__clear_reason();
	}
	rc = resolve_other(name, use_pfm, out);
	if (rc == -ENOENT && !pmc__has_reason() && cache_err.cause != PMC_CAUSE_NONE)
		return pmc__err_restore(&cache_err);   /* the cache lookup's, put back */
	return rc;
}

static int resolve_other(const char *name, int use_pfm, struct pmc_evspec *out)
{
	char n[192];
	int rc;

	if (is_raw(name)) {
		out->attr.type = PERF_TYPE_RAW;
		out->attr.config = strtoull(name + 1, NULL, 16);
		out->pclass = PMC_CLASS_RAW;
		ev__set_hw_caps(out);
		out->event = ev__intern(name);
		return 0;
	}
	rc = ev__lookup_armv8(name, 1, out);
	if (rc != -ENOENT || pmc__has_reason())
		return rc;
	ev__norm(name, n, sizeof(n));
	/* FreeBSD's TSC, any case: "TSC", "tsc", "TSC-TSC" */
	rc = ev__pmu_find_alias(!strcmp(n, "tsc-tsc") || !strcmp(n, "tsc") ? "tsc" : name, out);
	if (rc != -ENOENT || pmc__has_reason())
		return rc;
	if (use_pfm && pmc__sys_has_hw_pmu()) {
		rc = ev__pfm_resolve(name, out);
		if (rc != -ENOENT || pmc__has_reason())
			return rc;
	}
	if (ev__lookup_armv8(name, 0, out) == 0)
		return 0;
	return -ENOENT;
}

static int unknown(const char *name)
{
	const char *s = ev__suggest(name);

	if (s)
		return pmc__err(-ENOENT, "unknown event '%s' (did you mean '%s'?)", name, s);
	if (!strncasecmp(name, "SOFT-", 5))
		return pmc__err(-ENOENT, "unknown software event '%s' (SOFT- takes a software "
				"event name, e.g. SOFT-CLOCK.HARD, SOFT-PAGE_FAULT.ALL, "
				"SOFT-context-switches)", name);
	if (looks_vendor(name) && !pmc__sys_has_hw_pmu())
		return pmc__err_cause(-ENOENT, PMC_CAUSE_NO_PMU, "this machine has no hardware PMU "
				      "(software events only); vendor event '%s' cannot be "
				      "resolved", name);
	return pmc__err(-ENOENT, "unknown event '%s' (see 'pmc list')", name);
}

static int resolve_name(const char *name, struct pmc_evspec *out)
{
	int rc = resolve_plain(name, 1, out);

	if (rc == -ENOENT && !pmc__has_reason())
		return unknown(name);
	return rc;
}

static int resolve_tracepoint(const char *spec, struct pmc_evspec *out)
{
	char buf[160];
	char *colon;

	snprintf(buf, sizeof(buf), "%s", spec);
	colon = strchr(buf, ':');
	if (!colon)
		return pmc__err(-EINVAL, "'%s' is not a tracepoint (want subsystem:name)", spec);
	*colon = '\0';
	return ev__tracepoint_resolve(buf, colon + 1, out);
}

static int subsystem_exists(const char *sys)
{
	char dir[256], path[512];
	struct stat st;

	if (strchr(sys, '/') || sys[0] == '.' || ev__tracefs_dir(dir, sizeof(dir)) < 0)
		return 0;
	pmc__clear_reason();
	snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
	return stat(path, &st) == 0;
}

/* A base without slashes: name, name:mods, sys:name, sys:name:mods, pfm::name. */
static int parse_base(char *base, struct pmc_evspec *out)
{
	char *last = strrchr(base, ':');
	struct pmc_evspec probe;
	int rc;

	if (!last)
		return resolve_name(base, out);
	if (last == base || !last[1])
		return pmc__err(-EINVAL, "bad event spec '%s' (nothing %s the ':')", base,
				last == base ? "before" : "after");
	if (strstr(base, "::")) {                       /* libpfm4's pmu::event[:attr] */
		rc = resolve_plain(base, 1, out);
		if (rc == -ENOENT && !pmc__has_reason())
			return unknown(base);
		return rc;
	}
	*last = '\0';
	const char *mods = last + 1;
	if (strchr(base, ':')) {                        /* sys:name:mods */
		if (!is_mod_string(mods)) {
			*last = ':';
			return pmc__err(-EINVAL, "bad modifier ':%s' in '%s' (modifiers: u k h p G H I D)",
					mods, base);
		}
		/* name:mods:mods (cpu-clock:u:k) is not a tracepoint "cpu-clock:u":
		 * blame the modifiers, which come in one group */
		char *first = strchr(base, ':');
		*first = '\0';
		if (is_mod_string(first + 1) && !subsystem_exists(base)) {
			memset(&probe, 0, sizeof(probe));
			probe.attr.size = sizeof(probe.attr);
			int known = resolve_plain(base, 0, &probe) == 0;
			pmc__clear_reason();
			if (known) {
				rc = pmc__err(-EINVAL, "bad modifiers in '%s:%s:%s': give them in one "
				    "group ('%s:%s%s')", base, first + 1, mods, base, first + 1, mods);
				*first = ':';
				*last = ':';
				return rc;
			}
		}
		*first = ':';
		if ((rc = resolve_tracepoint(base, out)) < 0)
			return rc;
		return apply_mods(mods, base, out);
	}
	if (is_mod_string(mods)) {                      /* name:mods (or sys:name) */
		rc = resolve_plain(base, 1, out);
		if (rc == 0)
			return apply_mods(mods, base, out);
		if (rc == -ENOENT && subsystem_exists(base)) {
			memset(&out->attr, 0, sizeof(out->attr));
			out->attr.size = sizeof(out->attr);
			*last = ':';
			return resolve_tracepoint(base, out);
		}
		if (rc == -ENOENT && !pmc__has_reason())
			return unknown(base);
		return rc;
	}
	/* suffix is not a modifier: a known event with a bad modifier, or a tracepoint */
	memset(&probe, 0, sizeof(probe));
	probe.attr.size = sizeof(probe.attr);
	if (resolve_plain(base, 0, &probe) == 0) {
		*last = ':';
		return pmc__err(-EINVAL, "bad modifier ':%s' in '%s' (modifiers: u k h p G H I D)",
				mods, base);
	}
	pmc__clear_reason();
	*last = ':';
	rc = resolve_tracepoint(base, out);
	if (rc == -ENOENT && pmc__sys_has_hw_pmu()) {     /* libpfm4's EVENT:UMASK */
		char saved[512];
		snprintf(saved, sizeof(saved), "%s", pmc_errmsg());
		pmc__clear_reason();
		memset(&out->attr, 0, sizeof(out->attr));
		out->attr.size = sizeof(out->attr);
		if (ev__pfm_resolve(base, out) == 0)
			return 0;
		pmc__clear_reason();                     /* the tracepoint's reason, not libpfm4's */
		pmc__err(-ENOENT, "%s", saved);
	}
	return rc;
}

static int parse_pmu(char *spec, char *slash, struct pmc_evspec *out, char **tail)
{
	char *close = strchr(slash + 1, '/');
	char pmu[64];

	if (slash == spec)
		return pmc__err(-EINVAL, "no PMU name before '/' in '%s'", spec);
	if (!close)
		return pmc__err(-EINVAL, "missing closing '/' in '%s' (want pmu/event/)", spec);
	if (strchr(close + 1, '/'))
		return pmc__err(-EINVAL, "too many '/' in '%s' (want pmu/event/)", spec);
	if ((size_t)(slash - spec) >= sizeof(pmu))
		return pmc__err(-EINVAL, "PMU name too long in '%s'", spec);
	memcpy(pmu, spec, (size_t)(slash - spec));
	pmu[slash - spec] = '\0';
	*close = '\0';
	*tail = close + 1;
	return ev__pmu_resolve(pmu, slash + 1, out);
}

static int parse(const char *spec, struct pmc_evspec *out)
{
	char buf[160], base[160];
	char *s, *e, *quals = NULL, *slash;
	int rc;

	memset(out, 0, sizeof(*out));
	out->attr.size = sizeof(out->attr);
	out->scale = 1.0;
	if (!spec)
		return pmc__err(-EINVAL, "no event spec given");
	while (isspace((unsigned char)*spec))
		spec++;
	if (strlen(spec) >= sizeof(buf))
		return pmc__err(-EINVAL, "event spec '%.40s...' is too long (max %zu characters)",
				spec, sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", spec);
	e = buf + strlen(buf);
	while (e > buf && isspace((unsigned char)e[-1]))
		*--e = '\0';
	snprintf(out->name, sizeof(out->name), "%s", buf);
	if (!buf[0])
		return pmc__err(-EINVAL, "empty event spec");
	if (buf[0] == '{' || strchr(buf, '}'))
		return pmc__err(-EINVAL, "'%s' is an event group; give its events one by one", buf);
	if (buf[0] == ',' )
		return pmc__err(-EINVAL, "'%s' starts with a comma", buf);

	slash = strchr(buf, '/');
	if (slash) {
		char *tail = NULL, *comma, *mods;
		snprintf(base, sizeof(base), "%s", buf);
		slash = base + (slash - buf);
		if ((rc = parse_pmu(base, slash, out, &tail)) < 0)
			return rc;
		comma = strchr(tail, ',');
		if (comma) {
			*comma = '\0';
			quals = comma + 1;
		}
		mods = tail;
		if (*mods == ':')
			mods++;
		*slash = '/';
		tail[-1] = '/';
		if (*mods) {
			char evname[160];
			snprintf(evname, sizeof(evname), "%.*s", (int)(tail - base), base);
			if (!is_mod_string(mods))
				return pmc__err(-EINVAL, "bad modifier '%s' after '%s' (modifiers: u k h p "
						"G H I D)", mods, evname);
			if ((rc = apply_mods(mods, evname, out)) < 0)
				return rc;
		}
		if (quals)
			return apply_qualifiers(quals, buf, out);
		return 0;
	}

	s = strchr(buf, ',');
	if (s) {
		*s = '\0';
		quals = s + 1;
	}
	snprintf(base, sizeof(base), "%s", buf);
	e = base + strlen(base);
	while (e > base && isspace((unsigned char)e[-1]))
		*--e = '\0';
	if (!base[0])
		return pmc__err(-EINVAL, "empty event before ',%s'", quals ? quals : "");
	if ((rc = parse_base(base, out)) < 0)
		return rc;
	if (quals)
		return apply_qualifiers(quals, base, out);
	return 0;
}

int pmc__event_parse(const char *spec, struct pmc_evspec *out)
{
	int rc;

	if (!out)
		return -EINVAL;
	pmc__clear_reason();
	rc = parse(spec, out);
	if (rc < 0) {
		char name[160];
		snprintf(name, sizeof(name), "%s", out->name);
		memset(out, 0, sizeof(*out));
		snprintf(out->name, sizeof(out->name), "%s", name);
		pmc__set_reason("invalid event spec");     /* unless a resolver said why */
	}
	return rc;
}
