// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Word wrapping of the text renderers (doctor, report): lines fit the terminal's width (80
 * columns where the output is no terminal), continuation lines hang under the text they
 * continue. Wrapping only breaks at spaces: a word (a path, a URL, a fact's key) is never cut,
 * since a cut path could no longer be copied; a word longer than any line stands alone.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gpuenv/gpuenv.h"
#include "output.h"
#include "shared/strbuf.h"

/* Narrower than 40 would leave no room after doctor's 16-column labels. */
#define WIDTH_DEFAULT 80
#define WIDTH_MIN     40

size_t out_text_width(unsigned flags)
{
	size_t width = (flags >> 16) & 0xfffu;

	if (!width)
		return WIDTH_DEFAULT;
	return width < WIDTH_MIN ? WIDTH_MIN : width;
}

/* Eight bytes of text as a word, and the count of UTF-8 continuation bytes (10xxxxxx: bit 7
 * set, bit 6 clear) in it, summed by one multiplication: a character is one column, counted
 * at its lead byte, and the renderers measure every word of every line they wrap. */
#define ONES  0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static uint64_t load8(const char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return x;
}

static size_t continuations8(uint64_t x)
{
	return (size_t)((((x & ~(x << 1) & HIGHS) >> 7) * ONES) >> 56);
}

/* Does x hold the byte c? (A zero byte of x ^ c * ONES: Anderson, Bit Twiddling Hacks,
 * "Determine if a word has a byte equal to n".) */
static bool has_byte8(uint64_t x, unsigned char c)
{
	uint64_t v = x ^ (ONES * c);

	return ((v - ONES) & ~v & HIGHS) != 0;
}

size_t out_text_cols(const char *s, size_t n)
{
	size_t cols = 0, i = 0;

	for (;;) {
		/* eight bytes at a time up to the next ESC: most text has none */
		for (uint64_t x; i + 8 <= n && !has_byte8(x = load8(s + i), '\033'); i += 8)
			cols += 8 - continuations8(x);
		if (i >= n)
			break;
		/* the renderers' own colour sequences (ECMA-48 CSI: ESC [ params final) take no
		 * room; text from the machine reaches here escaped, without ESC */
		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			i += 2;
			while (i < n &&
			       !((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e))
				i++;
			i++; /* the final byte */
			continue;
		}
		/* UTF-8: one column a character, counted at its lead byte */
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
		i++;
	}
	return cols;
}

/* The run of blanks at p: strspn(p, " "), without a call per word of every line rendered. */
static size_t blanks(const char *p)
{
	size_t n = 0;

	while (p[n] == ' ')
		n++;
	return n;
}

/* A line break, then `indent` blanks and the prefix (what "\n%*s%s" prints, without
 * formatting it each time). */
static void new_line(struct strbuf *sb, size_t indent, const char *prefix)
{
	static const char spaces[] = "                                ";

	strbuf_putc(sb, '\n');
	for (size_t k; indent; indent -= k) {
		k = indent < sizeof(spaces) - 1 ? indent : sizeof(spaces) - 1;
		strbuf_add(sb, spaces, k);
	}
	if (prefix)
		strbuf_puts(sb, prefix);
}

/* The high bit of each byte of x that is zero, and no other: the exact test (Anderson, Bit
 * Twiddling Hacks, "Determine if a word has a zero byte": no carry from one byte into the
 * next), so that the first flagged byte is the first zero byte. */
static uint64_t zero_bytes8(uint64_t x)
{
	const uint64_t lows = ~HIGHS;

	return ~(((x & lows) + lows) | x | lows);
}

/* The index (as memory orders the bytes) of the first byte flagged in m, which is not 0. */
static unsigned first_flagged(uint64_t m)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (unsigned)__builtin_ctzll(m) / 8;
#else
	return (unsigned)__builtin_clzll(m) / 8;
#endif
}

/* The bytes of x before the first blank or ESC, 8 when none. */
static unsigned stop8(uint64_t x)
{
	uint64_t m = zero_bytes8(x ^ (ONES * ' ')) | zero_bytes8(x ^ (ONES * 0x1b));

	return m ? first_flagged(m) : 8;
}

/* Is s[0..n) ASCII without ESC: one column a byte, no colour sequence to measure apart? */
static bool plain_ascii(const char *s, size_t n)
{
	uint64_t high = 0;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x = load8(s + i);

		if (has_byte8(x, 0x1b))
			return false;
		high |= x;
	}
	for (; i < n; i++)
		if (s[i] == '\033' || (unsigned char)s[i] >= 0x80)
			return false;
	return !(high & HIGHS);
}

/* The bytes of the word at p in text plain_ascii() passed: to the next blank, or end. */
static size_t ascii_word_bytes(const char *p, const char *end)
{
	size_t w = 0, n = (size_t)(end - p);

	for (; w + 8 <= n; w += 8) {
		uint64_t m = zero_bytes8(load8(p + w) ^ (ONES * ' '));

		if (m)
			return w + first_flagged(m);
	}
	while (w < n && p[w] != ' ')
		w++;
	return w;
}

/* The word at p (to the next blank, or end): its bytes; its columns are added to *cols and
 * *esc is set where it holds an ESC (a colour sequence, measured apart). Eight bytes at a
 * time up to the blank that ends it, and bytewise from an ESC on (only colour has one). */
