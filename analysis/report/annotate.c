/*
 * annotate.c — per-instruction and per-source-line sample shares of one
 * function (annotate.h).  Samples are counted at their sampled pc (the leaf
 * location), so the instruction shown is the one the PMU interrupted at —
 * on real hardware often the one after the expensive one (skid).
 *
 * capstone is opened when an annotation first disassembles (common/dynlib.h),
 * not linked: its instruction tables carry 75 000 relocations, which the
 * dynamic loader applied at every start of every pmc command.
 */
#include <capstone/capstone.h>
#include <elf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/annotate.h"
#include "common/dynlib.h"
#include "common/error.h"
#include "common/grow.h"
#include "report/report.h"
#include "util/printable.h"

/* The soname of the API capstone's headers describe. */
#define CS_STR_(x) #x
#define CS_STR(x) CS_STR_(x)
#define CS_SONAME "libcapstone.so." CS_STR(CS_API_MAJOR)

/* The functions used, typed by capstone's own declarations. */
static struct {
	__typeof__(cs_open) *open;
	__typeof__(cs_disasm) *disasm;
	__typeof__(cs_free) *free;
	__typeof__(cs_close) *close;
} cs_api;
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;
static int cs_ok;
static char cs_why[192];

static void cs_load(void)
{
	static const char *const names[] = { "cs_open", "cs_disasm", "cs_free", "cs_close" };
	void *f[sizeof(names) / sizeof(names[0])];

	if (pmc__dl_load(CS_SONAME, names, f, sizeof(names) / sizeof(names[0])) != 0) {
		snprintf(cs_why, sizeof(cs_why), "%s", pmc_errmsg());
		pmc__clear_reason();
		return;
	}
	PMC_DL_SET(cs_api.open, f[0]);
	PMC_DL_SET(cs_api.disasm, f[1]);
	PMC_DL_SET(cs_api.free, f[2]);
	PMC_DL_SET(cs_api.close, f[3]);
	cs_ok = 1;
}

struct acc {
	struct profile *p;
	uint32_t func;
	const char *name;
	struct sym_dso *dso;
	struct pc_count {             /* the function's sampled pcs */
		uint64_t addr, cnt;
	} *pc;
	size_t n, cap;
	uint64_t total, self;
	int nomem;                   /* an allocation failed: annotate__print says ENOMEM */
};

static void count(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	struct acc *a = arg;
	const struct prof_loc *l;
	if (n <= 0)
		return;
	a->total += cnt;
	l = &a->p->l[fr[0].loc];
	if (l->func != a->func)
		return;
	a->self += cnt;
	for (size_t i = 0; i < a->n; i++)
		if (a->pc[i].addr == l->addr) {
			a->pc[i].cnt += cnt;
			return;
		}
	if (GROW(a->pc, a->n, a->cap) < 0) {
		a->nomem = 1;
		return;
	}
	a->pc[a->n++] = (struct pc_count){ l->addr, cnt };
}

/* Samples per sampled function (arg: an array by function). */
static void per_func(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	if (n > 0)
		((uint64_t *)arg)[fr[0].func] += cnt;
}

static uint64_t in_range(const struct acc *a, uint64_t lo, uint64_t hi)
{
	uint64_t c = 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->pc[i].addr >= lo && a->pc[i].addr < hi)
			c += a->pc[i].cnt;
	return c;
}

static int name_is(const char *sym, const char *want)
{
	size_t n = strlen(want);
	return strcmp(sym, want) == 0 || (strncmp(sym, want, n) == 0 && sym[n] == '(');
}

struct line {
	const char *file;
	int line;
	uint64_t cnt;
};

/* The source lines of the function's instructions, in first-seen order. */
struct lines {
	struct line *v;
	size_t n, cap;
};

static const char *hot(const struct annotate_opts *o, double pct)
{
	if (!o->color || pct < 0.5)
		return "";
	return pct >= 5 ? "\033[31m" : "\033[32m";
}

/* A count and its percentage as the columns print them ("" for none). */
static void print_pct(FILE *f, const struct annotate_opts *o, uint64_t c, double pct)
{
	if (c)
		fprintf(f, "%s%8.2f%%  %7" PRIu64 "%s", hot(o, pct), pct, c,
		    o->color && pct >= 0.5 ? "\033[0m" : "");
	else
		fprintf(f, "%9s  %7s", "", "");
}

/* The function named o->symbol (in o->dso) with the most samples at its
 * sampled pcs: 0 with *func, or -ENOENT / -ENOMEM with the reason. */
