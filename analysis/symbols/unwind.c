/*
 * unwind.c — DWARF CFI unwinding of sampled user stacks (see unwind.h).
 *
 * libdwfl does the unwinding (dwfl_attach_state + dwfl_getthread_frames):
 * it asks us for the initial registers (the sample's user registers, in
 * DWARF numbering) and for memory (the stack copy; else the mapped ELF
 * file's bytes), and finds CFI in the modules we report.  perf's
 * util/unwind-libdw.c works the same way but builds a new Dwfl for every
 * sample; here each address space keeps its Dwfl, so each binary is opened
 * and its CFI parsed once per process for the whole report.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <gelf.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>

#include "symbols/unwind.h"
#include "symbols/symbols_internal.h"
#include "common/grow.h"
#include "common/hmap.h"

#define PERF_REGS_ABI_NONE 0
#define ENTRY_CACHE 1024
#define RULE_CACHE 512                /* a process's slots of frame rules, by pc, at most */
#define RULE_CACHE_MIN 16             /* ... at first (rule_at) */
#define FR_NREG 17                    /* x86_64 DWARF registers 0..16 (16: rip) */
#define FR_OPS 6                      /* operations of one expression, at most */
#define FR_POOL 40                    /* ... of all a rule's expressions */

/* One register's (or the CFA's) rule at a pc, from dwarf_frame_register /
 * dwarf_frame_cfa, copied so that it can be applied again without libdw:
 * its n operations are the rule's op[first ..].  A rule held FR_OPS
 * operations for each of its 18 expressions (2.7 KB), most of them empty;
 * a pool of FR_POOL (1 KB) holds a function's (15 when it saves six
 * registers) and a signal frame's (every register). */
struct fexpr {
	uint8_t kind;                 /* FX_* */
	uint8_t n, first;
};
enum { FX_UNDEF, FX_SAME, FX_LOC, FX_VAL };

struct fop {
	uint64_t a, b;
	uint8_t atom;
};

struct frule {
	int ok, ra, signal;
	struct fexpr cfa, reg[FR_NREG];
	uint8_t nops;
	struct fop op[FR_POOL];
};

struct space {
	int32_t pid;
	Dwfl *dwfl;
	int attached, machine;        /* EM_* of the first module */
	size_t nreported;             /* maps[0..nreported) seen */
	const struct unwind_map *maps;
	size_t nmaps;
	/* the sample being unwound */
	const struct pmclog_ev_callchain *cc;
	uint64_t sp;
	uint64_t *pcs;
	int n, max, ended;            /* ended: a 0 return address closed the chain */
	int memfail;                  /* a read failed: 1 the stack beyond the copy,
	                               * 2 outside the copy and the files */
	struct { uint64_t pc; int32_t entry; uint32_t gen; } outer[ENTRY_CACHE]; /* is_entry by
	                               * pc, valid where gen is ogen: */
	uint32_t ogen;                /* emptied by a step (forget_outer) */
	struct rslot *rules;          /* nrules (a power of 2), x86_64 only */
	size_t nrules, rmiss;         /* rmiss: slots filled since it last grew */
	pthread_mutex_t *mu;          /* the unwinder's (unwind__set_lock) */
	struct hmap *noframe;         /* the unwinder's binaries without .debug_frame */
	struct unwinder *u;           /* whose binaries (struct ubin) its modules use */
	Elf *pending;                 /* the Elf find_elf hands the module being reported */
};

/* A process's pc -> the tables' rule there (rule_at). */
struct rslot {
	uint64_t key;                 /* the looked-up pc + 1 (0: empty) */
	const struct frule *rule;     /* NULL: none (no binary there, or not one of
	                               * bin[]) */
};

/* What unwinders share (unwind_tables__new): each binary's frame rules by
 * (sym_dso id, file address) and where its stacks start by (sym_dso id,
 * file offset: known without the symbols' lock).  A rule, once
 * added, stays where it is (chunks of RULE_CHUNK) and never changes: an
 * unwinder takes its address under mu and reads it without. */
#define RULE_CHUNK 64
struct unwind_tables {
	pthread_mutex_t mu;
	struct frule **chunk;
	size_t nchunk, capchunk, nrule;
	struct hmap rule_ix;          /* (sym_dso id, file address) -> rule index */
	struct hmap entry_ix;         /* (sym_dso id, file offset) -> entry_kind + 1 */
};

/* A binary as the unwinder opened it, once for all its spaces: one libelf
 * handle, whose reference count each space's module holds one of (libelf
 * duplicates a handle by counting: elf_begin with it as ref), and the CFI
 * of its .eh_frame, read once.  Opened per space, as dwfl_report_elf does,
 * each process mapped, read and unmapped every binary again: of a -g report
 * of a 325-process DWARF recording, 7,700 mmap/munmap pairs and half its
 * time, in TLB flushes and libelf's headers. */
struct ubin {
	uint64_t id;                  /* its sym_dso's (the tables' key) */
	Elf *elf;                     /* NULL: could not be opened */
	Dwarf_CFI *cfi;               /* .eh_frame's (dwarf_getcfi_elf), once cfi_done */
	int cfi_done;
};


struct unwinder {
	struct space **sp;            /* by pid (idx); each space stays where it is
	                               * (its Dwfl's callbacks point at it) */
	size_t n, cap;
	struct hidx idx;
	enum unwind_stop stop;        /* the last unwind__user's (unwind__last_stop) */
	uint64_t stop_pc;
	char *debuginfo_path;
	Dwfl_Callbacks cb;
	pthread_mutex_t *mu;          /* held around calls into analysis/symbols */
	struct hmap noframe;          /* binaries with no .debug_frame (cfi_frame) */
	struct ubin *bin;             /* the binaries opened, by sym_dso id (bin_ix) */
	size_t nbin, capbin;
	struct hmap bin_ix;           /* sym_dso id -> bin index */
	struct hmap elf_ix;           /* Elf pointer -> bin index */
	struct unwind_tables *t;      /* its rules and entry kinds (maybe shared) */
	int own_t;                    /* t is its own (unwind__new(NULL)) */
	uint64_t rebuilds;            /* unwind__rebuilds */
	uint64_t made;                /* unwind__rules_made */
	uint64_t libdw;               /* unwind__libdw_samples */
	uint64_t entry_lookups;       /* unwind__entry_lookups */
};

