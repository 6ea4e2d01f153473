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
#define NVML_MEMORY_ERROR_TYPE_UNCORRECTED 1
#define NVML_VOLATILE_ECC		   0
#define NVML_NVLINK_MAX_LINKS		   36 /* nvml.h 13.x; older headers had fewer */

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
	  "nvmlDeviceGetComputeInstanceId")

/* One function type per entry: nvmlInit_fn, nvmlDeviceGetName_fn, … */
#define NVML_FN_TYPEDEF(f, req, ret, params, ...) typedef ret f##_fn params;
NVML_SYMBOLS(NVML_FN_TYPEDEF)
#undef NVML_FN_TYPEDEF
