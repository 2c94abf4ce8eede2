/*
 * report.c — the flat profile (histogram over the sort keys, self and
 * children), the text report (header, one section per event, call graph,
 * per-process summary, USERDATA markers) and the JSON report.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "common/grow.h"
#include "common/hmap.h"
#include "util/numfmt.h"
#include "util/printable.h"
#include "report/report.h"

#define NONE UINT32_MAX

const char *report__func_name(const struct profile *p, uint32_t func)
{
	return func == NONE ? "[root]" : p->f[func].name;
}

const char *report__frame_name(const struct profile *p, uint32_t func)
{
	return func != NONE && profile__func_unresolved(p, func) ? "[unknown]" :
	    report__func_name(p, func);
}

const char *report__dso_name(const struct profile *p, uint32_t func)
{
	return func == NONE ? "" : sym_dso__name(p->f[func].dso);
}

/* ---- the histogram ---------------------------------------------------- */

/*
 * What a sample's keys take from the sample itself rather than from its
 * stack: with the same stack and these the same, a sample goes to the same
 * entries as the last one did (the fields the sort keys do not use are 0).
 */
struct hist_ctx {
	const char *comm;
	int32_t pid, tid, cpu;
};

/* Per stack id: the entries its last sample went to, so that the next
 * sample of that stack and context adds its weight without making keys or
 * hashing them (most samples repeat a stack seen before). */
struct hist_memo {
	struct hist_ctx c;
	uint32_t off, n;              /* into hist_priv.mix (self's entry first,
	                               * then with children the chain's other
	                               * distinct ones); n 0: none yet */
};

struct hist_priv {
	struct hidx ix;               /* of the hist's entries by key (stale once sorted) */
	const struct report_opts *o;
	struct profile *p;
	int need_lines;
	int nomem;                    /* a table could not grow (sticky) */
	struct hist_ctx use;          /* which hist_ctx fields the keys use: non-0 */
	struct hist_memo *memo;       /* by stack id */
	size_t nmemo;
	uint32_t *mix;                /* the memos' entry lists */
	size_t nmix, capmix;
};

static int has_key(const struct report_opts *o, enum sort_key k)
{
	for (int i = 0; i < o->nsort; i++)
		if (o->sort[i] == k)
			return 1;
	return 0;
}

