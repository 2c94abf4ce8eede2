/*
 * browse.h — the rows of `pmc report --tui`: a flat profile (report__hist,
 * the text report's model) whose entries open into their call graphs
 * (report__entry_tree), zoomed into a thread, binary or command, filtered
 * by a symbol name, sorted by any -s keys, one event at a time.  The
 * terminal browser (tools/pmc/report_tui.c) only draws these rows and maps
 * keys to these calls, so everything a key does can be tested without a
 * terminal.
 */
#ifndef PMCSTAT_BROWSE_H
#define PMCSTAT_BROWSE_H

#include <stddef.h>
#include <stdint.h>

#include "report/report.h"

#define BROWSE_MAX_EVENTS 64
#define BROWSE_MAX_ZOOM   8

/* A row on screen: an entry (node BROWSE_ENTRY) or a node of its call graph. */
#define BROWSE_ENTRY UINT32_MAX
struct browse_row {
	uint32_t entry;              /* index into browse.h.e */
	uint32_t node;               /* BROWSE_ENTRY, or a node of the entry's tree */
	int depth;                   /* 0 for an entry; 1.. for call-graph levels */
};

struct browse_zoom {
	enum sort_key k;             /* SK_TID, SK_DSO or SK_COMM */
	char *val;                   /* the filter list it sets (owned) */
	char *label;                 /* what the header says ("binary libc.so.6") */
};

struct browse_entry;

struct browse {
	struct profile *p;
	struct report_opts o;        /* a copy; its flt carries the zooms */
	struct report_opts base;     /* as given */
	int ev[BROWSE_MAX_EVENTS], nev, evi;
	struct hist h;               /* the current event's flat profile */
	struct browse_entry *be;     /* per entry of h: its call graph, what is open */
	struct browse_row *rows;     /* what is shown, in order */
	size_t nrows, caprows;
	char filter[256];            /* "" or a substring of the symbols kept */
	struct browse_zoom zoom[BROWSE_MAX_ZOOM];
	int nzoom;
	int w[SK_N];                 /* the entries' column widths */
	char note[256];              /* why the last zoom was not possible */
};

/* Over a resolved profile with the report's options (copied): the first
 * event with samples.  0, or -ENOMEM / -ENOENT (no samples) with pmc_errmsg(). */
int browse__open(struct browse *b, struct profile *p, const struct report_opts *o);
void browse__free(struct browse *b);

/* The current event's index into p->ev. */
int browse__event(const struct browse *b);
/* The next event with samples (round again): 0, or -ENOMEM. */
int browse__next_event(struct browse *b);

/* Open or close row r: an entry or a call-graph node with callers (callees).
 * A chain of single children opens all the way, as perf's browser does.
 * 0, or -ENOMEM (building the entry's call graph). */
int browse__toggle(struct browse *b, size_t r);
/* Open (1) or close (0) every node of row r's entry, or with r
 * BROWSE_ALL of every entry: 0, or -ENOMEM. */
#define BROWSE_ALL ((size_t)-1)
int browse__expand(struct browse *b, size_t r, int open);
/* Is row r open / can it open? */
int browse__is_open(const struct browse *b, size_t r);
int browse__can_open(const struct browse *b, size_t r);

/* Zoom into the thread (SK_TID), binary (SK_DSO) or command (SK_COMM) of
 * row r's entry: 1 zoomed, 0 not possible (the entry has no such key:
 * b->note says so), -ENOMEM. */
int browse__zoom(struct browse *b, size_t r, enum sort_key k);
/* Back out of the last zoom: 1, or 0 if none. */
int browse__unzoom(struct browse *b);

/* Keep only entries whose symbol contains s ("" for all): 0, or -ENOMEM. */
int browse__set_filter(struct browse *b, const char *s);
/* Sort by -s keys ("comm,dso,sym"): 0, -EINVAL (pmc_errmsg() why), -ENOMEM. */
int browse__set_sort(struct browse *b, const char *keys);

/* Row r's share (% of the event, as the text report) and its text: for an
 * entry the sort keys' columns (report__key_str), for a node its function
 * and binary, indented. */
double browse__row_pct(const struct browse *b, size_t r);
void browse__row_text(const struct browse *b, size_t r, char *buf, size_t len);
/* Row r's entry's function (its name, its binary's name), or NULL when
 * the sort keys have no symbol. */
const char *browse__row_sym(const struct browse *b, size_t r, const char **dso);

#endif
