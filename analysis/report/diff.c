/*
 * diff.c — differential profiles (diff.h).  Functions are matched by
 * (binary name, function name), since addresses differ between builds;
 * shares are of each log's own total (first event with samples), so logs
 * of different lengths compare.  A share is of the event's count (the
 * samples' periods), as in pmc report and perf diff: with -F or a
 * frequency-adapted software event one sample may stand for 1 page fault
 * and the next for 200, so counting samples would misstate the change.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/diff.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/hmap.h"
#include "profile/flamegraph.h"
#include "report/report.h"

struct drow {
	const char *sym, *dso;       /* interned in the key pool */
	uint64_t na, nb;             /* samples in the baseline, in the new log */
	uint64_t wa, wb;             /* their weights (periods): the shares */
};

struct dtab {
	struct symtab *pool;
	struct drow *r;
	size_t n, cap;
	struct hidx ix;            /* of r by (sym, dso) */
	int side;
	uint64_t tot[2];           /* samples of each side */
	uint64_t wtot[2];          /* their weights */
	int nomem;                 /* a table could not grow: diff__print fails */
};

static int row_eq(const void *tab, uint32_t i, const void *key)
{
	const struct drow *r = &((const struct dtab *)tab)->r[i], *k = key;
	return r->sym == k->sym && r->dso == k->dso;
}

/* The row of (sym, dso), made if new; NULL out of memory (t->nomem set). */
static struct drow *row(struct dtab *t, const char *sym, const char *dso)
{
	struct drow k = { symtab__intern(t->pool, sym), symtab__intern(t->pool, dso), 0, 0, 0, 0 };
	int added;
	struct hidx_slot *s = hidx_get(&t->ix,
	    (((uintptr_t)k.sym ^ (uintptr_t)k.dso * 31) >> 3) * 0x9E3779B97F4A7C15ull, 1024,
	    row_eq, t, &k, (uint32_t)t->n, &added);
	if (s && !added)
		return &t->r[s->v - 1];
	if (!s || GROW(t->r, t->n, t->cap) < 0) {
		if (s)
			hidx_unadd(&t->ix, s);
		t->nomem = 1;
		return NULL;
	}
	t->r[t->n] = k;
	return &t->r[t->n++];
}

struct cbarg {
	struct dtab *t;
	struct profile *p;
};

static void add(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	struct cbarg *c = arg;
	if (n <= 0 || c->t->nomem)
		return;
	const struct prof_func *f = &c->p->f[c->p->l[fr[0].loc].func];
	struct drow *r = row(c->t, f->name, sym_dso__name(f->dso));
	if (!r)
		return;
	if (c->t->side == 0) {
		r->na += cnt;
		r->wa += w;
	} else {
		r->nb += cnt;
		r->wb += w;
	}
	c->t->tot[c->t->side] += cnt;
	c->t->wtot[c->t->side] += w;
}

static double share(uint64_t n, uint64_t tot)
{
	return tot ? 100.0 * (double)n / (double)tot : 0;
}

static int cmp_delta(const void *x, const void *y, void *arg)
{
	const struct drow *a = x, *b = y;
	const struct dtab *t = arg;
	double da = fabs(share(a->wb, t->wtot[1]) - share(a->wa, t->wtot[0]));
	double db = fabs(share(b->wb, t->wtot[1]) - share(b->wa, t->wtot[0]));
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->sym, b->sym);
}

static int first_event(const struct profile *p)
{
	int e[1];
	return report__events(p, e, 1) ? e[0] : -1;
}

/* ---- the differential flame graph ------------------------------------ */

struct fgd {
	struct profile *pa, *pb;
	struct ctree *ta, *tb;
	uint32_t *map;               /* B node -> A node or UINT32_MAX */
};

static void match(struct fgd *d, uint32_t b, uint32_t a)
{
	d->map[b] = a;
	for (uint32_t c = d->tb->n[b].child; c != UINT32_MAX; c = d->tb->n[c].next) {
		uint32_t m = UINT32_MAX;
		if (a != UINT32_MAX) {
			const char *nb = d->pb->f[d->tb->n[c].func].name;
			for (uint32_t k = d->ta->n[a].child; k != UINT32_MAX; k = d->ta->n[k].next)
				if (strcmp(d->pa->f[d->ta->n[k].func].name, nb) == 0) {
					m = k;
					break;
				}
		}
		match(d, c, m);
	}
}

static const char *nm(void *arg, const struct ctree *t, uint32_t i)
{
	struct fgd *d = arg;
	return d->pb->f[t->n[i].func].name;
}

static const char *dso(void *arg, const struct ctree *t, uint32_t i)
{
	struct fgd *d = arg;
	return sym_dso__name(d->pb->f[t->n[i].func].dso);
}

static double delta(struct fgd *d, uint32_t i)
{
	double after = share(d->tb->n[i].total, d->tb->total);
	uint32_t a = d->map[i];
	double before = a == UINT32_MAX ? 0 : share(d->ta->n[a].total, d->ta->total);
	return after - before;
}

static const char *col(void *arg, const struct ctree *t, uint32_t i, char *buf, size_t len)
{
	struct fgd *d = arg;
	double dl = delta(d, i);
	(void)t;
	/* full colour at a change of 10 points of the total */
	int k = (int)(fmin(fabs(dl) / 10.0, 1.0) * 200);
	if (dl > 0)
		snprintf(buf, len, "rgb(255,%d,%d)", 255 - k, 255 - k);
	else if (dl < 0)
		snprintf(buf, len, "rgb(%d,%d,255)", 255 - k, 255 - k);
	else
		snprintf(buf, len, "rgb(250,250,250)");
	return buf;
}

