/*
 * reader.c — perf.data as a stream of pmc log records (see perfdata.h).
 *
 * Layers, bottom up:
 *   source     bytes of the data section: pread on a file, read on a pipe,
 *              memcpy from memory (a non-seekable file-mode input is read
 *              into memory first: the header is at the start but the
 *              attrs and features are found through offsets)
 *   raw        one perf record at a time from the source, or from the zstd
 *              stream that COMPRESSED records carry
 *   session    user records (HEADER_ATTR, FEATURE, EVENT_UPDATE, BUILD_ID,
 *              FINISHED_ROUND ...) act on the reader; kernel records with a
 *              timestamp are queued and released at FINISHED_ROUND in time
 *              order (perf's ordered_events: a round releases what is not
 *              newer than the newest record of the round before)
 *   translate  one kernel record -> zero or more struct pmclog_ev
 *
 * Every load is bounds-checked and byte-order explicit (the file's order,
 * whatever the host's), so a damaged file gives a clear error or the
 * records before the damage, never a crash.
 */
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
	struct pmc_perfdata_attr pub;
	char *name;
	uint64_t *ids;
	size_t nids;
	uint32_t nregs_user, nregs_intr;
	int announced;                /* its PMCALLOCATE was delivered */
};

struct pd_bid {
	struct pmc_perfdata_buildid pub;
	char *path;
};

struct qent {                         /* a queued kernel record */
	uint64_t ts, seq, off;
	size_t len;
	const struct pd_attr *attr;
	unsigned char data[];
};

struct pmc_perfdata {
	/* source */
	int fd;
	int seekable;
	int dirfd;                    /* directory format (perf record --threads): */
	int own_fd;                   /* fd is ours (opened in the directory) */
	char **dfiles;                /* the data.N files still to read, in order */
	int ndfiles, dnext;
	unsigned char *mem;           /* memory-backed input (owned) */
	size_t memlen;
	uint64_t fsize;               /* file size when known */
	int be;                       /* the file is big-endian */
	int pipe;
	unsigned flags;

	unsigned char *ustack;        /* the current sample's user stack copy */
	size_t ustack_cap;

	/* file mode layout */
	uint64_t data_off, data_size, data_end;
	uint64_t feat[4];

	/* the raw stream */
	unsigned char *ibuf;
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
	uint64_t *idkeys;             /* open addressing: id -> attr index + 1 */
	int *idvals;
	size_t idcap, nidk;
	int id_pos, is_pos;           /* of the first attr, as perf */
	int announced_all;

	/* build ids */
	struct pd_bid *bids;
	int nbids, bcap;
	int *bhash;                   /* path hash -> bid index + 1 */
	size_t bhcap;

	/* features */
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid, *cmdline;
	int nr_cpus;
	uint32_t clk_id;
	uint64_t clk_tod, clk_ns;
	int have_clock;

	/* ordering */
	int ordered;
	struct qent **heap;
	size_t nheap, hcap;
	uint64_t qbytes, seq;
	uint64_t max_ts, next_flush, flush_limit, last_flush;
	int flushing, forcing;

	/* delivery */
	int header_done;
	int input_done;               /* no more raw records (EOF or damage) */
	unsigned char *rec;           /* the record being translated (copy) */
	size_t reccap;
	struct qent *curq;            /* or this queued one (freed at the next read) */
	const unsigned char *cur;
	size_t curlen;
	uint64_t curoff;
	const struct pd_attr *curattr;
	int cursub, curactive;
	uint64_t last_time;
	size_t count;

	char verbuf[80];

	/* errors */
	int err;                      /* sticky errno once the queue is drained */
	int pend_err;                 /* damage seen: deliver the queue, then fail */
	int truncated;
	char errmsg[512];
	struct pmc_perfdata_stats st;
};

static __thread char open_msg[512];

const char *pmc__perfdata_open_errmsg(void)
{
	return open_msg;
}

static int set_err(struct pmc_perfdata *p, int e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int set_err(struct pmc_perfdata *p, int e, const char *fmt, ...)
{
	va_list ap;
	if (p->pend_err || p->err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->errmsg, sizeof(p->errmsg), fmt, ap);
	va_end(ap);
	p->pend_err = e;
	p->input_done = 1;
	return -1;
}

/* ---- byte order --------------------------------------------------------- */

static inline uint16_t ld16(const struct pmc_perfdata *p, const unsigned char *b)
{
	return p->be ? (uint16_t)(b[0] << 8 | b[1]) : (uint16_t)(b[1] << 8 | b[0]);
}

static inline uint32_t ld32(const struct pmc_perfdata *p, const unsigned char *b)
{
	if (p->be)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

static inline uint64_t ld64(const struct pmc_perfdata *p, const unsigned char *b)
{
	if (p->be)
		return (uint64_t)ld32(p, b) << 32 | ld32(p, b + 4);
	return (uint64_t)ld32(p, b + 4) << 32 | ld32(p, b);
}

/* The attr's bitfield word.  A big-endian compiler allocates bitfields from
 * the most significant bit of each byte, so for those files the bits of
 * every byte are reversed and the bytes read in order (perf's swap_bitfield). */
static uint64_t ld_bits(const struct pmc_perfdata *p, const unsigned char *b)
{
	uint64_t v = 0;
	if (!p->be) {
		for (int i = 7; i >= 0; i--)
			v = v << 8 | b[i];
		return v;
	}
	for (int i = 7; i >= 0; i--) {
		unsigned x = b[i], r = 0;
		for (int k = 0; k < 8; k++)
			r |= ((x >> k) & 1u) << (7 - k);
		v = v << 8 | r;
	}
	return v;
}

int pmc__perfdata_is_perfdata(const void *buf, size_t len)
{
	static const unsigned char le[8] = { 'P', 'E', 'R', 'F', 'I', 'L', 'E', '2' };
	static const unsigned char be[8] = { '2', 'E', 'L', 'I', 'F', 'R', 'E', 'P' };
	if (!buf || len < 8)
		return 0;
	return memcmp(buf, le, 8) == 0 || memcmp(buf, be, 8) == 0;
}

/* ---- the source ----------------------------------------------------------- */

static ssize_t src_pread(struct pmc_perfdata *p, void *buf, size_t n, uint64_t off)
{
	if (p->mem) {
		if (off >= p->memlen)
			return 0;
		if (n > p->memlen - off)
			n = (size_t)(p->memlen - off);
		memcpy(buf, p->mem + off, n);
		return (ssize_t)n;
	}
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(p->fd, (char *)buf + got, n - got, (off_t)(off + got));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Fetch more stream bytes into buf (at most n).  0 at the end. */
static ssize_t src_fetch(struct pmc_perfdata *p, void *buf, size_t n)
{
	ssize_t r;
	if (p->spos >= p->data_end)
		return 0;
	if (n > p->data_end - p->spos)
		n = (size_t)(p->data_end - p->spos);
	if (p->mem || p->seekable) {
		r = src_pread(p, buf, n, p->spos);
	} else {
		do
			r = read(p->fd, buf, n);
		while (r < 0 && errno == EINTR);
	}
	if (r > 0)
		p->spos += (uint64_t)r;
	return r;
}

/* Directory format: go on with the next data.N file.  0, or -1 if none. */
static int next_dfile(struct pmc_perfdata *p)
{
	struct stat sb;
	int fd;

	while (p->dnext < p->ndfiles) {
		const char *name = p->dfiles[p->dnext++];
		fd = openat(p->dirfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &sb) < 0) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (p->ilen > p->ipos) {
			/* the previous file ended inside a record */
			p->truncated = 1;
			p->ioff += p->ilen - p->ipos;
			p->ipos = p->ilen;
		}
		if (p->own_fd)
			close(p->fd);
		p->fd = fd;
		p->own_fd = 1;
		p->seekable = 1;
		p->fsize = (uint64_t)sb.st_size;
		p->spos = 0;
		p->ioff = 0;
		p->data_end = p->fsize;
		return 0;
	}
	return -1;
}

/* Make n bytes available at ibuf + ipos; returns how many are (< n only at
 * the end of the stream or on error). */
static size_t ensure(struct pmc_perfdata *p, size_t n)
{
	while (p->ilen - p->ipos < n && !p->ieof) {
		if (p->ipos && (p->icap - p->ilen < n || p->ipos > p->icap / 2)) {
			memmove(p->ibuf, p->ibuf + p->ipos, p->ilen - p->ipos);
			p->ilen -= p->ipos;
			p->ipos = 0;
		}
		if (p->icap - p->ipos < n) {
			size_t nc = p->icap ? p->icap : IBUF_MIN;
			while (nc - p->ipos < n)
				nc *= 2;
			unsigned char *nb = realloc(p->ibuf, nc);
			if (!nb) {
				set_err(p, ENOMEM, "out of memory");
				p->ieof = 1;
				break;
			}
			p->ibuf = nb;
			p->icap = nc;
		}
		ssize_t r = src_fetch(p, p->ibuf + p->ilen, p->icap - p->ilen);
		if (r < 0) {
			set_err(p, errno, "cannot read the data: %s", strerror(errno));
			p->ieof = 1;
		} else if (r == 0) {
			if (next_dfile(p) == 0)
				continue;
			p->ieof = 1;
		} else {
			p->ilen += (size_t)r;
		}
	}
	return p->ilen - p->ipos;
}

static void consume(struct pmc_perfdata *p, size_t n)
{
	p->ipos += n;
	p->ioff += n;
}

/* Skip n stream bytes that follow a record (AUXTRACE data, tracing data). */
static void skip_bytes(struct pmc_perfdata *p, uint64_t n)
{
	size_t have = p->ilen - p->ipos;
	if (n <= have) {
		consume(p, (size_t)n);
		return;
	}
	consume(p, have);
	n -= have;
	if (p->mem || p->seekable) {
		uint64_t room = p->data_end - p->spos;
		if (p->data_end == UINT64_MAX && p->fsize)
			room = p->fsize > p->spos ? p->fsize - p->spos : 0;
		if (n > room) {
			p->spos += room;
			p->ioff += room;
			p->truncated = 1;
			p->ieof = 1;
			return;
		}
		p->spos += n;
		p->ioff += n;
		return;
	}
	while (n) {
		size_t c = ensure(p, 1);
		if (!c) {
			p->truncated = 1;
			return;
		}
		if (c > n)
			c = (size_t)n;
		consume(p, c);
		n -= c;
	}
}

/* ---- attrs and ids ------------------------------------------------------- */

static size_t hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return (size_t)v;
}

static int id_put(struct pmc_perfdata *p, uint64_t id, int idx)
{
	if ((p->nidk + 1) * 2 > p->idcap) {
		size_t nc = p->idcap ? p->idcap * 2 : 64;
		uint64_t *nk = calloc(nc, sizeof(*nk));
		int *nv = calloc(nc, sizeof(*nv));
		if (!nk || !nv) {
			free(nk);
			free(nv);
			return -ENOMEM;
		}
		for (size_t i = 0; i < p->idcap; i++) {
			if (!p->idvals[i])
				continue;
			size_t h = hash64(p->idkeys[i]) & (nc - 1);
			while (nv[h])
				h = (h + 1) & (nc - 1);
			nk[h] = p->idkeys[i];
			nv[h] = p->idvals[i];
		}
		free(p->idkeys);
		free(p->idvals);
		p->idkeys = nk;
		p->idvals = nv;
		p->idcap = nc;
	}
	size_t h = hash64(id) & (p->idcap - 1);
	while (p->idvals[h]) {
		if (p->idkeys[h] == id) {
			p->idvals[h] = idx + 1;   /* a later attr claims the id */
			return 0;
		}
		h = (h + 1) & (p->idcap - 1);
	}
	p->idkeys[h] = id;
	p->idvals[h] = idx + 1;
	p->nidk++;
	return 0;
}

static int id_get(const struct pmc_perfdata *p, uint64_t id)
{
	if (!p->idcap)
		return -1;
	size_t h = hash64(id) & (p->idcap - 1);
	while (p->idvals[h]) {
		if (p->idkeys[h] == id)
			return p->idvals[h] - 1 < p->nattrs ? p->idvals[h] - 1 : -1;
		h = (h + 1) & (p->idcap - 1);
	}
	return -1;
}

static int calc_id_pos(uint64_t st)
{
	int i = 0;
	if (st & PD_S_IDENTIFIER)
		return 0;
	if (!(st & PD_S_ID))
		return -1;
	if (st & PD_S_IP)
		i++;
	if (st & PD_S_TID)
		i++;
	if (st & PD_S_TIME)
		i++;
	if (st & PD_S_ADDR)
		i++;
	return i;
}

static int calc_is_pos(uint64_t st)
{
	int i = 1;
	if (st & PD_S_IDENTIFIER)
		return 1;
	if (!(st & PD_S_ID))
		return -1;
	if (st & PD_S_CPU)
		i++;
	if (st & PD_S_STREAM_ID)
		i++;
	return i;
}

static const char *hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};
static const char *sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

