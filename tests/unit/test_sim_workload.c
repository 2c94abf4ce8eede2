/*
 * test_sim_workload.c — the workload file format: the bundled examples
 * parse and their exact totals are what their comments say; syntax and
 * graph errors name the line; synthetic symbols resolve.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmc.h"
#include "common/error.h"
#include "backend/sim/workload.h"
#include "symbols/symbols.h"

static struct simwl *load(const char *path)
{
	struct simwl *w = NULL;

	if (simwl__load(path, &w))
		fail_msg("%s", pmc_errmsg());
	return w;
}

static void test_examples_totals(void **s)
{
	struct simwl *w;
	const struct simwl_func *f;

	(void)s;
	w = load("examples/sim/hot70.wl");
	f = &w->funcs[w->procs[0].entry];
	assert_int_equal(f->self[SIMWL_CYCLES], 100009108);
	assert_int_equal(f->self[SIMWL_INSNS], 160014427);
	assert_int_equal(w->funcs[simwl__find_func(w, "hot")].self[SIMWL_CYCLES], 864197);
	assert_int_equal(f->nproc, 0);
	simwl__free(w);

	w = load("examples/sim/forktree.wl");
	f = &w->funcs[w->procs[0].entry];
	assert_int_equal(f->self[SIMWL_CYCLES], 1500000);      /* root alone */
	assert_int_equal(f->tree[SIMWL_CYCLES], 21500000);
	assert_int_equal(f->tree[SIMWL_INSNS], 24500000);
	assert_int_equal(f->nproc, 6);
	assert_int_equal(w->funcs[w->procs[1].entry].self[SIMWL_CYCLES], 2000000);
	assert_int_equal(w->funcs[w->procs[2].entry].self[SIMWL_INSNS], 4000000);
	simwl__free(w);

	w = load("examples/sim/threads.wl");
	f = &w->funcs[w->procs[0].entry];
	assert_int_equal(f->self[SIMWL_CYCLES], 24010000);
	assert_int_equal(f->self[SIMWL_INSNS], 36010000);
	assert_int_equal(f->nproc, 3);
	assert_int_equal(w->procs[0].exit_code, 3);
	assert_string_equal(w->procs[0].comm, "threads");
	simwl__free(w);
}

static void expect_error(const char *text, const char *needle)
{
	struct simwl *w = NULL;

	pmc__clear_reason();     /* an internal call: the caller starts the attempt */
	assert_int_equal(simwl__parse(text, "t.wl", &w), -EINVAL);
	assert_null(w);
	if (!strstr(pmc_errmsg(), needle))
		fail_msg("error '%s' lacks '%s'", pmc_errmsg(), needle);
}

static void test_errors(void **s)
{
	(void)s;
	expect_error("function f\n  work cycles=1\n", "t.wl:1: no process");
	expect_error("process p entry=g\nfunction f\n  work cycles=1\n", "t.wl:1: unknown function 'g'");
	expect_error("process p entry=f\nfunction f\n  work cycles=1\n  call f\n",
		     "recursion");
	expect_error("process p entry=f\nfunction f\n  work cycles=1\n  call g\n"
		     "function g\n  work cycles=1\n  call f\n", "recursion");
	expect_error("process p entry=f\nprocess q entry=g\nfunction f\n  work cycles=1\n"
		     "  fork q\nfunction g\n  work cycles=1\n  fork p\n", "recursion");
	expect_error("process p entry=f\nfunction f\n  work instructions=5\n",
		     "t.wl:3: work needs cycles");
	expect_error("process p entry=f\nfunction f\n  work cycles=10 instructions=161\n",
		     "t.wl:3: more than 16 events");
	expect_error("process p entry=f\nfunction f\n  work cycles=1 foo=2\n",
		     "t.wl:3: unknown work key 'foo'");
	expect_error("process p entry=f\nfunction f\n  call nothere\n", "unknown function 'nothere'");
	expect_error("process p entry=f\nfunction f\n  wait\n", "does no work");
	expect_error("process p entry=f\nfunction f\n  work cycles=1x\n", "bad number");
	expect_error("process p entry=f\n  work cycles=1\nfunction f\n  work cycles=1\n",
		     "t.wl:2: 'work' outside a function");
	expect_error("process p entry=f\nfunction f\n  work cycles=1\nfunction f\n", "defined twice");
	expect_error("process p entry=f exit=300\nfunction f\n  work cycles=1\n", "exit code");
	expect_error("process p entry=f\nfunction f\n  work cycles=1\n  thread f 10001\n",
		     "at most");
	expect_error("process p entry=f\nfunction f\n  work cycles=1\n  bogus\n",
		     "t.wl:4: unknown statement 'bogus'");
	{
		struct simwl *w;

		assert_int_equal(simwl__load("/nonexistent.wl", &w), -ENOENT);
	}
}

