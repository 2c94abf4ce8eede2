/*
 * export.c — the table of `pmc report -F` formats (export.h): the rows of
 * the text and JSON reports, whose writers are the report's (report/), and
 * the lookups.  Each export/NAME.c declares its own row.
 */
#include <string.h>

#include "export/export.h"

const struct export_format export__format_text = {
	.name = "text", .terminal = 1, .needs_chains = EXPORT_CHAINS_IF_ASKED,
	.fn = report__text,
};
const struct export_format export__format_json = {
	.name = "json", .needs_chains = EXPORT_CHAINS_IF_ASKED, .fn = report__json,
};

const struct export_format *const export__formats[] = {
	&export__format_text, &export__format_json, &export__format_folded,
	&export__format_pprof, &export__format_speedscope, &export__format_callgrind,
	&export__format_svg, &export__format_html, NULL,
};

const struct export_format *export__find(const char *name)
{
	for (size_t i = 0; export__formats[i]; i++)
		if (strcmp(export__formats[i]->name, name) == 0)
			return export__formats[i];
	return NULL;
}

void export__names(char *buf, size_t len)
{
	size_t at = 0;
	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; export__formats[i] && at < len; i++) {
		int k = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", export__formats[i]->name);
		if (k < 0)
			break;
		at += (size_t)k;
	}
}

void export__load_opts(const struct export_format *fmt, const struct report_opts *o,
    struct prof_load_opts *lo)
{
	/* a flat report reads each sample's leaf only: the rest of the chain
	 * is not decoded, stored or resolved */
	lo->leaf_only = fmt->needs_chains == EXPORT_CHAINS_IF_ASKED && !report__uses_chains(o);
	/* rows and call-graph nodes that sort on their keys, never on the
	 * order samples came in, take them as the file holds them, without
	 * putting them in time order first */
	lo->input_order = !fmt->needs_time_order;
	/* a format that adds samples up per stack and context, without a time
	 * window, has only the sums stored */
	lo->sums = !fmt->needs_timeline && !o->flt.time.n;
}
