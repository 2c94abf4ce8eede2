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
#define __PMC_EV_ARM_CODES(C) \
	__PMC_EV(C, EVENT_00H) \
	__PMC_EV(C, EVENT_01H) \
	__PMC_EV(C, EVENT_02H) \
	__PMC_EV(C, EVENT_03H) \
	__PMC_EV(C, EVENT_04H) \
	__PMC_EV(C, EVENT_05H) \
	__PMC_EV(C, EVENT_06H) \
	__PMC_EV(C, EVENT_07H) \
	__PMC_EV(C, EVENT_08H) \
	__PMC_EV(C, EVENT_09H) \
	__PMC_EV(C, EVENT_0AH) \
	__PMC_EV(C, EVENT_0BH) \
	__PMC_EV(C, EVENT_0CH) \
	__PMC_EV(C, EVENT_0DH) \
	__PMC_EV(C, EVENT_0EH) \
	__PMC_EV(C, EVENT_0FH) \
	__PMC_EV(C, EVENT_10H) \
	__PMC_EV(C, EVENT_11H) \
	__PMC_EV(C, EVENT_12H) \
	__PMC_EV(C, EVENT_13H) \
	__PMC_EV(C, EVENT_14H) \
	__PMC_EV(C, EVENT_15H) \
	__PMC_EV(C, EVENT_16H) \
	__PMC_EV(C, EVENT_17H) \
	__PMC_EV(C, EVENT_18H) \
	__PMC_EV(C, EVENT_19H) \
	__PMC_EV(C, EVENT_1AH) \
	__PMC_EV(C, EVENT_1BH) \
	__PMC_EV(C, EVENT_1CH) \
	__PMC_EV(C, EVENT_1DH) \
	__PMC_EV(C, EVENT_1EH) \
	__PMC_EV(C, EVENT_1FH) \
	__PMC_EV(C, EVENT_20H) \
	__PMC_EV(C, EVENT_21H) \
	__PMC_EV(C, EVENT_22H) \
	__PMC_EV(C, EVENT_23H) \
	__PMC_EV(C, EVENT_24H) \
	__PMC_EV(C, EVENT_25H) \
	__PMC_EV(C, EVENT_26H) \
	__PMC_EV(C, EVENT_27H) \
	__PMC_EV(C, EVENT_28H) \
	__PMC_EV(C, EVENT_29H) \
	__PMC_EV(C, EVENT_2AH) \
	__PMC_EV(C, EVENT_2BH) \
	__PMC_EV(C, EVENT_2CH) \
	__PMC_EV(C, EVENT_2DH) \
	__PMC_EV(C, EVENT_2EH) \
	__PMC_EV(C, EVENT_2FH) \
	__PMC_EV(C, EVENT_30H) \
	__PMC_EV(C, EVENT_31H) \
	__PMC_EV(C, EVENT_32H) \
	__PMC_EV(C, EVENT_33H) \
	__PMC_EV(C, EVENT_34H) \
	__PMC_EV(C, EVENT_35H) \
	__PMC_EV(C, EVENT_36H) \
	__PMC_EV(C, EVENT_37H) \
	__PMC_EV(C, EVENT_38H) \
	__PMC_EV(C, EVENT_39H) \
	__PMC_EV(C, EVENT_3AH) \
	__PMC_EV(C, EVENT_3BH) \
	__PMC_EV(C, EVENT_3CH) \
	__PMC_EV(C, EVENT_3DH) \
	__PMC_EV(C, EVENT_3EH) \
	__PMC_EV(C, EVENT_3FH) \
	__PMC_EV(C, EVENT_40H) \
	__PMC_EV(C, EVENT_41H) \
	__PMC_EV(C, EVENT_42H) \
	__PMC_EV(C, EVENT_43H) \
	__PMC_EV(C, EVENT_44H) \
	__PMC_EV(C, EVENT_45H) \
	__PMC_EV(C, EVENT_46H) \
	__PMC_EV(C, EVENT_47H) \
	__PMC_EV(C, EVENT_48H) \
	__PMC_EV(C, EVENT_49H) \
	__PMC_EV(C, EVENT_4AH) \
	__PMC_EV(C, EVENT_4BH) \
	__PMC_EV(C, EVENT_4CH) \
	__PMC_EV(C, EVENT_4DH) \
	__PMC_EV(C, EVENT_4EH) \
	__PMC_EV(C, EVENT_4FH) \
	__PMC_EV(C, EVENT_50H) \
	__PMC_EV(C, EVENT_51H) \
	__PMC_EV(C, EVENT_52H) \
	__PMC_EV(C, EVENT_53H) \
	__PMC_EV(C, EVENT_54H) \
	__PMC_EV(C, EVENT_55H) \
	__PMC_EV(C, EVENT_56H) \
	__PMC_EV(C, EVENT_57H) \
	__PMC_EV(C, EVENT_58H) \
	__PMC_EV(C, EVENT_59H) \
	__PMC_EV(C, EVENT_5AH) \
	__PMC_EV(C, EVENT_5BH) \
	__PMC_EV(C, EVENT_5CH) \
	__PMC_EV(C, EVENT_5DH) \
	__PMC_EV(C, EVENT_5EH) \
	__PMC_EV(C, EVENT_5FH) \
	__PMC_EV(C, EVENT_60H) \
	__PMC_EV(C, EVENT_61H) \
	__PMC_EV(C, EVENT_62H) \
	__PMC_EV(C, EVENT_63H) \
	__PMC_EV(C, EVENT_64H) \
	__PMC_EV(C, EVENT_65H) \
	__PMC_EV(C, EVENT_66H) \
	__PMC_EV(C, EVENT_67H) \
	__PMC_EV(C, EVENT_68H) \
	__PMC_EV(C, EVENT_69H) \
	__PMC_EV(C, EVENT_6AH) \
	__PMC_EV(C, EVENT_6BH) \
	__PMC_EV(C, EVENT_6CH) \
	__PMC_EV(C, EVENT_6DH) \
	__PMC_EV(C, EVENT_6EH) \
	__PMC_EV(C, EVENT_6FH) \
	__PMC_EV(C, EVENT_70H) \
	__PMC_EV(C, EVENT_71H) \
	__PMC_EV(C, EVENT_72H) \
	__PMC_EV(C, EVENT_73H) \
	__PMC_EV(C, EVENT_74H) \
	__PMC_EV(C, EVENT_75H) \
	__PMC_EV(C, EVENT_76H) \
	__PMC_EV(C, EVENT_77H) \
	__PMC_EV(C, EVENT_78H) \
	__PMC_EV(C, EVENT_79H) \
	__PMC_EV(C, EVENT_7AH) \
	__PMC_EV(C, EVENT_7BH) \
	__PMC_EV(C, EVENT_7CH) \
	__PMC_EV(C, EVENT_7DH) \
	__PMC_EV(C, EVENT_7EH) \
	__PMC_EV(C, EVENT_7FH) \
	__PMC_EV(C, EVENT_80H) \
	__PMC_EV(C, EVENT_81H) \
	__PMC_EV(C, EVENT_82H) \
	__PMC_EV(C, EVENT_83H) \
	__PMC_EV(C, EVENT_84H) \
	__PMC_EV(C, EVENT_85H) \
	__PMC_EV(C, EVENT_86H) \
	__PMC_EV(C, EVENT_87H) \
	__PMC_EV(C, EVENT_88H) \
	__PMC_EV(C, EVENT_89H) \
	__PMC_EV(C, EVENT_8AH) \
	__PMC_EV(C, EVENT_8BH) \
	__PMC_EV(C, EVENT_8CH) \
	__PMC_EV(C, EVENT_8DH) \
	__PMC_EV(C, EVENT_8EH) \
	__PMC_EV(C, EVENT_8FH) \
	__PMC_EV(C, EVENT_90H) \
	__PMC_EV(C, EVENT_91H) \
	__PMC_EV(C, EVENT_92H) \
	__PMC_EV(C, EVENT_93H) \
	__PMC_EV(C, EVENT_94H) \
	__PMC_EV(C, EVENT_95H) \
	__PMC_EV(C, EVENT_96H) \
	__PMC_EV(C, EVENT_97H) \
	__PMC_EV(C, EVENT_98H) \
	__PMC_EV(C, EVENT_99H) \
	__PMC_EV(C, EVENT_9AH) \
	__PMC_EV(C, EVENT_9BH) \
	__PMC_EV(C, EVENT_9CH) \
	__PMC_EV(C, EVENT_9DH) \
	__PMC_EV(C, EVENT_9EH) \
	__PMC_EV(C, EVENT_9FH) \
	__PMC_EV(C, EVENT_A0H) \
	__PMC_EV(C, EVENT_A1H) \
	__PMC_EV(C, EVENT_A2H) \
	__PMC_EV(C, EVENT_A3H) \
	__PMC_EV(C, EVENT_A4H) \
	__PMC_EV(C, EVENT_A5H) \
	__PMC_EV(C, EVENT_A6H) \
	__PMC_EV(C, EVENT_A7H) \
	__PMC_EV(C, EVENT_A8H) \
	__PMC_EV(C, EVENT_A9H) \
	__PMC_EV(C, EVENT_AAH) \
	__PMC_EV(C, EVENT_ABH) \
	__PMC_EV(C, EVENT_ACH) \
	__PMC_EV(C, EVENT_ADH) \
	__PMC_EV(C, EVENT_AEH) \
	__PMC_EV(C, EVENT_AFH) \
	__PMC_EV(C, EVENT_B0H) \
	__PMC_EV(C, EVENT_B1H) \
	__PMC_EV(C, EVENT_B2H) \
	__PMC_EV(C, EVENT_B3H) \
	__PMC_EV(C, EVENT_B4H) \
	__PMC_EV(C, EVENT_B5H) \
	__PMC_EV(C, EVENT_B6H) \
	__PMC_EV(C, EVENT_B7H) \
	__PMC_EV(C, EVENT_B8H) \
	__PMC_EV(C, EVENT_B9H) \
	__PMC_EV(C, EVENT_BAH) \
	__PMC_EV(C, EVENT_BBH) \
	__PMC_EV(C, EVENT_BCH) \
	__PMC_EV(C, EVENT_BDH) \
	__PMC_EV(C, EVENT_BEH) \
	__PMC_EV(C, EVENT_BFH) \
	__PMC_EV(C, EVENT_C0H) \
	__PMC_EV(C, EVENT_C1H) \
	__PMC_EV(C, EVENT_C2H) \
	__PMC_EV(C, EVENT_C3H) \
	__PMC_EV(C, EVENT_C4H) \
	__PMC_EV(C, EVENT_C5H) \
	__PMC_EV(C, EVENT_C6H) \
	__PMC_EV(C, EVENT_C7H) \
	__PMC_EV(C, EVENT_C8H) \
	__PMC_EV(C, EVENT_C9H) \
	__PMC_EV(C, EVENT_CAH) \
	__PMC_EV(C, EVENT_CBH) \
	__PMC_EV(C, EVENT_CCH) \
	__PMC_EV(C, EVENT_CDH) \
	__PMC_EV(C, EVENT_CEH) \
	__PMC_EV(C, EVENT_CFH) \
	__PMC_EV(C, EVENT_D0H) \
	__PMC_EV(C, EVENT_D1H) \
	__PMC_EV(C, EVENT_D2H) \
	__PMC_EV(C, EVENT_D3H) \
	__PMC_EV(C, EVENT_D4H) \
	__PMC_EV(C, EVENT_D5H) \
	__PMC_EV(C, EVENT_D6H) \
	__PMC_EV(C, EVENT_D7H) \
	__PMC_EV(C, EVENT_D8H) \
	__PMC_EV(C, EVENT_D9H) \
	__PMC_EV(C, EVENT_DAH) \
	__PMC_EV(C, EVENT_DBH) \
	__PMC_EV(C, EVENT_DCH) \
	__PMC_EV(C, EVENT_DDH) \
	__PMC_EV(C, EVENT_DEH) \
	__PMC_EV(C, EVENT_DFH) \
	__PMC_EV(C, EVENT_E0H) \
	__PMC_EV(C, EVENT_E1H) \
	__PMC_EV(C, EVENT_E2H) \
	__PMC_EV(C, EVENT_E3H) \
	__PMC_EV(C, EVENT_E4H) \
	__PMC_EV(C, EVENT_E5H) \
	__PMC_EV(C, EVENT_E6H) \
	__PMC_EV(C, EVENT_E7H) \
	__PMC_EV(C, EVENT_E8H) \
	__PMC_EV(C, EVENT_E9H) \
	__PMC_EV(C, EVENT_EAH) \
	__PMC_EV(C, EVENT_EBH) \
	__PMC_EV(C, EVENT_ECH) \
	__PMC_EV(C, EVENT_EDH) \
	__PMC_EV(C, EVENT_EEH) \
	__PMC_EV(C, EVENT_EFH) \
	__PMC_EV(C, EVENT_F0H) \
	__PMC_EV(C, EVENT_F1H) \
	__PMC_EV(C, EVENT_F2H) \
	__PMC_EV(C, EVENT_F3H) \
	__PMC_EV(C, EVENT_F4H) \
	__PMC_EV(C, EVENT_F5H) \
	__PMC_EV(C, EVENT_F6H) \
	__PMC_EV(C, EVENT_F7H) \
	__PMC_EV(C, EVENT_F8H) \
	__PMC_EV(C, EVENT_F9H) \
	__PMC_EV(C, EVENT_FAH) \
	__PMC_EV(C, EVENT_FBH) \
	__PMC_EV(C, EVENT_FCH) \
	__PMC_EV(C, EVENT_FDH) \
	__PMC_EV(C, EVENT_FEH) \
	__PMC_EV(C, EVENT_FFH)
