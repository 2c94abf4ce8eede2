/*
 * event_sysfs.c — events of the PMUs the kernel lists under
 * /sys/bus/event_source/devices: each PMU's perf type (type), its format/
 * fields (which bits of config/config1/config2 a name like "umask" sets)
 * and its events/ aliases ("event=0x3c,umask=0x00", with .scale and .unit).
 * Resolves perf's pmu/term,term/ syntax and bare aliases such as "tsc".
 * The "/sys" root can be replaced (tests build a fake tree).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "event/event_impl.h"

/* Read a small file, trailing whitespace removed. */
static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return 0;
}

/* ---- format fields ---------------------------------------------------- */
struct fmt_field {
	char name[48];
	int word;               /* 0 config, 1 config1, 2 config2 */
	int nr;
	int lo[16], hi[16];
	int bits;
};

struct pmu_desc {
	char name[64];
	char dir[400];
	uint32_t type;
	int nfmt;
	struct fmt_field fmt[48];
};

static int parse_format(const char *fname, const char *text, struct fmt_field *f, const char *pmu)
{
	const char *colon = strchr(text, ':');
	char word[16];
	const char *p;

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%.47s", fname);
	if (!colon || (size_t)(colon - text) >= sizeof(word))
		goto bad;
	memcpy(word, text, (size_t)(colon - text));
	word[colon - text] = '\0';
	if (!strcmp(word, "config"))
		f->word = 0;
	else if (!strcmp(word, "config1"))
		f->word = 1;
	else if (!strcmp(word, "config2"))
		f->word = 2;
	else
		return pmc__err_cause(-EINVAL, PMC_CAUSE_UNSUPPORTED, "format field '%s' of PMU "
				      "'%s' uses '%s', which this library does not support", fname,
				      pmu, word);
	p = colon + 1;
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi;
		if (end == p || f->nr >= 16)
			goto bad;
		p = end;
		hi = lo;
		if (*p == '-') {
			p++;
			hi = strtol(p, &end, 10);
			if (end == p)
				goto bad;
			p = end;
		}
		if (lo < 0 || hi > 63 || hi < lo)
			goto bad;
		f->lo[f->nr] = (int)lo;
		f->hi[f->nr] = (int)hi;
		f->bits += (int)(hi - lo + 1);
		f->nr++;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	if (!f->nr)
		goto bad;
	return 0;
bad:
	return pmc__err(-EINVAL, "cannot parse format field '%s' of PMU '%s': '%s'", fname, pmu, text);
}

static int load_pmu(const char *pmu, struct pmu_desc *d)
{
	char path[600], buf[256];
	DIR *dir;
	struct dirent *e;
	struct stat st;
	int rc;

	memset(d, 0, sizeof(*d));
	if (!*pmu || strchr(pmu, '.') == pmu || strstr(pmu, ".."))
		return pmc__err(-EINVAL, "'%s' is not a PMU name", pmu);
	snprintf(d->name, sizeof(d->name), "%s", pmu);
	snprintf(d->dir, sizeof(d->dir), "%s/%s", pmc__sys_pmu_dir(), pmu);
	if (stat(d->dir, &st) < 0) {
		int no_pmu = pmc__sys_is_core_pmu_name(pmu) && !pmc__sys_core_pmu();
		return pmc__err_cause(-ENOENT, no_pmu ? PMC_CAUSE_NO_PMU : PMC_CAUSE_OTHER,
				      "PMU '%s' not found under %s%s", pmu, pmc__sys_pmu_dir(),
				      no_pmu ? " (this machine has no hardware PMU; software "
				      "events only)" : "");
	}
	snprintf(path, sizeof(path), "%s/type", d->dir);
	if ((rc = read_small(path, buf, sizeof(buf))) < 0)
		return pmc__err(rc, "cannot read %s: %s", path, strerror(-rc));
	d->type = (uint32_t)strtoul(buf, NULL, 10);
	snprintf(path, sizeof(path), "%s/format", d->dir);
	dir = opendir(path);
	if (!dir)
		return 0;          /* no format fields: only config=/config1=/config2= */
	while ((e = readdir(dir)) != NULL && d->nfmt < 48) {
		char fpath[900];
		if (e->d_name[0] == '.')
			continue;
		snprintf(fpath, sizeof(fpath), "%s/%s", path, e->d_name);
		if (read_small(fpath, buf, sizeof(buf)) < 0)
			continue;
		if ((rc = parse_format(e->d_name, buf, &d->fmt[d->nfmt], pmu)) < 0) {
			closedir(dir);
			return rc;
		}
		d->nfmt++;
	}
	closedir(dir);
	/* stable order for messages */
	for (int i = 1; i < d->nfmt; i++)
		for (int j = i; j > 0 && strcmp(d->fmt[j - 1].name, d->fmt[j].name) > 0; j--) {
			struct fmt_field t = d->fmt[j];
			d->fmt[j] = d->fmt[j - 1];
			d->fmt[j - 1] = t;
		}
	return 0;
}

