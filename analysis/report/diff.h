/*
 * diff.h — `pmc diff A B`: a differential flat profile (each function's
 * share of the samples before and after, and the change) and a
 * differential flame graph (B's graph, each frame coloured by how its share
 * changed from A: red grew, blue shrank), as for a before/after change.
 */
#ifndef PMCSTAT_DIFF_H
#define PMCSTAT_DIFF_H

#include <stdio.h>

#include "profile/profile.h"

enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_SVG };

struct diff_opts {
	struct prof_filter flt;      /* applied to both */
	enum diff_format format;
	double percent_limit;        /* hide rows whose shares and change are all below */
	const char *name_a, *name_b;
	int inline_frames;
	int color;
};

/* 0, -1 when the output could not be written, or -ENOMEM with pmc_errmsg()
 * "out of memory". */
int diff__print(FILE *f, struct profile *a, struct profile *b, const struct diff_opts *o);

#endif
