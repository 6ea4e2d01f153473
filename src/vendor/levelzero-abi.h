/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Our own declarations of the Level Zero calls gpuenv makes (libze_loader.so.1, the oneAPI
 * Level Zero loader; no ze_api.h): zeInit, the drivers and their properties and API version,
 * the devices and their properties and memory. Names, codes and layouts from the public
 * Level Zero specification and its header (github oneapi-src/level-zero include/ze_api.h,
 * v1.x; spec.oneapi.io "Level Zero Core API"). Every properties structure starts with stype
 * and pNext, which the caller sets (stype names the structure, pNext NULL: no extension
 * asked for); the library writes the rest. The layouts below are the 1.x ones (stable since
 * 1.0: later releases add extension structures through pNext, never fields).
 * LEVELZERO_SYMBOLS(X): X(field, required, return type, (parameters), names…).
 */
#pragma once

#include <stdint.h>

typedef uint32_t ze_result_t;
typedef void *ze_driver_handle_t;
typedef void *ze_device_handle_t;

#define ZE_RESULT_SUCCESS			 0u
#define ZE_RESULT_ERROR_DEVICE_LOST		 0x70000001u
#define ZE_RESULT_ERROR_UNINITIALIZED		 0x78000001u
#define ZE_RESULT_ERROR_UNSUPPORTED_VERSION	 0x78000002u
#define ZE_RESULT_ERROR_UNSUPPORTED_FEATURE	 0x78000003u
#define ZE_RESULT_ERROR_INVALID_ARGUMENT	 0x78000004u
#define ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS 0x70010000u
#define ZE_RESULT_ERROR_UNKNOWN			 0x7ffffffeu

#define ZE_INIT_FLAG_GPU_ONLY 1u /* ze_init_flag_t */

/* ze_structure_type_t */
#define ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES	   0x1u
#define ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES	   0x3u
#define ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES 0x7u

/* ze_device_type_t */
#define ZE_DEVICE_TYPE_GPU  1u
#define ZE_DEVICE_TYPE_CPU  2u
#define ZE_DEVICE_TYPE_FPGA 3u
#define ZE_DEVICE_TYPE_MCA  4u
#define ZE_DEVICE_TYPE_VPU  5u

/* ze_device_property_flag_t */
#define ZE_DEVICE_PROPERTY_FLAG_INTEGRATED (1u << 0)
#define ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE  (1u << 1)

#define ZE_MAX_DEVICE_NAME 256u
#define ZE_API_MAJOR(v)	   ((unsigned)((v) >> 16))
#define ZE_API_MINOR(v)	   ((unsigned)((v)&0xffffu))

/* ze_driver_properties_t */
struct ze_driver_properties {
	uint32_t stype;
	void *pNext;
	uint8_t uuid[16];
	uint32_t driverVersion; /* monotonically increasing; its encoding is the driver's own */
};

/* ze_device_properties_t */
struct ze_device_properties {
	uint32_t stype;
	void *pNext;
	uint32_t type;
	uint32_t vendorId;
	uint32_t deviceId;
	uint32_t flags;
	uint32_t subdeviceId;
	uint32_t coreClockRate;
	uint64_t maxMemAllocSize;
	uint32_t maxHardwareContexts;
	uint32_t maxCommandQueuePriority;
	uint32_t numThreadsPerEU;
	uint32_t physicalEUSimdWidth;
	uint32_t numEUsPerSubslice;
	uint32_t numSubslicesPerSlice;
	uint32_t numSlices;
	uint64_t timerResolution;
	uint32_t timestampValidBits;
	uint32_t kernelTimestampValidBits;
	uint8_t uuid[16];
	char name[ZE_MAX_DEVICE_NAME];
};

/* ze_device_memory_properties_t */
struct ze_device_memory_properties {
	uint32_t stype;
	void *pNext;
	uint32_t flags;
	uint32_t maxClockRate;
	uint32_t maxBusWidth;
	uint64_t totalSize; /* bytes */
	char name[ZE_MAX_DEVICE_NAME];
};

#define LEVELZERO_SYMBOLS(X)                                                                       \
	X(zeInit, true, ze_result_t, (uint32_t), "zeInit")                                         \
	X(zeDriverGet, true, ze_result_t, (uint32_t *, ze_driver_handle_t *), "zeDriverGet")       \
	X(zeDriverGetApiVersion, false, ze_result_t, (ze_driver_handle_t, uint32_t *),             \
	  "zeDriverGetApiVersion")                                                                 \
	X(zeDriverGetProperties, false, ze_result_t,                                               \
	  (ze_driver_handle_t, struct ze_driver_properties *), "zeDriverGetProperties")            \
	X(zeDeviceGet, true, ze_result_t, (ze_driver_handle_t, uint32_t *, ze_device_handle_t *),  \
	  "zeDeviceGet")                                                                           \
	X(zeDeviceGetProperties, false, ze_result_t,                                               \
	  (ze_device_handle_t, struct ze_device_properties *), "zeDeviceGetProperties")            \
	X(zeDeviceGetMemoryProperties, false, ze_result_t,                                         \
	  (ze_device_handle_t, uint32_t *, struct ze_device_memory_properties *),                  \
	  "zeDeviceGetMemoryProperties")

#define LEVELZERO_FN_TYPEDEF(f, req, ret, params, ...) typedef ret f##_fn params;
LEVELZERO_SYMBOLS(LEVELZERO_FN_TYPEDEF)
#undef LEVELZERO_FN_TYPEDEF
