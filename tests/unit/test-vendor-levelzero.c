// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the Level Zero session (src/vendor/levelzero.c) against the fake
 * libze_loader.so.1 of tests/fakes/ (scenario written here, named by GPUENV_FAKE_SCENARIO,
 * inherited by the vendor child): the driver and device properties through ze_api.h's
 * layouts, a driver with no device, zeInit failing as the loader does without a GPU driver,
 * a permission refusal, a library that is missing or not a Level Zero loader, a hang and a
 * crash; Sysman's readings (temperatures, energy, memory used, RAS totals), tied to the core
 * devices by uuid, on the device or summed over its tiles, and each failure kept on its GPU. The helpers: vendor-test-util.c.
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

/* The A770 with Sysman readings; the iGPU has none but a system-memory module. */
static const char arc_sysman[] =
	"[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
	"memory_total_mib = 16288\nmemory_free_mib = 15264\n"
	"temperature_global_c = 48.6\ntemperature_gpu_c = 47.2\ntemperature_memory_c = 40\n"
	"energy_uj = 123456789012\nras_correctable = 7\nras_uncorrectable = 0\n"
	"[levelzero.device.1]\nname = Intel(R) UHD Graphics 770\nintegrated = 1\n";

static void test_sysman(void **state)
{
	json_t *t;

	(void)state;
	set_scenario(arc_sysman);
	t = levelzero(10000, NULL);
	assert_str(t, "sysman", "ZE_RESULT_SUCCESS");
	assert_fact(t, "sysman", "present", "levelzero:zesInit");
	/* the fake lists Sysman devices in reverse: matched by uuid, not by position */
	assert_int(t, "devices.0.temperature_global_c", 49);
	assert_int(t, "devices.0.temperature_gpu_c", 47);
	assert_fact(t, "devices.0.temperature_gpu_c", "present",
		    "levelzero:zesTemperatureGetState");
	assert_int(t, "devices.0.temperature_memory_c", 40);
	assert_int(t, "devices.0.energy_uj", 123456789012);
	assert_fact(t, "devices.0.energy_uj", "present", "levelzero:zesPowerGetEnergyCounter");
	assert_int(t, "devices.0.memory_used_bytes", 1024ll << 20);
	assert_int(t, "devices.0.ras_correctable", 7);
	assert_int(t, "devices.0.ras_uncorrectable", 0);
	/* the iGPU: no sensor, no domain, no set said as such; system memory is not counted */
	assert_error_contains(t, "devices.1.temperature_gpu_c", "absent", "no such temperature");
	assert_error_contains(t, "devices.1.energy_uj", "absent", "no power domain");
	assert_error_contains(t, "devices.1.memory_used_bytes", "absent",
			      "no device-local memory module");
	assert_error_contains(t, "devices.1.ras_uncorrectable", "absent", "no RAS error set");
	json_decref(t);

	/* a two-tile device with its handles on the tiles only: hottest tile, summed counters */
	set_scenario("[levelzero.device.0]\nname = Intel(R) Data Center GPU Max 1550\n"
		     "subdevices = 2\ntemperature_gpu_c = 60\nenergy_uj = 1000\n"
		     "memory_total_mib = 65536\nmemory_free_mib = 65024\nras_uncorrectable = 3\n");
	t = levelzero(10000, NULL);
	assert_int(t, "devices.0.temperature_gpu_c", 61);
	assert_int(t, "devices.0.energy_uj", 2000);
	assert_int(t, "devices.0.memory_used_bytes", 1024ll << 20);
	assert_int(t, "devices.0.ras_uncorrectable", 6);
	json_decref(t);
}

