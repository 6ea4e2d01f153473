// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The clinfo reader of formats/pasted over real pastes (tests/fuzz/corpus/pasted-clinfo/, each
 * copied from the page named above its test): the platform count, and no platform as the
 * symptom of runtime.opencl-no-platforms; the platforms' names and the miners' GPU device
 * counts.
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
	/* "Platform Name" twice: the platform's section, then its devices' (read once) */
	pasted_expect(&f, "runtime.opencl.platforms.0.name", "Clover", 3);
	pasted_expect_none(&f, "runtime.opencl.platforms.1.name");
	assert_int_equal(f.n, 2);
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

/* https://github.com/luke-jr/bfgminer/issues/249 (bfgminer -n: the Intel SDK's CPU runtime,
 * no GPU device on its platform) */
static void test_miner_platforms(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_clinfo, "pasted-clinfo", "bfgminer-249-intel-sdk.txt", &f);
	pasted_expect(&f, "runtime.opencl.platforms.0.vendor", "Intel(R) Corporation", 1);
	pasted_expect(&f, "runtime.opencl.platforms.0.name", "Intel(R) OpenCL", 2);
	pasted_expect(&f, "runtime.opencl.platforms.0.version", "OpenCL 1.2 LINUX", 3);
	pasted_expect(&f, "runtime.opencl.platforms.0.gpu_devices", "0", 4);
	pasted_expect(&f, "symptoms.unsure.runtime.opencl-cpu-only",
		      "[2013-06-29 00:37:06] Error -1: Getting Device IDs (num)", 4);
	assert_int_equal(f.n, 5);
	/* cgminer's count line (ocl.c: "Platform %d devices: %d"); another error than
	 * CL_DEVICE_NOT_FOUND tells nothing; a device line with no platform before it either */
	pasted_run_text(pasted_read_clinfo,
			"Error -1: Getting Device IDs (num)\n"
			"CL Platform 1 name: AMD Accelerated Parallel Processing\n"
			"Platform 1 devices: 2\n"
			"CL Platform 2 name: X\n"
			"Error -30: Getting Device IDs (num)\n",
			&f);
	pasted_expect(&f, "runtime.opencl.platforms.1.name", "AMD Accelerated Parallel Processing",
		      2);
	pasted_expect(&f, "runtime.opencl.platforms.1.gpu_devices", "2", 3);
	pasted_expect(&f, "runtime.opencl.platforms.2.name", "X", 4);
	pasted_expect_none(&f, "runtime.opencl.platforms.2.gpu_devices");
	pasted_expect_none(&f, "symptoms.unsure.runtime.opencl-cpu-only");
	assert_int_equal(f.n, 3);
}

/* `clinfo -l` (Oblomov/clinfo's list form: "Platform #N: NAME", its devices under it) */
static void test_platform_list(void **state)
{
	(void)state;
	pasted_run_text(pasted_read_clinfo,
			"Platform #0: Intel(R) OpenCL\n"
			" `-- Device #0: Intel(R) Core(TM) i5-6500 CPU @ 3.20GHz\n"
			"Platform #1: Portable Computing Language\n"
			"Platform #99: too far\n",
			&f);
	pasted_expect(&f, "runtime.opencl.platforms.0.name", "Intel(R) OpenCL", 1);
	pasted_expect(&f, "runtime.opencl.platforms.1.name", "Portable Computing Language", 3);
	assert_int_equal(f.n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_no_platforms, teardown),
		cmocka_unit_test_teardown(test_platforms, teardown),
		cmocka_unit_test_teardown(test_platform_error, teardown),
		cmocka_unit_test_teardown(test_miner_platforms, teardown),
		cmocka_unit_test_teardown(test_platform_list, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
