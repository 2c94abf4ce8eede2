/* error.c — the per-thread reason channel behind pmc_errmsg() and
 * pmc_errcause(), written through pmc_seterror() (common/error.h says how
 * every layer uses it), and the printer of the library's warnings
 * (pmc_set_print). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pmc.h"
#include "common/error.h"

static _Thread_local char reason[512];
static _Thread_local int reason_set;
static _Thread_local enum pmc_errcause cause;

/* First reason wins (the deepest layer knows best). */
static void vset(enum pmc_errcause c, const char *fmt, va_list ap)
{
	if (reason_set)
		return;
	vsnprintf(reason, sizeof(reason), fmt, ap);
	reason_set = 1;
	cause = c;
}

static void set(enum pmc_errcause c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(c, fmt, ap);
	va_end(ap);
}

int pmc_seterror(int err, enum pmc_errcause c, const char *fmt, ...)
{
	va_list ap;

	if (err == 0) {
		reason[0] = '\0';
		reason_set = 0;
		cause = PMC_CAUSE_NONE;
		return 0;
	}
	if (err > 0)
		err = -err;
	if (c == PMC_CAUSE_NONE)
		c = err == -ENOMEM ? PMC_CAUSE_NOMEM : PMC_CAUSE_OTHER;
	if (fmt) {
		va_start(ap, fmt);
		vset(c, fmt, ap);
		va_end(ap);
	} else {
		set(c, "%s", strerror(-err));
	}
	errno = -err;
	return err;
}

void pmc__set_reason(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(PMC_CAUSE_OTHER, fmt, ap);
	va_end(ap);
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
		set(rc == -ENOMEM ? PMC_CAUSE_NOMEM : PMC_CAUSE_OTHER, "%s", errname(-rc));
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

static int print_stderr(enum pmc_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

static pmc_print_fn_t printer = print_stderr;

pmc_print_fn_t pmc_set_print(pmc_print_fn_t fn)
{
	pmc_print_fn_t old = printer;

	printer = fn;
	return old;
}

void pmc__print(enum pmc_print_level level, const char *fmt, ...)
{
	pmc_print_fn_t fn = printer;
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	fn(level, fmt, ap);
	va_end(ap);
}
