/*
 * sched.c — the simulated machine: tasks, CPUs, the scheduler and the
 * deterministic execution engine.
 *
 * Time is discrete (ns; one cycle per ns at the default 1 GHz).  Each CPU
 * has a local clock; sim__step() runs the CPU whose clock is earliest (ties:
 * an idle CPU taking a waiting task first, then the lowest CPU number)
 * until its next event: the end of a work block, the end of its time slice
 * (the tick is then a step of its own), or the exact point where a PMU
 * counter overflows.  So overflow interrupts arrive at the event that caused
 * them (no skid, unless the skid / irq_latency knobs delay them) and every
 * run of the same workload is identical.
 *
 * Within a `work` block the six quantities advance in proportion to cycles:
 * after c of C cycles, floor(N*c/C) of N events have happened.  The block's
 * totals are therefore exact whatever the step boundaries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/grow.h"
#include "backend/sim/sim.h"

struct sim sim = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

/* ARMv8 events each workload quantity drives. */
static const unsigned q_events[SIMWL_NQ][2] = {
	[SIMWL_CYCLES]        = { ARMV8_EV_CPU_CYCLES, 0xffff },
	[SIMWL_INSNS]         = { ARMV8_EV_INST_RETIRED, 0xffff },
	[SIMWL_CACHE_REFS]    = { ARMV8_EV_L1D_CACHE, 0xffff },
	[SIMWL_CACHE_MISSES]  = { ARMV8_EV_L1D_CACHE_REFILL, 0xffff },
	[SIMWL_BRANCHES]      = { ARMV8_EV_BR_RETIRED, 0xffff },
	[SIMWL_BRANCH_MISSES] = { ARMV8_EV_BR_MIS_PRED, ARMV8_EV_BR_MIS_PRED_RETIRED },
};

static uint64_t gnow;   /* monotonic global time */

/* The caller itself (pid 0): a task that exists but never runs here. */
static struct sim_task *self_task;

struct sim_task *sim__self(void)
{
	if (!self_task) {
		self_task = calloc(1, sizeof(*self_task));
		if (!self_task)
			return NULL;
		self_task->leader = self_task;
		self_task->cpu = -1;
		self_task->state = T_BLOCKED;
		self_task->live_threads = 1;
		snprintf(self_task->comm, sizeof(self_task->comm), "self");
	}
	return self_task;
}

/* The loaded workloads (freed at fini). */
static struct simwl **wls;
static int nwls, capwls;

/* ---- tasks ------------------------------------------------------------- */

struct sim_task *sim__task(pid_t tid)
{
	long i = (long)tid - SIM_PID_BASE;

	if (i < 0 || i >= sim.ntasks)
		return NULL;
	return sim.tasks[i];
}

static struct simwl *task_wl(const struct sim_task *t)
{
	return t->wl;
}

static struct sim_task *task_new(void)
{
	struct sim_task *t;

	if (GROW(sim.tasks, sim.ntasks, sim.captasks) < 0)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->tid = SIM_PID_BASE + sim.ntasks;
	t->cpu = -1;
	sim.tasks[sim.ntasks++] = t;
	return t;
}

static int rq_push(struct sim_task *t)
{
	if (sim.rq_len == sim.rq_cap) {
		int old = sim.rq_cap;

		if (GROW(sim.rq, sim.rq_len, sim.rq_cap) < 0)
			return -ENOMEM;
		/* the full ring wrapped at its old end: the rq_head entries
		 * before the head follow the old end now, so that the queue
		 * runs head, head + 1, ... in order again */
		memcpy(sim.rq + old, sim.rq, (size_t)sim.rq_head * sizeof(*sim.rq));
	}
	sim.rq[(sim.rq_head + sim.rq_len) % sim.rq_cap] = t;
	sim.rq_len++;
	t->state = T_RUNNABLE;
	return 0;
}

static struct sim_task *rq_pop(void)
{
	struct sim_task *t;

