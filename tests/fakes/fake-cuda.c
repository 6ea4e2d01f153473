// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A fake libcuda.so.1 for the tests (never installed), answering from the scenario file
 * (fake-scenario.h):
 *   [cuda]            driver_version (12040; default: [nvml] cuda_driver_version, else 12020
 *                     as the real 535 library), device_count
 *   [cuda.device.N]   name, compute_capability, pci_bus_id, memory_total (bytes), uuid;
 *                     each falls back to [nvml.device.N] (the same board seen through NVML)
 * Behaviour follows docs/formats/nvml.md §9: cuDriverGetVersion works without cuInit,
 * everything else answers CUDA_ERROR_NOT_INITIALIZED (3) before a successful cuInit, and
 * cuInit answers CUDA_ERROR_NO_DEVICE (100) when there is no device. Exports the _v2 names
 * cuda.h maps to and the old unversioned ones. The calls of `doctor --launch` are in
 * fake-cuda-launch.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake-cuda.h"

FAKE_API cuInit_fn cuInit;
FAKE_API cuDriverGetVersion_fn cuDriverGetVersion;
FAKE_API cuDeviceGetCount_fn cuDeviceGetCount;
FAKE_API cuDeviceGet_fn cuDeviceGet;
FAKE_API cuDeviceGetName_fn cuDeviceGetName;
FAKE_API cuDeviceGetAttribute_fn cuDeviceGetAttribute;
FAKE_API cuDeviceTotalMem_fn cuDeviceTotalMem_v2, cuDeviceTotalMem;
FAKE_API cuDeviceGetUuid_fn cuDeviceGetUuid_v2, cuDeviceGetUuid;
FAKE_API cuDeviceGetPCIBusId_fn cuDeviceGetPCIBusId;
FAKE_API cuGetErrorName_fn cuGetErrorName;
FAKE_API cuGetErrorString_fn cuGetErrorString;

