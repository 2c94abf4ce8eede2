/*
 * test_profile.c — how analysis/profile/profile.c loads a recording, on crafted pmc
 * logs whose record order and timestamps the test chooses: the writer
 * drains per-CPU rings in turn, so a fork may be logged after its child's
 * samples and before its parent's name; a system-mode event is one PMC per
 * CPU; the kernel reports samples of an already released task with tid -1;
 * a mapping may be logged after a newer one at the same address.  And the
 * live aggregator of `pmc top` (analysis/live/live.h) on such a log as a stream:
 * rows, decay, zoom, pause.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "helpers/pmc_test.h"

#include "pmc.h"
#include "pmclog.h"
#include "log/format.h"
#include "log/records.h"
#include "profile/profile.h"
#include "live/live.h"
#include "report/report.h"
#include "profile/samples.h"
#include "profile/tree.h"
#include "perfdata/perfdata.h"
#include "lib/logbuild.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* Sample i of a loaded profile, decoded. */
static struct prof_sample smp(struct profile *p, size_t i)
{
	struct prof_sample s;
	profile__sample(p, i, &s);
	return s;
}

static struct pmc_logrec rec;
static struct lb lg;                 /* the log being built */

/* Append the record just encoded in rec, stamped ts. */
static void put(uint64_t ts)
{
	lb_logrec(&lg, &rec, ts);
}

static void begin(void)
{
	struct pmc_logrec_header h = { PMC_VERSION, 1, 0, 1, 0, 0, "test", "host", "kernel",
		"cpu", "test" };
	lb_log_begin(&lg, &h, 1);
}

static void alloc(pmc_id_t id, enum pmc_mode mode, int cpu)
{
	assert_int_equal(pmc__logrec_pmcallocate(&rec, id, 0, "cpu-clock", mode, 0, 4000, 1,
	    cpu), 0);
	put(2);
}

static void sample(pmc_id_t id, pid_t pid, pid_t tid, int cpu, uint64_t ts)
{
	static const uint64_t pc[1] = { 0x401000 };
	static const uint8_t fl[1] = { PMC_CC_F_USERSPACE };
	struct pmc_logrec_sample s = { id, pid, tid, (uint32_t)cpu, 250000, 1, pc, fl };
	assert_int_equal(pmc__logrec_callchain(&rec, &s), 0);
	put(ts);
}

static void comm(pid_t pid, pid_t tid, const char *name, uint64_t ts)
{
	assert_int_equal(pmc__logrec_comm(&rec, pid, tid, PMCLOG_COMM_F_EXEC, name), 0);
	put(ts);
}

static void fork_(pid_t parent, pid_t child, uint64_t ts)
{
	assert_int_equal(pmc__logrec_procfork(&rec, parent, child, parent, child), 0);
	put(ts);
}

/* End the log with CLOSELOG. */
static void finish(void)
{
	assert_int_equal(pmc__logrec_closelog(&rec), 0);
	put(UINT64_C(1) << 40);
}

/* Close the log, write it out and load it. */
static struct profile *load(void)
{
	char path[] = "/tmp/test_profile_XXXXXX";
	struct profile *p;
	finish();
	lb_save_tmp(&lg, path);
	assert_int_equal(profile__load(&p, path, NULL), 0);
	unlink(path);
	assert_string_equal(p->truncated, "");
	profile__resolve(p);
	return p;
}

/* A stack differs from another of the same pcs by one pc's user flag,
 * wherever it is and whatever the chain's length (the flags are compared
 * a word at a time, the rest in an overlapping word), and is the same
 * stack when all its flags are. */
static void test_stack_flags_each_position(void **state)
{
	enum { MAXN = 20 };
	uint64_t pc[MAXN];
	uint8_t all[MAXN], one[MAXN];
	size_t want = 0;
	(void)state;
	for (int i = 0; i < MAXN; i++)
		pc[i] = 0x401000 + 16 * (uint64_t)i;
	memset(all, PMC_CC_F_USERSPACE, sizeof(all));
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	uint64_t ts = 10;
	for (uint32_t n = 1; n <= MAXN; n++) {
		want += 1 + n;
		for (uint32_t k = 0; k < n; k++) {
			memcpy(one, all, sizeof(one));
			one[k] = 0;
			struct pmc_logrec_sample a = { 0x100, 100, 100, 0, 1000, n, pc, all };
			struct pmc_logrec_sample b = { 0x100, 100, 100, 0, 1000, n, pc, one };
			assert_int_equal(pmc__logrec_callchain(&rec, &a), 0);
			put(ts++);
			assert_int_equal(pmc__logrec_callchain(&rec, &b), 0);
			put(ts++);
		}
	}
	struct profile *p = load();
	assert_int_equal(profile__nstacks(p), want);
	profile__free(p);
}

/* Samples come back as they went in, whatever their time or period: times
 * out of order and far from their block's first (an idle CPU's ring read
 * late), periods of 2^32 and more (off-CPU nanoseconds), then replaced
 * and cut as offcpu.c does. */
static void test_samples_round_trip(void **state)
{
	(void)state;
	enum { N = 10000 };
	struct prof_samples *s = samples__new();
	struct prof_sample x, y;
	assert_non_null(s);
	for (size_t i = 0; i < N; i++) {
		x = (struct prof_sample){ .stack = (uint32_t)(i % 7), .ev = (uint16_t)(i % 3),
		    .cpu = (uint16_t)(i % 2), .pid = (int32_t)(100 + i % 5), .tid = -1 + (int32_t)(i % 4),
		    .time = i % 1000 == 999 ? UINT64_C(1) << 40 : i % 100 == 5 ? 3 : 1000000000 + i * 1000,
		    .period = i % 10 == 3 ? (UINT64_C(1) << 32) + i : i % 10 == 4 ? UINT32_MAX : i };
		samples__append(s, &x);
	}
	assert_int_equal(samples__count(s), N);
	for (size_t i = 0; i < N; i++) {
		samples__get(s, i, &y);
		assert_int_equal(y.stack, i % 7);
		assert_int_equal(y.ev, i % 3);
		assert_int_equal(y.cpu, i % 2);
		assert_int_equal(y.pid, 100 + i % 5);
		assert_int_equal(y.tid, -1 + (int32_t)(i % 4));
		assert_int_equal(y.time, i % 1000 == 999 ? UINT64_C(1) << 40 : i % 100 == 5 ? 3 :
		    1000000000 + i * 1000);
		assert_int_equal(y.period, i % 10 == 3 ? (UINT64_C(1) << 32) + i : i % 10 == 4 ?
		    UINT32_MAX : i);
		assert_null(y.comm);
	}
	/* keep every other sample, with new periods and events */
	for (size_t i = 0; i < N; i += 2) {
		samples__get(s, i, &y);
		y.period = UINT64_MAX - i;
		y.ev = 9;
		samples__set(s, i / 2, &y);
	}
	samples__truncate(s, N / 2);
	assert_int_equal(samples__count(s), N / 2);
	samples__get(s, N / 2 - 1, &y);
	assert_int_equal(y.period, UINT64_MAX - (N - 2));
	assert_int_equal(y.time, 1000000000 + (uint64_t)(N - 2) * 1000);
	assert_int_equal(y.ev, 9);
	assert_int_equal(y.pid, 100 + (N - 2) % 5);
	/* a context's name shows in each of its samples */
	static const uint64_t from[2] = { 0, 1000000000 + 500 * 1000 };
	static const char *const names[2] = { "sh", "one" };
	for (size_t c = 0; c < samples__nctx(s); c++) {
		int32_t pid, tid;
		samples__ctx(s, c, &pid, &tid);
		if (pid == 101)
			samples__set_comm(s, c, 2, from, names);
	}
	samples__get(s, 3, &y);
	assert_int_equal(y.pid, 101);   /* sample 6 before the cut */
	assert_string_equal(y.comm, "sh");
	samples__get(s, 253, &y);
	assert_int_equal(y.pid, 101);   /* sample 506 */
	assert_string_equal(y.comm, "one");
	samples__get(s, 1, &y);
	assert_null(y.comm);            /* not named */
	samples__free(s);
}

