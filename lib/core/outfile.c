/*
 * outfile.c — creating output files safely (outfile.h has the rules): a
 * temporary file renamed into place, symlinks planted by others never
 * followed, one message for "exists, use -f".  In lib/core so that the
 * library, analysis and every pmc subcommand share it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "core/outfile.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

static int fail(struct pmc_outfile *o, int err, const char *fmt, const char *a)
{
	pmc__set_reason(fmt, a, strerror(err));
	pmc__outfile_abort(o);
	return -err;
}

/* The kernel's protected_symlinks rule, applied whatever the sysctl says:
 * a symlink in a sticky, world-writable directory is followed only by its
 * owner or when the directory's owner owns it. */
static int symlink_trusted(const char *path, const struct stat *lsb)
{
	char *dir = strdup(path), *slash;
	struct stat dsb;
	int ok;

	if (!dir)
		return 0;
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	ok = stat(dir, &dsb) == 0;
	free(dir);
	if (!ok)
		return 0;
	if ((dsb.st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return 1;
	return lsb->st_uid == geteuid() || lsb->st_uid == dsb.st_uid;
}

/* The part of NAME a temporary name keeps: ".NAME.XXXXXX" must fit in
 * NAME_MAX whatever NAME's length (a valid 255-byte name included). */
#define TEMP_BASE_MAX (NAME_MAX - 8)

/* ".NAME.XXXXXX" beside target (NAME cut to TEMP_BASE_MAX bytes), created
 * O_EXCL|O_NOFOLLOW. */
static int open_temp(struct pmc_outfile *o, mode_t mode)
{
	const char *base = strrchr(o->target, '/');
	size_t dirlen = base ? (size_t)(base - o->target + 1) : 0;
	size_t len = strlen(o->target) + 16;
	static unsigned counter;

	base = base ? base + 1 : o->target;
	int baselen = strlen(base) > TEMP_BASE_MAX ? TEMP_BASE_MAX : (int)strlen(base);
	if (!(o->tmp = malloc(len)))
		return -ENOMEM;
	for (int tries = 0; tries < 100; tries++) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		unsigned r = (unsigned)ts.tv_nsec ^ ((unsigned)getpid() << 12) ^ (counter++ * 2654435761u);
		snprintf(o->tmp, len, "%.*s.%.*s.%06x", (int)dirlen, o->target, baselen, base,
		    r & 0xffffff);
		o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (o->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	int e = errno;
	free(o->tmp);
	o->tmp = NULL;
	return -e;
}

/* The part of NAME a backup name keeps: "NAME.old" must fit in NAME_MAX
 * (NAME cut as the temporary names are). */
#define BACKUP_BASE_MAX (NAME_MAX - 4)

/* o->backup: where an existing target goes, "NAME.old" beside it, NAME cut
 * to BACKUP_BASE_MAX bytes. */
static int backup_name(struct pmc_outfile *o)
{
	const char *base = strrchr(o->target, '/');
	size_t dirlen = base ? (size_t)(base - o->target + 1) : 0, len = strlen(o->target) + 5;

	base = base ? base + 1 : o->target;
	int baselen = strlen(base) > BACKUP_BASE_MAX ? BACKUP_BASE_MAX : (int)strlen(base);
	if (!(o->backup = malloc(len)))
		return -ENOMEM;
	snprintf(o->backup, len, "%.*s%.*s.old", (int)dirlen, o->target, baselen, base);
	return 0;
}

/* In place: move the old file aside (or remove it), then create target. */
static int open_inplace(struct pmc_outfile *o, int flags, mode_t mode, int exists)
{
	if (exists && !(flags & PMC_OUT_FORCE)) {
		if (rename(o->target, o->backup) < 0) {   /* renames a symlink itself */
			int e = errno;
			pmc__set_reason("cannot rename '%s' to '%s': %s", o->target, o->backup,
			    strerror(e));
			return -e;
		}
		o->backed_up = 1;
	} else if (exists && unlink(o->target) < 0 && errno != ENOENT) {
		int e = errno;
		pmc__set_reason("cannot replace '%s': %s", o->target, strerror(e));
		return -e;
	}
	o->fd = open(o->target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (o->fd < 0) {
		int e = errno;
		pmc__set_reason(e == EEXIST ? "cannot create '%s': it appeared while we replaced it" :
		    "cannot create '%s': %s", o->target, strerror(e));
		return -e;
	}
	o->created = 1;
	return 0;
}

int pmc__outfile_open(struct pmc_outfile *o, const char *path, int flags, mode_t mode)
{
	struct stat sb;
	int exists, rc;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	pmc__clear_reason();
	if (!path || !*path) {
		pmc__set_reason("no output file name");
		return -EINVAL;
	}
	if (!(o->path = strdup(path)) || !(o->target = strdup(path))) {
		pmc__outfile_abort(o);
		return -ENOMEM;
	}
	exists = lstat(path, &sb) == 0;
	if (!exists && errno != ENOENT)
		return fail(o, errno, "cannot create '%s': %s", path);
	if (exists && S_ISLNK(sb.st_mode) && symlink_trusted(path, &sb)) {
		char *real = realpath(path, NULL);
		struct stat rsb;
		/* dangling: the link itself is replaced; in place (a log), only a
		 * link to a device or FIFO is followed, a link to a file is moved
		 * aside like a file */
		if (real && stat(real, &rsb) == 0 &&
		    (!(flags & PMC_OUT_INPLACE) || !S_ISREG(rsb.st_mode))) {
			free(o->target);
			o->target = real;
			sb = rsb;
		} else {
			free(real);
		}
	}
	if (exists && S_ISDIR(sb.st_mode))
		return fail(o, EISDIR, "cannot write '%s': %s", o->target);
	if (exists && !S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode)) {
		/* a device, FIFO or socket: write to it, nothing to replace */
		o->fd = open(o->target, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (o->fd < 0)
			return fail(o, errno, "cannot open '%s': %s", o->target);
		return 0;
	}
	if (exists && !(flags & (PMC_OUT_FORCE | PMC_OUT_BACKUP))) {
		pmc__set_reason("'%s' exists; use -f to overwrite it", path);
		pmc__outfile_abort(o);
		return -EEXIST;
	}
	o->flags = flags;
	o->existed = exists;
	if (exists && (flags & PMC_OUT_BACKUP) && !(flags & PMC_OUT_FORCE) &&
	    backup_name(o) < 0) {
		pmc__outfile_abort(o);
		return pmc__nomem();
	}
	if (flags & PMC_OUT_INPLACE)
		rc = open_inplace(o, flags, mode, exists);
	else if ((rc = open_temp(o, mode)) < 0)
		pmc__set_reason("cannot create a file beside '%s': %s", o->target, strerror(-rc));
	if (rc < 0) {
		pmc__outfile_abort(o);
		return rc;
	}
	return 0;
}

/*
 * pmc_fdstream: the one writer of pmc's output streams (files and fd 1).
 * stdio forgets why a write failed (the buffer is dropped; errno is
 * overwritten by whatever the writer does next, e.g. an fopen that fails),
 * so the stream keeps the errno of its first failed write, in *perr for
 * the caller, and fclose answers with it: commit then says "No space left
 * on device", not a stale errno.
 */
struct wstream {
	int fd;
	int close_fd;
	int err;        /* errno of the first failed write, or 0 */
	int *perr;      /* the caller's copy, or NULL */
};

static ssize_t wstream_write(void *cookie, const char *buf, size_t n)
{
	struct wstream *w = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t r = write(w->fd, buf + done, n - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {   /* a short count: stdio marks the stream failed */
			if (!w->err)
				w->err = r < 0 ? errno : EIO;
			if (w->perr && !*w->perr)
				*w->perr = w->err;
			break;
		}
		done += (size_t)r;
	}
	return (ssize_t)done;
}

static int wstream_close(void *cookie)
{
	struct wstream *w = cookie;
	int rc = w->close_fd ? close(w->fd) : 0, e = errno;

	if (w->err)
		rc = -1, e = w->err;
	free(w);
	errno = e;
	return rc;
}

FILE *pmc_fdstream(int fd, int close_fd, int *err)
{
	static const cookie_io_functions_t io = { .write = wstream_write,
		.close = wstream_close };
	struct wstream *w;
	FILE *f;

	pmc__clear_reason();
	if (fd < 0) {
		pmc__set_reason("no file descriptor");
		errno = EBADF;
		return NULL;
	}
	if (!(w = malloc(sizeof(*w)))) {
		pmc__set_reason("out of memory");
		errno = ENOMEM;
		return NULL;
	}
	*w = (struct wstream){ .fd = fd, .close_fd = close_fd, .perr = err };
	if (!(f = fopencookie(w, "w", io))) {
		int e = errno;
		free(w);
		pmc__set_reason("cannot make a stream: %s", strerror(e));
		errno = e;
	}
	return f;
}

int pmc__outfile_fopen(struct pmc_outfile *o, const char *path, int flags)
{
	int rc = pmc__outfile_open(o, path, flags, 0644);

	if (rc < 0)
		return rc;
	if (!(o->fp = pmc_fdstream(o->fd, 1, NULL))) {
		rc = -errno;
		pmc__clear_reason();
		pmc__set_reason("cannot write '%s': %s", path, strerror(-rc));
		pmc__outfile_abort(o);
	}
	return rc;
}

static void release(struct pmc_outfile *o)
{
	free(o->path);
	free(o->target);
	free(o->tmp);
	free(o->backup);
	o->path = o->target = o->tmp = o->backup = NULL;
	o->fp = NULL;
	o->fd = -1;
}

/* Temporary file, no FORCE: an existing target goes to .old (BACKUP), and
 * a file that appeared meanwhile is never replaced. */
static int rename_into_place(struct pmc_outfile *o, int replace)
{
	if (replace)
		return rename(o->tmp, o->target);
	if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->target, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* a file system without RENAME_NOREPLACE: link(2) never replaces */
	if (link(o->tmp, o->target) < 0)
		return -1;
	unlink(o->tmp);
	return 0;
}

int pmc__outfile_commit(struct pmc_outfile *o)
{
	int rc = 0, e = 0;

	pmc__clear_reason();
	if (o->fp) {
		if (fflush(o->fp) != 0 || ferror(o->fp))
			rc = -1, e = errno ? errno : EIO;
		/* the stream's close answers with the errno of its failed write */
		if (fclose(o->fp) != 0)
			rc = -1, e = errno;
		o->fp = NULL;
		o->fd = -1;
	} else if (o->fd >= 0) {
		if (close(o->fd) != 0)
			rc = -1, e = errno;
		o->fd = -1;
	}
	if (rc) {
		pmc__set_reason("cannot write '%s': %s", o->path, strerror(e));
		pmc__outfile_abort(o);
		return -e;
	}
	if (o->tmp) {
		int replace = o->flags & PMC_OUT_FORCE;
		if (o->existed && o->backup)    /* BACKUP: keep the old file as .old */
			(void)rename(o->target, o->backup);
		if (rename_into_place(o, replace) < 0) {
			e = errno;
			pmc__set_reason(e == EEXIST ? "'%s' exists; use -f to overwrite it" :
			    "cannot create '%s': %s", o->path, strerror(e));
			pmc__outfile_abort(o);
			return -e;
		}
	}
	release(o);
	return 0;
}

void pmc__outfile_abort(struct pmc_outfile *o)
{
	if (o->fp)
		fclose(o->fp);
	else if (o->fd >= 0)
		close(o->fd);
	o->fp = NULL;
	o->fd = -1;
	if (o->tmp) {
		unlink(o->tmp);
	} else if (o->created && o->target) {
		unlink(o->target);
		if (o->backed_up)     /* put the old file back */
			rename(o->backup, o->target);
	}
	release(o);
}

/* The public calls (pmc.h): -1 with errno instead of -errno. */
int pmc_outfile_open(struct pmc_outfile *o, const char *path, int flags, mode_t mode)
{
	pmc__clear_reason();
	return pmc__ret(pmc__outfile_open(o, path, flags, mode));
}

int pmc_outfile_fopen(struct pmc_outfile *o, const char *path, int flags)
{
	pmc__clear_reason();
	return pmc__ret(pmc__outfile_fopen(o, path, flags));
}

int pmc_outfile_commit(struct pmc_outfile *o)
{
	pmc__clear_reason();
	return pmc__ret(pmc__outfile_commit(o));
}

void pmc_outfile_abort(struct pmc_outfile *o)
{
	pmc__outfile_abort(o);
}
