/*
 * svg.c — `pmc report -F svg`: the flame graph of the first event
 * with samples (or the one the filters leave), caller → callee, with
 * inlined frames unless --no-inline.
 */
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "profile/flamegraph.h"

struct fgarg {
	struct profile *p;
};

static const char *nm(void *arg, const struct ctree *t, uint32_t i)
{
	struct fgarg *a = arg;
	return t->n[i].func == UINT32_MAX ? (t->n[i].comm ? t->n[i].comm : "?") :
	    report__frame_name(a->p, t->n[i].func);
}

static const char *dso(void *arg, const struct ctree *t, uint32_t i)
{
	struct fgarg *a = arg;
	return t->n[i].func == UINT32_MAX ? "" : sym_dso__name(a->p->f[t->n[i].func].dso);
}

int export__svg(FILE *f, struct profile *p, const struct report_opts *o)
{
	int evs[256], n = report__events(p, evs, 256), rc;
	struct ctree t;
	struct prof_filter flt = o->flt;
	struct fgarg a = { p };
	char title[512], sub[8192];

	profile__resolve(p);
	flt.ev = n ? evs[0] : -1;
	if (tree__build(&t, p, &flt, TREE_CALLER, o->inline_frames ? PROF_INLINE : 0, 0) != 0)
		return -1;
	tree__sort(&t);
	snprintf(title, sizeof(title), "Flame Graph: %s", n ? p->ev[evs[0]].name : "no samples");
	snprintf(sub, sizeof(sub), "%s%s%s", o->input_name ? o->input_name : "",
	    p->hdr.cmdline[0] ? " — " : "", p->hdr.cmdline);
	struct fg_style st = { title, sub, nm, dso, NULL, NULL, &a,
		n && p->ev[evs[0]].what ? "ns" : "samples" };
	rc = flamegraph__svg(f, &t, &st);
	tree__free(&t);
	return rc;
}

const struct export_format export__format_svg = {
	.name = "svg", .needs_chains = EXPORT_CHAINS, .needs_time_order = 1,
	.fn = export__svg,
};
