/*
 * symbols.h — address → binary → function / source line / inlined frames,
 * for every kind of code a sample can land in: ELF files (through elfutils'
 * libdwfl: .symtab/.dynsym, .gnu_debuglink and /usr/lib/debug/.build-id
 * debug files, DWARF lines and inlines, PLT stubs), the vDSO, the kernel
 * and its modules (/proc/kallsyms when the recording's kernel is this one,
 * plus KSYMBOL records), JIT code (/tmp/perf-PID.map and jit-PID.dump) and
 * mapped files that are perf maps (the simulator's executables).
 *
 * Files named by a recording are opened only when they are regular files
 * (sym__open_regular): a FIFO or a device never blocks a report.
 *
 * One struct sym_dso per binary for the whole run (opened once, lazily, at
 * its first lookup); names are interned in the symtab's string pool, so two
 * equal names are one pointer.  Lookups are cheap to repeat but callers are
 * expected to deduplicate addresses first (analysis/profile/profile.c does).
 */
#ifndef PMCSTAT_SYMBOLS_H
#define PMCSTAT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum sym_dso_kind {
	SYM_DSO_ELF,        /* a file on disk (maybe missing) */
	SYM_DSO_KERNEL,     /* [kernel.kallsyms], and modules ([ext4]) */
	SYM_DSO_VDSO,       /* [vdso]: this kernel's image, read from our own process */
	SYM_DSO_PERFMAP,    /* JIT code: /tmp/perf-PID.map and/or jit-PID.dump */
	SYM_DSO_MAPFILE,    /* a mapped non-ELF file in perf-map text (the simulator's) */
	SYM_DSO_ANON        /* [heap], [stack], //anon ...: nothing to look up */
};

struct symtab;
struct sym_dso;

/* One frame of an address: the function and, when known, its source line. */
struct sym_frame {
	const char *func;        /* interned; never NULL ("[unknown]") */
	const char *file;        /* interned; NULL if not known */
	int line;                /* 0 if not known */
};

struct symtab_opts {
	/* C++/Rust demangling: 0 off (--no-demangle), 1 names (perf's
	 * default: no parameter lists), 2 names with their parameter lists
	 * (perf's -v) */
	int demangle;
	/* kernel symbols demangled too (perf's --demangle-kernel; off by
	 * default, as perf's) */
	int demangle_kernel;
	const char *kallsyms;    /* default "/proc/kallsyms" */
	const char *perfmap_dir; /* default "/tmp" */
	const char *debug_dir;   /* extra place for debug files (default none) */
	/* perf's --symfs: every recorded binary (and module, and debug file
	 * under /usr/lib/debug) is read from symfs + its recorded path, and
	 * only there (perf 6.1 does the same: no fallback to the path itself
	 * nor to symfs + its basename); build ids are still checked.  NULL:
	 * the recorded paths. */
	const char *symfs;
	/* perf's -k/--vmlinux: kernel symbols from this ELF file's symbol
	 * table instead of kallsyms; refused (the kernel's addresses shown,
	 * symtab__kernel_warning says why) when the recording names its
	 * kernel's build id and the file's differs or is missing. */
	const char *vmlinux;
};

struct symtab *symtab__new(const struct symtab_opts *opts);
/* Is path what -k/--vmlinux (elf: an ELF file) or --kallsyms (a kallsyms
 * text: its first line ADDRESS TYPE NAME) wants?  0, or -errno with the
 * reason. */
int symtab__check_kernel_file(const char *path, int elf);
void symtab__free(struct symtab *st);

/* Interned string (pointer-comparable); "?" when out of memory (then
 * symtab__nomem says so). */
const char *symtab__intern(struct symtab *st, const char *s);
/* s as a report shows it, interned: as is, or when it holds control
 * characters a copy with each written \xNN (printable.h).  For names that
 * are only shown (commands, events, functions), never for paths to open. */
const char *symtab__intern_name(struct symtab *st, const char *s);
/* 1 if an allocation failed (a name, a symbol, a mapping was dropped):
 * sticky, for the owner of the table to fail with -ENOMEM. */
int symtab__nomem(const struct symtab *st);

/* The dso for a mapping of path (build id optional, bidlen 0), interned by
 * (path, build id).  NULL out of memory (sticky: symtab__nomem). */
struct sym_dso *symtab__dso(struct symtab *st, const char *path, const uint8_t *bid,
    unsigned bidlen);
/* The kernel, and a pid's perf map (JIT) pseudo-binaries; NULL out of
 * memory, as below. */
struct sym_dso *symtab__kernel(struct symtab *st);
struct sym_dso *symtab__perfmap(struct symtab *st, pid_t pid);
/* The recording's module mapping (symtab__add_kmodule) covering a kernel
 * address, NULL if none. */
struct sym_dso *symtab__kmodule_at(struct symtab *st, uint64_t addr);
/* The binary of a kernel address: a module ([name]) when a recorded module
 * mapping (symtab__add_kmodule) or the kallsyms module tag covers it, else
 * the kernel; NULL out of memory. */
struct sym_dso *symtab__kernel_at(struct symtab *st, uint64_t addr);
/* A module mapping from the recording (MAP_IN with pid -1: "[ath9k]" or the
 * .ko's path) and the module's build id (bidlen 0: none).  With a build id
 * the module's symbols come from its .ko when one of that build is found
 * (docs/analysis.md says where); else from kallsyms. */
void symtab__add_kmodule(struct symtab *st, uint64_t start, uint64_t len, const char *path,
    const uint8_t *bid, unsigned bidlen);
