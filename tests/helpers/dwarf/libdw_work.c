/*
 * libdw_work.c — the shared-library half of dwarf_work (see dwarf_work.c):
 * built -O2 -fomit-frame-pointer, so its frames are found only through
 * its .eh_frame CFI.
 */
#include "dw_spin.h"

DW_NOIPA static uint64_t lib_leaf(uint64_t n)
{
	return dw_spin(n);
}

DW_NOIPA uint64_t lib_entry(uint64_t n)
{
	uint64_t r = lib_leaf(n);
	__asm__ volatile("" : "+r"(r));
	return r + 1;                 /* no tail call: lib_entry stays a frame */
}
