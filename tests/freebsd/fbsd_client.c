/*
 * fbsd_client.c — a client written the way FreeBSD's pmc tools are
 * (pmccontrol, pmcstat, libpmcstat): FreeBSD's system headers, __FBSDID,
 * cpuset_t, sysctlbyname, sysconf(_SC_CPUSET_SIZE), err(3) and the pmc(3)
 * calls those tools make.  tests/integration/freebsd_compat.sh builds it
 * against an installed libpmc with `pkg-config --cflags --libs
 * libpmc-freebsd` only; it is not part of the normal build.
 *
 *   fbsd_client L          list every class pmc_cpuinfo names, with its events
 *   fbsd_client l          each CPU's rows: "cpu row ENABLED|DISABLED DISP"
 *   fbsd_client d|e C R    disable / enable row R on CPU C (C = -1: all CPUs
 *                          not halted, as pmccontrol)
 *   fbsd_client s          driver statistics, pmccontrol's -s lines
 *   fbsd_client x          the FreeBSD-only names: sysctls, pmu-events,
 *                          request structures, log macros
 *   fbsd_client u          measure itself with LOG_PROCEXIT, then LOG_PROCCSW
 *                          (pmcstat -E / -P on oneself; works unprivileged)
 *   fbsd_client k          the rest of FreeBSD's base that pmcstat and pmc use
 *                          (libpmc-freebsd): kqueue's READ/PROC/SIGNAL/TIMER
 *                          filters, kvm_getprocs, cpuset_getaffinity,
 *                          sysctl by MIB, BSD queue macros, nitems, errc,
 *                          elftoolchain's elf_getshnum, BSD getopt
 */
#include <sys/cdefs.h>
__FBSDID("$FreeBSD$");

#include <sys/param.h>
#include <sys/queue.h>
#include <sys/cpuset.h>
#include <sys/sysctl.h>
#include <sys/pmc.h>
#include <sys/pmclog.h>
#include <sys/event.h>
#include <sys/user.h>
#include <sys/wait.h>

#include <err.h>
#include <fcntl.h>
#include <gelf.h>
#include <kvm.h>
#include <signal.h>
#include <errno.h>
#include <pmc.h>
#include <pmclog.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

static int list_events(void)
{
	const struct pmc_cpuinfo *ci;
	const char **names;
	int n;

	if (pmc_cpuinfo(&ci) != 0)
		err(EX_OSERR, "pmc_cpuinfo");
	for (unsigned i = 0; i < ci->pm_nclass; i++) {
		enum pmc_class c = ci->pm_classes[i].pm_class;
		if (pmc_event_names_of_class(c, &names, &n) < 0)
			err(EX_OSERR, "no event names for class \"%s\"", pmc_name_of_class(c));
		printf("class %s %d %s\n", pmc_name_of_class(c), n, n > 0 ? names[0] : "-");
		free(names);
	}
	return 0;
}

static int list_state(void)
{
	const struct pmc_cpuinfo *ci;
	struct pmc_pmcinfo *pi;

	if (pmc_cpuinfo(&ci) != 0)
		err(EX_OSERR, "pmc_cpuinfo");
	for (unsigned cpu = 0; cpu < ci->pm_ncpu; cpu++) {
		if (pmc_pmcinfo((int)cpu, &pi) < 0) {
			if (errno == ENXIO)
				continue;
			err(EX_OSERR, "pmc_pmcinfo %u", cpu);
		}
		for (int r = 0; r < pmc_npmc((int)cpu); r++)
			printf("%u %d %s %s\n", cpu, r,
			    pi->pm_pmcs[r].pm_enabled ? "ENABLED" : "DISABLED",
			    pmc_name_of_disposition(pi->pm_pmcs[r].pm_rowdisp));
		free(pi);
	}
	return 0;
}