#define __PMC_EV_ARMV7() __PMC_EV_ARM_CODES(ARMV7)
#define __PMC_EV_ARMV8() __PMC_EV_ARM_CODES(ARMV8)
#define __PMC_EV_K8() \
	__PMC_EV(K8, FP_DISPATCHED_FPU_OPS) \
	__PMC_EV(K8, FP_CYCLES_WITH_NO_FPU_OPS_RETIRED) \
	__PMC_EV(K8, FP_DISPATCHED_FPU_FAST_FLAG_OPS) \
	__PMC_EV(K8, LS_SEGMENT_REGISTER_LOAD) \
	__PMC_EV(K8, LS_MICROARCHITECTURAL_RESYNC_BY_SELF_MODIFYING_CODE) \
	__PMC_EV(K8, LS_MICROARCHITECTURAL_RESYNC_BY_SNOOP) \
	__PMC_EV(K8, LS_BUFFER2_FULL) \
	__PMC_EV(K8, LS_LOCKED_OPERATION) \
	__PMC_EV(K8, LS_MICROARCHITECTURAL_LATE_CANCEL) \
	__PMC_EV(K8, LS_RETIRED_CFLUSH_INSTRUCTIONS) \
	__PMC_EV(K8, LS_RETIRED_CPUID_INSTRUCTIONS) \
	__PMC_EV(K8, DC_ACCESS) \
	__PMC_EV(K8, DC_MISS) \
	__PMC_EV(K8, DC_REFILL_FROM_L2) \
	__PMC_EV(K8, DC_REFILL_FROM_SYSTEM) \
	__PMC_EV(K8, DC_COPYBACK) \
	__PMC_EV(K8, DC_L1_DTLB_MISS_AND_L2_DTLB_HIT) \
	__PMC_EV(K8, DC_L1_DTLB_MISS_AND_L2_DTLB_MISS) \
	__PMC_EV(K8, DC_MISALIGNED_DATA_REFERENCE) \
	__PMC_EV(K8, DC_MICROARCHITECTURAL_LATE_CANCEL) \
	__PMC_EV(K8, DC_MICROARCHITECTURAL_EARLY_CANCEL) \
	__PMC_EV(K8, DC_ONE_BIT_ECC_ERROR) \
	__PMC_EV(K8, DC_DISPATCHED_PREFETCH_INSTRUCTIONS) \
	__PMC_EV(K8, DC_DCACHE_ACCESSES_BY_LOCKS) \
	__PMC_EV(K8, BU_CPU_CLK_UNHALTED) \
	__PMC_EV(K8, BU_INTERNAL_L2_REQUEST) \
	__PMC_EV(K8, BU_FILL_REQUEST_L2_MISS) \
	__PMC_EV(K8, BU_FILL_INTO_L2) \
	__PMC_EV(K8, IC_FETCH) \
	__PMC_EV(K8, IC_MISS) \
	__PMC_EV(K8, IC_REFILL_FROM_L2) \
	__PMC_EV(K8, IC_REFILL_FROM_SYSTEM) \
	__PMC_EV(K8, IC_L1_ITLB_MISS_AND_L2_ITLB_HIT) \
	__PMC_EV(K8, IC_L1_ITLB_MISS_AND_L2_ITLB_MISS) \
	__PMC_EV(K8, IC_MICROARCHITECTURAL_RESYNC_BY_SNOOP) \
	__PMC_EV(K8, IC_INSTRUCTION_FETCH_STALL) \
	__PMC_EV(K8, IC_RETURN_STACK_HIT) \
	__PMC_EV(K8, IC_RETURN_STACK_OVERFLOW) \
	__PMC_EV(K8, FR_RETIRED_X86_INSTRUCTIONS) \
	__PMC_EV(K8, FR_RETIRED_UOPS) \
	__PMC_EV(K8, FR_RETIRED_BRANCHES) \
	__PMC_EV(K8, FR_RETIRED_BRANCHES_MISPREDICTED) \
	__PMC_EV(K8, FR_RETIRED_TAKEN_BRANCHES) \
	__PMC_EV(K8, FR_RETIRED_TAKEN_BRANCHES_MISPREDICTED) \
	__PMC_EV(K8, FR_RETIRED_FAR_CONTROL_TRANSFERS) \
	__PMC_EV(K8, FR_RETIRED_RESYNCS) \
	__PMC_EV(K8, FR_RETIRED_NEAR_RETURNS) \
	__PMC_EV(K8, FR_RETIRED_NEAR_RETURNS_MISPREDICTED) \
	__PMC_EV(K8, FR_RETIRED_TAKEN_BRANCHES_MISPREDICTED_BY_ADDR_MISCOMPARE) \
	__PMC_EV(K8, FR_RETIRED_FPU_INSTRUCTIONS) \
	__PMC_EV(K8, FR_RETIRED_FASTPATH_DOUBLE_OP_INSTRUCTIONS) \
	__PMC_EV(K8, FR_INTERRUPTS_MASKED_CYCLES) \
	__PMC_EV(K8, FR_INTERRUPTS_MASKED_WHILE_PENDING_CYCLES) \
	__PMC_EV(K8, FR_TAKEN_HARDWARE_INTERRUPTS) \
	__PMC_EV(K8, FR_DECODER_EMPTY) \
	__PMC_EV(K8, FR_DISPATCH_STALLS) \
	__PMC_EV(K8, FR_DISPATCH_STALL_FROM_BRANCH_ABORT_TO_RETIRE) \
	__PMC_EV(K8, FR_DISPATCH_STALL_FOR_SERIALIZATION) \
	__PMC_EV(K8, FR_DISPATCH_STALL_FOR_SEGMENT_LOAD) \
	__PMC_EV(K8, FR_DISPATCH_STALL_WHEN_REORDER_BUFFER_IS_FULL) \
	__PMC_EV(K8, FR_DISPATCH_STALL_WHEN_RESERVATION_STATIONS_ARE_FULL) \
	__PMC_EV(K8, FR_DISPATCH_STALL_WHEN_FPU_IS_FULL) \
	__PMC_EV(K8, FR_DISPATCH_STALL_WHEN_LS_IS_FULL) \
	__PMC_EV(K8, FR_DISPATCH_STALL_WHEN_WAITING_FOR_ALL_TO_BE_QUIET) \
	__PMC_EV(K8, FR_DISPATCH_STALL_WHEN_FAR_XFER_OR_RESYNC_BRANCH_PENDING) \
	__PMC_EV(K8, FR_FPU_EXCEPTIONS) \
	__PMC_EV(K8, FR_NUMBER_OF_BREAKPOINTS_FOR_DR0) \
	__PMC_EV(K8, FR_NUMBER_OF_BREAKPOINTS_FOR_DR1) \
	__PMC_EV(K8, FR_NUMBER_OF_BREAKPOINTS_FOR_DR2) \
	__PMC_EV(K8, FR_NUMBER_OF_BREAKPOINTS_FOR_DR3) \
	__PMC_EV(K8, NB_MEMORY_CONTROLLER_PAGE_ACCESS_EVENT) \
	__PMC_EV(K8, NB_MEMORY_CONTROLLER_PAGE_TABLE_OVERFLOW) \
	__PMC_EV(K8, NB_MEMORY_CONTROLLER_DRAM_COMMAND_SLOTS_MISSED) \
	__PMC_EV(K8, NB_MEMORY_CONTROLLER_TURNAROUND) \
	__PMC_EV(K8, NB_MEMORY_CONTROLLER_BYPASS_SATURATION) \
	__PMC_EV(K8, NB_SIZED_COMMANDS) \
	__PMC_EV(K8, NB_PROBE_RESULT) \
	__PMC_EV(K8, NB_HT_BUS0_BANDWIDTH) \
	__PMC_EV(K8, NB_HT_BUS1_BANDWIDTH) \
	__PMC_EV(K8, NB_HT_BUS2_BANDWIDTH)

