// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the AMD SMI session (src/vendor/amdsmi.c) against the fake libamd_smi.so of
 * tests/fakes/ (scenario written here, named by GPUENV_FAKE_SCENARIO, inherited by the vendor
 * child): the values and the prefix reads of the structures, a value the board lacks, and
 * every failure path: a library that is missing or not AMD SMI, amdsmi_init failing, a hang
 * and a crash. The helpers: vendor-test-util.c.
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

static const char two_gpus[] = "[amdsmi.device.0]\nbus_id = 0000:05:00.0\n"
			       "market_name = AMD Instinct MI300X\nvendor_id = 4098\n"
			       "driver_version = 6.7.0\nvram_total_mib = 196592\n"
			       "vram_used_mib = 283\ntemperature_edge_c = 41\n"
			       "temperature_hotspot_c = 52\necc_correctable = 3\n"
			       "ecc_uncorrectable = 0\necc_deferred = 1\n"
			       "energy_count = 65536000\nenergy_resolution_uj = 15.25\n"
			       "gfx_activity_pct = 87\numc_activity_pct = 40\n"
			       "[amdsmi.device.1]\nbus_id = 0000:15:00.0\n"
			       "market_name = AMD Instinct MI300X\nvendor_id = 4098\n"
			       "driver_version = 6.7.0\n";

static json_t *amdsmi(unsigned timeout_ms, char **ret_failure)
{
	return session_tree(vendor_amdsmi_start, fake("libamd_smi.so"), timeout_ms, ret_failure);
}

static void test_values(void **state)
{
	json_t *t;

	(void)state;
	set_scenario(two_gpus);
	t = amdsmi(10000, NULL);
	assert_str(t, "library", fake("libamd_smi.so"));
	assert_str(t, "init", "AMDSMI_STATUS_SUCCESS");
	assert_fact(t, "init", "present", "amdsmi:amdsmi_init");
	assert_int(t, "device_count", 2);
	assert_fact(t, "device_count", "present", "amdsmi:amdsmi_get_processor_handles");
	assert_str(t, "devices.0.bus_id", "0000:05:00.0");
	assert_str(t, "devices.1.bus_id", "0000:15:00.0");
	/* the prefix of the current asic_info layout: the name, and vendor_id right after it */
	assert_str(t, "devices.0.market_name", "AMD Instinct MI300X");
	assert_int(t, "devices.0.vendor_id", 0x1002);
	assert_str(t, "devices.0.driver_version", "6.7.0");
	assert_int(t, "devices.0.vram_total_mib", 196592);
	assert_int(t, "devices.0.vram_used_mib", 283);
	assert_int(t, "devices.0.temperature_edge_c", 41);
	assert_int(t, "devices.0.temperature_hotspot_c", 52);
	assert_int(t, "devices.0.ecc_correctable", 3);
	assert_int(t, "devices.0.ecc_uncorrectable", 0);
	assert_int(t, "devices.0.ecc_deferred", 1);
	/* the accumulator times its resolution, in microjoules */
	assert_int(t, "devices.0.energy_uj", 999424000);
	assert_fact(t, "devices.0.energy_uj", "present", "amdsmi:amdsmi_get_energy_count");
	assert_int(t, "devices.0.gfx_activity_pct", 87);
	assert_int(t, "devices.0.umc_activity_pct", 40);
	/* 65535 is the library's "cannot read this engine", not a percentage */
	assert_error_contains(t, "devices.0.mm_activity_pct", "unsupported", "65535");
	assert_error_contains(t, "devices.1.energy_uj", "unsupported",
			      "AMDSMI_STATUS_NOT_SUPPORTED");
	/* what the second board does not report: NOT_SUPPORTED, the code and text kept */
	assert_error_contains(t, "devices.1.vram_total_mib", "unsupported",
			      "AMDSMI_STATUS_NOT_SUPPORTED (2): Command not supported");
	assert_error_contains(t, "devices.1.ecc_uncorrectable", "unsupported",
			      "AMDSMI_STATUS_NOT_SUPPORTED");
	json_decref(t);
}

