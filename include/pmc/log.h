/*
 * pmc/log.h — libpmc's Linux extensions of the log file: compression, the
 * command line in its header, the writer's progress, the end of a
 * recording.  Reading a log is <pmclog.h>.
 *
 * Not in FreeBSD's libpmc.  Same conventions as <pmc.h>: 0 or -1 with
 * errno, and pmc_errmsg() says why.  Included by <pmc.h>.
 */
/* <pmc.h> first: it includes this header after what this one uses. */
#include "../pmc.h"

#ifndef _PMC_LOG_H_
#define _PMC_LOG_H_

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Log extensions.  pmc_configure_logfile_flags is pmc_configure_logfile with
 * options (PMC_LOGF_ZSTD: zstd-compressed, still streamable).
 * pmc_log_set_cmdline records the command line in the log header (call it
 * before configuring).  pmc_log_stats reports the writer's progress:
 * samples, lost samples, records, bytes, and the first write error (errno).
 */
#define PMC_LOGF_ZSTD 0x1
PMC_API int pmc_configure_logfile_flags(int _fd, unsigned _flags);
PMC_API int pmc_log_set_cmdline(const char *_cmdline);
struct pmc_log_stats {
	uint64_t pl_samples;
	uint64_t pl_lost;
	uint64_t pl_records;
	uint64_t pl_bytes;
	int pl_error;
};
PMC_API int pmc_log_stats(struct pmc_log_stats *_st);
/*
 * pmc_log_finish ends a recording: every ring drained and written
 * (pmc_flush_logfile), the log closed (pmc_close_logfile), and the final
 * counts into *_st (NULL: not wanted): what the log holds, the CLOSELOG
 * record included, so pl_bytes is the size of the log (a pipe's too).  The log is closed even when writing failed;
 * 0, or -1 with errno the first failure (a flush error, the writer's first
 * write error, a close error).  The PMCs should be stopped first.
 */
PMC_API int pmc_log_finish(struct pmc_log_stats *_st);

#ifdef __cplusplus
}
#endif

#endif /* _PMC_LOG_H_ */
