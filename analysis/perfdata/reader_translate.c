/*
 * reader_translate.c — one kernel record of a perf.data -> zero or more
 * struct pmclog_ev, so everything that reads a pmc log reads perf's
 * recordings too (see reader_internal.h).  Samples are parsed by the one
 * perf sample parser (common/perf_sample.h).
 */
#include "perfdata/reader_internal.h"

/* ---- translation ----------------------------------------------------------- */

void pd_set_time(struct pmclog_ev *ev, uint64_t t)
{
	ev->pl_time = t;
	ev->pl_ts.tv_sec = (time_t)(t / 1000000000u);
	ev->pl_ts.tv_nsec = (long)(t % 1000000000u);
}

static void copy_str(char *dst, size_t dsz, const unsigned char *src, size_t n)
{
	size_t k = strnlen((const char *)src, n);
	if (k >= dsz)
		k = dsz - 1;
	memcpy(dst, src, k);
	dst[k] = '\0';
}

static pmc_id_t id_pmc(const struct perfdata *p, uint64_t id)
{
	int idx = pd_id_get(p, id);
	if (idx < 0)
		return p->nattrs == 1 ? p->attrs[0]->pub.pmcid : PMC_ID_INVALID;
	return p->attrs[idx]->pub.pmcid;
}

/* The sample's user registers and stack (perf record --call-graph dwarf),
 * copied into the reader: the record is gone by the next read. */
static void take_ustack(struct perfdata *p, const struct psample *ps,
    struct pmclog_ev_callchain *cc)
{
	cc->pl_nuregs = 0;
	cc->pl_ustack_len = 0;
	cc->pl_ustack = NULL;
	if (ps->regs_user.abi == PSAMPLE_REGS_ABI_NONE || ps->regs_user.nr > 64)
		return;
	for (uint32_t i = 0; i < ps->regs_user.nr; i++)
		cc->pl_uregs[i] = psample__u64(ps, ps->regs_user.regs, i);
	cc->pl_uregs_abi = (uint32_t)ps->regs_user.abi;
	cc->pl_uregs_mask = ps->regs_user.mask;
	cc->pl_nuregs = ps->regs_user.nr;
	if (!ps->stack_dyn_size)
		return;
	if (ps->stack_dyn_size > p->ustack_cap) {
		unsigned char *b = realloc(p->ustack, (size_t)ps->stack_dyn_size);
		if (!b)
			return;               /* unwound as far as the registers go */
		p->ustack = b;
		p->ustack_cap = (size_t)ps->stack_dyn_size;
	}
	memcpy(p->ustack, ps->stack, (size_t)ps->stack_dyn_size);
	p->st.ustack_bytes += ps->stack_dyn_size;
	cc->pl_ustack = p->ustack;
	cc->pl_ustack_len = (uint32_t)ps->stack_dyn_size;
}

