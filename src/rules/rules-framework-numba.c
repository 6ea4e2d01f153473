// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * framework.numba-nvvm-not-found: numba's CUDA target compiles every @cuda.jit kernel with
 * libNVVM, which it does not ship; in the place it decides on (packages.numba.nvvm,
 * src/probe/framework-numba.c says which and why) there is none, and the loader finds no
 * bare libnvvm.so either, so the first kernel fails: "NvvmSupportError: libNVVM cannot be
 * found. Do `conda install cudatoolkit`: libnvvm.so: cannot open shared object file"
 * (numba/numba#9216, where CUDA_HOME was set to a list, "$CUDA_HOME:/usr/local/cuda-11.8",
 * and numba looked in "<that list>/nvvm/lib64"; setting CUDA_HOME to the one toolkit fixed
 * it). CUDA_HOME or CUDA_PATH set is where numba stops looking, whether or not it holds the
 * library: a toolkit in /usr/local/cuda is then not found.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/macro.h"

static void fix_lines(struct finding *f, const struct snap_node *nv, const struct snap_node *env)
{
	const char *var = snap_get_str(nv, "env.name"),
		   *member = snap_get_str(nv, "env.list_member");
	bool conda = snap_get_str(env, "kind") && streq(snap_get_str(env, "kind"), "conda");

	const char *later = snap_get_str(nv, "loader_path");

	if (later) {
		finding_fix(f,
			    "pip install -U 'numba>=0.48'   # from 0.48 numba asks the loader for "
			    "libnvvm.so, which finds %s (numba/numba#5016)",
			    later);
		finding_rule_verify(f);
		return;
	}
	if (var && member)
		finding_fix(f,
			    "export %s=%s   # one directory, not a list: numba joins nvvm/lib64 "
			    "to the whole value",
			    var, member);
	else if (var)
		finding_fix(f,
			    "export %s=<the CUDA toolkit whose nvvm/lib64 holds libnvvm.so>   # "
			    "or unset it: numba looks nowhere else once it is set",
			    var);
	if (!member && conda)
		finding_fix(f, "conda install -c nvidia cuda-nvcc   # libNVVM into the environment "
			       "(<prefix>/nvvm/lib64), where numba looks first");
	else if (!member)
		finding_fix(f, "pip install numba-cuda nvidia-cuda-nvcc-cu12   # numba-cuda finds "
			       "libNVVM in that wheel");
	finding_rule_fix(f);
	finding_rule_verify(f);
}

static void judge(struct rule_ctx *c, const struct snap_node *env, size_t i)
{
	const struct snap_node *nv = snap_get(env, "packages.numba.nvvm");
	const struct snap_node *path = snap_child(nv, "path");
	const char *prefix = snap_get_str(env, "prefix") ?: "?";
	const char *by = snap_get_str(nv, "decided_by") ?: "<unknown>";
	const char *dir = snap_get_str(nv, "dir"), *later = snap_get_str(nv, "loader_path");
	struct finding *f;
	char key[128], where[512], tail[512];

	if (!nv)
		return;
	if (snap_state(path) != FACT_ABSENT) {
		if (!snap_present(path))
			rule_need_known(c, prefix, "where numba finds libNVVM", path);
		return;
	}
	if (dir)
		snprintf(where, sizeof(where),
			 "the place it decides on (%s: %s) holds no "
			 "libnvvm.so.<version>",
			 by, dir);
	else
		snprintf(where, sizeof(where), "no place it searches is there");
	if (later)
		snprintf(tail, sizeof(tail),
			 "and numba before 0.48 does not ask the loader, "
			 "which would give it %s",
			 later);
	else
		snprintf(tail, sizeof(tail), "and the loader finds no libnvvm.so");
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, prefix,
			 "numba in %s compiles its CUDA kernels with libNVVM and finds none: %s "
			 "%s, so the first kernel fails (\"NvvmSupportError: libNVVM cannot be "
			 "found\")",
			 prefix, where, tail);
	snprintf(key, sizeof(key), "framework.python_envs.%zu.packages.numba.nvvm.path", i);
	finding_fact(f, key, path);
	if (snap_get_str(nv, "loader_path")) {
		snprintf(key, sizeof(key),
			 "framework.python_envs.%zu.packages.numba.nvvm.loader_path", i);
		finding_fact(f, key, snap_child(nv, "loader_path"));
	}
	if (snap_get_str(nv, "env.name")) {
		const char *v = snap_get_str(nv, "env.value") ?: "";

		finding_evidence(f, snap_get_str(nv, "env.name"), "environment", "%s%s", v,
				 strchr(v, ':') ? " (a ':'-separated list: numba takes it as one "
						  "directory)"
						: "");
	}
	fix_lines(f, nv, env);
}

RULE_CHECK(check_fw_numba_nvvm)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");
	const char *version;
	size_t n = 0;

	for (size_t i = 0; i < snap_count(envs); i++)
		n += snap_get(snap_at(envs, i), "packages.numba.nvvm") != NULL;
	if (!n)
		return; /* no numba: nothing to judge */
	fw_need_complete(c, root);
	/* Without an NVIDIA GPU and its driver numba's CUDA target is not used. */
	if (!rule_nvidia_driver(c, root, "the NVIDIA driver numba's CUDA target runs on", &version,
				NULL))
		return;
	for (size_t i = 0; i < snap_count(envs); i++)
		judge(c, snap_at(envs, i), i);
}