/* FreeBSD's header aliases: a generic name for an event of the class
 * (expand with __PMC_EV_ALIAS("name", CLASS_EVENT)). */
#define __PMC_EV_ALIAS_TSC() \
	__PMC_EV_ALIAS("cycles", TSC_TSC)
#define __PMC_EV_ALIAS_IAF() \
	__PMC_EV_ALIAS("instruction-retired", IAF_INSTR_RETIRED_ANY) \
	__PMC_EV_ALIAS("unhalted-core-cycles", IAF_CPU_CLK_UNHALTED_CORE) \
	__PMC_EV_ALIAS("unhalted-reference-cycles", IAF_CPU_CLK_UNHALTED_REF)

/* FreeBSD's ARM aliases: Arm's architectural names of the event numbers,
 * per core, as pmc.armv7(3) / pmc.armv8(3) name them. */
#define __PMC_EV_ALIAS_ARMV7_COMMON() \
	__PMC_EV_ALIAS("PMNC_SW_INCR", ARMV7_EVENT_00H) \
	__PMC_EV_ALIAS("L1_ICACHE_REFILL", ARMV7_EVENT_01H) \
	__PMC_EV_ALIAS("ITLB_REFILL", ARMV7_EVENT_02H) \
	__PMC_EV_ALIAS("L1_DCACHE_REFILL", ARMV7_EVENT_03H) \
	__PMC_EV_ALIAS("L1_DCACHE_ACCESS", ARMV7_EVENT_04H) \
	__PMC_EV_ALIAS("DTLB_REFILL", ARMV7_EVENT_05H) \
	__PMC_EV_ALIAS("MEM_READ", ARMV7_EVENT_06H) \
	__PMC_EV_ALIAS("MEM_WRITE", ARMV7_EVENT_07H) \
	__PMC_EV_ALIAS("EXC_TAKEN", ARMV7_EVENT_09H) \
	__PMC_EV_ALIAS("EXC_EXECUTED", ARMV7_EVENT_0AH) \
	__PMC_EV_ALIAS("CID_WRITE", ARMV7_EVENT_0BH) \
	__PMC_EV_ALIAS("PC_WRITE", ARMV7_EVENT_0CH) \
	__PMC_EV_ALIAS("PC_IMM_BRANCH", ARMV7_EVENT_0DH) \
	__PMC_EV_ALIAS("MEM_UNALIGNED_ACCESS", ARMV7_EVENT_0FH) \
	__PMC_EV_ALIAS("PC_BRANCH_MIS_PRED", ARMV7_EVENT_10H) \
	__PMC_EV_ALIAS("CLOCK_CYCLES", ARMV7_EVENT_11H) \
	__PMC_EV_ALIAS("PC_BRANCH_PRED", ARMV7_EVENT_12H)
