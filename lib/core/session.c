/*
 * session.c — a sampling session (pmc.h, pmc_session_*): the events a
 * sampler samples, their PMCs allocated per CPU or per target, configured
 * the same way, attached, started and stopped together.  libperf's evlist
 * over perf's util/target.c is the model; `pmc record` and `pmc top` are
 * its users, and a library user gets the same.  Built on the public calls
 * only (each sets errno and the reason pmc_errmsg() returns).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"

struct session_pmc {
	pmc_id_t id;
	char *spec;                   /* the event as given (owned) */
	int cpu;                      /* -1: follows its targets */
};

struct pmc_session {
	struct pmc_session_opts o;
	unsigned char *cpus;          /* a copy of o.ps_cpus */
	struct session_pmc *pmcs;
	int npmcs;
};

struct pmc_session *pmc_session_new(const struct pmc_session_opts *o)
{
	struct pmc_session *s;

	if (!o || (o->ps_cpus && (!o->ps_system_wide || o->ps_ncpus <= 0)) ||
	    (o->ps_system_wide && o->ps_threads)) {
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
	if (offcpu ? pmc_set_switch_log(id, 1) < 0 :
	    (s->o.ps_hz && pmc_set_frequency(id, s->o.ps_hz) < 0))
		return -1;
	return s->o.ps_ustack && pmc_set_user_stack(id, s->o.ps_ustack) < 0 ? -1 : 0;
}

static int add_pmc(struct pmc_session *s, pmc_id_t id, const char *spec, int cpu)
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
	n[s->npmcs++] = (struct session_pmc){ id, dup, cpu };
	return 0;
}

/* Allocate one PMC, configure it and keep it: 0, or -1 (errno) with the
 * PMC released. */
static int alloc_one(struct pmc_session *s, const char *spec, int offcpu, enum pmc_mode mode,
    uint32_t flags, int cpu)
{
	pmc_id_t id;

	if (pmc_allocate(spec, mode, flags, cpu, &id, s->o.ps_period) < 0)
		return -1;
	if (configure(s, id, offcpu) < 0) {
		int e = errno;
		pmc_release(id);
		errno = e;
		return -1;
	}
	return add_pmc(s, id, spec, mode == PMC_MODE_SS ? cpu : -1);
}

static int has_cpu(const struct pmc_session *s, int cpu)
{
	return !s->cpus || (cpu < s->o.ps_ncpus && s->cpus[cpu]);
}

int pmc_session_add(struct pmc_session *s, const char *spec, int offcpu)
{
	uint32_t flags = s->o.ps_callchain || offcpu ? PMC_F_CALLCHAIN : 0;
	int first = s->npmcs, e;

	if (!s->o.ps_system_wide) {
		if (!s->o.ps_threads)
			flags |= PMC_F_DESCENDANTS;
		return alloc_one(s, spec, offcpu, PMC_MODE_TS, flags, PMC_CPU_ANY);
	}
	for (int c = 0; c < pmc_ncpu(); c++) {
		if (!has_cpu(s, c))
			continue;
		if (alloc_one(s, spec, offcpu, PMC_MODE_SS, flags, c) == 0)
			continue;
		if (errno == ENXIO && !s->cpus)
			continue;         /* an offline CPU */
		goto fail;
	}
	if (s->npmcs > first)
		return 0;
	errno = ENXIO;
	return -1;
fail:
	/* all of the event or none of it: its PMCs so far go */
	e = errno;
	while (s->npmcs > first) {
		struct session_pmc *p = &s->pmcs[--s->npmcs];
		pmc_release(p->id);
		free(p->spec);
	}
	errno = e;
	return -1;
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
	for (int i = 0; i < s->npmcs; i++)
		for (int k = 0; k < n; k++)
			if ((s->o.ps_threads ? pmc_attach_thread(s->pmcs[i].id, targets[k]) :
			    pmc_attach(s->pmcs[i].id, targets[k])) < 0) {
				if (failed)
					*failed = targets[k];
				return -1;
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
