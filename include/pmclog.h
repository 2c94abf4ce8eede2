/*
 * pmclog.h — reading pmc log files: the streaming parser of libpmc.
 *
 * Source-compatible with FreeBSD's <pmclog.h> (pmclog(3)): the same state
 * and type enumerations (with FreeBSD's numbers), struct pmclog_ev with the
 * same member names, and pmclog_open / pmclog_feed / pmclog_read /
 * pmclog_close with FreeBSD's semantics.  A program that walks a FreeBSD
 * hwpmc log with these calls walks a Linux pmc log unchanged.
 *
 * The on-disk format is NOT hwpmc's (it is documented in docs/log-format.md):
 * every record carries its type and length, so old readers skip record types
 * they do not know.  Record types FreeBSD lacks are numbered from 64 up.
 * Fields FreeBSD's structs lack are appended after FreeBSD's fields and
 * marked "ext".  Functions FreeBSD lacks are in the "LINUX EXTENSIONS"
 * section at the end.
 *
 * Reading: pmclog_read() returns 0 with ev->pl_state == PMCLOG_OK for each
 * record, or -1 with pl_state:
 *   PMCLOG_EOF           the end of the log.  If the log was cut (a writer
 *                        killed, a disk full: a partial record at the end,
 *                        or no CLOSELOG record) pmclog_truncated() says so.
 *   PMCLOG_REQUIRE_DATA  more bytes are needed: pmclog_feed() them (memory
 *                        parsers) or retry later (follow mode on a file).
 *   PMCLOG_ERROR         the log is corrupt or unreadable; errno is set
 *                        (ENOEXEC: not a pmc log, EILSEQ: corrupt record,
 *                        EPROTONOSUPPORT: a newer major format version,
 *                        else read(2)'s errno) and pmclog_errmsg() says why.
 *                        Sticky: further reads fail the same way.
 */
#ifndef _PMCLOG_H_
#define _PMCLOG_H_

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "pmc.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef MAXCOMLEN
#define MAXCOMLEN 19 /* FreeBSD's; Linux command names are at most 15 */
#endif
#ifndef _PMC_UINTFPTR_T_DECLARED
#define _PMC_UINTFPTR_T_DECLARED
typedef uint64_t uintfptr_t; /* program counters are 64-bit in the log */
#endif

#define PMCLOG_FD_NONE (-1)

enum pmclog_state {
	PMCLOG_OK = 0,
	PMCLOG_EOF = 1,
	PMCLOG_REQUIRE_DATA = 2,
	PMCLOG_ERROR = 3
};

/* Record types: FreeBSD's numbers (sys/pmclog.h), then ours from 64. */
enum pmclog_type {
	PMCLOG_TYPE_CLOSELOG = 1,
	PMCLOG_TYPE_DROPNOTIFY = 2,
	PMCLOG_TYPE_INITIALIZE = 3,
	/* 4 unassigned (hwpmc's obsolete MAPPINGCHANGE / PCSAMPLE) */
	PMCLOG_TYPE_PMCALLOCATE = 5,
	PMCLOG_TYPE_PMCATTACH = 6,
	PMCLOG_TYPE_PMCDETACH = 7,
	PMCLOG_TYPE_PROCCSW = 8,
	PMCLOG_TYPE_PROCEXEC = 9,
	PMCLOG_TYPE_PROCEXIT = 10,
	PMCLOG_TYPE_PROCFORK = 11,
	PMCLOG_TYPE_SYSEXIT = 12,
	PMCLOG_TYPE_USERDATA = 13,
	PMCLOG_TYPE_MAP_IN = 14,
	PMCLOG_TYPE_MAP_OUT = 15,
	PMCLOG_TYPE_CALLCHAIN = 16,       /* a sample (with its call chain) */
	PMCLOG_TYPE_PMCALLOCATEDYN = 17,  /* read, never written */
	PMCLOG_TYPE_THR_CREATE = 18,
	PMCLOG_TYPE_THR_EXIT = 19,
	PMCLOG_TYPE_PROC_CREATE = 20,
	/* Linux extensions */
	PMCLOG_TYPE_HEADER = 64,          /* the first record of every log */
	PMCLOG_TYPE_COMM = 65,            /* a task's command name */
	PMCLOG_TYPE_THROTTLE = 66,        /* the kernel throttled / unthrottled a PMC */
	PMCLOG_TYPE_KSYMSRC = 67,         /* where kernel symbols come from */
	PMCLOG_TYPE_KSYMBOL = 68,         /* a kernel symbol (BPF, trampolines) appeared/went */
	PMCLOG_TYPE_CHAIN = 69,           /* a call chain that samples refer to (format 2 only) */
	PMCLOG_TYPE_CHAINSAMPLE = 70,     /* a sample of an interned chain: read as a CALLCHAIN */
	PMCLOG_TYPE_SWITCH = 71,          /* a thread left or got a CPU (pmc_set_switch_log) */
	PMCLOG_TYPE_TRACEDATA = 72        /* a piece of perf's tracing data (tracepoint formats) */
};
#define PMCLOG_TYPE_SAMPLE PMCLOG_TYPE_CALLCHAIN /* ext: our name for it */

