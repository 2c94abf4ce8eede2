/*
 * cmd_stat.c — `pmc stat`: count events for a command, processes, threads
 * or CPUs (perf stat; pmcstat -p/-s).  Everything is done through the
 * public libpmc API: this file decides what to count and runs it;
 * stat_print.c prints.  Counts go to stderr as perf's do (or to -o FILE),
 * so the command's own stdout stays its own.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmc.h"
#include "cli.h"
#include "stat.h"

static volatile sig_atomic_t got_signal;
static void on_signal(int sig) { got_signal = sig; }

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
};

/* -d, -d -d, -d -d -d: perf's detailed events, level by level. */
static const char *const detailed_events[3] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,"
	    "iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: pmc stat [-e EVENT[,EVENT...]]... [options] -- COMMAND [ARGS...]\n"
"       pmc stat [-e EVENTS] -p PID[,PID...] | -t TID[,TID...] | -a [-C CPUS] [-l SECONDS]\n"
"\n"
"Count events for a command (and its children), existing processes or threads,\n"
"or whole CPUs.  Without -e: task-clock, context-switches, cpu-migrations,\n"
"page-faults, cycles, instructions, branches, branch-misses.  The counts go to\n"
"standard error (as perf's), or to -o FILE.\n"
"\n"
"  -e, --event=LIST      events to count (see 'pmc list'); repeatable; '{a,b}' is\n"
"                        a group (counted together); 'sys:*' every matching tracepoint\n"
"  -d, --detailed        add cache events (-d -d: TLB and L1i too, -d -d -d: prefetch)\n"
"  -p, --pid=PIDS        count existing processes (all their threads)\n"
"  -t, --tid=TIDS        count existing threads\n"
"  -a, --all-cpus        count every CPU (system-wide; needs privilege); with a\n"
"                        command: for as long as it runs\n"
"  -C, --cpu=LIST        count only these CPUs (e.g. 0-3,6); implies -a\n"
"  -l, --duration=SECS   stop after SECS seconds (-p, -t, -a; default: Ctrl-C)\n"
"  -A, --no-aggr         one row per CPU (-a)\n"
"      --per-core        one row per core (-a)\n"
"      --per-socket      one row per socket (-a)\n"
"      --per-thread      one row per thread (-p, -t)\n"
"  -D, --delay=MSEC      start counting MSEC milliseconds after the command starts\n"
"  -I, --interval=MS     print counts every MS milliseconds (and the last part)\n"
"  -r, --repeat=N        run the command N times; print mean and relative stddev\n"
"  -x, --field-separator=SEP  CSV output: [time,][unit,[cpus,]]value,unit,event,\n"
"                        [stddev-%%,]running-ns,running-%%,metric,metric-unit\n"
"  -j, --json            JSON output (one object; one per line with -I)\n"
"  -P, --per-process     one row per process of the command's tree, at its exit\n"
"      --no-inherit      do not count the command's children\n"
"  -b, --backend=NAME    linux (default) or sim (simulated ARMv8 PMU)\n"
"  -o, --output=FILE     write the counts to FILE instead of stderr ('-': stdout)\n"
"  -h, --help            this help\n"
"\n"
"The exit status is the command's own (128+N if a signal N ended it), or 1 if\n"
"counting failed, 2 for a usage error.\n");
}

/* ---- events ----------------------------------------------------------------- */

static void add_one(struct stat_opts *o, const char *spec, int leader)
{
	if (o->nev >= STAT_MAX_EVENTS)
		cli_usage_error("too many events (at most %d)", STAT_MAX_EVENTS);
	o->ev[o->nev].spec = strdup(spec);
	o->ev[o->nev].leader = leader;
	if (!o->ev[o->nev].spec)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	o->nev++;
}

