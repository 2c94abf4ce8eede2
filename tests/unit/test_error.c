/*
 * test_error.c — the one error convention (lib/common/error.h): the first
 * reason recorded wins, errno follows the return value, a typed cause goes
 * with the reason, a reason raised deep in one layer reaches the caller of
 * another (event parser -> core -> public call; perf.data reader ->
 * analysis), and out-of-memory exits answer ENOMEM instead of aborting.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc.h"
#include "common/error.h"
#include "common/sysinfo.h"
#include "helpers/pmc_test.h"
#include "perfdata/perfdata.h"
#include "profile/profile.h"

static void test_first_reason_wins(void **s)
{
	(void)s;
	pmc__clear_reason();
	assert_string_equal(pmc_errmsg(), "");
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NONE);
	errno = 0;
	assert_int_equal(pmc__err(-EINVAL, "deep: %d", 7), -EINVAL);
	assert_int_equal(errno, EINVAL);
	/* a shallower layer passing the failure up keeps the deeper reason,
	 * while its own return value and errno win */
	assert_int_equal(pmc__err_cause(-EIO, PMC_CAUSE_NO_PMU, "shallow"), -EIO);
	assert_int_equal(errno, EIO);
	assert_string_equal(pmc_errmsg(), "deep: 7");
	assert_int_equal(pmc_errcause(), PMC_CAUSE_OTHER);
	assert_true(pmc__has_reason());
	pmc__clear_reason();
	assert_false(pmc__has_reason());
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NONE);
}

static void test_causes(void **s)
{
	(void)s;
	pmc__clear_reason();
	assert_int_equal(pmc__err_cause(-EINVAL, PMC_CAUSE_UNSUPPORTED, "no :p here"), -EINVAL);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_UNSUPPORTED);
	pmc__clear_reason();
	assert_int_equal(pmc__nomem(), -ENOMEM);
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NOMEM);
	assert_string_equal(pmc_errmsg(), "out of memory");
	pmc__clear_reason();
	pmc__set_reason("why, for later");
	assert_int_equal(pmc_errcause(), PMC_CAUSE_OTHER);
}

static void test_wrap(void **s)
{
	(void)s;
	pmc__clear_reason();
	pmc__err_cause(-ENOENT, PMC_CAUSE_NO_PMU, "inner");
	assert_int_equal(pmc__err_wrap(-EINVAL, "outer %s", "ctx"), -EINVAL);
	assert_string_equal(pmc_errmsg(), "outer ctx: inner");
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NO_PMU);   /* the inner one's */
	assert_int_equal(errno, EINVAL);
	pmc__clear_reason();
	pmc__err_wrap(-EACCES, "outer");
	assert_string_equal(pmc_errmsg(), "outer: Permission denied");
	assert_int_equal(pmc_errcause(), PMC_CAUSE_OTHER);
}

/* pmc_seterror, the one public writer (what analysis and programs use):
 * 0 clears, the cause defaults from err, NULL says strerror, a positive err
 * is its negative, and a libpmc call's entry clears an older reason. */
static void test_public_setter(void **s)
{
	pmc_id_t id;
	(void)s;
	pmc__err(-EACCES, "older");
	assert_int_equal(pmc_seterror(0, PMC_CAUSE_NONE, NULL), 0);   /* a new operation */
	errno = 0;
	assert_int_equal(pmc_seterror(-EINVAL, PMC_CAUSE_NONE, "app: %s", "bad"), -EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(pmc_errmsg(), "app: bad");
	pmc_seterror(-EPERM, PMC_CAUSE_NO_PMU, "later");               /* first one wins */
	assert_int_equal(errno, EPERM);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_OTHER);
	assert_int_equal(pmc_seterror(0, PMC_CAUSE_NONE, NULL), 0);
	assert_string_equal(pmc_errmsg(), "");
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NONE);
	assert_int_equal(pmc_seterror(-ENOMEM, PMC_CAUSE_NONE, NULL), -ENOMEM);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NOMEM);
	assert_string_equal(pmc_errmsg(), strerror(ENOMEM));
	pmc_seterror(0, PMC_CAUSE_NONE, NULL);
	assert_int_equal(pmc_seterror(EIO, PMC_CAUSE_UNSUPPORTED, "positive"), -EIO);
	assert_int_equal(errno, EIO);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_UNSUPPORTED);
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NONE);
	assert_int_equal(pmc_release(id), 0);
}

