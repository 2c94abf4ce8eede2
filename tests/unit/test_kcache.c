/*
 * test_kcache.c — the kernel-symbol cache (analysis/symbols/kcache.c, issue 11
 * item 1): a store/load round trip in a private directory, then every way a
 * file can be wrong — the 96-byte file whose size check wrapped, counts
 * that overflow, name offsets outside the names, unsorted entries, another
 * kernel's key — is refused as a whole, and an edited symbol fails its
 * entry's seal (the caller then drops the file); directories that
 * are symlinks, another user's, or open to others are refused, and files
 * are written 0600; the loaded image is the table itself (entries in
 * order, names in place); a store removes the files of older formats.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/testio.h"
#include "symbols/kcache.h"

static char dir[] = "/tmp/test_kcache_XXXXXX";

struct sym { uint64_t start, size; const char *name, *mod; };
static const struct sym syms[3] = {
	{ 0xffffffff81000000ull, 0x100, "_stext", NULL },
	{ 0xffffffff81000100ull, 0x80, "read_zero", NULL },
	{ 0xffffffffc0001000ull, 0x40, "ath_probe", "ath9k" },
};

static void get(void *arg, size_t i, uint64_t *start, uint64_t *size, const char **name,
    const char **mod)
{
	(void)arg;
	*start = syms[i].start;
	*size = syms[i].size;
	*name = syms[i].name;
	*mod = syms[i].mod;
}

/* img holds exactly syms[], in place */
static void check_img(struct kcache_img *img)
{
	assert_int_equal(img->n, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_true(img->ent[i].start == syms[i].start && img->ent[i].size == syms[i].size);
		assert_string_equal(img->names + img->ent[i].name, syms[i].name);
		if (syms[i].mod)
			assert_string_equal(img->names + img->ent[i].mod, syms[i].mod);
		else
			assert_true(img->ent[i].mod == KCACHE_NOMOD);
		assert_true(kcache__entry_ok(img, i));
	}
}

static const struct kcache_key key = { { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20 }, 20, 0x1234 };

/* The cache file of key, read whole. */
static unsigned char *read_cache(size_t *len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/pmc/ksyms5-0102030405060708090a0b0c0d0e0f1011121314-"
	    "0000000000001234", dir);
	unsigned char *b = tio_slurp(path, len);
	assert_non_null(b);
	return b;
}

static int parse(const unsigned char *b, size_t len)
{
	struct kcache_img img;
	unsigned char *c = malloc(len ? len : 1);   /* exact size: ASan sees overreads */
	memcpy(c, b, len);
	memset(&img, 0xa5, sizeof(img));
	int rc = kcache__parse(c, len, &key, &img);
	/* an entry is checked when it is used: a file with a bad one is
	 * refused then (the report drops the cache for /proc/kallsyms) */
	for (size_t i = 0; rc == 0 && i < img.n; i++)
		if (!kcache__entry_ok(&img, i))
			rc = -1;
	if (rc == 0)
		check_img(&img);
	else if (img.n == 0)                       /* nothing handed out when refused */
		assert_true(!img.ent && !img.names && !img.map);
	free(c);
	return rc;
}

static void test_roundtrip(void **state)
{
	struct kcache_img img;
	struct stat sb;
	char p[4096];
	(void)state;
	assert_int_equal(kcache__store(&key, 3, get, NULL), 0);
	snprintf(p, sizeof(p), "%s/pmc", dir);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	size_t fl;
	free(read_cache(&fl));
	snprintf(p, sizeof(p), "%s/pmc/ksyms5-0102030405060708090a0b0c0d0e0f1011121314-"
	    "0000000000001234", dir);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(kcache__load(&key, &img), 0);
	check_img(&img);
	/* the image is the file's bytes, not a copy: entries right after the header */
	assert_ptr_equal((const void *)img.ent, (const char *)img.map + 64);
	assert_int_equal(img.maplen, fl);
	kcache__unload(&img);
	assert_true(img.n == 0 && !img.map);
	kcache__unload(&img);                      /* an empty one is fine */
	/* another kernel (build id or digest): not used */
	struct kcache_key other = key;
	other.digest ^= 1;
	assert_int_not_equal(kcache__load(&other, &img), 0);
	assert_int_equal(img.n, 0);
}

