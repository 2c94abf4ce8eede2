/*
 * script.h — `pmc script`: every sample of a recording (pmc log or
 * perf.data), symbolized, one per line in time order, in perf script's
 * default text format so that the tools written for perf script
 * (FlameGraph's stackcollapse-perf.pl, and the like) read it; with call
 * chains, perf's multi-line form (a header line, one "\t    addr sym+off
 * (dso)" line per frame, a blank line).  On request the task and mapping
 * records too (perf's --show-task-events, --show-mmap-events), or the
 * whole as JSON lines (one object per sample or record).
 *
 * The command (tools/pmc/cmd_script.c) parses options into struct
 * script_opts; the filters are report's (struct prof_filter).
 */
#ifndef PMCSTAT_SCRIPT_H
#define PMCSTAT_SCRIPT_H

#include <stdio.h>

#include "profile/profile.h"

/* -F/--fields, named as perf script names them ("callchain" is pmc's:
 * perf prints the chain as part of "ip"). */
enum {
	SCRIPT_F_COMM = 1u << 0,
	SCRIPT_F_TID = 1u << 1,
	SCRIPT_F_PID = 1u << 2,
	SCRIPT_F_TIME = 1u << 3,
	SCRIPT_F_CPU = 1u << 4,
	SCRIPT_F_EVENT = 1u << 5,
	SCRIPT_F_PERIOD = 1u << 6,
	SCRIPT_F_IP = 1u << 7,
	SCRIPT_F_SYM = 1u << 8,
	SCRIPT_F_SYMOFF = 1u << 9,
	SCRIPT_F_DSO = 1u << 10,
	SCRIPT_F_CALLCHAIN = 1u << 11,
};
/* perf script's defaults: comm,tid,time,period,event,ip,sym,symoff,dso, and
 * cpu for system-wide events (whose samples carry it). */
#define SCRIPT_F_DEFAULT (SCRIPT_F_COMM | SCRIPT_F_TID | SCRIPT_F_TIME | SCRIPT_F_PERIOD | \
	SCRIPT_F_EVENT | SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_SYMOFF | SCRIPT_F_DSO | \
	SCRIPT_F_CALLCHAIN)

struct script_opts {
	struct prof_filter flt;  /* report's filters (--pid, --tid, --comm, -C, --time ...) */
	unsigned fields;         /* SCRIPT_F_* */
	int fields_set;          /* -F named them: cpu is printed whatever the event */
	int hide_callchain;      /* -G: one line per sample even with call chains */
	int show_task;           /* COMM, FORK, EXIT records */
	int show_mmap;           /* MMAP records */
	int json;                /* JSON lines instead of perf's text */
	int nanosecs;            /* --ns: times with 9 decimals */
	int no_inline;           /* --no-inline: no inlined frames in call chains */
};

/* Initialise o: default fields, no filters. */
void script__init(struct script_opts *o);
/* Parse -F: "comm,tid,ip" replaces the fields; "+pid,-period" (every item
 * signed) changes the current ones.  0, or -1 with the unknown name in bad. */
int script__parse_fields(struct script_opts *o, const char *list, char *bad, size_t badlen);
/* The field names, comma separated (for messages and --help). */
const char *script__field_names(void);

/* Print the samples (and chosen side-band records) of p that pass o->flt,
 * in time order.  p must have been loaded with prof_load_opts.sideband for
 * side-band records to exist.  0, or -1 if writing failed. */
int script__print(FILE *f, struct profile *p, const struct script_opts *o);

#endif
