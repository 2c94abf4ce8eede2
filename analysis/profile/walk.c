/*
 * walk.c — the filters of a report (--pid, --tid, --comm, --dso, --sym,
 * --cpu, --time) and the walks over a profile's samples: one by one
 * (profile__foreach) or grouped by stack and context (profile__foreach_group,
 * whose groups the next walk with the same filter reuses).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/grow.h"
#include "common/hmap.h"
#include "profile/profile_internal.h"
#include "util/cpulist.h"

double profile__reltime(const struct profile *p, uint64_t t)
{
	uint64_t base = p->hdr.have && p->hdr.start_clock ? p->hdr.start_clock : p->first_time;
	return t >= base ? (double)(t - base) / 1e9 : -(double)(base - t) / 1e9;
}

void profile__filter_init(struct prof_filter *flt)
{
	memset(flt, 0, sizeof(*flt));
	flt->ev = -1;
}

/* perf's SEC[.NSEC] (at most nine decimals, util/time-utils.c
 * parse_nsec_time), or any other finite non-negative number of seconds
 * (pmc's old --time took strtod's forms): 0 and *ns, or -1. */
static int parse_seconds(const char *s, size_t n, uint64_t *ns)
{
	char buf[64], *end;
	size_t i = 0, dig = 0;
	uint64_t sec = 0, frac = 0;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	while (i < n && s[i] >= '0' && s[i] <= '9' && sec < UINT64_MAX / 1000000000u / 10)
		sec = sec * 10 + (uint64_t)(s[i++] - '0');
	if (i > 0 && i < n && s[i] == '.') {
		for (i++; i < n && dig < 9 && s[i] >= '0' && s[i] <= '9'; i++, dig++)
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		for (size_t k = dig; k < 9; k++)
			frac *= 10;
	}
	if (i == n && i > 0) {
		if (sec > 10000000000u)     /* the strtod forms' bound: 317 years */
			return -1;
		*ns = sec * 1000000000u + frac;
		return 0;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	double d = strtod(buf, &end);
	if (*end || !isfinite(d) || d < 0 || d > 1e10)
		return -1;
	*ns = (uint64_t)llround(d * 1e9);
	return 0;
}

/* "P%" (the whole of [s, s+n)) as a fraction 0..1: 0, or -1. */
static int parse_percent(const char *s, size_t n, double *f)
{
	char buf[64], *end;
	if (n < 2 || n >= sizeof(buf) || s[n - 1] != '%')
		return -1;
	memcpy(buf, s, n - 1);
	buf[n - 1] = '\0';
	double d = strtod(buf, &end);
	if (*end || end == buf || !isfinite(d) || d < 0 || d > 100)
		return -1;
	*f = d / 100.0;
	return 0;
}

/* perf's percent forms (time-utils.c perf_time__percent_parse_str): a '/'
 * anywhere makes every comma item P%/N, else a '-' makes them A%-B%, else
 * the whole is one P%. */
static int parse_time_percent(struct prof_time *t, const char *arg)
{
	int slash = strchr(arg, '/') != NULL, dash = strchr(arg, '-') != NULL;
	const char *s = arg;

	if (!slash && !dash && strchr(arg, ',') == NULL) {
		if (parse_percent(arg, strlen(arg), &t->r[0].phi) != 0 || t->r[0].phi <= 0)
			return pmc__err(-EINVAL, "'%s' is not a percentage P%% (above 0, at most "
			    "100)", arg);
		t->r[0].plo = 0;
		t->n = 1;
		return 0;
	}
	for (;;) {
		const char *e = strchr(s, ','), *mid;
		size_t n = e ? (size_t)(e - s) : strlen(s);
		double a, b;
		char *end;
		long k;

		if (t->n == PROF_TIME_MAX)
			return pmc__err(-EINVAL, "more than %d ranges", PROF_TIME_MAX);
		if (slash) {
			mid = memchr(s, '/', n);
			if (!mid || parse_percent(s, (size_t)(mid - s), &a) != 0 || a <= 0)
				return pmc__err(-EINVAL, "'%.*s' is not P%%/N (the Nth slice of P %%)",
				    (int)n, s);
			errno = 0;
			k = strtol(mid + 1, &end, 10);
			if (end != s + n || end == mid + 1 || errno || k < 1 || (double)k * a > 1 + 1e-9)
				return pmc__err(-EINVAL, "'%.*s': slice %.*s of %g %% slices is not within "
				    "the recording", (int)n, s, (int)(s + n - mid - 1), mid + 1, a * 100);
			b = a * (double)k;
			a = a * (double)(k - 1);
		} else {
			mid = memchr(s, '-', n);
			if (!mid || parse_percent(s, (size_t)(mid - s), &a) != 0 ||
			    parse_percent(mid + 1, (size_t)(s + n - mid - 1), &b) != 0)
				return pmc__err(-EINVAL, "'%.*s' is not A%%-B%% (percentages from 0 to "
				    "100)", (int)n, s);
			if (b < a)                  /* as "5,3" for seconds */
				return pmc__err(-EINVAL, "'%.*s': the range ends before it starts",
				    (int)n, s);
		}
		t->r[t->n].plo = a;
		t->r[t->n].phi = b > 1 ? 1 : b;
		t->n++;
		if (!e)
			return 0;
		s = e + 1;
	}
}

/* perf's seconds forms (perf_time__parse_strs): "START,END", several
 * separated by spaces, in order and apart. */
static int parse_time_seconds(struct prof_time *t, const char *arg)
{
	const char *s = arg;
	int first = 1;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t n = strcspn(s, " \t");
		const char *comma = memchr(s, ',', n);
		uint64_t lo = 0, hi = 0;

		if (t->n == PROF_TIME_MAX)
			return pmc__err(-EINVAL, "more than %d ranges", PROF_TIME_MAX);
		if (!comma || memchr(comma + 1, ',', (size_t)(s + n - comma - 1)) ||
		    (comma > s && parse_seconds(s, (size_t)(comma - s), &lo) != 0) ||
		    (comma + 1 < s + n && parse_seconds(comma + 1, (size_t)(s + n - comma - 1), &hi) != 0))
			return pmc__err(-EINVAL, "'%.*s' is not START,END (seconds, either may be "
			    "empty)", (int)n, s);
		if (hi && hi < lo)
			return pmc__err(-EINVAL, "'%.*s': END is before START", (int)n, s);
		if (t->n && (!t->r[t->n - 1].hi || t->r[t->n - 1].hi >= lo))
			return pmc__err(-EINVAL, "'%.*s' overlaps the range before it (ranges go in "
			    "order, apart)", (int)n, s);
		if (first)
			t->ref = comma > s ? lo : hi;
		first = 0;
		t->r[t->n].lo = lo;
		t->r[t->n].hi = hi;
		t->n++;
		s += n;
	}
	if (!t->n)
		return pmc__err(-EINVAL, "'%s' has no range START,END", arg);
	return 0;
}

