/*
 * evlist.h — the pmc CLI's -e lists (libpmctools; evlist.c).
 */
#ifndef PMC_TOOLS_EVLIST_H
#define PMC_TOOLS_EVLIST_H

/*
 * evlist__split - split an event list ("cycles,instructions:u,msr/tsc/")
 * the way every pmc command does
 * @list: the list; commas inside pmu/.../ and {...} do not split, hwpmc's
 *        qualifiers ("instructions,usr") stay with their event, and a
 *        tracepoint glob ("sched:*") becomes the tracepoints it matches
 * @specs: set to an allocated array of the items (evlist__free)
 * @n: set to their number
 * Return: 0, or a negative errno with a reason: -EINVAL for an empty item,
 * an unbalanced { or /, a qualifier with no event before it; -ENOENT for a
 * glob that matches no tracepoint; -ENOMEM.
 */
int evlist__split(const char *list, char ***specs, int *n);

/* evlist__free - free what evlist__split returned (NULL is fine). */
void evlist__free(char **specs, int n);

#endif
