/*
 * symbols.c — the symbolizer behind symbols.h: elfutils (libdwfl/libdw/libelf)
 * for ELF files, sorted tables for the kernel, JIT maps and mapped
 * perf-map files.  Every binary is opened once (one Dwfl per binary) at its first
 * lookup; nothing here parses ELF or DWARF by hand.
 *
 * This file holds the symtab and its binaries: the string pool, the sorted
 * symbol tables, files opened safely (sym__open_regular), demangling,
 * opening a binary by its kind, and the lookups of an address (its
 * function, its link-time address, a mapping's bias).  The kinds of binary
 * are read in elf.c, kernel.c and jit.c, source lines and inlined frames
 * in srcline.c (symbols_internal.h lists them).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libiberty/demangle.h>

#include "pmc.h"
#include "symbols/symbols.h"
#include "symbols/symbols_internal.h"
#include "util/printable.h"
#include "common/grow.h"
#include "common/hmap.h"

/* ---- string pool ------------------------------------------------------ */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int pool_eq(const void *tab, uint32_t i, const void *key)
{
	return strcmp(((char *const *)tab)[i], key) == 0;
}

/* s, interned; out of memory "?" (not interned), with p->nomem set.  On
 * hidx since issue 24: 20 M lookups of 5,000 names cost the same as the
 * pool's own table did (+1 %), of 20,000 names +7 %, of 200,000 +3 % to
 * +17 % (two runs on a busy machine; one more load per hit: the slot, then
 * str[]); in a report the hash compared first saves more than that
 * costs: pmc report -g of a 105 k-sample recording spent 0.7-0.9 % of its
 * time here, 1.1-1.8 % in the pool's own table (three runs each). */
static const char *pool_intern(struct strpool *p, const char *s)
{
	int added;
	char *c;
	struct hidx_slot *sl = hidx_get(&p->idx, hash_str(s), 1024, pool_eq, p->str, s,
	    (uint32_t)p->n, &added);
	if (!sl) {
		p->nomem = 1;
		return "?";
	}
	if (!added)
		return p->str[sl->v - 1];
	if (!(c = strdup(s)) || GROW(p->str, p->n, p->cap) < 0) {
		free(c);
		hidx_unadd(&p->idx, sl);
		p->nomem = 1;
		return "?";
	}
	p->str[p->n++] = c;
	return c;
}

static void pool_free(struct strpool *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->str[i]);
	free(p->str);
	hidx_free(&p->idx);
}

/* ---- sorted symbol tables (kernel, perf maps, workloads, PLT) ----------- */

void sym__table_add_mod(struct table *t, uint64_t start, uint64_t size, const char *name,
    const char *mod)
{
	if (GROW(t->v, t->n, t->cap) < 0) {
		t->nomem = 1;
		return;
	}
	t->v[t->n++] = (struct tsym){ start, size, name, mod };
	t->sorted = 0;
}

void sym__table_add(struct table *t, uint64_t start, uint64_t size, const char *name)
{
	sym__table_add_mod(t, start, size, name, NULL);
}

static int tsym_cmp(const void *a, const void *b)
{
	const struct tsym *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort; symbols without a size extend to the next one. */
void sym__table_sort(struct table *t)
{
	if (t->sorted)
		return;
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), tsym_cmp);
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].size == 0)
			t->v[i].size = i + 1 < t->n ? t->v[i + 1].start - t->v[i].start : 4096;
	t->sorted = 1;
}

/* How many of the n entries at v (stride bytes apart, each starting with
 * its uint64_t start, sorted by it) start at or below addr: the tables
 * here and the kernel's cache image (struct kcache_ent) alike. */
