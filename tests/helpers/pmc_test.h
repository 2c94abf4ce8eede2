/*
 * pmc_test.h — what the cmocka programs that call libpmc's public API share:
 * the group setup and teardown (pmc_init / pmc_fini), the checks of the
 * FreeBSD error convention (-1 with errno; the Linux extensions
 * pmc_errmsg() and pmc_errcause() say why), and a CPU burner.  Include it
 * after <cmocka.h>; unit tests build with -Itests.
 */
#ifndef PMC_TEST_H
#define PMC_TEST_H

#include <errno.h>
#include <time.h>

#include "pmc.h"

static inline int pmc_test_setup(void **state)
{
	(void)state;
	return pmc_init();
}

static inline int pmc_test_teardown(void **state)
{
	(void)state;
	pmc_fini();
	return 0;
}

/* FreeBSD style: the call returns -1 and errno says why. */
#define EXPECT_ERRNO(call, e) do { \
	errno = 0; \
	assert_int_equal((call), -1); \
	assert_int_equal(errno, (e)); \
} while (0)

/* The same, and the reason channel has a sentence for it. */
#define EXPECT_ERR(call, e) do { \
	EXPECT_ERRNO(call, e); \
	assert_true(pmc_errmsg()[0] != '\0'); \
	assert_int_not_equal(pmc_errcause(), PMC_CAUSE_NONE); \
} while (0)

/* PMC_TEST_ASAN: 1 in a build with AddressSanitizer, whose runtime owns
 * the allocator (no malloc to replace, no heap size worth measuring). */
#if defined(__SANITIZE_ADDRESS__)
#define PMC_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMC_TEST_ASAN 1
#endif
#endif
#ifndef PMC_TEST_ASAN
#define PMC_TEST_ASAN 0
#endif

/* Burn about ms of this thread's CPU time. */
static inline void pmc_test_spin_ms(int ms)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

#endif