/* "{a,b}" or "{a,b}:u": the members, each with the group's modifiers. */
static void add_group(struct stat_opts *o, const char *group)
{
	char inner[512], mods[32] = "";
	const char *close = strrchr(group, '}');
	char **specs;
	int n;

	if (!close || close == group + 1 || (close[1] && close[1] != ':'))
		cli_usage_error("bad event group '%s' (want {EVENT,EVENT...}[:MODIFIERS])", group);
	snprintf(inner, sizeof(inner), "%.*s", (int)(close - group - 1), group + 1);
	if (close[1])
		snprintf(mods, sizeof(mods), "%s", close + 2);
	if (pmc_event_split(inner, &specs, &n) < 0)
		cli_usage_error("bad event group '%s': %s", group, pmc_errmsg());
	int leader = o->nev;
	for (int i = 0; i < n; i++) {
		char spec[600];
		if (specs[i][0] == '{')
			cli_usage_error("event groups cannot be nested ('%s')", group);
		snprintf(spec, sizeof(spec), "%s%s%s", specs[i],
		    !mods[0] ? "" : strchr(specs[i], ':') ? "" : ":", mods);
		add_one(o, spec, i ? leader : -1);
	}
	pmc_event_split_free(specs, n);
}

static void add_events(struct stat_opts *o, const char *list)
{
	char **specs;
	int n;

	if (pmc_event_split(list, &specs, &n) < 0)
		cli_usage_error("bad event list '%s': %s", list, pmc_errmsg());
	for (int i = 0; i < n; i++)
		if (specs[i][0] == '{')
			add_group(o, specs[i]);
		else
			add_one(o, specs[i], -1);
	pmc_event_split_free(specs, n);
}

/* ---- aggregation units ------------------------------------------------------- */

static int add_unit(struct stat_opts *o, const char *label, int cpu)
{
	for (int u = 0; u < o->nunits; u++)
		if (!strcmp(o->units[u].label, label)) {
			o->units[u].ncpus++;
			return u;
		}
	struct stat_unit *n = realloc(o->units, (size_t)(o->nunits + 1) * sizeof(*n));
	if (!n)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	o->units = n;
	memset(&n[o->nunits], 0, sizeof(n[0]));
	snprintf(n[o->nunits].label, sizeof(n[0].label), "%s", label);
	n[o->nunits].ncpus = 1;
	n[o->nunits].cpu = o->aggr == AGGR_CPU ? cpu : -1;
	return o->nunits++;
}

/* The unit each CPU's counts go to (-A, --per-core, --per-socket). */
static void cpu_units(struct stat_opts *o)
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
		pmc_cpu_topology(cpu, &s, &d, &c);
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
			pid_t *n = realloc(*tids, (size_t)(*ntids + 1) * sizeof(pid_t));
			if (!n)
				cli_die(CLI_EXIT_FAIL, "out of memory");
			*tids = n;
			n[(*ntids)++] = tid;
			char comm[32] = "?", label[64];
			snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
			FILE *f = fopen(path, "r");
			if (f) {
				if (fgets(comm, sizeof(comm), f))
					comm[strcspn(comm, "\n")] = '\0';
				fclose(f);
			}
			snprintf(label, sizeof(label), "%s-%d", comm, (int)tid);
			add_unit(o, label, -1);
			if (!dir)
				break;
		}
		if (dir)
			closedir(dir);
	}
}

/* ---- PMCs ----------------------------------------------------------------------- */

static void push_id(struct stat_ev *e, pmc_id_t id, int unit)
{
	pmc_id_t *ni = realloc(e->ids, (size_t)(e->nids + 1) * sizeof(*ni));
	int *nu = ni ? realloc(e->id_unit, (size_t)(e->nids + 1) * sizeof(*nu)) : NULL;
	if (!ni || !nu)
		cli_die(CLI_EXIT_FAIL, "out of memory");
	e->ids = ni;
	e->id_unit = nu;
	e->ids[e->nids] = id;
	e->id_unit[e->nids++] = unit;
}

