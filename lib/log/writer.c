/*
 * writer.c — the log writer thread, its bounded buffer and its I/O (see
 * writer.h).  hwpmc's log helper thread in user space: it waits on the
 * rings, drains them, and writes whole records to the log fd; a write error
 * (the first one included: the HEADER's, at open) stops logging, is kept,
 * and is reported by the next flush and by close, as hwpmc's po_error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/thread.h"
#include "common/error.h"
#include "common/grow.h"
#include "log/writer_impl.h"

#ifndef PMC_VERSION_STRING
#define PMC_VERSION_STRING "unknown"
#endif

#define DEFAULT_BUFSIZE   (256 * 1024)
#define WAIT_MS           50
#define WRITE_INTERVAL_NS 100000000ull

static size_t g_bufsize = DEFAULT_BUFSIZE;
static enum pmc_cputype g_cputype = PMC_CPU_GENERIC;
static char g_cpudesc[256];

void pmc__logw_set_bufsize(size_t bytes)
{
	g_bufsize = bytes ? bytes : DEFAULT_BUFSIZE;
}

void pmc__logw_set_cpu(enum pmc_cputype type, const char *desc)
{
	g_cputype = type;
	snprintf(g_cpudesc, sizeof(g_cpudesc), "%s", desc ? desc : "");
}

uint64_t pmc__logw_clock(struct pmc_logw *lw)
{
	return lw->now ? lw->now() : pmc__mono_ns();
}

static void cpu_desc(char *buf, size_t len)
{
	FILE *f;
	char line[512];

	if (g_cpudesc[0]) {
		snprintf(buf, len, "%s", g_cpudesc);
		return;
	}
	snprintf(buf, len, "unknown CPU");
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');
		if (c && strncmp(line, "model name", 10) == 0) {
			c++;
			while (*c == ' ' || *c == '\t')
				c++;
			c[strcspn(c, "\n")] = '\0';
			snprintf(buf, len, "%s", c);
			break;
		}
	}
	fclose(f);
}

/* ---- I/O --------------------------------------------------------------- */

static void set_error(struct pmc_logw *lw, int err)
{
	lw->st.errors++;
	if (!lw->st.error)
		lw->st.error = err;
}

/* Write the buffer out (stream.h), counting what it cost and, on an
 * error, the samples it held as lost.  Under mu. */
static int write_out(struct pmc_logw *lw)
{
	size_t done = 0;
	int rc;

	if (lw->out.len == 0)
		return lw->st.error ? -lw->st.error : 0;
	if (lw->st.error) {
		lw->st.lost += lw->buf_samples;
		lw->out.len = 0;
		lw->buf_samples = 0;
		return -lw->st.error;
	}
	rc = pmc__logstream_write_out(&lw->out, &done);
	if (rc != -EIO || done) {      /* -EIO with nothing written: zstd failed */
		lw->st.writes++;
		lw->st.bytes += done;
		lw->last_write_ns = pmc__mono_ns();
	}
	if (rc < 0) {
		set_error(lw, -rc);
		lw->st.lost += lw->buf_samples;
	}
	lw->buf_samples = 0;
	return rc;
}

/* A sample whose chain is in the table is written as a CHAINSAMPLE; the
 * first sample of a chain is written whole and defines the chain's id (in
 * its header's spare word), so every cut of the log has the definition
 * before any sample that refers to it (pmc__logstream_choose). */