#define __PMC_EV_ALIAS_ARMV7_COMMON_A8() \
	__PMC_EV_ALIAS_ARMV7_COMMON() \
	__PMC_EV_ALIAS("INSTR_EXECUTED", ARMV7_EVENT_08H) \
	__PMC_EV_ALIAS("PC_PROC_RETURN", ARMV7_EVENT_0EH) \
	__PMC_EV_ALIAS("MEM_ACCESS", ARMV7_EVENT_13H) \
	__PMC_EV_ALIAS("L1_ICACHE_ACCESS", ARMV7_EVENT_14H) \
	__PMC_EV_ALIAS("L1_DCACHE_WB", ARMV7_EVENT_15H) \
	__PMC_EV_ALIAS("L2_CACHE_ACCESS", ARMV7_EVENT_16H) \
	__PMC_EV_ALIAS("L2_CACHE_REFILL", ARMV7_EVENT_17H) \
	__PMC_EV_ALIAS("L2_CACHE_WB", ARMV7_EVENT_18H) \
	__PMC_EV_ALIAS("BUS_ACCESS", ARMV7_EVENT_19H) \
	__PMC_EV_ALIAS("MEM_ERROR", ARMV7_EVENT_1AH) \
	__PMC_EV_ALIAS("INSTR_SPEC", ARMV7_EVENT_1BH) \
	__PMC_EV_ALIAS("TTBR_WRITE", ARMV7_EVENT_1CH) \
	__PMC_EV_ALIAS("BUS_CYCLES", ARMV7_EVENT_1DH) \
	__PMC_EV_ALIAS("CPU_CYCLES", ARMV7_EVENT_FFH)
