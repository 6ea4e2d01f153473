// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `env` / `printenv` output (`gpuenv explain`): "NAME=value" lines for the
 * variables the probe records in the environment section (docs/snapshot-schema.md
 * "environment": CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH, NVIDIA_VISIBLE_DEVICES …, and the TF_*
 * variables whose name holds GPU or CUDA), from the first column only: `export NAME=value` and
 * Docker's `-e NAME=value` say what was meant, not what the process had.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

static const char *const names[] = {
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
	NULL,
};

static bool wanted(const char *name)
{
	for (size_t i = 0; names[i]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return strncmp(name, "TF_", 3) == 0 && (strstr(name, "GPU") || strstr(name, "CUDA"));
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
		/* an empty value is a fact too (NVIDIA_VISIBLE_DEVICES= is the "empty" mode) */
		if (!*pasted_strip(eq + 1))
			pasted_put_empty(&o, it.no, "environment.%s", line);
		else
			pasted_put(&o, it.no, eq + 1, "environment.%s", line);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
