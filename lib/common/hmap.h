/*
 * hmap.h — the one open-addressing hash map (linear probing, grown by
 * doubling at half full, never shrunk), in two shapes:
 *
 *  - struct hidx, an index over a caller's array: find-or-add of a key by
 *    its hash and the caller's key compare (hidx_get), the entries staying
 *    in the caller's array in the order they were added, so that nothing
 *    printed depends on the table.  Every keyed table of lib/ and analysis/
 *    (report's and top's entries, diff's rows, the call tree's children,
 *    callgrind's costs, pprof's string table (by content: hmap_str), the
 *    build-id paths, the profile's stacks and sums (profile/stacks.c, on
 *    hmap_chain_* hashes), the symbols' string pool, the unwinder's spaces
 *    by pid...) is one of these.
 *  - struct hmap, (u64, u64) -> u32 with the key in the slot: the profile's
 *    interning tables (processes, threads, locations, functions) and
 *    samples.c's sample contexts.
 */
#ifndef PMC_COMMON_HMAP_H
#define PMC_COMMON_HMAP_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* The hash of a string's content (FNV-1a of its bytes, mixed): for an
 * index keyed by strings compared with strcmp. */
static inline uint64_t hmap_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return hmap_mix(h, 0);
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

/* An index over a caller's array: a slot keeps the low 32 bits of its
 * key's hash (probes compare them before calling the key compare, and
 * growth rehashes without the keys) and the entry's index + 1 (0: empty). */
struct hidx_slot {
	uint32_t h, v;
};

struct hidx {
	struct hidx_slot *t;
	size_t cap, n;
};

/* Does the caller's entry i hold key?  (tab: the caller's table.) */
typedef int hidx_eq_fn(const void *tab, uint32_t i, const void *key);

/* Put slot s in the first free slot of its probe sequence in t (cap slots). */
static inline void hidx_place(struct hidx_slot *t, size_t cap, struct hidx_slot s)
{
	size_t j = s.h & (cap - 1);
	while (t[j].v)
		j = (j + 1) & (cap - 1);
	t[j] = s;
}

/* Make the table ncap slots (a power of two, above its count): 0, or -1
 * out of memory with the table as it was. */
static inline int hidx_resize(struct hidx *x, size_t ncap)
{
	struct hidx_slot *nt = calloc(ncap, sizeof(*nt));
	if (!nt)
		return -1;
	for (size_t i = 0; i < x->cap; i++)
		if (x->t[i].v)
			hidx_place(nt, ncap, x->t[i]);
	free(x->t);
	x->t = nt;
	x->cap = ncap;
	return 0;
}

/* The entry of key (hash h; eq(tab, i, key) compares it with entry i), or
 * -1 when it has none; the table left as it is. */
static inline int64_t hidx_find(const struct hidx *x, uint64_t h, hidx_eq_fn *eq,
    const void *tab, const void *key)
{
	if (!x->cap)
		return -1;
	for (size_t j = h & (x->cap - 1); x->t[j].v; j = (j + 1) & (x->cap - 1))
		if (x->t[j].h == (uint32_t)h && eq(tab, x->t[j].v - 1, key))
			return x->t[j].v - 1;
	return -1;
}

/* Find-or-add: the slot of key (hash h, compared by eq as in hidx_find);
 * if the table has none, a slot made for entry next (the caller's count:
 * the caller appends the entry there), *added set.  The table grows at half
 * full, to first slots (a power of two) the first time.  NULL out of memory,
 * the table as it was.  A caller whose append then fails takes the slot
 * back with hidx_unadd. */
static inline struct hidx_slot *hidx_get(struct hidx *x, uint64_t h, size_t first,
    hidx_eq_fn *eq, const void *tab, const void *key, uint32_t next, int *added)
{
	if ((x->n + 1) * 2 > x->cap && hidx_resize(x, x->cap ? x->cap * 2 : first) < 0)
		return NULL;
	size_t j = h & (x->cap - 1);
	for (; x->t[j].v; j = (j + 1) & (x->cap - 1))
		if (x->t[j].h == (uint32_t)h && eq(tab, x->t[j].v - 1, key)) {
			*added = 0;
			return &x->t[j];
		}
	x->t[j] = (struct hidx_slot){ (uint32_t)h, next + 1 };
	x->n++;
	*added = 1;
	return &x->t[j];
}

/* Take back the slot hidx_get just added (nothing added after it, so no
 * probe sequence runs through it). */
static inline void hidx_unadd(struct hidx *x, struct hidx_slot *s)
{
	s->v = 0;
	x->n--;
}

/* Add entry i (hash h), known to be absent, to a table with room for it
 * (one hidx_clear emptied): the caller's array compacted, its entries
 * indexed again. */
static inline void hidx_put(struct hidx *x, uint64_t h, uint32_t i)
{
	hidx_place(x->t, x->cap, (struct hidx_slot){ (uint32_t)h, i + 1 });
	x->n++;
}

/* Forget every entry (the caller's array emptied or compacted: it adds
 * them again), keeping the slots. */
static inline void hidx_clear(struct hidx *x)
{
	if (x->cap)
		memset(x->t, 0, x->cap * sizeof(*x->t));
	x->n = 0;
}

static inline void hidx_free(struct hidx *x)
{
	free(x->t);
	*x = (struct hidx){ 0 };
}

#endif
