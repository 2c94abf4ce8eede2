/*
 * test_log_util.h — shared by the log tests: the every-type log (one
 * record of every type, through the real writer: tests/lib/logbuild.h's
 * lb_logw_*), and the checks of its decoded records against what was
 * written.
 */
#ifndef TEST_LOG_UTIL_H
#define TEST_LOG_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <zstd.h>

#include "lib/logbuild.h"
#include "pmclog.h"
#include "log/format.h"
#include "log/records.h"
#include "log/writer.h"

static struct pmc_logrec tl_rec;
static const uint8_t tl_bid[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
static const uint64_t tl_pcs[4] = { 0xffffffff81000010ull, 0xffffffff81000020ull, 0x401000, 0x402000 };
static const uint8_t tl_pcf[4] = { 0, 0, PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE };

/* The types of the every-type log, in order (HEADER ... CLOSELOG). */
static const int tl_types[] = {
	PMCLOG_TYPE_HEADER, PMCLOG_TYPE_INITIALIZE,
	PMCLOG_TYPE_PMCALLOCATE, PMCLOG_TYPE_PMCATTACH, PMCLOG_TYPE_PMCDETACH,
	PMCLOG_TYPE_PROCCSW, PMCLOG_TYPE_PROCEXEC, PMCLOG_TYPE_PROCEXIT,
	PMCLOG_TYPE_PROCFORK, PMCLOG_TYPE_SYSEXIT, PMCLOG_TYPE_USERDATA,
	PMCLOG_TYPE_MAP_IN, PMCLOG_TYPE_MAP_OUT,
	PMCLOG_TYPE_CALLCHAIN,  /* the writer interns the chain: this sample defines it */
	PMCLOG_TYPE_PMCALLOCATEDYN, PMCLOG_TYPE_THR_CREATE, PMCLOG_TYPE_THR_EXIT,
	PMCLOG_TYPE_PROC_CREATE, PMCLOG_TYPE_COMM, PMCLOG_TYPE_THROTTLE,
	PMCLOG_TYPE_KSYMSRC, PMCLOG_TYPE_KSYMBOL, PMCLOG_TYPE_DROPNOTIFY,
	PMCLOG_TYPE_CLOSELOG,
};
#define TL_NTYPES ((int)(sizeof(tl_types) / sizeof(tl_types[0])))

static inline void tl_put(struct pmc_logw *lw)
{
	assert_int_equal(pmc__logw_put(lw, &tl_rec), 0);
}

/* Write the every-type records (between INITIALIZE and CLOSELOG).  With
 * flush_at >= 0, pmc__logw_flush after that many records. */
static inline void tl_write_all(struct pmc_logw *lw, int flush_at)
{
	struct pmc_logrec_map m = { 1234, 0x400000, 0x2000, 0x1000, 5, 2, 20, tl_bid, "/usr/bin/prog" };
	struct pmc_logrec_sample s = { 0x11, 1234, 1235, 3, 100000, 4, tl_pcs, tl_pcf };
	unsigned char dyn[16 + PMC_NAME_MAX];
	int n = 0;
#define STEP(call) do { assert_int_equal((call), 0); tl_put(lw); \
	if (++n == flush_at) assert_int_equal(pmc__logw_flush(lw), 0); } while (0)

	STEP(pmc__logrec_pmcallocate(&tl_rec, 0x11, 0x20001, "cpu-clock:u", PMC_MODE_TS,
	    PMC_F_CALLCHAIN, 100000, 0, -1));
	STEP(pmc__logrec_pmcattach(&tl_rec, 0x11, 1234, "/usr/bin/prog"));
	STEP(pmc__logrec_pmcdetach(&tl_rec, 0x11, 1234));
	STEP(pmc__logrec_proccsw(&tl_rec, 0x11, 1234, 1235, 2, 777));
	STEP(pmc__logrec_procexec(&tl_rec, 0x11, 1234, 1234, 0x1000, 0x2000, "prog"));
	STEP(pmc__logrec_procexit(&tl_rec, 0x11, 1234, 1236, 999999));
	STEP(pmc__logrec_procfork(&tl_rec, 1234, 1300, 1235, 1300));
	STEP(pmc__logrec_sysexit(&tl_rec, 1300));
	STEP(pmc__logrec_userdata(&tl_rec, 0xdeadbeef));
	STEP(pmc__logrec_map_in(&tl_rec, &m));
	STEP(pmc__logrec_map_out(&tl_rec, 1234, 0x400000, 0x402000));
	STEP(pmc__logrec_callchain(&tl_rec, &s));
	/* PMCALLOCATEDYN is never written by us; hand-encode it */
	memset(dyn, 0, sizeof(dyn));
	pmclog__st32(dyn, 0x12);
	pmclog__st32(dyn + 4, 0x20002);
	pmclog__st32(dyn + 8, 0);
	strcpy((char *)dyn + 16, "dynev");
	assert_int_equal(pmc__logw_write(lw, PMCLOG_TYPE_PMCALLOCATEDYN, dyn, sizeof(dyn)), 0);
	if (++n == flush_at)
		assert_int_equal(pmc__logw_flush(lw), 0);
	STEP(pmc__logrec_thr_create(&tl_rec, 1237, 1234, 0, "worker"));
	STEP(pmc__logrec_thr_exit(&tl_rec, 1237, 1234));
	STEP(pmc__logrec_proc_create(&tl_rec, 1234, 0, "prog"));
	STEP(pmc__logrec_comm(&tl_rec, 1234, 1234, PMCLOG_COMM_F_EXEC, "a-very-long-command-name"));
	STEP(pmc__logrec_throttle(&tl_rec, 0x11, 1, 3));
	STEP(pmc__logrec_ksymsrc(&tl_rec, "/proc/kallsyms", "6.1.0-test", tl_bid, 20));
	STEP(pmc__logrec_ksymbol(&tl_rec, 0xffffffffc0001000ull, 0x80, 1, 0, "bpf_prog_x"));
	STEP(pmc__logrec_dropnotify(&tl_rec, 17, 0x11, 2, PMCLOG_DROP_RING));
#undef STEP
}

