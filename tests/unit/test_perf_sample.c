/*
 * test_perf_sample.c — the one PERF_RECORD_SAMPLE decoder (lib/common/
 * perf_sample.c): every sample_type field in the kernel's order, in both
 * byte orders, every read_format form, and truncated or inconsistent
 * records refused without reading past their end (each cut is copied to a
 * buffer of exactly that size, so ASan sees any over-read); the layout
 * worked out once per event (offsets, id positions, the trailer), the
 * fixed-field decode against the general one, the trailer, the leaf and
 * the sampled-pc rule.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "common/perf_sample.h"
#include "lib/logbuild.h"

#define ALL_BITS (PSAMPLE_KNOWN)
#define RF_ALL (PSAMPLE_FMT_TOTAL_TIME_ENABLED | PSAMPLE_FMT_TOTAL_TIME_RUNNING | \
	PSAMPLE_FMT_ID | PSAMPLE_FMT_LOST)

static const struct psample_layout every = {
	.sample_type = ALL_BITS & ~PSAMPLE_WEIGHT,  /* WEIGHT_STRUCT stands for both */
	.read_format = RF_ALL | PSAMPLE_FMT_GROUP,
	.branch_sample_type = PSAMPLE_BRANCH_HW_INDEX | PSAMPLE_BRANCH_COUNTERS,
	.regs_user = 0x1ff,         /* 9 registers */
	.regs_intr = 0x3,           /* 2 */
};

/* A sample with every field, in the kernel's order (perf_output_sample). */
static void build_every(struct lb *b)
{
	b->len = 0;
	lb64(b, 0x1d);                        /* IDENTIFIER */
	lb64(b, 0x401000);                    /* IP */
	lb32(b, 100); lb32(b, 101);            /* TID */
	lb64(b, 123456789);                   /* TIME */
	lb64(b, 0xdead0000);                  /* ADDR */
	lb64(b, 0x1d);                        /* ID */
	lb64(b, 0x5d);                        /* STREAM_ID */
	lb32(b, 3); lb32(b, 0);                /* CPU */
	lb64(b, 10000);                       /* PERIOD */
	lb64(b, 2); lb64(b, 500); lb64(b, 400); /* READ: group of 2, enabled, running */
	lb64(b, 11); lb64(b, 0x1d); lb64(b, 0);
	lb64(b, 22); lb64(b, 0x1e); lb64(b, 7);
	lb64(b, 3);                           /* CALLCHAIN */
	lb64(b, (uint64_t)-512); lb64(b, 0x401000); lb64(b, 0x402000);
	lb32(b, 12); lb_bytes(b, "raw-data\0\0\0\0", 12); /* RAW: 4 + 12 = 16 */
	lb64(b, 1); lb64(b, 9);                /* BRANCH_STACK: nr, hw_idx */
	lb64(b, 0xa); lb64(b, 0xb); lb64(b, 0); /* from, to, flags */
	lb64(b, 5);                           /* counters */
	lb64(b, PSAMPLE_REGS_ABI_64);         /* REGS_USER */
	for (int i = 0; i < 9; i++)
		lb64(b, 0x7000 + (uint64_t)i);
	lb64(b, 32);                          /* STACK_USER: size, data, dyn_size */
	for (int i = 0; i < 32; i++)
		lb_put(b, (uint64_t)i, 1);
	lb64(b, 24);
	lb64(b, 77);                          /* WEIGHT_STRUCT */
	lb64(b, 0xd5);                        /* DATA_SRC */
	lb64(b, 0x7a);                        /* TRANSACTION */
	lb64(b, PSAMPLE_REGS_ABI_64);         /* REGS_INTR */
	lb64(b, 0x11); lb64(b, 0x22);
	lb64(b, 0x9000);                      /* PHYS_ADDR */
	lb64(b, 42);                          /* CGROUP */
	lb64(b, 4096);                        /* DATA_PAGE_SIZE */
	lb64(b, 2097152);                     /* CODE_PAGE_SIZE */
	lb64(b, 8); lb_bytes(b, "auxdata!", 8); /* AUX */
}

