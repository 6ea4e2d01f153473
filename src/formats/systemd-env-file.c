// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A systemd EnvironmentFile= (see systemd-env-file.h): the states of systemd's
 * parse_env_file_internal() (src/basic/env-file.c), one byte at a time. Keys and values are
 * built in two buffers the size of the text, so nothing is cut: the text itself is capped by
 * the caller's read.
 */
#include "formats/systemd-env-file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shared/utf8.h"

enum state {
	PRE_KEY,
	KEY,
	PRE_VALUE,
	VALUE,
	VALUE_ESCAPE,
	SINGLE_QUOTE,
	DOUBLE_QUOTE,
	DOUBLE_QUOTE_ESCAPE,
	COMMENT,
	COMMENT_ESCAPE,
};

struct parser {
	char *key, *value;
	size_t nk, nv;
	size_t key_blank, value_blank; /* where trailing blanks start, SIZE_MAX: none */
	uint64_t line, key_line;
	env_file_assign_fn assign;
	void *userdata;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_newline(char c)
{
	return c == '\n' || c == '\r';
}

/* The assignment just read, its trailing blanks cut as systemd cuts them; -EBADMSG when it is
 * not UTF-8. */
static int push(struct parser *p, bool chomp_value)
{
	if (p->key_blank != SIZE_MAX)
		p->nk = p->key_blank;
	if (chomp_value && p->value_blank != SIZE_MAX)
		p->nv = p->value_blank;
	p->key[p->nk] = '\0';
	p->value[p->nv] = '\0';
	if (!utf8_valid(p->key, p->nk) || !utf8_valid(p->value, p->nv))
		return -EBADMSG;
	p->assign(p->userdata, p->key, p->value, p->key_line);
	p->nk = p->nv = 0;
	return 0;
}

/* One value byte; blank tells whether it may be cut as trailing. */
static void value_put(struct parser *p, char c, bool blank)
{
	if (!blank)
		p->value_blank = SIZE_MAX;
	else if (p->value_blank == SIZE_MAX)
		p->value_blank = p->nv;
	p->value[p->nv++] = c;
}

int env_file_parse(const char *text, size_t len, env_file_assign_fn assign, void *userdata)
{
	struct parser p = { .line = 1,
			    .assign = assign,
			    .userdata = userdata,
			    .key_blank = SIZE_MAX,
			    .value_blank = SIZE_MAX };
	enum state st = PRE_KEY;
	int r = 0;

	len = strnlen(text, len);
	/* a key or value never outgrows the text: an escape that keeps its backslash in double
	 * quotes took two bytes of it */
	p.key = malloc(len + 1);
	p.value = malloc(len + 1);
	if (!p.key || !p.value) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < len && r == 0; i++) {
		const char c = text[i];

		switch (st) {
		case PRE_KEY:
			if (c == '#' || c == ';')
				st = COMMENT;
			else if (!is_blank(c)) {
				st = KEY;
				p.key_blank = SIZE_MAX;
				p.key_line = p.line;
				p.key[p.nk++] = c;
			}
			break;
		case KEY:
			if (is_newline(c)) {
				st = PRE_KEY;
				p.nk = 0;
			} else if (c == '=') {
				st = PRE_VALUE;
				p.value_blank = SIZE_MAX;
			} else {
				if (!is_blank(c))
					p.key_blank = SIZE_MAX;
				else if (p.key_blank == SIZE_MAX)
					p.key_blank = p.nk;
				p.key[p.nk++] = c;
			}
			break;
		case PRE_VALUE:
			if (is_newline(c)) {
				st = PRE_KEY;
				r = push(&p, false);
			} else if (c == '\'')
				st = SINGLE_QUOTE;
			else if (c == '"')
				st = DOUBLE_QUOTE;
			else if (c == '\\')
				st = VALUE_ESCAPE;
			else if (!is_blank(c)) {
				st = VALUE;
				p.value[p.nv++] = c;
			}
			break;
		case VALUE:
			if (is_newline(c)) {
				st = PRE_KEY;
				r = push(&p, true);
			} else if (c == '\\') {
				st = VALUE_ESCAPE;
				p.value_blank = SIZE_MAX;
			} else
				value_put(&p, c, is_blank(c));
			break;
		case VALUE_ESCAPE:
			st = VALUE;
			if (!is_newline(c))
				p.value[p.nv++] = c;
			break;
		case SINGLE_QUOTE:
			if (c == '\'')
				st = PRE_VALUE;
			else
				p.value[p.nv++] = c;
			break;
		case DOUBLE_QUOTE:
			if (c == '"')
				st = PRE_VALUE;
			else if (c == '\\')
				st = DOUBLE_QUOTE_ESCAPE;
			else
				p.value[p.nv++] = c;
			break;
		case DOUBLE_QUOTE_ESCAPE:
			st = DOUBLE_QUOTE;
			if (strchr("\"\\`$", c))
				p.value[p.nv++] = c;
			else if (c != '\n') {
				p.value[p.nv++] = '\\';
				p.value[p.nv++] = c;
			}
			break;
		case COMMENT:
			if (c == '\\')
				st = COMMENT_ESCAPE;
			else if (is_newline(c))
				st = PRE_KEY;
			break;
		case COMMENT_ESCAPE:
			/* since systemd 254 a comment's trailing backslash joins nothing */
			st = is_newline(c) ? PRE_KEY : COMMENT;
			break;
		}
		if (c == '\n')
			p.line++;
	}
	if (r == 0 && st != PRE_KEY && st != KEY && st != COMMENT && st != COMMENT_ESCAPE)
		r = push(&p, st == VALUE);
out:
	free(p.key);
	free(p.value);
	return r;
}
