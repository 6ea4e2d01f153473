// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The container runtime endpoint in kubelet's flag files, its config.yaml and crictl.yaml
 * (formats: kube-endpoint.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/kube-endpoint.h"

#define FLAG "--container-runtime-endpoint"

static int put(char *buf, size_t size, const char *v, size_t n)
{
	if (n == 0)
		return 0;
	if (n >= size)
		return -E2BIG;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return 1;
}

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* One line of a flag file: the last value of the flag on it (1), none (0), an error. */
static int flag_line(const char *s, size_t n, char *buf, size_t size)
{
	static const size_t k = sizeof(FLAG) - 1;
	int found = 0, r;

	for (size_t i = 0; i + k <= n; i++) {
		size_t v, e;

		if (memcmp(s + i, FLAG, k) != 0 || (i > 0 && !blank(s[i - 1]) && s[i - 1] != '"' &&
						    s[i - 1] != '\'' && s[i - 1] != '='))
			continue;
		v = i + k;
		if (v < n && s[v] == '=')
			v++;
		else if (v < n && blank(s[v]))
			while (v < n && blank(s[v]))
				v++;
		else
			continue; /* another flag's name begins so */
		if (v < n && (s[v] == '\'' || s[v] == '"')) {
			const char *q = memchr(s + v + 1, s[v], n - v - 1);

			if (!q)
				return -EINVAL;
			e = (size_t)(q - s);
			v++;
		} else {
			for (e = v; e < n && !blank(s[e]) && s[e] != '"' && s[e] != '\''; e++)
				;
		}
		if ((r = put(buf, size, s + v, e - v)) < 0)
			return r;
		found |= r;
		i = e;
	}
	return found;
}

int kube_flag_endpoint(const char *text, size_t len, char *buf, size_t size)
{
	const char *end, *nul = memchr(text, '\0', len);
	int found = 0, r;

	if (nul)
		len = (size_t)(nul - text);
	for (const char *s = text; s < text + len; s = end + 1) {
		const char *p = s;

		end = memchr(s, '\n', (size_t)(text + len - s));
		if (!end)
			end = text + len;
		while (p < end && blank(*p))
			p++;
		if (p < end && *p == '#')
			continue;
		if ((r = flag_line(p, (size_t)(end - p), buf, size)) < 0)
			return r;
		found |= r;
	}
	return found;
}

int kube_yaml_endpoint(const char *text, size_t len, const char *key, char *buf, size_t size)
{
	const char *end, *nul = memchr(text, '\0', len);
	size_t k = strlen(key);

	if (nul)
		len = (size_t)(nul - text);
	for (const char *s = text; s < text + len; s = end + 1) {
		const char *v, *e;

		end = memchr(s, '\n', (size_t)(text + len - s));
		if (!end)
			end = text + len;
		if ((size_t)(end - s) <= k || memcmp(s, key, k) != 0)
			continue;
		for (v = s + k; v < end && blank(*v); v++)
			;
		if (v == end || *v != ':')
			continue;
		for (v++; v < end && blank(*v); v++)
			;
		if (v < end && (*v == '"' || *v == '\'')) {
			const char *q = memchr(v + 1, *v, (size_t)(end - v - 1));

			if (!q)
				return -EINVAL;
			return put(buf, size, v + 1, (size_t)(q - v - 1));
		}
		/* a plain scalar: up to a comment (" #") or the line's end, blanks trimmed */
		for (e = v; e < end && *e != '\r' && !(*e == '#' && e > v && blank(e[-1])); e++)
			;
		while (e > v && blank(e[-1]))
			e--;
		return put(buf, size, v, (size_t)(e - v));
	}
	return 0;
}
