/*
 * profile_internal.h — what the files of the profile share and nobody else
 * sees: struct prof_priv (the loading state and the tables behind struct
 * profile), the address spaces, threads and stacks it holds, and the
 * functions one of these files offers the others (prof__*).
 *
 * The files (docs/architecture.md "Routes of a sample" follows a sample
 * through them):
 *   profile.c   reading an input: the records' dispatch (prof__handle),
 *               profile__load / profile__feed / profile__free
 *   tasks.c     what the side records tell: events, address spaces and
 *               mappings, threads' names and births, per-process counts
 *   stacks.c    where a sample lands: stack interning, prof__add_sample,
 *               the sums (prof_load_opts.sums), the two sample entries
 *   dwarf.c     DWARF unwinding of sampled user stacks, pending samples,
 *               the worker pool that unwinds them
 *   switches.c  switch-ins and the off-CPU durations they give
 *   resolve.c   pcs to locations, functions and inlined frames; names
 *   walk.c      filters and the walks over samples (foreach, foreach_group)
 * offcpu.c (offcpu__wall) sits above them and includes profile.h only:
 * nothing here includes offcpu.h.
 */
#ifndef PMCSTAT_PROFILE_INTERNAL_H
#define PMCSTAT_PROFILE_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hmap.h"
#include "profile/profile.h"
#include "profile/samples.h"
#include "symbols/unwind.h"

#define NO_IX PROF_NO_IX   /* an index that could not be made: out of memory */

/* A thread got a CPU (a SWITCH record without PMCLOG_SWITCH_F_OUT). */
struct prof_switch_in {
	int32_t tid;
	uint64_t time;
};

struct rstack {
	uint64_t off;             /* into pcs/flags */
	uint32_t n;
	int32_t pid;
	uint64_t hash;
	/* resolved frame caches (into fa / fb) */
	uint64_t a_off, b_off;
	uint32_t a_n, b_n;
	uint8_t a_done, a_lines, b_done;
	uint32_t epoch;           /* its samples' map epoch in pid (prof__epoch) */
};

