// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The signs and reaches of pasted_readers[] (src/formats/pasted-readers.c) are true: explain
 * does not run a reader on a text holding none of its signs, so a reader must read nothing
 * from such a text; and a reader given only its lines or blocks (pasted-dispatch.h) reads
 * from them the same facts, at the same lines, as from the whole text. Checked on every real
 * sample there is: the explain corpus (tests/explain-corpus/) and each reader's fuzz corpus
 * (tests/fuzz/corpus/pasted-*), each cleaned as explain cleans it.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-dispatch.h"
#include "formats/pasted-input.h"
#include "formats/pasted.h"

static size_t files_read;
static struct pasted_dispatch dispatch;

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

/* Reader i's facts over the whole text are the ones dispatched to it. */
static void check_dispatched(const char *path, size_t i, const char *text, size_t n,
			     const struct pasted_facts *got)
{
	struct pasted_facts want = { 0 };

	assert_true(pasted_readers[i].read(text, n, &want) >= 0);
	for (size_t j = 0; j < want.n || j < got->n; j++) {
		const struct pasted_fact *w = j < want.n ? &want.v[j] : NULL;
		const struct pasted_fact *g = j < got->n ? &got->v[j] : NULL;

		if (w && g && strcmp(w->path, g->path) == 0 && strcmp(w->value, g->value) == 0 &&
		    w->line == g->line && w->failed == g->failed)
			continue;
		print_error("%s on %s: fact %zu over the whole text %s=%s (line %u), given its "
			    "lines %s=%s (line %u)\n",
			    pasted_readers[i].name, path, j, w ? w->path : "-", w ? w->value : "-",
			    w ? w->line : 0, g ? g->path : "-", g ? g->value : "-",
			    g ? g->line : 0);
		fail();
	}
	pasted_facts_done(&want);
}

