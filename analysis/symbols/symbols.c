/*
 * symbols.c — the symbolizer behind symbols.h: elfutils (libdwfl/libdw/libelf)
 * for ELF files, sorted tables for the kernel, JIT maps and mapped
 * perf-map files.  Every binary is opened once (one Dwfl per binary) at its first
 * lookup; nothing here parses ELF or DWARF by hand.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libiberty/demangle.h>

#include "pmc.h"
#include "symbols/symbols.h"
#include "symbols/dbgcache.h"
#include "symbols/kcache.h"
#include "common/hmap.h"
#include "util/printable.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/sysinfo.h"

#define UNKNOWN "[unknown]"

/* ---- string pool ------------------------------------------------------ */

struct strpool {
	char **slot;
	size_t cap, n;
	int nomem;                /* a string could not be kept (symtab__nomem) */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* s, interned; out of memory "?" (not interned), with p->nomem set. */
static const char *pool_intern(struct strpool *p, const char *s)
{
	if (p->n * 2 >= p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 1024;
		char **ns = calloc(ncap, sizeof(*ns));
		if (!ns) {
			p->nomem = 1;
			return "?";
		}
		for (size_t i = 0; i < p->cap; i++) {
			if (!p->slot[i])
				continue;
			size_t j = hash_str(p->slot[i]) & (ncap - 1);
			while (ns[j])
				j = (j + 1) & (ncap - 1);
			ns[j] = p->slot[i];
		}
		free(p->slot);
		p->slot = ns;
		p->cap = ncap;
	}
	size_t j = hash_str(s) & (p->cap - 1);
	while (p->slot[j]) {
		if (strcmp(p->slot[j], s) == 0)
			return p->slot[j];
		j = (j + 1) & (p->cap - 1);
	}
	p->slot[j] = strdup(s);
	if (!p->slot[j]) {
		p->nomem = 1;
		return "?";
	}
	p->n++;
	return p->slot[j];
}

static void pool_free(struct strpool *p)
{
	for (size_t i = 0; i < p->cap; i++)
		free(p->slot[i]);
	free(p->slot);
}

/* ---- sorted symbol tables (kernel, perf maps, workloads, PLT) ----------- */

struct tsym {
	uint64_t start, size;
	const char *name;
	const char *mod;          /* kernel: the module ("ext4"), NULL for vmlinux */
};

struct table {
	struct tsym *v;
	size_t n, cap;
	int sorted;
	int nomem;                /* a symbol could not be added (symtab__nomem) */
};

static void table_add_mod(struct table *t, uint64_t start, uint64_t size, const char *name,
    const char *mod)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct tsym *v = realloc(t->v, cap * sizeof(*t->v));
		if (!v) {
			t->nomem = 1;
			return;
		}
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = (struct tsym){ start, size, name, mod };
	t->sorted = 0;
}

static void table_add(struct table *t, uint64_t start, uint64_t size, const char *name)
{
	table_add_mod(t, start, size, name, NULL);
}

static int tsym_cmp(const void *a, const void *b)
{
	const struct tsym *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort; symbols without a size extend to the next one. */
static void table_sort(struct table *t)
{
	if (t->sorted)
		return;
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), tsym_cmp);
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].size == 0)
			t->v[i].size = i + 1 < t->n ? t->v[i + 1].start - t->v[i].start : 4096;
	t->sorted = 1;
}

/* How many of the n entries at v (stride bytes apart, each starting with
 * its uint64_t start, sorted by it) start at or below addr: the tables
 * here and the kernel's cache image (struct kcache_ent) alike. */
static size_t starts_upto(const void *v, size_t n, size_t stride, uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (*(const uint64_t *)(const void *)((const char *)v + mid * stride) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct tsym *table_find(struct table *t, uint64_t addr)
{
	table_sort(t);
	size_t lo = starts_upto(t->v, t->n, sizeof(*t->v), addr);
	/* lo - 1 is the last start <= addr; sizes may overlap (aliases): look back a little */
	for (size_t k = lo; k > 0 && lo - k < 8; k--) {
		const struct tsym *s = &t->v[k - 1];
		if (addr >= s->start && addr - s->start < s->size)
			return s;
	}
	return NULL;
}

/* ---- an ELF binary's functions by address -------------------------------
 *
 * dwfl_module_addrinfo scans the binary's whole symbol table for every
 * address (tens of thousands of symbols: cc1's 29 k dynamic symbols made a
 * report of a gcc recording take minutes).  Its answer — which symbol, from
 * the globals first, by closeness, binding and size, sizeless labels only in
 * the address's section — depends on the address only through comparisons
 * with the symbols' start and end addresses and with the section bounds, and
 * through whether the address equals one of them.  So between two
 * consecutive such boundaries (and at each boundary) the answer (name,
 * start, st_size) is the same: each of those pieces is resolved once and
 * found again by binary search.  A piece is resolved by libdwfl's own
 * search (__libdwfl_addrsym, elfutils 0.188) run over a compact copy of the
 * symbols it reads, in the same order: exactly libdwfl's (and perf's)
 * choice between aliases, overlapping symbols and sizeless labels, without
 * libelf's per-symbol getters (checked against dwfl_module_addrinfo on
 * every piece of the dwarf, flamegraph, report and perfdata tests'
 * recordings and of a gcc -O2 -c one: 26 k pieces, no difference). */

struct fpiece {
	const char *name;         /* NULL: no symbol */
	uint64_t start, size;     /* size: the symbol's st_size (0: a label) */
};

/* A symbol as libdwfl's search (dwfl_module_addrsym.c, elfutils 0.188)
 * sees it, kept in symbol-table order: its choice depends on that order. */
struct fsym {
	uint64_t value, size;
	const char *raw;          /* libdwfl's string */
	uint32_t shndx;           /* as dwfl_module_getsym_info gives it (-1: not SHF_ALLOC) */
	uint8_t bind;             /* binding_value(): global 3, weak 2, local 1, else 0 */
	uint8_t elf;              /* index into ftab.elf */
};

struct fsec {
	uint64_t addr, size;
	uint32_t ndx;
};

struct felf {                     /* an ELF file the symbols come from */
	Elf *e;
	uint64_t bias;
	struct fsec *sec;         /* in section order */
	size_t nsec;
};

/* A range of ftab.sym by value: ord the indices sorted by (value, index),
 * pm[i] the greatest end (value + size) of sym[ord[0 .. i]]. */
struct fidx {
	uint32_t *ord;
	uint64_t *pm;
	size_t n;
};

struct ftab {
	struct fsym *sym;
	size_t nsym, nlocal;      /* sym[0, nlocal): before the first global */
	int first_global;
	struct felf elf[4];
	int nelf;
	uint64_t *b;              /* boundaries, sorted, distinct */
	size_t nb;
	uint32_t *slot;           /* per piece (2 nb + 1): 0 not resolved, else res index + 1 */
	struct fpiece *res;
	size_t nres, capres;
	struct fidx ix[2];        /* sym[nlocal, nsym) and sym[0, nlocal) by value (ftab_fast) */
	unsigned nscan;           /* lookups by the linear scan; the index is built after some */
	unsigned nlocscan;        /* ftab_fast's lookups that needed the locals (ix[1]) */
};

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void ftab_free(struct ftab *f)
{
	for (int k = 0; k < f->nelf; k++)
		free(f->elf[k].sec);
	free(f->sym);
	free(f->b);
	free(f->slot);
	free(f->res);
	for (int k = 0; k < 2; k++) {
		free(f->ix[k].ord);
		free(f->ix[k].pm);
	}
	memset(f, 0, sizeof(*f));
}

static int ftab_push(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	if (GROW(*v, *n, *cap) < 0)
		return -ENOMEM;
	(*v)[(*n)++] = x;
	return 0;
}

static int binding_value(unsigned char info)
{
	switch (GELF_ST_BIND(info)) {
	case STB_GLOBAL: return 3;
	case STB_WEAK: return 2;
	case STB_LOCAL: return 1;
	default: return 0;
	}
}

/* The index of (e, bias) in f->elf, added with its sections if new; -1
 * when the table is full, -ENOMEM out of memory. */
static int ftab_elf(struct ftab *f, Elf *e, uint64_t bias)
{
	int k = 0;
	while (k < f->nelf && (f->elf[k].e != e || f->elf[k].bias != bias))
		k++;
	if (k < f->nelf)
		return k;
	if (f->nelf == (int)(sizeof(f->elf) / sizeof(f->elf[0])))
		return -1;
	struct felf *x = &f->elf[f->nelf];
	size_t cap = 0;
	Elf_Scn *scn = NULL;
	*x = (struct felf){ e, bias, NULL, 0 };
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (GROW(x->sec, x->nsec, cap) < 0) {
			free(x->sec);
			x->sec = NULL;
			return -ENOMEM;
		}
		x->sec[x->nsec++] = (struct fsec){ sh.sh_addr, sh.sh_size, (uint32_t)elf_ndxscn(scn) };
	}
	return f->nelf++;
}

/* Sort v[0, n) ascending: a radix sort by bytes (a byte all keys share is
 * skipped: addresses share their high ones), qsort when out of memory. */
static void u64_sort(uint64_t *v, size_t n)
{
	uint64_t *tmp = malloc(n * sizeof(*tmp)), *src = v, *dst = tmp;
	if (!tmp) {
		qsort(v, n, sizeof(*v), u64_cmp);
		return;
	}
	for (unsigned sh = 0; sh < 64; sh += 8) {
		size_t cnt[256] = { 0 }, at = 0;
		for (size_t i = 0; i < n; i++)
			cnt[(src[i] >> sh) & 255]++;
		if (cnt[(src[0] >> sh) & 255] == n)
			continue;
		for (unsigned k = 0; k < 256; k++) {
			size_t c = cnt[k];
			cnt[k] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[(src[i] >> sh) & 255]++] = src[i];
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
}

/* The symbols libdwfl's search reads, and every value it compares an
 * address with: each symbol's value and end, each section's bounds in each
 * ELF the symbols come from (the main file, the debug file).  A superset of
 * boundaries is harmless: it only makes the pieces finer.  0, or -ENOMEM
 * with the table empty again. */
static int ftab_build(struct ftab *f, Dwfl_Module *mod)
{
	uint64_t *b = NULL;
	size_t n = 0, cap = 0, capsym = 0;
	int nsym = dwfl_module_getsymtab(mod);
	f->first_global = dwfl_module_getsymtab_first_global(mod);
	for (int i = 1; i < nsym; i++) {
		GElf_Sym sym;
		GElf_Addr a;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias = 0;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &a, &shndx, &elf, &bias);
		int k;
		if (!name || !name[0] || sym.st_shndx == SHN_UNDEF ||
		    GELF_ST_TYPE(sym.st_info) == STT_SECTION ||
		    GELF_ST_TYPE(sym.st_info) == STT_FILE || GELF_ST_TYPE(sym.st_info) == STT_TLS)
			continue;
		if ((k = ftab_elf(f, elf, bias)) == -ENOMEM)
			goto nomem;
		if (k < 0) {
			f->first_global = -1;   /* not seen in practice: libdwfl answers */
			continue;
		}
		if (ftab_push(&b, &n, &cap, a) < 0 || ftab_push(&b, &n, &cap, a + sym.st_size) < 0 ||
		    GROW(f->sym, f->nsym, capsym) < 0)
			goto nomem;
		f->sym[f->nsym++] = (struct fsym){ a, sym.st_size, name, shndx,
		    (uint8_t)binding_value(sym.st_info), (uint8_t)k };
		if (i < f->first_global)
			f->nlocal = f->nsym;
	}
	for (int k = 0; k < f->nelf; k++)
		for (size_t j = 0; j < f->elf[k].nsec; j++)
			if (ftab_push(&b, &n, &cap, f->elf[k].sec[j].addr + f->elf[k].bias) < 0 ||
			    ftab_push(&b, &n, &cap, f->elf[k].sec[j].addr + f->elf[k].bias +
			    f->elf[k].sec[j].size) < 0)
				goto nomem;
	if (n)
		u64_sort(b, n);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (m == 0 || b[m - 1] != b[i])
			b[m++] = b[i];
	f->b = b;
	f->nb = m;
	if (!(f->slot = calloc(2 * m + 1, sizeof(*f->slot))))
		goto nomem_b;
	return 0;
nomem:
	free(b);
nomem_b:
	ftab_free(f);           /* frees f->b too once it holds b */
	return -ENOMEM;
}

/* ---- libdwfl's choice (__libdwfl_addrsym with adjust_st_value), on the
 * table above instead of libelf's symbol accessors */

struct fstate {
	uint64_t addr;
	const struct fsym *closest, *sizeless;
	uint64_t min_label;
	uint32_t addr_shndx;
	int addr_elf;
};

static int fsame_section(const struct ftab *f, struct fstate *s, const struct fsym *y)
{
	if (y->shndx >= SHN_LORESERVE)
		return y->value == s->addr;
	if (s->addr_shndx == SHN_UNDEF || s->addr_elf != y->elf) {
		const struct felf *x = &f->elf[y->elf];
		uint64_t m = s->addr - x->bias;
		s->addr_shndx = SHN_ABS;
		s->addr_elf = y->elf;
		for (size_t j = 0; j < x->nsec; j++)
			if (m >= x->sec[j].addr && m < x->sec[j].addr + x->sec[j].size) {
				s->addr_shndx = x->sec[j].ndx;
				break;
			}
	}
	return y->shndx == s->addr_shndx && s->addr_elf == y->elf;
}

static void fsearch(const struct ftab *f, struct fstate *s, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		const struct fsym *y = &f->sym[i], *c = s->closest;
		if (y->value > s->addr)
			continue;
		if (y->value + y->size > s->min_label)
			s->min_label = y->value + y->size;
		if (y->size != 0 && s->addr - y->value >= y->size)
			continue;
		if (!c || c->value < y->value || c->bind < y->bind) {
			if (y->size != 0)
				s->closest = y;
			else if (!c && y->value >= s->min_label && fsame_section(f, s, y))
				s->sizeless = y;
		} else if (y->size != 0 && c->value == y->value &&
		    ((c->size > y->size && c->bind <= y->bind) ||
		     (c->size >= y->size && c->bind < y->bind))) {
			s->closest = y;
		}
	}
}

