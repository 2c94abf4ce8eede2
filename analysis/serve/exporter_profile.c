/*
 * exporter_profile.c — `pmc exporter`'s /debug/pprof/profile (see
 * exporter_profile.h).  A request starts a thread that samples the
 * exporter's targets through a pmc_session into an unlinked scratch log,
 * loads that log as pmc report does and writes it as report -F pprof does,
 * into memory; the HTTP loop answers the deferred request once the thread
 * says it is done (httpd__wake).  Nothing here samples or symbolizes in a
 * way of its own: the session, the log, the profile and the pprof writer
 * are the ones record, top and report use.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "pmc.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/thread.h"
#include "serve/exporter_profile.h"
#include "profile/profile.h"
#include "export/export.h"
#include "report/report.h"

struct xprofile {
	struct xprofile_opts o;
	struct httpd *h;
	pthread_mutex_t mu;
	int cancelfd;                  /* eventfd: the thread's wait ends early */
	/* the profile being made (one at a time) */
	int running;                   /* a thread to join */
	int done;                      /* ... which has finished (under mu) */
	int cancelled;
	pthread_t th;
	unsigned long long ticket;     /* the request waiting for it */
	int seconds;
	uint64_t hz;
	uint64_t end_ns;               /* monotonic: when sampling ends */
	/* its answer (under mu once done) */
	int status;
	char *body;
	size_t len;
};

