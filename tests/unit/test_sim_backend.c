/*
 * test_sim_backend.c — the simulated machine through the backend boundary
 * (pmc_backend_sim), with exact answers from the workload descriptions:
 * counting totals (whole tree, per process, per thread), 32-bit counters
 * driven across 2^32 many times, floor(E/P) samples, an overflow raised
 * while the interrupt handler runs (neither lost nor doubled; and lost by a
 * handler that clears every flag), multiplexing (enabled/running, scaling),
 * the 70/20/10 profile with call chains, side-band records, per-process
 * counts from PERF_RECORD_READ, ring back-pressure with a concurrent
 * reader, PERF_RECORD_LOST, and errors.  Then issue 13's Linux rules, each
 * with an answer computed by hand in its comment: multiplexing rotation
 * across task switches, threads in parallel, frequency mode (start at 1,
 * the elapsed period in each sample, retuning at interrupts and ticks),
 * long periods on 32-bit counters, pinned events, what open refuses, and
 * the realism knobs: overflow pending at read / disable / switch-out
 * (interrupt latency), skid, throttling.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "backend/sim/sim.h"

static const struct pmc_backend_ops *o = &pmc_backend_sim;
static struct pmc_machine M;

static void boot(const char *cfg)
{
	sim__configure(cfg);
	assert_int_equal(o->init(&M), 0);
}

static void halt(void)
{
	o->fini();
	sim__configure(NULL);
}

/* A workload from text, through a temporary file. */
static pid_t spawn_text(const char *text)
{
	char path[] = "/tmp/pmc-test-sim-XXXXXX";
	int fd = mkstemp(path);
	char *av[2] = { path, NULL };
	pid_t pid = -1;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(o->spawn(av, &pid), 0);
	unlink(path);
	return pid;
}

static pid_t spawn_file(const char *path)
{
	char *av[2] = { (char *)path, NULL };
	pid_t pid = -1;

	assert_int_equal(o->spawn(av, &pid), 0);
	return pid;
}

static struct perf_event_attr hw(unsigned type, uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = 1;
	return a;
}

static struct pmc_bctr *open_task(struct perf_event_attr a, pid_t pid, unsigned flags)
{
	struct pmc_bctr *c = NULL;

	assert_int_equal(o->open(&a, pid, -1, NULL, flags, &c), 0);
	return c;
}

static int run(pid_t pid)
{
	int st = -1;

	assert_int_equal(o->spawn_go(pid), 0);
	assert_int_equal(o->spawn_wait(pid, &st, -1), 0);
	return st;
}

static struct pmc_bcount rd(struct pmc_bctr *c)
{
	struct pmc_bcount v;

	assert_int_equal(o->read(c, &v), 0);
	return v;
}

/* ---- ring reading (the kernel's layout, independent of lib/ring) ------- */

typedef void (*rec_fn)(void *arg, const struct perf_event_header *h);

static uint8_t recbuf[65536];

static int drain(struct perf_event_mmap_page *pg, rec_fn fn, void *arg)
{
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail, size = pg->data_size;
	const uint8_t *data = (const uint8_t *)pg + pg->data_offset;
	int n = 0;

	while (tail < head) {
		struct perf_event_header h;

		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(tail + i) & (size - 1)];
		if (h.size < sizeof(h) || tail + h.size > head)
			return -1;
		for (size_t i = 0; i < h.size; i++)
			recbuf[i] = data[(tail + i) & (size - 1)];
		fn(arg, (const struct perf_event_header *)recbuf);
		tail += h.size;
		n++;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

/* Samples with IDENTIFIER|IP|TID|TIME|CPU|PERIOD|CALLCHAIN. */
#define ST_PROF (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
		 PERF_SAMPLE_CALLCHAIN)

struct prof {
	const struct simwl *w;
	uint64_t samples, lost, lostrec, bytype[32];
	uint64_t byfunc[16];
	uint64_t period_sum;
	uint64_t chain_ok;
	uint64_t last_time;
	int time_monotonic;
	uint64_t comm_exec, mmap2, fork, exit, read;
	uint64_t read_by_pid[64];        /* index pid - 1000 */
	char comm_by_pid[64][16];
};

static void on_rec(void *arg, const struct perf_event_header *h)
{
	struct prof *p = arg;
	const uint64_t *u = (const uint64_t *)(h + 1);

	if (h->type < 32)
		p->bytype[h->type]++;
	switch (h->type) {
	case PERF_RECORD_SAMPLE: {
		uint64_t ip = u[1], t = u[3], nr = u[6];
		const uint64_t *ips = &u[7];
		int f = p->w ? simwl__func_at(p->w, ip) : -1;

		p->samples++;
		p->period_sum += u[5];
		if (t < p->last_time)
			p->time_monotonic = 0;
		p->last_time = t;
		if (f >= 0 && f < 16)
			p->byfunc[f]++;
		/* chain: PERF_CONTEXT_USER, ip, return addresses of the callers */
		if (nr >= 2 && ips[0] == PERF_CONTEXT_USER && ips[1] == ip)
			p->chain_ok++;
		break;
	}
	case PERF_RECORD_LOST:
		p->lostrec++;
		p->lost += u[1];
		break;
	case PERF_RECORD_COMM: {
		const uint32_t *pt = (const uint32_t *)u;

		if (h->misc & PERF_RECORD_MISC_COMM_EXEC)
			p->comm_exec++;
		if (pt[0] >= 1000 && pt[0] < 1064)
			snprintf(p->comm_by_pid[pt[0] - 1000], 16, "%s", (const char *)(pt + 2));
		break;
	}
	case PERF_RECORD_MMAP2:
		p->mmap2++;
		break;
	case PERF_RECORD_FORK:
		p->fork++;
		break;
	case PERF_RECORD_EXIT:
		p->exit++;
		break;
	case PERF_RECORD_READ: {
		const uint32_t *pt = (const uint32_t *)u;

		p->read++;
		if (pt[0] >= 1000 && pt[0] < 1064)
			p->read_by_pid[pt[0] - 1000] += u[1];
		break;
	}
	}
}

/* ---- counting -------------------------------------------------------------- */

static void test_stat_exact_totals(void **s)
{
	struct pmc_bctr *ins, *cyc;
	struct pmc_bcount v;

	(void)s;
	boot("cpus=2");
	assert_int_equal(M.cputype, PMC_CPU_ARMV8_CORTEX_A76);
	assert_int_equal(M.ncpu, 2);
	assert_int_equal(M.classes[0].pm_class, PMC_CLASS_ARMV8);
	assert_int_equal(M.classes[0].pm_num, 7);
	assert_int_equal(M.classes[0].pm_width, 32);
	assert_true(M.strict_rows[0]);
	{
		pid_t pid = spawn_file("examples/sim/hot70.wl");

		ins = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), pid,
				PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
		cyc = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), pid,
				PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
		v = rd(ins);
		assert_int_equal(v.value, 0);
		assert_int_equal(run(pid), 0);
	}
	v = rd(ins);
	assert_int_equal(v.value, 160014427);
	assert_int_equal(v.enabled, 100009108);
	assert_int_equal(v.running, 100009108);
	v = rd(cyc);
	assert_int_equal(v.value, 100009108);
	o->close(ins);
	o->close(cyc);
	halt();
}

