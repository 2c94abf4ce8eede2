/*
 * test_perfdata_direct.c — the perf.data reader's direct sample path
 * (perfdata__set_sample_sink) against its event path (perfdata__read's
 * CALLCHAIN events, as profile.c's handle() stores them): on the same
 * file, in either byte order, the same samples in the same order between
 * the same other records, each with the same event, process, thread, CPU,
 * time, period, pcs, user flags and chain hash.  The file mixes sample
 * layouts (perf record -g's fixed fields, one with READ and RAW for the
 * general decoder, one without IP/TIME/PERIOD, one with user registers
 * that must stay an event), rounds out of time order, and the chains the
 * event path treats specially: the sampled pc repeated or not at the
 * chain's head, context markers of every kind, trailing and only zeros,
 * no chain, a chain longer than PMC_CALLCHAIN_DEPTH_MAX, an unknown id, a
 * record too short for its chain.
 */
#include "test_perfdata_util.h"
#include "common/hmap.h"

#define ID_F 0xF1                    /* perf record -g's layout (fast decoder) */
#define ID_G 0xF2                    /* READ and RAW: the general decoder */
#define ID_N 0xF3                    /* no IP, TIME, PERIOD, CPU */
#define ID_R 0xF4                    /* user registers: stays an event */
#define ID_F2 0xF5                   /* F's layout, another event (an attr added later) */
#define ST_F (PSAMPLE_IDENTIFIER | PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_CPU | PSAMPLE_PERIOD | \
	PSAMPLE_CALLCHAIN)
#define ST_G (PSAMPLE_IDENTIFIER | PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_READ | PSAMPLE_CALLCHAIN | \
	PSAMPLE_RAW)
#define ST_N (PSAMPLE_IDENTIFIER | PSAMPLE_TID | PSAMPLE_CALLCHAIN)
#define ST_R (PSAMPLE_IDENTIFIER | PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_CALLCHAIN | \
	PSAMPLE_REGS_USER | PSAMPLE_STACK_USER)
#define K1 0xffffffff81001000ULL
#define K2 0xffffffff81002000ULL
#define U1 0x401000ULL
#define U2 0x402000ULL
#define U3 0x403000ULL
#define CK PSAMPLE_CONTEXT_KERNEL
#define CU PSAMPLE_CONTEXT_USER

static void attr_rec(struct lb *p, uint64_t st, uint64_t period, uint64_t ru, uint64_t id)
{
	size_t at = lb_rec_begin(p, PD_REC_HEADER_ATTR, 0);
	lb_attr(p, PD_TYPE_SOFTWARE, 0, period, st, 0, PD_ATTR_SAMPLE_ID_ALL, 0, ru, 0, 128);
	lb64(p, id);
	lb_rec_end(p, at);
}

static void round_end(struct lb *p)
{
	lb_rec_end(p, lb_rec_begin(p, PD_REC_FINISHED_ROUND, 0));
}

/* A sample of layout F or R (R: one user register and 8 bytes of stack);
 * nr chain entries from chain (or, with chain NULL, nr entries cycling
 * through user pcs); short_by: the record ends that many bytes early. */
static void sample(struct lb *p, uint64_t id, uint16_t misc, uint64_t ip, uint32_t tid,
    uint64_t t, const uint64_t *chain, uint64_t nr, size_t short_by)
{
	size_t at = lb_rec_begin(p, PD_REC_SAMPLE, misc);
	lb64(p, id);
	lb64(p, ip);
	lb32(p, 300); lb32(p, tid);
	lb64(p, t);
	if (id == ID_F || id == ID_F2) {
		lb32(p, 1); lb32(p, 0);          /* CPU */
		lb64(p, 7000 + t);               /* PERIOD */
	}
	lb64(p, nr);
	for (uint64_t i = 0; i < nr; i++)
		lb64(p, chain ? chain[i] : U1 + 16 * (i % 37));
	if (id == ID_R) {
		lb64(p, 2); lb64(p, 0x7ffc0000);  /* REGS_USER: abi 64, one register */
		lb64(p, 8); lb64(p, 0x1234); lb64(p, 8);   /* STACK_USER */
	}
	p->len -= short_by;
	lb_rec_end(p, at);
}

