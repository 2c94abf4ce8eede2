/*
 * pmc.h — libpmc: hardware performance monitoring counters on Linux.
 *
 * Source-compatible with FreeBSD's <pmc.h> (pmc(3)): the same function names,
 * argument order, types and constant names, so a program written against
 * FreeBSD's libpmc compiles and runs unchanged.  The enumerations are kept in
 * X-macro lists (as FreeBSD's <sys/pmc.h> does) so that names and values can
 * never drift apart; the library expands the same lists into its name tables.
 *
 * Everything FreeBSD's API does not have is in the section marked
 * "LINUX EXTENSIONS" at the end, every name there starts with pmc_ and is
 * documented as an extension.
 *
 * Conventions (as FreeBSD): calls return 0 on success, or -1 with errno set.
 * The extension pmc_errmsg() then tells *why* in one human sentence.
 */
#ifndef _PMC_H_
#define _PMC_H_

#include <stddef.h>
#include <stdint.h>
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

/* ---- events ---------------------------------------------------------- */
/*
 * The static event numbers of the classes libpmc can name on Linux.  Events
 * resolved through perf (generic, software, cache, tracepoints, sysfs PMUs)
 * are dynamic, as hwpmc's SOFT class is: PMC_EV_SOFT_FIRST + n.
 */
#define __PMC_EV_TSC() \
	__PMC_EV(TSC, TSC)
#define __PMC_EV_IAF() \
	__PMC_EV(IAF, INSTR_RETIRED_ANY) \
	__PMC_EV(IAF, CPU_CLK_UNHALTED_CORE) \
	__PMC_EV(IAF, CPU_CLK_UNHALTED_REF)
