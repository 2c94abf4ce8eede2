/*
 * live.c — the live profile aggregator behind `pmc top` (see live.h): a
 * reader thread turns a log stream into symbolized samples added to a
 * small table of entries, which views group by report's sort keys.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live/live.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/hmap.h"
#include "common/thread.h"

#define NONE UINT32_MAX

/* One entry: a hist_entry holding every key (file/line unused) plus its
 * event. */
struct lent {
	struct hist_entry he;
	int ev;
};

struct live {
	pthread_mutex_t mu;
	struct profile *p;
	struct lent *e;
	size_t n, cap;
	struct hidx ix;               /* of e by key */
	uint32_t *locs;               /* scratch: one sample's locations */
	uint32_t *seen;               /* scratch: functions already given children */
	int paused;
	struct live_stats st;
	uint64_t lost_at_age;
	/* the reader */
	pthread_t th;
	int have_thread;
	int fd;
	volatile int stop;            /* live__stop: drop the rest */
	/* Why the reader stopped (it runs on its own thread, whose reason
	 * channel the caller cannot read: live__wait raises it on the
	 * caller's); err the errno, nomem sticky once a table could not grow. */
	char why[256];
	int err;
	int nomem;
};

static uint64_t key_hash(const struct lent *k)
{
	uint64_t h = 1469598103934665603ull;
	const uint64_t parts[] = { (uint64_t)k->ev, (uint64_t)(uint32_t)k->he.pid,
	    (uint64_t)(uint32_t)k->he.tid, (uint64_t)(uint32_t)k->he.cpu, k->he.func,
	    (uint64_t)(uintptr_t)k->he.comm, (uint64_t)(uintptr_t)k->he.dso };
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		h ^= parts[i];
		h *= 1099511628211ull;
		h ^= h >> 29;
	}
	return h;
}

static int key_eq(const void *tab, uint32_t i, const void *key)
{
	const struct lent *a = &((const struct live *)tab)->e[i], *b = key;
	return a->ev == b->ev && a->he.pid == b->he.pid && a->he.tid == b->he.tid &&
	    a->he.cpu == b->he.cpu && a->he.func == b->he.func && a->he.comm == b->he.comm &&
	    a->he.dso == b->he.dso;
}

/* k's entry, made if new; NULL out of memory. */
static struct lent *entry(struct live *lv, const struct lent *k)
{
	int added;
	struct hidx_slot *s = hidx_get(&lv->ix, key_hash(k), 256, key_eq, lv, k, (uint32_t)lv->n,
	    &added);
	if (s && !added)
		return &lv->e[s->v - 1];
	if (!s || GROW(lv->e, lv->n, lv->cap) < 0) {
		if (s)
			hidx_unadd(&lv->ix, s);
		return NULL;
	}
	lv->e[lv->n] = *k;
	return &lv->e[lv->n++];
}

struct live *live__new(const struct symtab_opts *so)
{
	struct live *lv = calloc(1, sizeof(*lv));
	if (!lv)
		return NULL;
	lv->locs = malloc(PMC_CALLCHAIN_DEPTH_MAX * sizeof(*lv->locs));
	lv->seen = malloc(PMC_CALLCHAIN_DEPTH_MAX * sizeof(*lv->seen));
	if (!lv->locs || !lv->seen || !(lv->p = profile__new(so))) {
		free(lv->locs);
		free(lv->seen);
		free(lv);
		return NULL;
	}
	pthread_mutex_init(&lv->mu, NULL);
	lv->fd = -1;
	return lv;
}

/* A sample: self for its function, children once for each function on its
 * chain (recursion counts once, as report's children do). */
static void add_sample(struct live *lv, const struct pmclog_ev_callchain *cc)
{
	struct profile *p = lv->p;
	uint32_t npc = cc->pl_npc;
	if (npc == 0)
		return;
	/* a frame-pointer walk ends in a 0 return address: not a frame */
	while (npc > 1 && cc->pl_pc[npc - 1] == 0)
		npc--;
	if (lv->paused) {
		lv->st.paused++;
		return;
	}
	lv->st.samples++;
	lv->st.interval++;
	if (profile__locate(p, (int32_t)cc->pl_pid, UINT64_MAX, cc->pl_pc, cc->pl_pcflags, npc,
	    lv->locs) < 0) {
		lv->nomem = 1;
		return;
	}
	uint64_t w = cc->pl_period ? cc->pl_period : 1;
	struct lent k;
	memset(&k, 0, sizeof(k));
	k.ev = (int)profile__event(p, cc->pl_pmcid);
	k.he.pid = (int32_t)cc->pl_pid;
	k.he.tid = (int32_t)cc->pl_tid;
	k.he.cpu = (int32_t)cc->pl_cpu;
	k.he.comm = profile__comm(p, k.he.pid, k.he.tid, UINT64_MAX);
	p->ev[k.ev].samples++;
	p->ev[k.ev].period += w;
	uint32_t nseen = 0;
	for (uint32_t i = 0; i < npc; i++) {
		uint32_t f = p->l[lv->locs[i]].func, s;
		for (s = 0; s < nseen && lv->seen[s] != f; s++)
			;
		if (s < nseen)
			continue;
		lv->seen[nseen++] = f;
		k.he.func = f;
		k.he.dso = p->f[f].dso;
		struct lent *e = entry(lv, &k);
		if (!e) {
			lv->nomem = 1;
			return;
		}
		if (i == 0) {
			e->he.self += w;
			e->he.self_n++;
		}
		e->he.children += w;
		e->he.children_n++;
	}
}