static void check_every(int be)
{
	struct lb b = { .be = be };
	struct psample s;
	struct psample_readval rv;

	build_every(&b);
	assert_int_equal(psample__parse(&s, &every, b.b, b.len, be), 0);
	assert_int_equal(s.used, b.len);
	assert_int_equal(s.id, 0x1d);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.pid, 100);
	assert_int_equal(s.tid, 101);
	assert_int_equal(s.time, 123456789);
	assert_int_equal(s.addr, 0xdead0000);
	assert_int_equal(s.stream_id, 0x5d);
	assert_int_equal(s.cpu, 3);
	assert_int_equal(s.period, 10000);
	assert_int_equal(s.read.nr, 2);
	assert_int_equal(s.read.time_enabled, 500);
	assert_int_equal(s.read.time_running, 400);
	psample__read_value(&s, every.read_format, 1, &rv);
	assert_int_equal(rv.value, 22);
	assert_int_equal(rv.id, 0x1e);
	assert_int_equal(rv.lost, 7);
	assert_int_equal(s.callchain_nr, 3);
	assert_int_equal(psample__u64(&s, s.callchain, 0), (uint64_t)-512);
	assert_int_equal(psample__u64(&s, s.callchain, 2), 0x402000);
	assert_int_equal(s.raw_size, 12);
	assert_memory_equal(s.raw, "raw-data", 8);
	assert_int_equal(s.branch_nr, 1);
	assert_int_equal(s.branch_hw_idx, 9);
	assert_int_equal(psample__u64(&s, s.branch, 1), 0xb);
	assert_int_equal(psample__u64(&s, s.branch_counters, 0), 5);
	assert_int_equal(s.regs_user.abi, PSAMPLE_REGS_ABI_64);
	assert_int_equal(s.regs_user.nr, 9);
	assert_int_equal(psample__u64(&s, s.regs_user.regs, 8), 0x7008);
	assert_int_equal(s.stack_size, 32);
	assert_int_equal(s.stack_dyn_size, 24);
	assert_int_equal(s.stack[31], 31);
	assert_int_equal(s.weight, 77);
	assert_int_equal(s.data_src, 0xd5);
	assert_int_equal(s.transaction, 0x7a);
	assert_int_equal(s.regs_intr.nr, 2);
	assert_int_equal(psample__u64(&s, s.regs_intr.regs, 1), 0x22);
	assert_int_equal(s.phys_addr, 0x9000);
	assert_int_equal(s.cgroup, 42);
	assert_int_equal(s.data_page_size, 4096);
	assert_int_equal(s.code_page_size, 2097152);
	assert_int_equal(s.aux_size, 8);
	assert_memory_equal(s.aux, "auxdata!", 8);
	lb_free(&b);
}

static void test_every_field_le(void **state)
{
	(void)state;
	check_every(0);
}

static void test_every_field_be(void **state)
{
	(void)state;
	check_every(1);
}

/* Every cut of the full record is refused, reading only what it has. */
static void test_truncated(void **state)
{
	struct lb b = { .be = 0 };
	struct psample s;

	(void)state;
	build_every(&b);
	for (size_t n = 0; n < b.len; n++) {
		unsigned char *cut = malloc(n ? n : 1);
		memcpy(cut, b.b, n);
		assert_int_equal(psample__parse(&s, &every, cut, n, 0), -EINVAL);
		free(cut);
	}
	lb_free(&b);
}

/* perf record -g's layout (fixed fields, the chain last) in either byte
 * order: every field where it belongs, every cut refused, trailing bytes
 * not decoded. */
