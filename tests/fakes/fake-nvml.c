// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A fake libnvidia-ml.so.1 for the tests (never installed): every function gpuenv calls,
 * under the versioned and unversioned names the real 535+ library exports
 * (docs/formats/nvml.md §2), answering from the scenario file (fake-scenario.h):
 *   [nvml]            driver_version, nvml_version, cuda_driver_version (12040), device_count
 *   [nvml.device.N]   name, uuid, serial, vbios_version, minor_number, pci_bus_id,
 *                     pci_device_id (0x233010DE), memory_total/_reserved/_used (bytes),
 *                     compute_capability (9.0), architecture (nvmlDeviceArchitecture_t),
 *                     persistence_mode, mig_mode(_pending), ecc_mode(_pending),
 *                     ecc_uncorrected_volatile, retired_pages_pending, remapped_rows
 *                     ("corr unc pending failure"), temperature, power_usage (mW),
 *                     power_limit (mW), utilization_gpu, utilization_memory,
 *                     pcie_link_gen(_max), pcie_link_width(_max), nvlink_links,
 *                     nvlink_inactive (comma-separated link numbers), mig_max (most MIG
 *                     devices, 7 when left out), clocks_event_reasons (the mask, 0x48),
 *                     temperature_{shutdown,slowdown,gpu_max,mem_max} (thresholds),
 *                     temperature_memory (NVML_FI_DEV_MEMORY_TEMP), clock_{graphics,sm,mem}
 *                     and clock_{graphics,sm,mem}_max (MHz), pstate, fan_speed, energy (mJ),
 *                     utilization_encoder, utilization_decoder, pcie_replay_counter,
 *                     ecc_{uncorrected,corrected}_{volatile,aggregate},
 *                     pcie_replay_step (added on each further read), retired_pages_sbe,
 *                     retired_pages_dbe, compute_processes and
 *                     graphics_processes ("pid bytes[ gi ci], …"; bytes "na" for
 *                     NVML_VALUE_NOT_AVAILABLE)
 *   [nvml.process.PID] name (nvmlSystemGetProcessName; left out: NVML_ERROR_NOT_FOUND)
 *   [nvml.device.N.mig.M]  one MIG device (compute instance) at index M < mig_max: uuid,
 *                     name, gpu_instance_id, compute_instance_id, memory_total/_reserved/
 *                     _used (its own memory); an index with neither a uuid nor
 *                     a gpu_instance_id answers
 *                     NVML_ERROR_NOT_FOUND, as the real library does for an empty slot
 * A device value left out answers NVML_ERROR_NOT_SUPPORTED, as a real board lacking the
 * feature does. Without a scenario the library behaves like the real one on a machine with
 * no kernel module: nvmlInit → NVML_ERROR_DRIVER_NOT_LOADED. Built twice: FAKE_NVML_OLD
 * leaves out the versioned names (an old driver), to exercise the fallbacks.
 * Each export is declared with its *_fn type from src/vendor/nvml-abi.h, so the
 * declarations gpuenv uses and the fake cannot drift apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-nvml.h"

#define MAX_DEV 64
#define MAX_MIG 8

FAKE_API nvmlInit_fn nvmlInit_v2, nvmlInit;
FAKE_API nvmlShutdown_fn nvmlShutdown;
FAKE_API nvmlErrorString_fn nvmlErrorString;
FAKE_API nvmlSystemGetNVMLVersion_fn nvmlSystemGetNVMLVersion;
FAKE_API nvmlSystemGetDriverVersion_fn nvmlSystemGetDriverVersion;
FAKE_API nvmlSystemGetCudaDriverVersion_fn nvmlSystemGetCudaDriverVersion_v2,
	nvmlSystemGetCudaDriverVersion;
