// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.cuda: the CUDA driver API (libcuda.so.1) as a CUDA program sees it:
 * cuDriverGetVersion, cuInit, the devices and their compute capability, collected by
 * src/vendor/cuda.c in a child under the context's deadline. Same gate as NVML (live or
 * --cuda-lib, not --no-vendor, nvidia kernel module loaded, and live /dev/nvidiactl): the real
 * cuInit creates /dev/nvidiactl like nvmlInit (docs/formats/nvml.md §1). cuInit also needs
 * nvidia_uvm, which the real library loads through the set-uid nvidia-modprobe when it is
 * missing, so without it (or, live, without /dev/nvidia-uvm) only cuDriverGetVersion is
 * called. Keys: docs/snapshot-schema.md "driver.cuda".
 */
#include <errno.h>
#include <string.h>

#include "probe-vendor.h"

int probe_cuda_driver(struct probe_env *pe, struct snapshot *s)
{
	static const char *const keys[] = { "library", "init", NULL };
	struct snap_node *cu = snap_object(snap_object(snapshot_root(s), "driver"), "cuda");
	struct vendor_req req = { .library = pe->ctx->cuda_lib,
				  .timeout_ms = pe->ctx->vendor_timeout_ms };
	struct vendor_result r;
	const char *source, *why;
	char buf[256];
	int err;

	why = probe_vendor_gate(pe, s, pe->ctx->cuda_lib, "--cuda-lib", "cuInit", true, buf,
				sizeof(buf), &source);
	if (why) {
		probe_vendor_not_called(cu, keys, FACT_UNPROBED, source, why);
		return snapshot_error(s);
	}
	if (!probe_vendor_module_ready(pe, s, "nvidia_uvm", "/dev/nvidia-uvm"))
		req.skip_init = "nvidia_uvm kernel module not loaded or /dev/nvidia-uvm missing "
				"(cuInit would load it through nvidia-modprobe)";
	err = vendor_cuda_collect(&req, &r);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		probe_vendor_not_called(cu, keys, FACT_ERROR, "fork", strerror(-err));
		return snapshot_error(s);
	}
	probe_vendor_write(cu, &r, req.timeout_ms, "cuda");
	if (r.failure)
		log_warn(pe->log, "libcuda: %s", r.failure);
	vendor_result_done(&r);
	return snapshot_error(s);
}
