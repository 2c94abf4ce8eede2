/*
 * tasks.c — what the side records of a recording tell the profile: its
 * events (PMC allocations), the address spaces and their mappings (forks,
 * execs, MMAPs, and the mapping a pc falls in), the threads' names over
 * time and their births, and the per-process counts (PROCEXIT, PROCCSW).
 * Names are applied at the end of loading, in time order (apply_inherits),
 * since records from different CPUs' rings are not in time order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/sort.h"
#include "profile/profile_internal.h"

uint32_t prof__event_ix_slow(struct profile *p, uint32_t pmcid)
{
	struct prof_priv *v = p->priv;
	int found;
	struct hent *e = hmap_slot(&v->ev_ix, pmcid, 0, &found);
	if (!e)
		return nomem(p), NO_IX;
	if (!found) {
		char name[64];
		/* one more (offcpu__wall adds one too) */
		if (GROW(p->ev, p->nev, p->capev) < 0) {
			hmap_forget(&v->ev_ix, e);   /* it names no event */
			return nomem(p), NO_IX;
		}
		e->v = (uint32_t)p->nev;
		memset(&p->ev[p->nev], 0, sizeof(p->ev[0]));
		snprintf(name, sizeof(name), "pmc 0x%08x", pmcid);
		p->ev[p->nev].name = symtab__intern(p->st, name);
		p->ev[p->nev].pmcid = pmcid;
		p->nev++;
	}
	v->ev_last_id = pmcid;
	v->ev_last = e->v;
	v->ev_last_ok = 1;
	return e->v;
}

/*
 * A system-mode event is one PMC per CPU (hwpmc's model: `pmc record -a`
 * allocates the event on each CPU), but it is one event to the user: the
 * PMC of another CPU with the same event, mode, flags and rate joins the
 * profile event already made for the first one (its pmcid is an alias).
 * 1 if it did.
 */
int prof__same_event_other_cpu(struct profile *p, const struct pmclog_ev_pmcallocate *a,
    const char *name)
{
	int found;
	if (a->pl_cpu < 0 || !PMC_IS_SYSTEM_MODE((enum pmc_mode)a->pl_mode))
		return 0;
	for (size_t i = 0; i < p->nev; i++) {
		struct prof_event *e = &p->ev[i];
		if (e->pmcid == a->pl_pmcid || !e->percpu || e->name != name ||
		    e->mode != a->pl_mode || e->rate != a->pl_rate || e->freq != (int)a->pl_freq ||
		    e->flags != a->pl_flags)
			continue;
		struct hent *h = hmap_slot(&p->priv->ev_ix, a->pl_pmcid, 0, &found);
		if (!h)
			return nomem(p), 1;   /* nothing more to do for it */
		if (found)
			return 0;   /* samples came before the allocation: keep it apart */
		h->v = (uint32_t)i;
		return 1;
	}
	return 0;
}

struct aspace *prof__aspace(struct profile *p, int32_t pid, int create)
{
	struct prof_priv *v = p->priv;
	int found;
	if (!create) {
		const struct hent *h = hmap_find(&v->as_ix, (uint64_t)(uint32_t)pid, 0, NULL);
		return h ? &v->as[h->v] : NULL;
	}
	struct hent *e = hmap_slot(&v->as_ix, (uint64_t)(uint32_t)pid, 0, &found);
	if (!e)
		return nomem(p);
	if (!found) {
		if (GROW(v->as, v->nas, v->capas)) {
			hmap_forget(&v->as_ix, e);
			return nomem(p);
		}
		e->v = (uint32_t)v->nas;
		memset(&v->as[v->nas], 0, sizeof(v->as[0]));
		v->as[v->nas].pid = pid;
		v->as[v->nas].ppid = -1;
		v->nas++;
	}
	return &v->as[e->v];
}

struct thread *prof__thread(struct profile *p, int32_t tid, int create)
{
	struct prof_priv *v = p->priv;
	int found;
	if (!create) {
		const struct hent *h = hmap_find(&v->th_ix, (uint64_t)(uint32_t)tid, 0, NULL);
		return h ? &v->th[h->v] : NULL;
	}
	struct hent *e = hmap_slot(&v->th_ix, (uint64_t)(uint32_t)tid, 0, &found);
	if (!e)
		return nomem(p);
	if (!found) {
		if (GROW(v->th, v->nth, v->capth)) {
			hmap_forget(&v->th_ix, e);
			return nomem(p);
		}
		e->v = (uint32_t)v->nth;
		memset(&v->th[v->nth], 0, sizeof(v->th[0]));
		v->th[v->nth].tid = tid;
		v->nth++;
	}
	return &v->th[e->v];
}

