// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the OpenCL session (src/vendor/opencl.c) against the fake libOpenCL.so.1 of
 * tests/fakes/ (scenario written here, named by GPUENV_FAKE_SCENARIO, inherited by the vendor
 * child): a platform and its devices through the size-query-then-fetch pattern, an ICD
 * loader that loaded no vendor ICD (clinfo's "Number of platforms 0":
 * CL_PLATFORM_NOT_FOUND_KHR, the count runtime.opencl-no-platforms judges), a platform with
 * no device, a failing query and a crash. The helpers: vendor-test-util.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "vendor/vendor.h"
#include "vendor-test-util.h"

/* NVIDIA's ICD as clinfo lists it on an RTX 4090 with driver 570.86.15. */
static const char nvidia_platform[] =
	"[opencl.platform.0]\nname = NVIDIA CUDA\nvendor = NVIDIA Corporation\n"
	"version = OpenCL 3.0 CUDA 12.8.61\nprofile = FULL_PROFILE\n"
	"[opencl.platform.0.device.0]\nname = NVIDIA GeForce RTX 4090\n"
	"vendor = NVIDIA Corporation\nversion = OpenCL 3.0 CUDA\ndriver_version = 570.86.15\n";

static json_t *opencl(char **ret_failure)
{
	return session_tree(vendor_opencl_start, fake("libOpenCL.so.1"), 10000, ret_failure);
}

static void test_values(void **state)
{
	json_t *t;

	(void)state;
	set_scenario(nvidia_platform);
	t = opencl(NULL);
	assert_str(t, "library", fake("libOpenCL.so.1"));
	assert_int(t, "platform_count", 1);
	assert_str(t, "platforms.0.name", "NVIDIA CUDA");
	assert_fact(t, "platforms.0.name", "present", "opencl:clGetPlatformInfo");
	assert_str(t, "platforms.0.version", "OpenCL 3.0 CUDA 12.8.61");
	assert_str(t, "platforms.0.devices.0.name", "NVIDIA GeForce RTX 4090");
	assert_str(t, "platforms.0.devices.0.driver_version", "570.86.15");
	assert_str(t, "platforms.0.devices.0.type", "GPU");
	json_decref(t);
}

static void test_no_platforms(void **state)
{
	json_t *t;

	(void)state;
	/* the loader found ICD files but none of their libraries gave it a platform */
	set_scenario("[opencl]\nplatform_count = 0\n");
	t = opencl(NULL);
	assert_int(t, "platform_count", 0);
	assert_fact(t, "platform_count", "present", "opencl:clGetPlatformIDs");
	json_decref(t);
	/* a platform whose devices are all gone: listed, with no device */
	set_scenario("[opencl.platform.0]\nname = NVIDIA CUDA\ndevice_count = 0\n");
	t = opencl(NULL);
	assert_int(t, "platform_count", 1);
	assert_str(t, "platforms.0.name", "NVIDIA CUDA");
	json_decref(t);
}

static void test_errors(void **state)
{
	char *failure = NULL;
	json_t *t;

	(void)state;
	set_scenario("[opencl]\nerror.clGetPlatformIDs = CL_OUT_OF_HOST_MEMORY\n");
	t = opencl(NULL);
	assert_error_contains(t, "platforms", "error", "CL_OUT_OF_HOST_MEMORY (-6)");
	json_decref(t);

	set_scenario("[opencl]\ncrash.clGetDeviceInfo = SIGSEGV\n[opencl.platform.0]\n"
		     "name = NVIDIA CUDA\n[opencl.platform.0.device.0]\nname = x\n");
	t = opencl(&failure);
	assert_non_null(failure);
	assert_string_equal(failure, "the vendor library crashed: SIGSEGV in clGetDeviceInfo");
	assert_str(t, "platforms.0.name", "NVIDIA CUDA");
	free(failure);
	json_decref(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_no_platforms),
		cmocka_unit_test(test_errors),
	};
	int r = vendor_test_init();

	if (r != 0)
		return r;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	vendor_test_done();
	return r;
}
