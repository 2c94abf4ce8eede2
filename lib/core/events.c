/* events.c — the event-list splitter, public for tools and library users. */
#include "pmc.h"
#include "common/error.h"
#include "event/event.h"

int pmc_event_split(const char *list, char ***specs, int *n)
{
	pmc__clear_reason();
	return pmc__ret(pmc__event_split(list, specs, n));
}

void pmc_event_split_free(char **specs, int n)
{
	pmc__event_split_free(specs, n);
}
