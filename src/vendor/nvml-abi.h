/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Our own declarations of the NVML subset gpuenv calls (no NVIDIA header; nvtop's approach,
 * Syllo/nvtop src/extract_gpuinfo_nvidia.c). Prototypes, struct layouts, constants and return
 * codes as recorded in docs/formats/nvml.md (nvml.h 13.3, x86-64 sizes checked by
 * compiling against it; enums are int-sized). The fake library in tests/fakes/ is compiled
 * against this header and declares each of its exports with the *_fn types below, so a
 * prototype that drifts fails to compile there.
 *
 * NVML_SYMBOLS(X): X(field, required, return type, (parameters), names tried in order…).
 */
#pragma once

#include <assert.h>

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef int nvmlEnableState_t;
/* nvml.h nvmlBrandType_t: NVML_BRAND_UNKNOWN 0, QUADRO 1, TESLA 2, NVS 3, GRID 4, GEFORCE 5,
 * TITAN 6, then the virtual-GPU and RTX brands (7 … 16) */
typedef int nvmlBrandType_t;

#define NVML_SUCCESS			     0
#define NVML_ERROR_UNINITIALIZED	     1
#define NVML_ERROR_INVALID_ARGUMENT	     2
#define NVML_ERROR_NOT_SUPPORTED	     3
#define NVML_ERROR_NO_PERMISSION	     4
#define NVML_ERROR_INSUFFICIENT_SIZE	     7
#define NVML_ERROR_NOT_FOUND		     6
#define NVML_ERROR_DRIVER_NOT_LOADED	     9
#define NVML_ERROR_FUNCTION_NOT_FOUND	     13
#define NVML_ERROR_GPU_IS_LOST		     15
#define NVML_ERROR_LIB_RM_VERSION_MISMATCH   18
#define NVML_ERROR_ARGUMENT_VERSION_MISMATCH 25
#define NVML_ERROR_UNKNOWN		     999

#define NVML_FEATURE_ENABLED		   1
#define NVML_DEVICE_MIG_ENABLE		   1
#define NVML_TEMPERATURE_GPU		   0
#define NVML_MEMORY_ERROR_TYPE_CORRECTED   0
#define NVML_MEMORY_ERROR_TYPE_UNCORRECTED 1
#define NVML_VOLATILE_ECC		   0
#define NVML_AGGREGATE_ECC		   1

/* nvmlTemperatureThresholds_t */
#define NVML_TEMPERATURE_THRESHOLD_SHUTDOWN 0
#define NVML_TEMPERATURE_THRESHOLD_SLOWDOWN 1
#define NVML_TEMPERATURE_THRESHOLD_MEM_MAX  2
#define NVML_TEMPERATURE_THRESHOLD_GPU_MAX  3

/* nvmlClockType_t */
#define NVML_CLOCK_GRAPHICS 0
#define NVML_CLOCK_SM	    1
#define NVML_CLOCK_MEM	    2

/* nvmlPageRetirementCause_t */
#define NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS 0
#define NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR		  1

/* nvmlClocksEventReason* (the older names: nvmlClocksThrottleReason*), one bit each. */
#define NVML_CLOCKS_EVENT_GPU_IDLE		  0x1ull
#define NVML_CLOCKS_EVENT_APPLICATIONS_CLOCKS	  0x2ull
#define NVML_CLOCKS_EVENT_SW_POWER_CAP		  0x4ull
#define NVML_CLOCKS_EVENT_HW_SLOWDOWN		  0x8ull
#define NVML_CLOCKS_EVENT_SYNC_BOOST		  0x10ull
#define NVML_CLOCKS_EVENT_SW_THERMAL_SLOWDOWN	  0x20ull
#define NVML_CLOCKS_EVENT_HW_THERMAL_SLOWDOWN	  0x40ull
#define NVML_CLOCKS_EVENT_HW_POWER_BRAKE_SLOWDOWN 0x80ull
#define NVML_CLOCKS_EVENT_DISPLAY_CLOCK_SETTING	  0x100ull

/* nvmlFieldValue_t field ids and value types (nvml.h NVML_FI_*, NVML_VALUE_TYPE_*). */
#define NVML_FI_DEV_MEMORY_TEMP		   82
#define NVML_VALUE_TYPE_DOUBLE		   0
#define NVML_VALUE_TYPE_UNSIGNED_INT	   1
#define NVML_VALUE_TYPE_UNSIGNED_LONG	   2
#define NVML_VALUE_TYPE_UNSIGNED_LONG_LONG 3
#define NVML_VALUE_TYPE_SIGNED_LONG_LONG   4
#define NVML_VALUE_TYPE_SIGNED_INT	   5

/* nvmlProcessInfo_t.usedGpuMemory when the driver cannot tell (Windows WDDM, some
 * containers). */
