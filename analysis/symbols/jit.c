/*
 * jit.c — JIT code (part of the symbolizer, symbols_internal.h): a
 * process's /tmp/perf-PID.map, its jit-PID.dump (code loads, moves and
 * line tables), and mapped files that are perf maps (the simulator's
 * executables).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/symbols.h"
#include "symbols/symbols_internal.h"
#include "common/grow.h"
#include "common/hmap.h"

/* Anonymous memory that may hold JIT code: //anon, [anon:name], memfd. */
static int jit_capable(const char *path)
{
	return strncmp(path, "//anon", 6) == 0 || strncmp(path, "[anon:", 6) == 0 ||
	    strncmp(path, "/memfd:", 7) == 0 || strncmp(path, "memfd:", 6) == 0 || path[0] == '\0';
}

struct sym_dso *symtab__perfmap(struct symtab *st, pid_t pid)
{
	char path[4096], name[64];
	for (size_t i = 0; i < st->ndso; i++)
		if (st->dsos[i]->kind == SYM_DSO_PERFMAP && st->dsos[i]->pid == pid)
			return st->dsos[i];
	snprintf(path, sizeof(path), "%s/perf-%d.map", st->o.perfmap_dir, (int)pid);
	snprintf(name, sizeof(name), "perf-%d.map", (int)pid);
	struct sym_dso *d = sym__new_dso(st, SYM_DSO_PERFMAP, path, name);
	if (d)
		d->pid = pid;
	return d;
}

void symtab__set_jitdump(struct symtab *st, pid_t pid, const char *path)
{
	struct sym_dso *d = symtab__perfmap(st, pid);
	if (!d || d->opened || (d->jitdump && strcmp(d->jitdump, path) == 0))
		return;
	free(d->jitdump);
	d->jitdump = strdup(path);
	if (!d->jitdump) {
		st->nomem = 1;
		return;
	}
	d->jit_state = 1;
	d->name = symtab__intern_name(st, sym__base_name(path));
}

struct sym_dso *symtab__jit(struct symtab *st, pid_t pid)
{
	struct stat sb;
	struct sym_dso *d = symtab__perfmap(st, pid);
	if (!d)
		return NULL;
	/* looked for once per process */
	if (!d->jit_state)
		d->jit_state = d->jitdump || stat(d->path, &sb) == 0 ? 1 : 2;
	return d->jit_state == 1 ? d : NULL;
}

uint64_t sym_dso__jit_move_probes(const struct sym_dso *d)
{
	return d->jit_move_probes;
}

int sym_dso__jit_capable(const struct sym_dso *d)
{
	return d->kind == SYM_DSO_ANON && jit_capable(d->path);
}

/* /tmp/perf-PID.map: "START SIZE name" per line (hex).  Like perf, a map
 * that is neither ours nor root's is not trusted. */
/* A perf map's text is a line per function: a bigger one is not a map. */
#define PERFMAP_MAX (1LL << 30)

static int load_perfmap_file(struct sym_dso *d)
{
	char buf[4200];
	/* a mapped file (the simulator's executable) is a binary: --symfs applies */
	int fd = sym__open_regular(d->kind == SYM_DSO_MAPFILE ?
	    sym__host_path(d->st, d->path, buf, sizeof(buf)) : d->path);
	struct stat sb;
	FILE *f;
	char line[4096];
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || (sb.st_uid != geteuid() && sb.st_uid != 0) ||
	    !(f = fdopen(fd, "r"))) {
		close(fd);
		d->problem = "JIT map not owned by this user or root: ignored";
		return -1;
	}
	if (sb.st_size > PERFMAP_MAX) {
		fclose(f);
		d->problem = "JIT map over 1 GiB: not read";
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, s;
		int n = 0;
		if (sscanf(line, "%llx %llx %n", &a, &s, &n) < 2 || n == 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		sym__table_add(&d->tab, a, s, sym__intern_sym(d->st, line + n));
	}
	fclose(f);
	return 0;
}

/*
 * jit-PID.dump, the format of perf's tools/perf/util/jitdump.h as `perf
 * inject --jit` reads it: a header (magic "JiTD", version, total_size,
 * elf_mach, pad, pid, timestamp, flags) and records, each a prefix (id,
 * total_size, timestamp) and a body.  CODE_LOAD (pid, tid, vma, code_addr,
 * code_size, code_index, name, code bytes) names [code_addr, +code_size);
 * CODE_MOVE moves one; DEBUG_INFO (code_addr, nr_entry, entries of addr,
 * lineno, discrim, file name or "\xff" for the previous one) gives lines.
 * Records are trusted only as far as their sizes check out.
 */
#define JIT_MAGIC 0x4A695444u
#define JIT_CODE_LOAD 0
#define JIT_CODE_MOVE 1
#define JIT_CODE_DEBUG_INFO 2
#define JIT_CODE_CLOSE 3

