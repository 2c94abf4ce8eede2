/*
 * test_perfdata_util.h — builds perf.data files byte by byte, in either
 * byte order, for the perf.data reader tests: a file (or pipe-mode stream)
 * holding one record of every type the reader translates, plus the ones it
 * must skip, with every PERF_SAMPLE_* field in a sample.  (The builders
 * are marked unused: a test that makes its own files uses only pb_*.)
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
#include <zstd.h>

#include "pmclog.h"
#include "perfdata/perfdata.h"
#include "perfdata/format.h"

struct pb {
	unsigned char *b;
	size_t len, cap;
	int be;
};

static void pb_room(struct pb *p, size_t n)
{
	if (p->len + n > p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 4096;
		while (nc < p->len + n)
			nc *= 2;
		p->b = realloc(p->b, nc);
		assert_non_null(p->b);
		memset(p->b + p->cap, 0, nc - p->cap);
		p->cap = nc;
	}
}

static void pb_put(struct pb *p, uint64_t v, int n)   /* n bytes in file order */
{
	pb_room(p, (size_t)n);
	for (int i = 0; i < n; i++) {
		int sh = p->be ? 8 * (n - 1 - i) : 8 * i;
		p->b[p->len + (size_t)i] = (unsigned char)(v >> sh);
	}
	p->len += (size_t)n;
}
static void pb16(struct pb *p, uint16_t v) { pb_put(p, v, 2); }
static void pb32(struct pb *p, uint32_t v) { pb_put(p, v, 4); }
static void pb64(struct pb *p, uint64_t v) { pb_put(p, v, 8); }
static void pbbytes(struct pb *p, const void *d, size_t n)
{
	pb_room(p, n);
	memcpy(p->b + p->len, d, n);
	p->len += n;
}
static void pbzero(struct pb *p, size_t n)
{
	pb_room(p, n);
	memset(p->b + p->len, 0, n);
	p->len += n;
}
static void pb_patch(struct pb *p, size_t off, uint64_t v, int n)
{
	size_t save = p->len;
	p->len = off;
	pb_put(p, v, n);
	p->len = save;
}
/* the attr bitfield: big-endian compilers fill each byte from its top bit */
static void pbbits(struct pb *p, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		unsigned x = (unsigned)(v >> (8 * i)) & 0xFF, r = x;
		if (p->be) {
			r = 0;
			for (int k = 0; k < 8; k++)
				r |= ((x >> k) & 1u) << (7 - k);
		}
		pb_put(p, r, 1);
	}
}
/* a string padded to 8 (NUL included) */
static void pbstr8(struct pb *p, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 7) & ~(size_t)7;
	pbbytes(p, s, n);
	pbzero(p, pad - n);
}
/* a feature string: u32 len (padded to 64), bytes */
static void pbfstr(struct pb *p, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 63) & ~(size_t)63;
	pb32(p, (uint32_t)pad);
	pbbytes(p, s, n);
	pbzero(p, pad - n);
}
static size_t pb_rec_begin(struct pb *p, uint32_t type, uint16_t misc)
{
	size_t at = p->len;
	pb32(p, type);
	pb16(p, misc);
	pb16(p, 0);
	return at;
}
static void pb_rec_end(struct pb *p, size_t at)
{
	pb_patch(p, at + 6, (uint16_t)(p->len - at), 2);
}

/* raw's len bytes of records, zstd-compressed as perf does (one stream,
 * flushed per record) into nparts COMPRESSED (v2: COMPRESSED2) records
 * appended to out, split wherever the parts end (mid-record too). */
static void pb_compress(struct pb *out, const unsigned char *raw, size_t len, int v2,
    int nparts)
{
	ZSTD_CCtx *zc = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(len / (size_t)nparts + 1) + 64;
	unsigned char *z = malloc(cap);

	assert_non_null(zc);
	assert_non_null(z);
	for (int i = 0; i < nparts; i++) {
		size_t from = len * (size_t)i / (size_t)nparts;
		size_t to = len * (size_t)(i + 1) / (size_t)nparts;
		ZSTD_inBuffer in = { raw + from, to - from, 0 };
		ZSTD_outBuffer o = { z, cap, 0 };
		size_t at;
		while (in.pos < in.size)
			assert_false(ZSTD_isError(ZSTD_compressStream2(zc, &o, &in, ZSTD_e_continue)));
		assert_int_equal(ZSTD_compressStream2(zc, &o, &in, ZSTD_e_flush), 0);
		at = pb_rec_begin(out, v2 ? PD_REC_COMPRESSED2 : PD_REC_COMPRESSED, 0);
		if (v2) {
			pb64(out, o.pos);
			pbbytes(out, z, o.pos);
			pbzero(out, ((o.pos + 7) & ~(size_t)7) - o.pos);
		} else {
			pbbytes(out, z, o.pos);     /* odd sizes, as perf writes them */
		}
		pb_rec_end(out, at);
	}
	ZSTD_freeCCtx(zc);
	free(z);
}

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

