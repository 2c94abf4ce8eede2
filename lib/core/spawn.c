/*
 * spawn.c — pmc_spawn(3) and friends: run a command as a counting target.
 *
 * The child is created stopped-before-exec by the backend; counters attached
 * meanwhile get enable-on-exec, so neither the tool's fork nor its exec is
 * counted — only the command.
 */
#include <errno.h>
#include <stdlib.h>

#include "core/internal.h"
#include "common/error.h"

#define MAX_PENDING 64
static pid_t pending[MAX_PENDING];

int pmc__spawn_pending(pid_t pid)
{
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending[i] == pid && pid > 0)
			return 1;
	return 0;
}

static void set_pending(pid_t pid, int on)
{
	for (int i = 0; i < MAX_PENDING; i++) {
		if (on && pending[i] == 0) {
			pending[i] = pid;
			return;
		}
		if (!on && pending[i] == pid)
			pending[i] = 0;
	}
}

int pmc_spawn(char *const argv[], pid_t *pid)
{
	int rc;

	pmc__clear_reason();
	pthread_mutex_lock(&pmc__g.lock);
	if (!pmc__g.initialized) {
		pmc__set_reason("pmc_init() has not been called");
		rc = -ENXIO;
	} else if (!argv || !argv[0]) {
		pmc__set_reason("no command given");
		rc = -EINVAL;
	} else if ((rc = pmc__g.be->spawn(argv, pid)) == 0) {
		set_pending(*pid, 1);
	}
	pthread_mutex_unlock(&pmc__g.lock);
	return pmc__ret(rc);
}

int pmc_spawn_go(pid_t pid)
{
	int rc;

	pmc__clear_reason();
	pthread_mutex_lock(&pmc__g.lock);
	rc = !pmc__g.initialized ? -ENXIO : pmc__spawn_pending(pid) ?
	    pmc__spawn_release(pid) : 0;
	if (rc == 0)
		rc = pmc__g.be->spawn_go(pid);
	set_pending(pid, 0);
	pthread_mutex_unlock(&pmc__g.lock);
	return pmc__ret(rc);
}

/* Not under the lock: waiting may take as long as the command runs, and
 * another thread may want to read counters meanwhile (interval output). */
int pmc_spawn_wait_timeout(pid_t pid, int *status, int timeout_ms)
{
	pmc__clear_reason();
	if (!pmc__g.initialized)
		return pmc__ret(-ENXIO);
	return pmc__ret(pmc__g.be->spawn_wait(pid, status, timeout_ms));
}

int pmc_spawn_wait(pid_t pid, int *status)
{
	return pmc_spawn_wait_timeout(pid, status, -1);
}

int pmc_spawn_kill(pid_t pid, int sig)
{
	int rc;

	pmc__clear_reason();
	pthread_mutex_lock(&pmc__g.lock);
	rc = pmc__g.initialized ? pmc__g.be->spawn_kill(pid, sig) : -ENXIO;
	if (rc == 0)
		set_pending(pid, 0);
	pthread_mutex_unlock(&pmc__g.lock);
	return pmc__ret(rc);
}

/* Does this process or thread exist (for the backend in use)? */
int pmc_target_exists(pid_t pid)
{
	int rc;

	pmc__clear_reason();
	if (!pmc__g.initialized)
		return pmc__ret(-ENXIO);
	rc = pmc__g.be->target_check(pid);
	pmc__clear_reason();
	return rc == -ESRCH ? 0 : 1;
}

uint64_t pmc_clock_ns(void)
{
	return pmc__g.initialized ? pmc__g.be->now() : 0;
}
