// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Driver-layer rules over the keys probe-nvidia-driver.c writes (driver.kernel_modules.*
 * from /proc/modules, driver.nvidia.* from /sys/module/nvidia/version and
 * /proc/driver/nvidia/version, the module file and its signer under /lib/modules/<release>,
 * driver.device_nodes.* from /dev, driver.secure_boot.enabled from the SecureBoot EFI
 * variable) and the knowledge base's driver-branch lifecycle (facts/driver_branches.tsv).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"

static const char *gpu_bus(const struct snap_node *gpu)
{
	const char *b = snap_get_str(gpu, "bus_id");

	return b ? b : "unknown";
}

static bool bound_to(const struct snap_node *gpu, const char *driver)
{
	const char *d = snap_get_str(gpu, "driver");

	return d && streq(d, driver);
}

static bool any_nvidia_bound_to(const struct snap_node *root, const char *driver)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_is_nvidia(snap_at(gpus, i)) && bound_to(snap_at(gpus, i), driver))
			return true;
	return false;
}

/* Evidence: the NVIDIA GPUs' ids and bound drivers. */
static void nvidia_gpus_evidence(struct finding *f, const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		char name[64];

		if (!gpu_is_nvidia(g))
			continue;
		snprintf(name, sizeof(name), "hardware.gpus.%zu.device_id", i);
		finding_fact(f, name, snap_child(g, "device_id"));
		snprintf(name, sizeof(name), "hardware.gpus.%zu.driver", i);
		finding_fact(f, name, snap_child(g, "driver"));
	}
}

static void driver_evidence(struct finding *f, const struct snap_node *root)
{
	finding_fact(f, "driver.nvidia.module_version", snap_get(root, "driver.nvidia.module_version"));
	finding_fact(f, "driver.kernel_modules.nvidia", snap_get(root, "driver.kernel_modules.nvidia"));
}

RULE_CHECK(check_module_not_loaded)
{
	const struct snap_node *ms = snap_get(root, "driver.kernel_modules.modules_supported");
	const struct snap_node *fact;
	const char *ver;
	struct finding *f;
	bool modules = true;
	size_t n = gpus_count(root, gpu_is_nvidia);

	if (n == 0)
		return;
	switch (nvidia_driver(root, &ver, &fact)) {
	case DRIVER_LOADED:
		return;
	case DRIVER_UNKNOWN:
		rule_need(c, NULL, "the NVIDIA driver version", fact);
		return;
	case DRIVER_NONE:
		break;
	}
	/* nouveau holding the GPU is the more precise finding (driver.nouveau-bound). */
	if (any_nvidia_bound_to(root, "nouveau"))
		return;
	snap_bool(ms, &modules);
	if (!modules)
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "%zu NVIDIA GPU(s) but no nvidia driver: this kernel has no "
				 "loadable-module support (no /proc/modules), so nvidia.ko cannot be "
				 "loaded into it",
				 n);
	else
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "%zu NVIDIA GPU(s) but the nvidia kernel module is not loaded", n);
	nvidia_gpus_evidence(f, root);
	driver_evidence(f, root);
	finding_fact(f, "driver.kernel_modules.modules_supported", ms);
	finding_fact(f, "driver.nvidia.module_file.path",
		     snap_get(root, "driver.nvidia.module_file.path"));
	if (!modules)
		finding_fix(f, "# boot a kernel built with CONFIG_MODULES=y (the distribution's "
			       "kernel), or one with the NVIDIA driver built in");
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_secure_boot_unsigned)
{
	const struct snap_node *sb = snap_get(root, "driver.secure_boot.enabled");
	const struct snap_node *path = snap_get(root, "driver.nvidia.module_file.path");
	const struct snap_node *signer = snap_get(root, "driver.nvidia.module_file.signer");
	const struct snap_node *fact;
	const char *ver;
	struct finding *f;
	bool on = false;

	if (!snap_bool(sb, &on) || !on || !snap_present(path))
		return;
	if (nvidia_driver(root, &ver, &fact) != DRIVER_NONE)
		return; /* loaded: the kernel accepted it; unknown: module-not-loaded says so */
	if (!rule_need_known(c, NULL, "driver.nvidia.module_file.signer", signer))
		return;
	if (snap_present(signer))
		return; /* signed: whether its key is enrolled needs the MOK list (phase 2) */
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "Secure Boot is on and %s is not signed: the kernel will refuse to load it",
			 snap_str(path));
	finding_fact(f, "driver.secure_boot.enabled", sb);
	finding_fact(f, "driver.nvidia.module_file.path", path);
	finding_fact(f, "driver.nvidia.module_file.signer", signer);
	driver_evidence(f, root);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_module_missing_for_kernel)
{
	const struct snap_node *ms = snap_get(root, "driver.kernel_modules.modules_supported");
	const struct snap_node *path = snap_get(root, "driver.nvidia.module_file.path");
	const struct snap_node *fact;
	const char *ver, *release = snap_get_str(root, "host.kernel_release");
	struct finding *f;
	bool modules = false;

	if (gpus_count(root, gpu_is_nvidia) == 0)
		return;
	if (nvidia_driver(root, &ver, &fact) != DRIVER_NONE)
		return;
	if (!snap_bool(ms, &modules) || !modules)
		return; /* no module support: driver.module-not-loaded says so */
	if (snap_state(path) != FACT_ABSENT)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "no nvidia.ko for the running kernel %s: modprobe nvidia fails with "
			 "\"Module nvidia not found in directory /lib/modules/%s\"",
			 release, release);
	finding_fact(f, "host.kernel_release", snap_get(root, "host.kernel_release"));
	finding_fact(f, "driver.nvidia.module_file.path", path);
	driver_evidence(f, root);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_nouveau_bound)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		bool bl = snap_get_bool_default(root, "driver.nouveau_blacklisted.blacklist", false);
		struct finding *f;
		char name[64];

		if (!gpu_is_nvidia(g) || !bound_to(g, "nouveau"))
			continue;
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, gpu_bus(g),
				 "NVIDIA GPU %s is driven by nouveau, so the NVIDIA driver cannot "
				 "bind it%s",
				 gpu_bus(g),
				 bl ? " (nouveau is blacklisted in modprobe.d, but not in the "
				      "initramfs the kernel booted with)" : "");
		snprintf(name, sizeof(name), "hardware.gpus.%zu.driver", i);
		finding_fact(f, name, snap_child(g, "driver"));
		finding_fact(f, "driver.kernel_modules.nouveau",
			     snap_get(root, "driver.kernel_modules.nouveau"));
		finding_fact(f, "driver.nouveau_blacklisted.blacklist",
			     snap_get(root, "driver.nouveau_blacklisted.blacklist"));
		finding_fact(f, "driver.nouveau_blacklisted.modeset0",
			     snap_get(root, "driver.nouveau_blacklisted.modeset0"));
		if (bl)
			finding_fix(f, "sudo update-initramfs -u && sudo reboot   # dracut --force "
				       "on Fedora/RHEL");
		else
			finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

