/*
 * format.h — the pmc log's wire format, shared by the writer (records.c,
 * writer.c) and the reader (reader.c).  docs/log-format.md is the prose
 * version of this file; keep them in step.
 *
 * Everything is little-endian.  A log is an 8-byte file magic, then either
 * the record stream (raw) or a sequence of zstd frames whose concatenated
 * content is the record stream.  Every record starts with a 16-byte header:
 *
 *   u32 hdr    = 0xEE << 24 | type << 16 | length  (length in bytes, header
 *                included, a multiple of 8, 16..65528)
 *   u32 spare  = 0; in a CALLCHAIN since format 3, the id of the chain
 *                that this sample defines (0: none; see "Format 2" below)
 *   u64 time   ns on the header's clock (CLOCK_MONOTONIC)
 *
 * The payload offsets below are relative to the end of that header.
 */
#ifndef PMC_LOG_FORMAT_H
#define PMC_LOG_FORMAT_H

#include <stdint.h>
#include <string.h>

#define PMCLOG_FILE_MAGIC_LEN   8
#define PMCLOG_FILE_MAGIC_RAW   "\x89PMCLOGR"
#define PMCLOG_FILE_MAGIC_ZSTD  "\x89PMCLOGZ"

#define PMCLOG_REC_MAGIC        0xEEu
#define PMCLOG_REC_HDR_LEN      16
#define PMCLOG_REC_MAX          65528u  /* largest multiple of 8 that fits 16 bits */
#define PMCLOG_PAYLOAD_MAX      (PMCLOG_REC_MAX - PMCLOG_REC_HDR_LEN)

#define PMCLOG_HDR_MAKE(type, len) \
	((PMCLOG_REC_MAGIC << 24) | (((uint32_t)(type) & 0xFF) << 16) | ((uint32_t)(len) & 0xFFFF))
#define PMCLOG_HDR_MAGIC(h)     (((h) >> 24) & 0xFF)
#define PMCLOG_HDR_TYPE(h)      (((h) >> 16) & 0xFF)
#define PMCLOG_HDR_LEN(h)       ((h) & 0xFFFF)

/* Minimum payload sizes (a longer payload is fine: newer writers append). */
#define PMCLOG_MIN_CLOSELOG        0
#define PMCLOG_MIN_DROPNOTIFY     24
#define PMCLOG_MIN_INITIALIZE     24
#define PMCLOG_MIN_PMCALLOCATE    32
#define PMCLOG_MIN_PMCATTACH       8
#define PMCLOG_MIN_PMCDETACH       8
#define PMCLOG_MIN_PROCCSW        24
#define PMCLOG_MIN_PROCEXEC       32
#define PMCLOG_MIN_PROCEXIT       24
#define PMCLOG_MIN_PROCFORK       16
#define PMCLOG_MIN_SYSEXIT         8
#define PMCLOG_MIN_USERDATA        8
#define PMCLOG_MIN_MAP_IN         64
#define PMCLOG_MIN_MAP_OUT        24
#define PMCLOG_MIN_CALLCHAIN      32
/* CALLCHAIN cpuflags2: the first KCOUNT pcs are kernel pcs, the rest user
 * pcs, and no per-pc mask follows the pcs. */
#define PMCLOG_CC2_KPREFIX        0x80000000u
#define PMCLOG_CC2_KCOUNT         0x0000FFFFu
/* CALLCHAIN cpuflags2: the user registers and stack follow (the USTACK
 * extension: u32 abi, u32 nregs, u64 mask, u64 regs[nregs], u32 len,
 * u32 copied, u8 stack[len], zero padding to 8). */
#define PMCLOG_CC2_USTACK         0x40000000u
#define PMCLOG_USTACK_MIN         24
/* CALLCHAIN cpuflags2 (format 3.1): the sample's raw payload follows, after
 * the pcs, the mask and the USTACK extension (u32 flags (PMCLOG_RAW_F_*),
 * u32 len, u8 raw[len], zero padding to 8).  Such a sample is never
 * interned. */
#define PMCLOG_CC2_RAW            0x20000000u
#define PMCLOG_RAW_MIN            8
/* CALLCHAIN cpuflags2 (format 4, zstd logs): the USTACK extension's
 * stack bytes are not in the record.  Where stack[len] and its padding
 * were, a u32 offset and a u32 0: the bytes are at that offset of the
 * stack frame written just before the zstd frame that holds the record.
 * A stack frame is a zstd skippable frame (u32 PMCLOG_STACK_FRAME_MAGIC,
 * u32 size, then size bytes: one checksummed zstd frame whose content is
 * the stacks of the next frame's samples), so that a reader that needs no
 * stack (a flat report) skips it by its size, undecoded. */
