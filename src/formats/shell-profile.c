// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Assignments of a shell startup file or /etc/environment (shell-profile.h).
 */
#include <string.h>

#include "formats/shell-profile.h"

static bool is_name_char(char c, bool first)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (!first && c >= '0' && c <= '9');
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* p at "word" followed by a blank: the position after the blanks, else NULL. */
static const char *skip_word(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(end - p) <= n || memcmp(p, word, n) != 0 || (p[n] != ' ' && p[n] != '\t'))
		return NULL;
	return skip_blanks(p + n, end);
}

static void put(struct shell_assign *a, size_t *len, char c)
{
	if (*len + 1 < sizeof(a->value))
		a->value[(*len)++] = c;
	else
		a->truncated = true;
}

/* The value from p to the end of the word (a blank, ';', '&', '|' or the line's end outside
 * quotes), unquoted into a->value. */
static void read_value(const char *p, const char *end, struct shell_assign *a)
{
	size_t len = 0;
	char quote = 0;

	for (; p < end; p++) {
		char c = *p;

		if (quote == '\'') {
			if (c == '\'')
				quote = 0;
			else
				put(a, &len, c);
		} else if (quote == '"') {
			if (c == '"')
				quote = 0;
			else if (c == '\\' && p + 1 < end && strchr("\"\\$`", p[1]))
				put(a, &len, *++p);
			else {
				a->expands |= c == '$' || c == '`';
				put(a, &len, c);
			}
		} else if (c == '\'' || c == '"') {
			quote = c;
		} else if (c == ' ' || c == '\t' || c == ';' || c == '&' || c == '|') {
			break;
		} else if (c == '\\' && p + 1 < end) {
			put(a, &len, *++p);
		} else {
			a->expands |= c == '$' || c == '`';
			put(a, &len, c);
		}
	}
	a->value[len] = '\0';
}

static int wanted(const char *name, size_t n, const char *const *names)
{
	for (int i = 0; names && names[i]; i++)
		if (strlen(names[i]) == n && memcmp(names[i], name, n) == 0)
			return i;
	return -1;
}

static void one_line(const char *p, const char *end, uint64_t line, const char *const *names,
		     bool all_exported, struct shell_assigns *ret)
{
	struct shell_assign a = { .line = line, .exported = all_exported };
	const char *name, *q;
	size_t i;

	p = skip_blanks(p, end);
	if ((q = skip_word(p, end, "export"))) {
		p = q;
		a.exported = true;
	} else if ((q = skip_word(p, end, "declare")) && (q = skip_word(q, end, "-x"))) {
		p = q;
		a.exported = true;
	}
	name = p;
	while (p < end && is_name_char(*p, p == name))
		p++;
	if (p == name || p >= end || *p != '=' || (size_t)(p - name) >= sizeof(a.name) ||
	    wanted(name, (size_t)(p - name), names) < 0)
		return;
	memcpy(a.name, name, (size_t)(p - name));
	read_value(p + 1, end, &a);
	for (i = 0; i < ret->n; i++)
		if (strcmp(ret->a[i].name, a.name) == 0)
			break;
	if (i == ret->n) {
		if (ret->n == SHELL_ASSIGN_MAX)
			return;
		ret->n++;
	}
	ret->a[i] = a;
}

void shell_profile_parse(const char *text, size_t len, const char *const *names, bool all_exported,
			 struct shell_assigns *ret)
{
	const char *end, *p = text;
	uint64_t line = 0;

	memset(ret, 0, sizeof(*ret));
	if (!text)
		return;
	end = memchr(text, '\0', len);
	end = end ? end : text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		line++;
		one_line(p, eol, line, names, all_exported, ret);
		p = nl ? nl + 1 : end;
	}
}
