/*
 * outfile.h — the one way pmc creates an output file (a log, a report, an
 * export, a conversion, counts), and the one writer of its output streams.
 * Part of libpmctools (tools/lib: the pmc CLI's own helpers, linked into
 * pmc only; not libpmc's ABI).  Every command that writes a file uses this
 * (tools/pmc/cli.c's cli_open_output for -o FILE), so the rules below hold
 * everywhere:
 *
 *  - A new file is written under a temporary name in the same directory
 *    (".NAME.XXXXXX", NAME cut so that it fits NAME_MAX however long
 *    NAME is; O_CREAT|O_EXCL|O_NOFOLLOW) and renamed to NAME by
 *    outfile__commit() once everything was written; a failed write or
 *    outfile__abort() removes it, so nothing partial blocks the next run.
 *    Without OUTFILE_FORCE the rename never replaces a file that appeared
 *    meanwhile (RENAME_NOREPLACE).
 *  - OUTFILE_INPLACE writes at NAME itself (a log that `report --follow`
 *    may read while it grows): created O_CREAT|O_EXCL|O_NOFOLLOW after the
 *    old file, if any, was moved aside (OUTFILE_BACKUP: renamed to
 *    NAME.old, as perf renames perf.data) or removed (OUTFILE_FORCE).
 *  - An existing NAME is replaced only with OUTFILE_FORCE (or moved to
 *    NAME.old with OUTFILE_BACKUP); otherwise -EEXIST with the reason
 *    "'NAME' exists; use -f to overwrite it".
 *  - A symlink at NAME is followed only if the kernel's protected_symlinks
 *    rule would follow it: not when it sits in a sticky world-writable
 *    directory and is owned by neither us nor the directory's owner.  Such a
 *    link is never followed: it is what gets replaced, renamed or refused;
 *    its target is never opened.  A trusted symlink (/dev/stdout, a link of
 *    your own) is resolved and the rules apply to its target, except that
 *    OUTFILE_INPLACE never writes through a link to a regular file: the
 *    link is moved aside (or removed) like a file.
 *  - A device, FIFO or socket (/dev/null, a terminal, a named pipe) is
 *    opened for writing as it is: nothing to replace, no temporary file.
 *  - A directory is refused with -EISDIR.
 *
 * Failures return a negative errno (errno set too) with the reason in
 * libpmc's channel (pmc_errmsg(); common/error.h).
 */
#ifndef PMC_TOOLS_OUTFILE_H
#define PMC_TOOLS_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

#define OUTFILE_FORCE    0x1   /* replace an existing file (-f) */
#define OUTFILE_BACKUP   0x2   /* move an existing file to NAME.old (without FORCE) */
#define OUTFILE_INPLACE  0x4   /* write at NAME directly (no temporary name) */

struct outfile {
	int fd;                   /* write here; -1 once closed */
	FILE *fp;                 /* outfile__fopen's stream (owns fd), or NULL */
	char *path;               /* NAME as given */
	char *target;             /* where the file ends up (a trusted symlink resolved) */
	char *tmp;                /* temporary name, NULL if written in place */
	int flags;                /* OUTFILE_* */
	int existed;              /* target existed at open */
	int created;              /* in place: we created target (abort removes it) */
	int backed_up;            /* in place: the old file was renamed to NAME.old */
	char *backup;             /* OUTFILE_BACKUP and NAME exists: where it goes,
	                           * "NAME.old", NAME cut to NAME_MAX - 4 bytes if
	                           * longer (as the temporary names are); else NULL */
};

/*
 * outfile__open - open @path for writing under the rules above
 * @o: filled in; o->fd is the descriptor to write
 * @path: the file's name
 * @flags: OUTFILE_*
 * @mode: the new file's mode before the umask (usually 0644)
 * Return: 0, or a negative errno with a reason (nothing left behind).
 */
int outfile__open(struct outfile *o, const char *path, int flags, mode_t mode);

/*
 * outfile__fopen - outfile__open with mode 0644 and a buffered stream in
 * o->fp (outfile__fdstream's, owning the descriptor; commit flushes it)
 * Return: 0, or a negative errno with a reason.
 */
int outfile__fopen(struct outfile *o, const char *path, int flags);

/*
 * outfile__commit - finish: flush and close (a write error such as ENOSPC
 * surfaces here), then rename the temporary file into place
 * Return: 0, or a negative errno with a reason, and then nothing is left
 * behind.  Frees o's strings either way.
 */
int outfile__commit(struct outfile *o);

/*
 * outfile__abort - give up: close, remove what was created (the temporary
 * file, or an in-place file this call created, putting a file moved to
 * NAME.old back), free
 */
void outfile__abort(struct outfile *o);

/*
 * outfile__fdstream - a buffered write stream over @fd that keeps the errno
 * of its first failed write (stdio forgets it)
 * @fd: the descriptor written
 * @close_fd: fclose closes @fd too
 * @err: NULL, or where the errno of the first failed write goes (0 until
 *       one fails); it must outlive the stream
 * fclose of the stream then fails with that errno.  The stream of
 * outfile__fopen, and of pmc's standard output (cli_stdout_init).
 * Return: the stream, or NULL with errno and a reason (EBADF: @fd < 0;
 * ENOMEM).
 */
FILE *outfile__fdstream(int fd, int close_fd, int *err);

#endif
