/*
 * sim.h — the simulated machine and its kernel, shared by the files of the
 * sim backend (not by anything above the backend boundary).
 *
 *   pmuv3.c     the PMU registers (hardware)
 *   workload.c  workload files (the programs)
 *   sched.c     tasks, CPUs, the scheduler and the execution engine
 *   events.c    the perf-core half: counters on tasks/CPUs, context switch
 *               save/restore, multiplexing, times enabled/running
 *   driver.c    the arm64 PMU driver half: counter allocation, 64-bit
 *               extension, the overflow interrupt handler, sampling reload
 *   output.c    records into perf_event_mmap_page rings, wake-ups
 *   userpage.c  the self-monitoring control page (writer and reader)
 *   backend_sim.c  struct pmc_backend_ops pmc_backend_sim
 *
 * One global machine (struct sim), protected by sim.lock: every backend op
 * takes it; internal functions (sim__*) expect it held.
 */
#ifndef PMC_SIM_SIM_H
#define PMC_SIM_SIM_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "backend/backend.h"
#include "backend/sim/pmuv3.h"
#include "backend/sim/workload.h"
#include "common/userpage.h"

#define SIM_MAX_CPUS    64
#define SIM_PID_BASE    1000        /* first simulated pid */
#define SIM_NSLOTS      33          /* 0..30 event counters, 31 cycle, 32 instr */
#define SIM_PAGE_SIZE   4096
#define SIM_MAX_STACK   127         /* default call-chain depth */

/* ---- machine configuration ------------------------------------------- */
struct sim_config {
	int ncpu;                   /* simulated CPUs */
	struct pmuv3_config pmu;    /* counters, p5, icntr, p9 */
	int lc;                     /* driver sets PMCR_EL0.LC (64-bit cycle counter) */
	int lp;                     /* driver sets PMCR_EL0.LP (needs p5) */
	uint64_t slice_ns;          /* scheduler time slice = tick */
	uint64_t hz;                /* CPU clock; 1 GHz means 1 cycle == 1 ns */
	int user_access;            /* sysctl kernel.perf_user_access (config1:1 events) */
	uint64_t max_sample_rate;   /* kernel.perf_event_max_sample_rate; 0: no throttling */
	uint64_t skid;              /* events of the sampled kind between overflow and pc */
	uint64_t irq_latency;       /* cycles between overflow and the handler */
	uint64_t irq_cost;          /* ns the overflow handler takes */
	uint64_t launch;            /* instructions (one cycle each, EL0) a spawned
	                             * child runs between its release and its exec:
	                             * the launcher's own code; 0: none */
};

/* ---- tasks ------------------------------------------------------------ */
enum sim_tstate { T_EMBRYO, T_RUNNABLE, T_RUNNING, T_BLOCKED, T_DEAD };

struct sim_frame {
	int func;
	int op;                     /* index of the current op */
	uint64_t rep;               /* repetitions of op left (call/thread/fork) */
	uint64_t progress;          /* cycles done in the current work op */
};

struct sim_att;

struct sim_task {
	pid_t tid, pid, ppid;       /* pid = thread group; ppid of the process */
	struct sim_task *leader;    /* the process's main thread (itself for one) */
	struct sim_task *parent;    /* creating task */
	struct simwl *wl;           /* the program */
	int proc;                   /* workload process template */
	char comm[16];
	enum sim_tstate state;
	struct sim_frame stack[SIMWL_MAX_DEPTH];
	int depth;
	int cpu;                    /* current or last CPU, -1 never ran */
	uint64_t ready_at;          /* may not start before this time */
	int exec_pending;           /* emit exec side-band at first run */
	int launching;              /* released, running the launcher before exec */
	uint64_t launch_progress;   /* cycles of the launcher's work done */
	/* process-level (valid on the leader) */
	int live_threads;
	int live_children;          /* child processes not yet exited */
	int exit_code;
	int exited;                 /* process ended (zombie until reaped) */
	int reaped;
	int waiting;                /* a thread blocked in `wait` */
	/* counters attached to this task */
	struct sim_att **atts;
	int natts, capatts;
	int rotate_needed;          /* task context: a flexible group did not fit */
	uint64_t cpu_ns;            /* on-CPU time */
	uint64_t q_done[SIMWL_NQ];  /* exact events executed (ground truth) */
};

/* ---- counters ---------------------------------------------------------- */
enum sim_evkind { EV_HW, EV_SW };

struct sim_perf_buffer;

/*
 * One attachment of a counter to one context: a task (per-task counters,
 * one per inherited child, like the kernel's child events) or a CPU (system
 * mode).  This is what the scheduler puts on a hardware counter.
 */
