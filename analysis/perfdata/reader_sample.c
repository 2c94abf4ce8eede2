/*
 * reader_sample.c — the direct sample path (perfdata__set_sample_sink, see
 * reader_internal.h): a PERF_RECORD_SAMPLE decoded straight into the
 * struct perfdata_sample a profile stores, for `pmc report` of millions of
 * samples.  The event path (reader_translate.c) fills a struct pmclog_ev
 * (512 pcs and flags, the whole CALLCHAIN record) that the profile then
 * walks again to trim and hash the chain; here the fields are loaded at
 * offsets worked out once per attr, and the chain is decoded, trimmed and
 * hashed in one pass.  What comes out is exactly what the event path and
 * profile.c's handle() make of the same record (tests/unit/
 * test_perfdata_direct.c compares them), with the same bounds checks: a
 * record its layout does not fit is dropped as a bad sample either way.
 */
#include "perfdata/reader_internal.h"
#include "hmap.h"

/* Fields of fixed size before the chain, in the kernel's order. */
#define FIXED (PD_S_IDENTIFIER | PD_S_IP | PD_S_TID | PD_S_TIME | PD_S_ADDR | PD_S_ID | \
	PD_S_STREAM_ID | PD_S_CPU | PD_S_PERIOD)

void pd_attr_layout(struct pd_attr *a)
{
	uint64_t st = a->pub.sample_type;
	int o = 0;

	/* user registers (DWARF call graphs): the unwinder takes the event */
	a->direct = !(st & PD_S_REGS_USER);
	a->fast = !(st & ~(FIXED | PD_S_CALLCHAIN));
	o += (st & PD_S_IDENTIFIER) ? 8 : 0;
	a->o_ip = (st & PD_S_IP) ? (int16_t)o : -1;
	o += (st & PD_S_IP) ? 8 : 0;
	a->o_tid = (st & PD_S_TID) ? (int16_t)o : -1;
	o += (st & PD_S_TID) ? 8 : 0;
	a->o_time = (st & PD_S_TIME) ? (int16_t)o : -1;
	o += (st & PD_S_TIME) ? 8 : 0;
	o += (st & PD_S_ADDR) ? 8 : 0;
	o += (st & PD_S_ID) ? 8 : 0;
	o += (st & PD_S_STREAM_ID) ? 8 : 0;
	a->o_cpu = (st & PD_S_CPU) ? (int16_t)o : -1;
	o += (st & PD_S_CPU) ? 8 : 0;
	a->o_period = (st & PD_S_PERIOD) ? (int16_t)o : -1;
	o += (st & PD_S_PERIOD) ? 8 : 0;
	a->head = (uint16_t)o;
	/* a fixed period (perf record -c N) is not in the samples */
	a->period0 = a->pub.freq ? 0 : a->pub.period;
}

int perfdata__set_sample_sink(struct perfdata *p, perfdata_sample_fn fn, void *arg)
{
	if (fn && !p->spcs) {
		p->spcs = malloc(PMC_CALLCHAIN_DEPTH_MAX * sizeof(*p->spcs));
		p->sflags = malloc(PMC_CALLCHAIN_DEPTH_MAX);
		if (!p->spcs || !p->sflags) {
			free(p->spcs);
			free(p->sflags);
			p->spcs = NULL;
			p->sflags = NULL;
			return pmc__nomem();
		}
	}
	p->sink = fn;
	p->sink_arg = arg;
	return 0;
}

void perfdata__set_sample_leaf(struct perfdata *p, int on)
{
	/* with one pc there is no trailing 0 to drop: a leaf of 0 stays, as
	 * the whole chain's first pc would */
	p->sdepth = on ? 1 : PMC_CALLCHAIN_DEPTH_MAX;
	p->norder_seen = -1;          /* pd_sink_takes changed: file_order again */
}

void perfdata__set_sample_zeros(struct perfdata *p, int on)
{
	p->szeros = !!on;
}

void perfdata__set_sample_unordered(struct perfdata *p, int on)
{
	p->sunordered = !!on;
}
/* The fields of a sample the profile keeps, from either decoder. */
struct fields {
	uint64_t ip, time, period;
	uint32_t pid, tid, cpu;
	uint64_t nr;                  /* chain entries (markers included) */
	const unsigned char *chain;
};

/* The fixed layout: one length check for the fields, one for the chain.
 * 0, or -1 when the record is short (the general decoder then says so). */
