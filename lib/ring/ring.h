/*
 * ring.h — the one consumer of perf_event_mmap_page ring buffers.
 *
 * Both backends produce into this layout: the Linux kernel's rings and the
 * simulator's.  The producer advances data_head; we read it with acquire
 * semantics, walk struct perf_event_header records from our tail, and
 * publish data_tail with release semantics once we are done with a record,
 * which lets the producer reuse the space.  A record that wraps the end of
 * the data area is copied into the caller's scratch buffer, so callers
 * always see one contiguous record.
 *
 * Use:
 *     pmc__ring_init(&r, page, fallback_size);
 *     n = pmc__ring_begin(&r);                   // snapshot data_head
 *     while ((rc = pmc__ring_next(&r, &h, scratch)) > 0)
 *             use(h);                            // valid until the next call
 *     pmc__ring_end(&r);                         // publish data_tail
 * On -EBADMSG (a corrupted record size) call pmc__ring_skip() to drop
 * everything up to the snapshot and resynchronise.
 */
#ifndef PMC_RING_H
#define PMC_RING_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* Largest possible record: perf_event_header.size is 16 bits. */
#define PMC_RING_SCRATCH_SIZE 65536

/* The consumer's view of one mapped ring: where the producer was, where
 * we read, what we told it. */
struct pmc_ring_reader {
	struct perf_event_mmap_page *page;
	unsigned char *data;          /* the data area */
	uint64_t size;                /* its size, a power of two */
	uint64_t head;                /* data_head snapshot from pmc__ring_begin */
	uint64_t tail;                /* our read position (not yet published) */
	uint64_t published;           /* the last data_tail we stored */
};

/*
 * Bind r to a mapped page.  The data area is at page->data_offset with
 * page->data_size bytes when the producer sets them (kernels >= 4.1 and the
 * sim do), else at (char *)page + page_size with fallback_size bytes
 * (page_size * data pages).  The size must be a power of two.  0, -EINVAL.
 */
int pmc__ring_init(struct pmc_ring_reader *r, struct perf_event_mmap_page *page,
    size_t page_size, size_t fallback_size);

/* Snapshot data_head (acquire).  Returns the bytes available, or -EBADMSG
 * when head is behind our tail or more than the ring size ahead of it. */
int64_t pmc__ring_begin(struct pmc_ring_reader *r);

/*
 * The next record up to the snapshot: 1 with *hdr set (in the ring or, if it
 * wraps, in scratch, which must hold PMC_RING_SCRATCH_SIZE bytes); 0 when
 * none is left; -EBADMSG for a corrupted header (size < 8, not a multiple of
 * 8, or beyond the snapshot).  Consumes the record returned by the previous
 * call, publishing the tail past it.
 */
int pmc__ring_next(struct pmc_ring_reader *r, const struct perf_event_header **hdr, void *scratch);

/* Publish the tail past everything returned so far (release). */
void pmc__ring_end(struct pmc_ring_reader *r);

/* Drop everything up to the snapshot (after -EBADMSG) and publish. */
void pmc__ring_skip(struct pmc_ring_reader *r);

#endif