int profile__parse_time(struct prof_filter *flt, const char *arg)
{
	struct prof_time t;
	int rc;

	pmc__clear_reason();
	memset(&t, 0, sizeof(t));
	t.pct = strchr(arg, '%') != NULL;
	rc = t.pct ? parse_time_percent(&t, arg) : parse_time_seconds(&t, arg);
	if (rc < 0)
		return rc;            /* the message quotes the range that is wrong */
	flt->time = t;
	return 0;
}

int profile__time_match(const struct profile *p, const struct prof_filter *flt, uint64_t t)
{
	const struct prof_time *w = &flt->time;
	uint64_t first = p->first_time, span = p->last_time - p->first_time, base = 0;
	uint64_t start = p->hdr.have && p->hdr.start_clock ? p->hdr.start_clock : first;

	/* seconds within the recording's length: from its start (pmc's form);
	 * beyond it: perf's timestamps, which a recording made later after
	 * boot than it lasts always are (the first sample's time, as perf
	 * script prints it, is cut to microseconds: below the sample) */
	if (!w->pct && w->ref <= (p->last_time > start ? p->last_time - start : 0))
		base = start;
	for (int i = 0; i < w->n; i++) {
		uint64_t lo, hi;
		if (w->pct) {
			/* perf's set_percent_time: a slice ends 1 ns before the next
			 * one starts, but the last one takes the last sample */
			lo = first + (uint64_t)llround(w->r[i].plo * (double)span);
			hi = first + (uint64_t)llround(w->r[i].phi * (double)span);
			if (hi > lo && hi != p->last_time)
				hi--;
		} else {
			/* a hostile file's times near 2^64: saturate, not wrap */
			if (__builtin_add_overflow(base, w->r[i].lo, &lo))
				lo = UINT64_MAX;
			if (!w->r[i].hi)
				hi = 0;
			else if (__builtin_add_overflow(base, w->r[i].hi, &hi))
				hi = UINT64_MAX;
		}
		if (t >= lo && (!hi || t <= hi))
			return 1;
	}
	return 0;
}

