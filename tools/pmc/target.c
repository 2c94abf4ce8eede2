/*
 * target.c — one parser and validator of the target options for `pmc stat`
 * and `pmc record` (see target.h): they used to be parsed twice and had
 * drifted (stat accepted `-l nan`, record refused it).
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmc.h"

#include "cli.h"
#include "util/cpulist.h"
#include "target.h"

static void parse_cpus(struct cli_target *t, const char *arg)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int rc = cpulist__parse(arg, t->cpus, ncpu > 0 && ncpu < CLI_MAX_CPUS ?
	    (int)ncpu : CLI_MAX_CPUS);

	if (rc == -2)
		cli_usage_error("CPU list '%s' names a CPU this machine does not have "
		    "(CPUs 0-%ld)", arg, ncpu - 1);
	if (rc < 0)
		cli_usage_error("'%s' is not a CPU list (e.g. 0-3,6)", arg);
	t->cpu_list = t->system_wide = 1;
}

int cli_target_option(struct cli_target *t, int c, const char *arg)
{
	char *end;

	switch (c) {
	case 'p':
	case 't':
		if (cli_parse_pid_list(arg, &t->pids, &t->npids) < 0)
			cli_usage_error("'%s' is not a list of %s ids", arg,
			    c == 'p' ? "process" : "thread");
		t->threads |= c == 't';
		return 1;
	case 'a':
		t->system_wide = 1;
		return 1;
	case 'C':
		parse_cpus(t, arg);
		return 1;
	case 'l':
		t->duration = strtod(arg, &end);
		if (*end || end == arg || !isfinite(t->duration) || !(t->duration > 0))
			cli_usage_error("'%s' is not a positive number of seconds", arg);
		return 1;
	default:
		return 0;
	}
}

void cli_target_finish(struct cli_target *t, int argc, char **argv, int optind_,
    const char *verb)
{
	if (optind_ < argc)
		t->cmd = &argv[optind_];
	if (!t->cmd && !t->npids && !t->system_wide)
		cli_usage_error("nothing to %s: give a command, -p, -t or -a", verb);
	if (t->cmd && t->npids)
		cli_usage_error("give either a command or -p/-t, not both");
	if (t->npids && t->system_wide)
		cli_usage_error("-p/-t and -a/-C cannot be combined");
}

int cli_target_has_cpu(const struct cli_target *t, int cpu)
{
	return !t->cpu_list || (cpu >= 0 && cpu < CLI_MAX_CPUS && t->cpus[cpu]);
}

void cli_target_free(struct cli_target *t)
{
	free(t->pids);
	t->pids = NULL;
	t->npids = 0;
}

uint64_t cli_target_now_ns(const struct cli_target *t)
{
	struct timespec ts;

	if (t->cmd)
		return pmc_clock_ns();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int cli_target_gone(const struct cli_target *t)
{
	if (t->cmd || t->system_wide)
		return 0;
	for (int i = 0; i < t->npids; i++)
		if (pmc_target_exists(t->pids[i]))
			return 0;
	return 1;
}

void cli_target_say_gone(const struct cli_target *t)
{
	cli_warn("the monitored %s exited", t->npids > 1 ?
	    (t->threads ? "threads" : "processes") : (t->threads ? "thread" : "process"));
}

int cli_target_exit_status(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return 0;
}
