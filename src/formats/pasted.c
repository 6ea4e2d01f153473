/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The list of facts read from pasted text: see pasted.h. */
#include "formats/pasted.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct pasted_fact *find(const struct pasted_facts *f, const char *path)
{
	size_t i;

	if (!strmap_get(&f->index, path, &i) || i >= f->n)
		return NULL;
	return &f->v[i];
}

static void replace(struct pasted_fact *old, const char *reader, char *v, unsigned line,
		    bool failed, bool absent)
{
	free(old->value);
	old->value = v;
	old->line = line;
	old->reader = reader;
	old->failed = failed;
	old->absent = absent;
}

static int add(struct pasted_facts *f, const char *reader, const char *path, const char *value,
	       unsigned line, bool failed, bool absent)
{
	struct pasted_fact *old;
	const char *key = NULL;
	size_t at = 0;
	int r;

	if (!path || !*path)
		return -EINVAL;
	if (f->line_map && line >= 1 && line <= f->line_map_n)
		line = f->line_map[line - 1];
	line += f->line_base;
	char *v = strdup(value ? value : "");
	if (!v)
		return -ENOMEM;
	if (f->n >= PASTED_FACTS_MAX) { /* full: a path read already is still read again */
		old = find(f, path);
		if (old) {
			replace(old, reader, v, line, failed, absent);
		} else {
			free(v);
			f->dropped++;
		}
		return 0;
	}
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct pasted_fact *nv = realloc(f->v, cap * sizeof(*nv));
		if (!nv) {
			free(v);
			return -ENOMEM;
		}
		f->v = nv;
		f->cap = cap;
	}
	/* the path looked up and added at once; the fact's path is the index's copy of it */
	r = strmap_put_new(&f->index, path, f->n, &at, &key);
	if (r < 0) {
		free(v);
		return r;
	}
	if (r == 0) {
		replace(&f->v[at], reader, v, line, failed, absent);
		return 0;
	}
	f->v[f->n++] = (struct pasted_fact){ .path = key,
					     .value = v,
					     .line = line,
					     .reader = reader,
					     .failed = failed,
					     .absent = absent };
	return 0;
}

int pasted_facts_add(struct pasted_facts *f, const char *reader, const char *path,
		     const char *value, unsigned line)
{
	return add(f, reader, path, value, line, false, false);
}

int pasted_facts_add_error(struct pasted_facts *f, const char *reader, const char *path,
			   const char *error, unsigned line)
{
	return add(f, reader, path, error, line, true, false);
}

int pasted_facts_add_absent(struct pasted_facts *f, const char *reader, const char *path,
			    const char *why, unsigned line)
{
	return add(f, reader, path, why, line, false, true);
}

int pasted_facts_addf(struct pasted_facts *f, const char *reader, const char *path, unsigned line,
		      const char *fmt, ...)
{
	va_list ap;
	char *v = NULL;
	va_start(ap, fmt);
	int r = vasprintf(&v, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	r = pasted_facts_add(f, reader, path, v, line);
	free(v);
	return r;
}

const struct pasted_fact *pasted_facts_get(const struct pasted_facts *f, const char *path)
{
	return find(f, path);
}

void pasted_facts_done(struct pasted_facts *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i].value); /* the paths are the index's keys */
	free(f->v);
	strmap_done(&f->index);
	*f = (struct pasted_facts){ 0 };
}