static size_t word_bytes(const char *p, const char *end, size_t *cols, bool *esc)
{
	size_t w = 0, n = (size_t)(end - p), conts = 0;

	while (w + 8 <= n) {
		uint64_t x = load8(p + w);
		unsigned k = stop8(x);

		if (k == 8) {
			conts += continuations8(x);
			w += 8;
			continue;
		}
		/* the bytes before the stop only (the others shifted out, as memory orders them) */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		conts += k ? continuations8(x << (8 * (8 - k))) : 0;
#else
		conts += k ? continuations8(x >> (8 * (8 - k))) : 0;
#endif
		w += k;
		if (p[w] == ' ') {
			*cols += w - conts;
			return w;
		}
		break; /* an ESC: the rest bytewise */
	}
	for (unsigned char c; w < n && (c = (unsigned char)p[w]) != ' '; w++) {
		conts += (c & 0xc0) == 0x80;
		*esc |= c == '\033';
	}
	*cols += w - conts;
	return w;
}

/* Where the text from p on (no ESC in it) passes `room` columns: the first character past
 * them, end when it does not. Eight bytes at a time, a character counted at its lead byte. */
static const char *room_end(const char *p, const char *end, size_t room)
{
	size_t cols = 0, i = 0, n = (size_t)(end - p);

	for (size_t c; i + 8 <= n && cols + (c = 8 - continuations8(load8(p + i))) <= room; i += 8)
		cols += c;
	for (; i < n; i++) {
		bool lead = ((unsigned char)p[i] & 0xc0) != 0x80;

		if (lead && cols == room)
			return p + i;
		cols += lead;
	}
	return end;
}

/* The end of the last word after p (where a line's last word ended: a blank, or end) that
 * still fits in `room` more columns, p itself when none does. In text without colour and
 * words broken at one blank, a line takes every word that ends within room columns of p,
 * blanks and all: found from where those columns end (in ASCII, room bytes on) back to a
 * blank, instead of measuring each word (most words of a diagnosis are mid-line). */
static const char *last_fitting_end(const char *p, const char *end, size_t room, bool ascii)
{
	const char *x =
		ascii ? (room < (size_t)(end - p) ? p + room : end) : room_end(p, end, room);

	if (x < end) /* the last blank within room (room_end stops on a lead byte) */
		while (x > p && *x != ' ')
			x--;
	while (x > p && x[-1] == ' ')
		x--;
	return x;
}

/* The words placed on a line are appended together, as the one run of the text they are
 * (from the line's first word to the end of its last, gaps and all), when the line ends. */
void out_wrap(struct strbuf *sb, const char *text, size_t first, size_t indent, size_t width,
	      const char *prefix, size_t min_gap)
{
	const char *p = text, *end = text + strlen(text);
	const char *line = NULL, *line_end = NULL; /* the current line's text; NULL: none yet */
	size_t col = first, prefix_cols = prefix ? out_text_cols(prefix, strlen(prefix)) : 0;
	bool first_line = true, ascii = plain_ascii(text, (size_t)(end - text));
	/* lines found from their room (last_fitting_end): words broken at one blank, and each
	 * byte a column but UTF-8's continuation bytes (no colour sequence to measure apart) */
	bool by_room = min_gap == 1 && (ascii || !memchr(text, '\033', (size_t)(end - text)));

	while (p < end) {
		size_t gap_len, w = 0, cols = 0;
		bool esc = false;

		/* p is where the line's last word ended: the words that fit after it at once */
		if (by_room && line && col < width) {
			const char *x = last_fitting_end(p, end, width - col, ascii);

			col += ascii ? (size_t)(x - p) : out_text_cols(p, (size_t)(x - p));
			p = line_end = x;
		}
		gap_len = blanks(p);
		p += gap_len;
		if (p == end)
			break;
		/* a word runs to the next gap wide enough to break at (min_gap spaces: the
		 * report's field lines separate fields by two and keep "71.25 W" whole) */
		for (;;) {
			size_t run, k;

			if (ascii) {
				k = ascii_word_bytes(p + w, end);
				cols += k;
				w += k;
			} else {
				w += word_bytes(p + w, end, &cols, &esc);
			}
			run = blanks(p + w);
			if (run >= min_gap || p + w + run == end)
				break;
			w += run;
			cols += run;
		}
		if (esc) /* a colour sequence takes no room */
			cols = out_text_cols(p, w);
		/* A break before the first word too, where that gives it more room. */
		if (col + (line ? gap_len : 0) + cols > width &&
		    (line || (first_line && first > indent + prefix_cols))) {
			if (line)
				strbuf_add(sb, line, (size_t)(line_end - line));
			else /* no trailing blank after a label whose value moves down */
				while (sb->len && !sb->err && sb->buf[sb->len - 1] == ' ')
					sb->buf[--sb->len] = '\0';
			new_line(sb, indent, prefix);
			col = indent + prefix_cols;
			line = NULL;
			first_line = false;
		}
		if (line)
			col += gap_len;
		else
			line = p;
		col += cols;
		p += w;
		line_end = p;
	}
	if (line)
		strbuf_add(sb, line, (size_t)(line_end - line));
	strbuf_putc(sb, '\n');
}
