/*
 * perf_sample.h — the one decoder of the kernel's sample layout: the
 * PERF_RECORD_SAMPLE body, the sample_id_all trailer of the other records,
 * and where each carries its event's id.
 *
 * A sample's fields are laid out by the sample_type (and read_format,
 * branch_sample_type, the register masks) its event was opened with:
 * psample__layout_init works out, once per event, the offsets of the
 * fixed-size fields, whether the body is those and a call chain only, the
 * trailer's size and the id's positions.  Two readers use it: the log
 * writer (lib/log/translate.c, records straight from the kernel's ring,
 * host byte order) and the perf.data reader (analysis/perfdata/: the event
 * path reader_translate.c, the direct and leaf-only paths reader_sample.c,
 * the trailer and id in reader_queue.c, a file of either byte order).
 * Three decoders of one layout: psample__parse (every field),
 * psample__parse_fixed (the fixed fields and the chain, one length check
 * each: a report decodes millions), psample__leaf (of the chain only the
 * sample's own pc), and psample__chain_has_ip, the one rule for whether a
 * chain starts with the sampled pc.  This file sits
 * below both (lib/common: no dependency on anything in pmc, and no kernel
 * header, so that it builds where <linux/perf_event.h> does not exist).
 * perf's evsel__parse_sample is the model: every sample_type bit, in the
 * kernel's order (perf_output_sample), bounds-checked — a truncated or
 * inconsistent record is an error, never a read past its end.
 *
 * Variable-length parts (call chain, read values, raw data, branch stack,
 * registers, user stack, aux data) are pointers into the record, decoded on
 * demand with psample__u64() in the record's byte order.
 */
#ifndef PMC_COMMON_PERF_SAMPLE_H
#define PMC_COMMON_PERF_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* sample_type bits (the kernel's PERF_SAMPLE_*, ABI values) */
#define PSAMPLE_IP              (1ULL << 0)
#define PSAMPLE_TID             (1ULL << 1)
#define PSAMPLE_TIME            (1ULL << 2)
#define PSAMPLE_ADDR            (1ULL << 3)
#define PSAMPLE_READ            (1ULL << 4)
#define PSAMPLE_CALLCHAIN       (1ULL << 5)
#define PSAMPLE_ID              (1ULL << 6)
#define PSAMPLE_CPU             (1ULL << 7)
#define PSAMPLE_PERIOD          (1ULL << 8)
#define PSAMPLE_STREAM_ID       (1ULL << 9)
#define PSAMPLE_RAW             (1ULL << 10)
#define PSAMPLE_BRANCH_STACK    (1ULL << 11)
#define PSAMPLE_REGS_USER       (1ULL << 12)
#define PSAMPLE_STACK_USER      (1ULL << 13)
#define PSAMPLE_WEIGHT          (1ULL << 14)
#define PSAMPLE_DATA_SRC        (1ULL << 15)
#define PSAMPLE_IDENTIFIER      (1ULL << 16)
#define PSAMPLE_TRANSACTION     (1ULL << 17)
#define PSAMPLE_REGS_INTR       (1ULL << 18)
#define PSAMPLE_PHYS_ADDR       (1ULL << 19)
#define PSAMPLE_AUX             (1ULL << 20)
#define PSAMPLE_CGROUP          (1ULL << 21)
#define PSAMPLE_DATA_PAGE_SIZE  (1ULL << 22)
#define PSAMPLE_CODE_PAGE_SIZE  (1ULL << 23)
#define PSAMPLE_WEIGHT_STRUCT   (1ULL << 24)
#define PSAMPLE_KNOWN           ((1ULL << 25) - 1)

/* read_format bits */
#define PSAMPLE_FMT_TOTAL_TIME_ENABLED (1ULL << 0)
#define PSAMPLE_FMT_TOTAL_TIME_RUNNING (1ULL << 1)
#define PSAMPLE_FMT_ID                 (1ULL << 2)
#define PSAMPLE_FMT_GROUP              (1ULL << 3)
#define PSAMPLE_FMT_LOST               (1ULL << 4)

