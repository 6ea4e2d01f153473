// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Environment= of a systemd service from its unit file and drop-ins (see
 * systemd-unit-env.h). The word splitting follows systemd's extract_first_word() with
 * EXTRACT_UNQUOTE | EXTRACT_CUNESCAPE and its cunescape_one() (src/basic/extract-word.c,
 * src/basic/escape.c), as config_parse_environ() calls them; the line handling follows
 * config_parse() (src/shared/conf-parser.c).
 */
#include "formats/systemd-unit-env.h"

#include <errno.h>
#include <string.h>

#include "shared/parse.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A growing word, cut at UNIT_ENV_NAME_MAX + UNIT_ENV_VALUE_MAX bytes (the rest only counted). */
struct word {
	char s[UNIT_ENV_NAME_MAX + UNIT_ENV_VALUE_MAX];
	size_t n;
	bool cut;
};

static void word_put(struct word *w, char c)
{
	if (w->n + 1 < sizeof(w->s))
		w->s[w->n++] = c;
	else
		w->cut = true;
}

/* Code point cp as UTF-8. */
static void word_put_utf8(struct word *w, unsigned long cp)
{
	if (cp < 0x80)
		word_put(w, (char)cp);
	else if (cp < 0x800) {
		word_put(w, (char)(0xc0 | (cp >> 6)));
		word_put(w, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		word_put(w, (char)(0xe0 | (cp >> 12)));
		word_put(w, (char)(0x80 | ((cp >> 6) & 0x3f)));
		word_put(w, (char)(0x80 | (cp & 0x3f)));
	} else {
		word_put(w, (char)(0xf0 | (cp >> 18)));
		word_put(w, (char)(0x80 | ((cp >> 12) & 0x3f)));
		word_put(w, (char)(0x80 | ((cp >> 6) & 0x3f)));
		word_put(w, (char)(0x80 | (cp & 0x3f)));
	}
}

/* The C escape at p (after the backslash, before end) into w: the bytes it takes, or 0 when
 * it is none systemd knows (a syntax error). */
static size_t unescape_one(const char *p, const char *end, struct word *w)
{
	static const char simple[] = "abfnrtv\\\"'s", value[] = "\a\b\f\n\r\t\v\\\"' ";
	const char *k = strchr(simple, *p);
	unsigned long cp = 0;
	size_t digits;

	if (*p && k) {
		word_put(w, value[k - simple]);
		return 1;
	}
	if (*p == 'x' || *p == 'u' || *p == 'U') {
		digits = *p == 'x' ? 2 : *p == 'u' ? 4 : 8;
		if ((size_t)(end - p) <= digits)
			return 0;
		for (size_t i = 1; i <= digits; i++) {
			int d = parse_hex_digit((unsigned char)p[i]);

			if (d < 0)
				return 0;
			cp = cp << 4 | (unsigned long)d;
		}
		if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		if (*p == 'x')
			word_put(w, (char)cp);
		else
			word_put_utf8(w, cp);
		return digits + 1;
	}
	if (*p >= '0' && *p <= '3') {
		if (end - p < 3)
			return 0;
		for (size_t i = 0; i < 3; i++) {
			if (p[i] < '0' || p[i] > '7')
				return 0;
			cp = cp << 3 | (unsigned long)(p[i] - '0');
		}
		if (cp == 0)
			return 0;
		word_put(w, (char)cp);
		return 3;
	}
	return 0;
}

/* The next word of [*p, end) into w: 1, 0 at the end, -1 on a syntax error. */
static int next_word(const char **p, const char *end, struct word *w)
{
	const char *s = *p;
	char quote = 0;

	w->n = 0;
	w->cut = false;
	while (s < end && is_blank(*s))
		s++;
	if (s == end) {
		*p = s;
		return 0;
	}
	for (; s < end; s++) {
		size_t used;

		if (!quote && is_blank(*s))
			break;
		if (*s == '\\') {
			if (s + 1 == end || !(used = unescape_one(s + 1, end, w)))
				return -1;
			s += used;
		} else if (quote && *s == quote)
			quote = 0;
		else if (!quote && (*s == '"' || *s == '\''))
			quote = *s;
		else
			word_put(w, *s);
	}
	if (quote)
		return -1;
	w->s[w->n] = '\0';
	*p = s;
	return 1;
}

/* env_name_is_valid(): letters, digits and '_', not starting with a digit. */
static bool name_ok(const char *s, size_t n)
{
	if (!n || n >= UNIT_ENV_NAME_MAX || (*s >= '0' && *s <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* env_value_is_valid(): no control characters but tab and newline. */
static bool value_ok(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n') || *s == 0x7f)
			return false;
	return true;
}

/* name (n bytes) = val; cut: the value was longer than read; specifiers: "%%" stands for "%"
 * and another "%" expands at load time (a unit file's, not an EnvironmentFile='s). */
static void set_var(struct unit_env *e, const char *name, size_t n, const char *val, bool cut,
		    bool specifiers, unsigned file, uint64_t line)
{
	struct unit_env_var *v = NULL;
	size_t k = 0;

	for (size_t i = 0; i < e->n && !v; i++)
		if (strlen(e->v[i].name) == n && strncmp(e->v[i].name, name, n) == 0)
			v = &e->v[i];
	if (!v) {
		if (e->n >= UNIT_ENV_MAX) {
			e->dropped++;
			return;
		}
		v = &e->v[e->n++];
		memcpy(v->name, name, n);
		v->name[n] = '\0';
	}
	v->truncated = cut;
	v->expands = false;
	v->file = file;
	v->line = line;
	for (; *val; val++) {
		if (specifiers && *val == '%') {
			if (val[1] == '%')
				val++;
			else
				v->expands = true;
		}
		if (k + 1 < sizeof(v->value))
			v->value[k++] = *val;
		else
			v->truncated = true;
	}
	v->value[k] = '\0';
}

void unit_env_assign(struct unit_env *e, const char *name, const char *value, unsigned file,
		     uint64_t line)
{
	if (name_ok(name, strlen(name)) && value_ok(value))
		set_var(e, name, strlen(name), value, false, false, file, line);
}

static void bad_line(struct unit_env *e, unsigned file, uint64_t line)
{
	e->bad_lines++;
	e->bad_file = file;
	e->bad_line = line;
}

/* The value of one Environment= line. */
static void environment(struct unit_env *e, const char *s, const char *end, unsigned file,
			uint64_t line)
{
	struct word w;
	int r;

	if (s == end) {
		memset(e->v, 0, sizeof(e->v));
		e->n = 0;
		return;
	}
	while ((r = next_word(&s, end, &w)) > 0) {
		const char *eq = memchr(w.s, '=', w.n);

		if (eq && name_ok(w.s, (size_t)(eq - w.s)) && value_ok(eq + 1))
			set_var(e, w.s, (size_t)(eq - w.s), eq + 1, w.cut, true, file, line);
	}
	if (r < 0)
		bad_line(e, file, line);
}

/* The value of one EnvironmentFile= line: a path, not unquoted (config_parse_unit_env_file()). */
static void environment_file(struct unit_env *e, const char *s, const char *end, unsigned file,
			     uint64_t line)
{
	struct unit_env_file *f;
	const bool optional = s < end && *s == '-';
	size_t k = 0;

	if (s == end) {
		memset(e->files, 0, sizeof(e->files));
		e->env_files = 0;
		return;
	}
	if (optional)
		s++;
	/* "not absolute, ignoring", judged after specifiers expand: "%h/…" may be */
	if (s == end || !(*s == '/' || (*s == '%' && s + 1 < end && s[1] != '%')))
		return;
	if (e->env_files++ >= UNIT_ENV_FILES_MAX)
		return;
	f = &e->files[e->env_files - 1];
	*f = (struct unit_env_file){ .optional = optional, .file = file, .line = line };
	for (; s < end; s++) {
		if (*s == '%') {
			if (s + 1 < end && s[1] == '%')
				s++;
			else
				f->unknown = true;
		}
		if (k + 1 < sizeof(f->path))
			f->path[k++] = *s;
		else
			f->unknown = true;
	}
	f->path[k] = '\0';
}

/* The value of one ExecStart= line (config_parse_exec(): an empty one resets the list). */
static void exec_start(struct unit_env *e, const char *s, const char *end, unsigned file,
		       uint64_t line)
{
	const size_t n = (size_t)(end - s);

	if (s == end) {
		e->execs = 0;
		e->exec[0] = '\0';
		return;
	}
	e->execs++;
	/* a joined line is at most UNIT_LINE_MAX bytes: it fits */
	memcpy(e->exec, s, n < sizeof(e->exec) ? n : sizeof(e->exec) - 1);
	e->exec[n < sizeof(e->exec) ? n : sizeof(e->exec) - 1] = '\0';
	e->exec_file = file;
	e->exec_line = line;
}

static const char *strip(const char *s, const char **end)
{
	while (s < *end && is_blank(*s))
		s++;
	while (*end > s && is_blank((*end)[-1]))
		(*end)--;
	return s;
}

static bool key_is(const char *k, const char *kend, const char *name)
{
	return (size_t)(kend - k) == strlen(name) && strncmp(k, name, (size_t)(kend - k)) == 0;
}

/* One joined line; *service says whether the current section is [Service]. */
static void one_line(struct unit_env *e, const char *s, const char *end, bool *service,
		     unsigned file, uint64_t line)
{
	const char *eq, *kend;

	s = strip(s, &end);
	if (s == end || *s == '#' || *s == ';')
		return;
	if (*s == '[') {
		*service = end[-1] == ']' && key_is(s + 1, end - 1, "Service");
		return;
	}
	if (!*service || !(eq = memchr(s, '=', (size_t)(end - s))))
		return;
	kend = eq;
	strip(s, &kend);
	eq = strip(eq + 1, &end);
	if (key_is(s, kend, "Environment"))
		environment(e, eq, end, file, line);
	else if (key_is(s, kend, "EnvironmentFile"))
		environment_file(e, eq, end, file, line);
	else if (key_is(s, kend, "ExecStart"))
		exec_start(e, eq, end, file, line);
}

/* An odd number of backslashes ends [s, end): the line goes on. */
static bool continues(const char *s, const char *end)
{
	size_t n = 0;

	while (end > s && end[-1] == '\\') {
		n++;
		end--;
	}
	return n % 2 == 1;
}

void unit_env_parse(const char *text, size_t len, unsigned file, struct unit_env *ret)
{
	char buf[UNIT_LINE_MAX];
	const char *p = text, *end = text + strnlen(text, len);
	size_t n = 0;
	uint64_t no = 0, start = 0;
	bool service = false, joining = false, overlong = false;

	while (p < end) {
		const char *eol = p, *s;

		while (eol < end && *eol != '\n' && *eol != '\r')
			eol++;
		no++;
		s = p;
		p = eol;
		if (p < end && *p == '\r' && p + 1 < end && p[1] == '\n')
			p++;
		if (p < end)
			p++;
		if (joining) {
			const char *t = s;

			while (t < eol && is_blank(*t))
				t++;
			if (t < eol && (*t == '#' || *t == ';'))
				continue;
		} else {
			n = 0;
			start = no;
			overlong = false;
		}
		joining = continues(s, eol);
		if (joining)
			eol--;
		if ((size_t)(eol - s) + (joining ? 1 : 0) > sizeof(buf) - n)
			overlong = true;
		else {
			memcpy(buf + n, s, (size_t)(eol - s));
			n += (size_t)(eol - s);
			if (joining)
				buf[n++] = ' ';
		}
		if (joining)
			continue;
		if (overlong) {
			/* a line this long is no setting of a GPU variable; say it was not read */
			if (service)
				bad_line(ret, file, start);
			continue;
		}
		one_line(ret, buf, buf + n, &service, file, start);
	}
	if (joining && !overlong)
		one_line(ret, buf, buf + n, &service, file, start);
	else if (joining && service)
		bad_line(ret, file, start);
}

const struct unit_env_var *unit_env_get(const struct unit_env *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++)
		if (strcmp(e->v[i].name, name) == 0)
			return &e->v[i];
	return NULL;
}

static bool name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Appends [s, s + n) to buf at *k; false when it does not fit. */
static bool append(char *buf, size_t size, size_t *k, const char *s, size_t n)
{
	if (n >= size - *k) {
		memcpy(buf + *k, s, size - *k - 1);
		*k = size - 1;
		return false;
	}
	memcpy(buf + *k, s, n);
	*k += n;
	return true;
}

int unit_env_expand(const struct unit_env *e, const char *cmd, char *buf, size_t size,
		    void (*used)(void *userdata, const struct unit_env_var *v, size_t at,
				 size_t end),
		    void *userdata)
{
	size_t k = 0;
	bool ok = true;

	if (!size)
		return -E2BIG;
	for (const char *p = cmd; *p && ok;) {
		const char *name = NULL, *after = NULL;
		size_t n = 0;

		if (p[0] == '$' && p[1] == '$') {
			ok = append(buf, size, &k, "$", 1);
			p += 2;
			continue;
		}
		if (p[0] == '$' && p[1] == '{') {
			const char *close = strchr(p + 2, '}');

			if (close) {
				name = p + 2;
				n = (size_t)(close - name);
				after = close + 1;
			}
		} else if (p[0] == '$' && (p == cmd || is_blank(p[-1]))) {
			/* "$NAME" as a word of its own */
			for (n = 0; name_char(p[1 + n]); n++)
				;
			if (n && (!p[1 + n] || is_blank(p[1 + n]))) {
				name = p + 1;
				after = p + 1 + n;
			}
		}
		if (!name) {
			ok = append(buf, size, &k, p, 1);
			p++;
			continue;
		}
		for (size_t i = 0; i < e->n; i++) {
			const struct unit_env_var *v = &e->v[i];
			const size_t at = k;

			if (strlen(v->name) != n || strncmp(v->name, name, n) != 0)
				continue;
			ok = append(buf, size, &k, v->value, strlen(v->value));
			if (used)
				used(userdata, v, at, k);
			break;
		}
		p = after;
	}
	buf[k] = '\0';
	return ok ? 0 : -E2BIG;
}
