/*
 * stat_count.c — `pmc stat`'s counting: the aggregation units (per CPU,
 * core, socket, thread), the library's counting session (pmc_session_*:
 * each event's PMCs allocated per unit, grouped, attached, started, read),
 * and one run of the command or the duration with -I's intervals (see
 * stat.h).  cmd_stat.c parses the options, stat_print.c
 * prints.
 */
#include <dirent.h>
#include <linux/perf_event.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"
#include "common/grow.h"
#include "common/sysinfo.h"
#include "util/printable.h"
#include "stat.h"

static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }

void stat_catch_signals(void)
{
	/* The command gets Ctrl-C; we print what was counted when it ends. */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int stat_interrupted(void)
{
	return got_signal != 0;
}

/* ---- aggregation units ------------------------------------------------------- */

static int add_unit(struct stat_opts *o, const char *label, int cpu)
{
	for (int u = 0; u < o->nunits; u++)
		if (!strcmp(o->units[u].label, label)) {
			o->units[u].ncpus++;
			return u;
		}
	if (GROW(o->units, o->nunits, o->capunits) < 0)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	struct stat_unit *n = o->units;
	memset(&n[o->nunits], 0, sizeof(n[0]));
	snprintf(n[o->nunits].label, sizeof(n[0].label), "%s", label);
	n[o->nunits].ncpus = 1;
	n[o->nunits].cpu = o->aggr == AGGR_CPU ? cpu : -1;
	return o->nunits++;
}

/* The unit each CPU's counts go to (-A, --per-core, --per-socket). */
void stat_cpu_units(struct stat_opts *o)
{
	int ncpu = pmc_ncpu();

	o->cpu_unit = calloc((size_t)(ncpu > 0 ? ncpu : 1), sizeof(int));
	if (!o->cpu_unit)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	for (int cpu = 0; cpu < ncpu && o->aggr != AGGR_GLOBAL; cpu++) {
		char label[64];
		int s = 0, d = 0, c = 0;
		if (!cli_target_has_cpu(&o->tgt, cpu))
			continue;
		pmc__sys_cpu_topology(cpu, &s, &d, &c);
		if (o->aggr == AGGR_CPU)
			snprintf(label, sizeof(label), "CPU%d", cpu);
		else if (o->aggr == AGGR_CORE)
			snprintf(label, sizeof(label), "S%d-D%d-C%d", s, d, c);
		else
			snprintf(label, sizeof(label), "S%d", s);
		o->cpu_unit[cpu] = add_unit(o, label, cpu);
	}
}

/* --per-thread: the threads of -p PIDs (as they are now) or the -t TIDs. */
static void thread_units(struct stat_opts *o, pid_t **tids, int *ntids)
{
	int cap = 0;
	*tids = NULL;
	*ntids = 0;
	for (int i = 0; i < o->tgt.npids; i++) {
		char path[64];
		struct dirent *d;
		DIR *dir = NULL;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)o->tgt.pids[i]);
		if (!o->tgt.threads)
			dir = opendir(path);
		if (!dir && !o->tgt.threads)
			cli_die(CLI_EXIT_FAIL, "cannot list the threads of process %d: %s",
			    (int)o->tgt.pids[i], strerror(errno));
		for (;;) {
			pid_t tid = o->tgt.pids[i];
			if (dir) {
				if (!(d = readdir(dir)))
					break;
				if (d->d_name[0] == '.')
					continue;
				tid = (pid_t)atoi(d->d_name);
			}
			if (GROW(*tids, *ntids, cap) < 0)
				cli_die(CLI_EXIT_FAIL, "out of memory");
			(*tids)[(*ntids)++] = tid;
			char comm[32] = "?", shown[4 * sizeof(comm)], label[sizeof(shown) + 16];
			snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
			FILE *f = fopen(path, "r");
			if (f) {
				/* the whole name: a newline in it is part of it */
				size_t got = fread(comm, 1, sizeof(comm) - 1, f);
				comm[got] = '\0';
				if (got && comm[got - 1] == '\n')
					comm[got - 1] = '\0';
				fclose(f);
			}
			snprintf(label, sizeof(label), "%s-%d",
			    printable__str(comm, shown, sizeof(shown)), (int)tid);
			add_unit(o, label, -1);
			if (!dir)
				break;
		}
		if (dir)
			closedir(dir);
	}
}

