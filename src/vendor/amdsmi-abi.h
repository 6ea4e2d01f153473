/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Our own declarations of the AMD SMI library calls gpuenv makes (libamd_smi.so, ROCm's
 * amd-smi; no amdsmi.h): initialisation, the socket and processor handles, the PCI address,
 * the ASIC and driver information, VRAM usage, temperature, the ECC (RAS) totals, the energy
 * accumulator and the engine activity. Names,
 * codes and layouts from AMD's public amdsmi.h (github ROCm/amdsmi include/amd_smi/amdsmi.h,
 * and its API reference on rocm.docs.amd.com). The structures grew between releases: fields
 * were added in the middle of amdsmi_asic_info_t (vendor_name in 6.x, then
 * target_graphics_version), so only the prefixes that every published layout shares are read,
 * out of zeroed buffers larger than any layout (AMDSMI_STRUCT_BUF): asic_info's market_name
 * (256 bytes) and vendor_id after it, driver_info's driver_version (its first 256 bytes),
 * vram_usage's two 32-bit MiB counts, error_count's three 64-bit totals, engine_usage's three
 * 32-bit percentages. amdsmi_power_info_t's head changed between releases (average_socket_power
 * first, then current_socket_power, then a 64-bit socket_power), so no prefix is shared: it is
 * read only where amdsmi_get_lib_version names a release whose layout is known (the layouts
 * below, from the header's history: ROCm/amdsmi tags rocm-5.7.0 to rocm-6.2.2, then the
 * ROCm 6.4 and 7.x API references); the energy
 * accumulator (amdsmi_get_energy_count, the same three out-parameters since rocm_smi's
 * rsmi_dev_energy_count_get) gives the power as its rate everywhere. amdsmi_version_t changed
 * too: {year, major, minor, release, build} in library 23.x and 24.x, {major, minor, release,
 * build} from 25; its first field (23 or 24, else 25 and later) tells which.
 * AMDSMI_SYMBOLS(X): X(field, required, return type, (parameters), names…).
 */
#pragma once

#include <stdint.h>

typedef uint32_t amdsmi_status_t;
typedef void *amdsmi_socket_handle;
typedef void *amdsmi_processor_handle;

#define AMDSMI_STATUS_SUCCESS		  0u
#define AMDSMI_STATUS_INVAL		  1u
#define AMDSMI_STATUS_NOT_SUPPORTED	  2u
#define AMDSMI_STATUS_NOT_YET_IMPLEMENTED 3u
#define AMDSMI_STATUS_NO_PERM		  10u
#define AMDSMI_STATUS_INIT_ERROR	  18u
#define AMDSMI_STATUS_NOT_FOUND		  31u
#define AMDSMI_STATUS_NOT_INIT		  32u
#define AMDSMI_STATUS_DRIVER_NOT_LOADED	  34u
#define AMDSMI_STATUS_NO_DATA		  40u

#define AMDSMI_INIT_AMD_GPUS (1u << 1)

#define AMDSMI_STRING_LENGTH 256u  /* AMDSMI_MAX_STRING_LENGTH */
#define AMDSMI_STRUCT_BUF    4096u /* larger than any published layout of the structures read */

/* amdsmi_temperature_type_t / amdsmi_temperature_metric_t values */
#define AMDSMI_TEMPERATURE_TYPE_EDGE	0u
#define AMDSMI_TEMPERATURE_TYPE_HOTSPOT 1u
#define AMDSMI_TEMP_CURRENT		0u

/* amdsmi_bdf_t: function 3 bits, device 5, bus 8, domain 48, in one uint64_t. */
#define AMDSMI_BDF_FUNCTION(b) ((unsigned)((b)&0x7u))
#define AMDSMI_BDF_DEVICE(b)   ((unsigned)(((b) >> 3) & 0x1fu))
#define AMDSMI_BDF_BUS(b)      ((unsigned)(((b) >> 8) & 0xffu))
#define AMDSMI_BDF_DOMAIN(b)   ((unsigned long long)((b) >> 16))

/* The prefix every published amdsmi_asic_info_t begins with. */
struct amdsmi_asic_prefix {
	char market_name[AMDSMI_STRING_LENGTH];
	uint32_t vendor_id;
};

/* amdsmi_vram_usage_t: totals in MiB. */
struct amdsmi_vram_usage {
	uint32_t vram_total;
	uint32_t vram_used;
	uint32_t reserved[2];
};

/* amdsmi_error_count_t's totals. */
struct amdsmi_error_prefix {
	uint64_t correctable_count;
	uint64_t uncorrectable_count;
	uint64_t deferred_count;
};

/* amdsmi_engine_usage_t's percentages (0-100). */
struct amdsmi_engine_prefix {
	uint32_t gfx_activity;
	uint32_t umc_activity;
	uint32_t mm_activity;
};

