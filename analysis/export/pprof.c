/*
 * pprof.c — pprof's profile.proto (analysis/pprof/profile.proto),
 * gzip-compressed: what `go tool pprof`, Pyroscope and Parca read.  Two
 * sample values per event (samples, and the event count), one Mapping per
 * binary (with its build id), one Location per distinct (binary, address)
 * with its inlined frames as Lines (innermost first, as the format says),
 * one Function per distinct function name and binary.  Identical stacks are
 * merged; the totals are the log's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/error.h"
#include "common/grow.h"
#include "common/hmap.h"
#include "export/export.h"
#include "pprof/profile.pb-c.h"

typedef Perftools__Profiles__Profile PProfile;
typedef Perftools__Profiles__Sample PSample;
typedef Perftools__Profiles__Location PLocation;
typedef Perftools__Profiles__Line PLine;
typedef Perftools__Profiles__Function PFunction;
typedef Perftools__Profiles__Mapping PMapping;
typedef Perftools__Profiles__ValueType PValueType;

/* The profile's string table: each distinct string once, in the order
 * first asked for (the table's order, so the output's), found by content. */
struct strtab {
	char **s;
	size_t n, cap;
	struct hidx ix;         /* over s, by hmap_str */
	int nomem;              /* a table could not grow: the export fails */
};

/* hidx's compare: is string i of the strtab tab key? */
static int str_eq(const void *tab, uint32_t i, const void *key)
{
	return strcmp(((const struct strtab *)tab)->s[i], key) == 0;
}

/* s's index in the string table; 0 ("") out of memory, with t->nomem set. */
static int64_t str_ix(struct strtab *t, const char *s)
{
	int added;
	if (!s)
		s = "";
	if (t->nomem)
		return 0;
	struct hidx_slot *sl = hidx_get(&t->ix, hmap_str(s), 1024, str_eq, t, s, (uint32_t)t->n,
	    &added);
	if (!sl) {
		t->nomem = 1;
		return 0;
	}
	if (!added)
		return (int64_t)sl->v - 1;
	if (GROW(t->s, t->n, t->cap) < 0) {
		hidx_unadd(&t->ix, sl);
		t->nomem = 1;
		return 0;
	}
	t->s[t->n] = (char *)s;
	return (int64_t)t->n++;
}

static void strtab_free(struct strtab *t)
{
	free(t->s);
	hidx_free(&t->ix);
}

struct agg {                 /* samples merged by stack */
	int64_t *val;            /* per stack: 2 * nev values */
	uint8_t *used;
	struct profile *p;
	int *evpos;              /* event index -> value column / 2, or -1 */
	int nval;
};

static void add(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	struct agg *a = arg;
	int c = a->evpos[s->ev];
	if (c < 0)
		return;
	a->used[s->stack] = 1;
	a->val[(size_t)s->stack * a->nval + 2 * c] += (int64_t)cnt;
	a->val[(size_t)s->stack * a->nval + 2 * c + 1] += (int64_t)w;
}

