/*
 * session.c — a session of events (pmc.h, pmc_session_*): the events a
 * sampler samples or a counter counts, their PMCs allocated per CPU, per
 * thread or once per target, configured the same way, grouped, attached,
 * started, read and stopped together.  libperf's evlist over perf's
 * util/target.c is the model; `pmc record` and `pmc top` sample through
 * it, `pmc stat` counts through it, and a library user gets the same.
 * Built on the public calls only (each sets errno and the reason
 * pmc_errmsg() returns); its PMCs are pmc_allocate_shared's, multiplexed
 * past hwpmc's rows as perf's events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"

struct session_pmc {
	pmc_id_t id;
	char *spec;                   /* the event as given (owned) */
	int cpu;                      /* -1: follows its targets */
	int target;                   /* ps_per_target: the target it follows; else -1 */
	int ev;                       /* its event: the pmc_session_add that made it */
};

struct pmc_session {
	struct pmc_session_opts o;
	unsigned char *cpus;          /* a copy of o.ps_cpus */
	struct session_pmc *pmcs;
	int npmcs;
	int nevents;
};

/* A counting session has no sampling settings; per-target PMCs follow
 * threads one by one, which system-wide PMCs do not. */
static int bad_opts(const struct pmc_session_opts *o)
{
	return !o || (o->ps_cpus && (!o->ps_system_wide || o->ps_ncpus <= 0)) ||
	    (o->ps_system_wide && (o->ps_threads || o->ps_per_target || o->ps_flags)) ||
	    (o->ps_count && (o->ps_hz || o->ps_period || o->ps_tp_period || o->ps_callchain ||
	    o->ps_ustack)) ||
	    o->ps_per_target < 0 || (o->ps_per_target && !o->ps_threads);
}

struct pmc_session *pmc_session_new(const struct pmc_session_opts *o)
{
	struct pmc_session *s;

	if (bad_opts(o)) {
		errno = EINVAL;
		return NULL;
	}
	if (!(s = calloc(1, sizeof(*s))))
		return NULL;
	s->o = *o;
	if (o->ps_cpus) {
		if (!(s->cpus = malloc((size_t)o->ps_ncpus))) {
			free(s);
			return NULL;
		}
		memcpy(s->cpus, o->ps_cpus, (size_t)o->ps_ncpus);
		s->o.ps_cpus = s->cpus;
	}
	return s;
}

/* The PMC's sampling settings: the frequency, the user stack copy, and
 * for the off-CPU event the switch records (which also make it sample
 * every switch-out). */
static int configure(const struct pmc_session *s, pmc_id_t id, int offcpu)
{
	int rc = 0;

	/* periods as perf's: software events and tracepoints unclamped */
	if (offcpu)
		rc = pmc_set_switch_log(id, 1);
	else if (s->o.ps_tp_period && PMC_ID_TO_CLASS(id) == PMC_CLASS_TRACEPOINT)
		rc = pmc_set_period(id, s->o.ps_tp_period);
	else if (s->o.ps_hz)
		rc = pmc_set_frequency(id, s->o.ps_hz);
	else if (s->o.ps_period)
		rc = pmc_set_period(id, s->o.ps_period);
	if (rc < 0)
		return -1;
	return s->o.ps_ustack && pmc_set_user_stack(id, s->o.ps_ustack) < 0 ? -1 : 0;
}

static int add_pmc(struct pmc_session *s, pmc_id_t id, const char *spec, int cpu, int target)
{
	struct session_pmc *n = realloc(s->pmcs, (size_t)(s->npmcs + 1) * sizeof(*n));
	char *dup = strdup(spec);

	if (!n || !dup) {
		free(dup);
		if (n)
			s->pmcs = n;
		pmc_release(id);
		errno = ENOMEM;
		return -1;
	}
	s->pmcs = n;
	n[s->npmcs++] = (struct session_pmc){ id, dup, cpu, target, s->nevents };
	return 0;
}

/* Allocate one PMC, configure it and keep it: 0, or -1 (errno) with the
 * PMC released. */
static int alloc_one(struct pmc_session *s, const char *spec, int offcpu, enum pmc_mode mode,
    uint32_t flags, int cpu, int target)
{
	pmc_id_t id;

	if (pmc_allocate_shared(spec, mode, flags, cpu, &id, s->o.ps_period) < 0)
		return -1;
	if (configure(s, id, offcpu) < 0) {
		int e = errno;
		pmc_release(id);
		errno = e;
		return -1;
	}
	return add_pmc(s, id, spec, PMC_IS_SYSTEM_MODE(mode) ? cpu : -1, target);
}

static int has_cpu(const struct pmc_session *s, int cpu)
{
	return !s->cpus || (cpu < s->o.ps_ncpus && s->cpus[cpu]);
}

/* Release the PMCs from index first on (an event that failed part way). */
static void drop_from(struct pmc_session *s, int first)
{
	int e = errno;

	while (s->npmcs > first) {
		struct session_pmc *p = &s->pmcs[--s->npmcs];
		pmc_release(p->id);
		free(p->spec);
	}
	errno = e;
}

/* The process-mode PMCs of one event: one following every target, or
 * with ps_per_target one per target. */
