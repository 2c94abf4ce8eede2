/*
 * perfdata.h — reading perf.data (what `perf record` writes) as a stream of
 * pmc log records (struct pmclog_ev), so everything that reads a pmc log
 * reads perf's recordings too; and writing perf.data from a pmc log.
 *
 * The reader takes perf 5.x/6.x files in file mode (seekable or not) and
 * pipe mode (`perf record -o -`), of either byte order, with zstd-compressed
 * records (`perf record -z`).  It delivers records in perf's order: kernel
 * records are queued and released at FINISHED_ROUND by timestamp, as
 * perf report / perf script do.  The first record is a HEADER built from
 * what perf stored (hostname, OS release, cmdline, CPU description), then a
 * PMCALLOCATE per event (attr); then the translated records:
 *
 *   SAMPLE -> CALLCHAIN   MMAP/MMAP2 -> MAP_IN   COMM -> COMM (+ PROCEXEC)
 *   FORK -> PROCFORK / THR_CREATE   EXIT -> THR_EXIT (+ SYSEXIT)
 *   LOST, LOST_SAMPLES -> DROPNOTIFY   THROTTLE/UNTHROTTLE -> THROTTLE
 *   KSYMBOL -> KSYMBOL   READ -> PROCEXIT per value   others: nothing
 *
 * and, when the file holds perf's tracing data (HEADER_TRACING_DATA, or
 * pipe mode's TRACING_DATA record), one TRACEDATA event with all of it
 * before the samples; a SAMPLE's RAW field comes as pl_cc.pl_raw.
 *
 * docs/perfdata.md has the details (ids, build ids, ordering, damage).
 * pl_data/pl_len point at the perf record the event came from (NULL/0 for
 * the synthetic HEADER and PMCALLOCATE records); pl_offset is its file
 * offset (of the enclosing COMPRESSED record for decompressed ones).
 */
#ifndef PMC_PERFDATA_H
#define PMC_PERFDATA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pmc.h"
#include "pmclog.h"

struct perfdata;

/* A reader of fd (a perf.data file, pipe, or the directory perf record
 * --threads writes, opened with open(2); the mode is detected).  NULL
 * with errno and pmc_errmsg() on failure: ENOEXEC not a perf.data, EILSEQ a
 * damaged header, ENOMEM, or read(2)'s errno.  Does not take ownership of fd. */
struct perfdata *perfdata__open(int fd);
/* The same on a memory buffer (copied). */
struct perfdata *perfdata__open_mem(const void *buf, size_t len);

/* 0 and ev->pl_state = PMCLOG_OK with a record, or -1 with pl_state
 * PMCLOG_EOF (the end; see perfdata__truncated) or PMCLOG_ERROR
 * (sticky; errno EILSEQ corrupt, ENOMEM, EIO ...; pmc_errmsg() says why). */
int perfdata__read(struct perfdata *p, struct pmclog_ev *ev);
void perfdata__close(struct perfdata *p);

/* 1 if buf starts with perf.data's magic "PERFILE2" (either byte order). */
int perfdata__is_perfdata(const void *buf, size_t len);

/* 1 if fd's next 8 bytes are perf.data's magic (or fd is a directory with a
 * perf.data "data" file), 0 if not (or if fd is a terminal or socket, where
 * looking would consume), -errno on error.  Does not consume anything:
 * files by pread, pipes and FIFOs by tee(2). */
int perfdata__sniff(int fd);

/* What fd holds, by its magic, looked at as perfdata__sniff does (nothing
 * consumed): PD_KIND_PERF (or perf's directory), PD_KIND_PMCLOG,
 * PD_KIND_OTHER (neither: a text file, zeros), PD_KIND_EMPTY (no byte at
 * all: a file, or a pipe whose writer closed it without writing),
 * PD_KIND_UNKNOWN (a terminal or socket: looking would consume), -EISDIR
 * for any other directory, or -errno when it cannot be read.  pmc convert
 * blames its input with it before it creates the output. */
