/*
 * test_nomem.c — out of memory while aggregating is an answer (-ENOMEM,
 * pmc_errmsg() "out of memory", PMC_CAUSE_NOMEM), not abort(): the profile
 * (analysis/profile/profile.c) and the live aggregator of `pmc top` (live.c) keep
 * a sticky out-of-memory flag that their callers see; resolving pcs to
 * locations, functions and binaries answers the same way.
 *
 * The allocation failures are real: this program replaces calloc, malloc
 * and realloc (glibc lets a program do so) with ones that fail while a test
 * says so, and otherwise call glibc's own.  A sanitizer's runtime owns the
 * allocator, so under one the replacement is left out and the tests skip.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "pmclog.h"
#include "helpers/pmc_test.h"
#include "live/live.h"
#include "profile/profile.h"
#include "export/export.h"
#include "report/report.h"
#include "profile/samples.h"
#include "symbols/symbols.h"
#include "profile/tree.h"

#define HOOKED (!PMC_TEST_ASAN)

static int failing;    /* allocations fail while set */

#if HOOKED
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t s);
void *__libc_realloc(void *p, size_t n);

void *malloc(size_t n)
{
	if (failing) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t s)
{
	if (failing) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, s);
}

void *realloc(void *p, size_t n)
{
	if (failing) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_realloc(p, n);
}
#endif

/* A PROCEXIT record: the profile files it in a table of its own (no
 * symbol names interned on the way), so its first allocation is that
 * table's. */
static void procexit(struct pmclog_ev *ev, uint32_t pid)
{
	memset(ev, 0, sizeof(*ev));
	ev->pl_state = PMCLOG_OK;
	ev->pl_type = PMCLOG_TYPE_PROCEXIT;
	ev->pl_u.pl_e.pl_pid = pid;
	ev->pl_u.pl_e.pl_tid = (pid_t)pid;
	ev->pl_u.pl_e.pl_pmcid = 0x100;
	ev->pl_u.pl_e.pl_value = 42;
}

static void assert_nomem(int rc)
{
	assert_int_equal(rc, -ENOMEM);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NOMEM);
	assert_string_equal(pmc_errmsg(), "out of memory");
}

/* profile__feed: -ENOMEM when a table cannot grow, and again after
 * (the profile lacks a record: it stays failed). */
static void test_profile_feed_nomem(void **s)
{
	struct pmclog_ev ev;
	struct profile *p;
	(void)s;
	if (!HOOKED)
		skip();
	assert_non_null(p = profile__new(NULL));
	procexit(&ev, 7);
	failing = 1;
	int rc = profile__feed(p, &ev);
	failing = 0;
	assert_nomem(rc);
	procexit(&ev, 8);
	assert_nomem(profile__feed(p, &ev));
	profile__free(p);
	/* with memory, the same record is taken */
	assert_non_null(p = profile__new(NULL));
	assert_int_equal(profile__feed(p, &ev), 0);
	assert_int_equal(p->npr, 1);
	profile__free(p);
}

/* pmc top's aggregator: live__wait says out of memory. */
static void test_live_nomem(void **s)
{
	struct pmclog_ev ev;
	struct live *lv;
	(void)s;
	if (!HOOKED)
		skip();
	assert_non_null(lv = live__new(NULL));
	procexit(&ev, 7);
	failing = 1;
	live__feed(lv, &ev);
	failing = 0;
	assert_nomem(live__wait(lv));
	live__free(lv);
	assert_non_null(lv = live__new(NULL));
	live__feed(lv, &ev);
	assert_int_equal(live__wait(lv), 0);
	live__free(lv);
}

/* The printers' tables (a call tree, the callgrind costs): -ENOMEM, and
 * the output is not written. */
static void test_printers_nomem(void **s)
{
	struct prof_filter flt = { .ev = -1 };
	struct report_opts o;
	struct profile *p;
	struct ctree t;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;
	(void)s;
	if (!HOOKED)
		skip();
	assert_non_null(p = profile__new(NULL));
	profile__resolve(p);
	failing = 1;
	int rc = tree__build(&t, p, &flt, TREE_CALLER, 0, 0);
	failing = 0;
	assert_nomem(rc);
	memset(&o, 0, sizeof(o));
	o.flt = flt;
	assert_non_null(f = open_memstream(&out, &outlen));
	failing = 1;
	rc = export__callgrind(f, p, &o);
	failing = 0;
	assert_nomem(rc);
	fclose(f);
	free(out);
	profile__free(p);
}

