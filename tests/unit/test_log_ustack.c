/*
 * test_log_ustack.c — the CALLCHAIN record's user-stack extension
 * (pmc_set_user_stack / --call-graph dwarf): registers and stack bytes read
 * back exactly, in both chain forms; a stack too large for one record is
 * cut to fit; a record whose extension does not fit its length is refused;
 * and a record without the extension reads as before (no registers).
 * In a zstd log (format 4) the stacks go to stack frames: read back
 * whole, or skipped undecoded (pmclog_set_stacks(0): a corrupt stack frame
 * is then never noticed); a log cut inside one reads as truncated; a
 * sample whose stack is not in the stack frame before it is refused.
 */
#include "test_log_util.h"
#include <zstd.h>

/* Encode r, write it through a writer, read it back into ev (the stack
 * copied to stk, since it points into the parser). */
static int roundtrip(struct pmc_logrec *r, struct pmclog_ev *ev, unsigned char *stk)
{
	struct lb_logw w;
	size_t len;
	int found = 0, rc;

	assert_int_equal(pmc__logw_write(lb_logw_open(&w, 0, "test"), r->type, r->buf, r->len), 0);
	unsigned char *b = lb_logw_close(&w, &len);
	void *p = lb_reader(b, len, 0);
	while ((rc = pmclog_read(p, ev)) == 0) {
		if (ev->pl_type != PMCLOG_TYPE_CALLCHAIN)
			continue;
		found = 1;
		if (ev->pl_u.pl_cc.pl_ustack_len)
			memcpy(stk, ev->pl_u.pl_cc.pl_ustack, ev->pl_u.pl_cc.pl_ustack_len);
		break;
	}
	pmclog_close(p);
	free(b);
	return found ? 0 : -1;
}

static void check(uint32_t len, int interleaved)
{
	static struct pmc_logrec r;
	static struct pmclog_ev ev;
	static unsigned char stack[PMC_USER_STACK_MAX], back[PMC_USER_STACK_MAX];
	uint64_t pcs[3] = { 0xffffffff81000010ull, 0x401000, 0x402000 };
	uint8_t fl[3] = { 0, PMC_CC_F_USERSPACE, interleaved ? 0 : PMC_CC_F_USERSPACE };
	uint64_t regs[20];
	struct pmc_logrec_sample s = { .pmc = 7, .pid = 10, .tid = 11, .cpu = 1,
		.period = 1000, .npc = 3, .pcs = pcs, .pcflags = fl };
	struct pmc_logrec_ustack u = { 2, 20, 0xff0fff, regs, len, stack };
	const struct pmclog_ev_callchain *cc = &ev.pl_u.pl_cc;

	for (int i = 0; i < 20; i++)
		regs[i] = 0x7ffd00000000ull + (uint64_t)i;
	for (uint32_t i = 0; i < len; i++)
		stack[i] = (unsigned char)(i * 7 + 3);
	assert_int_equal(pmc__logrec_callchain_ustack(&r, &s, &u), 0);
	assert_true(r.len <= PMCLOG_PAYLOAD_MAX);
	assert_int_equal(r.len % 8, 0);
	assert_int_equal(roundtrip(&r, &ev, back), 0);
	assert_int_equal(cc->pl_npc, 3);
	assert_int_equal(cc->pl_pc[2], 0x402000);
	assert_int_equal(cc->pl_pcflags[2], fl[2]);
	assert_int_equal(cc->pl_uregs_abi, 2);
	assert_int_equal(cc->pl_nuregs, 20);
	assert_int_equal(cc->pl_uregs_mask, 0xff0fff);
	for (int i = 0; i < 20; i++)
		assert_int_equal(cc->pl_uregs[i], regs[i]);
	if (len + 24 + 8 * 20 + 32 + 8 * 4 <= PMCLOG_PAYLOAD_MAX) {
		assert_int_equal(cc->pl_ustack_len, len);
	} else {          /* cut to what fits, a multiple of 8 */
		assert_true(cc->pl_ustack_len < len);
		assert_true(cc->pl_ustack_len > len - 512);
		assert_int_equal(cc->pl_ustack_len % 8, 0);
	}
	assert_memory_equal(back, stack, cc->pl_ustack_len);
}

static void test_roundtrip(void **state)
{
	(void)state;
	check(8192, 0);
	check(8192, 1);
	check(1, 0);        /* odd lengths are padded, and read back exactly */
	check(0, 0);        /* registers only: the kernel copied nothing */
	check(PMC_USER_STACK_MAX, 0);
}

/* Without the extension: no registers, as old logs read. */
static void test_without(void **state)
{
	static struct pmc_logrec r;
	static struct pmclog_ev ev;
	static unsigned char back[16];
	uint64_t pcs[1] = { 0x401000 };
	const uint8_t user[1] = { PMC_CC_F_USERSPACE };
	struct pmc_logrec_sample s = { .pmc = 7, .pid = 10, .tid = 11, .cpu = 1,
		.period = 1, .npc = 1, .pcs = pcs, .pcflags = user };
	(void)state;
	assert_int_equal(pmc__logrec_callchain(&r, &s), 0);
	assert_int_equal(r.len, 40);
	assert_int_equal(roundtrip(&r, &ev, back), 0);
	assert_int_equal(ev.pl_u.pl_cc.pl_nuregs, 0);
	assert_null(ev.pl_u.pl_cc.pl_ustack);
}

