/*
 * driver.c — the PMU driver half, as in hwpmc's arm64 class and Linux's
 * arm_pmuv3.c: it touches the PMU only through MRS/MSR (pmuv3__mrs/msr at
 * EL1), allocates counters, extends narrow counters to 64-bit virtual
 * counts, reloads sampling counters and handles the overflow interrupt.
 *
 * 64-bit extension.  A counter's virtual count advances by
 *     delta = (now - prev) mod 2^width
 * where prev is the value at the previous update (kept sign-extended, so
 * the user page's offset is right, see userpage.c).  Nothing counts overflow
 * flags, so an overflow can be neither lost nor counted twice as long as the
 * counter is updated at least once per 2^width events: every counter, even a
 * counting one, is loaded with -(2^(width-1)) at most and has its interrupt
 * enabled, so the interrupt guarantees that.
 *
 * The interrupt handler reads PMOVSCLR_EL0, writes back exactly the bits it
 * read (an overflow that arrives after the read keeps its flag, keeps the
 * interrupt line high, and is handled by the next pass), stops the PMU while
 * it folds and reloads the counters, and emits a sample for each sampling
 * counter whose period elapsed.
 */
#include <stdint.h>

#include "backend/sim/sim.h"

static void write_counter(struct sim_cpu *c, int s, uint64_t v);

static uint64_t rd(struct sim_cpu *c, unsigned reg)
{
	uint64_t v = 0;

	pmuv3__mrs(&c->pmu, reg, 1, &v);
	return v;
}

static void wr(struct sim_cpu *c, unsigned reg, uint64_t v)
{
	pmuv3__msr(&c->pmu, reg, 1, v);
}

void sim__drv_reset(struct sim_cpu *c)
{
	uint64_t pmcr = PMCR_P | PMCR_C | PMCR_E;

	if (sim.cfg.lc)
		pmcr |= PMCR_LC;
	if (sim.cfg.lp && sim.cfg.pmu.p5)
		pmcr |= PMCR_LP;
	wr(c, PMUV3_PMCNTENCLR, ~0ull);
	wr(c, PMUV3_PMINTENCLR, ~0ull);
	wr(c, PMUV3_PMOVSCLR, ~0ull);
	wr(c, PMUV3_PMCR, pmcr);
	wr(c, PMUV3_PMUSERENR, 0);
}

/*
 * armv8pmu_start's user-access part: EL0 may read counters only while the
 * running task has events asking for it (config1:1) and the sysctl
 * kernel.perf_user_access is 1.  Then PMUSERENR_EL0 = ER|CR (with UEN on
 * PMUv3p9, where PMUACR_EL1 grants exactly those events' counters); without
 * PMUv3p9 every counter not in use is zeroed first, so EL0 cannot read
 * what other contexts counted.  Otherwise PMUSERENR_EL0 = 0.
 */
void sim__drv_user_access(struct sim_cpu *c)
{
	int nr_user = 0;

	if (c->cur)
		for (int i = 0; i < c->cur->natts; i++)
			if (!c->cur->atts[i]->dead && sim__want_user_access(c->cur->atts[i]->ev))
				nr_user++;
	if (!sim.cfg.user_access || !nr_user) {
		wr(c, PMUV3_PMUSERENR, 0);
		return;
	}
	if (c->pmu.cfg.p9) {
		uint64_t mask = 0;

		for (int s = 0; s < SIM_NSLOTS; s++)
			if (c->slot[s] && sim__want_user_access(c->slot[s]->ev))
				mask |= 1ull << s;
		wr(c, PMUV3_PMUACR, mask);
		wr(c, PMUV3_PMUSERENR, PMUSERENR_ER | PMUSERENR_CR | PMUSERENR_UEN);
		return;
	}
	for (unsigned s = 0; s < c->pmu.cfg.n; s++)
		if (!c->slot[s])
			write_counter(c, (int)s, 0);
	if (!c->slot[PMUV3_IDX_CYCLE])
		write_counter(c, PMUV3_IDX_CYCLE, 0);
	wr(c, PMUV3_PMUSERENR, PMUSERENR_ER | PMUSERENR_CR);
}

int sim__drv_width(struct sim_cpu *c, int slot)
{
	return pmuv3__ovf64(&c->pmu, (unsigned)slot) ? 64 : 32;
}

uint64_t sim__drv_maxperiod(struct sim_cpu *c, int slot)
{
	return sim__drv_width(c, slot) == 64 ? UINT64_MAX : 0xffffffffull;
}

