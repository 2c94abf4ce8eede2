/*
 * test_symbols_rooms.c — the tables of analysis/symbols/ after its split into
 * files (symbols.c, elf.c, kernel.c, jit.c, srcline.c, issue 24) and its move
 * onto common/hmap.h's index and common/grow.h's GROW, driven past every
 * growth step through the public symbols.h / unwind.h calls: the string pool
 * (one pointer per string, stable while the pool grows, past several
 * rehashes), the recording's module maps (the latest covering an address
 * wins), a perf map's sorted table, a jitdump's line table and CODE_MOVE
 * index, and the unwinder's address spaces by pid; and elf.c's direct
 * reading of a binary's symbols, symbol by symbol against libdwfl's, and
 * a recorded file read only when first used.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dlfcn.h>
#include <poll.h>
#include <sys/inotify.h>
#include <elfutils/libdwfl.h>

#include "pmc.h"

#include "symbols/symbols.h"
#include "symbols/symbols_internal.h"
#include "symbols/unwind.h"

#define NSTR 20000

/* Every string interned once: the same pointer for an equal string however
 * much the pool grew since, another pointer for another string. */
static void test_pool_many(void **state)
{
	struct symtab *st = symtab__new(NULL);
	const char **p = calloc(NSTR, sizeof(*p));
	char buf[64];
	(void)state;
	assert_non_null(st);
	assert_non_null(p);
	for (int i = 0; i < NSTR; i++) {
		snprintf(buf, sizeof(buf), "name_%d", i);
		p[i] = symtab__intern(st, buf);
		assert_ptr_not_equal(p[i], buf);
		assert_string_equal(p[i], buf);
	}
	for (int i = NSTR; i-- > 0;) {
		snprintf(buf, sizeof(buf), "name_%d", i);
		assert_ptr_equal(symtab__intern(st, buf), p[i]);
	}
	for (int i = 1; i < NSTR; i++)
		assert_ptr_not_equal(p[i], p[i - 1]);
	/* NULL is the empty string; an unprintable name is escaped, once */
	assert_ptr_equal(symtab__intern(st, NULL), symtab__intern(st, ""));
	const char *e = symtab__intern_name(st, "a\001b");
	assert_string_equal(e, "a\\x01b");
	assert_ptr_equal(symtab__intern_name(st, "a\001b"), e);
	assert_ptr_equal(symtab__intern(st, "a\\x01b"), e);
	assert_int_equal(symtab__nomem(st), 0);
	free(p);
	symtab__free(st);
}

/* 300 module maps (GROW past its first 64 and more): each address finds
 * its module, and a later map over the same range wins. */
static void test_kmodules_many(void **state)
{
	struct symtab *st = symtab__new(NULL);
	char path[128], name[64];
	const uint64_t base = 0xffffffffc0000000ull;
	(void)state;
	assert_non_null(st);
	for (int i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), "/lib/modules/x/kernel/m%d.ko", i);
		symtab__add_kmodule(st, base + (uint64_t)i * 0x10000, 0x10000, path, NULL, 0);
	}
	for (int i = 0; i < 300; i++) {
		struct sym_dso *d = symtab__kmodule_at(st, base + (uint64_t)i * 0x10000 + 0x123);
		assert_non_null(d);
		snprintf(name, sizeof(name), "[m%d]", i);
		assert_string_equal(sym_dso__name(d), name);
	}
	assert_null(symtab__kmodule_at(st, base + 300ull * 0x10000));
	symtab__add_kmodule(st, base, 0x10000, "[late]", NULL, 0);
	assert_string_equal(sym_dso__name(symtab__kmodule_at(st, base + 8)), "[late]");
	assert_string_equal(sym_dso__name(symtab__kmodule_at(st, base + 0x10008)), "[m1]");
	assert_int_equal(symtab__nomem(st), 0);
	symtab__free(st);
}

static char dir[] = "/tmp/test_symbols_rooms_XXXXXX";

/* A perf map of 5000 functions (the table grows, is sorted once): each
 * address inside one names it, with its start and size. */
