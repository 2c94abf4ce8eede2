/*
 * ring.c — the perf_event_mmap_page consumer shared by both backends (see
 * ring.h for the protocol).  data_head is loaded with acquire semantics so
 * the record bytes the producer wrote before advancing it are visible;
 * data_tail is stored with release semantics so our reads of a record
 * complete before the producer may overwrite it.
 */
#include <errno.h>
#include <string.h>

#include "ring/ring.h"

int pmc__ring_init(struct pmc_ring_reader *r, struct perf_event_mmap_page *page,
    size_t page_size, size_t fallback_size)
{
	uint64_t off, size;

	memset(r, 0, sizeof(*r));
	if (!page)
		return -EINVAL;
	if (page->data_size) {
		off = page->data_offset;
		size = page->data_size;
	} else {
		off = page_size;
		size = fallback_size;
	}
	if (size < 8 || (size & (size - 1)) || off == 0)
		return -EINVAL;
	r->page = page;
	r->data = (unsigned char *)page + off;
	r->size = size;
	r->tail = r->published = __atomic_load_n(&page->data_tail, __ATOMIC_RELAXED);
	r->head = r->tail;
	return 0;
}

int64_t pmc__ring_begin(struct pmc_ring_reader *r)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);

	if (head - r->tail > r->size) {
		r->head = head;
		return -EBADMSG;
	}
	r->head = head;
	return (int64_t)(head - r->tail);
}

static void publish(struct pmc_ring_reader *r, uint64_t tail)
{
	if (tail != r->published) {
		__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
		r->published = tail;
	}
}

int pmc__ring_next(struct pmc_ring_reader *r, const struct perf_event_header **hdr, void *scratch)
{
	uint64_t avail, off, first;
	struct perf_event_header h;
	unsigned char *hb = (unsigned char *)&h;

	publish(r, r->tail);
	avail = r->head - r->tail;
	if (avail == 0)
		return 0;
	if (avail < sizeof(h))
		return -EBADMSG;
	off = r->tail & (r->size - 1);
	/* The header itself may wrap. */
	first = r->size - off;
	if (first >= sizeof(h)) {
		memcpy(&h, r->data + off, sizeof(h));
	} else {
		memcpy(hb, r->data + off, first);
		memcpy(hb + first, r->data, sizeof(h) - first);
	}
	if (h.size < sizeof(h) || (h.size & 7) || h.size > avail)
		return -EBADMSG;
	if (first >= h.size) {
		*hdr = (const struct perf_event_header *)(r->data + off);
	} else {
		memcpy(scratch, r->data + off, first);
		memcpy((unsigned char *)scratch + first, r->data, h.size - first);
		*hdr = scratch;
	}
	r->tail += h.size;
	return 1;
}

void pmc__ring_end(struct pmc_ring_reader *r)
{
	publish(r, r->tail);
}

void pmc__ring_skip(struct pmc_ring_reader *r)
{
	r->tail = r->head;
	publish(r, r->tail);
}
