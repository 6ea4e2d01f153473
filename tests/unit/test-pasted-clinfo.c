// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The clinfo reader of formats/pasted over real pastes (tests/fuzz/corpus/pasted-clinfo/, each
 * copied from the page named above its test): the platform count, and no platform as the
 * symptom of runtime.opencl-no-platforms.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-readers.h"
#include "pasted-test-util.h"

static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/intel/compute-runtime/issues/350 (ICD files registered, listed by ls, no
 * platform: the user was not in the render group) */
static void test_no_platforms(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_clinfo, "pasted-clinfo", "intel-350-no-platforms.txt", &f);
	pasted_expect(&f, "runtime.opencl.platform_count", "0", 2);
	pasted_expect(&f, "symptoms.runtime.opencl-no-platforms",
		      "Number of platforms                               0", 2);
	assert_int_equal(f.n, 2);
}

/* https://github.com/ProjectPhysX/OpenCL-Benchmark/issues/6 (one platform: no symptom; the
 * "Number of devices" line is not the count) */
static void test_platforms(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_clinfo, "pasted-clinfo", "clover-turks.txt", &f);
	pasted_expect(&f, "runtime.opencl.platform_count", "1", 2);
	pasted_expect_none(&f, "symptoms.runtime.opencl-no-platforms");
	assert_int_equal(f.n, 1);
	/* AMD APP SDK's clinfo: a colon and tabs */
	pasted_run_text(pasted_read_clinfo, "Number of platforms:\t\t\t\t 2\n", &f);
	pasted_expect(&f, "runtime.opencl.platform_count", "2", 1);
}

/* https://github.com/Oblomov/clinfo/issues/11 (an old clinfo printing clGetPlatformIDs' error:
 * no ICD file shown, so a symptom explain asks about; no count), and lines that only look
 * like it */
static void test_platform_error(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_clinfo, "pasted-clinfo", "old-clinfo-error.txt", &f);
	pasted_expect(&f, "symptoms.unsure.runtime.opencl-no-platforms",
		      "main:670: number of platforms : error -1001", 1);
	pasted_expect_none(&f, "symptoms.runtime.opencl-no-platforms");
	pasted_expect_none(&f, "runtime.opencl.platform_count");
	pasted_run_text(pasted_read_clinfo,
			"clGetPlatformIDs failed: CL_PLATFORM_NOT_FOUND_KHR\n"
			"Number of platforms 3 (two broken)\nexit code -1001\n",
			&f);
	pasted_expect(&f, "symptoms.unsure.runtime.opencl-no-platforms",
		      "clGetPlatformIDs failed: CL_PLATFORM_NOT_FOUND_KHR", 1);
	assert_int_equal(f.n, 1);
	/* an ICD file listed (ls -l): the symptom is the rule's */
	pasted_run_text(pasted_read_clinfo,
			"-rw-r--r-- 1 root root   22 Jul 14 13:18 nvidia.icd\n"
			"Number of platforms                               0\n",
			&f);
	pasted_expect(&f, "symptoms.runtime.opencl-no-platforms",
		      "Number of platforms                               0", 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_no_platforms, teardown),
		cmocka_unit_test_teardown(test_platforms, teardown),
		cmocka_unit_test_teardown(test_platform_error, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
