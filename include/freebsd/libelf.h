/*
 * <libelf.h> of the libpmc-freebsd include set: elfutils' libelf, with the
 * return conventions of FreeBSD's (elftoolchain's) for the three calls
 * whose conventions differ.  elftoolchain's legacy elf_getshnum,
 * elf_getshstrndx and elf_getphnum return nonzero on success and 0 on
 * failure (as Solaris' did); elfutils' return 0 on success and -1 on
 * failure (elfutils has no elf_getphnum).  FreeBSD's code tests
 * "== 0" for failure, so here they answer as elftoolchain's do, through
 * elf_getshdrnum/elf_getshdrstrndx/elf_getphdrnum, which agree in both
 * libraries.  <gelf.h> includes this header, so it applies there too.
 */
#include_next <libelf.h>

#ifndef _PMC_FREEBSD_LIBELF_H_
#define _PMC_FREEBSD_LIBELF_H_

static __inline int __pmc_fbsd_elf_getshnum(Elf *e, size_t *n)
{
	return elf_getshdrnum(e, n) == 0;
}
static __inline int __pmc_fbsd_elf_getshstrndx(Elf *e, size_t *n)
{
	return elf_getshdrstrndx(e, n) == 0;
}
static __inline int __pmc_fbsd_elf_getphnum(Elf *e, size_t *n)
{
	return elf_getphdrnum(e, n) == 0;
}
#undef elf_getshnum
#undef elf_getshstrndx
#undef elf_getphnum
#define elf_getshnum(e, n)    __pmc_fbsd_elf_getshnum((e), (n))
#define elf_getshstrndx(e, n) __pmc_fbsd_elf_getshstrndx((e), (n))
#define elf_getphnum(e, n)    __pmc_fbsd_elf_getphnum((e), (n))

#endif
