/*
 * test_log_chains.c — interned call chains (log format 3) through the real
 * writer and reader: every sample reads back whole and in order, whatever
 * the writer's table evicted; a repeated 6-frame chain costs at most 40
 * bytes a sample; chains that rarely repeat (a compiler's profile) cost no
 * more than format 1's whole CALLCHAINs; a log cut at every record
 * boundary, and at random bytes (raw and zstd), reads without error as a
 * prefix of the samples; a CHAINSAMPLE naming a chain that was never
 * defined is corruption.
 */
#include "test_log_util.h"
#include "log/chains.h"

struct smp {
	uint32_t pmc, cpu;
	int32_t pid, tid;
	uint64_t period;
	uint32_t npc;
	uint64_t pcs[16];
	uint8_t fl[16];
};

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Sample i of a run whose chains are drawn from nchains distinct ones. */
static void make_sample(struct smp *s, unsigned nchains)
{
	unsigned c = (unsigned)(next_rand() % nchains);

	memset(s, 0, sizeof(*s));
	s->pmc = 0x10 + c % 2;
	s->pid = 100 + (int32_t)(c % 3);
	s->tid = s->pid + (int32_t)(next_rand() % 4);
	s->cpu = (uint32_t)(next_rand() % 8);
	/* now and then a period that does not fit 32 bits: written whole */
	s->period = next_rand() % 50 ? 1000 + next_rand() % 100000 : (1ull << 33) + c;
	s->npc = 1 + c % 16;
	for (uint32_t k = 0; k < s->npc; k++) {
		s->pcs[k] = (k < 2 && c % 5 == 0 ? 0xffffffff81000000ull : 0x400000) + 16 * c + k;
		s->fl[k] = k < 2 && c % 5 == 0 ? 0 : PMC_CC_F_USERSPACE;
	}
	if (c % 7 == 0 && s->npc > 2)      /* interleaved: the mask form */
		s->fl[s->npc - 1] = 0;
}

static void put_sample(struct pmc_logw *lw, const struct smp *s)
{
	static struct pmc_logrec r;
	struct pmc_logrec_sample x = { .pmc = s->pmc, .pid = s->pid, .tid = s->tid,
		.cpu = s->cpu, .period = s->period, .npc = s->npc,
		.pcs = s->pcs, .pcflags = s->fl };
	assert_int_equal(pmc__logrec_callchain(&r, &x), 0);
	assert_int_equal(pmc__logw_put(lw, &r), 0);
}

static int same(const struct smp *s, const struct pmclog_ev_callchain *cc)
{
	if (cc->pl_pmcid != s->pmc || (int32_t)cc->pl_pid != s->pid ||
	    (int32_t)cc->pl_tid != s->tid || cc->pl_cpu != s->cpu ||
	    cc->pl_period != s->period || cc->pl_npc != s->npc ||
	    cc->pl_usermode != (s->fl[0] != 0))
		return 0;
	for (uint32_t k = 0; k < s->npc; k++)
		if (cc->pl_pc[k] != s->pcs[k] || cc->pl_pcflags[k] != s->fl[k])
			return 0;
	return 1;
}

/* A log of n samples over nchains chains; returns its bytes. */
static unsigned char *make_log(struct smp *smp, int n, unsigned nchains, unsigned flags,
    size_t *len)
{
	struct lb_logw w;
	struct pmc_logw *lw = lb_logw_open(&w, flags, "test");

	for (int i = 0; i < n; i++) {
		make_sample(&smp[i], nchains);
		put_sample(lw, &smp[i]);
	}
	return lb_logw_close(&w, len);
}

/* Read len bytes of a log: the samples must be smp[0..], in order, and the
 * read must end without error.  Returns how many samples it read; *chains
 * counts the chain definitions seen (extensions on). */
static int read_back(const unsigned char *b, size_t len, const struct smp *smp, int n,
    int *chains, int *interned)
{
	static struct pmclog_ev ev;
	void *p = lb_reader(b, len, 1);
	int got = 0;

	*chains = *interned = 0;
	while (pmclog_read(p, &ev) == 0) {
		*chains += tl_chaindef(&ev) != 0;
		if (ev.pl_type != PMCLOG_TYPE_CALLCHAIN)
			continue;
		assert_true(got < n);
		assert_true(same(&smp[got], &ev.pl_u.pl_cc));
		*interned += ev.pl_u.pl_cc.pl_chain != 0;
		got++;
	}
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	pmclog_close(p);
	return got;
}

