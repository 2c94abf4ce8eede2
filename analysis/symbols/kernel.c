/*
 * kernel.c — the kernel and its modules (part of the symbolizer,
 * symbols_internal.h): the recording's kernel against the running one
 * (build id, release: symtab__kernel_warning), module maps and their .ko
 * files, /proc/kallsyms or a kallsyms file, -k vmlinux, the kernel's symbol
 * cache (kcache.h) searched in place, and the KASLR offset of another boot.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>

#include "symbols/symbols.h"
#include "symbols/symbols_internal.h"
#include "symbols/kcache.h"
#include "common/error.h"
#include "common/grow.h"
#include "common/sysinfo.h"

void symtab__add_ksym(struct symtab *st, uint64_t addr, uint64_t len, const char *name)
{
	sym__table_add(&st->ksyms_extra, addr, len, symtab__intern(st, name));
}

void symtab__set_kernel_release(struct symtab *st, const char *release)
{
	if (release && *release)
		st->krelease = symtab__intern(st, release);
	st->kforeign = -1;
}

void symtab__set_kernel_reloc(struct symtab *st, const char *sym, uint64_t addr)
{
	if (!sym || !*sym || !addr)
		return;
	st->kref = symtab__intern(st, sym);
	st->kref_addr = addr;
}

void symtab__set_kernel_buildid(struct symtab *st, const uint8_t *bid, unsigned bidlen)
{
	if (!bid || !bidlen)
		return;
	st->kbidlen = bidlen > 20 ? 20 : bidlen;
	memcpy(st->kbid, bid, st->kbidlen);
	st->kforeign = -1;
}

/* -k/--vmlinux FILE: usable unless the recording names its kernel's build
 * id and FILE's differs or is missing (perf refuses it then too). */
static int vmlinux_foreign(struct symtab *st)
{
	uint8_t fb[20];
	unsigned fl = 0;
	char a[41], b[41];
	int fd = sym__open_regular(st->o.vmlinux);

	if (fd >= 0) {
		fl = sym__file_buildid(fd, fb);
		close(fd);
	}
	if (fd < 0 || !st->kbidlen || (fl == st->kbidlen && memcmp(fb, st->kbid, fl) == 0))
		return 0;                 /* an unreadable file: load_vmlinux says so */
	sym__hexid(st->kbid, st->kbidlen, a);
	sym__hexid(fb, fl, b);
	snprintf(st->kwarn, sizeof(st->kwarn), "%s is not the recording's kernel: its build id "
	    "is %s, the recording's %s; kernel addresses are shown unresolved", st->o.vmlinux,
	    fl ? b : "missing", a);
	return 1;
}

/*
 * Is the recording's kernel another one than the running kernel?  Decided
 * by the build id when the recording has one (KSYMSRC, perf's build-id
 * feature), else by the release; a recording that says neither is taken to
 * be of this kernel.  An explicit kallsyms file (symtab_opts) is trusted.
 */
int sym__kernel_foreign(struct symtab *st)
{
	struct utsname u;
	uint8_t run[20];
	unsigned rl;
	char a[41], b[41];

	if (st->kforeign >= 0)
		return st->kforeign;
	st->kforeign = 0;
	st->kwarn[0] = '\0';
	if (st->o.vmlinux)
		return st->kforeign = vmlinux_foreign(st);
	if (strcmp(st->o.kallsyms, "/proc/kallsyms") != 0)
		return 0;
	if (uname(&u) != 0)
		u.release[0] = '\0';
	rl = pmc__sys_kernel_build_id(run);
	if (st->kbidlen && rl) {
		if (rl == st->kbidlen && memcmp(run, st->kbid, rl) == 0)
			return 0;
		sym__hexid(st->kbid, st->kbidlen, a);
		sym__hexid(run, rl, b);
		snprintf(st->kwarn, sizeof(st->kwarn), "No kallsyms or vmlinux with build-id %s "
		    "was found: the recording's kernel%s%s is not the running one (build id %s, %s); "
		    "kernel addresses are shown unresolved", a, st->krelease ? " " : "",
		    st->krelease ? st->krelease : "", b, u.release);
	} else if (st->krelease && strcmp(st->krelease, u.release) != 0) {
		snprintf(st->kwarn, sizeof(st->kwarn), "No kallsyms for kernel %s: the recording's "
		    "kernel is not the running one (%s); kernel addresses are shown unresolved",
		    st->krelease, u.release);
	} else {
		return 0;
	}
	st->kforeign = 1;
	return 1;
}

