/*
 * dwarf.c — the samples that carry user registers and stack bytes
 * (--call-graph dwarf): their user part unwound from DWARF CFI
 * (symbols/unwind.h), those read before their process's mappings kept and
 * unwound at the end of loading, and the worker pool that unwinds them on
 * other threads while the samples are still applied in input order.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/grow.h"
#include "profile/profile_internal.h"
#include "util/workpool.h"

/* Count a truncated stack under the binary where its unwinding stopped and
 * why (the report's per-binary warning lines), among the mappings it was
 * unwound with (read as mapping maxseq or before). */
static void count_stop(struct profile *p, int32_t pid, enum unwind_stop why, uint64_t pc,
    uint64_t maxseq)
{
	const struct unwind_map *m = pc ? prof__find_map(p, pid, pc, UINT64_MAX, maxseq) : NULL;
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
	int kind;                  /* JOB_EV: a CALLCHAIN record for prof__handle(); JOB_SINK:
	                            * a perf.data sample for take_sample; JOB_PENDING:
	                            * prof_priv.uwp[pending] */
	int unwind;                /* a worker unwinds it (its process has mappings) */
	size_t pending;
	int32_t space;             /* the mappings' aspace, as maps_of gave them */
	uint32_t shard;            /* which worker unwinds it (pool_shard) */
	uint64_t mapseq;           /* the mappings read before it (prof_priv.mapseq) */
	const struct unwind_map *maps;
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
uint32_t prof__unwind_sample(struct profile *p, const struct pmclog_ev_callchain *cc,
    const uint64_t **pcs, const uint8_t **flags, uint32_t npc)
{
	struct prof_priv *v = p->priv;
	const struct uw_job *j = v->pre;
	struct aspace *a = j ? NULL : prof__maps_of(p, (int32_t)cc->pl_pid);
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
		if (!v->uw && !(v->uw = unwind__new(NULL)))
			return npc;
		n = a ? unwind__mark(a->m, a->n), unwind__user(v->uw, a->pid, a->m, a->n, cc,
		    v->uwpcs + nk, PMC_CALLCHAIN_DEPTH_MAX - (int)nk, &complete) : 0;
		why = unwind__last_stop(v->uw, &stop_pc);
	}
	p->unwind_samples++;
	if (!complete) {
		p->unwind_truncated++;
		if (mapped)
			count_stop(p, (int32_t)cc->pl_pid, why, stop_pc, j ? j->mapseq : UINT64_MAX);
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

int prof__mapped(struct profile *p, const struct pmclog_ev_callchain *cc)
{
	const struct uw_job *j = p->priv->pre;
	return j ? j->unwind : prof__maps_of(p, (int32_t)cc->pl_pid) != NULL;
}

/* Records of a process can come before its mappings (each CPU's ring is
 * drained in turn): keep such a sample's registers and stack and unwind it
 * when everything has been read (profile__load's end). */
void prof__unwind_later(struct profile *p, const struct pmclog_ev_callchain *cc)
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
	uint32_t npc = prof__unwind_sample(p, cc, &pcs, &fl, cc->pl_npc);
	struct prof_sample s;
	samples__get(p->smp, v->uwp[i].sample, &s);
	s.stack = prof__intern_stack(p, (int32_t)cc->pl_pid, s.time, pcs, fl, npc);
	(void)samples__set(p->smp, v->uwp[i].sample, &s);   /* sticky: profile__nomem */
}

static struct uw_job *pool_job(struct profile *p, int kind, const struct pmclog_ev_callchain *cc,
    uint32_t npc, size_t tail);

void prof__unwind_pending(struct profile *p)
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

/* ---- unwinding on worker threads -------------------------------------------
 *
 * Once a DWARF sample comes (and prof_load_opts.threads is more than one),
 * every sample is queued to a workpool (workpool.h): the DWARF ones are
 * unwound on its workers, each with its own unwinder, and each queued
 * sample is then applied on this thread, in input order, as prof__handle() or
 * prof__take_now would have taken it when it was read: the same stacks, ids,
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
	struct unwinder *u = unwind__new(p->priv->uwtab);   /* rules made once for all */
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
		prof__handle(p, &j->u.ev);
		break;
	case JOB_SINK: {
		struct perfdata_sample ps = j->u.ps;
		ps.pcs = (const uint64_t *)(uintptr_t)job_tail(j);
		ps.flags = job_tail(j) + (size_t)ps.npc * sizeof(uint64_t);
		prof__take_now(p, &ps);
		break;
	}
	case JOB_PENDING:
		pending_one(p, j->pending);
		break;
	}
	v->pre = NULL;
	pthread_mutex_unlock(&v->symmu);
}

/* A process's first samples go to one worker, chosen by its pid: each
 * worker unwinds in an address space of its own, and a system-wide
 * recording's hundreds of processes with a few dozen samples each were set
 * up (a Dwfl, its modules, its rule cache) in every worker.  Past
 * SHARD_SOLO samples a process's samples go to the workers in turn: it
 * has enough to pay for its space in each, and a one-process recording is
 * unwound on every worker. */