int pmc__logw_append(struct pmc_logw *lw, int type, uint64_t ts, const void *payload,
    size_t len)
{
	int sample = type == PMCLOG_TYPE_CALLCHAIN, rc;
	uint32_t aux;

	if (lw->st.error) {
		lw->st.lost += sample;
		return -lw->st.error;
	}
	if (sample && !lw->chains)
		lw->chains = pmc__logchains_new();
	pmc__logstream_choose(lw->chains, &type, &aux, &payload, &len);
	rc = pmc__logstream_frame(&lw->out, type, aux, ts, payload, len);
	if (rc == -ENOBUFS) {
		if ((rc = write_out(lw)) < 0) {
			lw->st.lost += sample;
			return rc;
		}
		rc = pmc__logstream_frame(&lw->out, type, aux, ts, payload, len);
	}
	if (rc < 0)
		return rc;
	lw->st.records++;
	if (sample) {
		lw->st.samples++;
		lw->buf_samples++;
	}
	return 0;
}

/* ---- rings ------------------------------------------------------------- */

static void drain_ring(struct pmc_logw *lw, struct logw_source *r)
{
	const struct perf_event_header *h;
	int64_t avail;
	int rc;

	lw->cur_be = r->be;
	lw->cur_src = r;
	avail = pmc__ring_begin(&r->ring);
	if (avail < 0)
		goto corrupt;
	while ((rc = pmc__ring_next(&r->ring, &h, lw->scratch)) > 0)
		pmc__logw_translate(lw, h);
	if (rc < 0)
		goto corrupt;
	pmc__ring_end(&r->ring);
	lw->cur_src = NULL;
	return;
corrupt:
	lw->cur_src = NULL;
	{
		uint64_t skipped = r->ring.head - r->ring.tail;
		lw->st.errors++;
		pmc__ring_skip(&r->ring);
		if (pmc__logrec_dropnotify(&lw->rec, skipped, PMC_ID_INVALID, -1,
		    PMCLOG_DROP_CORRUPT) == 0)
			pmc__logw_append(lw, lw->rec.type, pmc__logw_clock(lw), lw->rec.buf,
			    lw->rec.len);
	}
}

/*
 * The ring is closing, drained: records the kernel could not write into it
 * that no LOST record told of yet.  The kernel writes a LOST record only
 * once the ring has room again, so a loss at the end of a recording (a
 * slow reader behind -o -) is known only from the counter's own lost
 * count (PERF_FORMAT_LOST): the difference is logged as the ring's loss,
 * so the writer's summary, the log's DROPNOTIFY records and a report agree.
 */
static void ring_lost_at_close(struct pmc_logw *lw, struct logw_source *r)
{
	struct pmc_bcount v;
	struct logw_event *e;
	uint64_t kid, more;

	memset(&v, 0, sizeof(v));
	if (!r->be->read || r->be->read(r->c, &v) < 0 || v.lost <= r->lost_seen)
		return;
	more = v.lost - r->lost_seen;
	r->lost_seen = v.lost;
	lw->st.lost += more;
	e = r->be->id && r->be->id(r->c, &kid) == 0 ? pmc__logw_find_event(lw, kid) : NULL;
	if (pmc__logrec_dropnotify(&lw->rec, more, e ? e->pmc : PMC_ID_INVALID, -1,
	    PMCLOG_DROP_RING) == 0)
		pmc__logw_append(lw, lw->rec.type, pmc__logw_clock(lw), lw->rec.buf, lw->rec.len);
}

static void drain_all(struct pmc_logw *lw)
{
	for (int i = 0; i < lw->nrings; i++)
		drain_ring(lw, &lw->rings[i]);
	lw->st.sweeps++;
}

