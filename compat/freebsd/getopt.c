/*
 * getopt(3) with FreeBSD's behaviour for programs built with
 * libpmc-freebsd: options end at the first operand (glibc's getopt permutes
 * argv unless the option string starts with '+'), and optreset = 1 restarts
 * the scan (libbsd's optreset; glibc restarts when optind is 0).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

extern int optreset;    /* libbsd's */

int pmc_fbsd_getopt(int argc, char *const argv[], const char *optstring)
{
	static char *plus;
	static const char *from;
	if (optreset) {
		optreset = 0;
		optind = 0;
	}
	if (optstring[0] != '+') {
		if (from != optstring || plus == NULL) {
			size_t n = strlen(optstring);
			char *p = realloc(plus, n + 2);
			if (p == NULL)
				return (getopt)(argc, argv, optstring);
			p[0] = '+';
			memcpy(p + 1, optstring, n + 1);
			plus = p;
			from = optstring;
		}
		optstring = plus;
	}
	return (getopt)(argc, argv, optstring);
}
