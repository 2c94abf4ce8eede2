/*
 * test_analysis.c — libpmcstat on hand-made logs (the log writer's record
 * encoders, no kernel): symbols from an ELF file at a known mapping, a
 * build id that no longer matches (reported, not mis-symbolized), JIT code
 * through /tmp/perf-PID.map, kernel pcs through a kallsyms file, KSYMBOL
 * records, demangling, out-of-order MMAP/COMM, forks, filters, sort keys,
 * children, call trees, PROCEXIT summaries, USERDATA markers, truncated
 * logs; and, with libpmc's own sampling API, the 60/30/10 workload.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elfutils/libdwfl.h>

#include "test_analysis_util.h"
#include "common/error.h"
#include "profile/offcpu.h"
#include "profile/profile.h"
#include "report/report.h"
#include "profile/tree.h"
#include "report/browse.h"
#include "perfdata/perfdata.h"
#include "util/printable.h"

/* Sample i of a loaded profile, decoded. */
static struct prof_sample smp(struct profile *p, size_t i)
{
	struct prof_sample s;
	profile__sample(p, i, &s);
	return s;
}

#include <sys/wait.h>

static char dir[] = "/tmp/test_analysis_XXXXXX";
static char self_exe[PATH_MAX];

/* ---- writing a synthetic log -------------------------------------------- */

struct wlog {
	struct lb lb;
	uint64_t t;                  /* the next record's time */
};

static void w_put(struct wlog *w)
{
	lb_logrec(&w->lb, &ta_rec, w->t++);
}

static void w_begin(struct wlog *w)
{
	struct pmc_logrec_header h = { PMC_VERSION, 1, 1700000000000000000ull, 1000, 0, 0,
	    "0.1.0", "testhost", "6.1.0-test", "Test CPU", "pmc record -- prog" };
	w->lb = (struct lb){ 0 };
	w->t = 1000;
	lb_log_begin(&w->lb, &h, w->t++);
	assert_int_equal(pmc__logrec_pmcallocate(&ta_rec, 0x11, 0, "cycles:u", PMC_MODE_TS,
	    PMC_F_CALLCHAIN, 100000, 0, -1), 0);
	w_put(w);
}

/* kernel_leaf: 1 the sampled pc is a kernel pc, 2 every pc is */
static void w_sample(struct wlog *w, pid_t pid, pid_t tid, int cpu, int n, const uint64_t *pcs,
    int kernel_leaf)
{
	uint8_t fl[16];
	for (int i = 0; i < n; i++)
		fl[i] = (kernel_leaf == 2 || (kernel_leaf && i == 0)) ? 0 : PMC_CC_F_USERSPACE;
	struct pmc_logrec_sample s = { 0x11, pid, tid, (uint32_t)cpu, 100000,
	    (uint32_t)n, pcs, fl };
	assert_int_equal(pmc__logrec_callchain(&ta_rec, &s), 0);
	w_put(w);
}

static void w_map(struct wlog *w, pid_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
    const char *path, const uint8_t *bid, unsigned bidlen)
{
	struct pmc_logrec_map m = { pid, start, len, pgoff, 5, 2, bidlen, bid, path };
	assert_int_equal(pmc__logrec_map_in(&ta_rec, &m), 0);
	w_put(w);
}

static void w_comm(struct wlog *w, pid_t pid, pid_t tid, const char *name)
{
	assert_int_equal(pmc__logrec_comm(&ta_rec, pid, tid, PMCLOG_COMM_F_EXEC, name), 0);
	w_put(w);
}

