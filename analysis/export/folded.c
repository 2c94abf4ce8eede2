/*
 * folded.c — FlameGraph's folded stacks ("comm;outer;...;leaf N"),
 * one line per distinct stack, N in samples (in ns for the off-CPU and
 * wall-clock events, analysis/profile/offcpu.h); what flamegraph.pl,
 * inferno and speedscope read.  Frames with semicolons have them replaced;
 * an unresolved frame is "[unknown]", as stackcollapse-perf.pl folds perf
 * script's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"

static void name(FILE *f, const char *s)
{
	for (; *s; s++)
		putc(*s == ';' ? ':' : *s == '\n' ? ' ' : *s, f);
}

static void walk(FILE *f, struct profile *p, const struct ctree *t, uint32_t i, uint32_t *path,
    int d)
{
	if (i != 0)
		path[d++] = i;
	uint64_t childsum = 0;
	for (uint32_t c = t->n[i].child; c != UINT32_MAX; c = t->n[c].next) {
		childsum += tree__width(t, c);
		if (d < 1023)
			walk(f, p, t, c, path, d);
	}
	/* samples that ended here */
	uint64_t own = tree__width(t, i) - childsum;
	if (i == 0 || own == 0)
		return;
	for (int k = 0; k < d; k++) {
		const struct tnode *n = &t->n[path[k]];
		if (k)
			putc(';', f);
		name(f, n->func == UINT32_MAX ? (n->comm ? n->comm : "?") :
		    report__frame_name(p, n->func));
	}
	fprintf(f, " %" PRIu64 "\n", own);
}

int export__folded(FILE *f, struct profile *p, const struct report_opts *o)
{
	int evs[256], n = report__events(p, evs, 256);
	uint32_t *path = malloc(1024 * sizeof(*path));
	if (!path)
		return -1;
	/* one event: the first with samples unless a filter names one */
	for (int e = 0; e < n && e < 1; e++) {
		struct ctree t;
		struct prof_filter flt = o->flt;
		flt.ev = evs[e];
		if (tree__build(&t, p, &flt, TREE_CALLER, o->inline_frames ? PROF_INLINE : 0, 1) != 0)
			break;
		walk(f, p, &t, 0, path, 0);
		tree__free(&t);
	}
	free(path);
	return ferror(f) ? -1 : 0;
}

const struct export_format export__format_folded = {
	.name = "folded", .needs_chains = EXPORT_CHAINS, .needs_time_order = 1,
	.fn = export__folded,
};
