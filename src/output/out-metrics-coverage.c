// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Framework coverage per GPU as a Prometheus state set (`gpuenv exporter`, docs/exporter.md):
 * for each CUDA framework build of each Python environment and each NVIDIA GPU, whether its
 * GPU code runs there natively (SASS), only after the driver JIT-compiles PTX, not at all, or
 * could not be told. The judgement is the framework layer's (fw_gpu_coverage_foreach(),
 * rules-framework-coverage.c), the one behind framework.no-kernel-image and its siblings.
 * The GPU labels are dcgm-exporter's (gpu, UUID, pci_bus_id) where NVML lists the GPU, so the
 * series joins the DCGM ones.
 */
#include <stdio.h>

#include "out-metrics.h"
#include "rules/rules.h"
#include "shared/macro.h"

struct coverage_out {
	struct metrics *m;
	const struct snap_node *nvml_devices;
	struct strbuf l;
};

/* dcgm-exporter's gpu label: the NVML index; "" when NVML does not list the GPU. */
static void gpu_index(const struct snap_node *devices, const struct snap_node *dev, char *buf,
		      size_t len)
{
	*buf = '\0';
	for (size_t i = 0; dev && i < snap_count(devices); i++)
		if (snap_at(devices, i) == dev)
			snprintf(buf, len, "%zu", i);
}

static void put_item(const struct fw_gpu_coverage_item *it, void *u)
{
	struct coverage_out *o = u;
	const struct snap_node *pkg = snap_child(snap_child(it->env, "packages"), it->framework);
	char index[24];

	gpu_index(o->nvml_devices, it->nvml, index, sizeof(index));
	for (int c = FW_GPU_COVERAGE_NATIVE; c <= FW_GPU_COVERAGE_UNKNOWN; c++) {
		metrics_label(&o->l, "framework", it->framework);
		metrics_label(&o->l, "version",
			      snap_get_str(pkg, "version") ?: snap_get_str(pkg, "dist_version"));
		metrics_label(&o->l, "build", it->build);
		metrics_label(&o->l, "env", snap_get_str(it->env, "prefix"));
		metrics_label(&o->l, "gpu", index);
		metrics_label(&o->l, "UUID", snap_get_str(it->nvml, "uuid"));
		metrics_label(&o->l, "pci_bus_id",
			      snap_get_str(it->nvml, "pci_bus_id")
				      ?: snap_get_str(it->gpu, "bus_id"));
		metrics_label(&o->l, "coverage", fw_gpu_coverage_name((enum fw_gpu_coverage)c));
		if (o->l.err && !o->m->sb->err)
			o->m->sb->err = o->l.err;
		metrics_sample_int(o->m, "gpuenv_framework_gpu_coverage", strbuf_str(&o->l),
				   it->coverage == (enum fw_gpu_coverage)c);
		strbuf_reset(&o->l);
	}
}

void out_metrics_framework_coverage(struct metrics *m, const struct snap_node *root)
{
	struct coverage_out o = { m, snap_get(root, "driver.nvml.devices"), STRBUF_INIT };

	metrics_family(m, "gpuenv_framework_gpu_coverage", METRIC_STATESET_GAUGE,
		       "Whether each CUDA framework build's GPU code runs on each NVIDIA GPU (a "
		       "state set): native (SASS), ptx-jit (after the driver compiles PTX at the "
		       "first launch), none (no kernel image, GPU too old, PTX too new), unknown "
		       "(could not tell).");
	fw_gpu_coverage_foreach(root, put_item, &o);
	strbuf_done(&o.l);
}
