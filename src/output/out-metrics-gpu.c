// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPU sample as Prometheus metrics (`gpuenv exporter`, docs/exporter.md): the
 * dcgm-exporter default counter set under its own names, types, units and labels, so its
 * dashboards and alerts work unchanged, then gpuenv's own GPU series in base units.
 *
 * The field list is dcgm-exporter's etc/default-counters.csv
 * (https://github.com/NVIDIA/dcgm-exporter/blob/main/etc/default-counters.csv: name, type,
 * help), the fields it ships enabled plus the commented ECC and retired-page fields that
 * NVML answers; the labels and their order (gpu, UUID, pci_bus_id, device, modelName,
 * Hostname, then the label field DCGM_FI_DRIVER_VERSION) and the value formats (integers as
 * %d, doubles as %f) are those of its internal/pkg/rendermetrics/render_metrics.go. Each row
 * maps one field to one fact of driver.nvml.devices[] (docs/snapshot-schema.md): a fact not
 * present on a GPU leaves the field out for that GPU, never the scrape, and
 * gpuenv_exporter_field_supported says which. Rows without a fact are DCGM profiling
 * (DCP) fields NVML has no equivalent of: listed, so the support series says so.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuenv/gpuenv.h"
#include "out-metrics.h"
#include "output.h"
#include "shared/macro.h"

enum dcgm_conv {
	CONV_NONE,    /* no NVML source: always unsupported */
	CONV_INT,     /* the fact as it is */
	CONV_BOOL,    /* false 0, true 1 */
	CONV_MILLI,   /* milli-units to units, as a double (mW → W) */
	CONV_MEGA,    /* MHz to Hz */
	CONV_PERCENT, /* percent to a ratio */
	CONV_FB_FREE, /* nvmlMemory_v2_t.free, else total - reserved - used (MiB) */
};

struct dcgm_field {
	const char *name;
	enum metric_type type;
	const char *help; /* default-counters.csv's, verbatim */
	const char *fact; /* under driver.nvml.devices.N */
	enum dcgm_conv conv;
	bool per_mig; /* also one sample per MIG GPU instance (its own memory) */
};

#define GAUGE	METRIC_GAUGE
#define COUNTER METRIC_UNTYPED_COUNTER