/* perf's name for an attr without an event description. */
static void derive_name(const struct pmc_perfdata_attr *a, char *buf, size_t len)
{
	char mod[8] = "";
	int eu = !!(a->flags & PD_ATTR_EXCLUDE_USER), ek = !!(a->flags & PD_ATTR_EXCLUDE_KERNEL);
	if (ek && !eu)
		strcpy(mod, ":u");
	else if (eu && !ek)
		strcpy(mod, ":k");
	switch (a->type) {
	case PD_TYPE_HARDWARE:
		if (a->config < sizeof(hw_names) / sizeof(hw_names[0])) {
			snprintf(buf, len, "%s%s", hw_names[a->config], mod);
			return;
		}
		break;
	case PD_TYPE_SOFTWARE:
		if (a->config < sizeof(sw_names) / sizeof(sw_names[0])) {
			snprintf(buf, len, "%s%s", sw_names[a->config], mod);
			return;
		}
		break;
	case PD_TYPE_TRACEPOINT:
		snprintf(buf, len, "tracepoint:%" PRIu64 "%s", a->config, mod);
		return;
	case PD_TYPE_HW_CACHE:
		snprintf(buf, len, "hw-cache:0x%" PRIx64 "%s", a->config, mod);
		return;
	case PD_TYPE_RAW:
		snprintf(buf, len, "r%" PRIx64 "%s", a->config, mod);
		return;
	case PD_TYPE_BREAKPOINT:
		snprintf(buf, len, "mem:0x%" PRIx64 "%s", a->config1, mod);
		return;
	}
	snprintf(buf, len, "%u/config=0x%" PRIx64 "/%s", a->type, a->config, mod);
}

/* Decode an attr from b (avail bytes; its own size field says how many are
 * the attr).  Returns the attr's size, or 0 if it is not an attr. */
static size_t parse_attr(struct pmc_perfdata *p, const unsigned char *b, size_t avail,
    struct pmc_perfdata_attr *a, uint32_t *nregs_user, uint32_t *nregs_intr)
{
	size_t sz;
	memset(a, 0, sizeof(*a));
	if (avail < PD_ATTR_SIZE_VER0)
		return 0;
	sz = ld32(p, b + PD_AOFF_SIZE);
	if (sz == 0)
		sz = PD_ATTR_SIZE_VER0;
	if (sz < PD_ATTR_SIZE_VER0 || sz > PD_ATTR_SIZE_MAX || sz > avail)
		return 0;
	a->type = ld32(p, b + PD_AOFF_TYPE);
	a->config = ld64(p, b + PD_AOFF_CONFIG);
	a->period = ld64(p, b + PD_AOFF_PERIOD);
	a->sample_type = ld64(p, b + PD_AOFF_SAMPLE_TYPE);
	a->read_format = ld64(p, b + PD_AOFF_READ_FORMAT);
	a->flags = ld_bits(p, b + PD_AOFF_FLAGS);
	a->freq = !!(a->flags & PD_ATTR_FREQ);
	a->config1 = ld64(p, b + PD_AOFF_CONFIG1);
	if (sz >= PD_AOFF_CONFIG2 + 8)
		a->config2 = ld64(p, b + PD_AOFF_CONFIG2);
	if (sz >= PD_AOFF_BRANCH_TYPE + 8)
		a->branch_sample_type = ld64(p, b + PD_AOFF_BRANCH_TYPE);
	if (sz >= PD_AOFF_REGS_USER + 8)
		a->sample_regs_user = ld64(p, b + PD_AOFF_REGS_USER);
	if (sz >= PD_AOFF_STACK_USER + 4)
		a->sample_stack_user = ld32(p, b + PD_AOFF_STACK_USER);
	if (sz >= PD_AOFF_CLOCKID + 4)
		a->clockid = (int32_t)ld32(p, b + PD_AOFF_CLOCKID);
	if (sz >= PD_AOFF_REGS_INTR + 8)
		a->sample_regs_intr = ld64(p, b + PD_AOFF_REGS_INTR);
	*nregs_user = (uint32_t)__builtin_popcountll(a->sample_regs_user);
	*nregs_intr = (uint32_t)__builtin_popcountll(a->sample_regs_intr);
	return sz;
}

static int add_attr(struct pmc_perfdata *p, const struct pmc_perfdata_attr *a,
    uint32_t nru, uint32_t nri, const unsigned char *ids, size_t nids)
{
	struct pd_attr *x;
	int idx = p->nattrs;

	if (p->nattrs >= MAX_ATTRS)
		return set_err(p, EILSEQ, "corrupt perf.data: more than %d events", MAX_ATTRS);
	if (p->nattrs == p->acap) {
		int nc = p->acap ? p->acap * 2 : 8;
		struct pd_attr **na = realloc(p->attrs, (size_t)nc * sizeof(*na));
		if (!na)
			return set_err(p, ENOMEM, "out of memory");
		p->attrs = na;
		p->acap = nc;
	}
	x = calloc(1, sizeof(*x));
	if (!x)
		return set_err(p, ENOMEM, "out of memory");
	p->attrs[idx] = x;
	x->pub = *a;
	x->nregs_user = nru;
	x->nregs_intr = nri;
	if (nids) {
		x->ids = malloc(nids * sizeof(uint64_t));
		if (!x->ids)
			goto nomem;
		for (size_t i = 0; i < nids; i++) {
			x->ids[i] = ld64(p, ids + 8 * i);
			if (id_put(p, x->ids[i], idx) < 0)
				goto nomem;
		}
	}
	x->nids = nids;
	x->pub.ids = x->ids;
	x->pub.nids = nids;
	{
		char nb[128];
		derive_name(a, nb, sizeof(nb));
		x->name = strdup(nb);
		if (!x->name)
			goto nomem;
	}
	x->pub.name = x->name;
	/* synthetic pmc id: pmc's layout (any CPU, TS/TC mode), row = index */
	x->pub.pmcid = PMC_ID_MAKE_ID(PMC_CPU_ANY,
	    (a->period || a->freq) ? PMC_MODE_TS : PMC_MODE_TC, (idx >> 8) & 0xFF, idx & 0xFF);
	p->nattrs++;
	p->announced_all = 0;
	if (idx == 0) {
		p->id_pos = calc_id_pos(a->sample_type);
		p->is_pos = calc_is_pos(a->sample_type);
	}
	return 0;
nomem:
	free(x->ids);
	free(x);
	p->attrs[idx] = NULL;
	return set_err(p, ENOMEM, "out of memory");
}

static void set_attr_name(struct pmc_perfdata *p, struct pd_attr *a, const char *name,
    size_t maxlen)
{
	size_t n = strnlen(name, maxlen);
	char *s;
	if (n == 0)
		return;
	s = malloc(n + 1);
	if (!s)
		return;
	memcpy(s, name, n);
	s[n] = '\0';
	free(a->name);
	a->name = s;
	a->pub.name = s;
	(void)p;
}

/* ---- build ids -------------------------------------------------------- */

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int bid_rehash(struct pmc_perfdata *p)
{
	size_t nc = p->bhcap ? p->bhcap * 2 : 64;
	int *nh = calloc(nc, sizeof(*nh));
	if (!nh)
		return -ENOMEM;
	free(p->bhash);
	p->bhash = nh;
	p->bhcap = nc;
	for (int i = 0; i < p->nbids; i++) {
		size_t h = hash_str(p->bids[i].path) & (nc - 1);
		while (nh[h])
			h = (h + 1) & (nc - 1);
		nh[h] = i + 1;
	}
	return 0;
}

