/*
 * term.c — the terminal of pmc's full-screen commands (term.h), shared by
 * `pmc top` and `pmc report --tui`: raw keys, the alternate screen, whole
 * lines drawn, resize, and the terminal given back on every way out.
 *
 * Built on ncurses' terminfo layer (libtinfo), not on curses' screens:
 * every sequence written and every key recognised is the one terminfo
 * gives for $TERM, while the drawing stays pmc's own lines on stdout.
 * Why not initscr/getch (docs/architecture.md "The terminal"): top polls
 * its keys beside a refresh clock and the sampling pipe, and prints the
 * same lines as plain text when stdout is not a terminal; and the way
 * back must be async-signal-safe for a crash signal (endwin is not), so
 * it is composed once, at open, into a buffer a handler can write().
 */
#include <curses.h>
#include <term.h>        /* ncurses' terminfo (the angle brackets: not ours) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "term.h"

static struct termios saved_tio;
static volatile sig_atomic_t term_raw;     /* the terminal is ours */
static volatile sig_atomic_t got_winch;
static int ti_state;                       /* terminfo: 0 not read, 1 usable, -1 not */
static char why[256];
static int win_rows = 24;                  /* term_size's last answer */

/* The way back (attributes off, keypad local, cursor shown, the main
 * screen), composed at open: a crash handler only write()s it. */
static char leave_seq[512];
static size_t leave_len;

/* The terminal's keys, as terminfo names them. */
static struct tkey { const char *seq; size_t len; int code; } keys[16];
static size_t nkeys;

/* A string capability the terminal has (absent: NULL; cancelled: -1). */
static const char *cap(const char *s)
{
	return s && s != (const char *)-1 && *s ? s : NULL;
}

static int put_stdout(int c) { return putchar(c); }
static int put_leave(int c)
{
	if (leave_len + 1 < sizeof(leave_seq))
		leave_seq[leave_len++] = (char)c;
	return c;
}
static void put(const char *s)
{
	if (cap(s))
		tputs(s, 1, put_stdout);
}

/* Reads terminfo's entry for $TERM once: 1 if the terminal can be drawn on. */
static int ti_setup(void)
{
	int err = 0;
	if (ti_state)
		return ti_state > 0;
	ti_state = -1;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(why, sizeof(why), "standard input and output must be a terminal");
		return 0;
	}
	const char *name = getenv("TERM");
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		snprintf(why, sizeof(why), err < 0 ? "no terminfo database (TERM=%s)" :
		    "terminfo has no entry for TERM=%s", name && *name ? name : "(unset)");
		return 0;
	}
	if (!cap(cursor_address)) {
		snprintf(why, sizeof(why), "the terminal (TERM=%s) cannot place the cursor "
		    "(terminfo has no cup)", name && *name ? name : "(unset)");
		return 0;
	}
	const struct { const char *seq; int code; } named[] = {
		{ key_up, TK_UP }, { key_down, TK_DOWN }, { key_left, TK_LEFT },
		{ key_right, TK_RIGHT }, { key_ppage, TK_PGUP }, { key_npage, TK_PGDN },
		{ key_home, TK_HOME }, { key_end, TK_END }, { key_btab, TK_BTAB },
		{ key_beg, TK_HOME }, { key_ll, TK_END },
	};
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		const char *s = cap(named[i].seq);
		if (s && nkeys < sizeof(keys) / sizeof(keys[0]))
			keys[nkeys++] = (struct tkey){ s, strlen(s), named[i].code };
	}
	leave_len = 0;
	if (cap(exit_attribute_mode))
		tputs(exit_attribute_mode, 1, put_leave);
	if (cap(keypad_local))
		tputs(keypad_local, 1, put_leave);
	if (cap(cursor_normal))
		tputs(cursor_normal, 1, put_leave);
	if (cap(exit_ca_mode))
		tputs(exit_ca_mode, 1, put_leave);
	ti_state = 1;
	return 1;
}

int term_usable(void)
{
	return ti_setup();
}

const char *term_why(void)
{
	return why[0] ? why : "the terminal cannot be used";
}

static void on_winch(int sig) { (void)sig; got_winch = 1; }

/* A crash: give the terminal back with what a handler may call, then die
 * of the signal as without us. */