static void test_stat_forktree_and_threads(void **s)
{
	struct pmc_bctr *ins, *cyc, *cs, *mig;
	pid_t pid;

	(void)s;
	boot("cpus=4");
	pid = spawn_file("examples/sim/forktree.wl");
	ins = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), pid,
			PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	cyc = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), pid,
			PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	assert_int_equal(run(pid), 0);
	assert_int_equal(rd(ins).value, 24500000);
	assert_int_equal(rd(cyc).value, 21500000);
	/* per process (the counter follows each task: 64-bit per-task counts) */
	{
		uint64_t v, by_comm[3] = { 0, 0, 0 };
		int nproc = 0;

		for (pid_t p = 1000; p < 1007; p++) {
			struct sim_task *t = sim__task(p);

			assert_non_null(t);
			assert_int_equal(sim__ev_task_count(cyc, p, &v), 0);
			nproc++;
			if (!strcmp(t->comm, "root"))
				assert_int_equal(v, 1500000), by_comm[0]++;
			else if (!strcmp(t->comm, "child"))
				assert_int_equal(v, 2000000), by_comm[1]++;
			else if (!strcmp(t->comm, "leaf"))
				assert_int_equal(v, 4000000), by_comm[2]++;
			else
				fail();
		}
		assert_int_equal(nproc, 7);
		assert_int_equal(by_comm[0], 1);
		assert_int_equal(by_comm[1], 2);
		assert_int_equal(by_comm[2], 4);
	}
	o->close(ins);
	o->close(cyc);
	halt();

	/* threads on 2 CPUs: context switches and migrations; exit status 3 */
	boot("cpus=2,slice=1ms");
	pid = spawn_file("examples/sim/threads.wl");
	ins = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), pid,
			PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	cyc = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), pid,
			PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	cs = open_task(hw(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES), pid,
		       PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	mig = open_task(hw(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS), pid,
			PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	{
		struct pmc_bctr *tc = open_task(hw(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK),
						pid, PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);

		assert_int_equal(run(pid), 3 << 8);
		assert_int_equal(rd(ins).value, 36010000);
		assert_int_equal(rd(cyc).value, 24010000);
		assert_int_equal(rd(tc).value, 24010000);     /* 1 GHz: ns == cycles */
		o->close(tc);
	}
	assert_true(rd(cs).value > 0);
	assert_true(rd(mig).value > 0);
	o->close(ins);
	o->close(cyc);
	o->close(cs);
	o->close(mig);
	halt();
}

/* ---- 64-bit extension of 32-bit counters --------------------------------------- */

static void test_wrap_2_32_many_times(void **s)
{
	struct pmc_bctr *c = NULL, *cyc;
	struct perf_event_attr a = hw(PERF_TYPE_RAW, 0x08);
	uint64_t total = 0, want = 5 * (1ull << 32) + 777, x = 12345;
	pid_t pid;

	(void)s;
	/* direct: events injected on CPU 0 in irregular chunks */
	boot("cpus=1");
	a.disabled = 0;
	assert_int_equal(o->open(&a, -1, 0, NULL, 0, &c), 0);
	while (total < want) {
		uint64_t n;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		n = (x >> 33) % (1ull << 31);
		if (n > want - total)
			n = want - total;
		sim__cpu_inject(0, 0x08, n, 0);
		total += n;
	}
	assert_int_equal(rd(c).value, want);
	assert_true(sim.cpus[0].irqs >= 10);         /* folded every 2^31 */
	o->close(c);
	halt();

	/* through the engine: 43 G instructions on 32-bit counters */
	boot("cpus=1");
	pid = spawn_text("process p entry=f\nfunction f\n"
			 "  work cycles=11G instructions=43000012345\n");
	c = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), pid,
		      PMC_BOPEN_ENABLE_EXEC);
	cyc = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), pid,
			PMC_BOPEN_ENABLE_EXEC);
	assert_int_equal(run(pid), 0);
	assert_int_equal(rd(c).value, 43000012345ull);
	assert_int_equal(rd(cyc).value, 11000000000ull);
	o->close(c);
	o->close(cyc);
	halt();

	/* FEAT_PMUv3p5 with LP: 64-bit counters, pm_width 64 */
	boot("cpus=1,p5=1");
	assert_int_equal(M.classes[0].pm_width, 64);
	a = hw(PERF_TYPE_RAW, 0x08);
	a.disabled = 0;
	assert_int_equal(o->open(&a, -1, 0, NULL, 0, &c), 0);
	sim__cpu_inject(0, 0x08, (1ull << 33) + 5, 0);
	assert_int_equal(rd(c).value, (1ull << 33) + 5);
	o->close(c);
	halt();
}

/* ---- sampling -------------------------------------------------------------------- */

static struct pmc_bctr *open_sampler(struct perf_event_attr a, pid_t pid, int cpu,
				     unsigned flags, uint64_t period, size_t pages,
				     struct perf_event_mmap_page **pg)
{
	struct pmc_bctr *c = NULL;

	a.sample_period = period;
	a.sample_type = ST_PROF;
	assert_int_equal(o->open(&a, pid, cpu, NULL, flags, &c), 0);
	assert_int_equal(o->ring_map(c, pages, pg), 0);
	return c;
}

static void test_floor_e_over_p(void **s)
{
	/* E events in a call tree (one thread); P; ring pages */
	static const struct { uint64_t e, p; size_t pages; } cases[] = {
		{ 100000, 1, 4096 }, { 100000, 7, 1024 }, { 10000000, 1000, 4096 },
		{ 10000000, 99991, 256 }, { 10000000, 4999999, 4 },
		{ 10000000, 10000000, 4 }, { 10000000, 10000001, 4 },
	};
	struct perf_event_mmap_page *pg;

	(void)s;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t e = cases[i].e, p3 = 3 * e / 10, p1 = e / 10;
		char text[512];
		struct prof p;
		struct pmc_bctr *c;
		pid_t pid;

		memset(&p, 0, sizeof(p));
		boot("cpus=2");
		snprintf(text, sizeof(text), "process p entry=f\nfunction f\n"
			 "  work cycles=%llu instructions=%llu\n  call g 7\n"
			 "function g\n  work cycles=%llu instructions=%llu\n",
			 (unsigned long long)p3, (unsigned long long)p3,
			 (unsigned long long)p1, (unsigned long long)p1);
		pid = spawn_text(text);
		c = open_sampler(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), pid, -1,
				 PMC_BOPEN_ENABLE_EXEC, cases[i].p, cases[i].pages, &pg);
		run(pid);
		drain(pg, on_rec, &p);
		assert_int_equal(p.lost, 0);
		assert_int_equal(p.samples, e / cases[i].p);
		assert_int_equal(p.period_sum, p.samples * cases[i].p);
		assert_int_equal(rd(c).value, e);
		o->ring_unmap(c);
		o->close(c);
		halt();
	}
}

/* An overflow raised while the handler runs. */
static int hook_fired, hook_calls;

static void hook_inject(struct sim_cpu *c, void *arg)
{
	hook_calls++;
	if (hook_fired++)
		return;
	/* counting goes on between the PMOVSCLR read and the PMU stop */
	pmuv3__count(&c->pmu, (unsigned)(uintptr_t)arg, 500, 0);
}

