/*
 * cmd_top.c — `pmc top` (perf top; pmcstat -T): the hottest functions of the
 * whole system, processes, threads or a command, shown live.  The sampling
 * session is record's (sampling.c, on the public libpmc API); its log goes
 * into a pipe whose other end analysis/live/live.c reads and symbolizes as it
 * arrives.  This file only parses options, owns the terminal (ANSI
 * sequences, raw keys, SIGWINCH) and draws the live aggregator's views.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"
#include "term.h"
#include "sampling.h"
#include "target.h"
#include "live/live.h"
#include "util/numfmt.h"

#define MAX_EVENTS    16
#define DEFAULT_HZ    4000
#define DEFAULT_SORT  "dso,sym"
#define PLAIN_ROWS    20          /* rows per block when stdout is not a terminal */
#define TICK_MS       100         /* reaping the command, -l, signals */
#define MAX_ZOOM      8

struct opts {
	struct cli_sampling smp;      /* -e -F -c -g, the target */
	double delay;                 /* -d seconds */
	int zero;                     /* -z: per-interval counts */
	int rows;                     /* --rows: plain blocks */
	int stdio;                    /* --stdio: plain blocks on a terminal too */
	const char *sort;
};

static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmc top [-e EVENT]... [-F HZ | -c PERIOD] [-g] [-s KEYS] [-d SECS] [-z]\n"
"               [-a | -C CPUS | -p PID[,PID...] | -t TID[,TID...] | -- COMMAND [ARGS...]]\n"
"\n"
"The hottest functions, live (perf top; pmcstat -T): system-wide by default,\n"
"or of processes, threads or a command (and its children).  The table is\n"
"redrawn every -d seconds; counts decay to 7/8 at each refresh as perf top's\n"
"do (-z: each refresh shows only the last interval).  Percentages are of the\n"
"event's whole (decayed) count.  Without -e: cycles, or cpu-clock on a\n"
"machine without a hardware PMU.\n"
"\n"
"  -e, --event=LIST      events to sample (see 'pmc list'); 'e' switches\n"
"  -F, --freq=HZ         samples per second (default %d)\n"
"  -c, --count=PERIOD    one sample every PERIOD events (a hardware counter's\n"
"                        at least mincount); tracepoints default to -c 1\n"
"  -g                    call chains: a Children column (the function and\n"
"                        what it called), sorted by it\n"
"      --call-graph=MODE fp: as -g; dwarf[,SIZE]: user stacks unwound from\n"
"                        DWARF CFI (SIZE bytes of stack per sample, default\n"
"                        8192), for code without frame pointers\n"
"  -s, --sort=KEYS       comm,pid,tid,dso,sym,cpu (default %s)\n"
"  -d, --delay=SECS      refresh interval (default 1; 0.1 to 3600)\n"
"  -z, --zero            per-interval counts instead of decaying ones\n"
"  -a, --all-cpus        every CPU (the default without a target; needs\n"
"                        root or CAP_PERFMON unless perf_event_paranoid < 1)\n"
"  -C, --cpu=LIST        only these CPUs (e.g. 0-3,6)\n"
"  -p, --pid=PIDS        existing processes (all threads, and children)\n"
"  -t, --tid=TIDS        existing threads only\n"
"  -l, --duration=SECS   stop after SECS seconds\n"
"      --stdio           plain-text blocks at each refresh, even on a terminal\n"
"      --rows=N          rows per block when standard output is not a terminal\n"
"                        (default %d)\n"
"  -h, --help            this help\n"
"\n"
"Keys (on a terminal): q quit; s next sort order; Up/Down (k/j) select a row;\n"
"Enter or z zoom into the selected row's first key (a DSO, symbol, thread ...),\n"
"t into its thread, d into its DSO; Esc or Backspace zoom back out; p pause\n"
"(counts freeze until p again); e next event.  Ctrl-C quits too.\n"
"\n"
"A command runs with its standard input and output on /dev/null when top\n"
"draws on a terminal, else with its output on standard error; when it (or\n"
"every -p/-t target) ends, the last table stays on screen until q (or, not\n"
"on a terminal, a last block is printed and top exits).  When standard\n"
"output is not a terminal, a plain-text block is printed at each refresh.\n"
"\n"
"Exit status: 0; 1 if sampling failed; 2 for a usage error.\n",
	    DEFAULT_HZ, DEFAULT_SORT, PLAIN_ROWS);
}

