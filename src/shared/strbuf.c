// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Capped growable buffer; see strbuf.h. The cap exists so that a renderer fed a hostile
 * snapshot, or a reader fed a huge file, fails with -EFBIG instead of eating memory.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "strbuf.h"

#define STRBUF_DEFAULT_CAP ((size_t)64 << 20)

void strbuf_init(struct strbuf *sb, size_t cap)
{
	*sb = (struct strbuf){ .cap = cap };
}

void strbuf_init_sink(struct strbuf *sb, size_t cap, strbuf_sink_fn sink, void *userdata)
{
	*sb = (struct strbuf){ .cap = cap, .sink = sink, .sink_data = userdata };
}

void strbuf_done(struct strbuf *sb)
{
	free(sb->buf);
	*sb = (struct strbuf){ .cap = sb->cap, .sink = sb->sink, .sink_data = sb->sink_data };
}

/* buf[0..n) to the sink, the rest moved to the start. */
static int sink_out(struct strbuf *sb, size_t n)
{
	int r = sb->sink(sb->sink_data, sb->buf, n);

	if (r < 0)
		return sb->err = r;
	memmove(sb->buf, sb->buf + n, sb->len - n + 1); /* its NUL too */
	sb->len -= n;
	sb->written += n;
	return 0;
}

int strbuf_flush(struct strbuf *sb)
{
	if (sb->err)
		return sb->err;
	return sb->sink && sb->len ? sink_out(sb, sb->len) : 0;
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	sb->err = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

int strbuf_reserve(struct strbuf *sb, size_t extra)
{
	size_t cap = sb->cap ? sb->cap : STRBUF_DEFAULT_CAP;
	size_t need, alloc;
	char *p;

	if (sb->err)
		return sb->err;
	if (__builtin_add_overflow(sb->len, extra, &need) || need > cap - sb->written)
		return sb->err = -EFBIG;
	if (need + 1 <= sb->alloc)
		return 0;
	if (sb->sink && sb->alloc >= STRBUF_SINK_SIZE) { /* the lines done, out */
		const char *nl = memrchr(sb->buf, '\n', sb->len);

		if (nl && sink_out(sb, (size_t)(nl + 1 - sb->buf)) < 0)
			return sb->err;
		need = sb->len + extra;
		if (need + 1 <= sb->alloc)
			return 0;
	}
	/* 256 bytes first: most buffers are a line or a field of an output (a finding's evidence
	 * line, a fact's key), which from 64 bytes were two or three reallocs each (callgrind:
	 * 214 of them, 41,742 instructions, in explain of the bench's 20 KB paste) */
	alloc = sb->alloc ? sb->alloc : 256;
	while (alloc < need + 1)
		alloc *= 2;
	p = realloc(sb->buf, alloc);
	if (!p)
		return sb->err = -ENOMEM;
	p[sb->len] = '\0'; /* a buffer reserved before anything is put in it reads "" */
	sb->buf = p;
	sb->alloc = alloc;
	return 0;
}

int strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	int r = strbuf_reserve(sb, n);

	if (r < 0)
		return r;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_puts(struct strbuf *sb, const char *s)
{
	return strbuf_add(sb, s, strlen(s));
}

int strbuf_putc(struct strbuf *sb, char c)
{
	return strbuf_add(sb, &c, 1);
}

size_t strbuf_control_len(const char *p)
{
	unsigned char c = (unsigned char)p[0];

	if (c && (c < 0x20 || c == 0x7f))
		return 1;
	if (c == 0xc2 && (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f)
		return 2;
	return 0;
}

/* The bytes of p[0..n) before the first that is a C0 control, DEL or 0xc2 (the lead of a C1
 * control): eight at a time, as long text (a diagnosis's messages) is almost all such bytes. */
static size_t plain_run(const char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, del, c2;

		memcpy(&x, p + i, 8);
		del = x ^ (ones * 0x7f);
		c2 = x ^ (ones * 0xc2);
		/* a byte below 0x20, or one equal to 0x7f or 0xc2 (a zero byte of del or c2):
		 * the test of "has a byte less than n" (Anderson, Bit Twiddling Hacks) */
		if ((((x - ones * 0x20) & ~x) | ((del - ones) & ~del) | ((c2 - ones) & ~c2)) &
		    highs)
			break;
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x20 || c == 0x7f || c == 0xc2)
			break;
	}
	return i;
}

