/*
 * sampling.h — the options of the sampling session `pmc record` and `pmc
 * top` share: which events, how often (-F/-c), call chains (-g,
 * --call-graph dwarf), off-CPU switch records, the target (target.h); the
 * session itself (the PMCs allocated, attached and started) is the
 * library's pmc_session (pmc.h), and this file says what fails.  Where the
 * log goes (a file for record, a pipe to the live reader for top) and how
 * the session ends are the commands' own.
 */
#ifndef PMC_SAMPLING_H
#define PMC_SAMPLING_H

#include <stdint.h>
#include <sys/types.h>

#include "pmc.h"
#include "target.h"

#define CLI_SAMPLING_MAX_EVENTS 64

struct cli_sampling {
	/* the description, from the options */
	char *spec[CLI_SAMPLING_MAX_EVENTS];
	int nev;
	int max_events;                   /* the command's limit (at most the above) */
	int default_event;                /* no -e: cycles, else cpu-clock */
	uint64_t hz;                      /* -F */
	uint64_t period;                  /* -c */
	uint64_t tp_period;               /* tracepoints' period: 1 without -F/-c (perf's) */
	int callchain;                    /* -g, --call-graph */
	uint32_t ustack;                  /* --call-graph dwarf: user stack bytes */
	int offcpu;                       /* --off-cpu */
	int quiet;                        /* no warnings about substituted events */
	const char *eacces_hint;          /* appended to a system-wide EACCES/EPERM */
	struct cli_target tgt;
	int end_grace_ms;                 /* cli_sampling_end_child's grace, -1: none */
	/* Before a setup failure exits: the command's own cleanup (its
	 * output, its terminal); may be NULL. */
	void (*cleanup)(void *arg);
	void *cleanup_arg;

	/* the session */
	int is_linux;                     /* the Linux backend, not the sim */
	struct pmc_session *sess;         /* its PMCs (pmc_session_pmc) */
	pid_t child;                      /* the command, once spawned */
	int child_done;
	int status;                       /* its wait status once child_done */
};

/* A positive decimal integer option value; else a usage error naming what. */
uint64_t cli_parse_u64(const char *s, const char *what);

/* -e LIST: append its events (a usage error past max_events). */
/* --call-graph fp | dwarf[,SIZE] | lbr of record and top: call chains, and
 * with dwarf SIZE bytes of user stack per sample; a usage error else. */
void cli_sampling_call_graph(struct cli_sampling *s, const char *arg);
void cli_sampling_add_events(struct cli_sampling *s, const char *list);

/*
 * After the options and cli_target_finish: -F and -c are exclusive; without
 * -e the event is cycles (cpu-clock with --off-cpu, so that on- and off-CPU
 * time share a unit); without -F or -c, default_hz samples per second.
 */
void cli_sampling_finish(struct cli_sampling *s, uint64_t default_hz);
/* The period PMC id samples at (after cli_sampling_alloc): tracepoints
 * every event without -F/-c; -c as given for software events and
 * tracepoints, raised to mincount for hardware counters; 0: by frequency. */
uint64_t cli_sampling_period(const struct cli_sampling *s, pmc_id_t id);

/*
 * Select the backend (NULL: the default) and initialise libpmc; then a -F
 * above kernel.perf_event_max_sample_rate is lowered to it on Linux (said on
 * stderr when warn is set).
 */
void cli_sampling_init(struct cli_sampling *s, const char *backend, int warn);

/*
 * The session (pmc_session_new) and every event's PMCs (pmc_session_add:
 * one per CPU system-wide, else one following the target and, for
 * processes, their children) and the off-CPU event.  The default event
 * falls back to cpu-clock on a machine without a hardware PMU.  Failures go
 * to cli_sampling_fail.
 */
void cli_sampling_alloc(struct cli_sampling *s);

/*
 * Attach the PMCs to the target (the command in s->child, or -p/-t) and
 * start them; then let the command run (pmc_spawn_go).  Failures go to
 * cli_sampling_fail.  The command, if any, must have been spawned (pmc_spawn) before.
 */
void cli_sampling_start(struct cli_sampling *s);
void cli_sampling_go(struct cli_sampling *s);

void cli_sampling_stop(struct cli_sampling *s);

/*
 * End the command if it still runs: sig, then wait for it.  end_grace_ms
 * >= 0: a command still running that long after sig gets SIGKILL (one that
 * ignores sig must not keep the caller from exiting).
 */
void cli_sampling_end_child(struct cli_sampling *s, int sig);

/* A setup failure: the command is killed, s->cleanup runs, the message is
 * said and pmc exits with code. */
void cli_sampling_fail(struct cli_sampling *s, int code, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

/* Release the events, the session (its PMCs) and the target. */
void cli_sampling_free(struct cli_sampling *s);

#endif
