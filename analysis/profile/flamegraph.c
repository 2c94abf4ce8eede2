/*
 * flamegraph.c — SVG flame graphs (flamegraph.h).  Geometry follows
 * flamegraph.pl: 1200 px wide, 16 px frames, frames narrower than 0.1 px
 * are left out (with their descendants).  Every frame is a <g class="f">
 * with data-id, data-parent and data-samples, so tools and tests can read
 * the graph back; the script only rescales x/width for zoom.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile/flamegraph.h"

#define W 1200.0
#define XPAD 10.0
#define FH 16
#define TOP 60
#define BOTTOM 34
#define MINW 0.1

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, f);
		}
	}
}

static uint32_t hashs(const char *s)
{
	uint32_t h = 2166136261u;
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int maxdepth(const struct ctree *t, uint32_t i, int d, double scale)
{
	int m = d;
	for (uint32_t c = t->n[i].child; c != UINT32_MAX; c = t->n[c].next) {
		if ((double)tree__width(t, c) * scale < MINW)
			continue;
		int k = maxdepth(t, c, d + 1, scale);
		if (k > m)
			m = k;
	}
	return m;
}

struct ctx {
	FILE *f;
	const struct ctree *t;
	const struct fg_style *st;
	double scale;
	int height;
	uint64_t total;
};

static void frame(struct ctx *x, uint32_t i, int parent_id, int d, uint64_t off)
{
	const struct tnode *n = &x->t->n[i];
	uint64_t width = tree__width(x->t, i);
	double w = (double)width * x->scale;
	if (w < MINW)
		return;
	double px = XPAD + (double)off * x->scale;
	int y = x->height - BOTTOM - (d + 1) * FH;
	const char *name = i == 0 ? "all" : x->st->name(x->st->arg, x->t, i);
	const char *dso = i == 0 ? "" : x->st->dso ? x->st->dso(x->st->arg, x->t, i) : "";
	char col[64], extra[256];
	const char *c = x->st->color ? x->st->color(x->st->arg, x->t, i, col, sizeof(col)) : NULL;
	const char *ex = x->st->extra ? x->st->extra(x->st->arg, x->t, i, extra, sizeof(extra)) : NULL;
	if (!c) {
		uint32_t h = hashs(name);
		int kernel = dso && strcmp(dso, "[kernel.kallsyms]") == 0;
		if (kernel)
			snprintf(col, sizeof(col), "rgb(%u,%u,%u)", 200 + h % 55, 120 + (h >> 8) % 60, 40);
		else
			snprintf(col, sizeof(col), "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 130,
			    (h >> 16) % 55);
		c = col;
	}
	double pct = x->total ? 100.0 * (double)width / (double)x->total : 0;
	fprintf(x->f, "<g class=\"f\" data-id=\"%u\" data-parent=\"%d\" data-samples=\"%" PRIu64
	    "\"><title>", i, parent_id, width);
	esc(x->f, name);
	if (dso && *dso) {
		/* "[kernel.kallsyms]" and "[unknown]" are bracketed already */
		fputs(dso[0] == '[' ? " " : " [", x->f);
		esc(x->f, dso);
		fputs(dso[0] == '[' ? "" : "]", x->f);
	}
	fprintf(x->f, " (%" PRIu64 " %s, %.2f%%", width, x->st->unit ? x->st->unit : "samples",
	    pct);
	if (ex) {
		fputs(", ", x->f);
		esc(x->f, ex);
	}
	fprintf(x->f, ")</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\" "
	    "rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%d\">", px, y, w, FH - 1, c, px + 3, y + 11);
	/* the label: as many characters as fit at ~7 px each */
	int fit = (int)((w - 6) / 7);
	if (fit >= 3) {
		size_t len = strlen(name);
		if ((int)len <= fit) {
			esc(x->f, name);
		} else {
			char buf[512];
			snprintf(buf, sizeof(buf), "%.*s..", fit - 2 < 500 ? fit - 2 : 500, name);
			esc(x->f, buf);
		}
	}
	fputs("</text></g>\n", x->f);
	uint64_t o = off;
	for (uint32_t k = n->child; k != UINT32_MAX; k = x->t->n[k].next) {
		frame(x, k, (int)i, d + 1, o);
		o += tree__width(x->t, k);
	}
}

