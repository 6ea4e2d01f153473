// SPDX-License-Identifier: LGPL-2.1-or-later
/* Pages faulted in before they are written: see prefault.h. */
#include "shared/prefault.h"

#include <stdint.h>
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

bool whole_pages(const void *buf, size_t n, uintptr_t *ret_from, uintptr_t *ret_to)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)buf;

	if (page <= 1 || !buf)
		return false;
	*ret_from = (a + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	*ret_to = (a + n) & ~((uintptr_t)page - 1);
	return *ret_to > *ret_from;
}

void prefault_write(void *buf, size_t n)
{
	uintptr_t from, to;

	if (whole_pages(buf, n, &from, &to))
		(void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
}

void prefault_read(const void *buf, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)buf, from, to;

	if (page <= 1 || !buf || n == 0)
		return;
	from = a & ~((uintptr_t)page - 1);
	to = a + n;
	(void)madvise((void *)from, to - from, MADV_POPULATE_READ);
}

void prefault_touch(void *buf, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = buf, *e = p + n;

	if (page <= 1 || !buf || n == 0)
		return;
	prefault_write(buf, n);
	/* a byte of each page buf[0..n) touches: the first, then each next page's first */
	*(volatile char *)p = 0;
	for (char *q = p + ((size_t)page - (uintptr_t)p % (size_t)page); q < e; q += page)
		*(volatile char *)q = 0;
}
