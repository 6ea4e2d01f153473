// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `docker info` (`gpuenv explain`; docker/cli cli/command/system/info.go
 * prettyPrintServerInfo(): " Runtimes: io.containerd.runc.v2 nvidia runc", " Default Runtime:
 * runc", and since Docker 25 " CDI spec directories:" followed by one indented directory a
 * line). Facts: what the container-host probe reads from daemon.json, as the daemon reports
 * it: container.host.docker.runtimes[].name, .default_runtime, .cdi_spec_dirs[]. A paste
 * showing "Default Runtime:" is docker info's; "Runtimes:" is read only in one.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define DOCKER	     "container.host.docker"
#define RUNTIMES_MAX 32
#define CDI_DIRS_MAX 32

static bool runtime_name(const char *t)
{
	return *t &&
	       strspn(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
		       strlen(t);
}

int pasted_read_docker_info(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "docker-info" };
	struct pasted_lines it;
	unsigned n_cdi = 0;
	bool in_cdi = false;
	char *line;

	if (!text || !strstr(text, "Default Runtime: "))
		return 0; /* not docker info: "Runtimes:" alone is too common a word */
	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		const char *v;
		char *s = pasted_strip(line);

		if (in_cdi && s[0] == '/' && !strchr(s, ' ') && n_cdi < CDI_DIRS_MAX) {
			pasted_put(&o, it.no, s, DOCKER ".cdi_spec_dirs.%u", n_cdi++);
			continue;
		}
		in_cdi = false;
		if ((v = pasted_after(s, "Default Runtime: "))) {
			if (runtime_name(v))
				pasted_put(&o, it.no, v, DOCKER ".default_runtime");
		} else if ((v = pasted_after(s, "Runtimes: "))) {
			char buf[512], *save = NULL;
			unsigned n = 0;

			if (strlen(v) >= sizeof(buf))
				continue;
			strcpy(buf, v);
			for (char *t = strtok_r(buf, " ", &save); t && n < RUNTIMES_MAX;
			     t = strtok_r(NULL, " ", &save))
				if (runtime_name(t))
					pasted_put(&o, it.no, t, DOCKER ".runtimes.%u.name", n++);
		} else if (strcmp(s, "CDI spec directories:") == 0 && n_cdi == 0) {
			in_cdi = true;
		}
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
