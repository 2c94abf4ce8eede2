/*
 * test_log_ustack.c — the CALLCHAIN record's user-stack extension
 * (pmc_set_user_stack / --call-graph dwarf): registers and stack bytes read
 * back exactly, in both chain forms; a stack too large for one record is
 * cut to fit; a record whose extension does not fit its length is refused;
 * and a record without the extension reads as before (no registers).
 */
#include "test_log_util.h"

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

/* The flag says an extension follows but the record ends first, or its
 * lengths disagree: the log is corrupt, not read past its record. */
static void test_bad_extension(void **state)
{
	static struct pmc_logrec r;
	static struct pmclog_ev ev;
	static unsigned char back[64];
	uint64_t pcs[1] = { 0x401000 }, regs[2] = { 1, 2 };
	const uint8_t user[1] = { PMC_CC_F_USERSPACE };
	unsigned char stk[16] = { 0 };
	struct pmc_logrec_sample s = { .pmc = 7, .pid = 10, .tid = 11, .cpu = 1,
		.period = 1, .npc = 1, .pcs = pcs, .pcflags = user };
	struct pmc_logrec_ustack u = { 2, 2, 0x180, regs, 16, stk };
	(void)state;

	assert_int_equal(pmc__logrec_callchain_ustack(&r, &s, &u), 0);
	r.len = 40 + 16;                     /* cut inside the registers */
	assert_int_not_equal(roundtrip(&r, &ev, back), 0);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);

	assert_int_equal(pmc__logrec_callchain_ustack(&r, &s, &u), 0);
	pmclog__st32(r.buf + 40 + 4, 3);     /* nregs disagrees with the mask */
	assert_int_not_equal(roundtrip(&r, &ev, back), 0);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);

	assert_int_equal(pmc__logrec_callchain_ustack(&r, &s, &u), 0);
	pmclog__st32(r.buf + 40 + 16 + 16, 4096); /* more stack than the record has */
	assert_int_not_equal(roundtrip(&r, &ev, back), 0);
	assert_int_equal(ev.pl_state, PMCLOG_ERROR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_without),
		cmocka_unit_test(test_bad_extension),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
