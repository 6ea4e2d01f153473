// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target: the /proc/driver/nvidia/version parser (src/probe/probe-text.h), then the JSON
 * writer on what it wrote.
 */
#include <stdint.h>

#include "fuzz-snapshot.h"
#include "probe/probe-text.h"

static void parse(struct gpuenv_snapshot *s, struct snap_node *n, const uint8_t *data, size_t size)
{
	probe_parse_nvidia_version(n, (const char *)data, size, "/proc/driver/nvidia/version");
}

FUZZ_SNAPSHOT_TARGET(parse)