struct unwind_tables *unwind_tables__new(void)
{
	struct unwind_tables *t = calloc(1, sizeof(*t));
	if (t)
		pthread_mutex_init(&t->mu, NULL);
	return t;
}

void unwind_tables__free(struct unwind_tables *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nchunk; i++)
		free(t->chunk[i]);
	free(t->chunk);
	free(t->rule_ix.t);
	free(t->entry_ix.t);
	pthread_mutex_destroy(&t->mu);
	free(t);
}

/* Rule i of t (under t->mu). */
static const struct frule *tables_rule(const struct unwind_tables *t, uint32_t i)
{
	return &t->chunk[i / RULE_CHUNK][i % RULE_CHUNK];
}

/* The rule of binary id at file address addr (under t->mu): NULL if none
 * was added. */
static const struct frule *tables_find(const struct unwind_tables *t, uint64_t id,
    uint64_t addr)
{
	const struct hent *e = hmap_find(&t->rule_ix, id, addr, NULL);
	return e ? tables_rule(t, e->v) : NULL;
}

/* Add r as binary id's rule at addr (under t->mu), unless another unwinder
 * did meanwhile: the rule there; NULL out of memory. */
static const struct frule *tables_add(struct unwind_tables *t, uint64_t id, uint64_t addr,
    const struct frule *r)
{
	int found;
	struct hent *e = hmap_slot(&t->rule_ix, id, addr, &found);
	if (!e || found)
		return e ? tables_rule(t, e->v) : NULL;
	if (t->nrule == t->nchunk * RULE_CHUNK) {
		struct frule *c = malloc(RULE_CHUNK * sizeof(*c));
		if (!c || GROW(t->chunk, t->nchunk, t->capchunk)) {
			free(c);
			hmap_forget(&t->rule_ix, e);
			return NULL;
		}
		t->chunk[t->nchunk++] = c;
	}
	e->v = (uint32_t)t->nrule++;
	t->chunk[e->v / RULE_CHUNK][e->v % RULE_CHUNK] = *r;
	return tables_rule(t, e->v);
}

void unwind__set_lock(struct unwinder *u, pthread_mutex_t *mu)
{
	u->mu = mu;
}

static void sym_lock(pthread_mutex_t *mu)
{
	if (mu)
		pthread_mutex_lock(mu);
}

static void sym_unlock(pthread_mutex_t *mu)
{
	if (mu)
		pthread_mutex_unlock(mu);
}

static int noframe_has(const struct space *s, Dwfl_Module *m);

/* The debug file of a module of a space's Dwfl: sym__find_debuginfo's
 * (libdwfl's search, the decompressed copy when there is one), except for
 * a binary known to have no .debug_frame (cfi_frame): the unwinder reads
 * nothing else there, and libdw's own unwinder, where the fast path gives
 * up at a pc without .eh_frame, asks for .debug_frame in every process
 * again, which opened the debug file and inflated its whole DWARF. */
static int find_debuginfo(Dwfl_Module *mod, void **ud, const char *modname, Dwarf_Addr base,
    const char *file, const char *debuglink, GElf_Word crc, char **dbgname)
{
	if (ud && *ud && noframe_has(*ud, mod))
		return -1;
	return sym__find_debuginfo(mod, ud, modname, base, file, debuglink, crc, dbgname);
}

/* The main file of a module being reported (report): the unwinder's
 * handle of the binary, one more reference to it; else libdwfl's search. */
static int find_elf(Dwfl_Module *mod, void **ud, const char *modname, Dwarf_Addr base,
    char **file_name, Elf **elfp)
{
	struct space *s = ud ? *ud : NULL;
	if (s && s->pending && (*file_name = strdup(modname)) != NULL) {
		if ((*elfp = elf_begin(-1, ELF_C_READ_MMAP_PRIVATE, s->pending)) != NULL)
			return -1;
		free(*file_name);
		*file_name = NULL;
	}
	return dwfl_build_id_find_elf(mod, ud, modname, base, file_name, elfp);
}

struct unwinder *unwind__new(struct unwind_tables *t)
{
	struct unwinder *u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	if (!(u->t = t)) {
		if (!(u->t = unwind_tables__new())) {
			free(u);
			return NULL;
		}
		u->own_t = 1;
	}
	u->cb.find_elf = find_elf;
	u->cb.find_debuginfo = find_debuginfo;
	u->cb.debuginfo_path = &u->debuginfo_path;
	return u;
}

void unwind__free(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++) {
		if (u->sp[i]->dwfl)
			dwfl_end(u->sp[i]->dwfl);
		free(u->sp[i]->rules);
		free(u->sp[i]);
	}
	free(u->sp);
	hidx_free(&u->idx);
	free(u->noframe.t);
	for (size_t i = 0; i < u->nbin; i++) {
		dwarf_cfi_end(u->bin[i].cfi);
		elf_end(u->bin[i].elf);
	}
	free(u->bin);
	free(u->bin_ix.t);
	free(u->elf_ix.t);
	if (u->own_t)
		unwind_tables__free(u->t);
	free(u);
}

static int space_eq(const void *tab, uint32_t i, const void *key)
{
	return ((struct space *const *)tab)[i]->pid == *(const int32_t *)key;
}

/* The space of pid, made if new (NULL out of memory).  The table holds
 * pointers: a space's Dwfl was attached with its address, which must not
 * move when the table grows. */
static struct space *space_of(struct unwinder *u, int32_t pid)
{
	int added;
	struct space *s;
	struct hidx_slot *sl = hidx_get(&u->idx, (uint32_t)pid * 2654435761u, 64, space_eq, u->sp,
	    &pid, (uint32_t)u->n, &added);
	if (!sl)
		return NULL;
	if (!added)
		return u->sp[sl->v - 1];
	if (!(s = calloc(1, sizeof(*s))) || GROW(u->sp, u->n, u->cap) < 0) {
		free(s);
		hidx_unadd(&u->idx, sl);
		return NULL;
	}
	s->pid = pid;
	s->noframe = &u->noframe;
	s->u = u;
	u->sp[u->n++] = s;
	return s;
}

/* ---- registers: the kernel's perf_regs numbering -> DWARF ------------------ */