static uint64_t read_counter(struct sim_cpu *c, int s)
{
	if (s == PMUV3_IDX_CYCLE)
		return rd(c, PMUV3_PMCCNTR);
	if (s == PMUV3_IDX_INSTR)
		return rd(c, PMUV3_PMICNTR);
	return rd(c, PMUV3_PMEVCNTR((unsigned)s));
}

static void write_counter(struct sim_cpu *c, int s, uint64_t v)
{
	if (s == PMUV3_IDX_CYCLE)
		wr(c, PMUV3_PMCCNTR, v);
	else if (s == PMUV3_IDX_INSTR)
		wr(c, PMUV3_PMICNTR, v);
	else
		wr(c, PMUV3_PMEVCNTR((unsigned)s), v);
}

static uint64_t occupied(const struct sim_cpu *c)
{
	uint64_t m = 0;

	for (int i = 0; i < SIM_NSLOTS; i++)
		if (c->slot[i])
			m |= 1ull << i;
	return m;
}

int sim__want_user_access(const struct pmc_bctr *e)
{
	return !!(e->attr.config1 & 2);          /* format "rdpmc": config1:1 */
}

/* armv8pmu_get_event_idx: CPU_CYCLES prefers the cycle counter,
 * INST_RETIRED the instruction counter (not for events read from EL0:
 * Linux never exposes PMICNTR_EL0 to user space), the rest the first free
 * event counter. */
static int alloc_slot(const struct pmuv3_config *cfg, const struct pmc_bctr *e, uint64_t taken)
{
	unsigned evt = e->evt;

	if (evt == ARMV8_EV_CPU_CYCLES && !(taken & (1ull << PMUV3_IDX_CYCLE)))
		return PMUV3_IDX_CYCLE;
	if (evt == ARMV8_EV_INST_RETIRED && cfg->icntr && !sim__want_user_access(e) &&
	    !(taken & (1ull << PMUV3_IDX_INSTR)))
		return PMUV3_IDX_INSTR;
	for (unsigned i = 0; i < cfg->n; i++)
		if (!(taken & (1ull << i)))
			return (int)i;
	return -1;
}

int sim__drv_fits(struct sim_cpu *c, struct sim_att **as, int n, int *used)
{
	uint64_t taken = occupied(c);

	*used = 0;
	for (int i = 0; i < n; i++) {
		int s = alloc_slot(&c->pmu.cfg, as[i]->ev, taken);

		if (s < 0)
			return 0;
		taken |= 1ull << s;
		(*used)++;
	}
	return 1;
}

/* validate_group (arm_pmu.c): the group on an otherwise empty PMU. */
int sim__drv_validate(struct pmc_bctr **evs, int n)
{
	uint64_t taken = 0;

	for (int i = 0; i < n; i++) {
		int s;

		if (evs[i]->kind != EV_HW)
			continue;
		s = alloc_slot(&sim.cfg.pmu, evs[i], taken);
		if (s < 0)
			return 0;
		taken |= 1ull << s;
	}
	return 1;
}

int sim__drv_add(struct sim_cpu *c, struct sim_att *a, int slot_hint)
{
	const struct perf_event_attr *at = &a->ev->attr;
	uint64_t filt = (at->exclude_user ? PMEVTYPER_U : 0) |
			(at->exclude_kernel ? PMEVTYPER_P : 0);
	int s = slot_hint >= 0 ? slot_hint : alloc_slot(&c->pmu.cfg, a->ev, occupied(c));

	if (s < 0)
		return -1;
	if (s == PMUV3_IDX_CYCLE) {
		wr(c, PMUV3_PMCCFILTR, filt);
	} else if (s == PMUV3_IDX_INSTR) {
		wr(c, PMUV3_PMICFILTR, filt);
	} else {
		/* through the selector, as the ARMv8.0 drivers do */
		wr(c, PMUV3_PMSELR, (uint64_t)s);
		wr(c, PMUV3_PMXEVTYPER, (a->ev->evt & PMEVTYPER_EVTCOUNT) | filt);
	}
	c->slot[s] = a;
	a->slot = s;
	a->cpu = c->id;
	if (a->throttled) {                       /* event_sched_in unthrottles */
		a->throttled = 0;
		sim__out_throttle(c, a, 1);
	}
	a->interrupts = 0;                        /* a new perf_throttled_seq */
	sim__drv_set_period(c, a);
	wr(c, PMUV3_PMINTENSET, 1ull << s);
	wr(c, PMUV3_PMCNTENSET, 1ull << s);
	return s;
}

static uint64_t sext(uint64_t v, int width)
{
	if (width >= 64)
		return v;
	return (uint64_t)((int64_t)(v << (64 - width)) >> (64 - width));
}