/* ---- the terminal (term.h) ------------------------------------------------ */

/* A setup failure must not leave the terminal raw (cli_sampling_fail). */
static void tty_cleanup(void *arg)
{
	(void)arg;
	term_close();
}

/* ---- state -------------------------------------------------------------- */

static const char *const sort_presets[] = { "dso,sym", "sym", "comm,dso,sym", "comm",
    "dso", "pid,comm,sym", "tid,comm,sym", "cpu,sym" };
#define NPRESETS (int)(sizeof(sort_presets) / sizeof(sort_presets[0]))

struct top {
	struct opts *o;
	struct cli_sampling *s;       /* &o->smp */
	struct live *lv;
	int tty;
	int targets_gone;
	int paused;
	int preset;                   /* -1: the -s order */
	struct live_view view;
	struct live_zoom zoom[MAX_ZOOM];
	int sel;                      /* selected row (terminal) */
	struct hist h;                /* the rows on screen */
	double rate;                  /* samples per second in the last interval */
	uint64_t refreshes;
	char note[256];               /* why sampling ended */
};

static void set_sort(struct top *t, const char *list)
{
	struct report_opts ro;
	memset(&ro, 0, sizeof(ro));
	if (report__parse_sort(&ro, list) < 0)
		cli_usage_error("-s: %s", pmc_errmsg());
	for (int i = 0; i < ro.nsort; i++)
		if (ro.sort[i] == SK_SRCLINE)
			cli_usage_error("-s srcline: not kept live by top; record and use "
			    "'pmc report -s srcline'");
	memcpy(t->view.sort, ro.sort, sizeof(ro.sort));
	t->view.nsort = ro.nsort;
}

/* Run the command with its standard streams where they do not disturb the
 * display: /dev/null under a terminal UI, else output on standard error. */
static void spawn_command(struct top *t)
{
	int saved[3], null = -1;
	for (int i = 0; i < 3; i++)
		saved[i] = fcntl(i, F_DUPFD_CLOEXEC, 3);
	if (t->tty) {
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		for (int i = 0; i < 3 && null >= 0; i++)
			dup2(null, i);
	} else {
		dup2(STDERR_FILENO, STDOUT_FILENO);
	}
	int rc = pmc_spawn(t->s->tgt.cmd, &t->s->child);
	int err = errno;
	for (int i = 0; i < 3; i++)
		if (saved[i] >= 0) {
			dup2(saved[i], i);
			close(saved[i]);
		}
	if (null >= 0)
		close(null);
	if (rc < 0) {
		errno = err;
		cli_sampling_fail(t->s, CLI_EXIT_FAIL, "cannot start '%s': %s", t->s->tgt.cmd[0],
		    pmc_errmsg());
	}
}

/* ---- drawing -------------------------------------------------------------- */

static void target_str(const struct top *t, char *buf, size_t len)
{
	const struct cli_target *g = &t->s->tgt;
	if (g->cmd)
		snprintf(buf, len, "command '%s'", strrchr(g->cmd[0], '/') ?
		    strrchr(g->cmd[0], '/') + 1 : g->cmd[0]);
	else if (g->npids)
		snprintf(buf, len, "%s %d%s", g->threads ? "thread" : "process", (int)g->pids[0],
		    g->npids > 1 ? " ..." : "");
	else if (g->cpu_list)
		snprintf(buf, len, "some CPUs");
	else
		snprintf(buf, len, "system-wide");
}

/* The block's lines, through emit (a terminal line or a plain one). */
struct out {
	FILE *f;
	int tty, cols, rows, line;
};

static void emit(struct out *w, int reverse, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void emit(struct out *w, int reverse, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!w->tty) {
		fprintf(w->f, "%s\n", buf);
		return;
	}
	if (w->line >= w->rows)
		return;
	term_line(w->line++, reverse, buf, w->cols);
}

