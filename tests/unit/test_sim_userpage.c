/*
 * test_sim_userpage.c — the self-monitoring read protocol
 * (pmc__userpage_read): pmc_width sign extension for widths 32, 48 and 64
 * with counters at the edge of wrapping, the lock seqcount (retry on a
 * concurrent update, an update in progress), cap_user_rdpmc, and the
 * time_enabled/time_running extrapolation with cap_user_time (the split
 * quot/rem formula stays exact where cyc * mult would overflow); then the
 * same reader against the simulator's control page — 32-bit and 64-bit
 * counters, read inside the overflow handler after the counter wrapped and
 * before it was folded, and on a running workload — compared with the
 * backend's own read, which it must equal exactly.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "backend/sim/sim.h"

/* ---- a hand-made page --------------------------------------------------- */

struct fakehw {
	struct perf_event_mmap_page *pc;
	uint64_t counter;          /* raw hardware value (width bits) */
	uint64_t timer;
	int calls;
	int bump_on_call;          /* simulate an update racing the read */
	uint64_t new_offset;
};

static uint64_t fake_rdpmc(void *arg, uint32_t idx)
{
	struct fakehw *f = arg;

	if (idx == PMC_USERPAGE_TIMER)
		return f->timer;
	assert_int_equal(idx, f->pc->index - 1);
	if (f->calls++ == 0 && f->bump_on_call) {
		/* an update lands between the reader's two looks at `lock` */
		f->pc->lock += 2;
		f->pc->offset = (int64_t)f->new_offset;
	}
	return f->counter;
}

static struct perf_event_mmap_page *page_new(void)
{
	struct perf_event_mmap_page *pc = aligned_alloc(4096, 4096);

	memset(pc, 0, 4096);
	return pc;
}

/* The counter was loaded with -left (width bits) when the count was c0. */
static void load(struct perf_event_mmap_page *pc, struct fakehw *f, int width,
		 uint64_t c0, uint64_t left)
{
	uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;

	pc->index = 3;
	pc->pmc_width = (uint16_t)width;
	pc->cap_user_rdpmc = 1;
	pc->offset = (int64_t)(c0 + left);      /* count - prev, prev = -left */
	f->pc = pc;
	f->counter = (0 - left) & mask;
}

static void test_widths_at_the_edge(void **s)
{
	static const int widths[] = { 32, 48, 64 };
	struct perf_event_mmap_page *pc = page_new();

	(void)s;
	for (size_t w = 0; w < 3; w++) {
		int width = widths[w];
		uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
		uint64_t half = 1ull << (width - 1);
		uint64_t c0 = 0x123456789abull, lefts[] = { 1, 1000, half };

		for (size_t l = 0; l < 3; l++) {
			uint64_t left = lefts[l];
			/* events since the load: just before, at and after the
			 * wrap, and the farthest the protocol can reach */
			uint64_t ms[] = { 0, left - 1, left, left + 1, left + half - 1 };

			for (size_t k = 0; k < 5; k++) {
				struct fakehw f;
				uint64_t v = 0, e, r;

				memset(&f, 0, sizeof(f));
				memset(pc, 0, 4096);
				load(pc, &f, width, c0, left);
				f.counter = (f.counter + ms[k]) & mask;
				assert_int_equal(pmc__userpage_read(pc, fake_rdpmc, &f, &v, &e, &r), 0);
				assert_int_equal(v, c0 + ms[k]);
			}
		}
	}
	free(pc);
}

static void test_seqlock(void **s)
{
	struct perf_event_mmap_page *pc = page_new();
	struct fakehw f;
	uint64_t v;

	(void)s;
	memset(&f, 0, sizeof(f));
	load(pc, &f, 32, 1000, 10);
	f.bump_on_call = 1;
	f.new_offset = 5000 + 10;
	assert_int_equal(pmc__userpage_read(pc, fake_rdpmc, &f, &v, NULL, NULL), 0);
	assert_int_equal(f.calls, 2);            /* read, saw the lock move, read again */
	assert_int_equal(v, 5000);
	/* an update that never finishes (odd lock): give up */
	pc->lock = 7;
	assert_int_equal(pmc__userpage_read(pc, fake_rdpmc, &f, &v, NULL, NULL), -EAGAIN);
	free(pc);
}

