// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Intel GPU checks, over driver.intel (i915/xe firmware and force_probe lines of the kernel
 * log), runtime.level_zero, runtime.oneapi and the torch/ipex packages of
 * framework.python_envs[] (docs/snapshot-schema.md). The stack they judge is Intel's own
 * description of it: the i915 or xe kernel driver with its GuC firmware, the Level Zero loader
 * (libze_loader.so.1) with Intel's GPU driver for it (libze_intel_gpu.so.1, the compute
 * runtime), and the oneAPI DPC++ runtime that PyTorch's XPU builds and
 * intel-extension-for-pytorch link (dgpu-docs.intel.com "Installing Client GPUs"; ipex's
 * installation guides, facts/ipex_xpu.tsv).
 */
#include <stdio.h>
#include <string.h>

#include "facts/facts-intel.h"
#include "rules/rules-intel.h"
#include "shared/strbuf.h"

bool gpu_is_intel(const struct snap_node *gpu)
{
	unsigned v = 0, d = 0;

	return gpu_pci_ids(gpu, &v, &d) && v == 0x8086;
}

bool gpu_intel_bound(const struct snap_node *gpu)
{
	const char *drv = snap_get_str(gpu, "driver");

	return gpu_is_intel(gpu) && drv && (streq(drv, "i915") || streq(drv, "xe"));
}

bool torch_is_xpu(const struct snap_node *torch)
{
	const char *v = snap_get_str(torch, "version") ?: snap_get_str(torch, "dist_version");

	return snap_present(snap_child(torch, "xpu")) ||
	       snap_present(snap_child(torch, "xpu_library")) || (v && strstr(v, "+xpu"));
}

bool intel_framework_present(const struct snap_node *root, char *buf, size_t len)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");

	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *env = snap_at(envs, i);
		const struct snap_node *pk = snap_child(env, "packages");
		const struct snap_node *t = snap_child(pk, "torch"), *ip = snap_child(pk, "ipex");
		const char *prefix = snap_get_str(env, "prefix") ?: "?";

		if (t && torch_is_xpu(t)) {
			snprintf(buf, len, "torch %s in %s",
				 snap_get_str(t, "version") ?: snap_get_str(t, "dist_version") ?: "?",
				 prefix);
			return true;
		}
		if (ip) {
			snprintf(buf, len, "intel-extension-for-pytorch %s in %s",
				 snap_get_str(ip, "dist_version") ?: "?", prefix);
			return true;
		}
	}
	return false;
}

static const struct snap_node *gpu_at_bus(const struct snap_node *root, const char *bus)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; bus && i < snap_count(gpus); i++)
		if (bus_id_equal(snap_get_str(snap_at(gpus, i), "bus_id"), bus))
			return snap_at(gpus, i);
	return NULL;
}

static bool is_load_outcome(const char *state)
{
	return streq(state, "loaded") || streq(state, "authenticated") ||
	       streq(state, "fetch_failed") || streq(state, "load_failed");
}

/* Firmware events (driver.intel.firmware[]) are written only where the probe ran: an Intel
 * GPU or i915/xe loaded. Not there: nothing to judge. */
static const struct snap_node *intel_firmware(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *fw = snap_get(root, "driver.intel.firmware");

	if (!snap_get(root, "driver.intel") || gpus_count(root, gpu_is_intel) == 0)
		return NULL;
	if (snap_kind(fw) != SNAP_ARRAY) {
		rule_need(c, NULL, "the kernel log's i915/xe lines (driver.intel.firmware)", fw);
		return NULL;
	}
	return fw;
}

/* The event is a failure that no later load of the same firmware on the same GPU undid. */
static bool failure_stands(const struct snap_node *fw, size_t i)
{
	const struct snap_node *e = snap_at(fw, i);
	const char *st = snap_get_str(e, "state") ?: "", *bus = snap_get_str(e, "bus_id") ?: "",
		   *kind = snap_get_str(e, "kind") ?: "";
	int64_t line = 0;

	if (!streq(st, "fetch_failed") && !streq(st, "load_failed"))
		return false;
	snap_get_int(e, "line", &line);
	for (size_t j = 0; j < snap_count(fw); j++) {
		const struct snap_node *o = snap_at(fw, j);
		const char *ost = snap_get_str(o, "state") ?: "";
		int64_t ol = 0;

		snap_get_int(o, "line", &ol);
		if (j != i && ol > line && is_load_outcome(ost) && !strstr(ost, "failed") &&
		    streq(snap_get_str(o, "bus_id") ?: "", bus) &&
		    streq(snap_get_str(o, "kind") ?: "", kind))
			return false;
	}
	return true;
}

