// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `docker context ls` (`gpuenv explain`; docker/cli cli/command/context/list.go:
 * a table headed NAME, DESCRIPTION, DOCKER ENDPOINT [, KUBERNETES ENDPOINT, ORCHESTRATOR], ERROR,
 * one context a row, the current one's name followed by " *"). Facts: what the container-host
 * probe reads from ~/.docker: container.host.docker_cli.current_context (the starred row's
 * name) and .context_host (its endpoint, the first field with "://": unix://, npipe://, tcp://,
 * ssh://). Rows are read only below the header; an empty line ends the table. Docker Desktop's
 * context is "desktop-linux" (NVIDIA/nvidia-container-toolkit#814 pastes it starred).
 * Also the " Context:" line of the Client section that `docker info` and `docker version` print
 * (docker/cli cli/command/system/info.go and version.go: "Client:" or "Client: Docker Engine -
 * Community", then " Version:", " Context:    desktop-linux" …; docker/desktop-linux#213 pastes
 * it): the current context's name, no endpoint. Read up to an empty line or "Server:"; the
 * Server section has no Context line.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define CLI "container.host.docker_cli"

/* A context name as docker/cli allows it (store.ValidateContextName:
 * ^[a-zA-Z0-9][a-zA-Z0-9_.+-]+$). */
static bool context_name(const char *t, size_t n)
{
	static const char ok[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-";

	return n >= 1 && n < 128 && strspn(t, ok) >= n && t[0] != '_' && t[0] != '.' &&
	       t[0] != '+' && t[0] != '-';
}

int pasted_read_docker_context(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "docker-context" };
	struct pasted_lines it;
	bool in_table = false, in_client = false, found = false;
	char *line;

	if (!text ||
	    (!memmem(text, len, "DOCKER ENDPOINT", 15) && !memmem(text, len, "Client:", 7)))
		return 0;
	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0 && !found) {
		char *s = pasted_strip(line), *star, *ep, *end;
		const char *v;
		size_t n;

		if (!*s) {
			in_table = in_client = false;
			continue;
		}
		if (strncmp(s, "Client:", 7) == 0 && (!s[7] || s[7] == ' ')) {
			in_client = true;
			continue;
		}
		if (strncmp(s, "Server:", 7) == 0)
			in_client = false;
		if (in_client && (v = pasted_after(s, "Context:"))) {
			v += strspn(v, " \t");
			if (context_name(v, strlen(v))) {
				pasted_put(&o, it.no, v, CLI ".current_context");
				found = true;
			}
			continue;
		}
		if (strncmp(s, "NAME ", 5) == 0 && strstr(s, "DOCKER ENDPOINT")) {
			in_table = true;
			continue;
		}
		if (!in_table)
			continue;
		n = strcspn(s, " \t");
		star = s + n + strspn(s + n, " \t");
		if (star[0] != '*' || (star[1] && star[1] != ' ' && star[1] != '\t') ||
		    !context_name(s, n))
			continue;
		s[n] = '\0';
		pasted_put(&o, it.no, s, CLI ".current_context");
		found = true;
		for (ep = star + 1; *ep; ep = end) {
			ep += strspn(ep, " \t");
			end = ep + strcspn(ep, " \t");
			if (end > ep && memmem(ep, (size_t)(end - ep), "://", 3)) {
				*end = '\0';
				pasted_put(&o, it.no, ep, CLI ".context_host");
				break;
			}
		}
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
