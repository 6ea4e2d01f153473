/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Our own declarations of the Level Zero calls gpuenv makes (libze_loader.so.1, the oneAPI
 * Level Zero loader; no ze_api.h): zeInit, the drivers and their properties and API version,
 * the devices and their properties and memory; and Sysman (zes*, exported by the same loader:
 * temperature sensors, power domains' energy, memory modules, RAS error sets, engine groups'
 * activity). Names, codes and layouts from the public Level Zero specification and its headers (github
 * oneapi-src/level-zero include/ze_api.h and include/zes_api.h, v1.x; spec.oneapi.io "Level
 * Zero Core API" and "Level Zero Sysman API"). Every properties structure starts with stype
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
typedef void *zes_driver_handle_t; /* Sysman's own handles, from zesDriverGet/zesDeviceGet */
typedef void *zes_device_handle_t;
typedef void *zes_temp_handle_t;
typedef void *zes_pwr_handle_t;
typedef void *zes_mem_handle_t;
typedef void *zes_ras_handle_t;
typedef void *zes_engine_handle_t;
typedef uint8_t ze_bool_t;

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

/* zes_structure_type_t */
#define ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES 0x1u
#define ZES_STRUCTURE_TYPE_ENGINE_PROPERTIES 0x5u
#define ZES_STRUCTURE_TYPE_MEM_PROPERTIES    0xbu
#define ZES_STRUCTURE_TYPE_POWER_PROPERTIES  0xdu
#define ZES_STRUCTURE_TYPE_RAS_PROPERTIES    0xfu
#define ZES_STRUCTURE_TYPE_TEMP_PROPERTIES   0x14u
#define ZES_STRUCTURE_TYPE_MEM_STATE	     0x1eu
#define ZES_STRUCTURE_TYPE_RAS_STATE	     0x22u

/* zes_temp_sensors_t (the maxima; the _MIN sensors are not read) */
#define ZES_TEMP_SENSORS_GLOBAL 0u
#define ZES_TEMP_SENSORS_GPU	1u
#define ZES_TEMP_SENSORS_MEMORY 2u

#define ZES_MEM_LOC_DEVICE		 1u /* zes_mem_loc_t: on-board device memory */
#define ZES_RAS_ERROR_TYPE_CORRECTABLE	 0u /* zes_ras_error_type_t */
#define ZES_RAS_ERROR_TYPE_UNCORRECTABLE 1u
#define ZES_MAX_RAS_ERROR_CATEGORY_COUNT 7u
/* zes_ras_error_cat_t: reset, programming, driver, then compute, non-compute, cache, display */
#define ZES_RAS_ERROR_CAT_COMPUTE_ERRORS 3u
#define ZES_STRING_PROPERTY_SIZE	 64u

/* zes_engine_group_t: the combined groups (the _SINGLE ones, one engine each, are not read) */
#define ZES_ENGINE_GROUP_ALL	     0u
#define ZES_ENGINE_GROUP_COMPUTE_ALL 1u
#define ZES_ENGINE_GROUP_MEDIA_ALL   2u
#define ZES_ENGINE_GROUP_COPY_ALL    3u
#define ZES_ENGINE_GROUP_RENDER_ALL  12u

/* zes_device_properties_t: core is the core API's ze_device_properties_t (its uuid ties a
 * Sysman device to the zeDeviceGet one). */
struct zes_device_properties {
	uint32_t stype;
	void *pNext;
	struct ze_device_properties core;
	uint32_t numSubdevices;
	char serialNumber[ZES_STRING_PROPERTY_SIZE];
	char boardNumber[ZES_STRING_PROPERTY_SIZE];
	char brandName[ZES_STRING_PROPERTY_SIZE];
	char modelName[ZES_STRING_PROPERTY_SIZE];
	char vendorName[ZES_STRING_PROPERTY_SIZE];
	char driverVersion[ZES_STRING_PROPERTY_SIZE];
};

/* zes_temp_properties_t */
struct zes_temp_properties {
	uint32_t stype;
	void *pNext;
	uint32_t type; /* zes_temp_sensors_t */
	ze_bool_t onSubdevice;
	uint32_t subdeviceId;
	double maxTemperature;
	ze_bool_t isCriticalTempSupported;
	ze_bool_t isThreshold1Supported;
	ze_bool_t isThreshold2Supported;
};

/* zes_power_properties_t */
struct zes_power_properties {
	uint32_t stype;
	void *pNext;
	ze_bool_t onSubdevice;
	uint32_t subdeviceId;
	ze_bool_t canControl;
	ze_bool_t isEnergyThresholdSupported;
	int32_t defaultLimit;
	int32_t minLimit;
	int32_t maxLimit;
};

/* zes_power_energy_counter_t (no stype) */
struct zes_power_energy_counter {
	uint64_t energy;    /* microjoules, monotonic (it may wrap) */
	uint64_t timestamp; /* microseconds */
};

/* zes_mem_properties_t */
struct zes_mem_properties {
	uint32_t stype;
	void *pNext;
	uint32_t type; /* zes_mem_type_t */
	ze_bool_t onSubdevice;
	uint32_t subdeviceId;
	uint32_t location; /* zes_mem_loc_t */
	uint64_t physicalSize;
	int32_t busWidth;
	int32_t numChannels;
};

/* zes_mem_state_t */
struct zes_mem_state {
	uint32_t stype;
	const void *pNext;
	uint32_t health; /* zes_mem_health_t */
	uint64_t free;	 /* bytes */
	uint64_t size;	 /* bytes */
};

/* zes_engine_properties_t */
struct zes_engine_properties {
	uint32_t stype;
	void *pNext;
	uint32_t type; /* zes_engine_group_t */
	ze_bool_t onSubdevice;
	uint32_t subdeviceId;
};

/* zes_engine_stats_t (no stype): the engine's busy time and when it was read, both in
 * microseconds; only the change between two readings means anything */
struct zes_engine_stats {
	uint64_t activeTime;
	uint64_t timestamp;
};

/* zes_ras_properties_t */
struct zes_ras_properties {
	uint32_t stype;
	void *pNext;
	uint32_t type; /* zes_ras_error_type_t */
	ze_bool_t onSubdevice;
	uint32_t subdeviceId;
};

/* zes_ras_state_t: counts by zes_ras_error_cat_t (reset, programming, driver, compute,
 * non-compute, cache, display) */
struct zes_ras_state {
	uint32_t stype;
	const void *pNext;
	uint64_t category[ZES_MAX_RAS_ERROR_CATEGORY_COUNT];
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
	  "zeDeviceGetMemoryProperties")                                                           \
	LEVELZERO_SYSMAN_SYMBOLS(X)

/* zesRasGetState's clear argument is always 0: gpuenv never resets a counter. */
#define LEVELZERO_SYSMAN_SYMBOLS(X)                                                                \
	X(zesInit, false, ze_result_t, (uint32_t), "zesInit")                                      \
	X(zesDriverGet, false, ze_result_t, (uint32_t *, zes_driver_handle_t *), "zesDriverGet")   \
	X(zesDeviceGet, false, ze_result_t,                                                        \
	  (zes_driver_handle_t, uint32_t *, zes_device_handle_t *), "zesDeviceGet")                \
	X(zesDeviceGetProperties, false, ze_result_t,                                              \
	  (zes_device_handle_t, struct zes_device_properties *), "zesDeviceGetProperties")         \
	X(zesDeviceEnumTemperatureSensors, false, ze_result_t,                                     \
	  (zes_device_handle_t, uint32_t *, zes_temp_handle_t *),                                  \
	  "zesDeviceEnumTemperatureSensors")                                                       \
	X(zesTemperatureGetProperties, false, ze_result_t,                                         \
	  (zes_temp_handle_t, struct zes_temp_properties *), "zesTemperatureGetProperties")        \
	X(zesTemperatureGetState, false, ze_result_t, (zes_temp_handle_t, double *),               \
	  "zesTemperatureGetState")                                                                \
	X(zesDeviceEnumPowerDomains, false, ze_result_t,                                           \
	  (zes_device_handle_t, uint32_t *, zes_pwr_handle_t *), "zesDeviceEnumPowerDomains")      \
	X(zesPowerGetProperties, false, ze_result_t,                                               \
	  (zes_pwr_handle_t, struct zes_power_properties *), "zesPowerGetProperties")              \
	X(zesPowerGetEnergyCounter, false, ze_result_t,                                            \
	  (zes_pwr_handle_t, struct zes_power_energy_counter *), "zesPowerGetEnergyCounter")       \
	X(zesDeviceEnumMemoryModules, false, ze_result_t,                                          \
	  (zes_device_handle_t, uint32_t *, zes_mem_handle_t *), "zesDeviceEnumMemoryModules")     \
	X(zesMemoryGetProperties, false, ze_result_t,                                              \
	  (zes_mem_handle_t, struct zes_mem_properties *), "zesMemoryGetProperties")               \
	X(zesMemoryGetState, false, ze_result_t, (zes_mem_handle_t, struct zes_mem_state *),       \
	  "zesMemoryGetState")                                                                     \
	X(zesDeviceEnumRasErrorSets, false, ze_result_t,                                           \
	  (zes_device_handle_t, uint32_t *, zes_ras_handle_t *), "zesDeviceEnumRasErrorSets")      \
	X(zesRasGetProperties, false, ze_result_t,                                                 \
	  (zes_ras_handle_t, struct zes_ras_properties *), "zesRasGetProperties")                  \
	X(zesRasGetState, false, ze_result_t,                                                      \
	  (zes_ras_handle_t, ze_bool_t, struct zes_ras_state *), "zesRasGetState")                 \
	X(zesDeviceEnumEngineGroups, false, ze_result_t,                                           \
	  (zes_device_handle_t, uint32_t *, zes_engine_handle_t *), "zesDeviceEnumEngineGroups")   \
	X(zesEngineGetProperties, false, ze_result_t,                                              \
	  (zes_engine_handle_t, struct zes_engine_properties *), "zesEngineGetProperties")         \
	X(zesEngineGetActivity, false, ze_result_t,                                                \
	  (zes_engine_handle_t, struct zes_engine_stats *), "zesEngineGetActivity")

#define LEVELZERO_FN_TYPEDEF(f, req, ret, params, ...) typedef ret f##_fn params;
LEVELZERO_SYMBOLS(LEVELZERO_FN_TYPEDEF)
#undef LEVELZERO_FN_TYPEDEF
