/*
 * test_log_raw.c — format 3.1: a sample's raw payload (PERF_SAMPLE_RAW, a
 * tracepoint's fields) and perf's tracing data (TRACEDATA records), written
 * through pmclog_writer as `pmc convert` writes them and read back exactly:
 * the payload beside a user stack, samples with one never interned, tracing
 * data longer than a record split into pieces in order; a record whose
 * lengths disagree is refused.
 */
#include "test_log_util.h"

/* The log pmclog_writer makes of evs[0..n), in memory (*len bytes). */
static unsigned char *write_log(const struct pmclog_ev *evs, int n, size_t *len)
{
	FILE *f = tmpfile();
	struct pmclog_writer *w;
	unsigned char *b;

	assert_non_null(f);
	w = pmclog_writer_open(fileno(f), 0);
	assert_non_null(w);
	for (int i = 0; i < n; i++)
		assert_int_equal(pmclog_write(w, &evs[i]), 0);
	assert_int_equal(pmclog_writer_close(w), 0);
	b = tio_slurp_fd(fileno(f), len);
	fclose(f);
	return b;
}

static void header_ev(struct pmclog_ev *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->pl_type = PMCLOG_TYPE_HEADER;
	ev->pl_u.pl_h.pl_version = PMC_VERSION;
	ev->pl_u.pl_h.pl_clockid = 1;
}

/* Two samples with the same chain and their fields (one with a user stack
 * too): both come back whole, with their own payloads, not interned. */
static void test_raw_samples(void **state)
{
	static struct pmclog_ev evs[3], ev;
	static unsigned char raw[2][68], stk[40];
	uint64_t regs[2] = { 0x1111, 0x2222 };
	size_t len;
	int got = 0;
	(void)state;

	header_ev(&evs[0]);
	for (int k = 0; k < 2; k++) {
		struct pmclog_ev_callchain *c = &evs[1 + k].pl_u.pl_cc;
		memset(&evs[1 + k], 0, sizeof(evs[1 + k]));
		evs[1 + k].pl_type = PMCLOG_TYPE_CALLCHAIN;
		evs[1 + k].pl_time = 1000 + (uint64_t)k;
		c->pl_pmcid = 0x100;
		c->pl_pid = c->pl_tid = 42;
		c->pl_cpu = 1;
		c->pl_period = 1;
		c->pl_npc = 1;
		c->pl_pc[0] = 0xffffffff81000010ull;
		for (size_t i = 0; i < sizeof(raw[k]); i++)
			raw[k][i] = (unsigned char)(i * 3 + (size_t)k);
		c->pl_raw = raw[k];
		c->pl_raw_len = sizeof(raw[k]) - (uint32_t)k;   /* 68, and an odd 67 */
		c->pl_raw_flags = PMCLOG_RAW_F_NOCHAIN;
	}
	for (size_t i = 0; i < sizeof(stk); i++)
		stk[i] = (unsigned char)(0xa0 + i);
	struct pmclog_ev_callchain *u = &evs[2].pl_u.pl_cc;
	u->pl_uregs_abi = 2;
	u->pl_nuregs = 2;
	u->pl_uregs_mask = 0x180;
	memcpy(u->pl_uregs, regs, sizeof(regs));
	u->pl_ustack = stk;
	u->pl_ustack_len = sizeof(stk);

	unsigned char *b = write_log(evs, 3, &len);
	void *p = lb_reader(b, len, 1);
	while (pmclog_read(p, &ev) == 0) {
		const struct pmclog_ev_callchain *c = &ev.pl_u.pl_cc;
		if (ev.pl_type != PMCLOG_TYPE_CALLCHAIN)
			continue;
		assert_true(got < 2);
		assert_int_equal(c->pl_chain, 0);
		assert_int_equal(c->pl_raw_flags, PMCLOG_RAW_F_NOCHAIN);
		assert_int_equal(c->pl_raw_len, sizeof(raw[got]) - (uint32_t)got);
		assert_memory_equal(c->pl_raw, raw[got], c->pl_raw_len);
		assert_int_equal(c->pl_pc[0], 0xffffffff81000010ull);
		if (got == 1) {
			assert_int_equal(c->pl_nuregs, 2);
			assert_int_equal(c->pl_uregs[1], 0x2222);
			assert_int_equal(c->pl_ustack_len, sizeof(stk));
			assert_memory_equal(c->pl_ustack, stk, sizeof(stk));
		}
		got++;
	}
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	assert_int_equal(got, 2);
	pmclog_close(p);
	free(b);
}