static const char script[] =
"<script type=\"text/ecmascript\"><![CDATA[\n"
"var frames, details, searchbtn, matchedtxt, svg, W0 = " "1180" ";\n"
"function init(evt) {\n"
"  svg = document.documentElement;\n"
"  details = document.getElementById('details').firstChild;\n"
"  searchbtn = document.getElementById('search');\n"
"  matchedtxt = document.getElementById('matched');\n"
"  frames = document.getElementsByClassName('f');\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var r = frames[i].getElementsByTagName('rect')[0];\n"
"    frames[i].dataset.x = r.getAttribute('x');\n"
"    frames[i].dataset.w = r.getAttribute('width');\n"
"    frames[i].dataset.label = frames[i].getElementsByTagName('text')[0].textContent;\n"
"    frames[i].dataset.name = frames[i].getElementsByTagName('title')[0].textContent.replace(/ [\\[(].*$/, '');\n"
"    frames[i].onmouseover = function() { details.nodeValue = this.getElementsByTagName('title')[0].textContent; };\n"
"    frames[i].onmouseout = function() { details.nodeValue = ' '; };\n"
"    frames[i].onclick = function() { zoom(this); };\n"
"  }\n"
"  window.addEventListener('keydown', function(e) {\n"
"    if (e.keyCode === 114 || (e.ctrlKey && e.keyCode === 70)) { e.preventDefault(); search_prompt(); }\n"
"  });\n"
"  /* the root is drawn at the bottom: a deep graph opens there, on the samples */\n"
"  if (window.scrollTo) window.scrollTo(0, svg.getBoundingClientRect().height);\n"
"}\n"
"function byId(id) { for (var i = 0; i < frames.length; i++) if (frames[i].dataset.id == id) return frames[i]; return null; }\n"
"function ancestors(g) { var a = {}; while (g) { a[g.dataset.id] = 1; g = byId(g.dataset.parent); } return a; }\n"
"function place(g, x, w) {\n"
"  var r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];\n"
"  r.setAttribute('x', x); r.setAttribute('width', Math.max(w, 0));\n"
"  t.setAttribute('x', x + 3);\n"
"  var fit = Math.floor((w - 6) / 7), s = g.dataset.name;\n"
"  t.textContent = fit < 3 ? '' : (s.length <= fit ? s : s.substring(0, fit - 2) + '..');\n"
"  g.style.display = w < 0.1 ? 'none' : '';\n"
"}\n"
"function zoom(node) {\n"
"  var x0 = parseFloat(node.dataset.x), w0 = parseFloat(node.dataset.w), s = W0 / w0;\n"
"  var anc = ancestors(node), y0 = parseFloat(node.getElementsByTagName('rect')[0].getAttribute('y'));\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var g = frames[i], x = parseFloat(g.dataset.x), w = parseFloat(g.dataset.w);\n"
"    var y = parseFloat(g.getElementsByTagName('rect')[0].getAttribute('y'));\n"
"    if (anc[g.dataset.id]) { place(g, 10, W0); g.style.opacity = 0.5; continue; }\n"
"    g.style.opacity = '';\n"
"    if (y >= y0 || x + w <= x0 + 1e-6 || x >= x0 + w0 - 1e-6) { g.style.display = 'none'; continue; }\n"
"    place(g, 10 + (x - x0) * s, w * s);\n"
"  }\n"
"  document.getElementById('unzoom').style.opacity = 1;\n"
"}\n"
"function unzoom() {\n"
"  for (var i = 0; i < frames.length; i++) { var g = frames[i]; g.style.opacity = ''; place(g, parseFloat(g.dataset.x), parseFloat(g.dataset.w)); }\n"
"  document.getElementById('unzoom').style.opacity = 0;\n"
"}\n"
"function search_prompt() {\n"
"  var term = prompt('Search for (regular expression):', '');\n"
"  if (term) search(term); else reset_search();\n"
"}\n"
"function reset_search() {\n"
"  for (var i = 0; i < frames.length; i++) { var r = frames[i].getElementsByTagName('rect')[0]; if (r.dataset.fill) { r.setAttribute('fill', r.dataset.fill); delete r.dataset.fill; } }\n"
"  matchedtxt.firstChild.nodeValue = ' ';\n"
"}\n"
"function search(term) {\n"
"  var re = new RegExp(term), total = 0, matched = 0, seen = {};\n"
"  reset_search();\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var g = frames[i], r = g.getElementsByTagName('rect')[0], n = parseInt(g.dataset.samples);\n"
"    if (g.dataset.parent == '-1') total = n;\n"
"    if (re.test(g.dataset.name)) {\n"
"      r.dataset.fill = r.getAttribute('fill'); r.setAttribute('fill', 'rgb(230,0,230)');\n"
"      var a = ancestors(byId(g.dataset.parent)), counted = false;\n"
"      for (var k in a) if (seen[k]) counted = true;\n"
"      if (!counted) { matched += n; }\n"
"      seen[g.dataset.id] = 1;\n"
"    }\n"
"  }\n"
"  matchedtxt.firstChild.nodeValue = 'Matched: ' + (total ? (100 * matched / total).toFixed(1) : 0) + '%';\n"
"}\n"
"]]></script>\n";