static const struct fake_code codes[] = {
	{ 0, "CUDA_SUCCESS", "no error" },
	{ 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
	{ 3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
	{ 34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library" },
	{ 100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
	{ 101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
	{ 201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context" },
	{ 209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
	  "no kernel image is available for execution on the device" },
	{ 218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed" },
	{ 221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler library not found" },
	{ 222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	  "the provided PTX was compiled with an unsupported toolchain." },
	{ 500, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
	{ 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
	{ 719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure" },
	{ 802, "CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized" },
	{ 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
	  "system has unsupported display driver / cuda driver combination" },
	{ 804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
	  "forward compatibility was attempted on non supported HW" },
	{ 999, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

#define N_CODES (sizeof(codes) / sizeof(codes[0]))

int fake_cuda_code_of(const char *name)
{
	const struct fake_code *c = fake_code_by_name(codes, N_CODES, name);

	return c ? c->code : 999;
}

int fake_cuda_initialized;
#define initialized fake_cuda_initialized
#define count	    fake_cuda_count

int fake_cuda_count(void)
{
	unsigned long long n;
	unsigned c;

	if (fake_uint(S, "device_count", &n))
		return (int)n;
	c = fake_count("cuda.device.");
	return (int)(c ? c : fake_count("nvml.device."));
}

/* A device value: [cuda.device.N] first, then the same board's [nvml.device.N]. */
const char *fake_cuda_dev_get(int dev, const char *key, char *sec, size_t size)
{
	char nsec[32];
	const char *v;

	snprintf(sec, size, "cuda.device.%d", dev);
	v = fake_get(sec, key);
	if (v)
		return v;
	snprintf(nsec, sizeof(nsec), "nvml.device.%d", dev);
	return fake_get(nsec, key);
}

CUresult cuInit(unsigned flags)
{
	ENTER(__func__, NULL);
	if (flags != 0)
		return 1;
	if (count() <= 0)
		return 100;
	initialized = 1;
	return 0;
}

CUresult cuDriverGetVersion(int *v)
{
	unsigned long long x;

	ENTER(__func__, NULL);
	if (!v)
		return 1;
	if (!fake_uint(S, "driver_version", &x) && !fake_uint("nvml", "cuda_driver_version", &x))
		x = 12020;
	*v = (int)x;
	return 0;
}

CUresult cuDeviceGetCount(int *n)
{
	ENTER(__func__, NULL);
	if (!initialized)
		return 3;
	if (!n)
		return 1;
	*n = count();
	return 0;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
	ENTER(__func__, NULL);
	if (!initialized)
		return 3;
	if (!d || ordinal < 0 || ordinal >= count())
		return 101;
	*d = ordinal;
	return 0;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	char sec[32];
	const char *v;

	DEV_ENTER(__func__, dev, sec);
	v = fake_cuda_dev_get(dev, "name", sec, sizeof(sec));
	if (!name || len <= 0)
		return 1;
	snprintf(name, (size_t)len, "%s", v ? v : "");
	return 0;
}

CUresult cuDeviceGetAttribute(int *pi, int attrib, CUdevice dev)
{
	char sec[32];
	const char *v;
	int major, minor;

	DEV_ENTER(__func__, dev, sec);
	v = fake_cuda_dev_get(dev, "compute_capability", sec, sizeof(sec));
	if (!pi || !v || sscanf(v, "%d.%d", &major, &minor) != 2)
		return 1;
	if (attrib == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
		*pi = major;
	else if (attrib == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
		*pi = minor;
	else
		return 1;
	return 0;
}

static CUresult total_mem(const char *fn, size_t *bytes, CUdevice dev)
{
	char sec[32];
	const char *v;

	DEV_ENTER(fn, dev, sec);
	v = fake_cuda_dev_get(dev, "memory_total", sec, sizeof(sec));
	if (!bytes || !v)
		return 1;
	*bytes = (size_t)strtoull(v, NULL, 0);
	return 0;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	return total_mem(__func__, bytes, dev);
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev)
{
	return total_mem(__func__, bytes, dev);
}

static CUresult uuid(const char *fn, CUuuid *u, CUdevice dev)
{
	char sec[32];
	const char *v;
	size_t n = 0;

	DEV_ENTER(fn, dev, sec);
	v = fake_cuda_dev_get(dev, "uuid", sec, sizeof(sec));
	if (!u || !v || strncmp(v, "GPU-", 4) != 0)
		return 1;
	for (const char *p = v + 4; *p && n < 16; p++) {
		unsigned b;

		if (*p == '-')
			continue;
		if (sscanf(p, "%2x", &b) != 1)
			return 1;
		u->bytes[n++] = (char)b;
		p++;
	}
	return n == 16 ? 0 : 1;
}

CUresult cuDeviceGetUuid_v2(CUuuid *u, CUdevice dev)
{
	return uuid(__func__, u, dev);
}

CUresult cuDeviceGetUuid(CUuuid *u, CUdevice dev)
{
	return uuid(__func__, u, dev);
}

CUresult cuDeviceGetPCIBusId(char *bus, int len, CUdevice dev)
{
	char sec[32];
	const char *v;
	unsigned dom, b, d;

	DEV_ENTER(__func__, dev, sec);
	v = fake_cuda_dev_get(dev, "pci_bus_id", sec, sizeof(sec));
	if (!bus || len <= 0 || !v || sscanf(v, "%x:%x:%x.", &dom, &b, &d) != 3)
		return 1;
	/* cuda.h: "[domain]:[bus]:[device].[function]", 4 domain digits (%04x:%02x:%02x.0). */
	snprintf(bus, (size_t)len, "%04x:%02x:%02x.0", dom & 0xffff, b, d);
	return 0;
}

CUresult cuGetErrorName(CUresult rc, const char **s)
{
	const struct fake_code *c;

	ENTER(__func__, NULL); /* the stub: 34, pointer untouched */
	c = fake_code_by_value(codes, N_CODES, rc);
	if (!c)
		return 1;
	*s = c->name;
	return 0;
}

CUresult cuGetErrorString(CUresult rc, const char **s)
{
	const struct fake_code *c;

	ENTER(__func__, NULL);
	c = fake_code_by_value(codes, N_CODES, rc);
	if (!c)
		return 1;
	*s = c->text;
	return 0;
}
