/*
 * backend_sim.c — pmc_backend_sim: the simulated ARMv8 machine behind the
 * backend boundary (lib/backend/backend.h).
 *
 * The machine is configured from PMC_SIM_MACHINE ("cpus=4,counters=6,
 * p5=0,icntr=0,p9=0,lc=0,lp=0,slice=4ms,user_access=1,irq_cost=1us,
 * irq_latency=0,skid=0,max_sample_rate=0"; see docs/simulator.md) or
 * sim__configure() in tests.  Time is simulated and
 * advances only inside spawn_wait and ring_wait, so results never depend on
 * the host.  Every op takes sim.lock.
 *
 * Back-pressure keeps rings deterministic: while a ring whose reader calls
 * ring_wait has a wake-up pending, the simulation waits for the reader to
 * come back before it advances (bounded by a real-time grace period, after
 * which that reader is treated as gone and records may be lost and counted).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/error.h"
#include "backend/sim/sim.h"

static char *config_override;

void sim__default_config(struct sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->ncpu = 4;
	c->pmu.n = 6;
	c->lc = 0;
	c->lp = -1;                  /* default: set when p5 is present */
	c->slice_ns = 4000000;
	c->hz = 1000000000;
	c->user_access = 1;
	c->irq_cost = 1000;
}

static int parse_num(const char *s, uint64_t *v, int time)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	if (time) {
		if (!strcmp(end, "ms"))
			x *= 1000000;
		else if (!strcmp(end, "us"))
			x *= 1000;
		else if (!strcmp(end, "s"))
			x *= 1000000000;
		else if (*end && strcmp(end, "ns"))
			return -1;
	} else if (*end) {
		return -1;
	}
	*v = x;
	return 0;
}

int sim__parse_config(struct sim_config *c, const char *spec)
{
	char *dup, *tok, *save = NULL;
	int rc = 0;

	if (!spec || !*spec)
		return 0;
	dup = strdup(spec);
	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v;

		if (!eq) {
			rc = -EINVAL;
			break;
		}
		*eq++ = '\0';
		if (parse_num(eq, &v, !strcmp(tok, "slice") || !strcmp(tok, "irq_cost"))) {
			rc = -EINVAL;
			break;
		}
		if (!strcmp(tok, "cpus") && v >= 1 && v <= SIM_MAX_CPUS)
			c->ncpu = (int)v;
		else if (!strcmp(tok, "counters") && v <= 31)
			c->pmu.n = (unsigned)v;
		else if (!strcmp(tok, "p5") && v <= 1)
			c->pmu.p5 = (int)v;
		else if (!strcmp(tok, "icntr") && v <= 1)
			c->pmu.icntr = (int)v;
		else if (!strcmp(tok, "p9") && v <= 1)
			c->pmu.p9 = (int)v;
		else if (!strcmp(tok, "lc") && v <= 1)
			c->lc = (int)v;
		else if (!strcmp(tok, "lp") && v <= 1)
			c->lp = (int)v;
		else if (!strcmp(tok, "slice") && v >= 1000 && v <= 10000000000ull)
			c->slice_ns = v;
		else if (!strcmp(tok, "user_access") && v <= 1)
			c->user_access = (int)v;
		else if (!strcmp(tok, "irq_cost") && v <= 1000000)
			c->irq_cost = v;
		else if (!strcmp(tok, "irq_latency") && v <= 1000000)
			c->irq_latency = v;
		else if (!strcmp(tok, "skid") && v <= 1000000)
			c->skid = v;
		else if (!strcmp(tok, "max_sample_rate") && v <= 100000000)
			c->max_sample_rate = v;
		else if (!strcmp(tok, "launch") && v <= 1000000000)
			c->launch = v;
		else {
			rc = -EINVAL;
			break;
		}
	}
	if (rc)
		pmc__set_reason("PMC_SIM_MACHINE: bad setting '%s' (keys: cpus=1..%d, "
				"counters=0..31, p5, icntr, p9, lc, lp, user_access = 0|1, "
				"slice=TIME, irq_cost=TIME, irq_latency=CYCLES, skid=INSTRUCTIONS, "
				"max_sample_rate=N, launch=INSTRUCTIONS)", tok ? tok : spec, SIM_MAX_CPUS);
	free(dup);
	return rc;
}

