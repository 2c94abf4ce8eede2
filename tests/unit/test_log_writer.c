/*
 * test_log_writer.c — the writer thread without the kernel: a fake
 * perf_event_mmap_page filled with hand-built PERF_RECORD_* records (one
 * wrapping the end of the ring), a fake backend whose ring_wait just
 * sleeps; the log is checked through the reader.  Also: a corrupted ring,
 * remove_ring draining, a write error (RLIMIT_FSIZE -> EFBIG) that is
 * reported and leaves a readable log, and a smoke test on the real kernel.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "test_log_util.h"

#define DSIZE 8192

/* ---- fake backend and ring -------------------------------------------- */

static int fake_wait(struct pmc_bctr **cs, int n, int timeout_ms)
{
	usleep(1000);
	return 0;
}
static uint64_t fake_now(void)
{
	return 777777;
}
static const struct pmc_backend_ops fake_be = {
	.name = "fake",
	.ring_wait = fake_wait,
	.now = fake_now,
};

/* sample_id_all trailer for TID|TIME|CPU|IDENTIFIER */
static void kr_trailer(struct lb *r, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu,
    uint64_t id)
{
	lb32(r, pid);
	lb32(r, tid);
	lb64(r, time);
	lb32(r, cpu);
	lb32(r, 0);
	lb64(r, id);
}

/* The record built in r (begun at 0) into the ring; r emptied for the next. */
static void produce(struct lb_ring *f, struct lb *r)
{
	lb_rec_end(r, 0);
	lb_ring_produce(f, r->b, r->len);
	r->len = 0;
}

/* what a counter was opened with (sample_type, read_format) */
#define LAYOUT(st, rf) (&(struct psample_layout){ .sample_type = (st), .read_format = (rf) })
#define ST_TRAILER (PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
#define ST_42 (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)
#define ST_43 (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_PERIOD | \
	PERF_SAMPLE_RAW)
#define ST_50 (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
	PERF_SAMPLE_READ)

static void register_events(struct pmc_logw *lw)
{
	assert_int_equal(pmc__logw_add_event(lw, 42, 0x11, LAYOUT(ST_42, 0), PMC_LOGW_SAMPLES), 0);
	assert_int_equal(pmc__logw_add_event(lw, 43, 0x12, LAYOUT(ST_43, 0), PMC_LOGW_SAMPLES), 0);
	assert_int_equal(pmc__logw_add_event(lw, 50, 0x20, LAYOUT(ST_50,
	    PERF_FORMAT_GROUP | PERF_FORMAT_ID), PMC_LOGW_CSW_PROBE), 0);
	assert_int_equal(pmc__logw_add_event(lw, 51, 0x21, LAYOUT(ST_TRAILER,
	    PERF_FORMAT_GROUP | PERF_FORMAT_ID), PMC_LOGW_SAMPLES), 0);
	assert_int_equal(pmc__logw_add_event(lw, 60, 0x30, LAYOUT(ST_TRAILER,
	    PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED), PMC_LOGW_EXIT_READ), 0);
	/* many more, to make the id table grow */
	for (uint64_t i = 1000; i < 1200; i++)
		assert_int_equal(pmc__logw_add_event(lw, i, (pmc_id_t)i, LAYOUT(ST_42, 0), PMC_LOGW_SAMPLES), 0);
}