static void sym_cb(void *arg, const char *name, uint64_t start, uint64_t size)
{
	char *out = arg;
	char line[128];

	snprintf(line, sizeof(line), "%s@%llx+%llx;", name, (unsigned long long)start,
		 (unsigned long long)size);
	strcat(out, line);
}

static void test_symbols(void **s)
{
	struct simwl *w = NULL;
	char out[512] = "";
	FILE *f;
	char *buf = NULL;
	size_t len = 0;

	(void)s;
	assert_int_equal(simwl__parse("# comment\nprocess p entry=main\n\n"
				      "function main   # trailing comment\n"
				      "    work cycles=1_000 instructions=2k\n    call leaf 3\n"
				      "function leaf\n    work cycles=1M\n",
				      "x.wl", &w), 0);
	assert_int_equal(w->funcs[0].self[SIMWL_CYCLES], 3001000);
	assert_int_equal(w->funcs[0].self[SIMWL_INSNS], 2000);
	simwl__symbols(w, sym_cb, out);
	assert_string_equal(out, "main@401000+1000;leaf@402000+1000;");
	assert_int_equal(simwl__func_at(w, 0x401abc), 0);
	assert_int_equal(simwl__func_at(w, 0x402000), 1);
	assert_int_equal(simwl__func_at(w, 0x403000), -1);
	assert_int_equal(simwl__func_at(w, 0x400fff), -1);
	assert_int_equal(simwl__op_addr(w, 0, 1), 0x401050);
	assert_int_equal(simwl__map_len(w), 0x3000);
	f = open_memstream(&buf, &len);
	assert_int_equal(simwl__write_perfmap(w, f), 0);
	fclose(f);
	assert_string_equal(buf, "401000 1000 main\n402000 1000 leaf\n");
	free(buf);
	simwl__free(w);
	assert_int_equal(simwl__load("Makefile", &w), -EINVAL);
	assert_int_equal(simwl__load("/nonexistent.wl", &w), -ENOENT);
}

/* The path a report takes: a workload file, the perf map its executable
 * mapping names (simwl__write_image), and analysis reading that map as a
 * mapped non-ELF file. */
static void test_symbols_through_map(void **s)
{
	static const struct { uint64_t pc; const char *name; } want[] = {
		{ 0x401000, "main" }, { 0x402abc, "loop" }, { 0x403010, "hot" },
		{ 0x404fff, "warm" }, { 0x405000, "cold" },
	};
	struct simwl *w = NULL;

	(void)s;
	assert_int_equal(simwl__load("examples/sim/hot70.wl", &w), 0);
	assert_int_equal(simwl__write_image(w), 0);
	assert_non_null(strstr(w->image, "/hot70.wl"));

	struct symtab *st = symtab__new(NULL);
	struct sym_dso *d = symtab__dso(st, w->image, NULL, 0);
	assert_int_equal(sym_dso__kind(d), SYM_DSO_MAPFILE);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const char *name;
		uint64_t start, size;
		assert_int_equal(sym_dso__func(d, sym_dso__addr(d, SIMWL_MAP_START, 0, want[i].pc),
		    &name, &start, &size), 0);
		assert_string_equal(name, want[i].name);
		assert_int_equal(size, 0x1000);
	}
	const char *name;
	uint64_t start, size;
	assert_int_equal(sym_dso__func(d, 0x406000, &name, &start, &size), -1);
	symtab__free(st);
	simwl__free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples_totals),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_symbols_through_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
