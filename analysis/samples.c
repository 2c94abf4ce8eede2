/*
 * samples.c — packed sample storage (samples.h).
 *
 * A report walks millions of samples once or twice, so the layout is a
 * flat array of fixed 16-byte records (random access stays O(1): pmc
 * script sorts them by time, the unwinder patches stacks after the fact)
 * rather than a variable-length stream.  What repeats across samples — the
 * process, thread, event and CPU — is one context id; what does not fit
 * the 32-bit fields goes to a side map keyed by sample index.
 */
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "samples.h"

#define BLOCK_SHIFT 12            /* 4096 samples share a time base */
#define ESC UINT32_MAX            /* the value is in the side map */
#define DT_BIAS 0x80000000ull     /* offsets are stored biased: -2^31 .. 2^31 - 2 */

struct rec {
	uint32_t stack, ctx, dt, period;
};

struct ctx {
	int32_t pid, tid;
	uint16_t ev, cpu;
	const char *comm;
};

struct prof_samples {
	struct rec *r;
	size_t n, cap;
	uint64_t *base;               /* per block: the time of its first sample */
	size_t nbase, capbase;
	struct ctx *c;
	size_t nc, capc;
	struct hmap c_ix;             /* (pid, tid), (ev, cpu) -> context */
	struct hmap big;              /* (sample index, 0 time | 1 period) -> bigv */
	uint64_t *bigv;
	size_t nbigv, capbigv;
};

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t ncap = *cap ? *cap : 64;
	while (ncap < need)
		ncap *= 2;
	p = realloc(p, ncap * size);
	if (!p)
		abort();
	*cap = ncap;
	return p;
}

struct prof_samples *samples__new(void)
{
	return calloc(1, sizeof(struct prof_samples));
}

void samples__free(struct prof_samples *s)
{
	if (!s)
		return;
	free(s->r);
	free(s->base);
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

static uint32_t ctx_of(struct prof_samples *s, const struct prof_sample *x)
{
	int found;
	struct hent *e = hmap_slot(&s->c_ix, (uint64_t)(uint32_t)x->pid << 32 | (uint32_t)x->tid,
	    (uint64_t)x->ev << 16 | x->cpu, &found);
	if (!found) {
		s->c = grow(s->c, &s->capc, s->nc + 1, sizeof(*s->c));
		s->c[s->nc] = (struct ctx){ x->pid, x->tid, x->ev, x->cpu, NULL };
		e->v = (uint32_t)s->nc++;
	}
	return e->v;
}

/* v, or ESC with v kept aside for sample i */
static uint32_t narrow(struct prof_samples *s, size_t i, int kind, uint64_t v, int fits)
{
	if (fits)
		return (uint32_t)v;
	int found;
	struct hent *e = hmap_slot(&s->big, i, (uint64_t)kind, &found);
	if (!found) {
		s->bigv = grow(s->bigv, &s->capbigv, s->nbigv + 1, sizeof(*s->bigv));
		e->v = (uint32_t)s->nbigv++;
	}
	s->bigv[e->v] = v;
	return ESC;
}

static uint64_t wide(const struct prof_samples *s, size_t i, int kind)
{
	const struct hmap *m = &s->big;
	size_t j = hmap_mix(i, (uint64_t)kind) & (m->cap - 1);
	while (m->t[j].a != i || m->t[j].b != (uint64_t)kind)
		j = (j + 1) & (m->cap - 1);   /* present: narrow put it there */
	return s->bigv[m->t[j].v];
}

static void encode(struct prof_samples *s, size_t i, const struct prof_sample *x)
{
	struct rec *r = &s->r[i];
	uint64_t d = x->time - s->base[i >> BLOCK_SHIFT] + DT_BIAS;   /* mod 2^64 */
	r->stack = x->stack;
	r->ctx = ctx_of(s, x);
	r->dt = narrow(s, i, 0, d < ESC ? d : x->time, d < ESC);
	r->period = narrow(s, i, 1, x->period, x->period < ESC);
}

void samples__append(struct prof_samples *s, const struct prof_sample *x)
{
	size_t i = s->n;
	s->r = grow(s->r, &s->cap, i + 1, sizeof(*s->r));
	if ((i >> BLOCK_SHIFT) == s->nbase) {
		s->base = grow(s->base, &s->capbase, s->nbase + 1, sizeof(*s->base));
		s->base[s->nbase++] = x->time;
	}
	s->n++;
	encode(s, i, x);
}

void samples__set(struct prof_samples *s, size_t i, const struct prof_sample *x)
{
	encode(s, i, x);
}

void samples__truncate(struct prof_samples *s, size_t n)
{
	if (n < s->n) {
		s->n = n;
		s->nbase = (n + (1u << BLOCK_SHIFT) - 1) >> BLOCK_SHIFT;
	}
}

void samples__get(const struct prof_samples *s, size_t i, struct prof_sample *out)
{
	const struct rec *r = &s->r[i];
	const struct ctx *c = &s->c[r->ctx];
	out->stack = r->stack;
	out->ev = c->ev;
	out->cpu = c->cpu;
	out->pid = c->pid;
	out->tid = c->tid;
	out->time = r->dt == ESC ? wide(s, i, 0) : s->base[i >> BLOCK_SHIFT] + r->dt - DT_BIAS;
	out->period = r->period == ESC ? wide(s, i, 1) : r->period;
	out->comm = c->comm;
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

void samples__set_comm(struct prof_samples *s, size_t ctx, const char *comm)
{
	s->c[ctx].comm = comm;
}
