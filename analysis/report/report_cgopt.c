/*
 * report_cgopt.c — the argument of `pmc report -g/--call-graph`, in perf
 * report's grammar so that a perf user's habits work: comma-separated
 * words in any order, each a prefix of a keyword (perf's
 * __parse_callchain_report_opt), and numbers: the first is the threshold
 * (%), the second the print limit (entries per level).  What pmc does not
 * do is refused with a message naming what it does instead.  The depth
 * limit is -z/--depth (pmcstat) or --max-stack (perf).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "common/error.h"

/* tok is a non-empty prefix of word (perf's matching). */
static int is(const char *tok, const char *word)
{
	return *tok && strncmp(word, tok, strlen(tok)) == 0;
}

int report__parse_callgraph(struct report_opts *o, const char *arg, const char **note)
{
	char buf[256], *save = NULL, *tok, *end;
	int nnum = 0, dwarf = 0;

	*note = NULL;
	pmc__clear_reason();
	o->callgraph = TREE_CALLER;
	if (!arg)
		return 0;
	if (strlen(arg) >= sizeof(buf))
		return pmc__err(-EINVAL, "'%.40s...' is too long", arg);
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (is(tok, "none")) {
			o->callgraph = -1;
			return 0;
		}
		if (is(tok, "graph") || is(tok, "function") || is(tok, "percent"))
			continue;   /* what pmc prints: absolute %, by function */
		if (is(tok, "caller")) {
			o->callgraph = TREE_CALLER;
		} else if (is(tok, "callee")) {
			o->callgraph = TREE_CALLEE;
		} else if (is(tok, "fractal")) {
			return pmc__err(-EINVAL, "'fractal' (percentages of the parent) is not supported: "
			    "pmc prints percentages of the whole (perf's 'graph')");
		} else if (is(tok, "flat") || is(tok, "folded")) {
			return pmc__err(-EINVAL, "'%s' is not a call graph style of pmc report: use "
			    "-F folded for folded stacks", tok);
		} else if (is(tok, "address") || is(tok, "srcline") || is(tok, "branch")) {
			return pmc__err(-EINVAL, "'%s': call graphs are keyed by function only (source "
			    "lines: -s sym,srcline or pmc annotate)", tok);
		} else if (is(tok, "period") || is(tok, "count")) {
			return pmc__err(-EINVAL, "'%s': call graphs show percentages only (counts: "
			    "-F json)", tok);
		} else if (strcmp(tok, "fp") == 0 || strcmp(tok, "dwarf") == 0 ||
		    strcmp(tok, "lbr") == 0) {
			/* perf record's unwinding methods: the report shows
			 * whatever chains were recorded */
#define UNWIND_NOTE(m) "-g " m ": the unwinding method is chosen when recording " \
			    "(pmc record --call-graph); showing the recorded call chains"
			*note = strcmp(tok, "fp") == 0 ? UNWIND_NOTE("fp") :
			    strcmp(tok, "dwarf") == 0 ? UNWIND_NOTE("dwarf") : UNWIND_NOTE("lbr");
#undef UNWIND_NOTE
			dwarf = strcmp(tok, "dwarf") == 0;
			continue;
		} else if (dwarf && strtoul(tok, &end, 0) > 0 && !*end) {
			dwarf = 0;   /* dwarf,SIZE: the stack dump size */
			continue;
		} else {
			if (nnum == 0) {
				o->cg_threshold = strtod(tok, &end);
				if (end == tok || *end || !(o->cg_threshold >= 0 && o->cg_threshold <= 100)) {   /* NaN too */
					return pmc__err(-EINVAL, "'%s' is not a threshold (%%), an order (caller, "
					    "callee) or another word perf report takes", tok);
				}
			} else if (nnum == 1) {
				long v = strtol(tok, &end, 10);
				if (end == tok || *end || v < 0 || v > 1000000) {
					return pmc__err(-EINVAL, "'%s' is not a print limit (entries per level)",
					    tok);
				}
				o->cg_limit = (int)v;
			} else {
				return pmc__err(-EINVAL, "'%s': only a threshold and a print limit are numbers",
				    tok);
			}
			nnum++;
		}
	}
	return 0;
}
