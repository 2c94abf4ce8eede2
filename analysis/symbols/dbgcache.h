/*
 * dbgcache.h — decompressed copies of separate debug files, so that
 * expanding inlined frames (symbols.c) does not inflate the same
 * zlib-compressed DWARF of libc and ld.so on every report.
 *
 * Debian's /usr/lib/debug files keep their .debug_* sections compressed
 * (SHF_COMPRESSED); libdw inflates all of them when it opens the file, which
 * was most of `pmc report -g`'s extra cost (docs/BENCHMARKS.md).  The copy
 * has the same sections, uncompressed, so libdw reads the same DWARF.  It
 * lives next to the kernel-symbol cache (kcache.h: $XDG_CACHE_HOME/pmc or
 * ~/.cache/pmc, the user's own directory, mode 0700; PMC_NO_KSYM_CACHE turns
 * both off), named by the debug file's build id, written to a temporary
 * O_EXCL file and renamed into place; the caller checks the build id of a
 * copy before using it.
 */
#ifndef PMCSTAT_DBGCACHE_H
#define PMCSTAT_DBGCACHE_H

#include <stdint.h>

/* A read-only fd of the decompressed copy of the debug file open on fd
 * (build id bid[bidlen]), if the copy's headers are fd's (same layout,
 * sections uncompressed); when there is none and fd has compressed
 * sections and no .gnu_debugaltlink, the copy is made now.  -1 when there
 * is no usable copy.  fd is left open. */
int dbgcache__open(int fd, const uint8_t *bid, unsigned bidlen);

#endif
