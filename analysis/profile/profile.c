/*
 * profile.c — loading a recording into memory (profile.h): the records'
 * dispatch (prof__handle), profile__load (with sums, read again when they
 * are ambiguous), profile__feed for a live reader, profile__new/free.  The
 * rest of the profile is in the files profile_internal.h lists.
 *
 * Samples keep raw pcs until the whole input is read: the writer drains
 * per-CPU rings in turn, so a sample may come before the MMAP or COMM record
 * that explains it.  At the end each distinct (process, pc) is mapped to a
 * location through the process's mappings (the latest mapping covering the
 * pc wins, by time: records of different CPUs are not in file order; a
 * forked child without its own mapping uses its parent's), each
 * distinct (binary, address) to a function, and each sample's command name
 * is the one its thread had at the sample's time (resolve.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "common/grow.h"
#include "profile/profile_internal.h"
#include "util/printable.h"
#include "util/workpool.h"

int profile__nomem(const struct profile *p)
{
	return p->priv->nomem || samples__nomem(p->smp) || symtab__nomem(p->st) ?
	    pmc__nomem() : 0;
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

/* A PMC's allocation: its event, named. */
static void take_alloc(struct profile *p, const struct pmclog_ev_pmcallocate *a)
{
	const char *name = symtab__intern_name(p->st, a->pl_evname && *a->pl_evname ?
	    a->pl_evname : (pmc_name_of_event((enum pmc_event)a->pl_event) ?
	    pmc_name_of_event((enum pmc_event)a->pl_event) : "?"));
	if (prof__same_event_other_cpu(p, a, name))
		return;
	uint32_t ix = event_ix(p, a->pl_pmcid);   /* may move p->ev */
	if (ix == NO_IX)
		return;
	struct prof_event *e = &p->ev[ix];
	e->name = name;
	e->rate = a->pl_rate;
	e->freq = (int)a->pl_freq;
	e->mode = a->pl_mode;
	e->flags = a->pl_flags;
	e->percpu = a->pl_cpu >= 0 && PMC_IS_SYSTEM_MODE((enum pmc_mode)a->pl_mode);
}

/* A task's record: a fork, an exec, a name, a thread's or a process's
 * creation (tasks.c keeps what they tell). */
static void take_task(struct profile *p, const struct pmclog_ev *ev)
{
	uint64_t t = ev->pl_time;
	switch (ev->pl_type) {
	case PMCLOG_TYPE_PROCFORK: {
		const struct pmclog_ev_procfork *f = &ev->pl_u.pl_f;
		struct aspace *a = prof__aspace(p, f->pl_newpid, 1);
		if (!a)
			break;
		a->ppid = f->pl_oldpid;
		a->fork_time = t;
		prof__epoch_forget(p);    /* pid's epochs may count its parent's remaps now */
		prof__add_inherit(p, t, f->pl_oldtid > 0 ? f->pl_oldtid : f->pl_oldpid,
		    f->pl_newtid > 0 ? f->pl_newtid : f->pl_newpid);
		break;
	}
	case PMCLOG_TYPE_PROCEXEC: {
		struct aspace *a = prof__aspace(p, (int32_t)ev->pl_u.pl_x.pl_pid, 1);
		if (!a)
			break;
		/* The exec's COMM (the kernel's name: "python3" for the
		 * python3 -> python3.11 link, as perf shows) names it; the
		 * executable's file name only where no COMM came (hwpmc logs). */
		if (!a->exec_by_comm) {
			a->exec_time = t;
			prof__set_comm(p, ev->pl_u.pl_x.pl_tid > 0 ? ev->pl_u.pl_x.pl_tid :
			    ev->pl_u.pl_x.pl_pid, t, ev->pl_u.pl_x.pl_pathname[0] == '/' ?
			    strrchr(ev->pl_u.pl_x.pl_pathname, '/') + 1 : ev->pl_u.pl_x.pl_pathname);
		}
		a->exec_by_comm = 0;
		break;
	}
	case PMCLOG_TYPE_COMM:
		prof__set_comm(p, ev->pl_u.pl_cm.pl_tid, t, ev->pl_u.pl_cm.pl_comm);
		if ((ev->pl_u.pl_cm.pl_flags & PMCLOG_COMM_F_EXEC) && ev->pl_u.pl_cm.pl_pid > 0) {
			struct aspace *a = prof__aspace(p, ev->pl_u.pl_cm.pl_pid, 1);
			if (!a)
				break;
			a->exec_time = t;
			a->exec_by_comm = 1;
		}
		break;
	case PMCLOG_TYPE_THR_CREATE:
		if (ev->pl_u.pl_tc.pl_tdname[0])
			prof__set_comm(p, ev->pl_u.pl_tc.pl_tid, t, ev->pl_u.pl_tc.pl_tdname);
		else
			prof__add_inherit(p, t, ev->pl_u.pl_tc.pl_pid, ev->pl_u.pl_tc.pl_tid);
		break;
	case PMCLOG_TYPE_PROC_CREATE:
		prof__set_comm(p, ev->pl_u.pl_pc.pl_pid, t, ev->pl_u.pl_pc.pl_pcomm);
		break;
	default:
		break;
	}
}