/* ---- PMCs: the library's counting session ------------------------------------ */

/* The session of one run: counting PMCs per CPU (-a), per thread
 * (--per-thread), or one per event following the targets. */
static struct pmc_session *new_session(const struct stat_opts *o, int ntids)
{
	const struct pmc_session_opts so = {
		.ps_count = 1, .ps_system_wide = o->tgt.system_wide,
		.ps_cpus = o->tgt.cpu_list ? o->tgt.cpus : NULL, .ps_ncpus = CLI_MAX_CPUS,
		.ps_threads = o->tgt.threads || o->aggr == AGGR_THREAD,
		.ps_no_inherit = o->no_inherit || o->aggr == AGGR_THREAD,
		.ps_flags = o->per_process ? PMC_F_LOG_PROCEXIT : 0,
		.ps_per_target = o->aggr == AGGR_THREAD ? ntids : 0,
	};
	struct pmc_session *s = pmc_session_new(&so);

	if (!s)
		cli_die(CLI_EXIT_FAIL, "cannot start a counting session: %s", strerror(errno));
	return s;
}

static void kill_child(pid_t child)
{
	int status;

	if (child > 0) {
		pmc_spawn_kill(child, SIGKILL);
		pmc_spawn_wait(child, &status);
	}
}

/* e's PMCs as the session allocated them, each with its aggregation unit. */
static void take_pmcs(struct stat_opts *o, struct stat_ev *e)
{
	e->sev = pmc_session_nevents(o->sess) - 1;
	e->nids = pmc_session_event(o->sess, e->sev, &e->first);
	e->ids = calloc((size_t)e->nids, sizeof(*e->ids));
	e->id_unit = calloc((size_t)e->nids, sizeof(*e->id_unit));
	if (!e->ids || !e->id_unit)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	for (int k = 0; k < e->nids; k++) {
		int cpu;
		e->ids[k] = pmc_session_pmc(o->sess, e->first + k, NULL, &cpu);
		e->id_unit[k] = cpu >= 0 ? o->cpu_unit[cpu] : o->aggr == AGGR_THREAD ? k : 0;
	}
}

/* Add one event; a machine that cannot count it gives "<not supported>",
 * anything else (bad name, no permission) is fatal.  As perf stat: an event
 * that parses but that the kernel (or the simulated PMU) refuses to open,
 * EINVAL, ENOENT or EOPNOTSUPP, is not supported here; the rest is counted. */
static void setup_event(struct stat_opts *o, struct stat_ev *e, pid_t child)
{
	const char *u;

	e->supported = 1;
	e->sev = -1;
	if (pmc_session_add(o->sess, e->spec, 0) < 0) {
		int err = errno;
		enum pmc_errcause cause = pmc_errcause();
		char why[512];
		/* the reason first: ending the child starts a new one */
		snprintf(why, sizeof(why), "%s", pmc_errmsg());
		/* every CPU offline: the session skips them (-C names none) */
		int no_cpu = err == ENXIO && o->tgt.system_wide && !o->tgt.cpu_list;
		struct perf_event_attr attr;
		int refused = cause != PMC_CAUSE_NOMEM && (err == EINVAL || err == ENOENT ||
		    err == EOPNOTSUPP) && pmc_event_attr(e->spec, &attr) == 0;
		if (no_cpu || refused) {
			e->supported = 0;
			snprintf(e->why, sizeof(e->why), "%s",
			    no_cpu ? "no CPU of the list is online" : why);
			snprintf(e->name, sizeof(e->name), "%s", e->spec);
			return;
		}
		kill_child(child);
		cli_die(err == ENOENT || err == EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL,
		    "cannot count '%s': %s", e->spec, why);
	}
	take_pmcs(o, e);
	const char *name = pmc_event_name(e->ids[0]);
	snprintf(e->name, sizeof(e->name), "%s", name ? name : e->spec);
	if (pmc_event_unit(e->ids[0], &e->scale, &u) == 0)
		snprintf(e->unit, sizeof(e->unit), "%s", u);
	pmc_event_kind(e->ids[0], &e->kind);
	e->rk = calloc((size_t)e->nids + 1, sizeof(*e->rk));
	e->prev_rk = calloc((size_t)e->nids + 1, sizeof(*e->prev_rk));
	e->base_rk = calloc((size_t)e->nids + 1, sizeof(*e->base_rk));
	if (!e->rk || !e->prev_rk || !e->base_rk)
		cli_die(CLI_EXIT_FAIL, "out of memory");
}