static void pb_attr(struct pb *p, uint32_t type, uint64_t config, uint64_t period, uint64_t st,
    uint64_t rf, uint64_t flags, uint64_t bst, uint64_t ru, uint64_t ri, uint32_t size)
{
	size_t at = p->len;
	pb32(p, type);
	pb32(p, size);
	pb64(p, config);
	pb64(p, period);
	pb64(p, st);
	pb64(p, rf);
	pbbits(p, flags);
	pb32(p, 0);                  /* wakeup */
	pb32(p, 0);                  /* bp_type */
	pb64(p, 0);                  /* config1 */
	pb64(p, 0);                  /* config2 */
	pb64(p, bst);
	pb64(p, ru);
	pb32(p, 16);                 /* sample_stack_user */
	pb32(p, 0);                  /* clockid */
	pb64(p, ri);
	pbzero(p, size - (p->len - at));
}

#define T_FLAGS (PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_FREQ | PD_ATTR_MMAP | PD_ATTR_COMM | \
	PD_ATTR_INHERIT | PD_ATTR_EXCLUDE_KERNEL)

static void t_attr0(struct pb *p)
{
	pb_attr(p, PD_TYPE_SOFTWARE, 0, 4000, T_ST0, T_RF0, T_FLAGS, PSAMPLE_BRANCH_HW_INDEX, T_RU,
	    T_RI, 128);
}
static void t_attr1(struct pb *p)
{
	pb_attr(p, PD_TYPE_SOFTWARE, 1, 100003, T_ST1, T_RF1, PD_ATTR_SAMPLE_ID_ALL, 0, 0, 0, 128);
}

/* sample_id_all trailers */
static void t_trailer0(struct pb *p, uint32_t pid, uint32_t tid, uint64_t t, uint32_t cpu)
{
	pb32(p, pid); pb32(p, tid);  /* TID */
	pb64(p, t);                  /* TIME */
	pb64(p, T_ID0);              /* ID */
	pb64(p, T_ID0);              /* STREAM_ID */
	pb32(p, cpu); pb32(p, 0);    /* CPU */
	pb64(p, T_ID0);              /* IDENTIFIER */
}
static void t_trailer1(struct pb *p, uint32_t pid, uint32_t tid, uint64_t t, uint32_t cpu)
{
	pb32(p, pid); pb32(p, tid);
	pb64(p, t);
	pb32(p, cpu); pb32(p, 0);
	pb64(p, T_ID1);
}

