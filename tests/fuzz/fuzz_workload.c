/*
 * fuzz_workload.c — libFuzzer harness for the simulator's workload-file
 * parser (lib/backend/sim/workload.c): the text a user hands to
 * `--backend sim --workload FILE`.  Every input is parsed; a parsed
 * workload is queried the way the simulator queries it.  Built by
 * `make fuzz` (docs/fuzzing.md); replayed by the normal suite.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "backend/sim/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct simwl *w = NULL;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (simwl__parse(text, "fuzz.wl", &w) == 0) {
		(void)simwl__map_len(w);
		for (int f = 0; f < 8; f++)
			(void)simwl__func_at(w, simwl__op_addr(w, f, 0));
		(void)simwl__find_func(w, "main");
		(void)simwl__find_proc(w, "main");
		simwl__free(w);
	} else {
		(void)strlen(pmc_errmsg());
	}
	free(text);
	return 0;
}
