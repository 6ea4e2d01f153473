/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The metric writer shared by the Prometheus renderers (out-metrics-gpu.c: the GPU sample,
 * out-metrics-doctor.c: the diagnosis). Two formats: the Prometheus text exposition 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/) and OpenMetrics 1.0
 * (https://github.com/prometheus/OpenMetrics/blob/main/specification/OpenMetrics.md). Label
 * values and help texts are escaped as both define: backslash, double quote (label values
 * only) and line feed. A family's samples are written together, after its HELP and TYPE.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "shared/strbuf.h"

struct metrics {
	struct strbuf *sb;
	bool openmetrics;
};

enum metric_type {
	METRIC_GAUGE,
	METRIC_COUNTER, /* name ends in _total: OpenMetrics' family name drops it */
	METRIC_INFO,	/* name ends in _info, value 1: a gauge in the text format */
	METRIC_STATESET_GAUGE,
	METRIC_UNTYPED_COUNTER, /* a counter whose name has no _total (DCGM's): "unknown" in OM */
};

/* # HELP and # TYPE of a family. */
void metrics_family(struct metrics *m, const char *name, enum metric_type type, const char *help);
/* A label value between the quotes (backslash, double quote and line feed escaped). */
void metrics_label_value(struct strbuf *sb, const char *value);
/* `key="value"` appended to a label list, with a comma before all but the first. */
void metrics_label(struct strbuf *sb, const char *key, const char *value);
/* `name{labels} value`: labels is the text between the braces (NULL or "": none). */
void metrics_sample_int(struct metrics *m, const char *name, const char *labels, int64_t v);
void metrics_sample_double(struct metrics *m, const char *name, const char *labels, double v);

/* A GPU of the sample as the renderers label it (out-metrics-gpu.c makes them). */
struct snap_node;
struct gpu_view {
	const struct snap_node *dev;
	char *labels;	    /* the dcgm-exporter labels, ready to print */
	char *short_labels; /* gpu, UUID, pci_bus_id */
};

/* The MIG profile ("1g.5gb") at the end of a MIG handle's nvmlDeviceGetName, "unknown"
 * without one (out-metrics-tasks.c). */
const char *metrics_mig_profile(const char *name);

/* MIG instances and processes of each GPU (out-metrics-tasks.c); redact: no process names. */
void out_metrics_gpu_tasks(struct metrics *m, const struct gpu_view *gpus, size_t n, bool redact);

/* The AMD SMI and Level Zero sessions' series (out-metrics-vendor.c), after NVML's. */
void out_metrics_vendor(struct metrics *m, const struct snap_node *root);

/* Framework coverage per GPU (out-metrics-coverage.c): the framework layer's judgement. */
void out_metrics_framework_coverage(struct metrics *m, const struct snap_node *root);
