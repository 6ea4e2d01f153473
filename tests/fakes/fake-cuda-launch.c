// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fake libcuda's contexts, modules, memory and launches (test code), what `gpuenv doctor
 * --launch` calls (src/vendor/cuda-launch.c). Device memory is host memory; the kernel runs on
 * the host. Behaviour follows the CUDA Driver API reference:
 *   cuModuleLoadData  a fat binary (magic 0xBA55ED50; entry headers as src/fatbin reads them:
 *                     kind 1 PTX / 2 ELF at +0, header size +4, payload size +8, arch +0x1c)
 *                     loads when one of its ELF entries is SASS the device runs (same major,
 *                     minor not above the device's: NVIDIA's binary compatibility rule) or a
 *                     PTX entry can be JIT-compiled, else CUDA_ERROR_NO_BINARY_FOR_GPU; PTX
 *                     text needs ".version X.Y" (else CUDA_ERROR_INVALID_PTX) not above
 *                     [cuda] ptx_isa_max (default 5.0 for a driver older than CUDA 9.0, as
 *                     CUDA 8's JIT knows PTX ISA 5.0, else 9.0), else
 *                     CUDA_ERROR_UNSUPPORTED_PTX_VERSION. A function "error.cuModuleLoadData.ptx"
 *                     or ".sass" injects into one image kind only.
 *   cuLaunchKernel    runs gpuenv_probe(out, n): out[i] = i * 3 + 1, or i * 3 with
 *                     [cuda.device.N] wrong_result = 1 (a GPU that computes wrongly).
 * Every call that needs a context answers CUDA_ERROR_INVALID_CONTEXT without one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake-cuda.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define KERNEL	     "gpuenv_probe"

FAKE_API cuDevicePrimaryCtxRetain_fn cuDevicePrimaryCtxRetain;
FAKE_API cuDevicePrimaryCtxRelease_fn cuDevicePrimaryCtxRelease_v2, cuDevicePrimaryCtxRelease;
FAKE_API cuCtxSetCurrent_fn cuCtxSetCurrent;
FAKE_API cuCtxSynchronize_fn cuCtxSynchronize;
FAKE_API cuModuleLoadData_fn cuModuleLoadData;
FAKE_API cuModuleGetFunction_fn cuModuleGetFunction;
FAKE_API cuModuleUnload_fn cuModuleUnload;
FAKE_API cuMemAlloc_fn cuMemAlloc_v2;
FAKE_API cuMemFree_fn cuMemFree_v2;
FAKE_API cuMemcpyDtoH_fn cuMemcpyDtoH_v2;
FAKE_API cuLaunchKernel_fn cuLaunchKernel;

/* A context is its device's ordinal + 1, as a pointer; 0 when none is current. */
static int current = -1;
static char current_sec[32];

struct CUmod_st {
	int dev;
};

#define CTX_ENTER(fn)                                                                              \
	do {                                                                                       \
		if (current < 0)                                                                   \
			return 201;                                                                \
		ENTER(fn, current_sec);                                                            \
	} while (0)

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
	DEV_ENTER(__func__, dev, NULL);
	if (!ctx)
		return 1;
	*ctx = (CUcontext)(uintptr_t)(dev + 1);
	return 0;
}

static CUresult release(const char *fn, CUdevice dev)
{
	DEV_ENTER(fn, dev, NULL);
	return 0;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	return release(__func__, dev);
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
	return release(__func__, dev);
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	int dev = (int)(uintptr_t)ctx - 1;

	ENTER(__func__, NULL);
	if (!ctx) {
		current = -1;
		return 0;
	}
	if (dev < 0 || dev >= fake_cuda_count())
		return 201;
	current = dev;
	snprintf(current_sec, sizeof(current_sec), "cuda.device.%d", dev);
	return 0;
}

CUresult cuCtxSynchronize(void)
{
	CTX_ENTER(__func__);
	return 0;
}

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* The current device's compute capability as major * 10 + minor, or -1. */
static int device_sm(void)
{
	char sec[32];
	const char *v = fake_cuda_dev_get(current, "compute_capability", sec, sizeof(sec));
	int major, minor;

	return v && sscanf(v, "%d.%d", &major, &minor) == 2 ? major * 10 + minor : -1;
}

/* The newest PTX ISA the fake driver's JIT accepts, as major * 10 + minor. */
static int ptx_isa_max(void)
{
	unsigned long long drv = 0;
	const char *v = fake_get(S, "ptx_isa_max");
	int major, minor;

	if (v && sscanf(v, "%d.%d", &major, &minor) == 2)
		return major * 10 + minor;
	if (!fake_uint(S, "driver_version", &drv))
		fake_uint("nvml", "cuda_driver_version", &drv);
	return drv && drv < 9000 ? 50 : 90;
}

static CUresult load_ptx(const char *text)
{
	const char *v = strstr(text, ".version");
	int major, minor;

	ENTER("cuModuleLoadData.ptx", current_sec);
	if (!v || sscanf(v, ".version %d.%d", &major, &minor) != 2 ||
	    !strstr(text, ".entry " KERNEL))
		return 218;
	return major * 10 + minor > ptx_isa_max() ? 222 : 0;
}

/* A fat binary the device can run: SASS of its major at or below its minor, or PTX. */
static CUresult load_fatbin(const unsigned char *p)
{
	uint64_t size = rd64(p + 8), off = 16;
	int sm = device_sm();
	bool ptx = false;

	ENTER("cuModuleLoadData.sass", current_sec);
	while (off + 0x20 <= 16 + size) {
		const unsigned char *e = p + off;
		unsigned kind = e[0] | e[1] << 8, arch = rd32(e + 0x1c);

		if (kind == 2 && (int)arch / 10 == sm / 10 && (int)arch <= sm)
			return 0;
		if (kind == 1 && (int)arch <= sm)
			ptx = true;
		off += rd32(e + 4) + rd64(e + 8);
	}
	return ptx ? 0 : 209;
}

CUresult cuModuleLoadData(CUmodule *mod, const void *image)
{
	const unsigned char *p = image;
	CUresult rc;

	CTX_ENTER(__func__);
	if (!mod || !image)
		return 1;
	if (rd32(p) == FATBIN_MAGIC)
		rc = load_fatbin(p);
	else if (p[0] == 0x7f && p[1] == 'E')
		rc = 200; /* a bare cubin: gpuenv never loads one */
	else
		rc = load_ptx(image);
	if (rc)
		return rc;
	*mod = calloc(1, sizeof(**mod));
	if (!*mod)
		return 2;
	(*mod)->dev = current;
	return 0;
}

CUresult cuModuleGetFunction(CUfunction *fn, CUmodule mod, const char *name)
{
	CTX_ENTER(__func__);
	if (!fn || !mod || !name)
		return 1;
	if (strcmp(name, KERNEL) != 0)
		return 500;
	*fn = (CUfunction)mod;
	return 0;
}

CUresult cuModuleUnload(CUmodule mod)
{
	CTX_ENTER(__func__);
	free(mod);
	return 0;
}

CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t size)
{
	void *p;

	CTX_ENTER(__func__);
	if (!ptr || !size)
		return 1;
	p = malloc(size);
	if (!p)
		return 2;
	*ptr = (CUdeviceptr)(uintptr_t)p;
	return 0;
}

CUresult cuMemFree_v2(CUdeviceptr ptr)
{
	CTX_ENTER(__func__);
	free((void *)(uintptr_t)ptr);
	return 0;
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t size)
{
	CTX_ENTER(__func__);
	if (!dst || !src)
		return 1;
	memcpy(dst, (const void *)(uintptr_t)src, size);
	return 0;
}

CUresult cuLaunchKernel(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
			unsigned by, unsigned bz, unsigned shared, CUstream stream, void **params,
			void **extra)
{
	unsigned long long wrong = 0;
	unsigned *out, n, threads = gx * gy * gz * bx * by * bz;

	CTX_ENTER(__func__);
	(void)shared;
	(void)stream;
	(void)extra;
	if (!fn || !params || !params[0] || !params[1])
		return 1;
	out = (unsigned *)(uintptr_t) * (CUdeviceptr *)params[0];
	n = *(unsigned *)params[1];
	fake_uint(current_sec, "wrong_result", &wrong);
	for (unsigned i = 0; i < threads && i < n; i++)
		out[i] = i * 3u + (wrong ? 0u : 1u);
	return 0;
}