static int decode_fast(const struct perfdata *p, const struct pd_attr *a,
    const unsigned char *b, size_t n, struct fields *f)
{
	size_t head = a->head;
	if (n < head)
		return -1;
	f->nr = 0;
	f->chain = NULL;
	if (a->pub.sample_type & PD_S_CALLCHAIN) {
		if (n - head < 8)
			return -1;
		f->nr = ld64(p, b + head);
		if (f->nr > (n - head - 8) / 8)
			return -1;
		f->chain = b + head + 8;
	}
	f->ip = a->o_ip >= 0 ? ld64(p, b + a->o_ip) : 0;
	f->pid = f->tid = 0;
	if (a->o_tid >= 0) {
		f->pid = ld32(p, b + a->o_tid);
		f->tid = ld32(p, b + a->o_tid + 4);
	}
	f->time = a->o_time >= 0 ? ld64(p, b + a->o_time) : 0;
	f->cpu = a->o_cpu >= 0 ? ld32(p, b + a->o_cpu) : 0;
	f->period = a->o_period >= 0 ? ld64(p, b + a->o_period) : 0;
	return 0;
}

/* Any other layout, through the one general decoder: 0 or -1 (bad). */
static int decode_general(const struct perfdata *p, const struct pd_attr *a,
    const unsigned char *b, size_t n, struct fields *f)
{
	struct psample ps;
	struct psample_layout l = {
		.sample_type = a->pub.sample_type, .read_format = a->pub.read_format,
		.branch_sample_type = a->pub.branch_sample_type,
		.regs_user = a->pub.sample_regs_user, .regs_intr = a->pub.sample_regs_intr,
	};
	if (psample__parse(&ps, &l, b, n, p->be) < 0)
		return -1;
	f->ip = ps.ip;
	f->pid = ps.pid;
	f->tid = ps.tid;
	f->time = ps.time;
	f->cpu = ps.cpu;
	f->period = ps.period;
	f->nr = ps.callchain_nr;
	f->chain = ps.callchain;
	return 0;
}

/* The chain's entries from i on into pcs[n..max): markers switch the
 * context (psample__context_user), each pc hashed as it is stored; *last
 * is the count up to the last non-zero pc, *hlast the hash there, *h1 the
 * hash after the first pc.  Inlined twice, for the host's byte order and
 * the other, so that each load is one instruction. */
static inline __attribute__((always_inline)) uint32_t chain_in(const unsigned char *c,
    uint64_t nr, int swap, int user, uint64_t *pcs, uint8_t *fl, uint32_t n, uint32_t max,
    uint64_t *h, uint64_t *h1, uint64_t *hlast, uint32_t *last)
{
	for (uint64_t i = 0; i < nr && n < max; i++) {
		uint64_t pc;
		memcpy(&pc, c + 8 * i, 8);
		if (swap)
			pc = __builtin_bswap64(pc);
		if (pc >= PSAMPLE_CONTEXT_MAX) {
			user = psample__context_user(pc, user);
			continue;
		}
		unsigned u = user ? PMC_CC_F_USERSPACE : 0;
		pcs[n] = pc;
		fl[n] = (uint8_t)u;
		*h = hmap_chain_step(*h, pc, u);
		if (n == 0)
			*h1 = *h;
		n++;
		if (pc) {
			*hlast = *h;
			*last = n;
		}
	}
	return n;
}

