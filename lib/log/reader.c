/*
 * reader.c — the streaming log parser behind pmclog_open / pmclog_feed /
 * pmclog_read / pmclog_close (include/pmclog.h, docs/log-format.md).
 *
 * Bytes come from an fd (read(2) in chunks: works on pipes and on files
 * still being written) or from pmclog_feed().  They pass through the 8-byte
 * file magic, then either straight into the record buffer (raw logs) or
 * through a zstd streaming decompressor (compressed logs).  Records are
 * decoded from the record buffer only when complete, so a log cut at any
 * byte yields every record before the cut and then EOF with the truncated
 * flag.  Unknown record types are skipped by their length.
 *
 * A bare record stream (no file magic, no HEADER: the records FreeBSD's
 * readers write back with pl_data/pl_len, as usr.sbin/pmc's filter does,
 * INITIALIZE first) is read too, as FreeBSD's libpmc reads its logs; and a
 * FreeBSD client's pl_data is always a record such a stream can hold on
 * its own (an interned call chain comes as a whole CALLCHAIN).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <zstd.h>

#include "pmclog.h"
#include "common/error.h"
#include "common/grow.h"
#include "log/format.h"
#include "log/records.h"

#define IN_CHUNK   (64 * 1024)
#define RB_MINFREE (128 * 1024)

enum ps_mode { PS_MAGIC, PS_RAW, PS_ZSTD };

struct rchain {                       /* a CHAIN record, decoded */
	uint32_t pmcid, cf2, npc;
	int32_t pid;
	uintfptr_t pc[];              /* npc pcs, then npc pcflags bytes */
};

struct pmclog_parser {
	int fd;                       /* PMCLOG_FD_NONE: fed */
	int own_fd;
	int follow;
	int eof_fed;
	enum ps_mode mode;
	int error;                    /* errno once in PMCLOG_ERROR */
	char errmsg[256];

	unsigned char *in;            /* raw input not yet consumed */
	size_t in_pos, in_len, in_cap;
	off_t raw_total;              /* raw bytes received */

	unsigned char magic[PMCLOG_FILE_MAGIC_LEN];
	size_t magic_len;

	unsigned char *rb;            /* the record stream */
	size_t rb_start, rb_end, rb_cap;
	off_t rb_off;                 /* stream offset of rb[rb_start] */
	off_t last_end;               /* end of the last complete record */

	ZSTD_DStream *zd;
	int zmid;                     /* inside a zstd frame */
	int zflush;                   /* the decompressor may hold more output */

	size_t count;
	uint64_t skipped;
	int extensions;               /* deliver Linux-only record types (>= 64) */
	int header_seen, closed, truncated;
	int bare;                     /* a record stream without magic nor HEADER */
	unsigned char *flat;          /* a FreeBSD client's whole CALLCHAIN record */

	/* zstd logs' stack frames (PMCLOG_CC2_SIDESTACK, format 4) */
	int in_sf;                    /* inside one: sf_have of its sf_need bytes */
	unsigned char *sf;            /* its bytes (the header only when skipping) */
	size_t sf_have, sf_need, sf_cap;
	unsigned char *stacks;        /* the last one's content, stacks_len bytes */
	size_t stacks_len, stacks_cap;
	int skip_stacks;              /* pmclog_set_stacks(0): skipped undecoded */
	int stacks_skipped;           /* the last one was skipped */
	ZSTD_DCtx *sdc;
	unsigned char *whole;         /* a SIDESTACK sample with its stack put back */

	/* Format 2's interned call chains, by id (chains[id - 1]); as many as
	 * the highest id seen, at most PMCLOG_CHAIN_ID_MAX. */
	struct rchain **chains;
	size_t nchains;

	struct pmclog_ev_header hdr;
	char *hdr_strings;            /* chain of HEADER string blocks */
	char evname[4096];
};

static const char *const type_names[] = {
	[PMCLOG_TYPE_CLOSELOG] = "CLOSELOG",
	[PMCLOG_TYPE_DROPNOTIFY] = "DROPNOTIFY",
	[PMCLOG_TYPE_INITIALIZE] = "INITIALIZE",
	[PMCLOG_TYPE_PMCALLOCATE] = "PMCALLOCATE",
	[PMCLOG_TYPE_PMCATTACH] = "PMCATTACH",
	[PMCLOG_TYPE_PMCDETACH] = "PMCDETACH",
	[PMCLOG_TYPE_PROCCSW] = "PROCCSW",
	[PMCLOG_TYPE_PROCEXEC] = "PROCEXEC",
	[PMCLOG_TYPE_PROCEXIT] = "PROCEXIT",
	[PMCLOG_TYPE_PROCFORK] = "PROCFORK",
	[PMCLOG_TYPE_SYSEXIT] = "SYSEXIT",
	[PMCLOG_TYPE_USERDATA] = "USERDATA",
	[PMCLOG_TYPE_MAP_IN] = "MAP_IN",
	[PMCLOG_TYPE_MAP_OUT] = "MAP_OUT",
	[PMCLOG_TYPE_CALLCHAIN] = "CALLCHAIN",
	[PMCLOG_TYPE_PMCALLOCATEDYN] = "PMCALLOCATEDYN",
	[PMCLOG_TYPE_THR_CREATE] = "THR_CREATE",
	[PMCLOG_TYPE_THR_EXIT] = "THR_EXIT",
	[PMCLOG_TYPE_PROC_CREATE] = "PROC_CREATE",
	[PMCLOG_TYPE_HEADER] = "HEADER",
	[PMCLOG_TYPE_COMM] = "COMM",
	[PMCLOG_TYPE_THROTTLE] = "THROTTLE",
	[PMCLOG_TYPE_KSYMSRC] = "KSYMSRC",
	[PMCLOG_TYPE_KSYMBOL] = "KSYMBOL",
	[PMCLOG_TYPE_CHAIN] = "CHAIN",
	[PMCLOG_TYPE_CHAINSAMPLE] = "CHAINSAMPLE",
	[PMCLOG_TYPE_SWITCH] = "SWITCH",
	[PMCLOG_TYPE_TRACEDATA] = "TRACEDATA",
};

const char *pmclog_type_name(int type)
{
	if (type < 0 || (size_t)type >= sizeof(type_names) / sizeof(type_names[0]))
		return NULL;
	return type_names[type];
}

