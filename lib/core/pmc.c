/*
 * pmc.c — the machine-independent core: the hwpmc programming model.
 *
 * Each public call checks its arguments the way hwpmc(4) does (same errno
 * for the same condition), then drives the backend through the table in
 * backend.h.  State lives in one struct (pmc__g) under one mutex: libpmc
 * calls are not hot enough for finer locking to pay.
 */
#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/internal.h"
#include "common/error.h"
#include "common/grow.h"
#include "core/settings.h"
#include "common/sysinfo.h"
#include "common/userpage.h"

struct pmc_core pmc__g = { .lock = PTHREAD_MUTEX_INITIALIZER };
char pmc_cpuid[PMC_CPUID_LEN];
static const char *backend_name_wanted;

#define LOCK()   pthread_mutex_lock(&pmc__g.lock)
#define UNLOCK() pthread_mutex_unlock(&pmc__g.lock)

/* Every public entry: clear the reason, count the "system call". */
#define ENTER() do { pmc__clear_reason(); LOCK(); pmc__g.stats.pm_syscalls++; } while (0)
static int leave(int rc)
{
	if (rc < 0)
		pmc__g.stats.pm_syscall_errors++;
	UNLOCK();
	return pmc__ret(rc);
}

static const struct pmc_backend_ops *backend_by_name(const char *name)
{
	if (!name || !*name || !strcmp(name, "linux"))
		return &pmc_backend_linux;
	if (!strcmp(name, "sim"))
		return &pmc_backend_sim;      /* the simulated ARMv8 PMU, docs/simulator.md */
	return NULL;
}

int pmc_backend_select(const char *name)
{
	int rc = 0;
	ENTER();
	if (pmc__g.initialized) {
		pmc__set_reason("the backend must be chosen before pmc_init()");
		rc = -EBUSY;
	} else if (!backend_by_name(name)) {
		pmc__set_reason("unknown backend '%s' (known: linux, sim)", name ? name : "");
		rc = -ENOENT;
	} else {
		backend_name_wanted = name;
	}
	return leave(rc);
}

const char *pmc_backend_name(void)
{
	return pmc__g.be ? pmc__g.be->name : "none";
}

unsigned pmc_libversion(void)
{
	return LIBPMC_VERSION;
}

static int init_locked(void)
{
	const char *name = backend_name_wanted ? backend_name_wanted : getenv("PMC_BACKEND");
	const struct pmc_backend_ops *be = backend_by_name(name);
	int rc;

	if (pmc__g.initialized)
		return 0;
	if (!be) {
		pmc__set_reason("PMC_BACKEND='%s' names no backend (known: linux, sim)", name);
		return -ENOENT;
	}
	pmc__settings_load();
	rc = be->init(&pmc__g.m);
	if (rc < 0)
		return rc;
	pmc__g.be = be;
	memset(&pmc__g.ci, 0, sizeof(pmc__g.ci));
	pmc__g.ci.pm_cputype = pmc__g.m.cputype;
	pmc__g.ci.pm_ncpu = (uint32_t)pmc__g.m.ncpu;
	pmc__g.ci.pm_nclass = pmc__g.m.nclass;
	for (uint32_t i = 0; i < pmc__g.m.nclass; i++) {
		pmc__g.ci.pm_classes[i] = pmc__g.m.classes[i];
		pmc__g.ci.pm_npmc += pmc__g.m.classes[i].pm_num;
	}
	pmc__sys_cpuid(pmc_cpuid, sizeof(pmc_cpuid));
	pmc__g.initialized = 1;
	return 0;
}

int pmc_init(void)
{
	ENTER();
	return leave(init_locked());
}

/* Calls that need pmc_init(): FreeBSD's libpmc answers ENXIO before it. */
static int need_init(void)
{
	if (!pmc__g.initialized) {
		pmc__set_reason("pmc_init() has not been called");
		return -ENXIO;
	}
	return 0;
}

int pmc_ncpu(void)
{
	int rc;
	ENTER();
	rc = need_init();
	return leave(rc < 0 ? rc : (int)pmc__g.ci.pm_ncpu);
}

int pmc_npmc(int cpu)
{
	int rc;
	ENTER();
	rc = need_init();
	if (rc == 0 && (cpu < 0 || cpu >= (int)pmc__g.ci.pm_ncpu)) {
		pmc__set_reason("CPU %d is out of range (0-%u)", cpu, pmc__g.ci.pm_ncpu - 1);
		rc = -EINVAL;
	}
	return leave(rc < 0 ? rc : (int)pmc__g.ci.pm_npmc);
}

int pmc_cpuinfo(const struct pmc_cpuinfo **ci)
{
	int rc;
	ENTER();
	rc = need_init();
	if (rc == 0)
		*ci = &pmc__g.ci;
	return leave(rc);
}

struct pmc *pmc__find(pmc_id_t id)
{
	for (struct pmc *pm = pmc__g.pmcs; pm; pm = pm->next)
		if (pm->id == id)
			return pm;
	return NULL;
}

static int lookup(pmc_id_t id, struct pmc **out)
{
	int rc = need_init();
	if (rc < 0)
		return rc;
	*out = pmc__find(id);
	if (!*out && !pmc__g.pmcs && !pmc__log_active()) {
		/* hwpmc: a process that owns no PMC (and no log) is no owner */
		pmc__set_reason("0x%08x is not a PMC handle: this process owns no PMCs", id);
		return -ESRCH;
	}
	if (!*out) {
		pmc__set_reason("0x%08x is not a PMC handle of this process", id);
		return -EINVAL;
	}
	return 0;
}

static const struct pmc_classinfo *classinfo(enum pmc_class c)
{
	for (uint32_t i = 0; i < pmc__g.ci.pm_nclass; i++)
		if (pmc__g.ci.pm_classes[i].pm_class == c)
			return &pmc__g.ci.pm_classes[i];
	return NULL;
}

int pmc_pmcinfo(int cpu, struct pmc_pmcinfo **out)
{
	struct pmc_pmcinfo *pi;
	int rc, ri = 0;

	ENTER();
	if ((rc = need_init()) < 0)
		return leave(rc);
	if (cpu < 0 || cpu >= (int)pmc__g.ci.pm_ncpu) {
		pmc__set_reason("CPU %d is out of range (0-%u)", cpu, pmc__g.ci.pm_ncpu - 1);
		return leave(-EINVAL);
	}
	if ((rc = pmc__g.be->cpu_check(cpu)) < 0)
		return leave(rc);
	pi = calloc(1, sizeof(*pi) + pmc__g.ci.pm_npmc * sizeof(struct pmc_info));
	if (!pi)
		return leave(-ENOMEM);
	pi->pm_cpu = cpu;
	for (uint32_t c = 0; c < pmc__g.ci.pm_nclass; c++) {
		const struct pmc_classinfo *cl = &pmc__g.ci.pm_classes[c];
		for (uint32_t r = 0; r < cl->pm_num; r++, ri++) {
			struct pmc_info *p = &pi->pm_pmcs[ri];
			snprintf(p->pm_name, sizeof(p->pm_name), "%s-%u",
			    pmc_name_of_class(cl->pm_class), r);
			p->pm_class = cl->pm_class;
			p->pm_enabled = !pmc__row_disabled(cpu, ri);
			p->pm_rowdisp = pmc__row_use((int)c, (int)r, -1);
			p->pm_ownerpid = -1;
			/* The PMC on this CPU's counter, if any (system mode on
			 * this CPU first, else a process-mode PMC of the row). */
			struct pmc *best = NULL;
			for (struct pmc *pm = pmc__g.pmcs; pm; pm = pm->next) {
				if (pm->ev.pclass != cl->pm_class ||
				    pmc__hw_row(pm, (int)cl->pm_num) != (int)r)
					continue;
				if (PMC_IS_SYSTEM_MODE(pm->mode) && pm->cpu != cpu)
					continue;
				if (!best || PMC_IS_SYSTEM_MODE(pm->mode))
					best = pm;
			}
			if (best) {
				p->pm_ownerpid = getpid();
				p->pm_mode = best->mode;
				p->pm_event = best->ev.event;
				p->pm_flags = best->flags;
				if (PMC_IS_SAMPLING_MODE(best->mode))
					p->pm_reloadcount = best->count;
			}
		}
	}
	*out = pi;
	return leave(0);
}

