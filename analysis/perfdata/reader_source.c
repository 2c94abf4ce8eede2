/*
 * reader_source.c — the bytes of a perf.data, for the reader (see
 * reader_internal.h): the source (pread on a file, read on a pipe, memcpy
 * from memory, the data.N files of a directory in turn), the zstd stream
 * that COMPRESSED records carry, the byte order of bitfields, and the
 * sticky error that ends the input.  perf's util/data.c and its
 * decompression.  Every load is bounds-checked: a damaged file gives a
 * clear error or the records before the damage, never a crash.
 */
#include "perfdata/reader_internal.h"
#include "common/fdio.h"

int pd_set_err(struct perfdata *p, int e, const char *fmt, ...)
{
	va_list ap;
	if (p->pend_err || p->err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->errmsg, sizeof(p->errmsg), fmt, ap);
	va_end(ap);
	p->pend_err = e;
	p->input_done = 1;
	return -1;
}

/* The attr's bitfield word.  A big-endian compiler allocates bitfields from
 * the most significant bit of each byte, so for those files the bits of
 * every byte are reversed and the bytes read in order (perf's swap_bitfield). */
uint64_t pd_ld_bits(const struct perfdata *p, const unsigned char *b)
{
	uint64_t v = 0;
	if (!p->be) {
		for (int i = 7; i >= 0; i--)
			v = v << 8 | b[i];
		return v;
	}
	for (int i = 7; i >= 0; i--) {
		unsigned x = b[i], r = 0;
		for (int k = 0; k < 8; k++)
			r |= ((x >> k) & 1u) << (7 - k);
		v = v << 8 | r;
	}
	return v;
}

int perfdata__is_perfdata(const void *buf, size_t len)
{
	static const unsigned char le[8] = { 'P', 'E', 'R', 'F', 'I', 'L', 'E', '2' };
	static const unsigned char be[8] = { '2', 'E', 'L', 'I', 'F', 'R', 'E', 'P' };
	if (!buf || len < 8)
		return 0;
	return memcmp(buf, le, 8) == 0 || memcmp(buf, be, 8) == 0;
}

/* ---- the source ----------------------------------------------------------- */

ssize_t pd_src_pread(struct perfdata *p, void *buf, size_t n, uint64_t off)
{
	if (p->mem) {
		if (off >= p->memlen)
			return 0;
		if (n > p->memlen - off)
			n = (size_t)(p->memlen - off);
		memcpy(buf, p->mem + off, n);
		return (ssize_t)n;
	}
	return pmc__pread_full(p->fd, buf, n, off);
}

/* Fetch more stream bytes into buf (at most n).  0 at the end. */
static ssize_t src_fetch(struct perfdata *p, void *buf, size_t n)
{
	ssize_t r;
	if (p->spos >= p->data_end)
		return 0;
	if (n > p->data_end - p->spos)
		n = (size_t)(p->data_end - p->spos);
	if (p->mem || p->seekable) {
		r = pd_src_pread(p, buf, n, p->spos);
	} else {
		do
			r = read(p->fd, buf, n);
		while (r < 0 && errno == EINTR);
	}
	if (r > 0)
		p->spos += (uint64_t)r;
	return r;
}

/* Directory format: go on with the next data.N file.  0, or -1 if none. */
static int next_dfile(struct perfdata *p)
{
	struct stat sb;
	int fd;

	while (p->dnext < p->ndfiles) {
		const char *name = p->dfiles[p->dnext++];
		fd = openat(p->dirfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &sb) < 0) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		if (p->ilen > p->ipos) {
			/* the previous file ended inside a record */
			p->truncated = 1;
			p->ioff += p->ilen - p->ipos;
			p->ipos = p->ilen;
		}
		if (p->own_fd)
			close(p->fd);
		p->fd = fd;
		p->own_fd = 1;
		p->seekable = 1;
		p->fsize = (uint64_t)sb.st_size;
		p->spos = 0;
		p->ioff = 0;
		p->data_end = p->fsize;
		return 0;
	}
	return -1;
}

/* Make n bytes available at ibuf + ipos; returns how many are (< n only at
 * the end of the stream or on error). */