int sim__configure(const char *spec)
{
	free(config_override);
	config_override = spec ? strdup(spec) : NULL;
	return spec && !config_override ? -ENOMEM : 0;
}

/* ---- ops ---------------------------------------------------------------- */

#define LOCK()   pthread_mutex_lock(&sim.lock)
#define UNLOCK() pthread_mutex_unlock(&sim.lock)

static int sim_init(struct pmc_machine *m)
{
	struct sim_config cfg;
	int rc;

	sim__default_config(&cfg);
	rc = sim__parse_config(&cfg, getenv("PMC_SIM_MACHINE"));
	if (!rc)
		rc = sim__parse_config(&cfg, config_override);
	if (rc)
		return rc;
	if (cfg.lp < 0)
		cfg.lp = cfg.pmu.p5;
	if (cfg.pmu.icntr && !cfg.pmu.p9) {
		pmc__set_reason("PMC_SIM_MACHINE: icntr=1 needs p9=1 (FEAT_PMUv3_ICNTR "
				"requires FEAT_PMUv3p9)");
		return -EINVAL;
	}
	LOCK();
	rc = sim__machine_init(&cfg);
	UNLOCK();
	if (rc)
		return rc;
	memset(m, 0, sizeof(*m));
	m->cputype = PMC_CPU_ARMV8_CORTEX_A76;
	m->ncpu = cfg.ncpu;
	m->has_hw_pmu = 1;
	snprintf(m->cpu_desc, sizeof(m->cpu_desc),
		 "Simulated ARMv8 Cortex-A76 (PMUv3%s, %u counters%s%s)",
		 cfg.pmu.p5 ? "p5" : "", cfg.pmu.n,
		 cfg.pmu.icntr ? " + cycle + instruction counter" : " + cycle counter",
		 cfg.pmu.p5 && cfg.lp ? ", 64-bit" : ", 32-bit");
	m->nclass = 2;
	m->classes[0].pm_class = PMC_CLASS_ARMV8;
	m->classes[0].pm_caps = PMC_CAP_INTERRUPT | PMC_CAP_USER | PMC_CAP_SYSTEM |
				PMC_CAP_READ | PMC_CAP_WRITE;
	m->classes[0].pm_width = cfg.pmu.p5 && cfg.lp ? 64 : 32;
	m->classes[0].pm_num = cfg.pmu.n + 1 + (cfg.pmu.icntr ? 1 : 0);
	m->strict_rows[0] = 1;
	m->classes[1].pm_class = PMC_CLASS_SOFT;
	m->classes[1].pm_caps = PMC_CAP_READ | PMC_CAP_USER | PMC_CAP_SYSTEM;
	m->classes[1].pm_width = 64;
	m->classes[1].pm_num = 16;
	m->strict_rows[1] = 0;
	return 0;
}

static void sim_fini(void)
{
	LOCK();
	sim__machine_fini();
	UNLOCK();
}

static int sim_cpu_check(int cpu)
{
	int rc = 0;

	LOCK();
	if (cpu < 0 || cpu >= sim.cfg.ncpu) {
		pmc__set_reason("CPU %d does not exist (the simulated machine has %d CPUs)",
				cpu, sim.cfg.ncpu);
		rc = -ENXIO;
	}
	UNLOCK();
	return rc;
}

static int sim_target_check(pid_t pid)
{
	struct sim_task *t;
	int rc = 0;

	LOCK();
	t = sim__task(pid);
	if (!t || t->state == T_DEAD) {
		pmc__set_reason("no simulated process %d", (int)pid);
		rc = -ESRCH;
	}
	UNLOCK();
	return rc;
}

static int sim_open(const struct perf_event_attr *attr, pid_t pid, int cpu,
		    struct pmc_bctr *leader, unsigned flags, struct pmc_bctr **out)
{
	int rc;

	LOCK();
	rc = sim.inited ? sim__ev_open(attr, pid, cpu, leader, flags, out) : -ENXIO;
	UNLOCK();
	return rc;
}

static void sim_close(struct pmc_bctr *c)
{
	LOCK();
	sim__ev_close(c);
	UNLOCK();
}

static int sim_enable(struct pmc_bctr *c)
{
	LOCK();
	sim__ev_enable(c, 1);
	UNLOCK();
	return 0;
}

