/*
 * term.h — the terminal of pmc's full-screen commands (`pmc top`, `pmc
 * report --tui`): one place that takes the terminal (keys one at a time,
 * unechoed, the alternate screen, no cursor), draws whole lines on it,
 * gives it back as it was on every way out (return, exit, SIGTERM/SIGINT/
 * SIGHUP through the caller's loop, and a crash signal), says when the
 * window was resized, and turns the bytes a key sends into one key code.
 * What the terminal can do and what its keys send come from terminfo
 * (ncurses' libtinfo), as $TERM describes it: no escape sequence is
 * written in pmc (docs/architecture.md "The terminal").
 */
#ifndef PMC_TOOL_TERM_H
#define PMC_TOOL_TERM_H

#include <stddef.h>
#include <sys/types.h>

/* Are standard input and output a terminal that terminfo says can be
 * drawn on (cursor addressing)?  1 or 0; why not in term_why(). */
int term_usable(void);
/* Why the terminal cannot be used (after term_usable or term_open failed). */
const char *term_why(void);
/* Take the terminal on standard input/output: 0, or -1 if it is not one
 * (term_why).  SIGWINCH is caught (term_resized); crash signals restore
 * it first. */
int term_open(void);
/* Give it back as term_open found it (also at exit; again: nothing). */
void term_close(void);
/* The window's size (terminfo's, else 24x80, when it cannot be read). */
void term_size(int *rows, int *cols);
/* Was the window resized since the last call? */
int term_resized(void);

/* Drawing, on stdout (flushed by the caller): text on screen line row
 * (0 = the top), cut at cols columns, the rest of the line cleared;
 * reverse: in reverse video, to the window's width. */
void term_line(int row, int reverse, const char *text, int cols);
/* Clear from screen line row to the bottom (after the last line drawn). */
void term_clear_below(int row);
/* Clear the whole screen (before a redraw after a resize). */
void term_clear(void);

/* Key codes beyond a byte's. */
enum {
	TK_UP = 0x100, TK_DOWN, TK_LEFT, TK_RIGHT, TK_PGUP, TK_PGDN, TK_HOME, TK_END,
	TK_ESC, TK_BTAB,
};
/* The key at buf[*i] (n bytes read), *i moved past it: a byte (Enter is
 * '\r' or '\n', Tab '\t'), a TK_ code (the terminal's keys as terminfo
 * names them), or -1 for a sequence not known. */
int term_key(const char *buf, ssize_t n, ssize_t *i);

#endif