RULE_CHECK(check_device_nodes_missing)
{
	const struct snap_node *ctl = snap_get(root, "driver.device_nodes.nvidiactl");
	const struct snap_node *uvm = snap_get(root, "driver.device_nodes.nvidia_uvm");
	const struct snap_node *gpus = snap_get(root, "driver.device_nodes.nvidia_gpus");
	const struct snap_node *fact;
	const char *ver;
	char missing[128] = "";
	struct finding *f;

	if (nvidia_driver(root, &ver, &fact) != DRIVER_LOADED)
		return;
	/* In a container missing nodes mean none were passed in: container.no-gpu-devices. */
	if (in_container(root))
		return;
	if (!snap_present(ctl))
		strcat(missing, " /dev/nvidiactl");
	if (snap_count(gpus) == 0)
		strcat(missing, " /dev/nvidia[0-9]*");
	if (!snap_present(uvm))
		strcat(missing, " /dev/nvidia-uvm");
	if (!missing[0])
		return;
	/* nvidia-modprobe (setuid root) creates them on first use where it is installed;
	 * whether it is needs the user-space probe (phase 2), so this stays a warning. */
	f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
			 "nvidia %s is loaded but%s %s missing: CUDA fails unless the setuid "
			 "nvidia-modprobe creates them on first use",
			 ver, missing, strchr(missing + 1, ' ') ? "are" : "is");
	finding_fact(f, "driver.nvidia.module_version", fact);
	finding_fact(f, "driver.device_nodes.nvidiactl", ctl);
	finding_evidence(f, "driver.device_nodes.nvidia_gpus", "/dev", "%zu node(s)", snap_count(gpus));
	finding_fact(f, "driver.device_nodes.nvidia_uvm", uvm);
	finding_fact(f, "driver.kernel_modules.nvidia_uvm",
		     snap_get(root, "driver.kernel_modules.nvidia_uvm"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* "7.5" → 75; false when NULL or malformed. */
static bool cc_num(const char *s, unsigned *ret)
{
	unsigned ma, mi;

	if (!cuda_major_minor(s, &ma, &mi))
		return false;
	*ret = ma * 10 + mi;
	return true;
}

RULE_CHECK(check_branch_drops_gpu)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct facts_driver_branch *b = NULL;
	const struct facts_threshold *open_min = NULL;
	const struct snap_node *fact;
	const char *ver, *flavor = snap_get_str(root, "driver.nvidia.flavor");
	unsigned oldest = 0;

	if (gpus_count(root, gpu_is_nvidia) == 0)
		return;
	switch (nvidia_driver(root, &ver, &fact)) {
	case DRIVER_NONE:
		return;
	case DRIVER_UNKNOWN:
		rule_need(c, NULL, "the NVIDIA driver version", fact);
		return;
	case DRIVER_LOADED:
		break;
	}
	if (facts_driver_branch(ver, &b) < 0) {
		rule_skip(c, NULL, "driver %s: its branch is not in the knowledge base", ver);
		return;
	}
	if (!cc_num(b->oldest_cc, &oldest)) {
		rule_skip(c, NULL, "driver branch R%u: oldest supported architecture not confirmed",
			  b->branch);
		return;
	}
	(void)facts_threshold("open_kernel_module_min_cc", &open_min);
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct facts_gpu *fg;
		bool open_refuses;
		struct finding *f;
		unsigned cc;
		char name[64];

		if (!gpu_is_nvidia(g))
			continue;
		if (gpu_facts(g, &fg) < 0 || fg->cc_major < 0) {
			rule_skip(c, gpu_bus(g), "GPU %s (%s): its compute capability is not in the "
				  "knowledge base", gpu_bus(g), snap_get_str(g, "device_id"));
			continue;
		}
		cc = (unsigned)(fg->cc_major * 10 + fg->cc_minor);
		open_refuses = flavor && streq(flavor, "open") && open_min && cc < open_min->number;
		if (cc >= oldest && !open_refuses)
			continue;
		if (cc < oldest)
			f = rule_finding(c, GPUENV_SEVERITY_ERROR, gpu_bus(g),
					 "%s (%s, compute capability %s) is not supported by driver "
					 "branch R%u (oldest: %s, %s); the driver ignores it%s",
					 fg->product, fg->architecture, fg->compute_capability,
					 b->branch, b->oldest_arch, b->oldest_cc,
					 facts_unconfirmed(b->confidence) ?
						 " (the branch row is unconfirmed)" : "");
		else
			f = rule_finding(c, GPUENV_SEVERITY_ERROR, gpu_bus(g),
					 "%s (%s, compute capability %s) has no GSP: the open nvidia.ko "
					 "of %s refuses it; it needs the proprietary kernel module",
					 fg->product, fg->architecture, fg->compute_capability, ver);
		finding_fact(f, "driver.nvidia.module_version", fact);
		finding_fact(f, "driver.nvidia.flavor", snap_get(root, "driver.nvidia.flavor"));
		snprintf(name, sizeof(name), "hardware.gpus.%zu.device_id", i);
		finding_fact(f, name, snap_child(g, "device_id"));
		finding_evidence(f, "facts.gpu.compute_capability", fg->source, "%s: %s (%s)",
				 fg->product, fg->compute_capability, fg->architecture);
		if (cc < oldest)
			finding_evidence(f, "facts.driver_branches.oldest_cc", b->source, "R%u: %s (%s)",
					 b->branch, b->oldest_cc, b->oldest_arch);
		else
			finding_evidence(f, "facts.thresholds.open_kernel_module_min_cc",
					 open_min->source, "%s", open_min->value);
		if (cc < oldest)
			finding_fix(f, "# install the last driver branch for %s GPUs (gpuenv facts "
				       "driver <branch> shows each branch's oldest architecture)",
				    fg->architecture);
		else
			finding_fix(f, "# install the proprietary kernel module flavour of the "
				       "driver (e.g. nvidia-driver-%u rather than -open), or a "
				       "Turing-or-newer GPU", b->branch);
		finding_rule_verify(f);
	}
}

