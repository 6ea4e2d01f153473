// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * NVML (libnvidia-ml.so.1) through dlopen, in a child under a deadline. Calls, units and
 * return codes: docs/formats/nvml.md (nvml.h 13.3; behaviour of the real
 * 535.261.03 library without a driver). Writes "library", "nvml_version" (works before
 * init), "init", "driver_version", "cuda_driver_version", "device_count" and "devices[]"
 * (docs/snapshot-schema.md, driver.nvml). Each call's return code is kept: NOT_SUPPORTED is
 * "unsupported", NO_PERMISSION "unreadable", any other failure "error" with the code's name,
 * number and nvmlErrorString() text (our own copy when the library's is missing or older
 * than the code).
 */
#include <errno.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dl.h"
#include "nvml-abi.h"
#include "session.h"

DL_NOTE(dl_note_nvml, "[{\"feature\":\"nvml\",\"description\":\"NVIDIA driver and GPU state "
		      "(gpuenv report: driver.nvml)\",\"priority\":\"suggested\",\"soname\":"
		      "[\"libnvidia-ml.so.1\"]}]");

#define NVML_MAX_DEVICES 64u
#define NV_MISSING	 (-100000) /* not a return code: the library lacks the function */

struct nvml_fns {
	NVML_SYMBOLS(DL_TABLE_FIELDS)
};

static const struct dl_symbol nvml_symbols[] = {
#define X(f, req, ret, params, ...) DL_SYMBOL_ENTRY(struct nvml_fns, f, req, __VA_ARGS__)
	NVML_SYMBOLS(X)
#undef X
};

/* nvml.h 13.3 names; texts as the real 535.261.03 nvmlErrorString() returns them. */
/* Arrays, not pointers: a table of pointers is relocated, so written, by the loader at each
 * start of every command (vendor/dl.h). */
static const struct {
	int code;
	char name[48], text[56];
} nvml_errors[] = {
	{ 0, "NVML_SUCCESS", "Success" },
	{ 1, "NVML_ERROR_UNINITIALIZED", "Uninitialized" },
	{ 2, "NVML_ERROR_INVALID_ARGUMENT", "Invalid Argument" },
	{ 3, "NVML_ERROR_NOT_SUPPORTED", "Not Supported" },
	{ 4, "NVML_ERROR_NO_PERMISSION", "Insufficient Permissions" },
	{ 5, "NVML_ERROR_ALREADY_INITIALIZED", "Already Initialized" },
	{ 6, "NVML_ERROR_NOT_FOUND", "Not Found" },
	{ 7, "NVML_ERROR_INSUFFICIENT_SIZE", "Insufficient Size" },
	{ 8, "NVML_ERROR_INSUFFICIENT_POWER", "Insufficient External Power" },
	{ 9, "NVML_ERROR_DRIVER_NOT_LOADED", "Driver Not Loaded" },
	{ 10, "NVML_ERROR_TIMEOUT", "Timeout" },
	{ 11, "NVML_ERROR_IRQ_ISSUE", "Interrupt Request Issue" },
	{ 12, "NVML_ERROR_LIBRARY_NOT_FOUND", "NVML Shared Library Not Found" },
	{ 13, "NVML_ERROR_FUNCTION_NOT_FOUND", "Function Not Found" },
	{ 14, "NVML_ERROR_CORRUPTED_INFOROM", "Corrupted infoROM" },
	{ 15, "NVML_ERROR_GPU_IS_LOST", "GPU is lost" },
	{ 16, "NVML_ERROR_RESET_REQUIRED", "GPU requires reset" },
	{ 17, "NVML_ERROR_OPERATING_SYSTEM", "GPU access blocked by the operating system" },
	{ 18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "Driver/library version mismatch" },
	{ 19, "NVML_ERROR_IN_USE", "In use by another client" },
	{ 20, "NVML_ERROR_MEMORY", "Insufficient Memory" },
	{ 21, "NVML_ERROR_NO_DATA", "No data" },
	{ 22, "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED", "vGPU ECC not supported" },
	{ 23, "NVML_ERROR_INSUFFICIENT_RESOURCES", "Insufficient Resources" },
	{ 24, "NVML_ERROR_FREQ_NOT_SUPPORTED", "Invalid Frequency" },
	{ 25, "NVML_ERROR_ARGUMENT_VERSION_MISMATCH", "Argument version mismatch" },
	{ 26, "NVML_ERROR_DEPRECATED", "Requested functionality has been deprecated" },
	{ 27, "NVML_ERROR_NOT_READY", "System is not in ready state" },
	{ 28, "NVML_ERROR_GPU_NOT_FOUND", "No GPUs were found" },
	{ 29, "NVML_ERROR_INVALID_STATE", "Invalid state" },
	{ 30, "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED", "Reset type not supported" },
	{ 999, "NVML_ERROR_UNKNOWN", "Unknown Error" },
};

const char *vendor_nvml_error_name(int rc)
{
	for (size_t i = 0; i < ARRAY_SIZE(nvml_errors); i++)
		if (nvml_errors[i].code == rc)
			return nvml_errors[i].name;
	return NULL;
}

static const char *local_text(int rc)
{
	for (size_t i = 0; i < ARRAY_SIZE(nvml_errors); i++)
		if (nvml_errors[i].code == rc)
			return nvml_errors[i].text;
	return "unknown return code";
}