/* The value of perf register `bit`, if the sample has it. */
static int preg(const struct pmclog_ev_callchain *cc, int bit, uint64_t *v)
{
	if (bit > 63 || !(cc->pl_uregs_mask & (1ULL << bit)))
		return 0;
	*v = cc->pl_uregs[__builtin_popcountll(cc->pl_uregs_mask & ((1ULL << bit) - 1))];
	return 1;
}

/* x86_64: DWARF 0..16 = rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip;
 * perf: AX 0, BX 1, CX 2, DX 3, SI 4, DI 5, BP 6, SP 7, IP 8, R8..R15 16..23. */
static const int x86_64_perf[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };
#define X86_64_SP 7
#define X86_64_IP 8
/* aarch64: DWARF 0..30 = x0..x30, 31 = sp; perf: the same, PC 32. */
#define ARM64_SP 31
#define ARM64_PC 32

static int sample_sp_ip(int machine, const struct pmclog_ev_callchain *cc, uint64_t *sp,
    uint64_t *ip)
{
	switch (machine) {
	case EM_X86_64:
		return preg(cc, X86_64_SP, sp) && preg(cc, X86_64_IP, ip);
	case EM_AARCH64:
		return preg(cc, ARM64_SP, sp) && preg(cc, ARM64_PC, ip);
	default:
		return 0;
	}
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct space *s = arg;
	Dwarf_Word regs[32];
	uint64_t v, ip;
	int n;

	switch (s->machine) {
	case EM_X86_64:
		for (n = 0; n < 17; n++)
			regs[n] = preg(s->cc, x86_64_perf[n], &v) ? v : 0;
		ip = regs[16];
		break;
	case EM_AARCH64:
		for (n = 0; n < 32; n++)
			regs[n] = preg(s->cc, n, &v) ? v : 0;
		if (!preg(s->cc, ARM64_PC, &ip))
			return false;
		break;
	default:
		return false;
	}
	return dwfl_thread_state_registers(thread, 0, (unsigned)n, regs) &&
	    (dwfl_thread_state_register_pc(thread, ip), true);
}

/* ---- memory: the stack copy, else the mapped file ------------------------- */

static bool read_file(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out)
{
	Dwfl_Module *m = dwfl_addrmodule(dwfl, addr);
	GElf_Addr bias;
	Elf *elf;
	size_t phnum, fsize;
	const char *img;

	if (!m || !(elf = dwfl_module_getelf(m, &bias)) || elf_getphdrnum(elf, &phnum) < 0 ||
	    !(img = elf_rawfile(elf, &fsize)))
		return false;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		uint64_t va = addr - bias;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (va >= ph.p_vaddr && va + 8 <= ph.p_vaddr + ph.p_filesz &&
		    ph.p_offset + (va - ph.p_vaddr) + 8 <= fsize) {
			memcpy(out, img + ph.p_offset + (va - ph.p_vaddr), 8);
			return true;
		}
	}
	return false;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out, void *arg)
{
	struct space *s = arg;
	const struct pmclog_ev_callchain *cc = s->cc;

	if (addr >= s->sp && addr - s->sp <= cc->pl_ustack_len &&
	    cc->pl_ustack_len - (addr - s->sp) >= 8) {
		memcpy(out, cc->pl_ustack + (addr - s->sp), 8);
		return true;
	}
	if (addr >= s->sp && addr - s->sp < 1u << 20) {
		s->memfail = 1;               /* stack beyond the copy */
		return false;
	}
	if (read_file(dwfl, addr, out))
		return true;
	s->memfail = 2;                       /* neither the copy nor a file */
	return false;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

static const Dwfl_Thread_Callbacks thread_cb = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- the process's modules ------------------------------------------------ */

/* The unwinder's handle of binary d (at path), opened on first use: NULL
 * out of memory; its elf NULL if it could not be opened (asked once). */
static const struct ubin *bin_of(struct unwinder *u, struct sym_dso *d, const char *path)
{
	int found;
	struct hent *e = hmap_slot(&u->bin_ix, sym_dso__id(d), 0, &found);
	if (!e)
		return NULL;
	if (found)
		return &u->bin[e->v];
	if (GROW(u->bin, u->nbin, u->capbin)) {
		hmap_forget(&u->bin_ix, e);
		return NULL;
	}
	struct ubin *b = &u->bin[u->nbin];
	memset(b, 0, sizeof(*b));
	e->v = (uint32_t)u->nbin++;
	b->id = sym_dso__id(d);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return b;
	/* as libdwfl opens a module's file; then read in (if it could not be
	 * mapped) and let go of the descriptor: binaries outnumber them */
	b->elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (b->elf && (elf_kind(b->elf) != ELF_K_ELF || elf_cntl(b->elf, ELF_C_FDREAD) != 0)) {
		elf_end(b->elf);
		b->elf = NULL;
	}
	close(fd);
	struct hent *x = b->elf ? hmap_slot(&u->elf_ix, (uint64_t)(uintptr_t)b->elf, 0, &found)
	    : NULL;
	if (x)
		x->v = e->v;
	else if (b->elf) {            /* not findable by its Elf: its CFI per module */
		elf_end(b->elf);
		b->elf = NULL;
	}
	return b;
}

/* The span dwfl_report_elf gives a module of elf reported at base (not
 * adding p_vaddr): from the first loadable segment's page to the end of
 * the last, an executable where it was linked.  0, or -1 (a relocatable
 * file, no segment). */
static int elf_span(Elf *elf, uint64_t base, uint64_t *lo, uint64_t *hi)
{
	GElf_Ehdr eh;
	size_t phnum;
	uint64_t vaddr = 0, end = 0;
	int first = 1;
	if (!gelf_getehdr(elf, &eh) || eh.e_type == ET_REL || elf_getphdrnum(elf, &phnum) < 0)
		return -1;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (first)
			vaddr = ph.p_vaddr & -ph.p_align;
		first = 0;
		if (ph.p_vaddr + ph.p_memsz > 0)
			end = ph.p_vaddr + ph.p_memsz;   /* the last one's */
	}
	if (eh.e_type == ET_EXEC || eh.e_type == ET_CORE)
		base = vaddr;          /* where it was linked: bias 0 */
	*lo = base;
	*hi = base - vaddr + end;
	return end ? 0 : -1;
}

/* The .eh_frame CFI of module m's binary, read once per unwinder (its
 * FDEs and CIEs are parsed once, not in each process), and its bias in
 * m's space; libdwfl's own where the binary is not one the unwinder
 * opened. */
