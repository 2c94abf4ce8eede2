/*
 * test_print.c — libpmc's warnings go through one printer (pmc_set_print,
 * libbpf's libbpf_set_print): the settings it corrects or ignores reach a
 * program's printer whole, NULL silences them, and the default printer
 * writes on stderr the bytes the library always wrote there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc.h"
#include "core/settings.h"

static char got[1024];
static enum pmc_print_level got_level = PMC_PRINT_DEBUG;

static int capture(enum pmc_print_level level, const char *fmt, va_list ap)
{
	size_t n = strlen(got);

	got_level = level;
	return vsnprintf(got + n, sizeof(got) - n, fmt, ap);
}

/* Load the settings again with PMC_<NAME>=value in the environment. */
static long load_with(const char *env, const char *value, const char *name)
{
	long v = -1;

	setenv("PMC_CONFIG", "/dev/null", 1);
	setenv(env, value, 1);
	pmc__settings_reset();
	assert_int_equal(pmc__setting_get(name, &v), 0);
	unsetenv(env);
	pmc__settings_reset();
	return v;
}

static void test_printer(void **state)
{
	(void)state;
	got[0] = '\0';
	pmc_print_fn_t def = pmc_set_print(capture);
	assert_non_null(def);
	assert_int_equal(load_with("PMC_NSAMPLES", "0", "nsamples"), 512);
	assert_string_equal(got, "hwpmc: tunable nsamples=0 out of range.\n");
	assert_int_equal(got_level, PMC_PRINT_WARN);

	got[0] = '\0';
	load_with("PMC_MINCOUNT", "12x", "mincount");
	assert_string_equal(got, "pmc: PMC_MINCOUNT='12x' is not a number, ignored\n");

	/* NULL: nothing printed, the setting still corrected */
	assert_ptr_equal(pmc_set_print(NULL), capture);
	got[0] = '\0';
	assert_int_equal(load_with("PMC_NSAMPLES", "0", "nsamples"), 512);
	assert_string_equal(got, "");
	assert_null(pmc_set_print(def));
}

/* The default printer: stderr, the same bytes as before the printer. */
static void test_default_is_stderr(void **state)
{
	char path[] = "/tmp/test_print.XXXXXX", buf[256] = "";
	int fd = mkstemp(path), saved = dup(2);

	(void)state;
	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	load_with("PMC_CALLCHAINDEPTH", "9999", "callchaindepth");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_true(pread(fd, buf, sizeof(buf) - 1, 0) > 0);
	close(fd);
	unlink(path);
	assert_string_equal(buf, "hwpmc: tunable callchaindepth=9999 out of range (1-512), "
	    "resetting to 128.\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printer),
		cmocka_unit_test(test_default_is_stderr),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
