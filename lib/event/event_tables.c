/*
 * event_tables.c — the events whose meaning is fixed by an ABI rather than
 * found on the machine: perf's generic hardware, software and hardware-cache
 * events (with perf's names and aliases), FreeBSD's generic aliases and
 * SOFT- names, and the ARMv8 PMUv3 common event numbers.  Also the "did you
 * mean" search over all of them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/armv8.h"
#include "event/event_impl.h"

void ev__norm(const char *in, char *out, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	for (; *in && o + 1 < len; in++) {
		unsigned char c = (unsigned char)*in;
		if (c == ' ' || c == '.' || c == '_' || c == '-')
			out[o++] = '-';
		else
			out[o++] = (char)tolower(c);
	}
	out[o] = '\0';
}

static int norm_eq(const char *a, const char *b)
{
	char na[192], nb[192];

	ev__norm(a, na, sizeof(na));
	ev__norm(b, nb, sizeof(nb));
	return strcmp(na, nb) == 0;
}

/* Does word (case-insensitive) appear in the space-separated list? */
static int in_list(const char *list, const char *word, int normalized)
{
	char buf[64];

	while (list && *list) {
		size_t n = strcspn(list, " ");
		if (n < sizeof(buf)) {
			memcpy(buf, list, n);
			buf[n] = '\0';
			if (normalized ? norm_eq(buf, word) : strcasecmp(buf, word) == 0)
				return 1;
		}
		list += n;
		while (*list == ' ')
			list++;
	}
	return 0;
}

void ev__set_hw_caps(struct pmc_evspec *out)
{
	out->caps = PMC_CAP_READ | PMC_CAP_WRITE | PMC_CAP_INTERRUPT |
		    PMC_CAP_USER | PMC_CAP_SYSTEM | PMC_CAP_PRECISE;
	out->needs_hw_pmu = 1;
	snprintf(out->pmu, sizeof(out->pmu), "%s", pmc__sys_core_pmu() ? pmc__sys_core_pmu() : "cpu");
}

