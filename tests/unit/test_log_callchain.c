/*
 * test_log_callchain.c — the CALLCHAIN record's two forms: the compact one
 * (kernel pcs then user pcs: a count in cpuflags2, no mask, so a sample
 * costs no more than perf's) and the mask form for interleaved chains; both
 * read back with the right per-pc user/kernel flags.
 */
#include "test_log_util.h"

static void check_chain(void **state, const uint8_t *flags, uint32_t n, int compact)
{
	static struct pmc_logrec r;
	uint64_t pcs[PMC_CALLCHAIN_DEPTH_MAX];
	struct pmclog_ev ev;
	struct lb_logw w;
	size_t len;
	(void)state;
	for (uint32_t i = 0; i < n; i++)
		pcs[i] = 0x1000 + i;
	struct pmc_logrec_sample s = { .pmc = 7, .pid = 10, .tid = 11, .cpu = 1,
		.period = 1000, .npc = n, .pcs = pcs, .pcflags = flags };
	assert_int_equal(pmc__logrec_callchain(&r, &s), 0);
	/* the size: 32 + 8 per pc, plus the mask only for interleaved chains */
	assert_int_equal(r.len, 32 + 8 * n + (compact ? 0 : 8 * ((n + 63) / 64)));
	assert_int_equal(pmc__logw_write(lb_logw_open(&w, 0, "test"), r.type, r.buf, r.len), 0);
	unsigned char *b = lb_logw_close(&w, &len);
	void *p = lb_reader(b, len, 1);
	int found = 0;
	while (pmclog_read(p, &ev) == 0) {
		if (ev.pl_type != PMCLOG_TYPE_CALLCHAIN)
			continue;
		found = 1;
		assert_int_equal(ev.pl_u.pl_cc.pl_npc, n);
		for (uint32_t i = 0; i < n; i++) {
			assert_int_equal(ev.pl_u.pl_cc.pl_pc[i], 0x1000 + i);
			assert_int_equal(ev.pl_u.pl_cc.pl_pcflags[i],
			    flags[i] ? PMC_CC_F_USERSPACE : 0);
		}
	}
	assert_int_equal(ev.pl_state, PMCLOG_EOF);
	assert_true(found);
	pmclog_close(p);
	free(b);
}

static void test_kernel_then_user(void **state)
{
	uint8_t fl[130];
	for (int i = 0; i < 130; i++)
		fl[i] = i >= 7;                 /* 7 kernel pcs, then 123 user pcs */
	check_chain(state, fl, 130, 1);
	for (int i = 0; i < 64; i++)
		fl[i] = 1;                      /* user only */
	check_chain(state, fl, 64, 1);
	for (int i = 0; i < 5; i++)
		fl[i] = 0;                      /* kernel only */
	check_chain(state, fl, 5, 1);
}

static void test_interleaved(void **state)
{
	uint8_t fl[70];
	for (int i = 0; i < 70; i++)
		fl[i] = (i / 3) % 2;            /* k k k u u u k k k ... */
	check_chain(state, fl, 70, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_then_user),
		cmocka_unit_test(test_interleaved),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