static void test_record_g_layout(void **state)
{
	const struct psample_layout l = { .sample_type = PSAMPLE_IDENTIFIER | PSAMPLE_IP |
	    PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_ID | PSAMPLE_CPU | PSAMPLE_PERIOD |
	    PSAMPLE_CALLCHAIN };
	(void)state;
	for (int be = 0; be <= 1; be++) {
		struct lb b = { .be = be };
		struct psample s;
		lb64(&b, 0x1d); lb64(&b, 0xffffffff81000010ull);
		lb32(&b, 42); lb32(&b, 43); lb64(&b, 123456789); lb64(&b, 0x1d);
		lb32(&b, 3); lb32(&b, 0); lb64(&b, 10000);
		lb64(&b, 3); lb64(&b, PSAMPLE_CONTEXT_KERNEL); lb64(&b, 0xffffffff81000010ull);
		lb64(&b, 0x401000);
		size_t full = b.len;
		lb64(&b, 0xdead);                     /* not the sample's */
		assert_int_equal(psample__parse(&s, &l, b.b, b.len, be), 0);
		const uint64_t got[] = { s.id, s.ip, s.pid, s.tid, s.time, s.cpu, s.period,
		    s.callchain_nr, psample__u64(&s, s.callchain, 2), s.used, s.addr };
		const uint64_t want[] = { 0x1d, 0xffffffff81000010ull, 42, 43, 123456789, 3, 10000,
		    3, 0x401000, full, 0 };
		assert_memory_equal(got, want, sizeof(want));
		assert_null(s.raw);
		for (size_t n = 0; n < full; n++)
			assert_int_equal(psample__parse(&s, &l, b.b, n, be), -EINVAL);
		lb_free(&b);
	}
}

/* Counts that claim more than the record holds; dyn_size above size. */
static void test_inconsistent(void **state)
{
	struct psample_layout l = { .sample_type = PSAMPLE_CALLCHAIN };
	struct lb b = { .be = 0 };
	struct psample s;

	(void)state;
	lb64(&b, (uint64_t)1 << 61);          /* nr * 8 overflows */
	lb64(&b, 1);
	assert_int_equal(psample__parse(&s, &l, b.b, b.len, 0), -EINVAL);

	l.sample_type = PSAMPLE_STACK_USER;
	b.len = 0;
	lb64(&b, 8);
	lb64(&b, 0);
	lb64(&b, 16);                         /* dyn_size 16 > size 8 */
	assert_int_equal(psample__parse(&s, &l, b.b, b.len, 0), -EINVAL);

	l.sample_type = PSAMPLE_RAW;
	b.len = 0;
	lb32(&b, 0xfffffff0);
	lb32(&b, 0);
	assert_int_equal(psample__parse(&s, &l, b.b, b.len, 0), -EINVAL);

	/* an empty user stack is only the size word; no registers: abi only */
	l.sample_type = PSAMPLE_REGS_USER | PSAMPLE_STACK_USER;
	l.regs_user = 0xff;
	b.len = 0;
	lb64(&b, PSAMPLE_REGS_ABI_NONE);
	lb64(&b, 0);
	assert_int_equal(psample__parse(&s, &l, b.b, b.len, 0), 0);
	assert_int_equal(s.regs_user.nr, 0);
	assert_null(s.stack);
	assert_int_equal(s.used, 16);
	lb_free(&b);
}

/* A chain's context markers become one user flag per pc (either byte
 * order): the mode before any marker is the caller's, guest user is user,
 * the hypervisor and guest kernel are not; max bounds what is stored. */