RULE_CHECK(check_intel_firmware_failed)
{
	const struct snap_node *fw = intel_firmware(c, root);

	for (size_t i = 0; fw && i < snap_count(fw); i++) {
		const struct snap_node *e = snap_at(fw, i);
		const char *kind = snap_get_str(e, "kind") ?: "?", *file = snap_get_str(e, "file");
		const char *st = snap_get_str(e, "state") ?: "";
		bool guc = streq(kind, "GuC");
		char name[96];
		struct finding *f;

		if ((!guc && !streq(kind, "HuC")) || !failure_stands(fw, i))
			continue;
		f = rule_finding(c, guc ? GPUENV_SEVERITY_ERROR : GPUENV_SEVERITY_WARNING,
				 snap_get_str(e, "bus_id"), "%s at %s: %s firmware %s%s%s",
				 snap_get_str(e, "driver") ?: "?", snap_get_str(e, "bus_id") ?: "?",
				 kind, file ? file : "", file ? " " : "",
				 streq(st, "fetch_failed")
					 ? "could not be read (fetch failed: the file is missing)"
					 : "was found but failed to load or initialise");
		if (!f)
			return;
		snprintf(name, sizeof(name), "driver.intel.firmware.%zu.text", i);
		finding_fact(f, name, snap_child(e, "text"));
		finding_fact(f, "host.kernel_release", snap_get(root, "host.kernel_release"));
		if (guc)
			finding_evidence(f, "consequence", "i915/xe",
					 "without GuC, DG2 (Arc, Flex) and newer GPUs have no "
					 "compute engine submission: Level Zero and OpenCL find no "
					 "device");
		/* xe reads its newer GPUs' GuC/HuC from linux-firmware's xe/ directory, not
		 * i915/ (lxc/incus-os#891: xe/bmg_guc_70.bin) */
		if (file && strncmp(file, "xe/", 3) == 0)
			finding_fix(
				f,
				"ls -l /lib/firmware/%s*   # xe reads it from linux-firmware's "
				"xe/ directory: a linux-firmware (or system image) without that "
				"directory lacks the file",
				file);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

RULE_CHECK(check_intel_force_probe)
{
	const struct snap_node *fw = intel_firmware(c, root);

	for (size_t i = 0; fw && i < snap_count(fw); i++) {
		const struct snap_node *e = snap_at(fw, i), *g;
		const char *bus = snap_get_str(e, "bus_id"), *id = snap_get_str(e, "device_id");
		const struct facts_intel_kernel *row;
		char name[96];
		struct finding *f;

		if (!streq(snap_get_str(e, "state") ?: "", "force_probe_needed"))
			continue;
		g = gpu_at_bus(root, bus);
		if (g && gpu_intel_bound(g))
			continue; /* bound since (force_probe given, or a newer kernel) */
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, bus,
				 "%s at %s: the running kernel (%s) supports device %s only with "
				 "%s.force_probe=%s; no driver is bound to it",
				 snap_get_str(e, "driver") ?: "i915", bus ?: "?",
				 snap_get_str(root, "host.kernel_release") ?: "release unknown",
				 id ?: "?", snap_get_str(e, "driver") ?: "i915", id ?: "?");
		if (!f)
			return;
		snprintf(name, sizeof(name), "driver.intel.firmware.%zu.text", i);
		finding_fact(f, name, snap_child(e, "text"));
		finding_fact(f, "host.kernel_release", snap_get(root, "host.kernel_release"));
		finding_fact(f, "driver.intel.i915_force_probe",
			     snap_get(root, "driver.intel.i915_force_probe"));
		row = g ? intel_kernel_row(g) : NULL;
		if (row) {
			intel_kernel_evidence(f, row);
			if (row->default_from)
				finding_fix(f,
					    "# Linux %s and newer drive it without force_probe: "
					    "boot a kernel of that release or newer",
					    row->default_from);
		}
		if (row && !row->default_from) {
			/* a newer kernel does not help: the rule's own fix would say it does */
			finding_fix(f, "# no upstream kernel drives %s by default: %s", row->family,
				    row->notes);
			finding_fix(f,
				    "# or add %s.force_probe=%s to GRUB_CMDLINE_LINUX in "
				    "/etc/default/grub, then sudo update-grub && sudo reboot (the "
				    "kernel calls the device unsupported and taints itself)",
				    snap_get_str(e, "driver") ?: "i915", id ?: "?");
		} else
			finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* The release of oneAPI's DPC++/SYCL compiler and runtime under /opt/intel/oneapi (its
 * `compiler` component), or NULL. */
static const char *oneapi_compiler(const struct snap_node *root)
{
	const struct snap_node *arr = snap_get(root, "runtime.oneapi.components");

	for (size_t i = 0; i < snap_count(arr); i++) {
		const struct snap_node *o = snap_at(arr, i);
		const struct snap_node *vs = snap_child(o, "versions");

		if (!streq(snap_get_str(o, "name") ?: "", "compiler"))
			continue;
		if (snap_get_str(o, "latest"))
			return snap_get_str(o, "latest");
		return snap_count(vs) ? snap_str(snap_at(vs, snap_count(vs) - 1)) ?: "?" : "?";
	}
	return NULL;
}

/* Who needs the Level Zero loader: a framework built for XPU, the compute runtime installed
 * for an Intel GPU (libze_intel_gpu.so.1 is a Level Zero driver: the loader loads it), or
 * oneAPI's DPC++/SYCL runtime beside an Intel GPU (SYCL reaches Intel GPUs through its
 * level_zero backend: sycl-ls lists no [level_zero:gpu] without the loader, Intel's answer in
 * intel/compute-runtime#477). A GPU used for display alone needs no compute stack. *why says
 * which. */
static bool level_zero_wanted(const struct snap_node *root, char *why, size_t len)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	bool driver = snap_get_state(root, "runtime.level_zero.gpu_driver.path") == FACT_PRESENT;
	const char *sycl = oneapi_compiler(root);

	if (intel_framework_present(root, why, len))
		return true;
	if (!driver && !sycl)
		return false;
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);

		if (!gpu_intel_bound(g))
			continue;
		if (driver)
			snprintf(why, len,
				 "Intel's GPU driver for Level Zero (libze_intel_gpu.so.1), "
				 "installed for the GPU at %s,",
				 snap_get_str(g, "bus_id") ?: "?");
		else
			snprintf(
				why, len,
				"oneAPI's DPC++/SYCL runtime (/opt/intel/oneapi/compiler %s), "
				"installed beside the Intel GPU at %s, reaches it through Level Zero "
				"(sycl-ls lists no [level_zero:gpu] without it) and",
				sycl, snap_get_str(g, "bus_id") ?: "?");
		return true;
	}
	return false;
}