/* ---- the same choice without the scan (ftab_fast).  What fsearch keeps of
 * the symbols with value <= addr: closest, folded in table order from the
 * sized symbols holding addr (the others only raise min_label), and while
 * there is none, the last sizeless one in table order whose value is at
 * least min_label so far.  One such is taken at the end only if its value
 * is at least the whole min_label F, the greatest end below addr; as F is
 * at least every such value V, that is the last sizeless symbol at V = F
 * (of its section), and a later sizeless one below V fails min_label. */

struct fvq {
	uint64_t v, f;            /* the greatest value and end of the range's symbols <= addr */
	int has;                  /* any symbol <= addr */
	const struct fsym *c;     /* closest in the range, folded in order from the caller's */
	long last;                /* the last sizeless symbol at v in addr's section, or -1 */
};

static int fv_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

/* Index sym[from, to) by value: 0, or -ENOMEM. */
static int fidx_build(const struct ftab *f, struct fidx *x, size_t from, size_t to)
{
	size_t n = to - from;
	uint64_t *t = malloc((n ? n : 1) * 2 * sizeof(*t));
	x->ord = malloc((n ? n : 1) * sizeof(*x->ord));
	x->pm = malloc((n ? n : 1) * sizeof(*x->pm));
	if (!t || !x->ord || !x->pm) {
		free(t);
		free(x->ord);
		free(x->pm);
		*x = (struct fidx){ NULL, NULL, 0 };
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		t[2 * i] = f->sym[from + i].value;
		t[2 * i + 1] = from + i;
	}
	qsort(t, n, 2 * sizeof(*t), fv_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct fsym *y = &f->sym[t[2 * i + 1]];
		x->ord[i] = (uint32_t)t[2 * i + 1];
		x->pm[i] = i && x->pm[i - 1] > y->value + y->size ? x->pm[i - 1] : y->value + y->size;
	}
	x->n = n;
	free(t);
	return 0;
}

#define FIDX_WALK 64              /* more symbols than this around addr: the scan */

/* Range x's part of the choice for s->addr, closest folded on from q->c:
 * 0, or -1 when too many symbols hold addr (the caller scans instead). */
static int fidx_query(const struct ftab *f, struct fstate *s, const struct fidx *x,
    struct fvq *q)
{
	size_t lo = 0, hi = x->n, k = 0;
	uint32_t hold[FIDX_WALK];
	uint64_t addr = s->addr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->sym[x->ord[mid]].value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	q->has = lo > 0;
	q->last = -1;
	if (!q->has)
		return 0;
	q->v = f->sym[x->ord[lo - 1]].value;
	q->f = x->pm[lo - 1];
	for (size_t j = lo; j-- > 0 && x->pm[j] > addr; ) {
		const struct fsym *y = &f->sym[x->ord[j]];
		if (y->size == 0 || addr - y->value >= y->size)
			continue;
		if (k == FIDX_WALK)
			return -1;
		hold[k++] = x->ord[j];
	}
	for (size_t i = 1; i < k; i++)        /* table order */
		for (size_t j = i; j > 0 && hold[j - 1] > hold[j]; j--) {
			uint32_t t = hold[j];
			hold[j] = hold[j - 1];
			hold[j - 1] = t;
		}
	for (size_t i = 0; i < k; i++) {       /* fsearch's fold, sized symbols only */
		const struct fsym *y = &f->sym[hold[i]], *c = q->c;
		if (!c || c->value < y->value || c->bind < y->bind ||
		    (c->value == y->value && ((c->size > y->size && c->bind <= y->bind) ||
		     (c->size >= y->size && c->bind < y->bind))))
			q->c = y;
	}
	if (q->c || q->f != q->v)
		return 0;
	for (size_t j = lo, n = 0; j-- > 0 && f->sym[x->ord[j]].value == q->v; )
		if (f->sym[x->ord[j]].size == 0 && (long)x->ord[j] > q->last) {
			if (++n > FIDX_WALK)
				return -1;
			if (fsame_section(f, s, &f->sym[x->ord[j]]))
				q->last = (long)x->ord[j];
		}
	return 0;
}

/* Has a range of n symbols been scanned (nscan times) for about what
 * sorting it costs (n log n), so that an index by value pays? */
static int fidx_due(unsigned nscan, size_t n)
{
	unsigned lg = 0;
	while (lg < 63 && (n >> lg) > 1)
		lg++;
	return nscan >= 16 + 2 * lg;
}

/* ftab_lookup's answer from the indexes: 0, or -1 to scan instead (the
 * locals' index is built once the globals' answers have needed them for
 * a while: most lookups end in the globals). */
static int ftab_fast(struct ftab *f, uint64_t addr, const struct fsym **out)
{
	struct fstate s = { addr, NULL, NULL, 0, SHN_UNDEF, -1 };
	struct fvq g = { 0 }, l = { 0 };
	if (fidx_query(f, &s, &f->ix[0], &g) < 0)
		return -1;
	*out = g.c;
	if (g.c)
		return 0;
	/* fsearch's sizeless answer of the globals has value addr only if it is g.last */
	if (f->first_global > 1 && !(g.last >= 0 && g.v == addr)) {
		if (!f->ix[1].ord && (!fidx_due(f->nlocscan++, f->nlocal) ||
		    fidx_build(f, &f->ix[1], 0, f->nlocal) < 0))
			return -1;
		if (fidx_query(f, &s, &f->ix[1], &l) < 0)
			return -1;
		if ((*out = l.c))
			return 0;
	}
	uint64_t v = g.has && (!l.has || g.v > l.v) ? g.v : l.v;
	uint64_t e = g.has && (!l.has || g.f > l.f) ? g.f : l.f;
	if ((!g.has && !l.has) || e != v)
		return 0;
	if (l.has && l.v == v && l.last >= 0)
		*out = &f->sym[l.last];
	else if (g.has && g.v == v && g.last >= 0)
		*out = &f->sym[g.last];
	return 0;
}

static const struct fsym *ftab_lookup(struct ftab *f, uint64_t addr)
{
	struct fstate s = { addr, NULL, NULL, 0, SHN_UNDEF, -1 };
	const struct fsym *r;
	/* a few lookups scan; more are worth indexing the symbols by value */
	if (!f->ix[0].ord && fidx_due(f->nscan, f->nsym - f->nlocal) &&
	    fidx_build(f, &f->ix[0], f->nlocal, f->nsym) < 0)
		f->nscan = 0;             /* out of memory: scan on, try again later */
	if (f->ix[0].ord && ftab_fast(f, addr, &r) == 0)
		return r;
	f->nscan++;
	fsearch(f, &s, f->nlocal, f->nsym);
	if (!s.closest && f->first_global > 1 && (!s.sizeless || s.sizeless->value != addr))
		fsearch(f, &s, 0, f->nlocal);
	if (!s.closest && s.sizeless && s.sizeless->value >= s.min_label)
		s.closest = s.sizeless;
	return s.closest;
}

/* The piece holding addr: 0 below every boundary, 2i - 1 at boundary
 * i - 1, 2i between boundaries i - 1 and i (or above the last). */
static size_t ftab_piece(const struct ftab *f, uint64_t addr)
{
	size_t lo = 0, hi = f->nb;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->b[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	return f->b[lo - 1] == addr ? 2 * lo - 1 : 2 * lo;
}

/* ---- the symtab and its binaries -------------------------------------- */

struct arena {            /* names of big tables (kallsyms), interned only when found */
	char *buf;
	size_t len, cap;
	struct arena *next;
};

struct seg {
	uint64_t off, filesz, vaddr;
	uint32_t flags;               /* PF_* */
};

/* The concrete functions (DW_TAG_subprogram with code) of one CU, by
 * address range: one walk of the CU's DIE tree, then a binary search per
 * pc, where a walk from the CU per pc (dwarf_getscopes' way) parses every
 * DIE before the function each time (rustc emits no DW_AT_sibling). */
struct cu_frange {
	uint64_t lo, hi;
	Dwarf_Die die;
};
struct cu_funcs {
	Dwarf_Off cu;                 /* the CU DIE's offset */
	struct cu_frange *v;          /* sorted by lo */
	size_t n, cap;
};

struct sym_dso {
	struct symtab *st;
	unsigned id;
	enum sym_dso_kind kind;
	char *path;
	const char *name;
	uint8_t bid[20];
	unsigned bidlen;
	pid_t pid;                    /* perf maps */
	char *jitdump;                /* perf maps: the process's jit-PID.dump, if mapped */
	struct jline *jl;             /* jitdump debug info: lines by address */
	size_t njl, capjl;
	int kmod;                     /* a kernel module: symbols from its .ko (ko = 1) or */
	int ko;                       /* the kernel's table */
	uint64_t kbase;               /* a module: where the recording had it (.text) */
	int jit_state;                /* perf maps: 0 not looked, 1 has JIT symbols, 2 none */
	uint64_t jit_move_probes;     /* jitdump: entries looked at matching CODE_MOVEs */
	int opened;                   /* open attempted */
	const char *problem;
	/* ELF */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct seg *segs;
	int nseg;
	struct table plt;
	struct table alias;           /* addresses with several function names: perf's pick */
	int alias_done;
	struct ftab funcs;            /* functions by address (elf_func) */
	int machine;
	int has_dwarf;                /* -1 not tried */
	struct cu_funcs *cuf;         /* per CU seen: its functions by address (pc_scopes) */
	size_t ncuf, capcuf;
	/* tables */
	struct table tab;
	struct arena *names;
	struct kcache_img kimg;       /* the kernel: its cache file, searched in place (tab
	                                 then holds only the KSYMBOL records' symbols) */
};

struct jline {
	uint64_t addr;
	const char *file;
	int line;
};

struct kmodmap {                  /* a module's range from the recording (MAP_IN, pid -1) */
	uint64_t start, end;
	struct sym_dso *dso;
};

static void mark_nomem(struct symtab *st);

static const char *arena_add(struct sym_dso *d, const char *s, size_t n)
{
	struct arena *a = d->names;
	if (!a || a->len + n + 1 > a->cap) {
		size_t cap = n + 1 > 1 << 20 ? n + 1 : 1 << 20;
		a = malloc(sizeof(*a));
		if (!a || !(a->buf = malloc(cap))) {
			free(a);
			mark_nomem(d->st);
			return "?";
		}
		a->len = 0;
		a->cap = cap;
		a->next = d->names;
		d->names = a;
	}
	char *p = a->buf + a->len;
	memcpy(p, s, n);
	p[n] = '\0';
	a->len += n + 1;
	return p;
}

struct symtab {
	struct symtab_opts o;
	struct strpool pool;
	struct sym_dso **dsos;
	size_t ndso, capdso;
	struct sym_dso *kernel;
	struct table ksyms_extra;
	const char *krelease;
	uint8_t kbid[20];
	unsigned kbidlen;
	int kforeign;                 /* -1 not decided; 1 the recording's kernel is not this one */
	const char *kref;             /* perf's kernel MMAP: "_text" was at kref_addr then */
	uint64_t kref_addr;
	uint64_t kdelta;              /* this boot's addresses - the recording's (KASLR) */
	char kwarn[512];
	struct kmodmap *kmods;
	size_t nkmods, capkmods;
	char *dbgpath;
	int nomem;                    /* see symtab__nomem */
};

const char *symtab__intern(struct symtab *st, const char *s)
{
	return pool_intern(&st->pool, s ? s : "");
}

const char *symtab__intern_name(struct symtab *st, const char *s)
{
	if (!printable__needs(s))
		return symtab__intern(st, s);
	size_t len = 4 * strlen(s) + 1;      /* every byte \xNN at most */
	char *buf = malloc(len);
	if (!buf) {
		st->pool.nomem = 1;
		return "?";
	}
	const char *r = symtab__intern(st, printable__str(s, buf, len));
	free(buf);
	return r;
}

static void mark_nomem(struct symtab *st)
{
	st->nomem = 1;
}

int symtab__nomem(const struct symtab *st)
{
	if (st->nomem || st->pool.nomem || st->ksyms_extra.nomem)
		return 1;
	for (size_t i = 0; i < st->ndso; i++)
		if (st->dsos[i]->tab.nomem || st->dsos[i]->plt.nomem || st->dsos[i]->alias.nomem)
			return 1;
	return 0;
}

struct symtab *symtab__new(const struct symtab_opts *opts)
{
	struct symtab *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	if (opts)
		st->o = *opts;
	else
		st->o.demangle = 1;
	if (!st->o.kallsyms)
		st->o.kallsyms = "/proc/kallsyms";
	if (!st->o.perfmap_dir)
		st->o.perfmap_dir = "/tmp";
	if (st->o.symfs && !st->o.symfs[0])
		st->o.symfs = NULL;
	st->kforeign = -1;
	{
		char buf[4096];
		/* under --symfs, its /usr/lib/debug first (debug files found by
		 * name there are checked by their CRC, by build id by the id) */
		snprintf(buf, sizeof(buf), ":.debug%s%s%s:/usr/lib/debug%s%s",
		    st->o.symfs ? ":" : "", st->o.symfs ? st->o.symfs : "",
		    st->o.symfs ? "/usr/lib/debug" : "",
		    st->o.debug_dir ? ":" : "", st->o.debug_dir ? st->o.debug_dir : "");
		st->dbgpath = strdup(buf);
	}
	elf_version(EV_CURRENT);
	return st;
}

static void dso_free(struct sym_dso *d)
{
	kcache__unload(&d->kimg);
	free(d->jitdump);
	free(d->jl);
	while (d->names) {
		struct arena *a = d->names;
		d->names = a->next;
		free(a->buf);
		free(a);
	}
	if (d->dwfl)
		dwfl_end(d->dwfl);
	free(d->segs);
	for (size_t i = 0; i < d->ncuf; i++)
		free(d->cuf[i].v);
	free(d->cuf);
	ftab_free(&d->funcs);
	free(d->plt.v);
	free(d->alias.v);
	free(d->tab.v);
	free(d->path);
	free(d);
}

void symtab__free(struct symtab *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->ndso; i++)
		dso_free(st->dsos[i]);
	free(st->dsos);
	free(st->ksyms_extra.v);
	free(st->kmods);
	free(st->dbgpath);
	pool_free(&st->pool);
	free(st);
}

