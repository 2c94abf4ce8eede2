/*
 * flamegraph.h — the SVG flame graph writer shared by `pmc report -F svg`
 * and `pmc diff -F svg`: flamegraph.pl's picture (root at the bottom, one
 * box per call path, width = samples), drawn by pmc, with the same
 * interactions in an embedded script: hover for details, click to zoom,
 * Ctrl-F / the Search button to highlight matching functions, reset.
 */
#ifndef PMCSTAT_FLAMEGRAPH_H
#define PMCSTAT_FLAMEGRAPH_H

#include <stdio.h>

#include "profile/tree.h"

struct fg_style {
	const char *title, *subtitle;
	/* name and binary of a node (for the label and the tooltip) */
	const char *(*name)(void *arg, const struct ctree *t, uint32_t node);
	const char *(*dso)(void *arg, const struct ctree *t, uint32_t node);
	/* a fill colour ("rgb(r,g,b)") and an extra tooltip text, or NULL for
	 * the default warm palette */
	const char *(*color)(void *arg, const struct ctree *t, uint32_t node, char *buf, size_t len);
	const char *(*extra)(void *arg, const struct ctree *t, uint32_t node, char *buf, size_t len);
	void *arg;
	const char *unit;          /* "samples" */
};

/* Write the SVG of tree t (built TREE_CALLER); widths from tree__width.
 * 0, or -1 on a write error. */
int flamegraph__svg(FILE *f, const struct ctree *t, const struct fg_style *st);

#endif