/* A one-pc sample with two registers and a 16-byte stack, encoded in r. */
static void small_sample(struct pmc_logrec *r)
{
	uint64_t pcs[1] = { 0x401000 }, regs[2] = { 1, 2 };
	const uint8_t user[1] = { PMC_CC_F_USERSPACE };
	unsigned char stk[16] = { 0 };
	struct pmc_logrec_sample s = { .pmc = 7, .pid = 10, .tid = 11, .cpu = 1,
		.period = 1, .npc = 1, .pcs = pcs, .pcflags = user };
	struct pmc_logrec_ustack u = { 2, 2, 0x180, regs, 16, stk };
	assert_int_equal(pmc__logrec_callchain_ustack(r, &s, &u), 0);
}

/* The flag says an extension follows but the record ends first, or its
 * lengths disagree: the log is corrupt, not read past its record. */
static void test_bad_extension(void **state)
{
	static struct pmc_logrec r;
	static struct pmclog_ev ev;
	static unsigned char back[64];
	(void)state;

	small_sample(&r);
	r.len = 40 + 16;                     /* cut inside the registers */
	assert_int_not_equal(roundtrip(&r, &ev, back), 0);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);

	small_sample(&r);
	pmclog__st32(r.buf + 40 + 4, 3);     /* nregs disagrees with the mask */
	assert_int_not_equal(roundtrip(&r, &ev, back), 0);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);

	small_sample(&r);
	pmclog__st32(r.buf + 40 + 16 + 16, 4096); /* more stack than the record has */
	assert_int_not_equal(roundtrip(&r, &ev, back), 0);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);
}

/* ---- stack frames (format 4) ----------------------------------------- */

#define ZN 50            /* samples */
#define ZLEN 5000        /* their stack bytes */

static unsigned char zpat(int i, uint32_t k)
{
	return (unsigned char)(k * 7 + (uint32_t)i);
}

/* A zstd log of ZN samples with stacks of len bytes (sample i's: zpat),
 * written out every `every` samples: its bytes. */
static unsigned char *zlog(uint32_t len, int every, size_t *blen)
{
	static struct pmc_logrec r;
	static unsigned char stack[ZLEN];
	uint64_t pcs[2] = { 0x401000, 0x402000 }, regs[3] = { 1, 2, 3 };
	uint8_t fl[2] = { PMC_CC_F_USERSPACE, PMC_CC_F_USERSPACE };
	struct lb_logw w;
	struct pmc_logw *lw = lb_logw_open(&w, PMC_LOGW_ZSTD, "test");
	for (int i = 0; i < ZN; i++) {
		struct pmc_logrec_sample s = { .pmc = 7, .pid = 10, .tid = 11, .cpu = 1,
			.period = 1000 + (uint64_t)i, .npc = 2, .pcs = pcs, .pcflags = fl };
		struct pmc_logrec_ustack u = { 2, 3, 0x7, regs, len, stack };
		for (uint32_t k = 0; k < len; k++)
			stack[k] = zpat(i, k);
		assert_int_equal(pmc__logrec_callchain_ustack(&r, &s, &u), 0);
		assert_int_equal(pmc__logw_write(lw, r.type, r.buf, r.len), 0);
		if ((i + 1) % every == 0)
			assert_int_equal(pmc__logw_flush(lw), 0);
	}
	return lb_logw_close(&w, blen);
}

/* Read b: the samples found (each checked: its period, registers, and its
 * stack of len bytes when stacks are read, none when not); *state the
 * final pl_state. */
static int zread(const unsigned char *b, size_t n, int stacks, uint32_t len, int *state)
{
	static struct pmclog_ev ev;
	void *p = lb_reader(b, n, 1);
	int got = 0;
	assert_int_equal(pmclog_set_stacks(p, stacks), 0);
	while (pmclog_read(p, &ev) == 0) {
		const struct pmclog_ev_callchain *cc = &ev.pl_u.pl_cc;
		if (ev.pl_type != PMCLOG_TYPE_CALLCHAIN)
			continue;
		assert_int_equal(cc->pl_period, 1000 + (uint64_t)got);
		assert_int_equal(cc->pl_nuregs, 3);
		assert_int_equal(cc->pl_uregs[2], 3);
		if (stacks) {
			assert_int_equal(cc->pl_ustack_len, len);
			for (uint32_t k = 0; k < len; k++)
				assert_int_equal(cc->pl_ustack[k], zpat(got, k));
			/* pl_data is the record as format 3 wrote it */
			assert_int_equal(cc->pl_cpuflags2 & PMCLOG_CC2_SIDESTACK, 0);
			assert_int_equal(pmclog__ld32((const unsigned char *)ev.pl_data + 16 + 16) &
			    PMCLOG_CC2_SIDESTACK, 0);
		} else {
			assert_null(cc->pl_ustack);
			assert_int_equal(cc->pl_ustack_len, 0);
		}
		got++;
	}
	*state = ev.pl_state;
	if (ev.pl_state == PMCLOG_EOF) {
		off_t at, last;
		if (pmclog_truncated(p, &at, &last))
			*state = -1;      /* truncated */
	}
	pmclog_close(p);
	return got;
}

