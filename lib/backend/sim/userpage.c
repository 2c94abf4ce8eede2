/*
 * userpage.c — the sim's side of the perf_event_mmap_page control page:
 * the writer (sim__userpage_update, perf_event_update_userpage's
 * equivalent) and the EL0 counter read behind rdpmc_read.  The reader is
 * libpmc's, in lib/common/userpage.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sim/sim.h"

/* capabilities bits (the bitfield's layout in perf_event.h) */
#define CAP_USER_RDPMC     (1ull << 2)
#define CAP_USER_TIME      (1ull << 3)
#define CAP_USER_TIME_ZERO (1ull << 4)
#define CAP_BIT0_DEPRECATED (1ull << 1)

/* ---- the sim's writer ------------------------------------------------------ */

#define SIM_TIME_SHIFT 16

struct perf_event_mmap_page *sim__userpage(struct pmc_bctr *e)
{
	if (e->own_rb)
		return e->own_rb->page;
	if (!e->upage) {
		e->upage = aligned_alloc(SIM_PAGE_SIZE, SIM_PAGE_SIZE);
		if (!e->upage)
			return NULL;
		memset(e->upage, 0, SIM_PAGE_SIZE);
	}
	return e->upage;
}

void sim__userpage_update(struct pmc_bctr *e)
{
	struct perf_event_mmap_page *pc = e->own_rb ? e->own_rb->page : e->upage;
	struct sim_att *a = e->natts ? e->atts[0] : NULL;
	int on;
	uint64_t caps = CAP_BIT0_DEPRECATED | CAP_USER_TIME_ZERO;

	if (!pc)
		return;
	on = a && a->active && !a->dead && a->slot >= 0 && a->slot < SIM_NSLOTS &&
	     e->kind == EV_HW;
	__atomic_fetch_add(&pc->lock, 1, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* arm64 (armv8pmu_user_event_idx, arch_perf_update_userpage): only
	 * events that asked for EL0 reads (config1:1, task-bound) say
	 * cap_user_rdpmc, and their index is 0 unless kernel.perf_user_access
	 * is 1: everything else is read with read(2). */
	if (sim__want_user_access(e))
		caps |= CAP_USER_RDPMC;
	if (on) {
		pc->index = sim.cfg.user_access && sim__want_user_access(e) ?
			    (uint32_t)a->slot + 1 : 0;
		pc->offset = (int64_t)(pc->index ? a->count - a->prev : a->count);
		pc->pmc_width = (uint16_t)sim__drv_width(&sim.cpus[a->cpu], a->slot);
	} else {
		pc->index = 0;
		pc->offset = a ? (int64_t)a->count : 0;
		pc->pmc_width = 0;
	}
	if (a && a->active && !a->dead)
		caps |= CAP_USER_TIME;
	pc->time_enabled = a ? a->enabled : 0;
	pc->time_running = a ? a->running : 0;
	pc->time_shift = SIM_TIME_SHIFT;
	pc->time_mult = 1u << SIM_TIME_SHIFT;        /* the sim timer ticks in ns */
	pc->time_offset = a ? (uint64_t)0 - a->tstamp : 0;
	pc->time_zero = 0;
	pc->capabilities = caps;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_fetch_add(&pc->lock, 1, __ATOMIC_SEQ_CST);
}

uint64_t sim__rdpmc(struct pmc_bctr *e, uint32_t idx)
{
	struct sim_att *a = e->natts ? e->atts[0] : NULL;
	struct sim_cpu *c;
	unsigned reg;
	uint64_t v = 0;

	if (idx == PMC_USERPAGE_TIMER) {
		if (a && a->task && a->active && a->cpu >= 0)
			return sim.cpus[a->cpu].now;
		if (a && !a->task)
			return sim.cpus[a->cpu].cur ? sim.cpus[a->cpu].now : sim__now();
		return sim__now();
	}
	if (!a || a->cpu < 0 || idx >= SIM_NSLOTS)
		return 0;
	c = &sim.cpus[a->cpu];
	reg = idx == PMUV3_IDX_CYCLE ? PMUV3_PMCCNTR :
	      idx == PMUV3_IDX_INSTR ? PMUV3_PMICNTR : PMUV3_PMEVCNTR(idx);
	if (pmuv3__mrs(&c->pmu, reg, 0, &v) != PMUV3_OK)
		return 0;        /* would be SIGILL at EL0 */
	return v;
}