/* pid mapped its jitdump file (jit-PID.dump: how perf's JIT agents mark it). */
void symtab__set_jitdump(struct symtab *st, pid_t pid, const char *path);
/* pid's JIT symbols (its perf map or jitdump), NULL if it has neither (or
 * out of memory). */
struct sym_dso *symtab__jit(struct symtab *st, pid_t pid);
/* A kernel symbol from a KSYMBOL record (BPF programs, trampolines). */
void symtab__add_ksym(struct symtab *st, uint64_t addr, uint64_t len, const char *name);
/* Which kernel the recording was made on: its release (log header,
 * KSYMSRC, perf's osrelease) and build id (KSYMSRC, perf's build-id
 * feature).  /proc/kallsyms is used only when they match the running
 * kernel (the build id when known, else the release); otherwise kernel
 * addresses stay unresolved and symtab__kernel_warning says why. */
void symtab__set_kernel_release(struct symtab *st, const char *release);
void symtab__set_kernel_buildid(struct symtab *st, const uint8_t *bid, unsigned bidlen);
/* perf's kernel MMAP ("[kernel.kallsyms]_text", pgoff = where _text was):
 * the same kernel booted again elsewhere (KASLR) is looked up relocated. */
void symtab__set_kernel_reloc(struct symtab *st, const char *sym, uint64_t addr);
const char *symtab__kernel_warning(struct symtab *st);

enum sym_dso_kind sym_dso__kind(const struct sym_dso *d);
const char *sym_dso__path(const struct sym_dso *d);
const char *sym_dso__name(const struct sym_dso *d);   /* basename, or [kernel.kallsyms] */
unsigned sym_dso__id(const struct sym_dso *d);        /* 0.. in creation order */
const uint8_t *sym_dso__buildid(const struct sym_dso *d, unsigned *len);
/* An order of binaries that does not depend on when they were met: by
 * path, then build id (two containers' /usr/bin/python3); NULL first. */
int sym_dso__cmp(const struct sym_dso *a, const struct sym_dso *b);
/* Why this binary is not (fully) symbolized, NULL if it is: "not found",
 * "build id differs from the recorded one (the binary changed since)" ... */
const char *sym_dso__problem(struct sym_dso *d);
/* Anonymous memory that can hold JIT code (//anon, [anon:...], memfd). */
int sym_dso__jit_capable(const struct sym_dso *d);
/* jitdump: the symbols looked at to match its CODE_MOVE records to the code
 * they move (about one a move: a measure of the matching's cost). */
uint64_t sym_dso__jit_move_probes(const struct sym_dso *d);

/* A pc of a mapping (start, pgoff) → the address space lookups use (ELF
 * vaddr; the pc itself for the kernel, JIT maps and workloads). */
uint64_t sym_dso__addr(struct sym_dso *d, uint64_t map_start, uint64_t pgoff, uint64_t pc);
/* The load bias (runtime address - ELF vaddr) of an ELF dso mapped at
 * [map_start, map_start + map_len) from file offset pgoff; exec: the mapping
 * is executable (its executable segment wins where segments share a page).
 * 0 found, -1 not (not an ELF file, no segment in the mapping). */
int sym_dso__bias(struct sym_dso *d, uint64_t map_start, uint64_t map_len, uint64_t pgoff,
    int exec, uint64_t *bias);

/* The function containing addr: name (interned) and its [start, start+size)
 * in the dso's address space.  0 found, -1 not (name "[unknown]"). */
int sym_dso__func(struct sym_dso *d, uint64_t addr, const char **name, uint64_t *start,
    uint64_t *size);
/* The source line of addr: 0 found, -1 not. */
int sym_dso__srcline(struct sym_dso *d, uint64_t addr, const char **file, int *line);
/* The frames at addr, innermost (inlined) first, the real function last;
 * with source lines: each inlined level of the DW_TAG_inlined_subroutine
 * nesting, as addr2line -i lists them.  Returns how many there are (>= 1;
 * without DWARF one frame with the symbol table's function), which may be
 * more than max: then out holds the innermost max, and a caller wanting
 * all asks again with room for the count. */
int sym_dso__frames(struct sym_dso *d, uint64_t addr, struct sym_frame *out, int max);

/* The name DWARF gives the (outermost, not inlined) function at addr,
 * which perf's inline expansion compares with the symbol's: DW_AT_name
 * ("__libc_start_main_impl" where the symbol is __libc_start_main); NULL
 * without DWARF, or for assembler code (whose DWARF names a symbol). */
const char *sym_dso__dwarf_func(struct sym_dso *d, uint64_t addr);

/* For annotate: the bytes of [addr, addr+len) from the file (NULL if not
 * available) and the ELF machine (EM_*). */
const unsigned char *sym_dso__code(struct sym_dso *d, uint64_t addr, uint64_t len,
    int *machine);
/* Find a function by name (exact, or the demangled name without its
 * parameters): 0 and its start/size, or -1. */
int sym_dso__find_func(struct sym_dso *d, const char *name, uint64_t *start, uint64_t *size);

/* Open path for reading only if it is a regular file, without blocking
 * (a FIFO or device is refused before it can block): an fd, or -EINVAL (not
 * a regular file) or another -errno. */
int sym__open_regular(const char *path);

/* Demangle a C++ (Itanium) or Rust (legacy or v0) name into buf, with its
 * parameter list if params (perf -v's form); returns name itself when it
 * is not mangled. */
const char *sym__demangle(const char *name, int params, char *buf, size_t len);

#endif