static struct fmt_field *find_fmt(struct pmu_desc *d, const char *name)
{
	for (int i = 0; i < d->nfmt; i++)
		if (!strcmp(d->fmt[i].name, name))
			return &d->fmt[i];
	return NULL;
}

static void known_fields(struct pmu_desc *d, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < d->nfmt && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", d->fmt[i].name);
	if (o < len)
		snprintf(buf + o, len - o, "%sconfig, config1, config2", d->nfmt ? ", " : "");
}

static __u64 *word_of(struct perf_event_attr *a, int w)
{
	return w == 0 ? &a->config : w == 1 ? &a->config1 : &a->config2;
}

static int apply_field(struct pmu_desc *d, struct fmt_field *f, uint64_t v, struct perf_event_attr *a)
{
	__u64 *w = word_of(a, f->word);
	int pos = 0;

	if (f->bits < 64 && (v >> f->bits))
		return pmc__err(-EINVAL, "value 0x%llx is too large for format field '%s' of PMU "
				"'%s' (%d bits)", (unsigned long long)v, f->name, d->name, f->bits);
	for (int r = 0; r < f->nr; r++)
		for (int b = f->lo[r]; b <= f->hi[r]; b++, pos++) {
			uint64_t bit = 1ULL << b;
			if ((v >> pos) & 1)
				*w |= bit;
			else
				*w &= ~bit;
		}
	return 0;
}

struct term_state {
	char pending[8][48];    /* fields an alias left as '?' */
	int npending;
	char alias[96];         /* the events/ alias used, if any */
};

static int parse_value(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return (errno || end == s || *end) ? -1 : 0;
}

static int apply_terms(struct pmu_desc *d, const char *terms, int from_alias,
		       struct term_state *st, struct pmc_evspec *out);

static int expand_alias(struct pmu_desc *d, const char *name, struct term_state *st,
			struct pmc_evspec *out)
{
	char path[700], buf[512];
	int rc;

	if (strchr(name, '/') || name[0] == '.')
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s", d->dir, name);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	if (st->alias[0])
		return pmc__err(-EINVAL, "two events ('%s' and '%s') in one spec for PMU '%s'",
				st->alias, name, d->name);
	snprintf(st->alias, sizeof(st->alias), "%s", name);
	if ((rc = apply_terms(d, buf, 1, st, out)) < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/events/%s.scale", d->dir, name);
	if (read_small(path, buf, sizeof(buf)) == 0) {
		char *end;
		double s = strtod(buf, &end);
		if (end != buf && s != 0)
			out->scale = s;
	}
	snprintf(path, sizeof(path), "%s/events/%s.unit", d->dir, name);
	if (read_small(path, buf, sizeof(buf)) == 0)
		snprintf(out->unit, sizeof(out->unit), "%.31s", buf);
	return 0;
}

static int apply_term(struct pmu_desc *d, char *term, int from_alias, struct term_state *st,
		      struct pmc_evspec *out)
{
	char *eq = strchr(term, '=');
	const char *key = term, *val = NULL;
	uint64_t v = 1;
	struct fmt_field *f;
	char known[400];

	if (eq) {
		*eq = '\0';
		val = eq + 1;
	}
	if (!*key)
		return pmc__err(-EINVAL, "empty term in event spec for PMU '%s'", d->name);
	if (val && !strcmp(val, "?")) {
		if (!from_alias)
			return pmc__err(-EINVAL, "'%s=?' needs a value", key);
		if (st->npending < 8)
			snprintf(st->pending[st->npending++], sizeof(st->pending[0]), "%s", key);
		return 0;
	}
	if (val && parse_value(val, &v) < 0) {
		if (!strcmp(key, "name"))
			return 0;      /* perf's display name: not part of the encoding */
		return pmc__err(-EINVAL, "bad value '%s' for '%s' in event spec for PMU '%s' "
				"(want a number)", val, key, d->name);
	}
	if (!strcmp(key, "period") || !strcmp(key, "freq") || !strcmp(key, "call-graph") ||
	    !strcmp(key, "stack-size") || !strcmp(key, "max-stack"))
		return pmc__err(-EINVAL, "'%s' is a sampling setting, not part of an event: set it "
				"with the tool's options (-c/-F/-g)", key);
	if (!from_alias) {
		for (int i = 0; i < st->npending; i++)
			if (!strcmp(st->pending[i], key))
				st->pending[i][0] = '\0';
	}
	if (!strcmp(key, "config") || !strcmp(key, "config1") || !strcmp(key, "config2")) {
		if (!val)
			return pmc__err(-EINVAL, "'%s' needs a value ('%s=0x...')", key, key);
		*word_of(&out->attr, key[6] ? key[6] - '0' : 0) = v;
		return 0;
	}
	if ((f = find_fmt(d, key)) != NULL)
		return apply_field(d, f, v, &out->attr);
	if (!val && !from_alias) {
		int rc = expand_alias(d, key, st, out);
		if (rc != -ENOENT)
			return rc;
		known_fields(d, known, sizeof(known));
		return pmc__err(-ENOENT, "event '%s' not found in PMU '%s' (no %s/events/%s; "
				"format fields: %s)", key, d->name, d->dir, key, known);
	}
	known_fields(d, known, sizeof(known));
	return pmc__err(-EINVAL, "format field '%s' not known to PMU '%s' (known: %s)",
			key, d->name, known);
}

static int apply_terms(struct pmu_desc *d, const char *terms, int from_alias,
		       struct term_state *st, struct pmc_evspec *out)
{
	char buf[512], *save = NULL, *t;
	int rc;

