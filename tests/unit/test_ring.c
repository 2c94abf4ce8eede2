/*
 * test_ring.c — the perf_event_mmap_page consumer: records in order, a
 * record (and a header) wrapping the end of the data area comes back
 * contiguous, data_tail is published only past consumed records, and a
 * corrupted header is reported instead of looping.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/logbuild.h"
#include "ring/ring.h"

#define DSIZE 256

struct fake {
	struct lb_ring r;
	unsigned char scratch[PMC_RING_SCRATCH_SIZE];
};

static struct fake *fake_new(uint64_t start)
{
	struct fake *f = calloc(1, sizeof(*f));
	assert_non_null(f);
	lb_ring_init(&f->r, DSIZE, start);
	return f;
}

static void fake_free(struct fake *f)
{
	free(f->r.page);
	free(f);
}

/* Produce a record of `size` bytes: header then bytes = seq. */
static void produce(struct fake *f, uint32_t type, uint16_t size, unsigned char seq)
{
	unsigned char rec[512];
	struct perf_event_header h = { type, 0, size };

	memset(rec, seq, size);
	memcpy(rec, &h, sizeof(h));
	lb_ring_produce(&f->r, rec, size);
}

static void check_rec(const struct perf_event_header *h, uint32_t type, uint16_t size,
    unsigned char seq)
{
	const unsigned char *b = (const unsigned char *)h;
	assert_int_equal(h->type, type);
	assert_int_equal(h->size, size);
	for (uint16_t i = sizeof(*h); i < size; i++)
		assert_int_equal(b[i], seq);
}

static void test_in_order(void **state)
{
	struct fake *f = fake_new(0);
	struct pmc_ring_reader r;
	const struct perf_event_header *h;

	assert_int_equal(pmc__ring_init(&r, f->r.page, 4096, 0), 0);
	assert_int_equal(pmc__ring_begin(&r), 0);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), 0);
	produce(f, 9, 32, 0xA1);
	produce(f, 3, 48, 0xA2);
	assert_int_equal(pmc__ring_begin(&r), 80);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), 1);
	check_rec(h, 9, 32, 0xA1);
	/* tail not yet published while the caller holds the record */
	assert_int_equal(f->r.page->data_tail, 0);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), 1);
	check_rec(h, 3, 48, 0xA2);
	assert_int_equal(f->r.page->data_tail, 32);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), 0);
	assert_int_equal(f->r.page->data_tail, 80);
	pmc__ring_end(&r);
	assert_int_equal(f->r.page->data_tail, 80);
	fake_free(f);
}

static void test_wraparound(void **state)
{
	/* start 40 bytes before the end: a 64-byte record wraps */
	struct fake *f = fake_new(DSIZE - 40 + 1024ull * DSIZE);
	struct pmc_ring_reader r;
	const struct perf_event_header *h;

	assert_int_equal(pmc__ring_init(&r, f->r.page, 4096, 0), 0);
	produce(f, 9, 64, 0xB1);
	produce(f, 9, 184, 0xB2);
	assert_int_equal(pmc__ring_begin(&r), 248);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), 1);
	assert_ptr_equal(h, f->scratch);        /* copied: it wraps */
	check_rec(h, 9, 64, 0xB1);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), 1);
	assert_ptr_not_equal(h, f->scratch);    /* contiguous: in place */
	check_rec(h, 9, 184, 0xB2);
	pmc__ring_end(&r);
	assert_int_equal(f->r.page->data_tail, DSIZE - 40 + 1024ull * DSIZE + 248);
	fake_free(f);
}

static void test_header_wraps(void **state)
{
	/* only 4 bytes before the end: the 8-byte header itself wraps */
	struct fake *f = fake_new(DSIZE - 4);
	struct pmc_ring_reader r;
	const struct perf_event_header *h;

	assert_int_equal(pmc__ring_init(&r, f->r.page, 4096, 0), 0);
	produce(f, 7, 24, 0xC1);
	assert_int_equal(pmc__ring_begin(&r), 24);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), 1);
	check_rec(h, 7, 24, 0xC1);
	pmc__ring_end(&r);
	fake_free(f);
}

static void test_corrupt_size(void **state)
{
	struct fake *f = fake_new(0);
	struct pmc_ring_reader r;
	const struct perf_event_header *h;

	assert_int_equal(pmc__ring_init(&r, f->r.page, 4096, 0), 0);
	produce(f, 9, 32, 0xD1);
	produce(f, 9, 32, 0xD2);
	/* the second record's size becomes 0 */
	((struct perf_event_header *)(f->r.data + 32))->size = 0;
	assert_int_equal(pmc__ring_begin(&r), 64);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), 1);
	check_rec(h, 9, 32, 0xD1);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), -EBADMSG);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), -EBADMSG); /* no progress, no loop */
	pmc__ring_skip(&r);
	assert_int_equal(f->r.page->data_tail, 64);

	/* larger than what was produced */
	produce(f, 9, 32, 0xD3);
	((struct perf_event_header *)(f->r.data + 64))->size = 4096;
	assert_int_equal(pmc__ring_begin(&r), 32);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), -EBADMSG);
	pmc__ring_skip(&r);

	/* not a multiple of 8 */
	produce(f, 9, 32, 0xD4);
	((struct perf_event_header *)(f->r.data + 96))->size = 12;
	pmc__ring_begin(&r);
	assert_int_equal(pmc__ring_next(&r, &h, f->scratch), -EBADMSG);
	pmc__ring_skip(&r);

	/* a head more than the ring size ahead of the tail */
	f->r.page->data_head = f->r.page->data_tail + 2 * DSIZE;
	assert_int_equal(pmc__ring_begin(&r), -EBADMSG);
	pmc__ring_skip(&r);
	assert_int_equal(f->r.page->data_tail, f->r.page->data_head);
	fake_free(f);
}

static void test_init(void **state)
{
	struct fake *f = fake_new(0);
	struct pmc_ring_reader r;

	f->r.page->data_size = 0;                 /* old kernel: use the fallback */
	assert_int_equal(pmc__ring_init(&r, f->r.page, 4096, DSIZE), 0);
	assert_ptr_equal(r.data, f->r.data);
	assert_int_equal(r.size, DSIZE);
	assert_int_equal(pmc__ring_init(&r, f->r.page, 4096, 300), -EINVAL);  /* not 2^n */
	assert_int_equal(pmc__ring_init(&r, NULL, 4096, DSIZE), -EINVAL);
	fake_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_wraparound),
		cmocka_unit_test(test_header_wraps),
		cmocka_unit_test(test_corrupt_size),
		cmocka_unit_test(test_init),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
