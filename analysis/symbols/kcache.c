/*
 * kcache.c — the kernel-symbol cache (kcache.h): one file per running
 * kernel under $XDG_CACHE_HOME/pmc (or ~/.cache/pmc), read and written only
 * through a directory that is the user's own and not reachable by others,
 * and trusted only after every field has been checked.  Depends on libc
 * alone, so the fuzz harness (tests/fuzz/fuzz_kcache.c) links just this file.
 *
 * Layout (host byte order; the key makes a file from another machine or
 * kernel unusable anyway):
 *   0  "PMCKSYM5"        8   u32 build id length   12  build id[20]
 *   32 u64 key digest    40  u64 n entries          48  u64 name bytes nl
 *   56 u64 0
 *   64 n x struct kcache_ent { u64 start, u64 size, u32 name offset,
 *                              u32 module offset or ~0, u64 seal }, by start
 *      nl bytes of NUL-terminated names (each module's name once)
 * The entries are the table a report binary-searches, used where the file
 * is mapped: loading costs the header's checks, not a copy, sort or intern
 * per symbol (version 4 had u64 offsets, was copied into a table, and its
 * body digest read all 7 MB at every report).  An entry's own structure
 * (its offsets inside the names, its end, its order with its neighbours)
 * is checked where its seal is, when a lookup first reads it: a report
 * touches a few pages of the file, not all 121 k entries (checking them
 * all at load was 2 ms of a 17 ms report).
 *
 * Why per-entry seals instead of that digest: the digest never stopped
 * someone who meant to forge the file (it is unkeyed: they reseal it, and
 * whoever can write the user's 0600 file in a 0700 directory can as well
 * edit ~/.bashrc); what it caught was an edited or damaged file renaming
 * symbols silently (issue 11).  The key rejects a stale file, the
 * structural checks a torn or crafted one, and each entry's seal (its
 * start, size, name and module hashed) an edit of any symbol a report
 * actually uses: checked when a lookup reads the entry (kcache__entry_ok),
 * the caller then drops the whole cache for /proc/kallsyms.  Entries no
 * lookup reads cannot change a report.  A lookup seals the entries around
 * its answer and their order, so an entry elsewhere that is out of order
 * cannot move it: the answer is the one of the sorted file.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/kcache.h"

#define KC_VERSION "5"          /* 2: the digest was byte-wise FNV-1a; 3: one lane;
                                   4: a body digest, u64 offsets, read into a copy */
#define KC_MAGIC "PMCKSYM" KC_VERSION
#define KC_HDR 64u
#define KC_ENT 32u
_Static_assert(sizeof(struct kcache_ent) == KC_ENT, "the file's entry layout");
#define KC_MAX (256u << 20)        /* no kernel has 256 MB of symbol names */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}
#define FNV0 1469598103934665603ull

static uint64_t ld64(const unsigned char *b)
{
	uint64_t v;
	memcpy(&v, b, 8);
	return v;
}

uint64_t kcache__seal(uint64_t start, uint64_t size, const char *name, const char *mod)
{
	uint64_t h = fnv(fnv(FNV0, &start, 8), &size, 8);
	h = fnv(h, name, strlen(name) + 1);
	return mod ? fnv(h, mod, strlen(mod) + 1) : h;
}

int kcache__entry_valid(const struct kcache_img *img, size_t i)
{
	const struct kcache_ent *e = &img->ent[i];
	return e->name < img->nl && (e->mod == KCACHE_NOMOD || e->mod < img->nl) &&
	    e->start + e->size >= e->start && (i == 0 || e[-1].start <= e->start) &&
	    (i + 1 == img->n || e->start <= e[1].start);
}

int kcache__entry_ok(struct kcache_img *img, size_t i)
{
	const struct kcache_ent *e = &img->ent[i];
	if (img->sealed && (img->sealed[i / 8] & (1u << (i % 8))))
		return 1;
	if (!kcache__entry_valid(img, i))
		return 0;
	if (e->seal != kcache__seal(e->start, e->size, img->names + e->name,
	    e->mod == KCACHE_NOMOD ? NULL : img->names + e->mod))
		return 0;
	if (img->sealed)
		img->sealed[i / 8] |= (uint8_t)(1u << (i % 8));
	return 1;
}

