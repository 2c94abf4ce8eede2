/*
 * backend.h — the backend boundary.
 *
 * Everything above this line (PMC lifecycle, the log, the tools) is the same
 * code whether counters come from the Linux kernel (perf_event_open) or from
 * the simulated ARMv8 PMU.  A backend is one table of functions, like hwpmc's
 * machine-dependent classes (struct pmc_classdep): the core asks it to open,
 * enable, read and map counters and never looks behind it.
 *
 * Vocabulary.  A *backend counter* (struct pmc_bctr) is one event on one
 * target: a (pid or tid, cpu) pair exactly as perf_event_open takes them —
 * pid > 0 with cpu == -1 follows a task across CPUs, pid == -1 with cpu >= 0
 * counts a whole CPU.  One libpmc PMC owns one or more backend counters (one
 * per attached target, or one per CPU).
 *
 * Events are described by struct perf_event_attr for both backends: the sim
 * interprets PERF_TYPE_HARDWARE/RAW configs as ARMv8 event numbers.
 *
 * Every function returns 0 or a negative errno, and on failure may set a
 * reason with pmc__err() (lib/common/error.h) that pmc_errmsg() shows.
 */
#ifndef PMC_BACKEND_H
#define PMC_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include "pmc.h"

struct pmc_bctr;   /* opaque; defined by each backend */

/* What the machine offers, filled by ops->init. */
struct pmc_machine {
	enum pmc_cputype cputype;
	int ncpu;                       /* highest CPU number + 1 */
	int has_hw_pmu;                 /* a core PMU exists (hardware events can count) */
	char cpu_desc[128];             /* "AMD EPYC 7B13" */
	uint32_t nclass;
	struct pmc_classinfo classes[PMC_CLASS_MAX];
	/*
	 * strict_rows[i]: class i has a fixed number of counter rows and
	 * hwpmc's row-disposition rules apply (FREE / THREAD / STANDALONE).
	 * The Linux kernel multiplexes instead, so the Linux backend leaves
	 * these 0; the sim sets them for its hardware class.
	 */
	int strict_rows[PMC_CLASS_MAX];
};

/* One reading of a backend counter. */
struct pmc_bcount {
	uint64_t value;                 /* raw count (not scaled) */
	uint64_t enabled;               /* ns enabled */
	uint64_t running;               /* ns on a counter */
	uint64_t lost;                  /* records the kernel could not write into the
	                                 * counter's ring (PERF_FORMAT_LOST); 0 unknown */
};

/* open flags */
#define PMC_BOPEN_INHERIT      0x01  /* follow children created after open */
#define PMC_BOPEN_ENABLE_EXEC  0x02  /* start counting at the target's next exec */
#define PMC_BOPEN_CGROUP       0x04  /* pid is the fd of a cgroup directory (cpu >= 0) */

struct pmc_backend_ops {
	const char *name;

	int  (*init)(struct pmc_machine *m);
	void (*fini)(void);

	/* Is CPU online?  0, -ENXIO (absent or offline). */
	int  (*cpu_check)(int cpu);
	/* May the caller attach to this task?  0, -ESRCH, -EPERM. */
	int  (*target_check)(pid_t pid);

	/* Counters.  attr is complete (the core has set sampling fields). */
	int  (*open)(const struct perf_event_attr *attr, pid_t pid, int cpu,
		     struct pmc_bctr *group_leader, unsigned flags,
		     struct pmc_bctr **out);
	void (*close)(struct pmc_bctr *c);
	int  (*enable)(struct pmc_bctr *c);
	int  (*disable)(struct pmc_bctr *c);
	int  (*reset)(struct pmc_bctr *c);
	int  (*read)(struct pmc_bctr *c, struct pmc_bcount *v);
	/* New sampling period (or frequency if attr.freq).  */
	int  (*set_period)(struct pmc_bctr *c, uint64_t period);
	/* The kernel's event id (PERF_FORMAT_ID / PERF_SAMPLE_ID). */
	int  (*id)(struct pmc_bctr *c, uint64_t *id);
	/* The attributes c was opened with, the backend's own additions
	 * included: what its records are laid out by. */
	const struct perf_event_attr *(*attr)(const struct pmc_bctr *c);

	/*
	 * Ring buffers, the perf_event_mmap_page head/tail protocol.
	 * ring_map maps 1 + 2^n pages; ring_redirect sends c's records into
	 * to's ring (PERF_EVENT_IOC_SET_OUTPUT).  ring_wait blocks until some
	 * ring has passed its wake-up mark or timeout_ms elapses (the sim
	 * advances simulated time here); returns the number ready or -errno.
	 */
	int  (*ring_map)(struct pmc_bctr *c, size_t data_pages,
			 struct perf_event_mmap_page **page);
	void (*ring_unmap)(struct pmc_bctr *c);
	int  (*ring_redirect)(struct pmc_bctr *c, struct pmc_bctr *to);
	int  (*ring_wait)(struct pmc_bctr **cs, int n, int timeout_ms);

	/*
	 * Self-monitoring: the control page a task may read its own counter
	 * through (index, offset, pmc_width, time fields), or -EOPNOTSUPP.
	 * Counter values behind page->index are read with rdpmc_read(c, idx)
	 * where idx is page->index - 1 (the hardware counter number).
	 */
	int  (*user_page)(struct pmc_bctr *c, struct perf_event_mmap_page **page);
	uint64_t (*rdpmc_read)(struct pmc_bctr *c, uint32_t index);

	/*
	 * Targets created by the library (pmc_spawn).  spawn leaves the
	 * target waiting before exec; spawn_go releases it; spawn_wait waits
	 * up to timeout_ms (-1 = forever): 0 with *status set when it has
	 * ended, -EAGAIN on time-out.
	 */
	int  (*spawn)(char *const argv[], pid_t *pid);
	int  (*spawn_go)(pid_t pid);
	int  (*spawn_wait)(pid_t pid, int *status, int timeout_ms);
	/* Signal a spawned target (the tool's error paths end a target that
	 * never ran this way); -ESRCH if it is not ours. */
	int  (*spawn_kill)(pid_t pid, int sig);
	/* Monotonic time in ns on the backend's clock (sample timestamps). */
	uint64_t (*now)(void);
};

extern const struct pmc_backend_ops pmc_backend_linux;
extern const struct pmc_backend_ops pmc_backend_sim;

#endif
