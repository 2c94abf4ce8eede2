/* thread.c — the library's threads take no signals (see thread.h). */
#include "thread.h"

int pmc__thread_start(pthread_t *thr, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	int rc;

	/* a new thread inherits its creator's mask */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(thr, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}
