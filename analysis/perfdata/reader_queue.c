/*
 * reader_queue.c — time order for the reader (see reader_internal.h): a
 * kernel record's attr and timestamp (from the sample or its sample_id
 * trailer), and the queue that releases records at FINISHED_ROUND in time
 * order (time, then arrival: perf's ordered_events, where a round releases
 * what is not newer than the newest record of the round before).
 */
#include "perfdata/reader_internal.h"

void pd_flush_round(struct perfdata *p)
{
	p->flush_limit = p->next_flush;
	p->flushing = 1;
	p->last_flush = p->flush_limit;
	p->next_flush = p->max_ts;
}

/* ---- kernel records: the attr, the time ------------------------------- */

/* perf's evlist__event2evsel: NULL if the record names an unknown id. */
const struct pd_attr *pd_rec_attr(const struct perfdata *p, const unsigned char *r,
    size_t len, uint32_t type)
{
	size_t n = (len - 8) / 8;
	uint64_t id;
	int idx;

	if (p->nattrs == 0)
		return NULL;
	if (p->nattrs == 1)
		return p->attrs[0];
	if (type != PD_REC_SAMPLE && !(p->attrs[0]->pub.flags & PD_ATTR_SAMPLE_ID_ALL))
		return p->attrs[0];
	if (type == PD_REC_SAMPLE) {
		if (p->id_pos < 0)
			return p->attrs[0];
		if ((size_t)p->id_pos >= n)
			return NULL;
		id = ld64(p, r + 8 + 8 * (size_t)p->id_pos);
	} else {
		if (p->is_pos < 0)
			return p->attrs[0];
		if ((size_t)p->is_pos > n)
			return NULL;
		id = ld64(p, r + 8 + 8 * (n - (size_t)p->is_pos));
	}
	if (!id)
		return p->attrs[0];  /* synthesized records carry id 0 */
	idx = pd_id_get(p, id);
	return idx < 0 ? NULL : p->attrs[idx];
}

int pd_parse_trailer(const struct perfdata *p, const struct pd_attr *a,
    const unsigned char *r, size_t len, struct psample_trailer *t)
{
	memset(t, 0, sizeof(*t));
	if (!a || !(a->pub.flags & PD_ATTR_SAMPLE_ID_ALL))
		return 0;
	return psample__parse_trailer(&a->lay, r + 8, len - 8, p->be, t);
}

/* The record's timestamp: 0 when it has none. */
uint64_t pd_rec_time(const struct perfdata *p, const struct pd_attr *a,
    const unsigned char *r, size_t len, uint32_t type)
{
	if (!a)
		return 0;
	if (type == PD_REC_SAMPLE) {
		/* the fields before the time are of fixed size: its offset is
		 * the one pd_attr_layout worked out once for the attr */
		size_t off = 8 + (size_t)a->lay.o_time;
		if (a->lay.o_time < 0 || off + 8 > len)
			return 0;
		return ld64(p, r + off);
	}
	struct psample_trailer t;
	if (pd_parse_trailer(p, a, r, len, &t) < 0 || !t.has_time)
		return 0;
	return t.time;
}

/* ---- the queue ----------------------------------------------------------------
 *
 * An array of entries, not a heap of allocations: records arrive in time
 * order per CPU (each CPU's ring buffer is written out whole), so a round
 * is a few sorted runs, and most files (one busy CPU) are sorted already.
 * Records are appended as they come; before the first record of a round is
 * taken the unsorted tail is merged into the sorted head, run by run, which
 * costs one compare per record when the tail is in order and after the head.
 * No allocation per record: an entry points into the source's chunk, or
 * into the copy arena for records that come out of the zstd stream.
 */

#define COPY_ARENA (1024u * 1024u)

