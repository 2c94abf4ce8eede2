/*
 * fuzz_pmclog.c — libFuzzer harness for the log reader (lib/log/reader.c).
 * Feeds the input to a memory parser in chunks whose sizes come from the
 * first input byte, reads until EOF/ERROR, and exercises the accessors.
 * Built by `make fuzz` (docs/fuzzing.md); replayed by the normal suite.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmclog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmclog_ev ev;
	void *p = pmclog_open(PMCLOG_FD_NONE);
	size_t chunk, off = 0;
	off_t at, last;
	int guard = 0;

	if (!p)
		return 0;
	chunk = size ? (size_t)data[0] * 7 + 1 : 1;
	pmclog_set_extensions(p, size && (data[0] & 1));  /* CHAIN, COMM ... too */
	pmclog_set_stacks(p, !(size & 1));       /* stack frames read, or skipped */
	for (;;) {
		if (pmclog_read(p, &ev) == 0) {
			/* touch what the reader hands out */
			if (ev.pl_type == PMCLOG_TYPE_PMCALLOCATE)
				(void)strlen(ev.pl_u.pl_a.pl_evname);
			if (ev.pl_type == PMCLOG_TYPE_HEADER)
				(void)strlen(ev.pl_u.pl_h.pl_cmdline);
			/* a sample (whole, defining its chain, or an interned chain's) or a CHAIN */
			if ((ev.pl_type == PMCLOG_TYPE_CALLCHAIN || ev.pl_type == PMCLOG_TYPE_CHAIN) &&
			    (ev.pl_u.pl_cc.pl_npc == 0 || ev.pl_u.pl_cc.pl_npc > PMC_CALLCHAIN_DEPTH_MAX))
				abort();
			if (ev.pl_len > 0)
				(void)((volatile const uint8_t *)ev.pl_data)[ev.pl_len - 1];
			if (ev.pl_type == PMCLOG_TYPE_CALLCHAIN && ev.pl_u.pl_cc.pl_ustack_len)
				(void)((volatile const uint8_t *)ev.pl_u.pl_cc.pl_ustack)
				    [ev.pl_u.pl_cc.pl_ustack_len - 1];
			continue;
		}
		if (ev.pl_state != PMCLOG_REQUIRE_DATA)
			break;
		if (off < size) {
			size_t n = size - off < chunk ? size - off : chunk;
			pmclog_feed(p, (char *)data + off, (int)n);
			off += n;
		} else {
			pmclog_feed(p, NULL, 0);
		}
		if (++guard > 1000000)
			abort();        /* no progress: a bug */
	}
	(void)pmclog_truncated(p, &at, &last);
	(void)pmclog_errmsg(p);
	(void)pmclog_header(p);
	pmclog_close(p);
	return 0;
}
