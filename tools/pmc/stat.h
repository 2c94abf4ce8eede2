/*
 * stat.h — what `pmc stat`'s three parts share: cmd_stat.c decides what to
 * count, stat_count.c counts it, stat_print.c prints the counts (human, -x CSV, --json;
 * totals, intervals, per-CPU/core/socket/thread rows, per process).
 */
#ifndef PMC_STAT_H
#define PMC_STAT_H

#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "pmc.h"
#include "target.h"

#define STAT_MAX_EVENTS 64

/* One event as given (-e), with its PMCs: one, one per CPU (-a), or one
 * per thread (--per-thread). */
struct stat_ev {
	char *spec;                     /* as given: "cycles:u" */
	char name[160];                 /* as resolved: "cpu-clock:u" after a user-only fallback */
	int leader;                     /* index of its group's leader ({a,b}), -1 if none */
	int supported;                  /* 0: "<not supported>" */
	char why[512];
	int sev;                        /* its event in the run's session; -1: none */
	int first;                      /* its first PMC in the session */
	pmc_id_t *ids;
	int *id_unit;                   /* aggregation unit of each PMC (see stat_unit) */
	int nids;
	struct pmc_event_kind kind;
	double scale;
	char unit[32];
	struct pmc_reading *rk;         /* reading of each PMC: this run, or this interval */
	struct pmc_reading *prev_rk;    /* at the last interval */
	struct pmc_reading *base_rk;    /* at the end of --delay (counts before it are not shown) */
	double *runs;                   /* -r: the total of each run */
	int nruns, capruns;
};

enum stat_aggr { AGGR_GLOBAL, AGGR_CPU, AGGR_CORE, AGGR_SOCKET, AGGR_THREAD };

/* A row label of the aggregation: "CPU0", "S0-D0-C1", "S0", "sleep-1234". */
struct stat_unit {
	char label[160];
	int ncpus;                      /* CPUs aggregated (core, socket) */
	int cpu;                        /* AGGR_CPU: the CPU; else -1 */
};

struct stat_opts {
	struct stat_ev ev[STAT_MAX_EVENTS];
	int nev;
	struct cli_target tgt;
	enum stat_aggr aggr;
	struct stat_unit *units;
	int nunits, capunits;
	int *cpu_unit;                  /* -a: each CPU's unit */
	int interval_ms;
	int repeat;
	int delay_ms;
	int detailed;
	const char *sep;
	int json;
	int per_process;
	int no_inherit;
	const char *backend;
	pid_t child;                    /* the command's pid (last run) */
	struct pmc_session *sess;       /* the last run's PMCs */
	FILE *out;
};

/* One run's outcome (stat_run_once). */
struct stat_run_result {
	int exit_status;
	double elapsed_ns;
	int logfd;                      /* --per-process: the log to read back */
};

/* Ctrl-C and SIGTERM end the counting (the command gets them too) and are
 * remembered: stat_interrupted; SIGPIPE is ignored. */
void stat_catch_signals(void);
int stat_interrupted(void);
/* -a: each CPU's aggregation unit (-A, --per-core, --per-socket). */
void stat_cpu_units(struct stat_opts *o);
/* One run: the command (or -p/-t/-a for the duration) counted from zero by
 * each event's own PMCs, -I's intervals printed; a setup failure exits. */
void stat_run_once(struct stat_opts *o, int run, struct stat_run_result *res);
/* Release the run's session and each event's readings (before the next
 * run, and at the end). */
void stat_release(struct stat_opts *o);

/* The value of a reading in the event's unit (sysfs scale applied). */
double stat_value(const struct stat_ev *e, const struct pmc_reading *r);
/* The readings of e's PMCs in unit u (u < 0: all) added up. */
void stat_sum(const struct stat_ev *e, int u, int delta, struct pmc_reading *out);

/* The totals at the end: elapsed is the mean over the runs (-r) and
 * elapsed_sd its standard deviation; ru the command's user/sys times (NULL:
 * none); the exit status if a command ran. */
void stat_print_final(struct stat_opts *o, double elapsed_ns, double elapsed_sd_ns,
    const struct rusage *ru, int status_known, int status);
/* One interval: each PMC's reading less the one at the last interval. */
void stat_print_interval(struct stat_opts *o, double t_ns, double ival_ns);
/* --per-process: the table read back from the PROCEXIT log. */
void stat_print_per_process(struct stat_opts *o, int logfd, pid_t root);

#endif
