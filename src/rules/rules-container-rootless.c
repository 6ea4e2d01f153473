// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * container.rootless-no-cgroups: a container engine that runs without real root, with the
 * NVIDIA Container Toolkit's hook left to set up the GPU's device cgroup.
 *
 * The hook (nvidia-container-runtime-hook, or the nvidia runtime in its legacy mode) runs
 * nvidia-container-cli, which allows the GPU's device nodes in the container's device
 * cgroup: the devices controller's devices.allow on cgroup v1, a BPF device program on v2.
 * Neither can be done without real root ("The bpf device cgroup requires real root",
 * lxc/lxc#3199), so under rootless Docker, rootless podman or Docker in an unprivileged LXC
 * container every container given the GPU fails to start: "nvidia-container-cli: mount
 * error: open failed: /sys/fs/cgroup/devices/user.slice/devices.allow: permission denied"
 * (v1: moby/moby#38729, NVIDIA/nvidia-docker#1155) or "mount error: failed to add device
 * rules: unable to find any existing device filters attached to the cgroup:
 * bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted" (v2:
 * NVIDIA/libnvidia-container#154, NVIDIA/nvidia-container-toolkit#85). The maintainer in #154:
 * running rootless never gives libnvidia-container permission to modify cgroups, and "the
 * only way to make this work" is no-cgroups = true in /etc/nvidia-container-runtime/config.toml
 * (NVIDIA's install guide, "Rootless mode"; the option was added for nvidia-container-cli in
 * unprivileged LXC, NVIDIA/nvidia-container-runtime#25). CDI (nvidia-ctk cdi generate,
 * --device nvidia.com/gpu=all) does not go through nvidia-container-cli and needs no such
 * setting (the maintainer in NVIDIA/nvidia-container-toolkit#56): a runtime in "cdi" mode is
 * not judged.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"

#define HOST "container.host."

/* The first sign that an engine of this tree runs without real root, said in who; *key and
 * *fact the fact that shows it. */
static bool rootless_engine(const struct snap_node *root, char *who, size_t len, const char **key,
			    const struct snap_node **fact)
{
	const struct snap_node *userns = snap_get(root, HOST "rootless.user_namespace");
	const struct snap_node *socks = snap_get(root, HOST "rootless.docker_sockets");
	const struct snap_node *dh = snap_get(root, HOST "rootless.docker_host");
	bool b;

	if (snap_present(userns) && snap_bool(userns, &b) && b) {
		snprintf(who, len,
			 "this system runs in a user namespace (%s is not the host's identity "
			 "map: an unprivileged container such as an LXC one), so its container "
			 "engine has no real root",
			 snap_source(userns) ?: "/proc/self/uid_map");
		*key = HOST "rootless.user_namespace";
		*fact = userns;
		return true;
	}
	if (snap_count(socks) > 0) {
		snprintf(who, len, "rootless Docker runs here (its daemon socket %s)",
			 snap_str(snap_at(socks, 0)) ?: "?");
		*key = HOST "rootless.docker_sockets";
		*fact = socks;
		return true;
	}
	if (snap_present(dh) && strstr(snap_str(dh) ?: "", "/run/user/")) {
		snprintf(who, len,
			 "DOCKER_HOST=%s names a per-user daemon socket, a rootless engine's",
			 snap_str(dh));
		*key = HOST "rootless.docker_host";
		*fact = dh;
		return true;
	}
	return false;
}

RULE_CHECK(check_rootless_no_cgroups)
{
	const struct snap_node *cli = snap_get(root, HOST "toolkit.binaries.nvidia-container-cli");
	const struct snap_node *file = snap_get(root, HOST "toolkit.config.file");
	const struct snap_node *nocg =
		snap_get(root, HOST "toolkit.config.nvidia-container-cli.no-cgroups");
	const struct snap_node *mode =
		snap_get(root, HOST "toolkit.config.nvidia-container-runtime.mode");
	const struct snap_node *ctk = snap_get(root, HOST "toolkit.binaries.nvidia-ctk");
	const struct snap_node *by = NULL;
	const char *key = NULL;
	char who[256];
	struct finding *f;
	bool b;

	/* no nvidia-container-cli: nothing here sets device cgroups for a container */
	if (!snap_present(cli))
		return;
	if (!rootless_engine(root, who, sizeof(who), &key, &by)) {
		/* no sign of a rootless engine: said as could-not-tell where a sign could not be
		 * looked for (another user's runtime directory, an unreadable uid_map or
		 * /run/user) */
		const struct snap_node *userns = snap_get(root, HOST "rootless.user_namespace");
		const struct snap_node *socks = snap_get(root, HOST "rootless.docker_sockets");
		const struct snap_node *unread =
			snap_get(root, HOST "rootless.runtime_dirs_unreadable");

		if (snap_count(unread) > 0)
			rule_skip(c, "nvidia-container-cli",
				  "could not look for a rootless Docker's socket: %s (permission "
				  "denied)",
				  snap_str(snap_at(unread, 0)) ?: "?");
		else if (userns)
			rule_need_known(c, "nvidia-container-cli", "the user namespace", userns);
		if (socks)
			rule_need_known(c, "nvidia-container-cli", "rootless Docker's sockets",
					socks);
		return;
	}
	if (!rule_need_known(c, "nvidia-container-cli", "the toolkit's config.toml", file) ||
	    (snap_present(file) &&
	     (!rule_need_known(c, "nvidia-container-cli", "no-cgroups in config.toml", nocg) ||
	      !rule_need_known(c, "nvidia-container-cli", "the nvidia runtime's mode", mode))))
		return;
	if (snap_present(nocg) && snap_bool(nocg, &b) && b)
		return;
	if (snap_present(mode) && streq(snap_str(mode) ?: "", "cdi"))
		return;
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, "nvidia-container-cli",
		"%s, and the NVIDIA Container Toolkit's hook will have nvidia-container-cli set up "
		"the GPU's device cgroup (%s), which only real root can: every "
		"container given the GPU with --gpus or NVIDIA_VISIBLE_DEVICES fails to start "
		"(\"nvidia-container-cli: mount error: … devices.allow: permission denied\" on "
		"cgroup v1, \"… bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted\" "
		"on v2)",
		who,
		!snap_present(file)
			? "there is no /etc/nvidia-container-runtime/config.toml: no-cgroups is "
			  "false by default"
		: snap_present(nocg)
			? "no-cgroups = false in /etc/nvidia-container-runtime/config.toml"
			: "/etc/nvidia-container-runtime/config.toml does not set no-cgroups: "
			  "false by default");
	if (snap_count(by) > 0) /* the socket list */
		finding_evidence(f, key, "/run/user", "%zu socket(s): %s", snap_count(by),
				 snap_str(snap_at(by, 0)) ?: "?");
	else
		finding_fact(f, key, by);
	finding_fact(f, HOST "toolkit.binaries.nvidia-container-cli", cli);
	finding_fact(f, HOST "toolkit.config.file", file);
	if (snap_present(file))
		finding_fact(f, HOST "toolkit.config.nvidia-container-cli.no-cgroups", nocg);
	if (snap_get(root, HOST "cgroup_v2"))
		finding_fact(f, HOST "cgroup_v2", snap_get(root, HOST "cgroup_v2"));
	if (snap_present(ctk))
		finding_fix(f,
			    "sudo nvidia-ctk config --set nvidia-container-cli.no-cgroups "
			    "--in-place   # NVIDIA's rootless setup; where this nvidia-ctk has no "
			    "`config` command, the line below");
	finding_fix(f, "# in /etc/nvidia-container-runtime/config.toml, under "
		       "[nvidia-container-cli]: no-cgroups = true (replacing a no-cgroups = false "
		       "or #no-cgroups line)");
	finding_fix(f, "# a rootful engine on the same host then gets no device cgroup from the "
		       "hook either (NVIDIA/nvidia-container-toolkit#85); CDI serves both without "
		       "this setting: sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml, "
		       "then podman run --device nvidia.com/gpu=all …");
	finding_rule_verify(f);
}
