/*
 * test_output.c — the one output-file opener (tools/lib/outfile.c) and the
 * one JSON string writer (analysis/util/json.c), as a library user calls them:
 * temporary file renamed into place, nothing left by abort or a failed
 * write, "exists; use -f", RENAME_NOREPLACE against a file that appears
 * meanwhile, in-place with FILE.old, devices written as they are; JSON
 * escapes with known answers, invalid UTF-8 as \u00XX.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/testio.h"
#include "pmc.h"
#include "toolslib/outfile.h"
#include "util/json.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/pmc-test-output.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *at(const char *name)
{
	static char buf[4][128];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static int nfiles(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;
	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.' || (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."));
	if (d)
		closedir(d);
	return n;
}

/* The start of the file at path (a static buffer), NULL if it is absent. */
static char *slurp(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	tio_slurp_into(fd, buf, sizeof(buf));
	close(fd);
	return buf;
}

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

static void test_new_file_appears_at_commit(void **state)
{
	struct outfile of;
	(void)state;
	assert_int_equal(outfile__fopen(&of, at("a"), 0), 0);
	fputs("hello", of.fp);
	assert_int_equal(access(at("a"), F_OK), -1);   /* not there until complete */
	assert_int_equal(nfiles(), 1);                 /* the temporary file */
	assert_int_equal(outfile__commit(&of), 0);
	assert_string_equal(slurp(at("a")), "hello");
	assert_int_equal(nfiles(), 1);
	unlink(at("a"));
}

static void test_exists_needs_force(void **state)
{
	struct outfile of;
	(void)state;
	put(at("b"), "old");
	assert_int_equal(outfile__fopen(&of, at("b"), 0), -EEXIST);
	assert_non_null(strstr(pmc_errmsg(), "exists; use -f to overwrite it"));
	assert_int_equal(outfile__fopen(&of, at("b"), OUTFILE_FORCE), 0);
	fputs("new", of.fp);
	assert_string_equal(slurp(at("b")), "old");    /* replaced only at commit */
	assert_int_equal(outfile__commit(&of), 0);
	assert_string_equal(slurp(at("b")), "new");
	unlink(at("b"));
}

static void test_abort_leaves_nothing(void **state)
{
	struct outfile of;
	(void)state;
	assert_int_equal(outfile__fopen(&of, at("c"), 0), 0);
	fputs("partial", of.fp);
	outfile__abort(&of);
	assert_int_equal(nfiles(), 0);
}

static void test_never_replaces_a_file_that_appeared(void **state)
{
	struct outfile of;
	(void)state;
	assert_int_equal(outfile__fopen(&of, at("d"), 0), 0);
	put(at("d"), "theirs");
	fputs("ours", of.fp);
	assert_int_equal(outfile__commit(&of), -EEXIST);
	assert_string_equal(slurp(at("d")), "theirs");
	assert_int_equal(nfiles(), 1);
	unlink(at("d"));
}

static void test_inplace_backup(void **state)
{
	struct outfile of;
	(void)state;
	put(at("e.log"), "first");
	assert_int_equal(outfile__open(&of, at("e.log"), OUTFILE_INPLACE | OUTFILE_BACKUP,
	    0644), 0);
	assert_string_equal(slurp(at("e.log.old")), "first");
	assert_int_equal(write(of.fd, "second", 6), 6);
	assert_string_equal(slurp(at("e.log")), "second");   /* in place: readable at once */
	assert_int_equal(outfile__commit(&of), 0);
	/* abort puts the old file back */
	assert_int_equal(outfile__open(&of, at("e.log"), OUTFILE_INPLACE | OUTFILE_BACKUP,
	    0644), 0);
	outfile__abort(&of);
	assert_string_equal(slurp(at("e.log")), "second");
	unlink(at("e.log"));
	unlink(at("e.log.old"));
}

/* A 252-255-byte NAME that exists: "NAME.old" would pass NAME_MAX, so the
 * backup keeps NAME cut to NAME_MAX - 4 bytes (as the temporary names are)
 * and says where in o->backup; in place and through a temporary file. */