static void mid_handler(int naive, uint64_t *a_samples, uint64_t *b_samples,
			uint64_t *b_count)
{
	struct perf_event_mmap_page *pga, *pgb;
	struct pmc_bctr *A, *B;
	struct perf_event_attr at = hw(PERF_TYPE_RAW, 0x08), bt = hw(PERF_TYPE_RAW, 0x03);
	struct prof pa, pb;

	memset(&pa, 0, sizeof(pa));
	memset(&pb, 0, sizeof(pb));
	boot("cpus=1,counters=4");
	at.disabled = bt.disabled = 0;
	A = open_sampler(at, -1, 0, 0, 1000, 4, &pga);
	B = open_sampler(bt, -1, 0, 0, 500, 4, &pgb);
	hook_fired = hook_calls = 0;
	sim.cpus[0].irq_hook = hook_inject;
	sim.cpus[0].irq_hook_arg = (void *)(uintptr_t)0x03;
	sim.cpus[0].naive_clear_all = naive;
	sim__cpu_inject(0, 0x08, 1000, 0);    /* A overflows; B overflows in its handler */
	sim__cpu_inject(0, 0x03, 500, 0);     /* B's second period */
	drain(pga, on_rec, &pa);
	drain(pgb, on_rec, &pb);
	*a_samples = pa.samples;
	*b_samples = pb.samples;
	*b_count = rd(B).value;
	assert_int_equal(rd(A).value, 1000);
	o->close(A);
	o->close(B);
	halt();
}

static void test_overflow_during_handler(void **s)
{
	uint64_t as, bs, bc;

	(void)s;
	mid_handler(0, &as, &bs, &bc);
	assert_int_equal(hook_calls, 3);      /* A; B raised in A's handler; B again */
	assert_int_equal(as, 1);
	assert_int_equal(bs, 2);              /* floor(1000 / 500): neither lost nor doubled */
	assert_int_equal(bc, 1000);
	/* a handler that clears every flag when done loses B's overflow */
	mid_handler(1, &as, &bs, &bc);
	assert_int_equal(as, 1);
	assert_true(bs < 2);
}

static void test_profile_70_20_10(void **s)
{
	/* a prime period, and the round ones -F 1000/4000/10000 would give */
	static const uint64_t periods[] = { 100003, 1000000, 250000, 100000 };
	struct simwl *w;
	int hot, warm, cold;

	(void)s;
	assert_int_equal(simwl__load("examples/sim/hot70.wl", &w), 0);
	hot = simwl__find_func(w, "hot");
	warm = simwl__find_func(w, "warm");
	cold = simwl__find_func(w, "cold");
	for (size_t i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		struct perf_event_mmap_page *pg;
		struct pmc_bctr *c;
		struct prof p;
		pid_t pid;
		struct perf_event_attr a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

		memset(&p, 0, sizeof(p));
		p.w = w;
		p.time_monotonic = 1;
		boot("cpus=4");
		pid = spawn_file("examples/sim/hot70.wl");
		a.comm = a.mmap = a.mmap2 = a.task = a.sample_id_all = 1;
		c = open_sampler(a, pid, -1, PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC,
				 periods[i], 64, &pg);
		assert_int_equal(run(pid), 0);
		drain(pg, on_rec, &p);
		assert_int_equal(p.lost, 0);
		assert_int_equal(p.samples, 100009108 / periods[i]);
		assert_int_equal(p.chain_ok, p.samples);
		assert_true(p.time_monotonic);
		/* within 1 point of 70 / 20 / 10 */
		assert_true(p.byfunc[hot] * 100 >= 69 * p.samples &&
			    p.byfunc[hot] * 100 <= 71 * p.samples);
		assert_true(p.byfunc[warm] * 100 >= 19 * p.samples &&
			    p.byfunc[warm] * 100 <= 21 * p.samples);
		assert_true(p.byfunc[cold] * 100 >= 9 * p.samples &&
			    p.byfunc[cold] * 100 <= 11 * p.samples);
		assert_int_equal(p.comm_exec, 1);
		assert_int_equal(p.mmap2, 1);
		assert_int_equal(p.exit, 1);
		o->ring_unmap(c);
		o->close(c);
		halt();
	}
	simwl__free(w);
}

static void test_callchain_shape(void **s)
{
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c;
	struct perf_event_attr a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	const struct perf_event_header *h;
	const uint64_t *u;
	uint64_t head;
	pid_t pid;

	(void)s;
	boot("cpus=1");
	pid = spawn_text("process p entry=main\n"
			 "function main\n  work cycles=10\n  call mid\n"
			 "function mid\n  work cycles=10\n  call leaf\n"
			 "function leaf\n  work cycles=1000\n  work cycles=1000 kernel\n");
	c = open_sampler(a, pid, -1, PMC_BOPEN_ENABLE_EXEC, 1010, 4, &pg);
	run(pid);
	head = pg->data_head;
	assert_true(head > 0);
	/* first sample: at cycle 1010, in leaf's first (user) work block */
	h = (const void *)((uint8_t *)pg + pg->data_offset);
	assert_int_equal(h->type, PERF_RECORD_SAMPLE);
	assert_int_equal(h->misc, PERF_RECORD_MISC_USER);
	u = (const uint64_t *)(h + 1);
	assert_int_equal(u[0], o->id(c, &head) == 0 ? head : 0);     /* identifier */
	assert_int_equal(u[3], 1010);                                 /* time */
	assert_int_equal(u[5], 1010);                                 /* period */
	assert_int_equal(u[6], 4);                                    /* nr */
	assert_int_equal(u[7], PERF_CONTEXT_USER);
	assert_int_equal(u[8], u[1]);
	assert_int_equal(u[1] & ~0xfffull, SIMWL_FUNC_BASE + 2 * SIMWL_FUNC_SIZE); /* leaf */
	assert_int_equal(u[9], SIMWL_FUNC_BASE + 1 * SIMWL_FUNC_SIZE + 0x10 + 0x40 + 4); /* mid */
	assert_int_equal(u[10], SIMWL_FUNC_BASE + 0x10 + 0x40 + 4);   /* main */
	/* second sample: at 2020, in the kernel block: kernel context first */
	h = (const void *)((const uint8_t *)h + h->size);
	assert_int_equal(h->type, PERF_RECORD_SAMPLE);
	assert_int_equal(h->misc, PERF_RECORD_MISC_KERNEL);
	u = (const uint64_t *)(h + 1);
	assert_int_equal(u[1], SIMWL_KERNEL_IP);
	assert_int_equal(u[6], 6);
	assert_int_equal(u[7], PERF_CONTEXT_KERNEL);
	assert_int_equal(u[8], SIMWL_KERNEL_IP);
	assert_int_equal(u[9], PERF_CONTEXT_USER);
	assert_int_equal(u[10], SIMWL_FUNC_BASE + 2 * SIMWL_FUNC_SIZE + 0x10 + 0x40);
	o->ring_unmap(c);
	o->close(c);
	halt();
}

/* ---- per-process counts through PERF_RECORD_READ (inherit_stat) ---------------- */

static void test_per_process_read_records(void **s)
{
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c = NULL;
	struct perf_event_attr a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	struct prof p;
	pid_t pid;
	uint64_t sum = 0;

	(void)s;
	memset(&p, 0, sizeof(p));
	boot("cpus=4");
	pid = spawn_file("examples/sim/forktree.wl");
	a.inherit_stat = 1;
	a.comm = a.task = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			PERF_FORMAT_ID;
	assert_int_equal(o->open(&a, pid, -1, NULL, PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC,
				 &c), 0);
	assert_int_equal(o->ring_map(c, 16, &pg), 0);
	run(pid);
	drain(pg, on_rec, &p);
	assert_int_equal(p.read, 7);
	assert_int_equal(p.fork, 6);
	assert_int_equal(p.exit, 7);
	assert_int_equal(p.comm_exec, 7);
	for (int i = 0; i < 7; i++) {
		const char *comm = p.comm_by_pid[i];

		sum += p.read_by_pid[i];
		if (!strcmp(comm, "root"))
			assert_int_equal(p.read_by_pid[i], 2500000);
		else if (!strcmp(comm, "child"))
			assert_int_equal(p.read_by_pid[i], 3000000);
		else if (!strcmp(comm, "leaf"))
			assert_int_equal(p.read_by_pid[i], 4000000);
		else
			fail_msg("pid %d has comm '%s'", 1000 + i, comm);
	}
	assert_int_equal(sum, 24500000);
	assert_int_equal(rd(c).value, 24500000);
	o->ring_unmap(c);
	o->close(c);
	halt();
}

