/*
 * test_freebsd_filter.c — issue 23: logs that FreeBSD's readers write back
 * are logs.  usr.sbin/pmc's `filter` reads a log with pmclog_open /
 * pmclog_read and writes each event it keeps with write(2) of pl_data,
 * pl_len: no file magic, no HEADER (a FreeBSD client never sees it),
 * INITIALIZE first.  This client does the same, keeping every sample or
 * every other one (so an interned chain's defining sample may be dropped),
 * and pmclog_open must read the result: the same events, in order, EOF.
 * Public API only, as a FreeBSD program.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc.h"
#include "pmclog.h"
#include "helpers/pmc_test.h"

static char logpath[] = "/tmp/pmc-test-filter-XXXXXX";

/* A log with samples whose call chains repeat (so the writer interns them). */
static int setup(void **state)
{
	pmc_id_t id;
	int fd;
	(void)state;
	if (pmc_init() < 0 || (fd = mkstemp(logpath)) < 0)
		return -1;
	if (pmc_configure_logfile(fd) < 0 ||
	    pmc_allocate("cpu-clock", PMC_MODE_TS, 0, PMC_CPU_ANY, &id, 1000) < 0 ||
	    pmc_set_period(id, 200000) < 0 || pmc_start(id) < 0)
		return -1;
	pmc_test_spin_ms(60);
	pmc_stop(id);
	pmc_writelog(0xfeed);
	pmc_close_logfile();
	pmc_release(id);
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(logpath);
	pmc_fini();
	return 0;
}

struct seen {
	int n, samples, userdata, chained;
	enum pmclog_type first;
	uint64_t pcsum;               /* every sample's pcs, summed */
};

static void note(struct seen *s, const struct pmclog_ev *ev)
{
	if (s->n++ == 0)
		s->first = ev->pl_type;
	if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN) {
		s->samples++;
		s->chained += ev->pl_u.pl_cc.pl_chain != 0;
		for (uint32_t i = 0; i < ev->pl_u.pl_cc.pl_npc; i++)
			s->pcsum += ev->pl_u.pl_cc.pl_pc[i];
	}
	if (ev->pl_type == PMCLOG_TYPE_USERDATA)
		s->userdata = (int)ev->pl_u.pl_u.pl_userdata;
}

/* usr.sbin/pmc's filter: every event but the samples, and the samples
 * `keep` accepts, written raw.  What was read is noted in *in, what was
 * kept in *kept. */
static void filter(const char *from, const char *to, int every, struct seen *in,
    struct seen *kept)
{
	int ifd = open(from, O_RDONLY), ofd = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644), k = 0;
	struct pmclog_ev ev;
	void *ps;

	assert_true(ifd >= 0 && ofd >= 0);
	assert_non_null(ps = pmclog_open(ifd));
	memset(in, 0, sizeof(*in));
	memset(kept, 0, sizeof(*kept));
	while (pmclog_read(ps, &ev) == 0) {
		note(in, &ev);
		if (ev.pl_type == PMCLOG_TYPE_CALLCHAIN && k++ % every != 0)
			continue;
		note(kept, &ev);
		assert_int_equal(write(ofd, ev.pl_data, (size_t)ev.pl_len), ev.pl_len);
	}
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	pmclog_close(ps);
	close(ifd);
	close(ofd);
}

static void read_all(const char *path, struct seen *s)
{
	int fd = open(path, O_RDONLY);
	struct pmclog_ev ev;
	void *ps;

	assert_true(fd >= 0);
	assert_non_null(ps = pmclog_open(fd));
	memset(s, 0, sizeof(*s));
	while (pmclog_read(ps, &ev) == 0)
		note(s, &ev);
	if (ev.pl_state != PMCLOG_EOF)
		fail_msg("%s: %s", path, pmclog_errmsg(ps));
	pmclog_close(ps);
	close(fd);
}

static void check_filtered(int every)
{
	char out[] = "/tmp/pmc-test-filtered-XXXXXX", again[] = "/tmp/pmc-test-again-XXXXXX";
	struct seen in, kept, got, in2, kept2, got2;

	close(mkstemp(out));
	close(mkstemp(again));
	filter(logpath, out, every, &in, &kept);
	assert_true(in.samples > 2);
	assert_true(in.chained > 0);          /* the writer interned chains */
	assert_int_equal(in.first, PMCLOG_TYPE_INITIALIZE);
	read_all(out, &got);
	assert_int_equal(got.first, PMCLOG_TYPE_INITIALIZE);
	assert_int_equal(got.n, kept.n);
	assert_int_equal(got.samples, kept.samples);
	assert_true(got.samples > 0);
	assert_true(got.pcsum == kept.pcsum);
	assert_int_equal(got.userdata, 0xfeed);
	/* and what a filter wrote filters again */
	filter(out, again, every, &in2, &kept2);
	assert_int_equal(in2.n, got.n);
	read_all(again, &got2);
	assert_int_equal(got2.n, kept2.n);
	assert_true(got2.pcsum == kept2.pcsum);
	unlink(out);
	unlink(again);
}

static void test_filter_keeps_everything(void **s) { (void)s; check_filtered(1); }
static void test_filter_drops_samples(void **s)    { (void)s; check_filtered(2); }

/* A stream that is neither a pmc log nor records: ENOEXEC, as before. */
static void test_not_a_log(void **s)
{
	char path[] = "/tmp/pmc-test-notlog-XXXXXX";
	int fd = mkstemp(path);
	struct pmclog_ev ev;
	void *ps;
	(void)s;
	assert_int_equal(write(fd, "hello, world\n", 13), 13);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_non_null(ps = pmclog_open(fd));
	errno = 0;
	assert_int_equal(pmclog_read(ps, &ev), -1);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);
	assert_int_equal(errno, ENOEXEC);
	pmclog_close(ps);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_keeps_everything),
		cmocka_unit_test(test_filter_drops_samples),
		cmocka_unit_test(test_not_a_log),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
