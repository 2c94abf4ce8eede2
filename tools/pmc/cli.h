/*
 * cli.h — what every pmc subcommand shares: the message conventions
 * ("pmc SUBCMD: what failed: why"), exit codes, colour policy and number
 * formatting.  Subcommands are `int cmd_NAME(int argc, char **argv)`; argv[0]
 * is the subcommand name.  They return the process exit status.
 */
#ifndef PMC_CLI_H
#define PMC_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "toolslib/outfile.h"

/* Exit status: 0 success, 1 runtime failure, 2 usage error. */
#define CLI_EXIT_OK      0
#define CLI_EXIT_FAIL    1
#define CLI_EXIT_USAGE   2

/* Set by main before dispatch: "pmc stat". */
extern const char *cli_prog;

/* main calls it first: stdout becomes a stream that keeps why a write
 * failed (cli_close_output says it), and at exit output that could not be
 * written and was not reported yet (--help >/dev/full) is reported, exit 1. */
void cli_stdout_init(void);
/* Flush standard output: 0, or -1 after saying why it could not be written
 * ("cannot write the output: No space left on device").  failed: a writer
 * already saw an error (ferror). */
int cli_flush_stdout(int failed);

/* "pmc SUBCMD: MESSAGE\n" on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, then exit(code). */
void cli_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* A usage error: message, a hint to run --help, exit 2. */
void cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* getopt_long returned ':' (missing argument) or '?' (unknown option):
 * say which, as a usage error.  Subcommands use opterr = 0 and ":..." optstrings. */
void cli_bad_option(int c, char **argv) __attribute__((noreturn));

/* SIGINT, SIGTERM and SIGHUP call handler (which records them for the
 * command's loop), without SA_RESTART, so that a blocking wait or poll
 * returns.  (Caught, not ignored: a command started later gets them back
 * at its exec.)  record, top and exporter. */
void cli_catch_stop_signals(void (*handler)(int));

/* Colour only on a terminal and never with NO_COLOR set. */
int cli_use_color(FILE *f);
/* --color WHEN: always 1, never 0, auto what automatic says (e.g. text on
 * a terminal: cli_use_color); anything else is a usage error. */
int cli_parse_color(const char *when, int automatic);
/* --percent-limit P (a "%" may follow): P >= 0, else a usage error. */
double cli_parse_percent(const char *arg, const char *opt);

/* The FILE of an option (opt: "-o", "-i"), or a file operand: arg, or a
 * usage error "OPT needs a file name (or '-')" when it is empty. */
const char *cli_file_arg(const char *opt, const char *arg);

/* Binary output (what: "a binary log") going to standard output: a usage
 * error when that is a terminal (record -o -, convert -o -, report -F pprof). */
void cli_refuse_binary_tty(const char *what);

/* -o FILE of a command: stdout for NULL or "-", else a file created by the
 * one output opener (toolslib/outfile.h: temporary file renamed into place,
 * planted symlinks never followed); an existing file needs force.  Exits
 * with the opener's message on failure. */
FILE *cli_open_output(struct outfile *of, const char *path, int force);
/* Flush and finish the output (rename into place): 0, or -1 after saying
 * why ("cannot write 'FILE': why", or "out of memory" when the analysis ran
 * out); nothing partial is left behind.  failed:
 * the writer already saw an error (ferror): give up on the file. */
int cli_close_output(struct outfile *of, FILE *f, int failed);
/* Nothing was written (the input could not be read): remove the file. */
void cli_discard_output(struct outfile *of);


/* Parse "PID[,PID...]" (positive ids, no empty item), appending to *pids
 * / *n the ids not already there; -1 on a bad list (or an empty one, or
 * out of memory).  -p and -t of stat and record. */
int cli_parse_pid_list(const char *s, pid_t **pids, int *n);

/* The number a /proc/sys file holds (a kernel tunable), dflt if it cannot
 * be read. */
long cli_read_proc_long(const char *path, long dflt);

/* The input of report, script and annotate when -i is not given: standard
 * input ("-") when it is a pipe, as perf report reads it, else pmc.log, else
 * perf.data (said on stderr); neither: exits 1 naming both. */
const char *cli_default_input(void);
/* Around a call that opens path, a FIFO perhaps (writing: for writing):
 * after a second with no peer, one line on stderr says what it waits for;
 * Ctrl-C ends the wait (cli_fifo_end exits 128+N).  Nothing if path is not
 * a FIFO. */
void cli_fifo_begin(const char *path, int writing);
void cli_fifo_end(void);
/* An input that is a FIFO is opened here, so (cli_fifo_begin), and becomes
 * standard input: "-" is returned for the reader; else path itself. */
