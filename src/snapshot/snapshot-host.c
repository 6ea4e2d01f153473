// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * "Will this image run on that machine?": the snapshot of an image (or any root) with the
 * target machine's hardware and driver put in, so that the same rules judge the image's CUDA
 * runtime, frameworks and GPU code against the target's GPUs and driver (docs/policy.md,
 * "Images on a target"). From the target (a `gpuenv report --json` of it): `hardware`,
 * `driver` (its kernel module and the user-space driver the NVIDIA container runtime injects
 * into a container) and `host` (kernel, WSL) but the image's own os-release and process. The
 * rest (runtime, framework, container, environment) is the image's. Done on the JSON form, so
 * the result is exactly what `--from` would load.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "shared/macro.h"
#include "snapshot-internal.h"
#include "snapshot.h"

int snapshot_with_host(const struct gpuenv_snapshot *image, const struct gpuenv_snapshot *target,
		       struct gpuenv_snapshot **ret, char **ret_error)
{
	char *itext = NULL, *ttext = NULL, *out = NULL;
	json_t *ij = NULL, *tj = NULL, *host;
	int r;

	r = snapshot_to_json(image, SNAP_JSON_STABLE | SNAP_JSON_COMPACT, &itext);
	if (r >= 0)
		r = snapshot_to_json(target, SNAP_JSON_STABLE | SNAP_JSON_COMPACT, &ttext);
	if (r < 0)
		goto out;
	ij = json_loads(itext, 0, NULL);
	tj = json_loads(ttext, 0, NULL);
	if (!ij || !tj) {
		r = -ENOMEM;
		goto out;
	}
	static const char *const from_target[] = { "hardware", "driver" };
	for (size_t i = 0; i < ARRAY_SIZE(from_target); i++) {
		json_t *v = json_object_get(tj, from_target[i]);

		if (v)
			json_object_set(ij, from_target[i], v);
		else
			json_object_del(ij, from_target[i]);
	}
	host = json_object_get(tj, "host");
	if (host && json_is_object(host)) {
		json_t *merged = json_deep_copy(host), *ih = json_object_get(ij, "host");

		if (!merged) {
			r = -ENOMEM;
			goto out;
		}
		/* the image's own distribution and process */
		json_object_del(merged, "os");
		json_object_del(merged, "process");
		if (ih && json_object_get(ih, "os"))
			json_object_set(merged, "os", json_object_get(ih, "os"));
		if (ih && json_object_get(ih, "process"))
			json_object_set(merged, "process", json_object_get(ih, "process"));
		json_object_set_new(ij, "host", merged);
	}
	out = json_dumps(ij, JSON_COMPACT);
	if (!out) {
		r = -ENOMEM;
		goto out;
	}
	r = snapshot_from_json(out, strlen(out), ret, ret_error);
out:
	free(itext);
	free(ttext);
	free(out);
	json_decref(ij);
	json_decref(tj);
	return r;
}
