/*
 * switches.c — off-CPU durations, part of loading a profile
 * (profile_internal.h): the switch-ins (SWITCH records) kept as they are
 * read, and once everything is read the samples of the context-switches
 * event weighed by the time their thread then spent off CPU, from the
 * sample to its next switch-in.  It works on the finished sample array,
 * since the writer drains per-CPU rings in turn and a switch-in may be
 * read before the switch-out sample it ends.  offcpu.c (the wall-clock
 * merge of a loaded profile) sits above the profile and includes
 * profile.h only: the dependency points one way, offcpu -> profile.
 */
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "profile/profile_internal.h"

static int in_cmp(const void *a, const void *b)
{
	const struct prof_switch_in *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/* The first switch-in of tid at or after t, or NULL. */
static const struct prof_switch_in *next_in(const struct prof_switch_in *in, size_t n, int32_t tid,
    uint64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (in[mid].tid < tid || (in[mid].tid == tid && in[mid].time < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && in[lo].tid == tid ? &in[lo] : NULL;
}

/* A thread got a CPU (a SWITCH record without PMCLOG_SWITCH_F_OUT). */
void prof__switch_in(struct profile *p, int32_t tid, uint64_t time)
{
	struct prof_priv *v = p->priv;
	if (GROW(v->sw_in, v->nswin, v->capswin)) {
		nomem(p);
		return;
	}
	v->sw_in[v->nswin++] = (struct prof_switch_in){ tid, time };
}

int profile__event_named(const char *ev, const char *name)
{
	size_t l = strlen(name);
	return !strncmp(ev, name, l) && (ev[l] == '\0' || ev[l] == ':');
}

void profile__recount(struct profile *p)
{
	for (size_t e = 0; e < p->nev; e++)
		p->ev[e].samples = p->ev[e].period = 0;
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample s;
		samples__get(p->smp, i, &s);
		p->ev[s.ev].samples += prof_count(&s);
		p->ev[s.ev].period += prof_weight(&s);
	}
}

static int switch_event(const char *name)
{
	return profile__event_named(name, "context-switches") || profile__event_named(name, "cs");
}

int prof__has_switch_event(const struct profile *p)
{
	for (size_t e = 0; e < p->nev; e++)
		if (switch_event(p->ev[e].name))
			return 1;
	return 0;
}

/*
 * Weigh the samples of the context-switches event (pmc record --off-cpu's;
 * perf record -e cs -c 1 -g --switch-events too), marked prof_event.offcpu,
 * by their off-CPU time, given every switch-in of the recording (sorted
 * here); nothing changes in a recording without switch-ins.  A switch-out
 * whose thread never came back (it exited, or the recording ended first)
 * has no duration and is dropped.
 */
void prof__switches_apply(struct profile *p)
{
	struct prof_switch_in *in = p->priv->sw_in;
	size_t n = p->priv->nswin;
	size_t keep = 0;
	int any = 0;

	/* Switch-ins are logged by the PMC pmc_set_switch_log was set on
	 * (pmc record --off-cpu: context-switches), but perf record
	 * --switch-events asks them of its first event, whatever it is: the
	 * samples to weigh are those of context-switches, in a recording
	 * that has switch-ins. */
	if (n == 0)
		return;
	for (size_t e = 0; e < p->nev; e++) {
		p->ev[e].offcpu = switch_event(p->ev[e].name);
		any |= p->ev[e].offcpu;
	}
	if (!any)
		return;
	qsort(in, n, sizeof(*in), in_cmp);
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample s;
		samples__get(p->smp, i, &s);
		if (p->ev[s.ev].offcpu) {
			const struct prof_switch_in *w = s.tid > 0 ? next_in(in, n, s.tid, s.time) : NULL;
			if (!w)
				continue;        /* never back on a CPU: no duration */
			/* at least 1 ns: a period of 0 would weigh as one event */
			s.period = w->time > s.time ? w->time - s.time : 1;
		}
		(void)samples__set(p->smp, keep++, &s);   /* sticky: profile__nomem */
	}
	samples__truncate(p->smp, keep);
	p->ns = keep;
	for (size_t e = 0; e < p->nev; e++)
		if (p->ev[e].offcpu) {
			p->ev[e].name = symtab__intern(p->st, "offcpu-time");
			p->ev[e].what = "ns off CPU, from switch-out to switch-in";
		}
	profile__recount(p);
}
