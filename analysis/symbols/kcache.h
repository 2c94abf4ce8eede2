/*
 * kcache.h — the on-disk cache of this kernel's text symbols
 * ($XDG_CACHE_HOME/pmc or ~/.cache/pmc): /proc/kallsyms costs the kernel
 * ~40 ms to print; the cache file, mapped and searched in place, costs a
 * report about a millisecond (docs/analysis.md, docs/BENCHMARKS.md).
 *
 * Every cache file is tied to the running kernel: its key is the kernel's
 * GNU build id plus a digest of what /proc/kallsyms was built from (the
 * boot id, which fixes KASLR, the release and /proc/modules).  A file is
 * used only when its header carries the same key and every field checks out
 * (overflow-safe sizes, offsets inside the name area, sorted entries, and
 * each entry's seal when a lookup uses it: kcache.c says why per entry);
 * anything else means "no cache".  The directory must be the user's own,
 * mode 0700 (refused otherwise); files are 0600, written to a temporary
 * O_NOFOLLOW|O_EXCL file and renamed into place.
 */
#ifndef PMCSTAT_KCACHE_H
#define PMCSTAT_KCACHE_H

#include <stddef.h>
#include <stdint.h>

struct kcache_key {
	uint8_t bid[20];          /* the running kernel's build id */
	uint32_t bidlen;          /* 0: unknown (then there is no cache) */
	uint64_t digest;          /* boot id, release, /proc/modules */
};

/* The running kernel's key from its build id (the caller reads it from
 * /sys/kernel/notes): 0, or -1 when it cannot be made (no build id, no boot
 * id): then nothing is cached. */
int kcache__key(struct kcache_key *k, const uint8_t *bid, uint32_t bidlen);

/* One symbol as the cache file holds it (host byte order), by start
 * address: [start, start+size), its name and module as offsets into the
 * image's names (mod KCACHE_NOMOD: vmlinux).  A report binary-searches
 * these in place: nothing is copied, sorted or interned at load. */
struct kcache_ent {
	uint64_t start, size;
	uint32_t name, mod;
	uint64_t seal;            /* kcache__seal of the other fields */
};
#define KCACHE_NOMOD UINT32_MAX

/* A cache image whose header is validated: n entries, then names, whose
 * last byte is NUL.  No entry is checked yet: kcache__entry_valid (its
 * offsets inside names, so names + ent[i].name is a string; no
 * [start, start+size) wraps; its start between its neighbours') before
 * any of its fields is read but ent[i].start, kcache__entry_ok (that and
 * its seal) before it is used. */
struct kcache_img {
	const struct kcache_ent *ent;
	size_t n;
	const char *names;
	size_t nl;
	void *map;                /* kcache__load's mapping (kcache__unload), or NULL */
	size_t maplen;
	uint8_t *sealed;          /* kcache__load's: a bit per entry found sealed, so a
	                             lookup per sample checks each seal once */
};

/* Validate a cache image of len bytes (8-byte aligned) against key and
 * describe it in *img, pointing into buf: 0, or -1 (*img empty) if its
 * header, sizes or names area are wrong.  O(1): no entry is read. */
int kcache__parse(const void *buf, size_t len, const struct kcache_key *key,
    struct kcache_img *img);

/* Map the cache file for key read-only and parse it: 0, or -1 (*img
 * empty).  The names stay valid until kcache__unload(img). */
int kcache__load(const struct kcache_key *key, struct kcache_img *img);

/* Unmap what kcache__load mapped and empty *img (an empty one is fine). */
void kcache__unload(struct kcache_img *img);

/* Write the cache for key: n entries from get(arg, i, ...), in address
 * order, each with its size (kcache__parse refuses nothing for a size of
 * 0, but such a symbol never matches).  Best effort: 0, or -1 (nothing
 * written or left behind).  Cache files of older formats found in the
 * directory are removed. */
int kcache__store(const struct kcache_key *key, size_t n,
    void (*get)(void *arg, size_t i, uint64_t *start, uint64_t *size, const char **name,
        const char **mod), void *arg);

/* The cache directory for this user, opened (O_DIRECTORY|O_NOFOLLOW) and
 * checked (owned by the effective user, not writable by group or others);
 * created 0700 when create is set, narrowed to 0700 when it is only
 * readable by others (older pmc versions created it 0755).  An fd, or -1 with *why saying what was wrong
 * (NULL when there is simply no cache directory). */
int kcache__dir(int create, const char **why);

/* An entry's seal: a hash of its start, size, name and module (NULL:
 * vmlinux), as kcache__store writes it; tests and the fuzz harness seal
 * crafted entries with it. */
uint64_t kcache__seal(uint64_t start, uint64_t size, const char *name, const char *mod);

/* Is entry i of a parsed image (i < img->n) well formed: its name and
 * module offsets inside the names, its end not wrapping, its start not
 * below the previous entry's nor above the next one's?  0: the file was
 * damaged or crafted; do not use it. */
int kcache__entry_valid(const struct kcache_img *img, size_t i);

/* Is entry i of a parsed image (i < img->n) well formed
 * (kcache__entry_valid), and does it carry the seal of its fields?  0
 * means the file was edited or damaged: do not use it. */
int kcache__entry_ok(struct kcache_img *img, size_t i);

/* The last refusal of kcache__dir in this process, with the directory's
 * path ("cache directory /home/u/.cache/pmc is writable by other users
 * (needs mode 0700): not used"), for the report's warnings; NULL if none. */
const char *kcache__refused(void);

#endif
