/* threads N — start and join N short-lived threads, one after the other.
 * A thread's last context switch happens after the kernel has released it,
 * so a system-wide sched:sched_switch recording gets samples of no thread
 * (tid -1) from it: the reports must not give them to a process's name. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static void *run(void *arg)
{
	(void)arg;
	usleep(100);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200;
	for (long i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, run, NULL) != 0)
			return 1;
		pthread_join(t, NULL);
	}
	return 0;
}
