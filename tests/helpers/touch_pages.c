/* touch_pages N — fault in exactly N fresh anonymous pages (page-faults >= N). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)(n * psz), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (long i = 0; i < n; i++)
		p[i * psz] = 1;
	return 0;
}
