/*
 * numfmt.h — how counts are written for people: digits grouped by
 * thousands with commas ("1,234,567"), as perf prints them.  Reports
 * (report.c) and the CLI (stat, record's status line, convert) share it,
 * so a count reads the same wherever it is printed.
 */
#ifndef PMCSTAT_NUMFMT_H
#define PMCSTAT_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* v with its digits grouped, in buf (truncated to len - 1 characters,
 * always terminated when len > 0); returns buf. */
const char *numfmt__group_digits(uint64_t v, char *buf, size_t len);

#endif