static void sample_g(struct lb *p, uint16_t misc, uint64_t ip, uint64_t t,
    const uint64_t *chain, uint64_t nr)
{
	size_t at = lb_rec_begin(p, PD_REC_SAMPLE, misc);
	lb64(p, ID_G);
	lb64(p, ip);
	lb32(p, 301); lb32(p, 302);
	lb64(p, t);
	lb64(p, 99);                         /* READ: one value */
	lb64(p, nr);
	for (uint64_t i = 0; i < nr; i++)
		lb64(p, chain[i]);
	lb32(p, 4); lb_bytes(p, "raw!", 4);   /* RAW: 4 + 4 */
	lb_rec_end(p, at);
}

static void sample_n(struct lb *p, uint16_t misc, const uint64_t *chain, uint64_t nr)
{
	size_t at = lb_rec_begin(p, PD_REC_SAMPLE, misc);
	lb64(p, ID_N);
	lb32(p, 303); lb32(p, 304);
	lb64(p, nr);
	for (uint64_t i = 0; i < nr; i++)
		lb64(p, chain[i]);
	lb_rec_end(p, at);
}

/* regs: with the attr of user registers and its sample (0: every attr's
 * samples go to the sink) */
/* A COMM of F's trailer at time t. */
static void comm(struct lb *p, uint64_t t)
{
	size_t at = lb_rec_begin(p, PD_REC_COMM, PD_MISC_USER);
	lb32(p, 300); lb32(p, 310); lb_str8(p, "worker");
	lb32(p, 300); lb32(p, 310); lb64(p, t); lb32(p, 1); lb32(p, 0); lb64(p, ID_F);
	lb_rec_end(p, at);
}

/* 1: the streams have an attr whose samples carry no time (ST_N); 0: every
 * record has one, which perfdata__set_sample_unordered needs to take the
 * file as it lies */
static int with_untimed = 1;

static unsigned char *make_stream_regs(int be, int regs, size_t *len)
{
	static const uint64_t c_same[] = { CK, K1, K2, CU, U1, U2 };     /* starts with ip */
	static const uint64_t c_other[] = { CU, U3, U2, 0 };              /* not; a 0 at the end */
	static const uint64_t c_g[] = { CU, U1, U3 };
	static const uint64_t c_zero[] = { CU, 0, 0 };
	static const uint64_t c_marks[] = { CK, CU };
	static const uint64_t c_guest[] = { PSAMPLE_CONTEXT_GUEST_KERNEL, K1, PSAMPLE_CONTEXT_HV, K2,
		PSAMPLE_CONTEXT_GUEST_USER, U1, 0, U2 };
	static const uint64_t c_kzero[] = { CK, K1, 0, 0, 0 };
	struct lb p = { .be = be };

	lb_pipe_begin(&p);
	attr_rec(&p, ST_F, 10000, 0, ID_F);
	attr_rec(&p, ST_G, 4000, 0, ID_G);
	if (with_untimed)
		attr_rec(&p, ST_N, 5000, 0, ID_N);
	if (regs)
		attr_rec(&p, ST_R, 3000, 0x1, ID_R);

	/* round 1, out of time order */
	sample(&p, ID_F, PD_MISC_KERNEL, K1, 310, 30, c_same, 6, 0);
	sample(&p, ID_F, PD_MISC_USER, U1, 311, 10, c_other, 4, 0);
	sample_g(&p, PD_MISC_USER, U1, 20, c_g, 3);
	if (with_untimed)
		sample_n(&p, PD_MISC_USER, c_zero, 3);   /* no time: the last record's */
	sample(&p, ID_F, PD_MISC_USER, U2, 312, 25, NULL, 0, 0);   /* no chain */
	sample(&p, ID_F, PD_MISC_KERNEL, K2, 313, 27, c_marks, 2, 0);
	sample(&p, 0x9999, PD_MISC_USER, U1, 314, 28, c_g, 3, 0);   /* unknown id */
	sample(&p, ID_F, PD_MISC_USER, U1, 315, 29, c_same, 6, 16); /* chain cut short */
	sample(&p, ID_F, PD_MISC_KERNEL, K1, 316, 26, c_kzero, 5, 0);
	round_end(&p);
	/* round 2 */
	if (regs)
		sample(&p, ID_R, PD_MISC_USER, U1, 320, 22, c_g, 3, 0);
	sample(&p, ID_F, PD_MISC_GUEST_USER, U1, 321, 40, c_guest, 8, 0);
	sample(&p, ID_F, PD_MISC_USER, U3, 322, 38, NULL, 600, 0);  /* past the depth */
	sample(&p, ID_F, PD_MISC_USER, U1, 323, 39, NULL, PMC_CALLCHAIN_DEPTH_MAX, 0);
	sample(&p, ID_F, PD_MISC_USER, 0, 324, 35, NULL, 0, 0);    /* pc 0, no chain */
	comm(&p, 36);
	if (with_untimed)
		sample_n(&p, PD_MISC_KERNEL, c_g, 3);
	round_end(&p);
	/* round 3: older than round 2's newest, and the end */
	sample(&p, ID_F, PD_MISC_USER, U2, 330, 50, c_other, 4, 0);
	sample_g(&p, PD_MISC_KERNEL, K1, 37, c_same, 6);
	*len = p.len;
	return p.b;
}

