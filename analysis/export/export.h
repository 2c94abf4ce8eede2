/*
 * export.h — the formats `pmc report -F` writes, as one table: each format
 * says what it needs of the profile (whole stacks or leaves, samples in
 * time order, one by one for a timeline) and which function writes it, so
 * that the command asks the table how to load the profile and whom to
 * call, and a new format is one row.  The text and JSON reports
 * (report/report.h) are rows too: the table is above them, in the export
 * room.  Each export/NAME.c declares its own row (export__format_NAME)
 * beside its writer; export.c holds the table and the report's rows.
 */
#ifndef PMCSTAT_EXPORT_H
#define PMCSTAT_EXPORT_H

#include <stdio.h>

#include "profile/profile.h"
#include "report/report.h"

/* How much of each sample's stack a format reads. */
enum export_chains {
	EXPORT_CHAINS,          /* every frame, always (a flame graph, a call graph) */
	EXPORT_CHAINS_IF_ASKED, /* the leaf only, unless the report options ask
	                         * for more (report__uses_chains: a call graph,
	                         * --children) */
};

/* One output format. */
struct export_format {
	const char *name;       /* as -F spells it */
	int binary;             /* not text: refused on a terminal */
	int terminal;           /* written for a person: colours, the TUI */
	enum export_chains needs_chains;
	/* stacks numbered in the order their samples happened, which the
	 * output follows: the profile is loaded in time order (without it,
	 * in the input's order, prof_load_opts.input_order: the rows sort on
	 * their keys) */
	int needs_time_order;
	/* lists samples one by one, in time (speedscope's timeline): not only
	 * their sums (prof_load_opts.sums) */
	int needs_timeline;
	/* 0, -1 when the output could not be written, or -ENOMEM with
	 * pmc_errmsg() "out of memory" */
	int (*fn)(FILE *f, struct profile *p, const struct report_opts *o);
};

/* The rows, in the order -F's help lists them, NULL-terminated; the first
 * is the default (text). */
extern const struct export_format *const export__formats[];
/* The format called name, or NULL. */
const struct export_format *export__find(const char *name);
/* The formats' names, ", "-separated, into buf (len bytes, cut if short). */
void export__names(char *buf, size_t len);
/* The profile load options fmt needs with the report options o:
 * lo->leaf_only, lo->input_order and lo->sums (the rest left as it is). */
void export__load_opts(const struct export_format *fmt, const struct report_opts *o,
    struct prof_load_opts *lo);

/* The rows of export/NAME.c and of the report (export.c). */
extern const struct export_format export__format_text, export__format_json,
    export__format_folded, export__format_pprof, export__format_speedscope,
    export__format_callgrind, export__format_svg, export__format_html;

/* The writers (each export/NAME.c), as the rows call them. */
int export__folded(FILE *f, struct profile *p, const struct report_opts *o);
int export__pprof(FILE *f, struct profile *p, const struct report_opts *o);
int export__speedscope(FILE *f, struct profile *p, const struct report_opts *o);
int export__callgrind(FILE *f, struct profile *p, const struct report_opts *o);
int export__svg(FILE *f, struct profile *p, const struct report_opts *o);
int export__html(FILE *f, struct profile *p, const struct report_opts *o);

#endif