/* Thread tid's name events, made if new (NULL out of memory). */
struct tgen *prof__tgen_of(struct profile *p, int32_t tid)
{
	struct prof_priv *v = p->priv;
	int found;
	struct hent *e = hmap_slot(&v->gen_ix, (uint64_t)(uint32_t)tid, 0, &found);
	if (!e)
		return nomem(p);
	if (!found) {
		if (GROW(v->tg, v->ntg, v->captg)) {
			hmap_forget(&v->gen_ix, e);
			return nomem(p);
		}
		v->tg[v->ntg] = (struct tgen){ NULL, 0, 0 };
		e->v = (uint32_t)v->ntg++;
		v->gc_ok = 0;             /* tg may have moved */
	}
	return &v->tg[e->v];
}

/* Thread tid's events, or NULL if it has none (no lookup made). */
const struct tgen *prof__tgen_find(const struct prof_priv *v, int32_t tid)
{
	const struct hent *h = v->gen_ix.n ?
	    hmap_find(&v->gen_ix, (uint64_t)(uint32_t)tid, 0, NULL) : NULL;
	return h ? &v->tg[h->v] : NULL;
}

/*
 * Thread tid was named at time (or born).  Its samples are summed per span
 * between name events by their times (sample_gen), not by where they lie
 * in the file: a sample of a thread from before its exec can come in the
 * file after the exec's COMM, from another CPU's ring, and is still summed
 * with the samples before the exec.  What the order can still hide is a
 * sample from after the exec that comes before its COMM: it is summed with
 * the samples before, and sums_named_once finds that sum at the end.
 */
static void name_event(struct profile *p, int32_t tid, uint64_t time)
{
	struct prof_priv *v = p->priv;
	struct tgen *t = prof__tgen_of(p, tid);
	if (!t)
		return;
	/* first 2, not 64: most threads are named once or twice */
	if (GROW_FROM(t->ev, t->nev, t->cap, 1, 2) < 0) {
		nomem(p);
		return;
	}
	uint32_t k = span_of(t, time);
	memmove(t->ev + k + 1, t->ev + k, (t->nev - k) * sizeof(*t->ev));
	t->ev[k] = time;
	t->nev++;
	v->gc_ok = 0;
}

void prof__set_comm(struct profile *p, int32_t tid, uint64_t time, const char *name)
{
	struct thread *t;
	if (!name || !*name || tid < 0)
		return;
	t = prof__thread(p, tid, 1);
	if (!t || GROW(t->h, t->n, t->cap)) {
		nomem(p);
		return;
	}
	t->h[t->n++] = (struct cname){ time, symtab__intern_name(p->st, name) };
	name_event(p, tid, time);
}

const char *prof__comm_at(struct profile *p, int32_t tid, uint64_t time)
{
	struct thread *t = prof__thread(p, tid, 0);
	const char *best = NULL;
	uint64_t bt = 0;
	if (!t || !t->n)
		return NULL;
	/* latest name given at or before time; else the earliest one */
	for (size_t i = 0; i < t->n; i++) {
		if (t->h[i].time <= time && (!best || t->h[i].time >= bt)) {
			best = t->h[i].comm;
			bt = t->h[i].time;
		}
	}
	if (!best) {
		best = t->h[0].comm;
		for (size_t i = 1; i < t->n; i++)
			if (t->h[i].time < t->h[0].time)
				best = t->h[i].comm;
	}
	return best;
}

/*
 * Records from different CPUs' rings are not in time order: a fork may be
 * read before its parent's name (an exec on another CPU) or after its
 * child's samples.  So births are kept and applied once everything is read,
 * oldest first (a grandchild takes the name its parent took at its own
 * birth): the child is named as its parent was at that time, unless it was
 * named by then already.
 */
void prof__add_inherit(struct profile *p, uint64_t time, int32_t parent, int32_t child)
{
	struct prof_priv *v = p->priv;
	if (parent < 0 || child <= 0 || parent == child)
		return;
	if (GROW(v->inh, v->ninh, v->capinh)) {
		nomem(p);
		return;
	}
	v->inh[v->ninh++] = (struct inherit){ time, parent, child };
	name_event(p, child, time);
}

