/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A growable text buffer with a hard size cap (curl's dynbuf "toobig" idea,
 * docs/internals/DYNBUF.md): every renderer writes into one, and a runaway input
 * can never grow it past the cap. Appends after an error are ignored and the
 * first error is kept, so callers check once at the end.
 */
#pragma once

#include <stdarg.h>
#include <stddef.h>

#include "macro.h"

/* Where a buffer with a sink writes what it holds (strbuf_init_sink): 0, or a negative errno. */
typedef int (*strbuf_sink_fn)(void *userdata, const char *p, size_t n);

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
	size_t cap; /* hard maximum of len (with a sink: of all written); 0 = default (64 MiB) */
	int err;    /* first error: -ENOMEM or -EFBIG, or the sink's */
	/* With a sink, the lines done so far are written out when the buffer would grow past
	 * STRBUF_SINK_SIZE: an output of any length is made in a few KiB (a paste's 50 KB
	 * diagnosis was a dozen heap pages first touched, docs/explain.md). The line being made
	 * stays in the buffer, so that a renderer may still look back along it (out_wrap trims
	 * its trailing blanks); nothing before it may be looked at again. */
	strbuf_sink_fn sink;
	void *sink_data;
	size_t written; /* bytes given to the sink so far */
};

#define STRBUF_SINK_SIZE 4096u

#define STRBUF_INIT                                                                                \
	{                                                                                          \
		0                                                                                  \
	}

void strbuf_init(struct strbuf *sb, size_t cap);
/* A buffer whose finished lines go to sink(userdata, …) as it fills; strbuf_flush() writes
 * the rest. */
void strbuf_init_sink(struct strbuf *sb, size_t cap, strbuf_sink_fn sink, void *userdata);
/* All that sb holds, to its sink (a no-op without one); sb is then empty. 0 or the error. */
int strbuf_flush(struct strbuf *sb);
void strbuf_done(struct strbuf *sb);
/* Room for extra more bytes (and the NUL) at once, where their number is known: one buffer of
 * that size, not one grown by doubling through copies. 0, -EFBIG over the cap or -ENOMEM. */
int strbuf_reserve(struct strbuf *sb, size_t extra);
int strbuf_add(struct strbuf *sb, const char *s, size_t n);
int strbuf_puts(struct strbuf *sb, const char *s);
int strbuf_putc(struct strbuf *sb, char c);
/* The length of the control character at p: 1 for a C0 byte (below 0x20) or DEL (0x7f), 2 for
 * a C1 control encoded in UTF-8 (U+0080..U+009F, C2 80..C2 9F: xterm and others obey U+009B as
 * CSI, ECMA-48 section 5.2), 0 for anything else. */
size_t strbuf_control_len(const char *p);
/* s with each control character (strbuf_control_len()) written as \xHH per byte: text from a
 * file (a path, an archive member's or a wheel member's name, an ELF string) cannot move the
 * cursor or recolour a terminal. Other bytes, UTF-8 included, are kept. */
int strbuf_put_printable(struct strbuf *sb, const char *s);
/* The same for the text renderers (report, doctor, Markdown, Mermaid), which show values read
 * from the machine, multi-line ones included: newline, carriage return and tab are written as
 * \n, \r and \t, every other control character as \xHH. */
int strbuf_put_escaped(struct strbuf *sb, const char *s);
/* How many bytes of s[0..n) strbuf_put_escaped() and strbuf_put_printable() would copy as
 * they are before the first they might change: n when s needs no escaping (most text), which
 * a renderer can then use in place rather than copy. */
size_t strbuf_plain_len(const char *s, size_t n);
/* s with the user name of every home directory in it replaced: /home/<name>/… and /Users/<name>/…
 * become /home/<user>/… (--redact: a path names its user). Other paths, /root included (it
 * names no one), are kept. */
int strbuf_put_home_redacted(struct strbuf *sb, const char *s);
int strbuf_printf(struct strbuf *sb, const char *fmt, ...) _printf_(2, 3);
int strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap) _printf_(2, 0);
/* The NUL-terminated contents ("" when empty); borrowed. */
const char *strbuf_str(const struct strbuf *sb);
/* Hand the buffer to the caller (never NULL unless sb->err); sb is reset. */
int strbuf_steal(struct strbuf *sb, char **ret);
/* The end of a renderer into sb: r < 0 (the renderer's result) or a failed buffer frees sb and
 * returns the error; otherwise strbuf_steal(). */
int strbuf_finish(struct strbuf *sb, int r, char **ret);
void strbuf_reset(struct strbuf *sb);
