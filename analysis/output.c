/*
 * output.c — opening report outputs: never overwrite a file unless told.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "report.h"

FILE *report__open_output(const char *path, int force)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL), 0644);
	FILE *f;
	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}
