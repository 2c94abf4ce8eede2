/*
 * targetwatch.c — hwpmc's SIGIO: when a process-mode PMC loses its last
 * target (detached, or the process exited), hwpmc signals the owner, and
 * pmcstat waits for that signal to know that `pmcstat -p PID` is done.
 *
 * Detaching is seen synchronously (pmc__targets_lost from pmc_detach).  An
 * exit of another process is seen by a thread polling pidfds of the
 * targets (started at the first attach to another process, stopped by
 * pmc_fini); it marks those targets exited.  On Linux SIGIO's default
 * action ends the process, so the signal is sent only to an owner that
 * installed a handler or blocks SIGIO to wait for it (sigwait, signalfd:
 * Linux's way to do what pmcstat does with kqueue's EVFILT_SIGNAL).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/thread.h"
#include "core/internal.h"

#define WATCH_MAX 64

static struct {
	pthread_t thr;
	int running, stop;
	int owner_blocks;             /* SIGIO blocked where the watch started */
	volatile pid_t tid;           /* the thread's id: not a target of its owner */
	int wake;                     /* eventfd: stop, or new targets to watch */
	int npid;
	pid_t pid[WATCH_MAX];
	int fd[WATCH_MAX];
} W = { .wake = -1 };

/* Does the owner want SIGIO?  A handler (the default kills), or it blocks
 * SIGIO to wait for it. */
static int owner_handles_sigio(void)
{
	struct sigaction sa;
	sigset_t cur;

	if (W.running && pthread_equal(pthread_self(), W.thr)) {
		if (W.owner_blocks)
			return 1;
	} else if (pthread_sigmask(SIG_BLOCK, NULL, &cur) == 0 && sigismember(&cur, SIGIO)) {
		return 1;
	}
	if (sigaction(SIGIO, NULL, &sa) < 0)
		return 0;
	if (sa.sa_flags & SA_SIGINFO)
		return sa.sa_sigaction != NULL;
	return sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN;
}

/* Under the core lock: pm may have just lost its last live target. */
void pmc__targets_lost(struct pmc *pm)
{
	for (struct pmc_target *t = pm->targets; t; t = t->next)
		if (!t->exited)
			return;
	if (pm->sigio_sent)
		return;
	pm->sigio_sent = 1;
	if (owner_handles_sigio())
		kill(getpid(), SIGIO);
}

/* Under the core lock: every target of pid has exited. */
static void mark_exited(pid_t pid)
{
	for (struct pmc *pm = pmc__g.pmcs; pm; pm = pm->next) {
		int hit = 0;
		for (struct pmc_target *t = pm->targets; t; t = t->next)
			if (t->pid == pid && !t->is_thread && !t->exited) {
				t->exited = 1;
				hit = 1;
			}
		if (hit)
			pmc__targets_lost(pm);
	}
}

static int watched(pid_t pid)
{
	for (int i = 0; i < W.npid; i++)
		if (W.pid[i] == pid)
			return 1;
	return 0;
}

static void forget(int i)
{
	close(W.fd[i]);
	W.pid[i] = W.pid[W.npid - 1];
	W.fd[i] = W.fd[W.npid - 1];
	W.npid--;
}

/* Under the core lock: pidfds for new targets, none for gone ones. */
static void sync_targets(void)
{
	pid_t self = getpid();

	for (int i = 0; i < W.npid; i++) {
		int used = 0;
		for (struct pmc *pm = pmc__g.pmcs; pm && !used; pm = pm->next)
			for (struct pmc_target *t = pm->targets; t && !used; t = t->next)
				used = t->pid == W.pid[i] && !t->exited;
		if (!used)
			forget(i--);
	}
	for (struct pmc *pm = pmc__g.pmcs; pm; pm = pm->next)
		for (struct pmc_target *t = pm->targets; t; t = t->next) {
			int fd;
			if (t->is_thread || t->exited || t->pid == self || t->pid <= 0 ||
			    watched(t->pid) || W.npid == WATCH_MAX)
				continue;
			fd = (int)syscall(SYS_pidfd_open, t->pid, 0);
			if (fd < 0) {
				if (errno == ESRCH)
					mark_exited(t->pid);
				continue;
			}
			W.pid[W.npid] = t->pid;
			W.fd[W.npid++] = fd;
		}
}

