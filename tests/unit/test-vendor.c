// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of src/vendor/: the child protocol folding (session.c) and whole NVML, CUDA and
 * OpenCL sessions against the fake libraries of tests/fakes/ (scenario written here, named by
 * GPUENV_FAKE_SCENARIO, inherited by the vendor child): values, versioned-name fallbacks,
 * every failure path (missing or wrong library, error codes, a hang, a crash); and the
 * libraries loaded on first use (dl_lazy: libzip), including one that is missing or lacks a
 * function. A hostile library and the sandbox: test-vendor-sandbox.c; the helpers both
 * share: vendor-test-util.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpuenv/gpuenv.h"
#include "vendor/lazy-nettle.h"
#include "vendor/lazy-zip.h"
#include "vendor/sandbox.h"
#include "vendor/session.h"
#include "vendor/vendor.h"
#include "vendor-test-util.h"

/* ---- protocol folding ------------------------------------------------------------ */

static void test_fold(void **state)
{
	static const char text[] =
		"{\"k\":\"library\",\"c\":\"dlopen\",\"s\":\"present\",\"v\":\"/x/"
		"libnvidia-ml.so.1\"}\n"
		"not json\n"
		"{\"k\":\"devices\",\"c\":\"-\",\"s\":\"present\",\"a\":true}\n"
		"{\"k\":\"devices.0.index\",\"c\":\"nvmlDeviceGetHandleByIndex_v2\",\"s\":"
		"\"present\",\"v\":0}\n"
		"{\"k\":\"devices.2.index\",\"c\":\"f\",\"s\":\"present\",\"v\":2}\n" /* gap */
		"{\"k\":\"devices.0\",\"c\":\"f\",\"s\":\"present\",\"v\":1}\n" /* fact in array */
		"{\"k\":\"devices\",\"c\":\"f\",\"s\":\"present\",\"v\":1}\n"	/* fact over subtree
										 */
		"{\"k\":\"x\",\"c\":\"f\",\"s\":\"bogus\"}\n"			/* bad state */
		"{\"k\":\"y\",\"c\":\"f\",\"s\":\"error\",\"v\":1}\n"		/* value on error */
		"{\"k\":\"z\",\"c\":\"f\",\"s\":\"present\",\"v\":[1]}\n"	/* array value */
		"{\"k\":\"0\",\"c\":\"f\",\"s\":\"present\",\"v\":1}\n"		/* index at top */
		"{\"k\":\"a.b.c.d.e.f.g.h.i\",\"c\":\"f\",\"s\":\"present\",\"v\":1}\n" /* too deep
											 */
		"{\"k\":\"devices.0.name\",\"c\":\"nvmlDeviceGetName\",\"s\":\"unsupported\",\"e\":"
		"\"no\"}\n"
		"{\"b\":\"nvmlDeviceGetUUID\",\"k\":\"devices.0.uuid\"}\n"
		"{\"k\":\"cut\",\"c\":\"f\",\"s\":\"pres"; /* no newline */
	json_t *tree = json_object();
	char *pkey = NULL, *pcall = NULL;
	int bad = vendor_fold(text, strlen(text), "nvml:", tree, &pkey, &pcall);

	assert_int_equal(bad, 9);
	assert_str(tree, "library", "/x/libnvidia-ml.so.1");
	assert_fact(tree, "library", "present", "nvml:dlopen");
	assert_int_equal(json_array_size(jget(tree, "devices")), 1);
	assert_int(tree, "devices.0.index", 0);
	assert_fact(tree, "devices.0.name", "unsupported", "nvml:nvmlDeviceGetName");
	assert_null(jget(tree, "x"));
	assert_null(jget(tree, "cut"));
	assert_string_equal(pkey, "devices.0.uuid");
	assert_string_equal(pcall, "nvmlDeviceGetUUID");
	free(pkey);
	free(pcall);
	json_decref(tree);
}

/* ---- NVML -------------------------------------------------------------------------- */

static const char healthy[] = "[nvml]\n"
			      "driver_version = 550.54.15\n"
			      "nvml_version = 12.550.54.15\n"
			      "cuda_driver_version = 12040\n"
			      "[nvml.device.0]\n"
			      "name = NVIDIA H100 80GB HBM3\n"
			      "uuid = GPU-4c2f8a31-9d6e-4b57-a1c0-2e8f6d3b9a10\n"
			      "pci_bus_id = 00000000:18:00.0\n"
			      "pci_device_id = 0x233010DE\n"
			      "memory_total = 85520809984\n"
			      "memory_reserved = 577765376\n"
			      "memory_used = 1048576\n"
			      "compute_capability = 9.0\n"
			      "architecture = 9\n"
			      "persistence_mode = 1\n"
			      "mig_mode = 0\n"
			      "ecc_mode = 1\n"
			      "nvlink_links = 18\n"
			      "nvlink_inactive = 5,17\n"
			      "[nvml.device.1]\n"
			      "name = NVIDIA H100 80GB HBM3\n"
			      "pci_bus_id = 00000000:2A:00.0\n"
			      "architecture = 42\n";

