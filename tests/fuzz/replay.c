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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		long n;

		if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET) != 0 || !(buf = malloc((size_t)n + 1)) ||
		    fread(buf, 1, (size_t)n, f) != (size_t)n) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 1;
		}
		fclose(f);
		fprintf(stderr, "replay: %s (%ld bytes)\n", argv[i], n);
		LLVMFuzzerTestOneInput(buf, (size_t)n);
		free(buf);
	}
	return 0;
}
