// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `hostnamectl` status output (`gpuenv explain`): a table of "Field: value"
 * lines, each field right-aligned (systemd src/hostname/hostnamectl.c print_status_info()).
 * Two of its fields are facts the probe reads elsewhere:
 *   "          Kernel: Linux 5.15.0-25-generic"   the kernel's name and release (uname(2)),
 *                                                 read as host.kernel_release, as uname -a's;
 *   "Operating System: Ubuntu 22.04 LTS"          os-release(5)'s PRETTY_NAME, read as
 *                                                 host.os.pretty_name, as /etc/os-release's.
 * A field counts only as the first word of its line. "Operating System:" is also docker info's
 * field (of the daemon's host, maybe "Docker Desktop"): it is read only beside a field that only
 * hostnamectl prints (Kernel:, Static hostname:, Machine ID:, Boot ID:, Icon name:).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define OS_NAME_MAX 256 /* bytes of PRETTY_NAME kept */

/* The fields only hostnamectl prints (besides Kernel:, read below). */
static const char *const own_fields[] = { "Static hostname: ", "Machine ID: ", "Boot ID: ",
					  "Icon name: " };

/* "Linux <release>": the release, a digit first and a dot in it, up to a blank or the end;
 * cut there in place. NULL for anything else. */
static char *kernel_release(char *v)
{
	char *r = (char *)pasted_after(v, "Linux "), *end;

	if (!r || r[0] < '0' || r[0] > '9')
		return NULL;
	end = r + strcspn(r, " \t");
	if (!memchr(r, '.', (size_t)(end - r)) || *pasted_strip(end) != '\0')
		return NULL;
	*end = '\0';
	return r;
}

int pasted_read_hostnamectl(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "hostnamectl" };
	struct pasted_lines it;
	char os_name[OS_NAME_MAX] = "";
	unsigned os_line = 0;
	bool own = false;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		char *s = pasted_strip(line), *v;

		if ((v = (char *)pasted_after(s, "Kernel: "))) {
			char *release = kernel_release(pasted_strip(v));

			if (release) {
				pasted_put(&o, it.no, release, "host.kernel_release");
				own = true;
			}
		} else if ((v = (char *)pasted_after(s, "Operating System: "))) {
			v = pasted_strip(v);
			if (*v) {
				pasted_cut_utf8(v, strlen(v), os_name, sizeof(os_name));
				os_line = it.no;
			}
		} else {
			for (size_t i = 0; i < ARRAY_SIZE(own_fields); i++)
				if (pasted_after(s, own_fields[i]))
					own = true;
		}
	}
	if (own && os_line)
		pasted_put(&o, os_line, os_name, "host.os.pretty_name");
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
