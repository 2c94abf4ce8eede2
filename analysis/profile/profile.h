/*
 * profile.h — a whole recording in memory, ready for reports: events,
 * samples (with their call chains deduplicated into stacks), processes,
 * threads and their names over time, mappings, per-process counts
 * (PROCEXIT / PROCCSW), USERDATA markers, lost samples.
 *
 * profile__load() reads every record from an input (analysis/input/input.h);
 * profile__resolve() then turns each distinct (process, pc) into a location
 * (binary + address) and each distinct location into a function, through
 * analysis/symbols.  Source lines and inlined frames are looked up only when
 * a report asks for them (profile__frames with PROF_INLINE, profile__srcline).
 *
 * Reports walk the samples with profile__foreach_group(), which applies
 * the filters (struct prof_filter) and hands out each distinct stack and
 * context once with its frames, its samples' count and weight; what needs
 * every sample on its own (a timeline) uses profile__foreach(), on a
 * profile loaded without prof_load_opts.sums (with it, the "samples" are
 * the sums).
 */
#ifndef PMCSTAT_PROFILE_H
#define PMCSTAT_PROFILE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "input/input.h"
#include "symbols/symbols.h"

struct prof_event {
	const char *name;        /* "cpu-clock:u", or "pmc 0x..." if never allocated */
	uint32_t pmcid;
	uint64_t rate;           /* period, or frequency if freq */
	int freq;
	uint32_t mode;
	uint32_t flags;          /* PMC_F_* */
	int percpu;              /* a system-mode PMC: other CPUs' PMCs of it join it */
	uint64_t samples;        /* all samples of this event (before filters) */
	uint64_t period;         /* sum of their periods */
	uint64_t lost;           /* DROPNOTIFY counts naming this PMC */
	int offcpu;              /* context-switches in a recording with SWITCH
	                          * records: its samples are switch-outs weighed
	                          * by ns off CPU (offcpu.h) */
	const char *what;        /* NULL, or what the weights are for a derived
	                          * event ("ns off CPU"), printed instead of the rate */
};

struct prof_func {
	const char *name;        /* interned, demangled */
	struct sym_dso *dso;
	uint64_t start, size;    /* in the dso's address space (size 0: inlined name) */
	int kernel;
};

struct prof_loc {
	struct sym_dso *dso;
	uint64_t addr;           /* dso address (for callers: return address - 1) */
	uint32_t func;
	int32_t line;            /* -1 not looked up, 0 none */
	const char *file;
	/* the start of the symbol holding addr: a function (one name in one
	 * binary) can be several symbols, C++ overloads or C statics of one
	 * name, and an offset is from the symbol's own start */
	uint64_t start;
};

/* A sample as reports see it (stored packed: samples.h). */
struct prof_sample {
	uint32_t stack;
	uint16_t ev;
	uint16_t cpu;
	int32_t pid, tid;
	uint64_t time;           /* ns on the log's clock */
	uint64_t period;         /* 0 if the record had none: counts as 1 */
	uint64_t count;          /* samples it stands for: 0 or 1 one; more in a
	                          * summed profile (prof_load_opts.sums), whose
	                          * period is then their weights' sum */
	const char *comm;        /* interned; resolved at the end by time */
};

/* One frame of a resolved stack, leaf first. */
struct prof_frame {
	uint32_t func;
	uint32_t loc;
	const char *file;        /* with PROF_INLINE (or PROF_LINES): the frame's line */
	int line;
};

struct prof_marker {
	uint64_t time;
	uint32_t value;
};

struct prof_proc {           /* per (pid, tid, pmc) counts from PROCEXIT / PROCCSW */
	int32_t pid, tid;
	uint32_t pmcid;
	uint64_t exit_value;     /* PROCEXIT */
	uint64_t csw_value;      /* PROCCSW sums */
	const char *comm;
};