/* Allocate the PMCs of one event: per CPU (-a), per thread, or one. */
static int alloc_event(struct stat_opts *o, struct stat_ev *e, uint32_t flags,
    const pid_t *tids, int ntids)
{
	pmc_id_t id;

	if (o->tgt.system_wide) {
		int ncpu = pmc_ncpu();
		for (int c = 0; c < ncpu; c++) {
			if (!cli_target_has_cpu(&o->tgt, c))
				continue;
			if (pmc_allocate(e->spec, PMC_MODE_SC, 0, c, &id, 0) < 0) {
				if (errno == ENXIO && !o->tgt.cpu_list)
					continue;        /* an offline CPU */
				return -1;
			}
			push_id(e, id, o->cpu_unit[c]);
		}
		return 0;
	}
	if (o->aggr == AGGR_THREAD) {
		for (int t = 0; t < ntids; t++) {
			if (pmc_allocate(e->spec, PMC_MODE_TC, 0, PMC_CPU_ANY, &id, 0) < 0)
				return -1;
			push_id(e, id, t);
		}
		return 0;
	}
	if (pmc_allocate(e->spec, PMC_MODE_TC, flags, PMC_CPU_ANY, &id, 0) < 0)
		return -1;
	push_id(e, id, 0);
	return 0;
}

/* Allocate one event; a machine that cannot count it gives "<not supported>",
 * anything else (bad name, no permission) is fatal. */
static void setup_event(struct stat_opts *o, struct stat_ev *e, uint32_t flags,
    const pid_t *tids, int ntids, pid_t child)
{
	const char *u;

	e->supported = 1;
	if (alloc_event(o, e, flags, tids, ntids) < 0) {
		int err = errno;
		enum pmc_errcause cause = pmc_errcause();
		char why[512];
		/* the reason first: ending the child starts a new one */
		snprintf(why, sizeof(why), "%s", pmc_errmsg());
		for (int k = 0; k < e->nids; k++)
			pmc_release(e->ids[k]);
		e->nids = 0;
		if (err == EOPNOTSUPP || (err == EINVAL && (cause == PMC_CAUSE_NO_PMU ||
		    cause == PMC_CAUSE_UNSUPPORTED))) {
			e->supported = 0;
			snprintf(e->why, sizeof(e->why), "%s", why);
			snprintf(e->name, sizeof(e->name), "%s", e->spec);
			return;
		}
		if (child > 0) {
			int status;
			pmc_spawn_kill(child, SIGKILL);
			pmc_spawn_wait(child, &status);
		}
		cli_die(err == ENOENT || err == EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL,
		    "cannot count '%s': %s", e->spec, why);
	}
	if (e->nids == 0) {
		e->supported = 0;
		snprintf(e->why, sizeof(e->why), "no CPU of the list is online");
	}
	const char *name = e->nids ? pmc_event_name(e->ids[0]) : NULL;
	snprintf(e->name, sizeof(e->name), "%s", name ? name : e->spec);
	if (e->nids && pmc_event_unit(e->ids[0], &e->scale, &u) == 0)
		snprintf(e->unit, sizeof(e->unit), "%s", u);
	if (e->nids)
		pmc_event_kind(e->ids[0], &e->kind);
	e->rk = calloc((size_t)e->nids + 1, sizeof(*e->rk));
	e->prev_rk = calloc((size_t)e->nids + 1, sizeof(*e->prev_rk));
	e->base_rk = calloc((size_t)e->nids + 1, sizeof(*e->base_rk));
	if (!e->rk || !e->prev_rk || !e->base_rk)
		cli_die(CLI_EXIT_FAIL, "out of memory");
}

static void release_event(struct stat_ev *e)
{
	for (int k = 0; k < e->nids; k++)
		pmc_release(e->ids[k]);
	free(e->ids);
	free(e->id_unit);
	free(e->rk);
	free(e->prev_rk);
	free(e->base_rk);
	e->ids = NULL;
	e->id_unit = NULL;
	e->rk = e->prev_rk = e->base_rk = NULL;
	e->nids = 0;
}