#define __PMC_EV_ALIAS_ARMV7_CORTEX_A8() \
	__PMC_EV_ALIAS_ARMV7_COMMON_A8() \
	__PMC_EV_ALIAS("WRITE_BUF_FULL", ARMV7_EVENT_40H) \
	__PMC_EV_ALIAS("L2_STORE_MERGED", ARMV7_EVENT_41H) \
	__PMC_EV_ALIAS("L2_STORE_BUFFERABLE", ARMV7_EVENT_42H) \
	__PMC_EV_ALIAS("L2_ACCESS", ARMV7_EVENT_43H) \
	__PMC_EV_ALIAS("L2_CACHE_MISS", ARMV7_EVENT_44H) \
	__PMC_EV_ALIAS("AXI_READ", ARMV7_EVENT_45H) \
	__PMC_EV_ALIAS("AXI_WRITE", ARMV7_EVENT_46H) \
	__PMC_EV_ALIAS("MEM_REPLAY_EVT", ARMV7_EVENT_47H) \
	__PMC_EV_ALIAS("MEM_UNALIGNED_ACCESS_REPLAY", ARMV7_EVENT_48H) \
	__PMC_EV_ALIAS("L1_DCACHE_HASH_MISS", ARMV7_EVENT_49H) \
	__PMC_EV_ALIAS("L1_ICACHE_HASH_MISS", ARMV7_EVENT_4AH) \
	__PMC_EV_ALIAS("L1_CACHE_PAGECOL_ALIAS", ARMV7_EVENT_4BH) \
	__PMC_EV_ALIAS("L1_DCACHE_NEON_ACCESS", ARMV7_EVENT_4CH) \
	__PMC_EV_ALIAS("L1_DCACHE_NEON_CACHEABLE", ARMV7_EVENT_4DH) \
	__PMC_EV_ALIAS("L2_CACHE_NEON_MEM_ACCESS", ARMV7_EVENT_4EH) \
	__PMC_EV_ALIAS("L2_CACHE_NEON_HIT", ARMV7_EVENT_4FH) \
	__PMC_EV_ALIAS("L1_CACHE_ACCESS_NOCP15", ARMV7_EVENT_50H) \
	__PMC_EV_ALIAS("RET_STACK_MISPREDICT", ARMV7_EVENT_51H) \
	__PMC_EV_ALIAS("BRANCH_DIR_MISPREDICT", ARMV7_EVENT_52H) \
	__PMC_EV_ALIAS("PRED_BRANCH_PRED_TAKEN", ARMV7_EVENT_53H) \
	__PMC_EV_ALIAS("PRED_BRANCH_EXEC_TAKEN", ARMV7_EVENT_54H) \
	__PMC_EV_ALIAS("OPS_ISSUED", ARMV7_EVENT_55H) \
	__PMC_EV_ALIAS("CYCLES_NO_INSTRUCTION", ARMV7_EVENT_56H) \
	__PMC_EV_ALIAS("INSTRUCTIONS_ISSUED_CYCLE", ARMV7_EVENT_57H) \
	__PMC_EV_ALIAS("CYCLES_STALLED_NEON_MRC", ARMV7_EVENT_58H) \
	__PMC_EV_ALIAS("CYCLES_STALLED_NEON_FULLQ", ARMV7_EVENT_59H) \
	__PMC_EV_ALIAS("CYCLES_NONIDLE_NEON_INT", ARMV7_EVENT_5AH) \
	__PMC_EV_ALIAS("PMUEXTIN0_EVT", ARMV7_EVENT_70H) \
	__PMC_EV_ALIAS("PMUEXTIN1_EVT", ARMV7_EVENT_71H) \
	__PMC_EV_ALIAS("PMUEXTIN_EVT", ARMV7_EVENT_72H)
