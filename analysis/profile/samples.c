/*
 * samples.c — packed sample storage (samples.h).
 *
 * A report walks millions of samples once or twice, so the samples are
 * fixed-width columns (random access stays O(1): pmc script sorts them by
 * time, the unwinder patches stacks after the fact) rather than a
 * variable-length stream.  What repeats across samples — the process,
 * thread, event and CPU — is one context id; what does not fit the 32-bit
 * fields goes to a side map keyed by sample index.  A column whose value
 * has been the same in every sample so far (the context of a one-thread
 * recording, the period of `-c N`) holds that value once, and becomes an
 * array only when a sample differs: 8 to 16 bytes a sample.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/grow.h"
#include "common/hmap.h"
#include "profile/samples.h"

#define BLOCK_SHIFT 12            /* 4096 samples share a time base */
#define ESC UINT32_MAX            /* the value is in the side map */
#define DT_BIAS 0x80000000ull     /* offsets are stored biased: -2^31 .. 2^31 - 2 */

/* A column of 32-bit values: one value while all are equal (v NULL). */
struct col {
	uint32_t *v;
	uint32_t k;
};

/* C_COUNT: the samples an entry stands for (1, but for a summed profile's
 * entries: prof_load_opts.sums), one value while all are 1 */
enum { C_STACK, C_CTX, C_DT, C_PERIOD, C_COUNT, NCOL };

struct ctx {
	int32_t pid, tid;
	uint16_t ev, cpu;
	uint32_t nnames;              /* 0: not named */
	const uint64_t *from;         /* the names over time (samples__set_comm) */
	const char *const *name;
};

struct prof_samples {
	struct col col[NCOL];
	size_t n, cap;                /* cap: of the arrays that exist */
	uint64_t *base;               /* per block: the time of its first sample */
	size_t nbase, capbase;
	struct ctx *c;
	size_t nc, capc;
	struct hmap c_ix;             /* (pid, tid), (ev, cpu) -> context */
	uint32_t last_ctx;            /* the latest one interned */
	struct hmap big;              /* (sample index, 0 time | 1 period | 2 count) -> bigv */
	uint64_t *bigv;
	size_t nbigv, capbigv;
	int nomem;                    /* a sample was lost or broken (sticky) */
	uint64_t version;             /* samples__version */
};

/* A one-value column becomes an array (s->cap slots) holding its value for
 * the samples so far: 0 or -ENOMEM. */
static int col_split(struct prof_samples *s, struct col *k)
{
	if (!(k->v = malloc(s->cap * sizeof(*k->v))))
		return -ENOMEM;
	for (size_t j = 0; j < s->n; j++)
		k->v[j] = k->k;
	return 0;
}

/* Sample i's value of column c is x (i < s->n): 0 or -ENOMEM. */
static inline int col_put(struct prof_samples *s, int c, size_t i, uint32_t x)
{
	struct col *k = &s->col[c];
	if (k->v)
		k->v[i] = x;
	else if (s->n == 1)
		k->k = x;                 /* the first sample sets the value */
	else if (x != k->k) {
		if (col_split(s, k) < 0)
			return -ENOMEM;
		k->v[i] = x;
	}
	return 0;
}

static uint32_t col_get(const struct prof_samples *s, int c, size_t i)
{
	return s->col[c].v ? s->col[c].v[i] : s->col[c].k;
}

struct prof_samples *samples__new(void)
{
	return calloc(1, sizeof(struct prof_samples));
}

void samples__free(struct prof_samples *s)
{
	if (!s)
		return;
	for (int c = 0; c < NCOL; c++)
		free(s->col[c].v);
	free(s->base);
	for (size_t i = 0; i < s->nc; i++) {
		free((void *)s->c[i].from);
		free((void *)s->c[i].name);
	}
	free(s->c);
	free(s->c_ix.t);
	free(s->big.t);
	free(s->bigv);
	free(s);
}

size_t samples__count(const struct prof_samples *s)
{
	return s->n;
}

int samples__nomem(const struct prof_samples *s)
{
	return s->nomem;
}

