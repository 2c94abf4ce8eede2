/*
 * sniff.c — is this input a perf.data?  Looks at the first 8 bytes of an fd
 * without consuming them, so the caller can hand the same fd to whichever
 * reader fits (pmclog_open or perfdata__open): pread on files, tee(2)
 * into a scratch pipe on pipes and FIFOs (`perf record -o - | pmc ...`).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/perfdata.h"

static int peek_pipe(int fd, unsigned char *buf, size_t n, size_t *got)
{
	int pp[2];
	*got = 0;
	if (pipe(pp) < 0)
		return -errno;
	for (int tries = 0;; tries++) {
		ssize_t t = tee(fd, pp[1], n, 0);
		if (t < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			close(pp[0]);
			close(pp[1]);
			return -e;
		}
		size_t have = 0;
		while (have < (size_t)t) {
			ssize_t r = read(pp[0], buf + have, (size_t)t - have);
			if (r <= 0)
				break;
			have += (size_t)r;
		}
		*got = have;
		/* t == 0: the writer closed the pipe; otherwise wait for the rest
		 * of the magic (tee copies only what the pipe holds right now) */
		if (t == 0 || have >= n || tries > 20000)
			break;
		usleep(500);
	}
	close(pp[0]);
	close(pp[1]);
	return 0;
}

int perfdata__sniff(int fd)
{
	unsigned char b[8];
	struct stat sb;
	size_t got = 0;

	if (fstat(fd, &sb) < 0)
		return -errno;
	if (S_ISDIR(sb.st_mode)) {
		int d = openat(fd, "data", O_RDONLY | O_CLOEXEC);
		ssize_t r;
		if (d < 0)
			return 0;
		r = pread(d, b, sizeof(b), 0);
		close(d);
		return r > 0 && perfdata__is_perfdata(b, (size_t)r);
	}
	if (S_ISREG(sb.st_mode) || S_ISBLK(sb.st_mode)) {
		ssize_t r = pread(fd, b, sizeof(b), lseek(fd, 0, SEEK_CUR));
		if (r < 0)
			return -errno;
		got = (size_t)r;
	} else if (S_ISFIFO(sb.st_mode)) {
		int rc = peek_pipe(fd, b, sizeof(b), &got);
		if (rc < 0)
			return rc;
	} else {
		return 0;                 /* cannot look without consuming: not ours */
	}
	return perfdata__is_perfdata(b, got);
}