enum { PD_KIND_UNKNOWN, PD_KIND_PERF, PD_KIND_PMCLOG, PD_KIND_OTHER, PD_KIND_EMPTY };
int perfdata__sniff_kind(int fd);

/* Deliver records in file order instead of perf's time order (before the
 * first read).  Default: ordered. */
void perfdata__set_ordered(struct perfdata *p, int on);

/* ---- the direct sample path ------------------------------------------ */

/* A sample as a profile stores it, decoded straight from the record: what
 * perfdata__read's CALLCHAIN event of the same record would carry (pid,
 * tid -1 without PERF_SAMPLE_TID; time the previous record's without
 * PERF_SAMPLE_TIME; the fixed period of `perf record -c N`), with the
 * chain already as a report keeps it: context markers gone, the sampled
 * pc first, each pc's flag PMC_CC_F_USERSPACE or 0, the trailing 0 of a
 * frame-pointer walk dropped (at least one pc stays), and its hash
 * (lib/common/hmap.h's hmap_chain_*) computed on the way. */
struct perfdata_sample {
	pmc_id_t pmcid;
	uint32_t pid, tid, cpu;
	uint64_t time, period;
	uint32_t npc;
	const uint64_t *pcs;          /* valid during the call only */
	const uint8_t *flags;
	uint64_t hash;                /* hmap_chain_end(steps, pid, npc) */
};
typedef void (*perfdata_sample_fn)(void *arg, const struct perfdata_sample *s);

/* Hand samples to fn instead of perfdata__read's ev (before the first
 * read; NULL: back to events).  fn is called from within perfdata__read,
 * in the order the events would have come, once per sample the event path
 * would deliver.  Samples with user registers (perf record --call-graph
 * dwarf: the unwinder wants the whole event) still come as CALLCHAIN
 * events unless only leaves are asked for (perfdata__set_sample_leaf: then
 * they go to the sink too, their stack bytes unread), as does everything
 * that is not a sample.  0, or -ENOMEM (the
 * reason recorded) with the events path kept. */
int perfdata__set_sample_sink(struct perfdata *p, perfdata_sample_fn fn, void *arg);
/* on: give the sink only the first pc of each chain (npc 1, hashed as a
 * one-pc chain: what the whole chain's pcs[0] and flags[0] are), the rest
 * neither decoded nor hashed, and a DWARF sample's registers and stack
 * neither read nor unwound; a flat report reads nothing more.  0: whole
 * chains (the default). */
void perfdata__set_sample_leaf(struct perfdata *p, int on);
/* on: keep the 0 return addresses that end a frame-pointer walk (perf
 * script prints them as frames); 0: they are dropped (the default). */
void perfdata__set_sample_zeros(struct perfdata *p, int on);
/* on: the sink does not need the samples in time order (a flat profile
 * sums them), so each sample it takes goes to it as the file holds it,
 * not through the ordering queue.  While every attr's samples go to the
 * sink, the records that come as events do too (none is a sample to be
 * unwound with the mappings before it); else they keep their time order
 * among themselves, and are released when they would have been.  Only
 * while every attr gives every record a time (PERF_SAMPLE_TIME with
 * sample_id_all): a record without one takes the time of the record
 * before it, which must stay the one time order gives.  (An attr that a
 * pipe-mode stream adds after records were taken as they lay cannot undo
 * that: an untimed sample of it takes the time of the record before it in
 * the file.)  0: time order (the default). */
void perfdata__set_sample_unordered(struct perfdata *p, int on);

/* ---- what the header says ----------------------------------------- */