/* More distinct chains than the table holds: evicted chains come back
 * redefined, and every sample still reads back as written. */
static void test_eviction_roundtrip(void **state)
{
	enum { N = 30000, NCH = 3 * PMC_LOGCHAINS_SLOTS };
	struct smp *smp = calloc(N, sizeof(*smp));
	size_t len;
	int chains, interned;
	unsigned char *b = make_log(smp, N, NCH, 0, &len);

	assert_int_equal(read_back(b, len, smp, N, &chains, &interned), N);
	assert_true(interned > N * 9 / 10);       /* all but the 64-bit periods */
	assert_true(chains > PMC_LOGCHAINS_SLOTS); /* redefinitions after eviction */
	assert_true(chains < N);
	free(b);
	free(smp);
}

/* The target: a repeated 6-frame chain, at most 40 bytes a sample
 * (format 1 wrote 16 + 32 + 48 = 96). */
static void test_bytes_per_sample(void **state)
{
	enum { N = 2000 };
	static const uint64_t pcs[6] = { 0x401010, 0x402020, 0x403030, 0x404040, 0x405050, 0x406060 };
	static const uint8_t user6[6] = { PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE,
		PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE };
	static struct pmc_logrec r;
	size_t base, len;
	unsigned char *b;

	for (int with = 0; with < 2; with++) {
		struct lb_logw w;
		struct pmc_logw *lw = lb_logw_open(&w, 0, "test");
		for (int i = 0; with && i < N; i++) {
			struct pmc_logrec_sample x = { .pmc = 1, .pid = 10, .tid = 10 + i % 4,
				.cpu = (uint32_t)(i % 2), .period = 100000 + (uint64_t)i,
				.npc = 6, .pcs = pcs, .pcflags = user6 };
			assert_int_equal(pmc__logrec_callchain(&r, &x), 0);
			assert_int_equal(pmc__logw_put(lw, &r), 0);
		}
		b = lb_logw_close(&w, &len);
		free(b);
		if (!with)
			base = len;
	}
	assert_true(len - base <= 40 * (size_t)N);
}

/* Chains that rarely repeat (a compiler: 62k distinct chains in 78k
 * samples): the log is no bigger than format 1's, where every sample is a
 * whole CALLCHAIN (format 2 added a 40-byte CHAIN per new chain, 24 bytes
 * over, which its shortened repeats did not make up for).  Depths 1..16, a
 * sample in 20 repeating an earlier chain. */
static void test_distinct_chains_cost(void **state)
{
	enum { N = 20000, DEPTH = 16 };
	static struct pmc_logrec r;
	static uint64_t pcs[N][DEPTH];
	static uint32_t npc[N];
	static uint8_t user[DEPTH];
	size_t base = 0, len, format1 = 0;
	unsigned char *b;
	int defs = 0, got = 0;

	memset(user, PMC_CC_F_USERSPACE, sizeof(user));
	for (int i = 0; i < N; i++) {
		int from = i > 0 && next_rand() % 20 == 0 ? (int)(next_rand() % (uint64_t)i) : -1;
		npc[i] = from >= 0 ? npc[from] : 1 + (uint32_t)(next_rand() % DEPTH);
		for (uint32_t k = 0; k < npc[i]; k++)
			pcs[i][k] = from >= 0 ? pcs[from][k] : 0x400000 + (next_rand() & 0xfffff);
	}
	for (int with = 0; with < 2; with++) {
		struct lb_logw w;
		struct pmc_logw *lw = lb_logw_open(&w, 0, "test");
		for (int i = 0; with && i < N; i++) {
			struct pmc_logrec_sample x = { .pmc = 1, .pid = 10, .tid = 10,
				.cpu = 0, .period = 1000, .npc = npc[i], .pcs = pcs[i], .pcflags = user };
			assert_int_equal(pmc__logrec_callchain(&r, &x), 0);
			format1 += PMCLOG_REC_HDR_LEN + ((r.len + 7) & ~(size_t)7);
			assert_int_equal(pmc__logw_put(lw, &r), 0);
		}
		b = lb_logw_close(&w, &len);
		if (!with) {
			base = len;
			free(b);
		}
	}
	{
		static struct pmclog_ev ev;
		void *p = lb_reader(b, len, 1);
		while (pmclog_read(p, &ev) == 0) {
			defs += tl_chaindef(&ev) != 0;
			if (ev.pl_type != PMCLOG_TYPE_CALLCHAIN)
				continue;
			assert_int_equal(ev.pl_u.pl_cc.pl_npc, npc[got]);
			for (uint32_t k = 0; k < npc[got]; k++)
				assert_int_equal(ev.pl_u.pl_cc.pl_pc[k], pcs[got][k]);
			got++;
		}
		assert_int_equal(ev.pl_state, PMCLOG_EOF);
		pmclog_close(p);
	}
	assert_true(len - base <= format1);
	assert_int_equal(got, N);
	assert_true(defs > N / 2 && defs < N);        /* mostly new chains */
	free(b);
}