static void test_backup_of_a_long_name(void **state)
{
	(void)state;
	for (int len = 252; len <= 255; len++)
		for (int inplace = 0; inplace < 2; inplace++) {
			char name[512], want[512];
			struct outfile of;
			int n = snprintf(name, sizeof(name), "%s/", dir);
			memset(name + n, 'a' + inplace, (size_t)len);
			name[n + len] = '\0';
			snprintf(want, sizeof(want), "%.*s.old", n + (len > 251 ? 251 : len), name);
			put(name, "first");
			assert_int_equal(outfile__open(&of, name, OUTFILE_BACKUP |
			    (inplace ? OUTFILE_INPLACE : 0), 0644), 0);
			assert_non_null(of.backup);
			assert_string_equal(of.backup, want);
			assert_int_equal(write(of.fd, "second", 6), 6);
			assert_int_equal(outfile__commit(&of), 0);
			assert_string_equal(slurp(name), "second");
			assert_string_equal(slurp(want), "first");
			unlink(name);
			unlink(want);
		}
	assert_int_equal(nfiles(), 0);
}

static void test_devices_and_directories(void **state)
{
	struct outfile of;
	(void)state;
	assert_int_equal(outfile__open(&of, "/dev/null", 0, 0644), 0);
	assert_null(of.tmp);
	assert_int_equal(write(of.fd, "x", 1), 1);
	assert_int_equal(outfile__commit(&of), 0);
	assert_int_equal(outfile__open(&of, dir, OUTFILE_FORCE, 0644), -EISDIR);
	assert_non_null(strstr(pmc_errmsg(), "Is a directory"));
}

static char *json(const char *s)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	json__string(f, s);
	fclose(f);
	return buf;
}

/* outfile__fdstream: what is written arrives; a failed write's errno is kept
 * (in *err and from fclose); the descriptor is closed only if asked. */
static void test_fdstream(void **state)
{
	int p[2], err = 0;
	char buf[64] = "";
	FILE *f;
	(void)state;
	errno = 0;
	assert_null(outfile__fdstream(-1, 0, NULL));
	assert_int_equal(errno, EBADF);
	assert_int_equal(pipe(p), 0);
	assert_non_null(f = outfile__fdstream(p[1], 1, &err));
	fprintf(f, "hello %d\n", 42);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(fcntl(p[1], F_GETFD), -1);          /* closed with it */
	assert_int_equal(read(p[0], buf, sizeof(buf) - 1), 9);
	assert_string_equal(buf, "hello 42\n");
	assert_int_equal(err, 0);
	close(p[0]);

	assert_int_equal(pipe(p), 0);
	close(p[0]);                                         /* nobody reads */
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	assert_non_null(f = outfile__fdstream(p[1], 0, &err));
	fputs("lost\n", f);
	assert_int_not_equal(fflush(f), 0);
	assert_int_equal(err, EPIPE);
	errno = 0;
	open("/nonexistent/x", O_RDONLY);                    /* errno moves on */
	assert_int_equal(fclose(f), -1);
	assert_int_equal(errno, EPIPE);                      /* the write's, kept */
	assert_int_not_equal(fcntl(p[1], F_GETFD), -1);      /* still open */
	close(p[1]);
	signal(SIGPIPE, old);
}

static void test_json_string(void **state)
{
	(void)state;
	assert_string_equal(json("plain"), "\"plain\"");
	assert_string_equal(json(NULL), "\"\"");
	assert_string_equal(json("a\"b\\c\n\t\x01"), "\"a\\\"b\\\\c\\n\\t\\u0001\"");
	assert_string_equal(json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5"),
	    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5\"");          /* valid UTF-8 kept */
	assert_string_equal(json("b\xff\xfeusy"), "\"b\\u00ff\\u00feusy\"");
	assert_string_equal(json("a\xc2\x9b" "b\x9b"), "\"a\\u009bb\\u009b\"");   /* C1: U+009B, raw 0x9b */
	assert_string_equal(json("\xc3"), "\"\\u00c3\"");               /* cut sequence */
	assert_string_equal(json("\xc0\xaf"), "\"\\u00c0\\u00af\"");    /* overlong */
	assert_string_equal(json("\xed\xa0\x80"), "\"\\u00ed\\u00a0\\u0080\""); /* surrogate */
	assert_string_equal(json("\xf4\x90\x80\x80"), "\"\\u00f4\\u0090\\u0080\\u0080\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_file_appears_at_commit),
		cmocka_unit_test(test_exists_needs_force),
		cmocka_unit_test(test_abort_leaves_nothing),
		cmocka_unit_test(test_never_replaces_a_file_that_appeared),
		cmocka_unit_test(test_inplace_backup),
		cmocka_unit_test(test_devices_and_directories),
		cmocka_unit_test(test_fdstream),
		cmocka_unit_test(test_backup_of_a_long_name),
		cmocka_unit_test(test_json_string),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
