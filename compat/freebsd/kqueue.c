/*
 * kqueue(2)/kevent(2) for FreeBSD programs built with libpmc-freebsd: the
 * filters FreeBSD's pmc tools use (EVFILT_READ, EVFILT_PROC NOTE_EXIT,
 * EVFILT_SIGNAL, EVFILT_TIMER) over an epoll descriptor, with a pidfd per
 * watched process, one signalfd per queue and a timerfd per timer.  The
 * kqueue descriptor IS the epoll descriptor; its registrations live in a
 * table indexed by it.  See include/freebsd/sys/event.h for the semantics
 * kept and docs/freebsd-compat.md for what differs.
 */
#include <sys/event.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compat.h"

#define SIGFD_TAG UINT64_MAX

struct knote {
	int used;
	uintptr_t ident;
	short filter;
	unsigned short flags;
	unsigned int fflags;
	void *udata;
	int fd;             /* the watched (READ) or our own descriptor */
	int enabled;
	int64_t pending;    /* EVFILT_SIGNAL: deliveries not reported yet */
	int file;           /* EVFILT_READ on a regular file: epoll refuses
	                     * those; ready while bytes remain, as FreeBSD's */
};

struct kq {
	int epfd;
	int sigfd;
	sigset_t sigs;      /* signals this queue watches */
	struct knote *kn;
	size_t nkn;
};

static pthread_mutex_t kq_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kq **kq_tab;      /* indexed by the epoll descriptor */
static size_t kq_ntab;
static sigset_t kq_blocked;     /* signals we blocked: unblocked in fork children */
static int kq_atfork_done;

static void kq_atfork_child(void)
{
	pthread_sigmask(SIG_UNBLOCK, &kq_blocked, NULL);
}

static struct kq *kq_get(int fd)
{
	if (fd < 0 || (size_t)fd >= kq_ntab)
		return NULL;
	return kq_tab[fd];
}

int kqueue(void)
{
	int fd = epoll_create1(EPOLL_CLOEXEC);
	if (fd < 0)
		return -1;
	struct kq *q = calloc(1, sizeof(*q));
	if (q == NULL) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	q->epfd = fd;
	q->sigfd = -1;
	sigemptyset(&q->sigs);
	pthread_mutex_lock(&kq_lock);
	if ((size_t)fd >= kq_ntab) {
		size_t n = (size_t)fd + 16;
		struct kq **t = realloc(kq_tab, n * sizeof(*t));
		if (t == NULL) {
			pthread_mutex_unlock(&kq_lock);
			free(q);
			close(fd);
			errno = ENOMEM;
			return -1;
		}
		memset(t + kq_ntab, 0, (n - kq_ntab) * sizeof(*t));
		kq_tab = t;
		kq_ntab = n;
	}
	if (kq_tab[fd] != NULL) {       /* a queue closed with close(2) */
		free(kq_tab[fd]->kn);
		if (kq_tab[fd]->sigfd >= 0)
			close(kq_tab[fd]->sigfd);
		free(kq_tab[fd]);
	}
	kq_tab[fd] = q;
	if (!kq_atfork_done) {
		sigemptyset(&kq_blocked);
		pthread_atfork(NULL, NULL, kq_atfork_child);
		kq_atfork_done = 1;
	}
	pthread_mutex_unlock(&kq_lock);
	return fd;
}

static struct knote *kn_find(struct kq *q, uintptr_t ident, short filter)
{
	for (size_t i = 0; i < q->nkn; i++)
		if (q->kn[i].used && q->kn[i].ident == ident && q->kn[i].filter == filter)
			return &q->kn[i];
	return NULL;
}

static struct knote *kn_new(struct kq *q)
{
	for (size_t i = 0; i < q->nkn; i++)
		if (!q->kn[i].used)
			return &q->kn[i];
	struct knote *k = realloc(q->kn, (q->nkn + 8) * sizeof(*k));
	if (k == NULL)
		return NULL;
	memset(k + q->nkn, 0, 8 * sizeof(*k));
	q->kn = k;
	q->nkn += 8;
	return &q->kn[q->nkn - 8];
}

static int epoll_set(struct kq *q, int op, int fd, uint64_t tag, int enabled)
{
	struct epoll_event ev = { .events = enabled ? EPOLLIN : 0, .data.u64 = tag };
	return epoll_ctl(q->epfd, op, fd, &ev);
}

static int timer_arm(int fd, const struct kevent *c)
{
	int64_t v = c->data;
	int64_t ns;
	if (v < 0)
		return -EINVAL;
	if (c->fflags & NOTE_SECONDS)
		ns = v * 1000000000LL;
	else if (c->fflags & NOTE_USECONDS)
		ns = v * 1000LL;
	else if (c->fflags & NOTE_NSECONDS)
		ns = v;
	else
		ns = v * 1000000LL;     /* milliseconds, FreeBSD's default */
	if (ns == 0)
		ns = 1;
	struct itimerspec it = { { 0, 0 }, { ns / 1000000000LL, ns % 1000000000LL } };
	if (!(c->flags & EV_ONESHOT))
		it.it_interval = it.it_value;
	return timerfd_settime(fd, 0, &it, NULL) < 0 ? -errno : 0;
}

