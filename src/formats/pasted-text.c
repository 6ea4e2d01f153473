// SPDX-License-Identifier: LGPL-2.1-or-later
/* The helpers every pasted-text reader uses: see pasted-text.h. */
#include "formats/pasted-text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int pasted_lines_init(struct pasted_lines *it, const char *text, size_t len)
{
	/* a stray NUL: the walk ends with the line it cuts (found once here, not per line) */
	const char *nul = text ? memchr(text, '\0', len) : NULL;

	*it = (struct pasted_lines){ .next = text, .end = nul ? nul : text ? text + len : NULL };
	return 0;
}

char *pasted_lines_next(struct pasted_lines *it)
{
	const char *s = it->next, *nl, *e;
	size_t n;

	if (!s || s >= it->end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(it->end - s));
	e = nl ? nl : it->end;
	it->next = nl ? nl + 1 : e;
	n = (size_t)(e - s);
	if (n && s[n - 1] == '\r')
		n--;
	if (n + 1 > it->cap) {
		size_t cap = it->cap ? it->cap : 256;
		char *b;

		while (cap < n + 1)
			cap *= 2;
		b = realloc(it->line, cap);
		if (!b) {
			it->next = it->end;
			return NULL;
		}
		it->line = b;
		it->cap = cap;
	}
	memcpy(it->line, s, n);
	it->line[n] = '\0';
	it->no++;
	return it->line;
}

bool pasted_lines_peek(const struct pasted_lines *it, const char **ret_p, size_t *ret_n)
{
	const char *s = it->next, *nl;
	size_t n;

	if (!s || s >= it->end)
		return false;
	nl = memchr(s, '\n', (size_t)(it->end - s));
	n = (size_t)((nl ? nl : it->end) - s);
	*ret_p = s;
	*ret_n = n;
	return true;
}

void pasted_lines_skip(struct pasted_lines *it, size_t n)
{
	it->next += n < (size_t)(it->end - it->next) ? n + 1 : n;
	it->no++;
}

