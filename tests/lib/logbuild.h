/*
 * logbuild.h — the one builder of the byte streams the unit tests make by
 * hand, each piece written once: a growable buffer (struct lb) and what
 * appends to it —
 *   - integers in the buffer's byte order (lb16/32/64), bytes, zeros, a
 *     string padded to 8, a value patched in later;
 *   - kernel records (struct perf_event_header + body: lb_rec_begin /
 *     lb_rec_end), as a perf ring and perf.data hold them, and perf.data's
 *     own pieces (an attr with its bitfield, a feature string, COMPRESSED
 *     records);
 *   - a fake perf ring (struct lb_ring) that records are produced into, as
 *     the kernel does, wrapping at its end;
 *   - pmc log records (lb_log_begin: the magic and a HEADER; lb_logrec: a
 *     record encoded by log/records.h's pmc__logrec_*, stamped), and the
 *     buffer to a file (lb_save);
 *   - a log through the real writer, in memory (lb_logw_open /
 *     lb_logw_close), and a reader fed a log's bytes (lb_reader).
 * Header-only (each test is one program built from one .c); included as
 * "lib/logbuild.h" (the tests' include path has tests/).
 */
#ifndef PMC_TESTS_LOGBUILD_H
#define PMC_TESTS_LOGBUILD_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <zstd.h>

#include "lib/testio.h"
#include "pmclog.h"
#include "common/grow.h"
#include "log/format.h"
#include "log/records.h"
#include "log/writer.h"
#include "perfdata/format.h"

/* ---- the buffer ---------------------------------------------------------- */

struct lb {
	unsigned char *b;
	size_t len, cap;
	int be;                      /* integers big-endian (a foreign perf.data) */
};

/* The host's own order, for records a kernel of this machine would write. */
#define LB_HOST_BE (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

static inline void lb_room(struct lb *p, size_t n)
{
	size_t old = p->cap;
	assert_int_equal(GROW_FROM(p->b, p->len, p->cap, n, 4096), 0);
	memset(p->b + old, 0, p->cap - old);
}

static inline void lb_free(struct lb *p)
{
	free(p->b);
	p->b = NULL;
	p->len = p->cap = 0;
}

/* v as n bytes in the buffer's order */
static inline void lb_put(struct lb *p, uint64_t v, int n)
{
	lb_room(p, (size_t)n);
	for (int i = 0; i < n; i++) {
		int sh = p->be ? 8 * (n - 1 - i) : 8 * i;
		p->b[p->len + (size_t)i] = (unsigned char)(v >> sh);
	}
	p->len += (size_t)n;
}
static inline void lb16(struct lb *p, uint16_t v) { lb_put(p, v, 2); }
static inline void lb32(struct lb *p, uint32_t v) { lb_put(p, v, 4); }
static inline void lb64(struct lb *p, uint64_t v) { lb_put(p, v, 8); }

static inline void lb_bytes(struct lb *p, const void *d, size_t n)
{
	lb_room(p, n);
	memcpy(p->b + p->len, d, n);
	p->len += n;
}

static inline void lb_zero(struct lb *p, size_t n)
{
	lb_room(p, n);
	memset(p->b + p->len, 0, n);
	p->len += n;
}

/* v as n bytes at off (already written) */
static inline void lb_patch(struct lb *p, size_t off, uint64_t v, int n)
{
	size_t save = p->len;
	p->len = off;
	lb_put(p, v, n);
	p->len = save;
}

/* a string and its NUL, padded with zeros to a multiple of 8 */
static inline void lb_str8(struct lb *p, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 7) & ~(size_t)7;
	lb_bytes(p, s, n);
	lb_zero(p, pad - n);
}

/* ---- kernel records and perf.data ---------------------------------------- */

/* Start a record (perf_event_header: type, misc, size later); returns
 * where it starts, for lb_rec_end. */
static inline size_t lb_rec_begin(struct lb *p, uint32_t type, uint16_t misc)
{
	size_t at = p->len;
	lb32(p, type);
	lb16(p, misc);
	lb16(p, 0);
	return at;
}

/* End the record begun at `at`: its size into its header. */
static inline void lb_rec_end(struct lb *p, size_t at)
{
	lb_patch(p, at + 6, (uint16_t)(p->len - at), 2);
}