/* ---- decoded records: FreeBSD's fields first, then ext fields ------- */

struct pmclog_ev_callchain {          /* PMCLOG_TYPE_CALLCHAIN: one sample */
	uint32_t pl_pid;
	uint32_t pl_tid;
	uint32_t pl_pmcid;
	uint32_t pl_cpuflags;         /* CPU << 16 | PMC_CC_F_USERSPACE if pl_pc[0] is a user pc */
	uint32_t pl_cpuflags2;        /* 0 */
	uint32_t pl_npc;              /* entries in pl_pc (>= 1: pl_pc[0] is the sampled pc) */
	uintfptr_t pl_pc[PMC_CALLCHAIN_DEPTH_MAX];
	/* ext */
	uint32_t pl_cpu;              /* = PMC_CALLCHAIN_CPUFLAGS_TO_CPU(pl_cpuflags) */
	uint32_t pl_usermode;         /* the sample hit user mode */
	uint64_t pl_period;           /* events this sample stands for */
	uint64_t pl_time;             /* ns, = the record timestamp */
	uint8_t pl_pcflags[PMC_CALLCHAIN_DEPTH_MAX]; /* per pc: PMC_CC_F_USERSPACE or 0 */
	/* ext: the user registers and stack copied with the sample, for DWARF
	 * unwinding (pmc_set_user_stack, perf's --call-graph dwarf); pl_nuregs
	 * is 0 when the sample has none. */
	uint32_t pl_uregs_abi;        /* 1: 32-bit, 2: 64-bit (PERF_SAMPLE_REGS_ABI_*) */
	uint32_t pl_nuregs;           /* registers in pl_uregs */
	uint64_t pl_uregs_mask;       /* which ones: the kernel's perf_regs numbering */
	uint64_t pl_uregs[64];        /* in mask bit order */
	uint32_t pl_ustack_len;       /* bytes at pl_ustack, from the sampled sp up */
	const unsigned char *pl_ustack; /* points into the reader: valid until the next read */
	/* ext: the id of the interned call chain of the sample: set for a
	 * CHAINSAMPLE and, since format 3, for the whole CALLCHAIN that defines
	 * the chain (its first sample); 0 for a sample that is not interned.
	 * A format-2 CHAIN record (delivered with pmclog_set_extensions) is
	 * decoded into pl_cc too:
	 * pl_chain, pl_pmcid, pl_pid, pl_cpuflags2, pl_npc, pl_pc, pl_pcflags;
	 * its per-sample fields are 0. */
	uint32_t pl_chain;
	/* ext (format 3.1): the sample's raw payload (PERF_SAMPLE_RAW: a
	 * tracepoint's fields, as the tracing data's format describes them);
	 * pl_raw_len 0 and pl_raw NULL when it has none.  pl_raw_flags:
	 * PMCLOG_RAW_F_*. */
	uint32_t pl_raw_flags;
	uint32_t pl_raw_len;
	const unsigned char *pl_raw;  /* points into the reader: valid until the next read */
};
#define PMCLOG_RAW_F_NOCHAIN 0x1      /* recorded without a call chain: pl_pc[0] is the IP */
#ifndef PMC_CALLCHAIN_CPUFLAGS_TO_CPU
#define PMC_CALLCHAIN_CPUFLAGS_TO_CPU(CF)       (((CF) >> 16) & 0xFFFF)
#define PMC_CALLCHAIN_CPUFLAGS_TO_USERMODE(CF)  ((CF) & PMC_CC_F_USERSPACE ? 1 : 0)
#endif

