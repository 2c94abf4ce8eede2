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
#include <stdlib.h>
#include <string.h>
#include <gelf.h>
#include <elfutils/libdwfl.h>

#include "unwind.h"

#define PERF_REGS_ABI_NONE 0
#define ENTRY_CACHE 1024

struct space {
	int32_t pid;
	int used;
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
	int memfail;                  /* a read fell outside the copy and the files */
	struct { uint64_t pc; int entry; } outer[ENTRY_CACHE]; /* is_entry by pc */
};


struct unwinder {
	struct space *sp;             /* open addressing on pid */
	size_t n, cap;
	char *debuginfo_path;
	Dwfl_Callbacks cb;
};

struct unwinder *unwind__new(void)
{
	struct unwinder *u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->cap = 64;
	u->sp = calloc(u->cap, sizeof(*u->sp));
	if (!u->sp) {
		free(u);
		return NULL;
	}
	u->cb.find_elf = dwfl_build_id_find_elf;
	u->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	u->cb.debuginfo_path = &u->debuginfo_path;
	return u;
}

void unwind__free(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->cap; i++)
		if (u->sp[i].used && u->sp[i].dwfl)
			dwfl_end(u->sp[i].dwfl);
	free(u->sp);
	free(u);
}

static struct space *slot(struct space *tab, size_t cap, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (cap - 1);
	while (tab[i].used && tab[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static struct space *space_of(struct unwinder *u, int32_t pid)
{
	struct space *s;
	if ((u->n + 1) * 2 > u->cap) {
		size_t nc = u->cap * 2;
		struct space *t = calloc(nc, sizeof(*t));
		if (!t)
			return NULL;
		for (size_t i = 0; i < u->cap; i++)
			if (u->sp[i].used)
				*slot(t, nc, u->sp[i].pid) = u->sp[i];
		free(u->sp);
		u->sp = t;
		u->cap = nc;
	}
	s = slot(u->sp, u->cap, pid);
	if (!s->used) {
		memset(s, 0, sizeof(*s));
		s->used = 1;
		s->pid = pid;
		u->n++;
	}
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
	s->memfail = 1;
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

/* Report the binary of maps[i] unless a reported module covers its start.
 * The load bias comes from the file's mapping with the lowest offset (its
 * first segment): a data segment's offset and address may differ by more
 * than its text's, and a lookup by offset alone can pick the wrong one. */
static void report(struct space *s, size_t nmaps, const struct unwind_map *m)
{
	const struct unwind_map *first = m;
	const char *path;
	uint64_t bias;
	Dwfl_Module *mod;

	if (sym_dso__kind(m->dso) != SYM_DSO_ELF || sym_dso__problem(m->dso))
		return;
	if (dwfl_addrmodule(s->dwfl, m->start))
		return;                       /* the same file's other segment, or older */
	for (size_t i = 0; i < nmaps; i++)
		if (s->maps[i].dso == m->dso && s->maps[i].pgoff < first->pgoff &&
		    s->maps[i].start < m->start && m->start - s->maps[i].start < (1ULL << 30))
			first = &s->maps[i];      /* the same copy of the file, lower */
	path = sym_dso__path(m->dso);
	bias = first->start - sym_dso__addr(m->dso, first->start, first->pgoff, first->start);
	mod = dwfl_report_elf(s->dwfl, path, path, -1, bias, false);
	if (mod && !s->machine) {
		GElf_Addr b;
		Elf *elf = dwfl_module_getelf(mod, &b);
		GElf_Ehdr eh;
		if (elf && gelf_getehdr(elf, &eh))
			s->machine = eh.e_machine;
	}
}

static int overlaps_reported(const struct space *s, const struct unwind_map *m)
{
	for (size_t i = 0; i < s->nreported; i++)
		if (m->start < s->maps[i].end && s->maps[i].start < m->end)
			return 1;
	return 0;
}

/* Bring the Dwfl up to maps[0..nmaps): add new mappings, or rebuild it
 * (newest first, so a newer mapping hides what it replaced) after an exec. */
static int sync_space(struct unwinder *u, struct space *s, const struct unwind_map *maps,
    size_t nmaps)
{
	int rebuild = !s->dwfl;

	s->maps = maps;
	if (s->dwfl && nmaps == s->nreported)
		return 0;
	for (size_t i = s->nreported; i < nmaps && !rebuild; i++)
		rebuild = overlaps_reported(s, &maps[i]);
	if (rebuild) {
		if (s->dwfl)
			dwfl_end(s->dwfl);
		s->attached = 0;
		s->machine = 0;
		memset(s->outer, 0, sizeof(s->outer));
		if (!(s->dwfl = dwfl_begin(&u->cb)))
			return -1;
		dwfl_report_begin(s->dwfl);
		for (size_t i = nmaps; i-- > 0;)
			report(s, nmaps, &maps[i]);
	} else {
		dwfl_report_begin_add(s->dwfl);
		for (size_t i = nmaps; i-- > s->nreported;)
			report(s, nmaps, &maps[i]);
	}
	dwfl_report_end(s->dwfl, NULL, NULL);
	s->nreported = nmaps;
	if (!s->attached && s->machine)
		s->attached = dwfl_attach_state(s->dwfl, NULL, s->pid, &thread_cb, s);
	return s->attached ? 0 : -1;
}

/* Where a stack starts.  OUTERMOST: nothing calls these (the process's
 * _start, a thread's clone) — unwinding stops there rather than asking
 * libdw for a caller, which would fail or, worse, fall back to loading the
 * binary's debug file for .debug_frame.  REACHED: main's callers in libc
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
	static const char *const outer[] = { "_start", "clone", "clone3", "__clone",
		"__clone3", "thread_start" };
	static const char *const reached[] = { "__libc_start_main", "__libc_start_main_impl",
		"__libc_start_call_main", "start_thread", "_dl_start" };
	const struct unwind_map *m = NULL;
	uint64_t lpc = first ? pc : pc - 1, start, size;
	const char *name;

	for (size_t i = 0; i < s->nreported; i++)
		if (lpc >= s->maps[i].start && lpc < s->maps[i].end &&
		    (!m || s->maps[i].seq > m->seq))
			m = &s->maps[i];
	if (!m || sym_dso__kind(m->dso) != SYM_DSO_ELF ||
	    sym_dso__func(m->dso, sym_dso__addr(m->dso, m->start, m->pgoff, lpc), &name, &start,
	    &size) < 0)
		return NOT_ENTRY;
	for (size_t i = 0; i < sizeof(outer) / sizeof(outer[0]); i++)
		if (name_is(name, outer[i]))
			return OUTERMOST;
	for (size_t i = 0; i < sizeof(reached) / sizeof(reached[0]); i++)
		if (name_is(name, reached[i]))
			return REACHED;
	return NOT_ENTRY;
}

/* entry_kind, remembered per pc (the same return addresses recur). */
static int is_entry(struct space *s, uint64_t pc, int first)
{
	size_t k = (size_t)((pc >> 2) ^ (pc >> 13)) & (ENTRY_CACHE - 1);
	uint64_t key = pc << 1 | (uint64_t)first;
	if (s->outer[k].pc != key) {
		s->outer[k].pc = key;
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

int unwind__user(struct unwinder *u, int32_t pid, const struct unwind_map *maps, size_t nmaps,
    const struct pmclog_ev_callchain *cc, uint64_t *pcs, int max, int *complete)
{
	struct space *s;
	uint64_t ip;
	int rc;

	*complete = 0;
	if (cc->pl_nuregs == 0 || cc->pl_uregs_abi == PERF_REGS_ABI_NONE || max <= 0)
		return 0;
	if (!(s = space_of(u, pid)) || sync_space(u, s, maps, nmaps) < 0 ||
	    !sample_sp_ip(s->machine, cc, &s->sp, &ip)) {
		/* no module, or an architecture we cannot unwind: the pc alone */
		if (!s || !s->machine || !sample_sp_ip(s->machine, cc, &s->sp, &ip))
			return 0;
		pcs[0] = ip;
		return 1;
	}
	s->cc = cc;
	s->pcs = pcs;
	s->n = 0;
	s->ended = 0;
	s->memfail = 0;
	s->max = max;
	rc = dwfl_getthread_frames(s->dwfl, (pid_t)(cc->pl_tid ? cc->pl_tid : (uint32_t)pid),
	    frame_cb, s);
	/* Whole when the last frame is where stacks start (we stop at _start
	 * and clone), or libdw ended on its own (0: CFI said the return address
	 * is undefined; a null return address) without having been refused
	 * memory: libdw also ends "cleanly" when it could not read a return
	 * address.  -1 (no CFI) and the depth limit are truncations. */
	*complete = s->n > 0 && (is_entry(s, pcs[s->n - 1], s->n == 1) != NOT_ENTRY ||
	    ((rc == 0 || s->ended) && !s->memfail));
	if (s->n == 0) {
		pcs[0] = ip;
		s->n = 1;
	}
	s->cc = NULL;
	return s->n;
}
