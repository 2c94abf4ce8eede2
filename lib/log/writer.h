/*
 * writer.h — the log writer: hwpmc's log helper thread for Linux.
 *
 * One struct pmc_logw owns the log fd.  pmc__logw_open() writes the file
 * magic, the HEADER and INITIALIZE records and starts a thread that waits on
 * the registered rings (be->ring_wait), drains them through lib/ring,
 * translates each kernel record (PERF_RECORD_*) into log records (see
 * docs/log-format.md, "From kernel records"), and writes the log through a
 * bounded buffer with write(2).  The core adds its own records
 * (PMCALLOCATE, PMCATTACH, USERDATA, MAP_IN of existing mappings, COMM ...)
 * with pmc__logw_put() / pmc__logw_write(), from any thread.
 *
 * Buffering: records collect in a buffer of pmc__logw_set_bufsize() bytes
 * (default 256 KB, hwpmc's kern.hwpmc.logbuffersize; at least 64 KB).  It is
 * written out when full, at least every 100 ms while records arrive, and on
 * pmc__logw_flush / pmc__logw_close.  With PMC_LOGW_ZSTD every write-out is
 * one independent zstd frame (with a content checksum).
 *
 * Errors: the first write(2) failure (EIO, ENOSPC, EFBIG ...) stops
 * logging.  It is kept in the stats and returned (as -errno) by every later
 * pmc__logw_flush / pmc__logw_write and by pmc__logw_close.  The thread
 * keeps draining the rings so the kernel never stalls, and counts the
 * samples it discards in stats.lost.
 *
 * Timestamps: ring records keep the kernel's PERF_SAMPLE_TIME (the core
 * should set attr.use_clockid with CLOCK_MONOTONIC so they match); records
 * without one, and the core's records, are stamped with the writer's clock
 * (CLOCK_MONOTONIC, or pmc__logw_set_clock()).
 *
 * All functions return 0 or -errno unless said otherwise; none of them
 * closes the fd.
 */
#ifndef PMC_LOG_WRITER_H
#define PMC_LOG_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "pmc.h"
#include "backend/backend.h"
#include "log/records.h"
#include "common/perf_sample.h"

struct pmc_logw;

#define PMC_LOGW_ZSTD 0x1

/* Process-wide settings, taking effect at the next pmc__logw_open(). */
void pmc__logw_set_bufsize(size_t bytes);              /* 0: the default */
/* The CPU written into HEADER/INITIALIZE (default: /proc/cpuinfo's model
 * name and PMC_CPU_GENERIC). */
void pmc__logw_set_cpu(enum pmc_cputype type, const char *desc);

/* Writes the magic, HEADER + INITIALIZE; starts the writer thread.  cmdline
 * (may be NULL) is recorded in HEADER. */
int  pmc__logw_open(int fd, unsigned flags, const char *cmdline, struct pmc_logw **out);

/* The clock for records that carry no kernel time (default CLOCK_MONOTONIC
 * in ns); e.g. the backend's ->now.  Call right after open. */
void pmc__logw_set_clock(struct pmc_logw *lw, uint64_t (*now)(void));

/*
 * How to decode records carrying this kernel event id.  PERF_SAMPLE_IDENTIFIER
 * is always set by the core, so the id is the first u64 of a SAMPLE body and
 * the last u64 of the sample_id_all trailer of other records; sample_type
 * and read_format are the event's attr fields.  Re-adding an id replaces it.
 */
enum pmc_logw_role {
	PMC_LOGW_SAMPLES,      /* SAMPLE -> CALLCHAIN; the id names pmc in every record */
	PMC_LOGW_CSW_PROBE,    /* samples carry PERF_SAMPLE_READ of a group: emit PROCCSW
	                        * with the per-tid delta of each member whose id is added */
	PMC_LOGW_EXIT_READ     /* PERF_RECORD_READ (inherit_stat) -> PROCEXIT */
};
/* layout: what the counter was opened with (sample_type, read_format, the
 * branch and register masks), which is what its records are decoded by. */