/* A sample of chain pcs[0..n) (user pcs) with period. */
static void sample_chain(pmc_id_t id, pid_t pid, pid_t tid, int cpu, uint64_t ts,
    const uint64_t *pcs, uint32_t n, uint64_t period)
{
	static const uint8_t fl[8] = { PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE,
		PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE,
		PMC_CC_F_USERSPACE };
	struct pmc_logrec_sample s = { id, pid, tid, (uint32_t)cpu, period, n, pcs, fl };
	assert_true(n <= 8);
	assert_int_equal(pmc__logrec_callchain(&rec, &s), 0);
	put(ts);
}

/* What a walk saw: per distinct (stack, event, CPU, pid, tid, comm), in the
 * order first seen, its weight and count (with keys); per function, the
 * weight of the frames naming it, and the functions in the order first
 * seen. */
struct walk_key {
	uint32_t stack;
	uint16_t ev, cpu;
	int32_t pid, tid;
	const char *comm;
	uint64_t weight, count;
};
struct walk {
	int keys;
	struct walk_key k[256];
	size_t n;
	uint64_t *func_w;             /* by function */
	uint32_t *order;              /* functions, first seen first */
	size_t norder;
	uint64_t calls, count;        /* callbacks, samples */
};

static void walk_add(struct walk *w, const struct prof_sample *s, uint64_t weight,
    uint64_t count, const struct prof_frame *fr, int n)
{
	size_t i;
	w->calls++;
	w->count += count;
	for (i = 0; w->keys && i < w->n; i++) {
		const struct walk_key *k = &w->k[i];
		if (k->stack == s->stack && k->ev == s->ev && k->cpu == s->cpu && k->pid == s->pid &&
		    k->tid == s->tid && k->comm == s->comm)
			break;
	}
	if (w->keys && i == w->n) {
		assert_true(w->n < 256);
		w->k[w->n++] = (struct walk_key){ s->stack, s->ev, s->cpu, s->pid, s->tid, s->comm,
			0, 0 };
	}
	if (w->keys) {
		w->k[i].weight += weight;
		w->k[i].count += count;
	}
	for (int j = 0; j < n; j++) {
		if (!w->func_w[fr[j].func])
			w->order[w->norder++] = fr[j].func;
		w->func_w[fr[j].func] += weight;
	}
}

static void walk_sample(void *arg, const struct prof_sample *s, const struct prof_frame *fr,
    int n)
{
	walk_add(arg, s, prof_weight(s), 1, fr, n);
}

static void walk_group(void *arg, const struct prof_sample *s, uint64_t weight, uint64_t count,
    const struct prof_frame *fr, int n)
{
	walk_add(arg, s, weight, count, fr, n);
}

/* profile__foreach_group gives, per filter, what profile__foreach gives
 * sample by sample: the same (stack, context, name) keys in the same order
 * with the same weights and counts (keys), the same weight per function,
 * the functions first seen in the same order; with fewer callbacks than
 * samples when samples repeat (grouped).  Twice: the second walk with the
 * same filter is served from the first one's groups (a -g report's two
 * walks), and must give the same. */
static void check_group_walk_once(struct profile *p, const struct prof_filter *flt, int keys,
    int grouped)
{
	static struct walk a, b;
	struct walk *w[2] = { &a, &b };
	for (int i = 0; i < 2; i++) {
		w[i]->keys = keys;
		w[i]->n = w[i]->norder = 0;
		w[i]->calls = w[i]->count = 0;
		w[i]->func_w = calloc(p->nf + 1, sizeof(uint64_t));
		w[i]->order = calloc(p->nf + 1, sizeof(uint32_t));
		assert_non_null(w[i]->func_w);
		assert_non_null(w[i]->order);
	}
	profile__foreach(p, flt, 0, walk_sample, &a);
	profile__foreach_group(p, flt, 0, walk_group, &b);
	assert_true(a.count > 0);
	assert_int_equal(a.count, b.count);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		assert_int_equal(a.k[i].stack, b.k[i].stack);
		assert_int_equal(a.k[i].ev, b.k[i].ev);
		assert_int_equal(a.k[i].cpu, b.k[i].cpu);
		assert_int_equal(a.k[i].pid, b.k[i].pid);
		assert_int_equal(a.k[i].tid, b.k[i].tid);
		assert_ptr_equal(a.k[i].comm, b.k[i].comm);
		assert_int_equal(a.k[i].weight, b.k[i].weight);
		assert_int_equal(a.k[i].count, b.k[i].count);
	}
	assert_memory_equal(a.func_w, b.func_w, (p->nf + 1) * sizeof(uint64_t));
	assert_int_equal(a.norder, b.norder);
	assert_memory_equal(a.order, b.order, a.norder * sizeof(uint32_t));
	if (grouped)
		assert_true(b.calls < a.calls);
	for (int i = 0; i < 2; i++) {
		free(w[i]->func_w);
		free(w[i]->order);
	}
}

static void check_group_walk(struct profile *p, const struct prof_filter *flt, int keys,
    int grouped)
{
	check_group_walk_once(p, flt, keys, grouped);
	check_group_walk_once(p, flt, keys, grouped);
}

static void test_group_walk(void **state)
{
	(void)state;
	static const uint64_t chains[4][3] = {
		{ 0x401000, 0x402000, 0x403000 }, { 0x401100, 0x402000, 0x403000 },
		{ 0x402000, 0x403000, 0 }, { 0x404000, 0x403000, 0 } };
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	alloc(0x200, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	comm(10, 11, "worker", 2);
	comm(20, 20, "other", 3);
	/* 3002 samples about 1 ms apart: four stacks, two events, three threads on
	 * two CPUs, periods that vary; thread 10 renamed by an exec at 1.5 s */
	for (uint32_t i = 0; i < 3000; i++) {
		static const int32_t tid[3] = { 10, 11, 20 };
		uint32_t c = (i / 3 + i / 7) % 4;
		int32_t t = tid[(i / 5) % 3];
		if (i == 1500) {      /* the same stack and thread just before and after */
			uint64_t t0 = 1000000000 + 1500 * UINT64_C(1000000) - 3;
			sample_chain(0x100, 10, 10, 0, t0, chains[0], 3, 7);
			comm(10, 10, "renamed", t0 + 1);
			sample_chain(0x100, 10, 10, 0, t0 + 2, chains[0], 3, 7);
		}
		sample_chain(i % 11 == 0 ? 0x200 : 0x100, t == 20 ? 20 : 10, t, (int)(i / 2) % 2,
		    1000000000 + i * UINT64_C(1000000), chains[c], c < 2 ? 3 : 2, 1000 + i % 13);
	}
	struct profile *p = load();
	assert_int_equal(p->ns, 3002);

	struct prof_filter f;
	profile__filter_init(&f);
	check_group_walk(p, NULL, 1, 1);
	check_group_walk(p, &f, 1, 1);
	f.ev = 1;
	check_group_walk(p, &f, 1, 1);
	profile__filter_init(&f);
	assert_int_equal(profile__parse_time(&f, "1.7,2.9"), 0);
	check_group_walk(p, &f, 1, 1);
	f.comms = "renamed";            /* a name that only the later samples have */
	check_group_walk(p, &f, 1, 1);
	profile__filter_init(&f);
	f.comms = "main,other";
	check_group_walk(p, &f, 1, 1);
	profile__filter_init(&f);
	f.tids = "11";
	f.cpus = "1";
	check_group_walk(p, &f, 1, 1);
	profile__filter_init(&f);
	f.pids = "20";
	f.syms = p->f[p->l[0].func].name;
	check_group_walk(p, &f, 1, 1);
	/* the same filter buffer with other contents: another filter, not the
	 * groups of the one it held before */
	char tids[8] = "11";
	profile__filter_init(&f);
	f.tids = tids;
	check_group_walk(p, &f, 1, 1);
	memcpy(tids, "10", 3);
	check_group_walk(p, &f, 1, 1);
	/* a changed sample (offcpu.c's --wall rewrites weights): walked again */
	profile__filter_init(&f);
	check_group_walk(p, &f, 1, 1);
	struct prof_sample s0;
	profile__sample(p, 5, &s0);
	s0.period *= 7;
	s0.stack = 0;
	assert_int_equal(samples__set(p->smp, 5, &s0), 0);
	profile__filter_init(&f);
	check_group_walk(p, &f, 1, 1);
	check_group_walk(p, NULL, 1, 1);
	profile__free(p);

	/* more distinct keys than one batch of groups holds: a key handed out
	 * again after a batch still comes in the order of first samples.  Not
	 * under ASan: 210,003 samples of 70,001 stacks, each walked per sample
	 * and grouped, ran past run.sh's 600 s there (the normal build takes
	 * well under a second, and the batching is the same code) */
	if (PMC_TEST_ASAN) {
			lb_free(&lg);
		return;
	}
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	for (uint32_t i = 0; i < 3 * 70001; i++) {
		/* 70001 stacks twice each in a row, then each once again */
		uint64_t pc = 0x500000 + (i < 2 * 70001 ? i / 2 : i - 2 * 70001) * 16;
		sample_chain(0x100, 10, 10, 0, 1000 + i, &pc, 1, 1 + i % 3);
	}
	p = load();
	check_group_walk(p, NULL, 0, 1);
	profile__free(p);
	lb_free(&lg);
}

/* The flat report of the profile at path loaded with lo, as text. */
static char *flat_text(const char *path, const struct prof_load_opts *lo, size_t *nstacks,
    int *deepest)
{
	struct profile *p;
	struct report_opts o = { 0 };
	const struct prof_frame *fr;
	char *txt;
	size_t tl;
	assert_int_equal(profile__load(&p, path, lo), 0);
	profile__resolve(p);
	*nstacks = profile__nstacks(p);
	*deepest = 0;
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample s;
		profile__sample(p, i, &s);
		int n = profile__frames(p, s.stack, 0, &fr);
		if (n > *deepest)
			*deepest = n;
	}
	FILE *f = open_memstream(&txt, &tl);
	assert_non_null(f);
	profile__filter_init(&o.flt);
	o.callgraph = -1;
	o.input_name = "x";
	assert_int_equal(report__parse_sort(&o, "comm,pid,tid,cpu,dso,sym"), 0);
	assert_false(report__uses_chains(&o));
	assert_int_equal(report__text(f, p, &o), 0);
	o.flt.syms = p->f[p->l[0].func].name;      /* --sym: of the leaf */
	assert_int_equal(report__text(f, p, &o), 0);
	fclose(f);
	profile__free(p);
	return txt;
}

