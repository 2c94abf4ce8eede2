/* clock.c — the host's clocks (see clock.h). */
#include "clock.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t pmc__mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t pmc__real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

void pmc__deadline_in(struct timespec *ts, long ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}
