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
#include <string.h>
#include <time.h>

#include <jansson.h>

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

/* Now as RFC 3339 UTC with milliseconds ("2026-12-06T09:50:01.123Z"). */
static void utc_now(char buf[32])
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, 32 - n, ".%03ldZ", ts.tv_nsec / 1000000L);
}

GPUENV_API int gpuenv_ctx_nvml_sweep(const struct gpuenv_ctx *ctx, const struct gpuenv_snapshot *s,
				     char **ret)
{
	const struct snap_node *nvml;
	json_t *j, *at;
	char stamp[32];
	char *text;

	if (!ctx || !s || !ret)
		return -EINVAL;
	nvml = snap_get(snapshot_root_const(s), "driver.nvml");
	/* A child ran and said what it said (probe_vendor_write()'s "session" with it); a gate
	 * that did not allow NVML, or a restart held back, ran none, and the other context
	 * decides for itself. */
	if (!ctx->nvml_swept || !snap_child(nvml, "session"))
		return -ENOENT;
	j = snapshot_node_to_jansson(nvml);
	if (!j)
		return -ENOMEM;
	utc_now(stamp);
	at = json_pack("{s:s,s:s,s:s}", "state", "present", "value", stamp, "source",
		       "nvml sample");
	text = at && json_object_set_new(j, "session_sampled_at", at) == 0
		       ? json_dumps(j, JSON_COMPACT)
		       : NULL;
	json_decref(j);
	if (!text)
		return -ENOMEM;
	*ret = text;
	return 0;
}

GPUENV_API int gpuenv_snapshot_nvml_health(const struct gpuenv_snapshot *s,
					   struct gpuenv_nvml_health *ret)
{
	const struct snap_node *nvml, *session, *devices;
	const char *where;
	int64_t v;

	if (!s || !ret)
		return -EINVAL;
	nvml = snap_get(snapshot_root_const(s), "driver.nvml");
	session = snap_child(nvml, "session");
	devices = snap_child(nvml, "devices");
	where = snap_get_str(nvml, "session_stuck");
	*ret = (struct gpuenv_nvml_health){
		.session_ok = !(session && snap_kind(session) == SNAP_FACT &&
				snap_state(session) == FACT_ERROR),
	};
	if (snap_get_int(nvml, "session_restarts", &v) && v >= 0) {
		ret->has_restarts = 1;
		ret->restarts = (uint64_t)v;
	}
	if (where)
		snprintf(ret->stuck, sizeof(ret->stuck), "%s", where);
	if (!devices || snap_kind(devices) != SNAP_ARRAY)
		return 0;
	for (size_t i = 0; i < snap_count(devices); i++) {
		const struct snap_node *d = snap_at(devices, i);

		for (size_t j = 0; j < snap_count(d); j++) {
			const char *e = snap_error(snap_at(d, j));

			if (e && strstr(e, "NVML_ERROR_GPU_IS_LOST")) {
				ret->lost++;
				break;
			}
		}
	}
	return 0;
}
