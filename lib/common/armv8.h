/*
 * armv8.h — which ARMv8 PMUv3 architectural events are perf's generic
 * hardware events: the kernel's armv8_pmuv3_perf_map (arch/arm64,
 * arm_pmuv3.c), written once for the event layer (an ARMv8 event given as
 * the generic event it is: pmc__event_generic, pmc_event_kind) and for the
 * simulated PMU (a generic event opened on it), so the two cannot disagree.
 */
#ifndef PMC_COMMON_ARMV8_H
#define PMC_COMMON_ARMV8_H

#include <stdint.h>

/* The architectural event number behind generic event `generic`
 * (PERF_COUNT_HW_*): 0 and *evt, or -ENOENT if it has none. */
int pmc__armv8_of_generic(uint64_t generic, unsigned *evt);
/* The generic event architectural event `evt` is: 0 and *generic, or
 * -ENOENT. */
int pmc__armv8_to_generic(unsigned evt, uint64_t *generic);

#endif
