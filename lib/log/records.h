/*
 * records.h — encoders for the pmc log's records, one per record type.
 *
 * Each pmc__logrec_NAME() fills a struct pmc_logrec with the payload of one
 * record (the bytes after the 16-byte record header, layout in
 * docs/log-format.md and lib/log/format.h) and its type; hand it to the
 * writer with pmc__logw_put(lw, &rec) (or pmc__logw_write(lw, rec.type,
 * rec.buf, rec.len)).  The writer adds the header and timestamp.  Strings
 * longer than the reader's fields (paths PATH_MAX-1, command names
 * MAXCOMLEN) are cut.  They return 0, or -EINVAL for impossible arguments
 * (more than PMC_CALLCHAIN_DEPTH_MAX pcs).
 *
 * The struct is large (64 KB): keep it static, in a heap object, or in a
 * thread with a normal stack.
 */
#ifndef PMC_LOG_RECORDS_H
#define PMC_LOG_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pmc.h"
#include "pmclog.h"
#include "log/format.h"

struct pmc_logrec {
	int type;                     /* enum pmclog_type */
	size_t len;                   /* payload bytes, a multiple of 8 */
	unsigned char buf[PMCLOG_PAYLOAD_MAX] __attribute__((aligned(8)));
};

/* The file's first record (the writer emits it itself). */
struct pmc_logrec_header {
	uint32_t version;             /* PMC_VERSION */
	uint32_t clockid;
	uint64_t start_realtime;      /* ns */
	uint64_t start_clock;         /* ns on clockid */
	uint32_t flags;               /* PMCLOG_HDR_F_* */
	uint32_t arch;                /* enum pmc_cputype */
	const char *libversion, *hostname, *kernel, *cpudesc, *cmdline;
};
int pmc__logrec_header(struct pmc_logrec *r, const struct pmc_logrec_header *h);

int pmc__logrec_initialize(struct pmc_logrec *r, uint32_t version, uint32_t arch,
    uint64_t realtime_ns, const char *cpuid);
int pmc__logrec_closelog(struct pmc_logrec *r);
/* count lost; pmc PMC_ID_INVALID and cpu -1 when not known; PMCLOG_DROP_* */
int pmc__logrec_dropnotify(struct pmc_logrec *r, uint64_t count, pmc_id_t pmc,
    int cpu, uint32_t reason);
/* rate: the sampling period (or samples/s if freq); cpu -1 for process PMCs */
int pmc__logrec_pmcallocate(struct pmc_logrec *r, pmc_id_t pmc, uint32_t event,
    const char *evname, enum pmc_mode mode, uint32_t flags, uint64_t rate,
    int freq, int cpu);
int pmc__logrec_pmcattach(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, const char *path);
int pmc__logrec_pmcdetach(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid);
int pmc__logrec_proccsw(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, pid_t tid,
    int cpu, uint64_t value);
int pmc__logrec_procexec(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, pid_t tid,
    uint64_t baseaddr, uint64_t dynaddr, const char *path);
int pmc__logrec_procexit(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, pid_t tid,
    uint64_t value);
int pmc__logrec_procfork(struct pmc_logrec *r, pid_t oldpid, pid_t newpid,
    pid_t oldtid, pid_t newtid);
int pmc__logrec_sysexit(struct pmc_logrec *r, pid_t pid);
int pmc__logrec_userdata(struct pmc_logrec *r, uint32_t cookie);

struct pmc_logrec_map {
	pid_t pid;                    /* -1: the kernel */
	uint64_t start, len, pgoff;
	uint32_t prot, mflags;        /* PROT_*, MAP_*; 0 if not known */
	uint32_t buildid_len;         /* 0..20; 0 if not known */
	const uint8_t *buildid;
	const char *path;
};
int pmc__logrec_map_in(struct pmc_logrec *r, const struct pmc_logrec_map *m);
int pmc__logrec_map_out(struct pmc_logrec *r, pid_t pid, uint64_t start, uint64_t end);

