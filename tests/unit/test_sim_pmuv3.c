/*
 * test_sim_pmuv3.c — the simulated ARMv8 PMUv3 registers, with exact
 * answers: reset values, W1S/W1C flag and enable registers, RES0 bits,
 * RAZ/WI for counters at or above PMCR_EL0.N, PMSELR indirection, the
 * PMUSERENR_EL0 rules for EL0, 32/64-bit overflow per LP/LC, the interrupt
 * condition, FEAT_PMUv3_ICNTR's F0 bit and FEAT_PMUv3p9's PMUACR_EL1.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "backend/sim/pmuv3.h"

static struct pmuv3 P;

static void mk(unsigned n, int p5, int icntr, int p9)
{
	struct pmuv3_config c = { n, p5, icntr, p9 };

	pmuv3__init(&P, &c);
}

static uint64_t R(unsigned reg)
{
	uint64_t v = 0xdeadbeef;

	assert_int_equal(pmuv3__mrs(&P, reg, 1, &v), PMUV3_OK);
	return v;
}

static void W(unsigned reg, uint64_t v)
{
	assert_int_equal(pmuv3__msr(&P, reg, 1, v), PMUV3_OK);
}

static void test_reset_values(void **s)
{
	(void)s;
	mk(6, 0, 0, 0);
	/* N=6, IDCODE, IMP='A'; E, LC, LP... zero (UNKNOWN modelled as 0) */
	assert_int_equal(R(PMUV3_PMCR), (6ull << 11) | (0x0bull << 16) | (0x41ull << 24));
	assert_int_equal(R(PMUV3_PMCNTENSET), 0);
	assert_int_equal(R(PMUV3_PMINTENSET), 0);
	assert_int_equal(R(PMUV3_PMOVSSET), 0);
	assert_int_equal(R(PMUV3_PMSELR), 0);
	assert_int_equal(R(PMUV3_PMCCNTR), 0);
	assert_int_equal(R(PMUV3_PMUSERENR), 0);
	for (unsigned i = 0; i < 6; i++) {
		assert_int_equal(R(PMUV3_PMEVCNTR(i)), 0);
		assert_int_equal(R(PMUV3_PMEVTYPER(i)), 0);
	}
	/* the machine's common events are advertised */
	assert_true(R(PMUV3_PMCEID0) & (1ull << 0x11));
	assert_true(R(PMUV3_PMCEID0) & (1ull << 0x08));
	assert_true(R(PMUV3_PMCEID1) & (1ull << (0x21 - 32)));
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMCEID0, 1, 0), PMUV3_UNDEF);
}

static void test_pmcr_bits(void **s)
{
	(void)s;
	mk(6, 0, 0, 0);
	/* N is read-only, P and C read as zero, LP is RES0 without p5 */
	W(PMUV3_PMCR, ~0ull);
	assert_int_equal(R(PMUV3_PMCR), PMCR_E | PMCR_D | PMCR_X | PMCR_DP | PMCR_LC |
			 (6ull << 11) | (0x0bull << 16) | (0x41ull << 24));
	mk(6, 1, 0, 0);
	W(PMUV3_PMCR, PMCR_LP | PMCR_E);
	assert_int_equal(R(PMUV3_PMCR) & 0xff, PMCR_LP | PMCR_E);
	/* P resets event counters (not the cycle counter); C the cycle counter */
	W(PMUV3_PMEVCNTR(0), 5);
	W(PMUV3_PMEVCNTR(5), 7);
	W(PMUV3_PMCCNTR, 9);
	W(PMUV3_PMCR, PMCR_E | PMCR_P);
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 0);
	assert_int_equal(R(PMUV3_PMEVCNTR(5)), 0);
	assert_int_equal(R(PMUV3_PMCCNTR), 9);
	W(PMUV3_PMCR, PMCR_E | PMCR_C);
	assert_int_equal(R(PMUV3_PMCCNTR), 0);
}

