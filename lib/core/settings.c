/* settings.c — hwpmc's tunables: defaults, config file, environment. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmc.h"
#include "common/error.h"
#include "core/settings.h"

/* One table, so names, defaults and the lookup never disagree. */
#define SETTINGS(X) \
	X(CALLCHAINDEPTH, "callchaindepth", 128) \
	X(LOGBUFFERSIZE,  "logbuffersize",  256) \
	X(NBUFFERS_PCPU,  "nbuffers_pcpu",  32) \
	X(NSAMPLES,       "nsamples",       512) \
	X(MINCOUNT,       "mincount",       1000)

static const char *const names[] = {
#define X(id, name, dflt) name,
	SETTINGS(X)
#undef X
};
static const long defaults[] = {
#define X(id, name, dflt) dflt,
	SETTINGS(X)
#undef X
};
static long values[PMC_SETTING_COUNT];
static int loaded;

#define LOGBUF_MAX_KB   16384            /* 16 MB, hwpmc's limit */
#define PCPU_LIMIT_MB   32

static int lookup(const char *name)
{
	if (!strncasecmp(name, "kern.hwpmc.", 11))
		name += 11;
	for (int i = 0; i < PMC_SETTING_COUNT; i++)
		if (!strcasecmp(name, names[i]))
			return i;
	return -1;
}

/* Range checks, with the words hwpmc(4) prints (DIAGNOSTICS). */
static void check(void)
{
	long *v = values;

	if (v[PMC_SETTING_LOGBUFFERSIZE] <= 0 || v[PMC_SETTING_LOGBUFFERSIZE] > LOGBUF_MAX_KB) {
		pmc__warn("hwpmc: logbuffersize=%ld must be greater than zero and "
		    "less than or equal to %d, resetting to %ld.\n",
		    v[PMC_SETTING_LOGBUFFERSIZE], LOGBUF_MAX_KB,
		    defaults[PMC_SETTING_LOGBUFFERSIZE]);
		v[PMC_SETTING_LOGBUFFERSIZE] = defaults[PMC_SETTING_LOGBUFFERSIZE];
	}
	if (v[PMC_SETTING_NBUFFERS_PCPU] <= 0) {
		pmc__warn("hwpmc: nbuffers_pcpu=%ld must be greater than zero, "
		    "resetting to %ld.\n", v[PMC_SETTING_NBUFFERS_PCPU],
		    defaults[PMC_SETTING_NBUFFERS_PCPU]);
		v[PMC_SETTING_NBUFFERS_PCPU] = defaults[PMC_SETTING_NBUFFERS_PCPU];
	}
	if (v[PMC_SETTING_NBUFFERS_PCPU] * v[PMC_SETTING_LOGBUFFERSIZE] >
	    (long)PCPU_LIMIT_MB * 1024) {
		pmc__warn("hwpmc: nbuffers_pcpu=%ld * logbuffersize=%ld exceeds "
		    "%dMB per CPU limit, resetting to defaults (%ld * %ld).\n",
		    v[PMC_SETTING_NBUFFERS_PCPU], v[PMC_SETTING_LOGBUFFERSIZE],
		    PCPU_LIMIT_MB, defaults[PMC_SETTING_NBUFFERS_PCPU],
		    defaults[PMC_SETTING_LOGBUFFERSIZE]);
		v[PMC_SETTING_NBUFFERS_PCPU] = defaults[PMC_SETTING_NBUFFERS_PCPU];
		v[PMC_SETTING_LOGBUFFERSIZE] = defaults[PMC_SETTING_LOGBUFFERSIZE];
	}
	if (v[PMC_SETTING_NSAMPLES] <= 0 || v[PMC_SETTING_NSAMPLES] > 65535) {
		pmc__warn("hwpmc: tunable nsamples=%ld out of range.\n",
		    v[PMC_SETTING_NSAMPLES]);
		v[PMC_SETTING_NSAMPLES] = defaults[PMC_SETTING_NSAMPLES];
	}
	if (v[PMC_SETTING_CALLCHAINDEPTH] <= 0 ||
	    v[PMC_SETTING_CALLCHAINDEPTH] > PMC_CALLCHAIN_DEPTH_MAX) {
		pmc__warn("hwpmc: tunable callchaindepth=%ld out of range "
		    "(1-%d), resetting to %ld.\n", v[PMC_SETTING_CALLCHAINDEPTH],
		    PMC_CALLCHAIN_DEPTH_MAX, defaults[PMC_SETTING_CALLCHAINDEPTH]);
		v[PMC_SETTING_CALLCHAINDEPTH] = defaults[PMC_SETTING_CALLCHAINDEPTH];
	}
	if (v[PMC_SETTING_MINCOUNT] <= 0) {
		pmc__warn("hwpmc: tunable mincount=%ld must be greater than zero, "
		    "resetting to %ld.\n", v[PMC_SETTING_MINCOUNT],
		    defaults[PMC_SETTING_MINCOUNT]);
		v[PMC_SETTING_MINCOUNT] = defaults[PMC_SETTING_MINCOUNT];
	}
}