/* A sample of attr 0 with every field; full=0: empty optional parts. */
static void t_sample0(struct pb *p, uint64_t t, int full)
{
	size_t at = pb_rec_begin(p, PD_REC_SAMPLE, PD_MISC_KERNEL);
	pb64(p, T_ID0);              /* IDENTIFIER */
	pb64(p, T_KIP);              /* IP */
	pb32(p, 100); pb32(p, 102);  /* TID */
	pb64(p, t);                  /* TIME */
	pb64(p, 0xadd7);             /* ADDR */
	pb64(p, T_ID0);              /* ID */
	pb64(p, T_ID0);              /* STREAM_ID */
	pb32(p, 3); pb32(p, 0);      /* CPU */
	pb64(p, 250000);             /* PERIOD */
	/* READ: group of 2, enabled, running, {value, id, lost} */
	pb64(p, 2); pb64(p, 1000); pb64(p, 900);
	pb64(p, 11); pb64(p, T_ID0); pb64(p, 0);
	pb64(p, 22); pb64(p, T_ID0B); pb64(p, 0);
	if (full) {              /* CALLCHAIN */
		pb64(p, 6);
		pb64(p, PSAMPLE_CONTEXT_KERNEL); pb64(p, T_KIP); pb64(p, T_KIP2);
		pb64(p, PSAMPLE_CONTEXT_USER); pb64(p, T_UIP1); pb64(p, T_UIP2);
	} else {
		pb64(p, 0);
	}
	pb32(p, 12); pbbytes(p, "raw-data-12b", 12);   /* RAW: 4 + 12 = 16 */
	if (full) {              /* BRANCH_STACK with hw_idx */
		pb64(p, 2); pb64(p, 7);
		for (int i = 0; i < 6; i++)
			pb64(p, 0x1000 + (uint64_t)i);
	} else {
		pb64(p, 0); pb64(p, 0);
	}
	if (full) {              /* REGS_USER */
		pb64(p, 2); pb64(p, 1); pb64(p, 2); pb64(p, 3);
	} else {
		pb64(p, 0);
	}
	if (full) {              /* STACK_USER */
		pb64(p, 16); pbzero(p, 16); pb64(p, 8);
	} else {
		pb64(p, 0);
	}
	pb64(p, 42);                 /* WEIGHT */
	pb64(p, 0x5);                /* DATA_SRC */
	pb64(p, 0x1);                /* TRANSACTION */
	if (full) {              /* REGS_INTR */
		pb64(p, 2); pb64(p, 4); pb64(p, 5);
	} else {
		pb64(p, 0);
	}
	pb64(p, 0x7000);             /* PHYS_ADDR */
	pb64(p, 9);                  /* CGROUP */
	pb64(p, 4096);               /* DATA_PAGE_SIZE */
	pb64(p, 4096);               /* CODE_PAGE_SIZE */
	if (full) {              /* AUX */
		pb64(p, 8); pbzero(p, 8);
	} else {
		pb64(p, 0);
	}
	pb_rec_end(p, at);
}

/* A sample of attr id at time t by thread tid of process 200. */
static void t_sample_tid(struct pb *p, uint64_t t, uint64_t id, uint32_t tid)
{
	size_t at = pb_rec_begin(p, PD_REC_SAMPLE, PD_MISC_USER);
	pb64(p, id);
	pb64(p, T_UIP1);
	pb32(p, 200); pb32(p, tid);
	pb64(p, t);
	pb32(p, 1); pb32(p, 0);
	pb64(p, 100003);
	pb64(p, 5); pb64(p, 10); pb64(p, 9); pb64(p, id); pb64(p, 0);   /* READ, not a group */
	pb64(p, 77);                 /* WEIGHT_STRUCT */
	pb_rec_end(p, at);
}

static void t_sample1(struct pb *p, uint64_t t, uint64_t id)
{
	t_sample_tid(p, t, id, 201);
}

