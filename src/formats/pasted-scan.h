/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Finding which of a fixed set of needles occur in pasted text, in one pass over it: what lets
 * explain skip the readers whose signature lines a paste does not hold, and the errors reader
 * the lines that name no message it knows. A filter of 16,384 bits holds a hash of each
 * needle's first four bytes, ASCII case folded where some needle of the set is matched in
 * either case (as they are where none is), and a second one of its bytes 0..2 and 1..3:
 * the text's three bytes at every second position are tested in the second (a needle of four
 * bytes or more holds three at an even position), the four bytes at the one or two positions
 * a hit there leaves in the first, and only where both bits are set are the needles
 * compared. Pure, over (ptr, len).
 *
 * Each filter is 2 KiB: a set of at most 320 needles sets at most 640 of its
 * bits, so a position's chance of a false hit stays a few percent, and a whole scan is under
 * 9 KiB. A scan is built on the stack at every run (the dispatcher's, the errors reader's,
 * the windows reader's),
 * where each 4 KiB page is a page fault the first time it is touched: at 65,536 bits (22 KiB)
 * the two cost 12 of a paste's page faults more (docs/explain.md, "Performance: a typical
 * paste").
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PASTED_SCAN_MAX 320u /* needles in one set */

struct pasted_needle {
	const char *s; /* at least 4 bytes */
	bool nocase;   /* ASCII letters match in either case ("cuda", "CUDA", "Cuda") */
};

#define PASTED_SCAN_WORDS 256u /* 64-bit words in each filter: 16,384 bits */

struct pasted_scan {
	uint64_t filter[PASTED_SCAN_WORDS];  /* the needles' first four bytes */
	uint64_t filter3[PASTED_SCAN_WORDS]; /* their bytes 0..2 and 1..3 */
	const struct pasted_needle *needles;
	size_t n;
	/* 0x20 on each byte where some needle is matched in either case (the filters then hold
	 * bytes with it set, and the text's are tested so), 0 where none is */
	uint64_t case_bits;
	uint16_t len[PASTED_SCAN_MAX]; /* (a needle is a word or a message: under 64 KiB) */
	/* each needle's first four bytes, and its next four where it has eight, as the text's
	 * must be once 0x20 is set on those of them that are a letter matched in either case
	 * (fold: bit k for byte k) */
	uint32_t exact4[PASTED_SCAN_MAX][2];
	uint8_t fold[PASTED_SCAN_MAX];
	/* The needles whose hash falls in each word of the filter, as chains (index + 1, 0
	 * ends): a hit compares the few needles of its word, not all of them. */
	uint16_t head[PASTED_SCAN_WORDS], chain[PASTED_SCAN_MAX];
};

/* n needles (at most PASTED_SCAN_MAX, each of 4 bytes to 64 KiB: -EINVAL otherwise); the array
 * must outlive the scan. 0 or -EINVAL. */
int pasted_scan_init(struct pasted_scan *sc, const struct pasted_needle *needles, size_t n);
/* Does any needle occur in p[0..n)? */
bool pasted_scan_any(const struct pasted_scan *sc, const char *p, size_t n);
/* found[i] = true for every needle i that occurs in p[0..n) (others left as they are). */
void pasted_scan_mark(const struct pasted_scan *sc, const char *p, size_t n, bool *found);
/* The bitwise OR of tags[i] over every needle i that occurs in p[0..n): which of several
 * owners of needles (a bit each: explain's readers) a line is for. */
uint64_t pasted_scan_tags(const struct pasted_scan *sc, const uint64_t *tags, const char *p,
			  size_t n);
