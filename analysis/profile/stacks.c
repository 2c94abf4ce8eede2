/*
 * stacks.c — where a sample lands in the profile: its chain interned as a
 * stack (one id per distinct (process, pcs, flags), on hmap.h's hidx by
 * the chain's hmap_chain_* hash), the sample stored (add_sample: the one
 * place samples are added), or, with prof_load_opts.sums, added up into
 * one entry per (stack, event, CPU, pid, tid, naming generation).  Its two
 * entries: a pmc log's CALLCHAIN record (prof__take_callchain, from
 * prof__handle) and a perf.data sample from the reader's direct path
 * (prof__take_now).  docs/architecture.md "Routes of a sample".
 */
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/hmap.h"
#include "profile/profile_internal.h"

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

/* Is stored stack s the stack (pid, epoch, pcs, flags) of n frames? */
static inline int stack_is(const struct prof_priv *v, const struct rstack *s, int32_t pid,
    uint32_t epoch, const uint64_t *pcs, const uint8_t *flags, uint32_t n)
{
	if (s->n != n || s->pid != pid || s->epoch != epoch)
		return 0;
	if (n == 1)                   /* a flat report's leaf */
		return v->pcs[s->off] == pcs[0] && v->flags[s->off] == (flags[0] & PROF_PC_FLAGS);
	return memcmp(v->pcs + s->off, pcs, n * 8) == 0 && flags_equal(v->flags + s->off, flags, n);
}

/* What intern_hashed looks a stack up by (stack_eq). */
struct stack_key {
	const uint64_t *pcs;
	const uint8_t *flags;
	uint64_t h;
	int32_t pid;
	uint32_t epoch, n;
};

/* Is stored stack i the stack of key (its hash first: equal low 32 bits
 * brought us here)? */
static int stack_eq(const void *tab, uint32_t i, const void *key)
{
	const struct prof_priv *v = tab;
	const struct stack_key *k = key;
	const struct rstack *s = &v->st[i];
	return s->hash == k->h && stack_is(v, s, k->pid, k->epoch, k->pcs, k->flags, k->n);
}

/* The hash of a stack in a map epoch: the chain's hash (hmap_chain_*) in
 * epoch 0, as the perf.data reader computed it. */
static inline uint64_t epoch_hash(uint64_t h, uint32_t epoch)
{
	return epoch ? hmap_mix(h, epoch) : h;
}

/* The stack (pid, epoch, pcs, flags) whose hash is h (epoch_hash): its id,
 * made if new; NO_IX out of memory. */
static uint32_t intern_hashed(struct profile *p, int32_t pid, uint32_t epoch,
    const uint64_t *pcs, const uint8_t *flags, uint32_t n, uint64_t h)
{
	struct prof_priv *v = p->priv;
	struct stack_key k = { pcs, flags, h, pid, epoch, n };
	int added;
	struct hidx_slot *e = hidx_get(&v->stab, h, 4096, stack_eq, v, &k, (uint32_t)v->nst,
	    &added);

	if (!e)
		return nomem(p), NO_IX;
	if (!added)
		return e->v - 1;
	/* room for n more pcs at once, two arrays on one capacity */
	if (v->npc + n > v->cappc) {
		size_t cap = grow__cap(v->cappc, v->npc + n, 4096);
		uint64_t *pc2 = cap && cap <= SIZE_MAX / sizeof(*v->pcs)
		    ? realloc(v->pcs, cap * sizeof(*v->pcs)) : NULL;
		if (pc2)
			v->pcs = pc2;
		uint8_t *fl2 = pc2 ? realloc(v->flags, cap) : NULL;
		if (fl2)
			v->flags = fl2;
		if (!fl2) {   /* v->pcs may have grown; v->cappc still fits both */
			hidx_unadd(&v->stab, e);
			return nomem(p), NO_IX;
		}
		v->cappc = cap;
	}
	if (GROW(v->st, v->nst, v->capst)) {
		hidx_unadd(&v->stab, e);
		return nomem(p), NO_IX;
	}
	struct rstack *s = &v->st[v->nst];
	memset(s, 0, sizeof(*s));
	s->off = v->npc;
	s->n = n;
	s->pid = pid;
	s->epoch = epoch;
	s->hash = h;
	memcpy(v->pcs + v->npc, pcs, n * sizeof(*pcs));
	for (uint32_t i = 0; i < n; i++)
		v->flags[v->npc + i] = flags[i] & PROF_PC_FLAGS;
	v->npc += n;
	return (uint32_t)v->nst++;
}

