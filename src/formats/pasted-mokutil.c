// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of the Secure Boot state as pasted (`gpuenv explain`): `mokutil --sb-state` prints
 * "SecureBoot enabled" or "SecureBoot disabled" (mokutil.c, from the SecureBoot EFI variable
 * the probe reads); the kernel's boot log says "Secure boot enabled" / "Secure boot disabled"
 * (arch/x86/kernel/setup.c; "secureboot: Secure boot enabled" before Linux 5.x), in dmesg and
 * `journalctl -k` lines after their "[time]" or "kernel:" prefix.
 */
#include <errno.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

/* The message of a kernel log line: after "] ", "kernel: " and an old "secureboot: " prefix;
 * NULL when the line has no such prefix. */
static const char *kernel_message(const char *s)
{
	const char *p = strrchr(s, ']'), *k = strstr(s, "kernel: ");

	if (k && (!p || k > p))
		p = k + 8;
	else if (p)
		p = p + 1;
	else
		return NULL;
	while (*p == ' ')
		p++;
	if (strncmp(p, "secureboot: ", 12) == 0)
		p += 12;
	return p;
}

int pasted_read_mokutil(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "mokutil" };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		const char *s = pasted_strip(line), *k;

		if (strcmp(s, "SecureBoot enabled") == 0)
			pasted_put(&o, it.no, "true", "driver.secure_boot.enabled");
		else if (strcmp(s, "SecureBoot disabled") == 0)
			pasted_put(&o, it.no, "false", "driver.secure_boot.enabled");
		else if ((k = kernel_message(s)) && strcmp(k, "Secure boot enabled") == 0)
			pasted_put(&o, it.no, "true", "driver.secure_boot.enabled");
		else if (k && strcmp(k, "Secure boot disabled") == 0)
			pasted_put(&o, it.no, "false", "driver.secure_boot.enabled");
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
