/*
 * report_tui.c — `pmc report --tui`, the default on a terminal: draws the
 * rows of analysis/report/browse.h on the terminal of term.h (shared with `pmc
 * top`) and maps keys to them, as perf report's browser does; `a` shows
 * analysis/report/annotate.c's view of the selected function.  Everything a key
 * changes is in browse.c: this file only draws and reads keys.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc.h"
#include "report/annotate.h"
#include "report/browse.h"
#include "cli.h"
#include "util/numfmt.h"
#include "report_tui.h"
#include "term.h"

static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }

static const char *const help_lines[] = {
	"Keys",
	"",
	"  Up/Down, PgUp/PgDn, Home/End   move (also k/j)",
	"  +, Enter                       open or close the call graph of the row",
	"  e                              open or close all of the entry's call graph",
	"  E                              open or close every entry",
	"  a                              annotate the function (Tab: the next hottest line)",
	"  t / d / c                      zoom into the thread / binary / command",
	"  Esc, Backspace                 back out of a zoom (or the filter)",
	"  s                              sort keys (comm,pid,tid,dso,sym,srcline,cpu;",
	"                                 Ctrl-U clears the line)",
	"  /                              keep symbols containing a string (empty: all)",
	"  Tab                            the next event (a recording with several)",
	"  ?                              this help",
	"  q, Esc, Ctrl-C                 quit",
	"",
	"Any key returns.",
};

enum mode { M_LIST, M_HELP, M_ANNOTATE, M_PROMPT };

struct tui {
	struct browse b;
	struct profile *p;
	enum mode mode, back;
	size_t sel, top;
	int rows, cols;
	int y;                    /* the screen line drawn next */
	char note[512];
	/* prompt */
	char prompt[32], input[256];
	size_t ninput;
	int prompt_kind;          /* '/' or 's' */
	/* annotate view */
	char *atext;
	char **aline;
	size_t naline, asel, atop;
	size_t *ahot;             /* lines with a share, hottest first */
	size_t nhot, hoti;
	char atitle[512];
};

/* ---- drawing ---------------------------------------------------------- */

/* One screen line (term_line): at most cols columns (bytes: names are
 * printable), the rest cleared. */
