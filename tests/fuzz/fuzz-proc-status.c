// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the /proc/self/status + group(5) parsers  (src/probe/probe-text.h), then the
 * JSON writer on what it wrote.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-snapshot.h"
#include "probe/probe-text.h"

/* Input: group(5) text, a NUL, then the status text. */
static void parse(struct gpuenv_snapshot *s, struct snap_node *n, const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	char *group = nul ? strndup((const char *)data, (size_t)(nul - data)) : NULL;
	size_t off = nul ? (size_t)(nul - data) + 1 : 0;

	probe_parse_proc_status(n, (const char *)data + off, size - off, "/proc/self/status", group,
				group ? 0 : -ENOENT, "/etc/group");
	free(group);
}

FUZZ_SNAPSHOT_TARGET(parse)
