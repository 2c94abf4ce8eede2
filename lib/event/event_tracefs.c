/*
 * event_tracefs.c — tracepoints ("sched:sched_switch"): find tracefs
 * (/sys/kernel/tracing, or debugfs's tracing/), mount it at
 * /sys/kernel/tracing when neither is there and we may, and read the
 * tracepoint's id from events/SUBSYS/NAME/id (perf's config for
 * PERF_TYPE_TRACEPOINT).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event/event_impl.h"

static char tracefs_override[256];

void pmc__event_set_tracefs_root(const char *dir)
{
	snprintf(tracefs_override, sizeof(tracefs_override), "%s", dir ? dir : "");
}

static int has_events(const char *dir)
{
	char p[300];
	struct stat st;

	snprintf(p, sizeof(p), "%s/events", dir);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int ev__tracefs_dir(char *buf, size_t len)
{
	static const char *const std[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	const char *o = tracefs_override[0] ? tracefs_override : getenv("PMC_TRACEFS");

	if (o && *o) {
		if (!has_events(o))
			return pmc__err(-ENOENT, "tracefs directory %s has no events/", o);
		snprintf(buf, len, "%s", o);
		return 0;
	}
	for (int i = 0; i < 2; i++)
		if (has_events(std[i])) {
			snprintf(buf, len, "%s", std[i]);
			return 0;
		}
	if (geteuid() == 0 && mount("nodev", std[0], "tracefs", 0, NULL) == 0 && has_events(std[0])) {
		snprintf(buf, len, "%s", std[0]);
		return 0;
	}
	return pmc__err(-ENOENT, "tracefs is not mounted and could not be mounted at %s "
			"(mount -t tracefs nodev %s as root)", std[0], std[0]);
}

static int bad_component(const char *s)
{
	return !*s || s[0] == '.' || strchr(s, '/') != NULL;
}

int ev__tracepoint_resolve(const char *sys, const char *name, struct pmc_evspec *out)
{
	char dir[256], path[800], buf[64], canon[256];
	struct stat st;
	FILE *f;
	char *end;
	unsigned long long id;
	int rc;

	if (bad_component(sys) || bad_component(name))
		return pmc__err(-EINVAL, "'%s:%s' is not a tracepoint name (want subsystem:name)",
				sys, name);
	if (strpbrk(sys, "*?[") || strpbrk(name, "*?["))
		return pmc__err(-EINVAL, "wildcards are not accepted in tracepoint '%s:%s'; "
				"name one tracepoint (pmc list '%s:%s' shows the matches)",
				sys, name, sys, name);
	if ((rc = ev__tracefs_dir(dir, sizeof(dir))) < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys, name);
	f = fopen(path, "re");
	if (!f) {
		snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
		if (stat(path, &st) < 0)
			return pmc__err(-ENOENT, "tracepoint '%s:%s' not found (no subsystem '%s' "
					"in %s/events)", sys, name, sys, dir);
		return pmc__err(-ENOENT, "tracepoint '%s:%s' not found (subsystem '%s' has no "
				"'%s')", sys, name, sys, name);
	}
	buf[0] = '\0';
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	id = strtoull(buf, &end, 10);
	if (end == buf)
		return pmc__err(-EINVAL, "cannot read the id of tracepoint '%s:%s'", sys, name);
	out->attr.type = PERF_TYPE_TRACEPOINT;
	out->attr.config = id;
	out->pclass = PMC_CLASS_TRACEPOINT;
	out->caps = PMC_CAP_READ | PMC_CAP_WRITE | PMC_CAP_INTERRUPT;
	out->needs_hw_pmu = 0;
	snprintf(out->pmu, sizeof(out->pmu), "tracepoint");
	snprintf(canon, sizeof(canon), "%s:%s", sys, name);
	out->event = ev__intern(canon);
	return 0;
}
