/*
 * input.h — where records come from: a pmc log (file, pipe, stdin, or a file
 * still being written) or, through analysis/perfdata/ when it is built in, a
 * perf.data file.  Every reader hands out the same struct pmclog_ev records,
 * so nothing above this layer knows which it is reading.  The choice is made
 * in one place (input.c) on the file's first bytes.  A consumer that keeps
 * only samples' stacks (profile__load) may ask for them directly instead
 * (input__set_sample_sink): the perf.data reader then skips the event.
 */
#ifndef PMCSTAT_INPUT_H
#define PMCSTAT_INPUT_H

#include <stdint.h>
#include <sys/types.h>

#include "pmclog.h"
#include "perfdata/perfdata.h"

struct pmcstat_input;

/* Open path ("-" = standard input).  follow: the file is still being
 * written; reads wait for more until its CLOSELOG.  NULL on failure with
 * errno and pmc_errmsg(). */
struct pmcstat_input *input__open(const char *path, int follow);
/* pmclog_read's contract: 0 and PMCLOG_OK, or -1 with pl_state PMCLOG_EOF or
 * PMCLOG_ERROR (errno and pmc_errmsg() say why; REQUIRE_DATA is handled
 * here: more input is read, or waited for in follow mode). */
int input__read(struct pmcstat_input *in, struct pmclog_ev *ev);
/* Samples as struct perfdata_sample to fn, from within input__read, in
 * input order, instead of as CALLCHAIN events (perfdata__set_sample_sink
 * says which still come as events).  0 when the input does so (a
 * perf.data); -ENOTSUP for a pmc log, whose records stay events; -ENOMEM. */
int input__set_sample_sink(struct pmcstat_input *in, perfdata_sample_fn fn, void *arg);
/* on: only each chain's first pc to that sink (perfdata__set_sample_leaf);
 * nothing for a pmc log. */
void input__set_sample_leaf(struct pmcstat_input *in, int on);
/* on: the sink keeps the 0s that end a chain (perfdata__set_sample_zeros). */
void input__set_sample_zeros(struct pmcstat_input *in, int on);
/* on: the sink takes samples in input order, not time order
 * (perfdata__set_sample_unordered); a pmc log's are in input order
 * anyway. */
void input__set_sample_unordered(struct pmcstat_input *in, int on);
/* "pmc log" or "perf.data" */
const char *input__kind(const struct pmcstat_input *in);
/* After EOF: NULL, or if the input was cut short a message saying where
 * (kept with the input until input__close). */
const char *input__truncated(struct pmcstat_input *in);
void input__close(struct pmcstat_input *in);

#endif
