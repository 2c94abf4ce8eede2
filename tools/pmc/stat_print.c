/*
 * stat_print.c — how `pmc stat` shows its counts (perf stat's layouts):
 * human rows, -x CSV rows (the same columns on every row: interval time
 * and aggregation label first when present, the relative stddev after the
 * event name with -r), --json objects, and the --per-process table.
 * Derived metrics come from analysis/stat/metrics.c, keyed on what each event
 * counts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/grow.h"
#include "util/numfmt.h"
#include "util/json.h"
#include "stat/metrics.h"
#include "pmclog.h"
#include "util/printable.h"
#include "stat.h"

double stat_value(const struct stat_ev *e, const struct pmc_reading *r)
{
	return (double)r->pm_value * (e->scale > 0 ? e->scale : 1.0);
}

void stat_sum(const struct stat_ev *e, int u, int delta, struct pmc_reading *out)
{
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < e->nids && e->supported; k++) {
		const struct pmc_reading *r = &e->rk[k], *b = delta ? &e->prev_rk[k] : &e->base_rk[k];
		if (u >= 0 && e->id_unit[k] != u)
			continue;
		out->pm_value += r->pm_value - b->pm_value;
		out->pm_raw += r->pm_raw - b->pm_raw;
		out->pm_enabled += r->pm_enabled - b->pm_enabled;
		out->pm_running += r->pm_running - b->pm_running;
		out->pm_scaled |= r->pm_scaled;
	}
}

/* ---- one set of rows: every event of one aggregation unit ------------------ */

struct row {
	struct pmc_reading r;
	double value;                   /* in the event's unit; the mean with -r */
	double rsd;                     /* -r: relative stddev of the mean, % */
	int counted;
	struct metric m;
	int has_metric;
};

static int is_clock(const struct stat_ev *e)
{
	return e->supported && metric_is_clock(&e->kind);
}

/* Mean and relative standard deviation of the mean (perf's stddev_stats). */
static void run_stats(const struct stat_ev *e, double *mean, double *rsd)
{
	double m = 0, var = 0;

	for (int k = 0; k < e->nruns; k++)
		m += e->runs[k];
	m /= e->nruns;
	for (int k = 0; k < e->nruns; k++)
		var += (e->runs[k] - m) * (e->runs[k] - m);
	var /= e->nruns > 1 ? e->nruns - 1 : 1;
	*mean = m;
	*rsd = m ? 100.0 * sqrt(var / e->nruns) / m : 0;
}

/* Rows of unit u (-1: all PMCs): values, then the metrics among them. */
static void fill_rows(struct stat_opts *o, int u, int delta, double elapsed_ns, struct row *rows)
{
	struct metric_count c[STAT_MAX_EVENTS];

	for (int i = 0; i < o->nev; i++) {
		struct stat_ev *e = &o->ev[i];
		struct row *w = &rows[i];
		memset(w, 0, sizeof(*w));
		stat_sum(e, u, delta, &w->r);
		w->value = stat_value(e, &w->r);
		if (o->repeat > 1 && e->nruns && !delta)
			run_stats(e, &w->value, &w->rsd);
		w->counted = e->supported && !(w->r.pm_running == 0 && w->r.pm_enabled > 0);
		c[i].kind = e->kind;
		c[i].value = w->value;
		c[i].counted = w->counted;
		c[i].has_unit = e->unit[0] != '\0';
	}
	for (int i = 0; i < o->nev; i++)
		rows[i].has_metric = metric_for(c, o->nev, i, elapsed_ns, &rows[i].m);
}

static void human_row(struct stat_opts *o, const struct stat_ev *e, const struct row *w)
{
	FILE *f = o->out;
	char num[64];

	if (!e->supported || !w->counted) {
		fprintf(f, "%20s      %-32s\n", e->supported ? "<not counted>" : "<not supported>",
		    e->name);
		return;
	}
	if (is_clock(e)) {
		snprintf(num, sizeof(num), "%.2f", w->value / 1e6);
		fprintf(f, "%20s msec %-32s", num, e->name);
	} else if (e->unit[0]) {
		snprintf(num, sizeof(num), "%.2f", w->value);
		fprintf(f, "%20s %-4s %-32s", num, e->unit, e->name);
	} else {
		numfmt__group_digits((uint64_t)(w->value + 0.5), num, sizeof(num));
		fprintf(f, "%20s      %-32s", num, e->name);
	}
	if (w->has_metric)
		fprintf(f, " # %8.3f %-20s", w->m.value, w->m.unit);
	else
		fprintf(f, "   %8s %-20s", "", "");
	if (o->repeat > 1)
		fprintf(f, "  ( +- %5.2f%% )", w->rsd);
	if (w->r.pm_scaled && w->r.pm_enabled)
		fprintf(f, "  (%.2f%%)", 100.0 * (double)w->r.pm_running / (double)w->r.pm_enabled);
	fputc('\n', f);
}