static void test_nvml_values(void **state)
{
	json_t *t;

	set_scenario(healthy);
	t = nvml(fake("libnvidia-ml.so.1"), 10000, NULL);
	assert_str(t, "library", fake("libnvidia-ml.so.1"));
	assert_str(t, "init", "NVML_SUCCESS");
	assert_fact(t, "init", "present", "nvml:nvmlInit_v2");
	assert_str(t, "nvml_version", "12.550.54.15");
	assert_str(t, "driver_version", "550.54.15");
	assert_str(t, "cuda_driver_version", "12.4");
	assert_fact(t, "cuda_driver_version", "present", "nvml:nvmlSystemGetCudaDriverVersion_v2");
	assert_int(t, "device_count", 2);
	assert_fact(t, "device_count", "present", "nvml:nvmlDeviceGetCount_v2");
	assert_int(t, "devices.0.index", 0);
	assert_str(t, "devices.0.name", "NVIDIA H100 80GB HBM3");
	assert_str(t, "devices.0.pci_bus_id", "00000000:18:00.0");
	assert_fact(t, "devices.0.pci_bus_id", "present", "nvml:nvmlDeviceGetPciInfo_v3");
	assert_str(t, "devices.0.pci_device_id", "0x2330");
	assert_int(t, "devices.0.memory_total_mib", 81559);
	assert_int(t, "devices.0.memory_reserved_mib", 551);
	assert_int(t, "devices.0.memory_used_mib", 1);
	assert_fact(t, "devices.0.memory_total_mib", "present", "nvml:nvmlDeviceGetMemoryInfo_v2");
	assert_str(t, "devices.0.compute_capability", "9.0");
	assert_str(t, "devices.0.architecture", "Hopper");
	assert_true(json_is_true(jget(t, "devices.0.persistence_mode.value")));
	assert_true(json_is_false(jget(t, "devices.0.mig_mode.value")));
	assert_true(json_is_true(jget(t, "devices.0.ecc_mode.value")));
	assert_true(json_is_true(jget(t, "devices.0.ecc_mode_pending.value")));
	assert_int_equal(json_array_size(jget(t, "devices.0.nvlink")), 18);
	assert_true(json_is_false(jget(t, "devices.0.nvlink.5.active.value")));
	assert_true(json_is_true(jget(t, "devices.0.nvlink.6.active.value")));
	assert_int(t, "devices.0.nvlink.17.link", 17);
	/* A value the board lacks: NOT_SUPPORTED, with the code kept. */
	assert_error_contains(t, "devices.0.temperature_c", "unsupported",
			      "NVML_ERROR_NOT_SUPPORTED (3): Not Supported");
	assert_fact(t, "devices.1.nvlink", "unsupported", "nvml:nvmlDeviceGetNvLinkState");
	assert_error_contains(t, "devices.1.architecture", "malformed", "value 42");
	json_decref(t);
}

static void test_nvml_old_library(void **state)
{
	json_t *t;

	set_scenario(healthy);
	t = nvml(fake("old/libnvidia-ml.so.1"), 10000, NULL);
	/* Only unversioned names: every fallback taken, and the source says which. */
	assert_fact(t, "init", "present", "nvml:nvmlInit");
	assert_fact(t, "device_count", "present", "nvml:nvmlDeviceGetCount");
	assert_fact(t, "devices.0.index", "present", "nvml:nvmlDeviceGetHandleByIndex");
	assert_fact(t, "cuda_driver_version", "present", "nvml:nvmlSystemGetCudaDriverVersion");
	assert_fact(t, "devices.0.pci_bus_id", "present", "nvml:nvmlDeviceGetPciInfo_v2");
	/* v1 memory: "used" includes what the driver reserved, no reserved figure. */
	assert_int(t, "devices.0.memory_total_mib", 81559);
	assert_int(t, "devices.0.memory_used_mib", 552);
	assert_fact(t, "devices.0.memory_reserved_mib", "unsupported", NULL);
	json_decref(t);
}

static void test_nvml_errors(void **state)
{
	json_t *t;

	/* No [nvml] driver: the real 535 library's answer without a kernel module. */
	set_scenario("[other]\n");
	t = nvml(fake("libnvidia-ml.so.1"), 10000, NULL);
	assert_error_contains(t, "init", "error",
			      "NVML_ERROR_DRIVER_NOT_LOADED (9): Driver Not Loaded");
	assert_str(t, "nvml_version", "12.535.261.03");
	assert_error_contains(t, "driver_version", "unprobed", "not called: nvmlInit_v2 failed");
	assert_fact(t, "devices", "unprobed", "nvml:nvmlInit_v2");
	json_decref(t);

	set_scenario("[nvml]\n"
		     "driver_version = 550.54.15\n"
		     "error.nvmlSystemGetCudaDriverVersion_v2 = 28\n"
		     "[nvml.device.0]\n"
		     "name = A\n"
		     "error.nvmlDeviceGetSerial = NVML_ERROR_NO_PERMISSION\n"
		     "error.nvmlDeviceGetUUID = NVML_ERROR_CORRUPTED_INFOROM\n"
		     "error.nvmlDeviceGetNvLinkState.3 = NVML_ERROR_UNKNOWN\n"
		     "nvlink_links = 4\n"
		     "[nvml.device.1]\n"
		     "error.nvmlDeviceGetHandleByIndex_v2 = NVML_ERROR_GPU_IS_LOST\n"
		     "[nvml.device.2]\n"
		     "name = C\n");
	t = nvml(fake("libnvidia-ml.so.1"), 10000, NULL);
	/* The 535 library says "Unknown Error" for 28: our own text is used. */
	assert_error_contains(t, "cuda_driver_version", "error",
			      "NVML_ERROR_GPU_NOT_FOUND (28): No GPUs were found");
	assert_error_contains(t, "devices.0.serial", "unreadable", "NVML_ERROR_NO_PERMISSION (4)");
	assert_error_contains(t, "devices.0.uuid", "error", "NVML_ERROR_CORRUPTED_INFOROM (14)");
	assert_true(json_is_true(jget(t, "devices.0.nvlink.2.active.value")));
	assert_error_contains(t, "devices.0.nvlink.3.active", "error", "NVML_ERROR_UNKNOWN (999)");
	assert_error_contains(t, "devices.1.index", "error",
			      "NVML_ERROR_GPU_IS_LOST (15): GPU is lost");
	assert_fact(t, "devices.1.index", "error", "nvml:nvmlDeviceGetHandleByIndex_v2");
	assert_null(jget(t, "devices.1.name"));
	/* A lost GPU does not stop the others. */
	assert_str(t, "devices.2.name", "C");
	json_decref(t);
}

