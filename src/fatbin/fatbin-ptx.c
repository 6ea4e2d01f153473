/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reads the module directives at the head of PTX text: `.version X.Y`, `.target sm_XY[a|f]
 * [, …]` and `.address_size 32|64`, skipping line and block comments and blank lines.
 * Format: NVIDIA PTX ISA manual, "PTX Module Directives" (.version must come first; .target
 * and .address_size follow); CUDA 13 output begins with blank lines where the comment header
 * was (docs/formats/fatbin.md §4, §8). Pure function over (ptr, len).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fatbin/fatbin.h"
#include "shared/macro.h"

struct cur {
	const char *s;
	size_t len, pos;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* Skips blanks and comments; false at the end or at an unterminated block comment. */
static bool skip_blank(struct cur *c)
{
	while (c->pos < c->len) {
		char ch = c->s[c->pos];

		if (is_space(ch)) {
			c->pos++;
		} else if (ch == '/' && c->pos + 1 < c->len && c->s[c->pos + 1] == '/') {
			while (c->pos < c->len && c->s[c->pos] != '\n')
				c->pos++;
		} else if (ch == '/' && c->pos + 1 < c->len && c->s[c->pos + 1] == '*') {
			const char *end = NULL;

			c->pos += 2;
			for (size_t i = c->pos; i + 1 < c->len; i++)
				if (c->s[i] == '*' && c->s[i + 1] == '/') {
					end = c->s + i;
					break;
				}
			if (!end)
				return false;
			c->pos = (size_t)(end - c->s) + 2;
		} else if (ch == '\0') {
			return false;
		} else {
			return true;
		}
	}
	return false;
}

/* Skips spaces and tabs only (within a directive line). */
static void skip_inline(struct cur *c)
{
	while (c->pos < c->len && (c->s[c->pos] == ' ' || c->s[c->pos] == '\t'))
		c->pos++;
}

static bool word_is(struct cur *c, const char *w)
{
	size_t n = strlen(w);

	if (c->len - c->pos < n || memcmp(c->s + c->pos, w, n) != 0)
		return false;
	if (c->pos + n < c->len && !is_space(c->s[c->pos + n]))
		return false;
	c->pos += n;
	return true;
}

/* A decimal number of at most 4 digits. */
static int number(struct cur *c)
{
	int v = 0, d = 0;

	while (c->pos < c->len && c->s[c->pos] >= '0' && c->s[c->pos] <= '9' && d < 4) {
		v = v * 10 + (c->s[c->pos++] - '0');
		d++;
	}
	return d ? v : -1;
}

static void parse_target(struct cur *c, struct fatbin_ptx_header *h)
{
	size_t n = 0;

	skip_inline(c);
	while (c->pos < c->len && n + 1 < sizeof(h->target)) {
		char ch = c->s[c->pos];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'))
			break;
		h->target[n++] = ch;
		c->pos++;
	}
	h->target[n] = '\0';
	if (strncmp(h->target, "sm_", 3) == 0) {
		const char *q = h->target + 3;
		unsigned v = 0;
		int d = 0;

		while (*q >= '0' && *q <= '9' && d < 5) {
			v = v * 10 + (unsigned)(*q++ - '0');
			d++;
		}
		if (d > 0 && (*q == '\0' || ((*q == 'a' || *q == 'f') && q[1] == '\0'))) {
			h->target_arch = v;
			h->target_variant = *q;
		}
	}
	/* the rest of the line: ", texmode_independent", ", debug" */
	while (c->pos < c->len && c->s[c->pos] != '\n')
		c->pos++;
}

int fatbin_ptx_header(const char *s, size_t len, struct fatbin_ptx_header *ret)
{
	struct fatbin_ptx_header h = { .isa_major = -1, .isa_minor = -1 };
	struct cur c = { .s = s, .len = len };

	if (!s || !ret)
		return -EINVAL;
	if (!skip_blank(&c) || !word_is(&c, ".version"))
		return -EBADMSG;
	skip_inline(&c);
	h.isa_major = number(&c);
	if (h.isa_major < 0 || c.pos >= c.len || c.s[c.pos] != '.')
		return -EBADMSG;
	c.pos++;
	h.isa_minor = number(&c);
	if (h.isa_minor < 0)
		return -EBADMSG;
	/* .target and .address_size may follow, in either order */
	for (int i = 0; i < 2 && skip_blank(&c); i++) {
		if (word_is(&c, ".target")) {
			parse_target(&c, &h);
		} else if (word_is(&c, ".address_size")) {
			skip_inline(&c);
			h.address_size = number(&c);
			if (h.address_size != 32 && h.address_size != 64)
				h.address_size = 0;
		} else {
			break;
		}
	}
	*ret = h;
	return 0;
}
