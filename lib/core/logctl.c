/*
 * logctl.c — hwpmc's log operations (CONFIGURELOG, FLUSHLOG, CLOSELOG,
 * WRITELOG) and the glue between PMCs and the log writer.
 *
 * The writer (lib/log/writer.c) owns a thread that drains ring buffers into
 * the log fd.  This file decides which rings exist: one per CPU shared by
 * every per-CPU counter (the kernel redirects the others into it), and one
 * per counter that follows a task.  It also writes the records only the
 * core knows about: PMCALLOCATE, PMCATTACH/DETACH, USERDATA, and decides
 * when the /proc snapshot is due (procsnap.c: the targets' existing threads,
 * names and mappings, for system-mode sampling every process's, and where
 * kernel symbols come from), so a report needs nothing of this machine.
 *
 * The hwpmc tunables shape the rings and the writer: nsamples x the largest
 * sample (callchaindepth frames) sizes each kernel ring, capped by
 * nbuffers_pcpu x logbuffersize per CPU; logbuffersize is the writer's
 * buffer (see ring_pages() and pmc_configure_logfile_flags()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/internal.h"
#include "common/error.h"
#include "core/settings.h"
#include "core/procsnap.h"
#include "common/sysinfo.h"
#include "log/writer.h"
#include "log/records.h"

/*
 * A ring is either per CPU (owned by the first counter opened on that CPU;
 * the others are redirected into it) or per thread, for counters that
 * follow a thread (cpu -1).  The kernel will not map an inherited per-task
 * counter, so a per-thread ring belongs to a "dummy" software event we open
 * on the thread for that purpose, and the inherited counters write into it.
 */
struct mapped_ring {
	int cpu;                        /* -1: a per-thread ring */
	pid_t tid;                      /* per-thread rings: the thread */
	struct pmc_bctr *owner;         /* the counter whose mapping this is */
	int owned;                      /* owner is our dummy: close it with the ring */
	struct mapped_ring *next;
};

static struct {
	struct pmc_logw *lw;
	struct mapped_ring *rings;
	unsigned flags;
	int logged_all;                 /* every process's state is in this log */
	int fd;                         /* our reference on the log file (a dup) */
	int logged_ksyms;               /* KSYMSRC is in this log */
	char cmdline[1024];
	struct pmc_logw_stats done;     /* totals of the logs already closed */
} L;

int pmc__log_active(void)
{
	return L.lw != NULL;
}

static struct pmc_logrec *rec_buf(void)
{
	static struct pmc_logrec r;   /* big; used under the core lock only */
	return &r;
}

static void put(struct pmc_logrec *r)
{
	if (L.lw)
		pmc__logw_write(L.lw, r->type, r->buf, r->len);
}

static void log_allocate(struct pmc *pm)
{
	struct pmc_logrec *r = rec_buf();
	if (pmc__logrec_pmcallocate(r, pm->id, (uint32_t)pm->ev.event, pm->ev.name,
	    pm->mode, pm->flags & PMC_F_ALLOCATE_MASK, pm->freq ? pm->freq : pm->count,
	    pm->freq != 0, pm->cpu) == 0)
		put(r);
}

int pmc__log_pmc_allocated(struct pmc *pm)
{
	if (L.lw)
		log_allocate(pm);
	return 0;
}

/* Backends whose pids are real processes: /proc describes their targets.
 * (The sim's tasks are simulated; it reports names and mappings itself.) */
static int pids_are_real(void)
{
	return pmc__g.be && !strcmp(pmc__g.be->name, "linux");
}

/*
 * Data pages of a kernel ring: room for nsamples samples of the largest
 * size this PMC writes (a call chain of callchaindepth frames) and at least
 * one log buffer (logbuffersize), a power of two, at most nbuffers_pcpu x
 * logbuffersize (hwpmc's per-CPU log memory).  The core sets the kernel's
 * wake-up mark to half a log buffer; a ring smaller than a log buffer would
 * wake the writer only when full (and lose what comes meanwhile).
 */
