// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A fake libze_loader.so.1 for the tests (never installed), answering from the scenario file
 * (fake-scenario.h):
 *   [levelzero]            driver_version (default 1), api_version ("1.3"), device_count
 *                          (default: the [levelzero.device.N] sections; 0: a driver with no
 *                          device)
 *   [levelzero.device.N]   name, type (ze_device_type_t number, default 1 = GPU), vendor_id,
 *                          device_id, integrated (0/1), memory_total_mib (left out: no
 *                          device-local memory)
 * plus the injections (error./hang./crash. <function>). One driver holds every device.
 * Sysman (zes*): fake-levelzero-sysman.c.
 * Before a successful zeInit everything answers ZE_RESULT_ERROR_UNINITIALIZED, as the real
 * loader does. The structures are filled through the layouts of ze_api.h (levelzero-abi.h),
 * and a call whose stype is not the one the specification names is refused with
 * ZE_RESULT_ERROR_INVALID_ARGUMENT, so gpuenv's stype settings are tested.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-levelzero.h"
#include "fake-scenario.h"
#include "vendor/levelzero-abi.h"

#define S "levelzero"

FAKE_API zeInit_fn zeInit;
FAKE_API zeDriverGet_fn zeDriverGet;
FAKE_API zeDriverGetApiVersion_fn zeDriverGetApiVersion;
FAKE_API zeDriverGetProperties_fn zeDriverGetProperties;
FAKE_API zeDeviceGet_fn zeDeviceGet;
FAKE_API zeDeviceGetProperties_fn zeDeviceGetProperties;
FAKE_API zeDeviceGetMemoryProperties_fn zeDeviceGetMemoryProperties;

static const struct fake_code codes[] = {
	{ 0, "ZE_RESULT_SUCCESS", "" },
	{ 0x70000001, "ZE_RESULT_ERROR_DEVICE_LOST", "" },
	{ 0x70010000, "ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS", "" },
	{ 0x70020000, "ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE", "" },
	{ 0x78000001, "ZE_RESULT_ERROR_UNINITIALIZED", "" },
	{ 0x78000003, "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE", "" },
	{ 0x7ffffffe, "ZE_RESULT_ERROR_UNKNOWN", "" },
};

#define N_CODES (sizeof(codes) / sizeof(codes[0]))

int fake_levelzero_code_of(const char *name)
{
	const struct fake_code *c = fake_code_by_name(codes, N_CODES, name);

	return c ? c->code : -1;
}

static int initialized;

#define ENTER(fn, dev_section)                                                                     \
	do {                                                                                       \
		int _code;                                                                         \
		if (fake_inject(S, dev_section, fn, fake_levelzero_code_of, &_code))               \
			return (ze_result_t)_code;                                                 \
		if (!initialized && strcmp(fn, "zeInit") != 0)                                     \
			return ZE_RESULT_ERROR_UNINITIALIZED;                                      \
	} while (0)

#define DRIVER ((ze_driver_handle_t)(uintptr_t)0x5a)

unsigned fake_levelzero_count(void)
{
	unsigned long long n;

	if (fake_uint(S, "device_count", &n))
		return (unsigned)n;
	return fake_count("levelzero.device.");
}

void fake_levelzero_uuid(ze_device_handle_t h, uint8_t uuid[16])
{
	memset(uuid, 0xcd, 16);
	uuid[0] = (uint8_t)(uintptr_t)h; /* each device its own */
}

/* Handles are 1-based device numbers. */
static const char *dev_section(ze_device_handle_t h, char *buf, size_t len)
{
	uintptr_t i = (uintptr_t)h;

	if (i == 0 || i > fake_levelzero_count())
		return NULL;
	snprintf(buf, len, "levelzero.device.%u", (unsigned)(i - 1));
	return buf;
}

