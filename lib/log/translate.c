/*
 * translate.c — kernel ring records (PERF_RECORD_*) to log records.
 *
 * Runs in the writer (under its mutex).  Samples are decoded by the one
 * sample decoder (lib/common/perf_sample.c) with the layout the counter was
 * registered with (pmc__logw_add_event); other records here, bounds-checked
 * against the record size.  A record that does not decode is counted as an
 * error and dropped.  The mapping is
 * documented in docs/log-format.md ("From kernel records").
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/grow.h"
#include "log/writer_impl.h"

/* lib/common/perf_sample.h names the kernel's ABI values itself. */
_Static_assert(PSAMPLE_IP == PERF_SAMPLE_IP && PSAMPLE_READ == PERF_SAMPLE_READ &&
    PSAMPLE_CALLCHAIN == PERF_SAMPLE_CALLCHAIN && PSAMPLE_REGS_USER == PERF_SAMPLE_REGS_USER &&
    PSAMPLE_STACK_USER == PERF_SAMPLE_STACK_USER && PSAMPLE_IDENTIFIER == PERF_SAMPLE_IDENTIFIER &&
    PSAMPLE_TID == PERF_SAMPLE_TID && PSAMPLE_TIME == PERF_SAMPLE_TIME &&
    PSAMPLE_ID == PERF_SAMPLE_ID && PSAMPLE_CPU == PERF_SAMPLE_CPU &&
    PSAMPLE_PERIOD == PERF_SAMPLE_PERIOD && PSAMPLE_REGS_ABI_NONE == PERF_SAMPLE_REGS_ABI_NONE &&
    PSAMPLE_FMT_GROUP == PERF_FORMAT_GROUP && PSAMPLE_FMT_ID == PERF_FORMAT_ID &&
    PSAMPLE_REGS_ABI_64 == PERF_SAMPLE_REGS_ABI_64 &&
    PSAMPLE_CONTEXT_USER == (uint64_t)PERF_CONTEXT_USER &&
    PSAMPLE_CONTEXT_KERNEL == (uint64_t)PERF_CONTEXT_KERNEL &&
    PSAMPLE_CONTEXT_HV == (uint64_t)PERF_CONTEXT_HV &&
    PSAMPLE_CONTEXT_GUEST_USER == (uint64_t)PERF_CONTEXT_GUEST_USER &&
    PSAMPLE_CONTEXT_GUEST_KERNEL == (uint64_t)PERF_CONTEXT_GUEST_KERNEL &&
    PSAMPLE_CONTEXT_MAX == (uint64_t)PERF_CONTEXT_MAX &&
    PSAMPLE_MISC_CPUMODE_MASK == PERF_RECORD_MISC_CPUMODE_MASK &&
    PSAMPLE_MISC_USER == PERF_RECORD_MISC_USER &&
    PSAMPLE_MISC_GUEST_USER == PERF_RECORD_MISC_GUEST_USER,
    "perf_sample.h and the kernel disagree");

/* A bounded cursor over a record body. */
struct cur {
	const unsigned char *p;
	size_t n, off;
	int bad;
};

static uint64_t get64(struct cur *c)
{
	uint64_t v;
	if (c->off + 8 > c->n) {
		c->bad = 1;
		return 0;
	}
	memcpy(&v, c->p + c->off, 8);
	c->off += 8;
	return v;
}

static void get2x32(struct cur *c, uint32_t *a, uint32_t *b)
{
	uint32_t v[2] = { 0, 0 };
	if (c->off + 8 > c->n) {
		c->bad = 1;
	} else {
		memcpy(v, c->p + c->off, 8);
		c->off += 8;
	}
	*a = v[0];
	*b = v[1];
}

/* What the sample_id_all trailer says. */
struct trailer {
	struct logw_event *ev;
	pmc_id_t pmc;
	uint64_t time;
	int has_time;
	int32_t cpu;
	int32_t pid, tid;             /* -1 unless PSAMPLE_TID */
	size_t size;                  /* bytes of trailer */
};