static void test_caps(void **s)
{
	struct perf_event_mmap_page *pc = page_new();
	struct fakehw f;
	uint64_t v = 1, e, r;

	(void)s;
	memset(&f, 0, sizeof(f));
	load(pc, &f, 32, 1000, 10);
	pc->cap_user_rdpmc = 0;                  /* on a counter, but not readable */
	assert_int_equal(pmc__userpage_read(pc, fake_rdpmc, &f, &v, &e, &r), -EOPNOTSUPP);
	pc->index = 0;                           /* not on a counter: offset is the count */
	pc->offset = 4242;
	pc->time_enabled = 10;
	pc->time_running = 7;
	assert_int_equal(pmc__userpage_read(pc, fake_rdpmc, &f, &v, &e, &r), 0);
	assert_int_equal(v, 4242);
	assert_int_equal(e, 10);
	assert_int_equal(r, 7);
	pc->index = 1;
	pc->cap_user_rdpmc = 1;
	pc->pmc_width = 0;                       /* malformed */
	assert_int_equal(pmc__userpage_read(pc, fake_rdpmc, &f, &v, &e, &r), -EINVAL);
	free(pc);
}

static void test_time_scaling(void **s)
{
	struct perf_event_mmap_page *pc = page_new();
	struct fakehw f;
	uint64_t v, e, r, delta;

	(void)s;
	memset(&f, 0, sizeof(f));
	load(pc, &f, 64, 0, 1);
	/* a 25 MHz timer: 40 ns per tick; updated at t = 4000 ns */
	pc->cap_user_time = 1;
	pc->time_shift = 16;
	pc->time_mult = 40u << 16;
	pc->time_offset = (uint64_t)0 - 4000;
	pc->time_enabled = 1000;
	pc->time_running = 500;
	f.timer = 250;                            /* 10,000 ns */
	assert_int_equal(pmc__userpage_read(pc, fake_rdpmc, &f, &v, &e, &r), 0);
	assert_int_equal(e, 7000);
	assert_int_equal(r, 6500);
	/* not on a counter: running does not advance */
	pc->index = 0;
	assert_int_equal(pmc__userpage_read(pc, fake_rdpmc, &f, &v, &e, &r), 0);
	assert_int_equal(e, 7000);
	assert_int_equal(r, 500);
	/* 19.2 MHz (52.083 ns): an odd multiplier, a timer value whose
	 * cyc * mult overflows 64 bits; the split formula is exact */
	pc->index = 3;
	pc->time_shift = 31;
	pc->time_mult = 111848107u;               /* ~52.0833 * 2^31 */
	pc->time_offset = 0;
	pc->time_enabled = pc->time_running = 0;
	f.timer = (1ull << 40) + 12345;
	assert_int_equal(pmc__userpage_read(pc, fake_rdpmc, &f, &v, &e, &r), 0);
	delta = (uint64_t)(((unsigned __int128)f.timer * pc->time_mult) >> 31);
	assert_int_equal(e, delta);
	assert_int_equal(r, delta);
	free(pc);
}

/* ---- the simulator's control page ---------------------------------------------- */

static const struct pmc_backend_ops *o = &pmc_backend_sim;

static uint64_t sim_rd(void *arg, uint32_t idx)
{
	return sim__rdpmc(arg, idx);      /* sim.lock may be held (handler) */
}

static uint64_t ops_rd(void *arg, uint32_t idx)
{
	return o->rdpmc_read(arg, idx);
}

static uint64_t in_handler_value;
static int in_handler_rc = -1;
static struct pmc_bctr *hooked;

static void read_in_handler(struct sim_cpu *c, void *arg)
{
	(void)c;
	(void)arg;
	if (in_handler_rc == -1)
		in_handler_rc = pmc__userpage_read(hooked->upage, sim_rd, hooked,
						   &in_handler_value, NULL, NULL);
}

static void check_equal(struct pmc_bctr *c, struct perf_event_mmap_page *pg, uint64_t want)
{
	struct pmc_bcount b;
	uint64_t v = 0, e = 0, r = 0;

	assert_int_equal(pmc__userpage_read(pg, ops_rd, c, &v, &e, &r), 0);
	assert_int_equal(o->read(c, &b), 0);
	assert_int_equal(v, want);
	assert_int_equal(b.value, want);
	assert_int_equal(e, b.enabled);
	assert_int_equal(r, b.running);
}

/*
 * A task-bound counter asking for EL0 reads (config1:1, as Linux requires),
 * its task on CPU 0 (the workload started, then stopped by a short
 * spawn_wait), events injected on CPU 0 directly.
 */
static struct pmc_bctr *open_on_running_task(const char *cfg, uint64_t config,
					     struct perf_event_mmap_page **pg, pid_t *pid)
{
	struct pmc_machine m;
	struct perf_event_attr a;
	struct pmc_bctr *c = NULL;
	char *av[] = { "examples/sim/hot70.wl", NULL };
	int st;

	sim__configure(cfg);
	assert_int_equal(o->init(&m), 0);
	assert_int_equal(o->spawn(av, pid), 0);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = config;
	a.config1 = 2;                               /* format "rdpmc" */
	a.disabled = 1;
	assert_int_equal(o->open(&a, *pid, -1, NULL, PMC_BOPEN_ENABLE_EXEC, &c), 0);
	assert_int_equal(o->user_page(c, pg), 0);
	assert_int_equal(o->spawn_go(*pid), 0);
	assert_int_equal(o->spawn_wait(*pid, &st, 1), -EAGAIN);
	assert_non_null(sim.cpus[0].cur);
	return c;
}

