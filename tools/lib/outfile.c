/*
 * outfile.c — creating output files safely (outfile.h has the rules): a
 * temporary file renamed into place, symlinks planted by others never
 * followed, one message for "exists, use -f".  In libpmctools (tools/lib)
 * so that every pmc subcommand shares it; reasons go to libpmc's channel
 * through common/error.h's wrappers of the public pmc_seterror().
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
#include "toolslib/outfile.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

static int fail(struct outfile *o, int err, const char *fmt, const char *a)
{
	pmc__err(-err, fmt, a, strerror(err));   /* before abort frees o->target */
	outfile__abort(o);
	errno = err;
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
static int open_temp(struct outfile *o, mode_t mode)
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
static int backup_name(struct outfile *o)
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
static int open_inplace(struct outfile *o, int flags, mode_t mode, int exists)
{
	if (exists && !(flags & OUTFILE_FORCE)) {
		if (rename(o->target, o->backup) < 0) {   /* renames a symlink itself */
			int e = errno;
			return pmc__err(-e, "cannot rename '%s' to '%s': %s", o->target, o->backup,
			    strerror(e));
		}
		o->backed_up = 1;
	} else if (exists && unlink(o->target) < 0 && errno != ENOENT) {
		int e = errno;
		return pmc__err(-e, "cannot replace '%s': %s", o->target, strerror(e));
	}
	o->fd = open(o->target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (o->fd < 0) {
		int e = errno;
		return pmc__err(-e, e == EEXIST ? "cannot create '%s': it appeared while we replaced it" :
		    "cannot create '%s': %s", o->target, strerror(e));
	}
	o->created = 1;
	return 0;
}

int outfile__open(struct outfile *o, const char *path, int flags, mode_t mode)
{
	struct stat sb;
	int exists, rc;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	pmc__clear_reason();
	if (!path || !*path)
		return pmc__err(-EINVAL, "no output file name");
	if (!(o->path = strdup(path)) || !(o->target = strdup(path))) {
		outfile__abort(o);
		return pmc__err(-ENOMEM, NULL);
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
		    (!(flags & OUTFILE_INPLACE) || !S_ISREG(rsb.st_mode))) {
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
	if (exists && !(flags & (OUTFILE_FORCE | OUTFILE_BACKUP))) {
		outfile__abort(o);
		return pmc__err(-EEXIST, "'%s' exists; use -f to overwrite it", path);
	}
	o->flags = flags;
	o->existed = exists;
	if (exists && (flags & OUTFILE_BACKUP) && !(flags & OUTFILE_FORCE) &&
	    backup_name(o) < 0) {
		outfile__abort(o);
		return pmc__nomem();
	}
	if (flags & OUTFILE_INPLACE)
		rc = open_inplace(o, flags, mode, exists);
	else if ((rc = open_temp(o, mode)) < 0)
		pmc__err(rc, "cannot create a file beside '%s': %s", o->target, strerror(-rc));
	if (rc < 0) {
		outfile__abort(o);
		errno = -rc;
		return rc;
	}
	return 0;
}

/*
 * outfile__fdstream: the one writer of pmc's output streams (files and fd 1).
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

FILE *outfile__fdstream(int fd, int close_fd, int *err)
{
	static const cookie_io_functions_t io = { .write = wstream_write,
		.close = wstream_close };
	struct wstream *w;
	FILE *f;

	pmc__clear_reason();
	if (fd < 0) {
		pmc__err(-EBADF, "no file descriptor");
		return NULL;
	}
	if (!(w = malloc(sizeof(*w)))) {
		pmc__nomem();
		return NULL;
	}
	*w = (struct wstream){ .fd = fd, .close_fd = close_fd, .perr = err };
	if (!(f = fopencookie(w, "w", io))) {
		int e = errno;
		free(w);
		pmc__err(-e, "cannot make a stream: %s", strerror(e));
	}
	return f;
}

int outfile__fopen(struct outfile *o, const char *path, int flags)
{
	int rc = outfile__open(o, path, flags, 0644);

	if (rc < 0)
		return rc;
	if (!(o->fp = outfile__fdstream(o->fd, 1, NULL))) {
		rc = -errno;
		pmc__clear_reason();
		outfile__abort(o);
		pmc__err(rc, "cannot write '%s': %s", path, strerror(-rc));
	}
	return rc;
}

static void release(struct outfile *o)
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
static int rename_into_place(struct outfile *o, int replace)
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

int outfile__commit(struct outfile *o)
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
		pmc__err(-e, "cannot write '%s': %s", o->path, strerror(e));
		outfile__abort(o);
		errno = e;
		return -e;
	}
	if (o->tmp) {
		int replace = o->flags & OUTFILE_FORCE;
		if (o->existed && o->backup)    /* BACKUP: keep the old file as .old */
			(void)rename(o->target, o->backup);
		if (rename_into_place(o, replace) < 0) {
			e = errno;
			pmc__err(-e, e == EEXIST ? "'%s' exists; use -f to overwrite it" :
			    "cannot create '%s': %s", o->path, strerror(e));
			outfile__abort(o);
			errno = e;
			return -e;
		}
	}
	release(o);
	return 0;
}

void outfile__abort(struct outfile *o)
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
