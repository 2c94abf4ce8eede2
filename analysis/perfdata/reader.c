/*
 * reader.c — perf.data as a stream of pmc log records (see perfdata.h):
 * user records and delivery, the top of the reader.  The layers below live
 * in their own files (reader_internal.h has the map).
 *
 * Layers, bottom up:
 *   source     bytes of the data section: pread on a file, read on a pipe,
 *              memcpy from memory (a non-seekable file-mode input is read
 *              into memory first: the header is at the start but the
 *              attrs and features are found through offsets)
 *   raw        one perf record at a time from the source, or from the zstd
 *              stream that COMPRESSED records carry
 *   session    user records (HEADER_ATTR, FEATURE, EVENT_UPDATE, BUILD_ID,
 *              FINISHED_ROUND ...) act on the reader; kernel records with a
 *              timestamp are queued and released at FINISHED_ROUND in time
 *              order (perf's ordered_events: a round releases what is not
 *              newer than the newest record of the round before)
 *   translate  one kernel record -> zero or more struct pmclog_ev
 *
 * Every load is bounds-checked and byte-order explicit (the file's order,
 * whatever the host's), so a damaged file gives a clear error or the
 * records before the damage, never a crash.
 */

#include "perfdata/reader_internal.h"

int pd_process_user(struct perfdata *p, const unsigned char *r, size_t len,
    uint32_t type)
{
	switch (type) {
	case PD_REC_HEADER_ATTR: {
		struct perfdata_attr a;
		uint32_t nru, nri;
		size_t sz = pd_parse_attr(p, r + 8, len - 8, &a, &nru, &nri);
		if (!sz) {
			p->st.skipped++;
			return 0;
		}
		return pd_add_attr(p, &a, nru, nri, r + 8 + sz, (len - 8 - sz) / 8);
	}
	case PD_REC_HEADER_FEATURE:
		if (len >= 16) {
			uint64_t feat = ld64(p, r + 8);
			if (feat < PD_FEAT_BITS)
				pd_parse_feature(p, (int)feat, r + 16, len - 16);
		}
		return 0;
	case PD_REC_EVENT_UPDATE:
		if (len > 24 && ld64(p, r + 8) == PD_EVENT_UPDATE_NAME) {
			int idx = pd_id_get(p, ld64(p, r + 16));
			if (idx >= 0)
				pd_set_attr_name(p, p->attrs[idx], (const char *)r + 24, len - 24);
		}
		return 0;
	case PD_REC_HEADER_BUILD_ID:
		pd_add_buildid(p, r, len);
		return 0;
	case PD_REC_FINISHED_ROUND:
		/* in the directory format the rounds are in the main file and the
		 * samples in data.N: sort everything at the end instead */
		if (p->ordered && p->dirfd < 0)
			pd_flush_round(p);
		return 0;
	case PD_REC_TRACING_DATA: {
		/* u32 size; the tracing data follows the record, 8-byte aligned
		 * (pipe mode's HEADER_TRACING_DATA): kept for a TRACEDATA event */
		uint64_t n = len >= 12 ? ((uint64_t)ld32(p, r + 8) + 7) & ~7ULL : 0;
		unsigned char *b = n && n <= FEAT_MAX ? malloc((size_t)n) : NULL;
		if (!b) {
			pd_skip_bytes(p, n);
			p->st.skipped++;
			return 0;
		}
		pd_set_tracing_data(p, b, pd_take_bytes(p, b, n));
		free(b);
		return 0;
	}
	case PD_REC_AUXTRACE:
		/* u64 size ... ; the trace data follows the record */
		if (len >= 16)
			pd_skip_bytes(p, ld64(p, r + 8));
		p->st.skipped++;
		return 0;
	case PD_REC_COMPRESSED:
	case PD_REC_COMPRESSED2: {
		const unsigned char *d = r + 8;
		size_t n = len - 8;
		if (type == PD_REC_COMPRESSED2) {
			uint64_t ds;
			if (len < 16)
				return pd_set_err(p, EILSEQ, "corrupt perf.data: a short COMPRESSED2 record");
			ds = ld64(p, r + 8);
			if (ds > len - 16)
				return pd_set_err(p, EILSEQ, "corrupt perf.data: a COMPRESSED2 record's"
				    " data size (%" PRIu64 ") exceeds the record", ds);
			d = r + 16;
			n = (size_t)ds;
		}
		p->flags |= PERFDATA_F_COMPRESSED;
		p->st.compressed++;
		return pd_decompress(p, d, n);
	}
	default:
		p->st.skipped++;      /* ID_INDEX, THREAD_MAP, STAT, TIME_CONV ...: unused */
		return 0;
	}
}