static void parse_trailer(struct pmc_logw *lw, const unsigned char *body, size_t n,
    struct trailer *t)
{
	struct psample_trailer pt;
	uint64_t id;

	memset(t, 0, sizeof(*t));
	t->pmc = PMC_ID_INVALID;
	t->cpu = -1;
	t->pid = t->tid = -1;
	if (n < 8)
		return;
	/* pmc opens its events with PSAMPLE_IDENTIFIER: the id is the
	 * trailer's last u64 (psample_layout.is_pos 1) */
	memcpy(&id, body + n - 8, 8);
	t->ev = pmc__logw_find_event(lw, id);
	if (!t->ev)
		return;
	t->pmc = t->ev->pmc;
	if (psample__parse_trailer(&t->ev->layout, body, n, PSAMPLE_HOST_BE, &pt) < 0)
		return;
	t->size = pt.size;
	if (pt.has_tid) {
		t->pid = (int32_t)pt.pid;
		t->tid = (int32_t)pt.tid;
	}
	t->time = pt.time;
	t->has_time = pt.has_time;
	if (pt.has_cpu)
		t->cpu = (int32_t)pt.cpu;
}

static uint64_t rec_time(struct pmc_logw *lw, const struct trailer *t)
{
	if (t->has_time)
		return t->time;
	if (lw->cur_be && lw->cur_be->now)
		return lw->cur_be->now();
	return pmc__logw_clock(lw);
}

static void emit(struct pmc_logw *lw, uint64_t ts)
{
	pmc__logw_append(lw, lw->rec.type, ts, lw->rec.buf, lw->rec.len);
}

/* ---- per-(tid, member id) values for PROCCSW ------------------------- */

static uint64_t csw_hash(int32_t tid, uint64_t kid)
{
	uint64_t h = ((uint64_t)(uint32_t)tid * 0x9E3779B97F4A7C15ull) ^ (kid * 0xC2B2AE3D27D4EB4Full);
	return h >> 29;
}

static int csw_eq(const void *tab, uint32_t i, const void *key)
{
	const struct logw_csw *e = &((const struct pmc_logw *)tab)->csw[i], *k = key;
	return e->tid == k->tid && e->kid == k->kid;
}

static struct logw_csw *csw_get(struct pmc_logw *lw, int32_t tid, uint64_t kid)
{
	struct logw_csw k = { .kid = kid, .last = 0, .tid = tid };
	int added;
	struct hidx_slot *s = hidx_get(&lw->cswix, csw_hash(tid, kid), 256, csw_eq, lw, &k,
	    (uint32_t)lw->ncsw, &added);
	if (s && !added)
		return &lw->csw[s->v - 1];
	if (!s || GROW(lw->csw, lw->ncsw, lw->cswcap) < 0) {
		if (s)
			hidx_unadd(&lw->cswix, s);
		return NULL;
	}
	lw->csw[lw->ncsw] = k;
	return &lw->csw[lw->ncsw++];
}

/* A thread ended: forget its values (tids are reused). */
static void csw_forget(struct pmc_logw *lw, int32_t tid)
{
	if (!lw->ncsw)
		return;
	for (size_t i = 0; i < lw->nev; i++) {
		struct logw_csw k = { .kid = lw->ev[i].kid, .tid = tid };
		int64_t e = hidx_find(&lw->cswix, csw_hash(tid, k.kid), csw_eq, lw, &k);
		if (e >= 0)
			lw->csw[e].last = 0;
	}
}

/* ---- read_format values ---------------------------------------------- */

#define MAX_READ 64

/* The read values of a decoded sample or READ record (at most MAX_READ). */
static int read_values(const struct psample *ps, uint64_t rf, struct psample_readval *v)
{
	int n = 0;
	for (uint64_t i = 0; i < ps->read.nr && n < MAX_READ; i++)
		psample__read_value(ps, rf, i, &v[n++]);
	return n;
}

/* ---- records ------------------------------------------------------------- */

