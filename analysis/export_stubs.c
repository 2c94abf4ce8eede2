#include "report.h"
int export__pprof(FILE *f, struct profile *p, const struct report_opts *o) { return -1; }
int export__speedscope(FILE *f, struct profile *p, const struct report_opts *o) { return -1; }
int export__callgrind(FILE *f, struct profile *p, const struct report_opts *o) { return -1; }
int export__svg(FILE *f, struct profile *p, const struct report_opts *o) { return -1; }
int export__html(FILE *f, struct profile *p, const struct report_opts *o) { return -1; }
