// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * shared/path-util on the edge cases where the eight copies it replaced disagreed ("foo",
 * "/", trailing and repeated slashes, a root directory as the parent), against the POSIX
 * dirname utility's rules and GNU basename(3); shared/strmap; and macro.h's startswith.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shared/macro.h"
#include "shared/path-util.h"
#include "shared/strmap.h"

static void check_dirname(const char *in, const char *want)
{
	char *got = path_dirname(in);

	assert_non_null(got);
	if (strcmp(got, want) != 0)
		fail_msg("path_dirname(\"%s\") = \"%s\", want \"%s\"", in, got, want);
	free(got);
}

static void test_dirname(void **state)
{
	check_dirname("foo", ".");
	check_dirname("", ".");
	check_dirname(".", ".");
	check_dirname("/", "/");
	check_dirname("//", "/");
	check_dirname("/usr", "/");
	check_dirname("/usr/", "/");
	check_dirname("/usr/lib", "/usr");
	check_dirname("/usr/lib/", "/usr");
	check_dirname("/usr//lib//", "/usr");
	check_dirname("a/b", "a");
	check_dirname("a/b/", "a");
	check_dirname("../x", "..");
}

static void test_basename(void **state)
{
	assert_string_equal(path_basename("/usr/lib"), "lib");
	assert_string_equal(path_basename("foo"), "foo");
	assert_string_equal(path_basename("/"), "");
	assert_string_equal(path_basename("/usr/"), "");
	assert_string_equal(path_basename(""), "");
	assert_string_equal(path_basename("libcuda.so.1"), "libcuda.so.1");
}

static void check_join(const char *a, const char *b, const char *want)
{
	char *got = path_join(a, b);

	assert_non_null(got);
	if (strcmp(got, want) != 0)
		fail_msg("path_join(\"%s\", \"%s\") = \"%s\", want \"%s\"", a, b, got, want);
	free(got);
}

static void test_join(void **state)
{
	check_join("/usr", "lib", "/usr/lib");
	check_join("/usr/", "lib", "/usr/lib");
	check_join("/", "pyvenv.cfg", "/pyvenv.cfg");
	check_join("/usr", "/lib", "/usr/lib");
	check_join("a", "b/c", "a/b/c");
	check_join("", "x", "/x");
}

static void test_is_under(void **state)
{
	assert_true(path_is_under("/usr/lib", "/usr"));
	assert_true(path_is_under("/usr/lib", "/usr/"));
	assert_true(path_is_under("/usr//lib", "/usr"));
	assert_true(path_is_under("/usr/lib", "/"));
	assert_true(path_is_under("/usr", "/"));
	assert_false(path_is_under("/", "/"));
	assert_false(path_is_under("/usr", "/usr"));
	assert_false(path_is_under("/usr/", "/usr"));
	assert_false(path_is_under("/usrx/lib", "/usr"));
	assert_false(path_is_under("/us", "/usr"));
	assert_false(path_is_under("usr/lib", "/"));
}

static void check_norm(const char *in, const char *want)
{
	char *got = strdup(in);

	assert_non_null(got);
	path_normalise(got);
	if (strcmp(got, want) != 0)
		fail_msg("path_normalise(\"%s\") = \"%s\", want \"%s\"", in, got, want);
	free(got);
}

static void test_normalise(void **state)
{
	check_norm("", "");
	check_norm("/", "/");
	check_norm("//", "/");
	check_norm("/usr/", "/usr");
	check_norm("/usr//local///cuda/", "/usr/local/cuda");
	check_norm("/usr/./lib/.", "/usr/lib");
	check_norm("./a", "a");
	check_norm(".", ".");
	check_norm("./", ".");
	check_norm("/./", "/");
	check_norm("a/../b", "a/../b"); /* ".." needs the file system */
	check_norm("a/.hidden/..x", "a/.hidden/..x");
}

/* Many keys (growth, probing across the wrap), a replaced value, absent keys. */
/* startswith() compares the first byte before strncmp: an empty prefix still starts every
 * string, the empty one too. */
static void test_startswith(void **state)
{
	const char *empty = "";

	(void)state;
	assert_true(startswith("abc", ""));
	assert_true(startswith(empty, ""));
	assert_true(startswith("abc", "a"));
	assert_true(startswith("abc", "abc"));
	assert_false(startswith("abc", "abd"));
	assert_false(startswith("abc", "b"));
	assert_false(startswith(empty, "a"));
	assert_false(startswith("ab", "abc"));
}

static void test_strmap(void **state)
{
	struct strmap m = STRMAP_INIT;
	char key[32];
	size_t v = 0;

	assert_false(strmap_get(&m, "x", &v));
	for (size_t i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "/opt/conda/envs/e%zu", i);
		assert_int_equal(strmap_put(&m, key, i), 0);
	}
	assert_int_equal(m.n, 20000);
	for (size_t i = 0; i < 20000; i++) {
		snprintf(key, sizeof(key), "/opt/conda/envs/e%zu", i);
		assert_true(strmap_get(&m, key, &v));
		assert_int_equal(v, i);
	}
	assert_int_equal(strmap_put(&m, "/opt/conda/envs/e7", 99), 0);
	assert_int_equal(m.n, 20000);
	assert_true(strmap_get(&m, "/opt/conda/envs/e7", &v));
	assert_int_equal(v, 99);
	assert_false(strmap_get(&m, "/opt/conda/envs/e20000", &v));
	assert_false(strmap_get(&m, "", &v));
	strmap_done(&m);
	assert_false(strmap_get(&m, "/opt/conda/envs/e1", &v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirname),	   cmocka_unit_test(test_basename),
		cmocka_unit_test(test_join),	   cmocka_unit_test(test_is_under),
		cmocka_unit_test(test_normalise),  cmocka_unit_test(test_strmap),
		cmocka_unit_test(test_startswith),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
