// SPDX-License-Identifier: LGPL-2.1-or-later
/* Pages faulted in before they are written: see prefault.h. */
#include "shared/prefault.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

void prefault_write(void *buf, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)buf, from, to;

	if (page <= 1 || !buf)
		return;
	from = (a + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	to = (a + n) & ~((uintptr_t)page - 1);
#ifdef MADV_POPULATE_WRITE
	if (to > from)
		(void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
#endif
}
