/*
 * event_pfm.c — vendor event names (INST_RETIRED.ANY,
 * amd64_fam19h_zen3::RETIRED_INSTRUCTIONS) through libpfm4's tables, which
 * encode them for perf_event_open (PFM_OS_PERF_EVENT).  Only core PMUs that
 * libpfm4 reports present on this host are used.  This file sees only
 * libpfm4's headers (see event_pfm.h); event_parse.c turns the encoding into
 * a struct pmc_evspec.
 *
 * libpfm4 is opened on first use (common/dynlib.h), not linked: loading it
 * applies 41 000 relocations to its tables, which cost every `pmc stat -e
 * task-clock` more than the rest of its start-up while only vendor event
 * names need it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <perfmon/pfmlib_perf_event.h>

#include "common/dynlib.h"
#include "common/error.h"
#include "event/event_pfm.h"

/* The soname of the API these headers describe. */
#define PFM_SONAME "libpfm.so.4"
_Static_assert(LIBPFM_VERSION >> 16 == 4, "libpfm4's headers name API 4: libpfm.so.4");

/* The functions used, typed by libpfm4's own declarations. */
static struct {
	__typeof__(pfm_initialize) *initialize;
	__typeof__(pfm_get_pmu_info) *get_pmu_info;
	__typeof__(pfm_get_os_event_encoding) *get_os_event_encoding;
	__typeof__(pfm_strerror) *errstr;
	__typeof__(pfm_get_event_next) *get_event_next;
	__typeof__(pfm_get_event_info) *get_event_info;
} pfm;

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_ok;
static char pfm_why[192];   /* why no core PMU can be used */

static void pfm_init_once(void)
{
	static const char *const names[] = {
		"pfm_initialize", "pfm_get_pmu_info", "pfm_get_os_event_encoding",
		"pfm_strerror", "pfm_get_event_next", "pfm_get_event_info",
	};
	void *f[sizeof(names) / sizeof(names[0])];
	int ret;

	if (pmc__dl_load(PFM_SONAME, names, f, sizeof(names) / sizeof(names[0])) != 0) {
		snprintf(pfm_why, sizeof(pfm_why), "%s", pmc_errmsg());
		pmc__clear_reason();
		return;
	}
	PMC_DL_SET(pfm.initialize, f[0]);
	PMC_DL_SET(pfm.get_pmu_info, f[1]);
	PMC_DL_SET(pfm.get_os_event_encoding, f[2]);
	PMC_DL_SET(pfm.errstr, f[3]);
	PMC_DL_SET(pfm.get_event_next, f[4]);
	PMC_DL_SET(pfm.get_event_info, f[5]);
	if ((ret = pfm.initialize()) != PFM_SUCCESS) {
		snprintf(pfm_why, sizeof(pfm_why), "libpfm4: %s", pfm.errstr(ret));
		return;
	}
	snprintf(pfm_why, sizeof(pfm_why), "libpfm4 finds no core PMU on this machine");
	pfm_ok = 1;
}

static int core_info(int p, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm.get_pmu_info((pfm_pmu_t)p, info) == PFM_SUCCESS && info->is_present &&
	       info->type == PFM_PMU_TYPE_CORE;
}

int ev__pfm_core_present(void)
{
	pfm_pmu_info_t info;

	pthread_once(&pfm_once, pfm_init_once);
	if (!pfm_ok)
		return 0;
	for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; p++)
		if (core_info(p, &info))
			return 1;
	return 0;
}

int ev__pfm_encode(const char *name, struct ev_pfm_enc *enc)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	int ret;

	if (!ev__pfm_core_present())
		return -ENOENT;      /* not a vendor event here: the caller tries other kinds */
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	ret = pfm.get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (ret == PFM_ERR_NOTFOUND)
		return -ENOENT;
	if (ret != PFM_SUCCESS)
		return pmc__err(-EINVAL, "vendor event '%s': %s", name, pfm.errstr(ret));
	enc->type = attr.type;
	enc->config = attr.config;
	enc->config1 = attr.config1;
	enc->config2 = attr.config2;
	enc->exclude_user = attr.exclude_user;
	enc->exclude_kernel = attr.exclude_kernel;
	enc->exclude_hv = attr.exclude_hv;
	return 0;
}

int ev__pfm_walk(int (*cb)(const char *pmu, const char *event, const char *desc, void *arg),
		 void *arg)
{
	pfm_pmu_info_t info;

	if (!ev__pfm_core_present())
		return 0;
	for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; p++) {
		if (!core_info(p, &info))
			continue;
		for (int i = info.first_event; i != -1; i = pfm.get_event_next(i)) {
			pfm_event_info_t e;
			int rc;
			memset(&e, 0, sizeof(e));
			e.size = sizeof(e);
			if (pfm.get_event_info(i, PFM_OS_PERF_EVENT, &e) != PFM_SUCCESS)
				continue;
			if ((rc = cb(info.name, e.name, e.desc ? e.desc : "", arg)) != 0)
				return rc;
		}
	}
	return 0;
}