const char *cli_fifo_input(const char *path);
/* perf's --tui of annotate: pmc annotate has no browser (pmc report --tui
 * annotates with 'a'); exits 2 saying so. */
void cli_no_tui(void) __attribute__((noreturn));

/*
 * The sample filters of report, script, diff and annotate, and where they
 * find symbols: one option table, one parser; the lists are checked by
 * analysis (profile.h).  Each command puts the entries in its getopt_long
 * table (and "k:" in its short options), hands every option to
 * cli_filter_option, and calls cli_filter_check after the options.
 */
struct prof_filter;
struct symtab_opts;
enum {
	CLI_O_PID = 0x1000, CLI_O_TID, CLI_O_COMM, CLI_O_CPU, CLI_O_TIME, CLI_O_DSO, CLI_O_SYM,
	CLI_O_SYMFS, CLI_O_KALLSYMS
};
/* Who ran, where and when: --pid, --tid, --comm (perf's --comms), --cpu,
 * --time (perf's forms, profile__parse_time). */
#define CLI_FILTER_TASK_OPTIONS \
	{ "pid", required_argument, NULL, CLI_O_PID }, \
	{ "tid", required_argument, NULL, CLI_O_TID }, \
	{ "comm", required_argument, NULL, CLI_O_COMM }, \
	{ "comms", required_argument, NULL, CLI_O_COMM }, \
	{ "cpu", required_argument, NULL, CLI_O_CPU }, \
	{ "time", required_argument, NULL, CLI_O_TIME }
/* The sampled function: --dso, --sym (perf's --dsos, --symbols).  Not
 * annotate's, whose function is its operand and -d/--dso its binary. */
#define CLI_FILTER_FUNC_OPTIONS \
	{ "dso", required_argument, NULL, CLI_O_DSO }, \
	{ "dsos", required_argument, NULL, CLI_O_DSO }, \
	{ "sym", required_argument, NULL, CLI_O_SYM }, \
	{ "symbols", required_argument, NULL, CLI_O_SYM }
/* Symbols from elsewhere (a recording read on another machine), as perf's
 * options: --symfs DIR, -k/--vmlinux FILE, --kallsyms FILE. */
#define CLI_SYMBOL_OPTIONS \
	{ "symfs", required_argument, NULL, CLI_O_SYMFS }, \
	{ "vmlinux", required_argument, NULL, 'k' }, \
	{ "kallsyms", required_argument, NULL, CLI_O_KALLSYMS }
/* Their --help lines (25-column layout, fprintf format). */
#define CLI_TIME_HELP \
	"      --time RANGES      keep the samples of these times, perf's forms:\n" \
	"                         START,END seconds (perf script's timestamps; or\n" \
	"                         from the recording's start when the first value\n" \
	"                         is within its length), 'S1,E1 S2,E2' several ranges,\n" \
	"                         10%%/2 the 2nd tenth, 0%%-10%%,50%%-60%% percent\n" \
	"                         ranges of the recording\n"
#define CLI_SYMBOL_HELP \
	"      --symfs DIR        read each binary from DIR + its recorded path\n" \
	"                         (a recording made on another machine)\n" \
	"  -k, --vmlinux FILE     kernel symbols from this vmlinux (ELF)\n" \
	"      --kallsyms FILE    kernel symbols from this saved /proc/kallsyms\n"
/* -j N / --jobs N (and --threads N but in report, whose --threads is
 * perf's per-thread sort; there --threads=N): the worker threads that
 * unwind DWARF stacks while a recording is read (prof_load_opts.threads). */
#define CLI_JOBS_OPTIONS \
	{ "jobs", required_argument, NULL, 'j' }
#define CLI_JOBS_HELP \
	"  -j, --jobs N           unwind DWARF stacks (--call-graph dwarf) on N threads\n" \
	"                         (default: 1 below 4 CPUs pmc may run on, else one\n" \
	"                         fewer than the CPUs; 1: no threads);\n" \
	"                         the output is the same for any N\n"
/* N of -j N: a count from 1 to 1024, else a usage error naming opt. */
int cli_parse_jobs(const char *arg, const char *opt);
/* 1 if c (from getopt_long) is a filter or symbol option, now stored in flt
 * or sym (which keep pointing at arg); 0 if it is not one.  A bad --time, a
 * --symfs that is not a directory, a -k or --kallsyms that cannot be read
 * is a usage error. */
int cli_filter_option(struct prof_filter *flt, struct symtab_opts *sym, int c, const char *arg);
/* After the options: the numeric lists hold numbers, -k and --kallsyms are
 * not both given; else a usage error. */
void cli_filter_check(const struct prof_filter *flt, const struct symtab_opts *sym);

/* The subcommands. */
int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_control(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_exporter(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_top(int argc, char **argv);

#endif
