/*
 * cmd_record.c — `pmc record`: sample a command, processes, threads or CPUs
 * into a pmc log (perf record; pmcstat -P/-S -O).  Everything is done through
 * the public libpmc API: this file decides what to sample, where the log goes
 * and when to stop, and reports what was written.  The log itself — rings,
 * the writer thread, the records — is the library's (lib/core/logctl.c).
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmc.h"
#include "pmclog.h"
#include "cli.h"
#include "toolslib/tunables.h"
#include "util/numfmt.h"
#include "sampling.h"
#include "target.h"

#define MAX_EVENTS   64
#define DEFAULT_HZ   4000
#define DEFAULT_FILE "pmc.log"
#define TICK_MS      100          /* main-loop wake-up */
#define STATUS_MS    250          /* live status line refresh */

struct opts {
	struct cli_sampling smp;      /* -e -F -c -g --call-graph --off-cpu, the target */
	const char *out;              /* -o */
	int force;                    /* -f */
	int zstd;                     /* -z */
	const char *backend;
	int verbose, quiet, show_settings;
};

static volatile sig_atomic_t got_signal;
static volatile sig_atomic_t nsignals;
static void on_signal(int sig)
{
	got_signal = sig;
	nsignals++;
}
/* The loop's tick on Linux: interrupts the blocking wait for the command. */
static void on_alarm(int sig)
{
	(void)sig;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmc record [-e EVENT]... [-F HZ | -c PERIOD] [-g | --call-graph MODE] [-o FILE] [-f] [-z]\n"
"                  -- COMMAND [ARGS...]\n"
"       pmc record [options] -p PID[,PID...] | -t TID[,TID...] | -a [-C CPUS] [-l SECONDS]\n"
"       pmc record --show-settings\n"
"\n"
"Sample a command (and its children), existing processes or threads, or whole\n"
"CPUs into a pmc log; read it with 'pmc dump' (or 'pmc report').  Only the\n"
"command is sampled, not pmc's own fork and exec.  Without -e: cycles, or\n"
"cpu-clock on a machine without a hardware PMU.\n"
"\n"
"  -e, --event=LIST      events to sample (see 'pmc list'); repeatable\n"
"  -F, --freq=HZ         samples per second (default %d; max: the kernel's\n"
"                        highest rate, as perf's -F max)\n"
"  -c, --count=PERIOD    one sample every PERIOD events (a hardware counter's\n"
"                        at least mincount); tracepoints default to -c 1\n"
"                        (every event) without -F or -c, as perf's\n"
"  -g                    record call chains (kernel and user, frame pointers)\n"
"      --call-graph=MODE fp: as -g; dwarf[,SIZE]: the kernel's chain plus a\n"
"                        copy of the user registers and SIZE bytes of user\n"
"                        stack (default 8192, at most 65528) per sample, unwound\n"
"                        from DWARF CFI by 'pmc report' (for code without frame\n"
"                        pointers; implies -z); lbr: Intel LBR call stacks (not\n"
"                        supported)\n"
"  -o, --output=FILE     the log (default %s; '-': standard output, and the\n"
"                        command's standard output goes to standard error)\n"
"  -f, --force           overwrite FILE if it exists\n"
"  -z, --compress        zstd-compress the log (still streamable)\n"
"      --off-cpu         also record where threads block and for how long: a\n"
"                        call chain at every switch-out and the switch-in\n"
"                        times ('pmc report' shows offcpu-time in ns, --wall\n"
"                        adds on-CPU time); without -e the on-CPU event is\n"
"                        cpu-clock\n"
"  -p, --pid=PIDS        sample existing processes (all threads, and children)\n"
"  -t, --tid=TIDS        sample existing threads only\n"
"  -a, --all-cpus        sample every CPU (system-wide; needs privilege; with a\n"
"                        command: for as long as it runs)\n"
"  -C, --cpu=LIST        sample only these CPUs (e.g. 0-3,6); implies -a\n"
"  -l, --duration=SECS   stop after SECS seconds (default: until the command\n"
"                        ends, the processes exit, or Ctrl-C)\n"
"  -b, --backend=NAME    linux (default) or sim (simulated ARMv8 PMU; the\n"
"                        command is a workload file)\n"
"  -v, --verbose         also print the tunables and the PMCs used\n"
"  -q, --quiet           no status line, no summary\n"
"      --show-settings   print the tunables record uses, and exit\n"
"  -h, --help            this help\n"
"\n"
"A status line (elapsed, samples, lost, bytes) is shown on standard error when\n"
"it is a terminal; a summary ends every recording.  Ctrl-C or SIGTERM stops\n"
"recording (the command gets the signal too); the log is completed either way.\n"
"\n"
"Exit status: the command's own (128+N if signal N ended it), 0 for -p/-t/-a;\n"
"1 if recording failed (e.g. the disk is full: what was written stays\n"
"readable); 2 for a usage error.\n", DEFAULT_HZ, DEFAULT_FILE);
}

