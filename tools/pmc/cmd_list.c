/*
 * cmd_list.c — `pmc list`: every event this machine offers, by category
 * (perf list / pmccontrol -L), with a one-line description each, filtered by
 * glob; and `pmc list --classes`, the library's view of PMC classes
 * (pmccontrol -l style) through pmc_cpuinfo(3).  The catalogue comes from
 * lib/event, the same code that resolves -e specs, so anything listed parses.
 */
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "cli.h"
#include "common/grow.h"
#include "util/json.h"

struct entry {
	char *name, *desc, *category, *unit, *aliases;
};

struct catalogue {
	struct entry *v;
	size_t n, cap;
};

struct list_opts {
	int json, all, tracepoints, sim, classes;
	const char *category;         /* perf's "hw", "sw", ... (NULL: all) */
	char **globs;
	int nglobs;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmc list [options] [hw|sw|cache|tracepoint|pmu] [GLOB...]\n"
"       pmc list --classes [--backend NAME] [--json]\n"
"\n"
"List the events this machine offers, by category, with a one-line\n"
"description each: generic hardware, software, hardware cache, raw, each\n"
"sysfs PMU's events, tracepoints (a count per subsystem unless asked for),\n"
"ARMv8 PMUv3 events (for the sim backend) and vendor events from libpfm4\n"
"when the machine has a hardware PMU.  GLOBs (fnmatch, case-insensitive)\n"
"filter by name or alias, e.g. 'pmc list \"*cache*\" \"sched:*\"'.  A first word\n"
"hw (hardware), sw (software), cache (hwcache), tracepoint or pmu lists only\n"
"that category, as perf list's does (every tracepoint with 'tracepoint').\n"
"\n"
"  -a, --all            everything: every tracepoint and the ARMv8 events\n"
"      --tracepoints    list every tracepoint instead of a count per subsystem\n"
"      --backend NAME   linux (default) or sim; sim shows the ARMv8 events it models\n"
"  -l, --classes        PMC classes, counters per class, counter width and\n"
"                       capabilities, as libpmc reports them (pmc_cpuinfo)\n"
"      --json           one JSON array of {name, category, description, unit}\n"
"                       (with --classes: one JSON object)\n"
"  -h, --help           this help\n"
"\n"
"Exit status: 0 success, 1 failure (or no event matches the GLOBs), 2 usage error.\n");
}

static char *dupstr(const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	return d;
}

static int collect(const struct pmc_evinfo *ei, void *arg)
{
	struct catalogue *c = arg;

	if (GROW(c->v, c->n, c->cap) < 0)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	c->v[c->n].name = dupstr(ei->name);
	c->v[c->n].desc = dupstr(ei->desc);
	c->v[c->n].category = dupstr(ei->category);
	c->v[c->n].unit = dupstr(ei->unit);
	c->v[c->n].aliases = ei->aliases ? dupstr(ei->aliases) : NULL;
	c->n++;
	return 0;
}

static void free_catalogue(struct catalogue *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].desc);
		free(c->v[i].category);
		free(c->v[i].unit);
		free(c->v[i].aliases);
	}
	free(c->v);
}

/* Does any glob match the name or one of its aliases? */
static int glob_match(const struct list_opts *o, const struct entry *e)
{
	for (int g = 0; g < o->nglobs; g++) {
		if (fnmatch(o->globs[g], e->name, FNM_CASEFOLD) == 0)
			return 1;
		const char *a = e->aliases;
		while (a && *a) {
			char w[128];
			size_t n = strcspn(a, " ");
			if (n < sizeof(w)) {
				memcpy(w, a, n);
				w[n] = '\0';
				if (fnmatch(o->globs[g], w, FNM_CASEFOLD) == 0)
					return 1;
			}
			a += n;
			while (*a == ' ')
				a++;
		}
	}
	return 0;
}

/* Is entry e shown one by one? */
static int shown(const struct list_opts *o, const struct entry *e)
{
	int is_tp = !strcmp(e->category, "tracepoint");
	int is_arm = !strcmp(e->category, "armv8");

	if (o->category && strcmp(e->category, o->category) != 0)
		return 0;
	if (o->nglobs)
		return glob_match(o, e);
	if (is_tp)
		return o->tracepoints || o->all || o->category;
	if (is_arm)
		return o->all || o->sim;
	return 1;
}

static void print_aliases_name(const struct entry *e, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "%s", e->name);
	const char *a = e->aliases;

	while (a && *a && o < len) {
		size_t n = strcspn(a, " ");
		o += (size_t)snprintf(buf + o, len - o, " OR %.*s", (int)n, a);
		a += n;
		while (*a == ' ')
			a++;
	}
}

