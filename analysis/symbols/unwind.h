/*
 * unwind.h — user call chains from a sample's copy of the user registers
 * and stack (pmc record --call-graph dwarf, perf record --call-graph dwarf),
 * unwound with DWARF CFI through elfutils (libdwfl's frame API: .eh_frame
 * via .eh_frame_hdr, .debug_frame, separate debug files by build id and
 * debuglink).  One unwinder serves both inputs: the readers hand out the
 * same struct pmclog_ev_callchain with pl_uregs/pl_ustack filled.
 *
 * One Dwfl per address space, kept for the whole report: each binary the
 * process maps becomes one Dwfl_Module, opened once, its CFI parsed once
 * and reused by every sample of that process; mappings that arrive later
 * (dlopen) are added, an exec (a code mapping over an older one) rebuilds it.
 */
#ifndef PMCSTAT_UNWIND_H
#define PMCSTAT_UNWIND_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include "pmclog.h"
#include "symbols/symbols.h"

/* A mapping of the process, as analysis/profile/profile.c keeps them: later ones
 * (higher seq) win where they overlap older ones. */
struct unwind_map {
	uint64_t start, end, pgoff, seq;
	struct sym_dso *dso;
	uint32_t prot;                /* PROT_* as recorded (0: not known, taken as
	                               * executable: recordings hold code mappings) */
	uint64_t time;                /* when it was mapped (profile.c's lookups go by
	                               * time: records of different CPUs are not in
	                               * file order) */
	int synced;                   /* a sample was unwound with this the last
	                               * mapping (unwind__mark): the counts of
	                               * mappings an unwinder brings its process's
	                               * modules up to, one after another */
};

struct unwinder;
struct unwind_tables;

/* The per-binary tables several unwinders can share: each binary's frame
 * rules by file address (made from its CFI once, then applied without
 * libdw) and which of its functions start stacks (_start, clone).  One
 * unwinder per worker thread, all with the same tables: a rule or an
 * answer one of them made is not made again by another.  Thread-safe (a
 * lock of their own, held only to look up and add; a rule is made outside
 * it).  NULL out of memory. */
struct unwind_tables *unwind_tables__new(void);
/* Free t, after every unwinder using it. */
void unwind_tables__free(struct unwind_tables *t);

/* An unwinder using tables t, which must outlive it; NULL t: tables of its
 * own.  NULL out of memory. */
struct unwinder *unwind__new(struct unwind_tables *t);
void unwind__free(struct unwinder *u);
/* Several unwinders at once (one per worker thread, analysis/profile/profile.c):
 * each keeps its own libdwfl state (a Dwfl is not thread-safe), and takes
 * mu around its calls into analysis/symbols, whose binaries they share
 * with the thread that resolves.  NULL: no lock (one thread). */
void unwind__set_lock(struct unwinder *u, pthread_mutex_t *mu);
/* Can m hold code (a sampled pc, a return address)?  Not if its
 * protection is known and not executable. */
static inline int unwind_map__code(const struct unwind_map *m)
{
	return !m->prot || (m->prot & PROT_EXEC);
}

/* Before unwinding a sample with maps[0..nmaps) (nmaps > 0): mark the
 * count, so that every unwinder, whichever samples it gets, steps its
 * modules through the same counts (the same modules: the same frames). */
static inline void unwind__mark(struct unwind_map *maps, size_t nmaps)
{
	if (!maps[nmaps - 1].synced)
		maps[nmaps - 1].synced = 1;
}

/* Unwind the user stack of one sample of process `space` (the pid whose
 * mappings maps[0..nmaps) are; they only grow between calls).  Fills pcs
 * with the sampled user pc then the return addresses, outermost last, and
 * returns how many (0 if the sample has no user registers).  *complete is
 * 1 when the unwinding reached the outermost frame (_start, a thread's
 * start), 0 when it stopped early (stack copy too short, no CFI, depth). */
int unwind__user(struct unwinder *u, int32_t space, const struct unwind_map *maps,
    size_t nmaps, const struct pmclog_ev_callchain *cc, uint64_t *pcs, int max,
    int *complete);

/* Why the last unwind__user call stopped before the outermost frame
 * (UNWIND_WHOLE when it did not): what a report tells per binary. */
enum unwind_stop {
	UNWIND_WHOLE,
	UNWIND_NO_BINARY,     /* the pc is in no mapping with a readable ELF file */
	UNWIND_NO_CFI,        /* the binary has no CFI (.eh_frame, .debug_frame) for the pc */
	UNWIND_STACK_COPY,    /* the caller's frame lies beyond the sampled stack copy */
	UNWIND_MEMORY,        /* a register was saved where neither the copy nor a file is */
	UNWIND_DEPTH,         /* the chain reached the depth limit */
	UNWIND_NO_REGS,       /* the sample has no user registers, or an unknown machine */
};
/* The reason, and the pc of the frame whose caller could not be found (the
 * last one of the chain; 0 if none). */
enum unwind_stop unwind__last_stop(const struct unwinder *u, uint64_t *pc);
/* The reason in words ("no CFI for the pc"). */
const char *unwind__stop_str(enum unwind_stop why);
/* How many times a space's modules were reported again from scratch (a
 * code mapping over an earlier one: an exec, a remap): a measure of that
 * cost. */
uint64_t unwind__rebuilds(const struct unwinder *u);
/* How many frame rules this unwinder made from CFI (one its tables already
 * held, made by another of their unwinders, is not made again). */
uint64_t unwind__rules_made(const struct unwinder *u);
/* How many samples went to libdw's own unwinder (every frame evaluated
 * from CFI anew) because the cached rules could not finish them: a measure
 * of the slow path. */
uint64_t unwind__libdw_samples(const struct unwinder *u);
/* How many times this unwinder looked a function up in analysis/symbols
 * (under their lock) to know whether stacks start there; an answer its
 * tables held, from any of their unwinders, is not looked up again. */
uint64_t unwind__entry_lookups(const struct unwinder *u);

#endif
