// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `env` / `printenv` output (`gpuenv explain`): "NAME=value" lines for the
 * variables the probe records in the environment section (gpu-names.h: CUDA_VISIBLE_DEVICES,
 * LD_LIBRARY_PATH, NVIDIA_VISIBLE_DEVICES …, and the TF_* variables whose name holds GPU or
 * CUDA), from the first column only: `export NAME=value` and
 * Docker's `-e NAME=value` say what was meant, not what the process had. A device list
 * (*_VISIBLE_DEVICES) or a gfx target holds no blank: on a shell line that sets it for one
 * command ("CUDA_VISIBLE_DEVICES=MIG-… python -c …") the value ends at the first blank.
 * The NVIDIA container runtime's request variables are also the container's request, as doctor
 * records them from its own environment (probe-container.c), so the container rules judge them.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/gpu-names.h"
#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

static bool wanted(const char *name)
{
	for (size_t i = 0; gpu_env_vars[i]; i++)
		if (strcmp(name, gpu_env_vars[i]) == 0)
			return true;
	return gpu_env_var_tf(name);
}

/* The variables nvidia-container-runtime reads from the container's environment
 * (nvidia-container-toolkit docs, "Environment variables (OCI spec)"). */
static bool container_request(const char *name)
{
	return strcmp(name, "NVIDIA_VISIBLE_DEVICES") == 0 ||
	       strcmp(name, "NVIDIA_DRIVER_CAPABILITIES") == 0;
}

static bool one_word(const char *name)
{
	size_t n = strlen(name), k = strlen("_VISIBLE_DEVICES");

	return (n >= k && strcmp(name + n - k, "_VISIBLE_DEVICES") == 0) ||
	       strcmp(name, "HSA_OVERRIDE_GFX_VERSION") == 0;
}

int pasted_read_env(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "env" };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		char *eq = strchr(line, '=');

		/* env(1) prints NAME=value from the first column */
		if (!eq || eq == line || line[0] == ' ' || line[0] == '\t')
			continue;
		*eq = '\0';
		if (strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(line) ||
		    !wanted(line))
			continue;
		if (one_word(line))
			eq[1 + strcspn(eq + 1, " \t")] = '\0';
		/* an empty value is a fact too (NVIDIA_VISIBLE_DEVICES= is the "empty" mode) */
		for (int as_request = 0; as_request <= container_request(line); as_request++) {
			const char *fmt = as_request ? "container.requested.%s" : "environment.%s";

			if (!*pasted_strip(eq + 1))
				pasted_put_empty(&o, it.no, fmt, line);
			else
				pasted_put(&o, it.no, eq + 1, fmt, line);
		}
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
