/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The shared body of the libFuzzer targets whose parser writes into a snapshot: a fresh
 * snapshot, the target's parse function on the input into the "fuzz" object of its root,
 * then the JSON writer (src/snapshot/snapshot-json.c) on what the parser wrote.
 * A target file defines its parse function and says FUZZ_SNAPSHOT_TARGET(parse).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "snapshot/snapshot.h"

/* s: the snapshot, for a target that writes more than n (a sibling of "fuzz"). */
typedef void (*fuzz_snapshot_parse_fn)(struct gpuenv_snapshot *s, struct snap_node *n,
				       const uint8_t *data, size_t size);

static inline int fuzz_snapshot_run(const uint8_t *data, size_t size, fuzz_snapshot_parse_fn parse)
{
	struct gpuenv_snapshot *s = NULL;
	char *out = NULL;

	if (snapshot_new(&s) < 0)
		return 0;
	parse(s, snap_object(snapshot_root(s), "fuzz"), data, size);
	if (snapshot_to_json(s, 0, &out) == 0)
		free(out);
	snapshot_unref(s);
	return 0;
}

#define FUZZ_SNAPSHOT_TARGET(parse)                                                                \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                              \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                               \
	{                                                                                          \
		return fuzz_snapshot_run(data, size, parse);                                       \
	}