static int add_process(struct pmc_session *s, const char *spec, int offcpu, uint32_t flags)
{
	enum pmc_mode mode = s->o.ps_count ? PMC_MODE_TC : PMC_MODE_TS;
	int n = s->o.ps_per_target ? s->o.ps_per_target : 1;

	/* perf record -t does not follow the threads' children, perf stat -t does */
	if (!s->o.ps_no_inherit && (s->o.ps_count || !s->o.ps_threads))
		flags |= PMC_F_DESCENDANTS;
	flags |= s->o.ps_flags;
	for (int t = 0; t < n; t++)
		if (alloc_one(s, spec, offcpu, mode, flags, PMC_CPU_ANY,
		    s->o.ps_per_target ? t : -1) < 0)
			return -1;
	return 0;
}

static int add_system(struct pmc_session *s, const char *spec, int offcpu, uint32_t flags)
{
	enum pmc_mode mode = s->o.ps_count ? PMC_MODE_SC : PMC_MODE_SS;
	int first = s->npmcs;

	for (int c = 0; c < pmc_ncpu(); c++) {
		if (!has_cpu(s, c))
			continue;
		if (alloc_one(s, spec, offcpu, mode, flags, c, -1) == 0)
			continue;
		if (errno == ENXIO && !s->cpus)
			continue;         /* an offline CPU */
		return -1;
	}
	if (s->npmcs > first)
		return 0;
	errno = ENXIO;
	return -1;
}

int pmc_session_add(struct pmc_session *s, const char *spec, int offcpu)
{
	uint32_t flags = s->o.ps_callchain || offcpu ? PMC_F_CALLCHAIN : 0;
	int first = s->npmcs;

	if (offcpu && s->o.ps_count) {
		errno = EINVAL;
		return -1;
	}
	if ((s->o.ps_system_wide ? add_system(s, spec, offcpu, flags) :
	    add_process(s, spec, offcpu, flags)) < 0) {
		drop_from(s, first);     /* all of the event or none of it */
		return -1;
	}
	s->nevents++;
	return 0;
}

int pmc_session_nevents(const struct pmc_session *s)
{
	return s->nevents;
}

int pmc_session_event(const struct pmc_session *s, int ev, int *first)
{
	int n = 0, f = -1;

	for (int i = 0; i < s->npmcs; i++)
		if (s->pmcs[i].ev == ev && n++ == 0)
			f = i;
	if (n == 0) {
		errno = EINVAL;
		return -1;
	}
	if (first)
		*first = f;
	return n;
}

int pmc_session_group(struct pmc_session *s, int leader, int member)
{
	int fl, fm, nl = pmc_session_event(s, leader, &fl), nm = pmc_session_event(s, member, &fm);

	if (nl < 0 || nm < 0 || nl != nm || leader == member) {
		errno = EINVAL;
		return -1;
	}
	/* the k-th PMC of each counts on the same CPU or target */
	for (int k = 0; k < nm; k++)
		if (pmc_group(s->pmcs[fl + k].id, s->pmcs[fm + k].id) < 0)
			return -1;
	return 0;
}

int pmc_session_npmcs(const struct pmc_session *s)
{
	return s->npmcs;
}

pmc_id_t pmc_session_pmc(const struct pmc_session *s, int i, const char **spec, int *cpu)
{
	if (i < 0 || i >= s->npmcs) {
		errno = EINVAL;
		return PMC_ID_INVALID;
	}
	if (spec)
		*spec = s->pmcs[i].spec;
	if (cpu)
		*cpu = s->pmcs[i].cpu;
	return s->pmcs[i].id;
}

int pmc_session_attach(struct pmc_session *s, const pid_t *targets, int n, pid_t *failed)
{
	if (s->o.ps_system_wide)
		return 0;
	if (s->o.ps_per_target && n != s->o.ps_per_target) {
		errno = EINVAL;
		return -1;
	}
	for (int i = 0; i < s->npmcs; i++) {
		const struct session_pmc *p = &s->pmcs[i];
		/* a per-target PMC follows its own target only */
		int k0 = p->target >= 0 ? p->target : 0, k1 = p->target >= 0 ? p->target + 1 : n;
		for (int k = k0; k < k1; k++)
			if ((s->o.ps_threads ? pmc_attach_thread(p->id, targets[k]) :
			    pmc_attach(p->id, targets[k])) < 0) {
				if (failed)
					*failed = targets[k];
				return -1;
			}
	}
	return 0;
}

int pmc_session_start(struct pmc_session *s, const char **failed)
{
	for (int i = 0; i < s->npmcs; i++)
		if (pmc_start(s->pmcs[i].id) < 0) {
			if (failed)
				*failed = s->pmcs[i].spec;
			return -1;
		}
	return 0;
}

int pmc_session_read(const struct pmc_session *s, int i, struct pmc_reading *r)
{
	if (i < 0 || i >= s->npmcs) {
		errno = EINVAL;
		return -1;
	}
	return pmc_read_ext(s->pmcs[i].id, r);
}

void pmc_session_stop(struct pmc_session *s)
{
	for (int i = 0; i < s->npmcs; i++)
		pmc_stop(s->pmcs[i].id);
}

void pmc_session_free(struct pmc_session *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->npmcs; i++) {
		pmc_release(s->pmcs[i].id);
		free(s->pmcs[i].spec);
	}
	free(s->pmcs);
	free(s->cpus);
	free(s);
}
