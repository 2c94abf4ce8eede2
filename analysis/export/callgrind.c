/*
 * callgrind.c — the callgrind format (KCachegrind, callgrind_annotate;
 * what pmcstat's calltree plugin writes): per function its self cost at its
 * source lines, and per call edge (caller → callee) the inclusive cost of
 * the samples that went through it.  One cost column per event, in samples.
 * "totals:" is the number of samples, which the self costs add up to.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/grow.h"
#include "common/hmap.h"
#include "export/export.h"
#include "util/printable.h"

struct cost {                 /* (func, line) self, or edge (caller, callee) inclusive */
	uint32_t a, b;            /* func / caller, line / callee */
	int edge;
	uint64_t *v;
};

struct cg {
	struct profile *p;
	int nev, *col;
	struct cost *c;
	size_t n, cap;
	struct hidx ix;           /* of c by (a, b, edge) */
	uint64_t *tot;
	int lines;
	int nomem;                /* a table could not grow: the export fails */
};

static int cost_eq(const void *tab, uint32_t i, const void *key)
{
	const struct cost *c = &((const struct cg *)tab)->c[i], *k = key;
	return c->a == k->a && c->b == k->b && c->edge == k->edge;
}

/* The costs of (a, b, edge), made if new; NULL out of memory (g->nomem). */
static uint64_t *get(struct cg *g, uint32_t a, uint32_t b, int edge)
{
	if (g->nomem)
		return NULL;
	struct cost k = { a, b, edge, NULL };
	int added;
	struct hidx_slot *s = hidx_get(&g->ix,
	    (uint64_t)a * 0x9E3779B1u ^ b * 0x85EBCA6Bu ^ (uint64_t)edge, 1024, cost_eq, g, &k,
	    (uint32_t)g->n, &added);
	if (s && !added)
		return g->c[s->v - 1].v;
	if (!s || GROW(g->c, g->n, g->cap) < 0 ||
	    !(k.v = calloc((size_t)g->nev + 1, sizeof(uint64_t)))) {
		if (s)
			hidx_unadd(&g->ix, s);
		g->nomem = 1;
		return NULL;
	}
	g->c[g->n++] = k;
	return k.v;
}

static void add(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	struct cg *g = arg;
	int c = g->col[s->ev];
	if (c < 0 || n <= 0)
		return;
	uint64_t *v = get(g, fr[0].func, fr[0].line > 0 ? (uint32_t)fr[0].line : 0, 0);
	if (!v)
		return;
	v[c] += cnt;
	g->tot[c] += cnt;
	/* each edge once per sample (recursion would count it twice) */
	for (int i = 1; i < n; i++) {
		int dup = 0;
		for (int k = 1; k < i && !dup; k++)
			dup = fr[k].func == fr[i].func && fr[k - 1].func == fr[i - 1].func;
		if (!dup && (v = get(g, fr[i].func, fr[i - 1].func, 1)))
			v[c] += cnt;
	}
}

static int cmp_cost(const void *x, const void *y)
{
	const struct cost *a = x, *b = y;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	if (a->edge != b->edge)
		return a->edge - b->edge;
	return a->b < b->b ? -1 : a->b > b->b;
}

static const char *fname(struct profile *p, uint32_t f)
{
	const char *file = NULL;
	int line;
	/* the function's file: that of its first location with a line */
	for (size_t i = 0; i < p->nl; i++)
		if (p->l[i].func == f && profile__srcline(p, (uint32_t)i, &file, &line) == 0)
			return file;
	return "???";
}

int export__callgrind(FILE *f, struct profile *p, const struct report_opts *o)
{
	int evs[256], nomem;
	struct cg g = { 0 };
	g.p = p;
	g.nev = report__events(p, evs, 256);
	profile__resolve(p);
	g.col = malloc((p->nev ? p->nev : 1) * sizeof(int));
	g.tot = calloc((size_t)g.nev + 1, sizeof(uint64_t));
	if (!g.col || !g.tot)
		goto out;
	for (size_t i = 0; i < p->nev; i++)
		g.col[i] = -1;
	for (int i = 0; i < g.nev; i++)
		g.col[evs[i]] = i;
	profile__foreach_group(p, &o->flt, PROF_LINES | (o->inline_frames ? PROF_INLINE : 0), add,
	    &g);
	if (g.nomem)
		goto out;
	if (g.n)
		qsort(g.c, g.n, sizeof(*g.c), cmp_cost);
	/* slots are stale after the sort; not needed any more */

	fprintf(f, "# callgrind format\nversion: 1\ncreator: pmc report %s\n", PMC_VERSION_STRING);
	if (p->hdr.cmdline[0])
		fprintf(f, "cmd: %s\n", p->hdr.cmdline);
	fprintf(f, "positions: line\nevents:");
	for (int i = 0; i < g.nev; i++) {
		/* event names must be identifiers */
		fputc(' ', f);
		for (const char *s = p->ev[evs[i]].name; *s; s++)
			fputc((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			    (*s >= '0' && *s <= '9') ? *s : '_', f);
	}
	fprintf(f, "\n");
	for (int pass = 0; pass < 2; pass++) {
		fprintf(f, pass ? "totals:" : "summary:");
		for (int i = 0; i < g.nev; i++)
			fprintf(f, " %" PRIu64, g.tot[i]);
		fprintf(f, "\n");
	}
	uint32_t cur = UINT32_MAX;
	char ob[4096], fl[4096];           /* paths, printable: one record a line */
	for (size_t i = 0; i < g.n; i++) {
		struct cost *c = &g.c[i];
		if (c->a != cur) {
			cur = c->a;
			fprintf(f, "\nob=%s\nfl=%s\nfn=%s\n", printable__str(sym_dso__path(p->f[cur].dso),
			    ob, sizeof(ob)), printable__str(fname(p, cur), fl, sizeof(fl)), p->f[cur].name);
		}
		if (c->edge) {
			fprintf(f, "cob=%s\ncfi=%s\ncfn=%s\ncalls=", printable__str(sym_dso__path(
			    p->f[c->b].dso), ob, sizeof(ob)), printable__str(fname(p, c->b), fl, sizeof(fl)),
			    p->f[c->b].name);
			uint64_t calls = 0;
			for (int k = 0; k < g.nev; k++)
				calls += c->v[k];
			fprintf(f, "%" PRIu64 " 0\n0", calls);
		} else {
			fprintf(f, "%u", c->b);
		}
		for (int k = 0; k < g.nev; k++)
			fprintf(f, " %" PRIu64, c->v[k]);
		fprintf(f, "\n");
	}
out:
	nomem = !g.col || !g.tot || g.nomem;
	for (size_t i = 0; i < g.n; i++)
		free(g.c[i].v);
	free(g.c);
	hidx_free(&g.ix);
	free(g.col);
	free(g.tot);
	if (nomem)
		return pmc__nomem();
	return ferror(f) ? -1 : 0;
}

const struct export_format export__format_callgrind = {
	.name = "callgrind", .needs_chains = EXPORT_CHAINS, .needs_time_order = 1,
	.fn = export__callgrind,
};