/* Cut at every record boundary and a byte either side of it: every cut
 * reads as a prefix of the samples, never an error (a chain is defined
 * before the samples that use it). */
static void test_cut_everywhere(void **state)
{
	enum { N = 600 };
	struct smp *smp = calloc(N, sizeof(*smp));
	size_t len, off = 8;
	int chains, interned, last = 0, nb = 0;
	unsigned char *b = make_log(smp, N, 150, 0, &len);

	while (off + 16 <= len) {
		for (size_t cut = off - 1; cut <= off + 1 && cut <= len; cut++) {
			int got = read_back(b, cut, smp, N, &chains, &interned);
			assert_true(got >= last);
			last = got;
		}
		off += PMCLOG_HDR_LEN(pmclog__ld32(b + off));
		nb++;
	}
	assert_int_equal(off, len);
	assert_true(nb > N);                          /* the samples and the rest */
	assert_int_equal(read_back(b, len, smp, N, &chains, &interned), N);
	free(b);
	free(smp);
}

/* Random cuts of a log with evictions, raw and compressed. */
static void test_random_cuts(void **state)
{
	enum { N = 12000, NCH = 2 * PMC_LOGCHAINS_SLOTS };
	struct smp *smp = calloc(N, sizeof(*smp));

	for (unsigned z = 0; z < 2; z++) {
		size_t len;
		int chains, interned;
		unsigned char *b = make_log(smp, N, NCH, z ? PMC_LOGW_ZSTD : 0, &len);
		for (int k = 0; k < 40; k++)
			(void)read_back(b, (size_t)(next_rand() % (len + 1)), smp, N, &chains, &interned);
		assert_int_equal(read_back(b, len, smp, N, &chains, &interned), N);
		free(b);
	}
	free(smp);
}

/* A sample naming a chain no CHAIN defined: corruption, not a crash. */
static void test_undefined_chain(void **state)
{
	static struct pmclog_ev ev;
	struct lb_logw w;
	size_t len;
	unsigned char cs[PMCLOG_MIN_CHAINSAMPLE] = { 0 };
	unsigned char *b;
	void *p;

	pmclog__st32(cs, 77);
	assert_int_equal(pmc__logw_write(lb_logw_open(&w, 0, "test"), PMCLOG_TYPE_CHAINSAMPLE,
	    cs, sizeof(cs)), 0);
	b = lb_logw_close(&w, &len);
	p = lb_reader(b, len, 0);
	while (pmclog_read(p, &ev) == 0)
		assert_int_not_equal(ev.pl_type, PMCLOG_TYPE_CALLCHAIN);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);
	assert_int_equal(errno, EILSEQ);
	assert_non_null(strstr(pmclog_errmsg(p), "chain 77 is not defined"));
	pmclog_close(p);
	free(b);
}

/* The offset of the n-th record of type (0: the first) in a raw log. */
static size_t find_rec(const unsigned char *b, size_t len, int type, int n)
{
	for (size_t off = 8; off + 16 <= len; off += PMCLOG_HDR_LEN(pmclog__ld32(b + off)))
		if ((int)PMCLOG_HDR_TYPE(pmclog__ld32(b + off)) == type && n-- == 0)
			return off;
	fail();
	return 0;
}

