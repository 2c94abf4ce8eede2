/*
 * <sys/event.h> of the libpmc-freebsd include set: the part of FreeBSD's
 * kqueue(2) that FreeBSD's pmc tools use, implemented by libpmc-freebsd
 * over Linux descriptors:
 *
 *   EVFILT_READ    epoll on the descriptor; data = bytes readable
 *                  (FIONREAD), EV_EOF on hang-up
 *   EVFILT_PROC    NOTE_EXIT through a pidfd; data = the wait status
 *                  (read with WNOWAIT: the process stays to be reaped)
 *   EVFILT_SIGNAL  a signalfd; the signal is blocked in the calling thread
 *                  (and unblocked again in children of fork), so its
 *                  disposition, SIG_IGN included, no longer matters, as
 *                  with kqueue; data = deliveries since the last report
 *   EVFILT_TIMER   a timerfd, periodic (EV_ONESHOT: once); data is in
 *                  milliseconds, or NOTE_SECONDS/MSECONDS/USECONDS/
 *                  NSECONDS; data reported = expirations
 *
 * Flags: EV_ADD, EV_DELETE, EV_ENABLE, EV_DISABLE, EV_ONESHOT, EV_CLEAR
 * (the descriptors above are edge-free: EV_CLEAR is accepted), EV_RECEIPT;
 * EV_ERROR in a returned event carries an errno in data.  Other filters
 * are EINVAL.  See docs/freebsd-compat.md.
 */
#ifndef _PMC_FREEBSD_SYS_EVENT_H_
#define _PMC_FREEBSD_SYS_EVENT_H_

#include <stdint.h>
#include <time.h>

#define EVFILT_READ     (-1)
#define EVFILT_WRITE    (-2)
#define EVFILT_AIO      (-3)
#define EVFILT_VNODE    (-4)
#define EVFILT_PROC     (-5)
#define EVFILT_SIGNAL   (-6)
#define EVFILT_TIMER    (-7)
#define EVFILT_USER     (-11)

#define EV_ADD      0x0001
#define EV_DELETE   0x0002
#define EV_ENABLE   0x0004
#define EV_DISABLE  0x0008
#define EV_ONESHOT  0x0010
#define EV_CLEAR    0x0020
#define EV_RECEIPT  0x0040
#define EV_DISPATCH 0x0080
#define EV_ERROR    0x4000
#define EV_EOF      0x8000

#define NOTE_EXIT     0x80000000U
#define NOTE_FORK     0x40000000U
#define NOTE_EXEC     0x20000000U
#define NOTE_SECONDS  0x00000001U
#define NOTE_MSECONDS 0x00000002U
#define NOTE_USECONDS 0x00000004U
#define NOTE_NSECONDS 0x00000008U

struct kevent {
	uintptr_t ident;	/* identifier for this event */
	short filter;		/* filter for event */
	unsigned short flags;	/* action flags for kqueue */
	unsigned int fflags;	/* filter flag value */
	int64_t data;		/* filter data value */
	void *udata;		/* opaque user data identifier */
	uint64_t ext[4];	/* extensions */
};

#define EV_SET(kevp_, a, b, c, d, e, f) do {	\
	struct kevent *kevp = (kevp_);		\
	(kevp)->ident = (a);			\
	(kevp)->filter = (b);			\
	(kevp)->flags = (c);			\
	(kevp)->fflags = (d);			\
	(kevp)->data = (e);			\
	(kevp)->udata = (f);			\
	(kevp)->ext[0] = 0;			\
	(kevp)->ext[1] = 0;			\
	(kevp)->ext[2] = 0;			\
	(kevp)->ext[3] = 0;			\
} while (0)

#ifdef __cplusplus
extern "C" {
#endif
int kqueue(void);
int kevent(int kq, const struct kevent *changelist, int nchanges,
    struct kevent *eventlist, int nevents, const struct timespec *timeout);
#ifdef __cplusplus
}
#endif

#endif
