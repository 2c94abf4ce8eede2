/*
 * offcpu.h — off-CPU and wall-clock profiles (`pmc record --off-cpu`,
 * `pmc report --wall`).
 *
 * A recording with off-CPU time has a sampling PMC on the software event
 * context-switches that samples every switch-out with the call chain where
 * the thread blocked, and logs SWITCH records (pmc_set_switch_log).
 * Loading the profile weighs each such sample by the time its thread then
 * spent off CPU: from the sample to the thread's next switch-in, in
 * nanoseconds (profile/switches.c, a part of the loading).  The event is
 * renamed "offcpu-time", and every report and export (flame graphs, pprof
 * ...) weighs by that time.
 *
 * On-CPU time sampled by cpu-clock or task-clock has periods in nanoseconds
 * too, so the two add up: offcpu__wall() merges them into one event,
 * "wall-time", where a function's share is its share of the threads' wall
 * clock (running, runnable or blocked in it).
 */
#ifndef PMCSTAT_OFFCPU_H
#define PMCSTAT_OFFCPU_H

/* The dependency points one way: this sits above profile.h (offcpu.c
 * includes it), and nothing of the profile includes this header. */
struct profile;

/*
 * Merge the off-CPU event and the on-CPU time events (cpu-clock,
 * task-clock: nanosecond periods) into one event "wall-time".  0, or
 * -errno with pmc_errmsg() saying why (-ENOENT: no off-CPU samples in the
 * recording; -ENOMEM).
 */
int offcpu__wall(struct profile *p);

#endif