static void test_errors(void **state)
{
	json_t *t;

	(void)state;
	/* amdsmi_init fails (no amdgpu, /dev/kfd not readable): everything after it unprobed */
	set_scenario("[amdsmi]\nerror.amdsmi_init = AMDSMI_STATUS_DRIVER_NOT_LOADED\n");
	t = amdsmi(10000, NULL);
	assert_error_contains(t, "init", "error",
			      "AMDSMI_STATUS_DRIVER_NOT_LOADED (34): Processor driver not loaded");
	assert_error_contains(t, "devices", "unprobed", "amdsmi_init failed");
	assert_error_contains(t, "device_count", "unprobed", "amdsmi_init failed");
	json_decref(t);

	/* permission: unreadable, not "error" */
	set_scenario("[amdsmi.device.0]\nbus_id = 0000:05:00.0\n"
		     "error.amdsmi_get_gpu_total_ecc_count = AMDSMI_STATUS_NO_PERM\n");
	t = amdsmi(10000, NULL);
	assert_error_contains(t, "devices.0.ecc_correctable", "unreadable", "NO_PERM (10)");
	assert_str(t, "devices.0.bus_id", "0000:05:00.0");
	json_decref(t);
}

static void test_bad_libraries(void **state)
{
	struct vendor_req req = { .library = "/nonexistent/libamd_smi.so", .timeout_ms = 10000 };
	struct vendor_result r;

	(void)state;
	assert_int_equal(vendor_run(vendor_amdsmi_start, &req, &r), 0);
	assert_null(r.failure);
	assert_fact(r.tree, "library", "absent", "amdsmi:dlopen");
	assert_fact(r.tree, "init", "unprobed", "amdsmi:dlopen");
	vendor_result_done(&r);

	req.library = fake("libnvidia-ml.so.1");
	assert_int_equal(vendor_run(vendor_amdsmi_start, &req, &r), 0);
	assert_error_contains(r.tree, "init", "error", "not an AMD SMI library");
	vendor_result_done(&r);
}

static void test_hang(void **state)
{
	struct vendor_req req = { .library = fake("libamd_smi.so"), .timeout_ms = 1500 };
	struct vendor_result r;

	(void)state;
	set_scenario("[amdsmi.device.0]\nbus_id = 0000:05:00.0\n"
		     "hang.amdsmi_get_gpu_vram_usage = 1\n");
	assert_int_equal(vendor_run(vendor_amdsmi_start, &req, &r), 0);
	assert_non_null(r.failure);
	assert_non_null(strstr(r.failure, "timed out after 1500 ms in amdsmi_get_gpu_vram_usage"));
	/* what came before the hang survives */
	assert_str(r.tree, "devices.0.bus_id", "0000:05:00.0");
	assert_error_contains(r.tree, "devices.0.vram_total_mib", "error", "timed out");
	vendor_result_done(&r);
}

static void test_crash(void **state)
{
	char *failure = NULL;
	json_t *t;

	(void)state;
	set_scenario("[amdsmi.device.0]\nbus_id = 0000:05:00.0\n"
		     "crash.amdsmi_get_gpu_asic_info = SIGSEGV\n");
	t = amdsmi(10000, &failure);
	assert_non_null(failure);
	assert_string_equal(failure,
			    "the vendor library crashed: SIGSEGV in amdsmi_get_gpu_asic_info");
	assert_str(t, "devices.0.bus_id", "0000:05:00.0");
	assert_error_contains(t, "devices.0.market_name", "error", "crashed: SIGSEGV");
	free(failure);
	json_decref(t);
}

static void test_error_names(void **state)
{
	(void)state;
	assert_string_equal(vendor_amdsmi_error_name(34), "AMDSMI_STATUS_DRIVER_NOT_LOADED");
	assert_string_equal(vendor_amdsmi_error_name(0xFFFFFFFFu), "AMDSMI_STATUS_UNKNOWN_ERROR");
	assert_null(vendor_amdsmi_error_name(12345));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),	      cmocka_unit_test(test_errors),
		cmocka_unit_test(test_bad_libraries), cmocka_unit_test(test_hang),
		cmocka_unit_test(test_crash),	      cmocka_unit_test(test_error_names),
	};
	int r = vendor_test_init();

	if (r != 0)
		return r;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	vendor_test_done();
	return r;
}
