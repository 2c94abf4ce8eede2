/*
 * <pmcformat.h> of the libpmc-freebsd include set: FreeBSD's log-record
 * formatter for C++ programs (usr.sbin/pmc's filter -j): event_to_json()
 * returns one record as one line of JSON.  The rendering is C, in the
 * compat library (pmc_freebsd_event_json, compat/freebsd/json.c); the C++
 * wrapper is inline here so that the library needs no C++ runtime.
 */
#ifndef _PMC_FREEBSD_PMCFORMAT_H_
#define _PMC_FREEBSD_PMCFORMAT_H_

#include <pmclog.h>

#ifdef __cplusplus
extern "C" {
#endif
/* The record as a malloc'ed, NUL-terminated JSON line ending in '\n';
 * NULL without memory. */
char *pmc_freebsd_event_json(const struct pmclog_ev *ev);
#ifdef __cplusplus
}

#include <cstdlib>
#include <string>

inline std::string event_to_json(struct pmclog_ev *ev) noexcept
{
	char *s = pmc_freebsd_event_json(ev);
	std::string r;

	try {
		if (s != NULL)
			r = s;
	} catch (...) {
		r.clear();
	}
	std::free(s);
	return r;
}
#endif

#endif
