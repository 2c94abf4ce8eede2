/* error.c — per-thread failure reasons behind pmc_errmsg(). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pmc.h"
#include "common/error.h"

static _Thread_local char reason[512];
static _Thread_local int reason_set;

void pmc__clear_reason(void)
{
	reason[0] = '\0';
	reason_set = 0;
}

static void vset(const char *fmt, va_list ap)
{
	vsnprintf(reason, sizeof(reason), fmt, ap);
	reason_set = 1;
}

void pmc__set_reason(const char *fmt, ...)
{
	va_list ap;

	if (reason_set)
		return;
	va_start(ap, fmt);
	vset(fmt, ap);
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
	if (rc >= 0) {
		return rc;
	}
	if (!reason_set)
		pmc__set_reason("%s", errname(-rc));
	errno = -rc;
	return -1;
}

const char *pmc_errmsg(void)
{
	return reason;
}
