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
#include "common/hmap.h"

void pd_attr_layout(struct pd_attr *a)
{
	a->lay = (struct psample_layout){
		.sample_type = a->pub.sample_type, .read_format = a->pub.read_format,
		.branch_sample_type = a->pub.branch_sample_type,
		.regs_user = a->pub.sample_regs_user, .regs_intr = a->pub.sample_regs_intr,
	};
	psample__layout_init(&a->lay);
	/* user registers (DWARF call graphs): the unwinder takes the event */
	a->direct = !(a->pub.sample_type & PSAMPLE_REGS_USER);
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

/* Any layout, through the one general decoder: 0 or -1 (bad). */
static int decode_general(const struct perfdata *p, const struct pd_attr *a,
    const unsigned char *b, size_t n, struct psample_fixed *f)
{
	struct psample ps;
	if (psample__parse(&ps, &a->lay, b, n, p->be) < 0)
		return -1;
	f->ip = ps.ip;
	f->pid = ps.pid;
	f->tid = ps.tid;
	f->time = ps.time;
	f->cpu = ps.cpu;
	f->period = ps.period;
	f->chain_nr = ps.callchain_nr;
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
	struct psample_fixed f;
	struct perfdata_sample s;
	uint64_t st, h = HMAP_CHAIN_SEED, h1 = 0, hlast = 0;
	uint32_t n = 0, last = 0;
	int user;

	st = a->pub.sample_type;
	if ((!a->lay.fixed || psample__parse_fixed(&a->lay, r + 8, len - 8, p->be, &f) < 0) &&
	    decode_general(p, a, r + 8, len - 8, &f) < 0) {
		p->st.bad_samples++;
		return 1;
	}
	user = psample__misc_user(ld16(p, r + 4));

	/* the sampled pc first; the chain starts with it again (its context
	 * counts then) or, when it does not, after it (psample__chain_has_ip) */
	if (st & PSAMPLE_IP) {
		int cu = user;
		if (!psample__chain_has_ip(f.chain, f.chain_nr, p->be, f.ip, &cu)) {
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
	if (f.chain_nr) {
		int swap = !!p->be != PSAMPLE_HOST_BE;
		n = swap ? chain_in(f.chain, f.chain_nr, 1, user, p->spcs, p->sflags, n,
		        p->sdepth, &h, &h1, &hlast, &last) :
		    chain_in(f.chain, f.chain_nr, 0, user, p->spcs, p->sflags, n,
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
	s.pid = (st & PSAMPLE_TID) ? f.pid : (uint32_t)-1;
	s.tid = (st & PSAMPLE_TID) ? f.tid : (uint32_t)-1;
	s.cpu = f.cpu;
	s.period = (st & PSAMPLE_PERIOD) ? f.period : a->period0;
	s.time = (st & PSAMPLE_TIME) ? f.time : p->last_time;
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

/* The file's byte order, swap being whether it is not the host's: a
 * constant where the functions below are inlined, so that each load of
 * lib/common/perf_sample.h is one instruction. */
#define BE_OF(swap) ((swap) ? !PSAMPLE_HOST_BE : PSAMPLE_HOST_BE)

/* The leaf of a sample of a's fixed layout (perfdata__set_sample_leaf):
 * the fields, and of the chain only the first pc, which is what
 * direct_any makes pcs[0] (psample__leaf).  0, or -1 when the record is
 * too short for its layout (direct_any then counts it as bad). */
static inline __attribute__((always_inline)) int leaf_fast(struct perfdata *p,
    const struct pd_attr *a, const unsigned char *r, size_t len, int swap)
{
	struct psample_fixed f;
	struct perfdata_sample s;
	uint64_t leaf;
	int user;

	if (psample__parse_fixed(&a->lay, r + 8, len - 8, BE_OF(swap), &f) < 0)
		return -1;
	user = psample__misc_user(psample__ld16(r + 4, BE_OF(swap)));
	leaf = psample__leaf(&a->lay, &f, BE_OF(swap), &user);
	unsigned u = user ? PMC_CC_F_USERSPACE : 0;
	p->spcs[0] = leaf;
	p->sflags[0] = (uint8_t)u;

	s.pmcid = a->pub.pmcid;
	if (a->lay.o_tid >= 0) {
		s.pid = f.pid;
		s.tid = f.tid;
	} else {
		s.pid = s.tid = (uint32_t)-1;
	}
	s.cpu = f.cpu;
	s.period = a->lay.o_period >= 0 ? f.period : a->period0;
	s.time = a->lay.o_time >= 0 ? f.time : p->last_time;
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
	if (p->sdepth == 1 && a->lay.fixed && leaf_fast(p, a, r, len, swap) == 0)
		return 1;
	return direct_any(p, a, r, len);
}

static int host_swap(const struct perfdata *p)
{
	return !!p->be != PSAMPLE_HOST_BE;
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
		size_t len = psample__ld16(r + 6, BE_OF(swap));
		if (len < 8 || len > avail - pos || psample__ld32(r, BE_OF(swap)) != PD_REC_SAMPLE)
			break;
		if (!a) {
			if (idoff + 8 > len)
				break;        /* no id: pd_rec_attr has no attr for it */
			uint64_t id = psample__ld64(r + idoff, BE_OF(swap));
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
		if (ordered && a->lay.o_time >= 0 && (size_t)a->lay.o_time + 16 <= len) {
			uint64_t ts = psample__ld64(r + 8 + a->lay.o_time, BE_OF(swap));
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