static Dwarf_CFI *eh_cfi(struct space *s, Dwfl_Module *m, Dwarf_Addr *bias)
{
	GElf_Addr mb;
	Elf *elf = dwfl_module_getelf(m, &mb);
	const struct hent *e = elf ? hmap_find(&s->u->elf_ix, (uint64_t)(uintptr_t)elf, 0, NULL)
	    : NULL;
	if (!e)
		return dwfl_module_eh_cfi(m, bias);
	struct ubin *b = &s->u->bin[e->v];
	if (!b->cfi_done) {
		b->cfi = dwarf_getcfi_elf(b->elf);
		b->cfi_done = 1;
	}
	*bias = mb;
	return b->cfi;
}

/* Report the binary of mapping m unless a reported module covers its start.
 * The load bias comes from the segment the mapping holds (sym_dso__bias):
 * the mapping's start minus its offset is not enough where a linker packs
 * segments into shared pages (lld: text at vaddr 0x15480, offset 0x14480),
 * nor is the file's lowest mapping, which a recording of code mappings
 * only may not have. */
static void report(struct space *s, const struct unwind_map *m)
{
	const char *path;
	uint64_t bias;
	Dwfl_Module *mod;
	int ok;

	sym_lock(s->mu);
	ok = sym_dso__kind(m->dso) == SYM_DSO_ELF && !sym_dso__problem(m->dso);
	sym_unlock(s->mu);
	if (!ok)
		return;
	/* A mapping known not to be code holds no pc, and its page may hold
	 * two segments (GNU ld's read-only data and the RELRO page of its
	 * data share file page 0x2000 at addresses a page apart): reported
	 * first, it would place the whole file a page off and hide the text
	 * mapping's right placement (a frame lost at a function's entry). */
	if (!unwind_map__code(m))
		return;
	if (dwfl_addrmodule(s->dwfl, m->start))
		return;                       /* the same file's other segment, or older */
	sym_lock(s->mu);
	ok = sym_dso__bias(m->dso, m->start, m->end - m->start, m->pgoff, 1, &bias) == 0;
	path = sym_dso__path(m->dso);
	sym_unlock(s->mu);
	if (!ok)
		return;
	const struct ubin *b = bin_of(s->u, m->dso, path);
	uint64_t lo, hi;
	if (!b || !b->elf || elf_span(b->elf, bias, &lo, &hi) < 0)
		return;
	/* the module where dwfl_report_elf(path, bias) would put it, its main
	 * file the unwinder's handle (find_elf) */
	if (!(mod = dwfl_report_module(s->dwfl, path, lo, hi)))
		return;
	void **ud;
	if (dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
		*ud = s;                      /* for find_elf and find_debuginfo */
	GElf_Addr mb;
	s->pending = b->elf;
	Elf *elf = dwfl_module_getelf(mod, &mb);
	s->pending = NULL;
	GElf_Ehdr eh;
	if (elf && !s->machine && gelf_getehdr(elf, &eh))
		s->machine = eh.e_machine;
}

/* Does code mapping m overlap one of the space's code mappings?  Only
 * those are modules (report); a data segment mapped over the dynamic
 * linker's read-only mapping of its file, or data over code, holds no pc
 * and changes no module. */
static int overlaps_reported(const struct space *s, const struct unwind_map *m)
{
	if (!unwind_map__code(m))
		return 0;
	for (size_t i = 0; i < s->nreported; i++)
		if (m->start < s->maps[i].end && s->maps[i].start < m->end &&
		    unwind_map__code(&s->maps[i]))
			return 1;
	return 0;
}

/* Empty is_entry's cache: a new generation, not a 16 KB memset at each
 * step (4 % of a -g report of dw.data's instructions). */
static void forget_outer(struct space *s)
{
	if (++s->ogen == 0) {
		memset(s->outer, 0, sizeof(s->outer));
		s->ogen = 1;
	}
}

/* Bring the Dwfl up to maps[0..nmaps): add new mappings, or rebuild it
 * (newest first, so a newer mapping hides what it replaced) after an exec. */
static int sync_step(struct unwinder *u, struct space *s, const struct unwind_map *maps,
    size_t nmaps)
{
	int rebuild = !s->dwfl, code = 0;

	s->maps = maps;
	if (s->dwfl && nmaps == s->nreported)
		return 0;
	for (size_t i = s->nreported; i < nmaps && !rebuild; i++) {
		rebuild = overlaps_reported(s, &maps[i]);
		code |= unwind_map__code(&maps[i]);
	}
	if (rebuild) {
		if (s->dwfl) {
			dwfl_end(s->dwfl);
			u->rebuilds++;
		}
		s->attached = 0;
		s->machine = 0;
		forget_outer(s);
		free(s->rules);           /* other modules: other rules */
		s->rules = NULL;
		s->nrules = 0;
		if (!(s->dwfl = dwfl_begin(&u->cb)))
			return -1;
		dwfl_report_begin(s->dwfl);
		for (size_t i = nmaps; i-- > 0;)
			report(s, &maps[i]);
		dwfl_report_end(s->dwfl, NULL, NULL);
	} else if (code) {
		dwfl_report_begin_add(s->dwfl);
		for (size_t i = nmaps; i-- > s->nreported;)
			report(s, &maps[i]);
		/* what is_entry remembered was found among fewer maps: a pc in a
		 * new one was "no function" then.  Kept, it would make an answer
		 * depend on which samples this space unwound before (with -j N,
		 * on which worker), not on the sample's own maps. */
		forget_outer(s);
		/* likewise a pc found without rules (in no map then) */
		for (size_t i = 0; s->rules && i < s->nrules; i++)
			if (!s->rules[i].rule || !s->rules[i].rule->ok)
				s->rules[i].key = 0;
		dwfl_report_end(s->dwfl, NULL, NULL);
	}
	/* else data mappings only: no module, no pc, nothing changes */
	s->nreported = nmaps;
	if (!s->attached && s->machine)
		s->attached = dwfl_attach_state(s->dwfl, NULL, s->pid, &thread_cb, s);
	return s->attached ? 0 : -1;
}

/* sync_step through each count of mappings a sample was unwound with
 * (unwind__mark) up to nmaps: the modules an unwinder ends with depend on
 * the steps (a module reported earlier hides a later mapping's start), so
 * every unwinder takes the steps one thread taking every sample takes. */
static int sync_space(struct unwinder *u, struct space *s, const struct unwind_map *maps,
    size_t nmaps)
{
	size_t k = s->dwfl ? s->nreported : 0;
	int rc = 0;

	if (s->dwfl && nmaps == s->nreported) {
		s->maps = maps;
		return s->attached ? 0 : -1;
	}
	while (k < nmaps) {
		do
			k++;
		while (k < nmaps && !maps[k - 1].synced);
		rc = sync_step(u, s, maps, k);
	}
	return rc;
}

/* Where a stack starts.  OUTERMOST: nothing calls these (the process's
 * _start; ld.so's _dl_start_user, which _start falls into and which runs
 * the libraries' constructors before jumping to the program's entry, with
 * no CFI of its own; a thread's clone) — unwinding stops there rather
 * than asking libdw for a caller, which would fail or, worse, fall back to
 * loading the binary's debug file for .debug_frame.  REACHED: main's callers in libc
 * and ld.so; a stack that ends in one still reached the program's start. */
enum { NOT_ENTRY, REACHED, OUTERMOST };

static int name_is(const char *name, const char *want)
{
	size_t n = strlen(want);
	return strncmp(name, want, n) == 0 && (name[n] == '\0' || name[n] == '@');
}

/* The function at pc, through analysis/symbols (sorted tables: a binary
 * search, where libdwfl's dwfl_module_addrname scans the symbol table). */
static int entry_kind(const struct space *s, uint64_t pc, int first)
{
	static const char *const outer[] = { "_start", "_dl_start_user", "clone", "clone3",
		"__clone", "__clone3", "thread_start" };
	static const char *const reached[] = { "__libc_start_main", "__libc_start_main_impl",
		"__libc_start_call_main", "start_thread", "_dl_start" };
	const struct unwind_map *m = NULL;
	struct unwind_tables *t = s->u->t;
	uint64_t lpc = first ? pc : pc - 1, start, size, id, off;
	const char *name;
	const struct hent *e;
	struct hent *ne;
	int found, kind = NOT_ENTRY;

	for (size_t i = 0; i < s->nreported; i++)     /* pcs are in code */
		if (lpc >= s->maps[i].start && lpc < s->maps[i].end &&
		    (!m || s->maps[i].seq > m->seq) && unwind_map__code(&s->maps[i]))
			m = &s->maps[i];
	if (!m)
		return NOT_ENTRY;
	/* a binary's answer at a place in its file, once for all the
	 * processes that map it (each space's cache starts empty) and all the
	 * unwinders of the tables; found there without the symbols' lock,
	 * which the thread applying samples holds most of the time */
	id = sym_dso__id(m->dso);
	off = m->pgoff + (lpc - m->start);
	pthread_mutex_lock(&t->mu);
	e = hmap_find(&t->entry_ix, id, off, NULL);
	kind = e ? (int)e->v - 1 : -1;
	pthread_mutex_unlock(&t->mu);
	if (kind >= 0)
		return kind;
	kind = NOT_ENTRY;
	s->u->entry_lookups++;
	sym_lock(s->mu);
	if (sym_dso__kind(m->dso) == SYM_DSO_ELF &&
	    sym_dso__func(m->dso, sym_dso__addr(m->dso, m->start, m->pgoff, lpc), &name, &start,
	    &size) == 0) {
		for (size_t i = 0; i < sizeof(outer) / sizeof(outer[0]) && kind == NOT_ENTRY; i++)
			if (name_is(name, outer[i]))
				kind = OUTERMOST;
		for (size_t i = 0; i < sizeof(reached) / sizeof(reached[0]) && kind == NOT_ENTRY; i++)
			if (name_is(name, reached[i]))
				kind = REACHED;
	}
	sym_unlock(s->mu);
	pthread_mutex_lock(&t->mu);
	if ((ne = hmap_slot(&t->entry_ix, id, off, &found)))
		ne->v = (uint32_t)kind + 1;  /* found: another unwinder's, the same */
	pthread_mutex_unlock(&t->mu);
	return kind;
}

/* entry_kind, remembered per pc (the same return addresses recur). */
static int is_entry(struct space *s, uint64_t pc, int first)
{
	size_t k = (size_t)((pc >> 2) ^ (pc >> 13)) & (ENTRY_CACHE - 1);
	uint64_t key = pc << 1 | (uint64_t)first;
	if (s->outer[k].pc != key || s->outer[k].gen != s->ogen) {
		s->outer[k].pc = key;
		s->outer[k].gen = s->ogen;
		s->outer[k].entry = entry_kind(s, pc, first);
	}
	return s->outer[k].entry;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct space *s = arg;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	if (pc == 0) {
		s->ended = 1;             /* the outermost frame's null return address */
		return DWARF_CB_ABORT;
	}
	if (s->n >= s->max)
		return DWARF_CB_ABORT;
	s->pcs[s->n++] = pc;
	if (is_entry(s, pc, s->n == 1) == OUTERMOST) {
		s->ended = 1;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* ---- the fast path: cached frame rules (x86_64) ----------------------------
 *
 * libdw evaluates each frame's CFI anew (find the FDE, run the CIE and FDE
 * programs) for every sample.  The rules at a pc never change, so they are
 * kept (dwarf_cfi_addrframe once) and applied here; anything this small
 * evaluator does not know (an unusual DWARF operation, no CFI for a pc)
 * sends the sample to libdw's own unwinder, which is always right.  A rule
 * is the binary's, at a file address: made once for all the processes
 * that map the binary (the 200 `ls` of a recording make libc's rules once,
 * not 200 times) and all the unwinders of the tables (struct unwind_tables:
 * -j N workers make each rule once, not N times), each process keeping a
 * small cache of pc -> rule (struct rslot). */

static int copy_expr(struct frule *r, struct fexpr *e, const Dwarf_Op *ops, size_t n, int loc)
{
	e->kind = loc ? FX_LOC : FX_VAL;
	if (n && ops[n - 1].atom == DW_OP_stack_value) {
		e->kind = FX_VAL;
		n--;
	}
	if (n > FR_OPS || r->nops + n > FR_POOL)
		return -1;
	e->n = (uint8_t)n;
	e->first = r->nops;
	for (size_t i = 0; i < n; i++)
		r->op[r->nops++] = (struct fop){ ops[i].number, ops[i].number2, ops[i].atom };
	return 0;
}

/* A binary's key among those without .debug_frame: its name (the mapped
 * path) and build id, hashed. */
static void noframe_key(Dwfl_Module *m, uint64_t *a, uint64_t *b)
{
	const char *name = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(m, &bits, &vaddr);
	uint64_t h = 0;
	for (int i = 0; i < n; i++)
		h = hmap_mix(h, bits[i]);
	*a = hmap_str(name ? name : "");
	*b = h;
}

/* Is m a binary found without .debug_frame (by cfi_frame, in any space
 * of the unwinder)? */
static int noframe_has(const struct space *s, Dwfl_Module *m)
{
	uint64_t ka, kb;
	noframe_key(m, &ka, &kb);
	return hmap_find(s->noframe, ka, kb, NULL) != NULL;
}

/* The CFI frame at lookup (.eh_frame, else .debug_frame): NULL if none;
 * free() it.  libdwfl's .debug_frame reads the binary's whole DWARF
 * (decompressing the debug file's sections: 1.1 MB for ld.so's) in each
 * process's Dwfl, and x86-64 binaries seldom have one: every process
 * asked for it at ld.so's _dl_start_user, which has no .eh_frame entry,
 * and a -g report of 200 short processes held 230 MB of decompressed
 * DWARF.  A binary found without one is remembered (s->noframe): not
 * asked again, and its debug file not opened (find_debuginfo), in
 * another process. */
static Dwarf_Frame *cfi_frame(struct space *s, uint64_t lookup)
{
	Dwfl_Module *m = dwfl_addrmodule(s->dwfl, lookup);
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;
	Dwarf_Frame *f = NULL;

	if (!m)
		return NULL;
	if ((cfi = eh_cfi(s, m, &bias)) == NULL ||
	    dwarf_cfi_addrframe(cfi, lookup - bias, &f) != 0) {
		uint64_t ka, kb;
		int found = 0;
		free(f);
		f = NULL;
		noframe_key(m, &ka, &kb);
		if (hmap_find(s->noframe, ka, kb, NULL))
			return NULL;
		if ((cfi = dwfl_module_dwarf_cfi(m, &bias)) == NULL) {
			/* out of memory (NULL): asked again next time */
			struct hent *e = hmap_slot(s->noframe, ka, kb, &found);
			if (e)
				e->v = 1;
			return NULL;
		}
		if (dwarf_cfi_addrframe(cfi, lookup - bias, &f) != 0) {
			free(f);
			return NULL;
		}
	}
	return f;
}

/* Does the CFI at lookup say the return address is undefined (the
 * outermost frame)?  libdw ends a walk "cleanly" there, but also where it
 * could not evaluate the frame's rules (a CFA expression that loops, an
 * operation it refuses): those stacks are cut, not whole. */
static int ra_undefined(struct space *s, uint64_t lookup)
{
	Dwarf_Frame *f = cfi_frame(s, lookup);
	Dwarf_Op mem[3], *ops;
	size_t n;
	int ra, undef = 0;

	if (!f)
		return 0;
	ra = dwarf_frame_info(f, NULL, NULL, NULL);
	if (ra >= 0 && dwarf_frame_register(f, ra, mem, &ops, &n) == 0)
		undef = n == 0 && ops != NULL;    /* make_rule's FX_UNDEF */
	free(f);
	return undef;
}

static int make_rule(struct space *s, uint64_t lookup, struct frule *r)
{
	Dwarf_Frame *f;
	Dwarf_Op mem[3], *ops;
	size_t n;
	bool sig = false;

	memset(r, 0, sizeof(*r));
	if (!(f = cfi_frame(s, lookup)))
		return -1;
	r->ra = dwarf_frame_info(f, NULL, NULL, &sig);
	r->signal = sig;
	if (r->ra < 0 || r->ra >= FR_NREG || dwarf_frame_cfa(f, &ops, &n) != 0 || n == 0 ||
	    copy_expr(r, &r->cfa, ops, n, 0) < 0)
		goto bad;
	for (int i = 0; i < FR_NREG; i++) {
		if (dwarf_frame_register(f, i, mem, &ops, &n) != 0)
			goto bad;
		if (n == 0)
			r->reg[i].kind = ops ? FX_UNDEF : FX_SAME;
		else if (copy_expr(r, &r->reg[i], ops, n, 1) < 0)
			goto bad;
	}
	free(f);
	r->ok = 1;
	return 0;
bad:
	free(f);
	return -1;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out, void *arg);

/* Evaluate rule fr's expression e with registers regs (valid: bit per
 * register) and cfa. */
static int eval(struct space *s, const struct frule *fr, const struct fexpr *e,
    const uint64_t *regs, uint32_t valid, uint64_t cfa, uint64_t *out)
{
	uint64_t st[8];
	int sp = 0;
	const struct fop *op = &fr->op[e->first];

	for (int i = 0; i < e->n; i++) {
		uint8_t a = op[i].atom;
		uint64_t x, y;
		Dwarf_Word w;
		if (sp >= 8)
			return -1;
		if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
			int r = a - DW_OP_breg0;
			if (r >= FR_NREG || !(valid & (1u << r)))
				return -1;
			st[sp++] = regs[r] + op[i].a;
		} else if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
			st[sp++] = (uint64_t)(a - DW_OP_lit0);
		} else if (((a >= DW_OP_reg0 && a <= DW_OP_reg31) || a == DW_OP_regx) &&
		    e->n == 1) {
			/* the value is in register r (DW_CFA_register: libdw's
			 * DW_OP_regx, as __vfork keeps its return address in rdi) */
			uint64_t r = a == DW_OP_regx ? op[i].a : (uint64_t)(a - DW_OP_reg0);
			if (r >= FR_NREG || !(valid & (1u << r)))
				return -1;
			*out = regs[r];
			return 1;                         /* a value, not an address */
		} else {
			switch (a) {
			case DW_OP_call_frame_cfa:
				st[sp++] = cfa;
				break;
			case DW_OP_bregx:
				if (op[i].a >= FR_NREG || !(valid & (1u << op[i].a)))
					return -1;
				st[sp++] = regs[op[i].a] + op[i].b;
				break;
			case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
			case DW_OP_const8u: case DW_OP_constu: case DW_OP_const1s:
			case DW_OP_const2s: case DW_OP_const4s: case DW_OP_const8s:
			case DW_OP_consts:
				st[sp++] = op[i].a;
				break;
			case DW_OP_plus_uconst:
				if (sp < 1)
					return -1;
				st[sp - 1] += op[i].a;
				break;
			case DW_OP_deref:
				if (sp < 1 || !memory_read(s->dwfl, st[sp - 1], &w, s))
					return -1;
				st[sp - 1] = w;
				break;
			case DW_OP_plus: case DW_OP_minus: case DW_OP_and: case DW_OP_shl:
			case DW_OP_ge:
				if (sp < 2)
					return -1;
				y = st[--sp];
				x = st[sp - 1];
				st[sp - 1] = a == DW_OP_plus ? x + y : a == DW_OP_minus ? x - y :
				    a == DW_OP_and ? x & y : a == DW_OP_shl ? x << (y & 63) :
				    (uint64_t)((int64_t)x >= (int64_t)y);
				break;
			default:
				return -1;
			}
		}
	}
	if (sp != 1)
		return -1;
	*out = st[0];
	return 0;
}

