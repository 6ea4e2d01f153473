// SPDX-License-Identifier: LGPL-2.1-or-later
/* The pasted-text reader tests' helpers: see pasted-test-util.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pasted-test-util.h"

int pasted_run_text(pasted_reader_fn read, const char *text, struct pasted_facts *f)
{
	pasted_facts_done(f);
	return read(text, strlen(text), f);
}

int pasted_run_sample(pasted_reader_fn read, const char *dir, const char *file,
		      struct pasted_facts *f)
{
	char path[4096];
	FILE *in;
	char *buf;
	long n;
	int r;

	snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/%s/%s", GPUENV_TEST_SOURCE_ROOT, dir,
		 file);
	in = fopen(path, "rb");
	if (!in)
		fail_msg("%s: cannot open", path);
	fseek(in, 0, SEEK_END);
	n = ftell(in);
	fseek(in, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, in), (size_t)n);
	fclose(in);
	buf[n] = '\0';
	pasted_facts_done(f);
	r = read(buf, (size_t)n, f);
	free(buf);
	return r;
}

void pasted_expect(const struct pasted_facts *f, const char *path, const char *value, unsigned line)
{
	const struct pasted_fact *x = pasted_facts_get(f, path);

	if (!x)
		fail_msg("no fact %s (expected \"%s\")", path, value);
	if (strcmp(x->value, value) != 0)
		fail_msg("%s: \"%s\", expected \"%s\"", path, x->value, value);
	if (line && x->line != line)
		fail_msg("%s: line %u, expected %u", path, x->line, line);
}

void pasted_expect_none(const struct pasted_facts *f, const char *path)
{
	const struct pasted_fact *x = pasted_facts_get(f, path);

	if (x)
		fail_msg("unexpected fact %s = \"%s\" (line %u)", path, x->value, x->line);
}

void pasted_expect_no_prefix(const struct pasted_facts *f, const char *prefix)
{
	for (size_t i = 0; i < f->n; i++)
		if (strncmp(f->v[i].path, prefix, strlen(prefix)) == 0)
			fail_msg("unexpected fact %s = \"%s\" (line %u)", f->v[i].path,
				 f->v[i].value, f->v[i].line);
}