#define NVML_VALUE_NOT_AVAILABLE (~0ull)
#define NVML_NVLINK_MAX_LINKS	 36 /* nvml.h 13.x; older headers had fewer */

#define NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE 80
#define NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE   80
#define NVML_DEVICE_NAME_V2_BUFFER_SIZE	       96
#define NVML_DEVICE_UUID_V2_BUFFER_SIZE	       96
#define NVML_DEVICE_SERIAL_BUFFER_SIZE	       30
#define NVML_DEVICE_VBIOS_VERSION_BUFFER_SIZE  32

typedef struct nvmlPciInfo_st {
	char busIdLegacy[16];
	unsigned int domain;
	unsigned int bus;
	unsigned int device;
	unsigned int pciDeviceId; /* (device id << 16) | vendor id */
	unsigned int pciSubSystemId;
	char busId[32]; /* "%08X:%02X:%02X.0" */
} nvmlPciInfo_t;

typedef struct nvmlMemory_st {
	unsigned long long total, free, used;
} nvmlMemory_t;

typedef struct nvmlMemory_v2_st {
	unsigned int version;
	unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;
/* NVML_STRUCT_VERSION(Memory, 2): a bare 2 makes the call fail (docs/formats/nvml.md §4). */
#define NVML_MEMORY_V2_VERSION ((unsigned int)(sizeof(nvmlMemory_v2_t) | 2u << 24))

typedef struct nvmlUtilization_st {
	unsigned int gpu, memory;
} nvmlUtilization_t;

/* The entries of nvmlDeviceGet{Compute,Graphics}RunningProcesses: the _v3 and _v2 symbols
 * fill nvmlProcessInfo_t (nvml.h 13.3; the _v2 one's nvmlProcessInfo_v2_t has the same
 * layout), the unversioned one the older two-field nvmlProcessInfo_v1_t. */
typedef struct nvmlProcessInfo_st {
	unsigned int pid;
	unsigned long long usedGpuMemory; /* bytes, or NVML_VALUE_NOT_AVAILABLE */
	unsigned int gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t;

typedef struct nvmlProcessInfo_v1_st {
	unsigned int pid;
	unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;

typedef union nvmlValue_st {
	double dVal;
	int siVal;
	unsigned int uiVal;
	unsigned long ulVal;
	unsigned long long ullVal;
	signed long long sllVal;
} nvmlValue_t;

typedef struct nvmlFieldValue_st {
	unsigned int fieldId, scopeId;
	long long timestamp, latencyUsec;
	int valueType;
	nvmlReturn_t nvmlReturn; /* the field's own result */
	nvmlValue_t value;
} nvmlFieldValue_t;

static_assert(sizeof(nvmlProcessInfo_t) == 24, "nvmlProcessInfo_t layout");
static_assert(sizeof(nvmlProcessInfo_v1_t) == 16, "nvmlProcessInfo_v1_t layout");
static_assert(sizeof(nvmlFieldValue_t) == 40, "nvmlFieldValue_t layout");
static_assert(sizeof(nvmlPciInfo_t) == 68, "nvmlPciInfo_t layout");
static_assert(sizeof(nvmlMemory_t) == 24, "nvmlMemory_t layout");
static_assert(sizeof(nvmlMemory_v2_t) == 40, "nvmlMemory_v2_t layout");
static_assert(sizeof(nvmlUtilization_t) == 8, "nvmlUtilization_t layout");

#define NVML_SYMBOLS(X)                                                                            \
	X(nvmlInit, true, nvmlReturn_t, (void), "nvmlInit_v2", "nvmlInit")                         \
	X(nvmlShutdown, true, nvmlReturn_t, (void), "nvmlShutdown")                                \
	X(nvmlErrorString, false, const char *, (nvmlReturn_t), "nvmlErrorString")                 \
	X(nvmlSystemGetNVMLVersion, false, nvmlReturn_t, (char *, unsigned int),                   \
	  "nvmlSystemGetNVMLVersion")                                                              \
	X(nvmlSystemGetDriverVersion, false, nvmlReturn_t, (char *, unsigned int),                 \
	  "nvmlSystemGetDriverVersion")                                                            \
	X(nvmlSystemGetCudaDriverVersion, false, nvmlReturn_t, (int *),                            \
	  "nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion")                   \
	X(nvmlDeviceGetCount, true, nvmlReturn_t, (unsigned int *), "nvmlDeviceGetCount_v2",       \
	  "nvmlDeviceGetCount")                                                                    \
	X(nvmlDeviceGetHandleByIndex, true, nvmlReturn_t, (unsigned int, nvmlDevice_t *),          \
	  "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex")                           \
	X(nvmlDeviceGetName, false, nvmlReturn_t, (nvmlDevice_t, char *, unsigned int),            \
	  "nvmlDeviceGetName")                                                                     \
	X(nvmlDeviceGetUUID, false, nvmlReturn_t, (nvmlDevice_t, char *, unsigned int),            \
	  "nvmlDeviceGetUUID")                                                                     \
	X(nvmlDeviceGetSerial, false, nvmlReturn_t, (nvmlDevice_t, char *, unsigned int),          \
	  "nvmlDeviceGetSerial")                                                                   \
	X(nvmlDeviceGetBrand, false, nvmlReturn_t, (nvmlDevice_t, nvmlBrandType_t *),              \
	  "nvmlDeviceGetBrand")                                                                    \
	X(nvmlDeviceGetVbiosVersion, false, nvmlReturn_t, (nvmlDevice_t, char *, unsigned int),    \
	  "nvmlDeviceGetVbiosVersion")                                                             \
	X(nvmlDeviceGetMinorNumber, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),           \
	  "nvmlDeviceGetMinorNumber")                                                              \
	X(nvmlDeviceGetPciInfo, false, nvmlReturn_t, (nvmlDevice_t, nvmlPciInfo_t *),              \
	  "nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2")                                    \
	X(nvmlDeviceGetMemoryInfo_v2, false, nvmlReturn_t, (nvmlDevice_t, nvmlMemory_v2_t *),      \
	  "nvmlDeviceGetMemoryInfo_v2")                                                            \
	X(nvmlDeviceGetMemoryInfo, false, nvmlReturn_t, (nvmlDevice_t, nvmlMemory_t *),            \
	  "nvmlDeviceGetMemoryInfo")                                                               \
	X(nvmlDeviceGetCudaComputeCapability, false, nvmlReturn_t, (nvmlDevice_t, int *, int *),   \
	  "nvmlDeviceGetCudaComputeCapability")                                                    \
	X(nvmlDeviceGetArchitecture, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),          \
	  "nvmlDeviceGetArchitecture")                                                             \
	X(nvmlDeviceGetPersistenceMode, false, nvmlReturn_t, (nvmlDevice_t, nvmlEnableState_t *),  \
	  "nvmlDeviceGetPersistenceMode")                                                          \
	X(nvmlDeviceGetMigMode, false, nvmlReturn_t,                                               \
	  (nvmlDevice_t, unsigned int *, unsigned int *), "nvmlDeviceGetMigMode")                  \
	X(nvmlDeviceGetEccMode, false, nvmlReturn_t,                                               \
	  (nvmlDevice_t, nvmlEnableState_t *, nvmlEnableState_t *), "nvmlDeviceGetEccMode")        \
	X(nvmlDeviceGetTotalEccErrors, false, nvmlReturn_t,                                        \
	  (nvmlDevice_t, int, int, unsigned long long *), "nvmlDeviceGetTotalEccErrors")           \
	X(nvmlDeviceGetTemperature, false, nvmlReturn_t, (nvmlDevice_t, int, unsigned int *),      \
	  "nvmlDeviceGetTemperature")                                                              \
	X(nvmlDeviceGetPowerUsage, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),            \
	  "nvmlDeviceGetPowerUsage")                                                               \
	X(nvmlDeviceGetEnforcedPowerLimit, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),    \
	  "nvmlDeviceGetEnforcedPowerLimit")                                                       \
	X(nvmlDeviceGetUtilizationRates, false, nvmlReturn_t, (nvmlDevice_t, nvmlUtilization_t *), \
	  "nvmlDeviceGetUtilizationRates")                                                         \
	X(nvmlDeviceGetCurrPcieLinkGeneration, false, nvmlReturn_t,                                \
	  (nvmlDevice_t, unsigned int *), "nvmlDeviceGetCurrPcieLinkGeneration")                   \
	X(nvmlDeviceGetMaxPcieLinkGeneration, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *), \
	  "nvmlDeviceGetMaxPcieLinkGeneration")                                                    \
	X(nvmlDeviceGetCurrPcieLinkWidth, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),     \
	  "nvmlDeviceGetCurrPcieLinkWidth")                                                        \
	X(nvmlDeviceGetMaxPcieLinkWidth, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),      \
	  "nvmlDeviceGetMaxPcieLinkWidth")                                                         \
	X(nvmlDeviceGetNvLinkState, false, nvmlReturn_t,                                           \
	  (nvmlDevice_t, unsigned int, nvmlEnableState_t *), "nvmlDeviceGetNvLinkState")           \
	X(nvmlDeviceGetRetiredPagesPendingStatus, false, nvmlReturn_t,                             \
	  (nvmlDevice_t, nvmlEnableState_t *), "nvmlDeviceGetRetiredPagesPendingStatus")           \
	X(nvmlDeviceGetRemappedRows, false, nvmlReturn_t,                                          \
	  (nvmlDevice_t, unsigned int *, unsigned int *, unsigned int *, unsigned int *),          \
	  "nvmlDeviceGetRemappedRows")                                                             \
	X(nvmlDeviceGetMaxMigDeviceCount, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),     \
	  "nvmlDeviceGetMaxMigDeviceCount")                                                        \
	X(nvmlDeviceGetMigDeviceHandleByIndex, false, nvmlReturn_t,                                \
	  (nvmlDevice_t, unsigned int, nvmlDevice_t *), "nvmlDeviceGetMigDeviceHandleByIndex")     \
	X(nvmlDeviceGetGpuInstanceId, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),         \
	  "nvmlDeviceGetGpuInstanceId")                                                            \
	X(nvmlDeviceGetComputeInstanceId, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),     \
	  "nvmlDeviceGetComputeInstanceId")                                                        \
	X(nvmlDeviceGetCurrentClocksEventReasons, false, nvmlReturn_t,                             \
	  (nvmlDevice_t, unsigned long long *), "nvmlDeviceGetCurrentClocksEventReasons",          \
	  "nvmlDeviceGetCurrentClocksThrottleReasons")                                             \
	X(nvmlDeviceGetTemperatureThreshold, false, nvmlReturn_t,                                  \
	  (nvmlDevice_t, int, unsigned int *), "nvmlDeviceGetTemperatureThreshold")                \
	X(nvmlDeviceGetFieldValues, false, nvmlReturn_t, (nvmlDevice_t, int, nvmlFieldValue_t *),  \
	  "nvmlDeviceGetFieldValues")                                                              \
	X(nvmlDeviceGetClockInfo, false, nvmlReturn_t, (nvmlDevice_t, int, unsigned int *),        \
	  "nvmlDeviceGetClockInfo")                                                                \
	X(nvmlDeviceGetMaxClockInfo, false, nvmlReturn_t, (nvmlDevice_t, int, unsigned int *),     \
	  "nvmlDeviceGetMaxClockInfo")                                                             \
	X(nvmlDeviceGetPerformanceState, false, nvmlReturn_t, (nvmlDevice_t, int *),               \
	  "nvmlDeviceGetPerformanceState")                                                         \
	X(nvmlDeviceGetFanSpeed, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),              \
	  "nvmlDeviceGetFanSpeed")                                                                 \
	X(nvmlDeviceGetTotalEnergyConsumption, false, nvmlReturn_t,                                \
	  (nvmlDevice_t, unsigned long long *), "nvmlDeviceGetTotalEnergyConsumption")             \
	X(nvmlDeviceGetEncoderUtilization, false, nvmlReturn_t,                                    \
	  (nvmlDevice_t, unsigned int *, unsigned int *), "nvmlDeviceGetEncoderUtilization")       \
	X(nvmlDeviceGetDecoderUtilization, false, nvmlReturn_t,                                    \
	  (nvmlDevice_t, unsigned int *, unsigned int *), "nvmlDeviceGetDecoderUtilization")       \
	X(nvmlDeviceGetPcieReplayCounter, false, nvmlReturn_t, (nvmlDevice_t, unsigned int *),     \
	  "nvmlDeviceGetPcieReplayCounter")                                                        \
	X(nvmlDeviceGetRetiredPages, false, nvmlReturn_t,                                          \
	  (nvmlDevice_t, int, unsigned int *, unsigned long long *), "nvmlDeviceGetRetiredPages")  \
	X(nvmlDeviceGetComputeRunningProcesses, false, nvmlReturn_t,                               \
	  (nvmlDevice_t, unsigned int *, void *), "nvmlDeviceGetComputeRunningProcesses_v3",       \
	  "nvmlDeviceGetComputeRunningProcesses_v2", "nvmlDeviceGetComputeRunningProcesses")       \
	X(nvmlDeviceGetGraphicsRunningProcesses, false, nvmlReturn_t,                              \
	  (nvmlDevice_t, unsigned int *, void *), "nvmlDeviceGetGraphicsRunningProcesses_v3",      \
	  "nvmlDeviceGetGraphicsRunningProcesses_v2", "nvmlDeviceGetGraphicsRunningProcesses")     \
	X(nvmlSystemGetProcessName, false, nvmlReturn_t, (unsigned int, char *, unsigned int),     \
	  "nvmlSystemGetProcessName")

/* nvmlDeviceGet{Compute,Graphics}RunningProcesses fill nvmlProcessInfo_t through their _v3
 * and _v2 names and nvmlProcessInfo_v1_t through the unversioned one: the caller picks the
 * entry by the name that answered (hence void *). */

/* One function type per entry: nvmlInit_fn, nvmlDeviceGetName_fn, … */
#define NVML_FN_TYPEDEF(f, req, ret, params, ...) typedef ret f##_fn params;
NVML_SYMBOLS(NVML_FN_TYPEDEF)
#undef NVML_FN_TYPEDEF
