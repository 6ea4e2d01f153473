// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.branch-predates-gpu: a driver branch older than a GPU does not drive it (the other
 * direction of driver.branch-drops-gpu). The first branch for a compute capability is derived
 * from the knowledge base by coverage_first_branch_for_cc() (src/facts/coverage.h,
 * docs/compatibility.md (e)): the branch of the first release of the first CUDA toolkit that
 * targets it. Judges live machines and the targets of `gpuenv check --target/--host`.
 */
#include <stdio.h>
#include <string.h>

#include "facts/coverage.h"
#include "rules/rules-internal.h"
#include "shared/parse.h"

RULE_CHECK(check_branch_predates_gpu)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *fact;
	const char *ver;
	struct version dv;

	if (gpus_count(root, gpu_is_nvidia) == 0)
		return;
	if (!rule_nvidia_driver(c, root, "the NVIDIA driver version", &ver, &fact))
		return;
	if (version_parse(ver, &dv) < 0) {
		rule_skip(c, NULL, "driver version '%s' is not a version", ver);
		return;
	}
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i), *ccf = NULL;
		const char *cuda = NULL, *bus = snap_get_str(g, "bus_id") ?: "?";
		unsigned ma, mi, first;
		bool unconf = false;
		struct finding *f;
		char name[96];

		if (!gpu_is_nvidia(g))
			continue;
		if (!gpu_cc(root, g, &ma, &mi, &ccf)) {
			rule_skip(c, bus, "GPU %s: its compute capability is not known", bus);
			continue;
		}
		if (coverage_first_branch_for_cc(ma, mi, &first, &cuda, &unconf) < 0 ||
		    dv.part[0] >= first)
			continue;
		if (gpu_name(g, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "the GPU");
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, bus,
				 "%s at %s (compute capability %u.%u) is newer than driver %s: the "
				 "first CUDA toolkit that targets %u.%u is %s, whose first release "
				 "needs the R%u branch; R%u does not drive this GPU%s",
				 name, bus, ma, mi, ver, ma, mi, cuda, first, dv.part[0],
				 unconf ? " (a knowledge-base row it rests on is unconfirmed)"
					: "");
		finding_fact(f, "driver.nvidia.module_version", fact);
		if (ccf)
			finding_fact(f, "driver.nvml.devices[].compute_capability", ccf);
		finding_evidence(f, "facts.cuda_arch_support.sm_targets", "cuda_arch_support.tsv",
				 "CUDA %s is the first toolkit listing sm_%u%u", cuda, ma, mi);
		finding_fix(f, "# install driver branch R%u or newer (gpuenv facts cuda %s)", first,
			    cuda);
		finding_verify(
			f, "nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv");
	}
}
