/*
 * profile.c — loading a recording into memory and resolving it (profile.h).
 *
 * Samples keep raw pcs until the whole input is read: the writer drains
 * per-CPU rings in turn, so a sample may come before the MMAP or COMM record
 * that explains it.  At the end each distinct (process, pc) is mapped to a
 * location through the process's mappings (the latest mapping covering the
 * pc wins, by time: records of different CPUs are not in file order; a
 * forked child without its own mapping uses its parent's), each
 * distinct (binary, address) to a function, and each sample's command name
 * is the one its thread had at the sample's time.
 */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hmap.h"
#include "util/cpulist.h"
#include "profile/offcpu.h"
#include "util/printable.h"
#include "profile/profile.h"
#include "profile/samples.h"
#include "common/error.h"
#include "common/grow.h"
#include "symbols/unwind.h"
#include "util/workpool.h"

struct rstack {
	uint64_t off;             /* into pcs/flags */
	uint32_t n;
	int32_t pid;
	uint64_t hash;
	/* resolved frame caches (into fa / fb) */
	uint64_t a_off, b_off;
	uint32_t a_n, b_n;
	uint8_t a_done, a_lines, b_done;
};

/* a mapping: struct unwind_map (analysis/symbols/unwind.h), so the unwinder reads
 * the process's mappings where they are */
#define map unwind_map

struct aspace {
	int32_t pid, ppid;
	uint64_t fork_time;        /* its birth (0 unknown): its parent's later
	                            * mappings are the parent's alone */
	uint64_t exec_time;        /* its latest exec: older maps are gone */
	int exec_by_comm;          /* exec_time is from the exec's COMM, which comes
	                            * before the exec's mappings (PROCEXEC may not) */
	struct map *m;
	size_t n, cap;
};

struct cname {
	uint64_t time;
	const char *comm;
};

struct thread {
	int32_t tid;
	struct cname *h;
	size_t n, cap;
};

struct inherit {              /* a child takes its parent's name at its birth */
	uint64_t time;
	int32_t parent, child;     /* tids */
};

struct locx {                  /* inline expansion of a location */
	uint64_t off;
	uint32_t n, done;
};

/* A stack hash's first slot in a table of cap (a power of two) entries. */
#define STAB_IX(h, cap) (((h) ^ (h) >> 29) & ((cap) - 1))

struct prof_priv {
	uint64_t *pcs;             /* as recorded (pmc script prints them) */
	uint8_t *flags;
	uint32_t *locs;            /* after resolving: the loc of each pc */
	size_t npc, cappc;
	struct rstack *st;
	size_t nst, capst;
	struct stab_ent {          /* the stack table: open addressing on the */
		uint64_t h;        /* stack's hash (hmap_chain_*), which the */
		uint32_t id1;      /* perf.data reader computes while decoding; */
	} *stab;                   /* id1: stack id + 1, 0 free */
	size_t nstab, capstab;
	struct aspace *as;
	size_t nas, capas;
	struct hmap as_ix;         /* pid -> aspace */
	struct thread *th;
	size_t nth, capth;
	struct hmap th_ix;         /* tid -> thread */
	struct hmap ev_ix;         /* pmcid -> event */
	uint32_t ev_last_id, ev_last;   /* the last event_ix answer: every sample asks it,
	                                 * and a pmcid's event never changes once made */
	int ev_last_ok;
	struct hmap pr_ix;         /* (pid<<32|tid, pmcid) -> proc */
	struct hmap pcloc;         /* (pid or -1, pc | caller bit) -> loc */
	struct hmap addrloc;       /* (dso id, addr) -> loc */
	struct hmap fn_ix;         /* (dso id, name ptr) -> func */
	uint64_t mapseq;
	struct prof_frame *fa, *fb;
	size_t nfa, capfa, nfb, capfb;
	struct locx *lx;
	struct prof_frame *lxf;
	size_t nlxf, caplxf;
	struct sym_dso *unknown_dso;
	int kmap_seen;             /* the kernel's mapping (perf's MMAP) */
	struct inherit *inh;       /* applied in time order once everything is read */
	size_t ninh, capinh;
	struct offcpu_in *sw_in;   /* switch-ins, for off-CPU durations (offcpu.c) */
	size_t nswin, capswin;
	struct unwinder *uw;       /* DWARF unwinding of sampled user stacks */
	struct uw_pending {        /* samples read before their process's mappings */
		size_t sample;
		struct pmclog_ev_callchain *cc;   /* a copy, pl_ustack copied after it */
	} *uwp;
	size_t nuwp, capuwp;
	int threads;               /* prof_load_opts.threads, 0 made the CPUs we may use */
	struct workpool *pool;     /* unwinding on worker threads, once a DWARF sample came */
	pthread_mutex_t symmu;     /* p->st while the pool's unwinders use it */
	int symmu_made;
	const struct uw_job *pre;  /* the job being applied: its sample's unwinding */
	int keep_sb;               /* prof_load_opts.sideband */
	int leaf_only;             /* prof_load_opts.leaf_only */
	int zero_frames;           /* prof_load_opts.zero_frames */
	struct walk_memo *wm;      /* the latest grouped walk's groups (foreach_group) */
	int sums;                  /* prof_load_opts.sums, and the input allows it */
	struct agg *ag;            /* its entries, in the order of their first samples */
	size_t nag, capag;
	uint32_t *agt;             /* open addressing on agg.key: index + 1, 0 free */
	size_t capagt;
	struct hmap gen_ix;        /* tid -> index in tg */
	struct tgen {              /* a thread's name events (name_event), in time */
		uint64_t *ev;      /* order: ev[0 .. nev) cut time into nev + 1 spans */
		uint32_t nev, cap;
	} *tg;
	size_t ntg, captg;
	uint32_t mk_gen;           /* markers so far: a marker starts a generation too */
	int32_t gc_pid, gc_tid;    /* sample_gen's latest (pid, tid): most samples */
	struct tgen *gc_t;         /* repeat the one before them; its events */
	const struct tgen *gc_pt;  /* and its process's (NULL: none, or the same) */
	uint64_t gc_lo, gc_hi;     /* the times whose generation is gc_gen */
	uint64_t gc_gen;
	int gc_ok;
	uint32_t ag_last;          /* the entry of the latest sample: index + 1 */
	/* An allocation failed while loading: sticky, so the void handlers
	 * need not return it; profile__load and profile__feed then fail with
	 * -ENOMEM instead of delivering a profile with records missing. */
	int nomem;
	uint64_t uwpcs[PMC_CALLCHAIN_DEPTH_MAX];
	uint8_t uwflags[PMC_CALLCHAIN_DEPTH_MAX];
};

/* ---- loading ------------------------------------------------------------- */

int profile__nomem(const struct profile *p)
{
	return p->priv->nomem || samples__nomem(p->smp) || symtab__nomem(p->st) ?
	    pmc__nomem() : 0;
}

/* Mark p out of memory; NULL, for the callers that return a pointer. */
static void *nomem(struct profile *p)
{
	p->priv->nomem = 1;
	return NULL;
}

#define NO_IX PROF_NO_IX   /* an index that could not be made: out of memory */

static uint32_t event_ix_slow(struct profile *p, uint32_t pmcid);

/* The event of pmcid, made if new; NO_IX out of memory.  Inline for the
 * common answer, the last one: every sample asks. */
static inline uint32_t event_ix(struct profile *p, uint32_t pmcid)
{
	const struct prof_priv *v = p->priv;
	if (v->ev_last_ok && v->ev_last_id == pmcid)
		return v->ev_last;
	return event_ix_slow(p, pmcid);
}