static void draw(struct top *t)
{
	struct out w = { stdout, t->tty, 0, 0, 0 };
	struct live_stats st;
	char evname[256], rate[64], tgt[128], a[32], b[32], c[32];
	int nrows;

	if (t->tty)
		term_size(&w.rows, &w.cols);
	live__stats(t->lv, &st);
	report__hist_free(&t->h);
	live__hist(t->lv, &t->view, &t->h);
	live__event_str(t->lv, t->view.ev, evname, sizeof(evname), rate, sizeof(rate));
	target_str(t, tgt, sizeof(tgt));

	emit(&w, 0, "pmc top: %s%s%s%s, %s   samples %s (%.0f/s)   lost %s (%s this interval)",
	    evname[0] ? evname : t->s->spec[0], rate[0] ? " (" : "", rate, rate[0] ? ")" : "",
	    tgt, numfmt__group_digits(st.samples, a, sizeof(a)), t->rate,
	    numfmt__group_digits(st.lost, b, sizeof(b)), numfmt__group_digits(st.lost_interval, c,
	    sizeof(c)));
	if (t->note[0])
		emit(&w, 0, "%s", t->note);
	/* Symbolizing can fall behind sampling (a first look at each binary
	 * is slow): say how far, so a thin table is not mistaken for an idle
	 * system. */
	struct pmc_log_stats ls;
	if (pmc_log_stats(&ls) == 0 && ls.pl_samples > st.samples + st.paused + 1000)
		emit(&w, 0, "[reading behind: %s samples queued]", numfmt__group_digits(ls.pl_samples -
		    st.samples - st.paused, a, sizeof(a)));
	{
		char line[1024];
		size_t n = 0;
		/* first on its line, so a narrow terminal still shows it */
		if (t->paused)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "[PAUSED: %s samples not "
			    "counted]   ", numfmt__group_digits(st.paused, a, sizeof(a)));
		n += (size_t)snprintf(line + n, sizeof(line) - n, "sort: ");
		for (int k = 0; k < t->view.nsort && n < sizeof(line); k++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", k ? "," : "",
			    report__sort_name(t->view.sort[k]));
		if (n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, "   counts: %s",
			    t->o->zero ? "this interval (-z)" : "decaying 7/8 per refresh");
		for (int z = 0; z < t->view.nzoom && n < sizeof(line); z++) {
			char zs[512];
			live__zoom_str(t->lv, &t->zoom[z], zs, sizeof(zs));
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s",
			    z ? " > " : "   zoom: ", zs);
		}
		emit(&w, 0, "%s", line);
	}
	if (st.nev > 1)
		emit(&w, 0, "event %d of %d ('e' switches)", t->view.ev + 1, st.nev);
	emit(&w, 0, "%s", "");

	/* how many rows fit: the terminal less the header lines and the key line */
	nrows = t->tty ? w.rows - w.line - 2 : (t->o->rows ? t->o->rows : PLAIN_ROWS);
	if (nrows < 1)
		nrows = 1;
	if ((size_t)nrows > t->h.n)
		nrows = (int)t->h.n;
	if (t->sel >= (int)t->h.n)
		t->sel = t->h.n ? (int)t->h.n - 1 : 0;
	int first = t->sel >= nrows ? t->sel - nrows + 1 : 0;

	int wd[SK_N] = { 0 };
	char key[4096];
	for (int k = 0; k < t->view.nsort; k++)
		wd[k] = (int)strlen(report__col_title(t->view.sort[k]));
	for (int i = first; i < first + nrows; i++)
		for (int k = 0; k < t->view.nsort - 1; k++) {
			live__key_str(t->lv, &t->h.e[i], t->view.sort[k], key, sizeof(key));
			if ((int)strlen(key) > wd[k])
				wd[k] = (int)strlen(key);
		}
	char line[8192];
	size_t n = 0;
	if (t->view.children)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%9s ", "Children");
	n += (size_t)snprintf(line + n, sizeof(line) - n, "%9s  %8s", t->view.children ? "Self" :
	    "Overhead", "Samples");
	for (int k = 0; k < t->view.nsort && n < sizeof(line); k++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "  %-*s",
		    k == t->view.nsort - 1 ? 0 : wd[k], report__col_title(t->view.sort[k]));
	emit(&w, 0, "%s", line);
	for (int i = first; i < first + nrows; i++) {
		const struct hist_entry *e = &t->h.e[i];
		double ps = t->h.base ? 100.0 * (double)e->self / (double)t->h.base : 0;
		double pc = t->h.base ? 100.0 * (double)e->children / (double)t->h.base : 0;
		n = 0;
		if (t->view.children)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%8.2f%% ", pc);
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%8.2f%%  %8llu", ps,
		    (unsigned long long)(t->view.children ? e->children_n : e->self_n));
		for (int k = 0; k < t->view.nsort && n < sizeof(line); k++) {
			live__key_str(t->lv, e, t->view.sort[k], key, sizeof(key));
			n += (size_t)snprintf(line + n, sizeof(line) - n, "  %-*s",
			    k == t->view.nsort - 1 ? 0 : wd[k], key);
		}
		emit(&w, t->tty && i == t->sel, "%s", line);
	}
	if (!t->h.n)
		emit(&w, 0, "%s", t->paused ? "(paused)" : "(no samples yet)");
	if (t->tty) {
		term_clear_below(w.line);
		w.line = w.rows - 1;
		emit(&w, 1, "q quit  s sort  Up/Down select  Enter/z zoom  t thread  d dso  "
		    "Esc back  p pause%s", st.nev > 1 ? "  e event" : "");
	} else {
		fputc('\n', stdout);
	}
	fflush(stdout);
}