/* One -x field: made printable (printable.h: no control character, so no
 * line break), then quoted as RFC 4180 says when it holds the separator or
 * a double quote (doubled inside). */
static void csv_field(FILE *f, const char *sep, const char *s)
{
	char buf[4 * 4096 + 1];

	s = printable__str(s, buf, sizeof(buf));
	if (!strstr(s, sep) && !strchr(s, '"')) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* value,unit,event[,rsd%],running-ns,running-%,metric,metric-unit */
static void csv_row(struct stat_opts *o, const struct stat_ev *e, const struct row *w)
{
	FILE *f = o->out;
	const char *s = o->sep;
	const char *unit = is_clock(e) ? "msec" : e->unit;

	if (!e->supported || !w->counted)
		fprintf(f, "%s%s%s%s", e->supported ? "<not counted>" : "<not supported>", s,
		    e->supported ? unit : "", s);
	else if (is_clock(e))
		fprintf(f, "%.2f%s%s%s", w->value / 1e6, s, unit, s);
	else if (e->unit[0])
		fprintf(f, "%.2f%s%s%s", w->value, s, unit, s);
	else
		fprintf(f, "%.0f%s%s%s", w->value, s, unit, s);
	csv_field(f, s, e->name);
	if (o->repeat > 1)
		fprintf(f, "%s%.2f%%", s, w->counted ? w->rsd : 0.0);
	if (!e->supported || !w->counted) {
		fprintf(f, "%s0%s0.00%s%s\n", s, s, s, s);
		return;
	}
	double pct = w->r.pm_enabled ?
	    100.0 * (double)w->r.pm_running / (double)w->r.pm_enabled : 100.0;
	fprintf(f, "%s%llu%s%.2f%s", s, (unsigned long long)w->r.pm_running, s, pct, s);
	if (w->has_metric)
		fprintf(f, "%.3f%s%s", w->m.value, s, w->m.unit);
	else
		fputs(s, f);
	fputc('\n', f);
}

/* A count as JSON: exact for integers (%.6g would round 99453132). */
static void json_number(FILE *f, double v)
{
	if (v >= 0 && v == (double)(uint64_t)v && v < 9007199254740992.0)
		fprintf(f, "%llu", (unsigned long long)v);
	else
		fprintf(f, "%.6f", v);
}

static void json_unit(struct stat_opts *o, int u)
{
	FILE *f = o->out;
	const struct stat_unit *su = &o->units[u];

	switch (o->aggr) {
	case AGGR_CPU:    fprintf(f, "\"cpu\":%d,", su->cpu); break;
	case AGGR_CORE:   fputs("\"core\":", f); break;
	case AGGR_SOCKET: fputs("\"socket\":", f); break;
	case AGGR_THREAD: fputs("\"thread\":", f); break;
	default: return;
	}
	if (o->aggr != AGGR_CPU) {
		json__string(f, su->label);
		fputc(',', f);
	}
	if (o->aggr == AGGR_CORE || o->aggr == AGGR_SOCKET)
		fprintf(f, "\"cpus\":%d,", su->ncpus);
}

static void json_row(struct stat_opts *o, const struct stat_ev *e, const struct row *w, int u,
    double interval_s)
{
	FILE *f = o->out;

	fputc('{', f);
	if (interval_s >= 0)
		fprintf(f, "\"interval_s\":%.6f,", interval_s);
	if (u >= 0)
		json_unit(o, u);
	fputs("\"event\":", f);
	json__string(f, e->name);
	fprintf(f, ",\"supported\":%s", e->supported ? "true" : "false");
	if (!e->supported) {
		fputs(",\"reason\":", f);
		json__string(f, e->why);
		fputc('}', f);
		return;
	}
	fprintf(f, ",\"counted\":%s,\"value\":", w->counted ? "true" : "false");
	json_number(f, w->value);
	fprintf(f, ",\"raw\":%llu,\"unit\":", (unsigned long long)w->r.pm_raw);
	json__string(f, is_clock(e) ? "ns" : e->unit);
	fprintf(f, ",\"enabled_ns\":%llu,\"running_ns\":%llu,\"scaled\":%s",
	    (unsigned long long)w->r.pm_enabled, (unsigned long long)w->r.pm_running,
	    w->r.pm_scaled ? "true" : "false");
	if (o->repeat > 1 && interval_s < 0) {
		fprintf(f, ",\"rsd_percent\":%.4f,\"run_values\":[", w->rsd);
		for (int k = 0; k < e->nruns; k++) {
			if (k)
				fputc(',', f);
			json_number(f, e->runs[k]);
		}
		fputc(']', f);
	}
	if (w->has_metric) {
		fprintf(f, ",\"metric\":{\"value\":%.6g,\"unit\":", w->m.value);
		json__string(f, w->m.unit);
		fputc('}', f);
	}
	fputc('}', f);
}

/* The label columns of unit u (human or CSV). */
static void unit_prefix(struct stat_opts *o, int u)
{
	FILE *f = o->out;
	const struct stat_unit *su;

	if (u < 0)
		return;
	su = &o->units[u];
	if (o->sep) {
		csv_field(f, o->sep, su->label);
		fputs(o->sep, f);
		if (o->aggr == AGGR_CORE || o->aggr == AGGR_SOCKET)
			fprintf(f, "%d%s", su->ncpus, o->sep);
	} else if (o->aggr == AGGR_CPU) {
		fprintf(f, "%-8s", su->label);
	} else if (o->aggr == AGGR_THREAD) {
		fprintf(f, "%24s ", su->label);
	} else {
		fprintf(f, "%-12s %4d ", su->label, su->ncpus);
	}
}

/*
 * Every row of one period: per unit, or all together.  perf's order: event
 * by event, each event's units together (-A), but unit by unit for cores,
 * sockets and threads.
 */
static void print_rows(struct stat_opts *o, int delta, double elapsed_ns, double t_ns, int *first)
{
	int nu = o->aggr == AGGR_GLOBAL ? 1 : o->nunits;
	struct row *rows = calloc((size_t)nu * (size_t)o->nev, sizeof(*rows));

	if (!rows)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	for (int u = 0; u < nu; u++)
		fill_rows(o, o->aggr == AGGR_GLOBAL ? -1 : u, delta, elapsed_ns,
		    &rows[(size_t)u * (size_t)o->nev]);
	int by_event = o->aggr == AGGR_CPU;
	for (int a = 0; a < (by_event ? o->nev : nu); a++)
		for (int b = 0; b < (by_event ? nu : o->nev); b++) {
			int u = by_event ? b : a, i = by_event ? a : b;
			const struct row *w = &rows[(size_t)u * (size_t)o->nev + (size_t)i];
			int ul = o->aggr == AGGR_GLOBAL ? -1 : u;
			if (o->json) {
				if (t_ns < 0 && (*first)++)
					fputc(',', o->out);
				json_row(o, &o->ev[i], w, ul, t_ns < 0 ? -1 : t_ns / 1e9);
				if (t_ns >= 0)
					fputc('\n', o->out);
				continue;
			}
			if (t_ns >= 0)
				fprintf(o->out, o->sep ? "%.6f%s" : "%14.6f ", t_ns / 1e9,
				    o->sep ? o->sep : "");
			unit_prefix(o, ul);
			if (o->sep)
				csv_row(o, &o->ev[i], w);
			else
				human_row(o, &o->ev[i], w);
		}
	free(rows);
}

static void target_string(struct stat_opts *o, char *buf, size_t len)
{
	size_t n = 0;
	const struct cli_target *t = &o->tgt;

	buf[0] = '\0';
	if (t->cmd) {
		if (t->system_wide)
			n = (size_t)snprintf(buf, len, "system wide, while running: ");
		for (char **a = t->cmd; *a && n + 2 < len; a++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", a == t->cmd ? "" : " ", *a);
	} else if (t->system_wide) {
		snprintf(buf, len, t->cpu_list ? "CPU(s) selected" : "system wide");
	} else {
		n = (size_t)snprintf(buf, len, "%s ", t->threads ? "thread" : "process id");
		for (int i = 0; i < t->npids && n + 2 < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "," : "", (int)t->pids[i]);
	}
}

void stat_print_final(struct stat_opts *o, double elapsed_ns, double elapsed_sd_ns,
    const struct rusage *ru, int status_known, int status)
{
	char what[512];
	FILE *f = o->out;
	int first = 0;

	target_string(o, what, sizeof(what));
	if (o->json) {
		fputs("{\"target\":", f);
		json__string(f, what);
		fprintf(f, ",\"backend\":\"%s\",\"elapsed_ns\":%.0f", pmc_backend_name(), elapsed_ns);
		if (status_known)
			fprintf(f, ",\"exit_status\":%d", status);
		if (o->repeat > 1)
			fprintf(f, ",\"runs\":%d,\"elapsed_sd_ns\":%.0f", o->repeat, elapsed_sd_ns);
		fputs(",\"events\":[", f);
		print_rows(o, 0, elapsed_ns, -1, &first);
		fputs("]}\n", f);
		return;
	}
	if (o->sep) {
		print_rows(o, 0, elapsed_ns, -1, &first);
		return;
	}
	if (o->repeat > 1)
		fprintf(f, "\n Performance counter stats for '%s' (%d runs):\n\n", what, o->repeat);
	else
		fprintf(f, "\n Performance counter stats for '%s':\n\n", what);
	print_rows(o, 0, elapsed_ns, -1, &first);
	if (o->repeat > 1) {
		/* perf's line: mean +- standard deviation of the mean */
		double sd = elapsed_sd_ns / sqrt((double)o->repeat);
		fprintf(f, "\n%17.9f +- %.9f seconds time elapsed  ( +- %5.2f%% )\n",
		    elapsed_ns / 1e9, sd / 1e9, elapsed_ns > 0 ? 100.0 * sd / elapsed_ns : 0.0);
	} else {
		fprintf(f, "\n%17.9f seconds time elapsed\n", elapsed_ns / 1e9);
	}
	if (ru) {
		fprintf(f, "%17.9f seconds user\n", (double)ru->ru_utime.tv_sec +
		    (double)ru->ru_utime.tv_usec / 1e6);
		fprintf(f, "%17.9f seconds sys\n", (double)ru->ru_stime.tv_sec +
		    (double)ru->ru_stime.tv_usec / 1e6);
	}
	for (int i = 0; i < o->nev; i++)
		if (!o->ev[i].supported) {
			fprintf(f, "\n%s: %s\n", o->ev[i].name, o->ev[i].why);
			break;
		}
	fputc('\n', f);
}

void stat_print_interval(struct stat_opts *o, double t_ns, double ival_ns)
{
	int first = 0;

	print_rows(o, 1, ival_ns, t_ns, &first);
	for (int i = 0; i < o->nev; i++)
		if (o->ev[i].nids)
			memcpy(o->ev[i].prev_rk, o->ev[i].rk,
			    (size_t)o->ev[i].nids * sizeof(*o->ev[i].rk));
	fflush(o->out);
}

/* ---- per-process (PMC_F_LOG_PROCEXIT through the log) --------------------- */

struct proc_row {
	pid_t pid, ppid;
	char comm[64];
	char path[4096];
	uint64_t *vals;
	int seen_exit;
};

static struct proc_row *proc_get(struct proc_row **rows, int *n, int *cap, int nev, pid_t pid)
{
	for (int i = 0; i < *n; i++)
		if ((*rows)[i].pid == pid)
			return &(*rows)[i];
	if (GROW(*rows, *n, *cap) < 0)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	struct proc_row *r = *rows;
	memset(&r[*n], 0, sizeof(r[*n]));
	r[*n].pid = pid;
	r[*n].ppid = -1;
	r[*n].vals = calloc((size_t)nev, sizeof(uint64_t));
	return &r[(*n)++];
}

static int ev_index_of(struct stat_opts *o, pmc_id_t id)
{
	for (int i = 0; i < o->nev; i++)
		for (int k = 0; k < o->ev[i].nids; k++)
			if (o->ev[i].ids[k] == id)
				return i;
	return -1;
}

static void read_per_process(struct stat_opts *o, void *p, struct proc_row **rows, int *n,
    int *cap)
{
	struct pmclog_ev ev;

	while (pmclog_read(p, &ev) == 0) {
		struct proc_row *r;
		int k;
		switch (ev.pl_type) {
		case PMCLOG_TYPE_PROCFORK:
			r = proc_get(rows, n, cap, o->nev, ev.pl_u.pl_f.pl_newpid);
			r->ppid = ev.pl_u.pl_f.pl_oldpid;
			break;
		case PMCLOG_TYPE_COMM:
			r = proc_get(rows, n, cap, o->nev, ev.pl_u.pl_cm.pl_pid);
			if (ev.pl_u.pl_cm.pl_pid == ev.pl_u.pl_cm.pl_tid || !r->comm[0])
				snprintf(r->comm, sizeof(r->comm), "%s", ev.pl_u.pl_cm.pl_comm);
			break;
		case PMCLOG_TYPE_PROCEXEC:
			r = proc_get(rows, n, cap, o->nev, ev.pl_u.pl_x.pl_pid);
			snprintf(r->path, sizeof(r->path), "%s", ev.pl_u.pl_x.pl_pathname);
			break;
		case PMCLOG_TYPE_PROCEXIT:
			k = ev_index_of(o, ev.pl_u.pl_e.pl_pmcid);
			if (k < 0)
				break;
			r = proc_get(rows, n, cap, o->nev, (pid_t)ev.pl_u.pl_e.pl_pid);
			r->vals[k] += ev.pl_u.pl_e.pl_value;
			r->seen_exit = 1;
			break;
		default:
			break;
		}
	}
}

/* A per-process count as shown: task-clock/cpu-clock in msec, like the totals. */
static const char *proc_value(const struct stat_ev *e, uint64_t v, char *buf, size_t len)
{
	if (is_clock(e))
		snprintf(buf, len, "%.2f", (double)v / 1e6);
	else
		numfmt__group_digits(v, buf, len);
	return buf;
}

static void print_proc_table(struct stat_opts *o, struct proc_row *rows, int n, int missing)
{
	FILE *f = o->out;

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
				json__string(f, o->ev[k].name);
				fprintf(f, ":%llu", (unsigned long long)rows[i].vals[k]);
			}
			fputs("}}", f);
		}
		fputs("]}\n", f);
		return;
	}
	if (o->sep) {
		for (int i = 0; i < n; i++) {
			fprintf(f, "%d%s%d%s", (int)rows[i].pid, o->sep, (int)rows[i].ppid, o->sep);
			csv_field(f, o->sep, rows[i].comm);
			for (int k = 0; k < o->nev; k++)
				if (rows[i].seen_exit)
					fprintf(f, "%s%llu", o->sep, (unsigned long long)rows[i].vals[k]);
				else
					fprintf(f, "%s-", o->sep);
			fputc('\n', f);
		}
		return;
	}
	fprintf(f, "\n Per-process counts (at each process's exit):\n\n%8s %8s  %-16s",
	    "PID", "PPID", "COMMAND");
	for (int k = 0; k < o->nev; k++) {
		char head[200];
		snprintf(head, sizeof(head), "%s%s", o->ev[k].name, is_clock(&o->ev[k]) ? " msec" : "");
		fprintf(f, " %18s", head);
	}
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		char num[64], comm[4 * sizeof(rows[i].comm)];
		fprintf(f, "%8d %8d  %-16s", (int)rows[i].pid, (int)rows[i].ppid,
		    rows[i].comm[0] ? printable__str(rows[i].comm, comm, sizeof(comm)) : "?");
		for (int k = 0; k < o->nev; k++)
			fprintf(f, " %18s", rows[i].seen_exit ?
			    proc_value(&o->ev[k], rows[i].vals[k], num, sizeof(num)) : "-");
		fputc('\n', f);
	}
	if (missing)
		fprintf(f, "\n - : the kernel reported no exit counts for %d process%s; "
		    "their counts are in the totals only.\n", missing, missing > 1 ? "es" : "");
}