static void test_crafted(void **state)
{
	size_t len;
	unsigned char *b = read_cache(&len);
	unsigned char w[96];
	uint64_t v;
	(void)state;
	assert_int_equal(parse(b, len), 0);
	/* the 96-byte file whose "64 + n*32 + nl == size" wraps */
	memset(w, 'A', sizeof(w));
	memcpy(w, b, 64);
	v = 0x0800000000000001ull;   /* n*32 wraps to 32, nl 0 */
	memcpy(w + 40, &v, 8);
	v = 0;
	memcpy(w + 48, &v, 8);
	w[95] = 0;
	assert_int_not_equal(parse(w, sizeof(w)), 0);
	v = 0x0800000000000000ull;   /* n*32 wraps to 0, nl 32 */
	memcpy(w + 40, &v, 8);
	v = 32;
	memcpy(w + 48, &v, 8);
	assert_int_not_equal(parse(w, sizeof(w)), 0);
	/* truncated: every length short of the whole */
	for (size_t l = 0; l < len; l += l < 128 ? 1 : 37)
		assert_int_not_equal(parse(b, l), 0);
	/* a name offset past the names */
	unsigned char *c = malloc(len);
	memcpy(c, b, len);
	uint32_t o = (uint32_t)(len - 64 - 3 * 24);   /* one past the last name byte */
	memcpy(c + 64 + 32 + 16, &o, 4);
	assert_int_not_equal(parse(c, len), 0);
	o = 0xfffffffeu;
	memcpy(c + 64 + 32 + 16, &o, 4);
	assert_int_not_equal(parse(c, len), 0);
	/* a module offset past the names (~0 means none: not this) */
	memcpy(c, b, len);
	memcpy(c + 64 + 2 * 32 + 20, &o, 4);
	assert_int_not_equal(parse(c, len), 0);
	/* unsorted entries */
	memcpy(c, b, len);
	v = 0;
	memcpy(c + 64 + 32, &v, 8);
	assert_int_not_equal(parse(c, len), 0);
	/* an entry whose end wraps */
	memcpy(c, b, len);
	v = UINT64_MAX;
	memcpy(c + 64 + 2 * 32 + 8, &v, 8);
	assert_int_not_equal(parse(c, len), 0);
	/* an image not at an 8-byte boundary: refused, never read misaligned */
	unsigned char *u = malloc(len + 8);
	memcpy(u + 4, b, len);
	struct kcache_img img;
	assert_int_not_equal(kcache__parse(u + 4, len, &key, &img), 0);
	free(u);
	/* names not NUL-terminated at the end */
	memcpy(c, b, len);
	c[len - 1] = 'x';
	assert_int_not_equal(parse(c, len), 0);
	/* an edited name, size or start: that entry fails its seal, the
	 * others keep theirs (no silent renames: symbols.c drops the file) */
	for (int k = 0; k < 3; k++) {
		memcpy(c, b, len);
		if (k == 0)
			memcpy(memmem(c, len, "read_zero", 9), "evil_zero", 9);
		else
			c[64 + 32 + (k == 1 ? 8 : 0)] ^= 1;   /* entry 1's size, then start */
		struct kcache_img im;
		assert_int_equal(kcache__parse(c, len, &key, &im), 0);
		assert_false(kcache__entry_ok(&im, 1));
		assert_true(kcache__entry_ok(&im, 0) && kcache__entry_ok(&im, 2));
	}
	/* a seal made for the edit passes (the seal is no signature: see kcache.c) */
	uint64_t seal = kcache__seal(syms[1].start, syms[1].size, "evil_zero", NULL);
	memcpy(c, b, len);
	memcpy(memmem(c, len, "read_zero", 9), "evil_zero", 9);
	memcpy(c + 64 + 32 + 24, &seal, 8);
	struct kcache_img im;
	assert_int_equal(kcache__parse(c, len, &key, &im), 0);
	assert_true(kcache__entry_ok(&im, 1));
	/* the header's reserved word (version 4's digest) must be 0 */
	memcpy(c, b, len);
	c[60] = 1;
	assert_int_not_equal(parse(c, len), 0);
	/* another kernel's build id */
	memcpy(c, b, len);
	c[12] ^= 0xff;
	assert_int_not_equal(parse(c, len), 0);
	free(c);
	free(b);
}

