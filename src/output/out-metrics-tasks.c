// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What runs on each GPU as Prometheus series (docs/exporter.md): its MIG instances, under
 * dcgm-exporter's MIG labels GPU_I_ID and GPU_I_PROFILE (its internal/pkg/counters and
 * rendermetrics: the GPU instance id and the profile name, "1g.10gb"), and its processes
 * (pid, name, memory, as nvidia-smi lists them). Facts: driver.nvml.devices[].mig_devices[]
 * and .compute_processes[] / .graphics_processes[] (docs/snapshot-schema.md).
 *
 * Cardinality is bounded: at most METRICS_MAX_PROCESSES processes per GPU and list, the
 * ones using the most memory (ties: the lower pid); gpuenv_gpu_processes counts them all,
 * so a dashboard sees what was left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "out-metrics.h"
#include "output.h"

#define METRICS_MAX_PROCESSES 16

/* "NVIDIA A100-SXM4-40GB MIG 1g.5gb" → "1g.5gb": nvmlDeviceGetName of a MIG handle ends
 * with the profile after " MIG " (NVML reference, nvmlDeviceGetName). */
const char *metrics_mig_profile(const char *name)
{
	const char *p = name ? strstr(name, " MIG ") : NULL;

	return p ? p + 5 : "unknown";
}

static void put_label(struct strbuf *l, const char *key, const char *value)
{
	strbuf_printf(l, ",%s=\"", key);
	metrics_label_value(l, value);
	strbuf_putc(l, '"');
}

static void keep_err(struct metrics *m, struct strbuf *l)
{
	if (l->err && !m->sb->err)
		m->sb->err = l->err;
	strbuf_done(l);
}

static void put_mig(struct metrics *m, const struct gpu_view *gpus, size_t n)
{
	metrics_family(m, "gpuenv_gpu_mig_instance_info", METRIC_INFO,
		       "1 for each MIG device (a compute instance in a GPU instance) NVML lists "
		       "on the GPU: GPU_I_ID and GPU_I_PROFILE as dcgm-exporter labels them, "
		       "CI_ID, and the MIG device's UUID.");
	for (size_t i = 0; i < n; i++) {
		const struct snap_node *migs = snap_get(gpus[i].dev, "mig_devices");

		for (size_t k = 0; snap_kind(migs) == SNAP_ARRAY && k < snap_count(migs); k++) {
			const struct snap_node *mig = snap_at(migs, k);
			struct strbuf l = STRBUF_INIT;
			int64_t gi, ci;

			if (!snap_get_int(mig, "gpu_instance_id", &gi) ||
			    !snap_get_int(mig, "compute_instance_id", &ci))
				continue;
			strbuf_printf(&l, "%s,GPU_I_ID=\"%lld\"", gpus[i].short_labels,
				      (long long)gi);
			put_label(&l, "GPU_I_PROFILE",
				  metrics_mig_profile(snap_get_str(mig, "name")));
			strbuf_printf(&l, ",CI_ID=\"%lld\"", (long long)ci);
			put_label(&l, "mig_uuid", snap_get_str(mig, "uuid") ?: "");
			metrics_sample_int(m, "gpuenv_gpu_mig_instance_info", strbuf_str(&l), 1);
			keep_err(m, &l);
		}
	}
}

struct proc_row {
	const struct snap_node *p;
	int64_t pid, mib; /* mib -1: NVML does not say (NVML_VALUE_NOT_AVAILABLE) */
};

static int by_memory(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;

	if (x->mib != y->mib)
		return x->mib > y->mib ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* One list of one GPU: its count, then the largest METRICS_MAX_PROCESSES. */
static void put_process_list(struct metrics *m, const struct gpu_view *g, const char *list,
			     const char *type, bool redact, bool counts)
{
	const struct snap_node *procs = snap_get(g->dev, list);
	size_t n = snap_kind(procs) == SNAP_ARRAY ? snap_count(procs) : 0, kept = 0;
	struct proc_row *rows;
	struct strbuf l = STRBUF_INIT;

	if (snap_kind(procs) != SNAP_ARRAY)
		return; /* not answered: no count, rather than a false 0 */
	if (counts) {
		strbuf_printf(&l, "%s,type=\"%s\"", g->short_labels, type);
		metrics_sample_int(m, "gpuenv_gpu_processes", strbuf_str(&l), (int64_t)n);
		keep_err(m, &l);
		return;
	}
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows) {
		m->sb->err = m->sb->err ?: -ENOMEM;
		return;
	}
	for (size_t k = 0; k < n; k++) {
		const struct snap_node *p = snap_at(procs, k);

		if (!snap_get_int(p, "pid", &rows[kept].pid))
			continue;
		if (!snap_get_int(p, "used_memory_mib", &rows[kept].mib))
			rows[kept].mib = -1;
		rows[kept++].p = p;
	}
	qsort(rows, kept, sizeof(*rows), by_memory);
	for (size_t k = 0; k < kept && k < METRICS_MAX_PROCESSES; k++) {
		int64_t gi;

		if (rows[k].mib < 0)
			continue;
		strbuf_printf(&l, "%s,type=\"%s\",pid=\"%lld\"", g->short_labels, type,
			      (long long)rows[k].pid);
		put_label(&l, "name", redact ? "<redacted>" : snap_get_str(rows[k].p, "name") ?: "");
		if (snap_get_int(rows[k].p, "gpu_instance_id", &gi))
			strbuf_printf(&l, ",GPU_I_ID=\"%lld\"", (long long)gi);
		metrics_sample_int(m, "gpuenv_gpu_process_memory_bytes", strbuf_str(&l),
				   rows[k].mib * 1048576);
		keep_err(m, &l);
	}
	free(rows);
}

static void put_processes(struct metrics *m, const struct gpu_view *gpus, size_t n, bool redact)
{
	static const char *const lists[][2] = { { "compute_processes", "compute" },
						{ "graphics_processes", "graphics" } };

	metrics_family(m, "gpuenv_gpu_processes", METRIC_GAUGE,
		       "Processes NVML lists on the GPU (nvmlDeviceGet{Compute,Graphics}"
		       "RunningProcesses), all of them.");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < 2; k++)
			put_process_list(m, &gpus[i], lists[k][0], lists[k][1], redact, true);
	metrics_family(m, "gpuenv_gpu_process_memory_bytes", METRIC_GAUGE,
		       "GPU memory a process uses (nvmlProcessInfo_t.usedGpuMemory), for the "
		       "16 processes per GPU and type using the most.");
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < 2; k++)
			put_process_list(m, &gpus[i], lists[k][0], lists[k][1], redact, false);
}

void out_metrics_gpu_tasks(struct metrics *m, const struct gpu_view *gpus, size_t n, bool redact)
{
	put_mig(m, gpus, n);
	put_processes(m, gpus, n, redact);
}