	if (!sim.rq_len)
		return NULL;
	t = sim.rq[sim.rq_head];
	sim.rq_head = (sim.rq_head + 1) % sim.rq_cap;
	sim.rq_len--;
	return t;
}

static void make_runnable(struct sim_task *t, uint64_t at)
{
	t->ready_at = at;
	if (rq_push(t))
		t->state = T_BLOCKED;   /* out of memory: never runs again */
}

/* ---- machine ------------------------------------------------------------ */

int sim__machine_init(const struct sim_config *cfg)
{
	sim__machine_fini();
	sim.cfg = *cfg;
	for (int i = 0; i < cfg->ncpu; i++) {
		struct sim_cpu *c = &sim.cpus[i];

		memset(c, 0, sizeof(*c));
		c->id = i;
		pmuv3__init(&c->pmu, &cfg->pmu);
		sim__drv_reset(c);
		c->idle = 1;
		c->irq_at = UINT64_MAX;
	}
	sim.next_id = 1;
	gnow = 0;
	sim.inited = 1;
	return 0;
}

void sim__machine_fini(void)
{
	while (sim.events)
		sim__ev_close(sim.events);
	for (int i = 0; i < sim.ntasks; i++) {
		free(sim.tasks[i]->atts);
		free(sim.tasks[i]);
	}
	free(sim.tasks);
	sim.tasks = NULL;
	if (self_task) {
		free(self_task->atts);
		free(self_task);
		self_task = NULL;
	}
	sim.ntasks = sim.captasks = 0;
	free(sim.rq);
	sim.rq = NULL;
	sim.rq_len = sim.rq_cap = sim.rq_head = 0;
	for (int i = 0; i < SIM_MAX_CPUS; i++)
		free(sim.cpus[i].catts);
	memset(sim.cpus, 0, sizeof(sim.cpus));
	for (int i = 0; i < nwls; i++)
		simwl__free(wls[i]);
	free(wls);
	wls = NULL;
	nwls = capwls = 0;
	sim.wl = NULL;
	sim.inited = 0;
	sim.steps = 0;
}


/* Earliest time CPU c could run something; UINT64_MAX if nothing. */
static uint64_t cpu_next(const struct sim_cpu *c)
{
	if (c->cur)
		return c->now;
	if (sim.rq_len) {
		uint64_t r = sim.rq[sim.rq_head]->ready_at;

		return r > c->now ? r : c->now;
	}
	return UINT64_MAX;
}

uint64_t sim__now(void)
{
	uint64_t best = UINT64_MAX, mx = 0;

	for (int i = 0; i < sim.cfg.ncpu; i++) {
		uint64_t t = cpu_next(&sim.cpus[i]);

		if (t < best)
			best = t;
		if (sim.cpus[i].now > mx)
			mx = sim.cpus[i].now;
	}
	if (best == UINT64_MAX)
		best = mx;
	if (best > gnow)
		gnow = best;
	return gnow;
}

int sim__runnable(void)
{
	for (int i = 0; i < sim.cfg.ncpu; i++)
		if (sim.cpus[i].cur)
			return 1;
	return sim.rq_len > 0;
}

/* ---- context switches ----------------------------------------------------- */

static void switch_in(struct sim_cpu *c, struct sim_task *t)
{
	if (t->ready_at > c->now)
		c->now = t->ready_at;
	if (t->cpu >= 0 && t->cpu != c->id)
		sim__sw_event(t, c->id, PERF_COUNT_SW_CPU_MIGRATIONS, 1);
	t->cpu = c->id;
	t->state = T_RUNNING;
	c->cur = t;
	c->idle = 0;
	c->slice_end = c->now + sim.cfg.slice_ns;
	sim__resched(c);
}

/* counted: a context switch the task's counters see (not its exit) */
static void switch_out(struct sim_cpu *c, int counted)
{
	struct sim_task *t = c->cur;

	if (t && counted)
		sim__sw_event(t, c->id, PERF_COUNT_SW_CONTEXT_SWITCHES, 1);
	sim__sched_out(c);
	c->cur = NULL;
	sim__sched_in(c);         /* CPU-bound counters keep counting */
}

