/*
 * error.h — how libpmc reports failures.
 *
 * Public calls follow FreeBSD: return -1 with errno set.  Internally, code
 * returns negative errnos and records a human reason with pmc__set_reason();
 * pmc_errmsg() returns that reason (per thread).  A public entry point ends
 * with `return pmc__ret(rc)`, which turns -E into errno = E, -1.
 */
#ifndef PMC_ERROR_H
#define PMC_ERROR_H

#include <stdarg.h>

/* Record why the current call is failing (printf format).  Keeps the first
 * reason set since pmc__clear_reason(): the deepest layer knows best. */
void pmc__set_reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pmc__clear_reason(void);

/* Public-call epilogue: rc >= 0 passes through; rc < 0 sets errno = -rc,
 * supplies a default reason (strerror) if none was set, and returns -1. */
int pmc__ret(int rc);

#endif
