/*
 * cmd_diff.c — `pmc diff A B`: compare two logs (before / after): the
 * differential flat profile, or a differential flame graph with -F svg.
 * The work is in analysis/report/diff.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "cli.h"
#include "report/diff.h"
#include "report/report.h"

static void usage(FILE *f)
{
	fprintf(f,
	    "usage: pmc diff [options] BASELINE NEW\n"
	    "\n"
	    "Compare two logs (or perf.data files): each function's share of the\n"
	    "samples in both and the change, largest change first; or, with -F svg,\n"
	    "NEW's flame graph coloured by change (red grew, blue shrank).\n"
	    "\n"
	    "  -F, --format FMT       text (default), json, svg\n"
	    "      --percent-limit P  hide functions under P %% in both whose change is\n"
	    "                         under P points too\n"
	    "      --pid LIST, --tid LIST, --comm LIST, --dso LIST, --sym LIST, --cpu LIST\n"
	    "                         keep only these samples (in both logs; perf's\n"
	    "                         --comms, --dsos, --symbols too)\n"
	    CLI_TIME_HELP
	    CLI_SYMBOL_HELP
	    CLI_JOBS_HELP
	    "      --threads N        the same as -j N\n"
	    "      --no-inline        no inlined frames in the flame graph\n"
	    "  -o, --output FILE      write there (-f to overwrite)\n"
	    "      --color WHEN       always, never, auto\n"
	    "  -h, --help             this help\n"
	    "\n"
	    "Exit status: 0; 1 a log cannot be read or is cut short; 2 a usage error.\n");
}

int cmd_diff(int argc, char **argv)
{
	enum { O_PLIMIT = 256, O_NOINLINE, O_COLOR };
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "percent-limit", required_argument, NULL, O_PLIMIT },
		CLI_FILTER_TASK_OPTIONS,
		CLI_SYMBOL_OPTIONS,
		CLI_JOBS_OPTIONS,
		{ "threads", required_argument, NULL, 'j' },
		CLI_FILTER_FUNC_OPTIONS,
		{ "no-inline", no_argument, NULL, O_NOINLINE },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "color", required_argument, NULL, O_COLOR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_opts o;
	struct prof_load_opts lo;
	const char *out = NULL, *color = "auto";
	int c, force = 0, rc = CLI_EXIT_OK;

	memset(&o, 0, sizeof(o));
	memset(&lo, 0, sizeof(lo));
	profile__filter_init(&o.flt);
	o.inline_frames = 1;
	lo.sym.demangle = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":F:o:fhk:j:", opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (strcmp(optarg, "text") == 0)
				o.format = DIFF_TEXT;
			else if (strcmp(optarg, "json") == 0)
				o.format = DIFF_JSON;
			else if (strcmp(optarg, "svg") == 0)
				o.format = DIFF_SVG;
			else
				cli_usage_error("--format: '%s' is not text, json or svg", optarg);
			break;
		case O_PLIMIT: o.percent_limit = cli_parse_percent(optarg, "--percent-limit"); break;
		case O_NOINLINE: o.inline_frames = 0; break;
		case 'o': out = cli_file_arg("-o", optarg); break;
		case 'f': force = 1; break;
		case O_COLOR: color = optarg; break;
		case 'j': lo.threads = cli_parse_jobs(optarg, "-j/--jobs"); break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default:
			if (!cli_filter_option(&o.flt, &lo.sym, c, optarg))
				cli_bad_option(c, argv);
		}
	}
	cli_filter_check(&o.flt, &lo.sym);
	if (argc - optind != 2)
		cli_usage_error("give two logs: pmc diff BASELINE NEW");
	o.name_a = cli_file_arg("BASELINE", argv[optind]);
	o.name_b = cli_file_arg("NEW", argv[optind + 1]);
	if (!strcmp(o.name_a, "-") && !strcmp(o.name_b, "-"))
		cli_usage_error("standard input can be read once: give at most one log as '-'");
	struct outfile of;
	FILE *f = cli_open_output(&of, out, force);
	o.color = cli_parse_color(color, f == stdout && o.format == DIFF_TEXT && cli_use_color(stdout));
	struct profile *a, *b;
	lo.sums = !o.flt.time.n;      /* diff adds samples up per stack and context */
	if (profile__load(&a, o.name_a, &lo) != 0) {
		cli_warn("%s: %s", o.name_a, pmc_errmsg());
		cli_discard_output(&of);
		return CLI_EXIT_FAIL;
	}
	if (profile__load(&b, o.name_b, &lo) != 0) {
		cli_warn("%s: %s", o.name_b, pmc_errmsg());
		cli_discard_output(&of);
		profile__free(a);
		return CLI_EXIT_FAIL;
	}
	int r = diff__print(f, a, b, &o);
	if (r == 0 && (r = profile__nomem(a)) == 0)
		r = profile__nomem(b);
	if (cli_close_output(&of, f, r != 0) != 0)
		rc = CLI_EXIT_FAIL;
	if (a->truncated[0] || b->truncated[0]) {
		cli_warn("%s: %s", a->truncated[0] ? o.name_a : o.name_b,
		    a->truncated[0] ? a->truncated : b->truncated);
		rc = CLI_EXIT_FAIL;
	}
	profile__free(a);
	profile__free(b);
	return rc;
}