/* Each item of a numeric filter list is an integer. */
static int check_numbers(const char *list, const char *opt, const char *what)
{
	const char *s = list;

	if (!list)
		return 0;
	for (;;) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char buf[64], *end;
		long v;

		snprintf(buf, sizeof(buf), "%.*s", (int)(n < sizeof(buf) - 1 ? n : sizeof(buf) - 1), s);
		errno = 0;
		v = strtol(buf, &end, 10);
		if (!n || n >= sizeof(buf) || *end || errno || v < -1 || v > INT32_MAX) {
			return pmc__err(-EINVAL, "%s: '%.*s' is not %s", opt, (int)(n > 40 ? 40 : n),
			    s, what);
		}
		if (!e)
			return 0;
		s = e + 1;
	}
}

int profile__check_filter(const struct prof_filter *flt)
{
	int rc;

	pmc__clear_reason();
	if ((rc = check_numbers(flt->pids, "--pid", "a process id")) < 0 ||
	    (rc = check_numbers(flt->tids, "--tid", "a thread id")) < 0)
		return rc;
	if (flt->cpus && cpulist__check(flt->cpus) < 0)
		return pmc__err(-EINVAL, "--cpu: '%.40s' is not a CPU number or range (e.g. 0-3,6)",
		    flt->cpus);
	return 0;
}

/* Is item (a number or a name) in the comma list?  (CPU lists, whose
 * items may be ranges: cpulist__has.) */
static int in_list(const char *list, const char *name, long num, int numeric)
{
	const char *s = list;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (numeric) {
			char buf[64];
			snprintf(buf, sizeof(buf), "%.*s", (int)(n < 63 ? n : 63), s);
			if (strtol(buf, NULL, 10) == num)
				return 1;
		} else if (name && strlen(name) == n && strncmp(name, s, n) == 0) {
			return 1;
		}
		if (!e)
			break;
		s = e + 1;
	}
	return 0;
}

/* The filters that need no frames (cheap: checked first). */
static int match_sample(const struct profile *p, const struct prof_filter *flt,
    const struct prof_sample *s)
{
	if (flt->ev >= 0 && s->ev != flt->ev)
		return 0;
	if (flt->pids && !in_list(flt->pids, NULL, s->pid, 1))
		return 0;
	if (flt->tids && !in_list(flt->tids, NULL, s->tid, 1))
		return 0;
	if (flt->cpus && !cpulist__has(flt->cpus, s->cpu))
		return 0;
	if (flt->comms && !in_list(flt->comms, s->comm, 0, 0))
		return 0;
	if (flt->time.n && !profile__time_match(p, flt, s->time))
		return 0;
	return 1;
}

/* --dso and --sym: of the sampled function (the real one of the leaf pc). */
static int match_frames(const struct profile *p, const struct prof_filter *flt,
    const struct prof_frame *fr)
{
	if (!flt->dsos && !flt->syms)
		return 1;
	const struct prof_loc *l = &p->l[fr[0].loc];
	const struct prof_func *f = &p->f[l->func];
	if (flt->dsos && !in_list(flt->dsos, sym_dso__name(f->dso), 0, 0) &&
	    !in_list(flt->dsos, sym_dso__path(f->dso), 0, 0))
		return 0;
	if (flt->syms && !in_list(flt->syms, f->name, 0, 0))
		return 0;
	return 1;
}

int profile__match(struct profile *p, const struct prof_filter *flt, const struct prof_sample *s)
{
	const struct prof_frame *fr;
	if (!flt)
		return 1;
	if (!match_sample(p, flt, s))
		return 0;
	if (!flt->dsos && !flt->syms)
		return 1;
	if (profile__frames(p, s->stack, 0, &fr) < 0)
		return 0;               /* out of memory: profile__nomem says so */
	return match_frames(p, flt, fr);
}

/* Sample i (into *s) with its frames: how many, or -1 if it does not pass
 * the filter (or its frames could not be made: profile__nomem says so). */
static int sample_frames(struct profile *p, const struct prof_filter *flt, int flags, size_t i,
    struct prof_sample *s, const struct prof_frame **fr)
{
	int n;
	profile__sample(p, i, s);
	if (flt && !match_sample(p, flt, s))
		return -1;
	n = profile__frames(p, s->stack, flags, fr);
	if (n < 0 || (flt && !match_frames(p, flt, *fr)))
		return -1;
	return n;
}