/* A new binary of st; NULL out of memory (sticky: symtab__nomem). */
static struct sym_dso *new_dso(struct symtab *st, enum sym_dso_kind kind, const char *path,
    const char *name)
{
	struct sym_dso *d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path)) || GROW(st->dsos, st->ndso, st->capdso) < 0) {
		if (d)
			free(d->path);
		free(d);
		mark_nomem(st);
		return NULL;
	}
	d->st = st;
	d->kind = kind;
	d->name = symtab__intern_name(st, name);
	d->has_dwarf = -1;
	d->id = (unsigned)st->ndso;
	st->dsos[st->ndso++] = d;
	return d;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s && s[1] ? s + 1 : p;
}

/* A kernel's own file system (procfs, sysfs, tracefs, debugfs ...): its
 * "regular" files are views of the kernel, and reading one can block
 * (/proc/kmsg, trace_pipe) or consume what it shows. */
static int kernel_fs(long type)
{
	switch ((unsigned long)type) {
	case 0x9fa0:        /* PROC_SUPER_MAGIC */
	case 0x62656572:    /* SYSFS_MAGIC */
	case 0x74726163:    /* TRACEFS_MAGIC */
	case 0x64626720:    /* DEBUGFS_MAGIC */
	case 0x73636673:    /* SECURITYFS_MAGIC */
	case 0x27e0eb:      /* CGROUP_SUPER_MAGIC */
	case 0x63677270:    /* CGROUP2_SUPER_MAGIC */
	case 0xcafe4a11:    /* BPF_FS_MAGIC */
	case 0xde5e81e4:    /* EFIVARFS_MAGIC */
	case 0x6165676c:    /* PSTOREFS_MAGIC */
	case 0x62656570:    /* CONFIGFS_MAGIC */
	case 0x1cd1:        /* DEVPTS_SUPER_MAGIC */
	case 0x67596969:    /* RPCAUTH_GSSMAGIC */
		return 1;
	}
	return 0;
}

int sym__open_regular(const char *path)
{
	struct stat sb;
	struct statfs fs;
	int fd, fl, link;

	/* look before opening: opening a device can have effects of its own */
	if (lstat(path, &sb) != 0)
		return -errno;
	/* a link someone else made (in their home, in /tmp) is theirs to point
	 * anywhere: followed only when it is the reader's or root's */
	link = S_ISLNK(sb.st_mode);
	if (link && sb.st_uid != geteuid() && sb.st_uid != 0)
		return -EPERM;
	if (stat(path, &sb) != 0)
		return -errno;
	if (!S_ISREG(sb.st_mode))
		return -EINVAL;
	if (statfs(path, &fs) == 0 && kernel_fs((long)fs.f_type))
		return -ENODEV;
	/* O_NONBLOCK: if it became a FIFO meanwhile, the open does not wait;
	 * O_NOFOLLOW: if it became a link meanwhile, it is not followed */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (fstatfs(fd, &fs) == 0 && kernel_fs((long)fs.f_type)) {
		close(fd);
		return -ENODEV;
	}
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

static const char *open_problem(int err)
{
	return err == -EINVAL ? "not a regular file (a FIFO, socket or device): not read" :
	    err == -ENODEV ? "a file of the kernel's (procfs, sysfs, tracefs ...): not read" :
	    err == -EPERM ? "a symbolic link of another user's: not followed" :
	    err == -ENOENT || err == -ENOTDIR ? "not found" : "cannot be read";
}

/* Anonymous memory that may hold JIT code: //anon, [anon:name], memfd. */
static int jit_capable(const char *path)
{
	return strncmp(path, "//anon", 6) == 0 || strncmp(path, "[anon:", 6) == 0 ||
	    strncmp(path, "/memfd:", 7) == 0 || strncmp(path, "memfd:", 6) == 0 || path[0] == '\0';
}

/* Where a recorded file is read: symfs + its recorded path under --symfs
 * (symtab_opts.symfs), else the path itself. */
static const char *host_path(const struct symtab *st, const char *path, char *buf, size_t len)
{
	if (!st->o.symfs)
		return path;
	snprintf(buf, len, "%s%s%s", st->o.symfs, path[0] == '/' ? "" : "/", path);
	return buf;
}

static enum sym_dso_kind classify(const struct symtab *st, const char *path)
{
	char magic[sizeof(PMC_SIM_IMAGE_MAGIC) - 1], buf[4200];
	int fd;
	ssize_t n;

	if (strcmp(path, "[vdso]") == 0)
		return SYM_DSO_VDSO;
	if (path[0] == '[' || strncmp(path, "//anon", 6) == 0 || path[0] == '\0' ||
	    strncmp(path, "/dev/zero", 9) == 0 || strncmp(path, "/memfd:", 7) == 0 ||
	    strncmp(path, "anon_inode:", 11) == 0)
		return SYM_DSO_ANON;
	if ((fd = sym__open_regular(host_path(st, path, buf, sizeof(buf)))) < 0)
		return SYM_DSO_ELF;   /* missing or no file: reported as such at lookup */
	n = read(fd, magic, sizeof(magic));
	close(fd);
	/* a binary is read as a perf map only when it says it is one (the
	 * simulator's images): anything else is an ELF file or nothing */
	if (n == (ssize_t)sizeof(magic) && memcmp(magic, PMC_SIM_IMAGE_MAGIC, sizeof(magic)) == 0)
		return SYM_DSO_MAPFILE;
	return SYM_DSO_ELF;
}

struct sym_dso *symtab__dso(struct symtab *st, const char *path, const uint8_t *bid,
    unsigned bidlen)
{
	if (bidlen > 20)
		bidlen = 20;
	for (size_t i = 0; i < st->ndso; i++) {
		struct sym_dso *d = st->dsos[i];
		if (d->kind == SYM_DSO_KERNEL || d->kind == SYM_DSO_PERFMAP)
			continue;
		if (strcmp(d->path, path) == 0 && d->bidlen == bidlen &&
		    memcmp(d->bid, bid ? bid : d->bid, bidlen) == 0)
			return d;
	}
	struct sym_dso *d = new_dso(st, classify(st, path), path, base_name(path));
	if (d && bidlen && bid) {
		memcpy(d->bid, bid, bidlen);
		d->bidlen = bidlen;
	}
	return d;
}

struct sym_dso *symtab__kernel(struct symtab *st)
{
	if (!st->kernel)
		st->kernel = new_dso(st, SYM_DSO_KERNEL, st->o.vmlinux ? st->o.vmlinux :
		    st->o.kallsyms, "[kernel.kallsyms]");
	return st->kernel;
}

struct sym_dso *symtab__perfmap(struct symtab *st, pid_t pid)
{
	char path[4096], name[64];
	for (size_t i = 0; i < st->ndso; i++)
		if (st->dsos[i]->kind == SYM_DSO_PERFMAP && st->dsos[i]->pid == pid)
			return st->dsos[i];
	snprintf(path, sizeof(path), "%s/perf-%d.map", st->o.perfmap_dir, (int)pid);
	snprintf(name, sizeof(name), "perf-%d.map", (int)pid);
	struct sym_dso *d = new_dso(st, SYM_DSO_PERFMAP, path, name);
	if (d)
		d->pid = pid;
	return d;
}

void symtab__set_jitdump(struct symtab *st, pid_t pid, const char *path)
{
	struct sym_dso *d = symtab__perfmap(st, pid);
	if (!d || d->opened || (d->jitdump && strcmp(d->jitdump, path) == 0))
		return;
	free(d->jitdump);
	d->jitdump = strdup(path);
	if (!d->jitdump) {
		st->nomem = 1;
		return;
	}
	d->jit_state = 1;
	d->name = symtab__intern_name(st, base_name(path));
}

struct sym_dso *symtab__jit(struct symtab *st, pid_t pid)
{
	struct stat sb;
	struct sym_dso *d = symtab__perfmap(st, pid);
	if (!d)
		return NULL;
	/* looked for once per process */
	if (!d->jit_state)
		d->jit_state = d->jitdump || stat(d->path, &sb) == 0 ? 1 : 2;
	return d->jit_state == 1 ? d : NULL;
}

uint64_t sym_dso__jit_move_probes(const struct sym_dso *d)
{
	return d->jit_move_probes;
}

int sym_dso__jit_capable(const struct sym_dso *d)
{
	return d->kind == SYM_DSO_ANON && jit_capable(d->path);
}

void symtab__add_ksym(struct symtab *st, uint64_t addr, uint64_t len, const char *name)
{
	table_add(&st->ksyms_extra, addr, len, symtab__intern(st, name));
}

void symtab__set_kernel_release(struct symtab *st, const char *release)
{
	if (release && *release)
		st->krelease = symtab__intern(st, release);
	st->kforeign = -1;
}

void symtab__set_kernel_reloc(struct symtab *st, const char *sym, uint64_t addr)
{
	if (!sym || !*sym || !addr)
		return;
	st->kref = symtab__intern(st, sym);
	st->kref_addr = addr;
}

void symtab__set_kernel_buildid(struct symtab *st, const uint8_t *bid, unsigned bidlen)
{
	if (!bid || !bidlen)
		return;
	st->kbidlen = bidlen > 20 ? 20 : bidlen;
	memcpy(st->kbid, bid, st->kbidlen);
	st->kforeign = -1;
}

static void hexid(const uint8_t *b, unsigned n, char *out);
static unsigned file_buildid(int fd, uint8_t *out);

/* -k/--vmlinux FILE: usable unless the recording names its kernel's build
 * id and FILE's differs or is missing (perf refuses it then too). */
static int vmlinux_foreign(struct symtab *st)
{
	uint8_t fb[20];
	unsigned fl = 0;
	char a[41], b[41];
	int fd = sym__open_regular(st->o.vmlinux);

	if (fd >= 0) {
		fl = file_buildid(fd, fb);
		close(fd);
	}
	if (fd < 0 || !st->kbidlen || (fl == st->kbidlen && memcmp(fb, st->kbid, fl) == 0))
		return 0;                 /* an unreadable file: load_vmlinux says so */
	hexid(st->kbid, st->kbidlen, a);
	hexid(fb, fl, b);
	snprintf(st->kwarn, sizeof(st->kwarn), "%s is not the recording's kernel: its build id "
	    "is %s, the recording's %s; kernel addresses are shown unresolved", st->o.vmlinux,
	    fl ? b : "missing", a);
	return 1;
}

/*
 * Is the recording's kernel another one than the running kernel?  Decided
 * by the build id when the recording has one (KSYMSRC, perf's build-id
 * feature), else by the release; a recording that says neither is taken to
 * be of this kernel.  An explicit kallsyms file (symtab_opts) is trusted.
 */
static int kernel_foreign(struct symtab *st)
{
	struct utsname u;
	uint8_t run[20];
	unsigned rl;
	char a[41], b[41];

	if (st->kforeign >= 0)
		return st->kforeign;
	st->kforeign = 0;
	st->kwarn[0] = '\0';
	if (st->o.vmlinux)
		return st->kforeign = vmlinux_foreign(st);
	if (strcmp(st->o.kallsyms, "/proc/kallsyms") != 0)
		return 0;
	if (uname(&u) != 0)
		u.release[0] = '\0';
	rl = pmc__sys_kernel_build_id(run);
	if (st->kbidlen && rl) {
		if (rl == st->kbidlen && memcmp(run, st->kbid, rl) == 0)
			return 0;
		hexid(st->kbid, st->kbidlen, a);
		hexid(run, rl, b);
		snprintf(st->kwarn, sizeof(st->kwarn), "No kallsyms or vmlinux with build-id %s "
		    "was found: the recording's kernel%s%s is not the running one (build id %s, %s); "
		    "kernel addresses are shown unresolved", a, st->krelease ? " " : "",
		    st->krelease ? st->krelease : "", b, u.release);
	} else if (st->krelease && strcmp(st->krelease, u.release) != 0) {
		snprintf(st->kwarn, sizeof(st->kwarn), "No kallsyms for kernel %s: the recording's "
		    "kernel is not the running one (%s); kernel addresses are shown unresolved",
		    st->krelease, u.release);
	} else {
		return 0;
	}
	st->kforeign = 1;
	return 1;
}

const char *symtab__kernel_warning(struct symtab *st)
{
	/* only when there are kernel samples to be wrong about */
	if (!st->kernel || !kernel_foreign(st))
		return NULL;
	return st->kwarn;
}

/* "[ath9k]", "/lib/modules/.../ath9k.ko.xz" -> "ath9k" (perf's dashes become
 * underscores, as the kernel names modules). */
static void module_name(const char *path, char *out, size_t len)
{
	const char *b = base_name(path);
	size_t n;
	if (b[0] == '[') {
		b++;
		n = strcspn(b, "]");
	} else {
		n = strcspn(b, ".");
	}
	if (n >= len)
		n = len - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = b[i] == '-' ? '_' : b[i];
	out[n] = '\0';
}

static struct sym_dso *kmod_dso(struct symtab *st, const char *name, const char *path)
{
	char nm[300];
	snprintf(nm, sizeof(nm), "[%s]", name);
	for (size_t i = 0; i < st->ndso; i++)
		if (st->dsos[i]->kmod && strcmp(st->dsos[i]->name, nm) == 0)
			return st->dsos[i];
	struct sym_dso *d = new_dso(st, SYM_DSO_KERNEL, path ? path : nm, nm);
	if (d)
		d->kmod = 1;
	return d;
}

void symtab__add_kmodule(struct symtab *st, uint64_t start, uint64_t len, const char *path,
    const uint8_t *bid, unsigned bidlen)
{
	char name[256];
	if (!len || start + len < start)
		return;
	module_name(path, name, sizeof(name));
	if (!name[0])
		return;
	if (st->nkmods == st->capkmods) {
		size_t cap = st->capkmods ? st->capkmods * 2 : 16;
		struct kmodmap *k = realloc(st->kmods, cap * sizeof(*st->kmods));
		if (!k) {
			st->nomem = 1;
			return;
		}
		st->kmods = k;
		st->capkmods = cap;
	}
	struct sym_dso *d = kmod_dso(st, name, path);
	if (!d)
		return;
	if (!d->kbase)
		d->kbase = start;
	if (bid && bidlen && !d->bidlen) {
		d->bidlen = bidlen > 20 ? 20 : bidlen;
		memcpy(d->bid, bid, d->bidlen);
	}
	st->kmods[st->nkmods++] = (struct kmodmap){ start, start + len, d };
}

static void dso_open(struct sym_dso *d);
static void kernel_unseal(struct sym_dso *d);

/* The kernel's symbol at addr, as table_find finds it in one table: from
 * the cache image (searched where it is mapped) and k->tab (all symbols
 * when there is no image; else the KSYMBOL records'), the later start
 * winning, the table's on a tie (its symbols came after the image's).
 * A symbol of the image is described in *buf. */
static const struct tsym *ksym_find(struct sym_dso *k, uint64_t addr, struct tsym *buf)
{
	struct kcache_img *im = &k->kimg;
	size_t lo = starts_upto(im->ent, im->n, sizeof(*im->ent), addr);
	/* every entry the answer depends on is sealed: the ones looked at and
	 * the first one past addr (an edited start there moves the search) */
	for (size_t j = lo + 1 < im->n ? lo + 1 : im->n; j > 0 && lo + 1 - j <= 8; j--)
		if (!kcache__entry_ok(im, j - 1)) {
			kernel_unseal(k);
			return k->tab.n ? table_find(&k->tab, addr) : NULL;
		}
	const struct tsym *t = k->tab.n ? table_find(&k->tab, addr) : NULL;
	for (size_t j = lo; j > 0 && lo - j < 8; j--) {
		const struct kcache_ent *e = &im->ent[j - 1];
		if (addr - e->start >= e->size)       /* e->start <= addr: sorted */
			continue;
		if (t && t->start >= e->start)
			return t;
		*buf = (struct tsym){ e->start, e->size, im->names + e->name,
			e->mod == KCACHE_NOMOD ? NULL : im->names + e->mod };
		return buf;
	}
	return t;
}

struct sym_dso *symtab__kmodule_at(struct symtab *st, uint64_t addr)
{
	for (size_t i = st->nkmods; i > 0; i--)     /* the latest covering addr */
		if (addr >= st->kmods[i - 1].start && addr < st->kmods[i - 1].end)
			return st->kmods[i - 1].dso;
	return NULL;
}

struct sym_dso *symtab__kernel_at(struct symtab *st, uint64_t addr)
{
	struct sym_dso *k = symtab__kernel(st), *m;
	const struct tsym *t;
	struct tsym tb;
	if (!k)
		return NULL;
	/* the recording's module maps first */
	if ((m = symtab__kmodule_at(st, addr)) != NULL)
		return m;
	/* else the module kallsyms names for this address */
	dso_open(k);
	if ((t = ksym_find(k, addr + st->kdelta, &tb)) != NULL && t->mod &&
	    (m = kmod_dso(st, t->mod, NULL)) != NULL)
		return m;
	return k;               /* or out of memory for the module: symtab__nomem */
}

enum sym_dso_kind sym_dso__kind(const struct sym_dso *d) { return d->kind; }
const char *sym_dso__path(const struct sym_dso *d) { return d->path; }
const char *sym_dso__name(const struct sym_dso *d) { return d->name; }
unsigned sym_dso__id(const struct sym_dso *d) { return d->id; }

const uint8_t *sym_dso__buildid(const struct sym_dso *d, unsigned *len)
{
	*len = d->bidlen;
	return d->bid;
}

int sym_dso__cmp(const struct sym_dso *a, const struct sym_dso *b)
{
	int c;
	if (a == b || !a || !b)
		return a == b ? 0 : !a ? -1 : 1;
	if ((c = strcmp(a->path, b->path)) != 0)
		return c;
	if (a->bidlen != b->bidlen)
		return a->bidlen < b->bidlen ? -1 : 1;
	return a->bidlen ? memcmp(a->bid, b->bid, a->bidlen) : 0;
}

/* ---- demangling --------------------------------------------------------- */

/* libiberty's cplus_demangle, as perf 6.1 calls it (util/symbol-elf.c
 * demangle_sym: DMGL_NO_OPTS, with DMGL_PARAMS | DMGL_ANSI under -v): the
 * auto style tries Rust first (legacy "_ZN...17h<hash>E", its ".llvm.N"
 * suffix and hash dropped, "$LT$" decoded; v0 "_R...") and then the
 * Itanium C++ ABI.  Only names that can be mangled are handed to it (the
 * check is the cost of every other name). */
const char *sym__demangle(const char *name, int params, char *buf, size_t len)
{
	char *out;

	if (!name || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R' &&
	    strncmp(name, "_GLOBAL_", 8) != 0))
		return name;
	out = cplus_demangle(name, DMGL_AUTO | (params ? DMGL_PARAMS | DMGL_ANSI : 0));
	if (!out)
		return name;
	snprintf(buf, len, "%s", out);
	free(out);
	return buf;
}

