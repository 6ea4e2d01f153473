// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.nvml: what NVML (libnvidia-ml.so.1) says about the driver and each GPU, collected
 * by src/vendor/nvml.c in a child under the context's deadline. Called only when allowed:
 * live, or with --nvml-lib under --sysroot; never with --no-vendor; and only when the nvidia
 * kernel module is loaded (/sys/module/nvidia, driver.kernel_modules.nvidia) and, live,
 * /dev/nvidiactl exists, because the real nvmlInit creates /dev/nvidiactl as root even
 * without a driver (docs/formats/nvml.md §1) and gpuenv never changes the machine.
 * Keys: docs/snapshot-schema.md "driver.nvml".
 */
#include <errno.h>
#include <string.h>

#include "probe-vendor.h"

int probe_nvml(struct probe_env *pe, struct snapshot *s)
{
	static const char *const keys[] = { "library", "init", NULL };
	struct snap_node *nv = snap_object(snap_object(snapshot_root(s), "driver"), "nvml");
	struct vendor_req req = { .library = pe->ctx->nvml_lib,
				  .timeout_ms = pe->ctx->vendor_timeout_ms };
	struct vendor_result r;
	const char *source, *why;
	char buf[256];
	int err;

	why = probe_vendor_gate(pe, s, pe->ctx->nvml_lib, "--nvml-lib", "nvmlInit", true, buf,
				sizeof(buf), &source);
	if (why) {
		probe_vendor_not_called(nv, keys, FACT_UNPROBED, source, why);
		return snapshot_error(s);
	}
	err = vendor_nvml_collect(&req, &r);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		probe_vendor_not_called(nv, keys, FACT_ERROR, "fork", strerror(-err));
		return snapshot_error(s);
	}
	probe_vendor_write(nv, &r, req.timeout_ms, "nvml");
	if (r.failure)
		log_warn(pe->log, "NVML: %s", r.failure);
	vendor_result_done(&r);
	return snapshot_error(s);
}