static size_t ring_pages(const struct pmc *pm)
{
	size_t per = 64;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	size_t bytes, pages = 1, maxpages;

	if (pm->flags & PMC_F_CALLCHAIN)
		per += 8 * (size_t)pmc__setting(PMC_SETTING_CALLCHAINDEPTH);
	if (pm->ustack)               /* registers and the stack copy */
		per += 24 + 8 * 64 + pm->ustack;
	bytes = (size_t)pmc__setting(PMC_SETTING_NSAMPLES) * per;
	if (bytes < (size_t)pmc__setting(PMC_SETTING_LOGBUFFERSIZE) * 1024)
		bytes = (size_t)pmc__setting(PMC_SETTING_LOGBUFFERSIZE) * 1024;
	maxpages = (size_t)pmc__setting(PMC_SETTING_NBUFFERS_PCPU) *
	    (size_t)pmc__setting(PMC_SETTING_LOGBUFFERSIZE) * 1024 / psz;
	while (pages * psz < bytes && pages * 2 <= maxpages)
		pages *= 2;
	return pages;
}

static struct mapped_ring *ring_for(int cpu, pid_t tid)
{
	for (struct mapped_ring *r = L.rings; r; r = r->next)
		if (r->cpu == cpu && (cpu >= 0 || r->tid == tid))
			return r;
	return NULL;
}

/* Map a ring on owner and hand it to the writer. */
static int new_ring(struct pmc *pm, struct pmc_bctr *owner, int cpu, pid_t tid, int owned,
    struct mapped_ring **out)
{
	const struct pmc_backend_ops *be = pmc__g.be;
	struct perf_event_mmap_page *page;
	size_t pages = ring_pages(pm);
	struct mapped_ring *r;
	int rc;

	/* A user over its locked-memory allowance (perf_event_mlock_kb) gets
	 * EPERM: try smaller rings before giving up, as perf record does. */
	while ((rc = be->ring_map(owner, pages, &page)) == -EPERM && pages > 1) {
		pmc__clear_reason();
		pages /= 2;
	}
	if (rc < 0)
		return rc;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->cpu = cpu;
	r->tid = tid;
	r->owner = owner;
	r->owned = owned;
	if ((rc = pmc__logw_add_ring(L.lw, be, owner, page,
	    pages * (size_t)sysconf(_SC_PAGESIZE))) < 0) {
		be->ring_unmap(owner);
		free(r);
		return rc;
	}
	r->next = L.rings;
	L.rings = r;
	*out = r;
	return 0;
}

/* The writer decodes c's records by the attributes the backend opened it
 * with (its own additions included), not by a second derivation here. */
static int register_counter(struct pmc *pm, struct pmc_bctr *c, enum pmc_logw_role role)
{
	uint64_t kid;
	int rc;

	if ((rc = pmc__g.be->id(c, &kid)) < 0)
		return rc;
	if ((rc = pmc__logw_add_counter(L.lw, kid, pm->id, pmc__g.be->attr(c), role)) < 0)
		return rc;
	/* PROCEXIT/PROCCSW in the PMC's units, as pmc_read: clock ticks */
	return pm->ev.tick_ns ? pmc__logw_set_unit(L.lw, pm->id, pm->ev.tick_ns) : 0;
}

/* The per-thread ring owner: a dummy event on the thread, not inherited. */
static int thread_ring(struct pmc *pm, pid_t tid, struct mapped_ring **out)
{
	const struct pmc_backend_ops *be = pmc__g.be;
	struct perf_event_attr a;
	struct pmc_bctr *c;
	int rc;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
	    PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(pmc__setting(PMC_SETTING_LOGBUFFERSIZE) * 1024 / 2);
	/* A PMC that counts user mode only (what an unprivileged user may
	 * count, core/pmc.c's probe_event) gets a ring the kernel allows too. */
	a.exclude_kernel = pm->ev.attr.exclude_kernel;
	a.exclude_hv = pm->ev.attr.exclude_hv;
	if ((rc = be->open(&a, tid, -1, NULL, 0, &c)) < 0)
		return rc;
	if ((rc = register_counter(pm, c, PMC_LOGW_SAMPLES)) < 0 ||
	    (rc = new_ring(pm, c, -1, tid, 1, out)) < 0) {
		be->close(c);
		return rc;
	}
	return 0;
}

static int add_counter(struct pmc *pm, struct pmc_bctr *c, int cpu, pid_t tid)
{
	const struct pmc_backend_ops *be = pmc__g.be;
	struct mapped_ring *r = ring_for(cpu, tid);
	int rc;

	if ((rc = register_counter(pm, c, PMC_IS_SAMPLING_MODE(pm->mode) ?
	    PMC_LOGW_SAMPLES : PMC_LOGW_EXIT_READ)) < 0)
		return rc;
	if (!r && cpu < 0) {
		if ((rc = thread_ring(pm, tid, &r)) < 0)
			return rc;
	} else if (!r) {
		return new_ring(pm, c, cpu, tid, 0, &r);
	}
	return be->ring_redirect(c, r->owner);
}