int pmc_capabilities(pmc_id_t id, uint32_t *caps)
{
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) == 0)
		*caps = pm->ev.caps;
	return leave(rc);
}

int pmc_width(pmc_id_t id, uint32_t *width)
{
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) == 0) {
		const struct pmc_classinfo *cl = classinfo(pm->ev.pclass);
		*width = cl ? cl->pm_width : 64;
	}
	return leave(rc);
}

/* ---- allocation -------------------------------------------------------- */

void pmc__sampling_attr(const struct pmc *pm, struct perf_event_attr *a)
{
	if (!PMC_IS_SAMPLING_MODE(pm->mode))
		return;
	if (pm->freq) {
		a->freq = 1;
		a->sample_freq = pm->freq;
	} else {
		/* FreeBSD's CLOCK.* sample every N clock ticks */
		a->sample_period = pm->ev.tick_ns ? pm->count * pm->ev.tick_ns : pm->count;
	}
	/* A fixed period is not asked for in each sample (as perf record -c):
	 * with PERF_SAMPLE_PERIOD the kernel's software events (page-faults,
	 * tracepoints...) ignore sample_period and sample every event, each
	 * with period 1.  The log writer fills the PMC's period in. */
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | (pm->freq ? PERF_SAMPLE_PERIOD : 0);
	if (pm->flags & PMC_F_CALLCHAIN) {
		int depth = (int)pmc__setting(PMC_SETTING_CALLCHAINDEPTH);
		int max = pmc__sys_max_stack();
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		a->sample_max_stack = (uint16_t)(depth < max ? depth : max);
		if (pm->flags & PMC_F_USERCALLCHAIN)
			a->exclude_callchain_kernel = 1;
	}
	if (pm->ustack) {
		/* user part unwound later from these; the kernel's chain keeps
		 * only its kernel part (perf's --call-graph dwarf) */
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = pmc__sys_user_regs_mask();
		a->sample_stack_user = pm->ustack;
		if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
			a->exclude_callchain_user = 1;
	}
	a->context_switch = pm->switches ? 1 : 0;
	a->sample_id_all = 1;
	a->wakeup_watermark = (uint32_t)(pmc__setting(PMC_SETTING_LOGBUFFERSIZE) * 1024 / 2);
	a->watermark = 1;
}

/* Close a target's counters; the target stays, with none. */
static void close_ctrs(struct pmc_target *t)
{
	pmc__log_target_closing(t);
	for (int i = 0; i < t->nctr; i++)
		pmc__g.be->close(t->ctr[i]);
	for (int i = 0; i < t->nctr; i++)      /* group leaders after members */
		if (t->probe && t->probe[i])
			pmc__g.be->close(t->probe[i]);
	free(t->probe);
	free(t->ctr);
	free(t->ctr_cpu);
	free(t->ctr_tid);
	t->probe = t->ctr = NULL;
	t->ctr_cpu = NULL;
	t->ctr_tid = NULL;
	t->nctr = t->capctr = 0;
}

static void close_target(struct pmc_target *t)
{
	close_ctrs(t);
	free(t);
}

/* The event now counts user space only: its name says so as perf's does
 * ("cpu-clock" -> "cpu-clock:u", "cycles:p" -> "cycles:pu"). */
static void name_user_only(struct pmc_evspec *ev)
{
	size_t n = strlen(ev->name);
	const char *colon = strrchr(ev->name, ':');
	int has_mods = colon && ev->pclass != PMC_CLASS_TRACEPOINT && colon[1] &&
	    strspn(colon + 1, "ukhpGHID") == strlen(colon + 1);

	if (n + 3 <= sizeof(ev->name))
		strcpy(ev->name + n, has_mods ? "u" : ":u");
}

/* Trial-open so that allocation fails early, with the real reason. */
static int probe_event(struct pmc *pm)
{
	struct perf_event_attr a = pm->ev.attr;
	struct pmc_bctr *c;
	pid_t pid = PMC_IS_SYSTEM_MODE(pm->mode) ? -1 : 0;
	int rc;

	pmc__sampling_attr(pm, &a);
	rc = pmc__g.be->open(&a, pid, PMC_IS_SYSTEM_MODE(pm->mode) ? pm->cpu : -1,
	    NULL, 0, &c);
	if (rc == -EPERM && pid == 0 && !a.exclude_kernel && !pmc__sys_has_cap_perfmon() &&
	    !pm->ev.mode_given) {
		/* perf_event_paranoid >= 2: an unprivileged user may count only
		 * user space.  Do what perf does for an event given without
		 * modifiers: exclude the kernel, and say so in its name
		 * ("cpu-clock:u").  An explicit :k or ,os stays refused, with
		 * the backend's paranoid advice as the reason. */
		pmc__clear_reason();
		pm->ev.attr.exclude_kernel = 1;
		pm->ev.attr.exclude_hv = 1;
		a.exclude_kernel = a.exclude_hv = 1;
		rc = pmc__g.be->open(&a, pid, -1, NULL, 0, &c);
		if (rc == 0)
			name_user_only(&pm->ev);
	}
	if (rc < 0)
		return rc;
	pmc__g.be->close(c);
	return 0;
}

/* perf_event_open refuses a sampling period with bit 63 set: say so, not
 * "the kernel rejected the event's attributes". */
static int check_period(uint64_t v)
{
	if (v <= (uint64_t)INT64_MAX)
		return 0;
	pmc__set_reason("sampling period %llu is above the largest one, %lld",
	    (unsigned long long)v, (long long)INT64_MAX);
	return -EINVAL;
}

/* FreeBSD's name of the TSC ("TSC", "tsc", "TSC-TSC"), as opposed to
 * Linux's msr/tsc/, which counts per process too. */
static int is_freebsd_tsc(const char *name)
{
	char n[8];
	size_t i;

	for (i = 0; name[i] && i < sizeof(n) - 1; i++)
		n[i] = (char)(name[i] == '.' || name[i] == '_' ? '-' : tolower((unsigned char)name[i]));
	n[i] = '\0';
	return !name[i] && (!strcmp(n, "tsc") || !strcmp(n, "tsc-tsc"));
}