static void *thread_main(void *arg)
{
	struct pmc_logw *lw = arg;

	pthread_mutex_lock(&lw->mu);
	while (!lw->stop) {
		const struct pmc_backend_ops *be = NULL;
		int n = 0;

		if (lw->removing) {
			pthread_cond_wait(&lw->cv, &lw->mu);
			continue;
		}
		if (lw->nrings > lw->wait_cap) {
			struct pmc_bctr **w = realloc(lw->wait_cs, sizeof(*w) * (size_t)lw->nrings);
			if (w) {
				lw->wait_cs = w;
				lw->wait_cap = lw->nrings;
			}
		}
		for (int i = 0; i < lw->nrings && i < lw->wait_cap; i++) {
			if (!be)
				be = lw->rings[i].be;
			if (lw->rings[i].be == be)
				lw->wait_cs[n++] = lw->rings[i].c;
		}
		if (n > 0 && be && be->ring_wait) {
			int rc;
			lw->in_wait = 1;
			pthread_mutex_unlock(&lw->mu);
			rc = be->ring_wait(lw->wait_cs, n, WAIT_MS);
			if (rc < 0 && rc != -EINTR)
				usleep(10000);
			pthread_mutex_lock(&lw->mu);
			lw->in_wait = 0;
			pthread_cond_broadcast(&lw->cv);
		} else {
			struct timespec ts;
			pmc__deadline_in(&ts, WAIT_MS);
			pthread_cond_timedwait(&lw->cv, &lw->mu, &ts);
		}
		if (lw->stop)
			break;
		drain_all(lw);
		if (lw->out.len >= lw->out.cap / 2 ||
		    (lw->out.len > 0 && pmc__mono_ns() - lw->last_write_ns >= WRITE_INTERVAL_NS))
			write_out(lw);
	}
	pthread_mutex_unlock(&lw->mu);
	return NULL;
}

/* ---- API ----------------------------------------------------------------- */

static void exitwatch_free(struct logw_exitwatch *w)
{
	free(w->ctr);
	free(w->procs);
}

static void lw_free(struct pmc_logw *lw)
{
	pmc__logstream_free(&lw->out);
	free(lw->ev);
	hidx_free(&lw->evix);
	free(lw->rings);
	free(lw->wait_cs);
	free(lw->scratch);
	free(lw->csw);
	hidx_free(&lw->cswix);
	for (int i = 0; i < lw->npexec; i++)
		free(lw->pexec[i].path);
	free(lw->pexec);
	free(lw->units);
	for (int i = 0; i < lw->nxw; i++)
		exitwatch_free(&lw->xw[i]);
	free(lw->xw);
	pmc__logchains_free(lw->chains);
	pthread_cond_destroy(&lw->cv);
	pthread_mutex_destroy(&lw->mu);
	free(lw);
}