const char *symtab__kernel_warning(struct symtab *st)
{
	/* only when there are kernel samples to be wrong about */
	if (!st->kernel || !sym__kernel_foreign(st))
		return NULL;
	return st->kwarn;
}

/* "[ath9k]", "/lib/modules/.../ath9k.ko.xz" -> "ath9k" (perf's dashes become
 * underscores, as the kernel names modules). */
static void module_name(const char *path, char *out, size_t len)
{
	const char *b = sym__base_name(path);
	size_t n;
	if (b[0] == '[') {
		b++;
		n = strcspn(b, "]");
	} else {
		n = strcspn(b, ".");
	}
	if (n >= len)
		n = len - 1;
	for (size_t i = 0; i < n; i++)
		out[i] = b[i] == '-' ? '_' : b[i];
	out[n] = '\0';
}

static struct sym_dso *kmod_dso(struct symtab *st, const char *name, const char *path)
{
	char nm[300];
	snprintf(nm, sizeof(nm), "[%s]", name);
	for (size_t i = 0; i < st->ndso; i++)
		if (st->dsos[i]->kmod && strcmp(st->dsos[i]->name, nm) == 0)
			return st->dsos[i];
	struct sym_dso *d = sym__new_dso(st, SYM_DSO_KERNEL, path ? path : nm, nm);
	if (d)
		d->kmod = 1;
	return d;
}

void symtab__add_kmodule(struct symtab *st, uint64_t start, uint64_t len, const char *path,
    const uint8_t *bid, unsigned bidlen)
{
	char name[256];
	if (!len || start + len < start)
		return;
	module_name(path, name, sizeof(name));
	if (!name[0])
		return;
	if (GROW(st->kmods, st->nkmods, st->capkmods) < 0) {
		st->nomem = 1;
		return;
	}
	struct sym_dso *d = kmod_dso(st, name, path);
	if (!d)
		return;
	if (!d->kbase)
		d->kbase = start;
	if (bid && bidlen && !d->bidlen) {
		d->bidlen = bidlen > 20 ? 20 : bidlen;
		memcpy(d->bid, bid, d->bidlen);
	}
	st->kmods[st->nkmods++] = (struct kmodmap){ start, start + len, d };
}


/* The kernel's symbol at addr, as table_find finds it in one table: from
 * the cache image (searched where it is mapped) and k->tab (all symbols
 * when there is no image; else the KSYMBOL records'), the later start
 * winning, the table's on a tie (its symbols came after the image's).
 * A symbol of the image is described in *buf. */
const struct tsym *sym__ksym_find(struct sym_dso *k, uint64_t addr, struct tsym *buf)
{
	struct kcache_img *im = &k->kimg;
	size_t lo = sym__starts_upto(im->ent, im->n, sizeof(*im->ent), addr);
	/* every entry the answer depends on is sealed: the ones looked at and
	 * the first one past addr (an edited start there moves the search) */
	for (size_t j = lo + 1 < im->n ? lo + 1 : im->n; j > 0 && lo + 1 - j <= 8; j--)
		if (!kcache__entry_ok(im, j - 1)) {
			sym__kernel_unseal(k);
			return k->tab.n ? sym__table_find(&k->tab, addr) : NULL;
		}
	const struct tsym *t = k->tab.n ? sym__table_find(&k->tab, addr) : NULL;
	for (size_t j = lo; j > 0 && lo - j < 8; j--) {
		const struct kcache_ent *e = &im->ent[j - 1];
		if (addr - e->start >= e->size)       /* e->start <= addr: sorted */
			continue;
		if (t && t->start >= e->start)
			return t;
		*buf = (struct tsym){ e->start, e->size, im->names + e->name,
			e->mod == KCACHE_NOMOD ? NULL : im->names + e->mod };
		return buf;
	}
	return t;
}

struct sym_dso *symtab__kmodule_at(struct symtab *st, uint64_t addr)
{
	for (size_t i = st->nkmods; i > 0; i--)     /* the latest covering addr */
		if (addr >= st->kmods[i - 1].start && addr < st->kmods[i - 1].end)
			return st->kmods[i - 1].dso;
	return NULL;
}

struct sym_dso *symtab__kernel_at(struct symtab *st, uint64_t addr)
{
	struct sym_dso *k = symtab__kernel(st), *m;
	const struct tsym *t;
	struct tsym tb;
	if (!k)
		return NULL;
	/* the recording's module maps first */
	if ((m = symtab__kmodule_at(st, addr)) != NULL)
		return m;
	/* else the module kallsyms names for this address */
	sym__dso_open(k);
	if ((t = sym__ksym_find(k, addr + st->kdelta, &tb)) != NULL && t->mod &&
	    (m = kmod_dso(st, t->mod, NULL)) != NULL)
		return m;
	return k;               /* or out of memory for the module: symtab__nomem */
}