static uint64_t fnv_file(uint64_t h, const char *path)
{
	char buf[8192];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat sb;
	if (fd < 0)
		return h;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode))
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			h = fnv(h, buf, (size_t)n);
	close(fd);
	return h;
}

int kcache__key(struct kcache_key *k, const uint8_t *bid, uint32_t bidlen)
{
	char boot[64] = "", rel[256] = "";
	int fd;
	ssize_t n;

	memset(k, 0, sizeof(*k));
	if (!bid || bidlen == 0 || bidlen > 20)
		return -1;
	if ((fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, boot, sizeof(boot) - 1);
	close(fd);
	if (n < 32)
		return -1;
	boot[n] = '\0';
	if ((fd = open("/proc/sys/kernel/osrelease", O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, rel, sizeof(rel) - 1);
		rel[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	memcpy(k->bid, bid, bidlen);
	k->bidlen = bidlen;
	k->digest = fnv(fnv(fnv(FNV0, boot, strlen(boot)), rel, strlen(rel)), bid, bidlen);
	k->digest = fnv_file(k->digest, "/proc/modules");
	return 0;
}

int kcache__parse(const void *buf, size_t len, const struct kcache_key *key,
    struct kcache_img *img)
{
	const unsigned char *b = buf;
	uint64_t n, nl;
	uint32_t bl;

	memset(img, 0, sizeof(*img));
	if (!key || key->bidlen == 0 || len < KC_HDR || len > KC_MAX ||
	    ((uintptr_t)buf & 7) || memcmp(b, KC_MAGIC, 8) != 0)
		return -1;
	memcpy(&bl, b + 8, 4);
	if (bl != key->bidlen || memcmp(b + 12, key->bid, bl) != 0 ||
	    ld64(b + 32) != key->digest)
		return -1;
	n = ld64(b + 40);
	nl = ld64(b + 48);
	/* sizes without overflow: n entries must fit, then nl is what is left */
	if (n > (len - KC_HDR) / KC_ENT || nl != len - KC_HDR - n * KC_ENT)
		return -1;
	if ((n && (nl == 0 || b[len - 1] != '\0')) || ld64(b + 56) != 0)
		return -1;
	/* aligned (checked above; KC_HDR and KC_ENT are multiples of 8); the
	 * names end inside the area (the last byte is NUL); each entry is
	 * checked as it is used (kcache__entry_valid, kcache__entry_ok) */
	img->ent = (const void *)(b + KC_HDR);
	img->n = (size_t)n;
	img->names = (const char *)(b + KC_HDR + n * KC_ENT);
	img->nl = (size_t)nl;
	return 0;
}

static char refused[4200];

const char *kcache__refused(void)
{
	return refused[0] ? refused : NULL;
}

/* *why (a literal) about path, remembered for kcache__refused: -1 */
static int refuse(const char **why, const char *what, const char *path, int fd)
{
	*why = what;
	snprintf(refused, sizeof(refused), "cache directory %s %s: not used", path, what);
	if (fd >= 0)
		close(fd);
	return -1;
}

int kcache__dir(int create, const char **why)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char path[4096];
	struct stat sb;
	int fd;

	*why = NULL;
	if (getenv("PMC_NO_KSYM_CACHE"))
		return -1;
	if (x && *x)
		snprintf(path, sizeof(path), "%s/pmc", x);
	else if (home && *home)
		snprintf(path, sizeof(path), "%s/.cache/pmc", home);
	else
		return -1;
	/* The directory it goes in ($XDG_CACHE_HOME, ~/.cache) is taken as
	 * itself, not as a symbolic link to elsewhere, and only when it is
	 * ours or root's: root given a user's XDG_CACHE_HOME (a link to a
	 * directory of root's, or a directory the user can swap) writes
	 * nothing through it. */
	char parent[4096];
	snprintf(parent, sizeof(parent), "%s", path);
	char *sl = strrchr(parent, '/');
	if (!sl || sl == parent)
		return -1;
	*sl = '\0';
	if (create)
		(void)mkdir(parent, 0700);    /* ~/.cache as XDG says: 0700 */
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			return refuse(why, "is in a directory that is a symbolic link (or not a "
			    "directory)", path, -1);
		return -1;
	}
	if (fstat(pfd, &sb) != 0 || (sb.st_uid != geteuid() && sb.st_uid != 0)) {
		close(pfd);
		return refuse(why, "is in a directory of another user's", path, -1);
	}
	if (create)
		(void)mkdirat(pfd, "pmc", 0700);
	fd = openat(pfd, "pmc", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(pfd);
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			return refuse(why, "is not a directory (a symbolic link?)", path, -1);
		return -1;
	}
	if (fstat(fd, &sb) != 0 || sb.st_uid != geteuid())
		return refuse(why, "is owned by another user", path, fd);
	/* Older pmc versions created the directory 0755: readable by others but
	 * still only ours to change, so it is narrowed to 0700 through the fd
	 * just checked.  Writable by group or others, someone else may already
	 * have planted files in it: refused. */
	if (sb.st_mode & 022)
		return refuse(why, "is writable by other users (needs mode 0700)", path, fd);
	if ((sb.st_mode & 077) && fchmod(fd, 0700) != 0)
		return refuse(why, "is readable by other users and cannot be made 0700", path, fd);
	return fd;
}

static void file_name(const struct kcache_key *k, char *out, size_t len)
{
	char hex[41];
	for (uint32_t i = 0; i < k->bidlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", k->bid[i]);
	hex[2 * k->bidlen] = '\0';
	/* the format's version in the name: a build of an older format keeps
	 * its own file beside this one instead of replacing it at every
	 * report (a newer build removes the older files: remove_old) */
	snprintf(out, len, "ksyms" KC_VERSION "-%s-%016" PRIx64, hex, k->digest);
}

int kcache__load(const struct kcache_key *key, struct kcache_img *img)
{
	char name[128];
	const char *why;
	struct stat sb;
	int dfd, fd;
	void *map;

	memset(img, 0, sizeof(*img));
	if (!key->bidlen || (dfd = kcache__dir(0, &why)) < 0)
		return -1;
	file_name(key, name, sizeof(name));
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	close(dfd);
	if (fd < 0)
		return -1;
	/* A regular file of ours that nobody else can have written.  It is
	 * mapped, not read: the report touches only the pages its lookups (and
	 * the checks) need.  A mapped file that shrinks under us would raise
	 * SIGBUS, but this one is never truncated: pmc replaces it by rename
	 * (the mapped inode stays whole), and only its owner could write to
	 * it in the 0700 directory at all.  Names are read as C strings where
	 * they lie: the owner overwriting the file in place while a report
	 * runs could make that report read past them or fault, which is the
	 * owner attacking their own process, as with a debugger. */
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    (sb.st_mode & 077) || sb.st_size < (off_t)KC_HDR || sb.st_size > (off_t)KC_MAX) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	if (kcache__parse(map, (size_t)sb.st_size, key, img) != 0 ||
	    !(img->sealed = calloc(img->n / 8 + 1, 1))) {
		munmap(map, (size_t)sb.st_size);
		memset(img, 0, sizeof(*img));
		return -1;
	}
	img->map = map;
	img->maplen = (size_t)sb.st_size;
	return 0;
}

void kcache__unload(struct kcache_img *img)
{
	if (img->map)
		munmap(img->map, img->maplen);
	free(img->sealed);
	memset(img, 0, sizeof(*img));
}

struct wbuf {
	int fd, err;
	unsigned char b[65536];
	size_t n;
};

static void wflush(struct wbuf *w)
{
	size_t off = 0;
	while (!w->err && off < w->n) {
		ssize_t r = write(w->fd, w->b + off, w->n - off);
		if (r <= 0)
			w->err = 1;
		else
			off += (size_t)r;
	}
	w->n = 0;
}

static void wput(struct wbuf *w, const void *p, size_t n)
{
	const unsigned char *s = p;
	while (n) {
		size_t k = sizeof(w->b) - w->n < n ? sizeof(w->b) - w->n : n;
		memcpy(w->b + w->n, s, k);
		w->n += k;
		s += k;
		n -= k;
		if (w->n == sizeof(w->b))
			wflush(w);
	}
}

/* A cache file name of a format before this one: "kallsyms-*", "ksyms-*"
 * (format 1 had no number), "ksymsN-*" for N below KC_VERSION.  A newer
 * format's file is another pmc's, and left alone. */
static int older_format(const char *nm)
{
	char *end;
	if (strncmp(nm, "kallsyms-", 9) == 0)
		return 1;
	if (strncmp(nm, "ksyms", 5) != 0)
		return 0;
	nm += 5;
	if (*nm == '-')
		return 1;
	if (*nm < '0' || *nm > '9')
		return 0;
	long v = strtol(nm, &end, 10);
	return *end == '-' && v < strtol(KC_VERSION, NULL, 10);
}

/* Remove the cache files of older formats (older_format): no pmc of this
 * format reads them, and each is megabytes.  Only names of that shape
 * (dbgcache.c keeps its files in this directory too); unlinkat removes a
 * symbolic link itself, never what it points to. */
static void remove_old(int dfd)
{
	int fd = dup(dfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		if (older_format(de->d_name))
			(void)unlinkat(dfd, de->d_name, 0);
	}
	closedir(dir);
}

int kcache__store(const struct kcache_key *key, size_t n,
    void (*get)(void *arg, size_t i, uint64_t *start, uint64_t *size, const char **name,
        const char **mod), void *arg)
{
	char name[128], tmp[160];
	const char *why;
	unsigned char hdr[KC_HDR];
	uint64_t nl = 0, n64 = n;
	struct wbuf *w;
	int dfd;

	if (!key->bidlen || (dfd = kcache__dir(1, &why)) < 0)
		return -1;
	file_name(key, name, sizeof(name));
	snprintf(tmp, sizeof(tmp), ".%s.%d", name, (int)getpid());
	if (!(w = calloc(1, sizeof(*w)))) {
		close(dfd);
		return -1;
	}
	/* never through a planted link or an existing file; nobody else may read it */
	w->fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		free(w);
		close(dfd);
		return -1;
	}
	/* the header needs the name bytes: write the body first, then the header */
	if (lseek(w->fd, KC_HDR, SEEK_SET) != (off_t)KC_HDR)
		w->err = 1;
	/* each module's name once: a module's symbols are consecutive */
	const char *lastmod = NULL;
	uint32_t lastmo = KCACHE_NOMOD;
	for (size_t i = 0; i < n && !w->err; i++) {
		struct kcache_ent r;
		const char *nm, *md;
		get(arg, i, &r.start, &r.size, &nm, &md);
		r.name = (uint32_t)nl;
		nl += strlen(nm) + 1;
		if (md && (!lastmod || strcmp(md, lastmod) != 0)) {
			lastmod = md;
			lastmo = (uint32_t)nl;
			nl += strlen(md) + 1;
		}
		r.mod = md ? lastmo : KCACHE_NOMOD;
		r.seal = kcache__seal(r.start, r.size, nm, md);
		if (nl >= KC_MAX)               /* offsets fit in 32 bits; parse refuses it anyway */
			w->err = 1;
		wput(w, &r, sizeof(r));
	}
	lastmod = NULL;
	for (size_t i = 0; i < n && !w->err; i++) {
		uint64_t s, z;
		const char *nm, *md;
		get(arg, i, &s, &z, &nm, &md);
		wput(w, nm, strlen(nm) + 1);
		if (md && (!lastmod || strcmp(md, lastmod) != 0)) {
			lastmod = md;
			wput(w, md, strlen(md) + 1);
		}
	}
	wflush(w);
	uint64_t zero = 0;
	memcpy(hdr, KC_MAGIC, 8);
	memcpy(hdr + 8, &key->bidlen, 4);
	memset(hdr + 12, 0, 20);
	memcpy(hdr + 12, key->bid, key->bidlen);
	memcpy(hdr + 32, &key->digest, 8);
	memcpy(hdr + 40, &n64, 8);
	memcpy(hdr + 48, &nl, 8);
	memcpy(hdr + 56, &zero, 8);
	if (pwrite(w->fd, hdr, KC_HDR, 0) != (ssize_t)KC_HDR)
		w->err = 1;
	if (close(w->fd) != 0)
		w->err = 1;
	int err = w->err;
	free(w);
	if (err || renameat(dfd, tmp, dfd, name) != 0) {
		unlinkat(dfd, tmp, 0);
		close(dfd);
		return -1;
	}
	remove_old(dfd);
	close(dfd);
	return 0;
}