static const struct dcgm_field dcgm_fields[] = {
	{ "DCGM_FI_DEV_SM_CLOCK", GAUGE, "SM clock frequency (in MHz).", "clock_sm_mhz", CONV_INT },
	{ "DCGM_FI_DEV_MEM_CLOCK", GAUGE, "Memory clock frequency (in MHz).", "clock_memory_mhz",
	  CONV_INT },
	{ "DCGM_FI_DEV_MEMORY_TEMP", GAUGE, "Memory temperature (in C).", "temperature_memory_c",
	  CONV_INT },
	{ "DCGM_FI_DEV_GPU_TEMP", GAUGE, "GPU temperature (in C).", "temperature_c", CONV_INT },
	{ "DCGM_FI_DEV_POWER_USAGE", GAUGE, "Power draw (in W).", "power_mw", CONV_MILLI },
	{ "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", COUNTER,
	  "Total energy consumption since boot (in mJ).", "energy_mj", CONV_INT },
	{ "DCGM_FI_PROF_PCIE_TX_BYTES", GAUGE,
	  "The rate of data transmitted over the PCIe bus - including both protocol headers and "
	  "data payloads - in bytes per second.",
	  NULL, CONV_NONE },
	{ "DCGM_FI_PROF_PCIE_RX_BYTES", GAUGE,
	  "The rate of data received over the PCIe bus - including both protocol headers and "
	  "data payloads - in bytes per second.",
	  NULL, CONV_NONE },
	{ "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", COUNTER, "Total number of PCIe retries.",
	  "pcie_replay_counter", CONV_INT },
	{ "DCGM_FI_DEV_GPU_UTIL", GAUGE, "GPU utilization (in %).", "utilization_gpu_pct",
	  CONV_INT },
	{ "DCGM_FI_DEV_MEM_COPY_UTIL", GAUGE, "Memory utilization (in %).", "utilization_mem_pct",
	  CONV_INT },
	{ "DCGM_FI_DEV_ENC_UTIL", GAUGE, "Encoder utilization (in %).", "utilization_encoder_pct",
	  CONV_INT },
	{ "DCGM_FI_DEV_DEC_UTIL", GAUGE, "Decoder utilization (in %).", "utilization_decoder_pct",
	  CONV_INT },
	{ "DCGM_FI_DEV_XID_ERRORS", GAUGE, "Value of the last XID error encountered.", NULL,
	  CONV_NONE },
	{ "DCGM_FI_DEV_FB_FREE", GAUGE, "Framebuffer memory free (in MiB).", "memory_free_mib",
	  CONV_FB_FREE, true },
	{ "DCGM_FI_DEV_FB_USED", GAUGE, "Framebuffer memory used (in MiB).", "memory_used_mib",
	  CONV_INT, true },
	{ "DCGM_FI_DEV_FB_RESERVED", GAUGE, "Framebuffer memory reserved (in MiB).",
	  "memory_reserved_mib", CONV_INT, true },
	{ "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", COUNTER,
	  "Total number of single-bit volatile ECC errors.", "ecc_errors_corrected_volatile",
	  CONV_INT },
	{ "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", COUNTER,
	  "Total number of double-bit volatile ECC errors.", "ecc_errors_uncorrected_volatile",
	  CONV_INT },
	{ "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL", COUNTER,
	  "Total number of single-bit persistent ECC errors.", "ecc_errors_corrected_aggregate",
	  CONV_INT },
	{ "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", COUNTER,
	  "Total number of double-bit persistent ECC errors.", "ecc_errors_uncorrected_aggregate",
	  CONV_INT },
	{ "DCGM_FI_DEV_RETIRED_SBE", COUNTER,
	  "Total number of retired pages due to single-bit errors.", "retired_pages_sbe",
	  CONV_INT },
	{ "DCGM_FI_DEV_RETIRED_DBE", COUNTER,
	  "Total number of retired pages due to double-bit errors.", "retired_pages_dbe",
	  CONV_INT },
	{ "DCGM_FI_DEV_RETIRED_PENDING", COUNTER, "Total number of pages pending retirement.",
	  "retired_pages_pending", CONV_BOOL },
	{ "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", COUNTER,
	  "Total number of NVLink bandwidth counters for all lanes.", NULL, CONV_NONE },
	{ "DCGM_FI_DEV_VGPU_LICENSE_STATUS", GAUGE, "vGPU License status", NULL, CONV_NONE },
	{ "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", COUNTER,
	  "Number of remapped rows for uncorrectable errors", "remapped_rows_uncorrectable",
	  CONV_INT },
	{ "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", COUNTER,
	  "Number of remapped rows for correctable errors", "remapped_rows_correctable", CONV_INT },
	{ "DCGM_FI_DEV_ROW_REMAP_FAILURE", GAUGE, "Whether remapping of rows has failed",
	  "remapped_rows_failure", CONV_BOOL },
	{ "DCGM_FI_PROF_GR_ENGINE_ACTIVE", GAUGE, "Ratio of time the graphics engine is active.",
	  NULL, CONV_NONE },
	{ "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", GAUGE,
	  "Ratio of cycles the tensor (HMMA) pipe is active.", NULL, CONV_NONE },
	{ "DCGM_FI_PROF_DRAM_ACTIVE", GAUGE,
	  "Ratio of cycles the device memory interface is active sending or receiving data.", NULL,
	  CONV_NONE },
};

