// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the Level Zero session (src/vendor/levelzero.c) against the fake
 * libze_loader.so.1 of tests/fakes/ (scenario written here, named by GPUENV_FAKE_SCENARIO,
 * inherited by the vendor child): the driver and device properties through ze_api.h's
 * layouts, a driver with no device, zeInit failing as the loader does without a GPU driver,
 * a permission refusal, a library that is missing or not a Level Zero loader, a hang and a
 * crash. The helpers: vendor-test-util.c.
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

/* An Arc A770 (PCI 8086:56a0, 16 GiB) beside the iGPU of its CPU (no local memory). */
static const char arc_and_igpu[] =
	"[levelzero]\ndriver_version = 17002962\napi_version = 1.3\n"
	"[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
	"vendor_id = 32902\ndevice_id = 22176\nmemory_total_mib = 16288\n"
	"[levelzero.device.1]\nname = Intel(R) UHD Graphics 770\n"
	"vendor_id = 32902\ndevice_id = 18056\nintegrated = 1\n";

static json_t *levelzero(unsigned timeout_ms, char **ret_failure)
{
	return session_tree(vendor_levelzero_start, fake("libze_loader.so.1"), timeout_ms,
			    ret_failure);
}

static void test_values(void **state)
{
	json_t *t;

	(void)state;
	set_scenario(arc_and_igpu);
	t = levelzero(10000, NULL);
	assert_str(t, "library", fake("libze_loader.so.1"));
	assert_str(t, "init", "ZE_RESULT_SUCCESS");
	assert_fact(t, "init", "present", "levelzero:zeInit");
	assert_int(t, "driver_count", 1);
	assert_str(t, "drivers.0.api_version", "1.3");
	assert_int(t, "drivers.0.driver_version", 17002962);
	assert_fact(t, "drivers.0.driver_version", "present", "levelzero:zeDriverGetProperties");
	assert_int(t, "drivers.0.device_count", 2);
	assert_int(t, "device_count", 2);
	assert_str(t, "devices.0.name", "Intel(R) Arc(TM) A770 Graphics");
	assert_fact(t, "devices.0.name", "present", "levelzero:zeDeviceGetProperties");
	assert_str(t, "devices.0.type", "GPU");
	assert_int(t, "devices.0.vendor_id", 0x8086);
	assert_int(t, "devices.0.device_id", 0x56a0);
	assert_int(t, "devices.0.driver", 0);
	assert_int(t, "devices.0.memory_total_mib", 16288);
	assert_str(t, "devices.1.name", "Intel(R) UHD Graphics 770");
	/* the iGPU has no device-local memory: absent, said why, never 0 MiB */
	assert_error_contains(t, "devices.1.memory_total_mib", "absent", "no device-local memory");
	json_decref(t);
}

static void test_no_devices(void **state)
{
	json_t *t;

	(void)state;
	/* a driver loaded but listing no device */
	set_scenario("[levelzero]\ndevice_count = 0\n");
	t = levelzero(10000, NULL);
	assert_str(t, "init", "ZE_RESULT_SUCCESS");
	assert_int(t, "driver_count", 1);
	assert_int(t, "device_count", 0);
	assert_int(t, "drivers.0.device_count", 0);
	json_decref(t);
}

static void test_errors(void **state)
{
	json_t *t;

	(void)state;
	/* zeInit fails as the loader does with no GPU driver: everything after it unprobed */
	set_scenario("[levelzero]\nerror.zeInit = ZE_RESULT_ERROR_UNINITIALIZED\n");
	t = levelzero(10000, NULL);
	assert_error_contains(t, "init", "error", "ZE_RESULT_ERROR_UNINITIALIZED (0x78000001)");
	assert_error_contains(t, "devices", "unprobed", "zeInit failed");
	assert_error_contains(t, "driver_count", "unprobed", "zeInit failed");
	json_decref(t);

	/* /dev/dri/renderD* not open to the user: unreadable, not "error" */
	set_scenario("[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
		     "error.zeDeviceGetMemoryProperties = "
		     "ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS\n");
	t = levelzero(10000, NULL);
	assert_error_contains(t, "devices.0.memory_total_mib", "unreadable",
			      "ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS");
	assert_str(t, "devices.0.name", "Intel(R) Arc(TM) A770 Graphics");
	json_decref(t);
}

static void test_bad_libraries(void **state)
{
	struct vendor_req req = { .library = "/nonexistent/libze_loader.so.1",
				  .timeout_ms = 10000 };
	struct vendor_result r;

	(void)state;
	assert_int_equal(vendor_run(vendor_levelzero_start, &req, &r), 0);
	assert_null(r.failure);
	assert_fact(r.tree, "library", "absent", "levelzero:dlopen");
	assert_fact(r.tree, "init", "unprobed", "levelzero:dlopen");
	vendor_result_done(&r);

	req.library = fake("libamd_smi.so");
	assert_int_equal(vendor_run(vendor_levelzero_start, &req, &r), 0);
	assert_error_contains(r.tree, "init", "error", "not a Level Zero loader");
	vendor_result_done(&r);
}

static void test_hang(void **state)
{
	struct vendor_req req = { .library = fake("libze_loader.so.1"), .timeout_ms = 1500 };
	struct vendor_result r;

	(void)state;
	set_scenario("[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
		     "hang.zeDeviceGetMemoryProperties = 1\n");
	assert_int_equal(vendor_run(vendor_levelzero_start, &req, &r), 0);
	assert_non_null(r.failure);
	assert_non_null(
		strstr(r.failure, "timed out after 1500 ms in zeDeviceGetMemoryProperties"));
	/* what came before the hang survives */
	assert_str(r.tree, "devices.0.name", "Intel(R) Arc(TM) A770 Graphics");
	assert_error_contains(r.tree, "devices.0.memory_total_mib", "error", "timed out");
	vendor_result_done(&r);
}

static void test_crash(void **state)
{
	char *failure = NULL;
	json_t *t;

	(void)state;
	set_scenario("[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
		     "crash.zeDeviceGetProperties = SIGSEGV\n");
	t = levelzero(10000, &failure);
	assert_non_null(failure);
	assert_string_equal(failure,
			    "the vendor library crashed: SIGSEGV in zeDeviceGetProperties");
	assert_int(t, "drivers.0.device_count", 1);
	assert_error_contains(t, "devices.0.name", "error", "crashed: SIGSEGV");
	free(failure);
	json_decref(t);
}

static void test_error_names(void **state)
{
	(void)state;
	assert_string_equal(vendor_levelzero_error_name(0x78000001u),
			    "ZE_RESULT_ERROR_UNINITIALIZED");
	assert_string_equal(vendor_levelzero_error_name(0x7ffffffeu), "ZE_RESULT_ERROR_UNKNOWN");
	assert_null(vendor_levelzero_error_name(12345));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),	    cmocka_unit_test(test_no_devices),
		cmocka_unit_test(test_errors),	    cmocka_unit_test(test_bad_libraries),
		cmocka_unit_test(test_hang),	    cmocka_unit_test(test_crash),
		cmocka_unit_test(test_error_names),
	};
	int r = vendor_test_init();

	if (r != 0)
		return r;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	vendor_test_done();
	return r;
}
