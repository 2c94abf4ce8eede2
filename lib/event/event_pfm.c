/*
 * event_pfm.c — vendor event names (INST_RETIRED.ANY,
 * amd64_fam19h_zen3::RETIRED_INSTRUCTIONS) through libpfm4's tables, which
 * encode them for perf_event_open (PFM_OS_PERF_EVENT).  Only core PMUs that
 * libpfm4 reports present on this host are used.  This file sees only
 * libpfm4's headers (see event_pfm.h); event_parse.c turns the encoding into
 * a struct pmc_evspec.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <perfmon/pfmlib_perf_event.h>

#include "common/error.h"
#include "event/event_pfm.h"

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_ok;

static void pfm_init_once(void)
{
	pfm_ok = pfm_initialize() == PFM_SUCCESS;
}

static int core_info(int p, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return pfm_get_pmu_info((pfm_pmu_t)p, info) == PFM_SUCCESS && info->is_present &&
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
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (ret == PFM_ERR_NOTFOUND)
		return -ENOENT;
	if (ret != PFM_SUCCESS)
		return pmc__err(-EINVAL, "vendor event '%s': %s", name, pfm_strerror(ret));
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
		for (int i = info.first_event; i != -1; i = pfm_get_event_next(i)) {
			pfm_event_info_t e;
			int rc;
			memset(&e, 0, sizeof(e));
			e.size = sizeof(e);
			if (pfm_get_event_info(i, PFM_OS_PERF_EVENT, &e) != PFM_SUCCESS)
				continue;
			if ((rc = cb(info.name, e.name, e.desc ? e.desc : "", arg)) != 0)
				return rc;
		}
	}
	return 0;
}