int  pmc__logw_add_event(struct pmc_logw *lw, uint64_t kernel_id, pmc_id_t pmc,
    const struct psample_layout *layout, enum pmc_logw_role role);

/* pmc__logw_add_event for a counter as opened (the backend's ->attr, its
 * own additions included): the one place a counter's record layout is
 * derived from its attributes; a sampling counter's fixed period too. */
int  pmc__logw_add_counter(struct pmc_logw *lw, uint64_t kernel_id, pmc_id_t pmc,
    const struct perf_event_attr *opened, enum pmc_logw_role role);

/* PROCEXIT and PROCCSW values of pmc are its counts divided by unit, as
 * pmc_read reports them (FreeBSD's CLOCK.* PMCs count clock ticks, the
 * kernel's cpu-clock nanoseconds: unit is the tick's length).  Default 1. */
int  pmc__logw_set_unit(struct pmc_logw *lw, pmc_id_t pmc, uint64_t unit);

/* Samples of this id without PERF_SAMPLE_PERIOD (a fixed period) carry
 * period in their CALLCHAIN records.  -ENOENT if the id was not added. */
int  pmc__logw_set_period(struct pmc_logw *lw, uint64_t kernel_id, uint64_t period);

/* A ring the thread drains (data_size: page_size * data pages, used when
 * page->data_size is 0).  The thread waits with be->ring_wait on all of them. */
int  pmc__logw_add_ring(struct pmc_logw *lw, const struct pmc_backend_ops *be,
    struct pmc_bctr *c, struct perf_event_mmap_page *page, size_t data_size);
/* Drains c's ring, then forgets it; after this the caller may unmap it. */
void pmc__logw_remove_ring(struct pmc_logw *lw, struct pmc_bctr *c);

/* A record from the core, timestamped now.  payload is the record body
 * (without the 16-byte header); len is padded to 8.  -EMSGSIZE if too big. */
int  pmc__logw_write(struct pmc_logw *lw, int type, const void *payload, size_t len);
/* A record built with a pmc__logrec_*() encoder (records.h). */
int  pmc__logw_put(struct pmc_logw *lw, const struct pmc_logrec *rec);

/* Drain all rings, write everything out; the pending error (-errno) or 0. */
int  pmc__logw_flush(struct pmc_logw *lw);
/* Stop the thread, drain, CLOSELOG, write out, free; the first error or 0.
 * Rings still registered are drained but not unmapped (the caller owns them). */
int  pmc__logw_close(struct pmc_logw *lw);
struct pmc_logw_stats;

/*
 * LOG_PROCEXIT on a process the PMC is attached to: when the process exits
 * (its EXIT record), write PROCEXIT with the sum of these counters (read
 * through be).  The core removes the watch before it closes the counters.
 */
int  pmc__logw_watch_exit(struct pmc_logw *lw, pid_t pid, pmc_id_t pmc,
    const struct pmc_backend_ops *be, struct pmc_bctr *const *ctr, int nctr);
void pmc__logw_unwatch_exit(struct pmc_logw *lw, pid_t pid, const struct pmc_bctr *first);
/* pmc__logw_close that also reports the final statistics (st may be NULL). */
int  pmc__logw_close_stats(struct pmc_logw *lw, struct pmc_logw_stats *st);

struct pmc_logw_stats {
	uint64_t samples;      /* CALLCHAIN records produced from ring samples */
	uint64_t lost;         /* samples lost: kernel LOST/LOST_SAMPLES + discarded by us */
	uint64_t records;      /* log records produced (all types) */
	uint64_t bytes;        /* bytes written to the fd */
	uint64_t writes;       /* buffer write-outs (write(2) loops) */
	uint64_t sweeps;       /* passes over the rings */
	uint64_t errors;       /* failed writes + corrupt ring records */
	int error;             /* the first write errno, 0 if none */
};
void pmc__logw_get_stats(struct pmc_logw *lw, struct pmc_logw_stats *st);

#endif