#define __PMC_EV_ARMV8() \
	__PMC_EV(ARMV8, EVENT_00H) \
	__PMC_EV(ARMV8, EVENT_01H) \
	__PMC_EV(ARMV8, EVENT_02H) \
	__PMC_EV(ARMV8, EVENT_03H) \
	__PMC_EV(ARMV8, EVENT_04H) \
	__PMC_EV(ARMV8, EVENT_05H) \
	__PMC_EV(ARMV8, EVENT_06H) \
	__PMC_EV(ARMV8, EVENT_07H) \
	__PMC_EV(ARMV8, EVENT_08H) \
	__PMC_EV(ARMV8, EVENT_09H) \
	__PMC_EV(ARMV8, EVENT_0AH) \
	__PMC_EV(ARMV8, EVENT_0BH) \
	__PMC_EV(ARMV8, EVENT_0CH) \
	__PMC_EV(ARMV8, EVENT_0DH) \
	__PMC_EV(ARMV8, EVENT_0EH) \
	__PMC_EV(ARMV8, EVENT_0FH) \
	__PMC_EV(ARMV8, EVENT_10H) \
	__PMC_EV(ARMV8, EVENT_11H) \
	__PMC_EV(ARMV8, EVENT_12H) \
	__PMC_EV(ARMV8, EVENT_13H) \
	__PMC_EV(ARMV8, EVENT_14H) \
	__PMC_EV(ARMV8, EVENT_15H) \
	__PMC_EV(ARMV8, EVENT_16H) \
	__PMC_EV(ARMV8, EVENT_17H) \
	__PMC_EV(ARMV8, EVENT_18H) \
	__PMC_EV(ARMV8, EVENT_19H) \
	__PMC_EV(ARMV8, EVENT_1AH) \
	__PMC_EV(ARMV8, EVENT_1BH) \
	__PMC_EV(ARMV8, EVENT_1CH) \
	__PMC_EV(ARMV8, EVENT_1DH) \
	__PMC_EV(ARMV8, EVENT_1EH) \
	__PMC_EV(ARMV8, EVENT_1FH) \
	__PMC_EV(ARMV8, EVENT_20H) \
	__PMC_EV(ARMV8, EVENT_21H) \
	__PMC_EV(ARMV8, EVENT_22H) \
	__PMC_EV(ARMV8, EVENT_23H) \
	__PMC_EV(ARMV8, EVENT_24H) \
	__PMC_EV(ARMV8, EVENT_25H) \
	__PMC_EV(ARMV8, EVENT_26H) \
	__PMC_EV(ARMV8, EVENT_27H) \
	__PMC_EV(ARMV8, EVENT_28H) \
	__PMC_EV(ARMV8, EVENT_29H) \
	__PMC_EV(ARMV8, EVENT_2AH) \
	__PMC_EV(ARMV8, EVENT_2BH) \
	__PMC_EV(ARMV8, EVENT_2CH) \
	__PMC_EV(ARMV8, EVENT_2DH) \
	__PMC_EV(ARMV8, EVENT_2EH) \
	__PMC_EV(ARMV8, EVENT_2FH) \
	__PMC_EV(ARMV8, EVENT_30H) \
	__PMC_EV(ARMV8, EVENT_31H) \
	__PMC_EV(ARMV8, EVENT_32H) \
	__PMC_EV(ARMV8, EVENT_33H) \
	__PMC_EV(ARMV8, EVENT_34H) \
	__PMC_EV(ARMV8, EVENT_35H) \
	__PMC_EV(ARMV8, EVENT_36H) \
	__PMC_EV(ARMV8, EVENT_37H) \
	__PMC_EV(ARMV8, EVENT_38H) \
	__PMC_EV(ARMV8, EVENT_39H) \
	__PMC_EV(ARMV8, EVENT_3AH) \
	__PMC_EV(ARMV8, EVENT_3BH) \
	__PMC_EV(ARMV8, EVENT_3CH) \
	__PMC_EV(ARMV8, EVENT_3DH) \
	__PMC_EV(ARMV8, EVENT_3EH) \
	__PMC_EV(ARMV8, EVENT_3FH) \
	__PMC_EV(ARMV8, EVENT_40H) \
	__PMC_EV(ARMV8, EVENT_41H) \
	__PMC_EV(ARMV8, EVENT_42H) \
	__PMC_EV(ARMV8, EVENT_43H) \
	__PMC_EV(ARMV8, EVENT_44H) \
	__PMC_EV(ARMV8, EVENT_45H) \
	__PMC_EV(ARMV8, EVENT_46H) \
	__PMC_EV(ARMV8, EVENT_47H) \
	__PMC_EV(ARMV8, EVENT_48H) \
	__PMC_EV(ARMV8, EVENT_49H) \
	__PMC_EV(ARMV8, EVENT_4AH) \
	__PMC_EV(ARMV8, EVENT_4BH) \
	__PMC_EV(ARMV8, EVENT_4CH) \
	__PMC_EV(ARMV8, EVENT_4DH) \
	__PMC_EV(ARMV8, EVENT_4EH) \
	__PMC_EV(ARMV8, EVENT_4FH) \
	__PMC_EV(ARMV8, EVENT_50H) \
	__PMC_EV(ARMV8, EVENT_51H) \
	__PMC_EV(ARMV8, EVENT_52H) \
	__PMC_EV(ARMV8, EVENT_53H) \
	__PMC_EV(ARMV8, EVENT_54H) \
	__PMC_EV(ARMV8, EVENT_55H) \
	__PMC_EV(ARMV8, EVENT_56H) \
	__PMC_EV(ARMV8, EVENT_57H) \
	__PMC_EV(ARMV8, EVENT_58H) \
	__PMC_EV(ARMV8, EVENT_59H) \
	__PMC_EV(ARMV8, EVENT_5AH) \
	__PMC_EV(ARMV8, EVENT_5BH) \
	__PMC_EV(ARMV8, EVENT_5CH) \
	__PMC_EV(ARMV8, EVENT_5DH) \
	__PMC_EV(ARMV8, EVENT_5EH) \
	__PMC_EV(ARMV8, EVENT_5FH) \
	__PMC_EV(ARMV8, EVENT_60H) \
	__PMC_EV(ARMV8, EVENT_61H) \
	__PMC_EV(ARMV8, EVENT_62H) \
	__PMC_EV(ARMV8, EVENT_63H) \
	__PMC_EV(ARMV8, EVENT_64H) \
	__PMC_EV(ARMV8, EVENT_65H) \
	__PMC_EV(ARMV8, EVENT_66H) \
	__PMC_EV(ARMV8, EVENT_67H) \
	__PMC_EV(ARMV8, EVENT_68H) \
	__PMC_EV(ARMV8, EVENT_69H) \
	__PMC_EV(ARMV8, EVENT_6AH) \
	__PMC_EV(ARMV8, EVENT_6BH) \
	__PMC_EV(ARMV8, EVENT_6CH) \
	__PMC_EV(ARMV8, EVENT_6DH) \
	__PMC_EV(ARMV8, EVENT_6EH) \
	__PMC_EV(ARMV8, EVENT_6FH) \
	__PMC_EV(ARMV8, EVENT_70H) \
	__PMC_EV(ARMV8, EVENT_71H) \
	__PMC_EV(ARMV8, EVENT_72H) \
	__PMC_EV(ARMV8, EVENT_73H) \
	__PMC_EV(ARMV8, EVENT_74H) \
	__PMC_EV(ARMV8, EVENT_75H) \
	__PMC_EV(ARMV8, EVENT_76H) \
	__PMC_EV(ARMV8, EVENT_77H) \
	__PMC_EV(ARMV8, EVENT_78H) \
	__PMC_EV(ARMV8, EVENT_79H) \
	__PMC_EV(ARMV8, EVENT_7AH) \
	__PMC_EV(ARMV8, EVENT_7BH) \
	__PMC_EV(ARMV8, EVENT_7CH) \
	__PMC_EV(ARMV8, EVENT_7DH) \
	__PMC_EV(ARMV8, EVENT_7EH) \
	__PMC_EV(ARMV8, EVENT_7FH) \
	__PMC_EV(ARMV8, EVENT_80H) \
	__PMC_EV(ARMV8, EVENT_81H) \
	__PMC_EV(ARMV8, EVENT_82H) \
	__PMC_EV(ARMV8, EVENT_83H) \
	__PMC_EV(ARMV8, EVENT_84H) \
	__PMC_EV(ARMV8, EVENT_85H) \
	__PMC_EV(ARMV8, EVENT_86H) \
	__PMC_EV(ARMV8, EVENT_87H) \
	__PMC_EV(ARMV8, EVENT_88H) \
	__PMC_EV(ARMV8, EVENT_89H) \
	__PMC_EV(ARMV8, EVENT_8AH) \
	__PMC_EV(ARMV8, EVENT_8BH) \
	__PMC_EV(ARMV8, EVENT_8CH) \
	__PMC_EV(ARMV8, EVENT_8DH) \
	__PMC_EV(ARMV8, EVENT_8EH) \
	__PMC_EV(ARMV8, EVENT_8FH) \
	__PMC_EV(ARMV8, EVENT_90H) \
	__PMC_EV(ARMV8, EVENT_91H) \
	__PMC_EV(ARMV8, EVENT_92H) \
	__PMC_EV(ARMV8, EVENT_93H) \
	__PMC_EV(ARMV8, EVENT_94H) \
	__PMC_EV(ARMV8, EVENT_95H) \
	__PMC_EV(ARMV8, EVENT_96H) \
	__PMC_EV(ARMV8, EVENT_97H) \
	__PMC_EV(ARMV8, EVENT_98H) \
	__PMC_EV(ARMV8, EVENT_99H) \
	__PMC_EV(ARMV8, EVENT_9AH) \
	__PMC_EV(ARMV8, EVENT_9BH) \
	__PMC_EV(ARMV8, EVENT_9CH) \
	__PMC_EV(ARMV8, EVENT_9DH) \
	__PMC_EV(ARMV8, EVENT_9EH) \
	__PMC_EV(ARMV8, EVENT_9FH) \
	__PMC_EV(ARMV8, EVENT_A0H) \
	__PMC_EV(ARMV8, EVENT_A1H) \
	__PMC_EV(ARMV8, EVENT_A2H) \
	__PMC_EV(ARMV8, EVENT_A3H) \
	__PMC_EV(ARMV8, EVENT_A4H) \
	__PMC_EV(ARMV8, EVENT_A5H) \
	__PMC_EV(ARMV8, EVENT_A6H) \
	__PMC_EV(ARMV8, EVENT_A7H) \
	__PMC_EV(ARMV8, EVENT_A8H) \
	__PMC_EV(ARMV8, EVENT_A9H) \
	__PMC_EV(ARMV8, EVENT_AAH) \
	__PMC_EV(ARMV8, EVENT_ABH) \
	__PMC_EV(ARMV8, EVENT_ACH) \
	__PMC_EV(ARMV8, EVENT_ADH) \
	__PMC_EV(ARMV8, EVENT_AEH) \
	__PMC_EV(ARMV8, EVENT_AFH) \
	__PMC_EV(ARMV8, EVENT_B0H) \
	__PMC_EV(ARMV8, EVENT_B1H) \
	__PMC_EV(ARMV8, EVENT_B2H) \
	__PMC_EV(ARMV8, EVENT_B3H) \
	__PMC_EV(ARMV8, EVENT_B4H) \
	__PMC_EV(ARMV8, EVENT_B5H) \
	__PMC_EV(ARMV8, EVENT_B6H) \
	__PMC_EV(ARMV8, EVENT_B7H) \
	__PMC_EV(ARMV8, EVENT_B8H) \
	__PMC_EV(ARMV8, EVENT_B9H) \
	__PMC_EV(ARMV8, EVENT_BAH) \
	__PMC_EV(ARMV8, EVENT_BBH) \
	__PMC_EV(ARMV8, EVENT_BCH) \
	__PMC_EV(ARMV8, EVENT_BDH) \
	__PMC_EV(ARMV8, EVENT_BEH) \
	__PMC_EV(ARMV8, EVENT_BFH) \
	__PMC_EV(ARMV8, EVENT_C0H) \
	__PMC_EV(ARMV8, EVENT_C1H) \
	__PMC_EV(ARMV8, EVENT_C2H) \
	__PMC_EV(ARMV8, EVENT_C3H) \
	__PMC_EV(ARMV8, EVENT_C4H) \
	__PMC_EV(ARMV8, EVENT_C5H) \
	__PMC_EV(ARMV8, EVENT_C6H) \
	__PMC_EV(ARMV8, EVENT_C7H) \
	__PMC_EV(ARMV8, EVENT_C8H) \
	__PMC_EV(ARMV8, EVENT_C9H) \
	__PMC_EV(ARMV8, EVENT_CAH) \
	__PMC_EV(ARMV8, EVENT_CBH) \
	__PMC_EV(ARMV8, EVENT_CCH) \
	__PMC_EV(ARMV8, EVENT_CDH) \
	__PMC_EV(ARMV8, EVENT_CEH) \
	__PMC_EV(ARMV8, EVENT_CFH) \
	__PMC_EV(ARMV8, EVENT_D0H) \
	__PMC_EV(ARMV8, EVENT_D1H) \
	__PMC_EV(ARMV8, EVENT_D2H) \
	__PMC_EV(ARMV8, EVENT_D3H) \
	__PMC_EV(ARMV8, EVENT_D4H) \
	__PMC_EV(ARMV8, EVENT_D5H) \
	__PMC_EV(ARMV8, EVENT_D6H) \
	__PMC_EV(ARMV8, EVENT_D7H) \
	__PMC_EV(ARMV8, EVENT_D8H) \
	__PMC_EV(ARMV8, EVENT_D9H) \
	__PMC_EV(ARMV8, EVENT_DAH) \
	__PMC_EV(ARMV8, EVENT_DBH) \
	__PMC_EV(ARMV8, EVENT_DCH) \
	__PMC_EV(ARMV8, EVENT_DDH) \
	__PMC_EV(ARMV8, EVENT_DEH) \
	__PMC_EV(ARMV8, EVENT_DFH) \
	__PMC_EV(ARMV8, EVENT_E0H) \
	__PMC_EV(ARMV8, EVENT_E1H) \
	__PMC_EV(ARMV8, EVENT_E2H) \
	__PMC_EV(ARMV8, EVENT_E3H) \
	__PMC_EV(ARMV8, EVENT_E4H) \
	__PMC_EV(ARMV8, EVENT_E5H) \
	__PMC_EV(ARMV8, EVENT_E6H) \
	__PMC_EV(ARMV8, EVENT_E7H) \
	__PMC_EV(ARMV8, EVENT_E8H) \
	__PMC_EV(ARMV8, EVENT_E9H) \
	__PMC_EV(ARMV8, EVENT_EAH) \
	__PMC_EV(ARMV8, EVENT_EBH) \
	__PMC_EV(ARMV8, EVENT_ECH) \
	__PMC_EV(ARMV8, EVENT_EDH) \
	__PMC_EV(ARMV8, EVENT_EEH) \
	__PMC_EV(ARMV8, EVENT_EFH) \
	__PMC_EV(ARMV8, EVENT_F0H) \
	__PMC_EV(ARMV8, EVENT_F1H) \
	__PMC_EV(ARMV8, EVENT_F2H) \
	__PMC_EV(ARMV8, EVENT_F3H) \
	__PMC_EV(ARMV8, EVENT_F4H) \
	__PMC_EV(ARMV8, EVENT_F5H) \
	__PMC_EV(ARMV8, EVENT_F6H) \
	__PMC_EV(ARMV8, EVENT_F7H) \
	__PMC_EV(ARMV8, EVENT_F8H) \
	__PMC_EV(ARMV8, EVENT_F9H) \
	__PMC_EV(ARMV8, EVENT_FAH) \
	__PMC_EV(ARMV8, EVENT_FBH) \
	__PMC_EV(ARMV8, EVENT_FCH) \
	__PMC_EV(ARMV8, EVENT_FDH) \
	__PMC_EV(ARMV8, EVENT_FEH) \
	__PMC_EV(ARMV8, EVENT_FFH)
