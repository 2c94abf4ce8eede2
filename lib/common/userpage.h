/*
 * userpage.h — the self-monitoring read protocol of struct
 * perf_event_mmap_page, written once in libpmc for every backend.
 *
 * pmc__userpage_read() is the reader of the kernel's documented protocol
 * (include/uapi/linux/perf_event.h): retry while the `lock` seqcount moves
 * (or is odd: an update is in progress), add the sign-extended hardware
 * counter (pmc_width bits) behind `index` to `offset`, and advance
 * time_enabled/time_running by the time since the last update using the
 * time counter scaled by time_mult/time_shift plus time_offset
 * (cap_user_time).  The backend supplies the two hardware reads through one
 * callback: rdpmc(arg, n) reads hardware counter n (page->index - 1; rdpmc
 * on x86, PMEVCNTR<n>_EL0 / PMCCNTR_EL0 on arm64) and
 * rdpmc(arg, PMC_USERPAGE_TIMER) reads the time counter (TSC, CNTVCT_EL0).
 *
 * Returns 0 with the raw (unscaled) value and the times; -EOPNOTSUPP when
 * the counter is on hardware but the page does not allow user reads (the
 * caller falls back to the read system call / backend read); -EINVAL for a
 * malformed page; -EAGAIN if the page never held still.
 */
#ifndef PMC_CORE_USERPAGE_H
#define PMC_CORE_USERPAGE_H

#include <stdint.h>
#include <linux/perf_event.h>

#define PMC_USERPAGE_TIMER 0xffffffffu

int pmc__userpage_read(struct perf_event_mmap_page *pc,
		       uint64_t (*rdpmc)(void *arg, uint32_t idx), void *arg,
		       uint64_t *value, uint64_t *enabled, uint64_t *running);

#endif