static void pick_next(struct sim_cpu *c)
{
	struct sim_task *t = rq_pop();

	if (t)
		switch_in(c, t);
	else
		c->idle = 1;
}

/* ---- task lifecycle ------------------------------------------------------ */

static struct sim_task *create_task(struct sim_cpu *c, struct sim_task *parent,
				    int is_fork, int target)
{
	struct simwl *w = task_wl(parent);
	struct sim_task *t = task_new();

	if (!t)
		return NULL;
	t->parent = parent;
	t->wl = parent->wl;
	if (is_fork) {
		t->pid = t->tid;
		t->leader = t;
		t->ppid = parent->pid;
		t->proc = target;
		t->stack[0].func = w->procs[target].entry;
		snprintf(t->comm, sizeof(t->comm), "%s", w->procs[target].comm);
		t->live_threads = 1;
		parent->leader->live_children++;
	} else {
		t->pid = parent->pid;
		t->leader = parent->leader;
		t->ppid = parent->ppid;
		t->proc = parent->proc;
		t->stack[0].func = target;
		memcpy(t->comm, parent->comm, sizeof(t->comm));
		t->leader->live_threads++;
	}
	t->depth = 1;
	sim__task_attach_inherited(parent, t);
	sim__out_fork(t, 0);
	if (is_fork) {
		/* the child runs another program: as fork + exec */
		sim__out_comm(t, 1);
		sim__out_mmap(t);
	}
	make_runnable(t, c->now);
	return t;
}

static void wake_waiters(struct sim_task *proc, uint64_t now)
{
	for (int i = 0; i < sim.ntasks; i++) {
		struct sim_task *t = sim.tasks[i];

		if (t->state == T_BLOCKED && t->pid == proc->pid && t->leader->waiting) {
			make_runnable(t, now);
		}
	}
	proc->waiting = 0;
}

static void exit_task(struct sim_cpu *c, struct sim_task *t)
{
	struct sim_task *ld = t->leader;

	sim__task_exit(t);
	t->state = T_DEAD;
	if (--ld->live_threads == 0) {
		struct simwl *w = task_wl(t);

		ld->exited = 1;
		ld->exit_code = w->procs[ld->proc].exit_code;
		if (ld->parent && !ld->parent->leader->exited) {
			struct sim_task *pp = ld->parent->leader;

			if (--pp->live_children == 0 && pp->waiting)
				wake_waiters(pp, c->now);
		}
		pthread_cond_broadcast(&sim.cond);
	}
}

/*
 * Run a task's zero-time operations (calls, returns, thread/fork, wait)
 * until it stands at work.  Returns 0 at work, 1 if it blocked, 2 if it
 * returned from its first function (the thread ends).
 */
static int exec_ops(struct sim_cpu *c, struct sim_task *t)
{
	struct simwl *w = task_wl(t);

	for (int guard = 0; guard < 100000; guard++) {
		struct sim_frame *f;
		const struct simwl_func *fn;
		const struct simwl_op *op;

		if (t->depth == 0)
			return 2;
		f = &t->stack[t->depth - 1];
		fn = &w->funcs[f->func];
		if (f->op >= fn->nops) {            /* return */
			t->depth--;
			if (t->depth > 0) {
				struct sim_frame *cf = &t->stack[t->depth - 1];

				if (--cf->rep == 0)
					cf->op++;
			}
			continue;
		}
		op = &fn->ops[f->op];
		switch (op->kind) {
		case SIMWL_WORK:
			return 0;
		case SIMWL_CALL:
			if (op->count == 0) {
				f->op++;
				break;
			}
			if (f->rep == 0)
				f->rep = op->count;
			if (t->depth >= SIMWL_MAX_DEPTH) {  /* parser prevents this */
				f->op++;
				f->rep = 0;
				break;
			}
			memset(&t->stack[t->depth], 0, sizeof(t->stack[0]));
			t->stack[t->depth].func = op->target;
			t->depth++;
			break;
		case SIMWL_THREAD:
		case SIMWL_FORK:
			for (uint64_t i = 0; i < op->count; i++)
				if (!create_task(c, t, op->kind == SIMWL_FORK, op->target))
					break;
			f->op++;
			break;
		case SIMWL_WAIT:
			if (t->leader->live_children > 0) {
				t->leader->waiting = 1;
				t->state = T_BLOCKED;
				return 1;
			}
			f->op++;
			break;
		}
	}
	return 0;
}