/* Demangled as the table's options say (symtab_opts.demangle). */
static const char *demangled(const struct symtab *st, const char *name, char *buf, size_t len)
{
	return st->o.demangle ? sym__demangle(name, st->o.demangle > 1, buf, len) : name;
}

/* A kernel symbol's name, interned: demangled only with demangle_kernel
 * (perf's --demangle-kernel; a kernel built with Rust has v0 names). */
static const char *kernel_name(struct symtab *st, const char *raw)
{
	char buf[4096];
	return symtab__intern(st, st->o.demangle_kernel ? demangled(st, raw, buf, sizeof(buf)) : raw);
}

static const char *intern_sym(struct symtab *st, const char *raw)
{
	char buf[4096];
	if (!raw)
		return symtab__intern(st, UNKNOWN);
	return symtab__intern(st, demangled(st, raw, buf, sizeof(buf)));
}

/* ---- opening ------------------------------------------------------------ */

static int find_debuginfo(Dwfl_Module *mod, void **ud, const char *modname, Dwarf_Addr base,
    const char *file, const char *debuglink, GElf_Word crc, char **dbgname);

static const Dwfl_Callbacks *callbacks(struct symtab *st)
{
	static Dwfl_Callbacks cb;
	cb.find_elf = dwfl_build_id_find_elf;
	cb.find_debuginfo = find_debuginfo;
	cb.section_address = dwfl_offline_section_address;
	cb.debuginfo_path = &st->dbgpath;
	return &cb;
}

static void hexid(const uint8_t *b, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

/* Build id of an open ELF file; 0 if none. */
static unsigned file_buildid(int fd, uint8_t *out)
{
	unsigned n = 0;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e) {
		const void *p;
		ssize_t l = dwelf_elf_gnu_build_id(e, &p);
		if (l > 0) {
			n = (unsigned)(l > 20 ? 20 : l);
			memcpy(out, p, n);
		}
		elf_end(e);
	}
	return n;
}

/* libdwfl's search for the separate debug file, answered with its
 * decompressed copy (dbgcache.h) when there is one whose headers are the
 * debug file's and whose build id is the module's: the same DWARF without
 * inflating it again in every report.  The debug file is looked up where
 * Debian puts it (by build id) to check the copy against it; else (or
 * without a copy) libdwfl's own search, which opens the file for libdwfl
 * itself, so its fd is the answer, and a copy is made for the next report. */
/* elfutils opens a .gnu_debuglink's candidates (beside the binary, in its
 * .debug, under /usr/lib/debug) itself, and reads them whole for their CRC:
 * 1 when none of those that exist is a file sym__open_regular refuses (a
 * link to /proc/kmsg beside a user's binary), else 0. */