static void sim_page(int width)
{
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c;
	struct pmc_bcount b0;
	uint64_t left = (width == 64 ? ~0ull : 0xffffffffull) >> 1, n;  /* max_period / 2 */
	pid_t pid;

	/* raw 0x1b (INST_SPEC): the workload does not produce it, so only
	 * the injected events count */
	c = open_on_running_task(width == 64 ? "cpus=1,p5=1" : "cpus=1", 0x1b, &pg, &pid);
	assert_int_equal(pg->pmc_width, width);
	assert_true(pg->index >= 1);
	assert_true(pg->cap_user_rdpmc);
	assert_int_equal(o->read(c, &b0), 0);
	n = b0.value;
	assert_int_equal(n, 0);
	check_equal(c, pg, 0);
	/* to the edge: the counter reads all ones */
	sim__cpu_inject(0, 0x1b, left - 1, 0);
	n += left - 1;
	check_equal(c, pg, n);
	/* one more wraps it; read inside the handler before the fold */
	hooked = c;
	in_handler_rc = -1;
	sim.cpus[0].irq_hook = read_in_handler;
	sim__cpu_inject(0, 0x1b, 1, 0);
	n += 1;
	sim.cpus[0].irq_hook = NULL;
	assert_int_equal(in_handler_rc, 0);
	assert_int_equal(in_handler_value, n);
	check_equal(c, pg, n);
	/* and onwards, many times across the wrap */
	for (int i = 0; i < 7; i++) {
		uint64_t k = width == 64 ? 3 + (uint64_t)i : (1ull << 31) + 12345 * (uint64_t)i;

		sim__cpu_inject(0, 0x1b, k, 0);
		n += k;
		check_equal(c, pg, n);
	}
	o->close(c);
	o->fini();
	sim__configure(NULL);
}

static void test_sim_page_32(void **s)
{
	(void)s;
	sim_page(32);
}

static void test_sim_page_64(void **s)
{
	(void)s;
	sim_page(64);
}

/* A task counter while the workload runs (descheduled, then on a CPU). */
static void test_sim_page_running_task(void **s)
{
	static const char *cfgs[] = { "cpus=1", "cpus=1,lc=1" };

	(void)s;
	for (int k = 0; k < 2; k++) {
		struct pmc_machine m;
		struct perf_event_attr a;
		struct perf_event_mmap_page *pg;
		struct pmc_bctr *c = NULL;
		struct pmc_bcount b;
		char *av[] = { "examples/sim/hot70.wl", NULL };
		pid_t pid;
		int st;
		uint64_t v, e, r;

		sim__configure(cfgs[k]);
		assert_int_equal(o->init(&m), 0);
		assert_int_equal(o->spawn(av, &pid), 0);
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_CPU_CYCLES;
		a.config1 = 2;                       /* format "rdpmc" */
		a.disabled = 1;
		assert_int_equal(o->open(&a, pid, -1, NULL, PMC_BOPEN_ENABLE_EXEC, &c), 0);
		assert_int_equal(o->user_page(c, &pg), 0);
		assert_int_equal(pg->index, 0);          /* not running yet */
		assert_int_equal(pmc__userpage_read(pg, ops_rd, c, &v, &e, &r), 0);
		assert_int_equal(v, 0);
		assert_int_equal(o->spawn_go(pid), 0);
		for (int i = 0; i < 5; i++) {
			assert_int_equal(o->spawn_wait(pid, &st, 7), -EAGAIN);
			assert_int_equal(pg->index, PMUV3_IDX_CYCLE + 1);
			assert_int_equal(pg->pmc_width, k ? 64 : 32);
			assert_int_equal(pmc__userpage_read(pg, ops_rd, c, &v, &e, &r), 0);
			assert_int_equal(o->read(c, &b), 0);
			assert_int_equal(v, b.value);
			assert_int_equal(e, b.enabled);
			assert_int_equal(r, b.running);
			assert_true(v > 0 && v == e);    /* 1 cycle per ns */
		}
		assert_int_equal(o->spawn_wait(pid, &st, -1), 0);
		assert_int_equal(pmc__userpage_read(pg, ops_rd, c, &v, &e, &r), 0);
		assert_int_equal(v, 100009108);
		o->close(c);
		o->fini();
		sim__configure(NULL);
	}
}

/*
 * Item 8, Linux's user-access model: EL0 reads need config1:1 on a
 * task-bound event and kernel.perf_user_access = 1; PMUSERENR_EL0 opens
 * only while such a task runs, and counters not in use are zeroed first.
 */
