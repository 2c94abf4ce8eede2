/*
 * term.h — the terminal of pmc's full-screen commands (`pmc top`, `pmc
 * report --tui`): one place that takes the terminal (keys one at a time,
 * unechoed, the alternate screen, no cursor), gives it back as it was on
 * every way out (return, exit, SIGTERM/SIGINT/SIGHUP through the caller's
 * loop, and a crash signal), says when the window was resized, and turns
 * the bytes a key sends into one key code.
 */
#ifndef PMC_TOOL_TERM_H
#define PMC_TOOL_TERM_H

#include <stddef.h>
#include <sys/types.h>

/* Take the terminal on standard input/output: 0, or -1 if it is not one.
 * SIGWINCH is caught (term_resized); crash signals restore it first. */
int term_open(void);
/* Give it back as term_open found it (also at exit; again: nothing). */
void term_close(void);
/* The window's size (24x80 when it cannot be read). */
void term_size(int *rows, int *cols);
/* Was the window resized since the last call? */
int term_resized(void);

/* Key codes beyond a byte's. */
enum {
	TK_UP = 0x100, TK_DOWN, TK_LEFT, TK_RIGHT, TK_PGUP, TK_PGDN, TK_HOME, TK_END,
	TK_ESC, TK_BTAB,
};
/* The key at buf[*i] (n bytes read), *i moved past it: a byte (Enter is
 * '\r' or '\n', Tab '\t'), a TK_ code, or -1 for a sequence not known. */
int term_key(const char *buf, ssize_t n, ssize_t *i);

#endif
