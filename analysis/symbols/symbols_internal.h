/*
 * symbols_internal.h — what the files of the symbolizer share (symbols.h is
 * its interface; nothing outside analysis/symbols/ includes this): the
 * symtab, its binaries (struct sym_dso) and their tables, and the functions
 * one file of it calls in another.
 *
 *   symbols.c   the symtab and its binaries, the string pool, sorted symbol
 *               tables, demangling, opening a binary, the address lookup
 *               (sym_dso__func, sym_dso__addr/bias, sym_dso__find_func)
 *   elf.c       ELF files through libdwfl: functions by address (libdwfl's
 *               choice, resolved once per piece), debug files, PLT stubs,
 *               aliases, segments, the vDSO, code bytes
 *   kernel.c    the kernel and its modules: kallsyms, vmlinux, .ko files,
 *               the kernel cache (kcache.h), KASLR, a foreign kernel
 *   jit.c       JIT code: perf-PID.map, jit-PID.dump, mapped perf-map files
 *   srcline.c   DWARF source lines and inlined frames
 */
#ifndef PMCSTAT_SYMBOLS_INTERNAL_H
#define PMCSTAT_SYMBOLS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "symbols/symbols.h"
#include "symbols/kcache.h"
#include "common/hmap.h"

#define UNKNOWN "[unknown]"

/* ---- the string pool (symbols.c) ---------------------------------------- */

struct strpool {
	char **str;               /* the strings, in the order they came */
	size_t n, cap;
	struct hidx idx;          /* over str, by hash_str */
	int nomem;                /* a string could not be kept (symtab__nomem) */
};

/* ---- sorted symbol tables (kernel, perf maps, workloads, PLT) ----------- */

struct tsym {
	uint64_t start, size;
	const char *name;
	const char *mod;          /* kernel: the module ("ext4"), NULL for vmlinux */
};

struct table {
	struct tsym *v;
	size_t n, cap;
	int sorted;
	int nomem;                /* a symbol could not be added (symtab__nomem) */
};

/* ---- an ELF binary's functions by address (elf.c) ----------------------- */

struct fpiece {
	const char *name;         /* NULL: no symbol */
	uint64_t start, size;     /* size: the symbol's st_size (0: a label) */
};

/* A symbol as libdwfl's search (dwfl_module_addrsym.c, elfutils 0.188)
 * sees it, kept in symbol-table order: its choice depends on that order. */
struct fsym {
	uint64_t value, size;
	const char *raw;          /* libdwfl's string */
	uint32_t shndx;           /* as dwfl_module_getsym_info gives it (-1: not SHF_ALLOC) */
	uint8_t bind;             /* binding_value(): global 3, weak 2, local 1, else 0 */
	uint8_t elf;              /* index into ftab.elf */
	uint8_t func;             /* STT_FUNC or STT_GNU_IFUNC: a candidate alias */
};

struct fsec {
	uint64_t addr, size;
	uint32_t ndx;
};

struct felf {                     /* an ELF file the symbols come from */
	Elf *e;
	uint64_t bias;
	struct fsec *sec;         /* in section order */
	size_t nsec;
};

/* A range of ftab.sym by value: ord the indices sorted by (value, index),
 * pm[i] the greatest end (value + size) of sym[ord[0 .. i]]. */
struct fidx {
	uint32_t *ord;
	uint64_t *pm;
	size_t n;
};

struct ftab {
	struct fsym *sym;
	size_t nsym, nlocal;      /* sym[0, nlocal): before the first global */
	int first_global;
	struct felf elf[4];
	int nelf;
	uint64_t *b;              /* boundaries, sorted, distinct */
	size_t nb;
	uint32_t *slot;           /* per piece (2 nb + 1): 0 not resolved, else res index + 1 */
	struct fpiece *res;
	size_t nres, capres;
	struct fidx ix[2];        /* sym[nlocal, nsym) and sym[0, nlocal) by value (ftab_fast) */
	uint32_t *fn;             /* the function symbols (fsym.func) by (value, index): aliases */
	size_t nfn;
	unsigned nfnscan;         /* alias lookups by the linear scan, before fn */
	unsigned nscan;           /* lookups by the linear scan; the index is built after some */
	unsigned nlocscan;        /* ftab_fast's lookups that needed the locals (ix[1]) */
};

/* ---- the symtab and its binaries (symbols.c) ------------------------------ */

struct arena {            /* names of big tables (kallsyms), interned only when found */
	char *buf;
	size_t len, cap;
	struct arena *next;
};

struct seg {
	uint64_t off, filesz, vaddr;
	uint32_t flags;               /* PF_* */
};

/* The concrete functions (DW_TAG_subprogram with code) of one CU, by
 * address range: one walk of the CU's DIE tree, then a binary search per
 * pc, where a walk from the CU per pc (dwarf_getscopes' way) parses every
 * DIE before the function each time (rustc emits no DW_AT_sibling). */
struct cu_frange {
	uint64_t lo, hi;
	Dwarf_Die die;
};
struct cu_funcs {
	Dwarf_Off cu;                 /* the CU DIE's offset */
	struct cu_frange *v;          /* sorted by lo */
	size_t n, cap;
};