static int inherit_cmp(const void *a, const void *b)
{
	const struct inherit *x = a, *y = b;
	return x->time < y->time ? -1 : x->time > y->time;
}

void prof__apply_inherits(struct profile *p)
{
	struct prof_priv *v = p->priv;
	if (!v->ninh)
		return;   /* qsort(NULL, 0) is undefined behaviour */
	qsort(v->inh, v->ninh, sizeof(*v->inh), inherit_cmp);
	for (size_t i = 0; i < v->ninh; i++) {
		const struct inherit *h = &v->inh[i];
		const struct thread *ct = prof__thread(p, h->child, 0);
		const char *c = prof__comm_at(p, h->parent, h->time);
		int named = 0;
		for (size_t k = 0; ct && k < ct->n && !named; k++)
			named = ct->h[k].time <= h->time;
		if (c && !named)
			prof__set_comm(p, h->child, h->time, c);
	}
	v->ninh = 0;
}

struct prof_proc *prof__proc(struct profile *p, int32_t pid, int32_t tid, uint32_t pmcid)
{
	int found;
	struct hent *e = hmap_slot(&p->priv->pr_ix, ((uint64_t)(uint32_t)pid << 32) |
	    (uint32_t)tid, pmcid, &found);
	if (!e)
		return nomem(p);
	if (!found) {
		if (GROW(p->pr, p->npr, p->cappr)) {
			hmap_forget(&p->priv->pr_ix, e);
			return nomem(p);
		}
		e->v = (uint32_t)p->npr;
		memset(&p->pr[p->npr], 0, sizeof(p->pr[0]));
		p->pr[p->npr].pid = pid;
		p->pr[p->npr].tid = tid;
		p->pr[p->npr].pmcid = pmcid;
		p->npr++;
	}
	return &p->pr[e->v];
}

/* Is path (a mapped file) pid's jitdump, "jit-<pid>.dump"? */
static int is_jitdump(const char *path, int32_t pid)
{
	const char *b = strrchr(path, '/');
	char want[32];
	b = b ? b + 1 : path;
	/* the prefix first: a system-wide recording has thousands of mappings */
	if (strncmp(b, "jit-", 4) != 0)
		return 0;
	snprintf(want, sizeof(want), "jit-%d.dump", (int)pid);
	return strcmp(b, want) == 0;
}

static void add_remap(struct profile *p, struct aspace *a, uint64_t time);

/* ---- a process's mappings by address -------------------------------------
 * A process may hold thousands of mappings (a JVM, a program that dlopens
 * its plugins): a mapping's overlaps and a pc's mapping are looked up
 * through ix, m's indices sorted by start, instead of going through all of
 * m.  Those that can hold an address start at most maxlen below it. */