static int enable_disable(int disable, int cpu, int row)
{
	cpuset_t halted, active;
	long setsize;
	int ncpu = pmc_ncpu();

	if (ncpu < 0)
		err(EX_OSERR, "pmc_ncpu");
	setsize = sysconf(_SC_CPUSET_SIZE);
	if (setsize == -1 || (u_long)setsize > sizeof(cpuset_t))
		err(EX_OSERR, "sysconf(_SC_CPUSET_SIZE)");
	CPU_ZERO(&halted);
	if (sysctlbyname("machdep.hlt_cpus", &halted, (size_t *)&setsize, NULL, 0) < 0)
		err(EX_OSERR, "machdep.hlt_cpus");
	CPU_FILL(&active);
	CPU_NAND(&active, &halted);
	for (int c = 0; c < ncpu; c++) {
		if (cpu >= 0 ? c != cpu : !CPU_ISSET(c, &active))
			continue;
		if ((disable ? pmc_disable(c, row) : pmc_enable(c, row)) < 0)
			err(EX_OSERR, "%s of PMC %d on CPU %d failed", disable ? "Disable" : "Enable",
			    row, c);
	}
	return 0;
}

/* The PowerPC and Arm uncore event blocks, tabled the way FreeBSD's libpmc tables a
 * class's events (expanding __PMC_EV_<CLASS>() into name/code pairs). */
struct ev_descr { const char *name; enum pmc_event code; };
#undef __PMC_EV
#define __PMC_EV(C, N) { #N, PMC_EV_##C##_##N },
static const struct ev_descr ppc7450_tab[] = { __PMC_EV_PPC7450() };
static const struct ev_descr ppc970_tab[] = { __PMC_EV_PPC970() };
static const struct ev_descr power8_tab[] = { __PMC_EV_POWER8() };
static const struct ev_descr e500_tab[] = { __PMC_EV_E500() };
static const struct ev_descr dmc620_cd2_tab[] = { __PMC_EV_DMC620_PMU_CD2() };
static const struct ev_descr dmc620_c_tab[] = { __PMC_EV_DMC620_PMU_C() };
static const struct ev_descr cmn600_tab[] = { __PMC_EV_CMN600_PMU() };
#undef __PMC_EV

static void print_block(const char *cls, const struct ev_descr *t, size_t n,
    enum pmc_event first, enum pmc_event last)
{
	size_t same = 0;

	for (size_t i = 0; i < n; i++) {
		const char *nm = pmc_name_of_event(t[i].code);
		same += nm != NULL && strcmp(nm, t[i].name) == 0 && t[i].code == first + (int)i;
	}
	printf("%s %zu 0x%x..0x%x %s..%s named %zu\n", cls, n, (unsigned)first, (unsigned)last,
	    t[0].name, t[n - 1].name, same);
}

