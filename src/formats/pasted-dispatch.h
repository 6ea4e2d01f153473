/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One pass over a window of cleaned pasted text for every reader of pasted_readers[] (pasted.h):
 * each line is looked at once, for the signs of all readers together (pasted-scan.h), and
 * handed only to the readers whose signs it holds (PASTED_REACH_LINES), whose own test takes it
 * (pasted_reader.takes), whose block it continues (PASTED_REACH_BLOCK, PASTED_REACH_INDENTED)
 * or which it is the line after a sign of (PASTED_REACH_NEXT); a reader of PASTED_REACH_TEXT
 * gets the whole window when one of its signs is anywhere in it. A reader is then run once per window over what it was
 * handed, its lines in their order, each run of lines it was not handed replaced by one empty
 * line, the facts' line numbers put back through pasted_facts.line_map. Its facts are then the
 * same as over the whole window (tests/unit/test-pasted-signs.c and the fuzz target
 * fuzz-pasted-dispatch check that over every sample), and a long log is walked once rather
 * than once per reader. Pure, over (ptr, len).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "formats/pasted-scan.h"
#include "formats/pasted.h"

#define PASTED_DISPATCH_READERS_MAX 64u /* a bit each in a uint64_t */

/* Lines handed to one reader of a window: a run of lines one after the other, as the bytes
 * they take in the window (each "\n" included; the window's last line may have none); or a
 * gap (len PASTED_PART_GAP: one empty line standing for the lines not handed since the last
 * one, off then the number of the line handed after it). A run's first line is the one after
 * the line before it, or the one the gap before it names. */
#define PASTED_PART_GAP UINT32_MAX
struct pasted_part_line {
	uint32_t off, len;
	uint32_t lines; /* a run's lines, counted as they are handed: put_part looks for none of
			 * its "\n"s again (a memchr per line of every reader's part) */
};

/* The lines handed to one reader of a window, as places in the window: each reader's text is
 * copied out only when it runs, into the one buffer they share (pasted_dispatch.buf), so
 * that a window's lines handed to several readers are not held in several copies at once,
 * and a run of lines is one place, not one per line. */
struct pasted_part {
	struct pasted_part_line *v;
	size_t n, cap;
	size_t len;	/* the bytes of its text: the lines, each with its "\n" */
	unsigned lines; /* the lines of its text, gaps included */
	unsigned last;	/* the window's line last handed (0: none yet) */
};

/* One window's lines each reader is handed (pasted_dispatch_split), to be read by them
 * (pasted_dispatch_run): apart, so that the next window can be split on one thread while the
 * readers read this one on another (pasted-gz-windows.h). */
struct pasted_split {
	struct pasted_part *parts; /* one per reader */
	size_t n_parts;
	unsigned indent[PASTED_DISPATCH_READERS_MAX]; /* an open PASTED_REACH_INDENTED block's */
	uint64_t seen;				      /* the readers whose signs are in it */
	unsigned newlines;			      /* the window's "\n" (once done) */
	/* where the split stopped (pasted_dispatch_split_start) and what it keeps from line to
	 * line: the open blocks, and the readers the next line is the line after a sign of */
	size_t at;
	unsigned no;
	uint64_t in_block, in_indented, after;
	bool done;
};

struct pasted_dispatch {
	const struct pasted_reader *readers;
	size_t n_readers;
	uint64_t text, signed_text, block, next, indented; /* readers by reach, a bit each */
	uint64_t takers; /* readers of the lines their own test takes (pasted_reader.takes) */
	struct pasted_needle needles[PASTED_SCAN_MAX];
	uint64_t tags[PASTED_SCAN_MAX]; /* the reader whose sign needle i is, as its bit */
	struct pasted_scan scan;
	struct pasted_split own; /* pasted_dispatch_read's */
	char *buf;		 /* the text of the reader running */
	size_t buf_cap;
	unsigned *map; /* line i + 1 of buf is line map[i] of the window */
	size_t map_cap;
	unsigned newlines; /* the "\n" of the window last read */
};

/* readers: ends with { NULL }, at most PASTED_DISPATCH_READERS_MAX, their signs together at
 * most PASTED_SCAN_MAX (-EINVAL otherwise). 0, -EINVAL or -ENOMEM. */
int pasted_dispatch_init(struct pasted_dispatch *d, const struct pasted_reader *readers);
/* Reads text[0..n) (whole lines, NUL-terminated at n) with every reader, reader i appending to
 * each[i] (its line_base set to line_base: the window's first line is line_base + 1). 0, or
 * the first reader's negative errno. pasted_dispatch_split then pasted_dispatch_run. */
int pasted_dispatch_read(struct pasted_dispatch *d, const char *text, size_t n, unsigned line_base,
			 struct pasted_facts *each);
void pasted_dispatch_done(struct pasted_dispatch *d);

/* The lines of text[0..n) each reader is handed, into s (zeroed before its first use). Reads
 * d only: one thread may split while another runs. 0, -EFBIG (over 4 GiB), -ENOMEM. */
int pasted_dispatch_split(const struct pasted_dispatch *d, const char *text, size_t n,
			  struct pasted_split *s);
/* The same in two steps, which may run on two threads one after the other: the lines that
 * start before upto, then the rest (the split the same as pasted_dispatch_split's). */
int pasted_dispatch_split_start(const struct pasted_dispatch *d, const char *text, size_t n,
				size_t upto, struct pasted_split *s);
int pasted_dispatch_split_finish(const struct pasted_dispatch *d, const char *text, size_t n,
				 struct pasted_split *s);
/* Between the two, the lines from where the split stopped that start before upto: a split
 * stopped at any line is the same once finished. */
int pasted_dispatch_split_more(const struct pasted_dispatch *d, const char *text, size_t n,
			       size_t upto, struct pasted_split *s);
/* The readers over s, split from the same text[0..n) (finished first where it is not): as
 * pasted_dispatch_read. */
int pasted_dispatch_run(struct pasted_dispatch *d, struct pasted_split *s, const char *text,
			size_t n, unsigned line_base, struct pasted_facts *each);
/* As pasted_dispatch_run, for the readers in `which` (a bit each) only. */
int pasted_dispatch_run_some(struct pasted_dispatch *d, struct pasted_split *s, const char *text,
			     size_t n, unsigned line_base, struct pasted_facts *each,
			     uint64_t which);
/* The readers of the whole text that have no signs (a bit each): each reads every window as
 * it is, needing neither its split nor the dispatcher's buffers, so that they may run on
 * another thread than the rest (pasted-gz-windows.h), each writing only its own each[i]. */
uint64_t pasted_dispatch_whole(const struct pasted_dispatch *d);
/* The readers in `which` among pasted_dispatch_whole(d) over text[0..n): as
 * pasted_dispatch_run does for them. Reads d only. */
int pasted_dispatch_run_whole(const struct pasted_dispatch *d, uint64_t which, const char *text,
			      size_t n, unsigned line_base, struct pasted_facts *each);
void pasted_split_done(struct pasted_split *s);
