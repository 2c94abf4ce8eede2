/*
 * test_perfdata_util.h — the every-type perf.data of the perf.data reader
 * tests, in either byte order, built with tests/lib/logbuild.h: a file (or
 * pipe-mode stream) holding one record of every type the reader
 * translates, plus the ones it must skip, with every PERF_SAMPLE_* field
 * in a sample.  (The makers are marked unused: a test that makes its own
 * files uses only logbuild.h's lb_*.)
 */
#ifndef TEST_PERFDATA_UTIL_H
#define TEST_PERFDATA_UTIL_H

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

#include "lib/logbuild.h"
#include "pmclog.h"
#include "perfdata/perfdata.h"
#include "perfdata/format.h"

/* ---- the events of the every-type file -------------------------------- */

#define T_ID0 0x1111                 /* attr 0's kernel id (and a second one) */
#define T_ID0B 0x1112
#define T_ID1 0x2222                 /* attr 1's */
#define T_ST0 (PSAMPLE_IDENTIFIER | PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_ADDR | PSAMPLE_ID | \
	PSAMPLE_STREAM_ID | PSAMPLE_CPU | PSAMPLE_PERIOD | PSAMPLE_READ | PSAMPLE_CALLCHAIN | PSAMPLE_RAW | \
	PSAMPLE_BRANCH_STACK | PSAMPLE_REGS_USER | PSAMPLE_STACK_USER | PSAMPLE_WEIGHT | PSAMPLE_DATA_SRC | \
	PSAMPLE_TRANSACTION | PSAMPLE_REGS_INTR | PSAMPLE_PHYS_ADDR | PSAMPLE_CGROUP | PSAMPLE_DATA_PAGE_SIZE | \
	PSAMPLE_CODE_PAGE_SIZE | PSAMPLE_AUX)
#define T_RF0 (PSAMPLE_FMT_GROUP | PSAMPLE_FMT_ID | PSAMPLE_FMT_TOTAL_TIME_ENABLED | PSAMPLE_FMT_TOTAL_TIME_RUNNING | PSAMPLE_FMT_LOST)
#define T_ST1 (PSAMPLE_IDENTIFIER | PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_CPU | PSAMPLE_PERIOD | \
	PSAMPLE_READ | PSAMPLE_WEIGHT_STRUCT)
#define T_RF1 (PSAMPLE_FMT_ID | PSAMPLE_FMT_TOTAL_TIME_ENABLED | PSAMPLE_FMT_TOTAL_TIME_RUNNING | PSAMPLE_FMT_LOST)
#define T_RU 0x7ULL                  /* 3 user regs */
#define T_RI 0x30ULL                 /* 2 intr regs */
#define T_KIP 0xffffffff81001000ULL
#define T_KIP2 0xffffffff81002000ULL
#define T_UIP1 0x401000ULL
#define T_UIP2 0x402000ULL
static const uint8_t t_bid[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
	11, 12, 13, 14, 15, 16 };
static const uint8_t t_bid2[20] = { 0xca, 0xfe, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
	14, 15, 16, 17 };

#define T_FLAGS (PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_FREQ | PD_ATTR_MMAP | PD_ATTR_COMM | \
	PD_ATTR_INHERIT | PD_ATTR_EXCLUDE_KERNEL)

static void t_attr0(struct lb *p)
{
	lb_attr(p, PD_TYPE_SOFTWARE, 0, 4000, T_ST0, T_RF0, T_FLAGS, PSAMPLE_BRANCH_HW_INDEX, T_RU,
	    T_RI, 128);
}
static void t_attr1(struct lb *p)
{
	lb_attr(p, PD_TYPE_SOFTWARE, 1, 100003, T_ST1, T_RF1, PD_ATTR_SAMPLE_ID_ALL, 0, 0, 0, 128);
}

/* sample_id_all trailers */
static void t_trailer0(struct lb *p, uint32_t pid, uint32_t tid, uint64_t t, uint32_t cpu)
{
	lb32(p, pid); lb32(p, tid);  /* TID */
	lb64(p, t);                  /* TIME */
	lb64(p, T_ID0);              /* ID */
	lb64(p, T_ID0);              /* STREAM_ID */
	lb32(p, cpu); lb32(p, 0);    /* CPU */
	lb64(p, T_ID0);              /* IDENTIFIER */
}
static void t_trailer1(struct lb *p, uint32_t pid, uint32_t tid, uint64_t t, uint32_t cpu)
{
	lb32(p, pid); lb32(p, tid);
	lb64(p, t);
	lb32(p, cpu); lb32(p, 0);
	lb64(p, T_ID1);
}