struct sim_att {
	struct pmc_bctr *ev;
	struct sim_task *task;      /* NULL for a CPU-bound counter */
	int cpu;                    /* CPU it runs on now (-1 if not active) */
	int slot;                   /* hardware counter index, -1 if none */
	int active;                 /* context scheduled in (task on CPU) */
	uint64_t count;             /* 64-bit virtual count (updated) */
	uint64_t prev;              /* counter value at last update, sign-extended */
	uint64_t enabled, running;  /* ns */
	uint64_t tstamp;            /* time of last time update */
	int64_t period_left;
	uint64_t sample_period;     /* hwc->sample_period (freq mode retunes it) */
	uint64_t last_period;       /* the period loaded last (hwc->last_period) */
	uint64_t freq_time_stamp;   /* freq mode: time of the last interrupt */
	uint64_t freq_count_stamp;  /* freq mode: count at the last tick */
	uint64_t gidx;              /* group order in its context (rotation) */
	unsigned interrupts;        /* samples since the last tick (throttling) */
	int throttled;              /* stopped until the next tick */
	int dead;                   /* task exited: values final */
};

struct pmc_bctr {
	uint64_t id;
	struct perf_event_attr attr;
	pid_t pid;
	int cpu;
	unsigned flags;
	enum sim_evkind kind;
	unsigned evt;               /* ARMv8 event number (EV_HW) or PERF_COUNT_SW_* */
	struct pmc_bctr *leader;
	struct pmc_bctr **sibs;     /* leader only: members after the leader */
	int nsibs, capsibs;
	int enabled;
	int error;                  /* pinned group did not fit: ERROR state */
	int exec_enable;            /* enable when the target execs */
	uint64_t period;            /* current sample period (0 = counting) */
	struct sim_att **atts;
	int natts, capatts;
	struct sim_perf_buffer *rb;        /* where records go (own or redirected) */
	struct sim_perf_buffer *own_rb;    /* ring this counter mapped */
	struct perf_event_mmap_page *upage;  /* control page without a ring */
	uint64_t lost;              /* samples lost (PERF_FORMAT_LOST) */
	uint64_t nsamples;
	struct pmc_bctr *next;      /* all counters */
};

/* ---- ring buffers -------------------------------------------------------- */
/* The producer side of a mapped ring: the simulated kernel's struct
 * perf_buffer. */
struct sim_perf_buffer {
	struct perf_event_mmap_page *page;
	unsigned char *data;
	uint64_t size;              /* data bytes, power of two */
	uint64_t head;
	uint64_t lost;              /* records lost since the last LOST record */
	uint64_t wakeup;            /* head at the last wake-up */
	uint64_t events;            /* samples since the last wake-up */
	uint64_t watermark;
	int poll;                   /* a wake-up is pending (perf's rb->poll) */
	int consumer;               /* 0 none, 1 assumed (mapped), 2 calls ring_wait */
	pthread_t consumer_tid;
	int refs;
	struct pmc_bctr *owner;
};

/* ---- CPUs -------------------------------------------------------------- */
struct sim_cpu {
	int id;
	uint64_t now;               /* local clock, ns */
	struct sim_task *cur;
	uint64_t slice_end;
	int idle;                   /* nothing to run */
	struct pmuv3 pmu;
	struct sim_att *slot[SIM_NSLOTS];
	struct sim_att **catts;     /* CPU-bound attachments */
	int ncatts, capcatts;
	int rotate_needed;          /* CPU context: a flexible group did not fit */
	int in_irq;
	uint64_t irq_at;            /* pending interrupt: taken at this time, */
	uint64_t irq_insns;         /* ... and after this many instructions */
	uint64_t irqs, spurious;
	int naive_clear_all;        /* tests: a handler that clears all flags */
	/* test hook: runs inside the handler after PMOVSCLR is read */
	void (*irq_hook)(struct sim_cpu *c, void *arg);
	void *irq_hook_arg;
};

struct sim {
	pthread_mutex_t lock;
	pthread_cond_t cond;        /* state changed (records, exits, acks) */
	int inited;
	struct sim_config cfg;
	struct sim_cpu cpus[SIM_MAX_CPUS];
	struct simwl *wl;           /* the workload being run */
	struct sim_task **tasks;    /* by tid - SIM_PID_BASE */
	int ntasks, captasks;
	struct sim_task **rq;       /* run queue (FIFO ring) */
	int rq_head, rq_len, rq_cap;
	struct pmc_bctr *events;
	uint64_t next_id;
	int driving;                /* a thread is advancing the simulation */
	int waiters;                /* threads blocked in ring_wait */
	uint64_t steps;
	uint64_t next_gidx;         /* group order for rotation */
};

extern struct sim sim;

/* The machine configuration: defaults and PMC_SIM_MACHINE parsing (backend_sim.c) */
void sim__default_config(struct sim_config *c);
int  sim__parse_config(struct sim_config *c, const char *spec);
/* Tests: machine settings (PMC_SIM_MACHINE syntax) applied at the next
 * init, after the environment's; NULL clears. */
int  sim__configure(const char *spec);

/* sched.c */
int  sim__machine_init(const struct sim_config *cfg);
void sim__machine_fini(void);
struct sim_task *sim__task(pid_t tid);
/* pid 0, "self": the program using the library.  It is not simulated, so
 * its counters exist (allocation probes, self-monitoring PMCs) but stay 0. */
