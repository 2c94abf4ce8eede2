/* touch_pages N [wait] — fault in exactly N fresh anonymous pages (page-faults >= N).
 * With "wait": first read a line from standard input (go), and after the
 * pages print "done" and stay until standard input ends, so that a counter
 * attached to the process can be read at leisure before and after. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	int hold = argc > 2 && strcmp(argv[2], "wait") == 0;
	long psz = sysconf(_SC_PAGESIZE);
	char line[64];
	volatile char *p = mmap(NULL, (size_t)(n * psz), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	if (hold && !fgets(line, sizeof(line), stdin))
		return 1;
	for (long i = 0; i < n; i++)
		p[i * psz] = 1;
	if (hold) {
		printf("done\n");
		fflush(stdout);
		while (fgets(line, sizeof(line), stdin))
			;
	}
	return 0;
}
