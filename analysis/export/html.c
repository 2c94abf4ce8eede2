/*
 * html.c — one self-contained HTML report (no network, no external
 * files): summary, flat profile table (every function with its self and
 * children shares and samples; click a heading to sort, pages of rows),
 * call tree (expandable), and an interactive flame graph (click to zoom,
 * search with the matched share; --flame-by: a level per command, process
 * or thread).
 * The data is embedded as JSON; a small script draws it.  The page sets
 * #status to "ready" when drawn, or to the error if a script failed (the
 * tests load it in headless Chromium and check that).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/json.h"
#include "export/export.h"

static void tree_json(FILE *f, struct profile *p, const struct ctree *t, uint32_t i, uint64_t min)
{
	const struct tnode *n = &t->n[i];
	char grp[512];
	fputs("{\"n\":", f);
	if (i == 0) {
		json__string_html(f, "all");
	} else if (n->func == UINT32_MAX) {
		/* a --flame-by level: "cc1 [1234]" for a process or thread */
		if (n->id >= 0 && n->id != INT32_MAX)
			snprintf(grp, sizeof(grp), "%s [%d]", n->comm ? n->comm : "?", (int)n->id);
		else
			snprintf(grp, sizeof(grp), "%s", n->comm ? n->comm : "?");
		json__string_html(f, grp);
	} else {
		json__string_html(f, report__frame_name(p, n->func));
	}
	fputs(",\"d\":", f);
	json__string_html(f, i == 0 || n->func == UINT32_MAX ? "" : report__dso_name(p, n->func));
	fprintf(f, ",\"v\":%" PRIu64 ",\"c\":[", tree__width(t, i));
	int first = 1;
	for (uint32_t c = n->child; c != UINT32_MAX; c = t->n[c].next) {
		if (tree__width(t, c) < min)
			continue;
		if (!first)
			putc(',', f);
		first = 0;
		tree_json(f, p, t, c, min);
	}
	fputs("]}", f);
}

static const char page_head[] =
"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
"<title>pmc report</title>\n<style>\n"
"body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222;background:#fcfcf8}\n"
"h1{font-size:20px}h2{font-size:16px;margin-top:1.5em;border-bottom:1px solid #ccc}\n"
"table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;text-align:left}\n"
"th{cursor:pointer;background:#eee}th.sorted{background:#dde}tr:nth-child(even){background:#f4f4ee}\n"
"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
".bar{display:inline-block;height:10px;background:#e8743b;vertical-align:middle}\n"
"#fgbox{max-height:70vh;overflow-y:auto;border:1px solid #ccc}\n"
"#fg{position:relative;background:#f8f8f0;overflow:hidden}\n"
"#fg div{position:absolute;height:15px;font-size:11px;line-height:15px;overflow:hidden;"
"white-space:nowrap;border-radius:2px;cursor:pointer;padding-left:2px;box-sizing:border-box;"
"border-right:1px solid #f8f8f0}\n"
"#fg div.match{background:#e040e0 !important}\n"
"details{margin-left:1.2em}summary{cursor:pointer}.dso{color:#888}\n"
"#status{color:#888;font-size:11px}\n"
"</style></head><body>\n"
"<h1>pmc report</h1><div id=\"summary\"></div>\n"
"<p><label>Event: <select id=\"ev\"></select></label></p>\n"
"<h2>Flame graph</h2><p><button id=\"reset\">Reset zoom</button> "
"<input id=\"q\" placeholder=\"search (regular expression)\"> <span id=\"matched\"></span></p>\n"
"<div id=\"fgbox\"><div id=\"fg\"></div></div><div id=\"fgdetail\">&nbsp;</div>\n"
"<h2>Flat profile</h2><p id=\"pager\"><button id=\"prev\">&lsaquo; Previous</button> "
"<span id=\"rows\"></span> <button id=\"next\">Next &rsaquo;</button> "
"<label>rows per page <select id=\"per\"><option>50</option><option selected>100</option>"
"<option>500</option><option value=\"0\">all</option></select></label></p>\n"
"<table id=\"flat\"></table>\n"
"<h2>Call tree (caller &rarr; callee)</h2><div id=\"tree\"></div>\n"
"<p id=\"status\">loading</p>\n"
"<script>window.onerror=function(m,s,l){document.getElementById('status').textContent="
"'error: '+m+' (line '+l+')';};</script>\n"
"<script id=\"data\" type=\"application/json\">";