static unsigned char *make_stream(int be, size_t *len)
{
	return make_stream_regs(be, 1, len);
}

/* One delivery, as a report stores it. */
struct item {
	int type;                     /* PMCLOG_TYPE_*; CALLCHAIN: a sample */
	int from_sink;
	uint32_t pmcid, pid, tid, cpu, npc;
	uint64_t time, period, hash;
	uint64_t pcs[PMC_CALLCHAIN_DEPTH_MAX];
	uint8_t flags[PMC_CALLCHAIN_DEPTH_MAX];
};

struct items {
	struct item *v;
	size_t n, cap;
};

static struct item *add(struct items *l)
{
	/* doubling: an item is kilobytes, and ASan's realloc always copies */
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
	}
	assert_non_null(l->v);
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	return &l->v[l->n++];
}

/* A CALLCHAIN event as profile.c's handle() keeps it: the trailing 0 of a
 * frame-pointer walk dropped, the flags masked, the stack hashed. */
static void add_event(struct items *l, const struct pmclog_ev *ev)
{
	struct item *it = add(l);
	const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	uint64_t h = HMAP_CHAIN_SEED;

	it->type = ev->pl_type;
	it->time = ev->pl_time;
	if (ev->pl_type != PMCLOG_TYPE_CALLCHAIN)
		return;
	it->pmcid = cc->pl_pmcid;
	it->pid = cc->pl_pid;
	it->tid = cc->pl_tid;
	it->cpu = cc->pl_cpu;
	it->time = ev->pl_time;
	it->period = cc->pl_period;
	it->npc = cc->pl_npc;
	while (it->npc > 1 && cc->pl_pc[it->npc - 1] == 0)
		it->npc--;
	for (uint32_t i = 0; i < it->npc; i++) {
		it->pcs[i] = cc->pl_pc[i];
		it->flags[i] = cc->pl_pcflags[i] & PMC_CC_F_USERSPACE;
		h = hmap_chain_step(h, it->pcs[i], it->flags[i]);
	}
	it->hash = hmap_chain_end(h, (int32_t)it->pid, it->npc);
}

static void on_sample(void *arg, const struct perfdata_sample *s)
{
	struct item *it = add(arg);
	it->type = PMCLOG_TYPE_CALLCHAIN;
	it->from_sink = 1;
	it->pmcid = s->pmcid;
	it->pid = s->pid;
	it->tid = s->tid;
	it->cpu = s->cpu;
	it->time = s->time;
	it->period = s->period;
	it->npc = s->npc;
	it->hash = s->hash;
	assert_true(s->npc >= 1 && s->npc <= PMC_CALLCHAIN_DEPTH_MAX);
	memcpy(it->pcs, s->pcs, s->npc * sizeof(uint64_t));
	memcpy(it->flags, s->flags, s->npc);
}

/* How read_to_end reads (or-ed). */
#define H_SINK  1                    /* samples through the sink */
#define H_LEAF  2                    /* ... leaves only (perfdata__set_sample_leaf) */
#define H_UNORD 4                    /* ... as they lie (perfdata__set_sample_unordered) */
#define H_FILE  8                    /* no ordering queue (perfdata__set_ordered 0) */

