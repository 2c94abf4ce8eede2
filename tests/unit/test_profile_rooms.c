/*
 * test_profile_rooms.c — the profile split into its files (issue 24):
 * what its parts offer each other and the rooms above them.  The stack
 * table and the sums table (stacks.c, on hmap.h's hidx) keep the stacks'
 * ids in the order first seen and give the sums the samples give, past
 * their first growths; the event names and recount offcpu.c uses from
 * profile.h (offcpu -> profile, one way); the switch-ins switches.c keeps
 * while loading weigh the context-switches samples.
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

#include "pmc.h"
#include "pmclog.h"
#include "log/format.h"
#include "log/records.h"
#include "profile/offcpu.h"
#include "profile/profile.h"
#include "lib/logbuild.h"

/* A pmc log being written (tests/lib/logbuild.h): its bytes so far and
 * the record being encoded. */
struct logbuf {
	struct pmc_logrec rec;
	struct lb b;
};

/* Append the record encoded in l->rec, at time ts. */
static void rec_add(struct logbuf *l, uint64_t ts)
{
	lb_logrec(&l->b, &l->rec, ts);
}

/* A log with its header and one process-mode event, pmcid 1, named ev. */
static void log_start(struct logbuf *l, const char *ev)
{
	struct pmc_logrec_header h = { PMC_VERSION, 1, 0, 1, 0, 0, "rooms", "host", "kernel",
		"cpu", "rooms" };
	memset(l, 0, sizeof(*l));
	lb_log_begin(&l->b, &h, 1);
	assert_int_equal(pmc__logrec_pmcallocate(&l->rec, 1, 0, ev, PMC_MODE_TS, 0, 1, 0, -1), 0);
	rec_add(l, 2);
}

/* A user-space sample of chain pcs[0..n) (n <= 4). */
static void log_sample(struct logbuf *l, pid_t pid, pid_t tid, const uint64_t *pcs, uint32_t n,
    uint64_t period, uint64_t ts)
{
	static const uint8_t fl[4] = { PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE,
		PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE };
	struct pmc_logrec_sample s = { 1, pid, tid, 0, period, n, pcs, fl };
	assert_int_equal(pmc__logrec_callchain(&l->rec, &s), 0);
	rec_add(l, ts);
}

/* Close the log, write it to a file and load it with o. */
static struct profile *log_load(struct logbuf *l, const struct prof_load_opts *o)
{
	char path[] = "/tmp/test_profile_rooms_XXXXXX";
	struct profile *p;
	assert_int_equal(pmc__logrec_closelog(&l->rec), 0);
	rec_add(l, UINT64_C(1) << 40);
	lb_save_tmp(&l->b, path);
	assert_int_equal(profile__load(&p, path, o), 0);
	unlink(path);
	assert_string_equal(p->truncated, "");
	return p;
}

#define NSTACKS 6000   /* past the stack table's first 4096 slots (grown at
                        * half full) and the sums table's first 1024 */

/* Stack k's chain: three pcs, distinct per k. */
static void chain_of(unsigned k, uint64_t pcs[3])
{
	pcs[0] = 0x400000 + (uint64_t)k * 16;
	pcs[1] = 0x500000 + (uint64_t)(k % 97) * 16;
	pcs[2] = 0x600000;
}

/* The same log every time: NSTACKS stacks, each sampled by two threads,
 * then the first half again (one thread): 3 * NSTACKS / 2 * 2 samples. */
static struct profile *many_stacks(int sums)
{
	struct logbuf l;
	struct prof_load_opts o = { .sums = sums, .threads = 1 };
	uint64_t ts = 10, pcs[3];
	log_start(&l, "cpu-clock");
	for (unsigned k = 0; k < NSTACKS; k++) {
		chain_of(k, pcs);
		log_sample(&l, 100, 100, pcs, 3, 1000 + k, ts++);
		log_sample(&l, 100, 101, pcs, 3, 7, ts++);
	}
	for (unsigned k = 0; k < NSTACKS / 2; k++) {
		chain_of(k, pcs);
		log_sample(&l, 100, 100, pcs, 3, 1, ts++);
	}
	struct profile *p = log_load(&l, &o);
	lb_free(&l.b);
	return p;
}

/* Per stack and thread: the weight and count a grouped walk gives. */
struct sums {
	uint64_t w[NSTACKS][2], c[NSTACKS][2];
	size_t calls;
};

static void sum_group(void *arg, const struct prof_sample *s, uint64_t weight, uint64_t count,
    const struct prof_frame *fr, int n)
{
	struct sums *m = arg;
	(void)fr;
	(void)n;
	assert_true(s->stack < NSTACKS);
	assert_true(s->tid == 100 || s->tid == 101);
	m->w[s->stack][s->tid - 100] += weight;
	m->c[s->stack][s->tid - 100] += count;
	m->calls++;
}

