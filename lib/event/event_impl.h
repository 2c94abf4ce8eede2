/*
 * event_impl.h — what the files of lib/event share with each other (and
 * nothing else): the static tables, sysfs, tracefs and libpfm4 lookups, and
 * the name registry behind event numbers.  Failures go through the common
 * reason channel (common/error.h: pmc__err); a resolver that tries one kind
 * of event after another clears it between attempts.
 */
#ifndef PMC_EVENT_IMPL_H
#define PMC_EVENT_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include "common/error.h"
#include "common/sysinfo.h"
#include "event/event.h"

/* Lower-case, with ' ', '.', '_' and '-' all mapped to '-'. */
void ev__norm(const char *in, char *out, size_t len);

/* ---- event numbers: PMC_EV_SOFT_FIRST + index ---------------------------- */
#define EV_IDX_GENERIC   0    /* 0..15   generic hardware */
#define EV_IDX_SOFTWARE  16   /* 16..31  software */
#define EV_IDX_CACHE     32   /* 32..73  cache: 32 + (type*3 + op)*2 + result */
#define EV_IDX_FBSD_SOFT 80   /* 80..95  FreeBSD's SOFT events (CLOCK.HARD ...) */
#define EV_IDX_DYNAMIC   128  /* 128..   tracepoints, PMU, raw, vendor: by name */

/* A registry entry for a spec without a static number (name without modifiers). */
enum pmc_event ev__intern(const char *name);
const char *ev__interned_name(unsigned idx);

/* ---- static tables (event_tables.c) ---------------------------------- */
struct ev_static {
	const char *name;
	const char *aliases;      /* space-separated, or NULL */
	uint64_t config;
	const char *desc;
};
extern const struct ev_static ev__generic[];
extern const int ev__ngeneric;
extern const struct ev_static ev__software[];
extern const int ev__nsoftware;

/* Each returns 0 and fills out (type/config/class/event/caps/pmu), or -ENOENT quietly. */
int ev__lookup_generic(const char *name, struct pmc_evspec *out);
int ev__lookup_software(const char *name, struct pmc_evspec *out);
int ev__lookup_cache(const char *name, struct pmc_evspec *out);
int ev__lookup_freebsd(const char *name, struct pmc_evspec *out);
/* FreeBSD's SOFT events, in its order (pmc.soft(3)). */
struct ev_fbsd_soft {
	const char *name;        /* "CLOCK.HARD" */
	const char *target;      /* the Linux event counting it, NULL if none */
	uint64_t tick_ns;        /* CLOCK.*: ns per FreeBSD clock tick, else 0 */
	const char *desc;
};
extern const struct ev_fbsd_soft ev__fbsd_soft[];
extern const int ev__nfbsd_soft;
/* explicit_only: only "EVENT_xxH" or "armv8-"-prefixed spellings. */
int ev__lookup_armv8(const char *name, int explicit_only, struct pmc_evspec *out);

/* Canonical cache names: valid (type, op, result) combinations. */
int ev__cache_valid(int type, int op, int result);
void ev__cache_name(int type, int op, int result, char *buf, size_t len);
const char *ev__cache_desc(int type, int op, int result, char *buf, size_t len);
#define EV_CACHE_TYPES 7
#define EV_CACHE_OPS   3
#define EV_CACHE_RES   2

/* ARMv8 PMUv3 architectural/recommended name for n, or NULL. */
const char *ev__armv8_name(unsigned n);
const char *ev__armv8_desc(unsigned n);

/* The nearest known static name to name, or NULL if none is close. */
const char *ev__suggest(const char *name);

void ev__set_hw_caps(struct pmc_evspec *out);

/* ---- sysfs PMUs (event_sysfs.c) ---------------------------------------- */
/* pmu/terms/ : terms is the text between the slashes. */
int ev__pmu_resolve(const char *pmu, const char *terms, struct pmc_evspec *out);
/* A bare name that is an alias under some PMU's events/ (e.g. "tsc"). */
int ev__pmu_find_alias(const char *name, struct pmc_evspec *out);

/* ---- tracefs (event_tracefs.c) --------------------------------------- */
/* The tracefs directory (mounting it if needed and allowed), or -errno with reason. */
int ev__tracefs_dir(char *buf, size_t len);
int ev__tracepoint_resolve(const char *sys, const char *name, struct pmc_evspec *out);

/* ---- libpfm4 glue (event_parse.c, event_list.c; libpfm calls in event_pfm.c) */
int ev__pfm_resolve(const char *name, struct pmc_evspec *out);
int ev__pfm_foreach(int (*cb)(const struct pmc_evinfo *, void *), void *arg);

#endif
