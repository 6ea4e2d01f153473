// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Parsers for what pip installs next to a package (PyPA specifications "Core metadata",
 * "Recording installed projects", "Binary distribution format"; distutils PKG-INFO is the
 * same header format). Headers are matched case-insensitively, as the email parser pip
 * uses does. Every read is bounded by len, every count capped.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dist-metadata.h"
#include "shared/macro.h"
#include "shared/strv.h"

struct dist_metadata *dist_metadata_free(struct dist_metadata *m)
{
	if (!m)
		return NULL;
	free(m->metadata_version);
	free(m->name);
	free(m->version);
	strv_free(m->requires_dist);
	free(m);
	return NULL;
}

/* Trims blanks at both ends of [s, s+n) into a new string; NULL on OOM. */
static char *dup_trim(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	return strndup(s, n);
}

static int set_once(char **slot, const char *v, size_t n)
{
	char *s;

	if (*slot)
		return 0; /* the first one wins (single-use fields) */
	s = dup_trim(v, n);
	if (!s)
		return -ENOMEM;
	*slot = s;
	return 0;
}

int dist_metadata_parse(const char *p, size_t len, struct dist_metadata **ret)
{
	_cleanup_(dist_metadata_freep) struct dist_metadata *m = calloc(1, sizeof(*m));
	size_t pos = 0, headers = 0;
	char **last = NULL; /* the field a continuation line extends, if we keep it */
	int r;

	if (!m)
		return -ENOMEM;
	if (memchr(p, '\0', len))
		return -EBADMSG;
	while (pos < len) {
		const char *line = p + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos, klen;
		const char *colon;

		pos += n + 1;
		if (n && line[n - 1] == '\r')
			n--;
		if (n == 0)
			break; /* the body starts */
		if (line[0] == ' ' || line[0] == '\t') {
			/* Folded continuation of the previous header. */
			if (headers == 0)
				return -EBADMSG;
			if (last && *last) {
				_cleanup_free_ char *add = dup_trim(line, n), *joined = NULL;

				if (!add)
					return -ENOMEM;
				if (strlen(*last) + strlen(add) + 2 > DIST_MAX_VALUE)
					return -EBADMSG;
				if (asprintf(&joined, "%s %s", *last, add) < 0)
					return -ENOMEM;
				free(*last);
				*last = TAKE_PTR(joined);
			}
			continue;
		}
		colon = memchr(line, ':', n);
		if (!colon || colon == line || ++headers > DIST_MAX_HEADERS)
			return -EBADMSG;
		klen = (size_t)(colon - line);
		const char *v = colon + 1;
		size_t vn = n - klen - 1;

		if (vn > DIST_MAX_VALUE)
			return -EBADMSG;
		last = NULL;
		if (klen == 4 && strncasecmp(line, "Name", 4) == 0) {
			r = set_once(&m->name, v, vn);
			last = &m->name;
		} else if (klen == 7 && strncasecmp(line, "Version", 7) == 0) {
			r = set_once(&m->version, v, vn);
			last = &m->version;
		} else if (klen == 16 && strncasecmp(line, "Metadata-Version", 16) == 0) {
			r = set_once(&m->metadata_version, v, vn);
		} else if (klen == 13 && strncasecmp(line, "Requires-Dist", 13) == 0) {
			_cleanup_free_ char *s = dup_trim(v, vn);

			if (!s)
				return -ENOMEM;
			if (m->n_requires >= DIST_MAX_REQUIRES)
				return -EBADMSG;
			r = strv_consume(&m->requires_dist, TAKE_PTR(s));
			if (r >= 0) {
				m->n_requires++;
				last = &m->requires_dist[m->n_requires - 1];
			}
		} else
			r = 0;
		if (r < 0)
			return r;
	}
	if (!m->name || !*m->name || !m->version || !*m->version)
		return -EBADMSG;
	*ret = TAKE_PTR(m);
	return 0;
}