#define __PMC_EV_ALIAS_ARMV7_CORTEX_A9() \
	__PMC_EV_ALIAS_ARMV7_COMMON() \
	__PMC_EV_ALIAS("JAVA_BYTECODE", ARMV7_EVENT_40H) \
	__PMC_EV_ALIAS("SOFTWARE_JAVA_BYTECODE", ARMV7_EVENT_41H) \
	__PMC_EV_ALIAS("JAZELLE_BACKWARD_BRANCH", ARMV7_EVENT_42H) \
	__PMC_EV_ALIAS("COHERENT_LINEFILL_MISSC", ARMV7_EVENT_50H) \
	__PMC_EV_ALIAS("COHERENT_LINEFILL_HITC", ARMV7_EVENT_51H) \
	__PMC_EV_ALIAS("INSTR_CACHE_DEPENDENT_STALL", ARMV7_EVENT_60H) \
	__PMC_EV_ALIAS("DATA_CACHE_DEPENDENT_STALL", ARMV7_EVENT_61H) \
	__PMC_EV_ALIAS("MAIN_TLB_MISS_STALL", ARMV7_EVENT_62H) \
	__PMC_EV_ALIAS("STREX_PASSED", ARMV7_EVENT_63H) \
	__PMC_EV_ALIAS("STREX_FAILED", ARMV7_EVENT_64H) \
	__PMC_EV_ALIAS("DATA_EVICTION", ARMV7_EVENT_65H) \
	__PMC_EV_ALIAS("ISSUE_DNOT_DISPATCH_ANY_INSTR", ARMV7_EVENT_66H) \
	__PMC_EV_ALIAS("ISSUE_IS_EMPTY", ARMV7_EVENT_67H) \
	__PMC_EV_ALIAS("INSTR_RENAMED", ARMV7_EVENT_68H) \
	__PMC_EV_ALIAS("PREDICTABLE_FUNCTION_RETURN", ARMV7_EVENT_6EH) \
	__PMC_EV_ALIAS("MAIN_EXECUTION_UNIT_PIPE", ARMV7_EVENT_70H) \
	__PMC_EV_ALIAS("SECOND_EXECUTION_UNIT_PIPE", ARMV7_EVENT_71H) \
	__PMC_EV_ALIAS("LOAD_STORE_PIPE", ARMV7_EVENT_72H) \
	__PMC_EV_ALIAS("FLOATING_POINT_INSTR_RENAMED", ARMV7_EVENT_73H) \
	__PMC_EV_ALIAS("NEON_INSTRS_RENAMED", ARMV7_EVENT_74H) \
	__PMC_EV_ALIAS("PLD_STALL", ARMV7_EVENT_80H) \
	__PMC_EV_ALIAS("WRITE_STALL", ARMV7_EVENT_81H) \
	__PMC_EV_ALIAS("INSTR_MAIN_TLB_MISS_STALL", ARMV7_EVENT_82H) \
	__PMC_EV_ALIAS("DATA_MAIN_TLB_MISS_STALL", ARMV7_EVENT_83H) \
	__PMC_EV_ALIAS("INSTR_MICRO_TLB_MISS_STALL", ARMV7_EVENT_84H) \
	__PMC_EV_ALIAS("DATA_MICRO_TLB_MISS_STALL", ARMV7_EVENT_85H) \
	__PMC_EV_ALIAS("DMB_STALL", ARMV7_EVENT_86H) \
	__PMC_EV_ALIAS("INTEGER_CORE_CLOCK_ENABLED", ARMV7_EVENT_8AH) \
	__PMC_EV_ALIAS("DATA_ENGINE_CLOCK_ENABLED", ARMV7_EVENT_8BH) \
	__PMC_EV_ALIAS("ISB", ARMV7_EVENT_90H) \
	__PMC_EV_ALIAS("DSB", ARMV7_EVENT_91H) \
	__PMC_EV_ALIAS("DMB", ARMV7_EVENT_92H) \
	__PMC_EV_ALIAS("EXTERNAL_INTERRUPT", ARMV7_EVENT_93H) \
	__PMC_EV_ALIAS("PLE_CACHE_LINE_REQ_COMPLETED", ARMV7_EVENT_A0H) \
	__PMC_EV_ALIAS("PLE_CACHE_LINE_REQ_SKIPPED", ARMV7_EVENT_A1H) \
	__PMC_EV_ALIAS("PLE_FIFO_FLUSH", ARMV7_EVENT_A2H) \
	__PMC_EV_ALIAS("PLE_REQUEST_COMPLETED", ARMV7_EVENT_A3H) \
	__PMC_EV_ALIAS("PLE_FIFO_OVERFLOW", ARMV7_EVENT_A4H) \
	__PMC_EV_ALIAS("PLE_REQUEST_PROGRAMMED", ARMV7_EVENT_A5H)
#define __PMC_EV_ALIAS_ARMV8_COMMON() \
	__PMC_EV_ALIAS("SW_INCR", ARMV8_EVENT_00H) \
	__PMC_EV_ALIAS("L1I_CACHE_REFILL", ARMV8_EVENT_01H) \
	__PMC_EV_ALIAS("L1I_TLB_REFILL", ARMV8_EVENT_02H) \
	__PMC_EV_ALIAS("L1D_CACHE_REFILL", ARMV8_EVENT_03H) \
	__PMC_EV_ALIAS("L1D_CACHE", ARMV8_EVENT_04H) \
	__PMC_EV_ALIAS("L1D_TLB_REFILL", ARMV8_EVENT_05H) \
	__PMC_EV_ALIAS("INST_RETIRED", ARMV8_EVENT_08H) \
	__PMC_EV_ALIAS("EXC_TAKEN", ARMV8_EVENT_09H) \
	__PMC_EV_ALIAS("EXC_RETURN", ARMV8_EVENT_0AH) \
	__PMC_EV_ALIAS("CID_WRITE_RETIRED", ARMV8_EVENT_0BH) \
	__PMC_EV_ALIAS("BR_MIS_PRED", ARMV8_EVENT_10H) \
	__PMC_EV_ALIAS("CPU_CYCLES", ARMV8_EVENT_11H) \
	__PMC_EV_ALIAS("BR_PRED", ARMV8_EVENT_12H) \
	__PMC_EV_ALIAS("MEM_ACCESS", ARMV8_EVENT_13H) \
	__PMC_EV_ALIAS("L1I_CACHE", ARMV8_EVENT_14H) \
	__PMC_EV_ALIAS("L1D_CACHE_WB", ARMV8_EVENT_15H) \
	__PMC_EV_ALIAS("L2D_CACHE", ARMV8_EVENT_16H) \
	__PMC_EV_ALIAS("L2D_CACHE_REFILL", ARMV8_EVENT_17H) \
	__PMC_EV_ALIAS("L2D_CACHE_WB", ARMV8_EVENT_18H) \
	__PMC_EV_ALIAS("BUS_ACCESS", ARMV8_EVENT_19H) \
	__PMC_EV_ALIAS("MEMORY_ERROR", ARMV8_EVENT_1AH) \
	__PMC_EV_ALIAS("BUS_CYCLES", ARMV8_EVENT_1DH) \
	__PMC_EV_ALIAS("CHAIN", ARMV8_EVENT_1EH) \
	__PMC_EV_ALIAS("BUS_ACCESS_LD", ARMV8_EVENT_60H) \
	__PMC_EV_ALIAS("BUS_ACCESS_ST", ARMV8_EVENT_61H) \
	__PMC_EV_ALIAS("BR_INDIRECT_SPEC", ARMV8_EVENT_7AH) \
	__PMC_EV_ALIAS("EXC_IRQ", ARMV8_EVENT_86H) \
	__PMC_EV_ALIAS("EXC_FIQ", ARMV8_EVENT_87H)
#define __PMC_EV_ALIAS_ARMV8_CORTEX_A53() \
	__PMC_EV_ALIAS_ARMV8_COMMON() \
	__PMC_EV_ALIAS("LD_RETIRED", ARMV8_EVENT_06H) \
	__PMC_EV_ALIAS("ST_RETIRED", ARMV8_EVENT_07H) \
	__PMC_EV_ALIAS("PC_WRITE_RETIRED", ARMV8_EVENT_0CH) \
	__PMC_EV_ALIAS("BR_IMMED_RETIRED", ARMV8_EVENT_0DH) \
	__PMC_EV_ALIAS("BR_RETURN_RETIRED", ARMV8_EVENT_0EH) \
	__PMC_EV_ALIAS("UNALIGNED_LDST_RETIRED", ARMV8_EVENT_0FH)