/* Read b to the end: the final state, or -1 if it does not open.  sink: H_*
 * (1: through the sink, 2: leaves only, as before these had names). */
static int read_to_end(const unsigned char *b, size_t len, int sink, struct items *l,
    struct perfdata_stats *st, int *truncated)
{
	struct perfdata *pd = perfdata__open_mem(b, len);
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	int state;
	assert_non_null(ev);
	if (!pd) {
		free(ev);
		return -1;
	}
	if (sink & (H_SINK | H_LEAF))
		assert_int_equal(perfdata__set_sample_sink(pd, on_sample, l), 0);
	if (sink & H_LEAF)
		perfdata__set_sample_leaf(pd, 1);
	if (sink & H_UNORD)
		perfdata__set_sample_unordered(pd, 1);
	if (sink & H_FILE)
		perfdata__set_ordered(pd, 0);
	while (perfdata__read(pd, ev) == 0)
		add_event(l, ev);
	state = ev->pl_state;
	perfdata__get_stats(pd, st);
	*truncated = perfdata__truncated(pd);
	perfdata__close(pd);
	free(ev);
	return state;
}

static void read_all(const unsigned char *b, size_t len, int sink, struct items *l,
    struct perfdata_stats *st)
{
	int tr;
	assert_int_equal(read_to_end(b, len, sink, l, st, &tr), PMCLOG_EOF);
}

/* The same sample apart from its chain. */
static void same_context(const struct item *x, const struct item *y)
{
	assert_int_equal(y->pmcid, x->pmcid);
	assert_int_equal(y->pid, x->pid);
	assert_int_equal(y->tid, x->tid);
	assert_int_equal(y->cpu, x->cpu);
	assert_int_equal(y->time, x->time);
	assert_int_equal(y->period, x->period);
}

/* The two reads delivered the same; returns how many samples came through
 * the sink. */
static size_t same_items(const struct items *ev, const struct items *dir)
{
	size_t nsink = 0;
	assert_int_equal(dir->n, ev->n);
	for (size_t i = 0; i < ev->n; i++) {
		const struct item *x = &ev->v[i], *y = &dir->v[i];
		assert_int_equal(y->type, x->type);
		nsink += (size_t)y->from_sink;
		same_context(x, y);
		assert_int_equal(y->npc, x->npc);
		assert_memory_equal(y->pcs, x->pcs, x->npc * sizeof(uint64_t));
		assert_memory_equal(y->flags, x->flags, x->npc);
		assert_int_equal(y->hash, x->hash);
	}
	return nsink;
}

static void same_as_events(int be)
{
	size_t len, nsink;
	unsigned char *b = make_stream(be, &len);
	struct items ev = { 0 }, dir = { 0 };
	struct perfdata_stats se, sd;

	read_all(b, len, 0, &ev, &se);
	read_all(b, len, 1, &dir, &sd);
	nsink = same_items(&ev, &dir);
	/* 15 samples delivered (one unknown, one cut: dropped either way), all
	 * but the one with user registers through the sink: first the two
	 * without a time (not queued: at once, with the time before them),
	 * then at round 2's end what is not newer than round 1's newest */
	static const uint64_t times[] = { 0, 0, 10, 20, 22, 25, 26, 27, 30 };
	size_t nsamples = 0;
	for (size_t i = 0; i < ev.n; i++) {
		if (ev.v[i].type != PMCLOG_TYPE_CALLCHAIN)
			continue;
		if (nsamples < sizeof(times) / sizeof(times[0]))
			assert_int_equal(ev.v[i].time, times[nsamples]);
		nsamples++;
	}
	assert_int_equal(nsamples, 15);
	assert_int_equal(nsink, 14);
	assert_int_equal(sd.samples, se.samples);
	assert_int_equal(sd.unknown_id, 1);
	assert_int_equal(se.unknown_id, 1);
	assert_int_equal(sd.bad_samples, 1);
	assert_int_equal(se.bad_samples, 1);
	free(ev.v);
	free(dir.v);
	free(b);
}

/* Every prefix of the stream (a file cut anywhere, a record cut short):
 * both paths deliver the same, end the same way, and say the same about
 * the cut. */
