/*
 * exporter.c — the counters of `pmc exporter` and their OpenMetrics text
 * (exporter.h).  Counters are ordinary libpmc PMCs: system-mode ones per
 * CPU (with pmc_set_cgroup for a cgroup), process-mode ones attached to
 * each pid; every scrape reads them with pmc_read_ext, whose raw value and
 * enabled/running times are what the series carry.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <unistd.h>

#include "pmc.h"
#include "common/error.h"
#include "common/grow.h"
#include "serve/exporter.h"
#include "util/printable.h"

struct series {
	pmc_id_t id;
	int ev;                        /* index into events */
	int cpu;                       /* -1 unless per CPU */
	pid_t pid;                     /* 0 unless per process */
	char comm[64];
	const char *cgroup;            /* NULL unless per cgroup */
	int gone;                      /* the process exited: released */
};

struct exporter {
	char **events;                 /* names as allocated ("page-faults") */
	int nev;
	struct series *s;
	size_t ns, scap;
	int by_pid;
	char why[512];                 /* why open_event failed (pmc_release clears it) */
};

/* A growing text buffer. */
struct sbuf {
	char *p;
	size_t len, cap;
	int oom;
};

static void put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0 || b->oom)
			return;
		if (b->p && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		if (GROW_FROM(b->p, b->len, b->cap, (size_t)n + 1, 4096) < 0) {
			b->oom = 1;
			return;
		}
	}
}

/* A label value, whatever a process or a cgroup is called: backslash,
 * double quote and newline escaped as both formats say; every other byte
 * printable.h escapes (controls, and bytes that are not UTF-8, which would
 * make the whole scrape invalid) written \\xNN, a backslash the format
 * itself escapes: the value stays valid UTF-8, never cut. */
static void put_label(struct sbuf *b, const char *name, const char *v, int first)
{
	put(b, "%s%s=\"", first ? "" : ",", name);
	while (*v) {
		int esc;
		size_t n = printable__unit(v, &esc);
		if (*v == '\\' || *v == '"')
			put(b, "\\%c", *v);
		else if (*v == '\n')
			put(b, "\\n");
		else if (esc)
			for (size_t i = 0; i < n; i++)
				put(b, "\\\\x%02x", (unsigned char)v[i]);
		else
			put(b, "%.*s", (int)n, v);
		v += n;
	}
	put(b, "\"");
}

static int add_series(struct exporter *e, pmc_id_t id, int ev, int cpu, pid_t pid,
    const char *cgroup)
{
	if (GROW(e->s, e->ns, e->scap) < 0)
		return -1;
	struct series *n = e->s;
	memset(&n[e->ns], 0, sizeof(n[0]));
	n[e->ns].id = id;
	n[e->ns].ev = ev;
	n[e->ns].cpu = cpu;
	n[e->ns].pid = pid;
	n[e->ns].cgroup = cgroup;
	if (pid > 0) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		FILE *f = fopen(path, "r");
		char *c = n[e->ns].comm;
		size_t got = f ? fread(c, 1, sizeof(n[0].comm) - 1, f) : 0;
		c[got] = '\0';
		if (got && c[got - 1] == '\n')
			c[got - 1] = '\0';     /* the kernel's; a newline before it is the name's */
		else if (!got)
			snprintf(c, sizeof(n[0].comm), "?");
		if (f)
			fclose(f);
	}
	e->ns++;
	return 0;
}

/* -1 with errno, the reason kept in e->why, after releasing id. */
static int fail_release(struct exporter *e, pmc_id_t id)
{
	int err = errno;
	snprintf(e->why, sizeof(e->why), "%s", pmc_errmsg());
	pmc_release(id);
	errno = err;
	return -1;
}

