// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The bytes of a file opened through the sysroot API (root_file_open(), root_map()): read at
 * an offset, map, close. A file inside an image layer is a window of the layer's tar
 * (f->base, f->size), so reads stop at the file's end and a mapping starts inside a page.
 * Nothing here resolves a path: that is root.c's job.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "root.h"
#include "shared/macro.h"

void root_unmap(struct root_map *m)
{
	/* a file of a layered tree starts inside a page of the image (root_file_map()) */
	size_t skew = (uintptr_t)m->data % (uintptr_t)sysconf(_SC_PAGESIZE);

	if (m->trace_root)
		root_trace_mapped(m->trace_root, m->trace_path, m->data, m->len);
	if (m->data && m->len)
		munmap((void *)(m->data - skew), m->len + skew);
	free(m->trace_path);
	*m = (struct root_map){ 0 };
}

ssize_t root_file_pread(const struct root_file *f, void *buf, size_t n, uint64_t off)
{
	size_t got = 0;

	if (f->fd < 0 || off > (uint64_t)INT64_MAX)
		return -EBADF;
	if (f->base) { /* a file inside an image layer: its bytes end where the file does */
		if (off >= f->size)
			return 0;
		n = (size_t)MIN((uint64_t)n, f->size - off);
		off += f->base;
	}
	while (got < n) {
		ssize_t k = pread(f->fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	if (f->trace_root)
		root_trace_read(f->trace_root, f->trace_path, off, got);
	return (ssize_t)got;
}

int root_file_map(const struct root_file *f, struct root_map *ret)
{
	uint64_t skew;
	void *p;

	if (f->fd < 0)
		return -EBADF;
	if (f->size == 0) {
		*ret = (struct root_map){ .data = (const uint8_t *)"", .len = 0 };
		return 0;
	}
	skew = f->base % (uint64_t)sysconf(_SC_PAGESIZE);
	p = mmap(NULL, (size_t)(f->size + skew), PROT_READ, MAP_PRIVATE, f->fd,
		 (off_t)(f->base - skew));
	if (p == MAP_FAILED)
		return -errno;
	*ret = (struct root_map){ .data = (const uint8_t *)p + skew, .len = (size_t)f->size };
	if (f->trace_root) {
		ret->trace_path = strdup(f->trace_path);
		if (ret->trace_path)
			ret->trace_root = f->trace_root;
	}
	return 0;
}

void root_file_close(struct root_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->trace_path);
	*f = ROOT_FILE_NULL;
}