static int gzwrite_all(FILE *f, const uint8_t *buf, size_t len)
{
	z_stream z;
	uint8_t out[65536];
	int rc;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	z.next_in = (uint8_t *)buf;
	z.avail_in = (uInt)len;
	do {
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = deflate(&z, Z_FINISH);
		if (fwrite(out, 1, sizeof(out) - z.avail_out, f) != sizeof(out) - z.avail_out) {
			deflateEnd(&z);
			return -1;
		}
	} while (rc == Z_OK);
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

/* One export's state: every allocation, so that one exit frees them
 * whichever failed. */
struct pp {
	struct profile *p;
	const struct report_opts *o;
	struct strtab st;
	struct agg a;
	PProfile prof;
	int evs[256], nev;
	PValueType *vt, **vtp;
	PMapping *mp, **mpp;
	uint64_t *mapid, **locbufs;
	PLocation *lc, **lcp;
	PFunction *fn, **fnp;
	PLine *ln, **lnp;
	PSample *sm, **smp;
	size_t nsm;
};

/* Sample types: per event, samples/count and NAME/events (cpu-clock: ns);
 * the period.  0, or -1 out of memory. */
static int pp_types(struct pp *x)
{
	struct profile *p = x->p;
	int nev = x->nev;
	x->vt = calloc((size_t)x->a.nval + 1, sizeof(*x->vt));
	x->vtp = calloc((size_t)x->a.nval + 1, sizeof(*x->vtp));
	if (!x->vt || !x->vtp)
		return -1;
	PValueType *vt = x->vt;
	for (int i = 0; i < nev; i++) {
		const char *en = p->ev[x->evs[i]].name;
		char buf[512];
		int clock = strncmp(en, "cpu-clock", 9) == 0 || strncmp(en, "task-clock", 10) == 0;
		perftools__profiles__value_type__init(&vt[2 * i]);
		perftools__profiles__value_type__init(&vt[2 * i + 1]);
		snprintf(buf, sizeof(buf), nev > 1 ? "samples:%s" : "samples", en);
		vt[2 * i].type = str_ix(&x->st, symtab__intern(p->st, buf));
		vt[2 * i].unit = str_ix(&x->st, "count");
		vt[2 * i + 1].type = str_ix(&x->st, en);
		vt[2 * i + 1].unit = str_ix(&x->st, clock ? "nanoseconds" : "events");
		x->vtp[2 * i] = &vt[2 * i];
		x->vtp[2 * i + 1] = &vt[2 * i + 1];
	}
	x->prof.n_sample_type = (size_t)x->a.nval;
	x->prof.sample_type = x->vtp;
	if (nev) {
		x->prof.period_type = &vt[1];
		/* a frequency gives no fixed period: the mean one */
		const struct prof_event *e0 = &p->ev[x->evs[0]];
		x->prof.period = !e0->freq ? (int64_t)e0->rate :
		    e0->samples ? (int64_t)((e0->period + e0->samples / 2) / e0->samples) : 0;
	}
	x->prof.time_nanos = (int64_t)p->hdr.start_realtime;
	x->prof.duration_nanos = (int64_t)(p->last_time - p->first_time);
	return 0;
}

/* The mappings of binaries ids 0 .. nd - 1 whose address spans are
 * lo/hi (seen: any at all): the program first (pprof's "File:"), then
 * every location's in order.  0, or -1 out of memory. */
static int pp_mappings_of(struct pp *x, size_t nd, const uint64_t *lo, const uint64_t *hi,
    const uint8_t *seen)
{
	struct profile *p = x->p;
	size_t nm = 0;
	x->mp = calloc(nd + 1, sizeof(*x->mp));
	x->mpp = calloc(nd + 1, sizeof(*x->mpp));
	x->mapid = calloc(nd + 1, 8);
	if (!x->mp || !x->mpp || !x->mapid)
		return -1;
	struct sym_dso *main_dso = profile__main_dso(p);
	if (main_dso && (sym_dso__id(main_dso) >= nd || !seen[sym_dso__id(main_dso)]))
		main_dso = NULL;
	for (size_t j = 0; j <= p->nl; j++) {   /* the program, then every location's */
		struct sym_dso *d = j == 0 ? main_dso : p->l[j - 1].dso;
		if (!d)
			continue;
		unsigned id = sym_dso__id(d);
		if (x->mapid[id])
			continue;
		PMapping *m = &x->mp[nm];
		perftools__profiles__mapping__init(m);
		m->id = nm + 1;
		x->mapid[id] = m->id;
		m->memory_start = lo[id];
		m->memory_limit = hi[id];
		m->filename = str_ix(&x->st, sym_dso__path(d));
		unsigned bl;
		const uint8_t *b = sym_dso__buildid(d, &bl);
		if (bl) {
			char hex[41];
			for (unsigned k = 0; k < bl; k++)
				sprintf(hex + 2 * k, "%02x", b[k]);
			m->build_id = str_ix(&x->st, symtab__intern(p->st, hex));
		}
		m->has_functions = sym_dso__problem(d) == NULL;
		m->has_filenames = m->has_line_numbers = m->has_inline_frames = x->o->inline_frames;
		x->mpp[nm++] = m;
	}
	x->prof.n_mapping = nm;
	x->prof.mapping = x->mpp;
	return 0;
}

/* Mappings: one per binary, spanning its locations' addresses.  0, or -1
 * out of memory. */
static int pp_mappings(struct pp *x)
{
	struct profile *p = x->p;
	size_t nd = 0;
	int rc = -1;
	for (size_t i = 0; i < p->nl; i++)
		if (sym_dso__id(p->l[i].dso) + 1 > nd)
			nd = sym_dso__id(p->l[i].dso) + 1;
	uint64_t *lo = calloc(nd + 1, 8), *hi = calloc(nd + 1, 8);
	uint8_t *seen = calloc(nd + 1, 1);
	if (lo && hi && seen) {
		for (size_t i = 0; i < p->nl; i++) {
			unsigned d = sym_dso__id(p->l[i].dso);
			if (!seen[d] || p->l[i].addr < lo[d])
				lo[d] = p->l[i].addr;
			if (!seen[d] || p->l[i].addr >= hi[d])
				hi[d] = p->l[i].addr + 1;
			seen[d] = 1;
		}
		rc = pp_mappings_of(x, nd, lo, hi, seen);
	}
	free(lo);
	free(hi);
	free(seen);
	return rc;
}

/* Location i's lines, from its (inline) frames, from line slot *li on; its
 * functions made as they first appear. */
static int pp_location(struct pp *x, size_t i, size_t *li)
{
	struct profile *p = x->p;
	PLocation *l = &x->lc[i];
	const struct prof_frame *fr, one = { p->l[i].func, (uint32_t)i, NULL, 0 };
	int k;
	perftools__profiles__location__init(l);
	l->id = i + 1;
	l->mapping_id = x->mapid[sym_dso__id(p->l[i].dso)];
	l->address = p->l[i].addr;
	if (x->o->inline_frames) {
		if ((k = profile__loc_frames(p, (uint32_t)i, &fr)) < 0)
			return -1;
	} else {
		fr = &one;
		k = 1;
	}
	l->line = &x->lnp[*li];
	l->n_line = (size_t)k;
	for (int j = 0; j < k; j++, ++*li) {
		PLine *ln = &x->ln[*li];
		perftools__profiles__line__init(ln);
		ln->function_id = fr[j].func + 1;
		ln->line = fr[j].line;
		x->lnp[*li] = ln;
		PFunction *F = &x->fn[fr[j].func];
		if (!F->id) {
			perftools__profiles__function__init(F);
			F->id = fr[j].func + 1;
			F->name = F->system_name = str_ix(&x->st, p->f[fr[j].func].name);
		}
		if (!F->filename && fr[j].file)
			F->filename = str_ix(&x->st, fr[j].file);
	}
	x->lcp[i] = l;
	return 0;
}

/* Locations: one per loc, lines from its (inline) frames; functions: one
 * per prof_func (after the inline expansion, which adds the inlined ones).
 * 0, or -1 out of memory. */
static int pp_locations(struct pp *x)
{
	struct profile *p = x->p;
	x->lc = calloc(p->nl + 1, sizeof(*x->lc));
	x->lcp = calloc(p->nl + 1, sizeof(*x->lcp));
	if (!x->lc || !x->lcp)
		return -1;
	size_t nlines = 0;
	for (size_t i = 0; i < p->nl; i++) {
		const struct prof_frame *fr;
		int k = x->o->inline_frames ? profile__loc_frames(p, (uint32_t)i, &fr) : 1;
		if (k < 0)
			return -1;
		nlines += (size_t)k;
	}
	x->fn = calloc(p->nf + 1, sizeof(*x->fn));
	x->fnp = calloc(p->nf + 1, sizeof(*x->fnp));
	x->ln = calloc(nlines + 1, sizeof(*x->ln));
	x->lnp = calloc(nlines + 1, sizeof(*x->lnp));
	if (!x->fn || !x->fnp || !x->ln || !x->lnp)
		return -1;
	size_t li = 0;
	for (size_t i = 0; i < p->nl; i++)
		if (pp_location(x, i, &li) < 0)
			return -1;
	size_t nfn = 0;
	for (size_t i = 0; i < p->nf; i++)
		if (x->fn[i].id)
			x->fnp[nfn++] = &x->fn[i];
	x->prof.n_location = p->nl;
	x->prof.location = x->lcp;
	x->prof.n_function = nfn;
	x->prof.function = x->fnp;
	return 0;
}

/* Samples: one per distinct stack (of nstack) with samples.  0, or -1 out
 * of memory. */
static int pp_samples(struct pp *x, size_t nstack)
{
	for (size_t i = 0; i < nstack; i++)
		x->nsm += x->a.used[i];
	x->sm = calloc(x->nsm + 1, sizeof(*x->sm));
	x->smp = calloc(x->nsm + 1, sizeof(*x->smp));
	x->locbufs = calloc(x->nsm + 1, sizeof(*x->locbufs));
	if (!x->sm || !x->smp || !x->locbufs)
		return -1;
	size_t si = 0;
	for (size_t i = 0; i < nstack; i++) {
		if (!x->a.used[i])
			continue;
		const struct prof_frame *fr;
		int k = profile__frames(x->p, (uint32_t)i, 0, &fr);
		if (k < 0)
			return -1;
		PSample *S = &x->sm[si];
		perftools__profiles__sample__init(S);
		if (!(x->locbufs[si] = malloc(((size_t)k + 1) * 8)))
			return -1;
		for (int j = 0; j < k; j++)
			x->locbufs[si][j] = fr[j].loc + 1;
		S->n_location_id = (size_t)k;
		S->location_id = x->locbufs[si];
		S->n_value = (size_t)x->a.nval;
		S->value = &x->a.val[i * (size_t)x->a.nval];
		x->smp[si++] = S;
	}
	x->prof.n_sample = x->nsm;
	x->prof.sample = x->smp;
	return 0;
}

static void pp_free(struct pp *x)
{
	for (size_t i = 0; x->locbufs && i < x->nsm; i++)
		free(x->locbufs[i]);
	free(x->locbufs);
	free(x->sm);
	free(x->smp);
	free(x->ln);
	free(x->lnp);
	free(x->lc);
	free(x->lcp);
	free(x->fn);
	free(x->fnp);
	free(x->mp);
	free(x->mpp);
	free(x->mapid);
	free(x->vt);
	free(x->vtp);
	free(x->a.evpos);
	free(x->a.val);
	free(x->a.used);
	strtab_free(&x->st);
}

/* The events to export: those with samples, or with none at all (an idle
 * target) the sampled ones, which still give the sample types, so that the
 * profile says what it is of, as Go's empty CPU profile does (fleet
 * profilers take it as a valid one). */
static void pp_events(struct pp *x)
{
	struct profile *p = x->p;
	x->nev = report__events(p, x->evs, 256);
	if (x->nev == 0)
		for (size_t i = 0; i < p->nev && x->nev < 256; i++)
			if (PMC_IS_SAMPLING_MODE((enum pmc_mode)p->ev[i].mode))
				x->evs[x->nev++] = (int)i;
}

int export__pprof(FILE *f, struct profile *p, const struct report_opts *o)
{
	struct pp x = { .p = p, .o = o, .prof = PERFTOOLS__PROFILES__PROFILE__INIT };
	uint8_t *packed = NULL;
	int rc;

	pp_events(&x);
	profile__resolve(p);
	size_t nstack = profile__nstacks(p);   /* ids 0 .. nstack - 1 */
	x.a.p = p;
	x.a.nval = 2 * x.nev;
	x.a.evpos = malloc((p->nev ? p->nev : 1) * sizeof(int));
	x.a.val = calloc(nstack ? nstack * (size_t)x.a.nval : 1, sizeof(int64_t));
	x.a.used = calloc(nstack ? nstack : 1, 1);
	if (!x.a.evpos || !x.a.val || !x.a.used)
		goto nomem;
	for (size_t i = 0; i < p->nev; i++)
		x.a.evpos[i] = -1;
	for (int i = 0; i < x.nev; i++)
		x.a.evpos[x.evs[i]] = i;
	profile__foreach_group(p, &o->flt, 0, add, &x.a);

	str_ix(&x.st, "");
	if (pp_types(&x) < 0 || pp_mappings(&x) < 0 || pp_locations(&x) < 0 ||
	    pp_samples(&x, nstack) < 0 || x.st.nomem)
		goto nomem;
	x.prof.n_string_table = x.st.n;
	x.prof.string_table = x.st.s;

	size_t len = perftools__profiles__profile__get_packed_size(&x.prof);
	if (!(packed = malloc(len ? len : 1)))
		goto nomem;
	perftools__profiles__profile__pack(&x.prof, packed);
	rc = gzwrite_all(f, packed, len);
	goto out;
nomem:
	rc = pmc__nomem();
out:
	free(packed);
	pp_free(&x);
	return rc;
}

const struct export_format export__format_pprof = {
	.name = "pprof", .needs_chains = EXPORT_CHAINS, .needs_time_order = 1,
	.binary = 1,
	.fn = export__pprof,
};