#define SHARD_SOLO 256

static unsigned pool_shard(const void *job)
{
	return ((const struct uw_job *)job)->shard;
}

static const struct workpool_ops pool_ops = {
	pool_worker_new, pool_worker_free, pool_work, pool_apply, pool_shard
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
	if ((!v->uwtab && !(v->uwtab = unwind_tables__new())) ||
	    !(v->pool = workpool__new(v->threads, POOL_BATCH, &pool_ops, p))) {
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
	struct aspace *a = cc && cc->pl_nuregs && npc ? prof__maps_of(p, (int32_t)cc->pl_pid) : NULL;
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
		j->mapseq = v->mapseq;
		int found;
		struct hent *e = hmap_slot(&v->jobpid, (uint32_t)a->pid, 0, &found);
		uint32_t seen = !e ? UINT32_MAX : found ? ++e->v : (e->v = 1);
		j->shard = seen <= SHARD_SOLO ? (uint32_t)a->pid * 2654435761u >> 16 : v->jobseq++;
	}
	return j;
}

/* Copy sample record ev to d without the unused tails of its pc arrays
 * (512 entries, most of 5 KB): what prof__handle() reads. */
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
	d->pl_data = NULL;                /* not kept: prof__handle() does not read them */
	dc->pl_raw = NULL;
	dc->pl_raw_len = 0;
}

/* Can record ev be handled while the workers unwind the samples queued
 * before it (under symmu, which they take around the symtab)?  They read
 * the mappings of their samples' processes, as many as each job took: a
 * mapping appended is not theirs, one that moves the array (grown) is.
 * Names go by time and are applied at the end; kernel symbols are the
 * symtab's.  Anything else that the samples applied before it would see
 * (an event, a marker, a process's counts, a birth: where a child's
 * truncated stack is counted looks up its parent's mappings) is handled
 * after them.  A system-wide recording has two such records for
 * each sample: drained at each, its pool ran one batch at a time. */
static int beside_workers(struct profile *p, const struct pmclog_ev *ev)
{
	switch (ev->pl_type) {
	case PMCLOG_TYPE_MAP_IN: {
		const struct aspace *a = ev->pl_u.pl_mi.pl_pid >= 0 ?
		    prof__aspace(p, ev->pl_u.pl_mi.pl_pid, 0) : NULL;
		return !a || a->n < a->cap;
	}
	case PMCLOG_TYPE_COMM:
	case PMCLOG_TYPE_PROCEXEC:
	case PMCLOG_TYPE_THR_CREATE:
	case PMCLOG_TYPE_PROC_CREATE:
	case PMCLOG_TYPE_KSYMSRC:
	case PMCLOG_TYPE_KSYMBOL:
	case PMCLOG_TYPE_DROPNOTIFY:
	case PMCLOG_TYPE_THR_EXIT:         /* shown by script, else nothing */
	case PMCLOG_TYPE_SYSEXIT:
		return 1;
	default:
		return 0;
	}
}

/* Queue record ev (pool running): a sample, copied with its stack
 * (POOL_QUEUED); another record the caller handles, now, while the
 * workers unwind, holding symmu (POOL_BESIDE), or once the queue is
 * drained (POOL_NOT: no worker runs then). */
int prof__pooled(struct profile *p, const struct pmclog_ev *ev)
{
	struct prof_priv *v = p->priv;
	const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	uint32_t npc = cc->pl_npc;
	struct uw_job *j;

	if (ev->pl_type != PMCLOG_TYPE_CALLCHAIN) {
		if (!v->pool)
			return POOL_NOT;
		if (beside_workers(p, ev))
			return POOL_BESIDE;
		workpool__drain(v->pool);
		return POOL_NOT;
	}
	/* a flat report (leaf_only) unwinds nothing: no pool for it */
	if (!v->pool && (!cc->pl_nuregs || v->leaf_only || pool_start(p) < 0))
		return POOL_NOT;
	/* as prof__handle() trims it */
	while (npc > 1 && cc->pl_pc[npc - 1] == 0 && !v->zero_frames)
		npc--;
	if (!(j = pool_job(p, JOB_EV, cc, npc, align8(cc->pl_ustack_len))))
		return POOL_QUEUED;
	copy_sample(&j->u.ev, ev);
	if (cc->pl_ustack_len)
		memcpy(job_tail(j), cc->pl_ustack, cc->pl_ustack_len);
	return POOL_QUEUED;
}

/* Queue perf.data sample ps (the pool running) to be taken in input order
 * (pool_apply: prof__take_now). */
void prof__pool_sink(struct profile *p, const struct perfdata_sample *ps)
{
	struct uw_job *j = pool_job(p, JOB_SINK, NULL, 0, (size_t)ps->npc * 9);
	if (!j)
		return;
	j->u.ps = *ps;
	memcpy(job_tail(j), ps->pcs, (size_t)ps->npc * sizeof(uint64_t));
	memcpy(job_tail(j) + (size_t)ps->npc * sizeof(uint64_t), ps->flags, ps->npc);
}