FAKE_API nvmlDeviceGetCount_fn nvmlDeviceGetCount_v2, nvmlDeviceGetCount;
FAKE_API nvmlDeviceGetHandleByIndex_fn nvmlDeviceGetHandleByIndex_v2, nvmlDeviceGetHandleByIndex;
FAKE_API nvmlDeviceGetName_fn nvmlDeviceGetName;
FAKE_API nvmlDeviceGetUUID_fn nvmlDeviceGetUUID;
FAKE_API nvmlDeviceGetSerial_fn nvmlDeviceGetSerial;
FAKE_API nvmlDeviceGetBrand_fn nvmlDeviceGetBrand;
FAKE_API nvmlDeviceGetVbiosVersion_fn nvmlDeviceGetVbiosVersion;
FAKE_API nvmlDeviceGetMinorNumber_fn nvmlDeviceGetMinorNumber;
FAKE_API nvmlDeviceGetPciInfo_fn nvmlDeviceGetPciInfo_v3, nvmlDeviceGetPciInfo_v2;
FAKE_API nvmlDeviceGetMemoryInfo_v2_fn nvmlDeviceGetMemoryInfo_v2;
FAKE_API nvmlDeviceGetMemoryInfo_fn nvmlDeviceGetMemoryInfo;
FAKE_API nvmlDeviceGetCudaComputeCapability_fn nvmlDeviceGetCudaComputeCapability;
FAKE_API nvmlDeviceGetArchitecture_fn nvmlDeviceGetArchitecture;
FAKE_API nvmlDeviceGetPersistenceMode_fn nvmlDeviceGetPersistenceMode;
FAKE_API nvmlDeviceGetMigMode_fn nvmlDeviceGetMigMode;
FAKE_API nvmlDeviceGetEccMode_fn nvmlDeviceGetEccMode;
FAKE_API nvmlDeviceGetTotalEccErrors_fn nvmlDeviceGetTotalEccErrors;
FAKE_API nvmlDeviceGetTemperature_fn nvmlDeviceGetTemperature;
FAKE_API nvmlDeviceGetPowerUsage_fn nvmlDeviceGetPowerUsage;
FAKE_API nvmlDeviceGetEnforcedPowerLimit_fn nvmlDeviceGetEnforcedPowerLimit;
FAKE_API nvmlDeviceGetUtilizationRates_fn nvmlDeviceGetUtilizationRates;
FAKE_API nvmlDeviceGetCurrPcieLinkGeneration_fn nvmlDeviceGetCurrPcieLinkGeneration;
FAKE_API nvmlDeviceGetMaxPcieLinkGeneration_fn nvmlDeviceGetMaxPcieLinkGeneration;
FAKE_API nvmlDeviceGetCurrPcieLinkWidth_fn nvmlDeviceGetCurrPcieLinkWidth;
FAKE_API nvmlDeviceGetMaxPcieLinkWidth_fn nvmlDeviceGetMaxPcieLinkWidth;
FAKE_API nvmlDeviceGetNvLinkState_fn nvmlDeviceGetNvLinkState;
FAKE_API nvmlDeviceGetRetiredPagesPendingStatus_fn nvmlDeviceGetRetiredPagesPendingStatus;
FAKE_API nvmlDeviceGetRemappedRows_fn nvmlDeviceGetRemappedRows;
FAKE_API nvmlDeviceGetMaxMigDeviceCount_fn nvmlDeviceGetMaxMigDeviceCount;
FAKE_API nvmlDeviceGetMigDeviceHandleByIndex_fn nvmlDeviceGetMigDeviceHandleByIndex;
FAKE_API nvmlDeviceGetGpuInstanceId_fn nvmlDeviceGetGpuInstanceId;
FAKE_API nvmlDeviceGetComputeInstanceId_fn nvmlDeviceGetComputeInstanceId;