static void test_w1s_w1c(void **s)
{
	(void)s;
	mk(6, 0, 0, 0);
	/* implemented: P0..P5 and C; everything else RAZ/WI (RES0 above 32) */
	W(PMUV3_PMOVSSET, ~0ull);
	assert_int_equal(R(PMUV3_PMOVSSET), 0x8000003full);
	assert_int_equal(R(PMUV3_PMOVSCLR), 0x8000003full);   /* same flags */
	W(PMUV3_PMOVSCLR, 0);                                   /* 0: no effect */
	assert_int_equal(R(PMUV3_PMOVSCLR), 0x8000003full);
	W(PMUV3_PMOVSCLR, 0x80000005ull);                       /* 1 clears */
	assert_int_equal(R(PMUV3_PMOVSSET), 0x3aull);
	W(PMUV3_PMOVSSET, 0x1ull);                              /* 1 sets */
	assert_int_equal(R(PMUV3_PMOVSCLR), 0x3bull);
	W(PMUV3_PMOVSSET, 0);
	assert_int_equal(R(PMUV3_PMOVSCLR), 0x3bull);

	W(PMUV3_PMCNTENSET, 0x80000041ull);    /* bit 6 is absent: WI */
	assert_int_equal(R(PMUV3_PMCNTENSET), 0x80000001ull);
	assert_int_equal(R(PMUV3_PMCNTENCLR), 0x80000001ull);
	W(PMUV3_PMCNTENCLR, 0x1);
	assert_int_equal(R(PMUV3_PMCNTENSET), 0x80000000ull);
	W(PMUV3_PMINTENSET, ~0ull);
	assert_int_equal(R(PMUV3_PMINTENCLR), 0x8000003full);
	W(PMUV3_PMINTENCLR, 0x8000000full);
	assert_int_equal(R(PMUV3_PMINTENSET), 0x30ull);

	/* F0 (bit 32) exists only with FEAT_PMUv3_ICNTR */
	mk(6, 0, 1, 0);
	W(PMUV3_PMOVSSET, ~0ull);
	assert_int_equal(R(PMUV3_PMOVSSET), 0x18000003full);
	mk(31, 0, 0, 0);
	W(PMUV3_PMOVSSET, ~0ull);
	assert_int_equal(R(PMUV3_PMOVSSET), 0xffffffffull);
}

static void test_absent_counters_raz_wi(void **s)
{
	uint64_t v;

	(void)s;
	mk(4, 1, 0, 0);
	W(PMUV3_PMEVCNTR(4), 123);
	W(PMUV3_PMEVTYPER(4), 0x11);
	assert_int_equal(R(PMUV3_PMEVCNTR(4)), 0);
	assert_int_equal(R(PMUV3_PMEVTYPER(4)), 0);
	assert_int_equal(R(PMUV3_PMEVCNTR(30)), 0);
	/* through the selector too */
	W(PMUV3_PMSELR, 7);
	W(PMUV3_PMXEVCNTR, 55);
	assert_int_equal(R(PMUV3_PMXEVCNTR), 0);
	/* features not implemented are UNDEFINED, not RAZ */
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMICNTR, 1, &v), PMUV3_UNDEF);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMUACR, 1, &v), PMUV3_UNDEF);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMSWINC, 1, &v), PMUV3_UNDEF);
}

static void test_res0_and_widths(void **s)
{
	(void)s;
	/* without p5 event counters are 32 bits; PMEVTYPER keeps P, U, evtCount */
	mk(6, 0, 0, 0);
	W(PMUV3_PMEVCNTR(1), 0x123456789ull);
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 0x23456789ull);
	W(PMUV3_PMEVTYPER(1), ~0ull);
	assert_int_equal(R(PMUV3_PMEVTYPER(1)), 0xc000ffffull);
	W(PMUV3_PMCCFILTR, ~0ull);
	assert_int_equal(R(PMUV3_PMCCFILTR), 0xc0000000ull);
	W(PMUV3_PMSELR, ~0ull);
	assert_int_equal(R(PMUV3_PMSELR), 31);
	W(PMUV3_PMUSERENR, ~0ull);                 /* UEN is RES0 without p9 */
	assert_int_equal(R(PMUV3_PMUSERENR), 0xf);
	/* PMCCNTR is always 64 bits; p5 event counters are too */
	W(PMUV3_PMCCNTR, 0x123456789ull);
	assert_int_equal(R(PMUV3_PMCCNTR), 0x123456789ull);
	mk(6, 1, 0, 0);
	W(PMUV3_PMEVCNTR(1), 0x123456789ull);
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 0x123456789ull);
}