/* A side-band record kept for pmc script (prof_load_opts.sideband): what
 * perf script's --show-task-events and --show-mmap-events print. */
enum prof_side_type { PROF_SB_COMM, PROF_SB_FORK, PROF_SB_EXIT, PROF_SB_MMAP };
struct prof_side {
	uint64_t time;
	enum prof_side_type type;
	int exec;                /* COMM: the name an exec gave */
	int32_t pid, tid;        /* FORK: the child; MMAP: pid -1 is the kernel */
	int32_t ppid, ptid;      /* FORK, EXIT: the parent (-1 if not known) */
	uint64_t start, len, pgoff;   /* MMAP */
	uint32_t prot;           /* MMAP: PROT_* (0 if not known) */
	const char *name;        /* COMM: the new name; MMAP: the path (interned) */
	const char *comm;        /* the task's name at that time (set by profile__resolve) */
};

struct prof_header {
	int have;
	char libversion[64], hostname[256], kernel[256], cpudesc[256], cmdline[4096];
	uint64_t start_realtime, start_clock;
	uint32_t arch, format_major, format_minor;
};

struct profile {
	struct symtab *st;
	struct prof_header hdr;
	const char *input_kind;
	struct prof_event *ev;
	size_t nev, capev;
	struct prof_samples *smp; /* the samples, packed (samples.h): profile__sample */
	size_t ns;                /* how many (each stands for prof_count samples) */
	struct prof_func *f;
	size_t nf, capf;
	struct prof_loc *l;
	size_t nl, capl;
	struct prof_marker *mk;
	size_t nmk, capmk;
	struct prof_proc *pr;
	size_t npr, cappr;
	struct prof_side *sb;     /* with prof_load_opts.sideband, in input order */
	size_t nsb, capsb;
	uint64_t lost_unknown;    /* lost, PMC not known */
	uint64_t first_time, last_time;
	uint64_t records;
	uint64_t unwind_samples;  /* samples with a user stack to unwind (DWARF) */
	uint64_t unwind_truncated; /* ... whose unwinding stopped before the outermost frame */
	uint64_t map_looks;       /* mappings looked at to place a pc or a new mapping
	                           * among a process's (the cost of those lookups) */
	struct prof_uwstop {      /* ... by where and why (analysis/symbols/unwind.h's reasons) */
		const char *dso;  /* the binary of the last frame reached (interned path;
		                   * "[unknown]" when no mapping holds it) */
		const char *why;  /* unwind__stop_str's words */
		uint64_t samples;
	} *uwstop;
	size_t nuwstop, capuwstop;
	char truncated[256];      /* "" or why */
	int resolved;
	struct prof_priv *priv;   /* stacks, maps, names, hashes (profile.c) */
};

struct prof_load_opts {
	int follow;
	int sideband;            /* keep task and mapping records (profile.sb) */
	/* keep only each sample's leaf pc: the stacks have one frame, which is
	 * all a flat profile reads (report__uses_chains says when).  Samples
	 * with a DWARF user stack are not unwound then (their sampled pc is
	 * their leaf) and a perf.data's stack bytes are not read; a pmc log's
	 * are decompressed with the record, and without sums (a --time window)
	 * its DWARF samples are still unwound (docs/architecture.md "Routes of
	 * a sample"). */
	int leaf_only;
	/* samples in the order the input holds them rather than time order
	 * (input__set_sample_unordered): the sums are the same, so a flat
	 * report, whose rows sort on their keys, prints the same; profile__foreach
	 * and anything else that lists samples see them in input order. */
	int input_order;
	/* keep the 0 return addresses that end a frame-pointer walk as frames
	 * ("0 [unknown] ([unknown])" in perf script); else they are dropped */
	int zero_frames;
	/* only sums are wanted (what profile__foreach_group gives, with no time
	 * window: the caller must not filter by time, nor list samples): the
	 * samples are added up per (stack, event, CPU, pid, tid, name, marker
	 * interval) as they are read and stored once per such group, each as
	 * one struct prof_sample whose time is its first sample's, whose count
	 * says how many it stands for and whose period is their weights' sum
	 * (prof_weight, prof_count).  Samples to be unwound from DWARF are
	 * stored one by one, before the sums.  Only for an input that can be
	 * read twice (a regular file, not follow mode): when the file's order
	 * leaves a group's name ambiguous, it is read again (a perf.data read
	 * with input_order: summed in time order; else, or if that is
	 * ambiguous too, sample by sample), and so it is when off-CPU time is
	 * to be worked out per sample (the progress callback then starts
	 * again). */
	int sums;
	/* worker threads that unwind DWARF samples (pmc's -j): 0 as many
	 * as the CPUs the process may use, 1 none (this thread unwinds).
	 * The profile is the same whatever the number. */
	int threads;
	/* called every 65536 records with the bytes/records so far */
	void (*progress)(void *arg, uint64_t records);
	void *progress_arg;
	struct symtab_opts sym;
};

