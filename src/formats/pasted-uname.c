// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `uname -a` (`gpuenv explain`): "Linux <host> <release> #<version> …"
 * (coreutils uname(1): kernel name, node name, release, version, machine …); the release is the
 * probe's host.kernel_release (/proc/sys/kernel/osrelease). The "#" that starts the kernel's
 * version string ("#101-Ubuntu SMP …", "#1 SMP PREEMPT_DYNAMIC …") tells the line from prose.
 */
#include <errno.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

int pasted_read_uname(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "uname" };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it))) {
		/* nvidia-bug-report.sh's header writes it "uname: Linux host 6.8.0-…" */
		const char *l = pasted_after(line, "uname: ") ?: line;
		char *p = (char *)pasted_after(l, "Linux "), *release;
		size_t n;

		if (!p)
			continue;
		p += strspn(p, " \t");
		p += strcspn(p, " \t"); /* the node name */
		p += strspn(p, " \t");
		release = p;
		n = strcspn(p, " \t");
		p += n;
		if (!n || !*p || release[0] < '0' || release[0] > '9')
			continue;
		*p++ = '\0';
		p += strspn(p, " \t");
		if (*p == '#' && strchr(release, '.'))
			pasted_put(&o, it.no, release, "host.kernel_release");
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
