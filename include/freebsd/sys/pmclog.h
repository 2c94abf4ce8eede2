/*
 * <sys/pmclog.h> of the libpmc-freebsd include set: hwpmc's record types,
 * PMCLOG_HEADER_* and the callchain flag macros, all in libpmc's
 * <pmclog.h>.  See docs/freebsd-compat.md.
 */
#ifndef _PMC_FREEBSD_SYS_PMCLOG_H_
#define _PMC_FREEBSD_SYS_PMCLOG_H_

#include <sys/pmc.h>
#include <pmclog.h>

#endif