/* ---- generic hardware ---------------------------------------------------- */
const struct ev_static ev__generic[] = {
	{ "cycles", "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES, "CPU cycles" },
	{ "instructions", NULL, PERF_COUNT_HW_INSTRUCTIONS, "Instructions retired" },
	{ "cache-references", NULL, PERF_COUNT_HW_CACHE_REFERENCES,
	  "Cache accesses (usually the last-level cache)" },
	{ "cache-misses", NULL, PERF_COUNT_HW_CACHE_MISSES,
	  "Cache misses (usually the last-level cache)" },
	{ "branches", "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  "Branch instructions retired" },
	{ "branch-misses", NULL, PERF_COUNT_HW_BRANCH_MISSES, "Mispredicted branches" },
	{ "bus-cycles", NULL, PERF_COUNT_HW_BUS_CYCLES, "Bus cycles" },
	{ "stalled-cycles-frontend", "idle-cycles-frontend",
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "Cycles stalled in instruction fetch/decode" },
	{ "stalled-cycles-backend", "idle-cycles-backend",
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "Cycles stalled in execution/retirement" },
	{ "ref-cycles", NULL, PERF_COUNT_HW_REF_CPU_CYCLES,
	  "Reference cycles (not affected by frequency scaling)" },
};
const int ev__ngeneric = (int)(sizeof(ev__generic) / sizeof(ev__generic[0]));

int ev__lookup_generic(const char *name, struct pmc_evspec *out)
{
	for (int i = 0; i < ev__ngeneric; i++) {
		if (strcasecmp(name, ev__generic[i].name) && !in_list(ev__generic[i].aliases, name, 0))
			continue;
		out->attr.type = PERF_TYPE_HARDWARE;
		out->attr.config = ev__generic[i].config;
		out->pclass = PMC_CLASS_GENERIC;
		out->event = (enum pmc_event)(PMC_EV_SOFT_FIRST + EV_IDX_GENERIC + i);
		ev__set_hw_caps(out);
		return 0;
	}
	return -ENOENT;
}

/* ---- software ----------------------------------------------------------- */
const struct ev_static ev__software[] = {
	{ "cpu-clock", NULL, PERF_COUNT_SW_CPU_CLOCK, "High-resolution per-CPU timer (ns)" },
	{ "task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK, "Time the task was running (ns)" },
	{ "page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS, "Page faults" },
	{ "context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES, "Context switches" },
	{ "cpu-migrations", "migrations", PERF_COUNT_SW_CPU_MIGRATIONS,
	  "Moves of the task from one CPU to another" },
	{ "minor-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MIN, "Page faults served without I/O" },
	{ "major-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "Page faults that needed I/O" },
	{ "alignment-faults", NULL, PERF_COUNT_SW_ALIGNMENT_FAULTS, "Unaligned accesses fixed up by the kernel" },
	{ "emulation-faults", NULL, PERF_COUNT_SW_EMULATION_FAULTS, "Instructions emulated by the kernel" },
	{ "dummy", NULL, PERF_COUNT_SW_DUMMY, "Counts nothing (carries side-band records)" },
	{ "bpf-output", NULL, PERF_COUNT_SW_BPF_OUTPUT, "Output of BPF programs" },
	{ "cgroup-switches", NULL, PERF_COUNT_SW_CGROUP_SWITCHES,
	  "Context switches to a task in another cgroup" },
};
const int ev__nsoftware = (int)(sizeof(ev__software) / sizeof(ev__software[0]));

static void set_soft(int i, struct pmc_evspec *out)
{
	out->attr.type = PERF_TYPE_SOFTWARE;
	out->attr.config = ev__software[i].config;
	out->pclass = PMC_CLASS_SOFT;
	out->event = (enum pmc_event)(PMC_EV_SOFT_FIRST + EV_IDX_SOFTWARE + i);
	out->caps = PMC_CAP_READ | PMC_CAP_WRITE | PMC_CAP_INTERRUPT | PMC_CAP_USER | PMC_CAP_SYSTEM;
	out->needs_hw_pmu = 0;
	snprintf(out->pmu, sizeof(out->pmu), "software");
}

int ev__lookup_software(const char *name, struct pmc_evspec *out)
{
	for (int i = 0; i < ev__nsoftware; i++) {
		if (strcasecmp(name, ev__software[i].name) && !in_list(ev__software[i].aliases, name, 0))
			continue;
		set_soft(i, out);
		return 0;
	}
	return -ENOENT;
}

/* ---- hardware cache (perf's names, tools/perf/util/evsel.c) ---------- */
static const char *const cache_type[EV_CACHE_TYPES][6] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};
static const char *const cache_op[EV_CACHE_OPS][6] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};
static const char *const cache_res[EV_CACHE_RES][6] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};
#define OPR (1 << PERF_COUNT_HW_CACHE_OP_READ)
#define OPW (1 << PERF_COUNT_HW_CACHE_OP_WRITE)
#define OPP (1 << PERF_COUNT_HW_CACHE_OP_PREFETCH)
static const unsigned cache_ops_valid[EV_CACHE_TYPES] = {
	OPR | OPW | OPP, OPR | OPP, OPR | OPW | OPP, OPR | OPW | OPP, OPR, OPR, OPR | OPW | OPP,
};
static const char *const cache_what[EV_CACHE_TYPES] = {
	"level-1 data cache", "level-1 instruction cache", "last-level cache",
	"data TLB", "instruction TLB", "branch prediction unit", "local NUMA node memory",
};

int ev__cache_valid(int type, int op, int result)
{
	(void)result;
	return type >= 0 && type < EV_CACHE_TYPES && op >= 0 && op < EV_CACHE_OPS &&
	       (cache_ops_valid[type] & (1u << op));
}

void ev__cache_name(int type, int op, int result, char *buf, size_t len)
{
	if (result)
		snprintf(buf, len, "%s-%s-%s", cache_type[type][0], cache_op[op][0], cache_res[result][0]);
	else
		snprintf(buf, len, "%s-%s", cache_type[type][0], cache_op[op][1]);
}

const char *ev__cache_desc(int type, int op, int result, char *buf, size_t len)
{
	static const char *const opw[] = { "loads", "stores", "prefetches" };
	snprintf(buf, len, "%s that %s the %s", opw[op], result ? "miss" : "access",
		 cache_what[type]);
	buf[0] = (char)toupper((unsigned char)buf[0]);
	return buf;
}

/* If s (normalized) starts with alias (normalized) at a word boundary,
 * return the length consumed including a following '-', else 0. */
static size_t word_prefix(const char *s, const char *alias)
{
	char na[64];
	size_t n;

	ev__norm(alias, na, sizeof(na));
	n = strlen(na);
	if (strncmp(s, na, n))
		return 0;
	if (s[n] == '\0')
		return n;
	if (s[n] == '-')
		return n + 1;
	return 0;
}

static int match_part(const char *s, const char *const tbl[][6], int rows, int *which, size_t *used)
{
	size_t best = 0;

	for (int r = 0; r < rows; r++)
		for (int a = 0; a < 6 && tbl[r][a]; a++) {
			size_t n = word_prefix(s, tbl[r][a]);
			if (n > best) {
				best = n;
				*which = r;
			}
		}
	*used = best;
	return best ? 0 : -1;
}

int ev__lookup_cache(const char *name, struct pmc_evspec *out)
{
	char s[192];
	const char *p;
	int type = -1, op = -1, res = -1;
	size_t n;

	if (strchr(name, '_') || strchr(name, '.') || strchr(name, ' '))
		return -ENOENT;     /* perf's names use '-' only */
	ev__norm(name, s, sizeof(s));
	if (match_part(s, cache_type, EV_CACHE_TYPES, &type, &n) < 0)
		return -ENOENT;
	p = s + n;
	if (!*p)
		return -ENOENT;     /* "branch", "node" alone: not an event */
	for (int part = 0; part < 2 && *p; part++) {
		int w;
		if (op < 0 && match_part(p, cache_op, EV_CACHE_OPS, &w, &n) == 0) {
			op = w;
		} else if (res < 0 && match_part(p, cache_res, EV_CACHE_RES, &w, &n) == 0) {
			res = w;
		} else {
			return pmc__err(-EINVAL, "'%s' is not a cache event: '%s' is not a cache "
					"operation (load, store, prefetch) or result (refs, misses)",
					name, p);
		}
		p += n;
	}
	if (*p)
		return pmc__err(-EINVAL, "'%s' is not a cache event: unexpected '%s' after "
				"cache-op-result", name, p);
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (res < 0)
		res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!ev__cache_valid(type, op, res))
		return pmc__err(-EINVAL, "cache event '%s': %s has no '%s' operation",
				name, cache_type[type][0], cache_op[op][0]);
	out->attr.type = PERF_TYPE_HW_CACHE;
	out->attr.config = (uint64_t)type | ((uint64_t)op << 8) | ((uint64_t)res << 16);
	out->pclass = PMC_CLASS_CACHE;
	out->event = (enum pmc_event)(PMC_EV_SOFT_FIRST + EV_IDX_CACHE + (type * 3 + op) * 2 + res);
	ev__set_hw_caps(out);
	return 0;
}

/* ---- FreeBSD spellings ---------------------------------------------------- */
static const struct { const char *alias, *target; } freebsd_alias[] = {
	{ "branch-mispredicts", "branch-misses" },
	{ "dc-misses", "L1-dcache-load-misses" },
	{ "ic-misses", "L1-icache-load-misses" },
	{ "unhalted-cycles", "cycles" },
	{ "unhalted-core-cycles", "cycles" },
	{ "unhalted-reference-cycles", "ref-cycles" },
	{ "instr-retired-any", "instructions" },
	{ "iaf-instr-retired-any", "instructions" },
	{ "cpu-clk-unhalted-core", "cycles" },
	{ "iaf-cpu-clk-unhalted-core", "cycles" },
	{ "cpu-clk-unhalted-ref", "ref-cycles" },
	{ "iaf-cpu-clk-unhalted-ref", "ref-cycles" },
	{ "branch-instruction-retired", "branches" },
	{ "branch-misses-retired", "branch-misses" },
	/* Intel architectural LONGEST_LAT_CACHE.REFERENCE: what Linux's
	 * generic cache-references counts (pmc stat's defaults; LLC-MISSES
	 * below) */
	{ "llc-reference", "cache-references" },
	{ "llc-references", "cache-references" },
};

/*
 * FreeBSD's SOFT class (pmc.soft(3)), with or without the SOFT- prefix.
 * The clocks tick at FreeBSD's default rates: hardclock at hz = 1000,
 * statclock at stathz = 127, profclock at profhz = 8128; Linux's cpu-clock
 * counts nanoseconds, so their counts and periods are converted to ticks.
 * Linux counts no read/write split of page faults; LOCK.FAILED is the
 * kernel's lock:contention_begin tracepoint (docs/freebsd-compat.md).
 */
const struct ev_fbsd_soft ev__fbsd_soft[] = {
	{ "CLOCK.HARD", "cpu-clock", 1000000, "Hard clock ticks (hz 1000) while running" },
	{ "CLOCK.STAT", "cpu-clock", 1000000000 / 127, "Statistics clock ticks (stathz 127)" },
	{ "CLOCK.PROF", "cpu-clock", 1000000000 / 8128, "Profiling clock ticks (profhz 8128)" },
	{ "PAGE_FAULT.ALL", "page-faults", 0, "Page faults" },
	{ "PAGE_FAULT.READ", NULL, 0, "Page faults on reads (not counted apart by Linux)" },
	{ "PAGE_FAULT.WRITE", NULL, 0, "Page faults on writes (not counted apart by Linux)" },
	{ "LOCK.FAILED", "lock:contention_begin", 0, "Contended lock acquisitions" },
};
const int ev__nfbsd_soft = (int)(sizeof(ev__fbsd_soft) / sizeof(ev__fbsd_soft[0]));

static int lookup_fbsd_soft(const char *n, struct pmc_evspec *out)
{
	for (int i = 0; i < ev__nfbsd_soft; i++) {
		const struct ev_fbsd_soft *f = &ev__fbsd_soft[i];
		const char *colon;
		int rc;

		if (!norm_eq(n, f->name))
			continue;
		if (!f->target)
			return pmc__err_cause(-EOPNOTSUPP, PMC_CAUSE_UNSUPPORTED, "FreeBSD's SOFT-%s cannot be counted on Linux "
			    "(no read/write split of page faults); use SOFT-PAGE_FAULT.ALL", f->name);
		if ((colon = strchr(f->target, ':')) != NULL) {
			char sys[32];
			snprintf(sys, sizeof(sys), "%.*s", (int)(colon - f->target), f->target);
			if ((rc = ev__tracepoint_resolve(sys, colon + 1, out)) < 0) {
				char why[256];
				snprintf(why, sizeof(why), "%s", pmc_errmsg());
				pmc__clear_reason();     /* replaced by one that names SOFT-x */
				return pmc__err_cause(-EOPNOTSUPP, PMC_CAUSE_UNSUPPORTED, "FreeBSD's SOFT-%s needs the %s tracepoint, "
				    "which is not available here (%s)", f->name, f->target, why);
			}
		} else if ((rc = ev__lookup_software(f->target, out)) < 0) {
			return rc;
		}
		out->pclass = PMC_CLASS_SOFT;
		out->event = (enum pmc_event)(PMC_EV_SOFT_FIRST + EV_IDX_FBSD_SOFT + i);
		out->tick_ns = f->tick_ns;
		return 0;
	}
	return -ENOENT;
}

int ev__lookup_freebsd(const char *name, struct pmc_evspec *out)
{
	char n[192];

	/* FreeBSD's LLC-MISSES, LONGEST_LAT_CACHE.MISS: Linux's generic
	 * cache-misses.  Only in FreeBSD's capitals: perf's LLC-misses is the
	 * LL cache's load misses (a cache event). */
	if (strcmp(name, "LLC-MISSES") == 0)
		return ev__lookup_generic("cache-misses", out);
	for (size_t i = 0; i < sizeof(freebsd_alias) / sizeof(freebsd_alias[0]); i++) {
		if (!norm_eq(name, freebsd_alias[i].alias))
			continue;
		if (ev__lookup_generic(freebsd_alias[i].target, out) == 0 ||
		    ev__lookup_software(freebsd_alias[i].target, out) == 0)
			return 0;
		return ev__lookup_cache(freebsd_alias[i].target, out);
	}
	/* FreeBSD's SOFT events, with or without SOFT- */
	ev__norm(name, n, sizeof(n));
	{
		int rc = lookup_fbsd_soft(strncmp(n, "soft-", 5) == 0 ? n + 5 : n, out);
		if (rc != -ENOENT)
			return rc;
	}
	/* SOFT-<software event>, any separators */
	if (strncmp(n, "soft-", 5) == 0 && n[5]) {
		for (int i = 0; i < ev__nsoftware; i++) {
			if (norm_eq(n + 5, ev__software[i].name) ||
			    in_list(ev__software[i].aliases, n + 5, 1)) {
				set_soft(i, out);
				return 0;
			}
		}
	}
	return -ENOENT;
}

/* ---- ARMv8 PMUv3 common events (Arm ARM D17.11 / K3) ------------------- */
static const char *const armv8_names[256] = {
	[0x00] = "SW_INCR", [0x01] = "L1I_CACHE_REFILL", [0x02] = "L1I_TLB_REFILL",
	[0x03] = "L1D_CACHE_REFILL", [0x04] = "L1D_CACHE", [0x05] = "L1D_TLB_REFILL",
	[0x06] = "LD_RETIRED", [0x07] = "ST_RETIRED", [0x08] = "INST_RETIRED",
	[0x09] = "EXC_TAKEN", [0x0A] = "EXC_RETURN", [0x0B] = "CID_WRITE_RETIRED",
	[0x0C] = "PC_WRITE_RETIRED", [0x0D] = "BR_IMMED_RETIRED", [0x0E] = "BR_RETURN_RETIRED",
	[0x0F] = "UNALIGNED_LDST_RETIRED", [0x10] = "BR_MIS_PRED", [0x11] = "CPU_CYCLES",
	[0x12] = "BR_PRED", [0x13] = "MEM_ACCESS", [0x14] = "L1I_CACHE",
	[0x15] = "L1D_CACHE_WB", [0x16] = "L2D_CACHE", [0x17] = "L2D_CACHE_REFILL",
	[0x18] = "L2D_CACHE_WB", [0x19] = "BUS_ACCESS", [0x1A] = "MEMORY_ERROR",
	[0x1B] = "INST_SPEC", [0x1C] = "TTBR_WRITE_RETIRED", [0x1D] = "BUS_CYCLES",
	[0x1E] = "CHAIN", [0x1F] = "L1D_CACHE_ALLOCATE", [0x20] = "L2D_CACHE_ALLOCATE",
	[0x21] = "BR_RETIRED", [0x22] = "BR_MIS_PRED_RETIRED", [0x23] = "STALL_FRONTEND",
	[0x24] = "STALL_BACKEND", [0x25] = "L1D_TLB", [0x26] = "L1I_TLB",
	[0x27] = "L2I_CACHE", [0x28] = "L2I_CACHE_REFILL", [0x29] = "L3D_CACHE_ALLOCATE",
	[0x2A] = "L3D_CACHE_REFILL", [0x2B] = "L3D_CACHE", [0x2C] = "L3D_CACHE_WB",
	[0x2D] = "L2D_TLB_REFILL", [0x2E] = "L2I_TLB_REFILL", [0x2F] = "L2D_TLB",
	[0x30] = "L2I_TLB", [0x31] = "REMOTE_ACCESS", [0x32] = "LL_CACHE",
	[0x33] = "LL_CACHE_MISS", [0x34] = "DTLB_WALK", [0x35] = "ITLB_WALK",
	[0x36] = "LL_CACHE_RD", [0x37] = "LL_CACHE_MISS_RD", [0x38] = "REMOTE_ACCESS_RD",
	[0x39] = "L1D_CACHE_LMISS_RD", [0x3A] = "OP_RETIRED", [0x3B] = "OP_SPEC",
	[0x3C] = "STALL", [0x3D] = "STALL_SLOT_BACKEND", [0x3E] = "STALL_SLOT_FRONTEND",
	[0x3F] = "STALL_SLOT",
	/* recommended IMPLEMENTATION DEFINED events */
	[0x40] = "L1D_CACHE_RD", [0x41] = "L1D_CACHE_WR", [0x42] = "L1D_CACHE_REFILL_RD",
	[0x43] = "L1D_CACHE_REFILL_WR", [0x44] = "L1D_CACHE_REFILL_INNER",
	[0x45] = "L1D_CACHE_REFILL_OUTER", [0x46] = "L1D_CACHE_WB_VICTIM",
	[0x47] = "L1D_CACHE_WB_CLEAN", [0x48] = "L1D_CACHE_INVAL",
	[0x4C] = "L1D_TLB_REFILL_RD", [0x4D] = "L1D_TLB_REFILL_WR", [0x4E] = "L1D_TLB_RD",
	[0x4F] = "L1D_TLB_WR", [0x50] = "L2D_CACHE_RD", [0x51] = "L2D_CACHE_WR",
	[0x52] = "L2D_CACHE_REFILL_RD", [0x53] = "L2D_CACHE_REFILL_WR",
	[0x56] = "L2D_CACHE_WB_VICTIM", [0x57] = "L2D_CACHE_WB_CLEAN", [0x58] = "L2D_CACHE_INVAL",
	[0x5C] = "L2D_TLB_REFILL_RD", [0x5D] = "L2D_TLB_REFILL_WR", [0x5E] = "L2D_TLB_RD",
	[0x5F] = "L2D_TLB_WR", [0x60] = "BUS_ACCESS_RD", [0x61] = "BUS_ACCESS_WR",
	[0x62] = "BUS_ACCESS_SHARED", [0x63] = "BUS_ACCESS_NOT_SHARED",
	[0x64] = "BUS_ACCESS_NORMAL", [0x65] = "BUS_ACCESS_PERIPH",
	[0x66] = "MEM_ACCESS_RD", [0x67] = "MEM_ACCESS_WR", [0x68] = "UNALIGNED_LD_SPEC",
	[0x69] = "UNALIGNED_ST_SPEC", [0x6A] = "UNALIGNED_LDST_SPEC", [0x6C] = "LDREX_SPEC",
	[0x6D] = "STREX_PASS_SPEC", [0x6E] = "STREX_FAIL_SPEC", [0x6F] = "STREX_SPEC",
	[0x70] = "LD_SPEC", [0x71] = "ST_SPEC", [0x72] = "LDST_SPEC", [0x73] = "DP_SPEC",
	[0x74] = "ASE_SPEC", [0x75] = "VFP_SPEC", [0x76] = "PC_WRITE_SPEC",
	[0x77] = "CRYPTO_SPEC", [0x78] = "BR_IMMED_SPEC", [0x79] = "BR_RETURN_SPEC",
	[0x7A] = "BR_INDIRECT_SPEC", [0x7C] = "ISB_SPEC", [0x7D] = "DSB_SPEC",
	[0x7E] = "DMB_SPEC", [0x81] = "EXC_UNDEF", [0x82] = "EXC_SVC", [0x83] = "EXC_PABORT",
	[0x84] = "EXC_DABORT", [0x86] = "EXC_IRQ", [0x87] = "EXC_FIQ", [0x88] = "EXC_SMC",
	[0x8A] = "EXC_HVC",
};

static const char *const armv8_descs[0x40] = {
	"Software increment (PMSWINC_EL0 write)", "Level 1 instruction cache refill",
	"Level 1 instruction TLB refill", "Level 1 data cache refill",
	"Level 1 data cache access", "Level 1 data TLB refill",
	"Load instructions architecturally executed", "Store instructions architecturally executed",
	"Instructions architecturally executed", "Exceptions taken",
	"Exception returns architecturally executed", "CONTEXTIDR writes architecturally executed",
	"Software changes of the PC architecturally executed",
	"Immediate branches architecturally executed",
	"Procedure returns architecturally executed",
	"Unaligned loads/stores architecturally executed",
	"Mispredicted or not predicted branches speculatively executed", "Processor cycles",
	"Predictable branches speculatively executed", "Data memory accesses",
	"Level 1 instruction cache accesses", "Level 1 data cache write-backs",
	"Level 2 data cache accesses", "Level 2 data cache refills",
	"Level 2 data cache write-backs", "Bus accesses", "Local memory errors",
	"Operations speculatively executed", "TTBR writes architecturally executed",
	"Bus cycles", "Odd-numbered counter chained to the even one below",
	"Level 1 data cache allocations without refill",
	"Level 2 data cache allocations without refill",
	"Branches architecturally executed", "Mispredicted branches architecturally executed",
	"Cycles with no operation issued because of the frontend",
	"Cycles with no operation issued because of the backend",
	"Level 1 data TLB accesses", "Level 1 instruction TLB accesses",
	"Level 2 instruction cache accesses", "Level 2 instruction cache refills",
	"Level 3 data cache allocations without refill", "Level 3 data cache refills",
	"Level 3 data cache accesses", "Level 3 data cache write-backs",
	"Level 2 data TLB refills", "Level 2 instruction TLB refills",
	"Level 2 data TLB accesses", "Level 2 instruction TLB accesses",
	"Accesses to another socket", "Last-level cache accesses",
	"Last-level cache misses", "Data TLB walks", "Instruction TLB walks",
	"Last-level cache reads", "Last-level cache read misses",
	"Reads from another socket", "Level 1 data cache long-latency read misses",
	"Micro-operations architecturally executed", "Micro-operations speculatively executed",
	"Cycles with no operation sent for execution", "Slots stalled because of the backend",
	"Slots stalled because of the frontend", "Slots with no operation sent for execution",
};

const char *ev__armv8_name(unsigned n)
{
	return n < 256 ? armv8_names[n] : NULL;
}

const char *ev__armv8_desc(unsigned n)
{
	if (n < 0x40)
		return armv8_descs[n];
	return n < 256 && armv8_names[n] ? "Recommended IMPLEMENTATION DEFINED event" : NULL;
}

void pmc__event_generic(const struct pmc_evspec *ev, uint32_t *type, uint64_t *config)
{
	*type = ev->attr.type;
	*config = ev->attr.config;
	if (ev->attr.type == PERF_TYPE_HARDWARE || ev->attr.type == PERF_TYPE_HW_CACHE) {
		*config &= 0xffffffffull;        /* PERF_HW_EVENT_MASK: no PMU type */
		return;
	}
	if (ev->pclass == PMC_CLASS_ARMV8 && ev->attr.config <= 0xffff &&
	    pmc__armv8_to_generic((unsigned)ev->attr.config, config) == 0)
		*type = PERF_TYPE_HARDWARE;
}

static void set_armv8(unsigned n, struct pmc_evspec *out)
{
	out->attr.type = PERF_TYPE_RAW;
	out->attr.config = n;
	out->pclass = PMC_CLASS_ARMV8;
	out->event = (enum pmc_event)(PMC_EV_ARMV8_EVENT_00H + n);
	out->caps = PMC_CAP_READ | PMC_CAP_WRITE | PMC_CAP_INTERRUPT | PMC_CAP_USER | PMC_CAP_SYSTEM;
	out->needs_hw_pmu = 1;
	snprintf(out->pmu, sizeof(out->pmu), "armv8");
}

int ev__lookup_armv8(const char *name, int explicit_only, struct pmc_evspec *out)
{
	char n[192];
	const char *p;
	int explicit = 0;

	ev__norm(name, n, sizeof(n));
	p = n;
	if (strncmp(p, "armv8-", 6) == 0) {
		p += 6;
		explicit = 1;
	}
	/* FreeBSD's EVENT_11H */
	if (strncmp(p, "event-", 6) == 0 && isxdigit((unsigned char)p[6]) &&
	    isxdigit((unsigned char)p[7]) && p[8] == 'h' && p[9] == '\0') {
		set_armv8((unsigned)strtoul(p + 6, NULL, 16), out);
		return 0;
	}
	if (explicit_only && !explicit)
		return -ENOENT;
	for (unsigned i = 0; i < 256; i++) {
		if (armv8_names[i] && norm_eq(p, armv8_names[i])) {
			set_armv8(i, out);
			return 0;
		}
	}
	if (explicit)
		return pmc__err(-ENOENT, "'%s' is not an ARMv8 PMUv3 common event name "
				"(try EVENT_xxH with the event number)", name);
	return -ENOENT;
}

/* ---- suggestions -------------------------------------------------------- */
/* Optimal string alignment distance, case-insensitive. */
static int osa(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	int d[40][40];

	if (la >= 40 || lb >= 40)
		return 99;
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			int v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

struct best { const char *name; int d; };

static void consider(struct best *b, const char *query, const char *cand)
{
	int d = osa(query, cand);
	if (d < b->d) {
		b->d = d;
		b->name = cand;
	}
}

static void consider_list(struct best *b, const char *query, const char *list)
{
	static _Thread_local char words[8][64];
	static _Thread_local int next;

	while (list && *list) {
		size_t n = strcspn(list, " ");
		if (n < 64) {
			char *w = words[next];
			memcpy(w, list, n);
			w[n] = '\0';
			int d = osa(query, w);
			if (d < b->d) {
				b->d = d;
				b->name = w;
				next = (next + 1) % 8;
			}
		}
		list += n;
		while (*list == ' ')
			list++;
	}
}

const char *ev__suggest(const char *name)
{
	static _Thread_local char cache_buf[64];
	struct best b = { NULL, 99 };
	int len = (int)strlen(name);
	char buf[64];

	for (int i = 0; i < ev__ngeneric; i++) {
		consider(&b, name, ev__generic[i].name);
		consider_list(&b, name, ev__generic[i].aliases);
	}
	for (int i = 0; i < ev__nsoftware; i++) {
		consider(&b, name, ev__software[i].name);
		consider_list(&b, name, ev__software[i].aliases);
	}
	for (size_t i = 0; i < sizeof(freebsd_alias) / sizeof(freebsd_alias[0]); i++)
		consider(&b, name, freebsd_alias[i].alias);
	for (unsigned i = 0; i < 256; i++)
		if (armv8_names[i])
			consider(&b, name, armv8_names[i]);
	for (int t = 0; t < EV_CACHE_TYPES; t++)
		for (int o = 0; o < EV_CACHE_OPS; o++)
			for (int r = 0; r < EV_CACHE_RES; r++) {
				if (!ev__cache_valid(t, o, r))
					continue;
				ev__cache_name(t, o, r, buf, sizeof(buf));
				int d = osa(name, buf);
				if (d < b.d) {
					b.d = d;
					snprintf(cache_buf, sizeof(cache_buf), "%s", buf);
					b.name = cache_buf;
				}
			}
	if (!b.name || b.d == 0 || b.d > 2 || b.d * 3 > len)
		return NULL;
	return b.name;
}
