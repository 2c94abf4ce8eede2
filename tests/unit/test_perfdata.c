/*
 * test_perfdata.c — the perf.data reader on hand-built files: every record
 * type and every sample field, both byte orders, pipe mode, COMPRESSED and
 * COMPRESSED2 records (a record split across two), FINISHED_ROUND ordering,
 * and damage: a file cut at every byte, every byte flipped, corrupt record
 * sizes, bogus attr_size, sections past the end.  Then the conversions
 * (perf.data -> pmc log -> perf.data) on the same files.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "test_perfdata_util.h"

/* ---- every record type ------------------------------------------------- */

static void check_every_type(unsigned char *b, size_t len, int pipe)
{
	struct perfdata *pd = perfdata__open_mem(b, len);
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	struct perfdata_stats st;
	pmc_id_t id0, id1;
	int n = 0;

	assert_non_null(pd);
	assert_non_null(ev);
	assert_int_equal(perfdata__nattrs(pd), 2);
	assert_string_equal(perfdata__attr(pd, 0)->name, "cpu-clock:u");
	assert_string_equal(perfdata__attr(pd, 1)->name, "task-clock");
	assert_int_equal(perfdata__attr(pd, 0)->nids, 2);
	assert_int_equal(perfdata__attr(pd, 0)->sample_type, T_ST0);
	assert_true(perfdata__attr(pd, 0)->freq);
	assert_int_equal(perfdata__attr(pd, 0)->period, 4000);
	assert_true(perfdata__attr(pd, 0)->flags & PD_ATTR_EXCLUDE_KERNEL);
	assert_false(perfdata__attr(pd, 0)->flags & PD_ATTR_EXCLUDE_USER);
	assert_int_equal(perfdata__attr(pd, 0)->branch_sample_type, PSAMPLE_BRANCH_HW_INDEX);
	assert_int_equal(perfdata__attr(pd, 1)->period, 100003);
	assert_string_equal(perfdata__hostname(pd), "testhost");
	assert_string_equal(perfdata__osrelease(pd), "6.1.0-test");
	assert_string_equal(perfdata__cmdline(pd), "perf record prog");
	assert_string_equal(perfdata__cpudesc(pd), "Test CPU @ 1GHz");
	assert_int_equal(perfdata__nr_cpus(pd), 4);
	assert_int_equal(!!(perfdata__flags(pd) & PERFDATA_F_PIPE), pipe);
	id0 = perfdata__attr(pd, 0)->pmcid;
	id1 = perfdata__attr(pd, 1)->pmcid;
	assert_int_not_equal(id0, id1);
	assert_ptr_equal(perfdata__attr_by_pmcid(pd, id1), perfdata__attr(pd, 1));

	while (perfdata__read(pd, ev) == 0) {
		assert_true(n < T_NTYPES);
		assert_int_equal(ev->pl_type, t_types[n]);
		assert_int_equal(ev->pl_state, PMCLOG_OK);
		switch (n) {
		case 0:
			assert_string_equal(ev->pl_u.pl_h.pl_hostname, "testhost");
			assert_string_equal(ev->pl_u.pl_h.pl_kernel, "6.1.0-test");
			assert_string_equal(ev->pl_u.pl_h.pl_cmdline, "perf record prog");
			assert_string_equal(ev->pl_u.pl_h.pl_cpudesc, "Test CPU @ 1GHz");
			assert_string_equal(ev->pl_u.pl_h.pl_libversion, "perf 6.1.99");
			break;
		case 1:
			assert_string_equal(ev->pl_u.pl_a.pl_evname, "cpu-clock:u");
			assert_int_equal(ev->pl_u.pl_a.pl_pmcid, id0);
			assert_int_equal(ev->pl_u.pl_a.pl_rate, 4000);
			assert_int_equal(ev->pl_u.pl_a.pl_freq, 1);
			assert_int_equal(ev->pl_u.pl_a.pl_flags & PMC_F_CALLCHAIN, PMC_F_CALLCHAIN);
			break;
		case 2:
			assert_string_equal(ev->pl_u.pl_a.pl_evname, "task-clock");
			assert_int_equal(ev->pl_u.pl_a.pl_freq, 0);
			break;
		case 3:
			assert_int_equal(ev->pl_u.pl_cm.pl_pid, 100);
			assert_int_equal(ev->pl_u.pl_cm.pl_flags, 0);
			assert_string_equal(ev->pl_u.pl_cm.pl_comm, "prog");
			assert_int_equal(ev->pl_time, 1000);
			break;
		case 4:
			assert_string_equal(ev->pl_u.pl_mi.pl_pathname, "/bin/prog");
			assert_int_equal(ev->pl_u.pl_mi.pl_start, 0x400000);
			assert_int_equal(ev->pl_u.pl_mi.pl_len, 0x1000);
			assert_int_equal(ev->pl_u.pl_mi.pl_buildid_len, 0);
			break;
		case 5:
			assert_string_equal(ev->pl_u.pl_mi.pl_pathname, "/lib/libc.so.6");
			assert_int_equal(ev->pl_u.pl_mi.pl_buildid_len, 20);
			assert_memory_equal(ev->pl_u.pl_mi.pl_buildid, t_bid, 20);
			assert_int_equal(ev->pl_u.pl_mi.pl_prot, 5);
			assert_int_equal(ev->pl_u.pl_mi.pl_pgoff, 0x1000);
			break;
		case 6:     /* build id from the BUILD_ID feature, matched by path */
			assert_string_equal(ev->pl_u.pl_mi.pl_pathname, "/lib/libm.so.6");
			assert_int_equal(ev->pl_u.pl_mi.pl_buildid_len, 20);
			assert_memory_equal(ev->pl_u.pl_mi.pl_buildid, t_bid2, 20);
			break;
		case 7:
			assert_int_equal(ev->pl_u.pl_f.pl_oldpid, 100);
			assert_int_equal(ev->pl_u.pl_f.pl_newpid, 101);
			break;
		case 8:
			assert_int_equal(ev->pl_u.pl_tc.pl_pid, 100);
			assert_int_equal(ev->pl_u.pl_tc.pl_tid, 102);
			break;
		case 9:
			assert_int_equal(ev->pl_u.pl_cm.pl_flags, PMCLOG_COMM_F_EXEC);
			assert_string_equal(ev->pl_u.pl_cm.pl_comm, "newprog");
			break;
		case 10:
			assert_int_equal(ev->pl_u.pl_x.pl_pid, 101);
			assert_string_equal(ev->pl_u.pl_x.pl_pathname, "newprog");
			break;
		case 11: {   /* every field: IP, TID, TIME, CPU, PERIOD, chain with markers */
			const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
			assert_int_equal(cc->pl_pid, 100);
			assert_int_equal(cc->pl_tid, 102);
			assert_int_equal(cc->pl_cpu, 3);
			assert_int_equal(cc->pl_pmcid, id0);
			assert_int_equal(cc->pl_period, 250000);
			assert_int_equal(ev->pl_time, 1007);
			assert_int_equal(cc->pl_usermode, 0);
			assert_int_equal(cc->pl_npc, 4);
			assert_int_equal(cc->pl_pc[0], T_KIP);
			assert_int_equal(cc->pl_pc[1], T_KIP2);
			assert_int_equal(cc->pl_pc[2], T_UIP1);
			assert_int_equal(cc->pl_pc[3], T_UIP2);
			assert_int_equal(cc->pl_pcflags[0], 0);
			assert_int_equal(cc->pl_pcflags[1], 0);
			assert_int_equal(cc->pl_pcflags[2], PMC_CC_F_USERSPACE);
			assert_int_equal(cc->pl_pcflags[3], PMC_CC_F_USERSPACE);
			assert_int_equal(PMC_CALLCHAIN_CPUFLAGS_TO_CPU(cc->pl_cpuflags), 3);
			break;
		}
		case 12: {
			const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
			assert_int_equal(cc->pl_pid, 200);
			assert_int_equal(cc->pl_tid, 201);
			assert_int_equal(cc->pl_pmcid, id1);
			assert_int_equal(cc->pl_usermode, 1);
			assert_int_equal(cc->pl_npc, 1);
			assert_int_equal(cc->pl_pc[0], T_UIP1);
			assert_int_equal(cc->pl_pcflags[0], PMC_CC_F_USERSPACE);
			assert_int_equal(cc->pl_cpu, 1);
			break;
		}
		case 13:
			assert_int_equal(ev->pl_u.pl_dn.pl_count, 5);
			assert_int_equal(ev->pl_u.pl_dn.pl_reason, PMCLOG_DROP_RING);
			assert_int_equal(ev->pl_u.pl_dn.pl_pmcid, id0);
			assert_int_equal(ev->pl_u.pl_dn.pl_cpu, 2);
			break;
		case 14:
			assert_int_equal(ev->pl_u.pl_dn.pl_count, 3);
			assert_int_equal(ev->pl_u.pl_dn.pl_reason, PMCLOG_DROP_SAMPLES);
			assert_int_equal(ev->pl_u.pl_dn.pl_pmcid, id1);
			break;
		case 15:
			assert_int_equal(ev->pl_u.pl_th.pl_throttled, 1);
			assert_int_equal(ev->pl_u.pl_th.pl_pmcid, id1);
			break;
		case 16:
			assert_int_equal(ev->pl_u.pl_th.pl_throttled, 0);
			break;
		case 17:    /* --switch-events: the thread out of its sample_id */
			assert_int_equal(ev->pl_u.pl_sw.pl_tid, 100);
			assert_int_equal(ev->pl_u.pl_sw.pl_flags, PMCLOG_SWITCH_F_OUT);
			break;
		case 18:
			assert_string_equal(ev->pl_u.pl_ksym.pl_name, "bpf_prog_test");
			assert_int_equal(ev->pl_u.pl_ksym.pl_len, 0x100);
			assert_int_equal(ev->pl_u.pl_ksym.pl_ksymtype, 1);
			break;
		case 19:
			assert_int_equal(ev->pl_u.pl_e.pl_value, 111);
			assert_int_equal(ev->pl_u.pl_e.pl_pmcid, id0);
			assert_int_equal(ev->pl_u.pl_e.pl_tid, 102);
			break;
		case 20:
			assert_int_equal(ev->pl_u.pl_e.pl_value, 222);
			assert_int_equal(ev->pl_u.pl_e.pl_pmcid, id1);
			break;
		case 21:    /* empty call chain, branch stack, regs, stack, aux */
			assert_int_equal(ev->pl_u.pl_cc.pl_npc, 1);
			assert_int_equal(ev->pl_u.pl_cc.pl_pc[0], T_KIP);
			assert_int_equal(ev->pl_time, 1017);
			break;
		case 22:
			assert_int_equal(ev->pl_u.pl_te.pl_tid, 101);
			break;
		case 23:
			assert_int_equal(ev->pl_u.pl_se.pl_pid, 101);
			break;
		}
		if (n > 2) {
			assert_non_null(ev->pl_data);
			assert_true(ev->pl_len >= 8);
		}
		n++;
	}
	assert_int_equal(n, T_NTYPES);
	assert_int_equal(ev->pl_state, PMCLOG_EOF);
	assert_int_equal(perfdata__truncated(pd), 0);
	perfdata__get_stats(pd, &st);
	assert_int_equal(st.samples, 3);
	assert_int_equal(st.unknown_id, 1);
	assert_int_equal(st.bad_samples, 0);
	assert_int_equal(st.lost, 8);
	assert_true(st.skipped >= 2);
	/* sticky end */
	assert_int_equal(perfdata__read(pd, ev), -1);
	assert_int_equal(ev->pl_state, PMCLOG_EOF);
	free(ev);
	perfdata__close(pd);
}

