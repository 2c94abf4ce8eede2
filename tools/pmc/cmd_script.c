/*
 * cmd_script.c — `pmc script`: every sample of a pmc log or perf.data,
 * symbolized, one line each in perf script's format (or JSON lines).  The
 * formatting is analysis/report/script.c; the filters are report's.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"
#include "report/report.h"
#include "report/script.h"

static void usage(FILE *f)
{
	fprintf(f,
	    "usage: pmc script [-i FILE] [options]\n"
	    "\n"
	    "Print every sample of a pmc log (or a perf.data file), symbolized, one per\n"
	    "line in time order, in perf script's default format: what tools written\n"
	    "for perf script (stackcollapse-perf.pl ...) read.  Samples with call\n"
	    "chains take perf's multi-line form (one '\\t  ADDR SYM+OFF (DSO)' line per\n"
	    "frame, then a blank line).\n"
	    "\n"
	    "  -i, --input FILE       the log (default: standard input if it is a pipe,\n"
	    "                         else pmc.log, else perf.data; '-': standard input)\n"
	    "  -F, --fields LIST      comma list of comm,tid,pid,time,cpu,event,period,\n"
	    "                         ip,sym,symoff,dso,callchain (perf's names; the\n"
	    "                         default is perf's: comm,tid,time,period,event,ip,\n"
	    "                         sym,symoff,dso, and cpu for system-wide events);\n"
	    "                         '+pid,-period' adds to or takes from the default\n"
	    "  -G, --hide-call-graph  one line per sample even with call chains\n"
	    "      --no-inline        no inlined functions in call chains (they are\n"
	    "                         shown as perf does: '(inlined)' for the DSO)\n"
	    "      --show-task-events print COMM, FORK and EXIT records too\n"
	    "      --show-mmap-events print MMAP records too\n"
	    "      --ns               times with nanoseconds\n"
	    "      --format FMT       text (default) or json (one object per line)\n"
	    "      --pid LIST, --tid LIST, --comm LIST, --dso LIST, --sym LIST\n"
	    "                         keep only these samples (comma lists, as pmc\n"
	    "                         report's; perf's --comms, --dsos, --symbols too)\n"
	    "  -C, --cpu LIST         keep the samples of these CPUs\n"
	    CLI_TIME_HELP
	    CLI_SYMBOL_HELP
	    CLI_JOBS_HELP
	    "      --threads N        the same as -j N\n"
	    "  -o, --output FILE      write there (default standard output)\n"
	    "  -f, --force            overwrite FILE\n"
	    "      --no-demangle      keep C++/Rust names mangled (--demangle: the\n"
	    "                         default, names without parameter lists, as perf's)\n"
	    "      --demangle-kernel  demangle kernel symbols too (Rust in the kernel)\n"
	    "  -v, --verbose          C++ names with their parameter lists (perf's -v)\n"
	    "      --header           the recording's header lines ('# ...') first\n"
	    "  -h, --help             this help\n"
	    "\n"
	    "Exit status: 0; 1 the input could not be read, or was cut short (what was\n"
	    "read is printed); 2 a usage error.\n");
}

int cmd_script(int argc, char **argv)
{
	enum {
		O_TASK = 256, O_MMAP, O_NS, O_FORMAT, O_NODEMANGLE, O_NOINLINE, O_DEMANGLE, O_DEMANGLE_KERNEL, O_HEADER
	};
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "fields", required_argument, NULL, 'F' },
		{ "hide-call-graph", no_argument, NULL, 'G' },
		{ "show-task-events", no_argument, NULL, O_TASK },
		{ "show-mmap-events", no_argument, NULL, O_MMAP },
		{ "ns", no_argument, NULL, O_NS },
		{ "format", required_argument, NULL, O_FORMAT },
		CLI_FILTER_TASK_OPTIONS,
		CLI_SYMBOL_OPTIONS,
		CLI_JOBS_OPTIONS,
		{ "threads", required_argument, NULL, 'j' },
		CLI_FILTER_FUNC_OPTIONS,
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-demangle", no_argument, NULL, O_NODEMANGLE },
		{ "demangle", no_argument, NULL, O_DEMANGLE },
		{ "demangle-kernel", no_argument, NULL, O_DEMANGLE_KERNEL },
		{ "verbose", no_argument, NULL, 'v' },
		{ "header", no_argument, NULL, O_HEADER },
		{ "no-inline", no_argument, NULL, O_NOINLINE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct script_opts o;
	struct prof_load_opts lo;
	const char *path = NULL, *out = NULL, *name;
	int force = 0, c, rc = CLI_EXIT_OK, verbose = 0, header = 0;
	char err[512];

	script__init(&o);
	memset(&lo, 0, sizeof(lo));
	lo.sym.demangle = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:F:GC:o:fhk:vj:", opts, NULL)) != -1) {
		switch (c) {
		case 'i': path = cli_file_arg("-i", optarg); break;
		case 'F':
			if (script__parse_fields(&o, optarg, err, sizeof(err)) != 0)
				cli_usage_error("-F/--fields: '%s' is not one of %s (or all signed: "
				    "+FIELD,-FIELD)", err, script__field_names());
			break;
		case 'G': o.hide_callchain = 1; break;
		case O_TASK: o.show_task = 1; break;
		case O_MMAP: o.show_mmap = 1; break;
		case O_NS: o.nanosecs = 1; break;
		case O_FORMAT:
			if (strcmp(optarg, "json") == 0)
				o.json = 1;
			else if (strcmp(optarg, "text") != 0)
				cli_usage_error("--format: '%s' is not text or json", optarg);
			break;
		case 'C': cli_filter_option(&o.flt, &lo.sym, CLI_O_CPU, optarg); break;
		case 'o': out = cli_file_arg("-o", optarg); break;
		case 'f': force = 1; break;
		case O_NODEMANGLE: lo.sym.demangle = 0; break;
		case O_DEMANGLE: lo.sym.demangle = 1; break;
		case O_DEMANGLE_KERNEL: lo.sym.demangle_kernel = 1; break;
		case 'v': verbose = 1; break;
		case O_HEADER: header = 1; break;
		case O_NOINLINE: o.no_inline = 1; break;
		case 'j': lo.threads = cli_parse_jobs(optarg, "-j/--jobs"); break;
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
	name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	lo.sideband = o.show_task || o.show_mmap;
	if (verbose && lo.sym.demangle)
		lo.sym.demangle = 2;        /* perf -v: DMGL_PARAMS */
	/* perf script prints the 0 that ends a frame-pointer walk as a frame */
	lo.zero_frames = 1;

	struct outfile of;
	FILE *f = cli_open_output(&of, out, force);
	struct profile *p;
	if (profile__load(&p, cli_fifo_input(path), &lo) != 0) {
		cli_warn("%s: %s", name, pmc_errmsg());
		cli_discard_output(&of);
		return CLI_EXIT_FAIL;
	}
	if (header) {
		fprintf(f, "# pmc script: %s (%s)\n", name, p->input_kind);
		report__header_lines(f, p, "# ");
	}
	int r = script__print(f, p, &o);
	if (r == 0)
		r = profile__nomem(p);
	if (cli_close_output(&of, f, r != 0) != 0)
		rc = CLI_EXIT_FAIL;
	if (p->truncated[0]) {
		cli_warn("%s: %s", name, p->truncated);
		rc = CLI_EXIT_FAIL;
	}
	profile__free(p);
	return rc;
}