static void test_pmselr_indirection(void **s)
{
	(void)s;
	mk(6, 0, 0, 0);
	W(PMUV3_PMSELR, 3);
	W(PMUV3_PMXEVTYPER, 0x80000008ull);
	W(PMUV3_PMXEVCNTR, 77);
	assert_int_equal(R(PMUV3_PMEVTYPER(3)), 0x80000008ull);
	assert_int_equal(R(PMUV3_PMEVCNTR(3)), 77);
	W(PMUV3_PMEVCNTR(3), 78);
	assert_int_equal(R(PMUV3_PMXEVCNTR), 78);
	/* SEL = 31: PMXEVTYPER is PMCCFILTR_EL0 */
	W(PMUV3_PMSELR, 31);
	W(PMUV3_PMXEVTYPER, 0x40000011ull);
	assert_int_equal(R(PMUV3_PMCCFILTR), 0x40000000ull);
	assert_int_equal(R(PMUV3_PMXEVTYPER), 0x40000000ull);
}

static void prog(unsigned n, unsigned evt)
{
	W(PMUV3_PMEVTYPER(n), evt);
	W(PMUV3_PMCNTENSET, 1ull << n);
}

static void test_overflow_32_64(void **s)
{
	(void)s;
	/* 32-bit event counter: wraps to 0 and sets its flag */
	mk(6, 0, 0, 0);
	W(PMUV3_PMCR, PMCR_E);
	prog(0, 0x08);
	W(PMUV3_PMEVCNTR(0), 0xfffffffeull);
	pmuv3__count(&P, 0x08, 1, 0);
	assert_int_equal(R(PMUV3_PMOVSSET), 0);
	assert_int_equal(pmuv3__events_to_overflow(&P, 0x08, 0), 1);
	pmuv3__count(&P, 0x08, 3, 0);
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 2);
	assert_int_equal(R(PMUV3_PMOVSSET), 1);

	/* p5, LP=0: 64-bit counter, overflow when bits [31:0] wrap */
	mk(6, 1, 0, 0);
	W(PMUV3_PMCR, PMCR_E);
	prog(0, 0x08);
	W(PMUV3_PMEVCNTR(0), 0x1ffffffffull);
	pmuv3__count(&P, 0x08, 1, 0);
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 0x200000000ull);
	assert_int_equal(R(PMUV3_PMOVSSET), 1);
	/* LP=1: only the 64-bit wrap overflows */
	W(PMUV3_PMOVSCLR, ~0ull);
	W(PMUV3_PMCR, PMCR_E | PMCR_LP);
	W(PMUV3_PMEVCNTR(0), 0xffffffffull);
	pmuv3__count(&P, 0x08, 1, 0);
	assert_int_equal(R(PMUV3_PMOVSSET), 0);
	W(PMUV3_PMEVCNTR(0), ~0ull);
	pmuv3__count(&P, 0x08, 1, 0);
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 0);
	assert_int_equal(R(PMUV3_PMOVSSET), 1);

	/* cycle counter: LC=0 overflows at 32 bits (and keeps counting up) */
	mk(6, 0, 0, 0);
	W(PMUV3_PMCR, PMCR_E);
	W(PMUV3_PMCNTENSET, 1ull << 31);
	W(PMUV3_PMCCNTR, 0xffffffffull);
	pmuv3__count(&P, 0x11, 1, 0);
	assert_int_equal(R(PMUV3_PMCCNTR), 0x100000000ull);
	assert_int_equal(R(PMUV3_PMOVSSET), 1ull << 31);
	/* LC=1: 64-bit */
	W(PMUV3_PMOVSCLR, ~0ull);
	W(PMUV3_PMCR, PMCR_E | PMCR_LC);
	W(PMUV3_PMCCNTR, 0xffffffffull);
	pmuv3__count(&P, 0x11, 1, 0);
	assert_int_equal(R(PMUV3_PMOVSSET), 0);
	W(PMUV3_PMCCNTR, ~0ull);
	pmuv3__count(&P, 0x11, 1, 0);
	assert_int_equal(R(PMUV3_PMOVSSET), 1ull << 31);
	/* D (LC=0): one count per 64 cycles */
	mk(6, 0, 0, 0);
	W(PMUV3_PMCR, PMCR_E | PMCR_D);
	W(PMUV3_PMCNTENSET, 1ull << 31);
	pmuv3__count(&P, 0x11, 200, 0);
	assert_int_equal(R(PMUV3_PMCCNTR), 3);
}

