// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Are we inside a container, and which GPUs can it see? Markers, each recorded with its
 * source: /.dockerenv (created by Docker in every container), /run/.containerenv (Podman,
 * containers/common docs), /proc/1/cgroup lines naming docker/kubepods/containerd/libpod
 * (cgroups(7) format "hierarchy-ID:controllers:path"), and an overlay root in
 * /proc/self/mountinfo (proc(5): field 5 is the mount point, the fs type follows " - ").
 * The GPU requests come from the environment overlay (NVIDIA container toolkit variables,
 * docs.nvidia.com/datacenter/cloud-native "Specialized configurations with Docker").
 * Writes "container".
 */
#include <errno.h>
#include <string.h>

#include "probe.h"
#include "shared/strv.h"

static void probe_cgroup(struct probe_env *pe, struct snap_node *c)
{
	static const char path[] = "/proc/1/cgroup";
	static const char *const engines[] = { "kubepods", "docker", "containerd", "libpod", "lxc" };
	_cleanup_free_ char *text = NULL;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(c, "cgroup_engine", err, path);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		if (strstr(text, engines[i])) {
			snap_set_str(c, "cgroup_engine", engines[i], path);
			return;
		}
	/* cgroup v2 inside a namespace shows "0::/": no engine named, not proof of a host. */
	snap_set_state(c, "cgroup_engine", FACT_ABSENT, path, "no container engine in cgroup paths");
}

static void probe_mountinfo(struct probe_env *pe, struct snap_node *c)
{
	static const char path[] = "/proc/self/mountinfo";
	_cleanup_free_ char *text = NULL;
	char *state, *line;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(c, "root_fs_type", err, path);
		return;
	}
	state = text;
	while ((line = line_next(&state))) {
		_cleanup_strv_free_ char **f = NULL;
		char *sep = strstr(line, " - ");

		if (!sep || strv_split(line, " ", &f) < 0 || strv_length(f) < 5)
			continue;
		if (strcmp(f[4], "/") != 0)
			continue;
		sep += 3;
		sep[strcspn(sep, " ")] = '\0';
		snap_set_str(c, "root_fs_type", sep, path);
		return;
	}
	snap_set_malformed(c, "root_fs_type", NULL, path, "no mount of /");
}

int probe_container(struct probe_env *pe, struct snapshot *s)
{
	static const char *const markers[][2] = {
		{ "dockerenv", "/.dockerenv" },
		{ "containerenv", "/run/.containerenv" },
	};
	static const char *const vars[] = {
		"NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA",
		"CUDA_VISIBLE_DEVICES",
	};
	struct snap_node *c = snap_object(snapshot_root(s), "container");
	struct snap_node *req = snap_object(c, "requested");

	for (size_t i = 0; i < ARRAY_SIZE(markers); i++) {
		struct stat st;
		int err = root_stat(pe->root, markers[i][1], &st);

		if (err < 0)
			snap_set_errno(c, markers[i][0], err, markers[i][1]);
		else
			snap_set_bool(c, markers[i][0], true, markers[i][1]);
	}
	probe_cgroup(pe, c);
	probe_mountinfo(pe, c);
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = env_get(pe->env, vars[i]);

		if (v)
			snap_set_str(req, vars[i], v, "environment");
		else
			snap_set_state(req, vars[i], FACT_ABSENT, "environment", NULL);
	}
	return snapshot_error(s);
}