/* ---- keys ------------------------------------------------------------------ */

static void zoom_in(struct top *t, enum sort_key k)
{
	if (!t->h.n || t->view.nzoom >= MAX_ZOOM)
		return;
	const struct hist_entry *e = &t->h.e[t->sel];
	/* a view without the key has no value for it: tid and dso are kept by
	 * every entry only under those keys */
	int have = 0;
	for (int i = 0; i < t->view.nsort; i++)
		have |= t->view.sort[i] == k || (k == SK_DSO && t->view.sort[i] == SK_SYM);
	if (!have)
		return;
	t->zoom[t->view.nzoom].key = k;
	t->zoom[t->view.nzoom].val = *e;
	t->view.nzoom++;
	t->view.zoom = t->zoom;
	t->sel = 0;
}

/* 1: quit */
static int keys(struct top *t, const char *buf, ssize_t n)
{
	for (ssize_t i = 0; i < n;) {
		int ch = term_key(buf, n, &i);
		if (ch == TK_UP && t->sel > 0)
			t->sel--;
		else if (ch == TK_DOWN)
			t->sel++;
		else if (ch == TK_ESC)
			ch = 0x7f;          /* a lone Escape: back */
		switch (ch) {
		case 'q': case 'Q':
			return 1;
		case 'k': if (t->sel > 0) t->sel--; break;
		case 'j': t->sel++; break;
		case 's': {
			/* -s's order, then the presets, round again */
			do
				t->preset = t->preset + 1 >= NPRESETS ? -1 : t->preset + 1;
			while (t->preset >= 0 && !strcmp(sort_presets[t->preset], t->o->sort));
			set_sort(t, t->preset < 0 ? t->o->sort : sort_presets[t->preset]);
			t->sel = 0;
			break;
		}
		case '\r': case '\n': case 'z':
			zoom_in(t, t->view.sort[0]);
			break;
		case 't': zoom_in(t, SK_TID); break;
		case 'd': zoom_in(t, SK_DSO); break;
		case 0x7f: case 0x08:
			if (t->view.nzoom > 0) {
				t->view.nzoom--;
				t->sel = 0;
			}
			break;
		case 'p':
			t->paused = !t->paused;
			live__pause(t->lv, t->paused);
			break;
		case 'e': {
			struct live_stats st;
			live__stats(t->lv, &st);
			if (st.nev > 0)
				t->view.ev = (t->view.ev + 1) % st.nev;
			t->sel = 0;
			break;
		}
		default:
			break;
		}
	}
	return 0;
}

/* ---- the loop ---------------------------------------------------------------- */

