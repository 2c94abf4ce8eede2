/*
 * internal.h — the core's view of a PMC, shared by the files of lib/core.
 *
 * A PMC (hwpmc's struct pmc) is what a pmc_id_t names: one event in one
 * mode.  It owns backend counters: for a system-mode PMC one on its CPU;
 * for a process-mode PMC one per thread of each attached target (counting)
 * or one per CPU per target (sampling, so all samples of a CPU share one
 * ring, as perf record does).
 */
#ifndef PMC_CORE_INTERNAL_H
#define PMC_CORE_INTERNAL_H

#include <pthread.h>
#include "pmc.h"
#include "backend/backend.h"
#include "event/event.h"

struct pmc_target {
	pid_t pid;                      /* process (or thread if is_thread) */
	int is_thread;
	int nctr, capctr;               /* ctr, ctr_cpu, ctr_tid, probe: one capacity */
	struct pmc_bctr **ctr;
	int *ctr_cpu;                   /* the CPU of each counter (-1: follows the task) */
	pid_t *ctr_tid;                 /* the thread each counter was opened on */
	struct pmc_bctr **probe;        /* LOG_PROCCSW: the group's context-switch
	                                 * probe for each counter, else NULL */
	int exited;                     /* the process exited (core/targetwatch.c) */
	int implicit;                   /* a group leader's, opened because a member
	                                 * was attached here first */
	struct pmc_target *next;
};

struct pmc {
	pmc_id_t id;
	struct pmc_evspec ev;
	enum pmc_mode mode;
	uint32_t flags;                 /* PMC_F_* as allocated (+ internal bits) */
	int cpu;                        /* system mode: the CPU; else -1 */
	enum pmc_state state;
	uint64_t count;                 /* initial count (counting) / period (sampling) */
	uint64_t freq;                  /* sampling frequency, 0 if period */
	uint32_t ustack;                /* pmc_set_user_stack bytes, 0 if none */
	int switches;                   /* pmc_set_switch_log: SWITCH records too */
	int cgroup_fd;                  /* pmc_set_cgroup: the directory's fd + 1 (0: none) */
	int64_t offset;                 /* counting: value = scaled raw + offset (pmc_write) */
	struct pmc_target *targets;
	struct pmc *leader;             /* pmc_group(): NULL or the group leader */
	int nmembers;                   /* as leader: how many joined */
	int sigio_sent;                 /* the owner was told it lost its targets */
	struct pmc *next;
};

struct pmc_core {
	pthread_mutex_t lock;
	int initialized;
	const struct pmc_backend_ops *be;
	struct pmc_machine m;
	struct pmc_cpuinfo ci;
	struct pmc *pmcs;
	struct pmc_driverstats stats;
};

extern struct pmc_core pmc__g;

/* Lookups used by the log control (core/logctl.c). */
struct pmc *pmc__find(pmc_id_t id);
/* Is a log configured?  (core/logctl.c) */
int pmc__log_active(void);
/* Hooks the log control provides for sampling PMCs (core/logctl.c). */
int pmc__log_pmc_started(struct pmc *pm);
int pmc__log_pmc_allocated(struct pmc *pm);
void pmc__log_fini(void);
int pmc__log_pmc_detach(struct pmc *pm, struct pmc_target *t);
void pmc__log_target_closing(struct pmc_target *t);
void pmc__log_fill_stats(struct pmc_driverstats *st);
/* PMCADMIN row state (core/rows.c). */
int pmc__row_disabled(int cpu, int row);
int pmc__row_set_disabled(int cpu, int row, int disabled);
void pmc__rows_fini(void);
int pmc__class_index(enum pmc_class c);
int pmc__hw_row(const struct pmc *pm, int num);
enum pmc_disp pmc__row_use(int ci, int r, int cpu);
int pmc__pick_row(struct pmc *pm, pmc_id_t *id, int share);
/* Targets pmc_spawn() created and not yet released (core/spawn.c). */
int pmc__spawn_pending(pid_t pid);
/* The command execs now: reopen the counters of PMCs not running (pmc.c). */
int pmc__spawn_release(pid_t pid);
/* hwpmc's SIGIO when a PMC loses its last target (core/targetwatch.c). */
void pmc__targets_lost(struct pmc *pm);
void pmc__targetwatch_start(void);
void pmc__targetwatch_stop(void);
pid_t pmc__targetwatch_tid(void);
/* Forget the CPU event table pmc_pmu_*(3) read (core/pmu.c). */
void pmc__pmu_table_reset(void);
/* Sampling attr fields for pm (core/pmc.c). */
void pmc__sampling_attr(const struct pmc *pm, struct perf_event_attr *a);

#endif
