/*
 * pmc.h — libpmc: hardware performance monitoring counters on Linux.
 *
 * Source-compatible with FreeBSD's <pmc.h> (pmc(3)): the same function names,
 * argument order, types and constant names, so a program written against
 * FreeBSD's libpmc compiles and runs unchanged.  The enumerations are kept in
 * X-macro lists (as FreeBSD's <sys/pmc.h> does) so that names and values can
 * never drift apart; the library expands the same lists into its name tables.
 *
 * The event lists are in <pmc/pmc_events.h> (FreeBSD's pmc_events.h), and
 * everything FreeBSD's API does not have is in the Linux extension
 * headers, <pmc/linux.h>, <pmc/event.h>, <pmc/session.h> and <pmc/log.h>,
 * included at the end; every name there starts with pmc_ and is
 * documented as an extension.
 *
 * Conventions (as FreeBSD): calls return 0 on success, or -1 with errno set.
 * The extension pmc_errmsg() then tells *why* in one human sentence.
 */
#ifndef _PMC_H_
#define _PMC_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <errno.h>

#ifdef __cplusplus
extern "C" {
#endif

/* hwpmc's "should not happen" errno: the BSDs have it, glibc does not. */
/* Values above Linux's errno range so strerror() never confuses them. */
#ifndef EDOOFUS
#define EDOOFUS 1088 /* "no log file configured" (hwpmc's programming error) */
#endif
#ifndef EPROGMISMATCH
#define EPROGMISMATCH 1075
#endif

/*
 * This library's own version (not hwpmc's PMC_VERSION below): what these
 * headers describe.  pmc_libversion() answers LIBPMC_VERSION of the library
 * a program runs with, which may be newer than the one it was built against
 * (the same soname, libpmc.so.1, only adds symbols; lib/libpmc.map).
 */
#define LIBPMC_VERSION_MAJOR 0
#define LIBPMC_VERSION_MINOR 1
#define LIBPMC_VERSION_PATCH 0
#define LIBPMC_VERSION \
	((LIBPMC_VERSION_MAJOR << 16) | (LIBPMC_VERSION_MINOR << 8) | LIBPMC_VERSION_PATCH)

/*
 * PMC_API marks what libpmc.so exports: the library is built with
 * -fvisibility=hidden, so a function without it stays inside, whatever
 * lib/libpmc.map says (scripts/check-abi.sh compares the two).
 */
#if defined(__GNUC__) && __GNUC__ >= 4
#define PMC_API __attribute__((visibility("default")))
#else
#define PMC_API
#endif

#define PMC_MODULE_NAME "hwpmc"
#define PMC_NAME_MAX    64
#define PMC_CLASS_MAX   8
#define PMC_CPUID_LEN   64

#define PMC_VERSION_MAJOR 0x0A
#define PMC_VERSION_MINOR 0x00
#define PMC_VERSION_PATCH 0x0000
#define PMC_VERSION (PMC_VERSION_MAJOR << 24 | PMC_VERSION_MINOR << 16 | PMC_VERSION_PATCH)

/* ---- CPU types ------------------------------------------------------- */
#define __PMC_CPUS() \
	__PMC_CPU(AMD_K8, 0x01, "AMD K8") \
	__PMC_CPU(INTEL_PIV, 0x86, "Intel Pentium IV") \
	__PMC_CPU(INTEL_CORE, 0x87, "Intel Core Solo/Duo") \
	__PMC_CPU(INTEL_CORE2, 0x88, "Intel Core2") \
	__PMC_CPU(INTEL_CORE2EXTREME, 0x89, "Intel Core2 Extreme") \
	__PMC_CPU(INTEL_ATOM, 0x8A, "Intel Atom") \
	__PMC_CPU(INTEL_COREI7, 0x8B, "Intel Core i7") \
	__PMC_CPU(INTEL_WESTMERE, 0x8C, "Intel Westmere") \
	__PMC_CPU(INTEL_SANDYBRIDGE, 0x8D, "Intel Sandy Bridge") \
	__PMC_CPU(INTEL_IVYBRIDGE, 0x8E, "Intel Ivy Bridge") \
	__PMC_CPU(INTEL_SANDYBRIDGE_XEON, 0x8F, "Intel Sandy Bridge Xeon") \
	__PMC_CPU(INTEL_IVYBRIDGE_XEON, 0x90, "Intel Ivy Bridge Xeon") \
	__PMC_CPU(INTEL_HASWELL, 0x91, "Intel Haswell") \
	__PMC_CPU(INTEL_ATOM_SILVERMONT, 0x92, "Intel Atom Silvermont") \
	__PMC_CPU(INTEL_NEHALEM_EX, 0x93, "Intel Nehalem Xeon 7500") \
	__PMC_CPU(INTEL_WESTMERE_EX, 0x94, "Intel Westmere Xeon E7") \
	__PMC_CPU(INTEL_HASWELL_XEON, 0x95, "Intel Haswell Xeon E5 v3") \
	__PMC_CPU(INTEL_BROADWELL, 0x96, "Intel Broadwell") \
	__PMC_CPU(INTEL_BROADWELL_XEON, 0x97, "Intel Broadwell Xeon") \
	__PMC_CPU(INTEL_SKYLAKE, 0x98, "Intel Skylake") \
	__PMC_CPU(INTEL_SKYLAKE_XEON, 0x99, "Intel Skylake Xeon") \
	__PMC_CPU(INTEL_ATOM_GOLDMONT, 0x9A, "Intel Atom Goldmont") \
	__PMC_CPU(INTEL_ICELAKE, 0x9B, "Intel Icelake") \
	__PMC_CPU(INTEL_ICELAKE_XEON, 0x9C, "Intel Icelake Xeon") \
	__PMC_CPU(INTEL_ALDERLAKE, 0x9D, "Intel Alderlake") \
	__PMC_CPU(INTEL_ATOM_GOLDMONT_P, 0x9E, "Intel Atom Goldmont Plus") \
	__PMC_CPU(INTEL_ATOM_TREMONT, 0x9F, "Intel Atom Tremont") \
	__PMC_CPU(INTEL_EMERALD_RAPIDS, 0xA0, "Intel Emerald Rapids") \
	__PMC_CPU(INTEL_ALDERLAKEN, 0xA1, "Intel AlderlakeN") \
	__PMC_CPU(INTEL_GRANITE_RAPIDS, 0xA2, "Intel Granite Rapids") \
	__PMC_CPU(INTEL_METEOR_LAKE, 0xA3, "Intel Meteorlake") \
	__PMC_CPU(INTEL_SAPPHIRE_RAPIDS, 0xA4, "Intel Sapphire Rapids") \
	__PMC_CPU(INTEL_XSCALE, 0x100, "Intel XScale") \
	__PMC_CPU(PPC_7450, 0x300, "PowerPC MPC7450") \
	__PMC_CPU(PPC_E500, 0x340, "PowerPC e500 Core") \
	__PMC_CPU(PPC_970, 0x380, "IBM PowerPC 970") \
	__PMC_CPU(PPC_POWER8, 0x390, "IBM POWER8") \
	__PMC_CPU(GENERIC, 0x400, "Generic") \
	__PMC_CPU(ARMV7_CORTEX_A5, 0x500, "ARMv7 Cortex A5") \
	__PMC_CPU(ARMV7_CORTEX_A7, 0x501, "ARMv7 Cortex A7") \
	__PMC_CPU(ARMV7_CORTEX_A8, 0x502, "ARMv7 Cortex A8") \
	__PMC_CPU(ARMV7_CORTEX_A9, 0x503, "ARMv7 Cortex A9") \
	__PMC_CPU(ARMV7_CORTEX_A15, 0x504, "ARMv7 Cortex A15") \
	__PMC_CPU(ARMV7_CORTEX_A17, 0x505, "ARMv7 Cortex A17") \
	__PMC_CPU(ARMV8_CORTEX_A53, 0x600, "ARMv8 Cortex A53") \
	__PMC_CPU(ARMV8_CORTEX_A57, 0x601, "ARMv8 Cortex A57") \
	__PMC_CPU(ARMV8_CORTEX_A76, 0x602, "ARMv8 Cortex A76")

enum pmc_cputype {
#undef __PMC_CPU
#define __PMC_CPU(S, V, D) PMC_CPU_##S = V,
	__PMC_CPUS()
};
#define PMC_CPU_FIRST PMC_CPU_AMD_K8
#define PMC_CPU_LAST  PMC_CPU_ARMV8_CORTEX_A76

/* ---- PMC classes ----------------------------------------------------- */
/*
 * FreeBSD's classes, then Linux-only classes (extension; values >= 0x40 so
 * they never collide with FreeBSD's): events Linux exposes that hwpmc has no
 * class for.  Generic hardware events ("cycles") belong to the CPU's core
 * class (IAP on Intel, K8 on AMD, ARMV8 on arm64).
 */
#define __PMC_CLASSES() \
	__PMC_CLASS(TSC, 0x00, "CPU Timestamp counter") \
	__PMC_CLASS(K8, 0x02, "AMD K8 performance counters") \
	__PMC_CLASS(IBS, 0x03, "AMD IBS performance counters") \
	__PMC_CLASS(IAF, 0x06, "Intel Core2/Atom, fixed function") \
	__PMC_CLASS(IAP, 0x07, "Intel Core...Atom, programmable") \
	__PMC_CLASS(UCF, 0x08, "Intel Uncore fixed function") \
	__PMC_CLASS(UCP, 0x09, "Intel Uncore programmable") \
	__PMC_CLASS(XSCALE, 0x0A, "Intel XScale counters") \
	__PMC_CLASS(PPC7450, 0x0D, "Motorola MPC7450 class") \
	__PMC_CLASS(PPC970, 0x0E, "IBM PowerPC 970 class") \
	__PMC_CLASS(SOFT, 0x0F, "Software events") \
	__PMC_CLASS(ARMV7, 0x10, "ARMv7") \
	__PMC_CLASS(ARMV8, 0x11, "ARMv8") \
	__PMC_CLASS(E500, 0x13, "Freescale e500 class") \
	__PMC_CLASS(POWER8, 0x15, "IBM POWER8 class") \
	__PMC_CLASS(DMC620_PMU_CD2, 0x16, "ARM DMC620 Memory Controller PMU CLKDIV2") \
	__PMC_CLASS(DMC620_PMU_C, 0x17, "ARM DMC620 Memory Controller PMU CLK") \
	__PMC_CLASS(CMN600_PMU, 0x18, "Arm CoreLink CMN600 Coherent Mesh Network PMU") \
	__PMC_CLASS(RAPL, 0x19, "AMD/Intel RAPL energy counters") \
	__PMC_CLASS(PERF, 0x1A, "AMD/Intel APERF/MPERF counters") \
	__PMC_CLASS(GENERIC, 0x40, "Linux generic hardware events (extension)") \
	__PMC_CLASS(CACHE, 0x41, "Linux hardware cache events (extension)") \
	__PMC_CLASS(TRACEPOINT, 0x42, "Linux tracepoints (extension)") \
	__PMC_CLASS(PMU, 0x43, "Linux sysfs PMU events (extension)") \
	__PMC_CLASS(RAW, 0x44, "Raw PMU encodings (extension)")

enum pmc_class {
#undef __PMC_CLASS
#define __PMC_CLASS(S, V, D) PMC_CLASS_##S = V,
	__PMC_CLASSES()
};
#define PMC_CLASS_FIRST PMC_CLASS_TSC
#define PMC_CLASS_LAST  PMC_CLASS_RAW

/* ---- PMC states ------------------------------------------------------ */
#define __PMC_HWSTATES() \
	__PMC_STATE(DISABLED) \
	__PMC_STATE(FREE)
#define __PMC_SWSTATES() \
	__PMC_STATE(ALLOCATED) \
	__PMC_STATE(STOPPED) \
	__PMC_STATE(RUNNING) \
	__PMC_STATE(DELETED)
#define __PMC_STATES() __PMC_HWSTATES() __PMC_SWSTATES()

enum pmc_state {
#undef __PMC_STATE
#define __PMC_STATE(S) PMC_STATE_##S,
	__PMC_STATES()
	__PMC_STATE(MAX)
};
#define PMC_STATE_FIRST PMC_STATE_DISABLED
#define PMC_STATE_LAST  PMC_STATE_DELETED

/* ---- PMC row dispositions -------------------------------------------- */
#define __PMC_DISPOSITIONS(N) \
	__PMC_DISP(STANDALONE) \
	__PMC_DISP(FREE) \
	__PMC_DISP(THREAD) \
	__PMC_DISP(UNKNOWN)

enum pmc_disp {
#undef __PMC_DISP
#define __PMC_DISP(D) PMC_DISP_##D,
	__PMC_DISPOSITIONS()
};
#define PMC_DISP_FIRST PMC_DISP_STANDALONE
#define PMC_DISP_LAST  PMC_DISP_THREAD

/* ---- PMC modes ------------------------------------------------------- */
#define __PMC_MODES() \
	__PMC_MODE(SS, 0) \
	__PMC_MODE(SC, 1) \
	__PMC_MODE(TS, 2) \
	__PMC_MODE(TC, 3)

enum pmc_mode {
#undef __PMC_MODE
#define __PMC_MODE(M, N) PMC_MODE_##M = N,
	__PMC_MODES()
};
#define PMC_MODE_FIRST PMC_MODE_SS
#define PMC_MODE_LAST  PMC_MODE_TC

#define PMC_IS_COUNTING_MODE(m) ((m) == PMC_MODE_SC || (m) == PMC_MODE_TC)
#define PMC_IS_SYSTEM_MODE(m)   ((m) == PMC_MODE_SS || (m) == PMC_MODE_SC)
#define PMC_IS_SAMPLING_MODE(m) ((m) == PMC_MODE_SS || (m) == PMC_MODE_TS)
#define PMC_IS_VIRTUAL_MODE(m)  ((m) == PMC_MODE_TS || (m) == PMC_MODE_TC)

/* ---- capabilities ---------------------------------------------------- */
#define __PMC_CAPS() \
	__PMC_CAP(INTERRUPT, 0, "generate interrupts") \
	__PMC_CAP(USER, 1, "count user-mode events") \
	__PMC_CAP(SYSTEM, 2, "count system-mode events") \
	__PMC_CAP(EDGE, 3, "do edge detection of events") \
	__PMC_CAP(THRESHOLD, 4, "ignore events below a threshold") \
	__PMC_CAP(READ, 5, "read PMC counter") \
	__PMC_CAP(WRITE, 6, "reprogram PMC counter") \
	__PMC_CAP(INVERT, 7, "invert comparison sense") \
	__PMC_CAP(QUALIFIER, 8, "further qualify monitored events") \
	__PMC_CAP(PRECISE, 9, "perform precise sampling") \
	__PMC_CAP(TAGGING, 10, "tag upstream events") \
	__PMC_CAP(CASCADE, 11, "cascade counters") \
	__PMC_CAP(SYSWIDE, 12, "system wide counter") \
	__PMC_CAP(DOMWIDE, 13, "NUMA domain wide counter")

enum pmc_caps {
#undef __PMC_CAP
#define __PMC_CAP(NAME, VALUE, DESCR) PMC_CAP_##NAME = (1 << VALUE),
	__PMC_CAPS()
};
#define PMC_CAP_FIRST PMC_CAP_INTERRUPT
#define PMC_CAP_LAST  PMC_CAP_DOMWIDE

#include "pmc/pmc_events.h"

/* ---- operations (kept for source compatibility; op codes) ------------- */
#define __PMC_OPS() \
	__PMC_OP(CONFIGURELOG, "Set log file") \
	__PMC_OP(FLUSHLOG, "Flush log file") \
	__PMC_OP(GETCPUINFO, "Get system CPU information") \
	__PMC_OP(GETDRIVERSTATS, "Get driver statistics") \
	__PMC_OP(GETMODULEVERSION, "Get module version") \
	__PMC_OP(GETPMCINFO, "Get per-cpu PMC information") \
	__PMC_OP(PMCADMIN, "Set PMC state") \
	__PMC_OP(PMCALLOCATE, "Allocate and configure a PMC") \
	__PMC_OP(PMCATTACH, "Attach a PMC to a process") \
	__PMC_OP(PMCDETACH, "Detach a PMC from a process") \
	__PMC_OP(PMCGETMSR, "Get a PMC's hardware address") \
	__PMC_OP(PMCRELEASE, "Release a PMC") \
	__PMC_OP(PMCRW, "Read/Set a PMC") \
	__PMC_OP(PMCSETCOUNT, "Set initial count/sampling rate") \
	__PMC_OP(PMCSTART, "Start a PMC") \
	__PMC_OP(PMCSTOP, "Stop a PMC") \
	__PMC_OP(WRITELOG, "Write a cookie to the log file") \
	__PMC_OP(CLOSELOG, "Close log file") \
	__PMC_OP(GETDYNEVENTINFO, "Get dynamic events list") \
	__PMC_OP(GETCAPS, "Get capabilities")

enum pmc_ops {
#undef __PMC_OP
#define __PMC_OP(N, D) PMC_OP_##N,
	__PMC_OPS()
};

/* ---- flags ----------------------------------------------------------- */
#define PMC_F_UNUSED1           0x00000001
#define PMC_F_DESCENDANTS       0x00000002 /* track descendants */
#define PMC_F_LOG_PROCCSW       0x00000004 /* log context switches */
#define PMC_F_LOG_PROCEXIT      0x00000008 /* log process exits */
#define PMC_F_NEWVALUE          0x00000010 /* PMCRW: write new value */
#define PMC_F_OLDVALUE          0x00000020 /* PMCRW: get old value */
#define PMC_F_CALLCHAIN         0x00000080 /* capture call chains */
#define PMC_F_USERCALLCHAIN     0x00000100 /* use the user-space stack */
#define PMC_F_EV_PMU            0x00000200
#define PMC_F_ATTACHED_TO_OWNER 0x00010000 /* internal */
#define PMC_F_NEEDS_LOGFILE     0x00020000 /* internal */
#define PMC_F_ATTACH_DONE       0x00040000 /* internal */
/* The flags pmc_allocate() accepts; anything else is EINVAL. */
#define PMC_F_ALLOCATE_MASK \
	(PMC_F_DESCENDANTS | PMC_F_LOG_PROCCSW | PMC_F_LOG_PROCEXIT | \
	 PMC_F_CALLCHAIN | PMC_F_USERCALLCHAIN | PMC_F_EV_PMU)

#define PMC_CALLCHAIN_DEPTH_MAX 512
#define PMC_CC_F_USERSPACE      0x01
#define PMC_CC_F_MULTIPART      0x02

/* ---- ids ------------------------------------------------------------- */
typedef uint32_t pmc_id_t;
typedef uint64_t pmc_value_t;

#define PMC_ID_INVALID (~(pmc_id_t)0)
#define PMC_CPU_ANY    ~0

#define PMC_ID_TO_ROWINDEX(ID) ((ID) & 0xFF)
#define PMC_ID_TO_CLASS(ID)    (((ID) & 0xFF00) >> 8)
#define PMC_ID_TO_MODE(ID)     (((ID) & 0xF0000) >> 16)
#define PMC_ID_TO_CPU(ID)      (((ID) & 0xFFF00000) >> 20)
#define PMC_ID_MAKE_ID(CPU, MODE, CLASS, ROWINDEX) \
	((((uint32_t)(CPU) & 0xFFF) << 20) | (((uint32_t)(MODE) & 0xF) << 16) | \
	 (((uint32_t)(CLASS) & 0xFF) << 8) | ((uint32_t)(ROWINDEX) & 0xFF))

/* ---- information structures ----------------------------------------- */
struct pmc_classinfo {
	enum pmc_class pm_class; /* class id */
	uint32_t pm_caps;        /* counter capabilities */
	uint32_t pm_width;       /* width of the PMC */
	uint32_t pm_num;         /* number of PMCs in class */
};

struct pmc_info {
	char pm_name[PMC_NAME_MAX];   /* pmc name */
	enum pmc_class pm_class;      /* enum pmc_class */
	int pm_enabled;               /* whether enabled */
	enum pmc_disp pm_rowdisp;     /* FREE, THREAD or STANDALONE */
	pid_t pm_ownerpid;            /* owner, or -1 */
	enum pmc_mode pm_mode;        /* current mode [enum pmc_mode] */
	enum pmc_event pm_event;      /* current event */
	uint32_t pm_flags;            /* current flags */
	pmc_value_t pm_reloadcount;   /* sampling counters only */
};

struct pmc_cpuinfo {
	enum pmc_cputype pm_cputype; /* the kind of CPU */
	uint32_t pm_ncpu;            /* number of CPUs */
	uint32_t pm_npmc;            /* #PMCs per CPU */
	uint32_t pm_nclass;          /* #classes of PMCs */
	struct pmc_classinfo pm_classes[PMC_CLASS_MAX];
};

struct pmc_pmcinfo {
	int32_t pm_cpu;             /* CPU number */
	struct pmc_info pm_pmcs[];  /* NPMC structs */
};

struct pmc_driverstats {
	unsigned int pm_intr_ignored;           /* #interrupts ignored */
	unsigned int pm_intr_processed;         /* #interrupts processed */
	unsigned int pm_intr_bufferfull;        /* #interrupts with ENOSPC */
	unsigned int pm_syscalls;               /* #syscalls */
	unsigned int pm_syscall_errors;         /* #syscalls with errors */
	unsigned int pm_buffer_requests;        /* #buffer requests */
	unsigned int pm_buffer_requests_failed; /* #failed buffer requests */
	unsigned int pm_log_sweeps;             /* #sample buffer processing passes */
};

/*
 * hwpmc's request structures (<sys/pmc.h>).  libpmc on Linux makes no
 * system call with them; they exist so that FreeBSD code that builds or
 * inspects requests (pmc_pmu_pmcallocate() fills a pmc_op_pmcallocate)
 * compiles.  The machine-dependent part is a pad, as on FreeBSD's
 * architectures without one.
 */
union pmc_md_op_pmcallocate {
	uint64_t __pad[4];
};

struct pmc_op_pmcallocate {
	uint32_t pm_caps;             /* PMC_CAP_* */
	uint32_t pm_cpu;              /* CPU number or PMC_CPU_ANY */
	enum pmc_class pm_class;
	enum pmc_event pm_ev;
	uint32_t pm_flags;            /* PMC_F_* */
	enum pmc_mode pm_mode;
	pmc_id_t pm_pmcid;            /* [return] */
	pmc_value_t pm_count;         /* initial count or reload count */
	union pmc_md_op_pmcallocate pm_md;
};

struct pmc_op_pmcadmin {
	int pm_cpu;
	uint32_t pm_flags;
	int pm_pmc;
	enum pmc_state pm_state;
};

struct pmc_op_pmcattach {
	pmc_id_t pm_pmc;
	pid_t pm_pid;
};

struct pmc_op_pmcsetcount {
	pmc_value_t pm_count;
	pmc_id_t pm_pmcid;
};

struct pmc_op_pmcrw {
	uint32_t pm_flags;            /* PMC_F_OLDVALUE, PMC_F_NEWVALUE */
	pmc_id_t pm_pmcid;
	pmc_value_t pm_value;
};

struct pmc_op_getpmcinfo {
	int32_t pm_cpu;
	struct pmc_info pm_pmcs[];
};

struct pmc_op_getcpuinfo {
	enum pmc_cputype pm_cputype;
	uint32_t pm_ncpu;
	uint32_t pm_npmc;
	uint32_t pm_nclass;
	struct pmc_classinfo pm_classes[PMC_CLASS_MAX];
};

struct pmc_op_configurelog {
	int pm_flags;
	int pm_logfd;                 /* a file descriptor or -1 */
};

struct pmc_op_getdriverstats {
	unsigned int pm_intr_ignored;
	unsigned int pm_intr_processed;
	unsigned int pm_intr_bufferfull;
	unsigned int pm_syscalls;
	unsigned int pm_syscall_errors;
	unsigned int pm_buffer_requests;
	unsigned int pm_buffer_requests_failed;
	unsigned int pm_log_sweeps;
};

struct pmc_op_simple {
	pmc_id_t pm_pmcid;
};

struct pmc_op_writelog {
	uint32_t pm_userdata;
};

struct pmc_op_getmsr {
	uint32_t pm_msr;
	pmc_id_t pm_pmcid;
};

struct pmc_dyn_event_descr {
	char pm_ev_name[PMC_NAME_MAX];
	enum pmc_event pm_ev_code;
};

struct pmc_op_getdyneventinfo {
	enum pmc_class pm_class;
	unsigned int pm_nevent;
	struct pmc_dyn_event_descr pm_events[PMC_EV_DYN_COUNT];
};

struct pmc_op_caps {
	pmc_id_t pm_pmcid;
	uint32_t pm_caps;
};

/* The CPU's model name as the event tables know it ("GenuineIntel-6-55-4",
 * "AuthenticAMD-25-1", "ARM-0x41-0xd0c"); filled by pmc_init(). */
PMC_API extern char pmc_cpuid[PMC_CPUID_LEN];

/* ---- the FreeBSD API ------------------------------------------------- */
PMC_API int pmc_allocate(const char *_ctrspec, enum pmc_mode _mode, uint32_t _flags,
    int _cpu, pmc_id_t *_pmcid, uint64_t count);
PMC_API int pmc_attach(pmc_id_t _pmcid, pid_t _pid);
PMC_API int pmc_capabilities(pmc_id_t _pmc, uint32_t *_caps);
PMC_API int pmc_configure_logfile(int _fd);
PMC_API int pmc_flush_logfile(void);
PMC_API int pmc_close_logfile(void);
PMC_API int pmc_detach(pmc_id_t _pmcid, pid_t _pid);
PMC_API int pmc_disable(int _cpu, int _pmc);
PMC_API int pmc_enable(int _cpu, int _pmc);
PMC_API int pmc_get_driver_stats(struct pmc_driverstats *_gms);
PMC_API int pmc_get_msr(pmc_id_t _pmc, uint32_t *_msr);
PMC_API int pmc_init(void);
PMC_API int pmc_read(pmc_id_t _pmc, pmc_value_t *_value);
PMC_API int pmc_release(pmc_id_t _pmc);
PMC_API int pmc_rw(pmc_id_t _pmc, pmc_value_t _newvalue, pmc_value_t *_oldvalue);
PMC_API int pmc_set(pmc_id_t _pmc, pmc_value_t _value);
PMC_API int pmc_start(pmc_id_t _pmc);
PMC_API int pmc_stop(pmc_id_t _pmc);
PMC_API int pmc_width(pmc_id_t _pmc, uint32_t *_width);
PMC_API int pmc_write(pmc_id_t _pmc, pmc_value_t _value);
PMC_API int pmc_writelog(uint32_t _udata);

PMC_API int pmc_ncpu(void);
PMC_API int pmc_npmc(int _cpu);
PMC_API int pmc_cpuinfo(const struct pmc_cpuinfo **_cpu_info);
PMC_API int pmc_pmcinfo(int _cpu, struct pmc_pmcinfo **_pmc_info);

PMC_API const char *pmc_name_of_capability(enum pmc_caps _c);
PMC_API const char *pmc_name_of_class(enum pmc_class _pc);
PMC_API const char *pmc_name_of_cputype(enum pmc_cputype _cp);
PMC_API const char *pmc_name_of_disposition(enum pmc_disp _pd);
PMC_API const char *pmc_name_of_event(enum pmc_event _pe);
PMC_API const char *pmc_name_of_mode(enum pmc_mode _pm);
PMC_API const char *pmc_name_of_state(enum pmc_state _ps);

PMC_API int pmc_event_names_of_class(enum pmc_class _cl, const char ***_eventnames,
    int *_nevents);

/*
 * FreeBSD's pmu-events interface, backed on Linux by the CPU's own event
 * tables: libpfm4's for the core PMU and the kernel's sysfs PMU event files
 * (docs/freebsd-compat.md).  pmc_pmu_enabled() is nonzero when the machine
 * has such a table (a hardware PMU); without one the printers print nothing
 * and pmc_pmu_pmcallocate() answers ENOENT (an errno value, as FreeBSD's).
 */
PMC_API int pmc_pmu_enabled(void);
PMC_API void pmc_pmu_print_counters(const char *_event_name);
PMC_API void pmc_pmu_print_counter_desc(const char *_event_name);
PMC_API void pmc_pmu_print_counter_desc_long(const char *_event_name);
PMC_API void pmc_pmu_print_counter_full(const char *_event_name);
PMC_API uint64_t pmc_pmu_sample_rate_get(const char *_event_name);
PMC_API int pmc_pmu_pmcallocate(const char *_event_name, struct pmc_op_pmcallocate *_pm);
PMC_API const char *pmc_pmu_event_get_by_idx(const char *_cpuid, int _idx);
PMC_API int pmc_pmu_idx_get_by_event(const char *_cpuid, const char *_event);

/* ====================================================================== *
 *                         LINUX EXTENSIONS                               *
 * Not in FreeBSD's libpmc; in the headers included below.                *
 * Same conventions: 0 or -1 with errno.                                  *
 * ====================================================================== */

#define PMC_LINUX_EXTENSIONS 1

#ifdef __cplusplus
}
#endif

#include "pmc/linux.h"
#include "pmc/event.h"
#include "pmc/session.h"
#include "pmc/log.h"

#endif /* _PMC_H_ */