ze_result_t zeInit(uint32_t flags)
{
	(void)flags;
	ENTER("zeInit", NULL);
	initialized = 1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGet(uint32_t *n, ze_driver_handle_t *drivers)
{
	ENTER("zeDriverGet", NULL);
	if (!n)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (drivers && *n >= 1)
		drivers[0] = DRIVER;
	*n = 1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetApiVersion(ze_driver_handle_t d, uint32_t *v)
{
	const char *s = fake_get(S, "api_version");
	unsigned major = 1, minor = 3;

	ENTER("zeDriverGetApiVersion", NULL);
	if (d != DRIVER || !v)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (s && sscanf(s, "%u.%u", &major, &minor) != 2)
		return ZE_RESULT_ERROR_UNKNOWN;
	*v = major << 16 | (minor & 0xffffu);
	return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetProperties(ze_driver_handle_t d, struct ze_driver_properties *p)
{
	unsigned long long v = 1;

	ENTER("zeDriverGetProperties", NULL);
	if (d != DRIVER || !p || p->stype != ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	fake_uint(S, "driver_version", &v);
	memset(p->uuid, 0xab, sizeof(p->uuid));
	p->driverVersion = (uint32_t)v;
	return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGet(ze_driver_handle_t d, uint32_t *n, ze_device_handle_t *devs)
{
	unsigned c = fake_levelzero_count();

	ENTER("zeDeviceGet", NULL);
	if (d != DRIVER || !n)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (devs) {
		for (unsigned i = 0; i < c && i < *n; i++)
			devs[i] = (ze_device_handle_t)(uintptr_t)(i + 1);
		if (*n < c)
			c = *n;
	}
	*n = c;
	return ZE_RESULT_SUCCESS;
}

/* The device's section after the injections of fn; refuses unknown handles. */
#define DEVICE(fn, h, sec)                                                                         \
	do {                                                                                       \
		int _code;                                                                         \
		sec = dev_section(h, sec##_buf, sizeof(sec##_buf));                                \
		if (!sec)                                                                          \
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;                                   \
		if (fake_inject(S, sec, fn, fake_levelzero_code_of, &_code))                       \
			return (ze_result_t)_code;                                                 \
		if (!initialized)                                                                  \
			return ZE_RESULT_ERROR_UNINITIALIZED;                                      \
	} while (0)

ze_result_t zeDeviceGetProperties(ze_device_handle_t h, struct ze_device_properties *p)
{
	unsigned long long type = ZE_DEVICE_TYPE_GPU, vid = 0, did = 0, integrated = 0;
	char sec_buf[48];
	const char *sec, *name;

	DEVICE("zeDeviceGetProperties", h, sec);
	if (!p || p->stype != ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	name = fake_get(sec, "name");
	fake_uint(sec, "type", &type);
	fake_uint(sec, "vendor_id", &vid);
	fake_uint(sec, "device_id", &did);
	fake_uint(sec, "integrated", &integrated);
	p->type = (uint32_t)type;
	p->vendorId = (uint32_t)vid;
	p->deviceId = (uint32_t)did;
	p->flags = integrated ? ZE_DEVICE_PROPERTY_FLAG_INTEGRATED : 0;
	p->coreClockRate = 2400;
	p->maxMemAllocSize = 4ull << 30;
	fake_levelzero_uuid(h, p->uuid);
	snprintf(p->name, sizeof(p->name), "%s", name ? name : "");
	return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetMemoryProperties(ze_device_handle_t h, uint32_t *n,
					struct ze_device_memory_properties *m)
{
	unsigned long long mib;
	char sec_buf[48];
	const char *sec;
	unsigned have;

	DEVICE("zeDeviceGetMemoryProperties", h, sec);
	if (!n)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	have = fake_uint(sec, "memory_total_mib", &mib) ? 1 : 0;
	if (m && *n >= 1 && have) {
		if (m[0].stype != ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES)
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;
		m[0].totalSize = mib * 1024 * 1024;
		m[0].maxBusWidth = 256;
		snprintf(m[0].name, sizeof(m[0].name), "DDR");
	}
	*n = m ? (*n < have ? *n : have) : have;
	return ZE_RESULT_SUCCESS;
}
