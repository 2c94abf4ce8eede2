/*
 * cpulist.h — the one grammar of a CPU list, perf's (-C, --cpu): comma
 * separated CPU numbers and ranges A-B, "0-3,6".  stat/record/top/exporter's
 * -C (tools/pmc/target.c) and the report filters' --cpu (profile.c) read it
 * here, so a list one command takes, the others take too.
 */
#ifndef PMCSTAT_CPULIST_H
#define PMCSTAT_CPULIST_H

/* The CPUs of list s in set[0 .. max): 0; -1 s is not a CPU list (empty,
 * an empty item, a sign, a range that runs backwards, trailing junk); -2 a
 * CPU of it is max or more.  set is cleared first. */
int cpulist__parse(const char *s, unsigned char *set, int max);

/* 0 when s is a CPU list (its CPUs any number up to INT32_MAX), else -1. */
int cpulist__check(const char *s);

/* Is cpu in list s (one cpulist__check accepted)? */
int cpulist__has(const char *s, long cpu);

#endif
