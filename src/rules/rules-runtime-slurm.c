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
#include "shared/macro.h"

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

/* The configuration directory Slurm reads, for a fix line. */
static const char *config_dir(const struct snap_node *root)
{
	return snap_get_str(root, "runtime.slurm.config_dir") ?: "/etc/slurm";
}

/* Is there a Slurm configuration whose gres.conf was read (or is known absent)? Nothing to
 * judge without Slurm; a configuration that could not be read is recorded as a skip. */
static bool gres_conf_read(struct rule_ctx *c, const struct snap_node *root)
{
	if (!snap_get(root, "runtime.slurm"))
		return false; /* no Slurm configuration on this machine */
	return rule_need(c, NULL, "Slurm's configuration directory",
			 snap_get(root, "runtime.slurm.config_dir")) &&
	       rule_need_known(c, NULL, "Slurm's gres.conf",
			       snap_get(root, "runtime.slurm.gres_conf"));
}

RULE_CHECK(check_slurm_nvml_autodetect_unbuilt)
{
	const struct snap_node *autodetect = snap_get(root, "runtime.slurm.autodetect");
	const struct snap_node *plugin = snap_get(root, "runtime.slurm.gpu_nvml_plugin");
	const struct snap_node *dir = snap_get(root, "runtime.slurm.plugin_dir");
	char files[256];
	bool has_plugin;
	int64_t configured = 0;
	struct finding *f;

	if (!gres_conf_read(c, root))
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
	if (snap_get_int(root, "runtime.slurm.node_gres_gpus", &configured) && configured > 0)
		/* slurm.conf says how many this node must register: the drain reason names it
		 * (_node_config_validate(), src/interfaces/gres.c) */
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"gres.conf sets AutoDetect=nvml, but Slurm's plugin directory %s "
			"has no gpu_nvml.so: this Slurm was built without NVML, so slurmd "
			"detects no GPU (older releases stop slurmd; later ones register "
			"none of the %lld GPU(s) slurm.conf's Gres=%s gives this node, and "
			"slurmctld drains it: \"gres/gpu count reported lower than "
			"configured (0 < %lld)\")",
			snap_str(dir), (long long)configured,
			snap_get_str(root, "runtime.slurm.node_gres"), (long long)configured);
	else
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "gres.conf sets AutoDetect=nvml, but Slurm's plugin directory %s "
				 "has no gpu_nvml.so: this Slurm was built without NVML, so slurmd "
				 "detects no GPU (older releases stop slurmd; later ones register "
				 "none, and the node drains as its GPU count is below slurm.conf's "
				 "Gres=)",
				 snap_str(dir));
	finding_fact(f, "runtime.slurm.autodetect", autodetect);
	finding_fact(f, "runtime.slurm.plugin_dir", dir);
	finding_fact(f, "runtime.slurm.gpu_nvml_plugin", plugin);
	if (configured > 0) {
		finding_fact(f, "runtime.slurm.node_gres_gpus",
			     snap_get(root, "runtime.slurm.node_gres_gpus"));
		finding_symptom(f,
				"Reason=gres/gpu count reported lower than configured (0 < %lld)",
				(long long)configured);
	}
	gpu_file_list(root, files, sizeof(files));
	if (files[0])
		finding_fix(f,
			    "# in %s/gres.conf: remove AutoDetect=nvml and name this node's GPU "
			    "device files instead (no NVML needed; no MIG): Name=gpu File=%s; then "
			    "sudo systemctl restart slurmd",
			    config_dir(root), files);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/*
 * runtime.slurm-autodetect-unknown: gres.conf's AutoDetect= names no detection mechanism
 * Slurm has. _handle_autodetect_flags() (src/interfaces/gres.c) looks for "full", "nvml",
 * "rsmi", "oneapi", "nrt" or "nvidia" in the value (as substrings, any case) and takes "off"
 * whole; anything else logs "error: unknown autodetect flag '…'" and leaves AutoDetect unset:
 * gpu/generic, which detects nothing. Without a File= line the GPUs of slurm.conf's Gres=
 * are a count with no device file: Slurm sets no CUDA/ROCR_VISIBLE_DEVICES ("The gres.conf
 * file must identify specific device files", common_gres_set_env(),
 * src/plugins/gres/common/gres_common.c) and confines no job to its GPUs.
 * SlinkyProject/slurm-operator#57: AutoDetect=amdgpu on MI300X nodes, and SchedMD's answer:
 * "not a valid value for AutoDetect". full (26.05), nvidia (24.11) and nrt (23.11) are newer
 * than some Slurm releases; no release knows a value that has none of the six.
 */
static bool autodetect_known(const char *v)
{
	static const char *const mechanisms[] = {
		"full", "nvml", "rsmi", "oneapi", "nrt", "nvidia"
	};

	for (size_t i = 0; i < ARRAY_SIZE(mechanisms); i++)
		if (strcasestr(v, mechanisms[i]))
			return true;
	return strcasecmp(v, "off") == 0;
}

/* The mechanism for this node's GPUs, for the fix: "" where they are of more than one of the
 * three vendors, or none (a server's BMC display, e.g. ASPEED's, is none of them). */
