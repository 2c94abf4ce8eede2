/*
 * offcpu.c — wall-clock merging for a loaded profile (offcpu.h).  It sits
 * above the profile: it includes profile.h, and nothing of the profile
 * includes offcpu.h (the off-CPU durations are worked out while loading,
 * by switches.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "common/error.h"
#include "common/grow.h"
#include "profile/offcpu.h"
#include "profile/profile.h"
#include "profile/samples.h"

/* cpu-clock and task-clock (any modifiers) count nanoseconds on a CPU. */
static int is_time_event(const struct prof_event *e)
{
	return profile__event_named(e->name, "cpu-clock") ||
	    profile__event_named(e->name, "task-clock");
}

int offcpu__wall(struct profile *p)
{
	size_t wall = p->nev;
	int have_off = 0;

	pmc__clear_reason();
	for (size_t e = 0; e < p->nev; e++)
		have_off |= p->ev[e].offcpu && p->ev[e].samples;
	if (!have_off)
		return pmc__err(-ENOENT, "the recording has no off-CPU samples (record with "
		    "'pmc record --off-cpu')");
	if (GROW(p->ev, p->nev, p->capev) < 0)
		return pmc__nomem();
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
	profile__recount(p);
	return 0;
}
