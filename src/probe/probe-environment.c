// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The environment variables that decide which GPU libraries and devices a process uses,
 * read through the environment overlay (the live environment, or a fixture's / --env-file's).
 * Names: CUDA (CUDA C++ Programming Guide, "CUDA Environment Variables"), ROCm (HIP
 * documentation, "environment variables"), the NVIDIA container toolkit (NVIDIA_*), the
 * dynamic loader (ld.so(8)). Every variable of the list is recorded, set or absent, plus any
 * TF_* / XLA_FLAGS key. Writes "environment".
 */
#include <string.h>

#include "probe.h"

static const char *const gpu_env_vars[] = {
	"PATH",
	"LD_LIBRARY_PATH",
	"LD_PRELOAD",
	"CUDA_HOME",
	"CUDA_PATH",
	"CUDA_VISIBLE_DEVICES",
	"CUDA_DEVICE_ORDER",
	"CUDA_MODULE_LOADING",
	"HIP_VISIBLE_DEVICES",
	"ROCR_VISIBLE_DEVICES",
	"HSA_OVERRIDE_GFX_VERSION",
	"NVIDIA_VISIBLE_DEVICES",
	"NVIDIA_DRIVER_CAPABILITIES",
	"NVIDIA_REQUIRE_CUDA",
	"CUDA_VERSION",
	"CONDA_PREFIX",
	"VIRTUAL_ENV",
	"XLA_FLAGS",
};

int probe_environment(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *envn = snap_object(snapshot_root(s), "environment");
	char *const *all = env_list(pe->env);

	for (size_t i = 0; i < ARRAY_SIZE(gpu_env_vars); i++) {
		const char *v = env_get(pe->env, gpu_env_vars[i]);

		if (v)
			snap_set_str(envn, gpu_env_vars[i], v, "environment");
		else
			snap_set_state(envn, gpu_env_vars[i], FACT_ABSENT, "environment", NULL);
	}
	/* TensorFlow's GPU keys (TF_FORCE_GPU_ALLOW_GROWTH, TF_GPU_ALLOCATOR, TF_CUDA_PATHS …):
	 * TF_* names that mention GPU or CUDA, not every TF_ (Terraform uses TF_ too). */
	for (size_t i = 0; all && all[i]; i++) {
		const char *eq = strchr(all[i], '=');
		char key[128];

		if (!startswith(all[i], "TF_") || !eq || (size_t)(eq - all[i]) >= sizeof(key))
			continue;
		memcpy(key, all[i], (size_t)(eq - all[i]));
		key[eq - all[i]] = '\0';
		if (!strstr(key, "GPU") && !strstr(key, "CUDA"))
			continue;
		snap_set_str(envn, key, eq + 1, "environment");
	}
	return snapshot_error(s);
}