/* ---- multiplexing ---------------------------------------------------------------- */

static void test_multiplexing(void **s)
{
	struct pmc_bctr *c[6];
	pid_t pid;
	int scaled = 0;

	(void)s;
	boot("cpus=1,counters=2,slice=1ms");
	pid = spawn_text("process p entry=f\nfunction f\n"
			 "  work cycles=100M instructions=300M branches=50M\n");
	c[0] = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), pid, PMC_BOPEN_ENABLE_EXEC);
	for (int i = 1; i < 5; i++)
		c[i] = open_task(hw(PERF_TYPE_RAW, 0x08), pid, PMC_BOPEN_ENABLE_EXEC);
	c[5] = open_task(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS), pid,
			 PMC_BOPEN_ENABLE_EXEC);
	run(pid);
	for (int i = 0; i < 6; i++) {
		struct pmc_bcount v = rd(c[i]);
		uint64_t truth = i == 0 ? 100000000 : i == 5 ? 50000000 : 300000000;
		double est;

		assert_int_equal(v.enabled, 100000000);
		assert_true(v.running > 0 && v.running <= v.enabled);
		if (v.running < v.enabled)
			scaled++;
		est = (double)v.value * (double)v.enabled / (double)v.running;
		assert_true(est > truth * 0.99 && est < truth * 1.01);
		/* a uniform workload: the raw count is exactly proportional */
		assert_true(v.value <= truth);
	}
	assert_true(scaled >= 4);
	for (int i = 0; i < 6; i++)
		o->close(c[i]);
	halt();
}

static void test_group_all_or_nothing(void **s)
{
	struct pmc_bctr *ld = NULL, *m = NULL, *other[3];
	struct perf_event_attr a = hw(PERF_TYPE_RAW, 0x08), b = hw(PERF_TYPE_RAW, 0x21);
	struct pmc_bcount vl, vm;
	pid_t pid;

	(void)s;
	boot("cpus=1,counters=2,slice=1ms");
	pid = spawn_text("process p entry=f\nfunction f\n"
			 "  work cycles=40M instructions=80M branches=10M\n");
	assert_int_equal(o->open(&a, pid, -1, NULL, PMC_BOPEN_ENABLE_EXEC, &ld), 0);
	b.disabled = 0;
	assert_int_equal(o->open(&b, pid, -1, ld, PMC_BOPEN_ENABLE_EXEC, &m), 0);
	for (int i = 0; i < 3; i++)
		other[i] = open_task(hw(PERF_TYPE_RAW, 0x04), pid, PMC_BOPEN_ENABLE_EXEC);
	run(pid);
	vl = rd(ld);
	vm = rd(m);
	/* scheduled together: same running time, exact ratio 8:1 */
	assert_int_equal(vl.running, vm.running);
	assert_true(vl.running < vl.enabled);
	assert_int_equal(vl.value, 8 * vm.value);
	o->close(m);
	o->close(ld);
	for (int i = 0; i < 3; i++)
		o->close(other[i]);
	halt();
}

/* ---- rings: back-pressure with a concurrent reader; LOST ---------------------- */

struct reader {
	struct pmc_bctr *c;
	struct perf_event_mmap_page *pg;
	struct prof p;
	int stop;
	int waits;
	int started;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	/* known as the ring's reader (ring_wait) before the workload starts:
	 * a ring merely mapped has a short grace period, which a thread slow
	 * to start on a loaded machine outlived (its records were then lost) */
	o->ring_wait(&r->c, 1, 0);
	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		int n = o->ring_wait(&r->c, 1, 100);

		if (n > 0)
			r->waits++;
		drain(r->pg, on_rec, &r->p);
	}
	drain(r->pg, on_rec, &r->p);
	return NULL;
}

static void test_reader_thread_no_loss(void **s)
{
	struct reader r;
	pthread_t th;
	pid_t pid;
	int st;

	(void)s;
	memset(&r, 0, sizeof(r));
	boot("cpus=2");
	pid = spawn_file("examples/sim/hot70.wl");
	/* a small ring (8 KiB): 100,000 samples need many wake-ups */
	r.c = open_sampler(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), pid, -1,
			   PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC, 1000, 2, &r.pg);
	assert_int_equal(pthread_create(&th, NULL, reader_main, &r), 0);
	while (!__atomic_load_n(&r.started, __ATOMIC_ACQUIRE))
		sched_yield();
	assert_int_equal(o->spawn_go(pid), 0);
	assert_int_equal(o->spawn_wait(pid, &st, -1), 0);
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	assert_int_equal(r.p.lost, 0);
	assert_int_equal(r.p.samples, 100009108 / 1000);
	assert_true(r.waits > 10);
	o->ring_unmap(r.c);
	o->close(r.c);
	halt();
}

static void test_lost_records(void **s)
{
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c;
	struct perf_event_attr a = hw(PERF_TYPE_RAW, 0x08);
	struct prof p;
	uint64_t first;

	(void)s;
	memset(&p, 0, sizeof(p));
	boot("cpus=1");
	a.disabled = 0;
	c = open_sampler(a, -1, 0, 0, 100, 1, &pg);
	/* 1000 samples into a 4 KiB ring nobody reads */
	sim__cpu_inject(0, 0x08, 100000, 0);
	drain(pg, on_rec, &p);
	first = p.samples;
	assert_true(first > 0 && first < 1000);
	assert_int_equal(p.lostrec, 0);
	assert_int_equal(c->lost, 1000 - first);
	/* room again: the next record is preceded by PERF_RECORD_LOST */
	sim__cpu_inject(0, 0x08, 100, 0);
	{
		const struct perf_event_header *h =
			(const void *)((const uint8_t *)pg + pg->data_offset +
				       (pg->data_tail & (pg->data_size - 1)));

		assert_int_equal(h->type, PERF_RECORD_LOST);
	}
	drain(pg, on_rec, &p);
	assert_int_equal(p.lostrec, 1);
	assert_int_equal(p.lost, 1000 - first);
	assert_int_equal(p.samples, first + 1);
	assert_int_equal(rd(c).value, 100100);
	o->ring_unmap(c);
	o->close(c);
	halt();
}

/* ---- errors and machine description ----------------------------------------------- */

