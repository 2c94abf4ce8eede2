/*
 * sampling.c — the sampling session of `pmc record` and `pmc top` (see
 * sampling.h): described once from their options and set up through the
 * library's pmc_session, so that the two commands sample the same events
 * the same way and say the same when it fails.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "toolslib/evlist.h"
#include "toolslib/tunables.h"
#include "sampling.h"

void cli_sampling_fail(struct cli_sampling *s, int code, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->cleanup)
		s->cleanup(s->cleanup_arg);
	cli_sampling_end_child(s, SIGKILL);
	cli_die(code, "%s", msg);
}

uint64_t cli_parse_u64(const char *s, const char *what)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || end == s || v == 0 || s[0] == '-')
		cli_usage_error("'%s' is not a valid %s (a positive integer)", s, what);
	return (uint64_t)v;
}

/* perf's --call-graph fp | dwarf[,SIZE] | lbr (SIZE rounded up to 8, as
 * perf's get_stack_size does, then at most 65528). */
void cli_sampling_call_graph(struct cli_sampling *s, const char *arg)
{
	if (strcmp(arg, "fp") == 0) {
		s->callchain = 1;
		s->ustack = 0;
		return;
	}
	if (strncmp(arg, "dwarf", 5) == 0 && (arg[5] == '\0' || arg[5] == ',')) {
		unsigned long long size = PMC_USER_STACK_DEFAULT;
		if (arg[5] == ',') {
			char *end;
			errno = 0;
			size = strtoull(arg + 6, &end, 0);
			if (errno || end == arg + 6 || *end || arg[6] == '-')
				cli_usage_error("--call-graph dwarf,SIZE: '%s' is not a size in bytes",
				    arg + 6);
			size = (size + 7) / 8 * 8;
			if (size == 0 || size > PMC_USER_STACK_MAX)
				cli_usage_error("--call-graph dwarf,SIZE: the stack dump size must be "
				    "1-%d bytes, not '%s'", PMC_USER_STACK_MAX, arg + 6);
		}
		s->callchain = 1;
		s->ustack = (uint32_t)size;
		return;
	}
	if (strcmp(arg, "lbr") == 0) {
		cli_die(CLI_EXIT_FAIL, "--call-graph lbr: not supported on this machine (LBR call "
		    "stacks need an Intel CPU's hardware PMU, and pmc does not program them); use "
		    "--call-graph dwarf or fp");
	}
	cli_usage_error("--call-graph: unknown mode '%s' (fp, dwarf[,SIZE] or lbr)", arg);
}

void cli_sampling_add_events(struct cli_sampling *s, const char *list)
{
	int max = s->max_events > 0 && s->max_events < CLI_SAMPLING_MAX_EVENTS ?
	    s->max_events : CLI_SAMPLING_MAX_EVENTS;
	char **specs;
	int n;

	if (evlist__split(list, &specs, &n) < 0)
		cli_usage_error("bad event list '%s': %s", list, pmc_errmsg());
	for (int i = 0; i < n; i++) {
		if (s->nev >= max)
			cli_usage_error("too many events (at most %d)", max);
		s->spec[s->nev++] = strdup(specs[i]);
	}
	evlist__free(specs, n);
}

void cli_sampling_finish(struct cli_sampling *s, uint64_t default_hz)
{
	if (s->hz && s->period)
		cli_usage_error("give -F (samples per second) or -c (a period), not both");
	if (s->nev == 0 && s->offcpu) {
		/* on-CPU time in the unit of off-CPU time, so that the two add
		 * up to wall-clock time (pmc report --wall) */
		cli_sampling_add_events(s, "cpu-clock");
	} else if (s->nev == 0) {
		cli_sampling_add_events(s, "cycles");
		s->default_event = 1;
	}
	if (!s->hz && !s->period) {
		s->hz = default_hz;
		s->tp_period = 1;         /* perf samples every tracepoint hit */
	}
}

uint64_t cli_sampling_period(const struct cli_sampling *s, pmc_id_t id)
{
	enum pmc_class c = PMC_ID_TO_CLASS(id);
	long minc = 0;

	if (s->tp_period && c == PMC_CLASS_TRACEPOINT)
		return s->tp_period;
	if (s->hz || c == PMC_CLASS_TRACEPOINT || c == PMC_CLASS_SOFT)
		return s->hz ? 0 : s->period;
	tunable__get("mincount", &minc);
	return s->period < (uint64_t)minc ? (uint64_t)minc : s->period;
}

void cli_sampling_init(struct cli_sampling *s, const char *backend, int warn)
{
	if (backend && pmc_backend_select(backend) < 0)
		cli_usage_error("%s", pmc_errmsg());
	if (pmc_init() < 0)
		cli_die(CLI_EXIT_FAIL, "cannot initialise libpmc: %s", pmc_errmsg());
	s->is_linux = !strcmp(pmc_backend_name(), "linux");
	if (!s->is_linux || !s->hz)
		return;
	long max = cli_read_proc_long("/proc/sys/kernel/perf_event_max_sample_rate", 0);

	if (max > 0 && s->hz > (uint64_t)max) {
		if (warn)
			cli_warn("-F %llu is above kernel.perf_event_max_sample_rate; "
			    "sampling at %ld Hz", (unsigned long long)s->hz, max);
		s->hz = (uint64_t)max;
	}
}

