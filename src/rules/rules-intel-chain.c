// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Intel chain "i915 (kernel 6.8.0-45-generic) · Level Zero 1.17.6, GPU driver 1.3.29735.27
 * · torch 2.8.0+xpu (DG2 ✓)", as the AMD one (rules-amd-chain.c): the kernel driver bound to
 * the first Intel GPU, the Level Zero loader and Intel's GPU driver for it as the ld.so search
 * finds them (runtime.level_zero; their file versions, else their dpkg packages'), and
 * the framework a plain `python` imports, the GPU's family (facts/intel_gpu_kernel.tsv, else
 * its PCI id) judged through them. Only what the snapshot shows: a version the file name or
 * the package does not give is left out, never guessed.
 */
#include <stdio.h>
#include <string.h>

#include "facts/facts-intel.h"
#include "rules/rules-intel.h"

/* The Intel stack is on the machine: an Intel GPU with Level Zero installed, or a framework
 * build for Intel GPUs (an Intel GPU alone, such as a laptop's beside an NVIDIA one, is not). */
static bool intel_present(const struct snap_node *root)
{
	char buf[8];

	return (gpus_count(root, gpu_is_intel) > 0 &&
		(snap_present(snap_get(root, "runtime.level_zero.loader.path")) ||
		 snap_present(snap_get(root, "runtime.level_zero.gpu_driver.path")))) ||
	       intel_framework_present(root, buf, sizeof(buf));
}

static const struct snap_node *first_intel_gpu(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus"), *any = NULL;

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);

		if (gpu_intel_bound(g))
			return g;
		if (!any && gpu_is_intel(g))
			any = g;
	}
	return any;
}

static void chain_driver(struct gpuenv_doctor *d, const struct snap_node *root,
			 const struct snap_node *g, struct vendor_chain *v)
{
	const char *rel = snap_get_str(root, "host.kernel_release");

	if (g && gpu_intel_bound(g)) {
		v->driver = diagnosis_strdupf(d, "%s (kernel %s)", snap_get_str(g, "driver"),
					      rel ?: "?");
		v->driver_source = diagnosis_strdupf(d, "%s", snap_source(snap_child(g, "driver")));
	} else {
		v->driver = diagnosis_strdupf(d, "%s", g ? "no i915 or xe bound" : "no Intel GPU");
		v->driver_source = diagnosis_strdupf(d, "/sys/bus/pci/devices");
	}
}

/* "1.3.29735.27" (the file's version), else the package's ("libze-intel-gpu1 24.22.29735.27"). */
static void lib_label(char *buf, size_t len, const struct snap_node *lib,
		      const struct snap_node *pkgs, const char *pkg_a, const char *pkg_b)
{
	const char *ver = snap_get_str(lib, "version");
	const char *pkg = snap_get_str(pkgs, pkg_a) ? pkg_a : pkg_b;

	if (!snap_present(snap_child(lib, "path")))
		snprintf(buf, len, "none");
	else if (ver)
		snprintf(buf, len, "%s", ver);
	else if (snap_get_str(pkgs, pkg))
		snprintf(buf, len, "(%s %s)", pkg, snap_get_str(pkgs, pkg));
	else
		snprintf(buf, len, "(version unknown)");
}

static void chain_runtime(struct gpuenv_doctor *d, const struct snap_node *root,
			  struct vendor_chain *v)
{
	const struct snap_node *lz = snap_get(root, "runtime.level_zero");
	const struct snap_node *pkgs = snap_child(lz, "packages");
	char loader[128], gpu[128];

	lib_label(loader, sizeof(loader), snap_child(lz, "loader"), pkgs, "libze1", "level-zero");
	lib_label(gpu, sizeof(gpu), snap_child(lz, "gpu_driver"), pkgs, "libze-intel-gpu1",
		  "intel-level-zero-gpu");
	v->runtime = diagnosis_strdupf(d, "Level Zero %s, GPU driver %s", loader, gpu);
	v->runtime_source = diagnosis_strdupf(
		d, "%s",
		snap_get_str(lz, "loader.path") ?: snap_source(snap_get(lz, "loader.path"))
							    ?: "ld.so search");
}

/* The first error of the driver layer (the render node not accessible, the firmware not
 * loaded …), or NULL: what the files alone do not show. */
static const struct finding *driver_error(const struct gpuenv_doctor *d)
{
	for (size_t i = 0; i < d->n_findings; i++)
		if (d->findings[i].rule->layer == GPUENV_LAYER_DRIVER &&
		    d->findings[i].severity == GPUENV_SEVERITY_ERROR)
			return &d->findings[i];
	return NULL;
}

/* A finding of an intel-extension-for-pytorch rule (framework.ipex-*), or NULL. */
static const struct finding *ipex_finding(const struct gpuenv_doctor *d)
{
	for (size_t i = 0; i < d->n_findings; i++)
		if (startswith(d->findings[i].rule->id, "framework.ipex-"))
			return &d->findings[i];
	return NULL;
}

/* driver → runtime: i915/xe drive the GPU, the loader and Intel's GPU driver are installed, and
 * the Level Zero session (where it ran) lists the GPU. */
