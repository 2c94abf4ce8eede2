/*
 * target.h — what `pmc stat` and `pmc record` measure, described once and
 * validated once (perf's util/target.c): a command, existing processes
 * (-p) or threads (-t), every CPU (-a) or some (-C), and how long (-l).
 * Both commands hand their target options here, so a value one accepts the
 * other accepts too, with the same message.
 */
#ifndef PMC_TARGET_H
#define PMC_TARGET_H

#include <stdint.h>
#include <sys/types.h>

#define CLI_MAX_CPUS 4096

struct cli_target {
	char **cmd;                      /* the command and its arguments, or NULL */
	pid_t *pids;                     /* -p / -t */
	int npids;
	int threads;                     /* -t: pids are thread ids */
	int system_wide;                 /* -a or -C */
	int cpu_list;                    /* -C: only the CPUs in cpus[] */
	unsigned char cpus[CLI_MAX_CPUS];
	double duration;                 /* -l: seconds, 0 = until the end */
};

/* The getopt_long spellings of the target options, for each command's table. */
#define CLI_TARGET_OPTSTRING "p:t:aC:l:"
#define CLI_TARGET_LONGOPTS \
	{ "pid", required_argument, NULL, 'p' }, \
	{ "tid", required_argument, NULL, 't' }, \
	{ "all-cpus", no_argument, NULL, 'a' }, \
	{ "cpu", required_argument, NULL, 'C' }, \
	{ "duration", required_argument, NULL, 'l' }

/*
 * Option c (from getopt) with its argument: 1 if it was a target option and
 * is now recorded, 0 if it is not one.  A bad value is a usage error.
 */
int cli_target_option(struct cli_target *t, int c, const char *arg);

/*
 * After the options: the command is argv[optind...] if any; the combination
 * is checked ("nothing to VERB" when there is no target; a command and -p
 * are exclusive; -p/-t and -a/-C are exclusive).  A command with -a or -C
 * measures the whole system (or those CPUs) while the command runs.
 */
void cli_target_finish(struct cli_target *t, int argc, char **argv, int optind,
    const char *verb);

/*
 * The clock -l, -I and the status line run on, in ns: with a command the
 * backend's (simulated time with the sim, which advances only while the
 * command runs, so -l means the same on both backends); without one, real
 * time (CLOCK_MONOTONIC), as nothing would advance the sim's.
 */
uint64_t cli_target_now_ns(const struct cli_target *t);

/* Without a command or -a/-C: 1 once every -p process or -t thread has
 * exited, else 0.  cli_target_say_gone says so on stderr. */
int cli_target_gone(const struct cli_target *t);
void cli_target_say_gone(const struct cli_target *t);

/* The exit status pmc passes on for a command that ended with wait
 * status ws: its own, or 128 + the signal that ended it (as a shell). */
int cli_target_exit_status(int ws);

/* 1 if the CPU is measured (always, without -C). */
int cli_target_has_cpu(const struct cli_target *t, int cpu);

void cli_target_free(struct cli_target *t);

#endif
