// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.rocm-wsl-dxg-detection-unset: WSL2 gives a distribution the GPU as /dev/dxg, never
 * /dev/kfd. AMD's ROCm reaches it there through librocdxg (the DXG thunk, github.com/ROCm/
 * librocdxg, from ROCm 7.2's "ROCm on WSL" guide), and ROCr before 7.13 looks for /dev/dxg only
 * when HSA_ENABLE_DXG_DETECTION=1 is in the process's environment (AMD, ROCm/librocdxg#34:
 * "`export HSA_ENABLE_DXG_DETECTION=1` is to pair with rocm prev 7.13"; 7.13's detects it by
 * default). Unset, rocminfo prints "WSL environment detected." and "hsa_init Failed, possibly
 * no supported GPU devices", and HIP finds no GPU (unslothai/unsloth#9729, ROCm 7.2.1).
 * ROCm 6.1.3 to 6.4's WSL path (hsa-runtime-rocr4wsl-amdgpu, AMD's own WSL build of ROCr) is
 * not this one: releases before 7.2 are not judged.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"

/* The ROCm release whose ROCr needs the variable: 7.2 <= version < 7.13. */
static bool needs_dxg_detection(const char *rv)
{
	struct version v, lo = { 2, { 7, 2 } }, hi = { 2, { 7, 13 } };
	const char *end;

	return rv && version_parse_prefix(rv, &v, &end) == 0 && version_cmp(&v, &lo) >= 0 &&
	       version_cmp(&v, &hi) < 0;
}

RULE_CHECK(check_rocm_wsl_dxg_detection_unset)
{
	const struct snap_node *envn = snap_get(root, "environment");
	const struct snap_node *dxg = snap_get(root, "host.wsl.dxg_device");
	const struct snap_node *rocm, *lib;
	const char *rv, *v;
	struct finding *f;

	/* /dev/dxg known to be there: without it no GPU reached the distribution at all, which
	 * is driver.wsl-no-gpu-paravirtualization's */
	if (!on_wsl2(root, NULL) || !snap_get_bool_default(root, "host.wsl.dxg_device", false))
		return;
	rocm = amd_chosen_rocm(root);
	rv = snap_get_str(rocm, "version");
	if (!needs_dxg_detection(rv))
		return;
	if (!rule_need_known(c, NULL, "the process's environment", envn))
		return;
	v = snap_get_str(root, "environment.HSA_ENABLE_DXG_DETECTION");
	if (v && streq(v, "1"))
		return;
	/* the Windows driver's libcuda in /usr/lib/wsl/lib: the host's GPU may be NVIDIA's, for
	 * which ROCm has nothing to find; only a warning then */
	lib = snap_get(root, "driver.userspace.libcuda");
	if (snap_get_str(lib, "resolved_path") &&
	    strncmp(snap_get_str(lib, "resolved_path"), "/usr/lib/wsl/", 13) == 0)
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
				 "WSL2 with ROCm %s: if the Windows host's GPU is AMD's, this "
				 "ROCm's runtime looks for it through /dev/dxg only with "
				 "HSA_ENABLE_DXG_DETECTION=1, which the environment %s",
				 rv, v ? "sets to another value" : "lacks");
	else
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
				 "WSL2 with ROCm %s: its runtime (ROCr) looks for the GPU through "
				 "/dev/dxg only with HSA_ENABLE_DXG_DETECTION=1, which the "
				 "environment %s: rocminfo says \"hsa_init Failed, possibly no "
				 "supported GPU devices\" and HIP finds no GPU",
				 rv, v ? "sets to another value" : "lacks");
	finding_fact(f, "host.wsl.dxg_device", dxg);
	finding_fact(f, "host.kernel_release", snap_get(root, "host.kernel_release"));
	finding_fact(f, "runtime.rocm.version", snap_child(rocm, "version"));
	if (v)
		finding_fact(f, "environment.HSA_ENABLE_DXG_DETECTION",
			     snap_get(root, "environment.HSA_ENABLE_DXG_DETECTION"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* ---- runtime.rocm-wsl-librocdxg-not-found ------------------------------------------------ */

/* librocdxg installed at /opt/rocm/lib (runtime.rocm_wsl, probe/rocm-wsl.c) where the dynamic
 * loader does not find it: ROCr's dlopen("librocdxg.so") fails, whatever ROCm release (an
 * /opt/rocm-X.Y.Z or a venv's wheels) loads it (ROCm/librocdxg#46). */
RULE_CHECK(check_rocm_wsl_librocdxg_not_found)
{
	const struct snap_node *o = snap_get(root, "runtime.rocm_wsl");
	const struct snap_node *lib = snap_child(o, "librocdxg");
	const struct snap_node *file = snap_child(o, "librocdxg_file");
	const struct snap_node *path = snap_child(lib, "path");
	struct finding *f;

	if (!o || !on_wsl2(root, NULL))
		return; /* written only where /dev/dxg is a character device */
	if (!rule_need_known(c, NULL, "/opt/rocm/lib/librocdxg.so", file) || !snap_present(file))
		return;
	if (snap_child(lib, "undetermined")) {
		rule_need_known(c, NULL, "the dynamic loader's search for librocdxg.so",
				snap_child(lib, "undetermined"));
		return;
	}
	if (!rule_need_known(c, NULL, "the dynamic loader's search for librocdxg.so", path) ||
	    snap_present(path))
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "WSL2: librocdxg, ROCm's bridge to /dev/dxg, is installed at %s, but the "
			 "dynamic loader does not find librocdxg.so (not on LD_LIBRARY_PATH, not "
			 "in ld.so.cache): ROCm says \"Cannot load librocdxg.so\" and finds no GPU",
			 snap_str(file));
	finding_fact(f, "runtime.rocm_wsl.librocdxg_file", file);
	finding_fact(f, "runtime.rocm_wsl.librocdxg.path", path);
	finding_fact(f, "environment.LD_LIBRARY_PATH",
		     snap_get(root, "environment.LD_LIBRARY_PATH"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}
