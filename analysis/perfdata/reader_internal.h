/*
 * reader_internal.h — the perf.data reader's state and the calls between
 * its files (private to analysis/perfdata/; the API is perfdata.h).  The
 * reader is split along perf's own seams (util/data.c, header.c,
 * ordered-events.c, session.c):
 *   reader_source.c     source I/O (file, pipe, memory, directory), the
 *                       zstd stream of COMPRESSED records, byte order,
 *                       the sticky error
 *   reader_header.c     the file header, attrs and ids, features, opening,
 *                       the accessors
 *   reader_buildid.c    build ids (HEADER_BUILD_ID and BUILD_ID records)
 *   reader_queue.c      a kernel record's attr and timestamp, the ordering
 *                       queue (perf's ordered_events)
 *   reader_translate.c  one kernel record -> struct pmclog_ev
 *   reader_sample.c     a SAMPLE straight to the sample sink (the direct
 *                       path: no struct pmclog_ev)
 *   reader.c            user records and delivery (perfdata__read)
 */
#ifndef PMC_PERFDATA_READER_INTERNAL_H
#define PMC_PERFDATA_READER_INTERNAL_H

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "common/error.h"
#include "common/grow.h"
#include "common/hmap.h"
#include "perfdata/perfdata.h"
#include "perfdata/format.h"
#include "common/perf_sample.h"

#define IBUF_MIN      (256u * 1024u)
#define QUEUE_MAX     (512ull * 1024 * 1024)   /* queued bytes before a forced flush */
#define DBUF_MAX      (256u * 1024u * 1024u)   /* decompressed bytes pending */
#define FEAT_MAX      (64u * 1024u * 1024u)    /* a feature section we read */
#define PD_PIPE_HOLD_MAX ((size_t)1 << 30)      /* file mode on a pipe: held in memory */
#define MAX_ATTRS     65536
#define MAX_IDS       (16u * 1024u * 1024u)

/* ---- state ------------------------------------------------------------ */

struct pd_attr {
	struct perfdata_attr pub;
	char *name;
	uint64_t *ids;
	size_t nids;
	uint32_t nregs_user, nregs_intr;
	int announced;                /* its PMCALLOCATE was delivered */
	struct psample_layout lay;    /* its records' layout (pd_attr_layout) */
	uint8_t direct;               /* the sink takes its samples (no user
	                               * registers; else pd_sink_takes) */
	uint64_t period0;             /* the period of a sample without PERIOD */
};

struct pd_bid {
	struct perfdata_buildid pub;
	char *path;
};

/* A buffer the source reads into, shared with the queued records that
 * point into it: freed when the source has moved on and the last of them
 * is released (a sample with its 8 KB stack copy is queued by reference,
 * not copied). */
struct pd_chunk {
	size_t refs;
	unsigned char data[];
};

struct qent {                         /* a queued kernel record */
	uint64_t ts, seq, off;
	size_t len;
	const struct pd_attr *attr;
	const unsigned char *data;    /* in chunk (the source's, or the copy arena) */
	struct pd_chunk *chunk;       /* holds one reference */
};

struct perfdata {
	/* source */
	int fd;
	int seekable;
	int dirfd;                    /* directory format (perf record --threads): */
	int own_fd;                   /* fd is ours (opened in the directory) */
	char **dfiles;                /* the data.N files still to read, in order */
	int ndfiles, capdfiles, dnext;
	unsigned char *mem;           /* memory-backed input (owned) */
	size_t memlen;
	uint64_t fsize;               /* file size when known */
	int be;                       /* the file is big-endian */
	int pipe;
	unsigned flags;

	unsigned char *tdata;         /* perf's tracing data (HEADER_TRACING_DATA, */
	size_t tdlen;                 /* or pipe mode's TRACING_DATA record) */
	int tdpending;                /* not yet delivered as a TRACEDATA event */

	unsigned char *ustack;        /* the current sample's user stack copy */
	size_t ustack_cap;

	/* file mode layout */
	uint64_t data_off, data_size, data_end;
	uint64_t feat[4];

	/* the raw stream */
	unsigned char *ibuf;          /* = ichunk->data */
	struct pd_chunk *ichunk;
	size_t icap, ipos, ilen;
	uint64_t ioff;                /* stream offset of ibuf[ipos] */
	uint64_t spos;                /* stream offset of the next byte to fetch */
	int ieof;                     /* the source has no more bytes */
	uint64_t skip_pending;        /* bytes still to skip (AUXTRACE payloads) */

