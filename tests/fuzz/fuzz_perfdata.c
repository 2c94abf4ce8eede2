/*
 * fuzz_perfdata.c — libFuzzer harness for the perf.data reader
 * (analysis/perfdata/reader*.c), memory path (fuzz_perfdata_file.c: the fd
 * paths).  Built by `make fuzz` (docs/fuzzing.md); replayed by the normal suite.
 *
 * Each input is read six times: as given (file or pipe mode, by its
 * header), in file order (no FINISHED_ROUND queue), with the samples
 * through the direct path (perfdata__set_sample_sink, as profile__load
 * reads), through it with leaves only (perfdata__set_sample_leaf), and
 * both of those as the file holds the samples (perfdata__set_sample_
 * unordered: runs of samples in one loop, as a flat report reads), to the
 * end or the first error.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "perfdata/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every pc and flag handed out is read (ASan sees an over-read). */
static void sink(void *arg, const struct perfdata_sample *s)
{
	uint64_t *sum = arg;
	for (uint32_t i = 0; i < s->npc; i++)
		*sum += s->pcs[i] ^ s->flags[i];
	*sum += s->hash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmclog_ev ev;
	static uint64_t sum;
	for (int mode = 0; mode < 6; mode++) {
		struct perfdata *p = perfdata__open_mem(data, size);
		if (!p)
			return 0;
		perfdata__set_ordered(p, mode != 1);
		if (mode >= 2)
			(void)perfdata__set_sample_sink(p, sink, &sum);
		perfdata__set_sample_leaf(p, mode == 3 || mode == 5);
		perfdata__set_sample_unordered(p, mode >= 4);
		for (int n = 0; n < 100000 && perfdata__read(p, &ev) == 0; n++)
			;
		(void)pmc_errmsg();
		(void)perfdata__truncated(p);
		for (int i = 0; i < perfdata__nattrs(p); i++)
			(void)perfdata__attr(p, i);
		perfdata__close(p);
	}
	return 0;
}