/* Health and telemetry: clocks event reasons, thresholds, the HBM temperature (a field
 * value), clocks, ECC counters, retired pages, replays and the process lists, through the
 * versioned names and, on an old library, the older names and the 16-byte process entries. */
static const char health[] =
	"[nvml]\n"
	"driver_version = 550.54.15\n"
	"[nvml.process.4242]\n"
	"name = python3\n"
	"[nvml.device.0]\n"
	"name = NVIDIA H100 80GB HBM3\n"
	"clocks_event_reasons = 0x48\n"
	"temperature = 90\n"
	"temperature_slowdown = 89\n"
	"temperature_shutdown = 92\n"
	"temperature_memory = 77\n"
	"clock_sm = 1410\n"
	"clock_sm_max = 1980\n"
	"clock_mem = 2619\n"
	"pstate = 0\n"
	"ecc_uncorrected_volatile = 2\n"
	"ecc_uncorrected_aggregate = 5\n"
	"retired_pages_dbe = 3\n"
	"pcie_replay_counter = 120\n"
	"pcie_replay_step = 3\n"
	"compute_processes = 4242 17179869184 1 0, 4243 na\n"
	"graphics_processes =\n"
	"[nvml.device.1]\n"
	"name = B\n"
	"error.nvmlDeviceGetTemperatureThreshold = NVML_ERROR_GPU_IS_LOST\n"
	"error.nvmlDeviceGetFieldValues = NVML_ERROR_NO_PERMISSION\n"
	"error.nvmlDeviceGetComputeRunningProcesses_v3 = NVML_ERROR_GPU_IS_LOST\n";

static void test_nvml_health(void **state)
{
	json_t *t;

	set_scenario(health);
	t = nvml(fake("libnvidia-ml.so.1"), 10000, NULL);
	assert_int(t, "devices.0.clocks_event_reasons", 0x48);
	assert_fact(t, "devices.0.clocks_event_reasons", "present",
		    "nvml:nvmlDeviceGetCurrentClocksEventReasons");
	assert_int(t, "devices.0.temperature_c", 90);
	assert_int(t, "devices.0.temperature_slowdown_c", 89);
	assert_int(t, "devices.0.temperature_shutdown_c", 92);
	assert_fact(t, "devices.0.temperature_gpu_max_c", "unsupported",
		    "nvml:nvmlDeviceGetTemperatureThreshold");
	assert_int(t, "devices.0.temperature_memory_c", 77);
	assert_int(t, "devices.0.clock_sm_mhz", 1410);
	assert_int(t, "devices.0.clock_sm_max_mhz", 1980);
	assert_int(t, "devices.0.clock_memory_mhz", 2619);
	assert_fact(t, "devices.0.clock_graphics_mhz", "unsupported", NULL);
	assert_int(t, "devices.0.performance_state", 0);
	assert_int(t, "devices.0.ecc_errors_uncorrected_volatile", 2);
	assert_int(t, "devices.0.ecc_errors_uncorrected_aggregate", 5);
	assert_fact(t, "devices.0.ecc_errors_corrected_volatile", "unsupported", NULL);
	/* Asked with a count of 0: INSUFFICIENT_SIZE carries the count. */
	assert_int(t, "devices.0.retired_pages_dbe", 3);
	assert_fact(t, "devices.0.retired_pages_sbe", "unsupported", NULL);
	assert_int(t, "devices.0.pcie_replay_counter", 120);
	/* Read again at the end of the session, with the interval between the two. */
	assert_int(t, "devices.0.pcie_replay_counter_again", 123);
	assert_fact(t, "devices.0.pcie_replay_interval_ms", "present", NULL);
	assert_null(jget(t, "devices.1.pcie_replay_counter_again"));
	assert_int_equal(json_array_size(jget(t, "devices.0.compute_processes")), 2);
	assert_int(t, "devices.0.compute_processes.0.pid", 4242);
	assert_str(t, "devices.0.compute_processes.0.name", "python3");
	assert_int(t, "devices.0.compute_processes.0.used_memory_mib", 16384);
	assert_int(t, "devices.0.compute_processes.0.gpu_instance_id", 1);
	assert_int(t, "devices.0.compute_processes.0.compute_instance_id", 0);
	/* No name for the pid, memory not accounted, not in a MIG instance. */
	assert_error_contains(t, "devices.0.compute_processes.1.name", "error",
			      "NVML_ERROR_NOT_FOUND (6)");
	assert_error_contains(t, "devices.0.compute_processes.1.used_memory_mib", "unsupported",
			      "NVML_VALUE_NOT_AVAILABLE");
	assert_null(jget(t, "devices.0.compute_processes.1.gpu_instance_id"));
	assert_int_equal(json_array_size(jget(t, "devices.0.graphics_processes")), 0);
	/* Failures are states of their facts, never the end of the device. */
	assert_error_contains(t, "devices.1.temperature_slowdown_c", "error",
			      "NVML_ERROR_GPU_IS_LOST (15)");
	assert_error_contains(t, "devices.1.temperature_memory_c", "unreadable",
			      "NVML_ERROR_NO_PERMISSION (4)");
	assert_error_contains(t, "devices.1.compute_processes", "error",
			      "NVML_ERROR_GPU_IS_LOST (15)");
	assert_str(t, "devices.1.name", "B");
	json_decref(t);

	t = nvml(fake("old/libnvidia-ml.so.1"), 10000, NULL);
	assert_int(t, "devices.0.clocks_event_reasons", 0x48);
	assert_fact(t, "devices.0.clocks_event_reasons", "present",
		    "nvml:nvmlDeviceGetCurrentClocksThrottleReasons");
	/* 16-byte entries read as such: the second pid is not garbage. */
	assert_int(t, "devices.0.compute_processes.0.pid", 4242);
	assert_int(t, "devices.0.compute_processes.0.used_memory_mib", 16384);
	assert_int(t, "devices.0.compute_processes.1.pid", 4243);
	assert_null(jget(t, "devices.0.compute_processes.0.gpu_instance_id"));
	json_decref(t);
}

