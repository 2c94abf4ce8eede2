/*
 * json.h — the one JSON string writer, used by every JSON output (report
 * --format json, speedscope, the HTML report's embedded data, diff --json,
 * stat --json, dump --json, list --json).  Output is always valid UTF-8
 * JSON, whatever bytes a recording holds: names come from binaries, /proc
 * and perf.data files, and need not be UTF-8.
 */
#ifndef PMCSTAT_JSON_H
#define PMCSTAT_JSON_H

#include <stdio.h>

/* Write s as a JSON string literal (with its quotes).  '"', '\\' and control
 * characters are escaped; valid UTF-8 sequences are copied; every byte that
 * is not part of one is written as \u00XX (the Latin-1 character of that
 * value), so the name stays recognisable and the output stays valid.
 * NULL is written as "". */
void json__string(FILE *f, const char *s);
/* The same for JSON inside an HTML <script>: '<', '>' and '&' escaped too,
 * so "</script>" cannot occur. */
void json__string_html(FILE *f, const char *s);

#endif
