/* cli.c — shared helpers for the pmc subcommands (see cli.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "pmc.h"
#include "common/grow.h"
#include "profile/profile.h"

const char *cli_prog = "pmc";

static void vmsg(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", cli_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void cli_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(code);
}

void cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", cli_prog);
	exit(CLI_EXIT_USAGE);
}

void cli_bad_option(int c, char **argv)
{
	extern int optind, optopt;
	if (c == ':')
		cli_usage_error("option '%s' needs an argument", argv[optind - 1]);
	if (optopt && optopt < 256)
		cli_usage_error("unknown option '-%c'", optopt);
	cli_usage_error("unknown option '%s'", argv[optind - 1]);
}

void cli_catch_stop_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int cli_use_color(FILE *f)
{
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return 0;
	return isatty(f == stdout ? STDOUT_FILENO : fileno(f));   /* stdout: a cookie stream */
}

int cli_parse_color(const char *when, int automatic)
{
	if (strcmp(when, "always") == 0)
		return 1;
	if (strcmp(when, "never") == 0)
		return 0;
	if (strcmp(when, "auto") == 0)
		return automatic;
	cli_usage_error("--color: '%s' is not always, never or auto", when);
}

double cli_parse_percent(const char *arg, const char *opt)
{
	char *end;
	double v = strtod(arg, &end);

	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end || !(v >= 0))
		cli_usage_error("%s: '%s' is not a percentage", opt, arg);
	return v;
}

int cli_parse_jobs(const char *arg, const char *opt)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 1 || v > 1024)
		cli_usage_error("%s: '%s' is not a number of threads (1 to 1024)", opt, arg);
	return (int)v;
}

int cli_parse_pid_list(const char *s, pid_t **pids, int *n)
{
	int cap = *n;                          /* what *pids holds at least */
	while (*s) {
		char *end;
		long v;
		int seen = 0;

		if (!isdigit((unsigned char)*s))   /* an empty item (1,,2), a sign */
			return -1;
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || v <= 0 || v > 0x7fffffff || (*end && *end != ','))
			return -1;
		s = *end ? end + 1 : end;
		if (*end && !*s)                   /* a trailing comma */
			return -1;
		/* -p P,P or -p P -t P: one target, attached once */
		for (int i = 0; i < *n; i++)
			seen |= (*pids)[i] == (pid_t)v;
		if (seen)
			continue;
		if (GROW(*pids, *n, cap) < 0)
			return -1;
		(*pids)[(*n)++] = (pid_t)v;
	}
	return *n > 0 ? 0 : -1;
}

/* The output being written: removed if we exit before finishing it. */
static struct outfile *pending;

static void abort_pending(void)
{
	if (pending && (pending->fp || pending->fd >= 0))
		outfile__abort(pending);
	pending = NULL;
}

const char *cli_file_arg(const char *opt, const char *arg)
{
	if (!*arg)
		cli_usage_error("%s needs a file name (or '-')", opt);
	return arg;
}

void cli_refuse_binary_tty(const char *what)
{
	if (isatty(STDOUT_FILENO))
		cli_usage_error("refusing to write %s to a terminal; redirect or pipe "
		    "standard output, or give -o FILE", what);
}

/* stdio forgets why a write to standard output failed (the buffer is
 * dropped and errno is overwritten by whatever runs next), so pmc's stdout
 * is outfile__fdstream over fd 1 (toolslib/outfile.h), which keeps the errno of the write
 * that failed, for the message ("No space left on device", "Broken pipe").
 * It replaces stdout (glibc's stdout is an ordinary variable), so
 * `f == stdout` still tells standard output. */
static int stdout_errno;
static int stdout_reported;       /* cli_close_output said it */

/* At exit: output nobody checked (--help, list) that could not be
 * written is a failure too, said once. */
static FILE *plain_stdout;      /* the C library's, before cli_stdout_init */

static void stdout_check(void)
{
	int bad = fflush(stdout) != 0 || ferror(stdout);
	if (plain_stdout && stdout != plain_stdout) {
		FILE *f = stdout;       /* its cookie is freed by fclose */
		stdout = plain_stdout;
		fclose(f);
	}
	if (!bad)
		return;
	if (stdout_reported)
		return;
	fprintf(stderr, "%s: cannot write the output: %s\n", cli_prog,
	    strerror(stdout_errno ? stdout_errno : EIO));
	_exit(CLI_EXIT_FAIL);
}

