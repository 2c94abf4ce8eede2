/*
 * stream.h — the bytes of a log file, written by both of its writers: the
 * writer thread (writer.c, a live recording) and pmclog_writer (rewrite.c,
 * a log from decoded records).  One framing of a record (the 16-byte
 * header, the payload padded to 8 bytes), one output buffer, one zstd path
 * (each write-out one checksummed frame), one choice of how a sample's call
 * chain is written (chains.h).  What goes in the records, and the
 * statistics and locking around them, are the writers' own.
 */
#ifndef PMC_LOG_STREAM_H
#define PMC_LOG_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#include "log/chains.h"

struct pmc_logstream {
	int fd;
	unsigned char *buf;           /* records not yet written out */
	size_t len, cap;
	ZSTD_CCtx *zc;                /* NULL: uncompressed */
	unsigned char *zbuf;
	size_t zcap;
	unsigned char *side;          /* zstd: the stacks of buf's samples */
	size_t slen;                  /* (PMCLOG_CC2_SIDESTACK), cap bytes */
};

/*
 * A stream on fd with a cap-byte buffer (at least PMCLOG_REC_MAX), zstd
 * frames when zstd is set; the file magic is written at once (*written:
 * its bytes).  0, -ENOMEM, or the write's -errno (with a reason).  The
 * stream is freed on -ENOMEM; after a write error it stays set up (the
 * caller frees it, or keeps the error, as the log writer does).
 */
int pmc__logstream_open(struct pmc_logstream *s, int fd, size_t cap, int zstd, size_t *written);
void pmc__logstream_free(struct pmc_logstream *s);

/*
 * Frame one record into the buffer: type, aux (the header's spare word: the
 * chain a CALLCHAIN defines), ts, payload.  0; -EMSGSIZE if the record can
 * never fit or the type is not one; -ENOBUFS if the buffer has no room for
 * it now (write out, then frame again).  In a zstd stream a sample's user
 * stack (PMCLOG_SIDESTACK_MIN bytes or more) goes to the stack frame
 * written before the records' frame (PMCLOG_CC2_SIDESTACK).
 */
int pmc__logstream_frame(struct pmc_logstream *s, int type, uint32_t aux, uint64_t ts,
    const void *payload, size_t len);

/*
 * Write the buffer out (one zstd frame when compressing, after the stack
 * frame of its samples' stacks if it has any: one write) and empty it,
 * whatever happens.  0, -EIO if zstd failed, or the write's -errno;
 * *written: the bytes the file received.
 */
int pmc__logstream_write_out(struct pmc_logstream *s, size_t *written);

/*
 * What to frame for a record (chains.h): a CALLCHAIN whose chain was
 * written before becomes its CHAINSAMPLE (*type, *payload, *len replaced,
 * pointing into chains), the first sample of a chain keeps its payload and
 * defines the chain (*aux); anything else (or chains NULL, or out of
 * memory) is written as is with *aux 0.
 */
void pmc__logstream_choose(struct pmc_logchains *chains, int *type, uint32_t *aux,
    const void **payload, size_t *len);

#endif