static void test_direct_cut_everywhere(void **state)
{
	size_t len;
	unsigned char *b = make_stream(0, &len);
	(void)state;
	for (size_t cut = 0; cut < len; cut++) {
		struct items ev = { 0 }, dir = { 0 };
		struct perfdata_stats se = { 0 }, sd = { 0 };
		int te = 0, td = 0;
		int s1 = read_to_end(b, cut, 0, &ev, &se, &te);
		int s2 = read_to_end(b, cut, 1, &dir, &sd, &td);
		assert_int_equal(s2, s1);
		assert_int_equal(td, te);
		(void)same_items(&ev, &dir);
		assert_int_equal(sd.samples, se.samples);
		assert_int_equal(sd.bad_samples, se.bad_samples);
		free(ev.v);
		free(dir.v);
	}
	free(b);
}

static void test_direct_le(void **state)
{
	(void)state;
	same_as_events(0);
}

static void test_direct_be(void **state)
{
	(void)state;
	same_as_events(1);
}

/* The chain's hash is the one interning computes over the stored pcs: two
 * samples of one stack (sampled pc repeated at the chain's head in one,
 * not in the other) hash alike, and another process's do not. */
static void test_direct_hash(void **state)
{
	static const uint64_t c1[] = { CU, U1, U2 }, c2[] = { CU, U2 };
	struct lb p = { .be = 0 };
	struct items l = { 0 };
	struct perfdata_stats st;
	(void)state;

	lb_pipe_begin(&p);
	attr_rec(&p, ST_F, 10000, 0, ID_F);
	sample(&p, ID_F, PD_MISC_USER, U1, 1, 10, c1, 3, 0);
	sample(&p, ID_F, PD_MISC_USER, U1, 1, 11, c2, 2, 0);
	read_all(p.b, p.len, 1, &l, &st);
	assert_int_equal(l.n, 4);       /* HEADER, PMCALLOCATE, the two samples */
	assert_int_equal(l.v[2].npc, 2);
	assert_int_equal(l.v[3].npc, 2);
	assert_int_equal(l.v[2].hash, l.v[3].hash);
	uint64_t h = HMAP_CHAIN_SEED;
	h = hmap_chain_step(h, U1, PMC_CC_F_USERSPACE);
	h = hmap_chain_step(h, U2, PMC_CC_F_USERSPACE);
	assert_int_equal(l.v[2].hash, hmap_chain_end(h, 300, 2));
	assert_true(l.v[2].hash != hmap_chain_end(h, 301, 2));
	free(l.v);
	free(p.b);
}

/* y, from the sink with leaves only, is x (the event path's) cut to its
 * first pc, hashed as a one-pc stack. */
static void same_leaf(const struct item *x, const struct item *y)
{
	same_context(x, y);
	assert_int_equal(y->npc, 1);
	assert_int_equal(y->pcs[0], x->pcs[0]);
	assert_int_equal(y->flags[0], x->flags[0]);
	assert_int_equal(y->hash, hmap_chain_end(hmap_chain_step(HMAP_CHAIN_SEED,
	    x->pcs[0], x->flags[0]), (int32_t)x->pid, 1));
}

/* Read b twice, as ref says (the event path) and as how says: the same
 * items in the same order (the samples that come through the sink whole,
 * or as their leaves with H_LEAF), the same stats and the same end.
 * Returns how many samples came through the sink. */
static size_t same_reads(const unsigned char *b, size_t len, int ref, int how)
{
	struct items ev = { 0 }, dir = { 0 };
	struct perfdata_stats se = { 0 }, sd = { 0 };
	int te = 0, td = 0;
	size_t nsink = 0;
	int s1 = read_to_end(b, len, ref, &ev, &se, &te);
	int s2 = read_to_end(b, len, how, &dir, &sd, &td);

	assert_int_equal(s2, s1);
	assert_int_equal(td, te);
	assert_int_equal(dir.n, ev.n);
	for (size_t i = 0; i < ev.n; i++) {
		const struct item *x = &ev.v[i], *y = &dir.v[i];
		assert_int_equal(y->type, x->type);
		assert_int_equal(y->time, x->time);
		nsink += (size_t)y->from_sink;
		if (y->from_sink && (how & H_LEAF)) {
			same_leaf(x, y);
			continue;
		}
		same_context(x, y);
		assert_int_equal(y->npc, x->npc);
		assert_memory_equal(y->pcs, x->pcs, x->npc * sizeof(uint64_t));
		assert_memory_equal(y->flags, x->flags, x->npc);
		assert_int_equal(y->hash, x->hash);
	}
	assert_int_equal(sd.records, se.records);
	assert_int_equal(sd.samples, se.samples);
	assert_int_equal(sd.unknown_id, se.unknown_id);
	assert_int_equal(sd.bad_samples, se.bad_samples);
	assert_int_equal(sd.skipped, se.skipped);
	assert_int_equal(sd.lost, se.lost);
	assert_int_equal(sd.compressed, se.compressed);
	free(ev.v);
	free(dir.v);
	return nsink;
}

