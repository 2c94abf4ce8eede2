/*
 * test_log_reader.c — the log format and its streaming reader: every record
 * type round-trips; a log cut at every byte reads up to the cut and says it
 * was truncated (raw and zstd); random bytes, bad lengths, unknown types,
 * byte-by-byte feeding, pipes, and a file still being written (follow).
 */
#include <fcntl.h>
#include <sys/wait.h>

#include "test_log_util.h"

static void roundtrip(void **state, unsigned flags)
{
	size_t len;
	unsigned char *b = tl_make_log(flags, &len, -1);
	enum pmclog_state st;
	int tr;

	assert_int_equal(tl_read_mem(b, len, 0, &st, &tr), TL_NTYPES);
	assert_int_equal(st, PMCLOG_EOF);
	assert_int_equal(tr, 0);
	free(b);
}

static void test_roundtrip_every_type(void **state)
{
	roundtrip(state, 0);
}

static void test_roundtrip_zstd(void **state)
{
	size_t len;
	unsigned char *b = tl_make_log(PMC_LOGW_ZSTD, &len, 5);

	assert_memory_equal(b, PMCLOG_FILE_MAGIC_ZSTD, 8);
	free(b);
	roundtrip(state, PMC_LOGW_ZSTD);
}

/* Offsets where each record ends in a raw log. */
static int record_ends(const unsigned char *b, size_t len, size_t *ends)
{
	size_t off = 8;
	int n = 0;

	while (off + 16 <= len) {
		off += PMCLOG_HDR_LEN(pmclog__ld32(b + off));
		ends[n++] = off;
	}
	return n;
}

static void test_cut_at_every_byte(void **state)
{
	size_t len, ends[64];
	unsigned char *b = tl_make_log(0, &len, -1);
	int nrec = record_ends(b, len, ends);

	assert_int_equal(nrec, TL_NTYPES);
	assert_int_equal(ends[nrec - 1], len);
	for (size_t cut = 0; cut <= len; cut++) {
		enum pmclog_state st;
		int tr, want = 0, got;
		while (want < nrec && ends[want] <= cut)
			want++;
		got = tl_read_mem(b, cut, 0, &st, &tr);
		assert_int_equal(got, want);
		assert_int_equal(st, PMCLOG_EOF);
		assert_int_equal(tr, cut < len);
	}
	free(b);
}

static void test_cut_zstd_at_every_byte(void **state)
{
	FILE *f = tmpfile();
	struct pmc_logw *lw;
	size_t len, frame1;
	unsigned char *b;
	int prev = 0;

	/* Two frames: the first ends after the flush of 8 records. */
	assert_int_equal(pmc__logw_open(fileno(f), PMC_LOGW_ZSTD, "pmc record -o x -- prog", &lw), 0);
	tl_write_all(lw, 8);
	assert_int_equal(pmc__logw_close(lw), 0);
	b = tio_slurp_fd(fileno(f), &len);
	fclose(f);
	/* find the end of the 2nd frame (magic, frame(HEADER+INIT), frame(8 recs), ...) */
	{
		size_t f1 = ZSTD_findFrameCompressedSize(b + 8, len - 8);
		assert_false(ZSTD_isError(f1));
		frame1 = 8 + f1 + ZSTD_findFrameCompressedSize(b + 8 + f1, len - 8 - f1);
	}
	assert_true(frame1 < len);
	for (size_t cut = 0; cut <= len; cut++) {
		enum pmclog_state st;
		int tr, got = tl_read_mem(b, cut, 0, &st, &tr);
		assert_true(got >= prev);       /* more bytes never mean fewer records */
		if (cut >= frame1)
			assert_true(got >= 2 + 8);
		if (cut < len) {
			/* records of a cut frame's complete blocks are delivered,
			 * so all of them may read when only the checksum is cut */
			assert_int_equal(tr, 1);
			if (cut < len - 4)
				assert_true(got < TL_NTYPES);
		} else {
			assert_int_equal(got, TL_NTYPES);
			assert_int_equal(tr, 0);
		}
		assert_int_equal(st, PMCLOG_EOF);
		prev = got;
	}
	free(b);
}

