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

static int add(struct pasted_facts *f, const char *reader, const char *path, const char *value,
	       unsigned line, bool failed, bool absent)
{
	if (!path || !*path)
		return -EINVAL;
	if (f->line_map && line >= 1 && line <= f->line_map_n)
		line = f->line_map[line - 1];
	line += f->line_base;
	char *v = strdup(value ? value : "");
	if (!v)
		return -ENOMEM;
	struct pasted_fact *old = find(f, path);
	if (old) {
		free(old->value);
		old->value = v;
		old->line = line;
		old->reader = reader;
		old->failed = failed;
		old->absent = absent;
		return 0;
	}
	if (f->n >= PASTED_FACTS_MAX) {
		free(v);
		f->dropped++;
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
	char *p = strdup(path);
	if (!p || strmap_put(&f->index, path, f->n) < 0) {
		free(p);
		free(v);
		return -ENOMEM;
	}
	f->v[f->n++] = (struct pasted_fact){ .path = p,
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
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].path);
		free(f->v[i].value);
	}
	free(f->v);
	strmap_done(&f->index);
	*f = (struct pasted_facts){ 0 };
}
