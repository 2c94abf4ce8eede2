/*
 * resolve.c — from pcs to what a report shows: each distinct (process, pc)
 * to a location through the process's mappings (or the kernel's, or a
 * JIT's), each distinct (binary, address) to a function, a location's
 * inlined frames and source line, a stack's frames (cached per stack), and
 * each sample context's names over time (profile__resolve).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/grow.h"
#include "common/sort.h"
#include "profile/profile_internal.h"
#include "util/printable.h"

static uint32_t func_ix(struct profile *p, struct sym_dso *d, const char *name, uint64_t start,
    uint64_t size)
{
	int found;
	/* a symbol's name comes from the binary (or a JIT's perf map): shown
	 * made printable, interned so that the key stays one pointer */
	if (printable__needs(name))
		name = symtab__intern_name(p->st, name);
	struct hent *e = hmap_slot(&p->priv->fn_ix, sym_dso__id(d), (uint64_t)(uintptr_t)name,
	    &found);
	if (!e)
		return nomem(p), NO_IX;
	if (!found) {
		if (GROW(p->f, p->nf, p->capf)) {
			hmap_forget(&p->priv->fn_ix, e);
			return nomem(p), NO_IX;
		}
		e->v = (uint32_t)p->nf;
		p->f[p->nf++] = (struct prof_func){ name, d, start, size,
		    sym_dso__kind(d) == SYM_DSO_KERNEL };
	} else if (p->f[e->v].size == 0 && size) {
		p->f[e->v].start = start;
		p->f[e->v].size = size;
	}
	return e->v;
}

int profile__func_unresolved(const struct profile *p, uint32_t func)
{
	const char *n = p->f[func].name;
	return strcmp(n, "[unknown]") == 0 || (n[0] == '0' && n[1] == 'x');
}

uint32_t profile__func_unknown(struct profile *p, struct sym_dso *d)
{
	return func_ix(p, d, symtab__intern(p->st, "[unknown]"), 0, 0);
}

/* pc's location in pid's map epoch (NO_IX out of memory, sticky). */
static uint32_t loc_of(struct profile *p, int32_t pid, uint32_t epoch, uint64_t pc, int user,
    int caller)
{
	struct prof_priv *v = p->priv;
	int found;
	struct hent *e = hmap_slot(&v->pcloc,
	    user ? (uint64_t)epoch << 32 | (uint32_t)pid : UINT64_MAX,
	    pc ^ (caller ? 1ull << 63 : 0), &found);
	if (!e)
		return nomem(p), NO_IX;
	if (found)
		return e->v;
	struct sym_dso *d;
	uint64_t addr, a = caller && pc ? pc - 1 : pc;
	if (!user && !v->kmap_seen && p->input_kind && strcmp(p->input_kind, "perf.data") == 0) {
		/* a perf.data without the kernel's MMAP: perf cannot place its
		 * kernel addresses, and neither can we (whatever kernel runs
		 * here, it need not be the recording's), but those in a module
		 * the recording mapped */
		if (!(d = symtab__kmodule_at(p->st, a))) {
			if (!v->unknown_dso)
				v->unknown_dso = symtab__dso(p->st, "[unknown]", NULL, 0);
			d = v->unknown_dso;
		}
		addr = a;
	} else if (!user) {
		d = symtab__kernel_at(p->st, a);
		addr = a;
	} else {
		const struct unwind_map *m = prof__find_map(p, pid, pc,
		    prof__epoch_end(p, pid, epoch), UINT64_MAX);
		struct sym_dso *jit = NULL;
		/* JIT code lives in anonymous executable memory (or in none that
		 * was recorded): the process's perf map or jitdump names it */
		if (!m || sym_dso__jit_capable(m->dso))
			jit = symtab__jit(p->st, pid);
		if (m && !jit) {
			d = m->dso;
			addr = sym_dso__addr(d, m->start, m->pgoff, a);
		} else {
			if (jit) {
				d = jit;
			} else {
				if (!v->unknown_dso)
					v->unknown_dso = symtab__dso(p->st, "[unknown]", NULL, 0);
				d = v->unknown_dso;
			}
			addr = a;
		}
	}
	/* dedupe (binary, address) before the lookup */
	int f2;
	struct hent *e2 = d ? hmap_slot(&v->addrloc, sym_dso__id(d), addr, &f2) : NULL;
	if (!e2) {              /* no binary (symtab__nomem) or no room */
		hmap_forget(&v->pcloc, e);
		return nomem(p), NO_IX;
	}
	if (!f2) {
		const char *name;
		uint64_t s, z;
		uint32_t f;
		sym_dso__func(d, addr, &name, &s, &z);
		if (GROW(p->l, p->nl, p->capl) || (f = func_ix(p, d, name, s, z)) == NO_IX) {
			hmap_forget(&v->addrloc, e2);
			hmap_forget(&v->pcloc, e);   /* different maps: e is still valid */
			return nomem(p), NO_IX;
		}
		e2->v = (uint32_t)p->nl;
		p->l[p->nl++] = (struct prof_loc){ d, addr, f, -1, NULL, s };
	}
	e->v = e2->v;   /* different maps: e is still valid */
	return e2->v;
}