static const char page_tail[] =
"</script>\n<script>\n"
"(function(){\n"
"var D=JSON.parse(document.getElementById('data').textContent);\n"
"function el(t,a,txt){var e=document.createElement(t);for(var k in a)e.setAttribute(k,a[k]);"
"if(txt!==undefined)e.textContent=txt;return e;}\n"
"function pct(v,t){return t?(100*v/t).toFixed(2)+'%':'0%';}\n"
"var s=document.getElementById('summary');\n"
"D.header.forEach(function(l){s.appendChild(el('div',{},l));});\n"
"var sel=document.getElementById('ev');\n"
"D.events.forEach(function(e,i){sel.appendChild(el('option',{value:i},e.name+' ('+e.samples+' samples, '+e.lost+' lost)'));});\n"
"function color(n){var h=0;for(var i=0;i<n.length;i++)h=(h*31+n.charCodeAt(i))>>>0;"
"return 'rgb('+(205+h%50)+','+(80+(h>>8)%130)+','+((h>>16)%55)+')';}\n"
"var E,zoomed;\n"
"function flame(root){\n"
"  var fg=document.getElementById('fg'),W=fg.clientWidth||1000,total=root.v,depth=0;\n"
"  fg.innerHTML='';var nodes=[];\n"
"  function walk(n,x,w,d){if(w<0.5)return;depth=Math.max(depth,d);nodes.push([n,x,w,d]);"
"var o=x;n.c.forEach(function(c){var cw=n.v?w*c.v/n.v:0;walk(c,o,cw,d+1);o+=cw;});}\n"
"  walk(root,0,W,0);\n"
"  fg.style.height=((depth+1)*16)+'px';\n"
"  nodes.forEach(function(a){var n=a[0],d=el('div',{},a[2]>30?n.n:'');\n"
"    d.style.left=a[1]+'px';d.style.width=a[2]+'px';d.style.top=((depth-a[3])*16)+'px';\n"
"    d.style.background=color(n.n);d.title=n.n+(n.d?' '+(n.d.charAt(0)=='['?n.d:'['+n.d+']'):'')+' ('+n.v+' samples, '+pct(n.v,E.total)+')';\n"
"    d.dataset.name=n.n;\n"
"    d.onmouseover=function(){document.getElementById('fgdetail').textContent=d.title;};\n"
"    d.onclick=function(){zoomed=n;flame(n);search();};fg.appendChild(d);});\n"
"  /* the root is at the bottom: open there, where the samples are */\n"
"  var box=document.getElementById('fgbox');box.scrollTop=box.scrollHeight;\n"
"}\n"
"/* the matched share: the samples of the matching frames not under another\n"
" * matching frame (flamegraph.pl's), of all the event's */\n"
"function search(){var q=document.getElementById('q').value,re=null,m=0;\n"
"  try{re=q?new RegExp(q):null;}catch(e){re=null;}\n"
"  var divs=document.getElementById('fg').children;\n"
"  for(var i=0;i<divs.length;i++){var hit=re&&re.test(divs[i].dataset.name);divs[i].className=hit?'match':'';}\n"
"  function sum(n){if(re.test(n.n))return n.v;var s=0;n.c.forEach(function(c){s+=sum(c);});return s;}\n"
"  if(re)E.tree.c.forEach(function(c){m+=sum(c);});\n"
"  var ms=document.getElementById('matched');ms.dataset.samples=re?m:'';\n"
"  ms.textContent=re?'Matched: '+pct(m,E.tree.v)+' ('+m+' of '+E.tree.v+')':'';}\n"
"var cols=[['children','Children'],['csamples','Samples (children)'],['self','Self'],['samples','Samples (self)'],['comm','Command'],['dso','Shared Object'],['sym','Symbol']];\n"
"var skey='children',sdir=1,page=0;\n"
"function sortflat(){var k=skey,d=sdir;E.flat.sort(function(a,b){var c=typeof a[k]=='number'?b[k]-a[k]:String(a[k]).localeCompare(b[k]);\n"
"  if(!c)c=b.children-a.children||b.self-a.self||String(a.sym).localeCompare(b.sym);return d*c;});}\n"
"function flat(){var t=document.getElementById('flat');t.innerHTML='';\n"
"  var per=+document.getElementById('per').value,n=E.flat.length,pages=per?Math.max(1,Math.ceil(n/per)):1;\n"
"  if(page>=pages)page=pages-1;if(page<0)page=0;var lo=per?page*per:0,hi=per?Math.min(n,lo+per):n;\n"
"  var tr=el('tr');cols.forEach(function(c){var th=el('th',{'data-key':c[0],title:'sort by '+c[1]},c[1]+(skey==c[0]?(sdir>0?' \\u25bc':' \\u25b2'):''));\n"
"    if(skey==c[0])th.className='sorted';\n"
"    th.onclick=function(){if(skey==c[0])sdir=-sdir;else{skey=c[0];sdir=1;}page=0;sortflat();flat();};tr.appendChild(th);});\n"
"  t.appendChild(tr);\n"
"  for(var i=lo;i<hi;i++){var r=E.flat[i],row=el('tr');\n"
"    var td=el('td',{class:'num'});td.appendChild(el('span',{class:'bar',style:'width:'+Math.round(r.children)+'px'}));"
"td.appendChild(document.createTextNode(' '+r.children.toFixed(2)+'%'));row.appendChild(td);\n"
"    row.appendChild(el('td',{class:'num'},r.csamples));row.appendChild(el('td',{class:'num'},r.self.toFixed(2)+'%'));row.appendChild(el('td',{class:'num'},r.samples));\n"
"    row.appendChild(el('td',{},r.comm));row.appendChild(el('td',{},r.dso));row.appendChild(el('td',{},r.sym));t.appendChild(row);}\n"
"  document.getElementById('rows').textContent=n?'rows '+(lo+1)+'\\u2013'+hi+' of '+n:'no rows';\n"
"  document.getElementById('prev').disabled=page<=0;document.getElementById('next').disabled=page>=pages-1;}\n"
"document.getElementById('prev').onclick=function(){page--;flat();};\n"
"document.getElementById('next').onclick=function(){page++;flat();};\n"
"document.getElementById('per').onchange=function(){page=0;flat();};\n"
"function tree(){var box=document.getElementById('tree');box.innerHTML='';\n"
"  function add(parent,n,d){n.c.forEach(function(c){var det=el('details');if(d<2)det.open=true;\n"
"    var sum=el('summary',{},pct(c.v,E.total)+'  '+c.n+' ');sum.appendChild(el('span',{class:'dso'},c.d));\n"
"    det.appendChild(sum);add(det,c,d+1);parent.appendChild(det);});}\n"
"  add(box,E.tree,0);}\n"
"function show(i){E=D.events[i];zoomed=E.tree;page=0;sortflat();flame(E.tree);flat();tree();search();}\n"
"sel.onchange=function(){show(sel.value);};\n"
"document.getElementById('reset').onclick=function(){flame(E.tree);search();};\n"
"document.getElementById('q').oninput=search;\n"
"if(D.events.length)show(0);else document.getElementById('summary').appendChild(el('p',{},'No samples.'));\n"
"document.getElementById('status').textContent='ready';\n"
"})();\n"
"</script></body></html>\n";

