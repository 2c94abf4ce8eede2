/*
 * annotate.h — `pmc annotate`: one function's samples per instruction
 * (disassembled with capstone from the binary's bytes, through libelf) and
 * per source line (libdw), with the source text when the file is present.
 */
#ifndef PMCSTAT_ANNOTATE_H
#define PMCSTAT_ANNOTATE_H

#include <stdio.h>

#include "profile/profile.h"

struct annotate_opts {
	const char *symbol;
	const char *dso;             /* NULL: the function with the most samples */
	struct prof_filter flt;
	int source;                  /* print the source lines (default 1) */
	int asm_;                    /* print the instructions (default 1) */
	int color;
};

/* 0; -errno and pmc_errmsg() when the function has no samples or cannot
 * be disassembled (nothing was written); -1 when writing to f failed
 * (ferror(f), errno from the write), as report's writers. */
int annotate__print(FILE *f, struct profile *p, const struct annotate_opts *o);

#endif