/* The data records of the every-type file; returns how many SAMPLEs. */
static void t_records(struct pb *p)
{
	size_t at;

	at = pb_rec_begin(p, PD_REC_COMM, PD_MISC_USER);
	pb32(p, 100); pb32(p, 100); pbstr8(p, "prog");
	t_trailer0(p, 100, 100, 1000, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_MMAP, PD_MISC_USER);
	pb32(p, 100); pb32(p, 100); pb64(p, 0x400000); pb64(p, 0x1000); pb64(p, 0);
	pbstr8(p, "/bin/prog");
	t_trailer0(p, 100, 100, 1001, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_MMAP2, PD_MISC_USER | PD_MISC_MMAP_BUILD_ID);
	pb32(p, 100); pb32(p, 100); pb64(p, 0x7f0000000000); pb64(p, 0x2000); pb64(p, 0x1000);
	pb_put(p, 20, 1); pbzero(p, 3); pbbytes(p, t_bid, 20);
	pb32(p, 5); pb32(p, 2);
	pbstr8(p, "/lib/libc.so.6");
	t_trailer0(p, 100, 100, 1002, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_MMAP2, PD_MISC_USER);
	pb32(p, 100); pb32(p, 100); pb64(p, 0x7f1000000000); pb64(p, 0x3000); pb64(p, 0);
	pb32(p, 8); pb32(p, 1); pb64(p, 1234); pb64(p, 1);
	pb32(p, 5); pb32(p, 2);
	pbstr8(p, "/lib/libm.so.6");     /* its build id is in the BUILD_ID feature */
	t_trailer0(p, 100, 100, 1003, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_FORK, 0);
	pb32(p, 101); pb32(p, 100); pb32(p, 101); pb32(p, 100); pb64(p, 1004);
	t_trailer0(p, 101, 101, 1004, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_FORK, 0);
	pb32(p, 100); pb32(p, 100); pb32(p, 102); pb32(p, 100); pb64(p, 1005);
	t_trailer0(p, 100, 102, 1005, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_COMM, PD_MISC_USER | PD_MISC_COMM_EXEC);
	pb32(p, 101); pb32(p, 101); pbstr8(p, "newprog");
	t_trailer0(p, 101, 101, 1006, 0);
	pb_rec_end(p, at);

	t_sample0(p, 1007, 1);
	t_sample1(p, 1008, T_ID1);

	at = pb_rec_begin(p, PD_REC_LOST, 0);
	pb64(p, T_ID0); pb64(p, 5);
	t_trailer0(p, (uint32_t)-1, (uint32_t)-1, 1009, 2);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_LOST_SAMPLES, 0);
	pb64(p, 3);
	t_trailer1(p, 200, 201, 1010, 1);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_THROTTLE, 0);
	pb64(p, 1011); pb64(p, T_ID1); pb64(p, T_ID1);
	t_trailer1(p, 0, 0, 1011, 1);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_UNTHROTTLE, 0);
	pb64(p, 1012); pb64(p, T_ID1); pb64(p, T_ID1);
	t_trailer1(p, 0, 0, 1012, 1);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_SWITCH, PD_MISC_SWITCH_OUT);   /* SWITCH (off-CPU) */
	t_trailer0(p, 100, 100, 1013, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_KSYMBOL, PD_MISC_KERNEL);
	pb64(p, 0xffffffffa0000000ULL); pb32(p, 0x100); pb16(p, 1); pb16(p, 0);
	pbstr8(p, "bpf_prog_test");
	t_trailer0(p, (uint32_t)-1, (uint32_t)-1, 1014, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_READ, 0);
	pb32(p, 100); pb32(p, 102);
	pb64(p, 2); pb64(p, 1000); pb64(p, 900);
	pb64(p, 111); pb64(p, T_ID0); pb64(p, 0);
	pb64(p, 222); pb64(p, T_ID1); pb64(p, 0);
	t_trailer0(p, 100, 102, 1015, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, 30, 0);                 /* a future kernel record */
	pb64(p, 1); pb64(p, 2);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, 200, 0);                /* a future user record */
	pb64(p, 1);
	pb_rec_end(p, at);

	t_sample1(p, 1016, 0x7777);                   /* an id nobody has: dropped */
	t_sample0(p, 1017, 0);                        /* empty optional parts */

	at = pb_rec_begin(p, PD_REC_EXIT, 0);
	pb32(p, 101); pb32(p, 100); pb32(p, 101); pb32(p, 100); pb64(p, 1018);
	t_trailer0(p, 101, 101, 1018, 0);
	pb_rec_end(p, at);

	at = pb_rec_begin(p, PD_REC_FINISHED_ROUND, 0);
	pb_rec_end(p, at);
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

