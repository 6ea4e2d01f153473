// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The environment variables that decide which GPU libraries and devices a process uses,
 * read through the environment overlay (the live environment, or a fixture's / --env-file's).
 * The names are formats/gpu-names.h's, shared with gpuenv explain's env reader. Every variable of the list is recorded, set or absent, plus any
 * TF_* / XLA_FLAGS key. Writes "environment".
 */
#include <string.h>

#include "formats/gpu-names.h"
#include "probe.h"

int probe_environment(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *envn = snap_object(snapshot_root(s), "environment");
	char *const *all = env_list(pe->env);

	for (size_t i = 0; gpu_env_vars[i]; i++) {
		const char *v = env_get(pe->env, gpu_env_vars[i]);

		if (v)
			snap_set_str(envn, gpu_env_vars[i], v,
				     probe_env_source(pe, gpu_env_vars[i]));
		else
			snap_set_state(envn, gpu_env_vars[i], FACT_ABSENT, "environment", NULL);
	}
	/* TensorFlow's GPU keys (gpu_env_var_tf()) */
	for (size_t i = 0; all && all[i]; i++) {
		const char *eq = strchr(all[i], '=');
		char key[128];

		if (!startswith(all[i], "TF_") || !eq || (size_t)(eq - all[i]) >= sizeof(key))
			continue;
		memcpy(key, all[i], (size_t)(eq - all[i]));
		key[eq - all[i]] = '\0';
		if (!gpu_env_var_tf(key))
			continue;
		snap_set_str(envn, key, eq + 1, probe_env_source(pe, key));
	}
	return snapshot_error(s);
}