/* A sample of attr 0 with every field; full=0: empty optional parts. */
static void t_sample0(struct lb *p, uint64_t t, int full)
{
	size_t at = lb_rec_begin(p, PD_REC_SAMPLE, PD_MISC_KERNEL);
	lb64(p, T_ID0);              /* IDENTIFIER */
	lb64(p, T_KIP);              /* IP */
	lb32(p, 100); lb32(p, 102);  /* TID */
	lb64(p, t);                  /* TIME */
	lb64(p, 0xadd7);             /* ADDR */
	lb64(p, T_ID0);              /* ID */
	lb64(p, T_ID0);              /* STREAM_ID */
	lb32(p, 3); lb32(p, 0);      /* CPU */
	lb64(p, 250000);             /* PERIOD */
	/* READ: group of 2, enabled, running, {value, id, lost} */
	lb64(p, 2); lb64(p, 1000); lb64(p, 900);
	lb64(p, 11); lb64(p, T_ID0); lb64(p, 0);
	lb64(p, 22); lb64(p, T_ID0B); lb64(p, 0);
	if (full) {              /* CALLCHAIN */
		lb64(p, 6);
		lb64(p, PSAMPLE_CONTEXT_KERNEL); lb64(p, T_KIP); lb64(p, T_KIP2);
		lb64(p, PSAMPLE_CONTEXT_USER); lb64(p, T_UIP1); lb64(p, T_UIP2);
	} else {
		lb64(p, 0);
	}
	lb32(p, 12); lb_bytes(p, "raw-data-12b", 12);   /* RAW: 4 + 12 = 16 */
	if (full) {              /* BRANCH_STACK with hw_idx */
		lb64(p, 2); lb64(p, 7);
		for (int i = 0; i < 6; i++)
			lb64(p, 0x1000 + (uint64_t)i);
	} else {
		lb64(p, 0); lb64(p, 0);
	}
	if (full) {              /* REGS_USER */
		lb64(p, 2); lb64(p, 1); lb64(p, 2); lb64(p, 3);
	} else {
		lb64(p, 0);
	}
	if (full) {              /* STACK_USER */
		lb64(p, 16); lb_zero(p, 16); lb64(p, 8);
	} else {
		lb64(p, 0);
	}
	lb64(p, 42);                 /* WEIGHT */
	lb64(p, 0x5);                /* DATA_SRC */
	lb64(p, 0x1);                /* TRANSACTION */
	if (full) {              /* REGS_INTR */
		lb64(p, 2); lb64(p, 4); lb64(p, 5);
	} else {
		lb64(p, 0);
	}
	lb64(p, 0x7000);             /* PHYS_ADDR */
	lb64(p, 9);                  /* CGROUP */
	lb64(p, 4096);               /* DATA_PAGE_SIZE */
	lb64(p, 4096);               /* CODE_PAGE_SIZE */
	if (full) {              /* AUX */
		lb64(p, 8); lb_zero(p, 8);
	} else {
		lb64(p, 0);
	}
	lb_rec_end(p, at);
}

/* A sample of attr id at time t by thread tid of process 200. */
static void t_sample_tid(struct lb *p, uint64_t t, uint64_t id, uint32_t tid)
{
	size_t at = lb_rec_begin(p, PD_REC_SAMPLE, PD_MISC_USER);
	lb64(p, id);
	lb64(p, T_UIP1);
	lb32(p, 200); lb32(p, tid);
	lb64(p, t);
	lb32(p, 1); lb32(p, 0);
	lb64(p, 100003);
	lb64(p, 5); lb64(p, 10); lb64(p, 9); lb64(p, id); lb64(p, 0);   /* READ, not a group */
	lb64(p, 77);                 /* WEIGHT_STRUCT */
	lb_rec_end(p, at);
}

static void t_sample1(struct lb *p, uint64_t t, uint64_t id)
{
	t_sample_tid(p, t, id, 201);
}