/* ---- work ------------------------------------------------------------------ */

static uint64_t cum(uint64_t n, uint64_t c, uint64_t C)
{
	return (uint64_t)(((unsigned __int128)n * c) / C);
}

/* Smallest c' > p with cum(n, c', C) >= cum(n, p, C) + need, or UINT64_MAX. */
static uint64_t cycles_for(uint64_t n, uint64_t p, uint64_t C, uint64_t need)
{
	unsigned __int128 target = (unsigned __int128)cum(n, p, C) + need, c;

	if (!n || target > n)
		return UINT64_MAX;
	c = (target * C + n - 1) / n;
	if (c <= p)
		c = p + 1;
	return (uint64_t)c;
}

uint64_t sim__task_ip(struct sim_task *t, int *el)
{
	struct simwl *w = task_wl(t);
	const struct sim_frame *f;
	const struct simwl_op *op;

	*el = 0;
	if (!t || t->depth == 0)
		return 0;
	f = &t->stack[t->depth - 1];
	op = &w->funcs[f->func].ops[f->op < w->funcs[f->func].nops ? f->op : 0];
	if (op->kind == SIMWL_WORK && op->kernel) {
		*el = 1;
		return SIMWL_KERNEL_IP;
	}
	return simwl__op_addr(w, f->func, f->op) +
	       (op->kind == SIMWL_WORK ? 4 * ((f->progress * 15) / op->q[SIMWL_CYCLES]) : 0);
}

int sim__task_callchain(struct sim_task *t, uint64_t *ips, int max, int el)
{
	struct simwl *w = task_wl(t);
	int n = 0, uel;
	uint64_t ip;

	if (!t || t->depth == 0 || max < 2)
		return 0;
	ip = sim__task_ip(t, &uel);
	if (uel) {
		ips[n++] = PERF_CONTEXT_KERNEL;
		ips[n++] = ip;
		/* the user pc is the "svc" at the work op */
		ip = simwl__op_addr(w, t->stack[t->depth - 1].func, t->stack[t->depth - 1].op);
	}
	(void)el;
	if (n + 2 > max)
		return n;
	ips[n++] = PERF_CONTEXT_USER;
	ips[n++] = ip;
	for (int d = t->depth - 2; d >= 0 && n < max; d--)
		ips[n++] = simwl__op_addr(w, t->stack[d].func, t->stack[d].op) + 4;
	return n;
}

/*
 * The scheduler tick at the end of a slice: perf's tick work first
 * (frequency retuning, unthrottling, multiplexing rotation of the CPU's and
 * the running task's contexts — perf_event_task_tick and the mux timer),
 * then preemption if a task is waiting.
 */
static void tick(struct sim_cpu *c)
{
	c->slice_end = c->now + sim.cfg.slice_ns;
	sim__ev_tick(c);
	if (c->cur && sim.rq_len) {
		struct sim_task *t = c->cur;

		switch_out(c, 1);
		make_runnable(t, c->now);
		pick_next(c);
	}
}

/* The overflow interrupt: the handler runs for irq_cost ns of CPU time
 * (the PMU stopped, so nothing counts; the task does not progress). */
static void take_irq(struct sim_cpu *c)
{
	c->irq_at = UINT64_MAX;
	if (pmuv3__irq_line(&c->pmu)) {
		sim__drv_irq(c);
		c->now += sim.cfg.irq_cost;
	}
}