/* MIG: the MIG devices that exist (empty slots skipped), their UUIDs and instance ids; a
 * failing handle call is recorded on mig_devices, never taken as "no MIG device". */
static void test_nvml_mig(void **state)
{
	json_t *t;

	set_scenario("[nvml]\n"
		     "driver_version = 535.104.05\n"
		     "[nvml.device.0]\n"
		     "uuid = GPU-5a88edbe-90c4-2449-8c43-70c57591cca1\n"
		     "mig_mode = 1\n"
		     "[nvml.device.0.mig.0]\n"
		     "uuid = MIG-89c850dc-38e3-57df-85c7-690c186b68e9\n"
		     "gpu_instance_id = 1\n"
		     "compute_instance_id = 0\n"
		     "[nvml.device.0.mig.3]\n"
		     "uuid = MIG-f2b5fbbd-850e-51bb-8ffa-ac9fb48126da\n"
		     "gpu_instance_id = 2\n"
		     "compute_instance_id = 0\n"
		     "error.nvmlDeviceGetComputeInstanceId = NVML_ERROR_NO_PERMISSION\n"
		     "[nvml.device.1]\n"
		     "mig_mode = 0\n"
		     "[nvml.device.2]\n"
		     "mig_mode = 1\n"
		     "error.nvmlDeviceGetMigDeviceHandleByIndex = NVML_ERROR_UNKNOWN\n");
	t = nvml(fake("libnvidia-ml.so.1"), 10000, NULL);
	assert_true(json_is_true(jget(t, "devices.0.mig_mode.value")));
	assert_int(t, "devices.0.mig_device_count", 2);
	assert_str(t, "devices.0.mig_devices.0.uuid", "MIG-89c850dc-38e3-57df-85c7-690c186b68e9");
	assert_fact(t, "devices.0.mig_devices.0.uuid", "present", "nvml:nvmlDeviceGetUUID");
	assert_int(t, "devices.0.mig_devices.0.gpu_instance_id", 1);
	assert_int(t, "devices.0.mig_devices.0.compute_instance_id", 0);
	assert_str(t, "devices.0.mig_devices.1.uuid", "MIG-f2b5fbbd-850e-51bb-8ffa-ac9fb48126da");
	assert_int(t, "devices.0.mig_devices.1.gpu_instance_id", 2);
	assert_error_contains(t, "devices.0.mig_devices.1.compute_instance_id", "unreadable",
			      "NVML_ERROR_NO_PERMISSION (4)");
	/* MIG off: not asked. */
	assert_null(jget(t, "devices.1.mig_devices"));
	assert_null(jget(t, "devices.1.mig_device_count"));
	/* A failing call: the list is an error, not empty. */
	assert_error_contains(t, "devices.2.mig_devices", "error", "NVML_ERROR_UNKNOWN (999)");
	assert_null(jget(t, "devices.2.mig_device_count"));
	json_decref(t);
}

static void test_nvml_bad_libraries(void **state)
{
	json_t *t;

	t = nvml("/nonexistent/libnvidia-ml.so.1", 10000, NULL);
	assert_error_contains(t, "library", "absent", "No such file or directory");
	assert_fact(t, "library", "absent", "nvml:dlopen");
	assert_error_contains(t, "init", "unprobed", "not called: libnvidia-ml not loaded");
	json_decref(t);

	/* A real shared library that is not NVML (the fake libcuda). */
	t = nvml(fake("libcuda.so.1"), 10000, NULL);
	assert_str(t, "library", fake("libcuda.so.1"));
	assert_error_contains(t, "init", "error",
			      "not an NVML library: nvmlInit_v2 is not exported");
	assert_fact(t, "device_count", "unprobed", "nvml:dlsym");
	json_decref(t);

	/* Not an ELF file at all. */
	t = nvml(scenario, 10000, NULL);
	assert_fact(t, "library", "error", "nvml:dlopen");
	json_decref(t);
}

static void test_nvml_hang(void **state)
{
	/* Long enough for the start (three forks, the sandbox, the dlopen) on a loaded machine:
	 * the hang must be the call's, not the start's. */
	struct vendor_req req = { .library = fake("libnvidia-ml.so.1"), .timeout_ms = 1500 };
	struct vendor_result r;
	char want[128];

	set_scenario("[nvml]\ndriver_version = 550.54.15\n[nvml.device.0]\nname = A\n"
		     "hang.nvmlDeviceGetName = 1\n");
	assert_int_equal(vendor_run(vendor_nvml_start, &req, &r), 0);
	assert_true(r.elapsed_ms >= 1500 && r.elapsed_ms < 6000);
	assert_non_null(r.failure);
	snprintf(want, sizeof(want), "timed out after 1500 ms in nvmlDeviceGetName");
	assert_non_null(strstr(r.failure, want));
	/* What came before the hang survives; the hung call names the deadline. */
	assert_str(r.tree, "driver_version", "550.54.15");
	assert_int(r.tree, "devices.0.index", 0);
	assert_error_contains(r.tree, "devices.0.name", "error", want);
	vendor_result_done(&r);

	/* A hang in nvmlInit: every top-level fact records it. */
	set_scenario("[nvml]\ndriver_version = 550.54.15\nhang.nvmlInit_v2 = 1\n");
	assert_int_equal(vendor_run(vendor_nvml_start, &req, &r), 0);
	assert_error_contains(r.tree, "init", "error", "timed out after 1500 ms in nvmlInit_v2");
	assert_error_contains(r.tree, "device_count", "error", "not reached: timed out");
	assert_error_contains(r.tree, "devices", "error", "not reached: timed out");
	vendor_result_done(&r);
}

