/* forkexec MS PROGRAM [ARGS...] — a target that starts threads, forks and
 * execs, each task named differently, for checking that samples are
 * attributed to the right pid, tid and command:
 *
 *   main thread            spins MS ms of CPU                  "forkexec"
 *   2 threads              rename, spin MS ms                  "fe-worker1/2"
 *   a child process        renames itself, starts a thread,    "fe-child"
 *     its thread           renames, spins MS/2 ms              "fe-cthread"
 *   the child then execs PROGRAM ARGS (e.g. busy 200)           PROGRAM's name
 *
 * Every task prints "pid tid NAME..." — the names it has had, in order (a
 * new task first has its creator's name) — so a test knows which command
 * each pid/tid may be seen with. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long ms;

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static volatile unsigned long sink;

static void spin(long millis)
{
	struct timespec a, b;
	unsigned long x = 0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
		sink = x;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000L + (b.tv_nsec - a.tv_nsec) / 1000000L < millis);
}

struct named { const char *parent, *name; long ms; };

static void *thread_main(void *arg)
{
	struct named *n = arg;
	prctl(PR_SET_NAME, n->name);
	printf("%d %d %s %s\n", (int)getpid(), (int)gettid_(), n->parent, n->name);
	spin(n->ms);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: forkexec MS PROGRAM [ARGS...]\n");
		return 2;
	}
	ms = atol(argv[1]);
	setvbuf(stdout, NULL, _IOLBF, 0);

	char self[32] = "";
	prctl(PR_GET_NAME, self);
	printf("%d %d %s\n", (int)getpid(), (int)getpid(), self);

	struct named w[2] = { { self, "fe-worker1", ms }, { self, "fe-worker2", ms } };
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, thread_main, &w[i]);

	pid_t child = fork();
	if (child == 0) {
		const char *prog = strrchr(argv[2], '/') ? strrchr(argv[2], '/') + 1 : argv[2];
		char comm[16];
		snprintf(comm, sizeof(comm), "%s", prog);
		prctl(PR_SET_NAME, "fe-child");
		printf("%d %d %s fe-child %s\n", (int)getpid(), (int)getpid(), self, comm);
		struct named c = { "fe-child", "fe-cthread", ms / 2 };
		pthread_t ct;
		pthread_create(&ct, NULL, thread_main, &c);
		spin(ms / 2);
		pthread_join(ct, NULL);
		fflush(stdout);
		execv(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	spin(ms);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	int st = 0;
	waitpid(child, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