/* gpuenv's own per-GPU gauges: name, help, fact, conversion (base units: no MHz here). */
static const struct dcgm_field gpu_gauges[] = {
	{ "gpuenv_gpu_pcie_link_generation", GAUGE, "Current PCIe link generation.",
	  "pcie_link_gen", CONV_INT },
	{ "gpuenv_gpu_pcie_link_max_generation", GAUGE,
	  "Highest PCIe link generation the GPU and its slot support.", "pcie_link_gen_max",
	  CONV_INT },
	{ "gpuenv_gpu_pcie_link_width", GAUGE, "Current PCIe link width (lanes).",
	  "pcie_link_width", CONV_INT },
	{ "gpuenv_gpu_pcie_link_max_width", GAUGE, "Widest PCIe link the GPU supports (lanes).",
	  "pcie_link_width_max", CONV_INT },
	{ "gpuenv_gpu_power_limit_watts", GAUGE, "Enforced power limit.", "power_limit_mw",
	  CONV_MILLI },
	{ "gpuenv_gpu_remapped_rows_pending", GAUGE,
	  "Row remapping pending: the GPU needs a reset (1) or not (0).", "remapped_rows_pending",
	  CONV_BOOL },
	{ "gpuenv_gpu_temperature_slowdown_threshold_celsius", GAUGE,
	  "The temperature at which the GPU slows down (nvmlDeviceGetTemperatureThreshold "
	  "SLOWDOWN).",
	  "temperature_slowdown_c", CONV_INT },
	{ "gpuenv_gpu_temperature_shutdown_threshold_celsius", GAUGE,
	  "The temperature at which the GPU shuts down (SHUTDOWN threshold).",
	  "temperature_shutdown_c", CONV_INT },
	{ "gpuenv_gpu_sm_clock_max_hertz", GAUGE, "The highest SM clock the GPU supports.",
	  "clock_sm_max_mhz", CONV_MEGA },
	{ "gpuenv_gpu_memory_clock_max_hertz", GAUGE, "The highest memory clock the GPU supports.",
	  "clock_memory_max_mhz", CONV_MEGA },
	{ "gpuenv_gpu_performance_state", GAUGE, "The performance state, P0 (0) to P15 (15).",
	  "performance_state", CONV_INT },
	{ "gpuenv_gpu_fan_speed_ratio", GAUGE, "Fan speed as a fraction of its maximum.",
	  "fan_speed_pct", CONV_PERCENT },
	{ "gpuenv_gpu_mig_mode", GAUGE, "MIG mode enabled (1) or not (0).", "mig_mode", CONV_BOOL },
	{ "gpuenv_gpu_persistence_mode", GAUGE, "Persistence mode enabled (1) or not (0).",
	  "persistence_mode", CONV_BOOL },
};

/* The value of f on dev; false when the fact is not present (the field is unsupported). */
static bool field_value(const struct dcgm_field *f, const struct snap_node *dev, bool *is_double,
			int64_t *iv, double *dv)
{
	int64_t a, b;
	bool v;

	*is_double = false;
	switch (f->conv) {
	case CONV_NONE:
		return false;
	case CONV_INT:
		return snap_get_int(dev, f->fact, iv);
	case CONV_BOOL:
		if (!snap_bool(snap_get(dev, f->fact), &v))
			return false;
		*iv = v;
		return true;
	case CONV_MILLI:
		if (!snap_get_int(dev, f->fact, &a))
			return false;
		*is_double = true;
		*dv = (double)a / 1000.0;
		return true;
	case CONV_MEGA:
		if (!snap_get_int(dev, f->fact, &a))
			return false;
		*iv = a * 1000000;
		return true;
	case CONV_PERCENT:
		if (!snap_get_int(dev, f->fact, &a))
			return false;
		*is_double = true;
		*dv = (double)a / 100.0;
		return true;
	case CONV_FB_FREE:
		if (snap_get_int(dev, f->fact, iv))
			return true;
		if (!snap_get_int(dev, "memory_total_mib", &a) ||
		    !snap_get_int(dev, "memory_used_mib", iv))
			return false;
		b = 0;
		(void)snap_get_int(dev, "memory_reserved_mib", &b);
		*iv = a - b - *iv;
		return true;
	}
	return false;
}

static char *gpu_labels(const struct snap_node *dev, size_t i, const char *hostname,
			const char *driver, bool full)
{
	struct strbuf sb = STRBUF_INIT;
	char *ret = NULL;

	strbuf_printf(&sb, "gpu=\"%zu\",UUID=\"", i);
	metrics_label_value(&sb, snap_get_str(dev, "uuid"));
	strbuf_puts(&sb, "\",pci_bus_id=\"");
	metrics_label_value(&sb, snap_get_str(dev, "pci_bus_id"));
	if (full) {
		strbuf_printf(&sb, "\",device=\"nvidia%zu\",modelName=\"", i);
		metrics_label_value(&sb, snap_get_str(dev, "name"));
		strbuf_puts(&sb, "\",Hostname=\"");
		metrics_label_value(&sb, hostname);
		strbuf_puts(&sb, "\",DCGM_FI_DRIVER_VERSION=\"");
		metrics_label_value(&sb, driver);
	}
	strbuf_putc(&sb, '"');
	if (strbuf_steal(&sb, &ret) < 0)
		return NULL;
	return ret;
}

