/*
 * browse.c — the rows model of `pmc report --tui` (browse.h): the text
 * report's flat profile, each entry opening into its own call graph, and
 * the zooms, filter, sort and event a key changes.  Rows are made again
 * from the current state after every change: a profile has at most some
 * thousands of entries, and only what is open adds call-graph rows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/browse.h"
#include "common/error.h"
#include "common/grow.h"

struct browse_entry {
	struct ctree t;              /* built when first opened */
	int built;
	uint32_t top;                /* the node the entry's row stands for: the root, or
	                              * callee → caller, the entry's own function */
	uint8_t *open;               /* per node: its children are shown (node 0: the entry) */
};

static void free_entries(struct browse *b)
{
	for (size_t i = 0; b->be && i < b->h.n; i++) {
		if (b->be[i].built)
			tree__free(&b->be[i].t);
		free(b->be[i].open);
	}
	free(b->be);
	b->be = NULL;
}

static int push_row(struct browse *b, uint32_t e, uint32_t node, int depth)
{
	if (GROW(b->rows, b->nrows, b->caprows) < 0)
		return -ENOMEM;
	b->rows[b->nrows++] = (struct browse_row){ e, node, depth };
	return 0;
}

static double share(const struct browse *b, uint64_t v)
{
	return b->h.base ? 100.0 * (double)v / (double)b->h.base : 0;
}

/* The children of node shown: above -g's threshold, at most its limit. */
static int kid_shown(const struct browse *b, const struct ctree *t, uint32_t c, int k)
{
	return share(b, t->n[c].total) >= b->o.cg_threshold && (!b->o.cg_limit || k < b->o.cg_limit);
}