static long setting(const char *name)
{
	long v = 0;
	tunable__get(name, &v);
	return v;
}

/* --show-settings: the tunables and what they mean to record. */
static void show_settings(FILE *f)
{
	long maxstack = cli_read_proc_long("/proc/sys/kernel/perf_event_max_stack", -1);
	long depth = setting("callchaindepth");

	fprintf(f, "callchaindepth %6ld  frames per call chain with -g", depth);
	if (maxstack >= 0)
		fprintf(f, " (kernel.perf_event_max_stack=%ld: %ld used)", maxstack,
		    depth < maxstack ? depth : maxstack);
	fputc('\n', f);
	fprintf(f, "logbuffersize  %6ld  KB: the log writer's buffer; the kernel wakes the writer\n"
	    "                       when a ring holds half of it\n", setting("logbuffersize"));
	fprintf(f, "nbuffers_pcpu  %6ld  x logbuffersize = the most ring memory per CPU (%ld KB)\n",
	    setting("nbuffers_pcpu"), setting("nbuffers_pcpu") * setting("logbuffersize"));
	fprintf(f, "nsamples       %6ld  samples each per-CPU kernel ring holds (sized for\n"
	    "                       callchaindepth frames with -g)\n", setting("nsamples"));
	fprintf(f, "mincount       %6ld  smallest sampling period of a hardware counter; a\n"
	    "                       smaller -c is raised to it (software events, tracepoints: any)\n",
	    setting("mincount"));
	fprintf(f, "\nSet them with PMC_<NAME>=value in the environment or in a config file\n"
	    "(PMC_CONFIG, ~/.config/pmc/pmc.conf, /etc/pmc.conf); see pmc(3).\n");
}

static void join_cmdline(int argc, char **argv, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "pmc");
	for (int i = 0; i < argc && n + 2 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, " %s", argv[i]);
}

/* ---- the recording ----------------------------------------------------- */

struct rec {
	struct opts *o;
	int logfd;
	struct outfile of;            /* the log file (outfile__open), fd -1 for stdout */
	const char *shown;            /* the log's name in messages */
	int status_line;              /* stderr is a terminal */
	int line_shown;
};

/* A setup error (cli_sampling_fail): the log we created goes, an old one
 * renamed to .old comes back. */
static void remove_output(void *arg)
{
	struct rec *r = arg;

	if (r->of.fd >= 0) {
		outfile__abort(&r->of);
		r->logfd = -1;
	}
}

static void open_output(struct rec *r)
{
	struct opts *o = r->o;
	struct cli_sampling *s = &o->smp;

	if (!strcmp(o->out, "-")) {
		r->shown = "<stdout>";
		cli_refuse_binary_tty("a binary log");
		/* The log keeps the pipe; our standard output (and the command's)
		 * becomes standard error, so nothing else can write into the log. */
		r->logfd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (r->logfd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot use standard output: %s",
			    strerror(errno));
		return;
	}
	r->shown = o->out;
	/* Written in place (report --follow may read it as it grows); an old
	 * log is renamed to FILE.old as perf renames perf.data, or with -f
	 * removed; a symlink planted there is never followed. */
	cli_fifo_begin(o->out, 1);
	int rc = outfile__open(&r->of, o->out, OUTFILE_INPLACE |
	    (o->force ? OUTFILE_FORCE : OUTFILE_BACKUP), 0644);
	cli_fifo_end();
	if (rc < 0)
		cli_sampling_fail(s, CLI_EXIT_FAIL, "%s", pmc_errmsg());
	if (r->of.backup && strlen(r->of.backup) < strlen(r->of.target) + 4 && !s->quiet)
		cli_warn("the old '%s' is now '%s' (its name with .old would be longer than "
		    "%d bytes)", o->out, r->of.backup, NAME_MAX);
	r->logfd = r->of.fd;
}

