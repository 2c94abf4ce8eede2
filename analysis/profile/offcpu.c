/*
 * offcpu.c — off-CPU durations and wall-clock merging for a loaded profile
 * (offcpu.h).  Kept apart from profile.c's loading: it works on the
 * finished sample array, since the writer drains per-CPU rings in turn and
 * a switch-in may be read before the switch-out sample it ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "common/error.h"
#include "profile/offcpu.h"
#include "profile/profile.h"
#include "profile/samples.h"

static int in_cmp(const void *a, const void *b)
{
	const struct offcpu_in *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/* The first switch-in of tid at or after t, or NULL. */
static const struct offcpu_in *next_in(const struct offcpu_in *in, size_t n, int32_t tid,
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

/* name, or name:modifiers */
static int named(const char *ev, const char *name)
{
	size_t l = strlen(name);
	return !strncmp(ev, name, l) && (ev[l] == '\0' || ev[l] == ':');
}

/* Recount the events' samples and weights after samples moved or went. */
static void recount(struct profile *p)
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
	return named(name, "context-switches") || named(name, "cs");
}

int offcpu__has_switch_event(const struct profile *p)
{
	for (size_t e = 0; e < p->nev; e++)
		if (switch_event(p->ev[e].name))
			return 1;
	return 0;
}

void offcpu__apply(struct profile *p, struct offcpu_in *in, size_t n)
{
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
			const struct offcpu_in *w = s.tid > 0 ? next_in(in, n, s.tid, s.time) : NULL;
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
	recount(p);
}

/* cpu-clock and task-clock (any modifiers) count nanoseconds on a CPU. */
static int is_time_event(const struct prof_event *e)
{
	return named(e->name, "cpu-clock") || named(e->name, "task-clock");
}

int offcpu__wall(struct profile *p)
{
	size_t wall = p->nev;
	int have_off = 0;
	struct prof_event *ev;

	pmc__clear_reason();
	for (size_t e = 0; e < p->nev; e++)
		have_off |= p->ev[e].offcpu && p->ev[e].samples;
	if (!have_off)
		return pmc__err(-ENOENT, "the recording has no off-CPU samples (record with "
		    "'pmc record --off-cpu')");
	if (!(ev = realloc(p->ev, (p->nev + 1) * sizeof(*p->ev))))
		return pmc__nomem();
	p->ev = ev;
	memset(&p->ev[wall], 0, sizeof(p->ev[wall]));
	p->ev[wall].name = symtab__intern(p->st, "wall-time");
	p->ev[wall].pmcid = PMC_ID_INVALID;
	p->ev[wall].what = "ns on CPU (cpu-clock, task-clock) and off CPU";
	p->nev++;
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample s;
		samples__get(p->smp, i, &s);
		const struct prof_event *e = &p->ev[s.ev];
		if (e->offcpu || is_time_event(e)) {
			s.ev = (uint16_t)wall;
			(void)samples__set(p->smp, i, &s);   /* sticky: profile__nomem */
		}
	}
	for (size_t e = 0; e < wall; e++)
		if (p->ev[e].offcpu || is_time_event(&p->ev[e]))
			p->ev[wall].lost += p->ev[e].lost;
	recount(p);
	return 0;
}