/* branch_sample_type bits that change the layout */
#define PSAMPLE_BRANCH_HW_INDEX (1ULL << 17)
#define PSAMPLE_BRANCH_COUNTERS (1ULL << 19)

/* sample_regs_* ABI word */
#define PSAMPLE_REGS_ABI_NONE   0
#define PSAMPLE_REGS_ABI_32     1
#define PSAMPLE_REGS_ABI_64     2

/* Call-chain context markers (the kernel's PERF_CONTEXT_*, ABI values):
 * every pc after one is of that context, up to the next. */
#define PSAMPLE_CONTEXT_HV           ((uint64_t)-32)
#define PSAMPLE_CONTEXT_KERNEL       ((uint64_t)-128)
#define PSAMPLE_CONTEXT_USER         ((uint64_t)-512)
#define PSAMPLE_CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define PSAMPLE_CONTEXT_GUEST_USER   ((uint64_t)-2560)
#define PSAMPLE_CONTEXT_MAX          ((uint64_t)-4095)

/* A record header's misc: the CPU mode bits (PERF_RECORD_MISC_CPUMODE_*). */
#define PSAMPLE_MISC_CPUMODE_MASK 7
#define PSAMPLE_MISC_USER         2
#define PSAMPLE_MISC_GUEST_USER   5

/* The host's byte order, as the big_endian arguments below take it. */
#define PSAMPLE_HOST_BE (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

/* What the event was opened with (the caller fills these), and what
 * psample__layout_init works out from it.  A layout never initialised
 * decodes the same through psample__parse, only without its fast path. */
struct psample_layout {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t regs_user;           /* sample_regs_user mask */
	uint64_t regs_intr;           /* sample_regs_intr mask */
	/* psample__layout_init's: */
	int16_t o_ip, o_tid, o_time, o_addr, o_id, o_stream, o_cpu, o_period;
	                              /* body offsets of the fixed fields, -1 absent */
	uint16_t head;                /* bytes of the fixed-size fields before the rest */
	uint8_t fixed;                /* the body is those and a call chain only */
	uint8_t trailer;              /* bytes of the sample_id_all trailer */
	int8_t id_pos;                /* a SAMPLE's id: u64 index in its body, -1 none */
	int8_t is_pos;                /* another record's id: u64 index from the end
	                               * of its body (1: the last u64), -1 none */
};

/* Work out l's offsets, trailer and id positions from its sample_type. */
void psample__layout_init(struct psample_layout *l);

/* A block of registers: abi, then one u64 per bit of the mask, in bit order. */
struct psample_regs {
	uint64_t abi;                 /* PSAMPLE_REGS_ABI_*; NONE: no registers */
	uint64_t mask;
	uint32_t nr;
	const unsigned char *regs;
};

struct psample {
	uint64_t present;             /* the sample_type the record was decoded with */
	int big_endian;               /* the record's byte order (for psample__u64) */
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu, cpu_res;
	/* READ: values[nr] of (value [, id] [, lost]) each `stride` bytes */
	struct {
		uint64_t nr, time_enabled, time_running;
		size_t stride;
		const unsigned char *values;
	} read;
	uint64_t callchain_nr;
	const unsigned char *callchain;
	uint32_t raw_size;
	const unsigned char *raw;
	uint64_t branch_nr, branch_hw_idx;
	const unsigned char *branch;          /* branch_nr entries of 24 bytes */
	const unsigned char *branch_counters; /* branch_nr u64s, or NULL */
	struct psample_regs regs_user, regs_intr;
	uint64_t stack_size;          /* bytes reserved for the user stack copy */
	uint64_t stack_dyn_size;      /* bytes the kernel actually copied (<= size) */
	const unsigned char *stack;
	uint64_t weight, data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	uint64_t aux_size;
	const unsigned char *aux;
	size_t used;                  /* bytes of the body decoded */
};

/* One read_format value. */
struct psample_readval {
	uint64_t value, id, lost;
};