#define __PMC_EV_ALIAS_ARMV8_CORTEX_A57_A76() \
	__PMC_EV_ALIAS_ARMV8_COMMON() \
	__PMC_EV_ALIAS("INST_SPEC", ARMV8_EVENT_1BH) \
	__PMC_EV_ALIAS("TTBR_WRITE_RETIRED", ARMV8_EVENT_1CH) \
	__PMC_EV_ALIAS("L1D_CACHE_LD", ARMV8_EVENT_40H) \
	__PMC_EV_ALIAS("L1D_CACHE_ST", ARMV8_EVENT_41H) \
	__PMC_EV_ALIAS("L1D_CACHE_REFILL_LD", ARMV8_EVENT_42H) \
	__PMC_EV_ALIAS("L1D_CACHE_REFILL_ST", ARMV8_EVENT_43H) \
	__PMC_EV_ALIAS("L1D_CACHE_WB_VICTIM", ARMV8_EVENT_46H) \
	__PMC_EV_ALIAS("L1D_CACHE_WB_CLEAN", ARMV8_EVENT_47H) \
	__PMC_EV_ALIAS("L1D_CACHE_INVAL", ARMV8_EVENT_48H) \
	__PMC_EV_ALIAS("L1D_TLB_REFILL_LD", ARMV8_EVENT_4CH) \
	__PMC_EV_ALIAS("L1D_TLB_REFILL_ST", ARMV8_EVENT_4DH) \
	__PMC_EV_ALIAS("L2D_CACHE_LD", ARMV8_EVENT_50H) \
	__PMC_EV_ALIAS("L2D_CACHE_ST", ARMV8_EVENT_51H) \
	__PMC_EV_ALIAS("L2D_CACHE_REFILL_LD", ARMV8_EVENT_52H) \
	__PMC_EV_ALIAS("L2D_CACHE_REFILL_ST", ARMV8_EVENT_53H) \
	__PMC_EV_ALIAS("L2D_CACHE_WB_VICTIM", ARMV8_EVENT_56H) \
	__PMC_EV_ALIAS("L2D_CACHE_WB_CLEAN", ARMV8_EVENT_57H) \
	__PMC_EV_ALIAS("L2D_CACHE_INVAL", ARMV8_EVENT_58H) \
	__PMC_EV_ALIAS("MEM_ACCESS_LD", ARMV8_EVENT_66H) \
	__PMC_EV_ALIAS("MEM_ACCESS_ST", ARMV8_EVENT_67H) \
	__PMC_EV_ALIAS("UNALIGNED_LD_SPEC", ARMV8_EVENT_68H) \
	__PMC_EV_ALIAS("UNALIGNED_ST_SPEC", ARMV8_EVENT_69H) \
	__PMC_EV_ALIAS("UNALIGNED_LDST_SPEC", ARMV8_EVENT_6AH) \
	__PMC_EV_ALIAS("LDREX_SPEC", ARMV8_EVENT_6CH) \
	__PMC_EV_ALIAS("STREX_PASS_SPEC", ARMV8_EVENT_6DH) \
	__PMC_EV_ALIAS("STREX_FAIL_SPEC", ARMV8_EVENT_6EH) \
	__PMC_EV_ALIAS("LD_SPEC", ARMV8_EVENT_70H) \
	__PMC_EV_ALIAS("ST_SPEC", ARMV8_EVENT_71H) \
	__PMC_EV_ALIAS("LDST_SPEC", ARMV8_EVENT_72H) \
	__PMC_EV_ALIAS("DP_SPEC", ARMV8_EVENT_73H) \
	__PMC_EV_ALIAS("ASE_SPEC", ARMV8_EVENT_74H) \
	__PMC_EV_ALIAS("VFP_SPEC", ARMV8_EVENT_75H) \
	__PMC_EV_ALIAS("PC_WRITE_SPEC", ARMV8_EVENT_76H) \
	__PMC_EV_ALIAS("CRYPTO_SPEC", ARMV8_EVENT_77H) \
	__PMC_EV_ALIAS("BR_IMMED_SPEC", ARMV8_EVENT_78H) \
	__PMC_EV_ALIAS("BR_RETURN_SPEC", ARMV8_EVENT_79H) \
	__PMC_EV_ALIAS("ISB_SPEC", ARMV8_EVENT_7CH) \
	__PMC_EV_ALIAS("DSB_SPEC", ARMV8_EVENT_7DH) \
	__PMC_EV_ALIAS("DMB_SPEC", ARMV8_EVENT_7EH) \
	__PMC_EV_ALIAS("EXC_UNDEF", ARMV8_EVENT_81H) \
	__PMC_EV_ALIAS("EXC_SVC", ARMV8_EVENT_82H) \
	__PMC_EV_ALIAS("EXC_PABORT", ARMV8_EVENT_83H) \
	__PMC_EV_ALIAS("EXC_DABORT", ARMV8_EVENT_84H) \
	__PMC_EV_ALIAS("EXC_SMC", ARMV8_EVENT_88H) \
	__PMC_EV_ALIAS("EXC_HVC", ARMV8_EVENT_8AH) \
	__PMC_EV_ALIAS("EXC_TRAP_PABORT", ARMV8_EVENT_8BH) \
	__PMC_EV_ALIAS("EXC_TRAP_DABORT", ARMV8_EVENT_8CH) \
	__PMC_EV_ALIAS("EXC_TRAP_OTHER", ARMV8_EVENT_8DH) \
	__PMC_EV_ALIAS("EXC_TRAP_IRQ", ARMV8_EVENT_8EH) \
	__PMC_EV_ALIAS("EXC_TRAP_FIQ", ARMV8_EVENT_8FH) \
	__PMC_EV_ALIAS("RC_LD_SPEC", ARMV8_EVENT_90H) \
	__PMC_EV_ALIAS("RC_ST_SPEC", ARMV8_EVENT_91H)
#define __PMC_EV_ALIAS_ARMV8_CORTEX_A57() \
	__PMC_EV_ALIAS_ARMV8_CORTEX_A57_A76() \
	__PMC_EV_ALIAS("BUS_ACCESS_SHARED", ARMV8_EVENT_62H) \
	__PMC_EV_ALIAS("BUS_ACCESS_NOT_SHARED", ARMV8_EVENT_63H) \
	__PMC_EV_ALIAS("BUS_ACCESS_NORMAL", ARMV8_EVENT_64H) \
	__PMC_EV_ALIAS("BUS_ACCESS_PERIPH", ARMV8_EVENT_65H)
