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
 *
 * The channel is state, so it exists once, in libpmc (error.c); its one
 * writer outside libpmc is the public pmc_seterror() (pmc.h).  The helpers
 * in the first part below are thin wrappers over it, so that every layer,
 * the analysis library included (which links libpmc.so and has no copy of
 * error.c), writes reasons the same way and libpmc exports no internal
 * name.  The second part is libpmc's own.
 */
#ifndef PMC_COMMON_ERROR_H
#define PMC_COMMON_ERROR_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pmc.h"

/* ---- every layer (wrappers over pmc_seterror) ---------------------------- */

/* Fail with rc (a negative errno): record the reason (printf format) unless
 * one is already recorded, set errno = -rc, return rc.  The cause is
 * PMC_CAUSE_NOMEM for -ENOMEM, else PMC_CAUSE_OTHER. */
#define pmc__err(rc, ...) pmc_seterror((rc), PMC_CAUSE_NONE, __VA_ARGS__)
/* The same with a typed cause. */
#define pmc__err_cause(rc, cause, ...) pmc_seterror((rc), (cause), __VA_ARGS__)
/* Out of memory: pmc__err(-ENOMEM, "out of memory"); for an allocation that
 * failed where there is nothing better to say. */
#define pmc__nomem() pmc_seterror(-ENOMEM, PMC_CAUSE_NOMEM, "out of memory")
/* Forget the recorded reason and cause: a new attempt starts. */
#define pmc__clear_reason() ((void)pmc_seterror(0, PMC_CAUSE_NONE, NULL))
/* Whether a reason is recorded since the last pmc__clear_reason(). */
#define pmc__has_reason() (pmc_errcause() != PMC_CAUSE_NONE)

/* Fail with rc, putting what the caller was doing before the recorded
 * reason ("cannot read perf.data: <reason>"); strerror(-rc) stands in for
 * a reason none was recorded.  The cause stays the recorded one's. */
static inline int pmc__err_wrap(int rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int pmc__err_wrap(int rc, const char *fmt, ...)
{
	char ctx[256], inner[512];
	enum pmc_errcause c = pmc_errcause();
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	snprintf(inner, sizeof(inner), "%s", c != PMC_CAUSE_NONE ? pmc_errmsg() : strerror(-rc));
	pmc__clear_reason();
	return pmc_seterror(rc, c, "%s: %s", ctx, inner);
}

/*
 * A reason kept across a cleanup whose calls clear or overwrite the channel
 * (every public call clears it on entry: releasing the PMCs of a failed
 * event, ending a child, closing a file): pmc__err_save(&sv, rc) before,
 * `return pmc__err_restore(&sv)` after, which records the saved reason and
 * cause again (or, if none was recorded, only errno) and returns rc.
 */
struct pmc__errsave {
	int rc;
	enum pmc_errcause cause;
	char msg[512];
};
static inline void pmc__err_save(struct pmc__errsave *sv, int rc)
{
	sv->rc = rc;
	sv->cause = pmc_errcause();
	snprintf(sv->msg, sizeof(sv->msg), "%s", sv->cause != PMC_CAUSE_NONE ? pmc_errmsg() : "");
}
static inline int pmc__err_restore(const struct pmc__errsave *sv)
{
	pmc__clear_reason();
	if (sv->cause != PMC_CAUSE_NONE)
		return pmc_seterror(sv->rc, sv->cause, "%s", sv->msg);
	if (sv->rc < 0)
		errno = -sv->rc;
	return sv->rc;
}

/* ---- libpmc only (lib/common/error.c) ------------------------------------ */

/* Record a reason without failing yet (the return value comes later); errno
 * is left alone. */
void pmc__set_reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A warning through the printer of pmc_set_print() (stderr by default). */
void pmc__print(enum pmc_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
#define pmc__warn(...) pmc__print(PMC_PRINT_WARN, __VA_ARGS__)

/* Public-call epilogue: rc >= 0 passes through; rc < 0 sets errno = -rc,
 * supplies a default reason (strerror) if none was set, and returns -1. */
int pmc__ret(int rc);

#endif
