// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tokens of TOML 1.0.0 (https://toml.io/en/v1.0.0) for the strict reader (toml-min.c
 * says what it reads and refuses): whitespace, comments and newlines (a bare CR and control
 * characters refused), basic and literal strings, single- and multi-line, with every escape,
 * bare, quoted and dotted keys, decimal/hex/octal/binary integers (64-bit, overflow
 * refused), floats, inf and nan (kept as text), dates and times (kept as text, shape
 * checked).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/strv.h"
#include "toml-internal.h"

void toml_skip_ws(struct parser *ps)
{
	while (!at_eof(ps) && (*ps->p == ' ' || *ps->p == '\t'))
		ps->p++;
}

/* A control character TOML allows nowhere outside the whitespace it names. */
static bool is_bad_ctl(unsigned char c)
{
	return (c < 0x20 && c != '\t') || c == 0x7f;
}

static int skip_comment(struct parser *ps)
{
	if (at_eof(ps) || *ps->p != '#')
		return 0;
	for (; !at_eof(ps) && *ps->p != '\n'; ps->p++) {
		if (*ps->p == '\r' && peek(ps, 1) == '\n')
			continue;
		if (is_bad_ctl((unsigned char)*ps->p))
			return FAIL(ps, "control character in a comment");
	}
	return 0;
}

/* Consumes one newline ("\n" or "\r\n"); false when there is none here. */
static bool eat_newline(struct parser *ps)
{
	if (peek(ps, 0) == '\n') {
		ps->p++;
		ps->line++;
		return true;
	}
	if (peek(ps, 0) == '\r' && peek(ps, 1) == '\n') {
		ps->p += 2;
		ps->line++;
		return true;
	}
	return false;
}

/* Whitespace, a comment, then the end of the line or of the input. */
int toml_expect_eol(struct parser *ps)
{
	int r;

	toml_skip_ws(ps);
	r = skip_comment(ps);
	if (r < 0)
		return r;
	if (at_eof(ps) || eat_newline(ps))
		return 0;
	return FAIL(ps, *ps->p == '\r' ? "bare carriage return" : "text after the value");
}

/* Whitespace, newlines and comments (inside arrays). */
int toml_skip_ws_nl(struct parser *ps)
{
	for (;;) {
		int r;

		toml_skip_ws(ps);
		r = skip_comment(ps);
		if (r < 0)
			return r;
		if (!eat_newline(ps))
			return 0;
	}
}

static int put_utf8(struct parser *ps, char *out, size_t *n, uint32_t cp)
{
	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return FAIL(ps, "escape is not a Unicode scalar value");
	if (cp < 0x80) {
		out[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*n)++] = (char)(0xc0 | (cp >> 6));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		out[(*n)++] = (char)(0xe0 | (cp >> 12));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*n)++] = (char)(0xf0 | (cp >> 18));
		out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
	return 0;
}

/*
 * A string starting at ps->p (the opening quote). Basic strings ("…", """…""") take
 * escapes; literal strings ('…', '''…''') do not. Multi-line forms drop a newline right
 * after the opening delimiter; a basic one also joins lines ending in a backslash.
 * The decoded text is never longer than the source, so one allocation of that size holds it.
 */