#define PMC_EV_DYN_COUNT 0x1000

#define __PMC_EVENTS() \
	__PMC_EV_BLOCK(TSC, 0x01000) \
	__PMC_EV_TSC() \
	__PMC_EV_BLOCK(IAF, 0x10000) \
	__PMC_EV_IAF() \
	__PMC_EV_BLOCK(ARMV8, 0x14100) \
	__PMC_EV_ARMV8()

enum pmc_event {
#undef __PMC_EV
#undef __PMC_EV_BLOCK
#define __PMC_EV_BLOCK(C, V) PMC_EV_##C##__BLOCK_START = (V) - 1,
#define __PMC_EV(C, N) PMC_EV_##C##_##N,
	__PMC_EVENTS()
	PMC_EV_SOFT__BLOCK_START = 0x20000 - 1
};
#define PMC_EV_TSC_FIRST   PMC_EV_TSC_TSC
#define PMC_EV_TSC_LAST    PMC_EV_TSC_TSC
#define PMC_EV_IAF_FIRST   PMC_EV_IAF_INSTR_RETIRED_ANY
#define PMC_EV_IAF_LAST    PMC_EV_IAF_CPU_CLK_UNHALTED_REF
#define PMC_EV_ARMV8_FIRST PMC_EV_ARMV8_EVENT_00H
#define PMC_EV_ARMV8_LAST  PMC_EV_ARMV8_EVENT_FFH
#define PMC_EV_SOFT_FIRST  0x20000
#define PMC_EV_SOFT_LAST   (PMC_EV_SOFT_FIRST + PMC_EV_DYN_COUNT - 1)
#define PMC_EVENT_FIRST    PMC_EV_TSC_TSC
#define PMC_EVENT_LAST     PMC_EV_SOFT_LAST

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

