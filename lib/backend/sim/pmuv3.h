/*
 * pmuv3.h — a register-accurate model of one CPU's ARMv8 PMU (FEAT_PMUv3).
 *
 * This is the "hardware" half of the simulated PMU: the system registers of
 * seed 003 with their architectural semantics (W1S/W1C flag registers, RES0
 * bits, RAZ/WI for counters at or above PMCR_EL0.N, PMSELR indirection,
 * 32/64-bit overflow per PMCR_EL0.LP/LC, PMUSERENR_EL0 access control for
 * EL0).  The workload engine feeds it events with pmuv3__count(); the driver
 * (driver.c) programs it only through pmuv3__mrs()/pmuv3__msr(), exactly as
 * a kernel driver would with MRS/MSR, so the driver code is the code that
 * would run on hardware.
 *
 * The model is of an implementation with no EL2 and no EL3 (so NSH, NSK, NSU
 * and MDCR_EL2/3 controls are RES0 / absent), with AArch32 support at EL0 (so
 * PMCR_EL0.LC and .D are writable).  Architecturally UNKNOWN reset values are
 * modelled as zero so every run is deterministic.
 */
#ifndef PMC_SIM_PMUV3_H
#define PMC_SIM_PMUV3_H

#include <stdint.h>

/* ---- configuration ---------------------------------------------------- */
struct pmuv3_config {
	unsigned n;        /* PMCR_EL0.N: number of event counters, 0..31 */
	int p5;            /* FEAT_PMUv3p5: 64-bit event counters, PMCR_EL0.LP */
	int icntr;         /* FEAT_PMUv3_ICNTR: PMICNTR_EL0, flag bit 32 (F0) */
	int p9;            /* FEAT_PMUv3p9: PMUSERENR_EL0.UEN + PMUACR_EL1 */
};

/* ---- register numbers (pmuv3__mrs / pmuv3__msr) ------------------------ */
enum pmuv3_reg {
	PMUV3_PMCR = 1,
	PMUV3_PMCNTENSET,
	PMUV3_PMCNTENCLR,
	PMUV3_PMINTENSET,     /* _EL1 */
	PMUV3_PMINTENCLR,     /* _EL1 */
	PMUV3_PMOVSSET,
	PMUV3_PMOVSCLR,
	PMUV3_PMSWINC,        /* write-only */
	PMUV3_PMSELR,
	PMUV3_PMXEVTYPER,
	PMUV3_PMXEVCNTR,
	PMUV3_PMCCNTR,
	PMUV3_PMCCFILTR,
	PMUV3_PMICNTR,
	PMUV3_PMICFILTR,
	PMUV3_PMUSERENR,
	PMUV3_PMUACR,         /* _EL1, FEAT_PMUv3p9 */
	PMUV3_PMCEID0,        /* read-only: common events 0x00..0x1F implemented */
	PMUV3_PMCEID1,        /* read-only: common events 0x20..0x3F implemented */
	PMUV3_PMZR,           /* write-only, FEAT_PMUv3p9: zero counters */
	PMUV3_PMEVTYPER0 = 0x100,             /* + n, n < 31 */
	PMUV3_PMEVCNTR0  = 0x200,             /* + n, n < 31 */
};
#define PMUV3_PMEVTYPER(n) (PMUV3_PMEVTYPER0 + (n))
#define PMUV3_PMEVCNTR(n)  (PMUV3_PMEVCNTR0 + (n))

/* Result of an access: done, or the instruction is UNDEFINED at that EL
 * (trapped to EL1 — what a user program sees as SIGILL). */
#define PMUV3_OK    0
#define PMUV3_UNDEF (-1)

/* ---- bit definitions ---------------------------------------------------- */
#define PMCR_E        (1ull << 0)
#define PMCR_P        (1ull << 1)   /* write 1: reset event counters (reads 0) */
#define PMCR_C        (1ull << 2)   /* write 1: reset PMCCNTR_EL0 (reads 0) */
#define PMCR_D        (1ull << 3)   /* PMCCNTR counts every 64th cycle (LC=0) */
#define PMCR_X        (1ull << 4)
#define PMCR_DP       (1ull << 5)
#define PMCR_LC       (1ull << 6)   /* cycle counter overflows at 64 bits */
#define PMCR_LP       (1ull << 7)   /* event counters overflow at 64 bits (p5) */
#define PMCR_N_SHIFT  11
#define PMCR_N_MASK   0x1full
#define PMCR_IDCODE_SHIFT 16
#define PMCR_IMP_SHIFT    24
#define PMUV3_IMP     0x41ull       /* 'A', Arm Ltd */
#define PMUV3_IDCODE  0x0bull

