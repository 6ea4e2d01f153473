// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the proc(5) /proc/modules parser (src/probe/probe-text.h), then the JSON
 * writer on what it wrote.
 */
#include <stdint.h>
#include <stdlib.h>

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
	probe_parse_proc_modules(n, (const char *)data, size, "/proc/modules");
	if (snapshot_to_json(s, 0, &out) == 0)
		free(out);
	snapshot_unref(s);
	return 0;
}
