/*
 * events.c — the perf-core half of the simulated kernel: counters attached
 * to tasks or CPUs, saved and restored on context switches (64-bit virtual
 * counts per task), inherited by children, scheduled as perf does (pinned
 * before flexible, CPU context before task context), multiplexed when more
 * are active than the PMU has counters (times enabled/running, per-context
 * rotation at each tick), frequency-mode retuning and throttling, what the
 * arm64 driver refuses at open, enable-on-exec, and the software events.
 *
 * What goes on a hardware counter is an attachment (struct sim_att): one per
 * (counter, task) like the kernel's child events, or one per CPU for system
 * mode.  The driver (driver.c) owns the hardware; this file decides what is
 * scheduled where.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/armv8.h"
#include "common/error.h"
#include "common/grow.h"
#include "backend/sim/sim.h"

#define SLOT_SW 100    /* att->slot of a running software counter */


#define SAMPLE_OK (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		   PERF_SAMPLE_ADDR | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | \
		   PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
		   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_IDENTIFIER)
#define READ_OK   (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
		   PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST)

static int map_event(const struct perf_event_attr *a, enum sim_evkind *kind, unsigned *evt)
{
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		/* as the kernel's driver maps it: the architectural event, if
		 * this machine implements it (PMCEID) */
		if (pmc__armv8_of_generic(a->config, evt) == 0 && pmuv3__implements(*evt)) {
			*kind = EV_HW;
			return 0;
		}
		pmc__set_reason("the simulated ARMv8 PMU has no event for generic hardware "
				"event %llu (it models cycles, instructions, cache-references, "
				"cache-misses, branches, branch-misses)",
				(unsigned long long)a->config);
		return -EOPNOTSUPP;
	case PERF_TYPE_RAW:
		if (a->config > 0xffff) {
			pmc__set_reason("ARMv8 event numbers are 16 bits (got 0x%llx)",
					(unsigned long long)a->config);
			return -EINVAL;
		}
		*kind = EV_HW;
		*evt = (unsigned)a->config;
		return 0;
	case PERF_TYPE_HW_CACHE: {
		uint64_t cache = a->config & 0xff, op = (a->config >> 8) & 0xff,
			 res = (a->config >> 16) & 0xff;

		if (cache == PERF_COUNT_HW_CACHE_L1D && op == PERF_COUNT_HW_CACHE_OP_READ) {
			*kind = EV_HW;
			*evt = res == PERF_COUNT_HW_CACHE_RESULT_MISS ? ARMV8_EV_L1D_CACHE_REFILL
								       : ARMV8_EV_L1D_CACHE;
			return 0;
		}
		pmc__set_reason("the simulated PMU models only L1-dcache-loads and "
				"L1-dcache-load-misses among cache events");
		return -EOPNOTSUPP;
	}
	case PERF_TYPE_SOFTWARE:
		switch (a->config) {
		case PERF_COUNT_SW_CPU_CLOCK:
		case PERF_COUNT_SW_TASK_CLOCK:
		case PERF_COUNT_SW_CONTEXT_SWITCHES:
		case PERF_COUNT_SW_CPU_MIGRATIONS:
		case PERF_COUNT_SW_PAGE_FAULTS:
		case PERF_COUNT_SW_DUMMY:
			*kind = EV_SW;
			*evt = (unsigned)a->config;
			return 0;
		}
		pmc__set_reason("the sim backend does not simulate software event %llu",
				(unsigned long long)a->config);
		return -EOPNOTSUPP;
	default:
		pmc__set_reason("the sim backend has no PMU of type %u (only the ARMv8 "
				"core PMU and software events)", a->type);
		return -ENOENT;
	}
}

static void remove_ptr(struct sim_att **v, int *n, struct sim_att *a)
{
	for (int i = 0; i < *n; i++)
		if (v[i] == a) {
			memmove(&v[i], &v[i + 1], (size_t)(*n - i - 1) * sizeof(*v));
			(*n)--;
			return;
		}
}

static uint64_t cpu_time(struct sim_cpu *c)
{
	uint64_t g;

	if (c->cur)
		return c->now;
	g = sim__now();
	return g > c->now ? g : c->now;
}