/* time, then arrival: the order perf's ordered_events gives */
static int qless(const struct qent *a, const struct qent *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static int q_room(struct perfdata *p)
{
	if (p->qn < p->qcap)
		return 0;
	if (p->qh && p->qh >= p->qcap / 2) {   /* half of it released: slide down */
		memmove(p->q, p->q + p->qh, (p->qn - p->qh) * sizeof(*p->q));
		p->qs -= p->qh;
		p->qn -= p->qh;
		p->qh = 0;
		return 0;
	}
	/* two arrays on one capacity */
	size_t nc = grow__cap(p->qcap, p->qn + 1, 4096);
	if (!nc || nc > SIZE_MAX / sizeof(*p->q))
		return -ENOMEM;
	struct qent *nq = realloc(p->q, nc * sizeof(*nq));
	if (!nq)
		return -ENOMEM;
	p->q = nq;
	struct qent *nt = realloc(p->qtmp, nc * sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	p->qtmp = nt;
	p->qcap = nc;
	return 0;
}

/* A copy of r in the copy arena (a chunk like the source's: the entries in
 * it hold references, the arena one while it is being filled). */
static const unsigned char *arena_copy(struct perfdata *p, const unsigned char *r, size_t len,
    struct pd_chunk **cp)
{
	if (!p->cchunk || p->ccap - p->cpos < len) {
		size_t nc = len > COPY_ARENA ? len : COPY_ARENA;
		struct pd_chunk *c = malloc(sizeof(*c) + nc);
		if (!c)
			return NULL;
		c->refs = 1;
		pd_chunk_put(p->cchunk);
		p->cchunk = c;
		p->cpos = 0;
		p->ccap = nc;
	}
	unsigned char *d = p->cchunk->data + p->cpos;
	memcpy(d, r, len);
	p->cpos += (len + 7) & ~(size_t)7;
	if (p->cpos > p->ccap)
		p->cpos = p->ccap;
	p->cchunk->refs++;
	*cp = p->cchunk;
	return d;
}

int pd_q_add(struct perfdata *p, const unsigned char *r, size_t len, uint64_t ts,
    uint64_t off, const struct pd_attr *a)
{
	struct pd_chunk *c = p->ichunk;
	struct qent *e;

	if (q_room(p) < 0)
		return -ENOMEM;
	e = &p->q[p->qn];
	if (c && r >= c->data && r + len <= c->data + p->icap) {
		e->data = r;
		e->chunk = c;
		c->refs++;
	} else if (!(e->data = arena_copy(p, r, len, &e->chunk))) {
		return -ENOMEM;
	}
	e->ts = ts;
	e->seq = p->seq++;
	e->off = off;
	e->len = len;
	e->attr = a;
	p->qn++;
	p->qbytes += len + sizeof(*e);
	return 0;
}

/* Merge the sorted runs of q[qh..qn) into one (bottom-up, stable). */
static void q_sort(struct perfdata *p)
{
	size_t i = p->qs > p->qh ? p->qs : p->qh + 1;

	for (; i < p->qn; i++)          /* the common case: already in order */
		if (qless(&p->q[i], &p->q[i - 1]))
			break;
	if (i >= p->qn) {
		p->qs = p->qn;
		return;
	}
	for (;;) {
		struct qent *a = p->q, *t = p->qtmp;
		size_t s = p->qh, nruns = 0;
		while (s < p->qn) {
			size_t m = s + 1, e;
			while (m < p->qn && !qless(&a[m], &a[m - 1]))
				m++;
			e = m;
			if (m < p->qn) {
				e = m + 1;
				while (e < p->qn && !qless(&a[e], &a[e - 1]))
					e++;
			}
			size_t x = s, y = m, o = s;
			while (x < m && y < e)
				t[o++] = qless(&a[y], &a[x]) ? a[y++] : a[x++];
			while (x < m)
				t[o++] = a[x++];
			while (y < e)
				t[o++] = a[y++];
			s = e;
			nruns++;
		}
		p->q = t;
		p->qtmp = a;
		if (nruns <= 1)
			break;
	}
	p->qs = p->qn;
}

const struct qent *pd_q_peek(struct perfdata *p)
{
	if (p->qh == p->qn)
		return NULL;
	if (p->qs != p->qn)
		q_sort(p);
	return &p->q[p->qh];
}

void pd_q_pop(struct perfdata *p)
{
	pd_q_peek(p);
	pd_chunk_put(p->curq.chunk);
	p->curq = p->q[p->qh++];
	p->qbytes -= p->curq.len + sizeof(p->curq);
	if (p->qh == p->qn)
		p->qh = p->qs = p->qn = 0;
}

void pd_q_drop(struct perfdata *p)
{
	const struct qent *e = &p->q[p->qh++];
	pd_chunk_put(e->chunk);
	p->qbytes -= e->len + sizeof(*e);
	if (p->qh == p->qn)
		p->qh = p->qs = p->qn = 0;
}

void pd_q_release(struct perfdata *p)
{
	for (size_t i = p->qh; i < p->qn; i++)
		pd_chunk_put(p->q[i].chunk);
	free(p->q);
	free(p->qtmp);
	pd_chunk_put(p->curq.chunk);
	pd_chunk_put(p->cchunk);
	p->q = p->qtmp = NULL;
	p->qh = p->qs = p->qn = p->qcap = 0;
	p->curq.chunk = NULL;
	p->cchunk = NULL;
}

void pd_chunk_put(struct pd_chunk *c)
{
	if (c && --c->refs == 0)
		free(c);
}