struct section {
	const char *category;
	const char *title;
};

/* Returns the number of sections printed. */
static int print_text(const struct list_opts *o, struct catalogue *c)
{
	int hw = pmc_host_has_hw_pmu() || o->sim;
	int color = cli_use_color(stdout);
	const char *b = color ? "\033[1m" : "", *r = color ? "\033[0m" : "";
	const struct section sections[] = {
		{ "hardware", hw ? "Hardware events" :
		  "Hardware events [not supported on this machine: no hardware PMU]" },
		{ "software", "Software events" },
		{ "cache", hw ? "Hardware cache events" :
		  "Hardware cache events [not supported on this machine: no hardware PMU]" },
		{ "raw", hw ? "Raw hardware encodings" :
		  "Raw hardware encodings [not supported on this machine: no hardware PMU]" },
		{ "pmu", "Kernel PMU events (/sys/bus/event_source/devices)" },
		{ "tracepoint", "Tracepoints" },
		{ "armv8", "ARMv8 PMUv3 common events (for the sim backend: --backend sim)" },
		{ "libpfm4", "Vendor events (libpfm4)" },
	};
	int any = 0;

	for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
		const char *cat = sections[s].category;
		size_t width = 0, count = 0, total = 0;
		char nb[512];

		if (o->category && strcmp(cat, o->category) != 0)
			continue;

		for (size_t i = 0; i < c->n; i++) {
			if (strcmp(c->v[i].category, cat))
				continue;
			total++;
			if (!shown(o, &c->v[i]))
				continue;
			print_aliases_name(&c->v[i], nb, sizeof(nb));
			if (strlen(nb) > width)
				width = strlen(nb);
			count++;
		}
		if (width > 44)
			width = 44;
		if (count) {
			printf("%s%s%s%s:\n", any ? "\n" : "", b, sections[s].title, r);
			any = 1;
			for (size_t i = 0; i < c->n; i++) {
				struct entry *e = &c->v[i];
				if (strcmp(e->category, cat) || !shown(o, e))
					continue;
				print_aliases_name(e, nb, sizeof(nb));
				printf("  %-*s  %s", (int)width, nb, e->desc);
				if (*e->unit)
					printf(" [%s]", e->unit);
				putchar('\n');
			}
		} else if (!strcmp(cat, "tracepoint") && total && !o->nglobs) {
			/* summary: a count per subsystem */
			size_t nsub = 0;
			printf("%s%s%s (%zu in all; --tracepoints or a glob such as 'sched:*' lists "
			       "them)%s:\n", any ? "\n" : "", b, sections[s].title, total, r);
			any = 1;
			for (size_t i = 0; i < c->n; ) {
				struct entry *e = &c->v[i];
				if (strcmp(e->category, cat)) {
					i++;
					continue;
				}
				size_t l = strcspn(e->name, ":"), n = 0, j = i;
				for (; j < c->n && !strcmp(c->v[j].category, cat) &&
				       strncmp(c->v[j].name, e->name, l) == 0 && c->v[j].name[l] == ':'; j++)
					n++;
				printf("  %-24.*s  %zu event%s\n", (int)l, e->name, n, n == 1 ? "" : "s");
				nsub++;
				i = j > i ? j : i + 1;
			}
			(void)nsub;
		}
	}
	return any;
}

/* Returns the number of events printed. */
static int print_json(const struct list_opts *o, struct catalogue *c)
{
	int count = 0;
	int first = 1;

	putchar('[');
	for (size_t i = 0; i < c->n; i++) {
		struct entry *e = &c->v[i];
		if (!shown(o, e))
			continue;
		printf("%s\n  {\"name\": ", first ? "" : ",");
		json__string(stdout, e->name);
		printf(", \"category\": ");
		json__string(stdout, e->category);
		printf(", \"description\": ");
		json__string(stdout, e->desc);
		printf(", \"unit\": ");
		json__string(stdout, e->unit);
		putchar('}');
		first = 0;
		count++;
	}
	printf("%s]\n", first ? "" : "\n");
	return count;
}

/* ---- --classes ----------------------------------------------------------- */
static void caps_string(uint32_t caps, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int bit = 0; bit < 32 && o < len; bit++) {
		if (!(caps & (1u << bit)))
			continue;
		const char *n = pmc_name_of_capability((enum pmc_caps)(1u << bit));
		if (n)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "", n);
	}
}

