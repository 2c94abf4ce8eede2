/*
 * offcpu.h — off-CPU and wall-clock profiles (`pmc record --off-cpu`,
 * `pmc report --wall`).
 *
 * A recording with off-CPU time has a sampling PMC on the software event
 * context-switches that samples every switch-out with the call chain where
 * the thread blocked, and logs SWITCH records (pmc_set_switch_log).  Once a
 * profile is loaded, each such sample is weighed by the time its thread
 * then spent off CPU: from the sample to the thread's next switch-in, in
 * nanoseconds.  The event is renamed "offcpu-time", and every report and
 * export (flame graphs, pprof ...) weighs by that time.
 *
 * On-CPU time sampled by cpu-clock or task-clock has periods in nanoseconds
 * too, so the two add up: offcpu__wall() merges them into one event,
 * "wall-time", where a function's share is its share of the threads' wall
 * clock (running, runnable or blocked in it).
 */
#ifndef PMCSTAT_OFFCPU_H
#define PMCSTAT_OFFCPU_H

#include <stddef.h>
#include <stdint.h>

struct profile;

/* A thread got a CPU (a SWITCH record without PMCLOG_SWITCH_F_OUT). */
struct offcpu_in {
	int32_t tid;
	uint64_t time;
};

/*
 * Weigh the samples of the context-switches event (pmc record --off-cpu's;
 * perf record -e cs -c 1 -g --switch-events too), marked prof_event.offcpu,
 * by their off-CPU time, given every switch-in of the recording (sorted
 * here); nothing changes in a recording without switch-ins.  A switch-out whose thread never came back
 * (it exited, or the recording ended first) has no duration and is dropped.
 */
void offcpu__apply(struct profile *p, struct offcpu_in *in, size_t n);
/* 1 if an event of p is one offcpu__apply turns into off-CPU time (its
 * samples are then weighed one by one). */
int offcpu__has_switch_event(const struct profile *p);

/*
 * Merge the off-CPU event and the on-CPU time events (cpu-clock,
 * task-clock: nanosecond periods) into one event "wall-time".  0, or
 * -errno with pmc_errmsg() saying why (-ENOENT: no off-CPU samples in the
 * recording; -ENOMEM).
 */
int offcpu__wall(struct profile *p);

#endif