static uint64_t wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Has sampling ended on its own (the command, or every -p/-t target)? */
static int targets_ended(struct top *t)
{
	struct cli_sampling *s = t->s;
	if (s->child > 0) {
		if (!s->child_done && pmc_spawn_wait_timeout(s->child, &s->status, 0) == 0)
			s->child_done = 1;
		if (s->child_done) {
			if (WIFSIGNALED(s->status))
				snprintf(t->note, sizeof(t->note), "[the command was ended by signal "
				    "%d]", WTERMSIG(s->status));
			else
				snprintf(t->note, sizeof(t->note), "[the command exited with status "
				    "%d]", WEXITSTATUS(s->status));
		}
		return s->child_done;
	}
	if (s->tgt.npids) {
		for (int i = 0; i < s->tgt.npids; i++)
			if (pmc_target_exists(s->tgt.pids[i]))
				return 0;
		snprintf(t->note, sizeof(t->note), "[the monitored %s exited]", s->tgt.threads ?
		    "threads" : "processes");
		return 1;
	}
	return 0;
}

/* The log's last records (lost counts, CLOSELOG), then the pipe's end:
 * 0, or the writer's errno. */
static int close_log(int wfd)
{
	int err = pmc_log_finish(NULL) < 0 ? errno : 0;
	close(wfd);
	return err;
}