void stat_release(struct stat_opts *o)
{
	for (int i = 0; i < o->nev; i++) {
		struct stat_ev *e = &o->ev[i];
		free(e->ids);
		free(e->id_unit);
		free(e->rk);
		free(e->prev_rk);
		free(e->base_rk);
		e->ids = NULL;
		e->id_unit = NULL;
		e->rk = e->prev_rk = e->base_rk = NULL;
		e->nids = 0;
		e->sev = -1;
	}
	pmc_session_free(o->sess);
	o->sess = NULL;
}

static void fail_with_child(pid_t child, const char *fmt, const char *a, int b)
{
	char why[512];
	snprintf(why, sizeof(why), "%s", pmc_errmsg());
	kill_child(child);
	cli_die(CLI_EXIT_FAIL, fmt, a, b, why);
}

/* Groups, then attach (process mode): members join before the first attach. */
static void group_and_attach(struct stat_opts *o, pid_t child, const pid_t *tids, int ntids)
{
	pid_t failed;

	for (int i = 0; i < o->nev; i++) {
		struct stat_ev *e = &o->ev[i];
		if (e->leader < 0 || e->sev < 0 || o->ev[e->leader].sev < 0)
			continue;
		if (pmc_session_group(o->sess, o->ev[e->leader].sev, e->sev) < 0)
			fail_with_child(child, "cannot group '%s' (event %d): %s", e->spec, i + 1);
	}
	if (o->tgt.system_wide)
		return;
	if (pmc_session_attach(o->sess, o->aggr == AGGR_THREAD ? tids : o->tgt.cmd ? &child :
	    o->tgt.pids, o->aggr == AGGR_THREAD ? ntids : o->tgt.cmd ? 1 : o->tgt.npids,
	    &failed) < 0)
		fail_with_child(child, "cannot attach to %s %d: %s",
		    o->tgt.threads || o->aggr == AGGR_THREAD ? "thread" : "process", (int)failed);
}

static void read_all(struct stat_opts *o)
{
	for (int i = 0; i < o->nev; i++) {
		struct stat_ev *e = &o->ev[i];
		for (int k = 0; k < e->nids; k++)
			if (pmc_session_read(o->sess, e->first + k, &e->rk[k]) < 0)
				memset(&e->rk[k], 0, sizeof(e->rk[k]));
	}
}

/* ---- running --------------------------------------------------------------- */

/* Wait up to ms for the command (or just sleep without one): 1 if it ended. */
static int wait_child(pid_t child, int *status, int ms)
{
	if (child <= 0) {
		struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
		return 0;
	}
	if (pmc_spawn_wait_timeout(child, status, ms) == 0)
		return 1;
	if (errno != EAGAIN && errno != EINTR)
		cli_die(CLI_EXIT_FAIL, "waiting for the command: %s", pmc_errmsg());
	return 0;
}

/* Until the command ends (or -l, Ctrl-C, the targets vanish); -I prints,
 * and *printed is when the last interval it printed ended. */
static int count_loop(struct stat_opts *o, pid_t child, uint64_t t0, int *status,
    uint64_t *printed)
{
	uint64_t tnext = t0 + (uint64_t)o->interval_ms * 1000000ull;

	for (;;) {
		int wait_ms = child > 0 ? 100 : 10;
		if (o->interval_ms) {
			uint64_t now = cli_target_now_ns(&o->tgt);
			/* rounded up: a wait of 0 ms would not advance the sim's
			 * clock, and the interval would never come */
			wait_ms = now >= tnext ? 0 : (int)((tnext - now + 999999ull) / 1000000ull);
			if (child <= 0 && wait_ms > 10)
				wait_ms = 10;
		}
		if (child > 0) {
			if (wait_child(child, status, wait_ms))
				return 1;
			if (got_signal && strcmp(pmc_backend_name(), "linux")) {
				/* A simulated command gets no signal: stop counting it. */
				*status = (128 + got_signal) << 8;
				return 1;
			}
		} else {
			/* -p/-t/-a: until the duration ends, Ctrl-C, or targets vanish. */
			if (got_signal)
				return 0;
			if (o->tgt.duration > 0 && (double)(cli_target_now_ns(&o->tgt) - t0) >= o->tgt.duration * 1e9)
				return 0;
			wait_child(-1, status, wait_ms);
			if (cli_target_gone(&o->tgt)) {
				cli_target_say_gone(&o->tgt);
				return 0;
			}
		}
		if (o->interval_ms && cli_target_now_ns(&o->tgt) >= tnext) {
			read_all(o);
			*printed = cli_target_now_ns(&o->tgt) - t0;
			stat_print_interval(o, (double)*printed, (double)o->interval_ms * 1e6);
			tnext += (uint64_t)o->interval_ms * 1000000ull;
		}
	}
}