/* Load everything: 0, or -errno with pmc_errmsg() saying why (a truncated
 * input is not an error: profile->truncated says so). */
int profile__load(struct profile **out, const char *path, const struct prof_load_opts *o);
/* Locate every recorded stack's pcs (once): 0, or -ENOMEM when a location
 * could not be made; then profile__nomem() says so too (sticky), and the
 * stacks it touches answer profile__frames with -ENOMEM. */
int profile__resolve(struct profile *p);
void profile__free(struct profile *p);
/* -ENOMEM (pmc_errmsg() "out of memory") if an allocation failed since the
 * profile was made (loading, resolving symbols): what was printed from it
 * is incomplete, and its user fails; else 0. */
int profile__nomem(const struct profile *p);
/* Sample i (< p->ns), decoded from the packed store; its comm is set once
 * profile__resolve ran (NULL before). */
void profile__sample(struct profile *p, size_t i, struct prof_sample *out);

/*
 * Live use (analysis/live/live.h: `pmc top`): an empty profile fed one record at
 * a time, whose samples the caller aggregates itself (p->s stays empty).
 * profile__new: NULL when out of memory (so NULL: demangling on).
 * profile__feed takes every record but samples (events, lost counts,
 * mappings, names, kernel symbols) and returns 0, or 1 for a sample
 * (PMCLOG_TYPE_CALLCHAIN) that the caller places with profile__locate;
 * -ENOMEM (pmc_errmsg() "out of memory") when a table could not grow: the
 * profile lacks that record, and keeps failing so (sticky).
 */
struct profile *profile__new(const struct symtab_opts *so);
int profile__feed(struct profile *p, const struct pmclog_ev *ev);
/* The event index (into p->ev) of a PMC id; a system-mode PMC of another
 * CPU is the event of its first CPU. */
uint32_t profile__event(struct profile *p, uint32_t pmcid);
/* Is event name ev name, or name:modifiers? */
int profile__event_named(const char *ev, const char *name);
/* Count the events' samples and weights again, after samples moved from
 * one event to another or went (offcpu.h). */
void profile__recount(struct profile *p);
/* An index (location, function) that could not be made: out of memory. */
#define PROF_NO_IX UINT32_MAX
/* The locations (indices into p->l) of a call chain's n program counters,
 * leaf first, sampled in process pid at time (through its mappings then;
 * UINT64_MAX: the latest): flags are the chain's PMC_CC_F_* (user space or
 * kernel).  What profile__resolve does for each recorded stack.  0, or
 * -ENOMEM (sticky, as profile__nomem) with the locations not made
 * PROF_NO_IX. */
int profile__locate(struct profile *p, int32_t pid, uint64_t time, const uint64_t *pcs,
    const uint8_t *flags, uint32_t n, uint32_t *locs);
/* A thread's name at time (its process's if it has none; "swapper" for
 * pid 0, ":PID" if nothing named it), interned. */
