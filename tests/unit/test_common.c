/*
 * test_common.c — lib/common's small shared pieces: the one ELF note walker
 * (build ids of the kernel and of mapped files) and the one ARMv8-to-generic
 * event map (the event layer and the simulated PMU), and the one way to open a
 * library on first use.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "common/armv8.h"
#include "common/dynlib.h"
#include "common/error.h"
#include "common/elfnote.h"
#include "common/grow.h"
#include "common/hmap.h"

/* Append one note (namesz, descsz, type, name, desc, each 4-aligned). */
static size_t note(unsigned char *p, const char *name, uint32_t type, const void *desc,
    uint32_t descsz)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1, h[3] = { namesz, descsz, type };
	size_t off = 0;

	memcpy(p, h, 12);
	off = 12;
	memset(p + off, 0, (namesz + 3) & ~3u);
	memcpy(p + off, name, namesz);
	off += (namesz + 3) & ~3u;
	memset(p + off, 0, (descsz + 3) & ~3u);
	memcpy(p + off, desc, descsz);
	return off + ((descsz + 3) & ~3u);
}

static void test_build_id_found_after_other_notes(void **state)
{
	unsigned char buf[256], id[20];
	const uint8_t want[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
				   17, 18, 19, 20 };
	size_t n = 0;

	(void)state;
	n += note(buf + n, "Linux", 3, "xyz", 3);       /* type 3, not GNU's */
	n += note(buf + n, "GNU", 1, "abcd", 4);        /* GNU, not a build id */
	n += note(buf + n, "GNU", 3, want, 20);
	memset(id, 0xee, sizeof(id));
	assert_int_equal(pmc__elfnote_build_id(buf, n, id), 20);
	assert_memory_equal(id, want, 20);
}

static void test_build_id_short_and_long(void **state)
{
	unsigned char buf[256], id[20], big[32];
	size_t n;

	(void)state;
	n = note(buf, "GNU", 3, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
	memset(id, 0xee, sizeof(id));
	assert_int_equal(pmc__elfnote_build_id(buf, n, id), 8);
	assert_memory_equal(id, "\x11\x22\x33\x44\x55\x66\x77\x88", 8);
	for (int i = 8; i < 20; i++)
		assert_int_equal(id[i], 0);      /* zero-filled past the id */
	for (int i = 0; i < 32; i++)
		big[i] = (unsigned char)i;
	n = note(buf, "GNU", 3, big, 32);
	assert_int_equal(pmc__elfnote_build_id(buf, n, id), 20);   /* cut, as perf does */
	assert_memory_equal(id, big, 20);
}

static void test_build_id_never_reads_past_the_end(void **state)
{
	unsigned char buf[256], id[20];
	const uint8_t want[20] = { 0 };
	size_t n;

	(void)state;
	n = note(buf, "GNU", 3, want, 20);
	for (size_t cut = 0; cut < n; cut++)
		assert_int_equal(pmc__elfnote_build_id(buf, cut, id), 0);
	/* a descsz that would run off the end, or wrap */
	n = note(buf, "GNU", 3, want, 20);
	memcpy(buf + 4, &(uint32_t){ 0xfffffff0u }, 4);
	assert_int_equal(pmc__elfnote_build_id(buf, n, id), 0);
	memcpy(buf + 4, &(uint32_t){ 20 }, 4);
	memcpy(buf, &(uint32_t){ 0xfffffffdu }, 4);
	assert_int_equal(pmc__elfnote_build_id(buf, n, id), 0);
	assert_int_equal(pmc__elfnote_build_id(buf, 0, id), 0);
}

static void test_armv8_generic_map(void **state)
{
	static const struct { uint64_t generic; unsigned evt; } kernel[] = {
		{ PERF_COUNT_HW_CPU_CYCLES, 0x11 }, { PERF_COUNT_HW_INSTRUCTIONS, 0x08 },
		{ PERF_COUNT_HW_CACHE_REFERENCES, 0x04 }, { PERF_COUNT_HW_CACHE_MISSES, 0x03 },
		{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0x21 }, { PERF_COUNT_HW_BRANCH_MISSES, 0x10 },
		{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0x23 },
		{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 0x24 },
	};
	unsigned evt;
	uint64_t g;

	(void)state;
	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++) {
		assert_int_equal(pmc__armv8_of_generic(kernel[i].generic, &evt), 0);
		assert_int_equal(evt, kernel[i].evt);
		assert_int_equal(pmc__armv8_to_generic(kernel[i].evt, &g), 0);
		assert_int_equal(g, kernel[i].generic);
	}
	assert_int_equal(pmc__armv8_of_generic(PERF_COUNT_HW_REF_CPU_CYCLES, &evt), -ENOENT);
	assert_int_equal(pmc__armv8_to_generic(0x1b /* INST_SPEC */, &g), -ENOENT);
}

