// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A fake libOpenCL.so.1 (an ICD loader) for the tests (never installed), answering from the
 * scenario file (fake-scenario.h):
 *   [opencl]                      platform_count (default: the [opencl.platform.N] sections;
 *                                 0: no vendor ICD loaded, clGetPlatformIDs answers
 *                                 CL_PLATFORM_NOT_FOUND_KHR as ocl-icd and the Khronos loader
 *                                 do under cl_khr_icd)
 *   [opencl.platform.N]           name, vendor, version, profile, device_count (default: the
 *                                 [opencl.platform.N.device.M] sections)
 *   [opencl.platform.N.device.M]  name, vendor, version, driver_version, type (a
 *                                 cl_device_type number, default 4 = CL_DEVICE_TYPE_GPU)
 * plus the injections (error./hang./crash. <function>) in [opencl]. The queries follow the
 * OpenCL 1.0 specification (§4.1, §4.2): a size query with no buffer, CL_INVALID_VALUE for a
 * buffer too small, CL_DEVICE_NOT_FOUND when a platform has no device of the type asked for.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fake-scenario.h"
#include "vendor/opencl-abi.h"

#define S "opencl"

FAKE_API clGetPlatformIDs_fn clGetPlatformIDs;
FAKE_API clGetPlatformInfo_fn clGetPlatformInfo;
FAKE_API clGetDeviceIDs_fn clGetDeviceIDs;
FAKE_API clGetDeviceInfo_fn clGetDeviceInfo;