static int allocate_common(struct pmc *pm, enum pmc_mode mode, uint32_t flags,
    int cpu, pmc_id_t *id, uint64_t count, int share)
{
	int rc;

	if ((rc = need_init()) < 0)
		return rc;
	/* Generic hardware events belong to the machine's counters: on a PMU
	 * whose class has fixed rows (the sim's ARMv8), to that class. */
	if ((pm->ev.pclass == PMC_CLASS_GENERIC || pm->ev.pclass == PMC_CLASS_CACHE ||
	    pm->ev.pclass == PMC_CLASS_RAW || pm->ev.pclass == PMC_CLASS_ARMV8) &&
	    pmc__class_index(pm->ev.pclass) < 0)
		for (uint32_t i = 0; i < pmc__g.m.nclass; i++)
			if (pmc__g.m.strict_rows[i]) {
				pm->ev.pclass = pmc__g.m.classes[i].pm_class;
				break;
			}
	if ((int)mode < PMC_MODE_FIRST || (int)mode > PMC_MODE_LAST) {
		pmc__set_reason("invalid mode %d (SS, SC, TS or TC)", (int)mode);
		return -EINVAL;
	}
	if (flags & ~PMC_F_ALLOCATE_MASK) {
		pmc__set_reason("unknown flags 0x%x", flags & ~PMC_F_ALLOCATE_MASK);
		return -EINVAL;
	}
	if (PMC_IS_SYSTEM_MODE(mode)) {
		if (cpu == PMC_CPU_ANY) {
			pmc__set_reason("a system-mode PMC needs a CPU number, not PMC_CPU_ANY");
			return -EINVAL;
		}
		if (flags & (PMC_F_DESCENDANTS | PMC_F_LOG_PROCCSW | PMC_F_LOG_PROCEXIT)) {
			pmc__set_reason("DESCENDANTS, LOG_PROCCSW and LOG_PROCEXIT apply "
			    "to process-mode PMCs only");
			return -EINVAL;
		}
		if (cpu < 0 || cpu >= (int)pmc__g.ci.pm_ncpu) {
			/* hwpmc: EINVAL past the last CPU, ENXIO for one offline */
			pmc__set_reason("CPU %d does not exist (this machine has CPUs 0-%u)",
			    cpu, pmc__g.ci.pm_ncpu - 1);
			return -EINVAL;
		}
		if ((rc = pmc__g.be->cpu_check(cpu)) < 0)
			return rc;
	} else if (cpu != PMC_CPU_ANY) {
		pmc__set_reason("a process-mode PMC takes PMC_CPU_ANY, not CPU %d", cpu);
		return -EINVAL;
	}
	if (PMC_IS_SAMPLING_MODE(mode) && !(pm->ev.caps & PMC_CAP_INTERRUPT)) {
		pmc__set_reason("'%s' cannot sample (no interrupt capability); count it instead",
		    pm->ev.name);
		return -EOPNOTSUPP;
	}
	if (PMC_IS_SAMPLING_MODE(mode) && (rc = check_period(count)) < 0)
		return rc;
	/* hwpmc: USERCALLCHAIN only with CALLCHAIN, and only when sampling;
	 * CALLCHAIN alone on a counting PMC is accepted and means nothing
	 * (pmcstat sets it on every event). */
	if ((flags & (PMC_F_CALLCHAIN | PMC_F_USERCALLCHAIN)) == PMC_F_USERCALLCHAIN) {
		pmc__set_reason("PMC_F_USERCALLCHAIN needs PMC_F_CALLCHAIN");
		return -EINVAL;
	}
	if ((flags & PMC_F_USERCALLCHAIN) && !PMC_IS_SAMPLING_MODE(mode)) {
		pmc__set_reason("PMC_F_USERCALLCHAIN needs a sampling PMC");
		return -EINVAL;
	}
	if (pm->ev.pclass == PMC_CLASS_TSC && is_freebsd_tsc(pm->ev.name) && mode != PMC_MODE_SC) {
		/* hwpmc's TSC class counts system-wide only */
		pmc__set_reason("the TSC counts only system-wide (mode SC), not %s",
		    pmc_name_of_mode(mode) ? pmc_name_of_mode(mode) : "?");
		return PMC_IS_SAMPLING_MODE(mode) ? -EOPNOTSUPP : -EINVAL;
	}
	if ((pm->ev.attr.exclude_kernel || pm->ev.attr.exclude_user) &&
	    !(pm->ev.caps & (PMC_CAP_USER | PMC_CAP_SYSTEM))) {
		pmc__set_reason("'%s' cannot be restricted to user or kernel mode", pm->ev.name);
		return -EOPNOTSUPP;
	}
	pm->mode = mode;
	pm->flags = flags;
	pm->cpu = PMC_IS_SYSTEM_MODE(mode) ? cpu : -1;
	pm->state = PMC_STATE_ALLOCATED;
	if (PMC_IS_SAMPLING_MODE(mode)) {
		uint64_t minc = (uint64_t)pmc__setting(PMC_SETTING_MINCOUNT);
		/* hwpmc raises a sampling rate below kern.hwpmc.mincount. */
		pm->count = count < minc ? minc : count;
		/* hwpmc: a system-mode sampling PMC needs a log from the
		 * start; a process-mode one once attached to a process other
		 * than its owner (attach_locked). */
		if (PMC_IS_SYSTEM_MODE(mode))
			pm->flags |= PMC_F_NEEDS_LOGFILE;
	} else {
		/* hwpmc keeps the count as the PMC's initial value: a system-mode
		 * PMC starts counting from it; a process-mode PMC's per-process
		 * values start at 0 and never use it. */
		pm->count = count;
		pm->offset = PMC_IS_SYSTEM_MODE(mode) ? (int64_t)count : 0;
		if (flags & (PMC_F_LOG_PROCCSW | PMC_F_LOG_PROCEXIT))
			pm->flags |= PMC_F_NEEDS_LOGFILE;
	}
	if ((rc = probe_event(pm)) < 0)
		return rc;
	if ((rc = pmc__pick_row(pm, &pm->id, share)) < 0)
		return rc;
	pm->next = pmc__g.pmcs;
	pmc__g.pmcs = pm;
	*id = pm->id;
	pmc__log_pmc_allocated(pm);
	return 0;
}

/* pmc_allocate; share: rows shared past the owner's limit (multiplexed). */
static int allocate_spec(const char *spec, enum pmc_mode mode, uint32_t flags, int cpu,
    pmc_id_t *id, uint64_t count, int share)
{
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = need_init()) < 0)
		return leave(rc);
	if (!spec || !id) {
		pmc__set_reason("no event specification given");
		return leave(-EINVAL);
	}
	pm = calloc(1, sizeof(*pm));
	if (!pm)
		return leave(-ENOMEM);
	if ((rc = pmc__event_parse(spec, &pm->ev)) < 0 ||
	    (rc = allocate_common(pm, mode, flags, cpu, id, count, share)) < 0) {
		free(pm);
		/* libpmc answers EINVAL for an event it cannot name */
		return leave(rc == -ENOENT ? -EINVAL : rc);
	}
	return leave(0);
}

int pmc_allocate(const char *spec, enum pmc_mode mode, uint32_t flags, int cpu,
    pmc_id_t *id, uint64_t count)
{
	return allocate_spec(spec, mode, flags, cpu, id, count, 0);
}

int pmc_allocate_shared(const char *spec, enum pmc_mode mode, uint32_t flags, int cpu,
    pmc_id_t *id, uint64_t count)
{
	return allocate_spec(spec, mode, flags, cpu, id, count, 1);
}

int pmc_allocate_attr(const struct perf_event_attr *attr, enum pmc_mode mode,
    uint32_t flags, int cpu, pmc_id_t *id, uint64_t count)
{
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = need_init()) < 0)
		return leave(rc);
	if (!attr || !id)
		return leave(-EINVAL);
	pm = calloc(1, sizeof(*pm));
	if (!pm)
		return leave(-ENOMEM);
	pm->ev.attr = *attr;
	pm->ev.attr.size = sizeof(pm->ev.attr);
	snprintf(pm->ev.name, sizeof(pm->ev.name), "raw/type=%u,config=0x%llx/",
	    attr->type, (unsigned long long)attr->config);
	pm->ev.pclass = attr->type == PERF_TYPE_SOFTWARE ? PMC_CLASS_SOFT : PMC_CLASS_RAW;
	pm->ev.caps = PMC_CAP_READ | PMC_CAP_WRITE | PMC_CAP_INTERRUPT |
	    PMC_CAP_USER | PMC_CAP_SYSTEM;
	pm->ev.scale = 1.0;
	pm->ev.event = PMC_EV_SOFT_FIRST + PMC_EV_DYN_COUNT - 1;
	/* a Linux extension: Linux's rules, rows shared (multiplexed) */
	if ((rc = allocate_common(pm, mode, flags, cpu, id, count, 1)) < 0) {
		free(pm);
		return leave(rc);
	}
	return leave(0);
}

/* ---- targets ----------------------------------------------------------- */

static struct pmc_target *find_target(struct pmc *pm, pid_t pid, int is_thread)
{
	for (struct pmc_target *t = pm->targets; t; t = t->next)
		if (t->pid == pid && t->is_thread == is_thread)
			return t;
	return NULL;
}