static int sim_disable(struct pmc_bctr *c)
{
	LOCK();
	sim__ev_enable(c, 0);
	UNLOCK();
	return 0;
}

static int sim_reset(struct pmc_bctr *c)
{
	LOCK();
	sim__ev_reset(c);
	UNLOCK();
	return 0;
}

static int sim_read(struct pmc_bctr *c, struct pmc_bcount *v)
{
	LOCK();
	sim__ev_read(c, v);
	UNLOCK();
	return 0;
}

static int sim_set_period(struct pmc_bctr *c, uint64_t period)
{
	int rc = 0;

	LOCK();
	if (c->kind != EV_HW) {
		pmc__set_reason("the sim backend samples only hardware events");
		rc = -EOPNOTSUPP;
	} else if (c->attr.freq) {
		/* __perf_event_period: a new frequency; the current period stays
		 * and is retuned from here */
		if (!period)
			rc = -EINVAL;
		else
			c->attr.sample_freq = period;
	} else {
		c->attr.sample_period = period;
		c->period = period;
		for (int i = 0; i < c->natts; i++)
			c->atts[i]->sample_period = period;
	}
	if (!rc) {
		for (int i = 0; i < c->natts; i++) {
			c->atts[i]->period_left = (int64_t)c->atts[i]->sample_period;
			c->atts[i]->last_period = c->atts[i]->sample_period;
		}
		for (int i = 0; i < sim.cfg.ncpu; i++)
			sim__resched(&sim.cpus[i]);
	}
	UNLOCK();
	return rc;
}

static int sim_id(struct pmc_bctr *c, uint64_t *id)
{
	*id = c->id;
	return 0;
}

static const struct perf_event_attr *sim_attr(const struct pmc_bctr *c)
{
	return &c->attr;
}

static int sim_ring_map(struct pmc_bctr *c, size_t data_pages,
			struct perf_event_mmap_page **page)
{
	int rc = 0;

	if (!data_pages || (data_pages & (data_pages - 1)) || data_pages > (1u << 16)) {
		pmc__set_reason("ring size must be a power of two pages (got %zu)", data_pages);
		return -EINVAL;
	}
	LOCK();
	if (c->own_rb) {
		if (c->own_rb->size != data_pages * SIM_PAGE_SIZE)
			rc = -EBUSY;
	} else if (c->rb) {
		pmc__set_reason("this counter's records go to another ring");
		rc = -EINVAL;
	} else {
		c->own_rb = sim__ring_new(c, data_pages);
		if (!c->own_rb) {
			rc = -ENOMEM;
		} else {
			c->rb = c->own_rb;
			free(c->upage);
			c->upage = NULL;
			sim__userpage_update(c);
		}
	}
	if (!rc)
		*page = c->own_rb->page;
	UNLOCK();
	return rc;
}

static void sim_ring_unmap(struct pmc_bctr *c)
{
	LOCK();
	if (c->own_rb) {
		struct sim_perf_buffer *rb = c->own_rb;

		c->own_rb = NULL;
		if (c->rb == rb)
			c->rb = NULL;
		rb->owner = NULL;
		rb->consumer = 0;
		if (--rb->refs == 0)
			sim__ring_free(rb);
	}
	UNLOCK();
}

static int sim_ring_redirect(struct pmc_bctr *c, struct pmc_bctr *to)
{
	int rc = 0;

	LOCK();
	if (c->own_rb) {
		pmc__set_reason("counter has its own ring mapped");
		rc = -EBUSY;
	} else if (to && !to->rb) {
		pmc__set_reason("target counter has no ring");
		rc = -EINVAL;
	} else {
		if (c->rb && --c->rb->refs == 0)
			sim__ring_free(c->rb);
		c->rb = to ? to->rb : NULL;
		if (c->rb)
			c->rb->refs++;
	}
	UNLOCK();
	return rc;
}