/* With interrupt latency or skid the line is raised now and the handler
 * runs later: after irq_latency cycles and skid more instructions. */
static void raise_irq(struct sim_cpu *c)
{
	if (!pmuv3__irq_line(&c->pmu))
		return;
	if (!sim.cfg.irq_latency && !sim.cfg.skid) {
		take_irq(c);
		return;
	}
	if (c->irq_at == UINT64_MAX) {
		c->irq_at = c->now + sim.cfg.irq_latency;
		c->irq_insns = sim.cfg.skid;
	}
}

/* The spawned child's exec: enable-on-exec counters start, the side band
 * tells the new name and mappings. */
static void exec_task(struct sim_task *t)
{
	sim__task_exec(t);
	sim__out_comm(t, 1);
	sim__out_mmap(t);
}

/* Run c's current task for one step. */
static void run_step(struct sim_cpu *c)
{
	struct sim_task *t = c->cur;
	struct simwl *w = task_wl(t);
	struct sim_frame *f;
	static struct simwl_op launch_op = { .kind = SIMWL_WORK };
	const struct simwl_op *op;
	uint64_t C, p, s, *progress;
	int el;

	/* a pending interrupt whose line dropped (the counter was stopped or
	 * its flag cleared: switch-out, read, disable) is gone */
	if (c->irq_at != UINT64_MAX && !pmuv3__irq_line(&c->pmu))
		c->irq_at = UINT64_MAX;
	if (c->irq_at != UINT64_MAX && c->now >= c->irq_at && !c->irq_insns) {
		take_irq(c);
		return;
	}
	/* the tick is a step of its own, taken when this CPU's clock is the
	 * earliest: CPUs behind it run (and pick up waiting tasks) first */
	if (c->now >= c->slice_end) {
		tick(c);
		return;
	}
	switch (t->launching ? 0 : exec_ops(c, t)) {
	case 0:
		break;
	case 2:
		switch_out(c, 0);
		exit_task(c, t);
		pick_next(c);
		return;
	default:
		switch_out(c, 1);
		pick_next(c);
		return;
	}
	f = &t->stack[t->depth - 1];
	if (t->launching) {
		/* the launcher's code between release and exec: a block of
		 * sim.cfg.launch instructions at one per cycle, in user mode */
		launch_op.q[SIMWL_INSNS] = launch_op.q[SIMWL_CYCLES] = sim.cfg.launch;
		op = &launch_op;
		progress = &t->launch_progress;
	} else {
		op = &w->funcs[f->func].ops[f->op];
		progress = &f->progress;
	}
	C = op->q[SIMWL_CYCLES];
	p = *progress;
	el = op->kernel ? 1 : 0;
	s = C - p;
	if (c->slice_end - c->now < s)
		s = c->slice_end - c->now;
	if (c->irq_at != UINT64_MAX) {
		if (c->irq_at > c->now && c->irq_at - c->now < s)
			s = c->irq_at - c->now;
		if (c->irq_insns) {
			uint64_t cc = cycles_for(op->q[SIMWL_INSNS], p, C, c->irq_insns);

			if (cc != UINT64_MAX && cc - p < s)
				s = cc - p;
		}
	}
	for (int k = 0; k < SIMWL_NQ && s; k++) {
		for (int j = 0; j < 2; j++) {
			uint64_t need, cc;

			if (q_events[k][j] == 0xffff)
				continue;
			need = pmuv3__events_to_overflow(&c->pmu, q_events[k][j], el);
			if (need == UINT64_MAX)
				continue;
			cc = cycles_for(op->q[k], p, C, need);
			if (cc != UINT64_MAX && cc - p < s)
				s = cc - p;
		}
	}
	if (s) {
		for (int k = 0; k < SIMWL_NQ; k++) {
			uint64_t d = cum(op->q[k], p + s, C) - cum(op->q[k], p, C);

			if (!d)
				continue;
			t->q_done[k] += d;
			if (k == SIMWL_INSNS && c->irq_at != UINT64_MAX)
				c->irq_insns -= d < c->irq_insns ? d : c->irq_insns;
			for (int j = 0; j < 2; j++)
				if (q_events[k][j] != 0xffff)
					pmuv3__count(&c->pmu, q_events[k][j], d, el);
		}
		c->now += s;
		t->cpu_ns += s;
		*progress += s;
		raise_irq(c);          /* the pc is still in this block */
		if (*progress == C && t->launching) {
			t->launching = 0;
			exec_task(t);
		} else if (*progress == C) {
			f->progress = 0;
			f->op++;
		}
	}
}