/* Any sample of a direct attr, whole chains or not, any layout. */
static __attribute__((noinline)) int direct_any(struct perfdata *p, const struct pd_attr *a,
    const unsigned char *r, size_t len)
{
	struct fields f;
	struct perfdata_sample s;
	uint64_t st, h = HMAP_CHAIN_SEED, h1 = 0, hlast = 0;
	uint32_t n = 0, last = 0;
	int user;

	st = a->pub.sample_type;
	if ((!a->fast || decode_fast(p, a, r + 8, len - 8, &f) < 0) &&
	    decode_general(p, a, r + 8, len - 8, &f) < 0) {
		p->st.bad_samples++;
		return 1;
	}
	user = psample__misc_user(ld16(p, r + 4));

	/* the sampled pc first; the chain starts with it again (its context
	 * counts then) or, when it does not, after it (reader_translate.c) */
	uint32_t at = 0;
	if (st & PD_S_IP) {
		at = 1;
		if (f.nr) {
			uint64_t i = 0, first = 0;
			for (; i < f.nr; i++) {
				first = psample__ld64(f.chain + 8 * i, p->be);
				if (first < PSAMPLE_CONTEXT_MAX)
					break;
			}
			at = i < f.nr && first == f.ip ? 0 : 1;
		}
		if (at) {
			unsigned u = user ? PMC_CC_F_USERSPACE : 0;
			p->spcs[0] = f.ip;
			p->sflags[0] = (uint8_t)u;
			h = h1 = hmap_chain_step(h, f.ip, u);
			n = 1;
			if (f.ip) {
				hlast = h;
				last = 1;
			}
		}
	}
	if (f.nr) {
		int swap = !!p->be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
		n = swap ? chain_in(f.chain, f.nr, 1, user, p->spcs, p->sflags, n,
		        p->sdepth, &h, &h1, &hlast, &last) :
		    chain_in(f.chain, f.nr, 0, user, p->spcs, p->sflags, n,
		        p->sdepth, &h, &h1, &hlast, &last);
	}
	if (n == 0) {
		unsigned u = user ? PMC_CC_F_USERSPACE : 0;
		p->spcs[0] = 0;
		p->sflags[0] = (uint8_t)u;
		h1 = hmap_chain_step(h, 0, u);
		n = 1;
	}
	/* a frame-pointer walk ends in a 0 return address: not a frame
	 * (unless asked for: perf script prints it) */
	if (p->szeros) {
		/* n and h as read */
	} else if (last == 0) {
		n = 1;
		h = h1;
	} else {
		n = last;
		h = hlast;
	}

	s.pmcid = a->pub.pmcid;
	s.pid = (st & PD_S_TID) ? f.pid : (uint32_t)-1;
	s.tid = (st & PD_S_TID) ? f.tid : (uint32_t)-1;
	s.cpu = f.cpu;
	s.period = (st & PD_S_PERIOD) ? f.period : a->period0;
	s.time = (st & PD_S_TIME) ? f.time : p->last_time;
	s.npc = n;
	s.pcs = p->spcs;
	s.flags = p->sflags;
	s.hash = hmap_chain_end(h, (int32_t)s.pid, n);
	p->last_time = s.time;
	p->st.samples++;
	p->count++;
	p->sink(p->sink_arg, &s);
	return 1;
}

/* A load in the file's byte order, swap being whether it is not the
 * host's: a constant where these are inlined, so each is one load. */