/* The symbol tables: a name that cannot be kept is "?", and the profile
 * that owns them says out of memory from then on. */
static void test_symbols_nomem(void **s)
{
	struct profile *p;
	(void)s;
	if (!HOOKED)
		skip();
	assert_non_null(p = profile__new(NULL));
	assert_int_equal(profile__nomem(p), 0);
	failing = 1;
	const char *name = symtab__intern(p->st, "a name never seen before");
	failing = 0;
	assert_string_equal(name, "?");
	assert_int_equal(symtab__nomem(p->st), 1);
	assert_nomem(profile__nomem(p));
	profile__free(p);
}

/* Resolving (locations, functions, binaries: profile__resolve,
 * profile__locate, symtab__dso): -ENOMEM, sticky on the profile, and the
 * location not made is PROF_NO_IX; with memory the same pc is located. */
static void test_resolving_nomem(void **s)
{
	uint64_t pcs[1] = { 0x1000 };
	uint8_t flags[1] = { PMC_CC_F_USERSPACE };
	uint32_t locs[1];
	struct profile *p;
	(void)s;
	if (!HOOKED)
		skip();
	assert_non_null(p = profile__new(NULL));
	failing = 1;
	int rc = profile__resolve(p);
	failing = 0;
	assert_nomem(rc);
	assert_nomem(profile__nomem(p));
	profile__free(p);

	assert_non_null(p = profile__new(NULL));
	failing = 1;
	rc = profile__locate(p, 5, UINT64_MAX, pcs, flags, 1, locs);
	failing = 0;
	assert_nomem(rc);
	assert_int_equal(locs[0], PROF_NO_IX);
	assert_nomem(profile__nomem(p));
	assert_int_equal(profile__locate(p, 5, UINT64_MAX, pcs, flags, 1, locs), 0);
	assert_true(locs[0] < p->nl);
	assert_true(profile__func_unresolved(p, p->l[locs[0]].func));
	failing = 1;
	struct sym_dso *d = symtab__dso(p->st, "/no/such/binary", NULL, 0);
	failing = 0;
	assert_null(d);
	assert_int_equal(symtab__nomem(p->st), 1);
	profile__free(p);
}

/* The packed sample store (samples.c): an append that cannot grow a column
 * answers -ENOMEM, leaves the store as it was and says so (sticky). */
static void test_samples_nomem(void **s)
{
	struct prof_samples *sm;
	struct prof_sample x = { .stack = 1, .pid = 10, .tid = 10, .time = 1000, .period = 1 }, y;
	(void)s;
	if (!HOOKED)
		skip();
	assert_non_null(sm = samples__new());
	assert_int_equal(samples__append(sm, &x), 0);
	x.tid = 11;                   /* a new context, and the context column splits */
	x.stack = 2;
	failing = 1;
	int rc = samples__append(sm, &x);
	failing = 0;
	assert_nomem(rc);
	assert_int_equal(samples__count(sm), 1);
	assert_int_equal(samples__nomem(sm), 1);
	samples__get(sm, 0, &y);
	assert_int_equal(y.tid, 10);
	assert_int_equal(y.stack, 1);
	assert_int_equal(samples__append(sm, &x), 0);   /* memory again: it goes on */
	samples__get(sm, 1, &y);
	assert_int_equal(y.tid, 11);
	samples__free(sm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_feed_nomem),
		cmocka_unit_test(test_live_nomem),
		cmocka_unit_test(test_printers_nomem),
		cmocka_unit_test(test_symbols_nomem),
		cmocka_unit_test(test_resolving_nomem),
		cmocka_unit_test(test_samples_nomem),
	};
	return cmocka_run_group_tests(tests, pmc_test_setup, pmc_test_teardown);
}