void profile__foreach(struct profile *p, const struct prof_filter *flt, int flags, prof_cb cb,
    void *arg)
{
	profile__resolve(p);
	for (size_t i = 0; i < p->ns; i++) {
		struct prof_sample s;
		const struct prof_frame *fr;
		int n = sample_frames(p, flt, flags, i, &s, &fr);
		if (n >= 0)
			cb(arg, &s, fr, n);
	}
}

/* profile__foreach_group: the groups of one batch, in the order of their
 * first samples. */
struct group {
	uint32_t stack, ctx;
	const char *comm;
	size_t first;                 /* its first sample */
	uint64_t weight, count;
};

#define GROUP_BATCH 65536         /* groups gathered before they are handed out:
                                   * bounds the memory whatever the samples */

/*
 * The groups of the latest walk, for the next one with the same filter: a
 * report with call graphs walks once for the flat list, then for the call
 * tree (and speedscope twice), and the groups depend only on the filter
 * and the samples, not on the frames' flags.  Kept when they fitted one
 * batch; the filter's lists are copied, so a caller may reuse its buffers;
 * samples__version and the count tell whether the samples changed since.
 */
struct walk_memo {
	int has_flt;
	struct prof_filter flt;
	char *lists[6];               /* flt's pids .. cpus, copied */
	uint64_t version;
	size_t ns;
	struct group *g;
	size_t ng;
};

void prof__memo_free(struct walk_memo *w)
{
	if (!w)
		return;
	for (int i = 0; i < 6; i++)
		free(w->lists[i]);
	free(w->g);
	free(w);
}

