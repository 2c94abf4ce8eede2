/*
 * tree.c — call trees (tree.h): one node per distinct path, children found
 * through a hash of (parent, function).  A run of two or more consecutive
 * unresolved frames is one "[unknown]" node: a binary without frame
 * pointers walked with -g yields towers of garbage return addresses, and a
 * 128-deep tower of them made flame graphs unreadable.
 */
#include <stdlib.h>
#include <string.h>

#include "profile/tree.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/hmap.h"

#define NONE UINT32_MAX

struct tree_priv {
	struct hidx ix;            /* of the nodes by (parent, func, comm or id) */
	int nomem;                 /* a table could not grow: tree__build fails */
	const struct profile *p;   /* the names, for tree__sort's ties */
};

static uint64_t hkey(uint32_t parent, uint32_t func, const char *comm, int32_t id)
{
	uint64_t h = ((uint64_t)parent << 32 | func) ^
	    (id >= 0 ? (uint64_t)(uint32_t)id * 0x9e3779b97f4a7c15ull : (uint64_t)(uintptr_t)comm * 31);
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

/* A new node; NONE out of memory. */
static uint32_t new_node(struct ctree *t, uint32_t parent, uint32_t func, const char *comm,
    int32_t id)
{
	if (GROW(t->n, t->nn, t->cap) < 0) {
		t->priv->nomem = 1;
		return NONE;
	}
	uint32_t i = (uint32_t)t->nn++;
	t->n[i] = (struct tnode){ func, parent, NONE, NONE, 0, 0, 0, comm, id };
	if (parent != NONE) {
		t->n[i].next = t->n[parent].child;
		t->n[parent].child = i;
	}
	return i;
}

static int child_eq(const void *tab, uint32_t i, const void *key)
{
	const struct tnode *n = &((const struct ctree *)tab)->n[i], *k = key;
	return n->parent == k->parent && n->func == k->func && n->id == k->id &&
	    (k->id >= 0 || n->comm == k->comm);
}

/* The child (func, comm) of parent; a pid or tid root (id >= 0) is found
 * by its id alone (grow names it). */
static uint32_t child(struct ctree *t, uint32_t parent, uint32_t func, const char *comm,
    int32_t id)
{
	struct tree_priv *v = t->priv;
	struct tnode k = { .func = func, .parent = parent, .comm = comm, .id = id };
	int added;
	struct hidx_slot *s = hidx_get(&v->ix, hkey(parent, func, comm, id),
	    64 /* a tree per row: most are small */, child_eq, t, &k,
	    (uint32_t)t->nn, &added);
	if (!s) {
		v->nomem = 1;
		return NONE;
	}
	if (!added)
		return s->v - 1;
	uint32_t i = new_node(t, parent, func, comm, id);
	if (i == NONE)
		hidx_unadd(&v->ix, s);
	return i;
}

struct build {
	struct ctree *t;
	struct profile *p;
	int dir, comm_root;
	tree_pick pick;
	void *pick_arg;
	int pick_down;
};

static void grow(struct build *b, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n);

/* A picked stack: frames k outwards, or with pick_down 0 .. k. */
static void grow_from(struct build *b, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n, int k)
{
	if (k < 0 || k >= n)
		return;
	if (b->pick_down)
		grow(b, s, w, cnt, fr, k + 1);
	else
		grow(b, s, w, cnt, fr + k, n - k);
}

static void add(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	struct build *b = arg;
	if (b->pick)
		grow_from(b, s, w, cnt, fr, n, b->pick(b->pick_arg, s, fr, n));
	else
		grow(b, s, w, cnt, fr, n);
}

static void grow(struct build *b, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	struct ctree *t = b->t;
	uint32_t cur = 0;
	if (t->priv->nomem)
		return;
	t->n[0].total += w;
	t->n[0].nsamples += cnt;
	t->total += w;
	t->nsamples += cnt;
	if (b->comm_root) {
		int32_t id = b->comm_root == TREE_ROOT_PID ? s->pid :
		    b->comm_root == TREE_ROOT_TID ? s->tid : -1;
		if ((cur = child(t, cur, NONE, s->comm, id < 0 && b->comm_root != TREE_ROOT_COMM ?
		    INT32_MAX : id)) == NONE)
			return;
		/* a process or thread is named by its last name (as perf's
		 * `--sort pid` names it), not by whichever sample came first:
		 * a child sampled between its fork and its exec was "gcc [PID]"
		 * where it is cc1 for almost all its samples */
		if (id >= 0 && b->comm_root != TREE_ROOT_COMM && !t->n[cur].nsamples)
			t->n[cur].comm = profile__comm(b->p, s->pid, id, UINT64_MAX);
		t->n[cur].total += w;
		t->n[cur].nsamples += cnt;
	}
#define FR(k) (b->dir == TREE_CALLER ? &fr[n - 1 - (k)] : &fr[k])
	for (int i = 0; i < n; i++) {
		uint32_t func = FR(i)->func;
		if (i + 1 < n && profile__func_unresolved(b->p, func) &&
		    profile__func_unresolved(b->p, FR(i + 1)->func)) {
			if ((func = profile__func_unknown(b->p, b->p->f[func].dso)) == PROF_NO_IX) {
				t->priv->nomem = 1;
				return;
			}
			while (i + 1 < n && profile__func_unresolved(b->p, FR(i + 1)->func))
				i++;
		}
		if ((cur = child(t, cur, func, NULL, -1)) == NONE)
			return;
		t->n[cur].total += w;
		t->n[cur].nsamples += cnt;
	}
#undef FR
	if (b->dir == TREE_CALLER)
		t->n[cur].self += w;
	else if (n > 0) {
		/* bottom-up: self is at the first level (the sampled function) */
	}
}

int tree__build(struct ctree *t, struct profile *p, const struct prof_filter *flt, int dir,
    int flags, int comm_root)
{
	return tree__build_pick(t, p, flt, dir, flags, comm_root, NULL, NULL, 0);
}

static int tree_init(struct ctree *t, struct profile *p, const struct prof_filter *flt)
{
	memset(t, 0, sizeof(*t));
	t->priv = calloc(1, sizeof(*t->priv));
	if (!t->priv)
		return pmc__nomem();
	if (new_node(t, NONE, NONE, NULL, -1) == NONE) {
		tree__free(t);
		return pmc__nomem();
	}
	t->priv->p = p;
	t->by_weight = flt->ev >= 0 && (size_t)flt->ev < p->nev && p->ev[flt->ev].what;
	return 0;
}

static int tree_finish(struct ctree *t, int dir, int comm_root)
{
	if (t->priv->nomem) {
		tree__free(t);
		return pmc__nomem();
	}
	if (dir == TREE_CALLEE)
		for (uint32_t c = t->n[0].child; c != NONE; c = t->n[c].next)
			if (!comm_root)
				t->n[c].self = t->n[c].total;
	return 0;
}

int tree__build_pick(struct ctree *t, struct profile *p, const struct prof_filter *flt, int dir,
    int flags, int comm_root, tree_pick pick, void *arg, int down)
{
	struct build b = { t, p, dir, comm_root, pick, arg, down };
	int rc = tree_init(t, p, flt);
	if (rc < 0)
		return rc;
	profile__foreach_group(p, flt, flags, add, &b);
	return tree_finish(t, dir, comm_root);
}

struct many {
	struct build *b;
	size_t nt;
	tree_pick_many pick;
	void *arg;
};

static void add_many(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	struct many *m = arg;
	uint32_t ix[256];
	int k[256];
	int c = m->pick(m->arg, s, fr, n, ix, k, 256);
	for (int i = 0; i < c; i++)
		if (ix[i] < m->nt)
			grow_from(&m->b[ix[i]], s, w, cnt, fr, n, k[i]);
}

int tree__build_many(struct ctree *t, size_t nt, struct profile *p, const struct prof_filter *flt,
    int dir, int flags, tree_pick_many pick, void *arg, int down)
{
	struct many m = { calloc(nt ? nt : 1, sizeof(struct build)), nt, pick, arg };
	int rc = 0;
	size_t i;
	if (!m.b)
		return pmc__nomem();
	for (i = 0; i < nt && rc == 0; i++) {
		m.b[i] = (struct build){ &t[i], p, dir, 0, NULL, NULL, down };
		rc = tree_init(&t[i], p, flt);
	}
	if (rc == 0)
		profile__foreach_group(p, flt, flags, add_many, &m);
	else
		i--;                 /* t[i - 1] failed: freed already */
	for (size_t j = 0; j < i; j++)
		if (rc == 0)
			rc = tree_finish(&t[j], dir, 0);
		else
			tree__free(&t[j]);
	if (rc < 0)              /* free what finished before the failure */
		for (size_t j = 0; j < i; j++)
			if (t[j].priv)
				tree__free(&t[j]);
	free(m.b);
	return rc;
}

/* Heaviest first; siblings of equal weight by command, then function name,
 * binary and address: never by the order the samples were read in. */
static int cmp_total(const void *a, const void *b, void *arg)
{
	const struct ctree *t = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct tnode *nx = &t->n[x], *ny = &t->n[y];
	if (nx->total != ny->total)
		return nx->total > ny->total ? -1 : 1;
	int c = prof_name_cmp(nx->comm, ny->comm);
	const struct profile *p = t->priv ? t->priv->p : NULL;
	if (!c && p && nx->func < p->nf && ny->func < p->nf) {
		const struct prof_func *fx = &p->f[nx->func], *fy = &p->f[ny->func];
		c = prof_name_cmp(fx->name, fy->name);
		if (!c)
			c = sym_dso__cmp(fx->dso, fy->dso);
		if (!c)
			c = fx->start < fy->start ? -1 : fx->start > fy->start;
	}
	return c ? c : (x < y ? -1 : x > y);
}

void tree__sort(struct ctree *t)
{
	uint32_t *buf = malloc(t->nn * sizeof(*buf));
	if (!buf)
		return;
	for (size_t i = 0; i < t->nn; i++) {
		size_t k = 0;
		for (uint32_t c = t->n[i].child; c != NONE; c = t->n[c].next)
			buf[k++] = c;
		if (k < 2)
			continue;
		qsort_r(buf, k, sizeof(*buf), cmp_total, t);
		t->n[i].child = buf[0];
		for (size_t j = 0; j + 1 < k; j++)
			t->n[buf[j]].next = buf[j + 1];
		t->n[buf[k - 1]].next = NONE;
	}
	free(buf);
}

void tree__free(struct ctree *t)
{
	if (t->priv)
		hidx_free(&t->priv->ix);
	free(t->priv);
	free(t->n);
	memset(t, 0, sizeof(*t));
}