/* A LOG_PROCCSW group's probe: its samples read the group at each switch
 * (see open_csw_probe in core/pmc.c); they go to the thread's ring. */
static int add_csw_probe(struct pmc *pm, struct pmc_bctr *probe, pid_t tid)
{
	const struct pmc_backend_ops *be = pmc__g.be;
	struct mapped_ring *r = ring_for(-1, tid);
	int rc;

	if ((rc = register_counter(pm, probe, PMC_LOGW_CSW_PROBE)) < 0)
		return rc;
	if (!r && (rc = thread_ring(pm, tid, &r)) < 0)
		return rc;
	return be->ring_redirect(probe, r->owner);
}

int pmc__log_pmc_started(struct pmc *pm)
{
	int rc;

	/* Sampling PMCs write to a configured log whatever their target:
	 * hwpmc sends the samples of one attached to its owner to profil(2)
	 * instead, which Linux lacks (docs/freebsd-compat.md). */
	if (!L.lw || !((pm->flags & PMC_F_NEEDS_LOGFILE) || PMC_IS_SAMPLING_MODE(pm->mode)))
		return 0;
	if (PMC_IS_SAMPLING_MODE(pm->mode) && pids_are_real()) {
		if (!L.logged_ksyms) {
			pmc__procsnap_ksymsrc(L.lw);
			L.logged_ksyms = 1;
		}
		if (PMC_IS_SYSTEM_MODE(pm->mode) && !L.logged_all) {
			pmc__procsnap_all(L.lw);
			L.logged_all = 1;
		}
	}
	for (struct pmc_target *t = pm->targets; t; t = t->next) {
		if (t->pid > 0) {
			/* A command not yet released is still our own fork: its
			 * name, executable and mappings come with its exec. */
			int pending = pmc__spawn_pending(t->pid);
			struct pmc_logrec *r = rec_buf();
			char exe[4096];
			exe[0] = '\0';
			if (!pending && pids_are_real())
				pmc__procsnap_exe_path(t->pid, exe, sizeof(exe));
			if (pmc__logrec_pmcattach(r, pm->id, t->pid, exe) == 0)
				put(r);
			if (!pending && pids_are_real() && !L.logged_all)
				pmc__procsnap_process(L.lw, t->pid, t->is_thread);
			/* hwpmc logs the target's own exit with its count too */
			if ((pm->flags & PMC_F_LOG_PROCEXIT) && !t->is_thread && t->nctr > 0 &&
			    PMC_IS_COUNTING_MODE(pm->mode)) {
				pmc__logw_unwatch_exit(L.lw, t->pid, t->ctr[0]);
				if ((rc = pmc__logw_watch_exit(L.lw, t->pid, pm->id, pmc__g.be,
				    t->ctr, t->nctr)) < 0)
					return rc;
			}
		}
		for (int i = 0; i < t->nctr; i++) {
			/* Rings are set up once per counter; skip ones already added. */
			int known = 0;
			for (struct mapped_ring *g = L.rings; g; g = g->next)
				known |= g->owner == t->ctr[i];
			if (known) {
				/* restarted: pmc_set may have changed the period */
				uint64_t kid;
				if (PMC_IS_SAMPLING_MODE(pm->mode) && !pm->freq &&
				    pmc__g.be->id(t->ctr[i], &kid) == 0)
					pmc__logw_set_period(L.lw, kid, pm->count);
				continue;
			}
			if ((rc = add_counter(pm, t->ctr[i], t->ctr_cpu[i], t->ctr_tid[i])) < 0)
				return rc;
			if (t->probe[i] &&
			    (rc = add_csw_probe(pm, t->probe[i], t->ctr_tid[i])) < 0)
				return rc;
		}
	}
	return 0;
}

int pmc__log_pmc_detach(struct pmc *pm, struct pmc_target *t)
{
	struct pmc_logrec *r = rec_buf();
	if (L.lw && pmc__logrec_pmcdetach(r, pm->id, t->pid) == 0)
		put(r);
	return 0;
}

/* A counter is about to close: its ring (if it owns one) must be drained
 * and forgotten first, and counters redirected into it closed before it. */