struct pmc_logrec_sample {
	pmc_id_t pmc;
	pid_t pid, tid;
	uint32_t cpu;
	uint64_t period;
	uint32_t npc;                 /* 1..PMC_CALLCHAIN_DEPTH_MAX */
	const uint64_t *pcs;          /* pcs[0] = the sampled pc, then callers */
	/* per pc PMC_CC_F_USERSPACE or 0: the one user/kernel representation
	 * (psample__chain makes it from the kernel's context markers); the
	 * record's cpuflags bit is pcflags[0]'s */
	const uint8_t *pcflags;
};
int pmc__logrec_callchain(struct pmc_logrec *r, const struct pmc_logrec_sample *s);
/* For DWARF unwinding (pmc_set_user_stack): the user registers and the
 * stack bytes the kernel copied, appended to the CALLCHAIN record (the
 * stack cut to what fits in one record). */
struct pmc_logrec_ustack {
	uint32_t abi;                 /* PERF_SAMPLE_REGS_ABI_* */
	uint32_t nregs;               /* = popcount(mask), 1..64 */
	uint64_t mask;                /* the kernel's register numbers (perf_regs.h) */
	const uint64_t *regs;
	uint32_t len;
	const unsigned char *stack;
};
int pmc__logrec_callchain_ustack(struct pmc_logrec *r, const struct pmc_logrec_sample *s,
    const struct pmc_logrec_ustack *u);
/* A sample's raw payload (PERF_SAMPLE_RAW: a tracepoint's fields) appended
 * after the pcs and the user stack (format 3.1).  A payload that does not
 * fit in the record is left out (a cut one would not decode). */
struct pmc_logrec_raw {
	uint32_t flags;               /* PMCLOG_RAW_F_* */
	uint32_t len;
	const unsigned char *bytes;
};
int pmc__logrec_callchain_ext(struct pmc_logrec *r, const struct pmc_logrec_sample *s,
    const struct pmc_logrec_ustack *u, const struct pmc_logrec_raw *raw);
/* One piece of perf's tracing data: len bytes at offset of total. */
int pmc__logrec_tracedata(struct pmc_logrec *r, uint64_t total, uint64_t offset,
    const unsigned char *bytes, uint32_t len);
/* The most bytes of tracing data one TRACEDATA record holds. */
#define PMCLOG_TRACEDATA_CHUNK (PMCLOG_PAYLOAD_MAX - PMCLOG_MIN_TRACEDATA)

/*
 * Interned call chains (docs/log-format.md): the CHAIN record (format 2;
 * format 3 writes none, its encoding is the writer table's key) that
 * defines chain id from a CALLCHAIN payload (its pmcid, pid, pcs and
 * user/kernel split), and the CHAINSAMPLE that stands for that CALLCHAIN
 * (its tid, cpuflags, period).  -EINVAL for a CALLCHAIN that has no such
 * form: a user stack, a period above 32 bits, a bad length.
 */
int pmc__logrec_chain(struct pmc_logrec *r, uint32_t id, const unsigned char *cc, size_t cclen);
int pmc__logrec_chainsample(struct pmc_logrec *r, uint32_t id, const unsigned char *cc,
    size_t cclen);

int pmc__logrec_thr_create(struct pmc_logrec *r, pid_t tid, pid_t pid, uint32_t flags,
    const char *name);
int pmc__logrec_thr_exit(struct pmc_logrec *r, pid_t tid, pid_t pid);
int pmc__logrec_proc_create(struct pmc_logrec *r, pid_t pid, uint32_t flags, const char *comm);
/* flags: PMCLOG_COMM_F_EXEC when the name came with an exec */
int pmc__logrec_comm(struct pmc_logrec *r, pid_t pid, pid_t tid, uint32_t flags,
    const char *name);
int pmc__logrec_throttle(struct pmc_logrec *r, pmc_id_t pmc, int throttled, int cpu);
/* flags: PMCLOG_SWITCH_F_* */
int pmc__logrec_switch(struct pmc_logrec *r, pmc_id_t pmc, pid_t pid, pid_t tid, int cpu,
    uint32_t flags);
int pmc__logrec_ksymsrc(struct pmc_logrec *r, const char *path, const char *release,
    const uint8_t *buildid, uint32_t buildid_len);
int pmc__logrec_ksymbol(struct pmc_logrec *r, uint64_t addr, uint32_t len,
    uint16_t ksymtype, uint16_t flags, const char *name);

#endif