static int list_classes(const struct list_opts *o, const char *backend)
{
	const struct pmc_cpuinfo *ci;
	char caps[256];

	if (backend && pmc_backend_select(backend) < 0)
		cli_die(CLI_EXIT_FAIL, "cannot select backend '%s': %s", backend, pmc_errmsg());
	if (pmc_init() < 0)
		cli_die(CLI_EXIT_FAIL, "cannot initialise libpmc: %s", pmc_errmsg());
	if (pmc_cpuinfo(&ci) < 0)
		cli_die(CLI_EXIT_FAIL, "cannot read the PMC classes: %s", pmc_errmsg());
	if (o->json) {
		printf("{\"backend\": ");
		json__string(stdout, pmc_backend_name());
		printf(", \"cputype\": ");
		json__string(stdout, pmc_name_of_cputype(ci->pm_cputype));
		printf(", \"ncpu\": %u, \"npmc\": %u, \"classes\": [", ci->pm_ncpu, ci->pm_npmc);
		for (uint32_t i = 0; i < ci->pm_nclass && i < PMC_CLASS_MAX; i++) {
			const struct pmc_classinfo *c = &ci->pm_classes[i];
			caps_string(c->pm_caps, caps, sizeof(caps));
			printf("%s\n  {\"class\": ", i ? "," : "");
			json__string(stdout, pmc_name_of_class(c->pm_class));
			printf(", \"counters\": %u, \"width\": %u, \"caps\": ", c->pm_num, c->pm_width);
			json__string(stdout, caps);
			putchar('}');
		}
		printf("%s]}\n", ci->pm_nclass ? "\n" : "");
	} else {
		printf("backend %s, CPU type %s, %u CPU%s, %u PMC%s per CPU\n\n",
		       pmc_backend_name(), pmc_name_of_cputype(ci->pm_cputype), ci->pm_ncpu,
		       ci->pm_ncpu == 1 ? "" : "s", ci->pm_npmc, ci->pm_npmc == 1 ? "" : "s");
		printf("%-12s %8s %6s  %s\n", "CLASS", "COUNTERS", "WIDTH", "CAPABILITIES");
		for (uint32_t i = 0; i < ci->pm_nclass && i < PMC_CLASS_MAX; i++) {
			const struct pmc_classinfo *c = &ci->pm_classes[i];
			const char *name = pmc_name_of_class(c->pm_class);
			caps_string(c->pm_caps, caps, sizeof(caps));
			printf("%-12s %8u %6u  %s\n", name ? name : "?", c->pm_num, c->pm_width, caps);
		}
	}
	pmc_fini();
	return CLI_EXIT_OK;
}

int cmd_list(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "tracepoints", no_argument, NULL, 'T' },
		{ "backend", required_argument, NULL, 'B' },
		{ "classes", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct list_opts o;
	struct catalogue cat = { NULL, 0, 0 };
	const char *backend = NULL;
	int c;

	memset(&o, 0, sizeof(o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":alh", lopts, NULL)) != -1) {
		switch (c) {
		case 'a': o.all = 1; break;
		case 'T': o.tracepoints = 1; break;
		case 'B':
			if (strcmp(optarg, "linux") && strcmp(optarg, "sim"))
				cli_usage_error("unknown backend '%s' (linux or sim)", optarg);
			backend = optarg;
			o.sim = !strcmp(optarg, "sim");
			break;
		case 'l': o.classes = 1; break;
		case 'j': o.json = 1; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default:  cli_bad_option(c, argv);
		}
	}
	if (o.classes) {
		if (optind < argc)
			cli_usage_error("--classes takes no event globs (got '%s')", argv[optind]);
		return list_classes(&o, backend);
	}
	/* perf list's category words */
	static const char *const words[][2] = { { "hw", "hardware" }, { "hardware", "hardware" },
		{ "sw", "software" }, { "software", "software" }, { "cache", "cache" },
		{ "hwcache", "cache" }, { "tracepoint", "tracepoint" }, { "pmu", "pmu" } };
	for (size_t w = 0; optind < argc && w < sizeof(words) / sizeof(words[0]); w++)
		if (strcmp(argv[optind], words[w][0]) == 0) {
			o.category = words[w][1];
			optind++;
			break;
		}
	o.globs = argv + optind;
	o.nglobs = argc - optind;

	if (pmc_event_foreach(NULL, collect, &cat) != 0) {
		free_catalogue(&cat);
		cli_die(CLI_EXIT_FAIL, "cannot list events: %s", pmc_errmsg());
	}
	int found = o.json ? print_json(&o, &cat) : print_text(&o, &cat);
	free_catalogue(&cat);
	if (cli_flush_stdout(0) != 0)
		return CLI_EXIT_FAIL;
	if (!found && o.nglobs) {
		cli_warn("no event matches '%s'%s", o.globs[0],
			 o.nglobs > 1 ? " or the other globs" : "");
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}
