// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted: the list of facts read from pasted text. A later fact for a path replaces the
 * earlier, the cap drops (and counts) the rest, and the path lookup is hashed: 100,000 facts,
 * each looked up on insertion, stay linear (a linear lookup made this 400 million compares).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>

#include "formats/pasted.h"

static void test_replace(void **state)
{
	struct pasted_facts f = { 0 };

	(void)state;
	assert_int_equal(pasted_facts_add(&f, "t", "driver.nvml.driver_version", "535.104.05", 3),
			 0);
	assert_int_equal(pasted_facts_addf(&f, "u", "driver.nvml.driver_version", 9, "%s.%02d",
					   "550.54", 15),
			 0);
	assert_int_equal(pasted_facts_add(&f, "t", "", "x", 1), -EINVAL);
	assert_int_equal(f.n, 1);
	assert_string_equal(pasted_facts_get(&f, "driver.nvml.driver_version")->value, "550.54.15");
	assert_int_equal(pasted_facts_get(&f, "driver.nvml.driver_version")->line, 9);
	assert_string_equal(pasted_facts_get(&f, "driver.nvml.driver_version")->reader, "u");
	assert_null(pasted_facts_get(&f, "driver.nvml.cuda_driver_version"));
	/* the fact's path is its own copy (the index's), not the caller's buffer */
	{
		char path[] = "host.kernel_release";

		assert_int_equal(pasted_facts_add(&f, "t", path, "6.8.0", 4), 0);
		memset(path, 'x', sizeof(path) - 1);
		assert_string_equal(f.v[1].path, "host.kernel_release");
		assert_ptr_equal(pasted_facts_get(&f, "host.kernel_release"), &f.v[1]);
	}
	pasted_facts_done(&f);
	assert_null(pasted_facts_get(&f, "driver.nvml.driver_version"));
}

static void test_100000(void **state)
{
	struct pasted_facts f = { 0 };
	char path[64];

	(void)state;
	for (unsigned i = 0; i < 100000; i++) {
		snprintf(path, sizeof(path), "driver.nvml.devices.%u.name", i);
		assert_int_equal(pasted_facts_add(&f, "t", path, "GPU", i + 1), 0);
	}
	/* every kept path again: replaced in place, nothing more dropped */
	for (unsigned i = 0; i < PASTED_FACTS_MAX; i++) {
		snprintf(path, sizeof(path), "driver.nvml.devices.%u.name", i);
		assert_int_equal(pasted_facts_add(&f, "t", path, "NVIDIA H100", i + 1), 0);
	}
	assert_int_equal(f.n, PASTED_FACTS_MAX);
	assert_int_equal(f.dropped, 100000 - PASTED_FACTS_MAX);
	assert_string_equal(pasted_facts_get(&f, "driver.nvml.devices.4095.name")->value,
			    "NVIDIA H100");
	assert_null(pasted_facts_get(&f, "driver.nvml.devices.4096.name"));
	pasted_facts_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_100000),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