/* SAMPLE -> CALLCHAIN, decoded by lib/common/perf_sample.  0: dropped. */
static int tr_sample(struct perfdata *p, const struct pd_attr *a, const unsigned char *r,
    size_t len, struct pmclog_ev *ev)
{
	struct pmclog_ev_callchain *cc = &ev->pl_u.pl_cc;
	struct psample ps;
	uint16_t misc = ld16(p, r + 4);
	uint64_t st;
	int user = psample__misc_user(misc), has_ip;

	if (!a) {
		p->st.unknown_id++;
		return 0;
	}
	st = a->pub.sample_type;
	if (psample__parse(&ps, &a->lay, r + 8, len - 8, p->be) < 0) {
		p->st.bad_samples++;
		return 0;
	}
	has_ip = (st & PSAMPLE_IP) != 0;

	ev->pl_type = PMCLOG_TYPE_CALLCHAIN;
	cc->pl_pid = (st & PSAMPLE_TID) ? ps.pid : (uint32_t)-1;
	cc->pl_tid = (st & PSAMPLE_TID) ? ps.tid : (uint32_t)-1;
	cc->pl_pmcid = a->pub.pmcid;
	cc->pl_cpu = ps.cpu;
	cc->pl_cpuflags2 = 0;
	/* a fixed period (perf record -c N) is not in the samples: each one
	 * stands for the attr's sample_period events, as perf counts it */
	cc->pl_period = (st & PSAMPLE_PERIOD) ? ps.period :
	    (a->pub.freq ? 0 : a->pub.period);
	cc->pl_npc = 0;
	if (has_ip) {
		cc->pl_pc[0] = ps.ip;
		cc->pl_pcflags[0] = user ? PMC_CC_F_USERSPACE : 0;
		cc->pl_npc = 1;
	}
	if (ps.callchain_nr) {
		/* the chain starts with the sampled pc itself, which is pc[0]
		 * already (its context counts): decode it over pc[0] then, else
		 * after it; straight into the event, no copy in between */
		int cu = user;
		uint32_t at = has_ip &&
		    !psample__chain_has_ip(ps.callchain, ps.callchain_nr, p->be, ps.ip, &cu);
		uint32_t n = psample__chain(&ps, user, PMC_CC_F_USERSPACE, cc->pl_pc + at,
		    cc->pl_pcflags + at, PMC_CALLCHAIN_DEPTH_MAX - at);
		if (at + n > cc->pl_npc)
			cc->pl_npc = at + n;
	}
	if (cc->pl_npc == 0) {
		cc->pl_pc[0] = 0;
		cc->pl_pcflags[0] = user ? PMC_CC_F_USERSPACE : 0;
		cc->pl_npc = 1;
	}
	take_ustack(p, &ps, cc);
	/* a tracepoint's fields: they point into the record, which stays until
	 * the next read */
	cc->pl_raw_flags = (st & PSAMPLE_CALLCHAIN) ? 0 : PMCLOG_RAW_F_NOCHAIN;
	cc->pl_raw_len = (st & PSAMPLE_RAW) ? ps.raw_size : 0;
	cc->pl_raw = cc->pl_raw_len ? ps.raw : NULL;
	if (!(st & PSAMPLE_RAW))
		cc->pl_raw_flags = 0;
	/* pl_usermode and the cpuflags bit are pc[0]'s flag, as a log's reader
	 * derives them */
	cc->pl_cpuflags = PMC_CALLCHAIN_TO_CPUFLAGS(ps.cpu, cc->pl_pcflags[0] & PMC_CC_F_USERSPACE);
	cc->pl_usermode = PMC_CALLCHAIN_CPUFLAGS_TO_USERMODE(cc->pl_cpuflags);
	pd_set_time(ev, (st & PSAMPLE_TIME) ? ps.time : p->last_time);
	p->st.samples++;
	return 1;
}

/* MMAP, MMAP2 (type), the record's body bytes before its trailer. */
static int tr_mmap(struct perfdata *p, const unsigned char *r, uint32_t type, uint16_t misc,
    size_t body, int sub, struct pmclog_ev *ev)
{
	struct pmclog_ev_map_in *mi = &ev->pl_u.pl_mi;
	size_t fo = type == PD_REC_MMAP ? 40 : 72;
	const struct pd_bid *b;
	if (sub || body < fo)
		return 0;
	ev->pl_type = PMCLOG_TYPE_MAP_IN;
	mi->pl_pid = (pid_t)ld32(p, r + 8);
	mi->pl_start = ld64(p, r + 16);
	mi->pl_len = ld64(p, r + 24);
	mi->pl_pgoff = ld64(p, r + 32);
	copy_str(mi->pl_pathname, sizeof(mi->pl_pathname), r + fo, body - fo);
	mi->pl_buildid_len = 0;
	memset(mi->pl_buildid, 0, sizeof(mi->pl_buildid));
	if (type == PD_REC_MMAP) {
		mi->pl_prot = (misc & PD_MISC_MMAP_DATA) ? 0x1 : 0x5; /* PROT_READ[|EXEC] */
		mi->pl_mflags = 0;
	} else {
		mi->pl_prot = ld32(p, r + 64);
		mi->pl_mflags = ld32(p, r + 68);
		if (misc & PD_MISC_MMAP_BUILD_ID) {
			uint8_t n = r[40];
			mi->pl_buildid_len = n > 20 ? 20 : n;
			memcpy(mi->pl_buildid, r + 44, mi->pl_buildid_len);
		}
	}
	if (!mi->pl_buildid_len) {
		b = pd_bid_find(p, mi->pl_pathname);
		if (!b && strncmp(mi->pl_pathname, "[kernel.kallsyms]", 17) == 0)
			b = pd_bid_find(p, "[kernel.kallsyms]");
		if (b && b->pub.size) {
			mi->pl_buildid_len = b->pub.size;
			memcpy(mi->pl_buildid, b->pub.id, b->pub.size);
		}
	}
	return 1;
}