RULE_CHECK(check_branch_eol)
{
	const struct facts_driver_branch *b = NULL;
	const struct facts_threshold *asof = NULL;
	const struct snap_node *fact;
	const char *ver;
	struct finding *f;
	unsigned eol = 0;
	int r;

	switch (nvidia_driver(root, &ver, &fact)) {
	case DRIVER_NONE:
		return;
	case DRIVER_UNKNOWN:
		rule_need(c, NULL, "the NVIDIA driver version", fact);
		return;
	case DRIVER_LOADED:
		break;
	}
	if (facts_driver_branch(ver, &b) < 0) {
		rule_skip(c, NULL, "driver %s: its branch is not in the knowledge base", ver);
		return;
	}
	if (facts_threshold("knowledge_base_as_of", &asof) < 0) {
		rule_skip(c, NULL, "knowledge base has no knowledge_base_as_of date");
		return;
	}
	r = facts_driver_branch_eol(b, &eol);
	if (r < 0)
		return; /* no end of life known for this branch */
	if (r == 1 && eol > asof->number)
		return;
	if (r == 1)
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
				 "driver %s is branch R%u, end of life %s (knowledge base as of %s)",
				 ver, b->branch, b->datacenter_eol, asof->value);
	else
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
				 "driver %s is branch R%u, which NVIDIA lists as end of life", ver,
				 b->branch);
	finding_fact(f, "driver.nvidia.module_version", fact);
	finding_evidence(f, "facts.driver_branches.datacenter_eol", b->source, "R%u: %s", b->branch,
			 b->datacenter_eol);
	finding_evidence(f, "facts.thresholds.knowledge_base_as_of", asof->source, "%s",
			 asof->value);
	finding_rule_fix(f);
	finding_rule_verify(f);
}