/* Make the every-type log; returns the bytes. */
static inline unsigned char *tl_make_log(unsigned flags, size_t *len, int flush_at)
{
	struct lb_logw w;

	tl_write_all(lb_logw_open(&w, flags, "pmc record -o x -- prog"), flush_at);
	return lb_logw_close(&w, len);
}

/* The chain id a record defines: a CHAIN's (format 2), or the one in a
 * CALLCHAIN's header spare word (format 3: a chain's first sample); 0 if
 * it defines none. */
static inline uint32_t tl_chaindef(const struct pmclog_ev *ev)
{
	if (ev->pl_type == PMCLOG_TYPE_CHAIN)
		return ev->pl_u.pl_cc.pl_chain;
	if (ev->pl_type == PMCLOG_TYPE_CALLCHAIN)
		return pmclog__ld32((const unsigned char *)ev->pl_data + 4);
	return 0;
}

/* Check the i-th record of the every-type log. */
static inline void tl_check(int i, const struct pmclog_ev *ev)
{
	assert_int_equal(ev->pl_state, PMCLOG_OK);
	assert_int_equal(ev->pl_type, tl_types[i]);
	assert_int_equal(ev->pl_count, (size_t)i + 1);
	assert_int_equal(ev->pl_len % 8, 0);
	switch (ev->pl_type) {
	case PMCLOG_TYPE_HEADER:
		assert_int_equal(ev->pl_offset, 8);
		/* format 4 (stack frames) in a zstd log, 3 in an uncompressed one */
		assert_int_equal(ev->pl_u.pl_h.pl_format_major,
		    (ev->pl_u.pl_h.pl_flags & PMCLOG_HDR_F_ZSTD) ? PMCLOG_FORMAT_MAJOR : 3);
		assert_int_equal(ev->pl_u.pl_h.pl_version, PMC_VERSION);
		assert_int_equal(ev->pl_u.pl_h.pl_clockid, CLOCK_MONOTONIC);
		assert_string_equal(ev->pl_u.pl_h.pl_cmdline, "pmc record -o x -- prog");
		assert_string_equal(ev->pl_u.pl_h.pl_libversion, PMC_VERSION_STRING);
		assert_true(ev->pl_u.pl_h.pl_start_realtime > 1600000000ull * 1000000000ull);
		break;
	case PMCLOG_TYPE_INITIALIZE:
		assert_int_equal(ev->pl_u.pl_i.pl_version, PMC_VERSION);
		assert_true(ev->pl_u.pl_i.pl_ts.tv_sec > 1600000000);
		break;
	case PMCLOG_TYPE_PMCALLOCATE:
		assert_int_equal(ev->pl_u.pl_a.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_a.pl_event, 0x20001);
		assert_string_equal(ev->pl_u.pl_a.pl_evname, "cpu-clock:u");
		assert_int_equal(ev->pl_u.pl_a.pl_mode, PMC_MODE_TS);
		assert_int_equal(ev->pl_u.pl_a.pl_flags, PMC_F_CALLCHAIN);
		assert_int_equal(ev->pl_u.pl_a.pl_rate, 100000);
		assert_int_equal(ev->pl_u.pl_a.pl_freq, 0);
		assert_int_equal(ev->pl_u.pl_a.pl_cpu, -1);
		break;
	case PMCLOG_TYPE_PMCATTACH:
		assert_int_equal(ev->pl_u.pl_t.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_t.pl_pid, 1234);
		assert_string_equal(ev->pl_u.pl_t.pl_pathname, "/usr/bin/prog");
		break;
	case PMCLOG_TYPE_PMCDETACH:
		assert_int_equal(ev->pl_u.pl_d.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_d.pl_pid, 1234);
		break;
	case PMCLOG_TYPE_PROCCSW:
		assert_int_equal(ev->pl_u.pl_c.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_c.pl_pid, 1234);
		assert_int_equal(ev->pl_u.pl_c.pl_tid, 1235);
		assert_int_equal(ev->pl_u.pl_c.pl_cpu, 2);
		assert_int_equal(ev->pl_u.pl_c.pl_value, 777);
		break;
	case PMCLOG_TYPE_PROCEXEC:
		assert_int_equal(ev->pl_u.pl_x.pl_pid, 1234);
		assert_int_equal(ev->pl_u.pl_x.pl_tid, 1234);
		assert_int_equal(ev->pl_u.pl_x.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_x.pl_baseaddr, 0x1000);
		assert_int_equal(ev->pl_u.pl_x.pl_dynaddr, 0x2000);
		assert_string_equal(ev->pl_u.pl_x.pl_pathname, "prog");
		break;
	case PMCLOG_TYPE_PROCEXIT:
		assert_int_equal(ev->pl_u.pl_e.pl_pid, 1234);
		assert_int_equal(ev->pl_u.pl_e.pl_tid, 1236);
		assert_int_equal(ev->pl_u.pl_e.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_e.pl_value, 999999);
		break;
	case PMCLOG_TYPE_PROCFORK:
		assert_int_equal(ev->pl_u.pl_f.pl_oldpid, 1234);
		assert_int_equal(ev->pl_u.pl_f.pl_newpid, 1300);
		assert_int_equal(ev->pl_u.pl_f.pl_oldtid, 1235);
		assert_int_equal(ev->pl_u.pl_f.pl_newtid, 1300);
		break;
	case PMCLOG_TYPE_SYSEXIT:
		assert_int_equal(ev->pl_u.pl_se.pl_pid, 1300);
		break;
	case PMCLOG_TYPE_USERDATA:
		assert_int_equal(ev->pl_u.pl_u.pl_userdata, 0xdeadbeef);
		break;
	case PMCLOG_TYPE_MAP_IN:
		assert_int_equal(ev->pl_u.pl_mi.pl_pid, 1234);
		assert_int_equal(ev->pl_u.pl_mi.pl_start, 0x400000);
		assert_int_equal(ev->pl_u.pl_mi.pl_len, 0x2000);
		assert_int_equal(ev->pl_u.pl_mi.pl_pgoff, 0x1000);
		assert_int_equal(ev->pl_u.pl_mi.pl_prot, 5);
		assert_int_equal(ev->pl_u.pl_mi.pl_mflags, 2);
		assert_int_equal(ev->pl_u.pl_mi.pl_buildid_len, 20);
		assert_memory_equal(ev->pl_u.pl_mi.pl_buildid, tl_bid, 20);
		assert_string_equal(ev->pl_u.pl_mi.pl_pathname, "/usr/bin/prog");
		break;
	case PMCLOG_TYPE_MAP_OUT:
		assert_int_equal(ev->pl_u.pl_mo.pl_pid, 1234);
		assert_int_equal(ev->pl_u.pl_mo.pl_start, 0x400000);
		assert_int_equal(ev->pl_u.pl_mo.pl_end, 0x402000);
		break;
	case PMCLOG_TYPE_CALLCHAIN:
		assert_true(ev->pl_u.pl_cc.pl_chain >= 1);   /* interned */
		assert_int_equal(tl_chaindef(ev), ev->pl_u.pl_cc.pl_chain);
		assert_int_equal(ev->pl_u.pl_cc.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_cc.pl_pid, 1234);
		assert_int_equal(ev->pl_u.pl_cc.pl_npc, 4);
		for (int k = 0; k < 4; k++) {
			assert_int_equal(ev->pl_u.pl_cc.pl_pc[k], tl_pcs[k]);
			assert_int_equal(ev->pl_u.pl_cc.pl_pcflags[k], tl_pcf[k]);
		}
		assert_int_equal(ev->pl_u.pl_cc.pl_tid, 1235);
		assert_int_equal(ev->pl_u.pl_cc.pl_cpu, 3);
		assert_int_equal(PMC_CALLCHAIN_CPUFLAGS_TO_CPU(ev->pl_u.pl_cc.pl_cpuflags), 3);
		assert_int_equal(ev->pl_u.pl_cc.pl_usermode, 0);
		assert_int_equal(ev->pl_u.pl_cc.pl_period, 100000);
		assert_int_equal(ev->pl_u.pl_cc.pl_time, ev->pl_time);
		break;
	case PMCLOG_TYPE_PMCALLOCATEDYN:
		assert_int_equal(ev->pl_u.pl_ad.pl_pmcid, 0x12);
		assert_int_equal(ev->pl_u.pl_ad.pl_event, 0x20002);
		assert_string_equal(ev->pl_u.pl_ad.pl_evname, "dynev");
		break;
	case PMCLOG_TYPE_THR_CREATE:
		assert_int_equal(ev->pl_u.pl_tc.pl_tid, 1237);
		assert_int_equal(ev->pl_u.pl_tc.pl_pid, 1234);
		assert_string_equal(ev->pl_u.pl_tc.pl_tdname, "worker");
		break;
	case PMCLOG_TYPE_THR_EXIT:
		assert_int_equal(ev->pl_u.pl_te.pl_tid, 1237);
		assert_int_equal(ev->pl_u.pl_te.pl_pid, 1234);
		break;
	case PMCLOG_TYPE_PROC_CREATE:
		assert_int_equal(ev->pl_u.pl_pc.pl_pid, 1234);
		assert_string_equal(ev->pl_u.pl_pc.pl_pcomm, "prog");
		break;
	case PMCLOG_TYPE_COMM:
		assert_int_equal(ev->pl_u.pl_cm.pl_pid, 1234);
		assert_int_equal(ev->pl_u.pl_cm.pl_tid, 1234);
		assert_int_equal(ev->pl_u.pl_cm.pl_flags, PMCLOG_COMM_F_EXEC);
		/* cut at MAXCOMLEN */
		assert_string_equal(ev->pl_u.pl_cm.pl_comm, "a-very-long-command");
		break;
	case PMCLOG_TYPE_THROTTLE:
		assert_int_equal(ev->pl_u.pl_th.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_th.pl_throttled, 1);
		assert_int_equal(ev->pl_u.pl_th.pl_cpu, 3);
		break;
	case PMCLOG_TYPE_KSYMSRC:
		assert_string_equal(ev->pl_u.pl_ks.pl_pathname, "/proc/kallsyms");
		assert_string_equal(ev->pl_u.pl_ks.pl_release, "6.1.0-test");
		assert_int_equal(ev->pl_u.pl_ks.pl_buildid_len, 20);
		assert_memory_equal(ev->pl_u.pl_ks.pl_buildid, tl_bid, 20);
		break;
	case PMCLOG_TYPE_KSYMBOL:
		assert_int_equal(ev->pl_u.pl_ksym.pl_addr, 0xffffffffc0001000ull);
		assert_int_equal(ev->pl_u.pl_ksym.pl_len, 0x80);
		assert_int_equal(ev->pl_u.pl_ksym.pl_ksymtype, 1);
		assert_string_equal(ev->pl_u.pl_ksym.pl_name, "bpf_prog_x");
		break;
	case PMCLOG_TYPE_DROPNOTIFY:
		assert_int_equal(ev->pl_u.pl_dn.pl_count, 17);
		assert_int_equal(ev->pl_u.pl_dn.pl_pmcid, 0x11);
		assert_int_equal(ev->pl_u.pl_dn.pl_cpu, 2);
		assert_int_equal(ev->pl_u.pl_dn.pl_reason, PMCLOG_DROP_RING);
		break;
	case PMCLOG_TYPE_CLOSELOG:
		break;
	default:
		fail_msg("unexpected type %d", ev->pl_type);
	}
}