struct sim_task *sim__self(void);
int  sim__spawn(const char *path, pid_t *pid);
int  sim__spawn_go(pid_t pid);
/* One step of the machine: the CPU with the earliest clock runs until its
 * next event.  0 if something ran, 1 if nothing can run (all idle). */
int  sim__step(void);
uint64_t sim__now(void);
int  sim__runnable(void);     /* some task is not finished */
/* Run events on a CPU directly, for tests: n occurrences of ARMv8 event
 * evt at el, chunked at overflows, interrupts taken (current task's pc). */
void sim__cpu_inject(int cpu, unsigned evt, uint64_t n, int el);

/* events.c */
int  sim__ev_open(const struct perf_event_attr *attr, pid_t pid, int cpu,
		  struct pmc_bctr *leader, unsigned flags, struct pmc_bctr **out);
void sim__ev_close(struct pmc_bctr *e);
void sim__ev_enable(struct pmc_bctr *e, int on);
void sim__ev_reset(struct pmc_bctr *e);
void sim__ev_read(struct pmc_bctr *e, struct pmc_bcount *v);
void sim__att_read(struct sim_att *a, struct pmc_bcount *v);
/* The attachment of counter e on the same task/CPU as a, or NULL. */
struct sim_att *sim__att_peer(struct pmc_bctr *e, const struct sim_att *a);
void sim__task_attach_inherited(struct sim_task *parent, struct sim_task *child);
void sim__task_exec(struct sim_task *t);          /* enable_on_exec */
void sim__task_exit(struct sim_task *t);
void sim__sched_in(struct sim_cpu *c);            /* (re)build the counter set */
void sim__sched_out(struct sim_cpu *c);
/* The scheduler tick on c: frequency retuning, unthrottling, rotation
 * (perf_event_task_tick + perf_rotate_context). */
void sim__ev_tick(struct sim_cpu *c);
/* An idle CPU's ticks up to `until`: its CPU context rotates (mux timer). */
void sim__cpu_idle_ticks(struct sim_cpu *c, uint64_t until);
/* perf_event_overflow: a sampling period of a elapsed (period events) with
 * the task at ip/el; 1 if the event is throttled now. */
int  sim__ev_overflow(struct sim_cpu *c, struct sim_att *a, uint64_t period,
		      uint64_t ip, int el);
uint64_t sim__max_samples_per_tick(void);
void sim__resched(struct sim_cpu *c);
void sim__att_times(struct sim_att *a, uint64_t now);
void sim__sw_event(struct sim_task *t, int cpu, unsigned swev, uint64_t n);
/* The value of a counter on one task (per-process counts). */
int  sim__ev_task_count(struct pmc_bctr *e, pid_t pid, uint64_t *value);

/* driver.c */
void sim__drv_reset(struct sim_cpu *c);
/* PMUSERENR_EL0 (and PMUACR_EL1) for the context now on c */
void sim__drv_user_access(struct sim_cpu *c);
int  sim__drv_add(struct sim_cpu *c, struct sim_att *a, int slot_hint);
void sim__drv_del(struct sim_cpu *c, struct sim_att *a);
void sim__drv_update(struct sim_cpu *c, struct sim_att *a);
int  sim__drv_set_period(struct sim_cpu *c, struct sim_att *a);
void sim__drv_restart(struct sim_cpu *c, struct sim_att *a);
int  sim__drv_fits(struct sim_cpu *c, struct sim_att **as, int n, int *used);
/* validate_group: could these events ever be on the PMU together? */
int  sim__drv_validate(struct pmc_bctr **evs, int n);
/* config1 bit 1 ("rdpmc"): the event asks for EL0 reads */
int  sim__want_user_access(const struct pmc_bctr *e);
void sim__drv_irq(struct sim_cpu *c);
uint64_t sim__drv_maxperiod(struct sim_cpu *c, int slot);
int  sim__drv_width(struct sim_cpu *c, int slot);

/* output.c */
struct sim_perf_buffer *sim__ring_new(struct pmc_bctr *owner, size_t data_pages);
void sim__ring_free(struct sim_perf_buffer *rb);
void sim__out_sample(struct sim_cpu *c, struct sim_att *a, uint64_t period, uint64_t ip,
		    int el);
void sim__out_throttle(struct sim_cpu *c, struct sim_att *a, int unthrottle);
void sim__out_comm(struct sim_task *t, int exec);
void sim__out_mmap(struct sim_task *t);
void sim__out_fork(struct sim_task *child, int is_exit);
void sim__out_read(struct sim_att *a);
/* Context of the running task on c for samples. */
uint64_t sim__task_ip(struct sim_task *t, int *el);
int  sim__task_callchain(struct sim_task *t, uint64_t *ips, int max, int el);

/* userpage.c */
void sim__userpage_update(struct pmc_bctr *e);
struct perf_event_mmap_page *sim__userpage(struct pmc_bctr *e);
uint64_t sim__rdpmc(struct pmc_bctr *e, uint32_t idx);


#endif
