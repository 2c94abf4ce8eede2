/*
 * chains.h — the writer's table of interned call chains (log format 3).
 *
 * A sample whose call chain was written before costs a 32-byte CHAINSAMPLE
 * record that names the chain by id, instead of a CALLCHAIN of 48 + 8 bytes
 * per pc.  The first sample of a chain is written as its whole CALLCHAIN,
 * with the id it defines in the record header's spare word (format 3), so
 * interning costs nothing over format 1 when chains do not repeat (a
 * compiler's profile): the definition is the sample itself, in the same
 * stream, and a log cut anywhere never holds a CHAINSAMPLE whose chain
 * comes after it.
 *
 * Memory is bounded: a fixed number of slots (PMC_LOGCHAINS_SLOTS, in sets
 * of 4 chosen by the chain's hash), each holding one chain.  A new chain
 * takes a free slot of its set, else the one least recently used; the id
 * of a chain is its slot number + 1, so a definition of an id already
 * defined replaces it, and a reader's table is bounded the
 * same way.  Ids belong to the stream: one table per log, used by whoever
 * appends to the stream under its lock (the writer thread and the core's
 * records alike), so samples of every CPU and thread share the ids.
 *
 * Not thread-safe: the caller serialises (the writer's mutex).
 */
#ifndef PMC_LOG_CHAINS_H
#define PMC_LOG_CHAINS_H

#include "log/records.h"

#define PMC_LOGCHAINS_SLOTS 4096        /* <= PMCLOG_CHAIN_ID_MAX */

struct pmc_logchains;

struct pmc_logchains *pmc__logchains_new(void);
void pmc__logchains_free(struct pmc_logchains *t);

/*
 * How to write a CALLCHAIN payload (cc, cclen bytes).  Returns 0 and sets
 * *ref to the CHAINSAMPLE to write instead (it points into t, valid until
 * the next call) when the chain was written before; returns 0 with *ref
 * NULL and *id set when the chain is new: write the CALLCHAIN whole with
 * *id in its record header's spare word, which defines the chain.  Returns 1 when the sample is to be written whole and
 * not interned (it carries a user stack or a period above 32 bits),
 * -ENOMEM when out of memory (write it whole too).
 */
int pmc__logchains_intern(struct pmc_logchains *t, const unsigned char *cc, size_t cclen,
    uint32_t *id, const struct pmc_logrec **ref);

/* Forget every chain (a new log starts: its ids mean nothing yet). */
void pmc__logchains_reset(struct pmc_logchains *t);

#endif