/* With perfdata__set_sample_unordered and every attr's samples through the
 * sink, everything comes as the file holds it: what the event path
 * delivers without its ordering queue, sample by sample, whole or leaves,
 * in either byte order, with the queue or without. */
static void test_unordered_file_order(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		size_t len;
		with_untimed = 0;
		unsigned char *b = make_stream_regs(be, 0, &len);
		assert_int_equal(same_reads(b, len, H_FILE, H_SINK | H_UNORD), 12);
		assert_int_equal(same_reads(b, len, H_FILE, H_LEAF | H_UNORD), 12);
		assert_int_equal(same_reads(b, len, H_FILE, H_LEAF | H_UNORD | H_FILE), 12);
		free(b);
		/* a sample without a time takes the one of the record before it,
		 * which only time order gives as the event path gives it: the
		 * file keeps its time order */
		with_untimed = 1;
		b = make_stream_regs(be, 0, &len);
		assert_int_equal(same_reads(b, len, 0, H_SINK | H_UNORD), 14);
		assert_int_equal(same_reads(b, len, 0, H_LEAF | H_UNORD), 14);
		free(b);
	}
}

/* ... and for every prefix of the stream (a record cut at the end of the
 * input, inside a run of samples or not). */
static void test_unordered_cut_everywhere(void **state)
{
	size_t len;
	(void)state;
	with_untimed = 0;
	unsigned char *b = make_stream_regs(0, 0, &len);
	for (size_t cut = 0; cut < len; cut++) {
		(void)same_reads(b, cut, H_FILE, H_LEAF | H_UNORD);
		(void)same_reads(b, cut, H_FILE, H_SINK | H_UNORD);
	}
	free(b);
	with_untimed = 1;
}

/* A file-mode perf.data (the every-type file of test_perfdata_util.h:
 * samples with user registers, READ groups, every record type) whose data
 * section is cut anywhere while its header still claims all of it: the
 * samples' leaves as the file holds them are the event path's in file
 * order, and both end the same way, in either byte order. */
static void test_unordered_file_cut(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		size_t len;
		unsigned char *b = t_make_file(be, NULL, &len);
		uint64_t off = 0, size = 0;
		for (int i = 0; i < 8; i++) {        /* the header's data section */
			int sh = be ? 8 * (7 - i) : 8 * i;
			off |= (uint64_t)b[40 + i] << sh;
			size |= (uint64_t)b[48 + i] << sh;
		}
		assert_true(off > 0 && size > 0 && off + size <= len);
		assert_true(same_reads(b, len, H_FILE, H_LEAF | H_UNORD | H_FILE) > 0);
		for (size_t cut = (size_t)off; cut < off + size; cut++) {
			(void)same_reads(b, cut, H_FILE, H_LEAF | H_UNORD | H_FILE);
			(void)same_reads(b, cut, H_FILE, H_SINK | H_UNORD | H_FILE);
		}
		free(b);
	}
}

/* Samples in runs longer than the reader's 256 KB buffer (records cut by
 * its end), of three attrs, one of them added halfway (a new id the runs
 * meet), of an unknown id now and then, between COMMs and rounds, their
 * chains' first pc the sampled one or not, in the header's context or
 * not; the second half as it is or (compress 1, 2) in COMPRESSED or
 * COMPRESSED2 records (runs in the decompressed data, cut where one ends),
 * then a few more samples as they are. */