/* Read a log to its end; the error message, or NULL if it read cleanly.
 * ids[i]: pl_chain of the i-th sample. */
static const char *read_ids(const unsigned char *b, size_t len, uint32_t *ids, int max)
{
	static struct pmclog_ev ev;
	static char msg[256];
	void *p = lb_reader(b, len, 0);
	int n = 0;

	while (pmclog_read(p, &ev) == 0)
		if (ev.pl_type == PMCLOG_TYPE_CALLCHAIN && n < max)
			ids[n++] = ev.pl_u.pl_cc.pl_chain;
	snprintf(msg, sizeof(msg), "%s", ev.pl_state == PMCLOG_EOF ? "" : pmclog_errmsg(p));
	pmclog_close(p);
	return ev.pl_state == PMCLOG_EOF ? NULL : msg;
}

/* The header's spare word defines a chain only in a format-3 log (formats 1
 * and 2 wrote 0 there, and readers ignored it); a user-stack sample never
 * defines one. */
static void test_chaindef_rules(void **state)
{
	static const uint64_t pcs[2] = { 0x401000, 0x402000 };
	static const uint8_t user[2] = { PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE };
	static const uint64_t regs[1] = { 0x7ff0 };
	static const unsigned char stack[16];
	static struct pmc_logrec r;
	struct pmc_logrec_sample x = { .pmc = 1, .pid = 10, .tid = 10, .period = 100,
		.npc = 2, .pcs = pcs, .pcflags = user };
	struct pmc_logrec_ustack u = { .abi = 2, .nregs = 1, .mask = 1, .regs = regs,
		.len = sizeof(stack), .stack = stack };
	struct lb_logw w;
	struct pmc_logw *lw = lb_logw_open(&w, 0, "test");
	uint32_t ids[3] = { 0 };
	unsigned char *b;
	size_t len, def, us;
	const char *err;

	for (int i = 0; i < 2; i++) {            /* defines the chain, then refers to it */
		assert_int_equal(pmc__logrec_callchain(&r, &x), 0);
		assert_int_equal(pmc__logw_put(lw, &r), 0);
	}
	assert_int_equal(pmc__logrec_callchain_ustack(&r, &x, &u), 0);
	assert_int_equal(pmc__logw_put(lw, &r), 0);
	b = lb_logw_close(&w, &len);

	def = find_rec(b, len, PMCLOG_TYPE_CALLCHAIN, 0);
	us = find_rec(b, len, PMCLOG_TYPE_CALLCHAIN, 1);
	assert_int_equal(find_rec(b, len, PMCLOG_TYPE_CHAINSAMPLE, 0), def + 16 + 48);
	assert_true(pmclog__ld32(b + def + 4) != 0);
	assert_int_equal(pmclog__ld32(b + us + 4), 0);  /* the user-stack sample: whole */
	assert_null(read_ids(b, len, ids, 3));
	assert_int_equal(ids[0], pmclog__ld32(b + def + 4));
	assert_int_equal(ids[1], ids[0]);
	assert_int_equal(ids[2], 0);

	/* the same bytes as a format-2 log: the spare word means nothing */
	pmclog__st32(b + 8 + 16, 2);
	err = read_ids(b, len, ids, 3);
	assert_non_null(err);
	assert_non_null(strstr(err, "is not defined"));
	assert_int_equal(ids[0], 0);
	pmclog__st32(b + 8 + 16, PMCLOG_FORMAT_MAJOR);

	/* a user-stack sample that claims to define a chain: corruption */
	pmclog__st32(b + us + 4, 9);
	err = read_ids(b, len, ids, 3);
	assert_non_null(err);
	assert_non_null(strstr(err, "a user stack"));
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eviction_roundtrip),
		cmocka_unit_test(test_bytes_per_sample),
		cmocka_unit_test(test_distinct_chains_cost),
		cmocka_unit_test(test_cut_everywhere),
		cmocka_unit_test(test_random_cuts),
		cmocka_unit_test(test_undefined_chain),
		cmocka_unit_test(test_chaindef_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