static void test_byte_by_byte(void **state)
{
	size_t len;
	unsigned char *b = tl_make_log(0, &len, -1);
	enum pmclog_state st;
	int tr;

	assert_int_equal(tl_read_mem(b, len, 1, &st, &tr), TL_NTYPES);
	assert_int_equal(st, PMCLOG_EOF);
	assert_int_equal(tr, 0);
	free(b);
	b = tl_make_log(PMC_LOGW_ZSTD, &len, 3);
	assert_int_equal(tl_read_mem(b, len, 1, &st, &tr), TL_NTYPES);
	assert_int_equal(tr, 0);
	assert_int_equal(tl_read_mem(b, len, 7, &st, &tr), TL_NTYPES);
	free(b);
}

static void test_require_data_states(void **state)
{
	size_t len;
	unsigned char *b = tl_make_log(0, &len, -1);
	void *p = pmclog_open(PMCLOG_FD_NONE);
	if (p)
		pmclog_set_extensions(p, 1);   /* pmc's own records too */
	struct pmclog_ev ev;

	/* nothing fed yet */
	assert_int_equal(pmclog_read(p, &ev), -1);
	assert_int_equal(ev.pl_state, PMCLOG_REQUIRE_DATA);
	/* half of the magic */
	assert_int_equal(pmclog_feed(p, (char *)b, 4), 0);
	assert_int_equal(pmclog_read(p, &ev), -1);
	assert_int_equal(ev.pl_state, PMCLOG_REQUIRE_DATA);
	/* magic + part of HEADER */
	assert_int_equal(pmclog_feed(p, (char *)b + 4, 20), 0);
	assert_int_equal(pmclog_read(p, &ev), -1);
	assert_int_equal(ev.pl_state, PMCLOG_REQUIRE_DATA);
	assert_null(pmclog_header(p));
	assert_int_equal(pmclog_feed(p, (char *)b + 24, (int)(len - 24)), 0);
	assert_int_equal(pmclog_read(p, &ev), 0);
	assert_int_equal(ev.pl_type, PMCLOG_TYPE_HEADER);
	assert_non_null(pmclog_header(p));
	assert_string_equal(pmclog_header(p)->pl_cmdline, "pmc record -o x -- prog");
	while (pmclog_read(p, &ev) == 0)
		;
	/* a memory parser waits for more until told the input ended */
	assert_int_equal(ev.pl_state, PMCLOG_REQUIRE_DATA);
	assert_int_equal(pmclog_feed(p, NULL, 0), 0);
	assert_int_equal(pmclog_read(p, &ev), -1);
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	assert_int_equal(pmclog_truncated(p, NULL, NULL), 0);
	pmclog_close(p);
	free(b);
}

static void test_bad_magic(void **state)
{
	void *p = pmclog_open(PMCLOG_FD_NONE);
	if (p)
		pmclog_set_extensions(p, 1);   /* pmc's own records too */
	struct pmclog_ev ev;

	assert_int_equal(pmclog_feed(p, "hello, world\n", 13), 0);
	assert_int_equal(pmclog_read(p, &ev), -1);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);
	assert_int_equal(errno, ENOEXEC);
	assert_non_null(strstr(pmclog_errmsg(p), "bad magic"));
	/* sticky */
	assert_int_equal(pmclog_read(p, &ev), -1);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);
	pmclog_close(p);

	/* a single wrong byte is enough to know (one that starts neither
	 * the magic nor a bare stream's first record: no multiple of 8) */
	p = pmclog_open(PMCLOG_FD_NONE);
	if (p)
		pmclog_set_extensions(p, 1);   /* pmc's own records too */
	assert_int_equal(pmclog_feed(p, "Y", 1), 0);
	assert_int_equal(pmclog_read(p, &ev), -1);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);
	pmclog_close(p);
}

