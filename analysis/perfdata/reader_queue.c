/*
 * reader_queue.c — time order for the reader (see reader_internal.h): a
 * kernel record's attr and timestamp (from the sample or its sample_id
 * trailer), and the queue that releases records at FINISHED_ROUND in time
 * order (a min-heap on time, then arrival: perf's ordered_events, where a
 * round releases what is not newer than the newest record of the round
 * before).
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

#define TRAILER_BITS (PD_S_TID | PD_S_TIME | PD_S_ID | PD_S_STREAM_ID | PD_S_CPU | \
	PD_S_IDENTIFIER)

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
    const unsigned char *r, size_t len, struct trailer *t)
{
	size_t n = (len - 8) / 8, k;
	uint64_t st;

	memset(t, 0, sizeof(*t));
	if (!a || !(a->pub.flags & PD_ATTR_SAMPLE_ID_ALL))
		return 0;
	st = a->pub.sample_type;
	k = (size_t)__builtin_popcountll(st & TRAILER_BITS);
	if (k > n)
		return -1;
	t->size = 8 * k;
	const unsigned char *q = r + 8 + 8 * n;  /* one past the last u64 */
	if (st & PD_S_IDENTIFIER) {
		q -= 8;
		t->id = ld64(p, q);
		t->has_id = 1;
	}
	if (st & PD_S_CPU) {
		q -= 8;
		t->cpu = ld32(p, q);
		t->has_cpu = 1;
	}
	if (st & PD_S_STREAM_ID)
		q -= 8;
	if (st & PD_S_ID) {
		q -= 8;
		t->id = ld64(p, q);
		t->has_id = 1;
	}
	if (st & PD_S_TIME) {
		q -= 8;
		t->time = ld64(p, q);
		t->has_time = 1;
	}
	if (st & PD_S_TID) {
		q -= 8;
		t->pid = ld32(p, q);
		t->tid = ld32(p, q + 4);
		t->has_tid = 1;
	}
	return 0;
}

/* The record's timestamp: 0 when it has none. */
uint64_t pd_rec_time(const struct perfdata *p, const struct pd_attr *a,
    const unsigned char *r, size_t len, uint32_t type)
{
	if (!a)
		return 0;
	if (type == PD_REC_SAMPLE) {
		uint64_t st = a->pub.sample_type;
		size_t off = 8;
		if (!(st & PD_S_TIME))
			return 0;
		if (st & PD_S_IDENTIFIER)
			off += 8;
		if (st & PD_S_IP)
			off += 8;
		if (st & PD_S_TID)
			off += 8;
		if (off + 8 > len)
			return 0;
		return ld64(p, r + off);
	}
	struct trailer t;
	if (pd_parse_trailer(p, a, r, len, &t) < 0 || !t.has_time)
		return 0;
	return t.time;
}

/* ---- the queue (a min-heap on time, then arrival) ------------------------- */

static int qless(const struct qent *a, const struct qent *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

int pd_q_push(struct perfdata *p, struct qent *e)
{
	if (p->nheap == p->hcap) {
		size_t nc = p->hcap ? p->hcap * 2 : 1024;
		struct qent **nh = realloc(p->heap, nc * sizeof(*nh));
		if (!nh)
			return -ENOMEM;
		p->heap = nh;
		p->hcap = nc;
	}
	size_t i = p->nheap++;
	while (i) {
		size_t up = (i - 1) / 2;
		if (!qless(e, p->heap[up]))
			break;
		p->heap[i] = p->heap[up];
		i = up;
	}
	p->heap[i] = e;
	p->qbytes += e->len + sizeof(*e);
	return 0;
}

struct qent *pd_q_pop(struct perfdata *p)
{
	struct qent *top = p->heap[0], *last;
	size_t i = 0, n;
	n = --p->nheap;
	last = p->heap[n];
	while (2 * i + 1 < n) {
		size_t c = 2 * i + 1;
		if (c + 1 < n && qless(p->heap[c + 1], p->heap[c]))
			c++;
		if (!qless(p->heap[c], last))
			break;
		p->heap[i] = p->heap[c];
		i = c;
	}
	if (n)
		p->heap[i] = last;
	p->qbytes -= top->len + sizeof(*top);
	return top;
}

void pd_chunk_put(struct pd_chunk *c)
{
	if (c && --c->refs == 0)
		free(c);
}

struct qent *pd_q_entry(struct perfdata *p, const unsigned char *r, size_t len)
{
	struct pd_chunk *c = p->ichunk;
	int ref = c && r >= c->data && r + len <= c->data + p->icap;
	struct qent *e = malloc(sizeof(*e) + (ref ? 0 : len));
	if (!e)
		return NULL;
	e->len = len;
	if (ref) {
		e->data = r;
		e->chunk = c;
		c->refs++;
	} else {
		memcpy(e->copy, r, len);
		e->data = e->copy;
		e->chunk = NULL;
	}
	return e;
}

void pd_q_free(struct qent *e)
{
	if (e) {
		pd_chunk_put(e->chunk);
		free(e);
	}
}