int toml_parse_string(struct parser *ps, bool allow_multi, char **ret)
{
	char q = *ps->p;
	bool multi = allow_multi && peek(ps, 1) == q && peek(ps, 2) == q;
	_cleanup_free_ char *out = NULL;
	size_t n = 0;

	ps->p += multi ? 3 : 1;
	out = malloc((size_t)(ps->end - ps->p) + 1);
	if (!out)
		return -ENOMEM;
	if (multi)
		eat_newline(ps);
	for (;;) {
		unsigned char c;

		if (at_eof(ps))
			return FAIL(ps, "unterminated string");
		c = (unsigned char)*ps->p;
		if (c == (unsigned char)q) {
			if (!multi) {
				ps->p++;
				break;
			}
			if (peek(ps, 1) == q && peek(ps, 2) == q) {
				/* Up to two quotes may sit right before the closing three. */
				size_t extra = 0;

				while (extra < 2 && peek(ps, 3 + extra) == q)
					extra++;
				for (size_t i = 0; i < extra; i++)
					out[n++] = q;
				ps->p += 3 + extra;
				break;
			}
			out[n++] = (char)c;
			ps->p++;
			continue;
		}
		if (c == '\n' || (c == '\r' && peek(ps, 1) == '\n')) {
			if (!multi)
				return FAIL(ps, "newline in a single-line string");
			if (c == '\r')
				ps->p++;
			out[n++] = '\n';
			ps->p++;
			ps->line++;
			continue;
		}
		if (is_bad_ctl(c))
			return FAIL(ps, "control character in a string");
		if (c != '\\' || q == '\'') {
			out[n++] = (char)c;
			ps->p++;
			continue;
		}
		/* An escape in a basic string. */
		ps->p++;
		c = (unsigned char)peek(ps, 0);
		if (multi && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
			/* Line-ending backslash: only whitespace may follow it on its line. */
			const char *save = ps->p;

			toml_skip_ws(ps);
			if (!eat_newline(ps)) {
				ps->p = save;
				return FAIL(ps, "backslash followed by spaces but no newline");
			}
			for (;;) {
				toml_skip_ws(ps);
				if (!eat_newline(ps))
					break;
			}
			continue;
		}
		switch (c) {
		case 'b':
			out[n++] = '\b';
			break;
		case 't':
			out[n++] = '\t';
			break;
		case 'n':
			out[n++] = '\n';
			break;
		case 'f':
			out[n++] = '\f';
			break;
		case 'r':
			out[n++] = '\r';
			break;
		case '"':
			out[n++] = '"';
			break;
		case '\\':
			out[n++] = '\\';
			break;
		case 'u':
		case 'U': {
			unsigned digits = c == 'u' ? 4 : 8;
			uint32_t cp = 0;
			int r;

			for (unsigned i = 0; i < digits; i++) {
				int h = parse_hex_digit(peek(ps, 1 + i));

				if (h < 0)
					return FAIL(ps, "bad \\u escape");
				cp = cp << 4 | (uint32_t)h;
			}
			/* \uXXXX is 6 source bytes for at most 3 UTF-8 bytes; \U 10 for 4. */
			r = put_utf8(ps, out, &n, cp);
			if (r < 0)
				return r;
			ps->p += digits;
			break;
		}
		default:
			return FAIL(ps, "unknown escape in a string");
		}
		ps->p++;
	}
	out[n] = '\0';
	{
		/* Give back what the decoded text did not use. */
		char *fit = realloc(out, n + 1);

		*ret = fit ? fit : out;
		out = NULL;
	}
	return 0;
}

static bool is_bare_key_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* key = simple-key *( ws "." ws simple-key ) */
int toml_parse_key(struct parser *ps, char ***ret)
{
	_cleanup_strv_free_ char **key = NULL;

	for (;;) {
		char *seg;
		int r;

		toml_skip_ws(ps);
		if (at_eof(ps))
			return FAIL(ps, "expected a key");
		if (*ps->p == '"' || *ps->p == '\'') {
			r = toml_parse_string(ps, false, &seg);
			if (r < 0)
				return r;
		} else {
			const char *s = ps->p;

			while (!at_eof(ps) && is_bare_key_char(*ps->p))
				ps->p++;
			if (ps->p == s)
				return FAIL(ps, "expected a key");
			seg = strndup(s, (size_t)(ps->p - s));
			if (!seg)
				return -ENOMEM;
		}
		r = strv_consume(&key, seg);
		if (r < 0)
			return r;
		if (strv_length(key) > TOML_MAX_KEY_PARTS)
			return FAIL(ps, "key has too many parts");
		toml_skip_ws(ps);
		if (peek(ps, 0) != '.')
			break;
		ps->p++;
	}
	*ret = TAKE_PTR(key);
	return 0;
}

/* Is a a strict prefix of b? */
/* Digits with single underscores between them; returns the count of digits. */
static size_t scan_digits(struct parser *ps, const char **q, int (*ok)(int))
{
	size_t n = 0;

	while (*q < ps->end) {
		if (ok((unsigned char)**q)) {
			n++;
			(*q)++;
		} else if (**q == '_' && n > 0 && *q + 1 < ps->end && ok((unsigned char)(*q)[1])) {
			(*q)++;
		} else {
			break;
		}
	}
	return n;
}

static int is_hex(int c)
{
	return parse_hex_digit((char)c) >= 0;
}
static int is_oct(int c)
{
	return c >= '0' && c <= '7';
}
static int is_bin(int c)
{
	return c == '0' || c == '1';
}

