// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * `gpuenv doctor --launch`: the ground truth the static predictions are held against. On each
 * GPU, in the libcuda child: the primary context (cuDevicePrimaryCtxRetain, cuCtxSetCurrent),
 * then for each of the two images of launch-module.h, the SASS-only fat binary and the PTX
 * text, cuModuleLoadData → cuModuleGetFunction → cuMemAlloc → cuLaunchKernel →
 * cuCtxSynchronize → cuMemcpyDtoH, and a check that out[i] = i * 3 + 1; then everything is
 * released. Calls and their order: CUDA Driver API reference ("Module Management",
 * "Execution Control", cuModuleLoadData takes "a cubin or fatbin as output by nvcc, or a
 * NULL-terminated PTX"). Facts under devices.<i>.launch (docs/snapshot-schema.md):
 *   sass, ptx        "ok", or the failure: the CUDA error (name, number, text) with the call
 *                    that returned it as the source, or "wrong result …" (source "result check")
 *   sass_ms, ptx_ms  module load + first launch + synchronize, in ms (a PTX JIT shows here)
 * A call that hangs leaves its image's fact pending: the session's deadline records it there.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cuda-internal.h"
#include "launch-module/launch-module.h"

#define LAUNCH_BLOCKS  2u
#define LAUNCH_THREADS 128u
#define LAUNCH_N       (LAUNCH_BLOCKS * LAUNCH_THREADS)

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The first wrong value and how many are wrong; 0 when all are right. */
static unsigned wrong_values(const unsigned *out, unsigned *ret_first)
{
	unsigned wrong = 0;

	for (unsigned i = LAUNCH_N; i-- > 0;)
		if (out[i] != i * 3u + 1u) {
			wrong++;
			*ret_first = i;
		}
	return wrong;
}

/* Loads image, runs the kernel from it and checks what it wrote: the fact `key`. */
static void run_image(struct cuda *c, const char *key, const char *ms_key, const void *image)
{
	unsigned out[LAUNCH_N], n = LAUNCH_N, first = 0, wrong;
	CUmodule mod = NULL;
	CUfunction fn = NULL;
	CUdeviceptr buf = 0;
	void *params[] = { &buf, &n };
	int64_t t0 = now_us();

	if (!CU(c, key, cuModuleLoadData, (&mod, image)))
		return;
	if (!CU(c, key, cuModuleGetFunction, (&fn, mod, LAUNCH_MODULE_KERNEL)))
		goto unload;
	if (!CU(c, key, cuMemAlloc, (&buf, sizeof(out))))
		goto unload;
	if (!CU(c, key, cuLaunchKernel,
		(fn, LAUNCH_BLOCKS, 1, 1, LAUNCH_THREADS, 1, 1, 0, NULL, params, NULL)))
		goto out_free;
	if (!CU(c, key, cuCtxSynchronize, ()))
		goto out_free;
	if (!c->req->no_timings) {
		c->w->call = "clock_gettime(CLOCK_MONOTONIC)";
		vw_int(c->w, ms_key, (now_us() - t0 + 500) / 1000);
	}
	/* Whatever the device memory held before cannot pass the check by chance: every value
	 * is compared, and the host copy starts as what the kernel never writes. */
	for (unsigned i = 0; i < LAUNCH_N; i++)
		out[i] = ~(i * 3u + 1u);
	if (!CU(c, key, cuMemcpyDtoH, (out, buf, sizeof(out))))
		goto out_free;
	wrong = wrong_values(out, &first);
	if (wrong)
		vw_state(c->w, key, "result check", "error",
			 "wrong result: out[%u] = %u, expected %u (%u of %u values wrong)", first,
			 out[first], first * 3u + 1u, wrong, LAUNCH_N);
	else
		vw_str(c->w, key, "ok");
out_free:
	/* Clean-up failures are not the launch's: the child ends right after anyway. */
	if (c->f.cuMemFree)
		c->f.cuMemFree(buf);
unload:
	if (c->f.cuModuleUnload)
		c->f.cuModuleUnload(mod);
}

void cuda_launch_device(struct cuda *c, int i, CUdevice dev)
{
	CUcontext ctx = NULL;

	vw_set_base(c->w, "devices.%d.launch", i);
	if (!CU(c, "sass", cuDevicePrimaryCtxRetain, (&ctx, dev), "ptx"))
		goto out;
	if (CU(c, "sass", cuCtxSetCurrent, (ctx), "ptx")) {
		run_image(c, "sass", "sass_ms", launch_module_sass);
		run_image(c, "ptx", "ptx_ms", launch_module_ptx);
		if (c->f.cuCtxSetCurrent)
			c->f.cuCtxSetCurrent(NULL);
	}
	if (c->f.cuDevicePrimaryCtxRelease)
		c->f.cuDevicePrimaryCtxRelease(dev);
out:
	vw_set_base(c->w, "devices.%d", i);
}