static void fail_with_child(pid_t child, const char *fmt, const char *a, int b)
{
	char why[512];
	snprintf(why, sizeof(why), "%s", pmc_errmsg());
	if (child > 0) {
		int status;
		pmc_spawn_kill(child, SIGKILL);
		pmc_spawn_wait(child, &status);
	}
	cli_die(CLI_EXIT_FAIL, fmt, a, b, why);
}

/* Groups, then attach (process mode): members join before the first attach. */
static void group_and_attach(struct stat_opts *o, pid_t child, const pid_t *tids)
{
	for (int i = 0; i < o->nev; i++) {
		struct stat_ev *e = &o->ev[i], *l;
		if (e->leader < 0 || !e->supported)
			continue;
		l = &o->ev[e->leader];
		for (int k = 0; k < e->nids && l->supported && k < l->nids; k++)
			if (pmc_group(l->ids[k], e->ids[k]) < 0)
				fail_with_child(child, "cannot group '%s' (event %d): %s", e->spec, i + 1);
	}
	if (o->tgt.system_wide)
		return;
	for (int i = 0; i < o->nev; i++) {
		struct stat_ev *e = &o->ev[i];
		for (int k = 0; k < e->nids; k++) {
			const pid_t *targets = o->aggr == AGGR_THREAD ? &tids[k] :
			    o->tgt.cmd ? &child : o->tgt.pids;
			int nt = o->aggr == AGGR_THREAD || o->tgt.cmd ? 1 : o->tgt.npids;
			int thread = o->tgt.threads || o->aggr == AGGR_THREAD;
			for (int t = 0; t < nt; t++) {
				int r = thread ? pmc_attach_thread(e->ids[k], targets[t]) :
				    pmc_attach(e->ids[k], targets[t]);
				if (r < 0)
					fail_with_child(child, "cannot attach to %s %d: %s",
					    thread ? "thread" : "process", (int)targets[t]);
			}
		}
	}
}

static void start_all(struct stat_opts *o)
{
	for (int i = 0; i < o->nev; i++)
		for (int k = 0; k < o->ev[i].nids; k++)
			if (pmc_start(o->ev[i].ids[k]) < 0)
				cli_die(CLI_EXIT_FAIL, "cannot start counting '%s': %s",
				    o->ev[i].spec, pmc_errmsg());
}

static void read_all(struct stat_opts *o)
{
	for (int i = 0; i < o->nev; i++) {
		struct stat_ev *e = &o->ev[i];
		for (int k = 0; k < e->nids; k++)
			if (pmc_read_ext(e->ids[k], &e->rk[k]) < 0)
				memset(&e->rk[k], 0, sizeof(e->rk[k]));
	}
}

/* ---- running --------------------------------------------------------------- */

struct run_result {
	int exit_status;
	double elapsed_ns;
	int logfd;                      /* --per-process: the log to read back */
};

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

static void run_once(struct stat_opts *o, int run, struct run_result *res)
{
	uint32_t flags = PMC_F_DESCENDANTS;
	pid_t child = -1, *tids = NULL;
	int status = 0, ntids = 0, done = 0;

	if (o->per_process)
		flags |= PMC_F_LOG_PROCEXIT;
	if (o->no_inherit)
		flags &= ~(uint32_t)PMC_F_DESCENDANTS;
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
	/* Each run counts from zero: its own PMCs (an event the machine
	 * cannot count is not tried again). */
	for (int i = 0; i < o->nev; i++)
		if (run == 0 || o->ev[i].supported)
			setup_event(o, &o->ev[i], flags, tids, ntids, child);
	group_and_attach(o, child, tids);
	free(tids);
	start_all(o);

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
	for (int i = 0; i < o->nev; i++)
		for (int k = 0; k < o->ev[i].nids; k++)
			pmc_stop(o->ev[i].ids[k]);
	read_all(o);
	/* The last, partial interval (perf prints it too), stamped with its end. */
	if (o->interval_ms && res->elapsed_ns > (double)printed)
		stat_print_interval(o, res->elapsed_ns, res->elapsed_ns - (double)printed);
	for (int i = 0; i < o->nev; i++) {
		struct stat_ev *e = &o->ev[i];
		double *n = realloc(e->runs, (size_t)(e->nruns + 1) * sizeof(double));
		struct pmc_reading tot;
		if (!n)
			cli_die(CLI_EXIT_FAIL, "out of memory");
		e->runs = n;
		stat_sum(e, -1, 0, &tot);
		e->runs[e->nruns++] = stat_value(e, &tot);
	}
	if (child > 0)
		res->exit_status = cli_target_exit_status(status);
	if (o->per_process && pmc_close_logfile() < 0)
		cli_warn("the per-process log: %s", pmc_errmsg());
}

