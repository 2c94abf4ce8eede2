/*
 * speedscope.c — speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): shared frames (one
 * per function, with its file and line when known), one "sampled" profile
 * per event whose samples are the stacks in time order (root first) and
 * whose weights are the samples' periods (nanoseconds for cpu-clock and
 * task-clock, "none" — event counts — otherwise).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"

struct ss {
	FILE *f;
	struct profile *p;
	int32_t *fix;             /* func -> frame index, -1 */
	int first;
	uint64_t total;
	int pass;                 /* 0: samples, 1: weights */
};

static void sample(void *arg, const struct prof_sample *s, const struct prof_frame *fr, int n)
{
	struct ss *x = arg;
	if (x->pass == 1) {
		fprintf(x->f, "%s%" PRIu64, x->first ? "" : ",", prof_weight(s));
		x->first = 0;
		x->total += prof_weight(s);
		return;
	}
	fprintf(x->f, "%s[", x->first ? "" : ",");
	x->first = 0;
	for (int i = n - 1; i >= 0; i--)
		fprintf(x->f, "%d%s", x->fix[fr[i].func], i ? "," : "");
	putc(']', x->f);
}

static void noop(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
}

static void mark(void *arg, const struct prof_sample *s, uint64_t w, uint64_t cnt,
    const struct prof_frame *fr, int n)
{
	struct ss *x = arg;
	for (int i = 0; i < n; i++)
		if (x->fix[fr[i].func] == -2)
			x->fix[fr[i].func] = -3;   /* used, file/line below */
}

int export__speedscope(FILE *f, struct profile *p, const struct report_opts *o)
{
	int evs[256], nev = report__events(p, evs, 256);
	int flags = (o->inline_frames ? PROF_INLINE : 0) | PROF_LINES;
	struct ss x = { f, p, NULL, 1, 0, 0 };

	profile__resolve(p);
	/* Walking the stacks with lines and inlines creates their function
	 * entries: walk once before sizing the frame table by p->nf. */
	profile__foreach_group(p, &o->flt, flags, noop, NULL);
	x.fix = malloc((p->nf ? p->nf : 1) * sizeof(*x.fix));
	if (!x.fix)
		return -1;
	for (size_t i = 0; i < p->nf; i++)
		x.fix[i] = -2;
	profile__foreach_group(p, &o->flt, flags, mark, &x);
	fprintf(f, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	    "\"exporter\":\"pmc report %s\",\"name\":", PMC_VERSION_STRING);
	json__string(f, o->input_name ? o->input_name : "pmc");
	fprintf(f, ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
	int nfr = 0;
	for (size_t i = 0; i < p->nf; i++) {
		if (x.fix[i] != -3)
			continue;
		x.fix[i] = nfr;
		fprintf(f, "%s{\"name\":", nfr ? "," : "");
		json__string(f, p->f[i].name);
		fprintf(f, ",\"file\":");
		json__string(f, sym_dso__path(p->f[i].dso));
		fprintf(f, "}");
		nfr++;
	}
	fprintf(f, "]},\"profiles\":[");
	for (int e = 0; e < nev; e++) {
		const char *en = p->ev[evs[e]].name;
		/* weights in ns: the clocks, and off-CPU / wall-clock time (offcpu.h) */
		int clock = strncmp(en, "cpu-clock", 9) == 0 || strncmp(en, "task-clock", 10) == 0 ||
		    p->ev[evs[e]].what;
		struct prof_filter flt = o->flt;
		flt.ev = evs[e];
		fprintf(f, "%s{\"type\":\"sampled\",\"name\":", e ? "," : "");
		json__string(f, en);
		fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"samples\":[", clock ? "nanoseconds" : "none");
		x.pass = 0;
		x.first = 1;
		profile__foreach(p, &flt, flags, sample, &x);
		fprintf(f, "],\"weights\":[");
		x.pass = 1;
		x.first = 1;
		x.total = 0;
		profile__foreach(p, &flt, flags, sample, &x);
		fprintf(f, "],\"endValue\":%" PRIu64 "}", x.total);
	}
	fprintf(f, "]}\n");
	free(x.fix);
	return ferror(f) ? -1 : 0;
}

const struct export_format export__format_speedscope = {
	.name = "speedscope", .needs_chains = EXPORT_CHAINS, .needs_time_order = 1,
	.needs_timeline = 1,
	.fn = export__speedscope,
};