static unsigned char *make_big(int be, int compress, size_t *len)
{
	struct lb p = { .be = be };
	uint64_t ch[48];

	lb_pipe_begin(&p);
	attr_rec(&p, ST_F, 10000, 0, ID_F);
	if (with_untimed)
		attr_rec(&p, ST_N, 5000, 0, ID_N);
	for (int seg = 0; seg < 3; seg++) {
		struct lb body = { .be = be };
		for (int k = 0; k < (seg < 2 ? 3000 : 50); k++) {
			int i = seg * 3000 + k;
			uint16_t misc = i % 4 < 2 ? PD_MISC_USER : PD_MISC_KERNEL;
			uint64_t nr = (uint64_t)(i * 7) % 41, id = ID_F;
			ch[0] = i % 2 ? CK : CU;
			for (uint64_t j = 1; j < nr; j++)
				ch[j] = (i % 2 ? K1 : U1) + 16 * (((uint64_t)i + j) % 37);
			if (i % 5 == 4 && seg)
				id = ID_F2;
			if (i % 97 == 0)
				id = 0x9999;
			if (i % 5 == 3 && with_untimed)
				sample_n(&body, misc, ch, nr);
			else
				sample(&body, id, misc,
				    nr > 1 && i % 3 ? ch[1] : U3, 400 + (uint32_t)(i % 11),
				    1000 + (uint64_t)i, ch, nr, 0);
			if (i % 500 == 499)
				comm(&body, 1000 + (uint64_t)i);
			if (i % 700 == 699)
				round_end(&body);
		}
		if (compress && seg == 1)        /* one zstd stream: the second half */
			lb_compress(&p, body.b, body.len, compress - 1, 5);
		else
			lb_bytes(&p, body.b, body.len);
		free(body.b);
		if (seg == 0)
			attr_rec(&p, ST_F, 20000, 0, ID_F2);
	}
	*len = p.len;
	return p.b;
}

static void test_unordered_big(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++)
		for (int z = 0; z < 3; z++) {
			size_t len;
			with_untimed = 0;
			unsigned char *b = make_big(be, z, &len);
			assert_true(len > 800000 || (z && len > 500000));
			assert_true(same_reads(b, len, H_FILE, H_SINK | H_UNORD) > 5000);
			assert_true(same_reads(b, len, H_FILE, H_LEAF | H_UNORD) > 5000);
			free(b);
			with_untimed = 1;
			b = make_big(be, z, &len);
			assert_true(same_reads(b, len, 0, H_LEAF | H_UNORD) > 5000);
			free(b);
		}
}

/* Samples taken as they lie still move the round's end: the records that
 * keep their time order (an attr's samples are unwound, so the others
 * are ordered) are released when the event path releases them.  Round 1's
 * newest record is a sample at 100, so round 2's end releases the COMMs
 * at 50 and 60, and the one at 55 of round 3 comes after them (were the
 * end 50, it would come before the one at 60), then the sample with user
 * registers at 57 (an event, not the sink's: whole chains are asked for). */
static void test_unordered_round_end(void **state)
{
	struct lb p = { .be = 0 };
	struct items ev = { 0 }, un = { 0 };
	struct perfdata_stats st;
	static const uint64_t want[] = { 50, 60, 55, 57 };
	size_t n = 0;
	(void)state;

	lb_pipe_begin(&p);
	attr_rec(&p, ST_F, 10000, 0, ID_F);
	attr_rec(&p, ST_R, 3000, 0x1, ID_R);
	sample(&p, ID_F, PD_MISC_USER, U1, 310, 100, NULL, 0, 0);
	comm(&p, 50);
	round_end(&p);
	comm(&p, 60);
	round_end(&p);
	comm(&p, 55);
	sample(&p, ID_R, PD_MISC_USER, U1, 320, 57, NULL, 0, 0);   /* an event */
	read_all(p.b, p.len, 0, &ev, &st);
	read_all(p.b, p.len, H_SINK | H_UNORD, &un, &st);
	for (size_t i = 0, j = 0; i < ev.n; i++) {
		if (ev.v[i].type == PMCLOG_TYPE_CALLCHAIN && ev.v[i].tid != 320)
			continue;
		while (j < un.n && un.v[j].from_sink)
			j++;
		assert_true(j < un.n);
		assert_int_equal(un.v[j].type, ev.v[i].type);
		assert_int_equal(un.v[j].time, ev.v[i].time);
		if (ev.v[i].type == PMCLOG_TYPE_MAP_IN || ev.v[i].type == PMCLOG_TYPE_HEADER ||
		    ev.v[i].type == PMCLOG_TYPE_PMCALLOCATE) {
			j++;
			continue;
		}
		assert_true(n < 4);
		assert_int_equal(ev.v[i].time, want[n]);
		n++;
		j++;
	}
	assert_int_equal(n, 4);
	free(ev.v);
	free(un.v);
	free(p.b);
}

