/*
 * error.h — the one error convention of every layer (libbpf's libbpf_err is
 * the model).
 *
 * An internal function that fails returns a negative errno (or NULL with
 * errno set) and records, once, *why* in this thread's reason channel:
 *
 *	return pmc__err(-EINVAL, "bad modifier ':%s'", mods);
 *	return pmc__err_cause(-EINVAL, PMC_CAUSE_NO_PMU, "no hardware PMU ...");
 *
 * The first reason recorded since pmc__clear_reason() is kept: the deepest
 * layer knows best, and a caller that adds nothing just passes rc up.  A
 * reason has a typed cause (enum pmc_errcause, include/pmc.h) so that a
 * caller can react to a kind of failure without reading its words.
 *
 * Public calls follow FreeBSD: a public entry point clears the channel on
 * entry and ends with `return pmc__ret(rc)` (errno = -rc, -1).  pmc_errmsg()
 * and pmc_errcause() read the channel; the analysis library and the CLI read
 * it through them too.  Nothing else keeps a reason: no second store, no
 * `char *err, size_t errlen` out-parameter, no abort() on out of memory.
 */
#ifndef PMC_COMMON_ERROR_H
#define PMC_COMMON_ERROR_H

#include <stdarg.h>

#include "pmc.h"

/* Fail with rc (a negative errno): record the reason (printf format) unless
 * one is already recorded, set errno = -rc, return rc.  The cause is
 * PMC_CAUSE_NOMEM for -ENOMEM, else PMC_CAUSE_OTHER. */
int pmc__err(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with a typed cause. */
int pmc__err_cause(int rc, enum pmc_errcause cause, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Fail with rc, putting what the caller was doing before the recorded
 * reason ("cannot read perf.data: <reason>"); strerror(-rc) stands in for
 * a reason none was recorded.  The cause stays the recorded one's. */
int pmc__err_wrap(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Out of memory: pmc__err(-ENOMEM, "out of memory"); for an allocation that
 * failed where there is nothing better to say. */
int pmc__nomem(void);

/* Record a reason without failing yet (the return value comes later). */
void pmc__set_reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Forget the recorded reason and cause: a new attempt starts. */
void pmc__clear_reason(void);
/* Whether a reason is recorded since the last pmc__clear_reason(). */
int pmc__has_reason(void);

/* Public-call epilogue: rc >= 0 passes through; rc < 0 sets errno = -rc,
 * supplies a default reason (strerror) if none was set, and returns -1. */
int pmc__ret(int rc);

#endif