static void test_enables_and_filters(void **s)
{
	(void)s;
	mk(6, 0, 0, 0);
	prog(0, 0x08);
	pmuv3__count(&P, 0x08, 5, 0);            /* PMCR.E = 0: nothing counts */
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 0);
	W(PMUV3_PMCR, PMCR_E);
	pmuv3__count(&P, 0x08, 5, 0);
	pmuv3__count(&P, 0x11, 5, 0);             /* other event */
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 5);
	W(PMUV3_PMCNTENCLR, 1);
	pmuv3__count(&P, 0x08, 5, 0);
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 5);
	/* U: not at EL0; P: not at EL1 */
	W(PMUV3_PMEVTYPER(1), 0x08 | PMEVTYPER_U);
	W(PMUV3_PMEVTYPER(2), 0x08 | PMEVTYPER_P);
	W(PMUV3_PMCNTENSET, 6);
	pmuv3__count(&P, 0x08, 3, 0);
	pmuv3__count(&P, 0x08, 4, 1);
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 4);
	assert_int_equal(R(PMUV3_PMEVCNTR(2)), 3);
	/* PMSWINC increments only SW_INCR counters */
	W(PMUV3_PMEVTYPER(3), 0x00);
	W(PMUV3_PMCNTENSET, 8);
	W(PMUV3_PMSWINC, 0xf);
	assert_int_equal(R(PMUV3_PMEVCNTR(3)), 1);
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 4);
}

static void test_interrupt_condition(void **s)
{
	(void)s;
	mk(6, 0, 0, 0);
	W(PMUV3_PMOVSSET, 1);                     /* flag alone: no interrupt */
	assert_false(pmuv3__irq_line(&P));
	W(PMUV3_PMINTENSET, 1);
	assert_false(pmuv3__irq_line(&P));        /* PMU not enabled */
	W(PMUV3_PMCR, PMCR_E);
	/* CheckForPMUOverflow: PMCR_EL0.E, PMOVSSET and PMINTENSET alone —
	 * the counter itself is disabled (PMCNTENSET bit 0 clear) */
	assert_int_equal(R(PMUV3_PMCNTENSET), 0);
	assert_true(pmuv3__irq_line(&P));
	W(PMUV3_PMCNTENSET, 1);
	assert_true(pmuv3__irq_line(&P));
	/* a driver that disables the counter but leaves flag and interrupt
	 * enabled keeps the line high: an interrupt storm */
	W(PMUV3_PMCNTENCLR, 1);
	assert_true(pmuv3__irq_line(&P));
	W(PMUV3_PMINTENCLR, 1);
	assert_false(pmuv3__irq_line(&P));
	W(PMUV3_PMINTENSET, 1);
	W(PMUV3_PMOVSCLR, 1);
	assert_false(pmuv3__irq_line(&P));
	/* seed 003's way of forcing an interrupt: PMOVSSET on a disabled
	 * counter whose interrupt is enabled */
	W(PMUV3_PMOVSSET, 1ull << 31);
	assert_false(pmuv3__irq_line(&P));        /* C's interrupt not enabled */
	W(PMUV3_PMINTENSET, 1ull << 31);
	assert_true(pmuv3__irq_line(&P));
	W(PMUV3_PMOVSCLR, 1ull << 31);
	/* a real overflow raises it */
	prog(0, 0x11);
	W(PMUV3_PMEVCNTR(0), 0xffffffffull);
	pmuv3__count(&P, 0x11, 1, 0);
	assert_true(pmuv3__irq_line(&P));
}

