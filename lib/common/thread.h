/*
 * thread.h — starting the library's own threads (the log writer, the
 * target watcher, pmc top's live reader): every signal blocked in them, so
 * that a signal meant for the program (SIGINT, SIGCHLD, SIGIO, a timer)
 * reaches one of its own threads, never one it did not create.
 */
#ifndef PMC_COMMON_THREAD_H
#define PMC_COMMON_THREAD_H

#include <pthread.h>
#include <signal.h>

/* pthread_create with every signal blocked in the new thread; the
 * caller's mask is unchanged.  0 or pthread_create's error number. */
int pmc__thread_start(pthread_t *thr, void *(*fn)(void *), void *arg);

#endif