/* perf.data's magic, as a file of the buffer's byte order starts */
static inline void lb_perf_magic(struct lb *p)
{
	lb_bytes(p, p->be ? "2ELIFREP" : "PERFILE2", 8);
}

/* A pipe-mode perf.data's header (the magic and its size): its records
 * follow. */
static inline void lb_pipe_begin(struct lb *p)
{
	lb_perf_magic(p);
	lb64(p, PD_PIPE_HDR_SIZE);
}

/* perf_event_attr's bitfield word: big-endian compilers fill each byte
 * from its top bit */
static inline void lb_bits(struct lb *p, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		unsigned x = (unsigned)(v >> (8 * i)) & 0xFF, r = x;
		if (p->be) {
			r = 0;
			for (int k = 0; k < 8; k++)
				r |= ((x >> k) & 1u) << (7 - k);
		}
		lb_put(p, r, 1);
	}
}

/* a perf.data feature string: u32 length (padded to 64), the bytes */
static inline void lb_fstr(struct lb *p, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 63) & ~(size_t)63;
	lb32(p, (uint32_t)pad);
	lb_bytes(p, s, n);
	lb_zero(p, pad - n);
}

/* A perf_event_attr of `size` bytes (flags: the bitfield word). */
static inline void lb_attr(struct lb *p, uint32_t type, uint64_t config, uint64_t period,
    uint64_t st, uint64_t rf, uint64_t flags, uint64_t bst, uint64_t ru, uint64_t ri,
    uint32_t size)
{
	size_t at = p->len;
	lb32(p, type);
	lb32(p, size);
	lb64(p, config);
	lb64(p, period);
	lb64(p, st);
	lb64(p, rf);
	lb_bits(p, flags);
	lb32(p, 0);                  /* wakeup */
	lb32(p, 0);                  /* bp_type */
	lb64(p, 0);                  /* config1 */
	lb64(p, 0);                  /* config2 */
	lb64(p, bst);
	lb64(p, ru);
	lb32(p, 16);                 /* sample_stack_user */
	lb32(p, 0);                  /* clockid */
	lb64(p, ri);
	lb_zero(p, size - (p->len - at));
}

/* raw's len bytes of records, zstd-compressed as perf does (one stream,
 * flushed per record) into nparts COMPRESSED (v2: COMPRESSED2) records
 * appended to out, split wherever the parts end (mid-record too). */
static inline void lb_compress(struct lb *out, const unsigned char *raw, size_t len, int v2,
    int nparts)
{
	ZSTD_CCtx *zc = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(len / (size_t)nparts + 1) + 64;
	unsigned char *z = malloc(cap);

	assert_non_null(zc);
	assert_non_null(z);
	for (int i = 0; i < nparts; i++) {
		size_t from = len * (size_t)i / (size_t)nparts;
		size_t to = len * (size_t)(i + 1) / (size_t)nparts;
		ZSTD_inBuffer in = { raw + from, to - from, 0 };
		ZSTD_outBuffer o = { z, cap, 0 };
		size_t at;
		while (in.pos < in.size)
			assert_false(ZSTD_isError(ZSTD_compressStream2(zc, &o, &in, ZSTD_e_continue)));
		assert_int_equal(ZSTD_compressStream2(zc, &o, &in, ZSTD_e_flush), 0);
		at = lb_rec_begin(out, v2 ? PD_REC_COMPRESSED2 : PD_REC_COMPRESSED, 0);
		if (v2) {
			lb64(out, o.pos);
			lb_bytes(out, z, o.pos);
			lb_zero(out, ((o.pos + 7) & ~(size_t)7) - o.pos);
		} else {
			lb_bytes(out, z, o.pos);     /* odd sizes, as perf writes them */
		}
		lb_rec_end(out, at);
	}
	ZSTD_freeCCtx(zc);
	free(z);
}

/* ---- a fake perf ring ----------------------------------------------------- */

struct lb_ring {
	struct perf_event_mmap_page *page;
	unsigned char *data;         /* data_size bytes after the page */
};