/* One record of the input (a sample's CALLCHAIN goes to stacks.c). */
void prof__handle(struct profile *p, const struct pmclog_ev *ev)
{
	uint64_t t = ev->pl_time;
	switch (ev->pl_type) {
	case PMCLOG_TYPE_HEADER:
		take_header(p, &ev->pl_u.pl_h);
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		take_alloc(p, &ev->pl_u.pl_a);
		break;
	case PMCLOG_TYPE_PMCALLOCATEDYN: {
		uint32_t ix = event_ix(p, ev->pl_u.pl_ad.pl_pmcid);
		if (ix == NO_IX)
			break;
		struct prof_event *e = &p->ev[ix];
		e->name = symtab__intern_name(p->st, ev->pl_u.pl_ad.pl_evname);
		break;
	}
	case PMCLOG_TYPE_CALLCHAIN:
		prof__take_callchain(p, ev);
		break;
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
		prof__add_map(p, &ev->pl_u.pl_mi, t);
		break;
	case PMCLOG_TYPE_PROCFORK:
	case PMCLOG_TYPE_PROCEXEC:
	case PMCLOG_TYPE_COMM:
	case PMCLOG_TYPE_THR_CREATE:
	case PMCLOG_TYPE_PROC_CREATE:
		take_task(p, ev);
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
		struct prof_proc *pr = prof__proc(p, (int32_t)x->pl_pid, x->pl_tid, x->pl_pmcid);
		if (pr)
			pr->exit_value += x->pl_value;
		break;
	}
	case PMCLOG_TYPE_PROCCSW: {
		const struct pmclog_ev_proccsw *c = &ev->pl_u.pl_c;
		struct prof_proc *pr = prof__proc(p, c->pl_pid, c->pl_tid, c->pl_pmcid);
		if (pr)
			pr->csw_value += c->pl_value;
		break;
	}
	case PMCLOG_TYPE_SWITCH:
		if (!(ev->pl_u.pl_sw.pl_flags & PMCLOG_SWITCH_F_OUT))
			prof__switch_in(p, ev->pl_u.pl_sw.pl_tid, t);
		break;
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
	prof__handle(p, ev);
	if (profile__nomem(p))
		return -ENOMEM;
	/* Births are applied at once: a live reader cannot wait for the end
	 * (records of one process mostly arrive in order). */
	prof__apply_inherits(p);
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

/* The perf.data reader's sample sink (input__set_sample_sink): the direct
 * path, taken now (stacks.c) or queued behind DWARF samples (dwarf.c). */
static void take_sample(void *arg, const struct perfdata_sample *ps)
{
	struct loading *l = arg;
	struct profile *p = l->p;

	if (!p->priv->pool)
		prof__take_now(p, ps);
	else
		prof__pool_sink(p, ps);
	loaded(p, l->o);
}

/* The unwinding threads when prof_load_opts.threads does not say: the
 * reading thread has work of its own (reading, decompressing, applying
 * every sample in order), so the workers leave it a CPU; and below 4 CPUs
 * none at all: on 2, a -g report of the bench's DWARF recordings took
 * 1.5-2x as long with 2 workers as with none (docs/BENCHMARKS.md, seventh
 * round), the pool's hand-offs costing more than the unwinding it spreads. */
static int default_threads(void)
{
	int n = workpool__cpus();
	return n < 4 ? 1 : n - 1;
}

/* Can the input at path be read twice (prof__sums_store may ask for it)? */
static int rereadable(const char *path, const struct prof_load_opts *o)
{
	struct stat sb;
	return !o->follow && strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* profile__load, with sums or without: 0, -errno, or when the sums are
 * ambiguous (prof__sums_store) 1 if a perf.data read in its own order could be
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
	p->priv->threads = o && o->threads ? o->threads : default_threads();
	while (!p->priv->nomem && !p->priv->sums_doomed && input__read(in, ev) == 0) {
		int q = pool_wants(p->priv, ev) ? prof__pooled(p, ev) : POOL_NOT;
		if (q == POOL_BESIDE)
			pthread_mutex_lock(&p->priv->symmu);   /* the workers run */
		if (q == POOL_QUEUED)
			;                 /* applied in input order */
		else if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN)
			prof__take_callchain(p, ev);   /* most records: no dispatch */
		else
			prof__handle(p, ev);
		if (p->priv->keep_sb)
			keep_side(p, ev);
		if (q == POOL_BESIDE)
			pthread_mutex_unlock(&p->priv->symmu);
		loaded(p, o);
	}
	prof__unwind_pending(p);
	workpool__free(p->priv->pool);
	p->priv->pool = NULL;
	/* a perf.data read in its own order may be read in time order */
	int again = strcmp(p->input_kind, "perf.data") == 0 && o && o->input_order ? 1 : 2;
	if (p->priv->sums_doomed) {
		input__close(in);
		free(ev);
		profile__free(p);
		return again;
	}
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
	prof__apply_inherits(p);
	if (sums && !profile__nomem(p) && prof__sums_store(p)) {
		profile__free(p);
		return again;
	}
	if (!sums)
		(void)prof__fix_epochs(p);   /* sticky: profile__nomem */
	if (profile__nomem(p)) {
		profile__free(p);
		pmc__clear_reason();    /* this is why, whatever the reader said */
		return pmc__nomem();
	}
	prof__switches_apply(p);
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

void profile__free(struct profile *p)
{
	if (!p)
		return;
	struct prof_priv *v = p->priv;
	if (v) {
		prof__memo_free(v->wm);
		workpool__free(v->pool);
		unwind_tables__free(v->uwtab);
		free(v->jobpid.t);
		if (v->symmu_made)
			pthread_mutex_destroy(&v->symmu);
		unwind__free(v->uw);
		free(v->pcs);
		free(v->flags);
		free(v->locs);
		free(v->st);
		hidx_free(&v->stab);
		for (size_t i = 0; i < v->nas; i++) {
			free(v->as[i].m);
			free(v->as[i].ix);
			free(v->as[i].crm);
			free(v->as[i].rm);
		}
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
		hidx_free(&v->agt);
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
