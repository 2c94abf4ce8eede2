/*
 * cmd_stat.c — `pmc stat`: count events for a command, processes, threads
 * or CPUs (perf stat; pmcstat -p/-s).  Everything is done through the
 * public libpmc API: this file only decides what to count and prints it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmc.h"
#include "pmclog.h"
#include "cli.h"
#include "json.h"
#include "core/outfile.h"

#define MAX_EVENTS 64
#define MAX_CPUS   4096

struct ev {
	char *spec;
	int supported;                  /* 0: "<not supported>" */
	char why[256];
	pmc_id_t *ids;
	int nids;
	double scale;
	char unit[32];
	struct pmc_reading r;           /* summed over ids, this run */
	struct pmc_reading prev_r;      /* reading at the last interval */
	double *runs;                   /* -r: value of each run */
	int nruns;
};

struct opts {
	struct ev ev[MAX_EVENTS];
	int nev;
	pid_t *pids;
	int npids;
	int threads;                    /* -t: pids are thread ids */
	int all_cpus;
	unsigned char cpus[MAX_CPUS];
	int cpu_list;
	int interval_ms;
	int repeat;
	const char *sep;
	int json;
	int per_process;
	int no_inherit;
	double duration;
	const char *backend;
	char **cmd;
	pid_t child;                    /* the command's pid (last run) */
	FILE *out;
};

static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmc stat [-e EVENT[,EVENT...]]... [options] -- COMMAND [ARGS...]\n"
"       pmc stat [-e EVENTS] -p PID[,PID...] | -t TID[,TID...] | -a [-C CPUS] [-l SECONDS]\n"
"\n"
"Count events for a command (and its children), existing processes or threads,\n"
"or whole CPUs.  Without -e: task-clock, context-switches, cpu-migrations,\n"
"page-faults, cycles, instructions, branches, branch-misses.\n"
"\n"
"  -e, --event=LIST      events to count (see 'pmc list'); repeatable\n"
"  -p, --pid=PIDS        count existing processes (all their threads)\n"
"  -t, --tid=TIDS        count existing threads\n"
"  -a, --all-cpus        count every CPU (system-wide; needs privilege)\n"
"  -C, --cpu=LIST        count only these CPUs (e.g. 0-3,6); implies -a\n"
"  -l, --duration=SECS   stop after SECS seconds (-p, -t, -a; default: Ctrl-C)\n"
"  -I, --interval=MS     print counts every MS milliseconds\n"
"  -r, --repeat=N        run the command N times; print mean and relative stddev\n"
"  -x, --field-separator=SEP  CSV output: value,unit,event,running-ns,running-%%,metric,metric-unit\n"
"  -j, --json            JSON output (one object; one per line with -I)\n"
"  -P, --per-process     one row per process of the command's tree, at its exit\n"
"      --no-inherit      do not count the command's children\n"
"  -b, --backend=NAME    linux (default) or sim (simulated ARMv8 PMU)\n"
"  -o, --output=FILE     write the counts to FILE instead of stdout\n"
"  -h, --help            this help\n"
"\n"
"The exit status is the command's own (128+N if a signal N ended it), or 1 if\n"
"counting failed, 2 for a usage error.\n");
}

static void add_events(struct opts *o, const char *list)
{
	char **specs;
	int n;

	if (pmc_event_split(list, &specs, &n) < 0)
		cli_usage_error("bad event list '%s': %s", list, pmc_errmsg());
	for (int i = 0; i < n; i++) {
		if (o->nev >= MAX_EVENTS)
			cli_usage_error("too many events (at most %d)", MAX_EVENTS);
		o->ev[o->nev++].spec = strdup(specs[i]);
	}
	pmc_event_split_free(specs, n);
}

static const char *base_name(const char *spec, char *buf, size_t len)
{
	snprintf(buf, len, "%s", spec);
	buf[strcspn(buf, ":,")] = '\0';
	return buf;
}

static struct ev *find_ev(struct opts *o, const char *name)
{
	char b[160];
	for (int i = 0; i < o->nev; i++)
		if (o->ev[i].supported && o->ev[i].r.pm_running &&
		    !strcmp(base_name(o->ev[i].spec, b, sizeof(b)), name))
			return &o->ev[i];
	return NULL;
}

static int is_clock(const char *spec)
{
	char b[160];
	base_name(spec, b, sizeof(b));
	return !strcmp(b, "task-clock") || !strcmp(b, "cpu-clock");
}

/* Allocate the PMCs of one event; a machine that cannot count it gives
 * "<not supported>", anything else (bad name, no permission) is fatal. */