/* x's context id, made if new; ESC out of memory. */
static uint32_t ctx_of(struct prof_samples *s, const struct prof_sample *x)
{
	const struct ctx *l = s->nc ? &s->c[s->last_ctx] : NULL;
	if (l && l->pid == x->pid && l->tid == x->tid && l->ev == x->ev && l->cpu == x->cpu)
		return s->last_ctx;       /* runs of one thread's samples */
	int found;
	struct hent *e = hmap_slot(&s->c_ix, (uint64_t)(uint32_t)x->pid << 32 | (uint32_t)x->tid,
	    (uint64_t)x->ev << 16 | x->cpu, &found);
	if (!e)
		return ESC;
	if (!found) {
		if (GROW(s->c, s->nc, s->capc)) {
			hmap_forget(&s->c_ix, e);
			return ESC;
		}
		s->c[s->nc] = (struct ctx){ x->pid, x->tid, x->ev, x->cpu, 0, NULL, NULL };
		e->v = (uint32_t)s->nc++;
	}
	return s->last_ctx = e->v;
}

/* v kept aside for sample i: 0 or -ENOMEM. */
static int aside(struct prof_samples *s, size_t i, int kind, uint64_t v)
{
	int found;
	struct hent *e = hmap_slot(&s->big, i, (uint64_t)kind, &found);
	if (!e)
		return -ENOMEM;
	if (!found) {
		if (GROW(s->bigv, s->nbigv, s->capbigv)) {
			hmap_forget(&s->big, e);
			return -ENOMEM;
		}
		e->v = (uint32_t)s->nbigv++;
	}
	s->bigv[e->v] = v;
	return 0;
}

static uint64_t wide(const struct prof_samples *s, size_t i, int kind)
{
	/* present: narrow put it there */
	return s->bigv[hmap_find(&s->big, i, (uint64_t)kind, NULL)->v];
}

/* Sample i's columns from x: 0, or -ENOMEM with sample i not usable. */
static int encode(struct prof_samples *s, size_t i, const struct prof_sample *x)
{
	uint64_t d = x->time - s->base[i >> BLOCK_SHIFT] + DT_BIAS;   /* mod 2^64 */
	uint32_t ctx = ctx_of(s, x);
	uint64_t cnt = prof_count(x);
	if (ctx == ESC ||
	    col_put(s, C_STACK, i, x->stack) < 0 || col_put(s, C_CTX, i, ctx) < 0 ||
	    (d >= ESC && aside(s, i, 0, x->time) < 0) ||
	    col_put(s, C_DT, i, d < ESC ? (uint32_t)d : ESC) < 0 ||
	    (x->period >= ESC && aside(s, i, 1, x->period) < 0) ||
	    col_put(s, C_PERIOD, i, x->period < ESC ? (uint32_t)x->period : ESC) < 0 ||
	    (cnt >= ESC && aside(s, i, 2, cnt) < 0) ||
	    col_put(s, C_COUNT, i, cnt < ESC ? (uint32_t)cnt : ESC) < 0) {
		s->nomem = 1;
		return pmc__nomem();
	}
	return 0;
}

int samples__append(struct prof_samples *s, const struct prof_sample *x)
{
	size_t i = s->n;
	if (i == s->cap) {
		/* the columns share one capacity, and only those that are
		 * arrays grow */
		size_t ncap = grow__cap(s->cap, i + 1, 64);
		if (!ncap || ncap > SIZE_MAX / sizeof(uint32_t))
			return s->nomem = 1, pmc__nomem();
		for (int c = 0; c < NCOL; c++) {
			uint32_t *nv;
			if (!s->col[c].v)
				continue;
			if (!(nv = realloc(s->col[c].v, ncap * sizeof(uint32_t)))) {
				s->nomem = 1;  /* the columns grown so far keep room */
				return pmc__nomem();
			}
			s->col[c].v = nv;
		}
		s->cap = ncap;
	}
	if ((i >> BLOCK_SHIFT) == s->nbase) {
		if (GROW(s->base, s->nbase, s->capbase)) {
			s->nomem = 1;
			return pmc__nomem();
		}
		s->base[s->nbase++] = x->time;
	}
	s->n++;
	if (encode(s, i, x) < 0) {
		samples__truncate(s, i);      /* as if never appended */
		return -ENOMEM;
	}
	return 0;
}

int samples__set(struct prof_samples *s, size_t i, const struct prof_sample *x)
{
	s->version++;
	return encode(s, i, x);
}

uint64_t samples__version(const struct prof_samples *s)
{
	return s->version;
}

void samples__truncate(struct prof_samples *s, size_t n)
{
	s->version++;
	if (n < s->n) {
		s->n = n;
		s->nbase = (n + (1u << BLOCK_SHIFT) - 1) >> BLOCK_SHIFT;
	}
}