static const struct pd_bid *bid_find(const struct pmc_perfdata *p, const char *path)
{
	if (!p->bhcap)
		return NULL;
	size_t h = hash_str(path) & (p->bhcap - 1);
	const struct pd_bid *found = NULL;
	while (p->bhash[h]) {
		const struct pd_bid *b = &p->bids[p->bhash[h] - 1];
		if (strcmp(b->path, path) == 0)
			found = b;        /* the last one wins */
		h = (h + 1) & (p->bhcap - 1);
	}
	return found;
}

/* One build_id_event: header(8) pid(4) build_id[24] filename[] */
static void add_buildid(struct pmc_perfdata *p, const unsigned char *b, size_t len)
{
	struct pd_bid *x;
	uint16_t misc;
	size_t flen;

	if (len < 8 + 4 + 24)
		return;
	misc = ld16(p, b + 4);
	if (p->nbids == p->bcap) {
		int nc = p->bcap ? p->bcap * 2 : 32;
		struct pd_bid *nb = realloc(p->bids, (size_t)nc * sizeof(*nb));
		if (!nb)
			return;
		p->bids = nb;
		p->bcap = nc;
		for (int i = 0; i < p->nbids; i++)
			p->bids[i].pub.path = p->bids[i].path;
	}
	x = &p->bids[p->nbids];
	memset(x, 0, sizeof(*x));
	x->pub.pid = (int32_t)ld32(p, b + 8);
	x->pub.misc = misc;
	memcpy(x->pub.id, b + 12, 20);
	x->pub.size = (misc & PD_MISC_BUILD_ID_SIZE) ? b[12 + 20] : 20;
	if (x->pub.size > 20)
		x->pub.size = 20;
	flen = strnlen((const char *)b + 36, len - 36);
	x->path = malloc(flen + 1);
	if (!x->path)
		return;
	memcpy(x->path, b + 36, flen);
	x->path[flen] = '\0';
	x->pub.path = x->path;
	p->nbids++;
	if ((size_t)p->nbids * 2 > p->bhcap) {
		if (bid_rehash(p) < 0)
			p->nbids--, free(x->path);
		return;
	}
	size_t h = hash_str(x->path) & (p->bhcap - 1);
	while (p->bhash[h])
		h = (h + 1) & (p->bhcap - 1);
	p->bhash[h] = p->nbids;
}

static void parse_buildid_section(struct pmc_perfdata *p, const unsigned char *b, size_t len)
{
	size_t off = 0;
	while (len - off >= 8) {
		size_t sz = ld16(p, b + off + 6);
		if (sz < 8 || sz > len - off)
			break;
		add_buildid(p, b + off, sz);
		off += sz;
	}
}

/* ---- features ----------------------------------------------------------- */

/* A bounds-checked reader over a buffer in the file's byte order: reading
 * past the end yields 0 and sets bad (features and record bodies alike). */
struct fcur {
	const struct pmc_perfdata *p;
	const unsigned char *b;
	size_t n, off;
	int bad;
};

static uint32_t f32(struct fcur *c)
{
	if (c->n - c->off < 4) {
		c->bad = 1;
		c->off = c->n;
		return 0;
	}
	c->off += 4;
	return ld32(c->p, c->b + c->off - 4);
}

static uint64_t f64(struct fcur *c)
{
	if (c->n - c->off < 8) {
		c->bad = 1;
		c->off = c->n;
		return 0;
	}
	c->off += 8;
	return ld64(c->p, c->b + c->off - 8);
}

/* perf's do_write_string: u32 len (with padding), then len bytes. */
static char *fstr(struct fcur *c)
{
	uint32_t len = f32(c);
	char *s;
	size_t n;
	if (c->bad || len > c->n - c->off) {
		c->bad = 1;
		return NULL;
	}
	n = strnlen((const char *)c->b + c->off, len);
	s = malloc(n + 1);
	if (s) {
		memcpy(s, c->b + c->off, n);
		s[n] = '\0';
	}
	c->off += len;
	return s;
}

static void set_str(char **dst, char *s)
{
	if (!s)
		return;
	free(*dst);
	*dst = s;
}

static void parse_event_desc(struct pmc_perfdata *p, struct fcur *c)
{
	uint32_t nre = f32(c), sz = f32(c);
	if (c->bad || sz < PD_ATTR_SIZE_VER0 || sz > PD_ATTR_SIZE_MAX)
		return;
	for (uint32_t i = 0; i < nre && !c->bad; i++) {
		uint32_t nids;
		char *name;
		uint64_t id0 = 0;
		int have_id = 0;
		if (c->n - c->off < sz)
			return;
		c->off += sz;
		nids = f32(c);
		name = fstr(c);
		if (c->bad || !name) {
			free(name);
			return;
		}
		if (nids > (c->n - c->off) / 8) {
			free(name);
			return;
		}
		if (nids) {
			id0 = ld64(p, c->b + c->off);
			have_id = 1;
		}
		c->off += (size_t)nids * 8;
		int idx = have_id ? id_get(p, id0) : -1;
		if (idx < 0 && nre == (uint32_t)p->nattrs)
			idx = (int)i;         /* no ids (one event): by position */
		if (idx >= 0 && idx < p->nattrs)
			set_attr_name(p, p->attrs[idx], name, strlen(name));
		free(name);
	}
}

static void parse_feature(struct pmc_perfdata *p, int feat, const unsigned char *b, size_t n)
{
	struct fcur c = { p, b, n, 0, 0 };

	switch (feat) {
	case PD_FEAT_HOSTNAME: set_str(&p->hostname, fstr(&c)); break;
	case PD_FEAT_OSRELEASE: set_str(&p->osrelease, fstr(&c)); break;
	case PD_FEAT_VERSION: set_str(&p->version, fstr(&c)); break;
	case PD_FEAT_ARCH: set_str(&p->arch, fstr(&c)); break;
	case PD_FEAT_CPUDESC: set_str(&p->cpudesc, fstr(&c)); break;
	case PD_FEAT_CPUID: set_str(&p->cpuid, fstr(&c)); break;
	case PD_FEAT_NRCPUS: {
		uint32_t avail = f32(&c), online = f32(&c);
		if (!c.bad)
			p->nr_cpus = (int)(online ? online : avail);
		break;
	}
	case PD_FEAT_CMDLINE: {
		uint32_t nr = f32(&c);
		size_t tot = 0, cap = 256;
		char *out = malloc(cap);
		if (!out)
			break;
		out[0] = '\0';
		for (uint32_t i = 0; i < nr && !c.bad; i++) {
			char *s = fstr(&c);
			size_t sl;
			if (!s)
				break;
			sl = strlen(s);
			if (tot + sl + 2 > cap) {
				while (tot + sl + 2 > cap)
					cap *= 2;
				char *no = realloc(out, cap);
				if (!no) {
					free(s);
					break;
				}
				out = no;
			}
			if (tot)
				out[tot++] = ' ';
			memcpy(out + tot, s, sl + 1);
			tot += sl;
			free(s);
		}
		set_str(&p->cmdline, out);
		break;
	}
	case PD_FEAT_EVENT_DESC:
		parse_event_desc(p, &c);
		break;
	case PD_FEAT_BUILD_ID:
		parse_buildid_section(p, b, n);
		break;
	case PD_FEAT_COMPRESSED:
		p->flags |= PMC_PERFDATA_F_COMPRESSED;
		break;
	case PD_FEAT_CLOCK_DATA: {
		uint32_t ver = f32(&c), cid = f32(&c);
		uint64_t tod = f64(&c), cns = f64(&c);
		if (!c.bad && ver >= 1) {
			p->clk_id = cid;
			p->clk_tod = tod;
			p->clk_ns = cns;
			p->have_clock = 1;
		}
		break;
	}
	default:
		break;                /* features we do not use: skipped */
	}
}

/* ---- opening ------------------------------------------------------------ */

static struct pmc_perfdata *alloc_reader(void)
{
	struct pmc_perfdata *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->fd = -1;
	p->dirfd = -1;
	p->ordered = 1;
	p->id_pos = p->is_pos = -1;
	p->data_end = UINT64_MAX;
	return p;
}

