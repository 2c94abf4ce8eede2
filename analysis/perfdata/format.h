/*
 * format.h — perf.data's on-disk format: the constants and layouts the
 * reader (reader*.c) and the writer (convert_to_perf.c) share.  Our own
 * names (PD_*) rather than <linux/perf_event.h>'s, because the file format
 * outlives any one kernel header (BRANCH_COUNTERS, COMPRESSED2 ... are newer than the
 * headers of many build hosts) and because perf's user records (64+) and
 * feature bits are not in any system header.  docs/perfdata.md is the prose.
 */
#ifndef PMC_PERFDATA_FORMAT_H
#define PMC_PERFDATA_FORMAT_H

#include <stdint.h>

#include "common/perf_sample.h"   /* the sample layout bits: one definition */

#define PD_MAGIC2          0x32454c4946524550ULL   /* "PERFILE2" little-endian */
#define PD_MAGIC2_SWAPPED  0x50455246494c4532ULL
#define PD_FILE_HDR_SIZE   104                     /* struct perf_file_header */
#define PD_PIPE_HDR_SIZE   16                      /* struct perf_pipe_file_header */

#define PD_ATTR_SIZE_VER0  64
#define PD_ATTR_SIZE_MAX   4096                    /* more than any kernel's attr */

/* perf_event_attr.type */
#define PD_TYPE_HARDWARE   0
#define PD_TYPE_SOFTWARE   1
#define PD_TYPE_TRACEPOINT 2
#define PD_TYPE_HW_CACHE   3
#define PD_TYPE_RAW        4
#define PD_TYPE_BREAKPOINT 5

/* perf_event_attr's bitfield word (bit numbers) */
#define PD_ATTR_DISABLED        (1ULL << 0)
#define PD_ATTR_INHERIT         (1ULL << 1)
#define PD_ATTR_EXCLUDE_USER    (1ULL << 4)
#define PD_ATTR_EXCLUDE_KERNEL  (1ULL << 5)
#define PD_ATTR_EXCLUDE_HV      (1ULL << 6)
#define PD_ATTR_EXCLUDE_IDLE    (1ULL << 7)
#define PD_ATTR_MMAP            (1ULL << 8)
#define PD_ATTR_COMM            (1ULL << 9)
#define PD_ATTR_FREQ            (1ULL << 10)
#define PD_ATTR_TASK            (1ULL << 13)
#define PD_ATTR_SAMPLE_ID_ALL   (1ULL << 18)
#define PD_ATTR_EXCLUDE_GUEST   (1ULL << 20)
#define PD_ATTR_EXCLUDE_CALLCHAIN_USER (1ULL << 22)
#define PD_ATTR_MMAP2           (1ULL << 23)
#define PD_ATTR_COMM_EXEC       (1ULL << 24)
#define PD_ATTR_USE_CLOCKID     (1ULL << 25)
#define PD_ATTR_KSYMBOL         (1ULL << 29)

/* perf_event_attr field offsets */
#define PD_AOFF_TYPE            0
#define PD_AOFF_SIZE            4
#define PD_AOFF_CONFIG          8
#define PD_AOFF_PERIOD          16
#define PD_AOFF_SAMPLE_TYPE     24
#define PD_AOFF_READ_FORMAT     32
#define PD_AOFF_FLAGS           40
#define PD_AOFF_WAKEUP          48
#define PD_AOFF_BP_TYPE         52
#define PD_AOFF_CONFIG1         56
#define PD_AOFF_CONFIG2         64
#define PD_AOFF_BRANCH_TYPE     72   /* VER1 = 72 */
#define PD_AOFF_REGS_USER       80   /* VER2 = 80 */
#define PD_AOFF_STACK_USER      88
#define PD_AOFF_CLOCKID         92
#define PD_AOFF_REGS_INTR       96   /* VER3 = 96 */
#define PD_AOFF_AUX_WATERMARK   104  /* VER4 = 104 */
#define PD_AOFF_MAX_STACK       108
#define PD_AOFF_AUX_SAMPLE_SIZE 112  /* VER5 = 112 */
#define PD_AOFF_SIG_DATA        120  /* VER6 = 120 */
#define PD_AOFF_CONFIG3         128  /* VER7 = 128, VER8 = 136 */
#define PD_ATTR_SIZE_WRITE      136