/* FreeBSD's packing of a CPU and PMC_CC_F_* flags into pl_cpuflags. */
#ifndef PMC_CALLCHAIN_TO_CPUFLAGS
#define PMC_CALLCHAIN_TO_CPUFLAGS(CPU, FLAGS) \
	((((uint32_t)(CPU) & 0xFFFF) << 16) | ((uint32_t)(FLAGS) & 0xFFFF))
#endif

/*
 * hwpmc's record header word (MAGIC[31:24] TYPE[23:16] LENGTH[15:0]), for
 * programs that look at hwpmc's raw records.  pmc's own logs frame records
 * differently (docs/log-format.md); pl_data/pl_len give their raw bytes.
 */
#define PMCLOG_HEADER_MAGIC 0xEEU
#define PMCLOG_HEADER_TO_LENGTH(H) ((H) & 0x0000FFFF)
#define PMCLOG_HEADER_TO_TYPE(H)   (((H) & 0x00FF0000) >> 16)
#define PMCLOG_HEADER_TO_MAGIC(H)  (((H) & 0xFF000000) >> 24)
#define PMCLOG_HEADER_CHECK_MAGIC(H) (PMCLOG_HEADER_TO_MAGIC(H) == PMCLOG_HEADER_MAGIC)

/* hwpmc's old PC sample (superseded by CALLCHAIN; never in pmclog_ev). */
struct pmclog_ev_pcsample {
	uintfptr_t pl_pc;
	pid_t pl_pid;
	pid_t pl_tid;
	pmc_id_t pl_pmcid;
	uint32_t pl_flags;
	uint32_t pl_usermode;
};

struct pmclog_ev_dropnotify {         /* samples or records were lost */
	/* FreeBSD: empty.  ext: */
	uint64_t pl_count;            /* how many were lost */
	uint32_t pl_pmcid;            /* PMC_ID_INVALID if not known */
	int32_t pl_cpu;               /* -1 if not known */
	uint32_t pl_reason;           /* PMCLOG_DROP_* */
};
#define PMCLOG_DROP_RING        0 /* the kernel's ring buffer was full (PERF_RECORD_LOST) */
#define PMCLOG_DROP_SAMPLES     1 /* the kernel dropped samples (PERF_RECORD_LOST_SAMPLES) */
#define PMCLOG_DROP_WRITER      2 /* the writer discarded records (after a write error) */
#define PMCLOG_DROP_CORRUPT     3 /* a ring held a corrupt record; its content was skipped */

struct pmclog_ev_closelog {
	char pl_unused;               /* FreeBSD: empty */
};

struct pmclog_ev_initialize {
	uint32_t pl_version;          /* PMC_VERSION of the writer */
	uint32_t pl_arch;             /* enum pmc_cputype */
	uint64_t pl_tsc_freq;         /* 0: timestamps are ns already */
	struct timespec pl_ts;        /* CLOCK_REALTIME at the start */
	char pl_cpuid[PATH_MAX];      /* the CPU description */
};

struct pmclog_ev_map_in {
	pid_t pl_pid;                 /* -1: the kernel */
	uintfptr_t pl_start;
	char pl_pathname[PATH_MAX];
	/* ext */
	uint64_t pl_len;
	uint64_t pl_pgoff;            /* file offset of pl_start */
	uint32_t pl_prot;             /* PROT_* (0 if not known) */
	uint32_t pl_mflags;           /* MAP_* (0 if not known) */
	uint32_t pl_buildid_len;      /* 0: not known */
	uint8_t pl_buildid[20];
};

