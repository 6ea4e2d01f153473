// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the /proc/self/status + group(5) parsers  (src/probe/probe-text.h), then the
 * JSON writer on what it wrote.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe-text.h"
#include "shared/strbuf.h"
#include "snapshot/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot *s = NULL;
	struct snap_node *n;
	char *out = NULL;

	if (snapshot_new(&s) < 0)
		return 0;
	n = snap_object(snapshot_root(s), "fuzz");
	{
		/* Input: group(5) text, a NUL, then the status text. */
		const uint8_t *nul = memchr(data, 0, size);
		char *group = nul ? strndup((const char *)data, (size_t)(nul - data)) : NULL;
		size_t off = nul ? (size_t)(nul - data) + 1 : 0;

		probe_parse_proc_status(n, (const char *)data + off, size - off, "/proc/self/status",
					group, "/etc/group");
		free(group);
	}
	if (snapshot_to_json(s, 0, &out) == 0)
		free(out);
	snapshot_unref(s);
	return 0;
}