size_t sym__starts_upto(const void *v, size_t n, size_t stride, uint64_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (*(const uint64_t *)(const void *)((const char *)v + mid * stride) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct tsym *sym__table_find(struct table *t, uint64_t addr)
{
	sym__table_sort(t);
	size_t lo = sym__starts_upto(t->v, t->n, sizeof(*t->v), addr);
	/* lo - 1 is the last start <= addr; sizes may overlap (aliases): look back a little */
	for (size_t k = lo; k > 0 && lo - k < 8; k--) {
		const struct tsym *s = &t->v[k - 1];
		if (addr >= s->start && addr - s->start < s->size)
			return s;
	}
	return NULL;
}

/* ---- the symtab and its binaries -------------------------------------- */

const char *sym__arena_add(struct sym_dso *d, const char *s, size_t n)
{
	struct arena *a = d->names;
	if (!a || a->len + n + 1 > a->cap) {
		size_t cap = n + 1 > 1 << 20 ? n + 1 : 1 << 20;
		a = malloc(sizeof(*a));
		if (!a || !(a->buf = malloc(cap))) {
			free(a);
			sym__mark_nomem(d->st);
			return "?";
		}
		a->len = 0;
		a->cap = cap;
		a->next = d->names;
		d->names = a;
	}
	char *p = a->buf + a->len;
	memcpy(p, s, n);
	p[n] = '\0';
	a->len += n + 1;
	return p;
}

const char *symtab__intern(struct symtab *st, const char *s)
{
	return pool_intern(&st->pool, s ? s : "");
}

const char *symtab__intern_name(struct symtab *st, const char *s)
{
	if (!printable__needs(s))
		return symtab__intern(st, s);
	size_t len = 4 * strlen(s) + 1;      /* every byte \xNN at most */
	char *buf = malloc(len);
	if (!buf) {
		st->pool.nomem = 1;
		return "?";
	}
	const char *r = symtab__intern(st, printable__str(s, buf, len));
	free(buf);
	return r;
}

void sym__mark_nomem(struct symtab *st)
{
	st->nomem = 1;
}

int symtab__nomem(const struct symtab *st)
{
	if (st->nomem || st->pool.nomem || st->ksyms_extra.nomem)
		return 1;
	for (size_t i = 0; i < st->ndso; i++)
		if (st->dsos[i]->tab.nomem || st->dsos[i]->plt.nomem)
			return 1;
	return 0;
}

struct symtab *symtab__new(const struct symtab_opts *opts)
{
	struct symtab *st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	if (opts)
		st->o = *opts;
	else
		st->o.demangle = 1;
	if (!st->o.kallsyms)
		st->o.kallsyms = "/proc/kallsyms";
	if (!st->o.perfmap_dir)
		st->o.perfmap_dir = "/tmp";
	if (st->o.symfs && !st->o.symfs[0])
		st->o.symfs = NULL;
	st->kforeign = -1;
	{
		char buf[4096];
		/* under --symfs, its /usr/lib/debug first (debug files found by
		 * name there are checked by their CRC, by build id by the id) */
		snprintf(buf, sizeof(buf), ":.debug%s%s%s:/usr/lib/debug%s%s",
		    st->o.symfs ? ":" : "", st->o.symfs ? st->o.symfs : "",
		    st->o.symfs ? "/usr/lib/debug" : "",
		    st->o.debug_dir ? ":" : "", st->o.debug_dir ? st->o.debug_dir : "");
		st->dbgpath = strdup(buf);
	}
	elf_version(EV_CURRENT);
	sym__init_callbacks(st);
	return st;
}

static void dso_free(struct sym_dso *d)
{
	kcache__unload(&d->kimg);
	free(d->jitdump);
	free(d->jl);
	while (d->names) {
		struct arena *a = d->names;
		d->names = a->next;
		free(a->buf);
		free(a);
	}
	if (d->dwfl)
		dwfl_end(d->dwfl);
	free(d->segs);
	for (size_t i = 0; i < d->ncuf; i++)
		free(d->cuf[i].v);
	free(d->cuf);
	sym__ftab_free(&d->funcs);
	free(d->plt.v);
	free(d->tab.v);
	free(d->path);
	free(d);
}

void symtab__free(struct symtab *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->ndso; i++)
		dso_free(st->dsos[i]);
	free(st->dsos);
	hidx_free(&st->dso_idx);
	free(st->ksyms_extra.v);
	free(st->kmods);
	free(st->dbgpath);
	pool_free(&st->pool);
	free(st);
}

/* A new binary of st; NULL out of memory (sticky: symtab__nomem). */
struct sym_dso *sym__new_dso(struct symtab *st, enum sym_dso_kind kind, const char *path,
    const char *name)
{
	struct sym_dso *d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path)) || GROW(st->dsos, st->ndso, st->capdso) < 0) {
		if (d)
			free(d->path);
		free(d);
		sym__mark_nomem(st);
		return NULL;
	}
	d->st = st;
	d->kind = kind;
	d->name = symtab__intern_name(st, name);
	d->has_dwarf = -1;
	d->id = (unsigned)st->ndso;
	st->dsos[st->ndso++] = d;
	return d;
}

const char *sym__base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s && s[1] ? s + 1 : p;
}