struct nvml {
	struct nvml_fns f;
	struct vwriter *w;
	/* When each device's PCIe replay counter was first read (0: it was not). */
	uint64_t replay_read_ns[NVML_MAX_DEVICES];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Records a failed call on each of keys[] (NULL-terminated) and returns false. */
static bool nv_failv(struct nvml *n, const char *call, nvmlReturn_t rc, const char *const keys[])
{
	const char *name = vendor_nvml_error_name(rc), *text = NULL, *state = "error";
	char buf[200];

	if (rc == NV_MISSING) {
		for (size_t i = 0; keys[i]; i++)
			vw_state(n->w, keys[i], call, "unsupported",
				 "not exported by this libnvidia-ml");
		return false;
	}
	if (n->f.nvmlErrorString)
		text = n->f.nvmlErrorString(rc);
	/* Older libraries answer "Unknown Error" for codes newer than themselves. */
	if (!text || !*text || (streq(text, "Unknown Error") && rc != NVML_ERROR_UNKNOWN))
		text = local_text(rc);
	snprintf(buf, sizeof(buf), "%s", text);
	if (rc == NVML_ERROR_NOT_SUPPORTED)
		state = "unsupported";
	else if (rc == NVML_ERROR_NO_PERMISSION)
		state = "unreadable";
	for (size_t i = 0; keys[i]; i++)
		vw_state(n->w, keys[i], call, state, "%s (%d): %s", name ? name : "NVML error", rc,
			 buf);
	return false;
}

#define nv_fail(n, call, rc, ...) nv_failv(n, call, rc, (const char *const[]){ __VA_ARGS__, NULL })

/* Calls fn when the library has it (after announcing it, for hang attribution); true on
 * NVML_SUCCESS, else the failure is recorded on key and the extra keys. */
#define NV(n, key, fn, args, ...)                                                                  \
	({                                                                                         \
		nvmlReturn_t _rc = NV_MISSING;                                                     \
		const char *_call = (n)->f.fn##_name ? (n)->f.fn##_name : #fn;                     \
		if ((n)->f.fn) {                                                                   \
			vw_begin((n)->w, key, _call);                                              \
			_rc = (n)->f.fn args;                                                      \
		}                                                                                  \
		_rc == NVML_SUCCESS ? true : nv_fail(n, _call, _rc, key, ##__VA_ARGS__);           \
	})

/* The brand as libnvidia-container reports it (src/driver.c driver_get_device_brand(): the six
 * NVML brands it names, "Unknown" for every other), which NVIDIA_REQUIRE_CUDA's brand= terms
 * test (facts/nv-require.h). */
static const char *brand_name(nvmlBrandType_t b)
{
	static const char *const names[] = { [1] = "Quadro", [2] = "Tesla",   [3] = "NVS",
					     [4] = "GRID",   [5] = "GeForce", [6] = "TITAN" };

	return b >= 0 && (size_t)b < ARRAY_SIZE(names) && names[b] ? names[b] : "Unknown";
}

static const char *arch_name(unsigned a)
{
	static const char *const names[] = {
		[2] = "Kepler", [3] = "Maxwell", [4] = "Pascal", [5] = "Volta",	     [6] = "Turing",
		[7] = "Ampere", [8] = "Ada",	 [9] = "Hopper", [10] = "Blackwell", [13] = "Rubin",
	};

	return a < ARRAY_SIZE(names) ? names[a] : NULL;
}

static void nv_string(struct nvml *n, const char *key, bool ok, char *buf, size_t size)
{
	buf[size - 1] = '\0';
	if (ok)
		vw_str(n->w, key, buf);
}

/* The memory of dev under prefix ("" for a GPU, "mig_devices.N." for a MIG device: on its
 * handle NVML answers that instance's memory, on the GPU's the whole board's; NVML API
 * reference, nvmlDeviceGetMemoryInfo: "Per-instance information can be queried by using
 * specific MIG device handles"). */
static void nv_memory(struct nvml *n, nvmlDevice_t dev, const char *prefix)
{
	nvmlMemory_v2_t m2 = { .version = NVML_MEMORY_V2_VERSION };
	nvmlMemory_t m1 = { 0 };
	nvmlReturn_t rc = NV_MISSING;
	char total[48], reserved[48], used[48], free_[48];

	snprintf(total, sizeof(total), "%smemory_total_mib", prefix);
	snprintf(reserved, sizeof(reserved), "%smemory_reserved_mib", prefix);
	snprintf(used, sizeof(used), "%smemory_used_mib", prefix);
	snprintf(free_, sizeof(free_), "%smemory_free_mib", prefix);
	/* v2 first: v1 is NOT_SUPPORTED on unified-memory parts (GB10), nvml.md §4. */
	if (n->f.nvmlDeviceGetMemoryInfo_v2) {
		vw_begin(n->w, total, n->f.nvmlDeviceGetMemoryInfo_v2_name);
		rc = n->f.nvmlDeviceGetMemoryInfo_v2(dev, &m2);
		if (rc == NVML_SUCCESS) {
			vw_int(n->w, total, (int64_t)(m2.total >> 20));
			vw_int(n->w, reserved, (int64_t)(m2.reserved >> 20));
			vw_int(n->w, used, (int64_t)(m2.used >> 20));
			vw_int(n->w, free_, (int64_t)(m2.free >> 20));
			return;
		}
		if (!n->f.nvmlDeviceGetMemoryInfo ||
		    (rc != NVML_ERROR_NOT_SUPPORTED && rc != NVML_ERROR_FUNCTION_NOT_FOUND &&
		     rc != NVML_ERROR_ARGUMENT_VERSION_MISMATCH)) {
			nv_fail(n, n->f.nvmlDeviceGetMemoryInfo_v2_name, rc, total, reserved, used,
				free_);
			return;
		}
	}
	if (NV(n, total, nvmlDeviceGetMemoryInfo, (dev, &m1), used, free_)) {
		vw_int(n->w, total, (int64_t)(m1.total >> 20));
		vw_int(n->w, used, (int64_t)(m1.used >> 20));
		vw_int(n->w, free_, (int64_t)(m1.free >> 20));
	}
	vw_state(n->w, reserved, n->f.nvmlDeviceGetMemoryInfo_name ?: "nvmlDeviceGetMemoryInfo",
		 "unsupported", "only nvmlDeviceGetMemoryInfo_v2 reports reserved memory");
}

static void nv_nvlink(struct nvml *n, nvmlDevice_t dev)
{
	for (unsigned l = 0; l < NVML_NVLINK_MAX_LINKS; l++) {
		nvmlEnableState_t on = 0;
		nvmlReturn_t rc = NV_MISSING;
		char key[32];

		snprintf(key, sizeof(key), "nvlink.%u.active", l);
		if (n->f.nvmlDeviceGetNvLinkState) {
			vw_begin(n->w, key, n->f.nvmlDeviceGetNvLinkState_name);
			rc = n->f.nvmlDeviceGetNvLinkState(dev, l, &on);
		}
		if (l == 0 && rc != NVML_SUCCESS) {
			/* No NVLink at all (PCIe boards, pre-Pascal) or a failure: one fact. */
			nv_fail(n, n->f.nvmlDeviceGetNvLinkState_name ?: "nvmlDeviceGetNvLinkState",
				rc, "nvlink");
			return;
		}
		/* Past the last link: INVALID_ARGUMENT (or NOT_SUPPORTED on some boards). */
		if (rc == NVML_ERROR_INVALID_ARGUMENT || rc == NVML_ERROR_NOT_SUPPORTED)
			return;
		snprintf(key, sizeof(key), "nvlink.%u.link", l);
		vw_int(n->w, key, l);
		snprintf(key, sizeof(key), "nvlink.%u.active", l);
		if (rc == NVML_SUCCESS)
			vw_bool(n->w, key, on == NVML_FEATURE_ENABLED);
		else
			nv_fail(n, n->f.nvmlDeviceGetNvLinkState_name, rc, key);
	}
}

/* The MIG devices (one per compute instance) of a GPU in MIG mode: their UUIDs, which
 * CUDA_VISIBLE_DEVICES names ("MIG-<uuid>" since R470, docs/formats/nvml.md §7), and their
 * GPU/compute instance ids (the older "MIG-GPU-<uuid>/<gi>/<ci>" form). Indices past the
 * existing instances answer NVML_ERROR_NOT_FOUND and are skipped. */
#define NVML_MAX_MIG_DEVICES 16u

static void nv_mig(struct nvml *n, nvmlDevice_t dev)
{
	unsigned max = 0, found = 0;

	if (!NV(n, "mig_device_count", nvmlDeviceGetMaxMigDeviceCount, (dev, &max), "mig_devices"))
		return;
	for (unsigned m = 0; m < max && m < NVML_MAX_MIG_DEVICES; m++) {
		nvmlDevice_t mig = NULL;
		nvmlReturn_t rc = NV_MISSING;
		char key[48], buf[NVML_DEVICE_UUID_V2_BUFFER_SIZE];
		unsigned id;

		if (n->f.nvmlDeviceGetMigDeviceHandleByIndex) {
			vw_begin(n->w, "mig_devices",
				 n->f.nvmlDeviceGetMigDeviceHandleByIndex_name);
			rc = n->f.nvmlDeviceGetMigDeviceHandleByIndex(dev, m, &mig);
		}
		if (rc == NVML_ERROR_NOT_FOUND || rc == NVML_ERROR_INVALID_ARGUMENT)
			continue;
		if (rc != NVML_SUCCESS) {
			nv_fail(n,
				n->f.nvmlDeviceGetMigDeviceHandleByIndex_name
					?: "nvmlDeviceGetMigDeviceHandleByIndex",
				rc, "mig_devices");
			return;
		}
		snprintf(key, sizeof(key), "mig_devices.%u.uuid", found);
		memset(buf, 0, sizeof(buf));
		nv_string(n, key, NV(n, key, nvmlDeviceGetUUID, (mig, buf, sizeof(buf))), buf,
			  sizeof(buf));
		/* "NVIDIA A100-SXM4-40GB MIG 1g.5gb": the profile of the instance. */
		snprintf(key, sizeof(key), "mig_devices.%u.name", found);
		memset(buf, 0, sizeof(buf));
		nv_string(n, key, NV(n, key, nvmlDeviceGetName, (mig, buf, sizeof(buf))), buf,
			  sizeof(buf));
		snprintf(key, sizeof(key), "mig_devices.%u.gpu_instance_id", found);
		if (NV(n, key, nvmlDeviceGetGpuInstanceId, (mig, &id)))
			vw_int(n->w, key, id);
		snprintf(key, sizeof(key), "mig_devices.%u.compute_instance_id", found);
		if (NV(n, key, nvmlDeviceGetComputeInstanceId, (mig, &id)))
			vw_int(n->w, key, id);
		snprintf(key, sizeof(key), "mig_devices.%u.", found);
		nv_memory(n, mig, key);
		found++;
	}
	vw_int(n->w, "mig_device_count", found);
	if (!found)
		vw_array(n->w, "mig_devices");
}

/* A field of nvmlDeviceGetFieldValues as an integer; false for a type we do not read. */
static bool field_int(const nvmlFieldValue_t *fv, int64_t *ret)
{
	switch (fv->valueType) {
	case NVML_VALUE_TYPE_UNSIGNED_INT:
		*ret = fv->value.uiVal;
		return true;
	case NVML_VALUE_TYPE_UNSIGNED_LONG:
	case NVML_VALUE_TYPE_UNSIGNED_LONG_LONG:
		*ret = fv->value.ullVal > INT64_MAX ? INT64_MAX : (int64_t)fv->value.ullVal;
		return true;
	case NVML_VALUE_TYPE_SIGNED_LONG_LONG:
		*ret = fv->value.sllVal;
		return true;
	case NVML_VALUE_TYPE_SIGNED_INT:
		*ret = fv->value.siVal;
		return true;
	default:
		return false;
	}
}

/* The GPU's temperature, its thresholds (what nvidia-smi -q -d TEMPERATURE prints as "GPU
 * Shutdown Temp", "GPU Slowdown Temp", "GPU Max Operating Temp", "Memory Max Operating
 * Temp") and the HBM temperature, which NVML gives only as a field value. */
static void nv_temperatures(struct nvml *n, nvmlDevice_t dev)
{
	static const struct {
		int type;
		const char *key;
	} thresholds[] = {
		{ NVML_TEMPERATURE_THRESHOLD_SHUTDOWN, "temperature_shutdown_c" },
		{ NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, "temperature_slowdown_c" },
		{ NVML_TEMPERATURE_THRESHOLD_GPU_MAX, "temperature_gpu_max_c" },
		{ NVML_TEMPERATURE_THRESHOLD_MEM_MAX, "temperature_memory_max_c" },
	};
	nvmlFieldValue_t fv = { .fieldId = NVML_FI_DEV_MEMORY_TEMP };
	unsigned u;
	int64_t v;

	if (NV(n, "temperature_c", nvmlDeviceGetTemperature, (dev, NVML_TEMPERATURE_GPU, &u)))
		vw_int(n->w, "temperature_c", u);
	for (size_t i = 0; i < ARRAY_SIZE(thresholds); i++)
		if (NV(n, thresholds[i].key, nvmlDeviceGetTemperatureThreshold,
		       (dev, thresholds[i].type, &u)))
			vw_int(n->w, thresholds[i].key, u);
	if (!NV(n, "temperature_memory_c", nvmlDeviceGetFieldValues, (dev, 1, &fv)))
		return;
	if (fv.nvmlReturn != NVML_SUCCESS)
		nv_fail(n, n->f.nvmlDeviceGetFieldValues_name, fv.nvmlReturn,
			"temperature_memory_c");
	else if (field_int(&fv, &v))
		vw_int(n->w, "temperature_memory_c", v);
	else
		vw_state(n->w, "temperature_memory_c", NULL, "malformed",
			 "NVML_FI_DEV_MEMORY_TEMP with value type %d", fv.valueType);
}

/* Current and maximum clocks (MHz), the performance state and why the clocks are held
 * down (nvmlClocksEventReason* bits, the raw mask: the rules name them). */
static void nv_clocks(struct nvml *n, nvmlDevice_t dev)
{
	static const struct {
		int type;
		const char *key, *max_key;
	} clocks[] = {
		{ NVML_CLOCK_GRAPHICS, "clock_graphics_mhz", "clock_graphics_max_mhz" },
		{ NVML_CLOCK_SM, "clock_sm_mhz", "clock_sm_max_mhz" },
		{ NVML_CLOCK_MEM, "clock_memory_mhz", "clock_memory_max_mhz" },
	};
	unsigned long long reasons;
	unsigned u;
	int p;

	for (size_t i = 0; i < ARRAY_SIZE(clocks); i++) {
		if (NV(n, clocks[i].key, nvmlDeviceGetClockInfo, (dev, clocks[i].type, &u)))
			vw_int(n->w, clocks[i].key, u);
		if (NV(n, clocks[i].max_key, nvmlDeviceGetMaxClockInfo, (dev, clocks[i].type, &u)))
			vw_int(n->w, clocks[i].max_key, u);
	}
	/* 0..15, NVML_PSTATE_UNKNOWN (32) when the driver cannot tell. */
	if (NV(n, "performance_state", nvmlDeviceGetPerformanceState, (dev, &p))) {
		if (p >= 0 && p <= 15)
			vw_int(n->w, "performance_state", p);
		else
			vw_state(n->w, "performance_state", NULL, "unsupported",
				 "NVML_PSTATE_UNKNOWN (%d)", p);
	}
	if (NV(n, "clocks_event_reasons", nvmlDeviceGetCurrentClocksEventReasons, (dev, &reasons)))
		vw_int(n->w, "clocks_event_reasons", (int64_t)(reasons & 0x7fffffffffffffffull));
}

static void nv_power(struct nvml *n, nvmlDevice_t dev)
{
	nvmlUtilization_t util;
	unsigned long long ull;
	unsigned u, period;

	if (NV(n, "power_mw", nvmlDeviceGetPowerUsage, (dev, &u)))
		vw_int(n->w, "power_mw", u);
	if (NV(n, "power_limit_mw", nvmlDeviceGetEnforcedPowerLimit, (dev, &u)))
		vw_int(n->w, "power_limit_mw", u);
	if (NV(n, "energy_mj", nvmlDeviceGetTotalEnergyConsumption, (dev, &ull)))
		vw_int(n->w, "energy_mj", ull > INT64_MAX ? INT64_MAX : (int64_t)ull);
	if (NV(n, "fan_speed_pct", nvmlDeviceGetFanSpeed, (dev, &u)))
		vw_int(n->w, "fan_speed_pct", u);
	if (NV(n, "utilization_gpu_pct", nvmlDeviceGetUtilizationRates, (dev, &util),
	       "utilization_mem_pct")) {
		vw_int(n->w, "utilization_gpu_pct", util.gpu);
		vw_int(n->w, "utilization_mem_pct", util.memory);
	}
	if (NV(n, "utilization_encoder_pct", nvmlDeviceGetEncoderUtilization, (dev, &u, &period)))
		vw_int(n->w, "utilization_encoder_pct", u);
	if (NV(n, "utilization_decoder_pct", nvmlDeviceGetDecoderUtilization, (dev, &u, &period)))
		vw_int(n->w, "utilization_decoder_pct", u);
}

/* ECC counters, retired pages (pre-Ampere) and remapped rows (Ampere+): what nvidia-smi -q
 * -d ECC,PAGE_RETIREMENT,ROW_REMAPPER prints. */
static void nv_memory_errors(struct nvml *n, nvmlDevice_t dev)
{
	static const struct {
		int type, counter;
		const char *key;
	} ecc[] = {
		{ NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC,
		  "ecc_errors_uncorrected_volatile" },
		{ NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_AGGREGATE_ECC,
		  "ecc_errors_uncorrected_aggregate" },
		{ NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC,
		  "ecc_errors_corrected_volatile" },
		{ NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_AGGREGATE_ECC,
		  "ecc_errors_corrected_aggregate" },
	};
	static const struct {
		int cause;
		const char *key;
	} retired[] = {
		{ NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS, "retired_pages_sbe" },
		{ NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR, "retired_pages_dbe" },
	};
	unsigned long long ull;
	nvmlEnableState_t e;
	unsigned u, u2, u3, u4;

	for (size_t i = 0; i < ARRAY_SIZE(ecc); i++)
		if (NV(n, ecc[i].key, nvmlDeviceGetTotalEccErrors,
		       (dev, ecc[i].type, ecc[i].counter, &ull)))
			vw_int(n->w, ecc[i].key, ull > INT64_MAX ? INT64_MAX : (int64_t)ull);
	for (size_t i = 0; i < ARRAY_SIZE(retired); i++) {
		nvmlReturn_t rc = NV_MISSING;
		unsigned count = 0;

		/* pageCount 0 and no buffer: the count only ("Set to 0 to query the size"). */
		if (n->f.nvmlDeviceGetRetiredPages) {
			vw_begin(n->w, retired[i].key, n->f.nvmlDeviceGetRetiredPages_name);
			rc = n->f.nvmlDeviceGetRetiredPages(dev, retired[i].cause, &count, NULL);
		}
		if (rc == NVML_SUCCESS || rc == NVML_ERROR_INSUFFICIENT_SIZE)
			vw_int(n->w, retired[i].key, count);
		else
			nv_fail(n,
				n->f.nvmlDeviceGetRetiredPages_name ?: "nvmlDeviceGetRetiredPages",
				rc, retired[i].key);
	}
	if (NV(n, "retired_pages_pending", nvmlDeviceGetRetiredPagesPendingStatus, (dev, &e)))
		vw_bool(n->w, "retired_pages_pending", e == NVML_FEATURE_ENABLED);
	if (NV(n, "remapped_rows_correctable", nvmlDeviceGetRemappedRows, (dev, &u, &u2, &u3, &u4),
	       "remapped_rows_uncorrectable", "remapped_rows_pending", "remapped_rows_failure")) {
		vw_int(n->w, "remapped_rows_correctable", u);
		vw_int(n->w, "remapped_rows_uncorrectable", u2);
		vw_bool(n->w, "remapped_rows_pending", u3 != 0);
		vw_bool(n->w, "remapped_rows_failure", u4 != 0);
	}
}

/* The processes using the GPU, as nvidia-smi's table lists them: compute ("C") and graphics
 * ("G") contexts, each with its pid, name (nvmlSystemGetProcessName) and memory. */
#define NVML_MAX_PROCESSES 256u

static void nv_processes(struct nvml *n, nvmlDevice_t dev, bool graphics)
{
	const char *array = graphics ? "graphics_processes" : "compute_processes";
	nvmlDeviceGetComputeRunningProcesses_fn *fn =
		graphics ? n->f.nvmlDeviceGetGraphicsRunningProcesses
			 : n->f.nvmlDeviceGetComputeRunningProcesses;
	const char *call = graphics ? n->f.nvmlDeviceGetGraphicsRunningProcesses_name
				    : n->f.nvmlDeviceGetComputeRunningProcesses_name;
	nvmlProcessInfo_t infos[NVML_MAX_PROCESSES];
	nvmlProcessInfo_v1_t *v1 = (nvmlProcessInfo_v1_t *)(void *)infos;
	unsigned count = NVML_MAX_PROCESSES;
	nvmlReturn_t rc = NV_MISSING;
	bool old;

	if (fn) {
		vw_begin(n->w, array, call);
		memset(infos, 0, sizeof(infos));
		rc = fn(dev, &count, infos);
	}
	if (rc == NVML_ERROR_INSUFFICIENT_SIZE) {
		vw_state(n->w, array, call, "error",
			 "NVML_ERROR_INSUFFICIENT_SIZE (7): %u processes, more than the %u read",
			 count, NVML_MAX_PROCESSES);
		return;
	}
	if (rc != NVML_SUCCESS) {
		nv_fail(n,
			call
				?: (graphics ? "nvmlDeviceGetGraphicsRunningProcesses"
					     : "nvmlDeviceGetComputeRunningProcesses"),
			rc, array);
		return;
	}
	/* The unversioned symbol fills the older 16-byte entries. */
	old = !strstr(call, "_v");
	vw_array(n->w, array);
	for (unsigned i = 0; i < count && i < NVML_MAX_PROCESSES; i++) {
		unsigned pid = old ? v1[i].pid : infos[i].pid;
		unsigned long long mem = old ? v1[i].usedGpuMemory : infos[i].usedGpuMemory;
		char key[64], name[256];

		snprintf(key, sizeof(key), "%s.%u.pid", array, i);
		vw_int(n->w, key, pid);
		snprintf(key, sizeof(key), "%s.%u.name", array, i);
		memset(name, 0, sizeof(name));
		nv_string(n, key, NV(n, key, nvmlSystemGetProcessName, (pid, name, sizeof(name))),
			  name, sizeof(name));
		snprintf(key, sizeof(key), "%s.%u.used_memory_mib", array, i);
		if (mem == NVML_VALUE_NOT_AVAILABLE)
			vw_state(n->w, key, call, "unsupported",
				 "NVML_VALUE_NOT_AVAILABLE: the driver does not account this "
				 "process's memory");
		else
			vw_int(n->w, key, (int64_t)(mem >> 20));
		/* MIG instance of the process; 0xFFFFFFFF outside MIG. */
		if (!old && infos[i].gpuInstanceId != 0xffffffffu) {
			snprintf(key, sizeof(key), "%s.%u.gpu_instance_id", array, i);
			vw_int(n->w, key, infos[i].gpuInstanceId);
			snprintf(key, sizeof(key), "%s.%u.compute_instance_id", array, i);
			vw_int(n->w, key, infos[i].computeInstanceId);
		}
	}
}

static void nv_device(struct nvml *n, unsigned i)
{
	nvmlDevice_t dev = NULL;
	char buf[128];
	unsigned u, u2;
	int major, minor;
	nvmlEnableState_t e1, e2;
	nvmlPciInfo_t pci;

	vw_set_base(n->w, "devices.%u", i);
	if (!NV(n, "index", nvmlDeviceGetHandleByIndex, (i, &dev)))
		return;
	vw_int(n->w, "index", i);

	memset(buf, 0, sizeof(buf));
	nv_string(n, "name",
		  NV(n, "name", nvmlDeviceGetName, (dev, buf, NVML_DEVICE_NAME_V2_BUFFER_SIZE)),
		  buf, NVML_DEVICE_NAME_V2_BUFFER_SIZE);
	{
		nvmlBrandType_t b = 0;

		if (NV(n, "brand", nvmlDeviceGetBrand, (dev, &b))) {
			vw_str(n->w, "brand", brand_name(b));
			vw_int(n->w, "brand_type", b);
		}
	}
	memset(buf, 0, sizeof(buf));
	nv_string(n, "uuid",
		  NV(n, "uuid", nvmlDeviceGetUUID, (dev, buf, NVML_DEVICE_UUID_V2_BUFFER_SIZE)),
		  buf, NVML_DEVICE_UUID_V2_BUFFER_SIZE);
	memset(buf, 0, sizeof(buf));
	nv_string(n, "serial",
		  NV(n, "serial", nvmlDeviceGetSerial, (dev, buf, NVML_DEVICE_SERIAL_BUFFER_SIZE)),
		  buf, NVML_DEVICE_SERIAL_BUFFER_SIZE);
	memset(buf, 0, sizeof(buf));
	nv_string(n, "vbios_version",
		  NV(n, "vbios_version", nvmlDeviceGetVbiosVersion,
		     (dev, buf, NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE)),
		  buf, NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE);
	if (NV(n, "minor_number", nvmlDeviceGetMinorNumber, (dev, &u)))
		vw_int(n->w, "minor_number", u);

	memset(&pci, 0, sizeof(pci));
	if (NV(n, "pci_bus_id", nvmlDeviceGetPciInfo, (dev, &pci), "pci_device_id")) {
		pci.busId[sizeof(pci.busId) - 1] = '\0';
		vw_str(n->w, "pci_bus_id", pci.busId);
		snprintf(buf, sizeof(buf), "0x%04x", pci.pciDeviceId >> 16);
		vw_str(n->w, "pci_device_id", buf);
	}
	nv_memory(n, dev, "");
	if (NV(n, "compute_capability", nvmlDeviceGetCudaComputeCapability,
	       (dev, &major, &minor))) {
		snprintf(buf, sizeof(buf), "%d.%d", major, minor);
		vw_str(n->w, "compute_capability", buf);
	}
	if (NV(n, "architecture", nvmlDeviceGetArchitecture, (dev, &u))) {
		if (arch_name(u))
			vw_str(n->w, "architecture", arch_name(u));
		else
			vw_state(n->w, "architecture", NULL, "malformed",
				 "unknown nvmlDeviceArchitecture_t value %u", u);
	}
	if (NV(n, "persistence_mode", nvmlDeviceGetPersistenceMode, (dev, &e1)))
		vw_bool(n->w, "persistence_mode", e1 == NVML_FEATURE_ENABLED);
	if (NV(n, "mig_mode", nvmlDeviceGetMigMode, (dev, &u, &u2), "mig_mode_pending")) {
		vw_bool(n->w, "mig_mode", u == NVML_DEVICE_MIG_ENABLE);
		vw_bool(n->w, "mig_mode_pending", u2 == NVML_DEVICE_MIG_ENABLE);
		if (u == NVML_DEVICE_MIG_ENABLE)
			nv_mig(n, dev);
	}
	if (NV(n, "ecc_mode", nvmlDeviceGetEccMode, (dev, &e1, &e2), "ecc_mode_pending")) {
		vw_bool(n->w, "ecc_mode", e1 == NVML_FEATURE_ENABLED);
		vw_bool(n->w, "ecc_mode_pending", e2 == NVML_FEATURE_ENABLED);
	}
	nv_memory_errors(n, dev);
	nv_temperatures(n, dev);
	nv_clocks(n, dev);
	nv_power(n, dev);
	if (NV(n, "pcie_link_gen", nvmlDeviceGetCurrPcieLinkGeneration, (dev, &u)))
		vw_int(n->w, "pcie_link_gen", u);
	if (NV(n, "pcie_link_gen_max", nvmlDeviceGetMaxPcieLinkGeneration, (dev, &u)))
		vw_int(n->w, "pcie_link_gen_max", u);
	if (NV(n, "pcie_link_width", nvmlDeviceGetCurrPcieLinkWidth, (dev, &u)))
		vw_int(n->w, "pcie_link_width", u);
	if (NV(n, "pcie_link_width_max", nvmlDeviceGetMaxPcieLinkWidth, (dev, &u)))
		vw_int(n->w, "pcie_link_width_max", u);
	if (NV(n, "pcie_replay_counter", nvmlDeviceGetPcieReplayCounter, (dev, &u))) {
		vw_int(n->w, "pcie_replay_counter", u);
		n->replay_read_ns[i] = now_ns();
	}
	nv_nvlink(n, dev);
	nv_processes(n, dev, false);
	nv_processes(n, dev, true);
}

/*
 * The replay counter counts since the driver loaded, which gpuenv cannot date, so one
 * reading gives no rate. It is read again once every device has been through, and the
 * second reading and the interval are kept: growth within that (sub-second) interval is a
 * rate far above the 8 a minute DCGM fails a GPU at (docs/formats/nvml.md §7).
 */
static void nv_replays_again(struct nvml *n, unsigned count)
{
	for (unsigned i = 0; i < count && i < NVML_MAX_DEVICES; i++) {
		nvmlDevice_t dev = NULL;
		unsigned u;

		if (!n->replay_read_ns[i])
			continue;
		vw_set_base(n->w, "devices.%u", i);
		if (!NV(n, "pcie_replay_counter_again", nvmlDeviceGetHandleByIndex, (i, &dev)) ||
		    !NV(n, "pcie_replay_counter_again", nvmlDeviceGetPcieReplayCounter, (dev, &u)))
			continue;
		vw_int(n->w, "pcie_replay_interval_ms",
		       (int64_t)((now_ns() - n->replay_read_ns[i]) / 1000000u));
		vw_int(n->w, "pcie_replay_counter_again", u);
	}
	vw_set_base(n->w, NULL);
}

static const char *const nvml_after_init[] = { "driver_version", "cuda_driver_version",
					       "device_count", "devices", NULL };
static const char *const nvml_keys[] = {
	"library",	"nvml_version", "init", "driver_version", "cuda_driver_version",
	"device_count", "devices",	NULL
};

static const char *const nvml_sonames[] = { "libnvidia-ml.so.1", "libnvidia-ml.so", NULL };
static const struct vendor_lib nvml_lib = {
	.sonames = nvml_sonames,
	.name = "libnvidia-ml",
	.not_this = "not an NVML library",
	.symbol_key = "init",
	.keys = nvml_keys + 1, /* all but "library" */
	.symbols = nvml_symbols,
	.n_symbols = ARRAY_SIZE(nvml_symbols),
};

/* The library, its version and nvmlInit: false (after recording why) when NVML cannot be
 * used, and the session ends. */
static bool nvml_open(struct nvml *n, const struct vendor_req *req)
{
	char buf[128];

	if (!vendor_child_load(n->w, req, &nvml_lib, &n->f))
		return false;
	memset(buf, 0, sizeof(buf));
	nv_string(n, "nvml_version",
		  NV(n, "nvml_version", nvmlSystemGetNVMLVersion,
		     (buf, NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE)),
		  buf, NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE);
	if (!NV(n, "init", nvmlInit, ())) {
		snprintf(buf, sizeof(buf), "%s failed", n->f.nvmlInit_name);
		vw_not_called(n->w, n->f.nvmlInit_name, buf, nvml_after_init);
		return false;
	}
	vw_str(n->w, "init", "NVML_SUCCESS");
	return true;
}

/* The driver and every device, once (what changes from one sample to the next). */
static void nvml_sweep(void *userdata)
{
	struct nvml *n = userdata;
	char buf[128];
	unsigned count;
	int cv;

	memset(n->replay_read_ns, 0, sizeof(n->replay_read_ns));
	vw_set_base(n->w, NULL);
	memset(buf, 0, sizeof(buf));
	nv_string(n, "driver_version",
		  NV(n, "driver_version", nvmlSystemGetDriverVersion,
		     (buf, NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE)),
		  buf, NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE);
	if (NV(n, "cuda_driver_version", nvmlSystemGetCudaDriverVersion, (&cv))) {
		/* 1000 * major + 10 * minor (nvml.md §7). */
		snprintf(buf, sizeof(buf), "%d.%d", cv / 1000, (cv % 1000) / 10);
		vw_str(n->w, "cuda_driver_version", buf);
	}
	if (NV(n, "device_count", nvmlDeviceGetCount, (&count))) {
		vw_int(n->w, "device_count", count);
		vw_array(n->w, "devices");
		for (unsigned i = 0; i < count && i < NVML_MAX_DEVICES; i++)
			nv_device(n, i);
		nv_replays_again(n, count);
	} else {
		vw_not_called(n->w, n->f.nvmlDeviceGetCount_name, "no device count",
			      (const char *const[]){ "devices", NULL });
	}
}

static int nvml_child(int fd, void *userdata)
{
	struct vwriter w = { .fd = fd };
	struct nvml n = { .w = &w };

	if (!nvml_open(&n, userdata))
		return w.err ? 1 : 0;
	nvml_sweep(&n);
	vw_begin(&w, NULL, n.f.nvmlShutdown_name);
	n.f.nvmlShutdown();
	return w.err ? 1 : 0;
}

/* The long-lived child: nvmlInit once, a sweep per request, nvmlShutdown at the end. */
static int nvml_server(int fd, void *userdata)
{
	struct vwriter w = { .fd = fd };
	struct nvml n = { .w = &w };

	if (!nvml_open(&n, userdata))
		return w.err ? 1 : 0;
	vendor_keep_serve(&w, nvml_sweep, &n);
	vw_begin(&w, NULL, n.f.nvmlShutdown_name);
	n.f.nvmlShutdown();
	return w.err ? 1 : 0;
}

static void nvml_session(const struct vendor_req *req, child_fn fn, struct vendor_session *vs)
{
	*vs = (struct vendor_session){
		.fn = fn,
		.userdata = (void *)req,
		.timeout_ms = req->timeout_ms,
		.prefix = "nvml:",
		.expected_keys = nvml_keys,
	};
}

/* vendor_nvml_keep_exec()'s launcher of the long-lived child; NULL: forked. */
static child_exec_fn nvml_keep_exec;

void vendor_nvml_keep_exec(child_exec_fn exec)
{
	nvml_keep_exec = exec;
}

_Noreturn void vendor_nvml_keeper_main(const int fds[CHILD_PROC_FDS], pid_t parent,
				       const struct vendor_keep_exec *what)
{
	/* static: the child under the keeper reads them after the forks */
	static struct vendor_req req;
	static struct vendor_session vs;
	static struct session_child_args args;
	static struct child_opts opts;

	req = (struct vendor_req){ .library = what->library };
	nvml_session(&req, nvml_server, &vs);
	args = (struct session_child_args){ .vs = &vs, .dir = what->dir };
	/* as the caller's keep_start() would have (session-keep.c); no deadline of its own */
	session_child_opts(&vs, &opts);
	child_proc_keeper_main(fds, parent, session_child, &args, &opts);
}

int vendor_nvml_start(const struct vendor_req *req, struct vendor_pending **ret)
{
	struct vendor_session vs;

	nvml_session(req, nvml_child, &vs);
	return vendor_session_start(&vs, ret);
}

int vendor_nvml_keep_collect(struct vendor_keep **keep, const struct vendor_req *req,
			     struct vendor_result *ret)
{
	struct vendor_session vs;

	nvml_session(req, nvml_server, &vs);
	vs.exec = nvml_keep_exec;
	vs.exec_what.library = req->library;
	vs.serial = req->serial;
	return vendor_keep_sample(keep, &vs, ret);
}
