/*
 * reader_header.c — what a perf.data says about itself, for the reader
 * (see reader_internal.h): its attrs and the ids that name them, the
 * feature sections (hostname, cpu, cmdline, event names, clock ...), the
 * opening of file, pipe and directory modes, and the accessors of
 * perfdata.h that answer from them.  perf's util/header.c.
 */
#include "perfdata/reader_internal.h"
/* ---- attrs and ids ------------------------------------------------------- */

static uint64_t hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return v;
}

static int id_eq(const void *tab, uint32_t i, const void *key)
{
	return ((const struct pd_id *)tab)[i].id == *(const uint64_t *)key;
}

static int id_put(struct perfdata *p, uint64_t id, int idx)
{
	int added;
	struct hidx_slot *s = hidx_get(&p->idix, hash64(id), 64, id_eq, p->idv, &id,
	    (uint32_t)p->nidv, &added);
	if (!s)
		return -ENOMEM;
	if (!added) {
		p->idv[s->v - 1].attr = idx;      /* a later attr claims the id */
		return 0;
	}
	if (GROW(p->idv, p->nidv, p->capidv) < 0) {
		hidx_unadd(&p->idix, s);
		return -ENOMEM;
	}
	p->idv[p->nidv++] = (struct pd_id){ id, idx };
	return 0;
}

