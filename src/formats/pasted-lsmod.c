// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `lsmod` (`gpuenv explain`; kmod's lsmod prints /proc/modules as "Module
 * Size Used by" then "name size refcount [deps]"), often through `| grep nvidia`: the GPU
 * modules the probe records in driver.kernel_modules. A module listed is loaded ("true"); one
 * not listed is not recorded, since a paste may be cut or filtered.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

static const char *const modules[] = { "nvidia",  "nvidia_uvm", "nvidia_drm", "nvidia_modeset",
				       "nouveau", "amdgpu",	NULL };

static bool digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

int pasted_read_lsmod(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "lsmod" };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		char *f[5], *save = NULL;
		int n = 0;

		for (char *t = strtok_r(line, " \t", &save); t && n < 5;
		     t = strtok_r(NULL, " \t", &save))
			f[n++] = t;
		if (n < 3 || n > 4 || !digits(f[1]) || !digits(f[2]))
			continue;
		for (size_t i = 0; modules[i]; i++)
			if (strcmp(f[0], modules[i]) == 0)
				pasted_put(&o, it.no, "true", "driver.kernel_modules.%s",
					   modules[i]);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