/* ---- delivery -------------------------------------------------------------- */

static void deliver_header(struct perfdata *p, struct pmclog_ev *ev)
{
	struct pmclog_ev_header *h = &ev->pl_u.pl_h;
	char *ver = p->verbuf;
	memset(h, 0, sizeof(*h));
	ev->pl_type = PMCLOG_TYPE_HEADER;
	/* the records a perf.data is read as: format 3.1's (stacks in the
	 * samples, as in an uncompressed log), not format 4's stack frames */
	h->pl_format_major = 3;
	h->pl_format_minor = 1;
	h->pl_version = PMC_VERSION;
	h->pl_clockid = 1;            /* CLOCK_MONOTONIC: perf's clock, nominally */
	if (p->nattrs && (p->attrs[0]->pub.flags & PD_ATTR_USE_CLOCKID))
		h->pl_clockid = (uint32_t)p->attrs[0]->pub.clockid;
	if (p->have_clock) {
		h->pl_clockid = p->clk_id;
		h->pl_start_realtime = p->clk_tod;
		h->pl_start_clock = p->clk_ns;
	}
	h->pl_flags = (p->flags & PERFDATA_F_COMPRESSED) ? PMCLOG_HDR_F_ZSTD : 0;
	h->pl_arch = PMC_CPU_GENERIC;
	snprintf(ver, sizeof(p->verbuf), "perf %s", p->version ? p->version : "");
	if (!p->version)
		ver[4] = '\0';
	h->pl_libversion = ver;
	h->pl_hostname = p->hostname ? p->hostname : "";
	h->pl_kernel = p->osrelease ? p->osrelease : "";
	h->pl_cpudesc = p->cpudesc ? p->cpudesc : "";
	h->pl_cmdline = p->cmdline ? p->cmdline : "";
	pd_set_time(ev, h->pl_start_clock);
	ev->pl_offset = 0;
	ev->pl_data = NULL;
	ev->pl_len = 0;
}

static void deliver_alloc(struct perfdata *p, struct pd_attr *a, struct pmclog_ev *ev)
{
	struct pmclog_ev_pmcallocate *al = &ev->pl_u.pl_a;
	memset(al, 0, sizeof(*al));
	ev->pl_type = PMCLOG_TYPE_PMCALLOCATE;
	al->pl_evname = a->name;
	al->pl_rate = a->pub.period;
	al->pl_freq = (uint32_t)a->pub.freq;
	al->pl_event = 0;
	al->pl_flags = (a->pub.sample_type & PSAMPLE_CALLCHAIN) ? PMC_F_CALLCHAIN : 0;
	if (a->pub.flags & PD_ATTR_INHERIT)
		al->pl_flags |= PMC_F_DESCENDANTS;
	al->pl_pmcid = a->pub.pmcid;
	al->pl_mode = (a->pub.period || a->pub.freq) ? PMC_MODE_TS : PMC_MODE_TC;
	al->pl_cpu = -1;
	pd_set_time(ev, p->have_clock ? p->clk_ns : 0);
	ev->pl_offset = 0;
	ev->pl_data = NULL;
	ev->pl_len = 0;
	a->announced = 1;
}

/* Store r as the current record (copied). */
static int set_cur_copy(struct perfdata *p, const unsigned char *r, size_t len,
    uint64_t off, const struct pd_attr *a)
{
	if (len > p->reccap) {
		size_t nc = len < 65536 ? 65536 : len;
		unsigned char *nb = realloc(p->rec, nc);
		if (!nb)
			return pd_set_err(p, ENOMEM, "out of memory");
		p->rec = nb;
		p->reccap = nc;
	}
	memcpy(p->rec, r, len);
	p->cur = p->rec;
	p->curlen = len;
	p->curoff = off;
	p->curattr = a;
	p->cursub = 0;
	p->curactive = 1;
	return 0;
}

/* Next raw record: from the decompressed stream first, else the source.
 * Returns its length with *rp pointing at it (valid until the next call),
 * 0 at the end (input_done set) or on damage. */
