// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The diagnosis as Prometheus metrics (`gpuenv exporter`, docs/exporter.md): the findings,
 * the root cause, each layer's status as a state set, the verdict, and info series for the
 * driver, the CUDA toolkits and the Python frameworks the snapshot found. Formats and
 * escaping: out-metrics.h. Label values come from the machine (paths, versions): escaped,
 * never trusted.
 */
#include <stdio.h>
#include <string.h>

#include "gpuenv/gpuenv.h"
#include "facts/facts.h"
#include "out-metrics.h"
#include "output.h"
#include "rules/rules.h"
#include "shared/layer-name.h"
#include "shared/macro.h"

static const char *severity_name(enum gpuenv_severity s)
{
	return s == GPUENV_SEVERITY_ERROR     ? "error"
	       : s == GPUENV_SEVERITY_WARNING ? "warning"
					      : "info";
}

/* `key="value"` appended, with a comma before all but the first. */
static void label(struct strbuf *sb, const char *key, const char *value)
{
	metrics_label(sb, key, value);
}

static void sample_labels(struct metrics *m, const char *name, struct strbuf *l, int64_t v)
{
	if (l->err && !m->sb->err)
		m->sb->err = l->err;
	metrics_sample_int(m, name, strbuf_str(l), v);
	strbuf_reset(l);
}

/* One series per (rule, layer, severity), valued by how many findings it has (a rule fires
 * once per GPU, toolkit or variable it is about). */
static void put_findings(struct metrics *m, const struct gpuenv_doctor *d, struct strbuf *l)
{
	metrics_family(m, "gpuenv_finding", METRIC_GAUGE,
		       "Findings of the last diagnosis by rule (gpuenv doctor --list-rules), layer "
		       "and severity: how many.");
	for (size_t i = 0; i < d->n_findings; i++) {
		const struct finding *f = &d->findings[i];
		unsigned n = 0;
		bool seen = false;

		for (size_t j = 0; j < d->n_findings && !seen; j++) {
			const struct finding *g = &d->findings[j];
			bool same = g->rule == f->rule && g->severity == f->severity;

			seen = same && j < i;
			n += same;
		}
		if (seen)
			continue;
		label(l, "rule", f->rule->id);
		label(l, "layer", layer_name(f->rule->layer));
		label(l, "severity", severity_name(f->severity));
		sample_labels(m, "gpuenv_finding", l, n);
	}
	metrics_family(m, "gpuenv_root_cause", METRIC_GAUGE,
		       "The finding that explains the others (1); no series when healthy.");
	if (diagnosis_root_cause(d)) {
		label(l, "rule", diagnosis_root_cause(d)->rule->id);
		label(l, "layer", layer_name(diagnosis_root_cause(d)->rule->layer));
		sample_labels(m, "gpuenv_root_cause", l, 1);
	}
}

static void put_layers(struct metrics *m, const struct gpuenv_doctor *d, struct strbuf *l)
{
	static const enum layer_status states[] = { LAYER_OK,	     LAYER_INFO,    LAYER_WARNING,
						    LAYER_ERROR,     LAYER_UNKNOWN, LAYER_ABSENT,
						    LAYER_INCOMPLETE };
	static const char *const verdicts[] = { "healthy", "warnings", "errors", "unevaluated" };

	metrics_family(m, "gpuenv_layer_status", METRIC_STATESET_GAUGE,
		       "Each layer's status (a state set: 1 for the current status, 0 for the "
		       "others); unknown and incomplete mean gpuenv could not tell.");
	for (int layer = 0; layer < RULE_LAYERS; layer++)
		for (size_t s = 0; s < ARRAY_SIZE(states); s++) {
			label(l, "layer", layer_name((enum gpuenv_layer)layer));
			label(l, "status", layer_status_name(states[s]));
			sample_labels(m, "gpuenv_layer_status", l, d->status[layer] == states[s]);
		}
	metrics_family(m, "gpuenv_verdict", METRIC_STATESET_GAUGE,
		       "The verdict of the last diagnosis (the gpuenv doctor exit code as a state "
		       "set).");
	for (size_t v = 0; v < ARRAY_SIZE(verdicts); v++) {
		label(l, "verdict", verdicts[v]);
		sample_labels(m, "gpuenv_verdict", l, (size_t)d->verdict == v);
	}
}