/* COMM, and sub-event 1 of an exec's COMM: PROCEXEC. */
static int tr_comm(struct perfdata *p, const struct pd_attr *a, const unsigned char *r,
    uint16_t misc, size_t body, int sub, struct pmclog_ev *ev)
{
	if (body < 16)
		return 0;
	if (sub == 0) {
		struct pmclog_ev_comm *cm = &ev->pl_u.pl_cm;
		ev->pl_type = PMCLOG_TYPE_COMM;
		cm->pl_pid = (pid_t)ld32(p, r + 8);
		cm->pl_tid = (pid_t)ld32(p, r + 12);
		cm->pl_flags = (misc & PD_MISC_COMM_EXEC) ? PMCLOG_COMM_F_EXEC : 0;
		copy_str(cm->pl_comm, sizeof(cm->pl_comm), r + 16, body - 16);
		return 1;
	}
	if (sub == 1 && (misc & PD_MISC_COMM_EXEC)) {
		struct pmclog_ev_procexec *x = &ev->pl_u.pl_x;
		ev->pl_type = PMCLOG_TYPE_PROCEXEC;
		x->pl_pid = (pid_t)ld32(p, r + 8);
		x->pl_tid = (pid_t)ld32(p, r + 12);
		x->pl_pmcid = a ? a->pub.pmcid : PMC_ID_INVALID;
		x->pl_baseaddr = 0;
		x->pl_dynaddr = 0;
		copy_str(x->pl_pathname, sizeof(x->pl_pathname), r + 16, body - 16);
		return 1;
	}
	return 0;
}

/* FORK (a process or a thread), EXIT (THR_EXIT, then SYSEXIT for a process). */
static int tr_task(struct perfdata *p, const unsigned char *r, uint32_t type,
    const struct psample_trailer *t, size_t body, int sub, struct pmclog_ev *ev)
{
	uint32_t pid, ppid, tid, ptid;
	if (body < 24)
		return 0;
	pid = ld32(p, r + 8);
	ppid = ld32(p, r + 12);
	tid = ld32(p, r + 16);
	ptid = ld32(p, r + 20);
	if (!t->has_time && body >= 32)
		pd_set_time(ev, ld64(p, r + 24));
	if (type == PD_REC_FORK) {
		if (sub)
			return 0;
		if (pid != ppid) {
			ev->pl_type = PMCLOG_TYPE_PROCFORK;
			ev->pl_u.pl_f.pl_oldpid = (pid_t)ppid;
			ev->pl_u.pl_f.pl_newpid = (pid_t)pid;
			ev->pl_u.pl_f.pl_oldtid = (pid_t)ptid;
			ev->pl_u.pl_f.pl_newtid = (pid_t)tid;
		} else {
			ev->pl_type = PMCLOG_TYPE_THR_CREATE;
			ev->pl_u.pl_tc.pl_tid = (pid_t)tid;
			ev->pl_u.pl_tc.pl_pid = (pid_t)pid;
			ev->pl_u.pl_tc.pl_flags = 0;
			ev->pl_u.pl_tc.pl_tdname[0] = '\0';
		}
		return 1;
	}
	if (sub == 0) {
		ev->pl_type = PMCLOG_TYPE_THR_EXIT;
		ev->pl_u.pl_te.pl_tid = (pid_t)tid;
		ev->pl_u.pl_te.pl_pid = (pid_t)pid;
		return 1;
	}
	if (sub == 1 && pid == tid) {
		ev->pl_type = PMCLOG_TYPE_SYSEXIT;
		ev->pl_u.pl_se.pl_pid = (pid_t)pid;
		return 1;
	}
	return 0;
}

/* LOST, LOST_SAMPLES: a DROPNOTIFY. */
static int tr_lost(struct perfdata *p, const struct pd_attr *a, const unsigned char *r,
    uint32_t type, const struct psample_trailer *t, size_t body, int sub, struct pmclog_ev *ev)
{
	struct pmclog_ev_dropnotify *dn = &ev->pl_u.pl_dn;
	if (sub)
		return 0;
	if (type == PD_REC_LOST) {
		if (body < 24)
			return 0;
		dn->pl_count = ld64(p, r + 16);
		dn->pl_pmcid = id_pmc(p, ld64(p, r + 8));
		dn->pl_reason = PMCLOG_DROP_RING;
	} else {
		if (body < 16)
			return 0;
		dn->pl_count = ld64(p, r + 8);
		dn->pl_pmcid = a ? a->pub.pmcid : PMC_ID_INVALID;
		dn->pl_reason = PMCLOG_DROP_SAMPLES;
	}
	dn->pl_cpu = t->has_cpu ? (int32_t)t->cpu : -1;
	ev->pl_type = PMCLOG_TYPE_DROPNOTIFY;
	p->st.lost += dn->pl_count;
	return 1;
}

