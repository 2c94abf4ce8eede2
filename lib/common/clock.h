/*
 * clock.h — the host's clocks, one helper per meaning: monotonic time for
 * intervals and time-outs, real (wall) time for what a log records as the
 * date, and a CLOCK_REALTIME deadline for pthread_cond_timedwait (whose
 * default clock it is).  The backend's clock (simulated time with the sim)
 * is the backend's own .now; these are the host's.
 */
#ifndef PMC_COMMON_CLOCK_H
#define PMC_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns. */
uint64_t pmc__mono_ns(void);
/* CLOCK_REALTIME in ns (since the epoch). */
uint64_t pmc__real_ns(void);
/* *ts = CLOCK_REALTIME now + ms, normalised: a pthread_cond_timedwait
 * deadline. */
void pmc__deadline_in(struct timespec *ts, long ms);

#endif
