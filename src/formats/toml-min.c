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
 * Caps: input size, entries, values, nesting depth and key length (toml-min.h). The tokens
 * are read by toml-lex.c; this file builds the document from them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "shared/macro.h"
#include "shared/parse.h"
#include "shared/strv.h"
#include "toml-internal.h"

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

static int parse_array(struct parser *ps, struct toml_value *v, unsigned depth)
{
	int r;

	ps->p++; /* '[' */
	v->type = TOML_ARRAY;
	for (;;) {
		struct toml_value *items;

		r = toml_skip_ws_nl(ps);
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
		r = toml_skip_ws_nl(ps);
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
	toml_skip_ws(ps);
	if (peek(ps, 0) == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		_cleanup_strv_free_ char **key = NULL, **full = NULL;
		struct toml_value item = { 0 };
		_cleanup_free_ char *joined = NULL;
		size_t jl = 0;

		r = toml_parse_key(ps, &key);
		if (r < 0)
			return r;
		if (peek(ps, 0) != '=')
			return FAIL(ps, "expected '=' after a key");
		ps->p++;
		toml_skip_ws(ps);
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
		toml_skip_ws(ps);
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
		return toml_parse_string(ps, true, &v->str);
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
			return toml_parse_number(ps, v);
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
	r = toml_parse_key(ps, &key);
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
		return r < 0 ? r : toml_expect_eol(ps);
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
	return r < 0 ? r : toml_expect_eol(ps);
}

static int parse_keyval(struct parser *ps)
{
	_cleanup_strv_free_ char **key = NULL, **full = NULL;
	struct toml_value v = { 0 };
	int r;

	r = toml_parse_key(ps, &key);
	if (r < 0)
		return r;
	if (peek(ps, 0) != '=')
		return FAIL(ps, "expected '=' after a key");
	ps->p++;
	toml_skip_ws(ps);
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
	return toml_expect_eol(ps);
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
		toml_skip_ws(&ps);
		if (at_eof(&ps))
			break;
		if (*ps.p == '#' || *ps.p == '\n' || *ps.p == '\r')
			r = toml_expect_eol(&ps);
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
