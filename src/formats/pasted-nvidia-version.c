// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of a pasted /proc/driver/nvidia/version (`gpuenv explain`): "NVRM version: NVIDIA
 * UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 …" (the proprietary module) or "NVRM
 * version: NVIDIA UNIX Open Kernel Module for x86_64  560.35.03  Release Build …" (the open
 * one), then "GCC version:  gcc version 12.3.0 (…)". Each "NVRM version:" line is parsed by the
 * probe's own parser (proc-text.c nvidia_version_parse(), open-gpu-kernel-modules
 * kernel-open/nvidia/nv-procfs.c); a "GCC version:" line counts only right after one (collect_env
 * prints a "GCC version:" of its own).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "formats/proc-text.h"

int pasted_read_nvidia_version(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "nvidia-version" };
	struct pasted_lines it;
	unsigned nvrm_line = 0;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		const char *s = pasted_strip(line);
		struct nvidia_version v;

		if (!pasted_after(s, "NVRM version:") &&
		    !(nvrm_line && it.no == nvrm_line + 1 && pasted_after(s, "GCC version:")))
			continue;
		if (nvidia_version_parse(s, strlen(s), &v) < 0) {
			o.err = -ENOMEM;
			break;
		}
		if (v.flavor) {
			pasted_put(&o, it.no, v.version, "driver.nvidia.proc_version");
			/* the file exists only while the module is loaded, and names its
			 * version: /sys/module/nvidia/version's, which the rules read first */
			pasted_put(&o, it.no, v.version, "driver.nvidia.module_version");
			pasted_put(&o, it.no, v.flavor, "driver.nvidia.flavor");
			nvrm_line = it.no;
		} else if (v.gcc_version) {
			pasted_put(&o, it.no, v.gcc_version, "driver.nvidia.gcc_version");
		}
		nvidia_version_done(&v);
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