static void test_perfmap_many(void **state)
{
	char mp[PATH_MAX];
	pid_t pid = 4242;
	struct symtab_opts o = { .demangle = 1, .perfmap_dir = dir };
	(void)state;
	snprintf(mp, sizeof(mp), "%s/perf-%d.map", dir, (int)pid);
	FILE *f = fopen(mp, "w");
	assert_non_null(f);
	for (int i = 4999; i >= 0; i--)       /* out of order: the table sorts */
		fprintf(f, "%llx 20 jitfn_%d\n", 0x100000ull + (unsigned long long)i * 0x40, i);
	fclose(f);
	struct symtab *st = symtab__new(&o);
	assert_non_null(st);
	struct sym_dso *d = symtab__jit(st, pid);
	assert_non_null(d);
	for (int i = 0; i < 5000; i += 7) {
		const char *n;
		uint64_t s, z;
		char want[32];
		snprintf(want, sizeof(want), "jitfn_%d", i);
		assert_int_equal(sym_dso__func(d, 0x100000ull + (uint64_t)i * 0x40 + 0x1f, &n, &s, &z), 0);
		assert_string_equal(n, want);
		assert_int_equal(s, 0x100000ull + (uint64_t)i * 0x40);
		assert_int_equal(z, 0x20);
		assert_int_equal(sym_dso__func(d, 0x100000ull + (uint64_t)i * 0x40 + 0x20, &n, &s, &z), -1);
	}
	assert_int_equal(symtab__nomem(st), 0);
	symtab__free(st);
	unlink(mp);
}

static void put(FILE *f, const void *p, size_t n)
{
	assert_int_equal(fwrite(p, 1, n, f), n);
}

static void put32(FILE *f, uint32_t v) { put(f, &v, 4); }
static void put64(FILE *f, uint64_t v) { put(f, &v, 8); }

/* A jitdump record's prefix: id, total size, timestamp. */
static void prefix(FILE *f, uint32_t id, uint32_t size)
{
	put32(f, id);
	put32(f, size);
	put64(f, 0);
}

/* A jitdump (perf's jitdump.h layout) of 300 functions, each moved once,
 * and a line table of 600 entries for the first: the loads and moves
 * name their code, each of fn_0's bytes has its entry's line. */
static void test_jitdump_many(void **state)
{
	char jd[PATH_MAX];
	pid_t pid = 4243;
	struct symtab_opts o = { .demangle = 1, .perfmap_dir = dir };
	(void)state;
	snprintf(jd, sizeof(jd), "%s/jit-%d.dump", dir, (int)pid);
	FILE *f = fopen(jd, "w");
	assert_non_null(f);
	put32(f, 0x4A695444u);          /* magic "JiTD" */
	put32(f, 1);                    /* version */
	put32(f, 40);                   /* header size */
	put32(f, 62);                   /* EM_X86_64 */
	put32(f, 0);
	put32(f, (uint32_t)pid);
	put64(f, 0);
	put64(f, 0);
	for (int i = 0; i < 300; i++) {
		char name[32];
		int nl = snprintf(name, sizeof(name), "fn_%d", i) + 1;
		uint64_t addr = 0x200000ull + (uint64_t)i * 0x100;
		prefix(f, 0, (uint32_t)(56 + nl + 4));       /* CODE_LOAD, 4 code bytes */
		put32(f, (uint32_t)pid);
		put32(f, (uint32_t)pid);
		put64(f, addr);
		put64(f, addr);
		put64(f, 0x100);
		put64(f, (uint64_t)i);
		put(f, name, (size_t)nl);
		put32(f, 0xc3c3c3c3);
	}
	for (int i = 0; i < 300; i++) {                 /* CODE_MOVE each */
		prefix(f, 1, 64);
		put32(f, (uint32_t)pid);
		put32(f, (uint32_t)pid);
		put64(f, 0);                                /* vma */
		put64(f, 0x200000ull + (uint64_t)i * 0x100);   /* old */
		put64(f, 0x900000ull + (uint64_t)i * 0x100);   /* new */
		put64(f, 0x100);
		put64(f, (uint64_t)i);
	}
	/* DEBUG_INFO for fn_0: 600 entries, 1 file named then "\xff" */
	size_t dsize = 32;
	for (int i = 0; i < 600; i++)
		dsize += 16 + (i == 0 ? sizeof("a.js") : 2);
	prefix(f, 2, (uint32_t)dsize);
	put64(f, 0x200000);
	put64(f, 600);
	for (int i = 0; i < 600; i++) {
		put64(f, 0x200000ull + (uint64_t)i);
		put32(f, (uint32_t)(1000 + i));
		put32(f, 0);
		if (i == 0)
			put(f, "a.js", sizeof("a.js"));
		else
			put(f, "\xff", 2);
	}
	fclose(f);

	struct symtab *st = symtab__new(&o);
	assert_non_null(st);
	symtab__set_jitdump(st, pid, jd);
	struct sym_dso *d = symtab__jit(st, pid);
	assert_non_null(d);
	for (int i = 0; i < 300; i++) {
		const char *n;
		uint64_t s, z;
		char want[32];
		snprintf(want, sizeof(want), "fn_%d", i);
		assert_int_equal(sym_dso__func(d, 0x200000ull + (uint64_t)i * 0x100 + 5, &n, &s, &z), 0);
		assert_string_equal(n, want);
		assert_int_equal(sym_dso__func(d, 0x900000ull + (uint64_t)i * 0x100 + 5, &n, &s, &z), 0);
		assert_string_equal(n, want);
		assert_int_equal(s, 0x900000ull + (uint64_t)i * 0x100);
	}
	/* 300 moves, each found by the start index: a probe or a few each */
	assert_true(sym_dso__jit_move_probes(d) >= 300);
	assert_true(sym_dso__jit_move_probes(d) < 3000);
	for (int b = 0; b < 0x100; b++) {            /* fn_0's bytes */
		const char *file = NULL;
		int line = 0;
		assert_int_equal(sym_dso__srcline(d, 0x200000ull + (uint64_t)b, &file, &line), 0);
		assert_string_equal(file, "a.js");
		assert_int_equal(line, 1000 + b);
	}
	assert_int_equal(symtab__nomem(st), 0);
	symtab__free(st);
	unlink(jd);
}