struct pmclog_ev_map_out {
	pid_t pl_pid;
	uintfptr_t pl_start;
	uintfptr_t pl_end;
};

struct pmclog_ev_pmcallocate {
	const char *pl_evname;        /* points into the parser; valid until the next read */
	uint64_t pl_rate;             /* sampling period, or frequency if pl_freq */
	uint32_t pl_event;            /* enum pmc_event */
	uint32_t pl_flags;            /* PMC_F_* */
	pmc_id_t pl_pmcid;
	/* ext */
	uint32_t pl_mode;             /* enum pmc_mode */
	uint32_t pl_freq;             /* 1: pl_rate is samples per second */
	int32_t pl_cpu;               /* system-mode PMCs: the CPU, else -1 */
};

struct pmclog_ev_pmcallocatedyn {
	char pl_evname[PMC_NAME_MAX];
	uint32_t pl_event;
	uint32_t pl_flags;
	pmc_id_t pl_pmcid;
};

struct pmclog_ev_pmcattach {
	pmc_id_t pl_pmcid;
	pid_t pl_pid;
	char pl_pathname[PATH_MAX];
};

struct pmclog_ev_pmcdetach {
	pmc_id_t pl_pmcid;
	pid_t pl_pid;
};

struct pmclog_ev_proccsw {
	pid_t pl_pid;
	pid_t pl_tid;
	pmc_id_t pl_pmcid;
	pmc_value_t pl_value;         /* counted while the thread was on a CPU */
	/* ext */
	int32_t pl_cpu;               /* -1 if not known */
};

struct pmclog_ev_proccreate {
	pid_t pl_pid;
	uint32_t pl_flags;
	char pl_pcomm[MAXCOMLEN + 1];
};

struct pmclog_ev_procexec {
	pid_t pl_pid;
	pmc_id_t pl_pmcid;
	uintptr_t pl_baseaddr;
	uintptr_t pl_dynaddr;
	char pl_pathname[PATH_MAX];   /* the new command (Linux reports only its
	                               * name; the MAP_IN records that follow
	                               * name the executable) */
	/* ext */
	pid_t pl_tid;
};

struct pmclog_ev_procexit {
	uint32_t pl_pid;
	pmc_id_t pl_pmcid;
	pmc_value_t pl_value;
	/* ext */
	pid_t pl_tid;                 /* the thread whose counts these are */
};

struct pmclog_ev_procfork {
	pid_t pl_oldpid;
	pid_t pl_newpid;
	/* ext */
	pid_t pl_oldtid;              /* the thread that forked */
	pid_t pl_newtid;              /* the new process's first thread */
};

struct pmclog_ev_sysexit {
	pid_t pl_pid;
};

struct pmclog_ev_threadcreate {
	pid_t pl_tid;
	pid_t pl_pid;
	uint32_t pl_flags;
	char pl_tdname[MAXCOMLEN + 1];
};

struct pmclog_ev_threadexit {
	pid_t pl_tid;
	/* ext */
	pid_t pl_pid;
};

struct pmclog_ev_userdata {
	uint32_t pl_userdata;
};

/* ext: PMCLOG_TYPE_HEADER (see also pmclog_header()) */
struct pmclog_ev_header {
	uint32_t pl_format_major;     /* PMCLOG_FORMAT_MAJOR of the writer */
	uint32_t pl_format_minor;
	uint32_t pl_version;          /* PMC_VERSION of the writer */
	uint32_t pl_clockid;          /* the clock of all timestamps (CLOCK_MONOTONIC) */
	uint64_t pl_start_realtime;   /* ns since the Epoch at the start */
	uint64_t pl_start_clock;      /* ns on pl_clockid at the same instant */
	uint32_t pl_flags;            /* PMCLOG_HDR_F_* */
	uint32_t pl_arch;             /* enum pmc_cputype */
	const char *pl_libversion;    /* "0.1.0"; these point into the parser, */
	const char *pl_hostname;      /* valid until pmclog_close() */
	const char *pl_kernel;        /* uname -r */
	const char *pl_cpudesc;
	const char *pl_cmdline;
};
#define PMCLOG_HDR_F_ZSTD 0x1         /* the file is zstd-compressed */
#define PMCLOG_HDR_F_WRITER_LOCK 0x2  /* the writer holds flock(LOCK_EX) on the file
                                       * until it closes it: a follower seeing
                                       * the lock free knows the writer is gone */

