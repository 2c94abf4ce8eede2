/*
 * cmd_exporter.c — `pmc exporter`: keep counters open and serve them to
 * Prometheus at /metrics (analysis/serve/exporter.h: the counters and the
 * OpenMetrics text; analysis/serve/httpd.h: the HTTP server), and CPU profiles
 * to fleet profilers at /debug/pprof/profile (analysis/serve/exporter_profile.h).
 * This file parses options and runs the loop.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"
#include "toolslib/evlist.h"
#include "target.h"
#include "serve/exporter.h"
#include "serve/exporter_profile.h"
#include "serve/httpd.h"
#include "sampling.h"

#define DEFAULT_LISTEN ":9464"
#define MAX_EVENTS 64
#define MAX_CGROUPS 64

/* Without -e: what perf stat counts by default, less what cannot be
 * counted on this machine (no PMU: the software events only). */
static const char default_events[] =
	"cycles,instructions,branches,branch-misses,cpu-clock,context-switches,"
	"cpu-migrations,page-faults";

static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmc exporter [-e EVENT[,EVENT...]]... [-a [-C CPUS] | -G CGROUP... | -p PIDS]\n"
"                    [-L ADDR] [-l SECONDS] [-F HZ] [--call-graph fp|dwarf[,SIZE]]\n"
"                    [--max-profile SECONDS]\n"
"\n"
"Keep counters open and serve them to Prometheus at http://ADDR/metrics in\n"
"the OpenMetrics text format (or Prometheus's text format 0.0.4, as the\n"
"scraper's Accept header asks): pmc_events_total (raw counts, monotonic),\n"
"pmc_event_enabled_seconds_total and pmc_event_running_seconds_total (to\n"
"correct for multiplexing), labelled event and cpu, cgroup, or pid and comm.\n"
"Without -e: cycles, instructions, branches, branch-misses, cpu-clock,\n"
"context-switches, cpu-migrations, page-faults (those this machine can count).\n"
"\n"
"Also serves CPU profiles at http://ADDR%s?seconds=N[&hz=HZ]\n"
"(Go's net/http/pprof convention: Parca, Grafana Alloy's pyroscope.scrape and\n"
"'go tool pprof' pull it): the same targets sampled on %s with call\n"
"chains for N seconds (default %d), symbolized here, answered as a gzipped\n"
"pprof profile with mappings and build ids.  One at a time: a request while\n"
"one runs gets 429 and Retry-After; a bad seconds or hz gets 400; /metrics is\n"
"answered meanwhile.\n"
"\n"
"  -e, --event=LIST      events to count (see 'pmc list'); repeatable\n"
"  -a, --all-cpus        count every CPU, one series per CPU (the default; needs\n"
"                        privilege)\n"
"  -C, --cpu=LIST        count only these CPUs (e.g. 0-3,6)\n"
"  -G, --cgroup=PATH     count only the tasks of this cgroup, per CPU; repeatable;\n"
"                        a path not starting with '/' is under /sys/fs/cgroup\n"
"  -p, --pid=PIDS        count these processes (all threads and children), one\n"
"                        series each; a process that exits leaves /metrics, and\n"
"                        when all have exited the exporter ends (status 0)\n"
"  -L, --listen=ADDR     HOST:PORT, [IPV6]:PORT or :PORT (every interface);\n"
"                        default %s; port 0 picks a free one\n"
"  -l, --duration=SECS   stop after SECS seconds (default: Ctrl-C or SIGTERM)\n"
"  -F, --freq=HZ         profiles' samples per second without ?hz= (default %d)\n"
"      --call-graph=MODE profiles' call chains: fp (frame pointers, the\n"
"                        default) or dwarf[,SIZE] (user stacks unwound from\n"
"                        DWARF CFI, SIZE bytes of stack per sample, default 8192)\n"
"      --max-profile=SECS the most ?seconds= may ask (default %d; 1-86400)\n"
"  -h, --help            this help\n"
"\n"
"The address served is printed on standard error.  Exit status: 0 after\n"
"Ctrl-C, SIGTERM, -l, or the last -p process; 1 a runtime failure (the port\n"
"is in use, counters cannot be opened); 2 a usage error.\n", XPROFILE_PATH,
	    XPROFILE_EVENT, XPROFILE_DEFAULT_SECS, DEFAULT_LISTEN, XPROFILE_DEFAULT_HZ,
	    XPROFILE_MAX_SECS);
}