const char *profile__comm(struct profile *p, int32_t pid, int32_t tid, uint64_t time);

/* The frames of a stack, leaf first (cached): how many, or -ENOMEM (with
 * *out NULL; sticky, as profile__nomem).  flags: PROF_INLINE expands
 * inlined functions (needs DWARF), PROF_LINES fills file/line. */
#define PROF_INLINE 0x1
#define PROF_LINES  0x2
int profile__frames(struct profile *p, uint32_t stack, int flags, const struct prof_frame **out);
/* How many distinct stacks: their ids are 0 .. n - 1. */
size_t profile__nstacks(const struct profile *p);
/* The pcs of a stack as recorded (leaf first; a trailing 0 of a
 * frame-pointer walk dropped, DWARF-unwound user frames in place of the
 * sampled stack) and per pc its flags: how many. */
#define PROF_PC_USER    0x1      /* a user pc (PMC_CC_F_USERSPACE) */
#define PROF_PC_UNWOUND 0x2      /* unwound from the sampled user stack (DWARF) */
#define PROF_PC_FLAGS   (PROF_PC_USER | PROF_PC_UNWOUND)
int profile__stack_pcs(const struct profile *p, uint32_t stack, const uint64_t **pcs,
    const uint8_t **user);
/* Is pc k of a stack a caller's return address (looked up at pc - 1)?  All
 * but the leaf, except the first user pc under kernel pcs: that is where
 * the kernel interrupted the program. */
static inline int prof_pc_is_caller(const uint8_t *user, uint32_t k)
{
	return k > 0 && !((user[k] & 1) && !(user[k - 1] & 1));
}
/* A user pc of process pid, sampled at time, as an offset in the file
 * mapped there then (pc - start + file offset: what perf script prints for
 * user frames of call chains): 0, or -1 if no file or vDSO mapping held it. */
int profile__map_offset(struct profile *p, int32_t pid, uint64_t time, uint64_t pc,
    uint64_t *off);
/* Is func unresolved ("[unknown]", or an address named "0x...")? */
int profile__func_unresolved(const struct profile *p, uint32_t func);
/* The "[unknown]" function of binary d (for collapsed runs of frames);
 * PROF_NO_IX out of memory (sticky, as profile__nomem). */
uint32_t profile__func_unknown(struct profile *p, struct sym_dso *d);
/* The frames of one location, innermost inlined first (cached): how many,
 * or -ENOMEM with *out NULL (sticky). */
int profile__loc_frames(struct profile *p, uint32_t loc, const struct prof_frame **out);
/* Source line of a location (looked up once). */
int profile__srcline(struct profile *p, uint32_t loc, const char **file, int *line);

/* ---- filters and iteration ---------------------------------------------- */

/* --time: perf's ranges (profile__parse_time), bound to a recording when
 * a sample is matched (the percent forms and the seconds-from-the-start
 * form depend on its times).  Zeroed: no time filter. */
#define PROF_TIME_MAX 32
struct prof_time {
	int n;                   /* ranges; 0: no time filter */
	int pct;                 /* 1: fractions of the recording's sample span */
	uint64_t ref;            /* seconds forms: the first value given (ns); beyond the
	                          * recording's length: perf's timestamps, else seconds
	                          * from the recording's start */
	struct {
		uint64_t lo, hi;     /* seconds forms, ns; hi 0: no end */
		double plo, phi;     /* percent forms: fractions 0..1 */
	} r[PROF_TIME_MAX];
};

struct prof_filter {
	const char *pids, *tids, *comms, *dsos, *syms, *cpus;   /* comma lists or NULL */
	struct prof_time time;
	int ev;                  /* event index, -1 all */
};
/* A filter that passes everything (all events, no time window). */
void profile__filter_init(struct prof_filter *flt);
/* Does sample s pass the filter (NULL passes everything)?  After
 * profile__resolve.  profile__foreach applies the same test. */
