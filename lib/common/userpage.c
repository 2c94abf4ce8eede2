/*
 * userpage.c — libpmc's reader of the perf_event_mmap_page protocol (see
 * userpage.h): the fast, system-call-free pmc_read of a self-monitoring PMC
 * on real hardware, and of the sim's control page in the tests.
 */
#include <errno.h>
#include <stdint.h>

#include "common/userpage.h"

/* capabilities bits (the bitfield's layout in perf_event.h) */
#define CAP_USER_RDPMC     (1ull << 2)
#define CAP_USER_TIME      (1ull << 3)

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* capabilities bits (the bitfield's layout in perf_event.h) */
#define CAP_USER_RDPMC     (1ull << 2)
#define CAP_USER_TIME      (1ull << 3)
#define CAP_USER_TIME_ZERO (1ull << 4)
#define CAP_BIT0_DEPRECATED (1ull << 1)

int pmc__userpage_read(struct perf_event_mmap_page *pc,
		       uint64_t (*rdpmc)(void *arg, uint32_t idx), void *arg,
		       uint64_t *value, uint64_t *enabled, uint64_t *running)
{
	uint64_t count, ena, run, caps, cyc = 0, toff = 0;
	uint32_t seq, idx, mult = 0;
	uint16_t width, shift = 0;
	int tries;

	for (tries = 0;; tries++) {
		if (tries >= 100000)
			return -EAGAIN;
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue;               /* an update is in progress */
		ena = LOAD(pc->time_enabled);
		run = LOAD(pc->time_running);
		caps = LOAD(pc->capabilities);
		if (caps & CAP_USER_TIME) {
			cyc = rdpmc(arg, PMC_USERPAGE_TIMER);
			toff = LOAD(pc->time_offset);
			mult = LOAD(pc->time_mult);
			shift = LOAD(pc->time_shift);
		}
		idx = LOAD(pc->index);
		count = LOAD(pc->offset);
		width = LOAD(pc->pmc_width);
		if ((caps & CAP_USER_RDPMC) && idx) {
			uint64_t pmc;

			if (width == 0 || width > 64)
				return -EINVAL;
			pmc = rdpmc(arg, idx - 1);
			if (width < 64)
				pmc = (uint64_t)((int64_t)(pmc << (64 - width)) >> (64 - width));
			count += pmc;
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) == seq)
			break;
	}
	if (idx && !(caps & CAP_USER_RDPMC))
		return -EOPNOTSUPP;
	if (caps & CAP_USER_TIME) {
		uint64_t quot, rem, delta;

		if (shift >= 64)
			return -EINVAL;
		quot = cyc >> shift;
		rem = cyc & ((1ull << shift) - 1);
		delta = toff + quot * mult + ((rem * mult) >> shift);
		ena += delta;
		if (idx)
			run += delta;
	}
	*value = count;
	if (enabled)
		*enabled = ena;
	if (running)
		*running = run;
	return 0;
}