static int put_controls_escaped(struct strbuf *sb, const char *s, bool c_escapes)
{
	static const char hex[] = "0123456789abcdef";
	const char *end = s + strlen(s);

	for (const char *p = s;; p++) {
		size_t n = 0, ctl;
		int rv;

		while (n += plain_run(p + n, (size_t)(end - p) - n),
		       p[n] && !strbuf_control_len(p + n))
			n++; /* a 0xc2 that leads no C1 control */
		rv = strbuf_add(sb, p, n);
		p += n;
		if (rv < 0 || !*p)
			return rv;
		ctl = strbuf_control_len(p);
		if (c_escapes && (*p == '\n' || *p == '\r' || *p == '\t')) {
			rv = strbuf_add(sb, *p == '\n' ? "\\n" : *p == '\r' ? "\\r" : "\\t", 2);
			continue;
		}
		for (size_t i = 0; i < ctl && rv >= 0; i++)
			rv = strbuf_add(sb,
					(const char[]){ '\\', 'x', hex[(unsigned char)p[i] >> 4],
							hex[p[i] & 0xf] },
					4);
		if (rv < 0)
			return rv;
		p += ctl - 1;
	}
}

size_t strbuf_plain_len(const char *s, size_t n)
{
	return plain_run(s, n);
}

int strbuf_put_printable(struct strbuf *sb, const char *s)
{
	return put_controls_escaped(sb, s, false);
}

int strbuf_put_escaped(struct strbuf *sb, const char *s)
{
	return put_controls_escaped(sb, s, true);
}

/* Does a home-directory prefix ("/home/" or "/Users/") start at p, at the start of a path? */
static size_t home_prefix_at(const char *s, const char *p)
{
	static const char *const prefixes[] = { "/home/", "/Users/" };

	if (p > s && (isalnum((unsigned char)p[-1]) || strchr("_.-~", p[-1])))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (strncmp(p, prefixes[i], strlen(prefixes[i])) == 0)
			return strlen(prefixes[i]);
	return 0;
}

int strbuf_put_home_redacted(struct strbuf *sb, const char *s)
{
	const char *p = s, *from = s;

	while (*p) {
		size_t pre = home_prefix_at(s, p), n;

		if (!pre) {
			p++;
			continue;
		}
		/* the user name: up to the next separator of paths or of the text around them */
		n = strcspn(p + pre, "/ \t\n\"'`:;,()[]<>|");
		if (n == 0) {
			p += pre;
			continue;
		}
		strbuf_add(sb, from, (size_t)(p - from) + pre);
		strbuf_puts(sb, "<user>");
		p += pre + n;
		from = p;
	}
	return strbuf_add(sb, from, (size_t)(p - from));
}

int strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list aq;
	size_t room;
	int n, r;

	if (sb->err)
		return sb->err;
	/* Into the room the buffer has first: one formatting where it fits, as it mostly does
	 * (the text outputs are made of many short printfs), a second one after growing it. */
	room = sb->buf ? sb->alloc - sb->len : 0;
	va_copy(aq, ap);
	n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, aq);
	va_end(aq);
	if (n < 0) {
		if (room)
			sb->buf[sb->len] = '\0';
		return sb->err = -EINVAL;
	}
	r = strbuf_reserve(sb, (size_t)n);
	if (r < 0) {
		if (room)
			sb->buf[sb->len] = '\0';
		return r;
	}
	if ((size_t)n >= room)
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
	return 0;
}

int strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = strbuf_vprintf(sb, fmt, ap);
	va_end(ap);
	return r;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

int strbuf_steal(struct strbuf *sb, char **ret)
{
	char *p;

	if (sb->err)
		return sb->err;
	p = sb->buf ? sb->buf : strdup("");
	if (!p)
		return -ENOMEM;
	*ret = p;
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return 0;
}

int strbuf_finish(struct strbuf *sb, int r, char **ret)
{
	if (r >= 0)
		r = strbuf_steal(sb, ret);
	if (r < 0)
		strbuf_done(sb);
	return r;
}
