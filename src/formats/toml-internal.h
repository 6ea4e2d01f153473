/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the two files of the TOML reader (not for other code): toml-lex.c reads the
 * tokens (whitespace, comments, strings, keys, numbers, dates and times), toml-min.c the
 * document (values, tables, arrays of tables, the duplicate checks). The grammar:
 * TOML 1.0.0, https://toml.io/en/v1.0.0.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

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

/* Records where and why the input is refused; evaluates to -EBADMSG. */
#define FAIL(ps, reason)                                                                           \
	({                                                                                         \
		(ps)->err->line = (ps)->line;                                                      \
		(ps)->err->why = (reason);                                                         \
		-EBADMSG;                                                                          \
	})

static inline bool at_eof(const struct parser *ps)
{
	return ps->p >= ps->end;
}

static inline char peek(const struct parser *ps, size_t off)
{
	return ps->p + off < ps->end ? ps->p[off] : '\0';
}

static inline int is_dec(int c)
{
	return c >= '0' && c <= '9';
}

/* Where a value token must end: whitespace, ',', ']', '}', '#', newline, end of input. */
static inline bool at_value_end(const struct parser *ps, const char *q)
{
	return q >= ps->end || strchr(" \t,]}#\r\n", *q);
}

/* toml-lex.c: each returns 0, or FAIL() with ps->err set, or -ENOMEM. */
void toml_skip_ws(struct parser *ps);
/* Whitespace, a comment, then the end of the line or of the input. */
int toml_expect_eol(struct parser *ps);
/* Whitespace, newlines and comments (inside arrays). */
int toml_skip_ws_nl(struct parser *ps);
/* A string starting at its opening quote; *ret the decoded text. */
int toml_parse_string(struct parser *ps, bool allow_multi, char **ret);
/* key = simple-key *( ws "." ws simple-key ): *ret its segments. */
int toml_parse_key(struct parser *ps, char ***ret);
/* An integer, float, inf/nan, or date/time at ps->p. */
int toml_parse_number(struct parser *ps, struct toml_value *v);
