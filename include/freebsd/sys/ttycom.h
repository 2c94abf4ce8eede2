/*
 * <sys/ttycom.h> of the libpmc-freebsd include set: FreeBSD's terminal
 * ioctls (TIOCGWINSZ, struct winsize) are <sys/ioctl.h>'s on Linux.
 */
#ifndef _PMC_FREEBSD_SYS_TTYCOM_H_
#define _PMC_FREEBSD_SYS_TTYCOM_H_
#include <sys/ioctl.h>
#endif