static uint32_t event_ix_slow(struct profile *p, uint32_t pmcid)
{
	struct prof_priv *v = p->priv;
	int found;
	struct hent *e = hmap_slot(&v->ev_ix, pmcid, 0, &found);
	if (!e)
		return nomem(p), NO_IX;
	if (!found) {
		char name[64];
		struct prof_event *ev = realloc(p->ev, (p->nev + 1) * sizeof(*p->ev));
		if (!ev) {
			hmap_forget(&v->ev_ix, e);   /* it names no event */
			return nomem(p), NO_IX;
		}
		p->ev = ev;
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
static int same_event_other_cpu(struct profile *p, const struct pmclog_ev_pmcallocate *a,
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

static struct aspace *aspace(struct profile *p, int32_t pid, int create)
{
	struct prof_priv *v = p->priv;
	int found;
	if (!create) {
		/* lookup without inserting */
		if (!v->as_ix.cap)
			return NULL;
		size_t j = hmap_mix((uint64_t)(uint32_t)pid, 0) & (v->as_ix.cap - 1);
		while (v->as_ix.t[j].used) {
			if (v->as_ix.t[j].a == (uint64_t)(uint32_t)pid && v->as_ix.t[j].b == 0)
				return &v->as[v->as_ix.t[j].v];
			j = (j + 1) & (v->as_ix.cap - 1);
		}
		return NULL;
	}
	struct hent *e = hmap_slot(&v->as_ix, (uint64_t)(uint32_t)pid, 0, &found);
	if (!e)
		return nomem(p);
	if (!found) {
		if (GROW(v->as, v->nas, v->capas)) {
			e->used = 0;
			v->as_ix.n--;
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

static struct thread *thread(struct profile *p, int32_t tid, int create)
{
	struct prof_priv *v = p->priv;
	int found;
	if (!create) {
		if (!v->th_ix.cap)
			return NULL;
		size_t j = hmap_mix((uint64_t)(uint32_t)tid, 0) & (v->th_ix.cap - 1);
		while (v->th_ix.t[j].used) {
			if (v->th_ix.t[j].a == (uint64_t)(uint32_t)tid)
				return &v->th[v->th_ix.t[j].v];
			j = (j + 1) & (v->th_ix.cap - 1);
		}
		return NULL;
	}
	struct hent *e = hmap_slot(&v->th_ix, (uint64_t)(uint32_t)tid, 0, &found);
	if (!e)
		return nomem(p);
	if (!found) {
		if (GROW(v->th, v->nth, v->capth)) {
			e->used = 0;
			v->th_ix.n--;
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
static struct tgen *tgen_of(struct profile *p, int32_t tid)
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
static const struct tgen *tgen_find(const struct prof_priv *v, int32_t tid)
{
	const struct hmap *m = &v->gen_ix;
	if (!m->n)
		return NULL;
	for (size_t j = hmap_mix((uint64_t)(uint32_t)tid, 0) & (m->cap - 1); m->t[j].used;
	    j = (j + 1) & (m->cap - 1))
		if (m->t[j].a == (uint64_t)(uint32_t)tid && m->t[j].b == 0)
			return &v->tg[m->t[j].v];
	return NULL;
}

/* Which of t's spans time falls in: how many of its events are at or
 * before it (a name given at time names a sample at time, comm_at). */
static uint32_t span_of(const struct tgen *t, uint64_t time)
{
	uint32_t k = t->nev;
	while (k && t->ev[k - 1] > time)   /* most samples follow the last event */
		k--;
	return k;
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
	struct tgen *t = tgen_of(p, tid);
	if (!t)
		return;
	if (t->nev == t->cap) {
		uint32_t nc = t->cap ? 2 * t->cap : 2;
		uint64_t *ev = realloc(t->ev, nc * sizeof(*ev));
		if (!ev) {
			nomem(p);
			return;
		}
		t->ev = ev;
		t->cap = nc;
	}
	uint32_t k = span_of(t, time);
	memmove(t->ev + k + 1, t->ev + k, (t->nev - k) * sizeof(*t->ev));
	t->ev[k] = time;
	t->nev++;
	v->gc_ok = 0;
}

static void set_comm(struct profile *p, int32_t tid, uint64_t time, const char *name)
{
	struct thread *t;
	if (!name || !*name || tid < 0)
		return;
	t = thread(p, tid, 1);
	if (!t || GROW(t->h, t->n, t->cap)) {
		nomem(p);
		return;
	}
	t->h[t->n++] = (struct cname){ time, symtab__intern_name(p->st, name) };
	name_event(p, tid, time);
}

static const char *comm_at(struct profile *p, int32_t tid, uint64_t time)
{
	struct thread *t = thread(p, tid, 0);
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
static void add_inherit(struct profile *p, uint64_t time, int32_t parent, int32_t child)
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

static void apply_inherits(struct profile *p)
{
	struct prof_priv *v = p->priv;
	if (!v->ninh)
		return;   /* qsort(NULL, 0) is undefined behaviour */
	qsort(v->inh, v->ninh, sizeof(*v->inh), inherit_cmp);
	for (size_t i = 0; i < v->ninh; i++) {
		const struct inherit *h = &v->inh[i];
		const struct thread *ct = thread(p, h->child, 0);
		const char *c = comm_at(p, h->parent, h->time);
		int named = 0;
		for (size_t k = 0; ct && k < ct->n && !named; k++)
			named = ct->h[k].time <= h->time;
		if (c && !named)
			set_comm(p, h->child, h->time, c);
	}
	v->ninh = 0;
}

/* Are a stack's stored flags (masked) those of flags[0..n) masked?  Eight
 * at a time, the rest in one overlapping word (most chains are a few
 * frames long): every sample of a repeated stack compares them. */
static inline uint64_t flags_word8(const uint8_t *b)
{
	uint64_t w;
	memcpy(&w, b, 8);
	return w;
}

static inline uint32_t flags_word4(const uint8_t *b)
{
	uint32_t w;
	memcpy(&w, b, 4);
	return w;
}

static int flags_equal(const uint8_t *stored, const uint8_t *flags, uint32_t n)
{
	const uint64_t m = 0x0101010101010101ull * PROF_PC_FLAGS;
	if (n >= 8) {
		for (uint32_t i = 0; i + 8 <= n; i += 8)
			if (flags_word8(stored + i) != (flags_word8(flags + i) & m))
				return 0;
		return flags_word8(stored + n - 8) == (flags_word8(flags + n - 8) & m);
	}
	if (n >= 4)
		return flags_word4(stored) == (flags_word4(flags) & (uint32_t)m) &&
		    flags_word4(stored + n - 4) == (flags_word4(flags + n - 4) & (uint32_t)m);
	for (uint32_t i = 0; i < n; i++)
		if (stored[i] != (flags[i] & PROF_PC_FLAGS))
			return 0;
	return 1;
}

/* Is stored stack s the stack (pid, pcs, flags) of n frames? */
static inline int stack_is(const struct prof_priv *v, const struct rstack *s, int32_t pid,
    const uint64_t *pcs, const uint8_t *flags, uint32_t n)
{
	if (s->n != n || s->pid != pid)
		return 0;
	if (n == 1)                   /* a flat report's leaf */
		return v->pcs[s->off] == pcs[0] && v->flags[s->off] == (flags[0] & PROF_PC_FLAGS);
	return memcmp(v->pcs + s->off, pcs, n * 8) == 0 && flags_equal(v->flags + s->off, flags, n);
}

/* Room for one more stack in the stack table (rehashed by the stored
 * hashes): 0, or -1 out of memory with the table as it was. */
static int stab_room(struct prof_priv *v)
{
	if ((v->nstab + 1) * 2 <= v->capstab)
		return 0;
	size_t nc = v->capstab ? v->capstab * 2 : 4096;
	struct stab_ent *t = calloc(nc, sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < v->capstab; i++) {
		if (!v->stab[i].id1)
			continue;
		size_t j = STAB_IX(v->stab[i].h, nc);
		while (t[j].id1)
			j = (j + 1) & (nc - 1);
		t[j] = v->stab[i];
	}
	free(v->stab);
	v->stab = t;
	v->capstab = nc;
	return 0;
}

/* The stack (pid, pcs, flags) whose hash is h (hmap_chain_*): its id, made
 * if new; NO_IX out of memory. */
static uint32_t intern_hashed(struct profile *p, int32_t pid, const uint64_t *pcs,
    const uint8_t *flags, uint32_t n, uint64_t h)
{
	struct prof_priv *v = p->priv;
	struct stab_ent *e;

	if (stab_room(v) < 0)
		return nomem(p), NO_IX;
	/* linear probing on the hash; equal hashes are compared */
	for (size_t j = STAB_IX(h, v->capstab);; j = (j + 1) & (v->capstab - 1)) {
		e = &v->stab[j];
		if (!e->id1)
			break;
		if (e->h != h)
			continue;
		if (stack_is(v, &v->st[e->id1 - 1], pid, pcs, flags, n))
			return e->id1 - 1;
	}
	size_t cap = v->cappc;
	while (v->npc + n > cap)
		cap = cap ? cap * 2 : 4096;
	if (cap != v->cappc) {
		uint64_t *pc2 = realloc(v->pcs, cap * sizeof(*v->pcs));
		if (pc2)
			v->pcs = pc2;
		uint8_t *fl2 = pc2 ? realloc(v->flags, cap) : NULL;
		if (fl2)
			v->flags = fl2;
		if (!fl2)     /* v->pcs may have grown; v->cappc still fits both */
			return nomem(p), NO_IX;
		v->cappc = cap;
	}
	if (GROW(v->st, v->nst, v->capst))
		return nomem(p), NO_IX;
	struct rstack *s = &v->st[v->nst];
	memset(s, 0, sizeof(*s));
	s->off = v->npc;
	s->n = n;
	s->pid = pid;
	s->hash = h;
	memcpy(v->pcs + v->npc, pcs, n * sizeof(*pcs));
	for (uint32_t i = 0; i < n; i++)
		v->flags[v->npc + i] = flags[i] & PROF_PC_FLAGS;
	v->npc += n;
	e->h = h;
	e->id1 = (uint32_t)++v->nst;
	v->nstab++;
	return e->id1 - 1;
}

static uint32_t intern_stack(struct profile *p, int32_t pid, const uint64_t *pcs,
    const uint8_t *flags, uint32_t n)
{
	uint64_t h = HMAP_CHAIN_SEED;
	for (uint32_t i = 0; i < n; i++)
		h = hmap_chain_step(h, pcs[i], flags[i] & PROF_PC_FLAGS);
	return intern_hashed(p, pid, pcs, flags, n, hmap_chain_end(h, pid, n));
}

static struct prof_proc *proc(struct profile *p, int32_t pid, int32_t tid, uint32_t pmcid)
{
	int found;
	struct hent *e = hmap_slot(&p->priv->pr_ix, ((uint64_t)(uint32_t)pid << 32) |
	    (uint32_t)tid, pmcid, &found);
	if (!e)
		return nomem(p);
	if (!found) {
		if (GROW(p->pr, p->npr, p->cappr)) {
			e->used = 0;
			p->priv->pr_ix.n--;
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
	snprintf(want, sizeof(want), "jit-%d.dump", (int)pid);
	return strcmp(b ? b + 1 : path, want) == 0;
}

static void add_map(struct profile *p, const struct pmclog_ev_map_in *mi, uint64_t time)
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
	a = aspace(p, mi->pl_pid, 1);
	if (!a || GROW(a->m, a->n, a->cap)) {
		nomem(p);
		return;
	}
	if (!(d = symtab__dso(p->st, mi->pl_pathname, mi->pl_buildid, mi->pl_buildid_len))) {
		nomem(p);
		return;
	}
	a->m[a->n++] = (struct map){ .start = mi->pl_start, .end = mi->pl_start + mi->pl_len,
	    .pgoff = mi->pl_pgoff, .seq = ++p->priv->mapseq, .dso = d, .prot = mi->pl_prot,
	    .time = time };
}

/* The aspace whose mappings a process uses: its own, or (forked without
 * exec) its parent's, as find_map looks them up. */
static struct aspace *maps_of(struct profile *p, int32_t pid)
{
	for (int depth = 0; depth < 64; depth++) {
		struct aspace *a = aspace(p, pid, 0);
		if (!a || a->n || a->ppid < 0)
			return a && a->n ? a : NULL;
		pid = a->ppid;
	}
	return NULL;
}

static const struct map *find_map(struct profile *p, int32_t pid, uint64_t pc);

/* Count a truncated stack under the binary where its unwinding stopped and
 * why (the report's per-binary warning lines). */
static void count_stop(struct profile *p, int32_t pid, enum unwind_stop why, uint64_t pc)
{
	const struct map *m = pc ? find_map(p, pid, pc) : NULL;
	const char *dso = m ? sym_dso__path(m->dso) : "[unknown]";
	const char *w = unwind__stop_str(why);
	for (size_t i = 0; i < p->nuwstop; i++)
		if (p->uwstop[i].why == w && strcmp(p->uwstop[i].dso, dso) == 0) {
			p->uwstop[i].samples++;
			return;
		}
	if (!(dso = symtab__intern_name(p->st, dso)) || GROW(p->uwstop, p->nuwstop, p->capuwstop)) {
		nomem(p);
		return;
	}
	p->uwstop[p->nuwstop++] = (struct prof_uwstop){ dso, w, 1 };
}

/* A sample to unwind on a worker (or one queued behind such samples, to
 * be applied in input order: prof_priv.pool).  In the pool's batch, it is
 * followed by the record's user stack copy, then room for the unwound pcs. */
enum { JOB_EV, JOB_SINK, JOB_PENDING };
struct uw_job {
	int kind;                  /* JOB_EV: a CALLCHAIN record for handle(); JOB_SINK:
	                            * a perf.data sample for take_sample; JOB_PENDING:
	                            * prof_priv.uwp[pending] */
	int unwind;                /* a worker unwinds it (its process has mappings) */
	size_t pending;
	int32_t space;             /* the mappings' aspace, as maps_of gave them */
	const struct map *maps;
	size_t nmaps;
	uint32_t nk;               /* the kernel's part of the chain */
	int n, complete;           /* the unwinding: unwind__user's answers */
	enum unwind_stop stop;
	uint64_t stop_pc;
	const struct pmclog_ev_callchain *ext;  /* JOB_PENDING: the kept copy */
	union {
		struct pmclog_ev ev;              /* JOB_EV, pl_ustack after the job */
		struct perfdata_sample ps;        /* JOB_SINK, pcs then flags after it */
	} u;
};

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* What follows a job: the stack copy (JOB_EV) or the pcs and flags
 * (JOB_SINK), then the unwound pcs. */
static unsigned char *job_tail(const struct uw_job *j)
{
	return (unsigned char *)(uintptr_t)(j + 1);
}

static uint64_t *job_pcs(const struct uw_job *j)
{
	return (uint64_t *)(uintptr_t)(job_tail(j) + (j->kind == JOB_EV ?
	    align8(j->u.ev.pl_u.pl_cc.pl_ustack_len) : 0));
}

static const struct pmclog_ev_callchain *job_cc(struct uw_job *j)
{
	struct pmclog_ev_callchain *cc = &j->u.ev.pl_u.pl_cc;
	if (j->kind == JOB_PENDING)
		return j->ext;
	cc->pl_ustack = cc->pl_ustack_len ? job_tail(j) : NULL;
	return cc;
}

/* The kernel's part of a chain of npc pcs: how many come before the user's. */
static uint32_t kernel_part(const struct pmclog_ev_callchain *cc, uint32_t npc)
{
	uint32_t nk = 0;
	while (nk < npc && !(cc->pl_pcflags[nk] & PMC_CC_F_USERSPACE))
		nk++;
	return nk;
}

/* A sample with the user registers and stack (--call-graph dwarf): the
 * kernel part of its chain as recorded, then the user part unwound from
 * DWARF CFI.  Counts the samples whose unwinding stopped early.  A sample
 * a worker unwound (prof_priv.pre) takes its answers. */
static uint32_t unwind_sample(struct profile *p, const struct pmclog_ev_callchain *cc,
    const uint64_t **pcs, const uint8_t **flags, uint32_t npc)
{
	struct prof_priv *v = p->priv;
	const struct uw_job *j = v->pre;
	struct aspace *a = j ? NULL : maps_of(p, (int32_t)cc->pl_pid);
	uint32_t nk = kernel_part(cc, npc);
	int n, complete = 0, mapped = j ? j->unwind : a != NULL;
	enum unwind_stop why = UNWIND_NO_REGS;
	uint64_t stop_pc = 0;

	if (j) {
		n = j->n;
		complete = j->complete;
		why = j->stop;
		stop_pc = j->stop_pc;
		if (n > 0)
			memcpy(v->uwpcs + nk, job_pcs(j), (size_t)n * sizeof(uint64_t));
	} else {
		if (!v->uw && !(v->uw = unwind__new()))
			return npc;
		n = a ? unwind__mark(a->m, a->n), unwind__user(v->uw, a->pid, a->m, a->n, cc,
		    v->uwpcs + nk, PMC_CALLCHAIN_DEPTH_MAX - (int)nk, &complete) : 0;
		why = unwind__last_stop(v->uw, &stop_pc);
	}
	p->unwind_samples++;
	if (!complete) {
		p->unwind_truncated++;
		if (mapped)
			count_stop(p, (int32_t)cc->pl_pid, why, stop_pc);
	}
	if (n <= 0)
		return npc;               /* nothing unwound: the chain as recorded */
	memcpy(v->uwpcs, cc->pl_pc, nk * sizeof(uint64_t));
	memset(v->uwflags, 0, nk);
	memset(v->uwflags + nk, PMC_CC_F_USERSPACE | PROF_PC_UNWOUND, (size_t)n);
	*pcs = v->uwpcs;
	*flags = v->uwflags;
	return nk + (uint32_t)n;
}

/* Records of a process can come before its mappings (each CPU's ring is
 * drained in turn): keep such a sample's registers and stack and unwind it
 * when everything has been read (profile__load's end). */
static void unwind_later(struct profile *p, const struct pmclog_ev_callchain *cc)
{
	struct prof_priv *v = p->priv;
	struct pmclog_ev_callchain *c = malloc(sizeof(*c) + cc->pl_ustack_len);
	if (!c || GROW(v->uwp, v->nuwp, v->capuwp)) {
		free(c);
		nomem(p);
		return;
	}
	*c = *cc;
	if (cc->pl_ustack_len)
		memcpy(c + 1, cc->pl_ustack, cc->pl_ustack_len);
	c->pl_ustack = (const unsigned char *)(c + 1);
	c->pl_raw = NULL;                 /* not kept: the unwinder does not read it */
	c->pl_raw_len = 0;
	v->uwp[v->nuwp++] = (struct uw_pending){ p->ns, c };
}

/* Pending sample i, unwound now (or by a worker: prof_priv.pre). */
static void pending_one(struct profile *p, size_t i)
{
	struct prof_priv *v = p->priv;
	const struct pmclog_ev_callchain *cc = v->uwp[i].cc;
	const uint64_t *pcs = cc->pl_pc;
	const uint8_t *fl = cc->pl_pcflags;
	uint32_t npc = unwind_sample(p, cc, &pcs, &fl, cc->pl_npc);
	struct prof_sample s;
	samples__get(p->smp, v->uwp[i].sample, &s);
	s.stack = intern_stack(p, (int32_t)cc->pl_pid, pcs, fl, npc);
	(void)samples__set(p->smp, v->uwp[i].sample, &s);   /* sticky: profile__nomem */
}

static struct uw_job *pool_job(struct profile *p, int kind, const struct pmclog_ev_callchain *cc,
    uint32_t npc, size_t tail);

static void unwind_pending(struct profile *p)
{
	struct prof_priv *v = p->priv;
	if (v->pool) {
		workpool__drain(v->pool);   /* the samples queued may add pending ones */
		for (size_t i = 0; i < v->nuwp && !v->nomem; i++) {
			struct uw_job *j = pool_job(p, JOB_PENDING, v->uwp[i].cc,
			    v->uwp[i].cc->pl_npc, 0);
			if (j)
				j->pending = i;
		}
		workpool__drain(v->pool);
	} else {
		for (size_t i = 0; i < v->nuwp; i++)
			pending_one(p, i);
	}
	for (size_t i = 0; i < v->nuwp; i++)
		free(v->uwp[i].cc);
	free(v->uwp);
	v->uwp = NULL;
	v->nuwp = v->capuwp = 0;
}

static void take_header(struct profile *p, const struct pmclog_ev_header *h)
{
	struct prof_header *o = &p->hdr;
	o->have = 1;
	/* shown only, so kept printable (printable.h); the kernel's release
	 * is matched against files, so kept as recorded */
	printable__copy(h->pl_libversion, o->libversion, sizeof(o->libversion));
	printable__copy(h->pl_hostname, o->hostname, sizeof(o->hostname));
	snprintf(o->kernel, sizeof(o->kernel), "%s", h->pl_kernel ? h->pl_kernel : "");
	printable__copy(h->pl_cpudesc, o->cpudesc, sizeof(o->cpudesc));
	printable__copy(h->pl_cmdline, o->cmdline, sizeof(o->cmdline));
	o->start_realtime = h->pl_start_realtime;
	o->start_clock = h->pl_start_clock;
	o->arch = h->pl_arch;
	o->format_major = h->pl_format_major;
	o->format_minor = h->pl_format_minor;
	symtab__set_kernel_release(p->st, o->kernel);
}

static struct prof_side *side(struct profile *p, enum prof_side_type type, uint64_t time,
    int32_t pid, int32_t tid)
{
	if (GROW(p->sb, p->nsb, p->capsb))
		return nomem(p);
	struct prof_side *b = &p->sb[p->nsb++];
	memset(b, 0, sizeof(*b));
	*b = (struct prof_side){ .time = time, .type = type, .pid = pid, .tid = tid, .ppid = -1,
	    .ptid = -1 };
	return b;
}

/* The task and mapping records pmc script shows (perf script's
 * --show-task-events, --show-mmap-events). */
static void keep_side(struct profile *p, const struct pmclog_ev *ev)
{
	uint64_t t = ev->pl_time;
	struct prof_side *b;
	switch (ev->pl_type) {
	case PMCLOG_TYPE_COMM: {
		const struct pmclog_ev_comm *c = &ev->pl_u.pl_cm;
		if (!(b = side(p, PROF_SB_COMM, t, c->pl_pid, c->pl_tid)))
			break;
		b->exec = !!(c->pl_flags & PMCLOG_COMM_F_EXEC);
		b->name = symtab__intern_name(p->st, c->pl_comm);
		break;
	}
	case PMCLOG_TYPE_PROCFORK: {
		const struct pmclog_ev_procfork *f = &ev->pl_u.pl_f;
		if (!(b = side(p, PROF_SB_FORK, t, f->pl_newpid, f->pl_newtid > 0 ? f->pl_newtid :
		    f->pl_newpid)))
			break;
		b->ppid = f->pl_oldpid;
		b->ptid = f->pl_oldtid > 0 ? f->pl_oldtid : f->pl_oldpid;
		break;
	}
	case PMCLOG_TYPE_THR_CREATE:
		/* a named one is a thread that existed when recording began */
		if (!ev->pl_u.pl_tc.pl_tdname[0] &&
		    (b = side(p, PROF_SB_FORK, t, ev->pl_u.pl_tc.pl_pid, ev->pl_u.pl_tc.pl_tid))) {
			b->ppid = ev->pl_u.pl_tc.pl_pid;
		}
		break;
	case PMCLOG_TYPE_THR_EXIT:
		side(p, PROF_SB_EXIT, t, ev->pl_u.pl_te.pl_pid, ev->pl_u.pl_te.pl_tid);
		break;
	case PMCLOG_TYPE_MAP_IN: {
		const struct pmclog_ev_map_in *mi = &ev->pl_u.pl_mi;
		if (!(b = side(p, PROF_SB_MMAP, t, mi->pl_pid, mi->pl_pid)))
			break;
		b->start = mi->pl_start;
		b->len = mi->pl_len;
		b->pgoff = mi->pl_pgoff;
		b->prot = mi->pl_prot;
		b->name = symtab__intern_name(p->st, mi->pl_pathname);   /* shown, not opened */
		break;
	}
	default:
		break;
	}
}

/* Store sample s (of event s->ev): the one place samples are added. */
static void add_sample(struct profile *p, const struct prof_sample *s)
{
	uint64_t t = s->time;
	if (samples__append(p->smp, s) < 0) {
		nomem(p);
		return;
	}
	p->ns++;
	p->ev[s->ev].samples += prof_count(s);
	p->ev[s->ev].period += prof_weight(s);
	if (t && (!p->first_time || t < p->first_time))
		p->first_time = t;   /* 0 is no time (an attr without it) */
	if (t > p->last_time)
		p->last_time = t;
}

static void sum_sample(struct profile *p, const struct perfdata_sample *ps, uint32_t e);

static void handle(struct profile *p, const struct pmclog_ev *ev)
{
	uint64_t t = ev->pl_time;
	switch (ev->pl_type) {
	case PMCLOG_TYPE_HEADER:
		take_header(p, &ev->pl_u.pl_h);
		break;
	case PMCLOG_TYPE_PMCALLOCATE: {
		const struct pmclog_ev_pmcallocate *a = &ev->pl_u.pl_a;
		const char *name = symtab__intern_name(p->st, a->pl_evname && *a->pl_evname ?
		    a->pl_evname : (pmc_name_of_event((enum pmc_event)a->pl_event) ?
		    pmc_name_of_event((enum pmc_event)a->pl_event) : "?"));
		if (same_event_other_cpu(p, a, name))
			break;
		uint32_t ix = event_ix(p, a->pl_pmcid);   /* may move p->ev */
		if (ix == NO_IX)
			break;
		struct prof_event *e = &p->ev[ix];
		e->name = name;
		e->rate = a->pl_rate;
		e->freq = (int)a->pl_freq;
		e->mode = a->pl_mode;
		e->flags = a->pl_flags;
		e->percpu = a->pl_cpu >= 0 && PMC_IS_SYSTEM_MODE((enum pmc_mode)a->pl_mode);
		break;
	}
	case PMCLOG_TYPE_PMCALLOCATEDYN: {
		uint32_t ix = event_ix(p, ev->pl_u.pl_ad.pl_pmcid);
		if (ix == NO_IX)
			break;
		struct prof_event *e = &p->ev[ix];
		e->name = symtab__intern_name(p->st, ev->pl_u.pl_ad.pl_evname);
		break;
	}
	case PMCLOG_TYPE_CALLCHAIN: {
		const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
		uint32_t e;
		if (cc->pl_npc == 0)
			break;
		if ((e = event_ix(p, cc->pl_pmcid)) == NO_IX)
			break;
		/* a frame-pointer walk ends in a 0 return address: not a frame */
		uint32_t npc = cc->pl_npc;
		const uint64_t *pcs = cc->pl_pc;
		const uint8_t *fl = cc->pl_pcflags;
		while (npc > 1 && cc->pl_pc[npc - 1] == 0 && !p->priv->zero_frames)
			npc--;
		/* a flat report shows each sample's pc only: a DWARF sample's
		 * stack is not unwound (nor its bytes read) then; its pc[0] is
		 * the sampled pc the unwinder would start from */
		if (p->priv->leaf_only)
			npc = 1;
		if (p->priv->sums && (p->priv->leaf_only || !cc->pl_nuregs)) {
			/* a pmc log's sample, summed as the perf.data path's are */
			uint64_t h = HMAP_CHAIN_SEED;
			for (uint32_t i = 0; i < npc; i++)
				h = hmap_chain_step(h, pcs[i], fl[i] & PROF_PC_FLAGS);
			struct perfdata_sample ps = { .pmcid = cc->pl_pmcid, .pid = cc->pl_pid,
			    .tid = cc->pl_tid, .cpu = cc->pl_cpu, .time = t, .period = cc->pl_period,
			    .npc = npc, .pcs = pcs, .flags = fl,
			    .hash = hmap_chain_end(h, (int32_t)cc->pl_pid, npc) };
			sum_sample(p, &ps, e);
			break;
		}
		if (cc->pl_nuregs && !maps_of(p, (int32_t)cc->pl_pid))
			unwind_later(p, cc);
		else if (cc->pl_nuregs)
			npc = unwind_sample(p, cc, &pcs, &fl, npc);
		struct prof_sample s = { .stack = intern_stack(p, (int32_t)cc->pl_pid, pcs, fl, npc),
		    .ev = (uint16_t)e, .cpu = (uint16_t)cc->pl_cpu, .pid = (int32_t)cc->pl_pid,
		    .tid = (int32_t)cc->pl_tid, .time = t, .period = cc->pl_period };
		add_sample(p, &s);
		break;
	}
	case PMCLOG_TYPE_DROPNOTIFY: {
		const struct pmclog_ev_dropnotify *d = &ev->pl_u.pl_dn;
		if (d->pl_reason == PMCLOG_DROP_CORRUPT)
			break;   /* bytes, not samples */
		if (d->pl_pmcid != PMC_ID_INVALID) {
			uint32_t ix = event_ix(p, d->pl_pmcid);
			if (ix != NO_IX)
				p->ev[ix].lost += d->pl_count;
		}
		else
			p->lost_unknown += d->pl_count;
		break;
	}
	case PMCLOG_TYPE_MAP_IN:
		add_map(p, &ev->pl_u.pl_mi, t);
		break;
	case PMCLOG_TYPE_PROCFORK: {
		const struct pmclog_ev_procfork *f = &ev->pl_u.pl_f;
		struct aspace *a = aspace(p, f->pl_newpid, 1);
		if (!a)
			break;
		a->ppid = f->pl_oldpid;
		a->fork_time = t;
		add_inherit(p, t, f->pl_oldtid > 0 ? f->pl_oldtid : f->pl_oldpid,
		    f->pl_newtid > 0 ? f->pl_newtid : f->pl_newpid);
		break;
	}
	case PMCLOG_TYPE_PROCEXEC: {
		struct aspace *a = aspace(p, (int32_t)ev->pl_u.pl_x.pl_pid, 1);
		if (!a)
			break;
		/* The exec's COMM (the kernel's name: "python3" for the
		 * python3 -> python3.11 link, as perf shows) names it; the
		 * executable's file name only where no COMM came (hwpmc logs). */
		if (!a->exec_by_comm) {
			a->exec_time = t;
			set_comm(p, ev->pl_u.pl_x.pl_tid > 0 ? ev->pl_u.pl_x.pl_tid :
			    ev->pl_u.pl_x.pl_pid, t, ev->pl_u.pl_x.pl_pathname[0] == '/' ?
			    strrchr(ev->pl_u.pl_x.pl_pathname, '/') + 1 : ev->pl_u.pl_x.pl_pathname);
		}
		a->exec_by_comm = 0;
		break;
	}
	case PMCLOG_TYPE_COMM:
		set_comm(p, ev->pl_u.pl_cm.pl_tid, t, ev->pl_u.pl_cm.pl_comm);
		if ((ev->pl_u.pl_cm.pl_flags & PMCLOG_COMM_F_EXEC) && ev->pl_u.pl_cm.pl_pid > 0) {
			struct aspace *a = aspace(p, ev->pl_u.pl_cm.pl_pid, 1);
			if (!a)
				break;
			a->exec_time = t;
			a->exec_by_comm = 1;
		}
		break;
	case PMCLOG_TYPE_THR_CREATE:
		if (ev->pl_u.pl_tc.pl_tdname[0])
			set_comm(p, ev->pl_u.pl_tc.pl_tid, t, ev->pl_u.pl_tc.pl_tdname);
		else
			add_inherit(p, t, ev->pl_u.pl_tc.pl_pid, ev->pl_u.pl_tc.pl_tid);
		break;
	case PMCLOG_TYPE_PROC_CREATE:
		set_comm(p, ev->pl_u.pl_pc.pl_pid, t, ev->pl_u.pl_pc.pl_pcomm);
		break;
	case PMCLOG_TYPE_USERDATA:
		if (GROW(p->mk, p->nmk, p->capmk)) {
			nomem(p);
			break;
		}
		p->mk[p->nmk++] = (struct prof_marker){ t, ev->pl_u.pl_u.pl_userdata };
		p->priv->mk_gen++;     /* print_markers counts samples between them */
		p->priv->gc_ok = 0;
		break;
	case PMCLOG_TYPE_PROCEXIT: {
		const struct pmclog_ev_procexit *x = &ev->pl_u.pl_e;
		struct prof_proc *pr = proc(p, (int32_t)x->pl_pid, x->pl_tid, x->pl_pmcid);
		if (pr)
			pr->exit_value += x->pl_value;
		break;
	}
	case PMCLOG_TYPE_PROCCSW: {
		const struct pmclog_ev_proccsw *c = &ev->pl_u.pl_c;
		struct prof_proc *pr = proc(p, c->pl_pid, c->pl_tid, c->pl_pmcid);
		if (pr)
			pr->csw_value += c->pl_value;
		break;
	}
	case PMCLOG_TYPE_SWITCH: {
		const struct pmclog_ev_switch *w = &ev->pl_u.pl_sw;
		if (!(w->pl_flags & PMCLOG_SWITCH_F_OUT)) {
			if (GROW(p->priv->sw_in, p->priv->nswin, p->priv->capswin)) {
				nomem(p);
				break;
			}
			p->priv->sw_in[p->priv->nswin++] = (struct offcpu_in){ w->pl_tid, t };
		}
		break;
	}
	case PMCLOG_TYPE_KSYMSRC:
		symtab__set_kernel_release(p->st, ev->pl_u.pl_ks.pl_release);
		symtab__set_kernel_buildid(p->st, ev->pl_u.pl_ks.pl_buildid,
		    ev->pl_u.pl_ks.pl_buildid_len);
		break;
	case PMCLOG_TYPE_KSYMBOL:
		if (!(ev->pl_u.pl_ksym.pl_flags & 1))
			symtab__add_ksym(p->st, ev->pl_u.pl_ksym.pl_addr, ev->pl_u.pl_ksym.pl_len,
			    ev->pl_u.pl_ksym.pl_name);
		break;
	default:
		break;
	}
}

struct profile *profile__new(const struct symtab_opts *so)
{
	static const struct symtab_opts dflt = { .demangle = 1 };
	struct profile *p = calloc(1, sizeof(*p));

	if (!p || !(p->priv = calloc(1, sizeof(*p->priv))) || !(p->smp = samples__new())) {
		if (p)
			free(p->priv);
		free(p);
		return NULL;
	}
	p->st = symtab__new(so ? so : &dflt);
	return p;
}

int profile__feed(struct profile *p, const struct pmclog_ev *ev)
{
	struct prof_priv *v = p->priv;

	p->records++;
	if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN)
		return 1;
	handle(p, ev);
	if (profile__nomem(p))
		return -ENOMEM;
	/* Births are applied at once: a live reader cannot wait for the end
	 * (records of one process mostly arrive in order). */
	apply_inherits(p);
	/* A program counter resolved before its mapping arrived, or in the
	 * image a process has left by exec, would keep its stale location:
	 * forget the (pid, pc) cache, not the (binary, address) one. */
	if (ev->pl_type == PMCLOG_TYPE_MAP_IN || ev->pl_type == PMCLOG_TYPE_PROCEXEC ||
	    (ev->pl_type == PMCLOG_TYPE_COMM && (ev->pl_u.pl_cm.pl_flags & PMCLOG_COMM_F_EXEC))) {
		free(v->pcloc.t);
		memset(&v->pcloc, 0, sizeof(v->pcloc));
	}
	return 0;
}

uint32_t profile__event(struct profile *p, uint32_t pmcid)
{
	return event_ix(p, pmcid);
}

struct loading {
	struct profile *p;
	const struct prof_load_opts *o;
};

/* One record read: counted, and the progress told every 65536. */
static void loaded(struct profile *p, const struct prof_load_opts *o)
{
	p->records++;
	if (o && o->progress && (p->records & 0xffff) == 0)
		o->progress(o->progress_arg, p->records);
}

/* ---- sums (prof_load_opts.sums) -------------------------------------------
 *
 * A report adds its samples up per (stack, event, CPU, pid, tid, name):
 * profile__foreach_group's groups.  With sums, the samples are added up as
 * they are read, into one entry per (stack, event, CPU, pid, tid) and
 * naming generation, and only the entries are stored: no per-sample store,
 * no per-sample walk.  The name is the one thing not known while reading
 * (names come from COMM records and births, applied at the end, in time
 * order).  A thread's samples are summed per span of time between the
 * name events of the thread and of its process known so far (sample_gen,
 * by the sample's time), and a marker starts a generation too
 * (print_markers counts samples between markers); sums_named_once checks
 * at the end that each entry's samples, from its first time to its last,
 * had one name and lay between the same markers.  One that did not (a
 * thread sampled just after its exec on one CPU while its COMM record sat
 * in another CPU's part of the round, read later) makes profile__load read
 * the input again, summed in time order or sample by sample: the result is
 * the same either way.
 */
struct agg {
	uint64_t key;                 /* the chain's hash, with the rest mixed in */
	uint64_t gen;                 /* sample_gen */
	uint32_t stack;
	uint16_t ev, cpu;
	int32_t pid, tid;
	uint64_t count, weight, tmin, tmax;
	uint64_t tfirst;              /* the earliest time that is not 0 (add_sample) */
};

/* The naming generation of a sample of (pid, tid) at time: the spans
 * between its thread's name events and its process's (a thread without
 * names of its own shows its process's) that time falls in, each named by
 * its start, and the markers so far. */
static uint64_t sample_gen(struct profile *p, int32_t pid, int32_t tid, uint64_t time)
{
	struct prof_priv *v = p->priv;
	if (v->gc_ok && v->gc_pid == pid && v->gc_tid == tid && time >= v->gc_lo &&
	    time < v->gc_hi)
		return v->gc_gen;         /* most samples: the span of the one before */
	if (!v->gc_ok || v->gc_pid != pid || v->gc_tid != tid) {
		v->gc_pid = pid;
		v->gc_tid = tid;
		v->gc_t = tgen_of(p, tid);
		v->gc_pt = tid == pid ? NULL : tgen_find(v, pid);   /* after tgen_of: tg may move */
		v->gc_ok = v->gc_t != NULL;
		if (!v->gc_ok)
			return 0;
	}
	const struct tgen *t = v->gc_t, *pt = v->gc_pt;
	uint32_t k = span_of(t, time), kp = pt ? span_of(pt, time) : 0;
	uint64_t lo = k ? t->ev[k - 1] : 0, plo = kp ? pt->ev[kp - 1] : 0;
	uint64_t hi = k < t->nev ? t->ev[k] : UINT64_MAX;
	if (pt && kp < pt->nev && pt->ev[kp] < hi)
		hi = pt->ev[kp];
	v->gc_lo = lo > plo ? lo : plo;
	v->gc_hi = hi;
	v->gc_gen = hmap_mix(lo, plo) ^ (uint64_t)v->mk_gen * 0x9E3779B97F4A7C15ull;
	return v->gc_gen;
}

/* Room for one more entry in the table: 0, or -1 out of memory. */
static int sums_room(struct prof_priv *v)
{
	if ((v->nag + 1) * 2 <= v->capagt)
		return 0;
	size_t nc = v->capagt ? v->capagt * 2 : 1024;
	uint32_t *t = calloc(nc, sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < v->nag; i++) {
		size_t j = v->ag[i].key & (nc - 1);
		while (t[j])
			j = (j + 1) & (nc - 1);
		t[j] = (uint32_t)i + 1;
	}
	free(v->agt);
	v->agt = t;
	v->capagt = nc;
	return 0;
}

/* Add sample ps of event e to its entry, made if new (ps->hash is the
 * chain's hmap_chain_* hash, as intern_hashed takes it). */
static void sum_sample(struct profile *p, const struct perfdata_sample *ps, uint32_t e)
{
	struct prof_priv *v = p->priv;
	int32_t pid = (int32_t)ps->pid, tid = (int32_t)ps->tid;
	uint16_t cpu = (uint16_t)ps->cpu;
	uint64_t gen = sample_gen(p, pid, tid, ps->time);
	struct agg *a;
	size_t j;

	/* most samples repeat the latest one's entry: no hash, no probe */
	if (v->ag_last) {
		a = &v->ag[v->ag_last - 1];
		if (a->tid == tid && a->cpu == cpu && a->ev == e && a->gen == gen &&
		    v->st[a->stack].hash == ps->hash &&
		    stack_is(v, &v->st[a->stack], pid, ps->pcs, ps->flags, ps->npc))
			goto add;
	}
	uint64_t key = hmap_mix(ps->hash ^ gen, (uint64_t)(uint32_t)tid << 32 |
	    (uint64_t)cpu << 16 | e);
	if (sums_room(v) < 0) {
		nomem(p);
		return;
	}
	for (j = key & (v->capagt - 1); v->agt[j]; j = (j + 1) & (v->capagt - 1)) {
		a = &v->ag[v->agt[j] - 1];
		if (a->key == key && a->tid == tid && a->cpu == cpu && a->ev == e &&
		    a->gen == gen && a->pid == pid &&
		    stack_is(v, &v->st[a->stack], pid, ps->pcs, ps->flags, ps->npc))
			goto found;
	}
	uint32_t stack = intern_hashed(p, pid, ps->pcs, ps->flags, ps->npc, ps->hash);
	if (stack == NO_IX || GROW(v->ag, v->nag, v->capag)) {
		nomem(p);
		return;
	}
	a = &v->ag[v->nag];
	*a = (struct agg){ .key = key, .gen = gen, .stack = stack, .ev = (uint16_t)e,
	    .cpu = cpu, .pid = pid, .tid = tid, .tmin = ps->time, .tmax = ps->time,
	    .tfirst = UINT64_MAX };
	v->agt[j] = (uint32_t)++v->nag;
found:
	v->ag_last = (uint32_t)(a - v->ag) + 1;
add:
	a->count++;
	a->weight += ps->period ? ps->period : 1;     /* prof_weight (mod 2^64, as
	                                               * the samples' sum) */
	if (ps->time < a->tmin)
		a->tmin = ps->time;
	if (ps->time > a->tmax)
		a->tmax = ps->time;
	if (ps->time && ps->time < a->tfirst)
		a->tfirst = ps->time;
}

/* Did every sample of entry a have the name its first had, and fall
 * between the same two markers (print_markers counts by time)? */
static int sums_named_once(struct profile *p, const struct agg *a)
{
	if (a->tmin == a->tmax)
		return 1;
	for (size_t i = 0; i < p->nmk; i++)
		if (p->mk[i].time > a->tmin && p->mk[i].time <= a->tmax)
			return 0;
	if (a->tid == -1)
		return 1;
	/* the history name_context names the entry's context by */
	const struct thread *t = thread(p, a->tid, 0);
	if (!t || !t->n)
		t = thread(p, a->pid, 0);
	if (!t || t->n < 2)
		return 1;
	const char *c = profile__comm(p, a->pid, a->tid, a->tmin);
	for (size_t i = 0; i < t->n; i++)
		if (t->h[i].time > a->tmin && t->h[i].time <= a->tmax &&
		    profile__comm(p, a->pid, a->tid, t->h[i].time) != c)
			return 0;
	return 1;
}

/* The entries as samples, once everything is read and named: 0, or 1 when
 * the input must be read again sample by sample (an entry had two names,
 * or off-CPU durations are to be worked out per sample: offcpu.c). */
static int sums_store(struct profile *p)
{
	struct prof_priv *v = p->priv;
	if (v->nswin && offcpu__has_switch_event(p))
		return 1;
	for (size_t i = 0; i < v->nag; i++)
		if (!sums_named_once(p, &v->ag[i]))
			return 1;
	for (size_t i = 0; i < v->nag && !v->nomem; i++) {
		const struct agg *a = &v->ag[i];
		struct prof_sample s = { .stack = a->stack, .ev = a->ev, .cpu = a->cpu,
		    .pid = a->pid, .tid = a->tid, .time = a->tmin, .period = a->weight,
		    .count = a->count };
		add_sample(p, &s);
		if (a->tfirst != UINT64_MAX && (!p->first_time || a->tfirst < p->first_time))
			p->first_time = a->tfirst;
		if (a->tmax > p->last_time)
			p->last_time = a->tmax;
	}
	free(v->ag);
	free(v->agt);
	v->ag = NULL;
	v->agt = NULL;
	v->nag = v->capag = v->capagt = 0;
	v->ag_last = 0;
	return 0;
}

/* A perf.data sample straight from the reader (input__set_sample_sink):
 * what handle() does with its CALLCHAIN event, the chain already trimmed
 * and hashed. */
static void take_now(struct profile *p, const struct perfdata_sample *ps)
{
	uint32_t e;

	if (p->priv->nomem || (e = event_ix(p, ps->pmcid)) == NO_IX)
		return;
	if (p->priv->sums) {
		sum_sample(p, ps, e);
	} else {
		struct prof_sample s = {
		    .stack = intern_hashed(p, (int32_t)ps->pid, ps->pcs, ps->flags, ps->npc,
		        ps->hash),
		    .ev = (uint16_t)e, .cpu = (uint16_t)ps->cpu, .pid = (int32_t)ps->pid,
		    .tid = (int32_t)ps->tid, .time = ps->time, .period = ps->period };
		add_sample(p, &s);
	}
}

/* ---- unwinding on worker threads -------------------------------------------
 *
 * Once a DWARF sample comes (and prof_load_opts.threads is more than one),
 * every sample is queued to a workpool (workpool.h): the DWARF ones are
 * unwound on its workers, each with its own unwinder, and each queued
 * sample is then applied on this thread, in input order, as handle() or
 * take_now would have taken it when it was read: the same stacks, ids,
 * sums and counts as one thread makes.  What applying a sample reads
 * (mappings, names, events) changes only with other records, so the queue
 * is drained before one is handled; between two such records the mappings
 * the workers read stay as they are.  The workers' unwinders share the
 * symtab's binaries under symmu, which applying holds too. */

/* Jobs are gathered into batches of this many bytes (a DWARF sample's job
 * holds its stack copy, 8 KiB by default, and room for its frames). */
#define POOL_BATCH (512 * 1024)

static void *pool_worker_new(void *arg)
{
	struct profile *p = arg;
	struct unwinder *u = unwind__new();
	if (u)
		unwind__set_lock(u, &p->priv->symmu);
	return u;
}

static void pool_worker_free(void *w)
{
	unwind__free(w);
}

static void pool_work(void *w, void *job)
{
	struct uw_job *j = job;
	if (!j->unwind)
		return;
	j->n = unwind__user(w, j->space, j->maps, j->nmaps, job_cc(j), job_pcs(j),
	    PMC_CALLCHAIN_DEPTH_MAX - (int)j->nk, &j->complete);
	j->stop = unwind__last_stop(w, &j->stop_pc);
}

static void pool_apply(void *arg, void *job)
{
	struct profile *p = arg;
	struct prof_priv *v = p->priv;
	struct uw_job *j = job;

	pthread_mutex_lock(&v->symmu);
	v->pre = j;
	switch (j->kind) {
	case JOB_EV:
		job_cc(j);
		handle(p, &j->u.ev);
		break;
	case JOB_SINK: {
		struct perfdata_sample ps = j->u.ps;
		ps.pcs = (const uint64_t *)(uintptr_t)job_tail(j);
		ps.flags = job_tail(j) + (size_t)ps.npc * sizeof(uint64_t);
		take_now(p, &ps);
		break;
	}
	case JOB_PENDING:
		pending_one(p, j->pending);
		break;
	}
	v->pre = NULL;
	pthread_mutex_unlock(&v->symmu);
}

static const struct workpool_ops pool_ops = {
	pool_worker_new, pool_worker_free, pool_work, pool_apply
};

/* Start the pool (at the first DWARF sample): 0, or -1 to go on without. */
static int pool_start(struct profile *p)
{
	struct prof_priv *v = p->priv;
	if (v->threads < 2)
		return -1;
	if (!v->symmu_made) {
		pthread_mutex_init(&v->symmu, NULL);
		v->symmu_made = 1;
	}
	if (!(v->pool = workpool__new(v->threads, POOL_BATCH, &pool_ops, p))) {
		v->threads = 1;             /* not again: one thread it is */
		pmc__clear_reason();
		return -1;
	}
	return 0;
}

/* A job of kind for a sample (cc: one that may need unwinding, its chain
 * npc pcs long) with tail bytes after it; NULL out of memory (sticky). */
static struct uw_job *pool_job(struct profile *p, int kind, const struct pmclog_ev_callchain *cc,
    uint32_t npc, size_t tail)
{
	struct prof_priv *v = p->priv;
	struct aspace *a = cc && cc->pl_nuregs && npc ? maps_of(p, (int32_t)cc->pl_pid) : NULL;
	uint32_t nk = a ? kernel_part(cc, npc) : 0;
	size_t size = sizeof(struct uw_job) + tail +
	    (a ? (PMC_CALLCHAIN_DEPTH_MAX - nk) * sizeof(uint64_t) : 0);
	struct uw_job *j = workpool__job(v->pool, size);

	if (!j)
		return nomem(p);
	memset(j, 0, offsetof(struct uw_job, u));
	j->kind = kind;
	j->unwind = a != NULL;
	j->nk = nk;
	j->ext = kind == JOB_PENDING ? cc : NULL;
	if (a) {
		unwind__mark(a->m, a->n);
		j->space = a->pid;
		j->maps = a->m;
		j->nmaps = a->n;
	}
	return j;
}

/* Copy sample record ev to d without the unused tails of its pc arrays
 * (512 entries, most of 5 KB): what handle() reads. */
static void copy_sample(struct pmclog_ev *d, const struct pmclog_ev *ev)
{
	const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	struct pmclog_ev_callchain *dc = &d->pl_u.pl_cc;
	size_t n = cc->pl_npc < PMC_CALLCHAIN_DEPTH_MAX ? cc->pl_npc : PMC_CALLCHAIN_DEPTH_MAX;
#define SPAN(from, to) (offsetof(struct pmclog_ev_callchain, to) - \
	offsetof(struct pmclog_ev_callchain, from))
	memcpy(d, ev, offsetof(struct pmclog_ev, pl_u) + offsetof(struct pmclog_ev_callchain, pl_pc));
	memcpy(dc->pl_pc, cc->pl_pc, n * sizeof(cc->pl_pc[0]));
	memcpy(&dc->pl_cpu, &cc->pl_cpu, SPAN(pl_cpu, pl_pcflags));
	memcpy(dc->pl_pcflags, cc->pl_pcflags, n);
	memcpy(&dc->pl_uregs_abi, &cc->pl_uregs_abi,
	    sizeof(*cc) - offsetof(struct pmclog_ev_callchain, pl_uregs_abi));
#undef SPAN
	d->pl_time = ev->pl_time;
	d->pl_data = NULL;                /* not kept: handle() does not read them */
	dc->pl_raw = NULL;
	dc->pl_raw_len = 0;
}

/* Queue record ev (pool running): a sample, copied with its stack; 1 if
 * it was queued, 0 if the caller handles it (the queue drained first). */
static int pooled(struct profile *p, const struct pmclog_ev *ev)
{
	struct prof_priv *v = p->priv;
	const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	uint32_t npc = cc->pl_npc;
	struct uw_job *j;

	if (ev->pl_type != PMCLOG_TYPE_CALLCHAIN) {
		if (v->pool)
			workpool__drain(v->pool);
		return 0;
	}
	/* a flat report (leaf_only) unwinds nothing: no pool for it */
	if (!v->pool && (!cc->pl_nuregs || v->leaf_only || pool_start(p) < 0))
		return 0;
	/* as handle() trims it */
	while (npc > 1 && cc->pl_pc[npc - 1] == 0 && !v->zero_frames)
		npc--;
	if (!(j = pool_job(p, JOB_EV, cc, npc, align8(cc->pl_ustack_len))))
		return 1;
	copy_sample(&j->u.ev, ev);
	if (cc->pl_ustack_len)
		memcpy(job_tail(j), cc->pl_ustack, cc->pl_ustack_len);
	return 1;
}

static void take_sample(void *arg, const struct perfdata_sample *ps)
{
	struct loading *l = arg;
	struct profile *p = l->p;
	struct uw_job *j;

	if (!p->priv->pool) {
		take_now(p, ps);
	} else if ((j = pool_job(p, JOB_SINK, NULL, 0, (size_t)ps->npc * 9))) {
		j->u.ps = *ps;
		memcpy(job_tail(j), ps->pcs, (size_t)ps->npc * sizeof(uint64_t));
		memcpy(job_tail(j) + (size_t)ps->npc * sizeof(uint64_t), ps->flags, ps->npc);
	}
	loaded(p, l->o);
}

/* Can the input at path be read twice (sums_store may ask for it)? */
static int rereadable(const char *path, const struct prof_load_opts *o)
{
	struct stat sb;
	return !o->follow && strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* profile__load, with sums or without: 0, -errno, or when the sums are
 * ambiguous (sums_store) 1 if a perf.data read in its own order could be
 * summed in time order, 2 if the input must be read sample by sample. */
static int load(struct profile **out, const char *path, const struct prof_load_opts *o, int sums)
{
	struct profile *p = profile__new(o ? &o->sym : NULL);
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	struct pmcstat_input *in;

	*out = NULL;
	pmc__clear_reason();
	if (!p || !ev) {
		free(ev);
		profile__free(p);
		return pmc__nomem();
	}
	if (!(in = input__open(path, o ? o->follow : 0))) {
		int e = errno;
		free(ev);
		profile__free(p);
		return -e;
	}
	p->input_kind = input__kind(in);
	p->priv->keep_sb = o && o->sideband;
	p->priv->leaf_only = o && o->leaf_only;
	p->priv->sums = sums;
	input__set_sample_leaf(in, p->priv->leaf_only);
	p->priv->zero_frames = o && o->zero_frames;
	input__set_sample_zeros(in, p->priv->zero_frames);
	input__set_sample_unordered(in, o && o->input_order);
	struct loading ld = { p, o };
	int rc = input__set_sample_sink(in, take_sample, &ld);
	if (rc == -ENOMEM) {
		input__close(in);
		free(ev);
		profile__free(p);
		return rc;
	}
	p->priv->threads = o && o->threads ? o->threads : workpool__cpus();
	while (!p->priv->nomem && input__read(in, ev) == 0) {
		if (!pooled(p, ev))
			handle(p, ev);
		if (p->priv->keep_sb)
			keep_side(p, ev);
		loaded(p, o);
	}
	unwind_pending(p);
	workpool__free(p->priv->pool);
	p->priv->pool = NULL;
	if (ev->pl_state == PMCLOG_ERROR) {
		int e = errno ? errno : EILSEQ;
		if (p->records == 0) {
			input__close(in);
			free(ev);
			profile__free(p);
			return -e;
		}
		snprintf(p->truncated, sizeof(p->truncated), "corrupt after record %" PRIu64 ": %s",
		    p->records, pmc_errmsg());
	} else {
		const char *cut = input__truncated(in);
		if (cut)
			snprintf(p->truncated, sizeof(p->truncated), "%s", cut);
	}
	input__close(in);
	free(ev);
	/* a perf.data read in its own order may be read in time order */
	int again = strcmp(p->input_kind, "perf.data") == 0 && o && o->input_order ? 1 : 2;
	apply_inherits(p);
	if (sums && !profile__nomem(p) && sums_store(p)) {
		profile__free(p);
		return again;
	}
	if (profile__nomem(p)) {
		profile__free(p);
		pmc__clear_reason();    /* this is why, whatever the reader said */
		return pmc__nomem();
	}
	offcpu__apply(p, p->priv->sw_in, p->priv->nswin);
	*out = p;
	return 0;
}

int profile__load(struct profile **out, const char *path, const struct prof_load_opts *o)
{
	int rc = 2;
	if (o && o->sums && rereadable(path, o)) {
		rc = load(out, path, o, 1);
		if (rc == 1) {
			/* names ambiguous in the file's order (an exec's COMM after
			 * samples that follow it, from another CPU's ring): sums in
			 * time order, where a rename comes between the samples
			 * before and after it */
			struct prof_load_opts timed = *o;
			timed.input_order = 0;
			rc = load(out, path, &timed, 1);
		}
	}
	return rc > 0 ? load(out, path, o, 0) : rc;
}

/* ---- resolving ------------------------------------------------------------ */

/* pc's mapping in pid: its own latest covering pc, else (forked without
 * one) its parent's as they were at its birth, as perf copies a parent's
 * mappings at FORK: what the parent maps later is not the child's. */
static const struct map *find_map(struct profile *p, int32_t pid, uint64_t pc)
{
	uint64_t upto = UINT64_MAX;
	for (int depth = 0; depth < 64; depth++) {
		struct aspace *a = aspace(p, pid, 0);
		const struct map *best = NULL;
		if (!a)
			return NULL;
		for (size_t i = 0; i < a->n; i++)
			if (pc >= a->m[i].start && pc < a->m[i].end && a->m[i].time <= upto &&
			    (!best || a->m[i].time > best->time ||
			    (a->m[i].time == best->time && a->m[i].seq > best->seq)))
				best = &a->m[i];
		if (best || a->ppid < 0)
			return best;
		if (a->fork_time && a->fork_time < upto)
			upto = a->fork_time;
		pid = a->ppid;
	}
	return NULL;
}

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

/* pc's location (NO_IX out of memory, sticky). */
static uint32_t loc_of(struct profile *p, int32_t pid, uint64_t pc, int user, int caller)
{
	struct prof_priv *v = p->priv;
	int found;
	struct hent *e = hmap_slot(&v->pcloc, user ? (uint64_t)(uint32_t)pid : UINT64_MAX,
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
		const struct map *m = find_map(p, pid, pc);
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

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* A context's names over time: profile__comm's, which changes only at the
 * times its thread (or its process, if the thread has none) was named.
 * Given to the context once, so that no sample needs a lookup. */
static void name_context(struct profile *p, size_t ctx)
{
	int32_t pid, tid;
	samples__ctx(p->smp, ctx, &pid, &tid);
	const struct thread *t = tid == -1 ? NULL : thread(p, tid, 0);
	if (tid != -1 && (!t || !t->n))
		t = thread(p, pid, 0);
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

/* What a task was called at time (as perf names it). */
const char *profile__comm(struct profile *p, int32_t pid, int32_t tid, uint64_t time)
{
	/* tid -1 is the kernel's "no thread": a task already released (an
	 * exited thread's last switch); perf names it ":-1" too */
	const char *c = tid == -1 ? symtab__intern(p->st, ":-1") : comm_at(p, tid, time);
	if (!c)
		c = comm_at(p, pid, time);
	if (!c && pid == 0) {
		c = symtab__intern(p->st, "swapper");   /* the idle task, as perf names it */
	} else if (!c) {
		char buf[32];
		snprintf(buf, sizeof(buf), ":%d", (int)pid);
		c = symtab__intern(p->st, buf);
	}
	return c;
}

int profile__locate(struct profile *p, int32_t pid, const uint64_t *pcs, const uint8_t *flags,
    uint32_t n, uint32_t *locs)
{
	int rc = 0;
	for (uint32_t k = 0; k < n; k++)
		if ((locs[k] = loc_of(p, pid, pcs[k], flags[k] & 1, prof_pc_is_caller(flags, k))) ==
		    NO_IX)
			rc = pmc__nomem();
	return rc;
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
		if (profile__locate(p, s->pid, v->pcs + s->off, v->flags + s->off, s->n,
		    locs + s->off) < 0)
			rc = pmc__nomem();
	}
	v->locs = locs;
	for (size_t i = 0; i < samples__nctx(p->smp); i++)
		name_context(p, i);
	for (size_t i = 0; i < p->nsb; i++)
		p->sb[i].comm = profile__comm(p, p->sb[i].pid, p->sb[i].tid, p->sb[i].time);
	for (size_t i = 0; i < p->npr; i++) {
		const char *c = comm_at(p, p->pr[i].tid, UINT64_MAX);
		p->pr[i].comm = c ? c : comm_at(p, p->pr[i].pid, UINT64_MAX);
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

/* ---- filters ---------------------------------------------------------------- */

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
	for (struct aspace *a = best_pid > 0 ? aspace(p, best_pid, 0) : NULL; a;
	    a = a->ppid > 0 && a->ppid != a->pid ? aspace(p, a->ppid, 0) : NULL) {
		const struct map *m = NULL;
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

double profile__reltime(const struct profile *p, uint64_t t)
{
	uint64_t base = p->hdr.have && p->hdr.start_clock ? p->hdr.start_clock : p->first_time;
	return t >= base ? (double)(t - base) / 1e9 : -(double)(base - t) / 1e9;
}

void profile__filter_init(struct prof_filter *flt)
{
	memset(flt, 0, sizeof(*flt));
	flt->ev = -1;
}

/* perf's SEC[.NSEC] (at most nine decimals, util/time-utils.c
 * parse_nsec_time), or any other finite non-negative number of seconds
 * (pmc's old --time took strtod's forms): 0 and *ns, or -1. */
static int parse_seconds(const char *s, size_t n, uint64_t *ns)
{
	char buf[64], *end;
	size_t i = 0, dig = 0;
	uint64_t sec = 0, frac = 0;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	while (i < n && s[i] >= '0' && s[i] <= '9' && sec < UINT64_MAX / 1000000000u / 10)
		sec = sec * 10 + (uint64_t)(s[i++] - '0');
	if (i > 0 && i < n && s[i] == '.') {
		for (i++; i < n && dig < 9 && s[i] >= '0' && s[i] <= '9'; i++, dig++)
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		for (size_t k = dig; k < 9; k++)
			frac *= 10;
	}
	if (i == n && i > 0) {
		if (sec > 10000000000u)     /* the strtod forms' bound: 317 years */
			return -1;
		*ns = sec * 1000000000u + frac;
		return 0;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	double d = strtod(buf, &end);
	if (*end || !isfinite(d) || d < 0 || d > 1e10)
		return -1;
	*ns = (uint64_t)llround(d * 1e9);
	return 0;
}

/* "P%" (the whole of [s, s+n)) as a fraction 0..1: 0, or -1. */
static int parse_percent(const char *s, size_t n, double *f)
{
	char buf[64], *end;
	if (n < 2 || n >= sizeof(buf) || s[n - 1] != '%')
		return -1;
	memcpy(buf, s, n - 1);
	buf[n - 1] = '\0';
	double d = strtod(buf, &end);
	if (*end || end == buf || !isfinite(d) || d < 0 || d > 100)
		return -1;
	*f = d / 100.0;
	return 0;
}

/* perf's percent forms (time-utils.c perf_time__percent_parse_str): a '/'
 * anywhere makes every comma item P%/N, else a '-' makes them A%-B%, else
 * the whole is one P%. */
static int parse_time_percent(struct prof_time *t, const char *arg)
{
	int slash = strchr(arg, '/') != NULL, dash = strchr(arg, '-') != NULL;
	const char *s = arg;

	if (!slash && !dash && strchr(arg, ',') == NULL) {
		if (parse_percent(arg, strlen(arg), &t->r[0].phi) != 0 || t->r[0].phi <= 0)
			return pmc__err(-EINVAL, "'%s' is not a percentage P%% (above 0, at most "
			    "100)", arg);
		t->r[0].plo = 0;
		t->n = 1;
		return 0;
	}
	for (;;) {
		const char *e = strchr(s, ','), *mid;
		size_t n = e ? (size_t)(e - s) : strlen(s);
		double a, b;
		char *end;
		long k;

		if (t->n == PROF_TIME_MAX)
			return pmc__err(-EINVAL, "more than %d ranges", PROF_TIME_MAX);
		if (slash) {
			mid = memchr(s, '/', n);
			if (!mid || parse_percent(s, (size_t)(mid - s), &a) != 0 || a <= 0)
				return pmc__err(-EINVAL, "'%.*s' is not P%%/N (the Nth slice of P %%)",
				    (int)n, s);
			errno = 0;
			k = strtol(mid + 1, &end, 10);
			if (end != s + n || end == mid + 1 || errno || k < 1 || (double)k * a > 1 + 1e-9)
				return pmc__err(-EINVAL, "'%.*s': slice %.*s of %g %% slices is not within "
				    "the recording", (int)n, s, (int)(s + n - mid - 1), mid + 1, a * 100);
			b = a * (double)k;
			a = a * (double)(k - 1);
		} else {
			mid = memchr(s, '-', n);
			if (!mid || parse_percent(s, (size_t)(mid - s), &a) != 0 ||
			    parse_percent(mid + 1, (size_t)(s + n - mid - 1), &b) != 0)
				return pmc__err(-EINVAL, "'%.*s' is not A%%-B%% (percentages from 0 to "
				    "100)", (int)n, s);
			if (b < a)                  /* as "5,3" for seconds */
				return pmc__err(-EINVAL, "'%.*s': the range ends before it starts",
				    (int)n, s);
		}
		t->r[t->n].plo = a;
		t->r[t->n].phi = b > 1 ? 1 : b;
		t->n++;
		if (!e)
			return 0;
		s = e + 1;
	}
}

/* perf's seconds forms (perf_time__parse_strs): "START,END", several
 * separated by spaces, in order and apart. */
static int parse_time_seconds(struct prof_time *t, const char *arg)
{
	const char *s = arg;
	int first = 1;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t n = strcspn(s, " \t");
		const char *comma = memchr(s, ',', n);
		uint64_t lo = 0, hi = 0;

		if (t->n == PROF_TIME_MAX)
			return pmc__err(-EINVAL, "more than %d ranges", PROF_TIME_MAX);
		if (!comma || memchr(comma + 1, ',', (size_t)(s + n - comma - 1)) ||
		    (comma > s && parse_seconds(s, (size_t)(comma - s), &lo) != 0) ||
		    (comma + 1 < s + n && parse_seconds(comma + 1, (size_t)(s + n - comma - 1), &hi) != 0))
			return pmc__err(-EINVAL, "'%.*s' is not START,END (seconds, either may be "
			    "empty)", (int)n, s);
		if (hi && hi < lo)
			return pmc__err(-EINVAL, "'%.*s': END is before START", (int)n, s);
		if (t->n && (!t->r[t->n - 1].hi || t->r[t->n - 1].hi >= lo))
			return pmc__err(-EINVAL, "'%.*s' overlaps the range before it (ranges go in "
			    "order, apart)", (int)n, s);
		if (first)
			t->ref = comma > s ? lo : hi;
		first = 0;
		t->r[t->n].lo = lo;
		t->r[t->n].hi = hi;
		t->n++;
		s += n;
	}
	if (!t->n)
		return pmc__err(-EINVAL, "'%s' has no range START,END", arg);
	return 0;
}

int profile__parse_time(struct prof_filter *flt, const char *arg)
{
	struct prof_time t;
	int rc;

	pmc__clear_reason();
	memset(&t, 0, sizeof(t));
	t.pct = strchr(arg, '%') != NULL;
	rc = t.pct ? parse_time_percent(&t, arg) : parse_time_seconds(&t, arg);
	if (rc < 0)
		return rc;            /* the message quotes the range that is wrong */
	flt->time = t;
	return 0;
}

int profile__time_match(const struct profile *p, const struct prof_filter *flt, uint64_t t)
{
	const struct prof_time *w = &flt->time;
	uint64_t first = p->first_time, span = p->last_time - p->first_time, base = 0;
	uint64_t start = p->hdr.have && p->hdr.start_clock ? p->hdr.start_clock : first;

	/* seconds within the recording's length: from its start (pmc's form);
	 * beyond it: perf's timestamps, which a recording made later after
	 * boot than it lasts always are (the first sample's time, as perf
	 * script prints it, is cut to microseconds: below the sample) */
	if (!w->pct && w->ref <= (p->last_time > start ? p->last_time - start : 0))
		base = start;
	for (int i = 0; i < w->n; i++) {
		uint64_t lo, hi;
		if (w->pct) {
			/* perf's set_percent_time: a slice ends 1 ns before the next
			 * one starts, but the last one takes the last sample */
			lo = first + (uint64_t)llround(w->r[i].plo * (double)span);
			hi = first + (uint64_t)llround(w->r[i].phi * (double)span);
			if (hi > lo && hi != p->last_time)
				hi--;
		} else {
			/* a hostile file's times near 2^64: saturate, not wrap */
			if (__builtin_add_overflow(base, w->r[i].lo, &lo))
				lo = UINT64_MAX;
			if (!w->r[i].hi)
				hi = 0;
			else if (__builtin_add_overflow(base, w->r[i].hi, &hi))
				hi = UINT64_MAX;
		}
		if (t >= lo && (!hi || t <= hi))
			return 1;
	}
	return 0;
}

/* Each item of a numeric filter list is an integer. */
static int check_numbers(const char *list, const char *opt, const char *what)
{
	const char *s = list;

	if (!list)
		return 0;
	for (;;) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char buf[64], *end;
		long v;

		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1), s);
		errno = 0;
		v = strtol(buf, &end, 10);
		if (!n || n >= sizeof(buf) || *end || errno || v < -1 || v > INT32_MAX) {
			return pmc__err(-EINVAL, "%s: '%.*s' is not %s", opt, (int)(n > 40 ? 40 : n),
			    s, what);
		}
		if (!e)
			return 0;
		s = e + 1;
	}
}

int profile__check_filter(const struct prof_filter *flt)
{
	int rc;

	pmc__clear_reason();
	if ((rc = check_numbers(flt->pids, "--pid", "a process id")) < 0 ||
	    (rc = check_numbers(flt->tids, "--tid", "a thread id")) < 0)
		return rc;
	if (flt->cpus && cpulist__check(flt->cpus) < 0)
		return pmc__err(-EINVAL, "--cpu: '%.40s' is not a CPU number or range (e.g. 0-3,6)",
		    flt->cpus);
	return 0;
}

/* Is item (a number or a name) in the comma list?  (CPU lists, whose
 * items may be ranges: cpulist__has.) */
static int in_list(const char *list, const char *name, long num, int numeric)
{
	const char *s = list;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (numeric) {
			char buf[64];
			snprintf(buf, sizeof(buf), "%.*s", (int)(n < 63 ? n : 63), s);
			if (strtol(buf, NULL, 10) == num)
				return 1;
		} else if (name && strlen(name) == n && strncmp(name, s, n) == 0) {
			return 1;
		}
		if (!e)
			break;
		s = e + 1;
	}
	return 0;
}

/* The filters that need no frames (cheap: checked first). */
static int match_sample(const struct profile *p, const struct prof_filter *flt,
    const struct prof_sample *s)
{
	if (flt->ev >= 0 && s->ev != flt->ev)
		return 0;
	if (flt->pids && !in_list(flt->pids, NULL, s->pid, 1))
		return 0;
	if (flt->tids && !in_list(flt->tids, NULL, s->tid, 1))
		return 0;
	if (flt->cpus && !cpulist__has(flt->cpus, s->cpu))
		return 0;
	if (flt->comms && !in_list(flt->comms, s->comm, 0, 0))
		return 0;
	if (flt->time.n && !profile__time_match(p, flt, s->time))
		return 0;
	return 1;
}

/* --dso and --sym: of the sampled function (the real one of the leaf pc). */
static int match_frames(const struct profile *p, const struct prof_filter *flt,
    const struct prof_frame *fr)
{
	if (!flt->dsos && !flt->syms)
		return 1;
	const struct prof_loc *l = &p->l[fr[0].loc];
	const struct prof_func *f = &p->f[l->func];
	if (flt->dsos && !in_list(flt->dsos, sym_dso__name(f->dso), 0, 0) &&
	    !in_list(flt->dsos, sym_dso__path(f->dso), 0, 0))
		return 0;
	if (flt->syms && !in_list(flt->syms, f->name, 0, 0))
		return 0;
	return 1;
}

int profile__match(struct profile *p, const struct prof_filter *flt, const struct prof_sample *s)
{
	const struct prof_frame *fr;
	if (!flt)
		return 1;
	if (!match_sample(p, flt, s))
		return 0;
	if (!flt->dsos && !flt->syms)
		return 1;
	if (profile__frames(p, s->stack, 0, &fr) < 0)
		return 0;               /* out of memory: profile__nomem says so */
	return match_frames(p, flt, fr);
}

/* Sample i (into *s) with its frames: how many, or -1 if it does not pass
 * the filter (or its frames could not be made: profile__nomem says so). */
static int sample_frames(struct profile *p, const struct prof_filter *flt, int flags, size_t i,
    struct prof_sample *s, const struct prof_frame **fr)
{
	int n;
	profile__sample(p, i, s);
	if (flt && !match_sample(p, flt, s))
		return -1;
	n = profile__frames(p, s->stack, flags, fr);
	if (n < 0 || (flt && !match_frames(p, flt, *fr)))
		return -1;
	return n;
}

void profile__foreach(struct profile *p, const struct prof_filter *flt, int flags, prof_cb cb,
    void *arg)
{
	profile__resolve(p);
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample s;
		const struct prof_frame *fr;
		int n = sample_frames(p, flt, flags, i, &s, &fr);
		if (n >= 0)
			cb(arg, &s, fr, n);
	}
}

/* profile__foreach_group: the groups of one batch, in the order of their
 * first samples. */
struct group {
	uint32_t stack, ctx;
	const char *comm;
	size_t first;                 /* its first sample */
	uint64_t weight, count;
};

#define GROUP_BATCH 65536         /* groups gathered before they are handed out:
                                   * bounds the memory whatever the samples */

/*
 * The groups of the latest walk, for the next one with the same filter: a
 * report with call graphs walks once for the flat list, then for the call
 * tree (and speedscope twice), and the groups depend only on the filter
 * and the samples, not on the frames' flags.  Kept when they fitted one
 * batch; the filter's lists are copied, so a caller may reuse its buffers;
 * samples__version and the count tell whether the samples changed since.
 */
struct walk_memo {
	int has_flt;
	struct prof_filter flt;
	char *lists[6];               /* flt's pids .. cpus, copied */
	uint64_t version;
	size_t ns;
	struct group *g;
	size_t ng;
};

static void memo_free(struct walk_memo *w)
{
	if (!w)
		return;
	for (int i = 0; i < 6; i++)
		free(w->lists[i]);
	free(w->g);
	free(w);
}

static int same_list(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Does the memo hold the groups of a walk with flt over the samples as
 * they are? */
static int memo_matches(const struct profile *p, const struct walk_memo *w,
    const struct prof_filter *flt)
{
	if (!w || w->version != samples__version(p->smp) || w->ns != p->ns ||
	    w->has_flt != !!flt)
		return 0;
	if (!flt)
		return 1;
	const struct prof_filter *m = &w->flt;
	return m->ev == flt->ev && same_list(m->pids, flt->pids) &&
	    same_list(m->tids, flt->tids) && same_list(m->comms, flt->comms) &&
	    same_list(m->dsos, flt->dsos) && same_list(m->syms, flt->syms) &&
	    same_list(m->cpus, flt->cpus) &&
	    memcmp(&m->time, &flt->time, sizeof(flt->time)) == 0;
}

/* A copy of list (NULL stays NULL) into *keep: 0, or -1 out of memory. */
static int copy_list(const char **list, char **keep)
{
	if (*list && !(*list = *keep = strdup(*list)))
		return -1;
	return 0;
}

/* Keep groups g[0..ng) of a walk with flt (taking g); nothing is kept
 * (g freed) when the filter cannot be copied. */
static void memo_keep(struct profile *p, const struct prof_filter *flt, struct group *g,
    size_t ng)
{
	struct walk_memo *w = calloc(1, sizeof(*w));
	memo_free(p->priv->wm);
	p->priv->wm = NULL;
	if (!w) {
		free(g);
		return;
	}
	w->g = g;
	w->has_flt = !!flt;
	if (flt) {
		struct prof_filter *m = &w->flt;
		*m = *flt;
		if (copy_list(&m->pids, &w->lists[0]) || copy_list(&m->tids, &w->lists[1]) ||
		    copy_list(&m->comms, &w->lists[2]) || copy_list(&m->dsos, &w->lists[3]) ||
		    copy_list(&m->syms, &w->lists[4]) || copy_list(&m->cpus, &w->lists[5])) {
			memo_free(w);
			return;
		}
	}
	w->version = samples__version(p->smp);
	w->ns = p->ns;
	w->ng = ng;
	p->priv->wm = w;
}

/* Hand out groups g[0..ng). */
static void groups_hand_out(struct profile *p, const struct prof_filter *flt, int flags,
    prof_group_cb cb, void *arg, const struct group *g, size_t ng)
{
	for (size_t k = 0; k < ng; k++) {
		struct prof_sample s;
		const struct prof_frame *fr;
		int n;
		profile__sample(p, g[k].first, &s);
		n = profile__frames(p, s.stack, flags, &fr);
		if (n < 0)
			continue;       /* out of memory: profile__nomem says so */
		if (flt && !match_frames(p, flt, fr))
			continue;
		cb(arg, &s, g[k].weight, g[k].count, fr, n);
	}
}

/* Hand out the batch's groups (and forget them: memo, map). */
static void groups_flush(struct profile *p, const struct prof_filter *flt, int flags,
    prof_group_cb cb, void *arg, struct group *g, size_t ng, uint32_t *memo, struct hmap *m)
{
	groups_hand_out(p, flt, flags, cb, arg, g, ng);
	for (size_t k = 0; k < ng; k++)
		memo[g[k].stack] = 0;
	if (m->t)
		memset(m->t, 0, m->cap * sizeof(*m->t));
	m->n = 0;
}

void profile__foreach_group(struct profile *p, const struct prof_filter *flt, int flags,
    prof_group_cb cb, void *arg)
{
	struct prof_priv *v = p->priv;
	size_t nc = samples__nctx(p->smp), ng = 0;
	int batches = 0;
	profile__resolve(p);
	if (memo_matches(p, v->wm, flt)) {
		groups_hand_out(p, flt, flags, cb, arg, v->wm->g, v->wm->ng);
		return;
	}
	/* per context: 0 no sample passes, 1 all pass, 2 each sample is
	 * decoded and tested (a time window, a name filter on a name that
	 * changes over time, a context named only per sample) */
	uint8_t *how = malloc(nc ? nc : 1);
	uint32_t *memo = calloc(v->nst ? v->nst : 1, sizeof(*memo));   /* group + 1 */
	/* grown as needed: a few groups take a few bytes (a large block freed
	 * would also raise malloc's threshold for mapping, for the rest of the
	 * process) */
	size_t capg = 1024;
	struct group *g = malloc(capg * sizeof(*g));
	struct hmap m = { 0 };
	if (!how || !memo || !g) {
		/* out of memory for the groups: each sample is its own (the same sums) */
		free(how);
		free(memo);
		free(g);
		for (size_t i = 0; i < p->ns; i++) {
			struct prof_sample s;
			const struct prof_frame *fr;
			int n = sample_frames(p, flt, flags, i, &s, &fr);
			if (n >= 0)
				cb(arg, &s, prof_weight(&s), prof_count(&s), fr, n);
		}
		return;
	}
	for (size_t c = 0; c < nc; c++) {
		struct prof_sample s;
		uint32_t names = samples__ctx_sample(p->smp, c, &s);
		struct prof_filter f;
		if (!flt) {
			how[c] = names ? 1 : 2;
			continue;
		}
		/* what the context alone decides: all but the time, and the name
		 * if it changes over time */
		f = *flt;
		f.time.n = 0;
		if (names != 1)
			f.comms = NULL;
		how[c] = !match_sample(p, &f, &s) ? 0 :
		    !names || flt->time.n || (names > 1 && flt->comms) ? 2 : 1;
	}
	struct sample_key key[256];
	for (size_t i = 0; i < p->ns; i++) {
		if (i % 256 == 0)
			samples__keys(p->smp, i, p->ns - i < 256 ? p->ns - i : 256, key);
		uint32_t stack = key[i % 256].stack, ctx = key[i % 256].ctx, k;
		uint64_t w = key[i % 256].weight, cn = key[i % 256].count;
		const char *name = key[i % 256].comm;
		if (!how[ctx] || stack >= v->nst)
			continue;
		if (how[ctx] == 2) {
			struct prof_sample s;
			profile__sample(p, i, &s);
			if (flt && !match_sample(p, flt, &s))
				continue;
			name = s.comm;
		}
		/* most samples repeat the latest group of their stack */
		if ((k = memo[stack]) && g[k - 1].ctx == ctx && g[k - 1].comm == name) {
			g[k - 1].weight += w;
			g[k - 1].count += cn;
			continue;
		}
		int found;
		struct hent *e = hmap_slot(&m, (uint64_t)stack << 32 | ctx, (uintptr_t)name, &found);
		if (e && found) {
			memo[stack] = e->v + 1;
			g[e->v].weight += w;
			g[e->v].count += cn;
			continue;
		}
		if (ng == capg && capg < GROUP_BATCH) {
			struct group *more = realloc(g, 2 * capg * sizeof(*g));
			if (more) {
				g = more;
				capg *= 2;
			}
		}
		if (ng == capg || !e) {
			/* a full batch (or no room): hand it out, start again */
			groups_flush(p, flt, flags, cb, arg, g, ng, memo, &m);
			ng = 0;
			batches++;
			e = hmap_slot(&m, (uint64_t)stack << 32 | ctx, (uintptr_t)name, &found);
		}
		if (e)
			e->v = (uint32_t)ng;
		g[ng] = (struct group){ stack, ctx, name, i, w, cn };
		memo[stack] = (uint32_t)++ng;
	}
	groups_flush(p, flt, flags, cb, arg, g, ng, memo, &m);
	free(m.t);
	free(how);
	free(memo);
	if (batches == 0)
		memo_keep(p, flt, g, ng);
	else
		free(g);
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

int profile__map_offset(struct profile *p, int32_t pid, uint64_t pc, uint64_t *off)
{
	const struct map *m = find_map(p, pid, pc);
	if (!m || (sym_dso__kind(m->dso) != SYM_DSO_ELF && sym_dso__kind(m->dso) != SYM_DSO_VDSO))
		return -1;
	*off = pc - m->start + m->pgoff;
	return 0;
}

void profile__free(struct profile *p)
{
	if (!p)
		return;
	struct prof_priv *v = p->priv;
	if (v) {
		memo_free(v->wm);
		workpool__free(v->pool);
		if (v->symmu_made)
			pthread_mutex_destroy(&v->symmu);
		unwind__free(v->uw);
		free(v->pcs);
		free(v->flags);
		free(v->locs);
		free(v->st);
		free(v->stab);
		for (size_t i = 0; i < v->nas; i++)
			free(v->as[i].m);
		free(v->as);
		free(v->as_ix.t);
		for (size_t i = 0; i < v->nth; i++)
			free(v->th[i].h);
		free(v->th);
		free(v->th_ix.t);
		free(v->ev_ix.t);
		free(v->inh);
		free(v->sw_in);
		free(v->pr_ix.t);
		free(v->pcloc.t);
		free(v->addrloc.t);
		free(v->fn_ix.t);
		free(v->fa);
		free(v->fb);
		free(v->lx);
		free(v->lxf);
		free(v->ag);
		free(v->agt);
		free(v->gen_ix.t);
		for (size_t i = 0; i < v->ntg; i++)
			free(v->tg[i].ev);
		free(v->tg);
		free(v);
	}
	free(p->ev);
	samples__free(p->smp);
	free(p->f);
	free(p->l);
	free(p->mk);
	free(p->pr);
	free(p->sb);
	free(p->uwstop);
	symtab__free(p->st);
	free(p);
}
