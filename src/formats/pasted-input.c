/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pasted text made readable: see pasted-input.h. */
#include "formats/pasted-input.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-prefixes.h"
#include "shared/strbuf.h"

enum enc { ENC_UTF8, ENC_UTF16LE, ENC_UTF16BE };

#define CP_END	   (-1)
#define CP_INVALID 0xFFFD

struct decoder {
	const unsigned char *p;
	size_t len, i;
	enum enc enc;
	uint64_t chars, bad; /* code points read; invalid sequences and stray control bytes */
};

/* One UTF-8 sequence (RFC 3629 §4: no overlong forms, no surrogates, ≤ U+10FFFF); an
 * invalid byte is consumed alone and counted. */
static int32_t next_utf8(struct decoder *d)
{
	const unsigned char *p = d->p + d->i;
	size_t left = d->len - d->i;
	uint32_t cp, min;
	size_t n;

	if (p[0] < 0x80) {
		d->i++;
		return p[0];
	}
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		n = 2, cp = p[0] & 0x1F, min = 0x80;
	else if (p[0] >= 0xE0 && p[0] <= 0xEF)
		n = 3, cp = p[0] & 0x0F, min = 0x800;
	else if (p[0] >= 0xF0 && p[0] <= 0xF4)
		n = 4, cp = p[0] & 0x07, min = 0x10000;
	else
		goto bad;
	if (left < n)
		goto bad;
	for (size_t k = 1; k < n; k++) {
		if ((p[k] & 0xC0) != 0x80)
			goto bad;
		cp = cp << 6 | (p[k] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		goto bad;
	d->i += n;
	return (int32_t)cp;
bad:
	d->i++;
	d->bad++;
	return CP_INVALID;
}

static uint32_t unit16(const struct decoder *d, size_t at)
{
	const unsigned char *p = d->p + at;

	return d->enc == ENC_UTF16LE ? (uint32_t)(p[0] | p[1] << 8) : (uint32_t)(p[0] << 8 | p[1]);
}

/* One UTF-16 code point (RFC 2781 §2.2); an unpaired surrogate or an odd last byte is
 * invalid. */
static int32_t next_utf16(struct decoder *d)
{
	uint32_t u, lo;

	if (d->len - d->i < 2) {
		d->i = d->len;
		d->bad++;
		return CP_INVALID;
	}
	u = unit16(d, d->i);
	d->i += 2;
	if (u < 0xD800 || u > 0xDFFF)
		return (int32_t)u;
	if (u <= 0xDBFF && d->len - d->i >= 2) {
		lo = unit16(d, d->i);
		if (lo >= 0xDC00 && lo <= 0xDFFF) {
			d->i += 2;
			return (int32_t)(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
		}
	}
	d->bad++;
	return CP_INVALID;
}

static int32_t next_cp(struct decoder *d)
{
	int32_t cp;

	if (d->i >= d->len)
		return CP_END;
	cp = d->enc == ENC_UTF8 ? next_utf8(d) : next_utf16(d);
	d->chars++;
	/* Controls no text holds (tab, line ends, form feed, backspace and ESC are text's). */
	if ((cp < 0x20 && !strchr("\t\n\v\f\r\b\x1b", cp)) || (cp >= 0x7F && cp <= 0x9F))
		d->bad++;
	return cp;
}

static void put_cp(struct strbuf *sb, uint32_t cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80)
		b[0] = (char)cp, n = 1;
	else if (cp < 0x800)
		b[0] = (char)(0xC0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
	else if (cp < 0x10000)
		b[0] = (char)(0xE0 | cp >> 12), b[1] = (char)(0x80 | (cp >> 6 & 0x3F)),
		b[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
	else
		b[0] = (char)(0xF0 | cp >> 18), b[1] = (char)(0x80 | (cp >> 12 & 0x3F)),
		b[2] = (char)(0x80 | (cp >> 6 & 0x3F)), b[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
	strbuf_add(sb, b, n);
}

/* Skips an escape sequence after its ESC (ECMA-48 §5.3-5.6). Never consumes a line end: a
 * cut sequence must not join two of the user's lines. */
static void skip_escape(struct decoder *d)
{
	size_t at = d->i;
	int32_t cp = next_cp(d);

	if (cp == '[') {
		for (;;) {
			at = d->i;
			cp = next_cp(d);
			if (cp == CP_END)
				return;
			if (cp == '\n' || cp == '\r' || cp < 0x20 || cp > 0x7E) {
				d->i = at;
				return;
			}
			if (cp >= 0x40) /* the final byte */
				return;
		}
	}
	if (cp == ']' || cp == 'P' || cp == 'X' || cp == '^' || cp == '_') {
		/* a control string, ended by BEL (xterm's OSC) or ST (ESC \) */
		for (;;) {
			at = d->i;
			cp = next_cp(d);
			if (cp == CP_END || cp == 0x07)
				return;
			if (cp == '\n' || cp == '\r') {
				d->i = at;
				return;
			}
			if (cp == 0x1b) {
				at = d->i;
				if (next_cp(d) != '\\')
					d->i = at;
				return;
			}
		}
	}
	while (cp >= 0x20 && cp <= 0x2F) { /* intermediates, then the final byte */
		at = d->i;
		cp = next_cp(d);
	}
	if (cp == CP_END || cp < 0x20 || cp > 0x7E)
		d->i = at;
}

/* Drops the last UTF-8 character of the line being built (backspace). */
static void backspace(struct strbuf *sb, size_t line_start)
{
	while (sb->len > line_start) {
		unsigned char c = (unsigned char)sb->buf[--sb->len];

		if ((c & 0xC0) != 0x80)
			break;
	}
	if (sb->buf)
		sb->buf[sb->len] = '\0';
}

/* A fence's info string that names a language ("python", "text", "c++", "{.bash}"): one
 * word, as CommonMark takes the info string's first word for the language (spec 0.31,
 * "Fenced code blocks"). Anything longer is text pasted on the fence's line. */
static bool is_language_tag(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0 || (s[0] == '{' && s[n - 1] == '}'))
		return true;
	if (n > 32)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && !strchr("_+#.-/", s[i]))
			return false;
	return true;
}

/* The Markdown of one finished line (sb->buf[start..len)): quote markers off, a fence
 * emptied, or only its marker taken off when text was pasted after it ("```NVIDIA GeForce
 * RTX 5090 with CUDA capability sm_120 is not compatible …"). */
static void markdown_line(struct strbuf *sb, size_t start)
{
	size_t n = sb->len - start, i = 0, sp = 0;
	char *l;

	if (n == 0) /* also an empty buffer's NULL: no offset applied to it */
		return;
	l = sb->buf + start;
	while (sp < 3 && i < n && l[i] == ' ')
		i++, sp++;
	if (i < n && l[i] == '>') {
		while (i < n && l[i] == '>') {
			i++;
			if (i < n && l[i] == ' ')
				i++;
		}
		memmove(l, l + i, n - i);
		n -= i;
		sb->len = start + n;
	}
	i = 0;
	for (sp = 0; sp < 3 && i < n && l[i] == ' '; sp++)
		i++;
	if (n - i >= 3 && (memcmp(l + i, "```", 3) == 0 || memcmp(l + i, "~~~", 3) == 0)) {
		char c = l[i];

		while (i < n && l[i] == c)
			i++;
		while (i < n && (l[i] == ' ' || l[i] == '\t'))
			i++;
		if (is_language_tag(l + i, n - i)) {
			sb->len = start;
		} else {
			memmove(l, l + i, n - i);
			sb->len = start + n - i;
		}
	}
	sb->buf[sb->len] = '\0';
}

static bool plain_byte(unsigned char c)
{
	return (c >= 0x20 && c <= 0x7E) || c == '\t';
}

#define BYTES(c) (0x0101010101010101ull * (c))

/* Whether all eight bytes of w are printable ASCII (0x20-0x7E): none with the high bit set,
 * none below 0x20 and none 0x7F ("Determine if a word has a byte less than n" and "has a
 * zero byte", Sean Eron Anderson's Bit Twiddling Hacks: each test is exact as a whole). */
static bool plain_word(uint64_t w)
{
	uint64_t high = w & BYTES(0x80), low = (w - BYTES(0x20)) & ~w & BYTES(0x80),
		 del = ((w ^ BYTES(0x7F)) - BYTES(0x01)) & ~(w ^ BYTES(0x7F)) & BYTES(0x80);

	return !(high | low | del);
}

/* The length of the run of printable ASCII and tabs at p: bytes the cleaning copies as
 * they are, neither counted as bad nor changing a line. Eight bytes at a time: most of a
 * log is such bytes. */
static size_t plain_run(const unsigned char *p, size_t n)
{
	size_t i = 0;

	for (;;) {
		uint64_t w;

		if (i + 8 <= n && (memcpy(&w, p + i, 8), plain_word(w))) {
			i += 8;
			continue;
		}
		/* a word with a tab, a line end or another byte, or the last few: one at a time */
		for (size_t e = i + 8 < n ? i + 8 : n; i < e; i++)
			if (!plain_byte(p[i]))
				return i;
		if (i >= n)
			return i;
	}
}

/* Whether markdown_line leaves the line that starts with l[0..n) as it is: no quote marker
 * and no fence after its up to three spaces. */
static bool plain_markdown(const unsigned char *l, size_t n)
{
	size_t i = 0;

	while (i < 3 && i < n && l[i] == ' ')
		i++;
	return i == n || (l[i] != '>' && l[i] != '`' && l[i] != '~');
}

/* The length of the run of plain bytes and whole lines of them at p (plain_run's bytes, and
 * "\n" after a line markdown_line leaves as it is): bytes the cleaning copies as they are,
 * ending lines where they end. begun, begun_len: what was cleaned of the line p starts in the
 * middle of (0 bytes at a line's start); *ret_line: where the run's last line starts (after
 * its last "\n"; 0: none). Most of a log is such lines: copied as one run, not a line at a
 * time. */
static size_t plain_lines(const unsigned char *p, size_t n, const char *begun, size_t begun_len,
			  size_t *ret_line)
{
	size_t i = 0;

	*ret_line = 0;
	for (;;) {
		size_t start = i, h = 0;
		unsigned char head[4]; /* the line's first bytes, all markdown_line looks at */

		i += plain_run(p + i, n - i);
		if (i >= n || p[i] != '\n')
			return i;
		for (; h < 4 && h < begun_len; h++)
			head[h] = (unsigned char)begun[h];
		for (size_t k = start; h < 4 && k < i; k++)
			head[h++] = p[k];
		if (!plain_markdown(head, h))
			return i; /* its "\n" the loop's: markdown_line changes the line */
		*ret_line = ++i;
		begun_len = 0;
	}
}

/* A UTF-16 text without byte order mark: NULs in every other byte of its start. */
static bool looks_utf16_without_bom(const unsigned char *p, size_t len)
{
	size_t n = len < 256 ? len & ~(size_t)1 : 256, zero_odd = 0, zero_even = 0;

	for (size_t i = 0; i < n; i += 2) {
		zero_even += p[i] == 0;
		zero_odd += p[i + 1] == 0;
	}
	return n >= 8 && ((zero_odd * 10 >= n / 2 * 9 && zero_even == 0) ||
			  (zero_even * 10 >= n / 2 * 9 && zero_odd == 0));
}

/*
 * The cleaning in the buffer it reads (pasted_input_clean_take), while *shared: the input's
 * byte k at sb->buf[k + 1], the text written from sb->buf[0]. Of UTF-8 text the cleaning
 * never writes more than it has read (a run or a character as long as it was, a line end or
 * less for one, nothing for an escape), so each write and the NUL strbuf puts after it land
 * on bytes read already: at a step's end sb->len <= d.i. All but a byte that is not UTF-8,
 * written as U+FFFD, three bytes for one: before a write that would overtake the reading,
 * the text moves to a buffer of its own (leave_shared), and the input stays as it is from
 * there on, for the decoder to read on.
 */
static void leave_shared(struct strbuf *sb, size_t len, bool *shared)
{
	struct strbuf own;

	strbuf_init(&own, sb->cap);
	strbuf_reserve(&own, len);
	strbuf_add(&own, sb->buf, sb->len); /* an error is own.err, reported at the end */
	*sb = own; /* the input's buffer stays the caller's (pasted_input_clean_take frees it) */
	*shared = false;
}

/* A run of the input's bytes, as they are, after the text: moved where the text is written in
 * the buffer it is read from (the two may overlap; strbuf_add copies). */
static int add_run(struct strbuf *sb, const char *src, size_t n, bool shared)
{
	int r;

	if (!shared)
		return strbuf_add(sb, src, n);
	r = strbuf_reserve(sb, n); /* never grows: the text is no longer than what was read */
	if (r < 0)
		return r;
	memmove(sb->buf + sb->len, src, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

/* How many bytes put_cp writes for cp. */
static size_t utf8_len(uint32_t cp)
{
	return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* The cleaned text of data[0..len) into sb (empty, its cap set): 0, or -EBADMSG with *ret_why
 * (the buffer's own error, -ENOMEM or -EFBIG, is left in sb->err). *shared: sb's buffer is the
 * one data is read from (see leave_shared), set false when the text leaves it; NULL: never. */
static int clean_into(const char *data, size_t len, struct strbuf *sb, const char **ret_why,
		      bool *shared)
{
	const unsigned char *p = (const unsigned char *)data;
	struct decoder d = { .p = p, .len = len };
	size_t line_start = 0;
	const char *why = NULL;
	/* Asked of the input's start once a NUL is met, which, cleaned in place, the text may
	 * have been written over by then: asked before. */
	bool utf16 = shared && looks_utf16_without_bom(p, len);
	int32_t cp;

	if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		d.i = 3;
	else if (len >= 2 && p[0] == 0xFF && p[1] == 0xFE)
		d.enc = ENC_UTF16LE, d.i = 2;
	else if (len >= 2 && p[0] == 0xFE && p[1] == 0xFF)
		d.enc = ENC_UTF16BE, d.i = 2;
	/* The cap is the longest the text can come out, not a guess: UTF-16 grows by half
	 * (a CJK character is 2 bytes there, 3 in UTF-8) and a byte that is not UTF-8 becomes
	 * U+FFFD, 3 bytes; with len + 16 a UTF-16 paste of Chinese text failed with EFBIG.
	 * The buffer itself grows only as far as the text does (pasted_input_clean). */
	for (;;) {
		if (d.enc == ENC_UTF8) {
			bool begun = sb->len >
				     line_start; /* (never below it, but once the cap stops sb) */
			size_t last_line,
				at = sb->len,
				run = plain_lines(p + d.i, len - d.i,
						  begun ? sb->buf + line_start : NULL,
						  begun ? sb->len - line_start : 0, &last_line);

			if (run) { /* what next_cp, put_cp and markdown_line do to these bytes */
				/* the lines ended in the run start where it left */
				if (add_run(sb, data + d.i, run, shared && *shared) >= 0 &&
				    last_line)
					line_start = at + last_line;
				d.i += run;
				d.chars += run;
			}
		}
		if ((cp = next_cp(&d)) == CP_END)
			break;
		if (cp == 0) {
			why = d.enc == ENC_UTF8 &&
					      (shared ? utf16 : looks_utf16_without_bom(p, len))
				      ? "the input looks like UTF-16 without a byte order mark; "
					"save it as UTF-8 (or UTF-16 with BOM)"
				      : "the input is binary (it holds NUL bytes), not pasted text";
			break;
		}
		if (cp == '\r' || cp == '\n') {
			if (cp == '\r') {
				size_t at = d.i;

				if (next_cp(&d) != '\n')
					d.i = at;
			}
			markdown_line(sb, line_start);
			strbuf_putc(sb, '\n');
			line_start = sb->len;
		} else if (cp == 0x1b) {
			skip_escape(&d);
		} else if (cp == '\b') {
			backspace(sb, line_start);
		} else if (cp >= 0x20 || cp == '\t') {
			if (shared && *shared && sb->len + utf8_len((uint32_t)cp) > d.i)
				leave_shared(sb, len, shared);
			put_cp(sb, (uint32_t)cp);
		}
	}
	if (!why && d.bad * 20 > d.chars + 80)
		why = "the input is not text (too many bytes that are neither UTF-8 nor UTF-16 "
		      "text)";
	if (why) {
		if (ret_why)
			*ret_why = why;
		return -EBADMSG;
	}
	markdown_line(sb, line_start);
	if (sb->buf) /* a collector's line prefixes off, where a run of lines shows them */
		sb->len = pasted_prefixes_strip(sb->buf, sb->len);
	return 0;
}

static int too_large(size_t len, const char **ret_why)
{
	if (len <= PASTED_INPUT_MAX)
		return 0;
	if (ret_why)
		*ret_why = "the input is larger than 64 MiB; paste the error and the "
			   "commands' output, not whole logs";
	return -EFBIG;
}

int pasted_input_clean(const char *data, size_t len, char **ret, size_t *ret_len,
		       const char **ret_why)
{
	struct strbuf sb;
	int r = too_large(len, ret_why);

	if (r < 0)
		return r;
	strbuf_init(&sb, 3 * len + 16);
	/* As long as the input, once: UTF-8 text comes out no longer, but for the few bytes
	 * that are not UTF-8 (U+FFFD) or UTF-16 (which grows); the buffer grows then. Doubled
	 * from 64 bytes, a 20 KB paste was copied three times, into pages each touched anew. */
	strbuf_reserve(&sb, len);
	r = clean_into(data, len, &sb, ret_why, NULL);
	if (r < 0) {
		strbuf_done(&sb);
		return r;
	}
	*ret_len = sb.len;
	return strbuf_finish(&sb, 0, ret);
}

int pasted_input_clean_into(const char *data, size_t len, struct strbuf *sb, const char **ret_why)
{
	int r = too_large(len, ret_why);

	if (r < 0)
		return r;
	strbuf_reset(sb);
	sb->cap = 3 * len + 16;
	r = clean_into(data, len, sb, ret_why, NULL);
	if (r >= 0 && !sb->err && !sb->buf) /* empty: "", as pasted_input_clean gives */
		strbuf_add(sb, "", 0);
	return r < 0 ? r : sb->err;
}

int pasted_input_clean_take(char *data, size_t len, char **ret, size_t *ret_len,
			    const char **ret_why)
{
	const unsigned char *u = (const unsigned char *)data;
	struct strbuf sb;
	bool shared = true;
	char *buf;
	int r = too_large(len, ret_why);

	if (r < 0 ||
	    (len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))) {
		/* UTF-16 (clean_into's byte order marks) grows: a buffer of its own */
		if (r >= 0)
			r = pasted_input_clean(data, len, ret, ret_len, ret_why);
		free(data);
		return r;
	}
	buf = realloc(data, len + 2); /* in place: the tool reads a file into its size + 1 */
	if (!buf) {
		free(data);
		return -ENOMEM;
	}
	memmove(buf + 1, buf, len); /* the input one byte on: see leave_shared */
	buf[0] = '\0';
	strbuf_init(&sb, 3 * len + 16);
	sb.buf = buf;
	sb.alloc = len + 2;
	r = clean_into(buf + 1, len, &sb, ret_why, &shared);
	if (!shared)
		free(buf); /* the text left it for a buffer of its own */
	if (r < 0) {
		strbuf_done(&sb);
		return r;
	}
	*ret_len = sb.len;
	return strbuf_finish(&sb, 0, ret);
}
