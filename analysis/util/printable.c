/*
 * printable.c — names from a recording made safe to print (printable.h).
 * The rule, in one place: C0 controls, DEL, C1 controls (U+0080..U+009F
 * encoded in UTF-8, and a raw byte 0x80..0x9f, which an 8-bit terminal
 * takes as a C1 control such as CSI 0x9b) and any byte that is not part of
 * well-formed UTF-8 are written \xNN; everything else (ASCII, well-formed
 * UTF-8 of U+00A0 and up) as is.
 */
#include <stdio.h>

#include "util/printable.h"

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), 0 if none starts there. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

size_t printable__unit(const char *str, int *escape)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = utf8_len(s);

	if (n == 0) {                      /* not UTF-8 (a raw C1 byte among them) */
		*escape = 1;
		return 1;
	}
	*escape = n == 1 ? s[0] < 0x20 || s[0] == 0x7f : n == 2 && s[0] == 0xc2 && s[1] < 0xa0;
	return n;
}

int printable__needs(const char *s)
{
	while (s && *s) {
		int esc;
		s += printable__unit(s, &esc);
		if (esc)
			return 1;
	}
	return 0;
}

char *printable__copy(const char *s, char *out, size_t len)
{
	size_t o = 0;

	while (s && *s) {
		int esc;
		size_t n = printable__unit(s, &esc);
		if (o + (esc ? 4 * n : n) >= len)
			break;                      /* cut before the unit, never inside */
		for (size_t i = 0; i < n; i++, s++) {
			if (esc) {
				snprintf(out + o, 5, "\\x%02x", (unsigned char)*s);
				o += 4;
			} else
				out[o++] = *s;
		}
	}
	out[o] = '\0';
	return out;
}

const char *printable__str(const char *s, char *out, size_t len)
{
	return printable__needs(s) ? printable__copy(s, out, len) : s;
}
