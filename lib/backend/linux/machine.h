/*
 * machine.h — the Linux backend's machine description (machine.c), kept
 * apart from linux.c, which opens and drives the counters.
 */
#ifndef PMC_BACKEND_LINUX_MACHINE_H
#define PMC_BACKEND_LINUX_MACHINE_H

struct pmc_machine;

/* Fill *m with this host's classes, widths and counts (hwpmc's view). */
int linux__describe(struct pmc_machine *m);

#endif