static const char *w_end(struct wlog *w, const char *name, int close)
{
	static char path[PATH_MAX];
	if (close) {
		assert_int_equal(pmc__logrec_closelog(&ta_rec), 0);
		w_put(w);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	lb_save(&w->lb, path);
	lb_free(&w->lb);
	return path;
}

/* path = dir/name, holding text */
static void put_file(char *path, size_t len, const char *name, const char *text)
{
	snprintf(path, len, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct profile *load(const char *path)
{
	struct profile *p;
	struct prof_load_opts o = { 0 };
	o.sym.demangle = 1;
	o.sym.kallsyms = NULL;
	if (profile__load(&p, path, &o) != 0)
		fail_msg("load %s: %s", path, pmc_errmsg());
	profile__resolve(p);
	return p;
}

/* The address of a function of this test program in its own ELF file, and
 * where that file is mapped now. */
static uint64_t elf_vaddr_of(void (*fn)(void **), uint64_t *map_start, uint64_t *pgoff,
    uint64_t *map_len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	uint64_t pc = (uint64_t)(uintptr_t)fn;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, off;
		if (sscanf(line, "%llx-%llx %*s %llx", &lo, &hi, &off) == 3 && pc >= lo && pc < hi) {
			*map_start = lo;
			*pgoff = off;
			*map_len = hi - lo;
			fclose(f);
			return pc;
		}
	}
	fclose(f);
	fail_msg("no mapping for our own code");
	return 0;
}

/* ---- tests --------------------------------------------------------------- */

static void test_elf_symbols(void **state)
{
	struct wlog w;
	uint64_t ms, off, len, pc = elf_vaddr_of(test_elf_symbols, &ms, &off, &len);
	uint8_t bid[20];
	unsigned bl = tio_buildid(self_exe, bid);
	uint64_t pcs[2] = { pc + 4, pc + 8 };
	(void)state;

	w_begin(&w);
	/* samples before the mapping and the name: resolved at the end */
	for (int i = 0; i < 3; i++)
		w_sample(&w, 4242, 4242, 1, 2, pcs, 0);
	w_map(&w, 4242, ms, len, off, self_exe, bid, bl);
	w_comm(&w, 4242, 4242, "selftest");
	const char *path = w_end(&w, "elf.log", 1);
	struct profile *p = load(path);
	assert_int_equal(p->ns, 3);
	assert_string_equal(smp(p, 0).comm, "selftest");
	const struct prof_frame *fr;
	int n = profile__frames(p, smp(p, 0).stack, 0, &fr);
	assert_int_equal(n, 2);
	assert_string_equal(p->f[fr[0].func].name, "test_elf_symbols");
	assert_string_equal(sym_dso__name(p->f[fr[0].func].dso), "test_analysis");
	assert_null(sym_dso__problem(p->f[fr[0].func].dso));
	/* distinct pcs of one function, one lookup each: 2 locations */
	assert_int_equal(p->nl, 2);
	profile__free(p);
}

static void test_buildid_mismatch(void **state)
{
	struct wlog w;
	uint64_t ms, off, len, pc = elf_vaddr_of(test_buildid_mismatch, &ms, &off, &len);
	uint8_t bid[20];
	uint64_t pcs[1] = { pc + 4 };
	(void)state;
	memset(bid, 0xab, sizeof(bid));    /* not our build id */
	w_begin(&w);
	w_map(&w, 7, ms, len, off, self_exe, bid, 20);
	w_sample(&w, 7, 7, 0, 1, pcs, 0);
	const char *path = w_end(&w, "bid.log", 1);
	struct profile *p = load(path);
	const struct prof_frame *fr;
	profile__frames(p, smp(p, 0).stack, 0, &fr);
	/* not symbolized with the wrong binary, and said why */
	assert_string_equal(p->f[fr[0].func].name, "[unknown]");
	assert_non_null(strstr(sym_dso__problem(p->f[fr[0].func].dso), "build id differs"));
	char *txt;
	size_t tl;
	FILE *f = open_memstream(&txt, &tl);
	struct report_opts o = { 0 };
	o.flt.ev = -1;
	o.callgraph = -1;
	report__parse_sort(&o, "comm,dso,sym");
	report__text(f, p, &o);
	fclose(f);
	assert_non_null(strstr(txt, "build id differs"));
	free(txt);
	profile__free(p);
}

static void test_perfmap_and_kernel(void **state)
{
	struct wlog w;
	char mp[PATH_MAX], ks[PATH_MAX];
	pid_t pid = 999999;  /* no such process: perf-999999.map is ours */
	(void)state;
	snprintf(mp, sizeof(mp), "/tmp/perf-%d.map", (int)pid);
	FILE *f = fopen(mp, "w");
	assert_non_null(f);
	fprintf(f, "7f0000001000 100 jitted_hot\n7f0000001100 80 _ZN2ns3fooEv\n");
	fclose(f);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	f = fopen(ks, "w");
	fprintf(f, "ffffffff81000000 T _stext\nffffffff81001000 T do_syscall_64\n"
	    "ffffffff81002000 t helper\nffffffff81003000 T _etext\n");
	fclose(f);
	uint64_t a[2] = { 0x7f0000001010, 0x7f0000001150 };
	uint64_t k[3] = { 0xffffffff81001234, 0x7f0000001150, 0x7f0000001010 };
	w_begin(&w);
	w_comm(&w, pid, pid, "jitprog");
	w_sample(&w, pid, pid, 0, 2, a, 0);
	w_sample(&w, pid, pid, 0, 3, k, 1);
	assert_int_equal(pmc__logrec_ksymbol(&ta_rec, 0xffffffffa0000000ull, 0x100, 1, 0,
	    "bpf_prog_test"), 0);
	w_put(&w);
	uint64_t b[1] = { 0xffffffffa0000010ull };
	w_sample(&w, pid, pid, 0, 1, b, 1);
	const char *path = w_end(&w, "jit.log", 1);
	struct profile *p;
	struct prof_load_opts o = { 0 };
	o.sym.demangle = 1;
	o.sym.kallsyms = ks;
	assert_int_equal(profile__load(&p, path, &o), 0);
	profile__resolve(p);
	const struct prof_frame *fr;
	int n = profile__frames(p, smp(p, 0).stack, 0, &fr);
	assert_int_equal(n, 2);
	assert_string_equal(p->f[fr[0].func].name, "jitted_hot");
	assert_string_equal(p->f[fr[1].func].name, "ns::foo");   /* demangled, as perf: no "()" */
	n = profile__frames(p, smp(p, 1).stack, 0, &fr);
	assert_int_equal(n, 3);
	assert_string_equal(p->f[fr[0].func].name, "do_syscall_64");
	assert_true(p->f[fr[0].func].kernel);
	n = profile__frames(p, smp(p, 2).stack, 0, &fr);
	assert_string_equal(p->f[fr[0].func].name, "bpf_prog_test");
	profile__free(p);
	unlink(mp);
}

/* Names from a recording with control characters (a JIT's perf map, a
 * command, a kernel symbol record, an event) are stored written \xNN
 * (printable.h): a report cannot carry a terminal escape or a newline. */
static void test_names_printable(void **state)
{
	struct wlog w;
	char mp[PATH_MAX], buf[64];
	pid_t pid = 999998;
	(void)state;
	assert_false(printable__needs("plain name, é"));
	assert_true(printable__needs("a\tb"));
	assert_true(printable__needs("\177"));
	assert_string_equal(printable__str("x\033]0;t\007\n", buf, sizeof(buf)),
	    "x\\x1b]0;t\\x07\\x0a");
	assert_string_equal(printable__copy("abc\001def", buf, 6), "abc");   /* cut, not split */
	/* C1 controls, raw (8-bit CSI) and UTF-8 (U+009B), and bytes that are
	 * not UTF-8 are escaped; UTF-8 from U+00A0 up is not (0x82 is part of €) */
	assert_true(printable__needs("a\x9b[31mX"));
	assert_true(printable__needs("a\xc2\x9b[31mX"));
	assert_true(printable__needs("\xff\xfe"));
	assert_true(printable__needs("\xe2\x82"));             /* cut short */
	assert_true(printable__needs("\xc0\xaf"));             /* overlong '/' */
	assert_true(printable__needs("\xed\xa0\x80"));         /* a surrogate */
	assert_false(printable__needs("\xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80"));
	assert_string_equal(printable__str("a\x9b" "b\xc2\x9b" "c\xff", buf, sizeof(buf)),
	    "a\\x9bb\\xc2\\x9bc\\xff");
	assert_string_equal(printable__copy("ab\xe2\x82\xac", buf, 5), "ab");   /* whole characters */
	snprintf(mp, sizeof(mp), "/tmp/perf-%d.map", (int)pid);
	FILE *f = fopen(mp, "w");
	assert_non_null(f);
	fprintf(f, "7f0000001000 100 jit\033]0;owned\007\n");
	fclose(f);
	uint64_t a[1] = { 0x7f0000001010 }, b[1] = { 0xffffffffa0000010ull };
	w_begin(&w);
	w_comm(&w, pid, pid, "\033[2Jclear");
	w_sample(&w, pid, pid, 0, 1, a, 0);
	assert_int_equal(pmc__logrec_ksymbol(&ta_rec, 0xffffffffa0000000ull, 0x100, 1, 0,
	    "bpf\nprog"), 0);
	w_put(&w);
	w_sample(&w, pid, pid, 0, 1, b, 1);
	const char *path = w_end(&w, "ctl.log", 1);
	struct profile *p;
	assert_int_equal(profile__load(&p, path, NULL), 0);
	profile__resolve(p);
	const struct prof_frame *fr;
	assert_int_equal(profile__frames(p, smp(p, 0).stack, 0, &fr), 1);
	assert_string_equal(p->f[fr[0].func].name, "jit\\x1b]0;owned\\x07");
	assert_string_equal(smp(p, 0).comm, "\\x1b[2Jclear");
	assert_int_equal(profile__frames(p, smp(p, 1).stack, 0, &fr), 1);
	assert_string_equal(p->f[fr[0].func].name, "bpf\\x0aprog");
	profile__free(p);
	unlink(mp);
}

/* ---- off-CPU time: SWITCH records weigh context-switch samples --------- */

static void w_at(struct wlog *w, uint64_t t)
{
	w->t = t;
	w_put(w);
}

static void w_cs(struct wlog *w, uint32_t pmc, pid_t tid, uint64_t period, uint64_t t)
{
	static const uint64_t pc[1] = { 0x401000 };
	static const uint8_t fl[1] = { PMC_CC_F_USERSPACE };
	struct pmc_logrec_sample s = { .pmc = pmc, .pid = tid, .tid = tid, .cpu = 0, .period = period,
	    .npc = 1, .pcs = pc, .pcflags = fl };
	assert_int_equal(pmc__logrec_callchain(&ta_rec, &s), 0);
	w_at(w, t);
}

static void w_switch(struct wlog *w, pid_t tid, int out, uint64_t t)
{
	assert_int_equal(pmc__logrec_switch(&ta_rec, 0x22, tid, tid, 0,
	    out ? PMCLOG_SWITCH_F_OUT : 0), 0);
	w_at(w, t);
}

static const char *offcpu_log(int switches)
{
	struct wlog w;
	w_begin(&w);
	assert_int_equal(pmc__logrec_pmcallocate(&ta_rec, 0x22, 0, "context-switches",
	    PMC_MODE_TS, PMC_F_CALLCHAIN, 1, 0, -1), 0);
	w_at(&w, 1001);
	assert_int_equal(pmc__logrec_pmcallocate(&ta_rec, 0x33, 0, "cpu-clock:u",
	    PMC_MODE_TS, PMC_F_CALLCHAIN, 4000, 1, -1), 0);
	w_at(&w, 1002);
	/* records as rings are drained, CPU by CPU: not in time order */
	if (switches) {
		w_switch(&w, 12, 0, 1500);   /* tid 12 came back before its switch-out */
		w_switch(&w, 10, 0, 2500);   /* ... read before the sample it ends */
	}
	w_cs(&w, 0x22, 10, 1, 2000);     /* off CPU 2000 -> 2500 */
	w_cs(&w, 0x33, 10, 250000, 2200);
	w_cs(&w, 0x22, 10, 1, 3000);     /* 3000 -> 3700, not 9000 */
	w_cs(&w, 0x22, 11, 1, 4000);     /* never back: dropped */
	w_cs(&w, 0x22, 12, 1, 5000);     /* its only switch-in is earlier: dropped */
	if (switches) {
		w_switch(&w, 10, 1, 3000);
		w_switch(&w, 10, 0, 9000);
		w_switch(&w, 10, 0, 3700);
		w_switch(&w, 11, 1, 4000);
	}
	return w_end(&w, switches ? "offcpu.log" : "cs.log", 1);
}

static void test_offcpu(void **state)
{
	(void)state;
	struct profile *p = load(offcpu_log(1));
	int cs = -1, clk = -1;
	for (size_t e = 0; e < p->nev; e++) {
		if (p->ev[e].pmcid == 0x22)
			cs = (int)e;
		if (p->ev[e].pmcid == 0x33)
			clk = (int)e;
	}
	assert_true(cs >= 0 && clk >= 0);
	assert_string_equal(p->ev[cs].name, "offcpu-time");
	assert_non_null(p->ev[cs].what);
	assert_int_equal(p->ev[cs].samples, 2);
	assert_int_equal(p->ev[cs].period, 500 + 700);
	uint64_t got[2] = { 0, 0 };
	for (size_t i = 0, k = 0; i < p->ns; i++)
		if (smp(p, i).ev == cs && k < 2)
			got[k++] = smp(p, i).period;
	assert_int_equal(got[0], 500);
	assert_int_equal(got[1], 700);
	/* --wall: the on-CPU nanoseconds and the off-CPU ones, one event */
	assert_int_equal(offcpu__wall(p), 0);
	assert_string_equal(p->ev[p->nev - 1].name, "wall-time");
	assert_int_equal(p->ev[p->nev - 1].samples, 3);
	assert_int_equal(p->ev[p->nev - 1].period, 250000 + 1200);
	assert_int_equal(p->ev[cs].samples, 0);
	assert_int_equal(p->ev[clk].samples, 0);
	/* a flame graph of it is as wide as its nanoseconds */
	struct prof_filter flt = { .ev = (int)p->nev - 1 };
	struct ctree t;
	profile__resolve(p);
	assert_int_equal(tree__build(&t, p, &flt, TREE_CALLER, 0, 0), 0);
	assert_int_equal(tree__width(&t, 0), 251200);
	assert_int_equal(t.nsamples, 3);
	tree__free(&t);
	profile__free(p);

	/* without switch-ins, context-switches samples are only samples */
	p = load(offcpu_log(0));
	for (size_t e = 0; e < p->nev; e++)
		if (p->ev[e].pmcid == 0x22) {
			assert_string_equal(p->ev[e].name, "context-switches");
			assert_int_equal(p->ev[e].samples, 4);
			assert_null(p->ev[e].what);
		}
	assert_int_equal(offcpu__wall(p), -ENOENT);
	assert_non_null(strstr(pmc_errmsg(), "no off-CPU samples"));
	profile__free(p);
}

/* analysis/symbols/symbols.c finds an ELF binary's functions by binary search
 * (issue 16): its choice between aliases, nested and overlapping symbols,
 * sizeless labels, locals and globals is libdwfl's, at every address. */
/* Build a shared library of assembly text src_text (file NAME.s) and check
 * sym_dso__func against dwfl_module_addrinfo at every address of it. */
/* Build libBASE.so (path in so) of assembly text src_text, and report it
 * to a new Dwfl as its one module *m; skips the test without a compiler. */
static Dwfl *so_of_asm(const char *base, const char *src_text, char *so, size_t n,
    Dwfl_Module **m)
{
	char src[PATH_MAX], cmd[PATH_MAX * 3], fn[64];
	snprintf(so, n, "%s/lib%s.so", dir, base);
	snprintf(fn, sizeof(fn), "%s.s", base);
	put_file(src, sizeof(src), fn, src_text);
	snprintf(cmd, sizeof(cmd), "cc -shared -nostdlib -o %s %s 2>/dev/null", so, src);
	if (system(cmd) != 0)
		skip();   /* no compiler */
	static char *debuginfo_path;
	static const Dwfl_Callbacks cb = { .find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address, .debuginfo_path = &debuginfo_path };
	Dwfl *dw = dwfl_begin(&cb);
	assert_non_null(dw);
	dwfl_report_begin(dw);
	*m = dwfl_report_elf(dw, so, so, -1, 0, true);
	dwfl_report_end(dw, NULL, NULL);
	assert_non_null(*m);
	return dw;
}

static void check_as_libdwfl(const char *base, const char *src_text, int min_named)
{
	char so[PATH_MAX];
	Dwfl_Module *m;
	Dwfl *dw = so_of_asm(base, src_text, so, sizeof(so), &m);
	uint64_t lo = UINT64_MAX, hi = 0;
	int ns = dwfl_module_getsymtab(m);
	for (int i = 1; i < ns; i++) {
		GElf_Sym sym;
		GElf_Addr a;
		if (dwfl_module_getsym_info(m, i, &sym, &a, NULL, NULL, NULL) && a) {
			lo = a < lo ? a : lo;
			hi = a + sym.st_size > hi ? a + sym.st_size : hi;
		}
	}
	assert_true(lo < hi);
	struct symtab *st = symtab__new(NULL);
	struct sym_dso *d = symtab__dso(st, so, NULL, 0);
	int named = 0;
	for (uint64_t a = lo - 16; a < hi + 64; a++) {
		GElf_Off off;
		GElf_Sym sym;
		const char *want = dwfl_module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL);
		const char *name;
		uint64_t start, size;
		int r = sym_dso__func(d, a, &name, &start, &size);
		if (!want) {
			assert_int_equal(r, -1);
			continue;
		}
		assert_int_equal(r, 0);
		assert_string_equal(name, want);
		assert_int_equal(start, a - off);
		assert_int_equal(size, sym.st_size ? sym.st_size : off + 1);
		named++;
	}
	assert_true(named > min_named);
	symtab__free(st);
	dwfl_end(dw);
}


static void test_func_lookup_as_libdwfl(void **state)
{
	(void)state;
	/* no instructions, only bytes: the same on every architecture */
	static const char text[] = ".text\n"
	    ".globl g1\n.type g1,%function\ng1: .skip 64\n.size g1, 64\n"
	    ".weak w1\n.type w1,%function\n.set w1, g1\n.size w1, 32\n"
	    ".globl w2\n.type w2,%function\n.set w2, g1+8\n.size w2, 8\n"
	    ".globl g2\n.type g2,%function\ng2: .skip 16\n"
	    "lab: .skip 16\n"
	    ".type l1,%function\nl1: .skip 32\n.size l1, 32\n"
	    ".globl outer\n.type outer,%function\nouter: .skip 64\n.size outer, 64\n"
	    ".type inner,%function\n.set inner, outer+16\n.size inner, 16\n"
	    ".weak wk\n.type wk,%function\nwk: .skip 24\n.size wk, 48\n"
	    "tail: .skip 16\n"
	    ".globl s3\n.type s3,%function\ns3: .skip 16\n"
	    ".globl lab3\nlab3: .skip 48\n.size s3, 40\n"
	    ".data\n.globl dvar\n.type dvar,%object\ndvar: .skip 8\n.size dvar, 8\n";
	check_as_libdwfl("syms", text, 200);
}

/* The same choice with many symbols: after some lookups of a binary the
 * symbols are indexed by value (symbols.c ftab_fast, issue 26), the
 * globals' index first, the locals' later; every address is still
 * libdwfl's answer. */
static void test_func_lookup_indexed(void **state)
{
	static const char block[] =
	    ".globl g1_%d\n.type g1_%d,%%function\ng1_%d: .skip 64\n.size g1_%d, 64\n"
	    ".weak w1_%d\n.type w1_%d,%%function\n.set w1_%d, g1_%d\n.size w1_%d, 32\n"
	    ".globl w2_%d\n.type w2_%d,%%function\n.set w2_%d, g1_%d+8\n.size w2_%d, 8\n"
	    ".globl g2_%d\n.type g2_%d,%%function\ng2_%d: .skip 16\n"
	    "lab_%d: .skip 16\n"
	    ".type l1_%d,%%function\nl1_%d: .skip 32\n.size l1_%d, 32\n"
	    ".globl outer_%d\n.type outer_%d,%%function\nouter_%d: .skip 64\n.size outer_%d, 64\n"
	    ".type inner_%d,%%function\n.set inner_%d, outer_%d+16\n.size inner_%d, 16\n"
	    ".weak wk_%d\n.type wk_%d,%%function\nwk_%d: .skip 24\n.size wk_%d, 48\n"
	    "tail_%d: .skip 16\n"
	    ".globl s3_%d\n.type s3_%d,%%function\ns3_%d: .skip 16\n"
	    ".globl lab3_%d\nlab3_%d: .skip 48\n.size s3_%d, 40\n";
	enum { N = 60 };
	char *text = malloc(N * sizeof(block) * 2 + 64);
	size_t len = 0;
	(void)state;
	assert_non_null(text);
	len += (size_t)sprintf(text, ".text\n");
	for (int i = 0; i < N; i++)
		len += (size_t)sprintf(text + len, block, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i,
		    i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i);
	check_as_libdwfl("manysyms", text, 200 * N);
	free(text);
}

/* Where libdwfl names nothing, an address after a sizeless function
 * symbol of another section is named after it, as perf's
 * symbols__fixup_end stretches such a symbol to the next one's start (the
 * PLT header after GNU ld's .init reads "_init+0x26" in perf:
 * tests/integration/plt_names.sh checks that against perf); after a sized
 * one, or past the last function symbol, it stays unnamed. */
static void test_func_stretched(void **state)
{
	static const char text[] =
	    ".section .ta,\"ax\",%progbits\n"
	    ".globl f0\n.type f0,%function\nf0: .skip 8\n"
	    ".section .tb,\"ax\",%progbits\n.skip 32\n"
	    ".section .tc,\"ax\",%progbits\n"
	    ".globl f1\n.type f1,%function\nf1: .skip 8\n.size f1, 8\n"
	    ".section .td,\"ax\",%progbits\n.skip 32\n"
	    ".section .te,\"ax\",%progbits\n"
	    ".globl f2\n.type f2,%function\nf2: .skip 8\n"
	    ".section .tf,\"ax\",%progbits\n.skip 32\n";
	char so[PATH_MAX];
	Dwfl_Module *m;
	(void)state;
	Dwfl *dw = so_of_asm("stretch", text, so, sizeof(so), &m);
	/* the sections' addresses, as the linker placed them */
	GElf_Addr bias, at[6] = { 0 };
	Elf *e = dwfl_module_getelf(m, &bias);
	size_t shstr;
	assert_non_null(e);
	assert_int_equal(elf_getshdrstrndx(e, &shstr), 0);
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL; ) {
		GElf_Shdr sh;
		const char *n;
		if (gelf_getshdr(scn, &sh) && (n = elf_strptr(e, shstr, sh.sh_name)) &&
		    strlen(n) == 3 && n[0] == '.' && n[1] == 't' && n[2] >= 'a' && n[2] <= 'f')
			at[n[2] - 'a'] = sh.sh_addr + bias;
	}
	for (int i = 0; i < 6; i++)
		assert_true(at[i] != 0);
	if (!(at[0] < at[1] && at[1] < at[2] && at[2] < at[3] && at[3] < at[4] && at[4] < at[5]))
		skip();   /* the linker ordered the sections otherwise */
	struct symtab *st = symtab__new(NULL);
	struct sym_dso *d = symtab__dso(st, so, NULL, 0);
	const char *name;
	uint64_t start, size;
	GElf_Off off;
	GElf_Sym sym;
	/* .tb: libdwfl names nothing; perf's stretched f0 */
	assert_null(dwfl_module_addrinfo(m, at[1] + 4, &off, &sym, NULL, NULL, NULL));
	assert_int_equal(sym_dso__func(d, at[1] + 4, &name, &start, &size), 0);
	assert_string_equal(name, "f0");
	assert_int_equal(start, at[0]);
	assert_int_equal(size, at[1] + 4 - at[0] + 1);
	/* its own section: libdwfl's answer, the same */
	assert_int_equal(sym_dso__func(d, at[0] + 2, &name, &start, &size), 0);
	assert_string_equal(name, "f0");
	/* .td follows the sized f1: nothing */
	assert_int_equal(sym_dso__func(d, at[3] + 4, &name, &start, &size), -1);
	/* .tf follows f2, the last function symbol: nothing (perf 6.1 neither) */
	assert_int_equal(sym_dso__func(d, at[5] + 4, &name, &start, &size), -1);
	symtab__free(st);
	dwfl_end(dw);
}

