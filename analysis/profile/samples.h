/*
 * samples.h — the samples of a profile, packed: at most 16 bytes a sample
 * however many there are, so that `pmc report` of millions of samples
 * needs less memory than the file it reads (issue 16).  Reports see each
 * sample as a struct prof_sample (profile.h) decoded on the way out.
 *
 * A sample keeps its stack id, the id of its context (process, thread,
 * event, CPU: interned once, with the context's name once resolved), its
 * time as a 32-bit offset from the first sample of its block of 4096 and
 * its period in 32 bits; each of the four is stored once while it is the
 * same in every sample (one thread: one context; `-c N`: one period).  An
 * offset beyond ±2.1 s or a period of 2^32 - 1 or more is kept aside by
 * sample index (rare: records of different CPUs interleave within a flush
 * interval, and periods are counts per sample).  An entry of a summed
 * profile (prof_load_opts.sums) also keeps how many samples it stands
 * for, in a fifth column that costs nothing while every entry is one.
 */
#ifndef PMCSTAT_SAMPLES_H
#define PMCSTAT_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "profile/profile.h"

/* NULL when out of memory. */
struct prof_samples *samples__new(void);
void samples__free(struct prof_samples *s);
size_t samples__count(const struct prof_samples *s);
/* 1 once an append or set failed for want of memory (sticky): a sample is
 * missing or no longer what was stored (profile__nomem reports it). */
int samples__nomem(const struct prof_samples *s);
/* Add x at the end (its comm is the context's: not stored per sample):
 * 0, or -ENOMEM (reason recorded) with x not added. */
int samples__append(struct prof_samples *s, const struct prof_sample *x);
/* Sample i (< count) as it was appended, comm the context's (NULL until
 * samples__set_comm named it). */
void samples__get(const struct prof_samples *s, size_t i, struct prof_sample *out);
/* Replace sample i (< count) by x: 0, or -ENOMEM (reason recorded) with
 * sample i no longer decodable as either: the caller drops it or fails. */
int samples__set(struct prof_samples *s, size_t i, const struct prof_sample *x);
/* Keep the first n samples. */
void samples__truncate(struct prof_samples *s, size_t n);
/* Changes whenever samples__set, samples__truncate or samples__set_comm
 * does (appends change samples__count): what was computed from the samples
 * at one (version, count) holds while both stay. */
uint64_t samples__version(const struct prof_samples *s);

/* Contexts: ids 0 .. samples__nctx() - 1, each a (pid, tid) whose samples
 * show the names samples__set_comm gave it (NULL until then). */
size_t samples__nctx(const struct prof_samples *s);
void samples__ctx(const struct prof_samples *s, size_t ctx, int32_t *pid, int32_t *tid);
/* Name a context's samples: name[k] from time from[k] on, for n >= 1 names
 * in time order, from[0] = 0 (copied).  A thread renamed by an exec has two:
 * its samples are named by a search among its context's few, not per
 * sample.  0, or -ENOMEM (reason recorded) with the old names kept. */
int samples__set_comm(struct prof_samples *s, size_t ctx, uint32_t n, const uint64_t *from,
    const char *const *name);

/* The parts of a sample that decide where a report adds it, without the
 * rest of samples__get's decoding: its stack, its context id, its weight
 * (period, or 1: prof_weight) and its name (as samples__get's; its time
 * is decoded only for a context whose name changes over time). */
struct sample_key {
	uint32_t stack, ctx;
	uint64_t weight;
	uint64_t count;               /* samples (prof_count) */
	const char *comm;
};
/* The keys of samples i .. i + n - 1 (all < count) into out[0 .. n). */
void samples__keys(const struct prof_samples *s, size_t i, size_t n, struct sample_key *out);
/* What every sample of context ctx shares: out's pid, tid, ev and cpu, and
 * its comm when the context has exactly one name (else its first name, or
 * NULL if unnamed); the other fields 0.  Returns how many names the
 * context has (samples__set_comm's n; 0 unnamed). */
uint32_t samples__ctx_sample(const struct prof_samples *s, size_t ctx, struct prof_sample *out);

#endif
