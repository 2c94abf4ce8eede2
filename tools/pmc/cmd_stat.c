/*
 * cmd_stat.c — `pmc stat`: count events for a command, processes, threads
 * or CPUs (perf stat; pmcstat -p/-s).  Everything is done through the
 * public libpmc API: this file decides what to count (its options);
 * stat_count.c counts it, stat_print.c prints.  Counts go to stderr as perf's do (or to -o FILE),
 * so the command's own stdout stays its own.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"
#include "toolslib/evlist.h"
#include "stat.h"

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
};

/* -d, -d -d, -d -d -d: perf's detailed events, level by level. */
static const char *const detailed_events[3] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,"
	    "iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmc stat [-e EVENT[,EVENT...]]... [options] -- COMMAND [ARGS...]\n"
"       pmc stat [-e EVENTS] -p PID[,PID...] | -t TID[,TID...] | -a [-C CPUS] [-l SECONDS]\n"
"\n"
"Count events for a command (and its children), existing processes or threads,\n"
"or whole CPUs.  Without -e: task-clock, context-switches, cpu-migrations,\n"
"page-faults, cycles, instructions, branches, branch-misses.  The counts go to\n"
"standard error (as perf's), or to -o FILE.\n"
"\n"
"  -e, --event=LIST      events to count (see 'pmc list'); repeatable; '{a,b}' is\n"
"                        a group (counted together); 'sys:*' every matching tracepoint\n"
"  -d, --detailed        add cache events (-d -d: TLB and L1i too, -d -d -d: prefetch)\n"
"  -p, --pid=PIDS        count existing processes (all their threads)\n"
"  -t, --tid=TIDS        count existing threads\n"
"  -a, --all-cpus        count every CPU (system-wide; needs privilege); with a\n"
"                        command: for as long as it runs\n"
"  -C, --cpu=LIST        count only these CPUs (e.g. 0-3,6); implies -a\n"
"  -l, --duration=SECS   stop after SECS seconds (-p, -t, -a; default: Ctrl-C)\n"
"  -A, --no-aggr         one row per CPU (-a)\n"
"      --per-core        one row per core (-a)\n"
"      --per-socket      one row per socket (-a)\n"
"      --per-thread      one row per thread (-p, -t)\n"
"  -D, --delay=MSEC      start counting MSEC milliseconds after the command starts\n"
"  -I, --interval=MS     print counts every MS milliseconds (and the last part)\n"
"  -r, --repeat=N        run the command N times; print mean and relative stddev\n"
"  -x, --field-separator=SEP  CSV output: [time,][unit,[cpus,]]value,unit,event,\n"
"                        [stddev-%%,]running-ns,running-%%,metric,metric-unit\n"
"  -j, --json            JSON output (one object; one per line with -I)\n"
"  -P, --per-process     one row per process of the command's tree, at its exit\n"
"      --no-inherit      count the command's main thread only (not its\n"
"                        other threads, nor its children)\n"
"  -b, --backend=NAME    linux (default) or sim (simulated ARMv8 PMU)\n"
"  -o, --output=FILE     write the counts to FILE instead of stderr ('-': stdout)\n"
"  -h, --help            this help\n"
"\n"
"The exit status is the command's own (128+N if a signal N ended it), or 1 if\n"
"counting failed, 2 for a usage error.\n");
}

/* ---- events ----------------------------------------------------------------- */

static void add_one(struct stat_opts *o, const char *spec, int leader)
{
	if (o->nev >= STAT_MAX_EVENTS)
		cli_usage_error("too many events (at most %d)", STAT_MAX_EVENTS);
	o->ev[o->nev].spec = strdup(spec);
	o->ev[o->nev].leader = leader;
	if (!o->ev[o->nev].spec)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	o->nev++;
}