/* A library opened by name hands back the very functions the program
 * calls (libc's, already loaded); a missing library or symbol is one
 * message naming it. */
static void test_dl_load(void **state)
{
	static const char *const names[] = { "getpid", "getppid" };
	static const char *const bad[] = { "getpid", "pmc_no_such_function" };
	static const char *const one[] = { "getpid" };
	void *f[2] = { NULL, NULL };
	pid_t (*gp)(void) = NULL;
	(void)state;
	pmc__clear_reason();
	assert_int_equal(pmc__dl_load("libc.so.6", names, f, 2), 0);
	assert_string_equal(pmc_errmsg(), "");
	PMC_DL_SET(gp, f[0]);
	assert_int_equal(gp(), getpid());
	assert_ptr_not_equal(f[1], NULL);

	/* the reasons go through the channel (no message buffer) */
	assert_int_equal(pmc__dl_load("libpmc-no-such-library.so.9", one, f, 1), -ENOENT);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(pmc_errmsg(), "cannot load libpmc-no-such-library.so.9"));
	pmc__clear_reason();
	assert_int_equal(pmc__dl_load("libc.so.6", bad, f, 2), -ENOENT);
	assert_string_equal(pmc_errmsg(),
	    "libc.so.6 has no pmc_no_such_function (a version this pmc was not built for?)");
	pmc__clear_reason();
}

/* hmap.h's index over a caller's array: keys by the caller's compare, the
 * entries in the order added; a weak hash (every key one of 4 values) makes
 * long probe runs, which growth, hidx_unadd and hidx_clear/hidx_put keep
 * right. */
struct ix_tab {
	uint64_t *k;
	size_t n, cap;
	struct hidx ix;
};

static int ix_eq(const void *tab, uint32_t i, const void *key)
{
	return ((const struct ix_tab *)tab)->k[i] == *(const uint64_t *)key;
}

static int64_t ix_add(struct ix_tab *t, uint64_t key)
{
	int added;
	struct hidx_slot *s = hidx_get(&t->ix, key & 3, 16, ix_eq, t, &key, (uint32_t)t->n, &added);
	assert_non_null(s);
	if (!added)
		return s->v - 1;
	assert_int_equal(GROW(t->k, t->n, t->cap), 0);
	t->k[t->n] = key;
	return (int64_t)t->n++;
}

static void test_hidx_find_or_add(void **state)
{
	struct ix_tab t = { 0 };
	(void)state;
	assert_int_equal(hidx_find(&t.ix, 0, ix_eq, &t, &(uint64_t){ 7 }), -1);   /* empty */
	for (uint64_t k = 0; k < 1000; k++)
		assert_int_equal(ix_add(&t, k * 7), (int64_t)k);           /* new: in order */
	assert_int_equal(t.ix.n, 1000);
	assert_true(t.ix.cap >= 2000);                                 /* grown at half full */
	for (uint64_t k = 0; k < 1000; k++) {
		assert_int_equal(ix_add(&t, k * 7), (int64_t)k);           /* found, not added */
		uint64_t key = k * 7;
		assert_int_equal(hidx_find(&t.ix, key & 3, ix_eq, &t, &key), (int64_t)k);
	}
	assert_int_equal(t.n, 1000);
	uint64_t absent = 3;
	assert_int_equal(hidx_find(&t.ix, absent & 3, ix_eq, &t, &absent), -1);

	/* a slot taken back: the key is absent again, the others still found */
	int added;
	struct hidx_slot *s = hidx_get(&t.ix, absent & 3, 16, ix_eq, &t, &absent, (uint32_t)t.n,
	    &added);
	assert_true(added);
	hidx_unadd(&t.ix, s);
	assert_int_equal(hidx_find(&t.ix, absent & 3, ix_eq, &t, &absent), -1);
	assert_int_equal(t.ix.n, 1000);

	/* the array compacted (every other entry), indexed again */
	size_t m = 0;
	for (size_t i = 0; i < t.n; i += 2)
		t.k[m++] = t.k[i];
	t.n = m;
	hidx_clear(&t.ix);
	for (size_t i = 0; i < t.n; i++)
		hidx_put(&t.ix, t.k[i] & 3, (uint32_t)i);
	for (size_t i = 0; i < 1000; i++) {
		uint64_t key = i * 7;
		assert_int_equal(hidx_find(&t.ix, key & 3, ix_eq, &t, &key),
		    i % 2 ? -1 : (int64_t)(i / 2));
	}
	hidx_free(&t.ix);
	free(t.k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_id_found_after_other_notes),
		cmocka_unit_test(test_build_id_short_and_long),
		cmocka_unit_test(test_build_id_never_reads_past_the_end),
		cmocka_unit_test(test_armv8_generic_map),
		cmocka_unit_test(test_dl_load),
		cmocka_unit_test(test_hidx_find_or_add),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