#define __PMC_EV_ALIAS_ARMV8_CORTEX_A76() \
	__PMC_EV_ALIAS_ARMV8_CORTEX_A57_A76() \
	__PMC_EV_ALIAS("L2D_CACHE_ALLOCATE", ARMV8_EVENT_20H) \
	__PMC_EV_ALIAS("BR_RETIRED", ARMV8_EVENT_21H) \
	__PMC_EV_ALIAS("BR_MIS_PRED_RETIRED", ARMV8_EVENT_22H) \
	__PMC_EV_ALIAS("STALL_FRONTEND", ARMV8_EVENT_23H) \
	__PMC_EV_ALIAS("STALL_BACKEND", ARMV8_EVENT_24H) \
	__PMC_EV_ALIAS("L1D_TLB", ARMV8_EVENT_25H) \
	__PMC_EV_ALIAS("L1I_TLB", ARMV8_EVENT_26H) \
	__PMC_EV_ALIAS("L3D_CACHE_ALLOCATE", ARMV8_EVENT_29H) \
	__PMC_EV_ALIAS("L3D_CACHE_REFILL", ARMV8_EVENT_2AH) \
	__PMC_EV_ALIAS("L3D_CACHE", ARMV8_EVENT_2BH) \
	__PMC_EV_ALIAS("L2D_TLB_REFILL", ARMV8_EVENT_2DH) \
	__PMC_EV_ALIAS("L2D_TLB", ARMV8_EVENT_2FH) \
	__PMC_EV_ALIAS("REMOTE_ACCESS", ARMV8_EVENT_31H) \
	__PMC_EV_ALIAS("DTLB_WALK", ARMV8_EVENT_34H) \
	__PMC_EV_ALIAS("ITLB_WALK", ARMV8_EVENT_35H) \
	__PMC_EV_ALIAS("LL_CACHE_RD", ARMV8_EVENT_36H) \
	__PMC_EV_ALIAS("LL_CACHE_MISS_RD", ARMV8_EVENT_37H) \
	__PMC_EV_ALIAS("L1D_CACHE_REFILL_INNER", ARMV8_EVENT_44H) \
	__PMC_EV_ALIAS("L1D_CACHE_REFILL_OUTER", ARMV8_EVENT_45H) \
	__PMC_EV_ALIAS("L1D_TLB_RD", ARMV8_EVENT_4EH) \
	__PMC_EV_ALIAS("L1D_TLB_WR", ARMV8_EVENT_4FH) \
	__PMC_EV_ALIAS("L2D_TLB_REFILL_RD", ARMV8_EVENT_5CH) \
	__PMC_EV_ALIAS("L2D_TLB_REFILL_WR", ARMV8_EVENT_5DH) \
	__PMC_EV_ALIAS("L2D_TLB_RD", ARMV8_EVENT_5EH) \
	__PMC_EV_ALIAS("L2D_TLB_WR", ARMV8_EVENT_5FH) \
	__PMC_EV_ALIAS("STREX_SPEC", ARMV8_EVENT_6FH) \
	__PMC_EV_ALIAS("L3_CACHE_RD", ARMV8_EVENT_A0H)

#define PMC_EV_DYN_COUNT 0x1000

#define __PMC_EVENTS() \
	__PMC_EV_BLOCK(TSC, 0x01000) \
	__PMC_EV_TSC() \
	__PMC_EV_BLOCK(K8, 0x02080) \
	__PMC_EV_K8() \
	__PMC_EV_BLOCK(IAF, 0x10000) \
	__PMC_EV_IAF() \
	__PMC_EV_BLOCK(ARMV7, 0x14000) \
	__PMC_EV_ARMV7() \
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
#define PMC_EV_K8_FIRST    PMC_EV_K8_FP_DISPATCHED_FPU_OPS
#define PMC_EV_K8_LAST     PMC_EV_K8_NB_HT_BUS2_BANDWIDTH
#define PMC_EV_ARMV7_FIRST PMC_EV_ARMV7_EVENT_00H
#define PMC_EV_ARMV7_LAST  PMC_EV_ARMV7_EVENT_FFH
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
extern char pmc_cpuid[PMC_CPUID_LEN];

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

/*
 * FreeBSD's pmu-events interface, backed on Linux by the CPU's own event
 * tables: libpfm4's for the core PMU and the kernel's sysfs PMU event files
 * (docs/freebsd-compat.md).  pmc_pmu_enabled() is nonzero when the machine
 * has such a table (a hardware PMU); without one the printers print nothing
 * and pmc_pmu_pmcallocate() answers ENOENT (an errno value, as FreeBSD's).
 */
int pmc_pmu_enabled(void);
void pmc_pmu_print_counters(const char *_event_name);
void pmc_pmu_print_counter_desc(const char *_event_name);
void pmc_pmu_print_counter_desc_long(const char *_event_name);
void pmc_pmu_print_counter_full(const char *_event_name);
uint64_t pmc_pmu_sample_rate_get(const char *_event_name);
int pmc_pmu_pmcallocate(const char *_event_name, struct pmc_op_pmcallocate *_pm);
const char *pmc_pmu_event_get_by_idx(const char *_cpuid, int _idx);
int pmc_pmu_idx_get_by_event(const char *_cpuid, const char *_event);

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
int pmc_set_user_stack(pmc_id_t _pmc, uint32_t _bytes);

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

/*
 * pmc_sysctlbyname — FreeBSD's sysctlbyname(3) for the names pmc tools
 * read: kern.hwpmc.{callchaindepth,logbuffersize,nbuffers_pcpu,nsamples,
 * mincount} (int), kern.hwpmc.cpuid (string), hw.ncpu (int),
 * machdep.hlt_cpus (a cpuset_t of the CPUs not online) and
 * machdep.logical_cpus_mask (unsigned int).  Read-only (EPERM); other names
 * ENOENT.  <sys/sysctl.h> of the libpmc-freebsd include set maps
 * sysctlbyname() to it.
 */
int pmc_sysctlbyname(const char *_name, void *_oldp, size_t *_oldlenp,
    const void *_newp, size_t _newlen);
const char *pmc_setting_name(int _i);

#ifdef __cplusplus
}
#endif

#endif /* _PMC_H_ */
