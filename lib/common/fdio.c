/* fdio.c — whole reads and writes on a file descriptor (see fdio.h). */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "fdio.h"

int pmc__write_full(int fd, const void *p, size_t n, size_t *done)
{
	const unsigned char *b = p;

	*done = 0;
	while (*done < n) {
		ssize_t w = write(fd, b + *done, n - *done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (w == 0)
			return -EIO;
		*done += (size_t)w;
	}
	return 0;
}

/* off < 0: read(2) */
static ssize_t read_loop(int fd, void *buf, size_t n, off_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = off < 0 ? read(fd, (char *)buf + got, n - got) :
		    pread(fd, (char *)buf + got, n - got, off + (off_t)got);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

ssize_t pmc__read_full(int fd, void *buf, size_t n)
{
	return read_loop(fd, buf, n, -1);
}

ssize_t pmc__pread_full(int fd, void *buf, size_t n, uint64_t off)
{
	if (off > (uint64_t)INT64_MAX - n) {
		errno = EINVAL;
		return -1;
	}
	return read_loop(fd, buf, n, (off_t)off);
}