/* ext: PMCLOG_TYPE_COMM */
struct pmclog_ev_comm {
	pid_t pl_pid;
	pid_t pl_tid;
	uint32_t pl_flags;            /* PMCLOG_COMM_F_EXEC: named by an exec */
	char pl_comm[MAXCOMLEN + 1];
};
#define PMCLOG_COMM_F_EXEC 0x1

/* ext: PMCLOG_TYPE_THROTTLE */
struct pmclog_ev_throttle {
	pmc_id_t pl_pmcid;
	uint32_t pl_throttled;        /* 1 throttled, 0 unthrottled */
	int32_t pl_cpu;
};

/* ext: PMCLOG_TYPE_SWITCH: the kernel's PERF_RECORD_SWITCH(_CPU_WIDE) for a
 * PMC with pmc_set_switch_log(); the record's time is the switch's.  The
 * time between a thread's switch-out and its next switch-in is time it spent
 * off CPU (blocked, or runnable and waiting when PREEMPT is set). */
struct pmclog_ev_switch {
	pmc_id_t pl_pmcid;
	pid_t pl_pid;
	pid_t pl_tid;
	int32_t pl_cpu;               /* -1 not known */
	uint32_t pl_flags;            /* PMCLOG_SWITCH_F_* */
};
#define PMCLOG_SWITCH_F_OUT     0x1   /* switched out (else in) */
#define PMCLOG_SWITCH_F_PREEMPT 0x2   /* out while still runnable (preempted) */

/* ext: PMCLOG_TYPE_TRACEDATA: pl_len bytes at pl_offset of perf's tracing
 * data (perf.data's HEADER_TRACING_DATA: the tracepoint formats its raw
 * sample payloads follow), pl_total bytes in all; the pieces come in
 * order, before the first sample that needs them. */
struct pmclog_ev_tracedata {
	uint64_t pl_total;
	uint64_t pl_offset;
	uint32_t pl_len;
	const unsigned char *pl_bytes; /* points into the reader: valid until the next read */
};

/* ext: PMCLOG_TYPE_KSYMSRC */
struct pmclog_ev_ksymsrc {
	char pl_pathname[PATH_MAX];   /* "/proc/kallsyms", a vmlinux ... */
	char pl_release[256];         /* the kernel release it describes */
	uint32_t pl_buildid_len;
	uint8_t pl_buildid[20];
};

/* ext: PMCLOG_TYPE_KSYMBOL */
struct pmclog_ev_ksymbol {
	uint64_t pl_addr;
	uint32_t pl_len;
	uint16_t pl_ksymtype;         /* PERF_RECORD_KSYMBOL_TYPE_* */
	uint16_t pl_flags;            /* 1: unregistered */
	char pl_name[256];
};

