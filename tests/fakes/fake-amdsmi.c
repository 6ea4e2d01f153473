// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A fake libamd_smi.so for the tests (never installed), answering from the scenario file
 * (fake-scenario.h):
 *   [amdsmi]            device_count (default: the [amdsmi.device.N] sections)
 *   [amdsmi.device.N]   bus_id ("0000:05:00.0"), market_name, vendor_id, driver_version,
 *                       vram_total_mib, vram_used_mib, temperature_edge_c,
 *                       temperature_hotspot_c, ecc_correctable, ecc_uncorrectable,
 *                       ecc_deferred, energy_count, energy_resolution_uj (default 15.259,
 *                       the rocm_smi counter's), gfx_activity_pct, umc_activity_pct,
 *                       mm_activity_pct (umc and mm left out: 65535, how the library marks an
 *                       engine it cannot read), power_current_w, power_average_w,
 *                       power_socket_w (amdsmi_power_info_t in the layout of lib_version's
 *                       release; one left out: 0xFFFF, UINT32_MAX from 25; socket_power: the
 *                       host's only in 25.x, so UINT32_MAX there, watts from 26, by default the
 *                       current else the average); a value left out answers
 *                       AMDSMI_STATUS_NOT_SUPPORTED
 *   [amdsmi] lib_version  "23.2", "24.6", "26.1": amdsmi_get_lib_version's answer, in that
 *                       release's amdsmi_version_t (none: NOT_SUPPORTED)
 * plus the injections (error./hang./crash. <function>). One socket holds every GPU. Before a
 * successful amdsmi_init everything answers AMDSMI_STATUS_NOT_INIT (32), as the real library
 * does. The structures are filled with the layout of amdsmi.h's current release (asic_info
 * with vendor_name after vendor_id), so that gpuenv's prefix reads are tested against it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-scenario.h"
#include "vendor/amdsmi-abi.h"

#define S "amdsmi"

FAKE_API amdsmi_init_fn amdsmi_init;
FAKE_API amdsmi_shut_down_fn amdsmi_shut_down;
FAKE_API amdsmi_status_code_to_string_fn amdsmi_status_code_to_string;
FAKE_API amdsmi_get_socket_handles_fn amdsmi_get_socket_handles;
FAKE_API amdsmi_get_processor_handles_fn amdsmi_get_processor_handles;
FAKE_API amdsmi_get_gpu_device_bdf_fn amdsmi_get_gpu_device_bdf;
FAKE_API amdsmi_get_gpu_asic_info_fn amdsmi_get_gpu_asic_info;
FAKE_API amdsmi_get_gpu_driver_info_fn amdsmi_get_gpu_driver_info;
FAKE_API amdsmi_get_gpu_vram_usage_fn amdsmi_get_gpu_vram_usage;
FAKE_API amdsmi_get_temp_metric_fn amdsmi_get_temp_metric;
FAKE_API amdsmi_get_gpu_total_ecc_count_fn amdsmi_get_gpu_total_ecc_count;
FAKE_API amdsmi_get_energy_count_fn amdsmi_get_energy_count;
FAKE_API amdsmi_get_gpu_activity_fn amdsmi_get_gpu_activity;
FAKE_API amdsmi_get_lib_version_fn amdsmi_get_lib_version;
FAKE_API amdsmi_get_power_info_fn amdsmi_get_power_info;

static const struct fake_code codes[] = {
	{ 0, "AMDSMI_STATUS_SUCCESS", "Success" },
	{ 1, "AMDSMI_STATUS_INVAL", "Invalid parameters" },
	{ 2, "AMDSMI_STATUS_NOT_SUPPORTED", "Command not supported" },
	{ 10, "AMDSMI_STATUS_NO_PERM", "Permission Denied" },
	{ 18, "AMDSMI_STATUS_INIT_ERROR",
	  "An error occurred when initializing internal data "
	  "structures" },
	{ 32, "AMDSMI_STATUS_NOT_INIT", "Processor not initialized" },
	{ 34, "AMDSMI_STATUS_DRIVER_NOT_LOADED", "Processor driver not loaded" },
	{ -1, "AMDSMI_STATUS_UNKNOWN_ERROR", "An unknown error occurred" },
};