static void test_every_type_le(void **state)
{
	size_t len;
	unsigned char *b = t_make_file(0, NULL, &len);
	(void)state;
	assert_true(perfdata__is_perfdata(b, len));
	check_every_type(b, len, 0);
	free(b);
}

static void test_every_type_be(void **state)
{
	size_t len;
	unsigned char *b = t_make_file(1, NULL, &len);
	struct perfdata *pd;
	(void)state;
	assert_true(perfdata__is_perfdata(b, len));
	check_every_type(b, len, 0);
	pd = perfdata__open_mem(b, len);
	assert_true(perfdata__flags(pd) & PERFDATA_F_BIG_ENDIAN);
	assert_true(perfdata__flags(pd) & PERFDATA_F_SWAPPED);
	perfdata__close(pd);
	free(b);
}

static void test_pipe_mode(void **state)
{
	size_t len;
	(void)state;
	for (int be = 0; be < 2; be++) {
		unsigned char *b = t_make_pipe(be, NULL, &len);
		check_every_type(b, len, 1);
		free(b);
	}
}

/* The same through file descriptors: a regular file, a pipe (pipe mode),
 * and a file-mode perf.data arriving on a pipe. */
static int memfd_with(const unsigned char *b, size_t len)
{
	int fd = memfd_create("perfdata", 0);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, len), (ssize_t)len);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static int pipe_with(const unsigned char *b, size_t len)
{
	int pp[2];
	pid_t pid;
	assert_int_equal(pipe(pp), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(pp[0]);
		/* dribble it, to exercise short reads */
		for (size_t off = 0; off < len;) {
			size_t n = len - off < 37 ? len - off : 37;
			if (write(pp[1], b + off, n) < 0)
				_exit(1);
			off += n;
		}
		_exit(0);
	}
	close(pp[1]);
	return pp[0];
}

