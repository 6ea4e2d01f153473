// SPDX-License-Identifier: LGPL-2.1-or-later
/* String vectors and line splitting; see strv.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strv.h"

char **strv_free(char **l)
{
	if (!l)
		return NULL;
	for (char **p = l; *p; p++)
		free(*p);
	free(l);
	return NULL;
}

size_t strv_length(char *const *l)
{
	size_t n = 0;

	while (l && l[n])
		n++;
	return n;
}

int strv_consume(char ***l, char *s)
{
	size_t n = strv_length(*l);
	char **p;

	if (!s)
		return -ENOMEM;
	p = realloc(*l, (n + 2) * sizeof(char *));
	if (!p) {
		free(s);
		return -ENOMEM;
	}
	p[n] = s;
	p[n + 1] = NULL;
	*l = p;
	return 0;
}

int strv_push(char ***l, const char *s)
{
	return strv_consume(l, strdup(s));
}

bool strv_contains(char *const *l, const char *s)
{
	for (size_t i = 0; l && l[i]; i++)
		if (strcmp(l[i], s) == 0)
			return true;
	return false;
}

int strv_split(const char *s, const char *sep, char ***ret)
{
	char **l = NULL;
	const char *p = s;

	l = calloc(1, sizeof(char *));
	if (!l)
		return -ENOMEM;
	while (p && *p) {
		size_t n = strcspn(p, sep);

		if (n > 0) {
			char *f = strndup(p, n);
			int r = strv_consume(&l, f);

			if (r < 0) {
				strv_free(l);
				return r;
			}
		}
		p += n;
		if (*p)
			p++;
	}
	*ret = l;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort(char **l)
{
	if (l) /* qsort(NULL, 0, …) is undefined: its pointer is declared nonnull */
		qsort(l, strv_length(l), sizeof(char *), cmp_str);
}

bool strv_sorted_contains(const char *const *l, size_t n, const char *s)
{
	return n > 0 && bsearch(&s, l, n, sizeof(*l), cmp_str) != NULL;
}

char *strstrip(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

char *kv_split(char *line, char sep)
{
	char *p = strchr(line, sep);

	if (!p)
		return NULL;
	*p = '\0';
	return strstrip(p + 1);
}

bool kv_next(char **state, char sep, char **ret_key, char **ret_value)
{
	char *line, *v;

	while ((line = line_next(state)))
		if ((v = kv_split(line, sep))) {
			*ret_key = line;
			*ret_value = v;
			return true;
		}
	return false;
}

char *line_next(char **state)
{
	char *s = *state, *nl;

	if (!s || !*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		*state = nl + 1;
	} else {
		*state = s + strlen(s);
	}
	return s;
}