static void t_feature_strings(struct pb *p, int feat)
{
	switch (feat) {
	case PD_FEAT_HOSTNAME: pbfstr(p, "testhost"); break;
	case PD_FEAT_OSRELEASE: pbfstr(p, "6.1.0-test"); break;
	case PD_FEAT_VERSION: pbfstr(p, "6.1.99"); break;
	case PD_FEAT_CPUDESC: pbfstr(p, "Test CPU @ 1GHz"); break;
	case PD_FEAT_NRCPUS: pb32(p, 8); pb32(p, 4); break;
	case PD_FEAT_CMDLINE: pb32(p, 3); pbfstr(p, "perf"); pbfstr(p, "record"); pbfstr(p, "prog"); break;
	case PD_FEAT_EVENT_DESC:
		pb32(p, 2); pb32(p, 128);
		t_attr0(p); pb32(p, 2); pbfstr(p, "cpu-clock:u"); pb64(p, T_ID0); pb64(p, T_ID0B);
		t_attr1(p);
		pb32(p, 1); pbfstr(p, "task-clock"); pb64(p, T_ID1);
		break;
	case PD_FEAT_BUILD_ID: {
		size_t at = p->len;
		pb32(p, 0); pb16(p, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE); pb16(p, 0);
		pb32(p, (uint32_t)-1);
		pbbytes(p, t_bid2, 20); pb_put(p, 20, 1); pbzero(p, 3);
		pbbytes(p, "/lib/libm.so.6", 15); pbzero(p, 64 - 15);
		pb_patch(p, at + 6, (uint16_t)(p->len - at), 2);
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
static __attribute__((unused)) unsigned char *t_make_file(int be, const struct pb *recs, size_t *len)
{
	struct pb p = { .be = be };
	size_t ids_off, attrs_off, data_off, data_size, tab;
	uint64_t feat[4] = { 0 };
	int nf = (int)(sizeof(t_feats) / sizeof(t_feats[0]));

	pbzero(&p, PD_FILE_HDR_SIZE);
	ids_off = p.len;
	pb64(&p, T_ID0); pb64(&p, T_ID0B); pb64(&p, T_ID1);
	attrs_off = p.len;
	t_attr0(&p); pb64(&p, ids_off); pb64(&p, 16);
	t_attr1(&p);
	pb64(&p, ids_off + 16); pb64(&p, 8);
	data_off = p.len;
	if (recs)
		pbbytes(&p, recs->b, recs->len);
	else
		t_records(&p);
	data_size = p.len - data_off;
	tab = p.len;
	pbzero(&p, 16 * (size_t)nf);
	for (int i = 0; i < nf; i++) {
		size_t at = p.len;
		if (t_feats[i] == 77)
			pbbytes(&p, "future!!", 8);
		else
			t_feature_strings(&p, t_feats[i]);
		pb_patch(&p, tab + 16 * (size_t)i, at, 8);
		pb_patch(&p, tab + 16 * (size_t)i + 8, p.len - at, 8);
		feat[t_feats[i] / 64] |= 1ULL << (t_feats[i] % 64);
	}
	{
		size_t end = p.len;
		p.len = 0;
		pbbytes(&p, be ? "2ELIFREP" : "PERFILE2", 8);
		pb64(&p, PD_FILE_HDR_SIZE);
		pb64(&p, 128 + 16);
		pb64(&p, attrs_off); pb64(&p, 2 * (128 + 16));
		pb64(&p, data_off); pb64(&p, data_size);
		pb64(&p, 0); pb64(&p, 0);
		for (int i = 0; i < 4; i++)
			pb64(&p, feat[i]);
		p.len = end;
	}
	*len = p.len;
	return p.b;
}

/* A pipe-mode stream: attrs, features, event names as records. */
static __attribute__((unused)) unsigned char *t_make_pipe(int be, const struct pb *recs, size_t *len)
{
	struct pb p = { .be = be };
	size_t at;
	static const int feats[] = { PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION,
		PD_FEAT_CPUDESC, PD_FEAT_CMDLINE, PD_FEAT_NRCPUS };

	pbbytes(&p, be ? "2ELIFREP" : "PERFILE2", 8);
	pb64(&p, PD_PIPE_HDR_SIZE);
	at = pb_rec_begin(&p, PD_REC_HEADER_ATTR, 0);
	t_attr0(&p); pb64(&p, T_ID0); pb64(&p, T_ID0B);
	pb_rec_end(&p, at);
	at = pb_rec_begin(&p, PD_REC_HEADER_ATTR, 0);
	t_attr1(&p); pb64(&p, T_ID1);
	pb_rec_end(&p, at);
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		at = pb_rec_begin(&p, PD_REC_HEADER_FEATURE, 0);
		pb64(&p, (uint64_t)feats[i]);
		t_feature_strings(&p, feats[i]);
		pb_rec_end(&p, at);
	}
	at = pb_rec_begin(&p, PD_REC_EVENT_UPDATE, 0);
	pb64(&p, PD_EVENT_UPDATE_NAME); pb64(&p, T_ID0); pbstr8(&p, "cpu-clock:u");
	pb_rec_end(&p, at);
	at = pb_rec_begin(&p, PD_REC_EVENT_UPDATE, 0);
	pb64(&p, PD_EVENT_UPDATE_NAME); pb64(&p, T_ID1); pbstr8(&p, "task-clock");
	pb_rec_end(&p, at);
	at = pb_rec_begin(&p, PD_REC_HEADER_BUILD_ID, PD_MISC_USER | PD_MISC_BUILD_ID_SIZE);
	pb32(&p, (uint32_t)-1);
	pbbytes(&p, t_bid2, 20); pb_put(&p, 20, 1); pbzero(&p, 3);
	pbbytes(&p, "/lib/libm.so.6", 15); pbzero(&p, 64 - 15);
	pb_rec_end(&p, at);
	if (recs)
		pbbytes(&p, recs->b, recs->len);
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
