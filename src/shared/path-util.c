// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Lexical path helpers (path-util.h, which states each one's rules). dirname follows the
 * POSIX dirname utility's steps (XBD, "dirname": strip trailing slashes, the last
 * component, then the slashes before it; an empty result is "." or "/").
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path-util.h"

char *path_dirname(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/') /* trailing slashes */
		n--;
	while (n > 0 && path[n - 1] != '/') /* the last component */
		n--;
	if (n == 0)
		return strdup(".");
	while (n > 1 && path[n - 1] == '/') /* the slashes before it */
		n--;
	return strndup(path, n);
}

const char *path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a);
	char *s;

	while (n > 0 && a[n - 1] == '/')
		n--;
	b += strspn(b, "/");
	if (asprintf(&s, "%.*s/%s", (int)n, a, b) < 0)
		return NULL;
	return s;
}

bool path_is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 0 && dir[n - 1] == '/')
		n--;
	/* dir "/" (n == 0 now): every absolute path but "/" itself */
	return strncmp(path, dir, n) == 0 && path[n] == '/' && path[n + strspn(path + n, "/")];
}

char *path_normalise(char *p)
{
	bool abs = p[0] == '/';
	char *w = p + abs; /* an absolute path keeps its first slash */
	const char *r = p;

	if (!*p)
		return p;
	for (;;) {
		size_t n;

		r += strspn(r, "/");
		n = strcspn(r, "/");
		if (n == 0)
			break;
		if (n != 1 || r[0] != '.') {
			if (w > p + abs)
				*w++ = '/';
			memmove(w, r, n); /* w never passes r */
			w += n;
		}
		r += n;
	}
	if (w == p) /* only "." components */
		*w++ = '.';
	*w = '\0';
	return p;
}

char *path_next_component(char **p, bool *ret_last)
{
	char *comp = *p, *slash;

	while (*comp == '/')
		comp++;
	if (!*comp)
		return NULL;
	slash = strchr(comp, '/');
	if (slash) {
		*slash = '\0';
		*p = slash + 1;
	} else {
		*p = comp + strlen(comp);
	}
	while (**p == '/')
		(*p)++;
	*ret_last = **p == '\0';
	return comp;
}