/* ---- options ------------------------------------------------------------------ */

enum { OPT_NO_INHERIT = 256, OPT_PER_CORE, OPT_PER_SOCKET, OPT_PER_THREAD };

static void set_aggr(struct stat_opts *o, enum stat_aggr a)
{
	if (o->aggr != AGGR_GLOBAL && o->aggr != a)
		cli_usage_error("choose one of -A, --per-core, --per-socket, --per-thread");
	o->aggr = a;
}

static int parse_int(const char *arg, int lo, int hi, const char *what)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || v < lo || v > hi)
		cli_usage_error("'%s' is not %s", arg, what);
	return (int)v;
}

static void check_options(struct stat_opts *o, int argc, char **argv)
{
	cli_target_finish(&o->tgt, argc, argv, optind, "count");
	if (o->tgt.system_wide && o->per_process)
		cli_usage_error("--per-process follows a command's processes; it cannot be "
		    "combined with -a/-C");
	if (o->repeat > 1 && !o->tgt.cmd)
		cli_usage_error("-r repeats a command; it needs one");
	if (o->per_process && !o->tgt.cmd)
		cli_usage_error("--per-process needs a command to follow");
	if (o->json && o->sep)
		cli_usage_error("choose -x or --json, not both");
	if (o->repeat > 1 && o->interval_ms)
		cli_usage_error("-r and -I cannot be combined");
	if (o->no_inherit && o->per_process)
		cli_usage_error("--per-process needs the children (drop --no-inherit)");
	if ((o->aggr == AGGR_CPU || o->aggr == AGGR_CORE || o->aggr == AGGR_SOCKET) &&
	    !o->tgt.system_wide)
		cli_usage_error("-A, --per-core and --per-socket split system-wide counts: "
		    "they need -a or -C");
	if (o->aggr == AGGR_THREAD && !o->tgt.npids)
		cli_usage_error("--per-thread counts existing threads: it needs -p or -t");
	if (o->aggr != AGGR_GLOBAL && (o->repeat > 1 || o->per_process))
		cli_usage_error("-A and --per-* cannot be combined with -r or --per-process");
}

static void parse_options(struct stat_opts *o, int argc, char **argv, const char **outpath)
{
	static const struct option lopts[] = {
		{ "event", required_argument, NULL, 'e' },
		CLI_TARGET_LONGOPTS,
		{ "interval", required_argument, NULL, 'I' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "per-process", no_argument, NULL, 'P' },
		{ "no-inherit", no_argument, NULL, OPT_NO_INHERIT },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "per-core", no_argument, NULL, OPT_PER_CORE },
		{ "per-socket", no_argument, NULL, OPT_PER_SOCKET },
		{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
		{ "delay", required_argument, NULL, 'D' },
		{ "detailed", no_argument, NULL, 'd' },
		{ "backend", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:" CLI_TARGET_OPTSTRING "I:r:x:jPAD:db:o:h",
	    lopts, NULL)) != -1) {
		switch (c) {
		case 'e': add_events(o, optarg); break;
		case 'I':
			o->interval_ms = parse_int(optarg, 10, 0x7fffffff,
			    "an interval of at least 10 ms");
			break;
		case 'r': o->repeat = parse_int(optarg, 1, 100000, "a repeat count"); break;
		case 'D': o->delay_ms = parse_int(optarg, 0, 0x7fffffff, "a delay in ms"); break;
		case 'd': o->detailed++; break;
		case 'x': o->sep = optarg; break;
		case 'j': o->json = 1; break;
		case 'P': o->per_process = 1; break;
		case OPT_NO_INHERIT: o->no_inherit = 1; break;
		case 'A': set_aggr(o, AGGR_CPU); break;
		case OPT_PER_CORE: set_aggr(o, AGGR_CORE); break;
		case OPT_PER_SOCKET: set_aggr(o, AGGR_SOCKET); break;
		case OPT_PER_THREAD: set_aggr(o, AGGR_THREAD); break;
		case 'b': o->backend = optarg; break;
		case 'o': *outpath = optarg; break;
		case 'h': usage(stdout); exit(0);
		default:
			if (!cli_target_option(&o->tgt, c, optarg))
				cli_bad_option(c, argv);
		}
	}
	check_options(o, argc, argv);
	if (o->nev == 0)
		for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
			add_events(o, default_events[i]);
	for (int d = 0; d < o->detailed && d < 3; d++)
		add_events(o, detailed_events[d]);
}

