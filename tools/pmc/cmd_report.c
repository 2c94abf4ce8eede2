/*
 * cmd_report.c — `pmc report`: read a log (or perf.data), symbolize, print
 * the flat profile and call graphs, or export (json, folded, pprof,
 * speedscope, callgrind, svg, html).  Everything but option parsing is in
 * analysis/ (libpmcstat).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"
#include "export/export.h"
#include "profile/offcpu.h"
#include "report/report.h"
#include "symbols/kcache.h"
#include "report_tui.h"

static void usage(FILE *f)
{
	fprintf(f,
	    "usage: pmc report [-i FILE] [options]\n"
	    "\n"
	    "Read a pmc log (or a perf.data file) and print where the samples fell: a\n"
	    "flat profile per event (overhead, samples, command, binary, symbol), call\n"
	    "graphs, per-process counts and USERDATA markers; or export the profile.\n"
	    "\n"
	    "  -i, --input FILE       the log (default: standard input if it is a pipe,\n"
	    "                         else pmc.log, else perf.data; '-': standard input)\n"
	    "      --follow           the log is still being written: read until its end\n"
	    "  -s, --sort KEYS        comma list of comm,pid,tid,dso,sym,srcline,cpu\n"
	    "                         (default comm,dso,sym; perf's column names\n"
	    "                         overhead, sample, period are accepted: those\n"
	    "                         columns are always shown)\n"
	    "  -T, --threads          per-thread rows: pid,tid before the sort keys\n"
	    "      --threads=N        the same as -j N (perf's --threads takes no value)\n"
	    "      --children         add inclusive (children) percentages, sort by them\n"
	    "      --no-children      self only (the default)\n"
	    "      --percent-limit P  hide entries below P %%\n"
	    "  -n, --max N            print at most N entries per event\n"
	    "  -g, --call-graph[=WORD,...]\n"
	    "                         print call graphs; perf report's words in any\n"
	    "                         order: caller (top-down, the default) or callee\n"
	    "                         (who called each function), graph, function,\n"
	    "                         percent, none; numbers: the THRESHOLD %% under\n"
	    "                         which branches are hidden (default 0.5), then the\n"
	    "                         most entries per level (e.g. -g caller,0.5,10)\n"
	    "      --graph-layout perf|tree\n"
	    "                         perf: each entry's call graph under it, as perf\n"
	    "                         report --stdio (the default); tree: one call\n"
	    "                         graph of the event after the table\n"
	    "  -z, --depth N          call graph depth limit (pmcstat's -z; perf's\n"
	    "                         --max-stack N)\n"
	    "      --no-inline        do not expand inlined functions in call graphs\n"
	    "      --pid LIST, --tid LIST, --comm LIST, --dso LIST, --sym LIST, --cpu LIST\n"
	    "                         keep only these samples (comma lists; sym and dso\n"
	    "                         apply to the sampled function; perf's --comms,\n"
	    "                         --dsos, --symbols too); percentages stay those of\n"
	    "                         the whole event, as perf's\n"
	    "      --percentage relative|absolute\n"
	    "                         relative: percentages of the filtered samples\n"
	    CLI_TIME_HELP
	    CLI_SYMBOL_HELP
	    CLI_JOBS_HELP
	    "      --wall             wall-clock profile of a 'pmc record --off-cpu' log:\n"
	    "                         on-CPU time (cpu-clock, task-clock) and off-CPU\n"
	    "                         time as one event, wall-time (ns); without it\n"
	    "                         off-CPU time is its own event, offcpu-time\n"
	    "  -F, --format FMT       text (default), json, folded, pprof, speedscope,\n"
	    "                         callgrind, svg, html\n"
	    "      --flame-by KEY     -F html: the flame graph's first level is the\n"
	    "                         command (comm), process (pid) or thread (tid)\n"
	    "  -o, --output FILE      write there (default standard output; pprof needs\n"
	    "                         a file or a pipe)\n"
	    "  -f, --force            overwrite FILE\n"
	    "      --no-demangle      keep C++/Rust names mangled (--demangle: the\n"
	    "                         default, names without parameter lists, as perf's)\n"
	    "      --demangle-kernel  demangle kernel symbols too (Rust in the kernel)\n"
	    "  -v, --verbose          C++ names with their parameter lists (perf's -v)\n"
	    "      --header-only      print the recording's header lines, no report\n"
	    "      --color WHEN       always, never, auto (default: on a terminal)\n"
	    "      --tui              browse the profile in the terminal (the default when\n"
	    "                         standard input and output are a terminal that\n"
	    "                         terminfo can draw on ($TERM), -F text, no -o and\n"
	    "                         PMC_PAGER unset; keys: ? in it)\n"
	    "      --stdio, --no-tui  the text report, also on a terminal\n"
	    "  -h, --help             this help\n"
	    "\n"
	    "Exit status: 0; 1 the input could not be read, or was cut short (the\n"
	    "report covers what was read); 2 a usage error.\n");
}

static void progress(void *arg, uint64_t records)
{
	(void)arg;
	fprintf(stderr, "\rpmc report: %llu records read...", (unsigned long long)records);
}

int cmd_report(int argc, char **argv)
{
	enum {
		O_CHILDREN = 256, O_NOCHILDREN, O_PLIMIT, O_FOLLOW, O_NOINLINE, O_NODEMANGLE, O_COLOR,
		O_STDIO, O_MAXSTACK, O_PERCENTAGE, O_WALL, O_DEMANGLE, O_DEMANGLE_KERNEL, O_HEADER_ONLY,
		O_TUI, O_FLAMEBY, O_GLAYOUT
	};
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "follow", no_argument, NULL, O_FOLLOW },
		{ "sort", required_argument, NULL, 's' },
		{ "children", no_argument, NULL, O_CHILDREN },
		{ "no-children", no_argument, NULL, O_NOCHILDREN },
		{ "percent-limit", required_argument, NULL, O_PLIMIT },
		{ "max", required_argument, NULL, 'n' },
		{ "call-graph", optional_argument, NULL, 'g' },
		{ "depth", required_argument, NULL, 'z' },
		{ "no-inline", no_argument, NULL, O_NOINLINE },
		CLI_FILTER_TASK_OPTIONS,
		CLI_SYMBOL_OPTIONS,
		CLI_FILTER_FUNC_OPTIONS,
		{ "max-stack", required_argument, NULL, O_MAXSTACK },
		{ "percentage", required_argument, NULL, O_PERCENTAGE },
		{ "stdio", no_argument, NULL, O_STDIO },
		{ "no-tui", no_argument, NULL, O_STDIO },
		{ "tui", no_argument, NULL, O_TUI },
		{ "flame-by", required_argument, NULL, O_FLAMEBY },
		{ "graph-layout", required_argument, NULL, O_GLAYOUT },
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-demangle", no_argument, NULL, O_NODEMANGLE },
		{ "demangle", no_argument, NULL, O_DEMANGLE },
		{ "demangle-kernel", no_argument, NULL, O_DEMANGLE_KERNEL },
		{ "verbose", no_argument, NULL, 'v' },
		{ "header-only", no_argument, NULL, O_HEADER_ONLY },
		{ "threads", optional_argument, NULL, 'T' },
		CLI_JOBS_OPTIONS,
		{ "color", required_argument, NULL, O_COLOR },
		{ "wall", no_argument, NULL, O_WALL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o;
	struct prof_load_opts lo;
	const char *path = NULL, *out = NULL, *sort = "comm,dso,sym", *color = "auto";
	const struct export_format *fmt = export__formats[0];
	int force = 0, c, rc = CLI_EXIT_OK, wall = 0, verbose = 0, header_only = 0, threads = 0;
	int tui = -1;
	char *end;

	memset(&o, 0, sizeof(o));
	memset(&lo, 0, sizeof(lo));
	o.callgraph = -1;
	o.cg_threshold = 0.5;
	o.inline_frames = 1;
	o.cg_layout = REPORT_CG_ENTRY;
	profile__filter_init(&o.flt);
	lo.sym.demangle = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:s:n:g::z:F:o:fhbk:vTj:", opts, NULL)) != -1) {
		switch (c) {
		case 'i': path = cli_file_arg("-i", optarg); break;
		case O_FOLLOW: lo.follow = 1; break;
		case 's': sort = optarg; break;
		case O_CHILDREN: o.children = 1; break;
		case O_NOCHILDREN: o.children = 0; break;
		case O_PLIMIT: o.percent_limit = cli_parse_percent(optarg, "--percent-limit"); break;
		case 'n':
			o.max_entries = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || o.max_entries < 0)
				cli_usage_error("-n/--max: '%s' is not a count (-n N: at most N entries; "
				    "the Samples column perf's -n adds is always shown)", optarg);
			break;
		case 'g': {
			const char *note;
			/* perf takes "-g caller,0.5" as well as "-g=...": report
			 * has no operands, so a word after -g is its argument */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				optarg = argv[optind++];
			if (report__parse_callgraph(&o, optarg, &note) != 0)
				cli_usage_error("-g/--call-graph: %s", pmc_errmsg());
			if (note)
				cli_warn("%s", note);
			break;
		}
		case 'z':
		case O_MAXSTACK:
			o.cg_depth = (int)strtol(optarg, &end, 10);
			if (end == optarg || *end || o.cg_depth < 0)
				cli_usage_error("%s: '%s' is not a depth", c == 'z' ? "--depth" :
				    "--max-stack", optarg);
			if (c == 'z' && o.callgraph < 0)
				o.callgraph = TREE_CALLER;
			break;
		case O_PERCENTAGE:
			if (strcmp(optarg, "relative") == 0)
				o.relative = 1;
			else if (strcmp(optarg, "absolute") == 0)
				o.relative = 0;
			else
				cli_usage_error("--percentage: '%s' is not relative or absolute", optarg);
			break;
		case O_STDIO: tui = 0; break;
		case O_TUI: tui = 1; break;
		case O_GLAYOUT:
			if (strcmp(optarg, "perf") && strcmp(optarg, "tree"))
				cli_usage_error("--graph-layout: '%s' is not perf or tree", optarg);
			o.cg_layout = !strcmp(optarg, "perf") ? REPORT_CG_ENTRY : REPORT_CG_TREE;
			break;
		case O_FLAMEBY:
			o.flame_by = !strcmp(optarg, "comm") ? TREE_ROOT_COMM : !strcmp(optarg, "pid") ?
			    TREE_ROOT_PID : !strcmp(optarg, "tid") ? TREE_ROOT_TID : 0;
			if (!o.flame_by)
				cli_usage_error("--flame-by: '%s' is not comm, pid or tid", optarg);
			break;
		case 'b':
			cli_usage_error("-b: pmc report has no -b; perf's -b (--branch-stack) needs "
			    "branch stacks, which pmc does not record");
		case O_NOINLINE: o.inline_frames = 0; break;
		case 'F':
			if (!(fmt = export__find(optarg))) {
				char names[256];
				export__names(names, sizeof(names));
				cli_usage_error("-F/--format: '%s' is not one of %s%s", optarg, names,
				    strchr(optarg, ',') || strstr(optarg, "overhead") ||
				    strstr(optarg, "sym") ?
				    " (perf's -F/--fields: choose the columns with -s/--sort)" : "");
			}
			break;
		case 'o': out = cli_file_arg("-o", optarg); break;
		case 'f': force = 1; break;
		case O_NODEMANGLE: lo.sym.demangle = 0; break;
		case O_DEMANGLE: lo.sym.demangle = 1; break;
		case O_DEMANGLE_KERNEL: lo.sym.demangle_kernel = 1; break;
		case 'v': verbose = 1; break;
		case O_HEADER_ONLY: header_only = 1; break;
		case 'T':
			if (optarg)
				lo.threads = cli_parse_jobs(optarg, "--threads");
			else
				threads = 1;
			break;
		case 'j': lo.threads = cli_parse_jobs(optarg, "-j/--jobs"); break;
		case O_COLOR: color = optarg; break;
		case O_WALL: wall = 1; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default:
			if (!cli_filter_option(&o.flt, &lo.sym, c, optarg))
				cli_bad_option(c, argv);
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s' (the log is given with -i)", argv[optind]);
	cli_filter_check(&o.flt, &lo.sym);
	if (!path)
		path = cli_default_input();
	if (verbose && lo.sym.demangle)
		lo.sym.demangle = 2;        /* perf -v: DMGL_PARAMS */
	char tsort[300];
	if (threads) {
		snprintf(tsort, sizeof(tsort), "pid,tid,%s", sort);
		sort = tsort;
	}
	if (report__parse_sort(&o, sort) != 0)
		cli_usage_error("--sort: %s", pmc_errmsg());
	if (fmt->binary && (!out || !strcmp(out, "-"))) {
		char what[64];
		snprintf(what, sizeof(what), "a binary %s profile", fmt->name);
		cli_refuse_binary_tty(what);
	}

	tui = report_use_tui(tui, fmt->terminal && !out && !header_only);

	struct outfile of;
	FILE *f = cli_open_output(&of, out, force);
	o.color = cli_parse_color(color, fmt->terminal && f == stdout && cli_use_color(stdout));
	o.input_name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	o.warning = kcache__refused;   /* the kernel-symbol cache's directory refused */

	int tty = isatty(2);
	if (tty)
		lo.progress = progress;
	/* what the format reads: whole stacks or leaves, in which order, sums */
	export__load_opts(fmt, &o, &lo);
	if (tui)
		lo.leaf_only = 0;           /* the browser expands call graphs */
	if (header_only)
		lo.leaf_only = 1;           /* no sample is printed */
	struct profile *p;
	if (profile__load(&p, cli_fifo_input(path), &lo) != 0) {
		if (tty)
			fprintf(stderr, "\r\033[K");
		cli_warn("%s: %s", o.input_name, pmc_errmsg());
		cli_discard_output(&of);
		return CLI_EXIT_FAIL;
	}
	if (wall && offcpu__wall(p) != 0) {
		cli_warn("%s: %s", o.input_name, pmc_errmsg());
		cli_discard_output(&of);
		profile__free(p);
		return CLI_EXIT_FAIL;
	}
	if (header_only) {
		if (tty)
			fprintf(stderr, "\r\033[K");
		fprintf(f, "# pmc report: %s (%s)\n", o.input_name, p->input_kind);
		report__header_lines(f, p, "# ");
		rc = cli_close_output(&of, f, ferror(f)) != 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
		profile__free(p);
		return rc;
	}
	if (tty) {
		fprintf(stderr, "\r\033[Kpmc report: resolving symbols...");
		profile__resolve(p);
		fprintf(stderr, "\r\033[K");
	}
	int r = 0;
	if (!tui)
		r = fmt->fn(f, p, &o);
	else if (report_tui(p, &o) < 0)
		rc = CLI_EXIT_FAIL;
	if (r == 0)
		r = profile__nomem(p);
	if (cli_close_output(&of, f, r != 0) != 0)
		rc = CLI_EXIT_FAIL;
	if (p->truncated[0]) {
		cli_warn("%s: %s", o.input_name, p->truncated);
		rc = CLI_EXIT_FAIL;
	}
	profile__free(p);
	return rc;
}