struct pmclog_ev {
	enum pmclog_state pl_state;   /* state after the read */
	off_t pl_offset;              /* offset of the record in the (uncompressed) stream */
	size_t pl_count;              /* records read so far, this one included */
	struct timespec pl_ts;        /* the record's timestamp (see pmclog_header) */
	enum pmclog_type pl_type;
	void *pl_data;                /* the raw record; valid until the next read */
	int pl_len;                   /* its length in bytes */
	union {
		struct pmclog_ev_callchain pl_cc;
		struct pmclog_ev_closelog pl_cl;
		struct pmclog_ev_dropnotify pl_dn;
		struct pmclog_ev_initialize pl_i;
		struct pmclog_ev_map_in pl_mi;
		struct pmclog_ev_map_out pl_mo;
		struct pmclog_ev_pmcallocate pl_a;
		struct pmclog_ev_pmcallocatedyn pl_ad;
		struct pmclog_ev_pmcattach pl_t;
		struct pmclog_ev_pmcdetach pl_d;
		struct pmclog_ev_proccsw pl_c;
		struct pmclog_ev_proccreate pl_pc;
		struct pmclog_ev_procexec pl_x;
		struct pmclog_ev_procexit pl_e;
		struct pmclog_ev_procfork pl_f;
		struct pmclog_ev_sysexit pl_se;
		struct pmclog_ev_threadcreate pl_tc;
		struct pmclog_ev_threadexit pl_te;
		struct pmclog_ev_userdata pl_u;
		/* ext */
		struct pmclog_ev_header pl_h;
		struct pmclog_ev_comm pl_cm;
		struct pmclog_ev_throttle pl_th;
		struct pmclog_ev_ksymsrc pl_ks;
		struct pmclog_ev_ksymbol pl_ksym;
		struct pmclog_ev_switch pl_sw;
		struct pmclog_ev_tracedata pl_td;
	} pl_u;
	/* ext */
	uint64_t pl_time;             /* the record's timestamp in ns (= pl_ts) */
};

/*
 * FreeBSD's parser state, as its libpmc declares it.  The cookie that
 * pmclog_open() returns here is NOT this struct (the parser is libpmc's
 * own, see docs/freebsd-compat.md): use pmclog_read()'s pl_state and, for
 * the architecture and CPU id, the INITIALIZE record or pmclog_header().
 */
enum pmclog_parser_state {
	PL_STATE_NEW_RECORD,          /* waiting for a new record */
	PL_STATE_EXPECTING_HEADER,    /* waiting for the log header */
	PL_STATE_PARTIAL_RECORD,      /* a partial record was read */
	PL_STATE_ERROR                /* the parser is in error */
};

struct pmclog_parse_state {
	enum pmclog_parser_state ps_state;
	enum pmc_cputype ps_arch;     /* the log's architecture */
	uint32_t ps_version;          /* the log's version */
	int ps_initialized;           /* INITIALIZE was seen */
	int ps_count;                 /* records so far */
	off_t ps_offset;              /* stream byte offset */
	int ps_svcount;               /* bytes of a saved partial record */
	int ps_fd;                    /* the fd, or PMCLOG_FD_NONE */
	char *ps_buffer;              /* scratch buffer if fd != -1 */
	char *ps_data;                /* current parse pointer */
	char *ps_cpuid;               /* the log's CPU id */
	size_t ps_len;                /* bytes left in the buffer */
};

/* ---- the FreeBSD API -------------------------------------------------- */

/* A parser reading fd (a file, a pipe, a FIFO), or with PMCLOG_FD_NONE one
 * fed by pmclog_feed().  NULL with errno on failure. */
PMC_API void *pmclog_open(int _fd);
/* Give a memory parser more bytes (they are copied).  Linux extension:
 * _data == NULL, _len == 0 says "no more data": reads then end with EOF. */
PMC_API int pmclog_feed(void *_cookie, char *_data, int _len);
PMC_API int pmclog_read(void *_cookie, struct pmclog_ev *_ev);
/* Frees the parser; does not close the fd given to pmclog_open. */
PMC_API void pmclog_close(void *_cookie);

/* ====================================================================== *
 *                         LINUX EXTENSIONS                               *
 * ====================================================================== */

#define PMCLOG_FORMAT_MAJOR 4       /* 2: interned call chains (CHAIN, CHAINSAMPLE);
                                       3: a chain's first sample defines it;
                                       4: zstd logs keep user stacks in stack frames
                                       (an uncompressed log is still written as 3.1) */
#define PMCLOG_FORMAT_MAJOR_MIN 1   /* the oldest major this reader reads */
#define PMCLOG_FORMAT_MINOR 0       /* (3.1: TRACEDATA, raw sample payloads) */

