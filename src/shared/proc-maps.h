/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One line of /proc/PID/maps, or a mapping's first line in /proc/PID/smaps, which the kernel
 * prints the same way (proc(5); fs/proc/task_mmu.c, show_map_vma()):
 *
 *   START-END PERMS OFFSET MAJOR:MINOR INODE [PATH]
 *
 * START, END and OFFSET in lowercase hex (at least 8 digits), DEV's two numbers in hex (at
 * least 2), INODE in decimal; a space after INODE always, then, where the mapping has a
 * name, spaces up to a column and the name: a file's path (a path the kernel escapes "\n"
 * in, as "\012", so the line holds no newline; " (deleted)" after a file since unlinked), or
 * "[heap]", "[stack]", "[vdso]" and the like. An anonymous mapping has no name.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct proc_maps_line {
	unsigned long start, end, offset, inode;
	char perms[5]; /* "r-xp": read, write, execute, then p(rivate) or s(hared) */
	char dev[16];  /* "fe:00", "103:02", as printed */
	/* the name, into the line, up to its '\n' or its end (path_len bytes, not NUL-ended);
	 * "" with path_len 0 where there is none */
	const char *path;
	size_t path_len;
};

/* line, ended by '\n' or NUL, into *ret; false (*ret in part written): not such a line (a
 * line of smaps's counts, "Rss:       4 kB", is not). By hand, no stdio: the exporter reads
 * it in a process that has just dropped the pages of libc's scanf (tools/exporter-pages.c). */
bool proc_maps_parse_line(const char *line, struct proc_maps_line *ret);
