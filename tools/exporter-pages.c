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
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exporter.h"
#include "shared/proc-maps.h"

/* One mapping: its range and what it maps (offset, device, inode: a mapping of the same
 * range read again is the same mapping only if these are the same too); whether its head
 * allows a drop (a file's, not writable) and whether it may be dropped so far. */
struct mapping {
	unsigned long start, end, offset, inode;
	char dev[16];
	bool file_ro, candidate;
	bool program; /* a mapping of the program's own file (/proc/self/exe) */
};

/* The mappings to drop, gathered before any is dropped: reading /proc/self/smaps runs stdio,
 * and reading either file the line parser (shared/proc-maps.c), which would fault back in,
 * 64 KiB around each function, the libc pages dropped before them (1 MiB of libc stayed
 * resident in a process that then only waited). More mappings than this are left to a later
 * call. */
#define DROP_MAX 512
static struct mapping drops[DROP_MAX];
/* The file_ro mappings the last reading of smaps found, by address (smaps lists them in
 * order), each with whether it may be dropped. A later call reads /proc/self/maps instead,
 * which has no page counts to gather: smaps walks the page tables of every mapping to count
 * them, and the diagnosis child drops 25 times a diagnosis (docs/exporter.md, Load). Empty:
 * smaps next time. */
static struct mapping known[DROP_MAX];
static size_t n_known;
/* The program's own file, for exporter_drop_program_pages(); "" until it is asked for. */
static char self_path[PATH_MAX];
/* Only the program's own mappings are dropped (exporter_drop_program_pages()). */
static bool program_only;

static void keep(const struct mapping *m, size_t *n)
{
	if (m->candidate && m->end > m->start && *n < DROP_MAX && (!program_only || m->program))
		drops[(*n)++] = *m;
}

/* Whether a mapping's path is the program's own. */
static bool is_program(const char *path, size_t len)
{
	size_t self_len = strlen(self_path);

	return self_len && len == self_len && memcmp(path, self_path, len) == 0;
}

/* A line of maps, or a mapping's head in smaps, into m (proc-maps.h); false: not one (an
 * smaps line of counts, "Rss:", "Anonymous:" and the like). A file's pages only, not a
 * device's (a driver's mapping is its own), and none of a writable mapping. */
static bool parse_head(const char *line, struct mapping *m)
{
	struct proc_maps_line l;

	if (!proc_maps_parse_line(line, &l))
		return false;
	*m = (struct mapping){
		.start = l.start, .end = l.end, .offset = l.offset, .inode = l.inode
	};
	_Static_assert(sizeof(m->dev) == sizeof(l.dev), "a device as proc-maps.h reads it");
	memcpy(m->dev, l.dev, sizeof(m->dev));
	m->file_ro = l.path_len > 0 && l.path[0] == '/' &&
		     !(l.path_len >= 5 && memcmp(l.path, "/dev/", 5) == 0) &&
		     strchr(l.perms, 'w') == NULL;
	m->candidate = m->file_ro;
	m->program = is_program(l.path, l.path_len);
	return true;
}

static bool same(const struct mapping *a, const struct mapping *b)
{
	return a->start == b->start && a->end == b->end && a->offset == b->offset &&
	       a->inode == b->inode && strcmp(a->dev, b->dev) == 0;
}

/* A mapping smaps showed, for the next call; false once the table is full. */
static bool remember(const struct mapping *m)
{
	if (!m->file_ro || m->end <= m->start)
		return true;
	if (n_known == DROP_MAX)
		return false;
	known[n_known++] = *m;
	return true;
}

/* From /proc/self/smaps: every candidate with no private copy of a page ("Anonymous: 0 kB",
 * proc(5)): MADV_DONTNEED on a private file mapping drops the process's modified copies too
 * (madvise(2)), so a relocated read-only range (RELRO), written by the loader before it was
 * made read-only, is left alone. What it finds is known for the next call. */