int cmd_stat(int argc, char **argv)
{
	static struct stat_opts o;
	const char *outpath = NULL;

	memset(&o, 0, sizeof(o));
	o.repeat = 1;
	o.out = stderr;          /* perf's habit: the command's stdout stays its own */
	parse_options(&o, argc, argv, &outpath);
	/* perf stat -o replaces the file: so do we, never through a planted
	 * symlink, and only once the counts are complete ("-": stdout) */
	struct pmc_outfile of;
	if (outpath)
		o.out = cli_open_output(&of, outpath, 1);
	if (o.backend && pmc_backend_select(o.backend) < 0)
		cli_usage_error("%s", pmc_errmsg());
	if (pmc_init() < 0)
		cli_die(CLI_EXIT_FAIL, "cannot initialise libpmc: %s", pmc_errmsg());
	if (o.tgt.system_wide)
		cpu_units(&o);

	/* The command gets Ctrl-C; we print what was counted when it ends. */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	struct run_result res;
	double sum = 0, sumsq = 0;
	int runs = 0;
	memset(&res, 0, sizeof(res));
	for (int run = 0; run < o.repeat; run++) {
		if (run > 0)
			for (int i = 0; i < o.nev; i++)
				release_event(&o.ev[i]);
		run_once(&o, run, &res);
		sum += res.elapsed_ns;
		sumsq += res.elapsed_ns * res.elapsed_ns;
		runs++;
		if (got_signal)
			break;
		if (res.logfd >= 0 && run < o.repeat - 1) {
			close(res.logfd);
			res.logfd = -1;
		}
	}
	double mean = sum / runs;
	double sd = runs > 1 ? sqrt(fmax(0, (sumsq - runs * mean * mean) / (runs - 1))) : 0;
	struct rusage ru, *rup = NULL;
	if (o.tgt.cmd && !o.tgt.system_wide && o.repeat == 1 &&
	    !strcmp(pmc_backend_name(), "linux") &&
	    getrusage(RUSAGE_CHILDREN, &ru) == 0)
		rup = &ru;
	/* With -I the intervals are the output (perf's); JSON adds the totals
	 * as a last object of its own shape. */
	if (!o.interval_ms || o.json)
		stat_print_final(&o, mean, sd, rup, o.tgt.cmd != NULL, res.exit_status);
	if (res.logfd >= 0) {
		if (!o.interval_ms)
			stat_print_per_process(&o, res.logfd, o.child);
		close(res.logfd);
	}
	int out_failed = outpath && cli_close_output(&of, o.out, 0) != 0;
	for (int i = 0; i < o.nev; i++) {
		release_event(&o.ev[i]);
		free(o.ev[i].spec);
		free(o.ev[i].runs);
	}
	pmc_fini();
	free(o.units);
	free(o.cpu_unit);
	cli_target_free(&o.tgt);
	if (out_failed)
		return CLI_EXIT_FAIL;
	return o.tgt.cmd ? res.exit_status : 0;
}