/* A kernel's own file system (procfs, sysfs, tracefs, debugfs ...): its
 * "regular" files are views of the kernel, and reading one can block
 * (/proc/kmsg, trace_pipe) or consume what it shows. */
static int kernel_fs(long type)
{
	switch ((unsigned long)type) {
	case 0x9fa0:        /* PROC_SUPER_MAGIC */
	case 0x62656572:    /* SYSFS_MAGIC */
	case 0x74726163:    /* TRACEFS_MAGIC */
	case 0x64626720:    /* DEBUGFS_MAGIC */
	case 0x73636673:    /* SECURITYFS_MAGIC */
	case 0x27e0eb:      /* CGROUP_SUPER_MAGIC */
	case 0x63677270:    /* CGROUP2_SUPER_MAGIC */
	case 0xcafe4a11:    /* BPF_FS_MAGIC */
	case 0xde5e81e4:    /* EFIVARFS_MAGIC */
	case 0x6165676c:    /* PSTOREFS_MAGIC */
	case 0x62656570:    /* CONFIGFS_MAGIC */
	case 0x1cd1:        /* DEVPTS_SUPER_MAGIC */
	case 0x67596969:    /* RPCAUTH_GSSMAGIC */
		return 1;
	}
	return 0;
}

int sym__open_regular(const char *path)
{
	struct stat sb;
	struct statfs fs;
	int fd, fl, link;

	/* look before opening: opening a device can have effects of its own */
	if (lstat(path, &sb) != 0)
		return -errno;
	/* a link someone else made (in their home, in /tmp) is theirs to point
	 * anywhere: followed only when it is the reader's or root's */
	link = S_ISLNK(sb.st_mode);
	if (link && sb.st_uid != geteuid() && sb.st_uid != 0)
		return -EPERM;
	if (stat(path, &sb) != 0)
		return -errno;
	if (!S_ISREG(sb.st_mode))
		return -EINVAL;
	if (statfs(path, &fs) == 0 && kernel_fs((long)fs.f_type))
		return -ENODEV;
	/* O_NONBLOCK: if it became a FIFO meanwhile, the open does not wait;
	 * O_NOFOLLOW: if it became a link meanwhile, it is not followed */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (link ? 0 : O_NOFOLLOW));
	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (fstatfs(fd, &fs) == 0 && kernel_fs((long)fs.f_type)) {
		close(fd);
		return -ENODEV;
	}
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

const char *sym__open_problem(int err)
{
	return err == -EINVAL ? "not a regular file (a FIFO, socket or device): not read" :
	    err == -ENODEV ? "a file of the kernel's (procfs, sysfs, tracefs ...): not read" :
	    err == -EPERM ? "a symbolic link of another user's: not followed" :
	    err == -ENOENT || err == -ENOTDIR ? "not found" : "cannot be read";
}

/* Where a recorded file is read: symfs + its recorded path under --symfs
 * (symtab_opts.symfs), else the path itself. */
const char *sym__host_path(const struct symtab *st, const char *path, char *buf, size_t len)
{
	if (!st->o.symfs)
		return path;
	snprintf(buf, len, "%s%s%s", st->o.symfs, path[0] == '/' ? "" : "/", path);
	return buf;
}

/* A recorded file's kind by its name; a file is SYM_DSO_ELF until
 * sym__dso_kind reads its first bytes (a system-wide recording maps
 * hundreds of files no sample is in: each was opened and read here). */
static enum sym_dso_kind classify(const char *path)
{
	if (strcmp(path, "[vdso]") == 0)
		return SYM_DSO_VDSO;
	if (path[0] == '[' || strncmp(path, "//anon", 6) == 0 || path[0] == '\0' ||
	    strncmp(path, "/dev/zero", 9) == 0 || strncmp(path, "/memfd:", 7) == 0 ||
	    strncmp(path, "anon_inode:", 11) == 0)
		return SYM_DSO_ANON;
	return SYM_DSO_ELF;
}

enum sym_dso_kind sym__dso_kind(struct sym_dso *d)
{
	char magic[sizeof(PMC_SIM_IMAGE_MAGIC) - 1], buf[4200];
	int fd;
	ssize_t n;