void stat_run_once(struct stat_opts *o, int run, struct stat_run_result *res)
{
	pid_t child = -1, *tids = NULL;
	int status = 0, ntids = 0, done = 0;
	const char *failed;

	if (o->aggr == AGGR_THREAD)
		thread_units(o, &tids, &ntids);

	if (o->tgt.cmd && pmc_spawn(o->tgt.cmd, &child) < 0)
		cli_die(CLI_EXIT_FAIL, "cannot start '%s': %s", o->tgt.cmd[0], pmc_errmsg());
	o->child = child;
	res->logfd = -1;
	if (o->per_process) {
		char tmpl[] = "/tmp/pmc-stat-XXXXXX";
		res->logfd = mkstemp(tmpl);
		if (res->logfd < 0)
			cli_die(CLI_EXIT_FAIL, "cannot create a temporary log: %s", strerror(errno));
		unlink(tmpl);
		if (pmc_configure_logfile(res->logfd) < 0)
			cli_die(CLI_EXIT_FAIL, "cannot configure the log: %s", pmc_errmsg());
	}
	/* Each run counts from zero: its own session (an event the machine
	 * cannot count is not tried again). */
	o->sess = new_session(o, ntids);
	for (int i = 0; i < o->nev; i++)
		if (run == 0 || o->ev[i].supported)
			setup_event(o, &o->ev[i], child);
	group_and_attach(o, child, tids, ntids);
	free(tids);
	if (pmc_session_start(o->sess, &failed) < 0)
		cli_die(CLI_EXIT_FAIL, "cannot start counting '%s': %s", failed, pmc_errmsg());

	uint64_t t0 = cli_target_now_ns(&o->tgt);
	if (child > 0 && pmc_spawn_go(child) < 0)
		cli_die(CLI_EXIT_FAIL, "cannot run '%s': %s", o->tgt.cmd[0], pmc_errmsg());
	if (o->delay_ms) {
		/* --delay: what is counted before the delay ends is not shown (a
		 * command's counters start at its exec and cannot wait longer) */
		done = wait_child(child, &status, o->delay_ms);
		read_all(o);
		for (int i = 0; i < o->nev; i++)
			for (int k = 0; k < o->ev[i].nids; k++)
				o->ev[i].base_rk[k] = o->ev[i].prev_rk[k] = o->ev[i].rk[k];
		t0 = cli_target_now_ns(&o->tgt);
	}
	uint64_t printed = 0;
	if (!done)
		count_loop(o, child, t0, &status, &printed);
	res->elapsed_ns = (double)(cli_target_now_ns(&o->tgt) - t0);
	pmc_session_stop(o->sess);
	read_all(o);
	/* The last, partial interval (perf prints it too), stamped with its end. */
	if (o->interval_ms && res->elapsed_ns > (double)printed)
		stat_print_interval(o, res->elapsed_ns, res->elapsed_ns - (double)printed);
	for (int i = 0; i < o->nev; i++) {
		struct stat_ev *e = &o->ev[i];
		struct pmc_reading tot;
		if (GROW(e->runs, e->nruns, e->capruns) < 0)
			cli_die(CLI_EXIT_FAIL, "out of memory");
		stat_sum(e, -1, 0, &tot);
		e->runs[e->nruns++] = stat_value(e, &tot);
	}
	if (child > 0)
		res->exit_status = cli_target_exit_status(status);
	if (o->per_process && pmc_close_logfile() < 0)
		cli_warn("the per-process log: %s", pmc_errmsg());
}