#define PMCLOG_CC2_SIDESTACK      0x10000000u
#define PMCLOG_STACK_FRAME_MAGIC  0x184D2A5Cu
#define PMCLOG_STACK_FRAME_HDR    8
#define PMCLOG_SIDESTACK_MIN      64      /* shorter stacks stay in the record */
#define PMCLOG_STACK_FRAME_MAX    (256u << 20) /* its size and its content's, at most */
#define PMCLOG_MIN_PMCALLOCATEDYN 16
#define PMCLOG_MIN_THR_CREATE     16
#define PMCLOG_MIN_THR_EXIT        8
#define PMCLOG_MIN_PROC_CREATE     8
#define PMCLOG_MIN_HEADER         40
#define PMCLOG_MIN_COMM           16
#define PMCLOG_MIN_THROTTLE       16
#define PMCLOG_MIN_KSYMSRC        24
#define PMCLOG_MIN_KSYMBOL        16
/* Format 2: interned call chains.  CHAIN: u32 id, u32 pmcid, i32 pid,
 * u32 cpuflags2 (as CALLCHAIN's), u32 npc, u32 spare, u64 pcs[npc], then
 * the user mask when cpuflags2 says so.  CHAINSAMPLE: u32 id, i32 tid,
 * u32 cpuflags, u32 period (a period above 32 bits is written as a whole
 * CALLCHAIN).  Ids are 1..PMCLOG_CHAIN_ID_MAX; a CHAIN with an id already
 * defined replaces it (the writer's table evicted the old chain).
 * Format 3 writes no CHAIN: a chain's first sample is its whole CALLCHAIN
 * with the id in the record header's spare word, which defines the id the
 * same way (CHAIN is still read in format-2 logs). */
#define PMCLOG_MIN_CHAIN          24
#define PMCLOG_MIN_CHAINSAMPLE    16
#define PMCLOG_CHAIN_ID_MAX       65535u
#define PMCLOG_MIN_SWITCH         24
/* Format 3.1: TRACEDATA: u64 total, u64 offset, u32 len, u32 spare,
 * u8 bytes[len] — one piece of perf's tracing data. */
#define PMCLOG_MIN_TRACEDATA      24

/* Little-endian loads and stores at any alignment. */
static inline uint32_t pmclog__ld32(const void *p)
{
	const unsigned char *b = p;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static inline uint64_t pmclog__ld64(const void *p)
{
	const unsigned char *b = p;
	return (uint64_t)pmclog__ld32(b) | (uint64_t)pmclog__ld32(b + 4) << 32;
}
static inline uint16_t pmclog__ld16(const void *p)
{
	const unsigned char *b = p;
	return (uint16_t)(b[0] | b[1] << 8);
}
static inline void pmclog__st32(void *p, uint32_t v)
{
	unsigned char *b = p;
	b[0] = (unsigned char)v; b[1] = (unsigned char)(v >> 8);
	b[2] = (unsigned char)(v >> 16); b[3] = (unsigned char)(v >> 24);
}
static inline void pmclog__st64(void *p, uint64_t v)
{
	unsigned char *b = p;
	pmclog__st32(b, (uint32_t)v);
	pmclog__st32(b + 4, (uint32_t)(v >> 32));
}
static inline void pmclog__st16(void *p, uint16_t v)
{
	unsigned char *b = p;
	b[0] = (unsigned char)v; b[1] = (unsigned char)(v >> 8);
}


/* Where a CALLCHAIN payload (pl, plen bytes) holds its USTACK extension's
 * stack: the offset of its u32 len field (the stack bytes, or the
 * SIDESTACK offset, follow its u32 copied field), or 0 when the record has
 * no such extension or it does not fit.  The layout of docs/log-format.md:
 * the fixed part, the pcs and their mask, then abi, nregs, mask, regs. */
static inline size_t pmclog__ustack_at(const unsigned char *pl, size_t plen)
{
	if (plen < PMCLOG_MIN_CALLCHAIN)
		return 0;
	uint32_t cf2 = pmclog__ld32(pl + 16), n = pmclog__ld32(pl + 20);
	if (!(cf2 & PMCLOG_CC2_USTACK) || n > 65535)
		return 0;
	size_t off = PMCLOG_MIN_CALLCHAIN + 8 * ((size_t)n +
	    ((cf2 & PMCLOG_CC2_KPREFIX) ? 0 : ((size_t)n + 63) / 64));
	if (plen < off || plen - off < PMCLOG_USTACK_MIN)
		return 0;
	uint32_t nr = pmclog__ld32(pl + off + 4);
	if (nr > 64 || plen - off - PMCLOG_USTACK_MIN < 8 * (size_t)nr)
		return 0;
	return off + 16 + 8 * (size_t)nr;
}

#endif
