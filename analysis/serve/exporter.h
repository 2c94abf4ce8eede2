/*
 * exporter.h — counters kept open for a fleet's scraper (`pmc exporter`):
 * events counted per CPU (system-wide), per process, or per cgroup, and
 * their values rendered in the OpenMetrics text format (or Prometheus's
 * text format 0.0.4, for clients that ask for it) for /metrics.
 *
 * Three counter families, each sample labelled with event= and cpu=, or
 * pid= and comm=, or cgroup=:
 *
 *   pmc_events_total                  the raw count since the exporter
 *                                     opened the counter (monotonic)
 *   pmc_event_enabled_seconds_total   time the counter was enabled
 *   pmc_event_running_seconds_total   time it really had a hardware counter
 *
 * When the kernel multiplexes, the true count over a range is
 * increase(count) * increase(enabled) / increase(running) (docs/exporter.md).
 * A process that exits has its series dropped from the next scrape; the
 * exporter reports how many targets are left (exporter__live).
 */
#ifndef PMCSTAT_EXPORTER_H
#define PMCSTAT_EXPORTER_H

#include <stddef.h>
#include <sys/types.h>

struct exporter;

struct exporter_opts {
	char **events;                 /* event specs (pmc list) */
	int nevents;
	int skip_unsupported;          /* the default list: leave out what this
	                                * machine cannot count (else an error) */
	int system_wide;               /* one series per CPU */
	const unsigned char *cpus;     /* with system_wide: which (NULL: all) */
	int ncpus_set;                 /* size of cpus[] */
	const pid_t *pids;             /* processes (all threads, and children) */
	int npids;
	char *const *cgroups;          /* cgroup v2 directories (paths) */
	int ncgroups;
};

/*
 * Open and start the counters.  0, or -errno with pmc_errmsg() saying why
 * (an event that cannot be counted, a process that does not exist, no
 * permission, a cgroup that cannot be opened);
 * *usage is 1 when the reason is the user's input (an unknown event).
 * Unsupported default events are named in skipped (comma list, may be "").
 */
int exporter__open(struct exporter **out, const struct exporter_opts *o, int *usage,
    char *skipped, size_t skippedlen);

/* Formats of exporter__render. */
#define EXPORTER_OPENMETRICS 1
#define EXPORTER_TEXT_004    0
#define EXPORTER_CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define EXPORTER_CT_TEXT_004    "text/plain; version=0.0.4; charset=utf-8"

/* Which format an HTTP Accept header prefers (q-values honoured; no
 * header, or nothing known: the 0.0.4 text, as Prometheus's own exporters). */
int exporter__negotiate(const char *accept);

/*
 * Read every counter and render them: *buf is malloc'd (the caller frees
 * it), *len its length.  Processes that exited since are dropped first.
 * 0, or -1 (out of memory).
 */
int exporter__render(struct exporter *e, int format, char **buf, size_t *len);

/* Processes still counted (the pids given, less those that exited);
 * -1 when the targets are CPUs or cgroups, which do not go away. */
int exporter__live(struct exporter *e);

void exporter__close(struct exporter *e);

#endif
