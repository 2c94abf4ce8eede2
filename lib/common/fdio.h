/*
 * fdio.h — whole reads and writes on a file descriptor: the loops around
 * read(2)/pread(2)/write(2) that retry after EINTR and short transfers,
 * written once for the log writer, the perf.data writer and the readers.
 */
#ifndef PMC_COMMON_FDIO_H
#define PMC_COMMON_FDIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Write all n bytes: 0, or -errno (-EIO if write(2) wrote nothing);
 * *done: the bytes written either way. */
int pmc__write_full(int fd, const void *p, size_t n, size_t *done);

/* Read n bytes, stopping early only at the end of the file: the count
 * (below n at the end), or -1 with errno.  pmc__read_full reads from the
 * current position (read(2)), pmc__pread_full at off (pread(2); an offset
 * past what off_t holds is EINVAL, as the kernel would say). */
ssize_t pmc__read_full(int fd, void *buf, size_t n);
ssize_t pmc__pread_full(int fd, void *buf, size_t n, uint64_t off);

#endif