/* One kernel record, sub-event `sub`: 1 if ev was filled, 0 if no (more). */
int pd_translate(struct perfdata *p, const struct pd_attr *a, const unsigned char *r,
    size_t len, int sub, struct pmclog_ev *ev)
{
	uint32_t type = ld32(p, r);
	uint16_t misc = ld16(p, r + 4);
	struct psample_trailer t;
	size_t body;                  /* bytes before the trailer */

	if (type == PD_REC_SAMPLE)
		return sub == 0 ? tr_sample(p, a, r, len, ev) : 0;
	if (pd_parse_trailer(p, a, r, len, &t) < 0)
		t.size = 0;
	body = len - t.size;
	pd_set_time(ev, t.has_time ? t.time : p->last_time);

	switch (type) {
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		return tr_mmap(p, r, type, misc, body, sub, ev);
	case PD_REC_COMM:
		return tr_comm(p, a, r, misc, body, sub, ev);
	case PD_REC_FORK:
	case PD_REC_EXIT:
		return tr_task(p, r, type, &t, body, sub, ev);
	case PD_REC_LOST:
	case PD_REC_LOST_SAMPLES:
		return tr_lost(p, a, r, type, &t, body, sub, ev);
	case PD_REC_THROTTLE:
	case PD_REC_UNTHROTTLE:
		if (sub || body < 32)
			return 0;
		ev->pl_type = PMCLOG_TYPE_THROTTLE;
		ev->pl_u.pl_th.pl_pmcid = id_pmc(p, ld64(p, r + 16));
		ev->pl_u.pl_th.pl_throttled = type == PD_REC_THROTTLE;
		ev->pl_u.pl_th.pl_cpu = t.has_cpu ? (int32_t)t.cpu : -1;
		if (!t.has_time)
			pd_set_time(ev, ld64(p, r + 8));
		return 1;
	case PD_REC_KSYMBOL: {
		struct pmclog_ev_ksymbol *k = &ev->pl_u.pl_ksym;
		if (sub || body < 24)
			return 0;
		ev->pl_type = PMCLOG_TYPE_KSYMBOL;
		k->pl_addr = ld64(p, r + 8);
		k->pl_len = ld32(p, r + 16);
		k->pl_ksymtype = ld16(p, r + 20);
		k->pl_flags = ld16(p, r + 22);
		copy_str(k->pl_name, sizeof(k->pl_name), r + 24, body - 24);
		return 1;
	}
	case PD_REC_READ: {
		struct psample ps;
		struct psample_readval rv;
		if (body < 16 || !a || psample__parse_read(&ps, a->pub.read_format, r + 16,
		    body - 16, p->be) < 0 || (uint64_t)sub >= ps.read.nr)
			return 0;
		psample__read_value(&ps, a->pub.read_format, (uint64_t)sub, &rv);
		ev->pl_type = PMCLOG_TYPE_PROCEXIT;
		ev->pl_u.pl_e.pl_pid = ld32(p, r + 8);
		ev->pl_u.pl_e.pl_tid = (pid_t)ld32(p, r + 12);
		ev->pl_u.pl_e.pl_pmcid = (a->pub.read_format & PSAMPLE_FMT_ID) ? id_pmc(p, rv.id) :
		    a->pub.pmcid;
		ev->pl_u.pl_e.pl_value = rv.value;
		return 1;
	}
	case PD_REC_SWITCH:
	case PD_REC_SWITCH_CPU_WIDE: {
		/* perf record --switch-events: the thread is sample_id's */
		struct pmclog_ev_switch *w = &ev->pl_u.pl_sw;
		if (sub || !t.has_tid)
			return 0;
		ev->pl_type = PMCLOG_TYPE_SWITCH;
		w->pl_pmcid = a ? a->pub.pmcid : PMC_ID_INVALID;
		w->pl_pid = (pid_t)t.pid;
		w->pl_tid = (pid_t)t.tid;
		w->pl_cpu = t.has_cpu ? (int32_t)t.cpu : -1;
		w->pl_flags = ((misc & PD_MISC_SWITCH_OUT) ? PMCLOG_SWITCH_F_OUT : 0) |
		    ((misc & PD_MISC_SWITCH_OUT_PREEMPT) ? PMCLOG_SWITCH_F_PREEMPT : 0);
		return 1;
	}
	default:
		return 0;             /* AUX, NAMESPACES, CGROUP, BPF ...: nothing */
	}
}
