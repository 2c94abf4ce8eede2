/* stream.c — the bytes of a log file (see stream.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fdio.h"
#include "log/format.h"
#include "log/stream.h"

void pmc__logstream_free(struct pmc_logstream *s)
{
	if (s->zc)
		ZSTD_freeCCtx(s->zc);
	free(s->zbuf);
	free(s->side);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

int pmc__logstream_open(struct pmc_logstream *s, int fd, size_t cap, int zstd, size_t *written)
{
	int rc;

	memset(s, 0, sizeof(*s));
	*written = 0;
	s->fd = fd;
	s->cap = cap < PMCLOG_REC_MAX ? PMCLOG_REC_MAX : cap;
	s->buf = malloc(s->cap);
	if (zstd) {
		s->zc = ZSTD_createCCtx();
		/* a stack frame and a record frame, each of at most cap bytes */
		s->zcap = PMCLOG_STACK_FRAME_HDR + 2 * ZSTD_compressBound(s->cap);
		s->zbuf = malloc(s->zcap);
		s->side = malloc(s->cap);
		if (s->zc) {
			ZSTD_CCtx_setParameter(s->zc, ZSTD_c_checksumFlag, 1);
			ZSTD_CCtx_setParameter(s->zc, ZSTD_c_compressionLevel, 3);
		}
	}
	if (!s->buf || (zstd && (!s->zc || !s->zbuf || !s->side))) {
		pmc__set_reason("out of memory");
		pmc__logstream_free(s);
		return -ENOMEM;
	}
	rc = pmc__write_full(fd, zstd ? PMCLOG_FILE_MAGIC_ZSTD : PMCLOG_FILE_MAGIC_RAW,
	    PMCLOG_FILE_MAGIC_LEN, written);
	/* A write error leaves the stream set up (the caller decides: the
	 * log writer keeps the error for the flush, as hwpmc does). */
	if (rc < 0)
		pmc__set_reason("cannot write the log: %s", strerror(-rc));
	return rc;
}

/* Frame a sample whose user stack (slen bytes at payload + at + 8, at
 * the offset of its len field) goes to the stack frame: the record keeps
 * everything else, with the stack's offset in s->side in its place. */
static int frame_sidestack(struct pmc_logstream *s, uint32_t aux, uint64_t ts,
    const unsigned char *payload, size_t len, size_t at, uint32_t slen)
{
	size_t spad = ((size_t)slen + 7) & ~(size_t)7, head = at + 8;
	size_t rest = len - head - spad;          /* the raw payload after it */
	size_t plen = head + 8 + rest, padded = (plen + 7) & ~(size_t)7;
	size_t total = PMCLOG_REC_HDR_LEN + padded;
	unsigned char *d;

	/* a reader takes a stack frame of PMCLOG_STACK_FRAME_MAX at most */
	if (s->len + total > s->cap || s->slen + slen > s->cap ||
	    s->slen + slen > PMCLOG_STACK_FRAME_MAX)
		return -ENOBUFS;
	d = s->buf + s->len;
	pmclog__st32(d, PMCLOG_HDR_MAKE(PMCLOG_TYPE_CALLCHAIN, total));
	pmclog__st32(d + 4, aux);
	pmclog__st64(d + 8, ts);
	d += PMCLOG_REC_HDR_LEN;
	memcpy(d, payload, head);
	pmclog__st32(d + 16, pmclog__ld32(payload + 16) | PMCLOG_CC2_SIDESTACK);
	pmclog__st32(d + head, (uint32_t)s->slen);
	pmclog__st32(d + head + 4, 0);
	memcpy(d + head + 8, payload + head + spad, rest);
	memset(d + plen, 0, padded - plen);
	memcpy(s->side + s->slen, payload + head, slen);
	s->slen += slen;
	s->len += total;
	return 0;
}

int pmc__logstream_frame(struct pmc_logstream *s, int type, uint32_t aux, uint64_t ts,
    const void *payload, size_t len)
{
	size_t padded = (len + 7) & ~(size_t)7, total = PMCLOG_REC_HDR_LEN + padded;
	unsigned char *d;
	size_t at;

	if (total > PMCLOG_REC_MAX || type <= 0 || type > 255)
		return -EMSGSIZE;
	if (s->zc && type == PMCLOG_TYPE_CALLCHAIN &&
	    (at = pmclog__ustack_at(payload, len)) != 0) {
		uint32_t slen = pmclog__ld32((const unsigned char *)payload + at);
		if (slen >= PMCLOG_SIDESTACK_MIN && len - at - 8 >= (((size_t)slen + 7) & ~(size_t)7))
			return frame_sidestack(s, aux, ts, payload, len, at, slen);
	}
	if (s->len + total > s->cap)
		return -ENOBUFS;
	d = s->buf + s->len;
	pmclog__st32(d, PMCLOG_HDR_MAKE(type, total));
	pmclog__st32(d + 4, aux);
	pmclog__st64(d + 8, ts);
	if (len)
		memcpy(d + PMCLOG_REC_HDR_LEN, payload, len);
	memset(d + PMCLOG_REC_HDR_LEN + len, 0, padded - len);
	s->len += total;
	return 0;
}

int pmc__logstream_write_out(struct pmc_logstream *s, size_t *written)
{
	const void *p = s->buf;
	size_t n = s->len;

	*written = 0;
	if (!n)
		return 0;
	s->len = 0;
	if (s->zc) {
		size_t at = 0, z;
		if (s->slen) {            /* the stack frame first: a reader has
		                           * the stacks when it meets the samples */
			z = ZSTD_compress2(s->zc, s->zbuf + PMCLOG_STACK_FRAME_HDR,
			    s->zcap - PMCLOG_STACK_FRAME_HDR, s->side, s->slen);
			s->slen = 0;
			if (ZSTD_isError(z))
				return -EIO;
			pmclog__st32(s->zbuf, PMCLOG_STACK_FRAME_MAGIC);
			pmclog__st32(s->zbuf + 4, (uint32_t)z);
			at = PMCLOG_STACK_FRAME_HDR + z;
		}
		z = ZSTD_compress2(s->zc, s->zbuf + at, s->zcap - at, s->buf, n);
		if (ZSTD_isError(z))
			return -EIO;
		p = s->zbuf;
		n = at + z;
	}
	return pmc__write_full(s->fd, p, n, written);
}

void pmc__logstream_choose(struct pmc_logchains *chains, int *type, uint32_t *aux,
    const void **payload, size_t *len)
{
	const struct pmc_logrec *ref;
	uint32_t id;

	*aux = 0;
	if (*type != PMCLOG_TYPE_CALLCHAIN || !chains ||
	    pmc__logchains_intern(chains, *payload, *len, &id, &ref) != 0)
		return;
	if (ref) {
		*type = ref->type;
		*payload = ref->buf;
		*len = ref->len;
	} else {
		*aux = id;
	}
}
