/*
 * rewrite.c — pmclog_writer (pmclog.h): a pmc log written from decoded
 * records, the inverse of pmclog_read.  `pmc convert` turns perf.data into a
 * log with it.  Each record is encoded with the log's own encoders
 * (records.h) and framed into the file by the log's one stream
 * (stream.h: file magic, record headers, zstd frames, interned chains), as
 * the writer thread's (writer.c) are; only the HEADER differs: that one
 * stamps *this* host's name and clock while a rewritten log must say where
 * it was recorded, so the HEADER comes from the caller.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc.h"
#include "pmclog.h"
#include "common/error.h"
#include "log/chains.h"
#include "log/format.h"
#include "log/records.h"
#include "log/stream.h"

#define OBUF_SIZE (256u * 1024u)

struct pmclog_writer {
	struct pmc_logstream out;
	int zstd;
	int err;                      /* the first write error (sticky) */
	uint64_t last_ts;             /* for records without a time of their own */
	struct pmc_logrec *rec;       /* 64 KB: on the heap */
	struct pmc_logchains *chains; /* samples are written with interned chains */
};

static int lout_flush(struct pmclog_writer *o)
{
	size_t done;
	int rc;

	if (o->err)
		return o->err;
	if ((rc = pmc__logstream_write_out(&o->out, &done)) < 0)
		o->err = rc;
	return rc;
}

/* One record, its chain interned as the writer thread's are. */
static int lout_rec(struct pmclog_writer *o, int type, uint64_t ts, const void *payload, size_t plen)
{
	uint32_t aux;
	int rc;

	pmc__logstream_choose(o->chains, &type, &aux, &payload, &plen);
	rc = pmc__logstream_frame(&o->out, type, aux, ts, payload, plen);
	if (rc == -ENOBUFS) {
		if (lout_flush(o) < 0)
			return o->err;
		rc = pmc__logstream_frame(&o->out, type, aux, ts, payload, plen);
	}
	return rc;
}

static void writer_free(struct pmclog_writer *o)
{
	pmc__logchains_free(o->chains);
	pmc__logstream_free(&o->out);
	free(o->rec);
	free(o);
}

static int write_failed(struct pmclog_writer *o)
{
	pmc__set_reason("cannot write the log: %s", strerror(-o->err));
	return pmc__ret(o->err);
}

/* Encode one decoded record with the log's encoders.  0, or -ENOENT for a
 * type that has no encoding here. */