struct perfdata_attr {
	const char *name;             /* event-description name, or derived from type/config */
	pmc_id_t pmcid;               /* the synthetic id used in the records */
	uint32_t type;                /* perf_event_attr fields */
	uint64_t config, config1, config2;
	uint64_t period;              /* sample_period, or sample_freq if freq */
	int freq;
	uint64_t sample_type, read_format, flags; /* flags: the attr's bitfield word */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user, sample_regs_intr;
	uint32_t sample_stack_user;
	int32_t clockid;
	size_t nids;
	const uint64_t *ids;          /* the kernel ids of this event's counters */
};
int perfdata__nattrs(struct perfdata *p);
const struct perfdata_attr *perfdata__attr(struct perfdata *p, int i);
/* The attr a pmcid (from a record) names, or NULL. */
const struct perfdata_attr *perfdata__attr_by_pmcid(struct perfdata *p,
    pmc_id_t pmcid);

struct perfdata_buildid {
	int32_t pid;                  /* -1: the kernel */
	uint16_t misc;                /* PERF_RECORD_MISC_* cpu mode */
	uint8_t size;                 /* bytes in id (20 for SHA-1) */
	uint8_t id[20];
	const char *path;
};
int perfdata__nbuildids(struct perfdata *p);
const struct perfdata_buildid *perfdata__buildid(struct perfdata *p, int i);

/* Feature strings ("" if perf did not store them). */
const char *perfdata__hostname(struct perfdata *p);
const char *perfdata__osrelease(struct perfdata *p);
const char *perfdata__perf_version(struct perfdata *p);
const char *perfdata__arch(struct perfdata *p);
const char *perfdata__cpudesc(struct perfdata *p);
const char *perfdata__cpuid(struct perfdata *p);
const char *perfdata__cmdline(struct perfdata *p); /* argv joined by spaces */
int perfdata__nr_cpus(struct perfdata *p);     /* online CPUs, 0 if not known */

#define PERFDATA_F_PIPE       0x1  /* pipe mode */
#define PERFDATA_F_SWAPPED    0x2  /* the other byte order */
#define PERFDATA_F_COMPRESSED 0x4  /* held COMPRESSED records */
#define PERFDATA_F_BIG_ENDIAN 0x8  /* written big-endian */
#define PERFDATA_F_DIR        0x10 /* a directory (perf record --threads) */
unsigned perfdata__flags(struct perfdata *p);

/* After EOF: 1 if the data ended early (a cut file, a record running past
 * the end, a data size of 0 from a perf that was killed), else 0. */
int perfdata__truncated(struct perfdata *p);

/* The header's feature sections (host, OS release, build ids ...) that it
 * announces but the file does not hold (a cut table, a section past the
 * end): their number, and in *of how many were announced. */
int perfdata__features_cut(struct perfdata *p, int *of);

struct perfdata_stats {
	uint64_t records;             /* perf records read (decompressed ones included) */
	uint64_t samples;             /* SAMPLE records delivered */
	uint64_t unknown_id;          /* samples of an id no attr has: dropped (as perf) */
	uint64_t bad_samples;         /* samples that did not decode: dropped */
	uint64_t skipped;             /* records of types we do not translate */
	uint64_t unordered;           /* records older than the last round flush */
	uint64_t lost;                /* samples the kernel lost (LOST, LOST_SAMPLES) */
	uint64_t compressed;          /* COMPRESSED records */
	uint64_t ustack_bytes;        /* user stack bytes read (DWARF samples as events;
	                               * none in leaf mode, perfdata__set_sample_leaf) */
};
void perfdata__get_stats(struct perfdata *p, struct perfdata_stats *st);

/* ---- conversions (convert_to_pmclog.c, convert_to_perf.c) ------------ */

/* perf.data on in_fd -> pmc log on out_fd (raw, or zstd with zstd=1).
 * 0 or -errno (pmc_errmsg() says why); *nsamples gets the samples
 * written; *truncated 1 if the input was cut. */
int perfdata__to_pmclog(int in_fd, int out_fd, int zstd, uint64_t *nsamples,
    int *truncated);

/* pmc log on in_fd -> perf.data on out_fd: file mode if out_fd is
 * seekable, else pipe mode.  0 or -errno (pmc_errmsg() says why). */
int perfdata__from_pmclog(int in_fd, int out_fd, uint64_t *nsamples, int *truncated);

#endif