void pmc__log_target_closing(struct pmc_target *t)
{
	if (!L.lw)
		return;
	if (t->nctr > 0)
		pmc__logw_unwatch_exit(L.lw, t->pid, t->ctr[0]);
	for (int i = 0; i < t->nctr; i++)
		for (struct mapped_ring **pp = &L.rings; *pp; pp = &(*pp)->next)
			if ((*pp)->owner == t->ctr[i]) {
				struct mapped_ring *r = *pp;
				pmc__logw_remove_ring(L.lw, r->owner);
				*pp = r->next;
				free(r);
				break;
			}
}

/*
 * hwpmc's statistics are the driver's counters: they keep growing across
 * logs (pmcstat compares them before and after pmc_close_logfile to warn
 * that sampling was paused).  So: the closed logs' totals plus the open one's.
 */
void pmc__log_fill_stats(struct pmc_driverstats *st)
{
	struct pmc_logw_stats ls = L.done;
	if (L.lw) {
		struct pmc_logw_stats cur;
		pmc__logw_get_stats(L.lw, &cur);
		ls.samples += cur.samples;
		ls.lost += cur.lost;
		ls.writes += cur.writes;
		ls.sweeps += cur.sweeps;
		ls.errors += cur.errors;
	}
	st->pm_intr_processed = (unsigned)ls.samples;
	st->pm_intr_bufferfull = (unsigned)ls.lost;
	st->pm_buffer_requests = (unsigned)ls.writes;
	st->pm_log_sweeps = (unsigned)ls.sweeps;
	st->pm_buffer_requests_failed = (unsigned)ls.errors;
}

/* Close the log; *fin (if not NULL) gets the writer's final counts: every
 * record and byte it wrote, CLOSELOG included. */
static int close_log(struct pmc_logw_stats *fin_out)
{
	int rc;
	/* Rings belong to counters that outlive the log: stop draining them. */
	while (L.rings) {
		struct mapped_ring *r = L.rings;
		L.rings = r->next;
		pmc__logw_remove_ring(L.lw, r->owner);
		pmc__g.be->ring_unmap(r->owner);
		if (r->owned)
			pmc__g.be->close(r->owner);
		free(r);
	}
	struct pmc_logw_stats fin;
	memset(&fin, 0, sizeof(fin));
	rc = pmc__logw_close_stats(L.lw, &fin);
	L.done.samples += fin.samples;
	L.done.lost += fin.lost;
	L.done.writes += fin.writes;
	L.done.sweeps += fin.sweeps;
	L.done.errors += fin.errors;
	if (fin_out)
		*fin_out = fin;
	L.lw = NULL;
	L.logged_all = L.logged_ksyms = 0;
	close(L.fd);                    /* the writer is done with it */
	L.fd = -1;
	return rc;
}

int pmc_configure_logfile_flags(int fd, unsigned flags)
{
	int rc, fl;

	pmc__clear_reason();
	pthread_mutex_lock(&pmc__g.lock);
	pmc__g.stats.pm_syscalls++;
	if (!pmc__g.initialized) {
		pmc__set_reason("pmc_init() has not been called");
		rc = -ENXIO;
	} else if (fd == -1) {
		if (!L.lw) {
			pmc__set_reason("no log file is configured");
			rc = -EINVAL;
		} else {
			rc = close_log(NULL);
		}
	} else if (L.lw) {
		pmc__set_reason("a log file is already configured");
		rc = -EBUSY;
	} else if (fd < 0 || (fl = fcntl(fd, F_GETFL)) < 0) {
		pmc__set_reason("%d is not an open file descriptor", fd);
		rc = -EBADF;
	} else if ((fl & O_ACCMODE) == O_RDONLY || (fl & O_PATH)) {
		/* hwpmc's fget_write: a descriptor not open for writing */
		pmc__set_reason("descriptor %d is not open for writing", fd);
		rc = -EBADF;
	} else {
		/* INITIALIZE's pl_arch is pmc_cpuinfo's CPU type, as hwpmc's */
		pmc__logw_set_cpu(pmc__g.ci.pm_cputype, pmc__g.m.cpu_desc);
		/* hwpmc's logbuffersize: the size of the writer's buffer. */
		pmc__logw_set_bufsize((size_t)pmc__setting(PMC_SETTING_LOGBUFFERSIZE) * 1024);
		/* hwpmc holds its own reference on the file (fget): the caller
		 * may close its descriptor and the log goes on. */
		int dfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (dfd < 0) {
			rc = -errno;
			pmc__set_reason("cannot take a reference on log descriptor %d", fd);
		} else if ((rc = pmc__logw_open(dfd, (flags & PMC_LOGF_ZSTD) ? PMC_LOGW_ZSTD : 0,
		    L.cmdline, &L.lw)) < 0) {
			close(dfd);
		} else {
			L.fd = dfd;
		}
		if (rc == 0) {
			L.flags = flags;
			/* Records the core writes get the backend's clock, as samples do. */
			if (pmc__g.be->now)
				pmc__logw_set_clock(L.lw, pmc__g.be->now);
			for (struct pmc *pm = pmc__g.pmcs; pm; pm = pm->next)
				log_allocate(pm);
		}
	}
	if (rc < 0)
		pmc__g.stats.pm_syscall_errors++;
	pthread_mutex_unlock(&pmc__g.lock);
	return pmc__ret(rc);
}