static size_t rule_slot(uint64_t lookup, size_t n)
{
	return ((lookup >> 1) ^ (lookup >> 12)) & (n - 1);
}

/* A cache of n slots (a power of 2) with s's slots in it, or -ENOMEM
 * (s's kept).  It grows fourfold once it has filled more slots than twice
 * its size: a system-wide recording unwinds ~120 processes, most with a
 * few samples. */
static int rules_resize(struct space *s, size_t n)
{
	struct rslot *v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < s->nrules; i++)
		if (s->rules[i].key)
			v[rule_slot(s->rules[i].key - 1, n)] = s->rules[i];
	free(s->rules);
	s->rules = v;
	s->nrules = n;
	s->rmiss = 0;
	return 0;
}

/* The tables' rule for pc lookup of s, made if new (with s's libdw
 * handles, outside the tables' lock): NULL if none (no binary there, not
 * one of the unwinder's, out of memory). */
static const struct frule *shared_rule(struct space *s, uint64_t lookup)
{
	struct unwinder *u = s->u;
	Dwfl_Module *m = dwfl_addrmodule(s->dwfl, lookup);
	GElf_Addr bias;
	Elf *elf = m ? dwfl_module_getelf(m, &bias) : NULL;
	const struct hent *b = elf ? hmap_find(&u->elf_ix, (uint64_t)(uintptr_t)elf, 0, NULL)
	    : NULL;
	const struct frule *r;
	struct frule made;
	if (!b)
		return NULL;
	uint64_t id = u->bin[b->v].id, addr = lookup - bias;
	pthread_mutex_lock(&u->t->mu);
	r = tables_find(u->t, id, addr);
	pthread_mutex_unlock(&u->t->mu);
	if (r)
		return r;
	make_rule(s, lookup, &made);  /* !made.ok: none there, kept so (not asked again) */
	u->made++;
	pthread_mutex_lock(&u->t->mu);
	r = tables_add(u->t, id, addr, &made);
	pthread_mutex_unlock(&u->t->mu);
	return r;
}