/* The data records of the every-type file; returns how many SAMPLEs. */
static void t_records(struct lb *p)
{
	size_t at;

	at = lb_rec_begin(p, PD_REC_COMM, PD_MISC_USER);
	lb32(p, 100); lb32(p, 100); lb_str8(p, "prog");
	t_trailer0(p, 100, 100, 1000, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_MMAP, PD_MISC_USER);
	lb32(p, 100); lb32(p, 100); lb64(p, 0x400000); lb64(p, 0x1000); lb64(p, 0);
	lb_str8(p, "/bin/prog");
	t_trailer0(p, 100, 100, 1001, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_MMAP2, PD_MISC_USER | PD_MISC_MMAP_BUILD_ID);
	lb32(p, 100); lb32(p, 100); lb64(p, 0x7f0000000000); lb64(p, 0x2000); lb64(p, 0x1000);
	lb_put(p, 20, 1); lb_zero(p, 3); lb_bytes(p, t_bid, 20);
	lb32(p, 5); lb32(p, 2);
	lb_str8(p, "/lib/libc.so.6");
	t_trailer0(p, 100, 100, 1002, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_MMAP2, PD_MISC_USER);
	lb32(p, 100); lb32(p, 100); lb64(p, 0x7f1000000000); lb64(p, 0x3000); lb64(p, 0);
	lb32(p, 8); lb32(p, 1); lb64(p, 1234); lb64(p, 1);
	lb32(p, 5); lb32(p, 2);
	lb_str8(p, "/lib/libm.so.6");     /* its build id is in the BUILD_ID feature */
	t_trailer0(p, 100, 100, 1003, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_FORK, 0);
	lb32(p, 101); lb32(p, 100); lb32(p, 101); lb32(p, 100); lb64(p, 1004);
	t_trailer0(p, 101, 101, 1004, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_FORK, 0);
	lb32(p, 100); lb32(p, 100); lb32(p, 102); lb32(p, 100); lb64(p, 1005);
	t_trailer0(p, 100, 102, 1005, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_COMM, PD_MISC_USER | PD_MISC_COMM_EXEC);
	lb32(p, 101); lb32(p, 101); lb_str8(p, "newprog");
	t_trailer0(p, 101, 101, 1006, 0);
	lb_rec_end(p, at);

	t_sample0(p, 1007, 1);
	t_sample1(p, 1008, T_ID1);

	at = lb_rec_begin(p, PD_REC_LOST, 0);
	lb64(p, T_ID0); lb64(p, 5);
	t_trailer0(p, (uint32_t)-1, (uint32_t)-1, 1009, 2);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_LOST_SAMPLES, 0);
	lb64(p, 3);
	t_trailer1(p, 200, 201, 1010, 1);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_THROTTLE, 0);
	lb64(p, 1011); lb64(p, T_ID1); lb64(p, T_ID1);
	t_trailer1(p, 0, 0, 1011, 1);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_UNTHROTTLE, 0);
	lb64(p, 1012); lb64(p, T_ID1); lb64(p, T_ID1);
	t_trailer1(p, 0, 0, 1012, 1);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_SWITCH, PD_MISC_SWITCH_OUT);   /* SWITCH (off-CPU) */
	t_trailer0(p, 100, 100, 1013, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_KSYMBOL, PD_MISC_KERNEL);
	lb64(p, 0xffffffffa0000000ULL); lb32(p, 0x100); lb16(p, 1); lb16(p, 0);
	lb_str8(p, "bpf_prog_test");
	t_trailer0(p, (uint32_t)-1, (uint32_t)-1, 1014, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_READ, 0);
	lb32(p, 100); lb32(p, 102);
	lb64(p, 2); lb64(p, 1000); lb64(p, 900);
	lb64(p, 111); lb64(p, T_ID0); lb64(p, 0);
	lb64(p, 222); lb64(p, T_ID1); lb64(p, 0);
	t_trailer0(p, 100, 102, 1015, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, 30, 0);                 /* a future kernel record */
	lb64(p, 1); lb64(p, 2);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, 200, 0);                /* a future user record */
	lb64(p, 1);
	lb_rec_end(p, at);

	t_sample1(p, 1016, 0x7777);                   /* an id nobody has: dropped */
	t_sample0(p, 1017, 0);                        /* empty optional parts */

	at = lb_rec_begin(p, PD_REC_EXIT, 0);
	lb32(p, 101); lb32(p, 100); lb32(p, 101); lb32(p, 100); lb64(p, 1018);
	t_trailer0(p, 101, 101, 1018, 0);
	lb_rec_end(p, at);

	at = lb_rec_begin(p, PD_REC_FINISHED_ROUND, 0);
	lb_rec_end(p, at);
}

