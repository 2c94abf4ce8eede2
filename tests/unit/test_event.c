/*
 * test_event.c — the event-spec parser and resolver (lib/event): every kind
 * of event with its perf_event_attr fields asserted, modifiers and hwpmc
 * qualifiers, every error path with its errno and reason, -e list
 * splitting, event names and classes, and sysfs PMUs against both the real
 * /sys and a fake tree (format bit ranges across config words, aliases,
 * .scale/.unit), tracepoints against a fake tracefs and the real one.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "pmc.h"
#include "common/error.h"
#include "common/sysinfo.h"
#include "event/event.h"
#include "toolslib/evlist.h"

#define SOFT(i) ((enum pmc_event)(PMC_EV_SOFT_FIRST + (i)))

static int parse(const char *spec, struct pmc_evspec *ev)
{
	pmc__clear_reason();
	return pmc__event_parse(spec, ev);
}

/* Parse must fail with rc and the reason must contain every given word. */
static void expect_fail(const char *spec, int rc, ...)
{
	struct pmc_evspec ev;
	va_list ap;
	const char *w;
	int got = parse(spec, &ev);

	if (got != rc)
		fail_msg("'%s': expected %d, got %d (reason: %s)", spec, rc, got, pmc_errmsg());
	va_start(ap, rc);
	while ((w = va_arg(ap, const char *)) != NULL)
		if (!strstr(pmc_errmsg(), w))
			fail_msg("'%s': reason '%s' does not mention '%s'", spec, pmc_errmsg(), w);
	va_end(ap);
}

static void ok(const char *spec, struct pmc_evspec *ev)
{
	int rc = parse(spec, ev);
	if (rc != 0)
		fail_msg("'%s' failed: %d (%s)", spec, rc, pmc_errmsg());
}

/* ---- generic hardware ---------------------------------------------- */
static void test_generic(void **state)
{
	static const struct { const char *n; uint64_t cfg; } t[] = {
		{ "cycles", 0 }, { "cpu-cycles", 0 }, { "instructions", 1 },
		{ "cache-references", 2 }, { "cache-misses", 3 }, { "branches", 4 },
		{ "branch-instructions", 4 }, { "branch-misses", 5 }, { "bus-cycles", 6 },
		{ "stalled-cycles-frontend", 7 }, { "idle-cycles-frontend", 7 },
		{ "stalled-cycles-backend", 8 }, { "idle-cycles-backend", 8 }, { "ref-cycles", 9 },
		{ "CYCLES", 0 },
	};
	struct pmc_evspec ev;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ok(t[i].n, &ev);
		assert_int_equal(ev.attr.type, PERF_TYPE_HARDWARE);
		assert_int_equal(ev.attr.config, t[i].cfg);
		assert_int_equal(ev.attr.size, sizeof(struct perf_event_attr));
		assert_int_equal(ev.pclass, PMC_CLASS_GENERIC);
		assert_int_equal(ev.needs_hw_pmu, 1);
		assert_true(ev.caps & PMC_CAP_PRECISE);
		assert_true(ev.caps & PMC_CAP_INTERRUPT);
		assert_true((ev.caps & (PMC_CAP_READ | PMC_CAP_WRITE)) == (PMC_CAP_READ | PMC_CAP_WRITE));
		assert_int_equal(ev.attr.exclude_user | ev.attr.exclude_kernel | ev.attr.exclude_hv, 0);
		assert_int_equal(ev.attr.sample_period, 0);
		assert_true(ev.scale == 1.0);
		assert_string_equal(ev.name, t[i].n);
	}
	ok("  cycles  ", &ev);
	assert_string_equal(ev.name, "cycles");
	assert_string_equal(pmc__event_name_of(ev.event), "cycles");
	ok("branch-instructions", &ev);
	assert_string_equal(pmc__event_name_of(ev.event), "branches");
}