/* Why level_zero_wanted() may have said no only because something could not be read: a
 * /opt/intel/oneapi that could not be listed, or, beside oneAPI's compiler, a GPU whose
 * vendor, device or bound driver could not be read (it may be the Intel GPU SYCL wants):
 * skips for them, never a silent pass. */
static void oneapi_need_known(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *one = snap_get(root, "runtime.oneapi");
	const struct snap_node *comps = snap_child(one, "components");
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	if (!one || !rule_need_known(c, NULL, "runtime.oneapi.root", snap_child(one, "root")) ||
	    !snap_present(snap_child(one, "root")) ||
	    !rule_need_known(c, NULL, "runtime.oneapi.components", comps))
		return;
	for (size_t i = 0; i < snap_count(comps); i++) {
		const struct snap_node *o = snap_at(comps, i);

		if (streq(snap_get_str(o, "name") ?: "", "compiler") &&
		    !rule_need_known(c, NULL, "runtime.oneapi.components[].versions",
				     snap_child(o, "versions")))
			return;
	}
	if (!oneapi_compiler(root) ||
	    !rule_need(c, NULL, "hardware.pci_devices", snap_get(root, "hardware.pci_devices")) ||
	    !rule_need(c, NULL, "hardware.gpus", gpus))
		return;
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);

		if (!rule_need(c, NULL, "hardware.gpus[].vendor_id", snap_child(g, "vendor_id")) ||
		    !rule_need(c, NULL, "hardware.gpus[].device_id", snap_child(g, "device_id")))
			return;
		if (gpu_is_intel(g) &&
		    !rule_need_known(c, NULL, "hardware.gpus[].driver", snap_child(g, "driver")))
			return;
	}
}