	if (!d->unclassified)
		return d->kind;
	d->unclassified = 0;
	if ((fd = sym__open_regular(sym__host_path(d->st, d->path, buf, sizeof(buf)))) < 0)
		return d->kind;       /* missing or no file: reported as such at lookup */
	n = read(fd, magic, sizeof(magic));
	close(fd);
	/* a binary is read as a perf map only when it says it is one (the
	 * simulator's images): anything else is an ELF file or nothing */
	if (n == (ssize_t)sizeof(magic) && memcmp(magic, PMC_SIM_IMAGE_MAGIC, sizeof(magic)) == 0)
		d->kind = SYM_DSO_MAPFILE;
	return d->kind;
}

struct dso_key {
	const char *path;
	const uint8_t *bid;
	unsigned bidlen;
};

static int dso_eq(const void *tab, uint32_t i, const void *key)
{
	const struct sym_dso *d = ((struct sym_dso *const *)tab)[i];
	const struct dso_key *k = key;
	return d->bidlen == k->bidlen && (!k->bidlen || memcmp(d->bid, k->bid, k->bidlen) == 0) &&
	    strcmp(d->path, k->path) == 0;
}

/* A recorded file's binary, one per (path, build id): found in an index,
 * as a system-wide recording names each file in thousands of mappings. */
struct sym_dso *symtab__dso(struct symtab *st, const char *path, const uint8_t *bid,
    unsigned bidlen)
{
	int added;
	if (!bid)
		bidlen = 0;
	if (bidlen > 20)
		bidlen = 20;
	struct dso_key k = { path, bid, bidlen };
	struct hidx_slot *sl = hidx_get(&st->dso_idx, hash_str(path),
	    64, dso_eq, st->dsos, &k, (uint32_t)st->ndso, &added);
	if (!sl) {
		sym__mark_nomem(st);
		return NULL;
	}
	if (!added)
		return st->dsos[sl->v - 1];
	struct sym_dso *d = sym__new_dso(st, classify(path), path, sym__base_name(path));
	if (!d) {
		hidx_unadd(&st->dso_idx, sl);
		return NULL;
	}
	memcpy(d->bid, bid ? bid : d->bid, bidlen);
	d->bidlen = bidlen;
	d->unclassified = d->kind == SYM_DSO_ELF;
	return d;
}

struct sym_dso *symtab__kernel(struct symtab *st)
{
	if (!st->kernel)
		st->kernel = sym__new_dso(st, SYM_DSO_KERNEL, st->o.vmlinux ? st->o.vmlinux :
		    st->o.kallsyms, "[kernel.kallsyms]");
	return st->kernel;
}

/* (its first bytes read once when it is a file's: the const is the
 * caller's view) */
enum sym_dso_kind sym_dso__kind(const struct sym_dso *d)
{
	return sym__dso_kind((struct sym_dso *)d);
}
const char *sym_dso__path(const struct sym_dso *d) { return d->path; }
const char *sym_dso__name(const struct sym_dso *d) { return d->name; }
unsigned sym_dso__id(const struct sym_dso *d) { return d->id; }

const uint8_t *sym_dso__buildid(const struct sym_dso *d, unsigned *len)
{
	*len = d->bidlen;
	return d->bid;
}

int sym_dso__cmp(const struct sym_dso *a, const struct sym_dso *b)
{
	int c;
	if (a == b || !a || !b)
		return a == b ? 0 : !a ? -1 : 1;
	if ((c = strcmp(a->path, b->path)) != 0)
		return c;
	if (a->bidlen != b->bidlen)
		return a->bidlen < b->bidlen ? -1 : 1;
	return a->bidlen ? memcmp(a->bid, b->bid, a->bidlen) : 0;
}

/* ---- demangling --------------------------------------------------------- */

/* libiberty's cplus_demangle, as perf 6.1 calls it (util/symbol-elf.c
 * demangle_sym: DMGL_NO_OPTS, with DMGL_PARAMS | DMGL_ANSI under -v): the
 * auto style tries Rust first (legacy "_ZN...17h<hash>E", its ".llvm.N"
 * suffix and hash dropped, "$LT$" decoded; v0 "_R...") and then the
 * Itanium C++ ABI.  Only names that can be mangled are handed to it (the
 * check is the cost of every other name). */
const char *sym__demangle(const char *name, int params, char *buf, size_t len)
{
	char *out;

	if (!name || name[0] != '_' || (name[1] != 'Z' && name[1] != 'R' &&
	    strncmp(name, "_GLOBAL_", 8) != 0))
		return name;
	out = cplus_demangle(name, DMGL_AUTO | (params ? DMGL_PARAMS | DMGL_ANSI : 0));
	if (!out)
		return name;
	snprintf(buf, len, "%s", out);
	free(out);
	return buf;
}