/* A PLT entry of an IRELATIVE relocation has no symbol (glibc's calls to
 * its own strlen, memcpy...): it is named after the ifunc at the
 * relocation's addend, not left [unknown] (perf 6.1 prints "@plt"). */
static void test_plt_irelative(void **state)
{
	char src[PATH_MAX], so[PATH_MAX], cmd[PATH_MAX * 3];
	(void)state;
	snprintf(so, sizeof(so), "%s/libifunc.so", dir);
	put_file(src, sizeof(src), "ifunc.c",
	    "static int impl(void) { return 1; }\n"
	    "static void *resolve(void) { return (void *)impl; }\n"
	    "__attribute__((visibility(\"hidden\"))) int myfn(void) __attribute__((ifunc(\"resolve\")));\n"
	    "int call(void) { return myfn() + 1; }\n");
	snprintf(cmd, sizeof(cmd), "cc -O1 -shared -fPIC -o %s %s 2>/dev/null", so, src);
	if (system(cmd) != 0)
		skip();   /* no compiler, or no ifunc on this target */
	struct symtab *st = symtab__new(NULL);
	struct sym_dso *d = symtab__dso(st, so, NULL, 0);
	int found = 0;
	for (uint64_t a = 0; a < 0x10000 && !found; a++) {
		const char *name;
		uint64_t start, size;
		found = sym_dso__func(d, a, &name, &start, &size) == 0 &&
		    strcmp(name, "myfn@plt") == 0;
	}
	assert_true(found);
	symtab__free(st);
}

