/*
 * linux.c — the Linux backend: perf_event_open(2), ioctl(2), read(2) and the
 * mmap ring buffers.  It translates the kernel's errors into hwpmc's and
 * says why (pmc__set_reason), because a bare "Permission denied" from
 * perf_event_open is the most common reason people give up on profiling.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/linux/machine.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/sysinfo.h"
#include "common/userpage.h"

struct pmc_bctr {
	int fd;
	pid_t pid;
	int cpu;
	struct perf_event_attr attr;
	void *map;              /* ring or control page, NULL if none */
	size_t map_len;
};

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
    int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int linux_cpu_check(int cpu)
{
	int on = pmc__sys_cpu_online(cpu);
	if (on < 0) {
		pmc__set_reason("CPU %d does not exist (this machine has CPUs 0-%d)",
		    cpu, pmc__sys_ncpu() - 1);
		return -ENXIO;
	}
	if (on == 0) {
		pmc__set_reason("CPU %d is offline", cpu);
		return -ENXIO;
	}
	return 0;
}

static int linux_target_check(pid_t pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if (pid <= 0 || stat(path, &st) < 0) {
		pmc__set_reason("no process or thread with id %d", (int)pid);
		return -ESRCH;
	}
	if (kill(pid, 0) < 0 && errno == ESRCH) {
		pmc__set_reason("no process or thread with id %d", (int)pid);
		return -ESRCH;
	}
	/* The kernel applies ptrace access rules at open; report them early
	 * for other users' processes so the message names the real cause. */
	if (geteuid() != 0 && st.st_uid != geteuid() && !pmc__sys_has_cap_perfmon()) {
		pmc__set_reason("process %d belongs to another user; attaching needs "
		    "ptrace access (root or CAP_PERFMON/CAP_SYS_PTRACE)", (int)pid);
		return -EPERM;
	}
	return 0;
}

/* Why perf_event_open failed, in hwpmc's errno and in words. */
static int open_error(int err, const struct perf_event_attr *a, pid_t pid, int cpu)
{
	int paranoid = pmc__sys_paranoid();

	switch (err) {
	case EACCES:
	case EPERM:
		if (pid == -1)
			pmc__set_reason("kernel.perf_event_paranoid=%d forbids system-wide "
			    "counting without root or CAP_PERFMON", paranoid);
		else if (!a->exclude_kernel && paranoid >= 2)
			pmc__set_reason("kernel.perf_event_paranoid=%d forbids counting kernel "
			    "events without root or CAP_PERFMON; count user space only (':u') "
			    "or set kernel.perf_event_paranoid to 1 or lower", paranoid);
		else
			pmc__set_reason("not permitted to monitor process %d (ptrace access "
			    "rules; kernel.perf_event_paranoid=%d)", (int)pid, paranoid);
		return -EPERM;
	case ESRCH:
		pmc__set_reason("no process or thread with id %d", (int)pid);
		return -ESRCH;
	case ENODEV:
	case ENXIO:
		if (cpu >= 0) {
			pmc__set_reason("CPU %d does not exist or is offline", cpu);
			return -ENXIO;
		}
		/* fall through */
	case ENOENT:
	case EOPNOTSUPP:
		if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
		    a->type == PERF_TYPE_RAW) {
			if (!pmc__sys_has_hw_pmu()) {
				return pmc__err_cause(-EINVAL, PMC_CAUSE_NO_PMU, "this machine "
				    "has no hardware PMU (software events only); try cpu-clock "
				    "or task-clock");
			}
			if (err == EOPNOTSUPP && a->sample_period)
				return pmc__err_cause(-EOPNOTSUPP, PMC_CAUSE_UNSUPPORTED,
				    "the PMU cannot sample this event (no overflow interrupt)");
			return pmc__err_cause(-EINVAL, PMC_CAUSE_UNSUPPORTED,
			    "the hardware PMU does not support this event");
		}
		if (err == EOPNOTSUPP && a->sample_period)
			return pmc__err_cause(-EOPNOTSUPP, PMC_CAUSE_UNSUPPORTED,
			    "this event cannot be sampled, only counted");
		return pmc__err_cause(-EINVAL, PMC_CAUSE_UNSUPPORTED,
		    "the kernel does not support this event here");
	case EMFILE:
		pmc__set_reason("too many open files (raise 'ulimit -n')");
		return -EMFILE;
	case EINVAL:
		if (a->precise_ip)
			return pmc__err_cause(-EINVAL, PMC_CAUSE_UNSUPPORTED,
			    "the PMU does not support this precision (:p)");
		if (a->sample_period && a->freq)
			pmc__set_reason("sampling frequency above "
			    "kernel.perf_event_max_sample_rate");
		else
			pmc__set_reason("the kernel rejected the event's attributes");
		return -EINVAL;
	case EBUSY:
		pmc__set_reason("the counter is in exclusive use by another program");
		return -EBUSY;
	default:
		pmc__set_reason("perf_event_open: %s", strerror(err));
		return -err;
	}
}

