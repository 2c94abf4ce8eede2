/*
 * kcache.h — the on-disk cache of this kernel's text symbols
 * ($XDG_CACHE_HOME/pmc or ~/.cache/pmc): /proc/kallsyms costs the kernel
 * ~40 ms to print, a validated copy a few ms to read (docs/analysis.md has
 * the measurement).
 *
 * Every cache file is tied to the running kernel: its key is the kernel's
 * GNU build id plus a digest of what /proc/kallsyms was built from (the
 * boot id, which fixes KASLR, the release and /proc/modules).  A file is
 * used only when its header carries the same key and every field checks out
 * (overflow-safe sizes, offsets inside the name area, sorted entries, a
 * digest of the body); anything else means "no cache".  The directory must
 * be the user's own, mode 0700 (refused otherwise); files are 0600, written
 * to a temporary O_NOFOLLOW|O_EXCL file and renamed into place.
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

/* One symbol: [start, start+size), its name and its module (NULL: vmlinux). */
typedef void (*kcache_cb)(void *arg, uint64_t start, uint64_t size, const char *name,
    const char *mod);

/* The running kernel's key from its build id (the caller reads it from
 * /sys/kernel/notes): 0, or -1 when it cannot be made (no build id, no boot
 * id): then nothing is cached. */
int kcache__key(struct kcache_key *k, const uint8_t *bid, uint32_t bidlen);

/* Validate a cache image of len bytes against key and hand out each entry
 * in address order: 0, or -1 (nothing handed out) if anything is wrong.
 * The names passed to cb point into buf. */
int kcache__parse(const void *buf, size_t len, const struct kcache_key *key, kcache_cb cb,
    void *arg);

/* Read the cache file for key into a malloc'd buffer (*buf, *len: the
 * caller frees it after it has used the names) and parse it: 0, or -1. */
int kcache__load(const struct kcache_key *key, void **buf, size_t *len, kcache_cb cb,
    void *arg);

/* Write the cache for key: n entries from get(arg, i, ...), in address
 * order.  Best effort: 0, or -1 (nothing written or left behind). */
int kcache__store(const struct kcache_key *key, size_t n,
    void (*get)(void *arg, size_t i, uint64_t *start, uint64_t *size, const char **name,
        const char **mod), void *arg);

/* The cache directory for this user, opened (O_DIRECTORY|O_NOFOLLOW) and
 * checked (owned by the effective user, not writable by group or others);
 * created 0700 when create is set, narrowed to 0700 when it is only
 * readable by others (older pmc versions created it 0755).  An fd, or -1 with *why saying what was wrong
 * (NULL when there is simply no cache directory). */
int kcache__dir(int create, const char **why);

/* The digest of a cache file's body (bytes 64 to the end), as the header
 * holds it: tests and the fuzz harness seal crafted files with it. */
uint64_t kcache__digest(const void *buf, size_t len);

/* The last refusal of kcache__dir in this process, with the directory's
 * path ("cache directory /home/u/.cache/pmc is writable by other users
 * (needs mode 0700): not used"), for the report's warnings; NULL if none. */
const char *kcache__refused(void);

#endif
