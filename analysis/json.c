/*
 * json.c — the one JSON string escaper (json.h says why and how): valid
 * UTF-8 in, valid UTF-8 out, with invalid bytes escaped as \u00XX.
 */
#include <stddef.h>
#include <stdio.h>

#include "json.h"

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if s[0] does not
 * start one (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF). */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

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
		if (c < 0x20 || c == 0x7f || (html && (c == '<' || c == '>' || c == '&'))) {
			fprintf(f, "\\u%04x", c);
			s++;
		} else if ((n = utf8_len(s)) == 0) {
			fprintf(f, "\\u%04x", c);   /* not UTF-8: the Latin-1 character */
			s++;
		} else {
			fwrite(s, 1, n, f);
			s += n;
		}
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