/* The rule at pc lookup of s (NULL: none usable), valid as long as the
 * unwinder's tables. */
static const struct frule *rule_at(struct space *s, uint64_t lookup)
{
	struct rslot *sl;
	if (!s->rules && rules_resize(s, RULE_CACHE_MIN) < 0)
		return NULL;
	sl = &s->rules[rule_slot(lookup, s->nrules)];
	if (sl->key != lookup + 1) {
		if (++s->rmiss > 2 * s->nrules && s->nrules < RULE_CACHE &&
		    rules_resize(s, 4 * s->nrules) == 0)
			sl = &s->rules[rule_slot(lookup, s->nrules)];
		sl->key = lookup + 1;
		sl->rule = shared_rule(s, lookup);
	}
	return sl->rule && sl->rule->ok ? sl->rule : NULL;
}

/* Is r's return address a register's value (DW_CFA_register)? */
static int ra_in_reg(const struct frule *r)
{
	const struct fexpr *e = &r->reg[r->ra];
	uint8_t a = e->n == 1 ? r->op[e->first].atom : 0;
	return a == DW_OP_regx || (a >= DW_OP_reg0 && a <= DW_OP_reg31);
}

/* Unwind with cached rules: 1 done (s->n frames, s->ended), 0 give the
 * sample to libdw (s->n reset). */