/* ---- the kernel ----------------------------------------------------------- */

static void kc_get(void *arg, size_t i, uint64_t *start, uint64_t *size, const char **name,
    const char **mod)
{
	const struct tsym *t = &((struct sym_dso *)arg)->tab.v[i];
	*start = t->start;
	*size = t->size;
	*name = t->name;
	*mod = t->mod;
}

/*
 * A module's symbols from its .ko (ET_REL, compressed or not: dwelf_elf_begin
 * inflates .ko.xz/.ko.zst): its functions in .text, whose start is the
 * module's base in the recording (perf's assumption too: the module map's
 * pgoff is .text's file offset).  0 loaded; 1 the file is another build; -1
 * not a module file.
 */
static int ko_read(struct sym_dso *d, int fd)
{
	Elf *e = dwelf_elf_begin(fd);
	Elf_Scn *scn = NULL;
	size_t shstr, text = 0;
	const void *id;
	int rc = -1;
	ssize_t l;

	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstr) != 0)
		goto out;
	l = dwelf_elf_gnu_build_id(e, &id);
	if (l <= 0 || (size_t)l != d->bidlen || memcmp(id, d->bid, d->bidlen) != 0) {
		rc = 1;
		goto out;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *n;
		if (gelf_getshdr(scn, &sh) && (n = elf_strptr(e, shstr, sh.sh_name)) &&
		    strcmp(n, ".text") == 0)
			text = elf_ndxscn(scn);
	}
	while (text && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;
			char dm[1024];
			if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx != text || !(n = elf_strptr(e, sh.sh_link, sym.st_name)) || !*n)
				continue;
			sym__table_add(&d->tab, sym.st_value, sym.st_size ? sym.st_size : 1, symtab__intern(d->st,
			    sym__demangled(d->st, n, dm, sizeof(dm))));
		}
	}
	sym__table_sort(&d->tab);
	rc = text ? 0 : -1;
out:
	if (e)
		elf_end(e);
	return rc;
}

static char ko_found[4096];
static const char *ko_want;

static int ko_visit(const char *path, const struct stat *sb, int type, struct FTW *f)
{
	char name[256];
	(void)sb;
	(void)f;
	if (type != FTW_F || !strstr(sym__base_name(path), ".ko"))
		return 0;
	module_name(path, name, sizeof(name));
	if (strcmp(name, ko_want) != 0)
		return 0;
	snprintf(ko_found, sizeof(ko_found), "%s", path);
	return 1;
}

/*
 * Open a module's .ko, only when the recording gave its build id: where the
 * recording says it was, the build-id caches (perf's ~/.debug, the debug
 * files), or /lib/modules/RELEASE by name.  A .ko of another build is not
 * used: the module's addresses are shown and sym_dso__problem says why, as
 * for a kernel of another build.  Without a build id, or when no .ko is
 * found, the kernel's kallsyms names (if the kernel is this one).
 */
static void load_ko(struct sym_dso *d)
{
	char hex[41], p[4200], name[256];
	const char *home = getenv("HOME");
	struct utsname u;
	int other = 0;

	if (!d->bidlen)
		return;
	sym__hexid(d->bid, d->bidlen, hex);
	module_name(d->path, name, sizeof(name));
	for (int i = 0; i < 5 && !d->ko; i++) {
		p[0] = '\0';
		if (i == 0 && d->path[0] == '/')
			snprintf(p, sizeof(p), "%s%s", d->st->o.symfs ? d->st->o.symfs : "", d->path);
		else if (i == 1 && home)
			snprintf(p, sizeof(p), "%s/.debug/.build-id/%.2s/%s/elf", home, hex, hex + 2);
		else if (i == 2)
			snprintf(p, sizeof(p), "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
			    d->st->o.symfs ? d->st->o.symfs : "", hex, hex + 2);
		else if (i == 3 && uname(&u) == 0) {
			snprintf(p, sizeof(p), "/lib/modules/%s", u.release);
			ko_want = name;
			ko_found[0] = '\0';
			if (nftw(p, ko_visit, 16, FTW_PHYS) <= 0 || !ko_found[0])
				continue;
			snprintf(p, sizeof(p), "%s", ko_found);
		}
		int fd = p[0] ? sym__open_regular(p) : -1;
		if (fd < 0)
			continue;
		int rc = ko_read(d, fd);
		close(fd);
		d->ko = rc == 0;
		other |= rc == 1;
	}
	if (!d->ko && other)
		d->problem = "build id differs from the recorded one: the module's .ko is another "
		    "build; module addresses are shown unresolved";
}