/* ---- the FreeBSD API ------------------------------------------------- */
int pmc_allocate(const char *_ctrspec, enum pmc_mode _mode, uint32_t _flags,
    int _cpu, pmc_id_t *_pmcid, uint64_t count);
int pmc_attach(pmc_id_t _pmcid, pid_t _pid);
int pmc_capabilities(pmc_id_t _pmc, uint32_t *_caps);
int pmc_configure_logfile(int _fd);
int pmc_flush_logfile(void);
int pmc_close_logfile(void);
int pmc_detach(pmc_id_t _pmcid, pid_t _pid);
int pmc_disable(int _cpu, int _pmc);
int pmc_enable(int _cpu, int _pmc);
int pmc_get_driver_stats(struct pmc_driverstats *_gms);
int pmc_get_msr(pmc_id_t _pmc, uint32_t *_msr);
int pmc_init(void);
int pmc_read(pmc_id_t _pmc, pmc_value_t *_value);
int pmc_release(pmc_id_t _pmc);
int pmc_rw(pmc_id_t _pmc, pmc_value_t _newvalue, pmc_value_t *_oldvalue);
int pmc_set(pmc_id_t _pmc, pmc_value_t _value);
int pmc_start(pmc_id_t _pmc);
int pmc_stop(pmc_id_t _pmc);
int pmc_width(pmc_id_t _pmc, uint32_t *_width);
int pmc_write(pmc_id_t _pmc, pmc_value_t _value);
int pmc_writelog(uint32_t _udata);