static int add_ctr(struct pmc_target *t, struct pmc_bctr *c, int cpu, pid_t tid)
{
	if (t->nctr == t->capctr) {   /* four arrays on one capacity; a few per thread */
		size_t cap = grow__cap((size_t)t->capctr, (size_t)t->nctr + 1, 8);
		struct pmc_bctr **n = realloc(t->ctr, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->ctr = n;
		int *nc = realloc(t->ctr_cpu, cap * sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		t->ctr_cpu = nc;
		pid_t *nt = realloc(t->ctr_tid, cap * sizeof(*nt));
		if (!nt)
			return -ENOMEM;
		t->ctr_tid = nt;
		struct pmc_bctr **np = realloc(t->probe, cap * sizeof(*np));
		if (!np)
			return -ENOMEM;
		t->probe = np;
		t->capctr = (int)cap;
	}
	t->ctr_cpu[t->nctr] = cpu;
	t->ctr_tid[t->nctr] = tid;
	t->probe[t->nctr] = NULL;
	t->ctr[t->nctr++] = c;
	return 0;
}

/* Group leader's counter for the same (pid, cpu) slot, if grouped. */
static struct pmc_bctr *leader_ctr(struct pmc *pm, pid_t pid, int is_thread, int slot)
{
	struct pmc_target *lt;
	if (!pm->leader)
		return NULL;
	lt = find_target(pm->leader, pid, is_thread);
	return lt && slot < lt->nctr ? lt->ctr[slot] : NULL;
}

/*
 * PMC_F_LOG_PROCCSW: a "context-switch probe" leads a group with the PMC's
 * counter: a software context-switches event sampled at every switch
 * (period 1) that reads the whole group (PERF_SAMPLE_READ), so each switch
 * of the thread records the PMC's count at that moment; the log writer
 * turns successive reads of a thread into PROCCSW records carrying the
 * count accrued while it was on a CPU.
 */
static int open_csw_probe(struct pmc *pm, pid_t tid, unsigned flags, struct pmc_bctr **out)
{
	struct perf_event_attr a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.sample_id_all = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.exclude_kernel = pm->ev.attr.exclude_kernel;
	rc = pmc__g.be->open(&a, tid, -1, NULL, flags, out);
	if (rc == -EINVAL && (flags & PMC_BOPEN_INHERIT)) {
		/* Kernels before 6.12 refuse PERF_SAMPLE_READ on inherited
		 * events: probe the attached threads only. */
		pmc__clear_reason();
		rc = pmc__g.be->open(&a, tid, -1, NULL, flags & ~PMC_BOPEN_INHERIT, out);
	}
	return rc;
}

static int open_one(struct pmc *pm, struct pmc_target *t, pid_t tid, int cpu,
    unsigned flags)
{
	struct perf_event_attr a = pm->ev.attr;
	struct pmc_bctr *c, *probe = NULL, *leader;
	int rc;

	pmc__sampling_attr(pm, &a);
	if (pm->flags & PMC_F_DESCENDANTS)
		flags |= PMC_BOPEN_INHERIT;
	if (pm->cgroup_fd && cpu >= 0) {
		tid = pm->cgroup_fd - 1;      /* perf_event_open's pid: the cgroup */
		flags |= PMC_BOPEN_CGROUP;
	}
	if (pm->flags & PMC_F_LOG_PROCEXIT)
		a.inherit_stat = 1;
	if (pm->flags & (PMC_F_LOG_PROCEXIT | PMC_F_LOG_PROCCSW) ||
	    PMC_IS_SAMPLING_MODE(pm->mode)) {
		/* Tasks and names for the log: forks, exits, execs, mappings. */
		a.task = 1;
		a.comm = 1;
		a.comm_exec = 1;
		a.mmap = 1;
		a.mmap2 = 1;
		/* MMAP2 records with the mapped file's build id (Linux >= 5.12),
		 * so a report can tell a binary that changed since the recording. */
		if (PMC_IS_SAMPLING_MODE(pm->mode))
			a.build_id = 1;
		a.sample_id_all = 1;
		a.sample_type |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		/* READ records carry the ids and times (the writer decodes
		 * them by the attr each counter was opened with). */
		a.read_format |= PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
		    PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.use_clockid = 1;
		a.clockid = CLOCK_MONOTONIC;
	}
	leader = leader_ctr(pm, t->pid, t->is_thread, t->nctr);
	if ((pm->flags & PMC_F_LOG_PROCCSW) && cpu < 0) {
		if ((rc = open_csw_probe(pm, tid, flags, &probe)) < 0)
			return rc;
		leader = probe;
	}
	/* Opened stopped (pmc_start enables it), a group member enabled
	 * (it counts while its leader does): perf's rule, for every backend. */
	a.disabled = leader ? 0 : 1;
	rc = pmc__g.be->open(&a, tid, cpu, leader, flags, &c);
	if (rc == -EINVAL && a.build_id) {
		/* A kernel before 5.12: MMAP2 records without build ids. */
		pmc__clear_reason();
		a.build_id = 0;
		rc = pmc__g.be->open(&a, tid, cpu, leader, flags, &c);
	}
	if (rc < 0) {
		if (probe)
			pmc__g.be->close(probe);
		return rc;
	}
	if ((rc = add_ctr(t, c, cpu, tid)) < 0) {
		pmc__g.be->close(c);        /* a member before its leader */
		if (probe)
			pmc__g.be->close(probe);
		return rc;
	}
	t->probe[t->nctr - 1] = probe;
	return 0;
}

/* One more thread id in *out (n of cap): 0, or -ENOMEM with *out freed. */
static int push_tid(pid_t **out, int *n, int *cap, pid_t tid)
{
	if (GROW(*out, *n, *cap) < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		return -ENOMEM;
	}
	(*out)[(*n)++] = tid;
	return 0;
}

/* Threads of a process, from /proc/PID/task. */
static int list_tasks(pid_t pid, pid_t **out, int *n)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	int cap = 0, rc = 0;

	*n = 0;
	*out = NULL;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)         /* not a Linux process (the sim's targets): the pid itself */
		return push_tid(out, n, &cap, pid);
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		if (pid == getpid() && atoi(e->d_name) == pmc__targetwatch_tid())
			continue;              /* libpmc's own watch thread */
		rc = push_tid(out, n, &cap, (pid_t)atoi(e->d_name));
	}
	closedir(d);
	if (rc == 0 && *n == 0)
		rc = push_tid(out, n, &cap, pid);
	return rc;
}

/*
 * Open the counters for a new target.  Counting PMCs follow each thread
 * (cpu -1), also those that log process exits: per-CPU task counters with
 * inherit_stat make the kernel pair up the wrong counters when it swaps
 * cloned contexts.  Sampling PMCs get one counter per thread per CPU, so
 * that every PMC on a CPU shares one ring (perf record's way).
 */
static int open_target(struct pmc *pm, struct pmc_target *t, unsigned flags)
{
	int per_cpu = PMC_IS_SAMPLING_MODE(pm->mode);
	pid_t *tids;
	int n, rc = 0;

	if (t->is_thread) {
		tids = malloc(sizeof(pid_t));
		if (!tids)
			return -ENOMEM;
		tids[0] = t->pid;
		n = 1;
	} else if ((rc = list_tasks(t->pid, &tids, &n)) < 0) {
		return rc;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		if (!per_cpu) {
			rc = open_one(pm, t, tids[i], -1, flags);
		} else {
			for (int cpu = 0; cpu < pmc__g.m.ncpu && rc == 0; cpu++) {
				if (pmc__g.be->cpu_check(cpu) < 0) {
					pmc__clear_reason();
					continue;
				}
				rc = open_one(pm, t, tids[i], cpu, flags);
			}
		}
		if (rc == -ESRCH && i > 0) {
			pmc__clear_reason();
			rc = 0;        /* a thread that exited meanwhile */
		}
	}
	free(tids);
	return rc;
}

static int live_targets(const struct pmc *pm)
{
	for (struct pmc_target *t = pm->targets; t; t = t->next)
		if (!t->exited)
			return 1;
	return 0;
}

/*
 * A member enabled while its group runs: Linux (since 6.2, where each PMU
 * has its own event context) then reschedules only the member's PMU, not
 * the group, which lives in the leader's.  A member of another PMU than
 * its leader (cpu-clock or page-faults in a task-clock group: three
 * software PMUs) stays enabled but off the CPU, counting nothing, until
 * the thread next switches out and in — zero for a short busy thread.
 * Turning the leader off and on schedules the whole group at once.
 */