void stat_print_per_process(struct stat_opts *o, int logfd, pid_t root)
{
	struct proc_row *rows = NULL;
	int n = 0, cap = 0;
	void *p;

	lseek(logfd, 0, SEEK_SET);
	p = pmclog_open(logfd);
	if (!p) {
		cli_warn("cannot read back the per-process log: %s", pmc_errmsg());
		return;
	}
	pmclog_set_extensions(p, 1);   /* COMM and pmc's other records too */
	proc_get(&rows, &n, &cap, o->nev, root);
	read_per_process(o, p, &rows, &n, &cap);
	pmclog_close(p);
	/* Each process's counts are in its PROCEXIT record; the library
	 * writes the one the kernel does not send (lib/log's exit watch).
	 * A row without one is unknown. */
	int missing = 0;
	for (int i = 0; i < n; i++)
		missing += !rows[i].seen_exit;
	rows[0].ppid = getpid();
	if (!rows[0].comm[0] && o->tgt.cmd)
		snprintf(rows[0].comm, sizeof(rows[0].comm), "%s", o->tgt.cmd[0]);
	/* A child that did not exec has its parent's name (fork copies it). */
	for (int pass = 0; pass < n; pass++)
		for (int i = 1; i < n; i++)
			if (!rows[i].comm[0])
				for (int j = 0; j < n; j++)
					if (j != i && rows[j].pid == rows[i].ppid && rows[j].comm[0])
						memcpy(rows[i].comm, rows[j].comm, sizeof(rows[i].comm));
	print_proc_table(o, rows, n, missing);
	for (int i = 0; i < n; i++)
		free(rows[i].vals);
	free(rows);
}
