/*
 * pmuv3.c — the ARMv8 PMUv3 register model (see pmuv3.h for scope).
 *
 * Every architectural rule lives here and nowhere else: which bits exist,
 * which writes set or clear, which EL0 accesses trap, when a counter
 * overflows and when the interrupt line is raised.
 */
#include <string.h>

#include "backend/sim/pmuv3.h"

#define LO32 0xffffffffull

static unsigned nctr(const struct pmuv3 *p)
{
	return p->cfg.n < 31 ? p->cfg.n : 31;
}

static uint64_t evt_mask(const struct pmuv3 *p)
{
	return p->cfg.n ? ((1ull << p->cfg.n) - 1) : 0;
}

void pmuv3__init(struct pmuv3 *p, const struct pmuv3_config *cfg)
{
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	if (p->cfg.n > 31)
		p->cfg.n = 31;
	p->impl = evt_mask(p) | (1ull << PMUV3_IDX_CYCLE) |
		  (cfg->icntr ? 1ull << PMUV3_IDX_INSTR : 0);
}

static uint64_t pmcr_writable(const struct pmuv3 *p)
{
	return PMCR_E | PMCR_D | PMCR_X | PMCR_DP | PMCR_LC |
	       (p->cfg.p5 ? PMCR_LP : 0);
}

static uint64_t pmcr_read(const struct pmuv3 *p)
{
	return p->pmcr | ((uint64_t)p->cfg.n << PMCR_N_SHIFT) |
	       (PMUV3_IDCODE << PMCR_IDCODE_SHIFT) | (PMUV3_IMP << PMCR_IMP_SHIFT);
}

static void pmcr_write(struct pmuv3 *p, uint64_t v)
{
	if (v & PMCR_P)        /* event counters only: not PMCCNTR, not PMICNTR */
		memset(p->evcntr, 0, sizeof(p->evcntr));
	if (v & PMCR_C)
		p->ccntr = 0;
	p->pmcr = v & pmcr_writable(p);
}

