// SPDX-License-Identifier: LGPL-2.1-or-later
/* Pages given back while their buffer lives on: see page-drop.h. */
#include "shared/page-drop.h"

#include <stdint.h>
#include <sys/mman.h>

#include "shared/prefault.h"

void page_drop(const void *buf, size_t n)
{
	uintptr_t from, to;

	/* only the pages wholly inside: the partial ones at either end hold the caller's other
	 * bytes (a malloc() chunk's header before, the buffer's unread rest after) */
	if (whole_pages(buf, n, &from, &to))
		(void)madvise((void *)from, to - from, MADV_DONTNEED);
}