#define PMEVTYPER_P        (1ull << 31)  /* don't count at EL1 */
#define PMEVTYPER_U        (1ull << 30)  /* don't count at EL0 */
#define PMEVTYPER_EVTCOUNT 0xffffull

#define PMUSERENR_EN  (1ull << 0)   /* EL0 access to all PMU regs (not EL1 ones) */
#define PMUSERENR_SW  (1ull << 1)   /* EL0 writes to PMSWINC */
#define PMUSERENR_CR  (1ull << 2)   /* EL0 reads of PMCCNTR */
#define PMUSERENR_ER  (1ull << 3)   /* EL0 reads of event counters, PMSELR r/w */
#define PMUSERENR_UEN (1ull << 4)   /* p9: EL0 access per PMUACR_EL1 */
#define PMUSERENR_IR  (1ull << 5)   /* p9 + ICNTR: with UEN, PMICNTR read-only */
#define PMUSERENR_TID (1ull << 6)   /* p9: EL0 reads of PMCEID0/1 trap */

#define PMUV3_IDX_CYCLE 31          /* C: flag bit 31, "counter 31" */
#define PMUV3_IDX_INSTR 32          /* F0: flag bit 32 (FEAT_PMUv3_ICNTR) */

/* Common architectural event numbers the simulated machine produces. */
#define ARMV8_EV_SW_INCR          0x00
#define ARMV8_EV_L1D_CACHE_REFILL 0x03
#define ARMV8_EV_L1D_CACHE        0x04
#define ARMV8_EV_INST_RETIRED     0x08
#define ARMV8_EV_EXC_TAKEN        0x09
#define ARMV8_EV_BR_MIS_PRED      0x10
#define ARMV8_EV_CPU_CYCLES       0x11
#define ARMV8_EV_BR_PRED          0x12
#define ARMV8_EV_INST_SPEC        0x1b
#define ARMV8_EV_CHAIN            0x1e
#define ARMV8_EV_BR_RETIRED       0x21
#define ARMV8_EV_BR_MIS_PRED_RETIRED 0x22

struct pmuv3 {
	struct pmuv3_config cfg;
	uint64_t impl;                 /* implemented flag bits */
	uint64_t pmcr;                 /* writable bits only (E D X DP LC LP) */
	uint64_t cnten, inten, ovs;
	uint64_t selr;
	uint64_t evtyper[31];
	uint64_t evcntr[31];
	uint64_t ccntr, ccfiltr;
	uint64_t icntr, icfiltr;
	uint64_t userenr, uacr;
	unsigned cycdiv;               /* PMCR.D prescaler: cycles mod 64 */
};

void pmuv3__init(struct pmuv3 *p, const struct pmuv3_config *cfg);
/* 1 if common event evt is one this machine counts (its PMCEID0/1 bit). */
int pmuv3__implements(unsigned evt);
/* Register access at exception level el (0 or 1). */
int pmuv3__mrs(struct pmuv3 *p, unsigned reg, int el, uint64_t *val);
int pmuv3__msr(struct pmuv3 *p, unsigned reg, int el, uint64_t val);

/*
 * The hardware side: n occurrences of event evt happened at exception level
 * el.  Every counter that counts evt at el (PMCR_EL0.E, PMCNTENSET, filter)
 * advances; counters that overflow set their flag.  Callers keep n small
 * enough that no counter wraps twice in one call (the engine stops at the
 * first overflow, see pmuv3__events_to_overflow), as real hardware counts one
 * event at a time.
 */
void pmuv3__count(struct pmuv3 *p, unsigned evt, uint64_t n, int el);
/* How many more evt-events at el until the first counter counting them
 * overflows (UINT64_MAX if none counts them). */
uint64_t pmuv3__events_to_overflow(const struct pmuv3 *p, unsigned evt, int el);
/* The PMU interrupt request line (level), as CheckForPMUOverflow: PMCR_EL0.E
 * and some counter with both its overflow flag and its interrupt enable set
 * — whether or not the counter itself is enabled. */
int pmuv3__irq_line(const struct pmuv3 *p);
/* Does counter idx (0..30, 31 = cycle, 32 = instr) count at 64 bits? */
int pmuv3__ovf64(const struct pmuv3 *p, unsigned idx);

#endif
