/*
 * outfile.h — the output opener behind pmc_outfile_open(3) (the rules
 * and struct pmc_outfile are documented in include/pmc.h).  The library's
 * own callers use these, which return -errno; the public calls return -1
 * with errno.
 */
#ifndef PMC_OUTFILE_H
#define PMC_OUTFILE_H

#include "pmc.h"

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