/* A context's names over time: profile__comm's, which changes only at the
 * times its thread (or its process, if the thread has none) was named.
 * Given to the context once, so that no sample needs a lookup. */
static void name_context(struct profile *p, size_t ctx)
{
	int32_t pid, tid;
	samples__ctx(p->smp, ctx, &pid, &tid);
	const struct thread *t = tid == -1 ? NULL : prof__thread(p, tid, 0);
	if (tid != -1 && (!t || !t->n))
		t = prof__thread(p, pid, 0);
	size_t n = t ? t->n : 0;
	uint64_t *from = malloc((n + 1) * sizeof(*from));
	const char **name = malloc((n + 1) * sizeof(*name));
	uint32_t k = 0;
	if (!from || !name) {
		/* out of memory: the samples stay unnamed, and profile__sample
		 * then looks each one's name up (slower, the same names) */
		free(from);
		free(name);
		return;
	}
	from[0] = 0;
	for (size_t i = 0; i < n; i++)
		from[i + 1] = t->h[i].time;
	qsort(from, n + 1, sizeof(*from), u64_cmp);
	for (size_t i = 0; i <= n; i++) {
		const char *c;
		if (i && from[i] == from[i - 1])
			continue;
		c = profile__comm(p, pid, tid, from[i]);
		if (k && name[k - 1] == c)
			continue;             /* the same name goes on */
		name[k] = c;
		from[k++] = from[i];      /* k <= i: from[i - 1] is still as sorted */
	}
	(void)samples__set_comm(p->smp, ctx, k, from, name);   /* else as above */
	free(from);
	free(name);
}

void profile__sample(struct profile *p, size_t i, struct prof_sample *out)
{
	samples__get(p->smp, i, out);
	if (!out->comm && p->resolved)   /* a context made after (offcpu__wall) */
		out->comm = profile__comm(p, out->pid, out->tid, out->time);
}

/* profile__locate, in a map epoch of pid */
static int locate_in(struct profile *p, int32_t pid, uint32_t epoch, const uint64_t *pcs,
    const uint8_t *flags, uint32_t n, uint32_t *locs)
{
	int rc = 0;
	for (uint32_t k = 0; k < n; k++)
		if ((locs[k] = loc_of(p, pid, epoch, pcs[k], flags[k] & 1,
		    prof_pc_is_caller(flags, k))) == NO_IX)
			rc = pmc__nomem();
	return rc;
}

int profile__locate(struct profile *p, int32_t pid, uint64_t time, const uint64_t *pcs,
    const uint8_t *flags, uint32_t n, uint32_t *locs)
{
	return locate_in(p, pid, prof__epoch(p, pid, time), pcs, flags, n, locs);
}

int profile__resolve(struct profile *p)
{
	struct prof_priv *v = p->priv;
	int rc = 0;
	if (p->resolved)
		return v->nomem ? -ENOMEM : 0;
	/* loc ids for every pc of every distinct stack (the pcs stay: pmc
	 * script prints them as recorded) */
	uint32_t *locs = malloc((v->npc ? v->npc : 1) * sizeof(*locs));
	p->resolved = 1;
	if (!locs)              /* no stack has frames (profile__frames: -ENOMEM) */
		return nomem(p), pmc__nomem();
	for (size_t i = 0; i < v->nst; i++) {
		struct rstack *s = &v->st[i];
		if (locate_in(p, s->pid, s->epoch, v->pcs + s->off, v->flags + s->off, s->n,
		    locs + s->off) < 0)
			rc = pmc__nomem();
	}
	v->locs = locs;
	for (size_t i = 0; i < samples__nctx(p->smp); i++)
		name_context(p, i);
	for (size_t i = 0; i < p->nsb; i++)
		p->sb[i].comm = profile__comm(p, p->sb[i].pid, p->sb[i].tid, p->sb[i].time);
	for (size_t i = 0; i < p->npr; i++) {
		const char *c = prof__comm_at(p, p->pr[i].tid, UINT64_MAX);
		p->pr[i].comm = c ? c : prof__comm_at(p, p->pr[i].pid, UINT64_MAX);
	}
	const char *kw = symtab__kernel_warning(p->st);
	(void)kw;
	return rc;
}

