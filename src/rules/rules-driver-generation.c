// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.branch-predates-gpu: a driver branch older than a GPU does not drive it (the other
 * direction of driver.branch-drops-gpu). The first branch for a compute capability is derived
 * from the knowledge base by coverage_first_branch_for_cc() (src/facts/coverage.h,
 * docs/compatibility.md (e)): the branch of the first release of the first CUDA toolkit that
 * targets it. Judges live machines and the targets of `gpuenv check --target/--host`. With no
 * module loaded, the release the kernel log shows refusing the GPU is judged (nv.c's "not
 * supported by the NVIDIA <version> driver release": the module then fails to load).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "facts/coverage.h"
#include "rules/rules-internal.h"
#include "shared/parse.h"

/* The kernel log's refusal of the GPU at bus ("not supported by the NVIDIA <version> driver
 * release"), the latest such entry; NULL when the log shows none. */
static const struct snap_node *refusal_for(const struct snap_node *root, const char *bus)
{
	const struct snap_node *arr = snap_get(root, "driver.kernel_log.unsupported_gpus");
	const struct snap_node *found = NULL;

	for (size_t i = 0; bus && i < snap_count(arr); i++) {
		const char *b = snap_get_str(snap_at(arr, i), "bus_id");

		if (b && strcasecmp(b, bus) == 0)
			found = snap_at(arr, i);
	}
	return found;
}

RULE_CHECK(check_branch_predates_gpu)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *loaded_fact = NULL;
	const char *loaded = NULL;
	enum driver_state st;

	/* A GPU whose ids or the bus itself could not be read may be the NVIDIA GPU refused:
	 * say so rather than pass (the sweep of unreadable paths found this silent). */
	if (snap_present(snap_get(root, "hardware.pci_devices")))
		rule_need_gpu_ids(c, root);
	if (gpus_count(root, gpu_is_nvidia) == 0) {
		rule_need_known(c, NULL, "the PCI devices (which GPUs there are)",
				snap_get(root, "hardware.pci_devices"));
		return;
	}
	/* The loaded module's version; with none loaded, the release the kernel log shows
	 * refusing the GPU (the module then fails to load: "None of the NVIDIA devices were
	 * initialized", so no /sys/module/nvidia tells the version). */
	st = nvidia_driver(root, &loaded, &loaded_fact);
	if (st == DRIVER_UNKNOWN) {
		rule_need(c, NULL, "the NVIDIA driver version", loaded_fact);
		return;
	}
	if (st == DRIVER_ELSEWHERE) {
		rule_skip_elsewhere(c, "the NVIDIA driver version", driver_lives_elsewhere(root));
		return;
	}
	/* No module: whether a release refused the GPU is the log's to say; none at all is no
	 * refusal, an unreadable one cannot tell. A refusal read is itself a log read (a pasted
	 * one has no file to name as its source). */
	if (st == DRIVER_NONE &&
	    !snap_present(snap_get(root, "driver.kernel_log.unsupported_gpus")) &&
	    !rule_need_known(c, NULL, "the kernel log (a release refusing the GPU)",
			     snap_get(root, "driver.kernel_log.source")))
		return;
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i), *ccf = NULL, *refused, *fact;
		const struct facts_gpu *fg;
		const char *cuda = NULL, *bus = snap_get_str(g, "bus_id") ?: "?", *ver, *disk;
		unsigned ma, mi, first;
		bool unconf = false;
		struct version dv;
		struct finding *f;
		char name[96];

		if (!gpu_is_nvidia(g))
			continue;
		refused = refusal_for(root, snap_get_str(g, "bus_id"));
		ver = loaded;
		fact = loaded_fact;
		if (st == DRIVER_NONE) {
			if (!refused)
				continue; /* no driver at all: driver.module-not-loaded's case */
			ver = snap_get_str(refused, "driver_version");
			fact = snap_child(refused, "driver_version");
			/* a refusal by another release than the nvidia.ko now on disk is an old
			 * one: the driver was changed since, as driver.branch-drops-gpu says */
			disk = snap_get_str(root, "driver.nvidia.module_file.version");
			if (ver && disk && !streq(disk, ver)) {
				rule_skip(c, bus,
					  "the kernel log shows %s refusing the GPU, but the "
					  "nvidia.ko on disk is %s: what that release does with it "
					  "is not in the log",
					  ver, disk);
				continue;
			}
		}
		if (!ver || version_parse(ver, &dv) < 0) {
			rule_skip(c, bus, "driver version '%s' is not a version", ver ?: "?");
			continue;
		}
		if (!gpu_cc(root, g, &ma, &mi, &ccf)) {
			rule_skip(c, bus, "GPU %s: its compute capability is not known", bus);
			continue;
		}
		if (coverage_first_branch_for_cc(ma, mi, &first, &cuda, &unconf) < 0 ||
		    dv.part[0] >= first)
			continue;
		if (gpu_name(g, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "the GPU");
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, bus,
			"%s at %s (compute capability %u.%u) is newer than driver %s%s: the "
			"first CUDA toolkit that targets %u.%u is %s, whose first release "
			"needs the R%u branch; R%u does not drive this GPU%s",
			name, bus, ma, mi, ver,
			st == DRIVER_NONE ? ", which refused it and did not load" : "", ma, mi,
			cuda, first, dv.part[0],
			unconf ? " (a knowledge-base row it rests on is unconfirmed)" : "");
		finding_fact(f,
			     st == DRIVER_NONE
				     ? "driver.kernel_log.unsupported_gpus[].driver_version"
				     : driver_fact_key(root, fact),
			     fact);
		if (refused && streq(snap_get_str(refused, "driver_version") ?: "", ver))
			finding_evidence(f, "driver.kernel_log.unsupported_gpus[]",
					 snap_source(fact),
					 "NVRM: The NVIDIA GPU %s (PCI ID: %s) installed in this "
					 "system is not supported by the NVIDIA %s driver release",
					 bus, snap_get_str(refused, "pci_id") ?: "?", ver);
		if (ccf)
			finding_fact(f, "driver.nvml.devices[].compute_capability", ccf);
		else if (gpu_facts(g, &fg) == 0) /* the GPU's PCI id in the knowledge base */
			finding_evidence(f, "facts.gpus.compute_capability", fg->source,
					 "%s: compute capability %u.%u", fg->product, ma, mi);
		finding_evidence(f, "facts.cuda_arch_support.sm_targets", "cuda_arch_support.tsv",
				 "CUDA %s is the first toolkit listing sm_%u%u", cuda, ma, mi);
		finding_fix(f, "# install driver branch R%u or newer (gpuenv facts cuda %s)", first,
			    cuda);
		finding_verify(
			f, "nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv");
	}
}
