/*
 * elfnote.h — the one walker of ELF note sections (Elf_Nhdr records), used
 * for GNU build ids wherever the tree reads them without libelf: the running
 * kernel's /sys/kernel/notes (sysinfo.c) and the PT_NOTE segments of mapped
 * files (lib/core/procsnap.c).  Analysis reads notes of whole ELF files with
 * elfutils instead.
 */
#ifndef PMC_COMMON_ELFNOTE_H
#define PMC_COMMON_ELFNOTE_H

#include <stddef.h>
#include <stdint.h>

/* The GNU build id (NT_GNU_BUILD_ID, owner "GNU") in the host-order notes
 * at notes[0..len): its length (at most 20; longer ids are truncated, as
 * perf does), with id zero-filled past it; 0 if there is none.  Never reads
 * past len: a truncated note ends the walk. */
uint32_t pmc__elfnote_build_id(const void *notes, size_t len, uint8_t id[20]);

#endif