static int same_list(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Does the memo hold the groups of a walk with flt over the samples as
 * they are? */
static int memo_matches(const struct profile *p, const struct walk_memo *w,
    const struct prof_filter *flt)
{
	if (!w || w->version != samples__version(p->smp) || w->ns != p->ns ||
	    w->has_flt != !!flt)
		return 0;
	if (!flt)
		return 1;
	const struct prof_filter *m = &w->flt;
	return m->ev == flt->ev && same_list(m->pids, flt->pids) &&
	    same_list(m->tids, flt->tids) && same_list(m->comms, flt->comms) &&
	    same_list(m->dsos, flt->dsos) && same_list(m->syms, flt->syms) &&
	    same_list(m->cpus, flt->cpus) &&
	    memcmp(&m->time, &flt->time, sizeof(flt->time)) == 0;
}

/* A copy of list (NULL stays NULL) into *keep: 0, or -1 out of memory. */
static int copy_list(const char **list, char **keep)
{
	if (*list && !(*list = *keep = strdup(*list)))
		return -1;
	return 0;
}

/* Keep groups g[0..ng) of a walk with flt (taking g); nothing is kept
 * (g freed) when the filter cannot be copied. */
static void memo_keep(struct profile *p, const struct prof_filter *flt, struct group *g,
    size_t ng)
{
	struct walk_memo *w = calloc(1, sizeof(*w));
	prof__memo_free(p->priv->wm);
	p->priv->wm = NULL;
	if (!w) {
		free(g);
		return;
	}
	w->g = g;
	w->has_flt = !!flt;
	if (flt) {
		struct prof_filter *m = &w->flt;
		*m = *flt;
		if (copy_list(&m->pids, &w->lists[0]) || copy_list(&m->tids, &w->lists[1]) ||
		    copy_list(&m->comms, &w->lists[2]) || copy_list(&m->dsos, &w->lists[3]) ||
		    copy_list(&m->syms, &w->lists[4]) || copy_list(&m->cpus, &w->lists[5])) {
			prof__memo_free(w);
			return;
		}
	}
	w->version = samples__version(p->smp);
	w->ns = p->ns;
	w->ng = ng;
	p->priv->wm = w;
}

/* Hand out groups g[0..ng). */
static void groups_hand_out(struct profile *p, const struct prof_filter *flt, int flags,
    prof_group_cb cb, void *arg, const struct group *g, size_t ng)
{
	for (size_t k = 0; k < ng; k++) {
		struct prof_sample s;
		const struct prof_frame *fr;
		int n;
		profile__sample(p, g[k].first, &s);
		n = profile__frames(p, s.stack, flags, &fr);
		if (n < 0)
			continue;       /* out of memory: profile__nomem says so */
		if (flt && !match_frames(p, flt, fr))
			continue;
		cb(arg, &s, g[k].weight, g[k].count, fr, n);
	}
}

/* Hand out the batch's groups (and forget them: memo, map). */
static void groups_flush(struct profile *p, const struct prof_filter *flt, int flags,
    prof_group_cb cb, void *arg, struct group *g, size_t ng, uint32_t *memo, struct hmap *m)
{
	groups_hand_out(p, flt, flags, cb, arg, g, ng);
	for (size_t k = 0; k < ng; k++)
		memo[g[k].stack] = 0;
	if (m->t)
		memset(m->t, 0, m->cap * sizeof(*m->t));
	m->n = 0;
}

void profile__foreach_group(struct profile *p, const struct prof_filter *flt, int flags,
    prof_group_cb cb, void *arg)
{
	struct prof_priv *v = p->priv;
	size_t nc = samples__nctx(p->smp), ng = 0;
	int batches = 0;
	profile__resolve(p);
	if (memo_matches(p, v->wm, flt)) {
		groups_hand_out(p, flt, flags, cb, arg, v->wm->g, v->wm->ng);
		return;
	}
	/* per context: 0 no sample passes, 1 all pass, 2 each sample is
	 * decoded and tested (a time window, a name filter on a name that
	 * changes over time, a context named only per sample) */
	uint8_t *how = malloc(nc ? nc : 1);
	uint32_t *memo = calloc(v->nst ? v->nst : 1, sizeof(*memo));   /* group + 1 */
	/* grown as needed: a few groups take a few bytes (a large block freed
	 * would also raise malloc's threshold for mapping, for the rest of the
	 * process) */
	size_t capg = 1024;
	struct group *g = malloc(capg * sizeof(*g));
	struct hmap m = { 0 };
	if (!how || !memo || !g) {
		/* out of memory for the groups: each sample is its own (the same sums) */
		free(how);
		free(memo);
		free(g);
		for (size_t i = 0; i < p->ns; i++) {
			struct prof_sample s;
			const struct prof_frame *fr;
			int n = sample_frames(p, flt, flags, i, &s, &fr);
			if (n >= 0)
				cb(arg, &s, prof_weight(&s), prof_count(&s), fr, n);
		}
		return;
	}
	for (size_t c = 0; c < nc; c++) {
		struct prof_sample s;
		uint32_t names = samples__ctx_sample(p->smp, c, &s);
		struct prof_filter f;
		if (!flt) {
			how[c] = names ? 1 : 2;
			continue;
		}
		/* what the context alone decides: all but the time, and the name
		 * if it changes over time */
		f = *flt;
		f.time.n = 0;
		if (names != 1)
			f.comms = NULL;
		how[c] = !match_sample(p, &f, &s) ? 0 :
		    !names || flt->time.n || (names > 1 && flt->comms) ? 2 : 1;
	}
	struct sample_key key[256];
	for (size_t i = 0; i < p->ns; i++) {
		if (i % 256 == 0)
			samples__keys(p->smp, i, p->ns - i < 256 ? p->ns - i : 256, key);
		uint32_t stack = key[i % 256].stack, ctx = key[i % 256].ctx, k;
		uint64_t w = key[i % 256].weight, cn = key[i % 256].count;
		const char *name = key[i % 256].comm;
		if (!how[ctx] || stack >= v->nst)
			continue;
		if (how[ctx] == 2) {
			struct prof_sample s;
			profile__sample(p, i, &s);
			if (flt && !match_sample(p, flt, &s))
				continue;
			name = s.comm;
		}
		/* most samples repeat the latest group of their stack */
		if ((k = memo[stack]) && g[k - 1].ctx == ctx && g[k - 1].comm == name) {
			g[k - 1].weight += w;
			g[k - 1].count += cn;
			continue;
		}
		int found;
		struct hent *e = hmap_slot(&m, (uint64_t)stack << 32 | ctx, (uintptr_t)name, &found);
		if (e && found) {
			memo[stack] = e->v + 1;
			g[e->v].weight += w;
			g[e->v].count += cn;
			continue;
		}
		if (ng == capg && capg < GROUP_BATCH)
			(void)GROW(g, ng, capg);   /* if not, a full batch */
		if (ng == capg || !e) {
			/* a full batch (or no room): hand it out, start again */
			groups_flush(p, flt, flags, cb, arg, g, ng, memo, &m);
			ng = 0;
			batches++;
			e = hmap_slot(&m, (uint64_t)stack << 32 | ctx, (uintptr_t)name, &found);
		}
		if (e)
			e->v = (uint32_t)ng;
		g[ng] = (struct group){ stack, ctx, name, i, w, cn };
		memo[stack] = (uint32_t)++ng;
	}
	groups_flush(p, flt, flags, cb, arg, g, ng, memo, &m);
	free(m.t);
	free(how);
	free(memo);
	if (batches == 0)
		memo_keep(p, flt, g, ng);
	else
		free(g);
}
