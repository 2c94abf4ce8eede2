/*
 * term.c — the terminal of pmc's full-screen commands (term.h), shared by
 * `pmc top` and `pmc report --tui`: raw keys, the alternate screen, resize,
 * and the terminal given back on every way out.
 */
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
static const char leave[] = "\033[?25h\033[?1049l";  /* cursor shown, main screen */

static void on_winch(int sig) { (void)sig; got_winch = 1; }

/* A crash: give the terminal back with what a handler may call, then die
 * of the signal as without us. */
static void on_crash(int sig)
{
	if (term_raw) {
		term_raw = 0;
		(void)!write(STDOUT_FILENO, leave, sizeof(leave) - 1);
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void term_close(void)
{
	if (!term_raw)
		return;
	fputs(leave, stdout);
	fflush(stdout);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	term_raw = 0;
}

int term_open(void)
{
	static int once;
	struct termios t;
	struct sigaction sa;
	static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT };

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
	    tcgetattr(STDIN_FILENO, &saved_tio) < 0)
		return -1;
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
	fputs("\033[?1049h\033[?25l\033[H\033[2J", stdout);
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
	}
}

int term_resized(void)
{
	int r = got_winch;
	got_winch = 0;
	return r;
}

int term_key(const char *buf, ssize_t n, ssize_t *i)
{
	ssize_t at = *i;
	unsigned char ch = (unsigned char)buf[at];
	*i = at + 1;
	if (ch != '\033')
		return ch;
	if (at + 1 >= n)
		return TK_ESC;                     /* a lone Escape */
	char intro = buf[at + 1];
	if (intro != '[' && intro != 'O')
		return TK_ESC;                     /* Escape, then another key */
	/* CSI or SS3: parameters, then a final byte */
	ssize_t j = at + 2;
	int param = 0;
	while (j < n && buf[j] >= '0' && buf[j] <= '9')
		param = param * 10 + (buf[j++] - '0');
	while (j < n && (buf[j] == ';' || (buf[j] >= '0' && buf[j] <= '9')))
		j++;
	if (j >= n) {
		*i = n;                            /* cut short: dropped */
		return -1;
	}
	*i = j + 1;
	switch (buf[j]) {
	case 'A': return TK_UP;
	case 'B': return TK_DOWN;
	case 'C': return TK_RIGHT;
	case 'D': return TK_LEFT;
	case 'H': return TK_HOME;
	case 'F': return TK_END;
	case 'Z': return TK_BTAB;
	case '~':
		switch (param) {
		case 1: case 7: return TK_HOME;
		case 4: case 8: return TK_END;
		case 5: return TK_PGUP;
		case 6: return TK_PGDN;
		default: return -1;
		}
	default: return -1;
	}
}
