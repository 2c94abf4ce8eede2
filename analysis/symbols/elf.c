/*
 * elf.c — ELF files and the vDSO, through libdwfl (part of the symbolizer,
 * symbols_internal.h): a binary's functions by address (libdwfl's own
 * choice, resolved once per piece between symbol and section boundaries),
 * its separate debug file (dbgcache.h's decompressed copies), PLT stubs
 * and IRELATIVE targets, the addresses several function names share
 * (perf's pick), PT_LOAD segments, and the bytes of its code.
 */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "symbols/symbols.h"
#include "symbols/symbols_internal.h"
#include "symbols/dbgcache.h"
#include "common/grow.h"
#include "common/sort.h"

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

void sym__ftab_free(struct ftab *f)
{
	for (int k = 0; k < f->nelf; k++)
		free(f->elf[k].sec);
	free(f->sym);
	free(f->b);
	free(f->slot);
	free(f->fn);
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

/* Sort n records of w u64 words (v[w i .. w i + w)) by their first word,
 * ascending and stable (records of one key keep their order): a radix sort
 * by bytes, skipping the bytes all keys share (addresses share their high
 * ones).  0, or -ENOMEM with v as it was. */
static inline __attribute__((always_inline)) int rec_sort_w(uint64_t *v, size_t n, size_t w)
{
	uint64_t *tmp = malloc((n ? n : 1) * w * sizeof(*tmp)), *src = v, *dst = tmp;
	if (!tmp)
		return -ENOMEM;
	uint64_t differ = 0;               /* the bits some key has unlike the first */
	for (size_t i = 0; i < n; i++)
		differ |= src[w * i] ^ src[0];
	for (unsigned sh = 0; sh < 64; sh += 8) {
		size_t cnt[256] = { 0 }, at = 0;
		if (!((differ >> sh) & 255))
			continue;
		for (size_t i = 0; i < n; i++)
			cnt[(src[w * i] >> sh) & 255]++;
		for (unsigned k = 0; k < 256; k++) {
			size_t c = cnt[k];
			cnt[k] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++) {
			size_t to = w * cnt[(src[w * i] >> sh) & 255]++;
			for (size_t j = 0; j < w; j++)
				dst[to + j] = src[w * i + j];
		}
		uint64_t *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * w * sizeof(*v));
	free(tmp);
	return 0;
}

/* rec_sort_w with w known where it is inlined: the copy of a record is
 * one or two moves, not a loop */
static int rec_sort(uint64_t *v, size_t n, size_t w)
{
	return w == 1 ? rec_sort_w(v, n, 1) : w == 2 ? rec_sort_w(v, n, 2) : rec_sort_w(v, n, w);
}

/* Sort v[0, n) ascending (qsort when out of memory). */
static void u64_sort(uint64_t *v, size_t n)
{
	if (rec_sort(v, n, 1) < 0)
		qsort(v, n, sizeof(*v), u64_cmp);
}

/* ---- a binary's symbols as dwfl_module_getsym_info gives them ----------
 *
 * libdwfl spends ~270 instructions a symbol (section header lookups, its
 * backend's hooks); libc has 13 k.  Where its answer is plain arithmetic on
 * one table (an ET_EXEC or ET_DYN binary of a machine whose function
 * symbols need no resolving, no auxiliary .gnu_debugdata table), the table
 * is read here instead, with __libdwfl_getsym's rules (elfutils 0.188):
 * a symbol of a section without SHF_ALLOC keeps its value and has section
 * index -1; SHN_ABS, SHN_UNDEF and SHN_COMMON ones keep their value; the
 * others get the bias of the file the table is in.  The reading is checked
 * against libdwfl's own on a few symbols when opened (libdwfl is used
 * throughout on any difference), and on every symbol of several real
 * binaries by test_symbols_rooms. */
struct symread {
	Dwfl_Module *mod;
	int direct;                   /* read here, not through libdwfl */
	Elf *elf;
	Dwarf_Addr bias;
	Elf_Data *sym, *xndx;
	const Elf64_Sym *s64;         /* sym's entries in memory (ELFCLASS64) */
	size_t nsym;
	const char *str;
	size_t strsize;
	uint8_t *alloc;               /* per section index: has SHF_ALLOC */
	size_t nsec;
};

static const char *symread_direct(const struct symread *r, int i, GElf_Sym *sym,
    GElf_Addr *a, GElf_Word *shndx)
{
	GElf_Word x = 0;
	if (i < 0 || (size_t)i >= r->nsym)
		return NULL;
	if (r->s64) {
		const Elf64_Sym *e = &r->s64[i];
		*sym = (GElf_Sym){ e->st_name, e->st_info, e->st_other, e->st_shndx, e->st_value,
		    e->st_size };
		if (e->st_shndx == SHN_XINDEX && (!r->xndx || !gelf_getsymshndx(r->sym, r->xndx,
		    i, sym, &x)))
			return NULL;
	} else if (!gelf_getsymshndx(r->sym, r->xndx, i, sym, &x)) {
		return NULL;
	}
	GElf_Word ndx = sym->st_shndx == SHN_XINDEX ? x : sym->st_shndx;
	int alloc = 1;
	if (sym->st_shndx == SHN_XINDEX || (sym->st_shndx < SHN_LORESERVE &&
	    sym->st_shndx != SHN_UNDEF))
		alloc = ndx >= r->nsec || r->alloc[ndx];
	*shndx = alloc ? ndx : (GElf_Word)-1;
	*a = sym->st_value;
	if (alloc && sym->st_shndx != SHN_ABS && sym->st_shndx != SHN_UNDEF &&
	    sym->st_shndx != SHN_COMMON)
		*a += r->bias;
	if (sym->st_name >= r->strsize)
		return NULL;
	return r->str + sym->st_name;
}

/* Symbol i: its name (NULL: none or unreadable), as libdwfl's
 * dwfl_module_getsym_info answers. */
static const char *symread_get(const struct symread *r, int i, GElf_Sym *sym, GElf_Addr *a,
    GElf_Word *shndx, Elf **elf, Dwarf_Addr *bias)
{
	if (!r->direct)
		return dwfl_module_getsym_info(r->mod, i, sym, a, shndx, elf, bias);
	*elf = r->elf;
	*bias = r->bias;
	return symread_direct(r, i, sym, a, shndx);
}

/* Does the direct reading answer symbol i as libdwfl does? */
static int symread_agrees(const struct symread *r, int i)
{
	GElf_Sym s1, s2;
	GElf_Addr a1 = 0, a2 = 0;
	GElf_Word x1 = 0, x2 = 0;
	Elf *e = NULL;
	Dwarf_Addr b = 0;
	const char *n1 = dwfl_module_getsym_info(r->mod, i, &s1, &a1, &x1, &e, &b);
	const char *n2 = symread_direct(r, i, &s2, &a2, &x2);
	if (!n1 || !n2)
		return !n1 && !n2;
	return n1 == n2 && e == r->elf && b == r->bias && a1 == a2 && x1 == x2 &&
	    memcmp(&s1, &s2, sizeof(s1)) == 0;
}

/* Set r up for mod's nsym symbols: directly where that is libdwfl's answer,
 * else through libdwfl.  Never fails: the direct reading is an option. */
static void symread_open(struct symread *r, Dwfl_Module *mod, int nsym)
{
	GElf_Sym sym;
	GElf_Addr a;
	GElf_Word x;
	Elf_Scn *scn = NULL, *tab = NULL;
	GElf_Shdr sh, tsh;
	size_t nsec = 0;
	*r = (struct symread){ .mod = mod };
	if (nsym < 2 || !dwfl_module_getsym_info(mod, 1, &sym, &a, &x, &r->elf, &r->bias) ||
	    !r->elf)
		return;
	GElf_Ehdr eh;
	if (!gelf_getehdr(r->elf, &eh) || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
	    (eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64 && eh.e_machine != EM_386) ||
	    elf_getshdrnum(r->elf, &nsec) != 0 || !nsec)
		return;
	/* libdwfl's table: .symtab, else .dynsym, with all nsym entries (an
	 * auxiliary table would add its own) */
	for (int want = SHT_SYMTAB; !tab && want; want = want == SHT_SYMTAB ? SHT_DYNSYM : 0)
		while ((scn = elf_nextscn(r->elf, scn)) != NULL)
			if (gelf_getshdr(scn, &tsh) && tsh.sh_type == (GElf_Word)want) {
				tab = scn;
				break;
			}
	if (!tab || !tsh.sh_entsize || tsh.sh_size / tsh.sh_entsize != (GElf_Xword)nsym ||
	    !(r->sym = elf_getdata(tab, NULL)) || r->sym->d_type != ELF_T_SYM)
		return;
	r->nsym = (size_t)nsym;
	if (gelf_getclass(r->elf) == ELFCLASS64 && r->sym->d_size >= r->nsym * sizeof(Elf64_Sym))
		r->s64 = r->sym->d_buf;
	Elf_Scn *strscn = elf_getscn(r->elf, tsh.sh_link);
	Elf_Data *str = strscn ? elf_getdata(strscn, NULL) : NULL;
	if (!str || !str->d_buf)
		return;
	r->str = str->d_buf;
	r->strsize = str->d_size;
	if (!(r->alloc = calloc(nsec, 1)))
		return;
	r->nsec = nsec;
	for (size_t j = 0; j < nsec; j++) {
		Elf_Scn *c = elf_getscn(r->elf, j);
		if (!c || !gelf_getshdr(c, &sh)) {
			r->alloc[j] = 1;      /* libdwfl: no header, counted as allocated */
			continue;
		}
		r->alloc[j] = (sh.sh_flags & SHF_ALLOC) != 0;
		if (sh.sh_type == SHT_SYMTAB_SHNDX && sh.sh_link == elf_ndxscn(tab))
			r->xndx = elf_getdata(c, NULL);
	}
	int probe[] = { 1, nsym / 3, nsym / 2, 2 * (nsym / 3), nsym - 1 };
	for (size_t k = 0; k < sizeof(probe) / sizeof(probe[0]); k++)
		if (!symread_agrees(r, probe[k]))
			return;
	r->direct = 1;
}

static void symread_close(struct symread *r)
{
	free(r->alloc);
	r->alloc = NULL;
}

int sym__symread_check(Dwfl_Module *mod)
{
	struct symread r;
	int nsym = dwfl_module_getsymtab(mod), bad = 0;
	symread_open(&r, mod, nsym);
	if (!r.direct) {
		symread_close(&r);
		return -1;
	}
	for (int i = 0; i < nsym; i++)
		bad += !symread_agrees(&r, i);
	symread_close(&r);
	return bad;
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
	struct symread r = { 0 };
	int nsym = dwfl_module_getsymtab(mod);
	f->first_global = dwfl_module_getsymtab_first_global(mod);
	/* sized for every symbol at once: growing by doubling copied (and
	 * faulted in) libc's 13 k symbols several times over */
	if (nsym > 1) {
		cap = 2 * (size_t)nsym + 64;
		capsym = (size_t)nsym;
		if (!(b = malloc(cap * sizeof(*b))) || !(f->sym = malloc(capsym * sizeof(*f->sym))))
			goto nomem;
	}
	symread_open(&r, mod, nsym);
	for (int i = 1; i < nsym; i++) {
		GElf_Sym sym;
		GElf_Addr a;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias = 0;
		const char *name = symread_get(&r, i, &sym, &a, &shndx, &elf, &bias);
		int k, type = GELF_ST_TYPE(sym.st_info);
		if (!name || !name[0] || sym.st_shndx == SHN_UNDEF ||
		    type == STT_SECTION || type == STT_FILE || type == STT_TLS)
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
		    (uint8_t)binding_value(sym.st_info), (uint8_t)k,
		    type == STT_FUNC || type == STT_GNU_IFUNC };
		if (i < f->first_global)
			f->nlocal = f->nsym;
	}
	symread_close(&r);
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
	symread_close(&r);
	free(b);
nomem_b:
	sym__ftab_free(f);           /* frees f->b too once it holds b */
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
	if (rec_sort(t, n, 2) < 0)         /* by value, then index: stable */
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
 * indexing it costs, so that an index by value pays?  A scan reads each
 * symbol once (about 2 instructions a symbol); the index is a radix sort
 * of (value, index) pairs in three or four passes of about 12 each, as a
 * binary's addresses share their high bytes. */
static int fidx_due(unsigned nscan, size_t n)
{
	(void)n;
	return nscan >= 16;
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

/* ---- opening ------------------------------------------------------------ */

static int find_debuginfo_path(Dwfl_Module *mod, void **ud, const char *modname,
    Dwarf_Addr base, const char *file, const char *debuglink, GElf_Word crc, char **dbgname);

/* The symtab's libdwfl callbacks, set once when it is made (its debug
 * path: one static set for all symtabs had the last one's) */
void sym__init_callbacks(struct symtab *st)
{
	Dwfl_Callbacks *cb = &st->cb;
	cb->find_elf = dwfl_build_id_find_elf;
	cb->find_debuginfo = st->o.symfs || st->o.debug_dir ? find_debuginfo_path :
	    sym__find_debuginfo;
	cb->section_address = dwfl_offline_section_address;
	cb->debuginfo_path = &st->dbgpath;
}

void sym__hexid(const uint8_t *b, unsigned n, char *out)
{
	for (unsigned i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

/* Build id of an open ELF file; 0 if none. */
unsigned sym__file_buildid(int fd, uint8_t *out)
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

/* What libdwfl's search (dwfl_standard_find_debuginfo, elfutils 0.188,
 * on its default path) would open for file's separate debug file: by build
 * id (hex, or NULL) under /usr/lib/debug/.build-id, by name its
 * .gnu_debuglink, or without one the file's name + ".debug", beside the
 * binary, in its .debug, under /usr/lib/debug (with and without the
 * binary's directory) and as given.  libdwfl opens them itself and reads
 * them whole for their CRC: -1 when one that exists is a file
 * sym__open_regular refuses (a link to /proc/kmsg beside a user's binary),
 * else how many exist. */
static int debuglink_candidates(const char *file, const char *debuglink, const char *hex)
{
	char dir[PATH_MAX], p[2 * PATH_MAX + 32], own[NAME_MAX + 8];
	const char *fmts[4] = { "%s/%s", "%s/.debug/%s", "/usr/lib/debug%s/%s", "/usr/lib/debug/%s" };
	const char *slash;
	struct stat sb;
	int n = 0;

	if (hex && hex[0]) {
		snprintf(p, sizeof(p), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		n += lstat(p, &sb) == 0;
	}
	if (!file)
		return n;
	slash = strrchr(file, '/');
	if (!debuglink || !*debuglink) {
		snprintf(own, sizeof(own), "%.*s.debug", NAME_MAX, slash ? slash + 1 : file);
		debuglink = own;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
	for (int i = 0; i < 5; i++) {
		if (i == 4)
			snprintf(p, sizeof(p), "%s", debuglink);
		else if (i == 3)
			snprintf(p, sizeof(p), fmts[i], debuglink);
		else
			snprintf(p, sizeof(p), fmts[i], dir, debuglink);
		if (lstat(p, &sb) == 0) {
			int fd = sym__open_regular(p);
			if (fd < 0 && fd != -ENOENT)
				return -1;
			if (fd >= 0)
				close(fd);
			n++;
		}
	}
	return n;
}

/* Can debuginfod answer for build id hex: is a server named
 * (DEBUGINFOD_URLS), or is its debug file in the client's cache
 * ($DEBUGINFOD_CACHE_PATH, else $XDG_CACHE_HOME/debuginfod_client, else
 * ~/.cache/debuginfod_client)?  libdwfl asks debuginfod last, and loading
 * its client (libdebuginfod with curl and OpenSSL) took 4-5 ms of a report
 * that could find nothing there. */
static int debuginfod_may_answer(const char *hex)
{
	const char *u = getenv("DEBUGINFOD_URLS"), *c = getenv("DEBUGINFOD_CACHE_PATH");
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	char p[PATH_MAX];
	struct stat sb;
	if (u && *u)
		return 1;
	if (!hex)
		return 0;
	if (c && *c)
		snprintf(p, sizeof(p), "%s/%s/debuginfo", c, hex);
	else if (x && *x)
		snprintf(p, sizeof(p), "%s/debuginfod_client/%s/debuginfo", x, hex);
	else if (h && *h)
		snprintf(p, sizeof(p), "%s/.cache/debuginfod_client/%s/debuginfo", h, hex);
	else
		return 0;
	return stat(p, &sb) == 0;
}

/* libdwfl's own search (dwfl_standard_find_debuginfo), asked only when it
 * can find something.  Every file it would open is checked first
 * (debuglink_candidates: -1 refuses them all).  On libdwfl's default path
 * (dflt), when none of them exists and debuginfod, which it asks last, has
 * nothing either, it is not asked: asking it loaded libdebuginfod, with
 * curl and OpenSSL (14.5 M instructions, 4-5 ms), to find nothing.  Under
 * --symfs or a debug directory the path has more places than
 * debuglink_candidates knows: libdwfl is asked. */
static int standard_search(Dwfl_Module *mod, void **ud, const char *modname, Dwarf_Addr base,
    const char *file, const char *debuglink, GElf_Word crc, char **dbgname, int dflt)
{
	const unsigned char *bid;
	GElf_Addr va;
	char hex[41] = "";
	int bl = dwfl_module_build_id(mod, &bid, &va), c;
	if (bl > 0 && bl <= 20)
		sym__hexid(bid, (unsigned)bl, hex);
	c = debuglink_candidates(file, debuglink, hex);
	if (c == 0 && file) {
		/* libdwfl tries a symbolic link's target's name too */
		char *canon = realpath(file, NULL);
		if (canon && strcmp(canon, file) != 0)
			c = debuglink_candidates(canon, debuglink, NULL);
		free(canon);
	}
	if (c < 0 || (c == 0 && dflt && !debuginfod_may_answer(hex[0] ? hex : NULL)))
		return -1;
	return dwfl_standard_find_debuginfo(mod, ud, modname, base, file, debuglink, crc, dbgname);
}

/* libdwfl's search for the separate debug file, answered with its
 * decompressed copy (dbgcache.h) when there is one whose headers are the
 * debug file's and whose build id is the module's: the same DWARF without
 * inflating it again in every report.  The debug file is looked up where
 * Debian puts it (by build id) to check the copy against it; else (or
 * without a copy) libdwfl's own search (standard_search), which opens the
 * file for libdwfl itself, so its fd is the answer, and a copy is made for
 * the next report. */
static int find_debuginfo_in(Dwfl_Module *mod, void **ud, const char *modname, Dwarf_Addr base,
    const char *file, const char *debuglink, GElf_Word crc, char **dbgname, int dflt)
{
	const unsigned char *bid;
	GElf_Addr va;
	uint8_t cb[20];
	char hex[41], path[128];
	int bl = dwfl_module_build_id(mod, &bid, &va), c, fd;
	if (bl > 0 && bl <= 20) {
		sym__hexid(bid, (unsigned)bl, hex);
		snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		if ((fd = sym__open_regular(path)) >= 0) {
			c = dbgcache__open(fd, bid, (unsigned)bl);
			close(fd);
			if (c >= 0 && sym__file_buildid(c, cb) == (unsigned)bl &&
			    memcmp(cb, bid, (size_t)bl) == 0)
				return c;
			if (c >= 0)
				close(c);
		}
	}
	fd = standard_search(mod, ud, modname, base, file, debuglink, crc, dbgname, dflt);
	if (fd >= 0 && bl > 0 && bl <= 20 && (c = dbgcache__open(fd, bid, (unsigned)bl)) >= 0)
		close(c);
	return fd;
}

int sym__find_debuginfo(Dwfl_Module *mod, void **ud, const char *modname, Dwarf_Addr base,
    const char *file, const char *debuglink, GElf_Word crc, char **dbgname)
{
	return find_debuginfo_in(mod, ud, modname, base, file, debuglink, crc, dbgname, 1);
}

static int find_debuginfo_path(Dwfl_Module *mod, void **ud, const char *modname, Dwarf_Addr base,
    const char *file, const char *debuglink, GElf_Word crc, char **dbgname)
{
	return find_debuginfo_in(mod, ud, modname, base, file, debuglink, crc, dbgname, 0);
}

static int report_file(struct sym_dso *d, const char *path, int fd)
{
	d->dwfl = dwfl_begin(&d->st->cb);
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
		const char *dn = sym__demangled(d->st, sn, dm, sizeof(dm));
		size_t k = strnlen(dn, sizeof(buf) - 1), at = sizeof(buf) - 1 - k;
		/* "%s@plt", cut as snprintf would, without its format parsing */
		memcpy(buf, dn, k);
		memcpy(buf + k, "@plt", at < 4 ? at : 4);
		buf[k + (at < 4 ? at : 4)] = '\0';
		sym__table_add(&d->plt, base + 16 * i + bias, 16, symtab__intern(d->st, buf));
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

void sym__open_elf(struct sym_dso *d)
{
	char hex[41], alt[4200], file[4200];
	const char *symfs = d->st->o.symfs;
	const char *path = sym__host_path(d->st, d->path, file, sizeof(file));
	int fd = sym__open_regular(path);

	if (fd < 0) {
		path = NULL;
		d->problem = sym__open_problem(fd);
	} else if (d->bidlen) {
		uint8_t fb[20];
		unsigned fl = sym__file_buildid(fd, fb);
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
		sym__hexid(d->bid, d->bidlen, hex);
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

void sym__open_vdso(struct sym_dso *d)
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
	    sym__kernel_foreign(d->st)) {
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

/* libdwfl's symbol for addr (dwfl_module_addrinfo's answer), once per piece. */
const struct fpiece *sym__elf_func(struct sym_dso *d, uint64_t addr)
{
	struct ftab *f = &d->funcs;
	size_t p;
	if (!f->slot && ftab_build(f, d->mod) < 0) {
		sym__mark_nomem(d->st);      /* no function, and symtab__nomem says why */
		return NULL;
	}
	p = ftab_piece(f, addr);
	if (!f->slot[p]) {
		struct fpiece r = { NULL, 0, 0 };
		if (f->first_global >= 0) {
			const struct fsym *y = ftab_lookup(f, addr);
			if (y)
				r = (struct fpiece){ sym__intern_sym(d->st, y->raw), y->value, y->size };
		} else {
			GElf_Off off;
			GElf_Sym sym;
			const char *n = dwfl_module_addrinfo(d->mod, addr, &off, &sym, NULL, NULL, NULL);
			if (n)
				r = (struct fpiece){ sym__intern_sym(d->st, n), addr - off, sym.st_size };
		}
		if (GROW(f->res, f->nres, f->capres) < 0) {
			sym__mark_nomem(d->st);
			return NULL;
		}
		f->res[f->nres++] = r;
		f->slot[p] = (uint32_t)f->nres;
	}
	return &f->res[f->slot[p] - 1];
}

/* ---- aliases: addresses with several function names -------------------- */

/* Is y a better name than best (NULL: none yet) for their address, by
 * alias_better on the names as perf shows them, demangled (Rust's
 * "<usize as ...>::fmt" over "<u64 as ...>::fmt", longer)? */
static int alias_wins(struct sym_dso *d, const struct fsym *y, const struct fsym *best)
{
	char bc[4096], bb[4096];
	if (!best)
		return 1;
	struct alias_cand c = { y->value, y->size,
		y->bind == 3 ? STB_GLOBAL : y->bind == 2 ? STB_WEAK : STB_LOCAL,
		sym__demangled(d->st, y->raw, bc, sizeof(bc)), 0 };
	struct alias_cand b = { best->value, best->size,
		best->bind == 3 ? STB_GLOBAL : best->bind == 2 ? STB_WEAK : STB_LOCAL,
		sym__demangled(d->st, best->raw, bb, sizeof(bb)), 0 };
	return alias_better(&c, &b);
}

/* Index d->funcs' function symbols by (value, index) in f->fn: 0, or
 * -ENOMEM. */
static int alias_index(struct ftab *f)
{
	uint64_t *t = malloc((f->nsym ? f->nsym : 1) * 2 * sizeof(*t));
	size_t n = 0;
	if (!t || !(f->fn = malloc((f->nsym ? f->nsym : 1) * sizeof(*f->fn)))) {
		free(t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < f->nsym; i++)
		if (f->sym[i].func) {
			t[2 * n] = f->sym[i].value;
			t[2 * n + 1] = i;
			n++;
		}
	if (rec_sort(t, n, 2) < 0)
		qsort(t, n, 2 * sizeof(*t), fv_cmp);
	for (size_t i = 0; i < n; i++)
		f->fn[i] = (uint32_t)t[2 * i + 1];
	f->nfn = n;
	free(t);
	return 0;
}

/* perf's name for the function at start among the function symbols of d
 * at that address (alias_wins, in symbol-table order: the first wins a
 * tie), interned; NULL when only one names it.  The function symbols of
 * d->funcs (sym__elf_func built it) are scanned by the first lookups, then
 * indexed by value (d->funcs.fn) once that pays, as ftab_lookup does.
 * Only the winner is interned. */
const char *sym__alias_at(struct sym_dso *d, uint64_t start)
{
	struct ftab *f = &d->funcs;
	const struct fsym *best = NULL;
	size_t named = 0;
	if (!f->fn && fidx_due(f->nfnscan, f->nsym) && alias_index(f) < 0)
		f->nfnscan = 0;           /* out of memory: scan on, try again later */
	if (!f->fn) {
		f->nfnscan++;
		for (size_t i = 0; i < f->nsym; i++) {
			if (f->sym[i].value != start || !f->sym[i].func)
				continue;
			named++;
			if (alias_wins(d, &f->sym[i], best))
				best = &f->sym[i];
		}
	} else {
		size_t lo = 0, hi = f->nfn;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (f->sym[f->fn[mid]].value < start)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t i = lo; i < f->nfn && f->sym[f->fn[i]].value == start; i++, named++)
			if (alias_wins(d, &f->sym[f->fn[i]], best))
				best = &f->sym[f->fn[i]];
	}
	return named > 1 ? sym__intern_sym(d->st, best->raw) : NULL;
}

/* perf's name where libdwfl has none.  perf (symbols__fixup_end, 6.1)
 * stretches a function symbol without a size to the next one's start,
 * across sections, so the PLT header after crti.o's sizeless _init reads
 * "_init+0x26" in perf (GNU ld's layout) where libdwfl takes a sizeless
 * symbol only in the address's own section.  Where perf's synthesized
 * name@plt symbols lie between the two (.plt.got after the slots), its
 * tree search over the overlapping symbols finds one or the other by the
 * tree's shape: no answer is taken there, nor after the last function
 * symbol (lld puts .plt after the sizeless _fini; perf 6.1 names nothing
 * there either).  The function symbol at the greatest value <= addr when
 * none there has a size (perf keeps the sized one of aliases), another
 * starts above addr and no PLT slot of d starts in between: its name
 * (interned), and its value in *start; NULL otherwise. */
const char *sym__elf_stretched(struct sym_dso *d, uint64_t addr, uint64_t *start)
{
	struct ftab *f = &d->funcs;
	if (!f->slot || (!f->fn && alias_index(f) < 0))
		return NULL;              /* no table, or out of memory: no name */
	size_t lo = 0, hi = f->nfn;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->sym[f->fn[mid]].value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || lo == f->nfn)
		return NULL;
	const struct fsym *y = &f->sym[f->fn[lo - 1]];
	for (size_t j = lo; j-- > 0 && f->sym[f->fn[j]].value == y->value; )
		if (f->sym[f->fn[j]].size != 0)
			return NULL;
	sym__table_sort(&d->plt);
	size_t sz = sizeof(*d->plt.v);
	if (sym__starts_upto(d->plt.v, d->plt.n, sz, addr) !=
	    sym__starts_upto(d->plt.v, d->plt.n, sz, y->value))
		return NULL;
	*start = y->value;
	return sym__intern_sym(d->st, y->raw);
}

const unsigned char *sym_dso__code(struct sym_dso *d, uint64_t addr, uint64_t len,
    int *machine)
{
	GElf_Addr bias;
	Elf *e;
	Elf_Scn *scn = NULL;
	sym__dso_open(d);
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
