/*
 * sort_keys.c — the sort keys of report and top (-s comm,pid,tid,dso,sym,
 * srcline,cpu) as one table (report.h struct sort_key_def): each key's
 * name, column title, order, the entry fields it keys on (what a grouping
 * keeps and the entry hash covers), its equality and how it prints.
 * report.c's sort and columns and live.c's views and zooms read it, so a
 * key is added here, once.
 */
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "util/printable.h"
#include "report/report.h"

#define NUM_CMP(a, b) ((a) < (b) ? -1 : (a) > (b))

/* buf = head then s, cut to len - 1 bytes as snprintf(buf, len, "%s%s")
 * would (without its format parsing: a column of every report line). */
static void key_put(char *buf, size_t len, const char *head, const char *s)
{
	size_t h = strlen(head), n = strlen(s);
	if (!len)
		return;
	if (h > len - 1)
		h = len - 1;
	if (n > len - 1 - h)
		n = len - 1 - h;
	memcpy(buf, head, h);
	memcpy(buf + h, s, n);
	buf[h + n] = '\0';
}

/* ---- comm ---- */
static int comm_cmp(const struct profile *p, const struct hist_entry *x, const struct hist_entry *y)
{
	return prof_name_cmp(x->comm, y->comm);
}
static void comm_key(struct hist_entry *to, const struct hist_entry *from)
{
	to->comm = from->comm;
}
static int comm_same(const struct hist_entry *x, const struct hist_entry *y)
{
	return x->comm == y->comm;
}
static void comm_print(const struct profile *p, const struct hist_entry *e, char *buf, size_t len)
{
	key_put(buf, len, "", e->comm ? e->comm : "?");
}

/* ---- pid, tid, cpu ---- */
static int pid_cmp(const struct profile *p, const struct hist_entry *x, const struct hist_entry *y)
{
	return NUM_CMP(x->pid, y->pid);
}
static void pid_key(struct hist_entry *to, const struct hist_entry *from)
{
	to->pid = from->pid;
}
static int pid_same(const struct hist_entry *x, const struct hist_entry *y)
{
	return x->pid == y->pid;
}
static void pid_print(const struct profile *p, const struct hist_entry *e, char *buf, size_t len)
{
	snprintf(buf, len, "%d", (int)e->pid);
}

static int tid_cmp(const struct profile *p, const struct hist_entry *x, const struct hist_entry *y)
{
	return NUM_CMP(x->tid, y->tid);
}
static void tid_key(struct hist_entry *to, const struct hist_entry *from)
{
	to->tid = from->tid;
}
static int tid_same(const struct hist_entry *x, const struct hist_entry *y)
{
	return x->tid == y->tid;
}
static void tid_print(const struct profile *p, const struct hist_entry *e, char *buf, size_t len)
{
	snprintf(buf, len, "%d", (int)e->tid);
}

static int cpu_cmp(const struct profile *p, const struct hist_entry *x, const struct hist_entry *y)
{
	return NUM_CMP(x->cpu, y->cpu);
}
static void cpu_key(struct hist_entry *to, const struct hist_entry *from)
{
	to->cpu = from->cpu;
}
static int cpu_same(const struct hist_entry *x, const struct hist_entry *y)
{
	return x->cpu == y->cpu;
}
static void cpu_print(const struct profile *p, const struct hist_entry *e, char *buf, size_t len)
{
	snprintf(buf, len, "%03d", (int)e->cpu);
}

/* ---- dso ---- */
static int dso_cmp(const struct profile *p, const struct hist_entry *x, const struct hist_entry *y)
{
	return prof_name_cmp(x->dso ? sym_dso__name(x->dso) : NULL,
	    y->dso ? sym_dso__name(y->dso) : NULL);
}
static void dso_key(struct hist_entry *to, const struct hist_entry *from)
{
	to->dso = from->dso;
}
static int dso_same(const struct hist_entry *x, const struct hist_entry *y)
{
	return x->dso == y->dso;
}
static void dso_print(const struct profile *p, const struct hist_entry *e, char *buf, size_t len)
{
	key_put(buf, len, "", e->dso ? sym_dso__name(e->dso) : "?");
}