static void test_sysman_errors(void **state)
{
	json_t *t;

	(void)state;
	/* RAS needs root on most systems: unreadable on that key of that GPU, the rest read */
	set_scenario("[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
		     "temperature_gpu_c = 50\nras_correctable = 1\nras_uncorrectable = 1\n"
		     "error.zesRasGetState = ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS\n"
		     "error.zesDeviceEnumPowerDomains = ZE_RESULT_ERROR_UNSUPPORTED_FEATURE\n");
	t = levelzero(10000, NULL);
	assert_int(t, "devices.0.temperature_gpu_c", 50);
	assert_error_contains(t, "devices.0.ras_uncorrectable", "unreadable",
			      "ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS");
	assert_fact(t, "devices.0.ras_correctable", "unreadable", "levelzero:zesRasGetState");
	assert_error_contains(t, "devices.0.energy_uj", "unsupported",
			      "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE");
	assert_str(t, "devices.0.name", "Intel(R) Arc(TM) A770 Graphics");
	json_decref(t);

	/* one of two sensors failing: no maximum of the other alone */
	set_scenario("[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
		     "subdevices = 2\ntemperature_gpu_c = 50\n"
		     "error.zesTemperatureGetState#2 = ZE_RESULT_ERROR_UNKNOWN\n");
	t = levelzero(10000, NULL);
	assert_error_contains(t, "devices.0.temperature_gpu_c", "error",
			      "ZE_RESULT_ERROR_UNKNOWN (0x7ffffffe)");
	json_decref(t);

	/* zesInit failing: the core facts stay, the Sysman ones unprobed with the reason */
	set_scenario("[levelzero]\nerror.zesInit = ZE_RESULT_ERROR_UNSUPPORTED_FEATURE\n"
		     "[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
		     "temperature_gpu_c = 50\n");
	t = levelzero(10000, NULL);
	assert_error_contains(t, "sysman", "unsupported", "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE");
	assert_error_contains(t, "devices.0.temperature_gpu_c", "unprobed", "zesInit failed");
	assert_str(t, "devices.0.name", "Intel(R) Arc(TM) A770 Graphics");
	json_decref(t);

	/* a Sysman device that is none of the core ones: absent, never another GPU's reading */
	set_scenario("[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
		     "temperature_gpu_c = 50\nsysman_uuid = other\n");
	t = levelzero(10000, NULL);
	assert_error_contains(t, "devices.0.temperature_gpu_c", "absent", "no Sysman device");
	json_decref(t);

	/* a Sysman device that cannot be identified: unprobed, not absent */
	set_scenario(
		"[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
		"temperature_gpu_c = 50\nerror.zesDeviceGetProperties = ZE_RESULT_ERROR_UNKNOWN\n");
	t = levelzero(10000, NULL);
	assert_error_contains(t, "devices.0.temperature_gpu_c", "unprobed",
			      "could not be read in full");
	json_decref(t);
}

static void test_sysman_hang(void **state)
{
	struct vendor_req req = { .library = fake("libze_loader.so.1"), .timeout_ms = 1500 };
	struct vendor_result r;

	(void)state;
	set_scenario("[levelzero.device.0]\nname = Intel(R) Arc(TM) A770 Graphics\n"
		     "temperature_gpu_c = 50\nhang.zesPowerGetEnergyCounter = 1\nenergy_uj = 1\n");
	assert_int_equal(vendor_run(vendor_levelzero_start, &req, &r), 0);
	assert_non_null(r.failure);
	assert_non_null(strstr(r.failure, "timed out after 1500 ms in zesPowerGetEnergyCounter"));
	assert_str(r.tree, "devices.0.name", "Intel(R) Arc(TM) A770 Graphics");
	assert_error_contains(r.tree, "devices.0.energy_uj", "error", "timed out");
	vendor_result_done(&r);
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
		cmocka_unit_test(test_values),	      cmocka_unit_test(test_no_devices),
		cmocka_unit_test(test_errors),	      cmocka_unit_test(test_bad_libraries),
		cmocka_unit_test(test_hang),	      cmocka_unit_test(test_crash),
		cmocka_unit_test(test_error_names),   cmocka_unit_test(test_sysman),
		cmocka_unit_test(test_sysman_errors), cmocka_unit_test(test_sysman_hang),
	};
	int r = vendor_test_init();

	if (r != 0)
		return r;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	vendor_test_done();
	return r;
}