/* With perfdata__set_sample_leaf, what the sink gets is each sample's whole
 * chain cut to its first pc: the same pc and flag (also where the chain
 * is only zeros, or starts with a 0 followed by pcs), hashed as a one-pc
 * stack, every other field the same; the sample with user registers too
 * (a leaf needs no unwinding: its sampled pc, its stack unread).  In both
 * byte orders. */
static void test_direct_leaf(void **state)
{
	(void)state;
	for (int be = 0; be < 2; be++) {
		size_t len, nsink = 0, deeper = 0;
		unsigned char *b = make_stream(be, &len);
		struct items ev = { 0 }, leaf = { 0 };
		struct perfdata_stats se, sl;

		read_all(b, len, 0, &ev, &se);
		read_all(b, len, 2, &leaf, &sl);
		assert_int_equal(leaf.n, ev.n);
		for (size_t i = 0; i < ev.n; i++) {
			const struct item *x = &ev.v[i], *y = &leaf.v[i];
			assert_int_equal(y->type, x->type);
			if (x->type != PMCLOG_TYPE_CALLCHAIN)
				continue;
			same_context(x, y);
			assert_true(y->from_sink);    /* user registers too: no unwinding */
			nsink++;
			deeper += x->npc > 1;
			same_leaf(x, y);
		}
		assert_int_equal(nsink, 15);
		assert_true(deeper >= 8);          /* the cut was made: most chains are longer */
		/* the DWARF sample's stack: read by the event path, not for a leaf */
		assert_true(se.ustack_bytes > 0);
		assert_int_equal(sl.ustack_bytes, 0);
		assert_int_equal(sl.samples, se.samples);
		assert_int_equal(sl.bad_samples, se.bad_samples);
		assert_int_equal(sl.unknown_id, se.unknown_id);
		free(ev.v);
		free(leaf.v);
		free(b);
	}

	/* a chain whose first pc is 0 and has pcs after it: the whole chain
	 * keeps the 0 (it is not trailing), the leaf is that 0 */
	static const uint64_t c_0u[] = { CU, 0, U1 };
	struct lb p = { .be = 0 };
	struct items ev = { 0 }, leaf = { 0 };
	struct perfdata_stats st;
	lb_pipe_begin(&p);
	attr_rec(&p, ST_N, 5000, 0, ID_N);
	sample_n(&p, PD_MISC_USER, c_0u, 3);
	read_all(p.b, p.len, 0, &ev, &st);
	read_all(p.b, p.len, 2, &leaf, &st);
	assert_int_equal(ev.n, 3);
	assert_int_equal(leaf.n, 3);
	assert_int_equal(ev.v[2].npc, 2);
	assert_int_equal(leaf.v[2].npc, 1);
	assert_int_equal(leaf.v[2].pcs[0], 0);
	assert_int_equal(leaf.v[2].hash, hmap_chain_end(hmap_chain_step(HMAP_CHAIN_SEED, 0,
	    PMC_CC_F_USERSPACE), 303, 1));
	free(ev.v);
	free(leaf.v);
	free(p.b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_le),
		cmocka_unit_test(test_direct_be),
		cmocka_unit_test(test_direct_hash),
		cmocka_unit_test(test_direct_cut_everywhere),
		cmocka_unit_test(test_direct_leaf),
		cmocka_unit_test(test_unordered_file_order),
		cmocka_unit_test(test_unordered_cut_everywhere),
		cmocka_unit_test(test_unordered_big),
		cmocka_unit_test(test_unordered_round_end),
		cmocka_unit_test(test_unordered_file_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