static void produce_all(struct lb_ring *f)
{
	struct lb r = { .be = LB_HOST_BE };
	static const uint8_t bid[20] = { 0xaa, 0xbb, 0xcc, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17 };

	/* 1. a kernel-mode sample with a kernel + user call chain */
	lb_rec_begin(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	lb64(&r, 42);
	lb64(&r, 0xffffffff81000100ull);
	lb32(&r, 100); lb32(&r, 101);
	lb64(&r, 5000);
	lb32(&r, 2); lb32(&r, 0);
	lb64(&r, 100000);
	lb64(&r, 6);
	lb64(&r, (uint64_t)PERF_CONTEXT_KERNEL);
	lb64(&r, 0xffffffff81000100ull);
	lb64(&r, 0xffffffff81000200ull);
	lb64(&r, (uint64_t)PERF_CONTEXT_USER);
	lb64(&r, 0x401000);
	lb64(&r, 0x402000);
	produce(f, &r);
	/* 2. a user-mode sample without a call chain, with ADDR, ID, STREAM_ID, RAW */
	lb_rec_begin(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	lb64(&r, 43);
	lb64(&r, 0x405000);
	lb32(&r, 100); lb32(&r, 102);
	lb64(&r, 6000);
	lb64(&r, 0xdead0000);     /* addr */
	lb64(&r, 43);             /* id */
	lb64(&r, 43);             /* stream id */
	lb64(&r, 250);            /* period */
	lb32(&r, 12); lb32(&r, 0x11111111);   /* raw: u32 size, then data */
	lb64(&r, 0x2222222222222222ull);
	lb32(&r, 0x33333333); lb32(&r, 0);
	produce(f, &r);
	/* 3. COMM at exec: its PROCEXEC waits for the new image's mappings */
	lb_rec_begin(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	lb32(&r, 100); lb32(&r, 100);
	lb_str8(&r, "true");
	kr_trailer(&r, 100, 100, 7000, 2, 42);
	produce(f, &r);
	/* 4. MMAP2 of the program, with a build id */
	lb_rec_begin(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	lb32(&r, 100); lb32(&r, 100);
	lb64(&r, 0x400000);
	lb64(&r, 0x3000);
	lb64(&r, 0x1000);
	{
		unsigned char u[24] = { 20 };
		memcpy(u + 4, bid, 20);
		lb_bytes(&r, u, 24);
	}
	lb32(&r, 5); lb32(&r, 2);
	lb_str8(&r, "/bin/true");
	kr_trailer(&r, 100, 100, 8000, 2, 42);
	produce(f, &r);
	/* 4b. MMAP2 of the dynamic linker: PROCEXEC follows, with both bases */
	lb_rec_begin(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	lb32(&r, 100); lb32(&r, 100);
	lb64(&r, 0x7f0000001000ull);
	lb64(&r, 0x2000);
	lb64(&r, 0x1000);
	{
		unsigned char u[24] = { 0 };
		lb_bytes(&r, u, 24);
	}
	lb32(&r, 5); lb32(&r, 2);
	lb_str8(&r, "/lib/ld.so");
	kr_trailer(&r, 100, 100, 8100, 2, 42);
	produce(f, &r);
	/* 5. FORK of a process, 6. of a thread */
	lb_rec_begin(&r, PERF_RECORD_FORK, 0);
	lb32(&r, 200); lb32(&r, 100);
	lb32(&r, 200); lb32(&r, 101);
	lb64(&r, 9000);
	kr_trailer(&r, 200, 200, 9000, 1, 42);
	produce(f, &r);
	lb_rec_begin(&r, PERF_RECORD_FORK, 0);
	lb32(&r, 100); lb32(&r, 100);
	lb32(&r, 102); lb32(&r, 101);
	lb64(&r, 9100);
	kr_trailer(&r, 100, 102, 9100, 1, 42);
	produce(f, &r);
	/* 7. EXIT of a process's main thread */
	lb_rec_begin(&r, PERF_RECORD_EXIT, 0);
	lb32(&r, 200); lb32(&r, 100);
	lb32(&r, 200); lb32(&r, 200);
	lb64(&r, 9500);
	kr_trailer(&r, 200, 200, 9500, 1, 42);
	produce(f, &r);
	/* 8. LOST, 9. LOST_SAMPLES */
	lb_rec_begin(&r, PERF_RECORD_LOST, 0);
	lb64(&r, 42);
	lb64(&r, 7);
	kr_trailer(&r, 0, 0, 10000, 2, 42);
	produce(f, &r);
	lb_rec_begin(&r, PERF_RECORD_LOST_SAMPLES, 0);
	lb64(&r, 3);
	kr_trailer(&r, 0, 0, 10100, 3, 42);
	produce(f, &r);
	/* 10. THROTTLE */
	lb_rec_begin(&r, PERF_RECORD_THROTTLE, 0);
	lb64(&r, 10200);
	lb64(&r, 42);
	lb64(&r, 42);
	kr_trailer(&r, 0, 0, 10200, 2, 42);
	produce(f, &r);
	/* 11. READ at a thread's exit (inherit_stat): value, enabled, id */
	lb_rec_begin(&r, PERF_RECORD_READ, 0);
	lb32(&r, 100); lb32(&r, 102);
	lb64(&r, 5555);
	lb64(&r, 123);
	lb64(&r, 60);
	kr_trailer(&r, 100, 102, 11000, 0, 60);
	produce(f, &r);
	/* 12. two context-switch probe samples carrying the group's values */
	for (int i = 0; i < 2; i++) {
		lb_rec_begin(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
		lb64(&r, 50);
		lb32(&r, 100); lb32(&r, 101);
		lb64(&r, 12000 + (uint64_t)i);
		lb32(&r, 1); lb32(&r, 0);
		lb64(&r, 2);                            /* nr */
		lb64(&r, (uint64_t)i + 1);              /* the probe itself */
		lb64(&r, 50);
		lb64(&r, i == 0 ? 1000 : 1600);         /* the member */
		lb64(&r, 51);
		produce(f, &r);
	}
	/* 13. a context switch (pmc_set_switch_log): SWITCH, the thread of its trailer */
	lb_rec_begin(&r, PERF_RECORD_SWITCH, 0);
	kr_trailer(&r, 100, 101, 13000, 1, 42);
	produce(f, &r);
	lb_free(&r);
}

static const int expect_types[] = {
	PMCLOG_TYPE_HEADER, PMCLOG_TYPE_INITIALIZE,
	/* each sample's chain is new: the sample is whole and defines it */
	PMCLOG_TYPE_CALLCHAIN, PMCLOG_TYPE_CALLCHAIN,
	PMCLOG_TYPE_COMM, PMCLOG_TYPE_MAP_IN, PMCLOG_TYPE_MAP_IN, PMCLOG_TYPE_PROCEXEC, PMCLOG_TYPE_PROCFORK, PMCLOG_TYPE_THR_CREATE,
	PMCLOG_TYPE_THR_EXIT, PMCLOG_TYPE_SYSEXIT, PMCLOG_TYPE_DROPNOTIFY, PMCLOG_TYPE_DROPNOTIFY,
	PMCLOG_TYPE_THROTTLE, PMCLOG_TYPE_PROCEXIT, PMCLOG_TYPE_PROCCSW, PMCLOG_TYPE_PROCCSW,
	PMCLOG_TYPE_SWITCH, PMCLOG_TYPE_CLOSELOG,
};

static void check_translated(int i, const struct pmclog_ev *ev)
{
	assert_int_equal(ev->pl_type, expect_types[i]);
	switch (i) {
	case 2: {
		const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
		assert_int_equal(ev->pl_time, 5000);
		assert_int_equal(cc->pl_pmcid, 0x11);
		assert_int_equal(cc->pl_pid, 100);
		assert_int_equal(cc->pl_tid, 101);
		assert_int_equal(cc->pl_cpu, 2);
		assert_int_equal(cc->pl_period, 100000);
		assert_int_equal(cc->pl_usermode, 0);
		assert_int_equal(cc->pl_npc, 4);
		assert_int_equal(cc->pl_pc[0], 0xffffffff81000100ull);
		assert_int_equal(cc->pl_pc[1], 0xffffffff81000200ull);
		assert_int_equal(cc->pl_pc[2], 0x401000);
		assert_int_equal(cc->pl_pc[3], 0x402000);
		assert_int_equal(cc->pl_pcflags[0], 0);
		assert_int_equal(cc->pl_pcflags[1], 0);
		assert_int_equal(cc->pl_pcflags[2], PMC_CC_F_USERSPACE);
		assert_int_equal(cc->pl_pcflags[3], PMC_CC_F_USERSPACE);
		break;
	}
	case 3: {
		const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
		assert_int_equal(ev->pl_time, 6000);
		assert_int_equal(cc->pl_pmcid, 0x12);
		assert_int_equal(cc->pl_tid, 102);
		assert_int_equal(cc->pl_cpu, 0);
		assert_int_equal(cc->pl_period, 250);
		assert_int_equal(cc->pl_usermode, 1);
		assert_int_equal(cc->pl_npc, 1);
		assert_int_equal(cc->pl_pc[0], 0x405000);
		assert_int_equal(cc->pl_pcflags[0], PMC_CC_F_USERSPACE);
		break;
	}
	case 4:
		assert_int_equal(ev->pl_u.pl_cm.pl_pid, 100);
		assert_int_equal(ev->pl_u.pl_cm.pl_flags, PMCLOG_COMM_F_EXEC);
		assert_string_equal(ev->pl_u.pl_cm.pl_comm, "true");
		break;
	case 5: {
		const struct pmclog_ev_map_in *m = &ev->pl_u.pl_mi;
		assert_int_equal(ev->pl_time, 8000);
		assert_int_equal(m->pl_pid, 100);
		assert_int_equal(m->pl_start, 0x400000);
		assert_int_equal(m->pl_len, 0x3000);
		assert_int_equal(m->pl_pgoff, 0x1000);
		assert_int_equal(m->pl_prot, 5);
		assert_int_equal(m->pl_mflags, 2);
		assert_int_equal(m->pl_buildid_len, 20);
		assert_int_equal(m->pl_buildid[0], 0xaa);
		assert_int_equal(m->pl_buildid[19], 17);
		assert_string_equal(m->pl_pathname, "/bin/true");
		break;
	}
	case 6:
		assert_string_equal(ev->pl_u.pl_mi.pl_pathname, "/lib/ld.so");
		break;
	case 7:
		/* hwpmc's PROCEXEC: the image's full path, the dynamic linker's
		 * base (pl_baseaddr) and the executable's load bias (pl_dynaddr:
		 * /bin/true is a PIE, its bias is where offset 0 went) */
		assert_int_equal(ev->pl_u.pl_x.pl_pid, 100);
		assert_int_equal(ev->pl_u.pl_x.pl_pmcid, 0x11);
		assert_string_equal(ev->pl_u.pl_x.pl_pathname, "/bin/true");
		assert_int_equal(ev->pl_u.pl_x.pl_baseaddr, 0x7f0000000000ull);
		assert_int_equal(ev->pl_u.pl_x.pl_dynaddr, 0x400000 - 0x1000);
		break;
	case 8:
		assert_int_equal(ev->pl_u.pl_f.pl_oldpid, 100);
		assert_int_equal(ev->pl_u.pl_f.pl_newpid, 200);
		assert_int_equal(ev->pl_u.pl_f.pl_oldtid, 101);
		assert_int_equal(ev->pl_u.pl_f.pl_newtid, 200);
		assert_int_equal(ev->pl_time, 9000);
		break;
	case 9:
		assert_int_equal(ev->pl_u.pl_tc.pl_tid, 102);
		assert_int_equal(ev->pl_u.pl_tc.pl_pid, 100);
		break;
	case 10:
		assert_int_equal(ev->pl_u.pl_te.pl_tid, 200);
		assert_int_equal(ev->pl_u.pl_te.pl_pid, 200);
		break;
	case 11:
		assert_int_equal(ev->pl_u.pl_se.pl_pid, 200);
		break;
	case 12:
		assert_int_equal(ev->pl_u.pl_dn.pl_count, 7);
		assert_int_equal(ev->pl_u.pl_dn.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_dn.pl_cpu, 2);
		assert_int_equal(ev->pl_u.pl_dn.pl_reason, PMCLOG_DROP_RING);
		break;
	case 13:
		assert_int_equal(ev->pl_u.pl_dn.pl_count, 3);
		assert_int_equal(ev->pl_u.pl_dn.pl_cpu, 3);
		assert_int_equal(ev->pl_u.pl_dn.pl_reason, PMCLOG_DROP_SAMPLES);
		break;
	case 14:
		assert_int_equal(ev->pl_u.pl_th.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_th.pl_throttled, 1);
		assert_int_equal(ev->pl_u.pl_th.pl_cpu, 2);
		break;
	case 15:
		assert_int_equal(ev->pl_u.pl_e.pl_pmcid, 0x30);
		assert_int_equal(ev->pl_u.pl_e.pl_pid, 100);
		assert_int_equal(ev->pl_u.pl_e.pl_tid, 102);
		assert_int_equal(ev->pl_u.pl_e.pl_value, 5555);
		assert_int_equal(ev->pl_time, 11000);
		break;
	case 16:
	case 17:
		assert_int_equal(ev->pl_u.pl_c.pl_pmcid, 0x21);
		assert_int_equal(ev->pl_u.pl_c.pl_pid, 100);
		assert_int_equal(ev->pl_u.pl_c.pl_tid, 101);
		assert_int_equal(ev->pl_u.pl_c.pl_cpu, 1);
		assert_int_equal(ev->pl_u.pl_c.pl_value, i == 16 ? 1000 : 600);
		break;
	}
}

static int read_log_fd(int fd, void (*check)(int, const struct pmclog_ev *), int *truncated)
{
	void *p;
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	int n = 0;

	lseek(fd, 0, SEEK_SET);
	p = pmclog_open(fd);
	if (p)
		pmclog_set_extensions(p, 1);   /* pmc's own records too */
	while (pmclog_read(p, ev) == 0) {
		if (check)
			check(n, ev);
		n++;
	}
	assert_int_equal(ev->pl_state, PMCLOG_EOF);
	*truncated = pmclog_truncated(p, NULL, NULL);
	pmclog_close(p);
	free(ev);
	return n;
}

static void test_translate_fake_ring(void **state)
{
	FILE *f = tmpfile();
	struct pmc_logw *lw;
	struct lb_ring fr;
	struct pmc_logw_stats st;
	int tr;

	lb_ring_init(&fr, DSIZE, 5 * (uint64_t)DSIZE - 40);   /* the first record wraps */
	assert_int_equal(pmc__logw_open(fileno(f), 0, "test", &lw), 0);
	register_events(lw);
	assert_int_equal(pmc__logw_add_ring(lw, &fake_be, (struct pmc_bctr *)&fr, fr.page, DSIZE), 0);
	produce_all(&fr);
	assert_int_equal(pmc__logw_flush(lw), 0);
	assert_int_equal(fr.page->data_tail, fr.page->data_head);
	pmc__logw_get_stats(lw, &st);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.lost, 10);
	assert_int_equal(st.records, sizeof(expect_types) / sizeof(expect_types[0]) - 1);
	assert_int_equal(st.errors, 0);
	assert_int_equal(st.error, 0);
	assert_true(st.sweeps >= 1);
	assert_true(st.writes >= 2);
	assert_int_equal(pmc__logw_close(lw), 0);
	assert_int_equal(read_log_fd(fileno(f), check_translated, &tr),
	    (int)(sizeof(expect_types) / sizeof(expect_types[0])));
	assert_int_equal(tr, 0);
	fclose(f);
	free(fr.page);
}

static int g_corrupt_seen, g_after_seen;
static void check_corrupt(int i, const struct pmclog_ev *ev)
{
	if (ev->pl_type == PMCLOG_TYPE_DROPNOTIFY && ev->pl_u.pl_dn.pl_reason == PMCLOG_DROP_CORRUPT)
		g_corrupt_seen++;
	if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN && ev->pl_u.pl_cc.pl_pc[0] == 0x777000)
		g_after_seen++;
}

static void test_corrupt_ring(void **state)
{
	FILE *f = tmpfile();
	struct pmc_logw *lw;
	struct lb_ring fr;
	struct pmc_logw_stats st;
	struct lb r = { .be = LB_HOST_BE };
	int tr;

	lb_ring_init(&fr, DSIZE, 0);
	assert_int_equal(pmc__logw_open(fileno(f), 0, "test", &lw), 0);
	register_events(lw);
	/* a record of size 0 */
	memset(fr.data, 0, 64);
	((struct perf_event_header *)fr.data)->type = PERF_RECORD_SAMPLE;
	__atomic_store_n(&fr.page->data_head, 64, __ATOMIC_RELEASE);
	assert_int_equal(pmc__logw_add_ring(lw, &fake_be, (struct pmc_bctr *)&fr, fr.page, DSIZE), 0);
	assert_int_equal(pmc__logw_flush(lw), 0);
	pmc__logw_get_stats(lw, &st);
	assert_true(st.errors >= 1);
	assert_int_equal(fr.page->data_tail, 64);       /* skipped, not stuck */
	/* the ring works again afterwards */
	lb_rec_begin(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	lb64(&r, 43);
	lb64(&r, 0x777000);
	lb32(&r, 1); lb32(&r, 1);
	lb64(&r, 1);
	lb64(&r, 0);
	lb64(&r, 43);
	lb64(&r, 43);
	lb64(&r, 1);
	lb32(&r, 4); lb32(&r, 0);
	produce(&fr, &r);
	/* an unregistered event id: counted, not logged */
	lb_rec_begin(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	lb64(&r, 99999);
	lb64(&r, 0x1);
	produce(&fr, &r);
	/* remove_ring drains before it returns */
	pmc__logw_remove_ring(lw, (struct pmc_bctr *)&fr);
	assert_int_equal(fr.page->data_tail, fr.page->data_head);
	pmc__logw_get_stats(lw, &st);
	assert_int_equal(st.samples, 1);
	assert_true(st.errors >= 2);
	assert_int_equal(pmc__logw_close(lw), 0);
	g_corrupt_seen = g_after_seen = 0;
	read_log_fd(fileno(f), check_corrupt, &tr);
	assert_int_equal(g_corrupt_seen, 1);
	assert_int_equal(g_after_seen, 1);
	assert_int_equal(tr, 0);
	fclose(f);
	free(fr.page);
	lb_free(&r);
}

/* Many threads write while the writer thread drains a busy ring. */
static struct pmc_logw *g_lw;
static void *writer_thread(void *arg)
{
	struct pmc_logrec *rec = malloc(sizeof(*rec));
	for (uint32_t i = 0; i < 2000; i++) {
		pmc__logrec_userdata(rec, (uint32_t)(uintptr_t)arg << 16 | i);
		assert_int_equal(pmc__logw_put(g_lw, rec), 0);
	}
	free(rec);
	return NULL;
}
static int g_ud[4];
static void check_userdata(int i, const struct pmclog_ev *ev)
{
	if (ev->pl_type == PMCLOG_TYPE_USERDATA) {
		uint32_t u = ev->pl_u.pl_u.pl_userdata;
		assert_int_equal(u & 0xFFFF, (uint32_t)g_ud[u >> 16]);  /* in order per thread */
		g_ud[u >> 16]++;
	}
}
static void test_concurrent_writes(void **state)
{
	FILE *f = tmpfile();
	pthread_t t[4];
	int tr;

	pmc__logw_set_bufsize(4096);    /* clamped to 64 KB: many write-outs */
	assert_int_equal(pmc__logw_open(fileno(f), PMC_LOGW_ZSTD, "test", &g_lw), 0);
	for (uintptr_t i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, writer_thread, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(pmc__logw_close(g_lw), 0);
	pmc__logw_set_bufsize(0);
	memset(g_ud, 0, sizeof(g_ud));
	assert_int_equal(read_log_fd(fileno(f), check_userdata, &tr), 8000 + 3);
	for (int i = 0; i < 4; i++)
		assert_int_equal(g_ud[i], 2000);
	assert_int_equal(tr, 0);
	fclose(f);
}

/* ---- write errors ------------------------------------------------------- */

static uint32_t g_next_ud;
static void check_efbig(int i, const struct pmclog_ev *ev)
{
	if (ev->pl_type == PMCLOG_TYPE_USERDATA) {
		assert_int_equal(ev->pl_u.pl_u.pl_userdata, g_next_ud);
		g_next_ud++;
	}
}

static void efbig(unsigned flags)
{
	char path[] = "/tmp/pmc-test-efbig-XXXXXX";
	int fd = mkstemp(path), status, tr;
	pid_t pid;

	assert_true(fd >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { 20000, 20000 };
		struct pmc_logw *lw;
		struct pmc_logw_stats st;
		struct pmc_logrec *rec = malloc(sizeof(*rec));
		int rc = 0, failed_at = -1;
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
			_exit(10);
		if (pmc__logw_open(fd, flags, "test", &lw) != 0)
			_exit(11);
		for (uint32_t i = 0; i < 20000; i++) {
			pmc__logrec_userdata(rec, i);
			rc = pmc__logw_put(lw, rec);
			if (rc != 0 && rc != -EFBIG)
				_exit(12);
			if (i % 100 == 99) {
				rc = pmc__logw_flush(lw);
				if (rc == -EFBIG && failed_at < 0)
					failed_at = (int)i;
				else if (rc != 0 && rc != -EFBIG)
					_exit(13);
			}
		}
		if (failed_at < 0)
			_exit(14);
		if (pmc__logw_flush(lw) != -EFBIG)       /* sticky */
			_exit(15);
		pmc__logw_get_stats(lw, &st);
		if (st.error != EFBIG || st.errors < 1)
			_exit(16);
		if (pmc__logw_close(lw) != -EFBIG)
			_exit(17);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_true(lseek(fd, 0, SEEK_END) <= 20000);
	g_next_ud = 0;
	read_log_fd(fd, check_efbig, &tr);
	assert_int_equal(tr, 1);
	if (flags == 0)
		assert_true(g_next_ud > 500);   /* what was written reads */
	else
		assert_true(g_next_ud > 100);
	close(fd);
	unlink(path);
}

static void test_efbig(void **state)
{
	efbig(0);
}

static void test_efbig_zstd(void **state)
{
	efbig(PMC_LOGW_ZSTD);
}

static void test_bad_args(void **state)
{
	struct pmc_logw *lw;
	FILE *f = tmpfile();
	unsigned char big[PMCLOG_REC_MAX];

	assert_int_equal(pmc__logw_open(-1, 0, NULL, &lw), -EINVAL);
	assert_int_equal(pmc__logw_open(fileno(f), 0x100, NULL, &lw), -EINVAL);
	assert_int_equal(pmc__logw_open(fileno(f), 0, NULL, &lw), 0);
	memset(big, 0, sizeof(big));
	assert_int_equal(pmc__logw_write(lw, PMCLOG_TYPE_USERDATA, big, sizeof(big)), -EMSGSIZE);
	assert_int_equal(pmc__logw_write(lw, PMCLOG_TYPE_USERDATA, big, 3), 0);   /* padded */
	assert_int_equal(pmc__logw_close(lw), 0);
	fclose(f);
}

/* ---- the real kernel ------------------------------------------------------ */

static int g_perf_fd = -1;
static int real_wait(struct pmc_bctr **cs, int n, int timeout_ms)
{
	struct pollfd p = { g_perf_fd, POLLIN, 0 };
	return poll(&p, 1, timeout_ms);
}
static const struct pmc_backend_ops real_be = { .name = "test-linux", .ring_wait = real_wait };

static int g_real_samples;
static void check_real(int i, const struct pmclog_ev *ev)
{
	if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN) {
		assert_int_equal(ev->pl_u.pl_cc.pl_pid, getpid());
		assert_int_equal(ev->pl_u.pl_cc.pl_pmcid, 0x77);
		assert_true(ev->pl_u.pl_cc.pl_npc >= 1);
		assert_int_equal(ev->pl_u.pl_cc.pl_period, 100000);
		g_real_samples++;
	}
}

static void test_real_kernel(void **state)
{
	struct perf_event_attr a;
	struct pmc_logw *lw;
	FILE *f = tmpfile();
	long pg = sysconf(_SC_PAGESIZE);
	void *map;
	uint64_t id;
	static volatile uint64_t x;
	struct timespec t0, t1;
	int tr;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	a.sample_id_all = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.wakeup_events = 1;
	g_perf_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (g_perf_fd < 0) {
		fclose(f);
		skip();
	}
	map = mmap(NULL, (size_t)pg * 9, PROT_READ | PROT_WRITE, MAP_SHARED, g_perf_fd, 0);
	assert_true(map != MAP_FAILED);
	assert_int_equal(ioctl(g_perf_fd, PERF_EVENT_IOC_ID, &id), 0);
	assert_int_equal(pmc__logw_open(fileno(f), PMC_LOGW_ZSTD, "test", &lw), 0);
	assert_int_equal(pmc__logw_add_event(lw, id, 0x77, LAYOUT(a.sample_type, 0), PMC_LOGW_SAMPLES), 0);
	assert_int_equal(pmc__logw_add_ring(lw, &real_be, (struct pmc_bctr *)&g_perf_fd, map,
	    (size_t)pg * 8), 0);
	ioctl(g_perf_fd, PERF_EVENT_IOC_ENABLE, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x += (uint64_t)i * 7;
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 100000000L);
	ioctl(g_perf_fd, PERF_EVENT_IOC_DISABLE, 0);
	assert_true(x > 0);
	assert_int_equal(pmc__logw_flush(lw), 0);
	pmc__logw_remove_ring(lw, (struct pmc_bctr *)&g_perf_fd);
	assert_int_equal(pmc__logw_close(lw), 0);
	munmap(map, (size_t)pg * 9);
	close(g_perf_fd);
	g_real_samples = 0;
	read_log_fd(fileno(f), check_real, &tr);
	assert_true(g_real_samples >= 10);       /* ~1000 expected in 100 ms at 100 us */
	assert_int_equal(tr, 0);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_translate_fake_ring),
		cmocka_unit_test(test_corrupt_ring),
		cmocka_unit_test(test_concurrent_writes),
		cmocka_unit_test(test_efbig),
		cmocka_unit_test(test_efbig_zstd),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_real_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