/* The snapshot's driver.nvml as a jansson object (the caller's reference). */
static json_t *nvml_of(struct gpuenv_snapshot *s)
{
	char *text = NULL;
	json_t *j, *nvml;

	assert_int_equal(gpuenv_snapshot_render(s, GPUENV_FORMAT_JSON, 0, &text), 0);
	j = json_loads(text, 0, NULL);
	free(text);
	assert_non_null(j);
	nvml = json_incref(json_object_get(json_object_get(j, "driver"), "nvml"));
	json_decref(j);
	assert_non_null(nvml);
	return nvml;
}

static struct gpuenv_snapshot *collect_sweep(unsigned flags, const char *sweep,
					     struct gpuenv_ctx **ret_ctx)
{
	struct gpuenv_ctx_opts o = {
		.sz = sizeof(o),
		.sysroot = GPUENV_TEST_SOURCE_ROOT "/tests/fixtures/nvml-gpu-lost/root",
		.nvml_lib = fake("libnvidia-ml.so.1"),
		.vendor_timeout_ms = 5000,
		.flags = GPUENV_CTX_GPU_SAMPLE | flags,
	};
	struct gpuenv_snapshot *s = NULL;

	assert_int_equal(gpuenv_ctx_new(&o, ret_ctx), 0);
	if (sweep)
		assert_int_equal(gpuenv_ctx_set_nvml_sweep(*ret_ctx, sweep, strlen(sweep)), 0);
	assert_int_equal(gpuenv_snapshot_collect(*ret_ctx, &s), 0);
	return s;
}

/*
 * gpuenv_ctx_nvml_sweep() and gpuenv_ctx_set_nvml_sweep() (`gpuenv exporter`'s diagnosis
 * judges its samples' sweep): a collection given another context's sweep has its facts as
 * they were, states and all (a lost GPU's error), and the sweep's time, not what a session of
 * its own would say (the scenario changed between); a collection whose gate does not allow
 * NVML ignores it; a collection that ran no NVML child (a restart held back by the backoff)
 * hands over nothing.
 */
static void test_nvml_sweep_handed_over(void **state)
{
	struct gpuenv_ctx *a = NULL, *b = NULL, *c = NULL;
	struct gpuenv_snapshot *sa, *sb, *sc;
	char *sweep = NULL;
	json_t *ja, *jb, *jc;

	set_scenario("[nvml]\ndriver_version = 550.54.15\n[nvml.device.0]\nname = A\n"
		     "[nvml.device.1]\nname = A\n"
		     "error.nvmlDeviceGetHandleByIndex_v2 = NVML_ERROR_GPU_IS_LOST\n");
	sa = collect_sweep(GPUENV_CTX_VENDOR_KEEP, NULL, &a);
	assert_int_equal(gpuenv_ctx_nvml_sweep(a, sa, &sweep), 0);
	assert_non_null(strstr(sweep, "\"session_sampled_at\""));
	set_scenario("[nvml]\ndriver_version = 560.35.03\n[nvml.device.0]\nname = B\n"
		     "[nvml.device.1]\nname = B\n");
	sb = collect_sweep(0, sweep, &b);
	ja = nvml_of(sa);
	jb = nvml_of(sb);
	assert_fact(jb, "session_sampled_at", "present", "nvml sample");
	assert_int_equal(json_object_del(jb, "session_sampled_at"), 0);
	assert_true(json_equal(ja, jb));
	assert_str(jb, "devices.0.name", "A");
	assert_error_contains(jb, "devices.1.index", "error", "NVML_ERROR_GPU_IS_LOST");
	json_decref(jb);
	gpuenv_snapshot_unref(sb);
	gpuenv_ctx_free(b);

	/* --no-vendor: the gate's facts, not the sweep */
	sc = collect_sweep(GPUENV_CTX_NO_VENDOR, sweep, &c);
	jc = nvml_of(sc);
	assert_null(json_object_get(jc, "session_sampled_at"));
	assert_string_equal(jstr(jc, "init", "state"), "unprobed");
	json_decref(jc);
	gpuenv_snapshot_unref(sc);
	gpuenv_ctx_free(c);
	free(sweep);
	sweep = NULL;
	json_decref(ja);
	gpuenv_snapshot_unref(sa);
	gpuenv_ctx_free(a);

	/* A child that crashes, then its restart held back (1 s): the first sweep is handed
	 * over with its failure, the held-back one is not. */
	set_scenario("[nvml]\ndriver_version = 550.54.15\ncrash.nvmlDeviceGetCount_v2 = SIGSEGV\n");
	sa = collect_sweep(GPUENV_CTX_VENDOR_KEEP, NULL, &a);
	assert_int_equal(gpuenv_ctx_nvml_sweep(a, sa, &sweep), 0);
	assert_non_null(strstr(sweep, "SIGSEGV"));
	free(sweep);
	gpuenv_snapshot_unref(sa);
	assert_int_equal(gpuenv_snapshot_collect(a, &sa), 0);
	assert_int_equal(gpuenv_ctx_nvml_sweep(a, sa, &sweep), -ENOENT);
	assert_int_equal(gpuenv_ctx_nvml_sweep(NULL, sa, &sweep), -EINVAL);
	assert_int_equal(gpuenv_ctx_set_nvml_sweep(NULL, "{}", 2), -EINVAL);
	assert_int_equal(gpuenv_ctx_set_nvml_sweep(a, NULL, 0), 0);
	gpuenv_snapshot_unref(sa);
	gpuenv_ctx_free(a);
}

/* vendor_settle() (GPUENV_CTX_VENDOR_SERIAL): the child's tree is gone when it returns, and
 * vendor_finish() folds the same result later; a settled session may still be cancelled,
 * and a hang is settled at its deadline with its failure kept for vendor_finish(). */