static void read_fd_expect(int fd, int expect, int sniff)
{
	struct perfdata *pd;
	enum pmclog_state st;
	if (sniff)
		assert_int_equal(perfdata__sniff(fd), 1);
	pd = perfdata__open(fd);
	assert_non_null(pd);
	assert_int_equal(t_read_all(pd, NULL, 0, &st, NULL), expect);
	assert_int_equal(st, PMCLOG_EOF);
	perfdata__close(pd);
	close(fd);
}

/* Pipe mode: an attr announced in the middle of the stream gets its
 * PMCALLOCATE before the records that follow it. */
static void test_pipe_late_attr(void **state)
{
	struct lb recs = { .be = 0 };
	struct perfdata *pd;
	size_t len, at;
	unsigned char *b;
	int types[16];
	(void)state;
	t_sample1(&recs, 5, T_ID1);
	at = lb_rec_begin(&recs, PD_REC_HEADER_ATTR, 0);
	lb_attr(&recs, PD_TYPE_HARDWARE, 1, 1000, T_ST1, T_RF1, PD_ATTR_SAMPLE_ID_ALL, 0, 0, 0, 128);
	lb64(&recs, 0x3333);
	lb_rec_end(&recs, at);
	t_sample1(&recs, 6, 0x3333);
	b = t_make_pipe(0, &recs, &len);
	pd = perfdata__open_mem(b, len);
	assert_non_null(pd);
	perfdata__set_ordered(pd, 0);
	assert_int_equal(t_read_all(pd, types, 16, NULL, NULL), 6);
	assert_int_equal(types[3], PMCLOG_TYPE_CALLCHAIN);
	assert_int_equal(types[4], PMCLOG_TYPE_PMCALLOCATE);
	assert_int_equal(types[5], PMCLOG_TYPE_CALLCHAIN);
	assert_int_equal(perfdata__nattrs(pd), 3);
	assert_string_equal(perfdata__attr(pd, 2)->name, "instructions");
	perfdata__close(pd);
	free(b);
	/* ordered: queued samples keep their attr while 12 more attrs arrive */
	recs.len = 0;
	for (int i = 0; i < 5; i++)
		t_sample1(&recs, 100 + (uint64_t)i, T_ID1);
	for (int i = 0; i < 12; i++) {
		at = lb_rec_begin(&recs, PD_REC_HEADER_ATTR, 0);
		lb_attr(&recs, PD_TYPE_SOFTWARE, 0, 1000, T_ST1, T_RF1, PD_ATTR_SAMPLE_ID_ALL, 0, 0, 0, 128);
		lb64(&recs, 0x4000 + (uint64_t)i);
		lb_rec_end(&recs, at);
		t_sample1(&recs, 200 + (uint64_t)i, 0x4000 + (uint64_t)i);
	}
	b = t_make_pipe(0, &recs, &len);
	pd = perfdata__open_mem(b, len);
	assert_non_null(pd);
	{
		struct pmclog_ev *ev = malloc(sizeof(*ev));
		int samples = 0;
		while (perfdata__read(pd, ev) == 0) {
			if (ev->pl_type != PMCLOG_TYPE_CALLCHAIN)
				continue;
			if (ev->pl_time < 200)
				assert_int_equal(ev->pl_u.pl_cc.pl_pmcid, perfdata__attr(pd, 1)->pmcid);
			else
				assert_int_equal(ev->pl_u.pl_cc.pl_pmcid,
				    perfdata__attr(pd, 2 + (int)(ev->pl_time - 200))->pmcid);
			samples++;
		}
		assert_int_equal(samples, 17);
		free(ev);
	}
	assert_int_equal(perfdata__nattrs(pd), 14);
	perfdata__close(pd);
	free(b);
	free(recs.b);
}