/*
 * Deliver the Linux-only record types (PMCLOG_TYPE_HEADER and up: HEADER,
 * COMM, THROTTLE, KSYMSRC, KSYMBOL, CHAIN, SWITCH, TRACEDATA) from pmclog_read.  (A
 * CHAINSAMPLE is always delivered, as the CALLCHAIN it stands for.)  Off by default, so a
 * FreeBSD client sees only FreeBSD's record types; pmclog_header() works
 * either way.  pmc's own tools turn it on.
 */
PMC_API int pmclog_set_extensions(void *_cookie, int _on);

/*
 * Read the samples' user stacks (on by default).  Off, a zstd log's stack
 * frames (format 4: the stacks of --call-graph dwarf samples, kept apart
 * from the records) are skipped undecoded, and such a sample comes with
 * pl_ustack NULL and pl_ustack_len 0 (its registers still there): what a
 * reader that shows each sample's pc only needs, at a fraction of the
 * decoding.  Set it before the first pmclog_read.  0, or -1 (EINVAL).
 */
PMC_API int pmclog_set_stacks(void *_cookie, int _on);

/* Open a log by path ("-" = standard input, not closed by pmclog_close). */
PMC_API void *pmclog_open_file(const char *_path);

/* Follow mode: on a regular file still being written, reaching its end
 * returns PMCLOG_REQUIRE_DATA (try again later: the next pmclog_read reads
 * what was appended) instead of PMCLOG_EOF, until CLOSELOG is read, or until
 * the writer is gone (a log whose HEADER has PMCLOG_HDR_F_WRITER_LOCK and
 * whose lock is free): then PMCLOG_EOF, and pmclog_truncated() says 1. */
PMC_API int pmclog_set_follow(void *_cookie, int _on);

/* The log's HEADER record, NULL until it has been read (the first record). */
PMC_API const struct pmclog_ev_header *pmclog_header(void *_cookie);

/* After PMCLOG_EOF: 1 if the log was cut (it ends inside a record or a
 * compressed frame, or lacks its CLOSELOG record), else 0.  *_at gets the
 * stream offset where the data ended, *_last the end of the last complete
 * record (equal when the cut fell between records).  Either may be NULL. */
PMC_API int pmclog_truncated(void *_cookie, off_t *_at, off_t *_last);

/* Why the parser is in PMCLOG_ERROR (or "" if it is not). */
PMC_API const char *pmclog_errmsg(void *_cookie);

/* Records of unknown types skipped so far. */
PMC_API uint64_t pmclog_skipped(void *_cookie);

/* "CALLCHAIN", "MAP_IN" ... ; NULL for an unknown type. */
PMC_API const char *pmclog_type_name(int _type);

/*
 * pmclog_writer — write a log from decoded records, the inverse of
 * pmclog_read (`pmc convert` writes perf.data's records with it).
 * pmclog_writer_open writes the file magic to _fd (_flags: PMC_LOGF_ZSTD
 * from pmc.h for a zstd-compressed log); NULL with errno on failure.
 * pmclog_write encodes one record, stamped with its pl_time (or the last
 * time written, when 0); a HEADER is followed by the INITIALIZE every log
 * has; a TRACEDATA of any pl_len becomes as many records as it takes.  -1 with errno ENOENT for a record type a log cannot hold (nothing
 * is written; carry on), any other errno for a write error (the writer is
 * then finished: close it).  pmclog_writer_close appends CLOSELOG,
 * flushes and frees (it does not close _fd): -1 with errno if a write
 * failed.  Reasons through pmc_errmsg().
 */
struct pmclog_writer;
PMC_API struct pmclog_writer *pmclog_writer_open(int _fd, int _flags);
PMC_API int pmclog_write(struct pmclog_writer *_w, const struct pmclog_ev *_ev);
PMC_API int pmclog_writer_close(struct pmclog_writer *_w);

#ifdef __cplusplus
}
#endif

#endif /* _PMCLOG_H_ */
