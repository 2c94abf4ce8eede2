/*
 * report_tui.h — `pmc report --tui`: the terminal browser over a loaded,
 * resolved profile (the rows come from analysis/report/browse.h).
 */
#ifndef PMC_TOOL_REPORT_TUI_H
#define PMC_TOOL_REPORT_TUI_H

#include "report/report.h"

/* Does `pmc report` browse?  asked: --tui 1, --stdio/--no-tui 0, neither
 * -1 (then: when standard input and output are a terminal and PMC_PAGER
 * is unset or empty).  text_stdout: the text report would go to standard
 * output (-F text, no -o).  --tui where it cannot browse is a usage error. */
int report_use_tui(int asked, int text_stdout);
/* Browse until the user quits or a stop signal: 0, or -1 after saying why
 * (no terminal, out of memory). */
int report_tui(struct profile *p, const struct report_opts *o);

#endif