static int parse_datetime(struct parser *ps, struct toml_value *v)
{
	const char *q = ps->p;

	/* Full date, local time, or date-time (RFC 3339 with TOML's space and local forms). */
	while (q < ps->end &&
	       (is_dec((unsigned char)*q) || strchr("-:.TtZz+", *q) ||
		(*q == ' ' && q + 1 < ps->end && is_dec((unsigned char)q[1]) && q - ps->p == 10)))
		q++;
	if (!at_value_end(ps, q) || q - ps->p < 8)
		return FAIL(ps, "malformed date or time");
	/* Shape: YYYY-MM-DD… or HH:MM:SS… */
	if (!((ps->p[4] == '-' && q - ps->p >= 10 && ps->p[7] == '-') ||
	      (ps->p[2] == ':' && ps->p[5] == ':')))
		return FAIL(ps, "malformed date or time");
	v->type = TOML_DATETIME;
	v->str = strndup(ps->p, (size_t)(q - ps->p));
	if (!v->str)
		return -ENOMEM;
	ps->p = q;
	return 0;
}

int toml_parse_number(struct parser *ps, struct toml_value *v)
{
	const char *q = ps->p, *start = ps->p;
	bool neg = false, is_float = false;
	uint64_t acc = 0;
	int base = 10;
	char buf[128];
	size_t blen = 0;

	/* Dates and times start with 4 (date) or 2 (time) digits then '-' / ':'. */
	if (ps->end - q >= 5 && is_dec((unsigned char)q[0]) && is_dec((unsigned char)q[1]) &&
	    ((is_dec((unsigned char)q[2]) && is_dec((unsigned char)q[3]) && q[4] == '-') ||
	     q[2] == ':'))
		return parse_datetime(ps, v);
	if (*q == '+' || *q == '-') {
		neg = *q == '-';
		q++;
	}
	if (ps->end - q >= 3 && (strneq(q, "inf", 3) || strneq(q, "nan", 3)) &&
	    at_value_end(ps, q + 3)) {
		q += 3;
		v->type = TOML_FLOAT;
		v->str = strndup(start, (size_t)(q - start));
		if (!v->str)
			return -ENOMEM;
		ps->p = q;
		return 0;
	}
	if (q + 1 < ps->end && q[0] == '0' && strchr("xob", q[1]) && q == start) {
		int (*ok)(int) = q[1] == 'x' ? is_hex : q[1] == 'o' ? is_oct : is_bin;

		base = q[1] == 'x' ? 16 : q[1] == 'o' ? 8 : 2;
		q += 2;
		start = q;
		if (scan_digits(ps, &q, ok) == 0 || !at_value_end(ps, q))
			return FAIL(ps, "malformed number");
	} else {
		const char *int_start = q;
		size_t nd = scan_digits(ps, &q, is_dec);

		if (nd == 0)
			return FAIL(ps, "malformed value");
		if (*int_start == '0' && nd > 1)
			return FAIL(ps, "leading zero in a number");
		if (q < ps->end && *q == '.') {
			q++;
			if (scan_digits(ps, &q, is_dec) == 0)
				return FAIL(ps, "malformed float");
			is_float = true;
		}
		if (q < ps->end && (*q == 'e' || *q == 'E')) {
			q++;
			if (q < ps->end && (*q == '+' || *q == '-'))
				q++;
			if (scan_digits(ps, &q, is_dec) == 0)
				return FAIL(ps, "malformed float");
			is_float = true;
		}
		if (!at_value_end(ps, q))
			return FAIL(ps, "malformed number");
	}
	if (is_float) {
		v->type = TOML_FLOAT;
		v->str = strndup(ps->p, (size_t)(q - ps->p));
		if (!v->str)
			return -ENOMEM;
		ps->p = q;
		return 0;
	}
	/* Integer: accumulate without underscores and sign. */
	for (const char *c = base == 10 ? ps->p + (*ps->p == '+' || *ps->p == '-') : start; c < q;
	     c++) {
		if (*c == '_')
			continue;
		if (blen + 1 >= sizeof(buf))
			return FAIL(ps, "integer out of range");
		buf[blen++] = *c;
	}
	buf[blen] = '\0';
	for (size_t i = 0; i < blen; i++) {
		uint64_t d = (uint64_t)parse_hex_digit(buf[i]);

		if (acc > (UINT64_MAX - d) / (uint64_t)base)
			return FAIL(ps, "integer out of range");
		acc = acc * (uint64_t)base + d;
	}
	if ((!neg && acc > (uint64_t)INT64_MAX) || (neg && acc > (uint64_t)INT64_MAX + 1))
		return FAIL(ps, "integer out of range");
	v->type = TOML_INTEGER;
	v->i = neg ? (int64_t)(0 - acc) : (int64_t)acc;
	ps->p = q;
	return 0;
}