static int debuglink_safe(const char *file, const char *debuglink)
{
	char dir[PATH_MAX], p[2 * PATH_MAX + 32];
	const char *fmts[3] = { "%s/%s", "%s/.debug/%s", "/usr/lib/debug%s/%s" };
	const char *slash;
	struct stat sb;

	if (!file || !debuglink || !*debuglink)
		return 1;
	slash = strrchr(file, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
	for (int i = 0; i < 4; i++) {
		if (i == 3)
			snprintf(p, sizeof(p), "%s", debuglink);
		else
			snprintf(p, sizeof(p), fmts[i], dir, debuglink);
		if (lstat(p, &sb) == 0) {
			int fd = sym__open_regular(p);
			if (fd < 0 && fd != -ENOENT)
				return 0;
			if (fd >= 0)
				close(fd);
		}
	}
	return 1;
}

static int find_debuginfo(Dwfl_Module *mod, void **ud, const char *modname, Dwarf_Addr base,
    const char *file, const char *debuglink, GElf_Word crc, char **dbgname)
{
	const unsigned char *bid;
	GElf_Addr va;
	uint8_t cb[20];
	char hex[41], path[128];
	int bl = dwfl_module_build_id(mod, &bid, &va), c, fd;
	if (bl > 0 && bl <= 20) {
		hexid(bid, (unsigned)bl, hex);
		snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		if ((fd = sym__open_regular(path)) >= 0) {
			c = dbgcache__open(fd, bid, (unsigned)bl);
			close(fd);
			if (c >= 0 && file_buildid(c, cb) == (unsigned)bl &&
			    memcmp(cb, bid, (size_t)bl) == 0)
				return c;
			if (c >= 0)
				close(c);
		}
	}
	if (!debuglink_safe(file, debuglink))
		return -1;
	fd = dwfl_standard_find_debuginfo(mod, ud, modname, base, file, debuglink, crc, dbgname);
	if (fd >= 0 && bl > 0 && bl <= 20 && (c = dbgcache__open(fd, bid, (unsigned)bl)) >= 0)
		close(c);
	return fd;
}

static int report_file(struct sym_dso *d, const char *path, int fd)
{
	d->dwfl = dwfl_begin(callbacks(d->st));
	if (!d->dwfl)
		return -1;
	dwfl_report_begin(d->dwfl);
	d->mod = dwfl_report_elf(d->dwfl, d->name, path, fd, 0, true);  /* bias 0: module addresses are the file's vaddrs */
	dwfl_report_end(d->dwfl, NULL, NULL);
	if (!d->mod) {
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
		return -1;
	}
	return 0;
}

/* ---- aliases: one address, several function names ---------------------- */

struct alias_cand {
	uint64_t addr, size;
	int bind;
	const char *name;
	int ix;                   /* symbol-table order: the first wins a tie */
};

static size_t underscores(const char *s)
{
	size_t n = 0;
	while (s[n] == '_')
		n++;
	return n;
}

/* Is a a better name than b for their address?  perf's choose_best_symbol
 * (util/symbol.c), so that pmc names a function as perf does (glibc's
 * malloc / __libc_malloc, memmove / memcpy variants): a sized symbol, a
 * non-weak one, a global one, fewer leading underscores, the longer name;
 * else the first. */
static int alias_better(const struct alias_cand *a, const struct alias_cand *b)
{
	if (!!a->size != !!b->size)
		return a->size != 0;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	if (underscores(a->name) != underscores(b->name))
		return underscores(a->name) < underscores(b->name);
	return strlen(a->name) > strlen(b->name);
}

/* The name of the PLT entry of an IRELATIVE relocation (no symbol: glibc's
 * calls to its own ifuncs, strlen or memcpy from inside libc): the ifunc
 * symbol at the relocation's addend (its resolver's symbol only if none),
 * chosen among its aliases as above, so
 * the stub reads "strnlen@plt" rather than [unknown]. */
/* The names of IRELATIVE targets: for each of the na addends (sorted,
 * distinct) still unnamed, the best function or ifunc symbol of sd at that
 * address (an ifunc rather than its resolver, which often has the same
 * address; else alias_better), in one pass over the table rather than one
 * per relocation (libc has dozens). */
struct irel {
	struct alias_cand best;
	int ifunc, done;
};

static void irelative_names(Elf *e, Elf_Data *sd, size_t strndx, const uint64_t *addend,
    size_t na, struct irel *out)
{
	GElf_Sym s;
	for (int i = 1; gelf_getsym(sd, i, &s); i++) {
		int type = GELF_ST_TYPE(s.st_info);
		const char *n;
		if (s.st_shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		size_t lo = 0, hi = na;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (addend[mid] < s.st_value)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == na || addend[lo] != s.st_value || out[lo].done ||
		    !(n = elf_strptr(e, strndx, s.st_name)) || !*n)
			continue;
		struct irel *o = &out[lo];
		struct alias_cand c = { s.st_value, s.st_size, GELF_ST_BIND(s.st_info), n, i };
		int ifunc = type == STT_GNU_IFUNC;
		if (!o->best.name || ifunc > o->ifunc ||
		    (ifunc == o->ifunc && alias_better(&c, &o->best))) {
			o->best = c;
			o->ifunc = ifunc;
		}
	}
	for (size_t k = 0; k < na; k++)
		out[k].done = out[k].best.name != NULL;
}

/* The sorted, distinct IRELATIVE addends of .rela.plt and their names
 * (.symtab first: an ifunc private to the binary is named only there).
 * 0, or -1 out of memory (the stubs are then named without them). */
static int irelative_table(Elf *e, Elf_Data *rd, size_t n, Elf_Data *td, size_t tstr,
    Elf_Data *sd, size_t dstr, uint64_t **addend, struct irel **names, size_t *na)
{
	size_t m = 0, cap = 0;
	uint64_t *a = NULL;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		if (!gelf_getrela(rd, (int)i, &r) || GELF_R_SYM(r.r_info) != 0)
			continue;
		if (GROW(a, m, cap) < 0) {
			free(a);
			return -1;
		}
		a[m++] = (uint64_t)r.r_addend;
	}
	*addend = a;
	*na = 0;
	*names = NULL;
	if (!m)
		return 0;
	qsort(a, m, sizeof(*a), u64_cmp);
	size_t u = 0;
	for (size_t i = 0; i < m; i++)
		if (u == 0 || a[u - 1] != a[i])
			a[u++] = a[i];
	if (!(*names = calloc(u, sizeof(**names))))
		return -1;
	*na = u;
	if (td)
		irelative_names(e, td, tstr, a, u, *names);
	irelative_names(e, sd, dstr, a, u, *names);
	return 0;
}

/* PLT stubs: name@plt for each .rela.plt entry (x86-64 and aarch64 layouts). */
static void load_plt(struct sym_dso *d, Elf *e, GElf_Addr bias)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL, *rela = NULL, *symtab = NULL;
	GElf_Shdr plt = { 0 }, pltsec = { 0 }, rsh, tsh = { 0 };
	int have_plt = 0, have_sec = 0;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *n;
		if (!gelf_getshdr(scn, &sh) || !(n = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(n, ".plt") == 0) {
			plt = sh;
			have_plt = 1;
		} else if (strcmp(n, ".plt.sec") == 0) {
			pltsec = sh;
			have_sec = 1;
		} else if (strcmp(n, ".rela.plt") == 0) {
			rela = scn;
		} else if (sh.sh_type == SHT_SYMTAB) {
			symtab = scn;
			tsh = sh;
		}
	}
	if (!rela || !have_plt || !gelf_getshdr(rela, &rsh))
		return;
	Elf_Scn *dynsym = elf_getscn(e, rsh.sh_link);
	GElf_Shdr dsh;
	Elf_Data *rd = elf_getdata(rela, NULL), *sd;
	if (!dynsym || !gelf_getshdr(dynsym, &dsh) || !rd || !(sd = elf_getdata(dynsym, NULL)))
		return;
	/* an ifunc private to the binary is named only in .symtab */
	Elf_Data *td = symtab ? elf_getdata(symtab, NULL) : NULL;
	size_t n = rsh.sh_entsize ? rsh.sh_size / rsh.sh_entsize : 0;
	uint64_t base = have_sec ? pltsec.sh_addr : plt.sh_addr + (d->machine == EM_AARCH64 ? 32 : 16);
	uint64_t *irel_at = NULL;
	struct irel *irel = NULL;
	size_t nirel = 0;
	if (irelative_table(e, rd, n, td, tsh.sh_link, sd, dsh.sh_link, &irel_at, &irel, &nirel) < 0)
		nirel = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym s;
		const char *sn;
		char buf[1024];
		if (!gelf_getrela(rd, (int)i, &r))
			continue;
		if (GELF_R_SYM(r.r_info) == 0) {
			uint64_t *at = nirel ? bsearch(&(uint64_t){ (uint64_t)r.r_addend }, irel_at,
			    nirel, sizeof(*irel_at), u64_cmp) : NULL;
			sn = at ? irel[at - irel_at].best.name : NULL;
		}
		else if (gelf_getsym(sd, (int)GELF_R_SYM(r.r_info), &s))
			sn = elf_strptr(e, dsh.sh_link, s.st_name);
		else
			continue;
		if (!sn || !*sn)
			continue;
		char dm[1024];
		snprintf(buf, sizeof(buf), "%s@plt",
		    demangled(d->st, sn, dm, sizeof(dm)));
		table_add(&d->plt, base + 16 * i + bias, 16, symtab__intern(d->st, buf));
	}
	free(irel_at);
	free(irel);
}

static void load_segments(struct sym_dso *d, Elf *e)
{
	size_t n;
	GElf_Ehdr eh;
	if (gelf_getehdr(e, &eh))
		d->machine = eh.e_machine;
	if (elf_getphdrnum(e, &n) != 0)
		return;
	d->segs = calloc(n ? n : 1, sizeof(*d->segs));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			d->segs[d->nseg++] = (struct seg){ ph.p_offset, ph.p_filesz, ph.p_vaddr, ph.p_flags };
	}
}

static void open_elf(struct sym_dso *d)
{
	char hex[41], alt[4200], file[4200];
	const char *symfs = d->st->o.symfs;
	const char *path = host_path(d->st, d->path, file, sizeof(file));
	int fd = sym__open_regular(path);

	if (fd < 0) {
		path = NULL;
		d->problem = open_problem(fd);
	} else if (d->bidlen) {
		uint8_t fb[20];
		unsigned fl = file_buildid(fd, fb);
		if (fl && (fl != d->bidlen || memcmp(fb, d->bid, fl) != 0)) {
			path = NULL;
			close(fd);
			fd = -1;
			d->problem = symfs ? "build id differs from the recorded one: the "
			    "copy under --symfs is another build" : "build id differs from the "
			    "recorded one: the binary changed since the recording";
		}
	}
	if (!path && d->bidlen) {
		/* the recorded build: debug file (under --symfs, its own, as
		 * perf) or perf's build-id cache (this machine's, as perf) */
		const char *home = getenv("HOME");
		hexid(d->bid, d->bidlen, hex);
		const char *cands[3] = { "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
		    "%s/.debug/.build-id/%.2s/%s/elf", NULL };
		snprintf(alt, sizeof(alt), cands[0], symfs ? symfs : "", hex, hex + 2);
		if ((fd = sym__open_regular(alt)) >= 0) {
			path = alt;
		} else if (home) {
			snprintf(alt, sizeof(alt), cands[1], home, hex, hex + 2);
			if ((fd = sym__open_regular(alt)) >= 0)
				path = alt;
		}
		if (path)
			d->problem = NULL;
	}
	if (!path)
		return;
	/* the fd we checked (a regular file), consumed by libdwfl on success */
	if (report_file(d, path, fd) != 0) {
		close(fd);
		d->problem = "not an ELF file libdwfl can read";
		return;
	}
	GElf_Addr bias;
	Elf *e = dwfl_module_getelf(d->mod, &bias);
	if (e) {
		load_segments(d, e);
		load_plt(d, e, bias);
	}
}

static void open_vdso(struct sym_dso *d)
{
	/* The vDSO is the same image in every process of this kernel: ours. */
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	FILE *f;
	char line[512];
	uint64_t lo = 0, hi = 0;
	if (!base || !(f = fopen("/proc/self/maps", "r"))) {
		d->problem = "no vDSO in this process";
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b;
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &a, &b) == 2) {
			lo = a;
			hi = b;
		}
	}
	fclose(f);
	if (lo != base || hi <= lo) {
		d->problem = "vDSO not found in /proc/self/maps";
		return;
	}
	int fd = memfd_create("vdso", MFD_CLOEXEC);
	if (fd < 0 || write(fd, (void *)base, hi - lo) != (ssize_t)(hi - lo) ||
	    report_file(d, "[vdso]", fd) != 0) {
		if (fd >= 0)
			close(fd);
		d->problem = "cannot read the vDSO image";
		return;
	}
	/* ours is the recording's only if its build id says so, or (none
	 * recorded) if the recording's kernel is this one */
	const unsigned char *bits;
	GElf_Addr vaddr, bias;
	int n = dwfl_module_build_id(d->mod, &bits, &vaddr);
	if (d->bidlen ? n != (int)d->bidlen || memcmp(bits, d->bid, d->bidlen) != 0 :
	    kernel_foreign(d->st)) {
		dwfl_end(d->dwfl);
		d->dwfl = NULL;
		d->mod = NULL;
		d->problem = "the recording's vDSO is not this kernel's (another build id or "
		    "kernel): its addresses are shown unresolved";
		return;
	}
	Elf *e = dwfl_module_getelf(d->mod, &bias);
	if (e)
		load_segments(d, e);
}

/* ---- the kernel ----------------------------------------------------------- */

static void kc_get(void *arg, size_t i, uint64_t *start, uint64_t *size, const char **name,
    const char **mod)
{
	const struct tsym *t = &((struct sym_dso *)arg)->tab.v[i];
	*start = t->start;
	*size = t->size;
	*name = t->name;
	*mod = t->mod;
}

/*
 * A module's symbols from its .ko (ET_REL, compressed or not: dwelf_elf_begin
 * inflates .ko.xz/.ko.zst): its functions in .text, whose start is the
 * module's base in the recording (perf's assumption too: the module map's
 * pgoff is .text's file offset).  0 loaded; 1 the file is another build; -1
 * not a module file.
 */
static int ko_read(struct sym_dso *d, int fd)
{
	Elf *e = dwelf_elf_begin(fd);
	Elf_Scn *scn = NULL;
	size_t shstr, text = 0;
	const void *id;
	int rc = -1;
	ssize_t l;

	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstr) != 0)
		goto out;
	l = dwelf_elf_gnu_build_id(e, &id);
	if (l <= 0 || (size_t)l != d->bidlen || memcmp(id, d->bid, d->bidlen) != 0) {
		rc = 1;
		goto out;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *n;
		if (gelf_getshdr(scn, &sh) && (n = elf_strptr(e, shstr, sh.sh_name)) &&
		    strcmp(n, ".text") == 0)
			text = elf_ndxscn(scn);
	}
	while (text && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;
			char dm[1024];
			if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx != text || !(n = elf_strptr(e, sh.sh_link, sym.st_name)) || !*n)
				continue;
			table_add(&d->tab, sym.st_value, sym.st_size ? sym.st_size : 1, symtab__intern(d->st,
			    demangled(d->st, n, dm, sizeof(dm))));
		}
	}
	table_sort(&d->tab);
	rc = text ? 0 : -1;
out:
	if (e)
		elf_end(e);
	return rc;
}

static char ko_found[4096];
static const char *ko_want;