static void put_driver(struct metrics *m, const struct snap_node *root, struct strbuf *l)
{
	const char *version = snap_get_str(root, "driver.nvml.driver_version");
	const char *cuda = snap_get_str(root, "driver.nvml.cuda_driver_version");
	char branch[16];

	if (!version)
		version = snap_get_str(root, "driver.nvidia.module_version");
	if (!cuda)
		cuda = snap_get_str(root, "driver.cuda.driver_version");
	metrics_family(m, "gpuenv_driver_info", METRIC_INFO,
		       "The NVIDIA driver: version (NVML, else the kernel module), branch (its "
		       "major number) and the newest CUDA it supports.");
	if (!version)
		return;
	snprintf(branch, sizeof(branch), "%.*s", (int)strcspn(version, "."), version);
	label(l, "version", version);
	label(l, "branch", branch);
	label(l, "max_cuda", cuda);
	sample_labels(m, "gpuenv_driver_info", l, 1);
}

static void put_toolkits(struct metrics *m, const struct snap_node *root, struct strbuf *l)
{
	const struct snap_node *tks = snap_get(root, "runtime.cuda_toolkits");

	metrics_family(m, "gpuenv_cuda_toolkit_info", METRIC_INFO,
		       "Each CUDA toolkit found: version, path, and whether /usr/local/cuda "
		       "points at it.");
	for (size_t i = 0; i < snap_count(tks); i++) {
		const struct snap_node *t = snap_at(tks, i);

		label(l, "version", snap_get_str(t, "version"));
		label(l, "path", snap_get_str(t, "path"));
		label(l, "default",
		      snap_get_bool_default(t, "is_default", false) ? "true" : "false");
		sample_labels(m, "gpuenv_cuda_toolkit_info", l, 1);
	}
}

static void put_frameworks(struct metrics *m, const struct snap_node *root, struct strbuf *l)
{
	static const char *const names[] = { "torch", "tensorflow", "jax", "cupy" };
	const struct snap_node *envs = snap_get(root, "framework.python_envs");

	metrics_family(m, "gpuenv_framework_info", METRIC_INFO,
		       "Each GPU framework found, per Python environment: its version and the "
		       "CUDA it was built for (torch).");
	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *e = snap_at(envs, i);

		for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
			const struct snap_node *p = snap_child(snap_child(e, "packages"), names[k]);
			const char *version = snap_get_str(p, "version");

			if (!version)
				version = snap_get_str(p, "dist_version");
			if (!version)
				continue;
			label(l, "framework", names[k]);
			label(l, "version", version);
			label(l, "cuda", snap_get_str(p, "cuda"));
			label(l, "env", snap_get_str(e, "prefix"));
			sample_labels(m, "gpuenv_framework_info", l, 1);
		}
	}
}

/* The Xids of the kernel log (driver.xid_events[]) with NVIDIA's action for each code
 * (src/facts/data/xid.tsv: the resolution bucket's first word, RESET_GPU, RESTART_APP …, and
 * FATAL/NONFATAL), so alerts can route by what the operator must do. */
static void put_xids(struct metrics *m, const struct snap_node *root, struct strbuf *l)
{
	const struct snap_node *xids = snap_get(root, "driver.xid_events");

	metrics_family(m, "gpuenv_xid_events", METRIC_GAUGE,
		       "NVIDIA Xid lines in the kernel log by GPU bus, code and NVIDIA's action "
		       "(resolution bucket) for it: how many.");
	for (size_t i = 0; i < snap_count(xids); i++) {
		const struct snap_node *x = snap_at(xids, i);
		const struct facts_xid *f = NULL;
		int64_t code, count;
		char buf[32], action[40] = "UNKNOWN";

		if (!snap_get_int(x, "code", &code) || !snap_get_int(x, "count", &count) ||
		    code < 0 || code > 100000)
			continue;
		if (facts_xid((unsigned)code, &f) == 0 && f->resolution_bucket &&
		    *f->resolution_bucket)
			snprintf(action, sizeof(action), "%.*s",
				 (int)strcspn(f->resolution_bucket, " ("), f->resolution_bucket);
		snprintf(buf, sizeof(buf), "%lld", (long long)code);
		label(l, "pci_bus_id", snap_get_str(x, "bus_id"));
		label(l, "xid", buf);
		label(l, "action", action);
		label(l, "severity", f && f->severity ? f->severity : "UNKNOWN");
		sample_labels(m, "gpuenv_xid_events", l, count);
	}
}

int out_metrics_doctor(const struct gpuenv_doctor *d, bool openmetrics, unsigned flags,
		       struct strbuf *sb)
{
	const struct snap_node *root = snapshot_root_const(d->snap);
	struct metrics m = { .sb = sb, .openmetrics = openmetrics };
	struct strbuf l = STRBUF_INIT;

	put_findings(&m, d, &l);
	put_layers(&m, d, &l);
	put_driver(&m, root, &l);
	put_xids(&m, root, &l);
	put_toolkits(&m, root, &l);
	/* environment paths name their users */
	if (!(flags & GPUENV_RENDER_REDACT)) {
		put_frameworks(&m, root, &l);
		out_metrics_framework_coverage(&m, root);
	}
	strbuf_done(&l);
	return d->err;
}
