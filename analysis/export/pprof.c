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
#include "export/export.h"
#include "pprof/profile.pb-c.h"

typedef Perftools__Profiles__Profile PProfile;
typedef Perftools__Profiles__Sample PSample;
typedef Perftools__Profiles__Location PLocation;
typedef Perftools__Profiles__Line PLine;
typedef Perftools__Profiles__Function PFunction;
typedef Perftools__Profiles__Mapping PMapping;
typedef Perftools__Profiles__ValueType PValueType;

struct strtab {
	char **s;
	size_t n, cap;
	const char **key;       /* interned pointers for dedupe (pointer compare) */
	int64_t *ix;
	size_t hcap;
	int nomem;              /* a table could not grow: the export fails */
};

/* s's index in the string table; 0 ("") out of memory, with t->nomem set. */
static int64_t str_ix(struct strtab *t, const char *s)
{
	if (!s)
		s = "";
	if (t->nomem)
		return 0;
	if ((t->n + 1) * 2 > t->hcap) {
		size_t nc = t->hcap ? t->hcap * 2 : 1024;
		const char **nk = calloc(nc, sizeof(*nk));
		int64_t *ni = calloc(nc, sizeof(*ni));
		if (!nk || !ni) {
			free(nk);
			free(ni);
			t->nomem = 1;
			return 0;
		}
		for (size_t i = 0; i < t->hcap; i++) {
			if (!t->key[i])
				continue;
			size_t j = ((uintptr_t)t->key[i] >> 3) * 0x9E3779B97F4A7C15ull & (nc - 1);
			while (nk[j])
				j = (j + 1) & (nc - 1);
			nk[j] = t->key[i];
			ni[j] = t->ix[i];
		}
		free(t->key);
		free(t->ix);
		t->key = nk;
		t->ix = ni;
		t->hcap = nc;
	}
	size_t j = ((uintptr_t)s >> 3) * 0x9E3779B97F4A7C15ull & (t->hcap - 1);
	while (t->key[j]) {
		if (t->key[j] == s || strcmp(t->key[j], s) == 0)
			return t->ix[j];
		j = (j + 1) & (t->hcap - 1);
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		char **ns = realloc(t->s, cap * sizeof(*t->s));
		if (!ns) {
			t->nomem = 1;
			return 0;
		}
		t->s = ns;
		t->cap = cap;
	}
	t->s[t->n] = (char *)s;
	t->key[j] = s;
	t->ix[j] = (int64_t)t->n;
	return (int64_t)t->n++;
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

int export__pprof(FILE *f, struct profile *p, const struct report_opts *o)
{
	int evs[256], nev = report__events(p, evs, 256), rc = -1;
	/* no samples at all (an idle target): the sampled events still give
	 * the sample types, so that the profile says what it is of, as Go's
	 * empty CPU profile does (fleet profilers take it as a valid one) */
	if (nev == 0)
		for (size_t i = 0; i < p->nev && nev < 256; i++)
			if (PMC_IS_SAMPLING_MODE((enum pmc_mode)p->ev[i].mode))
				evs[nev++] = (int)i;
	struct strtab st = { 0 };
	struct agg a = { 0 };
	PProfile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	/* every allocation, so that one exit frees them whichever failed */
	PValueType *vt = NULL, **vtp = NULL;
	PMapping *mp = NULL, **mpp = NULL;
	uint64_t *lo = NULL, *hi = NULL, *mapid = NULL, **locbufs = NULL;
	uint8_t *seen = NULL, *packed = NULL;
	PLocation *lc = NULL, **lcp = NULL;
	PFunction *fn = NULL, **fnp = NULL;
	PLine *ln = NULL, **lnp = NULL;
	PSample *sm = NULL, **smp = NULL;
	size_t nsm = 0;

	profile__resolve(p);
	size_t nstack = profile__nstacks(p);   /* ids 0 .. nstack - 1 */
	a.p = p;
	a.nval = 2 * nev;
	a.evpos = malloc((p->nev ? p->nev : 1) * sizeof(int));
	a.val = calloc(nstack ? nstack * (size_t)a.nval : 1, sizeof(int64_t));
	a.used = calloc(nstack ? nstack : 1, 1);
	if (!a.evpos || !a.val || !a.used)
		goto nomem;
	for (size_t i = 0; i < p->nev; i++)
		a.evpos[i] = -1;
	for (int i = 0; i < nev; i++)
		a.evpos[evs[i]] = i;
	profile__foreach_group(p, &o->flt, 0, add, &a);

	str_ix(&st, "");
	/* sample types: per event, samples/count and NAME/events (cpu-clock: ns) */
	vt = calloc((size_t)a.nval + 1, sizeof(*vt));
	vtp = calloc((size_t)a.nval + 1, sizeof(*vtp));
	if (!vt || !vtp)
		goto nomem;
	for (int i = 0; i < nev; i++) {
		const char *en = p->ev[evs[i]].name;
		char buf[512];
		int clock = strncmp(en, "cpu-clock", 9) == 0 || strncmp(en, "task-clock", 10) == 0;
		perftools__profiles__value_type__init(&vt[2 * i]);
		perftools__profiles__value_type__init(&vt[2 * i + 1]);
		snprintf(buf, sizeof(buf), nev > 1 ? "samples:%s" : "samples", en);
		vt[2 * i].type = str_ix(&st, symtab__intern(p->st, buf));
		vt[2 * i].unit = str_ix(&st, "count");
		vt[2 * i + 1].type = str_ix(&st, en);
		vt[2 * i + 1].unit = str_ix(&st, clock ? "nanoseconds" : "events");
		vtp[2 * i] = &vt[2 * i];
		vtp[2 * i + 1] = &vt[2 * i + 1];
	}
	prof.n_sample_type = (size_t)a.nval;
	prof.sample_type = vtp;
	if (nev) {
		prof.period_type = &vt[1];
		/* a frequency gives no fixed period: the mean one */
		const struct prof_event *e0 = &p->ev[evs[0]];
		prof.period = !e0->freq ? (int64_t)e0->rate :
		    e0->samples ? (int64_t)((e0->period + e0->samples / 2) / e0->samples) : 0;
	}
	prof.time_nanos = (int64_t)p->hdr.start_realtime;
	prof.duration_nanos = (int64_t)(p->last_time - p->first_time);

	/* mappings: one per binary */
	size_t nd = 0;
	for (size_t i = 0; i < p->nl; i++)
		if (sym_dso__id(p->l[i].dso) + 1 > nd)
			nd = sym_dso__id(p->l[i].dso) + 1;
	mp = calloc(nd + 1, sizeof(*mp));
	mpp = calloc(nd + 1, sizeof(*mpp));
	lo = calloc(nd + 1, 8);
	hi = calloc(nd + 1, 8);
	seen = calloc(nd + 1, 1);
	mapid = calloc(nd + 1, 8);
	if (!mp || !mpp || !lo || !hi || !seen || !mapid)
		goto nomem;
	for (size_t i = 0; i < p->nl; i++) {
		unsigned d = sym_dso__id(p->l[i].dso);
		if (!seen[d] || p->l[i].addr < lo[d])
			lo[d] = p->l[i].addr;
		if (!seen[d] || p->l[i].addr >= hi[d])
			hi[d] = p->l[i].addr + 1;
		seen[d] = 1;
	}
	size_t nm = 0;
	/* the first mapping is the program (pprof's "File:") */
	struct sym_dso *main_dso = profile__main_dso(p);
	if (main_dso && (sym_dso__id(main_dso) >= nd || !seen[sym_dso__id(main_dso)]))
		main_dso = NULL;
	for (size_t j = 0; j <= p->nl; j++) {   /* the program, then every location's */
		struct sym_dso *d = j == 0 ? main_dso : p->l[j - 1].dso;
		if (!d)
			continue;
		unsigned id = sym_dso__id(d);
		if (mapid[id])
			continue;
		PMapping *m = &mp[nm];
		perftools__profiles__mapping__init(m);
		m->id = nm + 1;
		mapid[id] = m->id;
		m->memory_start = lo[id];
		m->memory_limit = hi[id];
		m->filename = str_ix(&st, sym_dso__path(d));
		unsigned bl;
		const uint8_t *b = sym_dso__buildid(d, &bl);
		if (bl) {
			char hex[41];
			for (unsigned k = 0; k < bl; k++)
				sprintf(hex + 2 * k, "%02x", b[k]);
			m->build_id = str_ix(&st, symtab__intern(p->st, hex));
		}
		m->has_functions = sym_dso__problem(d) == NULL;
		m->has_filenames = m->has_line_numbers = m->has_inline_frames = o->inline_frames;
		mpp[nm++] = m;
	}
	prof.n_mapping = nm;
	prof.mapping = mpp;

	/* locations: one per loc, lines from its (inline) frames */
	lc = calloc(p->nl + 1, sizeof(*lc));
	lcp = calloc(p->nl + 1, sizeof(*lcp));
	if (!lc || !lcp)
		goto nomem;
	size_t nlines = 0;
	for (size_t i = 0; i < p->nl; i++) {
		const struct prof_frame *fr;
		int k = o->inline_frames ? profile__loc_frames(p, (uint32_t)i, &fr) : 1;
		if (k < 0)
			goto nomem;
		nlines += (size_t)k;
	}
	/* functions: one per prof_func (after the inline expansion above, which
	 * adds the inlined ones) */
	fn = calloc(p->nf + 1, sizeof(*fn));
	fnp = calloc(p->nf + 1, sizeof(*fnp));
	ln = calloc(nlines + 1, sizeof(*ln));
	lnp = calloc(nlines + 1, sizeof(*lnp));
	if (!fn || !fnp || !ln || !lnp)
		goto nomem;
	size_t li = 0;
	for (size_t i = 0; i < p->nl; i++) {
		PLocation *l = &lc[i];
		const struct prof_frame *fr, one = { p->l[i].func, (uint32_t)i, NULL, 0 };
		int k;
		perftools__profiles__location__init(l);
		l->id = i + 1;
		l->mapping_id = mapid[sym_dso__id(p->l[i].dso)];
		l->address = p->l[i].addr;
		if (o->inline_frames) {
			if ((k = profile__loc_frames(p, (uint32_t)i, &fr)) < 0)
				goto nomem;
		} else {
			fr = &one;
			k = 1;
		}
		l->line = &lnp[li];
		l->n_line = (size_t)k;
		for (int j = 0; j < k; j++, li++) {
			perftools__profiles__line__init(&ln[li]);
			ln[li].function_id = fr[j].func + 1;
			ln[li].line = fr[j].line;
			lnp[li] = &ln[li];
			PFunction *F = &fn[fr[j].func];
			if (!F->id) {
				perftools__profiles__function__init(F);
				F->id = fr[j].func + 1;
				F->name = F->system_name = str_ix(&st, p->f[fr[j].func].name);
			}
			if (!F->filename && fr[j].file)
				F->filename = str_ix(&st, fr[j].file);
		}
		lcp[i] = l;
	}
	size_t nfn = 0;
	for (size_t i = 0; i < p->nf; i++)
		if (fn[i].id)
			fnp[nfn++] = &fn[i];
	prof.n_location = p->nl;
	prof.location = lcp;
	prof.n_function = nfn;
	prof.function = fnp;

	/* samples: one per distinct stack */
	for (size_t i = 0; i < nstack; i++)
		nsm += a.used[i];
	sm = calloc(nsm + 1, sizeof(*sm));
	smp = calloc(nsm + 1, sizeof(*smp));
	locbufs = calloc(nsm + 1, sizeof(*locbufs));
	if (!sm || !smp || !locbufs)
		goto nomem;
	size_t si = 0;
	for (size_t i = 0; i < nstack; i++) {
		if (!a.used[i])
			continue;
		const struct prof_frame *fr;
		int k = profile__frames(p, (uint32_t)i, 0, &fr);
		if (k < 0)
			goto nomem;
		PSample *S = &sm[si];
		perftools__profiles__sample__init(S);
		if (!(locbufs[si] = malloc(((size_t)k + 1) * 8)))
			goto nomem;
		for (int j = 0; j < k; j++)
			locbufs[si][j] = fr[j].loc + 1;
		S->n_location_id = (size_t)k;
		S->location_id = locbufs[si];
		S->n_value = (size_t)a.nval;
		S->value = &a.val[i * (size_t)a.nval];
		smp[si++] = S;
	}
	prof.n_sample = nsm;
	prof.sample = smp;
	if (st.nomem)
		goto nomem;
	prof.n_string_table = st.n;
	prof.string_table = st.s;

	size_t len = perftools__profiles__profile__get_packed_size(&prof);
	if (!(packed = malloc(len ? len : 1)))
		goto nomem;
	perftools__profiles__profile__pack(&prof, packed);
	rc = gzwrite_all(f, packed, len);
	goto out;
nomem:
	rc = pmc__nomem();
out:
	free(packed);
	for (size_t i = 0; locbufs && i < nsm; i++)
		free(locbufs[i]);
	free(locbufs);
	free(sm);
	free(smp);
	free(ln);
	free(lnp);
	free(lc);
	free(lcp);
	free(fn);
	free(fnp);
	free(mp);
	free(mpp);
	free(lo);
	free(hi);
	free(seen);
	free(mapid);
	free(vt);
	free(vtp);
	free(a.evpos);
	free(a.val);
	free(a.used);
	free(st.s);
	free(st.key);
	free(st.ix);
	return rc;
}

const struct export_format export__format_pprof = {
	.name = "pprof", .needs_chains = EXPORT_CHAINS, .needs_time_order = 1,
	.binary = 1,
	.fn = export__pprof,
};