/* ---- sym: the function (and its binary); kernel ones after user ones ---- */
static int sym_cmp(const struct profile *p, const struct hist_entry *x, const struct hist_entry *y)
{
	static const struct prof_func none;
	const struct prof_func *fx = x->func < p->nf ? &p->f[x->func] : &none;
	const struct prof_func *fy = y->func < p->nf ? &p->f[y->func] : &none;
	return fx->kernel != fy->kernel ? NUM_CMP(fx->kernel, fy->kernel) :
	    prof_name_cmp(fx->name, fy->name);
}
static void sym_key(struct hist_entry *to, const struct hist_entry *from)
{
	to->func = from->func;
	to->dso = from->dso;
}
static int sym_same(const struct hist_entry *x, const struct hist_entry *y)
{
	return x->func == y->func;
}
static void sym_print(const struct profile *p, const struct hist_entry *e, char *buf, size_t len)
{
	key_put(buf, len, p->f[e->func].kernel ? "[k] " : "[.] ", p->f[e->func].name);
}

/* ---- srcline: file and line (report only: top keeps no lines) ---- */
static int srcline_cmp(const struct profile *p, const struct hist_entry *x,
    const struct hist_entry *y)
{
	int c = prof_name_cmp(x->file, y->file);
	return c ? c : NUM_CMP(x->line, y->line);
}
static void srcline_key(struct hist_entry *to, const struct hist_entry *from)
{
	to->file = from->file;
	to->line = from->line;
}
static int srcline_same(const struct hist_entry *x, const struct hist_entry *y)
{
	return x->file == y->file && x->line == y->line;
}
static void srcline_print(const struct profile *p, const struct hist_entry *e, char *buf,
    size_t len)
{
	char name[1024];
	if (e->file)
		snprintf(buf, len, "%s:%d", printable__str(strrchr(e->file, '/') ?
		    strrchr(e->file, '/') + 1 : e->file, name, sizeof(name)), e->line);
	else
		snprintf(buf, len, "??:0");
}

#define SK(name, title) { #name, title, name##_cmp, name##_key, name##_same, name##_print }
const struct sort_key_def report__sort_keys[SK_N] = {
	[SK_COMM] = SK(comm, "Command"),
	[SK_PID] = SK(pid, "Pid"),
	[SK_TID] = SK(tid, "Tid"),
	[SK_DSO] = SK(dso, "Shared Object"),
	[SK_SYM] = SK(sym, "Symbol"),
	[SK_SRCLINE] = SK(srcline, "Source:Line"),
	[SK_CPU] = SK(cpu, "CPU"),
};

int report__parse_sort(struct report_opts *o, const char *list)
{
	char buf[256], *save = NULL, *tok;
	snprintf(buf, sizeof(buf), "%s", list);
	o->nsort = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k;
		/* perf's output columns, which its --sort takes too: the report
		 * always prints them (Self, Samples) and orders rows by the
		 * overhead first */
		if (strcmp(tok, "overhead") == 0 || strcmp(tok, "sample") == 0 ||
		    strcmp(tok, "period") == 0)
			continue;
		for (k = 0; k < SK_N; k++)
			if (strcmp(tok, report__sort_keys[k].name) == 0 ||
			    (k == SK_SYM && strcmp(tok, "symbol") == 0))
				break;
		if (k == SK_N || o->nsort == SK_N)
			return pmc__err(-EINVAL, "unknown sort key '%s' (comm, pid, tid, dso, sym, "
			    "srcline, cpu)", tok);
		o->sort[o->nsort++] = (enum sort_key)k;
	}
	if (o->nsort == 0)
		return pmc__err(-EINVAL, "no sort key in '%s' (comm, pid, tid, dso, sym, srcline, "
		    "cpu)", list);
	return 0;
}

const char *report__sort_name(enum sort_key k)
{
	return (unsigned)k < SK_N ? report__sort_keys[k].name : "?";
}

void report__key_str(const struct profile *p, const struct hist_entry *e, enum sort_key k,
    char *buf, size_t len)
{
	if ((unsigned)k < SK_N)
		report__sort_keys[k].print(p, e, buf, len);
	else
		buf[0] = '\0';
}

const char *report__col_title(enum sort_key k)
{
	return report__sort_keys[k].header;
}