/* The call-graph reports of the profile at path loaded with lo, as text:
 * callee graphs, then caller graphs with children. */
static char *graph_text(const char *path, const struct prof_load_opts *lo)
{
	struct profile *p;
	struct report_opts o = { 0 };
	char *txt;
	size_t tl;
	assert_int_equal(profile__load(&p, path, lo), 0);
	FILE *f = open_memstream(&txt, &tl);
	assert_non_null(f);
	profile__filter_init(&o.flt);
	o.input_name = "x";
	assert_int_equal(report__parse_sort(&o, "comm,dso,sym"), 0);
	o.callgraph = TREE_CALLEE;
	assert_int_equal(report__text(f, p, &o), 0);
	o.callgraph = TREE_CALLER;
	o.children = 1;
	assert_int_equal(report__text(f, p, &o), 0);
	fclose(f);
	profile__free(p);
	return txt;
}

/* prof_load_opts.leaf_only (what `pmc report` asks for when it prints no
 * call graph): every stack is the sample's leaf alone, fewer stacks are
 * kept, and the flat report is the same, byte for byte, with every
 * per-sample key and a --sym filter. */
static void test_leaf_only(void **state)
{
	(void)state;
	static const uint64_t chains[5][3] = {
		{ 0x401000, 0x402000, 0x403000 }, { 0x401000, 0x402100, 0x403000 },
		{ 0x402000, 0x403000, 0 }, { 0, 0x403000, 0x404000 }, { 0x404000, 0, 0 } };
	char path[] = "/tmp/test_profile_XXXXXX";
	struct prof_load_opts lo = { 0 };
	size_t nfull, nleaf;
	int dfull, dleaf;

	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	alloc(0x200, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	comm(10, 11, "worker", 2);
	for (uint32_t i = 0; i < 500; i++)
		sample_chain(i % 7 == 0 ? 0x200 : 0x100, 10, 10 + (int32_t)(i % 2), (int)(i % 3),
		    1000000 + i * UINT64_C(1000), chains[(i / 3) % 5], 3, 100 + i % 9);
	finish();
	lb_save_tmp(&lg, path);

	char *full = flat_text(path, NULL, &nfull, &dfull);
	lo.leaf_only = 1;
	char *leaf = flat_text(path, &lo, &nleaf, &dleaf);
	unlink(path);
	assert_int_equal(dfull, 3);
	assert_int_equal(dleaf, 1);
	assert_true(nleaf < nfull);
	assert_string_equal(leaf, full);
	assert_non_null(strstr(full, "main"));
	free(full);
	free(leaf);
	lb_free(&lg);
}

/* The pmc log at log converted to a perf.data (as `pmc convert` does), at
 * a new temporary path written into path (a "/tmp/test_profile_XXXXXX"
 * buffer). */
static void to_perfdata(const char *log, char *path)
{
	uint64_t n = 0;
	int trunc = 0, in, fd;
	strcpy(path, "/tmp/test_profile_XXXXXX");
	assert_true((in = open(log, O_RDONLY)) >= 0);
	assert_true((fd = mkstemp(path)) >= 0);
	assert_int_equal(perfdata__from_pmclog(in, fd, &n, &trunc), 0);
	assert_int_equal(trunc, 0);
	close(in);
	close(fd);
}

/* The log built, closed, written to a temporary file; the path is in
 * path (a "/tmp/test_profile_XXXXXX" buffer).  perf: converted to a
 * perf.data (as `pmc convert` does) instead. */
static void write_log(char *path, int perf)
{
	char lp[] = "/tmp/test_profile_XXXXXX";
	finish();
	lb_save_tmp(&lg, lp);
	strcpy(path, lp);
	if (perf) {
		to_perfdata(lp, path);
		unlink(lp);
	}
}

/* Rows of equal weight and count come in the order of their keys, not in
 * the order their first samples were read (a flat report reads a
 * perf.data's samples in file order, prof_load_opts.input_order). */
static void test_ties_by_key(void **state)
{
	(void)state;
	static const uint64_t pc = 0x401000;
	char path[] = "/tmp/test_profile_XXXXXX";
	size_t ns;
	int deep;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(20, 20, "other", 1);
	comm(10, 10, "main", 2);
	for (uint32_t i = 0; i < 6; i++)       /* "other" first, then "main" */
		sample_chain(0x100, i < 3 ? 20 : 10, i < 3 ? 20 : 10, 0, 1000 + i, &pc, 1, 7);
	write_log(path, 0);
	char *t = flat_text(path, NULL, &ns, &deep);
	unlink(path);
	const char *m = strstr(t, "  main "), *o = strstr(t, "  other ");
	assert_non_null(m);
	assert_non_null(o);
	assert_true(m < o);
	free(t);
	lb_free(&lg);
}

/* Call-graph siblings of equal weight come in the order of their names,
 * not of their first samples: "bbb" is sampled first, "aaa" prints first,
 * in the callee graph (roots) and the caller graph (children). */
static void test_graph_ties_by_name(void **state)
{
	(void)state;
	const pid_t pid = 999997;     /* no such process: its perf map is ours */
	char mp[64], path[] = "/tmp/test_profile_XXXXXX";
	static const uint64_t b[2] = { 0x7f0000002010, 0x7f0000003010 };
	static const uint64_t a[2] = { 0x7f0000001010, 0x7f0000003010 };
	snprintf(mp, sizeof(mp), "/tmp/perf-%d.map", (int)pid);
	FILE *f = fopen(mp, "w");
	assert_non_null(f);
	fprintf(f, "7f0000001000 100 aaa\n7f0000002000 100 bbb\n7f0000003000 100 main_loop\n");
	fclose(f);
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(pid, pid, "prog", 1);
	for (uint32_t i = 0; i < 6; i++)
		sample_chain(0x100, pid, pid, 0, 1000 + i, i < 3 ? b : a, 2, 5);
	write_log(path, 0);
	char *t = graph_text(path, NULL);
	unlink(path);
	unlink(mp);
	const char *callee = strstr(t, "# Call graph"), *caller = callee ?
	    strstr(callee + 1, "# Call graph") : NULL;
	assert_non_null(caller);
	const char *ca = strstr(callee, "aaa"), *cb = strstr(callee, "bbb");
	assert_true(ca && cb && ca < cb && cb < caller);
	ca = strstr(caller, "aaa");
	cb = strstr(caller, "bbb");
	assert_true(ca && cb && ca < cb);
	free(t);
	lb_free(&lg);
}

/* prof_load_opts.input_order: a perf.data's samples are taken as the file
 * holds them (out of time order across CPUs), and the flat report is the
 * same, byte for byte, as with them in time order. */
static void test_input_order(void **state)
{
	(void)state;
	static const uint64_t pcs[4] = { 0x401000, 0x402000, 0x403000, 0x404000 };
	char path[] = "/tmp/test_profile_XXXXXX";
	struct prof_load_opts lo = { 0 };
	struct profile *p;
	size_t n1, n2, n3;
	int d1, d2, d3;

	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	alloc(0x200, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	comm(10, 11, "worker", 2);
	/* CPU 1's samples of each round written before CPU 0's, which are
	 * older: the file is out of time order in every round */
	for (uint32_t r = 0; r < 40; r++)
		for (int cpu = 1; cpu >= 0; cpu--)
			for (uint32_t i = 0; i < 50; i++) {
				uint32_t k = r * 100 + (uint32_t)cpu * 50 + i;
				sample_chain(k % 7 ? 0x100 : 0x200, 10, 10 + (int32_t)(k % 2), cpu,
				    1000000 + r * UINT64_C(100000) + (uint64_t)cpu * 100 + i,
				    &pcs[(k / 3) % 3], 1 + k % 2, 100 + k % 9);
			}
	write_log(path, 1);
	char *timed = flat_text(path, NULL, &n1, &d1);
	lo.leaf_only = 1;
	char *leaf = flat_text(path, &lo, &n2, &d2);
	lo.input_order = 1;
	char *read = flat_text(path, &lo, &n3, &d3);
	assert_string_equal(leaf, timed);
	assert_string_equal(read, timed);
	/* call graphs too: their nodes sort on names, not on first samples */
	char *gtimed = graph_text(path, NULL);
	struct prof_load_opts whole = { .input_order = 1 };
	char *gread = graph_text(path, &whole);
	assert_string_equal(gread, gtimed);
	assert_non_null(strstr(gtimed, "Call graph"));
	free(gtimed);
	free(gread);
	/* and the samples are in the file's order: CPU 1's first */
	assert_int_equal(profile__load(&p, path, &lo), 0);
	assert_int_equal(p->ns, 4000);
	assert_int_equal(smp(p, 0).cpu, 1);
	assert_true(smp(p, 0).time > smp(p, 50).time);
	profile__free(p);
	lo.input_order = 0;
	assert_int_equal(profile__load(&p, path, &lo), 0);
	assert_int_equal(smp(p, 0).cpu, 0);
	profile__free(p);
	unlink(path);
	free(timed);
	free(leaf);
	free(read);
	lb_free(&lg);
}

/* prof_load_opts.sums: a perf.data's flat report from per-group sums is the
 * same, byte for byte, as from every sample, with names that change over
 * time (an exec's COMM, a birth), weights past 2^32 and two events; only
 * the groups are stored.  When the file's order leaves a group's name
 * ambiguous (a sample after an exec read before the exec's COMM), the file
 * is read again: a perf.data summed in time order, a pmc log sample by
 * sample, with the same result. */
static void test_sums(void **state)
{
	(void)state;
	static const uint64_t pcs[4] = { 0x401000, 0x402000, 0x403000, 0x404000 };
	char path[] = "/tmp/test_profile_XXXXXX";
	struct prof_load_opts lo = { .leaf_only = 1, .input_order = 1 };
	struct profile *p;
	size_t n1, n2;
	int d1, d2;

	for (int ambiguous = 0; ambiguous < 2; ambiguous++) {
		begin();
		alloc(0x100, PMC_MODE_TS, -1);
		alloc(0x200, PMC_MODE_TS, -1);
		comm(10, 10, "main", 1);
		comm(10, 11, "worker", 2);
		uint32_t ns = 0;
		for (uint32_t i = 0; i < 600; i++, ns++) {
			uint64_t t = 1000 + i * UINT64_C(10);
			if (i == 300) {
				/* the worker execs */
				if (ambiguous) {
					/* its next sample is in the file before its COMM */
					sample_chain(0x100, 10, 11, 1, t + 5, &pcs[0], 1, 3);
					ns++;
				}
				comm(10, 11, "renamed", t);
			}
			if (i == 450)
				fork_(10, 12, t - 1);     /* a child is born */
			uint32_t tid = 10 + i % 3;
			if (tid == 12 && i < 450)
				tid = 10;
			sample_chain(i % 5 ? 0x100 : 0x200, tid == 12 ? 12 : 10, (pid_t)tid,
			    (int)(i % 2), t, &pcs[(i / 7) % 3], 1 + (i / 3) % 2,
			    i % 11 ? 100 + i % 13 : UINT64_C(3) << 31);
		}
		char logp[sizeof(path)];
		write_log(logp, 0);
		to_perfdata(logp, path);
		for (int perf = 0; perf < 2; perf++) {     /* the pmc log, its perf.data */
			const char *in = perf ? path : logp;
			char *each = flat_text(in, NULL, &n1, &d1);
			lo.sums = 1;
			char *sums = flat_text(in, &lo, &n2, &d2);
			assert_string_equal(sums, each);
			assert_non_null(strstr(each, "renamed"));
			/* call graphs from the sums of whole chains, read in file order */
			char *gtimed = graph_text(in, NULL);
			struct prof_load_opts whole = { .input_order = 1, .sums = 1 };
			char *gsums = graph_text(in, &whole);
			assert_string_equal(gsums, gtimed);
			free(gtimed);
			free(gsums);
			assert_int_equal(profile__load(&p, in, &lo), 0);
			uint64_t total = 0;
			for (size_t e = 0; e < p->nev; e++)
				total += p->ev[e].samples;
			assert_int_equal(total, ns);
			if (ambiguous && !perf)
				assert_int_equal(p->ns, ns);       /* read again, one by one */
			else
				assert_true(p->ns < 100);          /* the groups only (an
				                                    * ambiguous perf.data is
				                                    * summed in time order) */
			profile__free(p);
			free(each);
			free(sums);
			lo.sums = 0;
		}
		unlink(path);
		unlink(logp);
	}
	lb_free(&lg);
}

/* The flat report of the pmc log in buf (closed here) with and without
 * sums must be the same; returns how many entries the summed profile
 * stored. */
static size_t sums_same(void)
{
	char path[] = "/tmp/test_profile_XXXXXX";
	struct prof_load_opts lo = { .leaf_only = 1, .input_order = 1, .sums = 1 };
	struct profile *p;
	size_t n1, n2, ns;
	int d1, d2;
	write_log(path, 0);
	char *each = flat_text(path, NULL, &n1, &d1);
	char *sums = flat_text(path, &lo, &n2, &d2);
	assert_string_equal(sums, each);
	assert_int_equal(profile__load(&p, path, &lo), 0);
	ns = p->ns;
	profile__free(p);
	unlink(path);
	free(each);
	free(sums);
	lb_free(&lg);
	return ns;
}

/* Sums: a name event of one thread does not split another's sums (2,000
 * samples of one stack, a fork of another process after every other one). */
static void test_sums_other_threads(void **state)
{
	(void)state;
	static const uint64_t pc = 0x401000;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	for (uint32_t i = 0; i < 2000; i++) {
		sample_chain(0x100, 10, 10, 0, 1000 + 10 * i, &pc, 1, 7);
		if (i % 2)
			fork_(99, 1000 + (pid_t)i, 1000 + 10 * i + 5);
	}
	assert_int_equal(sums_same(), 1);
}

/* Sums: a sample from before a rename that comes in the file after the
 * rename's COMM (from another CPU's ring) is summed with the samples
 * before the rename, by its time: no sum holds two names, and the file is
 * not read again sample by sample. */
static void test_sums_late_sample(void **state)
{
	(void)state;
	static const uint64_t pc = 0x401000;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	for (uint32_t i = 0; i < 40; i++)
		sample_chain(0x100, 10, 10, 0, 1000 + 100 * i, &pc, 1, 7);
	comm(10, 10, "renamed", 5000);
	sample_chain(0x100, 10, 10, 0, 4950, &pc, 1, 7);   /* late: before the rename */
	for (uint32_t i = 0; i < 40; i++)
		sample_chain(0x100, 10, 10, 0, 5100 + 100 * i, &pc, 1, 7);
	assert_true(sums_same() <= 3);
}

/* Sums: samples at time 0 (no time) do not make the first time 0: no
 * "duration" line appears that the samples one by one do not print. */
static void test_sums_time0(void **state)
{
	(void)state;
	static const uint64_t pc = 0x401000, pc2 = 0x402000;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "main", 0);      /* named from time 0: one span */
	sample_chain(0x100, 10, 10, 0, 0, &pc, 1, 7);
	sample_chain(0x100, 10, 10, 0, 2000000000, &pc, 1, 7);
	sample_chain(0x100, 10, 10, 0, 3000000000, &pc2, 1, 7);
	assert_int_equal(sums_same(), 2);
}

/* Sums: weights 2^63 + 2^63 in one entry add up to 0 (mod 2^64, as one by
 * one), not to a weight of 1. */
static void test_sums_wrap(void **state)
{
	(void)state;
	static const uint64_t pc = 0x401000, pc2 = 0x402000;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	sample_chain(0x100, 10, 10, 0, 100, &pc, 1, UINT64_C(1) << 63);
	sample_chain(0x100, 10, 10, 0, 200, &pc, 1, UINT64_C(1) << 63);
	sample_chain(0x100, 10, 10, 0, 300, &pc2, 1, 5);
	assert_int_equal(sums_same(), 2);
}

/* Sums: samples on either side of a marker are counted apart (the report
 * counts the samples between markers by time). */
static void test_sums_markers(void **state)
{
	(void)state;
	static const uint64_t pc = 0x401000;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	for (uint32_t i = 0; i < 30; i++) {
		sample_chain(0x100, 10, 10, 0, 1000 + 10 * i, &pc, 1, 7);
		if (i % 10 == 9) {
			assert_int_equal(pmc__logrec_userdata(&rec, 0xabc0 + i), 0);
			put(1000 + 10 * i + 5);
		}
	}
	assert_int_equal(sums_same(), 3);
}

/* Sums: switch-ins beside an event that is not a context switch leave
 * nothing to weigh per sample, so the file is not read again. */
static void test_sums_switch(void **state)
{
	(void)state;
	static const uint64_t pc = 0x401000;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	for (uint32_t i = 0; i < 20; i++) {
		sample_chain(0x100, 10, 10, 0, 1000 + 10 * i, &pc, 1, 7);
		assert_int_equal(pmc__logrec_switch(&rec, 0x100, 10, 10, 0, 0), 0);
		put(1000 + 10 * i + 5);
	}
	assert_int_equal(sums_same(), 1);
}

/* The peak resident memory (KB) of a child that loads the log at path and
 * walks every sample, as a report does. */
static long report_peak_kb(const char *path)
{
	struct rusage ru;
	int st;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct profile *p;
		uint64_t w = 0;
		if (profile__load(&p, path, NULL) < 0)
			_exit(1);
		profile__resolve(p);
		for (size_t i = 0; i < p->ns; i++) {
			struct prof_sample x;
			profile__sample(p, i, &x);
			w += prof_weight(&x);
		}
		_exit(w == p->ev[0].period ? 0 : 2);
	}
	assert_int_equal(wait4(pid, &st, 0, &ru), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	return ru.ru_maxrss;
}

/* A log of n samples of two threads on two CPUs, in 16 distinct 6-frame
 * call chains, periods varying as with -F (no field the same in every
 * sample), written to path. */
static void write_samples(const char *path, size_t n)
{
	uint64_t pc[6] = { 0x401000, 0x402000, 0x403000, 0x404000, 0x405000, 0x406000 };
	const uint8_t fl[6] = { PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE,
		PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE };
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "work", 3);
	for (size_t i = 0; i < n; i++) {
		pc[0] = 0x401000 + 16 * (i % 16);
		struct pmc_logrec_sample s = { 0x100, 100, 100 + (pid_t)(i % 2), (uint32_t)(i % 2),
			10000 + i % 7, 6, pc, fl };
		assert_int_equal(pmc__logrec_callchain(&rec, &s), 0);
		put(1000000 + 10000 * i);
	}
	finish();
	lb_save(&lg, path);
}