int pmc_configure_logfile(int fd)
{
	return pmc_configure_logfile_flags(fd, 0);
}

static int with_log(int (*fn)(void *), void *arg)
{
	int rc;
	pmc__clear_reason();
	pthread_mutex_lock(&pmc__g.lock);
	pmc__g.stats.pm_syscalls++;
	if (!L.lw) {
		pmc__set_reason("no log file is configured");
		rc = -EINVAL;
	} else {
		rc = fn(arg);
	}
	if (rc < 0)
		pmc__g.stats.pm_syscall_errors++;
	pthread_mutex_unlock(&pmc__g.lock);
	return pmc__ret(rc);
}

static int do_flush(void *arg)
{
	int rc = pmc__logw_flush(L.lw);
	(void)arg;
	if (rc < 0)
		pmc__set_reason("cannot write the log: %s", strerror(-rc));
	return rc;
}
static int do_close(void *arg)  { (void)arg; return close_log(NULL); }
static int do_writelog(void *arg)
{
	struct pmc_logrec *r = rec_buf();
	struct pmc_logw_stats ls;
	int rc = pmc__logrec_userdata(r, *(uint32_t *)arg);
	if (rc < 0)
		return rc;
	rc = pmc__logw_write(L.lw, r->type, r->buf, r->len);
	/* hwpmc's WRITELOG only queues the record: a write error of the
	 * log (this one's or an earlier one) is the flush's and the close's
	 * to report, not WRITELOG's. */
	pmc__logw_get_stats(L.lw, &ls);
	if (rc < 0 && ls.error && rc == -ls.error) {
		pmc__clear_reason();
		rc = 0;
	}
	return rc;
}

int pmc_flush_logfile(void)          { return with_log(do_flush, NULL); }
int pmc_close_logfile(void)          { return with_log(do_close, NULL); }
int pmc_writelog(uint32_t udata)     { return with_log(do_writelog, &udata); }

int pmc_log_set_cmdline(const char *cmdline)
{
	snprintf(L.cmdline, sizeof(L.cmdline), "%s", cmdline ? cmdline : "");
	return 0;
}

/* The writer's counts as pmc_log_stats reports them. */
static void log_stats(const struct pmc_logw_stats *ls, struct pmc_log_stats *st)
{
	st->pl_samples = ls->samples;
	st->pl_lost = ls->lost;
	st->pl_records = ls->records;
	st->pl_bytes = ls->bytes;
	st->pl_error = ls->error;
}

int pmc_log_stats(struct pmc_log_stats *st)
{
	int rc = 0;
	pthread_mutex_lock(&pmc__g.lock);
	memset(st, 0, sizeof(*st));
	if (L.lw) {
		struct pmc_logw_stats ls;
		pmc__logw_get_stats(L.lw, &ls);
		log_stats(&ls, st);
	} else
		rc = -EINVAL;
	pthread_mutex_unlock(&pmc__g.lock);
	return pmc__ret(rc);
}

/* Flush, close, and the final counts: what the log holds, to its last
 * byte (a program writing to a pipe cannot ask the file); the log is
 * complete even when a step fails, and the first failure is the one
 * reported. */
static int do_finish(void *arg)
{
	struct pmc_log_stats *st = arg;
	struct pmc_logw_stats fin;
	int rc = pmc__logw_flush(L.lw);
	int crc = close_log(&fin);

	log_stats(&fin, st);
	if (rc == 0 && st->pl_error)
		rc = -st->pl_error;
	return rc < 0 ? rc : crc;
}

int pmc_log_finish(struct pmc_log_stats *st)
{
	struct pmc_log_stats ignored;
	if (!st)
		st = &ignored;
	memset(st, 0, sizeof(*st));
	return with_log(do_finish, st);
}

void pmc__log_fini(void)
{
	if (L.lw)
		close_log(NULL);
	memset(&L.done, 0, sizeof(L.done));
}
