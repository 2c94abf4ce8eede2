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
#include "profile.h"
#include "report.h"
#include "tree.h"

static char dir[] = "/tmp/test_analysis_XXXXXX";
static char self_exe[PATH_MAX];

/* ---- writing a synthetic log -------------------------------------------- */

struct wlog {
	char *buf;
	size_t len;
	uint64_t t;
};

static void w_put(struct wlog *w)
{
	ta_append(&w->buf, &w->len, w->t++);
}

static void w_begin(struct wlog *w)
{
	struct pmc_logrec_header h = { PMC_VERSION, 1, 1700000000000000000ull, 1000, 0, 0,
	    "0.1.0", "testhost", "6.1.0-test", "Test CPU", "pmc record -- prog" };
	w->buf = malloc(8);
	memcpy(w->buf, PMCLOG_FILE_MAGIC_RAW, 8);
	w->len = 8;
	w->t = 1000;
	assert_int_equal(pmc__logrec_header(&ta_rec, &h), 0);
	w_put(w);
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
	struct pmc_logrec_sample s = { 0x11, pid, tid, (uint32_t)cpu, !kernel_leaf, 100000,
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
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(w->buf, 1, w->len, f), w->len);
	fclose(f);
	free(w->buf);
	return path;
}

static struct profile *load(const char *path)
{
	struct profile *p;
	char err[256];
	struct prof_load_opts o = { 0 };
	o.sym.demangle = 1;
	o.sym.kallsyms = NULL;
	if (profile__load(&p, path, &o, err, sizeof(err)) != 0)
		fail_msg("load %s: %s", path, err);
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

static void t_elf_symbols(void **state)
{
	struct wlog w;
	uint64_t ms, off, len, pc = elf_vaddr_of(t_elf_symbols, &ms, &off, &len);
	uint8_t bid[20];
	unsigned bl = ta_buildid(self_exe, bid);
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
	assert_string_equal(p->s[0].comm, "selftest");
	const struct prof_frame *fr;
	int n = profile__frames(p, p->s[0].stack, 0, &fr);
	assert_int_equal(n, 2);
	assert_string_equal(p->f[fr[0].func].name, "t_elf_symbols");
	assert_string_equal(sym_dso__name(p->f[fr[0].func].dso), "test_analysis");
	assert_null(sym_dso__problem(p->f[fr[0].func].dso));
	/* distinct pcs of one function, one lookup each: 2 locations */
	assert_int_equal(p->nl, 2);
	profile__free(p);
}

static void t_buildid_mismatch(void **state)
{
	struct wlog w;
	uint64_t ms, off, len, pc = elf_vaddr_of(t_buildid_mismatch, &ms, &off, &len);
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
	profile__frames(p, p->s[0].stack, 0, &fr);
	/* not symbolized with the wrong binary, and said why */
	assert_string_equal(p->f[fr[0].func].name, "[unknown]");
	assert_non_null(strstr(sym_dso__problem(p->f[fr[0].func].dso), "build id differs"));
	char *txt;
	size_t tl;
	FILE *f = open_memstream(&txt, &tl);
	struct report_opts o = { 0 };
	o.flt.ev = -1;
	o.flt.t1 = -1;
	o.callgraph = -1;
	report__parse_sort(&o, "comm,dso,sym", NULL, 0);
	report__text(f, p, &o);
	fclose(f);
	assert_non_null(strstr(txt, "build id differs"));
	free(txt);
	profile__free(p);
}

static void t_perfmap_and_kernel(void **state)
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
	char err[256];
	struct prof_load_opts o = { 0 };
	o.sym.demangle = 1;
	o.sym.kallsyms = ks;
	assert_int_equal(profile__load(&p, path, &o, err, sizeof(err)), 0);
	profile__resolve(p);
	const struct prof_frame *fr;
	int n = profile__frames(p, p->s[0].stack, 0, &fr);
	assert_int_equal(n, 2);
	assert_string_equal(p->f[fr[0].func].name, "jitted_hot");
	assert_string_equal(p->f[fr[1].func].name, "ns::foo()");   /* demangled */
	n = profile__frames(p, p->s[1].stack, 0, &fr);
	assert_int_equal(n, 3);
	assert_string_equal(p->f[fr[0].func].name, "do_syscall_64");
	assert_true(p->f[fr[0].func].kernel);
	n = profile__frames(p, p->s[2].stack, 0, &fr);
	assert_string_equal(p->f[fr[0].func].name, "bpf_prog_test");
	profile__free(p);
	unlink(mp);
}