static uint64_t lost_total(const struct profile *p)
{
	uint64_t n = p->lost_unknown;
	for (size_t i = 0; i < p->nev; i++)
		n += p->ev[i].lost;
	return n;
}

void live__feed(struct live *lv, const struct pmclog_ev *ev)
{
	pthread_mutex_lock(&lv->mu);
	int r = profile__feed(lv->p, ev);
	if (r == 1)
		add_sample(lv, &ev->pl_u.pl_cc);
	else if (r == -ENOMEM)
		lv->nomem = 1;
	lv->st.records++;
	pthread_mutex_unlock(&lv->mu);
}

void live__pause(struct live *lv, int on)
{
	pthread_mutex_lock(&lv->mu);
	lv->paused = on;
	pthread_mutex_unlock(&lv->mu);
}

void live__age(struct live *lv, int zero)
{
	pthread_mutex_lock(&lv->mu);
	size_t k = 0;
	for (size_t i = 0; i < lv->n && !zero; i++) {
		struct hist_entry *h = &lv->e[i].he;
		/* perf top's hists__decay_entries: period * 7 / 8 */
		h->self = h->self * 7 / 8;
		h->children = h->children * 7 / 8;
		h->self_n = h->self_n * 7 / 8;
		h->children_n = h->children_n * 7 / 8;
		if (h->self || h->children)
			lv->e[k++] = lv->e[i];
	}
	lv->n = k;
	hidx_clear(&lv->ix);          /* the same slots: live__age cannot fail */
	for (size_t i = 0; i < lv->n; i++)
		hidx_put(&lv->ix, key_hash(&lv->e[i]), (uint32_t)i);
	lv->st.interval = 0;
	lv->lost_at_age = lost_total(lv->p);
	pthread_mutex_unlock(&lv->mu);
}

void live__stats(struct live *lv, struct live_stats *st)
{
	pthread_mutex_lock(&lv->mu);
	*st = lv->st;
	st->lost = lost_total(lv->p);
	st->lost_interval = st->lost - lv->lost_at_age;
	st->nev = (int)lv->p->nev;
	pthread_mutex_unlock(&lv->mu);
}

static int zoom_match(const struct hist_entry *e, const struct live_zoom *z)
{
	/* (no srcline zoom: top keeps no lines) */
	return (unsigned)z->key >= SK_N || z->key == SK_SRCLINE ||
	    report__sort_keys[z->key].same(e, &z->val);
}

/* An entry reduced to the view's keys (report's make_key). */
static void view_key(const struct live_view *v, const struct lent *e, struct lent *k)
{
	int sym = 0;
	memset(k, 0, sizeof(*k));
	k->ev = e->ev;
	for (int i = 0; i < v->nsort; i++) {
		if (v->sort[i] == SK_SRCLINE)     /* not kept live */
			continue;
		report__sort_keys[v->sort[i]].key(&k->he, &e->he);
		sym |= v->sort[i] == SK_SYM;
	}
	if (!sym)
		k->he.func = NONE;
}

static int by_self(const void *a, const void *b)
{
	const struct hist_entry *x = a, *y = b;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return x->children < y->children ? 1 : x->children > y->children ? -1 : 0;
}

static int by_children(const void *a, const void *b)
{
	const struct hist_entry *x = a, *y = b;
	if (x->children != y->children)
		return x->children < y->children ? 1 : -1;
	return x->self < y->self ? 1 : x->self > y->self ? -1 : 0;
}

