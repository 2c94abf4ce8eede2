/*
 * <fcntl.h> of the libpmc-freebsd include set: the C library's, plus
 * FreeBSD's O_EXEC (open for execution only): Linux's O_PATH, a descriptor
 * that fexecve(3) accepts and that cannot be read.
 */
#include_next <fcntl.h>

#ifndef _PMC_FREEBSD_FCNTL_H_
#define _PMC_FREEBSD_FCNTL_H_
#if !defined(O_EXEC) && defined(O_PATH)
#define O_EXEC O_PATH
#endif
#endif