/* amdsmi_version_t's first two fields: year and major through 24.x, major and minor later */
struct amdsmi_version_prefix {
	uint32_t first, second;
};

/* amdsmi_power_info_t of library 23.0-23.3 (ROCm 5.5-5.7), in watts */
struct amdsmi_power_v23 {
	uint32_t average_socket_power;
	uint32_t gfx_voltage, soc_voltage, mem_voltage, power_limit;
};

/* amdsmi_power_info_t of library 23.4-24.7 (ROCm 6.0-6.3), in watts; 0xFFFF: not supported */
struct amdsmi_power_v24 {
	uint32_t current_socket_power; /* MI300 and later */
	uint32_t average_socket_power; /* Navi, MI200 and earlier */
	uint32_t gfx_voltage, soc_voltage, mem_voltage, power_limit;
};

/* amdsmi_power_info_t's head from library 25.3 (ROCm 6.4; the 6.4.0 changelog names AMD SMI
 * 25.3.0, the docs-6.4.1 reference gives this head with 32-bit voltages after it) through 26.x
 * (ROCm 7.0 and 7.1, library 26.1.0 in the 7.1.0 changelog; the docs-7.0.0/7.1.x references and
 * amdsmi.h of 26.1.0 give the same head with 64-bit voltages after it). socket_power is the
 * host's, in microwatts, in 25.x ("Host only"); watts on bare-metal Linux from 26.x. Unsupported
 * members: UINT32_MAX (the 7.1.1 header). Only these three members are read. */
struct amdsmi_power_v25 {
	uint64_t socket_power;
	uint32_t current_socket_power; /* MI300 and later, in watts */
	uint32_t average_socket_power; /* Navi, MI200 and earlier, in watts */
};
#define AMDSMI_POWER_UNSUPPORTED 0xFFFFu /* this and above: no reading (0xFFFF, UINT32_MAX) */

#define AMDSMI_SYMBOLS(X)                                                                          \
	X(amdsmi_init, true, amdsmi_status_t, (uint64_t), "amdsmi_init")                           \
	X(amdsmi_shut_down, false, amdsmi_status_t, (void), "amdsmi_shut_down")                    \
	X(amdsmi_status_code_to_string, false, amdsmi_status_t, (amdsmi_status_t, const char **),  \
	  "amdsmi_status_code_to_string")                                                          \
	X(amdsmi_get_socket_handles, true, amdsmi_status_t, (uint32_t *, amdsmi_socket_handle *),  \
	  "amdsmi_get_socket_handles")                                                             \
	X(amdsmi_get_processor_handles, true, amdsmi_status_t,                                     \
	  (amdsmi_socket_handle, uint32_t *, amdsmi_processor_handle *),                           \
	  "amdsmi_get_processor_handles")                                                          \
	X(amdsmi_get_gpu_device_bdf, false, amdsmi_status_t,                                       \
	  (amdsmi_processor_handle, uint64_t *), "amdsmi_get_gpu_device_bdf")                      \
	X(amdsmi_get_gpu_asic_info, false, amdsmi_status_t, (amdsmi_processor_handle, void *),     \
	  "amdsmi_get_gpu_asic_info")                                                              \
	X(amdsmi_get_gpu_driver_info, false, amdsmi_status_t, (amdsmi_processor_handle, void *),   \
	  "amdsmi_get_gpu_driver_info")                                                            \
	X(amdsmi_get_gpu_vram_usage, false, amdsmi_status_t, (amdsmi_processor_handle, void *),    \
	  "amdsmi_get_gpu_vram_usage")                                                             \
	X(amdsmi_get_temp_metric, false, amdsmi_status_t,                                          \
	  (amdsmi_processor_handle, uint32_t, uint32_t, int64_t *), "amdsmi_get_temp_metric")      \
	X(amdsmi_get_gpu_total_ecc_count, false, amdsmi_status_t,                                  \
	  (amdsmi_processor_handle, void *), "amdsmi_get_gpu_total_ecc_count")                     \
	X(amdsmi_get_energy_count, false, amdsmi_status_t,                                         \
	  (amdsmi_processor_handle, uint64_t *, float *, uint64_t *), "amdsmi_get_energy_count")   \
	X(amdsmi_get_gpu_activity, false, amdsmi_status_t, (amdsmi_processor_handle, void *),      \
	  "amdsmi_get_gpu_activity")                                                               \
	X(amdsmi_get_lib_version, false, amdsmi_status_t, (void *), "amdsmi_get_lib_version")      \
	X(amdsmi_get_power_info, false, amdsmi_status_t, (amdsmi_processor_handle, void *),        \
	  "amdsmi_get_power_info")

#define AMDSMI_FN_TYPEDEF(f, req, ret, params, ...) typedef ret f##_fn params;
AMDSMI_SYMBOLS(AMDSMI_FN_TYPEDEF)
#undef AMDSMI_FN_TYPEDEF