static uint64_t att_now(struct sim_att *a)
{
	if (a->task)
		return a->active && a->cpu >= 0 ? sim.cpus[a->cpu].now : a->tstamp;
	return cpu_time(&sim.cpus[a->cpu]);
}

static int is_clock(const struct pmc_bctr *e)
{
	return e->kind == EV_SW && (e->evt == PERF_COUNT_SW_CPU_CLOCK ||
				    e->evt == PERF_COUNT_SW_TASK_CLOCK);
}

void sim__att_times(struct sim_att *a, uint64_t now)
{
	uint64_t d = now > a->tstamp ? now - a->tstamp : 0;

	if (d && !a->dead && a->active && a->ev->enabled && !a->ev->leader->error &&
	    (a->ev->leader == a->ev || a->ev->leader->enabled)) {
		a->enabled += d;
		if (a->slot >= 0) {
			a->running += d;
			if (is_clock(a->ev))
				a->count += d;
		}
	}
	if (now > a->tstamp)
		a->tstamp = now;
}

static struct sim_att *att_new(struct pmc_bctr *e, struct sim_task *t, int cpu)
{
	struct sim_att *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	if (GROW(e->atts, e->natts, e->capatts) < 0)
		goto fail;
	if (t ? GROW(t->atts, t->natts, t->capatts) < 0
	      : GROW(sim.cpus[cpu].catts, sim.cpus[cpu].ncatts, sim.cpus[cpu].capcatts) < 0)
		goto fail;
	a->ev = e;
	a->task = t;
	a->slot = -1;
	a->cpu = t ? -1 : cpu;
	a->active = t == NULL;
	a->period_left = (int64_t)e->period;
	a->sample_period = e->period;
	a->last_period = e->period;
	a->gidx = ++sim.next_gidx;
	a->tstamp = t ? 0 : cpu_time(&sim.cpus[cpu]);
	e->atts[e->natts++] = a;
	if (t)
		t->atts[t->natts++] = a;
	else
		sim.cpus[cpu].catts[sim.cpus[cpu].ncatts++] = a;
	return a;
fail:
	free(a);
	return NULL;
}

/* The attachment of e on the same context as a (group siblings). */
struct sim_att *sim__att_peer(struct pmc_bctr *e, const struct sim_att *a)
{
	for (int i = 0; i < e->natts; i++)
		if (e->atts[i]->task == a->task &&
		    (a->task || e->atts[i]->cpu == a->cpu))
			return e->atts[i];
	return NULL;
}

/* ---- scheduling onto the PMU --------------------------------------------- */

static void att_out(struct sim_cpu *c, struct sim_att *a)
{
	if (!a->active || a->cpu != c->id)
		return;
	sim__att_times(a, c->now);
	if (a->slot >= 0 && a->slot < SIM_NSLOTS)
		sim__drv_del(c, a);
	a->slot = -1;
	if (a->task) {
		a->active = 0;
		a->cpu = -1;
	}
	sim__userpage_update(a->ev);
}

void sim__sched_out(struct sim_cpu *c)
{
	for (int i = 0; i < c->ncatts; i++)
		att_out(c, c->catts[i]);
	if (c->cur)
		for (int i = 0; i < c->cur->natts; i++)
			att_out(c, c->cur->atts[i]);
}

/* Place one group (leader att u): all its enabled members or none.
 * Returns 1 if it has hardware members that did not get counters. */
static int place_group(struct sim_cpu *c, struct sim_att *u, int *can_add)
{
	struct pmc_bctr *ld = u->ev;
	struct sim_att *hw[64];
	int nhw = 0, used;

	/* context in: times start accruing (enabled, not yet running) */
	for (int i = -1; i < ld->nsibs; i++) {
		struct sim_att *m = i < 0 ? u : sim__att_peer(ld->sibs[i], u);

		if (!m || m->dead)
			continue;
		sim__att_times(m, c->now);
		m->active = 1;
		m->cpu = c->id;
		if (!ld->enabled || ld->error || !m->ev->enabled)
			continue;
		if (m->ev->kind == EV_SW)
			m->slot = SLOT_SW;
		else if (nhw < 64)
			hw[nhw++] = m;
	}
	if (!nhw || !ld->enabled || ld->error)
		return 0;
	/* group_can_go_on: after a group failed, no other hardware group of
	 * this pass is tried (perf's merge_sched_in) */
	if (!*can_add || !sim__drv_fits(c, hw, nhw, &used)) {
		*can_add = 0;
		return 1;
	}
	for (int i = 0; i < nhw; i++)
		sim__drv_add(c, hw[i], -1);
	return 0;
}