/* 500 processes' address spaces (the table grows past its first 64 slots
 * several times), each looked up again later; a sample whose pc is in no
 * readable binary stops with UNWIND_NO_BINARY and its pc, in every one. */
static void test_unwind_spaces(void **state)
{
	struct unwinder *u = unwind__new(NULL);
	struct symtab *st = symtab__new(NULL);
	struct pmclog_ev_callchain *cc = calloc(1, sizeof(*cc));
	struct unwind_map m = { 0 };
	uint64_t pcs[8], pc;
	int complete;
	(void)state;
	assert_non_null(u);
	assert_non_null(st);
	assert_non_null(cc);
	m.start = 0x400000;
	m.end = 0x500000;
	m.dso = symtab__dso(st, "/nonexistent/test_symbols_rooms", NULL, 0);
	assert_non_null(m.dso);
	cc->pl_uregs_abi = 2;
	cc->pl_nuregs = 2;
	cc->pl_uregs_mask = (1ull << 7) | (1ull << 8);   /* x86_64 SP, IP */
	cc->pl_uregs[0] = 0x7ffd0000;
	cc->pl_uregs[1] = 0x400100;
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 500; i++) {
			int32_t pid = round ? 500 - i : 1 + i;
			int n = unwind__user(u, pid, &m, 1, cc, pcs, 8, &complete);
			assert_true(n <= 1);
			assert_int_equal(complete, 0);
			enum unwind_stop why = unwind__last_stop(u, &pc);
			assert_true(why == UNWIND_NO_BINARY || why == UNWIND_NO_REGS);
		}
	unwind__free(u);
	symtab__free(st);
	free(cc);
}

/* The code mapping of this process that holds addr, from /proc/self/maps:
 * 0, or -1 if none. */
static int self_map(uintptr_t addr, struct unwind_map *m, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096], perm[8];
	unsigned long lo, hi, off;
	int n, rc = -1;
	if (!f)
		return -1;
	while (rc < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &lo, &hi, perm, &off, &n) == 4 &&
		    addr >= lo && addr < hi && perm[2] == 'x' && line[n] == '/') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(path, len, "%s", line + n);
			*m = (struct unwind_map){ .start = lo, .end = hi, .pgoff = off,
			    .prot = PROT_READ | PROT_EXEC };
			rc = 0;
		}
	fclose(f);
	return rc;
}

/* Unwinders sharing their tables make each frame rule, and find where
 * stacks start, once: a second unwinder (another -j worker) finds the
 * first one's answers; an unwinder with tables of its own makes them
 * again.  The sample is in libc's __vfork after its `pop %rdi`: its CFI
 * keeps the return address in rdi and the caller's sp is its own, which
 * the cached rules now follow instead of giving the sample to libdw. */