/* Issue 16: a report holds at most 24 bytes per sample (it was 40 and
 * more: every sample kept its pid, tid, time, period and name in full).
 * Measured as perf's and pmc's benchmark do: peak RSS at two sizes. */
static void test_report_memory_per_sample(void **state)
{
	(void)state;
	enum { N1 = 200000, N2 = 800000 };
	char dir[] = "/tmp/test_profile_mem_XXXXXX", p1[64], p2[64];
	if (PMC_TEST_ASAN)
		skip();     /* it would measure ASan's redzones, slowly (a million samples) */
	assert_non_null(mkdtemp(dir));
	snprintf(p1, sizeof(p1), "%s/1", dir);
	snprintf(p2, sizeof(p2), "%s/2", dir);
	/* written by children: the log buffer must not stay in this
	 * process's heap, whose pages the measuring children inherit */
	for (int k = 0; k < 2; k++) {
		int st;
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			write_samples(k ? p2 : p1, k ? N2 : N1);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	long k1 = report_peak_kb(p1), k2 = report_peak_kb(p2);
	double per = (double)(k2 - k1) * 1024 / (N2 - N1);
	unlink(p1);
	unlink(p2);
	rmdir(dir);
	print_message("# %.1f bytes per sample (peak %ld KB at %d samples, %ld KB at %d)\n", per,
	    k1, N1, k2, N2);
	assert_true(per <= 24);
}

static const char *comm_of(struct profile *p, pid_t tid)
{
	for (size_t i = 0; i < p->ns; i++)
		if (smp(p, i).tid == tid)
			return smp(p, i).comm;
	return NULL;
}

/* A child forked without exec has its parent's name (perf: "bash", not
 * ":PID"), even when the fork is logged after the child's samples and the
 * parent's name after the fork. */
static void test_fork_inherits_name_out_of_order(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	sample(0x100, 101, 101, 1, 400);      /* child, CPU 1's ring drained first */
	sample(0x100, 102, 102, 1, 500);      /* grandchild (forked by the child) */
	fork_(101, 102, 350);
	fork_(100, 101, 300);                 /* CPU 0's ring: the fork, ... */
	comm(100, 100, "bash", 100);          /* ... and the parent's exec before it */
	sample(0x100, 100, 100, 0, 200);
	struct profile *p = load();
	assert_string_equal(comm_of(p, 100), "bash");
	assert_string_equal(comm_of(p, 101), "bash");
	assert_string_equal(comm_of(p, 102), "bash");
	profile__free(p);
}

/* The log of sh's child 101, sampled once before its exec of ls (at 250)
 * and n times after it (from 270), its fork and sh's name written after
 * them (records of different CPUs come in any order), loaded. */
static struct profile *fork_then_exec(int n)
{
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	sample(0x100, 101, 101, 1, 250);      /* before the child's exec */
	comm(101, 101, "ls", 260);
	for (int i = 0; i < n; i++)
		sample(0x100, 101, 101, 1, 270 + 10 * (uint64_t)i);
	fork_(100, 101, 240);
	comm(100, 100, "sh", 100);
	return load();
}

/* A name the child takes later (its exec) wins from then on. */
static void test_fork_then_exec(void **state)
{
	(void)state;
	struct profile *p = fork_then_exec(1);
	assert_int_equal(p->ns, 2);
	assert_string_equal(smp(p, 0).time == 250 ? smp(p, 0).comm : smp(p, 1).comm, "sh");
	assert_string_equal(smp(p, 0).time == 270 ? smp(p, 0).comm : smp(p, 1).comm, "ls");
	profile__free(p);
}

/* A flame graph's level per process or thread (--flame-by pid|tid) is
 * named by the task's last name, whichever of its samples comes first:
 * html_report.sh saw "gcc [PID]" for cc1 when the child was sampled
 * between its fork and its exec. */
static void test_tree_task_roots_last_name(void **state)
{
	(void)state;
	struct profile *p = fork_then_exec(2);
	struct prof_filter flt = { .ev = 0 };
	profile__resolve(p);
	for (int root = TREE_ROOT_PID; root <= TREE_ROOT_TID; root++) {
		struct ctree t;
		assert_int_equal(tree__build(&t, p, &flt, TREE_CALLER, 0, root), 0);
		uint32_t c = t.n[0].child;
		assert_true(c != UINT32_MAX);
		assert_int_equal(t.n[c].next, UINT32_MAX);      /* one process, one level */
		assert_int_equal(t.n[c].id, 101);
		assert_int_equal(t.n[c].nsamples, 3);
		assert_string_equal(t.n[c].comm, "ls");
		tree__free(&t);
	}
	profile__free(p);
}

/* tid -1 is no thread: not the process's name (perf: ":-1"). */
static void test_no_thread(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "threads", 100);
	sample(0x100, 100, 100, 0, 200);
	sample(0x100, 100, -1, 0, 300);
	struct profile *p = load();
	assert_string_equal(comm_of(p, 100), "threads");
	assert_string_equal(comm_of(p, -1), ":-1");
	profile__free(p);
}

