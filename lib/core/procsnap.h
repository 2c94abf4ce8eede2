/*
 * procsnap.h — the /proc snapshot a log starts with (procsnap.c): the
 * state of processes that existed before the log, so a report needs
 * nothing of this machine.  Records go to lw; callers hold the core lock.
 */
#ifndef PMC_CORE_PROCSNAP_H
#define PMC_CORE_PROCSNAP_H

#include <stddef.h>
#include <sys/types.h>

#include "log/writer.h"

/* /proc/PID/exe for the PMCATTACH record's path ("" when unknown). */
void pmc__procsnap_exe_path(pid_t pid, char *buf, size_t len);
/* A target's current threads, names and mappings (COMM, MAP_IN); for a
 * thread target, its own name and its process's mappings. */
void pmc__procsnap_process(struct pmc_logw *lw, pid_t pid, int is_thread);
/* Every process (PROC_CREATE, THR_CREATE, COMM, MAP_IN), for system-wide
 * sampling: hwpmc's pmc_log_all_process_mappings. */
void pmc__procsnap_all(struct pmc_logw *lw);
/* KSYMSRC: this kernel's /proc/kallsyms, release and build id. */
void pmc__procsnap_ksymsrc(struct pmc_logw *lw);

#endif