/* dcgm-exporter's labels of a MIG GPU instance's sample: the GPU's, with GPU_I_PROFILE and
 * GPU_I_ID before Hostname (its render_metrics.go order). */
static char *mig_labels(const struct gpu_view *gpu, const char *profile, int64_t gi)
{
	const char *host = strstr(gpu->labels, ",Hostname=\"");
	struct strbuf sb = STRBUF_INIT;
	char *ret = NULL;

	if (!host)
		return NULL;
	strbuf_printf(&sb, "%.*s,GPU_I_PROFILE=\"", (int)(host - gpu->labels), gpu->labels);
	metrics_label_value(&sb, profile);
	strbuf_printf(&sb, "\",GPU_I_ID=\"%lld\"%s", (long long)gi, host);
	if (strbuf_steal(&sb, &ret) < 0)
		return NULL;
	return ret;
}

/* f for each GPU instance of gpu in MIG mode, from its first MIG device (the compute
 * instances of one GPU instance share its memory: one series per GPU_I_ID, as
 * dcgm-exporter's GPU-instance entities give). */
static void put_mig_fields(struct metrics *m, const struct dcgm_field *f,
			   const struct gpu_view *gpu)
{
	const struct snap_node *migs = snap_get(gpu->dev, "mig_devices");
	int64_t seen[16];
	size_t n_seen = 0;

	for (size_t k = 0; snap_kind(migs) == SNAP_ARRAY && k < snap_count(migs); k++) {
		const struct snap_node *mig = snap_at(migs, k);
		bool is_double, dup = false;
		int64_t gi, iv;
		double dv;
		char *l;

		if (!snap_get_int(mig, "gpu_instance_id", &gi) ||
		    !field_value(f, mig, &is_double, &iv, &dv))
			continue;
		for (size_t i = 0; i < n_seen; i++)
			dup |= seen[i] == gi;
		if (dup || n_seen == ARRAY_SIZE(seen))
			continue;
		seen[n_seen++] = gi;
		l = mig_labels(gpu, metrics_mig_profile(snap_get_str(mig, "name")), gi);
		if (!l) {
			m->sb->err = m->sb->err ?: -ENOMEM;
			return;
		}
		if (is_double)
			metrics_sample_double(m, f->name, l, dv);
		else
			metrics_sample_int(m, f->name, l, iv);
		free(l);
	}
}

static void put_fields(struct metrics *m, const struct dcgm_field *fields, size_t n,
		       const struct gpu_view *gpus, size_t n_gpus, bool full)
{
	for (size_t f = 0; f < n; f++) {
		bool header = false;

		for (size_t g = 0; g < n_gpus; g++) {
			bool is_double;
			int64_t iv;
			double dv;

			if (!field_value(&fields[f], gpus[g].dev, &is_double, &iv, &dv))
				continue;
			if (!header)
				metrics_family(m, fields[f].name, fields[f].type, fields[f].help);
			header = true;
			if (is_double)
				metrics_sample_double(m, fields[f].name,
						      full ? gpus[g].labels : gpus[g].short_labels,
						      dv);
			else
				metrics_sample_int(m, fields[f].name,
						   full ? gpus[g].labels : gpus[g].short_labels,
						   iv);
			if (fields[f].per_mig && full)
				put_mig_fields(m, &fields[f], &gpus[g]);
		}
	}
}

/* A GPU NVML reports lost (NVML_ERROR_GPU_IS_LOST on any of its calls, nvml.md §6). */
static unsigned gpu_lost(const struct snap_node *dev)
{
	for (size_t i = 0; i < snap_count(dev); i++) {
		const char *e = snap_error(snap_at(dev, i));

		if (e && strstr(e, "NVML_ERROR_GPU_IS_LOST"))
			return true;
	}
	return false;
}

static unsigned gpu_failed_calls(const struct snap_node *dev)
{
	unsigned n = 0;

	for (size_t i = 0; i < snap_count(dev); i++)
		n += snap_state(snap_at(dev, i)) == FACT_ERROR;
	return n;
}

static void put_per_gpu(struct metrics *m, const char *name, const char *help,
			const struct gpu_view *gpus, size_t n,
			unsigned (*value)(const struct snap_node *))
{
	metrics_family(m, name, METRIC_GAUGE, help);
	for (size_t i = 0; i < n; i++)
		metrics_sample_int(m, name, gpus[i].short_labels, value(gpus[i].dev));
}

