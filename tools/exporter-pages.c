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

/* One mapping: its range and what it maps (offset, device, inode: a mapping of the same
 * range read again is the same mapping only if these are the same too); whether its head
 * allows a drop (a file's, not writable) and whether it may be dropped so far. */
struct mapping {
	unsigned long start, end, offset, inode;
	char dev[16];
	bool file_ro, candidate;
	bool program; /* a mapping of the program's own file (/proc/self/exe) */
};

/* The mappings to drop, gathered before any is dropped: reading /proc/self/smaps runs stdio
 * and scanf (and reading maps, below, code of its own), which would fault back in, 64 KiB
 * around each function, the libc pages dropped before them (1 MiB of libc stayed resident
 * in a process that then only waited). More mappings than this are left to a later call. */
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

/* Whether the path a mapping's line names, ending with the line, is the program's own. */
static bool is_program(const char *path)
{
	size_t len = strlen(self_path);

	return len && strncmp(path, self_path, len) == 0 &&
	       (path[len] == '\n' || path[len] == '\0');
}

/* A mapping's head, START-END PERMS OFFSET DEV INODE [PATH], into m; false: not a head (an
 * smaps line of counts, "Rss:", "Anonymous:" and the like, begins with a capital, a head
 * with a lowercase hex digit). A file's pages only, not a device's (a driver's mapping is
 * its own), and none of a writable mapping. */
static bool parse_head(const char *line, struct mapping *m)
{
	char perms[8];
	int path_at = 0;

	if (!((line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f')) ||
	    sscanf(line, "%lx-%lx %7s %lx %15s %lu %n", &m->start, &m->end, perms, &m->offset,
		   m->dev, &m->inode, &path_at) < 6 ||
	    path_at == 0)
		return false;
	m->file_ro = line[path_at] == '/' && strncmp(line + path_at, "/dev/", 5) != 0 &&
		     strchr(perms, 'w') == NULL;
	m->candidate = m->file_ro;
	m->program = is_program(line + path_at);
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

/* The value of c as a digit of base (10 or 16, lowercase as the kernel writes it); -1: none. */
static int digit(char c, unsigned base)
{
	int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 16;

	return d < (int)base ? d : -1;
}

/* Reads a number of base at *p and the separator sep after it, past which *p is left; false
 * (*p unchanged) when there is none or another character follows it. */
static bool number(const char **p, unsigned base, char sep, unsigned long *ret)
{
	const char *q = *p;
	unsigned long v = 0;

	for (; digit(*q, base) >= 0; q++)
		v = v * base + (unsigned long)digit(*q, base);
	if (q == *p || *q != sep)
		return false;
	*ret = v;
	*p = q + 1;
	return true;
}

/* One line of /proc/self/maps (START-END PERMS OFFSET DEV INODE [PATH], proc(5)), NUL-ended,
 * into m, by hand: sscanf's code is more than this, and what a call runs after its drop
 * faults back in. false: not such a line. */
static bool parse_maps_line(const char *p, struct mapping *m)
{
	const char *perms, *dev, *end;

	if (!number(&p, 16, '-', &m->start) || !number(&p, 16, ' ', &m->end))
		return false;
	perms = p;
	if (strnlen(p, 5) < 5 || p[4] != ' ')
		return false;
	p += 5;
	if (!number(&p, 16, ' ', &m->offset))
		return false;
	dev = p;
	end = strchr(p, ' ');
	if (!end || (size_t)(end - dev) >= sizeof(m->dev))
		return false;
	memcpy(m->dev, dev, (size_t)(end - dev));
	m->dev[end - dev] = '\0';
	p = end + 1;
	m->file_ro = m->candidate = m->program = false;
	if (!number(&p, 10, ' ', &m->inode))
		return number(&p, 10, '\0', &m->inode); /* no path: never dropped */
	while (*p == ' ')
		p++;
	m->file_ro = *p == '/' && strncmp(p, "/dev/", 5) != 0 && memchr(perms, 'w', 4) == NULL;
	m->candidate = m->file_ro;
	m->program = is_program(p);
	return true;
}

/* Matches one line of maps against what smaps found; -EAGAIN: a mapping smaps did not see. */
static int match_line(const char *line, size_t *k, size_t *n)
{
	struct mapping head;

	if (!parse_maps_line(line, &head))
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