/* Rings among cs (deduplicated); op: 0 = count+clear woken, 1 = count unread. */
static int rings_scan(struct pmc_bctr **cs, int n, int op)
{
	int r = 0;

	for (int i = 0; i < n; i++) {
		struct sim_perf_buffer *rb = cs[i] ? cs[i]->rb : NULL;
		int dup = 0;

		if (!rb)
			continue;
		for (int j = 0; j < i; j++)
			if (cs[j] && cs[j]->rb == rb)
				dup = 1;
		if (dup)
			continue;
		if (op == 0 && rb->poll) {
			rb->poll = 0;
			r++;
		} else if (op == 1 &&
			   __atomic_load_n(&rb->page->data_tail, __ATOMIC_ACQUIRE) != rb->head) {
			r++;
		}
	}
	return r;
}

/*
 * Before the simulation advances, a ring whose reader is another thread
 * must have room: while more than max(watermark, half the ring) is unread
 * (the reader has been woken and not yet caught up) the simulation waits for
 * the reader to advance data_tail.  So what a reader receives never depends
 * on how fast it is.  A reader known to call ring_wait gets a long grace
 * period, a ring merely mapped a short one (its reader may not have started
 * yet); after it the ring is treated as unread and records may be lost (and
 * are counted, PERF_RECORD_LOST).  A step writes far less than half a ring
 * of any useful size, so with a live reader nothing is lost.
 */
static int backpressure(void)
{
	for (struct pmc_bctr *e = sim.events; e; e = e->next) {
		struct sim_perf_buffer *rb = e->own_rb;
		uint64_t thresh, grace_ms;
		struct timespec until, tick;

		if (!rb || !rb->consumer)
			continue;
		if (rb->consumer == 2 && pthread_equal(rb->consumer_tid, pthread_self()))
			continue;          /* we are the reader: it is not reading now */
		thresh = rb->watermark > rb->size / 2 ? rb->watermark : rb->size / 2;
		if (rb->head - __atomic_load_n(&rb->page->data_tail, __ATOMIC_ACQUIRE) <= thresh)
			continue;
		grace_ms = rb->consumer == 2 ? 2000 : 100;
		pmc__deadline_in(&until, (long)grace_ms);
		rb->refs++;            /* the counter may be closed while we sleep */
		while (rb->consumer && rb->owner &&
		       rb->head - __atomic_load_n(&rb->page->data_tail, __ATOMIC_ACQUIRE) > thresh) {
			struct timespec now;

			/* the reader moves data_tail without telling us: look every ms */
			pmc__deadline_in(&tick, 1);
			pthread_cond_timedwait(&sim.cond, &sim.lock, &tick);
			clock_gettime(CLOCK_REALTIME, &now);
			if (now.tv_sec > until.tv_sec ||
			    (now.tv_sec == until.tv_sec && now.tv_nsec >= until.tv_nsec)) {
				rb->consumer = 0;
				break;
			}
		}
		if (--rb->refs == 0)
			sim__ring_free(rb);
		return 1;   /* the counter list may have changed while we slept */
	}
	return 0;
}

static int sim_ring_wait(struct pmc_bctr **cs, int n, int timeout_ms)
{
	uint64_t deadline;
	int r = 0;

	LOCK();
	for (int i = 0; i < n; i++)
		if (cs[i] && cs[i]->rb) {
			cs[i]->rb->consumer = 2;
			cs[i]->rb->consumer_tid = pthread_self();
		}
	sim.waiters++;
	pthread_cond_broadcast(&sim.cond);     /* a producer may wait for us */
	deadline = timeout_ms < 0 ? UINT64_MAX : sim__now() + (uint64_t)timeout_ms * 1000000ull;
	for (;;) {
		r = rings_scan(cs, n, 0);
		if (r)
			break;
		if (!sim__runnable()) {
			struct timespec ts;

			r = rings_scan(cs, n, 1);
			if (r || timeout_ms == 0)
				break;
			/* nothing can happen until someone spawns or closes: block
			 * (in real time, briefly) instead of spinning */
			pmc__deadline_in(&ts, timeout_ms < 0 || timeout_ms > 50 ? 50 : timeout_ms);
			pthread_cond_timedwait(&sim.cond, &sim.lock, &ts);
			/* cs may have been closed meanwhile: report on the next call */
			r = 0;
			break;
		}
		if (sim__now() >= deadline)
			break;
		/* the lock stays held while stepping: cs must not be closed
		 * under us */
		sim__step();
	}
	sim.waiters--;
	pthread_cond_broadcast(&sim.cond);
	UNLOCK();
	return r;
}