static void test_fds(void **state)
{
	size_t len, plen;
	unsigned char *f = t_make_file(0, NULL, &len), *p = t_make_pipe(0, NULL, &plen);
	(void)state;
	read_fd_expect(memfd_with(f, len), T_NTYPES, 1);
	read_fd_expect(pipe_with(p, plen), T_NTYPES, 1);
	read_fd_expect(pipe_with(f, len), T_NTYPES, 1);   /* file mode on a pipe */
	while (wait(NULL) > 0)
		;
	free(f);
	free(p);
}

/* ---- compressed records ---------------------------------------------------- */

/* The every-type records, zstd-compressed as perf does (one stream, flushed
 * per COMPRESSED record), split mid-record into nparts records. */
static void compress_records(struct lb *out, int be, int v2, int nparts)
{
	struct lb raw = { .be = be };
	t_records(&raw);
	raw.len -= 8;            /* the FINISHED_ROUND stays outside */
	lb_compress(out, raw.b, raw.len, v2, nparts);
	lb_rec_end(out, lb_rec_begin(out, PD_REC_FINISHED_ROUND, 0));
	free(raw.b);
}

static void test_compressed(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++)
		for (int v2 = 0; v2 < 2; v2++)
			for (int parts = 1; parts <= 7; parts += 3) {
				struct lb recs = { .be = be };
				size_t len;
				unsigned char *b;
				compress_records(&recs, be, v2, parts);
				b = t_make_file(be, &recs, &len);
				check_every_type(b, len, 0);
				free(b);
				b = t_make_pipe(be, &recs, &len);
				check_every_type(b, len, 1);
				free(b);
				free(recs.b);
			}
}

static void test_compressed_garbage(void **state)
{
	struct lb recs = { .be = 0 };
	size_t len, at;
	unsigned char *b;
	struct perfdata *pd;
	enum pmclog_state st;
	(void)state;
	t_sample1(&recs, 5, T_ID1);
	at = lb_rec_begin(&recs, PD_REC_COMPRESSED, 0);
	lb_bytes(&recs, "this is not zstd at all", 23);
	lb_rec_end(&recs, at);
	b = t_make_file(0, &recs, &len);
	pd = perfdata__open_mem(b, len);
	assert_non_null(pd);
	/* HEADER, 2 PMCALLOCATE, the sample before the damage, then the error */
	assert_int_equal(t_read_all(pd, NULL, 0, &st, NULL), 4);
	assert_int_equal(st, PMCLOG_ERROR);
	assert_non_null(strstr(pmc_errmsg(), "COMPRESSED"));
	perfdata__close(pd);
	free(b);
	free(recs.b);
}

/* ---- ordering ---------------------------------------------------------------- */

static void round_rec(struct lb *p)
{
	size_t at = lb_rec_begin(p, PD_REC_FINISHED_ROUND, 0);
	lb_rec_end(p, at);
}

