/* forktree N PAGES [THREAD_PAGES] — fork N children; child i touches
 * PAGES*(i+1) fresh pages, then exits.  The parent touches PAGES pages and
 * waits; with THREAD_PAGES it first runs a thread that touches as many (its
 * line counts them).  Each line printed is "pid pages" so tests can check
 * per-process counts. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void touch(long n)
{
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)(n * psz), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	for (long i = 0; i < n; i++)
		p[i * psz] = 1;
}

static void *thread_touch(void *arg)
{
	touch((long)(intptr_t)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	long pages = argc > 2 ? atol(argv[2]) : 500;
	long tpages = argc > 3 ? atol(argv[3]) : 0;
	pthread_t t;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (tpages > 0 && (pthread_create(&t, NULL, thread_touch, (void *)(intptr_t)tpages) ||
	    pthread_join(t, NULL)))
		return 1;
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0) {
			touch(pages * (i + 1));
			printf("%d %ld\n", (int)getpid(), pages * (i + 1));
			_exit(0);
		}
		waitpid(p, NULL, 0);
	}
	touch(pages);
	printf("%d %ld\n", (int)getpid(), pages + tpages);
	return 0;
}