static void test_sim_page_no_user_access(void **s)
{
	struct perf_event_mmap_page *pg;
	struct pmc_bctr *c, *c2 = NULL;
	struct perf_event_attr a;
	pid_t pid;
	uint64_t v, u = 0;

	(void)s;
	/* sysctl off: the flag is there, the index is 0, EL0 reads trap */
	c = open_on_running_task("cpus=1,user_access=0", 0x1b, &pg, &pid);
	assert_true(pg->cap_user_rdpmc);
	assert_int_equal(pg->index, 0);
	assert_int_equal(pmuv3__mrs(&sim.cpus[0].pmu, PMUV3_PMUSERENR, 1, &u), PMUV3_OK);
	assert_int_equal(u, 0);
	sim__cpu_inject(0, 0x1b, 10, 0);
	assert_int_equal(o->rdpmc_read(c, (uint32_t)c->atts[0]->slot), 0);   /* trapped */
	o->close(c);
	o->fini();

	/* without config1:1 (the sysctl on): no user reads, PMUSERENR 0 */
	sim__configure("cpus=1");
	assert_int_equal(o->init(&(struct pmc_machine){ 0 }), 0);
	{
		char *av[] = { "examples/sim/hot70.wl", NULL };
		int st;

		assert_int_equal(o->spawn(av, &pid), 0);
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_RAW;
		a.config = 0x08;
		assert_int_equal(o->open(&a, pid, -1, NULL, 0, &c2), 0);
		assert_int_equal(o->user_page(c2, &pg), 0);
		assert_int_equal(o->spawn_go(pid), 0);
		assert_int_equal(o->spawn_wait(pid, &st, 1), -EAGAIN);
	}
	assert_false(pg->cap_user_rdpmc);
	assert_int_equal(pg->index, 0);
	assert_int_equal(pmuv3__mrs(&sim.cpus[0].pmu, PMUV3_PMUSERENR, 1, &u), PMUV3_OK);
	assert_int_equal(u, 0);
	/* a CPU-wide event cannot ask for user reads */
	a.config1 = 2;
	assert_int_equal(o->open(&a, -1, 0, NULL, 0, &c), -EINVAL);
	o->close(c2);
	o->fini();

	/* with config1:1: ER|CR while the task runs; an unused counter was
	 * zeroed so EL0 cannot read what others counted */
	c = open_on_running_task("cpus=1", 0x1b, &pg, &pid);
	assert_int_equal(pmuv3__mrs(&sim.cpus[0].pmu, PMUV3_PMUSERENR, 1, &u), PMUV3_OK);
	assert_int_equal(u, PMUSERENR_ER | PMUSERENR_CR);
	/* what another context left in counter 5 is gone when this task's
	 * context is scheduled in with user access */
	assert_int_equal(pmuv3__msr(&sim.cpus[0].pmu, PMUV3_PMEVCNTR(5), 1, 1234), PMUV3_OK);
	sim__resched(&sim.cpus[0]);
	assert_int_equal(pmuv3__mrs(&sim.cpus[0].pmu, PMUV3_PMEVCNTR(5), 0, &v), PMUV3_OK);
	assert_int_equal(v, 0);
	o->close(c);
	o->fini();

	/* PMUv3p9: UEN, and PMUACR_EL1 grants exactly the event's counter */
	c = open_on_running_task("cpus=1,p9=1", 0x1b, &pg, &pid);
	assert_int_equal(pmuv3__mrs(&sim.cpus[0].pmu, PMUV3_PMUSERENR, 1, &u), PMUV3_OK);
	assert_int_equal(u, PMUSERENR_ER | PMUSERENR_CR | PMUSERENR_UEN);
	assert_int_equal(pmuv3__mrs(&sim.cpus[0].pmu, PMUV3_PMUACR, 1, &u), PMUV3_OK);
	assert_int_equal(u, 1ull << c->atts[0]->slot);
	o->close(c);
	o->fini();

	/* Item 7: INST_RETIRED read from EL0 is never put on PMICNTR_EL0
	 * (icntr machine): it takes an event counter, index = counter + 1 */
	c = open_on_running_task("cpus=1,p9=1,icntr=1", 0x08, &pg, &pid);
	assert_true(c->atts[0]->slot < 31);
	assert_int_equal(pg->index, (uint32_t)c->atts[0]->slot + 1);
	o->close(c);
	o->fini();
	sim__configure(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_widths_at_the_edge),
		cmocka_unit_test(test_seqlock),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_time_scaling),
		cmocka_unit_test(test_sim_page_32),
		cmocka_unit_test(test_sim_page_64),
		cmocka_unit_test(test_sim_page_running_task),
		cmocka_unit_test(test_sim_page_no_user_access),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