/* sample_type, read_format and branch_sample_type bits: PSAMPLE_*
 * (lib/common/perf_sample.h) */

/* callchain context markers: PSAMPLE_CONTEXT_* (lib/common/perf_sample.h) */

/* perf_event_header.misc */
#define PD_MISC_CPUMODE_MASK    7
#define PD_MISC_KERNEL          1
#define PD_MISC_USER            2
#define PD_MISC_HYPERVISOR      3
#define PD_MISC_GUEST_KERNEL    4
#define PD_MISC_GUEST_USER      5
#define PD_MISC_MMAP_DATA       (1 << 13)
#define PD_MISC_COMM_EXEC       (1 << 13)
#define PD_MISC_SWITCH_OUT      (1 << 13)
#define PD_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#define PD_MISC_MMAP_BUILD_ID   (1 << 14)
#define PD_MISC_BUILD_ID_SIZE   (1 << 15)

/* record types: the kernel's ... */
#define PD_REC_MMAP             1
#define PD_REC_LOST             2
#define PD_REC_COMM             3
#define PD_REC_EXIT             4
#define PD_REC_THROTTLE         5
#define PD_REC_UNTHROTTLE       6
#define PD_REC_FORK             7
#define PD_REC_READ             8
#define PD_REC_SAMPLE           9
#define PD_REC_MMAP2            10
#define PD_REC_AUX              11
#define PD_REC_ITRACE_START     12
#define PD_REC_LOST_SAMPLES     13
#define PD_REC_SWITCH           14
#define PD_REC_SWITCH_CPU_WIDE  15
#define PD_REC_NAMESPACES       16
#define PD_REC_KSYMBOL          17
#define PD_REC_BPF_EVENT        18
#define PD_REC_CGROUP           19
#define PD_REC_TEXT_POKE        20
#define PD_REC_AUX_OUTPUT_HW_ID 21
/* ... and perf's own (user records) */
#define PD_REC_USER_START       64
#define PD_REC_HEADER_ATTR      64
#define PD_REC_HEADER_EVENT_TYPE 65
#define PD_REC_TRACING_DATA     66
#define PD_REC_HEADER_BUILD_ID  67
#define PD_REC_FINISHED_ROUND   68
#define PD_REC_ID_INDEX         69
#define PD_REC_AUXTRACE_INFO    70
#define PD_REC_AUXTRACE         71
#define PD_REC_AUXTRACE_ERROR   72
#define PD_REC_THREAD_MAP       73
#define PD_REC_CPU_MAP          74
#define PD_REC_STAT_CONFIG      75
#define PD_REC_STAT             76
#define PD_REC_STAT_ROUND       77
#define PD_REC_EVENT_UPDATE     78
#define PD_REC_TIME_CONV        79
#define PD_REC_HEADER_FEATURE   80
#define PD_REC_COMPRESSED       81
#define PD_REC_FINISHED_INIT    82
#define PD_REC_COMPRESSED2      83

#define PD_EVENT_UPDATE_NAME    2

/* feature bits (adds_features) */
#define PD_FEAT_TRACING_DATA    1
#define PD_FEAT_BUILD_ID        2
#define PD_FEAT_HOSTNAME        3
#define PD_FEAT_OSRELEASE       4
#define PD_FEAT_VERSION         5
#define PD_FEAT_ARCH            6
#define PD_FEAT_NRCPUS          7
#define PD_FEAT_CPUDESC         8
#define PD_FEAT_CPUID           9
#define PD_FEAT_TOTAL_MEM       10
#define PD_FEAT_CMDLINE         11
#define PD_FEAT_EVENT_DESC      12
#define PD_FEAT_SAMPLE_TIME     21
#define PD_FEAT_CLOCKID         23
#define PD_FEAT_COMPRESSED      27
#define PD_FEAT_CLOCK_DATA      29
#define PD_FEAT_BITS            256

#define PD_NAME_ALIGN           64   /* strings in features are padded to this */

#endif
