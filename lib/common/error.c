/* error.c — the per-thread reason channel behind pmc_errmsg() and
 * pmc_errcause() (common/error.h says how every layer uses it). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pmc.h"
#include "common/error.h"

static _Thread_local char reason[512];
static _Thread_local int reason_set;
static _Thread_local enum pmc_errcause cause;

void pmc__clear_reason(void)
{
	reason[0] = '\0';
	reason_set = 0;
	cause = PMC_CAUSE_NONE;
}

int pmc__has_reason(void)
{
	return reason_set;
}

/* First reason wins (the deepest layer knows best). */
static void vset(enum pmc_errcause c, const char *fmt, va_list ap)
{
	if (reason_set)
		return;
	vsnprintf(reason, sizeof(reason), fmt, ap);
	reason_set = 1;
	cause = c;
}

void pmc__set_reason(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(PMC_CAUSE_OTHER, fmt, ap);
	va_end(ap);
}

static int fail(int rc)
{
	if (rc < 0)
		errno = -rc;
	return rc;
}

int pmc__err(int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(rc == -ENOMEM ? PMC_CAUSE_NOMEM : PMC_CAUSE_OTHER, fmt, ap);
	va_end(ap);
	return fail(rc);
}

int pmc__err_cause(int rc, enum pmc_errcause c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(c, fmt, ap);
	va_end(ap);
	return fail(rc);
}

int pmc__err_wrap(int rc, const char *fmt, ...)
{
	char ctx[256], inner[sizeof(reason)];
	enum pmc_errcause c = reason_set ? cause : (rc == -ENOMEM ? PMC_CAUSE_NOMEM :
						     PMC_CAUSE_OTHER);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	snprintf(inner, sizeof(inner), "%s", reason_set ? reason : strerror(-rc));
	pmc__clear_reason();
	return pmc__err_cause(rc, c, "%s: %s", ctx, inner);
}

int pmc__nomem(void)
{
	return pmc__err(-ENOMEM, "out of memory");
}

static const char *errname(int e)
{
	switch (e) {
	case EDOOFUS:       return "no log file configured";
	case EPROGMISMATCH: return "program version mismatch";
	default:            return strerror(e);
	}
}

int pmc__ret(int rc)
{
	if (rc >= 0)
		return rc;
	if (!reason_set)
		pmc__err(rc, "%s", errname(-rc));
	errno = -rc;
	return -1;
}

const char *pmc_errmsg(void)
{
	return reason;
}

enum pmc_errcause pmc_errcause(void)
{
	return reason_set ? cause : PMC_CAUSE_NONE;
}
