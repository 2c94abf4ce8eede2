/*
 * evlist.c — an -e list split the way every pmc command splits it (stat,
 * record, top, the exporter): on commas, except inside pmu/.../ and {...};
 * a token that is exactly a hwpmc qualifier (usr, os) stays with the event
 * before it; a tracepoint glob ("sched:*", "sched:sched_s*:u") becomes the
 * tracepoints it matches, from libpmc's catalogue (pmc_event_foreach).  The
 * CLI's own grammar, so in libpmctools, not libpmc's ABI: one event spec is
 * libpmc's to parse (pmc_allocate, pmc_event_attr).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"
#include "common/error.h"
#include "common/grow.h"
#include "toolslib/evlist.h"

static int is_qualifier(const char *s)
{
	return !strcasecmp(s, "usr") || !strcasecmp(s, "os");
}

void evlist__free(char **specs, int n)
{
	if (!specs)
		return;
	for (int i = 0; i < n; i++)
		free(specs[i]);
	free(specs);
}

static int push(char ***v, int *n, int *cap, char *s)
{
	if (GROW(*v, *n, *cap) < 0)
		return -ENOMEM;
	(*v)[(*n)++] = s;
	return 0;
}

static int split(const char *list, char ***specs, int *n)
{
	char **v = NULL;
	int cnt = 0, cap = 0, depth = 0, in_pmu = 0, rc = 0;
	const char *start, *p;

	if (!list)
		return pmc__err(-EINVAL, "no event list given");
	for (start = p = list;; p++) {
		if (*p == '{' && !in_pmu) {
			depth++;
		} else if (*p == '}' && !in_pmu) {
			if (--depth < 0) {
				rc = pmc__err(-EINVAL, "unbalanced '}' in event list '%s'", list);
				goto fail;
			}
		} else if (*p == '/') {
			in_pmu = !in_pmu;
		} else if ((*p == ',' && !in_pmu && !depth) || !*p) {
			const char *a = start, *b = p;
			while (a < b && isspace((unsigned char)*a))
				a++;
			while (b > a && isspace((unsigned char)b[-1]))
				b--;
			if (a == b) {
				rc = pmc__err(-EINVAL, "empty event in list '%s'%s", list,
					      *list == ',' ? " (leading comma)" :
					      (!*p && p > list && p[-1] == ',') ? " (trailing comma)" : "");
				goto fail;
			}
			char *item = strndup(a, (size_t)(b - a));
			if (!item) {
				rc = -ENOMEM;
				goto fail;
			}
			if (is_qualifier(item)) {
				if (!cnt) {
					rc = pmc__err(-EINVAL, "qualifier '%s' with no event before it in '%s'",
						      item, list);
					free(item);
					goto fail;
				}
				size_t l = strlen(v[cnt - 1]) + strlen(item) + 2;
				char *j = malloc(l);
				if (!j) {
					free(item);
					rc = -ENOMEM;
					goto fail;
				}
				snprintf(j, l, "%s,%s", v[cnt - 1], item);
				free(v[cnt - 1]);
				free(item);
				v[cnt - 1] = j;
			} else if ((rc = push(&v, &cnt, &cap, item)) < 0) {
				free(item);
				goto fail;
			}
			if (!*p)
				break;
			start = p + 1;
		}
		if (!*p)
			break;
	}
	if (depth || in_pmu) {
		rc = pmc__err(-EINVAL, "unbalanced %s in event list '%s'", depth ? "'{'" : "'/'", list);
		goto fail;
	}
	*specs = v;
	*n = cnt;
	return 0;
fail:
	evlist__free(v, cnt);
	return rc;
}

/* ---- tracepoint globs ("sched:*", "sched:sched_s*:u") ----------------------- */

struct glob_ctx {
	const char *pattern;           /* "sched:*" */
	const char *mods;              /* ":u" or "" */
	char ***v;
	int *n, *cap, matched, rc;
};

static int glob_one(const struct pmc_evinfo *ei, void *arg)
{
	struct glob_ctx *g = arg;
	size_t l;
	char *item;

	if (fnmatch(g->pattern, ei->name, 0) != 0)
		return 0;
	l = strlen(ei->name) + strlen(g->mods) + 1;
	if (!(item = malloc(l)))
		return g->rc = -ENOMEM;
	snprintf(item, l, "%s%s", ei->name, g->mods);
	if ((g->rc = push(g->v, g->n, g->cap, item)) < 0) {
		free(item);
		return g->rc;
	}
	g->matched++;
	return 0;
}

static int is_tracepoint_glob(const char *s)
{
	const char *colon = strchr(s, ':');
	return colon && strpbrk(colon, "*?[") && !strpbrk(s, "/{}");
}

/* Replace every tracepoint glob of the list by the tracepoints it matches
 * (perf's -e 'sched:*'); a glob that matches nothing is an error. */
static int expand_globs(char ***specs, int *n)
{
	char **out = NULL;
	int cnt = 0, cap = 0, rc = 0;

	for (int i = 0; i < *n; i++) {
		char *s = (*specs)[i];
		if (!is_tracepoint_glob(s)) {
			if ((rc = push(&out, &cnt, &cap, s)) < 0)
				break;
			(*specs)[i] = NULL;
			continue;
		}
		char pat[256];
		const char *second = strchr(strchr(s, ':') + 1, ':');
		snprintf(pat, sizeof(pat), "%.*s", (int)(second ? second - s : (long)strlen(s)), s);
		struct glob_ctx g = { pat, second ? second : "", &out, &cnt, &cap, 0, 0 };
		pmc_event_foreach("tracepoint", glob_one, &g);
		if ((rc = g.rc) < 0)
			break;
		if (!g.matched) {
			pmc__clear_reason();     /* this says more than tracefs's own */
			rc = pmc__err(-ENOENT, "no tracepoint matches '%s' (see 'pmc list --tracepoints')",
				      s);
			break;
		}
	}
	evlist__free(*specs, *n);
	if (rc < 0) {
		evlist__free(out, cnt);
		*specs = NULL;
		*n = 0;
		return rc;
	}
	*specs = out;
	*n = cnt;
	return 0;
}

int evlist__split(const char *list, char ***specs, int *n)
{
	int rc;

	if (!specs || !n)
		return pmc__err(-EINVAL, NULL);
	*specs = NULL;
	*n = 0;
	pmc__clear_reason();
	rc = split(list, specs, n);
	if (rc == 0)
		rc = expand_globs(specs, n);
	if (rc < 0 && !pmc__has_reason())
		pmc__err(rc, "cannot split event list");
	return rc;
}