void sim__drv_update(struct sim_cpu *c, struct sim_att *a)
{
	int w = sim__drv_width(c, a->slot);
	uint64_t mask = w == 64 ? ~0ull : 0xffffffffull;
	uint64_t now = read_counter(c, a->slot) & mask;
	uint64_t delta = (now - a->prev) & mask;

	a->prev = sext(now, w);
	a->count += delta;
	a->period_left -= (int64_t)delta;
}

void sim__drv_del(struct sim_cpu *c, struct sim_att *a)
{
	int s = a->slot;
	uint64_t bit = 1ull << s;

	wr(c, PMUV3_PMCNTENCLR, bit);
	wr(c, PMUV3_PMINTENCLR, bit);
	sim__drv_update(c, a);
	wr(c, PMUV3_PMOVSCLR, bit);   /* the count is folded; drop a stale flag */
	c->slot[s] = NULL;
	a->slot = -1;
}

/*
 * armpmu_event_set_period: load -left; 1 if a period elapsed.  The period
 * itself is not limited by the counter's width (a 3e9 period on a 32-bit
 * counter is 3e9): only the value loaded is, to half the counter's range,
 * so a long period takes several overflows and the last one samples.
 */
int sim__drv_set_period(struct sim_cpu *c, struct sim_att *a)
{
	uint64_t maxp = sim__drv_maxperiod(c, a->slot);
	int64_t period, left = a->period_left;
	int ret = 0;

	if (a->ev->period && a->ev->kind == EV_HW)
		period = a->sample_period > INT64_MAX ? INT64_MAX : (int64_t)a->sample_period;
	else
		period = (int64_t)(maxp >> 1);
	if (left <= -period) {
		left = period;
		a->period_left = left;
		a->last_period = (uint64_t)period;
		ret = 1;
	}
	if (left <= 0) {
		left += period;
		a->period_left = left;
		a->last_period = (uint64_t)period;
		ret = 1;
	}
	if ((uint64_t)left > (maxp >> 1))
		left = (int64_t)(maxp >> 1);
	a->prev = (uint64_t)-left;
	write_counter(c, a->slot, (uint64_t)-left & maxp);
	return ret;
}

/* armpmu_start after a stop: reload the period and count again. */
void sim__drv_restart(struct sim_cpu *c, struct sim_att *a)
{
	uint64_t bit = 1ull << a->slot;

	sim__drv_set_period(c, a);
	if (!a->throttled) {
		wr(c, PMUV3_PMINTENSET, bit);
		wr(c, PMUV3_PMCNTENSET, bit);
	}
}

static void handle_once(struct sim_cpu *c)
{
	uint64_t ovs, pmcr;

	c->irqs++;
	c->in_irq = 1;
	ovs = rd(c, PMUV3_PMOVSCLR);
	/* clear exactly what we will handle */
	wr(c, PMUV3_PMOVSCLR, ovs);
	if (c->irq_hook)
		c->irq_hook(c, c->irq_hook_arg);      /* counting goes on here */
	pmcr = rd(c, PMUV3_PMCR);
	wr(c, PMUV3_PMCR, pmcr & ~PMCR_E);        /* stop while folding */
	for (int s = 0; s < SIM_NSLOTS; s++) {
		struct sim_att *a;
		uint64_t period, ip = 0;
		int el = 0;

		if (!(ovs & (1ull << s)))
			continue;
		a = c->slot[s];
		if (!a) {
			c->spurious++;
			continue;
		}
		sim__drv_update(c, a);
		period = a->last_period;        /* the period that elapsed */
		if (!sim__drv_set_period(c, a))
			continue;
		if (a->ev->period && a->ev->kind == EV_HW) {
			if (c->cur)
				ip = sim__task_ip(c->cur, &el);
			if (sim__ev_overflow(c, a, period, ip, el)) {
				/* throttled: armv8pmu_disable_event */
				wr(c, PMUV3_PMCNTENCLR, 1ull << s);
				wr(c, PMUV3_PMINTENCLR, 1ull << s);
				wr(c, PMUV3_PMOVSCLR, 1ull << s);
			}
		}
		sim__userpage_update(a->ev);
	}
	/* the naive variant (tests only) clears every flag when done: an
	 * overflow raised while the handler ran is then lost */
	if (c->naive_clear_all)
		wr(c, PMUV3_PMOVSCLR, ~0ull);
	wr(c, PMUV3_PMCR, pmcr | PMCR_E);
	c->in_irq = 0;
}

void sim__drv_irq(struct sim_cpu *c)
{
	/* the line is level-triggered: handle until it drops (bounded) */
	for (int i = 0; i < 16 && pmuv3__irq_line(&c->pmu); i++)
		handle_once(c);
}