/* Decode a SAMPLE record body (the bytes after its 8-byte header) of n
 * bytes.  0, or -EINVAL when the body is shorter than its layout says, a
 * count does not fit in it, or stack dyn_size exceeds its size. */
int psample__parse(struct psample *s, const struct psample_layout *l, const void *body,
    size_t n, int big_endian);

/* Decode a bare read_format block (PERF_RECORD_READ after its pid/tid)
 * into s->read: 0 or -EINVAL. */
int psample__parse_read(struct psample *s, uint64_t read_format, const void *body, size_t n,
    int big_endian);

/* Load a u64 / u32 / u16 in the given byte order.  Inline: a report calls them
 * for every pc of every sample, and in the host's order each is one load. */
static inline uint16_t psample__ld16(const unsigned char *p, int big_endian)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return !!big_endian == PSAMPLE_HOST_BE ? v : __builtin_bswap16(v);
}
static inline uint32_t psample__ld32(const unsigned char *p, int big_endian)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return !!big_endian == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ? v : __builtin_bswap32(v);
}
static inline uint64_t psample__ld64(const unsigned char *p, int big_endian)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return !!big_endian == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ? v : __builtin_bswap64(v);
}
/* The i-th u64 of an array inside the decoded record. */
static inline uint64_t psample__u64(const struct psample *s, const unsigned char *arr, size_t i)
{
	return psample__ld64(arr + 8 * i, s->big_endian);
}
/* The fixed-size fields of a sample and its call chain (psample__parse_fixed). */
struct psample_fixed {
	uint64_t id, ip, time, period;
	uint32_t pid, tid, cpu;
	uint64_t chain_nr;            /* entries, markers included */
	const unsigned char *chain;
};

/* A body of n bytes of a layout with `fixed` set: its fields with one
 * length check up front, its chain with one more.  0, or -1 when the body
 * is too short (psample__parse then says why).  Inline: the perf.data
 * reader's direct path calls it with a constant byte order. */
static inline int psample__parse_fixed(const struct psample_layout *l, const unsigned char *b,
    size_t n, int be, struct psample_fixed *f)
{
	size_t head = l->head;
	if (n < head)
		return -1;
	f->chain_nr = 0;
	f->chain = NULL;
	if (l->sample_type & PSAMPLE_CALLCHAIN) {
		if (n - head < 8)
			return -1;
		f->chain_nr = psample__ld64(b + head, be);
		if (f->chain_nr > (n - head - 8) / 8)
			return -1;
		f->chain = b + head + 8;
	}
	f->id = l->o_id >= 0 ? psample__ld64(b + l->o_id, be) : 0;
	f->ip = l->o_ip >= 0 ? psample__ld64(b + l->o_ip, be) : 0;
	f->pid = f->tid = 0;
	if (l->o_tid >= 0) {
		f->pid = psample__ld32(b + l->o_tid, be);
		f->tid = psample__ld32(b + l->o_tid + 4, be);
	}
	f->time = l->o_time >= 0 ? psample__ld64(b + l->o_time, be) : 0;
	f->cpu = l->o_cpu >= 0 ? psample__ld32(b + l->o_cpu, be) : 0;
	f->period = l->o_period >= 0 ? psample__ld64(b + l->o_period, be) : 0;
	return 0;
}

/* A record's sample_id_all trailer (every record but SAMPLE, of an event
 * with sample_id_all): the fields its layout puts there. */
struct psample_trailer {
	uint64_t time, id;
	uint32_t pid, tid, cpu;
	int has_time, has_cpu, has_id, has_tid;
	size_t size;                  /* bytes of trailer */
};

/* The trailer of a body of n bytes (it ends at the body's last whole
 * u64): 0, or -1 (t zeroed) when the body is shorter than the trailer. */
int psample__parse_trailer(const struct psample_layout *l, const void *body, size_t n,
    int be, struct psample_trailer *t);

/* The i-th read value (i < s->read.nr). */
void psample__read_value(const struct psample *s, uint64_t read_format, uint64_t i,
    struct psample_readval *out);