static void test_rounds(void **state)
{
	/* round 1: 10 30 20 | round 2: 25 40 | 35 — perf releases at the end of
	 * each round what is not newer than the newest of the round before */
	static const uint64_t in[] = { 10, 30, 20, 0, 25, 40, 0, 35 };
	static const uint64_t want[] = { 10, 20, 25, 30, 35, 40 };
	static const uint64_t file_order[] = { 10, 30, 20, 25, 40, 35 };
	struct lb recs = { .be = 0 };
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	size_t len;
	unsigned char *b;
	(void)state;

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		if (in[i])
			t_sample1(&recs, in[i], T_ID1);
		else
			round_rec(&recs);
	}
	b = t_make_file(0, &recs, &len);
	for (int ordered = 1; ordered >= 0; ordered--) {
		struct perfdata *pd = perfdata__open_mem(b, len);
		size_t k = 0;
		assert_non_null(pd);
		perfdata__set_ordered(pd, ordered);
		while (perfdata__read(pd, ev) == 0) {
			if (ev->pl_type != PMCLOG_TYPE_CALLCHAIN)
				continue;
			assert_true(k < 6);
			assert_int_equal(ev->pl_time, ordered ? want[k] : file_order[k]);
			k++;
		}
		assert_int_equal(k, 6);
		perfdata__close(pd);
	}
	/* a record older than what a round already released: still delivered */
	recs.len = 0;
	t_sample1(&recs, 50, T_ID1);
	round_rec(&recs);
	t_sample1(&recs, 60, T_ID1);
	round_rec(&recs);
	t_sample1(&recs, 40, T_ID1);
	free(b);
	b = t_make_file(0, &recs, &len);
	{
		struct perfdata *pd = perfdata__open_mem(b, len);
		struct perfdata_stats st;
		assert_int_equal(t_read_all(pd, NULL, 0, NULL, NULL), 3 + 3);
		perfdata__get_stats(pd, &st);
		assert_int_equal(st.unordered, 1);
		perfdata__close(pd);
	}
	free(b);
	free(recs.b);
	free(ev);
}

/* Many rounds as perf writes them on several CPUs: each round is a few
 * runs in time order (one per CPU's buffer), with equal times across runs
 * and now and then a record older than what was released already.  The
 * reader must give perf's order: at each round what is not newer than the
 * newest record of the round before, by time then arrival (the tid here
 * numbers the arrivals); the model below is that rule, written plainly. */
struct t_qrec {
	uint64_t ts;
	uint32_t seq;
};

