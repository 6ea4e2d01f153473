// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted text for why a container lost, or could not get, its GPU's device cgroup
 * (`gpuenv explain`). The errors reader leaves both messages unsure, since each has more than
 * one cause; what else was pasted can tell:
 * - NVML's "Failed to initialize NVML: Unknown Error" is what missing /dev/nvidia* print, and
 *   what a running container prints once systemd re-applied its device rules: runc hands
 *   systemd the nodes by their /dev/char/MAJOR:MINOR links, which the NVIDIA nodes lack, so a
 *   `systemctl daemon-reload` takes the GPU away (NVIDIA's notice NVIDIA/nvidia-docker#1730,
 *   = nvidia-container-toolkit#48; NVIDIA/nvidia-docker#1671). With the host's reload in the
 *   same text, the command (`systemctl daemon-reload`) or systemd's own line (PID 1's
 *   "systemd[1]: Reloading."), the line is container.dev-char-links-missing's symptom.
 * - nvidia-container-cli's "failed to add device rules: … bpf_prog_query(BPF_CGROUP_DEVICE)
 *   failed: operation not permitted" (cgroup v2) or "devices.allow: permission denied" (v1)
 *   is a rootless engine's lot (NVIDIA/libnvidia-container#154, NVIDIA/nvidia-container-
 *   toolkit#85), but libnvidia-container 1.8.0 printed the v2 line as root too (its #151).
 *   With a rootless engine in the same text, the line is container.rootless-no-cgroups'
 *   symptom: rootless Docker's socket ($XDG_RUNTIME_DIR/docker.sock, /run/user/UID/docker.sock
 *   in DOCKER_HOST or a client's error; Docker's "Run the Docker daemon as a non-root user"),
 *   `docker info`'s security option "rootless" (name=rootless with --format), or podman
 *   info's "rootless: true".
 * Each symptom is written as "symptoms.<rule id>" at its line, and the line that decides it as
 * "symptoms_with.<rule id>" at its own, which the rule's finding cites beside it
 * (rules-engine.c symptom_finding); without the deciding line nothing is written, and explain
 * asks as before.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

/* nvidia-container-cli refused the device cgroup (the errors reader's two rows' lines). */
static bool cgroup_refused(const char *s)
{
	if (!strstr(s, "nvidia-container-cli"))
		return false;
	return strstr(s, "bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted") ||
	       (strstr(s, "failed to add device rules") &&
		(strstr(s, "operation not permitted") || strstr(s, "permission denied"))) ||
	       strstr(s, "devices.allow: permission denied");
}

/* The host's units reloaded: the command, or PID 1's own line ("Reloading.", and systemd 253's
 * "Reloading requested from client PID …"); a user manager's (systemd[<pid>]) is not it. */
static bool daemon_reload(const char *s)
{
	return strstr(s, "systemctl daemon-reload") || strstr(s, "systemd[1]: Reloading");
}

/* A rootless engine shown: its socket under the user's runtime directory, docker info's
 * security option, podman info's answer. */
static bool rootless_shown(const char *s)
{
	const char *sock = strstr(s, "docker.sock");

	if (sock && (strstr(s, "/run/user/") || strstr(s, "$XDG_RUNTIME_DIR/docker.sock") ||
		     strstr(s, "${XDG_RUNTIME_DIR}/docker.sock")))
		return true;
	return strcmp(s, "rootless") == 0 || strstr(s, "name=rootless") ||
	       strcmp(s, "rootless: true") == 0;
}

int pasted_read_container_cgroup(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "container-cgroup" };
	struct pasted_first_line nvml = { 0 }, reload = { 0 }, refused = { 0 }, rootless = { 0 };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		const char *s = pasted_strip(line);

		if (strstr(s, "Failed to initialize NVML: Unknown Error"))
			pasted_keep_first_line(&nvml, it.no, s);
		else if (cgroup_refused(s))
			pasted_keep_first_line(&refused, it.no, s);
		if (daemon_reload(s))
			pasted_keep_first_line(&reload, it.no, s);
		if (rootless_shown(s))
			pasted_keep_first_line(&rootless, it.no, s);
	}
	pasted_lines_done(&it);
	if (nvml.line && reload.line) {
		pasted_put(&o, nvml.line, nvml.text, "symptoms.container.dev-char-links-missing");
		pasted_put(&o, reload.line, reload.text,
			   "symptoms_with.container.dev-char-links-missing");
	}
	if (refused.line && rootless.line) {
		pasted_put(&o, refused.line, refused.text,
			   "symptoms.container.rootless-no-cgroups");
		pasted_put(&o, rootless.line, rootless.text,
			   "symptoms_with.container.rootless-no-cgroups");
	}
	return pasted_out_result(&o);
}
