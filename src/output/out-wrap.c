// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Word wrapping of the text renderers (doctor, report): lines fit the terminal's width (80
 * columns where the output is no terminal), continuation lines hang under the text they
 * continue. Wrapping only breaks at spaces: a word (a path, a URL, a fact's key) is never cut,
 * since a cut path could no longer be copied; a word longer than any line stands alone.
 */
#include <stdbool.h>
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

size_t out_text_cols(const char *s, size_t n)
{
	size_t cols = 0;

	for (size_t i = 0; i < n; i++) {
		/* the renderers' own colour sequences (ECMA-48 CSI: ESC [ params final) take no
		 * room; text from the machine reaches here escaped, without ESC */
		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			i += 2;
			while (i < n &&
			       !((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e))
				i++;
			continue;
		}
		/* UTF-8: one column a character, counted at its lead byte */
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
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

void out_wrap(struct strbuf *sb, const char *text, size_t first, size_t indent, size_t width,
	      const char *prefix, size_t min_gap)
{
	const char *p = text;
	size_t col = first, prefix_cols = prefix ? out_text_cols(prefix, strlen(prefix)) : 0;
	bool line_empty = true, first_line = true;

	while (*p) {
		const char *gap = p;
		size_t gap_len = blanks(p), w = 0, cols = 0;
		bool esc = false;

		p += gap_len;
		if (!*p)
			break;
		/* a word runs to the next gap wide enough to break at (min_gap spaces: the
		 * report's field lines separate fields by two and keep "71.25 W" whole) */
		while (p[w]) {
			size_t run = blanks(p + w);

			if (run >= min_gap || !p[w + run])
				break;
			if (run) {
				w += run;
				cols += run;
				continue;
			}
			/* the word's letters, counted as out_text_cols() counts them */
			for (unsigned char c; (c = (unsigned char)p[w]) && c != ' '; w++) {
				cols += (c & 0xc0) != 0x80;
				esc |= c == '\033';
			}
		}
		if (esc) /* a colour sequence takes no room */
			cols = out_text_cols(p, w);
		/* A break before the first word too, where that gives it more room. */
		if (col + (line_empty ? 0 : gap_len) + cols > width &&
		    (!line_empty || (first_line && first > indent + prefix_cols))) {
			/* no trailing blank after a label whose value moves down */
			while (line_empty && sb->len && !sb->err && sb->buf[sb->len - 1] == ' ')
				sb->buf[--sb->len] = '\0';
			new_line(sb, indent, prefix);
			col = indent + prefix_cols;
			line_empty = true;
			first_line = false;
		}
		/* the gap before the word and the word are one run of the text: one append */
		if (!line_empty) {
			strbuf_add(sb, gap, gap_len + w);
			col += gap_len;
		} else {
			strbuf_add(sb, p, w);
		}
		col += cols;
		line_empty = false;
		p += w;
	}
	strbuf_putc(sb, '\n');
}