/*
 * One step: the CPU whose clock is earliest acts; at equal clocks an idle
 * CPU taking a waiting task goes before a busy one (so a CPU's tick never
 * takes back a task an idle CPU could have run at that time), then the
 * lowest number.
 */
int sim__step(void)
{
	struct sim_cpu *best = NULL;
	uint64_t bt = UINT64_MAX;
	int bbusy = 1;

	for (int i = 0; i < sim.cfg.ncpu; i++) {
		uint64_t t = cpu_next(&sim.cpus[i]);
		int busy = sim.cpus[i].cur != NULL;

		if (t == UINT64_MAX)
			continue;
		if (t < bt || (t == bt && busy < bbusy)) {
			bt = t;
			bbusy = busy;
			best = &sim.cpus[i];
		}
	}
	if (!best)
		return 1;
	sim.steps++;
	if (!best->cur) {
		sim__cpu_idle_ticks(best, bt);
		if (best->now < bt)
			best->now = bt;
		pick_next(best);
		return 0;
	}
	run_step(best);
	return 0;
}

void sim__cpu_inject(int cpu, unsigned evt, uint64_t n, int el)
{
	struct sim_cpu *c = &sim.cpus[cpu];

	for (int guard = 0; n && guard < 1000000; guard++) {
		uint64_t k = pmuv3__events_to_overflow(&c->pmu, evt, el);

		if (k > n)
			k = n;
		pmuv3__count(&c->pmu, evt, k, el);
		n -= k;
		if (pmuv3__irq_line(&c->pmu))
			sim__drv_irq(c);
	}
}

/* ---- spawning ------------------------------------------------------------- */

int sim__spawn(const char *path, pid_t *pid)
{
	struct simwl *w;
	struct sim_task *t;
	int rc;

	rc = simwl__load(path, &w);
	if (rc)
		return rc;
	if ((rc = simwl__write_image(w)) != 0) {
		simwl__free(w);
		return rc;
	}
	if (GROW(wls, nwls, capwls) < 0) {
		simwl__free(w);
		return -ENOMEM;
	}
	wls[nwls++] = w;
	sim.wl = w;
	t = task_new();
	if (!t)
		return -ENOMEM;
	t->pid = t->tid;
	t->wl = w;
	t->leader = t;
	t->ppid = 1;
	t->proc = 0;
	t->depth = 1;
	t->stack[0].func = w->procs[0].entry;
	snprintf(t->comm, sizeof(t->comm), "%s", w->procs[0].comm);
	t->live_threads = 1;
	t->state = T_EMBRYO;
	*pid = t->pid;
	return 0;
}

int sim__spawn_go(pid_t pid)
{
	struct sim_task *t = sim__task(pid);

	if (!t || t->leader != t) {
		pmc__set_reason("sim: no simulated process %d", (int)pid);
		return -ESRCH;
	}
	if (t->state != T_EMBRYO) {
		pmc__set_reason("sim: process %d was already started", (int)pid);
		return -EBUSY;
	}
	t->cpu = -1;
	if (sim.cfg.launch)
		t->launching = 1;    /* exec_task when the launcher's work is done */
	else
		exec_task(t);
	make_runnable(t, sim__now());
	pthread_cond_broadcast(&sim.cond);
	return 0;
}