RULE_CHECK(check_level_zero_missing)
{
	const struct snap_node *lz = snap_get(root, "runtime.level_zero.loader");
	const struct snap_node *p = snap_child(lz, "path");
	char why[256];
	struct finding *f;

	if (!level_zero_wanted(root, why, sizeof(why))) {
		/* an environment that could not be read may hold an XPU build */
		fw_need_complete(c, root);
		oneapi_need_known(c, root);
		return;
	}
	if (!rule_need_known(c, NULL, "runtime.level_zero.loader.path", p) ||
	    !lib_need_determined(c, NULL, lz) || snap_state(p) == FACT_PRESENT)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "libze_loader.so.1, the Level Zero loader, is not installed: %s needs it",
			 why);
	if (!f)
		return;
	finding_fact(f, "runtime.level_zero.loader.path", p);
	finding_fact(f, "runtime.level_zero.packages.libze1",
		     snap_get(root, "runtime.level_zero.packages.libze1"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_level_zero_no_gpu_driver)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *drv = snap_get(root, "runtime.level_zero.gpu_driver");
	const struct snap_node *p = snap_child(drv, "path");
	const struct snap_node *g = NULL;
	struct finding *f;

	for (size_t i = 0; !g && i < snap_count(gpus); i++)
		if (gpu_intel_bound(snap_at(gpus, i)))
			g = snap_at(gpus, i);
	if (!g || snap_get_state(root, "runtime.level_zero.loader.path") != FACT_PRESENT)
		return;
	if (!rule_need_known(c, NULL, "runtime.level_zero.gpu_driver.path", p) ||
	    !lib_need_determined(c, NULL, drv) || snap_state(p) == FACT_PRESENT)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, snap_get_str(g, "bus_id"),
			 "the Level Zero loader is installed but not Intel's GPU driver for it "
			 "(libze_intel_gpu.so.1): Level Zero lists no device for the GPU at %s",
			 snap_get_str(g, "bus_id") ?: "?");
	if (!f)
		return;
	finding_fact(f, "runtime.level_zero.loader.path",
		     snap_get(root, "runtime.level_zero.loader.path"));
	finding_fact(f, "runtime.level_zero.gpu_driver.path", p);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

static bool major_minor(const char *v, unsigned *ret_major, unsigned *ret_minor)
{
	return v && sscanf(v, "%u.%u", ret_major, ret_minor) == 2;
}

RULE_CHECK(check_ipex_torch_mismatch)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");

	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *pk = snap_child(snap_at(envs, i), "packages");
		const struct snap_node *ip = snap_child(pk, "ipex"), *t = snap_child(pk, "torch");
		const char *iv = snap_get_str(ip, "dist_version");
		const char *tv = snap_get_str(t, "version") ?: snap_get_str(t, "dist_version");
		unsigned ima, imi, tma, tmi;
		char name[128];
		struct finding *f;

		if (!ip || !t)
			continue;
		if (!major_minor(iv, &ima, &imi)) {
			rule_need(c, NULL, "intel-extension-for-pytorch's version",
				  snap_child(ip, "dist_version"));
			continue;
		}
		if (!major_minor(tv, &tma, &tmi)) {
			rule_need(c, NULL, "torch's version", snap_child(t, "version"));
			continue;
		}
		if (ima == tma && imi == tmi)
			continue;
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, snap_get_str(snap_at(envs, i), "prefix"),
				 "intel-extension-for-pytorch %s is built for PyTorch %u.%u, but "
				 "torch %s is installed in %s",
				 iv, ima, imi, tv, snap_get_str(snap_at(envs, i), "prefix") ?: "?");
		if (!f)
			return;
		snprintf(name, sizeof(name), "framework.python_envs.%zu.packages.ipex.dist_version",
			 i);
		finding_fact(f, name, snap_child(ip, "dist_version"));
		snprintf(name, sizeof(name), "framework.python_envs.%zu.packages.torch.version", i);
		finding_fact(f, name, snap_child(t, "version"));
		finding_fix(f,
			    "python -m pip install torch==%u.%u.* intel-extension-for-pytorch==%s "
			    "--extra-index-url https://pytorch-extension.intel.com/release-whl/"
			    "stable/xpu/us/   # the torch of ipex's own installation guide",
			    ima, imi, iv);
		finding_rule_verify(f);
	}
}