int live__hist(struct live *lv, const struct live_view *v, struct hist *h)
{
	/* the grouping reuses the aggregator's own table: a second live */
	struct live g;
	memset(&g, 0, sizeof(g));
	memset(h, 0, sizeof(*h));
	pthread_mutex_lock(&lv->mu);
	for (size_t i = 0; i < lv->n; i++) {
		const struct lent *e = &lv->e[i];
		int ok = e->ev == v->ev;
		if (!ok)
			continue;
		h->base += e->he.self;
		for (int z = 0; z < v->nzoom && ok; z++)
			ok = zoom_match(&e->he, &v->zoom[z]);
		if (!ok)
			continue;
		h->total += e->he.self;
		h->total_n += e->he.self_n;
		struct lent k;
		view_key(v, e, &k);
		struct lent *r = entry(&g, &k);
		if (!r) {
			lv->nomem = 1;     /* live__wait says so; this view is partial */
			break;
		}
		r->he.self += e->he.self;
		r->he.self_n += e->he.self_n;
		r->he.children += e->he.children;
		r->he.children_n += e->he.children_n;
	}
	pthread_mutex_unlock(&lv->mu);
	hidx_free(&g.ix);
	h->n = h->cap = g.n;
	h->e = g.n ? malloc(g.n * sizeof(*h->e)) : NULL;
	if (g.n && !h->e) {
		free(g.e);
		return -1;
	}
	for (size_t i = 0; i < g.n; i++)
		h->e[i] = g.e[i].he;
	free(g.e);
	if (h->n)
		qsort(h->e, h->n, sizeof(*h->e), v->children ? by_children : by_self);
	return 0;
}

void live__key_str(struct live *lv, const struct hist_entry *e, enum sort_key k, char *buf,
    size_t len)
{
	pthread_mutex_lock(&lv->mu);
	report__key_str(lv->p, e, k, buf, len);
	pthread_mutex_unlock(&lv->mu);
}

void live__event_str(struct live *lv, int ev, char *name, size_t nlen, char *rate, size_t rlen)
{
	pthread_mutex_lock(&lv->mu);
	if (ev >= 0 && (size_t)ev < lv->p->nev) {
		const struct prof_event *e = &lv->p->ev[ev];
		snprintf(name, nlen, "%s", e->name);
		if (e->freq)
			snprintf(rate, rlen, "%" PRIu64 " Hz", e->rate);
		else
			snprintf(rate, rlen, "period %" PRIu64, e->rate);
	} else {
		name[0] = rate[0] = '\0';
	}
	pthread_mutex_unlock(&lv->mu);
}

void live__zoom_str(struct live *lv, const struct live_zoom *z, char *buf, size_t len)
{
	char v[512];
	live__key_str(lv, &z->val, z->key, v, sizeof(v));
	snprintf(buf, len, "%s '%s'", report__col_title(z->key), v);
}

/* ---- the reader ----------------------------------------------------------- */

static void *reader(void *arg)
{
	struct live *lv = arg;
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	void *log = ev ? pmclog_open(lv->fd) : NULL;

	if (!log) {
		lv->err = ev ? errno : ENOMEM;
		snprintf(lv->why, sizeof(lv->why), "cannot read the log stream: %s",
		    strerror(lv->err));
	} else {
		pmclog_set_extensions(log, 1);
		while (!lv->stop && !lv->nomem && pmclog_read(log, ev) == 0)
			live__feed(lv, ev);
		if (!lv->stop && !lv->nomem && ev->pl_state == PMCLOG_ERROR) {
			lv->err = errno ? errno : EILSEQ;
			snprintf(lv->why, sizeof(lv->why), "the log stream is corrupt: %s",
			    pmclog_errmsg(log));
		}
		pmclog_close(log);
	}
	free(ev);
	/* Whatever is left is read and dropped: a writer blocked on a full
	 * pipe could never finish its log. */
	char junk[65536];
	while (read(lv->fd, junk, sizeof(junk)) > 0 || errno == EINTR)
		;
	pthread_mutex_lock(&lv->mu);
	lv->st.ended = 1;
	pthread_mutex_unlock(&lv->mu);
	return NULL;
}

int live__follow(struct live *lv, int fd)
{
	int rc;

	if (lv->have_thread) {
		errno = EBUSY;
		return -1;
	}
	lv->fd = fd;
	/* signals stay with the caller's threads */
	rc = pmc__thread_start(&lv->th, reader, lv);
	if (rc) {
		errno = rc;
		return -1;
	}
	lv->have_thread = 1;
	return 0;
}

void live__stop(struct live *lv)
{
	lv->stop = 1;
}

int live__wait(struct live *lv)
{
	if (lv->have_thread) {
		pthread_join(lv->th, NULL);
		lv->have_thread = 0;
	}
	pmc__clear_reason();
	if (lv->nomem)
		return pmc__nomem();
	if (lv->err)
		return pmc__err(-lv->err, "%s", lv->why);
	return 0;
}

void live__free(struct live *lv)
{
	if (!lv)
		return;
	live__wait(lv);
	profile__free(lv->p);
	free(lv->e);
	hidx_free(&lv->ix);
	free(lv->locs);
	free(lv->seen);
	pthread_mutex_destroy(&lv->mu);
	free(lv);
}
