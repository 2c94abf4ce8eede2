/*
 * test_timefilter.c — --time (profile__parse_time, profile__time_match): perf
 * report/script's forms (util/time-utils.c) on a recording whose samples span
 * 1000 s to 1010 s after boot, and pmc's seconds-from-the-start form.  The
 * integration test tests/integration/time_perf.sh checks the same forms
 * against perf itself on one perf.data.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmc.h"
#include "profile/profile.h"

#define S 1000000000ull          /* ns per second */

static struct profile rec;       /* only its sample span is read */
static struct prof_filter flt;

static int parse(const char *arg)
{
	profile__filter_init(&flt);
	return profile__parse_time(&flt, arg);
}

/* t (ns) passes arg's ranges */
static int in(const char *arg, uint64_t t)
{
	assert_int_equal(parse(arg), 0);
	return profile__time_match(&rec, &flt, t);
}

static int setup(void **state)
{
	(void)state;
	memset(&rec, 0, sizeof(rec));
	rec.first_time = 1000 * S;
	rec.last_time = 1010 * S;
	return 0;
}

static void test_percent_slices(void **state)
{
	(void)state;
	/* 10%/2: the second tenth, [1001 s, 1002 s - 1 ns] (perf's slices end
	 * 1 ns before the next one starts) */
	assert_true(in("10%/2", 1001 * S));
	assert_true(in("10%/2", 2 * S + 1000 * S - 1));
	assert_false(in("10%/2", 1002 * S));
	assert_false(in("10%/2", 1001 * S - 1));
	/* the last slice keeps the last sample */
	assert_true(in("10%/10", 1010 * S));
	/* several slices */
	assert_true(in("10%/1,10%/3", 1000 * S));
	assert_false(in("10%/1,10%/3", 1001 * S + S / 2));
	assert_true(in("10%/1,10%/3", 1002 * S + S / 2));
	/* P%: the first P % */
	assert_true(in("50%", 1005 * S - 1));
	assert_false(in("50%", 1005 * S));
}

static void test_percent_ranges(void **state)
{
	(void)state;
	assert_true(in("0%-10%", 1000 * S));
	assert_false(in("0%-10%", 1001 * S));
	assert_true(in("0%-10%,50%-60%", 1005 * S + S / 2));
	assert_false(in("0%-10%,50%-60%", 1003 * S));
	assert_true(in("90%-100%", 1010 * S));
	assert_true(in("12.5%-25%", 1001 * S + S / 4));
	assert_false(in("12.5%-25%", 1001 * S + S / 4 - 1));
}

static void test_seconds(void **state)
{
	(void)state;
	/* perf's timestamps (as perf script prints them), nanosecond exact */
	assert_true(in("1001.5,1002", 1001 * S + S / 2));
	assert_true(in("1001.5,1002", 1002 * S));
	assert_false(in("1001.5,1002", 1002 * S + 1));
	assert_false(in("1001.5,1002", 1001 * S + S / 2 - 1));
	assert_true(in("1001.123456789,1001.123456789", 1001 * S + 123456789));
	assert_false(in("1001.123456789,1001.123456789", 1001 * S + 123456790));
	/* an empty side, or an END of 0: open */
	assert_true(in(",1003.000000001", 1000 * S));
	assert_false(in(",1003.000000001", 1003 * S + 2));
	assert_true(in("1009,", 1010 * S));
	assert_true(in("1009,0", 1010 * S));
	assert_false(in("1009,0", 1008 * S));
	/* several ranges, separated by spaces */
	assert_true(in("1001,1002 1003,1004", 1003 * S + S / 2));
	assert_false(in("1001,1002 1003,1004", 1002 * S + S / 2));
	/* below the first sample: seconds from the recording's start */
	assert_true(in("1,2", 1001 * S + S / 2));
	assert_false(in("1,2", 1002 * S + 1));
	assert_true(in("0,", 1000 * S));
	assert_true(in("0.25,0.5", 1000 * S + S / 4));
	assert_false(in("0.25,0.5", 1000 * S + S / 4 - 1));
	/* the first sample's time as perf script prints it (microseconds) */
	rec.first_time = 1000 * S + 500;
	assert_true(in("1000,1001", 1000 * S + 500));
	assert_false(in("1000,1001", 1001 * S + 1));
	rec.first_time = 1000 * S;
	/* more than the recording's length (10 s): perf's timestamps */
	assert_true(in("10.5,", 1000 * S));
	assert_true(in("10,", 1010 * S));
	assert_false(in("10,", 1009 * S));
	/* a pmc log's start (its header) is the base, not the first sample */
	rec.hdr.have = 1;
	rec.hdr.start_clock = 999 * S;
	assert_true(in("1,2", 1000 * S));
	assert_false(in("1,2", 1002 * S));
	rec.hdr.have = 0;
	/* zeroed: no filter */
	profile__filter_init(&flt);
	assert_int_equal(flt.time.n, 0);
}

static void test_bad(void **state)
{
	static const char *const bad[] = {
		"10%/0", "nan", "5,3", "%", "", " ", "x", "1,2,3", "1,5 3,8", "1, 3,4", "0%-200%",
		"10%/2,0%-10%", "10%/11", "-5,3", "inf,", "nan%-20%", "10%x/2", "10%/2x", "50",
		"1e400,", "10%,20%", "0%/1", "1,2 1,3",
		/* reversed percent range; seconds past the strtod forms' 1e10 s
		 * (the second range's start once wrapped below the first) */
		"50%-20%", "0%-10%,60%-50%", "18446744069,", "1,2 18446744069,",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		profile__filter_init(&flt);
		if (profile__parse_time(&flt, bad[i]) != -EINVAL)
			fail_msg("--time '%s' was accepted", bad[i]);
		/* one message, naming what is wrong */
		assert_non_null(strchr(pmc_errmsg(), '\''));
		assert_int_equal(flt.time.n, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_percent_slices, setup),
		cmocka_unit_test_setup(test_percent_ranges, setup),
		cmocka_unit_test_setup(test_seconds, setup),
		cmocka_unit_test_setup(test_bad, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
