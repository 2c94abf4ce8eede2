/*
 * dynlib.h — a shared library opened on first use instead of at exec.
 * Some libraries cost more to load than the commands that never use them
 * take to run: libpfm4's event tables carry 41 000 relocations and
 * capstone's 75 000, which the dynamic loader applied at every start of
 * `pmc stat -- true` (docs/BENCHMARKS.md, "Start-up").  Code that needs one
 * of them resolves its few functions here when it first runs.
 */
#ifndef PMC_COMMON_DYNLIB_H
#define PMC_COMMON_DYNLIB_H

#include <stddef.h>

/* Open SONAME (e.g. "libpfm.so.4") and resolve names[0..n) into syms[0..n).
 * 0, or -ENOENT with the reason (common/error.h) saying which library or
 * symbol is missing (syms then holds nothing usable).  The library stays
 * loaded for the life of the process, so the same call again returns the
 * same addresses; callers cache them (pthread_once) rather than calling per
 * use, and cache the reason with the result (pmc_errmsg(), then clear), so
 * that every later call that finds the library missing reports it. */
int pmc__dl_load(const char *soname, const char *const names[], void *syms[], size_t n);

/* Turn a resolved symbol into the function pointer type of FP and store it
 * there: the one cast POSIX allows between data and function pointers. */
#define PMC_DL_SET(fp, sym) ((fp) = (__typeof__(fp))(sym))

#endif