static void test_random_bytes(void **state)
{
	unsigned char buf[4096];
	size_t len;
	unsigned char *good = tl_make_log(0, &len, -1);
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	unsigned seed = 12345;

	for (int iter = 0; iter < 2000; iter++) {
		size_t n = (size_t)(rand_r(&seed) % sizeof(buf));
		void *p = pmclog_open(PMCLOG_FD_NONE);
		if (p)
			pmclog_set_extensions(p, 1);   /* pmc's own records too */
		int mode = iter % 3, recs = 0;
		for (size_t i = 0; i < n; i++)
			buf[i] = (unsigned char)rand_r(&seed);
		if (mode >= 1 && n >= 8)
			memcpy(buf, PMCLOG_FILE_MAGIC_RAW, 8);
		if (mode == 2 && n >= 8 + 200) {
			/* a valid start, then garbage: flip random bytes of a good log */
			size_t k = n < len ? n : len;
			memcpy(buf, good, k);
			for (int f = 0; f < 4; f++)
				buf[8 + rand_r(&seed) % (k - 8)] ^= (unsigned char)(1 + rand_r(&seed) % 255);
		}
		pmclog_feed(p, (char *)buf, (int)n);
		pmclog_feed(p, NULL, 0);
		while (pmclog_read(p, ev) == 0)
			recs++;
		assert_true(ev->pl_state == PMCLOG_EOF || ev->pl_state == PMCLOG_ERROR);
		assert_true(recs <= TL_NTYPES);
		pmclog_close(p);
	}
	free(ev);
	free(good);
}

static void test_length_past_end(void **state)
{
	size_t len, ends[64];
	unsigned char *b = tl_make_log(0, &len, -1);
	int nrec = record_ends(b, len, ends);
	enum pmclog_state st;
	int tr;
	uint32_t h;

	assert_true(nrec > 5);
	/* the 5th record claims 65528 bytes */
	h = pmclog__ld32(b + ends[3]);
	pmclog__st32(b + ends[3], PMCLOG_HDR_MAKE(PMCLOG_HDR_TYPE(h), PMCLOG_REC_MAX));
	assert_int_equal(tl_read_mem(b, len, 0, &st, &tr), 4);
	assert_int_equal(st, PMCLOG_EOF);
	assert_int_equal(tr, 1);

	/* a length that is not a multiple of 8 is corruption, not truncation */
	pmclog__st32(b + ends[3], PMCLOG_HDR_MAKE(PMCLOG_HDR_TYPE(h), 20));
	assert_int_equal(tl_read_mem(b, len, 0, &st, &tr), 4);
	assert_int_equal(st, PMCLOG_ERROR);
	free(b);
}

static void test_unknown_type_skipped(void **state)
{
	size_t len, ends[64];
	unsigned char *b = tl_make_log(0, &len, -1);
	int nrec = record_ends(b, len, ends);
	unsigned char *nb = malloc(len + 40);
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	int n = 0;
	void *p;

	assert_true(nrec > 4);
	/* insert a 40-byte record of type 200 after the 4th record */
	memcpy(nb, b, ends[3]);
	memset(nb + ends[3], 0xAB, 40);
	pmclog__st32(nb + ends[3], PMCLOG_HDR_MAKE(200, 40));
	memcpy(nb + ends[3] + 40, b + ends[3], len - ends[3]);
	p = lb_reader(nb, len + 40, 1);
	while (pmclog_read(p, ev) == 0) {
		assert_int_equal(ev->pl_type, tl_types[n]);
		if (n >= 4)
			assert_int_equal(ev->pl_offset, (off_t)ends[n - 1] + 40);
		n++;
	}
	assert_int_equal(n, TL_NTYPES);
	assert_int_equal(ev->pl_state, PMCLOG_EOF);
	assert_int_equal(pmclog_skipped(p), 1);
	assert_int_equal(pmclog_truncated(p, NULL, NULL), 0);
	assert_null(pmclog_type_name(200));
	assert_string_equal(pmclog_type_name(PMCLOG_TYPE_CALLCHAIN), "CALLCHAIN");
	pmclog_close(p);
	free(ev);
	free(nb);
	free(b);
}

static void test_truncated_offsets(void **state)
{
	size_t len, ends[64];
	unsigned char *b = tl_make_log(0, &len, -1);
	struct pmclog_ev ev;
	off_t at, last;
	void *p;

	record_ends(b, len, ends);
	p = lb_reader(b, ends[5] + 10, 1);
	while (pmclog_read(p, &ev) == 0)
		;
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	assert_int_equal(pmclog_truncated(p, &at, &last), 1);
	assert_int_equal(at, (off_t)ends[5] + 10);
	assert_int_equal(last, (off_t)ends[5]);
	pmclog_close(p);
	free(b);
}

