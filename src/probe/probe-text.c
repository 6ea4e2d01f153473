// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Small text helpers shared by the probes' parsers (probe-text.h): a bounded copy of
 * (text, len), and group(5) lookups ("group_name:password:GID:user_list" lines, as
 * /etc/group holds them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe-text.h"
#include "shared/parse.h"

char *probe_text_dup(const char *text, size_t len)
{
	size_t n = text ? strnlen(text, len) : 0;
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	if (n)
		memcpy(s, text, n);
	s[n] = '\0';
	return s;
}

int probe_group_name(const char *group_text, unsigned gid, char *buf, size_t len)
{
	const char *p = group_text;

	if (!p || !buf || len == 0)
		return -EINVAL;
	while (*p) {
		const char *eol = strchrnul(p, '\n');
		const char *c1 = memchr(p, ':', (size_t)(eol - p));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(eol - c1 - 1)) : NULL;
		const char *c3 = c2 ? memchr(c2 + 1, ':', (size_t)(eol - c2 - 1)) : NULL;

		if (c3 && c1 > p && c3 - c2 - 1 > 0 && c3 - c2 - 1 < 16) {
			char num[16];
			unsigned g;

			memcpy(num, c2 + 1, (size_t)(c3 - c2 - 1));
			num[c3 - c2 - 1] = '\0';
			if (parse_uint(num, 10, &g) == 0 && g == gid) {
				if ((size_t)(c1 - p) >= len)
					return -ENAMETOOLONG;
				memcpy(buf, p, (size_t)(c1 - p));
				buf[c1 - p] = '\0';
				return 0;
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return -ENOENT;
}