int cmd_top(int argc, char **argv)
{
	enum { OPT_ROWS = 256, OPT_CALL_GRAPH, OPT_STDIO };
	static const struct option lopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "freq", required_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'c' },
		{ "sort", required_argument, NULL, 's' },
		{ "delay", required_argument, NULL, 'd' },
		{ "zero", no_argument, NULL, 'z' },
		{ "rows", required_argument, NULL, OPT_ROWS },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "stdio", no_argument, NULL, OPT_STDIO },
		CLI_TARGET_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct opts o;
	static struct top t;
	struct cli_sampling *s = &o.smp;
	int c, pipefd[2];
	char *end;

	memset(&o, 0, sizeof(o));
	memset(&t, 0, sizeof(t));
	t.o = &o;
	t.s = s;
	t.preset = -1;
	s->max_events = MAX_EVENTS;
	s->quiet = 1;
	s->eacces_hint = " (give -p PID, -t TID or a command to watch your own processes)";
	s->end_grace_ms = 1000;
	s->cleanup = tty_cleanup;
	o.delay = 1.0;
	o.sort = DEFAULT_SORT;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:F:c:gs:d:z" CLI_TARGET_OPTSTRING "h", lopts,
	    NULL)) != -1) {
		switch (c) {
		case 'e': cli_sampling_add_events(s, optarg); break;
		case 'F': s->hz = cli_parse_u64(optarg, "frequency"); break;
		case 'c': s->period = cli_parse_u64(optarg, "period"); break;
		case 'g': s->callchain = 1; break;
		case OPT_CALL_GRAPH: cli_sampling_call_graph(s, optarg); break;
		case OPT_STDIO: o.stdio = 1; break;
		case 's': o.sort = optarg; break;
		case 'd':
			o.delay = strtod(optarg, &end);
			if (*end || end == optarg || !isfinite(o.delay) || o.delay < 0.1 ||
			    o.delay > 3600)
				cli_usage_error("-d: '%s' is not a refresh interval (0.1 to 3600 "
				    "seconds)", optarg);
			break;
		case 'z': o.zero = 1; break;
		case OPT_ROWS: o.rows = (int)cli_parse_u64(optarg, "number of rows"); break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default:
			if (!cli_target_option(&s->tgt, c, optarg))
				cli_bad_option(c, argv);
		}
	}
	if (optind >= argc && !s->tgt.npids)
		s->tgt.system_wide = 1;    /* perf top's default */
	cli_target_finish(&s->tgt, argc, argv, optind, "watch");
	cli_sampling_finish(s, DEFAULT_HZ);
	set_sort(&t, o.sort);
	t.view.children = s->callchain;
	t.tty = !o.stdio && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);

	/* as record: a rate above the kernel's highest is lowered to it */
	cli_sampling_init(s, NULL, 1);
	cli_sampling_alloc(s);

	cli_catch_stop_signals(on_signal);

	/* The log goes through a pipe to the live aggregator's reader. */
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot make a pipe: %s", strerror(errno));
	/* room for bursts while the reader symbolizes (best effort) */
	fcntl(pipefd[1], F_SETPIPE_SZ, 1 << 20);
	if (!(t.lv = live__new(NULL)) || live__follow(t.lv, pipefd[0]) < 0)
		cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot start the reader: %s", strerror(errno));
	/* the writer thread starts here, taking no signals: they come to
	 * this thread */
	if (pmc_configure_logfile_flags(pipefd[1], 0) < 0)
		cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot start the log: %s", pmc_errmsg());
	if (s->tgt.cmd)
		spawn_command(&t);
	signal(SIGPIPE, SIG_IGN);
	cli_sampling_start(s);
	cli_sampling_go(s);
	signal(SIGTSTP, SIG_IGN);     /* a stopped top would leave the terminal raw */
	if (t.tty && term_open() < 0)
		t.tty = 0;

	/* The session's clock, as record's -l and status line: simulated
	 * time for a command under the sim, which stops when the command
	 * ends (the end is then drawn at each tick until the reader has
	 * caught up). */
	uint64_t t0 = cli_target_now_ns(&s->tgt), interval = (uint64_t)(o.delay * 1e9), next = t0 + interval;
	uint64_t last = t0, wall0 = wall_ns();
	int ended = 0, quit = 0, drawn_end = 0, werr = 0, lerr = 0;
	if (t.tty)
		draw(&t);
	while (!quit) {
		uint64_t now = cli_target_now_ns(&s->tgt);
		if (got_signal)
			break;
		if (!ended && (targets_ended(&t) ||
		    (s->tgt.duration > 0 && (double)(now - t0) >= s->tgt.duration * 1e9))) {
			/* Sampling is over: end the log, so the reader takes what
			 * is still queued and reaches the stream's end. */
			ended = 1;
			cli_sampling_stop(s);
			werr = close_log(pipefd[1]);
			if (!t.tty) {
				if (live__wait(t.lv) < 0) {
					cli_warn("%s", pmc_errmsg());
					lerr = 1;
				}
				t.rate = 0;
				draw(&t);
				break;
			}
			draw(&t);
		}
		/* -l on a terminal too: top ends when SECS have passed, though the
		 * command ended before (the sim's clock then stops: the wall
		 * clock's SECS) */
		if (t.tty && ended && s->tgt.duration > 0 &&
		    ((double)(now - t0) >= s->tgt.duration * 1e9 ||
		    (double)(wall_ns() - wall0) >= s->tgt.duration * 1e9))
			break;
		if (now >= next || (ended && !drawn_end)) {
			struct live_stats st;
			live__stats(t.lv, &st);
			if (now > last)
				t.rate = (double)st.interval * 1e9 / (double)(now - last);
			/* ended: drawn until the reader has caught up */
			if (!ended || !drawn_end) {
				drawn_end = ended && st.ended;
				draw(&t);
			}
			/* perf top decays after showing; paused or ended: frozen */
			if (!t.paused && !ended)
				live__age(t.lv, o.zero);
			last = now;
			next = now + interval;
			t.refreshes++;
		}
		if (t.tty && term_resized()) {
			term_clear();
			draw(&t);
		}
		int ms = (int)((next - now) / 1000000ull);
		if (ms > TICK_MS)
			ms = TICK_MS;
		struct pollfd pf = { STDIN_FILENO, POLLIN, 0 };
		if (poll(&pf, t.tty ? 1 : 0, ms < 1 ? 1 : ms) > 0 && (pf.revents & POLLIN)) {
			char buf[64];
			ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
			if (n > 0) {
				quit = keys(&t, buf, n);
				if (!quit)
					draw(&t);
			}
		}
	}

	/* Clean up: the terminal first, then the sampling, the command and
	 * the reader (the writer's end of the pipe closes: the reader's EOF). */
	term_close();
	live__stop(t.lv);
	if (!ended) {
		cli_sampling_stop(s);
		werr = close_log(pipefd[1]);
	}
	cli_sampling_end_child(s, SIGTERM);
	if (!lerr && live__wait(t.lv) < 0) {     /* once: it may have said so above */
		cli_warn("%s", pmc_errmsg());
		lerr = 1;
	}
	close(pipefd[0]);
	if (werr)
		cli_warn("the log writer failed: %s", strerror(werr));
	report__hist_free(&t.h);
	live__free(t.lv);
	cli_sampling_free(s);
	pmc_fini();
	return werr || lerr ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