static const char *autodetect_for_gpus(const struct snap_node *root)
{
	size_t amd = gpus_count(root, gpu_is_amd), nvidia = gpus_count(root, gpu_is_nvidia),
	       intel = gpus_count(root, gpu_vendor_intel);

	if (amd && !nvidia && !intel)
		return "rsmi";
	if (nvidia && !amd && !intel)
		return "nvml";
	if (intel && !amd && !nvidia)
		return "oneapi";
	return "";
}

RULE_CHECK(check_slurm_autodetect_unknown)
{
	const struct snap_node *autodetect = snap_get(root, "runtime.slurm.autodetect");
	const struct snap_node *gres = snap_get(root, "runtime.slurm.gres");
	const struct snap_node *with_file = NULL;
	const char *v = snap_str(autodetect), *want;
	int64_t configured = 0;
	char count[96] = "";
	struct finding *f;

	if (!gres_conf_read(c, root) || !v || autodetect_known(v))
		return;
	for (size_t i = 0; i < snap_count(gres) && !with_file; i++) {
		const struct snap_node *e = snap_at(gres, i);
		const char *name = snap_get_str(e, "name");

		if (name && strcasecmp(name, "gpu") == 0 && snap_get(e, "files"))
			with_file = e;
	}
	if (snap_get_int(root, "runtime.slurm.node_gres_gpus", &configured) && configured > 0)
		snprintf(count, sizeof(count), " (slurm.conf's Gres=%s)",
			 snap_get_str(root, "runtime.slurm.node_gres") ?: "");
	if (with_file)
		/* File= names the devices: they are known without detection */
		f = rule_finding(
			c, GPUENV_SEVERITY_WARNING, NULL,
			"gres.conf sets AutoDetect=%s, which is no detection mechanism "
			"Slurm has: slurmd logs \"error: unknown autodetect flag '%s'\" and "
			"detects nothing; the GPUs are those File= names",
			v, v);
	else
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, NULL,
			"gres.conf sets AutoDetect=%s, which is no detection mechanism "
			"Slurm has: slurmd logs \"error: unknown autodetect flag '%s'\" and "
			"detects no GPU; with no File= line this node's GPUs%s are a count "
			"without device files, so Slurm sets no CUDA_VISIBLE_DEVICES or "
			"ROCR_VISIBLE_DEVICES and confines no job to its GPUs",
			v, v, count);
	finding_fact(f, "runtime.slurm.autodetect", autodetect);
	if (with_file)
		finding_fact(f, "runtime.slurm.gres.line", snap_get(with_file, "line"));
	else if (configured > 0)
		finding_fact(f, "runtime.slurm.node_gres_gpus",
			     snap_get(root, "runtime.slurm.node_gres_gpus"));
	finding_symptom(f, "slurmd: error: unknown autodetect flag '%s'", v);
	want = autodetect_for_gpus(root);
	if (want[0])
		finding_fix(f,
			    "# in %s/gres.conf: AutoDetect=%s (this node's GPUs are all of the "
			    "vendor it detects; Slurm must be built with its library); then sudo "
			    "systemctl restart slurmd",
			    config_dir(root), want);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/*
 * runtime.slurm-gres-file-missing: a gres.conf line of this node names a device file (File=)
 * the node does not have. slurmd stat()s every File= path, waits 20 s for it ("error: Waiting
 * for gres.conf file /dev/nvidia0") and stops ("fatal: can't stat gres.conf file /dev/nvidia0:
 * No such file or directory"; _my_stat(), src/interfaces/gres.c). fgci-org/ansible-role-cuda#3
 * and #2: the driver loaded at boot without making /dev/nvidia0 (nvidia-smi made it), so
 * slurmd stopped until something created it first; BiBiServ/bibigrid#705 (fixed by #710,
 * installing the driver): a GPU node with no NVIDIA driver at all.
 */
