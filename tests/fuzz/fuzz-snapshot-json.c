// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: the snapshot JSON loader (`--from`), and the writer on what it accepts. */
#include <stdint.h>
#include <stdlib.h>

#include "snapshot/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpuenv_snapshot *s = NULL;
	char *err = NULL, *out = NULL;

	if (snapshot_from_json((const char *)data, size, &s, &err) == 0) {
		if (snapshot_to_json(s, 0, &out) == 0)
			free(out);
		snapshot_unref(s);
	}
	free(err);
	return 0;
}