static int ko_visit(const char *path, const struct stat *sb, int type, struct FTW *f)
{
	char name[256];
	(void)sb;
	(void)f;
	if (type != FTW_F || !strstr(base_name(path), ".ko"))
		return 0;
	module_name(path, name, sizeof(name));
	if (strcmp(name, ko_want) != 0)
		return 0;
	snprintf(ko_found, sizeof(ko_found), "%s", path);
	return 1;
}

/*
 * Open a module's .ko, only when the recording gave its build id: where the
 * recording says it was, the build-id caches (perf's ~/.debug, the debug
 * files), or /lib/modules/RELEASE by name.  A .ko of another build is not
 * used: the module's addresses are shown and sym_dso__problem says why, as
 * for a kernel of another build.  Without a build id, or when no .ko is
 * found, the kernel's kallsyms names (if the kernel is this one).
 */
static void load_ko(struct sym_dso *d)
{
	char hex[41], p[4200], name[256];
	const char *home = getenv("HOME");
	struct utsname u;
	int other = 0;

	if (!d->bidlen)
		return;
	hexid(d->bid, d->bidlen, hex);
	module_name(d->path, name, sizeof(name));
	for (int i = 0; i < 5 && !d->ko; i++) {
		p[0] = '\0';
		if (i == 0 && d->path[0] == '/')
			snprintf(p, sizeof(p), "%s%s", d->st->o.symfs ? d->st->o.symfs : "", d->path);
		else if (i == 1 && home)
			snprintf(p, sizeof(p), "%s/.debug/.build-id/%.2s/%s/elf", home, hex, hex + 2);
		else if (i == 2)
			snprintf(p, sizeof(p), "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
			    d->st->o.symfs ? d->st->o.symfs : "", hex, hex + 2);
		else if (i == 3 && uname(&u) == 0) {
			snprintf(p, sizeof(p), "/lib/modules/%s", u.release);
			ko_want = name;
			ko_found[0] = '\0';
			if (nftw(p, ko_visit, 16, FTW_PHYS) <= 0 || !ko_found[0])
				continue;
			snprintf(p, sizeof(p), "%s", ko_found);
		}
		int fd = p[0] ? sym__open_regular(p) : -1;
		if (fd < 0)
			continue;
		int rc = ko_read(d, fd);
		close(fd);
		d->ko = rc == 0;
		other |= rc == 1;
	}
	if (!d->ko && other)
		d->problem = "build id differs from the recorded one: the module's .ko is another "
		    "build; module addresses are shown unresolved";
}

/* One line of a kallsyms file, "ffffffff81000000 T name\t[module]": its
 * address, type and name (NULL if the line is not one). */
static char *kallsyms_line(char *line, unsigned long long *a, char *type)
{
	char *e;
	*a = strtoull(line, &e, 16);
	if (e == line || e[0] != ' ' || !e[1] || e[1] == ' ' || e[2] != ' ' || !e[3] ||
	    isspace((unsigned char)e[3]))
		return NULL;
	*type = e[1];
	return e + 3;
}

int symtab__check_kernel_file(const char *path, int elf)
{
	char line[1024];
	FILE *f = fopen(path, elf ? "rb" : "r");
	int good = 0;

	if (!f)
		return pmc__err(-errno, "cannot read '%s': %s", path, strerror(errno));
	if (elf) {
		good = fread(line, 1, SELFMAG, f) == SELFMAG && memcmp(line, ELFMAG, SELFMAG) == 0;
	} else {
		/* the first line that is not empty tells */
		while (fgets(line, sizeof(line), f)) {
			unsigned long long a;
			char type;
			if (line[strspn(line, " \t\n")] == '\0')
				continue;
			good = kallsyms_line(line, &a, &type) && isalpha((unsigned char)type);
			break;
		}
	}
	fclose(f);
	if (good)
		return 0;
	return pmc__err(-EINVAL, elf ? "'%s' is not an ELF file (a kernel image, vmlinux)" :
	    "'%s' is not a kallsyms file (lines of ADDRESS TYPE NAME, as /proc/kallsyms)", path);
}

/* Text symbols of a kallsyms file: "ffffffff81000000 T name [module]". */
static int read_kallsyms(struct sym_dso *d, int fd)
{
	FILE *f = fdopen(fd, "r");
	char line[1024];
	const char *lastmod = NULL;
	int nonzero = 0;
	if (!f) {
		close(fd);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *name, *mod, type;
		unsigned long long a;
		if (!(name = kallsyms_line(line, &a, &type)))
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		size_t n = strcspn(name, " \t\n");
		const char *m = NULL;
		if (name[n] == '\t' && name[n + 1] == '[' && (mod = name + n + 2) &&
		    strchr(mod, ']')) {
			size_t ml = strcspn(mod, "]");
			/* one copy per module: symbols of a module are consecutive */
			if (lastmod && strlen(lastmod) == ml && strncmp(lastmod, mod, ml) == 0)
				m = lastmod;
			else
				m = lastmod = arena_add(d, mod, ml);
		}
		nonzero |= a != 0;
		table_add_mod(&d->tab, a, 0, arena_add(d, name, n), m);
	}
	fclose(f);
	return nonzero ? 0 : 1;
}

/* -k/--vmlinux: the kernel's functions and text labels (_text, which
 * the KASLR relocation below looks for) from an ELF symbol table, at their
 * link addresses; 0, or -1 with d->problem saying why. */
