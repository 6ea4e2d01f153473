/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Facts read from pasted text (`gpuenv explain`): what a reader recognised in an error
 * message or a command's output, as (snapshot path, value, line) triples. Readers live in
 * this layer (pure parsers over (text, len), no I/O, no snapshot): each is one file
 * pasted-<name>.c with a fuzz target, and appends what it recognises here; the explain
 * command turns the list into snapshot facts with source "pasted:LINE".
 *
 * Paths are snapshot paths as docs/snapshot-schema.md names them, dotted, array elements by
 * index ("driver.nvidia.version", "hardware.gpus.0.name"). Values are the text as read
 * (trimmed), never a value derived through the knowledge base: derivation is the rules'.
 * The text given to a reader is already cleaned by the explain input layer: UTF-8, "\n"
 * line ends, no ANSI escapes, Markdown fences and "> " quote markers removed, so line N of
 * it is line N of what the user pasted.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "shared/strmap.h"

#define PASTED_FACTS_MAX 4096u /* a paste naming more facts than this is cut, not grown */

struct pasted_fact {
	const char *path; /* the facts' index's copy (pasted_facts_done frees it) */
	char *value;
	unsigned line;	    /* 1-based line of the cleaned input the value was read from */
	const char *reader; /* static: the reader's name ("nvidia-smi", "collect-env" …) */
	/* The text shows the call behind path failing: value is its error text (the snapshot
	 * fact's state is then error), as "Failed to initialize NVML: <error>" shows nvmlInit's. */
	bool failed;
	/* The text shows there is none (lspci -k's device block without "Kernel driver in use:"):
	 * value says how the text shows it (the snapshot fact's state is then absent). */
	bool absent;
};

struct pasted_facts {
	struct pasted_fact *v;
	size_t n, cap;
	size_t dropped;	     /* facts past PASTED_FACTS_MAX, counted so the output can say so */
	struct strmap index; /* path → position in v: a linear search made big pastes quadratic */
	/* Added to every line given to pasted_facts_add*(): the lines before the part of the
	 * input a reader is given (explain reads a large gzip input a window at a time). */
	unsigned line_base;
	/* When set, line N (1 ≤ N ≤ line_map_n) given to pasted_facts_add*() is line
	 * line_map[N - 1] of the window: the reader was given only some of the window's lines
	 * (pasted-dispatch.h), and its facts keep the user's line numbers. */
	const unsigned *line_map;
	size_t line_map_n;
};

/* Copies path and value. A later fact for the same path replaces the earlier (the last
 * value pasted wins, as in a shell history). 0, or -ENOMEM; -EINVAL on an empty path. */
int pasted_facts_add(struct pasted_facts *f, const char *reader, const char *path,
		     const char *value, unsigned line);
/* A failed call: path's fact is an error with the text `error` (pasted_fact.failed). */
int pasted_facts_add_error(struct pasted_facts *f, const char *reader, const char *path,
			   const char *error, unsigned line);
/* Nothing at path, as the text shows: path's fact is absent, `why` says how it is shown. */
int pasted_facts_add_absent(struct pasted_facts *f, const char *reader, const char *path,
			    const char *why, unsigned line);
/* printf-style value. */
int pasted_facts_addf(struct pasted_facts *f, const char *reader, const char *path, unsigned line,
		      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
const struct pasted_fact *pasted_facts_get(const struct pasted_facts *f, const char *path);
void pasted_facts_done(struct pasted_facts *f);

/* Every reader has this shape: recognise what it knows in text[0..len) (NUL-terminated at
 * len, may hold lines it does not know: skip them), append facts. Returns the number of
 * facts appended (0: nothing recognised), or a negative errno (-ENOMEM). */
typedef int (*pasted_reader_fn)(const char *text, size_t len, struct pasted_facts *out);

struct pasted_needle;

/* What of a window explain gives a reader (pasted-dispatch.h; docs/HACKING.md, "Readers of
 * pasted text"). A reader given less than the whole text is given its lines in their order,
 * each run of the lines it is not given replaced by one empty line: it must read nothing from
 * those lines and be left by them as by an empty line. */
enum pasted_reach {
	/* The whole window, when one of its signs is anywhere in it (or always, without signs):
	 * for a reader whose lines no word marks (a pip list row, a table row). */
	PASTED_REACH_TEXT = 0,
	/* Only the lines that hold one of its signs. */
	PASTED_REACH_LINES,
	/* A line that holds one of its signs and the lines after it up to the next empty one
	 * (blanks only): for a command's output that its first line names. */
	PASTED_REACH_BLOCK,
	/* A line that holds one of its signs and the line after it: for a prompt and the answer
	 * printed under it (">>> torch.version.cuda", then "'12.1'"). */
	PASTED_REACH_NEXT,
	/* A line that holds one of its signs and the lines after it indented deeper than it
	 * (blanks and tabs, a tab as eight), up to the first that is not or is empty: for an
	 * indented section whose title a sign names (nvidia-smi -q's "GPU 0000…" and its
	 * sections), which the first line back at the title's indentation ends. A sign line in
	 * the block keeps it open, at the shallower of the two indentations. A block cannot
	 * run on through text that has no empty lines. */
	PASTED_REACH_INDENTED,
};

struct pasted_reader {
	const char *name; /* "errors", "nvidia-smi", "collect-env" … */
	pasted_reader_fn read;
	/* Words at least one of which (case-sensitive, 4 bytes or more) is in every text the
	 * reader reads anything from (every line, for PASTED_REACH_LINES): explain runs it only
	 * on text that holds one (one pass for every reader, pasted-scan.h). NULL: no such
	 * words; it always runs (on the whole text). */
	const char *const *signs;
	enum pasted_reach reach;
	/* Signs computed rather than listed (the errors reader's: its symptom table), ASCII
	 * case folded where the needle says so: writes at most max, returns how many. */
	size_t (*more_signs)(struct pasted_needle *needles, size_t max);
	/* For PASTED_REACH_LINES (and PASTED_REACH_INDENTED, where such a line opens a block):
	 * does the reader read anything from this line, or does the line change what it makes
	 * of the lines after it (line[0..n), without its "\n", maybe ending in "\r")? A cheap
	 * test that may say yes too often, never no to such a line (an `env` line: "NAME=" in
	 * the first column; a JSON object's opening line; a "GPU <bus id>" line); explain hands
	 * the reader the lines it says yes to, besides those holding one of its signs. */
	bool (*takes)(const char *line, size_t n);
};
/* Every reader, in the order explain runs them (pasted-readers.c: one line per reader);
 * ends with { NULL }. */
extern const struct pasted_reader pasted_readers[];