/* Files of older formats (version 1's name, "ksyms-", "ksyms4-") are
 * removed by the next store; this format's, another kernel's of this
 * format and the debug-info cache's files stay. */
static void test_old_formats(void **state)
{
	const char *old[] = { "kallsyms-0123-4567", "ksyms-0102-1234", "ksyms4-0102-1234" };
	const char *keep[] = { "ksyms5-ffff-0001", "debug-0102" };
	char p[4096];
	struct stat sb;
	(void)state;
	for (size_t i = 0; i < 5; i++) {
		snprintf(p, sizeof(p), "%s/pmc/%s", dir, i < 3 ? old[i] : keep[i - 3]);
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fputs("x", f);
		fclose(f);
	}
	assert_int_equal(kcache__store(&key, 3, get, NULL), 0);
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/pmc/%s", dir, old[i]);
		assert_int_not_equal(stat(p, &sb), 0);
	}
	for (size_t i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/pmc/%s", dir, keep[i]);
		assert_int_equal(stat(p, &sb), 0);
		unlink(p);
	}
	size_t l;
	free(read_cache(&l));
}

static void test_directories(void **state)
{
	char p[4096], x[4096];
	const char *why;
	struct stat sb;
	int fd;
	(void)state;
	/* a symlink in place of the directory */
	snprintf(x, sizeof(x), "%s/x1", dir);
	snprintf(p, sizeof(p), "%s/x1/pmc", dir);
	mkdir(x, 0700);
	assert_int_equal(symlink(dir, p), 0);
	setenv("XDG_CACHE_HOME", x, 1);
	assert_true((fd = kcache__dir(1, &why)) < 0);
	assert_non_null(why);
	/* writable by others: refused, left as it is, and said with the path */
	snprintf(x, sizeof(x), "%s/x2", dir);
	snprintf(p, sizeof(p), "%s/x2/pmc", dir);
	mkdir(x, 0700);
	mkdir(p, 0757);
	chmod(p, 0757);
	setenv("XDG_CACHE_HOME", x, 1);
	assert_true(kcache__dir(1, &why) < 0);
	assert_non_null(strstr(why, "0700"));
	assert_int_not_equal(kcache__store(&key, 3, get, NULL), 0);
	assert_non_null(kcache__refused());
	assert_non_null(strstr(kcache__refused(), p));
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0757);
	/* only readable by others (older pmc made it 0755): narrowed and used */
	chmod(p, 0755);
	assert_true((fd = kcache__dir(1, &why)) >= 0);
	close(fd);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	assert_int_equal(kcache__store(&key, 3, get, NULL), 0);
	/* another user's (root can chown; others skip this part) */
	if (geteuid() == 0) {
		chmod(p, 0700);
		assert_int_equal(chown(p, 65534, 65534), 0);
		assert_true(kcache__dir(1, &why) < 0);
		assert_non_null(strstr(why, "another user"));
	}
	snprintf(x, sizeof(x), "%s", dir);
	setenv("XDG_CACHE_HOME", x, 1);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	unsetenv("PMC_NO_KSYM_CACHE");
	return setenv("XDG_CACHE_HOME", dir, 1);
}

static int teardown(void **state)
{
	char cmd[4200];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_crafted),
		cmocka_unit_test(test_old_formats),
		cmocka_unit_test(test_directories),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
