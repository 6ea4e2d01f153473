// SPDX-License-Identifier: GPL-2.0-or-later
/* The pages a short run touches, mapped at its start: see start-prefault.h. */
#include "start-prefault.h"

#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* Linux's values (asm-generic/mman-common.h) where the C library predates them: a kernel
 * without the advice answers EINVAL, and the pages fault in as they are touched. */
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* The stack below the caller's frame taken at once: a paste's deepest calls (the needle
 * filters of pasted-scan.h, 6.6 KiB each, the readers' frames) took 8 traps below it. */
#define STACK_PREFAULT_PAGES 12
/* A heap whose top is further than this from a fresh block is not the brk heap glibc's
 * malloc starts with (another allocator, a sanitizer's): left alone. */
#define HEAP_PREFAULT_MAX ((uintptr_t)1 << 20)

static void populate(uintptr_t from, uintptr_t to, uintptr_t page, int advice)
{
	from &= ~(page - 1);
	if (to > from)
		(void)madvise((void *)from, to - from, advice);
}

/* The program's code (its executable PT_LOAD, mapped from the page cache): a paste's
 * functions are spread over its 1.5 MiB, a trap at each 64 KiB window the kernel maps
 * around a fault. Its read-only data is left to fault in: populated whole (1.8 MiB, mostly
 * the knowledge base's tables) it cost more than the few traps it saved. */
static int program_code(struct dl_phdr_info *info, size_t size, void *userdata)
{
	uintptr_t page = *(const uintptr_t *)userdata;

	(void)size;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && !(ph->p_flags & PF_W))
			populate(a, a + ph->p_memsz, page, MADV_POPULATE_READ);
	}
	return 1; /* the first object dl_iterate_phdr visits is the program itself */
}

void start_prefault(void)
{
	long sz = sysconf(_SC_PAGESIZE);
	uintptr_t page = sz > 0 ? (uintptr_t)sz : 4096, top, at;
	volatile char here = 0;
	void *probe;

	dl_iterate_phdr(program_code, &page);
	/* malloc's first block makes the brk heap (132 KiB and more, glibc's M_TOP_PAD); a
	 * paste's parse and its rendering fill most of it, a trap at each page */
	probe = malloc(1);
	top = (uintptr_t)sbrk(0);
	at = (uintptr_t)probe;
	if (probe && top != (uintptr_t)-1 && at < top && top - at <= HEAP_PREFAULT_MAX)
		populate(at, top, page, MADV_POPULATE_WRITE);
	free(probe);
	at = (uintptr_t)&here & ~(page - 1);
	populate(at - STACK_PREFAULT_PAGES * page, at, page, MADV_POPULATE_WRITE);
}