static int jline_cmp(const void *a, const void *b)
{
	const struct jline *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void jit_debug(struct sym_dso *d, const unsigned char *r, size_t len)
{
	uint64_t nr;
	size_t off = 32;
	const char *prev = NULL;
	if (len < 32)
		return;
	memcpy(&nr, r + 24, 8);
	for (uint64_t i = 0; i < nr && len - off >= 17; i++) {
		uint64_t addr;
		int32_t ln;
		const char *name = (const char *)r + off + 16;
		size_t nl = strnlen(name, len - off - 16);
		if (nl == len - off - 16)
			break;                 /* no NUL inside the record */
		memcpy(&addr, r + off, 8);
		memcpy(&ln, r + off + 8, 4);
		const char *file = (unsigned char)name[0] == 0xff && nl == 1 ? prev :
		    symtab__intern(d->st, name);
		prev = file;
		if (GROW(d->jl, d->njl, d->capjl) < 0) {
			d->st->nomem = 1;
			break;
		}
		if (file && ln > 0)
			d->jl[d->njl++] = (struct jline){ addr, file, ln };
		off += 16 + nl + 1;
	}
}

/* A CODE_MOVE names the code at its old address by the first symbol that
 * starts there: starts maps an address to that symbol's index in d->tab
 * (a hash, so that many moves are not each a walk of every symbol). */
static void index_start(struct sym_dso *d, struct hmap *starts, size_t i)
{
	int found;
	struct hent *e;
	if (i >= d->tab.n)
		return;                /* not added (out of memory: tab.nomem says it) */
	if (!(e = hmap_slot(starts, d->tab.v[i].start, 0, &found)))
		d->st->nomem = 1;
	else if (!found)
		e->v = (uint32_t)i;
}

static void load_jitdump(struct sym_dso *d)
{
	int fd = sym__open_regular(d->jitdump);
	unsigned char hdr[40], pre[16], *r = NULL;
	size_t cap = 0;
	struct hmap starts = { NULL, 0, 0 };
	uint32_t magic = 0, hsize;
	FILE *f;

	if (fd < 0) {
		d->problem = "jitdump file not readable";
		return;
	}
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		return;
	}
	if (fread(hdr, 1, 40, f) != 40 || (memcpy(&magic, hdr, 4), magic != JIT_MAGIC)) {
		d->problem = magic == __builtin_bswap32(JIT_MAGIC) ?
		    "jitdump of the other byte order: not read" : "not a jitdump file";
		fclose(f);
		return;
	}
	memcpy(&hsize, hdr + 8, 4);
	if (hsize < 40 || fseek(f, hsize, SEEK_SET) != 0) {
		d->problem = "jitdump header is damaged";
		fclose(f);
		return;
	}
	for (size_t i = 0; i < d->tab.n; i++)
		index_start(d, &starts, i);    /* the perf map's, read before */
	while (fread(pre, 1, 16, f) == 16) {
		uint32_t id, size;
		memcpy(&id, pre, 4);
		memcpy(&size, pre + 4, 4);
		if (size < 16 || size > (64u << 20))
			break;                 /* damaged: keep what was read */
		if (cap < size) {      /* the largest record so far (sized, not GROW's step) */
			unsigned char *nr = realloc(r, size);
			if (!nr)
				break;
			r = nr;
			cap = size;
		}
		memcpy(r, pre, 16);
		if (fread(r + 16, 1, size - 16, f) != size - 16)
			break;
		if (id == JIT_CODE_CLOSE)
			break;
		if (id == JIT_CODE_LOAD && size >= 57) {
			uint64_t addr, csize;
			memcpy(&addr, r + 32, 8);     /* code_addr (vma at 24 is informative) */
			memcpy(&csize, r + 40, 8);
			size_t nl = strnlen((const char *)r + 56, size - 56);
			if (nl < size - 56 && csize && addr + csize > addr) {
				sym__table_add(&d->tab, addr, csize, sym__intern_sym(d->st, (const char *)r + 56));
				index_start(d, &starts, d->tab.n - 1);
			}
		} else if (id == JIT_CODE_MOVE && size >= 64) {
			uint64_t from, to, csize;
			memcpy(&from, r + 32, 8);
			memcpy(&to, r + 40, 8);
			memcpy(&csize, r + 48, 8);
			const struct hent *e = hmap_find(&starts, from, 0, &d->jit_move_probes);
			if (e && csize && to + csize > to) {
				sym__table_add(&d->tab, to, csize, d->tab.v[e->v].name);
				index_start(d, &starts, d->tab.n - 1);
			}
		} else if (id == JIT_CODE_DEBUG_INFO) {
			jit_debug(d, r, size);
		}
	}
	free(r);
	free(starts.t);
	fclose(f);
	if (d->njl)
		qsort(d->jl, d->njl, sizeof(*d->jl), jline_cmp);
}

void sym__load_perfmap(struct sym_dso *d)
{
	int have = load_perfmap_file(d) == 0;
	if (d->jitdump) {
		const char *why = d->problem;
		d->problem = NULL;
		load_jitdump(d);
		if (!d->problem)
			d->problem = why;
		have = 1;
	}
	if (!have && !d->problem)
		d->problem = "no JIT map (perf-PID.map)";
}

/* A jitdump's line for addr: the last entry at or before it in its function. */
int sym__jit_srcline(struct sym_dso *d, uint64_t addr, const char **file, int *line)
{
	const struct tsym *t = sym__table_find(&d->tab, addr);
	size_t lo = 0, hi = d->njl;
	if (!t || !d->njl)
		return -1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (d->jl[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || d->jl[lo - 1].addr < t->start)
		return -1;
	*file = d->jl[lo - 1].file;
	*line = d->jl[lo - 1].line;
	return 0;
}

/* A mapped file that is not ELF but a perf map ("START SIZE NAME" lines):
 * the simulator's executables are (lib/backend/sim, simwl__write_image).
 * Anything else is reported as the non-ELF file it is. */
int sym__open_mapfile(struct sym_dso *d)
{
	if (load_perfmap_file(d) != 0 || d->tab.n == 0) {
		if (!d->problem)
			d->problem = "not an ELF file";
		return -1;
	}
	sym__table_sort(&d->tab);
	return 0;
}