int pmc_ncpu(void);
int pmc_npmc(int _cpu);
int pmc_cpuinfo(const struct pmc_cpuinfo **_cpu_info);
int pmc_pmcinfo(int _cpu, struct pmc_pmcinfo **_pmc_info);

const char *pmc_name_of_capability(enum pmc_caps _c);
const char *pmc_name_of_class(enum pmc_class _pc);
const char *pmc_name_of_cputype(enum pmc_cputype _cp);
const char *pmc_name_of_disposition(enum pmc_disp _pd);
const char *pmc_name_of_event(enum pmc_event _pe);
const char *pmc_name_of_mode(enum pmc_mode _pm);
const char *pmc_name_of_state(enum pmc_state _ps);

int pmc_event_names_of_class(enum pmc_class _cl, const char ***_eventnames,
    int *_nevents);

/* ====================================================================== *
 *                         LINUX EXTENSIONS                               *
 * Not in FreeBSD's libpmc.  Same conventions: 0 or -1 with errno.        *
 * ====================================================================== */

#define PMC_LINUX_EXTENSIONS 1

/*
 * pmc_errmsg — why the last failing libpmc call of this thread failed, as
 * one sentence without a trailing newline ("no hardware PMU on this machine
 * (software events only); try cpu-clock").  Never NULL; "" if nothing failed.
 */