uint32_t prof__intern_stack(struct profile *p, int32_t pid, uint64_t time, const uint64_t *pcs,
    const uint8_t *flags, uint32_t n)
{
	uint64_t h = HMAP_CHAIN_SEED;
	uint32_t epoch = prof__epoch(p, pid, time);
	for (uint32_t i = 0; i < n; i++)
		h = hmap_chain_step(h, pcs[i], flags[i] & PROF_PC_FLAGS);
	return intern_hashed(p, pid, epoch, pcs, flags, n, epoch_hash(hmap_chain_end(h, pid, n),
	    epoch));
}

int prof__fix_epochs(struct profile *p)
{
	struct prof_priv *v = p->priv;
	if (!v->remap_late)
		return 0;
	for (size_t i = 0; i < p->ns && !v->nomem; i++) {
		struct prof_sample s;
		samples__get(p->smp, i, &s);
		uint32_t epoch = prof__epoch(p, s.pid, s.time);
		const struct rstack *st = &v->st[s.stack];
		if (st->epoch == epoch)
			continue;
		/* interned again from a copy of its pcs: the arrays may move */
		uint32_t n = st->n;
		uint64_t *pcs = malloc(n * (sizeof(*pcs) + 1) + 1);
		if (!pcs)
			return nomem(p), -ENOMEM;
		uint8_t *fl = (uint8_t *)(pcs + n);
		memcpy(pcs, v->pcs + st->off, n * sizeof(*pcs));
		memcpy(fl, v->flags + st->off, n);
		s.stack = prof__intern_stack(p, s.pid, s.time, pcs, fl, n);
		free(pcs);
		if (s.stack == NO_IX || samples__set(p->smp, i, &s) < 0)
			return nomem(p), -ENOMEM;
	}
	v->remap_late = 0;
	return v->nomem ? -ENOMEM : 0;
}

