// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.amdsmi: what AMD SMI (libamd_smi.so, ROCm's amd-smi library) says about each AMD
 * GPU: its PCI address, name, driver version, VRAM, temperatures and ECC totals, collected by
 * src/vendor/amdsmi.c in a child under the context's deadline. Called only when allowed:
 * live, or with --amdsmi-lib under --sysroot; never with --no-vendor; and only while the
 * amdgpu kernel module is loaded (driver.kernel_modules.amdgpu or /sys/module/amdgpu, the
 * sysfs-module ABI): without it the library has no GPU to open. Nothing is written on a
 * machine with neither an AMD GPU nor amdgpu. Keys: docs/snapshot-schema.md
 * "driver.amdsmi".
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/ctx.h"
#include "probe-vendor.h"

static const char *const amdsmi_keys[] = { "library", "init", NULL };

static const struct vendor_probe amdsmi_probe = {
	.parent = "driver",
	.name = "amdsmi",
	.keys = amdsmi_keys,
	.lib_offset = offsetof(struct gpuenv_ctx, amdsmi_lib),
	.lib_option = "--amdsmi-lib",
	.first_call = "amdsmi_init",
	.need_module = false, /* amdgpu, not nvidia: checked below */
	.label = "AMD SMI",
	.session = "amdsmi",
	.start = vendor_amdsmi_start,
};

int probe_amdsmi(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	/* 1 loaded, 0 not, -errno: /sys/module/amdgpu could not be looked at */
	int amdgpu = probe_vendor_module_state(pe, s, "amdgpu");
	struct snap_node *obj;

	/* No AMD GPU and no amdgpu loaded: nothing of AMD's to ask, and nothing written (a
	 * machine without AMD hardware has no driver.amdsmi, whatever /sys/module says). */
	if (amdgpu <= 0 && !probe_vendor_gpu_present(s, "0x1002") && !pe->ctx->amdsmi_lib)
		return 0;
	obj = snap_object(snap_object(snapshot_root(s), "driver"), "amdsmi");

	/* The gate's own reasons (--no-vendor, --sysroot without a library) come first. */
	if (!(pe->ctx->flags & GPUENV_CTX_NO_VENDOR) &&
	    ctx_vendor_allowed(pe->ctx, pe->ctx->amdsmi_lib) && amdgpu <= 0) {
		char why[160] = "amdgpu kernel module not loaded (AMD SMI has no GPU to open)";
		enum fact_state state = FACT_UNPROBED;

		/* As for nvidia (probe_vendor_gate): not called either way, but what it would
		 * have said is unknown, not "no module", when the module could not be looked
		 * at. */
		if (amdgpu < 0) {
			state = fact_state_from_test_errno(amdgpu);
			snprintf(why, sizeof(why),
				 "not called: could not tell whether the amdgpu kernel module is "
				 "loaded (/sys/module/amdgpu: %s)",
				 strerror(-amdgpu));
		}
		probe_vendor_not_called(obj, amdsmi_keys, state, "/sys/module/amdgpu", why);
		return snapshot_error(s);
	}
	return probe_vendor_run(pe, s, &amdsmi_probe);
}