RULE_CHECK(check_slurm_gres_file_missing)
{
	const struct snap_node *gres = snap_get(root, "runtime.slurm.gres");
	const struct snap_node *gpus = snap_get(root, "driver.device_nodes.nvidia_gpus");
	const struct snap_node *first = NULL, *line = NULL, *drv;
	const char *ver;
	char absent[256] = "", files[256];
	size_t used = 0, n_absent = 0;
	struct finding *f;

	if (!gres_conf_read(c, root))
		return;
	for (size_t i = 0; i < snap_count(gres); i++) {
		const struct snap_node *entry = snap_at(gres, i);
		const struct snap_node *miss = snap_get(entry, "files_absent");

		if (!snap_get(entry, "files"))
			continue; /* a line without File= names no device */
		if (!rule_need(c, NULL, "whether gres.conf's File= device files exist", miss))
			return;
		for (size_t j = 0; j < snap_count(miss); j++) {
			const char *name = snap_str(snap_at(miss, j));
			int w;

			if (!name)
				continue;
			if (!n_absent++) {
				first = snap_at(miss, j);
				line = snap_get(entry, "line");
			}
			w = snprintf(absent + used, sizeof(absent) - used, "%s%s", used ? ", " : "",
				     name);
			if (w > 0 && (size_t)w < sizeof(absent) - used)
				used += (size_t)w;
		}
	}
	if (!n_absent)
		return;
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, NULL,
		"gres.conf names %s, which this node does not have: slurmd waits 20 s for "
		"each File= and stops (\"fatal: can't stat gres.conf file %s: No such file "
		"or directory\"), so the node runs no job",
		absent, snap_str(first));
	finding_fact(f, "runtime.slurm.gres.line", line);
	finding_evidence(f, "runtime.slurm.gres.files_absent", snap_str(line) ?: "gres.conf", "%s",
			 absent);
	finding_evidence(f, "driver.device_nodes.nvidia_gpus", "/dev", "%zu node(s)",
			 snap_count(gpus));
	finding_symptom(f, "slurmd: fatal: can't stat gres.conf file %s: No such file or directory",
			snap_str(first));
	gpu_file_list(root, files, sizeof(files));
	if (snap_count(gpus) > 0 && files[0])
		/* the node has GPU device files, and gres.conf names others: more GPUs, or
		 * other numbers, than this node has */
		finding_fix(f,
			    "# in %s/gres.conf: name the device files this node has: Name=gpu "
			    "File=%s (and Gres=gpu:%zu on its NodeName line in slurm.conf); then "
			    "sudo systemctl restart slurmd",
			    config_dir(root), files, snap_count(gpus));
	else if (snap_count(gpus) == 0 && nvidia_driver(root, &ver, &drv) != DRIVER_LOADED)
		/* no driver loaded: nvidia-modprobe may not even be installed; the driver's
		 * findings say what to do */
		finding_fix(f, "# load the NVIDIA driver first (the driver layer's findings): it "
			       "makes /dev/nvidia0 …; then sudo systemctl restart slurmd");
	else if (snap_count(gpus) == 0)
		/* the driver is loaded, its device files were never made: they must exist before
		 * slurmd starts */
		finding_fix(f,
			    "sudo nvidia-modprobe -c 0 -u   # creates /dev/nvidia0 (-c N for each "
			    "GPU) and /dev/nvidia-uvm; at boot, before slurmd: a drop-in with "
			    "ExecStartPre=/usr/bin/nvidia-modprobe -c 0 -u (sudo systemctl edit "
			    "slurmd)");
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/*
 * runtime.slurm-gres-duplicate-records: two or more gres.conf lines of this node for one GRES
 * name, none with File= or Type=: slurmd cannot tell them apart and stops ("fatal: gres.conf
 * duplicate records for gpu"; _validate_gres_conf() / _foreach_gres_conf(),
 * src/interfaces/gres.c, src/common/gres.c before 23.02). ComputeCanada/puppet-magic_castle#27:
 * a template wrote one "Name=gpu" per GPU under AutoDetect=nvml on a two-GPU node, and the
 * maintainer: AutoDetect=nvml is sufficient, remove the Name=gpu lines.
 */
RULE_CHECK(check_slurm_gres_duplicate_records)
{
	const struct snap_node *gres = snap_get(root, "runtime.slurm.gres");
	const struct snap_node *autodetect = snap_get(root, "runtime.slurm.autodetect");
	size_t n = snap_count(gres);

	if (!gres_conf_read(c, root))
		return;
	for (size_t i = 0; i < n; i++) {
		const char *name = snap_get_str(snap_at(gres, i), "name");
		const struct snap_node *later = NULL;
		size_t records = 0;
		bool distinct = false, seen_before = false;
		struct finding *f;

		if (!name)
			continue;
		for (size_t j = 0; j < n; j++) {
			const struct snap_node *e = snap_at(gres, j);
			const char *other = snap_get_str(e, "name");

			if (!other || strcasecmp(other, name) != 0)
				continue;
			seen_before |= j < i;
			records++;
			if (j > i && !later)
				later = e;
			distinct |= snap_get(e, "files") || snap_get(e, "type");
		}
		if (seen_before || records < 2 || distinct)
			continue; /* judged at its first line; told apart by File=/Type= */
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "gres.conf has %zu lines Name=%s with neither File= nor Type=: "
				 "slurmd cannot tell them apart and stops (\"fatal: gres.conf "
				 "duplicate records for %s\")",
				 records, name, name);
		finding_fact(f, "runtime.slurm.gres.line", snap_get(snap_at(gres, i), "line"));
		finding_fact(f, "runtime.slurm.gres.line", snap_get(later, "line"));
		finding_symptom(f, "slurmd: fatal: gres.conf duplicate records for %s", name);
		if (snap_str(autodetect) && strcasecmp(snap_str(autodetect), "off") != 0)
			finding_fix(f,
				    "# in %s/gres.conf: remove the Name=%s lines; AutoDetect=%s "
				    "finds the devices; then sudo systemctl restart slurmd",
				    config_dir(root), name, snap_str(autodetect));
		else
			finding_fix(f,
				    "# in %s/gres.conf: one line per device with its File= "
				    "(Name=%s File=/dev/nvidia0 …), or one line Name=%s Count=%zu; "
				    "then sudo systemctl restart slurmd",
				    config_dir(root), name, name, records);
		finding_rule_verify(f);
	}
}
