// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the kernel log parser (Xid, API mismatch, loading lines) and the /dev/kmsg
 * record converter (src/probe/probe-text.h), then the JSON writer on what it wrote.
 */
#include <stdint.h>

#include "fuzz-snapshot.h"
#include "probe/probe-text.h"
#include "shared/strbuf.h"

/* Input: kernel log text; the same bytes also as one /dev/kmsg record. */
static void parse(struct gpuenv_snapshot *s, struct snap_node *n, const uint8_t *data, size_t size)
{
	struct strbuf sb = STRBUF_INIT;

	probe_parse_kernel_log(n, (const char *)data, size, "/var/log/kern.log");
	kmsg_record_to_text(&sb, (const char *)data, size);
	if (!sb.err)
		probe_parse_kernel_log(snap_object(snapshot_root(s), "kmsg"), strbuf_str(&sb),
				       sb.len, "/dev/kmsg");
	strbuf_done(&sb);
}

FUZZ_SNAPSHOT_TARGET(parse)