static int pick_func(struct profile *p, const struct annotate_opts *o, uint32_t *func)
{
	uint64_t best = 0;
	*func = UINT32_MAX;
	uint64_t *per = calloc(p->nf + 1, 8);
	if (!per)
		return pmc__nomem();
	profile__foreach_group(p, NULL, 0, per_func, per);
	for (size_t i = 0; i < p->nf; i++) {
		if (!name_is(p->f[i].name, o->symbol))
			continue;
		if (o->dso && strcmp(sym_dso__name(p->f[i].dso), o->dso) != 0 &&
		    strcmp(sym_dso__path(p->f[i].dso), o->dso) != 0)
			continue;
		if (*func == UINT32_MAX || per[i] > best) {
			*func = (uint32_t)i;
			best = per[i];
		}
	}
	free(per);
	if (*func == UINT32_MAX)
		return pmc__err(-ENOENT, "no samples in a function named '%s'%s%s", o->symbol,
		    o->dso ? " in " : "", o->dso ? o->dso : "");
	return 0;
}

/* Count c at (file, line) into the lines: 0, or -1 out of memory. */
static int lines_add(struct lines *ls, const char *file, int line, uint64_t c)
{
	size_t k;
	for (k = 0; k < ls->n; k++)
		if (ls->v[k].file == file && ls->v[k].line == line)
			break;
	if (k == ls->n) {
		if (GROW(ls->v, ls->n, ls->cap) < 0)
			return -1;
		ls->v[ls->n++] = (struct line){ file, line, 0 };
	}
	ls->v[k].cnt += c;
	return 0;
}

/* The instructions of code (size bytes at start, of ELF machine), with
 * their samples (with o->asm_), their source lines counted into ls
 * (a->nomem when one could not be kept).  0, or -EOPNOTSUPP with the
 * reason when capstone cannot disassemble them. */
static int print_insns(FILE *f, struct acc *a, const struct prof_func *fn,
    const unsigned char *code, uint64_t start, uint64_t size, int machine,
    const struct annotate_opts *o, struct lines *ls)
{
	char path[4096];
	csh cs;
	cs_insn *insn;
	cs_arch arch = machine == EM_AARCH64 ? CS_ARCH_ARM64 : CS_ARCH_X86;
	cs_mode mode = machine == EM_AARCH64 ? CS_MODE_ARM :
	    machine == EM_386 ? CS_MODE_32 : CS_MODE_64;
	pthread_once(&cs_once, cs_load);
	if (!cs_ok)
		return pmc__err_cause(-EOPNOTSUPP, PMC_CAUSE_UNSUPPORTED, "%s", cs_why);
	if (cs_api.open(arch, mode, &cs) != CS_ERR_OK)
		return pmc__err_cause(-EOPNOTSUPP, PMC_CAUSE_UNSUPPORTED,
		    "capstone cannot disassemble this architecture");
	size_t ni = cs_api.disasm(cs, code, size, start, 0, &insn);
	if (o->asm_)
		fprintf(f, "#\n#  Percent  Samples  Address           Instruction"
		    "                                Source\n");
	for (size_t i = 0; i < ni; i++) {
		uint64_t lo = insn[i].address, hi = lo + insn[i].size;
		uint64_t c = in_range(a, lo, hi);
		double pct = a->self ? 100.0 * (double)c / (double)a->self : 0;
		const char *file = NULL;
		int line = 0;
		sym_dso__srcline(fn->dso, lo, &file, &line);
		if (file && lines_add(ls, file, line, c) < 0) {
			a->nomem = 1;
			break;
		}
		if (!o->asm_)
			continue;
		char ins[192];
		snprintf(ins, sizeof(ins), "%s %s", insn[i].mnemonic, insn[i].op_str);
		print_pct(f, o, c, pct);
		fprintf(f, "  %-16" PRIx64 "  %-42s", lo, ins);
		if (file)
			fprintf(f, " %s:%d", printable__str(strrchr(file, '/') ? strrchr(file, '/') + 1 :
			    file, path, sizeof(path)), line);
		fputc('\n', f);
	}
	if (ni)
		cs_api.free(insn, ni);
	cs_api.close(&cs);
	return 0;
}

/* The lines of file from its first to its last
 * sampled one, with the source text when the file is there. */
