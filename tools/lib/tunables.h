/*
 * tunables.h — hwpmc's tunables as the pmc CLI reads them (libpmctools;
 * tunables.c): through libpmc's pmc_sysctlbyname("kern.hwpmc.NAME"), as
 * FreeBSD's programs read them with sysctlbyname(3).
 */
#ifndef PMC_TOOLS_TUNABLES_H
#define PMC_TOOLS_TUNABLES_H

/*
 * tunable__name - the i-th tunable pmc_sysctlbyname answers under
 * kern.hwpmc. (callchaindepth, logbuffersize, nbuffers_pcpu, nsamples,
 * mincount: pmc(3)'s order)
 * Return: the name without the prefix, or NULL past the last.
 */
const char *tunable__name(int i);

/*
 * tunable__get - a tunable's value as libpmc uses it (its PMC_<NAME>
 * variable or config file applied, an out-of-range value reset)
 * @name: "mincount" or "kern.hwpmc.mincount"
 * @value: set to the value
 * Return: 0, or a negative errno with a reason (-ENOENT: no such tunable).
 */
int tunable__get(const char *name, long *value);

#endif
