// SPDX-License-Identifier: LGPL-2.1-or-later
/* Pages given back while their buffer lives on: see page-drop.h. */
#include "shared/page-drop.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

void page_drop(const void *buf, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)buf, from, to;

	if (page <= 1 || !buf)
		return;
	/* only the pages wholly inside: the partial ones at either end hold the caller's other
	 * bytes (a malloc() chunk's header before, the buffer's unread rest after) */
	from = (a + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	to = (a + n) & ~((uintptr_t)page - 1);
	if (to > from)
		(void)madvise((void *)from, to - from, MADV_DONTNEED);
}
