/*
 * cmd_control.c — `pmc control`: pmccontrol(8) on Linux.  Lists the PMC
 * classes and their events (-L), the counter rows of every CPU with their
 * disposition (-l), the library's statistics and tunables (-s), and takes
 * rows in and out of service (-e / -d, with -c CPU).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "cli.h"
#include "toolslib/tunables.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmc control [-b BACKEND] -L | -l | -s | [-c CPU|*] (-e ROW|* | -d ROW|*)...\n"
"\n"
"pmccontrol(8) for libpmc.\n"
"  -L            list the PMC classes and the events of each\n"
"  -l            list every CPU's PMC rows: class, state, disposition, owner\n"
"  -s            the library's statistics and tunables (hwpmc's sysctls)\n"
"  -c CPU        the CPU the following -e/-d apply to ('*' = all, the default)\n"
"  -e ROW        put PMC row ROW back in service ('*' = all rows)\n"
"  -d ROW        take PMC row ROW out of service (needs root)\n"
"  -b, --backend linux (default) or sim\n"
"  -h, --help    this help\n"
"\n"
"Statistics are this process's (libpmc has no kernel module to keep global\n"
"counts); run a measurement through the library to see them move.\n");
}

static int list_classes(void)
{
	const struct pmc_cpuinfo *ci;

	if (pmc_cpuinfo(&ci) < 0)
		cli_die(CLI_EXIT_FAIL, "%s", pmc_errmsg());
	for (uint32_t i = 0; i < ci->pm_nclass; i++) {
		const char **names;
		int n;
		printf("%s\n", pmc_name_of_class(ci->pm_classes[i].pm_class));
		if (pmc_event_names_of_class(ci->pm_classes[i].pm_class, &names, &n) < 0)
			continue;        /* dynamic classes: see 'pmc list' */
		for (int k = 0; k < n; k++)
			printf("\t%s\n", names[k]);
		free(names);
	}
	return 0;
}

static int list_rows(void)
{
	const struct pmc_cpuinfo *ci;

	if (pmc_cpuinfo(&ci) < 0)
		cli_die(CLI_EXIT_FAIL, "%s", pmc_errmsg());
	printf("%u %s CPUs present, with %u PMCs per CPU\n", ci->pm_ncpu,
	    pmc_name_of_cputype(ci->pm_cputype) ? pmc_name_of_cputype(ci->pm_cputype) : "?",
	    ci->pm_npmc);
	for (int c = 0; c < (int)ci->pm_ncpu; c++) {
		struct pmc_pmcinfo *pi;
		if (pmc_pmcinfo(c, &pi) < 0) {
			if (errno == ENXIO)
				continue;    /* offline */
			cli_die(CLI_EXIT_FAIL, "CPU %d: %s", c, pmc_errmsg());
		}
		printf("#CPU %d:\n#N  NAME             CLASS      STATE    ROW-DISP\n", c);
		for (uint32_t r = 0; r < ci->pm_npmc; r++) {
			struct pmc_info *p = &pi->pm_pmcs[r];
			printf("%-3u %-16s %-10s %-8s %s", r, p->pm_name, pmc_name_of_class(p->pm_class),
			    p->pm_enabled ? "ENABLED" : "DISABLED",
			    pmc_name_of_disposition(p->pm_rowdisp));
			if (p->pm_ownerpid != -1) {
				const char *ev = pmc_name_of_event(p->pm_event);
				printf(" (pid %d) %s", (int)p->pm_ownerpid, ev ? ev : "?");
				if (PMC_IS_SAMPLING_MODE(p->pm_mode))
					printf(" (reload count %llu)",
					    (unsigned long long)p->pm_reloadcount);
			}
			putchar('\n');
		}
		free(pi);
	}
	return 0;
}