static void t_demangle(void **state)
{
	char buf[256];
	(void)state;
	assert_string_equal(sym__demangle("_ZN2ns3fooEi", buf, sizeof(buf)), "ns::foo(int)");
	/* Rust legacy: the hash is dropped */
	assert_string_equal(sym__demangle("_ZN4core3fmt5write17h0123456789abcdefE", buf, sizeof(buf)),
	    "core::fmt::write");
	assert_string_equal(sym__demangle("main", buf, sizeof(buf)), "main");
}

/* A fork, filters, sort keys, children, trees, PROCEXIT, USERDATA, truncation. */
static void t_aggregation(void **state)
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
	char err[256];
	struct prof_load_opts o = { 0 };
	o.sym.kallsyms = ks;
	assert_int_equal(profile__load(&p, path, &o, err, sizeof(err)), 0);
	assert_non_null(strstr(p->truncated, "CLOSELOG"));
	profile__resolve(p);
	assert_int_equal(p->nev, 1);
	assert_int_equal(p->ev[0].samples, 12);
	assert_int_equal(p->ev[0].lost, 3);
	assert_int_equal(p->nmk, 1);
	assert_int_equal(p->npr, 1);
	assert_int_equal(p->pr[0].exit_value, 123456);
	/* comm by time: the fork inherited "one"; renamed "two" later */
	assert_string_equal(p->s[6].comm, "one");
	assert_string_equal(p->s[11].comm, "two");

	struct report_opts ro = { 0 };
	struct hist h;
	ro.flt.ev = -1;
	ro.flt.t1 = -1;
	ro.callgraph = -1;
	assert_int_equal(report__parse_sort(&ro, "sym", err, sizeof(err)), 0);
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
	assert_int_equal(report__parse_sort(&ro, "comm,pid,cpu", err, sizeof(err)), 0);
	assert_int_equal(report__hist(&h, p, &ro, 0), 0);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.total_n, 2);
	assert_int_equal(h.e[0].pid, 11);
	assert_int_equal(h.e[0].cpu, 1);
	report__hist_free(&h);
	assert_int_equal(report__parse_sort(&ro, "sym,nosuch", err, sizeof(err)), -1);
	assert_string_equal(err, "nosuch");

	/* call tree, caller → callee: kfunc_b → kfunc_b → kfunc_a (6), kfunc_a → kfunc_b (6) */
	struct ctree t;
	struct prof_filter flt = { 0 };
	flt.ev = -1;
	flt.t1 = -1;
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
	assert_int_equal(profile__parse_time(&flt, "x"), -1);
	assert_int_equal(profile__parse_time(&flt, "2,1"), -1);
	profile__free(p);
}

static void t_not_a_log(void **state)
{
	char path[PATH_MAX], err[256];
	struct profile *p;
	(void)state;
	snprintf(path, sizeof(path), "%s/junk", dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "this is not a log at all\n");
	fclose(f);
	assert_int_equal(profile__load(&p, path, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "magic"));
	assert_int_equal(profile__load(&p, "/nonexistent/x.log", NULL, err, sizeof(err)), -1);
}

/* Known answer with libpmc's own sampling API and the 60/30/10 workload. */
static void t_603010_libpmc(void **state)
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
	char err[64];
	ro.flt.ev = -1;
	ro.flt.t1 = -1;
	report__parse_sort(&ro, "sym", err, sizeof(err));
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
		cmocka_unit_test(t_elf_symbols),
		cmocka_unit_test(t_buildid_mismatch),
		cmocka_unit_test(t_perfmap_and_kernel),
		cmocka_unit_test(t_demangle),
		cmocka_unit_test(t_aggregation),
		cmocka_unit_test(t_not_a_log),
		cmocka_unit_test(t_603010_libpmc),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
