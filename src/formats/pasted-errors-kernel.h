/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The kernel's messages for the "errors" reader of pasted text (pasted-errors.c): a message
 * wrapped over NVRM lines read joined, and the Xid events and API mismatch the kernel log
 * parser (kernel-log.h) reads, given the text's NVRM lines only. Pure, over (ptr, len). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "formats/pasted.h"

/* The NVRM message that starts on line p[0..n) of a text ending at end, joined (its lines
 * after "NVRM: " each, with a blank) into buf[0..cap) while the text so far ends mid-sentence
 * and the next line continues it, at most max_lines more lines: the joined length, with
 * *ret_lines the lines joined; 0 (*ret_lines untouched) when no line was joined. */
size_t pasted_nvrm_join(const char *p, size_t n, const char *end, char *buf, size_t cap,
			size_t max_lines, size_t *ret_lines);

/* A text's NVRM lines for the kernel log parser, line by line, every other line left empty
 * (what is read from it, Xid events and the API mismatch, is on NVRM lines alone, and a
 * message joined over lines ends at one without "NVRM: "): the parse of a long log then
 * splits and searches the few lines that matter. Lines keep their numbers. A text holding a
 * NUL (where the parse stops reading) is given whole instead. */
struct pasted_nvrm_text {
	const char *text; /* the whole text, len bytes */
	size_t len;
	char *buf; /* its NVRM lines, n bytes; NULL until the first */
	size_t n;
	bool whole;
};

void pasted_nvrm_text_init(struct pasted_nvrm_text *t, const char *text, size_t len);
/* Line `no` (p[0..n), from 1, every line in order), holding "NVRM: " or not. 0 or -ENOMEM. */
int pasted_nvrm_text_line(struct pasted_nvrm_text *t, const char *p, size_t n, unsigned no,
			  bool nvrm);
/* The facts of the Xid events and the API mismatch, as `reader`'s (driver.xid_events.N.*
 * numbered on from those already in out); the count, or -ENOMEM. */
int pasted_nvrm_text_read(const struct pasted_nvrm_text *t, const char *reader,
			  struct pasted_facts *out);
void pasted_nvrm_text_done(struct pasted_nvrm_text *t);