/* One CSV field starting at *pos, ending at ',' or the end of the line. */
static int csv_field(const char *p, size_t len, size_t *pos, char **ret)
{
	size_t i = *pos;
	_cleanup_free_ char *buf = NULL;
	size_t n = 0;

	if (i < len && p[i] == '"') {
		buf = malloc(MIN(len - i, (size_t)DIST_MAX_VALUE) + 1);
		if (!buf)
			return -ENOMEM;
		for (i++;; i++) {
			if (i >= len)
				return -EBADMSG;
			if (p[i] == '"') {
				if (i + 1 < len && p[i + 1] == '"')
					i++;
				else {
					i++;
					break;
				}
			}
			if (n >= DIST_MAX_VALUE || p[i] == '\0')
				return -EBADMSG;
			buf[n++] = p[i];
		}
		buf[n] = '\0';
	} else {
		size_t s = i;

		while (i < len && p[i] != ',' && p[i] != '\n' && p[i] != '\r')
			if (p[i++] == '\0')
				return -EBADMSG;
		if (i - s > DIST_MAX_VALUE)
			return -EBADMSG;
		buf = strndup(p + s, i - s);
		if (!buf)
			return -ENOMEM;
	}
	*pos = i;
	*ret = TAKE_PTR(buf);
	return 0;
}

int dist_record_paths(const char *p, size_t len, bool (*want)(const char *path), size_t max,
		      char ***ret)
{
	_cleanup_strv_free_ char **out = NULL;
	size_t pos = 0, kept = 0, rows = 0;
	int r;

	while (pos < len) {
		_cleanup_free_ char *path = NULL;

		if (p[pos] == '\n' || p[pos] == '\r') {
			pos++;
			continue;
		}
		if (++rows > DIST_MAX_RECORD_ROWS)
			return -E2BIG;
		r = csv_field(p, len, &pos, &path);
		if (r < 0)
			return r;
		if (!*path)
			return -EBADMSG;
		/* The rest of the row (hash, size) is not needed. */
		while (pos < len && p[pos] != '\n') {
			if (p[pos] == '"') {
				_cleanup_free_ char *skip = NULL;

				r = csv_field(p, len, &pos, &skip);
				if (r < 0)
					return r;
			} else
				pos++;
		}
		if (want && !want(path))
			continue;
		if (kept >= max)
			return -E2BIG;
		r = strv_consume(&out, TAKE_PTR(path));
		if (r < 0)
			return r;
		kept++;
	}
	if (!out) {
		out = calloc(1, sizeof(char *));
		if (!out)
			return -ENOMEM;
	}
	*ret = TAKE_PTR(out);
	return 0;
}

int dist_dirname_split(const char *dirname, char **ret_name, char **ret_version)
{
	static const char *const sfx[] = { ".dist-info", ".egg-info" };
	size_t n = strlen(dirname), base = 0;
	const char *dash, *vend;
	_cleanup_free_ char *name = NULL, *version = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(sfx) && !base; i++) {
		size_t s = strlen(sfx[i]);

		if (n > s && strcmp(dirname + n - s, sfx[i]) == 0)
			base = n - s;
	}
	if (!base)
		return -EINVAL;
	dash = memchr(dirname, '-', base);
	if (!dash || dash == dirname || (size_t)(dash - dirname) + 1 >= base)
		return -EINVAL;
	/* egg-info: "name-version-py3.11.egg-info": the python tag goes. */
	vend = memchr(dash + 1, '-', base - (size_t)(dash + 1 - dirname));
	if (!vend)
		vend = dirname + base;
	if (vend == dash + 1)
		return -EINVAL;
	name = strndup(dirname, (size_t)(dash - dirname));
	version = strndup(dash + 1, (size_t)(vend - dash - 1));
	if (!name || !version)
		return -ENOMEM;
	*ret_name = TAKE_PTR(name);
	*ret_version = TAKE_PTR(version);
	return 0;
}

void dist_name_normalize(const char *name, char *buf, size_t len)
{
	size_t o = 0;
	bool sep = false;

	if (!len)
		return;
	for (const char *s = name; *s && o + 1 < len; s++) {
		char ch = *s;

		if (ch == '-' || ch == '_' || ch == '.') {
			sep = true;
			continue;
		}
		if (sep && o && o + 2 < len)
			buf[o++] = '-';
		sep = false;
		buf[o++] = (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
	}
	buf[o] = '\0';
}