/* The library narrowed an unmodified event to user space
 * (perf_event_paranoid): say so, as the log's name does. */
static void say_narrowed(const struct cli_sampling *s, const char *spec)
{
	const char *got = pmc_event_name(pmc_session_pmc(s->sess,
	    pmc_session_npmcs(s->sess) - 1, NULL, NULL));
	size_t sl = strlen(spec);
	if (!s->quiet && got && strncmp(got, spec, sl) == 0 &&
	    (!strcmp(got + sl, ":u") || !strcmp(got + sl, "u")))
		cli_warn("sampling '%s' as '%s': kernel.perf_event_paranoid allows "
		    "only user space without root or CAP_PERFMON", spec, got);
}

void cli_sampling_alloc(struct cli_sampling *s)
{
	const struct pmc_session_opts so = {
		.ps_hz = s->hz, .ps_period = s->period, .ps_tp_period = s->tp_period,
		.ps_callchain = s->callchain,
		.ps_ustack = s->ustack, .ps_system_wide = s->tgt.system_wide,
		.ps_cpus = s->tgt.cpu_list ? s->tgt.cpus : NULL, .ps_ncpus = CLI_MAX_CPUS,
		.ps_threads = s->tgt.threads,
	};

	if (!(s->sess = pmc_session_new(&so)))
		cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot start a sampling session: %s",
		    strerror(errno));
	for (int i = 0; i < s->nev; i++) {
		if (pmc_session_add(s->sess, s->spec[i], 0) == 0) {
			say_narrowed(s, s->spec[i]);
			continue;
		}
		int err = errno;
		if (s->default_event && i == 0 && pmc_errcause() == PMC_CAUSE_NO_PMU) {
			/* The default event on a machine without a PMU. */
			if (!s->quiet)
				cli_warn("no hardware PMU on this machine: sampling cpu-clock "
				    "instead of cycles");
			free(s->spec[0]);
			s->spec[0] = strdup("cpu-clock");
			if (pmc_session_add(s->sess, s->spec[0], 0) == 0)
				continue;
			err = errno;
		}
		cli_sampling_fail(s, err == ENOENT || err == EINVAL || err == EOPNOTSUPP ?
		    CLI_EXIT_USAGE : CLI_EXIT_FAIL, "cannot sample '%s': %s%s", s->spec[i], pmc_errmsg(),
		    s->eacces_hint && s->tgt.system_wide && (err == EACCES || err == EPERM) ?
		    s->eacces_hint : "");
	}
	if (s->offcpu && pmc_session_add(s->sess, "context-switches", 1) < 0)
		cli_sampling_fail(s, errno == EINVAL || errno == EOPNOTSUPP ? CLI_EXIT_USAGE :
		    CLI_EXIT_FAIL, "cannot record off-CPU time (context-switches with switch "
		    "records): %s", pmc_errmsg());
}

void cli_sampling_start(struct cli_sampling *s)
{
	const struct cli_target *g = &s->tgt;
	const char *spec;
	pid_t failed;

	if (!g->system_wide &&
	    pmc_session_attach(s->sess, g->cmd ? &s->child : g->pids, g->cmd ? 1 : g->npids,
	    &failed) < 0)
		cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot attach to %s %d: %s",
		    g->threads ? "thread" : "process", (int)failed, pmc_errmsg());
	if (pmc_session_start(s->sess, &spec) < 0)
		cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot start sampling '%s': %s", spec,
		    pmc_errmsg());
}

void cli_sampling_go(struct cli_sampling *s)
{
	if (s->child > 0 && pmc_spawn_go(s->child) < 0)
		cli_sampling_fail(s, CLI_EXIT_FAIL, "cannot run '%s': %s", s->tgt.cmd[0],
		    pmc_errmsg());
}

void cli_sampling_stop(struct cli_sampling *s)
{
	pmc_session_stop(s->sess);
}

void cli_sampling_end_child(struct cli_sampling *s, int sig)
{
	if (s->child <= 0 || s->child_done)
		return;
	pmc_spawn_kill(s->child, sig);
	if (s->end_grace_ms >= 0) {
		if (pmc_spawn_wait_timeout(s->child, &s->status, s->end_grace_ms) == 0) {
			s->child_done = 1;
			return;
		}
		pmc_spawn_kill(s->child, SIGKILL);
	}
	if (pmc_spawn_wait(s->child, &s->status) == 0)
		s->child_done = 1;
}

void cli_sampling_free(struct cli_sampling *s)
{
	for (int i = 0; i < s->nev; i++)
		free(s->spec[i]);
	s->nev = 0;
	pmc_session_free(s->sess);
	s->sess = NULL;
	cli_target_free(&s->tgt);
}