/* A ring of dsize bytes (a power of two), head and tail at start. */
static inline void lb_ring_init(struct lb_ring *f, size_t dsize, uint64_t start)
{
	/* aligned_alloc wants a multiple of the alignment (ASan refuses less) */
	size_t sz = (4096 + dsize + 4095) & ~(size_t)4095;
	f->page = aligned_alloc(4096, sz);
	assert_non_null(f->page);
	memset(f->page, 0, sz);
	f->page->data_offset = 4096;
	f->page->data_size = dsize;
	f->page->data_head = f->page->data_tail = start;
	f->data = (unsigned char *)f->page + 4096;
}

/* rec[0..n) at the head, wrapping, then the head moved past it (release). */
static inline void lb_ring_produce(struct lb_ring *f, const void *rec, size_t n)
{
	uint64_t head = f->page->data_head, mask = f->page->data_size - 1;
	for (size_t i = 0; i < n; i++)
		f->data[(head + i) & mask] = ((const unsigned char *)rec)[i];
	__atomic_store_n(&f->page->data_head, head + n, __ATOMIC_RELEASE);
}

/* ---- pmc logs -------------------------------------------------------------- */

/* The record just encoded in r (pmc__logrec_*), stamped ts. */
static inline void lb_logrec(struct lb *p, const struct pmc_logrec *r, uint64_t ts)
{
	size_t rl = PMCLOG_REC_HDR_LEN + r->len;
	lb_room(p, rl);
	pmclog__st32(p->b + p->len, PMCLOG_HDR_MAKE(r->type, rl));
	pmclog__st32(p->b + p->len + 4, 0);
	pmclog__st64(p->b + p->len + 8, ts);
	memcpy(p->b + p->len + 16, r->buf, r->len);
	p->len += rl;
}

/* An empty buffer made the start of an uncompressed log: the magic and
 * the HEADER record h, stamped ts. */
static inline void lb_log_begin(struct lb *p, const struct pmc_logrec_header *h, uint64_t ts)
{
	static struct pmc_logrec r;
	p->len = 0;
	lb_bytes(p, PMCLOG_FILE_MAGIC_RAW, PMCLOG_FILE_MAGIC_LEN);
	assert_int_equal(pmc__logrec_header(&r, h), 0);
	lb_logrec(p, &r, ts);
}

/* The buffer to the file at path (created or truncated). */
static inline void lb_save(const struct lb *p, const char *path)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p->b, 1, p->len, f), p->len);
	assert_int_equal(fclose(f), 0);
}

/* The buffer to a new temporary file: tmpl, a mkstemp template
 * ("/tmp/NAME_XXXXXX"), becomes its path. */
static inline void lb_save_tmp(const struct lb *p, char *tmpl)
{
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, p->b, p->len), (ssize_t)p->len);
	close(fd);
}

/* A log through the writer (lib/log/writer.c) into a temporary file. */
struct lb_logw {
	FILE *f;
	struct pmc_logw *lw;
};

static inline struct pmc_logw *lb_logw_open(struct lb_logw *w, unsigned flags,
    const char *cmdline)
{
	w->f = tmpfile();
	assert_non_null(w->f);
	assert_int_equal(pmc__logw_open(fileno(w->f), flags, cmdline, &w->lw), 0);
	return w->lw;
}

/* Close the writer: the log's bytes (*len of them), malloc'd. */
static inline unsigned char *lb_logw_close(struct lb_logw *w, size_t *len)
{
	unsigned char *b;
	assert_int_equal(pmc__logw_close(w->lw), 0);
	b = tio_slurp_fd(fileno(w->f), len);
	assert_non_null(b);
	fclose(w->f);
	return b;
}

/* A memory reader (pmclog_open(PMCLOG_FD_NONE)) fed b[0..len) and the end
 * of input; ext: pmc's own records too (pmclog_set_extensions). */
static inline void *lb_reader(const unsigned char *b, size_t len, int ext)
{
	void *p = pmclog_open(PMCLOG_FD_NONE);
	assert_non_null(p);
	pmclog_set_extensions(p, ext);
	if (len)
		assert_int_equal(pmclog_feed(p, (char *)b, (int)len), 0);
	assert_int_equal(pmclog_feed(p, NULL, 0), 0);
	return p;
}

#endif