/* Item 13: register details the architecture pins down. */
static void test_pmcr_p(void **s)
{
	(void)s;
	/* PMCR_EL0.P zeroes the event counters (30:0) only, not PMICNTR_EL0
	 * (nor PMCCNTR_EL0) */
	mk(4, 0, 1, 1);
	W(PMUV3_PMEVCNTR(2), 5);
	W(PMUV3_PMCCNTR, 6);
	W(PMUV3_PMICNTR, 7);
	W(PMUV3_PMCR, PMCR_P);
	assert_int_equal(R(PMUV3_PMEVCNTR(2)), 0);
	assert_int_equal(R(PMUV3_PMCCNTR), 6);
	assert_int_equal(R(PMUV3_PMICNTR), 7);
}

/* 13: software increments obey the U/P filters */
static void test_swinc_filters(void **s)
{
	uint64_t v = 0;

	(void)s;
	(void)v;
	/* PMSWINC counts only where the counter's U/P filter lets it: a write
	 * at EL0 does not count for a U=1 (EL0 excluded) counter */
	mk(4, 0, 0, 0);
	W(PMUV3_PMCR, PMCR_E);
	W(PMUV3_PMEVTYPER(0), ARMV8_EV_SW_INCR | PMEVTYPER_U);
	W(PMUV3_PMEVTYPER(1), ARMV8_EV_SW_INCR | PMEVTYPER_P);
	W(PMUV3_PMCNTENSET, 3);
	W(PMUV3_PMUSERENR, PMUSERENR_SW);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMSWINC, 0, 3), PMUV3_OK);   /* at EL0 */
	W(PMUV3_PMSWINC, 3);                                               /* at EL1 */
	W(PMUV3_PMSWINC, 3);
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 2);     /* EL1 writes only */
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 1);     /* the EL0 write only */
}

/* 13: PMCEID0/1 list the events the model produces */
static void test_pmceid(void **s)
{
	uint64_t v = 0;

	(void)s;
	(void)v;
	mk(4, 0, 0, 0);
	/* PMCEID0 advertises only what the machine produces: no BR_PRED */
	assert_false(R(PMUV3_PMCEID0) & (1ull << ARMV8_EV_BR_PRED));
	assert_true(R(PMUV3_PMCEID0) & (1ull << ARMV8_EV_BR_MIS_PRED));
}

