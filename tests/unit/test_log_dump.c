/*
 * test_log_dump.c — `pmc dump` (tools/pmc/cmd_dump.c, compiled in here with
 * the CLI helpers): text and JSON output of every record type, the
 * truncated-log and bad-magic messages and exit statuses, usage errors.
 * Each run happens in a child with stdout/stderr sent to files.
 */
#include <fcntl.h>
#include <sys/wait.h>

#include "test_log_util.h"
#include "../../tools/pmc/cli.c"
#include "../../tools/pmc/cmd_dump.c"

struct run {
	int status;
	char out[65536];
	char err[4096];
};

/* Run `pmc dump ARGS...` with stdin from in_path (may be NULL). */
static void run_dump(struct run *r, const char *in_path, const char *const *args)
{
	FILE *o = tmpfile(), *e = tmpfile();
	char *argv[16];
	int argc = 0, st;
	pid_t pid;

	argv[argc++] = "dump";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (in_path) {
			int fd = open(in_path, O_RDONLY);
			dup2(fd, 0);
		}
		dup2(fileno(o), 1);
		dup2(fileno(e), 2);
		cli_prog = "pmc dump";
		st = cmd_dump(argc, argv);
		fflush(stdout);
		_exit(st);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	r->status = WEXITSTATUS(st);
	tio_slurp_into(fileno(o), r->out, sizeof(r->out));
	tio_slurp_into(fileno(e), r->err, sizeof(r->err));
	fclose(o);
	fclose(e);
}

static char g_path[64], g_cut[64], g_bad[64];
static size_t g_len, g_last_end;

static int setup(void **state)
{
	unsigned char *b = tl_make_log(0, &g_len, -1);
	int fd;
	size_t off = 8, prev = 8;

	strcpy(g_path, "/tmp/pmc-test-dump-XXXXXX");
	fd = mkstemp(g_path);
	assert_int_equal(write(fd, b, g_len), (ssize_t)g_len);
	close(fd);
	/* cut 5 bytes into the 7th record */
	for (int i = 0; i < 7; i++) {
		prev = off;
		off += PMCLOG_HDR_LEN(pmclog__ld32(b + off));
	}
	g_last_end = prev;
	strcpy(g_cut, "/tmp/pmc-test-dumpcut-XXXXXX");
	fd = mkstemp(g_cut);
	assert_int_equal(write(fd, b, prev + 5), (ssize_t)(prev + 5));
	close(fd);
	strcpy(g_bad, "/tmp/pmc-test-dumpbad-XXXXXX");
	fd = mkstemp(g_bad);
	assert_int_equal(write(fd, "#!/bin/sh\necho hi\n", 18), 18);
	close(fd);
	free(b);
	return 0;
}

static int teardown(void **state)
{
	unlink(g_path);
	unlink(g_cut);
	unlink(g_bad);
	return 0;
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_text(void **state)
{
	static struct run r;
	const char *args[] = { "-i", g_path, NULL };

	run_dump(&r, NULL, args);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_int_equal(count_lines(r.out), TL_NTYPES);
	assert_non_null(strstr(r.out, "         8 "));
	assert_non_null(strstr(r.out, " HEADER format=\"3.1\""));
	assert_non_null(strstr(r.out, "cmdline=\"pmc record -o x -- prog\""));
	assert_non_null(strstr(r.out, " PMCALLOCATE pmcid=0x11 event=\"cpu-clock:u\""));
	assert_non_null(strstr(r.out, " CALLCHAIN pmcid=0x11 pid=1234 tid=1235 cpu=3 mode=\"kernel\" "
	    "period=100000 npc=4 chaindef="));
	assert_non_null(strstr(r.out, " chain=[k:0xffffffff81000010 k:0xffffffff81000020 u:0x401000 u:0x402000]\n"));
	assert_non_null(strstr(r.out, " MAP_IN pid=1234 start=0x400000 len=0x2000 pgoff=0x1000 prot=0x5 "
	    "mflags=0x2 buildid=\"0102030405060708090a0b0c0d0e0f1011121314\" path=\"/usr/bin/prog\""));
	assert_non_null(strstr(r.out, " USERDATA userdata=0xdeadbeef"));
	assert_non_null(strstr(r.out, " DROPNOTIFY count=17 pmcid=0x11 cpu=2 reason=\"ring-full\""));
	assert_non_null(strstr(r.out, " PROCFORK ppid=1234 pid=1300 ptid=1235 tid=1300"));
	assert_non_null(strstr(r.out, " CLOSELOG\n"));
}

static void test_json_stdin(void **state)
{
	static struct run r;
	const char *args[] = { "--json", NULL };
	char *line;

	run_dump(&r, g_path, args);
	assert_int_equal(r.status, 0);
	assert_int_equal(count_lines(r.out), TL_NTYPES);
	line = strtok(r.out, "\n");
	assert_true(strncmp(line, "{\"offset\":8,\"time\":", 19) == 0);
	for (; line; line = strtok(NULL, "\n")) {
		assert_int_equal(line[0], '{');
		assert_int_equal(line[strlen(line) - 1], '}');
		assert_non_null(strstr(line, "\"type\":\""));
		if (strstr(line, "\"CALLCHAIN\""))
			assert_non_null(strstr(line, "\"chain\":[{\"pc\":\"0xffffffff81000010\",\"user\":false},"));
	}
}

static void test_truncated(void **state)
{
	static struct run r;
	const char *args[] = { "-i", g_cut, NULL };
	char want[256];

	run_dump(&r, NULL, args);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.out), 6);
	snprintf(want, sizeof(want), "pmc dump: %s: log truncated at byte %zu (last complete record at %zu)\n",
	    g_cut, g_last_end + 5, g_last_end);
	assert_string_equal(r.err, want);
}

static void test_bad_magic(void **state)
{
	static struct run r;
	const char *args[] = { "-i", g_bad, NULL };
	char want[256];

	run_dump(&r, NULL, args);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	snprintf(want, sizeof(want), "pmc dump: %s: not a pmc log (bad magic)\n", g_bad);
	assert_string_equal(r.err, want);
}

static void test_usage(void **state)
{
	static struct run r;
	const char *bad[] = { "--bogus", NULL };
	const char *help[] = { "-h", NULL };
	const char *missing[] = { "-i", NULL };
	const char *none[] = { "-i", "/nonexistent/x.log", NULL };

	run_dump(&r, NULL, bad);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "pmc dump: unknown option '--bogus'"));
	run_dump(&r, NULL, missing);
	assert_int_equal(r.status, 2);
	run_dump(&r, NULL, help);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: pmc dump"));
	run_dump(&r, NULL, none);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "cannot open"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json_stdin),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_magic),
		cmocka_unit_test(test_usage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
