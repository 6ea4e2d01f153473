// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.proprietary-module-refuses-gpu: a GPU that only the open kernel modules initialise
 * (Blackwell: RTX 50xx, RTX PRO Blackwell, B200) under the proprietary nvidia.ko. Sources:
 * NVIDIA's "NVIDIA Transitions Fully Towards Open-Source GPU Kernel Modules" (2024: "For
 * cutting-edge platforms such as NVIDIA Grace Hopper or NVIDIA Blackwell, you must use the
 * open-source GPU kernel modules. The proprietary drivers are unsupported on these
 * platforms."), and the proprietary module's refusal in the kernel log ("NVRM: The NVIDIA GPU
 * <bus> (PCI ID: 10de:<id>) NVRM: installed in this system requires use of the NVIDIA open
 * kernel modules.", driver.kernel_log.open_required_gpus). The opposite direction, the open
 * module refusing a GPU, is driver.open-module-datacenter-only and driver.branch-drops-gpu.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "facts/coverage.h"
#include "rules/rules-internal.h"

#define OPEN_ONLY_SOURCE                                                                           \
	"NVIDIA technical blog, NVIDIA Transitions Fully Towards Open-Source GPU Kernel Modules "  \
	"(2024): Blackwell needs the open kernel modules"

/* The package or switch that installs the open flavour, for this distribution; branch 0 where
 * the driver's branch is not known. Names checked against the distributions' archives:
 * Ubuntu's nvidia-driver-<branch>-open (ubuntu-drivers lists it beside nvidia-driver-<branch>),
 * Arch's nvidia-open / nvidia-open-dkms, RPM Fusion's akmod-nvidia-open, negativo17's
 * kernel-open in /etc/nvidia/kernel.conf, the .run installer's --kernel-module-type=open (R560
 * on; magemagix/CheatSheet's RTX 5060 Ti guide installs 580.95.05 with it). */
static void open_flavour_fix(struct finding *f, const struct snap_node *root, unsigned branch)
{
	switch (host_distro(root)) {
	case DISTRO_UBUNTU:
		if (branch)
			finding_fix(
				f,
				"sudo apt install nvidia-driver-%u-open   # the open kernel module "
				"flavour (nvidia-driver-%u-server-open for the server branch); it "
				"replaces nvidia-driver-%u",
				branch, branch, branch);
		else
			finding_fix(f, "sudo ubuntu-drivers list   # then sudo apt install the "
				       "nvidia-driver-<branch>-open it lists");
		break;
	case DISTRO_ARCH:
		finding_fix(f, "sudo pacman -S nvidia-open   # or nvidia-open-dkms for a kernel "
			       "other than linux; it replaces nvidia / nvidia-dkms");
		break;
	case DISTRO_FEDORA:
		finding_fix(f,
			    "# the open kernel module flavour: with RPM Fusion's packages "
			    "sudo dnf install akmod-nvidia-open (it replaces akmod-nvidia); with "
			    "negativo17's, kernel-open in /etc/nvidia/kernel.conf and sudo akmods "
			    "--rebuild");
		break;
	default:
		finding_fix(f, "# install the open kernel module flavour of the driver (the -open "
			       "package of your distribution), not the proprietary one");
		break;
	}
	finding_fix(f, "# NVIDIA's .run installer: sh NVIDIA-Linux-x86_64-<version>.run "
		       "--kernel-module-type=open");
	finding_fix(f, "sudo reboot");
}

static unsigned branch_of(const char *ver)
{
	const struct facts_driver_branch *b;

	return ver && facts_driver_branch(ver, &b) == 0 ? b->branch : 0;
}

static const char *gpu_bus(const struct snap_node *gpu)
{
	return snap_get_str(gpu, "bus_id");
}

static const struct snap_node *gpu_at(const struct snap_node *root, const char *bus)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; bus && i < snap_count(gpus); i++) {
		const char *b = gpu_bus(snap_at(gpus, i));

		if (b && strcasecmp(b, bus) == 0)
			return snap_at(gpus, i);
	}
	return NULL;
}