int profile__match(struct profile *p, const struct prof_filter *flt, const struct prof_sample *s);
/* Each sample that passes: cb(arg, sample, frames leaf first, nframes). */
typedef void (*prof_cb)(void *arg, const struct prof_sample *s, const struct prof_frame *fr,
    int n);
void profile__foreach(struct profile *p, const struct prof_filter *flt, int flags, prof_cb cb,
    void *arg);
/*
 * The samples that pass, grouped: each distinct (stack, event, CPU, pid,
 * tid, comm) once, cb(arg, s, weight, count, frames, nframes) with s its
 * first sample (time, period; in a summed profile, its first sum), weight
 * the sum of its samples' weights (prof_weight) and count how many.  For what only adds samples up (a
 * histogram, a call tree, an export's totals) it gives what
 * profile__foreach gives, with the per-frame work done per distinct stack
 * and context instead of per sample (most samples repeat one seen before):
 * every filter, the time window included, is applied to each sample (in a
 * summed profile, to each sum: no time window there).  The
 * groups come in the order of their first samples, so that what a report
 * makes in the order it first sees it is made in the same order; a key may
 * come more than once (the groups are gathered in bounded batches), never
 * out of that order.  What needs each sample's time (a timeline) uses
 * profile__foreach.
 */
typedef void (*prof_group_cb)(void *arg, const struct prof_sample *s, uint64_t weight,
    uint64_t count, const struct prof_frame *fr, int n);
void profile__foreach_group(struct profile *p, const struct prof_filter *flt, int flags,
    prof_group_cb cb, void *arg);
/*
 * Parse --time into the filter, perf report/script's forms:
 *   START,END          seconds (perf's SEC.NSEC as perf script prints
 *                      times); either may be empty (an END of 0 too: no end)
 *   "S1,E1 S2,E2 ..."  several ranges, in order, apart (separated by spaces)
 *   P%/N[,P%/N...]     the Nth slice of P % of the recording's sample span
 *   A%-B%[,A%-B%...]   from A % to B % of it;  P%: the first P %
 * A seconds form names perf's timestamps when its first value is more than
 * the recording's length (from its start to its last sample), else seconds
 * from the recording's start (pmc's own form).  perf's timestamps are
 * seconds since boot: the two meet only in a recording begun sooner after
 * boot than it lasted.  0, or -EINVAL
 * with pmc_errmsg() saying what is wrong with arg.
 */
int profile__parse_time(struct prof_filter *flt, const char *arg);
/* Does a sample at time t pass flt's --time ranges in recording p? */
int profile__time_match(const struct profile *p, const struct prof_filter *flt, uint64_t t);
/* The numeric lists (pids, tids, cpus) hold integers: 0, or -EINVAL with
 * pmc_errmsg() "--pid: 'abc' is not a process id". */
int profile__check_filter(const struct prof_filter *flt);
/* A sample's weight: its period, or 1. */
static inline uint64_t prof_weight(const struct prof_sample *s)
{
	/* a summed entry's period is its samples' weights added up (mod 2^64,
	 * as adding them one by one gives: 0 only by wrapping) */
	return s->period || s->count > 1 ? s->period : 1;
}
/* The order of two names a profile holds (commands, functions, files;
 * NULL first): what report rows and call-graph siblings of equal weight
 * are sorted by. */
static inline int prof_name_cmp(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}
/* How many samples s stands for (prof_sample.count). */
static inline uint64_t prof_count(const struct prof_sample *s) { return s->count ? s->count : 1; }
/* The program of the process with the most samples (its lowest mapped
 * binary since its exec; a forked child's is its parent's), NULL if none. */
struct sym_dso *profile__main_dso(struct profile *p);
/* Seconds of t from the start of the recording. */
double profile__reltime(const struct profile *p, uint64_t t);

#endif