/* ---- PROCEXEC with the image's path and addresses -------------------- */

static int exec_find(struct pmc_logw *lw, int32_t pid)
{
	for (int i = 0; i < lw->npexec; i++)
		if (lw->pexec[i].pid == pid)
			return i;
	return -1;
}

/*
 * FreeBSD's pl_dynaddr: the load bias of a position-independent executable
 * (ET_DYN: where its file offset 0 went, the base its mapping gave), 0 for
 * one linked at fixed addresses (ET_EXEC), whose addresses need no bias.
 */
static uint64_t exec_bias(const char *path, uint64_t base)
{
	unsigned char h[EI_NIDENT + 2];
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	ssize_t n = fd >= 0 ? pread(fd, h, sizeof(h), 0) : -1;
	if (fd >= 0)
		close(fd);
	if (n == (ssize_t)sizeof(h) && memcmp(h, ELFMAG, SELFMAG) == 0) {
		unsigned type = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[16] << 8 | h[17] :
		    (unsigned)h[17] << 8 | h[16];
		if (type == ET_EXEC)
			return 0;
	}
	return base;
}

static void exec_flush(struct pmc_logw *lw, int i, uint64_t dyn, uint64_t ts)
{
	struct logw_exec *x = &lw->pexec[i];
	/* hwpmc's meaning: pl_baseaddr is the dynamic linker's base (0 for a
	 * static program), pl_dynaddr the executable's load bias. */
	if (pmc__logrec_procexec(&lw->rec, x->pmc, x->pid, x->tid, dyn,
	    x->have_exe ? exec_bias(x->path, x->base) : 0,
	    x->path ? x->path : x->name) == 0)
		emit(lw, ts);
	free(x->path);
	*x = lw->pexec[--lw->npexec];
}

void pmc__logw_exec_flush_all(struct pmc_logw *lw, uint64_t ts)
{
	while (lw->npexec > 0)
		exec_flush(lw, lw->npexec - 1, 0, ts);
}

static void exec_begin(struct pmc_logw *lw, int32_t pid, int32_t tid, pmc_id_t pmc,
    const char *name, uint64_t ts)
{
	struct logw_exec *x;
	int i = exec_find(lw, pid);

	if (i >= 0)
		exec_flush(lw, i, 0, ts);      /* exec'ed again before mapping anything */
	if (GROW(lw->pexec, lw->npexec, lw->pexeccap) < 0) {
		/* no memory: the name is all we say */
		if (pmc__logrec_procexec(&lw->rec, pmc, pid, tid, 0, 0, name) == 0)
			emit(lw, ts);
		return;
	}
	x = &lw->pexec[lw->npexec++];
	memset(x, 0, sizeof(*x));
	x->pid = pid;
	x->tid = tid;
	x->pmc = pmc;
	snprintf(x->name, sizeof(x->name), "%s", name);
}

/* An executable mapping of pid: the program, then the dynamic linker. */
static void exec_mapping(struct pmc_logw *lw, int32_t pid, uint64_t start, uint64_t pgoff,
    const char *path, uint64_t ts)
{
	int i = exec_find(lw, pid);
	struct logw_exec *x;

	if (i < 0 || path[0] != '/')
		return;
	x = &lw->pexec[i];
	if (!x->have_exe) {
		x->have_exe = 1;
		x->base = start - pgoff;
		x->path = strdup(path);
	} else if (!x->path || strcmp(x->path, path) != 0) {
		exec_flush(lw, i, start - pgoff, ts);
	}
}

/* pid did something else: its PROCEXEC can wait no longer. */
static void exec_done(struct pmc_logw *lw, int32_t pid, uint64_t ts)
{
	int i;
	if (lw->npexec > 0 && (i = exec_find(lw, pid)) >= 0)
		exec_flush(lw, i, 0, ts);
}

/* ---- PROCEXIT of the one task the kernel sends no count for ---------------- */