const char *pmc_errmsg(void);

/*
 * pmc_backend_select — choose the backend ("linux", the default, or "sim",
 * the simulated ARMv8 PMU) before pmc_init().  The environment variable
 * PMC_BACKEND does the same.  EBUSY after pmc_init(); ENOENT for an
 * unknown name.  pmc_backend_name() names the one in use.
 */
int pmc_backend_select(const char *_name);
const char *pmc_backend_name(void);

/* pmc_fini — release every PMC, close the log, forget pmc_init(). */
void pmc_fini(void);

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
int pmc_read_ext(pmc_id_t _pmc, struct pmc_reading *_r);

/* pmc_attach_thread / pmc_detach_thread — a process-mode PMC on one thread. */
int pmc_attach_thread(pmc_id_t _pmc, pid_t _tid);
int pmc_detach_thread(pmc_id_t _pmc, pid_t _tid);

/*
 * pmc_group — make _member count in _leader's group (scheduled onto the PMU
 * together, so ratios between them are exact).  Both stopped, same mode and
 * CPU; before the first attach or start.
 */
int pmc_group(pmc_id_t _leader, pmc_id_t _member);

/* pmc_set_frequency — a sampling PMC takes _hz samples per second instead
 * of one per period (perf's -F).  EBUSY while running. */
int pmc_set_frequency(pmc_id_t _pmc, uint64_t _hz);

/*
 * pmc_allocate_attr — allocate from a raw struct perf_event_attr (from
 * <linux/perf_event.h>); the mode, flags and cpu rules are pmc_allocate's.
 */
struct perf_event_attr;
int pmc_allocate_attr(const struct perf_event_attr *_attr, enum pmc_mode _mode,
    uint32_t _flags, int _cpu, pmc_id_t *_pmcid, uint64_t count);

/*
 * pmc_event_split — split an event list ("cycles,instructions:u,msr/tsc/")
 * the way every pmc command does: on commas, except inside pmu/.../ and
 * {...}; hwpmc's qualifiers ("instructions,usr") stay with their event.
 * *_specs is allocated; free it with pmc_event_split_free.  EINVAL for an
 * empty item.
 */
int pmc_event_split(const char *_list, char ***_specs, int *_n);
void pmc_event_split_free(char **_specs, int _n);

/* pmc_event_name — the spec a PMC was allocated with ("cycles:u"). */
const char *pmc_event_name(pmc_id_t _pmc);

