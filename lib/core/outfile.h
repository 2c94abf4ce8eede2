/*
 * outfile.h — the one way pmc creates an output file (a log, a report, an
 * export, a conversion, counts): never through a symlink someone else
 * planted, never leaving a half-written file behind, one wording for "it
 * exists, use -f".  Every command that writes a file uses this (tools/pmc
 * and analysis), so the rules below hold everywhere:
 *
 *  - A new file is written under a temporary name in the same directory
 *    (".NAME.XXXXXX", O_CREAT|O_EXCL|O_NOFOLLOW) and renamed to NAME by
 *    pmc__outfile_commit() once everything was written; a failed write or
 *    pmc__outfile_abort() removes it, so nothing partial blocks the next run.
 *    Without PMC_OUT_FORCE the rename never replaces a file that appeared
 *    meanwhile (RENAME_NOREPLACE).
 *  - PMC_OUT_INPLACE writes at NAME itself (a log that `report --follow` may
 *    read while it grows): created O_CREAT|O_EXCL|O_NOFOLLOW after the old
 *    file, if any, was moved aside (PMC_OUT_BACKUP: renamed to NAME.old, as
 *    perf renames perf.data) or removed (PMC_OUT_FORCE).
 *  - An existing NAME is replaced only with PMC_OUT_FORCE (or moved to
 *    NAME.old with PMC_OUT_BACKUP); otherwise -EEXIST with the reason
 *    "'NAME' exists; use -f to overwrite it".
 *  - A symlink at NAME is followed only if the kernel's protected_symlinks
 *    rule would follow it: not when it sits in a sticky world-writable
 *    directory and is owned by neither us nor the directory's owner.  Such a
 *    link is never followed: it is what gets replaced, renamed or refused;
 *    its target is never opened.  A trusted symlink (/dev/stdout, a link of
 *    your own) is resolved and the rules apply to its target, except that
 *    PMC_OUT_INPLACE never writes through a link to a regular file: the
 *    link is moved aside (or removed) like a file.
 *  - A device, FIFO or socket (/dev/null, a terminal, a named pipe) is
 *    opened for writing as it is: nothing to replace, no temporary file.
 *  - A directory is refused with -EISDIR.
 * Failures return -errno with a reason (pmc__set_reason; pmc_errmsg()).
 */
#ifndef PMC_OUTFILE_H
#define PMC_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

#define PMC_OUT_FORCE    0x1   /* replace an existing file (-f) */
#define PMC_OUT_BACKUP   0x2   /* move an existing file to NAME.old (without FORCE) */
#define PMC_OUT_INPLACE  0x4   /* write at NAME directly (no temporary name) */

struct pmc_outfile {
	int fd;                   /* write here; -1 once closed */
	FILE *fp;                 /* pmc__outfile_fopen's stream (owns fd), or NULL */
	char *path;               /* NAME as given */
	char *target;             /* where the file ends up (a trusted symlink resolved) */
	char *tmp;                /* temporary name, NULL if written in place */
	int flags;                /* PMC_OUT_* */
	int existed;              /* target existed at open */
	int created;              /* in place: we created target (abort removes it) */
	int backed_up;            /* in place: the old file was renamed to NAME.old */
};

/* Open path for writing under the rules above (mode before umask, usually
 * 0644).  0, or -errno with a reason. */
int pmc__outfile_open(struct pmc_outfile *o, const char *path, int flags, mode_t mode);
/* The same, with a stdio stream in o->fp (buffered writes; commit flushes). */
int pmc__outfile_fopen(struct pmc_outfile *o, const char *path, int flags);
/* Finish: flush and close (a write error such as ENOSPC surfaces here), then
 * rename the temporary file into place.  0, or -errno with a reason, and
 * then nothing is left behind.  Frees o's strings either way. */
int pmc__outfile_commit(struct pmc_outfile *o);
/* Give up: close, remove what was created (the temporary file, or an
 * in-place file this call created), free. */
void pmc__outfile_abort(struct pmc_outfile *o);

#endif
