// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * container.docker-desktop-context: the docker CLI talks to Docker Desktop's engine, which
 * runs in a virtual machine with no NVIDIA GPU and no NVIDIA Container Toolkit.
 *
 * Docker Desktop for Linux runs its own engine in a VM and, when it starts, makes its context
 * (desktop-linux, endpoint ~/.docker/desktop/docker.sock) the docker CLI's current one
 * (docs.docker.com, "Docker Desktop for Linux", "Docker Desktop and Docker Engine"). The
 * toolkit installed on the host configures the host's Docker Engine, which that CLI no longer
 * reaches: `docker run --gpus all` answers "could not select device driver "" with
 * capabilities: [[gpu]]". The maintainer in NVIDIA/nvidia-container-toolkit#83: "Docker
 * Desktop uses a VM to run containers, and this does not have the NVIDIA Container Toolkit
 * installed … The recommendation is to use Docker Engine" (#175: only docker-ce is supported,
 * not Docker Desktop on Linux; there `sudo docker`, root's default context, worked). The
 * reporter of #814 found the desktop-linux context current after installing Docker Desktop.
 * Some Docker Desktop releases answer with a hook's "load library failed: libnvidia-ml.so.1"
 * instead (NVIDIA/nvidia-docker#1717, not settled there).
 * WSL2 is the exception (Docker Desktop for Windows brings the toolkit there): not judged.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"

#define HOST	     "container.host."
#define DESKTOP_SOCK "/.docker/desktop/docker.sock"

static bool desktop_endpoint(const char *host)
{
	size_t n = strlen(host), k = strlen(DESKTOP_SOCK);

	return n >= k && streq(host + n - k, DESKTOP_SOCK);
}

RULE_CHECK(check_docker_desktop_context)
{
	static const char *const bins[] = { "nvidia-ctk", "nvidia-container-cli",
					    "nvidia-container-runtime",
					    "nvidia-container-runtime-hook",
					    "nvidia-container-toolkit" };
	const struct snap_node *ctx = snap_get(root, HOST "docker_cli.current_context");
	const struct snap_node *host = snap_get(root, HOST "docker_cli.context_host");
	const struct snap_node *dockerd = snap_get(root, HOST "docker.dockerd");
	const struct snap_node *tk = NULL;
	const char *name, *ep = NULL;
	char bin[96];
	struct finding *f;

	if (!ctx || on_wsl2(root, NULL))
		return;
	if (!rule_need_known(c, "docker", "the docker CLI's current context", ctx) ||
	    !snap_present(ctx))
		return;
	name = snap_str(ctx) ?: "";
	if (snap_present(host))
		ep = snap_str(host);
	if (!(ep ? desktop_endpoint(ep) : streq(name, "desktop-linux")))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(bins) && !tk; i++) {
		snprintf(bin, sizeof(bin), HOST "toolkit.binaries.%s", bins[i]);
		if (snap_present(snap_get(root, bin)))
			tk = snap_get(root, bin);
	}
	/* no toolkit on the host: no GPU container was set up to be lost here; where the host's
	 * binaries were not looked at (a paste read by explain) the context alone is judged */
	if (!tk && snap_get(root, HOST "toolkit.binaries"))
		return;
	f = rule_finding(
		c, GPUENV_SEVERITY_ERROR, "docker",
		"the docker CLI's current context is %s%s%s%s: Docker Desktop's engine, "
		"which runs containers in a virtual machine without this host's GPU, "
		"driver or NVIDIA Container Toolkit, so `docker run --gpus` fails (\"could "
		"not select device driver \"\" with capabilities: [[gpu]]\"); %s%s%s "
		"serves the host's Docker Engine, which this CLI does not reach",
		name, ep ? " (" : "", ep ?: "", ep ? ")" : "",
		tk ? "the toolkit here (" : "the NVIDIA Container Toolkit",
		tk ? snap_str(tk) ?: "?" : "", tk ? ")" : "");
	finding_fact(f, HOST "docker_cli.current_context", ctx);
	if (ep)
		finding_fact(f, HOST "docker_cli.context_host", host);
	if (tk)
		finding_fact(f, bin, tk);
	if (snap_present(snap_get(root, HOST "docker_cli.docker_desktop")))
		finding_fact(f, HOST "docker_cli.docker_desktop",
			     snap_get(root, HOST "docker_cli.docker_desktop"));
	if (streq(snap_source(ctx) ?: "", "environment"))
		finding_fix(f, "unset DOCKER_CONTEXT   # it names Docker Desktop's context");
	if (snap_present(dockerd)) {
		finding_fact(f, HOST "docker.dockerd", dockerd);
		finding_fix(f, "docker context use default   # the host's Docker Engine "
			       "(/var/run/docker.sock), the one the toolkit configures");
	} else {
		finding_fix(f,
			    "# install Docker Engine (docs.docker.com/engine/install), then: "
			    "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl "
			    "restart docker && docker context use default");
	}
	finding_fix(
		f, "# Docker Desktop sets its context again when it starts: quit it, or use "
		   "docker --context default run --gpus all … (NVIDIA/nvidia-container-toolkit#83: "
		   "use Docker Engine)");
	finding_rule_verify(f);
}
