// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.system-not-ready: cuInit answers CUDA_ERROR_SYSTEM_NOT_READY (802, "system not yet
 * initialized"). cuda.h: "the system is not yet ready to start any CUDA work … verify the
 * system configuration is in a valid state and all required driver daemons are actively
 * running". On an NVSwitch system (HGX/DGX boards: V100 SXM3, A100/H100/H200 SXM, B200) the
 * GPUs join the NVLink fabric only once nvidia-fabricmanager, of the loaded driver's exact
 * version, has configured the switches (NVIDIA Fabric Manager User Guide: "CUDA
 * initialization … can only begin after the GPUs complete their registration"); until then
 * NVML and nvidia-smi answer and every cuInit fails with 802. Public reports:
 * dstackai/dstack#2348 (Fabric Manager 535.183.01 under a newer 535 driver), cloudrift-ai/emmy#558
 * (none installed on 16 x V100 SXM3).
 */
#include <stdio.h>

#include "rules/rules-internal.h"
#include "shared/strbuf.h"

/* "8 x NVIDIA H100 80GB HBM3" from NVML's device names, or "" where it gave none. */
static void nvml_models(const struct snap_node *root, struct strbuf *out)
{
	const struct snap_node *devs = snap_get(root, "driver.nvml.devices");
	const char *first = NULL;
	size_t n = 0;
	bool same = true;

	for (size_t i = 0; i < snap_count(devs); i++) {
		const char *name = snap_get_str(snap_at(devs, i), "name");

		if (!name)
			continue;
		if (!first)
			first = name;
		else if (!streq(first, name))
			same = false;
		n++;
	}
	if (n == 0)
		return;
	if (same)
		strbuf_printf(out, " on %zu x %s", n, first);
	else
		strbuf_printf(out, " on %zu GPUs (%s, …)", n, first);
}

RULE_CHECK(check_system_not_ready)
{
	const struct snap_node *init = snap_get(root, "driver.cuda.init");
	const char *version = snap_get_str(root, "driver.nvidia.module_version");
	struct strbuf models = STRBUF_INIT;
	enum distro d = host_distro(root);
	char branch[16] = "";
	struct finding *f;

	if (!error_names(init, "(802)"))
		return;
	nvml_models(root, &models);
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, NULL,
		"cuInit answers CUDA_ERROR_SYSTEM_NOT_READY (802, \"system not yet "
		"initialized\")%s: the driver%s%s is loaded but no CUDA program can start. "
		"CUDA names the cause: a driver daemon the system needs is not running; on an "
		"NVSwitch system (HGX/DGX, SXM boards) that is nvidia-fabricmanager, which "
		"must run at the driver's exact version",
		strbuf_str(&models), version ? " " : "", version ?: "");
	finding_fact(f, "driver.cuda.init", init);
	if (version) {
		finding_fact(f, "driver.nvidia.module_version",
			     snap_get(root, "driver.nvidia.module_version"));
		sscanf(version, "%15[0-9]", branch);
	}
	if (snap_count(snap_get(root, "driver.nvml.devices")) > 0)
		finding_fact(f, "driver.nvml.devices.0.name",
			     snap_get(root, "driver.nvml.devices.0.name"));
	finding_fix(f, "systemctl status nvidia-fabricmanager   # NVSwitch systems: must be active "
		       "(running)");
	finding_fix(f, "journalctl -b -u nvidia-fabricmanager | grep -i 'version'   # \"driver "
		       "interface version … don't match with driver version …\": another version "
		       "than the driver");
	/* NVIDIA's CUDA repositories: nvidia-fabricmanager-<branch> (apt, version "<v>-1"),
	 * nvidia-fabric-manager (dnf); the Fabric Manager User Guide, "Installation". */
	if (version && branch[0] && (d == DISTRO_DEBIAN || d == DISTRO_UBUNTU))
		finding_fix(f,
			    "sudo apt install nvidia-fabricmanager-%s=%s-1   # the loaded driver's "
			    "exact version",
			    branch, version);
	else if (version && d == DISTRO_RHEL)
		finding_fix(
			f,
			"sudo dnf install nvidia-fabric-manager-%s   # the loaded driver's exact "
			"version",
			version);
	else
		finding_fix(
			f,
			"# install NVIDIA's Fabric Manager of the loaded driver's exact version%s%s "
			"(apt: nvidia-fabricmanager-<branch>; dnf: nvidia-fabric-manager)",
			version ? ", " : "", version ?: "");
	finding_rule_fix(f);
	finding_rule_verify(f);
	strbuf_done(&models);
}
