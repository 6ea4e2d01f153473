// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.level-zero-no-device: what the Level Zero session (driver.level_zero, probe
 * `level-zero`, a sandboxed child that calls zeInit(ZE_INIT_FLAG_GPU_ONLY), zeDriverGet,
 * zeDeviceGet and zeDeviceGetProperties) says against the GPU that i915 or xe drives: zeInit
 * failing, or no driver listing an Intel GPU, means every Level Zero program (torch.xpu,
 * SYCL's level_zero backend, ipex) sees none, whatever the files look like. The loader's
 * ZE_RESULT_ERROR_UNINITIALIZED says only that no driver initialised (oneapi-src/level-zero
 * issue #140 lists what hides behind it: no GPU driver library, the render node's permissions,
 * a driver that does not support the GPU); the rules that find those causes explain this
 * finding (rules-causes.c).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-intel.h"

/* The Intel GPUs the session listed. */
static size_t ze_intel_gpus(const struct snap_node *ze)
{
	const struct snap_node *devs = snap_child(ze, "devices");
	size_t n = 0;

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		int64_t vendor = 0;

		if (streq(snap_get_str(d, "type") ?: "", "GPU") &&
		    snap_get_int(d, "vendor_id", &vendor) && vendor == 0x8086)
			n++;
	}
	return n;
}

RULE_CHECK(check_level_zero_no_device)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *ze = snap_get(root, "driver.level_zero");
	const struct snap_node *init = snap_child(ze, "init"), *g = NULL;
	struct finding *f;
	char what[200];

	for (size_t i = 0; !g && i < snap_count(gpus); i++)
		if (gpu_intel_bound(snap_at(gpus, i)))
			g = snap_at(gpus, i);
	if (!init || snap_state(init) == FACT_UNPROBED)
		return; /* no session (--no-vendor, no i915/xe) */
	/* the session was not run because the module state could not be read */
	if (snap_state(init) == FACT_UNREADABLE) {
		rule_need(c, NULL, "the Level Zero session", init);
		return;
	}
	if (!g)
		return; /* no Intel GPU with its driver */
	if (snap_present(init)) {
		if (ze_intel_gpus(ze) > 0)
			return;
		snprintf(what, sizeof(what),
			 "zeInit succeeded, but no Level Zero driver lists an Intel GPU");
	} else {
		char buf[160];

		fact_describe(init, buf, sizeof(buf));
		snprintf(what, sizeof(what), "zeInit failed (%s)", buf);
	}
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, snap_get_str(g, "bus_id"),
			 "%s while the GPU at %s is bound to %s: no Level Zero program sees it "
			 "(torch.xpu.is_available() False, no [level_zero:gpu] in sycl-ls)",
			 what, snap_get_str(g, "bus_id") ?: "?", snap_get_str(g, "driver") ?: "?");
	if (!f)
		return;
	finding_fact(f, "driver.level_zero.init", init);
	finding_fact(f, "driver.level_zero.library", snap_child(ze, "library"));
	finding_fact(f, "runtime.level_zero.gpu_driver.path",
		     snap_get(root, "runtime.level_zero.gpu_driver.path"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}
