/*
 * test_event_pfm.c — vendor event names through libpfm4, which lib/event
 * opens on first use rather than linking (event_pfm.c): the library is not
 * in the process until a vendor name needs it, and then it encodes and
 * lists as it did when linked.  LIBPFM_FORCE_PMU makes libpfm4 take one
 * known PMU as present, so the answers do not depend on this host's CPU.
 * A program of its own: libpfm4 reads that variable once, at its first use.
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmc.h"
#include "common/error.h"
#include "event/event_pfm.h"

#if defined(__x86_64__) || defined(__i386__)
#define FORCED_PMU "amd64_fam17h_zen2"
#define EVENT "RETIRED_INSTRUCTIONS"
#define EVENT_CONFIG 0xc0   /* AMD PPR: Retired Instructions, PMCx0C0 */
#endif

struct walk { unsigned n, found; };

static int one(const char *pmu, const char *event, const char *desc, void *arg)
{
	struct walk *w = arg;

	(void)desc;
	w->n++;
	if (strcmp(pmu, FORCED_PMU) == 0 && strcmp(event, EVENT) == 0)
		w->found++;
	return 0;
}

static void test_opened_on_first_use(void **state)
{
	struct ev_pfm_enc enc;
	struct walk w = { 0, 0 };

	(void)state;
#ifndef FORCED_PMU
	skip();   /* no PMU of this architecture chosen to force */
#else
	/* not linked: nothing has needed it yet */
	assert_null(dlopen("libpfm.so.4", RTLD_LAZY | RTLD_NOLOAD));
	assert_int_equal(ev__pfm_core_present(), 1);
	assert_non_null(dlopen("libpfm.so.4", RTLD_LAZY | RTLD_NOLOAD));

	assert_int_equal(ev__pfm_encode(EVENT, &enc), 0);
	assert_int_equal(enc.type, 4 /* PERF_TYPE_RAW */);
	assert_int_equal(enc.config & 0xff, EVENT_CONFIG);
	assert_int_equal(ev__pfm_encode(FORCED_PMU "::" EVENT ":u", &enc), 0);
	assert_int_equal(enc.exclude_kernel, 1);
	assert_int_equal(ev__pfm_encode("PMC_NO_SUCH_EVENT", &enc), -ENOENT);
	/* a known event with a bad modifier: libpfm4's own message */
	pmc__clear_reason();
	assert_int_equal(ev__pfm_encode(EVENT ":nosuchmod", &enc), -EINVAL);
	assert_non_null(strstr(pmc_errmsg(), "nosuchmod"));

	assert_int_equal(ev__pfm_walk(one, &w), 0);
	assert_true(w.n > 10);
	assert_int_equal(w.found, 1);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opened_on_first_use),
	};
#ifdef FORCED_PMU
	setenv("LIBPFM_FORCE_PMU", FORCED_PMU, 1);
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