static void test_unwind_shared_tables(void **state)
{
	/* libc's own: a sanitizer's runtime intercepts vfork, not __vfork */
	const unsigned char *vf = dlsym(RTLD_DEFAULT, "__vfork");
	struct unwind_map m;
	char path[4096];
	(void)state;
	if (!vf || vf[0] != 0x5f || self_map((uintptr_t)vf, &m, path, sizeof(path)) < 0) {
		print_message("skipped: no x86-64 glibc __vfork (pop %%rdi) mapped here\n");
		skip();
	}
	struct symtab *st = symtab__new(NULL);
	struct pmclog_ev_callchain *cc = calloc(1, sizeof(*cc));
	struct unwind_tables *t = unwind_tables__new();
	struct unwinder *a = unwind__new(t), *b = unwind__new(t), *own = unwind__new(NULL);
	static const unsigned char stack[64];
	uint64_t pcs[8];
	int complete;
	assert_non_null(st);
	assert_non_null(cc);
	assert_non_null(t);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(own);
	m.dso = symtab__dso(st, path, NULL, 0);
	assert_non_null(m.dso);
	cc->pl_uregs_abi = 2;
	cc->pl_nuregs = 3;
	cc->pl_uregs_mask = (1ull << 5) | (1ull << 7) | (1ull << 8);   /* DI, SP, IP */
	cc->pl_uregs[0] = 0;                           /* the return address: none */
	cc->pl_uregs[1] = 0x7ffd0000;
	cc->pl_uregs[2] = (uintptr_t)vf + 1;
	cc->pl_ustack = stack;
	cc->pl_ustack_len = sizeof(stack);
	unwind__mark(&m, 1);

	assert_int_equal(unwind__user(a, 100, &m, 1, cc, pcs, 8, &complete), 1);
	assert_int_equal(pcs[0], (uintptr_t)vf + 1);
	assert_int_equal(complete, 1);
	assert_int_equal(unwind__libdw_samples(a), 0);
	uint64_t made = unwind__rules_made(a);
	assert_true(made >= 1);
	/* another worker, another process of the same libc: no rule made */
	assert_int_equal(unwind__user(b, 200, &m, 1, cc, pcs, 8, &complete), 1);
	assert_int_equal(complete, 1);
	assert_int_equal(unwind__rules_made(b), 0);
	/* nor a function looked up (where stacks start), in the symbols or
	 * under their lock: the tables hold the answer */
	assert_true(unwind__entry_lookups(a) >= 1);
	assert_int_equal(unwind__entry_lookups(b), 0);
	/* tables of its own: made again */
	assert_int_equal(unwind__user(own, 100, &m, 1, cc, pcs, 8, &complete), 1);
	assert_int_equal(unwind__rules_made(own), made);

	unwind__free(a);
	unwind__free(b);
	unwind__free(own);
	unwind_tables__free(t);
	symtab__free(st);
	free(cc);
}

/* The dynamic linker maps a library's file read-only, then its text over
 * it at the same offsets and its data a page off: no code mapping changed,
 * the process's modules stay as they are (a -g report of dw.data reported
 * every module of a process again 853 times, 839 of them for data).
 * Another binary's code over the text is reported from scratch. */