	/* zstd */
	ZSTD_DStream *zd;
	unsigned char *dbuf;
	size_t dcap, dpos, dlen;
	uint64_t doff;                /* offset of the COMPRESSED record being drained */
	int nested;                   /* the last raw record came out of dbuf */

	/* attrs and ids */
	struct pd_attr **attrs;       /* each allocated alone: pointers stay valid */
	int nattrs, acap;
	struct pd_id { uint64_t id; int attr; } *idv;   /* id -> attr index, */
	size_t nidv, capidv;
	struct hidx idix;             /* indexed by id */
	int id_pos, is_pos;           /* of the first attr, as perf */
	int announced_all;

	/* build ids */
	struct pd_bid *bids;
	int nbids, bcap;
	struct hidx bidx;             /* of bids by path: the last one of a path */

	/* features */
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid, *cmdline;
	int nr_cpus;
	uint32_t clk_id;
	uint64_t clk_tod, clk_ns;
	int have_clock;

	/* ordering: q[qh..qn) are the queued records, q[qh..qs) of them in
	 * time order, q[qs..qn) as they arrived since (reader_queue.c) */
	int ordered;
	struct qent *q, *qtmp;        /* qtmp: the merge's other half, same size */
	size_t qh, qs, qn, qcap;
	struct pd_chunk *cchunk;      /* the copy arena (records out of dbuf) */
	size_t cpos, ccap;
	uint64_t qbytes, seq;
	uint64_t max_ts, next_flush, flush_limit, last_flush;
	int flushing, forcing;

	/* delivery */
	int header_done;
	int input_done;               /* no more raw records (EOF or damage) */
	unsigned char *rec;           /* the record being translated (copy) */
	size_t reccap;
	struct qent curq;             /* or this queued one (released at the next pop) */
	const unsigned char *cur;
	size_t curlen;
	uint64_t curoff;
	const struct pd_attr *curattr;
	int cursub, curactive;
	uint64_t last_time;
	size_t count;

	/* the direct sample path (perfdata__set_sample_sink) */
	perfdata_sample_fn sink;
	void *sink_arg;
	uint64_t *spcs;               /* PMC_CALLCHAIN_DEPTH_MAX each */
	uint8_t *sflags;
	uint32_t sdepth;              /* pcs kept per chain: 1 (perfdata__set_sample_leaf)
	                               * or PMC_CALLCHAIN_DEPTH_MAX */
	int sunordered;               /* perfdata__set_sample_unordered */
	int szeros;                   /* perfdata__set_sample_zeros */
	int norder_seen;              /* file_order (reader.c): attrs looked at */
	int file_order;               /* ... and what they allow */

	char verbuf[80];

	/* errors */
	int err;                      /* sticky errno once the queue is drained */
	int pend_err;                 /* damage seen: deliver the queue, then fail */
	int truncated;
	int feat_cut, feat_n;         /* feature sections announced but cut off, of feat_n */
	char errmsg[512];             /* why, kept until the error is delivered */
	struct perfdata_stats st;
};


/* ---- byte order --------------------------------------------------------- */

/* Loads in the file's byte order: one load (and a swap for the other
 * order), inline everywhere, as the record loops want them. */
static inline __attribute__((always_inline)) uint16_t ld16(const struct perfdata *p,
    const unsigned char *b)
{
	uint16_t v;
	memcpy(&v, b, sizeof(v));
	return !!p->be == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ? v : __builtin_bswap16(v);
}

static inline __attribute__((always_inline)) uint32_t ld32(const struct perfdata *p,
    const unsigned char *b)
{
	return psample__ld32(b, p->be);
}

static inline __attribute__((always_inline)) uint64_t ld64(const struct perfdata *p,
    const unsigned char *b)
{
	return psample__ld64(b, p->be);
}