struct served {
	struct exporter *ex;
	struct xprofile *xp;
};

static void handler(void *arg, const struct httpd_request *rq, struct httpd_response *rs)
{
	struct served *sv = arg;
	struct exporter *ex = sv->ex;

	if (!strcmp(rq->path, XPROFILE_PATH)) {
		xprofile__handle(sv->xp, rq, rs);
	} else if (!strcmp(rq->path, "/metrics")) {
		int fmt = exporter__negotiate(rq->accept);
		if (exporter__render(ex, fmt, &rs->body, &rs->len) < 0) {
			rs->status = 500;
			return;
		}
		rs->status = 200;
		rs->content_type = fmt == EXPORTER_OPENMETRICS ? EXPORTER_CT_OPENMETRICS :
		    EXPORTER_CT_TEXT_004;
	} else if (!strcmp(rq->path, "/")) {
		static const char page[] = "pmc exporter: the counters are at /metrics, CPU "
		    "profiles at " XPROFILE_PATH "?seconds=N\n";
		if ((rs->body = strdup(page)) != NULL) {
			rs->len = sizeof(page) - 1;
			rs->status = 200;
		} else {
			rs->status = 500;
		}
	}
}

int cmd_exporter(int argc, char **argv)
{
	enum { OPT_CALL_GRAPH = 256, OPT_MAX_PROFILE };
	static const struct option lopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "listen", required_argument, NULL, 'L' },
		{ "freq", required_argument, NULL, 'F' },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "max-profile", required_argument, NULL, OPT_MAX_PROFILE },
		CLI_TARGET_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct cli_target tgt;
	char *events[MAX_EVENTS], *cgroups[MAX_CGROUPS];
	int nev = 0, ncg = 0, c, usage_err = 0;
	const char *listen_addr = DEFAULT_LISTEN;
	char skipped[512];
	struct cli_sampling cg;          /* --call-graph, parsed as record's */
	uint64_t hz = XPROFILE_DEFAULT_HZ, max_profile = XPROFILE_MAX_SECS;

	memset(&tgt, 0, sizeof(tgt));
	memset(&cg, 0, sizeof(cg));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":e:G:L:F:h" CLI_TARGET_OPTSTRING, lopts, NULL)) != -1) {
		switch (c) {
		case 'e': {
			char **specs;
			int n;
			if (evlist__split(optarg, &specs, &n) < 0)
				cli_usage_error("bad event list '%s': %s", optarg, pmc_errmsg());
			for (int i = 0; i < n; i++) {
				if (nev == MAX_EVENTS)
					cli_usage_error("too many events (at most %d)", MAX_EVENTS);
				if (specs[i][0] == '{')
					cli_usage_error("event groups are not served ('%s')", specs[i]);
				events[nev++] = strdup(specs[i]);
			}
			evlist__free(specs, n);
			break;
		}
		case 'G': {
			char path[4096];
			if (ncg == MAX_CGROUPS)
				cli_usage_error("too many cgroups (at most %d)", MAX_CGROUPS);
			if (!*optarg)
				cli_usage_error("-G needs a cgroup path");
			snprintf(path, sizeof(path), "%s%s", optarg[0] == '/' ? "" :
			    "/sys/fs/cgroup/", optarg);
			cgroups[ncg++] = strdup(path);
			break;
		}
		case 'L': listen_addr = optarg; break;
		case 'F': hz = cli_parse_u64(optarg, "frequency"); break;
		case OPT_CALL_GRAPH: cli_sampling_call_graph(&cg, optarg); break;
		case OPT_MAX_PROFILE:
			max_profile = cli_parse_u64(optarg, "number of seconds");
			if (max_profile > 86400)
				cli_usage_error("--max-profile: '%s' is more than a day (86400 s)",
				    optarg);
			break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default:
			if (!cli_target_option(&tgt, c, optarg))
				cli_bad_option(c, argv);
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s' (pmc exporter runs no command; "
		    "count it with -p PID)", argv[optind]);
	if (tgt.threads)
		cli_usage_error("-t: threads are not served; use -p with the process");
	if (tgt.npids && (tgt.system_wide || ncg))
		cli_usage_error("-p counts processes; -a, -C and -G count CPUs: give one or "
		    "the other");
	if (ncg && tgt.system_wide && !tgt.cpu_list)
		cli_usage_error("-G counts a cgroup on every CPU already; -a is not needed");
	if (!tgt.npids && !ncg)
		tgt.system_wide = 1;
	int default_list = nev == 0;
	if (default_list) {
		char **specs;
		int n;
		evlist__split(default_events, &specs, &n);
		for (int i = 0; i < n; i++)
			events[nev++] = strdup(specs[i]);
		evlist__free(specs, n);
	}

	cli_catch_stop_signals(on_signal);   /* poll returns */
	signal(SIGPIPE, SIG_IGN);

	struct httpd *h = httpd__listen(listen_addr, &usage_err);
	if (!h) {
		if (usage_err)
			cli_usage_error("-L: %s", pmc_errmsg());
		cli_die(CLI_EXIT_FAIL, "%s", pmc_errmsg());
	}
	if (pmc_init() < 0) {
		httpd__close(h);
		cli_die(CLI_EXIT_FAIL, "cannot initialise libpmc: %s", pmc_errmsg());
	}
	struct exporter_opts eo = {
		.events = events, .nevents = nev, .skip_unsupported = default_list,
		.system_wide = tgt.system_wide, .cpus = tgt.cpu_list ? tgt.cpus : NULL,
		.ncpus_set = CLI_MAX_CPUS, .pids = tgt.pids, .npids = tgt.npids,
		.cgroups = cgroups, .ncgroups = ncg,
	};
	struct exporter *ex;
	if (exporter__open(&ex, &eo, &usage_err, skipped, sizeof(skipped)) < 0) {
		httpd__close(h);     /* no public call: the reason stays */
		if (usage_err)
			cli_usage_error("%s", pmc_errmsg());
		cli_die(CLI_EXIT_FAIL, "%s", pmc_errmsg());
	}
	if (skipped[0])
		cli_warn("not counted here: %s (%s)", skipped, "this machine cannot count them");
	const struct xprofile_opts xo = {
		.hz = hz, .ustack = cg.ustack, .max_seconds = (int)max_profile,
		.system_wide = tgt.system_wide, .cpus = tgt.cpu_list ? tgt.cpus : NULL,
		.ncpus_set = CLI_MAX_CPUS, .pids = tgt.pids, .npids = tgt.npids,
		.cgroups = cgroups, .ncgroups = ncg,
	};
	struct served sv = { ex, NULL };
	if (xprofile__new(&sv.xp, &xo, h) < 0) {
		exporter__close(ex);
		httpd__close(h);
		cli_die(CLI_EXIT_FAIL, "%s", pmc_errmsg());
	}
	/* always said, terminal or not: with port 0 it is how to find us */
	fprintf(stderr, "%s: serving http://%s/metrics\n", cli_prog, httpd__address(h));
	fflush(stderr);

	int rc = CLI_EXIT_OK;
	uint64_t end = tgt.duration > 0 ? pmc_clock_ns() + (uint64_t)(tgt.duration * 1e9) : 0;
	while (!got_signal) {
		if (httpd__serve(h, 500, handler, &sv) < 0 && errno != EINTR) {
			cli_warn("serving failed: %s", strerror(errno));
			rc = CLI_EXIT_FAIL;
			break;
		}
		xprofile__poll(sv.xp);
		if (exporter__live(ex) == 0) {
			cli_warn("every process counted has exited; stopping");
			break;
		}
		if (end && pmc_clock_ns() >= end)
			break;
	}
	xprofile__free(sv.xp);
	exporter__close(ex);
	httpd__close(h);
	pmc_fini();
	for (int i = 0; i < nev; i++)
		free(events[i]);
	for (int i = 0; i < ncg; i++)
		free(cgroups[i]);
	cli_target_free(&tgt);
	return rc;
}
