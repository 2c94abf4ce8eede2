/*
 * cpulist.c — the CPU list grammar (cpulist.h): one scanner of its items,
 * under the parse into a set, the check and the membership test.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/cpulist.h"

/* The next item of *s, "A" or "A-B", as [*a, *b]: 1, with *s past it and
 * its comma; 0 at the end; -1 not an item of a CPU list. */
static int next_item(const char **s, long *a, long *b)
{
	const char *p = *s;
	char *end;
	if (!*p)
		return 0;
	if (!isdigit((unsigned char)*p))
		return -1;
	*a = *b = strtol(p, &end, 10);
	p = end;
	if (*p == '-') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		*b = strtol(p, &end, 10);
		p = end;
	}
	if (*b < *a)
		return -1;
	if (*p == ',')
		p++;
	else if (*p)
		return -1;
	*s = p;
	return 1;
}

int cpulist__parse(const char *s, unsigned char *set, int max)
{
	long a, b;
	int rc;
	memset(set, 0, (size_t)max);
	if (!s || !*s)
		return -1;
	while ((rc = next_item(&s, &a, &b)) > 0) {
		if (b >= max)
			return -2;
		memset(set + a, 1, (size_t)(b - a + 1));
	}
	return rc;
}

int cpulist__check(const char *s)
{
	long a, b;
	int rc;
	if (!s || !*s)
		return -1;
	while ((rc = next_item(&s, &a, &b)) > 0)
		if (b > INT32_MAX)
			return -1;
	return rc;
}

int cpulist__has(const char *s, long cpu)
{
	long a, b;
	while (next_item(&s, &a, &b) > 0)
		if (cpu >= a && cpu <= b)
			return 1;
	return 0;
}
