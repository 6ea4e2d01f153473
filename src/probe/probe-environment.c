// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The environment variables that decide which GPU libraries and devices a process uses,
 * read through the environment overlay (the live environment, or a fixture's / --env-file's).
 * The names are formats/gpu-names.h's, shared with gpuenv explain's env reader. Every variable of the list is recorded, set or absent, plus any
 * TF_* / XLA_FLAGS key. Writes "environment". Then what the shell startup files and
 * /etc/environment set of the AMD runtime's overrides (environment.profile_settings): a value
 * there that the judged process does not have is one its parent never read (a service, sudo,
 * cron, an IDE's kernel, a container) or that was added after its shell started.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/root.h"
#include "formats/gpu-names.h"
#include "formats/shell-profile.h"
#include "probe.h"

/* The variables a user sets for ROCm in a profile and a process must inherit. */
static const char *const profile_vars[] = { "HSA_OVERRIDE_GFX_VERSION", "HSA_XNACK",
					    "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", NULL };

/* pam_env's file first (every login), then the shells' startup files in the order bash and
 * zsh read them (bash(1) INVOCATION, zsh(1) STARTUP/SHUTDOWN FILES); "~/" is $HOME. */
static const struct {
	const char *path;
	bool all_exported;
} profile_files[] = {
	{ "/etc/environment", true }, { "/etc/profile", false },    { "/etc/bash.bashrc", false },
	{ "~/.profile", false },      { "~/.bash_profile", false }, { "~/.bashrc", false },
	{ "~/.zshenv", false },	      { "~/.zshrc", false },
};

/* One entry of environment.profile_settings, the array made on the first one. */
static struct snap_node *setting(struct snap_node *envn, struct snap_node **arr)
{
	if (!*arr)
		*arr = snap_array(envn, "profile_settings");
	return snap_append_object(*arr);
}

static void profile_file(struct probe_env *pe, struct snap_node *envn, struct snap_node **arr,
			 const char *path, bool all_exported)
{
	_cleanup_free_ char *text = NULL;
	struct shell_assigns sa;
	struct snap_node *o;
	int r = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (r == -ENOENT || r == -ENOTDIR)
		return;
	if (r < 0) {
		o = setting(envn, arr);
		snap_set_str(o, "file", path, path);
		snap_set_errno(o, "value", r, path);
		return;
	}
	shell_profile_parse(text, strlen(text), profile_vars, all_exported, &sa);
	for (size_t i = 0; i < sa.n; i++) {
		o = setting(envn, arr);
		snap_set_str(o, "file", path, path);
		snap_set_str(o, "name", sa.a[i].name, path);
		if (sa.a[i].truncated)
			snap_set_malformed(o, "value", sa.a[i].value, path, "longer than the cap");
		else
			snap_set_str(o, "value", sa.a[i].value, path);
		snap_set_int(o, "line", (int64_t)sa.a[i].line, path);
		snap_set_bool(o, "exported", sa.a[i].exported, path);
		snap_set_bool(o, "expands", sa.a[i].expands, path);
	}
}

static void probe_profiles(struct probe_env *pe, struct snap_node *envn)
{
	const char *home = env_get(pe->env, "HOME");
	struct snap_node *arr = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(profile_files); i++) {
		const char *p = profile_files[i].path;
		char path[512];

		if (startswith(p, "~/")) {
			if (!home || !*home ||
			    snprintf(path, sizeof(path), "%s/%s", home, p + 2) >= (int)sizeof(path))
				continue;
			p = path;
		}
		profile_file(pe, envn, &arr, p, profile_files[i].all_exported);
	}
}

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
	/* srun(1) and sbatch(1) set it in every job (OUTPUT ENVIRONMENT VARIABLES); recorded only
	 * where set, as most machines run no Slurm job */
	if (env_get(pe->env, "SLURM_JOB_ID"))
		snap_set_str(envn, "SLURM_JOB_ID", env_get(pe->env, "SLURM_JOB_ID"),
			     probe_env_source(pe, "SLURM_JOB_ID"));
	/* ROCr's switch for WSL2's /dev/dxg (ROCm 7.2 to 7.12, rules-amd-wsl.c): recorded only
	 * where set, as only a WSL2 distribution with AMD's ROCm has a use for it */
	if (env_get(pe->env, "HSA_ENABLE_DXG_DETECTION"))
		snap_set_str(envn, "HSA_ENABLE_DXG_DETECTION",
			     env_get(pe->env, "HSA_ENABLE_DXG_DETECTION"),
			     probe_env_source(pe, "HSA_ENABLE_DXG_DETECTION"));
	probe_profiles(pe, envn);
	return snapshot_error(s);
}