void pasted_lines_done(struct pasted_lines *it)
{
	free(it->line);
	*it = (struct pasted_lines){ 0 };
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

char *pasted_strip(char *s)
{
	char *e;

	while (is_blank(*s))
		s++;
	e = s + strlen(s);
	while (e > s && is_blank(e[-1]))
		*--e = '\0';
	return s;
}

const char *pasted_after(const char *s, const char *prefix)
{
	size_t l = strlen(prefix);

	while (is_blank(*s))
		s++;
	return strncmp(s, prefix, l) == 0 ? s + l : NULL;
}

bool pasted_kv(char *line, char sep, char **ret_key, char **ret_value)
{
	char *p = strchr(line, sep), *k;

	if (!p)
		return false;
	*p = '\0';
	k = pasted_strip(line);
	if (!*k)
		return false;
	*ret_key = k;
	*ret_value = pasted_strip(p + 1);
	return true;
}

bool pasted_version_token(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	if (*s < '0' || *s > '9')
		return false;
	while ((s[n] >= '0' && s[n] <= '9') || s[n] == '.')
		n++;
	while (n && s[n - 1] == '.') /* "release 12.1," keeps no trailing dot */
		n--;
	if (n >= len)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

bool pasted_index(const char *s, unsigned *ret, const char **ret_end)
{
	unsigned v = 0, n = 0;

	while (s[n] >= '0' && s[n] <= '9') {
		if (n == 4)
			return false;
		v = v * 10 + (unsigned)(s[n] - '0');
		n++;
	}
	if (!n)
		return false;
	*ret = v;
	if (ret_end)
		*ret_end = s + n;
	return true;
}

bool pasted_token(const char *s, char *buf, size_t len)
{
	size_t n;

	while (is_blank(*s))
		s++;
	n = strcspn(s, " \t");
	if (!n || n >= len)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

/* snprintf(buf, size, "%s", v) without the cost of a format: these run on every value read */
static void copy_cut(char *buf, size_t size, const char *v)
{
	size_t n = strnlen(v, size - 1);

	memcpy(buf, v, n);
	buf[n] = '\0';
}

bool pasted_no_value(const char *v)
{
	static const char *const none[] = { "N/A",
					    "[N/A]",
					    "Not Supported",
					    "[Not Supported]",
					    "Unknown Error",
					    "[Unknown Error]",
					    "Could not collect",
					    "Not available",
					    "[Not Found]",
					    "Not Found",
					    NULL };
	char buf[32];

	while (is_blank(*v))
		v++;
	if (!*v)
		return true;
	/* every word above starts with '[', 'N', 'U' or 'C' (0x20 set: either case): most
	 * values are none of them, and are told so without a copy and ten comparisons */
	if (*v != '[' && (*v | 0x20) != 'n' && (*v | 0x20) != 'u' && (*v | 0x20) != 'c')
		return false;
	copy_cut(buf, sizeof(buf), v);
	pasted_strip(buf);
	for (size_t i = 0; none[i]; i++)
		if (strcasecmp(buf, none[i]) == 0)
			return true;
	return false;
}

const char *pasted_bool_word(const char *v)
{
	static const char *const yes[] = { "Enabled", "On", "Yes", "True", NULL };
	static const char *const no[] = { "Disabled", "Off", "No", "False", NULL };
	char buf[16];

	copy_cut(buf, sizeof(buf), v);
	pasted_strip(buf);
	for (size_t i = 0; yes[i]; i++)
		if (strcasecmp(buf, yes[i]) == 0)
			return "true";
	for (size_t i = 0; no[i]; i++)
		if (strcasecmp(buf, no[i]) == 0)
			return "false";
	return NULL;
}

bool pasted_number_unit(const char *v, const char *unit, char *buf, size_t len)
{
	size_t n = 0;
	const char *p;

	while (is_blank(*v))
		v++;
	while (v[n] >= '0' && v[n] <= '9')
		n++;
	if (!n || n >= len)
		return false;
	p = v + n;
	while (is_blank(*p))
		p++;
	if (unit && strncmp(p, unit, strlen(unit)) == 0)
		p += strlen(unit);
	while (is_blank(*p))
		p++;
	if (*p)
		return false;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return true;
}

/* absent: value says how the text shows there is none (pasted_facts_add_absent()) */
static void add(struct pasted_out *o, unsigned line, const char *path, const char *value,
		bool absent)
{
	int r = absent ? pasted_facts_add_absent(o->f, o->reader, path, value, line)
		       : pasted_facts_add(o->f, o->reader, path, value, line);

	if (r < 0 && !o->err)
		o->err = r;
	else if (r == 0)
		o->n++;
}

void pasted_cut_utf8(const char *s, size_t n, char *buf, size_t len)
{
	if (!len)
		return;
	if (n >= len) {
		n = len - 1;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
}

void pasted_keep_first_line(struct pasted_first_line *f, unsigned line, const char *text)
{
	if (f->line)
		return;
	f->line = line;
	pasted_cut_utf8(text, strlen(text), f->text, sizeof(f->text));
}

void pasted_put(struct pasted_out *o, unsigned line, const char *value, const char *path_fmt, ...)
{
	char path[256], *v;
	va_list ap;
	int r;

	if (!value)
		return;
	va_start(ap, path_fmt);
	r = vsnprintf(path, sizeof(path), path_fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= sizeof(path))
		return;
	v = strdup(value);
	if (!v) {
		if (!o->err)
			o->err = -ENOMEM;
		return;
	}
	if (*pasted_strip(v))
		add(o, line, path, pasted_strip(v), false);
	free(v);
}

/* A value whose path is printf(path_fmt, ap): a path too long for the buffer is dropped. */
static void vput(struct pasted_out *o, unsigned line, const char *value, bool absent,
		 const char *path_fmt, va_list ap)
{
	char path[256];
	int r = vsnprintf(path, sizeof(path), path_fmt, ap);

	if (r > 0 && (size_t)r < sizeof(path))
		add(o, line, path, value, absent);
}

void pasted_put_empty(struct pasted_out *o, unsigned line, const char *path_fmt, ...)
{
	va_list ap;

	va_start(ap, path_fmt);
	vput(o, line, "", false, path_fmt, ap);
	va_end(ap);
}

void pasted_put_absent(struct pasted_out *o, unsigned line, const char *why, const char *path_fmt,
		       ...)
{
	va_list ap;

	va_start(ap, path_fmt);
	vput(o, line, why, true, path_fmt, ap);
	va_end(ap);
}

int pasted_out_result(const struct pasted_out *o)
{
	return o->err < 0 ? o->err : o->n;
}

int pasted_py_list(const char *s, char (*items)[PASTED_ITEM_MAX], size_t max, const char **ret_end)
{
	size_t n = 0;

	if (*s++ != '[')
		return -1;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (*s == ']')
			break;
		char q = *s;
		const char *e;

		if ((q != '\'' && q != '"') || n >= max || !(e = strchr(s + 1, q)) ||
		    (size_t)(e - s - 1) >= PASTED_ITEM_MAX ||
		    memchr(s + 1, '\n', (size_t)(e - s - 1)))
			return -1;
		memcpy(items[n], s + 1, (size_t)(e - s - 1));
		items[n][e - s - 1] = '\0';
		n++;
		s = e + 1;
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (*s == ',')
			s++;
		else if (*s != ']')
			return -1;
	}
	if (ret_end)
		*ret_end = s + 1;
	return (int)n;
}