/* 150,000 bytes of tracing data: three records, pieces in order, the same
 * bytes put together. */
static void test_tracedata(void **state)
{
	enum { TOTAL = 150000 };
	static struct pmclog_ev evs[2], ev;
	static unsigned char td[TOTAL], back[TOTAL];
	uint64_t have = 0;
	size_t len;
	int pieces = 0;
	(void)state;

	for (size_t i = 0; i < TOTAL; i++)
		td[i] = (unsigned char)(i * 7 + i / 251);
	header_ev(&evs[0]);
	memset(&evs[1], 0, sizeof(evs[1]));
	evs[1].pl_type = PMCLOG_TYPE_TRACEDATA;
	evs[1].pl_u.pl_td.pl_total = TOTAL;
	evs[1].pl_u.pl_td.pl_len = TOTAL;
	evs[1].pl_u.pl_td.pl_bytes = td;
	unsigned char *b = write_log(evs, 2, &len);

	void *p = lb_reader(b, len, 1);
	while (pmclog_read(p, &ev) == 0) {
		const struct pmclog_ev_tracedata *t = &ev.pl_u.pl_td;
		if (ev.pl_type != PMCLOG_TYPE_TRACEDATA)
			continue;
		assert_int_equal(t->pl_total, TOTAL);
		assert_int_equal(t->pl_offset, have);
		assert_true(t->pl_len > 0 && t->pl_len <= PMCLOG_TRACEDATA_CHUNK);
		memcpy(back + have, t->pl_bytes, t->pl_len);
		have += t->pl_len;
		pieces++;
	}
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	assert_int_equal(have, TOTAL);
	assert_int_equal(pieces, 3);
	assert_memory_equal(back, td, TOTAL);
	pmclog_close(p);

	/* a reader without extensions skips them (as a FreeBSD client) */
	p = lb_reader(b, len, 0);
	while (pmclog_read(p, &ev) == 0)
		assert_int_not_equal(ev.pl_type, PMCLOG_TYPE_TRACEDATA);
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	pmclog_close(p);
	free(b);
}

/* One record through the writer thread's path, read back: the read state. */
static int read_one(struct pmc_logrec *r)
{
	static struct pmclog_ev ev;
	struct lb_logw w;
	size_t len;

	assert_int_equal(pmc__logw_write(lb_logw_open(&w, 0, "test"), r->type, r->buf, r->len), 0);
	unsigned char *b = lb_logw_close(&w, &len);
	void *p = lb_reader(b, len, 1);
	while (pmclog_read(p, &ev) == 0)
		;
	pmclog_close(p);
	free(b);
	return (int)ev.pl_state;
}

static void test_bad(void **state)
{
	static struct pmc_logrec r;
	static const unsigned char raw[12] = { 1, 2, 3 };
	uint64_t pcs[1] = { 0x401000 };
	const uint8_t user[1] = { PMC_CC_F_USERSPACE };
	struct pmc_logrec_sample s = { .pmc = 7, .pid = 10, .tid = 11, .cpu = 1,
		.period = 1, .npc = 1, .pcs = pcs, .pcflags = user };
	struct pmc_logrec_raw x = { 0, sizeof(raw), raw };
	(void)state;

	assert_int_equal(pmc__logrec_callchain_ext(&r, &s, NULL, &x), 0);
	assert_int_equal(r.len, 40 + 8 + 16);
	assert_int_equal(read_one(&r), PMCLOG_EOF);
	pmclog__st32(r.buf + 40 + 4, 17);        /* more raw bytes than the record has */
	assert_int_equal(read_one(&r), PMCLOG_ERROR);
	r.len = 40;                              /* the flag says raw, the record ends */
	assert_int_equal(read_one(&r), PMCLOG_ERROR);

	assert_int_equal(pmc__logrec_tracedata(&r, 100, 90, raw, 10), 0);
	assert_int_equal(read_one(&r), PMCLOG_EOF);
	assert_int_not_equal(pmc__logrec_tracedata(&r, 100, 95, raw, 10), 0);
	assert_int_equal(pmc__logrec_tracedata(&r, 100, 90, raw, 10), 0);
	pmclog__st64(r.buf + 8, 95);             /* past its total */
	assert_int_equal(read_one(&r), PMCLOG_ERROR);
	assert_int_equal(pmc__logrec_tracedata(&r, 100, 90, raw, 10), 0);
	pmclog__st32(r.buf + 16, 24);            /* past its record */
	assert_int_equal(read_one(&r), PMCLOG_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_samples),
		cmocka_unit_test(test_tracedata),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