/* reader_source.c: the bytes, their order, the zstd stream, errors */
int pd_set_err(struct perfdata *p, int e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
uint64_t pd_ld_bits(const struct perfdata *p, const unsigned char *b);
ssize_t pd_src_pread(struct perfdata *p, void *buf, size_t n, uint64_t off);
size_t pd_ensure(struct perfdata *p, size_t n);
void pd_consume(struct perfdata *p, size_t n);
void pd_skip_bytes(struct perfdata *p, uint64_t n);
int pd_decompress(struct perfdata *p, const unsigned char *src, size_t n);

/* reader_header.c: attrs and ids, features, opening */
int pd_id_get(const struct perfdata *p, uint64_t id);
size_t pd_parse_attr(struct perfdata *p, const unsigned char *b, size_t avail,
    struct perfdata_attr *a, uint32_t *nregs_user, uint32_t *nregs_intr);
int pd_add_attr(struct perfdata *p, const struct perfdata_attr *a,
    uint32_t nru, uint32_t nri, const unsigned char *ids, size_t nids);
void pd_set_attr_name(struct perfdata *p, struct pd_attr *a, const char *name,
    size_t maxlen);
void pd_parse_feature(struct perfdata *p, int feat, const unsigned char *b, size_t n);
size_t pd_peek_raw(struct perfdata *p);
/* Keep n bytes of tracing data (they replace any before) for delivery. */
void pd_set_tracing_data(struct perfdata *p, const unsigned char *b, size_t n);
/* Read n stream bytes that follow a record into dst: how many were there
 * (fewer at a cut: then truncated). */
size_t pd_take_bytes(struct perfdata *p, unsigned char *dst, uint64_t n);

/* reader_buildid.c: build ids */
const struct pd_bid *pd_bid_find(const struct perfdata *p, const char *path);
void pd_add_buildid(struct perfdata *p, const unsigned char *b, size_t len);
void pd_parse_buildid_section(struct perfdata *p, const unsigned char *b, size_t len);

/* reader_queue.c: a kernel record's attr and time, the ordering queue */
void pd_flush_round(struct perfdata *p);
const struct pd_attr *pd_rec_attr(const struct perfdata *p, const unsigned char *r,
    size_t len, uint32_t type);
int pd_parse_trailer(const struct perfdata *p, const struct pd_attr *a,
    const unsigned char *r, size_t len, struct psample_trailer *t);
uint64_t pd_rec_time(const struct perfdata *p, const struct pd_attr *a,
    const unsigned char *r, size_t len, uint32_t type);
/* Queue record r (len bytes, just read, stream offset off, time ts): a
 * reference into the source's chunk, or a copy in the copy arena when r is
 * elsewhere (decompressed data).  0, or -ENOMEM. */
int pd_q_add(struct perfdata *p, const unsigned char *r, size_t len, uint64_t ts,
    uint64_t off, const struct pd_attr *a);
/* The oldest queued record (time, then arrival), or NULL when none. */
const struct qent *pd_q_peek(struct perfdata *p);
/* Take the oldest queued record into p->curq (the queue must not be empty);
 * the record curq held before is released. */
void pd_q_pop(struct perfdata *p);
/* Release the oldest queued record, which pd_q_peek gave and which was
 * dealt with in place (the direct sample path). */
void pd_q_drop(struct perfdata *p);
/* Release everything queued, curq and the copy arena (closing). */
void pd_q_release(struct perfdata *p);
void pd_chunk_put(struct pd_chunk *c);

/* reader_translate.c: one kernel record -> struct pmclog_ev */
void pd_set_time(struct pmclog_ev *ev, uint64_t t);
int pd_translate(struct perfdata *p, const struct pd_attr *a, const unsigned char *r,
    size_t len, int sub, struct pmclog_ev *ev);

/* reader_sample.c: the direct sample path */
/* Work out a's sample layout (pd_add_attr). */
void pd_attr_layout(struct pd_attr *a);
/* Does the sink take a's samples?  Those without user registers always;
 * DWARF ones when it wants leaves only (nothing to unwind then). */
static inline int pd_sink_takes(const struct perfdata *p, const struct pd_attr *a)
{
	return a->direct || p->sdepth == 1;
}
/* SAMPLE r (len bytes) of attr a to the sink: 1 when done with (handed
 * out, or dropped as the event path drops it), 0 when the event path must
 * take it (user registers to unwind). */
int pd_direct_sample(struct perfdata *p, const struct pd_attr *a, const unsigned char *r,
    size_t len);

/* The SAMPLE records of direct attrs at b (avail bytes of the raw stream)
 * to the sink, one after the other, as next_record would hand each
 * (perfdata__set_sample_unordered): stops before the first record that is
 * anything else (another type, an unknown id, one cut by the buffer's end,
 * a bad size) and returns the bytes it took, whole records, each counted. */
size_t pd_direct_run(struct perfdata *p, const unsigned char *b, size_t avail);

/* reader.c: user records and delivery */
int pd_process_user(struct perfdata *p, const unsigned char *r, size_t len,
    uint32_t type);

#endif