/* Demangled as the table's options say (symtab_opts.demangle). */
const char *sym__demangled(const struct symtab *st, const char *name, char *buf, size_t len)
{
	return st->o.demangle ? sym__demangle(name, st->o.demangle > 1, buf, len) : name;
}

/* A kernel symbol's name, interned: demangled only with demangle_kernel
 * (perf's --demangle-kernel; a kernel built with Rust has v0 names). */
static const char *kernel_name(struct symtab *st, const char *raw)
{
	char buf[4096];
	return symtab__intern(st, st->o.demangle_kernel ? sym__demangled(st, raw, buf, sizeof(buf)) : raw);
}

const char *sym__intern_sym(struct symtab *st, const char *raw)
{
	char buf[4096];
	if (!raw)
		return symtab__intern(st, UNKNOWN);
	return symtab__intern(st, sym__demangled(st, raw, buf, sizeof(buf)));
}

void sym__dso_open(struct sym_dso *d)
{
	if (d->opened)
		return;
	d->opened = 1;
	switch (sym__dso_kind(d)) {
	case SYM_DSO_ELF: sym__open_elf(d); break;
	case SYM_DSO_VDSO: sym__open_vdso(d); break;
	case SYM_DSO_KERNEL: sym__load_kallsyms(d); break;
	case SYM_DSO_PERFMAP: sym__load_perfmap(d); break;
	case SYM_DSO_MAPFILE:
		if (sym__open_mapfile(d) != 0)
			d->kind = SYM_DSO_ELF;
		break;
	case SYM_DSO_ANON: break;
	}
}

const char *sym_dso__problem(struct sym_dso *d)
{
	sym__dso_open(d);
	return d->problem;
}

uint64_t sym_dso__addr(struct sym_dso *d, uint64_t map_start, uint64_t pgoff, uint64_t pc)
{
	uint64_t off;
	enum sym_dso_kind kind = sym__dso_kind(d);
	if (kind != SYM_DSO_ELF && kind != SYM_DSO_VDSO)
		return pc;
	sym__dso_open(d);
	off = pc - map_start + pgoff;
	if (d->kind == SYM_DSO_VDSO)
		off = pc - map_start;   /* the vDSO is mapped whole, from offset 0 */
	for (int i = 0; i < d->nseg; i++)
		if (off >= d->segs[i].off && off < d->segs[i].off + d->segs[i].filesz)
			return off - d->segs[i].off + d->segs[i].vaddr;
	return off;
}

/* The kernel maps a PT_LOAD segment at bias + page_down(p_vaddr) from file
 * offset page_down(p_offset), so any segment whose file bytes the mapping
 * holds gives the bias.  Which one matters: lld packs segments into shared
 * pages (text at offset 0x14480, vaddr 0x15480, after read-only data ending
 * at 0x14474), so the mapping's first page belongs to two segments with
 * different vaddr - offset; the executable one is what an executable
 * mapping maps. */
int sym_dso__bias(struct sym_dso *d, uint64_t map_start, uint64_t map_len, uint64_t pgoff,
    int exec, uint64_t *bias)
{
	const struct seg *best = NULL;
	if (sym__dso_kind(d) != SYM_DSO_ELF)
		return -1;
	sym__dso_open(d);
	for (int i = 0; i < d->nseg; i++) {
		const struct seg *g = &d->segs[i];
		if (g->off + g->filesz <= pgoff || g->off >= pgoff + map_len)
			continue;     /* none of its bytes in the mapping */
		if (!best || (exec && (g->flags & PF_X) && !(best->flags & PF_X)))
			best = g;
	}
	if (!best)
		return -1;
	*bias = map_start - pgoff + best->off - best->vaddr;
	return 0;
}

/* An address as a name, interned: "0x0000000000163d47". */
static const char *addr_name(struct symtab *st, uint64_t addr)
{
	char hex[24];
	snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)addr);
	return symtab__intern(st, hex);
}