/* The samples (CALLCHAIN records) a log file holds, read back to where it
 * was cut; dflt if it cannot be read. */
static uint64_t samples_in_log(const char *path, uint64_t dflt)
{
	struct pmclog_ev *ev = malloc(sizeof(*ev));
	void *p = ev ? pmclog_open_file(path) : NULL;
	uint64_t n = 0;

	if (!p) {
		free(ev);
		return dflt;
	}
	while (pmclog_read(p, ev) == 0)
		n += ev->pl_type == PMCLOG_TYPE_CALLCHAIN;
	pmclog_close(p);
	free(ev);
	return n;
}

static void human_bytes(uint64_t b, char *buf, size_t len)
{
	if (b >= 10ull * 1024 * 1024)
		snprintf(buf, len, "%.1f MB", (double)b / (1024.0 * 1024.0));
	else if (b >= 10ull * 1024)
		snprintf(buf, len, "%.1f KB", (double)b / 1024.0);
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)b);
}

static void status_line(struct rec *r, uint64_t elapsed_ns)
{
	struct pmc_log_stats st;
	char s[32], l[32], b[32];

	if (!r->status_line || pmc_log_stats(&st) < 0)
		return;
	human_bytes(st.pl_bytes, b, sizeof(b));
	fprintf(stderr, "\r\033[K[ %6.1fs ] %s samples, %s lost, %s",
	    (double)elapsed_ns / 1e9, numfmt__group_digits(st.pl_samples, s, sizeof(s)),
	    numfmt__group_digits(st.pl_lost, l, sizeof(l)), b);
	fflush(stderr);
	r->line_shown = 1;
}

static void clear_status(struct rec *r)
{
	if (r->line_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		r->line_shown = 0;
	}
}

static void print_verbose(struct rec *r)
{
	const struct cli_sampling *s = &r->o->smp;

	cli_warn("settings: callchaindepth=%ld logbuffersize=%ld nbuffers_pcpu=%ld "
	    "nsamples=%ld mincount=%ld", setting("callchaindepth"), setting("logbuffersize"),
	    setting("nbuffers_pcpu"), setting("nsamples"), setting("mincount"));
	for (int i = 0; i < pmc_session_npmcs(s->sess); i++) {
		char where[32] = "";
		const char *spec;
		int cpu;
		pmc_id_t id = pmc_session_pmc(s->sess, i, &spec, &cpu);
		if (cpu >= 0)
			snprintf(where, sizeof(where), " on CPU %d", cpu);
		uint64_t period = cli_sampling_period(s, id);
		if (!period)
			cli_warn("PMC 0x%08x: %s at %llu samples/s%s%s", id, spec,
			    (unsigned long long)s->hz, where, s->callchain ? ", call chains" : "");
		else
			cli_warn("PMC 0x%08x: %s every %llu events%s%s", id, spec,
			    (unsigned long long)period, where, s->callchain ? ", call chains" : "");
	}
}