static void check_file(const char *path)
{
	size_t len = 0, n = 0;
	char *data = slurp(path, &len), *text = NULL;
	struct pasted_facts each[PASTED_DISPATCH_READERS_MAX] = { 0 };

	if (pasted_input_clean(data, len, &text, &n, NULL) < 0) { /* refused: no reader runs */
		free(data);
		return;
	}
	files_read++;
	assert_int_equal(pasted_dispatch_read(&dispatch, text, n, 0, each), 0);
	for (size_t i = 0; i < dispatch.n_readers; i++) {
		check_dispatched(path, i, text, n, &each[i]);
		pasted_facts_done(&each[i]);
	}
	for (size_t i = 0; pasted_readers[i].name; i++) {
		struct pasted_facts f = { 0 };
		int r;

		/* a reader that also tests lines of its own (takes) is handed those without a sign:
		 * check_dispatched() holds it to what it reads from the whole text */
		if (!pasted_readers[i].signs || pasted_readers[i].takes ||
		    has_sign(pasted_readers[i].signs, text, n))
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
	assert_int_equal(pasted_dispatch_init(&dispatch, pasted_readers), 0);
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
	pasted_dispatch_done(&dispatch);
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

/* A reader that reads every line it is given as a fact "<reader>.<its line>" = the line: what
 * each reach hands it, at the user's line numbers, the lines it is not given as one empty line
 * a run. */
static int read_all(const char *text, size_t len, struct pasted_facts *out, const char *name)
{
	const char *p = text, *end = text + len;
	unsigned no = 0;
	int n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		char path[32], value[64];

		no++;
		snprintf(path, sizeof(path), "%s.%u", name, no);
		snprintf(value, sizeof(value), "%.*s", (int)(e - p), p);
		assert_int_equal(pasted_facts_add(out, name, path, value, no), 0);
		n++;
		p = nl ? nl + 1 : end;
	}
	return n;
}

static int read_lines(const char *text, size_t len, struct pasted_facts *out)
{
	return read_all(text, len, out, "lines");
}

static int read_block(const char *text, size_t len, struct pasted_facts *out)
{
	return read_all(text, len, out, "block");
}

static int read_text(const char *text, size_t len, struct pasted_facts *out)
{
	return read_all(text, len, out, "text");
}

/* The facts of readers 0..n_each, in order, are want's {path, value, line}; each list freed. */
static void check_facts(struct pasted_facts *each, size_t n_each, const char *const (*want)[3],
			size_t n_want)
{
	size_t k = 0;

	for (size_t i = 0; i < n_each; i++) {
		for (size_t j = 0; j < each[i].n; j++, k++) {
			assert_true(k < n_want);
			assert_string_equal(each[i].v[j].path, want[k][0]);
			assert_string_equal(each[i].v[j].value, want[k][1]);
			assert_int_equal(each[i].v[j].line, (unsigned)atoi(want[k][2]));
		}
		pasted_facts_done(&each[i]);
	}
	assert_int_equal(k, n_want);
}

static void test_dispatch_hands_each_reader_its_lines(void **state)
{
	const struct pasted_reader readers[] = {
		{ "lines", read_lines, (const char *const[]){ "MARK", NULL }, PASTED_REACH_LINES },
		{ "block", read_block, (const char *const[]){ "HEAD", NULL }, PASTED_REACH_BLOCK },
		{ "text", read_text, (const char *const[]){ "WHOLE", NULL }, PASTED_REACH_TEXT },
		{ NULL },
	};
	static const char text[] = "one\n"	     /* 11 */
				   "MARK two\n"	     /* 12: lines */
				   "HEAD three\n"    /* 13: block */
				   "row MARK four\n" /* 14: lines, block */
				   "row five\n"	     /* 15: block */
				   "  \n"	     /* 16: ends the block */
				   "six\n"	     /* 17 */
				   "seven MARK";     /* 18: lines */
	/* path, value, line of each fact, reader by reader */
	static const char *const want[][3] = {
		{ "lines.1", "", "11" },
		{ "lines.2", "MARK two", "12" },
		{ "lines.3", "", "13" },
		{ "lines.4", "row MARK four", "14" },
		{ "lines.5", "", "15" },
		{ "lines.6", "seven MARK", "18" },
		{ "block.1", "", "11" },
		{ "block.2", "HEAD three", "13" },
		{ "block.3", "row MARK four", "14" },
		{ "block.4", "row five", "15" },
		{ "block.5", "", "16" },
	};
	struct pasted_facts each[3] = { 0 };
	struct pasted_dispatch d;

	(void)state;
	assert_int_equal(pasted_dispatch_init(&d, readers), 0);
	assert_int_equal(pasted_dispatch_read(&d, text, strlen(text), 10, each), 0);
	assert_int_equal(d.newlines, 7);
	/* "text": no WHOLE, not run */
	check_facts(each, 3, want, sizeof(want) / sizeof(want[0]));
	assert_int_equal(pasted_dispatch_read(&d, "WHOLE\nx", 7, 0, each), 0);
	assert_int_equal(each[2].n, 2);
	assert_int_equal(each[0].n + each[1].n, 0);
	for (size_t i = 0; i < 3; i++)
		pasted_facts_done(&each[i]);
	pasted_dispatch_done(&d);
}

static int read_indented(const char *text, size_t len, struct pasted_facts *out)
{
	return read_all(text, len, out, "indented");
}

/* PASTED_REACH_INDENTED hands a sign's line and the lines after it indented deeper than it, a
 * sign line inside keeping the block at the shallower indentation; an empty line or one back
 * at that indentation ends it, so text without empty lines does not run on in it. */
static void test_dispatch_indented_block(void **state)
{
	const struct pasted_reader readers[] = {
		{ "indented", read_indented,
		  (const char *const[]){ "GPU ", "Remapped", "SECT", NULL },
		  PASTED_REACH_INDENTED },
		{ NULL },
	};
	static const char text[] = "intro\n"		    /* 1 */
				   "GPU 1\n"		    /* 2: opens at 0 */
				   "    Remapped Rows\n"    /* 3: a sign, the block stays at 0 */
				   "        Pending : No\n" /* 4 */
				   "    Power\n"	    /* 5: deeper than 0 */
				   "end at column 0\n"	    /* 6: ends it */
				   "    not handed\n"	    /* 7 */
				   "  SECT\n"		    /* 8: opens at 2 */
				   "\tdeep\n"		    /* 9: a tab is 8 */
				   "  same\n"		    /* 10: ends it */
				   "   SECT again\n"	    /* 11: opens at 3 */
				   "\n"			    /* 12: ends it */
				   "    after the empty line\n"; /* 13 */
	static const char *const want[][3] = {
		{ "indented.1", "", "1" },
		{ "indented.2", "GPU 1", "2" },
		{ "indented.3", "    Remapped Rows", "3" },
		{ "indented.4", "        Pending : No", "4" },
		{ "indented.5", "    Power", "5" },
		{ "indented.6", "", "6" },
		{ "indented.7", "  SECT", "8" },
		{ "indented.8", "\tdeep", "9" },
		{ "indented.9", "", "10" },
		{ "indented.10", "   SECT again", "11" },
		{ "indented.11", "", "12" },
	};
	struct pasted_facts each[1] = { 0 };
	struct pasted_dispatch d;

	(void)state;
	assert_int_equal(pasted_dispatch_init(&d, readers), 0);
	assert_int_equal(pasted_dispatch_read(&d, text, strlen(text), 0, each), 0);
	check_facts(each, 1, want, sizeof(want) / sizeof(want[0]));
	pasted_dispatch_done(&d);
}

static int read_next(const char *text, size_t len, struct pasted_facts *out)
{
	return read_all(text, len, out, "next");
}

static int read_taken(const char *text, size_t len, struct pasted_facts *out)
{
	return read_all(text, len, out, "taken");
}

static bool starts_with_x(const char *line, size_t n)
{
	return n > 0 && line[0] == 'x';
}

/* PASTED_REACH_NEXT hands a sign's line and the one after it; a reader's own test (takes)
 * the lines it says yes to. */
static void test_dispatch_next_and_takes(void **state)
{
	const struct pasted_reader readers[] = {
		{ "next", read_next, (const char *const[]){ "ASK?", NULL }, PASTED_REACH_NEXT },
		{ "taken", read_taken, NULL, PASTED_REACH_LINES, NULL, starts_with_x },
		{ NULL },
	};
	static const char text[] = "one\n"	 /* 1 */
				   "ASK? two\n"	 /* 2: next */
				   "xthree\n"	 /* 3: next (the answer), taken */
				   "four\n"	 /* 4 */
				   "ASK? five\n" /* 5: next */
				   "ASK? six\n"	 /* 6: next (a sign and an answer) */
				   "seven\n"	 /* 7: next */
				   " x eight\n"; /* 8 */
	static const char *const want[][3] = {
		{ "next.1", "", "1" },		{ "next.2", "ASK? two", "2" },
		{ "next.3", "xthree", "3" },	{ "next.4", "", "4" },
		{ "next.5", "ASK? five", "5" }, { "next.6", "ASK? six", "6" },
		{ "next.7", "seven", "7" },	{ "next.8", "", "8" },
		{ "taken.1", "", "1" },		{ "taken.2", "xthree", "3" },
		{ "taken.3", "", "4" },
	};
	/* signs and a test of its own lines together: the lines either picks */
	const struct pasted_reader both[] = {
		{ "taken", read_taken, (const char *const[]){ "SIGN", NULL }, PASTED_REACH_LINES,
		  NULL, starts_with_x },
		{ NULL },
	};
	static const char text_both[] = "one\n"	     /* 1 */
					"SIGN two\n" /* 2: the sign */
					"xthree\n"   /* 3: taken */
					"four\n";    /* 4 */
	static const char *const want_both[][3] = {
		{ "taken.1", "", "1" },
		{ "taken.2", "SIGN two", "2" },
		{ "taken.3", "xthree", "3" },
		{ "taken.4", "", "4" },
	};
	const struct pasted_reader wrong[] = {
		{ "taken", read_taken, NULL, PASTED_REACH_BLOCK, NULL, starts_with_x },
		{ NULL },
	};
	struct pasted_facts each[2] = { 0 };
	struct pasted_dispatch d;

	(void)state;
	assert_int_equal(pasted_dispatch_init(&d, readers), 0);
	assert_int_equal(pasted_dispatch_read(&d, text, strlen(text), 0, each), 0);
	check_facts(each, 2, want, sizeof(want) / sizeof(want[0]));
	pasted_dispatch_done(&d);
	assert_int_equal(pasted_dispatch_init(&d, both), 0);
	assert_int_equal(pasted_dispatch_read(&d, text_both, strlen(text_both), 0, each), 0);
	check_facts(each, 1, want_both, sizeof(want_both) / sizeof(want_both[0]));
	pasted_dispatch_done(&d);
	/* a test of its own lines hands a reader lines, not blocks or the text */
	assert_int_equal(pasted_dispatch_init(&d, wrong), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_no_reader_reads_without_a_sign), /* and reads its lines alike */
		cmocka_unit_test(test_signs_are_scannable),
		cmocka_unit_test(test_dispatch_hands_each_reader_its_lines),
		cmocka_unit_test(test_dispatch_next_and_takes),
		cmocka_unit_test(test_dispatch_indented_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
