// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `lsmod` (`gpuenv explain`; kmod's lsmod prints /proc/modules as "Module
 * Size Used by" then "name size refcount [deps]"), often through `| grep nvidia`: the GPU
 * modules the probe records in driver.kernel_modules. A module listed is loaded ("true"); one
 * not listed is not recorded, since a paste may be cut or filtered. /proc/modules itself, as
 * nvidia-bug-report.sh appends it, is read too: "name size refcount deps state address
 * [taint]" (proc(5); "nvidia 8642560 45 nvidia_uvm,nvidia_modeset, Live 0xffffffffc0e89000
 * (POE)"), a module only in state Live.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

static const char *const modules[] = { "nvidia",  "nvidia_uvm", "nvidia_drm", "nvidia_modeset",
				       "nouveau", "amdgpu",	NULL };

/* Is the first field of line (strtok_r's: after any blanks, up to the next) one of modules[]?
 * Asked before the line is split: most lines the signs hand over are kernel-log lines that
 * name "nvidia" further on (callgrind: strtok_r was 11 M of a 1 MB bug report's 228 M). */
static bool known_module(const char *line)
{
	const char *s = line + strspn(line, " \t");
	size_t n = 0;

	/* the first byte first, the word measured only where some name starts so: a kernel
	 * log's line starts with "[" or a date (callgrind: the word's strcspn and a strlen per
	 * name were a third of the reader on the bench's text alone, docs/explain.md) */
	for (size_t i = 0; modules[i]; i++) {
		if (modules[i][0] != *s)
			continue;
		if (!n)
			n = strcspn(s, " \t");
		if (strlen(modules[i]) == n && memcmp(s, modules[i], n) == 0)
			return true;
	}
	return false;
}

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
		char *f[8], *save = NULL;
		int n = 0;

		if (!known_module(line))
			continue;
		for (char *t = strtok_r(line, " \t", &save); t && n < 8;
		     t = strtok_r(NULL, " \t", &save))
			f[n++] = t;
		if (n < 3 || !digits(f[1]) || !digits(f[2]))
			continue;
		/* lsmod: 3 or 4 fields; /proc/modules: 6 or 7, Live and an address */
		if (n > 4 &&
		    !(n <= 7 && n >= 6 && strcmp(f[4], "Live") == 0 && strncmp(f[5], "0x", 2) == 0))
			continue;
		for (size_t i = 0; modules[i]; i++)
			if (strcmp(f[0], modules[i]) == 0)
				pasted_put(&o, it.no, "true", "driver.kernel_modules.%s",
					   modules[i]);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