static void test_settle(void **state)
{
	struct vendor_req req = { .library = fake("libnvidia-ml.so.1"), .timeout_ms = 10000 };
	struct vendor_pending *p;
	struct vendor_result r;

	set_scenario("[nvml]\ndriver_version = 550.54.15\n[nvml.device.0]\nname = A\n");
	assert_int_equal(vendor_nvml_start(&req, &p), 0);
	assert_int_equal(vendor_settle(p), 0);
	/* its keeper was reaped: this process has no child left to wait for */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	assert_int_equal(vendor_settle(p), 0); /* again: nothing more to wait for */
	assert_int_equal(vendor_finish(p, &r), 0);
	assert_null(r.failure);
	assert_str(r.tree, "driver_version", "550.54.15");
	assert_str(r.tree, "devices.0.name", "A");
	vendor_result_done(&r);

	assert_int_equal(vendor_nvml_start(&req, &p), 0);
	assert_int_equal(vendor_settle(p), 0);
	vendor_cancel(p);

	req.timeout_ms = 1500;
	set_scenario("[nvml]\ndriver_version = 550.54.15\n[nvml.device.0]\nname = A\n"
		     "hang.nvmlDeviceGetName = 1\n");
	assert_int_equal(vendor_nvml_start(&req, &p), 0);
	assert_int_equal(vendor_settle(p), 0);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(vendor_finish(p, &r), 0);
	assert_true(r.elapsed_ms >= 1500 && r.elapsed_ms < 6000);
	assert_non_null(r.failure);
	assert_non_null(strstr(r.failure, "timed out after 1500 ms in nvmlDeviceGetName"));
	assert_str(r.tree, "driver_version", "550.54.15");
	vendor_result_done(&r);
}

static void test_nvml_crash(void **state)
{
	json_t *t;
	char *failure = NULL;

	set_scenario("[nvml]\ndriver_version = 550.54.15\n[nvml.device.0]\nname = A\n"
		     "crash.nvmlDeviceGetUUID = SIGSEGV\n");
	t = nvml(fake("libnvidia-ml.so.1"), 10000, &failure);
	assert_non_null(failure);
	assert_string_equal(failure, "the vendor library crashed: SIGSEGV in nvmlDeviceGetUUID");
	assert_str(t, "devices.0.name", "A");
	assert_error_contains(t, "devices.0.uuid", "error", "crashed: SIGSEGV");
	free(failure);
	json_decref(t);
}

/* ---- CUDA and OpenCL --------------------------------------------------------------- */

static json_t *cuda(const char *lib, const char *skip_init)
{
	struct vendor_req req = { .library = lib, .timeout_ms = 10000, .skip_init = skip_init };
	struct vendor_result r;

	assert_int_equal(vendor_run(vendor_cuda_start, &req, &r), 0);
	if (r.failure)
		fail_msg("unexpected failure: %s", r.failure);
	return r.tree;
}

static void test_cuda(void **state)
{
	json_t *t;

	set_scenario(healthy);
	t = cuda(fake("libcuda.so.1"), NULL);
	assert_str(t, "driver_version", "12.4");
	assert_str(t, "init", "CUDA_SUCCESS");
	assert_int(t, "device_count", 2);
	assert_str(t, "devices.0.name", "NVIDIA H100 80GB HBM3");
	assert_str(t, "devices.0.compute_capability", "9.0");
	assert_str(t, "devices.0.pci_bus_id", "0000:18:00.0");
	assert_int(t, "devices.0.memory_total_mib", 81559);
	assert_str(t, "devices.0.uuid", "GPU-4c2f8a31-9d6e-4b57-a1c0-2e8f6d3b9a10");
	assert_fact(t, "devices.0.uuid", "present", "cuda:cuDeviceGetUuid_v2");
	assert_fact(t, "devices.0.memory_total_mib", "present", "cuda:cuDeviceTotalMem_v2");
	json_decref(t);

	/* The gate's partial mode: version only, cuInit left alone. */
	t = cuda(fake("libcuda.so.1"), "nvidia_uvm kernel module not loaded");
	assert_str(t, "driver_version", "12.4");
	assert_error_contains(t, "init", "unprobed",
			      "not called: nvidia_uvm kernel module not loaded");
	assert_fact(t, "devices", "unprobed", "cuda:cuInit");
	json_decref(t);

	/* What a stub answers, through the fake (the real stub: fixture cuda-stub). */
	set_scenario("[cuda]\nerror.cuInit = 34\nerror.cuDriverGetVersion = 34\n"
		     "error.cuGetErrorName = 34\nerror.cuGetErrorString = "
		     "34\n[cuda.device.0]\nname = A\n");
	t = cuda(fake("libcuda.so.1"), NULL);
	assert_error_contains(t, "init", "error",
			      "CUDA_ERROR_STUB_LIBRARY (34): the CUDA driver that "
			      "the application has loaded is a stub library");
	assert_error_contains(t, "driver_version", "error", "CUDA_ERROR_STUB_LIBRARY (34)");
	json_decref(t);

	/* No device: CUDA_ERROR_NO_DEVICE, as the real 535 library answers without a module. */
	set_scenario("[cuda]\ndevice_count = 0\n");
	t = cuda(fake("libcuda.so.1"), NULL);
	assert_error_contains(t, "init", "error", "CUDA_ERROR_NO_DEVICE (100)");
	json_decref(t);

	t = cuda("/nonexistent/libcuda.so.1", NULL);
	assert_fact(t, "library", "absent", "cuda:dlopen");
	json_decref(t);
}