#define N_CODES (sizeof(codes) / sizeof(codes[0]))

static int code_of(const char *name)
{
	const struct fake_code *c = fake_code_by_name(codes, N_CODES, name);

	return c ? c->code : -1;
}

static int initialized;

#define ENTER(fn, dev_section)                                                                     \
	do {                                                                                       \
		int _code;                                                                         \
		if (fake_inject(S, dev_section, fn, code_of, &_code))                              \
			return (amdsmi_status_t)_code;                                             \
		if (!initialized && strcmp(fn, "amdsmi_init") != 0 &&                              \
		    strcmp(fn, "amdsmi_status_code_to_string") != 0)                               \
			return AMDSMI_STATUS_NOT_INIT;                                             \
	} while (0)

static unsigned count(void)
{
	unsigned long long n;

	if (fake_uint(S, "device_count", &n))
		return (unsigned)n;
	return fake_count("amdsmi.device.");
}

/* Handles are 1-based device numbers; the one socket is (void *)1. */
static const char *dev_section(amdsmi_processor_handle h, char *buf, size_t len)
{
	uintptr_t i = (uintptr_t)h;

	if (i == 0 || i > count())
		return NULL;
	snprintf(buf, len, "amdsmi.device.%u", (unsigned)(i - 1));
	return buf;
}