/* How many of a's mappings start at or below addr (ix[0..k) do). */
static size_t ix_below(const struct aspace *a, uint64_t addr)
{
	size_t lo = 0, hi = a->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a->m[a->ix[mid]].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a->m[a->n] in ix, after those that start at or below it (before a->n++). */
static int ix_insert(struct aspace *a)
{
	const struct unwind_map *m = &a->m[a->n];
	if (a->capix <= a->n) {
		size_t nc = grow__cap(a->capix, a->n + 1, 16);
		uint32_t *nx = nc && nc <= UINT32_MAX ? realloc(a->ix, nc * sizeof(*nx)) : NULL;
		if (!nx)
			return -1;
		a->ix = nx;
		a->capix = nc;
	}
	size_t k = ix_below(a, m->start);
	memmove(a->ix + k + 1, a->ix + k, (a->n - k) * sizeof(*a->ix));
	a->ix[k] = (uint32_t)a->n;
	if (m->end - m->start > a->maxlen)
		a->maxlen = m->end - m->start;
	return 0;
}

/* Note the remaps m makes with a's mappings: where it overlaps one of
 * another binary, or of the same at another offset, what those addresses
 * read changed at the later of the two's times (records of different CPUs
 * are not in time order: the later one may have come first).  The dynamic
 * linker maps a library whole, then its segments over it: its text at the
 * same offsets (no change), its data (RELRO, .data) a page or so off, which
 * would make a remap of every library of every process (20 to 60 in each
 * of dw.data's, when perf records data mappings, as for DWARF stacks).
 * Only where code can be does a change count: one of the two may hold
 * code (unwind_map__code); pcs are never in the others. */
static void note_remaps(struct profile *p, struct aspace *a, const struct unwind_map *m)
{
	for (size_t k = ix_below(a, m->end - 1); k-- > 0;) {
		const struct unwind_map *o = &a->m[a->ix[k]];
		p->map_looks++;
		if (o->start < m->start && m->start - o->start >= a->maxlen)
			break;                /* none below this one reaches m */
		if (o->end > m->start && (unwind_map__code(o) || unwind_map__code(m)) &&
		    (o->dso != m->dso || o->start - o->pgoff != m->start - m->pgoff))
			add_remap(p, a, o->time > m->time ? o->time : m->time);
	}
}

/* Note that a's mappings changed at time (kept ascending, once a time). */
static void add_remap(struct profile *p, struct aspace *a, uint64_t time)
{
	struct prof_priv *v = p->priv;
	uint32_t i = a->nrm;
	while (i && a->rm[i - 1] > time)
		i--;
	if (i && a->rm[i - 1] == time)
		return;
	if (GROW(a->rm, a->nrm, a->caprm)) {
		nomem(p);
		return;
	}
	memmove(a->rm + i + 1, a->rm + i, (a->nrm - i) * sizeof(*a->rm));
	a->rm[i] = time;
	a->nrm++;
	v->nremaps++;
	prof__epoch_forget(p);
	/* samples already taken at or after it were given the epoch before it */
	if (time <= v->max_stime) {
		v->remap_late = 1;
		/* summed ones that cannot be split again: the sums of this pass
		 * will be refused (a system-wide perf.data read in file order,
		 * then read again in time order): stop reading it now */
		if (v->sums && !v->sums_doomed && v->late_checks < 64) {
			v->late_checks++;
			v->sums_doomed = prof__sums_split(p, time);
		}
	}
}

void prof__add_map(struct profile *p, const struct pmclog_ev_map_in *mi, uint64_t time)
{
	struct aspace *a;
	struct sym_dso *d;
	if (mi->pl_len == 0)
		return;
	if (mi->pl_pid < 0) {
		/* the kernel's own mapping carries its build id; others are modules */
		if (strncmp(mi->pl_pathname, "[kernel.kallsyms]", 17) == 0) {
			p->priv->kmap_seen = 1;
			symtab__set_kernel_buildid(p->st, mi->pl_buildid, mi->pl_buildid_len);
			symtab__set_kernel_reloc(p->st, mi->pl_pathname + 17, mi->pl_pgoff);
		}
		else if (mi->pl_pathname[0])
			symtab__add_kmodule(p->st, mi->pl_start, mi->pl_len, mi->pl_pathname,
			    mi->pl_buildid, mi->pl_buildid_len);
		return;
	}
	if (is_jitdump(mi->pl_pathname, mi->pl_pid)) {
		/* a JIT agent mapped its dump so the recording would name it (perf's
		 * jvmti does the same): its code is in anonymous memory */
		symtab__set_jitdump(p->st, mi->pl_pid, mi->pl_pathname);
		return;
	}
	a = prof__aspace(p, mi->pl_pid, 1);
	if (!a || GROW(a->m, a->n, a->cap)) {
		nomem(p);
		return;
	}
	if (!(d = symtab__dso(p->st, mi->pl_pathname, mi->pl_buildid, mi->pl_buildid_len))) {
		nomem(p);
		return;
	}
	struct unwind_map nm = { .start = mi->pl_start, .end = mi->pl_start + mi->pl_len,
	    .pgoff = mi->pl_pgoff, .seq = ++p->priv->mapseq, .dso = d, .prot = mi->pl_prot,
	    .time = time };
	note_remaps(p, a, &nm);
	a->m[a->n] = nm;
	if (ix_insert(a) < 0) {
		nomem(p);
		return;
	}
	a->n++;
}

/* A walk up a process's chain: its aspace, its parent's, and so on up
 * (pid's mappings are its own, or its parent's as they were at its birth:
 * prof__find_map); each level's remaps count up to bound. */
struct chain_walk {
	const struct aspace *at;      /* the level given last (NULL: none yet) */
	int32_t pid;
	int depth;
	uint64_t bound;
};
#define CHAIN_WALK(pid) { NULL, (pid), 0, UINT64_MAX }

static const struct aspace *chain_next(struct profile *p, struct chain_walk *w)
{
	if (w->at) {
		if (w->at->ppid < 0)
			return NULL;
		if (w->at->fork_time && w->at->fork_time < w->bound)
			w->bound = w->at->fork_time;
		w->pid = w->at->ppid;
	}
	if (w->depth++ >= 64)
		return NULL;
	return w->at = prof__aspace(p, w->pid, 0);
}

/* pid's aspace with its chain's remaps (crm) up to date, for
 * prof__epoch_end: the remaps that cut its samples into epochs, ascending.
 * Made again once a remap or a fork was read since (rm_gen); NULL if pid
 * is not known. */
static struct aspace *chain_of(struct profile *p, int32_t pid)
{
	struct prof_priv *v = p->priv;
	struct aspace *a = prof__aspace(p, pid, 0);
	if (!a || a->crm_gen == v->rm_gen + 1)
		return a;
	uint32_t n = 0;
	struct chain_walk w = CHAIN_WALK(pid);
	const struct aspace *b;
	a->ncrm = 0;
	while ((b = chain_next(p, &w)) != NULL) {
		for (uint32_t i = 0; i < b->nrm && b->rm[i] <= w.bound; i++, n++) {
			if (n >= a->capcrm) {
				size_t nc = grow__cap(a->capcrm, (size_t)n + 1, 8);
				uint64_t *t = nc <= UINT32_MAX ? realloc(a->crm, nc * sizeof(*t)) : NULL;
				if (!t)
					return nomem(p), a;     /* left invalid: asked again */
				a->crm = t;
				a->capcrm = (uint32_t)nc;
			}
			a->crm[n] = b->rm[i];
		}
	}
	if (n > 1)
		qsort(a->crm, n, sizeof(*a->crm), u64_cmp);
	a->ncrm = n;
	a->crm_gen = v->rm_gen + 1;
	return a;
}

/* How many remaps of pid's chain (chain_of's) are at or before time, by a
 * walk up the chain; lo and hi: the times the count holds for, [lo, hi):
 * the latest of those remaps (0: none) and the next one.  A sample's epoch
 * is asked while forks and remaps are still being read, each of which
 * would make chain_of sort its chain again. */
static uint32_t chain_count(struct profile *p, int32_t pid, uint64_t time, uint64_t *lo,
    uint64_t *hi)
{
	uint32_t k = 0;
	struct chain_walk w = CHAIN_WALK(pid);
	const struct aspace *a;
	*lo = 0;
	*hi = UINT64_MAX;
	while ((a = chain_next(p, &w)) != NULL) {
		uint64_t upto = time < w.bound ? time : w.bound;
		uint32_t i = 0;
		for (; i < a->nrm && a->rm[i] <= upto; i++, k++)
			if (a->rm[i] > *lo)
				*lo = a->rm[i];
		if (i < a->nrm && a->rm[i] <= w.bound && a->rm[i] < *hi)
			*hi = a->rm[i];
	}
	return k;
}

uint32_t prof__epoch(struct profile *p, int32_t pid, uint64_t time)
{
	struct prof_priv *v = p->priv;
	if (!v->nremaps)
		return 0;
	if (v->ec_ok && v->ec_pid == pid && time >= v->ec_lo && time < v->ec_hi)
		return v->ec_k;          /* most samples: the span of the one before */
	v->ec_k = chain_count(p, pid, time, &v->ec_lo, &v->ec_hi);
	v->ec_pid = pid;
	v->ec_ok = 1;
	return v->ec_k;
}

void prof__epoch_forget(struct profile *p)
{
	p->priv->ec_ok = 0;
	p->priv->rm_gen++;
}

uint64_t prof__epoch_end(struct profile *p, int32_t pid, uint32_t k)
{
	struct prof_priv *v = p->priv;
	if (!v->nremaps)
		return UINT64_MAX;
	/* resolving goes through the locations of every process in turn: each
	 * process's chain is walked and sorted once (it was per location, 13 %
	 * of a flat report of dw.data) */
	const struct aspace *a = chain_of(p, pid);
	return a && a->crm_gen == v->rm_gen + 1 && k < a->ncrm ? a->crm[k] : UINT64_MAX;
}

/* The aspace whose mappings a process uses: its own, or (forked without
 * exec) its parent's, as find_map looks them up. */
struct aspace *prof__maps_of(struct profile *p, int32_t pid)
{
	for (int depth = 0; depth < 64; depth++) {
		struct aspace *a = prof__aspace(p, pid, 0);
		if (!a || a->n || a->ppid < 0)
			return a && a->n ? a : NULL;
		pid = a->ppid;
	}
	return NULL;
}

/* pc's mapping in pid: its own latest covering pc, else (forked without
 * one) its parent's as they were at its birth, as perf copies a parent's
 * mappings at FORK: what the parent maps later is not the child's. */
const struct unwind_map *prof__find_map(struct profile *p, int32_t pid, uint64_t pc,
    uint64_t until, uint64_t maxseq)
{
	uint64_t upto = UINT64_MAX;
	for (int depth = 0; depth < 64; depth++) {
		struct aspace *a = prof__aspace(p, pid, 0);
		const struct unwind_map *best = NULL;
		if (!a)
			return NULL;
		for (size_t k = ix_below(a, pc); k-- > 0;) {
			const struct unwind_map *m = &a->m[a->ix[k]];
			p->map_looks++;
			if (pc - m->start >= a->maxlen)
				break;        /* none below this one reaches pc */
			if (pc < m->end && m->time <= upto && m->time < until && m->seq <= maxseq &&
			    (!best || m->time > best->time ||
			    (m->time == best->time && m->seq > best->seq)))
				best = m;
		}
		if (best || a->ppid < 0)
			return best;
		if (a->fork_time && a->fork_time < upto)
			upto = a->fork_time;
		pid = a->ppid;
	}
	return NULL;
}

/* What a task was called at time (as perf names it). */
const char *profile__comm(struct profile *p, int32_t pid, int32_t tid, uint64_t time)
{
	/* tid -1 is the kernel's "no thread": a task already released (an
	 * exited thread's last switch); perf names it ":-1" too */
	const char *c = tid == -1 ? symtab__intern(p->st, ":-1") : prof__comm_at(p, tid, time);
	if (!c)
		c = prof__comm_at(p, pid, time);
	if (!c && pid == 0) {
		c = symtab__intern(p->st, "swapper");   /* the idle task, as perf names it */
	} else if (!c) {
		char buf[32];
		snprintf(buf, sizeof(buf), ":%d", (int)pid);
		c = symtab__intern(p->st, buf);
	}
	return c;
}

struct sym_dso *profile__main_dso(struct profile *p)
{
	struct hmap cnt = { 0 };
	uint64_t best_n = 0;
	int32_t best_pid = -1;
	int found;
	/* the process with the most samples */
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample s;
		samples__get(p->smp, i, &s);
		struct hent *e = hmap_slot(&cnt, (uint64_t)(uint32_t)s.pid, 0, &found);
		if (!e)
			break;      /* a guess from the samples counted so far */
		if (!found)
			e->v = 0;
		e->v += (uint32_t)prof_count(&s);
	}
	/* the most samples; of equal counts the lowest pid, whatever the
	 * order the samples were read in */
	for (size_t j = 0; j < cnt.cap; j++) {
		const struct hent *e = &cnt.t[j];
		int32_t pid = (int32_t)(uint32_t)e->a;
		if (e->used && pid > 0 && (e->v > best_n || (e->v == best_n && pid < best_pid))) {
			best_n = e->v;
			best_pid = pid;
		}
	}
	free(cnt.t);
	/* its program: the lowest mapped binary since its exec (programs load
	 * below their libraries and the dynamic linker) */
	for (struct aspace *a = best_pid > 0 ? prof__aspace(p, best_pid, 0) : NULL; a;
	    a = a->ppid > 0 && a->ppid != a->pid ? prof__aspace(p, a->ppid, 0) : NULL) {
		const struct unwind_map *m = NULL;
		for (size_t i = 0; i < a->n; i++)
			if (a->m[i].time >= a->exec_time && sym_dso__kind(a->m[i].dso) == SYM_DSO_ELF &&
			    (!m || a->m[i].start < m->start))
				m = &a->m[i];
		if (m)
			return m->dso;
		if (a->n)
			break;   /* mapped, but no binary */
	}
	return NULL;
}

int profile__map_offset(struct profile *p, int32_t pid, uint64_t time, uint64_t pc,
    uint64_t *off)
{
	uint64_t until = prof__epoch_end(p, pid, prof__epoch(p, pid, time));
	const struct unwind_map *m = prof__find_map(p, pid, pc, until, UINT64_MAX);
	if (!m || (sym_dso__kind(m->dso) != SYM_DSO_ELF && sym_dso__kind(m->dso) != SYM_DSO_VDSO))
		return -1;
	*off = pc - m->start + m->pgoff;
	return 0;
}
