/*
 * main.c — `pmc SUBCOMMAND [options]`: dispatch to one cmd_NAME per file.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"

struct subcmd {
	const char *name;
	int (*fn)(int, char **);
	const char *summary;
};

static const struct subcmd cmds[] = {
	{ "stat",    cmd_stat,    "count events for a command, processes, threads or CPUs" },
	{ "list",    cmd_list,    "list the events and PMC classes this machine offers" },
	{ "record",  cmd_record,  "sample a command, processes or CPUs into a log" },
	{ "dump",    cmd_dump,    "print every record of a log" },
	{ "report",  cmd_report,  "profile from a log: flat, call graphs, flame graphs, exports" },
	{ "script",  cmd_script,  "every sample, symbolized, in perf script's format (or JSON)" },
	{ "annotate", cmd_annotate, "a function's samples per instruction and source line" },
	{ "diff",    cmd_diff,    "compare the profiles of two logs" },
	{ "convert", cmd_convert, "convert between perf.data and pmc logs" },
	{ "control", cmd_control, "PMC classes, rows, statistics and tunables (pmccontrol)" },
	{ "exporter", cmd_exporter, "serve counters to Prometheus at /metrics (OpenMetrics)" },
	{ "top",     cmd_top,     "the hottest functions, live (perf top; pmcstat -T)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: pmc [--version] [--help] SUBCOMMAND [ARGS]\n\n"
	    "Hardware performance monitoring counters (hwpmc's model on Linux).\n\n"
	    "Subcommands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "\n'pmc help SUBCOMMAND' or 'pmc SUBCOMMAND --help' describes each; man pmc(1)\n"
	    "has the rest.\n");
}

/* The heap's policy, set before anything is allocated.
 *
 * Tables of up to 32 MB come from the heap and are reused once freed, rather
 * than each being a fresh mapping (glibc's default above 128 KB) whose pages
 * fault in one by one and are unmapped again at free: 19 -> 15 ms of CPU for
 * a report of 104 k samples, the same peak RSS.
 *
 * The heap's next HEAP_HUGE bytes are reserved at once (M_TOP_PAD: address
 * space, no memory until touched) and advised for transparent huge pages
 * before anything is written there, so that where the kernel offers them
 * (THP "madvise" or "always") tables fault in 2 MB at a time instead of
 * 4 KB: a report touching 10 MB took 2,700 faults of ~5 us each on a VM,
 * 20-30 % of its CPU (docs/BENCHMARKS.md, "Fourth round: page faults").
 * A 2 MB range gets a huge page only if none of its pages was touched
 * before, so the heap is grown by a block just bigger than its free top
 * (the new top's header, written past that block, lies below the advised
 * range), and the heap below the first huge page is then taken by a block
 * never touched.  Where the allocator is not glibc's heap (a sanitizer's)
 * or THP is absent, nothing changes. */
#define HEAP_HUGE (64u << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)
/* kept for the process's life; volatile, as a block nothing reads is
 * otherwise not allocated at all (the compiler drops the call) */
static void *volatile heap_below_huge;
static void heap_setup(void)
{
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, HEAP_HUGE);
	char *end = sbrk(0);
	size_t n = mallinfo2().keepcost + 64;    /* the top chunk, and a little */
	char *p = malloc(n);
	char *top = sbrk(0);
	uintptr_t at = (uintptr_t)p;
	/* the top's header is written just past the block, at + n */
	uintptr_t lo = (at + n + 4096 + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t hi = (uintptr_t)top & ~(HUGE_PAGE - 1);
	/* advised only if the block came from a heap that grew (glibc's) */
	if (p && end != (char *)-1 && top > end && at < (uintptr_t)top && hi > lo &&
	    madvise((void *)lo, hi - lo, MADV_HUGEPAGE) == 0)
		/* the top starts past the block: one reaching up to lo */
		heap_below_huge = malloc(lo - (at + n) - 32);
	free(p);
}

int main(int argc, char **argv)
{
	static char prog[64];

	heap_setup();
	cli_stdout_init();
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	/* perf's `perf help stat`: `pmc help SUBCOMMAND` is `pmc SUBCOMMAND --help` */
	if (!strcmp(argv[1], "help") && argc > 2) {
		static char help_opt[] = "--help";
		char *hargv[] = { argv[2], help_opt, NULL };
		for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
			if (!strcmp(argv[2], cmds[i].name)) {
				snprintf(prog, sizeof(prog), "pmc %s", cmds[i].name);
				cli_prog = prog;
				return cmds[i].fn(2, hargv);
			}
		fprintf(stderr, "pmc: '%s' is not a pmc subcommand; try 'pmc --help'\n", argv[2]);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") ||
	    !strcmp(argv[1], "version")) {
		printf("pmc %s (libpmc, hwpmc API %d.%d)\n", PMC_VERSION_STRING,
		    PMC_VERSION_MAJOR, PMC_VERSION_MINOR);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		snprintf(prog, sizeof(prog), "pmc %s", cmds[i].name);
		cli_prog = prog;
		return cmds[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "pmc: '%s' is not a pmc subcommand; try 'pmc --help'\n", argv[1]);
	return CLI_EXIT_USAGE;
}