/* The PMCs of event ev for every target; -1 with errno and e->why. */
static int open_event(struct exporter *e, const struct exporter_opts *o, int ev)
{
	const char *spec = o->events[ev];
	pmc_id_t id;

	if (o->system_wide || o->ncgroups) {
		int ncpu = pmc_ncpu(), any = 0;
		int ng = o->ncgroups ? o->ncgroups : 1;
		for (int g = 0; g < ng; g++)
			for (int c = 0; c < ncpu; c++) {
				if (o->cpus && (c >= o->ncpus_set || !o->cpus[c]))
					continue;
				if (pmc_allocate_shared(spec, PMC_MODE_SC, 0, c, &id, 0) < 0) {
					if (errno == ENXIO && !o->cpus)
						continue;        /* an offline CPU */
					snprintf(e->why, sizeof(e->why), "%s", pmc_errmsg());
					return -1;
				}
				if ((o->ncgroups && pmc_set_cgroup(id, o->cgroups[g]) < 0) ||
				    pmc_start(id) < 0 ||
				    add_series(e, id, ev, c, 0, o->ncgroups ? o->cgroups[g] : NULL) < 0) {
					return fail_release(e, id);
				}
				any = 1;
			}
		if (!any) {
			snprintf(e->why, sizeof(e->why), "no CPU of the list is online");
			errno = ENXIO;
			return -1;
		}
		return 0;
	}
	for (int i = 0; i < o->npids; i++) {
		if (pmc_allocate_shared(spec, PMC_MODE_TC, PMC_F_DESCENDANTS, PMC_CPU_ANY, &id, 0) < 0) {
			snprintf(e->why, sizeof(e->why), "%s", pmc_errmsg());
			return -1;
		}
		if (pmc_attach(id, o->pids[i]) < 0 || pmc_start(id) < 0 ||
		    add_series(e, id, ev, -1, o->pids[i], NULL) < 0) {
			return fail_release(e, id);
		}
	}
	return 0;
}

static void release_event(struct exporter *e, int ev)
{
	size_t k = 0;
	for (size_t i = 0; i < e->ns; i++) {
		if (e->s[i].ev == ev) {
			pmc_release(e->s[i].id);
			continue;
		}
		e->s[k++] = e->s[i];
	}
	e->ns = k;
}

int exporter__open(struct exporter **out, const struct exporter_opts *o, int *usage,
    char *skipped, size_t skippedlen)
{
	struct exporter *e = calloc(1, sizeof(*e));

	pmc__clear_reason();
	*out = NULL;
	*usage = 0;
	if (skippedlen)
		skipped[0] = '\0';
	if (!e || !(e->events = calloc((size_t)o->nevents + 1, sizeof(char *)))) {
		free(e);
		return pmc__nomem();
	}
	e->by_pid = !o->system_wide && !o->ncgroups;
	for (int g = 0; g < o->ncgroups; g++) {
		/* said once, before any event could be taken for unsupported */
		int fd = open(o->cgroups[g], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			int er = errno;
			exporter__close(e);
			return pmc__err(-er, "cannot count cgroup '%s': %s", o->cgroups[g],
			    strerror(er));
		}
		close(fd);
	}
	for (int i = 0; i < o->nevents; i++) {
		if (open_event(e, o, i) == 0) {
			const char *name = NULL;
			for (size_t k = 0; k < e->ns && !name; k++)
				if (e->s[k].ev == i)
					name = pmc_event_name(e->s[k].id);
			e->events[i] = strdup(name ? name : o->events[i]);
			e->nev = i + 1;
			continue;
		}
		int er = errno;
		release_event(e, i);
		if (o->skip_unsupported && (er == EOPNOTSUPP || er == EINVAL || er == ENOENT)) {
			size_t l = strlen(skipped);
			snprintf(skipped + l, skippedlen - l, "%s%s", l ? ", " : "", o->events[i]);
			e->events[i] = NULL;
			e->nev = i + 1;
			continue;
		}
		*usage = er == ENOENT || er == EINVAL;
		char why[sizeof(e->why)];
		snprintf(why, sizeof(why), "%s", e->why);
		exporter__close(e);     /* public calls: they start a new reason */
		pmc__clear_reason();
		return pmc__err(-er, "cannot count '%s': %s", o->events[i], why);
	}
	if (e->ns == 0) {
		exporter__close(e);
		pmc__clear_reason();
		return pmc__err(-ENOENT, "none of the events can be counted here");
	}
	*out = e;
	return 0;
}

/* Release the PMCs of processes that exited. */
static void reap(struct exporter *e)
{
	for (size_t i = 0; i < e->ns; i++) {
		struct series *s = &e->s[i];
		if (s->pid > 0 && !s->gone && !pmc_target_exists(s->pid)) {
			pmc_release(s->id);
			s->gone = 1;
		}
	}
}

int exporter__live(struct exporter *e)
{
	int n = 0;
	if (!e->by_pid)
		return -1;
	reap(e);
	for (size_t i = 0; i < e->ns; i++)
		n += e->s[i].ev == e->s[0].ev && !e->s[i].gone;
	return n;
}