/* libcuda names its threads in cuInit through fopen("/proc/self/task/TID/comm", "w"), with
 * the TID gettid() gives, and unlinks a file that is usually not there; cuInit fails with
 * CUDA_ERROR_OPERATING_SYSTEM (304) when either fails otherwise than the machine would make
 * it (seen on an H200, driver 580.159.04). So the CUDA session is held by a subreaper,
 * never in a PID namespace of its own (its TIDs would be the namespace's, /proc the host's:
 * ENOENT), and, where Landlock (ABI 3 on) guards paths, the filter leaves that O_CREAT |
 * O_TRUNC open and the unlink to Landlock, which lets a process write its own /proc/PID. */
static void test_cuda_names_its_threads(void **state)
{
	struct vendor_req req = { .library = fake("libcuda.so.1"), .timeout_ms = 10000 };
	struct vendor_result r;
	const char *v, *err;

	set_scenario("[cuda]\nname_thread.cuInit = gpuenv-named\n"
		     "unlink.cuInit = /nonexistent/gpuenv-test\n[cuda.device.0]\nname = A\n");
	assert_int_equal(vendor_run(vendor_cuda_start, &req, &r), 0);
	v = json_string_value(jget(r.tree, "sandbox.value"));
	assert_non_null(v);
	if (strstr(v, "pid namespace"))
		fail_msg("the CUDA session ran in a PID namespace: %s", v);
	assert_true(strstr(v, "subreaper") == v || strstr(v, "process group") == v);
	assert_str(r.tree, "init", "CUDA_SUCCESS");
	err = stderr_text(&r);
	if (landlock_abi(&r) < 3) {
		vendor_result_done(&r);
		print_message("SKIP thread naming: no Landlock ABI 3 in this kernel (the filter "
			      "refuses the open then)\n");
		skip();
	}
	if (!strstr(err, "name_thread gpuenv-named: named"))
		fail_msg("the library could not name its thread: %s", err);
	if (!strstr(err, "unlink /nonexistent/gpuenv-test: No such file or directory"))
		fail_msg("unlinking a missing file did not fail as anywhere else: %s", err);
	vendor_result_done(&r);
}

static void test_opencl_bad_libraries(void **state)
{
	struct vendor_req req = { .library = "/nonexistent/libOpenCL.so.1", .timeout_ms = 10000 };
	struct vendor_result r;

	assert_int_equal(vendor_run(vendor_opencl_start, &req, &r), 0);
	assert_null(r.failure);
	assert_fact(r.tree, "library", "absent", "opencl:dlopen");
	assert_fact(r.tree, "platforms", "unprobed", "opencl:dlopen");
	vendor_result_done(&r);

	req.library = fake("libnvidia-ml.so.1");
	assert_int_equal(vendor_run(vendor_opencl_start, &req, &r), 0);
	assert_error_contains(r.tree, "platforms", "error", "not an OpenCL library");
	vendor_result_done(&r);
}

/* The default soname search (no library named) in a child started with LD_LIBRARY_PATH: the
 * dynamic linker reads it only at start-up, hence the re-exec of this binary. */
static void test_default_sonames(void **state)
{
	char cmd[1200], line[600];
	FILE *p;
	int found = 0;

	set_scenario(healthy);
	snprintf(cmd, sizeof(cmd), "LD_LIBRARY_PATH='%s' /proc/%d/exe --soname-search", fakes,
		 (int)getpid());
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		print_message("%s\n", line);
		if (strcmp(line, "nvml NVML_SUCCESS") == 0 ||
		    strcmp(line, "cuda CUDA_SUCCESS") == 0)
			found++;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(found, 2);
}

static int soname_search(void)
{
	struct vendor_req req = { .timeout_ms = 10000 };
	struct vendor_result r;
	const char *lib;

	if (vendor_run(vendor_nvml_start, &req, &r) < 0)
		return 1;
	lib = jstr(r.tree, "library", "value");
	/* The fake found through LD_LIBRARY_PATH, under its soname. */
	if (!lib || !strstr(lib, "/tests/fakes/libnvidia-ml.so.1"))
		return 1;
	printf("nvml %s\n", jstr(r.tree, "init", "value") ?: "?");
	vendor_result_done(&r);
	if (vendor_run(vendor_cuda_start, &req, &r) < 0)
		return 1;
	lib = jstr(r.tree, "library", "value");
	if (!lib || !strstr(lib, "/tests/fakes/libcuda.so.1"))
		return 1;
	printf("cuda %s\n", jstr(r.tree, "init", "value") ?: "?");
	vendor_result_done(&r);
	return 0;
}