/* A system-mode event is one PMC per CPU and one event in the profile. */
static void test_system_mode_one_event(void **state)
{
	(void)state;
	begin();
	alloc(0x4200, PMC_MODE_SS, 0);
	alloc(0x104200, PMC_MODE_SS, 1);
	comm(100, 100, "busy", 100);
	sample(0x4200, 100, 100, 0, 200);
	sample(0x104200, 100, 100, 1, 300);
	sample(0x104200, 100, 100, 1, 400);
	struct profile *p = load();
	assert_int_equal(p->nev, 1);
	assert_string_equal(p->ev[0].name, "cpu-clock");
	assert_int_equal(p->ev[0].samples, 3);
	assert_int_equal(smp(p, 0).ev, smp(p, 2).ev);
	profile__free(p);
	/* two different events stay two */
	begin();
	alloc(0x4200, PMC_MODE_SS, 0);
	assert_int_equal(pmc__logrec_pmcallocate(&rec, 0x4201, 0, "page-faults", PMC_MODE_SS,
	    0, 4000, 1, 1), 0);
	put(2);
	sample(0x4200, 100, 100, 0, 200);
	sample(0x4201, 100, 100, 1, 300);
	p = load();
	assert_int_equal(p->nev, 2);
	profile__free(p);
}

/* The exec's COMM is the name (the kernel's: "python3" for the link to
 * python3.11, as perf shows), not the executable's file name that
 * PROCEXEC carries after it; without a COMM (hwpmc logs) the file name. */
