// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * OpenCL checks over runtime.opencl (docs/snapshot-schema.md): the ICD files of
 * /etc/OpenCL/vendors and the library each names (Khronos cl_khr_icd, "ICD loader vendor
 * enumeration on Linux": the loader dlopen()s the line as written and leaves out a vendor whose
 * library does not load), and, live, the platforms the ICD loader lists. A GPU "with an
 * OpenCL-capable driver" is one whose kernel driver has an OpenCL implementation: nvidia
 * (NVIDIA's libnvidia-opencl), amdgpu (ROCm's or Mesa's), i915/xe (intel-opencl-icd).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-intel.h"

static bool gpu_opencl_capable(const struct snap_node *gpu)
{
	const char *drv = snap_get_str(gpu, "driver");

	return drv && (streq(drv, "nvidia") || streq(drv, "amdgpu") || streq(drv, "i915") ||
		       streq(drv, "xe"));
}

/* The first GPU with an OpenCL-capable driver bound, or NULL. */
static const struct snap_node *opencl_gpu(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_opencl_capable(snap_at(gpus, i)))
			return snap_at(gpus, i);
	return NULL;
}

/* The ICD files, when there are any: no ICD file is no OpenCL installed, not a fault. */
static const struct snap_node *icd_files(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *icds = snap_get(root, "runtime.opencl.icd_files");

	if (!icds)
		return NULL;
	if (snap_kind(icds) != SNAP_ARRAY) {
		if (snap_state(icds) != FACT_ABSENT)
			rule_need(c, NULL, "/etc/OpenCL/vendors", icds);
		return NULL;
	}
	return snap_count(icds) ? icds : NULL;
}

bool opencl_gpu_icd_registered(const struct snap_node *root)
{
	const struct snap_node *icds = snap_get(root, "runtime.opencl.icd_files");

	for (size_t i = 0; i < snap_count(icds); i++) {
		const struct snap_node *f = snap_at(icds, i);
		bool cpu = true;

		if (snap_get_str(f, "library") && snap_bool(snap_child(f, "cpu_only"), &cpu) &&
		    !cpu)
			return true;
	}
	return false;
}

RULE_CHECK(check_opencl_icd_library_missing)
{
	const struct snap_node *icds = icd_files(c, root);

	for (size_t i = 0; icds && i < snap_count(icds); i++) {
		const struct snap_node *f = snap_at(icds, i);
		const struct snap_node *p = snap_get(f, "resolved.path");
		const char *lib = snap_get_str(f, "library");
		char name[96];
		struct finding *fd;

		if (!lib)
			continue; /* an unreadable or empty ICD file: its own fact says so */
		if (!rule_need_known(c, lib, "where the ICD's library is", p) ||
		    !lib_need_determined(c, lib, snap_child(f, "resolved")) ||
		    snap_state(p) == FACT_PRESENT)
			continue;
		fd = rule_finding(c, GPUENV_SEVERITY_WARNING, lib,
				  "%s names %s, which is not installed: the ICD loader leaves "
				  "this OpenCL platform out",
				  snap_get_str(f, "path") ?: "an ICD file", lib);
		if (!fd)
			return;
		snprintf(name, sizeof(name), "runtime.opencl.icd_files.%zu.library", i);
		finding_fact(fd, name, snap_child(f, "library"));
		snprintf(name, sizeof(name), "runtime.opencl.icd_files.%zu.resolved.path", i);
		finding_fact(fd, name, p);
		finding_rule_fix(fd);
		finding_rule_verify(fd);
	}
}

RULE_CHECK(check_opencl_no_platforms)
{
	const struct snap_node *icds = icd_files(c, root), *g = opencl_gpu(root);
	const struct snap_node *pc = snap_get(root, "runtime.opencl.platform_count");
	int64_t n = -1;
	struct finding *f;

	if (!icds || !g)
		return;
	if (!rule_need(c, NULL, "the OpenCL platforms (live: clGetPlatformIDs)", pc))
		return;
	if (!snap_int(pc, &n) || n != 0)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
			 "the OpenCL ICD loader lists no platform, though the GPU at %s has an "
			 "OpenCL-capable driver (%s) and %zu ICD file(s) are registered",
			 snap_get_str(g, "bus_id") ?: "?", snap_get_str(g, "driver"),
			 snap_count(icds));
	if (!f)
		return;
	finding_fact(f, "runtime.opencl.platform_count", pc);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* The first Intel GPU with i915/xe bound: OpenCL is part of Intel's compute stack (CUDA and
 * ROCm/HIP users do not go through OpenCL, and a CPU ICD beside them is no fault). */
static const struct snap_node *intel_gpu(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_intel_bound(snap_at(gpus, i)))
			return snap_at(gpus, i);
	return NULL;
}

RULE_CHECK(check_opencl_cpu_only)
{
	const struct snap_node *icds = icd_files(c, root), *g = intel_gpu(root);
	const char *cpu = NULL;
	struct finding *f;

	if (!icds || !g)
		return;
	for (size_t i = 0; i < snap_count(icds); i++) {
		const struct snap_node *fi = snap_at(icds, i), *co = snap_child(fi, "cpu_only");
		bool on = false;

		if (!snap_child(fi, "library") ||
		    snap_state(snap_child(fi, "library")) != FACT_PRESENT)
			continue;
		if (!rule_need(c, NULL, "whether an ICD is CPU-only", co))
			return;
		snap_bool(co, &on);
		if (!on)
			return; /* a GPU ICD is registered (whether it loads: icd-library-missing) */
		cpu = cpu ?: snap_get_str(fi, "library");
	}
	if (!cpu)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
			 "only CPU OpenCL implementations are registered (%s): OpenCL programs "
			 "run on the CPU, not on the GPU at %s (%s)",
			 cpu, snap_get_str(g, "bus_id") ?: "?", snap_get_str(g, "driver"));
	if (!f)
		return;
	finding_fact(f, "runtime.opencl.icd_files.0.library",
		     snap_get(root, "runtime.opencl.icd_files.0.library"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}