/* "{a,b}" or "{a,b}:u": the members, each with the group's modifiers. */
static void add_group(struct stat_opts *o, const char *group)
{
	char inner[512], mods[32] = "";
	const char *close = strrchr(group, '}');
	char **specs;
	int n;

	if (!close || close == group + 1 || (close[1] && close[1] != ':'))
		cli_usage_error("bad event group '%s' (want {EVENT,EVENT...}[:MODIFIERS])", group);
	snprintf(inner, sizeof(inner), "%.*s", (int)(close - group - 1), group + 1);
	if (close[1])
		snprintf(mods, sizeof(mods), "%s", close + 2);
	if (evlist__split(inner, &specs, &n) < 0)
		cli_usage_error("bad event group '%s': %s", group, pmc_errmsg());
	int leader = o->nev;
	for (int i = 0; i < n; i++) {
		char spec[600];
		if (specs[i][0] == '{')
			cli_usage_error("event groups cannot be nested ('%s')", group);
		snprintf(spec, sizeof(spec), "%s%s%s", specs[i],
		    !mods[0] ? "" : strchr(specs[i], ':') ? "" : ":", mods);
		add_one(o, spec, i ? leader : -1);
	}
	evlist__free(specs, n);
}

static void add_events(struct stat_opts *o, const char *list)
{
	char **specs;
	int n;

	if (evlist__split(list, &specs, &n) < 0)
		cli_usage_error("bad event list '%s': %s", list, pmc_errmsg());
	for (int i = 0; i < n; i++)
		if (specs[i][0] == '{')
			add_group(o, specs[i]);
		else
			add_one(o, specs[i], -1);
	evlist__free(specs, n);
}

/* ---- options ------------------------------------------------------------------ */

enum { OPT_NO_INHERIT = 256, OPT_PER_CORE, OPT_PER_SOCKET, OPT_PER_THREAD };

static void set_aggr(struct stat_opts *o, enum stat_aggr a)
{
	if (o->aggr != AGGR_GLOBAL && o->aggr != a)
		cli_usage_error("choose one of -A, --per-core, --per-socket, --per-thread");
	o->aggr = a;
}

static int parse_int(const char *arg, int lo, int hi, const char *what)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || v < lo || v > hi)
		cli_usage_error("'%s' is not %s", arg, what);
	return (int)v;
}

static void check_options(struct stat_opts *o, int argc, char **argv)
{
	cli_target_finish(&o->tgt, argc, argv, optind, "count");
	if (o->tgt.system_wide && o->per_process)
		cli_usage_error("--per-process follows a command's processes; it cannot be "
		    "combined with -a/-C");
	if (o->repeat > 1 && !o->tgt.cmd)
		cli_usage_error("-r repeats a command; it needs one");
	if (o->per_process && !o->tgt.cmd)
		cli_usage_error("--per-process needs a command to follow");
	if (o->json && o->sep)
		cli_usage_error("choose -x or --json, not both");
	if (o->repeat > 1 && o->interval_ms)
		cli_usage_error("-r and -I cannot be combined");
	if (o->no_inherit && o->per_process)
		cli_usage_error("--per-process needs the children (drop --no-inherit)");
	if ((o->aggr == AGGR_CPU || o->aggr == AGGR_CORE || o->aggr == AGGR_SOCKET) &&
	    !o->tgt.system_wide)
		cli_usage_error("-A, --per-core and --per-socket split system-wide counts: "
		    "they need -a or -C");
	if (o->aggr == AGGR_THREAD && !o->tgt.npids)
		cli_usage_error("--per-thread counts existing threads: it needs -p or -t");
	if (o->aggr != AGGR_GLOBAL && (o->repeat > 1 || o->per_process))
		cli_usage_error("-A and --per-* cannot be combined with -r or --per-process");
}