/* nvmlClocksEventReasons bits (nvml.h; docs/snapshot-schema.md clocks_event_reasons). */
static const struct {
	uint64_t bit;
	const char *name;
} clock_reasons[] = {
	{ 0x1, "gpu_idle" },
	{ 0x2, "applications_clocks_setting" },
	{ 0x4, "sw_power_cap" },
	{ 0x8, "hw_slowdown" },
	{ 0x10, "sync_boost" },
	{ 0x20, "sw_thermal_slowdown" },
	{ 0x40, "hw_thermal_slowdown" },
	{ 0x80, "hw_power_brake_slowdown" },
	{ 0x100, "display_clock_setting" },
};

static void put_clock_reasons(struct metrics *m, const struct gpu_view *gpus, size_t n)
{
	metrics_family(m, "gpuenv_gpu_clocks_event_reason", METRIC_STATESET_GAUGE,
		       "1 for each reason the GPU's clocks are held down now "
		       "(nvmlDeviceGetCurrentClocksEventReasons), 0 for the others.");
	for (size_t i = 0; i < n; i++) {
		int64_t mask;

		if (!snap_get_int(gpus[i].dev, "clocks_event_reasons", &mask))
			continue;
		for (size_t r = 0; r < ARRAY_SIZE(clock_reasons); r++) {
			struct strbuf l = STRBUF_INIT;

			strbuf_printf(&l, "%s,reason=\"%s\"", gpus[i].short_labels,
				      clock_reasons[r].name);
			if (l.err && !m->sb->err)
				m->sb->err = l.err;
			metrics_sample_int(m, "gpuenv_gpu_clocks_event_reason", strbuf_str(&l),
					   ((uint64_t)mask & clock_reasons[r].bit) != 0);
			strbuf_done(&l);
		}
	}
}

/* Each NVLink NVML reports on a GPU (driver.nvml.devices[].nvlink[]): 1 active, 0 down. */
static void put_nvlink(struct metrics *m, const struct gpu_view *gpus, size_t n)
{
	metrics_family(m, "gpuenv_gpu_nvlink_link_up", METRIC_GAUGE,
		       "1 when the NVLink link is active, 0 when NVML reports it down "
		       "(nvmlDeviceGetNvLinkState).");
	for (size_t i = 0; i < n; i++) {
		const struct snap_node *links = snap_get(gpus[i].dev, "nvlink");

		for (size_t k = 0; snap_kind(links) == SNAP_ARRAY && k < snap_count(links); k++) {
			const struct snap_node *link = snap_at(links, k);
			struct strbuf l = STRBUF_INIT;
			int64_t no;
			bool up;

			if (!snap_get_int(link, "link", &no) ||
			    !snap_bool(snap_get(link, "active"), &up))
				continue;
			strbuf_printf(&l, "%s,link=\"%lld\"", gpus[i].short_labels, (long long)no);
			if (l.err && !m->sb->err)
				m->sb->err = l.err;
			metrics_sample_int(m, "gpuenv_gpu_nvlink_link_up", strbuf_str(&l), up);
			strbuf_done(&l);
		}
	}
}

static void put_support(struct metrics *m, const struct gpu_view *gpus, size_t n_gpus)
{
	metrics_family(m, "gpuenv_exporter_field_supported", METRIC_GAUGE,
		       "1 when the DCGM field is exported for this GPU, 0 when NVML does not "
		       "answer it there (left out, never fatal).");
	for (size_t f = 0; f < ARRAY_SIZE(dcgm_fields); f++)
		for (size_t g = 0; g < n_gpus; g++) {
			bool is_double;
			int64_t iv;
			double dv;
			struct strbuf l = STRBUF_INIT;

			strbuf_printf(&l, "%s,field=\"%s\"", gpus[g].short_labels,
				      dcgm_fields[f].name);
			metrics_sample_int(
				m, "gpuenv_exporter_field_supported", strbuf_str(&l),
				field_value(&dcgm_fields[f], gpus[g].dev, &is_double, &iv, &dv));
			if (l.err)
				m->sb->err = m->sb->err ?: l.err;
			strbuf_done(&l);
		}
}

