/*
 * names.c — pmc_name_of_*(3): the enum lists of pmc.h expanded a second
 * time into string tables, so a name can never disagree with its value.
 */
#include <errno.h>
#include <stdlib.h>

#include "pmc.h"
#include "event/event.h"

struct vname { long v; const char *name; };

static const struct vname cputypes[] = {
#undef __PMC_CPU
#define __PMC_CPU(S, V, D) { V, #S },
	__PMC_CPUS()
};
static const struct vname classes[] = {
#undef __PMC_CLASS
#define __PMC_CLASS(S, V, D) { V, #S },
	__PMC_CLASSES()
};
static const char *const states[] = {
#undef __PMC_STATE
#define __PMC_STATE(S) #S,
	__PMC_STATES()
};
static const char *const disps[] = {
#undef __PMC_DISP
#define __PMC_DISP(D) #D,
	__PMC_DISPOSITIONS()
};
static const struct vname modes[] = {
#undef __PMC_MODE
#define __PMC_MODE(M, N) { N, #M },
	__PMC_MODES()
};
static const struct vname caps[] = {
#undef __PMC_CAP
#define __PMC_CAP(NAME, VALUE, DESCR) { 1L << VALUE, #NAME },
	__PMC_CAPS()
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *by_value(const struct vname *t, size_t n, long v)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].name;
	errno = EINVAL;
	return NULL;
}

const char *pmc_name_of_cputype(enum pmc_cputype c) { return by_value(cputypes, N(cputypes), c); }
const char *pmc_name_of_class(enum pmc_class c)     { return by_value(classes, N(classes), c); }
const char *pmc_name_of_mode(enum pmc_mode m)       { return by_value(modes, N(modes), m); }

const char *pmc_name_of_state(enum pmc_state s)
{
	if ((int)s < PMC_STATE_FIRST || (int)s > PMC_STATE_LAST) {
		errno = EINVAL;
		return NULL;
	}
	return states[s];
}

const char *pmc_name_of_disposition(enum pmc_disp d)
{
	if ((int)d < PMC_DISP_FIRST || (int)d > PMC_DISP_LAST) {
		errno = EINVAL;
		return NULL;
	}
	return disps[d];
}

/* Exactly one bit, within [PMC_CAP_FIRST, PMC_CAP_LAST], as FreeBSD. */
const char *pmc_name_of_capability(enum pmc_caps c)
{
	unsigned v = (unsigned)c;
	if (v == 0 || (v & (v - 1)) || v < PMC_CAP_FIRST || v > PMC_CAP_LAST) {
		errno = EINVAL;
		return NULL;
	}
	return by_value(caps, N(caps), (long)v);
}

const char *pmc_name_of_event(enum pmc_event e)
{
	const char *n = pmc__event_name_of(e);
	if (!n)
		errno = EINVAL;
	return n;
}

int pmc_event_names_of_class(enum pmc_class cl, const char ***names, int *n)
{
	int rc = pmc__event_names_of_class(cl, names, n);
	if (rc < 0) {
		errno = -rc;
		return -1;
	}
	return 0;
}