static const struct fake_code codes[] = {
	{ 0, "NVML_SUCCESS", "Success" },
	{ 1, "NVML_ERROR_UNINITIALIZED", "Uninitialized" },
	{ 2, "NVML_ERROR_INVALID_ARGUMENT", "Invalid Argument" },
	{ 3, "NVML_ERROR_NOT_SUPPORTED", "Not Supported" },
	{ 4, "NVML_ERROR_NO_PERMISSION", "Insufficient Permissions" },
	{ 6, "NVML_ERROR_NOT_FOUND", "Not Found" },
	{ 7, "NVML_ERROR_INSUFFICIENT_SIZE", "Insufficient Size" },
	{ 9, "NVML_ERROR_DRIVER_NOT_LOADED", "Driver Not Loaded" },
	{ 10, "NVML_ERROR_TIMEOUT", "Timeout" },
	{ 13, "NVML_ERROR_FUNCTION_NOT_FOUND", "Function Not Found" },
	{ 14, "NVML_ERROR_CORRUPTED_INFOROM", "Corrupted infoROM" },
	{ 15, "NVML_ERROR_GPU_IS_LOST", "GPU is lost" },
	{ 16, "NVML_ERROR_RESET_REQUIRED", "GPU requires reset" },
	{ 17, "NVML_ERROR_OPERATING_SYSTEM", "GPU access blocked by the operating system" },
	{ 18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "Driver/library version mismatch" },
	{ 28, "NVML_ERROR_GPU_NOT_FOUND", "Unknown Error" }, /* 535 does not know 28 */
	{ 999, "NVML_ERROR_UNKNOWN", "Unknown Error" },
};

#define N_CODES (sizeof(codes) / sizeof(codes[0]))

int nv_code_of(const char *name)
{
	const struct fake_code *c = fake_code_by_name(codes, N_CODES, name);

	return c ? c->code : NVML_ERROR_UNKNOWN;
}

int nv_initialized;
static struct nvmlDevice_st devices[MAX_DEV], migs[MAX_DEV][MAX_MIG];

bool nv_valid_handle(nvmlDevice_t d)
{
	struct nvmlDevice_st *m = &migs[0][0];

	if (!d)
		return false;
	if (d >= devices && d < devices + MAX_DEV)
		return d->section[0];
	return d >= m && d < m + MAX_DEV * MAX_MIG && d->section[0];
}

static nvmlReturn_t init(const char *fn)
{
	ENTER(fn, NULL);
	if (!fake_get(S, "driver_version"))
		return NVML_ERROR_DRIVER_NOT_LOADED;
	nv_initialized++;
	return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
nvmlReturn_t nvmlInit_v2(void)
{
	return init(__func__);
}
#endif

nvmlReturn_t nvmlInit(void)
{
	return init(__func__);
}

nvmlReturn_t nvmlShutdown(void)
{
	ENTER(__func__, NULL);
	if (nv_initialized)
		nv_initialized--;
	return NVML_SUCCESS;
}

const char *nvmlErrorString(nvmlReturn_t rc)
{
	const struct fake_code *c = fake_code_by_value(codes, N_CODES, (int)rc);

	return c ? c->text : "Unknown Error";
}

static nvmlReturn_t copy_str(const char *v, char *buf, unsigned len)
{
	if (!v)
		return NVML_ERROR_NOT_SUPPORTED;
	if (!buf)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (strlen(v) + 1 > len)
		return NVML_ERROR_INSUFFICIENT_SIZE;
	memcpy(buf, v, strlen(v) + 1);
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *buf, unsigned len)
{
	ENTER(__func__, NULL);
	/* Works before nvmlInit (nvml.md §6). */
	return copy_str(fake_get(S, "nvml_version") ?: "12.535.261.03", buf, len);
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *buf, unsigned len)
{
	ENTER(__func__, NULL);
	if (!nv_initialized)
		return NVML_ERROR_UNINITIALIZED;
	return copy_str(fake_get(S, "driver_version"), buf, len);
}

static nvmlReturn_t cuda_version(const char *fn, int *v)
{
	unsigned long long x;

	ENTER(fn, NULL);
	if (!nv_initialized)
		return NVML_ERROR_UNINITIALIZED;
	if (!fake_uint(S, "cuda_driver_version", &x))
		return NVML_ERROR_NOT_SUPPORTED;
	*v = (int)x;
	return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *v)
{
	return cuda_version(__func__, v);
}
#endif

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *v)
{
	return cuda_version(__func__, v);
}