static const struct fake_code codes[] = {
	{ CL_SUCCESS, "CL_SUCCESS", "" },
	{ CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND", "" },
	{ -5, "CL_OUT_OF_RESOURCES", "" },
	{ -6, "CL_OUT_OF_HOST_MEMORY", "" },
	{ CL_INVALID_VALUE, "CL_INVALID_VALUE", "" },
	{ CL_PLATFORM_NOT_FOUND_KHR, "CL_PLATFORM_NOT_FOUND_KHR", "" },
};

static int code_of(const char *name)
{
	const struct fake_code *c =
		fake_code_by_name(codes, sizeof(codes) / sizeof(codes[0]), name);

	return c ? c->code : 0x7fffffff;
}

#define ENTER(fn)                                                                                  \
	do {                                                                                       \
		int _code;                                                                         \
		if (fake_inject(S, NULL, fn, code_of, &_code))                                     \
			return (cl_int)_code;                                                      \
	} while (0)

static unsigned platforms(void)
{
	unsigned long long n;

	return fake_uint(S, "platform_count", &n) ? (unsigned)n : fake_count("opencl.platform.");
}

/* Handles: a platform is its 1-based number; a device is (platform << 8) | 1-based number. */
static const char *platform_section(cl_platform_id p, char *buf, size_t len)
{
	uintptr_t i = (uintptr_t)p;

	if (i == 0 || i > platforms())
		return NULL;
	snprintf(buf, len, "opencl.platform.%u", (unsigned)(i - 1));
	return buf;
}

static unsigned devices(const char *platform)
{
	char prefix[64];
	unsigned long long n;

	if (fake_uint(platform, "device_count", &n))
		return (unsigned)n;
	snprintf(prefix, sizeof(prefix), "%s.device.", platform);
	return fake_count(prefix);
}

static const char *device_section(cl_device_id d, char *buf, size_t len)
{
	uintptr_t h = (uintptr_t)d;
	char pbuf[48];
	const char *p = platform_section((cl_platform_id)(h >> 8), pbuf, sizeof(pbuf));

	if (!p || (h & 0xff) == 0 || (h & 0xff) > devices(p))
		return NULL;
	snprintf(buf, len, "%s.device.%u", p, (unsigned)(h & 0xff) - 1);
	return buf;
}

/* The spec's size-query-then-fetch for a value of `need` bytes. */
static cl_int info_value(const void *v, size_t need, size_t size, void *value, size_t *ret_size)
{
	if (value && size < need)
		return CL_INVALID_VALUE;
	if (value)
		memcpy(value, v, need);
	if (ret_size)
		*ret_size = need;
	return CL_SUCCESS;
}

struct info_key {
	cl_uint param;
	const char *key;
};

/* A string query: the scenario key of param in section sec ("" when not set). */
static cl_int string_info(const char *sec, const struct info_key *keys, size_t n, cl_uint param,
			  size_t size, void *value, size_t *ret_size)
{
	for (size_t i = 0; i < n; i++)
		if (keys[i].param == param) {
			const char *v = fake_get(sec, keys[i].key) ?: "";

			return info_value(v, strlen(v) + 1, size, value, ret_size);
		}
	return CL_INVALID_VALUE;
}

cl_int clGetPlatformIDs(cl_uint n, cl_platform_id *ids, cl_uint *ret_n)
{
	unsigned c = platforms();

	ENTER("clGetPlatformIDs");
	if ((n == 0 && ids) || (!ids && !ret_n))
		return CL_INVALID_VALUE;
	if (c == 0) {
		if (ret_n)
			*ret_n = 0;
		return CL_PLATFORM_NOT_FOUND_KHR;
	}
	for (unsigned i = 0; ids && i < c && i < n; i++)
		ids[i] = (cl_platform_id)(uintptr_t)(i + 1);
	if (ret_n)
		*ret_n = c;
	return CL_SUCCESS;
}

cl_int clGetPlatformInfo(cl_platform_id p, cl_platform_info param, size_t size, void *value,
			 size_t *ret_size)
{
	static const struct info_key keys[] = {
		{ CL_PLATFORM_PROFILE, "profile" },
		{ CL_PLATFORM_VERSION, "version" },
		{ CL_PLATFORM_NAME, "name" },
		{ CL_PLATFORM_VENDOR, "vendor" },
	};
	char buf[48];
	const char *sec;

	ENTER("clGetPlatformInfo");
	sec = platform_section(p, buf, sizeof(buf));
	if (!sec)
		return -32; /* CL_INVALID_PLATFORM */
	return string_info(sec, keys, sizeof(keys) / sizeof(keys[0]), param, size, value, ret_size);
}

static cl_device_type device_type(const char *sec)
{
	unsigned long long t = CL_DEVICE_TYPE_GPU;

	fake_uint(sec, "type", &t);
	return (cl_device_type)t;
}

cl_int clGetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n, cl_device_id *ids,
		      cl_uint *ret_n)
{
	char buf[48], dbuf[64];
	const char *sec;
	unsigned c, found = 0;

	ENTER("clGetDeviceIDs");
	sec = platform_section(p, buf, sizeof(buf));
	if (!sec)
		return -32; /* CL_INVALID_PLATFORM */
	if ((n == 0 && ids) || (!ids && !ret_n))
		return CL_INVALID_VALUE;
	c = devices(sec);
	for (unsigned d = 0; d < c && d < 0xff; d++) {
		snprintf(dbuf, sizeof(dbuf), "%s.device.%u", sec, d);
		if (!(device_type(dbuf) & type))
			continue;
		if (ids && found < n)
			ids[found] = (cl_device_id)((uintptr_t)p << 8 | (d + 1));
		found++;
	}
	if (found == 0)
		return CL_DEVICE_NOT_FOUND;
	if (ret_n)
		*ret_n = found;
	return CL_SUCCESS;
}

cl_int clGetDeviceInfo(cl_device_id d, cl_device_info param, size_t size, void *value,
		       size_t *ret_size)
{
	static const struct info_key keys[] = {
		{ CL_DEVICE_NAME, "name" },
		{ CL_DEVICE_VENDOR, "vendor" },
		{ CL_DEVICE_VERSION, "version" },
		{ CL_DRIVER_VERSION, "driver_version" },
	};
	char buf[64];
	const char *sec;

	ENTER("clGetDeviceInfo");
	sec = device_section(d, buf, sizeof(buf));
	if (!sec)
		return -33; /* CL_INVALID_DEVICE */
	if (param == CL_DEVICE_TYPE) {
		cl_device_type t = device_type(sec);

		return info_value(&t, sizeof(t), size, value, ret_size);
	}
	return string_info(sec, keys, sizeof(keys) / sizeof(keys[0]), param, size, value, ret_size);
}
