/*
 * hmap.h — the small open-addressing map analysis keeps its interning
 * tables in: (u64, u64) -> u32, grown at half full, never shrunk.  Used by
 * profile.c (processes, threads, locations, functions; its stacks have a
 * table of their own, probed on hmap_chain_* hashes) and samples.c (sample
 * contexts).
 */
#ifndef PMCSTAT_HMAP_H
#define PMCSTAT_HMAP_H

#include <stdint.h>
#include <stdlib.h>

struct hent {
	uint64_t a, b;
	uint32_t v;
	uint32_t used;
};

struct hmap {
	struct hent *t;
	size_t cap, n;
};

static inline uint64_t hmap_mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
	h ^= h >> 31;
	h *= 0xBF58476D1CE4E5B9ull;
	h ^= h >> 29;
	return h;
}

/* The hash of a call chain, the one profile.c's stack interning keys its
 * table with: a step per frame (pc and its PROF_PC_* flags), then the
 * process and the frame count.  Shared with the perf.data reader's direct
 * sample path (perfdata__set_sample_sink), which computes it while it
 * decodes the chain so that interning does not walk the chain again.  A
 * step is one xor and one multiply on the running hash (a bijection of
 * it, so nothing is lost; what is added to it is worked out beside that
 * chain, the pc's high bits, where kernel addresses differ, folded into
 * its low ones); the end mixes it all once. */
#define HMAP_CHAIN_SEED 0
static inline uint64_t hmap_chain_step(uint64_t h, uint64_t pc, unsigned flags)
{
	return (h ^ (pc ^ (pc >> 29) ^ ((uint64_t)flags << 62))) * 0x9E3779B97F4A7C15ull;
}
static inline uint64_t hmap_chain_end(uint64_t h, int32_t pid, uint32_t n)
{
	return hmap_mix(h, (uint64_t)(uint32_t)pid << 32 | n);
}

/* The entry of (a, b): *found says whether it was there; a new one is
 * marked used with v to be set by the caller.  NULL out of memory (the
 * caller records it: profile.c's nomem, samples.c's -ENOMEM). */
static inline struct hent *hmap_slot(struct hmap *m, uint64_t a, uint64_t b, int *found)
{
	if ((m->n + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 1024;
		struct hent *nt = calloc(ncap, sizeof(*nt));
		if (!nt)
			return NULL;
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->t[i].used)
				continue;
			size_t j = hmap_mix(m->t[i].a, m->t[i].b) & (ncap - 1);
			while (nt[j].used)
				j = (j + 1) & (ncap - 1);
			nt[j] = m->t[i];
		}
		free(m->t);
		m->t = nt;
		m->cap = ncap;
	}
	size_t j = hmap_mix(a, b) & (m->cap - 1);
	while (m->t[j].used) {
		if (m->t[j].a == a && m->t[j].b == b) {
			*found = 1;
			return &m->t[j];
		}
		j = (j + 1) & (m->cap - 1);
	}
	*found = 0;
	m->t[j].used = 1;
	m->t[j].a = a;
	m->t[j].b = b;
	m->n++;
	return &m->t[j];
}

/* The entry of (a, b), or NULL; *probes (if not NULL) grows by the slots
 * looked at. */
static inline struct hent *hmap_find(const struct hmap *m, uint64_t a, uint64_t b,
    uint64_t *probes)
{
	if (!m->cap)
		return NULL;
	for (size_t j = hmap_mix(a, b) & (m->cap - 1); m->t[j].used; j = (j + 1) & (m->cap - 1)) {
		if (probes)
			++*probes;
		if (m->t[j].a == a && m->t[j].b == b)
			return &m->t[j];
	}
	return NULL;
}

/* Undo the entry hmap_slot just made (nothing was added after it, so no
 * probe sequence passes through its slot): its value could not be made. */
static inline void hmap_forget(struct hmap *m, struct hent *e)
{
	e->used = 0;
	m->n--;
}

#endif