static int fast_unwind(struct space *s)
{
	uint64_t regs[FR_NREG], nregs[FR_NREG], v;
	uint32_t valid = 0, nvalid;
	int activation = 1;

	for (int i = 0; i < FR_NREG; i++)
		if (preg(s->cc, x86_64_perf[i], &regs[i]))
			valid |= 1u << i;
	if (!(valid & (1u << 16)) || !(valid & (1u << 7)))
		return 0;
	for (;;) {
		uint64_t pc = regs[16], cfa;
		const struct frule *r;
		if (pc == 0) {
			s->ended = 1;
			return 1;
		}
		if (s->n >= s->max)
			return 1;
		s->pcs[s->n++] = pc;
		if (is_entry(s, pc, activation) == OUTERMOST) {
			s->ended = 1;
			return 1;
		}
		if (!(r = rule_at(s, activation ? pc : pc - 1)) ||
		    eval(s, r, &r->cfa, regs, valid, 0, &cfa) != 0)
			break;
		nvalid = 0;
		int lost_ra = 0;
		for (int i = 0; i < FR_NREG && !lost_ra; i++) {
			const struct fexpr *e = &r->reg[i];
			int k;
			switch (e->kind) {
			case FX_UNDEF:
				continue;
			case FX_SAME:
				if (valid & (1u << i)) {
					nregs[i] = regs[i];
					nvalid |= 1u << i;
				}
				continue;
			default:
				k = eval(s, r, e, regs, valid, cfa, &v);
				if (k < 0) {
					/* beyond this evaluator: libdw decides, if it
					 * is the return address; else it is unknown */
					lost_ra = i == r->ra;
					continue;
				}
				if (k == 0 && e->kind == FX_LOC) {
					Dwarf_Word w;
					if (!memory_read(s->dwfl, v, &w, s))
						continue;
					v = w;
				}
				nregs[i] = v;
				nvalid |= 1u << i;
			}
		}
		if (lost_ra)
			break;
		if (!(nvalid & (1u << r->ra))) {
			/* the return address is undefined: the outermost frame,
			 * unless it could not be read (memfail says which) */
			s->ended = 1;
			return 1;
		}
		nregs[16] = nregs[r->ra];
		nvalid |= 1u << 16;
		if (!(nvalid & (1u << 7))) {
			nregs[7] = cfa;           /* the caller's sp is the CFA */
			nvalid |= 1u << 7;
		}
		/* the stack must grow towards the caller; it stays where it is
		 * only where the return address is kept in a register (__vfork
		 * pops it into rdi: the caller's sp is its own) */
		if ((nregs[7] < regs[7] || (nregs[7] == regs[7] && !ra_in_reg(r))) && !r->signal)
			break;
		memcpy(regs, nregs, sizeof(regs));
		valid = nvalid;
		activation = r->signal;
	}
	s->n = 0;                             /* give it to libdw */
	s->ended = 0;
	s->memfail = 0;
	return 0;
}

