// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The signs of pasted_readers[] (src/formats/pasted-readers.c) are true: explain does not run
 * a reader on a text holding none of its signs, so a reader must read nothing from such a text.
 * Checked on every real sample there is: the explain corpus (tests/explain-corpus/) and each
 * reader's fuzz corpus (tests/fuzz/corpus/pasted-*), each cleaned as explain cleans it.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-input.h"
#include "formats/pasted.h"

static size_t files_read;

static char *slurp(const char *path, size_t *ret_len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = malloc(4 << 20);

	assert_non_null(fp);
	assert_non_null(buf);
	*ret_len = fread(buf, 1, 4 << 20, fp);
	fclose(fp);
	return buf;
}

static bool has_sign(const char *const *signs, const char *text, size_t len)
{
	for (size_t k = 0; signs[k]; k++)
		if (memmem(text, len, signs[k], strlen(signs[k])))
			return true;
	return false;
}

static void check_file(const char *path)
{
	size_t len = 0, n = 0;
	char *data = slurp(path, &len), *text = NULL;

	if (pasted_input_clean(data, len, &text, &n, NULL) < 0) { /* refused: no reader runs */
		free(data);
		return;
	}
	files_read++;
	for (size_t i = 0; pasted_readers[i].name; i++) {
		struct pasted_facts f = { 0 };
		int r;

		if (!pasted_readers[i].signs || has_sign(pasted_readers[i].signs, text, n))
			continue;
		r = pasted_readers[i].read(text, n, &f);
		if (r != 0)
			print_error("%s read %d facts from %s, which holds none of its signs\n",
				    pasted_readers[i].name, r, path);
		assert_int_equal(r, 0);
		pasted_facts_done(&f);
	}
	free(text);
	free(data);
}

static void check_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[1024];

		if (e->d_name[0] == '.' || strstr(e->d_name, ".tsv"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		check_file(path);
	}
	closedir(d);
}

static void test_no_reader_reads_without_a_sign(void **state)
{
	char dir[512];
	DIR *d;
	struct dirent *e;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/tests/explain-corpus", GPUENV_TEST_SOURCE_ROOT);
	check_dir(dir);
	snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus", GPUENV_TEST_SOURCE_ROOT);
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d))) {
		char sub[1024];

		if (strncmp(e->d_name, "pasted-", 7) != 0 || strcmp(e->d_name, "pasted-gzip") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		check_dir(sub);
	}
	closedir(d);
	assert_true(files_read > 100); /* the samples were found */
}

/* A sign is something the text holds: at least 4 bytes (pasted-scan.h). */
static void test_signs_are_scannable(void **state)
{
	(void)state;
	for (size_t i = 0; pasted_readers[i].name; i++)
		for (size_t k = 0; pasted_readers[i].signs && pasted_readers[i].signs[k]; k++)
			assert_true(strlen(pasted_readers[i].signs[k]) >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_reader_reads_without_a_sign),
		cmocka_unit_test(test_signs_are_scannable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
