// SPDX-License-Identifier: GPL-2.0-or-later
/* The pages a short run touches, mapped at its start: see start-prefault.h. */
#include "start-prefault.h"

#include "shared/prefault.h"

#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* The stack below the caller's frame taken at once: a paste's deepest calls (the needle
 * filters of pasted-scan.h, 6.6 KiB each, the readers' frames) took 8 traps below it. */
#define STACK_PREFAULT_PAGES 12
/* A heap whose top is further than this from a fresh block is not the brk heap glibc's
 * malloc starts with (another allocator, a sanitizer's): left alone. */
#define HEAP_PREFAULT_MAX ((uintptr_t)1 << 20)

/* The program's code (its executable PT_LOAD, mapped from the page cache): a paste's
 * functions are spread over its 1.5 MiB, a trap at each 64 KiB window the kernel maps
 * around a fault. Its read-only data is left to fault in: populated whole (1.8 MiB, mostly
 * the knowledge base's tables) it cost more than the few traps it saved. */
static int program_code(struct dl_phdr_info *info, size_t size, void *userdata)
{
	(void)size;
	(void)userdata;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && !(ph->p_flags & PF_W))
			prefault_read((const void *)a, ph->p_memsz);
	}
	return 1; /* the first object dl_iterate_phdr visits is the program itself */
}

void start_prefault(void)
{
	long sz = sysconf(_SC_PAGESIZE);
	uintptr_t page = sz > 0 ? (uintptr_t)sz : 4096, top, at;
	volatile char here = 0;
	void *probe;

	dl_iterate_phdr(program_code, NULL);
	/* malloc's first block makes the brk heap (132 KiB and more, glibc's M_TOP_PAD); a
	 * paste's parse and its rendering fill most of it, a trap at each page */
	probe = malloc(1);
	top = (uintptr_t)sbrk(0);
	at = (uintptr_t)probe;
	if (probe && top != (uintptr_t)-1 && at < top && top - at <= HEAP_PREFAULT_MAX)
		prefault_write((void *)at, top - at);
	free(probe);
	at = (uintptr_t)&here & ~(page - 1);
	prefault_write((void *)(at - STACK_PREFAULT_PAGES * page), STACK_PREFAULT_PAGES * page);
}
