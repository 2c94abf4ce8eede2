/*
 * test_grow.c — common/grow.h, the one growth policy of a growable array:
 * GROW (one more, first 64, doubling), GROW_N / GROW_FROM (room for several
 * at once, straight to the power-of-two multiple that fits) and grow__cap for
 * parallel arrays; an overflowing or impossible growth answers -1 and keeps
 * the array as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/grow.h"

static void test_grow_one_doubles_from_64(void **state)
{
	int *v = NULL;
	size_t n = 0, cap = 0;
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(GROW(v, n, cap), 0);
		v[n++] = i;
		if (n <= 64)
			assert_int_equal(cap, 64);
		else if (n <= 128)
			assert_int_equal(cap, 128);
	}
	assert_int_equal(cap, 1024);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(v[i], i);
	/* no growth while there is room */
	size_t before = cap;
	n = 10;
	assert_int_equal(GROW(v, n, cap), 0);
	assert_int_equal(cap, before);
	free(v);
}

static void test_grow_n_jumps_to_fitting_multiple(void **state)
{
	char *v = NULL;
	size_t n = 0, cap = 0;
	assert_int_equal(GROW_N(v, n, cap, 10), 0);
	assert_int_equal(cap, 64);
	n = 60;
	assert_int_equal(GROW_N(v, n, cap, 4), 0);   /* 64 fits exactly */
	assert_int_equal(cap, 64);
	assert_int_equal(GROW_N(v, n, cap, 5), 0);   /* 65 -> 128 */
	assert_int_equal(cap, 128);
	assert_int_equal(GROW_N(v, n, cap, 100000), 0); /* straight to 128 * 1024 */
	assert_int_equal(cap, 131072);
	memset(v, 1, n + 100000);
	free(v);

	v = NULL, n = 0, cap = 0;
	assert_int_equal(GROW_FROM(v, n, cap, 1, 4096), 0);
	assert_int_equal(cap, 4096);
	assert_int_equal(GROW_FROM(v, n, cap, 5000, 4096), 0);
	assert_int_equal(cap, 8192);
	free(v);
}

static void test_grow_cap_policy(void **state)
{
	assert_int_equal(grow__cap(0, 1, 64), 64);
	assert_int_equal(grow__cap(64, 65, 64), 128);
	assert_int_equal(grow__cap(64, 64, 64), 64);
	assert_int_equal(grow__cap(0, 1000, 256), 1024);
	assert_int_equal(grow__cap(3, 7, 64), 12);       /* from the capacity it has */
	assert_int_equal(grow__cap(0, 5, 0), 8);
	assert_int_equal(grow__cap(1, SIZE_MAX, 64), 0); /* doubling overflows */
	assert_int_equal(grow__cap(0, (SIZE_MAX >> 1) + 1, 1), (SIZE_MAX >> 1) + 1);
}

static void test_grow_overflow_refused_array_kept(void **state)
{
	uint64_t *v = NULL;
	size_t n = 0, cap = 0;
	assert_int_equal(GROW(v, n, cap), 0);
	v[0] = 42;
	n = 1;
	uint64_t *old = v;
	/* n + more overflows size_t */
	assert_int_equal(GROW_N(v, n, cap, SIZE_MAX), -1);
	assert_ptr_equal(v, old);
	assert_int_equal(cap, 64);
	/* the element count fits size_t, its byte size does not */
	assert_int_equal(GROW_N(v, n, cap, SIZE_MAX / 4), -1);
	assert_ptr_equal(v, old);
	assert_int_equal(cap, 64);
	assert_int_equal(v[0], 42);
	free(v);
}

static void test_grow_out_of_memory_array_kept(void **state)
{
	char *v = NULL;
	size_t n = 0, cap = 0;
	assert_int_equal(GROW(v, n, cap), 0);
	strcpy(v, "kept");
	n = 5;
	char *old = v;
	/* SIZE_MAX/2 bytes: a size realloc cannot give */
	assert_int_equal(GROW_N(v, n, cap, SIZE_MAX / 2 - 10), -1);
	assert_ptr_equal(v, old);
	assert_int_equal(cap, 64);
	assert_string_equal(v, "kept");
	/* and the array still grows afterwards */
	assert_int_equal(GROW_N(v, n, cap, 100), 0);
	assert_int_equal(cap, 128);
	assert_string_equal(v, "kept");
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_one_doubles_from_64),
		cmocka_unit_test(test_grow_n_jumps_to_fitting_multiple),
		cmocka_unit_test(test_grow_cap_policy),
		cmocka_unit_test(test_grow_overflow_refused_array_kept),
		cmocka_unit_test(test_grow_out_of_memory_array_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
