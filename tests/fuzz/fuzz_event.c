/*
 * fuzz_event.c — libFuzzer harness for the event-spec parser (lib/event):
 * what `-e` and pmc_allocate(3) accept.  The input is split as an -e list
 * and each spec is parsed and resolved against this machine's event tables
 * (sysfs, tracefs, libpfm4).  Built by `make fuzz` (docs/fuzzing.md);
 * replayed by the normal suite.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "event/event.h"
#include "toolslib/evlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	char **specs = NULL;
	int n = 0;
	struct pmc_evspec ev;

	if (size > 4096)
		return 0;
	if (!(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	(void)pmc__event_parse(text, &ev);
	if (evlist__split(text, &specs, &n) == 0) {
		/* as the tools do: the first spec that does not parse ends the
		 * list.  A tracepoint glob ("*:*::o") expands to every tracepoint
		 * of the machine (~2,300 here), and parsing each bad one anyway
		 * (a "did you mean" search apiece) took 21 s under ASan: libFuzzer
		 * called it a timeout, where the tools stop at the first. */
		for (int i = 0; i < n; i++)
			if (pmc__event_parse(specs[i], &ev) < 0)
				break;
		evlist__free(specs, n);
	}
	free(text);
	return 0;
}