int pd_id_get(const struct perfdata *p, uint64_t id)
{
	int64_t i = hidx_find(&p->idix, hash64(id), id_eq, p->idv, &id);
	return i >= 0 && p->idv[i].attr < p->nattrs ? p->idv[i].attr : -1;
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
static void derive_name(const struct perfdata_attr *a, char *buf, size_t len)
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
size_t pd_parse_attr(struct perfdata *p, const unsigned char *b, size_t avail,
    struct perfdata_attr *a, uint32_t *nregs_user, uint32_t *nregs_intr)
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
	a->flags = pd_ld_bits(p, b + PD_AOFF_FLAGS);
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

int pd_add_attr(struct perfdata *p, const struct perfdata_attr *a,
    uint32_t nru, uint32_t nri, const unsigned char *ids, size_t nids)
{
	struct pd_attr *x;
	int idx = p->nattrs;

	if (p->nattrs >= MAX_ATTRS)
		return pd_set_err(p, EILSEQ, "corrupt perf.data: more than %d events", MAX_ATTRS);
	if (GROW(p->attrs, p->nattrs, p->acap) < 0)
		return pd_set_err(p, ENOMEM, "out of memory");
	x = calloc(1, sizeof(*x));
	if (!x)
		return pd_set_err(p, ENOMEM, "out of memory");
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
	pd_attr_layout(x);
	p->nattrs++;
	p->announced_all = 0;
	if (idx == 0) {
		p->id_pos = x->lay.id_pos;
		p->is_pos = x->lay.is_pos;
	}
	return 0;
nomem:
	free(x->ids);
	free(x);
	p->attrs[idx] = NULL;
	return pd_set_err(p, ENOMEM, "out of memory");
}

void pd_set_attr_name(struct perfdata *p, struct pd_attr *a, const char *name,
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

/* ---- features ----------------------------------------------------------- */

/* A bounds-checked reader over a buffer in the file's byte order: reading
 * past the end yields 0 and sets bad (features and record bodies alike). */
struct fcur {
	const struct perfdata *p;
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

static void parse_event_desc(struct perfdata *p, struct fcur *c)
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
		int idx = have_id ? pd_id_get(p, id0) : -1;
		if (idx < 0 && nre == (uint32_t)p->nattrs)
			idx = (int)i;         /* no ids (one event): by position */
		if (idx >= 0 && idx < p->nattrs)
			pd_set_attr_name(p, p->attrs[idx], name, strlen(name));
		free(name);
	}
}

void pd_set_tracing_data(struct perfdata *p, const unsigned char *b, size_t n)
{
	unsigned char *t = malloc(n ? n : 1);
	if (!t) {
		pd_set_err(p, ENOMEM, "out of memory");
		return;
	}
	memcpy(t, b, n);
	free(p->tdata);
	p->tdata = t;
	p->tdlen = n;
	p->tdpending = n > 0;
}

void pd_parse_feature(struct perfdata *p, int feat, const unsigned char *b, size_t n)
{
	struct fcur c = { p, b, n, 0, 0 };

	switch (feat) {
	case PD_FEAT_TRACING_DATA: pd_set_tracing_data(p, b, n); break;
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
			if (GROW_FROM(out, tot, cap, sl + 2, 256) < 0) {
				free(s);
				break;
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
		pd_parse_buildid_section(p, b, n);
		break;
	case PD_FEAT_COMPRESSED:
		p->flags |= PERFDATA_F_COMPRESSED;
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

static struct perfdata *alloc_reader(void)
{
	struct perfdata *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->fd = -1;
	p->dirfd = -1;
	p->ordered = 1;
	p->id_pos = p->is_pos = -1;
	p->data_end = UINT64_MAX;
	p->sdepth = PMC_CALLCHAIN_DEPTH_MAX;
	return p;
}

static int open_fail(struct perfdata *p, int e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int open_fail(struct perfdata *p, int e, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	(void)p;
	return pmc__err(-e, "%s", why);
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
static uint64_t file_mode_extent(struct perfdata *p, const unsigned char *m, size_t len)
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
static int slurp(struct perfdata *p, const unsigned char *prefix, size_t plen)
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
			size_t ncap = grow__cap(cap, cap + 1, 1 << 20);
			if (ncap > PD_PIPE_HOLD_MAX)
				ncap = PD_PIPE_HOLD_MAX;
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

static int read_at(struct perfdata *p, void *buf, size_t n, uint64_t off)
{
	ssize_t r = pd_src_pread(p, buf, n, off);
	if (r < 0)
		return -errno;
	return r == (ssize_t)n ? 0 : -EILSEQ;
}

static int test_feat(const struct perfdata *p, int bit)
{
	return (int)((p->feat[bit / 64] >> (bit % 64)) & 1);
}

static int open_file_mode(struct perfdata *p, const unsigned char *h, size_t hsize)
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
		struct perfdata_attr a;
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
		sz = pd_parse_attr(p, ab, avail, &a, &nru, &nri);
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
		rc = pd_add_attr(p, &a, nru, nri, ids, (size_t)(isz / 8));
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
			p->feat_n++;
			if (read_at(p, s, 16, tab + 16 * (uint64_t)k++) < 0) {
				p->feat_cut++;    /* a cut feature table: no more features */
				continue;
			}
			off = ld64(p, s);
			sz = ld64(p, s + 8);
			if (off > p->fsize || sz > p->fsize - off || sz > FEAT_MAX) {
				p->feat_cut++;    /* points past the end: skipped */
				continue;
			}
			unsigned char *fb = malloc(sz ? (size_t)sz : 1);
			if (!fb)
				return -ENOMEM;
			if (read_at(p, fb, (size_t)sz, off) == 0)
				pd_parse_feature(p, bit, fb, (size_t)sz);
			free(fb);
		}
	}
	return 0;
}
/* Peek the next raw record in ibuf: its length, or 0 at the end / damage. */
size_t pd_peek_raw(struct perfdata *p)
{
	uint32_t sz;
	/* most records are whole in the buffer already: no pd_ensure calls */
	if (p->ilen - p->ipos >= 8) {
		sz = ld16(p, p->ibuf + p->ipos + 6);
		if (sz >= 8 && sz <= p->ilen - p->ipos)
			return sz;
	}
	size_t have = pd_ensure(p, 8);
	if (have == 0)
		return 0;
	if (have < 8) {
		p->truncated = 1;
		return 0;
	}
	sz = ld16(p, p->ibuf + p->ipos + 6);
	if (sz < 8) {
		pd_set_err(p, EILSEQ, "corrupt perf.data: a record of size %u at offset %" PRIu64,
		    sz, p->ioff);
		return 0;
	}
	if (pd_ensure(p, sz) < sz) {
		p->truncated = 1;
		return 0;
	}
	return sz;
}

static int open_pipe_mode(struct perfdata *p)
{
	/* Read the user records perf writes first (attrs, features, event
	 * updates) so the HEADER and PMCALLOCATE records can say what they say;
	 * stop at the first record of anything else. */
	p->spos = p->ioff = PD_PIPE_HDR_SIZE;
	for (;;) {
		size_t sz = pd_peek_raw(p);
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
		pd_consume(p, sz);
		p->st.records++;
		pd_process_user(p, r, sz, type);
		if (p->pend_err)
			break;
	}
	return 0;
}

static struct perfdata *finish_open(struct perfdata *p)
{
	unsigned char h[PD_FILE_HDR_SIZE];
	ssize_t got;
	uint64_t magic, hsize;
	int rc;

	if (p->mem) {
		got = pd_src_pread(p, h, sizeof(h), 0);
	} else {
		struct stat sb;
		p->seekable = fstat(p->fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    lseek(p->fd, 0, SEEK_CUR) != (off_t)-1;
		if (p->seekable) {
			p->fsize = (uint64_t)sb.st_size;
			got = pd_src_pread(p, h, sizeof(h), 0);
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
	if (got < 8 || !perfdata__is_perfdata(h, (size_t)got)) {
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
			p->flags |= PERFDATA_F_SWAPPED;
		if (p->be)
			p->flags |= PERFDATA_F_BIG_ENDIAN;
	}
	if (got < 16) {
		rc = open_fail(p, EILSEQ, "corrupt perf.data: the file header is cut");
		goto fail;
	}
	hsize = ld64(p, h + 8);
	if (hsize == PD_PIPE_HDR_SIZE) {
		p->pipe = 1;
		p->flags |= PERFDATA_F_PIPE;
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
		got = pd_src_pread(p, h, sizeof(h), 0);
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
	perfdata__close(p);
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
static int open_dir(struct perfdata *p, int dfd)
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
		if (GROW(p->dfiles, p->ndfiles, p->capdfiles) < 0 ||
		    !(p->dfiles[p->ndfiles] = strdup(de->d_name))) {
			closedir(d);
			return -ENOMEM;
		}
		p->ndfiles++;
	}
	closedir(d);
	if (p->ndfiles)
		qsort(p->dfiles, (size_t)p->ndfiles, sizeof(*p->dfiles), dfile_cmp);
	return 0;
}

struct perfdata *perfdata__open(int fd)
{
	struct perfdata *p;
	struct stat sb;
	if (fd < 0) {
		errno = EBADF;
		return NULL;
	}
	pmc__clear_reason();
	p = alloc_reader();
	if (!p) {
		pmc__nomem();
		return NULL;
	}
	p->fd = fd;
	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		p->flags |= PERFDATA_F_DIR;
		int rc = open_dir(p, fd);
		if (rc < 0) {
			if (rc != -ENOEXEC)      /* this says more than a lower reason */
				pmc__clear_reason();
			open_fail(p, -rc, "cannot read the directory: %s", strerror(-rc));
			perfdata__close(p);
			errno = -rc;
			return NULL;
		}
	}
	return finish_open(p);
}

struct perfdata *perfdata__open_mem(const void *buf, size_t len)
{
	struct perfdata *p;
	pmc__clear_reason();
	p = alloc_reader();
	if (!p) {
		pmc__nomem();
		return NULL;
	}
	p->mem = malloc(len ? len : 1);
	if (!p->mem) {
		free(p);
		pmc__nomem();
		return NULL;
	}
	if (len)
		memcpy(p->mem, buf, len);
	p->memlen = len;
	p->fsize = len;
	return finish_open(p);
}

void perfdata__set_ordered(struct perfdata *p, int on)
{
	p->ordered = on;
}

void perfdata__close(struct perfdata *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nattrs; i++) {
		free(p->attrs[i]->name);
		free(p->attrs[i]->ids);
		free(p->attrs[i]);
	}
	free(p->attrs);
	free(p->idv);
	hidx_free(&p->idix);
	for (int i = 0; i < p->nbids; i++)
		free(p->bids[i].path);
	free(p->bids);
	hidx_free(&p->bidx);
	pd_q_release(p);
	free(p->tdata);
	free(p->ustack);
	free(p->spcs);
	free(p->sflags);
	free(p->rec);
	pd_chunk_put(p->ichunk);
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

/* ---- accessors ---------------------------------------------------------- */

int perfdata__nattrs(struct perfdata *p)
{
	return p->nattrs;
}

const struct perfdata_attr *perfdata__attr(struct perfdata *p, int i)
{
	return i >= 0 && i < p->nattrs ? &p->attrs[i]->pub : NULL;
}

const struct perfdata_attr *perfdata__attr_by_pmcid(struct perfdata *p,
    pmc_id_t pmcid)
{
	for (int i = 0; i < p->nattrs; i++)
		if (p->attrs[i]->pub.pmcid == pmcid)
			return &p->attrs[i]->pub;
	return NULL;
}

int perfdata__nbuildids(struct perfdata *p)
{
	return p->nbids;
}

const struct perfdata_buildid *perfdata__buildid(struct perfdata *p, int i)
{
	return i >= 0 && i < p->nbids ? &p->bids[i].pub : NULL;
}

#define STR_ACCESSOR(NAME, FIELD) \
	const char *perfdata__##NAME(struct perfdata *p) \
	{ return p->FIELD ? p->FIELD : ""; }
STR_ACCESSOR(hostname, hostname)
STR_ACCESSOR(osrelease, osrelease)
STR_ACCESSOR(perf_version, version)
STR_ACCESSOR(arch, arch)
STR_ACCESSOR(cpudesc, cpudesc)
STR_ACCESSOR(cpuid, cpuid)
STR_ACCESSOR(cmdline, cmdline)

int perfdata__nr_cpus(struct perfdata *p)
{
	return p->nr_cpus;
}

unsigned perfdata__flags(struct perfdata *p)
{
	return p->flags;
}

int perfdata__truncated(struct perfdata *p)
{
	return p->truncated;
}

int perfdata__features_cut(struct perfdata *p, int *of)
{
	if (of)
		*of = p->feat_n;
	return p->feat_cut;
}

void perfdata__get_stats(struct perfdata *p, struct perfdata_stats *st)
{
	*st = p->st;
}