static size_t next_raw(struct perfdata *p, const unsigned char **rp, uint64_t *offp)
{
	for (;;) {
		if (p->pend_err)
			return 0;
		if (p->dlen - p->dpos >= 8) {
			size_t sz = ld16(p, p->dbuf + p->dpos + 6);
			if (sz < 8) {
				pd_set_err(p, EILSEQ, "corrupt perf.data: a record of size %zu inside the"
				    " COMPRESSED record at %" PRIu64, sz, p->doff);
				return 0;
			}
			if (p->dlen - p->dpos >= sz) {
				*rp = p->dbuf + p->dpos;
				*offp = p->doff;
				p->dpos += sz;
				p->st.records++;
				p->nested = 1;
				return sz;
			}
		}
		size_t sz = pd_peek_raw(p);
		if (!sz) {
			if (p->dlen > p->dpos)
				p->truncated = 1;   /* a record cut inside compressed data */
			p->input_done = 1;
			return 0;
		}
		const unsigned char *r = p->ibuf + p->ipos;
		uint64_t off = p->ioff;
		uint32_t type = ld32(p, r);
		pd_consume(p, sz);
		if (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2) {
			p->doff = off;
			p->st.records++;
			pd_process_user(p, r, sz, type);
			continue;
		}
		*rp = r;
		*offp = off;
		p->st.records++;
		p->nested = 0;
		return sz;
	}
}

/* The direct sample path (reader_sample.c): the samples at the head of the
 * queue that are due now go to the sink where they lie, without being made
 * current one by one; it stops at the first record the event path must
 * take.  The release rule is next_record's. */
static void drain_direct(struct perfdata *p)
{
	while (p->qn > p->qh && (p->input_done || p->forcing || p->flushing)) {
		const struct qent *e = pd_q_peek(p);
		if (!p->input_done && !p->forcing && e->ts > p->flush_limit)
			return;
		if (ld32(p, e->data) != PD_REC_SAMPLE ||
		    !pd_direct_sample(p, e->attr, e->data, e->len))
			return;
		pd_q_drop(p);
		if (p->forcing && p->qbytes < QUEUE_MAX / 2)
			p->forcing = 0;
	}
}

/* How much of the file perfdata__set_sample_unordered may take as it
 * lies, by the attrs so far: 2 every record, 1 the samples the sink takes,
 * 0 nothing.  A record without a time of its own (an attr without
 * PERF_SAMPLE_TIME or sample_id_all) takes the time of the record before
 * it, which is another one in file order than in time order: with one,
 * the file keeps its time order.  And the samples that still come as
 * events, DWARF ones, are unwound with the mappings read before them:
 * with one, the other records keep theirs. */
static int file_order(struct perfdata *p)
{
	if (p->norder_seen != p->nattrs) {
		p->file_order = 2;
		for (int i = 0; i < p->nattrs; i++) {
			const struct pd_attr *a = p->attrs[i];
			if (!(a->pub.sample_type & PSAMPLE_TIME) || !(a->pub.flags & PD_ATTR_SAMPLE_ID_ALL))
				p->file_order = 0;
			else if (!pd_sink_takes(p, a) && p->file_order == 2)
				p->file_order = 1;
		}
		p->norder_seen = p->nattrs;
	}
	return p->sunordered && p->sink ? p->file_order : 0;
}

/* Find the next kernel record to translate and make it current.  0 ok,
 * -1 when there is none (end, or damage). */
