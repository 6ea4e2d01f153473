// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * hardware.ecc-uncorrectable on AMD and Intel GPUs: the uncorrectable error totals that the
 * vendor sessions read (docs/snapshot-schema.md) judged like NVML's volatile count.
 *   - AMD: driver.amdsmi.devices[].ecc_uncorrectable, amdsmi_get_gpu_total_ecc_count (the
 *     sum over the GPU's RAS blocks of amdgpu's error counters, "AMDGPU RAS sysfs Error
 *     Count Interface", https://docs.kernel.org/gpu/amdgpu/ras.html);
 *   - Intel: driver.level_zero.devices[].ras_uncorrectable_hardware, Sysman's uncorrectable
 *     error sets without the reset, programming and driver categories (zes_ras_error_cat_t,
 *     Level Zero Sysman specification: engine resets, workloads' own exceptions and driver
 *     communication errors are no fault of the hardware).
 * A board without ECC or RAS (unsupported, or no error set: absent) is no answer; a count
 * the session could not read is a skip for that GPU; a session that did not run leaves the
 * caller's NVML skip, and one that failed before listing GPUs is a skip naming why.
 */
#include <inttypes.h>
#include <stdio.h>

#include "rules/rules-internal.h"

/* Whether the session under `base` ran (its init is more than "not called"); a run that
 * failed before any GPU was listed is a skip for `what`. */
static bool session_ran(struct rule_ctx *c, const struct snap_node *root, const char *base,
			const char *what)
{
	const struct snap_node *s = snap_get(root, base), *init = snap_child(s, "init");
	char why[300];

	if (!init || snap_state(init) == FACT_UNPROBED)
		return false;
	if (snap_count(snap_child(s, "devices")) > 0)
		return true;
	if (snap_present(init)) {
		rule_skip(c, what, "no GPU health from %s (%s lists no GPU)", what, base);
		return true;
	}
	fact_describe(init, why, sizeof(why));
	rule_skip(c, what, "no GPU health from %s (%s.init: %s)", what, base, why);
	return true;
}

static void amd_ras(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *devs = snap_get(root, "driver.amdsmi.devices");

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i), *v;
		const char *bus = snap_get_str(d, "bus_id") ?: "bus unknown";
		int64_t ue = 0, deferred = 0;
		struct finding *f;
		char label[200], name[96];

		snprintf(label, sizeof(label), "AMD GPU %s (%s)", bus,
			 snap_get_str(d, "market_name") ?: "name unknown");
		v = health_value(c, d, label, "ecc_uncorrectable");
		if (!snap_int(v, &ue) || ue <= 0)
			continue;
		snap_get_int(d, "ecc_deferred", &deferred);
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, label,
				 "%s counts %" PRId64 " uncorrectable ECC/RAS error(s) (amdgpu's "
				 "RAS counters over every block, %" PRId64
				 " deferred): the work that touched the failing memory or block "
				 "was lost",
				 label, ue, deferred);
		static const char *const keys[] = { "ecc_uncorrectable", "ecc_deferred",
						    "ecc_correctable", "driver_version" };
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			if (!snap_present(snap_child(d, keys[k])))
				continue;
			snprintf(name, sizeof(name), "driver.amdsmi.devices.%zu.%s", i, keys[k]);
			finding_fact(f, name, snap_child(d, keys[k]));
		}
		finding_symptom(f,
				"amd-smi metric --ecc: UNCORRECTABLE_COUNT: %" PRId64
				" · amdgpu: uncorrectable hardware error(...) detected! · amdgpu: "
				"GPU reset begin!",
				ue);
		finding_fix(
			f, "amd-smi bad-pages -g <gpu>   # the VRAM pages amdgpu retired for them");
		finding_fix(f,
			    "# stop the GPU's processes, then reset it: sudo amd-smi reset -G -g "
			    "<gpu> (rocm-smi --gpureset -d <gpu>), or reboot");
		finding_fix(f,
			    "# errors again after the reset: run AMD's diagnostics (rvs, the ROCm "
			    "Validation Suite) and contact the system vendor for an RMA");
		finding_verify(f, "amd-smi metric --ecc -g <gpu>");
		finding_verify(f, "rocm-smi --showrasinfo all");
	}
}

static void intel_ras(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *devs = snap_get(root, "driver.level_zero.devices");

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i), *v;
		int64_t ue = 0, all = 0;
		struct finding *f;
		char label[200], name[96];

		snprintf(label, sizeof(label), "Intel GPU %zu (%s)", i,
			 snap_get_str(d, "name") ?: "name unknown");
		v = health_value(c, d, label, "ras_uncorrectable_hardware");
		if (!snap_int(v, &ue) || ue <= 0)
			continue;
		snap_get_int(d, "ras_uncorrectable", &all);
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, label,
				 "%s counts %" PRId64 " uncorrectable hardware error(s) in its "
				 "compute, memory, cache or display units (Level Zero Sysman RAS; "
				 "%" PRId64 " uncorrectable in all, with engine resets and "
				 "programming errors)",
				 label, ue, all);
		finding_symptom(f,
				"zesRasGetState (uncorrectable error set): %" PRId64
				" in the compute, non-compute, cache and display categories · "
				"xpu-smi health / stats: RAS errors on GPU %zu",
				ue, i);
		snprintf(name, sizeof(name),
			 "driver.level_zero.devices.%zu.ras_uncorrectable_hardware", i);
		finding_fact(f, name, v);
		snprintf(name, sizeof(name), "driver.level_zero.devices.%zu.ras_uncorrectable", i);
		finding_fact(f, name, snap_child(d, "ras_uncorrectable"));
		finding_fix(f,
			    "xpu-smi stats -d <id>   # the RAS counts by category (xpumcli stats "
			    "with XPU Manager 1.0)");
		finding_fix(
			f, "# stop the GPU's processes, then reset it: sudo xpu-smi reset -d <id>, "
			   "or reboot; errors again: run sudo xpu-smi diag -d <id> -l 3 and "
			   "contact the system vendor for an RMA");
		finding_verify(f, "xpu-smi stats -d <id>");
		finding_verify(f, "xpu-smi health -d <id>");
	}
}

bool ras_uncorrectable_amd_intel(struct rule_ctx *c, const struct snap_node *root)
{
	bool amd = session_ran(c, root, "driver.amdsmi", "AMD SMI");
	bool intel = session_ran(c, root, "driver.level_zero", "Level Zero");

	amd_ras(c, root);
	intel_ras(c, root);
	return amd || intel;
}
