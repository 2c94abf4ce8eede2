/*
 * fuzz_time.c — libFuzzer harness for the --time parser (analysis/profile/profile.c
 * profile__parse_time: perf's seconds and percent forms), what a user hands
 * report, script, annotate and diff.  An accepted range is matched against a
 * recording's span at its edges, where the percent arithmetic rounds.  Built
 * by `make fuzz` (docs/fuzzing.md); replayed by the normal suite.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct profile rec;
	struct prof_filter flt;
	char *text;

	if (size > 4096 || !(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	profile__filter_init(&flt);
	if (profile__parse_time(&flt, text) == 0) {
		if (flt.time.n < 1 || flt.time.n > PROF_TIME_MAX)
			abort();
		rec.first_time = 21514920222000ull;
		rec.last_time = rec.first_time + 516690000ull;
		for (uint64_t t = rec.first_time - 1; t <= rec.last_time + 1;
		     t += (rec.last_time - rec.first_time) / 7)
			(void)profile__time_match(&rec, &flt, t);
		(void)profile__time_match(&rec, &flt, UINT64_MAX);
	}
	free(text);
	return 0;
}
