// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ROOT_TRACE_READS: which bytes of a mapped file the probes read. A parser handed a mapping
 * (an ELF library's headers, its dynamic section) touches only some of its pages; those are
 * the pages present in this process's page table when the mapping is dropped, which
 * /proc/self/pagemap tells (Documentation/admin-guide/mm/pagemap.rst: one 64-bit entry per
 * virtual page, bit 63 "page present"; readable by the process itself without privilege,
 * the frame numbers then read as zero). The kernel's fault-around maps a few neighbouring
 * cached pages along with the one touched (mm/memory.c, fault_around_bytes, 64 KiB), so the
 * ranges recorded hold what was read and at most that much around it. Without a readable
 * pagemap the whole mapping counts as read. `gpuenv capture` keeps these ranges of a large
 * file instead of the whole file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "root.h"
#include "shared/macro.h"

#define PAGEMAP_PRESENT (UINT64_C(1) << 63)
#define PAGEMAP_BATCH	512 /* entries read per pread */

void root_trace_mapped(struct root *r, const char *path, const void *data, size_t len)
{
	uint64_t entries[PAGEMAP_BATCH], run_start = 0, run_len = 0;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t first, base = (uintptr_t)data;
	size_t pages;
	int fd;

	if (!data || len == 0 || page <= 0)
		return;
	first = base / (uintptr_t)page;
	pages = (len + (size_t)page - 1) / (size_t)page;
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		root_trace_read(r, path, 0, len);
		return;
	}
	for (size_t i = 0; i < pages;) {
		size_t n = MIN(pages - i, (size_t)PAGEMAP_BATCH);
		ssize_t got = pread(fd, entries, n * sizeof(uint64_t),
				    (off_t)((first + i) * sizeof(uint64_t)));

		if (got < (ssize_t)sizeof(uint64_t)) { /* unreadable: count the rest as read */
			if (run_len)
				root_trace_read(r, path, run_start, run_len);
			run_len = 0;
			root_trace_read(r, path, (uint64_t)i * (uint64_t)page,
					len - i * (size_t)page);
			break;
		}
		n = (size_t)got / sizeof(uint64_t);
		for (size_t k = 0; k < n; k++, i++) {
			uint64_t off = (uint64_t)i * (uint64_t)page;
			uint64_t end = MIN(off + (uint64_t)page, (uint64_t)len);

			if (!(entries[k] & PAGEMAP_PRESENT)) {
				if (run_len)
					root_trace_read(r, path, run_start, run_len);
				run_len = 0;
				continue;
			}
			if (!run_len)
				run_start = off;
			run_len = end - run_start;
		}
	}
	if (run_len)
		root_trace_read(r, path, run_start, run_len);
	close(fd);
}