/* One line of a kallsyms file, "ffffffff81000000 T name\t[module]": its
 * address, type and name (NULL if the line is not one). */
static char *kallsyms_line(char *line, unsigned long long *a, char *type)
{
	char *e;
	*a = strtoull(line, &e, 16);
	if (e == line || e[0] != ' ' || !e[1] || e[1] == ' ' || e[2] != ' ' || !e[3] ||
	    isspace((unsigned char)e[3]))
		return NULL;
	*type = e[1];
	return e + 3;
}

int symtab__check_kernel_file(const char *path, int elf)
{
	char line[1024];
	FILE *f = fopen(path, elf ? "rb" : "r");
	int good = 0;

	if (!f)
		return pmc__err(-errno, "cannot read '%s': %s", path, strerror(errno));
	if (elf) {
		good = fread(line, 1, SELFMAG, f) == SELFMAG && memcmp(line, ELFMAG, SELFMAG) == 0;
	} else {
		/* the first line that is not empty tells */
		while (fgets(line, sizeof(line), f)) {
			unsigned long long a;
			char type;
			if (line[strspn(line, " \t\n")] == '\0')
				continue;
			good = kallsyms_line(line, &a, &type) && isalpha((unsigned char)type);
			break;
		}
	}
	fclose(f);
	if (good)
		return 0;
	return pmc__err(-EINVAL, elf ? "'%s' is not an ELF file (a kernel image, vmlinux)" :
	    "'%s' is not a kallsyms file (lines of ADDRESS TYPE NAME, as /proc/kallsyms)", path);
}

/* Text symbols of a kallsyms file: "ffffffff81000000 T name [module]". */
static int read_kallsyms(struct sym_dso *d, int fd)
{
	FILE *f = fdopen(fd, "r");
	char line[1024];
	const char *lastmod = NULL;
	int nonzero = 0;
	if (!f) {
		close(fd);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *name, *mod, type;
		unsigned long long a;
		if (!(name = kallsyms_line(line, &a, &type)))
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		size_t n = strcspn(name, " \t\n");
		const char *m = NULL;
		if (name[n] == '\t' && name[n + 1] == '[' && (mod = name + n + 2) &&
		    strchr(mod, ']')) {
			size_t ml = strcspn(mod, "]");
			/* one copy per module: symbols of a module are consecutive */
			if (lastmod && strlen(lastmod) == ml && strncmp(lastmod, mod, ml) == 0)
				m = lastmod;
			else
				m = lastmod = sym__arena_add(d, mod, ml);
		}
		nonzero |= a != 0;
		sym__table_add_mod(&d->tab, a, 0, sym__arena_add(d, name, n), m);
	}
	fclose(f);
	return nonzero ? 0 : 1;
}

/* -k/--vmlinux: the kernel's functions and text labels (_text, which
 * the KASLR relocation below looks for) from an ELF symbol table, at their
 * link addresses; 0, or -1 with d->problem saying why. */
