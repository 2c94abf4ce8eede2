/*
 * test_tunables.c — the pmc CLI's tunables (tools/lib/tunables.c) read
 * through libpmc's public pmc_sysctlbyname, as FreeBSD's programs read
 * kern.hwpmc.*: every name the library's settings know, in pmc(3)'s order,
 * the same values as the library uses (defaults, PMC_<NAME> applied, an
 * out-of-range value reset), the prefix optional, an unknown name refused
 * with a reason.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "core/settings.h"
#include "toolslib/tunables.h"

static void test_names_and_defaults(void **state)
{
	static const char *const want[] = { "callchaindepth", "logbuffersize", "nbuffers_pcpu",
		"nsamples", "mincount" };
	static const long dflt[] = { 128, 256, 32, 512, 1000 };
	int i;
	(void)state;

	setenv("PMC_CONFIG", "/dev/null", 1);
	pmc__settings_reset();
	for (i = 0; tunable__name(i); i++) {
		long v = -1, lib = -2;
		assert_true(i < 5);
		assert_string_equal(tunable__name(i), want[i]);
		assert_int_equal(tunable__get(tunable__name(i), &v), 0);
		assert_int_equal(pmc__setting_get(tunable__name(i), &lib), 0);
		assert_int_equal(v, lib);
		assert_int_equal(v, dflt[i]);
	}
	assert_int_equal(i, PMC_SETTING_COUNT);       /* every setting libpmc has */
	assert_null(tunable__name(-1));
}

static void test_environment_and_prefix(void **state)
{
	long v = 0;
	(void)state;

	setenv("PMC_MINCOUNT", "5000", 1);
	setenv("PMC_NSAMPLES", "70000", 1);             /* out of range: reset */
	pmc__settings_reset();
	assert_int_equal(tunable__get("kern.hwpmc.mincount", &v), 0);
	assert_int_equal(v, 5000);
	assert_int_equal(tunable__get("mincount", &v), 0);
	assert_int_equal(v, 5000);
	assert_int_equal(tunable__get("nsamples", &v), 0);
	assert_int_equal(v, 512);
	unsetenv("PMC_MINCOUNT");
	unsetenv("PMC_NSAMPLES");
	pmc__settings_reset();
}

static void test_unknown(void **state)
{
	long v = 42;
	(void)state;

	assert_int_equal(tunable__get("nonsense", &v), -ENOENT);
	assert_non_null(strstr(pmc_errmsg(), "unknown setting"));
	assert_int_equal(tunable__get("cpuid", &v), -ENOENT);   /* a string, no tunable */
	assert_int_equal(tunable__get(NULL, &v), -ENOENT);
	assert_int_equal(v, 42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_defaults),
		cmocka_unit_test(test_environment_and_prefix),
		cmocka_unit_test(test_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