int pmc__logw_open(int fd, unsigned flags, const char *cmdline, struct pmc_logw **out)
{
	struct pmc_logw *lw;
	struct pmc_logrec_header h;
	struct utsname un;
	char host[256], cpu[256];
	size_t done;
	int rc;

	*out = NULL;
	if (fd < 0 || (flags & ~PMC_LOGW_ZSTD)) {
		pmc__set_reason("invalid log file descriptor or flags");
		return -EINVAL;
	}
	lw = calloc(1, sizeof(*lw));
	if (!lw)
		return -ENOMEM;
	lw->out.fd = -1;
	lw->flags = flags;
	pthread_mutex_init(&lw->mu, NULL);
	pthread_cond_init(&lw->cv, NULL);
	lw->scratch = malloc(PMC_RING_SCRATCH_SIZE);
	if (!lw->scratch) {
		lw_free(lw);
		return -ENOMEM;
	}

	/* A follower (pmclog_set_follow) must learn when we are gone, even
	 * killed: we hold an exclusive flock on a regular file until it is
	 * closed (the kernel drops it when we die) and say so in the HEADER. */
	struct stat sb;
	int locked = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0;
	rc = pmc__logstream_open(&lw->out, fd, g_bufsize, !!(flags & PMC_LOGW_ZSTD), &done);
	if (rc == -ENOMEM) {
		lw_free(lw);
		return rc;
	}
	lw->st.bytes += done;
	lw->st.writes++;
	if (rc < 0) {
		/* the file refused the magic: kept for the flush (below) */
		pmc__clear_reason();
		set_error(lw, -rc);
	}

	if (gethostname(host, sizeof(host)) < 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	if (uname(&un) < 0)
		un.release[0] = '\0';
	cpu_desc(cpu, sizeof(cpu));
	memset(&h, 0, sizeof(h));
	h.version = PMC_VERSION;
	h.clockid = CLOCK_MONOTONIC;
	h.start_realtime = pmc__real_ns();
	h.start_clock = pmc__logw_clock(lw);
	h.flags = ((flags & PMC_LOGW_ZSTD) ? PMCLOG_HDR_F_ZSTD : 0) |
	    (locked ? PMCLOG_HDR_F_WRITER_LOCK : 0);
	h.arch = (uint32_t)g_cputype;
	h.libversion = PMC_VERSION_STRING;
	h.hostname = host;
	h.kernel = un.release;
	h.cpudesc = cpu;
	h.cmdline = cmdline ? cmdline : "";
	pmc__logrec_header(&lw->rec, &h);
	pmc__logw_append(lw, lw->rec.type, h.start_clock, lw->rec.buf, lw->rec.len);
	pmc__logrec_initialize(&lw->rec, PMC_VERSION, (uint32_t)g_cputype, h.start_realtime, cpu);
	pmc__logw_append(lw, lw->rec.type, h.start_clock, lw->rec.buf, lw->rec.len);
	/* hwpmc queues INITIALIZE and lets its log thread write it: a file
	 * that refuses the write (/dev/full, a pipe with no reader) is
	 * accepted, and the error is kept for the next flush and the close. */
	write_out(lw);
	/* signals stay with the program's threads (pmc record's SIGINT) */
	if (pmc__thread_start(&lw->thr, thread_main, lw) != 0) {
		pmc__set_reason("cannot start the log writer thread");
		lw_free(lw);
		return -EAGAIN;
	}
	lw->thr_started = 1;
	*out = lw;
	return 0;
}

void pmc__logw_set_clock(struct pmc_logw *lw, uint64_t (*now)(void))
{
	pthread_mutex_lock(&lw->mu);
	lw->now = now;
	pthread_mutex_unlock(&lw->mu);
}

static uint64_t ev_hash(uint64_t kid)
{
	return (kid * 0x9E3779B97F4A7C15ull) >> 32;
}

static int ev_eq(const void *tab, uint32_t i, const void *key)
{
	return ((const struct pmc_logw *)tab)->ev[i].kid == *(const uint64_t *)key;
}

struct logw_event *pmc__logw_find_event(struct pmc_logw *lw, uint64_t kid)
{
	int64_t i = hidx_find(&lw->evix, ev_hash(kid), ev_eq, lw, &kid);
	return i < 0 ? NULL : &lw->ev[i];
}

int pmc__logw_add_event(struct pmc_logw *lw, uint64_t kernel_id, pmc_id_t pmc,
    const struct psample_layout *layout, enum pmc_logw_role role)
{
	struct logw_event *e;

	pthread_mutex_lock(&lw->mu);
	int added;
	struct hidx_slot *sl = hidx_get(&lw->evix, ev_hash(kernel_id), 128, ev_eq, lw, &kernel_id,
	    (uint32_t)lw->nev, &added);
	if (sl && added && GROW(lw->ev, lw->nev, lw->evcap) < 0) {
		hidx_unadd(&lw->evix, sl);
		sl = NULL;
	}
	if (!sl) {
		pthread_mutex_unlock(&lw->mu);
		return -ENOMEM;
	}
	e = &lw->ev[sl->v - 1];
	if (added) {
		memset(e, 0, sizeof(*e));   /* no period until pmc__logw_set_period */
		lw->nev++;
	}
	e->kid = kernel_id;
	e->pmc = pmc;
	e->layout = *layout;
	psample__layout_init(&e->layout);   /* the offsets, the trailer */
	e->role = role;
	pthread_mutex_unlock(&lw->mu);
	return 0;
}

int pmc__logw_set_period(struct pmc_logw *lw, uint64_t kernel_id, uint64_t period)
{
	struct logw_event *e;
	pthread_mutex_lock(&lw->mu);
	if ((e = pmc__logw_find_event(lw, kernel_id)))
		e->period = period;
	pthread_mutex_unlock(&lw->mu);
	return e ? 0 : -ENOENT;
}

int pmc__logw_set_unit(struct pmc_logw *lw, pmc_id_t pmc, uint64_t unit)
{
	int i;
	pthread_mutex_lock(&lw->mu);
	for (i = 0; i < lw->nunits && lw->units[i].pmc != pmc; i++)
		;
	if (i == lw->nunits) {
		if (GROW(lw->units, lw->nunits, lw->capunits) < 0) {
			pthread_mutex_unlock(&lw->mu);
			return pmc__nomem();
		}
		lw->nunits++;
	}
	lw->units[i].pmc = pmc;
	lw->units[i].unit = unit ? unit : 1;
	pthread_mutex_unlock(&lw->mu);
	return 0;
}

uint64_t pmc__logw_in_units(const struct pmc_logw *lw, pmc_id_t pmc, uint64_t v)
{
	for (int i = 0; i < lw->nunits; i++)
		if (lw->units[i].pmc == pmc)
			return v / lw->units[i].unit;
	return v;
}

int pmc__logw_add_counter(struct pmc_logw *lw, uint64_t kernel_id, pmc_id_t pmc,
    const struct perf_event_attr *opened, enum pmc_logw_role role)
{
	struct psample_layout l = {
		.sample_type = opened->sample_type,
		.read_format = opened->read_format,
		.branch_sample_type = opened->branch_sample_type,
		.regs_user = opened->sample_regs_user,
		.regs_intr = opened->sample_regs_intr,
	};
	int rc = pmc__logw_add_event(lw, kernel_id, pmc, &l, role);

	if (rc == 0 && role == PMC_LOGW_SAMPLES)
		rc = pmc__logw_set_period(lw, kernel_id,
		    opened->freq ? 0 : opened->sample_period);
	return rc;
}

int pmc__logw_add_ring(struct pmc_logw *lw, const struct pmc_backend_ops *be,
    struct pmc_bctr *c, struct perf_event_mmap_page *page, size_t data_size)
{
	struct logw_source r;
	long pg = sysconf(_SC_PAGESIZE);
	int rc;

	memset(&r, 0, sizeof(r));
	rc = pmc__ring_init(&r.ring, page, pg > 0 ? (size_t)pg : 4096, data_size);
	if (rc < 0) {
		pmc__set_reason("the ring buffer's data area is not a power of two");
		return rc;
	}
	r.be = be;
	r.c = c;
	pthread_mutex_lock(&lw->mu);
	if (GROW(lw->rings, lw->nrings, lw->ringcap) < 0) {
		pthread_mutex_unlock(&lw->mu);
		return -ENOMEM;
	}
	lw->rings[lw->nrings++] = r;
	pthread_cond_broadcast(&lw->cv);
	pthread_mutex_unlock(&lw->mu);
	return 0;
}

void pmc__logw_remove_ring(struct pmc_logw *lw, struct pmc_bctr *c)
{
	pthread_mutex_lock(&lw->mu);
	lw->removing++;
	while (lw->in_wait)
		pthread_cond_wait(&lw->cv, &lw->mu);
	for (int i = 0; i < lw->nrings; i++) {
		if (lw->rings[i].c != c)
			continue;
		drain_ring(lw, &lw->rings[i]);
		ring_lost_at_close(lw, &lw->rings[i]);
		lw->rings[i] = lw->rings[--lw->nrings];
		break;
	}
	lw->removing--;
	pthread_cond_broadcast(&lw->cv);
	pthread_mutex_unlock(&lw->mu);
}

int pmc__logw_write(struct pmc_logw *lw, int type, const void *payload, size_t len)
{
	int rc;

	pthread_mutex_lock(&lw->mu);
	rc = pmc__logw_append(lw, type, pmc__logw_clock(lw), payload, len);
	pthread_mutex_unlock(&lw->mu);
	return rc;
}

int pmc__logw_put(struct pmc_logw *lw, const struct pmc_logrec *rec)
{
	return pmc__logw_write(lw, rec->type, rec->buf, rec->len);
}

int pmc__logw_flush(struct pmc_logw *lw)
{
	int rc;

	pthread_mutex_lock(&lw->mu);
	drain_all(lw);
	rc = write_out(lw);
	pthread_mutex_unlock(&lw->mu);
	return rc;
}

int pmc__logw_close(struct pmc_logw *lw)
{
	return pmc__logw_close_stats(lw, NULL);
}

int pmc__logw_close_stats(struct pmc_logw *lw, struct pmc_logw_stats *st)
{
	int rc;

	if (!lw)
		return 0;
	pthread_mutex_lock(&lw->mu);
	lw->stop = 1;
	pthread_cond_broadcast(&lw->cv);
	pthread_mutex_unlock(&lw->mu);
	if (lw->thr_started)
		pthread_join(lw->thr, NULL);
	pthread_mutex_lock(&lw->mu);
	drain_all(lw);
	pmc__logw_exec_flush_all(lw, pmc__logw_clock(lw));
	for (int i = 0; i < lw->nxw; i++)
		pmc__logw_exit_emit(lw, &lw->xw[i]);
	pmc__logrec_closelog(&lw->rec);
	pmc__logw_append(lw, lw->rec.type, pmc__logw_clock(lw), lw->rec.buf, lw->rec.len);
	write_out(lw);
	rc = lw->st.error ? -lw->st.error : 0;
	if (st)
		*st = lw->st;
	pthread_mutex_unlock(&lw->mu);
	lw_free(lw);
	return rc;
}

int pmc__logw_watch_exit(struct pmc_logw *lw, pid_t pid, pmc_id_t pmc,
    const struct pmc_backend_ops *be, struct pmc_bctr *const *ctr, int nctr)
{
	struct logw_exitwatch *w;
	int rc = 0;

	pthread_mutex_lock(&lw->mu);
	if (GROW(lw->xw, lw->nxw, lw->xwcap) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	w = &lw->xw[lw->nxw];
	memset(w, 0, sizeof(*w));
	if ((nctr > 0 && (w->ctr = malloc((size_t)nctr * sizeof(*w->ctr))) == NULL) ||
	    pmc__logw_exit_proc_add(w, (int32_t)pid) == NULL) {
		exitwatch_free(w);
		rc = -ENOMEM;
		goto out;
	}
	if (nctr > 0)
		memcpy(w->ctr, ctr, (size_t)nctr * sizeof(*w->ctr));
	w->pmc = pmc;
	w->be = be;
	w->nctr = nctr;
	lw->nxw++;
out:
	pthread_mutex_unlock(&lw->mu);
	return rc;
}

void pmc__logw_unwatch_exit(struct pmc_logw *lw, pid_t pid, const struct pmc_bctr *first)
{
	pthread_mutex_lock(&lw->mu);
	for (int i = 0; i < lw->nxw; i++)
		if (lw->xw[i].procs[0].pid == (int32_t)pid && lw->xw[i].nctr > 0 &&
		    lw->xw[i].ctr[0] == first) {
			pmc__logw_exit_emit(lw, &lw->xw[i]);
			exitwatch_free(&lw->xw[i]);
			lw->xw[i--] = lw->xw[--lw->nxw];
		}
	pthread_mutex_unlock(&lw->mu);
}

void pmc__logw_get_stats(struct pmc_logw *lw, struct pmc_logw_stats *st)
{
	pthread_mutex_lock(&lw->mu);
	*st = lw->st;
	pthread_mutex_unlock(&lw->mu);
}
