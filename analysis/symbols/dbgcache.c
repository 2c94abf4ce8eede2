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

#include "symbols/dbgcache.h"
#include "symbols/kcache.h"

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

/* Is copy (an ELF of size len) the decompressed form of orig?  Same ELF
 * header (but where the section table is), same program headers, and
 * section by section the same name, type, address, flags (but
 * SHF_COMPRESSED), links and uncompressed size, each inside the copy.  A
 * crafted, truncated or edited header (issue 11's lesson for kcache) means
 * "no copy". */
static int same_layout(Elf *o, Elf *c, off_t len)
{
	GElf_Ehdr eo, ec;
	size_t n;
	if (!gelf_getehdr(o, &eo) || !gelf_getehdr(c, &ec))
		return 0;
	eo.e_shoff = ec.e_shoff;
	if (memcmp(&eo, &ec, sizeof(eo)) != 0 || elf_getphdrnum(o, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr po, pc;
		if (!gelf_getphdr(o, (int)i, &po) || !gelf_getphdr(c, (int)i, &pc) ||
		    memcmp(&po, &pc, sizeof(po)) != 0)
			return 0;
	}
	size_t nc;
	if (elf_getshdrnum(o, &n) != 0 || elf_getshdrnum(c, &nc) != 0 || n != nc)
		return 0;
	for (size_t i = 1; i < n; i++) {
		Elf_Scn *so = elf_getscn(o, i), *sc = elf_getscn(c, i);
		GElf_Shdr ho, hc;
		GElf_Chdr ch;
		uint64_t size;
		if (!so || !sc || !gelf_getshdr(so, &ho) || !gelf_getshdr(sc, &hc))
			return 0;
		size = ho.sh_size;
		if (ho.sh_flags & SHF_COMPRESSED) {
			if (!gelf_getchdr(so, &ch))
				return 0;
			size = ch.ch_size;
		}
		if (ho.sh_name != hc.sh_name || ho.sh_type != hc.sh_type ||
		    ho.sh_addr != hc.sh_addr || (ho.sh_flags & ~(uint64_t)SHF_COMPRESSED) != hc.sh_flags ||
		    ho.sh_link != hc.sh_link || ho.sh_info != hc.sh_info ||
		    ho.sh_entsize != hc.sh_entsize || size != hc.sh_size)
			return 0;
		if (hc.sh_type != SHT_NOBITS &&
		    (hc.sh_offset > (uint64_t)len || hc.sh_size > (uint64_t)len - hc.sh_offset))
			return 0;
	}
	return 1;
}

/* the copy on fd c, if it is the decompressed form of the file on orig */
static int copy_ok(int orig, int c)
{
	struct stat sb;
	Elf *o, *e;
	int ok = 0;
	if (orig < 0 || fstat(c, &sb) != 0 || elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	o = elf_begin(orig, ELF_C_READ_MMAP, NULL);
	e = elf_begin(c, ELF_C_READ_MMAP, NULL);
	if (o && e && elf_kind(o) == ELF_K_ELF && elf_kind(e) == ELF_K_ELF)
		ok = same_layout(o, e, sb.st_size);
	if (o)
		elf_end(o);
	if (e)
		elf_end(e);
	return ok;
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
		    sb.st_uid == geteuid() && !(sb.st_mode & 077) && copy_ok(fd, c))
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