static int sim_user_page(struct pmc_bctr *c, struct perf_event_mmap_page **page)
{
	int rc = 0;

	LOCK();
	*page = sim__userpage(c);
	if (!*page)
		rc = -ENOMEM;
	else
		sim__userpage_update(c);
	UNLOCK();
	return rc;
}

static uint64_t sim_rdpmc_read(struct pmc_bctr *c, uint32_t index)
{
	uint64_t v;

	LOCK();
	v = sim__rdpmc(c, index);
	UNLOCK();
	return v;
}

static int sim_spawn(char *const argv[], pid_t *pid)
{
	int rc;

	if (!argv || !argv[0]) {
		pmc__set_reason("no workload file");
		return -EINVAL;
	}
	LOCK();
	rc = sim.inited ? sim__spawn(argv[0], pid) : -ENXIO;
	UNLOCK();
	return rc;
}

static int sim_spawn_go(pid_t pid)
{
	int rc;

	LOCK();
	rc = sim__spawn_go(pid);
	UNLOCK();
	return rc;
}

static int sim_spawn_wait(pid_t pid, int *status, int timeout_ms)
{
	struct sim_task *t;
	uint64_t deadline;
	int rc = 0, steps = 0;

	LOCK();
	t = sim__task(pid);
	if (!t || t->leader != t || t->reaped) {
		pmc__set_reason("%d is not a simulated child process", (int)pid);
		UNLOCK();
		return -ECHILD;
	}
	if (t->state == T_EMBRYO && !t->exited) {
		pmc__set_reason("process %d was never started (spawn_go)", (int)pid);
		UNLOCK();
		return timeout_ms < 0 ? -EINVAL : -EAGAIN;
	}
	deadline = timeout_ms < 0 ? UINT64_MAX : sim__now() + (uint64_t)timeout_ms * 1000000ull;
	for (;;) {
		if (t->exited) {
			*status = (t->exit_code & 0xff) << 8;
			t->reaped = 1;
			break;
		}
		if (backpressure())
			continue;
		if (sim__now() >= deadline) {
			rc = -EAGAIN;
			break;
		}
		if (sim__step()) {
			pmc__set_reason("simulated process %d can never finish", (int)pid);
			rc = -EDEADLK;
			break;
		}
		if (++steps % 256 == 0) {
			UNLOCK();
			LOCK();
		}
	}
	pthread_cond_broadcast(&sim.cond);
	UNLOCK();
	return rc;
}

/*
 * Only a process that never ran can be signalled: it then ends with
 * 128+sig as its status.  A running simulated process always runs to
 * completion (the simulation has no signals).
 */
static int sim_spawn_kill(pid_t pid, int sig)
{
	struct sim_task *t;
	int rc = 0;

	LOCK();
	t = sim__task(pid);
	if (!t || t->leader != t || t->reaped) {
		pmc__set_reason("%d is not a simulated child process", (int)pid);
		rc = -ESRCH;
	} else if (t->state == T_EMBRYO) {
		t->exited = 1;
		t->exit_code = 128 + sig;
	} else if (!t->exited) {
		pmc__set_reason("a running simulated process cannot be signalled");
		rc = -EOPNOTSUPP;
	}
	UNLOCK();
	return rc;
}

static uint64_t sim_now(void)
{
	uint64_t t;

	LOCK();
	t = sim__now();
	UNLOCK();
	return t;
}

const struct pmc_backend_ops pmc_backend_sim = {
	.name = "sim",
	.init = sim_init,
	.fini = sim_fini,
	.cpu_check = sim_cpu_check,
	.target_check = sim_target_check,
	.open = sim_open,
	.close = sim_close,
	.enable = sim_enable,
	.disable = sim_disable,
	.reset = sim_reset,
	.read = sim_read,
	.set_period = sim_set_period,
	.id = sim_id,
	.attr = sim_attr,
	.ring_map = sim_ring_map,
	.ring_unmap = sim_ring_unmap,
	.ring_redirect = sim_ring_redirect,
	.ring_wait = sim_ring_wait,
	.user_page = sim_user_page,
	.rdpmc_read = sim_rdpmc_read,
	.spawn = sim_spawn,
	.spawn_go = sim_spawn_go,
	.spawn_kill = sim_spawn_kill,
	.spawn_wait = sim_spawn_wait,
	.now = sim_now,
};
