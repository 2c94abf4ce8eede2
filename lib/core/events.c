/* events.c — lib/event's parser and catalogue, public for tools and
 * library users (pmc.h). */
#include "pmc.h"
#include "common/error.h"
#include "common/sysinfo.h"
#include "event/event.h"

int pmc_event_attr(const char *spec, struct perf_event_attr *attr)
{
	struct pmc_evspec ev;
	int rc;

	pmc__clear_reason();
	if ((rc = pmc__event_parse(spec, &ev)) == 0)
		*attr = ev.attr;
	return pmc__ret(rc);
}

int pmc_event_foreach(const char *category,
    int (*cb)(const struct pmc_evinfo *, void *), void *arg)
{
	return pmc__event_foreach(category, cb, arg);
}

int pmc_host_has_hw_pmu(void)
{
	return pmc__sys_has_hw_pmu();
}
