/*
 * <sys/module.h> of the libpmc-freebsd include set: FreeBSD's kernel-module
 * interface (modfind, modstat).  Linux has no such system call; FreeBSD's
 * pmc tools include the header without calling it, so it declares nothing
 * but the name limit.
 */
#ifndef _PMC_FREEBSD_SYS_MODULE_H_
#define _PMC_FREEBSD_SYS_MODULE_H_
#define MAXMODNAME 32
#endif