static void test_chain_context(void **state)
{
	static const uint64_t chain[] = {
		0x1000, PSAMPLE_CONTEXT_KERNEL, 0xffff1, 0xffff2, PSAMPLE_CONTEXT_USER, 0x401,
		PSAMPLE_CONTEXT_HV, 0x5, PSAMPLE_CONTEXT_GUEST_USER, 0x6,
		PSAMPLE_CONTEXT_GUEST_KERNEL, 0x7,
	};
	static const uint64_t want_pc[] = { 0x1000, 0xffff1, 0xffff2, 0x401, 0x5, 0x6, 0x7 };
	static const uint8_t want_fl[] = { 9, 0, 0, 9, 0, 9, 0 };
	struct psample_layout l = { .sample_type = PSAMPLE_CALLCHAIN };
	uint64_t pcs[8];
	uint8_t fl[8];

	(void)state;
	assert_int_equal(psample__misc_user(PSAMPLE_MISC_USER), 1);
	assert_int_equal(psample__misc_user(PSAMPLE_MISC_GUEST_USER | 0x4000), 1);
	assert_int_equal(psample__misc_user(1), 0);
	for (int be = 0; be <= 1; be++) {
		struct lb b = { .be = be };
		struct psample s;
		lb64(&b, sizeof(chain) / 8);
		for (size_t i = 0; i < sizeof(chain) / 8; i++)
			lb64(&b, chain[i]);
		assert_int_equal(psample__parse(&s, &l, b.b, b.len, be), 0);
		assert_int_equal(psample__chain(&s, 1, 9, pcs, fl, 8), 7);
		assert_memory_equal(pcs, want_pc, sizeof(want_pc));
		assert_memory_equal(fl, want_fl, sizeof(want_fl));
		assert_int_equal(psample__chain(&s, 0, 9, pcs, fl, 2), 2);
		assert_int_equal(fl[0], 0);
		assert_int_equal(pcs[1], 0xffff1);
		lb_free(&b);
	}
}

/* Non-group read_format in every combination; a bare READ body. */
static void test_read_formats(void **state)
{
	(void)state;
	for (uint64_t rf = 0; rf <= RF_ALL; rf++) {
		struct psample_layout l = { .sample_type = PSAMPLE_READ | PSAMPLE_PERIOD,
			.read_format = rf };
		struct lb b = { .be = (int)(rf & 1) };
		struct psample s;
		struct psample_readval rv;
		if (rf & PSAMPLE_FMT_GROUP)
			continue;            /* test_every_field_* has the group form */
		lb64(&b, 99);                 /* PERIOD */
		lb64(&b, 1234);               /* value */
		if (rf & PSAMPLE_FMT_TOTAL_TIME_ENABLED)
			lb64(&b, 50);
		if (rf & PSAMPLE_FMT_TOTAL_TIME_RUNNING)
			lb64(&b, 40);
		if (rf & PSAMPLE_FMT_ID)
			lb64(&b, 0x77);
		if (rf & PSAMPLE_FMT_LOST)
			lb64(&b, 3);
		assert_int_equal(psample__parse(&s, &l, b.b, b.len, b.be), 0);
		assert_int_equal(s.used, b.len);
		assert_int_equal(s.read.nr, 1);
		psample__read_value(&s, rf, 0, &rv);
		assert_int_equal(rv.value, 1234);
		assert_int_equal(rv.id, (rf & PSAMPLE_FMT_ID) ? 0x77 : 0);
		assert_int_equal(rv.lost, (rf & PSAMPLE_FMT_LOST) ? 3 : 0);
		if (rf & PSAMPLE_FMT_TOTAL_TIME_RUNNING)
			assert_int_equal(s.read.time_running, 40);
		assert_int_equal(psample__parse_read(&s, rf, b.b + 8, b.len - 8, b.be), 0);
		psample__read_value(&s, rf, 0, &rv);
		assert_int_equal(rv.value, 1234);
		assert_int_equal(psample__parse_read(&s, rf, b.b + 8, b.len - 9, b.be), -EINVAL);
		lb_free(&b);
	}
}

/* psample__layout_init: the fixed fields' offsets and perf's id_pos /
 * is_pos (tools/perf/util/evsel.c __evsel__calc_id_pos / is_pos) for the
 * layouts that matter, and the trailer's size. */