/* The kernel log's refusals, one finding per GPU. */
static size_t judge_refusals(struct rule_ctx *c, const struct snap_node *root, const char *ver,
			     const struct snap_node *fact)
{
	const struct snap_node *arr = snap_get(root, "driver.kernel_log.open_required_gpus");
	const struct snap_node *fl = snap_get(root, "driver.nvidia.flavor");
	size_t n = 0;

	for (size_t i = 0; i < snap_count(arr); i++) {
		const struct snap_node *r = snap_at(arr, i);
		const char *bus = snap_get_str(r, "bus_id"), *id = snap_get_str(r, "pci_id");
		const struct snap_node *g = gpu_at(root, bus);
		const struct facts_gpu *fg = NULL;
		struct finding *f;

		if (!bus)
			continue;
		if (g)
			(void)gpu_facts(g, &fg);
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, bus,
			"the proprietary nvidia.ko%s%s refuses the GPU %s (PCI ID %s%s%s): "
			"only the open kernel modules initialise it (the kernel log: "
			"\"requires use of the NVIDIA open kernel modules\"), so no CUDA "
			"program or nvidia-smi sees it",
			ver ? " of " : "", ver ?: "", bus, id ?: "?", fg ? ", " : "",
			fg ? fg->product : "");
		n++;
		finding_fact(f, "driver.kernel_log.open_required_gpus[].bus_id",
			     snap_child(r, "bus_id"));
		finding_fact(f, "driver.kernel_log.open_required_gpus[].count",
			     snap_child(r, "count"));
		if (fact)
			finding_fact(f, driver_fact_key(root, fact), fact);
		if (snap_present(fl))
			finding_fact(f, "driver.nvidia.flavor", fl);
		open_flavour_fix(f, root, branch_of(ver));
		finding_rule_verify(f);
	}
	return n;
}

/* Whether the driver's branch is older than the first one that drives the GPU (the
 * knowledge base's derivation, coverage_first_branch_for_cc()); false where either is unknown. */
static bool predates(const struct snap_node *root, const struct snap_node *gpu, const char *ver)
{
	unsigned ma, mi, first, branch = branch_of(ver);
	const struct snap_node *ccf;
	const char *cuda;
	bool unconf;

	return branch && gpu_cc(root, gpu, &ma, &mi, &ccf) &&
	       coverage_first_branch_for_cc(ma, mi, &first, &cuda, &unconf) == 0 && branch < first;
}

/* No refusal in the log (not read, or rotated): the loaded proprietary module and a GPU whose
 * architecture needs the open one. */
static void judge_loaded(struct rule_ctx *c, const struct snap_node *root, const char *ver,
			 const struct snap_node *fact)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *fl = snap_get(root, "driver.nvidia.flavor");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct facts_gpu *fg;
		struct finding *f;

		if (!gpu_is_nvidia(g) || gpu_facts(g, &fg) < 0 || !fg->architecture ||
		    !streq(fg->architecture, "Blackwell"))
			continue;
		/* A branch older than the GPU drives it in neither flavour: that is
		 * driver.branch-predates-gpu's finding, and its -open package no fix. */
		if (predates(root, g, ver))
			continue;
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, gpu_bus(g),
			"the loaded nvidia.ko%s%s is the proprietary flavour, which does not "
			"initialise the Blackwell GPU %s (%s): it needs the open kernel "
			"modules",
			ver ? " of " : "", ver ?: "", gpu_bus(g) ?: "?", fg->product);
		finding_fact(f, "driver.nvidia.flavor", fl);
		if (fact)
			finding_fact(f, driver_fact_key(root, fact), fact);
		finding_evidence(f, "facts.gpu.architecture", OPEN_ONLY_SOURCE, "%s: %s",
				 fg->product, fg->architecture);
		open_flavour_fix(f, root, branch_of(ver));
		finding_rule_verify(f);
	}
}

/* Fixtures: rw-rtx5090m-proprietary580-autonomy-kilted (Ubuntu 24.04, ubuntu-drivers' non-open
 * nvidia-driver-580 on an RTX 5090 Laptop GPU); the negative, rw-rtx5090m-open580-autonomy-
 * kilted (the same machine on nvidia-driver-580-open, the old refusals still in the log). */
RULE_CHECK(check_proprietary_module_refuses_gpu)
{
	const struct snap_node *fl = snap_get(root, "driver.nvidia.flavor");
	const struct snap_node *fact = NULL;
	const char *ver = NULL;

	/* Only the proprietary module prints the refusal: with the open one loaded the lines
	 * are of an earlier load, the fix already made. A pasted log (explain) shows no flavour
	 * and stands on the line alone. */
	if (snap_present(fl) && streq(snap_str(fl), "open"))
		return;
	if (nvidia_driver(root, &ver, &fact) != DRIVER_LOADED)
		ver = NULL, fact = NULL;
	if (judge_refusals(c, root, ver, fact) > 0)
		return;
	if (snap_present(fl) && streq(snap_str(fl), "proprietary"))
		judge_loaded(c, root, ver, fact);
}