int flamegraph__svg(FILE *f, const struct ctree *t, const struct fg_style *st)
{
	struct ctx x = { f, t, st, 0, 0, t->nn ? tree__width(t, 0) : 0 };
	x.scale = x.total ? (W - 2 * XPAD) / (double)x.total : 0;
	int depth = t->nn ? maxdepth(t, 0, 0, x.scale) : 0;
	x.height = TOP + (depth + 1) * FH + BOTTOM;
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	    "<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "onload=\"init(evt)\" xmlns=\"http://www.w3.org/2000/svg\">\n", (int)W, x.height, (int)W,
	    x.height);
	fprintf(f, "<style type=\"text/css\">text { font-family: Verdana, sans-serif; font-size: 12px; "
	    "fill: rgb(0,0,0); } .f:hover rect { stroke: black; stroke-width: 0.5; cursor: pointer; } "
	    "#title { font-size: 17px; text-anchor: middle; } #sub { fill: rgb(90,90,90); "
	    "text-anchor: middle; } .btn { cursor: pointer; fill: rgb(60,60,160); }</style>\n");
	fputs(script, f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"rgb(248,248,240)\"/>\n",
	    (int)W, x.height);
	fprintf(f, "<text id=\"title\" x=\"%d\" y=\"24\">", (int)(W / 2));
	esc(f, st->title ? st->title : "Flame Graph");
	fprintf(f, "</text>\n<text id=\"sub\" x=\"%d\" y=\"44\">", (int)(W / 2));
	esc(f, st->subtitle ? st->subtitle : "");
	fprintf(f, "</text>\n");
	fprintf(f, "<text id=\"unzoom\" class=\"btn\" x=\"10\" y=\"24\" onclick=\"unzoom()\" "
	    "style=\"opacity:0\">Reset Zoom</text>\n");
	fprintf(f, "<text id=\"search\" class=\"btn\" x=\"%d\" y=\"24\" onclick=\"search_prompt()\">"
	    "Search</text>\n", (int)W - 70);
	fprintf(f, "<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n", (int)W - 150, x.height - 12);
	fprintf(f, "<text id=\"details\" x=\"10\" y=\"%d\"> </text>\n", x.height - 12);
	if (t->nn && x.total)
		frame(&x, 0, -1, 0, 0);
	fprintf(f, "</svg>\n");
	return ferror(f) ? -1 : 0;
}