static void test_layout(void **state)
{
	static const struct {
		uint64_t st;
		int o_ip, o_tid, o_time, o_id, o_cpu, o_period, head, fixed, trailer, id_pos, is_pos;
	} c[] = {
		/* pmc record -g: IDENTIFIER first */
		{ PSAMPLE_IDENTIFIER | PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_CPU |
		  PSAMPLE_PERIOD | PSAMPLE_CALLCHAIN, 8, 16, 24, 0, 32, 40, 48, 1, 32, 0, 1 },
		/* perf record without IDENTIFIER: ID after IP TID TIME ADDR */
		{ PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_ADDR | PSAMPLE_ID |
		  PSAMPLE_STREAM_ID | PSAMPLE_CPU | PSAMPLE_PERIOD, 0, 8, 16, 32, 48, 56, 64, 1,
		  40, 4, 3 },
		/* ID, no CPU / STREAM_ID: is_pos 1 */
		{ PSAMPLE_TID | PSAMPLE_ID, -1, 0, -1, 8, -1, -1, 16, 1, 16, 1, 1 },
		/* no id at all; READ: not fixed */
		{ PSAMPLE_IP | PSAMPLE_READ, 0, -1, -1, -1, -1, -1, 8, 0, 0, -1, -1 },
		/* DWARF: registers and stack after the chain */
		{ PSAMPLE_IDENTIFIER | PSAMPLE_IP | PSAMPLE_TID | PSAMPLE_CALLCHAIN |
		  PSAMPLE_REGS_USER | PSAMPLE_STACK_USER, 8, 16, -1, 0, -1, -1, 24, 0, 16, 0, 1 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct psample_layout l = { .sample_type = c[i].st };
		psample__layout_init(&l);
		const int got[] = { l.o_ip, l.o_tid, l.o_time, l.o_id, l.o_cpu, l.o_period, l.head,
		    l.fixed, l.trailer, l.id_pos, l.is_pos };
		const int want[] = { c[i].o_ip, c[i].o_tid, c[i].o_time, c[i].o_id, c[i].o_cpu,
		    c[i].o_period, c[i].head, c[i].fixed, c[i].trailer, c[i].id_pos, c[i].is_pos };
		assert_memory_equal(got, want, sizeof(want));
	}
}

/* The fixed-field decode of an initialised layout gives what the general
 * one gives (an uninitialised layout takes the general path), and refuses
 * every cut the general one refuses. */
static void test_fixed_equals_general(void **state)
{
	struct psample_layout lf = { .sample_type = PSAMPLE_IDENTIFIER | PSAMPLE_IP |
	    PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_ADDR | PSAMPLE_ID | PSAMPLE_STREAM_ID |
	    PSAMPLE_CPU | PSAMPLE_PERIOD | PSAMPLE_CALLCHAIN };
	struct psample_layout lg = lf;
	(void)state;
	psample__layout_init(&lf);
	assert_true(lf.fixed);
	for (int be = 0; be <= 1; be++) {
		struct lb b = { .be = be };
		struct psample x, y;
		lb64(&b, 7); lb64(&b, 0x401000); lb32(&b, 42); lb32(&b, 43); lb64(&b, 99);
		lb64(&b, 0xadd); lb64(&b, 7); lb64(&b, 0x5d); lb32(&b, 3); lb32(&b, 0x77);
		lb64(&b, 10000);
		lb64(&b, 2); lb64(&b, PSAMPLE_CONTEXT_USER); lb64(&b, 0x401000);
		size_t full = b.len;
		for (size_t n = 0; n <= full; n++) {
			unsigned char *cut = malloc(n ? n : 1);
			memcpy(cut, b.b, n);
			int rf = psample__parse(&x, &lf, cut, n, be);
			int rg = psample__parse(&y, &lg, cut, n, be);
			assert_int_equal(rf, rg);
			if (rf == 0) {
				assert_memory_equal(&x, &y, sizeof(x));
				assert_int_equal(x.cpu_res, 0x77);
				assert_int_equal(x.stream_id, 0x5d);
			}
			free(cut);
		}
		lb_free(&b);
	}
}

/* The trailer of another record: from its end, in the kernel's order;
 * a body shorter than the trailer is refused. */
static void test_trailer(void **state)
{
	struct psample_layout l = { .sample_type = PSAMPLE_IDENTIFIER | PSAMPLE_IP |
	    PSAMPLE_TID | PSAMPLE_TIME | PSAMPLE_ID | PSAMPLE_STREAM_ID | PSAMPLE_CPU |
	    PSAMPLE_PERIOD };
	(void)state;
	psample__layout_init(&l);
	for (int be = 0; be <= 1; be++) {
		struct lb b = { .be = be };
		struct psample_trailer t;
		lb64(&b, 0x1111); lb64(&b, 0x2222);                /* the record's own fields */
		lb32(&b, 42); lb32(&b, 43); lb64(&b, 555); lb64(&b, 9); lb64(&b, 0x5d);
		lb32(&b, 3); lb32(&b, 0); lb64(&b, 9);
		assert_int_equal(psample__parse_trailer(&l, b.b, b.len, be, &t), 0);
		assert_int_equal(t.size, 48);
		const uint64_t got[] = { t.pid, t.tid, t.time, t.id, t.cpu, (uint64_t)t.has_tid,
		    (uint64_t)t.has_time, (uint64_t)t.has_id, (uint64_t)t.has_cpu };
		const uint64_t want[] = { 42, 43, 555, 9, 3, 1, 1, 1, 1 };
		assert_memory_equal(got, want, sizeof(want));
		assert_int_equal(psample__parse_trailer(&l, b.b + 16, 40, be, &t), -1);
		assert_int_equal(t.has_time, 0);
		lb_free(&b);
	}
}

/* The sampled-pc rule and the leaf: a chain that starts with the sampled pc
 * (after markers) takes the chain's context; one that does not keeps the
 * header's and the pc goes first; without IP the chain's first pc. */
static void test_leaf_rule(void **state)
{
	struct lb b = { .be = 0 };
	struct psample_fixed f = { 0 };
	struct psample_layout ip = { .sample_type = PSAMPLE_IP | PSAMPLE_CALLCHAIN };
	struct psample_layout noip = { .sample_type = PSAMPLE_CALLCHAIN };
	int user;
	(void)state;
	psample__layout_init(&ip);
	psample__layout_init(&noip);
	lb64(&b, PSAMPLE_CONTEXT_KERNEL); lb64(&b, 0xffffffff81000010ull);
	lb64(&b, PSAMPLE_CONTEXT_USER); lb64(&b, 0x401000);
	f.chain = b.b;
	f.chain_nr = 4;
	f.ip = 0xffffffff81000010ull;
	user = 1;
	assert_true(psample__chain_has_ip(f.chain, f.chain_nr, 0, f.ip, &user));
	assert_int_equal(user, 0);
	user = 1;
	assert_int_equal(psample__leaf(&ip, &f, 0, &user), f.ip);
	assert_int_equal(user, 0);                  /* the chain's context */
	f.ip = 0x401234;                            /* not the chain's first pc */
	user = 1;
	assert_false(psample__chain_has_ip(f.chain, f.chain_nr, 0, f.ip, &user));
	user = 1;
	assert_int_equal(psample__leaf(&ip, &f, 0, &user), 0x401234);
	assert_int_equal(user, 1);                  /* the header's */
	user = 1;
	assert_int_equal(psample__leaf(&noip, &f, 0, &user), 0xffffffff81000010ull);
	assert_int_equal(user, 0);
	f.chain_nr = 1;                             /* markers only */
	user = 1;
	assert_int_equal(psample__leaf(&noip, &f, 0, &user), 0);
	assert_int_equal(user, 1);
	assert_false(psample__chain_has_ip(f.chain, 0, 0, 0, &user));
	lb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_field_le),
		cmocka_unit_test(test_every_field_be),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_record_g_layout),
		cmocka_unit_test(test_inconsistent),
		cmocka_unit_test(test_read_formats),
		cmocka_unit_test(test_chain_context),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_fixed_equals_general),
		cmocka_unit_test(test_trailer),
		cmocka_unit_test(test_leaf_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