static void parse_options(struct stat_opts *o, int argc, char **argv, const char **outpath)
{
	static const struct option lopts[] = {
		{ "event", required_argument, NULL, 'e' },
		CLI_TARGET_LONGOPTS,
		{ "interval", required_argument, NULL, 'I' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "per-process", no_argument, NULL, 'P' },
		{ "no-inherit", no_argument, NULL, OPT_NO_INHERIT },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "per-core", no_argument, NULL, OPT_PER_CORE },
		{ "per-socket", no_argument, NULL, OPT_PER_SOCKET },
		{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
		{ "delay", required_argument, NULL, 'D' },
		{ "detailed", no_argument, NULL, 'd' },
		{ "backend", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:" CLI_TARGET_OPTSTRING "I:r:x:jPAD:db:o:h",
	    lopts, NULL)) != -1) {
		switch (c) {
		case 'e': add_events(o, optarg); break;
		case 'I':
			o->interval_ms = parse_int(optarg, 10, 0x7fffffff,
			    "an interval of at least 10 ms");
			break;
		case 'r': o->repeat = parse_int(optarg, 1, 100000, "a repeat count"); break;
		case 'D': o->delay_ms = parse_int(optarg, 0, 0x7fffffff, "a delay in ms"); break;
		case 'd': o->detailed++; break;
		case 'x':
			if (!*optarg)   /* CSV without a separator cannot be parsed */
				cli_usage_error("-x needs a separator (e.g. -x,)");
			o->sep = optarg;
			break;
		case 'j': o->json = 1; break;
		case 'P': o->per_process = 1; break;
		case OPT_NO_INHERIT: o->no_inherit = 1; break;
		case 'A': set_aggr(o, AGGR_CPU); break;
		case OPT_PER_CORE: set_aggr(o, AGGR_CORE); break;
		case OPT_PER_SOCKET: set_aggr(o, AGGR_SOCKET); break;
		case OPT_PER_THREAD: set_aggr(o, AGGR_THREAD); break;
		case 'b': o->backend = optarg; break;
		case 'o': *outpath = cli_file_arg("-o", optarg); break;
		case 'h': usage(stdout); exit(0);
		default:
			if (!cli_target_option(&o->tgt, c, optarg))
				cli_bad_option(c, argv);
		}
	}
	check_options(o, argc, argv);
	if (o->nev == 0)
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
			add_events(o, default_events[i]);
	for (int d = 0; d < o->detailed && d < 3; d++)
		add_events(o, detailed_events[d]);
}

int cmd_stat(int argc, char **argv)
{
	static struct stat_opts o;
	const char *outpath = NULL;

	memset(&o, 0, sizeof(o));
	o.repeat = 1;
	o.out = stderr;          /* perf's habit: the command's stdout stays its own */
	parse_options(&o, argc, argv, &outpath);
	/* perf stat -o replaces the file: so do we, never through a planted
	 * symlink, and only once the counts are complete ("-": stdout) */
	struct outfile of;
	if (outpath)
		o.out = cli_open_output(&of, outpath, 1);
	if (o.backend && pmc_backend_select(o.backend) < 0)
		cli_usage_error("%s", pmc_errmsg());
	if (pmc_init() < 0)
		cli_die(CLI_EXIT_FAIL, "cannot initialise libpmc: %s", pmc_errmsg());
	if (o.tgt.system_wide)
		stat_cpu_units(&o);

	stat_catch_signals();

	struct stat_run_result res;
	double sum = 0, sumsq = 0;
	int runs = 0;
	memset(&res, 0, sizeof(res));
	for (int run = 0; run < o.repeat; run++) {
		if (run > 0)
			stat_release(&o);
		stat_run_once(&o, run, &res);
		sum += res.elapsed_ns;
		sumsq += res.elapsed_ns * res.elapsed_ns;
		runs++;
		if (stat_interrupted())
			break;
		if (res.logfd >= 0 && run < o.repeat - 1) {
			close(res.logfd);
			res.logfd = -1;
		}
	}
	double mean = sum / runs;
	double sd = runs > 1 ? sqrt(fmax(0, (sumsq - runs * mean * mean) / (runs - 1))) : 0;
	struct rusage ru, *rup = NULL;
	if (o.tgt.cmd && !o.tgt.system_wide && o.repeat == 1 &&
	    !strcmp(pmc_backend_name(), "linux") &&
	    getrusage(RUSAGE_CHILDREN, &ru) == 0)
		rup = &ru;
	/* With -I the intervals are the output (perf's); JSON adds the totals
	 * as a last object of its own shape. */
	if (!o.interval_ms || o.json)
		stat_print_final(&o, mean, sd, rup, o.tgt.cmd != NULL, res.exit_status);
	if (res.logfd >= 0) {
		if (!o.interval_ms)
			stat_print_per_process(&o, res.logfd, o.child);
		close(res.logfd);
	}
	int out_failed = outpath && cli_close_output(&of, o.out, 0) != 0;
	stat_release(&o);
	for (int i = 0; i < o.nev; i++) {
		free(o.ev[i].spec);
		free(o.ev[i].runs);
	}
	pmc_fini();
	free(o.units);
	free(o.cpu_unit);
	cli_target_free(&o.tgt);
	if (out_failed)
		return CLI_EXIT_FAIL;
	return o.tgt.cmd ? res.exit_status : 0;
}