/* The offsets of the stack frames in b (at most max), walking its frames. */
static int zframes(const unsigned char *b, size_t n, size_t *at, int max)
{
	size_t off = PMCLOG_FILE_MAGIC_LEN;
	int k = 0;
	while (off + 8 <= n) {
		if (pmclog__ld32(b + off) == PMCLOG_STACK_FRAME_MAGIC) {
			if (k < max)
				at[k++] = off;
			off += PMCLOG_STACK_FRAME_HDR + pmclog__ld32(b + off + 4);
		} else {
			size_t z = ZSTD_findFrameCompressedSize(b + off, n - off);
			assert_false(ZSTD_isError(z));
			off += z;
		}
	}
	return k;
}

static void test_stack_frames(void **state)
{
	size_t n, at[16];
	int st;
	(void)state;
	unsigned char *b = zlog(ZLEN, 7, &n);
	/* a stack frame before each write-out's frame of samples */
	assert_int_equal(zframes(b, n, at, 16), (ZN + 6) / 7);
	assert_int_equal(zread(b, n, 1, ZLEN, &st), ZN);
	assert_int_equal(st, PMCLOG_EOF);
	assert_int_equal(zread(b, n, 0, ZLEN, &st), ZN);
	assert_int_equal(st, PMCLOG_EOF);
	free(b);
	/* a stack under PMCLOG_SIDESTACK_MIN bytes stays in its record */
	b = zlog(PMCLOG_SIDESTACK_MIN - 8, 7, &n);
	assert_int_equal(zframes(b, n, at, 16), 0);
	assert_int_equal(zread(b, n, 1, PMCLOG_SIDESTACK_MIN - 8, &st), ZN);
	free(b);
}

/* Skipped stack frames are not decoded: one made corrupt still reads
 * whole without stacks, and fails with them. */
static void test_stack_frames_skipped_unread(void **state)
{
	size_t n, at[16];
	int st;
	(void)state;
	unsigned char *b = zlog(ZLEN, 7, &n);
	int k = zframes(b, n, at, 16);
	assert_true(k > 2);
	for (int i = 0; i < k; i++) {
		size_t size = pmclog__ld32(b + at[i] + 4);
		b[at[i] + PMCLOG_STACK_FRAME_HDR + size / 2] ^= 0x5A;
		b[at[i] + PMCLOG_STACK_FRAME_HDR + size - 2] ^= 0x5A;   /* its checksum */
	}
	assert_int_equal(zread(b, n, 0, ZLEN, &st), ZN);
	assert_int_equal(st, PMCLOG_EOF);
	assert_true(zread(b, n, 1, ZLEN, &st) < ZN);
	assert_int_equal(st, PMCLOG_ERROR);
	free(b);
}

/* A log cut inside a stack frame: the samples before it, then a truncated
 * end, with stacks and without. */
static void test_stack_frame_cut(void **state)
{
	size_t n, at[16];
	int st;
	(void)state;
	unsigned char *b = zlog(ZLEN, 7, &n);
	assert_true(zframes(b, n, at, 16) > 3);
	size_t cut = at[3] + PMCLOG_STACK_FRAME_HDR + pmclog__ld32(b + at[3] + 4) / 2;
	assert_int_equal(zread(b, cut, 1, ZLEN, &st), 3 * 7);
	assert_int_equal(st, -1);
	assert_int_equal(zread(b, cut, 0, ZLEN, &st), 3 * 7);
	assert_int_equal(st, -1);
	assert_int_equal(zread(b, at[3] + 3, 1, ZLEN, &st), 3 * 7);   /* in its header */
	assert_int_equal(st, -1);
	free(b);
}

/* A sample that says its stack is in a stack frame where there is none,
 * or past its end: refused (read with stacks), not read out of bounds. */
static void test_stack_not_in_frame(void **state)
{
	static struct pmc_logrec r;
	static struct pmclog_ev ev;
	static unsigned char back[64];
	(void)state;
	small_sample(&r);
	/* the stack's place: len 4096, offset 1 MB, in a stack frame */
	size_t at = pmclog__ustack_at(r.buf, r.len);
	assert_true(at != 0);
	pmclog__st32(r.buf + 16, pmclog__ld32(r.buf + 16) | PMCLOG_CC2_SIDESTACK);
	pmclog__st32(r.buf + at, 4096);
	pmclog__st32(r.buf + at + 8, 1u << 20);
	assert_int_not_equal(roundtrip(&r, &ev, back), 0);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_without),
		cmocka_unit_test(test_bad_extension),
		cmocka_unit_test(test_stack_frames),
		cmocka_unit_test(test_stack_frames_skipped_unread),
		cmocka_unit_test(test_stack_frame_cut),
		cmocka_unit_test(test_stack_not_in_frame),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
