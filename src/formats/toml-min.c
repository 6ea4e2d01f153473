// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A small strict TOML reader (TOML 1.0.0, https://toml.io/en/v1.0.0) for
 * /etc/nvidia-container-runtime/config.toml and /etc/containerd/config.toml. Debian 12 main
 * has no C TOML library, so this reads the language the two files use and refuses, with a
 * line number and a reason, everything it does not read:
 *   read:    comments; bare, quoted and dotted keys; [table] and [[array of tables]]
 *            headers; basic and literal strings, single- and multi-line, with every
 *            escape; decimal/hex/octal/binary integers (64-bit, overflow refused); floats,
 *            inf, nan (kept as text); booleans; dates and times (kept as text, shape
 *            checked); arrays (multi-line, trailing comma); inline tables (flattened
 *            into key paths; inside arrays only their syntax is checked).
 *   refused: duplicate keys, a key that is both a value and a table, a table header
 *            given twice, [x] over [[x]] and the reverse, control characters, a bare CR,
 *            NUL bytes, malformed numbers, anything after a value on its line.
 *   not checked: that a table created by dotted keys is not reopened by a header
 *            (TOML forbids it; it changes no value gpuenv reads), UTF-8 validity.
 * Caps: input size, entries, values, nesting depth and key length (toml-min.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/strv.h"
#include "toml-min.h"

struct atable {
	char **path; /* expanded path of the [[array]] */
	unsigned count;
};

struct parser {
	const char *p, *end;
	unsigned line;
	struct toml_doc *doc;
	size_t n_values;
	char **table; /* the current table's expanded path */
	struct atable *atables;
	size_t n_atables;
	struct toml_error *err;
};

#define FAIL(ps, reason)                                                                           \
	({                                                                                         \
		(ps)->err->line = (ps)->line;                                                      \
		(ps)->err->why = (reason);                                                         \
		-EBADMSG;                                                                          \
	})

const char *toml_type_name(enum toml_type t)
{
	static const char *const names[] = {
		[TOML_TABLE] = "table",
		[TOML_ARRAY_TABLE] = "array of tables",
		[TOML_STRING] = "string",
		[TOML_INTEGER] = "integer",
		[TOML_FLOAT] = "float",
		[TOML_BOOL] = "boolean",
		[TOML_DATETIME] = "datetime",
		[TOML_ARRAY] = "array",
		[TOML_INLINE_TABLE] = "inline table",
	};

	return (unsigned)t < ARRAY_SIZE(names) ? names[t] : "unknown";
}

static void value_done(struct toml_value *v)
{
	for (size_t i = 0; i < v->n_items; i++)
		value_done(&v->items[i]);
	free(v->items);
	free(v->str);
	*v = (struct toml_value){ 0 };
}

struct toml_doc *toml_free(struct toml_doc *d)
{
	if (!d)
		return NULL;
	for (size_t i = 0; i < d->n_entries; i++) {
		strv_free(d->entries[i].key);
		value_done(&d->entries[i].v);
	}
	free(d->entries);
	free(d);
	return NULL;
}

static bool at_eof(const struct parser *ps)
{
	return ps->p >= ps->end;
}

static char peek(const struct parser *ps, size_t off)
{
	return ps->p + off < ps->end ? ps->p[off] : '\0';
}

static void skip_ws(struct parser *ps)
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
static int expect_eol(struct parser *ps)
{
	int r;

	skip_ws(ps);
	r = skip_comment(ps);
	if (r < 0)
		return r;
	if (at_eof(ps) || eat_newline(ps))
		return 0;
	return FAIL(ps, *ps->p == '\r' ? "bare carriage return" : "text after the value");
}

/* Whitespace, newlines and comments (inside arrays). */
static int skip_ws_nl(struct parser *ps)
{
	for (;;) {
		int r;

		skip_ws(ps);
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
static int parse_string(struct parser *ps, bool allow_multi, char **ret)
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

			skip_ws(ps);
			if (!eat_newline(ps)) {
				ps->p = save;
				return FAIL(ps, "backslash followed by spaces but no newline");
			}
			for (;;) {
				skip_ws(ps);
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
static int parse_key(struct parser *ps, char ***ret)
{
	_cleanup_strv_free_ char **key = NULL;

	for (;;) {
		char *seg;
		int r;

		skip_ws(ps);
		if (at_eof(ps))
			return FAIL(ps, "expected a key");
		if (*ps->p == '"' || *ps->p == '\'') {
			r = parse_string(ps, false, &seg);
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
		skip_ws(ps);
		if (peek(ps, 0) != '.')
			break;
		ps->p++;
	}
	*ret = TAKE_PTR(key);
	return 0;
}

/* Is a a strict prefix of b? */
static bool path_is_prefix(char *const *a, char *const *b)
{
	size_t i;

	for (i = 0; a[i]; i++)
		if (!b[i] || strcmp(a[i], b[i]) != 0)
			return false;
	return b[i] != NULL;
}

static bool path_eq(char *const *a, char *const *b)
{
	size_t i;

	for (i = 0; a[i] && b[i]; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return !a[i] && !b[i];
}

static bool is_leaf(enum toml_type t)
{
	return t != TOML_TABLE && t != TOML_ARRAY_TABLE;
}

static struct atable *find_atable(struct parser *ps, char *const *path)
{
	for (size_t i = 0; i < ps->n_atables; i++)
		if (path_eq(ps->atables[i].path, path))
			return &ps->atables[i];
	return NULL;
}

/*
 * Rewrites a key path so that every prefix naming an array of tables continues in that
 * array's last element: [[a]] then [a.b] means a.#N.b.
 */
static int expand_path(struct parser *ps, char **in, char ***ret)
{
	_cleanup_strv_free_ char **out = NULL;

	STRV_FOREACH(s, in) {
		struct atable *at;
		int r = strv_push(&out, *s);

		if (r < 0)
			return r;
		at = find_atable(ps, out);
		if (at && s[1]) {
			char idx[16];

			snprintf(idx, sizeof(idx), "#%u", at->count - 1);
			r = strv_push(&out, idx);
			if (r < 0)
				return r;
		}
	}
	if (strv_length(out) > 2 * TOML_MAX_KEY_PARTS)
		return FAIL(ps, "key has too many parts");
	*ret = TAKE_PTR(out);
	return 0;
}

/* Adds an entry (takes key and v) after the duplicate checks. */
static int add_entry(struct parser *ps, char **key, struct toml_value *v)
{
	struct toml_doc *d = ps->doc;
	struct toml_entry *e;

	for (size_t i = 0; i < d->n_entries; i++) {
		const struct toml_entry *x = &d->entries[i];

		if (path_eq(x->key, key)) {
			/* A table header may follow the implicit table its sub-tables made. */
			if (x->v.type == TOML_TABLE && v->type == TOML_TABLE && x->line == 0) {
				d->entries[i].line = ps->line;
				strv_free(key);
				return 0;
			}
			const char *why = x->v.type == TOML_TABLE && v->type == TOML_TABLE
						  ? "table defined twice"
					  : is_leaf(x->v.type) != is_leaf(v->type)
						  ? "key is both a value and a table"
						  : "duplicate key";

			strv_free(key);
			value_done(v);
			return FAIL(ps, why);
		}
		if ((is_leaf(x->v.type) && path_is_prefix(x->key, key)) ||
		    (is_leaf(v->type) && path_is_prefix(key, x->key))) {
			strv_free(key);
			value_done(v);
			return FAIL(ps, "key is both a value and a table");
		}
	}
	if (d->n_entries >= TOML_MAX_ENTRIES) {
		strv_free(key);
		value_done(v);
		ps->err->line = ps->line;
		ps->err->why = "too many keys";
		return -E2BIG;
	}
	if (d->n_entries % 64 == 0) {
		struct toml_entry *n = realloc(d->entries, (d->n_entries + 64) * sizeof(*n));

		if (!n) {
			strv_free(key);
			value_done(v);
			return -ENOMEM;
		}
		d->entries = n;
	}
	e = &d->entries[d->n_entries++];
	e->key = key;
	e->v = *v;
	e->line = ps->line;
	*v = (struct toml_value){ 0 };
	return 0;
}

/* Records every proper prefix of key below the current table as an implicit table
 * (line 0), so that toml_children() lists dotted-key tables too. */
static int add_implicit_tables(struct parser *ps, char *const *key, size_t from)
{
	size_t n = strv_length(key);

	for (size_t len = from; len + 1 < n; len++) {
		_cleanup_strv_free_ char **prefix = NULL;
		struct toml_value t = { .type = TOML_TABLE };
		bool exists = false;
		int r;

		for (size_t i = 0; i <= len; i++) {
			r = strv_push(&prefix, key[i]);
			if (r < 0)
				return r;
		}
		for (size_t i = 0; i < ps->doc->n_entries; i++)
			if (path_eq(ps->doc->entries[i].key, prefix)) {
				exists = true;
				if (is_leaf(ps->doc->entries[i].v.type))
					return FAIL(ps, "key is both a value and a table");
				break;
			}
		if (exists)
			continue;
		r = add_entry(ps, TAKE_PTR(prefix), &t);
		if (r < 0)
			return r;
		ps->doc->entries[ps->doc->n_entries - 1].line = 0;
	}
	return 0;
}

static int count_value(struct parser *ps)
{
	if (++ps->n_values > TOML_MAX_VALUES) {
		ps->err->line = ps->line;
		ps->err->why = "too many values";
		return -E2BIG;
	}
	return 0;
}

static int parse_value(struct parser *ps, struct toml_value *v, char **flatten_at, unsigned depth);

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

static int is_dec(int c)
{
	return c >= '0' && c <= '9';
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

/* Where a value token must end: whitespace, ',', ']', '}', '#', newline, end of input. */
static bool at_value_end(const struct parser *ps, const char *q)
{
	return q >= ps->end || strchr(" \t,]}#\r\n", *q);
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

static int parse_number(struct parser *ps, struct toml_value *v)
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

static int parse_array(struct parser *ps, struct toml_value *v, unsigned depth)
{
	int r;

	ps->p++; /* '[' */
	v->type = TOML_ARRAY;
	for (;;) {
		struct toml_value *items;

		r = skip_ws_nl(ps);
		if (r < 0)
			return r;
		if (peek(ps, 0) == ']') {
			ps->p++;
			return 0;
		}
		items = realloc(v->items, (v->n_items + 1) * sizeof(*items));
		if (!items)
			return -ENOMEM;
		v->items = items;
		v->items[v->n_items] = (struct toml_value){ 0 };
		r = parse_value(ps, &v->items[v->n_items], NULL, depth + 1);
		v->n_items++; /* counted even on failure, so value_done() frees it */
		if (r < 0)
			return r;
		r = skip_ws_nl(ps);
		if (r < 0)
			return r;
		if (peek(ps, 0) == ',') {
			ps->p++;
			continue;
		}
		if (peek(ps, 0) == ']') {
			ps->p++;
			return 0;
		}
		return FAIL(ps,
			    at_eof(ps) ? "unterminated array" : "expected ',' or ']' in an array");
	}
}

static int concat_path(char *const *a, char *const *b, char ***ret)
{
	_cleanup_strv_free_ char **out = NULL;
	int r;

	STRV_FOREACH(s, (char **)a)
		if ((r = strv_push(&out, *s)) < 0)
			return r;
	STRV_FOREACH(s, (char **)b)
		if ((r = strv_push(&out, *s)) < 0)
			return r;
	*ret = TAKE_PTR(out);
	return 0;
}

/* The table that the following key/value lines go into: a copy of path. */
static int set_table(struct parser *ps, char *const *path)
{
	strv_free(ps->table);
	ps->table = NULL;
	return concat_path(path, NULL, &ps->table);
}

/*
 * { k = v, … } on one line, no trailing comma. With flatten_at, each pair becomes an entry
 * at flatten_at.k; without (inside an array), the pairs are checked and dropped.
 */
static int parse_inline_table(struct parser *ps, struct toml_value *v, char **flatten_at,
			      unsigned depth)
{
	_cleanup_strv_free_ char **seen = NULL;
	int r;

	ps->p++; /* '{' */
	v->type = flatten_at ? TOML_TABLE : TOML_INLINE_TABLE;
	skip_ws(ps);
	if (peek(ps, 0) == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		_cleanup_strv_free_ char **key = NULL, **full = NULL;
		struct toml_value item = { 0 };
		_cleanup_free_ char *joined = NULL;
		size_t jl = 0;

		r = parse_key(ps, &key);
		if (r < 0)
			return r;
		if (peek(ps, 0) != '=')
			return FAIL(ps, "expected '=' after a key");
		ps->p++;
		skip_ws(ps);
		if (flatten_at) {
			r = concat_path(flatten_at, key, &full);
			if (r < 0)
				return r;
			r = add_implicit_tables(ps, full, strv_length(flatten_at));
			if (r < 0)
				return r;
		} else {
			/* Duplicate check within a dropped table: compare the joined keys. */
			STRV_FOREACH(s, key)
				jl += strlen(*s) + 1;
			joined = malloc(jl + 1);
			if (!joined)
				return -ENOMEM;
			joined[0] = '\0';
			STRV_FOREACH(s, key) {
				strcat(joined, *s);
				strcat(joined, "\x1f");
			}
			if (strv_contains(seen, joined))
				return FAIL(ps, "duplicate key");
			r = strv_push(&seen, joined);
			if (r < 0)
				return r;
		}
		r = parse_value(ps, &item, full, depth + 1);
		if (r < 0) {
			value_done(&item);
			return r;
		}
		if (full && item.type != TOML_TABLE) {
			r = add_entry(ps, TAKE_PTR(full), &item);
			if (r < 0)
				return r;
		}
		value_done(&item);
		skip_ws(ps);
		if (peek(ps, 0) == ',') {
			ps->p++;
			continue;
		}
		if (peek(ps, 0) == '}') {
			ps->p++;
			return 0;
		}
		return FAIL(ps, "expected ',' or '}' in an inline table");
	}
}

/* A value at ps->p. flatten_at: the key path an inline table here is flattened into. */
static int parse_value(struct parser *ps, struct toml_value *v, char **flatten_at, unsigned depth)
{
	int r;

	if (depth > TOML_MAX_DEPTH) {
		ps->err->line = ps->line;
		ps->err->why = "arrays or inline tables nested too deep";
		return -E2BIG;
	}
	r = count_value(ps);
	if (r < 0)
		return r;
	if (at_eof(ps))
		return FAIL(ps, "expected a value");
	switch (*ps->p) {
	case '"':
	case '\'':
		v->type = TOML_STRING;
		return parse_string(ps, true, &v->str);
	case '[':
		return parse_array(ps, v, depth);
	case '{':
		if (flatten_at) {
			struct toml_value t = { .type = TOML_TABLE };
			char **copy = NULL;

			r = concat_path(flatten_at, NULL, &copy);
			if (r < 0)
				return r;
			r = add_entry(ps, copy, &t);
			if (r < 0)
				return r;
		}
		return parse_inline_table(ps, v, flatten_at, depth);
	case 't':
	case 'f': {
		bool b = *ps->p == 't';
		size_t n = b ? 4 : 5;

		if ((size_t)(ps->end - ps->p) < n || !strneq(ps->p, b ? "true" : "false", n) ||
		    !at_value_end(ps, ps->p + n))
			return FAIL(ps, "malformed value");
		v->type = TOML_BOOL;
		v->b = b;
		ps->p += n;
		return 0;
	}
	default:
		if (is_dec((unsigned char)*ps->p) || *ps->p == '+' || *ps->p == '-' ||
		    *ps->p == 'i' || *ps->p == 'n')
			return parse_number(ps, v);
		return FAIL(ps, "malformed value");
	}
}

static int parse_header(struct parser *ps)
{
	bool array = peek(ps, 1) == '[';
	_cleanup_strv_free_ char **key = NULL, **path = NULL;
	struct toml_value t = { .type = array ? TOML_ARRAY_TABLE : TOML_TABLE };
	struct atable *at;
	int r;

	ps->p += array ? 2 : 1;
	r = parse_key(ps, &key);
	if (r < 0)
		return r;
	if (peek(ps, 0) != ']' || (array && peek(ps, 1) != ']'))
		return FAIL(ps, "malformed table header");
	ps->p += array ? 2 : 1;
	r = expand_path(ps, key, &path);
	if (r < 0)
		return r;
	at = find_atable(ps, path);
	if (!array) {
		if (at)
			return FAIL(ps, "table header names an array of tables");
		r = add_implicit_tables(ps, path, 0);
		if (r < 0)
			return r;
		r = set_table(ps, path);
		if (r < 0)
			return r;
		r = add_entry(ps, TAKE_PTR(path), &t);
		return r < 0 ? r : expect_eol(ps);
	}
	if (!at) {
		struct atable *n;
		char **copy = NULL;

		r = add_implicit_tables(ps, path, 0);
		if (r < 0)
			return r;
		r = concat_path(path, NULL, &copy);
		if (r < 0)
			return r;
		r = add_entry(ps, copy, &t); /* refuses [[x]] over a [x] or a value x */
		if (r < 0)
			return r;
		n = realloc(ps->atables, (ps->n_atables + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		ps->atables = n;
		at = &ps->atables[ps->n_atables++];
		at->path = NULL;
		at->count = 0;
		r = concat_path(path, NULL, &at->path);
		if (r < 0)
			return r;
	}
	{
		char idx[16];
		struct toml_value elem = { .type = TOML_TABLE };

		if (at->count >= TOML_MAX_ENTRIES) {
			ps->err->line = ps->line;
			ps->err->why = "too many keys";
			return -E2BIG;
		}
		snprintf(idx, sizeof(idx), "#%u", at->count++);
		r = strv_push(&path, idx);
		if (r < 0)
			return r;
		r = set_table(ps, path);
		if (r < 0)
			return r;
		r = add_entry(ps, TAKE_PTR(path), &elem);
	}
	return r < 0 ? r : expect_eol(ps);
}

static int parse_keyval(struct parser *ps)
{
	_cleanup_strv_free_ char **key = NULL, **full = NULL;
	struct toml_value v = { 0 };
	int r;

	r = parse_key(ps, &key);
	if (r < 0)
		return r;
	if (peek(ps, 0) != '=')
		return FAIL(ps, "expected '=' after a key");
	ps->p++;
	skip_ws(ps);
	r = concat_path(ps->table, key, &full);
	if (r < 0)
		return r;
	r = add_implicit_tables(ps, full, strv_length(ps->table));
	if (r < 0)
		return r;
	r = parse_value(ps, &v, full, 0);
	if (r < 0) {
		value_done(&v);
		return r;
	}
	if (v.type == TOML_TABLE) /* an inline table: already flattened */
		value_done(&v);
	else if ((r = add_entry(ps, TAKE_PTR(full), &v)) < 0)
		return r;
	return expect_eol(ps);
}

int toml_parse(const char *data, size_t len, struct toml_doc **ret, struct toml_error *ret_err)
{
	struct toml_error err_local = { 0 };
	struct parser ps = {
		.p = data,
		.end = data + len,
		.line = 1,
		.err = ret_err ? ret_err : &err_local,
	};
	int r = 0;

	if (len > TOML_MAX_INPUT) {
		ps.err->line = 0;
		ps.err->why = "file too large";
		return -E2BIG;
	}
	if (memchr(data, '\0', len)) {
		ps.err->line = 0;
		ps.err->why = "NUL byte in the file";
		return -EBADMSG;
	}
	ps.doc = calloc(1, sizeof(*ps.doc));
	if (!ps.doc)
		return -ENOMEM;
	/* A UTF-8 byte order mark is allowed at the very start. */
	if (len >= 3 && strneq(data, "\xef\xbb\xbf", 3))
		ps.p += 3;
	while (!at_eof(&ps)) {
		skip_ws(&ps);
		if (at_eof(&ps))
			break;
		if (*ps.p == '#' || *ps.p == '\n' || *ps.p == '\r')
			r = expect_eol(&ps);
		else if (*ps.p == '[')
			r = parse_header(&ps);
		else
			r = parse_keyval(&ps);
		if (r < 0)
			break;
	}
	strv_free(ps.table);
	for (size_t i = 0; i < ps.n_atables; i++)
		strv_free(ps.atables[i].path);
	free(ps.atables);
	if (r < 0) {
		toml_free(ps.doc);
		return r;
	}
	*ret = ps.doc;
	return 0;
}

static bool key_matches(char *const *key, const char *const *want, bool prefix_only)
{
	size_t i;

	for (i = 0; want[i]; i++)
		if (!key[i] || strcmp(key[i], want[i]) != 0)
			return false;
	return prefix_only ? key[i] != NULL : key[i] == NULL;
}

const struct toml_value *toml_get(const struct toml_doc *d, const char *const *key)
{
	for (size_t i = 0; d && i < d->n_entries; i++)
		if (key_matches(d->entries[i].key, key, false))
			return &d->entries[i].v;
	return NULL;
}

int toml_children(const struct toml_doc *d, const char *const *prefix, char ***ret)
{
	_cleanup_strv_free_ char **out = NULL;
	size_t depth = 0;

	while (prefix[depth])
		depth++;
	for (size_t i = 0; d && i < d->n_entries; i++) {
		char *const *k = d->entries[i].key;
		int r;

		if (!key_matches(k, prefix, true) || strv_contains(out, k[depth]))
			continue;
		r = strv_push(&out, k[depth]);
		if (r < 0)
			return r;
	}
	if (!out) {
		out = calloc(1, sizeof(char *));
		if (!out)
			return -ENOMEM;
	}
	*ret = TAKE_PTR(out);
	return 0;
}