/* The context after a chain entry pc >= PSAMPLE_CONTEXT_MAX (a marker),
 * user being the one before it: 1 user, 0 kernel (unknown markers keep
 * it).  psample__chain's rule, inline for the perf.data reader's direct
 * path, which decodes chains with it too. */
static inline int psample__context_user(uint64_t marker, int user)
{
	if (marker == PSAMPLE_CONTEXT_USER || marker == PSAMPLE_CONTEXT_GUEST_USER)
		return 1;
	if (marker == PSAMPLE_CONTEXT_KERNEL || marker == PSAMPLE_CONTEXT_HV ||
	    marker == PSAMPLE_CONTEXT_GUEST_KERNEL)
		return 0;
	return user;
}

/*
 * User or kernel mode, the one way pmc tells them from the kernel's records
 * (a log's CALLCHAIN, a report's, `pmc convert` back to perf.data all carry
 * the result: one user flag per pc).  psample__misc_user: 1 if a record
 * header's misc says user mode (guest user too).  psample__chain: the pcs
 * of s's call chain without the context markers, at most max; flags[i] is
 * user_flag if the last marker before pcs[i] was a user one (user, guest
 * user), 0 after a kernel one (kernel, hypervisor, guest kernel), and
 * before any marker user_flag if `user`.  Returns how many were stored.
 */
static inline int psample__misc_user(uint16_t misc)
{
	/* inline: the perf.data reader asks it of every sample */
	unsigned m = misc & PSAMPLE_MISC_CPUMODE_MASK;
	return m == PSAMPLE_MISC_USER || m == PSAMPLE_MISC_GUEST_USER;
}
uint32_t psample__chain(const struct psample *s, int user, uint8_t user_flag,
    uint64_t *pcs, uint8_t *flags, uint32_t max);

/* The index of a chain's first pc (the first entry that is not a context
 * marker), or nr when it has none; *pc is that pc, and *user the context
 * there (psample__context_user over the markers before it). */
static inline uint64_t psample__chain_first(const unsigned char *chain, uint64_t nr, int be,
    uint64_t *pc, int *user)
{
	uint64_t i;
	for (i = 0; i < nr; i++) {
		uint64_t v = psample__ld64(chain + 8 * i, be);
		if (v < PSAMPLE_CONTEXT_MAX) {
			*pc = v;
			return i;
		}
		*user = psample__context_user(v, *user);
	}
	return nr;
}

/*
 * The one rule for a sample with both IP and a call chain: does the chain
 * start with the sampled pc?  The kernel's does (its first pc is the
 * sample's own, in the context of the markers before it); where it does
 * not (a chain of another origin), the sampled pc goes before the chain,
 * in the record header's context.  *user: the header's context in, the
 * chain's first pc's out.
 */
static inline int psample__chain_has_ip(const unsigned char *chain, uint64_t nr, int be,
    uint64_t ip, int *user)
{
	uint64_t pc = 0;
	return psample__chain_first(chain, nr, be, &pc, user) < nr && pc == ip;
}

/* The leaf of a sample decoded by psample__parse_fixed, *user the header's
 * context in and the leaf's out: what a whole decode makes the first pc
 * (the sampled pc, in the chain's context when the chain starts with it;
 * without IP, the chain's first pc; with neither, 0). */
static inline uint64_t psample__leaf(const struct psample_layout *l,
    const struct psample_fixed *f, int be, int *user)
{
	uint64_t pc = 0;
	int cu = *user;
	uint64_t i = psample__chain_first(f->chain, f->chain_nr, be, &pc, &cu);

	if (l->sample_type & PSAMPLE_IP) {
		if (i < f->chain_nr && pc == f->ip)
			*user = cu;
		return f->ip;
	}
	if (i < f->chain_nr) {
		*user = cu;
		return pc;
	}
	return 0;
}

/* The host's byte order as psample__parse wants it. */
int psample__host_big_endian(void);

#endif