static int event_blocks(void)
{
#define BLOCK(cls, tab, C) \
	print_block(cls, tab, sizeof(tab) / sizeof(tab[0]), PMC_EV_##C##_FIRST, PMC_EV_##C##_LAST)
	BLOCK("ppc7450", ppc7450_tab, PPC7450);
	BLOCK("ppc970", ppc970_tab, PPC970);
	BLOCK("power8", power8_tab, POWER8);
	BLOCK("e500", e500_tab, E500);
	BLOCK("dmc620_cd2", dmc620_cd2_tab, DMC620_PMU_CD2);
	BLOCK("dmc620_c", dmc620_c_tab, DMC620_PMU_C);
	BLOCK("cmn600", cmn600_tab, CMN600_PMU);
#undef BLOCK
	/* the codes are constant expressions: hwpmc's drivers switch on them */
	switch (pmc_name_of_event(PMC_EV_E500_L2MMU_MISSES) ? PMC_EV_E500_L2MMU_MISSES : 0) {
	case PMC_EV_E500_L2MMU_MISSES:
		printf("e500 L2MMU_MISSES 0x%x\n", (unsigned)PMC_EV_E500_L2MMU_MISSES);
		break;
	default:
		printf("e500 L2MMU_MISSES unnamed\n");
	}
	return 0;
}

static int statistics(void)
{
	struct pmc_driverstats gms;

	if (pmc_get_driver_stats(&gms) < 0)
		err(EX_OSERR, "pmc_get_driver_stats");
	printf("%-40s %u\n", "system calls:", gms.pm_syscalls);
	printf("%-40s %u\n", "system calls with errors:", gms.pm_syscall_errors);
	printf("%-40s %u\n", "sampling log sweeps:", gms.pm_log_sweeps);
	return 0;
}

static int freebsd_names(void)
{
	struct pmc_op_pmcallocate pa;
	struct pmc_dyn_event_descr de;
	struct pmclog_parse_state ps;
	struct pmclog_ev_pcsample pcs;
	cpuset_t set;
	char cpuid[PMC_CPUID_LEN];
	size_t len;
	int v, ncpu, rc;
	unsigned int lmask;

	len = sizeof(v);
	if (sysctlbyname("kern.hwpmc.nsamples", &v, &len, NULL, 0) < 0)
		err(EX_OSERR, "kern.hwpmc.nsamples");
	printf("nsamples %d\n", v);
	len = sizeof(ncpu);
	if (sysctlbyname("hw.ncpu", &ncpu, &len, NULL, 0) < 0)
		err(EX_OSERR, "hw.ncpu");
	printf("ncpu %d\n", ncpu);
	len = sizeof(cpuid);
	if (sysctlbyname("kern.hwpmc.cpuid", cpuid, &len, NULL, 0) < 0)
		err(EX_OSERR, "kern.hwpmc.cpuid");
	printf("cpuid %s %s\n", cpuid, strcmp(cpuid, pmc_cpuid) == 0 ? "same" : "differs");
	len = sizeof(lmask);
	printf("logical_cpus_mask %d\n",
	    sysctlbyname("machdep.logical_cpus_mask", &lmask, &len, NULL, 0));
	rc = sysctlbyname("kern.no.such", &v, &len, NULL, 0);
	printf("unknown %d %d\n", rc, errno == ENOENT);
	rc = sysctlbyname("kern.hwpmc.nsamples", NULL, NULL, &v, sizeof(v));
	printf("write %d %d\n", rc, errno == EPERM);

	CPU_ZERO(&set);
	CPU_SET(3, &set);
	CPU_SET(700, &set);
	printf("cpuset %d %d %d %d\n", CPU_ISSET(3, &set), CPU_ISSET(4, &set), CPU_COUNT(&set),
	    (int)sizeof(cpuset_t) * 8);

	memset(&pa, 0, sizeof(pa));
	rc = pmc_pmu_pmcallocate("no-such-event-anywhere", &pa);
	printf("pmu enabled %d alloc-unknown %s rate %ju\n", pmc_pmu_enabled() != 0,
	    rc == ENOENT ? "ENOENT" : "other",
	    (uintmax_t)pmc_pmu_sample_rate_get("no-such-event-anywhere"));
	if (pmc_pmu_enabled()) {
		const char *first = pmc_pmu_event_get_by_idx(NULL, 0);
		memset(&pa, 0, sizeof(pa));
		printf("pmu first %s idx %d alloc %d\n", first,
		    pmc_pmu_idx_get_by_event(NULL, first), pmc_pmu_pmcallocate(first, &pa));
	}
	pmc_pmu_print_counters(NULL);

	memset(&de, 0, sizeof(de));
	snprintf(de.pm_ev_name, sizeof(de.pm_ev_name), "%s", pmc_name_of_event(PMC_EV_K8_FIRST));
	printf("k8 %s..%s armv7 %s tsc %s\n", de.pm_ev_name, pmc_name_of_event(PMC_EV_K8_LAST),
	    pmc_name_of_event(PMC_EV_ARMV7_FIRST), pmc_name_of_event(PMC_EV_TSC_FIRST));
	printf("header 0x%x type %u len %u magic %d\n",
	    (unsigned)(PMCLOG_HEADER_MAGIC << 24 | 16 << 16 | 40),
	    (unsigned)PMCLOG_HEADER_TO_TYPE(PMCLOG_HEADER_MAGIC << 24 | 16 << 16 | 40),
	    (unsigned)PMCLOG_HEADER_TO_LENGTH(PMCLOG_HEADER_MAGIC << 24 | 16 << 16 | 40),
	    PMCLOG_HEADER_CHECK_MAGIC(PMCLOG_HEADER_MAGIC << 24 | 16 << 16 | 40));
	printf("cpuflags 0x%x cpu %u\n", PMC_CALLCHAIN_TO_CPUFLAGS(5, PMC_CC_F_USERSPACE),
	    PMC_CALLCHAIN_CPUFLAGS_TO_CPU(PMC_CALLCHAIN_TO_CPUFLAGS(5, PMC_CC_F_USERSPACE)));
	memset(&ps, 0, sizeof(ps));
	memset(&pcs, 0, sizeof(pcs));
	ps.ps_state = PL_STATE_EXPECTING_HEADER;
	printf("parser %d pcsample %zu\n", (int)ps.ps_state, sizeof(pcs.pl_pc));
	return 0;
}

static int measure_self(void)
{
	static const uint32_t flags[] = { PMC_F_LOG_PROCEXIT, PMC_F_LOG_PROCCSW };
	FILE *log = tmpfile();
	volatile unsigned long x = 0;
	pmc_value_t v;
	pmc_id_t id;

	if (!log || pmc_configure_logfile(fileno(log)) < 0)
		err(EX_OSERR, "pmc_configure_logfile");
	for (int i = 0; i < 2; i++) {
		if (pmc_allocate("task-clock", PMC_MODE_TC, flags[i], PMC_CPU_ANY, &id, 0) < 0)
			err(EX_OSERR, "pmc_allocate");
		if (pmc_attach(id, 0) < 0 || pmc_start(id) < 0)
			err(EX_OSERR, "pmc_attach/pmc_start with flags 0x%x", flags[i]);
		for (unsigned long k = 0; k < 20000000ul; k++)
			x += k;
		if (pmc_stop(id) < 0 || pmc_read(id, &v) < 0)
			err(EX_OSERR, "pmc_stop/pmc_read");
		printf("self 0x%x %ju\n", flags[i], (uintmax_t)v);
		if (pmc_release(id) < 0)
			err(EX_OSERR, "pmc_release");
	}
	return pmc_close_logfile() < 0;
}

struct item {
	TAILQ_ENTRY(item) next;
	int v;
};

static int base_calls(const char *self)
{
	struct kevent kev, out[4];
	struct timespec ts = { 5, 0 };
	int kq, p[2], n, ncpu, fd;
	pid_t child;
	cpuset_t root;
	struct clockinfo ci;
	size_t len, nsh;
	int mib[2] = { CTL_KERN, KERN_CLOCKRATE }, ndom;
	struct kinfo_proc *kp;
	kvm_t *kd;
	char errbuf[_POSIX2_LINE_MAX];
	static const int three[] = { 1, 2, 3 };
	TAILQ_HEAD(, item) q = TAILQ_HEAD_INITIALIZER(q);
	struct item it[3], *e, *tmp;
	Elf *elf;

	/* sys/queue.h's _SAFE iteration, nitems */
	for (size_t i = 0; i < nitems(three); i++) {
		it[i].v = three[i];
		TAILQ_INSERT_TAIL(&q, &it[i], next);
	}
	n = 0;
	TAILQ_FOREACH_SAFE(e, &q, next, tmp) {
		n += e->v;
		TAILQ_REMOVE(&q, e, next);
	}
	printf("queue %d %d\n", n, TAILQ_EMPTY(&q));

	if ((kq = kqueue()) < 0)
		err(EX_OSERR, "kqueue");
	/* EVFILT_TIMER, milliseconds, once */
	EV_SET(&kev, 7, EVFILT_TIMER, EV_ADD | EV_ONESHOT, 0, 10, NULL);
	if (kevent(kq, &kev, 1, NULL, 0, NULL) < 0)
		err(EX_OSERR, "kevent timer");
	n = kevent(kq, NULL, 0, out, 4, &ts);
	printf("timer %d %d %jd\n", n, n == 1 && out[0].filter == EVFILT_TIMER ?
	    (int)out[0].ident : -1, n == 1 ? (intmax_t)out[0].data : -1);
	/* EVFILT_SIGNAL sees a signal whose disposition is SIG_IGN (one:
	 * Linux keeps one pending instance of a standard signal) */
	EV_SET(&kev, SIGUSR1, EVFILT_SIGNAL, EV_ADD, 0, 0, NULL);
	if (kevent(kq, &kev, 1, NULL, 0, NULL) < 0)
		err(EX_OSERR, "kevent signal");
	signal(SIGUSR1, SIG_IGN);
	kill(getpid(), SIGUSR1);
	n = kevent(kq, NULL, 0, out, 4, &ts);
	printf("signal %d %d %jd\n", n, n == 1 && out[0].filter == EVFILT_SIGNAL ?
	    (int)out[0].ident : -1, n == 1 ? (intmax_t)out[0].data : -1);
	/* EVFILT_READ: bytes readable */
	if (pipe(p) < 0 || write(p[1], "hello", 5) != 5)
		err(EX_OSERR, "pipe");
	EV_SET(&kev, p[0], EVFILT_READ, EV_ADD, 0, 0, NULL);
	n = kevent(kq, &kev, 1, out, 4, &ts);
	printf("read %d %jd\n", n, n == 1 ? (intmax_t)out[0].data : -1);
	EV_SET(&kev, p[0], EVFILT_READ, EV_DELETE, 0, 0, NULL);
	if (kevent(kq, &kev, 1, NULL, 0, NULL) < 0)
		err(EX_OSERR, "kevent delete");
	/* ... a regular file is readable while bytes remain */
	if ((fd = open(self, O_RDONLY)) < 0)
		err(EX_OSERR, "%s", self);
	EV_SET(&kev, fd, EVFILT_READ, EV_ADD, 0, 0, NULL);
	n = kevent(kq, &kev, 1, out, 4, &ts);
	printf("file %d %d\n", n, n == 1 && out[0].data > 1000);
	EV_SET(&kev, fd, EVFILT_READ, EV_DELETE, 0, 0, NULL);
	kevent(kq, &kev, 1, NULL, 0, NULL);
	/* EVFILT_PROC NOTE_EXIT: the exit status, the child left to reap */
	fflush(stdout);
	if ((child = fork()) == 0) {
		usleep(20000);
		_exit(3);
	}
	EV_SET(&kev, child, EVFILT_PROC, EV_ADD, NOTE_EXIT, 0, NULL);
	if (kevent(kq, &kev, 1, NULL, 0, NULL) < 0)
		err(EX_OSERR, "kevent proc");
	n = kevent(kq, NULL, 0, out, 4, &ts);
	printf("proc %d %d %d %d\n", n, n == 1 && (int)out[0].ident == child,
	    n == 1 && (out[0].fflags & NOTE_EXIT) ? WEXITSTATUS((int)out[0].data) : -1,
	    waitpid(child, NULL, 0) == child);
	/* an unknown knote: ENOENT */
	EV_SET(&kev, 99, EVFILT_TIMER, EV_DELETE, 0, 0, NULL);
	n = kevent(kq, &kev, 1, NULL, 0, NULL);
	printf("enoent %d %d\n", n, errno == ENOENT);
	close(kq);

	/* kvm(3): the process list */
	if ((kd = kvm_openfiles(NULL, "/dev/null", NULL, 0, errbuf)) == NULL)
		errx(EX_OSERR, "kvm_openfiles: %s", errbuf);
	if ((kp = kvm_getprocs(kd, KERN_PROC_PID, getpid(), &n)) == NULL)
		errx(EX_OSERR, "kvm_getprocs: %s", kvm_geterr(kd));
	printf("kvm %d %d %s\n", n, n == 1 && kp[0].ki_pid == getpid(), n == 1 ? kp[0].ki_comm : "-");
	if ((kp = kvm_getprocs(kd, KERN_PROC_PROC, 0, &n)) == NULL)
		errx(EX_OSERR, "kvm_getprocs: %s", kvm_geterr(kd));
	printf("kvm-all %d\n", n > 1);
	kvm_close(kd);

	/* cpuset_getaffinity: the root set is every CPU online */
	if (cpuset_getaffinity(CPU_LEVEL_ROOT, CPU_WHICH_PID, -1, sizeof(root), &root) < 0)
		err(EX_OSERR, "cpuset_getaffinity");
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	printf("cpuset %d\n", CPU_COUNT(&root) == ncpu);
	/* sysctl by MIB and by name */
	len = sizeof(ci);
	if (sysctl(mib, 2, &ci, &len, NULL, 0) < 0)
		err(EX_OSERR, "sysctl kern.clockrate");
	printf("clockrate %d %d %d\n", ci.hz, ci.stathz, ci.profhz);
	len = sizeof(ndom);
	if (sysctlbyname("vm.ndomains", &ndom, &len, NULL, 0) < 0)
		err(EX_OSERR, "vm.ndomains");
	printf("ndomains %d\n", ndom >= 1);
	/* elftoolchain's convention: nonzero is success */
	if (elf_version(EV_CURRENT) == EV_NONE || (fd = open(self, O_RDONLY)) < 0 ||
	    (elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL)
		errx(EX_OSERR, "elf_begin");
	n = elf_getshnum(elf, &nsh);
	printf("elf_getshnum %d %d\n", n != 0, nsh > 0);
	elf_end(elf);
	close(fd);
	/* reallocarray moves a block it grows (FreeBSD's libpmcstat counts on
	 * a moved pointer as the sign of success) */
	{
		char *a = reallocarray(NULL, 4, 8), *b;
		uintptr_t was = (uintptr_t)a;
		b = reallocarray(a, 8, 8);
		printf("realloc-moves %d\n", b != NULL && (uintptr_t)b != was);
		free(b);
	}
	/* errc: err(3) with an explicit code */
	fflush(stdout);
	if (fork() == 0)
		errc(0, ENOENT, "errc");
	wait(NULL);
	return 0;
}

/* BSD getopt: options end at the first operand. */
static int bsd_getopt_order(void)
{
	char a0[] = "fc", a1[] = "-a", a2[] = "op", a3[] = "-b";
	char *av[] = { a0, a1, a2, a3, NULL };
	int c1, c2;
	optind = 1;
	c1 = getopt(4, av, "ab");
	c2 = getopt(4, av, "ab");
	printf("getopt %c %d %d %s\n", c1, c2, optind, av[optind]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		errx(EX_USAGE, "usage: fbsd_client L|l|s|x|b|d C R|e C R");
	if (pmc_init() < 0)
		err(EX_UNAVAILABLE, "Initialization of the pmc(3) library failed");
	switch (argv[1][0]) {
	case 'L': return list_events();
	case 'l': return list_state();
	case 's': return statistics();
	case 'x': return freebsd_names();
	case 'b': return event_blocks();
	case 'u': return measure_self();
	case 'k': return base_calls(argv[0]) || bsd_getopt_order();
	case 'd':
	case 'e':
		if (argc < 4)
			errx(EX_USAGE, "d|e CPU ROW");
		return enable_disable(argv[1][0] == 'd', atoi(argv[2]), atoi(argv[3]));
	}
	errx(EX_USAGE, "unknown command %s", argv[1]);
}
