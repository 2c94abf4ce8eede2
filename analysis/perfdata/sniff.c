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

/* Up to 8 bytes from fd's current position, left for the reader: 1 and
 * b/got filled, 0 when looking would consume (a terminal, a socket),
 * -errno on error.  A directory is looked at through its "data" file
 * (perf record --threads); *isdir says it was one. */
static int peek(int fd, unsigned char b[8], size_t *got, int *isdir)
{
	struct stat sb;

	*got = 0;
	*isdir = 0;
	if (fstat(fd, &sb) < 0)
		return -errno;
	if (S_ISDIR(sb.st_mode)) {
		int d = openat(fd, "data", O_RDONLY | O_CLOEXEC);
		ssize_t r;
		*isdir = 1;
		if (d < 0)
			return 1;
		r = pread(d, b, 8, 0);
		close(d);
		*got = r > 0 ? (size_t)r : 0;
		return 1;
	}
	if (S_ISREG(sb.st_mode) || S_ISBLK(sb.st_mode)) {
		ssize_t r = pread(fd, b, 8, lseek(fd, 0, SEEK_CUR));
		if (r < 0)
			return -errno;
		*got = (size_t)r;
		return 1;
	}
	if (S_ISFIFO(sb.st_mode)) {
		int rc = peek_pipe(fd, b, 8, got);
		return rc < 0 ? rc : 1;
	}
	if (S_ISCHR(sb.st_mode)) {
		/* /dev/zero reads in place; a terminal refuses pread (ESPIPE) */
		ssize_t r = pread(fd, b, 8, 0);
		if (r >= 0) {
			*got = (size_t)r;
			return 1;
		}
	}
	return 0;                 /* cannot look without consuming */
}

int perfdata__sniff(int fd)
{
	unsigned char b[8];
	size_t got;
	int isdir, rc = peek(fd, b, &got, &isdir);

	return rc <= 0 ? rc : perfdata__is_perfdata(b, got);
}

int perfdata__sniff_kind(int fd)
{
	unsigned char b[8];
	size_t got;
	int isdir, rc = peek(fd, b, &got, &isdir);

	if (rc <= 0)
		return rc < 0 ? rc : PD_KIND_UNKNOWN;
	if (perfdata__is_perfdata(b, got))
		return PD_KIND_PERF;
	if (isdir)
		return -EISDIR;
	if (got == 0)
		return PD_KIND_EMPTY;
	/* docs/log-format.md: "\x89PMCLOG" then R (raw) or Z (zstd); a log
	 * cut inside its magic is a log, which the reader calls truncated */
	if (memcmp(b, "\x89PMCLOG", got < 7 ? got : 7) == 0 &&
	    (got < 8 || b[7] == 'R' || b[7] == 'Z'))
		return PD_KIND_PMCLOG;
	return PD_KIND_OTHER;
}
