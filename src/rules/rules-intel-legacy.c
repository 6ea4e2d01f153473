// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.intel-compute-runtime-drops-gpu: an Intel Gen8, Gen9 or Gen11 GPU (Broadwell to Ice
 * Lake, facts/intel_compute_runtime_legacy.tsv) with a regular compute runtime package from
 * the release that left those GPUs to the -legacy1 packages on (24.35.30872.22, Intel's
 * LEGACY_PLATFORMS.md): its OpenCL ICD and Level Zero driver list no device for the GPU, so
 * clinfo, sycl-ls and OpenVINO see none although i915 drives it. Judged only on the versions
 * of Intel's own packages (its GitHub releases, "26.22.38646.4-0", and its repositories,
 * "24.22.29735.27-914~22.04"): a distribution's build may carry the legacy platforms itself.
 */
#include <stdio.h>
#include <string.h>

#include "facts/facts-intel.h"
#include "rules/rules-intel.h"
#include "shared/macro.h"

/* The compute runtime packages; the third and fourth fields of each version are NEO's build
 * and hotfix: intel-opencl-icd "24.52.32224.5", libze-intel-gpu1 "25.18.33578.6"
 * (year.week.build.hotfix), intel-level-zero-gpu "1.6.32224.5" (Level Zero major.minor, then
 * build.hotfix). */
static const char *const runtime_pkgs[] = { "intel-opencl-icd", "libze-intel-gpu1",
					    "intel-level-zero-gpu" };

static const char *const legacy_pkgs[] = { "intel-opencl-icd-legacy1",
					   "intel-level-zero-gpu-legacy1" };

/* NEO's build and hotfix from a dpkg version of Intel's packaging: four dotted numbers, then
 * nothing, the GitHub release's "-0", or Intel's repository's "-914~22.04" / "+i538~22.04".
 * false for another form (a distribution's "-1ubuntu3" build). */
static bool intel_neo_build(const char *v, unsigned *ret_build, unsigned *ret_hotfix)
{
	unsigned f[4];
	int n = 0;
	const char *rev;

	if (!v || sscanf(v, "%u.%u.%u.%u%n", &f[0], &f[1], &f[2], &f[3], &n) != 4)
		return false;
	rev = v + n;
	if (*rev && !streq(rev, "-0")) {
		size_t digits = strspn(rev + 1 + (rev[1] == 'i'), "0123456789");

		if ((rev[0] != '-' && rev[0] != '+') || digits == 0 ||
		    rev[1 + (rev[1] == 'i') + digits] != '~')
			return false;
	}
	*ret_build = f[2];
	*ret_hotfix = f[3];
	return true;
}

/* Whether build.hotfix is at or after the dropped_from release "24.35.30872.22". */
static bool at_or_after(unsigned build, unsigned hotfix, const char *dropped_from)
{
	unsigned f[4];

	if (sscanf(dropped_from, "%u.%u.%u.%u", &f[0], &f[1], &f[2], &f[3]) != 4)
		return false;
	return build > f[2] || (build == f[2] && hotfix >= f[3]);
}

RULE_CHECK(check_intel_compute_runtime_drops_gpu)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *pkgs = snap_get(root, "runtime.level_zero.packages");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct facts_intel_legacy *fam;
		unsigned vendor = 0, device = 0;
		struct finding *f;

		if (!gpu_intel_bound(g) || !gpu_pci_ids(g, &vendor, &device) ||
		    facts_intel_legacy_family(device, &fam) < 0 ||
		    !streq(fam->confidence, "confirmed"))
			continue;
		/* needed only here, for a legacy GPU: on other machines the packages are no
		 * question */
		if (!rule_need_known(c, snap_get_str(g, "bus_id"), "the compute runtime's packages",
				     pkgs))
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(legacy_pkgs); k++)
			if (snap_get_str(pkgs, legacy_pkgs[k]))
				return; /* the -legacy1 packages drive it */
		for (size_t k = 0; k < ARRAY_SIZE(runtime_pkgs); k++) {
			const char *v = snap_get_str(pkgs, runtime_pkgs[k]);
			unsigned build, hotfix;
			char path[96];

			if (!intel_neo_build(v, &build, &hotfix) ||
			    !at_or_after(build, hotfix, fam->dropped_from))
				continue;
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, snap_get_str(g, "bus_id"),
				"the GPU at %s (8086:%04x) is %s, %s: Intel's compute runtime "
				"left it to its -legacy1 packages from release %s on, and %s %s "
				"is a regular one, so it lists no device for the GPU (no OpenCL "
				"platform for it in clinfo, no [level_zero:gpu] in sycl-ls, no "
				"GPU in OpenVINO)",
				snap_get_str(g, "bus_id") ?: "?", device, fam->products,
				fam->generation, fam->dropped_from, runtime_pkgs[k], v);
			if (!f)
				return;
			snprintf(path, sizeof(path), "hardware.gpus.%zu.device_id", i);
			finding_fact(f, path, snap_child(g, "device_id"));
			snprintf(path, sizeof(path), "runtime.level_zero.packages.%s",
				 runtime_pkgs[k]);
			finding_fact(f, path, snap_child(pkgs, runtime_pkgs[k]));
			finding_rule_fix(f);
			finding_rule_verify(f);
			return;
		}
	}
}