static struct logw_exitproc *exit_proc(struct logw_exitwatch *w, int32_t pid)
{
	for (int i = 0; i < w->nprocs; i++)
		if (w->procs[i].pid == pid)
			return &w->procs[i];
	return NULL;
}

struct logw_exitproc *pmc__logw_exit_proc_add(struct logw_exitwatch *w, int32_t pid)
{
	if (GROW(w->procs, w->nprocs, w->proccap) < 0)
		return NULL;
	memset(&w->procs[w->nprocs], 0, sizeof(w->procs[0]));
	w->procs[w->nprocs].pid = pid;
	return &w->procs[w->nprocs++];
}

/* A process forked in a watched tree joins it.  (Without memory it stays
 * out: then its count is nobody's rather than a wrong one's.) */
static void exit_forked(struct pmc_logw *lw, int32_t ppid, int32_t pid)
{
	for (int i = 0; i < lw->nxw; i++)
		if (exit_proc(&lw->xw[i], ppid) && !exit_proc(&lw->xw[i], pid))
			pmc__logw_exit_proc_add(&lw->xw[i], pid);
}

static void exit_watched(struct pmc_logw *lw, int32_t pid, int32_t tid, uint64_t ts)
{
	for (int i = 0; i < lw->nxw; i++) {
		struct logw_exitproc *p = exit_proc(&lw->xw[i], pid);
		if (p && !p->exited) {
			p->exited = 1;
			p->tid = tid;
			p->exit_ts = ts;
		}
	}
}

/* A PROCEXIT from the kernel's READ: a task of the tree, or of none. */
static void exit_read_seen(struct pmc_logw *lw, pmc_id_t pmc, int32_t pid, int32_t tid,
    uint64_t value)
{
	for (int i = 0; i < lw->nxw; i++) {
		struct logw_exitwatch *w = &lw->xw[i];
		struct logw_exitproc *p;
		if (w->pmc != pmc || !(p = exit_proc(w, pid)))
			continue;
		w->reported += value;
		if (pid == tid)
			p->got_read = 1;
	}
}

void pmc__logw_exit_emit(struct pmc_logw *lw, struct logw_exitwatch *w)
{
	struct logw_exitproc *hole = NULL;
	uint64_t sum = 0;

	if (w->done)
		return;
	for (int i = 0; i < w->nprocs; i++) {
		struct logw_exitproc *p = &w->procs[i];
		if (!p->exited || p->got_read)
			continue;
		if (hole)
			return;           /* two or more: not ours to divide */
		hole = p;
	}
	if (!hole)
		return;
	w->done = 1;
	for (int k = 0; k < w->nctr; k++) {
		struct pmc_bcount v;
		if (w->be->read(w->ctr[k], &v) == 0)
			sum += v.value;
	}
	if (pmc__logrec_procexit(&lw->rec, w->pmc, (pid_t)hole->pid, (pid_t)hole->tid,
	    pmc__logw_in_units(lw, w->pmc, sum > w->reported ? sum - w->reported : 0)) == 0)
		emit(lw, hole->exit_ts);
}