static int encode(const struct pmclog_ev *ev, struct pmc_logrec *r, int zstd)
{
	switch (ev->pl_type) {
	case PMCLOG_TYPE_HEADER: {
		const struct pmclog_ev_header *h = &ev->pl_u.pl_h;
		struct pmc_logrec_header x = {
			.version = h->pl_version, .clockid = h->pl_clockid,
			.start_realtime = h->pl_start_realtime, .start_clock = h->pl_start_clock,
			.flags = zstd ? PMCLOG_HDR_F_ZSTD : 0, .arch = h->pl_arch,
			.libversion = h->pl_libversion, .hostname = h->pl_hostname,
			.kernel = h->pl_kernel, .cpudesc = h->pl_cpudesc, .cmdline = h->pl_cmdline,
		};
		return pmc__logrec_header(r, &x);
	}
	case PMCLOG_TYPE_PMCALLOCATE: {
		const struct pmclog_ev_pmcallocate *a = &ev->pl_u.pl_a;
		return pmc__logrec_pmcallocate(r, a->pl_pmcid, a->pl_event, a->pl_evname,
		    (enum pmc_mode)a->pl_mode, a->pl_flags, a->pl_rate, (int)a->pl_freq, a->pl_cpu);
	}
	case PMCLOG_TYPE_CALLCHAIN: {
		const struct pmclog_ev_callchain *c = &ev->pl_u.pl_cc;
		struct pmc_logrec_sample s = {
			.pmc = c->pl_pmcid, .pid = (pid_t)c->pl_pid, .tid = (pid_t)c->pl_tid,
			.cpu = c->pl_cpu, .period = c->pl_period,
			.npc = c->pl_npc, .pcs = c->pl_pc, .pcflags = c->pl_pcflags,
		};
		/* perf record --call-graph dwarf: the registers and stack go along */
		struct pmc_logrec_ustack u = { c->pl_uregs_abi, c->pl_nuregs, c->pl_uregs_mask,
			c->pl_uregs, c->pl_ustack_len, c->pl_ustack };
		/* a tracepoint's fields go along too (perf.data's PERF_SAMPLE_RAW) */
		struct pmc_logrec_raw raw = { c->pl_raw_flags, c->pl_raw_len, c->pl_raw };
		return pmc__logrec_callchain_ext(r, &s, c->pl_nuregs ? &u : NULL,
		    c->pl_raw || c->pl_raw_flags ? &raw : NULL);
	}
	case PMCLOG_TYPE_MAP_IN: {
		const struct pmclog_ev_map_in *m = &ev->pl_u.pl_mi;
		struct pmc_logrec_map x = {
			.pid = m->pl_pid, .start = m->pl_start, .len = m->pl_len, .pgoff = m->pl_pgoff,
			.prot = m->pl_prot, .mflags = m->pl_mflags, .buildid_len = m->pl_buildid_len,
			.buildid = m->pl_buildid, .path = m->pl_pathname,
		};
		return pmc__logrec_map_in(r, &x);
	}
	case PMCLOG_TYPE_COMM:
		return pmc__logrec_comm(r, ev->pl_u.pl_cm.pl_pid, ev->pl_u.pl_cm.pl_tid,
		    ev->pl_u.pl_cm.pl_flags, ev->pl_u.pl_cm.pl_comm);
	case PMCLOG_TYPE_PROCEXEC:
		return pmc__logrec_procexec(r, ev->pl_u.pl_x.pl_pmcid, ev->pl_u.pl_x.pl_pid,
		    ev->pl_u.pl_x.pl_tid, ev->pl_u.pl_x.pl_baseaddr, ev->pl_u.pl_x.pl_dynaddr,
		    ev->pl_u.pl_x.pl_pathname);
	case PMCLOG_TYPE_PROCFORK:
		return pmc__logrec_procfork(r, ev->pl_u.pl_f.pl_oldpid, ev->pl_u.pl_f.pl_newpid,
		    ev->pl_u.pl_f.pl_oldtid, ev->pl_u.pl_f.pl_newtid);
	case PMCLOG_TYPE_THR_CREATE:
		return pmc__logrec_thr_create(r, ev->pl_u.pl_tc.pl_tid, ev->pl_u.pl_tc.pl_pid,
		    ev->pl_u.pl_tc.pl_flags, ev->pl_u.pl_tc.pl_tdname);
	case PMCLOG_TYPE_THR_EXIT:
		return pmc__logrec_thr_exit(r, ev->pl_u.pl_te.pl_tid, ev->pl_u.pl_te.pl_pid);
	case PMCLOG_TYPE_SYSEXIT:
		return pmc__logrec_sysexit(r, ev->pl_u.pl_se.pl_pid);
	case PMCLOG_TYPE_PROCEXIT:
		return pmc__logrec_procexit(r, ev->pl_u.pl_e.pl_pmcid, (pid_t)ev->pl_u.pl_e.pl_pid,
		    ev->pl_u.pl_e.pl_tid, ev->pl_u.pl_e.pl_value);
	case PMCLOG_TYPE_DROPNOTIFY:
		return pmc__logrec_dropnotify(r, ev->pl_u.pl_dn.pl_count, ev->pl_u.pl_dn.pl_pmcid,
		    ev->pl_u.pl_dn.pl_cpu, ev->pl_u.pl_dn.pl_reason);
	case PMCLOG_TYPE_THROTTLE:
		return pmc__logrec_throttle(r, ev->pl_u.pl_th.pl_pmcid,
		    (int)ev->pl_u.pl_th.pl_throttled, ev->pl_u.pl_th.pl_cpu);
	case PMCLOG_TYPE_KSYMBOL:
		return pmc__logrec_ksymbol(r, ev->pl_u.pl_ksym.pl_addr, ev->pl_u.pl_ksym.pl_len,
		    ev->pl_u.pl_ksym.pl_ksymtype, ev->pl_u.pl_ksym.pl_flags, ev->pl_u.pl_ksym.pl_name);
	case PMCLOG_TYPE_SWITCH:          /* perf record --switch-events: off-CPU time */
		return pmc__logrec_switch(r, ev->pl_u.pl_sw.pl_pmcid, ev->pl_u.pl_sw.pl_pid,
		    ev->pl_u.pl_sw.pl_tid, ev->pl_u.pl_sw.pl_cpu, ev->pl_u.pl_sw.pl_flags);
	default:
		return -ENOENT;
	}
}

