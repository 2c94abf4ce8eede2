/*
 * session.c — a session of events (pmc.h, pmc_session_*): the events a
 * sampler samples or a counter counts, their PMCs allocated per CPU, per
 * thread or once per target, configured the same way, grouped, attached,
 * started, read and stopped together.  libperf's evlist over perf's
 * util/target.c is the model; `pmc record` and `pmc top` sample through
 * it, `pmc stat` counts through it, and a library user gets the same.
 * Built on the public calls only; each of them clears the reason channel
 * on entry, so the functions below work in -errno (pub() turns a public
 * call's -1 into -errno) and keep a failure's reason across the releases
 * that follow it (pmc__err_save / pmc__err_restore).  The pmc_session_*
 * entry points clear the channel and end with pmc__ret(), as every public
 * call does.  Its PMCs are pmc_allocate_shared's, multiplexed past
 * hwpmc's rows as perf's events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "common/error.h"
#include "common/grow.h"

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
	int npmcs, cappmcs;
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

/* A public call's answer (0 or more, or -1 with errno) as 0+ or -errno. */
static int pub(int rc)
{
	return rc < 0 ? -errno : rc;
}

struct pmc_session *pmc_session_new(const struct pmc_session_opts *o)
{
	struct pmc_session *s;

	pmc__clear_reason();
	if (bad_opts(o)) {
		pmc__ret(pmc__err(-EINVAL, "inconsistent session options"));
		return NULL;
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		pmc__ret(pmc__nomem());
		return NULL;
	}
	s->o = *o;
	if (o->ps_cpus) {
		if (!(s->cpus = malloc((size_t)o->ps_ncpus))) {
			free(s);
			pmc__ret(pmc__nomem());
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
		return -errno;
	return s->o.ps_ustack ? pub(pmc_set_user_stack(id, s->o.ps_ustack)) : 0;
}

static int add_pmc(struct pmc_session *s, pmc_id_t id, const char *spec, int cpu, int target)
{
	char *dup = strdup(spec);

	if (!dup || GROW(s->pmcs, s->npmcs, s->cappmcs) < 0) {
		free(dup);
		pmc_release(id);
		return pmc__nomem();
	}
	s->pmcs[s->npmcs++] = (struct session_pmc){ id, dup, cpu, target, s->nevents };
	return 0;
}

/* Allocate one PMC, configure it and keep it: 0, or -errno (the reason
 * recorded) with the PMC released. */
static int alloc_one(struct pmc_session *s, const char *spec, int offcpu, enum pmc_mode mode,
    uint32_t flags, int cpu, int target)
{
	pmc_id_t id;
	struct pmc__errsave sv;
	int rc;

	if (pmc_allocate_shared(spec, mode, flags, cpu, &id, s->o.ps_period) < 0)
		return -errno;
	if ((rc = configure(s, id, offcpu)) < 0) {
		pmc__err_save(&sv, rc);
		pmc_release(id);
		return pmc__err_restore(&sv);
	}
	return add_pmc(s, id, spec, PMC_IS_SYSTEM_MODE(mode) ? cpu : -1, target);
}

static int has_cpu(const struct pmc_session *s, int cpu)
{
	return !s->cpus || (cpu < s->o.ps_ncpus && s->cpus[cpu]);
}

/* Release the PMCs from index first on (an event that failed part way
 * with rc); rc, with its reason kept. */
static int drop_from(struct pmc_session *s, int first, int rc)
{
	struct pmc__errsave sv;

	pmc__err_save(&sv, rc);
	while (s->npmcs > first) {
		struct session_pmc *p = &s->pmcs[--s->npmcs];
		pmc_release(p->id);
		free(p->spec);
	}
	return pmc__err_restore(&sv);
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
	for (int t = 0; t < n; t++) {
		int rc = alloc_one(s, spec, offcpu, mode, flags, PMC_CPU_ANY,
		    s->o.ps_per_target ? t : -1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int add_system(struct pmc_session *s, const char *spec, int offcpu, uint32_t flags)
{
	enum pmc_mode mode = s->o.ps_count ? PMC_MODE_SC : PMC_MODE_SS;
	int first = s->npmcs, rc;
	struct pmc__errsave offline = { .rc = -ENXIO, .cause = PMC_CAUSE_NONE };

	for (int c = 0; c < pmc_ncpu(); c++) {
		if (!has_cpu(s, c))
			continue;
		if ((rc = alloc_one(s, spec, offcpu, mode, flags, c, -1)) == 0)
			continue;
		if (rc == -ENXIO && !s->cpus) {
			/* an offline CPU: its reason is the answer if no CPU is left */
			pmc__err_save(&offline, rc);
			pmc__clear_reason();
			continue;
		}
		return rc;
	}
	if (s->npmcs > first)
		return 0;
	return pmc__err_restore(&offline);
}

int pmc_session_add(struct pmc_session *s, const char *spec, int offcpu)
{
	uint32_t flags = s->o.ps_callchain || offcpu ? PMC_F_CALLCHAIN : 0;
	int first = s->npmcs, rc;

	pmc__clear_reason();
	if (offcpu && s->o.ps_count)
		return pmc__ret(pmc__err(-EINVAL, "a counting session has no off-CPU event"));
	if ((rc = s->o.ps_system_wide ? add_system(s, spec, offcpu, flags) :
	    add_process(s, spec, offcpu, flags)) < 0)
		return pmc__ret(drop_from(s, first, rc));  /* all of the event or none of it */
	s->nevents++;
	return 0;
}

int pmc_session_nevents(const struct pmc_session *s)
{
	return s->nevents;
}

/* Event ev's PMCs: how many and the first, or -EINVAL. */
static int event_pmcs(const struct pmc_session *s, int ev, int *first)
{
	int n = 0, f = -1;

	for (int i = 0; i < s->npmcs; i++)
		if (s->pmcs[i].ev == ev && n++ == 0)
			f = i;
	if (n == 0)
		return pmc__err(-EINVAL, "no event %d in the session", ev);
	if (first)
		*first = f;
	return n;
}

int pmc_session_event(const struct pmc_session *s, int ev, int *first)
{
	pmc__clear_reason();
	return pmc__ret(event_pmcs(s, ev, first));
}

int pmc_session_group(struct pmc_session *s, int leader, int member)
{
	int fl, fm, nl, nm;

	pmc__clear_reason();
	if ((nl = event_pmcs(s, leader, &fl)) < 0 || (nm = event_pmcs(s, member, &fm)) < 0)
		return pmc__ret(-EINVAL);
	if (nl != nm || leader == member)
		return pmc__ret(pmc__err(-EINVAL, leader == member ?
		    "an event cannot join its own group" :
		    "events %d and %d have different numbers of PMCs", leader, member));
	/* the k-th PMC of each counts on the same CPU or target */
	for (int k = 0; k < nm; k++)
		if (pmc_group(s->pmcs[fl + k].id, s->pmcs[fm + k].id) < 0)
			return pmc__ret(-errno);
	return 0;
}

int pmc_session_npmcs(const struct pmc_session *s)
{
	return s->npmcs;
}

pmc_id_t pmc_session_pmc(const struct pmc_session *s, int i, const char **spec, int *cpu)
{
	pmc__clear_reason();
	if (i < 0 || i >= s->npmcs) {
		pmc__ret(pmc__err(-EINVAL, "no PMC %d in the session", i));
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
	pmc__clear_reason();
	if (s->o.ps_system_wide)
		return 0;
	if (s->o.ps_per_target && n != s->o.ps_per_target)
		return pmc__ret(pmc__err(-EINVAL, "%d targets for a session of %d per-target PMCs",
		    n, s->o.ps_per_target));
	for (int i = 0; i < s->npmcs; i++) {
		const struct session_pmc *p = &s->pmcs[i];
		/* a per-target PMC follows its own target only */
		int k0 = p->target >= 0 ? p->target : 0, k1 = p->target >= 0 ? p->target + 1 : n;
		for (int k = k0; k < k1; k++)
			if ((s->o.ps_threads ? pmc_attach_thread(p->id, targets[k]) :
			    pmc_attach(p->id, targets[k])) < 0) {
				if (failed)
					*failed = targets[k];
				return pmc__ret(-errno);
			}
	}
	return 0;
}

int pmc_session_start(struct pmc_session *s, const char **failed)
{
	pmc__clear_reason();
	for (int i = 0; i < s->npmcs; i++)
		if (pmc_start(s->pmcs[i].id) < 0) {
			if (failed)
				*failed = s->pmcs[i].spec;
			return pmc__ret(-errno);
		}
	return 0;
}

int pmc_session_read(const struct pmc_session *s, int i, struct pmc_reading *r)
{
	pmc__clear_reason();
	if (i < 0 || i >= s->npmcs)
		return pmc__ret(pmc__err(-EINVAL, "no PMC %d in the session", i));
	return pmc__ret(pub(pmc_read_ext(s->pmcs[i].id, r)));
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