static int sig_update(struct kq *q)
{
	int fd = signalfd(q->sigfd, &q->sigs, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (q->sigfd < 0) {
		q->sigfd = fd;
		if (epoll_set(q, EPOLL_CTL_ADD, fd, SIGFD_TAG, 1) < 0)
			return -errno;
	}
	return 0;
}

static void kn_drop(struct kq *q, struct knote *k)
{
	switch (k->filter) {
	case EVFILT_READ:
		if (!k->file)
			epoll_ctl(q->epfd, EPOLL_CTL_DEL, k->fd, NULL);
		break;
	case EVFILT_PROC:
	case EVFILT_TIMER:
		epoll_ctl(q->epfd, EPOLL_CTL_DEL, k->fd, NULL);
		close(k->fd);
		break;
	case EVFILT_SIGNAL:
		sigdelset(&q->sigs, (int)k->ident);
		sig_update(q);
		break;
	}
	memset(k, 0, sizeof(*k));
}

static int kn_add(struct kq *q, const struct kevent *c)
{
	struct knote *k = kn_find(q, c->ident, c->filter);
	int en = !(c->flags & EV_DISABLE);
	if (k != NULL) {
		k->flags = c->flags;
		k->fflags = c->fflags;
		k->udata = c->udata;
		if (c->filter == EVFILT_TIMER)
			return timer_arm(k->fd, c);
		return 0;
	}
	if ((k = kn_new(q)) == NULL)
		return -ENOMEM;
	uint64_t tag = (uint64_t)(k - q->kn);
	int fd = -1;
	switch (c->filter) {
	case EVFILT_READ:
		fd = (int)c->ident;
		k->file = 0;
		if (epoll_set(q, EPOLL_CTL_ADD, fd, tag, en) < 0) {
			if (errno != EPERM)
				return -errno;
			k->file = 1;
		}
		break;
	case EVFILT_PROC:
		if (!(c->fflags & NOTE_EXIT))
			return -EINVAL;
		fd = (int)syscall(SYS_pidfd_open, (pid_t)c->ident, 0);
		if (fd < 0)
			return -errno;
		if (epoll_set(q, EPOLL_CTL_ADD, fd, tag, en) < 0) {
			int e = errno;
			close(fd);
			return -e;
		}
		break;
	case EVFILT_SIGNAL: {
		int sig = (int)c->ident;
		if (sig <= 0 || sig >= NSIG)
			return -EINVAL;
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigset_t old;
		pthread_sigmask(SIG_BLOCK, &one, &old);
		if (!sigismember(&old, sig))
			sigaddset(&kq_blocked, sig);
		sigaddset(&q->sigs, sig);
		int rc = sig_update(q);
		if (rc < 0)
			return rc;
		break;
	}
	case EVFILT_TIMER: {
		fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		if (fd < 0)
			return -errno;
		int rc = timer_arm(fd, c);
		if (rc == 0 && epoll_set(q, EPOLL_CTL_ADD, fd, tag, en) < 0)
			rc = -errno;
		if (rc < 0) {
			close(fd);
			return rc;
		}
		break;
	}
	default:
		return -EINVAL;
	}
	k->used = 1;
	k->ident = c->ident;
	k->filter = c->filter;
	k->flags = c->flags;
	k->fflags = c->fflags;
	k->udata = c->udata;
	k->fd = fd;
	k->enabled = en;
	k->pending = 0;
	return 0;
}

static int kn_change(struct kq *q, const struct kevent *c)
{
	if (c->flags & EV_ADD)
		return kn_add(q, c);
	struct knote *k = kn_find(q, c->ident, c->filter);
	if (k == NULL)
		return -ENOENT;
	if (c->flags & EV_DELETE) {
		kn_drop(q, k);
		return 0;
	}
	if (c->flags & (EV_ENABLE | EV_DISABLE)) {
		k->enabled = !!(c->flags & EV_ENABLE);
		if (k->filter != EVFILT_SIGNAL && !k->file &&
		    epoll_set(q, EPOLL_CTL_MOD, k->fd, (uint64_t)(k - q->kn), k->enabled) < 0)
			return -errno;
	}
	return 0;
}

static void out_event(struct kevent *o, const struct knote *k, unsigned short flags,
		      unsigned int fflags, int64_t data)
{
	EV_SET(o, k->ident, k->filter, (unsigned short)(k->flags | flags), fflags, data, k->udata);
}

/* Signals received and not reported yet, as events; returns how many. */
static int sig_collect(struct kq *q, struct kevent *out, int n)
{
	struct signalfd_siginfo si;
	while (q->sigfd >= 0 && read(q->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		struct knote *k = kn_find(q, si.ssi_signo, EVFILT_SIGNAL);
		if (k != NULL)
			k->pending++;
	}
	int m = 0;
	for (size_t i = 0; i < q->nkn && m < n; i++) {
		struct knote *k = &q->kn[i];
		if (!k->used || k->filter != EVFILT_SIGNAL || !k->enabled || k->pending == 0)
			continue;
		out_event(&out[m++], k, 0, 0, k->pending);
		k->pending = 0;
		if (k->flags & EV_ONESHOT)
			kn_drop(q, k);
	}
	return m;
}

/* Regular files being read: ready while bytes remain past the offset. */
static int file_collect(struct kq *q, struct kevent *out, int n)
{
	int m = 0;
	for (size_t i = 0; i < q->nkn && m < n; i++) {
		struct knote *k = &q->kn[i];
		struct stat st;
		if (!k->used || !k->file || !k->enabled || fstat(k->fd, &st) < 0)
			continue;
		off_t off = lseek(k->fd, 0, SEEK_CUR);
		if (off < 0 || st.st_size <= off)
			continue;
		out_event(&out[m++], k, 0, 0, (int64_t)(st.st_size - off));
		if (k->flags & EV_ONESHOT)
			kn_drop(q, k);
	}
	return m;
}

static int64_t proc_status(int pidfd)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &si, WEXITED | WNOWAIT | WNOHANG) < 0)
		return 0;       /* not our child: its status is not ours to see */
	switch (si.si_code) {
	case CLD_EXITED: return (int64_t)(si.si_status & 0xff) << 8;
	case CLD_KILLED: return si.si_status & 0x7f;
	case CLD_DUMPED: return (si.si_status & 0x7f) | 0x80;
	default: return 0;
	}
}