struct pmclog_writer *pmclog_writer_open(int fd, int flags)
{
	struct pmclog_writer *o = calloc(1, sizeof(*o));
	int zstd = !!(flags & PMC_LOGF_ZSTD), rc;
	size_t done;

	if (!o)
		return pmc__ret(-ENOMEM), NULL;
	o->zstd = zstd;
	o->out.fd = -1;
	o->rec = malloc(sizeof(*o->rec));
	o->chains = pmc__logchains_new();
	if (!o->rec || !o->chains) {
		pmc__set_reason("out of memory");
		rc = -ENOMEM;
	} else {
		rc = pmc__logstream_open(&o->out, fd, OBUF_SIZE, zstd, &done);
	}
	if (rc < 0) {
		writer_free(o);
		return pmc__ret(rc), NULL;
	}
	return o;
}

/* perf's tracing data (tracepoint formats): as many TRACEDATA records as
 * its pieces take. */
static int write_tracedata(struct pmclog_writer *o, const struct pmclog_ev *ev)
{
	const struct pmclog_ev_tracedata *t = &ev->pl_u.pl_td;
	uint64_t ts = ev->pl_time ? ev->pl_time : o->last_ts;

	if (t->pl_offset > t->pl_total || t->pl_len > t->pl_total - t->pl_offset ||
	    (t->pl_len && !t->pl_bytes)) {
		pmc__set_reason("tracing data of %u bytes at %" PRIu64 " of %" PRIu64,
		    t->pl_len, t->pl_offset, t->pl_total);
		return pmc__ret(-EINVAL);
	}
	uint32_t done = 0;
	do {
		uint32_t n = t->pl_len - done;
		if (n > PMCLOG_TRACEDATA_CHUNK)
			n = PMCLOG_TRACEDATA_CHUNK;
		pmc__logrec_tracedata(o->rec, t->pl_total, t->pl_offset + done,
		    t->pl_bytes + done, n);
		if (lout_rec(o, o->rec->type, ts, o->rec->buf, o->rec->len) < 0)
			return write_failed(o);
		done += n;
	} while (done < t->pl_len);
	return 0;
}

int pmclog_write(struct pmclog_writer *o, const struct pmclog_ev *ev)
{
	struct pmc_logrec *r = o->rec;

	pmc__clear_reason();
	if (ev->pl_type == PMCLOG_TYPE_TRACEDATA)
		return write_tracedata(o, ev);
	if (encode(ev, r, o->zstd) < 0) {
		pmc__set_reason("record type %d has no encoding in a pmc log", (int)ev->pl_type);
		return pmc__ret(-ENOENT);
	}
	if (ev->pl_time)
		o->last_ts = ev->pl_time;
	if (ev->pl_type == PMCLOG_TYPE_HEADER)
		pmc__logchains_reset(o->chains);   /* readers forget chains at a HEADER */
	if (lout_rec(o, r->type, ev->pl_time ? ev->pl_time : o->last_ts, r->buf, r->len) < 0)
		return write_failed(o);
	if (ev->pl_type == PMCLOG_TYPE_HEADER) {
		/* INITIALIZE follows HEADER in every log */
		const struct pmclog_ev_header *h = &ev->pl_u.pl_h;
		if (pmc__logrec_initialize(r, h->pl_version, h->pl_arch,
		    h->pl_start_realtime, h->pl_cpudesc) == 0 &&
		    lout_rec(o, r->type, ev->pl_time, r->buf, r->len) < 0)
			return write_failed(o);
	}
	return 0;
}

int pmclog_writer_close(struct pmclog_writer *o)
{
	int rc;

	if (!o)
		return 0;
	pmc__clear_reason();
	if (!o->err && pmc__logrec_closelog(o->rec) == 0)
		lout_rec(o, o->rec->type, o->last_ts, o->rec->buf, o->rec->len);
	rc = lout_flush(o) < 0 ? write_failed(o) : 0;
	writer_free(o);
	return rc;
}