static int setup_event(struct opts *o, struct ev *e, uint32_t flags)
{
	int ncpu = pmc_ncpu();

	e->supported = 1;
	if (o->all_cpus) {
		e->ids = calloc((size_t)ncpu, sizeof(pmc_id_t));
		for (int c = 0; c < ncpu; c++) {
			if (o->cpu_list && !o->cpus[c])
				continue;
			if (pmc_allocate(e->spec, PMC_MODE_SC, 0, c, &e->ids[e->nids], 0) < 0) {
				if (errno == ENXIO && !o->cpu_list)
					continue;        /* an offline CPU */
				return -1;
			}
			e->nids++;
		}
	} else {
		e->ids = calloc(1, sizeof(pmc_id_t));
		if (pmc_allocate(e->spec, PMC_MODE_TC, flags, PMC_CPU_ANY, &e->ids[0], 0) < 0)
			return -1;
		e->nids = 1;
	}
	const char *u;
	if (pmc_event_unit(e->ids[0], &e->scale, &u) == 0)
		snprintf(e->unit, sizeof(e->unit), "%s", u);
	return 0;
}

static void read_all(struct opts *o)
{
	for (int i = 0; i < o->nev; i++) {
		struct ev *e = &o->ev[i];
		memset(&e->r, 0, sizeof(e->r));
		for (int k = 0; k < e->nids && e->supported; k++) {
			struct pmc_reading r;
			if (pmc_read_ext(e->ids[k], &r) < 0)
				continue;
			e->r.pm_value += r.pm_value;
			e->r.pm_raw += r.pm_raw;
			e->r.pm_enabled += r.pm_enabled;
			e->r.pm_running += r.pm_running;
			e->r.pm_scaled |= r.pm_scaled;
		}
	}
}

/* ---- derived metrics ---------------------------------------------------- */

struct metric { double v; const char *unit; int valid; };

static struct metric metric_for(struct opts *o, struct ev *e, double value, double elapsed_ns)
{
	struct metric m = { 0, "", 0 };
	char b[160];
	const char *n = base_name(e->spec, b, sizeof(b));
	struct ev *clk = find_ev(o, "task-clock");
	struct ev *other;

	if (!clk)
		clk = find_ev(o, "cpu-clock");
	if (is_clock(e->spec)) {
		if (elapsed_ns > 0) {
			m.v = value / elapsed_ns;
			m.unit = "CPUs utilized";
			m.valid = 1;
		}
		return m;
	}
	if (!strcmp(n, "instructions") && (other = find_ev(o, "cycles")) && other->r.pm_value) {
		m.v = value / (double)other->r.pm_value;
		m.unit = "insn per cycle";
		m.valid = 1;
	} else if ((!strcmp(n, "cycles") || !strcmp(n, "cpu-cycles")) && clk && clk->r.pm_value) {
		m.v = value / (double)clk->r.pm_value;
		m.unit = "GHz";
		m.valid = 1;
	} else if (!strcmp(n, "branch-misses") && (other = find_ev(o, "branches")) &&
	    other->r.pm_value) {
		m.v = 100.0 * value / (double)other->r.pm_value;
		m.unit = "% of all branches";
		m.valid = 1;
	} else if (!strcmp(n, "cache-misses") && (other = find_ev(o, "cache-references")) &&
	    other->r.pm_value) {
		m.v = 100.0 * value / (double)other->r.pm_value;
		m.unit = "% of all cache refs";
		m.valid = 1;
	} else if (strstr(n, "-misses") && !strstr(n, "branch")) {
		/* L1-dcache-load-misses vs L1-dcache-loads, LLC-, dTLB-, ... */
		char base[160];
		snprintf(base, sizeof(base), "%s", n);
		char *p = strstr(base, "-misses");
		*p = 's';
		p[1] = '\0';
		if ((other = find_ev(o, base)) && other->r.pm_value) {
			m.v = 100.0 * value / (double)other->r.pm_value;
			m.unit = "% of all accesses";
			m.valid = 1;
		}
	} else if (!strncmp(n, "stalled-cycles-", 15) && (other = find_ev(o, "cycles")) &&
	    other->r.pm_value) {
		m.v = 100.0 * value / (double)other->r.pm_value;
		m.unit = !strcmp(n + 15, "frontend") ? "frontend cycles idle" : "backend cycles idle";
		m.valid = 1;
	} else if (clk && clk->r.pm_value && !e->unit[0]) {
		double per_s = value / ((double)clk->r.pm_value / 1e9);
		m.valid = 1;
		if (per_s >= 1e9) {
			m.v = per_s / 1e9; m.unit = "G/sec";
		} else if (per_s >= 1e6) {
			m.v = per_s / 1e6; m.unit = "M/sec";
		} else if (per_s >= 1e3) {
			m.v = per_s / 1e3; m.unit = "K/sec";
		} else {
			m.v = per_s; m.unit = "/sec";
		}
	}
	return m;
}

/* ---- printing ------------------------------------------------------------- */

static double ev_value(struct ev *e, uint64_t v)
{
	return (double)v * (e->scale > 0 ? e->scale : 1.0);
}

