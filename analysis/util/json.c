/*
 * json.c — the one JSON string escaper (json.h says why and how): valid
 * UTF-8 in, valid UTF-8 out, with invalid bytes escaped as \u00XX.  What is
 * valid, and which characters are controls (C0, DEL, C1), is printable.h's
 * one rule; controls are written as their \uXXXX escapes.
 */
#include <stddef.h>
#include <stdio.h>

#include "util/json.h"
#include "util/printable.h"

static void write_string(FILE *f, const char *str, int html)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	putc('"', f);
	while (*s) {
		unsigned char c = *s;
		size_t n;

		switch (c) {
		case '"':  fputs("\\\"", f); s++; continue;
		case '\\': fputs("\\\\", f); s++; continue;
		case '\n': fputs("\\n", f); s++; continue;
		case '\t': fputs("\\t", f); s++; continue;
		case '\r': fputs("\\r", f); s++; continue;
		}
		int esc;
		n = printable__unit((const char *)s, &esc);
		if (html && (c == '<' || c == '>' || c == '&')) {
			fprintf(f, "\\u%04x", c);
		} else if (esc && n == 2) {
			/* a C1 control (printable.h): its code point, escaped */
			fprintf(f, "\\u%04x", (unsigned)((s[0] & 0x1f) << 6 | (s[1] & 0x3f)));
		} else if (esc) {
			/* C0, DEL, or a byte that is not UTF-8 (its Latin-1 character) */
			fprintf(f, "\\u%04x", c);
		} else {
			fwrite(s, 1, n, f);
		}
		s += n;
	}
	putc('"', f);
}

void json__string(FILE *f, const char *s)
{
	write_string(f, s, 0);
}

void json__string_html(FILE *f, const char *s)
{
	write_string(f, s, 1);
}