int xprofile__new(struct xprofile **out, const struct xprofile_opts *o, struct httpd *h)
{
	struct xprofile *x = calloc(1, sizeof(*x));

	*out = NULL;
	if (!x)
		return pmc__nomem();
	if ((x->cancelfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0) {
		int er = errno;
		free(x);
		return pmc__err(-er, "cannot make an eventfd: %s", strerror(er));
	}
	x->o = *o;
	x->h = h;
	pthread_mutex_init(&x->mu, NULL);
	*out = x;
	return 0;
}

/* The answer's body: a line of text (malloc'd; NULL out of memory). */
static char *text(size_t *len, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *text(size_t *len, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	*len = (size_t)n;
	return s;
}

/* kernel.perf_event_max_sample_rate, or 0 if unknown (not Linux). */
static uint64_t max_sample_rate(void)
{
	char buf[32] = "";
	int fd = open("/proc/sys/kernel/perf_event_max_sample_rate", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0 || strcmp(pmc_backend_name(), "linux"))
		return 0;
	buf[n] = '\0';
	return strtoull(buf, NULL, 10);
}

/* A whole number from 1 to max (decimal digits only): 0 and *v, or -1. */
static int whole(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 18)
		return -1;
	for (; *s; s++)
		x = x * 10 + (uint64_t)(*s - '0');
	if (x < 1 || x > max)
		return -1;
	*v = x;
	return 0;
}

/* ---- the profile's thread ---------------------------------------------------- */

/* Sample the targets into fd for x->seconds (or until cancelled): 0, or
 * the HTTP status of the failure with why. */
static int sample(struct xprofile *x, int fd, char *why, size_t wl)
{
	const struct xprofile_opts *o = &x->o;
	const struct pmc_session_opts so = {
		.ps_hz = x->hz, .ps_callchain = 1, .ps_ustack = o->ustack,
		.ps_system_wide = o->system_wide || o->ncgroups,
		.ps_cpus = o->cpus, .ps_ncpus = o->cpus ? o->ncpus_set : 0,
	};
	struct pmc_session *s = pmc_session_new(&so);
	pid_t *live = NULL, failed = 0;
	int nlive = 0, rc = 500;
	const char *spec = XPROFILE_EVENT;

	if (!s) {
		snprintf(why, wl, "cannot start a sampling session: %s", pmc_errmsg());
		return 500;
	}
	/* a cgroup is the event once more, each of its PMCs on that cgroup */
	for (int g = 0; g < (o->ncgroups ? o->ncgroups : 1); g++) {
		int first, n;
		if (pmc_session_add(s, spec, 0) < 0) {
			snprintf(why, wl, "cannot sample '%s': %s", spec, pmc_errmsg());
			goto out;
		}
		n = o->ncgroups ? pmc_session_event(s, g, &first) : 0;
		for (int i = 0; i < n; i++)
			if (pmc_set_cgroup(pmc_session_pmc(s, first + i, NULL, NULL),
			    o->cgroups[g]) < 0) {
				snprintf(why, wl, "cannot profile cgroup '%s': %s", o->cgroups[g],
				    pmc_errmsg());
				goto out;
			}
	}
	if (!so.ps_system_wide) {
		if (!(live = calloc((size_t)o->npids + 1, sizeof(*live)))) {
			snprintf(why, wl, "out of memory");
			goto out;
		}
		for (int i = 0; i < o->npids; i++)
			if (pmc_target_exists(o->pids[i]))
				live[nlive++] = o->pids[i];
		if (!nlive) {
			snprintf(why, wl, "every process the exporter serves has exited");
			rc = 503;
			goto out;
		}
	}
	/* the log's writer thread starts here (no signals) */
	if (pmc_configure_logfile_flags(fd, o->ustack ? PMC_LOGF_ZSTD : 0) < 0) {
		snprintf(why, wl, "cannot start the log: %s", pmc_errmsg());
		goto out;
	}
	if (live && pmc_session_attach(s, live, nlive, &failed) < 0) {
		snprintf(why, wl, "cannot attach to process %d: %s", (int)failed, pmc_errmsg());
		pmc_log_finish(NULL);
		goto out;
	}
	if (pmc_session_start(s, &spec) < 0) {
		snprintf(why, wl, "cannot start sampling '%s': %s", spec, pmc_errmsg());
		pmc_session_stop(s);
		pmc_log_finish(NULL);
		goto out;
	}
	for (;;) {
		uint64_t now = pmc__mono_ns();
		struct pollfd pf = { x->cancelfd, POLLIN, 0 };
		if (now >= x->end_ns)
			break;
		uint64_t ms = (x->end_ns - now + 999999) / 1000000;
		if (poll(&pf, 1, (int)ms) > 0)
			break;                 /* cancelled */
	}
	pmc_session_stop(s);
	if (pmc_log_finish(NULL) < 0) {
		snprintf(why, wl, "cannot write the profile's log: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(live);
	pmc_session_free(s);
	return rc;
}

/* The log in fd as a gzipped pprof profile in x->body: 0, or 500 with why. */
static int write_pprof(struct xprofile *x, int fd, char *why, size_t wl)
{
	struct prof_load_opts lo;
	struct report_opts ro;
	struct profile *p = NULL;
	char path[64];
	FILE *f;
	int rc;

	memset(&lo, 0, sizeof(lo));
	memset(&ro, 0, sizeof(ro));
	/* as pmc report -F pprof: the sums, demangled names, inlined frames */
	lo.sums = 1;
	lo.sym.demangle = 1;
	ro.callgraph = -1;
	ro.inline_frames = 1;
	profile__filter_init(&ro.flt);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((rc = profile__load(&p, path, &lo)) != 0) {
		snprintf(why, wl, "cannot read the profile's log: %s", pmc_errmsg());
		return 500;
	}
	if (!(f = open_memstream(&x->body, &x->len))) {
		profile__free(p);
		snprintf(why, wl, "out of memory");
		return 500;
	}
	rc = export__pprof(f, p, &ro);
	if (rc == 0)
		rc = profile__nomem(p);
	if (rc != 0)
		snprintf(why, wl, "cannot write the profile: %s", pmc_errmsg());
	if (fclose(f) != 0 && rc == 0) {
		rc = -1;
		snprintf(why, wl, "out of memory");
	}
	profile__free(p);
	if (rc != 0) {
		free(x->body);
		x->body = NULL;
		return 500;
	}
	return 0;
}

/* A scratch file for the log: unlinked at once (in $TMPDIR or /tmp). */
static int scratch(char *why, size_t wl)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	int fd;

	snprintf(tmpl, sizeof(tmpl), "%s/pmc-exporter-XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkostemp(tmpl, O_CLOEXEC)) < 0) {
		snprintf(why, wl, "cannot make a scratch file in %.200s: %s", dir && *dir ? dir : "/tmp",
		    strerror(errno));
		return -1;
	}
	unlink(tmpl);
	return fd;
}

static void *profile_thread(void *arg)
{
	struct xprofile *x = arg;
	char why[1024] = "";
	int status = 500, fd = scratch(why, sizeof(why));

	if (fd >= 0 && (status = sample(x, fd, why, sizeof(why))) == 0) {
		pthread_mutex_lock(&x->mu);
		int cancelled = x->cancelled;
		pthread_mutex_unlock(&x->mu);
		status = cancelled ? 503 : write_pprof(x, fd, why, sizeof(why));
		if (cancelled)
			snprintf(why, sizeof(why), "the profile was cancelled");
	}
	if (fd >= 0)
		close(fd);
	pthread_mutex_lock(&x->mu);
	if (status == 0) {
		x->status = 200;
	} else {
		x->status = status;
		x->body = text(&x->len, "pmc exporter: %s\n", why);
	}
	x->done = 1;
	pthread_mutex_unlock(&x->mu);
	httpd__wake(x->h);
	return NULL;
}

/* ---- the HTTP side ------------------------------------------------------------- */

int xprofile__busy(const struct xprofile *x)
{
	return x->running;
}

void xprofile__handle(struct xprofile *x, const struct httpd_request *rq,
    struct httpd_response *rs)
{
	static char retry[64];         /* the server's one thread answers */
	char val[64];
	uint64_t seconds = (uint64_t)(x->o.max_seconds < XPROFILE_DEFAULT_SECS ?
	    x->o.max_seconds : XPROFILE_DEFAULT_SECS), hz = x->o.hz, maxhz = max_sample_rate();
	int r;

	rs->content_type = "text/plain; charset=utf-8";
	if ((r = httpd__query(rq->query, "seconds", val, sizeof(val))) != 0 &&
	    (r < 0 || whole(val, (uint64_t)x->o.max_seconds, &seconds) < 0)) {
		rs->status = 400;
		rs->body = text(&rs->len, "pmc exporter: seconds: '%s' is not a whole number of "
		    "seconds from 1 to %d\n", r < 0 ? "(malformed)" : val, x->o.max_seconds);
		return;
	}
	if ((r = httpd__query(rq->query, "hz", val, sizeof(val))) != 0 &&
	    (r < 0 || whole(val, maxhz ? maxhz : 1000000, &hz) < 0)) {
		rs->status = 400;
		if (maxhz)
			rs->body = text(&rs->len, "pmc exporter: hz: '%s' is not a sampling rate: a "
			    "whole number of samples per second from 1 to %llu "
			    "(kernel.perf_event_max_sample_rate)\n", r < 0 ? "(malformed)" : val,
			    (unsigned long long)maxhz);
		else
			rs->body = text(&rs->len, "pmc exporter: hz: '%s' is not a sampling rate: a "
			    "whole number of samples per second from 1 to 1000000\n",
			    r < 0 ? "(malformed)" : val);
		return;
	}
	if (r == 0 && maxhz && hz > maxhz)
		hz = maxhz;                /* -F above what the kernel now allows */
	if (x->running) {
		uint64_t now = pmc__mono_ns();
		/* the rest of its sampling (none once cancelled), and a second
		 * to symbolize */
		unsigned long long left = x->end_ns > now && !x->cancelled ?
		    (x->end_ns - now + 999999999) / 1000000000 : 0;
		snprintf(retry, sizeof(retry), "Retry-After: %llu\r\n", left + 1);
		rs->status = 429;
		rs->headers = retry;
		rs->body = text(&rs->len, "pmc exporter: a profile is being taken (one at a "
		    "time); retry in %llu s\n", left + 1);
		return;
	}
	x->seconds = (int)seconds;
	x->hz = hz;
	x->end_ns = pmc__mono_ns() + seconds * 1000000000ull;
	x->ticket = rq->ticket;
	x->done = x->cancelled = 0;
	x->status = 0;
	x->body = NULL;
	x->len = 0;
	uint64_t junk;
	ssize_t got = read(x->cancelfd, &junk, sizeof(junk));
	(void)got;                     /* a cancel of the last profile: forgotten */
	int e = pmc__thread_start(&x->th, profile_thread, x);
	if (e) {
		rs->status = 500;
		rs->body = text(&rs->len, "pmc exporter: cannot start the profile: %s\n",
		    strerror(e));
		return;
	}
	x->running = 1;
	rs->status = HTTPD_LATER;
}

static void cancel(struct xprofile *x)
{
	uint64_t one = 1;
	pthread_mutex_lock(&x->mu);
	x->cancelled = 1;
	pthread_mutex_unlock(&x->mu);
	ssize_t w = write(x->cancelfd, &one, sizeof(one));
	(void)w;                       /* EAGAIN: a cancel is pending already */
}

int xprofile__poll(struct xprofile *x)
{
	if (!x->running)
		return 0;
	pthread_mutex_lock(&x->mu);
	int done = x->done;
	pthread_mutex_unlock(&x->mu);
	if (!done) {
		if (!x->cancelled && !httpd__waiting(x->h, x->ticket))
			cancel(x);         /* its client went: nobody to answer */
		return 0;
	}
	pthread_join(x->th, NULL);
	x->running = 0;
	struct httpd_response rs = { x->status, x->status == 200 ? XPROFILE_CT :
	    "text/plain; charset=utf-8", x->body, x->len,
	    x->status == 200 ? "Content-Disposition: attachment; filename=\"profile\"\r\n" :
	    NULL };
	x->body = NULL;
	int status = x->status;
	return httpd__answer(x->h, x->ticket, &rs) == 0 ? status : 0;
}

void xprofile__free(struct xprofile *x)
{
	if (!x)
		return;
	if (x->running) {
		cancel(x);
		pthread_join(x->th, NULL);
	}
	free(x->body);
	close(x->cancelfd);
	pthread_mutex_destroy(&x->mu);
	free(x);
}