static int gather_smaps(size_t *n)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	struct mapping m = { 0 };
	char line[4096];
	bool room = true;

	n_known = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct mapping head;

		if (parse_head(line, &head)) {
			room = room && remember(&m);
			keep(&m, n);
			m = head;
			continue;
		}
		/* a copy-on-write page of the file: dropping it would lose what was written */
		if (strncmp(line, "Anonymous:", 10) == 0 && strtoul(line + 10, NULL, 10) != 0)
			m.candidate = false;
	}
	room = room && remember(&m);
	keep(&m, n);
	fclose(f);
	if (!room)
		n_known = 0;
	return 0;
}

/* Matches one line of maps against what smaps found; -EAGAIN: a mapping smaps did not see. */
static int match_line(const char *line, size_t *k, size_t *n)
{
	struct mapping head;

	if (!parse_head(line, &head))
		return -EAGAIN;
	if (!head.file_ro)
		return 0;
	while (*k < n_known && known[*k].start < head.start)
		(*k)++;
	if (*k == n_known || !same(&known[*k], &head))
		return -EAGAIN;
	head.candidate = known[*k].candidate; /* what smaps found */
	keep(&head, n);
	return 0;
}

/* From /proc/self/maps: the candidates smaps found last time, where each is still the same
 * mapping. A mapping that is not writable gains no private page (it is a mapping of other
 * permissions, or of another range, while it is made writable), and one made since, whose
 * pages smaps has not counted, sends the call back to smaps: -EAGAIN. Read with read(2) into
 * the stack, a line at a time: no stdio, whose buffer would be a heap page more. */
static int gather_maps(size_t *n)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	char buf[4096];
	size_t have = 0, k = 0;
	int ret = 0;

	if (fd < 0)
		return -1;
	while (ret == 0) {
		ssize_t got = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *line = buf, *nl;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			ret = -1;
		if (got <= 0)
			break;
		have += (size_t)got;
		buf[have] = '\0';
		while (ret == 0 && (nl = strchr(line, '\n'))) {
			*nl = '\0';
			ret = match_line(line, &k, n);
			line = nl + 1;
		}
		have -= (size_t)(line - buf);
		/* a line longer than the buffer: not one this reads */
		if (have == sizeof(buf) - 1)
			ret = -EAGAIN;
		memmove(buf, line, have);
	}
	close(fd);
	return ret < 0 ? ret : have ? -EAGAIN : 0;
}

static int drop(void)
{
	size_t n = 0;
	bool known_ones = n_known > 0 && gather_maps(&n) == 0;

	if (!known_ones) {
		n = 0;
		if (gather_smaps(&n) < 0)
			return -1;
	}
	/* MADV_RANDOM too, once: no readahead for the faults that bring a page back. Without
	 * it, a kernel whose page cache holds large folios (Linux 6.18, ext4, on the bench
	 * machine) mapped runs of 384-596 KiB of gpuenv's .rodata around the few bytes a sample
	 * reads there (/proc/PID/pagemap during samples: 1,004 KiB of .rodata resident, 548 KiB
	 * with it, in one reading each; docs/exporter.md, Not done yet). The kernel's 64 KiB
	 * fault-around stays either way. A mapping maps found was marked when smaps found it. */
	for (size_t i = 0; i < n; i++) {
		(void)madvise((void *)drops[i].start, drops[i].end - drops[i].start, MADV_DONTNEED);
		if (!known_ones)
			(void)madvise((void *)drops[i].start, drops[i].end - drops[i].start,
				      MADV_RANDOM);
	}
	return 0;
}

int exporter_drop_startup_pages(void)
{
	program_only = false;
	return drop();
}

int exporter_drop_program_pages(void)
{
	if (!self_path[0]) {
		ssize_t len = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);

		if (len <= 0)
			return -1;
		self_path[len] = '\0';
	}
	program_only = true;
	return drop();
}