static int load_vmlinux(struct sym_dso *d)
{
	int fd = sym__open_regular(d->path);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	Elf_Scn *scn = NULL;
	int rc = -1;

	while (e && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh, th;
		GElf_Sym sym;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (int i = 1; gelf_getsym(data, i, &sym); i++) {
			int type = GELF_ST_TYPE(sym.st_info);
			Elf_Scn *in;
			const char *n;
			if ((type != STT_FUNC && type != STT_NOTYPE) || sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE || !sym.st_value ||
			    !(in = elf_getscn(e, sym.st_shndx)) || !gelf_getshdr(in, &th) ||
			    !(th.sh_flags & SHF_EXECINSTR) ||
			    !(n = elf_strptr(e, sh.sh_link, sym.st_name)) || !*n)
				continue;
			table_add(&d->tab, sym.st_value, sym.st_size, arena_add(d, n, strlen(n)));
		}
		rc = 0;
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	if (rc != 0 || !d->tab.n) {
		d->tab.n = 0;
		d->problem = fd < 0 ? "the vmlinux file cannot be read" :
		    "the vmlinux file has no symbol table with kernel functions";
		return -1;
	}
	table_sort(&d->tab);
	return 0;
}

/* The running kernel's cache key when d reads /proc/kallsyms (else
 * key->bidlen is 0: nothing is cached). */
static void kernel_key(const struct sym_dso *d, struct kcache_key *key)
{
	uint8_t bid[20];
	uint32_t bl = strcmp(d->path, "/proc/kallsyms") == 0 ? pmc__sys_kernel_build_id(bid) : 0;
	if (!bl || kcache__key(key, bid, bl) != 0)
		key->bidlen = 0;
}

/* The kallsyms file into d->tab, sorted, and into the cache under key (if
 * any): 0, or -1 with d->problem saying why. */
static int read_kernel_syms(struct sym_dso *d, const struct kcache_key *key)
{
	int proc = strcmp(d->path, "/proc/kallsyms") == 0;
	int fd = sym__open_regular(d->path), rc;
	if (fd < 0 && proc)
		fd = open(d->path, O_RDONLY | O_CLOEXEC);  /* procfs: never a FIFO */
	if (fd < 0 || (rc = read_kallsyms(d, fd)) < 0) {
		d->problem = "cannot read kernel symbols";
		return -1;
	}
	if (rc > 0) {
		d->tab.n = 0;
		d->problem = "kernel addresses are hidden (kernel.kptr_restrict)";
		return -1;
	}
	table_sort(&d->tab);
	/* the last text symbol has no successor: do not let it swallow everything */
	if (d->tab.n && d->tab.v[d->tab.n - 1].size > 1 << 20)
		d->tab.v[d->tab.n - 1].size = 4096;
	if (key->bidlen)
		(void)kcache__store(key, d->tab.n, kc_get, d);
	return 0;
}

/* An entry of the kernel's cache image failed its seal: the file was
 * edited or damaged.  The image is dropped for /proc/kallsyms (whose
 * table is written back to the cache), under the KSYMBOL records' symbols
 * d->tab held; the lookups answered so far used only sealed entries. */
static void kernel_unseal(struct sym_dso *d)
{
	struct kcache_key key;
	struct table extra = d->tab;
	kcache__unload(&d->kimg);
	memset(&d->tab, 0, sizeof(d->tab));
	kernel_key(d, &key);
	(void)read_kernel_syms(d, &key);
	for (size_t i = 0; i < extra.n; i++)
		table_add(&d->tab, extra.v[i].start, extra.v[i].size, extra.v[i].name);
	table_sort(&d->tab);
	free(extra.v);
}

static void load_kallsyms(struct sym_dso *d)
{
	struct symtab *st = d->st;
	struct kcache_key key;

	if (d->kmod) {
		load_ko(d);               /* else the kernel's table */
		return;
	}
	if (kernel_foreign(st))
		goto extra;               /* addresses, and symtab__kernel_warning says why */
	if (st->o.vmlinux) {
		if (load_vmlinux(d) != 0)
			return;
		goto loaded;
	}
	/* the cache, if it is this kernel's and intact; else /proc/kallsyms */
	kernel_key(d, &key);
	if ((!key.bidlen || kcache__load(&key, &d->kimg) != 0) && read_kernel_syms(d, &key) != 0)
		return;
loaded:
	/* the same kernel, another boot: KASLR moved it; perf's kernel MMAP
	 * says where its reference symbol was (perf relocates the same way).
	 * "_text" is vmlinux's first symbol: the search ends at once. */
	if (st->kref) {
		struct kcache_img *im = &d->kimg;
		for (size_t i = 0; i < im->n; i++)
			if (im->ent[i].mod == KCACHE_NOMOD && strcmp(im->names + im->ent[i].name,
			    st->kref) == 0) {
				if (!kcache__entry_ok(im, i))
					kernel_unseal(d);     /* then found in the table */
				else
					st->kdelta = im->ent[i].start - st->kref_addr;
				break;
			}
		for (size_t i = 0; i < d->tab.n && !im->n; i++)
			if (strcmp(d->tab.v[i].name, st->kref) == 0 && !d->tab.v[i].mod) {
				st->kdelta = d->tab.v[i].start - st->kref_addr;
				break;
			}
	}
extra:
	/* KSYMBOL records are in the recording's addresses */
	for (size_t i = 0; i < st->ksyms_extra.n; i++)
		table_add(&d->tab, st->ksyms_extra.v[i].start + st->kdelta,
		    st->ksyms_extra.v[i].size, st->ksyms_extra.v[i].name);
	table_sort(&d->tab);
}

/* /tmp/perf-PID.map: "START SIZE name" per line (hex).  Like perf, a map
 * that is neither ours nor root's is not trusted. */
/* A perf map's text is a line per function: a bigger one is not a map. */
#define PERFMAP_MAX (1LL << 30)

static int load_perfmap_file(struct sym_dso *d)
{
	char buf[4200];
	/* a mapped file (the simulator's executable) is a binary: --symfs applies */
	int fd = sym__open_regular(d->kind == SYM_DSO_MAPFILE ?
	    host_path(d->st, d->path, buf, sizeof(buf)) : d->path);
	struct stat sb;
	FILE *f;
	char line[4096];
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || (sb.st_uid != geteuid() && sb.st_uid != 0) ||
	    !(f = fdopen(fd, "r"))) {
		close(fd);
		d->problem = "JIT map not owned by this user or root: ignored";
		return -1;
	}
	if (sb.st_size > PERFMAP_MAX) {
		fclose(f);
		d->problem = "JIT map over 1 GiB: not read";
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, s;
		int n = 0;
		if (sscanf(line, "%llx %llx %n", &a, &s, &n) < 2 || n == 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		table_add(&d->tab, a, s, intern_sym(d->st, line + n));
	}
	fclose(f);
	return 0;
}

/*
 * jit-PID.dump, the format of perf's tools/perf/util/jitdump.h as `perf
 * inject --jit` reads it: a header (magic "JiTD", version, total_size,
 * elf_mach, pad, pid, timestamp, flags) and records, each a prefix (id,
 * total_size, timestamp) and a body.  CODE_LOAD (pid, tid, vma, code_addr,
 * code_size, code_index, name, code bytes) names [code_addr, +code_size);
 * CODE_MOVE moves one; DEBUG_INFO (code_addr, nr_entry, entries of addr,
 * lineno, discrim, file name or "\xff" for the previous one) gives lines.
 * Records are trusted only as far as their sizes check out.
 */
#define JIT_MAGIC 0x4A695444u
#define JIT_CODE_LOAD 0
#define JIT_CODE_MOVE 1
#define JIT_CODE_DEBUG_INFO 2
#define JIT_CODE_CLOSE 3

static int jline_cmp(const void *a, const void *b)
{
	const struct jline *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void jit_debug(struct sym_dso *d, const unsigned char *r, size_t len)
{
	uint64_t nr;
	size_t off = 32;
	const char *prev = NULL;
	if (len < 32)
		return;
	memcpy(&nr, r + 24, 8);
	for (uint64_t i = 0; i < nr && len - off >= 17; i++) {
		uint64_t addr;
		int32_t ln;
		const char *name = (const char *)r + off + 16;
		size_t nl = strnlen(name, len - off - 16);
		if (nl == len - off - 16)
			break;                 /* no NUL inside the record */
		memcpy(&addr, r + off, 8);
		memcpy(&ln, r + off + 8, 4);
		const char *file = (unsigned char)name[0] == 0xff && nl == 1 ? prev :
		    symtab__intern(d->st, name);
		prev = file;
		if (d->njl == d->capjl) {
			size_t cap = d->capjl ? d->capjl * 2 : 256;
			struct jline *jl = realloc(d->jl, cap * sizeof(*d->jl));
			if (!jl) {
				d->st->nomem = 1;
				break;
			}
			d->jl = jl;
			d->capjl = cap;
		}
		if (file && ln > 0)
			d->jl[d->njl++] = (struct jline){ addr, file, ln };
		off += 16 + nl + 1;
	}
}

/* A CODE_MOVE names the code at its old address by the first symbol that
 * starts there: starts maps an address to that symbol's index in d->tab
 * (a hash, so that many moves are not each a walk of every symbol). */
static void index_start(struct sym_dso *d, struct hmap *starts, size_t i)
{
	int found;
	struct hent *e;
	if (i >= d->tab.n)
		return;                /* not added (out of memory: tab.nomem says it) */
	if (!(e = hmap_slot(starts, d->tab.v[i].start, 0, &found)))
		d->st->nomem = 1;
	else if (!found)
		e->v = (uint32_t)i;
}

static void load_jitdump(struct sym_dso *d)
{
	int fd = sym__open_regular(d->jitdump);
	unsigned char hdr[40], pre[16], *r = NULL;
	size_t cap = 0;
	struct hmap starts = { NULL, 0, 0 };
	uint32_t magic = 0, hsize;
	FILE *f;

	if (fd < 0) {
		d->problem = "jitdump file not readable";
		return;
	}
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		return;
	}
	if (fread(hdr, 1, 40, f) != 40 || (memcpy(&magic, hdr, 4), magic != JIT_MAGIC)) {
		d->problem = magic == __builtin_bswap32(JIT_MAGIC) ?
		    "jitdump of the other byte order: not read" : "not a jitdump file";
		fclose(f);
		return;
	}
	memcpy(&hsize, hdr + 8, 4);
	if (hsize < 40 || fseek(f, hsize, SEEK_SET) != 0) {
		d->problem = "jitdump header is damaged";
		fclose(f);
		return;
	}
	for (size_t i = 0; i < d->tab.n; i++)
		index_start(d, &starts, i);    /* the perf map's, read before */
	while (fread(pre, 1, 16, f) == 16) {
		uint32_t id, size;
		memcpy(&id, pre, 4);
		memcpy(&size, pre + 4, 4);
		if (size < 16 || size > (64u << 20))
			break;                 /* damaged: keep what was read */
		if (cap < size) {
			unsigned char *nr = realloc(r, size);
			if (!nr)
				break;
			r = nr;
			cap = size;
		}
		memcpy(r, pre, 16);
		if (fread(r + 16, 1, size - 16, f) != size - 16)
			break;
		if (id == JIT_CODE_CLOSE)
			break;
		if (id == JIT_CODE_LOAD && size >= 57) {
			uint64_t addr, csize;
			memcpy(&addr, r + 32, 8);     /* code_addr (vma at 24 is informative) */
			memcpy(&csize, r + 40, 8);
			size_t nl = strnlen((const char *)r + 56, size - 56);
			if (nl < size - 56 && csize && addr + csize > addr) {
				table_add(&d->tab, addr, csize, intern_sym(d->st, (const char *)r + 56));
				index_start(d, &starts, d->tab.n - 1);
			}
		} else if (id == JIT_CODE_MOVE && size >= 64) {
			uint64_t from, to, csize;
			memcpy(&from, r + 32, 8);
			memcpy(&to, r + 40, 8);
			memcpy(&csize, r + 48, 8);
			const struct hent *e = hmap_find(&starts, from, 0, &d->jit_move_probes);
			if (e && csize && to + csize > to) {
				table_add(&d->tab, to, csize, d->tab.v[e->v].name);
				index_start(d, &starts, d->tab.n - 1);
			}
		} else if (id == JIT_CODE_DEBUG_INFO) {
			jit_debug(d, r, size);
		}
	}
	free(r);
	free(starts.t);
	fclose(f);
	if (d->njl)
		qsort(d->jl, d->njl, sizeof(*d->jl), jline_cmp);
}

static void load_perfmap(struct sym_dso *d)
{
	int have = load_perfmap_file(d) == 0;
	if (d->jitdump) {
		const char *why = d->problem;
		d->problem = NULL;
		load_jitdump(d);
		if (!d->problem)
			d->problem = why;
		have = 1;
	}
	if (!have && !d->problem)
		d->problem = "no JIT map (perf-PID.map)";
}

/* A jitdump's line for addr: the last entry at or before it in its function. */
static int jit_srcline(struct sym_dso *d, uint64_t addr, const char **file, int *line)
{
	const struct tsym *t = table_find(&d->tab, addr);
	size_t lo = 0, hi = d->njl;
	if (!t || !d->njl)
		return -1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (d->jl[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || d->jl[lo - 1].addr < t->start)
		return -1;
	*file = d->jl[lo - 1].file;
	*line = d->jl[lo - 1].line;
	return 0;
}

/* A mapped file that is not ELF but a perf map ("START SIZE NAME" lines):
 * the simulator's executables are (lib/backend/sim, simwl__write_image).
 * Anything else is reported as the non-ELF file it is. */
static int open_mapfile(struct sym_dso *d)
{
	if (load_perfmap_file(d) != 0 || d->tab.n == 0) {
		if (!d->problem)
			d->problem = "not an ELF file";
		return -1;
	}
	table_sort(&d->tab);
	return 0;
}

static void dso_open(struct sym_dso *d)
{
	if (d->opened)
		return;
	d->opened = 1;
	switch (d->kind) {
	case SYM_DSO_ELF: open_elf(d); break;
	case SYM_DSO_VDSO: open_vdso(d); break;
	case SYM_DSO_KERNEL: load_kallsyms(d); break;
	case SYM_DSO_PERFMAP: load_perfmap(d); break;
	case SYM_DSO_MAPFILE:
		if (open_mapfile(d) != 0)
			d->kind = SYM_DSO_ELF;
		break;
	case SYM_DSO_ANON: break;
	}
}

const char *sym_dso__problem(struct sym_dso *d)
{
	dso_open(d);
	return d->problem;
}

uint64_t sym_dso__addr(struct sym_dso *d, uint64_t map_start, uint64_t pgoff, uint64_t pc)
{
	uint64_t off;
	if (d->kind != SYM_DSO_ELF && d->kind != SYM_DSO_VDSO)
		return pc;
	dso_open(d);
	off = pc - map_start + pgoff;
	if (d->kind == SYM_DSO_VDSO)
		off = pc - map_start;   /* the vDSO is mapped whole, from offset 0 */
	for (int i = 0; i < d->nseg; i++)
		if (off >= d->segs[i].off && off < d->segs[i].off + d->segs[i].filesz)
			return off - d->segs[i].off + d->segs[i].vaddr;
	return off;
}

/* The kernel maps a PT_LOAD segment at bias + page_down(p_vaddr) from file
 * offset page_down(p_offset), so any segment whose file bytes the mapping
 * holds gives the bias.  Which one matters: lld packs segments into shared
 * pages (text at offset 0x14480, vaddr 0x15480, after read-only data ending
 * at 0x14474), so the mapping's first page belongs to two segments with
 * different vaddr - offset; the executable one is what an executable
 * mapping maps. */
int sym_dso__bias(struct sym_dso *d, uint64_t map_start, uint64_t map_len, uint64_t pgoff,
    int exec, uint64_t *bias)
{
	const struct seg *best = NULL;
	if (d->kind != SYM_DSO_ELF)
		return -1;
	dso_open(d);
	for (int i = 0; i < d->nseg; i++) {
		const struct seg *g = &d->segs[i];
		if (g->off + g->filesz <= pgoff || g->off >= pgoff + map_len)
			continue;     /* none of its bytes in the mapping */
		if (!best || (exec && (g->flags & PF_X) && !(best->flags & PF_X)))
			best = g;
	}
	if (!best)
		return -1;
	*bias = map_start - pgoff + best->off - best->vaddr;
	return 0;
}

static void alias_build(struct sym_dso *d);
/* libdwfl's symbol for addr (dwfl_module_addrinfo's answer), once per piece. */
static const struct fpiece *elf_func(struct sym_dso *d, uint64_t addr)
{
	struct ftab *f = &d->funcs;
	size_t p;
	if (!f->slot && ftab_build(f, d->mod) < 0) {
		mark_nomem(d->st);      /* no function, and symtab__nomem says why */
		return NULL;
	}
	p = ftab_piece(f, addr);
	if (!f->slot[p]) {
		struct fpiece r = { NULL, 0, 0 };
		if (f->first_global >= 0) {
			const struct fsym *y = ftab_lookup(f, addr);
			if (y)
				r = (struct fpiece){ intern_sym(d->st, y->raw), y->value, y->size };
		} else {
			GElf_Off off;
			GElf_Sym sym;
			const char *n = dwfl_module_addrinfo(d->mod, addr, &off, &sym, NULL, NULL, NULL);
			if (n)
				r = (struct fpiece){ intern_sym(d->st, n), addr - off, sym.st_size };
		}
		if (GROW(f->res, f->nres, f->capres) < 0) {
			mark_nomem(d->st);
			return NULL;
		}
		f->res[f->nres++] = r;
		f->slot[p] = (uint32_t)f->nres;
	}
	return &f->res[f->slot[p] - 1];
}

int sym_dso__func(struct sym_dso *d, uint64_t addr, const char **name, uint64_t *start,
    uint64_t *size)
{
	const struct tsym *t;
	struct tsym tb;
	dso_open(d);
	*name = symtab__intern(d->st, UNKNOWN);
	if ((d->kind == SYM_DSO_ELF || d->kind == SYM_DSO_VDSO) && !sym_dso__problem(d)) {
		/* No symbol in a known binary: name the address, one entry per
		 * address, as perf report does ("0x0000000000163d47"). */
		char hex[24];
		snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)addr);
		*name = symtab__intern(d->st, hex);
	}
	*start = addr;
	*size = 1;
	switch (d->kind) {
	case SYM_DSO_ELF:
	case SYM_DSO_VDSO: {
		if (!d->mod)
			return -1;
		if ((t = table_find(&d->plt, addr)) != NULL) {
			*name = t->name;
			*start = t->start;
			*size = t->size;
			return 0;
		}
		const struct fpiece *f = elf_func(d, addr);
		if (!f || !f->name)
			return -1;
		*name = f->name;
		*start = f->start;
		if (!d->alias_done)
			alias_build(d);
		if ((t = table_find(&d->alias, *start)) != NULL)
			*name = t->name;
		*size = f->size ? f->size : addr - f->start + 1;
		return 0;
	}
	case SYM_DSO_KERNEL: {
		if (d->ko) {
			/* the module's own .ko: offsets from its base */
			if (!(t = table_find(&d->tab, addr - d->kbase)))
				return -1;
			*name = kernel_name(d->st, t->name);
			*start = t->start + d->kbase;
			*size = t->size;
			return 0;
		}
		if (d->kmod && d->problem) {
			char hex[24];
			snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)addr);
			*name = symtab__intern(d->st, hex);
			return -1;
		}
		/* modules look up in the kernel's table */
		struct sym_dso *k = d->kmod ? symtab__kernel(d->st) : d;
		if (!k)
			return -1;      /* out of memory: symtab__nomem */
		dso_open(k);
		if (kernel_foreign(d->st) && !(t = ksym_find(k, addr, &tb))) {
			/* another kernel's address: shown as it is, as perf does */
			char hex[24];
			snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)addr);
			*name = symtab__intern(d->st, hex);
			return -1;
		}
		/* in this boot's addresses (the table), answered in the recording's */
		if (!(t = ksym_find(k, addr + d->st->kdelta, &tb)))
			return -1;
		*name = kernel_name(d->st, t->name);
		*start = t->start - d->st->kdelta;
		*size = t->size;
		return 0;
	}
	case SYM_DSO_PERFMAP:
	case SYM_DSO_MAPFILE:
		if (!(t = table_find(&d->tab, addr)))
			return -1;
		*name = t->name;
		*start = t->start;
		*size = t->size;
		return 0;
	case SYM_DSO_ANON:
		break;
	}
	return -1;
}

/* ---- the alias table: addresses with several names ---------------------- */

static int alias_cmp(const void *a, const void *b)
{
	const struct alias_cand *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->ix < y->ix ? -1 : x->ix > y->ix;
}

/* The addresses of d that several function symbols name, each with perf's
 * choice among them (built at the first lookup). */