static void test_demangle(void **state)
{
	char buf[256];
	(void)state;
	/* perf 6.1's default: no parameter list; -v: with it */
	assert_string_equal(sym__demangle("_ZN2ns3fooEi", 0, buf, sizeof(buf)), "ns::foo");
	assert_string_equal(sym__demangle("_ZN2ns3fooEi", 1, buf, sizeof(buf)), "ns::foo(int)");
	assert_string_equal(sym__demangle("_ZN2ns7run_hotEm.cold", 0, buf, sizeof(buf)),
	    "ns::run_hot");   /* perf prints the clone suffix only with -v */
	/* Rust legacy: the hash is dropped, $LT$..$GT$ decoded, .llvm.N dropped */
	assert_string_equal(sym__demangle("_ZN4core3fmt5write17h0123456789abcdefE", 0, buf,
	    sizeof(buf)), "core::fmt::write");
	assert_string_equal(sym__demangle("_ZN9hashbrown3raw21RawTable$LT$T$C$A$GT$14reserve_rehash"
	    "17h946be7c44156641fE.llvm.4646660702814907862", 0, buf, sizeof(buf)),
	    "hashbrown::raw::RawTable<T,A>::reserve_rehash");
	assert_string_equal(sym__demangle("_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$"
	    "17h0123456789abcdefE", 0, buf, sizeof(buf)), "std::rt::lang_start::{{closure}}");
	/* Rust v0 */
	assert_string_equal(sym__demangle("_RNvXsd_NtNtNtCsgEmfK2I1SDS_4core3fmt3num3impyNtB9_"
	    "7Display3fmt", 0, buf, sizeof(buf)), "<u64 as core::fmt::Display>::fmt");
	assert_string_equal(sym__demangle("_RNvNtCsjrHSEGnQ3l9_3std2rt19lang_start_internal", 0, buf,
	    sizeof(buf)), "std::rt::lang_start_internal");
	assert_string_equal(sym__demangle("main", 0, buf, sizeof(buf)), "main");
	assert_string_equal(sym__demangle("_Rfoo!", 0, buf, sizeof(buf)), "_Rfoo!");
}

/* Kernel symbols are demangled only with demangle_kernel (perf's
 * --demangle-kernel): a kernel built with Rust has v0 names. */
static void test_demangle_kernel(void **state)
{
	char ks[300];
	const char *name;
	uint64_t start, size;
	(void)state;
	snprintf(ks, sizeof(ks), "%s/kallsyms.rust", dir);
	FILE *f = fopen(ks, "w");
	assert_non_null(f);
	fprintf(f, "ffffffff81000000 T _stext\nffffffff81001000 T "
	    "_RNvNtCsjrHSEGnQ3l9_3std2rt19lang_start_internal\nffffffff81002000 T _etext\n");
	fclose(f);
	for (int dk = 0; dk < 2; dk++) {
		struct symtab_opts so = { .demangle = 1, .demangle_kernel = dk, .kallsyms = ks };
		struct symtab *st = symtab__new(&so);
		assert_non_null(st);
		struct sym_dso *k = symtab__kernel(st);
		assert_non_null(k);
		assert_int_equal(sym_dso__func(k, 0xffffffff81001010ull, &name, &start, &size), 0);
		assert_string_equal(name, dk ? "std::rt::lang_start_internal" :
		    "_RNvNtCsjrHSEGnQ3l9_3std2rt19lang_start_internal");
		symtab__free(st);
	}
	unlink(ks);
}

/* A fork, filters, sort keys, children, trees, PROCEXIT, USERDATA, truncation. */
static void test_aggregation(void **state)
{
	struct wlog w;
	char ks[PATH_MAX];
	(void)state;
	snprintf(ks, sizeof(ks), "%s/kallsyms2", dir);
	FILE *f = fopen(ks, "w");
	fprintf(f, "ffffffff81000000 T kfunc_a\nffffffff81001000 T kfunc_b\nffffffff81002000 T kend\n");
	fclose(f);
	/* pids 10 (comm one) and 11 (forked from 10, renamed two), "kernel" code */
	uint64_t s1[3] = { 0xffffffff81000010, 0xffffffff81001010, 0xffffffff81001020 };
	uint64_t s2[2] = { 0xffffffff81001010, 0xffffffff81000020 };
	w_begin(&w);
	w_comm(&w, 10, 10, "one");
	for (int i = 0; i < 6; i++)
		w_sample(&w, 10, 10, 0, 3, s1, 2);
	assert_int_equal(pmc__logrec_userdata(&ta_rec, 0x42), 0);
	w_put(&w);
	assert_int_equal(pmc__logrec_procfork(&ta_rec, 10, 11, 10, 11), 0);
	w_put(&w);
	for (int i = 0; i < 4; i++)
		w_sample(&w, 11, 11, 1, 2, s2, 2);
	w_comm(&w, 11, 11, "two");
	for (int i = 0; i < 2; i++)
		w_sample(&w, 11, 11, 1, 2, s2, 2);
	assert_int_equal(pmc__logrec_procexit(&ta_rec, 0x11, 11, 11, 123456), 0);
	w_put(&w);
	assert_int_equal(pmc__logrec_dropnotify(&ta_rec, 3, 0x11, 0, PMCLOG_DROP_RING), 0);
	w_put(&w);
	const char *path = w_end(&w, "agg.log", 0);   /* no CLOSELOG: truncated */

	struct profile *p;
	struct prof_load_opts o = { 0 };
	o.sym.kallsyms = ks;
	assert_int_equal(profile__load(&p, path, &o), 0);
	assert_non_null(strstr(p->truncated, "CLOSELOG"));
	profile__resolve(p);
	assert_int_equal(p->nev, 1);
	assert_int_equal(p->ev[0].samples, 12);
	assert_int_equal(p->ev[0].lost, 3);
	assert_int_equal(p->nmk, 1);
	assert_int_equal(p->npr, 1);
	assert_int_equal(p->pr[0].exit_value, 123456);
	/* comm by time: the fork inherited "one"; renamed "two" later */
	assert_string_equal(smp(p, 6).comm, "one");
	assert_string_equal(smp(p, 11).comm, "two");

	struct report_opts ro = { 0 };
	struct hist h;
	ro.flt.ev = -1;
	ro.callgraph = -1;
	assert_int_equal(report__parse_sort(&ro, "sym"), 0);
	assert_int_equal(report__hist(&h, p, &ro, 0), 0);
	/* self: kfunc_a 6 (pid 10), kfunc_b 6 (pid 11) */
	assert_int_equal(h.n, 2);
	assert_int_equal(h.e[0].self_n, 6);
	assert_int_equal(h.e[1].self_n, 6);
	report__hist_free(&h);
	ro.children = 1;
	assert_int_equal(report__hist(&h, p, &ro, 0), 0);
	/* children: both are in every stack; kfunc_b twice in pid 10's but
	 * counted once per sample */
	assert_int_equal(h.n, 2);
	assert_int_equal(h.e[0].children_n, 12);
	assert_int_equal(h.e[1].children_n, 12);
	report__hist_free(&h);
	ro.children = 0;
	ro.flt.comms = "two";
	assert_int_equal(report__parse_sort(&ro, "comm,pid,cpu"), 0);
	assert_int_equal(report__hist(&h, p, &ro, 0), 0);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.total_n, 2);
	assert_int_equal(h.e[0].pid, 11);
	assert_int_equal(h.e[0].cpu, 1);
	report__hist_free(&h);
	pmc__clear_reason();
	assert_int_equal(report__parse_sort(&ro, "sym,nosuch"), -EINVAL);
	assert_non_null(strstr(pmc_errmsg(), "'nosuch'"));

	/* call tree, caller → callee: kfunc_b → kfunc_b → kfunc_a (6), kfunc_a → kfunc_b (6) */
	struct ctree t;
	struct prof_filter flt = { 0 };
	flt.ev = -1;
	assert_int_equal(tree__build(&t, p, &flt, TREE_CALLER, 0, 0), 0);
	tree__sort(&t);
	assert_int_equal(t.nsamples, 12);
	uint64_t sum = 0;
	for (uint32_t c = t.n[0].child; c != UINT32_MAX; c = t.n[c].next)
		sum += t.n[c].nsamples;
	assert_int_equal(sum, 12);
	tree__free(&t);
	/* pid filter and time filter */
	flt.pids = "10";
	assert_int_equal(tree__build(&t, p, &flt, TREE_CALLEE, 0, 0), 0);
	assert_int_equal(t.nsamples, 6);
	tree__free(&t);
	flt.pids = NULL;
	assert_int_equal(profile__parse_time(&flt, "0,"), 0);
	assert_int_equal(profile__parse_time(&flt, "x"), -EINVAL);
	assert_int_equal(profile__parse_time(&flt, "2,1"), -EINVAL);
	profile__free(p);
}

/* The report browser's rows (browse.h), as its keys change them: an
 * entry opened into its callers (a chain of one caller opens all the
 * way), closed, every entry opened, the symbol filter, a zoom into a
 * command and back, a zoom the sort keys do not allow. */
