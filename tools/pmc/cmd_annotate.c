/*
 * cmd_annotate.c — `pmc annotate SYMBOL`: where in one function the samples
 * fell, per instruction and per source line (pmcannotate, perf annotate).
 * The work is in analysis/report/annotate.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"
#include "report/annotate.h"
#include "report/report.h"

static void usage(FILE *f)
{
	fprintf(f,
	    "usage: pmc annotate [-i FILE] [options] SYMBOL\n"
	    "\n"
	    "Show where the samples of one function fell: per instruction (the\n"
	    "binary's code, disassembled) and per source line, with the source text\n"
	    "when the file is on this machine.\n"
	    "\n"
	    "  -i, --input FILE       the log (default: standard input if it is a pipe,\n"
	    "                         else pmc.log, else perf.data; '-': standard input)\n"
	    "  -d, --dso NAME         the function in this binary (name or path)\n"
	    "      --pid LIST, --tid LIST, --cpu LIST, --comm LIST\n"
	    "                         count only these samples\n"
	    CLI_TIME_HELP
	    CLI_SYMBOL_HELP
	    CLI_JOBS_HELP
	    "      --threads N        the same as -j N\n"
	    "      --no-source        no per-source-line section\n"
	    "      --source-only      only the per-source-line section\n"
	    "  -o, --output FILE      write there (-f to overwrite)\n"
	    "      --color WHEN       always, never, auto\n"
	    "      --stdio            accepted (perf's): text is the only output\n"
	    "      --tui              refused: use pmc report --tui and its a key\n"
	    "  -h, --help             this help\n"
	    "\n"
	    "Exit status: 0; 1 no such function with samples, or the log cannot be\n"
	    "read; 2 a usage error.\n");
}

int cmd_annotate(int argc, char **argv)
{
	enum { O_NOSRC = 256, O_SRCONLY, O_COLOR, O_STDIO, O_TUI };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "dso", required_argument, NULL, 'd' },
		CLI_FILTER_TASK_OPTIONS,
		CLI_SYMBOL_OPTIONS,
		CLI_JOBS_OPTIONS,
		{ "threads", required_argument, NULL, 'j' },
		{ "no-source", no_argument, NULL, O_NOSRC },
		{ "source-only", no_argument, NULL, O_SRCONLY },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "color", required_argument, NULL, O_COLOR },
		{ "stdio", no_argument, NULL, O_STDIO },
		{ "tui", no_argument, NULL, O_TUI },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct annotate_opts o;
	struct prof_load_opts lo;
	const char *path = NULL, *out = NULL, *color = "auto";
	int c, force = 0, rc = CLI_EXIT_OK;

	memset(&o, 0, sizeof(o));
	memset(&lo, 0, sizeof(lo));
	o.source = o.asm_ = 1;
	profile__filter_init(&o.flt);
	lo.sym.demangle = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:d:o:fhk:j:", opts, NULL)) != -1) {
		switch (c) {
		case 'i': path = cli_file_arg("-i", optarg); break;
		case 'd': o.dso = optarg; break;
		case O_NOSRC: o.source = 0; break;
		case O_SRCONLY: o.asm_ = 0; break;
		case 'o': out = cli_file_arg("-o", optarg); break;
		case 'f': force = 1; break;
		case O_COLOR: color = optarg; break;
		case O_STDIO: break;
		case O_TUI: cli_no_tui();
		case 'j': lo.threads = cli_parse_jobs(optarg, "-j/--jobs"); break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default:
			if (!cli_filter_option(&o.flt, &lo.sym, c, optarg))
				cli_bad_option(c, argv);
		}
	}
	cli_filter_check(&o.flt, &lo.sym);
	if (optind >= argc)
		cli_usage_error("which function? (pmc annotate SYMBOL)");
	o.symbol = argv[optind++];
	if (!path)
		path = cli_default_input();
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	struct outfile of;
	FILE *f = cli_open_output(&of, out, force);
	o.color = cli_parse_color(color, f == stdout && cli_use_color(stdout));
	struct profile *p;
	const char *shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
	lo.sums = !o.flt.time.n;      /* annotate adds samples up per stack and context */
	if (profile__load(&p, cli_fifo_input(path), &lo) != 0) {
		cli_warn("%s: %s", shown, pmc_errmsg());
		cli_discard_output(&of);
		return CLI_EXIT_FAIL;
	}
	int r = annotate__print(f, p, &o);
	if (r == 0)
		r = profile__nomem(p);
	if (r != 0 && !ferror(f) && pmc_errcause() != PMC_CAUSE_NOMEM) {
		/* no such function, no disassembler: nothing to write, and an
		 * empty log's one answer is that it is truncated */
		if (!(p->truncated[0] && p->ns == 0))
			cli_warn("%s", pmc_errmsg());
		cli_discard_output(&of);
		rc = CLI_EXIT_FAIL;
	} else if (cli_close_output(&of, f, r != 0) != 0) {
		rc = CLI_EXIT_FAIL;
	}
	if (p->truncated[0]) {   /* as report and diff: a partial answer is a failure */
		cli_warn("%s: %s", shown, p->truncated);
		rc = CLI_EXIT_FAIL;
	}
	profile__free(p);
	return rc;
}