static int show_stats(void)
{
	struct pmc_driverstats s;
	long v;

	if (pmc_get_driver_stats(&s) < 0)
		cli_die(CLI_EXIT_FAIL, "%s", pmc_errmsg());
#define P(label, f) printf("%-40s %u\n", label, s.f)
	P("interrupts processed:", pm_intr_processed);
	P("non-PMC interrupts:", pm_intr_ignored);
	P("sampling stalls due to space shortages:", pm_intr_bufferfull);
	P("system calls:", pm_syscalls);
	P("system calls with errors:", pm_syscall_errors);
	P("buffer requests:", pm_buffer_requests);
	P("buffer requests failed:", pm_buffer_requests_failed);
	P("sampling log sweeps:", pm_log_sweeps);
#undef P
	printf("\n");
	for (int i = 0; tunable__name(i); i++)
		if (tunable__get(tunable__name(i), &v) == 0)
			printf("kern.hwpmc.%-28s %ld\n", tunable__name(i), v);
	printf("%-39s %s\n", "backend:", pmc_backend_name());
	return 0;
}

static int parse_num(const char *s, int max, const char *what)
{
	char *end;
	long v;
	if (!strcmp(s, "*"))
		return -1;
	v = strtol(s, &end, 10);
	if (end == s || *end || v < 0 || v >= max)
		cli_usage_error("'%s' is not a %s (0-%d or '*')", s, what, max - 1);
	return (int)v;
}

int cmd_control(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct act { char op; int cpu; const char *row; } acts[256];
	int nact = 0, c, cpu = -1, rc = 0;
	const char *backend = NULL, *cpu_arg = NULL;
	int do_L = 0, do_l = 0, do_s = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":Llsc:e:d:b:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'L': do_L = 1; break;
		case 'l': do_l = 1; break;
		case 's': do_s = 1; break;
		case 'c': cpu_arg = optarg; break;
		case 'e': case 'd':
			if (nact == 256)
				cli_usage_error("too many -e/-d");
			acts[nact].op = (char)c;
			acts[nact].row = optarg;
			acts[nact++].cpu = cpu_arg && strcmp(cpu_arg, "*") ? atoi(cpu_arg) : -1;
			if (cpu_arg && strcmp(cpu_arg, "*")) {
				char *end;
				long v = strtol(cpu_arg, &end, 10);
				if (end == cpu_arg || *end || v < 0)
					cli_usage_error("'%s' is not a CPU number", cpu_arg);
			}
			break;
		case 'b': backend = optarg; break;
		case 'h': usage(stdout); return 0;
		default:  cli_bad_option(c, argv);
		}
	}
	if (optind < argc)
		cli_usage_error("unexpected argument '%s'", argv[optind]);
	if (!do_L && !do_l && !do_s && !nact)
		cli_usage_error("nothing to do: give -L, -l, -s, -e or -d");
	if (backend && pmc_backend_select(backend) < 0)
		cli_usage_error("%s", pmc_errmsg());
	if (pmc_init() < 0)
		cli_die(CLI_EXIT_FAIL, "cannot initialise libpmc: %s", pmc_errmsg());
	int ncpu = pmc_ncpu(), npmc = pmc_npmc(0);
	for (int i = 0; i < nact; i++) {
		if (acts[i].cpu >= ncpu)
			cli_usage_error("CPU %d does not exist (CPUs 0-%d)", acts[i].cpu, ncpu - 1);
		int row = parse_num(acts[i].row, npmc, "PMC row");
		for (cpu = 0; cpu < ncpu; cpu++) {
			if (acts[i].cpu >= 0 && cpu != acts[i].cpu)
				continue;
			for (int r = 0; r < npmc; r++) {
				if (row >= 0 && r != row)
					continue;
				int x = acts[i].op == 'e' ? pmc_enable(cpu, r) : pmc_disable(cpu, r);
				if (x < 0 && !(errno == ENXIO && acts[i].cpu < 0)) {
					cli_warn("cannot %s row %d on CPU %d: %s",
					    acts[i].op == 'e' ? "enable" : "disable", r, cpu, pmc_errmsg());
					rc = CLI_EXIT_FAIL;
				}
			}
		}
	}
	if (do_L)
		list_classes();
	if (do_l)
		list_rows();
	if (do_s)
		show_stats();
	pmc_fini();
	return rc;
}