static void test_exec_name_from_comm(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "python3", 100);
	assert_int_equal(pmc__logrec_procexec(&rec, 0x100, 100, 100, 0, 0, "/usr/bin/python3.11"), 0);
	put(150);
	sample(0x100, 100, 100, 0, 200);
	assert_int_equal(pmc__logrec_procexec(&rec, 0x100, 101, 101, 0, 0, "/usr/bin/prog"), 0);
	put(150);
	sample(0x100, 101, 101, 0, 200);
	struct profile *p = load();
	assert_string_equal(comm_of(p, 100), "python3");
	assert_string_equal(comm_of(p, 101), "prog");
	profile__free(p);
}

static void map_in(pid_t pid, const char *path, uint64_t ts)
{
	struct pmc_logrec_map m = { pid, 0x400000, 0x10000, 0, 5, 2, 0, NULL, path };
	assert_int_equal(pmc__logrec_map_in(&rec, &m), 0);
	put(ts);
}

static void map_seg(pid_t pid, const char *path, uint64_t start, uint64_t len, uint64_t pgoff,
    uint32_t prot, uint64_t ts)
{
	struct pmc_logrec_map m = { pid, start, len, pgoff, prot, 2, 0, NULL, path };
	assert_int_equal(pmc__logrec_map_in(&rec, &m), 0);
	put(ts);
}

static void map_at(pid_t pid, const char *path, uint64_t start, uint64_t len, uint64_t ts)
{
	map_seg(pid, path, start, len, 0, 5, ts);
}

/* The dynamic linker maps a library whole (read-only), then its text at
 * the same offsets and its data a page off (RELRO, .data).  The data
 * mapping is no remap: no code can be where it changed what the addresses
 * read, so a pc of the text is one stack before and after it (each remap
 * made a map epoch, and a system-wide perf.data, where perf records data
 * mappings too, was read twice: its sums split by epochs that changed
 * nothing).  Code mapped over code still is one (test_remap_by_time). */
static void test_data_segments(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "prog", 50);
	map_seg(100, "/nonexistent/lib.so", 0x7f0000000000, 0x8000, 0, 1, 100);
	map_seg(100, "/nonexistent/lib.so", 0x7f0000001000, 0x3000, 0x1000, 5, 110);
	uint64_t pc = 0x7f0000001100;
	sample_chain(0x100, 100, 100, 0, 200, &pc, 1, 1);
	map_seg(100, "/nonexistent/lib.so", 0x7f0000005000, 0x2000, 0x4000, 3, 300);
	sample_chain(0x100, 100, 100, 0, 400, &pc, 1, 1);
	/* and another binary's code over the same text: a remap */
	map_seg(100, "/nonexistent/other.so", 0x7f0000001000, 0x3000, 0, 5, 500);
	sample_chain(0x100, 100, 100, 0, 600, &pc, 1, 1);
	struct profile *p = load();
	assert_int_equal(p->ns, 3);
	const struct prof_frame *fr;
	assert_true(profile__frames(p, smp(p, 0).stack, 0, &fr) >= 1);
	assert_string_equal(sym_dso__path(p->l[fr[0].loc].dso), "/nonexistent/lib.so");
	assert_int_equal(smp(p, 1).stack, smp(p, 0).stack);
	assert_true(smp(p, 2).stack != smp(p, 0).stack);
	assert_true(profile__frames(p, smp(p, 2).stack, 0, &fr) >= 1);
	assert_string_equal(sym_dso__path(p->l[fr[0].loc].dso), "/nonexistent/other.so");
	profile__free(p);
}

/* A process of 20,000 mappings (a JVM, a program of many plugins), logged
 * in no order of address: each sample is placed in its own mapping, a
 * remap over one of them counts from its time, and placing the mappings
 * and the samples looks at a few mappings each, not at all of them (the
 * lookups went through every mapping of the process: 2 * 10^8 looks). */
static void test_many_mappings(void **state)
{
	enum { N = 20000, STEP = 7919 };     /* STEP is prime: i * STEP % N visits all */
	static const uint64_t base = 0x10000000, len = 0x10000;
	char name[64];
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "prog", 50);
	for (uint64_t i = 0; i < N; i++) {
		uint64_t k = i * STEP % N;
		snprintf(name, sizeof(name), "/nonexistent/lib%u.so", (unsigned)(k % 97));
		map_at(100, name, base + k * len, len, 100 + i);
	}
	/* one long mapping late over the first 8 (another binary there) */
	map_at(100, "/nonexistent/over.so", base, 8 * len, 1000000);
	for (uint64_t i = 0; i < 400; i++) {
		uint64_t k = i * 37 % N, pc = base + k * len + 0x123;
		sample_chain(0x100, 100, 100, 0, 900000 + i, &pc, 1, 1);
	}
	for (uint64_t k = 0; k < 10; k++) {
		uint64_t pc = base + k * len + 0x40;
		sample_chain(0x100, 100, 100, 0, 2000000 + k, &pc, 1, 1);
	}
	struct profile *p = load();
	assert_int_equal(p->ns, 410);
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample sm = smp(p, i);
		const struct prof_frame *fr;
		assert_true(profile__frames(p, sm.stack, 0, &fr) >= 1);
		uint64_t k = sm.time >= 2000000 ? sm.time - 2000000 : (sm.time - 900000) * 37 % N;
		if (sm.time >= 2000000 && k < 8)
			snprintf(name, sizeof(name), "/nonexistent/over.so");
		else
			snprintf(name, sizeof(name), "/nonexistent/lib%u.so", (unsigned)(k % 97));
		assert_string_equal(sym_dso__path(p->l[fr[0].loc].dso), name);
	}
	/* a few looks each: 20,011 mappings placed, ~410 pcs */
	assert_true(p->map_looks < 8 * (uint64_t)(N + 1 + 410));
	profile__free(p);
}