/* Stack ids are given in the order the stacks are first seen, with the
 * stacks' pcs, whatever the table's growth; the sums table gives what the
 * samples one by one give. */
static void test_stacks_and_sums_past_growth(void **state)
{
	(void)state;
	struct profile *p[2] = { many_stacks(0), many_stacks(1) };
	static struct sums m[2];
	memset(m, 0, sizeof(m));
	for (int i = 0; i < 2; i++) {
		const uint64_t *pcs;
		const uint8_t *fl;
		uint64_t want[3];
		assert_int_equal(profile__nstacks(p[i]), NSTACKS);
		for (unsigned k = 0; k < NSTACKS; k += 37) {
			chain_of(k, want);
			assert_int_equal(profile__stack_pcs(p[i], k, &pcs, &fl), 3);
			assert_memory_equal(pcs, want, sizeof(want));
		}
		profile__foreach_group(p[i], NULL, 0, sum_group, &m[i]);
		assert_int_equal(p[i]->ev[0].samples, NSTACKS * 2 + NSTACKS / 2);
	}
	assert_int_equal(p[1]->ns, NSTACKS * 2);   /* one sum per stack and thread */
	assert_int_equal(p[0]->ns, NSTACKS * 2 + NSTACKS / 2);
	assert_int_equal(m[0].calls, NSTACKS * 2);
	assert_int_equal(m[1].calls, NSTACKS * 2);
	for (unsigned k = 0; k < NSTACKS; k++) {
		uint64_t again = k < NSTACKS / 2;
		assert_int_equal(m[0].w[k][0], 1000 + k + again);
		assert_int_equal(m[0].c[k][0], 1 + again);
		assert_int_equal(m[0].w[k][1], 7);
		assert_int_equal(m[0].c[k][1], 1);
	}
	assert_memory_equal(&m[0], &m[1], offsetof(struct sums, calls));
	assert_int_equal(p[0]->ev[0].period, p[1]->ev[0].period);
	profile__free(p[0]);
	profile__free(p[1]);
}

/* An event's name, with modifiers or without (offcpu.c's test). */
static void test_event_named(void **state)
{
	(void)state;
	assert_true(profile__event_named("cs", "cs"));
	assert_true(profile__event_named("cs:u", "cs"));
	assert_true(profile__event_named("cpu-clock:ppp", "cpu-clock"));
	assert_false(profile__event_named("csw", "cs"));
	assert_false(profile__event_named("c", "cs"));
	assert_false(profile__event_named("task-clock", "cpu-clock"));
}

/* profile__recount counts the events again from the samples. */
static void test_recount(void **state)
{
	(void)state;
	struct profile *p = many_stacks(0);
	uint64_t samples = p->ev[0].samples, period = p->ev[0].period;
	p->ev[0].samples = 0;
	p->ev[0].period = 1;
	profile__recount(p);
	assert_int_equal(p->ev[0].samples, samples);
	assert_int_equal(p->ev[0].period, period);
	profile__free(p);
}

/* The switch-ins kept while loading weigh the context-switches samples by
 * the time to their thread's next switch-in (switches.c), with sums asked
 * or not (the sums are then read again sample by sample); a switch-out
 * never followed by a switch-in is dropped; --wall (offcpu.c) then merges
 * the event. */
static void test_switch_ins_weigh(void **state)
{
	(void)state;
	for (int sums = 0; sums < 2; sums++) {
		struct logbuf l;
		struct prof_load_opts o = { .sums = sums, .threads = 1 };
		static const uint64_t pc[1] = { 0x401000 };
		log_start(&l, "context-switches");
		log_sample(&l, 200, 201, pc, 1, 1, 1000);
		log_sample(&l, 200, 202, pc, 1, 1, 1500);
		log_sample(&l, 200, 201, pc, 1, 1, 5000);   /* never back */
		assert_int_equal(pmc__logrec_switch(&l.rec, 1, 200, 201, 0, 0), 0);
		rec_add(&l, 1250);
		assert_int_equal(pmc__logrec_switch(&l.rec, 1, 200, 202, 0, 0), 0);
		rec_add(&l, 4500);
		struct profile *p = log_load(&l, &o);
		lb_free(&l.b);
		assert_string_equal(p->ev[0].name, "offcpu-time");
		assert_true(p->ev[0].offcpu);
		assert_int_equal(p->ev[0].samples, 2);
		assert_int_equal(p->ev[0].period, 250 + 3000);
		assert_int_equal(offcpu__wall(p), 0);
		assert_string_equal(p->ev[p->nev - 1].name, "wall-time");
		assert_int_equal(p->ev[p->nev - 1].period, 3250);
		profile__free(p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stacks_and_sums_past_growth),
		cmocka_unit_test(test_event_named),
		cmocka_unit_test(test_recount),
		cmocka_unit_test(test_switch_ins_weigh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