	if (strlen(terms) >= sizeof(buf))
		return pmc__err(-EINVAL, "event spec for PMU '%s' is too long", d->name);
	snprintf(buf, sizeof(buf), "%s", terms);
	if (!from_alias && (buf[0] == ',' || (buf[0] && buf[strlen(buf) - 1] == ',') || strstr(buf, ",,")))
		return pmc__err(-EINVAL, "empty term in '%s/%s/'", d->name, terms);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		while (*t == ' ')
			t++;
		if ((rc = apply_term(d, t, from_alias, st, out)) < 0)
			return rc;
	}
	return 0;
}

int ev__pmu_resolve(const char *pmu, const char *terms, struct pmc_evspec *out)
{
	struct pmu_desc *d = calloc(1, sizeof(*d));
	struct term_state st;
	char canon[256];
	int rc;

	if (!d)
		return pmc__err(-ENOMEM, "out of memory");
	memset(&st, 0, sizeof(st));
	if ((rc = load_pmu(pmu, d)) < 0)
		goto out;
	if (!*terms) {
		rc = pmc__err(-EINVAL, "no event between the slashes in '%s//'", pmu);
		goto out;
	}
	out->attr.type = d->type;
	if ((rc = apply_terms(d, terms, 0, &st, out)) < 0)
		goto out;
	for (int i = 0; i < st.npending; i++)
		if (st.pending[i][0]) {
			rc = pmc__err(-EINVAL, "event '%s' of PMU '%s' needs a value for '%s' "
				      "(%s/%s,%s=N/)", st.alias, pmu, st.pending[i], pmu, st.alias,
				      st.pending[i]);
			goto out;
		}
	snprintf(out->pmu, sizeof(out->pmu), "%s", pmu);
	snprintf(canon, sizeof(canon), "%s/%s/", pmu, terms);
	if (pmc__sys_is_core_pmu_name(pmu)) {
		ev__set_hw_caps(out);
		snprintf(out->pmu, sizeof(out->pmu), "%s", pmu);
		out->pclass = PMC_CLASS_RAW;
		if (find_fmt(d, "edge"))
			out->caps |= PMC_CAP_EDGE;
		if (find_fmt(d, "inv"))
			out->caps |= PMC_CAP_INVERT;
		if (find_fmt(d, "cmask"))
			out->caps |= PMC_CAP_THRESHOLD;
		out->event = ev__intern(canon);
	} else if (!strcmp(pmu, "msr") && !strcmp(st.alias, "tsc")) {
		out->pclass = PMC_CLASS_TSC;
		out->event = PMC_EV_TSC_TSC;
		out->caps = PMC_CAP_READ | PMC_CAP_WRITE;
		out->needs_hw_pmu = 0;
	} else {
		out->pclass = PMC_CLASS_PMU;
		out->event = ev__intern(canon);
		out->caps = PMC_CAP_READ | PMC_CAP_WRITE;
		out->needs_hw_pmu = 0;
	}
	rc = 0;
out:
	free(d);
	return rc;
}

int ev__pmu_find_alias(const char *name, struct pmc_evspec *out)
{
	struct dirent **ents;
	int n, rc = -ENOENT;
	char path[700];
	struct stat st;

	if (!*name || strchr(name, '/') || strchr(name, '=') || strchr(name, ',') || name[0] == '.')
		return -ENOENT;
	n = scandir(pmc__sys_pmu_dir(), &ents, NULL, alphasort);
	if (n < 0)
		return -ENOENT;
	for (int i = 0; i < n; i++) {
		if (rc == -ENOENT && ents[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s/events/%s", pmc__sys_pmu_dir(),
				 ents[i]->d_name, name);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
				rc = ev__pmu_resolve(ents[i]->d_name, name, out);
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}
