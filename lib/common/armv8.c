/* armv8.c — the kernel's armv8_pmuv3_perf_map, once (see armv8.h). */
#include <errno.h>
#include <stddef.h>
#include <linux/perf_event.h>

#include "common/armv8.h"

static const struct {
	unsigned armv8;
	uint64_t generic;
} armv8_generic[] = {
	{ 0x11, PERF_COUNT_HW_CPU_CYCLES },              /* CPU_CYCLES */
	{ 0x08, PERF_COUNT_HW_INSTRUCTIONS },            /* INST_RETIRED */
	{ 0x04, PERF_COUNT_HW_CACHE_REFERENCES },        /* L1D_CACHE */
	{ 0x03, PERF_COUNT_HW_CACHE_MISSES },            /* L1D_CACHE_REFILL */
	{ 0x21, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },     /* BR_RETIRED */
	{ 0x10, PERF_COUNT_HW_BRANCH_MISSES },           /* BR_MIS_PRED */
	{ 0x23, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND }, /* STALL_FRONTEND */
	{ 0x24, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },  /* STALL_BACKEND */
};
#define NMAP (sizeof(armv8_generic) / sizeof(armv8_generic[0]))

int pmc__armv8_of_generic(uint64_t generic, unsigned *evt)
{
	for (size_t i = 0; i < NMAP; i++)
		if (armv8_generic[i].generic == generic) {
			*evt = armv8_generic[i].armv8;
			return 0;
		}
	return -ENOENT;
}

int pmc__armv8_to_generic(unsigned evt, uint64_t *generic)
{
	for (size_t i = 0; i < NMAP; i++)
		if (armv8_generic[i].armv8 == evt) {
			*generic = armv8_generic[i].generic;
			return 0;
		}
	return -ENOENT;
}