/* Feed buf[0..len) to a memory parser (in chunks of `chunk`, 0 = all at
 * once), then EOF; check every record; returns the number read, and the
 * final state / truncated flag. */
static inline int tl_read_mem(const unsigned char *buf, size_t len, size_t chunk,
    enum pmclog_state *final, int *truncated)
{
	void *p = pmclog_open(PMCLOG_FD_NONE);
	if (p)
		pmclog_set_extensions(p, 1);   /* pmc's own records too */
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	size_t fed = 0;
	int n = 0;

	assert_non_null(p);
	assert_non_null(ev);
	if (chunk == 0)
		chunk = len ? len : 1;
	for (;;) {
		if (pmclog_read(p, ev) == 0) {
			assert_true(n < TL_NTYPES);
			tl_check(n, ev);
			n++;
			continue;
		}
		if (ev->pl_state == PMCLOG_REQUIRE_DATA) {
			if (fed < len) {
				size_t k = len - fed < chunk ? len - fed : chunk;
				assert_int_equal(pmclog_feed(p, (char *)buf + fed, (int)k), 0);
				fed += k;
			} else {
				assert_int_equal(pmclog_feed(p, NULL, 0), 0);
			}
			continue;
		}
		break;
	}
	*final = ev->pl_state;
	*truncated = pmclog_truncated(p, NULL, NULL);
	free(ev);
	pmclog_close(p);
	return n;
}

#endif
