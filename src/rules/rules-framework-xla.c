// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * framework.xla-toolchain-missing: a CUDA jax whose XLA finds no libdevice or no ptxas
 * (packages.jax.xla, src/probe/framework-xla.c says where XLA looks and why). XLA compiles
 * every program at run time: without libdevice.10.bc a kernel that calls a math routine fails
 * ("libdevice not found at ./libdevice.10.bc", jax-ml/jax#6323, #22590), without ptxas the
 * PTX is not assembled ("Couldn't get ptxas version string", "Failed to launch ptxas",
 * jax-ml/jax#7239; since 2023 "Couldn't find a suitable version of ptxas", XLA's fall-back to
 * the driver's compiler being off unless --xla_gpu_unsafe_fallback_to_driver_on_ptxas_not_found
 * is given). Both come from the nvidia-cuda-nvcc-cu12 wheel that `jax[cuda12]` installs, or
 * from a toolkit's nvcc component in a place XLA searches; XLA_FLAGS=--xla_gpu_cuda_data_dir
 * names any other toolkit.
 */
#include <stdio.h>

#include "rules/rules-internal.h"
#include "shared/macro.h"

/* A jax plugin's CUDA major (jax-cuda12-plugin → 12), 0 when it has none. */
static int64_t cuda_plugin_major(const struct snap_node *jax)
{
	const struct snap_node *pl = snap_child(jax, "plugins");

	for (size_t i = 0; i < snap_count(pl); i++) {
		const struct snap_node *p = snap_at(pl, i);
		int64_t major;

		if (streq(snap_get_str(p, "platform") ?: "", "cuda") &&
		    snap_get_int(p, "major", &major))
			return major;
	}
	return 0;
}

static void fix_lines(struct finding *f, const struct snap_node *x, int64_t major)
{
	const char *top = snap_get_str(x, "path_toolkit");

	if (top)
		finding_fix(f, "export XLA_FLAGS=--xla_gpu_cuda_data_dir=%s", top);
	else if (major < 12 && snap_state(snap_child(x, "libdevice")) == FACT_ABSENT)
		finding_fix(f, "export XLA_FLAGS=--xla_gpu_cuda_data_dir=<a CUDA toolkit that has "
			       "nvvm/libdevice>");
	if (major < 12 && snap_state(snap_child(x, "ptxas")) == FACT_ABSENT)
		finding_fix(f,
			    "export PATH=<a CUDA toolkit>/bin:$PATH   # XLA takes ptxas from PATH "
			    "first");
	if (major >= 12)
		finding_fix(f,
			    "pip install -U \"jax[cuda%lld]\"   # installs the nvidia-cuda-nvcc "
			    "wheel, which holds ptxas and libdevice",
			    (long long)major);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

static void judge(struct rule_ctx *c, const struct snap_node *env, size_t i)
{
	const struct snap_node *jax = snap_get(env, "packages.jax");
	const struct snap_node *x = snap_child(jax, "xla");
	const struct snap_node *ld = snap_child(x, "libdevice"), *px = snap_child(x, "ptxas");
	const char *prefix = snap_get_str(env, "prefix") ?: "?";
	bool no_ld = snap_state(ld) == FACT_ABSENT, no_px = snap_state(px) == FACT_ABSENT;
	struct finding *f;
	char key[128];

	if (!x)
		return;
	if (!no_ld && !snap_present(ld))
		rule_need_known(c, prefix, "where XLA finds libdevice", ld);
	if (!no_px && !snap_present(px))
		rule_need_known(c, prefix, "where XLA finds ptxas", px);
	if (!no_ld && !no_px)
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, prefix,
			 "jax in %s compiles its GPU code with XLA at run time, and none of the "
			 "places XLA searches holds %s%s%s: %s",
			 prefix, no_ld ? "libdevice (nvvm/libdevice/libdevice.10.bc)" : "",
			 no_ld && no_px ? " or " : "", no_px ? "ptxas" : "",
			 no_ld ? "a kernel that calls a math routine fails (\"libdevice not found "
				 "at ./libdevice.10.bc\")"
			       : "its PTX is not assembled (\"Couldn't find a suitable version of "
				 "ptxas\")");
	snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.jax.xla.libdevice", i);
	finding_fact(f, key, ld);
	snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.jax.xla.ptxas", i);
	finding_fact(f, key, px);
	snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.jax.xla.roots", i);
	finding_names_evidence(f, key, "XLA's CUDA roots; ptxas: PATH first, then their bin/",
			       snap_child(x, "roots"));
	if (snap_child(x, "cuda_data_dir") && snap_present(snap_child(x, "cuda_data_dir"))) {
		snprintf(key, sizeof(key),
			 "framework.python_envs.%zu.packages.jax.xla.cuda_data_dir", i);
		finding_fact(f, key, snap_child(x, "cuda_data_dir"));
	}
	if (snap_get_str(x, "path_toolkit"))
		finding_evidence(f, "toolkit on PATH", snap_get_str(x, "path_toolkit"),
				 "%s/bin holds the ptxas on PATH and %s/nvvm/libdevice holds "
				 "libdevice, a place XLA does not search unless XLA_FLAGS names it",
				 snap_get_str(x, "path_toolkit"), snap_get_str(x, "path_toolkit"));
	fix_lines(f, x, cuda_plugin_major(jax));
}

RULE_CHECK(check_fw_xla_toolchain)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");
	const char *version;
	size_t n = 0;

	for (size_t i = 0; i < snap_count(envs); i++)
		n += snap_get(snap_at(envs, i), "packages.jax.xla") != NULL;
	if (!n)
		return; /* no CUDA jax: nothing to judge */
	fw_need_complete(c, root);
	/* Without a GPU and its driver, jax runs on the CPU and needs neither. */
	if (!rule_nvidia_driver(c, root, "the NVIDIA driver jax's CUDA backend runs on", &version,
				NULL))
		return;
	for (size_t i = 0; i < snap_count(envs); i++)
		judge(c, snap_at(envs, i), i);
}
