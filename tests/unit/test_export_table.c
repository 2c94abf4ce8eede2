/*
 * test_export_table.c — the table of `pmc report -F` formats
 * (analysis/export/export.h): every format is a row found by its name, in
 * -F's order; each says what it needs of the profile, and the load options
 * the table gives are those `pmc report` chose per format before the table
 * (leaves only for a flat text or JSON report, the input's order for the
 * reports, sums unless speedscope's timeline or a time window); each row's
 * writer writes the profile loaded with its options.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "pmc.h"
#include "export/export.h"
#include "pprof/profile.pb-c.h"
#include "profile/profile.h"
#include "report/report.h"

static const char *const names[] = { "text", "json", "folded", "pprof", "speedscope",
	"callgrind", "svg", "html" };
#define NNAMES (sizeof(names) / sizeof(names[0]))

static void test_export_table_find(void **state)
{
	size_t n = 0;
	(void)state;
	for (; export__formats[n]; n++) {
		assert_true(n < NNAMES);
		assert_string_equal(export__formats[n]->name, names[n]);
		assert_ptr_equal(export__find(names[n]), export__formats[n]);
		assert_non_null(export__formats[n]->fn);
	}
	assert_int_equal(n, NNAMES);
	assert_ptr_equal(export__formats[0], &export__format_text);
	assert_ptr_equal(export__format_text.fn, report__text);
	assert_ptr_equal(export__format_json.fn, report__json);
	assert_ptr_equal(export__format_pprof.fn, export__pprof);
	assert_null(export__find("bogus"));
	assert_null(export__find(""));
	assert_null(export__find("TEXT"));
	/* the one binary format; the one for a terminal */
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(export__formats[i]->binary, !strcmp(names[i], "pprof"));
		assert_int_equal(export__formats[i]->terminal, !strcmp(names[i], "text"));
	}
}

static void test_export_table_names(void **state)
{
	char buf[256], small[10];
	(void)state;
	export__names(buf, sizeof(buf));
	assert_string_equal(buf, "text, json, folded, pprof, speedscope, callgrind, svg, html");
	export__names(small, sizeof(small));
	assert_string_equal(small, "text, jso");
}

/* The load options of format name with a call graph (cg) or not and a time
 * window (tw) or not, against what cmd_report.c computed per format. */
static void check_opts(const char *name, int cg, int tw)
{
	const struct export_format *f = export__find(name);
	struct report_opts o;
	struct prof_load_opts lo;
	int report = !strcmp(name, "text") || !strcmp(name, "json");
	assert_non_null(f);
	memset(&o, 0, sizeof(o));
	profile__filter_init(&o.flt);
	o.callgraph = cg ? TREE_CALLER : -1;
	o.flt.time.n = tw;
	memset(&lo, 0x55, sizeof(lo));
	export__load_opts(f, &o, &lo);
	assert_int_equal(lo.leaf_only, report && !cg);
	assert_int_equal(lo.input_order, report);
	assert_int_equal(lo.sums, strcmp(name, "speedscope") && !tw);
	assert_int_equal(lo.follow, 0x55555555);   /* the rest as it was */
}

static void test_export_table_load_opts(void **state)
{
	(void)state;
	for (size_t i = 0; i < NNAMES; i++)
		for (int cg = 0; cg < 2; cg++)
			for (int tw = 0; tw < 2; tw++)
				check_opts(names[i], cg, tw);
	/* --children reads whole stacks as a call graph does */
	struct report_opts o;
	struct prof_load_opts lo = { 0 };
	memset(&o, 0, sizeof(o));
	profile__filter_init(&o.flt);
	o.callgraph = -1;
	o.children = 1;
	export__load_opts(&export__format_json, &o, &lo);
	assert_int_equal(lo.leaf_only, 0);
}

/* Each row's writer, on tests/data's log loaded with the row's options. */
static void test_export_table_write(void **state)
{
	char path[PATH_MAX];
	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/log-v2.log",
	    getenv("PMC_ROOT") ? getenv("PMC_ROOT") : ".");
	for (size_t i = 0; export__formats[i]; i++) {
		const struct export_format *fmt = export__formats[i];
		struct report_opts o;
		struct prof_load_opts lo;
		struct profile *p;
		char *out = NULL;
		size_t len = 0;
		memset(&o, 0, sizeof(o));
		memset(&lo, 0, sizeof(lo));
		profile__filter_init(&o.flt);
		o.callgraph = -1;
		o.cg_threshold = 0.5;
		o.inline_frames = 1;
		assert_int_equal(report__parse_sort(&o, "comm,dso,sym"), 0);
		export__load_opts(fmt, &o, &lo);
		assert_int_equal(profile__load(&p, path, &lo), 0);
		FILE *f = open_memstream(&out, &len);
		assert_non_null(f);
		assert_int_equal(fmt->fn(f, p, &o), 0);
		fclose(f);
		assert_true(len > 0);
		free(out);
		profile__free(p);
	}
}