static void print_source(FILE *f, const struct lines *ls, const char *file, uint64_t self,
    const struct annotate_opts *o)
{
	char path[4096];
	int lo = 1 << 30, hi = 0;
	for (size_t j = 0; j < ls->n; j++)
		if (ls->v[j].file == file) {
			if (ls->v[j].line < lo)
				lo = ls->v[j].line;
			if (ls->v[j].line > hi)
				hi = ls->v[j].line;
		}
	/* a regular file only: a FIFO or device named by DWARF never blocks */
	int sfd = sym__open_regular(file);
	FILE *src = sfd >= 0 ? fdopen(sfd, "r") : NULL;
	if (sfd >= 0 && !src)
		close(sfd);
	fprintf(f, "#\n# %s%s\n#  Percent  Samples  Line\n", printable__str(file, path,
	    sizeof(path)), src ? "" : " (source not found: lines only)");
	char buf[4096];
	int ln = 0;
	for (int L = lo; L <= hi; L++) {
		const char *text = NULL;
		if (src) {
			while (ln < L && fgets(buf, sizeof(buf), src))
				ln++;
			if (ln == L) {
				buf[strcspn(buf, "\n")] = '\0';
				text = buf;
			}
		}
		uint64_t c = 0;
		int known = 0;
		for (size_t j = 0; j < ls->n; j++)
			if (ls->v[j].file == file && ls->v[j].line == L) {
				c += ls->v[j].cnt;
				known = 1;
			}
		if (!text && !known)
			continue;
		double pct = self ? 100.0 * (double)c / (double)self : 0;
		print_pct(f, o, c, pct);
		fprintf(f, "  %5d  %s\n", L, text ? text : "");
	}
	if (src)
		fclose(src);
}

/* Per source line, with the source text of each file present. */
static void print_sources(FILE *f, const struct lines *ls, uint64_t self,
    const struct annotate_opts *o)
{
	fprintf(f, "#\n# Per source line\n");
	for (size_t k = 0; k < ls->n; k++) {
		int seen = 0;
		for (size_t j = 0; j < k && !seen; j++)
			seen = ls->v[j].file == ls->v[k].file;
		if (!seen)
			print_source(f, ls, ls->v[k].file, self, o);
	}
}

int annotate__print(FILE *f, struct profile *p, const struct annotate_opts *o)
{
	struct acc a = { 0 };
	struct lines ls = { 0 };
	int rc;
	pmc__clear_reason();
	profile__resolve(p);
	a.p = p;
	if ((rc = pick_func(p, o, &a.func)) != 0)
		return rc;
	const struct prof_func *fn = &p->f[a.func];
	a.dso = fn->dso;
	profile__foreach_group(p, &o->flt, 0, count, &a);
	if (a.nomem) {
		rc = pmc__nomem();
		goto out;
	}

	uint64_t start = fn->start, size = fn->size;
	if (size <= 1 && sym_dso__find_func(fn->dso, fn->name, &start, &size) != 0)
		size = 0;
	char path[4096];
	fprintf(f, "# pmc annotate: %s [%s]\n", fn->name, printable__str(sym_dso__path(fn->dso), path,
	    sizeof(path)));
	fprintf(f, "# %" PRIu64 " of %" PRIu64 " samples (%.2f%%) in this function; "
	    "address 0x%" PRIx64 ", %" PRIu64 " bytes\n", a.self, a.total,
	    a.total ? 100.0 * (double)a.self / (double)a.total : 0, start, size);

	int machine = 0;
	const unsigned char *code = size ? sym_dso__code(fn->dso, start, size, &machine) : NULL;
	if (!code) {
		const char *why = sym_dso__problem(fn->dso);
		fprintf(f, "# no instructions: %s\n#\n#  %%      samples  address\n",
		    why ? printable__str(why, path, sizeof(path)) : "the binary's code is not available");
		for (size_t i = 0; i < a.n; i++)
			fprintf(f, "%7.2f%%  %8" PRIu64 "  0x%" PRIx64 "\n",
			    100.0 * (double)a.pc[i].cnt / (double)(a.self ? a.self : 1), a.pc[i].cnt,
			    a.pc[i].addr);
	} else if ((rc = print_insns(f, &a, fn, code, start, size, machine, o, &ls)) != 0) {
		goto out;
	}
	if (a.nomem) {
		rc = pmc__nomem();
		goto out;
	}
	if (o->source && ls.n)
		print_sources(f, &ls, a.self, o);
	rc = ferror(f) ? -1 : 0;   /* as report's: the caller says why (errno) */
out:
	free(ls.v);
	free(a.pc);
	return rc;
}
