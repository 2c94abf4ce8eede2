/*
 * chains.c — the writer's bounded table of interned call chains (see
 * chains.h and docs/log-format.md, "Interned call chains").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log/chains.h"

#define WAYS 4
#define SETS (PMC_LOGCHAINS_SLOTS / WAYS)

struct slot {
	uint64_t hash;
	uint64_t used;                /* use stamp; 0: free */
	size_t len, cap;
	unsigned char *key;           /* the CHAIN payload after its id */
};

struct pmc_logchains {
	struct slot slot[PMC_LOGCHAINS_SLOTS];
	uint64_t clock;
	struct pmc_logrec key;        /* the chain's CHAIN encoding: its key */
	struct pmc_logrec ref;
};

struct pmc_logchains *pmc__logchains_new(void)
{
	return calloc(1, sizeof(struct pmc_logchains));
}

void pmc__logchains_reset(struct pmc_logchains *t)
{
	for (size_t i = 0; i < PMC_LOGCHAINS_SLOTS; i++) {
		free(t->slot[i].key);
		memset(&t->slot[i], 0, sizeof(t->slot[i]));
	}
	t->clock = 0;
}

void pmc__logchains_free(struct pmc_logchains *t)
{
	if (!t)
		return;
	pmc__logchains_reset(t);
	free(t);
}

static uint64_t hash(const unsigned char *p, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ n;

	/* n is a multiple of 8 (CHAIN payloads are) */
	for (size_t i = 0; i + 8 <= n; i += 8) {
		h ^= pmclog__ld64(p + i);
		h *= 0xFF51AFD7ED558CCDull;
		h ^= h >> 32;
	}
	return h;
}

int pmc__logchains_intern(struct pmc_logchains *t, const unsigned char *cc, size_t cclen,
    uint32_t *id, const struct pmc_logrec **ref)
{
	struct slot *set, *victim;
	const unsigned char *key;
	size_t klen;
	uint64_t h;

	*id = 0;
	*ref = NULL;
	/* the CHAIN encoding with a placeholder id holds what makes the chain
	 * (pmcid, pid, split, pcs), and refuses what a CHAINSAMPLE cannot
	 * stand for: the key is what follows the id */
	if (pmc__logrec_chain(&t->key, 1, cc, cclen) < 0)
		return 1;
	key = t->key.buf + 4;
	klen = t->key.len - 4;
	h = hash(key, klen);
	set = &t->slot[(h & (SETS - 1)) * WAYS];
	victim = &set[0];
	t->clock++;
	for (int w = 0; w < WAYS; w++) {
		struct slot *s = &set[w];
		if (s->used && s->hash == h && s->len == klen && memcmp(s->key, key, klen) == 0) {
			s->used = t->clock;
			pmc__logrec_chainsample(&t->ref, (uint32_t)(s - t->slot) + 1, cc, cclen);
			*ref = &t->ref;
			return 0;
		}
		if (s->used < victim->used)
			victim = s;           /* a free slot (0), else the least recently used */
	}
	if (victim->cap < klen) {
		unsigned char *k = realloc(victim->key, klen);
		if (!k)
			return -ENOMEM;
		victim->key = k;
		victim->cap = klen;
	}
	memcpy(victim->key, key, klen);
	victim->len = klen;
	victim->hash = h;
	victim->used = t->clock;
	*id = (uint32_t)(victim - t->slot) + 1;
	return 0;
}