static void line(struct tui *u, int reverse, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void line(struct tui *u, int reverse, const char *fmt, ...)
{
	char raw[8192], buf[8192];
	size_t o = 0;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* tabs (source lines) as spaces: a tab would skip cells, not clear them */
	for (const char *c = raw; *c && o + 9 < sizeof(buf); c++) {
		if (*c != '\t') {
			buf[o++] = *c;
			continue;
		}
		do
			buf[o++] = ' ';
		while (o % 8);
	}
	buf[o] = 0;
	if (u->y >= u->rows)
		return;
	term_line(u->y++, reverse, buf, u->cols);
}

static void header(struct tui *u)
{
	const struct prof_event *e = &u->p->ev[browse__event(&u->b)];
	char a[32], l[32], c[32], z[1024] = "";
	numfmt__group_digits(u->b.h.total_n, a, sizeof(a));
	numfmt__group_digits(e->lost, l, sizeof(l));
	numfmt__group_digits(e->period, c, sizeof(c));
	for (int i = 0; i < u->b.nzoom; i++) {
		size_t at = strlen(z);
		snprintf(z + at, sizeof(z) - at, ", %s", u->b.zoom[i].label);
	}
	line(u, 1, "Samples: %s of event '%s'%s, Lost: %s, Event count: %s%s%s%s%s", a, e->name,
	    u->b.nev > 1 ? " (Tab: next)" : "", l, c, z, u->b.filter[0] ? ", symbols '" : "",
	    u->b.filter, u->b.filter[0] ? "'" : "");
}

static void draw_list(struct tui *u)
{
	struct browse *b = &u->b;
	int body = u->rows - 3;
	char text[4096], cols[4096];
	if (body < 1)
		body = 1;
	if (u->sel >= b->nrows)
		u->sel = b->nrows ? b->nrows - 1 : 0;
	if (u->sel < u->top)
		u->top = u->sel;
	if (u->sel >= u->top + (size_t)body)
		u->top = u->sel - (size_t)body + 1;
	header(u);
	size_t at = 0;
	for (int k = 0; k < b->o.nsort; k++) {
		int n = snprintf(cols + at, sizeof(cols) - at, "%s%-*s", k ? "  " : "",
		    k == b->o.nsort - 1 ? 0 : b->w[k], report__col_title(b->o.sort[k]));
		if (n < 0 || (size_t)n >= sizeof(cols) - at)
			break;
		at += (size_t)n;
	}
	if (b->o.children)
		line(u, 0, "  Children      Self   Samples  %s", cols);
	else
		line(u, 0, "      Self   Samples  %s", cols);
	for (int r = 0; r < body; r++) {
		size_t i = u->top + (size_t)r;
		if (i >= b->nrows) {
			line(u, 0, "%s", r == 0 ? (b->filter[0] ? "  no symbol contains that" :
			    "  no samples") : "");
			continue;
		}
		const struct browse_row *w = &b->rows[i];
		/* an entry whose call graph holds nothing more has no mark */
		char mark = !browse__can_open(b, i) ? ' ' : browse__is_open(b, i) ? '-' : '+';
		browse__row_text(b, i, text, sizeof(text));
		if (w->node == BROWSE_ENTRY) {
			const struct hist_entry *he = &b->h.e[w->entry];
			double ps = b->h.base ? 100.0 * (double)he->self / (double)b->h.base : 0;
			if (b->o.children)
				line(u, i == u->sel, "%c %7.2f%%  %7.2f%%  %8" PRIu64 "  %s", mark,
				    browse__row_pct(b, i), ps, he->children_n, text);
			else
				line(u, i == u->sel, "%c %7.2f%%  %8" PRIu64 "  %s", mark, ps,
				    he->self_n, text);
		} else {
			line(u, i == u->sel, "%*s%c %6.2f%%  %s", b->o.children ? 23 : 12, "", mark,
			    browse__row_pct(b, i), text);
		}
	}
	if (u->mode == M_PROMPT)
		line(u, 0, "%s%s", u->prompt, u->input);
	else
		line(u, 0, "%s", u->note[0] ? u->note :
		    "?: help  Enter/+: call graph  a: annotate  t/d/c: zoom  /: filter  s: sort  q: quit");
}

static void draw_help(struct tui *u)
{
	header(u);
	for (int r = 0; r < u->rows - 1; r++)
		line(u, 0, "%s", (size_t)r < sizeof(help_lines) / sizeof(help_lines[0]) ?
		    help_lines[r] : "");
}

static void draw_annotate(struct tui *u)
{
	int body = u->rows - 2;
	if (body < 1)
		body = 1;
	if (u->asel >= u->naline)
		u->asel = u->naline ? u->naline - 1 : 0;
	if (u->asel < u->atop)
		u->atop = u->asel;
	if (u->asel >= u->atop + (size_t)body)
		u->atop = u->asel - (size_t)body + 1;
	line(u, 1, "Annotate %s", u->atitle);
	for (int r = 0; r < body; r++) {
		size_t i = u->atop + (size_t)r;
		line(u, i == u->asel, "%s", i < u->naline ? u->aline[i] : "");
	}
	line(u, 0, "%s", "Tab/Shift-Tab: the next/previous hottest line  Esc, q: back");
}

static void draw(struct tui *u)
{
	term_size(&u->rows, &u->cols);
	u->y = 0;
	switch (u->mode) {
	case M_HELP: draw_help(u); break;
	case M_ANNOTATE: draw_annotate(u); break;
	default: draw_list(u); break;
	}
	term_clear_below(u->y);     /* nothing below the last line */
	fflush(stdout);
}

/* ---- the annotate view ------------------------------------------------ */

static void annotate_free(struct tui *u)
{
	free(u->atext);
	free(u->aline);
	free(u->ahot);
	u->atext = NULL;
	u->aline = NULL;
	u->ahot = NULL;
	u->naline = u->nhot = 0;
}

/* A line's share: "  99.64%  ..." */
static double line_pct(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	return end != s && *end == '%' ? v : -1;
}

static const char *const *hot_lines;
static int cmp_hot(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double px = line_pct(hot_lines[x]), py = line_pct(hot_lines[y]);
	if (px != py)
		return px > py ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void annotate(struct tui *u)
{
	const char *dso = NULL, *sym = browse__row_sym(&u->b, u->sel, &dso);
	struct annotate_opts ao;
	size_t len = 0;
	if (!sym) {
		snprintf(u->note, sizeof(u->note), "no function on this row to annotate");
		return;
	}
	memset(&ao, 0, sizeof(ao));
	ao.symbol = sym;
	ao.dso = dso;
	ao.flt = u->b.o.flt;
	ao.flt.ev = browse__event(&u->b);
	ao.source = 1;
	ao.asm_ = 1;
	annotate_free(u);
	FILE *f = open_memstream(&u->atext, &len);
	if (!f) {
		snprintf(u->note, sizeof(u->note), "annotate: out of memory");
		return;
	}
	int rc = annotate__print(f, u->p, &ao);
	if (fclose(f) != 0 || rc != 0) {
		snprintf(u->note, sizeof(u->note), "annotate %s: %s", sym,
		    rc != 0 ? pmc_errmsg() : "out of memory");
		annotate_free(u);
		return;
	}
	/* lines; the comment lines above the table are the title */
	size_t n = 1;
	for (size_t i = 0; i < len; i++)
		n += u->atext[i] == '\n';
	u->aline = calloc(n, sizeof(*u->aline));
	u->ahot = calloc(n, sizeof(*u->ahot));
	if (!u->aline || !u->ahot) {
		snprintf(u->note, sizeof(u->note), "annotate: out of memory");
		annotate_free(u);
		return;
	}
	for (char *s = u->atext, *nl; s && *s; s = nl) {
		if ((nl = strchr(s, '\n')))
			*nl++ = 0;
		u->aline[u->naline] = s;
		if (line_pct(s) >= 0)
			u->ahot[u->nhot++] = u->naline;
		u->naline++;
	}
	/* "# pmc annotate: hot60 [/bin/x]" */
	const char *t = u->naline ? strstr(u->aline[0], ": ") : NULL;
	snprintf(u->atitle, sizeof(u->atitle), "%s", t ? t + 2 : sym);
	hot_lines = (const char *const *)u->aline;
	if (u->nhot)              /* qsort(NULL, 0) is undefined behaviour */
		qsort(u->ahot, u->nhot, sizeof(*u->ahot), cmp_hot);
	u->hoti = 0;
	u->asel = u->nhot ? u->ahot[0] : 0;
	u->atop = 0;
	u->mode = M_ANNOTATE;
}

static void annotate_key(struct tui *u, int k)
{
	int body = u->rows - 2 > 1 ? u->rows - 2 : 1;
	switch (k) {
	case '\t':
		if (u->nhot) {
			u->hoti = (u->hoti + 1) % u->nhot;
			u->asel = u->ahot[u->hoti];
		}
		break;
	case TK_BTAB:
		if (u->nhot) {
			u->hoti = (u->hoti + u->nhot - 1) % u->nhot;
			u->asel = u->ahot[u->hoti];
		}
		break;
	case TK_UP: case 'k': if (u->asel) u->asel--; break;
	case TK_DOWN: case 'j': u->asel++; break;
	case TK_PGUP: u->asel = u->asel > (size_t)body ? u->asel - (size_t)body : 0; break;
	case TK_PGDN: case ' ': u->asel += (size_t)body; break;
	case TK_HOME: u->asel = 0; break;
	case TK_END: u->asel = u->naline ? u->naline - 1 : 0; break;
	case TK_ESC: case 'q': case TK_LEFT: case 0x7f: case 0x08:
		u->mode = M_LIST;
		break;
	default: break;
	}
}

/* ---- keys -------------------------------------------------------------- */

/* Say what went wrong in the status line: the model is left as it was. */
static void fail(struct tui *u, int rc, const char *what)
{
	if (rc < 0)
		snprintf(u->note, sizeof(u->note), "%s: %s", what, pmc_errmsg());
}

static void prompt_key(struct tui *u, int k)
{
	if (k == TK_ESC) {
		u->mode = M_LIST;
		return;
	}
	if (k == '\r' || k == '\n') {
		u->mode = M_LIST;
		u->input[u->ninput] = 0;
		if (u->prompt_kind == '/') {
			fail(u, browse__set_filter(&u->b, u->input), "filter");
		} else if (u->ninput) {
			fail(u, browse__set_sort(&u->b, u->input), "sort");
		}
		u->sel = u->top = 0;
		return;
	}
	if ((k == 0x7f || k == 0x08) && u->ninput)
		u->ninput--;
	else if (k == 0x15)            /* Ctrl-U: the whole line */
		u->ninput = 0;
	else if (k >= 0x20 && k < 0x7f && u->ninput + 1 < sizeof(u->input))
		u->input[u->ninput++] = (char)k;
	u->input[u->ninput] = 0;
}

static void start_prompt(struct tui *u, int kind)
{
	u->mode = M_PROMPT;
	u->prompt_kind = kind;
	if (kind == '/') {
		snprintf(u->prompt, sizeof(u->prompt), "symbol filter: ");
		snprintf(u->input, sizeof(u->input), "%s", u->b.filter);
	} else {
		size_t at = 0;
		snprintf(u->prompt, sizeof(u->prompt), "sort keys: ");
		u->input[0] = 0;
		for (int i = 0; i < u->b.o.nsort; i++)
			at += (size_t)snprintf(u->input + at, sizeof(u->input) - at, "%s%s", i ? "," : "",
			    report__sort_name(u->b.o.sort[i]));
	}
	u->ninput = strlen(u->input);
}

/* 1: quit */
static int list_key(struct tui *u, int k)
{
	struct browse *b = &u->b;
	int body = u->rows - 3 > 1 ? u->rows - 3 : 1;
	u->note[0] = 0;
	switch (k) {
	case 'q': case 'Q': case 3:
		return 1;
	case TK_UP: case 'k': if (u->sel) u->sel--; break;
	case TK_DOWN: case 'j': u->sel++; break;
	case TK_PGUP: u->sel = u->sel > (size_t)body ? u->sel - (size_t)body : 0; break;
	case TK_PGDN: case ' ': u->sel += (size_t)body; break;
	case TK_HOME: u->sel = 0; break;
	case TK_END: u->sel = b->nrows ? b->nrows - 1 : 0; break;
	case '+': case '\r': case '\n': case TK_RIGHT:
		fail(u, browse__toggle(b, u->sel), "call graph");
		break;
	case TK_LEFT:
		if (browse__is_open(b, u->sel))
			fail(u, browse__toggle(b, u->sel), "call graph");
		break;
	case 'e':
		fail(u, browse__expand(b, u->sel, !browse__is_open(b, u->sel)), "call graph");
		break;
	case 'E': {
		int any = 0;
		for (size_t i = 0; i < b->nrows && !any; i++)
			any = browse__is_open(b, i);
		fail(u, browse__expand(b, BROWSE_ALL, !any), "call graphs");
		break;
	}
	case 'a': annotate(u); break;
	case 't': case 'd': case 'c': {
		int rc = browse__zoom(b, u->sel, k == 't' ? SK_TID : k == 'd' ? SK_DSO : SK_COMM);
		if (rc > 0)
			u->sel = u->top = 0;
		else if (rc == 0)
			snprintf(u->note, sizeof(u->note), "%s", b->note);
		fail(u, rc, "zoom");
		break;
	}
	case TK_ESC: case 0x7f: case 0x08:
		if (b->nzoom) {
			fail(u, browse__unzoom(b), "zoom");
			u->sel = u->top = 0;
		} else if (b->filter[0]) {
			fail(u, browse__set_filter(b, ""), "filter");
			u->sel = u->top = 0;
		} else if (k == TK_ESC) {
			return 1;
		}
		break;
	case 's': start_prompt(u, 's'); break;
	case '/': start_prompt(u, '/'); break;
	case '?': case 'h': u->back = u->mode; u->mode = M_HELP; break;
	case '\t':
		if (b->nev > 1) {
			fail(u, browse__next_event(b), "event");
			u->sel = u->top = 0;
		}
		break;
	default: break;
	}
	return 0;
}

int report_use_tui(int asked, int text_stdout)
{
	const char *pager = getenv("PMC_PAGER");
	if (asked == 0)
		return 0;
	/* by default on a terminal terminfo can draw on (not TERM=dumb) */
	if (asked < 0)
		return text_stdout && !(pager && *pager) && term_usable();
	if (!text_stdout)
		cli_usage_error("--tui browses the text report's profile: not with -F or -o");
	if (!term_usable())
		cli_usage_error("--tui: %s (--stdio: the text report)", term_why());
	return 1;
}

int report_tui(struct profile *p, const struct report_opts *o)
{
	struct tui u;
	memset(&u, 0, sizeof(u));
	u.p = p;
	if (browse__open(&u.b, p, o) < 0) {
		cli_warn("%s: %s", o->input_name, pmc_errmsg());
		browse__free(&u.b);
		return -1;
	}
	cli_catch_stop_signals(on_signal);
	signal(SIGTSTP, SIG_IGN);     /* a stopped browser would leave the terminal raw */
	if (term_open() < 0) {
		cli_warn("--tui: %s (--stdio: the text report)", term_why());
		browse__free(&u.b);
		return -1;
	}
	draw(&u);
	while (!got_signal) {
		struct pollfd pf = { STDIN_FILENO, POLLIN, 0 };
		int quit = 0;
		if (term_resized()) {
			term_clear();
			draw(&u);
		}
		if (poll(&pf, 1, 200) <= 0 || !(pf.revents & (POLLIN | POLLHUP)))
			continue;
		char buf[256];
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n <= 0)
			break;               /* the terminal went away */
		for (ssize_t i = 0; i < n && !quit;) {
			int k = term_key(buf, n, &i);
			if (k < 0)
				continue;
			switch (u.mode) {
			case M_HELP: u.mode = M_LIST; break;
			case M_ANNOTATE: annotate_key(&u, k); break;
			case M_PROMPT: prompt_key(&u, k); break;
			default: quit = list_key(&u, k); break;
			}
		}
		if (quit)
			break;
		draw(&u);
	}
	term_close();
	annotate_free(&u);
	browse__free(&u.b);
	return 0;
}