static void *watch_loop(void *arg)
{
	struct pollfd pf[WATCH_MAX + 1];
	pid_t pids[WATCH_MAX];
	int n;

	(void)arg;
	W.tid = (pid_t)syscall(SYS_gettid);
	for (;;) {
		pthread_mutex_lock(&pmc__g.lock);
		if (W.stop) {
			pthread_mutex_unlock(&pmc__g.lock);
			break;
		}
		sync_targets();
		for (n = 0; n < W.npid; n++) {
			pf[n].fd = W.fd[n];
			pf[n].events = POLLIN;
			pf[n].revents = 0;
			pids[n] = W.pid[n];
		}
		pthread_mutex_unlock(&pmc__g.lock);
		/* pmc_fini and new targets write the eventfd, so both are seen at
		 * once (a 50 ms poll period held pmc_fini, so every `pmc stat`,
		 * up to 50 ms); the period stays as a backstop. */
		pf[n].fd = W.wake;
		pf[n].events = POLLIN;
		pf[n].revents = 0;
		if (poll(pf, (nfds_t)n + (W.wake >= 0), 50) <= 0)
			continue;
		if (W.wake >= 0 && pf[n].revents) {
			uint64_t v;
			if (read(W.wake, &v, sizeof(v)) < 0) {
				/* nothing to drain */
			}
		}
		pthread_mutex_lock(&pmc__g.lock);
		for (int i = 0; i < n; i++)
			if (pf[i].revents)
				mark_exited(pids[i]);
		pthread_mutex_unlock(&pmc__g.lock);
	}
	return NULL;
}

/*
 * A forked child has no watch thread: forget it and its pidfds.  The thread
 * may have held the core lock at the fork; the child's copy of the lock is
 * then made anew (the child has no other thread that could hold it).
 */
static void atfork_child(void)
{
	if (!W.running)
		return;
	W.running = 0;
	W.tid = 0;
	while (W.npid > 0)
		forget(W.npid - 1);
	if (W.wake >= 0)
		close(W.wake);
	W.wake = -1;
	pthread_mutex_init(&pmc__g.lock, NULL);
}

static void wake_thread(void)
{
	uint64_t one = 1;
	if (W.wake >= 0 && write(W.wake, &one, sizeof(one)) < 0) {
		/* the counter is full: the thread is awake anyway */
	}
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void atfork_register(void) { pthread_atfork(NULL, NULL, atfork_child); }

/* Under the core lock, after an attach to another process. */
void pmc__targetwatch_start(void)
{
	sigset_t old;

	if (W.running) {
		wake_thread();            /* watch the new target now */
		return;
	}
	if (strcmp(pmc__g.be->name, "linux") != 0)
		return;
	pthread_once(&atfork_once, atfork_register);
	if (W.wake < 0)
		W.wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	/* The thread takes no signals: they stay the owner's threads'. */
	pthread_sigmask(SIG_BLOCK, NULL, &old);
	W.owner_blocks = sigismember(&old, SIGIO) == 1;
	W.stop = 0;
	if (pmc__thread_start(&W.thr, watch_loop, NULL) == 0)
		W.running = 1;
}

/* The watch thread's id (0: none), which counting the owner leaves out. */
pid_t pmc__targetwatch_tid(void)
{
	return W.running ? W.tid : 0;
}

/* Not under the core lock (the thread takes it). */
void pmc__targetwatch_stop(void)
{
	if (!W.running)
		return;
	pthread_mutex_lock(&pmc__g.lock);
	W.stop = 1;
	wake_thread();
	pthread_mutex_unlock(&pmc__g.lock);
	pthread_join(W.thr, NULL);
	W.running = 0;
	W.tid = 0;
	while (W.npid > 0)
		forget(W.npid - 1);
	if (W.wake >= 0)
		close(W.wake);
	W.wake = -1;
}
