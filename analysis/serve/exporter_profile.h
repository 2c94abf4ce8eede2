/*
 * exporter_profile.h — the CPU profiles `pmc exporter` serves at
 * /debug/pprof/profile?seconds=N[&hz=HZ] (Go's net/http/pprof convention,
 * which Parca, Grafana Alloy's pyroscope.scrape and `go tool pprof` pull):
 * the exporter's targets (every CPU or some, processes, or cgroups) sampled
 * with call chains for N seconds by the same library session `pmc record`
 * and `pmc top` use (pmc_session, the process's log), the log then loaded
 * and symbolized on the node as `pmc report` loads it (profile__load) and
 * written as `pmc report -F pprof` writes it (export__pprof): a gzipped
 * profile.proto with mappings and build ids.
 *
 * One profile at a time: it runs on a thread of its own while the HTTP
 * server goes on answering (/metrics above all), its request deferred
 * (HTTPD_LATER) and answered by xprofile__poll once it is done; a request
 * while one runs gets 429 with Retry-After.  A client that goes away
 * cancels its profile.
 */
#ifndef PMCSTAT_EXPORTER_PROFILE_H
#define PMCSTAT_EXPORTER_PROFILE_H

#include <stdint.h>
#include <sys/types.h>

#include "serve/httpd.h"

#define XPROFILE_PATH         "/debug/pprof/profile"
#define XPROFILE_EVENT        "cpu-clock"
#define XPROFILE_DEFAULT_HZ   99
#define XPROFILE_DEFAULT_SECS 30       /* without ?seconds= (Go's default) */
#define XPROFILE_MAX_SECS     300      /* the default bound of ?seconds= */
#define XPROFILE_CT           "application/octet-stream"

struct xprofile_opts {
	uint64_t hz;                   /* samples per second without ?hz= (-F) */
	uint32_t ustack;               /* --call-graph dwarf: user stack bytes per
	                                * sample; 0: frame pointers */
	int max_seconds;               /* ?seconds= at most this */
	/* the targets, as exporter_opts (the arrays must outlive the profiler) */
	int system_wide;
	const unsigned char *cpus;     /* NULL: every CPU */
	int ncpus_set;
	const pid_t *pids;             /* those still running are profiled */
	int npids;
	char *const *cgroups;          /* each on every CPU */
	int ncgroups;
};

struct xprofile;

/* A profiler serving through h: 0, or -ENOMEM. */
int xprofile__new(struct xprofile **out, const struct xprofile_opts *o, struct httpd *h);

/*
 * The handler of XPROFILE_PATH: 400 with the reason as the body for a bad
 * ?seconds= (not a whole number from 1 to max_seconds) or ?hz= (not a whole
 * number from 1 to kernel.perf_event_max_sample_rate); 429 with Retry-After
 * while a profile runs; 500 when the profile cannot start; else the profile
 * starts and the request is deferred (rs->status HTTPD_LATER).
 */
void xprofile__handle(struct xprofile *x, const struct httpd_request *rq,
    struct httpd_response *rs);

/*
 * After each httpd__serve: a profile that is done is answered (200 and the
 * gzipped profile, or 500 or 503 with why); one whose client went away is
 * cancelled.  Returns the status answered, or 0.
 */
int xprofile__poll(struct xprofile *x);

/* Is a profile running (sampling or symbolizing)? */
int xprofile__busy(const struct xprofile *x);

/* Cancels a running profile, waits for its thread and frees everything. */
void xprofile__free(struct xprofile *x);

#endif
