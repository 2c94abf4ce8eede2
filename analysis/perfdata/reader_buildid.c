/*
 * reader_buildid.c — the build ids a perf.data carries (the HEADER_BUILD_ID
 * section in file mode, BUILD_ID records in pipe mode), by path, so the
 * translation can put them on MAP_IN records.  perf's util/build-id.c part
 * of reading.
 */
#include "perfdata/reader_internal.h"

/* ---- build ids -------------------------------------------------------- */

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int bid_rehash(struct perfdata *p)
{
	size_t nc = p->bhcap ? p->bhcap * 2 : 64;
	int *nh = calloc(nc, sizeof(*nh));
	if (!nh)
		return -ENOMEM;
	free(p->bhash);
	p->bhash = nh;
	p->bhcap = nc;
	for (int i = 0; i < p->nbids; i++) {
		size_t h = hash_str(p->bids[i].path) & (nc - 1);
		while (nh[h])
			h = (h + 1) & (nc - 1);
		nh[h] = i + 1;
	}
	return 0;
}

const struct pd_bid *pd_bid_find(const struct perfdata *p, const char *path)
{
	if (!p->bhcap)
		return NULL;
	size_t h = hash_str(path) & (p->bhcap - 1);
	const struct pd_bid *found = NULL;
	while (p->bhash[h]) {
		const struct pd_bid *b = &p->bids[p->bhash[h] - 1];
		if (strcmp(b->path, path) == 0)
			found = b;        /* the last one wins */
		h = (h + 1) & (p->bhcap - 1);
	}
	return found;
}

/* One build_id_event: header(8) pid(4) build_id[24] filename[] */
void pd_add_buildid(struct perfdata *p, const unsigned char *b, size_t len)
{
	struct pd_bid *x;
	uint16_t misc;
	size_t flen;

	if (len < 8 + 4 + 24)
		return;
	misc = ld16(p, b + 4);
	if (p->nbids == p->bcap) {
		int nc = p->bcap ? p->bcap * 2 : 32;
		struct pd_bid *nb = realloc(p->bids, (size_t)nc * sizeof(*nb));
		if (!nb)
			return;
		p->bids = nb;
		p->bcap = nc;
		for (int i = 0; i < p->nbids; i++)
			p->bids[i].pub.path = p->bids[i].path;
	}
	x = &p->bids[p->nbids];
	memset(x, 0, sizeof(*x));
	x->pub.pid = (int32_t)ld32(p, b + 8);
	x->pub.misc = misc;
	memcpy(x->pub.id, b + 12, 20);
	x->pub.size = (misc & PD_MISC_BUILD_ID_SIZE) ? b[12 + 20] : 20;
	if (x->pub.size > 20)
		x->pub.size = 20;
	flen = strnlen((const char *)b + 36, len - 36);
	x->path = malloc(flen + 1);
	if (!x->path)
		return;
	memcpy(x->path, b + 36, flen);
	x->path[flen] = '\0';
	x->pub.path = x->path;
	p->nbids++;
	if ((size_t)p->nbids * 2 > p->bhcap) {
		if (bid_rehash(p) < 0)
			p->nbids--, free(x->path);
		return;
	}
	size_t h = hash_str(x->path) & (p->bhcap - 1);
	while (p->bhash[h])
		h = (h + 1) & (p->bhcap - 1);
	p->bhash[h] = p->nbids;
}

void pd_parse_buildid_section(struct perfdata *p, const unsigned char *b, size_t len)
{
	size_t off = 0;
	while (len - off >= 8) {
		size_t sz = ld16(p, b + off + 6);
		if (sz < 8 || sz > len - off)
			break;
		pd_add_buildid(p, b + off, sz);
		off += sz;
	}
}