/* 13: FEAT_PMUv3p9 UEN with ER/CR/IR (read-only), TID */
static void test_p9_user_controls(void **s)
{
	uint64_t v = 0;

	(void)s;
	(void)v;
	/* FEAT_PMUv3p9: UEN with ER/CR: EL0 reads, but writes are ignored */
	mk(4, 0, 1, 1);
	W(PMUV3_PMEVCNTR(1), 11);
	W(PMUV3_PMCCNTR, 12);
	W(PMUV3_PMICNTR, 13);
	W(PMUV3_PMUACR, (1ull << 1) | (1ull << 31) | (1ull << 32));
	W(PMUV3_PMUSERENR, PMUSERENR_UEN | PMUSERENR_ER | PMUSERENR_CR | PMUSERENR_IR);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMEVCNTR(1), 0, &v), PMUV3_OK);
	assert_int_equal(v, 11);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMEVCNTR(1), 0, 99), PMUV3_OK);
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 11);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMCCNTR, 0, 99), PMUV3_OK);
	assert_int_equal(R(PMUV3_PMCCNTR), 12);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMICNTR, 0, 99), PMUV3_OK);    /* IR */
	assert_int_equal(R(PMUV3_PMICNTR), 13);
	/* without ER (UEN alone) a granted counter is writable */
	W(PMUV3_PMUSERENR, PMUSERENR_UEN);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMEVCNTR(1), 0, 99), PMUV3_OK);
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 99);
	/* IR is an implemented bit (p9 + ICNTR), TID too */
	W(PMUV3_PMUSERENR, ~0ull);
	assert_int_equal(R(PMUV3_PMUSERENR), 0x7f);
	/* TID: EL0 reads of PMCEID0/1 trap (EN would allow them otherwise) */
	W(PMUV3_PMUSERENR, PMUSERENR_EN);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMCEID0, 0, &v), PMUV3_OK);
	W(PMUV3_PMUSERENR, PMUSERENR_EN | PMUSERENR_TID);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMCEID0, 0, &v), PMUV3_UNDEF);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMCEID1, 0, &v), PMUV3_UNDEF);
}

/* 13: PMZR_EL0 */
static void test_pmzr(void **s)
{
	uint64_t v = 0;

	(void)s;
	(void)v;
	/* PMZR_EL0 (p9): write 1 to zero a counter; write-only */
	mk(4, 0, 1, 1);
	W(PMUV3_PMEVCNTR(0), 5);
	W(PMUV3_PMEVCNTR(3), 6);
	W(PMUV3_PMCCNTR, 7);
	W(PMUV3_PMICNTR, 8);
	W(PMUV3_PMZR, (1ull << 3) | (1ull << 31) | (1ull << 32));
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 5);
	assert_int_equal(R(PMUV3_PMEVCNTR(3)), 0);
	assert_int_equal(R(PMUV3_PMCCNTR), 0);
	assert_int_equal(R(PMUV3_PMICNTR), 0);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMZR, 1, &v), PMUV3_UNDEF);
	mk(4, 0, 0, 0);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMZR, 1, 1), PMUV3_UNDEF);   /* no p9 */
	W(PMUV3_PMUSERENR, ~0ull);
	assert_int_equal(R(PMUV3_PMUSERENR), 0xf);       /* UEN, IR, TID: RES0 */
}

/* Item 7: EL0 never reaches PMICNTR_EL0 or F0 through EN/ER/CR; only UEN
 * with PMUACR_EL1.F0 grants it. */
static void test_icntr_el0_access(void **s)
{
	uint64_t v;

	(void)s;
	mk(2, 0, 1, 1);
	W(PMUV3_PMICNTR, 77);
	W(PMUV3_PMOVSSET, (1ull << 32) | 1);
	W(PMUV3_PMCNTENSET, (1ull << 32) | 1);
	W(PMUV3_PMUSERENR, PMUSERENR_ER | PMUSERENR_CR);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMICNTR, 0, &v), PMUV3_UNDEF);
	W(PMUV3_PMUSERENR, PMUSERENR_EN);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMICNTR, 0, &v), PMUV3_UNDEF);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMICFILTR, 0, &v), PMUV3_UNDEF);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMOVSSET, 0, &v), PMUV3_OK);
	assert_int_equal(v, 1);                         /* F0 reads as zero */
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMCNTENSET, 0, &v), PMUV3_OK);
	assert_int_equal(v, 1);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMOVSCLR, 0, 1ull << 32), PMUV3_OK);
	assert_int_equal(R(PMUV3_PMOVSSET), (1ull << 32) | 1);   /* ignored */
	/* UEN with PMUACR_EL1.F0: granted */
	W(PMUV3_PMUSERENR, PMUSERENR_UEN);
	W(PMUV3_PMUACR, 1ull << 32);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMICNTR, 0, &v), PMUV3_OK);
	assert_int_equal(v, 77);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMOVSSET, 0, &v), PMUV3_OK);
	assert_int_equal(v, 1ull << 32);
	/* UEN without F0: traps */
	W(PMUV3_PMUACR, 1);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMICNTR, 0, &v), PMUV3_UNDEF);
}

