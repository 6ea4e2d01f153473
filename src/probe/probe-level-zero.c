// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.level_zero: what Level Zero (libze_loader.so.1 and the GPU driver it loads, Intel's
 * libze_intel_gpu.so.1) says: zeInit, each driver's API and driver version, each device's
 * name, type, PCI ids and local memory, collected by src/vendor/levelzero.c in a child under
 * the context's deadline. Called only when allowed: live, or with --ze-lib under --sysroot;
 * never with --no-vendor; and only while the i915 or xe kernel module is loaded
 * (driver.kernel_modules or /sys/module/<m>, the sysfs-module ABI): without one the GPU
 * driver has nothing to open. Nothing is written on a machine with neither an Intel GPU nor
 * i915/xe. Keys: docs/snapshot-schema.md "driver.level_zero".
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/ctx.h"
#include "probe-vendor.h"

static const char *const levelzero_keys[] = { "library", "init", NULL };

static const struct vendor_probe levelzero_probe = {
	.parent = "driver",
	.name = "level_zero",
	.keys = levelzero_keys,
	.lib_offset = offsetof(struct gpuenv_ctx, ze_lib),
	.lib_option = "--ze-lib",
	.first_call = "zeInit",
	.need_module = false, /* i915 or xe, not nvidia: checked below */
	.label = "Level Zero",
	.session = "levelzero",
	.start = vendor_levelzero_start,
};

int probe_ze_session(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	int i915 = probe_vendor_module_state(pe, s, "i915");
	int xe = probe_vendor_module_state(pe, s, "xe");
	bool module = i915 > 0 || xe > 0;
	struct snap_node *obj;

	if (!module && !probe_vendor_gpu_present(s, "0x8086") && !pe->ctx->ze_lib)
		return 0;
	obj = snap_object(snap_object(snapshot_root(s), "driver"), "level_zero");

	/* The gate's own reasons (--no-vendor, --sysroot without a library) come first. */
	if (!(pe->ctx->flags & GPUENV_CTX_NO_VENDOR) &&
	    ctx_vendor_allowed(pe->ctx, pe->ctx->ze_lib) && !module) {
		/* As for nvidia (probe_vendor_gate): what it would have said is unknown, not
		 * "no module", when the module state could not be read. */
		if (i915 < 0 || xe < 0) {
			int err = i915 < 0 ? i915 : xe;
			char why[160];

			snprintf(why, sizeof(why),
				 "not called: could not tell whether the i915 or xe kernel module "
				 "is loaded (%s: %s)",
				 i915 < 0 ? "/sys/module/i915" : "/sys/module/xe", strerror(-err));
			probe_vendor_not_called(
				obj, levelzero_keys, fact_state_from_test_errno(err),
				i915 < 0 ? "/sys/module/i915" : "/sys/module/xe", why);
			return snapshot_error(s);
		}
		probe_vendor_not_called(
			obj, levelzero_keys, FACT_UNPROBED, "/sys/module/i915",
			"neither the i915 nor the xe kernel module is loaded (Level "
			"Zero's GPU driver has no GPU to open)");
		return snapshot_error(s);
	}
	return probe_vendor_run(pe, s, &levelzero_probe);
}