static void test_freebsd_aliases(void **state)
{
	struct pmc_evspec ev;

	ok("branch-mispredicts", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev.attr.config, PERF_COUNT_HW_BRANCH_MISSES);
	ok("unhalted-cycles", &ev);
	assert_int_equal(ev.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	ok("unhalted-core-cycles", &ev);
	assert_int_equal(ev.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	ok("UNHALTED_CORE_CYCLES", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	ok("INSTR_RETIRED_ANY", &ev);
	assert_int_equal(ev.attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	/* FreeBSD's LLC aliases (pmc stat's defaults): LONGEST_LAT_CACHE,
	 * what Linux's generic cache-references / cache-misses count */
	ok("LLC-REFERENCE", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev.attr.config, PERF_COUNT_HW_CACHE_REFERENCES);
	ok("LLC-MISSES", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(ev.attr.config, PERF_COUNT_HW_CACHE_MISSES);
	ok("dc-misses", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_HW_CACHE);
	assert_int_equal(ev.attr.config, 0 | (0 << 8) | (1 << 16));
	assert_int_equal(ev.pclass, PMC_CLASS_CACHE);
	ok("ic-misses", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_HW_CACHE);
	assert_int_equal(ev.attr.config, 1 | (0 << 8) | (1 << 16));
	/* FreeBSD's SOFT- class prefix */
	ok("SOFT-CONTEXT_SWITCHES", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(ev.attr.config, PERF_COUNT_SW_CONTEXT_SWITCHES);
	ok("SOFT-CLOCK.HARD", &ev);
	assert_int_equal(ev.attr.config, PERF_COUNT_SW_CPU_CLOCK);
	ok("SOFT-PAGE_FAULT.ALL", &ev);
	assert_int_equal(ev.attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(ev.pclass, PMC_CLASS_SOFT);
}

/* ---- cache ---------------------------------------------------------------- */
static void test_cache(void **state)
{
	static const struct { const char *n; int t, o, r; } t[] = {
		{ "L1-dcache-load-misses", 0, 0, 1 }, { "L1-dcache-loads", 0, 0, 0 },
		{ "L1-dcache-stores", 0, 1, 0 }, { "L1-dcache-prefetches", 0, 2, 0 },
		{ "L1-icache-loads", 1, 0, 0 }, { "L1-icache-load-misses", 1, 0, 1 },
		{ "LLC-loads", 2, 0, 0 }, { "LLC-store-misses", 2, 1, 1 }, { "LLC-misses", 2, 0, 1 },
		{ "dTLB-load-misses", 3, 0, 1 }, { "dTLB-stores", 3, 1, 0 },
		{ "iTLB-load-misses", 4, 0, 1 }, { "iTLB-loads", 4, 0, 0 },
		{ "branch-loads", 5, 0, 0 }, { "branch-load-misses", 5, 0, 1 },
		{ "node-loads", 6, 0, 0 }, { "node-prefetch-misses", 6, 2, 1 },
		{ "l1d-speculative-read-miss", 0, 2, 1 }, { "L1-data-write-access", 0, 1, 0 },
		{ "llc-load-refs", 2, 0, 0 }, { "LLC-loads-misses", 2, 0, 1 },
	};
	struct pmc_evspec ev;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ok(t[i].n, &ev);
		assert_int_equal(ev.attr.type, PERF_TYPE_HW_CACHE);
		assert_int_equal(ev.attr.config, (uint64_t)t[i].t | ((uint64_t)t[i].o << 8) |
				 ((uint64_t)t[i].r << 16));
		assert_int_equal(ev.pclass, PMC_CLASS_CACHE);
		assert_int_equal(ev.needs_hw_pmu, 1);
	}
	ok("LLC-store-misses", &ev);
	assert_string_equal(pmc__event_name_of(ev.event), "LLC-store-misses");
	ok("llc-load-refs", &ev);
	assert_string_equal(pmc__event_name_of(ev.event), "LLC-loads");

	expect_fail("L1-icache-stores", -EINVAL, "L1-icache", "store", NULL);
	expect_fail("iTLB-prefetches", -EINVAL, "iTLB", "prefetch", NULL);
	expect_fail("LLC-foo", -EINVAL, "foo", NULL);
	expect_fail("LLC-load-misses-extra", -EINVAL, "extra", NULL);
}

/* ---- software -------------------------------------------------------- */
static void test_software(void **state)
{
	static const struct { const char *n; uint64_t cfg; } t[] = {
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK }, { "task-clock", PERF_COUNT_SW_TASK_CLOCK },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS }, { "faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
		{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS },
		{ "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS },
		{ "dummy", PERF_COUNT_SW_DUMMY }, { "bpf-output", PERF_COUNT_SW_BPF_OUTPUT },
	};
	struct pmc_evspec ev;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ok(t[i].n, &ev);
		assert_int_equal(ev.attr.type, PERF_TYPE_SOFTWARE);
		assert_int_equal(ev.attr.config, t[i].cfg);
		assert_int_equal(ev.pclass, PMC_CLASS_SOFT);
		assert_int_equal(ev.needs_hw_pmu, 0);
		assert_string_equal(ev.pmu, "software");
		assert_false(ev.caps & PMC_CAP_PRECISE);
		assert_true(ev.caps & PMC_CAP_INTERRUPT);
		assert_true(ev.event >= PMC_EV_SOFT_FIRST && ev.event <= PMC_EV_SOFT_LAST);
	}
	ok("cs", &ev);
	assert_string_equal(pmc__event_name_of(ev.event), "context-switches");
}

/* ---- raw ------------------------------------------------------------------ */
static void test_raw(void **state)
{
	struct pmc_evspec ev;

	ok("r1a8", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_RAW);
	assert_int_equal(ev.attr.config, 0x1a8);
	assert_int_equal(ev.pclass, PMC_CLASS_RAW);
	assert_int_equal(ev.needs_hw_pmu, 1);
	ok("rFFFFFFFFFFFFFFFF:u", &ev);
	assert_true(ev.attr.config == ~0ULL);
	assert_int_equal(ev.attr.exclude_kernel, 1);
	expect_fail("r12345678901234567", -ENOENT, "r12345678901234567", NULL);
	expect_fail("rxyz", -ENOENT, "rxyz", NULL);
}

/* ---- modifiers and qualifiers ----------------------------------------- */
static void test_modifiers(void **state)
{
	static const struct { const char *s; int eu, ek, eh, p; } t[] = {
		{ "cycles:u", 0, 1, 1, 0 }, { "cycles:k", 1, 0, 1, 0 }, { "cycles:h", 1, 1, 0, 0 },
		{ "cycles:uk", 0, 0, 1, 0 }, { "cycles:ku", 0, 0, 1, 0 }, { "cycles:ukh", 0, 0, 0, 0 },
		{ "cycles:p", 0, 0, 0, 1 }, { "cycles:pp", 0, 0, 0, 2 }, { "cycles:ppp", 0, 0, 0, 3 },
		{ "cycles:up", 0, 1, 1, 1 }, { "instructions:kpp", 1, 0, 1, 2 },
		{ "cpu-clock:u", 0, 1, 1, 0 }, { "page-faults:k", 1, 0, 1, 0 },
		{ "L1-dcache-load-misses:u", 0, 1, 1, 0 },
		{ "instructions,usr", 0, 1, 1, 0 }, { "instructions,os", 1, 0, 1, 0 },
		{ "instructions,usr,os", 0, 0, 0, 0 }, { "instructions,os,usr", 0, 0, 0, 0 },
		{ "cycles:u,os", 1, 0, 1, 0 }, { "instructions, usr", 0, 1, 1, 0 },
		{ "INST_RETIRED:u", 0, 1, 1, 0 },
	};
	struct pmc_evspec ev;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ok(t[i].s, &ev);
		if ((int)ev.attr.exclude_user != t[i].eu || (int)ev.attr.exclude_kernel != t[i].ek ||
		    (int)ev.attr.exclude_hv != t[i].eh || (int)ev.attr.precise_ip != t[i].p)
			fail_msg("'%s': eu=%d ek=%d eh=%d p=%d", t[i].s, ev.attr.exclude_user,
				 ev.attr.exclude_kernel, ev.attr.exclude_hv, ev.attr.precise_ip);
	}
	ok("instructions,usr", &ev);
	assert_string_equal(ev.name, "instructions,usr");
	assert_int_equal(ev.attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	ok("cycles:GI", &ev);
	assert_int_equal(ev.attr.exclude_host, 1);
	assert_int_equal(ev.attr.exclude_idle, 1);
	ok("cycles:HD", &ev);
	assert_int_equal(ev.attr.exclude_guest, 1);
	assert_int_equal(ev.attr.pinned, 1);

	expect_fail("cycles:pppp", -EINVAL, "pppp", "precise", NULL);
	expect_fail("cycles:x", -EINVAL, "x", "modifier", NULL);
	expect_fail("cycles:uz", -EINVAL, "uz", NULL);
	expect_fail("cpu-clock:p", -EINVAL, "cpu-clock", "precise", NULL);
	expect_fail("cycles:", -EINVAL, "cycles:", NULL);
	expect_fail(":u", -EINVAL, ":u", NULL);
	expect_fail("instructions,foo", -EINVAL, "foo", "usr", NULL);
	expect_fail("instructions,", -EINVAL, "instructions", NULL);
	expect_fail("instructions,usr,,os", -EINVAL, "instructions", NULL);
	expect_fail(",usr", -EINVAL, ",usr", NULL);
}

/* ---- ARMv8 ------------------------------------------------------------- */
static void test_armv8(void **state)
{
	static const struct { const char *n; unsigned num; } t[] = {
		{ "SW_INCR", 0x00 }, { "L1I_CACHE_REFILL", 0x01 }, { "L1D_CACHE_REFILL", 0x03 },
		{ "INST_RETIRED", 0x08 }, { "EXC_RETURN", 0x0A }, { "BR_MIS_PRED", 0x10 },
		{ "CPU_CYCLES", 0x11 }, { "cpu_cycles", 0x11 }, { "armv8-cpu_cycles", 0x11 },
		{ "ARMV8-CPU-CYCLES", 0x11 }, { "L1D CACHE REFILL", 0x03 }, { "l1d.cache", 0x04 },
		{ "BUS_CYCLES", 0x1D }, { "CHAIN", 0x1E }, { "BR_RETIRED", 0x21 },
		{ "BR_MIS_PRED_RETIRED", 0x22 }, { "STALL_FRONTEND", 0x23 }, { "STALL_BACKEND", 0x24 },
		{ "STALL_SLOT", 0x3F }, { "EVENT_11H", 0x11 }, { "event_3fh", 0x3F },
		{ "armv8-EVENT_08H", 0x08 }, { "EVENT_FFH", 0xFF }, { "L1D_CACHE_RD", 0x40 },
	};
	struct pmc_evspec ev;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ok(t[i].n, &ev);
		assert_int_equal(ev.attr.type, PERF_TYPE_RAW);
		assert_int_equal(ev.attr.config, t[i].num);
		assert_int_equal(ev.pclass, PMC_CLASS_ARMV8);
		assert_int_equal(ev.event, PMC_EV_ARMV8_EVENT_00H + t[i].num);
		assert_int_equal(ev.needs_hw_pmu, 1);
	}
	ok("CPU_CYCLES", &ev);
	assert_string_equal(pmc__event_name_of(ev.event), "EVENT_11H");
	ok("INST_RETIRED:k", &ev);
	assert_int_equal(ev.attr.exclude_user, 1);
	assert_int_equal(ev.attr.config, 8);
	expect_fail("armv8-nope", -ENOENT, "armv8-nope", NULL);
	expect_fail("EVENT_1GH", -ENOENT, "EVENT_1GH", NULL);
}

/* ---- vendor / unknown ----------------------------------------------------- */
static void test_vendor_without_pmu(void **state)
{
	if (pmc__sys_has_hw_pmu())
		skip();   /* this machine has a core PMU: libpfm4 would resolve them */
	expect_fail("INST_RETIRED.ANY", -ENOENT, "no hardware PMU", "INST_RETIRED.ANY", NULL);
	expect_fail("amd64_fam19h_zen3::RETIRED_INSTRUCTIONS", -ENOENT, "no hardware PMU",
		    "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS", NULL);
}

static void test_unknown(void **state)
{
	expect_fail("cylces", -ENOENT, "unknown event 'cylces'", "did you mean 'cycles'", NULL);
	expect_fail("instrucions", -ENOENT, "'instrucions'", "did you mean 'instructions'", NULL);
	expect_fail("cpu-clok", -ENOENT, "did you mean 'cpu-clock'", NULL);
	expect_fail("zzzzqqq", -ENOENT, "unknown event 'zzzzqqq'", NULL);
	/* not a tracepoint "cycles:u": the modifiers are blamed */
	expect_fail("cycles:u:k", -EINVAL, "give them in one group ('cycles:uk')", NULL);
	expect_fail("cpu-clock:u:k", -EINVAL, "one group ('cpu-clock:uk')", NULL);
	expect_fail("nosuchsys:u:k", -ENOENT, "tracepoint", NULL);
	expect_fail("", -EINVAL, "empty", NULL);
	expect_fail("   ", -EINVAL, "empty", NULL);
	expect_fail(NULL, -EINVAL, NULL);
	expect_fail("{cycles,instructions}", -EINVAL, "group", NULL);
	char big[300];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	expect_fail(big, -EINVAL, "too long", NULL);
}

/* ---- split ---------------------------------------------------------------- */
static void expect_split(const char *list, int n, ...)
{
	char **v;
	int cnt, rc;
	va_list ap;

	pmc__clear_reason();
	rc = evlist__split(list, &v, &cnt);
	if (rc)
		fail_msg("split '%s': %d (%s)", list, rc, pmc_errmsg());
	assert_int_equal(cnt, n);
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(v[i], va_arg(ap, const char *));
	va_end(ap);
	evlist__free(v, cnt);
}

static void split_fails(const char *list, const char *word)
{
	char **v = (char **)1;
	int cnt = 7;

	pmc__clear_reason();
	assert_int_equal(evlist__split(list, &v, &cnt), -EINVAL);
	assert_null(v);
	assert_int_equal(cnt, 0);
	if (word && !strstr(pmc_errmsg(), word))
		fail_msg("split '%s': reason '%s' lacks '%s'", list, pmc_errmsg(), word);
}

static void test_split(void **state)
{
	expect_split("cycles", 1, "cycles");
	expect_split("cycles,instructions", 2, "cycles", "instructions");
	expect_split("instructions,usr,cycles", 2, "instructions,usr", "cycles");
	expect_split("instructions,usr,os", 1, "instructions,usr,os");
	expect_split("a,os,b,usr", 2, "a,os", "b,usr");
	expect_split("cpu/event=1,umask=2/,cycles", 2, "cpu/event=1,umask=2/", "cycles");
	expect_split("cpu/event=1,umask=2/u,msr/tsc/", 2, "cpu/event=1,umask=2/u", "msr/tsc/");
	expect_split("{cycles,instructions},cpu-clock", 2, "{cycles,instructions}", "cpu-clock");
	expect_split("{cpu/event=1,umask=2/,cycles}", 1, "{cpu/event=1,umask=2/,cycles}");
	expect_split(" cycles , instructions ", 2, "cycles", "instructions");
	expect_split("sched:sched_switch,cycles:u", 2, "sched:sched_switch", "cycles:u");
	split_fails(",cycles", "leading");
	split_fails("cycles,", "trailing");
	split_fails("cycles,,instructions", "empty");
	split_fails("", "empty");
	split_fails("usr,cycles", "usr");
	split_fails("{cycles,instructions", "{");
	split_fails("cycles}", "}");
	split_fails("cpu/event=1,cycles", "/");
	char **v;
	int n;
	assert_int_equal(evlist__split(NULL, &v, &n), -EINVAL);
	/* each split item parses */
	expect_split("instructions,usr,cpu-clock:u", 2, "instructions,usr", "cpu-clock:u");
}

/* ---- names --------------------------------------------------------------- */
static void test_names_of_class(void **state)
{
	const char **names;
	int n;
	struct pmc_evspec ev;

	assert_int_equal(pmc__event_names_of_class(PMC_CLASS_SOFT, &names, &n), 0);
	assert_true(n >= 15);
	/* FreeBSD's SOFT names first (PAGE_FAULT.READ/WRITE: not countable here) */
	assert_string_equal(names[0], "CLOCK.HARD");
	assert_string_equal(names[3], "PAGE_FAULT.ALL");
	for (int i = 0; i < n; i++) {
		ok(names[i], &ev);
		assert_int_equal(ev.pclass, PMC_CLASS_SOFT);
		assert_string_equal(pmc__event_name_of(ev.event), names[i]);
	}
	free(names);

	assert_int_equal(pmc__event_names_of_class(PMC_CLASS_GENERIC, &names, &n), 0);
	assert_int_equal(n, 10);
	for (int i = 0; i < n; i++) {
		ok(names[i], &ev);
		assert_int_equal(ev.attr.type, PERF_TYPE_HARDWARE);
		assert_int_equal(ev.event, SOFT(i));
		assert_string_equal(pmc__event_name_of(ev.event), names[i]);
	}
	free(names);

	assert_int_equal(pmc__event_names_of_class(PMC_CLASS_CACHE, &names, &n), 0);
	assert_int_equal(n, 32);   /* perf's valid cache x op x result combinations */
	for (int i = 0; i < n; i++) {
		ok(names[i], &ev);
		assert_int_equal(ev.attr.type, PERF_TYPE_HW_CACHE);
		assert_string_equal(pmc__event_name_of(ev.event), names[i]);
	}
	free(names);

	assert_int_equal(pmc__event_names_of_class(PMC_CLASS_ARMV8, &names, &n), 0);
	assert_int_equal(n, 256);
	assert_string_equal(names[0x11], "EVENT_11H");
	assert_string_equal(names[0xFF], "EVENT_FFH");
	free(names);

	assert_int_equal(pmc__event_names_of_class(PMC_CLASS_TSC, &names, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "TSC");
	free(names);

	/* classes the machine names: a list (maybe empty), never EINVAL */
	assert_int_equal(pmc__event_names_of_class(PMC_CLASS_RAW, &names, &n), 0);
	free(names);
	assert_int_equal(pmc__event_names_of_class(PMC_CLASS_TRACEPOINT, &names, &n), 0);
	free(names);
	assert_int_equal(pmc__event_names_of_class(PMC_CLASS_POWER8, &names, &n), -EINVAL);
}

static void test_name_of(void **state)
{
	assert_string_equal(pmc__event_name_of(PMC_EV_TSC_TSC), "TSC");
	assert_string_equal(pmc__event_name_of(PMC_EV_IAF_INSTR_RETIRED_ANY), "INSTR_RETIRED_ANY");
	assert_string_equal(pmc__event_name_of(PMC_EV_ARMV8_EVENT_00H), "EVENT_00H");
	assert_string_equal(pmc__event_name_of(SOFT(0)), "cycles");
	assert_string_equal(pmc__event_name_of(SOFT(16)), "cpu-clock");
	assert_null(pmc__event_name_of((enum pmc_event)0));
	assert_null(pmc__event_name_of(SOFT(100)));
	assert_null(pmc__event_name_of(SOFT(0xFFF)));
	assert_null(pmc__event_name_of((enum pmc_event)(PMC_EV_SOFT_LAST + 1)));
}

/* ---- catalogue -------------------------------------------------------- */
struct cat_count { int n; int unparsable; char first_bad[128]; const char *find; int found; };

static int count_cb(const struct pmc_evinfo *ei, void *arg)
{
	struct cat_count *c = arg;
	struct pmc_evspec ev;

	c->n++;
	assert_non_null(ei->desc);
	assert_non_null(ei->unit);
	if (c->find && !strcmp(ei->name, c->find))
		c->found++;
	if (strcmp(ei->category, "raw") && strcmp(ei->category, "libpfm4") &&
	    parse(ei->name, &ev) != 0) {
		if (!c->unparsable++)
			snprintf(c->first_bad, sizeof(c->first_bad), "%s", ei->name);
	}
	return 0;
}

static int stop_cb(const struct pmc_evinfo *ei, void *arg)
{
	(*(int *)arg)++;
	return 42;
}

static void test_foreach(void **state)
{
	struct cat_count c;
	int calls = 0;

	memset(&c, 0, sizeof(c));
	c.find = "cycles";
	assert_int_equal(pmc__event_foreach("hardware", count_cb, &c), 0);
	assert_int_equal(c.n, 10);
	assert_int_equal(c.found, 1);
	assert_int_equal(c.unparsable, 0);

	memset(&c, 0, sizeof(c));
	assert_int_equal(pmc__event_foreach("software", count_cb, &c), 0);
	assert_true(c.n >= 11);
	assert_int_equal(c.unparsable, 0);

	memset(&c, 0, sizeof(c));
	c.find = "L1-dcache-load-misses";
	assert_int_equal(pmc__event_foreach("cache", count_cb, &c), 0);
	assert_int_equal(c.n, 32);
	assert_int_equal(c.found, 1);
	assert_int_equal(c.unparsable, 0);

	memset(&c, 0, sizeof(c));
	c.find = "CPU_CYCLES";
	assert_int_equal(pmc__event_foreach("armv8", count_cb, &c), 0);
	assert_true(c.n >= 64);
	assert_int_equal(c.found, 1);
	if (c.unparsable)
		fail_msg("armv8 entry '%s' does not parse", c.first_bad);

	assert_int_equal(pmc__event_foreach(NULL, stop_cb, &calls), 42);
	assert_int_equal(calls, 1);
	assert_int_equal(pmc__event_foreach("nonsense", stop_cb, &calls), 0);
	assert_int_equal(calls, 1);
}

/* ---- real sysfs -------------------------------------------------------- */
static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%li", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static void test_real_msr(void **state)
{
	struct pmc_evspec ev;
	long type = read_long("/sys/bus/event_source/devices/msr/type");

	pmc__sys_set_sysfs_root(NULL);
	if (type < 0 || access("/sys/bus/event_source/devices/msr/events/tsc", R_OK))
		skip();   /* no msr PMU (not x86, or msr driver absent) */
	ok("msr/tsc/", &ev);
	assert_int_equal(ev.attr.type, type);
	assert_int_equal(ev.attr.config, 0);
	assert_int_equal(ev.pclass, PMC_CLASS_TSC);
	assert_int_equal(ev.event, PMC_EV_TSC_TSC);
	assert_int_equal(ev.needs_hw_pmu, 0);
	assert_string_equal(ev.pmu, "msr");
	assert_false(ev.caps & PMC_CAP_INTERRUPT);
	ok("tsc", &ev);
	assert_int_equal(ev.attr.type, type);
	assert_int_equal(ev.pclass, PMC_CLASS_TSC);
	ok("msr/event=0x0/", &ev);
	assert_int_equal(ev.attr.type, type);
	assert_int_equal(ev.pclass, PMC_CLASS_PMU);
	expect_fail("msr/tsc/u", -EINVAL, "msr/tsc/", "user and kernel", NULL);
	expect_fail("msr/tsc/,usr", -EINVAL, "usr", NULL);
	expect_fail("msr/umsk=1/", -EINVAL, "umsk", "msr", "event", NULL);
	expect_fail("msr/nope/", -ENOENT, "nope", "msr", NULL);
	expect_fail("foo/bar/", -ENOENT, "PMU 'foo' not found under /sys/bus/event_source/devices", NULL);
	expect_fail("msr/tsc", -EINVAL, "closing '/'", NULL);
	expect_fail("msr//", -EINVAL, "msr", NULL);
	expect_fail("/tsc/", -EINVAL, "PMU name", NULL);
	expect_fail("msr/tsc/x/", -EINVAL, "too many", NULL);
}

static void test_real_uprobe_config(void **state)
{
	struct pmc_evspec ev;
	long type = read_long("/sys/bus/event_source/devices/software/type");

	pmc__sys_set_sysfs_root(NULL);
	if (type < 0)
		skip();
	ok("software/config=0x3/", &ev);
	assert_int_equal(ev.attr.type, type);
	assert_int_equal(ev.attr.config, 3);
	assert_int_equal(ev.pclass, PMC_CLASS_PMU);
	expect_fail("software/config/", -EINVAL, "config", NULL);
}

/* ---- fake sysfs -------------------------------------------------------- */
static char fake_root[256];

static void put(const char *rel, const char *text)
{
	char path[512], dir[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	/* mkdir -p of the directory part */
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(fake_root) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#define D "bus/event_source/devices/"

static int fake_setup(void **state)
{
	snprintf(fake_root, sizeof(fake_root), "/tmp/pmc-test-event-XXXXXX");
	if (!mkdtemp(fake_root))
		return -1;
	put(D "cpu/type", "4\n");
	put(D "cpu/format/event", "config:0-7\n");
	put(D "cpu/format/umask", "config:8-15\n");
	put(D "cpu/format/edge", "config:18\n");
	put(D "cpu/format/inv", "config:23\n");
	put(D "cpu/format/cmask", "config:24-31\n");
	put(D "cpu/format/split", "config:32-35,40-43\n");
	put(D "cpu/format/ldlat", "config1:0-15\n");
	put(D "cpu/format/frontend", "config2:0-23\n");
	put(D "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n");
	put(D "cpu/events/needs-param", "event=0xd0,umask=?\n");
	put(D "power/type", "23\n");
	put(D "power/format/event", "config:0-7\n");
	put(D "power/events/energy-pkg", "event=0x02\n");
	put(D "power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
	put(D "power/events/energy-pkg.unit", "Joules\n");
	put(D "msr/type", "9\n");
	put(D "msr/format/event", "config:0-63\n");
	put(D "msr/events/tsc", "event=0x00\n");
	put(D "bad/type", "30\n");
	put(D "bad/format/x", "config:7-3\n");
	put(D "weird/type", "31\n");
	put(D "weird/format/y", "config3:0-7\n");
	pmc__sys_set_sysfs_root(fake_root);
	return 0;
}

static int fake_teardown(void **state)
{
	char cmd[300];

	pmc__sys_set_sysfs_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_fake_core_pmu(void **state)
{
	struct pmc_evspec ev;

	assert_int_equal(pmc__sys_has_hw_pmu(), 1);
	ok("cpu/event=0x3c,umask=0x1/", &ev);
	assert_int_equal(ev.attr.type, 4);
	assert_int_equal(ev.attr.config, 0x013c);
	assert_int_equal(ev.pclass, PMC_CLASS_RAW);
	assert_int_equal(ev.needs_hw_pmu, 1);
	assert_string_equal(ev.pmu, "cpu");
	assert_true(ev.caps & PMC_CAP_EDGE);
	assert_true(ev.caps & PMC_CAP_INVERT);
	assert_true(ev.caps & PMC_CAP_THRESHOLD);
	assert_true(ev.caps & PMC_CAP_PRECISE);

	/* a field split across two bit ranges: low nibble -> 32-35, next -> 40-43 */
	ok("cpu/split=0xab/", &ev);
	assert_true(ev.attr.config == ((0xbULL << 32) | (0xaULL << 40)));
	/* fields in config1 and config2 */
	ok("cpu/ldlat=3,event=1/", &ev);
	assert_int_equal(ev.attr.config1, 3);
	assert_int_equal(ev.attr.config, 1);
	ok("cpu/frontend=0x123/", &ev);
	assert_int_equal(ev.attr.config2, 0x123);
	assert_int_equal(ev.attr.config, 0);
	/* a bare flag field is 1 */
	ok("cpu/edge,event=1/", &ev);
	assert_true(ev.attr.config == ((1ULL << 18) | 1));
	ok("cpu/cmask=0xff,inv/", &ev);
	assert_true(ev.attr.config == ((0xffULL << 24) | (1ULL << 23)));
	/* direct config words */
	ok("cpu/config=0x1234,config1=5,config2=6/", &ev);
	assert_int_equal(ev.attr.config, 0x1234);
	assert_int_equal(ev.attr.config1, 5);
	assert_int_equal(ev.attr.config2, 6);
	/* an alias, then a field overriding one of its terms */
	ok("cpu/mem-loads/", &ev);
	assert_int_equal(ev.attr.config, 0x1cd);
	assert_int_equal(ev.attr.config1, 3);
	ok("cpu/mem-loads,ldlat=7/", &ev);
	assert_int_equal(ev.attr.config1, 7);
	ok("cpu/needs-param,umask=2/", &ev);
	assert_int_equal(ev.attr.config, 0x2d0);
	/* modifiers after the slash */
	ok("cpu/event=0x3c/pp", &ev);
	assert_int_equal(ev.attr.precise_ip, 2);
	ok("cpu/event=0x3c/:u", &ev);
	assert_int_equal(ev.attr.exclude_kernel, 1);
	assert_int_equal(ev.attr.exclude_user, 0);
	ok("cpu/event=0x3c/,usr", &ev);
	assert_int_equal(ev.attr.exclude_kernel, 1);
	assert_string_equal(ev.name, "cpu/event=0x3c/,usr");

	expect_fail("cpu/event=0x100/", -EINVAL, "0x100", "event", "8 bits", NULL);
	expect_fail("cpu/split=0x100/", -EINVAL, "split", NULL);
	expect_fail("cpu/needs-param/", -EINVAL, "umask", "needs-param", NULL);
	expect_fail("cpu/umsk=1/", -EINVAL, "format field 'umsk' not known to PMU 'cpu'",
		    "known:", "event", "umask", "ldlat", NULL);
	expect_fail("cpu/event=zz/", -EINVAL, "zz", NULL);
	expect_fail("cpu/period=1000/", -EINVAL, "period", NULL);
	expect_fail("cpu/event=1,,umask=1/", -EINVAL, "empty", NULL);
	expect_fail("cpu/event=1/q", -EINVAL, "q", NULL);
	expect_fail("cpu/mem-loads,needs-param/", -EINVAL, "mem-loads", "needs-param", NULL);
	expect_fail("cpu/nosuch/", -ENOENT, "nosuch", NULL);
	expect_fail("bad/x=1/", -EINVAL, "config:7-3", "bad", NULL);
	expect_fail("weird/y=1/", -EINVAL, "config3", NULL);
}

static void test_fake_scale_unit(void **state)
{
	struct pmc_evspec ev;

	ok("power/energy-pkg/", &ev);
	assert_int_equal(ev.attr.type, 23);
	assert_int_equal(ev.attr.config, 2);
	assert_int_equal(ev.pclass, PMC_CLASS_PMU);
	assert_int_equal(ev.needs_hw_pmu, 0);
	assert_string_equal(ev.unit, "Joules");
	assert_true(ev.scale > 2.328e-10 && ev.scale < 2.329e-10);
	assert_string_equal(ev.pmu, "power");
	assert_string_equal(pmc__event_name_of(ev.event), "power/energy-pkg/");
	/* a bare alias is found under whichever PMU has it */
	ok("energy-pkg", &ev);
	assert_int_equal(ev.attr.type, 23);
	assert_string_equal(ev.unit, "Joules");
	ok("power/event=2/", &ev);
	assert_string_equal(ev.unit, "");
	assert_true(ev.scale == 1.0);
	ok("tsc", &ev);
	assert_int_equal(ev.attr.type, 9);
	assert_int_equal(ev.pclass, PMC_CLASS_TSC);
	ok("TSC-TSC", &ev);
	assert_int_equal(ev.pclass, PMC_CLASS_TSC);
}

static int find_cb(const struct pmc_evinfo *ei, void *arg)
{
	struct cat_count *c = arg;
	c->n++;
	if (!strcmp(ei->name, "power/energy-pkg/")) {
		c->found++;
		assert_string_equal(ei->unit, "Joules");
		assert_string_equal(ei->category, "pmu");
	}
	if (strstr(ei->name, ".scale") || strstr(ei->name, ".unit"))
		c->unparsable++;
	return 0;
}

static void test_fake_foreach(void **state)
{
	struct cat_count c;

	memset(&c, 0, sizeof(c));
	assert_int_equal(pmc__event_foreach("pmu", find_cb, &c), 0);
	assert_int_equal(c.found, 1);
	assert_int_equal(c.n, 4);   /* cpu/mem-loads, cpu/needs-param, power/energy-pkg, msr/tsc */
	assert_int_equal(c.unparsable, 0);
}

static void test_no_core_pmu(void **state)
{
	char empty[300];
	char path[400];

	snprintf(empty, sizeof(empty), "%s/empty", fake_root);
	mkdir(empty, 0755);
	snprintf(path, sizeof(path), "%s/bus", empty);
	mkdir(path, 0755);
	pmc__sys_set_sysfs_root(empty);
	assert_int_equal(pmc__sys_has_hw_pmu(), 0);
	expect_fail("INST_RETIRED.ANY", -ENOENT, "no hardware PMU", "INST_RETIRED.ANY", NULL);
	expect_fail("msr/tsc/", -ENOENT, "PMU 'msr' not found", NULL);
	expect_fail("cpu/event=1/", -ENOENT, "PMU 'cpu' not found", "no hardware PMU", NULL);
	expect_fail("SOFT-FOO", -ENOENT, "software event 'SOFT-FOO'", NULL);
	/* generic hardware events still parse: the backend decides */
	struct pmc_evspec ev;
	ok("cycles", &ev);
	assert_int_equal(ev.needs_hw_pmu, 1);
	pmc__sys_set_sysfs_root(fake_root);
}

/* ---- tracepoints --------------------------------------------------------- */
static void test_fake_tracefs(void **state)
{
	char dir[300];
	struct pmc_evspec ev;

	put("tracing/events/sched/sched_switch/id", "316\n");
	put("tracing/events/sched/sched_switch/enable", "0\n");
	put("tracing/events/irq/softirq_entry/id", "42\n");
	put("tracing/events/enable", "0\n");
	snprintf(dir, sizeof(dir), "%s/tracing", fake_root);
	pmc__event_set_tracefs_root(dir);

	ok("sched:sched_switch", &ev);
	assert_int_equal(ev.attr.type, PERF_TYPE_TRACEPOINT);
	assert_int_equal(ev.attr.config, 316);
	assert_int_equal(ev.pclass, PMC_CLASS_TRACEPOINT);
	assert_string_equal(ev.pmu, "tracepoint");
	assert_int_equal(ev.needs_hw_pmu, 0);
	assert_string_equal(pmc__event_name_of(ev.event), "sched:sched_switch");
	ok("irq:softirq_entry", &ev);
	assert_int_equal(ev.attr.config, 42);
	ok("sched:sched_switch:k", &ev);
	assert_int_equal(ev.attr.config, 316);
	assert_int_equal(ev.attr.exclude_user, 1);
	expect_fail("sched:nope", -ENOENT, "tracepoint 'sched:nope' not found", NULL);
	expect_fail("nosys:foo", -ENOENT, "nosys:foo", NULL);
	expect_fail("sched:sched_switch:x", -EINVAL, "x", NULL);
	expect_fail("sched:.x", -EINVAL, "sched:.x", NULL);
	expect_fail("sched:sched_*", -EINVAL, "wildcards", "sched:sched_*", NULL);

	struct cat_count c;
	memset(&c, 0, sizeof(c));
	c.find = "irq:softirq_entry";
	assert_int_equal(pmc__event_foreach("tracepoint", count_cb, &c), 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.found, 1);
	assert_int_equal(c.unparsable, 0);

	/* an override without events/ says so */
	pmc__event_set_tracefs_root(fake_root);
	expect_fail("sched:sched_switch", -ENOENT, "events/", NULL);
	pmc__event_set_tracefs_root(NULL);
}

static void test_real_tracepoint(void **state)
{
	struct pmc_evspec ev;
	const char *dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[300];
	long id = -1;
	int rc;

	pmc__sys_set_sysfs_root(NULL);
	pmc__event_set_tracefs_root(NULL);
	rc = parse("sched:sched_switch", &ev);
	if (rc == -ENOENT && strstr(pmc_errmsg(), "tracefs"))
		skip();   /* tracefs not mounted and not mountable here */
	assert_int_equal(rc, 0);
	for (int i = 0; i < 2 && id < 0; i++) {
		snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", dirs[i]);
		id = read_long(path);
	}
	assert_true(id > 0);
	assert_int_equal(ev.attr.type, PERF_TYPE_TRACEPOINT);
	assert_int_equal(ev.attr.config, id);
	expect_fail("sched:nope", -ENOENT, "tracepoint 'sched:nope' not found", NULL);
	expect_fail("nosuchsubsys:foo", -ENOENT, "nosuchsubsys", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic),
		cmocka_unit_test(test_freebsd_aliases),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_software),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_armv8),
		cmocka_unit_test(test_vendor_without_pmu),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_names_of_class),
		cmocka_unit_test(test_name_of),
		cmocka_unit_test(test_foreach),
		cmocka_unit_test(test_real_msr),
		cmocka_unit_test(test_real_uprobe_config),
		cmocka_unit_test(test_real_tracepoint),
	};
	const struct CMUnitTest fake[] = {
		cmocka_unit_test(test_fake_core_pmu),
		cmocka_unit_test(test_fake_scale_unit),
		cmocka_unit_test(test_fake_foreach),
		cmocka_unit_test(test_no_core_pmu),
		cmocka_unit_test(test_fake_tracefs),
	};
	int rc = cmocka_run_group_tests_name("event", tests, NULL, NULL);
	rc += cmocka_run_group_tests_name("event-fake-sysfs", fake, fake_setup, fake_teardown);
	return rc;
}