struct aspace {
	int32_t pid, ppid;
	uint64_t fork_time;        /* its birth (0 unknown): its parent's later
	                            * mappings are the parent's alone */
	uint64_t exec_time;        /* its latest exec: older maps are gone */
	int exec_by_comm;          /* exec_time is from the exec's COMM, which comes
	                            * before the exec's mappings (PROCEXEC may not) */
	struct unwind_map *m;      /* its mappings, as the unwinder reads them (unwind.h) */
	size_t n, cap;
	uint32_t *ix;              /* m's indices by start address (then arrival): */
	size_t capix;              /* a lookup looks at the mappings that start */
	uint64_t maxlen;           /* less than the longest one's length below it */
	uint64_t *rm;              /* its remaps, ascending: the times a mapping came
	                            * where another binary (or the same binary at
	                            * another offset) was mapped; they cut its
	                            * samples into map epochs (prof__epoch) */
	uint32_t nrm, caprm;
	uint64_t *crm;             /* the remaps of its chain (its own, its parent's
	                            * up to its birth, ...), ascending: its epochs' */
	uint32_t ncrm, capcrm;     /* bounds (prof__epoch), valid while crm_gen is */
	uint64_t crm_gen;          /* prof_priv.rm_gen + 1 */
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

struct prof_priv {
	uint64_t *pcs;             /* as recorded (pmc script prints them) */
	uint8_t *flags;
	uint32_t *locs;            /* after resolving: the loc of each pc */
	size_t npc, cappc;
	struct rstack *st;
	size_t nst, capst;
	struct hidx stab;          /* the stack table: st by their hash (hmap_chain_*),
	                            * which the perf.data reader computes while decoding */
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
	uint32_t nremaps;          /* remaps in all aspaces: 0, every epoch is 0 */
	int remap_late;            /* a remap came after samples later than it: their
	                            * epochs are checked at the end (prof__fix_epochs) */
	uint64_t max_stime;        /* the latest sample time so far */
	int sums_doomed;           /* a late remap split a sum: prof__sums_store
	                            * would refuse the sums, the pass stops */
	uint32_t late_checks;      /* late remaps looked at for that (at most 64) */
	int32_t ec_pid;            /* prof__epoch's latest answer: ec_k for times */
	uint32_t ec_k;             /* [ec_lo, ec_hi) of process ec_pid (dropped by a */
	uint64_t ec_lo, ec_hi;     /* remap or a fork) */
	int ec_ok;
	uint64_t rm_gen;           /* remaps and forks read (prof__epoch_forget):
	                            * an aspace's crm is of rm_gen + 1 */
	struct prof_frame *fa, *fb;
	size_t nfa, capfa, nfb, capfb;
	struct locx *lx;
	struct prof_frame *lxf;
	size_t nlxf, caplxf;
	struct sym_dso *unknown_dso;
	int kmap_seen;             /* the kernel's mapping (perf's MMAP) */
	struct inherit *inh;       /* applied in time order once everything is read */
	size_t ninh, capinh;
	struct prof_switch_in *sw_in;  /* switch-ins, for off-CPU durations (switches.c) */
	size_t nswin, capswin;
	struct unwinder *uw;       /* DWARF unwinding of sampled user stacks */
	struct uw_pending {        /* samples read before their process's mappings */
		size_t sample;
		struct pmclog_ev_callchain *cc;   /* a copy, pl_ustack copied after it */
	} *uwp;
	size_t nuwp, capuwp;
	int threads;               /* prof_load_opts.threads, 0 made the CPUs we may use */
	struct workpool *pool;     /* unwinding on worker threads, once a DWARF sample came */
	struct unwind_tables *uwtab; /* the pool's unwinders' (after the pool: freed after it) */
	struct hmap jobpid;        /* pid -> its samples handed to the pool (pool_shard) */
	uint32_t jobseq;           /* samples handed out in turn so far */
	pthread_mutex_t symmu;     /* p->st while the pool's unwinders use it */
	int symmu_made;
	const struct uw_job *pre;  /* the job being applied: its sample's unwinding,
	                            * with the mappings read before it (uw_job.mapseq):
	                            * the records read since may be handled already */
	int keep_sb;               /* prof_load_opts.sideband */
	int leaf_only;             /* prof_load_opts.leaf_only */
	int zero_frames;           /* prof_load_opts.zero_frames */
	struct walk_memo *wm;      /* the latest grouped walk's groups (foreach_group) */
	int sums;                  /* prof_load_opts.sums, and the input allows it */
	struct agg *ag;            /* its entries, in the order of their first samples */
	size_t nag, capag;
	struct hidx agt;           /* ag by agg.key */
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

/* Mark p out of memory; NULL, for the callers that return a pointer. */
static inline void *nomem(struct profile *p)
{
	p->priv->nomem = 1;
	return NULL;
}

/* Which of t's spans time falls in: how many of its events are at or
 * before it (a name given at time names a sample at time, comm_at). */
static inline uint32_t span_of(const struct tgen *t, uint64_t time)
{
	uint32_t k = t->nev;
	while (k && t->ev[k - 1] > time)   /* most samples follow the last event */
		k--;
	return k;
}

/* tasks.c: events, address spaces, threads and their names */
uint32_t prof__event_ix_slow(struct profile *p, uint32_t pmcid);
/* A system-mode event's PMC on another CPU joins the event made for the
 * first one: 1 if it did (nothing more to do for it). */
int prof__same_event_other_cpu(struct profile *p, const struct pmclog_ev_pmcallocate *a,
    const char *name);
/* The aspace of pid / the thread of tid, made if create (NULL out of
 * memory, or absent without create). */
struct aspace *prof__aspace(struct profile *p, int32_t pid, int create);
struct thread *prof__thread(struct profile *p, int32_t tid, int create);
struct tgen *prof__tgen_of(struct profile *p, int32_t tid);
const struct tgen *prof__tgen_find(const struct prof_priv *v, int32_t tid);
void prof__set_comm(struct profile *p, int32_t tid, uint64_t time, const char *name);
const char *prof__comm_at(struct profile *p, int32_t tid, uint64_t time);
void prof__add_inherit(struct profile *p, uint64_t time, int32_t parent, int32_t child);
void prof__apply_inherits(struct profile *p);
struct prof_proc *prof__proc(struct profile *p, int32_t pid, int32_t tid, uint32_t pmcid);
void prof__add_map(struct profile *p, const struct pmclog_ev_map_in *mi, uint64_t time);
struct aspace *prof__maps_of(struct profile *p, int32_t pid);
/* The map epoch of pid at time: how many remaps of its mappings (its own,
 * and its parent's up to its birth, ...) are at or before time.  Samples of
 * one epoch see the same mappings; 0 for most processes (none remapped). */
uint32_t prof__epoch(struct profile *p, int32_t pid, uint64_t time);
/* The time epoch k of pid ends: its next remap (UINT64_MAX: none). */
uint64_t prof__epoch_end(struct profile *p, int32_t pid, uint32_t k);
/* Drop what prof__epoch and prof__epoch_end keep (a remap or a fork
 * changes their answers). */
void prof__epoch_forget(struct profile *p);
/* pc's mapping in pid among those that came before time until and were
 * read as mapping maxseq or before (UINT64_MAX, UINT64_MAX: all so far):
 * its own latest covering pc, else its parent's as at its birth. */
const struct unwind_map *prof__find_map(struct profile *p, int32_t pid, uint64_t pc,
    uint64_t until, uint64_t maxseq);

/* stacks.c: where a sample lands */
/* The stack (pid, pcs, flags) of a sample at time, in its map epoch. */
uint32_t prof__intern_stack(struct profile *p, int32_t pid, uint64_t time, const uint64_t *pcs,
    const uint8_t *flags, uint32_t n);
/* Once everything is read: each sample's stack in the map epoch of its
 * time, where a remap read after the sample (another CPU's part of the
 * file) put it in the one before.  0, or -ENOMEM. */
int prof__fix_epochs(struct profile *p);
void prof__take_callchain(struct profile *p, const struct pmclog_ev *ev);
void prof__take_now(struct profile *p, const struct perfdata_sample *ps);
int prof__sums_store(struct profile *p);
/* A remap at time was read after samples later than it: does a sum hold
 * samples from after it that were given the epoch before?  Then
 * prof__sums_store would refuse the sums, and the pass can stop there. */
int prof__sums_split(struct profile *p, uint64_t time);
void prof__sums_free(struct prof_priv *v);

/* dwarf.c: unwinding, pending samples, the worker pool */
uint32_t prof__unwind_sample(struct profile *p, const struct pmclog_ev_callchain *cc,
    const uint64_t **pcs, const uint8_t **flags, uint32_t npc);
void prof__unwind_later(struct profile *p, const struct pmclog_ev_callchain *cc);
/* Had sample cc's process mappings to unwind it with when it was read (a
 * queued sample: its job says; the records read since may be handled)? */
int prof__mapped(struct profile *p, const struct pmclog_ev_callchain *cc);
void prof__unwind_pending(struct profile *p);
/* What prof__pooled did with a record. */
enum { POOL_NOT, POOL_QUEUED, POOL_BESIDE };
int prof__pooled(struct profile *p, const struct pmclog_ev *ev);
void prof__pool_sink(struct profile *p, const struct perfdata_sample *ps);

/* Has prof__pooled anything to do with record ev: a pool running, or a
 * DWARF sample that may start one?  Inline: every record asks, and most
 * of them (a report without DWARF samples: all) need not call it. */
static inline int pool_wants(const struct prof_priv *v, const struct pmclog_ev *ev)
{
	return v->pool || (ev->pl_type == PMCLOG_TYPE_CALLCHAIN && ev->pl_u.pl_cc.pl_nuregs);
}

/* profile.c: one record (a queued one too, from the pool) */
void prof__handle(struct profile *p, const struct pmclog_ev *ev);

/* switches.c: off-CPU durations, once everything is read */
void prof__switch_in(struct profile *p, int32_t tid, uint64_t time);
int prof__has_switch_event(const struct profile *p);
void prof__switches_apply(struct profile *p);

/* walk.c */
struct walk_memo;
void prof__memo_free(struct walk_memo *w);

/* The event of pmcid, made if new; NO_IX out of memory.  Inline for the
 * common answer, the last one: every sample asks. */
static inline uint32_t event_ix(struct profile *p, uint32_t pmcid)
{
	const struct prof_priv *v = p->priv;
	if (v->ev_last_ok && v->ev_last_id == pmcid)
		return v->ev_last;
	return prof__event_ix_slow(p, pmcid);
}

#endif
