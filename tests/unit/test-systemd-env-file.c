// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/systemd-env-file: a file EnvironmentFile= names, read as systemd's
 * parse_env_file_internal() reads it: comments, blanks around keys and values, single and
 * double quotes and their escapes, joined lines, a key with a blank ("export X"), a line
 * without "=", text that is not UTF-8 (the whole file refused), a NUL.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/systemd-env-file.h"

#define MAX_SEEN 16

static struct {
	char key[64], value[64];
	uint64_t line;
} seen[MAX_SEEN];
static size_t n_seen;

static void assign(void *userdata, const char *key, const char *value, uint64_t line)
{
	(void)userdata;
	assert_true(n_seen < MAX_SEEN);
	snprintf(seen[n_seen].key, sizeof(seen[n_seen].key), "%s", key);
	snprintf(seen[n_seen].value, sizeof(seen[n_seen].value), "%s", value);
	seen[n_seen++].line = line;
}

static int parse(const char *text, size_t len)
{
	n_seen = 0;
	return env_file_parse(text, len, assign, NULL);
}

static void expect(size_t i, const char *key, const char *value, uint64_t line)
{
	assert_true(i < n_seen);
	assert_string_equal(seen[i].key, key);
	assert_string_equal(seen[i].value, value);
	assert_int_equal(seen[i].line, line);
}

static void test_typical(void **state)
{
	/* the file ollama/ollama#3516 proposes (/etc/ollama.conf) with a GPU override */
	static const char text[] = "# /etc/ollama.conf\n; a comment\nOLLAMA_HOST=0.0.0.0:11434\n"
				   "HSA_OVERRIDE_GFX_VERSION=\"10.3.0\"\n"
				   "export HIP_VISIBLE_DEVICES=0\n"
				   "  ROCR_VISIBLE_DEVICES = 1 \n";

	(void)state;
	assert_int_equal(parse(text, sizeof(text) - 1), 0);
	assert_int_equal(n_seen, 4);
	expect(0, "OLLAMA_HOST", "0.0.0.0:11434", 3);
	expect(1, "HSA_OVERRIDE_GFX_VERSION", "10.3.0", 4);
	expect(2, "export HIP_VISIBLE_DEVICES", "0", 5); /* no variable name: dropped later */
	expect(3, "ROCR_VISIBLE_DEVICES", "1", 6);
}

static void test_quoting(void **state)
{
	static const char text[] = "A='single \\ \"kept\"'\r\n"
				   "B=\"dq \\$x \\q \\\n joined\"\n"
				   "C=un\\\nquoted\\ tail   \n"
				   "D=a\"b\"'c'd\n"
				   "NOEQ\n=nokey\n"
				   "# comment \\\nE=after-comment\n"
				   "G=\"a\" 'b' c\n"
				   "F=\"unclosed";

	(void)state;
	assert_int_equal(parse(text, sizeof(text) - 1), 0);
	assert_int_equal(n_seen, 7);
	expect(0, "A", "single \\ \"kept\"", 1);
	expect(1, "B", "dq $x \\q  joined", 2);
	expect(2, "C", "unquoted tail", 4);
	expect(3, "D", "a\"b\"'c'd", 6);
	expect(4, "E", "after-comment", 10);
	expect(5, "G", "abc", 11);
	expect(6, "F", "unclosed", 12);
}

static void test_refused_and_nul(void **state)
{
	static const char bad[] = "A=1\nB=\xc3\x28\nC=3\n";
	static const char nul[] = "A=1\0B=2\n";
	static const char empty[] = "A=\nB=  \n";

	(void)state;
	assert_int_equal(parse(bad, sizeof(bad) - 1), -EBADMSG);
	assert_int_equal(n_seen, 1); /* the caller throws away what came before */
	assert_int_equal(parse(nul, sizeof(nul) - 1), 0);
	assert_int_equal(n_seen, 1);
	expect(0, "A", "1", 1);
	assert_int_equal(parse(empty, sizeof(empty) - 1), 0);
	assert_int_equal(n_seen, 2);
	expect(0, "A", "", 1);
	expect(1, "B", "", 2);
	assert_int_equal(parse("", 0), 0);
	assert_int_equal(n_seen, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typical),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_refused_and_nul),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