/* A context's name at time t: the last from at or before t (from[0] is 0);
 * NULL if unnamed. */
static const char *ctx_name(const struct ctx *c, uint64_t t)
{
	uint32_t lo = 0, hi = c->nnames;
	if (!c->nnames)
		return NULL;
	if (t >= c->from[hi - 1])
		return c->name[hi - 1];   /* most samples: after the exec */
	while (hi - lo > 1) {
		uint32_t mid = (lo + hi) / 2;
		if (c->from[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return c->name[lo];
}

static inline uint64_t time_of(const struct prof_samples *s, size_t i)
{
	uint32_t dt = col_get(s, C_DT, i);
	return dt == ESC ? wide(s, i, 0) : s->base[i >> BLOCK_SHIFT] + dt - DT_BIAS;
}

void samples__get(const struct prof_samples *s, size_t i, struct prof_sample *out)
{
	const struct ctx *c = &s->c[col_get(s, C_CTX, i)];
	uint32_t period = col_get(s, C_PERIOD, i), cnt = col_get(s, C_COUNT, i);
	out->stack = col_get(s, C_STACK, i);
	out->ev = c->ev;
	out->cpu = c->cpu;
	out->pid = c->pid;
	out->tid = c->tid;
	out->time = time_of(s, i);
	out->period = period == ESC ? wide(s, i, 1) : period;
	out->count = cnt == ESC ? wide(s, i, 2) : cnt;
	out->comm = ctx_name(c, out->time);
}

size_t samples__nctx(const struct prof_samples *s)
{
	return s->nc;
}

void samples__ctx(const struct prof_samples *s, size_t ctx, int32_t *pid, int32_t *tid)
{
	*pid = s->c[ctx].pid;
	*tid = s->c[ctx].tid;
}

int samples__set_comm(struct prof_samples *s, size_t ctx, uint32_t n, const uint64_t *from,
    const char *const *name)
{
	struct ctx *c = &s->c[ctx];
	uint64_t *f = malloc(n * sizeof(*f));
	const char **m = malloc(n * sizeof(*m));
	s->version++;
	if (!f || !m) {
		free(f);
		free(m);
		return pmc__nomem();  /* the context keeps its names (or none) */
	}
	memcpy(f, from, n * sizeof(*f));
	memcpy(m, name, n * sizeof(*m));
	free((void *)c->from);
	free((void *)c->name);
	c->from = f;
	c->name = m;
	c->nnames = n;
	return 0;
}

void samples__keys(const struct prof_samples *s, size_t i, size_t n, struct sample_key *out)
{
	/* one loop over the columns: a report walks millions of samples */
	const uint32_t *sv = s->col[C_STACK].v, *cv = s->col[C_CTX].v, *pv = s->col[C_PERIOD].v;
	const uint32_t *nv = s->col[C_COUNT].v;
	uint32_t sk = s->col[C_STACK].k, ck = s->col[C_CTX].k, pk = s->col[C_PERIOD].k;
	uint32_t nk = s->col[C_COUNT].k;
	for (size_t j = 0; j < n; j++) {
		size_t x = i + j;
		uint32_t c = cv ? cv[x] : ck, period = pv ? pv[x] : pk, cnt = nv ? nv[x] : nk;
		uint64_t w = period == ESC ? wide(s, x, 1) : period;
		const struct ctx *cc = &s->c[c];
		out[j].stack = sv ? sv[x] : sk;
		out[j].ctx = c;
		out[j].count = cnt == ESC ? wide(s, x, 2) : cnt;
		out[j].weight = w || out[j].count > 1 ? w : 1;    /* prof_weight */
		/* the time only when the name changes over time */
		out[j].comm = cc->nnames > 1 ? ctx_name(cc, time_of(s, x)) :
		    cc->nnames ? cc->name[0] : NULL;
	}
}

uint32_t samples__ctx_sample(const struct prof_samples *s, size_t ctx, struct prof_sample *out)
{
	const struct ctx *c = &s->c[ctx];
	memset(out, 0, sizeof(*out));
	out->pid = c->pid;
	out->tid = c->tid;
	out->ev = c->ev;
	out->cpu = c->cpu;
	out->comm = c->nnames ? c->name[0] : NULL;
	return c->nnames;
}