int profile__srcline(struct profile *p, uint32_t loc, const char **file, int *line)
{
	struct prof_loc *l = &p->l[loc];
	if (l->line < 0) {
		const char *f = NULL;
		int ln = 0;
		if (sym_dso__srcline(l->dso, l->addr, &f, &ln) == 0) {
			l->file = f;
			l->line = ln;
		} else {
			l->line = 0;
		}
	}
	*file = l->file;
	*line = l->line;
	return l->line > 0 ? 0 : -1;
}

/* The frames of location loc, innermost inlined first: how many (cached),
 * or -ENOMEM (sticky) with nothing kept. */
static int loc_inline(struct profile *p, uint32_t loc, const struct prof_frame **out)
{
	struct prof_priv *v = p->priv;
	*out = NULL;
	if (loc == NO_IX)
		return pmc__nomem();    /* already marked by loc_of */
	if (!v->lx && !(v->lx = calloc(p->nl ? p->nl : 1, sizeof(*v->lx))))
		return nomem(p), pmc__nomem();
	struct locx *x = &v->lx[loc];
	if (!x->done) {
		struct sym_frame local[64], *fr = local;
		struct prof_loc *l = &p->l[loc];
		int k = sym_dso__frames(l->dso, l->addr, fr, 64);
		if (k > 64) {             /* deeper inlining: ask again with room */
			if (!(fr = malloc((size_t)k * sizeof(*fr))))
				return nomem(p), pmc__nomem();
			k = sym_dso__frames(l->dso, l->addr, fr, k);
		}
		x->off = v->nlxf;
		for (int i = 0; i < k; i++) {
			/* the outermost is the symbol table's function (with its size) */
			uint32_t f = i == k - 1 ? l->func : func_ix(p, l->dso, fr[i].func, 0, 0);
			if (f == NO_IX || GROW(v->lxf, v->nlxf, v->caplxf)) {
				v->nlxf = x->off;
				if (fr != local)
					free(fr);
				return nomem(p), pmc__nomem();
			}
			v->lxf[v->nlxf++] = (struct prof_frame){ f, loc, fr[i].file, fr[i].line };
		}
		if (fr != local)
			free(fr);
		x->n = (uint32_t)k;
		x->done = 1;
	}
	*out = v->lxf + x->off;
	return (int)x->n;
}

int profile__loc_frames(struct profile *p, uint32_t loc, const struct prof_frame **out)
{
	return loc_inline(p, loc, out);
}

int profile__frames(struct profile *p, uint32_t stack, int flags, const struct prof_frame **out)
{
	struct prof_priv *v = p->priv;
	struct rstack *s = &v->st[stack];
	*out = NULL;
	if (!v->locs)           /* profile__resolve ran out of memory */
		return pmc__nomem();
	if (flags & PROF_INLINE) {
		if (!s->b_done) {
			s->b_off = v->nfb;
			for (uint32_t k = 0; k < s->n; k++) {
				const struct prof_frame *lf;
				int ln = loc_inline(p, v->locs[s->off + k], &lf);
				for (int j = 0; j < ln; j++) {
					if (GROW(v->fb, v->nfb, v->capfb)) {
						nomem(p);
						ln = -ENOMEM;
						break;
					}
					v->fb[v->nfb++] = lf[j];
				}
				if (ln < 0) {
					v->nfb = s->b_off;
					return pmc__nomem();
				}
			}
			s->b_n = (uint32_t)(v->nfb - s->b_off);
			s->b_done = 1;
		}
		*out = v->fb + s->b_off;
		return (int)s->b_n;
	}
	if (!s->a_done) {
		s->a_off = v->nfa;
		for (uint32_t k = 0; k < s->n; k++) {
			uint32_t l = v->locs[s->off + k];
			if (l == NO_IX || GROW(v->fa, v->nfa, v->capfa)) {
				v->nfa = s->a_off;
				return nomem(p), pmc__nomem();
			}
			v->fa[v->nfa++] = (struct prof_frame){ p->l[l].func, l, NULL, 0 };
		}
		s->a_n = s->n;
		s->a_done = 1;
	}
	if ((flags & PROF_LINES) && !s->a_lines) {
		for (uint32_t k = 0; k < s->a_n; k++) {
			struct prof_frame *f = &v->fa[s->a_off + k];
			profile__srcline(p, f->loc, &f->file, &f->line);
		}
		s->a_lines = 1;
	}
	*out = v->fa + s->a_off;
	return (int)s->a_n;
}

size_t profile__nstacks(const struct profile *p)
{
	return p->priv->nst;
}

int profile__stack_pcs(const struct profile *p, uint32_t stack, const uint64_t **pcs,
    const uint8_t **user)
{
	const struct rstack *s = &p->priv->st[stack];
	*pcs = p->priv->pcs + s->off;
	*user = p->priv->flags + s->off;
	return (int)s->n;
}