/* PMCEID0/1: the common events this machine can count (pmuv3.h list). */
static uint64_t pmceid(int hi)
{
	static const unsigned evs[] = {
		ARMV8_EV_SW_INCR, ARMV8_EV_L1D_CACHE_REFILL, ARMV8_EV_L1D_CACHE,
		ARMV8_EV_INST_RETIRED, ARMV8_EV_BR_MIS_PRED, ARMV8_EV_CPU_CYCLES,
		ARMV8_EV_CHAIN, ARMV8_EV_BR_RETIRED, ARMV8_EV_BR_MIS_PRED_RETIRED,
	};
	uint64_t v = 0;

	for (unsigned i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		if ((evs[i] >= 32) == !!hi)
			v |= 1ull << (evs[i] & 31);
	return v;
}

int pmuv3__implements(unsigned evt)
{
	return evt < 64 && (pmceid(evt >= 32) >> (evt & 31)) & 1;
}

/*
 * EL0 access control.  Returns 1 if allowed, 0 if UNDEFINED; *acmask gets
 * the flag bits EL0 may see (all implemented ones but F0, or PMUACR_EL1's
 * with FEAT_PMUv3p9 UEN), the rest reading as zero and ignoring writes;
 * *wi is set when the access is allowed but a write is ignored.
 *
 * The instruction counter (PMICNTR_EL0, PMICFILTR_EL0, flag F0) is never
 * reachable through EN, ER or CR: only UEN with PMUACR_EL1.F0 grants it.
 * With UEN, ER, CR and IR make the event counters, the cycle counter and
 * the instruction counter read-only at EL0 (writes ignored) — how Linux
 * grants reads without writes on PMUv3p9.
 */
enum acc { ACC_READ, ACC_WRITE };

static int is_evcntr(unsigned reg)
{
	return (reg >= PMUV3_PMEVCNTR0 && reg < PMUV3_PMEVCNTR0 + 31) || reg == PMUV3_PMXEVCNTR;
}

static int el0_allowed(const struct pmuv3 *p, unsigned reg, enum acc a,
		       uint64_t *acmask, int *wi)
{
	uint64_t u = p->userenr, f0 = 1ull << PMUV3_IDX_INSTR;
	int en = !!(u & PMUSERENR_EN);
	int uen = p->cfg.p9 && (u & PMUSERENR_UEN);

	*wi = 0;
	*acmask = p->impl & ~f0;
	if (uen && (p->uacr & f0))
		*acmask |= f0;
	if (reg == PMUV3_PMINTENSET || reg == PMUV3_PMINTENCLR || reg == PMUV3_PMUACR)
		return 0;                          /* EL1 registers */
	if (reg == PMUV3_PMUSERENR)
		return a == ACC_READ;              /* EL0 may read, never write */
	if ((reg == PMUV3_PMCEID0 || reg == PMUV3_PMCEID1) && (u & PMUSERENR_TID))
		return 0;                          /* TID: ID registers trap */
	if (reg == PMUV3_PMICNTR || reg == PMUV3_PMICFILTR) {
		if (!uen || !(p->uacr & f0))
			return 0;
		*acmask = p->impl & p->uacr;
		*wi = a == ACC_WRITE && reg == PMUV3_PMICNTR && (u & PMUSERENR_IR);
		return 1;
	}
	if (uen && a == ACC_WRITE &&
	    ((is_evcntr(reg) && (u & PMUSERENR_ER)) ||
	     (reg == PMUV3_PMCCNTR && (u & PMUSERENR_CR))))
		*wi = 1;
	if (en)
		return 1;
	switch (reg) {
	case PMUV3_PMSWINC:
		if (a == ACC_WRITE && (u & PMUSERENR_SW))
			return 1;
		break;
	case PMUV3_PMCCNTR:
		if (a == ACC_READ && (u & PMUSERENR_CR))
			return 1;
		break;
	case PMUV3_PMXEVCNTR:
		if (a == ACC_READ && (u & PMUSERENR_ER))
			return 1;
		break;
	case PMUV3_PMSELR:
		if (u & PMUSERENR_ER)
			return 1;
		break;
	default:
		if (reg >= PMUV3_PMEVCNTR0 && reg < PMUV3_PMEVCNTR0 + 31 &&
		    a == ACC_READ && (u & PMUSERENR_ER))
			return 1;
		break;
	}
	if (uen) {
		/* FEAT_PMUv3p9: per-counter access through PMUACR_EL1;
		 * counters not granted are RAZ/WI rather than trapping. */
		switch (reg) {
		case PMUV3_PMCNTENSET: case PMUV3_PMCNTENCLR:
		case PMUV3_PMOVSSET: case PMUV3_PMOVSCLR:
		case PMUV3_PMCCNTR: case PMUV3_PMCCFILTR:
		case PMUV3_PMSWINC: case PMUV3_PMZR:
			*acmask = p->impl & p->uacr;
			return 1;
		default:
			if ((reg >= PMUV3_PMEVCNTR0 && reg < PMUV3_PMEVCNTR0 + 31) ||
			    (reg >= PMUV3_PMEVTYPER0 && reg < PMUV3_PMEVTYPER0 + 31)) {
				*acmask = p->impl & p->uacr;
				return 1;
			}
		}
	}
	return 0;
}

/* Counter index a register names (for per-counter access masks), or -1. */
static int reg_counter(const struct pmuv3 *p, unsigned reg)
{
	if (reg >= PMUV3_PMEVCNTR0 && reg < PMUV3_PMEVCNTR0 + 31)
		return (int)(reg - PMUV3_PMEVCNTR0);
	if (reg >= PMUV3_PMEVTYPER0 && reg < PMUV3_PMEVTYPER0 + 31)
		return (int)(reg - PMUV3_PMEVTYPER0);
	if (reg == PMUV3_PMCCNTR || reg == PMUV3_PMCCFILTR)
		return PMUV3_IDX_CYCLE;
	if (reg == PMUV3_PMICNTR || reg == PMUV3_PMICFILTR)
		return PMUV3_IDX_INSTR;
	if (reg == PMUV3_PMXEVCNTR || reg == PMUV3_PMXEVTYPER)
		return (int)(p->selr & 31);
	return -1;
}

static uint64_t evcntr_mask(const struct pmuv3 *p)
{
	return p->cfg.p5 ? ~0ull : LO32;
}

static int ev_exists(const struct pmuv3 *p, unsigned n)
{
	return n < p->cfg.n;
}

static uint64_t evtyper_mask(void)
{
	return PMEVTYPER_P | PMEVTYPER_U | PMEVTYPER_EVTCOUNT;
}

static uint64_t filter_mask(void)
{
	return PMEVTYPER_P | PMEVTYPER_U;
}

/* Registers of features not implemented are UNDEFINED (not RAZ/WI). */
static int reg_exists(const struct pmuv3 *p, unsigned reg)
{
	if (reg == PMUV3_PMICNTR || reg == PMUV3_PMICFILTR)
		return p->cfg.icntr;
	if (reg == PMUV3_PMUACR || reg == PMUV3_PMZR)
		return p->cfg.p9;
	return (reg >= PMUV3_PMCR && reg <= PMUV3_PMCEID1) ||
	       (reg >= PMUV3_PMEVTYPER0 && reg < PMUV3_PMEVTYPER0 + 31) ||
	       (reg >= PMUV3_PMEVCNTR0 && reg < PMUV3_PMEVCNTR0 + 31);
}

int pmuv3__mrs(struct pmuv3 *p, unsigned reg, int el, uint64_t *val)
{
	uint64_t acm = p->impl, v = 0;
	int ci, wi;

	if (!reg_exists(p, reg))
		return PMUV3_UNDEF;
	if (el == 0 && !el0_allowed(p, reg, ACC_READ, &acm, &wi))
		return PMUV3_UNDEF;
	ci = reg_counter(p, reg);
	if (ci >= 0 && !(acm & (1ull << ci)) && reg != PMUV3_PMXEVTYPER) {
		*val = 0;                           /* not granted: RAZ */
		return PMUV3_OK;
	}
	switch (reg) {
	case PMUV3_PMCR:       v = pmcr_read(p); break;
	case PMUV3_PMCNTENSET:
	case PMUV3_PMCNTENCLR: v = p->cnten & acm; break;
	case PMUV3_PMINTENSET:
	case PMUV3_PMINTENCLR: v = p->inten; break;
	case PMUV3_PMOVSSET:
	case PMUV3_PMOVSCLR:   v = p->ovs & acm; break;
	case PMUV3_PMSWINC:
	case PMUV3_PMZR:       return PMUV3_UNDEF;        /* write-only */
	case PMUV3_PMSELR:     v = p->selr; break;
	case PMUV3_PMXEVTYPER:
		if ((p->selr & 31) == 31)
			v = (acm & (1ull << 31)) ? p->ccfiltr : 0;
		else if (ev_exists(p, p->selr & 31) && (acm & (1ull << (p->selr & 31))))
			v = p->evtyper[p->selr & 31];
		break;                              /* else RAZ */
	case PMUV3_PMXEVCNTR:
		if ((p->selr & 31) != 31 && ev_exists(p, p->selr & 31))
			v = p->evcntr[p->selr & 31];
		break;
	case PMUV3_PMCCNTR:    v = p->ccntr; break;
	case PMUV3_PMCCFILTR:  v = p->ccfiltr; break;
	case PMUV3_PMICNTR:
		if (!p->cfg.icntr)
			return PMUV3_UNDEF;
		v = p->icntr;
		break;
	case PMUV3_PMICFILTR:
		if (!p->cfg.icntr)
			return PMUV3_UNDEF;
		v = p->icfiltr;
		break;
	case PMUV3_PMUSERENR:  v = p->userenr; break;
	case PMUV3_PMUACR:
		if (!p->cfg.p9)
			return PMUV3_UNDEF;
		v = p->uacr;
		break;
	case PMUV3_PMCEID0:    v = pmceid(0); break;
	case PMUV3_PMCEID1:    v = pmceid(1); break;
	default:
		if (reg >= PMUV3_PMEVCNTR0 && reg < PMUV3_PMEVCNTR0 + 31) {
			if (ev_exists(p, reg - PMUV3_PMEVCNTR0))
				v = p->evcntr[reg - PMUV3_PMEVCNTR0];
		} else if (reg >= PMUV3_PMEVTYPER0 && reg < PMUV3_PMEVTYPER0 + 31) {
			if (ev_exists(p, reg - PMUV3_PMEVTYPER0))
				v = p->evtyper[reg - PMUV3_PMEVTYPER0];
		} else {
			return PMUV3_UNDEF;
		}
	}
	*val = v;
	return PMUV3_OK;
}

static void swinc(struct pmuv3 *p, uint64_t v, int el);
static void bump_ev(struct pmuv3 *p, unsigned i, uint64_t n, int el);

/* PMZR_EL0: writing 1 to a bit zeroes that counter. */
static void zero_counters(struct pmuv3 *p, uint64_t v)
{
	for (unsigned i = 0; i < nctr(p); i++)
		if (v & (1ull << i))
			p->evcntr[i] = 0;
	if (v & (1ull << PMUV3_IDX_CYCLE))
		p->ccntr = 0;
	if (v & (1ull << PMUV3_IDX_INSTR))
		p->icntr = 0;
}

int pmuv3__msr(struct pmuv3 *p, unsigned reg, int el, uint64_t v)
{
	uint64_t acm = p->impl;
	int ci, wi = 0;

	if (!reg_exists(p, reg))
		return PMUV3_UNDEF;
	if (el == 0 && !el0_allowed(p, reg, ACC_WRITE, &acm, &wi))
		return PMUV3_UNDEF;
	if (wi)
		return PMUV3_OK;                    /* read-only at EL0: WI */
	ci = reg_counter(p, reg);
	if (ci >= 0 && !(acm & (1ull << ci)))
		return PMUV3_OK;                    /* not granted: WI */
	switch (reg) {
	case PMUV3_PMCR:       pmcr_write(p, v); break;
	case PMUV3_PMCNTENSET: p->cnten |= v & acm; break;
	case PMUV3_PMCNTENCLR: p->cnten &= ~(v & acm); break;
	case PMUV3_PMINTENSET: p->inten |= v & p->impl; break;
	case PMUV3_PMINTENCLR: p->inten &= ~(v & p->impl); break;
	case PMUV3_PMOVSSET:   p->ovs |= v & acm; break;
	case PMUV3_PMOVSCLR:   p->ovs &= ~(v & acm); break;
	case PMUV3_PMSWINC:    swinc(p, v & acm & ((1ull << 31) - 1), el); break;
	case PMUV3_PMZR:       zero_counters(p, v & acm); break;
	case PMUV3_PMSELR:     p->selr = v & 31; break;
	case PMUV3_PMXEVTYPER:
		if ((p->selr & 31) == 31)
			p->ccfiltr = v & filter_mask();
		else if (ev_exists(p, p->selr & 31))
			p->evtyper[p->selr & 31] = v & evtyper_mask();
		break;
	case PMUV3_PMXEVCNTR:
		if ((p->selr & 31) != 31 && ev_exists(p, p->selr & 31))
			p->evcntr[p->selr & 31] = v & evcntr_mask(p);
		break;
	case PMUV3_PMCCNTR:    p->ccntr = v; break;
	case PMUV3_PMCCFILTR:  p->ccfiltr = v & filter_mask(); break;
	case PMUV3_PMICNTR:
		if (!p->cfg.icntr)
			return PMUV3_UNDEF;
		p->icntr = v;
		break;
	case PMUV3_PMICFILTR:
		if (!p->cfg.icntr)
			return PMUV3_UNDEF;
		p->icfiltr = v & filter_mask();
		break;
	case PMUV3_PMUSERENR:
		p->userenr = v & (PMUSERENR_EN | PMUSERENR_SW | PMUSERENR_CR |
				  PMUSERENR_ER |
				  (p->cfg.p9 ? PMUSERENR_UEN | PMUSERENR_TID : 0) |
				  (p->cfg.p9 && p->cfg.icntr ? PMUSERENR_IR : 0));
		break;
	case PMUV3_PMUACR:
		if (!p->cfg.p9)
			return PMUV3_UNDEF;
		p->uacr = v & p->impl;
		break;
	case PMUV3_PMCEID0:
	case PMUV3_PMCEID1:
		return PMUV3_UNDEF;                 /* read-only */
	default:
		if (reg >= PMUV3_PMEVCNTR0 && reg < PMUV3_PMEVCNTR0 + 31) {
			if (ev_exists(p, reg - PMUV3_PMEVCNTR0))
				p->evcntr[reg - PMUV3_PMEVCNTR0] = v & evcntr_mask(p);
		} else if (reg >= PMUV3_PMEVTYPER0 && reg < PMUV3_PMEVTYPER0 + 31) {
			if (ev_exists(p, reg - PMUV3_PMEVTYPER0))
				p->evtyper[reg - PMUV3_PMEVTYPER0] = v & evtyper_mask();
		} else {
			return PMUV3_UNDEF;
		}
	}
	return PMUV3_OK;
}

/* ---- counting ------------------------------------------------------------ */

static int filtered(uint64_t filt, int el)
{
	return el == 0 ? !!(filt & PMEVTYPER_U) : !!(filt & PMEVTYPER_P);
}

static int enabled(const struct pmuv3 *p, unsigned idx)
{
	return (p->pmcr & PMCR_E) && (p->cnten & (1ull << idx));
}

int pmuv3__ovf64(const struct pmuv3 *p, unsigned idx)
{
	if (idx == PMUV3_IDX_CYCLE)
		return !!(p->pmcr & PMCR_LC);
	if (idx == PMUV3_IDX_INSTR)
		return 1;
	return p->cfg.p5 && (p->pmcr & PMCR_LP);
}

/* Add n to *cnt (storage mask smask); return 1 on overflow. */
static int bump(uint64_t *cnt, uint64_t n, uint64_t smask, int ovf64)
{
	uint64_t old = *cnt;
	int ovf;

	if (ovf64)
		ovf = old + n < old;
	else
		ovf = (old & LO32) + (n & LO32) > LO32 || n > LO32;
	*cnt = (old + n) & smask;
	return ovf;
}

/*
 * Event counter i counts n events.  With PMCR_EL0.LP = 0, an odd counter
 * programmed with CHAIN (0x1E) counts each overflow of the even counter
 * below it (its bits [31:0] wrapping), if enabled and not filtered at el:
 * the pair is one 64-bit counter (the pseudocode's chained counters).
 */
static void bump_ev(struct pmuv3 *p, unsigned i, uint64_t n, int el)
{
	uint64_t wraps = pmuv3__ovf64(p, i) ? 0 : ((p->evcntr[i] & LO32) + n) >> 32;
	unsigned j = i + 1;

	if (bump(&p->evcntr[i], n, evcntr_mask(p), pmuv3__ovf64(p, i)))
		p->ovs |= 1ull << i;
	if (!(i & 1) && wraps && j < nctr(p) && enabled(p, j) &&
	    !(p->pmcr & PMCR_LP) && !filtered(p->evtyper[j], el) &&
	    (p->evtyper[j] & PMEVTYPER_EVTCOUNT) == ARMV8_EV_CHAIN)
		bump_ev(p, j, wraps, el);
}

/* A software increment counts where the write happened: the counter's
 * U/P filter applies to the EL of the PMSWINC write. */
static void swinc(struct pmuv3 *p, uint64_t v, int el)
{
	for (unsigned i = 0; i < nctr(p); i++)
		if ((v & (1ull << i)) && enabled(p, i) && !filtered(p->evtyper[i], el) &&
		    (p->evtyper[i] & PMEVTYPER_EVTCOUNT) == ARMV8_EV_SW_INCR)
			bump_ev(p, i, 1, el);
}

void pmuv3__count(struct pmuv3 *p, unsigned evt, uint64_t n, int el)
{
	if (!n || !(p->pmcr & PMCR_E))
		return;
	for (unsigned i = 0; i < nctr(p); i++) {
		if (!enabled(p, i) || filtered(p->evtyper[i], el) ||
		    (p->evtyper[i] & PMEVTYPER_EVTCOUNT) != evt ||
		    evt == ARMV8_EV_SW_INCR || evt == ARMV8_EV_CHAIN)
			continue;
		bump_ev(p, i, n, el);
	}
	if (evt == ARMV8_EV_CPU_CYCLES && enabled(p, PMUV3_IDX_CYCLE) &&
	    !filtered(p->ccfiltr, el)) {
		uint64_t k = n;

		if ((p->pmcr & PMCR_D) && !(p->pmcr & PMCR_LC)) {
			k = (p->cycdiv + n) / 64;
			p->cycdiv = (unsigned)((p->cycdiv + n) % 64);
		}
		if (k && bump(&p->ccntr, k, ~0ull, pmuv3__ovf64(p, PMUV3_IDX_CYCLE)))
			p->ovs |= 1ull << PMUV3_IDX_CYCLE;
	}
	if (evt == ARMV8_EV_INST_RETIRED && p->cfg.icntr &&
	    enabled(p, PMUV3_IDX_INSTR) && !filtered(p->icfiltr, el) &&
	    bump(&p->icntr, n, ~0ull, 1))
		p->ovs |= 1ull << PMUV3_IDX_INSTR;
}

static uint64_t to_ovf(uint64_t cnt, int ovf64)
{
	if (ovf64)
		return cnt ? (~cnt + 1) : UINT64_MAX;   /* 2^64 - cnt */
	return (1ull << 32) - (cnt & LO32);
}

uint64_t pmuv3__events_to_overflow(const struct pmuv3 *p, unsigned evt, int el)
{
	uint64_t best = UINT64_MAX, r;

	if (!(p->pmcr & PMCR_E))
		return best;
	for (unsigned i = 0; i < nctr(p); i++) {
		if (!enabled(p, i) || filtered(p->evtyper[i], el) ||
		    (p->evtyper[i] & PMEVTYPER_EVTCOUNT) != evt ||
		    evt == ARMV8_EV_SW_INCR)
			continue;
		r = to_ovf(p->evcntr[i], pmuv3__ovf64(p, i));
		if (r < best)
			best = r;
	}
	if (evt == ARMV8_EV_CPU_CYCLES && enabled(p, PMUV3_IDX_CYCLE) &&
	    !filtered(p->ccfiltr, el)) {
		r = to_ovf(p->ccntr, pmuv3__ovf64(p, PMUV3_IDX_CYCLE));
		if ((p->pmcr & PMCR_D) && !(p->pmcr & PMCR_LC))
			r = r > (UINT64_MAX - 64) / 64 ? UINT64_MAX : r * 64 - p->cycdiv;
		if (r < best)
			best = r;
	}
	if (evt == ARMV8_EV_INST_RETIRED && p->cfg.icntr &&
	    enabled(p, PMUV3_IDX_INSTR) && !filtered(p->icfiltr, el)) {
		r = to_ovf(p->icntr, 1);
		if (r < best)
			best = r;
	}
	return best;
}

/* CheckForPMUOverflow: the counter enables (PMCNTENSET) play no part. */
int pmuv3__irq_line(const struct pmuv3 *p)
{
	return (p->pmcr & PMCR_E) && (p->ovs & p->inten) != 0;
}