int cli_flush_stdout(int failed)
{
	int e = errno;

	if (!failed && fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	if (stdout_errno)
		e = stdout_errno;
	cli_warn("cannot write the output: %s", strerror(e ? e : EIO));
	stdout_reported = 1;
	return -1;
}

void cli_stdout_init(void)
{
	FILE *f = outfile__fdstream(STDOUT_FILENO, 0, &stdout_errno);

	if (f) {        /* else plain stdout: a message may say less */
		if (isatty(STDOUT_FILENO))
			setvbuf(f, NULL, _IOLBF, 0);
		plain_stdout = stdout;
		stdout = f;
	}
	atexit(stdout_check);
}

FILE *cli_open_output(struct outfile *of, const char *path, int force)
{
	static int registered;

	memset(of, 0, sizeof(*of));
	of->fd = -1;
	if (!path || strcmp(path, "-") == 0)
		return stdout;
	cli_fifo_begin(path, 1);
	int rc = outfile__fopen(of, path, force ? OUTFILE_FORCE : 0);
	cli_fifo_end();
	if (rc < 0)
		cli_die(CLI_EXIT_FAIL, "%s", pmc_errmsg());
	if (!registered++)
		atexit(abort_pending);
	pending = of;
	return of->fp;
}

int cli_close_output(struct outfile *of, FILE *f, int failed)
{
	int e = errno;

	pending = NULL;
	if (failed && pmc_errcause() == PMC_CAUSE_NOMEM) {
		/* the output is incomplete because the analysis ran out of
		 * memory, not because writing failed: say that */
		cli_warn("%s", pmc_errmsg());
		if (of->fp)
			outfile__abort(of);
		return -1;
	}
	if (!of->fp)          /* standard output */
		return cli_flush_stdout(failed);
	if (failed && !ferror(f)) {
		cli_warn("cannot write '%s': %s", of->path, strerror(e ? e : EIO));
		outfile__abort(of);
		return -1;
	}
	/* a failed write: commit fails and says why (the stream kept the
	 * errno), leaving nothing behind */
	if (outfile__commit(of) < 0) {
		cli_warn("%s", pmc_errmsg());
		return -1;
	}
	return 0;
}

void cli_discard_output(struct outfile *of)
{
	pending = NULL;
	if (of->fp || of->fd >= 0)
		outfile__abort(of);
}

/*
 * A FIFO with nobody on the other end blocks open(2) (perf's too): a
 * frozen command.  While one is opened, a one-second alarm says what we
 * wait for, and Ctrl-C (or SIGTERM) ends the wait: the open fails with
 * EINTR and cli_fifo_end exits 128+N, an output half made removed (atexit).
 */
static struct {
	int armed;
	volatile sig_atomic_t stop;
	char note[PATH_MAX + 128];
	size_t len;
	struct sigaction alrm, intr, term;
} fifo;

static void fifo_on_alarm(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, fifo.note, fifo.len) < 0) { /* nothing to do */ }
}

static void fifo_on_stop(int sig)
{
	fifo.stop = sig;
}

void cli_fifo_begin(const char *path, int writing)
{
	struct sigaction a = { .sa_handler = fifo_on_alarm, .sa_flags = SA_RESTART };
	struct sigaction st = { .sa_handler = fifo_on_stop };
	struct stat sb;
	int n;

	if (fifo.armed || !path || !strcmp(path, "-") || stat(path, &sb) != 0 ||
	    !S_ISFIFO(sb.st_mode))
		return;
	n = snprintf(fifo.note, sizeof(fifo.note), "%s: waiting for a %s on FIFO '%s'; "
	    "Ctrl-C to stop\n", cli_prog, writing ? "reader" : "writer", path);
	fifo.len = n < 0 ? 0 : (size_t)n < sizeof(fifo.note) ? (size_t)n : sizeof(fifo.note) - 1;
	fifo.stop = 0;
	sigemptyset(&a.sa_mask);
	sigemptyset(&st.sa_mask);
	sigaction(SIGALRM, &a, &fifo.alrm);
	sigaction(SIGINT, &st, &fifo.intr);
	sigaction(SIGTERM, &st, &fifo.term);
	fifo.armed = 1;
	alarm(1);
}

