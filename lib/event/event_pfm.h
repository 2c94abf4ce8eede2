/*
 * event_pfm.h — the libpfm4 side of vendor events, kept apart from the rest
 * of lib/event because libpfm4's <perfmon/perf_event.h> and the kernel's
 * <linux/perf_event.h> cannot be included in the same file.
 */
#ifndef PMC_EVENT_PFM_H
#define PMC_EVENT_PFM_H

#include <stddef.h>
#include <stdint.h>

struct ev_pfm_enc {
	uint32_t type;
	uint64_t config, config1, config2;
	int exclude_user, exclude_kernel, exclude_hv;
};

/* 1 if libpfm4 reports a core PMU present on this host. */
int ev__pfm_core_present(void);
/* 0, -ENOENT (libpfm4 does not know the name; no reason recorded) or
 * -EINVAL (reason recorded). */
int ev__pfm_encode(const char *name, struct ev_pfm_enc *enc);
/* Every event of every present core PMU; a non-zero cb return stops the walk. */
int ev__pfm_walk(int (*cb)(const char *pmu, const char *event, const char *desc, void *arg),
		 void *arg);

#endif
