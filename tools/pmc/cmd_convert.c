/*
 * cmd_convert.c — `pmc convert`: perf.data to a pmc log, and a pmc log to
 * perf.data (analysis/perfdata does the work).  The input's format is found
 * by its magic; the output is the other format unless --to says.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"
#include "util/numfmt.h"
#include "perfdata/perfdata.h"

static void usage(FILE *f)
{
	fprintf(f,
	    "usage: pmc convert -i INPUT -o OUTPUT [--to pmc|perf] [-z] [-f]\n"
	    "\n"
	    "Convert between perf.data (what perf record writes) and the pmc log (what\n"
	    "pmc record writes).  The input's format is recognised by its magic; the\n"
	    "output is the other format.\n"
	    "\n"
	    "  -i, --input FILE    the input ('-': standard input; a pipe works, also\n"
	    "                      for perf's pipe mode: perf record -o - | pmc convert ...)\n"
	    "  -o, --output FILE   the output ('-': standard output; a perf.data written to\n"
	    "                      a pipe is in perf's pipe mode)\n"
	    "      --to FORMAT     pmc: write a pmc log (the input must be a perf.data);\n"
	    "                      perf: write a perf.data (the input must be a pmc log)\n"
	    "  -z, --zstd          a compressed pmc log (zstd frames)\n"
	    "  -f, --force         overwrite OUTPUT if it exists\n"
	    "  -h, --help          this help\n"
	    "\n"
	    "Exit status: 0 success; 1 the input is unreadable, damaged or truncated (what\n"
	    "could be read is converted), or the output cannot be written; 2 usage.\n");
}

int cmd_convert(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "to", required_argument, NULL, 'T' },
		{ "zstd", no_argument, NULL, 'z' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *in = NULL, *out = NULL, *to = NULL, *in_shown, *out_shown;
	int force = 0, zstd = 0, c, in_fd, out_fd, kind, is_perf, rc, truncated = 0;
	uint64_t ns = 0;
	char msg[512] = "";
	char nb[32];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:o:zfh", opts, NULL)) != -1) {
		switch (c) {
		case 'i': in = cli_file_arg("-i", optarg); break;
		case 'o': out = cli_file_arg("-o", optarg); break;
		case 'T': to = optarg; break;
		case 'z': zstd = 1; break;
		case 'f': force = 1; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default:  cli_bad_option(c, argv);
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (!in)
		cli_usage_error("no input (-i FILE, or -i - for standard input)");
	if (!out)
		cli_usage_error("no output (-o FILE, or -o - for standard output)");
	if (to && strcmp(to, "pmc") && strcmp(to, "perf"))
		cli_usage_error("--to takes 'pmc' or 'perf', not '%s'", to);
	if (zstd && to && !strcmp(to, "perf"))
		cli_usage_error("-z applies to pmc logs only");

	if (!strcmp(out, "-"))
		cli_refuse_binary_tty("a binary file");   /* both formats are */
	in_shown = strcmp(in, "-") == 0 ? "<stdin>" : in;
	out_shown = strcmp(out, "-") == 0 ? "<stdout>" : out;
	cli_fifo_begin(in, 0);
	in_fd = strcmp(in, "-") == 0 ? 0 : open(in, O_RDONLY | O_CLOEXEC);
	cli_fifo_end();
	if (in_fd < 0) {
		cli_warn("%s: cannot open: %s", in_shown, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	/* blame the input before an output is made for it */
	kind = perfdata__sniff_kind(in_fd);
	if (kind == -EISDIR)
		cli_warn("%s: cannot read: %s (a pmc log is a file)", in_shown, strerror(EISDIR));
	else if (kind < 0)
		cli_warn("%s: cannot read: %s", in_shown, strerror(-kind));
	else if (kind == PD_KIND_OTHER)
		cli_warn("%s: not a pmc log or a perf.data file", in_shown);
	else if (kind == PD_KIND_EMPTY)
		cli_warn("'%s' is empty: nothing to convert", in_shown);
	if (kind < 0 || kind == PD_KIND_OTHER || kind == PD_KIND_EMPTY) {
		if (in_fd != 0)
			close(in_fd);
		return CLI_EXIT_FAIL;
	}
	is_perf = kind == PD_KIND_PERF;
	if (!to)
		to = is_perf ? "pmc" : "perf";
	if (!strcmp(to, "pmc") && !is_perf) {
		cli_warn("%s: not a perf.data file (already a pmc log? use --to perf)", in_shown);
		return CLI_EXIT_FAIL;
	}
	if (!strcmp(to, "perf") && is_perf) {
		cli_warn("%s: is already a perf.data file", in_shown);
		return CLI_EXIT_FAIL;
	}
	struct outfile of = { .fd = -1 };
	if (strcmp(out, "-") == 0) {
		out_fd = 1;
	} else {
		cli_fifo_begin(out, 1);
		rc = outfile__open(&of, out, force ? OUTFILE_FORCE : 0, 0644);
		cli_fifo_end();
		if (rc < 0) {
			cli_warn("%s", pmc_errmsg());
			if (in_fd != 0)
				close(in_fd);
			return CLI_EXIT_FAIL;
		}
		out_fd = of.fd;
	}

	if (!strcmp(to, "pmc"))
		rc = perfdata__to_pmclog(in_fd, out_fd, zstd, &ns, &truncated);
	else
		rc = perfdata__from_pmclog(in_fd, out_fd, &ns, &truncated);
	/* the reason first: removing the output starts a new call */
	snprintf(msg, sizeof(msg), "%s", rc < 0 ? pmc_errmsg() : "");
	if (out_fd != 1 && rc < 0) {
		outfile__abort(&of);
	} else if (out_fd != 1 && outfile__commit(&of) < 0) {
		rc = -EIO;
		snprintf(msg, sizeof(msg), "%s", pmc_errmsg());
	}
	if (in_fd != 0)
		close(in_fd);
	if (rc < 0) {
		cli_warn("%s -> %s: %s", in_shown, out_shown, msg[0] ? msg : strerror(-rc));
		return CLI_EXIT_FAIL;
	}
	if (truncated) {
		cli_warn("%s: truncated; converted the records before the cut (%s samples)",
		    in_shown, numfmt__group_digits(ns, nb, sizeof(nb)));
		return CLI_EXIT_FAIL;
	}
	if (out_fd != 1 || isatty(2))
		fprintf(stderr, "%s: wrote %s (%s samples)\n", cli_prog, out_shown,
		    numfmt__group_digits(ns, nb, sizeof(nb)));
	return CLI_EXIT_OK;
}