static int linux_open(const struct perf_event_attr *attr, pid_t pid, int cpu,
    struct pmc_bctr *leader, unsigned flags, struct pmc_bctr **out)
{
	struct pmc_bctr *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->attr = *attr;
	c->attr.size = sizeof(c->attr);
	c->attr.disabled = leader ? 0 : 1;
	c->attr.read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED |
	    PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (flags & PMC_BOPEN_INHERIT)
		c->attr.inherit = 1;
	if (flags & PMC_BOPEN_ENABLE_EXEC) {
		c->attr.disabled = leader ? 0 : 1;
		c->attr.enable_on_exec = 1;
	}
	c->pid = pid;
	c->cpu = cpu;
	/* a sampling counter's lost records, read when its ring closes (the
	 * kernel writes its LOST record only once the ring has room again);
	 * kernels before 6.0 refuse the bit: opened again without it */
	if (c->attr.sample_period && !(c->attr.read_format & PERF_FORMAT_GROUP))
		c->attr.read_format |= PERF_FORMAT_LOST;
	unsigned long oflags = PERF_FLAG_FD_CLOEXEC |
	    ((flags & PMC_BOPEN_CGROUP) ? PERF_FLAG_PID_CGROUP : 0);
	c->fd = sys_perf_event_open(&c->attr, pid, cpu, leader ? leader->fd : -1, oflags);
	if (c->fd < 0 && errno == EINVAL && (c->attr.read_format & PERF_FORMAT_LOST) &&
	    !(attr->read_format & PERF_FORMAT_LOST)) {
		c->attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		c->fd = sys_perf_event_open(&c->attr, pid, cpu, leader ? leader->fd : -1, oflags);
	}
	if (c->fd < 0) {
		int e = errno;
		int rc = open_error(e, &c->attr, pid, cpu);
		free(c);
		return rc;
	}
	*out = c;
	return 0;
}

static void linux_close(struct pmc_bctr *c)
{
	if (!c)
		return;
	if (c->map)
		munmap(c->map, c->map_len);
	close(c->fd);
	free(c);
}

static int do_ioctl(struct pmc_bctr *c, unsigned long req, unsigned long arg)
{
	if (ioctl(c->fd, req, arg) < 0) {
		int e = errno;
		pmc__set_reason("perf event ioctl: %s", strerror(e));
		return -e;
	}
	return 0;
}

static int linux_enable(struct pmc_bctr *c)  { return do_ioctl(c, PERF_EVENT_IOC_ENABLE, 0); }
static int linux_disable(struct pmc_bctr *c) { return do_ioctl(c, PERF_EVENT_IOC_DISABLE, 0); }
static int linux_reset(struct pmc_bctr *c)   { return do_ioctl(c, PERF_EVENT_IOC_RESET, 0); }

static int linux_read(struct pmc_bctr *c, struct pmc_bcount *v)
{
	uint64_t buf[8];
	ssize_t n = read(c->fd, buf, sizeof(buf));
	uint64_t rf = c->attr.read_format;

	if (n < 0) {
		int e = errno;
		pmc__set_reason("reading the counter: %s", strerror(e));
		return -e;
	}
	if (n < 3 * (ssize_t)sizeof(uint64_t)) {
		pmc__set_reason("short read from the kernel (%zd bytes)", n);
		return -EIO;
	}
	v->value = buf[0];
	v->enabled = buf[1];
	v->running = buf[2];
	/* value, enabled, running (always asked), [id], [lost] */
	v->lost = 0;
	if ((rf & PERF_FORMAT_LOST) && !(rf & PERF_FORMAT_GROUP)) {
		ssize_t at = 3 + !!(rf & PERF_FORMAT_ID);
		if (n >= (at + 1) * (ssize_t)sizeof(uint64_t))
			v->lost = buf[at];
	}
	return 0;
}

static int linux_set_period(struct pmc_bctr *c, uint64_t period)
{
	return do_ioctl(c, PERF_EVENT_IOC_PERIOD, (unsigned long)&period);
}

static int linux_id(struct pmc_bctr *c, uint64_t *id)
{
	return do_ioctl(c, PERF_EVENT_IOC_ID, (unsigned long)id);
}

static const struct perf_event_attr *linux_attr(const struct pmc_bctr *c)
{
	return &c->attr;
}

