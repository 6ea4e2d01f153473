// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public struct gpuenv_snapshot (include/gpuenv/gpuenv.h): collect (run the probe table,
 * src/probe/), load from JSON, reference counting, rendering (src/snapshot/snapshot-json.c,
 * src/output/out-report.c). The struct is defined, under its public name, in
 * src/snapshot/snapshot-internal.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/ctx.h"
#include "gpuenv/gpuenv.h"
#include "output/output.h"
#include "probe/probe.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "snapshot/snapshot.h"

GPUENV_API int gpuenv_snapshot_collect(struct gpuenv_ctx *ctx, struct gpuenv_snapshot **ret)
{
	struct gpuenv_snapshot *s;
	int r;

	if (!ctx || !ret)
		return -EINVAL;
	r = snapshot_new(&s);
	if (r < 0)
		return r;
	r = probe_run_all(ctx, s);
	if (r < 0) {
		snapshot_unref(s);
		return r;
	}
	*ret = s;
	return 0;
}

GPUENV_API int gpuenv_snapshot_from_json(struct gpuenv_ctx *ctx, const char *json, size_t len,
					 struct gpuenv_snapshot **ret)
{
	_cleanup_free_ char *why = NULL;
	struct gpuenv_snapshot *s;
	int r;

	if (!json || !ret)
		return -EINVAL;
	r = snapshot_from_json(json, len, &s, &why);
	if (r < 0) {
		if (ctx)
			log_err(&ctx->log, "snapshot JSON: %s", why ? why : "invalid");
		return r;
	}
	*ret = s;
	return 0;
}

GPUENV_API struct gpuenv_snapshot *gpuenv_snapshot_ref(struct gpuenv_snapshot *s)
{
	return snapshot_ref(s);
}

GPUENV_API struct gpuenv_snapshot *gpuenv_snapshot_unref(struct gpuenv_snapshot *s)
{
	return snapshot_unref(s);
}

GPUENV_API int gpuenv_snapshot_render(const struct gpuenv_snapshot *s, enum gpuenv_format format,
				      unsigned flags, char **ret)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s || !ret)
		return -EINVAL;
	switch (format) {
	case GPUENV_FORMAT_TEXT:
		return strbuf_finish(&sb, out_report_text(s, flags, &sb), ret);
	case GPUENV_FORMAT_JSON:
		return snapshot_to_json(
			s,
			((flags & GPUENV_RENDER_STABLE) ? SNAP_JSON_STABLE : 0) |
				((flags & GPUENV_RENDER_REDACT) ? SNAP_JSON_REDACT : 0),
			ret);
	case GPUENV_FORMAT_PROMETHEUS:
	case GPUENV_FORMAT_OPENMETRICS:
		return strbuf_finish(
			&sb, out_metrics_gpu(s, format == GPUENV_FORMAT_OPENMETRICS, flags, &sb),
			ret);
	default:
		return -EOPNOTSUPP;
	}
}

GPUENV_API int gpuenv_snapshot_with_host(const struct gpuenv_snapshot *image,
					 const struct gpuenv_snapshot *target,
					 struct gpuenv_snapshot **ret)
{
	char *why = NULL;
	int r;

	if (!image || !target || !ret)
		return -EINVAL;
	r = snapshot_with_host(image, target, ret, &why);
	free(why);
	return r;
}