static inline __attribute__((always_inline)) uint64_t ldx64(const unsigned char *b, int swap)
{
	uint64_t v;
	memcpy(&v, b, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

static inline __attribute__((always_inline)) uint32_t ldx32(const unsigned char *b, int swap)
{
	uint32_t v;
	memcpy(&v, b, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static inline __attribute__((always_inline)) uint16_t ldx16(const unsigned char *b, int swap)
{
	uint16_t v;
	memcpy(&v, b, sizeof(v));
	return swap ? __builtin_bswap16(v) : v;
}

/* The leaf of a sample of a's fixed layout (perfdata__set_sample_leaf):
 * the fields, and of the chain only its first pc, which is what
 * direct_any makes pcs[0] (the sampled pc, in the context of the markers
 * before the chain's first pc when that is the same pc, else in the
 * header's; without a sampled pc, the chain's first pc, or 0 in the
 * header's context when there is none).  0, or -1 when the record is too
 * short for its layout (direct_any then counts it as bad). */
static inline __attribute__((always_inline)) int leaf_fast(struct perfdata *p,
    const struct pd_attr *a, const unsigned char *r, size_t len, int swap)
{
	const unsigned char *b = r + 8, *c = NULL;
	size_t n = len - 8, head = a->head;
	uint64_t nr = 0, i, pc = 0, leaf;
	struct perfdata_sample s;
	int user, cu;

	if (n < head)
		return -1;
	if (a->pub.sample_type & PD_S_CALLCHAIN) {
		if (n - head < 8)
			return -1;
		nr = ldx64(b + head, swap);
		if (nr > (n - head - 8) / 8)
			return -1;
		c = b + head + 8;
	}
	user = cu = psample__misc_user(ldx16(r + 4, swap));
	for (i = 0; i < nr; i++) {
		pc = ldx64(c + 8 * i, swap);
		if (pc < PSAMPLE_CONTEXT_MAX)
			break;
		cu = psample__context_user(pc, cu);
	}
	if (a->o_ip >= 0) {
		leaf = ldx64(b + a->o_ip, swap);
		if (i < nr && pc == leaf)
			user = cu;
	} else if (i < nr) {
		leaf = pc;
		user = cu;
	} else {
		leaf = 0;
	}
	unsigned u = user ? PMC_CC_F_USERSPACE : 0;
	p->spcs[0] = leaf;
	p->sflags[0] = (uint8_t)u;

	s.pmcid = a->pub.pmcid;
	if (a->o_tid >= 0) {
		s.pid = ldx32(b + a->o_tid, swap);
		s.tid = ldx32(b + a->o_tid + 4, swap);
	} else {
		s.pid = s.tid = (uint32_t)-1;
	}
	s.cpu = a->o_cpu >= 0 ? ldx32(b + a->o_cpu, swap) : 0;
	s.period = a->o_period >= 0 ? ldx64(b + a->o_period, swap) : a->period0;
	s.time = a->o_time >= 0 ? ldx64(b + a->o_time, swap) : p->last_time;
	s.npc = 1;
	s.pcs = p->spcs;
	s.flags = p->sflags;
	s.hash = hmap_chain_end(hmap_chain_step(HMAP_CHAIN_SEED, leaf, u), (int32_t)s.pid, 1);
	p->last_time = s.time;
	p->st.samples++;
	p->count++;
	p->sink(p->sink_arg, &s);
	return 0;
}

static inline __attribute__((always_inline)) int direct_sample(struct perfdata *p,
    const struct pd_attr *a, const unsigned char *r, size_t len, int swap)
{
	if (!a) {
		p->st.unknown_id++;
		return 1;
	}
	if (!pd_sink_takes(p, a))
		return 0;
	if (p->sdepth == 1 && a->fast && leaf_fast(p, a, r, len, swap) == 0)
		return 1;
	return direct_any(p, a, r, len);
}

static int host_swap(const struct perfdata *p)
{
	return !!p->be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

int pd_direct_sample(struct perfdata *p, const struct pd_attr *a, const unsigned char *r,
    size_t len)
{
	return host_swap(p) ? direct_sample(p, a, r, len, 1) : direct_sample(p, a, r, len, 0);
}

/* pd_direct_run for one byte order.  The attr is pd_rec_attr's, asked
 * again only when the sample's id is not the one before. */
static inline __attribute__((always_inline)) size_t direct_run(struct perfdata *p,
    const unsigned char *b, size_t avail, int swap)
{
	const struct pd_attr *only = NULL, *ca = NULL;
	uint64_t cid = 0, max_ts = p->max_ts;     /* p's, written back at the end */
	const int ordered = p->ordered;
	size_t pos = 0, idoff = 8 + 8 * (size_t)(p->id_pos > 0 ? p->id_pos : 0);

	if (p->nattrs == 1 || (p->nattrs > 1 && p->id_pos < 0))
		only = p->attrs[0];
	while (avail - pos >= 8) {
		const unsigned char *r = b + pos;
		const struct pd_attr *a = only;
		size_t len = ldx16(r + 6, swap);
		if (len < 8 || len > avail - pos || ldx32(r, swap) != PD_REC_SAMPLE)
			break;
		if (!a) {
			if (idoff + 8 > len)
				break;        /* no id: pd_rec_attr has no attr for it */
			uint64_t id = ldx64(r + idoff, swap);
			if (!ca || id != cid) {
				ca = pd_rec_attr(p, r, len, PD_REC_SAMPLE);
				cid = id;
			}
			a = ca;
		}
		if (!a || !pd_sink_takes(p, a))
			break;        /* next_record's general path: unknown_id, the event */
		pos += len;
		p->st.records++;
		/* its time moves the round's end, as in next_record */
		if (ordered && a->o_time >= 0 && (size_t)a->o_time + 16 <= len) {
			uint64_t ts = ldx64(r + 8 + a->o_time, swap);
			if (ts != UINT64_MAX && ts > max_ts)
				max_ts = ts;
		}
		(void)direct_sample(p, a, r, len, swap);
	}
	p->max_ts = max_ts;
	return pos;
}

size_t pd_direct_run(struct perfdata *p, const unsigned char *b, size_t avail)
{
	if (!p->nattrs)
		return 0;
	return host_swap(p) ? direct_run(p, b, avail, 1) : direct_run(p, b, avail, 0);
}