int cmd_record(int argc, char **argv)
{
	enum { OPT_SHOW_SETTINGS = 256, OPT_CALL_GRAPH, OPT_OFF_CPU };
	static const struct option lopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "freq", required_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'c' },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "compress", no_argument, NULL, 'z' },
		CLI_TARGET_LONGOPTS,
		{ "backend", required_argument, NULL, 'b' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "show-settings", no_argument, NULL, OPT_SHOW_SETTINGS },
		{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct opts o;
	static struct rec r;
	static char cmdline[1024];
	struct cli_sampling *s = &o.smp;
	int c, write_failed = 0;

	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.logfd = -1;
	r.of.fd = -1;
	o.out = DEFAULT_FILE;
	s->max_events = MAX_EVENTS;
	s->end_grace_ms = -1;
	s->cleanup = remove_output;
	s->cleanup_arg = &r;
	optind = 1;
	opterr = 0;
	join_cmdline(argc, argv, cmdline, sizeof(cmdline));
	while ((c = getopt_long(argc, argv, "+:e:F:c:go:fz" CLI_TARGET_OPTSTRING "b:vqhn", lopts, NULL)) != -1) {
		switch (c) {
		case 'e': cli_sampling_add_events(s, optarg); break;
		case 'F':
			/* perf's -F max: the kernel's highest sampling rate */
			s->hz = strcmp(optarg, "max") == 0 ? (uint64_t)cli_read_proc_long(
			    "/proc/sys/kernel/perf_event_max_sample_rate", DEFAULT_HZ) :
			    cli_parse_u64(optarg, "frequency");
			break;
		case 'c': s->period = cli_parse_u64(optarg, "period"); break;
		case 'g': s->callchain = 1; break;
		case OPT_CALL_GRAPH: cli_sampling_call_graph(&o.smp, optarg); break;
		case 'o': o.out = cli_file_arg("-o", optarg); break;
		case 'f': o.force = 1; break;
		case 'z': o.zstd = 1; break;
		case 'b':
			if (optarg[0] == '-')
				cli_usage_error("-b/--backend needs a backend name (linux or sim), not "
				    "'%s'; perf's -b (branch stack sampling) is not supported", optarg);
			o.backend = optarg;
			break;
		case 'n':
			cli_usage_error("-n: pmc record has no -n; perf's -n (--no-samples) only "
			    "counts: use 'pmc stat'");
		case 'v': o.verbose = 1; break;
		case 'q': o.quiet = s->quiet = 1; break;
		case OPT_SHOW_SETTINGS: o.show_settings = 1; break;
		case OPT_OFF_CPU: s->offcpu = 1; break;
		case 'h': usage(stdout); return CLI_EXIT_OK;
		default:
			if (!cli_target_option(&s->tgt, c, optarg))
				cli_bad_option(c, argv);
		}
	}
	if (s->callchain && optind < argc && optind > 1 && strcmp(argv[optind - 1], "-g") == 0 &&
	    (!strcmp(argv[optind], "fp") || !strcmp(argv[optind], "dwarf") ||
	    !strcmp(argv[optind], "lbr")))
		cli_usage_error("-g takes no argument (as perf's): '%s' would be run as the "
		    "command; the unwinding method is chosen with --call-graph %s", argv[optind],
		    argv[optind]);
	if (s->ustack)
		o.zstd = 1;   /* stack copies are large and alike: compressed ~100x */
	if (o.show_settings) {
		if (optind < argc || s->tgt.npids || s->tgt.system_wide)
			cli_usage_error("--show-settings takes no target");
		show_settings(stdout);
		return CLI_EXIT_OK;
	}
	cli_target_finish(&s->tgt, argc, argv, optind, "record");
	cli_sampling_finish(s, DEFAULT_HZ);
	cli_sampling_init(s, o.backend, !o.quiet);
	r.status_line = !o.quiet && isatty(STDERR_FILENO);

	/* Signals: recorded, then handled in the loop (never SA_RESTART, so a
	 * wait returns).  The command resets them at its exec. */
	cli_catch_stop_signals(on_signal);

	cli_sampling_alloc(s);
	/* hwpmc's minimum is a hardware counter's: software events and
	 * tracepoints sample every -c events as perf's do */
	for (int i = 0; s->period && !o.quiet && i < pmc_session_npmcs(s->sess); i++) {
		const char *spec;
		uint64_t p = cli_sampling_period(s, pmc_session_pmc(s->sess, i, &spec, NULL));
		if (p != s->period) {
			cli_warn("period %llu is below mincount (%ld) for the hardware "
			    "counter '%s'; sampling every %llu events",
			    (unsigned long long)s->period, setting("mincount"), spec,
			    (unsigned long long)p);
			break;
		}
	}
	open_output(&r);
	pmc_log_set_cmdline(cmdline);
	/* The writer thread starts here, taking no signals: ours always reach
	 * this thread (and interrupt its wait for the command). */
	if (pmc_configure_logfile_flags(r.logfd, o.zstd ? PMC_LOGF_ZSTD : 0) < 0)
		cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot write the log '%s': %s", r.shown,
		    pmc_errmsg());

	if (s->tgt.cmd && pmc_spawn(s->tgt.cmd, &s->child) < 0)
		cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot start '%s': %s", s->tgt.cmd[0],
		    pmc_errmsg());
	/* Only now (the command has been forked with default dispositions): a
	 * full disk or a closed pipe must be errors, not signals. */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);

	cli_sampling_start(s);
	if (o.verbose && !o.quiet)
		print_verbose(&r);

	uint64_t t0 = cli_target_now_ns(&s->tgt), next_status = t0;
	cli_sampling_go(s);

	/*
	 * Waiting for a command on Linux: a blocking wait, interrupted by our
	 * signals and by a SIGALRM tick (status line, -l, write errors), so
	 * the recorder does not wake up hundreds of times a second on the
	 * CPUs it measures.  The sim's time advances only inside the wait, in
	 * slices of TICK_MS simulated milliseconds.
	 */
	int blocking_wait = s->child > 0 && s->is_linux;
	if (blocking_wait) {
		struct sigaction al;
		memset(&al, 0, sizeof(al));
		al.sa_handler = on_alarm;
		sigaction(SIGALRM, &al, NULL);
		struct itimerval it = { { 0, TICK_MS * 1000 }, { 0, TICK_MS * 1000 } };
		setitimer(ITIMER_REAL, &it, NULL);
	}
	int forwarded = 0;
	for (;;) {
		struct pmc_log_stats st;
		uint64_t now = cli_target_now_ns(&s->tgt);

		if (r.status_line && now >= next_status) {
			status_line(&r, now - t0);
			next_status = now + STATUS_MS * 1000000ull;
		}
		if (pmc_log_stats(&st) == 0 && st.pl_error) {
			write_failed = st.pl_error;
			break;
		}
		if (s->tgt.duration > 0 && (double)(now - t0) >= s->tgt.duration * 1e9)
			break;
		if (got_signal) {
			if (s->child <= 0)
				break;
			/* Pass it on, once per signal received; the command's end
			 * ends the recording.  A third signal kills it. */
			if (forwarded < nsignals) {
				pmc_spawn_kill(s->child, nsignals >= 3 ? SIGKILL : got_signal);
				forwarded = nsignals;
			}
		}
		if (s->child > 0) {
			int rc = pmc_spawn_wait_timeout(s->child, &s->status,
			    blocking_wait ? -1 : TICK_MS);
			if (rc == 0) {
				s->child_done = 1;
				break;
			}
			if (errno != EAGAIN && errno != EINTR) {
				clear_status(&r);
				cli_warn("waiting for the command: %s", pmc_errmsg());
				break;
			}
		} else {
			struct timespec ts = { 0, TICK_MS * 1000000L };
			nanosleep(&ts, NULL);
			if (cli_target_gone(&s->tgt)) {
				clear_status(&r);
				if (!o.quiet)
					cli_target_say_gone(&s->tgt);
				break;
			}
		}
	}

	if (blocking_wait) {
		struct itimerval off;
		memset(&off, 0, sizeof(off));
		setitimer(ITIMER_REAL, &off, NULL);
	}

	/* Stop, drain everything, then CLOSELOG. */
	cli_sampling_stop(s);
	struct pmc_log_stats st;
	if (pmc_log_finish(&st) < 0 && !write_failed)
		write_failed = errno;
	clear_status(&r);

	uint64_t bytes = st.pl_bytes;        /* the log's size, a pipe's too */
	if (r.of.fd >= 0) {
		if (outfile__commit(&r.of) < 0 && !write_failed)
			write_failed = errno;
	} else if (close(r.logfd) < 0 && !write_failed) {
		write_failed = errno;
	}

	if (write_failed) {
		cli_warn("writing the log '%s' failed: %s; recording stopped (the %llu bytes "
		    "written are a readable log)", r.shown, strerror(write_failed),
		    (unsigned long long)bytes);
		/* As perf record: a recording that cannot be written ends the command. */
		cli_sampling_end_child(s, SIGTERM);
	} else if (!s->child_done && s->child > 0) {
		/* -l elapsed, or a signal we could not pass on: end the command. */
		cli_sampling_end_child(s, SIGTERM);
	}
	/* After a failed write the writer's count includes samples that never
	 * reached the file: say what the file holds. */
	if (write_failed && strcmp(o.out, "-"))
		st.pl_samples = samples_in_log(o.out, st.pl_samples);
	if (!o.quiet) {
		cli_warn("%llu samples, %llu lost, %llu bytes written to '%s'%s",
		    (unsigned long long)st.pl_samples, (unsigned long long)st.pl_lost,
		    (unsigned long long)bytes, r.shown,
		    st.pl_lost && !write_failed ?
		    " (samples were lost: raise nsamples or lower -F/-c)" : "");
	}

	int exit_status = s->child > 0 && s->child_done ?
	    cli_target_exit_status(s->status) : CLI_EXIT_OK;
	if (write_failed)
		exit_status = CLI_EXIT_FAIL;
	cli_sampling_free(s);
	pmc_fini();
	return exit_status;
}
