/*
 * sysinfo.h — facts about the host that decide what can be counted and
 * what error to report: CPUs, the perf_event_paranoid level, privilege,
 * whether a hardware PMU exists.  Read from /proc and /sys, cached.
 */
#ifndef PMC_SYSINFO_H
#define PMC_SYSINFO_H

#include <stddef.h>
#include <stdint.h>

/* What /proc/cpuinfo says about the CPU (the first one listed). */
struct pmc_sys_cpu {
	char desc[128];                 /* "model name", else "unknown CPU" */
	char vendor[32];                /* x86 "vendor_id", "" elsewhere */
	int family, model, stepping;    /* x86 */
	unsigned long implementer, part;   /* arm64 MIDR fields */
};

int pmc__sys_ncpu(void);                 /* highest possible CPU + 1 */
int pmc__sys_cpu_online(int cpu);        /* 1 online, 0 offline, -1 absent */
int pmc__sys_paranoid(void);             /* kernel.perf_event_paranoid */
int pmc__sys_max_stack(void);            /* kernel.perf_event_max_stack */
/* The user registers DWARF unwinding needs, as a sample_regs_user mask
 * (the kernel's perf_regs numbering, perf's PERF_REGS_MASK); 0 if this
 * architecture's set is not known. */
uint64_t pmc__sys_user_regs_mask(void);
int pmc__sys_has_cap_perfmon(void);      /* root, CAP_PERFMON or CAP_SYS_ADMIN */
/* The kernel's PMUs: <root>/bus/event_source/devices, root "/sys" unless
 * set (tests: pmc__sys_set_sysfs_root, env PMC_SYSFS_ROOT; NULL = default). */
void pmc__sys_set_sysfs_root(const char *root);
const char *pmc__sys_pmu_dir(void);
/* 1 for a core PMU's name (cpu, cpu_core, cpu_atom, armv8_*, ...). */
int pmc__sys_is_core_pmu_name(const char *pmu);
/* The core PMU's name ("cpu", "armv8_pmuv3_0"), or NULL: none registered. */
const char *pmc__sys_core_pmu(void);
/* 1 if there is a hardware PMU (a core PMU is registered). */
int pmc__sys_has_hw_pmu(void);
/* The running kernel's GNU build id from /sys/kernel/notes: its length
 * (<= 20), 0 if unknown.  Used for KSYMSRC and to tell whether a recording's
 * kernel is this one. */
uint32_t pmc__sys_kernel_build_id(uint8_t id[20]);
/* FreeBSD's kern.hwpmc.cpuid form ("AuthenticAMD-25-1-1"). */
void pmc__sys_cpuid(char *buf, size_t len);
/* The CPU's socket, die and core ids (sysfs topology; 0 where absent). */
void pmc__sys_cpu_topology(int cpu, int *socket, int *die, int *core);
/* The CPU's identification, read once. */
const struct pmc_sys_cpu *pmc__sys_cpu(void);

#endif
