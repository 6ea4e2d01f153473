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
 * (none installed on 16 x V100 SXM3). The NVSwitches seen (PCI, nvidia-nvswitch procfs) are
 * named; a machine that surely has none is never told to install Fabric Manager.
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

/* The NVSwitches this machine shows: NVIDIA's class 0x0680 PCI devices (hardware.nvswitches,
 * probe-pci.c) or the nvidia-nvswitch driver's procfs entries, whichever counts more. */
static size_t nvswitch_count(const struct snap_node *root, const char **ret_first)
{
	const struct snap_node *pci = snap_get(root, "hardware.nvswitches");
	const struct snap_node *proc = snap_get(root, "driver.nvidia.nvswitch_devices");

	*ret_first = snap_count(pci) ? snap_get_str(snap_at(pci, 0), "bus_id")
				     : snap_str(snap_at(proc, 0));
	return snap_count(pci) > snap_count(proc) ? snap_count(pci) : snap_count(proc);
}

/* True when this machine surely has no NVSwitch: its PCI bus was read and shows none, the
 * nvidia-nvswitch driver lists none, and no GPU is of Blackwell or later (compute capability
 * >= 10), whose NVLink 5 switches are not on the host's PCI bus. */
static bool surely_no_nvswitch(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const char *first;

	if (!snap_present(snap_get(root, "hardware.pci_devices")) || nvswitch_count(root, &first) ||
	    fact_is_failure(snap_state(snap_get(root, "driver.nvidia.nvswitch_devices"))))
		return false;
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct facts_gpu *g;

		if (!gpu_is_nvidia(snap_at(gpus, i)))
			continue;
		if (gpu_facts(snap_at(gpus, i), &g) < 0 || g->cc_major < 0 || g->cc_major >= 10)
			return false;
	}
	return gpus_count(root, gpu_is_nvidia) > 0;
}

/* 802 on a machine with no NVSwitch: Fabric Manager is not what it lacks. */
static void not_ready_without_nvswitch(struct rule_ctx *c, const struct snap_node *root,
				       const char *models, const char *version)
{
	const struct snap_node *init = snap_get(root, "driver.cuda.init");
	struct finding *f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, NULL,
		"cuInit answers CUDA_ERROR_SYSTEM_NOT_READY (802, \"system not yet "
		"initialized\")%s: the driver%s%s is loaded but no CUDA program can start. CUDA "
		"names the cause: a driver daemon the system needs is not running. This machine "
		"has no NVSwitch (none on its PCI bus, none under /proc/driver/nvidia-nvswitch), so "
		"that daemon is not nvidia-fabricmanager",
		models, version ? " " : "", version ?: "");

	finding_fact(f, "driver.cuda.init", init);
	finding_fact(f, "hardware.pci_devices", snap_get(root, "hardware.pci_devices"));
	finding_fix(f, "journalctl -b | grep -i -e nvrm -e nvidia   # the daemon or state the "
		       "driver waits for");
	finding_rule_verify(f);
}

RULE_CHECK(check_system_not_ready)
{
	const struct snap_node *init = snap_get(root, "driver.cuda.init");
	const char *version = snap_get_str(root, "driver.nvidia.module_version");
	struct strbuf models = STRBUF_INIT, switches = STRBUF_INIT;
	const char *first_switch = NULL;
	enum distro d = host_distro(root);
	size_t n_switches;
	char branch[16] = "";
	struct finding *f;

	if (!error_names(init, "(802)"))
		return;
	nvml_models(root, &models);
	if (surely_no_nvswitch(root)) {
		not_ready_without_nvswitch(c, root, strbuf_str(&models), version);
		strbuf_done(&models);
		return;
	}
	n_switches = nvswitch_count(root, &first_switch);
	if (n_switches)
		strbuf_printf(&switches, "; this machine has %zu NVSwitch(es) (%s%s)", n_switches,
			      first_switch ?: "?", n_switches > 1 ? ", …" : "");
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, NULL,
		"cuInit answers CUDA_ERROR_SYSTEM_NOT_READY (802, \"system not yet "
		"initialized\")%s: the driver%s%s is loaded but no CUDA program can start. "
		"CUDA names the cause: a driver daemon the system needs is not running; on an "
		"NVSwitch system (HGX/DGX, SXM boards) that is nvidia-fabricmanager, which "
		"must run at the driver's exact version%s",
		strbuf_str(&models), version ? " " : "", version ?: "", strbuf_str(&switches));
	finding_fact(f, "driver.cuda.init", init);
	if (n_switches)
		finding_evidence(f, "hardware.nvswitches", "/sys/bus/pci/devices",
				 "%zu NVSwitch(es), first %s", n_switches, first_switch ?: "?");
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
	strbuf_done(&switches);
}
