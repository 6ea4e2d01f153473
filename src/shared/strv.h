/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NULL-terminated string vectors (systemd strv) and line/field splitting helpers used
 * by the text-file parsers: "KEY=value" lines, PATH-style lists.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

char **strv_free(char **l);
size_t strv_length(char *const *l);
int strv_push(char ***l, const char *s); /* copies s */
int strv_consume(char ***l, char *s);	 /* takes s */
bool strv_contains(char *const *l, const char *s);
/* Splits s at any of sep, dropping empty fields ("a::b" → a, b). */
int strv_split(const char *s, const char *sep, char ***ret);
void strv_sort(char **l);
/* Is s among the n names of l, sorted as strv_sort() sorts (binary search)? */
bool strv_sorted_contains(const char *const *l, size_t n, const char *s);

static inline void strv_freep(char ***l)
{
	strv_free(*l);
}
#define _cleanup_strv_free_ __attribute__((cleanup(strv_freep)))

#define STRV_FOREACH(s, l) for (char **s = (l); s && *s; s++)
/* Over a borrowed vector (root_list_dir_borrow()). */
#define STRV_FOREACH_CONST(s, l) for (const char *const *s = (l); s && *s; s++)

/* Trims ASCII whitespace at both ends in place; returns s. */
char *strstrip(char *s);
/* Splits "KEY=VALUE" / "KEY: VALUE" at the first sep; trims both; NULL if no sep. */
char *kv_split(char *line, char sep);
/* Splits a buffer into lines in place: returns the next line or NULL; *state carries on. */
char *line_next(char **state);
/* line_next() over the lines that have sep, split by kv_split(): false at the end of the
 * buffer; *ret_key (not trimmed) and *ret_value (trimmed) point into it. */
bool kv_next(char **state, char sep, char **ret_key, char **ret_value);
