// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/slurm-conf: Slurm's key=value lines (several pairs a line, case-insensitive keys,
 * quotes, comments, "\#", continuations, Include, an embedded NUL) and its bracketed
 * host/device lists (ranges, zero padding, comma lists, the cap, malformed lists).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/slurm-conf.h"

#define PAIRS_MAX 32

struct seen {
	size_t n;
	char key[PAIRS_MAX][32];
	char value[PAIRS_MAX][128];
	uint64_t line[PAIRS_MAX];
	size_t index[PAIRS_MAX];
	size_t stop_after; /* 0: never */
};

static bool collect(void *data, uint64_t line, size_t index, const char *key, size_t key_len,
		    const char *value, size_t value_len)
{
	struct seen *s = data;

	if (s->n < PAIRS_MAX) {
		snprintf(s->key[s->n], sizeof(s->key[0]), "%.*s", (int)key_len, key);
		snprintf(s->value[s->n], sizeof(s->value[0]), "%.*s", (int)value_len, value);
		s->line[s->n] = line;
		s->index[s->n] = index;
	}
	s->n++;
	return !s->stop_after || s->n < s->stop_after;
}

static void test_gres_conf(void **state)
{
	/* NVIDIA/deepops#1214's gres.conf once AutoDetect=nvml was added */
	static const char text[] = "AutoDetect=nvml\n"
				   "#Name=gpu File=/dev/nvidia0 CPUs=0-63,128-191\n"
				   "NodeName=dgx[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-3]\n";
	struct seen s = { 0 };

	(void)state;
	assert_int_equal(slurm_conf_parse(text, sizeof(text) - 1, collect, &s), 2);
	assert_int_equal(s.n, 5);
	assert_string_equal(s.key[0], "AutoDetect");
	assert_string_equal(s.value[0], "nvml");
	assert_int_equal(s.line[0], 1);
	assert_string_equal(s.key[1], "NodeName");
	assert_int_equal(s.index[1], 0);
	assert_int_equal(s.line[1], 3);
	assert_string_equal(s.key[4], "File");
	assert_string_equal(s.value[4], "/dev/nvidia[0-3]");
	assert_int_equal(s.index[4], 3);
	assert_true(slurm_conf_key_is(s.key[0], strlen(s.key[0]), "autodetect"));
	assert_false(slurm_conf_key_is(s.key[0], strlen(s.key[0]), "AutoDetec"));
	assert_false(slurm_conf_key_is("Auto", 4, "AutoDetect"));
}

static void test_syntax_edges(void **state)
{
	static const char text[] = "  GresTypes=gpu   # a comment = not a pair\r\n"
				   "Feature=\"big mem\" Weight=2\n"
				   "Param=a\\#b\n"
				   "NodeName=n1 \\\n  Gres=gpu:4\n"
				   "include /etc/slurm/nodes.conf  # more\n"
				   "bareword Key=\"unclosed\n"
				   "=x\n"
				   "Last=1\0Hidden=1\n";
	struct seen s = { 0 };

	(void)state;
	slurm_conf_parse(text, sizeof(text) - 1, collect, &s);
	assert_int_equal(s.n, 9);
	assert_string_equal(s.value[0], "gpu");
	assert_string_equal(s.value[1], "big mem");
	assert_string_equal(s.key[2], "Weight");
	assert_string_equal(s.value[3], "a\\#b");
	assert_string_equal(s.key[4], "NodeName");
	assert_string_equal(s.key[5], "Gres"); /* continued: the first line's number */
	assert_int_equal(s.line[5], 4);
	assert_int_equal(s.index[5], 1);
	assert_string_equal(s.key[6], "Include");
	assert_string_equal(s.value[6], "/etc/slurm/nodes.conf");
	assert_int_equal(s.line[6], 6);
	assert_string_equal(s.key[7], "Key"); /* after a word that is no setting */
	assert_string_equal(s.value[7], "unclosed");
	assert_string_equal(s.key[8], "Last"); /* "=x": no key, no pair; NUL ends the text */
}

static void test_stop(void **state)
{
	static const char text[] = "A=1 B=2\nC=3\n";
	struct seen s = { .stop_after = 2 };

	(void)state;
	slurm_conf_parse(text, sizeof(text) - 1, collect, &s);
	assert_int_equal(s.n, 2);
}

static char names[8][SLURM_CONF_NAME_MAX];

static void test_expand(void **state)
{
	static const char files[] = "/dev/nvidia[0-3]";
	static const char hosts[] = "gpu[08-10,12],login";
	size_t n = 0;

	(void)state;
	assert_int_equal(slurm_conf_expand(files, sizeof(files) - 1, names, 8, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(names[0], "/dev/nvidia0");
	assert_string_equal(names[3], "/dev/nvidia3");
	assert_int_equal(slurm_conf_expand(hosts, sizeof(hosts) - 1, names, 8, &n), 0);
	assert_int_equal(n, 5);
	assert_string_equal(names[0], "gpu08");
	assert_string_equal(names[2], "gpu10");
	assert_string_equal(names[3], "gpu12");
	assert_string_equal(names[4], "login");
	assert_int_equal(slurm_conf_expand("/dev/nvidia0,/dev/nvidia1", 25, names, 8, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[1], "/dev/nvidia1");
	assert_int_equal(slurm_conf_expand("n[1-2]x", 7, names, 8, &n), 0);
	assert_string_equal(names[1], "n2x");
}

static void test_expand_refused(void **state)
{
	static const char *const bad[] = { "n[1-", "n[[1]]", "n[3-1]", "n[a]", "n[1]x[2]",
					   "n[]",  "a,,b",   "a,",     "n]",   "n[1,]" };
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(slurm_conf_expand(bad[i], strlen(bad[i]), names, 8, &n), -EINVAL);
	assert_int_equal(slurm_conf_expand("n[0-99]", 7, names, 8, &n), -E2BIG);
	assert_int_equal(n, 8);
	assert_string_equal(names[7], "n7");
	/* 10 digits: past what a bound may hold */
	assert_int_equal(slurm_conf_expand("n[1234567890]", 13, names, 8, &n), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gres_conf),      cmocka_unit_test(test_syntax_edges),
		cmocka_unit_test(test_stop),	       cmocka_unit_test(test_expand),
		cmocka_unit_test(test_expand_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