/* Item 11: CHAIN (0x1E) on an odd counter counts the even counter's
 * overflows (LP = 0): the pair is a 64-bit counter. */
static void test_chain(void **s)
{
	(void)s;
	mk(4, 1, 0, 0);
	W(PMUV3_PMCR, PMCR_E);
	prog(0, ARMV8_EV_INST_RETIRED);
	prog(1, ARMV8_EV_CHAIN);
	W(PMUV3_PMEVCNTR(0), 0xfffffff0ull);
	W(PMUV3_PMEVCNTR(1), 0xffffffffull);
	pmuv3__count(&P, ARMV8_EV_INST_RETIRED, 0x20, 0);
	/* p5 counters are 64 bits: counter 0 keeps bit 32, as the architecture says */
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 0x100000010ull);
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 0x100000000ull);
	assert_int_equal(R(PMUV3_PMOVSSET), 3);     /* both overflowed (32-bit) */
	/* CHAIN on its own counts nothing */
	pmuv3__count(&P, ARMV8_EV_CHAIN, 5, 0);
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 0x100000000ull);
	/* with LP = 1 the even counter is 64-bit and CHAIN does not count */
	W(PMUV3_PMCR, PMCR_E | PMCR_LP);
	W(PMUV3_PMEVCNTR(0), 0xfffffffffffffff0ull);
	W(PMUV3_PMEVCNTR(1), 0);
	pmuv3__count(&P, ARMV8_EV_INST_RETIRED, 0x20, 0);
	assert_int_equal(R(PMUV3_PMEVCNTR(1)), 0);
	/* 32-bit counters (no p5): 0 -> 1 at the even counter's wrap */
	mk(4, 0, 0, 0);
	W(PMUV3_PMCR, PMCR_E);
	prog(2, ARMV8_EV_CPU_CYCLES);
	prog(3, ARMV8_EV_CHAIN);
	W(PMUV3_PMEVCNTR(2), 0xffffffffull);
	pmuv3__count(&P, ARMV8_EV_CPU_CYCLES, 3, 0);
	assert_int_equal(R(PMUV3_PMEVCNTR(2)), 2);
	assert_int_equal(R(PMUV3_PMEVCNTR(3)), 1);
	/* an even counter with CHAIN is not chained to anything */
	prog(0, ARMV8_EV_CHAIN);
	assert_int_equal(R(PMUV3_PMEVCNTR(0)), 0);
}