static void do_sample(struct pmc_logw *lw, const struct perf_event_header *h,
    const unsigned char *body, size_t n)
{
	struct logw_event *ev;
	struct psample ps;
	uint64_t id, time;
	int user = psample__misc_user(h->misc);
	struct psample_readval rv[MAX_READ];
	int nrv = 0;
	uint64_t pcs[PMC_CALLCHAIN_DEPTH_MAX];
	uint8_t flags[PMC_CALLCHAIN_DEPTH_MAX];
	uint64_t uregs[64];
	uint32_t npc = 0;
	struct pmc_logrec_sample s;
	struct pmc_logrec_ustack u = { 0, 0, 0, NULL, 0, NULL };

	if (n < 8) {
		lw->st.errors++;
		return;
	}
	memcpy(&id, body, 8);
	ev = pmc__logw_find_event(lw, id);
	if (!ev) {
		lw->st.errors++;        /* an event nobody registered */
		return;
	}
	if (psample__parse(&ps, &ev->layout, body, n, psample__host_big_endian()) < 0) {
		lw->st.errors++;
		return;
	}
	/* A user-mode sample means the new image runs: its mappings came.  A
	 * kernel-mode one can fall inside the exec itself, after its COMM and
	 * before the kernel maps the image (load_elf_binary). */
	if (lw->npexec > 0 && user && (ps.present & PSAMPLE_TID))
		exec_done(lw, (int32_t)ps.pid, (ps.present & PSAMPLE_TIME) ? ps.time : 0);
	if (ps.present & PSAMPLE_READ)
		nrv = read_values(&ps, ev->layout.read_format, rv);
	if (ps.present & PSAMPLE_CALLCHAIN)
		npc = psample__chain(&ps, user, PMC_CC_F_USERSPACE, pcs, flags,
		    PMC_CALLCHAIN_DEPTH_MAX);
	time = (ps.present & PSAMPLE_TIME) ? ps.time :
	    rec_time(lw, &(struct trailer){ .has_time = 0 });

	if (ev->role == PMC_LOGW_CSW_PROBE) {
		for (int i = 0; i < nrv; i++) {
			struct logw_event *m;
			struct logw_csw *e;
			uint64_t delta;
			if (!(ev->layout.read_format & PSAMPLE_FMT_ID) || rv[i].id == id)
				continue;
			m = pmc__logw_find_event(lw, rv[i].id);
			if (!m)
				continue;
			e = csw_get(lw, (int32_t)ps.tid, rv[i].id);
			if (!e)
				continue;
			delta = rv[i].value >= e->last ? rv[i].value - e->last : rv[i].value;
			e->last = rv[i].value;
			if (pmc__logrec_proccsw(&lw->rec, m->pmc, (pid_t)ps.pid, (pid_t)ps.tid,
			    (ps.present & PSAMPLE_CPU) ? (int)ps.cpu : -1,
			    pmc__logw_in_units(lw, m->pmc, delta)) == 0)
				emit(lw, time);
		}
		return;
	}

	/* (with a call chain, the kernel's chain starts with the sampled pc) */
	if (npc == 0) {
		pcs[0] = (ps.present & PSAMPLE_IP) ? ps.ip : 0;
		flags[0] = user ? PMC_CC_F_USERSPACE : 0;
		npc = 1;
	}
	memset(&s, 0, sizeof(s));
	s.pmc = ev->pmc;
	s.pid = (pid_t)ps.pid;
	s.tid = (pid_t)ps.tid;
	s.cpu = ps.cpu;
	/* a fixed period is not in the sample (pmc__sampling_attr): the PMC's */
	s.period = (ps.present & PSAMPLE_PERIOD) ? ps.period : ev->period;
	s.npc = npc;
	s.pcs = pcs;
	s.pcflags = flags;
	if (ps.regs_user.abi != PSAMPLE_REGS_ABI_NONE && ps.regs_user.nr <= 64) {
		/* user registers and the stack bytes the kernel really copied */
		for (uint32_t i = 0; i < ps.regs_user.nr; i++)
			uregs[i] = psample__u64(&ps, ps.regs_user.regs, i);
		u.abi = (uint32_t)ps.regs_user.abi;
		u.mask = ps.regs_user.mask;
		u.nregs = ps.regs_user.nr;
		u.regs = uregs;
		u.stack = ps.stack;
		u.len = (uint32_t)ps.stack_dyn_size;
	}
	if (pmc__logrec_callchain_ustack(&lw->rec, &s, &u) == 0)
		emit(lw, time);
}