static uint64_t ehash(const struct hist_entry *e)
{
	uint64_t h = 1469598103934665603ull;
	uint64_t v[8] = { e->func, (uintptr_t)e->dso, (uintptr_t)e->comm, (uintptr_t)e->file,
	    (uint32_t)e->pid, (uint32_t)e->tid, (uint32_t)e->cpu, (uint32_t)e->line };
	for (int i = 0; i < 8; i++)
		h = (h ^ v[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static int same_key(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->func == b->func && a->dso == b->dso && a->comm == b->comm && a->file == b->file &&
	    a->pid == b->pid && a->tid == b->tid && a->cpu == b->cpu && a->line == b->line;
}

/* hidx's compare: does entry i of the hist tab hold key? */
static int eeq(const void *tab, uint32_t i, const void *key)
{
	return same_key(&((const struct hist *)tab)->e[i], key);
}

/* k's entry, made if new; NULL out of memory (v->nomem set). */
static struct hist_entry *hfind(struct hist *h, const struct hist_entry *k)
{
	struct hist_priv *v = h->priv;
	int added;
	struct hidx_slot *s = hidx_get(&v->ix, ehash(k), 1024, eeq, h, k, (uint32_t)h->n, &added);
	if (s && !added)
		return &h->e[s->v - 1];
	if (!s || GROW(h->e, h->n, h->cap) < 0) {
		if (s)
			hidx_unadd(&v->ix, s);
		v->nomem = 1;
		return NULL;
	}
	h->e[h->n] = *k;
	return &h->e[h->n++];
}

static void make_key(struct hist_priv *v, struct hist_entry *k, const struct prof_sample *s,
    const struct prof_frame *f)
{
	const struct report_opts *o = v->o;
	struct profile *p = v->p;
	memset(k, 0, sizeof(*k));
	for (int i = 0; i < o->nsort; i++) {
		switch (o->sort[i]) {
		case SK_COMM: k->comm = s->comm; break;
		case SK_PID: k->pid = s->pid; break;
		case SK_TID: k->tid = s->tid; break;
		case SK_CPU: k->cpu = s->cpu; break;
		case SK_DSO: k->dso = p->f[f->func].dso; break;
		case SK_SYM: k->func = f->func; k->dso = p->f[f->func].dso; break;
		case SK_SRCLINE: {
			/* the frame's own line where it has one (an inlined
			 * level: the line of its callee's call, as addr2line -i
			 * gives it), else its address's */
			const char *file = f->line > 0 ? f->file : NULL;
			int line = f->line > 0 ? f->line : 0;
			if (!file)
				profile__srcline(p, f->loc, &file, &line);
			k->file = file;
			k->line = line;
			if (!file)   /* no line: keep addresses of different functions apart */
				k->func = f->func;
			break;
		}
		default: break;
		}
	}
	if (!has_key(o, SK_SYM) && !has_key(o, SK_SRCLINE))
		k->func = NONE;
}

/* The memo of stack (made, empty, if new); NULL out of memory. */
static struct hist_memo *memo_of(struct hist_priv *v, uint32_t stack)
{
	if (stack >= v->nmemo) {
		size_t n = grow__cap(v->nmemo, (size_t)stack + 1, 1024);
		struct hist_memo *m = realloc(v->memo, n * sizeof(*m));
		if (!m)
			return NULL;
		memset(m + v->nmemo, 0, (n - v->nmemo) * sizeof(*m));
		v->memo = m;
		v->nmemo = n;
	}
	return &v->memo[stack];
}

/* Remember that stack in context c went to entries ix[0..n) (self's first);
 * out of memory it is simply not remembered. */
static void memo_set(struct hist_priv *v, uint32_t stack, const struct hist_ctx *c,
    const uint32_t *ix, uint32_t n)
{
	struct hist_memo *m = stack == PROF_NO_IX ? NULL : memo_of(v, stack);
	if (!m)
		return;
	if (m->n < n) {               /* a new list; else the old place is reused */
		if (GROW_FROM(v->mix, v->nmix, v->capmix, n, 4096) < 0) {
			m->n = 0;
			return;
		}
		m->off = (uint32_t)v->nmix;
		v->nmix += n;
	}
	memcpy(v->mix + m->off, ix, n * sizeof(*ix));
	m->n = n;
	m->c = *c;
}

static void hist_add(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	struct hist *h = arg;
	struct hist_priv *v = h->priv;
	struct hist_entry k, *e;
	h->total += w;
	h->total_n += cnt;
	if (n <= 0 || v->nomem)
		return;
	struct hist_ctx c = { v->use.comm ? s->comm : NULL, v->use.pid ? s->pid : 0,
	    v->use.tid ? s->tid : 0, v->use.cpu ? s->cpu : 0 };
	const struct hist_memo *m = s->stack < v->nmemo ? &v->memo[s->stack] : NULL;
	if (m && m->n && m->c.comm == c.comm && m->c.pid == c.pid && m->c.tid == c.tid &&
	    m->c.cpu == c.cpu) {
		const uint32_t *ix = v->mix + m->off;
		h->e[ix[0]].self += w;
		h->e[ix[0]].self_n += cnt;
		for (uint32_t i = 0; i < m->n; i++) {
			h->e[ix[i]].children += w;
			h->e[ix[i]].children_n += cnt;
		}
		return;
	}
	make_key(v, &k, s, &fr[0]);
	if (!(e = hfind(h, &k)))
		return;
	e->self += w;
	e->self_n += cnt;
	uint32_t seen[512];
	seen[0] = (uint32_t)(e - h->e);
	if (!v->o->children) {
		e->children += w;
		e->children_n += cnt;
		memo_set(v, s->stack, &c, seen, 1);
		return;
	}
	/* children: every distinct key along the chain, once per sample (the
	 * leaf's key is self's: seen[0] again) */
	uint32_t ns = 0;
	for (int i = 0; i < n && i < 512; i++) {
		make_key(v, &k, s, &fr[i]);
		if (!(e = hfind(h, &k)))
			return;
		uint32_t ix = (uint32_t)(e - h->e);
		int dup = 0;
		for (uint32_t j = 0; j < ns && !dup; j++)
			dup = seen[j] == ix;
		if (dup)
			continue;
		seen[ns++] = ix;
		h->e[ix].children += w;
		h->e[ix].children_n += cnt;
	}
	memo_set(v, s->stack, &c, seen, ns);
}

static void add_weight(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	*(uint64_t *)arg += w;
}

/*
 * What percentages are of: the event's whole, as perf's --percentage
 * absolute (only the time window and the CPUs shrink it), or with
 * o->relative the weight the filters kept (filtered).
 */
static uint64_t whole(struct profile *p, const struct report_opts *o, int ev, uint64_t filtered)
{
	const struct prof_filter *f = &o->flt;
	uint64_t w = 0;
	if (o->relative || !(f->pids || f->tids || f->comms || f->dsos || f->syms))
		return filtered;
	struct prof_filter all = { .ev = ev, .cpus = f->cpus, .time = f->time };
	profile__foreach_group(p, &all, 0, add_weight, &w);
	return w;
}

#define NUM_CMP(a, b) ((a) < (b) ? -1 : (a) > (b))

/* Entries of equal weight and count, in the order of their keys (as perf
 * sorts them), then by where their function is: so the order never
 * depends on the order the samples were read in (a flat report reads them
 * in file order, input__set_sample_unordered). */
static int cmp_keys(const struct hist_entry *x, const struct hist_entry *y,
    const struct hist_priv *v)
{
	const struct report_opts *o = v->o;
	static const struct prof_func none;
	const struct prof_func *fx = x->func < v->p->nf ? &v->p->f[x->func] : &none;
	const struct prof_func *fy = y->func < v->p->nf ? &v->p->f[y->func] : &none;
	int c = 0;
	for (int i = 0; i < o->nsort && !c; i++)
		c = report__sort_keys[o->sort[i]].cmp(v->p, x, y);
	/* the same names: two static functions, two copies of a library */
	if (!c)
		c = sym_dso__cmp(x->dso, y->dso);
	if (!c)
		c = NUM_CMP(fx->start, fy->start);
	return c ? c : NUM_CMP(x->func, y->func);
}

static int cmp_self(const void *a, const void *b, void *arg)
{
	const struct hist_entry *x = a, *y = b;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->self_n != y->self_n)
		return x->self_n > y->self_n ? -1 : 1;
	return cmp_keys(x, y, arg);
}

static int cmp_children(const void *a, const void *b, void *arg)
{
	const struct hist_entry *x = a, *y = b;
	if (x->children != y->children)
		return x->children > y->children ? -1 : 1;
	return cmp_self(a, b, arg);
}

int report__hist(struct hist *h, struct profile *p, const struct report_opts *o, int ev)
{
	struct report_opts oo = *o;
	memset(h, 0, sizeof(*h));
	h->priv = calloc(1, sizeof(*h->priv));
	if (!h->priv)
		return pmc__nomem();
	h->priv->o = &oo;
	h->priv->p = p;
	h->priv->use = (struct hist_ctx){ has_key(o, SK_COMM) ? "" : NULL, has_key(o, SK_PID),
	    has_key(o, SK_TID), has_key(o, SK_CPU) };
	oo.flt.ev = ev;
	/* children need the whole chain; the flat self profile needs only the leaf,
	 * but frames are cached per stack, so one walk serves both */
	profile__foreach_group(p, &oo.flt, 0, hist_add, h);
	if (h->priv->nomem) {
		report__hist_free(h);
		return pmc__nomem();
	}
	/* the memos serve one walk: free them before the next one */
	free(h->priv->memo);
	free(h->priv->mix);
	h->priv->memo = NULL;
	h->priv->mix = NULL;
	h->priv->nmemo = h->priv->nmix = h->priv->capmix = 0;
	h->base = whole(p, o, ev, h->total);
	if (h->n)       /* qsort(NULL, 0) is undefined behaviour */
		qsort_r(h->e, h->n, sizeof(*h->e), o->children ? cmp_children : cmp_self, h->priv);
	h->priv->o = NULL;
	return 0;
}

struct epick {
	struct hist_priv v;
	const struct hist_entry *e;
};

/* The frame whose key is the entry's: the leaf, or with children any. */
static int pick_entry(void *arg, const struct prof_sample *s, const struct prof_frame *fr, int n)
{
	struct epick *x = arg;
	struct hist_entry k;
	for (int i = 0; i < n && (i == 0 || x->v.o->children); i++) {
		make_key(&x->v, &k, s, &fr[i]);
		if (same_key(&k, x->e))
			return i;
	}
	return -1;
}

int report__entry_tree(struct ctree *t, struct profile *p, const struct report_opts *o, int ev,
    const struct hist_entry *e)
{
	struct epick x;
	struct prof_filter flt = o->flt;
	memset(&x, 0, sizeof(x));
	x.v.o = o;
	x.v.p = p;
	x.e = e;
	flt.ev = ev;
	int caller = o->callgraph == TREE_CALLER;
	int rc = tree__build_pick(t, p, &flt, caller ? TREE_CALLER : TREE_CALLEE, 0, 0, pick_entry,
	    &x, caller && o->children);
	if (rc == 0)
		tree__sort(t);
	return rc;
}

/* Entries 0 .. nt of a sorted hist by key (the hist's own table holds the
 * indices from before the sort). */
struct epick_many {
	struct hist_priv v;
	const struct hist *h;
	struct hidx ix;              /* of h's entries 0 .. nt */
};

static long elookup(const struct epick_many *x, const struct hist_entry *k)
{
	return (long)hidx_find(&x->ix, ehash(k), eeq, x->h, k);
}

static int pick_entries(void *arg, const struct prof_sample *s, const struct prof_frame *fr,
    int n, uint32_t *ix, int *k, int max)
{
	struct epick_many *x = arg;
	struct hist_entry key;
	int c = 0;
	for (int i = 0; i < n && c < max && (i == 0 || x->v.o->children); i++) {
		make_key(&x->v, &key, s, &fr[i]);
		long e = elookup(x, &key);
		int dup = e < 0;
		for (int j = 0; j < c && !dup; j++)
			dup = ix[j] == (uint32_t)e;
		if (dup)
			continue;
		ix[c] = (uint32_t)e;
		k[c++] = i;
	}
	return c;
}

int report__entry_trees(struct ctree *t, size_t nt, struct profile *p,
    const struct report_opts *o, int ev, const struct hist *h)
{
	struct epick_many x;
	struct prof_filter flt = o->flt;
	memset(&x, 0, sizeof(x));
	x.v.o = o;
	x.v.p = p;
	x.h = h;
	flt.ev = ev;
	if (hidx_resize(&x.ix, grow__cap(0, 2 * nt, 16)) < 0)
		return pmc__nomem();
	for (size_t i = 0; i < nt && i < h->n; i++)
		hidx_put(&x.ix, ehash(&h->e[i]), (uint32_t)i);
	int caller = o->callgraph == TREE_CALLER;
	int rc = tree__build_many(t, nt, p, &flt, caller ? TREE_CALLER : TREE_CALLEE, 0,
	    pick_entries, &x, caller && o->children);
	hidx_free(&x.ix);
	if (rc == 0)
		for (size_t i = 0; i < nt; i++)
			tree__sort(&t[i]);
	return rc;
}

void report__hist_free(struct hist *h)
{
	if (h->priv) {
		hidx_free(&h->priv->ix);
		free(h->priv->memo);
		free(h->priv->mix);
	}
	free(h->priv);
	free(h->e);
	memset(h, 0, sizeof(*h));
}

int report__events(const struct profile *p, int *out, int max)
{
	int n = 0;
	for (size_t i = 0; i < p->nev && n < max; i++)
		if (p->ev[i].samples)
			out[n++] = (int)i;
	return n;
}

/* ---- text -------------------------------------------------------------- */

void report__header_lines(FILE *f, const struct profile *p, const char *pre)
{
	const struct prof_header *h = &p->hdr;
	if (!h->have) {
		fprintf(f, "%s(no HEADER record: recording details unknown)\n", pre);
		return;
	}
	char when[64] = "time not recorded";
	time_t t = (time_t)(h->start_realtime / 1000000000u);
	struct tm tm;
	if (h->start_realtime && localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
	/* the kernel's release is kept as recorded (profile.c take_header) */
	char kern[4 * sizeof(h->kernel)];
	fprintf(f, "%srecorded: %s on %s (kernel %s), pmc %s\n", pre, when, h->hostname,
	    printable__str(h->kernel, kern, sizeof(kern)), h->libversion);
	fprintf(f, "%scpu: %s\n", pre, h->cpudesc[0] ? h->cpudesc : "?");
	if (h->cmdline[0])
		fprintf(f, "%scommand: %s\n", pre, h->cmdline);
	if (p->last_time > p->first_time)
		fprintf(f, "%sduration: %.3f s of samples\n", pre,
		    (double)(p->last_time - p->first_time) / 1e9);
}

static const char *colr(const struct report_opts *o, double pct)
{
	if (!o->color)
		return "";
	return pct >= 5.0 ? "\033[31m" : pct >= 0.5 ? "\033[32m" : "";
}

static const char *creset(const struct report_opts *o, double pct)
{
	return o->color && pct >= 0.5 ? "\033[0m" : "";
}

/* 0, or -ENOMEM (pmc_errmsg() says so). */
static int print_callgraph(FILE *f, struct profile *p, const struct report_opts *o, int ev)
{
	struct ctree t;
	struct prof_filter flt = o->flt;
	int rc;
	flt.ev = ev;
	rc = tree__build(&t, p, &flt, o->callgraph, o->inline_frames ? PROF_INLINE : 0, 0);
	if (rc < 0)
		return rc;
	tree__sort(&t);
	uint64_t base = whole(p, o, ev, t.total);
	fprintf(f, "\n# Call graph (%s), %s:%s%s\n#\n",
	    o->callgraph == TREE_CALLER ? "caller → callee" : "callee → caller: who called it",
	    p->ev[ev].name, o->cg_depth ? " depth limit" : "", o->cg_depth ? "" : "");
	/* depth-first, iterative */
	uint32_t stack[1024];
	int depth[1024], sp = 0;
	/* children are sorted heaviest first: push those above the threshold
	 * (the heaviest when there is no room for all; at most -g's print
	 * limit), lightest first */
#define PUSH_KIDS(node, d_) do { \
		uint32_t kids[1024]; \
		int nk = 0; \
		for (uint32_t c = t.n[node].child; c != NONE && nk < 1024 - sp && \
		    (!o->cg_limit || nk < o->cg_limit); c = t.n[c].next) { \
			if (base && 100.0 * (double)t.n[c].total / (double)base < o->cg_threshold) \
				break; \
			kids[nk++] = c; \
		} \
		for (int k = nk - 1; k >= 0; k--) { \
			stack[sp] = kids[k]; \
			depth[sp++] = (d_); \
		} \
	} while (0)
	PUSH_KIDS(0, 0);
	while (sp > 0) {
		uint32_t i = stack[--sp];
		int d = depth[sp];
		double pct = base ? 100.0 * (double)t.n[i].total / (double)base : 0;
		if (pct < o->cg_threshold)
			continue;
		const char *dn = report__dso_name(p, t.n[i].func);
		/* "[kernel.kallsyms]", "[unknown]" are bracketed already */
		fprintf(f, dn[0] == '[' ? "%s%7.2f%%%s  %*s%s%s  %s\n" : "%s%7.2f%%%s  %*s%s%s  [%s]\n",
		    colr(o, pct), pct, creset(o, pct), 2 * d, "", d ? "└ " : "",
		    report__func_name(p, t.n[i].func), dn);
		if (o->cg_depth && d + 1 >= o->cg_depth)
			continue;
		PUSH_KIDS(i, d + 1);
	}
#undef PUSH_KIDS
	tree__free(&t);
	return 0;
}

/* The children of node i shown: above the threshold, at most -g's limit. */
static int eg_kids(const struct report_opts *o, const struct ctree *t, uint32_t i, uint64_t base,
    uint32_t *kids, int max)
{
	int n = 0;
	for (uint32_t c = t->n[i].child; c != NONE && n < max && (!o->cg_limit || n < o->cg_limit);
	    c = t->n[c].next) {
		if (base && 100.0 * (double)t->n[c].total / (double)base < o->cg_threshold)
			break;
		kids[n++] = c;
	}
	return n;
}

/* From node i: its run of single children one name a line after pre
 * (perf's "---a / b / c"), then at a branch each child as "|--PCT%--name"
 * with its own graph lined up under the name. */
static void eg_print(FILE *f, struct profile *p, const struct report_opts *o,
    const struct ctree *t, uint32_t i, uint64_t base, const char *pre, int depth)
{
	uint32_t kids[64];
	int n;
	for (;;) {
		if (o->cg_depth && depth >= o->cg_depth)
			return;
		n = eg_kids(o, t, i, base, kids, 64);
		if (n != 1)
			break;
		i = kids[0];
		depth++;
		fprintf(f, "%s%s\n", pre, report__func_name(p, t->n[i].func));
	}
	for (int k = 0; k < n; k++) {
		char branch[64], sub[1024];
		double pct = base ? 100.0 * (double)t->n[kids[k]].total / (double)base : 0;
		int last = k == n - 1;
		int w = snprintf(branch, sizeof(branch), "--%.2f%%--", pct);
		fprintf(f, "%s|\n%s%c%s%s\n", pre, pre, last ? ' ' : '|', branch,
		    report__func_name(p, t->n[kids[k]].func));
		if (strlen(pre) + (size_t)w + 2 < sizeof(sub)) {
			snprintf(sub, sizeof(sub), "%s%c%*s", pre, last ? ' ' : '|', w, "");
			eg_print(f, p, o, t, kids[k], base, sub, depth + 1);
		}
	}
}

/* An entry's call graph (report__entry_trees) under its line, as perf
 * report --stdio. */
static void print_entry_graph(FILE *f, struct profile *p, const struct report_opts *o,
    const struct ctree *tp, uint64_t base)
{
	const struct ctree t = *tp;
	char pre[1024];
	uint32_t top = 0, c = t.n[0].child;
	/* callee → caller: the first level is the entry's own function */
	if (o->callgraph != TREE_CALLER && c != NONE && t.n[c].next == NONE)
		top = c;
	if (top != 0 || eg_kids(o, &t, 0, base, &c, 1)) {
		fprintf(f, "            |\n");
		if (top)
			fprintf(f, "            ---%s\n", report__func_name(p, t.n[top].func));
		else
			fprintf(f, "            ---");
		snprintf(pre, sizeof(pre), "%15s", "");
		if (!top) {
			/* the first name goes after the "---" */
			uint32_t k[2];
			int n = eg_kids(o, &t, 0, base, k, 2);
			if (n == 1) {
				fprintf(f, "%s\n", report__func_name(p, t.n[k[0]].func));
				top = k[0];
			} else {
				fprintf(f, "\n");
			}
		}
		eg_print(f, p, o, &t, top, base, pre, 1);
		fprintf(f, "\n");
	}
}

/* 0, or -ENOMEM (pmc_errmsg() says so). */
static int print_section(FILE *f, struct profile *p, const struct report_opts *o, int ev)
{
	const struct prof_event *e = &p->ev[ev];
	struct hist h;
	char a[32], b[32], c[32];
	int rc = report__hist(&h, p, o, ev);

	if (rc < 0)
		return rc;
	numfmt__group_digits(e->samples, a, sizeof(a));
	numfmt__group_digits(e->lost, b, sizeof(b));
	numfmt__group_digits(e->period, c, sizeof(c));
	if (e->what)
		fprintf(f, "#\n# Event: %s (%s)\n", e->name, e->what);
	else
		fprintf(f, "#\n# Event: %s (%s %" PRIu64 ")\n", e->name,
		    e->freq ? "frequency" : "period", e->rate);
	fprintf(f, "# Samples: %s  Lost: %s  Event count: %s\n", a, b, c);
	if (h.total_n != e->samples) {
		numfmt__group_digits(h.total_n, a, sizeof(a));
		fprintf(f, "# Shown after filters: %s samples\n", a);
	}
	fprintf(f, "#\n");

	/* column widths */
	int w[SK_N] = { 0 };
	size_t shown = 0;
	char buf[4096];
	for (int k = 0; k < o->nsort; k++)
		w[k] = (int)strlen(report__col_title(o->sort[k]));
	for (size_t i = 0; i < h.n; i++) {
		const struct hist_entry *he = &h.e[i];
		uint64_t v = o->children ? he->children : he->self;
		double pct = h.base ? 100.0 * (double)v / (double)h.base : 0;
		if (pct < o->percent_limit || (o->max_entries && shown >= (size_t)o->max_entries))
			break;
		shown++;
		for (int k = 0; k < o->nsort - 1; k++) {
			report__key_str(p, he, o->sort[k], buf, sizeof(buf));
			if ((int)strlen(buf) > w[k])
				w[k] = (int)strlen(buf);
		}
	}
	if (o->children)
		fprintf(f, "# %8s ", "Children");
	fprintf(f, "%s%8s  %8s", o->children ? "" : "# ", "Self", "Samples");
	for (int k = 0; k < o->nsort; k++)
		fprintf(f, "  %-*s", k == o->nsort - 1 ? 0 : w[k], report__col_title(o->sort[k]));
	fprintf(f, "\n");
	/* perf's layout: every shown entry's call graph, made in one walk */
	struct ctree *trees = NULL;
	if (o->callgraph >= 0 && o->cg_layout == REPORT_CG_ENTRY && shown) {
		if (!(trees = calloc(shown, sizeof(*trees))) ||
		    (rc = report__entry_trees(trees, shown, p, o, ev, &h)) < 0) {
			free(trees);
			report__hist_free(&h);
			return trees ? rc : pmc__nomem();
		}
	}
	for (size_t i = 0; i < shown; i++) {
		const struct hist_entry *he = &h.e[i];
		double ps = h.base ? 100.0 * (double)he->self / (double)h.base : 0;
		double pc = h.base ? 100.0 * (double)he->children / (double)h.base : 0;
		if (o->children)
			fprintf(f, "  %s%7.2f%%%s ", colr(o, pc), pc, creset(o, pc));
		fprintf(f, "%s%s%7.2f%%%s  %8" PRIu64, o->children ? "" : "  ", colr(o, ps), ps,
		    creset(o, ps), o->children ? he->children_n : he->self_n);
		for (int k = 0; k < o->nsort; k++) {
			report__key_str(p, he, o->sort[k], buf, sizeof(buf));
			fprintf(f, "  %-*s", k == o->nsort - 1 ? 0 : w[k], buf);
		}
		fprintf(f, "\n");
		if (trees) {
			print_entry_graph(f, p, o, &trees[i], h.base);
			tree__free(&trees[i]);
		}
	}
	free(trees);
	if (shown < h.n) {
		if (o->percent_limit > 0)
			fprintf(f, "# ... %zu more entries below %.2f%% or past the first %zu\n",
			    h.n - shown, o->percent_limit, shown);
		else
			fprintf(f, "# ... %zu more entries past the first %zu (-n)\n", h.n - shown, shown);
	}
	report__hist_free(&h);
	return o->callgraph >= 0 && o->cg_layout == REPORT_CG_TREE ? print_callgraph(f, p, o, ev) : 0;
}

static void print_problems(FILE *f, struct profile *p, const struct report_opts *o)
{
	/* binaries with samples that could not be (fully) symbolized */
	int any = 0;
	struct sym_dso *seen[256];
	int ns = 0;
	for (size_t i = 0; i < p->nl && ns < 256; i++) {
		struct sym_dso *d = p->l[i].dso;
		int dup = 0;
		for (int j = 0; j < ns && !dup; j++)
			dup = seen[j] == d;
		if (dup)
			continue;
		seen[ns++] = d;
		const char *why = sym_dso__problem(d);
		if (!why || sym_dso__kind(d) == SYM_DSO_ANON)
			continue;
		if (!any)
			fprintf(f, "#\n# Warnings:\n");
		any = 1;
		char path[4096], w[4096];
		fprintf(f, "#   %s: %s\n", printable__str(sym_dso__path(d), path, sizeof(path)),
		    printable__str(why, w, sizeof(w)));
	}
	const char *kw[2] = { symtab__kernel_warning(p->st), o->warning ? o->warning() : NULL };
	for (int i = 0; i < 2; i++) {
		if (!kw[i])
			continue;
		if (!any)
			fprintf(f, "#\n# Warnings:\n");
		any = 1;
		fprintf(f, "#   %s\n", kw[i]);
	}
}

static int cmp_proc(const void *a, const void *b)
{
	const struct prof_proc *x = a, *y = b;
	if (x->pmcid != y->pmcid)
		return x->pmcid < y->pmcid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void print_procs(FILE *f, struct profile *p)
{
	char a[32], b[32];
	if (!p->npr)
		return;
	if (p->npr)
		qsort(p->pr, p->npr, sizeof(*p->pr), cmp_proc);
	fprintf(f, "\n# Per-thread counts (PROCEXIT at exit, PROCCSW while on a CPU)\n#\n");
	fprintf(f, "# %-20s %8s %8s %18s %18s  %s\n", "Event", "Pid", "Tid", "At exit", "On CPU",
	    "Command");
	for (size_t i = 0; i < p->npr; i++) {
		const struct prof_proc *r = &p->pr[i];
		const char *ev = "?";
		for (size_t k = 0; k < p->nev; k++)
			if (p->ev[k].pmcid == r->pmcid)
				ev = p->ev[k].name;
		numfmt__group_digits(r->exit_value, a, sizeof(a));
		numfmt__group_digits(r->csw_value, b, sizeof(b));
		fprintf(f, "  %-20s %8d %8d %18s %18s  %s\n", ev, (int)r->pid, (int)r->tid, a, b,
		    r->comm ? r->comm : "");
	}
}

static void print_markers(FILE *f, struct profile *p, const struct report_opts *o)
{
	if (!p->nmk)
		return;
	fprintf(f, "\n# Markers (USERDATA) on the timeline; samples since the previous marker\n#\n");
	uint64_t prev = 0;
	for (size_t m = 0; m <= p->nmk; m++) {
		uint64_t end = m < p->nmk ? p->mk[m].time : UINT64_MAX, n = 0;
		for (size_t i = 0; i < p->ns; i++) {
			struct prof_sample s;
			profile__sample(p, i, &s);
			if (s.time >= prev && s.time < end)
				n += prof_count(&s);
		}
		if (m < p->nmk)
			fprintf(f, "  %+10.6f s  marker 0x%08x   %8" PRIu64 " samples before it\n",
			    profile__reltime(p, end), p->mk[m].value, n);
		else
			fprintf(f, "  %12s  (end)              %8" PRIu64 " samples after the last\n", "", n);
		prev = end;
	}
	(void)o;
}

int report__uses_chains(const struct report_opts *o)
{
	/* the flat profile, the filters (--sym, --dso: of the leaf) and every
	 * sort key read frame 0 only */
	return o->children || o->callgraph >= 0;
}

static int uwstop_cmp(const void *x, const void *y)
{
	const struct prof_uwstop *a = x, *b = y;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	int c = strcmp(a->dso, b->dso);
	return c ? c : strcmp(a->why, b->why);
}

/* Where and why the truncated stacks stopped, per binary, most first:
 * "#   truncated in /usr/bin/x: 12 (no CFI ... for the pc)". */
static void print_uwstops(FILE *f, struct profile *p)
{
	enum { SHOWN = 10 };
	uint64_t rest = 0;
	if (p->nuwstop)           /* qsort(NULL, 0) is undefined behaviour */
		qsort(p->uwstop, p->nuwstop, sizeof(*p->uwstop), uwstop_cmp);
	for (size_t i = 0; i < p->nuwstop; i++) {
		char n[32];
		if (i >= SHOWN) {
			rest += p->uwstop[i].samples;
			continue;
		}
		numfmt__group_digits(p->uwstop[i].samples, n, sizeof(n));
		fprintf(f, "#   truncated in %s: %s (%s)\n", p->uwstop[i].dso, n, p->uwstop[i].why);
	}
	if (rest) {
		char n[32];
		numfmt__group_digits(rest, n, sizeof(n));
		fprintf(f, "#   truncated elsewhere: %s\n", n);
	}
}

int report__text(FILE *f, struct profile *p, const struct report_opts *o)
{
	int evs[256], n;
	profile__resolve(p);
	fprintf(f, "# pmc report: %s (%s)\n", o->input_name ? o->input_name : "-", p->input_kind);
	report__header_lines(f, p, "# ");
	if (p->truncated[0])
		fprintf(f, "# WARNING: %s; the report covers what could be read\n", p->truncated);
	if (p->lost_unknown)
		fprintf(f, "# Lost samples (PMC not known): %" PRIu64 "\n", p->lost_unknown);
	if (p->unwind_samples) {
		char a[32], b[32];
		numfmt__group_digits(p->unwind_truncated, a, sizeof(a));
		numfmt__group_digits(p->unwind_samples, b, sizeof(b));
		fprintf(f, "# %s samples with truncated stacks (of %s unwound from DWARF)\n", a, b);
		print_uwstops(f, p);
	}
	n = report__events(p, evs, 256);
	if (n == 0)
		fprintf(f, "#\n# No samples.\n");
	for (int i = 0; i < n; i++) {
		int rc = print_section(f, p, o, evs[i]);
		if (rc < 0)
			return rc;
	}
	print_problems(f, p, o);
	print_procs(f, p);
	print_markers(f, p, o);
	return ferror(f) ? -1 : 0;
}

/* ---- JSON --------------------------------------------------------------- */

static void json_tree(FILE *f, struct profile *p, const struct ctree *t, uint32_t i, int d,
    const struct report_opts *o, uint64_t base)
{
	fprintf(f, "{\"name\":");
	json__string(f, report__func_name(p, t->n[i].func));
	fprintf(f, ",\"dso\":");
	json__string(f, report__dso_name(p, t->n[i].func));
	fprintf(f, ",\"value\":%" PRIu64 ",\"self\":%" PRIu64 ",\"samples\":%" PRIu64,
	    t->n[i].total, t->n[i].self, t->n[i].nsamples);
	fprintf(f, ",\"children\":[");
	int first = 1;
	if (!o->cg_depth || d + 1 < o->cg_depth)
		for (uint32_t c = t->n[i].child; c != NONE; c = t->n[c].next) {
			double pct = base ? 100.0 * (double)t->n[c].total / (double)base : 0;
			if (pct < o->cg_threshold)
				continue;
			if (!first)
				putc(',', f);
			first = 0;
			json_tree(f, p, t, c, d + 1, o, base);
		}
	fprintf(f, "]}");
}

int report__json(FILE *f, struct profile *p, const struct report_opts *o)
{
	int evs[256], n;
	profile__resolve(p);
	n = report__events(p, evs, 256);
	fprintf(f, "{\"input\":");
	json__string(f, o->input_name ? o->input_name : "-");
	fprintf(f, ",\"kind\":");
	json__string(f, p->input_kind);
	if (p->hdr.have) {
		fprintf(f, ",\"header\":{\"host\":");
		json__string(f, p->hdr.hostname);
		fprintf(f, ",\"kernel\":");
		json__string(f, p->hdr.kernel);
		fprintf(f, ",\"cpu\":");
		json__string(f, p->hdr.cpudesc);
		fprintf(f, ",\"command\":");
		json__string(f, p->hdr.cmdline);
		fprintf(f, ",\"version\":");
		json__string(f, p->hdr.libversion);
		fprintf(f, ",\"start_realtime_ns\":%" PRIu64 "}", p->hdr.start_realtime);
	}
	fprintf(f, ",\"truncated\":");
	json__string(f, p->truncated);
	fprintf(f, ",\"unwound_samples\":%" PRIu64 ",\"truncated_stacks\":%" PRIu64,
	    p->unwind_samples, p->unwind_truncated);
	fprintf(f, ",\"sort\":[");
	for (int k = 0; k < o->nsort; k++)
		fprintf(f, "%s\"%s\"", k ? "," : "", report__sort_name(o->sort[k]));
	fprintf(f, "],\"events\":[");
	for (int i = 0; i < n; i++) {
		const struct prof_event *e = &p->ev[evs[i]];
		struct hist h;
		if (report__hist(&h, p, o, evs[i]) != 0)
			return -1;
		fprintf(f, "%s{\"event\":", i ? "," : "");
		json__string(f, e->name);
		fprintf(f, ",\"%s\":%" PRIu64 ",\"samples\":%" PRIu64 ",\"lost\":%" PRIu64
		    ",\"event_count\":%" PRIu64 ",\"shown_samples\":%" PRIu64
		    ",\"shown_count\":%" PRIu64 ",\"entries\":[",
		    e->freq ? "frequency" : "period", e->rate, e->samples, e->lost, e->period,
		    h.total_n, h.total);
		int first = 1;
		for (size_t k = 0; k < h.n; k++) {
			const struct hist_entry *he = &h.e[k];
			double ps = h.base ? 100.0 * (double)he->self / (double)h.base : 0;
			double pc = h.base ? 100.0 * (double)he->children / (double)h.base : 0;
			if ((o->children ? pc : ps) < o->percent_limit)
				break;
			fprintf(f, "%s{\"self\":%.4f,\"self_samples\":%" PRIu64, first ? "" : ",", ps,
			    he->self_n);
			first = 0;
			if (o->children)
				fprintf(f, ",\"children\":%.4f,\"children_samples\":%" PRIu64, pc,
				    he->children_n);
			for (int s = 0; s < o->nsort; s++) {
				char buf[4096];
				switch (o->sort[s]) {
				case SK_PID: fprintf(f, ",\"pid\":%d", (int)he->pid); break;
				case SK_TID: fprintf(f, ",\"tid\":%d", (int)he->tid); break;
				case SK_CPU: fprintf(f, ",\"cpu\":%d", (int)he->cpu); break;
				case SK_SYM:
					fprintf(f, ",\"sym\":");
					json__string(f, p->f[he->func].name);
					fprintf(f, ",\"kernel\":%s", p->f[he->func].kernel ? "true" : "false");
					break;
				default:
					report__key_str(p, he, o->sort[s], buf, sizeof(buf));
					fprintf(f, ",\"%s\":", report__sort_name(o->sort[s]));
					json__string(f, buf);
				}
			}
			putc('}', f);
		}
		fprintf(f, "]");
		report__hist_free(&h);
		if (o->callgraph >= 0) {
			struct ctree t;
			struct prof_filter flt = o->flt;
			flt.ev = evs[i];
			if (tree__build(&t, p, &flt, o->callgraph, o->inline_frames ? PROF_INLINE : 0,
			    0) == 0) {
				tree__sort(&t);
				fprintf(f, ",\"callgraph\":{\"order\":\"%s\",\"tree\":",
				    o->callgraph == TREE_CALLER ? "caller" : "callee");
				json_tree(f, p, &t, 0, -1, o, whole(p, o, evs[i], t.total));
				fprintf(f, "}");
				tree__free(&t);
			}
		}
		fprintf(f, "}");
	}
	fprintf(f, "],\"processes\":[");
	for (size_t i = 0; i < p->npr; i++) {
		const struct prof_proc *r = &p->pr[i];
		fprintf(f, "%s{\"pid\":%d,\"tid\":%d,\"pmcid\":%u,\"exit_value\":%" PRIu64
		    ",\"csw_value\":%" PRIu64 ",\"comm\":", i ? "," : "", (int)r->pid, (int)r->tid,
		    r->pmcid, r->exit_value, r->csw_value);
		json__string(f, r->comm ? r->comm : "");
		putc('}', f);
	}
	fprintf(f, "],\"markers\":[");
	for (size_t i = 0; i < p->nmk; i++)
		fprintf(f, "%s{\"time\":%.9f,\"value\":%u}", i ? "," : "",
		    profile__reltime(p, p->mk[i].time), p->mk[i].value);
	fprintf(f, "]}\n");
	return ferror(f) ? -1 : 0;
}