static unsigned count(void)
{
	unsigned long long n;

	if (fake_uint(S, "device_count", &n))
		return n > MAX_DEV ? MAX_DEV : (unsigned)n;
	return fake_count("nvml.device.");
}

static nvmlReturn_t get_count(const char *fn, unsigned *n)
{
	ENTER(fn, NULL);
	if (!nv_initialized)
		return NVML_ERROR_UNINITIALIZED;
	if (!n)
		return NVML_ERROR_INVALID_ARGUMENT;
	*n = count();
	return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned *n)
{
	return get_count(__func__, n);
}
#endif

nvmlReturn_t nvmlDeviceGetCount(unsigned *n)
{
	return get_count(__func__, n);
}

static nvmlReturn_t get_handle(const char *fn, unsigned i, nvmlDevice_t *d)
{
	char sec[32];

	snprintf(sec, sizeof(sec), "nvml.device.%u", i);
	ENTER(fn, sec);
	if (!nv_initialized)
		return NVML_ERROR_UNINITIALIZED;
	if (i >= count() || !d)
		return NVML_ERROR_INVALID_ARGUMENT;
	devices[i].index = i;
	memcpy(devices[i].section, sec, sizeof(sec));
	*d = &devices[i];
	return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t *d)
{
	return get_handle(__func__, i, d);
}
#endif

nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned i, nvmlDevice_t *d)
{
	return get_handle(__func__, i, d);
}

nvmlReturn_t nv_dev_uint(nvmlDevice_t d, const char *key, unsigned *ret)
{
	unsigned long long v;

	if (!fake_uint(d->section, key, &v))
		return NVML_ERROR_NOT_SUPPORTED;
	if (!ret)
		return NVML_ERROR_INVALID_ARGUMENT;
	*ret = (unsigned)v;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *buf, unsigned len)
{
	DEV_ENTER(__func__, d);
	return copy_str(fake_get(d->section, "name"), buf, len);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *buf, unsigned len)
{
	DEV_ENTER(__func__, d);
	return copy_str(fake_get(d->section, "uuid"), buf, len);
}

nvmlReturn_t nvmlDeviceGetSerial(nvmlDevice_t d, char *buf, unsigned len)
{
	DEV_ENTER(__func__, d);
	return copy_str(fake_get(d->section, "serial"), buf, len);
}

/* brand = the nvmlBrandType_t number (nvml.h: 2 Tesla, 5 GeForce, 14 NVIDIA …) */
nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t d, nvmlBrandType_t *b)
{
	unsigned v;
	nvmlReturn_t rc;

	DEV_ENTER(__func__, d);
	rc = nv_dev_uint(d, "brand", &v);
	if (rc == NVML_SUCCESS && b)
		*b = (nvmlBrandType_t)v;
	return b ? rc : NVML_ERROR_INVALID_ARGUMENT;
}

nvmlReturn_t nvmlDeviceGetVbiosVersion(nvmlDevice_t d, char *buf, unsigned len)
{
	DEV_ENTER(__func__, d);
	return copy_str(fake_get(d->section, "vbios_version"), buf, len);
}

nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t d, unsigned *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "minor_number", v);
}

static nvmlReturn_t pci_info(const char *fn, nvmlDevice_t d, nvmlPciInfo_t *p)
{
	const char *bus = fake_get(d->section, "pci_bus_id");
	unsigned long long id = 0, sub = 0;
	unsigned dom, b, dev;

	DEV_ENTER(fn, d);
	if (!bus || sscanf(bus, "%x:%x:%x.", &dom, &b, &dev) != 3)
		return NVML_ERROR_NOT_SUPPORTED;
	fake_uint(d->section, "pci_device_id", &id);
	fake_uint(d->section, "pci_subsystem_id", &sub);
	memset(p, 0, sizeof(*p));
	snprintf(p->busIdLegacy, sizeof(p->busIdLegacy), "%04X:%02X:%02X.0", dom & 0xffff, b, dev);
	snprintf(p->busId, sizeof(p->busId), "%08X:%02X:%02X.0", dom, b, dev);
	p->domain = dom;
	p->bus = b;
	p->device = dev;
	p->pciDeviceId = (unsigned)id;
	p->pciSubSystemId = (unsigned)sub;
	return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *p)
{
	return pci_info(__func__, d, p);
}
#endif

nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t d, nvmlPciInfo_t *p)
{
	return pci_info(__func__, d, p);
}

static bool memory(nvmlDevice_t d, unsigned long long *total, unsigned long long *reserved,
		   unsigned long long *used)
{
	*reserved = 0;
	*used = 0;
	fake_uint(d->section, "memory_reserved", reserved);
	fake_uint(d->section, "memory_used", used);
	return fake_uint(d->section, "memory_total", total);
}

#ifndef FAKE_NVML_OLD
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, nvmlMemory_v2_t *m)
{
	unsigned long long t, r, u;

	DEV_ENTER(__func__, d);
	/* A bare 2 instead of NVML_STRUCT_VERSION(Memory, 2) fails (nvml.md §4). */
	if (!m || m->version != NVML_MEMORY_V2_VERSION)
		return NVML_ERROR_FUNCTION_NOT_FOUND;
	if (!memory(d, &t, &r, &u))
		return NVML_ERROR_NOT_SUPPORTED;
	m->total = t;
	m->reserved = r;
	m->used = u;
	m->free = t - r - u;
	return NVML_SUCCESS;
}
#endif

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m)
{
	unsigned long long t, r, u;

	DEV_ENTER(__func__, d);
	if (!m)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!memory(d, &t, &r, &u))
		return NVML_ERROR_NOT_SUPPORTED;
	/* v1 "used" includes what the driver reserved. */
	m->total = t;
	m->used = u + r;
	m->free = t - r - u;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor)
{
	const char *v;

	DEV_ENTER(__func__, d);
	v = fake_get(d->section, "compute_capability");
	if (!v || sscanf(v, "%d.%d", major, minor) != 2)
		return NVML_ERROR_NOT_SUPPORTED;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t d, unsigned *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "architecture", v);
}

nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d, nvmlEnableState_t *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "persistence_mode", (unsigned *)v);
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned *cur, unsigned *pending)
{
	nvmlReturn_t rc;

	DEV_ENTER(__func__, d);
	rc = nv_dev_uint(d, "mig_mode", cur);
	if (rc == NVML_SUCCESS && nv_dev_uint(d, "mig_mode_pending", pending) != NVML_SUCCESS)
		*pending = *cur;
	return rc;
}

nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d, nvmlEnableState_t *cur,
				  nvmlEnableState_t *pending)
{
	nvmlReturn_t rc;

	DEV_ENTER(__func__, d);
	rc = nv_dev_uint(d, "ecc_mode", (unsigned *)cur);
	if (rc == NVML_SUCCESS &&
	    nv_dev_uint(d, "ecc_mode_pending", (unsigned *)pending) != NVML_SUCCESS)
		*pending = *cur;
	return rc;
}

nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int type, int counter,
					 unsigned long long *v)
{
	char key[48];

	DEV_ENTER(__func__, d);
	if (type < 0 || type > 1 || counter < 0 || counter > 1 || !v)
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(key, sizeof(key), "ecc_%s_%s", type ? "uncorrected" : "corrected",
		 counter ? "aggregate" : "volatile");
	return fake_uint(d->section, key, v) ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned *v)
{
	DEV_ENTER(__func__, d);
	if (sensor != NVML_TEMPERATURE_GPU)
		return NVML_ERROR_INVALID_ARGUMENT;
	return nv_dev_uint(d, "temperature", v);
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "power_usage", v);
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "power_limit", v);
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u)
{
	nvmlReturn_t rc;

	DEV_ENTER(__func__, d);
	if (!u)
		return NVML_ERROR_INVALID_ARGUMENT;
	rc = nv_dev_uint(d, "utilization_gpu", &u->gpu);
	if (rc == NVML_SUCCESS)
		rc = nv_dev_uint(d, "utilization_memory", &u->memory);
	return rc;
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "pcie_link_gen", v);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "pcie_link_gen_max", v);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "pcie_link_width", v);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "pcie_link_width_max", v);
}

nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned link, nvmlEnableState_t *active)
{
	unsigned links;
	const char *inactive;
	char key[48];
	int code;

	DEV_ENTER(__func__, d);
	snprintf(key, sizeof(key), "nvmlDeviceGetNvLinkState.%u", link);
	if (fake_inject(S, d->section, key, nv_code_of, &code))
		return code;
	if (nv_dev_uint(d, "nvlink_links", &links) != NVML_SUCCESS)
		return NVML_ERROR_NOT_SUPPORTED;
	if (link >= links || !active)
		return NVML_ERROR_INVALID_ARGUMENT;
	*active = NVML_FEATURE_ENABLED;
	inactive = fake_get(d->section, "nvlink_inactive");
	for (const char *p = inactive; p && *p;) {
		char *end;
		unsigned long l = strtoul(p, &end, 10);

		if (end == p)
			break;
		if (l == link)
			*active = 0;
		p = *end == ',' ? end + 1 : end;
	}
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t d, nvmlEnableState_t *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "retired_pages_pending", (unsigned *)v);
}

nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned *corr, unsigned *unc,
				       unsigned *pending, unsigned *failure)
{
	const char *v;

	DEV_ENTER(__func__, d);
	v = fake_get(d->section, "remapped_rows");
	if (!v || sscanf(v, "%u %u %u %u", corr, unc, pending, failure) != 4)
		return NVML_ERROR_NOT_SUPPORTED;
	return NVML_SUCCESS;
}

/* ---- MIG ---------------------------------------------------------------------------- */

static bool is_mig(nvmlDevice_t d)
{
	return d >= &migs[0][0] && d < &migs[0][0] + MAX_DEV * MAX_MIG;
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t d, unsigned *count)
{
	unsigned long long v = 7;

	DEV_ENTER(__func__, d);
	if (!count || is_mig(d))
		return NVML_ERROR_INVALID_ARGUMENT;
	fake_uint(d->section, "mig_max", &v);
	*count = v > MAX_MIG ? MAX_MIG : (unsigned)v;
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t d, unsigned index, nvmlDevice_t *ret)
{
	unsigned long long mode = 0;
	char sec[sizeof(d->section)];

	DEV_ENTER(__func__, d);
	if (!ret || is_mig(d) || index >= MAX_MIG)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!fake_uint(d->section, "mig_mode", &mode) || mode != NVML_DEVICE_MIG_ENABLE)
		return NVML_ERROR_NOT_SUPPORTED;
	snprintf(sec, sizeof(sec), "%.40s.mig.%u", d->section, index % 100);
	if (!fake_get(sec, "uuid") && !fake_get(sec, "gpu_instance_id"))
		return NVML_ERROR_NOT_FOUND;
	snprintf(migs[d->index][index].section, sizeof(migs[d->index][index].section), "%s", sec);
	migs[d->index][index].index = d->index;
	*ret = &migs[d->index][index];
	return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t d, unsigned *id)
{
	DEV_ENTER(__func__, d);
	if (!is_mig(d))
		return NVML_ERROR_INVALID_ARGUMENT;
	return nv_dev_uint(d, "gpu_instance_id", id);
}

nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t d, unsigned *id)
{
	DEV_ENTER(__func__, d);
	if (!is_mig(d))
		return NVML_ERROR_INVALID_ARGUMENT;
	return nv_dev_uint(d, "compute_instance_id", id);
}