static int t_qcmp(const void *a, const void *b)
{
	const struct t_qrec *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void test_rounds_many_runs(void **state)
{
	enum { ROUNDS = 60, MAXREC = ROUNDS * 4 * 40 };
	struct t_qrec *pend = malloc(MAXREC * sizeof(*pend)), *want = malloc(MAXREC * sizeof(*want));
	struct lb recs = { .be = 0 };
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	uint64_t max_ts = 0, next_flush = 0, base = 1000;
	size_t npend = 0, nwant = 0, len, k = 0;
	uint32_t seq = 0, rnd = 12345;
	unsigned char *b;
	(void)state;

	for (int r = 0; r < ROUNDS; r++) {
		int runs = 1 + r % 4;             /* 1 to 4 CPUs' buffers */
		for (int c = 0; c < runs; c++) {
			uint64_t t = base + (uint64_t)c;
			int n = 1 + (r * 7 + c * 3) % 40;
			for (int i = 0; i < n; i++) {
				rnd = rnd * 1103515245u + 12345u;
				t += (rnd >> 16) % 4;     /* steps of 0: equal times */
				uint64_t ts = t;
				if ((rnd >> 8) % 97 == 0 && base > 600)
					ts = base - 500;  /* late: older than released */
				t_sample_tid(&recs, ts, T_ID1, seq);
				pend[npend++] = (struct t_qrec){ ts, seq++ };
				if (ts > max_ts)
					max_ts = ts;
			}
		}
		base += 60;
		round_rec(&recs);
		/* the model: release what is not newer than the limit */
		qsort(pend, npend, sizeof(*pend), t_qcmp);
		size_t j = 0, keep = 0;
		for (; j < npend; j++) {
			if (pend[j].ts <= next_flush)
				want[nwant++] = pend[j];
			else
				pend[keep++] = pend[j];
		}
		npend = keep;
		next_flush = max_ts;
	}
	qsort(pend, npend, sizeof(*pend), t_qcmp);
	for (size_t j = 0; j < npend; j++)
		want[nwant++] = pend[j];

	b = t_make_file(0, &recs, &len);
	struct perfdata *pd = perfdata__open_mem(b, len);
	assert_non_null(pd);
	while (perfdata__read(pd, ev) == 0) {
		if (ev->pl_type != PMCLOG_TYPE_CALLCHAIN)
			continue;
		assert_true(k < nwant);
		assert_int_equal(ev->pl_time, want[k].ts);
		assert_int_equal(ev->pl_u.pl_cc.pl_tid, want[k].seq);
		k++;
	}
	assert_int_equal(k, nwant);
	assert_int_equal(nwant, seq);
	perfdata__close(pd);
	free(b);
	free(recs.b);
	free(ev);
	free(pend);
	free(want);
}

/* ---- damage ---------------------------------------------------------------- */

/* Every prefix of the file: a clean error at open, or records up to the cut
 * and then EOF (truncated) or an error — never a crash (run under ASan). */
static void cut_everywhere(const unsigned char *b, size_t len, int full)
{
	int opened = 0;
	for (size_t cut = 0; cut < len; cut++) {
		struct perfdata *pd = perfdata__open_mem(b, cut);
		enum pmclog_state st;
		int tr, n;
		if (!pd) {
			assert_true(errno == ENOEXEC || errno == EILSEQ);
			assert_true(pmc_errmsg()[0] != '\0');
			continue;
		}
		opened++;
		n = t_read_all(pd, NULL, 0, &st, &tr);
		assert_true(n <= full);
		assert_true(st == PMCLOG_EOF || st == PMCLOG_ERROR);
		if (st == PMCLOG_ERROR)
			assert_true(pmc_errmsg()[0] != '\0');
		perfdata__close(pd);
	}
	assert_true(opened > 0);
}

static void test_cut_every_byte(void **state)
{
	size_t len;
	unsigned char *b;
	(void)state;
	b = t_make_file(0, NULL, &len);
	cut_everywhere(b, len, T_NTYPES);
	free(b);
	b = t_make_pipe(1, NULL, &len);
	cut_everywhere(b, len, T_NTYPES);
	free(b);
}

static void test_cut_data_says_truncated(void **state)
{
	size_t len;
	unsigned char *b = t_make_pipe(0, NULL, &len);
	struct perfdata *pd;
	enum pmclog_state st;
	int tr;
	(void)state;
	/* pipe mode cut inside the last record: everything before, truncated */
	pd = perfdata__open_mem(b, len - 3);
	assert_non_null(pd);
	assert_int_equal(t_read_all(pd, NULL, 0, &st, &tr), T_NTYPES);
	assert_int_equal(st, PMCLOG_EOF);
	assert_int_equal(tr, 1);
	perfdata__close(pd);
	free(b);
	/* file mode with data size 0 (perf killed before it finished): the data
	 * runs to the end of the file */
	{
		struct lb recs = { .be = 0 };
		t_sample1(&recs, 5, T_ID1);
		t_sample1(&recs, 6, T_ID1);
		b = t_make_file(0, &recs, &len);
		/* no features after the data: cut them, zero the data size */
		size_t data_off = (size_t)b[40] | (size_t)b[41] << 8;
		len = data_off + recs.len;
		memset(b + 48, 0, 8);
		memset(b + 72, 0, 32);
		pd = perfdata__open_mem(b, len);
		assert_non_null(pd);
		assert_int_equal(t_read_all(pd, NULL, 0, &st, &tr), 3 + 2);
		assert_int_equal(tr, 1);
		perfdata__close(pd);
		free(b);
		free(recs.b);
	}
}

static void test_flip_every_byte(void **state)
{
	size_t len;
	unsigned char *b = t_make_file(0, NULL, &len);
	unsigned char *c = malloc(len);
	(void)state;
	for (size_t i = 0; i < len; i++) {
		for (int k = 0; k < 2; k++) {
			struct perfdata *pd;
			memcpy(c, b, len);
			c[i] ^= k ? 0xFF : 0x80;
			pd = perfdata__open_mem(c, len);
			if (pd) {
				t_read_all(pd, NULL, 0, NULL, NULL);
				perfdata__close(pd);
			}
		}
	}
	free(c);
	free(b);
}

static void test_corrupt_record_size(void **state)
{
	struct lb recs = { .be = 0 };
	size_t len, second;
	unsigned char *b;
	(void)state;
	t_sample1(&recs, 5, T_ID1);
	second = recs.len;
	t_sample1(&recs, 6, T_ID1);
	t_sample1(&recs, 7, T_ID1);
	for (int sz = 0; sz < 8; sz++) {
		struct perfdata *pd;
		enum pmclog_state st;
		lb_patch(&recs, second + 6, (uint64_t)sz, 2);
		b = t_make_file(0, &recs, &len);
		pd = perfdata__open_mem(b, len);
		assert_non_null(pd);
		/* the sample before the damage, then a clear error */
		assert_int_equal(t_read_all(pd, NULL, 0, &st, NULL), 3 + 1);
		assert_int_equal(st, PMCLOG_ERROR);
		assert_non_null(strstr(pmc_errmsg(), "size"));
		perfdata__close(pd);
		free(b);
	}
	/* a size running past the data: the records before, then truncated */
	{
		struct perfdata *pd;
		enum pmclog_state st;
		int tr;
		lb_patch(&recs, second + 6, 60000, 2);
		b = t_make_file(0, &recs, &len);
		pd = perfdata__open_mem(b, len);
		assert_int_equal(t_read_all(pd, NULL, 0, &st, &tr), 3 + 1);
		assert_int_equal(st, PMCLOG_EOF);
		assert_int_equal(tr, 1);
		perfdata__close(pd);
		free(b);
	}
	/* a sample too short for its sample_type: dropped, counted */
	{
		struct perfdata *pd;
		struct perfdata_stats s;
		lb_patch(&recs, second + 6, 24, 2);   /* header + id + ip only */
		recs.len = second + 24;
		t_sample1(&recs, 9, T_ID1);
		b = t_make_file(0, &recs, &len);
		pd = perfdata__open_mem(b, len);
		assert_int_equal(t_read_all(pd, NULL, 0, NULL, NULL), 3 + 2);
		perfdata__get_stats(pd, &s);
		assert_int_equal(s.bad_samples, 1);
		perfdata__close(pd);
		free(b);
	}
	free(recs.b);
}

static void open_fails(unsigned char *b, size_t len, const char *what)
{
	struct perfdata *pd = perfdata__open_mem(b, len);
	assert_null(pd);
	assert_int_equal(errno, EILSEQ);
	if (!strstr(pmc_errmsg(), what))
		fail_msg("\"%s\" does not say \"%s\"", pmc_errmsg(), what);
}

static void test_bogus_header(void **state)
{
	size_t len;
	unsigned char *b = t_make_file(0, NULL, &len), *c = malloc(len);
	struct perfdata *pd;
	(void)state;

	static const uint64_t bad_sizes[] = { 0, 1, 64, 79, 1000000, 0xFFFFFFFFFFFFFFFFULL };
	for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		memcpy(c, b, len);
		for (int k = 0; k < 8; k++)
			c[16 + k] = (unsigned char)(bad_sizes[i] >> (8 * k));
		open_fails(c, len, "attr");
	}
	/* attr_size bigger than the attr but not matching the section */
	memcpy(c, b, len);
	c[16] = 200;
	open_fails(c, len, "attr");
	/* an attr whose own size field is bogus */
	{
		size_t attrs = (size_t)b[24] | (size_t)b[25] << 8;
		memcpy(c, b, len);
		c[attrs + 4] = 0xff; c[attrs + 5] = 0xff;
		open_fails(c, len, "attr");
	}
	/* the attrs section past the end */
	memcpy(c, b, len);
	c[24 + 3] = 0x7f;
	open_fails(c, len, "past the end");
	/* an id section past the end */
	{
		size_t attrs = (size_t)b[24] | (size_t)b[25] << 8;
		memcpy(c, b, len);
		c[attrs + 128 + 4] = 0x7f;
		open_fails(c, len, "past the end");
	}
	/* the data section past the end */
	memcpy(c, b, len);
	c[40 + 4] = 0x7f;
	open_fails(c, len, "past the end");
	/* a feature section past the end: skipped, the rest reads */
	memcpy(c, b, len);
	{
		size_t data_off = (size_t)b[40] | (size_t)b[41] << 8;
		size_t data_size = (size_t)b[48] | (size_t)b[49] << 8;
		size_t tab = data_off + data_size;
		c[tab + 16 + 5] = 0x7f;      /* HOSTNAME is the second set bit */
	}
	pd = perfdata__open_mem(c, len);
	assert_non_null(pd);
	assert_string_equal(perfdata__hostname(pd), "");
	assert_string_equal(perfdata__osrelease(pd), "6.1.0-test");
	assert_int_equal(t_read_all(pd, NULL, 0, NULL, NULL), T_NTYPES);
	perfdata__close(pd);
	/* not a perf.data */
	pd = perfdata__open_mem("PMCLOGR\x89xxxxxxxxxxx", 16);
	assert_null(pd);
	assert_int_equal(errno, ENOEXEC);
	assert_false(perfdata__is_perfdata("PERFILE", 7));
	assert_false(perfdata__is_perfdata("PERFILE3", 8));
	free(c);
	free(b);
}

