/*
 * <sys/gmon.h> of the libpmc-freebsd include set: FreeBSD's gprof(1) file
 * layout (struct gmonhdr with histcounter_type, struct rawarc, HISTCOUNTER)
 * and FUNCTION_ALIGNMENT of <machine/profile.h>.  It does not include the
 * C library's <sys/gmon.h>: glibc's header describes glibc's own profiling
 * run time, and FreeBSD tools write FreeBSD's layout.  Binutils' gprof reads
 * glibc's "gmon" tagged format, not this one (docs/freebsd-compat.md).
 */
#ifndef _PMC_FREEBSD_SYS_GMON_H_
#define _PMC_FREEBSD_SYS_GMON_H_

struct gmonhdr {
	unsigned long lpc;	/* base pc address of sample buffer */
	unsigned long hpc;	/* max pc address of sampled buffer */
	int ncnt;		/* size of sample buffer (plus this header) */
	int version;		/* version number */
	int profrate;		/* profiling clock rate */
	int histcounter_type;	/* size (in bits) and sign of HISTCOUNTER */
	int spare[3];		/* reserved */
};
#define GMONVERSION 0x00051879

typedef unsigned short HISTCOUNTER;
#define HISTFRACTION 2

struct rawarc {
	unsigned long raw_frompc;
	unsigned long raw_selfpc;
	long raw_count;
};

#ifndef FUNCTION_ALIGNMENT
#if defined(__x86_64__) || defined(__i386__)
#define FUNCTION_ALIGNMENT 16
#else
#define FUNCTION_ALIGNMENT 4
#endif
#endif
#endif
