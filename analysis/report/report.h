/*
 * report.h — what `pmc report` prints: the flat profile (sorted histogram
 * of the sort keys, self and children), call graphs, summaries, as text or
 * JSON, and the helpers the export formats share.  The command
 * (tools/pmc/cmd_report.c) parses options into struct report_opts and asks
 * export/export.h's table of formats (whose rows the text and JSON reports
 * are) how to load the profile and what to call.
 */
#ifndef PMCSTAT_REPORT_H
#define PMCSTAT_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "util/json.h"
#include "profile/profile.h"
#include "profile/tree.h"

#define REPORT_CG_TREE  0
#define REPORT_CG_ENTRY 1

enum sort_key { SK_COMM, SK_PID, SK_TID, SK_DSO, SK_SYM, SK_SRCLINE, SK_CPU, SK_N };

struct report_opts {
	struct prof_filter flt;       /* flt.ev is set per section */
	int children;                 /* --children: inclusive column, sorted by it */
	enum sort_key sort[SK_N];
	int nsort;
	double percent_limit;         /* hide entries below this (%) */
	int callgraph;                /* -1 none, TREE_CALLER or TREE_CALLEE */
	int cg_depth;                 /* 0: unlimited */
	double cg_threshold;          /* % of the event's total */
	int cg_limit;                 /* entries per level (perf's print_limit), 0: all */
	int cg_layout;                /* REPORT_CG_TREE: one call graph after the table;
	                               * REPORT_CG_ENTRY: each entry's under it (perf's) */
	int inline_frames;            /* expand inlined functions (call graphs, exports) */
	int color;
	int max_entries;              /* 0: all */
	int relative;                 /* % of the filtered samples (perf's --percentage relative) */
	int flame_by;                 /* HTML flame graph's first level: 0 none, or
	                               * TREE_ROOT_COMM, _PID, _TID (--flame-by) */
	const char *input_name;
	/* A warning of the caller's for the text report's "Warnings" list,
	 * asked for when the list is printed (after the symbols the report
	 * reads are resolved), or NULL: pmc report's is the kernel-symbol
	 * cache's refusal of its directory (symbols/kcache.h), which report
	 * does not read itself.  May be NULL; returns NULL for none. */
	const char *(*warning)(void);
};

/* Does report__text or report__json with these options read more of a
 * stack than its leaf (a call graph, --children)?  When not, the profile
 * can be loaded with prof_load_opts.leaf_only. */
int report__uses_chains(const struct report_opts *o);

/* Parse "comm,dso,sym": 0, or -EINVAL with the unknown key in the reason. */
int report__parse_sort(struct report_opts *o, const char *list);
/* A sort key's name as -s spells it ("dso"). */
const char *report__sort_name(enum sort_key k);

/* The argument of -g/--call-graph in perf report's grammar (report_cgopt.c):
 * sets callgraph, cg_threshold, cg_limit.  0 (*note: NULL, or a remark for
 * the user, a constant string), or -EINVAL with pmc_errmsg() saying why. */
int report__parse_callgraph(struct report_opts *o, const char *arg, const char **note);

/* One flat-profile entry. */
struct hist_entry {
	uint32_t func;
	struct sym_dso *dso;
	const char *comm, *file;
	int32_t pid, tid, cpu, line;
	uint64_t self, children;      /* weights */
	uint64_t self_n, children_n;  /* samples */
};
struct hist {
	struct hist_entry *e;
	size_t n, cap;
	uint64_t total, total_n;      /* of the event, after filters */
	uint64_t base;                /* what percentages are of: the event's total
	                               * (time and CPU choices apply), or with
	                               * relative, the total after filters */
	struct hist_priv *priv;
};

/* A sort key (analysis/report/sort_keys.c): the one table of the keys that
 * report (its sort, columns, JSON) and top (live.c's views and zooms) read.
 * cmp orders two entries by the key (names by prof_name_cmp, numbers by
 * value); key copies the entry fields the key stands for (what a grouping
 * by keys keeps, so the entry hash covers them); same: do two entries share
 * the key's value (a zoom; sym: the function alone); print writes it as the
 * flat profile does ("[.] hot60", "003" for a CPU). */
struct sort_key_def {
	const char *name;             /* as -s spells it */
	const char *header;           /* the column's title */
	int (*cmp)(const struct profile *p, const struct hist_entry *x,
	    const struct hist_entry *y);
	void (*key)(struct hist_entry *to, const struct hist_entry *from);
	int (*same)(const struct hist_entry *x, const struct hist_entry *y);
	void (*print)(const struct profile *p, const struct hist_entry *e, char *buf, size_t len);
};
extern const struct sort_key_def report__sort_keys[SK_N];
/* The flat profile of event ev, sorted (self, or children with o->children). */
int report__hist(struct hist *h, struct profile *p, const struct report_opts *o, int ev);
void report__hist_free(struct hist *h);
/* The call graph of entry e of report__hist(p, o, ev): its samples' stacks
 * from the entry's frame (the leaf; with o->children, the first frame with
 * the entry's keys) outwards, callee → caller (who called it), or with
 * o->callgraph TREE_CALLER the other way round (from the outermost caller
 * down to it; with o->children from it down to what it called, as perf's
 * children entries); children sorted heaviest first.  Frames as the entry's
 * (no inlined ones).  0, or -ENOMEM. */
int report__entry_tree(struct ctree *t, struct profile *p, const struct report_opts *o, int ev,
    const struct hist_entry *e);
/* The same for entries 0 .. nt of h (report__hist(h, p, o, ev)) into
 * t[0 .. nt), in one walk of the samples: 0, or -ENOMEM (none to free). */
int report__entry_trees(struct ctree *t, size_t nt, struct profile *p,
    const struct report_opts *o, int ev, const struct hist *h);

/* Events that have samples (indices), in order; returns how many. */
int report__events(const struct profile *p, int *out, int max);

/* The text and JSON reports (rows of export/export.h's table of formats):
 * 0, -1 when the output could not be written, or -ENOMEM with
 * pmc_errmsg() "out of memory". */
int report__text(FILE *f, struct profile *p, const struct report_opts *o);
int report__json(FILE *f, struct profile *p, const struct report_opts *o);

/* Shared helpers. */
const char *report__func_name(const struct profile *p, uint32_t func);
const char *report__dso_name(const struct profile *p, uint32_t func);
/* A function's name in a graph (HTML, SVG): "[unknown]" for every
 * unresolved one (an address-named "0x..." too), its binary said apart. */
const char *report__frame_name(const struct profile *p, uint32_t func);
/* One sort key of an entry as the flat profile prints it ("[.] hot60",
 * "003" for a CPU), and the key's column title ("Shared Object"). */
void report__key_str(const struct profile *p, const struct hist_entry *e, enum sort_key k,
    char *buf, size_t len);
const char *report__col_title(enum sort_key k);
/* The recording's details from its HEADER (when and where it was recorded,
 * the CPU, the command line, the span of its samples) as lines starting
 * with PRE ("# " for the text report). */
void report__header_lines(FILE *f, const struct profile *p, const char *prefix);

#endif
