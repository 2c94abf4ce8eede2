/*
 * <sys/imgact_elf.h> of the libpmc-freebsd include set: FreeBSD's kernel ELF
 * image activator header; user programs include it for the ELF types,
 * which are <elf.h>'s here.
 */
#ifndef _PMC_FREEBSD_SYS_IMGACT_ELF_H_
#define _PMC_FREEBSD_SYS_IMGACT_ELF_H_
#include <elf.h>
#endif