static const char *extra(void *arg, const struct ctree *t, uint32_t i, char *buf, size_t len)
{
	struct fgd *d = arg;
	uint32_t a = d->map[i];
	double before = a == UINT32_MAX ? 0 : share(d->ta->n[a].total, d->ta->total);
	(void)t;
	snprintf(buf, len, "was %.2f%%, change %+.2f points", before, delta(d, i));
	return buf;
}

static int diff_svg(FILE *f, struct profile *a, struct profile *b, const struct diff_opts *o)
{
	struct ctree ta, tb;
	struct prof_filter fa = o->flt, fb = o->flt;
	int rc;
	fa.ev = first_event(a);
	fb.ev = first_event(b);
	if ((rc = tree__build(&ta, a, &fa, TREE_CALLER, o->inline_frames ? PROF_INLINE : 0, 0)))
		return rc;
	if ((rc = tree__build(&tb, b, &fb, TREE_CALLER, o->inline_frames ? PROF_INLINE : 0, 0))) {
		tree__free(&ta);
		return rc;
	}
	tree__sort(&tb);
	struct fgd d = { a, b, &ta, &tb, calloc(tb.nn + 1, sizeof(uint32_t)) };
	if (!d.map) {
		tree__free(&ta);
		tree__free(&tb);
		return pmc__nomem();
	}
	match(&d, 0, 0);
	char title[256], sub[1024];
	snprintf(title, sizeof(title), "Differential flame graph");
	snprintf(sub, sizeof(sub), "%s → %s: red grew, blue shrank (share of the event's count)",
	    o->name_a, o->name_b);
	struct fg_style st = { title, sub, nm, dso, col, extra, &d, "samples" };
	rc = flamegraph__svg(f, &tb, &st);
	free(d.map);
	tree__free(&ta);
	tree__free(&tb);
	return rc;
}

int diff__print(FILE *f, struct profile *a, struct profile *b, const struct diff_opts *o)
{
	struct dtab t = { 0 };
	struct cbarg c;
	struct prof_filter flt = o->flt;

	profile__resolve(a);
	profile__resolve(b);
	if (o->format == DIFF_SVG)
		return diff_svg(f, a, b, o);
	t.pool = symtab__new(NULL);
	c.t = &t;
	t.side = 0;
	c.p = a;
	flt.ev = first_event(a);
	profile__foreach_group(a, &flt, 0, add, &c);
	t.side = 1;
	c.p = b;
	flt.ev = first_event(b);
	profile__foreach_group(b, &flt, 0, add, &c);
	if (t.nomem) {
		free(t.r);
		hidx_free(&t.ix);
		symtab__free(t.pool);
		return pmc__nomem();
	}
	qsort_r(t.r, t.n, sizeof(*t.r), cmp_delta, &t);

	if (o->format == DIFF_JSON) {
		fprintf(f, "{\"baseline\":");
		json__string(f, o->name_a);
		fprintf(f, ",\"new\":");
		json__string(f, o->name_b);
		fprintf(f, ",\"baseline_samples\":%" PRIu64 ",\"new_samples\":%" PRIu64 ",\"rows\":[",
		    t.tot[0], t.tot[1]);
	} else {
		fprintf(f, "# pmc diff: %s → %s\n", o->name_a, o->name_b);
		fprintf(f, "# Baseline: %" PRIu64 " samples of %s\n# New:      %" PRIu64
		    " samples of %s\n#\n", t.tot[0], first_event(a) >= 0 ? a->ev[first_event(a)].name :
		    "-", t.tot[1], first_event(b) >= 0 ? b->ev[first_event(b)].name : "-");
		fprintf(f, "# %8s  %8s  %9s  %-40s  %s\n", "Baseline", "New", "Delta", "Symbol",
		    "Shared Object");
	}
	int first = 1;
	for (size_t i = 0; i < t.n; i++) {
		const struct drow *r = &t.r[i];
		double sa = share(r->wa, t.wtot[0]), sb = share(r->wb, t.wtot[1]);
		if (fabs(sb - sa) < o->percent_limit && sa < o->percent_limit && sb < o->percent_limit)
			continue;
		if (o->format == DIFF_JSON) {
			fprintf(f, "%s{\"sym\":", first ? "" : ",");
			json__string(f, r->sym);
			fprintf(f, ",\"dso\":");
			json__string(f, r->dso);
			fprintf(f, ",\"baseline\":%.4f,\"new\":%.4f,\"delta\":%.4f,\"baseline_samples\":%"
			    PRIu64 ",\"new_samples\":%" PRIu64 "}", sa, sb, sb - sa, r->na, r->nb);
		} else {
			const char *cs = "", *ce = "";
			if (o->color && fabs(sb - sa) >= 0.5) {
				cs = sb > sa ? "\033[31m" : "\033[34m";
				ce = "\033[0m";
			}
			fprintf(f, "  %7.2f%%  %7.2f%%  %s%+8.2f%s  %-40s  %s\n", sa, sb, cs, sb - sa, ce,
			    r->sym, r->dso);
		}
		first = 0;
	}
	if (o->format == DIFF_JSON)
		fprintf(f, "]}\n");
	free(t.r);
	hidx_free(&t.ix);
	symtab__free(t.pool);
	return ferror(f) ? -1 : 0;
}
