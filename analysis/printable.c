/*
 * printable.c — names from a recording made safe to print (printable.h).
 */
#include <stdio.h>

#include "printable.h"

static int is_ctl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

int printable__needs(const char *s)
{
	for (; s && *s; s++)
		if (is_ctl((unsigned char)*s))
			return 1;
	return 0;
}

char *printable__copy(const char *s, char *out, size_t len)
{
	size_t o = 0;
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (is_ctl(c)) {
			if (o + 4 >= len)
				break;
			snprintf(out + o, 5, "\\x%02x", c);
			o += 4;
		} else {
			if (o + 1 >= len)
				break;
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return out;
}

const char *printable__str(const char *s, char *out, size_t len)
{
	return printable__needs(s) ? printable__copy(s, out, len) : s;
}
