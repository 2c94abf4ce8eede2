/*
 * testio.h — what the unit tests read back, in one place: a whole file (by
 * path or descriptor) and an ELF file's GNU build id.  Header-only (each
 * test is one program built from one .c: tests/unit/test_*.c); included as
 * "lib/testio.h" (the tests' include path has tests/).
 */
#ifndef PMC_TESTS_TESTIO_H
#define PMC_TESTS_TESTIO_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>

/* All of fd, read from offset 0, in a malloc'd buffer with a NUL after
 * it (*len its length without); NULL when it cannot be read. */
static inline unsigned char *tio_slurp_fd(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	*len = 0;
	unsigned char *b = end >= 0 ? malloc((size_t)end + 1) : NULL;
	if (!b || pread(fd, b, (size_t)end, 0) != end) {
		free(b);
		return NULL;
	}
	b[end] = '\0';
	*len = (size_t)end;
	return b;
}

/* The same for the file at path. */
static inline unsigned char *tio_slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	*len = 0;
	if (fd < 0)
		return NULL;
	unsigned char *b = tio_slurp_fd(fd, len);
	close(fd);
	return b;
}

/* The start of fd (from offset 0) into buf, NUL-terminated, at most cap - 1
 * bytes: the bytes read. */
static inline size_t tio_slurp_into(int fd, char *buf, size_t cap)
{
	ssize_t n = pread(fd, buf, cap - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? (size_t)n : 0;
}

/* The GNU build id of the ELF file at path into out (20 bytes at most): its
 * length, 0 when it has none or cannot be read (elfutils' reading). */
static inline unsigned tio_buildid(const char *path, uint8_t *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	unsigned n = 0;
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	if (e) {
		const void *p;
		ssize_t l = dwelf_elf_gnu_build_id(e, &p);
		if (l > 0) {
			n = (unsigned)(l > 20 ? 20 : l);
			memcpy(out, p, n);
		}
		elf_end(e);
	}
	close(fd);
	return n;
}

#endif