/*
 * pmc_event_kind — what a PMC counts, whatever its spelling: perf's event
 * type and config (<linux/perf_event.h>), with an ARMv8 architectural event
 * that is one of perf's generic hardware events given as that event
 * (CPU_CYCLES and cpu-cycles are both PERF_TYPE_HARDWARE /
 * PERF_COUNT_HW_CPU_CYCLES), and the privilege levels it leaves out.
 * Derived metrics (insn per cycle, miss ratios) pair PMCs by kind.
 */
#define PMC_KIND_EXCL_USER    0x1
#define PMC_KIND_EXCL_KERNEL  0x2
#define PMC_KIND_EXCL_HV      0x4
struct pmc_event_kind {
	uint32_t pk_type;        /* PERF_TYPE_* */
	uint64_t pk_config;      /* PERF_COUNT_HW_*, PERF_COUNT_SW_*, cache id|op|result, ... */
	unsigned pk_exclude;     /* PMC_KIND_EXCL_* */
};
int pmc_event_kind(pmc_id_t _pmc, struct pmc_event_kind *_kind);

/* pmc_cpu_topology — a CPU's socket, die and core ids (0 where unknown);
 * perf stat's --per-socket and --per-core aggregate by them. */
int pmc_cpu_topology(int _cpu, int *_socket, int *_die, int *_core);

/*
 * pmc_event_unit — for events with a sysfs scale and unit (e.g. energy in
 * Joules): the factor to multiply counts by and the unit ("" if none).
 */
int pmc_event_unit(pmc_id_t _pmc, double *_scale, const char **_unit);

/*
 * pmc_spawn / pmc_spawn_go — run a command as a counting target.
 * pmc_spawn forks a child that waits before exec; attach PMCs to *_pid,
 * start them, then pmc_spawn_go lets it exec.  Counting begins at the exec,
 * so the tool's own fork and exec are never counted.  With the sim backend
 * argv[0] is a workload file.  pmc_spawn_wait reaps it (status as waitpid).
 */
int pmc_spawn(char *const _argv[], pid_t *_pid);
int pmc_spawn_go(pid_t _pid);
int pmc_spawn_wait(pid_t _pid, int *_status);
/* ... waiting at most _timeout_ms (-1 forever): -1/EAGAIN if still running.
 * With the sim backend the time-out is in simulated time. */
int pmc_spawn_wait_timeout(pid_t _pid, int *_status, int _timeout_ms);
/* Signal a spawned target (one that never ran ends with status 128+sig). */
int pmc_spawn_kill(pid_t _pid, int _sig);
/* 1 if the process or thread exists for the backend in use, else 0. */
int pmc_target_exists(pid_t _pid);
/* The backend's monotonic clock in ns (simulated time with the sim). */
uint64_t pmc_clock_ns(void);

/*
 * Log extensions.  pmc_configure_logfile_flags is pmc_configure_logfile with
 * options (PMC_LOGF_ZSTD: zstd-compressed, still streamable).
 * pmc_log_set_cmdline records the command line in the log header (call it
 * before configuring).  pmc_log_stats reports the writer's progress:
 * samples, lost samples, records, bytes, and the first write error (errno).
 */
#define PMC_LOGF_ZSTD 0x1
int pmc_configure_logfile_flags(int _fd, unsigned _flags);
int pmc_log_set_cmdline(const char *_cmdline);
struct pmc_log_stats {
	uint64_t pl_samples;
	uint64_t pl_lost;
	uint64_t pl_records;
	uint64_t pl_bytes;
	int pl_error;
};
int pmc_log_stats(struct pmc_log_stats *_st);

/*
 * pmc_setting_get — hwpmc's tunables as libpmc uses them (callchaindepth,
 * logbuffersize, nbuffers_pcpu, nsamples, mincount; "kern.hwpmc." prefix
 * optional).  Set through PMC_<NAME> environment variables or a config file
 * (see pmc(3)).  pmc_setting_name(i) names the i-th, NULL past the last.
 */
int pmc_setting_get(const char *_name, long *_value);
const char *pmc_setting_name(int _i);

#ifdef __cplusplus
}
#endif

#endif /* _PMC_H_ */