static int reseat_group(struct pmc *pm, struct pmc_target *t, int slot)
{
	struct pmc_bctr *l = leader_ctr(pm, t->pid, t->is_thread, slot);
	int rc;

	if (!l || pm->leader->state != PMC_STATE_RUNNING || pmc__spawn_pending(t->pid))
		return 0;
	if ((rc = pmc__g.be->disable(l)) < 0)
		return rc;
	return pmc__g.be->enable(l);
}

/* Enable a target's counters and their context-switch probes. */
static int enable_target(struct pmc *pm, struct pmc_target *t)
{
	int rc = 0;
	for (int i = 0; i < t->nctr && rc == 0; i++) {
		rc = pmc__g.be->enable(t->ctr[i]);
		if (rc == 0 && t->probe[i])
			rc = pmc__g.be->enable(t->probe[i]);
		if (rc == 0)
			rc = reseat_group(pm, t, i);
	}
	return rc;
}

static int attach_locked(struct pmc *pm, pid_t pid, int is_thread, unsigned flags)
{
	struct pmc_target *t;
	int rc;

	if (PMC_IS_SYSTEM_MODE(pm->mode)) {
		pmc__set_reason("PMC 0x%08x is system-mode: it counts a CPU, not a process",
		    pm->id);
		return -EINVAL;
	}
	if (pid < 0) {
		pmc__set_reason("invalid process id %d", (int)pid);
		return -EINVAL;
	}
	if (pid == 0)
		pid = getpid();
	if ((t = find_target(pm, pid, is_thread)) != NULL) {
		if (t->implicit) {
			t->implicit = 0;        /* a member brought it: now it is asked for */
			return 0;
		}
		pmc__set_reason("PMC 0x%08x is already attached to %s %d", pm->id,
		    is_thread ? "thread" : "process", (int)pid);
		return -EEXIST;
	}
	if ((rc = pmc__g.be->target_check(pid)) < 0)
		return rc;
	/* A group is one unit on each target: a member attached where its
	 * leader is not yet brings the leader along (opened first, so that
	 * the member's counters join its group; counting when the leader
	 * is started), and the leader's own attach there later is a no-op. */
	if (pm->leader && !find_target(pm->leader, pid, is_thread)) {
		if ((rc = attach_locked(pm->leader, pid, is_thread, flags)) < 0)
			return rc;
		pm->leader->targets->implicit = 1;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->pid = pid;
	t->is_thread = is_thread;
	if ((rc = open_target(pm, t, flags)) < 0) {
		close_target(t);
		return rc;
	}
	/* A spawned command not yet released starts counting at its exec
	 * (its counters were opened enable-on-exec), whether the PMC runs
	 * already or starts later: enabling them now would count the
	 * launcher's own code between fork and exec as the command's. */
	if (pm->state == PMC_STATE_RUNNING && !(flags & PMC_BOPEN_ENABLE_EXEC))
		enable_target(pm, t);
	t->next = pm->targets;
	pm->targets = t;
	/* hwpmc (pmc_link_target_process, pmc_attach_one_process): a PMC
	 * on its owner is ATTACHED_TO_OWNER; a sampling PMC attached to
	 * another process while not on its owner needs a log from then on
	 * (EDOOFUS at pmc_start without one). */
	if (!is_thread && pid == getpid())
		pm->flags |= PMC_F_ATTACHED_TO_OWNER;
	else if (PMC_IS_SAMPLING_MODE(pm->mode) && !(pm->flags & PMC_F_ATTACHED_TO_OWNER))
		pm->flags |= PMC_F_NEEDS_LOGFILE;
	pm->flags |= PMC_F_ATTACH_DONE;
	pm->sigio_sent = 0;
	if (!is_thread && pid != getpid())
		pmc__targetwatch_start();       /* its exit may leave pm without targets */
	return 0;
}

/*
 * pmc_spawn_go: the command is about to exec.  Its counters were opened to
 * start at the exec (enable_on_exec), which the kernel does whatever the
 * PMC's state then: those of a PMC that is not running are opened again,
 * plainly (they have counted nothing yet), so that it starts at its
 * pmc_start.  A group's members are reopened with their leader (they
 * belonged to its old counter's group); a member runs only while its
 * leader does.
 */
int pmc__spawn_release(pid_t pid)
{
	int rc = 0;

	for (struct pmc *pm = pmc__g.pmcs; pm && rc == 0; pm = pm->next) {
		if (pm->leader || pm->state == PMC_STATE_RUNNING)
			continue;
		for (int is_thread = 0; is_thread < 2 && rc == 0; is_thread++) {
			struct pmc_target *t = find_target(pm, pid, is_thread), *mt;
			if (!t)
				continue;
			for (struct pmc *m = pmc__g.pmcs; m; m = m->next)
				if (m->leader == pm && (mt = find_target(m, pid, is_thread)))
					close_ctrs(mt);
			close_ctrs(t);
			rc = open_target(pm, t, 0);
			for (struct pmc *m = pmc__g.pmcs; m && rc == 0; m = m->next)
				if (m->leader == pm && (mt = find_target(m, pid, is_thread)))
					rc = open_target(m, mt, PMC_BOPEN_ENABLE_EXEC);
		}
	}
	return rc;
}

static int attach_api(pmc_id_t id, pid_t pid, int is_thread)
{
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) < 0)
		return leave(rc);
	/* hwpmc (PMC_OP_PMCATTACH): PMCs may be (re)attached only when
	 * allocated or stopped. */
	if (pm->state == PMC_STATE_RUNNING) {
		pmc__set_reason("PMC 0x%08x is running: stop it before attaching it", id);
		return leave(-EBUSY);
	}
	rc = attach_locked(pm, pid, is_thread, pmc__spawn_pending(pid) ?
	    PMC_BOPEN_ENABLE_EXEC : 0);
	return leave(rc);
}

int pmc_attach(pmc_id_t id, pid_t pid)        { return attach_api(id, pid, 0); }
int pmc_attach_thread(pmc_id_t id, pid_t tid) { return attach_api(id, tid, 1); }

static int detach_api(pmc_id_t id, pid_t pid, int is_thread)
{
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = lookup(id, &pm)) < 0)
		return leave(rc);
	if (PMC_IS_SYSTEM_MODE(pm->mode)) {
		pmc__set_reason("PMC 0x%08x is system-mode: it has no process to detach", id);
		return leave(-EINVAL);
	}
	if (pid < 0) {
		pmc__set_reason("invalid process id %d", (int)pid);
		return leave(-EINVAL);
	}
	if (pid == 0)
		pid = getpid();
	for (struct pmc_target **pp = &pm->targets; *pp; pp = &(*pp)->next) {
		struct pmc_target *t = *pp;
		if (t->pid != pid || t->is_thread != is_thread)
			continue;
		/* Keep what it counted: fold its value into the offset. */
		if (PMC_IS_COUNTING_MODE(pm->mode)) {
			for (int i = 0; i < t->nctr; i++) {
				struct pmc_bcount v;
				if (pmc__g.be->read(t->ctr[i], &v) == 0)
					pm->offset += (int64_t)v.value;
			}
		}
		/* hwpmc detached it when it exited (pmc_process_exit), so
		 * detaching a process that is gone finds none: ESRCH. */
		int gone = !is_thread && pid != getpid() &&
		    pmc__g.be->target_check(pid) == -ESRCH;
		if (!gone)
			pmc__log_pmc_detach(pm, t);
		*pp = t->next;
		close_target(t);
		if (!is_thread && pid == getpid())
			pm->flags &= ~PMC_F_ATTACHED_TO_OWNER;
		pmc__targets_lost(pm);          /* SIGIO if no live target is left */
		if (gone) {
			pmc__clear_reason();
			pmc__set_reason("no process %d (it exited)", (int)pid);
			return leave(-ESRCH);
		}
		return leave(0);
	}
	if (pmc__g.be->target_check(pid) == -ESRCH) {
		pmc__clear_reason();
		pmc__set_reason("no process %d", (int)pid);
		return leave(-ESRCH);
	}
	pmc__clear_reason();
	pmc__set_reason("PMC 0x%08x is not attached to %s %d", id,
	    is_thread ? "thread" : "process", (int)pid);
	return leave(-EINVAL);
}