static void labels(struct sbuf *b, const struct exporter *e, const struct series *s)
{
	char num[32];
	put(b, "{");
	put_label(b, "event", e->events[s->ev], 1);
	if (s->cgroup)
		put_label(b, "cgroup", s->cgroup, 0);
	if (s->cpu >= 0) {
		snprintf(num, sizeof(num), "%d", s->cpu);
		put_label(b, "cpu", num, 0);
	}
	if (s->pid > 0) {
		snprintf(num, sizeof(num), "%d", (int)s->pid);
		put_label(b, "pid", num, 0);
		put_label(b, "comm", s->comm, 0);
	}
	put(b, "}");
}

static const struct family {
	const char *name;              /* the family (OpenMetrics) */
	const char *unit;              /* OpenMetrics UNIT, or NULL */
	const char *help;
} families[3] = {
	{ "pmc_events", NULL, "Events counted since the exporter opened the counter "
	  "(raw: when running < enabled the kernel multiplexed; scale by enabled/running)" },
	{ "pmc_event_enabled_seconds", "seconds", "Time the counter was enabled" },
	{ "pmc_event_running_seconds", "seconds", "Time the counter was counting on the PMU" },
};

int exporter__render(struct exporter *e, int format, char **buf, size_t *len)
{
	struct sbuf b = { NULL, 0, 0, 0 };
	struct pmc_reading *r = calloc(e->ns + 1, sizeof(*r));

	if (!r)
		return -1;
	reap(e);
	for (size_t i = 0; i < e->ns; i++)
		if (e->s[i].gone || pmc_read_ext(e->s[i].id, &r[i]) < 0)
			e->s[i].gone = 1;   /* a counter that cannot be read: its series goes */
	for (int f = 0; f < 3; f++) {
		const struct family *fm = &families[f];
		if (format == EXPORTER_OPENMETRICS) {
			put(&b, "# TYPE %s counter\n", fm->name);
			if (fm->unit)
				put(&b, "# UNIT %s %s\n", fm->name, fm->unit);
			put(&b, "# HELP %s %s.\n", fm->name, fm->help);
		} else {
			put(&b, "# HELP %s_total %s.\n", fm->name, fm->help);
			put(&b, "# TYPE %s_total counter\n", fm->name);
		}
		for (size_t i = 0; i < e->ns; i++) {
			const struct series *s = &e->s[i];
			if (s->gone)
				continue;
			put(&b, "%s_total", fm->name);
			labels(&b, e, s);
			if (f == 0)
				put(&b, " %llu\n", (unsigned long long)r[i].pm_raw);
			else
				put(&b, " %.9f\n", (double)(f == 1 ? r[i].pm_enabled :
				    r[i].pm_running) / 1e9);
		}
	}
	if (format == EXPORTER_OPENMETRICS)
		put(&b, "# EOF\n");
	free(r);
	if (b.oom) {
		free(b.p);
		return -1;
	}
	*buf = b.p;
	*len = b.len;
	return 0;
}

/* The q-value of the media range p[0..n) ("type/sub;version=1;q=0.5"), 1 if none. */
static double qvalue(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = i + 1;
		if (p[i] != ';')
			continue;
		while (j < n && p[j] == ' ')
			j++;
		if (j + 1 < n && (p[j] == 'q' || p[j] == 'Q') && p[j + 1] == '=')
			return atof(p + j + 2);
	}
	return 1.0;
}

int exporter__negotiate(const char *accept)
{
	double om = 0, text = 0;
	const char *p = accept;

	while (p && *p) {
		size_t n = strcspn(p, ",");
		const char *t = p + strspn(p, " \t");
		double q = qvalue(p, n);
		if (!strncasecmp(t, "application/openmetrics-text", 28)) {
			if (q > om)
				om = q;
		} else if (!strncasecmp(t, "text/plain", 10) || !strncasecmp(t, "*/*", 3)) {
			if (q > text)
				text = q;
		}
		p = p[n] ? p + n + 1 : NULL;
	}
	return om > 0 && om >= text ? EXPORTER_OPENMETRICS : EXPORTER_TEXT_004;
}

void exporter__close(struct exporter *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->ns; i++)
		if (!e->s[i].gone)
			pmc_release(e->s[i].id);
	for (int i = 0; i < e->nev; i++)
		free(e->events[i]);
	free(e->events);
	free(e->s);
	free(e);
}
