/*
 * numfmt.c — counts with their digits grouped by thousands (numfmt.h).
 */
#include <stdio.h>

#include "util/numfmt.h"

const char *numfmt__group_digits(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	size_t o = 0;

	if (len == 0)
		return buf;
	for (int i = 0; i < n && o + 1 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}