int pmc_detach(pmc_id_t id, pid_t pid)        { return detach_api(id, pid, 0); }
int pmc_detach_thread(pmc_id_t id, pid_t tid) { return detach_api(id, tid, 1); }

/* ---- start / stop ------------------------------------------------------ */

static int for_each_ctr(struct pmc *pm, int (*fn)(struct pmc_bctr *))
{
	int rc = 0;
	for (struct pmc_target *t = pm->targets; t; t = t->next)
		for (int i = 0; i < t->nctr; i++) {
			int r = fn(t->ctr[i]);
			if (r < 0 && rc == 0)
				rc = r;
			if (t->probe[i] && (r = fn(t->probe[i])) < 0 && rc == 0)
				rc = r;
		}
	return rc;
}

/* A system-mode PMC's one target: its CPU, opened at its first start. */
static int open_system_target(struct pmc *pm)
{
	struct pmc_target *t;
	int rc;

	if (pm->targets)
		return 0;
	if (!(t = calloc(1, sizeof(*t))))
		return -ENOMEM;
	t->pid = -1;
	if ((rc = open_one(pm, t, -1, pm->cpu, 0)) < 0) {
		close_target(t);
		return rc;
	}
	pm->targets = t;
	return 0;
}

int pmc_start(pmc_id_t id)
{
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = lookup(id, &pm)) < 0)
		return leave(rc);
	if (pm->state == PMC_STATE_RUNNING)
		return leave(0);
	if ((pm->flags & PMC_F_NEEDS_LOGFILE) && !pmc__log_active()) {
		pmc__set_reason("no log file configured (pmc_configure_logfile) for PMC "
		    "0x%08x, which writes to the log", id);
		return leave(-EDOOFUS);
	}
	if (PMC_IS_SYSTEM_MODE(pm->mode)) {
		if ((rc = pmc__g.be->cpu_check(pm->cpu)) < 0)
			return leave(rc);
		/* A member started before its leader: the leader's counter is
		 * opened first (stopped), so that the member joins its group. */
		if (pm->leader && (rc = open_system_target(pm->leader)) < 0)
			return leave(rc);
		if ((rc = open_system_target(pm)) < 0)
			return leave(rc);
	} else if (pm->flags & PMC_F_ATTACH_DONE && !live_targets(pm)) {
		/* hwpmc: every target it had is gone (detached or exited) */
		pmc__set_reason("PMC 0x%08x has no target left: every process it was attached "
		    "to was detached or exited", id);
		return leave(-ESRCH);
	} else if (!pm->targets) {
		/* hwpmc: starting an unattached process PMC attaches it to the owner. */
		if ((rc = attach_locked(pm, getpid(), 0, 0)) < 0)
			return leave(rc);
	}
	if ((rc = pmc__log_pmc_started(pm)) < 0)
		return leave(rc);
	/* Counters on a spawned, not yet released target start at its exec
	 * (enable_on_exec): enabling them now would count our own exec. */
	for (struct pmc_target *t = pm->targets; t && rc == 0; t = t->next)
		if (!pmc__spawn_pending(t->pid))
			rc = enable_target(pm, t);
	if (rc == 0)
		pm->state = PMC_STATE_RUNNING;
	return leave(rc);
}

int pmc_stop(pmc_id_t id)
{
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = lookup(id, &pm)) < 0)
		return leave(rc);
	if (pm->state == PMC_STATE_STOPPED)
		return leave(0);
	if (pm->state != PMC_STATE_RUNNING) {
		pmc__set_reason("PMC 0x%08x was never started", id);
		return leave(-EINVAL);
	}
	rc = for_each_ctr(pm, pmc__g.be->disable);
	pm->state = PMC_STATE_STOPPED;
	return leave(rc);
}

/* ---- reading and writing ----------------------------------------------- */

struct rdpmc_arg {
	const struct pmc_backend_ops *be;
	struct pmc_bctr *c;
};

static uint64_t rdpmc_cb(void *arg, uint32_t idx)
{
	struct rdpmc_arg *a = arg;
	return a->be->rdpmc_read(a->c, idx);
}

/*
 * The fast path (hwpmc's RDPMC/GETMSR, Linux's self-monitoring): a
 * process-mode counting PMC on this process only, one counter, whose
 * control page lets user space read the hardware counter.  Returns 0 with
 * the reading, or -EOPNOTSUPP when the page does not allow it (software
 * events always: they have no hardware index), so the caller uses read(2).
 */
static int read_user_page(struct pmc *pm, uint64_t *raw, uint64_t *en, uint64_t *run)
{
	struct perf_event_mmap_page *pg;
	struct pmc_target *t = pm->targets;
	struct rdpmc_arg a;

	if (!t || t->next || t->nctr != 1 || t->pid != getpid() || t->ctr_cpu[0] != -1 ||
	    (pm->flags & PMC_F_DESCENDANTS) || !pmc__g.be->user_page ||
	    !pmc__g.be->rdpmc_read || pm->ev.pclass == PMC_CLASS_SOFT)
		return -EOPNOTSUPP;
	if (pmc__g.be->user_page(t->ctr[0], &pg) < 0)
		return -EOPNOTSUPP;
	if (!pg->cap_user_rdpmc || __atomic_load_n(&pg->index, __ATOMIC_RELAXED) == 0)
		return -EOPNOTSUPP;
	a.be = pmc__g.be;
	a.c = t->ctr[0];
	return pmc__userpage_read(pg, rdpmc_cb, &a, raw, en, run);
}

static int read_locked(struct pmc *pm, struct pmc_reading *r)
{
	uint64_t raw = 0, en = 0, run = 0;
	double scaled = 0;
	int any_scaled = 0, rc;

	memset(r, 0, sizeof(*r));
	/* Sampling PMCs read too (hwpmc's PMCRW allows it): the events counted. */
	if (pm->state == PMC_STATE_RUNNING && read_user_page(pm, &raw, &en, &run) == 0) {
		scaled = (double)raw;
		if (run && run < en) {
			scaled = (double)raw * (double)en / (double)run;
			any_scaled = 1;
		}
		goto done;
	}
	/*
	 * A task counted per CPU (one counter per CPU, as sampling PMCs are)
	 * is "enabled" on every CPU while it runs but "running" only on the
	 * one it is on, so per-counter scaling would be wrong.  Counters of one
	 * thread are contiguous with rising CPU numbers: for each such run,
	 * the thread's enabled time is the largest, its running time the sum.
	 */
	for (struct pmc_target *t = pm->targets; t; t = t->next) {
		uint64_t g_raw = 0, g_en = 0, g_run = 0;
		for (int i = 0; i <= t->nctr; i++) {
			int new_group = i == t->nctr || t->ctr_cpu[i] < 0 ||
			    (i > 0 && t->ctr_cpu[i] <= t->ctr_cpu[i - 1]);
			if (new_group && i > 0) {
				if (g_run > g_en)   /* children's time adds to running */
					g_en = g_run;
				raw += g_raw;
				en += g_en;
				run += g_run;
				if (g_run && g_run < g_en) {
					scaled += (double)g_raw * (double)g_en / (double)g_run;
					any_scaled = 1;
				} else {
					scaled += (double)g_raw;
				}
				g_raw = g_en = g_run = 0;
			}
			if (i == t->nctr)
				break;
			struct pmc_bcount v;
			if ((rc = pmc__g.be->read(t->ctr[i], &v)) < 0)
				return rc;
			g_raw += v.value;
			g_run += v.running;
			g_en = t->ctr_cpu[i] < 0 ? g_en + v.enabled :
			    (v.enabled > g_en ? v.enabled : g_en);
		}
	}
done:
	if (pm->ev.tick_ns) {
		/* FreeBSD's CLOCK.* count clock ticks, Linux's cpu-clock ns */
		raw /= pm->ev.tick_ns;
		scaled /= (double)pm->ev.tick_ns;
	}
	r->pm_raw = raw + (uint64_t)pm->offset;
	r->pm_value = (any_scaled ? (uint64_t)(scaled + 0.5) : raw) + (uint64_t)pm->offset;
	r->pm_enabled = en;
	r->pm_running = run;
	r->pm_scaled = any_scaled;
	return 0;
}

