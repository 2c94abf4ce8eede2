/*
 * reader_buildid.c — the build ids a perf.data carries (the HEADER_BUILD_ID
 * section in file mode, BUILD_ID records in pipe mode), by path, so the
 * translation can put them on MAP_IN records.  perf's util/build-id.c part
 * of reading.
 */
#include "perfdata/reader_internal.h"

/* ---- build ids -------------------------------------------------------- */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int bid_eq(const void *tab, uint32_t i, const void *key)
{
	return strcmp(((const struct perfdata *)tab)->bids[i].path, key) == 0;
}

const struct pd_bid *pd_bid_find(const struct perfdata *p, const char *path)
{
	int64_t i = hidx_find(&p->bidx, hash_str(path), bid_eq, p, path);
	return i < 0 ? NULL : &p->bids[i];
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
	if (GROW(p->bids, p->nbids, p->bcap) < 0)
		return;
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
	/* a path seen before now finds this one: the last one wins */
	int added;
	struct hidx_slot *sl = hidx_get(&p->bidx, hash_str(x->path), 64, bid_eq, p, x->path,
	    (uint32_t)p->nbids, &added);
	if (!sl) {
		free(x->path);
		return;
	}
	sl->v = (uint32_t)p->nbids + 1;
	p->nbids++;
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