static void test_error_names(void **state)
{
	assert_string_equal(vendor_nvml_error_name(18), "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
	assert_string_equal(vendor_nvml_error_name(9), "NVML_ERROR_DRIVER_NOT_LOADED");
	assert_null(vendor_nvml_error_name(31));
	assert_string_equal(vendor_cuda_error_name(34), "CUDA_ERROR_STUB_LIBRARY");
	assert_string_equal(vendor_cuda_error_name(803), "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH");
	/* 35 is the runtime's cudaErrorInsufficientDriver, not a driver API code. */
	assert_null(vendor_cuda_error_name(35));
	assert_string_equal(vendor_opencl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
}

/* dl_lazy: a library that is not installed, one that lacks a function, and a good one; each
 * answer is kept (the second call gives the same without loading again). */
struct lazy_table {
	void *fn;
};

/* dl_resolve() over names stored as arrays (dl.h): tried in order up to the first "", the
 * answering one recorded, and a name that fills its array (no NUL) refused. */
static void test_dl_resolve_names(void **state)
{
	struct named_table {
		void *fn;
		const char *fn_name;
	} t = { 0 };
	static const struct dl_symbol second_answers[] = {
		{ .names = { "gpuenv_no_such_function", "strlen", "", "gpuenv_never_tried" },
		  .fn_offset = offsetof(struct named_table, fn),
		  .name_offset = offsetof(struct named_table, fn_name),
		  .required = true },
	};
	static struct dl_symbol unterminated[1] = {
		{ .fn_offset = offsetof(struct named_table, fn),
		  .name_offset = DL_NO_NAME,
		  .required = true },
	};
	const char *const libc[] = { "libc.so.6", NULL };
	struct dl_lib *l = NULL;
	char *error = NULL;

	(void)state;
	memset(unterminated[0].names[0], 'a', DL_NAME_MAX);
	assert_int_equal(dl_open(libc, &l, &error), 0);
	assert_int_equal(dl_resolve(l, second_answers, 1, &t, NULL), 0);
	assert_non_null(t.fn);
	assert_string_equal(t.fn_name, "strlen");
	assert_int_equal(dl_resolve(l, unterminated, 1, &t, NULL), -EINVAL);
	dl_close(l);
}

static void test_lazy_load(void **state)
{
	static const struct dl_symbol missing_fn[] = {
		{ .names = { "gpuenv_no_such_function" },
		  .fn_offset = offsetof(struct lazy_table, fn),
		  .name_offset = DL_NO_NAME,
		  .required = true },
	};
	static const struct dl_symbol good_fn[] = {
		{ .names = { "strlen" },
		  .fn_offset = offsetof(struct lazy_table, fn),
		  .name_offset = DL_NO_NAME,
		  .required = true },
	};
	struct lazy_table t1 = { 0 }, t2 = { 0 }, t3 = { 0 };
	struct dl_lazy absent = DL_LAZY_INIT("libgpuenv-test-absent.so.9", good_fn, &t1);
	struct dl_lazy lacking = DL_LAZY_INIT("libc.so.6", missing_fn, &t2);
	struct dl_lazy good = DL_LAZY_INIT("libc.so.6", good_fn, &t3);
	const char *why = NULL, *why2 = NULL;

	assert_int_equal(dl_lazy_load(&absent, &why), -ENOENT);
	assert_non_null(strstr(why, "libgpuenv-test-absent.so.9"));
	assert_int_equal(dl_lazy_load(&absent, &why2), -ENOENT);
	assert_ptr_equal(why, why2); /* remembered, not retried */
	assert_null(t1.fn);

	assert_int_equal(dl_lazy_load(&lacking, &why), -ENOSYS);
	assert_non_null(strstr(why, "has no gpuenv_no_such_function()"));
	assert_non_null(strstr(why, "libc.so.6"));
	assert_null(lacking.lib);

	why = NULL;
	assert_int_equal(dl_lazy_load(&good, &why), 0);
	assert_null(why);
	assert_non_null(t3.fn);
	{
		size_t (*len)(const char *);

		memcpy(&len, &t3.fn, sizeof(len)); /* libc's own, not ASan's interceptor */
		assert_int_equal(len("gpuenv"), 6);
	}
	assert_int_equal(dl_lazy_load(&good, NULL), 0);
	dl_close(good.lib);
	free(absent.error);
	free(lacking.error);
}

/* The real bindings load the libraries the build compiled against, with every function. */
static void test_lazy_bindings(void **state)
{
	const struct vendor_zip *zl = NULL;
	const char *why = NULL;

	assert_int_equal(vendor_zip(&zl, &why), 0);
	assert_non_null(zl->zip_open_from_source);
	assert_non_null(zl->zip_fread);
}

/* libnettle's SHA-256 through its lazy binding (lazy-nettle.h), on the NIST FIPS 180-4
 * examples (CSRC "Example Algorithms": SHA256.pdf), the long one fed in uneven pieces. */
static void test_sha256(void **state)
{
	static const char two_block[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char a[1000], hex[65];
	struct vendor_sha256 s;
	const char *why = NULL;

	assert_int_equal(vendor_sha256_init(&s, &why), 0);
	vendor_sha256_final_hex(&s, hex);
	assert_string_equal(hex,
			    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	assert_int_equal(vendor_sha256_init(&s, &why), 0);
	vendor_sha256_update(&s, "abc", 3);
	vendor_sha256_final_hex(&s, hex);
	assert_string_equal(hex,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(vendor_sha256_init(&s, &why), 0);
	vendor_sha256_update(&s, two_block, strlen(two_block));
	vendor_sha256_final_hex(&s, hex);
	assert_string_equal(hex,
			    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(a, 'a', sizeof(a));
	assert_int_equal(vendor_sha256_init(&s, &why), 0);
	for (size_t done = 0, step = 1; done < 1000000; step = step % 97 + 1) {
		size_t n = step < 1000000 - done ? step : 1000000 - done;

		vendor_sha256_update(&s, a, n);
		done += n;
	}
	vendor_sha256_final_hex(&s, hex);
	assert_string_equal(hex,
			    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

int main(int argc, char *argv[])
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_nvml_values),
		cmocka_unit_test(test_nvml_old_library),
		cmocka_unit_test(test_nvml_health),
		cmocka_unit_test(test_nvml_errors),
		cmocka_unit_test(test_nvml_mig),
		cmocka_unit_test(test_nvml_bad_libraries),
		cmocka_unit_test(test_nvml_hang),
		cmocka_unit_test(test_nvml_crash),
		cmocka_unit_test(test_settle),
		cmocka_unit_test(test_nvml_sweep_handed_over),
		cmocka_unit_test(test_cuda_names_its_threads),
		cmocka_unit_test(test_cuda),
		cmocka_unit_test(test_opencl_bad_libraries),
		cmocka_unit_test(test_default_sonames),
		cmocka_unit_test(test_error_names),
		cmocka_unit_test(test_dl_resolve_names),
		cmocka_unit_test(test_lazy_load),
		cmocka_unit_test(test_lazy_bindings),
		cmocka_unit_test(test_sha256),
	};
	int r = vendor_test_fakes();

	if (r != 0)
		return r;
	if (argc > 1 && strcmp(argv[1], "--soname-search") == 0)
		return soname_search();
	r = vendor_test_init();
	if (r != 0)
		return r;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	vendor_test_done();
	return r;
}