int kevent(int kqfd, const struct kevent *changelist, int nchanges,
	   struct kevent *eventlist, int nevents, const struct timespec *timeout)
{
	pthread_mutex_lock(&kq_lock);
	struct kq *q = kq_get(kqfd);
	if (q == NULL) {
		pthread_mutex_unlock(&kq_lock);
		errno = EBADF;
		return -1;
	}
	int nout = 0;
	for (int i = 0; i < nchanges; i++) {
		int rc = kn_change(q, &changelist[i]);
		if (rc < 0 || (changelist[i].flags & EV_RECEIPT)) {
			if (nout < nevents) {
				eventlist[nout] = changelist[i];
				eventlist[nout].flags = EV_ERROR;
				eventlist[nout].data = rc < 0 ? -rc : 0;
				nout++;
			} else if (rc < 0) {
				pthread_mutex_unlock(&kq_lock);
				errno = -rc;
				return -1;
			}
		}
	}
	if (nout > 0 || nevents <= 0) {
		pthread_mutex_unlock(&kq_lock);
		return nout;
	}
	int ms = -1;
	if (timeout != NULL)
		ms = (int)(timeout->tv_sec * 1000 + (timeout->tv_nsec + 999999) / 1000000);
	for (;;) {
		nout = sig_collect(q, eventlist, nevents);
		nout += file_collect(q, eventlist + nout, nevents - nout);
		if (nout > 0)
			break;
		struct epoll_event ev[16];
		int epfd = q->epfd;
		int max = nevents < 16 ? nevents : 16;
		pthread_mutex_unlock(&kq_lock);
		int n = epoll_wait(epfd, ev, max, ms);
		int e = errno;
		pthread_mutex_lock(&kq_lock);
		if (n < 0) {
			pthread_mutex_unlock(&kq_lock);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		for (int i = 0; i < n && nout < nevents; i++) {
			if (ev[i].data.u64 == SIGFD_TAG) {
				nout += sig_collect(q, eventlist + nout, nevents - nout);
				continue;
			}
			size_t idx = (size_t)ev[i].data.u64;
			if (idx >= q->nkn || !q->kn[idx].used || !q->kn[idx].enabled)
				continue;
			struct knote *k = &q->kn[idx];
			switch (k->filter) {
			case EVFILT_READ: {
				int avail = 0;
				unsigned short fl = 0;
				ioctl(k->fd, FIONREAD, &avail);
				if (ev[i].events & (EPOLLHUP | EPOLLRDHUP | EPOLLERR))
					fl |= EV_EOF;
				out_event(&eventlist[nout++], k, fl, 0, avail);
				if (k->flags & EV_ONESHOT)
					kn_drop(q, k);
				break;
			}
			case EVFILT_PROC:
				out_event(&eventlist[nout++], k, EV_EOF | EV_ONESHOT, NOTE_EXIT,
					  proc_status(k->fd));
				kn_drop(q, k);  /* FreeBSD: NOTE_EXIT is the knote's last */
				break;
			case EVFILT_TIMER: {
				uint64_t exp = 0;
				if (read(k->fd, &exp, sizeof(exp)) != (ssize_t)sizeof(exp))
					break;
				out_event(&eventlist[nout++], k, 0, 0, (int64_t)exp);
				if (k->flags & EV_ONESHOT)
					kn_drop(q, k);
				break;
			}
			}
		}
		if (nout > 0 || ms >= 0)
			break;
	}
	pthread_mutex_unlock(&kq_lock);
	return nout;
}
