// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of a pasted /proc/driver/nvidia/version (`gpuenv explain`): "NVRM version: NVIDIA
 * UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 …" (the proprietary module) or "NVRM
 * version: NVIDIA UNIX Open Kernel Module for x86_64  560.35.03  Release Build …" (the open
 * one), then "GCC version:  gcc version 12.3.0 (…)". Each "NVRM version:" line is parsed by the
 * probe's own parser (proc-text.c nvidia_version_parse(), open-gpu-kernel-modules
 * kernel-open/nvidia/nv-procfs.c); a "GCC version:" line counts only right after one (collect_env
 * prints a "GCC version:" of its own). Either may follow a log's prefix: dmesg's "[  5.1] ",
 * journalctl's "Dec 04 10:00:00 host kernel: ", pdsh/clush's "node12: ", or a cluster tool's
 * "[2024-05-01T10:00:00][node12]:" (the file's text is the same after it).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "formats/proc-text.h"

/* s past "NVRM version:" or "GCC version:" (word) at its start or after a log prefix: the word
 * preceded by a blank, ']' or ':' (never inside a longer word); NULL otherwise. */
static const char *after_word(const char *s, const char *word)
{
	const char *p = pasted_after(s, word);

	if (p)
		return p;
	for (const char *m = strstr(s, word); m; m = strstr(m + 1, word))
		if (m > s && (m[-1] == ' ' || m[-1] == '\t' || m[-1] == ']' || m[-1] == ':'))
			return m + strlen(word);
	return NULL;
}

int pasted_read_nvidia_version(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "nvidia-version" };
	struct pasted_lines it;
	unsigned nvrm_line = 0;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		const char *s = pasted_strip(line), *p;
		struct nvidia_version v;

		if ((p = after_word(s, "NVRM version:")))
			s = p - strlen("NVRM version:");
		else if (nvrm_line && it.no == nvrm_line + 1 && (p = after_word(s, "GCC version:")))
			s = p - strlen("GCC version:");
		else
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