static int load_vmlinux(struct sym_dso *d)
{
	int fd = sym__open_regular(d->path);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
	Elf_Scn *scn = NULL;
	int rc = -1;

	while (e && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh, th;
		GElf_Sym sym;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (int i = 1; gelf_getsym(data, i, &sym); i++) {
			int type = GELF_ST_TYPE(sym.st_info);
			Elf_Scn *in;
			const char *n;
			if ((type != STT_FUNC && type != STT_NOTYPE) || sym.st_shndx == SHN_UNDEF ||
			    sym.st_shndx >= SHN_LORESERVE || !sym.st_value ||
			    !(in = elf_getscn(e, sym.st_shndx)) || !gelf_getshdr(in, &th) ||
			    !(th.sh_flags & SHF_EXECINSTR) ||
			    !(n = elf_strptr(e, sh.sh_link, sym.st_name)) || !*n)
				continue;
			sym__table_add(&d->tab, sym.st_value, sym.st_size, sym__arena_add(d, n, strlen(n)));
		}
		rc = 0;
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	if (rc != 0 || !d->tab.n) {
		d->tab.n = 0;
		d->problem = fd < 0 ? "the vmlinux file cannot be read" :
		    "the vmlinux file has no symbol table with kernel functions";
		return -1;
	}
	sym__table_sort(&d->tab);
	return 0;
}

/* The running kernel's cache key when d reads /proc/kallsyms (else
 * key->bidlen is 0: nothing is cached). */
static void kernel_key(const struct sym_dso *d, struct kcache_key *key)
{
	uint8_t bid[20];
	uint32_t bl = strcmp(d->path, "/proc/kallsyms") == 0 ? pmc__sys_kernel_build_id(bid) : 0;
	if (!bl || kcache__key(key, bid, bl) != 0)
		key->bidlen = 0;
}

/* The kallsyms file into d->tab, sorted, and into the cache under key (if
 * any): 0, or -1 with d->problem saying why. */
static int read_kernel_syms(struct sym_dso *d, const struct kcache_key *key)
{
	int proc = strcmp(d->path, "/proc/kallsyms") == 0;
	int fd = sym__open_regular(d->path), rc;
	if (fd < 0 && proc)
		fd = open(d->path, O_RDONLY | O_CLOEXEC);  /* procfs: never a FIFO */
	if (fd < 0 || (rc = read_kallsyms(d, fd)) < 0) {
		d->problem = "cannot read kernel symbols";
		return -1;
	}
	if (rc > 0) {
		d->tab.n = 0;
		d->problem = "kernel addresses are hidden (kernel.kptr_restrict)";
		return -1;
	}
	sym__table_sort(&d->tab);
	/* the last text symbol has no successor: do not let it swallow everything */
	if (d->tab.n && d->tab.v[d->tab.n - 1].size > 1 << 20)
		d->tab.v[d->tab.n - 1].size = 4096;
	if (key->bidlen)
		(void)kcache__store(key, d->tab.n, kc_get, d);
	return 0;
}

/* An entry of the kernel's cache image failed its seal: the file was
 * edited or damaged.  The image is dropped for /proc/kallsyms (whose
 * table is written back to the cache), under the KSYMBOL records' symbols
 * d->tab held; the lookups answered so far used only sealed entries. */
void sym__kernel_unseal(struct sym_dso *d)
{
	struct kcache_key key;
	struct table extra = d->tab;
	kcache__unload(&d->kimg);
	memset(&d->tab, 0, sizeof(d->tab));
	kernel_key(d, &key);
	(void)read_kernel_syms(d, &key);
	for (size_t i = 0; i < extra.n; i++)
		sym__table_add(&d->tab, extra.v[i].start, extra.v[i].size, extra.v[i].name);
	sym__table_sort(&d->tab);
	free(extra.v);
}

void sym__load_kallsyms(struct sym_dso *d)
{
	struct symtab *st = d->st;
	struct kcache_key key;

	if (d->kmod) {
		load_ko(d);               /* else the kernel's table */
		return;
	}
	if (sym__kernel_foreign(st))
		goto extra;               /* addresses, and symtab__kernel_warning says why */
	if (st->o.vmlinux) {
		if (load_vmlinux(d) != 0)
			return;
		goto loaded;
	}
	/* the cache, if it is this kernel's and intact; else /proc/kallsyms */
	kernel_key(d, &key);
	if ((!key.bidlen || kcache__load(&key, &d->kimg) != 0) && read_kernel_syms(d, &key) != 0)
		return;
loaded:
	/* the same kernel, another boot: KASLR moved it; perf's kernel MMAP
	 * says where its reference symbol was (perf relocates the same way).
	 * "_text" is vmlinux's first symbol: the search ends at once. */
	if (st->kref) {
		struct kcache_img *im = &d->kimg;
		for (size_t i = 0; i < im->n; i++)
			if (!kcache__entry_valid(im, i) || (im->ent[i].mod == KCACHE_NOMOD &&
			    strcmp(im->names + im->ent[i].name, st->kref) == 0)) {
				if (!kcache__entry_ok(im, i))
					sym__kernel_unseal(d);     /* then found in the table */
				else
					st->kdelta = im->ent[i].start - st->kref_addr;
				break;
			}
		for (size_t i = 0; i < d->tab.n && !im->n; i++)
			if (strcmp(d->tab.v[i].name, st->kref) == 0 && !d->tab.v[i].mod) {
				st->kdelta = d->tab.v[i].start - st->kref_addr;
				break;
			}
	}
extra:
	/* KSYMBOL records are in the recording's addresses */
	for (size_t i = 0; i < st->ksyms_extra.n; i++)
		sym__table_add(&d->tab, st->ksyms_extra.v[i].start + st->kdelta,
		    st->ksyms_extra.v[i].size, st->ksyms_extra.v[i].name);
	sym__table_sort(&d->tab);
}