struct sym_dso {
	struct symtab *st;
	unsigned id;
	enum sym_dso_kind kind;       /* read through sym__dso_kind: a file's is */
	int unclassified;             /* SYM_DSO_ELF until its first bytes are read */
	char *path;
	const char *name;
	uint8_t bid[20];
	unsigned bidlen;
	pid_t pid;                    /* perf maps */
	char *jitdump;                /* perf maps: the process's jit-PID.dump, if mapped */
	struct jline *jl;             /* jitdump debug info: lines by address */
	size_t njl, capjl;
	int kmod;                     /* a kernel module: symbols from its .ko (ko = 1) or */
	int ko;                       /* the kernel's table */
	uint64_t kbase;               /* a module: where the recording had it (.text) */
	int jit_state;                /* perf maps: 0 not looked, 1 has JIT symbols, 2 none */
	uint64_t jit_move_probes;     /* jitdump: entries looked at matching CODE_MOVEs */
	int opened;                   /* open attempted */
	const char *problem;
	/* ELF */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct seg *segs;
	int nseg;
	struct table plt;
	struct ftab funcs;            /* functions by address (elf_func) */
	int machine;
	int has_dwarf;                /* -1 not tried */
	struct cu_funcs *cuf;         /* per CU seen: its functions by address (pc_scopes) */
	size_t ncuf, capcuf;
	/* tables */
	struct table tab;
	struct arena *names;
	struct kcache_img kimg;       /* the kernel: its cache file, searched in place (tab
	                                 then holds only the KSYMBOL records' symbols) */
};

struct jline {
	uint64_t addr;
	const char *file;
	int line;
};

struct kmodmap {                  /* a module's range from the recording (MAP_IN, pid -1) */
	uint64_t start, end;
	struct sym_dso *dso;
};

struct symtab {
	struct symtab_opts o;
	struct strpool pool;
	struct sym_dso **dsos;
	size_t ndso, capdso;
	struct hidx dso_idx;          /* over dsos, the recorded files (symtab__dso) by path and build id */
	struct sym_dso *kernel;
	struct table ksyms_extra;
	const char *krelease;
	uint8_t kbid[20];
	unsigned kbidlen;
	int kforeign;                 /* -1 not decided; 1 the recording's kernel is not this one */
	const char *kref;             /* perf's kernel MMAP: "_text" was at kref_addr then */
	uint64_t kref_addr;
	uint64_t kdelta;              /* this boot's addresses - the recording's (KASLR) */
	char kwarn[512];
	struct kmodmap *kmods;
	size_t nkmods, capkmods;
	char *dbgpath;
	Dwfl_Callbacks cb;            /* its binaries' (elf.c callbacks): dbgpath */
	int nomem;                    /* see symtab__nomem */
};

/* ---- across the files ---------------------------------------------------- */

/* symbols.c: tables, names, binaries */
void sym__table_add_mod(struct table *t, uint64_t start, uint64_t size, const char *name,
    const char *mod);
void sym__table_add(struct table *t, uint64_t start, uint64_t size, const char *name);
void sym__table_sort(struct table *t);
size_t sym__starts_upto(const void *v, size_t n, size_t stride, uint64_t addr);
const struct tsym *sym__table_find(struct table *t, uint64_t addr);
const char *sym__arena_add(struct sym_dso *d, const char *s, size_t n);
void sym__mark_nomem(struct symtab *st);
struct sym_dso *sym__new_dso(struct symtab *st, enum sym_dso_kind kind, const char *path,
    const char *name);
const char *sym__base_name(const char *p);
const char *sym__open_problem(int err);
const char *sym__host_path(const struct symtab *st, const char *path, char *buf, size_t len);
const char *sym__demangled(const struct symtab *st, const char *name, char *buf, size_t len);
const char *sym__intern_sym(struct symtab *st, const char *raw);
void sym__dso_open(struct sym_dso *d);
enum sym_dso_kind sym__dso_kind(struct sym_dso *d);

/* elf.c */
void sym__ftab_free(struct ftab *f);
void sym__hexid(const uint8_t *b, unsigned n, char *out);
unsigned sym__file_buildid(int fd, uint8_t *out);
void sym__open_elf(struct sym_dso *d);
void sym__open_vdso(struct sym_dso *d);
const struct fpiece *sym__elf_func(struct sym_dso *d, uint64_t addr);
const char *sym__alias_at(struct sym_dso *d, uint64_t start);
const char *sym__elf_stretched(struct sym_dso *d, uint64_t addr, uint64_t *start);
/* For tests: -1 when mod's symbols are read through libdwfl, else how many
 * of them elf.c's direct reading answers otherwise than libdwfl (0). */
int sym__symread_check(Dwfl_Module *mod);
void sym__init_callbacks(struct symtab *st);
int sym__find_debuginfo(Dwfl_Module *mod, void **ud, const char *modname, Dwarf_Addr base,
    const char *file, const char *debuglink, GElf_Word crc, char **dbgname);

/* kernel.c */
int sym__kernel_foreign(struct symtab *st);
const struct tsym *sym__ksym_find(struct sym_dso *k, uint64_t addr, struct tsym *buf);
void sym__kernel_unseal(struct sym_dso *d);
void sym__load_kallsyms(struct sym_dso *d);

/* jit.c */
void sym__load_perfmap(struct sym_dso *d);
int sym__open_mapfile(struct sym_dso *d);
int sym__jit_srcline(struct sym_dso *d, uint64_t addr, const char **file, int *line);

#endif