static void test_errors(void **s)
{
	struct pmc_bctr *c = NULL;
	struct perf_event_attr a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES);
	char *bad[] = { "/nonexistent/x.wl", NULL };
	pid_t pid;
	int st;

	(void)s;
	boot("cpus=2");
	assert_int_equal(o->cpu_check(1), 0);
	assert_int_equal(o->cpu_check(2), -ENXIO);
	assert_int_equal(o->target_check(4242), -ESRCH);
	assert_int_equal(o->spawn(bad, &pid), -ENOENT);
	pid = spawn_file("examples/sim/hot70.wl");
	assert_int_equal(o->target_check(pid), 0);
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c), -EOPNOTSUPP);
	a = hw(PERF_TYPE_TRACEPOINT, 1);
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c), -ENOENT);
	a = hw(PERF_TYPE_RAW, 0x10000);
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c), -EINVAL);
	a = hw(PERF_TYPE_RAW, 0x11);
	assert_int_equal(o->open(&a, 4242, -1, NULL, 0, &c), -ESRCH);
	assert_int_equal(o->open(&a, -1, 5, NULL, 0, &c), -ENXIO);
	assert_int_equal(o->open(&a, -1, -1, NULL, 0, &c), -EINVAL);
	/* pid 0 is the caller: it exists but is not simulated, so it counts 0 */
	assert_int_equal(o->open(&a, 0, -1, NULL, 0, &c), 0);
	assert_int_equal(rd(c).value, 0);
	o->close(c);
	a.sample_type = PERF_SAMPLE_REGS_USER;
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c), -EINVAL);
	assert_int_equal(o->spawn_wait(pid, &st, 0), -EAGAIN);   /* never started */
	assert_int_equal(o->spawn_go(pid), 0);
	assert_int_equal(o->spawn_go(pid), -EBUSY);
	assert_int_equal(o->spawn_wait(pid, &st, 1), -EAGAIN);   /* 1 ms: still running */
	assert_int_equal(o->spawn_wait(pid, &st, -1), 0);
	assert_int_equal(o->spawn_wait(pid, &st, -1), -ECHILD);
	assert_int_equal(o->target_check(pid), -ESRCH);
	assert_true(o->now() >= 100009108 / 2);
	halt();
	/* bad machine settings */
	sim__configure("cpus=0");
	assert_int_equal(o->init(&M), -EINVAL);
	sim__configure(NULL);
}

/* ==== issue 13: the simulator behaves like the hardware and like Linux ==== */

/* Item 1: two threads share one CPU; each task context rotates at every
 * tick, even when the tick is also a switch.  cpus=1, one event counter,
 * two INST_RETIRED events (inherited), 1 ms slices: the threads alternate
 * 1 ms slices and each thread's context alternates the two events, so each
 * counts 4 of its 8 slices: 8M of 16M instructions, running 8 ms of 16. */
