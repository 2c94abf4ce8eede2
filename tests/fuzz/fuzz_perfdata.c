/*
 * fuzz_perfdata.c — libFuzzer harness for the perf.data reader
 * (analysis/perfdata/reader*.c), memory path (fuzz_perfdata_file.c: the fd
 * paths).  Built by `make fuzz` (docs/fuzzing.md); replayed by the normal suite.
 *
 * Each input is read twice: as given (file or pipe mode, by its header), and
 * in file order (no FINISHED_ROUND queue), to the end or the first error.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "perfdata/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmclog_ev ev;
	for (int ordered = 1; ordered >= 0; ordered--) {
		struct perfdata *p = perfdata__open_mem(data, size);
		if (!p)
			return 0;
		perfdata__set_ordered(p, ordered);
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
