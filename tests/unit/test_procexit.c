/*
 * test_procexit.c — PMC_F_LOG_PROCEXIT through the public API: every process
 * of a followed tree gets its exit counts in the log, and they add up to the
 * PMC's total.  The kernel sends no counts for the task that holds the
 * original (uncloned) context when it exits — the root, or a child it was
 * swapped with at a context switch; the library fills that one row in
 * (lib/log's exit watch) with the total less every other record, threads'
 * included, so a library user reads what `pmc stat --per-process` prints.
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
#include <sys/wait.h>
#include <unistd.h>

#include "pmc.h"
#include "pmclog.h"

struct proc { pid_t pid; int exits; uint64_t value; };

static struct proc *proc_of(struct proc *t, int *n, pid_t pid)
{
	for (int i = 0; i < *n; i++)
		if (t[i].pid == pid)
			return &t[i];
	memset(&t[*n], 0, sizeof(t[*n]));
	t[*n].pid = pid;
	return &t[(*n)++];
}

/* tests/helpers/forktree: a thread touches 300 pages, 3 children 200, 400
 * and 600 one after the other, the root 200; its lines to /dev/null. */
static pid_t spawn_forktree(void)
{
	const char *b = getenv("PMC_BUILD");
	char path[4096];
	char *argv[] = { path, "3", "200", "300", NULL };
	int out = dup(1), null = open("/dev/null", O_WRONLY);
	pid_t child;

	snprintf(path, sizeof(path), "%s/helpers/forktree", b ? b : "build");
	assert_true(out >= 0 && null >= 0);
	dup2(null, 1);
	if (access(path, X_OK) != 0 || pmc_spawn(argv, &child) < 0)
		child = -1;
	dup2(out, 1);
	close(out);
	close(null);
	return child;
}

static void test_every_process_has_its_exit_counts(void **s)
{
	char path[] = "/tmp/pmc-procexit-XXXXXX";
	struct proc procs[16];
	struct pmclog_ev ev;
	pmc_value_t total = 0;
	uint64_t sum = 0;
	int fd, st, n = 0;
	pmc_id_t id;
	pid_t root;
	void *lp;
	(void)s;

	if (pmc_init() < 0 || strcmp(pmc_backend_name(), "linux") != 0)
		skip();
	if ((root = spawn_forktree()) < 0)
		skip();              /* the helper is not built */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(pmc_allocate("page-faults", PMC_MODE_TC,
	    PMC_F_DESCENDANTS | PMC_F_LOG_PROCEXIT, PMC_CPU_ANY, &id, 0), 0);
	assert_int_equal(pmc_configure_logfile(fd), 0);
	assert_int_equal(pmc_attach(id, root), 0);
	assert_int_equal(pmc_start(id), 0);
	assert_int_equal(pmc_spawn_go(root), 0);
	assert_int_equal(pmc_spawn_wait(root, &st), 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(pmc_stop(id), 0);
	assert_int_equal(pmc_read(id, &total), 0);
	assert_int_equal(pmc_close_logfile(), 0);
	assert_int_equal(pmc_release(id), 0);

	lseek(fd, 0, SEEK_SET);
	lp = pmclog_open(fd);
	assert_non_null(lp);
	pmclog_set_extensions(lp, 1);
	proc_of(procs, &n, root);
	while (pmclog_read(lp, &ev) == 0) {
		if (ev.pl_type == PMCLOG_TYPE_PROCFORK && n < 16) {
			proc_of(procs, &n, ev.pl_u.pl_f.pl_newpid);
		} else if (ev.pl_type == PMCLOG_TYPE_PROCEXIT && n < 16 &&
		    ev.pl_u.pl_e.pl_pmcid == id) {
			struct proc *p = proc_of(procs, &n, (pid_t)ev.pl_u.pl_e.pl_pid);
			p->exits++;
			p->value += ev.pl_u.pl_e.pl_value;
			sum += ev.pl_u.pl_e.pl_value;
		}
	}
	pmclog_close(lp);
	close(fd);

	assert_int_equal(n, 4);
	for (int i = 0; i < n; i++) {
		if (!procs[i].exits)
			fail_msg("process %d (%s) has no exit counts", (int)procs[i].pid,
			    procs[i].pid == root ? "the root" : "a child");
		/* the root and its thread touched 500 pages, each child >= 200 */
		assert_true(procs[i].value >= (procs[i].pid == root ? 500u : 200u));
	}
	/* the thread's count is in its own record, not twice in the root's */
	assert_int_equal(sum, total);
	pmc_fini();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_process_has_its_exit_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