static void test_mux_rotates_across_switches(void **s)
{
	struct pmc_bctr *a, *b;
	struct pmc_bcount va, vb;
	pid_t pid;

	(void)s;
	boot("cpus=1,counters=1,slice=1ms");
	pid = spawn_text("process p entry=main\nfunction main\n  thread w\n  call w\n"
			 "function w\n  work cycles=8M instructions=8M\n");
	a = open_task(hw(PERF_TYPE_RAW, 0x08), pid, PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	b = open_task(hw(PERF_TYPE_RAW, 0x08), pid, PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	assert_int_equal(run(pid), 0);
	va = rd(a);
	vb = rd(b);
	assert_int_equal(va.enabled, 16000000);
	assert_int_equal(vb.enabled, 16000000);
	assert_int_equal(va.running, 8000000);
	assert_int_equal(vb.running, 8000000);
	assert_int_equal(va.value, 8000000);
	assert_int_equal(vb.value, 8000000);
	o->close(a);
	o->close(b);
	halt();
}

/* Item 1, the CPU context: Linux's mux timer keeps rotating a CPU's
 * context while it idles.  cpus=2, counters=1, two CPU-wide INST_RETIRED
 * events on CPU 1.  A thread runs 12 ms there (1 instruction per cycle)
 * while main runs 40 ms on CPU 0; CPU 1 then idles.  4 ms ticks rotate the
 * two events: A [0,4) B [4,8) A [8,12) while busy, then B [12,16) A [16,20)
 * ... B [36,40) while idle: 20 ms running each of 40 enabled; A counted
 * 8M, B 4M (before: B stayed on from 12 ms, running 32 ms). */
static void test_mux_rotates_while_idle(void **s)
{
	struct pmc_bctr *a = NULL, *b = NULL;
	struct perf_event_attr at = hw(PERF_TYPE_RAW, 0x08);
	struct pmc_bcount va, vb;
	pid_t pid;

	(void)s;
	boot("cpus=2,counters=1");
	pid = spawn_text("process p entry=main\nfunction main\n  thread w\n  call v\n"
			 "function w\n  work cycles=12M instructions=12M\n"
			 "function v\n  work cycles=40M\n");
	at.disabled = 0;
	assert_int_equal(o->open(&at, -1, 1, NULL, 0, &a), 0);
	assert_int_equal(o->open(&at, -1, 1, NULL, 0, &b), 0);
	assert_int_equal(run(pid), 0);
	assert_int_equal(o->now(), 40000000);
	va = rd(a);
	vb = rd(b);
	assert_int_equal(va.enabled, 40000000);
	assert_int_equal(vb.enabled, 40000000);
	assert_int_equal(va.running, 20000000);
	assert_int_equal(vb.running, 20000000);
	assert_int_equal(va.value, 8000000);
	assert_int_equal(vb.value, 4000000);
	o->close(a);
	o->close(b);
	halt();
}

/* Item 2: a thread that becomes runnable goes to an idle CPU at once; a
 * busy CPU's tick does not take it back.  Two 100 ms threads on 4 CPUs
 * run in parallel: done at 100 ms, no context switch, no migration, CPU 0
 * and CPU 1 each count 100M cycles, CPUs 2 and 3 none. */
static void test_threads_run_in_parallel(void **s)
{
	struct pmc_bctr *cs, *mig, *percpu[4];
	pid_t pid;
	int st;

	(void)s;
	boot("cpus=4");
	pid = spawn_text("process p entry=main\nfunction main\n  thread w\n  call w\n"
			 "function w\n  work cycles=100M\n");
	cs = open_task(hw(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES), pid,
		       PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	mig = open_task(hw(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS), pid,
			PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC);
	for (int i = 0; i < 4; i++) {
		struct perf_event_attr a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

		a.disabled = 0;
		assert_int_equal(o->open(&a, -1, i, NULL, 0, &percpu[i]), 0);
	}
	assert_int_equal(o->spawn_go(pid), 0);
	assert_int_equal(o->spawn_wait(pid, &st, -1), 0);
	assert_int_equal(o->now(), 100000000);
	assert_int_equal(rd(cs).value, 0);
	assert_int_equal(rd(mig).value, 0);
	assert_int_equal(rd(percpu[0]).value, 100000000);
	assert_int_equal(rd(percpu[1]).value, 100000000);
	assert_int_equal(rd(percpu[2]).value, 0);
	assert_int_equal(rd(percpu[3]).value, 0);
	for (int i = 0; i < 4; i++)
		o->close(percpu[i]);
	o->close(cs);
	o->close(mig);
	halt();
}

/* Samples of a frequency-mode sampler: time and period of the first n. */
struct fsamp {
	int n;
	uint64_t t[4096], p[4096], v[4096];
};

static void on_fsamp(void *arg, const struct perf_event_header *h)
{
	struct fsamp *f = arg;
	const uint64_t *u = (const uint64_t *)(h + 1);

	if (h->type != PERF_RECORD_SAMPLE || f->n >= 4096)
		return;
	/* TIME, PERIOD, READ (value) */
	f->t[f->n] = u[0];
	f->p[f->n] = u[1];
	f->v[f->n] = u[2];
	f->n++;
}

static struct pmc_bctr *open_freq(struct perf_event_attr a, pid_t pid, uint64_t freq,
				  struct perf_event_mmap_page **pg)
{
	struct pmc_bctr *c = NULL;

	a.freq = 1;
	a.sample_freq = freq;
	a.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	assert_int_equal(o->open(&a, pid, -1, NULL, PMC_BOPEN_ENABLE_EXEC, &c), 0);
	assert_int_equal(o->ring_map(c, 256, pg), 0);
	return c;
}

/* Items 3 and 4, hand-computed (1 GHz, the handler takes irq_cost = 1 us):
 * frequency mode starts at period 1 (perf_event_alloc).  Sample 1 at t=1
 * (no retune: no previous interrupt).  Sample 2 at 1+1000+1 = 1002:
 * perf_adjust_period(dt=1001 ns, count=1): target 10^9/(1001*1000) = 999,
 * period 1 + (998+7)/8 = 126 (the counter already holds the next period, 1).
 * Sample 3 at 2003, period 1; the counter is loaded with 126.  Sample 4 at
 * 3003+126 = 3129 with period 126: each sample's period is the events it
 * stands for, the period that elapsed (not the one loaded after it). */
static void test_freq_first_samples(void **s)
{
	static struct fsamp f;
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c;
	pid_t pid;

	(void)s;
	memset(&f, 0, sizeof(f));
	boot("cpus=1");          /* default irq_cost: 1 us */
	pid = spawn_text("process p entry=f\nfunction f\n  work cycles=20M\n");
	c = open_freq(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), pid, 1000, &pg);
	assert_int_equal(run(pid), 0);
	drain(pg, on_fsamp, &f);
	assert_true(f.n >= 4);
	assert_int_equal(f.t[0], 1);
	assert_int_equal(f.p[0], 1);
	assert_int_equal(f.t[1], 1002);
	assert_int_equal(f.p[1], 1);
	assert_int_equal(f.t[2], 2003);
	assert_int_equal(f.p[2], 1);
	assert_int_equal(f.t[3], 3129);
	assert_int_equal(f.p[3], 126);
	o->ring_unmap(c);
	o->close(c);
	halt();
}

/* Item 3 over whole runs: a sample's period is the events counted since
 * the previous sample (PERF_SAMPLE_READ's value; exact up to the events of
 * one cycle), so the periods add up to the count at the last sample — hwc->last_period before the
 * reload, as arm_pmuv3.c — also when the rate changes 30-fold (-F 1000
 * and -F 4000 on instructions: 1M in the first 10 ms, 30M in the next). */
static void test_freq_period_is_elapsed(void **s)
{
	static struct fsamp f;
	static const uint64_t freqs[] = { 1000, 4000 };

	(void)s;
	for (int k = 0; k < 2; k++) {
		struct perf_event_mmap_page *pg;
		struct pmc_bctr *c;
		pid_t pid;
		uint64_t sum;

		memset(&f, 0, sizeof(f));
		boot("cpus=1");
		pid = spawn_text("process p entry=f\nfunction f\n"
				 "  work cycles=10M instructions=1M\n"
				 "  work cycles=10M instructions=30M\n");
		c = open_freq(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS), pid,
			      freqs[k], &pg);
		assert_int_equal(run(pid), 0);
		drain(pg, on_fsamp, &f);
		assert_true(f.n > 3);
		sum = f.p[0];
		assert_int_equal(f.p[0], f.v[0]);
		for (int i = 1; i < f.n; i++) {
			int64_t d = (int64_t)(f.v[i] - f.v[i - 1]) - (int64_t)f.p[i];

			/* up to 3 instructions retire per cycle: the counter may
			 * overshoot by 2 within the cycle it overflows in, and the
			 * next period is shortened by as much (left += period) */
			assert_true(d > -3 && d < 3);
			sum += f.p[i];
		}
		assert_true(sum + 3 > f.v[f.n - 1] && sum < f.v[f.n - 1] + 3);
		assert_true(sum <= 31000000);
		o->ring_unmap(c);
		o->close(c);
		halt();
	}
}

/* Item 4: a low-rate event.  50 branch misses in 50 ms (one per ms of
 * cycles), -F 100: starting at hz/freq = 10^7 nothing would ever be
 * sampled; starting at 1, the first three misses are sampled with period
 * 1 — at 1 ms, and (each handler taking 1 us) 2 ms + 1 us, 3 ms + 2 us —
 * and the counter is then loaded with the retuned period.  The tick at
 * 4 ms retunes it too (perf_adjust_freq_unthr_context): 3 events in the
 * 4 ms tick. */
static void test_freq_low_rate(void **s)
{
	static struct fsamp f;
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c;
	pid_t pid;
	uint64_t sum = 0;

	(void)s;
	memset(&f, 0, sizeof(f));
	boot("cpus=1");          /* default slice 4 ms, irq_cost 1 us */
	pid = spawn_text("process p entry=f\nfunction f\n  work cycles=50M branch-misses=50\n");
	c = open_freq(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES), pid, 100, &pg);
	assert_int_equal(run(pid), 0);
	drain(pg, on_fsamp, &f);
	assert_true(f.n >= 5);
	assert_int_equal(f.t[0], 1000000);
	assert_int_equal(f.p[0], 1);
	assert_int_equal(f.t[1], 2001000);
	assert_int_equal(f.p[1], 1);
	assert_int_equal(f.t[2], 3002000);
	assert_int_equal(f.p[2], 1);
	/* sample 2 retuned to 1 + (9-1+7)/8 = 2 (10^9/(1.001 ms * 100) = 9),
	 * sample 3 loaded 2 and retuned to 2 + (19-2+7)/8 = 5; the 4 ms tick saw
	 * 3 events: target 3*10^9/(4 ms * 100) = 7, period 5 + (7-5+7)/8 = 6.
	 * Sample 4 comes 2 misses later (5 ms + 3 us) and loads 6, so sample 5
	 * is at miss 11 (11 ms + 4 us) with period 6 — 5 without the tick. */
	assert_int_equal(f.t[3], 5003000);
	assert_int_equal(f.p[3], 2);
	assert_int_equal(f.t[4], 11004000);
	assert_int_equal(f.p[4], 6);
	for (int i = 0; i < f.n; i++)
		sum += f.p[i];
	assert_true(sum <= 50);
	assert_int_equal(sum, f.v[f.n - 1]);
	assert_int_equal(rd(c).value, 50);
	o->ring_unmap(c);
	o->close(c);
	halt();
}

/* Item 5: the period is not cut to 2^31-1 on 32-bit counters: -c 3e9 over
 * 10^10 cycles gives 3 samples of 3e9 (each after two overflows: the
 * counter is loaded with at most 2^31-1). */
static void test_long_period_on_32bit(void **s)
{
	static struct fsamp f;
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c = NULL;
	struct perf_event_attr a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	pid_t pid;

	(void)s;
	memset(&f, 0, sizeof(f));
	boot("cpus=1,slice=1s");
	pid = spawn_text("process p entry=f\nfunction f\n  work cycles=10G\n");
	a.sample_period = 3000000000ull;
	a.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	assert_int_equal(o->open(&a, pid, -1, NULL, PMC_BOPEN_ENABLE_EXEC, &c), 0);
	assert_int_equal(o->ring_map(c, 4, &pg), 0);
	assert_int_equal(run(pid), 0);
	drain(pg, on_fsamp, &f);
	assert_int_equal(f.n, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(f.p[i], 3000000000ull);
		assert_int_equal(f.v[i], 3000000000ull * (uint64_t)(i + 1));
	}
	assert_int_equal(rd(c).value, 10000000000ull);
	o->ring_unmap(c);
	o->close(c);
	halt();
}