/* The latest mapping by time wins, not the last one in the file: a new
 * mapping at an old one's address, logged before it by another CPU's ring.
 * A sample between the two is the old one's. */
static void test_mapping_by_time(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "prog", 50);
	map_in(100, "/nonexistent/new.so", 300);   /* CPU 1's ring, drained first */
	sample(0x100, 100, 100, 1, 400);
	map_in(100, "/nonexistent/old.so", 100);   /* CPU 0's ring */
	sample(0x100, 100, 100, 0, 200);
	struct profile *p = load();
	assert_int_equal(p->ns, 2);
	const struct prof_frame *fr;
	assert_true(profile__frames(p, smp(p, 0).stack, 0, &fr) >= 1);
	assert_string_equal(sym_dso__path(p->l[fr[0].loc].dso), "/nonexistent/new.so");
	assert_int_equal(smp(p, 1).time, 200);
	assert_true(profile__frames(p, smp(p, 1).stack, 0, &fr) >= 1);
	assert_string_equal(sym_dso__path(p->l[fr[0].loc].dso), "/nonexistent/old.so");
	profile__free(p);
}

/* Per binary, how many samples of pid the profile at path (loaded with lo)
 * puts there: [0] foo.so, [1] bar.so, [2] elsewhere. */
static void counts_by_dso(const char *path, const struct prof_load_opts *lo, pid_t pid,
    uint64_t n[3])
{
	struct profile *p;
	const struct prof_frame *fr;
	assert_int_equal(profile__load(&p, path, lo), 0);
	assert_int_equal(profile__resolve(p), 0);
	n[0] = n[1] = n[2] = 0;
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample s = smp(p, i);
		if (s.pid != pid)
			continue;
		assert_true(profile__frames(p, s.stack, 0, &fr) >= 1);
		const char *d = sym_dso__path(p->l[fr[0].loc].dso);
		n[strcmp(d, "/nonexistent/foo.so") == 0 ? 0 :
		    strcmp(d, "/nonexistent/bar.so") == 0 ? 1 : 2] += prof_count(&s);
	}
	profile__free(p);
}

/* A process maps another binary where one was (dlclose, then a dlopen at
 * the same address; or a mapping over it): each sample is in the binary
 * mapped at its pc when it was taken, as perf's maps at the sample's time
 * put it, not in the latest; a child forked before the remap keeps the
 * first binary.  The remap is logged after samples later than it (another
 * CPU's ring), so it is known only after they were read: in the pmc log
 * and its perf.data, read in time order, in file order (a flat report's),
 * sample by sample or summed. */
static void test_remap_by_time(void **state)
{
	(void)state;
	static const uint64_t pc[1] = { 0x401000 };
	struct pmc_logrec_map foo = { 100, 0x400000, 0x10000, 0, 5, 2, 0, NULL,
		"/nonexistent/foo.so" };
	struct pmc_logrec_map bar = foo;
	bar.path = "/nonexistent/bar.so";
	char log[] = "/tmp/test_profile_XXXXXX", perf[sizeof(log)];

	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(100, 100, "prog", 50);
	assert_int_equal(pmc__logrec_map_in(&rec, &foo), 0);
	put(100);
	for (uint64_t t = 0; t < 30; t++)           /* foo.so's */
		sample_chain(0x100, 100, 100, 0, 200 + t, pc, 1, 1000);
	fork_(100, 101, 500);
	for (uint64_t t = 0; t < 20; t++)           /* bar.so's, read before the remap */
		sample_chain(0x100, 100, 100, 1, 1100 + t, pc, 1, 1000);
	assert_int_equal(pmc__logrec_map_in(&rec, &bar), 0);
	put(1000);
	for (uint64_t t = 0; t < 10; t++) {         /* bar.so's; the child's foo.so's */
		sample_chain(0x100, 100, 100, 0, 1200 + t, pc, 1, 1000);
		sample_chain(0x100, 101, 101, 1, 1200 + t, pc, 1, 1000);
	}
	write_log(log, 0);
	to_perfdata(log, perf);

	static const struct prof_load_opts los[] = {
		{ 0 }, { .leaf_only = 1 }, { .leaf_only = 1, .sums = 1 },
		{ .leaf_only = 1, .input_order = 1 }, { .leaf_only = 1, .input_order = 1, .sums = 1 },
	};
	for (int f = 0; f < 2; f++)
		for (size_t i = 0; i < sizeof(los) / sizeof(los[0]); i++) {
			uint64_t n[3];
			counts_by_dso(f ? perf : log, &los[i], 100, n);
			assert_int_equal(n[0], 30);
			assert_int_equal(n[1], 30);
			assert_int_equal(n[2], 0);
			counts_by_dso(f ? perf : log, &los[i], 101, n);
			assert_int_equal(n[0], 10);
			assert_int_equal(n[1], 0);
		}
	unlink(log);
	unlink(perf);
	lb_free(&lg);
}

/* ---- the histogram (analysis/report/report.h) --------------------------------- */

/* The histogram of p sorted by keys (children with ch): entries' samples
 * summed into by[] at index key(entry); returns how many entries. */
static size_t hist_by(struct profile *p, const char *keys, int ch, int64_t (*key)(
    const struct hist_entry *), uint64_t *self, uint64_t *children, size_t nby)
{
	struct report_opts ro = { 0 };
	struct hist h;
	ro.flt.ev = -1;
	ro.callgraph = -1;
	ro.children = ch;
	assert_int_equal(report__parse_sort(&ro, keys), 0);
	assert_int_equal(report__hist(&h, p, &ro, 0), 0);
	memset(self, 0, nby * sizeof(*self));
	memset(children, 0, nby * sizeof(*children));
	for (size_t i = 0; i < h.n; i++) {
		int64_t k = key(&h.e[i]);
		assert_true(k >= 0 && (size_t)k < nby);
		assert_int_equal(self[k], 0);          /* one entry a key */
		self[k] = h.e[i].self_n;
		children[k] = h.e[i].children_n;
	}
	size_t n = h.n;
	report__hist_free(&h);
	return n;
}

static const char *const hist_names[] = { "main", "worker", "renamed" };
static int64_t key_comm(const struct hist_entry *e)
{
	for (int64_t i = 0; i < 3; i++)
		if (e->comm && strcmp(e->comm, hist_names[i]) == 0)
			return i;
	return -1;
}
static int64_t key_tid(const struct hist_entry *e) { return e->tid - 10; }
static int64_t key_cpu(const struct hist_entry *e) { return e->cpu; }
static int64_t key_one(const struct hist_entry *e) { (void)e; return 0; }

/* One stack (one pc of one process) sampled in two threads of different
 * names on two CPUs, then in the first thread renamed: each key takes its
 * own samples (report.c remembers per stack where the last sample went;
 * a sample of the same stack in another context must not follow it). */