static void test_browse(void **state)
{
	struct wlog w;
	char ks[PATH_MAX];
	(void)state;
	snprintf(ks, sizeof(ks), "%s/kallsyms3", dir);
	FILE *f = fopen(ks, "w");
	fprintf(f, "ffffffff81000000 T kfunc_a\nffffffff81001000 T kfunc_b\nffffffff81002000 T kend\n");
	fclose(f);
	/* pid 10 "one": kfunc_a called by kfunc_b called by kfunc_b (6);
	 * pid 11 "two": kfunc_b called by kfunc_a (2) */
	uint64_t s1[3] = { 0xffffffff81000010, 0xffffffff81001010, 0xffffffff81001020 };
	uint64_t s2[2] = { 0xffffffff81001010, 0xffffffff81000020 };
	w_begin(&w);
	w_comm(&w, 10, 10, "one");
	for (int i = 0; i < 6; i++)
		w_sample(&w, 10, 10, 0, 3, s1, 2);
	w_comm(&w, 11, 11, "two");
	for (int i = 0; i < 2; i++)
		w_sample(&w, 11, 11, 1, 2, s2, 2);
	const char *path = w_end(&w, "browse.log", 1);
	struct profile *p;
	struct prof_load_opts o = { 0 };
	o.sym.kallsyms = ks;
	assert_int_equal(profile__load(&p, path, &o), 0);
	profile__resolve(p);

	struct report_opts ro = { 0 };
	struct browse b;
	char text[512];
	const char *dso;
	profile__filter_init(&ro.flt);
	ro.callgraph = -1;
	assert_int_equal(report__parse_sort(&ro, "sym"), 0);
	assert_int_equal(browse__open(&b, p, &ro), 0);
	assert_int_equal(b.nrows, 2);
	assert_string_equal(browse__row_sym(&b, 0, &dso), "kfunc_a");
	assert_true(browse__row_pct(&b, 0) == 75.0);
	assert_true(browse__can_open(&b, 0));
	assert_false(browse__is_open(&b, 0));
	/* kfunc_a's callers: kfunc_b, and its caller kfunc_b, opened at once */
	assert_int_equal(browse__toggle(&b, 0), 0);
	assert_int_equal(b.nrows, 4);
	assert_true(browse__is_open(&b, 0));
	assert_int_equal(b.rows[1].depth, 1);
	assert_int_equal(b.rows[2].depth, 2);
	assert_string_equal(browse__row_sym(&b, 1, NULL), "kfunc_b");
	assert_true(browse__row_pct(&b, 1) == 75.0);
	browse__row_text(&b, 2, text, sizeof(text));
	assert_string_equal(text, "    kfunc_b  [kernel.kallsyms]");
	assert_int_equal(browse__toggle(&b, 0), 0);
	assert_int_equal(b.nrows, 2);
	/* every entry: kfunc_a's two levels, kfunc_b's one */
	assert_int_equal(browse__expand(&b, BROWSE_ALL, 1), 0);
	assert_int_equal(b.nrows, 5);
	assert_int_equal(browse__expand(&b, BROWSE_ALL, 0), 0);
	assert_int_equal(b.nrows, 2);
	/* the symbol filter */
	assert_int_equal(browse__set_filter(&b, "_b"), 0);
	assert_int_equal(b.nrows, 1);
	assert_string_equal(browse__row_sym(&b, 0, NULL), "kfunc_b");
	assert_int_equal(browse__set_filter(&b, ""), 0);
	/* sort by command: zoom into "two" and back */
	assert_int_equal(browse__set_sort(&b, "comm,sym"), 0);
	assert_int_equal(b.nrows, 2);
	assert_int_equal(browse__zoom(&b, 1, SK_TID), 0);
	assert_non_null(strstr(b.note, "sort by tid"));
	assert_int_equal(browse__zoom(&b, 1, SK_COMM), 1);
	assert_int_equal(b.nrows, 1);
	assert_int_equal(b.h.total_n, 2);
	assert_string_equal(b.zoom[0].label, "command two");
	assert_int_equal(browse__unzoom(&b), 1);
	assert_int_equal(b.nrows, 2);
	assert_int_equal(browse__unzoom(&b), 0);
	browse__free(&b);
	profile__free(p);
}

static void test_not_a_log(void **state)
{
	char path[PATH_MAX];
	struct profile *p;
	(void)state;
	snprintf(path, sizeof(path), "%s/junk", dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "this is not a log at all\n");
	fclose(f);
	assert_int_equal(profile__load(&p, path, NULL), -ENOEXEC);
	assert_non_null(strstr(pmc_errmsg(), "magic"));
	assert_int_equal(profile__load(&p, "/nonexistent/x.log", NULL), -ENOENT);
	assert_string_equal(pmc_errmsg(), "cannot open: No such file or directory");
}

/* Known answer with libpmc's own sampling API and the 60/30/10 workload. */
static void test_603010_libpmc(void **state)
{
	char cmd[PATH_MAX * 3], w[PATH_MAX], log[PATH_MAX];
	(void)state;
	snprintf(cmd, sizeof(cmd), "sh %s/tests/helpers/analysis/build.sh %s/w >/dev/null 2>&1",
	    getenv("PMC_ROOT") ? getenv("PMC_ROOT") : ".", dir);
	if (system(cmd) != 0) {
		skip();   /* no compiler */
	}
	snprintf(w, sizeof(w), "%s/w/work603010", dir);
	snprintf(log, sizeof(log), "%s/603010.log", dir);
	char *argv[] = { w, "30", NULL };
	if (ta_record(log, argv, 250000, 1) != 0)
		skip();   /* this machine cannot sample cpu-clock */
	struct profile *p = load(log);
	struct report_opts ro = { 0 };
	struct hist h;
	ro.flt.ev = -1;
	report__parse_sort(&ro, "sym");
	assert_int_equal(report__hist(&h, p, &ro, 0), 0);
	double got[3] = { 0 };
	const char *names[3] = { "hot60", "warm30", "cold10" };
	for (size_t i = 0; i < h.n; i++)
		for (int k = 0; k < 3; k++)
			if (strcmp(p->f[h.e[i].func].name, names[k]) == 0)
				got[k] = 100.0 * (double)h.e[i].self / (double)h.total;
	print_message("# hot60 %.2f%% warm30 %.2f%% cold10 %.2f%% of %zu samples\n", got[0], got[1],
	    got[2], (size_t)h.total_n);
	assert_true(got[0] > 54 && got[0] < 66);
	assert_true(got[1] > 25 && got[1] < 35);
	assert_true(got[2] > 6 && got[2] < 14);
	/* the spliced-in mappings carry build ids, which match */
	unsigned bl;
	sym_dso__buildid(p->f[h.e[0].func].dso, &bl);
	assert_int_equal(bl, 20);
	assert_null(sym_dso__problem(p->f[h.e[0].func].dso));
	/* USERDATA markers 1 and 2 */
	assert_int_equal(p->nmk, 2);
	report__hist_free(&h);
	profile__free(p);
}

/* ---- kernels, modules, JIT, hostile paths (issue 9, issue 11) ----------- */

/* The running kernel's build id, and the address of a text symbol of
 * /proc/kallsyms: the first of module want_mod, or vmlinux's symbol want. */
static unsigned run_kbid(uint8_t *bid)
{
	FILE *f = fopen("/sys/kernel/notes", "rb");
	unsigned char b[4096];
	size_t n = f ? fread(b, 1, sizeof(b), f) : 0, off = 0;
	if (f)
		fclose(f);
	while (off + 12 <= n) {
		uint32_t nz, dz, ty;
		memcpy(&nz, b + off, 4);
		memcpy(&dz, b + off + 4, 4);
		memcpy(&ty, b + off + 8, 4);
		size_t da = off + 12 + ((nz + 3u) & ~3u);
		if (da + dz > n)
			break;
		if (ty == 3 && nz == 4 && dz <= 20) {
			memcpy(bid, b + da, dz);
			return dz;
		}
		off = da + ((dz + 3u) & ~3u);
	}
	return 0;
}

static uint64_t ksym_addr(const char *want_mod, const char *want, char *name, size_t len)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512];
	uint64_t found = 0;
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, nm[256], md[256] = "";
		int k = sscanf(line, "%llx %c %255s [%255[^]]]", &a, &t, nm, md);
		if (k < 3 || a == 0 || (t != 't' && t != 'T'))
			continue;
		if ((want_mod && strcmp(md, want_mod) == 0) || (!want_mod && k == 3 &&
		    strcmp(nm, want) == 0)) {
			snprintf(name, len, "%s", nm);
			found = a;
		}
	}
	fclose(f);
	return found;
}

static void w_ksymsrc(struct wlog *w, const char *release, const uint8_t *bid, unsigned bl)
{
	assert_int_equal(pmc__logrec_ksymsrc(&ta_rec, "/proc/kallsyms", release, bid, bl), 0);
	w_put(w);
}

/* A log recorded on this kernel names /proc/kallsyms' symbols; the same log
 * with another kernel's build id shows addresses and says why (perf 3.8's
 * 13 samples all became `[k] _einittext`). */