int sym_dso__func(struct sym_dso *d, uint64_t addr, const char **name, uint64_t *start,
    uint64_t *size)
{
	const struct tsym *t;
	struct tsym tb;
	sym__dso_open(d);
	*name = symtab__intern(d->st, UNKNOWN);
	*start = addr;
	*size = 1;
	switch (d->kind) {
	case SYM_DSO_ELF:
	case SYM_DSO_VDSO: {
		/* No symbol in a known binary: the address is named, one entry
		 * per address, as perf report does ("0x0000000000163d47"). */
		int known = !sym_dso__problem(d);
		const struct fpiece *f = NULL;
		if (d->mod) {
			if ((t = sym__table_find(&d->plt, addr)) != NULL) {
				*name = t->name;
				*start = t->start;
				*size = t->size;
				return 0;
			}
			f = sym__elf_func(d, addr);
		}
		uint64_t fsize = 0;
		if (f && f->name) {
			*name = f->name;
			*start = f->start;
			fsize = f->size;
		} else if (!f || !(*name = sym__elf_stretched(d, addr, start))) {
			*name = known ? addr_name(d->st, addr) : symtab__intern(d->st, UNKNOWN);
			*start = addr;
			return -1;
		}
		const char *a = sym__alias_at(d, *start);
		if (a)
			*name = a;
		*size = fsize ? fsize : addr - *start + 1;
		return 0;
	}
	case SYM_DSO_KERNEL: {
		if (d->ko) {
			/* the module's own .ko: offsets from its base */
			if (!(t = sym__table_find(&d->tab, addr - d->kbase)))
				return -1;
			*name = kernel_name(d->st, t->name);
			*start = t->start + d->kbase;
			*size = t->size;
			return 0;
		}
		if (d->kmod && d->problem) {
			*name = addr_name(d->st, addr);
			return -1;
		}
		/* modules look up in the kernel's table */
		struct sym_dso *k = d->kmod ? symtab__kernel(d->st) : d;
		if (!k)
			return -1;      /* out of memory: symtab__nomem */
		sym__dso_open(k);
		if (sym__kernel_foreign(d->st) && !(t = sym__ksym_find(k, addr, &tb))) {
			/* another kernel's address: shown as it is, as perf does */
			*name = addr_name(d->st, addr);
			return -1;
		}
		/* in this boot's addresses (the table), answered in the recording's */
		if (!(t = sym__ksym_find(k, addr + d->st->kdelta, &tb)))
			return -1;
		*name = kernel_name(d->st, t->name);
		*start = t->start - d->st->kdelta;
		*size = t->size;
		return 0;
	}
	case SYM_DSO_PERFMAP:
	case SYM_DSO_MAPFILE:
		if (!(t = sym__table_find(&d->tab, addr)))
			return -1;
		*name = t->name;
		*start = t->start;
		*size = t->size;
		return 0;
	case SYM_DSO_ANON:
		break;
	}
	return -1;
}

/* "ns::f(int)" matches "ns::f" and "f" matches "ns::f"?  No: exact name, or
 * the name without its parameter list. */
static int name_matches(const char *sym, const char *want)
{
	size_t n = strlen(want);
	if (strcmp(sym, want) == 0)
		return 1;
	return strncmp(sym, want, n) == 0 && sym[n] == '(';
}

int sym_dso__find_func(struct sym_dso *d, const char *name, uint64_t *start, uint64_t *size)
{
	sym__dso_open(d);
	if (d->mod) {
		int n = dwfl_module_getsymtab(d->mod);
		for (int i = 1; i < n; i++) {
			GElf_Sym sym;
			GElf_Addr a;
			const char *sn = dwfl_module_getsym_info(d->mod, i, &sym, &a, NULL, NULL, NULL);
			char buf[4096];
			if (!sn || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
				continue;
			if (name_matches(sn, name) ||
			    name_matches(sym__demangle(sn, 1, buf, sizeof(buf)), name) ||
			    name_matches(sym__demangle(sn, 0, buf, sizeof(buf)), name)) {
				*start = a;
				*size = sym.st_size;
				return 0;
			}
		}
		return -1;
	}
	sym__table_sort(&d->tab);
	for (size_t i = 0; i < d->tab.n; i++)
		if (name_matches(d->tab.v[i].name, name)) {
			*start = d->tab.v[i].start;
			*size = d->tab.v[i].size;
			return 0;
		}
	for (size_t i = 0; i < d->kimg.n; i++)
		if (!kcache__entry_valid(&d->kimg, i) ||
		    name_matches(d->kimg.names + d->kimg.ent[i].name, name)) {
			if (!kcache__entry_ok(&d->kimg, i)) {
				sym__kernel_unseal(d);
				return sym_dso__find_func(d, name, start, size);
			}
			*start = d->kimg.ent[i].start;
			*size = d->kimg.ent[i].size;
			return 0;
		}
	return -1;
}
