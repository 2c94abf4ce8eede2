/*
 * printable.h — names from a recording made safe to print.  A command
 * name, a file name or a symbol comes from the recorded program (or from
 * whoever wrote the file): written as is to a terminal, an escape sequence
 * in it would act on the terminal (retitle it, move the cursor), and a
 * newline would split a report's line in two.  Such bytes are written as
 * \xNN, as `pmc dump` writes them.  The profile stores the names it shows
 * (commands, events, functions, binaries' short names) already made
 * printable (symtab__intern_name); paths it still opens are kept as
 * recorded and made printable where a text output prints them.
 */
#ifndef PMCSTAT_PRINTABLE_H
#define PMCSTAT_PRINTABLE_H

#include <stddef.h>

/*
 * The next unit of s (*s not NUL): its length in bytes (a UTF-8 character,
 * or one byte that is not part of well-formed UTF-8), and in *escape 1 when
 * each of its bytes is to be written \xNN: a C0 control (newline, tab,
 * escape ...), DEL, a C1 control (U+0080..U+009F, or a raw byte
 * 0x80..0x9f: 0x9b is CSI to an 8-bit terminal), or a byte that is not
 * UTF-8.  The one rule every text output follows.
 */
size_t printable__unit(const char *s, int *escape);
/* 1 if s holds something printable__unit escapes; else 0. */
int printable__needs(const char *s);
/* s copied into out (len >= 1 bytes, cut to fit between characters) with
 * each such byte written \xNN: out. */
char *printable__copy(const char *s, char *out, size_t len);
/* s (not NULL) itself when it needs nothing, else printable__copy(s, out,
 * len). */
const char *printable__str(const char *s, char *out, size_t len);

#endif
