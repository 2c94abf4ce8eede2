/*
 * fuzz_httpd.c — libFuzzer harness for what a network client hands
 * `pmc exporter`: an HTTP request head (analysis/serve/httpd.c's
 * httpd__parse_head, bounded as the server bounds it), the Accept
 * header's content negotiation (analysis/serve/exporter.c) and the query's
 * parameters (httpd__query: /debug/pprof/profile's seconds and hz).  Built by `make fuzz`
 * (docs/fuzzing.md); replayed by the normal suite.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "serve/exporter.h"
#include "serve/httpd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct httpd_head h;
	char *text;

	if (size > HTTPD_MAX_REQUEST)
		return 0;
	if (!(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (httpd__parse_head(text, &h) == 0) {
		if (strlen(h.path) >= sizeof(h.path) || !h.method || !h.version)
			abort();
		(void)exporter__negotiate(h.accept);
		if (!h.query)
			abort();
		char val[64];
		const char *names[] = { "seconds", "hz", "" };
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (httpd__query(h.query, names[i], val, sizeof(val)) == 1 &&
			    strlen(val) >= sizeof(val))
				abort();
	}
	free(text);
	return 0;
}
