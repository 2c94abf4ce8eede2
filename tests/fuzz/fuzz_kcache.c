/*
 * fuzz_kcache.c — libFuzzer harness for the kernel-symbol cache loader
 * (analysis/symbols/kcache.c: kcache__parse, the validation every cache file goes
 * through before one of its bytes is used, and kcache__entry_valid, every
 * entry's before its fields are).  Links analysis/symbols/kcache.c alone
 * (it needs only libc):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
 *       -Ianalysis tests/fuzz/fuzz_kcache.c analysis/symbols/kcache.c -o build/fuzz_kcache
 *   mkdir -p build/fuzz-kcache && build/fuzz_kcache build/fuzz-kcache
 *
 * The key is taken from the input's own header, so the fuzzer gets past
 * the key check to the size, offset and order checks.  A parsed image is
 * then read the way a report may read it: every entry checked
 * (kcache__entry_valid; its seal: kcache__entry_ok), every valid entry's name and module string to its NUL; when the
 * first byte is odd, the entries are resealed first so that they pass.  Seeds: tests/fuzz/corpus/kcache
 * (small real files of the current format; a real one is
 * $XDG_CACHE_HOME/pmc/ksyms5-*, prefixed with a byte 0 or 1).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/kcache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kcache_key key;
	struct kcache_img img;
	unsigned char *buf;
	size_t sum = 0;

	if (size < 1)
		return 0;
	/* an exact-size heap copy: reads past the end are caught */
	if (!(buf = malloc(size - 1 ? size - 1 : 1)))
		return 0;
	memcpy(buf, data + 1, size - 1);
	size--;
	memset(&key, 0, sizeof(key));
	key.bidlen = 20;
	if (size >= 40) {
		uint32_t bl;
		memcpy(&bl, buf + 8, 4);
		key.bidlen = bl >= 1 && bl <= 20 ? bl : 20;
		memcpy(key.bid, buf + 12, key.bidlen);
		memcpy(&key.digest, buf + 32, 8);
	}
	if (kcache__parse(buf, size, &key, &img) == 0)
		for (size_t i = 0; i < img.n; i++) {
			struct kcache_ent *e = (struct kcache_ent *)&img.ent[i];
			if (!kcache__entry_valid(&img, i))
				continue;
			const char *mod = e->mod != KCACHE_NOMOD ? img.names + e->mod : NULL;
			if (data[0] & 1)
				e->seal = kcache__seal(e->start, e->size, img.names + e->name, mod);
			if (kcache__entry_ok(&img, i))
				sum += (size_t)(e->start + e->size) + strlen(img.names + e->name) +
				    (mod ? strlen(mod) : 0);
		}
	free(buf);
	return sum == 1 ? 1 : 0;   /* keep sum alive; libFuzzer ignores the value */
}