static void test_hist_one_stack_contexts(void **state)
{
	(void)state;
	uint64_t self[3], ch[3];
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "main", 1);
	comm(10, 11, "worker", 2);
	sample(0x100, 10, 10, 0, 10);
	sample(0x100, 10, 11, 1, 11);
	sample(0x100, 10, 10, 1, 12);
	sample(0x100, 10, 11, 0, 13);
	sample(0x100, 10, 11, 0, 14);
	comm(10, 10, "renamed", 100);
	sample(0x100, 10, 10, 2, 101);
	sample(0x100, 10, 10, 2, 102);
	sample(0x100, 10, 10, 0, 103);
	struct profile *p = load();
	assert_int_equal(p->ns, 8);

	for (int c = 0; c < 2; c++) {
		assert_int_equal(hist_by(p, "comm", c, key_comm, self, ch, 3), 3);
		assert_int_equal(self[0], 2);    /* main */
		assert_int_equal(self[1], 3);    /* worker */
		assert_int_equal(self[2], 3);    /* renamed */
		assert_memory_equal(self, ch, sizeof(self));
		assert_int_equal(hist_by(p, "tid", c, key_tid, self, ch, 3), 2);
		assert_int_equal(self[0], 5);
		assert_int_equal(self[1], 3);
		assert_int_equal(hist_by(p, "cpu", c, key_cpu, self, ch, 3), 3);
		assert_int_equal(self[0], 4);
		assert_int_equal(self[1], 2);
		assert_int_equal(self[2], 2);
		assert_memory_equal(self, ch, sizeof(self));
		assert_int_equal(hist_by(p, "sym", c, key_one, self, ch, 1), 1);
		assert_int_equal(self[0], 8);
		assert_int_equal(ch[0], 8);
	}
	profile__free(p);
}

/* ---- the live aggregator (analysis/live/live.h) ------------------------------ */

/* The crafted log as a stream: live__follow on a file, read to its end. */
static struct live *live_load(void)
{
	char path[] = "/tmp/test_live_XXXXXX";
	struct live *lv = live__new(NULL);
	int fd;
	assert_non_null(lv);
	finish();
	assert_true((fd = mkstemp(path)) >= 0);
	assert_int_equal(write(fd, lg.b, lg.len), (ssize_t)lg.len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	unlink(path);
	assert_int_equal(live__follow(lv, fd), 0);
	assert_int_equal(live__wait(lv), 0);
	close(fd);
	return lv;
}

static void live_view_comm(struct live_view *v)
{
	memset(v, 0, sizeof(*v));
	v->sort[0] = SK_COMM;
	v->nsort = 1;
}

/* A stream with one sample of "cold" (pid 20) and nhot of "hot" (pid 10). */
static struct live *hot_and_cold(int nhot)
{
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "hot", 3);
	comm(20, 20, "cold", 3);
	sample(0x100, 20, 20, 0, 4);
	for (int i = 0; i < nhot; i++)
		sample(0x100, 10, 10, 1, 5 + (uint64_t)i);
	return live_load();
}

/* Three samples of "hot", one of "cold": two rows, 75 / 25 % of the whole,
 * in that order. */
static void test_live_rows(void **state)
{
	(void)state;
	struct live *lv = hot_and_cold(3);
	struct live_view v;
	struct live_stats st;
	struct hist h;
	char name[64];
	live_view_comm(&v);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.n, 2);
	assert_int_equal(h.base, 4 * 250000);
	assert_int_equal(h.e[0].self, 3 * 250000);
	assert_int_equal(h.e[0].self_n, 3);
	live__key_str(lv, &h.e[0], SK_COMM, name, sizeof(name));
	assert_string_equal(name, "hot");
	live__key_str(lv, &h.e[1], SK_COMM, name, sizeof(name));
	assert_string_equal(name, "cold");
	report__hist_free(&h);
	live__stats(lv, &st);
	assert_int_equal(st.samples, 4);
	assert_true(st.ended);
	live__free(lv);
}

/* perf top's decay: 7/8 per interval; -z forgets everything. */
static void test_live_decay(void **state)
{
	(void)state;
	begin();
	alloc(0x100, PMC_MODE_TS, -1);
	comm(10, 10, "hot", 3);
	for (int i = 0; i < 8; i++)
		sample(0x100, 10, 10, 0, 5 + (uint64_t)i);
	struct live *lv = live_load();
	struct live_view v;
	struct hist h;
	live_view_comm(&v);
	live__age(lv, 0);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.e[0].self, 8 * 250000 * 7 / 8);
	assert_int_equal(h.e[0].self_n, 7);
	report__hist_free(&h);
	live__age(lv, 1);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.n, 0);
	assert_int_equal(h.base, 0);
	report__hist_free(&h);
	live__free(lv);
}

/* A zoom keeps one command's rows; percentages stay of the whole.  Paused,
 * samples are not added. */
static void test_live_zoom_pause(void **state)
{
	(void)state;
	struct live *lv = hot_and_cold(2);
	struct live_view v;
	struct live_zoom z;
	struct hist h;
	char name[64];
	live_view_comm(&v);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	memset(&z, 0, sizeof(z));
	z.key = SK_COMM;
	z.val = h.e[1];                 /* "cold" */
	report__hist_free(&h);
	v.zoom = &z;
	v.nzoom = 1;
	v.sort[1] = SK_PID;
	v.nsort = 2;
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.e[0].pid, 20);
	assert_int_equal(h.total, 250000);
	assert_int_equal(h.base, 3 * 250000);
	live__key_str(lv, &h.e[0], SK_COMM, name, sizeof(name));
	assert_string_equal(name, "cold");
	report__hist_free(&h);
	live__zoom_str(lv, &z, name, sizeof(name));
	assert_string_equal(name, "Command 'cold'");

	/* paused: a sample read is counted as paused, not added */
	struct pmclog_ev ev;
	struct live_stats st;
	memset(&ev, 0, sizeof(ev));
	ev.pl_state = PMCLOG_OK;
	ev.pl_type = PMCLOG_TYPE_CALLCHAIN;
	ev.pl_u.pl_cc.pl_pmcid = 0x100;
	ev.pl_u.pl_cc.pl_pid = ev.pl_u.pl_cc.pl_tid = 20;
	ev.pl_u.pl_cc.pl_npc = 1;
	ev.pl_u.pl_cc.pl_pc[0] = 0x401000;
	ev.pl_u.pl_cc.pl_pcflags[0] = PMC_CC_F_USERSPACE;
	ev.pl_u.pl_cc.pl_period = 250000;
	live__pause(lv, 1);
	live__feed(lv, &ev);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.total, 250000);
	report__hist_free(&h);
	live__stats(lv, &st);
	assert_int_equal(st.paused, 1);
	assert_int_equal(st.samples, 3);
	live__pause(lv, 0);
	live__feed(lv, &ev);
	assert_int_equal(live__hist(lv, &v, &h), 0);
	assert_int_equal(h.total, 2 * 250000);
	report__hist_free(&h);
	live__free(lv);
}

static int teardown(void **state)
{
	(void)state;
	lb_free(&lg);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_round_trip),
		cmocka_unit_test(test_stack_flags_each_position),
		cmocka_unit_test(test_hist_one_stack_contexts),
		cmocka_unit_test(test_report_memory_per_sample),
		cmocka_unit_test(test_leaf_only),
		cmocka_unit_test(test_group_walk),   /* after: its big log stays in the heap */
		cmocka_unit_test(test_fork_inherits_name_out_of_order),
		cmocka_unit_test(test_fork_then_exec),
		cmocka_unit_test(test_tree_task_roots_last_name),
		cmocka_unit_test(test_no_thread),
		cmocka_unit_test(test_system_mode_one_event),
		cmocka_unit_test(test_mapping_by_time),
		cmocka_unit_test(test_many_mappings),
		cmocka_unit_test(test_data_segments),
		cmocka_unit_test(test_remap_by_time),
		cmocka_unit_test(test_exec_name_from_comm),
		cmocka_unit_test(test_ties_by_key),
		cmocka_unit_test(test_graph_ties_by_name),
		cmocka_unit_test(test_input_order),
		cmocka_unit_test(test_sums),
		cmocka_unit_test(test_sums_other_threads),
		cmocka_unit_test(test_sums_late_sample),
		cmocka_unit_test(test_sums_time0),
		cmocka_unit_test(test_sums_wrap),
		cmocka_unit_test(test_sums_markers),
		cmocka_unit_test(test_sums_switch),
		cmocka_unit_test(test_live_rows),
		cmocka_unit_test(test_live_decay),
		cmocka_unit_test(test_live_zoom_pause),
	};
	return cmocka_run_group_tests(tests, NULL, teardown);
}