static void put_nvml_state(struct metrics *m, const struct snap_node *nvml, size_t n_gpus)
{
	const char *init = snap_get_str(nvml, "init");
	const char *err = snap_error(snap_get(nvml, "init"));
	struct strbuf l = STRBUF_INIT;

	metrics_family(m, "gpuenv_nvml_up", METRIC_GAUGE,
		       "1 when nvmlInit succeeded in the last sample, else 0 (see "
		       "gpuenv_nvml_init_error).");
	metrics_sample_int(m, "gpuenv_nvml_up", NULL, init != NULL);
	metrics_family(m, "gpuenv_nvml_init_error", METRIC_GAUGE,
		       "1 with the NVML error of nvmlInit when it failed (the error code's name, "
		       "e.g. NVML_ERROR_LIB_RM_VERSION_MISMATCH).");
	if (!init) {
		char code[64] = "unprobed";

		if (err)
			snprintf(code, sizeof(code), "%.*s", (int)strcspn(err, " ("), err);
		strbuf_puts(&l, "error=\"");
		metrics_label_value(&l, code);
		strbuf_putc(&l, '"');
		metrics_sample_int(m, "gpuenv_nvml_init_error", strbuf_str(&l), 1);
	}
	strbuf_done(&l);
	metrics_family(m, "gpuenv_nvml_gpus", METRIC_GAUGE,
		       "GPUs NVML counts (nvmlDeviceGetCount).");
	metrics_sample_int(m, "gpuenv_nvml_gpus", NULL, (int64_t)n_gpus);
	/* The old name, kept for one release so that queries on it keep working: a "_count"
	 * suffix is a histogram's or summary's (Prometheus, "Metric and label naming";
	 * promtool check metrics flags it). docs/exporter.md, Deprecated series. */
	metrics_family(
		m, "gpuenv_gpu_count", METRIC_GAUGE,
		"Deprecated: gpuenv_nvml_gpus, the same value; removed in the next release.");
	metrics_sample_int(m, "gpuenv_gpu_count", NULL, (int64_t)n_gpus);
}

int out_metrics_gpu(const struct gpuenv_snapshot *s, bool openmetrics, unsigned flags,
		    struct strbuf *sb)
{
	const struct snap_node *root = snapshot_root_const(s);
	const struct snap_node *nvml = snap_get(root, "driver.nvml");
	const struct snap_node *devices = snap_get(nvml, "devices");
	const char *hostname = snap_get_str(root, "collection.hostname");
	const char *driver = snap_get_str(nvml, "driver_version");
	struct metrics m = { .sb = sb, .openmetrics = openmetrics };
	size_t n = snap_count(devices);
	_cleanup_free_ struct gpu_view *gpus = calloc(n ? n : 1, sizeof(*gpus));
	int r = 0;

	if (!gpus)
		return -ENOMEM;
	if (flags & GPUENV_RENDER_REDACT)
		hostname = "<redacted>";
	for (size_t i = 0; i < n; i++) {
		gpus[i].dev = snap_at(devices, i);
		gpus[i].labels = gpu_labels(gpus[i].dev, i, hostname, driver, true);
		gpus[i].short_labels = gpu_labels(gpus[i].dev, i, NULL, NULL, false);
		if (!gpus[i].labels || !gpus[i].short_labels)
			r = -ENOMEM;
	}
	if (r == 0) {
		put_fields(&m, dcgm_fields, ARRAY_SIZE(dcgm_fields), gpus, n, true);
		put_nvml_state(&m, nvml, n);
		put_fields(&m, gpu_gauges, ARRAY_SIZE(gpu_gauges), gpus, n, false);
		put_per_gpu(&m, "gpuenv_gpu_lost",
			    "1 when NVML reports the GPU lost (NVML_ERROR_GPU_IS_LOST: fallen off "
			    "the bus, Xid 79).",
			    gpus, n, gpu_lost);
		put_per_gpu(&m, "gpuenv_gpu_nvml_failed_calls",
			    "NVML calls on this GPU that failed with an error (not NOT_SUPPORTED) "
			    "in the last sample.",
			    gpus, n, gpu_failed_calls);
		put_nvlink(&m, gpus, n);
		put_clock_reasons(&m, gpus, n);
		out_metrics_gpu_tasks(&m, gpus, n, flags & GPUENV_RENDER_REDACT);
		put_support(&m, gpus, n);
		out_metrics_vendor(&m, root);
	}
	for (size_t i = 0; i < n; i++) {
		free(gpus[i].labels);
		free(gpus[i].short_labels);
	}
	return r;
}
