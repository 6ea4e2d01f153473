// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * shared/conf-files: configuration directories merged as systemd.unit(5) reads drop-in
 * directories and modprobe.d(5) its directories (lexical order across them, an earlier
 * directory's file hiding the same name in a later one, only ".conf" files), and its cap.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shared/conf-files.h"
#include "shared/macro.h"
#include "shared/strv.h"

static void test_names(void **state)
{
	(void)state;
	assert_true(conf_file_name("a.conf"));
	assert_false(conf_file_name(".conf"));
	assert_false(conf_file_name("a.conf.bak"));
	assert_false(conf_file_name("a.con"));
}

static void test_merge(void **state)
{
	/* sorted listings, as root_list_dir() gives them (the casts: -Wwrite-strings) */
	char *etc[] = { (char *)"10-b.conf", (char *)"50-a.conf", (char *)"README", NULL };
	char *usr[] = { (char *)"10-b.conf", (char *)"20-c.conf", (char *)"99-z.conf.dpkg-old",
			NULL };
	char **lists[] = { etc, NULL, usr };
	const char *const dirs[] = { "/etc/x.d", "/run/x.d", "/usr/lib/x.d" };
	_cleanup_strv_free_ char **paths = NULL;
	char *over = NULL;

	(void)state;
	assert_int_equal(strv_push(&paths, "/etc/x.service"), 0);
	assert_int_equal(conf_files_merge(lists, dirs, 3, SIZE_MAX, &paths, &over), 0);
	assert_null(over);
	assert_int_equal(strv_length(paths), 4);
	assert_string_equal(paths[1], "/etc/x.d/10-b.conf"); /* hides /usr/lib's */
	assert_string_equal(paths[2], "/usr/lib/x.d/20-c.conf");
	assert_string_equal(paths[3], "/etc/x.d/50-a.conf");
}

static void test_cap(void **state)
{
	char *one[] = { (char *)"a.conf", (char *)"b.conf", (char *)"c.conf", NULL };
	char **lists[] = { one };
	const char *const dirs[] = { "/d" };
	_cleanup_strv_free_ char **paths = NULL;
	char *over = NULL;

	(void)state;
	assert_int_equal(strv_push(&paths, "/unit"), 0);
	assert_int_equal(conf_files_merge(lists, dirs, 1, 3, &paths, &over), -E2BIG);
	assert_int_equal(strv_length(paths), 3);
	assert_string_equal(over, "/d/c.conf");
	free(over);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
