/*
 * live.h — a profile that grows while it is watched (`pmc top`): a log
 * stream (the fd a running libpmc log writer writes to) is read by a thread
 * of its own; each sample is symbolized as it arrives (analysis/profile/profile.h's
 * live API: mappings, names and kernel symbols from the same stream) and
 * added to one entry per (event, process, thread, CPU, command, function),
 * self for the sampled function and, with call chains, children for every
 * function on the chain.  Views group the entries by report's sort keys
 * (struct hist, analysis/report/report.h), filtered by zooms.
 *
 * Counts are perf top's: at the end of each interval (live__age) every
 * weight decays to 7/8 of itself, so the table follows what runs now and
 * an entry that stops being sampled fades away; with zero (perf top -z)
 * each interval starts from nothing.
 *
 * Every function may be called from any thread: the reader and the callers
 * are serialized by the aggregator's lock.
 */
#ifndef PMCSTAT_LIVE_H
#define PMCSTAT_LIVE_H

#include <stdint.h>

#include "profile/profile.h"
#include "report/report.h"

struct live;

/* so: symbol options (NULL: the defaults).  NULL when out of memory. */
struct live *live__new(const struct symtab_opts *so);
/* Stops reading (live__follow's thread ends when fd reaches its end: close
 * the writer first) and frees everything. */
void live__free(struct live *lv);

/* Read the log stream on fd in a thread of its own (all signals blocked
 * there) until its end or an error: 0, or -1 with errno.  fd stays open. */
int live__follow(struct live *lv, int fd);
/* Wait for the stream's end (the writer closed it): 0, or -errno with
 * pmc_errmsg() saying why (-EILSEQ a corrupt stream, -ENOMEM out of memory:
 * the aggregation stopped there). */
int live__wait(struct live *lv);
/* Take no more records: the rest of the stream is read and dropped (a
 * quick exit that neither symbolizes a backlog nor blocks the writer). */
void live__stop(struct live *lv);

/* Add one record (what live__follow does with each). */
void live__feed(struct live *lv, const struct pmclog_ev *ev);

/* Paused: samples are counted (live_stats.paused) but not added, so the
 * table holds still; side-band records are still taken. */
void live__pause(struct live *lv, int on);
/* End of an interval: decay every weight to 7/8 (entries that reach zero
 * go), or with zero forget them all. */
void live__age(struct live *lv, int zero);

struct live_stats {
	uint64_t samples;          /* samples added */
	uint64_t interval;         /* ... since the last live__age */
	uint64_t paused;           /* samples dropped while paused */
	uint64_t lost;             /* samples the kernel or the writer lost */
	uint64_t lost_interval;    /* ... since the last live__age */
	uint64_t records;
	int nev;                   /* events known */
	int ended;                 /* the stream has ended */
};
void live__stats(struct live *lv, struct live_stats *st);

/* A zoom: only entries whose key equals the value's (key's field of val). */
struct live_zoom {
	enum sort_key key;
	struct hist_entry val;
};

struct live_view {
	int ev;                        /* event index */
	enum sort_key sort[SK_N];      /* SK_SRCLINE is not kept live */
	int nsort;
	int children;                  /* sort by children (call chains) */
	const struct live_zoom *zoom;
	int nzoom;
};

/*
 * The rows of a view, heaviest first (self, or children with v->children):
 * h->total is what the zooms let through, h->base the event's whole weight
 * (percentages are of it, as perf top's).  Free with report__hist_free.
 * Print row keys with live__key_str.  0, or -1 (out of memory).
 */
int live__hist(struct live *lv, const struct live_view *v, struct hist *h);

/* One key of a row as report prints it (report__key_str, under the lock:
 * the reader may be adding names meanwhile). */
void live__key_str(struct live *lv, const struct hist_entry *e, enum sort_key k, char *buf,
    size_t len);
/* An event's name ("cpu-clock") and rate ("4000 Hz", "period 10000"); ""
 * for an index not (yet) known. */
void live__event_str(struct live *lv, int ev, char *name, size_t nlen, char *rate, size_t rlen);
/* Describe a zoom for the user: "Command 'busy'". */
void live__zoom_str(struct live *lv, const struct live_zoom *z, char *buf, size_t len);

#endif