amdsmi_status_t amdsmi_init(uint64_t flags)
{
	(void)flags;
	ENTER("amdsmi_init", NULL);
	initialized = 1;
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_shut_down(void)
{
	ENTER("amdsmi_shut_down", NULL);
	initialized = 0;
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_status_code_to_string(amdsmi_status_t rc, const char **ret)
{
	const struct fake_code *c = fake_code_by_value(codes, N_CODES, (int)rc);

	ENTER("amdsmi_status_code_to_string", NULL);
	if (!ret)
		return AMDSMI_STATUS_INVAL;
	*ret = c ? c->text : "An unknown error occurred";
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_get_socket_handles(uint32_t *n, amdsmi_socket_handle *sockets)
{
	ENTER("amdsmi_get_socket_handles", NULL);
	if (!n)
		return AMDSMI_STATUS_INVAL;
	if (sockets && *n >= 1)
		sockets[0] = (amdsmi_socket_handle)1;
	*n = 1;
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_get_processor_handles(amdsmi_socket_handle socket, uint32_t *n,
					     amdsmi_processor_handle *procs)
{
	unsigned c = count();

	ENTER("amdsmi_get_processor_handles", NULL);
	if (!n || socket != (amdsmi_socket_handle)1)
		return AMDSMI_STATUS_INVAL;
	for (unsigned i = 0; procs && i < c && i < *n; i++)
		procs[i] = (amdsmi_processor_handle)(uintptr_t)(i + 1);
	*n = c;
	return AMDSMI_STATUS_SUCCESS;
}

/* The device's section, after the injections of fn; NULL with *rc set when it has none. */
#define DEVICE(fn, h, sec, rc)                                                                     \
	do {                                                                                       \
		char _b[48];                                                                       \
		int _code;                                                                         \
		sec = dev_section(h, _b, sizeof(_b));                                              \
		if (!sec)                                                                          \
			return AMDSMI_STATUS_INVAL;                                                \
		snprintf(sec##_buf, sizeof(sec##_buf), "%s", sec);                                 \
		sec = sec##_buf;                                                                   \
		if (fake_inject(S, sec, fn, code_of, &_code))                                      \
			return (amdsmi_status_t)_code;                                             \
		if (!initialized)                                                                  \
			return AMDSMI_STATUS_NOT_INIT;                                             \
		(void)rc;                                                                          \
	} while (0)

amdsmi_status_t amdsmi_get_gpu_device_bdf(amdsmi_processor_handle h, uint64_t *bdf)
{
	char sec_buf[48];
	const char *sec, *v;
	unsigned dom, bus, dev, fn;

	DEVICE("amdsmi_get_gpu_device_bdf", h, sec, 0);
	v = fake_get(sec, "bus_id");
	if (!v || sscanf(v, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return AMDSMI_STATUS_NOT_SUPPORTED;
	*bdf = (uint64_t)fn | (uint64_t)dev << 3 | (uint64_t)bus << 8 | (uint64_t)dom << 16;
	return AMDSMI_STATUS_SUCCESS;
}

/* amdsmi_asic_info_t as the current amdsmi.h lays it out (its head). */
struct asic_info_now {
	char market_name[256];
	uint32_t vendor_id;
	char vendor_name[256];
	uint32_t subvendor_id;
	uint64_t device_id;
};

amdsmi_status_t amdsmi_get_gpu_asic_info(amdsmi_processor_handle h, void *out)
{
	struct asic_info_now *a = out;
	unsigned long long vid = 0;
	char sec_buf[48];
	const char *sec, *name;

	DEVICE("amdsmi_get_gpu_asic_info", h, sec, 0);
	name = fake_get(sec, "market_name");
	if (!name)
		return AMDSMI_STATUS_NOT_SUPPORTED;
	memset(a, 0, sizeof(*a));
	snprintf(a->market_name, sizeof(a->market_name), "%s", name);
	fake_uint(sec, "vendor_id", &vid);
	a->vendor_id = (uint32_t)vid;
	snprintf(a->vendor_name, sizeof(a->vendor_name), "Advanced Micro Devices Inc. [AMD/ATI]");
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_get_gpu_driver_info(amdsmi_processor_handle h, void *out)
{
	char sec_buf[48], *d = out;
	const char *sec, *v;

	DEVICE("amdsmi_get_gpu_driver_info", h, sec, 0);
	v = fake_get(sec, "driver_version");
	if (!v)
		return AMDSMI_STATUS_NOT_SUPPORTED;
	memset(d, 0, 3 * 256);
	snprintf(d, 256, "%s", v);
	snprintf(d + 256, 256, "2015/01/01");
	snprintf(d + 512, 256, "amdgpu");
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_get_gpu_vram_usage(amdsmi_processor_handle h, void *out)
{
	struct amdsmi_vram_usage *u = out;
	unsigned long long total, used;
	char sec_buf[48];
	const char *sec;

	DEVICE("amdsmi_get_gpu_vram_usage", h, sec, 0);
	if (!fake_uint(sec, "vram_total_mib", &total) || !fake_uint(sec, "vram_used_mib", &used))
		return AMDSMI_STATUS_NOT_SUPPORTED;
	memset(u, 0, sizeof(*u));
	u->vram_total = (uint32_t)total;
	u->vram_used = (uint32_t)used;
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_get_temp_metric(amdsmi_processor_handle h, uint32_t type, uint32_t metric,
				       int64_t *ret)
{
	unsigned long long t;
	char sec_buf[48];
	const char *sec;

	DEVICE("amdsmi_get_temp_metric", h, sec, 0);
	if (metric != AMDSMI_TEMP_CURRENT ||
	    !fake_uint(sec,
		       type == AMDSMI_TEMPERATURE_TYPE_EDGE ? "temperature_edge_c"
							    : "temperature_hotspot_c",
		       &t))
		return AMDSMI_STATUS_NOT_SUPPORTED;
	*ret = (int64_t)t;
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_get_gpu_total_ecc_count(amdsmi_processor_handle h, void *out)
{
	struct amdsmi_error_prefix *e = out;
	unsigned long long ce, ue, de = 0;
	char sec_buf[48];
	const char *sec;

	DEVICE("amdsmi_get_gpu_total_ecc_count", h, sec, 0);
	if (!fake_uint(sec, "ecc_correctable", &ce) || !fake_uint(sec, "ecc_uncorrectable", &ue))
		return AMDSMI_STATUS_NOT_SUPPORTED;
	fake_uint(sec, "ecc_deferred", &de);
	e->correctable_count = ce;
	e->uncorrectable_count = ue;
	e->deferred_count = de;
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_get_energy_count(amdsmi_processor_handle h, uint64_t *count,
					float *resolution, uint64_t *timestamp)
{
	unsigned long long n;
	char sec_buf[48];
	const char *sec, *r;

	DEVICE("amdsmi_get_energy_count", h, sec, 0);
	if (!count || !resolution || !timestamp)
		return AMDSMI_STATUS_INVAL;
	if (!fake_uint(sec, "energy_count", &n))
		return AMDSMI_STATUS_NOT_SUPPORTED;
	r = fake_get(sec, "energy_resolution_uj");
	*count = n;
	*resolution = r ? strtof(r, NULL) : 15.259f;
	*timestamp = 1000000;
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_get_gpu_activity(amdsmi_processor_handle h, void *out)
{
	struct amdsmi_engine_prefix *e = out;
	unsigned long long gfx, umc = 65535, mm = 65535;
	char sec_buf[48];
	const char *sec;

	DEVICE("amdsmi_get_gpu_activity", h, sec, 0);
	if (!fake_uint(sec, "gfx_activity_pct", &gfx))
		return AMDSMI_STATUS_NOT_SUPPORTED;
	fake_uint(sec, "umc_activity_pct", &umc);
	fake_uint(sec, "mm_activity_pct", &mm);
	/* amdsmi_engine_usage_t: three percentages, then uint32_t reserved[13] */
	memset(out, 0, 16 * sizeof(uint32_t));
	e->gfx_activity = (uint32_t)gfx;
	e->umc_activity = (uint32_t)umc;
	e->mm_activity = (uint32_t)mm;
	return AMDSMI_STATUS_SUCCESS;
}

/* The scenario's lib_version as two numbers; false when it has none. */
static bool lib_version(unsigned *first, unsigned *second)
{
	const char *v = fake_get(S, "lib_version");

	return v && sscanf(v, "%u.%u", first, second) == 2;
}

amdsmi_status_t amdsmi_get_lib_version(void *out)
{
	unsigned first, second;
	uint32_t *v = out;

	ENTER("amdsmi_get_lib_version", NULL);
	if (!out)
		return AMDSMI_STATUS_INVAL;
	if (!lib_version(&first, &second))
		return AMDSMI_STATUS_NOT_SUPPORTED;
	/* {year, major, minor, release, build} through 24.x, {major, minor, release, build}
	 * from 25: the two numbers lead either way */
	memset(out, 0, 4 * sizeof(uint32_t));
	v[0] = first;
	v[1] = second;
	return AMDSMI_STATUS_SUCCESS;
}

amdsmi_status_t amdsmi_get_power_info(amdsmi_processor_handle h, void *out)
{
	unsigned long long cur = 0xFFFF, avg = 0xFFFF, socket;
	unsigned first = 0, second = 0;
	char sec_buf[48];
	const char *sec;
	uint32_t *w = out;

	DEVICE("amdsmi_get_power_info", h, sec, 0);
	if (!fake_get(sec, "power_current_w") && !fake_get(sec, "power_average_w") &&
	    !fake_get(sec, "power_socket_w"))
		return AMDSMI_STATUS_NOT_SUPPORTED;
	fake_uint(sec, "power_current_w", &cur);
	fake_uint(sec, "power_average_w", &avg);
	lib_version(&first, &second);
	memset(out, 0, 64 * sizeof(uint32_t));
	if (first == 23 && second < 4) { /* average_socket_power first */
		w[0] = (uint32_t)avg;
	} else if (first < 25) { /* current_socket_power, average_socket_power */
		w[0] = (uint32_t)cur;
		w[1] = (uint32_t)avg;
	} else { /* uint64_t socket_power, then current and average; no reading: UINT32_MAX */
		uint64_t u64;

		socket = cur != 0xFFFF ? cur : avg;
		fake_uint(sec, "power_socket_w", &socket);
		u64 = first == 25 || socket == 0xFFFF ? UINT32_MAX : socket;
		memcpy(out, &u64, sizeof(u64));
		w[2] = cur == 0xFFFF ? UINT32_MAX : (uint32_t)cur;
		w[3] = avg == 0xFFFF ? UINT32_MAX : (uint32_t)avg;
	}
	return AMDSMI_STATUS_SUCCESS;
}
