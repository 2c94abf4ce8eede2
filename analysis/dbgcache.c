/*
 * dbgcache.c — the cache of decompressed separate debug files (dbgcache.h):
 * copy the file, let libelf inflate each SHF_COMPRESSED section and lay the
 * file out again (elf_update), then rename the copy into the cache
 * directory that kcache.c owns and checks.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dbgcache.h"
#include "kcache.h"

static int has_compressed(int fd)
{
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	int n = 0;
	while (e && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		size_t shstr;
		const char *nm;
		if (!gelf_getshdr(scn, &sh) || elf_getshdrstrndx(e, &shstr) != 0)
			continue;
		nm = elf_strptr(e, shstr, sh.sh_name);
		if (nm && strcmp(nm, ".gnu_debugaltlink") == 0) {
			n = 0;                    /* dwz: found relative to the file's own path */
			break;
		}
		if (sh.sh_flags & SHF_COMPRESSED)
			n++;
	}
	if (e)
		elf_end(e);
	return n;
}

/* copy src into out and inflate its compressed sections in place: 0 or -1 */
static int decompress_copy(int src, int out)
{
	struct stat sb;
	off_t off = 0;
	if (fstat(src, &sb) != 0)
		return -1;
	while (off < sb.st_size) {
		ssize_t k = sendfile(out, src, &off, (size_t)(sb.st_size - off));
		if (k <= 0)
			return -1;
	}
	Elf *e = elf_begin(out, ELF_C_RDWR, NULL);
	Elf_Scn *scn = NULL;
	int rc = e ? 0 : -1;
	while (e && rc == 0 && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED) &&
		    elf_compress(scn, 0, 0) < 0)
			rc = -1;
	}
	if (rc == 0 && elf_update(e, ELF_C_WRITE) < 0)
		rc = -1;
	if (e)
		elf_end(e);
	return rc;
}

int dbgcache__open(int fd, const uint8_t *bid, unsigned bidlen)
{
	char name[64], tmp[96];
	const char *why;
	int dfd, c;

	if (bidlen == 0 || bidlen > 20)
		return -1;
	strcpy(name, "debug-");
	for (unsigned i = 0; i < bidlen; i++)
		snprintf(name + 6 + 2 * i, 3, "%02x", bid[i]);
	if ((dfd = kcache__dir(0, &why)) >= 0) {
		struct stat sb;
		c = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		close(dfd);
		/* only a regular 0600 file of ours (as kcache.c reads its files) */
		if (c >= 0 && fstat(c, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    sb.st_uid == geteuid() && !(sb.st_mode & 077))
			return c;
		if (c >= 0)
			close(c);
	}
	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE || !has_compressed(fd))
		return -1;
	if ((dfd = kcache__dir(1, &why)) < 0)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", name, (long)getpid());
	c = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (c >= 0 && decompress_copy(fd, c) == 0 && renameat(dfd, tmp, dfd, name) == 0) {
		close(c);
		c = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	} else {
		if (c >= 0) {
			close(c);
			(void)unlinkat(dfd, tmp, 0);
		}
		c = -1;
	}
	close(dfd);
	return c;
}