/* Item 9: a pinned event is always on the PMU (100 %); the flexible ones
 * share what is left.  2 counters, one pinned + two flexible, 1 ms slices,
 * 40 ms: pinned running = enabled = 40 ms, the flexible ones 20 ms each.
 * A pinned group that can never fit goes to the ERROR state. */
static void test_pinned(void **s)
{
	struct pmc_bctr *p, *f1, *f2, *p2;
	struct perf_event_attr a = hw(PERF_TYPE_RAW, 0x08);
	struct pmc_bcount v;
	pid_t pid;

	(void)s;
	boot("cpus=1,counters=2,slice=1ms");
	pid = spawn_text("process p entry=f\nfunction f\n  work cycles=40M instructions=40M "
			 "branches=4M\n");
	f1 = open_task(hw(PERF_TYPE_RAW, 0x08), pid, PMC_BOPEN_ENABLE_EXEC);
	a.pinned = 1;
	p = open_task(a, pid, PMC_BOPEN_ENABLE_EXEC);
	f2 = open_task(hw(PERF_TYPE_RAW, 0x21), pid, PMC_BOPEN_ENABLE_EXEC);
	assert_int_equal(run(pid), 0);
	v = rd(p);
	assert_int_equal(v.enabled, 40000000);
	assert_int_equal(v.running, 40000000);
	assert_int_equal(v.value, 40000000);
	v = rd(f1);
	assert_int_equal(v.running, 20000000);
	assert_int_equal(v.value, 20000000);
	v = rd(f2);
	assert_int_equal(v.running, 20000000);
	assert_int_equal(v.value, 2000000);
	o->close(p);
	o->close(f1);
	o->close(f2);
	halt();

	/* one counter, two pinned: the second is in ERROR, counts nothing */
	boot("cpus=1,counters=1,slice=1ms");
	pid = spawn_text("process p entry=f\nfunction f\n  work cycles=4M instructions=4M\n");
	p = open_task(a, pid, PMC_BOPEN_ENABLE_EXEC);
	p2 = open_task(a, pid, PMC_BOPEN_ENABLE_EXEC);
	assert_int_equal(run(pid), 0);
	assert_int_equal(rd(p).running, 4000000);
	v = rd(p2);
	assert_int_equal(v.value, 0);
	assert_int_equal(v.running, 0);
	assert_int_equal(v.enabled, 0);          /* ERROR: time stands still */
	o->close(p);
	o->close(p2);
	halt();
}

/* Items 10, 11, 12: what the arm64 driver refuses at open. */
static void test_open_refusals(void **s)
{
	struct pmc_bctr *c = NULL, *ld = NULL, *m = NULL;
	struct perf_event_attr a;
	pid_t pid;

	(void)s;
	/* 10: validate_group — with no event counters only CPU_CYCLES fits */
	boot("cpus=1,counters=0");
	pid = spawn_file("examples/sim/hot70.wl");
	a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c), -EINVAL);
	a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c), 0);
	o->close(c);
	halt();
	/* a group larger than the PMU: two event counters, three members */
	boot("cpus=1,counters=2");
	pid = spawn_file("examples/sim/hot70.wl");
	a = hw(PERF_TYPE_RAW, 0x08);
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &ld), 0);
	assert_int_equal(o->open(&a, pid, -1, ld, 0, &m), 0);
	assert_int_equal(o->open(&a, pid, -1, ld, 0, &c), -EINVAL);
	/* ... but cycles still fits: it has the cycle counter */
	a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(o->open(&a, pid, -1, ld, 0, &c), 0);
	o->close(c);
	o->close(m);
	o->close(ld);
	/* 11: CHAIN cannot be opened on its own */
	a = hw(PERF_TYPE_RAW, 0x1e);
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c), -EINVAL);
	/* 12: exclude_idle (:I) */
	a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	a.exclude_idle = 1;
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c), -EPERM);
	/* software events may exclude idle */
	a = hw(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	a.exclude_idle = 1;
	assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c), 0);
	o->close(c);
	halt();
	/* 13: icntr needs p9 */
	sim__configure("icntr=1");
	assert_int_equal(o->init(&M), -EINVAL);
	sim__configure(NULL);
}


/* ---- realism: interrupt latency, skid, throttling (off by default) ---- */

/*
 * irq_latency=500: the handler runs 500 cycles after the overflow and the
 * counter keeps counting meanwhile.  Period 10000 over 100000 instructions
 * (1 per cycle): overflows at 10000, 20000, ... 100000, handled at +500
 * (the reload is shortened by the 500 already counted, so overflows stay
 * on multiples of 10000).  The last overflow, at the very end, is still
 * pending when the task exits: lost, as in Linux.
 *
 * At read: a read while the first is pending folds the count exactly
 * (10500) and the handler still samples it: 9 samples of period 10000,
 * taken at 10500, 20500, ... 90500.
 * At disable (and enable again): the driver stops the counter, folds 10500
 * and clears the flag; re-enabled, armpmu_start reloads the 9500 left of
 * the next period without a sample: overflows 2..9 are sampled, 8 samples.
 */
static void pending_case(int disable)
{
	static struct fsamp f;
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c = NULL;
	struct perf_event_attr a = hw(PERF_TYPE_RAW, 0x08);
	int st, n = disable ? 8 : 9, first = disable ? 2 : 1;
	pid_t pid;

	memset(&f, 0, sizeof(f));
	boot("cpus=1,irq_latency=500,irq_cost=0");
	pid = spawn_text("process p entry=f\nfunction f\n  work cycles=100000 instructions=100000\n");
	a.sample_period = 10000;
	a.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	assert_int_equal(o->open(&a, pid, -1, NULL, PMC_BOPEN_ENABLE_EXEC, &c), 0);
	assert_int_equal(o->ring_map(c, 16, &pg), 0);
	assert_int_equal(o->spawn_go(pid), 0);
	for (int i = 0; i < 1000000 && sim.cpus[0].irq_at == UINT64_MAX; i++)
		assert_int_equal(sim__step(), 0);
	assert_true(sim.cpus[0].irq_at != UINT64_MAX);   /* the overflow is pending */
	assert_int_equal(rd(c).value, 10000);
	assert_int_equal(sim__step(), 0);                /* runs to the handler's time */
	if (disable) {
		assert_int_equal(o->disable(c), 0);
		assert_false(pmuv3__irq_line(&sim.cpus[0].pmu));   /* flag cleared */
		assert_int_equal(rd(c).value, 10500);
		assert_int_equal(o->enable(c), 0);
	} else {
		assert_true(sim.cpus[0].irq_at != UINT64_MAX);  /* still pending */
		assert_int_equal(rd(c).value, 10500);           /* folded, not doubled */
	}
	assert_int_equal(o->spawn_wait(pid, &st, -1), 0);
	drain(pg, on_fsamp, &f);
	assert_int_equal(f.n, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(f.p[i], 10000);
		assert_int_equal(f.t[i], 10000 * (uint64_t)(i + first) + 500);
		assert_int_equal(f.v[i], 10000 * (uint64_t)(i + first) + 500);
	}
	assert_int_equal(rd(c).value, 100000);
	o->ring_unmap(c);
	o->close(c);
	halt();
}