/* What the every-type file reads as, in order. */
static const int t_types[] = {
	PMCLOG_TYPE_HEADER, PMCLOG_TYPE_PMCALLOCATE, PMCLOG_TYPE_PMCALLOCATE,
	PMCLOG_TYPE_COMM, PMCLOG_TYPE_MAP_IN, PMCLOG_TYPE_MAP_IN, PMCLOG_TYPE_MAP_IN,
	PMCLOG_TYPE_PROCFORK, PMCLOG_TYPE_THR_CREATE, PMCLOG_TYPE_COMM, PMCLOG_TYPE_PROCEXEC,
	PMCLOG_TYPE_CALLCHAIN, PMCLOG_TYPE_CALLCHAIN, PMCLOG_TYPE_DROPNOTIFY,
	PMCLOG_TYPE_DROPNOTIFY, PMCLOG_TYPE_THROTTLE, PMCLOG_TYPE_THROTTLE, PMCLOG_TYPE_SWITCH,
	PMCLOG_TYPE_KSYMBOL,
	PMCLOG_TYPE_PROCEXIT, PMCLOG_TYPE_PROCEXIT, PMCLOG_TYPE_CALLCHAIN,
	PMCLOG_TYPE_THR_EXIT, PMCLOG_TYPE_SYSEXIT,
};
#define T_NTYPES ((int)(sizeof(t_types) / sizeof(t_types[0])))

static void t_feature_strings(struct lb *p, int feat)
{
	switch (feat) {
	case PD_FEAT_HOSTNAME: lb_fstr(p, "testhost"); break;
	case PD_FEAT_OSRELEASE: lb_fstr(p, "6.1.0-test"); break;
	case PD_FEAT_VERSION: lb_fstr(p, "6.1.99"); break;
	case PD_FEAT_CPUDESC: lb_fstr(p, "Test CPU @ 1GHz"); break;
	case PD_FEAT_NRCPUS: lb32(p, 8); lb32(p, 4); break;
	case PD_FEAT_CMDLINE: lb32(p, 3); lb_fstr(p, "perf"); lb_fstr(p, "record"); lb_fstr(p, "prog"); break;
	case PD_FEAT_EVENT_DESC:
		lb32(p, 2); lb32(p, 128);
		t_attr0(p); lb32(p, 2); lb_fstr(p, "cpu-clock:u"); lb64(p, T_ID0); lb64(p, T_ID0B);
		t_attr1(p);
		lb32(p, 1); lb_fstr(p, "task-clock"); lb64(p, T_ID1);
		break;
	case PD_FEAT_BUILD_ID: {
		size_t at = p->len;
		lb32(p, 0); lb16(p, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE); lb16(p, 0);
		lb32(p, (uint32_t)-1);
		lb_bytes(p, t_bid2, 20); lb_put(p, 20, 1); lb_zero(p, 3);
		lb_bytes(p, "/lib/libm.so.6", 15); lb_zero(p, 64 - 15);
		lb_patch(p, at + 6, (uint16_t)(p->len - at), 2);
		break;
	}
	}
}

static const int t_feats[] = {
	PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION, PD_FEAT_NRCPUS,
	PD_FEAT_CPUDESC, PD_FEAT_CMDLINE, PD_FEAT_EVENT_DESC,
	77,                                          /* a future feature: skipped */
};

/* A file-mode perf.data.  recs: the data section's records (NULL: the
 * every-type records). */