static int fail(struct pmclog_parser *p, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct pmclog_parser *p, int err, const char *fmt, ...)
{
	va_list ap;

	if (!p->error) {
		p->error = err;
		va_start(ap, fmt);
		vsnprintf(p->errmsg, sizeof(p->errmsg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void *parser_new(int fd)
{
	struct pmclog_parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->fd = fd;
	p->in_cap = IN_CHUNK;
	p->in = malloc(p->in_cap);
	p->rb_cap = 2 * RB_MINFREE;
	p->rb = malloc(p->rb_cap);
	if (!p->in || !p->rb) {
		free(p->in);
		free(p->rb);
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	return p;
}

void *pmclog_open(int fd)
{
	return parser_new(fd);
}

void *pmclog_open_file(const char *path)
{
	struct pmclog_parser *p;
	int fd;

	if (!path || strcmp(path, "-") == 0)
		return parser_new(0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	p = parser_new(fd);
	if (!p) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	p->own_fd = 1;
	return p;
}

static void chains_reset(struct pmclog_parser *p)
{
	for (size_t i = 0; i < p->nchains; i++)
		free(p->chains[i]);
	free(p->chains);
	p->chains = NULL;
	p->nchains = 0;
}

void pmclog_close(void *cookie)
{
	struct pmclog_parser *p = cookie;

	if (!p)
		return;
	chains_reset(p);
	if (p->own_fd)
		close(p->fd);
	if (p->zd)
		ZSTD_freeDStream(p->zd);
	if (p->sdc)
		ZSTD_freeDCtx(p->sdc);
	free(p->in);
	free(p->rb);
	free(p->flat);
	free(p->sf);
	free(p->stacks);
	free(p->whole);
	while (p->hdr_strings) {
		char **blk = (char **)p->hdr_strings;
		p->hdr_strings = blk[0];
		free(blk);
	}
	free(p);
}

int pmclog_feed(void *cookie, char *data, int len)
{
	struct pmclog_parser *p = cookie;

	if (!p || p->fd != PMCLOG_FD_NONE || len < 0 || (len > 0 && !data)) {
		errno = EINVAL;
		return -1;
	}
	if (data == NULL && len == 0) {
		p->eof_fed = 1;
		return 0;
	}
	if (p->in_pos > 0) {
		memmove(p->in, p->in + p->in_pos, p->in_len - p->in_pos);
		p->in_len -= p->in_pos;
		p->in_pos = 0;
	}
	if (GROW_N(p->in, p->in_len, p->in_cap, (size_t)len) < 0) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(p->in + p->in_len, data, (size_t)len);
	p->in_len += (size_t)len;
	p->raw_total += len;
	return 0;
}

int pmclog_set_extensions(void *cookie, int on)
{
	struct pmclog_parser *p = cookie;
	if (!p) {
		errno = EINVAL;
		return -1;
	}
	p->extensions = on != 0;
	return 0;
}

int pmclog_set_follow(void *cookie, int on)
{
	struct pmclog_parser *p = cookie;

	if (!p) {
		errno = EINVAL;
		return -1;
	}
	p->follow = on != 0;
	return 0;
}

int pmclog_set_stacks(void *cookie, int on)
{
	struct pmclog_parser *p = cookie;

	if (!p) {
		errno = EINVAL;
		return -1;
	}
	p->skip_stacks = !on;
	return 0;
}

const struct pmclog_ev_header *pmclog_header(void *cookie)
{
	struct pmclog_parser *p = cookie;
	return p && p->header_seen ? &p->hdr : NULL;
}

int pmclog_truncated(void *cookie, off_t *at, off_t *last)
{
	struct pmclog_parser *p = cookie;

	if (!p)
		return 0;
	if (at)
		*at = p->rb_off + (off_t)(p->rb_end - p->rb_start);
	if (last)
		*last = p->last_end;
	return p->truncated;
}

const char *pmclog_errmsg(void *cookie)
{
	struct pmclog_parser *p = cookie;
	return p && p->error ? p->errmsg : "";
}

uint64_t pmclog_skipped(void *cookie)
{
	struct pmclog_parser *p = cookie;
	return p ? p->skipped : 0;
}

/* ---- input ----------------------------------------------------------- */

/* Follow mode at the end of the file: is its writer gone?  Only a writer
 * that said it holds the lock (PMCLOG_HDR_F_WRITER_LOCK) can be asked; a
 * shared lock we can take means nobody holds the exclusive one. */
static int writer_gone(struct pmclog_parser *p)
{
	if (!p->header_seen || !(p->hdr.pl_flags & PMCLOG_HDR_F_WRITER_LOCK))
		return 0;
	if (flock(p->fd, LOCK_SH | LOCK_NB) < 0)
		return 0;
	flock(p->fd, LOCK_UN);
	return 1;
}

/* 1: raw input available; 0: end of input; 2: none yet; -1: error. */
static int get_input(struct pmclog_parser *p)
{
	ssize_t n;

	if (p->in_pos < p->in_len || p->zflush)
		return 1;
	if (p->fd == PMCLOG_FD_NONE)
		return p->eof_fed ? 0 : 2;
	p->in_pos = p->in_len = 0;
	for (;;) {
		n = read(p->fd, p->in, p->in_cap);
		if (n > 0) {
			p->in_len = (size_t)n;
			p->raw_total += n;
			return 1;
		}
		if (n == 0 && p->follow && !p->closed && writer_gone(p)) {
			p->follow = 0;    /* read once more: what it wrote before dying */
			continue;
		}
		if (n == 0)
			return (p->follow && !p->closed) ? 2 : 0;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 2;
		return fail(p, errno, "read: %s", strerror(errno));
	}
}

/* Make room for at least `need` bytes at rb_end. */
static int rb_reserve(struct pmclog_parser *p, size_t need)
{
	if (p->rb_cap - p->rb_end >= need)
		return 0;
	if (p->rb_start > 0) {
		memmove(p->rb, p->rb + p->rb_start, p->rb_end - p->rb_start);
		p->rb_end -= p->rb_start;
		p->rb_start = 0;
	}
	if (GROW_N(p->rb, p->rb_end, p->rb_cap, need) < 0)
		return fail(p, ENOMEM, "out of memory");
	return 0;
}

/* Take the input's next bytes of a stack frame (PMCLOG_CC2_SIDESTACK): its
 * header, then its zstd frame, decoded into p->stacks once whole, or only
 * counted when the stacks are skipped.  0 (more input may be needed), -1
 * on error. */
static int stack_frame(struct pmclog_parser *p)
{
	size_t avail = p->in_len - p->in_pos;

	if (!p->in_sf) {
		p->in_sf = 1;
		p->sf_have = 0;
		p->sf_need = PMCLOG_STACK_FRAME_HDR;
	}
	size_t take = p->sf_need - p->sf_have < avail ? p->sf_need - p->sf_have : avail;
	int keep = !p->skip_stacks || p->sf_have < PMCLOG_STACK_FRAME_HDR;
	if (keep) {
		if (GROW_N(p->sf, p->sf_have, p->sf_cap, take) < 0)
			return fail(p, ENOMEM, "out of memory");
		memcpy(p->sf + p->sf_have, p->in + p->in_pos, take);
	}
	p->in_pos += take;
	p->sf_have += take;
	if (p->sf_have < p->sf_need)
		return 0;
	if (p->sf_need == PMCLOG_STACK_FRAME_HDR) {
		uint32_t size = pmclog__ld32(p->sf + 4);
		if (pmclog__ld32(p->sf) != PMCLOG_STACK_FRAME_MAGIC || size == 0 ||
		    size > ZSTD_COMPRESSBOUND(PMCLOG_STACK_FRAME_MAX))
			return fail(p, EILSEQ, "corrupt log: bad stack frame near byte %lld",
			    (long long)(p->raw_total - (off_t)(p->in_len - p->in_pos)));
		p->sf_need += size;
		return 0;
	}
	p->in_sf = 0;
	p->stacks_len = 0;
	p->stacks_skipped = p->skip_stacks;
	if (p->skip_stacks)
		return 0;
	const unsigned char *z = p->sf + PMCLOG_STACK_FRAME_HDR;
	size_t zlen = p->sf_need - PMCLOG_STACK_FRAME_HDR;
	unsigned long long n = ZSTD_getFrameContentSize(z, zlen);
	if (n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n > PMCLOG_STACK_FRAME_MAX)
		return fail(p, EILSEQ, "corrupt log: bad stack frame near byte %lld",
		    (long long)(p->raw_total - (off_t)(p->in_len - p->in_pos)));
	if ((!p->sdc && !(p->sdc = ZSTD_createDCtx())) ||
	    GROW_N(p->stacks, 0, p->stacks_cap, (size_t)n ? (size_t)n : 1) < 0)
		return fail(p, ENOMEM, "out of memory");
	size_t r = ZSTD_decompressDCtx(p->sdc, p->stacks, (size_t)n, z, zlen);
	if (ZSTD_isError(r) || r != n)
		return fail(p, EILSEQ, "corrupt stack frame near byte %lld: %s",
		    (long long)(p->raw_total - (off_t)(p->in_len - p->in_pos)),
		    ZSTD_isError(r) ? ZSTD_getErrorName(r) : "short");
	p->stacks_len = (size_t)n;
	return 0;
}

/* At the end of a zstd frame, before a stack frame: 1 when the records
 * decoded so far are to be read first (they take their stacks from the
 * stack frame before them, which the next one replaces), 0 when none are
 * left, -1 when a record is cut at the frame's end (corrupt). */
static int records_pending(struct pmclog_parser *p)
{
	size_t avail = p->rb_end - p->rb_start;
	if (!avail)
		return 0;
	if (avail >= PMCLOG_REC_HDR_LEN &&
	    PMCLOG_HDR_LEN(pmclog__ld32(p->rb + p->rb_start)) <= avail)
		return 1;
	return fail(p, EILSEQ, "corrupt log: a record cut at the end of a zstd frame "
	    "at offset %lld", (long long)p->rb_off);
}

/* Move raw input into the record stream.  -1 on error. */
static int consume_input(struct pmclog_parser *p)
{
	size_t avail = p->in_len - p->in_pos;

	if (p->mode == PS_MAGIC) {
		size_t n = PMCLOG_FILE_MAGIC_LEN - p->magic_len;
		if (n > avail)
			n = avail;
		memcpy(p->magic + p->magic_len, p->in + p->in_pos, n);
		p->magic_len += n;
		p->in_pos += n;
		/* A mismatch is known as soon as the first byte differs; a
		 * stream that starts with a record header instead is bare. */
		if (p->magic[0] != (unsigned char)PMCLOG_FILE_MAGIC_RAW[0]) {
			/* a record's length, a multiple of 8, starts it */
			if (p->magic[0] & 7)
				return fail(p, ENOEXEC, "not a pmc log (bad magic)");
			if (p->magic_len < 4)
				return 0;
			if (PMCLOG_HDR_MAGIC(pmclog__ld32(p->magic)) != PMCLOG_REC_MAGIC)
				return fail(p, ENOEXEC, "not a pmc log (bad magic)");
			if (rb_reserve(p, p->magic_len) < 0)
				return -1;
			memcpy(p->rb + p->rb_end, p->magic, p->magic_len);
			p->rb_end += p->magic_len;
			p->mode = PS_RAW;
			p->bare = 1;
			p->rb_off = p->last_end = 0;
			return 0;
		}
		if (memcmp(p->magic, PMCLOG_FILE_MAGIC_RAW, p->magic_len < 7 ? p->magic_len : 7) != 0)
			return fail(p, ENOEXEC, "not a pmc log (bad magic)");
		if (p->magic_len < PMCLOG_FILE_MAGIC_LEN)
			return 0;
		if (p->magic[7] == (unsigned char)PMCLOG_FILE_MAGIC_RAW[7]) {
			p->mode = PS_RAW;
		} else if (p->magic[7] == (unsigned char)PMCLOG_FILE_MAGIC_ZSTD[7]) {
			p->mode = PS_ZSTD;
			p->zd = ZSTD_createDStream();
			if (!p->zd || ZSTD_isError(ZSTD_initDStream(p->zd)))
				return fail(p, ENOMEM, "cannot create a zstd decompressor");
		} else {
			return fail(p, ENOEXEC, "not a pmc log (bad magic)");
		}
		p->rb_off = p->last_end = PMCLOG_FILE_MAGIC_LEN;
		return 0;
	}
	if (p->mode == PS_RAW) {
		if (rb_reserve(p, avail) < 0)
			return -1;
		memcpy(p->rb + p->rb_end, p->in + p->in_pos, avail);
		p->rb_end += avail;
		p->in_pos += avail;
		return 0;
	}
	/* zstd: decompress what we have; stop when enough output is pending */
	for (;;) {
		ZSTD_inBuffer ib = { p->in, p->in_len, p->in_pos };
		ZSTD_outBuffer ob;
		size_t r;

		if (p->rb_end - p->rb_start >= 2 * PMCLOG_REC_MAX)
			break;
		if (p->in_pos >= p->in_len && !p->zflush)
			break;
		/* between frames: a stack frame (its first byte tells it from
		 * a zstd frame's), taken whole before the frame after it */
		if (!p->zmid && !p->zflush &&
		    (p->in_sf || p->in[p->in_pos] == (PMCLOG_STACK_FRAME_MAGIC & 0xFF))) {
			int pend = p->in_sf ? 0 : records_pending(p);
			if (pend < 0)
				return -1;
			if (pend)
				break;
			if (stack_frame(p) < 0)
				return -1;
			continue;
		}
		if (rb_reserve(p, RB_MINFREE) < 0)
			return -1;
		ob.dst = p->rb + p->rb_end;
		ob.size = p->rb_cap - p->rb_end;
		ob.pos = 0;
		r = ZSTD_decompressStream(p->zd, &ob, &ib);
		if (ZSTD_isError(r))
			return fail(p, EILSEQ, "corrupt compressed data near byte %lld: %s",
			    (long long)(p->raw_total - (off_t)(p->in_len - ib.pos)),
			    ZSTD_getErrorName(r));
		p->in_pos = ib.pos;
		p->rb_end += ob.pos;
		p->zmid = r != 0;
		p->zflush = r != 0 && ob.pos == ob.size;   /* 0: the frame is done and flushed */
	}
	return 0;
}

/* ---- decoding -------------------------------------------------------- */

/* Copy a NUL-terminated string from src (at most avail bytes) into dst;
 * returns the bytes it occupied in src (NUL included). */
static size_t getstr(char *dst, size_t dstsz, const unsigned char *src, size_t avail)
{
	size_t n = strnlen((const char *)src, avail);
	size_t c = n < dstsz - 1 ? n : dstsz - 1;

	memcpy(dst, src, c);
	dst[c] = '\0';
	return n < avail ? n + 1 : n;
}

#define L32(off) pmclog__ld32(pl + (off))
#define L64(off) pmclog__ld64(pl + (off))

static int decode_header(struct pmclog_parser *p, const unsigned char *pl, size_t plen,
    struct pmclog_ev_header *h)
{
	const char **slots[] = { &h->pl_libversion, &h->pl_hostname, &h->pl_kernel,
	    &h->pl_cpudesc, &h->pl_cmdline };
	size_t slen = plen - PMCLOG_MIN_HEADER, pos = 0;
	char *s;


	h->pl_format_major = L32(0);
	h->pl_format_minor = L32(4);
	h->pl_version = L32(8);
	h->pl_clockid = L32(12);
	h->pl_start_realtime = L64(16);
	h->pl_start_clock = L64(24);
	h->pl_flags = L32(32);
	h->pl_arch = L32(36);
	if (h->pl_format_major < PMCLOG_FORMAT_MAJOR_MIN || h->pl_format_major > PMCLOG_FORMAT_MAJOR)
		return fail(p, EPROTONOSUPPORT,
		    "log format version %u is not supported (this reader reads versions %u to %u)",
		    h->pl_format_major, PMCLOG_FORMAT_MAJOR_MIN, PMCLOG_FORMAT_MAJOR);
	/* a new log (concatenated logs): the chain ids of the last one are void */
	chains_reset(p);
	/* Keep one copy of the strings for the life of the parser. */
	/* A block per HEADER seen (concatenated logs have several), chained
	 * so that strings handed out stay valid until pmclog_close(). */
	{
		char **blk = malloc(sizeof(char *) + slen + 8);
		if (!blk)
			return fail(p, ENOMEM, "out of memory");
		blk[0] = p->hdr_strings;
		p->hdr_strings = (char *)blk;
		s = (char *)(blk + 1);
	}
	memcpy(s, pl + PMCLOG_MIN_HEADER, slen);
	memset(s + slen, 0, 8);
	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		*slots[i] = s + pos;
		pos += strnlen(s + pos, slen - pos) + 1;
		if (pos > slen)
			pos = slen;     /* the rest are "" */
	}
	return 0;
}

static void set_evname(struct pmclog_parser *p, const unsigned char *src, size_t avail)
{
	getstr(p->evname, sizeof(p->evname), src, avail);
}

/* The pcs of a CALLCHAIN or CHAIN record (at pl, plen bytes left) and
 * their user/kernel flags, in either form cpuflags2 allows.  The bytes
 * they took, or 0 if they do not fit or n is out of range. */
static size_t decode_pcs(const unsigned char *pl, size_t plen, uint32_t n, uint32_t cf2,
    uintfptr_t *pc, uint8_t *flags)
{
	int kprefix = (cf2 & PMCLOG_CC2_KPREFIX) != 0;
	uint32_t nk = cf2 & PMCLOG_CC2_KCOUNT;
	size_t need = 8 * ((size_t)n + (kprefix ? 0 : (n + 63) / 64));
	const unsigned char *mask = pl + 8 * (size_t)n;

	if (n == 0 || n > PMC_CALLCHAIN_DEPTH_MAX || (kprefix && nk > n) || plen < need)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		pc[i] = L64(8 * i);
		if (kprefix)
			flags[i] = i < nk ? 0 : PMC_CC_F_USERSPACE;
		else
			flags[i] = (mask[i / 8] >> (i % 8)) & 1 ? PMC_CC_F_USERSPACE : 0;
	}
	return need;
}

/* Keep the chain of cc (its pmcid, pid, split and pcs) under id, replacing
 * what the id meant: a CHAIN record (format 2) or a CALLCHAIN that defines
 * its chain (format 3). */
static int chain_keep(struct pmclog_parser *p, uint32_t id, const struct pmclog_ev_callchain *cc,
    off_t off)
{
	uint32_t n = cc->pl_npc;
	struct rchain *c;

	if (id == 0 || id > PMCLOG_CHAIN_ID_MAX ||
	    (cc->pl_cpuflags2 & (PMCLOG_CC2_USTACK | PMCLOG_CC2_RAW)))
		return fail(p, EILSEQ, "record at offset %lld: bad chain id %u, a user stack or a raw payload",
		    (long long)off, id);
	c = malloc(sizeof(*c) + (sizeof(uintfptr_t) + 1) * (size_t)n);
	if (!c)
		return fail(p, ENOMEM, "out of memory");
	c->pmcid = cc->pl_pmcid;
	c->pid = (int32_t)cc->pl_pid;
	c->cf2 = cc->pl_cpuflags2;
	c->npc = n;
	memcpy(c->pc, cc->pl_pc, n * sizeof(uintfptr_t));
	memcpy(c->pc + n, cc->pl_pcflags, n);
	if (id > p->nchains) {
		size_t nn = grow__cap(p->nchains, id, 256);
		struct rchain **t;
		if (nn > PMCLOG_CHAIN_ID_MAX)
			nn = PMCLOG_CHAIN_ID_MAX;
		t = realloc(p->chains, nn * sizeof(*t));
		if (!t) {
			free(c);
			return fail(p, ENOMEM, "out of memory");
		}
		memset(t + p->nchains, 0, (nn - p->nchains) * sizeof(*t));
		p->chains = t;
		p->nchains = nn;
	}
	free(p->chains[id - 1]);
	p->chains[id - 1] = c;
	return 0;
}

/* A CHAIN record (format 2): decoded into pl_cc and kept under its id. */
static int decode_chain(struct pmclog_parser *p, const unsigned char *pl, size_t plen,
    struct pmclog_ev *ev)
{
	struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	uint32_t n = L32(16);

	cc->pl_chain = L32(0);
	cc->pl_raw_flags = cc->pl_raw_len = 0;
	cc->pl_raw = NULL;
	cc->pl_pmcid = L32(4);
	cc->pl_pid = L32(8);
	cc->pl_cpuflags2 = L32(12);
	cc->pl_npc = n;
	if (decode_pcs(pl + PMCLOG_MIN_CHAIN, plen - PMCLOG_MIN_CHAIN, n, cc->pl_cpuflags2,
	    cc->pl_pc, cc->pl_pcflags) == 0)
		return fail(p, EILSEQ, "CHAIN record at offset %lld: bad length for %u pcs",
		    (long long)ev->pl_offset, n);
	return chain_keep(p, cc->pl_chain, cc, ev->pl_offset);
}

/* A CHAINSAMPLE: the CALLCHAIN it stands for. */
static int decode_chainsample(struct pmclog_parser *p, const unsigned char *pl,
    struct pmclog_ev *ev)
{
	struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	uint32_t id = L32(0);
	const struct rchain *c = id && id <= p->nchains ? p->chains[id - 1] : NULL;

	if (!c)
		return fail(p, EILSEQ, "CHAINSAMPLE record at offset %lld: chain %u is not defined",
		    (long long)ev->pl_offset, id);
	ev->pl_type = PMCLOG_TYPE_CALLCHAIN;
	cc->pl_pmcid = c->pmcid;
	cc->pl_pid = (uint32_t)c->pid;
	cc->pl_tid = L32(4);
	cc->pl_cpuflags = L32(8);
	cc->pl_cpuflags2 = c->cf2;
	cc->pl_npc = c->npc;
	cc->pl_period = L32(12);
	cc->pl_cpu = PMC_CALLCHAIN_CPUFLAGS_TO_CPU(cc->pl_cpuflags);
	cc->pl_usermode = PMC_CALLCHAIN_CPUFLAGS_TO_USERMODE(cc->pl_cpuflags);
	cc->pl_time = ev->pl_time;
	memcpy(cc->pl_pc, c->pc, c->npc * sizeof(uintfptr_t));
	memcpy(cc->pl_pcflags, c->pc + c->npc, c->npc);
	cc->pl_nuregs = 0;
	cc->pl_ustack_len = 0;
	cc->pl_ustack = NULL;
	cc->pl_chain = id;
	cc->pl_raw_flags = cc->pl_raw_len = 0;
	cc->pl_raw = NULL;
	return 0;
}

/* The CALLCHAIN record's user registers and stack, at pl + off: the offset
 * after them, or 0 if they do not decode. */
static size_t decode_ustack(struct pmclog_ev_callchain *cc, const unsigned char *pl, size_t plen,
    size_t off)
{
	uint32_t nr, len;

	if (plen < off || plen - off < PMCLOG_USTACK_MIN)
		return 0;
	cc->pl_uregs_abi = pmclog__ld32(pl + off);
	nr = pmclog__ld32(pl + off + 4);
	cc->pl_uregs_mask = pmclog__ld64(pl + off + 8);
	if (nr > 64 || nr != (uint32_t)__builtin_popcountll(cc->pl_uregs_mask) ||
	    plen - off - PMCLOG_USTACK_MIN < 8 * (size_t)nr)
		return 0;
	for (uint32_t i = 0; i < nr; i++)
		cc->pl_uregs[i] = pmclog__ld64(pl + off + 16 + 8 * i);
	off += 16 + 8 * (size_t)nr;
	len = pmclog__ld32(pl + off);
	cc->pl_nuregs = nr;
	if (cc->pl_cpuflags2 & PMCLOG_CC2_SIDESTACK) {
		/* in the stack frame, skipped (next_record puts the stack
		 * back in the record when stacks are read) */
		if (plen - off < 16)
			return 0;
		cc->pl_ustack_len = 0;
		cc->pl_ustack = NULL;
		return off + 16;
	}
	if (len > plen - off - 8)
		return 0;
	cc->pl_ustack_len = len;
	cc->pl_ustack = len ? pl + off + 8 : NULL;
	return (off + 8 + len + 7) & ~(size_t)7;
}

/* The CALLCHAIN record's raw payload (format 3.1), at pl + off: 0, or -1
 * if it does not decode. */
static int decode_raw(struct pmclog_ev_callchain *cc, const unsigned char *pl, size_t plen,
    size_t off)
{
	uint32_t len;

	if (plen < off || plen - off < PMCLOG_RAW_MIN)
		return -1;
	len = pmclog__ld32(pl + off + 4);
	if (len > plen - off - PMCLOG_RAW_MIN)
		return -1;
	cc->pl_raw_flags = pmclog__ld32(pl + off);
	cc->pl_raw_len = len;
	cc->pl_raw = len ? pl + off + PMCLOG_RAW_MIN : NULL;
	return 0;
}

/* 0 decoded, 1 unknown type (skip), -1 error.  aux: the record header's
 * spare word. */
static int decode(struct pmclog_parser *p, int type, uint32_t aux, const unsigned char *pl,
    size_t plen, struct pmclog_ev *ev)
{
	static const uint16_t minlen[] = {
		[PMCLOG_TYPE_CLOSELOG] = PMCLOG_MIN_CLOSELOG,
		[PMCLOG_TYPE_DROPNOTIFY] = PMCLOG_MIN_DROPNOTIFY,
		[PMCLOG_TYPE_INITIALIZE] = PMCLOG_MIN_INITIALIZE,
		[PMCLOG_TYPE_PMCALLOCATE] = PMCLOG_MIN_PMCALLOCATE,
		[PMCLOG_TYPE_PMCATTACH] = PMCLOG_MIN_PMCATTACH,
		[PMCLOG_TYPE_PMCDETACH] = PMCLOG_MIN_PMCDETACH,
		[PMCLOG_TYPE_PROCCSW] = PMCLOG_MIN_PROCCSW,
		[PMCLOG_TYPE_PROCEXEC] = PMCLOG_MIN_PROCEXEC,
		[PMCLOG_TYPE_PROCEXIT] = PMCLOG_MIN_PROCEXIT,
		[PMCLOG_TYPE_PROCFORK] = PMCLOG_MIN_PROCFORK,
		[PMCLOG_TYPE_SYSEXIT] = PMCLOG_MIN_SYSEXIT,
		[PMCLOG_TYPE_USERDATA] = PMCLOG_MIN_USERDATA,
		[PMCLOG_TYPE_MAP_IN] = PMCLOG_MIN_MAP_IN,
		[PMCLOG_TYPE_MAP_OUT] = PMCLOG_MIN_MAP_OUT,
		[PMCLOG_TYPE_CALLCHAIN] = PMCLOG_MIN_CALLCHAIN,
		[PMCLOG_TYPE_PMCALLOCATEDYN] = PMCLOG_MIN_PMCALLOCATEDYN,
		[PMCLOG_TYPE_THR_CREATE] = PMCLOG_MIN_THR_CREATE,
		[PMCLOG_TYPE_THR_EXIT] = PMCLOG_MIN_THR_EXIT,
		[PMCLOG_TYPE_PROC_CREATE] = PMCLOG_MIN_PROC_CREATE,
		[PMCLOG_TYPE_HEADER] = PMCLOG_MIN_HEADER,
		[PMCLOG_TYPE_COMM] = PMCLOG_MIN_COMM,
		[PMCLOG_TYPE_THROTTLE] = PMCLOG_MIN_THROTTLE,
		[PMCLOG_TYPE_KSYMSRC] = PMCLOG_MIN_KSYMSRC,
		[PMCLOG_TYPE_KSYMBOL] = PMCLOG_MIN_KSYMBOL,
		[PMCLOG_TYPE_CHAIN] = PMCLOG_MIN_CHAIN,
		[PMCLOG_TYPE_CHAINSAMPLE] = PMCLOG_MIN_CHAINSAMPLE,
		[PMCLOG_TYPE_SWITCH] = PMCLOG_MIN_SWITCH,
		[PMCLOG_TYPE_TRACEDATA] = PMCLOG_MIN_TRACEDATA,
	};

	if (!pmclog_type_name(type))
		return 1;
	if (plen < minlen[type])
		return fail(p, EILSEQ, "%s record at offset %lld is too short (%zu bytes)",
		    pmclog_type_name(type), (long long)ev->pl_offset, plen + PMCLOG_REC_HDR_LEN);

	switch (type) {
	case PMCLOG_TYPE_CLOSELOG:
		break;
	case PMCLOG_TYPE_DROPNOTIFY:
		ev->pl_u.pl_dn.pl_count = L64(0);
		ev->pl_u.pl_dn.pl_pmcid = L32(8);
		ev->pl_u.pl_dn.pl_cpu = (int32_t)L32(12);
		ev->pl_u.pl_dn.pl_reason = L32(16);
		break;
	case PMCLOG_TYPE_INITIALIZE: {
		uint64_t rt = L64(16);
		ev->pl_u.pl_i.pl_version = L32(0);
		ev->pl_u.pl_i.pl_arch = L32(4);
		ev->pl_u.pl_i.pl_tsc_freq = L64(8);
		ev->pl_u.pl_i.pl_ts.tv_sec = (time_t)(rt / 1000000000u);
		ev->pl_u.pl_i.pl_ts.tv_nsec = (long)(rt % 1000000000u);
		getstr(ev->pl_u.pl_i.pl_cpuid, PATH_MAX, pl + 24, plen - 24);
		break;
	}
	case PMCLOG_TYPE_PMCALLOCATE:
		ev->pl_u.pl_a.pl_pmcid = L32(0);
		ev->pl_u.pl_a.pl_event = L32(4);
		ev->pl_u.pl_a.pl_flags = L32(8);
		ev->pl_u.pl_a.pl_mode = L32(12);
		ev->pl_u.pl_a.pl_rate = L64(16);
		ev->pl_u.pl_a.pl_freq = L32(24);
		ev->pl_u.pl_a.pl_cpu = (int32_t)L32(28);
		set_evname(p, pl + 32, plen - 32);
		ev->pl_u.pl_a.pl_evname = p->evname;
		break;
	case PMCLOG_TYPE_PMCALLOCATEDYN:
		ev->pl_u.pl_ad.pl_pmcid = L32(0);
		ev->pl_u.pl_ad.pl_event = L32(4);
		ev->pl_u.pl_ad.pl_flags = L32(8);
		getstr(ev->pl_u.pl_ad.pl_evname, PMC_NAME_MAX, pl + 16, plen - 16);
		break;
	case PMCLOG_TYPE_PMCATTACH:
		ev->pl_u.pl_t.pl_pmcid = L32(0);
		ev->pl_u.pl_t.pl_pid = (pid_t)L32(4);
		getstr(ev->pl_u.pl_t.pl_pathname, PATH_MAX, pl + 8, plen - 8);
		break;
	case PMCLOG_TYPE_PMCDETACH:
		ev->pl_u.pl_d.pl_pmcid = L32(0);
		ev->pl_u.pl_d.pl_pid = (pid_t)L32(4);
		break;
	case PMCLOG_TYPE_PROCCSW:
		ev->pl_u.pl_c.pl_pmcid = L32(0);
		ev->pl_u.pl_c.pl_pid = (pid_t)L32(4);
		ev->pl_u.pl_c.pl_tid = (pid_t)L32(8);
		ev->pl_u.pl_c.pl_cpu = (int32_t)L32(12);
		ev->pl_u.pl_c.pl_value = L64(16);
		break;
	case PMCLOG_TYPE_PROCEXEC:
		ev->pl_u.pl_x.pl_pmcid = L32(0);
		ev->pl_u.pl_x.pl_pid = (pid_t)L32(4);
		ev->pl_u.pl_x.pl_tid = (pid_t)L32(8);
		ev->pl_u.pl_x.pl_baseaddr = (uintptr_t)L64(16);
		ev->pl_u.pl_x.pl_dynaddr = (uintptr_t)L64(24);
		getstr(ev->pl_u.pl_x.pl_pathname, PATH_MAX, pl + 32, plen - 32);
		break;
	case PMCLOG_TYPE_PROCEXIT:
		ev->pl_u.pl_e.pl_pmcid = L32(0);
		ev->pl_u.pl_e.pl_pid = L32(4);
		ev->pl_u.pl_e.pl_tid = (pid_t)L32(8);
		ev->pl_u.pl_e.pl_value = L64(16);
		break;
	case PMCLOG_TYPE_PROCFORK:
		ev->pl_u.pl_f.pl_oldpid = (pid_t)L32(0);
		ev->pl_u.pl_f.pl_newpid = (pid_t)L32(4);
		ev->pl_u.pl_f.pl_oldtid = (pid_t)L32(8);
		ev->pl_u.pl_f.pl_newtid = (pid_t)L32(12);
		break;
	case PMCLOG_TYPE_SYSEXIT:
		ev->pl_u.pl_se.pl_pid = (pid_t)L32(0);
		break;
	case PMCLOG_TYPE_USERDATA:
		ev->pl_u.pl_u.pl_userdata = L32(0);
		break;
	case PMCLOG_TYPE_MAP_IN: {
		struct pmclog_ev_map_in *m = &ev->pl_u.pl_mi;
		m->pl_pid = (pid_t)L32(0);
		m->pl_buildid_len = L32(4);
		if (m->pl_buildid_len > 20)
			return fail(p, EILSEQ, "MAP_IN record at offset %lld: build id of %u bytes",
			    (long long)ev->pl_offset, m->pl_buildid_len);
		m->pl_start = L64(8);
		m->pl_len = L64(16);
		m->pl_pgoff = L64(24);
		m->pl_prot = L32(32);
		m->pl_mflags = L32(36);
		memcpy(m->pl_buildid, pl + 40, 20);
		getstr(m->pl_pathname, PATH_MAX, pl + 64, plen - 64);
		break;
	}
	case PMCLOG_TYPE_MAP_OUT:
		ev->pl_u.pl_mo.pl_pid = (pid_t)L32(0);
		ev->pl_u.pl_mo.pl_start = L64(8);
		ev->pl_u.pl_mo.pl_end = L64(16);
		break;
	case PMCLOG_TYPE_CALLCHAIN: {
		struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
		uint32_t n = L32(20), cf2 = L32(16);
		size_t used = decode_pcs(pl + PMCLOG_MIN_CALLCHAIN, plen - PMCLOG_MIN_CALLCHAIN, n, cf2,
		    cc->pl_pc, cc->pl_pcflags);
		if (used == 0)
			return fail(p, EILSEQ, "CALLCHAIN record at offset %lld: bad length for %u pcs",
			    (long long)ev->pl_offset, n);
		cc->pl_pmcid = L32(0);
		cc->pl_pid = L32(4);
		cc->pl_tid = L32(8);
		cc->pl_cpuflags = L32(12);
		cc->pl_cpuflags2 = cf2;
		cc->pl_npc = n;
		cc->pl_period = L64(24);
		cc->pl_cpu = PMC_CALLCHAIN_CPUFLAGS_TO_CPU(cc->pl_cpuflags);
		cc->pl_usermode = PMC_CALLCHAIN_CPUFLAGS_TO_USERMODE(cc->pl_cpuflags);
		cc->pl_time = ev->pl_time;
		cc->pl_nuregs = 0;
		cc->pl_ustack_len = 0;
		cc->pl_ustack = NULL;
		cc->pl_chain = 0;
		cc->pl_raw_flags = cc->pl_raw_len = 0;
		cc->pl_raw = NULL;
		size_t end = PMCLOG_MIN_CALLCHAIN + used;
		if ((cf2 & PMCLOG_CC2_USTACK) && !(end = decode_ustack(cc, pl, plen, end)))
			return fail(p, EILSEQ, "CALLCHAIN record at offset %lld: bad user stack",
			    (long long)ev->pl_offset);
		if ((cf2 & PMCLOG_CC2_RAW) && decode_raw(cc, pl, plen, end) < 0)
			return fail(p, EILSEQ, "CALLCHAIN record at offset %lld: bad raw payload",
			    (long long)ev->pl_offset);
		/* format 3: the first sample of a chain defines its id (the
		 * header's spare word, 0 before format 3 and for a chain that
		 * is not interned) */
		if (aux && (p->bare || p->hdr.pl_format_major >= 3)) {
			if (chain_keep(p, aux, cc, ev->pl_offset) < 0)
				return -1;
			cc->pl_chain = aux;
		}
		break;
	}
	case PMCLOG_TYPE_CHAIN:
		if (decode_chain(p, pl, plen, ev) < 0)
			return -1;
		break;
	case PMCLOG_TYPE_CHAINSAMPLE:
		if (decode_chainsample(p, pl, ev) < 0)
			return -1;
		break;
	case PMCLOG_TYPE_THR_CREATE:
		ev->pl_u.pl_tc.pl_tid = (pid_t)L32(0);
		ev->pl_u.pl_tc.pl_pid = (pid_t)L32(4);
		ev->pl_u.pl_tc.pl_flags = L32(8);
		getstr(ev->pl_u.pl_tc.pl_tdname, MAXCOMLEN + 1, pl + 16, plen - 16);
		break;
	case PMCLOG_TYPE_THR_EXIT:
		ev->pl_u.pl_te.pl_tid = (pid_t)L32(0);
		ev->pl_u.pl_te.pl_pid = (pid_t)L32(4);
		break;
	case PMCLOG_TYPE_PROC_CREATE:
		ev->pl_u.pl_pc.pl_pid = (pid_t)L32(0);
		ev->pl_u.pl_pc.pl_flags = L32(4);
		getstr(ev->pl_u.pl_pc.pl_pcomm, MAXCOMLEN + 1, pl + 8, plen - 8);
		break;
	case PMCLOG_TYPE_HEADER:
		if (decode_header(p, pl, plen, &p->hdr) < 0)
			return -1;
		ev->pl_u.pl_h = p->hdr;
		break;
	case PMCLOG_TYPE_COMM:
		ev->pl_u.pl_cm.pl_pid = (pid_t)L32(0);
		ev->pl_u.pl_cm.pl_tid = (pid_t)L32(4);
		ev->pl_u.pl_cm.pl_flags = L32(8);
		getstr(ev->pl_u.pl_cm.pl_comm, MAXCOMLEN + 1, pl + 16, plen - 16);
		break;
	case PMCLOG_TYPE_TRACEDATA: {
		struct pmclog_ev_tracedata *t = &ev->pl_u.pl_td;
		t->pl_total = L64(0);
		t->pl_offset = L64(8);
		t->pl_len = L32(16);
		if (t->pl_len > plen - PMCLOG_MIN_TRACEDATA || t->pl_offset > t->pl_total ||
		    t->pl_len > t->pl_total - t->pl_offset)
			return fail(p, EILSEQ, "TRACEDATA record at offset %lld: %u bytes at %" PRIu64
			    " of %" PRIu64, (long long)ev->pl_offset, t->pl_len, t->pl_offset,
			    t->pl_total);
		t->pl_bytes = pl + PMCLOG_MIN_TRACEDATA;
		break;
	}
	case PMCLOG_TYPE_SWITCH:
		ev->pl_u.pl_sw.pl_pmcid = L32(0);
		ev->pl_u.pl_sw.pl_pid = (pid_t)L32(4);
		ev->pl_u.pl_sw.pl_tid = (pid_t)L32(8);
		ev->pl_u.pl_sw.pl_cpu = (int32_t)L32(12);
		ev->pl_u.pl_sw.pl_flags = L32(16);
		break;
	case PMCLOG_TYPE_THROTTLE:
		ev->pl_u.pl_th.pl_pmcid = L32(0);
		ev->pl_u.pl_th.pl_throttled = L32(4);
		ev->pl_u.pl_th.pl_cpu = (int32_t)L32(8);
		break;
	case PMCLOG_TYPE_KSYMSRC: {
		struct pmclog_ev_ksymsrc *k = &ev->pl_u.pl_ks;
		size_t used;
		k->pl_buildid_len = L32(0);
		if (k->pl_buildid_len > 20)
			return fail(p, EILSEQ, "KSYMSRC record at offset %lld: build id of %u bytes",
			    (long long)ev->pl_offset, k->pl_buildid_len);
		memcpy(k->pl_buildid, pl + 4, 20);
		used = getstr(k->pl_pathname, PATH_MAX, pl + 24, plen - 24);
		getstr(k->pl_release, sizeof(k->pl_release), pl + 24 + used, plen - 24 - used);
		break;
	}
	case PMCLOG_TYPE_KSYMBOL:
		ev->pl_u.pl_ksym.pl_addr = L64(0);
		ev->pl_u.pl_ksym.pl_len = L32(8);
		ev->pl_u.pl_ksym.pl_ksymtype = pmclog__ld16(pl + 12);
		ev->pl_u.pl_ksym.pl_flags = pmclog__ld16(pl + 14);
		getstr(ev->pl_u.pl_ksym.pl_name, sizeof(ev->pl_u.pl_ksym.pl_name), pl + 16, plen - 16);
		break;
	default:
		return 1;
	}
	return 0;
}

/*
 * A FreeBSD client writes pl_data/pl_len back as a record of its own
 * (usr.sbin/pmc's filter keeps some samples and drops others): an
 * interned chain's sample must not depend on a record it may drop.  So
 * for such a client the sample that defines a chain comes with its chain
 * id cleared, and a CHAINSAMPLE as the whole CALLCHAIN it stands for.
 */
static int flatten(struct pmclog_parser *p, const unsigned char *r, struct pmclog_ev *ev)
{
	const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	size_t len;

	if (!p->flat && !(p->flat = malloc(PMCLOG_REC_MAX)))
		return fail(p, ENOMEM, "out of memory");
	if (pmclog__ld32(r) >> 16 == ((PMCLOG_REC_MAGIC << 8) | PMCLOG_TYPE_CALLCHAIN)) {
		len = (size_t)ev->pl_len;
		memcpy(p->flat, r, len);
	} else {
		struct pmc_logrec *rec = malloc(sizeof(*rec));
		uint64_t pcs[PMC_CALLCHAIN_DEPTH_MAX];
		struct pmc_logrec_sample smp = {
			.pmc = cc->pl_pmcid, .pid = (pid_t)cc->pl_pid, .tid = (pid_t)cc->pl_tid,
			.cpu = cc->pl_cpu, .period = cc->pl_period, .npc = cc->pl_npc,
			.pcs = pcs, .pcflags = cc->pl_pcflags,
		};
		if (!rec)
			return fail(p, ENOMEM, "out of memory");
		for (uint32_t i = 0; i < cc->pl_npc; i++)
			pcs[i] = cc->pl_pc[i];
		if (pmc__logrec_callchain(rec, &smp) < 0) {
			free(rec);
			return fail(p, EILSEQ, "CHAINSAMPLE record at offset %lld: cannot be "
			    "written as a CALLCHAIN", (long long)ev->pl_offset);
		}
		len = PMCLOG_REC_HDR_LEN + rec->len;
		pmclog__st32(p->flat, PMCLOG_HDR_MAKE(PMCLOG_TYPE_CALLCHAIN, len));
		pmclog__st64(p->flat + 8, ev->pl_time);
		memcpy(p->flat + PMCLOG_REC_HDR_LEN, rec->buf, rec->len);
		free(rec);
	}
	pmclog__st32(p->flat + 4, 0);          /* defines no chain */
	ev->pl_data = p->flat;
	ev->pl_len = (int)len;
	return 0;
}

/* A SIDESTACK sample (record r, *len bytes) as it was written, its stack
 * back in its place from the stack frame before it, in p->whole (*len its
 * length): every reader of pl_data sees the record as format 3 wrote it.  NULL on
 * error. */
static const unsigned char *with_stack(struct pmclog_parser *p, const unsigned char *r,
    uint32_t *len)
{
	const unsigned char *pl = r + PMCLOG_REC_HDR_LEN;
	size_t plen = *len - PMCLOG_REC_HDR_LEN, at = pmclog__ustack_at(pl, plen);
	if (!at || plen - at < 16) {
		fail(p, EILSEQ, "CALLCHAIN record at offset %lld: bad user stack",
		    (long long)p->rb_off);
		return NULL;
	}
	uint32_t slen = pmclog__ld32(pl + at), soff = pmclog__ld32(pl + at + 8);
	size_t spad = ((size_t)slen + 7) & ~(size_t)7, rest = plen - at - 16;
	size_t n = PMCLOG_REC_HDR_LEN + at + 8 + spad + rest;
	if (p->stacks_skipped || soff > p->stacks_len || slen > p->stacks_len - soff ||
	    n > PMCLOG_REC_MAX) {
		fail(p, EILSEQ, "CALLCHAIN record at offset %lld: its stack is not in the "
		    "stack frame before it", (long long)p->rb_off);
		return NULL;
	}
	if (!p->whole && !(p->whole = malloc(PMCLOG_REC_MAX))) {
		fail(p, ENOMEM, "out of memory");
		return NULL;
	}
	unsigned char *w = p->whole, *wp = w + PMCLOG_REC_HDR_LEN;
	memcpy(w, r, PMCLOG_REC_HDR_LEN);
	pmclog__st32(w, PMCLOG_HDR_MAKE(PMCLOG_TYPE_CALLCHAIN, n));
	memcpy(wp, pl, at + 8);
	pmclog__st32(wp + 16, pmclog__ld32(pl + 16) & ~PMCLOG_CC2_SIDESTACK);
	if (slen)
		memcpy(wp + at + 8, p->stacks + soff, slen);
	memset(wp + at + 8 + slen, 0, spad - slen);
	memcpy(wp + at + 8 + spad, pl + at + 16, rest);
	*len = (uint32_t)n;
	return w;
}

/* 0: a record was decoded into ev; 1: need more data; -1 error. */
static int next_record(struct pmclog_parser *p, struct pmclog_ev *ev)
{
	for (;;) {
		size_t avail = p->rb_end - p->rb_start;
		const unsigned char *r = p->rb + p->rb_start;
		uint32_t h, len;
		int type, rc;

		if (avail < PMCLOG_REC_HDR_LEN)
			return 1;
		h = pmclog__ld32(r);
		len = PMCLOG_HDR_LEN(h);
		type = (int)PMCLOG_HDR_TYPE(h);
		if (PMCLOG_HDR_MAGIC(h) != PMCLOG_REC_MAGIC)
			return fail(p, EILSEQ, "corrupt log: bad record magic at offset %lld",
			    (long long)p->rb_off);
		if (len < PMCLOG_REC_HDR_LEN || (len & 7))
			return fail(p, EILSEQ, "corrupt log: bad record length %u at offset %lld",
			    len, (long long)p->rb_off);
		if (avail < len)
			return 1;
		size_t used = len;           /* of the record stream */
		if (type == PMCLOG_TYPE_CALLCHAIN && len >= PMCLOG_REC_HDR_LEN + PMCLOG_MIN_CALLCHAIN &&
		    (pmclog__ld32(r + PMCLOG_REC_HDR_LEN + 16) & PMCLOG_CC2_SIDESTACK) &&
		    !p->skip_stacks) {
			if (!(r = with_stack(p, r, &len)))
				return -1;
		}

		memset(ev, 0, offsetof(struct pmclog_ev, pl_u));
		ev->pl_offset = p->rb_off;
		ev->pl_type = (enum pmclog_type)type;
		ev->pl_data = (void *)r;
		ev->pl_len = (int)len;
		ev->pl_time = pmclog__ld64(r + 8);
		ev->pl_ts.tv_sec = (time_t)(ev->pl_time / 1000000000u);
		ev->pl_ts.tv_nsec = (long)(ev->pl_time % 1000000000u);

		if (!p->header_seen && !p->bare && type != PMCLOG_TYPE_HEADER)
			return fail(p, EILSEQ, "corrupt log: the first record is not a HEADER");
		rc = decode(p, type, pmclog__ld32(r + 4), r + PMCLOG_REC_HDR_LEN,
		    len - PMCLOG_REC_HDR_LEN, ev);
		if (rc < 0)
			return -1;
		p->rb_start += used;
		p->rb_off += used;
		p->last_end = p->rb_off;
		if (rc == 1) {
			p->skipped++;
			continue;
		}
		if (type == PMCLOG_TYPE_HEADER)
			p->header_seen = 1;
		p->closed = type == PMCLOG_TYPE_CLOSELOG;
		/* A FreeBSD client cannot know our record types: only readers
		 * that asked (pmclog_set_extensions) get them. */
		if (ev->pl_type >= PMCLOG_TYPE_HEADER && !p->extensions)
			continue;
		if (!p->extensions && ev->pl_type == PMCLOG_TYPE_CALLCHAIN &&
		    (type != PMCLOG_TYPE_CALLCHAIN || pmclog__ld32(r + 4)) && flatten(p, r, ev) < 0)
			return -1;
		p->count++;
		ev->pl_count = p->count;
		return 0;
	}
}

int pmclog_read(void *cookie, struct pmclog_ev *ev)
{
	struct pmclog_parser *p = cookie;
	int rc;

	if (!p || !ev) {
		errno = EINVAL;
		return -1;
	}
	for (;;) {
		if (p->error)
			break;
		if (p->mode != PS_MAGIC) {
			rc = next_record(p, ev);
			if (rc == 0) {
				ev->pl_state = PMCLOG_OK;
				return 0;
			}
			if (rc < 0)
				break;
		}
		rc = get_input(p);
		if (rc < 0)
			break;
		if (rc == 2) {
			ev->pl_state = PMCLOG_REQUIRE_DATA;
			return -1;
		}
		if (rc == 0) {
			size_t partial = p->rb_end - p->rb_start;
			p->truncated = partial > 0 || p->zmid || p->in_sf || !p->closed;
			ev->pl_state = PMCLOG_EOF;
			ev->pl_offset = p->rb_off;
			return -1;
		}
		if (consume_input(p) < 0)
			break;
	}
	/* the parser keeps its error (pmclog_errmsg); the channel says it too */
	ev->pl_state = PMCLOG_ERROR;
	pmc__clear_reason();
	pmc__err(-p->error, "%s", p->errmsg);
	return -1;
}