static void test_kernel_identity(void **state)
{
	struct wlog w;
	uint8_t bid[20];
	char name[256], rel[256];
	unsigned bl = run_kbid(bid);
	uint64_t ka = ksym_addr(NULL, "read_zero", name, sizeof(name));
	(void)state;
	if (!bl || !ka)
		skip();   /* no build id in /sys/kernel/notes, or kallsyms hidden */
	FILE *f = fopen("/proc/sys/kernel/osrelease", "r");
	assert_non_null(fgets(rel, sizeof(rel), f));
	fclose(f);
	rel[strcspn(rel, "\n")] = '\0';
	uint64_t pcs[1] = { ka + 1 };
	for (int other = 0; other < 2; other++) {
		uint8_t b[20];
		memcpy(b, bid, sizeof(b));
		if (other)
			b[0] ^= 0xff;          /* "recorded on another machine" */
		w_begin(&w);
		w_ksymsrc(&w, rel, b, bl);
		w_sample(&w, 5, 5, 0, 1, pcs, 2);
		struct profile *p = load(w_end(&w, other ? "kother.log" : "khere.log", 1));
		const struct prof_frame *fr;
		profile__frames(p, smp(p, 0).stack, 0, &fr);
		const char *fn = p->f[fr[0].func].name;
		const char *kw = symtab__kernel_warning(p->st);
		if (!other) {
			assert_string_equal(fn, name);
			assert_null(kw);
		} else {
			char hex[24];
			snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)ka + 1);
			assert_string_equal(fn, hex);
			assert_non_null(kw);
			assert_non_null(strstr(kw, "No kallsyms or vmlinux with build-id"));
		}
		profile__free(p);
	}
	/* no build id, only a release: another release is another kernel */
	w_begin(&w);
	w_ksymsrc(&w, "2.6.32-old", NULL, 0);
	w_sample(&w, 5, 5, 0, 1, pcs, 2);
	struct profile *p = load(w_end(&w, "krel.log", 1));
	const struct prof_frame *fr;
	profile__frames(p, smp(p, 0).stack, 0, &fr);
	assert_string_not_equal(p->f[fr[0].func].name, name);
	assert_non_null(strstr(symtab__kernel_warning(p->st), "2.6.32-old"));
	profile__free(p);
}

/* Module code goes to [module] DSOs: from the recording's module mappings
 * (MAP_IN with pid -1, as perf records them) and from kallsyms' [module]
 * tags; in a pmc log and in the perf.data converted from it. */