void pmc__logw_translate(struct pmc_logw *lw, const struct perf_event_header *h)
{
	const unsigned char *body = (const unsigned char *)(h + 1);
	size_t n = h->size - sizeof(*h);
	struct trailer t;
	struct cur c;
	uint64_t ts;

	if (h->type == PERF_RECORD_SAMPLE) {
		do_sample(lw, h, body, n);
		return;
	}
	parse_trailer(lw, body, n, &t);
	ts = rec_time(lw, &t);
	c.p = body;
	c.n = n - t.size;
	c.off = 0;
	c.bad = 0;

	switch (h->type) {
	case PERF_RECORD_LOST: {
		uint64_t id = get64(&c), lost = get64(&c);
		struct logw_event *e = pmc__logw_find_event(lw, id);
		if (c.bad)
			break;
		lw->st.lost += lost;
		if (lw->cur_src)
			lw->cur_src->lost_seen += lost;
		if (pmc__logrec_dropnotify(&lw->rec, lost, e ? e->pmc : t.pmc, t.cpu,
		    PMCLOG_DROP_RING) == 0)
			emit(lw, ts);
		return;
	}
	case PERF_RECORD_LOST_SAMPLES: {
		uint64_t lost = get64(&c);
		if (c.bad)
			break;
		lw->st.lost += lost;
		if (pmc__logrec_dropnotify(&lw->rec, lost, t.pmc, t.cpu, PMCLOG_DROP_SAMPLES) == 0)
			emit(lw, ts);
		return;
	}
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE: {
		uint64_t time = get64(&c), id = get64(&c);
		struct logw_event *e = pmc__logw_find_event(lw, id);
		if (c.bad)
			break;
		if (!t.has_time)
			ts = time;
		if (pmc__logrec_throttle(&lw->rec, e ? e->pmc : t.pmc,
		    h->type == PERF_RECORD_THROTTLE, t.cpu) == 0)
			emit(lw, ts);
		return;
	}
	case PERF_RECORD_COMM: {
		uint32_t pid, tid;
		char name[MAXCOMLEN + 1];
		size_t len;
		get2x32(&c, &pid, &tid);
		if (c.bad)
			break;
		len = strnlen((const char *)c.p + c.off, c.n - c.off);
		if (len > MAXCOMLEN)
			len = MAXCOMLEN;
		memcpy(name, c.p + c.off, len);
		name[len] = '\0';
		if (pmc__logrec_comm(&lw->rec, (pid_t)pid, (pid_t)tid,
		    (h->misc & PERF_RECORD_MISC_COMM_EXEC) ? PMCLOG_COMM_F_EXEC : 0, name) == 0)
			emit(lw, ts);
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC)
			exec_begin(lw, (int32_t)pid, (int32_t)tid, t.pmc, name, ts);
		return;
	}
	case PERF_RECORD_FORK: {
		uint32_t pid, ppid, tid, ptid;
		get2x32(&c, &pid, &ppid);
		get2x32(&c, &tid, &ptid);
		if (c.bad)
			break;
		if (pid != ppid) {
			if (lw->nxw > 0)
				exit_forked(lw, (int32_t)ppid, (int32_t)pid);
			if (pmc__logrec_procfork(&lw->rec, (pid_t)ppid, (pid_t)pid, (pid_t)ptid,
			    (pid_t)tid) == 0)
				emit(lw, ts);
		} else if (pmc__logrec_thr_create(&lw->rec, (pid_t)tid, (pid_t)pid, 0, "") == 0) {
			emit(lw, ts);
		}
		return;
	}
	case PERF_RECORD_EXIT: {
		uint32_t pid, ppid, tid, ptid;
		get2x32(&c, &pid, &ppid);
		get2x32(&c, &tid, &ptid);
		if (c.bad)
			break;
		csw_forget(lw, (int32_t)tid);
		if (pid == tid) {
			exec_done(lw, (int32_t)pid, ts);
			if (lw->nxw > 0)
				exit_watched(lw, (int32_t)pid, (int32_t)tid, ts);
		}
		if (pmc__logrec_thr_exit(&lw->rec, (pid_t)tid, (pid_t)pid) == 0)
			emit(lw, ts);
		if (pid == tid && pmc__logrec_sysexit(&lw->rec, (pid_t)pid) == 0)
			emit(lw, ts);
		return;
	}
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		struct pmc_logrec_map m;
		uint32_t pid, tid;
		uint8_t bid[20];
		const char *path;
		memset(&m, 0, sizeof(m));
		get2x32(&c, &pid, &tid);
		m.pid = (pid_t)pid;
		m.start = get64(&c);
		m.len = get64(&c);
		m.pgoff = get64(&c);
		if (h->type == PERF_RECORD_MMAP2) {
			if (c.off + 24 > c.n) {
				c.bad = 1;
				break;
			}
			if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				uint8_t bl = c.p[c.off];
				if (bl > 20)
					bl = 20;
				memcpy(bid, c.p + c.off + 4, bl);
				m.buildid = bid;
				m.buildid_len = bl;
			}
			c.off += 24;
			get2x32(&c, &m.prot, &m.mflags);
		}
		if (c.bad || c.off >= c.n)
			break;
		path = (const char *)c.p + c.off;
		if (strnlen(path, c.n - c.off) == c.n - c.off)
			break;          /* not terminated */
		m.path = path;
		if (pmc__logrec_map_in(&lw->rec, &m) == 0)
			emit(lw, ts);
		if (lw->npexec > 0 && (h->type == PERF_RECORD_MMAP || (m.prot & PROT_EXEC)))
			exec_mapping(lw, (int32_t)pid, m.start, m.pgoff, path, ts);
		return;
	}
	case PERF_RECORD_READ: {
		uint32_t pid, tid;
		struct psample_readval rv[MAX_READ];
		struct psample ps;
		int nrv;
		struct logw_event *te = t.ev;
		get2x32(&c, &pid, &tid);
		if (c.bad || !te || psample__parse_read(&ps, te->layout.read_format, c.p + c.off,
		    c.n - c.off, psample__host_big_endian()) < 0)
			break;
		nrv = read_values(&ps, te->layout.read_format, rv);
		for (int i = 0; i < nrv; i++) {
			struct logw_event *e = (te->layout.read_format & PSAMPLE_FMT_ID) ?
			    pmc__logw_find_event(lw, rv[i].id) : te;
			if (!e || e->role != PMC_LOGW_EXIT_READ)
				continue;
			if (pmc__logrec_procexit(&lw->rec, e->pmc, (pid_t)pid, (pid_t)tid,
			    pmc__logw_in_units(lw, e->pmc, rv[i].value)) == 0)
				emit(lw, ts);
			if (lw->nxw > 0)
				exit_read_seen(lw, e->pmc, (int32_t)pid, (int32_t)tid, rv[i].value);
		}
		return;
	}
	case PERF_RECORD_KSYMBOL: {
		uint64_t addr = get64(&c);
		uint32_t len = 0, tf = 0;
		char name[256];
		size_t l;
		get2x32(&c, &len, &tf);
		if (c.bad || c.off >= c.n)
			break;
		l = strnlen((const char *)c.p + c.off, c.n - c.off);
		if (l > sizeof(name) - 1)
			l = sizeof(name) - 1;
		memcpy(name, c.p + c.off, l);
		name[l] = '\0';
		if (pmc__logrec_ksymbol(&lw->rec, addr, len, (uint16_t)(tf & 0xFFFF),
		    (uint16_t)(tf >> 16), name) == 0)
			emit(lw, ts);
		return;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		/* the thread is the trailer's (sample_id_all): the one leaving
		 * the CPU or getting it; CPU_WIDE's next/prev pid is not needed */
		uint32_t fl = 0;
		if (!t.ev || t.tid < 0)
			break;
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			fl |= PMCLOG_SWITCH_F_OUT;
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
			fl |= PMCLOG_SWITCH_F_PREEMPT;
		if (pmc__logrec_switch(&lw->rec, t.pmc, (pid_t)t.pid, (pid_t)t.tid, t.cpu,
		    fl) == 0)
			emit(lw, ts);
		return;
	}
	default:
		return;                 /* AUX, CGROUP ...: not logged */
	}
	lw->st.errors++;                /* a record that did not decode */
}