static void on_crash(int sig)
{
	if (term_raw) {
		term_raw = 0;
		(void)!write(STDOUT_FILENO, leave_seq, leave_len);
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void term_close(void)
{
	if (!term_raw)
		return;
	fflush(stdout);
	(void)!write(STDOUT_FILENO, leave_seq, leave_len);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	term_raw = 0;
}

int term_open(void)
{
	static int once;
	struct termios t;
	struct sigaction sa;
	static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT };

	if (!ti_setup())
		return -1;
	if (tcgetattr(STDIN_FILENO, &saved_tio) < 0) {
		snprintf(why, sizeof(why), "cannot read the terminal's settings");
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		sigaction(crash[i], &sa, NULL);
	if (!once) {
		once = 1;
		atexit(term_close);
	}
	t = saved_tio;
	/* keys one at a time, unechoed; Ctrl-C still a signal */
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &t);
	term_raw = 1;
	/* the alternate screen; the keypad sending what terminfo's key_*
	 * say; no cursor; a clear screen */
	put(enter_ca_mode);
	put(keypad_xmit);
	put(cursor_invisible);
	put(clear_screen);
	fflush(stdout);
	return 0;
}

void term_size(int *rows, int *cols)
{
	struct winsize ws;
	*rows = 24;
	*cols = 80;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	} else if (ti_state > 0 && lines > 0 && columns > 0) {
		*rows = lines;
		*cols = columns;
	}
	win_rows = *rows;
}

int term_resized(void)
{
	int r = got_winch;
	got_winch = 0;
	return r;
}

void term_line(int row, int reverse, const char *text, int cols)
{
	size_t len = strlen(text), width = cols > 0 ? (size_t)cols : 0;
	if (ti_state <= 0)
		return;
	/* the last column of the last line would scroll a terminal that
	 * wraps at once (auto margins without the newline glitch) */
	if (row == win_rows - 1 && auto_right_margin && !eat_newline_glitch && width)
		width--;
	if (len > width)
		len = width;
	tputs(tiparm(cursor_address, row, 0), 1, put_stdout);
	const char *on = cap(enter_reverse_mode) ? enter_reverse_mode : enter_standout_mode;
	if (reverse)
		put(on);
	fwrite(text, 1, len, stdout);
	if (reverse) {
		for (size_t i = len; i < width; i++)
			putchar(' ');
		put(cap(exit_attribute_mode) ? exit_attribute_mode : exit_standout_mode);
	} else if (cap(clr_eol)) {
		put(clr_eol);
	} else {
		for (size_t i = len; i < width; i++)
			putchar(' ');
	}
}

void term_clear_below(int row)
{
	if (ti_state <= 0 || row >= win_rows)
		return;
	if (cap(clr_eos)) {
		tputs(tiparm(cursor_address, row, 0), 1, put_stdout);
		put(clr_eos);
		return;
	}
	int r, c;
	term_size(&r, &c);
	for (; row < r; row++)
		term_line(row, 0, "", c);
}

void term_clear(void)
{
	if (ti_state > 0)
		put(clear_screen);
}

int term_key(const char *buf, ssize_t n, ssize_t *i)
{
	ssize_t at = *i;
	unsigned char ch = (unsigned char)buf[at];
	*i = at + 1;
	if (ch != '\033')
		return ch;
	/* the longest of the terminal's keys that the bytes begin with */
	const struct tkey *best = NULL;
	for (size_t k = 0; k < nkeys; k++)
		if (keys[k].len <= (size_t)(n - at) && !memcmp(buf + at, keys[k].seq, keys[k].len) &&
		    (!best || keys[k].len > best->len))
			best = &keys[k];
	if (best) {
		*i = at + (ssize_t)best->len;
		return best->code;
	}
	if (at + 1 >= n)
		return TK_ESC;                     /* a lone Escape */
	char intro = buf[at + 1];
	if (intro != '[' && intro != 'O')
		return TK_ESC;                     /* Escape, then another key */
	/* a key terminfo does not name: skip its control sequence (ECMA-48:
	 * parameter and intermediate bytes, then one final byte) */
	ssize_t j = at + 2;
	while (j < n && (unsigned char)buf[j] >= 0x20 && (unsigned char)buf[j] <= 0x3f)
		j++;
	*i = j < n ? j + 1 : n;
	return -1;
}