int pmc_read_ext(pmc_id_t id, struct pmc_reading *r)
{
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) == 0)
		rc = read_locked(pm, r);
	return leave(rc);
}

int pmc_read(pmc_id_t id, pmc_value_t *value)
{
	struct pmc_reading r;
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) == 0 && (rc = read_locked(pm, &r)) == 0)
		*value = r.pm_value;
	return leave(rc);
}

/* The kernel cannot load a counter, so a write resets it and keeps the
 * written value as an offset.  hwpmc allows it only while stopped. */
static int write_locked(struct pmc *pm, pmc_value_t v)
{
	if (pm->state == PMC_STATE_RUNNING) {
		pmc__set_reason("PMC 0x%08x is running; stop it before writing", pm->id);
		return -EBUSY;
	}
	for_each_ctr(pm, pmc__g.be->reset);
	pm->offset = (int64_t)v;
	return 0;
}

int pmc_write(pmc_id_t id, pmc_value_t v)
{
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) == 0)
		rc = write_locked(pm, v);
	return leave(rc);
}

int pmc_rw(pmc_id_t id, pmc_value_t newv, pmc_value_t *oldv)
{
	struct pmc_reading r;
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) < 0)
		return leave(rc);
	if (pm->state == PMC_STATE_RUNNING) {
		pmc__set_reason("PMC 0x%08x is running; stop it before writing", pm->id);
		return leave(-EBUSY);
	}
	if ((rc = read_locked(pm, &r)) < 0)
		return leave(rc);
	if ((rc = write_locked(pm, newv)) == 0 && oldv)
		*oldv = r.pm_value;
	return leave(rc);
}

/* Events of which perf samples every occurrence when asked: software
 * events and tracepoints (no counter to overflow, no interrupt storm). */
static int per_occurrence(const struct pmc *pm)
{
	return pm->ev.attr.type == PERF_TYPE_SOFTWARE ||
	    pm->ev.attr.type == PERF_TYPE_TRACEPOINT;
}

/* A stopped sampling PMC samples every v events: raised to
 * kern.hwpmc.mincount if clamp (pmc_set; pmc_set_period for a hardware
 * counter). */
static int set_period_locked(struct pmc *pm, uint64_t v, int clamp)
{
	uint64_t minc = (uint64_t)pmc__setting(PMC_SETTING_MINCOUNT);
	int rc;

	if ((rc = check_period(v)) < 0)
		return rc;
	pm->count = clamp && v < minc ? minc : v;
	pm->freq = 0;
	for (struct pmc_target *t = pm->targets; t; t = t->next)
		for (int i = 0; i < t->nctr; i++)
			if ((rc = pmc__g.be->set_period(t->ctr[i], pm->count)) < 0)
				return rc;
	return 0;
}

/* pmc_set (hwpmc's: every sampling period raised to mincount) and
 * pmc_set_period (perf's -c: only a hardware counter's). */
static int set_api(pmc_id_t id, pmc_value_t v, int perf)
{
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = lookup(id, &pm)) < 0)
		return leave(rc);
	if (pm->state == PMC_STATE_RUNNING) {
		pmc__set_reason("PMC 0x%08x is running; stop it before setting its %s", id,
		    perf ? "period" : "count");
		return leave(-EBUSY);
	}
	if (perf && !PMC_IS_SAMPLING_MODE(pm->mode)) {
		pmc__set_reason("PMC 0x%08x counts: a period is for a sampling PMC", id);
		return leave(-EINVAL);
	}
	if (perf && v == 0) {
		pmc__set_reason("a sampling period is at least 1");
		return leave(-EINVAL);
	}
	if (PMC_IS_SAMPLING_MODE(pm->mode))
		return leave(set_period_locked(pm, v, !(perf && per_occurrence(pm))));
	/* hwpmc's PMCSETCOUNT: the initial count, which only a system-mode
	 * PMC counts from (at its next start); process-mode values are
	 * untouched. */
	pm->count = v;
	if (!PMC_IS_SYSTEM_MODE(pm->mode))
		return leave(0);
	return leave(write_locked(pm, v));
}

int pmc_set(pmc_id_t id, pmc_value_t v)                { return set_api(id, v, 0); }
int pmc_set_period(pmc_id_t id, pmc_value_t period)    { return set_api(id, period, 1); }

/* May a setting that shapes how a PMC samples still change?  Only on a
 * sampling PMC that is neither running nor attached yet (the attributes are
 * fixed when its counters open). */
static int sampling_setting(struct pmc *pm, const char *not_sampling, const char *what)
{
	if (pm->state == PMC_STATE_RUNNING)
		return -EBUSY;
	if (!PMC_IS_SAMPLING_MODE(pm->mode)) {
		pmc__set_reason("%s", not_sampling);
		return -EINVAL;
	}
	if (pm->targets) {
		pmc__set_reason("set %s before attaching or starting", what);
		return -EBUSY;
	}
	return 0;
}

int pmc_set_frequency(pmc_id_t id, uint64_t hz)
{
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = lookup(id, &pm)) < 0 ||
	    (rc = sampling_setting(pm, "a sampling frequency needs a sampling PMC",
	    "the frequency")) < 0)
		return leave(rc);
	if (hz == 0) {
		pmc__set_reason("the sampling frequency must be positive");
		return leave(-EINVAL);
	}
	pm->freq = hz;
	return leave(0);
}

int pmc_set_user_stack(pmc_id_t id, uint32_t bytes)
{
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = lookup(id, &pm)) < 0 ||
	    (rc = sampling_setting(pm, "a user stack is copied with samples: it needs a "
	    "sampling PMC", "the user stack size")) < 0)
		return leave(rc);
	if (bytes > PMC_USER_STACK_MAX || (bytes + 7) / 8 * 8 > PMC_USER_STACK_MAX) {
		pmc__set_reason("a user stack copy is at most %d bytes", PMC_USER_STACK_MAX);
		return leave(-EINVAL);
	}
	if (bytes && !pmc__sys_user_regs_mask()) {
		pmc__set_reason("DWARF unwinding needs the user registers, and pmc does not know "
		    "this architecture's set (x86_64 and aarch64 only)");
		return leave(-EOPNOTSUPP);
	}
	pm->ustack = (bytes + 7) / 8 * 8;
	return leave(0);
}

int pmc_set_switch_log(pmc_id_t id, int on)
{
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = lookup(id, &pm)) < 0 ||
	    (rc = sampling_setting(pm, "context switches are logged by a sampling PMC",
	    "context-switch logging")) < 0)
		return leave(rc);
	pm->switches = on != 0;
	/* Off-CPU profiling wants every switch-out: the switches are the
	 * samples, so mincount (a guard against interrupt storms of counters
	 * that overflow fast) does not apply to this event. */
	if (on && pm->ev.attr.type == PERF_TYPE_SOFTWARE &&
	    pm->ev.attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES) {
		pm->count = 1;
		pm->freq = 0;
	}
	return leave(0);
}

