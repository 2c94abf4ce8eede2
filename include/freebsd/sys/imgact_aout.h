/*
 * <sys/imgact_aout.h> of the libpmc-freebsd include set: FreeBSD's a.out
 * header (struct exec, N_GETMAGIC, N_BADMAG), as FreeBSD defines it:
 * a_midmag holds flags, machine id and magic, the magic in its low 16 bits.
 */
#ifndef _PMC_FREEBSD_SYS_IMGACT_AOUT_H_
#define _PMC_FREEBSD_SYS_IMGACT_AOUT_H_
#include <stdint.h>

struct exec {
	uint32_t a_midmag;	/* flags<<26 | mid<<16 | magic */
	uint32_t a_text;
	uint32_t a_data;
	uint32_t a_bss;
	uint32_t a_syms;
	uint32_t a_entry;
	uint32_t a_trsize;
	uint32_t a_drsize;
};

#ifndef OMAGIC
#define OMAGIC 0407
#define NMAGIC 0410
#define ZMAGIC 0413
#define QMAGIC 0314
#endif
#define N_GETMAGIC(ex) ((ex).a_midmag & 0xffff)
#define N_BADMAG(ex) \
	(N_GETMAGIC(ex) != OMAGIC && N_GETMAGIC(ex) != NMAGIC && \
	 N_GETMAGIC(ex) != ZMAGIC && N_GETMAGIC(ex) != QMAGIC)
#endif