static int push_kids(struct browse *b, uint32_t e, uint32_t node, int depth)
{
	const struct ctree *t = &b->be[e].t;
	int k = 0;
	if (b->o.cg_depth && depth > b->o.cg_depth)
		return 0;
	for (uint32_t c = t->n[node].child; c != UINT32_MAX && kid_shown(b, t, c, k);
	    c = t->n[c].next, k++) {
		if (push_row(b, e, c, depth) < 0)
			return -ENOMEM;
		if (b->be[e].open[c] && push_kids(b, e, c, depth + 1) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int entry_shown(const struct browse *b, size_t i)
{
	const struct hist_entry *he = &b->h.e[i];
	if (!b->filter[0])
		return 1;
	if (he->func >= b->p->nf)
		return 0;
	return strstr(report__func_name(b->p, he->func), b->filter) != NULL;
}

static int make_rows(struct browse *b)
{
	size_t shown = 0;
	b->nrows = 0;
	for (size_t i = 0; i < b->h.n; i++) {
		const struct hist_entry *he = &b->h.e[i];
		if (share(b, b->o.children ? he->children : he->self) < b->o.percent_limit ||
		    (b->o.max_entries && shown >= (size_t)b->o.max_entries))
			break;
		shown++;
		if (!entry_shown(b, i))
			continue;
		if (push_row(b, (uint32_t)i, BROWSE_ENTRY, 0) < 0)
			return pmc__nomem();
		if (b->be[i].built && b->be[i].open[b->be[i].top] &&
		    push_kids(b, (uint32_t)i, b->be[i].top, 1) < 0)
			return pmc__nomem();
	}
	return 0;
}

/* The flat profile of the current event with the current options. */
static int load(struct browse *b)
{
	free_entries(b);
	report__hist_free(&b->h);
	b->nrows = 0;                /* the rows named the old entries */
	int rc = report__hist(&b->h, b->p, &b->o, b->ev[b->evi]);
	if (rc < 0)
		return rc;
	if (b->h.n && !(b->be = calloc(b->h.n, sizeof(*b->be))))
		return pmc__nomem();
	char buf[4096];
	for (int k = 0; k < b->o.nsort; k++)
		b->w[k] = (int)strlen(report__col_title(b->o.sort[k]));
	for (size_t i = 0; i < b->h.n && i < 10000; i++)
		for (int k = 0; k < b->o.nsort - 1; k++) {
			report__key_str(b->p, &b->h.e[i], b->o.sort[k], buf, sizeof(buf));
			if ((int)strlen(buf) > b->w[k])
				b->w[k] = (int)strlen(buf);
		}
	return make_rows(b);
}

int browse__open(struct browse *b, struct profile *p, const struct report_opts *o)
{
	memset(b, 0, sizeof(*b));
	b->p = p;
	b->o = *o;
	b->base = *o;
	b->nev = report__events(p, b->ev, BROWSE_MAX_EVENTS);
	if (b->nev <= 0)
		return pmc__err(-ENOENT, "no samples");
	return load(b);
}

void browse__free(struct browse *b)
{
	free_entries(b);
	report__hist_free(&b->h);
	for (int i = 0; i < b->nzoom; i++) {
		free(b->zoom[i].val);
		free(b->zoom[i].label);
	}
	free(b->rows);
	memset(b, 0, sizeof(*b));
}

int browse__event(const struct browse *b)
{
	return b->ev[b->evi];
}

int browse__next_event(struct browse *b)
{
	b->evi = (b->evi + 1) % b->nev;
	return load(b);
}

static int build_entry(struct browse *b, uint32_t e)
{
	struct browse_entry *x = &b->be[e];
	if (x->built)
		return 0;
	int rc = report__entry_tree(&x->t, b->p, &b->o, b->ev[b->evi], &b->h.e[e]);
	if (rc < 0)
		return rc;
	if (!(x->open = calloc(x->t.nn, 1))) {
		tree__free(&x->t);
		return pmc__nomem();
	}
	x->built = 1;
	/* callee → caller, the first level is the entry's function: its
	 * callers are what opening it shows */
	uint32_t c = x->t.n[0].child;
	x->top = b->o.callgraph != TREE_CALLER && c != UINT32_MAX && x->t.n[c].next == UINT32_MAX ?
	    c : 0;
	return 0;
}

static uint32_t row_node(const struct browse *b, size_t r)
{
	return b->rows[r].node == BROWSE_ENTRY ? b->be[b->rows[r].entry].top : b->rows[r].node;
}

int browse__is_open(const struct browse *b, size_t r)
{
	if (r >= b->nrows)
		return 0;
	const struct browse_entry *x = &b->be[b->rows[r].entry];
	return x->built && x->open[row_node(b, r)];
}

int browse__can_open(const struct browse *b, size_t r)
{
	if (r >= b->nrows)
		return 0;
	const struct browse_entry *x = &b->be[b->rows[r].entry];
	if (!x->built)
		return b->rows[r].node == BROWSE_ENTRY;
	uint32_t c = x->t.n[row_node(b, r)].child;
	return c != UINT32_MAX && kid_shown(b, &x->t, c, 0);
}

/* Open node and, while it has one child shown, that child too. */
static void open_chain(struct browse *b, uint32_t e, uint32_t node)
{
	struct browse_entry *x = &b->be[e];
	for (;;) {
		x->open[node] = 1;
		uint32_t c = x->t.n[node].child;
		if (c == UINT32_MAX || !kid_shown(b, &x->t, c, 0))
			return;
		uint32_t d = x->t.n[c].next;
		if (d != UINT32_MAX && kid_shown(b, &x->t, d, 1))
			return;
		node = c;
	}
}

int browse__toggle(struct browse *b, size_t r)
{
	if (r >= b->nrows)
		return 0;
	uint32_t e = b->rows[r].entry, node = row_node(b, r);
	int rc = build_entry(b, e);
	if (rc < 0)
		return rc;
	if (b->be[e].open[node])
		b->be[e].open[node] = 0;
	else
		open_chain(b, e, node);
	return make_rows(b);
}

int browse__expand(struct browse *b, size_t r, int open)
{
	if (r != BROWSE_ALL && r >= b->nrows)
		return 0;
	size_t lo = r == BROWSE_ALL ? 0 : b->rows[r].entry;
	size_t hi = r == BROWSE_ALL ? b->h.n : lo + 1;
	for (size_t i = lo; i < hi; i++) {
		if (!open) {
			if (b->be[i].built)
				memset(b->be[i].open, 0, b->be[i].t.nn);
			continue;
		}
		if (!entry_shown(b, i))
			continue;
		int rc = build_entry(b, (uint32_t)i);
		if (rc < 0)
			return rc;
		memset(b->be[i].open, 1, b->be[i].t.nn);
	}
	return make_rows(b);
}

/* The filters as given, then each zoom's. */
static void apply_zooms(struct browse *b)
{
	b->o.flt = b->base.flt;
	for (int i = 0; i < b->nzoom; i++) {
		switch (b->zoom[i].k) {
		case SK_TID: b->o.flt.tids = b->zoom[i].val; break;
		case SK_DSO: b->o.flt.dsos = b->zoom[i].val; break;
		case SK_COMM: b->o.flt.comms = b->zoom[i].val; break;
		default: break;
		}
	}
}

int browse__zoom(struct browse *b, size_t r, enum sort_key k)
{
	char val[4096], label[4200];
	static const char *const what[SK_N] = { [SK_COMM] = "command", [SK_TID] = "thread",
	    [SK_DSO] = "binary" };
	b->note[0] = 0;
	if (r >= b->nrows)
		return 0;
	const struct hist_entry *he = &b->h.e[b->rows[r].entry];
	int has = 0;
	for (int i = 0; i < b->o.nsort; i++)
		has |= b->o.sort[i] == k || (k == SK_DSO && b->o.sort[i] == SK_SYM);
	if (!has || (k == SK_DSO && !he->dso) || (k == SK_COMM && !he->comm)) {
		snprintf(b->note, sizeof(b->note), "no %s to zoom into: sort by %s (s)", what[k],
		    k == SK_DSO ? "dso" : report__sort_name(k));
		return 0;
	}
	if (b->nzoom == BROWSE_MAX_ZOOM) {
		snprintf(b->note, sizeof(b->note), "zoomed %d times: Esc first", BROWSE_MAX_ZOOM);
		return 0;
	}
	if (k == SK_TID)
		snprintf(val, sizeof(val), "%d", (int)he->tid);
	else
		snprintf(val, sizeof(val), "%s", k == SK_DSO ? sym_dso__path(he->dso) : he->comm);
	snprintf(label, sizeof(label), "%s %s", what[k], k == SK_DSO ? sym_dso__name(he->dso) :
	    val);
	struct browse_zoom *z = &b->zoom[b->nzoom];
	z->k = k;
	z->val = strdup(val);
	z->label = strdup(label);
	if (!z->val || !z->label) {
		free(z->val);
		free(z->label);
		return pmc__nomem();
	}
	b->nzoom++;
	apply_zooms(b);
	int rc = load(b);
	return rc < 0 ? rc : 1;
}

int browse__unzoom(struct browse *b)
{
	if (!b->nzoom)
		return 0;
	b->nzoom--;
	free(b->zoom[b->nzoom].val);
	free(b->zoom[b->nzoom].label);
	apply_zooms(b);
	int rc = load(b);
	return rc < 0 ? rc : 1;
}

int browse__set_filter(struct browse *b, const char *s)
{
	snprintf(b->filter, sizeof(b->filter), "%s", s);
	return make_rows(b);
}

int browse__set_sort(struct browse *b, const char *keys)
{
	struct report_opts o = b->o;
	int rc = report__parse_sort(&o, keys);
	if (rc < 0)
		return rc;
	memcpy(b->o.sort, o.sort, sizeof(o.sort));
	b->o.nsort = o.nsort;
	memcpy(b->base.sort, o.sort, sizeof(o.sort));
	b->base.nsort = o.nsort;
	return load(b);
}

double browse__row_pct(const struct browse *b, size_t r)
{
	if (r >= b->nrows)
		return 0;
	const struct browse_row *w = &b->rows[r];
	const struct hist_entry *he = &b->h.e[w->entry];
	if (w->node == BROWSE_ENTRY)
		return share(b, b->o.children ? he->children : he->self);
	return share(b, b->be[w->entry].t.n[w->node].total);
}

void browse__row_text(const struct browse *b, size_t r, char *buf, size_t len)
{
	char key[4096];
	size_t at = 0;
	if (!len)
		return;
	buf[0] = 0;
	if (r >= b->nrows)
		return;
	const struct browse_row *w = &b->rows[r];
	if (w->node != BROWSE_ENTRY) {
		uint32_t func = b->be[w->entry].t.n[w->node].func;
		const char *dn = report__dso_name(b->p, func);
		snprintf(buf, len, dn[0] == '[' ? "%*s%s  %s" : "%*s%s  [%s]", 2 * w->depth, "",
		    report__func_name(b->p, func), dn);
		return;
	}
	for (int k = 0; k < b->o.nsort && at < len; k++) {
		report__key_str(b->p, &b->h.e[w->entry], b->o.sort[k], key, sizeof(key));
		int n = snprintf(buf + at, len - at, "%s%-*s", k ? "  " : "",
		    k == b->o.nsort - 1 ? 0 : b->w[k], key);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

const char *browse__row_sym(const struct browse *b, size_t r, const char **dso)
{
	if (r >= b->nrows)
		return NULL;
	const struct browse_row *w = &b->rows[r];
	uint32_t func = w->node == BROWSE_ENTRY ? b->h.e[w->entry].func :
	    b->be[w->entry].t.n[w->node].func;
	if (func >= b->p->nf)
		return NULL;
	if (dso)
		*dso = b->p->f[func].dso ? sym_dso__path(b->p->f[func].dso) : NULL;
	return report__func_name(b->p, func);
}
