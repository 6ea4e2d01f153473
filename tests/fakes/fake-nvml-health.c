// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fake libnvidia-ml's health and telemetry exports (test code; the scenario keys are
 * listed in fake-nvml.c): temperature thresholds and the HBM temperature field, clocks,
 * performance state, fan, energy, encoder/decoder use, PCIe replays, clocks event reasons,
 * retired pages and the running processes, under the names the real 535+ library exports
 * (the process lists also as _v2 and unversioned, with their entry sizes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-nvml.h"

FAKE_API nvmlDeviceGetCurrentClocksEventReasons_fn nvmlDeviceGetCurrentClocksEventReasons,
	nvmlDeviceGetCurrentClocksThrottleReasons;
FAKE_API nvmlDeviceGetTemperatureThreshold_fn nvmlDeviceGetTemperatureThreshold;
FAKE_API nvmlDeviceGetFieldValues_fn nvmlDeviceGetFieldValues;
FAKE_API nvmlDeviceGetClockInfo_fn nvmlDeviceGetClockInfo;
FAKE_API nvmlDeviceGetMaxClockInfo_fn nvmlDeviceGetMaxClockInfo;
FAKE_API nvmlDeviceGetPerformanceState_fn nvmlDeviceGetPerformanceState;
FAKE_API nvmlDeviceGetFanSpeed_fn nvmlDeviceGetFanSpeed;
FAKE_API nvmlDeviceGetTotalEnergyConsumption_fn nvmlDeviceGetTotalEnergyConsumption;
FAKE_API nvmlDeviceGetEncoderUtilization_fn nvmlDeviceGetEncoderUtilization;
FAKE_API nvmlDeviceGetDecoderUtilization_fn nvmlDeviceGetDecoderUtilization;
FAKE_API nvmlDeviceGetPcieReplayCounter_fn nvmlDeviceGetPcieReplayCounter;
FAKE_API nvmlDeviceGetRetiredPages_fn nvmlDeviceGetRetiredPages;
FAKE_API nvmlDeviceGetComputeRunningProcesses_fn nvmlDeviceGetComputeRunningProcesses_v3,
	nvmlDeviceGetComputeRunningProcesses_v2, nvmlDeviceGetComputeRunningProcesses;
FAKE_API nvmlDeviceGetGraphicsRunningProcesses_fn nvmlDeviceGetGraphicsRunningProcesses_v3,
	nvmlDeviceGetGraphicsRunningProcesses_v2, nvmlDeviceGetGraphicsRunningProcesses;
FAKE_API nvmlSystemGetProcessName_fn nvmlSystemGetProcessName;

nvmlReturn_t nvmlDeviceGetTemperatureThreshold(nvmlDevice_t d, int type, unsigned *v)
{
	static const char *const keys[] = { "temperature_shutdown", "temperature_slowdown",
					    "temperature_mem_max", "temperature_gpu_max" };

	DEV_ENTER(__func__, d);
	if (type < 0 || type > 7)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (type >= 4)
		return NVML_ERROR_NOT_SUPPORTED;
	return nv_dev_uint(d, keys[type], v);
}

nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t d, int count, nvmlFieldValue_t *values)
{
	DEV_ENTER(__func__, d);
	if (count < 0 || (count && !values))
		return NVML_ERROR_INVALID_ARGUMENT;
	for (int i = 0; i < count; i++) {
		unsigned v;

		values[i].timestamp = 1764850000000000ll;
		values[i].latencyUsec = 0;
		if (values[i].fieldId != NVML_FI_DEV_MEMORY_TEMP) {
			values[i].nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
			continue;
		}
		values[i].nvmlReturn = nv_dev_uint(d, "temperature_memory", &v);
		values[i].valueType = NVML_VALUE_TYPE_UNSIGNED_INT;
		values[i].value.uiVal = v;
	}
	return NVML_SUCCESS;
}

static const char *clock_key(int type, bool max)
{
	static const char *const cur[] = { "clock_graphics", "clock_sm", "clock_mem" };
	static const char *const top[] = { "clock_graphics_max", "clock_sm_max", "clock_mem_max" };

	if (type < 0 || type > 2)
		return NULL;
	return max ? top[type] : cur[type];
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned *v)
{
	DEV_ENTER(__func__, d);
	if (!clock_key(type, false))
		return NVML_ERROR_INVALID_ARGUMENT;
	return nv_dev_uint(d, clock_key(type, false), v);
}

nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type, unsigned *v)
{
	DEV_ENTER(__func__, d);
	if (!clock_key(type, true))
		return NVML_ERROR_INVALID_ARGUMENT;
	return nv_dev_uint(d, clock_key(type, true), v);
}

nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t d, int *p)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "pstate", (unsigned *)p);
}

nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t d, unsigned *v)
{
	DEV_ENTER(__func__, d);
	return nv_dev_uint(d, "fan_speed", v);
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long *v)
{
	DEV_ENTER(__func__, d);
	return fake_uint(d->section, "energy", v) ? NVML_SUCCESS : NVML_ERROR_NOT_SUPPORTED;
}

static nvmlReturn_t codec_util(const char *fn, nvmlDevice_t d, const char *key, unsigned *v,
			       unsigned *period)
{
	DEV_ENTER(fn, d);
	if (!period)
		return NVML_ERROR_INVALID_ARGUMENT;
	*period = 167000;
	return nv_dev_uint(d, key, v);
}

nvmlReturn_t nvmlDeviceGetEncoderUtilization(nvmlDevice_t d, unsigned *v, unsigned *period)
{
	return codec_util(__func__, d, "utilization_encoder", v, period);
}