static void print_human_row(struct opts *o, struct ev *e, double value, double elapsed_ns,
    double rsd, int have_rsd)
{
	FILE *f = o->out;
	char num[64];

	if (!e->supported) {
		fprintf(f, "%20s      %-32s\n", "<not supported>", e->spec);
		return;
	}
	if (e->r.pm_running == 0 && e->r.pm_enabled > 0) {
		fprintf(f, "%20s      %-32s\n", "<not counted>", e->spec);
		return;
	}
	if (is_clock(e->spec)) {
		snprintf(num, sizeof(num), "%.2f", value / 1e6);
		fprintf(f, "%20s msec %-32s", num, e->spec);
	} else if (e->unit[0]) {
		snprintf(num, sizeof(num), "%.2f", value);
		fprintf(f, "%20s %-4s %-32s", num, e->unit, e->spec);
	} else {
		cli_group_digits((uint64_t)(value + 0.5), num, sizeof(num));
		fprintf(f, "%20s      %-32s", num, e->spec);
	}
	struct metric m = metric_for(o, e, value, elapsed_ns);
	if (m.valid)
		fprintf(f, " # %8.3f %-20s", m.v, m.unit);
	else
		fprintf(f, "   %8s %-20s", "", "");
	if (have_rsd)
		fprintf(f, "  ( +- %5.2f%% )", rsd);
	if (e->r.pm_scaled && e->r.pm_enabled)
		fprintf(f, "  (%.2f%%)", 100.0 * (double)e->r.pm_running / (double)e->r.pm_enabled);
	fputc('\n', f);
}

static void print_csv_row(struct opts *o, struct ev *e, double value, double elapsed_ns,
    const char *prefix)
{
	FILE *f = o->out;
	const char *s = o->sep;

	fputs(prefix, f);
	if (!e->supported) {
		fprintf(f, "<not supported>%s%s%s%s%s0%s0.00%s%s\n", s, "", s, e->spec, s, s, s, s);
		return;
	}
	if (e->r.pm_running == 0 && e->r.pm_enabled > 0) {
		fprintf(f, "<not counted>%s%s%s%s%s0%s0.00%s%s\n", s, e->unit, s, e->spec, s, s, s, s);
		return;
	}
	struct metric m = metric_for(o, e, value, elapsed_ns);
	double pct = e->r.pm_enabled ? 100.0 * (double)e->r.pm_running / (double)e->r.pm_enabled : 100.0;
	if (is_clock(e->spec))
		fprintf(f, "%.2f%smsec", value / 1e6, s);
	else if (e->unit[0])
		fprintf(f, "%.2f%s%s", value, s, e->unit);
	else
		fprintf(f, "%.0f%s", value, s);
	fprintf(f, "%s%s%s%llu%s%.2f%s", s, e->spec, s,
	    (unsigned long long)e->r.pm_running, s, pct, s);
	if (m.valid)
		fprintf(f, "%.3f%s%s", m.v, s, m.unit);
	else
		fprintf(f, "%s", s);
	fputc('\n', f);
}

/* A count as JSON: exact for integers (%.6g would round 99453132). */
static void json_number(FILE *f, double v)
{
	if (v == (double)(uint64_t)v && v < 9007199254740992.0)
		fprintf(f, "%llu", (unsigned long long)v);
	else
		fprintf(f, "%.6f", v);
}

static void json_row(struct opts *o, struct ev *e, double value, double elapsed_ns,
    double mean_rsd, int have_rsd, double interval_s)
{
	FILE *f = o->out;
	fputc('{', f);
	if (interval_s >= 0)
		fprintf(f, "\"interval_s\":%.6f,", interval_s);
	fputs("\"event\":", f);
	json__string(f, e->spec);
	fprintf(f, ",\"supported\":%s", e->supported ? "true" : "false");
	if (!e->supported) {
		fputs(",\"reason\":", f);
		json__string(f, e->why);
		fputc('}', f);
		return;
	}
	int counted = !(e->r.pm_running == 0 && e->r.pm_enabled > 0);
	fprintf(f, ",\"counted\":%s,\"value\":", counted ? "true" : "false");
	json_number(f, value);
	fprintf(f, ",\"raw\":%llu,\"unit\":", (unsigned long long)e->r.pm_raw);
	json__string(f, is_clock(e->spec) ? "ns" : e->unit);
	fprintf(f, ",\"enabled_ns\":%llu,\"running_ns\":%llu,\"scaled\":%s",
	    (unsigned long long)e->r.pm_enabled, (unsigned long long)e->r.pm_running,
	    e->r.pm_scaled ? "true" : "false");
	if (have_rsd)
		fprintf(f, ",\"rsd_percent\":%.4f", mean_rsd);
	struct metric m = metric_for(o, e, value, elapsed_ns);
	if (m.valid) {
		fprintf(f, ",\"metric\":{\"value\":%.6g,\"unit\":", m.v);
		json__string(f, m.unit);
		fputc('}', f);
	}
	fputc('}', f);
}