static void test_pmuserenr_el0(void **s)
{
	uint64_t v;

	(void)s;
	mk(6, 0, 0, 0);
	W(PMUV3_PMEVCNTR(2), 42);
	W(PMUV3_PMCCNTR, 43);
	/* EN = 0: everything traps at EL0, except reading PMUSERENR */
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMEVCNTR(2), 0, &v), PMUV3_UNDEF);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMCCNTR, 0, &v), PMUV3_UNDEF);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMCR, 0, &v), PMUV3_UNDEF);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMSWINC, 0, 1), PMUV3_UNDEF);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMUSERENR, 0, &v), PMUV3_OK);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMUSERENR, 0, 0xf), PMUV3_UNDEF);
	/* ER: event counters readable, PMSELR read/write; writes still trap */
	W(PMUV3_PMUSERENR, PMUSERENR_ER);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMEVCNTR(2), 0, &v), PMUV3_OK);
	assert_int_equal(v, 42);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMEVCNTR(2), 0, 1), PMUV3_UNDEF);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMSELR, 0, 2), PMUV3_OK);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMXEVCNTR, 0, &v), PMUV3_OK);
	assert_int_equal(v, 42);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMCCNTR, 0, &v), PMUV3_UNDEF);
	/* CR: the cycle counter */
	W(PMUV3_PMUSERENR, PMUSERENR_CR);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMCCNTR, 0, &v), PMUV3_OK);
	assert_int_equal(v, 43);
	/* SW: PMSWINC writes */
	W(PMUV3_PMUSERENR, PMUSERENR_SW);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMSWINC, 0, 1), PMUV3_OK);
	/* EN: all EL0 registers; EL1 ones (PMINTEN*) still trap */
	W(PMUV3_PMUSERENR, PMUSERENR_EN);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMCR, 0, PMCR_E), PMUV3_OK);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMOVSSET, 0, 1), PMUV3_OK);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMINTENSET, 0, &v), PMUV3_UNDEF);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMINTENCLR, 0, 1), PMUV3_UNDEF);

	/* FEAT_PMUv3p9: UEN with PMUACR_EL1: granted counters accessible,
	 * the others RAZ/WI instead of trapping */
	mk(6, 0, 0, 1);
	W(PMUV3_PMEVCNTR(1), 11);
	W(PMUV3_PMEVCNTR(2), 22);
	W(PMUV3_PMUSERENR, PMUSERENR_UEN);
	W(PMUV3_PMUACR, 1ull << 1);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMEVCNTR(1), 0, &v), PMUV3_OK);
	assert_int_equal(v, 11);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMEVCNTR(2), 0, &v), PMUV3_OK);
	assert_int_equal(v, 0);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMEVCNTR(2), 0, 99), PMUV3_OK);
	assert_int_equal(R(PMUV3_PMEVCNTR(2)), 22);
	W(PMUV3_PMOVSSET, 0x6);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMOVSCLR, 0, &v), PMUV3_OK);
	assert_int_equal(v, 0x2);
	assert_int_equal(pmuv3__msr(&P, PMUV3_PMOVSCLR, 0, 0x6), PMUV3_OK);
	assert_int_equal(R(PMUV3_PMOVSSET), 0x4);
	assert_int_equal(pmuv3__mrs(&P, PMUV3_PMCR, 0, &v), PMUV3_UNDEF);
}

static void test_icntr(void **s)
{
	(void)s;
	mk(2, 0, 1, 0);
	W(PMUV3_PMCR, PMCR_E);
	W(PMUV3_PMCNTENSET, 1ull << 32);
	W(PMUV3_PMINTENSET, 1ull << 32);
	W(PMUV3_PMICNTR, ~0ull - 1);
	pmuv3__count(&P, 0x08, 1, 0);
	assert_false(pmuv3__irq_line(&P));
	pmuv3__count(&P, 0x08, 1, 0);
	assert_int_equal(R(PMUV3_PMICNTR), 0);
	assert_int_equal(R(PMUV3_PMOVSSET), 1ull << 32);
	assert_true(pmuv3__irq_line(&P));
	W(PMUV3_PMICFILTR, PMEVTYPER_U);
	pmuv3__count(&P, 0x08, 5, 0);
	assert_int_equal(R(PMUV3_PMICNTR), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_values),
		cmocka_unit_test(test_pmcr_bits),
		cmocka_unit_test(test_w1s_w1c),
		cmocka_unit_test(test_absent_counters_raz_wi),
		cmocka_unit_test(test_res0_and_widths),
		cmocka_unit_test(test_pmselr_indirection),
		cmocka_unit_test(test_overflow_32_64),
		cmocka_unit_test(test_enables_and_filters),
		cmocka_unit_test(test_interrupt_condition),
		cmocka_unit_test(test_pmuserenr_el0),
		cmocka_unit_test(test_icntr),
		cmocka_unit_test(test_pmcr_p),
		cmocka_unit_test(test_swinc_filters),
		cmocka_unit_test(test_pmceid),
		cmocka_unit_test(test_p9_user_controls),
		cmocka_unit_test(test_pmzr),
		cmocka_unit_test(test_icntr_el0_access),
		cmocka_unit_test(test_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