static int next_record(struct perfdata *p)
{
	for (;;) {
		if (p->sink)
			drain_direct(p);
		/* a round being released, or the end: pop the queue */
		if (p->qn > p->qh && (p->input_done || p->forcing ||
		    (p->flushing && pd_q_peek(p)->ts <= p->flush_limit))) {
			pd_q_pop(p);
			if (p->forcing && p->qbytes < QUEUE_MAX / 2)
				p->forcing = 0;
			p->cur = p->curq.data;
			p->curlen = p->curq.len;
			p->curoff = p->curq.off;
			p->curattr = p->curq.attr;
			p->cursub = 0;
			p->curactive = 1;
			return 0;
		}
		p->flushing = 0;
		if (p->input_done)
			return -1;
		/* new attrs (pipe mode) are announced before what follows them,
		 * and so is the tracing data */
		if (!p->announced_all || p->tdpending)
			return 0;

		if (file_order(p) >= 1 && !p->pend_err) {
			/* the samples that the sink takes where they lie, as many as
			 * follow each other in the buffer next_raw would read from:
			 * no round trip through here for each (a report's samples
			 * are most of its file) */
			if (p->dlen - p->dpos >= 8)
				p->dpos += pd_direct_run(p, p->dbuf + p->dpos, p->dlen - p->dpos);
			else if (p->ilen > p->ipos)
				pd_consume(p, pd_direct_run(p, p->ibuf + p->ipos, p->ilen - p->ipos));
		}
		const unsigned char *r;
		uint64_t off;
		size_t len = next_raw(p, &r, &off);
		if (!len)
			continue;     /* input_done now: drain the queue */
		uint32_t type = ld32(p, r);
		if (type >= PD_REC_USER_START) {
			/* inside compressed data only kernel records make sense: a
			 * COMPRESSED or a record with a trailing payload there is junk */
			if (p->nested && (type == PD_REC_COMPRESSED || type == PD_REC_COMPRESSED2 ||
			    type == PD_REC_AUXTRACE || type == PD_REC_TRACING_DATA)) {
				p->st.skipped++;
				continue;
			}
			pd_process_user(p, r, len, type);
			continue;
		}
		if (type > PD_REC_AUX_OUTPUT_HW_ID || type == 0) {
			p->st.skipped++;
			continue;
		}
		const struct pd_attr *a = pd_rec_attr(p, r, len, type);
		uint64_t ts = pd_rec_time(p, a, r, len, type);
		if (type == PD_REC_SAMPLE && a && pd_sink_takes(p, a) && file_order(p) >= 1) {
			/* the sink takes it where it lies; its time still moves
			 * the round's end, so the queued events are released as
			 * they would have been */
			if (p->ordered && ts != UINT64_MAX && ts > p->max_ts)
				p->max_ts = ts;
			pd_direct_sample(p, a, r, len);
			continue;
		}
		if (file_order(p) == 2 && p->qn == p->qh) {
			/* no sample needs the records around it in time order:
			 * this one comes where it lies too */
			if (set_cur_copy(p, r, len, off, a) < 0)
				continue;
			return 0;
		}
		if (p->ordered && ts != 0 && ts != UINT64_MAX && a) {
			if (pd_q_add(p, r, len, ts, off, a) < 0) {
				pd_set_err(p, ENOMEM, "out of memory");
				continue;
			}
			if (ts < p->last_flush)
				p->st.unordered++;
			if (ts > p->max_ts)
				p->max_ts = ts;
			if (p->qbytes > QUEUE_MAX)
				p->forcing = 1;
			continue;
		}
		if (set_cur_copy(p, r, len, off, a) < 0)
			continue;
		return 0;
	}
}

/* The sticky error, raised through the reason channel on every read after
 * it (the damage was seen earlier, while records before it were queued). */
static int fail_read(struct perfdata *p)
{
	pmc__clear_reason();
	pmc__err(-p->err, "%s", p->errmsg);
	return -1;
}

int perfdata__read(struct perfdata *p, struct pmclog_ev *ev)
{
	if (p->err) {
		ev->pl_state = PMCLOG_ERROR;
		return fail_read(p);
	}
	if (!p->header_done) {
		deliver_header(p, ev);
		p->header_done = 1;
		goto ok;
	}
	for (;;) {
		if (!p->announced_all) {
			int i;
			for (i = 0; i < p->nattrs; i++)
				if (!p->attrs[i]->announced)
					break;
			if (i < p->nattrs) {
				deliver_alloc(p, p->attrs[i], ev);
				goto ok;
			}
			p->announced_all = 1;
		}
		if (p->tdpending) {
			/* the tracepoint formats, before the samples they describe */
			memset(&ev->pl_u.pl_td, 0, sizeof(ev->pl_u.pl_td));
			ev->pl_type = PMCLOG_TYPE_TRACEDATA;
			ev->pl_u.pl_td.pl_total = p->tdlen;
			ev->pl_u.pl_td.pl_len = (uint32_t)p->tdlen;
			ev->pl_u.pl_td.pl_bytes = p->tdata;
			ev->pl_data = NULL;
			ev->pl_len = 0;
			pd_set_time(ev, p->last_time);
			p->tdpending = 0;
			goto ok;
		}
		if (p->curactive && p->sink && p->cursub == 0 &&
		    ld32(p, p->cur) == PD_REC_SAMPLE &&
		    pd_direct_sample(p, p->curattr, p->cur, p->curlen))
			p->curactive = 0;     /* handed to the sink (or dropped) */
		if (p->curactive) {
			int got = pd_translate(p, p->curattr, p->cur, p->curlen, p->cursub++, ev);
			if (got) {
				uint32_t type = ld32(p, p->cur);
				ev->pl_offset = (off_t)p->curoff;
				ev->pl_data = (void *)p->cur;
				ev->pl_len = (int)p->curlen;
				if (type == PD_REC_SAMPLE || ev->pl_time)
					p->last_time = ev->pl_time;
				goto ok;
			}
			p->curactive = 0;
		}
		if (next_record(p) < 0)
			break;
	}
	/* the end: the queue is drained */
	if (p->pend_err) {
		p->err = p->pend_err;
		ev->pl_state = PMCLOG_ERROR;
		return fail_read(p);
	}
	ev->pl_state = PMCLOG_EOF;
	return -1;
ok:
	ev->pl_state = PMCLOG_OK;
	ev->pl_count = ++p->count;
	return 0;
}

