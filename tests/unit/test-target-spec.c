/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for src/formats/target-spec.c: the `gpuenv check --target` string, and where its errors
 * point (field and column). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "formats/target-spec.h"

static struct target_spec parse_ok(const char *s)
{
	struct target_spec t;
	struct target_spec_error err;

	if (target_spec_parse(s, strlen(s), &t, &err) != 0)
		fail_msg("%s: field %u column %u: %s", s, err.field, err.column, err.why);
	return t;
}

static void test_valid(void **state)
{
	struct target_spec t = parse_ok("gpu=H100,driver=550.54.15");

	assert_string_equal(t.brand, "");
	t = parse_ok("gpu=8.9,driver=535.247.01,brand=GeForce");
	assert_string_equal(t.brand, "GeForce");
	t = parse_ok("gpu=H100,driver=550.54.15");

	assert_int_equal(t.n_gpus, 1);
	assert_int_equal(t.gpus[0].kind, TARGET_GPU_NAME);
	assert_string_equal(t.gpus[0].text, "H100");
	assert_string_equal(t.driver, "550.54.15");
	t = parse_ok("gpu=10de:2335,gpu=8.6,gpu=0x2684,gpu=12.0,driver=575,host-cuda-compat=12.8");
	assert_int_equal(t.n_gpus, 4);
	assert_int_equal(t.gpus[0].kind, TARGET_GPU_PCI);
	assert_int_equal(t.gpus[0].vendor, 0x10de);
	assert_int_equal(t.gpus[0].device, 0x2335);
	assert_int_equal(t.gpus[1].kind, TARGET_GPU_CC);
	assert_int_equal(t.gpus[1].cc_major, 8);
	assert_int_equal(t.gpus[1].cc_minor, 6);
	assert_int_equal(t.gpus[2].kind, TARGET_GPU_PCI);
	assert_int_equal(t.gpus[2].vendor, 0x10de);
	assert_int_equal(t.gpus[2].device, 0x2684);
	assert_int_equal(t.gpus[3].cc_major, 12);
	assert_int_equal(t.gpus[3].cc_minor, 0);
	assert_string_equal(t.host_cuda_compat, "12.8");
	t = parse_ok("gpu=RTX 4090");
	assert_string_equal(t.gpus[0].text, "RTX 4090");
	assert_string_equal(t.driver, "");
}

static void test_errors(void **state)
{
	static const struct {
		const char *s;
		unsigned field, column;
		const char *why;
	} cases[] = {
		{ "", 0, 1, "empty" },
		{ "driver=550", 0, 1, "no gpu=" },
		{ "gpu=H100,drver=550", 2, 10, "unknown key 'drver'" },
		{ "gpu=H100,,driver=550", 2, 10, "empty field" },
		{ "gpu=H100,", 2, 10, "empty field" },
		{ "gpu=H100,driver", 2, 10, "not KEY=VALUE" },
		{ "gpu=H100,driver=", 2, 17, "empty value" },
		{ "gpu=H100,driver=55x", 2, 17, "not a driver version" },
		{ "gpu=H100,brand=Ge;Force", 2, 18, "brand: letters" },
		{ "gpu=H100,brand=A,brand=B", 3, 18, "brand given twice" },
		{ "gpu=H100,driver=550..1", 2, 17, "not a driver version" },
		{ "gpu=H100,driver=550,driver=555", 3, 21, "twice" },
		{ "gpu=9.00", 1, 5, "not MAJOR.MINOR" },
		{ "gpu=10de:23356", 1, 5, "PCI id" },
		{ "gpu=0xzz", 1, 5, "0x and 1-4 hex" },
		{ "gpu=RT\x01X", 1, 7, "byte 0x01" },
		{ "gpu=H100,host-cuda-compat=12", 2, 27, "not a CUDA version" },
	};
	struct target_spec t;
	struct target_spec_error err;
	char big[1100];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int r = target_spec_parse(cases[i].s, strlen(cases[i].s), &t, &err);

		if (r != -EINVAL || err.field != cases[i].field || err.column != cases[i].column ||
		    !strstr(err.why, cases[i].why))
			fail_msg("'%s': %d field %u column %u '%s'; want field %u column %u '%s'",
				 cases[i].s, r, err.field, err.column, err.why, cases[i].field,
				 cases[i].column, cases[i].why);
	}
	memset(big, 'a', sizeof(big));
	memcpy(big, "gpu=", 4);
	assert_int_equal(target_spec_parse(big, sizeof(big), &t, &err), -EINVAL);
	assert_non_null(strstr(err.why, "longer than"));
	/* a NUL inside the given length */
	assert_int_equal(target_spec_parse("gpu=A\0B", 7, &t, &err), -EINVAL);
	assert_int_equal(err.column, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