static void test_unwind_data_segments(void **state)
{
	struct unwinder *u = unwind__new(NULL);
	struct symtab *st = symtab__new(NULL);
	struct pmclog_ev_callchain *cc = calloc(1, sizeof(*cc));
	struct sym_dso *lib, *other;
	uint64_t pcs[8];
	int complete;
	(void)state;
	assert_non_null(u);
	assert_non_null(st);
	assert_non_null(cc);
	lib = symtab__dso(st, "/nonexistent/lib.so", NULL, 0);
	other = symtab__dso(st, "/nonexistent/other.so", NULL, 0);
	assert_non_null(lib);
	assert_non_null(other);
	struct unwind_map m[5] = {
		{ .start = 0x7f0000000000, .end = 0x7f0000008000, .pgoff = 0, .dso = lib,
		  .prot = PROT_READ },
		{ .start = 0x7f0000001000, .end = 0x7f0000004000, .pgoff = 0x1000, .dso = lib,
		  .prot = PROT_READ | PROT_EXEC },
		{ .start = 0x7f0000005000, .end = 0x7f0000006000, .pgoff = 0x4000, .dso = lib,
		  .prot = PROT_READ },
		{ .start = 0x7f0000006000, .end = 0x7f0000007000, .pgoff = 0x5000, .dso = lib,
		  .prot = PROT_READ | PROT_WRITE },
		{ .start = 0x7f0000001000, .end = 0x7f0000004000, .pgoff = 0, .dso = other,
		  .prot = PROT_READ | PROT_EXEC },
	};
	cc->pl_uregs_abi = 2;
	cc->pl_nuregs = 2;
	cc->pl_uregs_mask = (1ull << 7) | (1ull << 8);   /* x86_64 SP, IP */
	cc->pl_uregs[0] = 0x7ffd0000;
	cc->pl_uregs[1] = 0x7f0000001100;
	/* a sample after each mapping: each count is a step */
	for (size_t n = 1; n <= 4; n++) {
		unwind__mark(m, n);
		(void)unwind__user(u, 100, m, n, cc, pcs, 8, &complete);
	}
	assert_int_equal(unwind__rebuilds(u), 0);
	unwind__mark(m, 5);
	(void)unwind__user(u, 100, m, 5, cc, pcs, 8, &complete);
	assert_int_equal(unwind__rebuilds(u), 1);
	unwind__free(u);
	symtab__free(st);
	free(cc);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

/* elf.c reads a binary's symbol table itself where libdwfl's answer is
 * arithmetic on it: every symbol of real binaries, each loaded at a high
 * base, answered as dwfl_module_getsym_info answers (name, values, section,
 * address, file, bias): this test binary (.symtab), libc (its .dynsym, or
 * its debug file's .symtab where libc6-dbg is installed) and python3. */
static void test_symread_as_libdwfl(void **state)
{
	static char *debug_path;
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &debug_path,
	};
	Dl_info di;
	const char *paths[3] = { "/proc/self/exe", NULL, "/usr/bin/python3" };
	int direct = 0;
	(void)state;
	if (dladdr((void *)&printf, &di) && di.dli_fname)
		paths[1] = di.dli_fname;
	for (size_t i = 0; i < 3; i++) {
		if (!paths[i] || access(paths[i], R_OK) != 0)
			continue;
		Dwfl *dwfl = dwfl_begin(&cb);
		assert_non_null(dwfl);
		Dwfl_Module *mod = dwfl_report_elf(dwfl, paths[i], paths[i], -1,
		    0x7f1234560000ull + 0x10000000ull * i, false);
		assert_non_null(mod);
		dwfl_report_end(dwfl, NULL, NULL);
		Dwarf_Addr bias;
		(void)dwfl_module_getdwarf(mod, &bias);        /* the debug file, if any */
		int bad = sym__symread_check(mod);
		print_message("%s: %d symbols, %s\n", paths[i], dwfl_module_getsymtab(mod),
		    bad < 0 ? "read through libdwfl" : "read directly");
		assert_true(bad <= 0);
		direct += bad == 0;
		dwfl_end(dwfl);
	}
	/* the test binary itself is one the direct reading takes */
	assert_true(direct >= 1);
}

/* Is there an IN_OPEN event on the inotify descriptor (no waiting)? */
static int opened_since(int in)
{
	char buf[4096];
	struct pollfd pf = { in, POLLIN, 0 };
	int any = 0;
	while (poll(&pf, 1, 0) == 1 && read(in, buf, sizeof(buf)) > 0)
		any = 1;
	return any;
}

/* A recorded file is read when it is first used, not when it is mapped: a
 * system-wide recording maps ~110 files, most without a sample, and each
 * was opened (about 10 syscalls) to tell the simulator's images from ELF
 * files.  Its kind is still the image's once asked. */
static void test_file_read_at_first_use(void **state)
{
	char tmpd[] = "/tmp/pmc-kindXXXXXX", path[64];
	(void)state;
	assert_non_null(mkdtemp(tmpd));
	snprintf(path, sizeof(path), "%s/image", tmpd);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(PMC_SIM_IMAGE_MAGIC "1000 10 f\n", f);
	fclose(f);
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (in < 0 || inotify_add_watch(in, path, IN_OPEN) < 0) {
		if (in >= 0)
			close(in);
		unlink(path);
		rmdir(tmpd);
		skip();
	}
	struct symtab *st = symtab__new(NULL);
	assert_non_null(st);
	struct sym_dso *d = symtab__dso(st, path, NULL, 0);
	assert_non_null(d);
	assert_ptr_equal(symtab__dso(st, path, NULL, 0), d);     /* found again */
	assert_false(opened_since(in));                          /* not read yet */
	assert_int_equal(sym_dso__kind(d), SYM_DSO_MAPFILE);
	assert_true(opened_since(in));                           /* read once asked */
	symtab__free(st);
	close(in);
	unlink(path);
	rmdir(tmpd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_many),
		cmocka_unit_test(test_kmodules_many),
		cmocka_unit_test(test_perfmap_many),
		cmocka_unit_test(test_jitdump_many),
		cmocka_unit_test(test_unwind_spaces),
		cmocka_unit_test(test_unwind_data_segments),
		cmocka_unit_test(test_unwind_shared_tables),
		cmocka_unit_test(test_symread_as_libdwfl),
		cmocka_unit_test(test_file_read_at_first_use),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
