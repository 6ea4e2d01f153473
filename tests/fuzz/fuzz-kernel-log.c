// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the kernel log parser (Xid, API mismatch, loading lines) and the /dev/kmsg
 * record converter (src/probe/probe-text.h), then the JSON writer on what it wrote.
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
	{
		/* Input: kernel log text; the same bytes also as one /dev/kmsg record. */
		struct strbuf sb = STRBUF_INIT;

		probe_parse_kernel_log(n, (const char *)data, size, "/var/log/kern.log");
		probe_kmsg_record_to_text(&sb, (const char *)data, size);
		if (!sb.err)
			probe_parse_kernel_log(snap_object(snapshot_root(s), "kmsg"), strbuf_str(&sb),
					       sb.len, "/dev/kmsg");
		strbuf_done(&sb);
	}
	if (snapshot_to_json(s, 0, &out) == 0)
		free(out);
	snapshot_unref(s);
	return 0;
}