int pmc_set_cgroup(pmc_id_t id, const char *path)
{
	struct pmc *pm;
	int rc, fd;

	ENTER();
	if ((rc = lookup(id, &pm)) < 0)
		return leave(rc);
	if (!PMC_IS_SYSTEM_MODE(pm->mode) || !path) {
		pmc__set_reason("only a system-mode PMC (one CPU) counts a cgroup");
		return leave(-EINVAL);
	}
	if (pm->targets || pm->state == PMC_STATE_RUNNING) {
		pmc__set_reason("set the cgroup before starting the PMC");
		return leave(-EBUSY);
	}
	if (strcmp(pmc__g.be->name, "linux")) {
		pmc__set_reason("the %s backend has no cgroups", pmc__g.be->name);
		return leave(-EOPNOTSUPP);
	}
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		int e = errno;
		pmc__set_reason("cannot open cgroup '%s': %s", path, strerror(e));
		return leave(-e);
	}
	if (pm->cgroup_fd)
		close(pm->cgroup_fd - 1);
	pm->cgroup_fd = fd + 1;
	return leave(0);
}

int pmc_group(pmc_id_t leader, pmc_id_t member)
{
	struct pmc *l, *m;
	int rc;

	ENTER();
	if ((rc = lookup(leader, &l)) < 0 || (rc = lookup(member, &m)) < 0)
		return leave(rc);
	if (l == m || l->leader || m->leader || m->nmembers) {
		pmc__set_reason("a group has one leader and no nested groups");
		return leave(-EINVAL);
	}
	if (l->mode != m->mode || l->cpu != m->cpu) {
		pmc__set_reason("group members must share the leader's mode and CPU");
		return leave(-EINVAL);
	}
	if (l->targets || m->targets || l->state == PMC_STATE_RUNNING) {
		pmc__set_reason("group PMCs before attaching or starting them");
		return leave(-EBUSY);
	}
	m->leader = l;
	l->nmembers++;
	return leave(0);
}

/* ---- release ------------------------------------------------------------ */

static void release_locked(struct pmc *pm)
{
	struct pmc_target *t;

	if (pm->state == PMC_STATE_RUNNING)
		for_each_ctr(pm, pmc__g.be->disable);
	/* Members close before their leader (the kernel requires nothing,
	 * but the leader's counter must outlive the members' group link). */
	for (struct pmc *o = pmc__g.pmcs; o; o = o->next)
		if (o->leader == pm) {
			o->leader = NULL;
		}
	if (pm->leader)
		pm->leader->nmembers--;
	while ((t = pm->targets) != NULL) {
		pm->targets = t->next;
		close_target(t);
	}
	for (struct pmc **pp = &pmc__g.pmcs; *pp; pp = &(*pp)->next)
		if (*pp == pm) {
			*pp = pm->next;
			break;
		}
	if (pm->cgroup_fd)
		close(pm->cgroup_fd - 1);
	free(pm);
}

int pmc_release(pmc_id_t id)
{
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) == 0)
		release_locked(pm);
	return leave(rc);
}

void pmc_fini(void)
{
	pmc__targetwatch_stop();
	LOCK();
	pmc__log_fini();
	/* Release members first so leaders close last. */
	for (int pass = 0; pass < 2; pass++)
		for (struct pmc *pm = pmc__g.pmcs, *n; pm; pm = n) {
			n = pm->next;
			if (pass == 1 || pm->leader)
				release_locked(pm);
		}
	pmc__rows_fini();
	pmc__pmu_table_reset();
	if (pmc__g.be && pmc__g.be->fini)
		pmc__g.be->fini();
	pmc__g.be = NULL;
	pmc__g.initialized = 0;
	memset(&pmc__g.stats, 0, sizeof(pmc__g.stats));
	UNLOCK();
}

/* ---- information ---------------------------------------------------------- */

const char *pmc_event_name(pmc_id_t id)
{
	struct pmc *pm;
	const char *n = NULL;
	LOCK();
	if ((pm = pmc__find(id)) != NULL)
		n = pm->ev.name;
	UNLOCK();
	return n;
}

int pmc_event_kind(pmc_id_t id, struct pmc_event_kind *k)
{
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) == 0) {
		const struct perf_event_attr *a = &pm->ev.attr;
		pmc__event_generic(&pm->ev, &k->pk_type, &k->pk_config);
		k->pk_exclude = (a->exclude_user ? PMC_KIND_EXCL_USER : 0) |
		    (a->exclude_kernel ? PMC_KIND_EXCL_KERNEL : 0) |
		    (a->exclude_hv ? PMC_KIND_EXCL_HV : 0);
	}
	return leave(rc);
}

int pmc_event_unit(pmc_id_t id, double *scale, const char **unit)
{
	struct pmc *pm;
	int rc;
	ENTER();
	if ((rc = lookup(id, &pm)) == 0) {
		*scale = pm->ev.scale;
		*unit = pm->ev.unit;
	}
	return leave(rc);
}

int pmc_get_driver_stats(struct pmc_driverstats *st)
{
	int rc;
	ENTER();
	if ((rc = need_init()) == 0) {
		pmc__log_fill_stats(&pmc__g.stats);
		*st = pmc__g.stats;
	}
	return leave(rc);
}

/*
 * hwpmc's PMCX86GETMSR: the counter's hardware index for RDPMC.  Linux
 * publishes it in the event's control page (index - 1) when the PMU lets
 * user space read it; software events have none (ENOSYS, as hwpmc says for
 * hardware without RDPMC).
 */
int pmc_get_msr(pmc_id_t id, uint32_t *msr)
{
	struct perf_event_mmap_page *pg;
	struct pmc *pm;
	int rc;

	ENTER();
	if ((rc = lookup(id, &pm)) < 0)
		return leave(rc);
	if (!PMC_IS_VIRTUAL_MODE(pm->mode) || (pm->flags & PMC_F_DESCENDANTS) ||
	    !pm->targets || pm->targets->next || pm->targets->pid != getpid() ||
	    pm->targets->nctr != 1) {
		pmc__set_reason("pmc_get_msr needs a process-mode PMC without DESCENDANTS, "
		    "attached only to its owner");
		return leave(-EINVAL);
	}
	if ((rc = pmc__g.be->user_page(pm->targets->ctr[0], &pg)) < 0)
		return leave(rc);
	if (!pg->cap_user_rdpmc || pg->index == 0) {
		pmc__set_reason("this counter cannot be read from user space (no RDPMC)");
		return leave(-ENOSYS);
	}
	*msr = pg->index - 1;
	return leave(0);
}

/* PMCADMIN: rows can be taken out of service by a privileged user. */
static int admin(int cpu, int row, int disable)
{
	int rc;
	ENTER();
	if ((rc = need_init()) < 0)
		return leave(rc);
	if (!pmc__sys_has_cap_perfmon() && geteuid() != 0) {
		pmc__set_reason("enabling or disabling PMC rows needs root");
		return leave(-EPERM);
	}
	if (cpu < 0 || cpu >= (int)pmc__g.ci.pm_ncpu) {
		pmc__set_reason("CPU %d is out of range", cpu);
		return leave(-EINVAL);
	}
	if (row < 0 || row >= (int)pmc__g.ci.pm_npmc) {
		pmc__set_reason("PMC row %d is out of range (0-%u)", row, pmc__g.ci.pm_npmc - 1);
		return leave(-EINVAL);
	}
	if ((rc = pmc__g.be->cpu_check(cpu)) < 0)
		return leave(rc);
	if (disable) {
		/* hwpmc: EBUSY for rows in use by process PMCs or a system PMC. */
		int ci = 0, r = row;
		while (ci < (int)pmc__g.m.nclass && r >= (int)pmc__g.m.classes[ci].pm_num)
			r -= (int)pmc__g.m.classes[ci++].pm_num;
		enum pmc_disp d = ci < (int)pmc__g.m.nclass ? pmc__row_use(ci, r, cpu) : PMC_DISP_FREE;
		if (d == PMC_DISP_THREAD || (d == PMC_DISP_STANDALONE && !pmc__row_disabled(cpu, row))) {
			pmc__set_reason("PMC row %d is in use by a %s PMC", row,
			    d == PMC_DISP_THREAD ? "process-mode" : "system-mode");
			return leave(-EBUSY);
		}
	}
	return leave(pmc__row_set_disabled(cpu, row, disable));
}

int pmc_enable(int cpu, int row)  { return admin(cpu, row, 0); }
int pmc_disable(int cpu, int row) { return admin(cpu, row, 1); }