static int parse_value(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

static void load_file(const char *path, int must_exist)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int lineno = 0;

	if (!f) {
		if (must_exist)
			pmc__warn("pmc: cannot read config file %s: %s\n", path,
			    strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *eq, *k, *v;
		long val;
		int id;

		lineno++;
		p[strcspn(p, "#\n")] = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			continue;
		eq = strchr(p, '=');
		if (!eq) {
			pmc__warn("pmc: %s:%d: expected 'name = value'\n", path, lineno);
			continue;
		}
		*eq = '\0';
		k = p;
		v = eq + 1;
		for (char *e = eq - 1; e >= k && isspace((unsigned char)*e); e--)
			*e = '\0';
		while (isspace((unsigned char)*v))
			v++;
		if ((id = lookup(k)) < 0) {
			pmc__warn("pmc: %s:%d: unknown setting '%s'\n", path, lineno, k);
			continue;
		}
		if (parse_value(v, &val) < 0) {
			pmc__warn("pmc: %s:%d: '%s' is not a number\n", path, lineno, v);
			continue;
		}
		values[id] = val;
	}
	fclose(f);
}

void pmc__settings_load(void)
{
	char path[512], env[64];
	const char *p;

	if (loaded)
		return;
	memcpy(values, defaults, sizeof(values));
	if ((p = getenv("PMC_CONFIG")) != NULL && *p) {
		load_file(p, 1);
	} else {
		const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
		if (xdg && *xdg)
			snprintf(path, sizeof(path), "%s/pmc/pmc.conf", xdg);
		else if (home && *home)
			snprintf(path, sizeof(path), "%s/.config/pmc/pmc.conf", home);
		else
			path[0] = '\0';
		/* System-wide first, so the user's own file overrides it. */
		load_file("/etc/pmc.conf", 0);
		if (path[0])
			load_file(path, 0);
	}
	for (int i = 0; i < PMC_SETTING_COUNT; i++) {
		long v;
		snprintf(env, sizeof(env), "PMC_%s", names[i]);
		for (char *c = env; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		if ((p = getenv(env)) != NULL && *p) {
			if (parse_value(p, &v) < 0)
				pmc__warn("pmc: %s='%s' is not a number, ignored\n", env, p);
			else
				values[i] = v;
		}
	}
	check();
	loaded = 1;
}

long pmc__setting(enum pmc_setting_id id)
{
	if (!loaded)
		pmc__settings_load();
	return values[id];
}

int pmc__setting_get(const char *name, long *value)
{
	int id;

	if (!name || (id = lookup(name)) < 0)
		return pmc__err(-ENOENT, "unknown setting '%s'", name ? name : "");
	*value = pmc__setting((enum pmc_setting_id)id);
	return 0;
}

/* For tests: forget what was loaded, so the next use reloads. */
void pmc__settings_reset(void)
{
	loaded = 0;
}
