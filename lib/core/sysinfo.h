/*
 * sysinfo.h — facts about the host that decide what can be counted and
 * what error to report: CPUs, the perf_event_paranoid level, privilege,
 * whether a hardware PMU exists.  Read from /proc and /sys, cached.
 */
#ifndef PMC_SYSINFO_H
#define PMC_SYSINFO_H

#include <stdint.h>

struct pmc_machine;

int pmc__sys_ncpu(void);                 /* highest possible CPU + 1 */
int pmc__sys_cpu_online(int cpu);        /* 1 online, 0 offline, -1 absent */
int pmc__sys_paranoid(void);             /* kernel.perf_event_paranoid */
int pmc__sys_max_stack(void);            /* kernel.perf_event_max_stack */
int pmc__sys_has_cap_perfmon(void);      /* root, CAP_PERFMON or CAP_SYS_ADMIN */
int pmc__sys_has_hw_pmu(void);           /* the kernel can count "cycles" */
const char *pmc__sys_cpu_desc(void);     /* "AMD EPYC 7B13" */
/* The running kernel's GNU build id from /sys/kernel/notes: its length
 * (<= 20), 0 if unknown.  Used for KSYMSRC and to tell whether a recording's
 * kernel is this one. */
uint32_t pmc__sys_kernel_build_id(uint8_t id[20]);
/* Fill the Linux machine description (classes, widths, counts). */
int pmc__sys_describe(struct pmc_machine *m);

#endif