/* Public epilogue: -1 and errno; a default reason when none was recorded. */
static void test_public_epilogue(void **s)
{
	(void)s;
	pmc__clear_reason();
	errno = 0;
	assert_int_equal(pmc__ret(3), 3);
	assert_int_equal(errno, 0);
	assert_int_equal(pmc__ret(-EBUSY), -1);
	assert_int_equal(errno, EBUSY);
	assert_string_equal(pmc_errmsg(), strerror(EBUSY));
	pmc__clear_reason();
	assert_int_equal(pmc__ret(-EDOOFUS), -1);
	assert_int_equal(errno, EDOOFUS);
	assert_string_equal(pmc_errmsg(), "no log file configured");
	pmc__clear_reason();
	assert_int_equal(pmc__ret(-ENOMEM), -1);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NOMEM);
}

static void *other_thread(void *arg)
{
	(void)arg;
	pmc__clear_reason();
	pmc__err(-EPERM, "the other thread's");
	return NULL;
}

/* Per thread: one thread's failure is not another's reason. */
static void test_per_thread(void **s)
{
	pthread_t t;
	(void)s;
	pmc__clear_reason();
	pmc__err(-EINVAL, "mine");
	assert_int_equal(pthread_create(&t, NULL, other_thread, NULL), 0);
	pthread_join(t, NULL);
	assert_string_equal(pmc_errmsg(), "mine");
}

/* The event parser's reason (it had a store of its own) reaches the public
 * call's caller through core, and so does its cause. */
static void test_event_reason_through_core(void **s)
{
	pmc_id_t id;
	(void)s;
	EXPECT_ERRNO(pmc_allocate("cycles:zz", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), EINVAL);
	assert_non_null(strstr(pmc_errmsg(), "bad modifier ':zz' in 'cycles:zz'"));
	assert_int_equal(pmc_errcause(), PMC_CAUSE_OTHER);
	EXPECT_ERRNO(pmc_allocate("task-clock:p", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), EINVAL);
	assert_non_null(strstr(pmc_errmsg(), "does not support precise sampling"));
	assert_int_equal(pmc_errcause(), PMC_CAUSE_UNSUPPORTED);
	/* a success clears it */
	assert_int_equal(pmc_allocate("task-clock", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NONE);
	assert_string_equal(pmc_errmsg(), "");
	assert_int_equal(pmc_release(id), 0);
}

/* The backend's "no hardware PMU" is a cause, not only words: what the
 * CLI falls back on (pmc record's default event, pmc stat's <not supported>). */
static void test_no_pmu_cause(void **s)
{
	pmc_id_t id;
	int rc;
	(void)s;
	if (pmc__sys_has_hw_pmu())
		skip();
	rc = pmc_allocate("cycles", PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0);
	if (rc == 0) {                       /* opened lazily: attach fails */
		rc = pmc_attach(id, 0);
		if (rc == 0)
			rc = pmc_start(id);
		pmc_release(id);
	}
	assert_int_equal(rc, -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(pmc_errmsg(), "no hardware PMU"));
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NO_PMU);
}

static int write_file(char *path, size_t plen, const void *buf, size_t len)
{
	int fd;
	snprintf(path, plen, "/tmp/test_error_XXXXXX");
	if ((fd = mkstemp(path)) < 0)
		return -1;
	if (write(fd, buf, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* The perf.data reader's reason (it had its own per-thread and per-reader
 * messages) reaches analysis's caller, with analysis's context before it. */
static void test_perfdata_reason_through_analysis(void **s)
{
	char path[64];
	struct profile *p = NULL;
	(void)s;
	assert_int_equal(write_file(path, sizeof(path), "PERFILE2\x10\0\0\0", 12), 0);
	assert_int_equal(profile__load(&p, path, NULL), -EILSEQ);
	unlink(path);
	assert_null(p);
	assert_string_equal(pmc_errmsg(), "cannot read perf.data: corrupt perf.data: the file "
	    "header is cut");
	assert_int_equal(profile__load(&p, "/nonexistent/perf.data", NULL), -ENOENT);
	assert_string_equal(pmc_errmsg(), "cannot open: No such file or directory");
}

/* Out of memory is an answer (ENOMEM, NULL), not abort(). */
static void test_nomem_exit(void **s)
{
	static const char buf[16] = "PERFILE2";
	(void)s;
	pmc__clear_reason();
	errno = 0;
	assert_null(perfdata__open_mem(buf, SIZE_MAX / 2));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(pmc_errcause(), PMC_CAUSE_NOMEM);
	assert_string_equal(pmc_errmsg(), "out of memory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_reason_wins),
		cmocka_unit_test(test_causes),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_public_setter),
		cmocka_unit_test(test_public_epilogue),
		cmocka_unit_test(test_per_thread),
		cmocka_unit_test(test_event_reason_through_core),
		cmocka_unit_test(test_no_pmu_cause),
		cmocka_unit_test(test_perfdata_reason_through_analysis),
		cmocka_unit_test(test_nomem_exit),
	};
	return cmocka_run_group_tests(tests, pmc_test_setup, pmc_test_teardown);
}