void cli_fifo_end(void)
{
	if (!fifo.armed)
		return;
	alarm(0);
	sigaction(SIGALRM, &fifo.alrm, NULL);
	sigaction(SIGINT, &fifo.intr, NULL);
	sigaction(SIGTERM, &fifo.term, NULL);
	fifo.armed = 0;
	if (fifo.stop)
		exit(128 + fifo.stop);
}

const char *cli_fifo_input(const char *path)
{
	struct stat sb;
	int fd;

	if (!path || !strcmp(path, "-") || stat(path, &sb) != 0 || !S_ISFIFO(sb.st_mode))
		return path;
	cli_fifo_begin(path, 0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	cli_fifo_end();
	if (fd < 0)
		return path;             /* the reader says why */
	if (fd != STDIN_FILENO) {
		if (dup2(fd, STDIN_FILENO) < 0) {
			close(fd);
			return path;
		}
		close(fd);
	}
	return "-";
}

void cli_no_tui(void)
{
	cli_die(CLI_EXIT_USAGE, "--tui: pmc annotate has no browser of its own; use --stdio "
	    "(the text output, the default), or 'a' in pmc report --tui");
}

const char *cli_default_input(void)
{
	struct stat sb;
	if (fstat(STDIN_FILENO, &sb) == 0 && S_ISFIFO(sb.st_mode))
		return "-";
	if (stat("pmc.log", &sb) == 0)
		return "pmc.log";
	if (stat("perf.data", &sb) == 0) {
		cli_warn("no pmc.log here: reading perf.data (-i FILE to choose)");
		return "perf.data";
	}
	cli_die(CLI_EXIT_FAIL, "no input: neither pmc.log nor perf.data is in this directory "
	    "(-i FILE names one)");
}

long cli_read_proc_long(const char *path, long dflt)
{
	FILE *f = fopen(path, "r");
	long v = dflt;
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = dflt;
		fclose(f);
	}
	return v;
}

/* A file named by -k or --kallsyms opens for reading and is what the
 * option wants (an ELF kernel image; a kallsyms text): else a usage error
 * now, not a kernel left unresolved later. */
static void check_readable(const char *opt, const char *path)
{
	struct stat sb;
	if (stat(path, &sb) != 0)
		cli_usage_error("%s: cannot read '%s': %s", opt, path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		cli_usage_error("%s: '%s' is not a regular file", opt, path);
	if (access(path, R_OK) != 0)
		cli_usage_error("%s: cannot read '%s': %s", opt, path, strerror(errno));
	if (symtab__check_kernel_file(path, strcmp(opt, "--kallsyms") != 0) < 0)
		cli_usage_error("%s: %s", opt, pmc_errmsg());
}

int cli_filter_option(struct prof_filter *flt, struct symtab_opts *sym, int c, const char *arg)
{
	struct stat sb;

	switch (c) {
	case CLI_O_PID: flt->pids = arg; break;
	case CLI_O_TID: flt->tids = arg; break;
	case CLI_O_COMM: flt->comms = arg; break;
	case CLI_O_CPU: flt->cpus = arg; break;
	case CLI_O_DSO: flt->dsos = arg; break;
	case CLI_O_SYM: flt->syms = arg; break;
	case CLI_O_TIME:
		if (profile__parse_time(flt, arg) != 0)
			cli_usage_error("--time: %s", pmc_errmsg());
		break;
	case CLI_O_SYMFS:
		if (stat(arg, &sb) != 0 || !S_ISDIR(sb.st_mode))
			cli_usage_error("--symfs: '%s' is not a directory", arg);
		sym->symfs = arg;
		break;
	case 'k':
		check_readable("-k/--vmlinux", arg);
		sym->vmlinux = arg;
		break;
	case CLI_O_KALLSYMS:
		check_readable("--kallsyms", arg);
		sym->kallsyms = arg;
		break;
	default:
		return 0;
	}
	return 1;
}

void cli_filter_check(const struct prof_filter *flt, const struct symtab_opts *sym)
{
	if (sym->vmlinux && sym->kallsyms)
		cli_usage_error("-k/--vmlinux and --kallsyms: give one source of kernel symbols");
	if (profile__check_filter(flt) != 0)
		cli_usage_error("%s", pmc_errmsg());
}
