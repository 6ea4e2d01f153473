// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.slurm-nvml-autodetect-unbuilt: gres.conf asks slurmd to find the GPUs with NVML
 * (AutoDetect=nvml) on a Slurm built without NVML. Slurm decides it at build time: where
 * configure found no nvml.h, HAVE_NVML is unset and the gpu/nvml plugin (gpu_nvml.so) is not
 * built; slurmd's _get_gpu_type() (src/interfaces/gpu.c, src/common/gpu.c before 23.02) then
 * logs "We were configured to autodetect nvml functionality, but we weren't able to find that
 * lib when Slurm was configured." and detects no GPU. NVIDIA/deepops#1214: slurmd failed to
 * start on that message; SlinkyProject/containers#14: the node registered 0 GPUs and drained
 * ("gres/gpu count reported lower than configured (0 < 4)"); openhpc/ohpc#1910: a package
 * built without NVML lists gpu_generic.so and gres_gpu.so but no gpu_nvml.so, and the
 * maintainer: gpu_nvml.so "requires NVML being present in the build system".
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/rules-internal.h"

/* "/dev/nvidia[0-3]" where this node's GPU device files (driver.device_nodes.nvidia_gpus[]:
 * their names) are nvidia0 … nvidia3 in a row, else a comma list of them; "" when there are
 * none. */
static void gpu_file_list(const struct snap_node *root, char *buf, size_t size)
{
	const struct snap_node *gpus = snap_get(root, "driver.device_nodes.nvidia_gpus");
	size_t n = snap_count(gpus), used = 0;
	bool in_row = n > 1;

	buf[0] = '\0';
	for (size_t i = 0; i < n && in_row; i++) {
		const char *name = snap_str(snap_at(gpus, i));
		char want[32];

		snprintf(want, sizeof(want), "nvidia%zu", i);
		in_row = name && streq(name, want);
	}
	if (in_row) {
		snprintf(buf, size, "/dev/nvidia[0-%zu]", n - 1);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = snap_str(snap_at(gpus, i));
		int w;

		if (!name)
			continue;
		w = snprintf(buf + used, size - used, "%s/dev/%s", used ? "," : "", name);
		if (w < 0 || (size_t)w >= size - used) {
			buf[used] = '\0';
			return;
		}
		used += (size_t)w;
	}
}

RULE_CHECK(check_slurm_nvml_autodetect_unbuilt)
{
	const struct snap_node *autodetect = snap_get(root, "runtime.slurm.autodetect");
	const struct snap_node *plugin = snap_get(root, "runtime.slurm.gpu_nvml_plugin");
	const struct snap_node *dir = snap_get(root, "runtime.slurm.plugin_dir");
	char files[256];
	bool has_plugin;
	struct finding *f;

	if (!snap_get(root, "runtime.slurm"))
		return; /* no Slurm configuration on this machine */
	if (!rule_need(c, NULL, "Slurm's configuration directory",
		       snap_get(root, "runtime.slurm.config_dir")) ||
	    !rule_need_known(c, NULL, "Slurm's gres.conf",
			     snap_get(root, "runtime.slurm.gres_conf")))
		return;
	if (!snap_str(autodetect) || strcasecmp(snap_str(autodetect), "nvml") != 0)
		return;
	if (!snap_present(dir)) {
		rule_need(c, NULL, "Slurm's plugin directory (the one holding gres_gpu.so)", dir);
		return;
	}
	if (!rule_need(c, NULL, "whether Slurm's plugin directory holds gpu_nvml.so", plugin) ||
	    !snap_bool(plugin, &has_plugin) || has_plugin)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "gres.conf sets AutoDetect=nvml, but Slurm's plugin directory %s has no "
			 "gpu_nvml.so: this Slurm was built without NVML, so slurmd detects no "
			 "GPU (older releases stop slurmd; later ones register none, and the node "
			 "drains as its GPU count is below slurm.conf's Gres=)",
			 snap_str(dir));
	finding_fact(f, "runtime.slurm.autodetect", autodetect);
	finding_fact(f, "runtime.slurm.plugin_dir", dir);
	finding_fact(f, "runtime.slurm.gpu_nvml_plugin", plugin);
	gpu_file_list(root, files, sizeof(files));
	if (files[0])
		finding_fix(f,
			    "# in %s/gres.conf: remove AutoDetect=nvml and name this node's GPU "
			    "device files instead (no NVML needed; no MIG): Name=gpu File=%s; then "
			    "sudo systemctl restart slurmd",
			    snap_get_str(root, "runtime.slurm.config_dir") ?: "/etc/slurm", files);
	finding_rule_fix(f);
	finding_rule_verify(f);
}
