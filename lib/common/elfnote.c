/* elfnote.c — the ELF note walker behind every build id read without libelf. */
#include <elf.h>
#include <string.h>

#include "common/elfnote.h"

uint32_t pmc__elfnote_build_id(const void *notes, size_t len, uint8_t id[20])
{
	const unsigned char *p = notes;
	size_t off = 0;

	/* Elf32_Nhdr and Elf64_Nhdr are the same three 32-bit words. */
	while (off + sizeof(Elf64_Nhdr) <= len) {
		Elf64_Nhdr nh;
		memcpy(&nh, p + off, sizeof(nh));
		size_t name_at = off + sizeof(nh);
		size_t desc_at = name_at + ((nh.n_namesz + 3u) & ~(size_t)3);
		if (desc_at < name_at || desc_at > len || nh.n_descsz > len - desc_at)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(p + name_at, "GNU", 4) && nh.n_descsz > 0) {
			uint32_t n = nh.n_descsz > 20 ? 20 : nh.n_descsz;
			memset(id, 0, 20);
			memcpy(id, p + desc_at, n);
			return n;
		}
		off = desc_at + ((nh.n_descsz + 3u) & ~(size_t)3);
	}
	return 0;
}