static int unit_pinned(const struct sim_att *u)
{
	return u->ev->attr.pinned;
}

/* The group leaders of one context (the CPU's, or the running task's
 * events for this CPU), pinned or flexible, in group order (gidx). */
static int ctx_units(struct sim_cpu *c, int task_ctx, int pinned, struct sim_att **out)
{
	struct sim_att **v = task_ctx ? (c->cur ? c->cur->atts : NULL) : c->catts;
	int nv = task_ctx ? (c->cur ? c->cur->natts : 0) : c->ncatts, n = 0;

	for (int i = 0; i < nv; i++) {
		struct sim_att *a = v[i];

		if (a->ev->leader != a->ev || a->dead || unit_pinned(a) != pinned)
			continue;
		if (task_ctx && a->ev->cpu >= 0 && a->ev->cpu != c->id)
			continue;
		out[n++] = a;
	}
	for (int i = 1; i < n; i++)             /* insertion sort by gidx */
		for (int j = i; j > 0 && out[j - 1]->gidx > out[j]->gidx; j--) {
			struct sim_att *t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

/*
 * perf_event_sched_in: CPU pinned, task pinned, CPU flexible, task
 * flexible; each pass with its own can_add_hw.  A pinned group that does
 * not fit goes to the ERROR state (counts nothing until enabled again); a
 * flexible one that does not fit marks its context for rotation.
 */
void sim__sched_in(struct sim_cpu *c)
{
	struct sim_att **units;
	int cap = c->ncatts + (c->cur ? c->cur->natts : 0);

	c->rotate_needed = 0;
	if (c->cur)
		c->cur->rotate_needed = 0;
	if (!cap) {
		sim__drv_user_access(c);
		return;
	}
	units = malloc((size_t)cap * sizeof(*units));
	if (!units)
		return;
	for (int pass = 0; pass < 4; pass++) {
		int pinned = pass < 2, task_ctx = pass & 1, can_add = 1, failed = 0;
		int n = ctx_units(c, task_ctx, pinned, units);

		for (int i = 0; i < n; i++) {
			if (!place_group(c, units[i], &can_add))
				continue;
			if (pinned)
				units[i]->ev->error = 1;
			else
				failed = 1;
		}
		if (failed && task_ctx)
			c->cur->rotate_needed = 1;
		else if (failed)
			c->rotate_needed = 1;
		for (int i = 0; i < n; i++) {
			struct pmc_bctr *ld = units[i]->ev;

			sim__userpage_update(ld);
			for (int j = 0; j < ld->nsibs; j++)
				sim__userpage_update(ld->sibs[j]);
		}
	}
	free(units);
	sim__drv_user_access(c);
}

/* ctx_event_to_rotate + rotate_ctx: the first flexible group on the PMU (or
 * the first one) moves to the end of its context's order. */
static int rotate_ctx(struct sim_cpu *c, int task_ctx)
{
	int cap = task_ctx ? c->cur->natts : c->ncatts, n, pick = -1;
	struct sim_att **units;

	if (!cap || !(units = malloc((size_t)cap * sizeof(*units))))
		return 0;
	n = ctx_units(c, task_ctx, 0, units);
	for (int i = 0; i < n && pick < 0; i++) {
		struct pmc_bctr *ld = units[i]->ev;

		for (int j = -1; j < ld->nsibs; j++) {
			struct sim_att *m = j < 0 ? units[i] : sim__att_peer(ld->sibs[j], units[i]);

			if (m && m->slot >= 0 && m->slot < SIM_NSLOTS) {
				pick = i;
				break;
			}
		}
	}
	if (pick < 0 && n)
		pick = 0;
	if (pick >= 0)
		units[pick]->gidx = ++sim.next_gidx;
	free(units);
	return pick >= 0;
}

/* ---- frequency mode, throttling, the tick (kernel/events/core.c) ------------ */

/* perf_calculate_period: the period that gives sample_freq samples per
 * second if count events happened in nsec. */
static uint64_t calc_period(const struct pmc_bctr *e, uint64_t nsec, uint64_t count)
{
	unsigned __int128 num = (unsigned __int128)count * 1000000000ull,
			  den = (unsigned __int128)nsec * e->attr.sample_freq;

	if (!nsec || !count || !den)
		return 0;
	num /= den;
	return num > INT64_MAX ? INT64_MAX : (uint64_t)num;
}

/* perf_adjust_period: move sample_period 1/8 of the way to the target;
 * if much more than that is left to count, restart with the new period. */
static void adjust_period(struct sim_cpu *c, struct sim_att *a, uint64_t nsec,
			  uint64_t count, int reload)
{
	int64_t period = (int64_t)calc_period(a->ev, nsec, count);
	int64_t delta = period - (int64_t)a->sample_period, sp;

	delta = (delta >= 0 ? delta + 7 : delta - 7) / 8;    /* low-pass filter */
	sp = (int64_t)a->sample_period + delta;
	if (sp <= 0)
		sp = 1;
	a->sample_period = (uint64_t)sp;
	if (a->period_left > 8 * sp) {
		int on = reload && a->slot >= 0 && a->slot < SIM_NSLOTS;

		if (on)
			sim__drv_update(c, a);
		a->period_left = 0;
		if (on)
			sim__drv_set_period(c, a);
	}
}

uint64_t sim__max_samples_per_tick(void)
{
	uint64_t hz = 1000000000ull / sim.cfg.slice_ns;

	if (!hz)
		hz = 1;
	return (sim.cfg.max_sample_rate + hz - 1) / hz;
}

/*
 * perf_event_overflow for a period that elapsed: throttling
 * (__perf_event_account_interrupt), frequency retuning, the sample.
 * Returns 1 if the event is now throttled: the driver stops its counter.
 */
int sim__ev_overflow(struct sim_cpu *c, struct sim_att *a, uint64_t period,
		     uint64_t ip, int el)
{
	struct pmc_bctr *e = a->ev;
	int ret = 0;

	if (sim.cfg.max_sample_rate && ++a->interrupts >= sim__max_samples_per_tick() &&
	    !a->throttled) {
		a->throttled = 1;
		sim__out_throttle(c, a, 0);
		ret = 1;
	}
	if (e->attr.freq) {
		/* the first interrupt has no previous one (the kernel's stamp is
		 * 0, far more than 2 ticks before any perf_clock()) */
		uint64_t now = c->now, prev = a->freq_time_stamp;

		a->freq_time_stamp = now;
		if (prev && now > prev && now - prev < 2 * sim.cfg.slice_ns)
			adjust_period(c, a, now - prev, a->last_period, 1);
	}
	e->nsamples++;
	sim__out_sample(c, a, period, ip, el);
	return ret;
}

static void tick_ctx(struct sim_cpu *c, struct sim_att **v, int n)
{
	for (int i = 0; i < n; i++) {
		struct sim_att *a = v[i];
		uint64_t delta;

		if (a->dead || a->cpu != c->id || a->slot < 0 || a->slot >= SIM_NSLOTS)
			continue;
		a->interrupts = 0;                 /* perf_throttled_seq moves on */
		if (a->throttled) {
			a->throttled = 0;
			sim__out_throttle(c, a, 1);
			if (!a->ev->attr.freq)
				sim__drv_restart(c, a);
		}
		if (!a->ev->attr.freq || a->ev->kind != EV_HW)
			continue;
		sim__drv_update(c, a);
		delta = a->count - a->freq_count_stamp;
		a->freq_count_stamp = a->count;
		if (delta > 0)
			adjust_period(c, a, sim.cfg.slice_ns, delta, 0);
		sim__drv_restart(c, a);
	}
}

/*
 * Linux's mux timer keeps firing while a CPU idles: its CPU context goes on
 * rotating.  An idle CPU takes no steps here, so its ticks up to `until`
 * are caught up when it next acts (picks a task) or its counters are read.
 */
void sim__cpu_idle_ticks(struct sim_cpu *c, uint64_t until)
{
	if (c->cur || !c->rotate_needed)
		return;
	while (c->slice_end <= c->now)
		c->slice_end += sim.cfg.slice_ns;
	while (c->rotate_needed && c->slice_end <= until) {
		c->now = c->slice_end;
		c->slice_end += sim.cfg.slice_ns;
		if (rotate_ctx(c, 0))
			sim__resched(c);
	}
}

void sim__ev_tick(struct sim_cpu *c)
{
	int rot = 0;

	/* perf_adjust_freq_unthr_context: the CPU's and the running task's */
	tick_ctx(c, c->catts, c->ncatts);
	if (c->cur)
		tick_ctx(c, c->cur->atts, c->cur->natts);
	/* perf_rotate_context */
	if (c->rotate_needed)
		rot |= rotate_ctx(c, 0);
	if (c->cur && c->cur->rotate_needed)
		rot |= rotate_ctx(c, 1);
	if (rot)
		sim__resched(c);
}

void sim__resched(struct sim_cpu *c)
{
	sim__sched_out(c);
	sim__sched_in(c);
}

static void resched_all(void)
{
	for (int i = 0; i < sim.cfg.ncpu; i++)
		sim__resched(&sim.cpus[i]);
}

/* ---- open / close ----------------------------------------------------------- */

int sim__ev_open(const struct perf_event_attr *attr, pid_t pid, int cpu,
		 struct pmc_bctr *leader, unsigned flags, struct pmc_bctr **out)
{
	struct pmc_bctr *e;
	struct sim_task *t = NULL;
	enum sim_evkind kind;
	unsigned evt;
	int rc;

	rc = map_event(attr, &kind, &evt);
	if (rc)
		return rc;
	if (attr->sample_type & ~(uint64_t)SAMPLE_OK) {
		pmc__set_reason("the sim backend does not produce sample_type bits 0x%llx",
				(unsigned long long)(attr->sample_type & ~(uint64_t)SAMPLE_OK));
		return -EINVAL;
	}
	if (attr->read_format & ~(uint64_t)READ_OK) {
		pmc__set_reason("unsupported read_format bits 0x%llx",
				(unsigned long long)(attr->read_format & ~(uint64_t)READ_OK));
		return -EINVAL;
	}
	if (attr->freq && attr->sample_freq == 0) {
		pmc__set_reason("sampling frequency 0");
		return -EINVAL;
	}
	if (kind == EV_SW && attr->sample_period && evt != PERF_COUNT_SW_DUMMY) {
		pmc__set_reason("the sim backend samples only hardware events; use cycles");
		return -EOPNOTSUPP;
	}
	if (pid < 0 && cpu < 0) {
		pmc__set_reason("pid -1 needs a CPU");
		return -EINVAL;
	}
	if (kind == EV_HW) {
		/* the arm64 driver's refusals (arm_pmuv3.c) */
		if (evt == ARMV8_EV_CHAIN) {
			pmc__set_reason("the ARMv8 CHAIN event (0x1e) only works paired with an "
					"adjacent counter; it cannot be opened on its own");
			return -EINVAL;
		}
		if (attr->exclude_idle) {
			pmc__set_reason("ARMv8 PMU counters cannot exclude idle (the :I modifier)");
			return -EPERM;
		}
		if ((attr->config1 & 2) && pid < 0) {
			pmc__set_reason("user-space counter reads (config1 bit 1, rdpmc) are "
					"only for events bound to a task");
			return -EINVAL;
		}
	}
	if (cpu >= sim.cfg.ncpu || cpu < -1) {
		pmc__set_reason("CPU %d does not exist (the simulated machine has %d)",
				cpu, sim.cfg.ncpu);
		return -ENXIO;
	}
	if (pid == 0) {
		t = sim__self();
		if (!t)
			return -ENOMEM;
	} else if (pid > 0) {
		t = sim__task(pid);
		if (!t || t->state == T_DEAD) {
			pmc__set_reason("no simulated task %d", (int)pid);
			return -ESRCH;
		}
	}
	if (leader) {
		if (leader->leader != leader || leader->pid != pid || leader->cpu != cpu) {
			pmc__set_reason("a group member must have the leader's target");
			return -EINVAL;
		}
		if (leader->nsibs >= 63) {
			pmc__set_reason("group too large");
			return -EINVAL;
		}
	}
	if (kind == EV_HW) {
		/* validate_group: the group with this event must fit on the PMU */
		struct pmc_bctr *g[65], probe;
		int ng = 0;

		memset(&probe, 0, sizeof(probe));
		probe.attr = *attr;
		probe.kind = kind;
		probe.evt = evt;
		if (leader) {
			g[ng++] = leader;
			for (int i = 0; i < leader->nsibs; i++)
				g[ng++] = leader->sibs[i];
		}
		g[ng++] = &probe;
		if (!sim__drv_validate(g, ng)) {
			pmc__set_reason("%s: the PMU has %u event counters, plus a cycle counter "
					"only for CPU_CYCLES%s",
					leader ? "the group can never be on the PMU at once" :
					"no counter can ever take this event", sim.cfg.pmu.n,
					sim.cfg.pmu.icntr ? " and an instruction counter only for "
					"INST_RETIRED" : "");
			return -EINVAL;
		}
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->id = sim.next_id++;
	e->attr = *attr;
	e->pid = pid;
	e->cpu = cpu;
	e->flags = flags;
	e->kind = kind;
	e->evt = evt;
	e->leader = leader ? leader : e;
	e->exec_enable = (flags & PMC_BOPEN_ENABLE_EXEC) || attr->enable_on_exec;
	e->enabled = !attr->disabled && !e->exec_enable;
	if (attr->freq) {
		e->period = 1;         /* perf_event_alloc: frequency mode starts at 1 */
	} else {
		e->period = attr->sample_period;
	}
	if (leader) {
		if (GROW(leader->sibs, leader->nsibs, leader->capsibs) < 0) {
			free(e);
			return -ENOMEM;
		}
		leader->sibs[leader->nsibs++] = e;
	}
	if (!att_new(e, t, cpu)) {
		if (leader)
			leader->nsibs--;
		free(e->atts);
		free(e);
		return -ENOMEM;
	}
	/* inherit also follows children of the target that exist already?  No:
	 * like perf, only children created after the open. */
	e->next = sim.events;
	sim.events = e;
	resched_all();
	*out = e;
	return 0;
}

void sim__ev_close(struct pmc_bctr *e)
{
	struct pmc_bctr **pp;

	for (int i = 0; i < e->natts; i++) {
		struct sim_att *a = e->atts[i];

		if (a->slot >= 0 && a->slot < SIM_NSLOTS && a->cpu >= 0)
			sim__drv_del(&sim.cpus[a->cpu], a);
		if (a->task)
			remove_ptr(a->task->atts, &a->task->natts, a);
		else
			remove_ptr(sim.cpus[a->cpu].catts, &sim.cpus[a->cpu].ncatts, a);
		free(a);
	}
	free(e->atts);
	e->atts = NULL;
	e->natts = 0;
	if (e->leader != e) {
		struct pmc_bctr *ld = e->leader;

		for (int i = 0; i < ld->nsibs; i++)
			if (ld->sibs[i] == e) {
				memmove(&ld->sibs[i], &ld->sibs[i + 1],
					(size_t)(ld->nsibs - i - 1) * sizeof(e));
				ld->nsibs--;
				break;
			}
	}
	for (int i = 0; i < e->nsibs; i++)
		e->sibs[i]->leader = e->sibs[i];     /* promoted to singletons */
	free(e->sibs);
	for (pp = &sim.events; *pp; pp = &(*pp)->next)
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	/* counters redirected into e's ring keep it alive */
	if (e->rb && --e->rb->refs == 0)
		sim__ring_free(e->rb);
	else if (e->rb && e->rb->owner == e)
		e->rb->owner = NULL;
	free(e->upage);
	free(e);
	if (sim.inited)
		resched_all();
}

void sim__ev_enable(struct pmc_bctr *e, int on)
{
	for (int i = 0; i < e->natts; i++)
		sim__att_times(e->atts[i], att_now(e->atts[i]));
	e->enabled = on;
	if (on) {
		e->exec_enable = 0;
		e->error = 0;          /* ERROR -> INACTIVE: try again */
	}
	resched_all();
	sim__userpage_update(e);
}

static void att_sync(struct sim_att *a)
{
	if (!a->task)
		sim__cpu_idle_ticks(&sim.cpus[a->cpu], cpu_time(&sim.cpus[a->cpu]));
	if (a->slot >= 0 && a->slot < SIM_NSLOTS && a->cpu >= 0)
		sim__drv_update(&sim.cpus[a->cpu], a);
	sim__att_times(a, att_now(a));
}

void sim__ev_reset(struct pmc_bctr *e)
{
	for (int i = 0; i < e->natts; i++) {
		att_sync(e->atts[i]);
		e->atts[i]->count = 0;
	}
	sim__userpage_update(e);
}

void sim__att_read(struct sim_att *a, struct pmc_bcount *v)
{
	att_sync(a);
	v->value = a->count;
	v->enabled = a->enabled;
	v->running = a->running;
}

void sim__ev_read(struct pmc_bctr *e, struct pmc_bcount *v)
{
	memset(v, 0, sizeof(*v));
	for (int i = 0; i < e->natts; i++) {
		struct pmc_bcount x;

		sim__att_read(e->atts[i], &x);
		v->value += x.value;
		v->enabled += x.enabled;
		v->running += x.running;
	}
}

int sim__ev_task_count(struct pmc_bctr *e, pid_t pid, uint64_t *value)
{
	int found = 0;

	*value = 0;
	for (int i = 0; i < e->natts; i++) {
		struct sim_att *a = e->atts[i];

		if (a->task && a->task->pid == pid) {
			att_sync(a);
			*value += a->count;
			found = 1;
		}
	}
	return found ? 0 : -ESRCH;
}

/* ---- task lifecycle hooks ---------------------------------------------------- */

static int inherits(const struct pmc_bctr *e)
{
	return (e->flags & PMC_BOPEN_INHERIT) || e->attr.inherit;
}

void sim__task_attach_inherited(struct sim_task *parent, struct sim_task *child)
{
	int n = parent->natts;

	for (int i = 0; i < n; i++) {
		struct sim_att *a = parent->atts[i], *ca;

		if (a->dead || !inherits(a->ev) || !(ca = att_new(a->ev, child, -1)))
			continue;
		if (a->ev->attr.freq) {
			/* inherit_event: the child starts at the parent's period */
			ca->sample_period = a->sample_period;
			ca->last_period = a->sample_period;
			ca->period_left = (int64_t)a->sample_period;
		}
	}
}

void sim__task_exec(struct sim_task *t)
{
	for (int i = 0; i < t->natts; i++) {
		struct pmc_bctr *e = t->atts[i]->ev;

		/* as an enable: its times, and onto the PMU now if the task
		 * runs (a launcher execs on a CPU) */
		if (e->exec_enable)
			sim__ev_enable(e, 1);
	}
}

void sim__task_exit(struct sim_task *t)
{
	for (int i = 0; i < t->natts; i++) {
		struct sim_att *a = t->atts[i];

		if (a->dead)
			continue;
		att_sync(a);
		if (a->ev->attr.inherit_stat)
			sim__out_read(a);
	}
	sim__out_fork(t, 1);
	for (int i = 0; i < t->natts; i++)
		t->atts[i]->dead = 1;
}

void sim__sw_event(struct sim_task *t, int cpu, unsigned swev, uint64_t n)
{
	for (int i = 0; i < t->natts; i++) {
		struct sim_att *a = t->atts[i];

		if (!a->dead && a->ev->kind == EV_SW && a->ev->evt == swev && a->ev->enabled &&
		    (a->ev->cpu < 0 || a->ev->cpu == cpu))
			a->count += n;
	}
	if (cpu >= 0)
		for (int i = 0; i < sim.cpus[cpu].ncatts; i++) {
			struct sim_att *a = sim.cpus[cpu].catts[i];

			if (a->ev->kind == EV_SW && a->ev->evt == swev && a->ev->enabled)
				a->count += n;
		}
}