static void alias_build(struct sym_dso *d)
{
	struct alias_cand *c = NULL;
	size_t n = 0, cap = 0;
	int ns = dwfl_module_getsymtab(d->mod);
	d->alias_done = 1;
	for (int i = 1; i < ns; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(d->mod, i, &sym, &addr, &shndx, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		if (!name || !*name || (type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			struct alias_cand *nc = realloc(c, ncap * sizeof(*c));
			if (!nc) {
				d->st->nomem = 1;
				break;      /* the aliases of the symbols read so far */
			}
			c = nc;
			cap = ncap;
		}
		c[n++] = (struct alias_cand){ addr, sym.st_size, GELF_ST_BIND(sym.st_info), name, i };
	}
	if (n)
		qsort(c, n, sizeof(*c), alias_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1, best = i;
		while (j < n && c[j].addr == c[i].addr)
			j++;
		/* perf compares the names it shows, demangled (Rust's
		 * "<usize as ...>::fmt" over "<u64 as ...>::fmt", longer) */
		for (size_t k = i; j - i > 1 && k < j; k++) {
			c[k].name = intern_sym(d->st, c[k].name);
			if (k > i && alias_better(&c[k], &c[best]))
				best = k;
		}
		if (j - i > 1)
			table_add(&d->alias, c[i].addr, 1, c[best].name);
		i = j;
	}
	free(c);
}

static int has_dwarf(struct sym_dso *d)
{
	if (d->has_dwarf < 0) {
		Dwarf_Addr bias;
		d->has_dwarf = d->mod && dwfl_module_getdwarf(d->mod, &bias) != NULL;
	}
	return d->has_dwarf;
}

int sym_dso__srcline(struct sym_dso *d, uint64_t addr, const char **file, int *line)
{
	Dwfl_Line *l;
	const char *f;
	int ln = 0;
	dso_open(d);
	if (d->kind == SYM_DSO_PERFMAP)
		return jit_srcline(d, addr, file, line);
	if (!d->mod || !has_dwarf(d) || !(l = dwfl_module_getsrc(d->mod, addr)))
		return -1;
	if (!(f = dwfl_lineinfo(l, NULL, &ln, NULL, NULL, NULL)) || ln <= 0)
		return -1;
	*file = symtab__intern(d->st, f);
	*line = ln;
	return 0;
}

static const char *call_file(struct sym_dso *d, Dwarf_Die *cudie, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t nf;
	const char *f;
	if (dwarf_getsrcfiles(cudie, &files, &nf) != 0 || idx >= nf)
		return NULL;
	f = dwarf_filesrc(files, idx, NULL, NULL);
	return f ? symtab__intern(d->st, f) : NULL;
}

/* The scopes of a pc: the outermost function (DW_TAG_subprogram, from its
 * CU's table: cu_func) and the DW_TAG_inlined_subroutine instances nested
 * in it, outermost first, found by walking down from the function.  libdw's dwarf_getscopes is no
 * use here: at an inlined instance it goes on with the scopes of the
 * instance's abstract definition (its own function's, not its callers'),
 * which drops every caller between the innermost copy and the function,
 * and its search for that definition walks the whole CU again per level. */
struct pc_scopes {
	Dwarf_Die func;
	int have_func;
	Dwarf_Die *inl;
	size_t n, cap;
};

/* Below a function (or an inlined instance) holding pc: the nested
 * inlined instances holding it, outermost first.  0 done, -1 out of memory. */
static int scope_walk(Dwarf_Die *die, Dwarf_Addr pc, struct pc_scopes *sc)
{
	Dwarf_Die ch, cur = *die;
	for (;;) {
		int found = 0;
		if (dwarf_child(&cur, &ch) != 0)
			return 0;
		do {
			int tag = dwarf_tag(&ch);
			if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block &&
			    tag != DW_TAG_try_block && tag != DW_TAG_catch_block)
				continue;
			if (dwarf_haspc(&ch, pc) != 1)
				continue;
			if (tag == DW_TAG_inlined_subroutine) {
				if (GROW(sc->inl, sc->n, sc->cap) < 0)
					return -1;
				sc->inl[sc->n++] = ch;
			}
			found = 1;            /* the only child holding pc: go down */
			break;
		} while (dwarf_siblingof(&ch, &ch) == 0);
		if (!found)
			return 0;
		cur = ch;
	}
}

/* Add die's code ranges to f. */
static int add_franges(struct cu_funcs *f, Dwarf_Die *die)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if (GROW(f->v, f->n, f->cap) < 0)
			return -1;
		f->v[f->n++] = (struct cu_frange){ lo, hi, *die };
	}
	return 0;
}

/* Collect the functions with code under die (namespaces, types, imported
 * partial units descended into; not into functions). */
static int collect_funcs(struct cu_funcs *f, Dwarf_Die *die, int depth)
{
	Dwarf_Die ch;
	if (depth > 64 || dwarf_child(die, &ch) != 0)
		return 0;                 /* namespaces nested past reason: a crafted file */
	do {
		switch (dwarf_tag(&ch)) {
		case DW_TAG_subprogram:
			if (add_franges(f, &ch) < 0)
				return -1;
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
		case DW_TAG_union_type:
		case DW_TAG_interface_type:
			/* Rust and C++ put functions inside these */
			if (collect_funcs(f, &ch, depth + 1) < 0)
				return -1;
			break;
		case DW_TAG_imported_unit: {
			/* a partial unit (dwz, LTO) holding part of this CU's tree */
			Dwarf_Attribute at;
			Dwarf_Die pu;
			if (dwarf_attr(&ch, DW_AT_import, &at) && dwarf_formref_die(&at, &pu) &&
			    collect_funcs(f, &pu, depth + 1) < 0)
				return -1;
			break;
		}
		default:
			break;
		}
	} while (dwarf_siblingof(&ch, &ch) == 0);
	return 0;
}

static int frange_cmp(const void *x, const void *y)
{
	const struct cu_frange *a = x, *b = y;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The function of cu holding pc (its table built on first use): 0 found. */
static int cu_func(struct sym_dso *d, Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct cu_funcs *f = NULL;
	for (size_t i = d->ncuf; i-- > 0;)
		if (d->cuf[i].cu == off) {
			f = &d->cuf[i];
			break;
		}
	if (!f) {
		if (GROW(d->cuf, d->ncuf, d->capcuf) < 0)
			return -ENOMEM;
		f = &d->cuf[d->ncuf];
		*f = (struct cu_funcs){ off, NULL, 0, 0 };
		if (collect_funcs(f, cu, 0) < 0) {
			free(f->v);
			return -ENOMEM;
		}
		if (f->n)                 /* a CU without functions: v is NULL */
			qsort(f->v, f->n, sizeof(*f->v), frange_cmp);
		d->ncuf++;
	}
	/* the last range starting at or below pc, then back over overlaps
	 * (a function nested in another, rare: the innermost starts last) */
	size_t lo = 0, hi = f->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->v[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i-- > 0 && k < 16; k++)
		if (pc < f->v[i].hi) {
			*out = f->v[i].die;
			return 0;
		}
	return -1;
}

/* The scopes of addr in d (sc->n inlined instances; sc->have_func), and
 * the CU; NULL without DWARF there.  sc->inl is the caller's to free. */
static Dwarf_Die *pc_scopes(struct sym_dso *d, uint64_t addr, struct pc_scopes *sc)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = d->mod && has_dwarf(d) ? dwfl_module_addrdie(d->mod, addr, &bias) : NULL;
	int rc;
	memset(sc, 0, sizeof(*sc));
	if (!cu)
		return NULL;
	rc = cu_func(d, cu, addr - bias, &sc->func);
	if (rc == -ENOMEM)
		mark_nomem(d->st);
	if (rc != 0)
		return cu;
	sc->have_func = 1;
	if (scope_walk(&sc->func, addr - bias, sc) < 0) {
		mark_nomem(d->st);
		free(sc->inl);            /* the function alone */
		sc->inl = NULL;
		sc->n = 0;
	}
	return cu;
}

int sym_dso__frames(struct sym_dso *d, uint64_t addr, struct sym_frame *out, int max)
{
	const char *fn, *file = NULL;
	uint64_t s, z;
	int line = 0, n = 0;
	struct pc_scopes sc;

	sym_dso__func(d, addr, &fn, &s, &z);
	sym_dso__srcline(d, addr, &file, &line);
	if (!pc_scopes(d, addr, &sc) || sc.n == 0) {
		free(sc.inl);
		if (max >= 1)
			out[0] = (struct sym_frame){ fn, file, line };
		return 1;
	}
	/* innermost first; each inlined instance is a frame whose caller's
	 * line is its DW_AT_call_line (in the line table of its own unit) */
	for (size_t i = sc.n; i-- > 0; n++) {
		Dwarf_Die *die = &sc.inl[i], unit;
		Dwarf_Attribute at;
		Dwarf_Word cl = 0, cf = 0;
		if (n < max) {
			const char *nm = dwarf_diename(die);
			const char *lname = dwarf_attr_integrate(die, DW_AT_linkage_name, &at) ?
			    dwarf_formstring(&at) : NULL;
			out[n] = (struct sym_frame){ intern_sym(d->st, lname ? lname : nm), file, line };
		}
		if (dwarf_attr(die, DW_AT_call_line, &at))
			dwarf_formudata(&at, &cl);
		if (dwarf_attr(die, DW_AT_call_file, &at))
			dwarf_formudata(&at, &cf);
		file = dwarf_diecu(die, &unit, NULL, NULL) ? call_file(d, &unit, cf) : NULL;
		line = (int)cl;
	}
	free(sc.inl);
	if (n < max)
		out[n] = (struct sym_frame){ fn, file, line };
	return n + 1;
}

const char *sym_dso__dwarf_func(struct sym_dso *d, uint64_t addr)
{
	Dwarf_Word lang = 0;
	Dwarf_Attribute at;
	const char *r = NULL, *nm;
	struct pc_scopes sc;
	Dwarf_Die *cu = pc_scopes(d, addr, &sc);
	free(sc.inl);
	/* the assembler's DWARF names a function by one of its symbols: the
	 * symbol table's choice stands (binutils takes the symbol's name too) */
	if (!cu || !sc.have_func || (dwarf_attr(cu, DW_AT_language, &at) &&
	    dwarf_formudata(&at, &lang) == 0 && lang == DW_LANG_Mips_Assembler))
		return NULL;
	/* as addr2line names it: the linkage name where there is one (C++,
	 * Rust), else DW_AT_name */
	nm = dwarf_attr_integrate(&sc.func, DW_AT_linkage_name, &at) ? dwarf_formstring(&at) :
	    dwarf_attr_integrate(&sc.func, DW_AT_name, &at) ? dwarf_formstring(&at) : NULL;
	if (nm)
		r = intern_sym(d->st, nm);
	return r;
}

const unsigned char *sym_dso__code(struct sym_dso *d, uint64_t addr, uint64_t len,
    int *machine)
{
	GElf_Addr bias;
	Elf *e;
	Elf_Scn *scn = NULL;
	dso_open(d);
	*machine = d->machine;
	if (!d->mod || !(e = dwfl_module_getelf(d->mod, &bias)))
		return NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		if (addr >= sh.sh_addr + bias && addr + len <= sh.sh_addr + bias + sh.sh_size) {
			Elf_Data *data = elf_getdata(scn, NULL);
			if (!data || !data->d_buf)
				return NULL;
			return (const unsigned char *)data->d_buf + (addr - sh.sh_addr - bias);
		}
	}
	return NULL;
}

/* "ns::f(int)" matches "ns::f" and "f" matches "ns::f"?  No: exact name, or
 * the name without its parameter list. */
static int name_matches(const char *sym, const char *want)
{
	size_t n = strlen(want);
	if (strcmp(sym, want) == 0)
		return 1;
	return strncmp(sym, want, n) == 0 && sym[n] == '(';
}

int sym_dso__find_func(struct sym_dso *d, const char *name, uint64_t *start, uint64_t *size)
{
	dso_open(d);
	if (d->mod) {
		int n = dwfl_module_getsymtab(d->mod);
		for (int i = 1; i < n; i++) {
			GElf_Sym sym;
			GElf_Addr a;
			const char *sn = dwfl_module_getsym_info(d->mod, i, &sym, &a, NULL, NULL, NULL);
			char buf[4096];
			if (!sn || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
				continue;
			if (name_matches(sn, name) ||
			    name_matches(sym__demangle(sn, 1, buf, sizeof(buf)), name) ||
			    name_matches(sym__demangle(sn, 0, buf, sizeof(buf)), name)) {
				*start = a;
				*size = sym.st_size;
				return 0;
			}
		}
		return -1;
	}
	table_sort(&d->tab);
	for (size_t i = 0; i < d->tab.n; i++)
		if (name_matches(d->tab.v[i].name, name)) {
			*start = d->tab.v[i].start;
			*size = d->tab.v[i].size;
			return 0;
		}
	for (size_t i = 0; i < d->kimg.n; i++)
		if (name_matches(d->kimg.names + d->kimg.ent[i].name, name)) {
			if (!kcache__entry_ok(&d->kimg, i)) {
				kernel_unseal(d);
				return sym_dso__find_func(d, name, start, size);
			}
			*start = d->kimg.ent[i].start;
			*size = d->kimg.ent[i].size;
			return 0;
		}
	return -1;
}
