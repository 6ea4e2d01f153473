// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer target: what a vendor child writes to its pipe (src/vendor/session.h), folded into
 * a tree, copied into a snapshot as the probes do, and serialised. */
#include <stdint.h>
#include <stdlib.h>

#include "probe/probe-vendor.h"
#include "vendor/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vendor_result r = { .tree = json_object() };
	struct gpuenv_snapshot *s = NULL;
	char *pkey = NULL, *pcall = NULL, *out = NULL;

	if (!r.tree)
		return 0;
	if (vendor_fold((const char *)data, size, "nvml:", r.tree, &pkey, &pcall) >= 0 &&
	    snapshot_new(&s) == 0) {
		probe_vendor_write(snap_object(snapshot_root(s), "nvml"), &r, 1000, "nvml");
		if (snapshot_to_json(s, 0, &out) == 0)
			free(out);
		snapshot_unref(s);
	}
	free(pkey);
	free(pcall);
	json_decref(r.tree);
	return 0;
}