static __attribute__((unused)) unsigned char *t_make_file(int be, const struct lb *recs, size_t *len)
{
	struct lb p = { .be = be };
	size_t ids_off, attrs_off, data_off, data_size, tab;
	uint64_t feat[4] = { 0 };
	int nf = (int)(sizeof(t_feats) / sizeof(t_feats[0]));

	lb_zero(&p, PD_FILE_HDR_SIZE);
	ids_off = p.len;
	lb64(&p, T_ID0); lb64(&p, T_ID0B); lb64(&p, T_ID1);
	attrs_off = p.len;
	t_attr0(&p); lb64(&p, ids_off); lb64(&p, 16);
	t_attr1(&p);
	lb64(&p, ids_off + 16); lb64(&p, 8);
	data_off = p.len;
	if (recs)
		lb_bytes(&p, recs->b, recs->len);
	else
		t_records(&p);
	data_size = p.len - data_off;
	tab = p.len;
	lb_zero(&p, 16 * (size_t)nf);
	for (int i = 0; i < nf; i++) {
		size_t at = p.len;
		if (t_feats[i] == 77)
			lb_bytes(&p, "future!!", 8);
		else
			t_feature_strings(&p, t_feats[i]);
		lb_patch(&p, tab + 16 * (size_t)i, at, 8);
		lb_patch(&p, tab + 16 * (size_t)i + 8, p.len - at, 8);
		feat[t_feats[i] / 64] |= 1ULL << (t_feats[i] % 64);
	}
	{
		size_t end = p.len;
		p.len = 0;
		lb_perf_magic(&p);
		lb64(&p, PD_FILE_HDR_SIZE);
		lb64(&p, 128 + 16);
		lb64(&p, attrs_off); lb64(&p, 2 * (128 + 16));
		lb64(&p, data_off); lb64(&p, data_size);
		lb64(&p, 0); lb64(&p, 0);
		for (int i = 0; i < 4; i++)
			lb64(&p, feat[i]);
		p.len = end;
	}
	*len = p.len;
	return p.b;
}

/* A pipe-mode stream: attrs, features, event names as records. */
static __attribute__((unused)) unsigned char *t_make_pipe(int be, const struct lb *recs, size_t *len)
{
	struct lb p = { .be = be };
	size_t at;
	static const int feats[] = { PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION,
		PD_FEAT_CPUDESC, PD_FEAT_CMDLINE, PD_FEAT_NRCPUS };

	lb_pipe_begin(&p);
	at = lb_rec_begin(&p, PD_REC_HEADER_ATTR, 0);
	t_attr0(&p); lb64(&p, T_ID0); lb64(&p, T_ID0B);
	lb_rec_end(&p, at);
	at = lb_rec_begin(&p, PD_REC_HEADER_ATTR, 0);
	t_attr1(&p); lb64(&p, T_ID1);
	lb_rec_end(&p, at);
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		at = lb_rec_begin(&p, PD_REC_HEADER_FEATURE, 0);
		lb64(&p, (uint64_t)feats[i]);
		t_feature_strings(&p, feats[i]);
		lb_rec_end(&p, at);
	}
	at = lb_rec_begin(&p, PD_REC_EVENT_UPDATE, 0);
	lb64(&p, PD_EVENT_UPDATE_NAME); lb64(&p, T_ID0); lb_str8(&p, "cpu-clock:u");
	lb_rec_end(&p, at);
	at = lb_rec_begin(&p, PD_REC_EVENT_UPDATE, 0);
	lb64(&p, PD_EVENT_UPDATE_NAME); lb64(&p, T_ID1); lb_str8(&p, "task-clock");
	lb_rec_end(&p, at);
	at = lb_rec_begin(&p, PD_REC_HEADER_BUILD_ID, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE);
	lb32(&p, (uint32_t)-1);
	lb_bytes(&p, t_bid2, 20); lb_put(&p, 20, 1); lb_zero(&p, 3);
	lb_bytes(&p, "/lib/libm.so.6", 15); lb_zero(&p, 64 - 15);
	lb_rec_end(&p, at);
	if (recs)
		lb_bytes(&p, recs->b, recs->len);
	else
		t_records(&p);
	*len = p.len;
	return p.b;
}

/* Read everything; types into out (up to max); returns the count, with the
 * final state and truncation flag. */
static __attribute__((unused)) int t_read_all(struct perfdata *pd, int *out, int max, enum pmclog_state *st,
    int *tr)
{
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	int n = 0;
	assert_non_null(ev);
	while (perfdata__read(pd, ev) == 0) {
		if (out && n < max)
			out[n] = ev->pl_type;
		n++;
	}
	if (st)
		*st = ev->pl_state;
	if (tr)
		*tr = perfdata__truncated(pd);
	free(ev);
	return n;
}

#endif
