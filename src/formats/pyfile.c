// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A strict reader of the Python literals that generated modules hold (torch/version.py,
 * jaxlib/version.py, tensorflow/python/platform/build_info.py): the literal grammar of the
 * Python Language Reference §2.4 (string and integer literals) and §6.2.5/§6.2.6/§6.2.7
 * (list, tuple and dict displays), plus `collections.OrderedDict([(k, v), …])`, which is
 * what TensorFlow's gen_build_info.py writes. Everything else is "not a literal". Every
 * position is checked against the buffer length; nesting and counts are capped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pyfile.h"
#include "shared/macro.h"
#include "shared/parse.h"

struct cur {
	const char *p;
	size_t len, pos;
	unsigned depth;
};

enum { NOT_LITERAL = 1 };

void pyval_done(struct pyval *v)
{
	if (!v)
		return;
	free(v->text);
	for (size_t i = 0; i < v->n; i++) {
		if (v->items)
			pyval_done(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	*v = (struct pyval){ 0 };
}

static int peek(const struct cur *c)
{
	return c->pos < c->len ? (unsigned char)c->p[c->pos] : -1;
}

static bool at(const struct cur *c, const char *s)
{
	size_t n = strlen(s);

	return c->len - c->pos >= n && memcmp(c->p + c->pos, s, n) == 0;
}

/* Inside brackets newlines, comments and backslash-newline are whitespace; outside only
 * blanks are. */
static void skip_space(struct cur *c, bool multiline)
{
	for (;;) {
		int ch = peek(c);

		if (ch == ' ' || ch == '\t' || ch == '\f')
			c->pos++;
		else if (ch == '\\' && c->pos + 1 < c->len && c->p[c->pos + 1] == '\n')
			c->pos += 2;
		else if (multiline && (ch == '\n' || ch == '\r'))
			c->pos++;
		else if (multiline && ch == '#') {
			while (peek(c) >= 0 && peek(c) != '\n')
				c->pos++;
		} else
			return;
	}
}

static int parse_string(struct cur *c, char **ret)
{
	char q = c->p[c->pos];
	_cleanup_free_ char *buf = NULL;
	size_t n = 0;

	if (at(c, q == '\'' ? "'''" : "\"\"\""))
		return NOT_LITERAL; /* triple-quoted: not in the files we read */
	c->pos++;
	buf = malloc(MIN(c->len - c->pos, (size_t)PYFILE_MAX_STRING) + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		int ch = peek(c);

		if (ch < 0 || ch == '\n' || ch == '\r')
			return -EBADMSG; /* cut short */
		c->pos++;
		if (ch == q)
			break;
		if (ch == '\\') {
			int e = peek(c);

			if (e < 0)
				return -EBADMSG;
			c->pos++;
			switch (e) {
			case 'n':
				ch = '\n';
				break;
			case 't':
				ch = '\t';
				break;
			case 'r':
				ch = '\r';
				break;
			case '\\':
			case '\'':
			case '"':
				ch = e;
				break;
			case '\n':
				continue; /* line continuation inside the string */
			case 'x': {
				int h = c->pos + 1 < c->len
						? parse_hex_digit((unsigned char)c->p[c->pos])
						: -1;
				int l = h >= 0 ? parse_hex_digit((unsigned char)c->p[c->pos + 1])
					       : -1;

				if (l < 0)
					return -EBADMSG;
				c->pos += 2;
				ch = h * 16 + l;
				break;
			}
			default:
				/* Unknown escapes keep the backslash (Python semantics). */
				if (n >= PYFILE_MAX_STRING)
					return -EBADMSG;
				buf[n++] = '\\';
				ch = e;
			}
		}
		if (ch == 0 || n >= PYFILE_MAX_STRING)
			return -EBADMSG;
		buf[n++] = (char)ch;
	}
	buf[n] = '\0';
	*ret = TAKE_PTR(buf);
	return 0;
}

static bool is_ident(int ch, bool first)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
	       (!first && ch >= '0' && ch <= '9');
}

static int parse_value(struct cur *c, struct pyval *v);

/* Appends one element to a list or dict being built. */
static int push_item(struct pyval *v, size_t *alloc, bool with_key)
{
	if (v->n >= PYFILE_MAX_ITEMS)
		return -EBADMSG;
	if (v->n == *alloc) {
		size_t na = *alloc ? *alloc * 2 : 8;
		struct pyval *it = realloc(v->items, na * sizeof(*it));

		if (!it)
			return -ENOMEM;
		v->items = it;
		if (with_key) {
			char **k = realloc(v->keys, na * sizeof(*k));

			if (!k)
				return -ENOMEM;
			v->keys = k;
		}
		*alloc = na;
	}
	v->items[v->n] = (struct pyval){ 0 };
	if (with_key)
		v->keys[v->n] = NULL;
	v->n++;
	return 0;
}

/* A nested value: anything but a literal is malformed here. */
static int parse_nested(struct cur *c, struct pyval *v)
{
	int r;

	skip_space(c, true);
	r = parse_value(c, v);
	return r == NOT_LITERAL ? -EBADMSG : r;
}

/* [a, b] or (a, b), the opening bracket consumed; `close` ends it. */
static int parse_seq(struct cur *c, struct pyval *v, char close)
{
	size_t alloc = 0;
	int r;

	v->kind = PYVAL_LIST;
	for (;;) {
		skip_space(c, true);
		if (peek(c) == close) {
			c->pos++;
			return 0;
		}
		r = push_item(v, &alloc, false);
		if (r < 0)
			return r;
		r = parse_nested(c, &v->items[v->n - 1]);
		if (r < 0)
			return r;
		skip_space(c, true);
		if (peek(c) == ',')
			c->pos++;
		else if (peek(c) != close)
			return -EBADMSG;
	}
}

/* One dict member: its key (a string) and its value. */
static int add_member(struct pyval *d, size_t *alloc, struct pyval *key, struct pyval *val)
{
	int r;

	if (key->kind != PYVAL_STR)
		return -EBADMSG;
	r = push_item(d, alloc, true);
	if (r < 0)
		return r;
	d->keys[d->n - 1] = TAKE_PTR(key->text);
	d->items[d->n - 1] = *val;
	*val = (struct pyval){ 0 };
	return 0;
}

/* {k: v, …}, the brace consumed. */
static int parse_dict(struct cur *c, struct pyval *v)
{
	size_t alloc = 0;

	v->kind = PYVAL_DICT;
	for (;;) {
		struct pyval k = { 0 }, val = { 0 };
		int r;

		skip_space(c, true);
		if (peek(c) == '}') {
			c->pos++;
			return 0;
		}
		r = parse_nested(c, &k);
		if (r >= 0) {
			skip_space(c, true);
			r = peek(c) == ':' ? 0 : -EBADMSG;
		}
		if (r >= 0) {
			c->pos++;
			r = parse_nested(c, &val);
		}
		if (r >= 0)
			r = add_member(v, &alloc, &k, &val);
		pyval_done(&k);
		pyval_done(&val);
		if (r < 0)
			return r;
		skip_space(c, true);
		if (peek(c) == ',')
			c->pos++;
		else if (peek(c) != '}')
			return -EBADMSG;
	}
}

/* OrderedDict( … ), the name consumed: empty, or a list/tuple of (key, value) pairs. */
static int parse_ordered_dict(struct cur *c, struct pyval *v)
{
	struct pyval pairs = { 0 };
	size_t alloc = 0;
	int r = 0;

	skip_space(c, true);
	if (peek(c) != '(')
		return NOT_LITERAL;
	c->pos++;
	skip_space(c, true);
	v->kind = PYVAL_DICT;
	if (peek(c) == ')') {
		c->pos++;
		return 0;
	}
	r = parse_nested(c, &pairs);
	if (r >= 0 && pairs.kind != PYVAL_LIST)
		r = -EBADMSG;
	for (size_t i = 0; r >= 0 && i < pairs.n; i++) {
		struct pyval *pr = &pairs.items[i];

		if (pr->kind != PYVAL_LIST || pr->n != 2)
			r = -EBADMSG;
		else
			r = add_member(v, &alloc, &pr->items[0], &pr->items[1]);
	}
	pyval_done(&pairs);
	if (r < 0)
		return r;
	skip_space(c, true);
	if (peek(c) != ')')
		return -EBADMSG;
	c->pos++;
	return 0;
}

/* 0: a literal; NOT_LITERAL: something else starts here; -EBADMSG: a literal cut short. */
static int parse_value(struct cur *c, struct pyval *v)
{
	int ch = peek(c), r;
	size_t start = c->pos;

	if (c->depth >= PYFILE_MAX_DEPTH)
		return -EBADMSG;
	if (ch == '\'' || ch == '"') {
		r = parse_string(c, &v->text);
		if (r == 0)
			v->kind = PYVAL_STR;
		return r;
	}
	if ((ch >= '0' && ch <= '9') || (ch == '-' && c->pos + 1 < c->len &&
					 c->p[c->pos + 1] >= '0' && c->p[c->pos + 1] <= '9')) {
		c->pos++;
		while (peek(c) >= '0' && peek(c) <= '9')
			c->pos++;
		if (c->pos - start > 32 || peek(c) == '.' || is_ident(peek(c), false))
			return NOT_LITERAL; /* floats, 0x…, 1e5: not used by these files */
		v->kind = PYVAL_INT;
		v->text = strndup(c->p + start, c->pos - start);
		return v->text ? 0 : -ENOMEM;
	}
	if (ch == '[' || ch == '(' || ch == '{') {
		c->pos++;
		c->depth++;
		r = ch == '{' ? parse_dict(c, v) : parse_seq(c, v, ch == '[' ? ']' : ')');
		c->depth--;
		return r;
	}
	if (is_ident(ch, true)) {
		while (is_ident(peek(c), false) || peek(c) == '.')
			c->pos++;
		size_t n = c->pos - start;
		const char *w = c->p + start;

		if ((n == 4 && memcmp(w, "None", 4) == 0)) {
			v->kind = PYVAL_NONE;
			return 0;
		}
		if ((n == 4 && memcmp(w, "True", 4) == 0) ||
		    (n == 5 && memcmp(w, "False", 5) == 0)) {
			v->kind = PYVAL_BOOL;
			v->text = strndup(w, n);
			return v->text ? 0 : -ENOMEM;
		}
		if ((n == 11 && memcmp(w, "OrderedDict", 11) == 0) ||
		    (n == 23 && memcmp(w, "collections.OrderedDict", 23) == 0)) {
			c->depth++;
			r = parse_ordered_dict(c, v);
			c->depth--;
			return r;
		}
	}
	return NOT_LITERAL;
}

/* Start of the last column-0 line that assigns `name`, or -ENOENT. */
static int find_assign(const char *p, size_t len, const char *name, size_t *ret)
{
	size_t n = strlen(name), pos = 0;
	bool found = false;

	while (pos < len) {
		const char *nl = memchr(p + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - p) : len;

		if (end - pos > n && memcmp(p + pos, name, n) == 0) {
			size_t q = pos + n;

			while (q < end && (p[q] == ' ' || p[q] == '\t'))
				q++;
			if (q < end &&
			    (p[q] == ':' || (p[q] == '=' && (q + 1 >= end || p[q + 1] != '=')))) {
				*ret = pos;
				found = true;
			}
		}
		pos = end + 1;
	}
	return found ? 0 : -ENOENT;
}

int pyfile_get_assign(const char *p, size_t len, const char *name, struct pyval *ret)
{
	struct cur c = { .p = p, .len = len };
	struct pyval v = { 0 };
	size_t start;
	int r;

	if (!p || !name || !*name || strlen(name) > PYFILE_MAX_NAME)
		return -EINVAL;
	r = find_assign(p, len, name, &start);
	if (r < 0)
		return r;
	c.pos = start + strlen(name);
	skip_space(&c, false);
	if (peek(&c) == ':') {
		/* The annotation runs to the '=' (Optional[str], str | None). */
		while (peek(&c) >= 0 && peek(&c) != '=' && peek(&c) != '\n')
			c.pos++;
		if (peek(&c) != '=')
			return -EBADMSG; /* a bare annotation or a cut line */
	}
	c.pos++; /* '=' */
	skip_space(&c, false);
	r = parse_value(&c, &v);
	if (r == NOT_LITERAL) {
		pyval_done(&v);
		*ret = (struct pyval){ .kind = PYVAL_OTHER };
		return 0;
	}
	if (r < 0) {
		pyval_done(&v);
		return r;
	}
	skip_space(&c, false);
	if (peek(&c) == '#')
		while (peek(&c) >= 0 && peek(&c) != '\n')
			c.pos++;
	if (peek(&c) >= 0 && peek(&c) != '\n' && peek(&c) != '\r') {
		pyval_done(&v);
		return -EBADMSG; /* 'a' + x, 'a' 'b', trailing junk */
	}
	*ret = v;
	return 0;
}

int pyfile_get_string(const char *p, size_t len, const char *name, char **ret, bool *ret_none)
{
	struct pyval v;
	int r = pyfile_get_assign(p, len, name, &v);

	if (r < 0)
		return r;
	if (v.kind != PYVAL_STR && v.kind != PYVAL_NONE) {
		pyval_done(&v);
		return -EBADMSG;
	}
	*ret_none = v.kind == PYVAL_NONE;
	*ret = TAKE_PTR(v.text);
	pyval_done(&v);
	return 0;
}

const struct pyval *pyval_dict_get(const struct pyval *dict, const char *key)
{
	if (!dict || dict->kind != PYVAL_DICT)
		return NULL;
	for (size_t i = dict->n; i > 0; i--) /* the last duplicate wins, as in Python */
		if (dict->keys[i - 1] && strcmp(dict->keys[i - 1], key) == 0)
			return &dict->items[i - 1];
	return NULL;
}

int pyfile_tf_build_info(const char *p, size_t len, struct pyval *ret, const char **ret_form)
{
	/* The module-level names of TF 1.x to 2.2 and the dict keys they became in TF 2.3. */
	static const char *const names[][2] = {
		{ "is_cuda_build", "is_cuda_build" },
		{ "is_rocm_build", "is_rocm_build" },
		{ "cuda_version_number", "cuda_version" },
		{ "cudnn_version_number", "cudnn_version" },
	};
	struct pyval d = { .kind = PYVAL_DICT }, v;
	int r = pyfile_get_assign(p, len, "build_info", &v);

	if (r == 0) {
		if (v.kind != PYVAL_DICT) {
			pyval_done(&v);
			return -EBADMSG;
		}
		*ret = v;
		*ret_form = "dict";
		return 0;
	}
	if (r != -ENOENT)
		return r;
	d.items = calloc(ARRAY_SIZE(names), sizeof(*d.items));
	d.keys = calloc(ARRAY_SIZE(names), sizeof(*d.keys));
	if (!d.items || !d.keys) {
		pyval_done(&d);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		r = pyfile_get_assign(p, len, names[i][0], &v);
		if (r == -ENOENT)
			continue;
		if (r < 0) {
			pyval_done(&d);
			return r;
		}
		d.keys[d.n] = strdup(names[i][1]);
		d.items[d.n++] = v;
		if (!d.keys[d.n - 1]) {
			pyval_done(&d);
			return -ENOMEM;
		}
	}
	/* Every generator of this form wrote is_cuda_build: without it, this is no build_info. */
	if (!pyval_dict_get(&d, "is_cuda_build")) {
		pyval_done(&d);
		return -ENOENT;
	}
	*ret = d;
	*ret_form = "module-variables";
	return 0;
}