/* Store sample s (of event s->ev): the one place samples are added. */
static void add_sample(struct profile *p, const struct prof_sample *s)
{
	uint64_t t = s->time;
	if (t > p->priv->max_stime)
		p->priv->max_stime = t;
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
		v->gc_t = prof__tgen_of(p, tid);
		v->gc_pt = tid == pid ? NULL : prof__tgen_find(v, pid);   /* after tgen_of: tg may move */
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

/* What sum_sample looks an entry up by (agg_eq). */
struct agg_key {
	const struct perfdata_sample *ps;
	uint64_t key, gen;
	uint32_t epoch;
	int32_t pid, tid;
	uint16_t cpu, ev;
};

/* Is entry i that of key (its key first: equal low 32 bits brought us
 * here)? */
static int agg_eq(const void *tab, uint32_t i, const void *key)
{
	const struct prof_priv *v = tab;
	const struct agg_key *k = key;
	const struct agg *a = &v->ag[i];
	return a->key == k->key && a->tid == k->tid && a->cpu == k->cpu && a->ev == k->ev &&
	    a->gen == k->gen && a->pid == k->pid &&
	    stack_is(v, &v->st[a->stack], k->pid, k->epoch, k->ps->pcs, k->ps->flags, k->ps->npc);
}

/* Add sample ps of event e to its entry, made if new (ps->hash is the
 * chain's hmap_chain_* hash, as intern_hashed takes it). */
static void sum_sample(struct profile *p, const struct perfdata_sample *ps, uint32_t e)
{
	struct prof_priv *v = p->priv;
	int32_t pid = (int32_t)ps->pid, tid = (int32_t)ps->tid;
	uint16_t cpu = (uint16_t)ps->cpu;
	uint64_t gen = sample_gen(p, pid, tid, ps->time);
	uint32_t epoch = prof__epoch(p, pid, ps->time);
	uint64_t h = epoch_hash(ps->hash, epoch);
	struct agg *a;

	if (ps->time > v->max_stime)
		v->max_stime = ps->time;
	/* most samples repeat the latest one's entry: no hash, no probe */
	if (v->ag_last) {
		a = &v->ag[v->ag_last - 1];
		if (a->tid == tid && a->cpu == cpu && a->ev == e && a->gen == gen &&
		    v->st[a->stack].hash == h &&
		    stack_is(v, &v->st[a->stack], pid, epoch, ps->pcs, ps->flags, ps->npc))
			goto add;
	}
	uint64_t key = hmap_mix(h ^ gen, (uint64_t)(uint32_t)tid << 32 |
	    (uint64_t)cpu << 16 | e);
	struct agg_key k = { ps, key, gen, epoch, pid, tid, cpu, (uint16_t)e };
	int added;
	struct hidx_slot *slot = hidx_get(&v->agt, key, 1024, agg_eq, v, &k, (uint32_t)v->nag,
	    &added);
	if (!slot) {
		nomem(p);
		return;
	}
	if (!added) {
		a = &v->ag[slot->v - 1];
		goto found;
	}
	uint32_t stack = intern_hashed(p, pid, epoch, ps->pcs, ps->flags, ps->npc, h);
	if (stack == NO_IX || GROW(v->ag, v->nag, v->capag)) {
		hidx_unadd(&v->agt, slot);
		nomem(p);
		return;
	}
	a = &v->ag[v->nag++];
	*a = (struct agg){ .key = key, .gen = gen, .stack = stack, .ev = (uint16_t)e,
	    .cpu = cpu, .pid = pid, .tid = tid, .tmin = ps->time, .tmax = ps->time,
	    .tfirst = UINT64_MAX };
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
	const struct thread *t = prof__thread(p, a->tid, 0);
	if (!t || !t->n)
		t = prof__thread(p, a->pid, 0);
	if (!t || t->n < 2)
		return 1;
	const char *c = profile__comm(p, a->pid, a->tid, a->tmin);
	for (size_t i = 0; i < t->n; i++)
		if (t->h[i].time > a->tmin && t->h[i].time <= a->tmax &&
		    profile__comm(p, a->pid, a->tid, t->h[i].time) != c)
			return 0;
	return 1;
}

/* A late remap at time (profile_internal.h): only entries with samples at or
 * after it can straddle it. */
int prof__sums_split(struct profile *p, uint64_t time)
{
	struct prof_priv *v = p->priv;
	for (size_t i = 0; i < v->nag; i++) {
		const struct agg *a = &v->ag[i];
		if (a->tmax >= time && prof__epoch(p, a->pid, a->tmax) != v->st[a->stack].epoch)
			return 1;
	}
	return 0;
}

/* The entries as samples, once everything is read and named: 0, or 1 when
 * the input must be read again sample by sample (an entry had two names,
 * or off-CPU durations are to be worked out per sample: switches.c). */
int prof__sums_store(struct profile *p)
{
	struct prof_priv *v = p->priv;
	if (v->nswin && prof__has_switch_event(p))
		return 1;
	/* a remap read after samples later than it: an entry whose samples
	 * straddle it, or sit after it in the epoch before, needs them one by
	 * one (prof__fix_epochs) */
	for (size_t i = 0; i < v->nag && v->remap_late; i++) {
		const struct agg *a = &v->ag[i];
		uint32_t e = v->st[a->stack].epoch;
		if (prof__epoch(p, a->pid, a->tmin) != e || prof__epoch(p, a->pid, a->tmax) != e)
			return 1;
	}
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
	hidx_free(&v->agt);
	v->ag = NULL;
	v->nag = v->capag = 0;
	v->ag_last = 0;
	return 0;
}

/* A perf.data sample straight from the reader (input__set_sample_sink):
 * what prof__handle() does with its CALLCHAIN event, the chain already trimmed
 * and hashed. */
void prof__take_now(struct profile *p, const struct perfdata_sample *ps)
{
	uint32_t e;

	if (p->priv->nomem || (e = event_ix(p, ps->pmcid)) == NO_IX)
		return;
	if (p->priv->sums) {
		sum_sample(p, ps, e);
	} else {
		uint32_t epoch = prof__epoch(p, (int32_t)ps->pid, ps->time);
		struct prof_sample s = {
		    .stack = intern_hashed(p, (int32_t)ps->pid, epoch, ps->pcs, ps->flags, ps->npc,
		        epoch_hash(ps->hash, epoch)),
		    .ev = (uint16_t)e, .cpu = (uint16_t)ps->cpu, .pid = (int32_t)ps->pid,
		    .tid = (int32_t)ps->tid, .time = ps->time, .period = ps->period };
		add_sample(p, &s);
	}
}

/* A pmc log's sample (its CALLCHAIN record; prof__handle): summed (sums),
 * kept for unwinding once its process has mappings, unwound (DWARF), or
 * stored with its chain as recorded. */
void prof__take_callchain(struct profile *p, const struct pmclog_ev *ev)
{
	const struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	uint64_t t = ev->pl_time;
	uint32_t e;
	if (cc->pl_npc == 0)
		return;
	if ((e = event_ix(p, cc->pl_pmcid)) == NO_IX)
		return;
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
		return;
	}
	if (cc->pl_nuregs && !prof__mapped(p, cc))
		prof__unwind_later(p, cc);
	else if (cc->pl_nuregs)
		npc = prof__unwind_sample(p, cc, &pcs, &fl, npc);
	struct prof_sample s = { .stack = prof__intern_stack(p, (int32_t)cc->pl_pid, t, pcs, fl,
	    npc),
	    .ev = (uint16_t)e, .cpu = (uint16_t)cc->pl_cpu, .pid = (int32_t)cc->pl_pid,
	    .tid = (int32_t)cc->pl_tid, .time = t, .period = cc->pl_period };
	add_sample(p, &s);
}