/* "2023.0.0" or "2024.1" is the oneAPI release major.minor "2023.0" / "2024.1". */
static bool oneapi_release_is(const char *v, const char *major_minor)
{
	size_t n = strlen(major_minor);

	return v && strncmp(v, major_minor, n) == 0 && (v[n] == '\0' || v[n] == '.');
}

/* The oneAPI runtimes the environment can load: /opt/intel/oneapi's compiler and mkl
 * releases, and the pip wheels of the DPC++ runtime. Appends them to have; true when one is
 * the release wanted. */
static bool oneapi_has(const struct snap_node *root, const struct snap_node *pk, const char *want,
		       struct strbuf *have)
{
	static const char *const comps[] = { "compiler", "mkl" };
	static const char *const wheels[] = { "dpcpp_cpp_rt", "intel_cmplr_lib_rt",
					      "intel_sycl_rt" };
	const struct snap_node *arr = snap_get(root, "runtime.oneapi.components");
	bool found = false;

	for (size_t i = 0; i < snap_count(arr); i++) {
		const struct snap_node *o = snap_at(arr, i), *vs = snap_child(o, "versions");
		const char *name = snap_get_str(o, "name") ?: "";

		for (size_t k = 0; k < ARRAY_SIZE(comps); k++) {
			if (!streq(name, comps[k]))
				continue;
			for (size_t j = 0; j < snap_count(vs); j++) {
				const char *v = snap_str(snap_at(vs, j));

				strbuf_printf(have, "%s%s %s", have->len ? ", " : "", name,
					      v ?: "?");
				found |= oneapi_release_is(v, want);
			}
		}
	}
	for (size_t k = 0; k < ARRAY_SIZE(wheels); k++) {
		const char *v = snap_get_str(snap_child(pk, wheels[k]), "dist_version");

		if (!v)
			continue;
		strbuf_printf(have, "%s%s wheel %s", have->len ? ", " : "", wheels[k], v);
		found |= oneapi_release_is(v, want);
	}
	return found;
}

RULE_CHECK(check_ipex_oneapi_mismatch)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");

	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *pk = snap_child(snap_at(envs, i), "packages");
		const struct snap_node *ip = snap_child(pk, "ipex");
		const char *iv = snap_get_str(ip, "dist_version");
		const struct facts_ipex *row;
		struct strbuf have = STRBUF_INIT;
		char name[128];
		struct finding *f;

		if (!ip || !iv || facts_ipex_release(iv, &row) < 0 ||
		    facts_unconfirmed(row->confidence))
			continue;
		if (!rule_need_known(c, NULL, "/opt/intel/oneapi",
				     snap_get(root, "runtime.oneapi.root")))
			continue;
		if (oneapi_has(root, pk, row->oneapi, &have)) {
			strbuf_done(&have);
			continue;
		}
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, snap_get_str(snap_at(envs, i), "prefix"),
				 "intel-extension-for-pytorch %s links the oneAPI %s runtime "
				 "(DPC++, oneMKL); installed: %s",
				 iv, row->oneapi,
				 have.len ? strbuf_str(&have)
					  : "no oneAPI runtime (no "
					    "/opt/intel/oneapi, no "
					    "dpcpp-cpp-rt wheel)");
		strbuf_done(&have);
		if (!f)
			return;
		snprintf(name, sizeof(name), "framework.python_envs.%zu.packages.ipex.dist_version",
			 i);
		finding_fact(f, name, snap_child(ip, "dist_version"));
		finding_fact(f, "runtime.oneapi.root", snap_get(root, "runtime.oneapi.root"));
		finding_evidence(f, "requirement", "facts:ipex_xpu",
				 "ipex %s: PyTorch %s, oneAPI Base Toolkit %s [%s]", row->ipex,
				 row->torch, row->oneapi, row->source);
		finding_fix(f,
			    "# install the oneAPI Base Toolkit %s (its DPC++ compiler runtime and "
			    "oneMKL) and source its setvars.sh, or install the ipex release built "
			    "for the oneAPI you have",
			    row->oneapi);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}