size_t pd_ensure(struct perfdata *p, size_t n)
{
	while (p->ilen - p->ipos < n && !p->ieof) {
		int shared = p->ichunk && p->ichunk->refs > 1;
		if (shared && p->icap - p->ilen < n) {
			/* queued records point into this chunk: go on in a new one
			 * with the few bytes not consumed (less than a record) */
			size_t nc = grow__cap(p->icap, n, IBUF_MIN), left = p->ilen - p->ipos;
			struct pd_chunk *c = nc && nc <= SIZE_MAX - sizeof(*c)
			    ? malloc(sizeof(*c) + nc) : NULL;
			if (!c) {
				pd_set_err(p, ENOMEM, "out of memory");
				p->ieof = 1;
				break;
			}
			c->refs = 1;
			memcpy(c->data, p->ibuf + p->ipos, left);
			pd_chunk_put(p->ichunk);
			p->ichunk = c;
			p->ibuf = c->data;
			p->icap = nc;
			p->ilen = left;
			p->ipos = 0;
		} else if (!shared && p->ipos && (p->icap - p->ilen < n || p->ipos > p->icap / 2)) {
			memmove(p->ibuf, p->ibuf + p->ipos, p->ilen - p->ipos);
			p->ilen -= p->ipos;
			p->ipos = 0;
		}
		if (p->icap - p->ipos < n) {
			/* not GROW: the chunk's header precedes its bytes */
			size_t nc = n > SIZE_MAX - p->ipos ? 0 : grow__cap(p->icap, p->ipos + n, IBUF_MIN);
			struct pd_chunk *c = nc && nc <= SIZE_MAX - sizeof(*c)
			    ? realloc(p->ichunk, sizeof(*c) + nc) : NULL;
			if (!c) {
				pd_set_err(p, ENOMEM, "out of memory");
				p->ieof = 1;
				break;
			}
			if (!p->ichunk)
				c->refs = 1;
			p->ichunk = c;
			p->ibuf = c->data;
			p->icap = nc;
		}
		ssize_t r = src_fetch(p, p->ibuf + p->ilen, p->icap - p->ilen);
		if (r < 0) {
			pd_set_err(p, errno, "cannot read the data: %s", strerror(errno));
			p->ieof = 1;
		} else if (r == 0) {
			if (next_dfile(p) == 0)
				continue;
			p->ieof = 1;
		} else {
			p->ilen += (size_t)r;
		}
	}
	return p->ilen - p->ipos;
}

void pd_consume(struct perfdata *p, size_t n)
{
	p->ipos += n;
	p->ioff += n;
}

/* Skip n stream bytes that follow a record (AUXTRACE data, tracing data). */
void pd_skip_bytes(struct perfdata *p, uint64_t n)
{
	size_t have = p->ilen - p->ipos;
	if (n <= have) {
		pd_consume(p, (size_t)n);
		return;
	}
	pd_consume(p, have);
	n -= have;
	if (p->mem || p->seekable) {
		uint64_t room = p->data_end - p->spos;
		if (p->data_end == UINT64_MAX && p->fsize)
			room = p->fsize > p->spos ? p->fsize - p->spos : 0;
		if (n > room) {
			p->spos += room;
			p->ioff += room;
			p->truncated = 1;
			p->ieof = 1;
			return;
		}
		p->spos += n;
		p->ioff += n;
		return;
	}
	while (n) {
		size_t c = pd_ensure(p, 1);
		if (!c) {
			p->truncated = 1;
			return;
		}
		if (c > n)
			c = (size_t)n;
		pd_consume(p, c);
		n -= c;
	}
}

size_t pd_take_bytes(struct perfdata *p, unsigned char *dst, uint64_t n)
{
	size_t got = 0;
	while (got < n) {
		size_t c = pd_ensure(p, 1);
		if (!c) {
			p->truncated = 1;
			break;
		}
		if (c > n - got)
			c = (size_t)(n - got);
		memcpy(dst + got, p->ibuf + p->ipos, c);
		pd_consume(p, c);
		got += c;
	}
	return got;
}

int pd_decompress(struct perfdata *p, const unsigned char *src, size_t n)
{
	ZSTD_inBuffer in = { src, n, 0 };

	if (!p->zd) {
		p->zd = ZSTD_createDStream();
		if (!p->zd || ZSTD_isError(ZSTD_initDStream(p->zd)))
			return pd_set_err(p, ENOMEM, "cannot create a zstd decompressor");
	}
	if (p->dpos) {
		memmove(p->dbuf, p->dbuf + p->dpos, p->dlen - p->dpos);
		p->dlen -= p->dpos;
		p->dpos = 0;
	}
	while (in.pos < in.size) {
		if (p->dcap - p->dlen < ZSTD_DStreamOutSize()) {
			size_t nc = grow__cap(p->dcap, p->dcap + 1, 4 * ZSTD_DStreamOutSize());
			if (nc > DBUF_MAX)
				return pd_set_err(p, EILSEQ, "corrupt perf.data: a COMPRESSED record at "
				    "%" PRIu64 " expands past %u MB", p->doff, DBUF_MAX >> 20);
			unsigned char *nb = realloc(p->dbuf, nc);
			if (!nb)
				return pd_set_err(p, ENOMEM, "out of memory");
			p->dbuf = nb;
			p->dcap = nc;
		}
		ZSTD_outBuffer out = { p->dbuf, p->dcap, p->dlen };
		size_t r = ZSTD_decompressStream(p->zd, &out, &in);
		if (ZSTD_isError(r))
			return pd_set_err(p, EILSEQ, "corrupt perf.data: the COMPRESSED record at %"
			    PRIu64 " does not decompress: %s", p->doff, ZSTD_getErrorName(r));
		p->dlen = out.pos;
		if (out.pos < out.size && in.pos == in.size)
			break;
	}
	/* flushStream left everything decodable; drain what zstd still holds */
	for (;;) {
		if (p->dcap - p->dlen < ZSTD_DStreamOutSize())
			break;
		ZSTD_outBuffer out = { p->dbuf, p->dcap, p->dlen };
		size_t r = ZSTD_decompressStream(p->zd, &out, &in);
		if (ZSTD_isError(r))
			return pd_set_err(p, EILSEQ, "corrupt perf.data: the COMPRESSED record at %"
			    PRIu64 " does not decompress: %s", p->doff, ZSTD_getErrorName(r));
		if (out.pos == p->dlen)
			break;
		p->dlen = out.pos;
	}
	return 0;
}
