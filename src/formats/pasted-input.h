/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Input hygiene for `gpuenv explain`: the bytes a user pasted or redirected into a file,
 * turned into the text every reader expects (pasted.h): UTF-8, "\n" line ends, no terminal
 * escapes, no Markdown fences or "> " quote markers, and line N of the result is line N of
 * what the user sees. Pure, over (ptr, len).
 * - UTF-16 with a byte order mark is converted: PowerShell 5's `>` and Out-File write
 *   UTF-16LE with a BOM (about_Redirection, "Windows PowerShell 5.1 … uses Unicode
 *   (UTF-16LE)"); a UTF-8 BOM (Notepad) is dropped.
 * - CRLF (Windows) and a lone CR (old Mac) end lines.
 * - ANSI/ECMA-48 escapes are removed: CSI "ESC [ params intermediates final" (colour, cursor),
 *   OSC "ESC ] … BEL | ESC \", and two-byte "ESC <intermediates> final" (charset selection);
 *   a backspace overstrike ("N\bN", as man(1) bolds) keeps the last character.
 * - Markdown: a fence line (``` or ~~~, after at most three spaces, CommonMark §4.5) becomes an
 *   empty line; the block-quote markers ">" (each with one optional space, CommonMark §5.1)
 *   at a line's start are removed.
 * - Log collectors' line prefixes (docker compose, kubectl --prefix, syslog, GitHub Actions)
 *   come off where a run of lines shows them: pasted-prefixes.h.
 * Refused: more than PASTED_INPUT_MAX bytes; NUL bytes in UTF-8 text (a binary file; a
 * UTF-16 text without BOM also lands here); invalid UTF-8 or control bytes beyond a small
 * ratio of the text (an image, an archive). A few stray invalid bytes (Latin-1 in a path) are
 * kept as U+FFFD.
 */
#pragma once

#include <stddef.h>

struct strbuf;

#define PASTED_INPUT_MAX ((size_t)64 << 20)

/* Cleans data[0..len) into *ret (malloc()ed, NUL-terminated, *ret_len bytes). 0; -EFBIG over
 * PASTED_INPUT_MAX; -EBADMSG binary or not text; -ENOMEM. On -EFBIG/-EBADMSG *ret_why (when
 * given) is a static sentence saying why, for the user. */
int pasted_input_clean(const char *data, size_t len, char **ret, size_t *ret_len,
		       const char **ret_why);
/* The same into sb (its text sb->buf, NUL-terminated at sb->len), emptied first and grown as
 * needed: a buffer used again for text after text (explain's gzip windows) keeps its pages,
 * where one made anew for each was faulted in again each time, at 4 KiB a fault. 0, or the
 * errors above. */
int pasted_input_clean_into(const char *data, size_t len, struct strbuf *sb, const char **ret_why);
/* pasted_input_clean's text, made in data's own buffer (malloc()ed, len bytes; taken: freed or
 * returned as *ret, on every return): a paste cleaned without a second buffer of its size, a
 * page fault a 4 KiB of it (docs/explain.md, "Performance: a typical paste"). UTF-16, and
 * UTF-8 with bytes that are not UTF-8 early in it, move to a buffer of their own. */
int pasted_input_clean_take(char *data, size_t len, char **ret, size_t *ret_len,
			    const char **ret_why);