static enum unwind_stop stop_reason(struct space *s, uint64_t pc, int first);

int unwind__user(struct unwinder *u, int32_t pid, const struct unwind_map *maps, size_t nmaps,
    const struct pmclog_ev_callchain *cc, uint64_t *pcs, int max, int *complete)
{
	struct space *s;
	uint64_t ip;
	int rc;

	*complete = 0;
	u->stop = UNWIND_NO_REGS;
	u->stop_pc = 0;
	if (cc->pl_nuregs == 0 || cc->pl_uregs_abi == PERF_REGS_ABI_NONE || max <= 0)
		return 0;
	if ((s = space_of(u, pid)))
		s->mu = u->mu;
	if (!s || sync_space(u, s, maps, nmaps) < 0 ||
	    !sample_sp_ip(s->machine, cc, &s->sp, &ip)) {
		/* no module, or an architecture we cannot unwind: the pc alone */
		if (!s || !s->machine || !sample_sp_ip(s->machine, cc, &s->sp, &ip))
			return 0;
		u->stop = UNWIND_NO_BINARY;
		u->stop_pc = pcs[0] = ip;
		return 1;
	}
	s->cc = cc;
	s->pcs = pcs;
	s->n = 0;
	s->ended = 0;
	s->memfail = 0;
	s->max = max;
	if (s->machine == EM_X86_64 && fast_unwind(s))
		rc = s->ended ? 0 : DWARF_CB_ABORT;
	else {
		u->libdw++;
		rc = dwfl_getthread_frames(s->dwfl,
		    (pid_t)(cc->pl_tid ? cc->pl_tid : (uint32_t)pid), frame_cb, s);
	}
	/* Whole when the last frame is where stacks start (we stop at _start
	 * and clone), or libdw ended on its own (0: CFI said the return address
	 * is undefined; a null return address) without having been refused
	 * memory: libdw also ends "cleanly" when it could not read a return
	 * address, or (rc 0 without s->ended) where it could not evaluate the
	 * last frame's rules: whole only if that frame's CFI says so.  -1 (no
	 * CFI) and the depth limit are truncations. */
	*complete = s->n > 0 && (is_entry(s, pcs[s->n - 1], s->n == 1) != NOT_ENTRY ||
	    (!s->memfail && (s->ended || (rc == 0 &&
	    ra_undefined(s, s->n == 1 ? pcs[0] : pcs[s->n - 1] - 1)))));
	if (s->n == 0) {
		pcs[0] = ip;
		s->n = 1;
	}
	u->stop_pc = pcs[s->n - 1];
	u->stop = *complete ? UNWIND_WHOLE : stop_reason(s, u->stop_pc, s->n == 1);
	s->cc = NULL;
	return s->n;
}

/* Why an unwinding that did not reach the outermost frame stopped at pc
 * (its last frame; first: the sampled pc itself). */
static enum unwind_stop stop_reason(struct space *s, uint64_t pc, int first)
{
	Dwfl_Module *m;
	Dwarf_CFI *cfi;
	Dwarf_Frame *fr = NULL;
	Dwarf_Addr bias;
	uint64_t lpc = first ? pc : pc - 1;

	if (s->n >= s->max)
		return UNWIND_DEPTH;
	if (!(m = dwfl_addrmodule(s->dwfl, lpc)))
		return UNWIND_NO_BINARY;
	if (s->memfail)
		return s->memfail == 1 ? UNWIND_STACK_COPY : UNWIND_MEMORY;
	if (((cfi = eh_cfi(s, m, &bias)) && dwarf_cfi_addrframe(cfi, lpc - bias, &fr) == 0) ||
	    ((cfi = dwfl_module_dwarf_cfi(m, &bias)) && dwarf_cfi_addrframe(cfi, lpc - bias, &fr) == 0)) {
		free(fr);
		return UNWIND_MEMORY;     /* CFI there, its rules could not be applied */
	}
	return UNWIND_NO_CFI;
}

uint64_t unwind__rules_made(const struct unwinder *u)
{
	return u->made;
}

uint64_t unwind__entry_lookups(const struct unwinder *u)
{
	return u->entry_lookups;
}

uint64_t unwind__libdw_samples(const struct unwinder *u)
{
	return u->libdw;
}

uint64_t unwind__rebuilds(const struct unwinder *u)
{
	return u->rebuilds;
}

enum unwind_stop unwind__last_stop(const struct unwinder *u, uint64_t *pc)
{
	*pc = u->stop_pc;
	return u->stop;
}

const char *unwind__stop_str(enum unwind_stop why)
{
	switch (why) {
	case UNWIND_WHOLE: return "reached the outermost frame";
	case UNWIND_NO_BINARY: return "the pc is in no binary the unwinder could open";
	case UNWIND_NO_CFI: return "no CFI (.eh_frame/.debug_frame) for the pc";
	case UNWIND_STACK_COPY: return "the caller's frame is beyond the sampled stack copy "
	    "(record with a larger --call-graph dwarf,SIZE)";
	case UNWIND_MEMORY: return "a saved register could not be read";
	case UNWIND_DEPTH: return "the depth limit";
	case UNWIND_NO_REGS: return "no user registers in the sample";
	}
	return "?";
}