static void test_overflow_pending_at_read(void **s)
{
	(void)s;
	pending_case(0);
}

static void test_overflow_pending_at_disable(void **s)
{
	(void)s;
	pending_case(1);
}

/*
 * Pending at switch-out: two threads share one CPU in 1 ms slices (1M
 * instructions each), period 999800, latency 500.  A thread's k-th overflow
 * comes 200*k counts before the end of its k-th slice (a lost one leaves its
 * overshoot to the next period: the fold makes left negative, the reload
 * adds a period), so overflows 1 and 2 (200 and 400 before the end, less
 * than the latency) are pending when the slice ends: switch-out stops the
 * counter, clears the flag, the sample is lost.  3, 4 and 5 are sampled:
 * 3 per thread, 6 in all (10 without latency); the counts stay exact.
 */
static void test_overflow_pending_at_switch_out(void **s)
{
	static struct fsamp f;
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c = NULL;
	struct perf_event_attr a = hw(PERF_TYPE_RAW, 0x08);
	pid_t pid;

	(void)s;
	for (int lat = 0; lat < 2; lat++) {
		memset(&f, 0, sizeof(f));
		boot(lat ? "cpus=1,slice=1ms,irq_latency=500,irq_cost=0" : "cpus=1,slice=1ms,irq_cost=0");
		pid = spawn_text("process p entry=main\nfunction main\n  thread w\n  call w\n"
				 "function w\n  work cycles=5M instructions=5M\n");
		a.sample_period = 999800;
		a.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
		assert_int_equal(o->open(&a, pid, -1, NULL,
					 PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC, &c), 0);
		assert_int_equal(o->ring_map(c, 16, &pg), 0);
		assert_int_equal(run(pid), 0);
		drain(pg, on_fsamp, &f);
		assert_int_equal(f.n, lat ? 6 : 10);
		for (int i = 0; i < f.n; i++)
			assert_int_equal(f.p[i], 999800);
		assert_int_equal(rd(c).value, 10000000);
		o->ring_unmap(c);
		o->close(c);
		halt();
	}
}

/* skid=10: the interrupt is taken 10 instructions after the overflow, so
 * the sampled pc is past the instruction that overflowed.  Period 1000 on
 * cycles; two statements of 1000 cycles and instructions: the overflow is
 * at the last cycle of statement 0 (pc +0x10 + 4*15 = 0x4c), the sample
 * at cycle 1010 in statement 1 (pc +0x50). */
static void test_skid(void **s)
{
	struct perf_event_mmap_page *pg;
	const struct perf_event_header *h;
	const uint64_t *u;
	struct pmc_bctr *c;
	pid_t pid;

	(void)s;
	for (int skid = 0; skid < 2; skid++) {
		boot(skid ? "cpus=1,skid=10" : "cpus=1");
		pid = spawn_text("process p entry=f\nfunction f\n"
				 "  work cycles=1000 instructions=1000\n"
				 "  work cycles=1000 instructions=1000\n");
		c = open_sampler(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), pid, -1,
				 PMC_BOPEN_ENABLE_EXEC, 1000, 4, &pg);
		run(pid);
		h = (const void *)((uint8_t *)pg + pg->data_offset);
		assert_int_equal(h->type, PERF_RECORD_SAMPLE);
		u = (const uint64_t *)(h + 1);
		assert_int_equal(u[1], SIMWL_FUNC_BASE + (skid ? 0x50 : 0x4c));   /* ip */
		assert_int_equal(u[3], skid ? 1010 : 1000);                       /* time */
		assert_int_equal(u[5], 1000);                                     /* period */
		o->ring_unmap(c);
		o->close(c);
		halt();
	}
}

/* Throttling: max_sample_rate=1000 with 4 ms ticks (HZ 250) allows
 * ceil(1000/250) = 4 samples per tick.  Period 1000 over 10 ms of cycles:
 * 4 samples, THROTTLE (the counter stops), UNTHROTTLE at the 4 ms tick, 4
 * more, THROTTLE, UNTHROTTLE at 8 ms, 4 more, THROTTLE: 12 samples, 3
 * THROTTLE, 2 UNTHROTTLE records; the stopped counter counted 12000. */
static void test_throttling(void **s)
{
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c;
	struct prof p;
	pid_t pid;

	(void)s;
	memset(&p, 0, sizeof(p));
	boot("cpus=1,max_sample_rate=1000,irq_cost=0");
	pid = spawn_text("process p entry=f\nfunction f\n  work cycles=10M\n");
	c = open_sampler(hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), pid, -1,
			 PMC_BOPEN_ENABLE_EXEC, 1000, 16, &pg);
	run(pid);
	drain(pg, on_rec, &p);
	assert_int_equal(p.samples, 12);
	assert_int_equal(p.bytype[PERF_RECORD_THROTTLE], 3);
	assert_int_equal(p.bytype[PERF_RECORD_UNTHROTTLE], 2);
	assert_int_equal(rd(c).value, 12000);
	o->ring_unmap(c);
	o->close(c);
	halt();
}

static void test_deterministic(void **s)
{
	uint64_t h[2];

	(void)s;
	for (int k = 0; k < 2; k++) {
		struct perf_event_mmap_page *pg;
		struct pmc_bctr *c;
		struct perf_event_attr a = hw(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		pid_t pid;
		uint64_t x = 1469598103934665603ull;
		const uint8_t *d;

		boot("cpus=3,slice=1ms");
		pid = spawn_file("examples/sim/forktree.wl");
		a.comm = a.task = a.mmap2 = a.sample_id_all = 1;
		c = open_sampler(a, pid, -1, PMC_BOPEN_INHERIT | PMC_BOPEN_ENABLE_EXEC, 77777,
				 64, &pg);
		run(pid);
		d = (const uint8_t *)pg + pg->data_offset;
		for (uint64_t i = 0; i < pg->data_head; i++)
			x = (x ^ d[i]) * 1099511628211ull;
		h[k] = x ^ pg->data_head;
		o->ring_unmap(c);
		o->close(c);
		halt();
	}
	assert_int_equal(h[0], h[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_exact_totals),
		cmocka_unit_test(test_stat_forktree_and_threads),
		cmocka_unit_test(test_wrap_2_32_many_times),
		cmocka_unit_test(test_floor_e_over_p),
		cmocka_unit_test(test_overflow_during_handler),
		cmocka_unit_test(test_profile_70_20_10),
		cmocka_unit_test(test_callchain_shape),
		cmocka_unit_test(test_per_process_read_records),
		cmocka_unit_test(test_multiplexing),
		cmocka_unit_test(test_group_all_or_nothing),
		cmocka_unit_test(test_reader_thread_no_loss),
		cmocka_unit_test(test_lost_records),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_mux_rotates_across_switches),
		cmocka_unit_test(test_mux_rotates_while_idle),
		cmocka_unit_test(test_threads_run_in_parallel),
		cmocka_unit_test(test_freq_first_samples),
		cmocka_unit_test(test_freq_period_is_elapsed),
		cmocka_unit_test(test_freq_low_rate),
		cmocka_unit_test(test_long_period_on_32bit),
		cmocka_unit_test(test_pinned),
		cmocka_unit_test(test_open_refusals),
		cmocka_unit_test(test_overflow_pending_at_read),
		cmocka_unit_test(test_overflow_pending_at_disable),
		cmocka_unit_test(test_overflow_pending_at_switch_out),
		cmocka_unit_test(test_skid),
		cmocka_unit_test(test_throttling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
