/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the pasted-text readers (pasted-<name>.c) share: walking the cleaned text line by line
 * with the user's line numbers, splitting "key : value" lines, and appending facts with a
 * printf-style path while counting them and keeping the first error.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "formats/pasted.h"

/* The text's lines, one at a time: the text itself is shared by every reader and never
 * copied or written; the line returned is a copy in a buffer of the walk's own (as long as
 * the longest line), which the reader may cut and trim in place, valid until the next call.
 * Readers never see an embedded NUL (the text ends at len), but a stray one ends the walk
 * after the line it cuts. */
struct pasted_lines {
	const char *next, *end;
	char *line;
	size_t cap;
	unsigned no; /* 1-based number of the line last returned */
};
/* Never fails (the line buffer is allocated by pasted_lines_next): 0. */
int pasted_lines_init(struct pasted_lines *it, const char *text, size_t len);
/* The next line, NUL-terminated and with its "\n" and a stray "\r" cut; NULL at the end, or
 * when the line does not fit in memory (the walk ends there). */
char *pasted_lines_next(struct pasted_lines *it);
/* The next line as the text holds it (*ret_p, *ret_n bytes, without its "\n", a "\r" kept),
 * not copied: for a reader that skips most lines unread. False at the end. A stray NUL ends
 * the text (pasted_lines_init): the line it cuts is the last, up to the NUL. */
bool pasted_lines_peek(const struct pasted_lines *it, const char **ret_p, size_t *ret_n);
/* Past the line pasted_lines_peek gave, its number counted, as pasted_lines_next goes. */
void pasted_lines_skip(struct pasted_lines *it, size_t n);
void pasted_lines_done(struct pasted_lines *it);

/* Trims ASCII blanks at both ends, in place. */
char *pasted_strip(char *s);
/* s past prefix when s starts with it (leading blanks skipped), else NULL. */
const char *pasted_after(const char *s, const char *prefix);
/* Splits "key<sep>value" at the first sep: both trimmed, in place. False when there is no sep
 * or the key is empty. */
bool pasted_kv(char *line, char sep, char **ret_key, char **ret_value);
/* The leading run of s made of digits and dots ("535.104.05 …" → "535.104.05"), copied into
 * buf; false when it does not start with a digit or does not fit. */
bool pasted_version_token(const char *s, char *buf, size_t len);
/* The decimal number of 1 to 4 digits at the start of s (a GPU index: nvidia-smi, collect_env
 * and lspci never print more); *ret_end points past it. False otherwise, or when a fifth digit
 * follows. */
bool pasted_index(const char *s, unsigned *ret, const char **ret_end);
/* s[0..n) copied into buf (len bytes, NUL-terminated), cut short on a UTF-8 character
 * boundary when it does not fit: what readers keep of a long message. */
void pasted_cut_utf8(const char *s, size_t n, char *buf, size_t len);
/* The first line of a kind a reader met (its number, 0 for none, and its text cut as the
 * errors reader cuts a symptom's line): what a finding's evidence cites. */
#define PASTED_LINE_KEEP 240
struct pasted_first_line {
	unsigned line;
	char text[PASTED_LINE_KEEP + 1];
};
/* Keeps line and text in f unless f already holds a line: the first one names it. */
void pasted_keep_first_line(struct pasted_first_line *f, unsigned line, const char *text);
/* The first blank-separated token of s, copied into buf; false when none or too long. */
bool pasted_token(const char *s, char *buf, size_t len);

/* A value that says nothing was read: "N/A", "[N/A]", "[Not Supported]", "Could not collect",
 * "Unknown Error" … (as nvidia-smi and collect_env print them), or empty. */
bool pasted_no_value(const char *v);
/* nvidia-smi's switch words as a bool fact's text: "Enabled"/"On"/"Yes" → "true",
 * "Disabled"/"Off"/"No" → "false", anything else NULL. */
const char *pasted_bool_word(const char *v);
/* The number before a unit ("81920 MiB", "81920MiB", "33 C" → "81920", "33") copied into buf:
 * the digits only when nothing but blanks and the unit follows; false otherwise. */
bool pasted_number_unit(const char *v, const char *unit, char *buf, size_t len);

/* A reader's output: facts appended, and the first error, returned by pasted_out_result(). */
struct pasted_out {
	struct pasted_facts *f;
	const char *reader;
	int n, err;
};
/* Appends (path, value trimmed) unless the value is empty or the path does not fit. */
void pasted_put(struct pasted_out *o, unsigned line, const char *value, const char *path_fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Appends (path, "") : a value read as empty ("NVIDIA_VISIBLE_DEVICES="). */
void pasted_put_empty(struct pasted_out *o, unsigned line, const char *path_fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Appends path as absent, `why` saying how the text shows it (pasted_facts_add_absent()). */
void pasted_put_absent(struct pasted_out *o, unsigned line, const char *why, const char *path_fmt,
		       ...) __attribute__((format(printf, 4, 5)));
/* The reader's return value: the first error, else the number of facts. */
int pasted_out_result(const struct pasted_out *o);

/* A Python list literal of quoted strings at s ("['sm_50', 'sm_60']", as repr() prints one;
 * blanks and line ends allowed between items, single or double quotes): each string, up to max of them, copied into
 * items[] (PASTED_ITEM_MAX bytes each). Returns the number read, or -1 when s is not such a
 * list (an unquoted item, a string too long, more than max, no closing bracket); *ret_end
 * points past the ']'. */
#define PASTED_ITEM_MAX 48
int pasted_py_list(const char *s, char (*items)[PASTED_ITEM_MAX], size_t max, const char **ret_end);