static void header_line(FILE *f, int *first, const char *s)
{
	fprintf(f, "%s", *first ? "" : ",");
	*first = 0;
	json__string_html(f, s);
}

int export__html(FILE *f, struct profile *p, const struct report_opts *o)
{
	int evs[256], n = report__events(p, evs, 256), first = 1;
	char buf[8192];
	profile__resolve(p);
	fputs(page_head, f);
	fputs("{\"header\":[", f);
	snprintf(buf, sizeof(buf), "Input: %s (%s)", o->input_name ? o->input_name : "-", p->input_kind);
	header_line(f, &first, buf);
	if (p->hdr.have) {
		snprintf(buf, sizeof(buf), "Host: %s, kernel %s, CPU %s, pmc %s", p->hdr.hostname,
		    p->hdr.kernel, p->hdr.cpudesc, p->hdr.libversion);
		header_line(f, &first, buf);
		if (p->hdr.cmdline[0]) {
			snprintf(buf, sizeof(buf), "Command: %s", p->hdr.cmdline);
			header_line(f, &first, buf);
		}
	}
	if (p->truncated[0]) {
		snprintf(buf, sizeof(buf), "Warning: %s", p->truncated);
		header_line(f, &first, buf);
	}
	fputs("],\"events\":[", f);
	for (int e = 0; e < n; e++) {
		struct report_opts oo = *o;
		struct hist h;
		struct ctree t;
		oo.children = 1;
		if (report__hist(&h, p, &oo, evs[e]) != 0)
			return -1;
		fprintf(f, "%s{\"name\":", e ? "," : "");
		json__string_html(f, p->ev[evs[e]].name);
		fprintf(f, ",\"samples\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"total\":%" PRIu64
		    ",\"flat\":[", p->ev[evs[e]].samples, p->ev[evs[e]].lost, h.total_n);
		/* the table: every function, with its self and children shares and
		 * samples (the page sorts and pages them) */
		for (size_t i = 0; i < h.n; i++) {
			const struct hist_entry *he = &h.e[i];
			fprintf(f, "%s{\"self\":%.4f,\"children\":%.4f,\"samples\":%" PRIu64
			    ",\"csamples\":%" PRIu64 ",\"comm\":", i ? "," : "",
			    h.base ? 100.0 * (double)he->self / (double)h.base : 0,
			    h.base ? 100.0 * (double)he->children / (double)h.base : 0, he->self_n,
			    he->children_n);
			json__string_html(f, he->comm ? he->comm : "");
			fputs(",\"dso\":", f);
			json__string_html(f, he->dso ? sym_dso__name(he->dso) : "");
			fputs(",\"sym\":", f);
			json__string_html(f, he->func != UINT32_MAX ? report__frame_name(p, he->func) : "");
			fputs("}", f);
		}
		fputs("],\"tree\":", f);
		report__hist_free(&h);
		struct prof_filter flt = o->flt;
		flt.ev = evs[e];
		if (tree__build(&t, p, &flt, TREE_CALLER, o->inline_frames ? PROF_INLINE : 0,
		    o->flame_by) != 0)
			return -1;
		tree__sort(&t);
		/* paths under 0.01 % are left out of the page */
		tree_json(f, p, &t, 0, tree__width(&t, 0) / 10000);
		tree__free(&t);
		fputs("}", f);
	}
	fputs("]}", f);
	fputs(page_tail, f);
	return ferror(f) ? -1 : 0;
}

const struct export_format export__format_html = {
	.name = "html", .needs_chains = EXPORT_CHAINS, .needs_time_order = 1,
	.fn = export__html,
};