static void test_pipe(void **state)
{
	int fds[2];
	pid_t pid;
	void *p;
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	int n = 0, status;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct pmc_logw *lw;
		close(fds[0]);
		if (pmc__logw_open(fds[1], PMC_LOGW_ZSTD, "pmc record -o x -- prog", &lw) != 0)
			_exit(2);
		tl_write_all(lw, 6);
		_exit(pmc__logw_close(lw) == 0 ? 0 : 3);
	}
	close(fds[1]);
	p = pmclog_open(fds[0]);
	if (p)
		pmclog_set_extensions(p, 1);   /* pmc's own records too */
	assert_non_null(p);
	while (pmclog_read(p, ev) == 0)
		tl_check(n++, ev);
	assert_int_equal(ev->pl_state, PMCLOG_EOF);
	assert_int_equal(n, TL_NTYPES);
	assert_int_equal(pmclog_truncated(p, NULL, NULL), 0);
	pmclog_close(p);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(ev);
}

static void test_follow(void **state)
{
	char path[] = "/tmp/pmc-test-follow-XXXXXX";
	int wfd = mkstemp(path);
	struct pmc_logw *lw;
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	void *p;
	int n = 0;

	assert_true(wfd >= 0);
	assert_int_equal(pmc__logw_open(wfd, 0, "pmc record -o x -- prog", &lw), 0);
	p = pmclog_open_file(path);
	if (p)
		pmclog_set_extensions(p, 1);   /* pmc's own records too */
	assert_non_null(p);
	assert_int_equal(pmclog_set_follow(p, 1), 0);
	/* HEADER and INITIALIZE are written at open */
	while (pmclog_read(p, ev) == 0)
		tl_check(n++, ev);
	assert_int_equal(n, 2);
	assert_int_equal(ev->pl_state, PMCLOG_REQUIRE_DATA);
	assert_int_equal(pmclog_read(p, ev), -1);
	assert_int_equal(ev->pl_state, PMCLOG_REQUIRE_DATA);

	tl_write_all(lw, 10);
	assert_int_equal(pmc__logw_flush(lw), 0);
	while (pmclog_read(p, ev) == 0)
		tl_check(n++, ev);
	assert_int_equal(n, TL_NTYPES - 1);
	assert_int_equal(ev->pl_state, PMCLOG_REQUIRE_DATA);
	assert_int_equal(pmc__logw_close(lw), 0);
	assert_int_equal(pmclog_read(p, ev), 0);
	tl_check(n++, ev);
	assert_int_equal(ev->pl_type, PMCLOG_TYPE_CLOSELOG);
	/* after CLOSELOG the end of the file is the end of the log */
	assert_int_equal(pmclog_read(p, ev), -1);
	assert_int_equal(ev->pl_state, PMCLOG_EOF);
	assert_int_equal(pmclog_truncated(p, NULL, NULL), 0);
	pmclog_close(p);
	close(wfd);
	unlink(path);
	free(ev);
}

static void test_open_file_errors(void **state)
{
	errno = 0;
	assert_null(pmclog_open_file("/nonexistent/pmc.log"));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(pmclog_feed(NULL, "x", 1), -1);
	assert_int_equal(errno, EINVAL);
}

static void test_empty_input(void **state)
{
	enum pmclog_state st;
	int tr;

	assert_int_equal(tl_read_mem((const unsigned char *)"", 0, 0, &st, &tr), 0);
	assert_int_equal(st, PMCLOG_EOF);
	assert_int_equal(tr, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_every_type),
		cmocka_unit_test(test_roundtrip_zstd),
		cmocka_unit_test(test_cut_at_every_byte),
		cmocka_unit_test(test_cut_zstd_at_every_byte),
		cmocka_unit_test(test_byte_by_byte),
		cmocka_unit_test(test_require_data_states),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_length_past_end),
		cmocka_unit_test(test_unknown_type_skipped),
		cmocka_unit_test(test_truncated_offsets),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_open_file_errors),
		cmocka_unit_test(test_empty_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
