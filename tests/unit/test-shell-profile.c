// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/shell-profile: the assignments of a shell startup file (export, declare -x, plain,
 * quotes, escapes, expansions, the last one winning, comments and other names, the caps, a
 * NUL) and of pam_env's /etc/environment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "formats/shell-profile.h"

static const char *const names[] = { "HSA_OVERRIDE_GFX_VERSION", "HIP_VISIBLE_DEVICES",
				     "ROCR_VISIBLE_DEVICES", NULL };
static struct shell_assigns sa;

static const struct shell_assign *get(const char *name)
{
	for (size_t i = 0; i < sa.n; i++)
		if (strcmp(sa.a[i].name, name) == 0)
			return &sa.a[i];
	return NULL;
}

static void test_bashrc(void **state)
{
	/* the lines ROCm users add, as the threads paste them */
	static const char text[] = "# ~/.bashrc\n"
				   "case $- in *i*) ;; *) return;; esac\n"
				   "export PATH=$PATH:/opt/rocm/bin\n"
				   "export HSA_OVERRIDE_GFX_VERSION=9.0.0\n"
				   "  export HSA_OVERRIDE_GFX_VERSION=\"10.3.0\"   # RX 6700 XT\n"
				   "HIP_VISIBLE_DEVICES='0' \n"
				   "declare -x ROCR_VISIBLE_DEVICES=\"$GPU\"\n";
	const struct shell_assign *a;

	(void)state;
	shell_profile_parse(text, sizeof(text) - 1, names, false, &sa);
	assert_int_equal(sa.n, 3);
	a = get("HSA_OVERRIDE_GFX_VERSION");
	assert_non_null(a);
	assert_string_equal(a->value, "10.3.0"); /* the last one wins */
	assert_int_equal(a->line, 5);
	assert_true(a->exported);
	assert_false(a->expands);
	a = get("HIP_VISIBLE_DEVICES");
	assert_string_equal(a->value, "0");
	assert_false(a->exported);
	a = get("ROCR_VISIBLE_DEVICES");
	assert_string_equal(a->value, "$GPU");
	assert_true(a->exported);
	assert_true(a->expands);
}

static void test_quotes_and_edges(void **state)
{
	static const char text[] = "export HSA_OVERRIDE_GFX_VERSION='$x'\n"
				   "exportHIP_VISIBLE_DEVICES=1\n"
				   "export HIP_VISIBLE_DEVICES=\"a\\\"b\"c;echo\n"
				   "export ROCR_VISIBLE_DEVICES=1\0export ROCR_VISIBLE_DEVICES=2\n";
	const struct shell_assign *a;

	(void)state;
	shell_profile_parse(text, sizeof(text) - 1, names, false, &sa);
	a = get("HSA_OVERRIDE_GFX_VERSION");
	assert_string_equal(a->value, "$x");
	assert_false(a->expands); /* single quotes: literal */
	a = get("HIP_VISIBLE_DEVICES");
	assert_string_equal(a->value, "a\"bc");
	assert_int_equal(a->line, 3);
	a = get("ROCR_VISIBLE_DEVICES");
	assert_string_equal(a->value, "1"); /* parsing stops at the NUL */
}

static void test_etc_environment_and_caps(void **state)
{
	char big[1200];
	const struct shell_assign *a;

	(void)state;
	shell_profile_parse("HSA_OVERRIDE_GFX_VERSION=\"11.0.0\"\n", 34, names, true, &sa);
	a = get("HSA_OVERRIDE_GFX_VERSION");
	assert_string_equal(a->value, "11.0.0");
	assert_true(a->exported);
	memset(big, 'x', sizeof(big));
	memcpy(big, "export HIP_VISIBLE_DEVICES=", 27);
	shell_profile_parse(big, sizeof(big), names, false, &sa);
	a = get("HIP_VISIBLE_DEVICES");
	assert_true(a->truncated);
	assert_int_equal(strlen(a->value), SHELL_ASSIGN_VALUE_MAX - 1);
	shell_profile_parse(NULL, 0, names, false, &sa);
	assert_int_equal(sa.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bashrc),
		cmocka_unit_test(test_quotes_and_edges),
		cmocka_unit_test(test_etc_environment_and_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