/* ---- conversions ------------------------------------------------------------- */

static void test_convert_roundtrip(void **state)
{
	size_t len;
	unsigned char *b = t_make_file(1, NULL, &len);
	int in = memfd_with(b, len), log = memfd_create("log", 0), back = memfd_create("back", 0);
	uint64_t ns = 0;
	int tr = -1;
	void *lp;
	struct pmclog_ev *ev = malloc(sizeof(*ev)), *ev2 = malloc(sizeof(*ev2));
	struct perfdata *pd, *orig;
	(void)state;

	/* perf.data -> pmc log: the pmc log reader sees the same records */
	assert_int_equal(perfdata__to_pmclog(in, log, 0, &ns, &tr), 0);
	assert_int_equal(ns, 3);
	assert_int_equal(tr, 0);
	lseek(log, 0, SEEK_SET);
	lp = pmclog_open(log);
	if (lp)
		pmclog_set_extensions(lp, 1);   /* pmc's own records too */
	assert_non_null(lp);
	orig = perfdata__open_mem(b, len);
	{
		int n = 0, chains = 0;
		while (pmclog_read(lp, ev) == 0) {
			if (ev->pl_type == PMCLOG_TYPE_INITIALIZE)
				continue;
			if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN) {
				uint32_t def;             /* interned: this sample defines it */
				memcpy(&def, (const char *)ev->pl_data + 4, 4);
				chains += def != 0;
			}
			if (ev->pl_type == PMCLOG_TYPE_CLOSELOG)
				break;
			assert_int_equal(perfdata__read(orig, ev2), 0);
			assert_int_equal(ev->pl_type, ev2->pl_type);
			if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN) {
				assert_int_equal(ev->pl_u.pl_cc.pl_npc, ev2->pl_u.pl_cc.pl_npc);
				assert_memory_equal(ev->pl_u.pl_cc.pl_pc, ev2->pl_u.pl_cc.pl_pc,
				    8 * ev->pl_u.pl_cc.pl_npc);
				assert_memory_equal(ev->pl_u.pl_cc.pl_pcflags, ev2->pl_u.pl_cc.pl_pcflags,
				    ev->pl_u.pl_cc.pl_npc);
				assert_int_equal(ev->pl_time, ev2->pl_time);
				assert_int_equal(ev->pl_u.pl_cc.pl_tid, ev2->pl_u.pl_cc.pl_tid);
			}
			if (ev->pl_type == PMCLOG_TYPE_HEADER)
				assert_string_equal(ev->pl_u.pl_h.pl_hostname, "testhost");
			if (ev->pl_type == PMCLOG_TYPE_MAP_IN)
				assert_int_equal(ev->pl_u.pl_mi.pl_buildid_len,
				    ev2->pl_u.pl_mi.pl_buildid_len);
			n++;
		}
		assert_int_equal(n, T_NTYPES);
		assert_true(chains >= 1 && chains <= 3);
	}
	pmclog_close(lp);
	perfdata__close(orig);

	/* pmc log -> perf.data (file mode): the samples come back */
	lseek(log, 0, SEEK_SET);
	assert_int_equal(perfdata__from_pmclog(log, back, &ns, &tr), 0);
	assert_int_equal(ns, 3);
	lseek(back, 0, SEEK_SET);
	pd = perfdata__open(back);
	assert_non_null(pd);
	assert_int_equal(perfdata__nattrs(pd), 2);
	assert_string_equal(perfdata__attr(pd, 0)->name, "cpu-clock:u");
	assert_string_equal(perfdata__hostname(pd), "testhost");
	assert_int_equal(perfdata__nbuildids(pd), 2);
	{
		int samples = 0, comm = 0, maps = 0;
		while (perfdata__read(pd, ev) == 0) {
			if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN) {
				samples++;
				if (ev->pl_u.pl_cc.pl_pid == 100 && ev->pl_time == 1007) {
					/* it carries user registers and stack: perf's
					 * --call-graph dwarf layout, the kernel part of the
					 * chain and the stack that the user part unwinds from */
					assert_int_equal(ev->pl_u.pl_cc.pl_npc, 2);
					assert_int_equal(ev->pl_u.pl_cc.pl_pc[1], T_KIP2);
					assert_int_equal(ev->pl_u.pl_cc.pl_pcflags[1], 0);
					assert_true(ev->pl_u.pl_cc.pl_nuregs > 0);
					assert_true(ev->pl_u.pl_cc.pl_ustack_len > 0);
				}
			}
			comm += ev->pl_type == PMCLOG_TYPE_COMM;
			maps += ev->pl_type == PMCLOG_TYPE_MAP_IN;
		}
		assert_int_equal(ev->pl_state, PMCLOG_EOF);
		assert_int_equal(samples, 3);
		assert_int_equal(comm, 2);
		assert_int_equal(maps, 3);
	}
	perfdata__close(pd);

	/* pmc log -> perf.data on a pipe: pipe mode */
	{
		int pp[2];
		pid_t pid;
		assert_int_equal(pipe(pp), 0);
		lseek(log, 0, SEEK_SET);
		pid = fork();
		if (pid == 0) {
			close(pp[0]);
			_exit(perfdata__from_pmclog(log, pp[1], &ns, &tr) ? 1 : 0);
		}
		close(pp[1]);
		pd = perfdata__open(pp[0]);
		assert_non_null(pd);
		assert_true(perfdata__flags(pd) & PERFDATA_F_PIPE);
		int samples = 0;
		while (perfdata__read(pd, ev) == 0)
			samples += ev->pl_type == PMCLOG_TYPE_CALLCHAIN;
		assert_int_equal(samples, 3);
		assert_string_equal(perfdata__attr(pd, 1)->name, "task-clock");
		perfdata__close(pd);
		close(pp[0]);
		int status;
		waitpid(pid, &status, 0);
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	close(in);
	close(log);
	close(back);
	free(ev);
	free(ev2);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_type_le),
		cmocka_unit_test(test_every_type_be),
		cmocka_unit_test(test_pipe_mode),
		cmocka_unit_test(test_pipe_late_attr),
		cmocka_unit_test(test_fds),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_garbage),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_rounds_many_runs),
		cmocka_unit_test(test_cut_every_byte),
		cmocka_unit_test(test_cut_data_says_truncated),
		cmocka_unit_test(test_flip_every_byte),
		cmocka_unit_test(test_corrupt_record_size),
		cmocka_unit_test(test_bogus_header),
		cmocka_unit_test(test_convert_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