nvmlReturn_t nvmlDeviceGetDecoderUtilization(nvmlDevice_t d, unsigned *v, unsigned *period)
{
	return codec_util(__func__, d, "utilization_decoder", v, period);
}

/* pcie_replay_step: what the counter grows by between one read and the next (a link
 * retrying while gpuenv looks). */
nvmlReturn_t nvmlDeviceGetPcieReplayCounter(nvmlDevice_t d, unsigned *v)
{
	unsigned long long step = 0;
	nvmlReturn_t rc;

	DEV_ENTER(__func__, d);
	rc = nv_dev_uint(d, "pcie_replay_counter", v);
	if (rc == NVML_SUCCESS && fake_uint(d->section, "pcie_replay_step", &step))
		*v += (unsigned)step * d->replay_reads++;
	return rc;
}

static nvmlReturn_t clocks_event_reasons(const char *fn, nvmlDevice_t d, unsigned long long *v)
{
	DEV_ENTER(fn, d);
	if (!v)
		return NVML_ERROR_INVALID_ARGUMENT;
	return fake_uint(d->section, "clocks_event_reasons", v) ? NVML_SUCCESS
								: NVML_ERROR_NOT_SUPPORTED;
}

/* The new name arrived with R535 (nvml.h 12.2); older libraries have the throttle one. */
#ifndef FAKE_NVML_OLD
nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *v)
{
	return clocks_event_reasons(__func__, d, v);
}
#endif

nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long *v)
{
	return clocks_event_reasons(__func__, d, v);
}

nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t d, int cause, unsigned *count,
				       unsigned long long *addresses)
{
	unsigned n;
	nvmlReturn_t rc;

	DEV_ENTER(__func__, d);
	if (cause < 0 || cause > 1 || !count)
		return NVML_ERROR_INVALID_ARGUMENT;
	rc = nv_dev_uint(d, cause ? "retired_pages_dbe" : "retired_pages_sbe", &n);
	if (rc != NVML_SUCCESS)
		return rc;
	if (*count < n) {
		*count = n;
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	for (unsigned i = 0; i < n && addresses; i++)
		addresses[i] = 0x1000ull * (i + 1);
	*count = n;
	return NVML_SUCCESS;
}

/* "pid bytes[ gi ci], pid bytes…" into entries of entry_size bytes (24: nvmlProcessInfo_t,
 * 16: nvmlProcessInfo_v1_t), as the real library fills them. */
static nvmlReturn_t processes(const char *fn, nvmlDevice_t d, const char *key, unsigned *count,
			      void *infos, size_t entry_size)
{
	const char *list;
	unsigned n = 0;

	DEV_ENTER(fn, d);
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	list = fake_get(d->section, key);
	if (!list)
		return NVML_ERROR_NOT_SUPPORTED;
	for (const char *p = list; *p;) {
		nvmlProcessInfo_t e = { .gpuInstanceId = 0xffffffffu,
					.computeInstanceId = 0xffffffffu };
		char mem[32] = "";
		int used = 0, got;

		got = sscanf(p, "%u %31[0-9na] %n%u %u", &e.pid, mem, &used, &e.gpuInstanceId,
			     &e.computeInstanceId);
		if (got < 2)
			break;
		e.usedGpuMemory =
			strcmp(mem, "na") ? strtoull(mem, NULL, 10) : NVML_VALUE_NOT_AVAILABLE;
		if (n < *count && infos) {
			if (entry_size == sizeof(nvmlProcessInfo_t))
				((nvmlProcessInfo_t *)infos)[n] = e;
			else
				((nvmlProcessInfo_v1_t *)infos)[n] =
					(nvmlProcessInfo_v1_t){ .pid = e.pid,
								.usedGpuMemory = e.usedGpuMemory };
		}
		n++;
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
	if (n > *count) {
		*count = n;
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	*count = n;
	return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned *n, void *infos)
{
	return processes(__func__, d, "compute_processes", n, infos, sizeof(nvmlProcessInfo_t));
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t d, unsigned *n, void *infos)
{
	return processes(__func__, d, "compute_processes", n, infos, sizeof(nvmlProcessInfo_t));
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t d, unsigned *n, void *infos)
{
	return processes(__func__, d, "graphics_processes", n, infos, sizeof(nvmlProcessInfo_t));
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v2(nvmlDevice_t d, unsigned *n, void *infos)
{
	return processes(__func__, d, "graphics_processes", n, infos, sizeof(nvmlProcessInfo_t));
}
#endif

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t d, unsigned *n, void *infos)
{
	return processes(__func__, d, "compute_processes", n, infos, sizeof(nvmlProcessInfo_v1_t));
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses(nvmlDevice_t d, unsigned *n, void *infos)
{
	return processes(__func__, d, "graphics_processes", n, infos, sizeof(nvmlProcessInfo_v1_t));
}

nvmlReturn_t nvmlSystemGetProcessName(unsigned pid, char *buf, unsigned len)
{
	char sec[40];
	const char *name;

	ENTER(__func__, NULL);
	if (!nv_initialized)
		return NVML_ERROR_UNINITIALIZED;
	snprintf(sec, sizeof(sec), "nvml.process.%u", pid);
	name = fake_get(sec, "name");
	if (!name)
		return NVML_ERROR_NOT_FOUND;
	/* The real library truncates to the buffer. */
	if (!buf || !len)
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(buf, len, "%s", name);
	return NVML_SUCCESS;
}
