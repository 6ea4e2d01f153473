// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exporter's processes unmap, once they serve, the pages of their program and libraries
 * that only start-up touched (docs/exporter.md, Load): the dynamic loader's relocation pass,
 * the constructors (libmicrohttpd's gnutls_global_init: GnuTLS and its chain, 2.3 MiB
 * resident in the serving process although nothing but TLS calls them again), the parsing
 * of the command line and of the web configuration, and the kernel's fault-around, which
 * maps the 64 KiB of page cache around each faulting address (mm/memory.c,
 * fault_around_bytes). What the steady state runs faults back in, from the page cache, on
 * its first use; what it never runs stays out of the resident set.
 *
 * Only mappings of a file that are not writable and hold no private copy of a page
 * ("Anonymous: 0 kB" in /proc/self/smaps, proc(5)): MADV_DONTNEED on a private file mapping
 * drops the process's modified copies too (madvise(2)), so a relocated read-only range
 * (RELRO), written by the loader before it was made read-only, is left alone. The pages stay
 * in the page cache, shared with every other process mapping the same file; the process no
 * longer maps them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "exporter.h"

/* One mapping of /proc/self/smaps: its range, and whether it may be dropped so far. */
struct mapping {
	unsigned long start, end;
	bool candidate;
};

/* The mappings to drop, gathered before any is dropped: reading smaps runs stdio and
 * scanf, which would fault back in, 64 KiB around each function, the libc pages dropped
 * before them (1 MiB of libc stayed resident in a process that then only waited). More
 * mappings than this are left to a later call. */
#define DROP_MAX 512
static struct mapping drops[DROP_MAX];

static void keep(const struct mapping *m, size_t *n)
{
	if (m->candidate && m->end > m->start && *n < DROP_MAX)
		drops[(*n)++] = *m;
}

int exporter_drop_startup_pages(void)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	struct mapping m = { 0 };
	char line[4096];
	size_t n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;
		char perms[8];
		int path_at = 0, fields;

		/* a mapping's head: START-END PERMS OFFSET DEV INODE [PATH] */
		fields = sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &start, &end, perms, &path_at);
		if (fields >= 3 && path_at > 0) {
			keep(&m, &n);
			/* a file's pages only, not a device's (a driver's mapping is its own) */
			m = (struct mapping){ .start = start,
					      .end = end,
					      .candidate =
						      line[path_at] == '/' &&
						      strncmp(line + path_at, "/dev/", 5) != 0 &&
						      strchr(perms, 'w') == NULL };
			continue;
		}
		/* a copy-on-write page of the file: dropping it would lose what was written */
		if (strncmp(line, "Anonymous:", 10) == 0 && strtoul(line + 10, NULL, 10) != 0)
			m.candidate = false;
	}
	keep(&m, &n);
	fclose(f);
	/* MADV_RANDOM too: no readahead for the faults that bring a page back. Without it, a
	 * kernel whose page cache holds large folios (Linux 6.18, ext4, on the bench machine)
	 * mapped runs of 384-596 KiB of gpuenv's .rodata around the few bytes a sample reads
	 * there (/proc/PID/pagemap during samples: 1,004 KiB of .rodata resident, 548 KiB
	 * with it, in one reading each; docs/exporter.md, Not done yet). The kernel's 64 KiB
	 * fault-around stays either way. */
	for (size_t i = 0; i < n; i++) {
		(void)madvise((void *)drops[i].start, drops[i].end - drops[i].start, MADV_DONTNEED);
		(void)madvise((void *)drops[i].start, drops[i].end - drops[i].start, MADV_RANDOM);
	}
	return 0;
}
