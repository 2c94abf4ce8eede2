/*
 * replay.c — a main() for the fuzz harnesses outside libFuzzer: runs
 * LLVMFuzzerTestOneInput once on each file named on the command line.  The
 * normal build links every tests/fuzz/fuzz_*.c with it (build/fuzz-replay/),
 * and tests/integration/fuzz_replay.sh replays the committed corpora and
 * every crash the fuzzers found (tests/fuzz/regress/), with gcc and under
 * ASan+UBSan in `make check-sanitize`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/testio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		size_t n;
		unsigned char *buf = tio_slurp(argv[i], &n);

		if (!buf) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 1;
		}
		fprintf(stderr, "replay: %s (%zu bytes)\n", argv[i], n);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	return 0;
}
