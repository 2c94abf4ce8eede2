/*
 * srcline.c — DWARF source lines and inlined frames (part of the
 * symbolizer, symbols_internal.h): an address's file and line, the chain of
 * inlined instances holding it (each a frame with its call site), and the
 * name DWARF gives its function.  A CU's functions are indexed by address
 * once (cu_func) rather than walked per pc.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "symbols/symbols.h"
#include "symbols/symbols_internal.h"
#include "common/grow.h"

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
	sym__dso_open(d);
	if (d->kind == SYM_DSO_PERFMAP)
		return sym__jit_srcline(d, addr, file, line);
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
		sym__mark_nomem(d->st);
	if (rc != 0)
		return cu;
	sc->have_func = 1;
	if (scope_walk(&sc->func, addr - bias, sc) < 0) {
		sym__mark_nomem(d->st);
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
			out[n] = (struct sym_frame){ sym__intern_sym(d->st, lname ? lname : nm), file, line };
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
		r = sym__intern_sym(d->st, nm);
	return r;
}