static int linux_ring_map(struct pmc_bctr *c, size_t data_pages,
    struct perf_event_mmap_page **page)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (1 + data_pages) * psz;
	void *m;

	if (data_pages & (data_pages - 1)) {
		pmc__set_reason("ring size must be a power of two pages");
		return -EINVAL;
	}
	if (c->map)
		munmap(c->map, c->map_len);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (m == MAP_FAILED) {
		int e = errno;
		if (e == EPERM)
			pmc__set_reason("cannot map %zu KB of ring buffer: over the "
			    "perf_event_mlock_kb limit", len / 1024);
		else
			pmc__set_reason("mmap of the ring buffer: %s", strerror(e));
		c->map = NULL;
		return -e;
	}
	c->map = m;
	c->map_len = len;
	*page = m;
	return 0;
}

static void linux_ring_unmap(struct pmc_bctr *c)
{
	if (c->map) {
		munmap(c->map, c->map_len);
		c->map = NULL;
	}
}

static int linux_ring_redirect(struct pmc_bctr *c, struct pmc_bctr *to)
{
	return do_ioctl(c, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)to->fd);
}

static int linux_ring_wait(struct pmc_bctr **cs, int n, int timeout_ms)
{
	struct pollfd pfd[256];
	int rc;

	if (n > 256)
		n = 256;
	for (int i = 0; i < n; i++) {
		pfd[i].fd = cs[i]->fd;
		pfd[i].events = POLLIN;
		pfd[i].revents = 0;
	}
	rc = poll(pfd, (nfds_t)n, timeout_ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	return rc;
}

static int linux_user_page(struct pmc_bctr *c, struct perf_event_mmap_page **page)
{
	if (!c->map) {
		size_t psz = (size_t)sysconf(_SC_PAGESIZE);
		void *m = mmap(NULL, psz, PROT_READ, MAP_SHARED, c->fd, 0);
		if (m == MAP_FAILED)
			return -errno;
		c->map = m;
		c->map_len = psz;
	}
	*page = c->map;
	return 0;
}

/*
 * Hardware counter idx (page->index - 1) or, for PMC_USERPAGE_TIMER, the
 * time counter the page's time_mult/shift refer to (the TSC on x86).  Only
 * called when the page advertises cap_user_rdpmc / cap_user_time.
 */
static uint64_t linux_rdpmc_read(struct pmc_bctr *c, uint32_t idx)
{
	(void)c;
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;
	if (idx == PMC_USERPAGE_TIMER)
		__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	else
		__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
	uint64_t v = 0;
	if (idx == PMC_USERPAGE_TIMER)
		__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
	else if (idx == 31)
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
	else {
		__asm__ volatile("msr pmselr_el0, %0; isb" : : "r"((uint64_t)idx));
		__asm__ volatile("mrs %0, pmxevcntr_el0" : "=r"(v));
	}
	return v;
#else
	(void)idx;
	return 0;
#endif
}

/*
 * Spawned targets wait on a pipe before exec: the parent attaches counters
 * with enable_on_exec, then closes the pipe.  The child reports an exec
 * failure through a second, close-on-exec pipe so "command not found" is an
 * error in the tool, not a silent exit status 127.
 */
static struct spawned *find_spawned(pid_t pid, int unlink);

static int linux_spawn_kill(pid_t pid, int sig)
{
	if (!find_spawned(pid, 0)) {
		pmc__set_reason("process %d was not started by libpmc", (int)pid);
		return -ESRCH;
	}
	return kill(pid, sig) < 0 ? -errno : 0;
}

static uint64_t linux_now_ms(void)
{
	return pmc__mono_ns() / 1000000u;
}

struct spawned {
	pid_t pid;
	int go_fd;
	int err_fd;
	struct spawned *next;
};
static struct spawned *spawned_list;

static int linux_spawn(char *const argv[], pid_t *out)
{
	int go[2], er[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(er, O_CLOEXEC) < 0) {
		close(go[0]); close(go[1]);
		return -errno;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(go[0]); close(go[1]); close(er[0]); close(er[1]);
		pmc__set_reason("fork: %s", strerror(e));
		return -e;
	}
	if (pid == 0) {
		char c;
		close(go[1]);
		close(er[0]);
		/* Wait until the parent says go (or dies: EOF with no byte). */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		close(go[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		int e = errno;
		if (write(er[1], &e, sizeof(e)) < 0) { /* nothing more to do */ }
		_exit(127);
	}
	close(go[0]);
	close(er[1]);
	struct spawned *s = calloc(1, sizeof(*s));
	if (!s) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(go[1]); close(er[0]);
		return -ENOMEM;
	}
	s->pid = pid;
	s->go_fd = go[1];
	s->err_fd = er[0];
	s->next = spawned_list;
	spawned_list = s;
	*out = pid;
	return 0;
}

static struct spawned *find_spawned(pid_t pid, int unlink)
{
	for (struct spawned **pp = &spawned_list; *pp; pp = &(*pp)->next) {
		if ((*pp)->pid == pid) {
			struct spawned *s = *pp;
			if (unlink)
				*pp = s->next;
			return s;
		}
	}
	return NULL;
}

static int linux_spawn_go(pid_t pid)
{
	struct spawned *s = find_spawned(pid, 0);
	char c = 'g';
	int e = 0;
	ssize_t n;

	if (!s || s->go_fd < 0) {
		pmc__set_reason("process %d was not spawned by libpmc", (int)pid);
		return -ESRCH;
	}
	if (write(s->go_fd, &c, 1) != 1) {
		e = errno;
		pmc__set_reason("cannot start the command: %s", strerror(e));
		return -e;
	}
	close(s->go_fd);
	s->go_fd = -1;
	/* exec succeeded iff the error pipe closes with nothing in it. */
	do {
		n = read(s->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(s->err_fd);
	s->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		waitpid(pid, NULL, 0);
		find_spawned(pid, 1);
		free(s);
		if (e == ENOENT)
			pmc__set_reason("command not found");
		else
			pmc__set_reason("cannot execute the command: %s", strerror(e));
		return -e;
	}
	return 0;
}

static void forget_spawned(pid_t pid)
{
	struct spawned *s = find_spawned(pid, 1);
	if (s) {
		if (s->go_fd >= 0)
			close(s->go_fd);
		if (s->err_fd >= 0)
			close(s->err_fd);
		free(s);
	}
}

static int linux_spawn_wait(pid_t pid, int *status, int timeout_ms)
{
	int st = 0;
	pid_t r;

	if (timeout_ms < 0) {
		r = waitpid(pid, &st, 0);
		if (r < 0)
			return -errno;      /* -EINTR: the caller decides */
	} else {
		uint64_t deadline = linux_now_ms() + (uint64_t)timeout_ms;
		/* The pidfd turns readable the moment the child exits: no
		 * latency (a loop of naps noticed an exit up to 2 ms late, the
		 * bulk of `pmc stat -- /bin/true`'s overhead).  Kernels before
		 * 5.3 have no pidfd_open: naps of 2 ms. */
		int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
		for (;;) {
			r = waitpid(pid, &st, WNOHANG);
			if (r < 0 && errno != EINTR) {
				int e = errno;
				if (pfd >= 0)
					close(pfd);
				return -e;
			}
			if (r == pid)
				break;
			uint64_t now = linux_now_ms();
			if (now >= deadline) {
				if (pfd >= 0)
					close(pfd);
				return -EAGAIN;
			}
			if (pfd >= 0) {
				struct pollfd pf = { pfd, POLLIN, 0 };
				(void)poll(&pf, 1, (int)(deadline - now));
			} else {
				uint64_t d = deadline - now < 2 ? deadline - now : 2;
				struct timespec t = { 0, (long)d * 1000000L };
				nanosleep(&t, NULL);
			}
		}
		if (pfd >= 0)
			close(pfd);
	}
	forget_spawned(pid);
	*status = st;
	return 0;
}


static int linux_init(struct pmc_machine *m)
{
	return linux__describe(m);
}

static void linux_fini(void)
{
	while (spawned_list) {
		struct spawned *s = spawned_list;
		spawned_list = s->next;
		if (s->go_fd >= 0) {
			/* Never started: closing the pipe makes it exit(127). */
			close(s->go_fd);
			waitpid(s->pid, NULL, 0);
		}
		if (s->err_fd >= 0)
			close(s->err_fd);
		free(s);
	}
}

const struct pmc_backend_ops pmc_backend_linux = {
	.name = "linux",
	.init = linux_init,
	.fini = linux_fini,
	.cpu_check = linux_cpu_check,
	.target_check = linux_target_check,
	.open = linux_open,
	.close = linux_close,
	.enable = linux_enable,
	.disable = linux_disable,
	.reset = linux_reset,
	.read = linux_read,
	.set_period = linux_set_period,
	.id = linux_id,
	.attr = linux_attr,
	.ring_map = linux_ring_map,
	.ring_unmap = linux_ring_unmap,
	.ring_redirect = linux_ring_redirect,
	.ring_wait = linux_ring_wait,
	.user_page = linux_user_page,
	.rdpmc_read = linux_rdpmc_read,
	.spawn = linux_spawn,
	.spawn_go = linux_spawn_go,
	.spawn_wait = linux_spawn_wait,
	.spawn_kill = linux_spawn_kill,
	.now = pmc__mono_ns,
};
