/*
 * pmc/linux.h — libpmc's Linux extensions (pmc(3) "LINUX EXTENSIONS"): the
 * reason channel, the backends, PMC settings FreeBSD lacks (groups, periods,
 * frequencies, user stacks, switch records, cgroups), command targets and
 * the backend's clock, and hwpmc's tunables (pmc_sysctlbyname).
 *
 * Not in FreeBSD's libpmc.  Same conventions as <pmc.h>: 0 or -1 with
 * errno, and pmc_errmsg() says why.  Included by <pmc.h>.
 */
/* <pmc.h> first: it includes this header after what this one uses. */
#include "../pmc.h"

#ifndef _PMC_LINUX_H_
#define _PMC_LINUX_H_

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * pmc_errmsg — why the last failing libpmc call of this thread failed, as
 * one sentence without a trailing newline ("no hardware PMU on this machine
 * (software events only); try cpu-clock").  Never NULL; "" if nothing failed.
 */
PMC_API const char *pmc_errmsg(void);

/*
 * pmc_errcause — what kind of failure pmc_errmsg() describes, for a program
 * that reacts to a kind (falls back to a software event, reports a counter
 * as "not supported") without matching the sentence's words, which may
 * change.  Set where the failure is raised, alongside errno; PMC_CAUSE_NONE
 * if nothing failed.
 */
enum pmc_errcause {
	PMC_CAUSE_NONE = 0,     /* nothing failed */
	PMC_CAUSE_OTHER,        /* no class below: errno and pmc_errmsg() say what */
	PMC_CAUSE_NO_PMU,       /* the event needs a hardware PMU; this machine has none */
	PMC_CAUSE_UNSUPPORTED,  /* the event exists, but the PMU, the kernel or this
				   library cannot count it as asked */
	PMC_CAUSE_NOMEM         /* out of memory */
};
PMC_API enum pmc_errcause pmc_errcause(void);

/*
 * pmc_seterror - record why something failed, in the channel that
 * pmc_errmsg() and pmc_errcause() read
 * @err: a negative errno value (-EINVAL), or 0 to clear the channel
 * @cause: the kind of failure; PMC_CAUSE_NONE lets @err decide
 *         (PMC_CAUSE_NOMEM for -ENOMEM, PMC_CAUSE_OTHER otherwise)
 * @fmt: printf-style format of the reason, one sentence without a trailing
 *       newline; NULL says strerror(-@err)
 * Return: @err, with errno set to -@err when @err is negative.
 *
 * For code layered on libpmc (the analysis library, a program's own
 * helpers) that wants its failures read the way libpmc's are.  The channel
 * is per thread and keeps the first reason recorded since it was last
 * cleared, because the deepest layer knows best: a caller that has nothing
 * to add returns @err upwards, and one that has context reads
 * pmc_errmsg(), clears, and records "context: reason".  Every libpmc call
 * clears the channel on entry; a layer above clears it (@err 0) where an
 * operation of its own starts, so an older reason is not mistaken for the
 * new one.  A positive @err is taken as its negative.
 */
PMC_API int pmc_seterror(int err, enum pmc_errcause cause, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/*
 * pmc_set_print — where libpmc's warnings go (libbpf's libbpf_set_print):
 * the settings it corrects or ignores (an out-of-range tunable, a
 * malformed config file line, a PMC_<NAME> that is not a number), each a
 * whole line ending in a newline.  The default prints them on stderr; a
 * program with a log of its own, or a terminal it owns, passes its
 * printer, NULL silences them.  Returns the previous printer.  Process-wide;
 * set it before pmc_init() (the settings are read there).
 */
enum pmc_print_level {
	PMC_PRINT_WARN = 0,     /* a setting corrected or ignored */
	PMC_PRINT_INFO,
	PMC_PRINT_DEBUG
};
typedef int (*pmc_print_fn_t)(enum pmc_print_level _level, const char *_fmt, va_list _ap);
PMC_API pmc_print_fn_t pmc_set_print(pmc_print_fn_t _fn);

/*
 * pmc_backend_select — choose the backend ("linux", the default, or "sim",
 * the simulated ARMv8 PMU) before pmc_init().  The environment variable
 * PMC_BACKEND does the same.  EBUSY after pmc_init(); ENOENT for an
 * unknown name.  pmc_backend_name() names the one in use.
 */
PMC_API int pmc_backend_select(const char *_name);
PMC_API const char *pmc_backend_name(void);

/* (Linux extension) The first line of the sim backend's workload images,
 * the files its processes "execute" (perf-map text: "START SIZE name" per
 * function).  A mapped file is read as such a map only when it starts so:
 * any other file a recording names is a binary (ELF) or nothing. */
#define PMC_SIM_IMAGE_MAGIC "# pmc sim image: perf-map text\n"

/* pmc_libversion — LIBPMC_VERSION of the library running: (major << 16) |
 * (minor << 8) | patch.  Needs no pmc_init(). */
PMC_API unsigned pmc_libversion(void);

/* pmc_fini — release every PMC, close the log, forget pmc_init(). */
PMC_API void pmc_fini(void);

/*
 * pmc_read_ext — a reading with the kernel's multiplexing times.  When the
 * kernel time-shares counters, pm_value is pm_raw scaled by
 * pm_enabled/pm_running, and pm_scaled says so; pm_running == 0 means the
 * event never got a counter ("<not counted>").
 */
struct pmc_reading {
	pmc_value_t pm_value;    /* scaled value (what pmc_read returns) */
	pmc_value_t pm_raw;      /* unscaled count */
	uint64_t pm_enabled;     /* ns the PMC was enabled */
	uint64_t pm_running;     /* ns it actually had a counter */
	int pm_scaled;           /* 1 if pm_value != pm_raw because of scaling */
};
PMC_API int pmc_read_ext(pmc_id_t _pmc, struct pmc_reading *_r);

/* pmc_attach_thread / pmc_detach_thread — a process-mode PMC on one thread. */
PMC_API int pmc_attach_thread(pmc_id_t _pmc, pid_t _tid);
PMC_API int pmc_detach_thread(pmc_id_t _pmc, pid_t _tid);

/*
 * pmc_group — make _member count in _leader's group (scheduled onto the PMU
 * together, so ratios between them are exact).  Both stopped, same mode and
 * CPU; before the first attach or start.  A member started (or started
 * again) while its leader runs counts from then on: the running group is
 * taken off the CPU and put back with it, which Linux does not do for a
 * member of another PMU (cpu-clock in a task-clock group).  The group is
 * one unit whatever the order of later calls: a member attached (or
 * started, attaching it to the owner) where its leader is not attached yet
 * brings the leader along (opened first, stopped), and the leader's own
 * pmc_attach there later is a no-op; a system-mode member started first
 * opens its leader's counter first.  A member counts while its leader runs.
 */
PMC_API int pmc_group(pmc_id_t _leader, pmc_id_t _member);

/*
 * pmc_set_period — a stopped sampling PMC samples every _period events, as
 * perf's -c: a software event or a tracepoint every _period occurrences,
 * down to 1 (every one); a hardware counter's period is raised to
 * kern.hwpmc.mincount, a guard against interrupt storms, as pmc_set does
 * (pmc_set and pmc_allocate raise every sampling PMC's, SOFT ones too, as
 * FreeBSD's programs expect).  Replaces a frequency.  EINVAL: a counting
 * PMC, 0 or above INT64_MAX; EBUSY: running.
 */
PMC_API int pmc_set_period(pmc_id_t _pmc, pmc_value_t _period);

/* pmc_set_frequency — a sampling PMC takes _hz samples per second instead
 * of one per period (perf's -F).  EBUSY while running. */
PMC_API int pmc_set_frequency(pmc_id_t _pmc, uint64_t _hz);

/* pmc_set_user_stack — with each sample, also copy the user registers and
 * up to _bytes of the user stack (from the sampled stack pointer up), so
 * that a report can unwind user call chains from DWARF CFI (perf's
 * --call-graph dwarf,SIZE).  _bytes is rounded up to a multiple of 8;
 * 1..PMC_USER_STACK_MAX (0 turns it off); the log keeps only the bytes the
 * kernel really copied.  With PMC_F_CALLCHAIN the kernel still records the
 * kernel part of the chain and the user part is left to the unwinder.
 * EINVAL: not a sampling PMC or _bytes too large; EBUSY: after the first
 * attach or start; EOPNOTSUPP: no register set known for this architecture
 * (x86_64 and aarch64 are). */
#define PMC_USER_STACK_MAX     65528   /* the kernel's limit: u16, 8-aligned */
#define PMC_USER_STACK_DEFAULT 8192    /* perf's */
PMC_API int pmc_set_user_stack(pmc_id_t _pmc, uint32_t _bytes);

/*
 * pmc_set_switch_log — a sampling PMC also logs each switch of its targets
 * off and onto a CPU (the kernel's PERF_RECORD_SWITCH: a SWITCH record with
 * the thread, CPU and time, docs/log-format.md).  With the software event
 * context-switches sampled every switch (period 1) and PMC_F_CALLCHAIN, a
 * sample holds where a thread blocked and the next switch-in of that thread
 * when it ran again: off-CPU time (`pmc record --off-cpu`).  On that event
 * it also sets the period to 1 (every switch-out is a sample; mincount does
 * not apply) and turns a frequency off.  EINVAL: not a sampling PMC; EBUSY:
 * after the first attach or start.
 */
PMC_API int pmc_set_switch_log(pmc_id_t _pmc, int _on);

/*
 * pmc_set_cgroup — a system-mode PMC counts only while a task of the cgroup
 * at _path (a cgroup v2 directory, e.g. /sys/fs/cgroup/system.slice/x.service,
 * or one of the v1 perf_event hierarchy) runs on its CPU (perf's -G).  Before
 * pmc_start.  EINVAL: not a system-mode PMC; EBUSY: already started;
 * ENOENT/ENOTDIR/EACCES: the directory; EOPNOTSUPP: the sim backend.
 */
PMC_API int pmc_set_cgroup(pmc_id_t _pmc, const char *_path);

/* pmc_host_has_hw_pmu — 1 if the kernel has a core PMU (sysfs cpu,
 * cpu_core, armv8_*, ...): hardware events can be counted on this host. */
PMC_API int pmc_host_has_hw_pmu(void);

/*
 * pmc_spawn / pmc_spawn_go — run a command as a counting target.
 * pmc_spawn forks a child that waits before exec; attach PMCs to *_pid,
 * start them, then pmc_spawn_go lets it exec.  Counting begins at the exec,
 * so the tool's own fork and exec are never counted, whatever the PMC's
 * state when attached (running already, or started later); a PMC not
 * running at the exec counts from its pmc_start.  With the sim backend
 * argv[0] is a workload file.  pmc_spawn_wait reaps it (status as waitpid).
 */
PMC_API int pmc_spawn(char *const _argv[], pid_t *_pid);
PMC_API int pmc_spawn_go(pid_t _pid);
PMC_API int pmc_spawn_wait(pid_t _pid, int *_status);
/* ... waiting at most _timeout_ms (-1 forever): -1/EAGAIN if still running.
 * With the sim backend the time-out is in simulated time. */
PMC_API int pmc_spawn_wait_timeout(pid_t _pid, int *_status, int _timeout_ms);
/*
 * pmc_spawn_kill - send a signal to a target pmc_spawn() started
 * @_pid: the target (pmc_spawn's *_pid), not reaped yet
 * @_sig: the signal
 * A target still waiting before its exec (pmc_spawn_go not called yet)
 * never runs the command: it ends with status 128+@_sig.
 * Return: 0, or -1 with errno and a reason (ENXIO before pmc_init(); the
 * backend's kill(2) error, ESRCH when it is gone).
 */
PMC_API int pmc_spawn_kill(pid_t _pid, int _sig);

/*
 * pmc_target_exists - whether a process or thread exists for the backend
 * in use
 * @_pid: a process or thread id
 * What -p/-t targets and an attached PMC's owner are checked against: the
 * host's processes with the linux backend, the simulated ones with sim
 * (which the host does not see, so kill(pid, 0) cannot answer).  Lets a
 * program that follows a target end when it is gone.
 * Return: 1 if it exists (a process we may not signal exists too), 0 if
 * it does not; -1 with errno ENXIO before pmc_init().
 */
PMC_API int pmc_target_exists(pid_t _pid);

/*
 * pmc_clock_ns - the backend's monotonic clock
 * The time the backend's PMCs run on: CLOCK_MONOTONIC with the linux
 * backend, the simulated time with sim (which runs faster or slower than
 * the host).  A program that paces intervals, a run's duration or a
 * refresh by what the PMCs see (pmc stat -I, the exporter's --duration,
 * pmc top's refresh) reads this one, so that it holds with the sim backend
 * too.
 * Return: nanoseconds; 0 before pmc_init().
 */
PMC_API uint64_t pmc_clock_ns(void);

/*
 * pmc_sysctlbyname — FreeBSD's sysctlbyname(3) for the names pmc tools
 * read: kern.hwpmc.{callchaindepth,logbuffersize,nbuffers_pcpu,nsamples,
 * mincount} (int), kern.hwpmc.cpuid (string), hw.ncpu (int),
 * machdep.hlt_cpus (a cpuset_t of the CPUs not online) and
 * machdep.logical_cpus_mask (unsigned int).  Read-only (EPERM); other names
 * ENOENT.  <sys/sysctl.h> of the libpmc-freebsd include set maps
 * sysctlbyname() to it.  The kern.hwpmc tunables are the values libpmc
 * uses, set through PMC_<NAME> environment variables or a config file
 * (pmc(3) "ENVIRONMENT"); this is how a program reads them.
 */
PMC_API int pmc_sysctlbyname(const char *_name, void *_oldp, size_t *_oldlenp,
    const void *_newp, size_t _newlen);

#ifdef __cplusplus
}
#endif

#endif /* _PMC_LINUX_H_ */