static void test_kernel_modules(void **state)
{
	struct wlog w;
	uint8_t bid[20];
	char name[256], kname[256], rel[256] = "";
	unsigned bl = run_kbid(bid);
	uint64_t ma = ksym_addr("__builtin__ftrace", NULL, name, sizeof(name));
	uint64_t ka = ksym_addr(NULL, "read_zero", kname, sizeof(kname));
	(void)state;
	if (!bl || !ka)
		skip();
	/* a module range with no symbols of this kernel: names are addresses */
	const uint64_t mbase = 0xffffffffc1230000ull;
	uint64_t p1[1] = { mbase + 0x40 }, p2[1] = { ma ? ma + 1 : ka + 1 }, p3[1] = { ka + 1 };
	w_begin(&w);
	w_ksymsrc(&w, rel, bid, bl);
	w_map(&w, -1, mbase, 0x10000, 0, "/lib/modules/6.1.0/kernel/drivers/net/ath9k-x.ko.xz",
	    NULL, 0);
	w_sample(&w, 5, 5, 0, 1, p1, 2);
	w_sample(&w, 5, 5, 0, 1, p2, 2);
	w_sample(&w, 5, 5, 0, 1, p3, 2);
	const char *lp = w_end(&w, "kmod.log", 1);
	char pd[PATH_MAX];
	snprintf(pd, sizeof(pd), "%s/kmod.data", dir);
	int in = open(lp, O_RDONLY), out = open(pd, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	uint64_t ns = 0;
	int trunc = 0;
	assert_int_equal(perfdata__from_pmclog(in, out, &ns, &trunc), 0);
	close(in);
	close(out);
	for (int k = 0; k < 2; k++) {
		struct profile *p = load(k ? pd : lp);
		const struct prof_frame *fr;
		assert_int_equal(p->ns, 3);
		profile__frames(p, smp(p, 0).stack, 0, &fr);
		assert_string_equal(sym_dso__name(p->f[fr[0].func].dso), "[ath9k_x]");
		assert_true(p->f[fr[0].func].kernel);
		profile__frames(p, smp(p, 1).stack, 0, &fr);
		if (ma) {
			assert_string_equal(sym_dso__name(p->f[fr[0].func].dso), "[__builtin__ftrace]");
			assert_string_equal(p->f[fr[0].func].name, name);
		}
		profile__frames(p, smp(p, 2).stack, 0, &fr);
		assert_string_equal(sym_dso__name(p->f[fr[0].func].dso), "[kernel.kallsyms]");
		assert_string_equal(p->f[fr[0].func].name, kname);
		profile__free(p);
	}
}

/* A line of a command's output, or "" (popen: the compiler's tools). */
static void cmd_line(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	out[0] = '\0';
	if (f && !fgets(out, (int)len, f))
		out[0] = '\0';
	if (f)
		pclose(f);
	out[strcspn(out, "\n")] = '\0';
}

/* A module's symbols come from its .ko when the build id matches (issue 9):
 * a relocatable object with a build id, as the kernel's modules are, built
 * here; a recording (pmc log, and the perf.data converted from it, whose
 * build-id table names it) with the module's mapping; the module's .ko of
 * another build: addresses, and why. */
static void test_kernel_module_ko(void **state)
{
	char src[PATH_MAX], ko[PATH_MAX], cmd[6 * PATH_MAX], hex[64], val[64];
	uint8_t bid[20];
	(void)state;
	snprintf(ko, sizeof(ko), "%s/my-mod.ko", dir);
	put_file(src, sizeof(src), "mymod.c", "int mod_alpha(int x) { return x * 3; }\n"
	    "int mod_beta(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x; return s; }\n"
	    "int mod_gamma(int x) { return mod_beta(x) + mod_alpha(x); }\n");
	snprintf(cmd, sizeof(cmd), "cc -O1 -c -o %s.o %s 2>/dev/null && ld -r --build-id -o %s %s.o"
	    " 2>/dev/null && readelf -n %s | awk '/Build ID/ { print $3 }'", ko, src, ko, ko, ko);
	cmd_line(cmd, hex, sizeof(hex));
	if (strlen(hex) != 40)
		skip();   /* no cc, ld -r --build-id or readelf */
	for (int i = 0; i < 20; i++)
		sscanf(hex + 2 * i, "%2hhx", &bid[i]);
	snprintf(cmd, sizeof(cmd), "nm %s | awk '$3 == \"mod_beta\" { print $1 }'", ko);
	cmd_line(cmd, val, sizeof(val));
	uint64_t beta = strtoull(val, NULL, 16);
	assert_true(val[0] != '\0');

	const uint64_t mbase = 0xffffffffc0a00000ull;
	uint64_t pc[1] = { mbase + beta + 4 };
	/* 0: the .ko; 1: the recording's module is another build; 2: .ko.xz */
	char kxz[PATH_MAX + 8];
	snprintf(kxz, sizeof(kxz), "%s.xz", ko);
	snprintf(cmd, sizeof(cmd), "xz -k -c %s > %s 2>/dev/null && echo ok", ko, kxz);
	cmd_line(cmd, val, sizeof(val));
	int rounds = strcmp(val, "ok") == 0 ? 3 : 2;
	for (int round = 0; round < rounds; round++) {
		struct wlog w;
		uint8_t b[20];
		int other = round == 1;
		memcpy(b, bid, 20);
		b[0] ^= (uint8_t)(other ? 0xff : 0);
		w_begin(&w);
		w_map(&w, -1, mbase, 0x4000, 0, round == 2 ? kxz : ko, b, 20);
		w_sample(&w, 5, 5, 0, 1, pc, 2);
		char ln[16];
		snprintf(ln, sizeof(ln), "ko%d.log", round);
		const char *lp = w_end(&w, ln, 1);
		char pd[PATH_MAX];
		snprintf(pd, sizeof(pd), "%s/ko%d.data", dir, round);
		int in = open(lp, O_RDONLY), out = open(pd, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		uint64_t ns = 0;
		int trunc = 0;
		assert_int_equal(perfdata__from_pmclog(in, out, &ns, &trunc), 0);
		close(in);
		close(out);
		for (int k = 0; k < 2; k++) {
			struct profile *p = load(k ? pd : lp);
			const struct prof_frame *fr;
			assert_int_equal(p->ns, 1);
			profile__frames(p, smp(p, 0).stack, 0, &fr);
			struct sym_dso *d = p->f[fr[0].func].dso;
			assert_string_equal(sym_dso__name(d), "[my_mod]");
			if (!other) {
				assert_string_equal(p->f[fr[0].func].name, "mod_beta");
				assert_null(sym_dso__problem(d));
			} else {
				snprintf(val, sizeof(val), "0x%016llx", (unsigned long long)pc[0]);
				assert_string_equal(p->f[fr[0].func].name, val);
				assert_non_null(strstr(sym_dso__problem(d), "build id differs"));
			}
			profile__free(p);
		}
	}
}

static __attribute__((noinline)) void first_byte_target(void **state)
{
	(void)state;
}

/* A kernel-mode sample whose chain goes on into user space: the first user
 * frame is the interrupted pc (no pc - 1: at a function's first byte that
 * would be the previous function). */
static void test_user_frame_under_kernel(void **state)
{
	struct wlog w;
	uint64_t ms, off, len, pc = elf_vaddr_of(first_byte_target, &ms, &off, &len);
	uint8_t bid[20];
	unsigned bl = tio_buildid(self_exe, bid);
	uint64_t ret = (uint64_t)(uintptr_t)test_elf_symbols + 8;
	uint64_t pcs[3] = { 0xffffffff81000010ull, pc, ret };
	(void)state;
	w_begin(&w);
	w_map(&w, 8, ms, len, off, self_exe, bid, bl);
	w_sample(&w, 8, 8, 0, 3, pcs, 1);
	struct profile *p = load(w_end(&w, "kuser.log", 1));
	const struct prof_frame *fr;
	assert_int_equal(profile__frames(p, smp(p, 0).stack, 0, &fr), 3);
	assert_string_equal(p->f[fr[1].func].name, "first_byte_target");
	assert_string_equal(p->f[fr[2].func].name, "test_elf_symbols");
	profile__free(p);
}

/* JIT code in anonymous executable memory (node --perf-basic-prof: 74 % of
 * samples were `anon [unknown]`) is named by the process's perf map. */
static void test_perfmap_anon(void **state)
{
	struct wlog w;
	char mp[PATH_MAX];
	pid_t pid = 999998;
	(void)state;
	snprintf(mp, sizeof(mp), "/tmp/perf-%d.map", (int)pid);
	FILE *f = fopen(mp, "w");
	assert_non_null(f);
	fprintf(f, "3f00001000 40 JS:*hotLoop jit.js:1:17\n");
	fclose(f);
	uint64_t a[1] = { 0x3f00001010 }, b[1] = { 0x3f00009000 };
	w_begin(&w);
	w_map(&w, pid, 0x3f00000000, 0x100000, 0, "//anon", NULL, 0);
	w_sample(&w, pid, pid, 0, 1, a, 0);
	w_sample(&w, pid, pid, 0, 1, b, 0);
	struct profile *p = load(w_end(&w, "anon.log", 1));
	const struct prof_frame *fr;
	profile__frames(p, smp(p, 0).stack, 0, &fr);
	assert_string_equal(p->f[fr[0].func].name, "JS:*hotLoop jit.js:1:17");
	assert_string_equal(sym_dso__name(p->f[fr[0].func].dso), "perf-999998.map");
	profile__frames(p, smp(p, 1).stack, 0, &fr);
	assert_string_equal(p->f[fr[0].func].name, "[unknown]");
	profile__free(p);
	unlink(mp);
}

/* A kernel's file (procfs, sysfs ...) is refused before it is opened, a
 * regular one is opened (issue 25 item 9). */
static void test_open_regular(void **state)
{
	char p[PATH_MAX];
	(void)state;
	assert_int_equal(sym__open_regular("/proc/self/status"), -ENODEV);
	assert_int_equal(sym__open_regular("/proc/kmsg"), -ENODEV);
	if (access("/sys/kernel/notes", F_OK) == 0)
		assert_int_equal(sym__open_regular("/sys/kernel/notes"), -ENODEV);
	assert_int_equal(sym__open_regular("/dev/null"), -EINVAL);
	snprintf(p, sizeof(p), "%s/plain", dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	int fd = sym__open_regular(p);
	assert_true(fd >= 0);
	close(fd);
}

/* A perf map is read only up to a size a map can have: a 2 GiB (sparse)
 * /tmp/perf-PID.map is refused, not read through. */
static void test_perfmap_bound(void **state)
{
	struct wlog w;
	char mp[PATH_MAX];
	pid_t pid = 999991;
	(void)state;
	snprintf(mp, sizeof(mp), "/tmp/perf-%d.map", (int)pid);
	int fd = open(mp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 2LL << 30), 0);
	close(fd);
	uint64_t a[1] = { 0x3f00001010 };
	w_begin(&w);
	w_map(&w, pid, 0x3f00000000, 0x100000, 0, "//anon", NULL, 0);
	w_sample(&w, pid, pid, 0, 1, a, 0);
	struct profile *p = load(w_end(&w, "perfmapbig.log", 1));
	const struct prof_frame *fr;
	profile__frames(p, smp(p, 0).stack, 0, &fr);
	const char *why = sym_dso__problem(p->f[fr[0].func].dso);
	unlink(mp);
	assert_non_null(why);
	assert_string_equal(why, "JIT map over 1 GiB: not read");
	profile__free(p);
}

/* /tmp/perf-PID.map as another user's link to a file only root reads, with
 * fs.protected_symlinks=0 (issue 25 item 10: the owner was checked after
 * following the link, so the root-only file's "hex hex name" lines named
 * root's samples): the link is not followed. */
static void test_perfmap_link(void **state)
{
	struct wlog w;
	char mp[PATH_MAX], secret[PATH_MAX], old[16] = "";
	pid_t pid = 999992;
	(void)state;
	if (geteuid() != 0)
		skip();                 /* the sysctl and lchown need root */
	FILE *ps = fopen("/proc/sys/fs/protected_symlinks", "r+");
	if (!ps || !fgets(old, sizeof(old), ps) || fseek(ps, 0, SEEK_SET) != 0 ||
	    fputs("0\n", ps) < 0 || fflush(ps) != 0) {
		if (ps)
			fclose(ps);
		skip();                 /* a container that cannot set it */
	}
	snprintf(secret, sizeof(secret), "%s/root-only.map", dir);
	FILE *f = fopen(secret, "w");
	assert_non_null(f);
	fprintf(f, "3f00000000 100000 ROOT_ONLY_SECRET\n");
	fclose(f);
	chmod(secret, 0600);
	snprintf(mp, sizeof(mp), "/tmp/perf-%d.map", (int)pid);
	unlink(mp);
	assert_int_equal(symlink(secret, mp), 0);
	assert_int_equal(lchown(mp, 65534, 65534), 0);
	uint64_t a[1] = { 0x3f00001010 };
	w_begin(&w);
	w_map(&w, pid, 0x3f00000000, 0x100000, 0, "//anon", NULL, 0);
	w_sample(&w, pid, pid, 0, 1, a, 0);
	struct profile *p = load(w_end(&w, "perfmaplink.log", 1));
	const struct prof_frame *fr;
	profile__frames(p, smp(p, 0).stack, 0, &fr);
	char name[256];
	snprintf(name, sizeof(name), "%s", p->f[fr[0].func].name ? p->f[fr[0].func].name : "");
	profile__free(p);
	unlink(mp);
	fseek(ps, 0, SEEK_SET);
	fputs(old, ps);
	fclose(ps);
	assert_string_not_equal(name, "ROOT_ONLY_SECRET");
}

/* jit-PID.dump with 200,000 code loads and 200,000 moves of code that is
 * not there (issue 25: matched in quadratic time, 17 s): the matching looks
 * at about one symbol a move, and the one real move still names its code. */
static void test_jitdump_moves(void **state)
{
	struct wlog w;
	char jp[PATH_MAX];
	pid_t pid = 999993;
	const uint64_t n = 200000;
	(void)state;
	snprintf(jp, sizeof(jp), "%s/jit-%d.dump", dir, (int)pid);
	FILE *f = fopen(jp, "wb");
	assert_non_null(f);
	uint32_t h32[6] = { 0x4A695444, 1, 40, 62, 0, (uint32_t)pid };
	uint64_t h64[2] = { 0, 0 };
	fwrite(h32, 4, 6, f);
	fwrite(h64, 8, 2, f);
	for (uint64_t i = 0; i < n; i++) {
		char name[32];
		int nl = snprintf(name, sizeof(name), "jit_%llu", (unsigned long long)i) + 1;
		uint32_t pr[2] = { 0, 56 + (uint32_t)nl };
		uint32_t pt[2] = { (uint32_t)pid, (uint32_t)pid };
		uint64_t ts = 0, v[4] = { 0x100000 + 0x10 * i, 0x100000 + 0x10 * i, 0x10, i };
		fwrite(pr, 4, 2, f);
		fwrite(&ts, 8, 1, f);
		fwrite(pt, 4, 2, f);
		fwrite(v, 8, 4, f);
		fwrite(name, 1, (size_t)nl, f);
	}
	for (uint64_t i = 0; i <= n; i++) {
		/* CODE_MOVE: prefix, pid, tid, vma, old_code_addr, new_code_addr, size, index */
		uint32_t pr[2] = { 1, 64 };
		uint32_t pt[2] = { (uint32_t)pid, (uint32_t)pid };
		uint64_t ts = 0, from = i < n ? 0x9000000000 + i : 0x100000 + 0x10 * 7;
		uint64_t v[5] = { 0, from, i < n ? 0xa000000000 + i : 0x3f00000, 0x10, i };
		fwrite(pr, 4, 2, f);
		fwrite(&ts, 8, 1, f);
		fwrite(pt, 4, 2, f);
		fwrite(v, 8, 5, f);
	}
	fclose(f);
	uint64_t a[1] = { 0x3f00004 };
	w_begin(&w);
	w_map(&w, pid, 0x100000, 0x4000000, 0, "//anon", NULL, 0);
	w_map(&w, pid, 0x7f0000000000, 0x1000, 0, jp, NULL, 0);
	w_sample(&w, pid, pid, 0, 1, a, 0);
	struct profile *p = load(w_end(&w, "jitmoves.log", 1));
	const struct prof_frame *fr;
	profile__frames(p, smp(p, 0).stack, 0, &fr);
	assert_string_equal(p->f[fr[0].func].name, "jit_7");
	uint64_t probes = sym_dso__jit_move_probes(p->f[fr[0].func].dso);
	print_message("jitdump: %llu symbols looked at for %llu moves\n",
	    (unsigned long long)probes, (unsigned long long)n + 1);
	assert_true(probes <= 4 * (n + 1));
	profile__free(p);
	unlink(jp);
}

/* jit-PID.dump: code loads (one moved), debug info; a damaged tail is
 * ignored. */
static void test_jitdump(void **state)
{
	struct wlog w;
	char jp[PATH_MAX];
	pid_t pid = 999997;
	(void)state;
	snprintf(jp, sizeof(jp), "%s/jit-%d.dump", dir, (int)pid);
	FILE *f = fopen(jp, "wb");
	assert_non_null(f);
	uint32_t h32[6] = { 0x4A695444, 1, 40, 62, 0, (uint32_t)pid };
	uint64_t h64[2] = { 0, 0 };
	fwrite(h32, 4, 6, f);
	fwrite(h64, 8, 2, f);
	const char *names[2] = { "jit_alpha", "jit_beta" };
	for (int i = 0; i < 2; i++) {
		/* debug info first (perf's order): two lines of jit.c */
		const char *file = "jit.c";
		uint32_t dsz = 32 + 2 * (16 + (uint32_t)strlen(file) + 1);
		uint32_t dp[2] = { 2, dsz };
		uint64_t dt = 0, ca = 0x5000 + 0x100 * (uint64_t)i, nr = 2;
		fwrite(dp, 4, 2, f);
		fwrite(&dt, 8, 1, f);
		fwrite(&ca, 8, 1, f);
		fwrite(&nr, 8, 1, f);
		for (int k = 0; k < 2; k++) {
			uint64_t ea = ca + 0x10 * (uint64_t)k;
			int32_t ln[2] = { 10 * (i + 1) + k, 0 };
			fwrite(&ea, 8, 1, f);
			fwrite(ln, 4, 2, f);
			fwrite(file, 1, strlen(file) + 1, f);
		}
		uint8_t code[16];
		memset(code, 0xc3, sizeof(code));
		uint32_t sz = 56 + (uint32_t)strlen(names[i]) + 1 + sizeof(code);
		uint32_t pr[2] = { 0, sz };
		uint32_t pt[2] = { (uint32_t)pid, (uint32_t)pid };
		uint64_t v[4] = { ca, ca, 0x40, (uint64_t)i };   /* vma, code_addr, size, index */
		fwrite(pr, 4, 2, f);
		fwrite(&dt, 8, 1, f);
		fwrite(pt, 4, 2, f);
		fwrite(v, 8, 4, f);
		fwrite(names[i], 1, strlen(names[i]) + 1, f);
		fwrite(code, 1, sizeof(code), f);
	}
	uint32_t bad[2] = { 0, 8 };   /* a record shorter than its prefix */
	fwrite(bad, 4, 2, f);
	fclose(f);
	uint64_t a[1] = { 0x5018 }, b[1] = { 0x5104 };
	w_begin(&w);
	w_map(&w, pid, 0x4000, 0x4000, 0, "//anon", NULL, 0);
	w_map(&w, pid, 0x7f0000000000, 0x1000, 0, jp, NULL, 0);
	w_sample(&w, pid, pid, 0, 1, a, 0);
	w_sample(&w, pid, pid, 0, 1, b, 0);
	struct profile *p = load(w_end(&w, "jitdump.log", 1));
	const struct prof_frame *fr;
	const char *file;
	int line;
	profile__frames(p, smp(p, 0).stack, PROF_LINES, &fr);
	assert_string_equal(p->f[fr[0].func].name, "jit_alpha");
	assert_string_equal(sym_dso__name(p->f[fr[0].func].dso), "jit-999997.dump");
	assert_int_equal(profile__srcline(p, fr[0].loc, &file, &line), 0);
	assert_string_equal(file, "jit.c");
	assert_int_equal(line, 11);
	profile__frames(p, smp(p, 1).stack, 0, &fr);
	assert_string_equal(p->f[fr[0].func].name, "jit_beta");
	profile__free(p);
}

/* A MAP_IN naming a FIFO or a character device that blocks on read (issue
 * 11: report/annotate/diff hung forever): the report finishes, the binary is
 * "not a regular file".  Run in a child so a hang is a failure (the alarm is
 * a hang guard, not a speed limit). */
static void test_fifo_and_device(void **state)
{
	struct wlog w;
	char fifo[PATH_MAX];
	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo-binary", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	const char *pts = m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0 ? ptsname(m) : NULL;
	uint64_t a[1] = { 0x10010 }, b[1] = { 0x20010 };
	w_begin(&w);
	w_map(&w, 9, 0x10000, 0x1000, 0, fifo, NULL, 0);
	w_map(&w, 9, 0x20000, 0x1000, 0, pts ? pts : "/dev/ptmx", NULL, 0);
	w_sample(&w, 9, 9, 0, 1, a, 0);
	w_sample(&w, 9, 9, 0, 1, b, 0);
	const char *path = w_end(&w, "fifo.log", 1);
	pid_t c = fork();
	if (c == 0) {
		alarm(120);
		struct profile *p = load(path);
		const struct prof_frame *fr;
		profile__frames(p, smp(p, 0).stack, 0, &fr);
		int ok = strstr(sym_dso__problem(p->f[fr[0].func].dso), "not a regular file") != NULL;
		profile__frames(p, smp(p, 1).stack, 0, &fr);
		ok &= strstr(sym_dso__problem(p->f[fr[0].func].dso), "not a regular file") != NULL;
		profile__free(p);
		_exit(ok ? 0 : 3);
	}
	int st;
	assert_int_equal(waitpid(c, &st, 0), c);
	if (m >= 0)
		close(m);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* A run of unresolved frames is one [unknown] node in call trees (flame
 * graphs, folded stacks); a single one keeps its name. */
static void test_unknown_runs(void **state)
{
	struct wlog w;
	uint64_t ms, off, len, pc = elf_vaddr_of(test_elf_symbols, &ms, &off, &len);
	uint8_t bid[20];
	unsigned bl = tio_buildid(self_exe, bid);
	uint64_t pcs[12];
	(void)state;
	pcs[0] = pc + 4;                          /* leaf: known */
	for (int i = 1; i < 11; i++)
		pcs[i] = 0x1000 + 0x10 * (uint64_t)i;  /* no mapping: [unknown] */
	pcs[11] = pc + 8;                         /* outermost: known */
	w_begin(&w);
	w_map(&w, 12, ms, len, off, self_exe, bid, bl);
	w_sample(&w, 12, 12, 0, 12, pcs, 0);
	pcs[5] = pc + 12;                         /* two runs of 4 and 5 */
	w_sample(&w, 12, 12, 0, 12, pcs, 0);
	struct profile *p = load(w_end(&w, "unk.log", 1));
	struct ctree t;
	struct prof_filter flt = { 0 };
	flt.ev = -1;
	assert_int_equal(tree__build(&t, p, &flt, TREE_CALLER, 0, 0), 0);
	/* all -> test_elf_symbols -> [unknown] -> test_elf_symbols (leaf) and
	 * all -> test_elf_symbols -> [unknown] -> test_elf_symbols -> [unknown] -> leaf */
	int maxd = 0;
	for (size_t i = 1; i < t.nn; i++) {
		int d = 0;
		for (uint32_t k = (uint32_t)i; k != 0; k = t.n[k].parent)
			d++;
		if (d > maxd)
			maxd = d;
		if (profile__func_unresolved(p, t.n[i].func)) {
			assert_string_equal(p->f[t.n[i].func].name, "[unknown]");
			assert_false(profile__func_unresolved(p, t.n[t.n[i].parent].func));
		}
	}
	assert_int_equal(maxd, 5);
	tree__free(&t);
	profile__free(p);
}

/* The same kernel booted again with KASLR: perf's kernel MMAP
 * ("[kernel.kallsyms]_text", pgoff = where _text was) relocates the
 * recording's addresses onto this boot's kallsyms. */
static void test_kernel_kaslr(void **state)
{
	struct wlog w;
	uint8_t bid[20];
	char name[256], tn[256];
	unsigned bl = run_kbid(bid);
	uint64_t ka = ksym_addr(NULL, "read_zero", name, sizeof(name));
	uint64_t text = ksym_addr(NULL, "_text", tn, sizeof(tn));   /* where it is now */
	(void)state;
	if (!bl || !ka || !text)
		skip();
	const uint64_t shift = 0x2a00000;   /* the recording's boot: 42 MB higher */
	uint64_t pcs[1] = { ka + shift + 1 };
	w_begin(&w);
	w_ksymsrc(&w, "", bid, bl);
	w_map(&w, -1, text + shift, 0x1000000, text + shift, "[kernel.kallsyms]_text", bid, bl);
	w_sample(&w, 5, 5, 0, 1, pcs, 2);
	struct profile *p = load(w_end(&w, "kaslr.log", 1));
	const struct prof_frame *fr;
	profile__frames(p, smp(p, 0).stack, 0, &fr);
	assert_string_equal(p->f[fr[0].func].name, name);
	assert_true(p->f[fr[0].func].start == ka + shift);
	profile__free(p);
}

static int setup(void **state)
{
	(void)state;
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	self_exe[n > 0 ? n : 0] = '\0';
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_symbols),
		cmocka_unit_test(test_buildid_mismatch),
		cmocka_unit_test(test_perfmap_and_kernel),
		cmocka_unit_test(test_names_printable),
		cmocka_unit_test(test_func_lookup_as_libdwfl),
		cmocka_unit_test(test_func_lookup_indexed),
		cmocka_unit_test(test_func_stretched),
		cmocka_unit_test(test_plt_irelative),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_demangle_kernel),
		cmocka_unit_test(test_aggregation),
		cmocka_unit_test(test_browse),
		cmocka_unit_test(test_not_a_log),
		cmocka_unit_test(test_603010_libpmc),
		cmocka_unit_test(test_kernel_identity),
		cmocka_unit_test(test_kernel_modules),
		cmocka_unit_test(test_kernel_module_ko),
		cmocka_unit_test(test_user_frame_under_kernel),
		cmocka_unit_test(test_perfmap_anon),
		cmocka_unit_test(test_jitdump),
		cmocka_unit_test(test_jitdump_moves),
		cmocka_unit_test(test_perfmap_link),
		cmocka_unit_test(test_open_regular),
		cmocka_unit_test(test_perfmap_bound),
		cmocka_unit_test(test_fifo_and_device),
		cmocka_unit_test(test_unknown_runs),
		cmocka_unit_test(test_kernel_kaslr),
		cmocka_unit_test(test_offcpu),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