static int open_fail(struct pmc_perfdata *p, int e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int open_fail(struct pmc_perfdata *p, int e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(open_msg, sizeof(open_msg), fmt, ap);
	va_end(ap);
	(void)p;
	return -e;
}

/* a + b, or UINT64_MAX if it wraps */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* How many bytes of a file-mode perf.data m[0..len) says it holds: the
 * header, the attrs, the data, the feature table after it and the feature
 * sections it names (as far as len lets us see; UINT64_MAX: "to the end",
 * a header perf never rewrote after being killed). */
static uint64_t file_mode_extent(struct pmc_perfdata *p, const unsigned char *m, size_t len)
{
	uint64_t want, d_end, tab, feat[4];
	int nfeat = 0;

	if (len < PD_FILE_HDR_SIZE)
		return PD_FILE_HDR_SIZE;
	d_end = add_sat(ld64(p, m + 40), ld64(p, m + 48));
	if (ld64(p, m + 48) == 0)
		return UINT64_MAX;
	want = add_sat(ld64(p, m + 24), ld64(p, m + 32));
	if (d_end > want)
		want = d_end;
	for (int i = 0; i < 4; i++) {
		feat[i] = ld64(p, m + 72 + 8 * i);
		nfeat += __builtin_popcountll(feat[i]);
	}
	tab = add_sat(d_end, 16 * (uint64_t)nfeat);
	if (tab > want)
		want = tab;
	if (tab > len)
		return want;
	for (int k = 0; k < nfeat; k++) {
		uint64_t sz = ld64(p, m + d_end + 16 * k + 8);
		uint64_t e = add_sat(ld64(p, m + d_end + 16 * k), sz);
		if (sz <= FEAT_MAX && e > want)   /* larger ones are skipped anyway */
			want = e;
	}
	return want;
}

/* File mode on a pipe: its sections are found by offset, so it is held in
 * memory, but only as much as its header says it holds, and never more than
 * PD_PIPE_HOLD_MAX: what follows it in the pipe is not read. */
static int slurp(struct pmc_perfdata *p, const unsigned char *prefix, size_t plen)
{
	size_t cap = 1 << 20, len = plen;
	unsigned char *m = malloc(cap);
	uint64_t want;

	if (!m)
		return -ENOMEM;
	memcpy(m, prefix, plen);
	while ((want = file_mode_extent(p, m, len)) > len) {
		if (len >= PD_PIPE_HOLD_MAX) {
			free(m);
			open_fail(p, EFBIG, "a file-mode perf.data on a pipe is held in memory, and "
			    "this one goes on past %llu MiB: save it to a file first, or record "
			    "in pipe mode (perf record -o -)",
			    (unsigned long long)(PD_PIPE_HOLD_MAX >> 20));
			return -EFBIG;
		}
		if (len == cap) {
			size_t ncap = cap * 2 > PD_PIPE_HOLD_MAX ? PD_PIPE_HOLD_MAX : cap * 2;
			unsigned char *nm = realloc(m, ncap);
			if (!nm) {
				free(m);
				open_fail(p, ENOMEM, "a file-mode perf.data on a pipe is held in "
				    "memory: out of memory after %zu MiB; save it to a file first",
				    len >> 20);
				return -ENOMEM;
			}
			m = nm;
			cap = ncap;
		}
		size_t n = cap - len;
		if (want - len < n)
			n = (size_t)(want - len);
		ssize_t r = read(p->fd, m + len, n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(m);
			open_fail(p, e, "cannot read: %s", strerror(e));
			return -e;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	p->mem = m;
	p->memlen = len;
	p->fsize = len;
	return 0;
}

static int read_at(struct pmc_perfdata *p, void *buf, size_t n, uint64_t off)
{
	ssize_t r = src_pread(p, buf, n, off);
	if (r < 0)
		return -errno;
	return r == (ssize_t)n ? 0 : -EILSEQ;
}

static int test_feat(const struct pmc_perfdata *p, int bit)
{
	return (int)((p->feat[bit / 64] >> (bit % 64)) & 1);
}

static int open_file_mode(struct pmc_perfdata *p, const unsigned char *h, size_t hsize)
{
	uint64_t attr_size, a_off, a_size, pos;
	size_t nattr;
	unsigned char *ab = NULL;

	attr_size = ld64(p, h + 16);
	a_off = ld64(p, h + 24);
	a_size = ld64(p, h + 32);
	p->data_off = ld64(p, h + 40);
	p->data_size = ld64(p, h + 48);
	if (hsize >= PD_FILE_HDR_SIZE)
		for (int i = 0; i < 4; i++)
			p->feat[i] = ld64(p, h + 72 + 8 * i);

	if (p->fsize < hsize)
		return open_fail(p, EILSEQ, "corrupt perf.data: the file header is cut");
	if (attr_size < PD_ATTR_SIZE_VER0 + 16 || attr_size > PD_ATTR_SIZE_MAX + 16)
		return open_fail(p, EILSEQ, "corrupt perf.data: bogus attr_size %" PRIu64, attr_size);
	if (a_size == 0)
		return open_fail(p, EILSEQ, "corrupt perf.data: no events (empty attrs section)");
	if (a_off > p->fsize || a_size > p->fsize - a_off)
		return open_fail(p, EILSEQ, "corrupt perf.data: the attrs section (%" PRIu64
		    " bytes at %" PRIu64 ") lies past the end of the file (%" PRIu64 " bytes)",
		    a_size, a_off, p->fsize);
	nattr = (size_t)(a_size / attr_size);
	if (nattr == 0 || nattr > MAX_ATTRS || a_size % attr_size)
		return open_fail(p, EILSEQ, "corrupt perf.data: bogus attr_size %" PRIu64
		    " for an attrs section of %" PRIu64 " bytes", attr_size, a_size);
	/* perf reads the attrs one after the other, each its own size (attr.size)
	 * plus its ids section; attr_size only gives their number */
	ab = malloc(PD_ATTR_SIZE_MAX + 16);
	if (!ab)
		return -ENOMEM;
	pos = a_off;
	for (size_t i = 0; i < nattr; i++) {
		struct pmc_perfdata_attr a;
		uint32_t nru, nri;
		size_t sz, avail;
		uint64_t ioff, isz, left = a_off + a_size - pos;
		unsigned char *ids = NULL;
		int rc;
		avail = left < PD_ATTR_SIZE_MAX + 16 ? (size_t)left : PD_ATTR_SIZE_MAX + 16;
		rc = read_at(p, ab, avail, pos);
		if (rc < 0) {
			free(ab);
			return open_fail(p, -rc, "cannot read event %zu's attr", i);
		}
		sz = parse_attr(p, ab, avail, &a, &nru, &nri);
		if (!sz || sz + 16 > avail) {
			uint32_t said = avail >= 8 ? ld32(p, ab + PD_AOFF_SIZE) : 0;
			free(ab);
			return open_fail(p, EILSEQ, "corrupt perf.data: event %zu's attr size (%u)"
			    " does not fit the attrs section (attr_size %" PRIu64 ")", i, said,
			    attr_size);
		}
		ioff = ld64(p, ab + sz);
		isz = ld64(p, ab + sz + 8);
		pos += sz + 16;
		if (isz % 8 || isz / 8 > MAX_IDS || ioff > p->fsize || isz > p->fsize - ioff) {
			free(ab);
			return open_fail(p, EILSEQ, "corrupt perf.data: event %zu's id section (%"
			    PRIu64 " bytes at %" PRIu64 ") lies past the end of the file", i, isz, ioff);
		}
		if (isz) {
			ids = malloc((size_t)isz);
			if (!ids || (rc = read_at(p, ids, (size_t)isz, ioff)) < 0) {
				free(ids);
				free(ab);
				return open_fail(p, ids ? -rc : ENOMEM, "cannot read event %zu's ids", i);
			}
		}
		rc = add_attr(p, &a, nru, nri, ids, (size_t)(isz / 8));
		free(ids);
		if (rc < 0) {
			free(ab);
			return open_fail(p, p->pend_err, "%s", p->errmsg);
		}
	}
	free(ab);

	/* the data section */
	if (p->data_off > p->fsize)
		return open_fail(p, EILSEQ, "corrupt perf.data: the data section (at %" PRIu64
		    ") lies past the end of the file (%" PRIu64 " bytes)", p->data_off, p->fsize);
	if (p->data_size == 0 && p->fsize > p->data_off) {
		/* perf was killed before it wrote the header back: the data runs
		 * to the end of the file, and there are no features */
		p->data_end = p->fsize;
		p->truncated = 1;
		memset(p->feat, 0, sizeof(p->feat));
	} else {
		p->data_end = p->data_off + p->data_size;
		if (p->data_end < p->data_off || p->data_end > p->fsize) {
			p->data_end = p->fsize;
			p->truncated = 1;
		}
	}
	p->spos = p->ioff = p->data_off;

	/* feature sections: a table of {offset, size} after the data, one per set bit */
	if (!p->truncated) {
		uint64_t tab = p->data_off + p->data_size;
		int k = 0;
		for (int bit = 0; bit < PD_FEAT_BITS; bit++) {
			unsigned char s[16];
			uint64_t off, sz;
			if (!test_feat(p, bit))
				continue;
			if (read_at(p, s, 16, tab + 16 * (uint64_t)k++) < 0)
				break;        /* a cut feature table: no more features */
			off = ld64(p, s);
			sz = ld64(p, s + 8);
			if (off > p->fsize || sz > p->fsize - off || sz > FEAT_MAX)
				continue;     /* points past the end: skipped */
			unsigned char *fb = malloc(sz ? (size_t)sz : 1);
			if (!fb)
				return -ENOMEM;
			if (read_at(p, fb, (size_t)sz, off) == 0)
				parse_feature(p, bit, fb, (size_t)sz);
			free(fb);
		}
	}
	return 0;
}

static int process_user(struct pmc_perfdata *p, const unsigned char *r, size_t len,
    uint32_t type);

/* Peek the next raw record in ibuf: its length, or 0 at the end / damage. */
static size_t peek_raw(struct pmc_perfdata *p)
{
	size_t have = ensure(p, 8);
	uint32_t sz;
	if (have == 0)
		return 0;
	if (have < 8) {
		p->truncated = 1;
		return 0;
	}
	sz = ld16(p, p->ibuf + p->ipos + 6);
	if (sz < 8) {
		set_err(p, EILSEQ, "corrupt perf.data: a record of size %u at offset %" PRIu64,
		    sz, p->ioff);
		return 0;
	}
	if (ensure(p, sz) < sz) {
		p->truncated = 1;
		return 0;
	}
	return sz;
}

static int open_pipe_mode(struct pmc_perfdata *p)
{
	/* Read the user records perf writes first (attrs, features, event
	 * updates) so the HEADER and PMCALLOCATE records can say what they say;
	 * stop at the first record of anything else. */
	p->spos = p->ioff = PD_PIPE_HDR_SIZE;
	for (;;) {
		size_t sz = peek_raw(p);
		uint32_t type;
		if (!sz)
			break;
		type = ld32(p, p->ibuf + p->ipos);
		if (type < PD_REC_USER_START || type == PD_REC_FINISHED_ROUND ||
		    type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2 ||
		    type == PD_REC_FINISHED_INIT || type == PD_REC_AUXTRACE ||
		    type == PD_REC_TRACING_DATA)
			break;
		unsigned char *r = p->ibuf + p->ipos;
		consume(p, sz);
		p->st.records++;
		process_user(p, r, sz, type);
		if (p->pend_err)
			break;
	}
	return 0;
}

static struct pmc_perfdata *finish_open(struct pmc_perfdata *p)
{
	unsigned char h[PD_FILE_HDR_SIZE];
	ssize_t got;
	uint64_t magic, hsize;
	int rc;

	open_msg[0] = '\0';
	if (p->mem) {
		got = src_pread(p, h, sizeof(h), 0);
	} else {
		struct stat sb;
		p->seekable = fstat(p->fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    lseek(p->fd, 0, SEEK_CUR) != (off_t)-1;
		if (p->seekable) {
			p->fsize = (uint64_t)sb.st_size;
			got = src_pread(p, h, sizeof(h), 0);
		} else {
			/* a pipe: read the 16-byte pipe header first */
			size_t n = 0;
			got = 0;
			while (n < PD_PIPE_HDR_SIZE) {
				ssize_t r = read(p->fd, h + n, PD_PIPE_HDR_SIZE - n);
				if (r < 0 && errno == EINTR)
					continue;
				if (r <= 0) {
					got = r < 0 ? -1 : (ssize_t)n;
					break;
				}
				n += (size_t)r;
				got = (ssize_t)n;
			}
		}
	}
	if (got < 0) {
		rc = -errno;
		open_fail(p, errno, "cannot read: %s", strerror(errno));
		goto fail;
	}
	if (got < 8 || !pmc__perfdata_is_perfdata(h, (size_t)got)) {
		if (got >= 8 && memcmp(h, "PERFFILE", 8) == 0)
			rc = open_fail(p, ENOEXEC, "perf.data version 1 (PERFFILE) is not supported");
		else
			rc = open_fail(p, ENOEXEC, "not a perf.data file (bad magic)");
		goto fail;
	}
	p->be = h[0] == '2';
	magic = ld64(p, h);
	(void)magic;
	{
		static const union { uint16_t u; unsigned char c[2]; } host = { 1 };
		int host_be = host.c[0] == 0;
		if (p->be != host_be)
			p->flags |= PMC_PERFDATA_F_SWAPPED;
		if (p->be)
			p->flags |= PMC_PERFDATA_F_BIG_ENDIAN;
	}
	if (got < 16) {
		rc = open_fail(p, EILSEQ, "corrupt perf.data: the file header is cut");
		goto fail;
	}
	hsize = ld64(p, h + 8);
	if (hsize == PD_PIPE_HDR_SIZE) {
		p->pipe = 1;
		p->flags |= PMC_PERFDATA_F_PIPE;
		if (p->mem || p->seekable) {
			p->data_end = p->mem ? p->memlen : UINT64_MAX;
		} else {
			p->data_end = UINT64_MAX;
		}
		rc = open_pipe_mode(p);
		if (rc < 0)
			goto fail;
		return p;
	}
	if (hsize != PD_FILE_HDR_SIZE && hsize != 72) {
		rc = open_fail(p, EILSEQ, "corrupt perf.data: unknown header size %" PRIu64, hsize);
		goto fail;
	}
	if (!p->mem && !p->seekable) {
		/* file mode on a pipe: the sections are found by offset */
		rc = slurp(p, h, (size_t)got);
		if (rc < 0)
			goto fail;
		got = src_pread(p, h, sizeof(h), 0);
	}
	if ((uint64_t)got < hsize) {
		rc = open_fail(p, EILSEQ, "corrupt perf.data: the file header is cut");
		goto fail;
	}
	rc = open_file_mode(p, h, (size_t)hsize);
	if (rc < 0)
		goto fail;
	return p;
fail:
	pmc__perfdata_close(p);
	errno = -rc;
	return NULL;
}

static int dfile_cmp(const void *a, const void *b)
{
	long x = atol(*(char *const *)a + 5), y = atol(*(char *const *)b + 5);
	return x < y ? -1 : x > y;
}

/* perf record --threads writes a directory: "data" (header, attrs,
 * features, the synthesized records) and data.N (one per reader thread). */
static int open_dir(struct pmc_perfdata *p, int dfd)
{
	DIR *d;
	struct dirent *de;
	int fd = openat(dfd, "data", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		open_fail(p, errno, "a directory without a perf.data 'data' file");
		return -ENOEXEC;
	}
	p->dirfd = dup(dfd);
	p->fd = fd;
	p->own_fd = 1;
	if (p->dirfd < 0)
		return -errno;
	d = fdopendir(dup(p->dirfd));
	if (!d)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		char *end;
		if (strncmp(de->d_name, "data.", 5) || !de->d_name[5])
			continue;
		strtol(de->d_name + 5, &end, 10);
		if (*end)
			continue;
		char **nf = realloc(p->dfiles, (size_t)(p->ndfiles + 1) * sizeof(*nf));
		if (!nf || !(nf[p->ndfiles] = strdup(de->d_name))) {
			if (nf)
				p->dfiles = nf;
			closedir(d);
			return -ENOMEM;
		}
		p->dfiles = nf;
		p->ndfiles++;
	}
	closedir(d);
	if (p->ndfiles)
		qsort(p->dfiles, (size_t)p->ndfiles, sizeof(*p->dfiles), dfile_cmp);
	return 0;
}

struct pmc_perfdata *pmc__perfdata_open(int fd)
{
	struct pmc_perfdata *p;
	struct stat sb;
	if (fd < 0) {
		errno = EBADF;
		return NULL;
	}
	open_msg[0] = '\0';
	p = alloc_reader();
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	p->fd = fd;
	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		p->flags |= PMC_PERFDATA_F_DIR;
		int rc = open_dir(p, fd);
		if (rc < 0) {
			if (!open_msg[0] || rc != -ENOEXEC)
				open_fail(p, -rc, "cannot read the directory: %s", strerror(-rc));
			pmc__perfdata_close(p);
			errno = -rc;
			return NULL;
		}
	}
	return finish_open(p);
}

struct pmc_perfdata *pmc__perfdata_open_mem(const void *buf, size_t len)
{
	struct pmc_perfdata *p = alloc_reader();
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	p->mem = malloc(len ? len : 1);
	if (!p->mem) {
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	if (len)
		memcpy(p->mem, buf, len);
	p->memlen = len;
	p->fsize = len;
	return finish_open(p);
}

void pmc__perfdata_set_ordered(struct pmc_perfdata *p, int on)
{
	p->ordered = on;
}

void pmc__perfdata_close(struct pmc_perfdata *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nattrs; i++) {
		free(p->attrs[i]->name);
		free(p->attrs[i]->ids);
		free(p->attrs[i]);
	}
	free(p->attrs);
	free(p->idkeys);
	free(p->idvals);
	for (int i = 0; i < p->nbids; i++)
		free(p->bids[i].path);
	free(p->bids);
	free(p->bhash);
	for (size_t i = 0; i < p->nheap; i++)
		free(p->heap[i]);
	free(p->heap);
	free(p->ustack);
	free(p->curq);
	free(p->rec);
	free(p->ibuf);
	free(p->dbuf);
	if (p->zd)
		ZSTD_freeDStream(p->zd);
	free(p->mem);
	if (p->own_fd)
		close(p->fd);
	if (p->dirfd >= 0)
		close(p->dirfd);
	for (int i = 0; i < p->ndfiles; i++)
		free(p->dfiles[i]);
	free(p->dfiles);
	free(p->hostname);
	free(p->osrelease);
	free(p->version);
	free(p->arch);
	free(p->cpudesc);
	free(p->cpuid);
	free(p->cmdline);
	free(p);
}

/* ---- user records ---------------------------------------------------------- */

static int decompress(struct pmc_perfdata *p, const unsigned char *src, size_t n)
{
	ZSTD_inBuffer in = { src, n, 0 };

	if (!p->zd) {
		p->zd = ZSTD_createDStream();
		if (!p->zd || ZSTD_isError(ZSTD_initDStream(p->zd)))
			return set_err(p, ENOMEM, "cannot create a zstd decompressor");
	}
	if (p->dpos) {
		memmove(p->dbuf, p->dbuf + p->dpos, p->dlen - p->dpos);
		p->dlen -= p->dpos;
		p->dpos = 0;
	}
	while (in.pos < in.size) {
		if (p->dcap - p->dlen < ZSTD_DStreamOutSize()) {
			size_t nc = p->dcap ? p->dcap * 2 : 4 * ZSTD_DStreamOutSize();
			if (nc > DBUF_MAX)
				return set_err(p, EILSEQ, "corrupt perf.data: a COMPRESSED record at "
				    "%" PRIu64 " expands past %u MB", p->doff, DBUF_MAX >> 20);
			unsigned char *nb = realloc(p->dbuf, nc);
			if (!nb)
				return set_err(p, ENOMEM, "out of memory");
			p->dbuf = nb;
			p->dcap = nc;
		}
		ZSTD_outBuffer out = { p->dbuf, p->dcap, p->dlen };
		size_t r = ZSTD_decompressStream(p->zd, &out, &in);
		if (ZSTD_isError(r))
			return set_err(p, EILSEQ, "corrupt perf.data: the COMPRESSED record at %"
			    PRIu64 " does not decompress: %s", p->doff, ZSTD_getErrorName(r));
		p->dlen = out.pos;
		if (out.pos < out.size && in.pos == in.size)
			break;
	}
	/* flushStream left everything decodable; drain what zstd still holds */
	for (;;) {
		if (p->dcap - p->dlen < ZSTD_DStreamOutSize())
			break;
		ZSTD_outBuffer out = { p->dbuf, p->dcap, p->dlen };
		size_t r = ZSTD_decompressStream(p->zd, &out, &in);
		if (ZSTD_isError(r))
			return set_err(p, EILSEQ, "corrupt perf.data: the COMPRESSED record at %"
			    PRIu64 " does not decompress: %s", p->doff, ZSTD_getErrorName(r));
		if (out.pos == p->dlen)
			break;
		p->dlen = out.pos;
	}
	return 0;
}

static void flush_round(struct pmc_perfdata *p)
{
	p->flush_limit = p->next_flush;
	p->flushing = 1;
	p->last_flush = p->flush_limit;
	p->next_flush = p->max_ts;
}

static int process_user(struct pmc_perfdata *p, const unsigned char *r, size_t len,
    uint32_t type)
{
	switch (type) {
	case PD_REC_HEADER_ATTR: {
		struct pmc_perfdata_attr a;
		uint32_t nru, nri;
		size_t sz = parse_attr(p, r + 8, len - 8, &a, &nru, &nri);
		if (!sz) {
			p->st.skipped++;
			return 0;
		}
		return add_attr(p, &a, nru, nri, r + 8 + sz, (len - 8 - sz) / 8);
	}
	case PD_REC_HEADER_FEATURE:
		if (len >= 16) {
			uint64_t feat = ld64(p, r + 8);
			if (feat < PD_FEAT_BITS)
				parse_feature(p, (int)feat, r + 16, len - 16);
		}
		return 0;
	case PD_REC_EVENT_UPDATE:
		if (len > 24 && ld64(p, r + 8) == PD_EVENT_UPDATE_NAME) {
			int idx = id_get(p, ld64(p, r + 16));
			if (idx >= 0)
				set_attr_name(p, p->attrs[idx], (const char *)r + 24, len - 24);
		}
		return 0;
	case PD_REC_HEADER_BUILD_ID:
		add_buildid(p, r, len);
		return 0;
	case PD_REC_FINISHED_ROUND:
		/* in the directory format the rounds are in the main file and the
		 * samples in data.N: sort everything at the end instead */
		if (p->ordered && p->dirfd < 0)
			flush_round(p);
		return 0;
	case PD_REC_TRACING_DATA:
		/* u32 size; the tracing data follows the record, 8-byte aligned */
		if (len >= 12)
			skip_bytes(p, ((uint64_t)ld32(p, r + 8) + 7) & ~7ULL);
		p->st.skipped++;
		return 0;
	case PD_REC_AUXTRACE:
		/* u64 size ... ; the trace data follows the record */
		if (len >= 16)
			skip_bytes(p, ld64(p, r + 8));
		p->st.skipped++;
		return 0;
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2: {
		const unsigned char *d = r + 8;
		size_t n = len - 8;
		if (type == PD_REC_COMPRESSED2) {
			uint64_t ds;
			if (len < 16)
				return set_err(p, EILSEQ, "corrupt perf.data: a short COMPRESSED2 record");
			ds = ld64(p, r + 8);
			if (ds > len - 16)
				return set_err(p, EILSEQ, "corrupt perf.data: a COMPRESSED2 record's"
				    " data size (%" PRIu64 ") exceeds the record", ds);
			d = r + 16;
			n = (size_t)ds;
		}
		p->flags |= PMC_PERFDATA_F_COMPRESSED;
		p->st.compressed++;
		return decompress(p, d, n);
	}
	default:
		p->st.skipped++;      /* ID_INDEX, THREAD_MAP, STAT, TIME_CONV ...: unused */
		return 0;
	}
}

/* ---- kernel records: the attr, the time ------------------------------- */

#define TRAILER_BITS (PD_S_TID | PD_S_TIME | PD_S_ID | PD_S_STREAM_ID | PD_S_CPU | \
	PD_S_IDENTIFIER)

/* perf's evlist__event2evsel: NULL if the record names an unknown id. */
static const struct pd_attr *rec_attr(const struct pmc_perfdata *p, const unsigned char *r,
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
	idx = id_get(p, id);
	return idx < 0 ? NULL : p->attrs[idx];
}

struct trailer {
	uint64_t time, id;
	uint32_t pid, tid, cpu;
	int has_time, has_cpu, has_id, has_tid;
	size_t size;
};

static int parse_trailer(const struct pmc_perfdata *p, const struct pd_attr *a,
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
static uint64_t rec_time(const struct pmc_perfdata *p, const struct pd_attr *a,
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
	if (parse_trailer(p, a, r, len, &t) < 0 || !t.has_time)
		return 0;
	return t.time;
}

/* ---- the queue (a min-heap on time, then arrival) ------------------------- */

static int qless(const struct qent *a, const struct qent *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static int q_push(struct pmc_perfdata *p, struct qent *e)
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

static struct qent *q_pop(struct pmc_perfdata *p)
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

/* ---- translation ----------------------------------------------------------- */

static void set_time(struct pmclog_ev *ev, uint64_t t)
{
	ev->pl_time = t;
	ev->pl_ts.tv_sec = (time_t)(t / 1000000000u);
	ev->pl_ts.tv_nsec = (long)(t % 1000000000u);
}

static void copy_str(char *dst, size_t dsz, const unsigned char *src, size_t n)
{
	size_t k = strnlen((const char *)src, n);
	if (k >= dsz)
		k = dsz - 1;
	memcpy(dst, src, k);
	dst[k] = '\0';
}

static pmc_id_t id_pmc(const struct pmc_perfdata *p, uint64_t id)
{
	int idx = id_get(p, id);
	if (idx < 0)
		return p->nattrs == 1 ? p->attrs[0]->pub.pmcid : PMC_ID_INVALID;
	return p->attrs[idx]->pub.pmcid;
}

static int cpumode_user(uint16_t misc)
{
	int m = misc & PD_MISC_CPUMODE_MASK;
	return m == PD_MISC_USER || m == PD_MISC_GUEST_USER;
}

/* The sample's user registers and stack (perf record --call-graph dwarf),
 * copied into the reader: the record is gone by the next read. */
static void take_ustack(struct pmc_perfdata *p, const struct psample *ps,
    struct pmclog_ev_callchain *cc)
{
	cc->pl_nuregs = 0;
	cc->pl_ustack_len = 0;
	cc->pl_ustack = NULL;
	if (ps->regs_user.abi == PSAMPLE_REGS_ABI_NONE || ps->regs_user.nr > 64)
		return;
	for (uint32_t i = 0; i < ps->regs_user.nr; i++)
		cc->pl_uregs[i] = psample__u64(ps, ps->regs_user.regs, i);
	cc->pl_uregs_abi = (uint32_t)ps->regs_user.abi;
	cc->pl_uregs_mask = ps->regs_user.mask;
	cc->pl_nuregs = ps->regs_user.nr;
	if (!ps->stack_dyn_size)
		return;
	if (ps->stack_dyn_size > p->ustack_cap) {
		unsigned char *b = realloc(p->ustack, (size_t)ps->stack_dyn_size);
		if (!b)
			return;               /* unwound as far as the registers go */
		p->ustack = b;
		p->ustack_cap = (size_t)ps->stack_dyn_size;
	}
	memcpy(p->ustack, ps->stack, (size_t)ps->stack_dyn_size);
	cc->pl_ustack = p->ustack;
	cc->pl_ustack_len = (uint32_t)ps->stack_dyn_size;
}

/* SAMPLE -> CALLCHAIN, decoded by lib/common/perf_sample.  0: dropped. */
static int tr_sample(struct pmc_perfdata *p, const struct pd_attr *a, const unsigned char *r,
    size_t len, struct pmclog_ev *ev)
{
	struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	struct psample ps;
	struct psample_layout l;
	uint16_t misc = ld16(p, r + 4);
	int user = cpumode_user(misc), has_ip;

	if (!a) {
		p->st.unknown_id++;
		return 0;
	}
	l.sample_type = a->pub.sample_type;
	l.read_format = a->pub.read_format;
	l.branch_sample_type = a->pub.branch_sample_type;
	l.regs_user = a->pub.sample_regs_user;
	l.regs_intr = a->pub.sample_regs_intr;
	if (psample__parse(&ps, &l, r + 8, len - 8, p->be) < 0) {
		p->st.bad_samples++;
		return 0;
	}
	has_ip = (l.sample_type & PD_S_IP) != 0;

	ev->pl_type = PMCLOG_TYPE_CALLCHAIN;
	cc->pl_pid = (l.sample_type & PD_S_TID) ? ps.pid : (uint32_t)-1;
	cc->pl_tid = (l.sample_type & PD_S_TID) ? ps.tid : (uint32_t)-1;
	cc->pl_pmcid = a->pub.pmcid;
	cc->pl_cpu = ps.cpu;
	cc->pl_cpuflags2 = 0;
	/* a fixed period (perf record -c N) is not in the samples: each one
	 * stands for the attr's sample_period events, as perf counts it */
	cc->pl_period = (l.sample_type & PD_S_PERIOD) ? ps.period :
	    (a->pub.freq ? 0 : a->pub.period);
	cc->pl_npc = 0;
	if (has_ip) {
		cc->pl_pc[0] = ps.ip;
		cc->pl_pcflags[0] = user ? PMC_CC_F_USERSPACE : 0;
		cc->pl_npc = 1;
	}
	if (ps.callchain_nr) {
		int ctx_user = user, first = 1;
		for (uint64_t i = 0; i < ps.callchain_nr && cc->pl_npc < PMC_CALLCHAIN_DEPTH_MAX; i++) {
			uint64_t pc = psample__u64(&ps, ps.callchain, i);
			if (pc >= PD_CONTEXT_MAX) {
				if (pc == PD_CONTEXT_USER || pc == PD_CONTEXT_GUEST_USER)
					ctx_user = 1;
				else if (pc == PD_CONTEXT_KERNEL || pc == PD_CONTEXT_HV ||
				    pc == PD_CONTEXT_GUEST_KERNEL)
					ctx_user = 0;
				continue;
			}
			/* the chain starts with the sampled pc itself: it is pc[0] */
			if (first && has_ip && pc == ps.ip) {
				cc->pl_pcflags[0] = ctx_user ? PMC_CC_F_USERSPACE : 0;
				first = 0;
				continue;
			}
			first = 0;
			cc->pl_pc[cc->pl_npc] = pc;
			cc->pl_pcflags[cc->pl_npc] = ctx_user ? PMC_CC_F_USERSPACE : 0;
			cc->pl_npc++;
		}
	}
	if (cc->pl_npc == 0) {
		cc->pl_pc[0] = 0;
		cc->pl_pcflags[0] = user ? PMC_CC_F_USERSPACE : 0;
		cc->pl_npc = 1;
	}
	take_ustack(p, &ps, cc);
	cc->pl_usermode = user;
	cc->pl_cpuflags = (ps.cpu & 0xFFFF) << 16 | (user ? PMC_CC_F_USERSPACE : 0);
	set_time(ev, (l.sample_type & PD_S_TIME) ? ps.time : p->last_time);
	p->st.samples++;
	return 1;
}

/* One kernel record, sub-event `sub`: 1 if ev was filled, 0 if no (more). */
static int translate(struct pmc_perfdata *p, const struct pd_attr *a, const unsigned char *r,
    size_t len, int sub, struct pmclog_ev *ev)
{
	uint32_t type = ld32(p, r);
	uint16_t misc = ld16(p, r + 4);
	struct trailer t;
	size_t body;                  /* bytes before the trailer */

	if (type == PD_REC_SAMPLE)
		return sub == 0 ? tr_sample(p, a, r, len, ev) : 0;
	if (parse_trailer(p, a, r, len, &t) < 0)
		t.size = 0;
	body = len - t.size;
	set_time(ev, t.has_time ? t.time : p->last_time);

	switch (type) {
	case PD_REC_MMAP:
	case PD_REC_MMAP2: {
		struct pmclog_ev_map_in *mi = &ev->pl_u.pl_mi;
		size_t fo = type == PD_REC_MMAP ? 40 : 72;
		const struct pd_bid *b;
		if (sub || body < fo)
			return 0;
		ev->pl_type = PMCLOG_TYPE_MAP_IN;
		mi->pl_pid = (pid_t)ld32(p, r + 8);
		mi->pl_start = ld64(p, r + 16);
		mi->pl_len = ld64(p, r + 24);
		mi->pl_pgoff = ld64(p, r + 32);
		copy_str(mi->pl_pathname, sizeof(mi->pl_pathname), r + fo, body - fo);
		mi->pl_buildid_len = 0;
		memset(mi->pl_buildid, 0, sizeof(mi->pl_buildid));
		if (type == PD_REC_MMAP) {
			mi->pl_prot = (misc & PD_MISC_MMAP_DATA) ? 0x1 : 0x5; /* PROT_READ[|EXEC] */
			mi->pl_mflags = 0;
		} else {
			mi->pl_prot = ld32(p, r + 64);
			mi->pl_mflags = ld32(p, r + 68);
			if (misc & PD_MISC_MMAP_BUILD_ID) {
				uint8_t n = r[40];
				mi->pl_buildid_len = n > 20 ? 20 : n;
				memcpy(mi->pl_buildid, r + 44, mi->pl_buildid_len);
			}
		}
		if (!mi->pl_buildid_len) {
			b = bid_find(p, mi->pl_pathname);
			if (!b && strncmp(mi->pl_pathname, "[kernel.kallsyms]", 17) == 0)
				b = bid_find(p, "[kernel.kallsyms]");
			if (b && b->pub.size) {
				mi->pl_buildid_len = b->pub.size;
				memcpy(mi->pl_buildid, b->pub.id, b->pub.size);
			}
		}
		return 1;
	}
	case PD_REC_COMM: {
		if (body < 16)
			return 0;
		if (sub == 0) {
			struct pmclog_ev_comm *cm = &ev->pl_u.pl_cm;
			ev->pl_type = PMCLOG_TYPE_COMM;
			cm->pl_pid = (pid_t)ld32(p, r + 8);
			cm->pl_tid = (pid_t)ld32(p, r + 12);
			cm->pl_flags = (misc & PD_MISC_COMM_EXEC) ? PMCLOG_COMM_F_EXEC : 0;
			copy_str(cm->pl_comm, sizeof(cm->pl_comm), r + 16, body - 16);
			return 1;
		}
		if (sub == 1 && (misc & PD_MISC_COMM_EXEC)) {
			struct pmclog_ev_procexec *x = &ev->pl_u.pl_x;
			ev->pl_type = PMCLOG_TYPE_PROCEXEC;
			x->pl_pid = (pid_t)ld32(p, r + 8);
			x->pl_tid = (pid_t)ld32(p, r + 12);
			x->pl_pmcid = a ? a->pub.pmcid : PMC_ID_INVALID;
			x->pl_baseaddr = 0;
			x->pl_dynaddr = 0;
			copy_str(x->pl_pathname, sizeof(x->pl_pathname), r + 16, body - 16);
			return 1;
		}
		return 0;
	}
	case PD_REC_FORK:
	case PD_REC_EXIT: {
		uint32_t pid, ppid, tid, ptid;
		if (body < 24)
			return 0;
		pid = ld32(p, r + 8);
		ppid = ld32(p, r + 12);
		tid = ld32(p, r + 16);
		ptid = ld32(p, r + 20);
		if (!t.has_time && body >= 32)
			set_time(ev, ld64(p, r + 24));
		if (type == PD_REC_FORK) {
			if (sub)
				return 0;
			if (pid != ppid) {
				ev->pl_type = PMCLOG_TYPE_PROCFORK;
				ev->pl_u.pl_f.pl_oldpid = (pid_t)ppid;
				ev->pl_u.pl_f.pl_newpid = (pid_t)pid;
				ev->pl_u.pl_f.pl_oldtid = (pid_t)ptid;
				ev->pl_u.pl_f.pl_newtid = (pid_t)tid;
			} else {
				ev->pl_type = PMCLOG_TYPE_THR_CREATE;
				ev->pl_u.pl_tc.pl_tid = (pid_t)tid;
				ev->pl_u.pl_tc.pl_pid = (pid_t)pid;
				ev->pl_u.pl_tc.pl_flags = 0;
				ev->pl_u.pl_tc.pl_tdname[0] = '\0';
			}
			return 1;
		}
		if (sub == 0) {
			ev->pl_type = PMCLOG_TYPE_THR_EXIT;
			ev->pl_u.pl_te.pl_tid = (pid_t)tid;
			ev->pl_u.pl_te.pl_pid = (pid_t)pid;
			return 1;
		}
		if (sub == 1 && pid == tid) {
			ev->pl_type = PMCLOG_TYPE_SYSEXIT;
			ev->pl_u.pl_se.pl_pid = (pid_t)pid;
			return 1;
		}
		return 0;
	}
	case PD_REC_LOST:
	case PD_REC_LOST_SAMPLES: {
		struct pmclog_ev_dropnotify *dn = &ev->pl_u.pl_dn;
		if (sub)
			return 0;
		if (type == PD_REC_LOST) {
			if (body < 24)
				return 0;
			dn->pl_count = ld64(p, r + 16);
			dn->pl_pmcid = id_pmc(p, ld64(p, r + 8));
			dn->pl_reason = PMCLOG_DROP_RING;
		} else {
			if (body < 16)
				return 0;
			dn->pl_count = ld64(p, r + 8);
			dn->pl_pmcid = a ? a->pub.pmcid : PMC_ID_INVALID;
			dn->pl_reason = PMCLOG_DROP_SAMPLES;
		}
		dn->pl_cpu = t.has_cpu ? (int32_t)t.cpu : -1;
		ev->pl_type = PMCLOG_TYPE_DROPNOTIFY;
		p->st.lost += dn->pl_count;
		return 1;
	}
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
		if (sub || body < 32)
			return 0;
		ev->pl_type = PMCLOG_TYPE_THROTTLE;
		ev->pl_u.pl_th.pl_pmcid = id_pmc(p, ld64(p, r + 16));
		ev->pl_u.pl_th.pl_throttled = type == PD_REC_THROTTLE;
		ev->pl_u.pl_th.pl_cpu = t.has_cpu ? (int32_t)t.cpu : -1;
		if (!t.has_time)
			set_time(ev, ld64(p, r + 8));
		return 1;
	case PD_REC_KSYMBOL: {
		struct pmclog_ev_ksymbol *k = &ev->pl_u.pl_ksym;
		if (sub || body < 24)
			return 0;
		ev->pl_type = PMCLOG_TYPE_KSYMBOL;
		k->pl_addr = ld64(p, r + 8);
		k->pl_len = ld32(p, r + 16);
		k->pl_ksymtype = ld16(p, r + 20);
		k->pl_flags = ld16(p, r + 22);
		copy_str(k->pl_name, sizeof(k->pl_name), r + 24, body - 24);
		return 1;
	}
	case PD_REC_READ: {
		struct psample ps;
		struct psample_readval rv;
		if (body < 16 || !a || psample__parse_read(&ps, a->pub.read_format, r + 16,
		    body - 16, p->be) < 0 || (uint64_t)sub >= ps.read.nr)
			return 0;
		psample__read_value(&ps, a->pub.read_format, (uint64_t)sub, &rv);
		ev->pl_type = PMCLOG_TYPE_PROCEXIT;
		ev->pl_u.pl_e.pl_pid = ld32(p, r + 8);
		ev->pl_u.pl_e.pl_tid = (pid_t)ld32(p, r + 12);
		ev->pl_u.pl_e.pl_pmcid = (a->pub.read_format & PD_R_ID) ? id_pmc(p, rv.id) :
		    a->pub.pmcid;
		ev->pl_u.pl_e.pl_value = rv.value;
		return 1;
	}
	default:
		return 0;             /* SWITCH, AUX, NAMESPACES, CGROUP, BPF ...: nothing */
	}
}

/* ---- delivery -------------------------------------------------------------- */

static void deliver_header(struct pmc_perfdata *p, struct pmclog_ev *ev)
{
	struct pmclog_ev_header *h = &ev->pl_u.pl_h;
	char *ver = p->verbuf;
	memset(h, 0, sizeof(*h));
	ev->pl_type = PMCLOG_TYPE_HEADER;
	h->pl_format_major = PMCLOG_FORMAT_MAJOR;
	h->pl_format_minor = PMCLOG_FORMAT_MINOR;
	h->pl_version = PMC_VERSION;
	h->pl_clockid = 1;            /* CLOCK_MONOTONIC: perf's clock, nominally */
	if (p->nattrs && (p->attrs[0]->pub.flags & PD_ATTR_USE_CLOCKID))
		h->pl_clockid = (uint32_t)p->attrs[0]->pub.clockid;
	if (p->have_clock) {
		h->pl_clockid = p->clk_id;
		h->pl_start_realtime = p->clk_tod;
		h->pl_start_clock = p->clk_ns;
	}
	h->pl_flags = (p->flags & PMC_PERFDATA_F_COMPRESSED) ? PMCLOG_HDR_F_ZSTD : 0;
	h->pl_arch = PMC_CPU_GENERIC;
	snprintf(ver, sizeof(p->verbuf), "perf %s", p->version ? p->version : "");
	if (!p->version)
		ver[4] = '\0';
	h->pl_libversion = ver;
	h->pl_hostname = p->hostname ? p->hostname : "";
	h->pl_kernel = p->osrelease ? p->osrelease : "";
	h->pl_cpudesc = p->cpudesc ? p->cpudesc : "";
	h->pl_cmdline = p->cmdline ? p->cmdline : "";
	set_time(ev, h->pl_start_clock);
	ev->pl_offset = 0;
	ev->pl_data = NULL;
	ev->pl_len = 0;
}

static void deliver_alloc(struct pmc_perfdata *p, struct pd_attr *a, struct pmclog_ev *ev)
{
	struct pmclog_ev_pmcallocate *al = &ev->pl_u.pl_a;
	memset(al, 0, sizeof(*al));
	ev->pl_type = PMCLOG_TYPE_PMCALLOCATE;
	al->pl_evname = a->name;
	al->pl_rate = a->pub.period;
	al->pl_freq = (uint32_t)a->pub.freq;
	al->pl_event = 0;
	al->pl_flags = (a->pub.sample_type & PD_S_CALLCHAIN) ? PMC_F_CALLCHAIN : 0;
	if (a->pub.flags & PD_ATTR_INHERIT)
		al->pl_flags |= PMC_F_DESCENDANTS;
	al->pl_pmcid = a->pub.pmcid;
	al->pl_mode = (a->pub.period || a->pub.freq) ? PMC_MODE_TS : PMC_MODE_TC;
	al->pl_cpu = -1;
	set_time(ev, p->have_clock ? p->clk_ns : 0);
	ev->pl_offset = 0;
	ev->pl_data = NULL;
	ev->pl_len = 0;
	a->announced = 1;
}

/* Store r as the current record (copied). */
static int set_cur_copy(struct pmc_perfdata *p, const unsigned char *r, size_t len,
    uint64_t off, const struct pd_attr *a)
{
	if (len > p->reccap) {
		size_t nc = len < 65536 ? 65536 : len;
		unsigned char *nb = realloc(p->rec, nc);
		if (!nb)
			return set_err(p, ENOMEM, "out of memory");
		p->rec = nb;
		p->reccap = nc;
	}
	memcpy(p->rec, r, len);
	p->cur = p->rec;
	p->curlen = len;
	p->curoff = off;
	p->curattr = a;
	p->cursub = 0;
	p->curactive = 1;
	return 0;
}

/* Next raw record: from the decompressed stream first, else the source.
 * Returns its length with *rp pointing at it (valid until the next call),
 * 0 at the end (input_done set) or on damage. */
static size_t next_raw(struct pmc_perfdata *p, const unsigned char **rp, uint64_t *offp)
{
	for (;;) {
		if (p->pend_err)
			return 0;
		if (p->dlen - p->dpos >= 8) {
			size_t sz = ld16(p, p->dbuf + p->dpos + 6);
			if (sz < 8) {
				set_err(p, EILSEQ, "corrupt perf.data: a record of size %zu inside the"
				    " COMPRESSED record at %" PRIu64, sz, p->doff);
				return 0;
			}
			if (p->dlen - p->dpos >= sz) {
				*rp = p->dbuf + p->dpos;
				*offp = p->doff;
				p->dpos += sz;
				p->st.records++;
				p->nested = 1;
				return sz;
			}
		}
		size_t sz = peek_raw(p);
		if (!sz) {
			if (p->dlen > p->dpos)
				p->truncated = 1;   /* a record cut inside compressed data */
			p->input_done = 1;
			return 0;
		}
		const unsigned char *r = p->ibuf + p->ipos;
		uint64_t off = p->ioff;
		uint32_t type = ld32(p, r);
		consume(p, sz);
		if (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2) {
			p->doff = off;
			p->st.records++;
			process_user(p, r, sz, type);
			continue;
		}
		*rp = r;
		*offp = off;
		p->st.records++;
		p->nested = 0;
		return sz;
	}
}

/* Find the next kernel record to translate and make it current.  0 ok,
 * -1 when there is none (end, or damage). */
static int next_record(struct pmc_perfdata *p)
{
	for (;;) {
		/* a round being released, or the end: pop the queue */
		if (p->nheap && (p->input_done || p->forcing ||
		    (p->flushing && p->heap[0]->ts <= p->flush_limit))) {
			struct qent *e = q_pop(p);
			if (p->forcing && p->qbytes < QUEUE_MAX / 2)
				p->forcing = 0;
			free(p->curq);
			p->curq = e;
			p->cur = e->data;
			p->curlen = e->len;
			p->curoff = e->off;
			p->curattr = e->attr;
			p->cursub = 0;
			p->curactive = 1;
			return 0;
		}
		p->flushing = 0;
		if (p->input_done)
			return -1;
		/* new attrs (pipe mode) are announced before what follows them */
		if (!p->announced_all)
			return 0;

		const unsigned char *r;
		uint64_t off;
		size_t len = next_raw(p, &r, &off);
		if (!len)
			continue;     /* input_done now: drain the queue */
		uint32_t type = ld32(p, r);
		if (type >= PD_REC_USER_START) {
			/* inside compressed data only kernel records make sense: a
			 * COMPRESSED or a record with a trailing payload there is junk */
			if (p->nested && (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2 ||
			    type == PD_REC_AUXTRACE || type == PD_REC_TRACING_DATA)) {
				p->st.skipped++;
				continue;
			}
			process_user(p, r, len, type);
			continue;
		}
		if (type > PD_REC_AUX_OUTPUT_HW_ID || type == 0) {
			p->st.skipped++;
			continue;
		}
		const struct pd_attr *a = rec_attr(p, r, len, type);
		uint64_t ts = rec_time(p, a, r, len, type);
		if (p->ordered && ts != 0 && ts != UINT64_MAX && a) {
			struct qent *e = malloc(sizeof(*e) + len);
			if (!e) {
				set_err(p, ENOMEM, "out of memory");
				continue;
			}
			e->ts = ts;
			e->seq = p->seq++;
			e->off = off;
			e->len = len;
			e->attr = a;
			memcpy(e->data, r, len);
			if (ts < p->last_flush)
				p->st.unordered++;
			if (ts > p->max_ts)
				p->max_ts = ts;
			if (q_push(p, e) < 0) {
				free(e);
				set_err(p, ENOMEM, "out of memory");
				continue;
			}
			if (p->qbytes > QUEUE_MAX)
				p->forcing = 1;
			continue;
		}
		if (set_cur_copy(p, r, len, off, a) < 0)
			continue;
		return 0;
	}
}

int pmc__perfdata_read(struct pmc_perfdata *p, struct pmclog_ev *ev)
{
	if (p->err) {
		ev->pl_state = PMCLOG_ERROR;
		errno = p->err;
		return -1;
	}
	if (!p->header_done) {
		deliver_header(p, ev);
		p->header_done = 1;
		goto ok;
	}
	for (;;) {
		if (!p->announced_all) {
			int i;
			for (i = 0; i < p->nattrs; i++)
				if (!p->attrs[i]->announced)
					break;
			if (i < p->nattrs) {
				deliver_alloc(p, p->attrs[i], ev);
				goto ok;
			}
			p->announced_all = 1;
		}
		if (p->curactive) {
			int got = translate(p, p->curattr, p->cur, p->curlen, p->cursub++, ev);
			if (got) {
				uint32_t type = ld32(p, p->cur);
				ev->pl_offset = (off_t)p->curoff;
				ev->pl_data = (void *)p->cur;
				ev->pl_len = (int)p->curlen;
				if (type == PD_REC_SAMPLE || ev->pl_time)
					p->last_time = ev->pl_time;
				goto ok;
			}
			p->curactive = 0;
		}
		if (next_record(p) < 0)
			break;
	}
	/* the end: the queue is drained */
	if (p->pend_err) {
		p->err = p->pend_err;
		ev->pl_state = PMCLOG_ERROR;
		errno = p->err;
		return -1;
	}
	ev->pl_state = PMCLOG_EOF;
	return -1;
ok:
	ev->pl_state = PMCLOG_OK;
	ev->pl_count = ++p->count;
	return 0;
}

const char *pmc__perfdata_errmsg(struct pmc_perfdata *p)
{
	return p && (p->err || p->pend_err) ? p->errmsg : "";
}

/* ---- accessors ---------------------------------------------------------- */

int pmc__perfdata_nattrs(struct pmc_perfdata *p)
{
	return p->nattrs;
}

const struct pmc_perfdata_attr *pmc__perfdata_attr(struct pmc_perfdata *p, int i)
{
	return i >= 0 && i < p->nattrs ? &p->attrs[i]->pub : NULL;
}

const struct pmc_perfdata_attr *pmc__perfdata_attr_by_pmcid(struct pmc_perfdata *p,
    pmc_id_t pmcid)
{
	for (int i = 0; i < p->nattrs; i++)
		if (p->attrs[i]->pub.pmcid == pmcid)
			return &p->attrs[i]->pub;
	return NULL;
}

int pmc__perfdata_nbuildids(struct pmc_perfdata *p)
{
	return p->nbids;
}

const struct pmc_perfdata_buildid *pmc__perfdata_buildid(struct pmc_perfdata *p, int i)
{
	return i >= 0 && i < p->nbids ? &p->bids[i].pub : NULL;
}

#define STR_ACCESSOR(NAME, FIELD) \
	const char *pmc__perfdata_##NAME(struct pmc_perfdata *p) \
	{ return p->FIELD ? p->FIELD : ""; }
STR_ACCESSOR(hostname, hostname)
STR_ACCESSOR(osrelease, osrelease)
STR_ACCESSOR(perf_version, version)
STR_ACCESSOR(arch, arch)
STR_ACCESSOR(cpudesc, cpudesc)
STR_ACCESSOR(cpuid, cpuid)
STR_ACCESSOR(cmdline, cmdline)

int pmc__perfdata_nr_cpus(struct pmc_perfdata *p)
{
	return p->nr_cpus;
}

unsigned pmc__perfdata_flags(struct pmc_perfdata *p)
{
	return p->flags;
}

int pmc__perfdata_truncated(struct pmc_perfdata *p)
{
	return p->truncated;
}

void pmc__perfdata_get_stats(struct pmc_perfdata *p, struct pmc_perfdata_stats *st)
{
	*st = p->st;
}