static void link_driver_runtime(struct gpuenv_doctor *d, const struct snap_node *root,
				const struct snap_node *g, struct vendor_chain *v)
{
	const struct snap_node *init = snap_get(root, "driver.level_zero.init");
	const struct snap_node *devs = snap_get(root, "driver.level_zero.devices");
	size_t listed = 0;

	for (size_t i = 0; i < snap_count(devs); i++) {
		int64_t vendor = 0;

		listed += streq(snap_get_str(snap_at(devs, i), "type") ?: "", "GPU") &&
			  snap_get_int(snap_at(devs, i), "vendor_id", &vendor) && vendor == 0x8086;
	}
	if (!g || !gpu_intel_bound(g)) {
		v->link_state[0] = g ? LINK_BROKEN : LINK_UNKNOWN;
		v->link_why[0] = diagnosis_strdupf(d, "%s",
						   g ? "no i915 or xe drives the Intel GPU"
						     : "no Intel GPU on the bus");
	} else if (!snap_present(snap_get(root, "runtime.level_zero.loader.path"))) {
		v->link_state[0] = LINK_BROKEN;
		v->link_why[0] = diagnosis_strdupf(d, "the Level Zero loader (libze_loader.so.1) "
						      "is not installed");
	} else if (!snap_present(snap_get(root, "runtime.level_zero.gpu_driver.path"))) {
		v->link_state[0] = LINK_BROKEN;
		v->link_why[0] = diagnosis_strdupf(d, "Level Zero has no GPU driver "
						      "(libze_intel_gpu.so.1 not installed)");
	} else if (driver_error(d)) {
		v->link_state[0] = LINK_BROKEN;
		v->link_why[0] = diagnosis_strdupf(d, "%s: %s", driver_error(d)->rule->id,
						   driver_error(d)->message);
	} else if (init && snap_state(init) != FACT_UNPROBED) {
		v->link_state[0] = listed ? LINK_OK : LINK_BROKEN;
		v->link_why[0] =
			listed ? diagnosis_strdupf(d,
						   "%s drives the GPU; the Level Zero "
						   "session lists %zu Intel GPU(s)",
						   snap_get_str(g, "driver"), listed)
			       : diagnosis_strdupf(d, "the Level Zero session lists no Intel "
						      "GPU");
	} else {
		v->link_state[0] = LINK_OK;
		v->link_why[0] = diagnosis_strdupf(
			d,
			"%s drives the GPU; the Level Zero loader and GPU driver are installed "
			"(no Level Zero session run to confirm it lists the GPU)",
			snap_get_str(g, "driver"));
	}
}

/* runtime → framework: the framework a plain `python` imports is a build for Intel GPUs, torch
 * XPU or a torch with intel-extension-for-pytorch (which brings the XPU device itself). */
static void link_runtime_framework(struct gpuenv_doctor *d, const struct snap_node *root,
				   struct vendor_chain *v)
{
	const struct snap_node *ipex;
	const struct finding *bad;
	struct fw_build b;

	if (!vendor_chain_framework(d, root, v, &b))
		return;
	ipex = b.kind == FW_TORCH ? snap_get(b.env, "packages.ipex") : NULL;
	v->framework = ipex ? diagnosis_strdupf(d, "%s + intel-extension-for-pytorch %s", b.label,
						snap_get_str(ipex, "dist_version") ?: "?")
			    : diagnosis_strdupf(d, "%s", b.label);
	if (b.kind != FW_TORCH || (!torch_is_xpu(b.pkg) && !ipex)) {
		v->link_state[1] = LINK_BROKEN;
		v->link_why[1] = diagnosis_strdupf(
			d, "%s is not an XPU build: it cannot use the Intel GPU", b.label);
	} else if (!snap_present(snap_get(root, "runtime.level_zero.loader.path"))) {
		v->link_state[1] = LINK_BROKEN;
		v->link_why[1] = diagnosis_strdupf(d,
						   "%s needs libze_loader.so.1, which is not "
						   "installed",
						   v->framework);
	} else if (ipex && (bad = ipex_finding(d)) != NULL) {
		v->link_state[1] = LINK_BROKEN;
		v->link_why[1] = diagnosis_strdupf(d, "%s: %s", bad->rule->id, bad->message);
	} else {
		v->link_state[1] = LINK_OK;
		v->link_why[1] =
			torch_is_xpu(b.pkg)
				? diagnosis_strdupf(d, "%s is an XPU build (Level Zero)", b.label)
				: diagnosis_strdupf(d,
						    "intel-extension-for-pytorch brings the XPU "
						    "device to %s (Level Zero)",
						    b.label);
	}
}

void intel_chain(struct gpuenv_doctor *d, const struct snap_node *root)
{
	const struct snap_node *g;
	const struct facts_intel_kernel *row;
	struct vendor_chain *v;
	unsigned ven = 0, dev = 0;

	if (!intel_present(root) || d->n_vendor_chains >= VENDOR_CHAINS_MAX)
		return;
	v = &d->vendor_chains[d->n_vendor_chains++];
	v->vendor = "intel";
	g = first_intel_gpu(root);
	row = g ? intel_kernel_row(g) : NULL;
	if (row)
		v->target = diagnosis_strdupf(d, "%s", row->family);
	else if (g && gpu_pci_ids(g, &ven, &dev))
		v->target = diagnosis_strdupf(d, "%04x:%04x", ven, dev);
	chain_driver(d, root, g, v);
	chain_runtime(d, root, v);
	link_driver_runtime(d, root, g, v);
	link_runtime_framework(d, root, v);
	v->target_state = link_worst(v->link_state[0], v->link_state[1]);
}