static void cmd_string(struct opts *o, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	if (o->cmd) {
		if (o->all_cpus)
			n = (size_t)snprintf(buf, len, "system wide, while running: ");
		for (char **a = o->cmd; *a && n + 2 < len; a++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", a == o->cmd ? "" : " ", *a);
	} else if (o->all_cpus) {
		snprintf(buf, len, o->cpu_list ? "CPU(s) selected" : "system wide");
	} else {
		n = (size_t)snprintf(buf, len, "%s ", o->threads ? "thread" : "process id");
		for (int i = 0; i < o->npids && n + 2 < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "," : "", (int)o->pids[i]);
	}
}

static void print_final(struct opts *o, double elapsed_ns, struct rusage *ru, int status_known,
    int status)
{
	char what[512];
	FILE *f = o->out;

	cmd_string(o, what, sizeof(what));
	if (o->json) {
		fputs("{\"target\":", f);
		json__string(f, what);
		fprintf(f, ",\"backend\":\"%s\",\"elapsed_ns\":%.0f", pmc_backend_name(), elapsed_ns);
		if (status_known)
			fprintf(f, ",\"exit_status\":%d", status);
		if (o->repeat > 1)
			fprintf(f, ",\"runs\":%d", o->repeat);
		fputs(",\"events\":[", f);
		for (int i = 0; i < o->nev; i++) {
			struct ev *e = &o->ev[i];
			double mean = 0, rsd = 0;
			if (i)
				fputc(',', f);
			if (o->repeat > 1 && e->nruns) {
				for (int k = 0; k < e->nruns; k++)
					mean += e->runs[k];
				mean /= e->nruns;
				double var = 0;
				for (int k = 0; k < e->nruns; k++)
					var += (e->runs[k] - mean) * (e->runs[k] - mean);
				var /= e->nruns > 1 ? e->nruns - 1 : 1;
				rsd = mean ? 100.0 * sqrt(var / e->nruns) / mean : 0;
				json_row(o, e, mean, elapsed_ns, rsd, 1, -1);
			} else {
				json_row(o, e, ev_value(e, e->r.pm_value), elapsed_ns, 0, 0, -1);
			}
		}
		fputs("]}\n", f);
		return;
	}
	if (o->sep) {
		for (int i = 0; i < o->nev; i++)
			print_csv_row(o, &o->ev[i], ev_value(&o->ev[i], o->ev[i].r.pm_value),
			    elapsed_ns, "");
		return;
	}
	if (o->repeat > 1)
		fprintf(f, "\n Performance counter stats for '%s' (%d runs):\n\n", what, o->repeat);
	else
		fprintf(f, "\n Performance counter stats for '%s':\n\n", what);
	for (int i = 0; i < o->nev; i++) {
		struct ev *e = &o->ev[i];
		if (o->repeat > 1 && e->nruns) {
			double mean = 0, var = 0;
			for (int k = 0; k < e->nruns; k++)
				mean += e->runs[k];
			mean /= e->nruns;
			for (int k = 0; k < e->nruns; k++)
				var += (e->runs[k] - mean) * (e->runs[k] - mean);
			var /= e->nruns > 1 ? e->nruns - 1 : 1;
			double rsd = mean ? 100.0 * sqrt(var / e->nruns) / mean : 0;
			print_human_row(o, e, mean, elapsed_ns, rsd, 1);
		} else {
			print_human_row(o, e, ev_value(e, e->r.pm_value), elapsed_ns, 0, 0);
		}
	}
	fprintf(f, "\n%17.9f seconds time elapsed%s\n", elapsed_ns / 1e9,
	    o->repeat > 1 ? " (mean)" : "");
	if (ru && o->cmd && !strcmp(pmc_backend_name(), "linux")) {
		fprintf(f, "%17.9f seconds user\n", (double)ru->ru_utime.tv_sec +
		    (double)ru->ru_utime.tv_usec / 1e6);
		fprintf(f, "%17.9f seconds sys\n", (double)ru->ru_stime.tv_sec +
		    (double)ru->ru_stime.tv_usec / 1e6);
	}
	for (int i = 0; i < o->nev; i++)
		if (!o->ev[i].supported) {
			fprintf(f, "\n%s: %s\n", o->ev[i].spec, o->ev[i].why);
			break;
		}
	fputc('\n', f);
}

/*
 * One line per event for the interval just ended: every field of the
 * reading (value, raw, enabled, running) becomes the interval's delta while
 * printing, so rates and metrics are per interval too.
 */
static void print_interval(struct opts *o, double t_ns)
{
	FILE *f = o->out;
	struct pmc_reading cur[MAX_EVENTS];
	double ival = (double)o->interval_ms * 1e6;

	for (int i = 0; i < o->nev; i++) {
		struct ev *e = &o->ev[i];
		cur[i] = e->r;
		e->r.pm_value -= e->prev_r.pm_value;
		e->r.pm_raw -= e->prev_r.pm_raw;
		e->r.pm_enabled -= e->prev_r.pm_enabled;
		e->r.pm_running -= e->prev_r.pm_running;
	}
	for (int i = 0; i < o->nev; i++) {
		struct ev *e = &o->ev[i];
		double v = ev_value(e, e->r.pm_value);
		if (o->json) {
			json_row(o, e, v, ival, 0, 0, t_ns / 1e9);
			fputc('\n', f);
		} else if (o->sep) {
			char pre[64];
			snprintf(pre, sizeof(pre), "%.6f%s", t_ns / 1e9, o->sep);
			print_csv_row(o, e, v, ival, pre);
		} else {
			fprintf(f, "%14.6f ", t_ns / 1e9);
			print_human_row(o, e, v, ival, 0, 0);
		}
	}
	for (int i = 0; i < o->nev; i++) {
		o->ev[i].prev_r = cur[i];
		o->ev[i].r = cur[i];
	}
	fflush(f);
}

/* The backend's clock: simulated time with the sim, CLOCK_MONOTONIC else. */
static uint64_t now_ns(void)
{
	return pmc_clock_ns();
}

/* ---- per-process (PMC_F_LOG_PROCEXIT through the log) --------------------- */

struct proc_row {
	pid_t pid, ppid;
	char comm[64];
	char path[4096];
	uint64_t *vals;
	int seen_exit;
};

static struct proc_row *proc_get(struct proc_row **rows, int *n, int nev, pid_t pid)
{
	for (int i = 0; i < *n; i++)
		if ((*rows)[i].pid == pid)
			return &(*rows)[i];
	struct proc_row *r = realloc(*rows, (size_t)(*n + 1) * sizeof(**rows));
	if (!r)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	*rows = r;
	memset(&r[*n], 0, sizeof(r[*n]));
	r[*n].pid = pid;
	r[*n].ppid = -1;
	r[*n].vals = calloc((size_t)nev, sizeof(uint64_t));
	return &r[(*n)++];
}

static int ev_index_of(struct opts *o, pmc_id_t id)
{
	for (int i = 0; i < o->nev; i++)
		for (int k = 0; k < o->ev[i].nids; k++)
			if (o->ev[i].ids[k] == id)
				return i;
	return -1;
}

static void print_per_process(struct opts *o, int logfd, pid_t root)
{
	struct proc_row *rows = NULL;
	int n = 0;
	struct pmclog_ev ev;
	void *p;
	FILE *f = o->out;

	lseek(logfd, 0, SEEK_SET);
	p = pmclog_open(logfd);
	if (p)
		pmclog_set_extensions(p, 1);
	if (!p) {
		cli_warn("cannot read back the per-process log: %s", strerror(errno));
		return;
	}
	proc_get(&rows, &n, o->nev, root);
	while (pmclog_read(p, &ev) == 0) {
		struct proc_row *r;
		int k;
		switch (ev.pl_type) {
		case PMCLOG_TYPE_PROCFORK:
			r = proc_get(&rows, &n, o->nev, ev.pl_u.pl_f.pl_newpid);
			r->ppid = ev.pl_u.pl_f.pl_oldpid;
			break;
		case PMCLOG_TYPE_COMM:
			r = proc_get(&rows, &n, o->nev, ev.pl_u.pl_cm.pl_pid);
			if (ev.pl_u.pl_cm.pl_pid == ev.pl_u.pl_cm.pl_tid || !r->comm[0])
				snprintf(r->comm, sizeof(r->comm), "%s", ev.pl_u.pl_cm.pl_comm);
			break;
		case PMCLOG_TYPE_PROCEXEC:
			r = proc_get(&rows, &n, o->nev, ev.pl_u.pl_x.pl_pid);
			snprintf(r->path, sizeof(r->path), "%s", ev.pl_u.pl_x.pl_pathname);
			break;
		case PMCLOG_TYPE_PROCEXIT:
			k = ev_index_of(o, ev.pl_u.pl_e.pl_pmcid);
			if (k < 0)
				break;
			r = proc_get(&rows, &n, o->nev, (pid_t)ev.pl_u.pl_e.pl_pid);
			r->vals[k] += ev.pl_u.pl_e.pl_value;
			r->seen_exit = 1;
			break;
		default:
			break;
		}
	}
	pmclog_close(p);
	/*
	 * Each task's counts arrive in its exit record (inherit_stat's
	 * PERF_RECORD_READ) — except for one: the kernel swaps the contexts of
	 * a parent and a child that are clones of each other, and the task that
	 * holds the original context at its exit sends none.  Its counts are in
	 * the totals, so one missing task is the total less all the others.
	 * More than one missing (several original contexts) stays unknown.
	 */
	int missing = 0, hole = -1;
	for (int i = 0; i < n; i++)
		if (!rows[i].seen_exit) {
			missing++;
			hole = i;
		}
	if (missing == 1) {
		for (int k = 0; k < o->nev; k++) {
			uint64_t others = 0;
			for (int i = 0; i < n; i++)
				if (i != hole)
					others += rows[i].vals[k];
			rows[hole].vals[k] = o->ev[k].r.pm_raw > others ?
			    o->ev[k].r.pm_raw - others : 0;
		}
		rows[hole].seen_exit = 1;
		missing = 0;
	}
	rows[0].ppid = getpid();
	if (!rows[0].comm[0] && o->cmd)
		snprintf(rows[0].comm, sizeof(rows[0].comm), "%s", o->cmd[0]);
	/* A child that did not exec has its parent's name (fork copies it). */
	for (int pass = 0; pass < n; pass++)
		for (int i = 1; i < n; i++)
			if (!rows[i].comm[0])
				for (int j = 0; j < n; j++)
					if (rows[j].pid == rows[i].ppid && rows[j].comm[0])
						snprintf(rows[i].comm, sizeof(rows[i].comm), "%s",
						    rows[j].comm);
	if (o->json) {
		fputs("{\"processes\":[", f);
		for (int i = 0; i < n; i++) {
			fprintf(f, "%s{\"pid\":%d,\"ppid\":%d,\"comm\":", i ? "," : "",
			    (int)rows[i].pid, (int)rows[i].ppid);
			json__string(f, rows[i].comm);
			fputs(",\"exe\":", f);
			json__string(f, rows[i].path);
			fputs(",\"counts\":", f);
			if (!rows[i].seen_exit) {
				fputs("null}", f);
				continue;
			}
			fputc('{', f);
			for (int k = 0; k < o->nev; k++) {
				if (k)
					fputc(',', f);
				json__string(f, o->ev[k].spec);
				fprintf(f, ":%llu", (unsigned long long)rows[i].vals[k]);
			}
			fputs("}}", f);
		}
		fputs("]}\n", f);
	} else if (o->sep) {
		for (int i = 0; i < n; i++) {
			fprintf(f, "%d%s%d%s%s", (int)rows[i].pid, o->sep, (int)rows[i].ppid, o->sep,
			    rows[i].comm);
			for (int k = 0; k < o->nev; k++)
				if (rows[i].seen_exit)
					fprintf(f, "%s%llu", o->sep, (unsigned long long)rows[i].vals[k]);
				else
					fprintf(f, "%s-", o->sep);
			fputc('\n', f);
		}
	} else {
		fprintf(f, "\n Per-process counts (at each process's exit):\n\n%8s %8s  %-16s",
		    "PID", "PPID", "COMMAND");
		for (int k = 0; k < o->nev; k++)
			fprintf(f, " %18s", o->ev[k].spec);
		fputc('\n', f);
		for (int i = 0; i < n; i++) {
			char num[64];
			fprintf(f, "%8d %8d  %-16s", (int)rows[i].pid, (int)rows[i].ppid,
			    rows[i].comm[0] ? rows[i].comm : "?");
			for (int k = 0; k < o->nev; k++)
				fprintf(f, " %18s", rows[i].seen_exit ?
				    cli_group_digits(rows[i].vals[k], num, sizeof(num)) : "-");
			fputc('\n', f);
		}
		if (missing)
			fprintf(f, "\n - : the kernel reported no exit counts for %d process%s; "
			    "their counts are in the totals only.\n",
			    missing, missing > 1 ? "es" : "");
	}
	for (int i = 0; i < n; i++)
		free(rows[i].vals);
	free(rows);
}

/* ---- running --------------------------------------------------------------- */

static int run_once(struct opts *o, int run, int *exit_status, double *elapsed, struct rusage *ru)
{
	uint32_t flags = PMC_F_DESCENDANTS;
	pid_t child = -1;
	int logfd = -1, status = 0, rc = 0;

	if (o->per_process)
		flags |= PMC_F_LOG_PROCEXIT;
	if (o->no_inherit)
		flags &= ~(uint32_t)PMC_F_DESCENDANTS;

	if (o->cmd && pmc_spawn(o->cmd, &child) < 0)
		cli_die(CLI_EXIT_FAIL, "cannot start '%s': %s", o->cmd[0], pmc_errmsg());
	o->child = child;

	if (o->per_process) {
		char tmpl[] = "/tmp/pmc-stat-XXXXXX";
		logfd = mkstemp(tmpl);
		if (logfd < 0)
			cli_die(CLI_EXIT_FAIL, "cannot create a temporary log: %s", strerror(errno));
		unlink(tmpl);
		if (pmc_configure_logfile(logfd) < 0)
			cli_die(CLI_EXIT_FAIL, "cannot configure the log: %s", pmc_errmsg());
	}

	for (int i = 0; i < o->nev; i++) {
		struct ev *e = &o->ev[i];
		if (run > 0) {
			if (!e->supported)
				continue;
		} else if (setup_event(o, e, flags) < 0) {
			int err = errno;
			if (err == EINVAL && strstr(pmc_errmsg(), "no hardware PMU")) {
				e->supported = 0;
				snprintf(e->why, sizeof(e->why), "%s", pmc_errmsg());
				continue;
			}
			if (err == EINVAL && strstr(pmc_errmsg(), "does not support")) {
				e->supported = 0;
				snprintf(e->why, sizeof(e->why), "%s", pmc_errmsg());
				continue;
			}
			int code = (err == ENOENT || err == EINVAL) ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
			char why[512];
			/* the reason, before pmc_spawn_* replace it */
			snprintf(why, sizeof(why), "%s", pmc_errmsg());
			if (child > 0) {
				pmc_spawn_kill(child, SIGKILL);
				pmc_spawn_wait(child, &status);
			}
			cli_die(code, "cannot count '%s': %s", e->spec, why);
		}
		/* Attach (process mode) — system mode PMCs have their CPU. */
		if (!o->all_cpus) {
			pid_t *targets = o->cmd ? &child : o->pids;
			int nt = o->cmd ? 1 : o->npids;
			for (int t = 0; t < nt; t++) {
				int r = o->threads ? pmc_attach_thread(e->ids[0], targets[t]) :
				    pmc_attach(e->ids[0], targets[t]);
				if (r < 0) {
					if (child > 0) {
						pmc_spawn_kill(child, SIGKILL);
						pmc_spawn_wait(child, &status);
					}
					cli_die(CLI_EXIT_FAIL, "cannot attach to %s %d: %s",
					    o->threads ? "thread" : "process", (int)targets[t],
					    pmc_errmsg());
				}
			}
		}
	}
	for (int i = 0; i < o->nev; i++)
		for (int k = 0; k < o->ev[i].nids && o->ev[i].supported; k++)
			if (pmc_start(o->ev[i].ids[k]) < 0)
				cli_die(CLI_EXIT_FAIL, "cannot start counting '%s': %s",
				    o->ev[i].spec, pmc_errmsg());

	uint64_t t0 = now_ns(), tnext = t0 + (uint64_t)o->interval_ms * 1000000ull;
	if (child > 0 && pmc_spawn_go(child) < 0)
		cli_die(CLI_EXIT_FAIL, "cannot run '%s': %s", o->cmd[0], pmc_errmsg());

	for (;;) {
		int wait_ms = -1;
		if (o->interval_ms) {
			uint64_t now = now_ns();
			wait_ms = now >= tnext ? 0 : (int)((tnext - now) / 1000000ull);
		}
		if (child > 0) {
			int w = o->interval_ms ? wait_ms : 100;
			int r = pmc_spawn_wait_timeout(child, &status, w);
			if (r == 0)
				break;
			if (got_signal && strcmp(pmc_backend_name(), "linux")) {
				/* A simulated command gets no signal: stop counting it. */
				status = (128 + got_signal) << 8;
				break;
			}
			if (errno != EAGAIN && errno != EINTR)
				cli_die(CLI_EXIT_FAIL, "waiting for the command: %s", pmc_errmsg());
		} else {
			/* -p/-t/-a: until the duration ends, Ctrl-C, or targets vanish. */
			if (got_signal)
				break;
			if (o->duration > 0 && (double)(now_ns() - t0) >= o->duration * 1e9)
				break;
			struct timespec ts = { 0, 10 * 1000000L };
			nanosleep(&ts, NULL);
			if (!o->all_cpus) {
				int alive = 0;
				for (int t = 0; t < o->npids; t++)
					alive |= pmc_target_exists(o->pids[t]);
				if (!alive) {
					cli_warn("the monitored %s exited", o->npids > 1 ?
					    "processes" : "process");
					break;
				}
			}
		}
		if (o->interval_ms && now_ns() >= tnext) {
			read_all(o);
			print_interval(o, (double)(now_ns() - t0));
			tnext += (uint64_t)o->interval_ms * 1000000ull;
		}
	}
	*elapsed = (double)(now_ns() - t0);
	for (int i = 0; i < o->nev; i++)
		for (int k = 0; k < o->ev[i].nids && o->ev[i].supported; k++)
			pmc_stop(o->ev[i].ids[k]);
	read_all(o);
	for (int i = 0; i < o->nev; i++) {
		struct ev *e = &o->ev[i];
		double *n = realloc(e->runs, (size_t)(e->nruns + 1) * sizeof(double));
		if (n) {
			e->runs = n;
			e->runs[e->nruns++] = ev_value(e, e->r.pm_value);
		}
	}
	if (child > 0) {
		if (!strcmp(pmc_backend_name(), "linux"))
			getrusage(RUSAGE_CHILDREN, ru);
		if (WIFEXITED(status))
			*exit_status = WEXITSTATUS(status);
		else if (WIFSIGNALED(status))
			*exit_status = 128 + WTERMSIG(status);
	}
	if (o->per_process && logfd >= 0) {
		if (pmc_close_logfile() < 0)
			cli_warn("the per-process log: %s", pmc_errmsg());
		if (o->interval_ms == 0 && run == o->repeat - 1)
			rc = 1;  /* caller prints it after the totals */
	}
	if (o->per_process)
		return rc ? logfd : (close(logfd), -1);
	(void)child;
	return -1;
}

int cmd_stat(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "duration", required_argument, NULL, 'l' },
		{ "interval", required_argument, NULL, 'I' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "per-process", no_argument, NULL, 'P' },
		{ "no-inherit", no_argument, NULL, 'N' },
		{ "backend", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct opts o;
	const char *outpath = NULL;
	int c, no_inherit = 0;

	memset(&o, 0, sizeof(o));
	o.repeat = 1;
	o.out = stdout;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:p:t:aC:l:I:r:x:jPb:o:h", lopts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'e': add_events(&o, optarg); break;
		case 'p':
			if (cli_parse_pid_list(optarg, &o.pids, &o.npids) < 0)
				cli_usage_error("'%s' is not a list of process ids", optarg);
			break;
		case 't':
			if (cli_parse_pid_list(optarg, &o.pids, &o.npids) < 0)
				cli_usage_error("'%s' is not a list of thread ids", optarg);
			o.threads = 1;
			break;
		case 'a': o.all_cpus = 1; break;
		case 'C': {
			long ncpu = sysconf(_SC_NPROCESSORS_CONF);
			int r = cli_parse_cpu_list(optarg, o.cpus, ncpu > 0 && ncpu < MAX_CPUS ?
			    (int)ncpu : MAX_CPUS);
			if (r == -2)
				cli_usage_error("CPU list '%s' names a CPU this machine does not have "
				    "(CPUs 0-%ld)", optarg, ncpu - 1);
			if (r < 0)
				cli_usage_error("'%s' is not a CPU list (e.g. 0-3,6)", optarg);
			o.cpu_list = o.all_cpus = 1;
			break;
		}
		case 'l':
			o.duration = strtod(optarg, &end);
			if (*end || o.duration <= 0)
				cli_usage_error("'%s' is not a positive number of seconds", optarg);
			break;
		case 'I':
			o.interval_ms = (int)strtol(optarg, &end, 10);
			if (*end || o.interval_ms < 10)
				cli_usage_error("the interval must be at least 10 ms (got '%s')", optarg);
			break;
		case 'r':
			o.repeat = (int)strtol(optarg, &end, 10);
			if (*end || o.repeat < 1 || o.repeat > 100000)
				cli_usage_error("'%s' is not a repeat count", optarg);
			break;
		case 'x': o.sep = optarg; break;
		case 'j': o.json = 1; break;
		case 'P': o.per_process = 1; break;
		case 'N': no_inherit = 1; break;
		case 'b': o.backend = optarg; break;
		case 'o': outpath = optarg; break;
		case 'h': usage(stdout); return 0;
		default:  cli_bad_option(c, argv);
		}
	}
	if (optind < argc)
		o.cmd = &argv[optind];
	if (!o.cmd && !o.npids && !o.all_cpus)
		cli_usage_error("nothing to count: give a command, -p, -t or -a");
	if (o.cmd && o.npids)
		cli_usage_error("give either a command or -p/-t, not both");
	if (o.all_cpus && o.per_process)
		cli_usage_error("--per-process follows a command's processes; it cannot be "
		    "combined with -a/-C");
	if (o.npids && o.all_cpus)
		cli_usage_error("-p/-t and -a/-C cannot be combined");
	if (o.repeat > 1 && !o.cmd)
		cli_usage_error("-r repeats a command; it needs one");
	if (o.per_process && !o.cmd)
		cli_usage_error("--per-process needs a command to follow");
	if (o.json && o.sep)
		cli_usage_error("choose -x or --json, not both");
	if (o.repeat > 1 && o.interval_ms)
		cli_usage_error("-r and -I cannot be combined");
	if (no_inherit) {
		if (o.per_process)
			cli_usage_error("--per-process needs the children (drop --no-inherit)");
		o.no_inherit = 1;
	}
	if (o.nev == 0)
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
			add_events(&o, default_events[i]);
	/* perf stat -o replaces the file: so do we, never through a planted
	 * symlink, and only once the counts are complete */
	struct pmc_outfile of;
	o.out = cli_open_output(&of, outpath, 1);
	if (o.backend && pmc_backend_select(o.backend) < 0)
		cli_usage_error("%s", pmc_errmsg());
	if (pmc_init() < 0)
		cli_die(CLI_EXIT_FAIL, "cannot initialise libpmc: %s", pmc_errmsg());

	/* The command gets Ctrl-C; we print what was counted when it ends. */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	int exit_status = 0, logfd = -1;
	double elapsed = 0, total_elapsed = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof(ru));
	for (int run = 0; run < o.repeat; run++) {
		logfd = run_once(&o, run, &exit_status, &elapsed, &ru);
		total_elapsed += elapsed;
		if (got_signal)
			break;
	}
	print_final(&o, total_elapsed / o.repeat, &ru, o.cmd != NULL, exit_status);
	if (logfd >= 0) {
		print_per_process(&o, logfd, o.child);
		close(logfd);
	}
	int out_failed = cli_close_output(&of, o.out, 0) != 0;
	pmc_fini();
	for (int i = 0; i < o.nev; i++) {
		free(o.ev[i].spec);
		free(o.ev[i].ids);
		free(o.ev[i].runs);
	}
	free(o.pids);
	if (out_failed)
		return CLI_EXIT_FAIL;
	return o.cmd ? exit_status : 0;
}