/* pprof's string table holds each string once, found by content: log-v1's
 * unresolved binary's path and its unresolved function's name are both
 * "[unknown]", kept apart (one string at two addresses) when the table
 * hashed the pointer. */
static void test_export_table_pprof_strings(void **state)
{
	char path[PATH_MAX];
	struct report_opts o;
	struct prof_load_opts lo;
	struct profile *p;
	char *out = NULL;
	size_t len = 0;
	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/log-v1.log",
	    getenv("PMC_ROOT") ? getenv("PMC_ROOT") : ".");
	memset(&o, 0, sizeof(o));
	memset(&lo, 0, sizeof(lo));
	profile__filter_init(&o.flt);
	o.callgraph = -1;
	o.inline_frames = 1;
	export__load_opts(&export__format_pprof, &o, &lo);
	assert_int_equal(profile__load(&p, path, &lo), 0);
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(export__pprof(f, p, &o), 0);
	fclose(f);
	profile__free(p);

	size_t cap = 1 << 22;
	unsigned char *raw = malloc(cap);
	z_stream z;
	memset(&z, 0, sizeof(z));
	assert_non_null(raw);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (unsigned char *)out;
	z.avail_in = (uInt)len;
	z.next_out = raw;
	z.avail_out = (uInt)cap;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	Perftools__Profiles__Profile *prof =
	    perftools__profiles__profile__unpack(NULL, z.total_out, raw);
	inflateEnd(&z);
	assert_non_null(prof);
	int unknown = 0;
	assert_true(prof->n_string_table > 1);
	assert_string_equal(prof->string_table[0], "");
	for (size_t i = 0; i < prof->n_string_table; i++) {
		unknown += !strcmp(prof->string_table[i], "[unknown]");
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(prof->string_table[i], prof->string_table[j]);
	}
	assert_int_equal(unknown, 1);
	perftools__profiles__profile__free_unpacked(prof, NULL);
	free(raw);
	free(out);
}

static const char *a_warning(void)
{
	return "cache directory /x/pmc is writable by other users (needs mode 0700): not used";
}

/* The text report's Warnings list takes the caller's warning (pmc report's:
 * the kernel-symbol cache's refusal), asked for when it is printed; none
 * without one. */
static void test_export_table_report_warning(void **state)
{
	char path[PATH_MAX];
	(void)state;
	snprintf(path, sizeof(path), "%s/tests/data/log-v2.log",
	    getenv("PMC_ROOT") ? getenv("PMC_ROOT") : ".");
	for (int with = 0; with < 2; with++) {
		struct report_opts o;
		struct prof_load_opts lo;
		struct profile *p;
		char *out = NULL;
		size_t len = 0;
		memset(&o, 0, sizeof(o));
		memset(&lo, 0, sizeof(lo));
		profile__filter_init(&o.flt);
		o.callgraph = -1;
		assert_int_equal(report__parse_sort(&o, "comm,dso,sym"), 0);
		o.warning = with ? a_warning : NULL;
		export__load_opts(&export__format_text, &o, &lo);
		assert_int_equal(profile__load(&p, path, &lo), 0);
		FILE *f = open_memstream(&out, &len);
		assert_non_null(f);
		assert_int_equal(export__format_text.fn(f, p, &o), 0);
		fclose(f);
		const char *w = strstr(out, "#   cache directory /x/pmc is writable by other users "
		    "(needs mode 0700): not used\n");
		if (with) {
			assert_non_null(w);
			assert_non_null(strstr(out, "# Warnings:\n"));
			assert_true(strstr(out, "# Warnings:\n") < w);
		} else {
			assert_null(w);
		}
		free(out);
		profile__free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export_table_find),
		cmocka_unit_test(test_export_table_names),
		cmocka_unit_test(test_export_table_load_opts),
		cmocka_unit_test(test_export_table_write),
		cmocka_unit_test(test_export_table_pprof_strings),
		cmocka_unit_test(test_export_table_report_warning),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
