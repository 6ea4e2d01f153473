// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPU sample's AMD and Intel series (`gpuenv exporter`, docs/exporter.md "AMD and Intel
 * GPUs"): what the AMD SMI session (driver.amdsmi) and the Level Zero session
 * (driver.level_zero) of the sample answered, under gpuenv's own names in base units
 * (https://prometheus.io/docs/practices/naming/: celsius, bytes, joules, ratios 0-1, counters
 * ending in _total), never DCGM's: a dashboard that reads DCGM_FI_* must not count an AMD
 * board as an NVIDIA one. docs/exporter.md maps each to AMD's device-metrics-exporter name
 * (github.com/ROCm/device-metrics-exporter docs/configuration/metricslist.md). A fact not
 * present on a GPU leaves its sample out for that GPU; a session that did not run (no AMD or
 * Intel GPU driver loaded) writes nothing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "out-metrics.h"
#include "shared/fact-state.h"
#include "shared/macro.h"
#include "snapshot/snapshot.h"

enum vendor_conv {
	VC_INT,	  /* the fact as it is */
	VC_BYTES, /* MiB to bytes */
	VC_RATIO, /* percent to 0-1 */
	VC_MICRO, /* micro-units to units (µJ → J) */
};

/* One series of a family: consecutive rows of one name make one family (the label tells
 * them apart: a temperature sensor, an engine, an error severity). */
struct vendor_series {
	const char *name;
	enum metric_type type;
	const char *help;
	const char *fact;  /* under devices.N */
	const char *label; /* extra label, `key="value"`, or NULL */
	enum vendor_conv conv;
};

static const struct vendor_series amd_series[] = {
	{ "gpuenv_amd_gpu_temperature_celsius", METRIC_GAUGE,
	  "GPU temperature by sensor: edge, hotspot (junction) (amdsmi_get_temp_metric).",
	  "temperature_edge_c", "sensor=\"edge\"", VC_INT },
	{ "gpuenv_amd_gpu_temperature_celsius", METRIC_GAUGE, NULL, "temperature_hotspot_c",
	  "sensor=\"hotspot\"", VC_INT },
	{ "gpuenv_amd_gpu_memory_total_bytes", METRIC_GAUGE,
	  "VRAM size (amdsmi_get_gpu_vram_usage).", "vram_total_mib", NULL, VC_BYTES },
	{ "gpuenv_amd_gpu_memory_used_bytes", METRIC_GAUGE,
	  "VRAM in use (amdsmi_get_gpu_vram_usage).", "vram_used_mib", NULL, VC_BYTES },
	{ "gpuenv_amd_gpu_energy_joules_total", METRIC_COUNTER,
	  "Energy the GPU used since the driver loaded (amdsmi_get_energy_count); its rate is "
	  "the power in watts.",
	  "energy_uj", NULL, VC_MICRO },
	{ "gpuenv_amd_gpu_power_watts", METRIC_GAUGE,
	  "Socket power: the current reading (MI300 and later), else the average "
	  "(amdsmi_get_power_info; only from a library release whose amdsmi_power_info_t "
	  "layout gpuenv knows, 23.x to 26.x but 25.0-25.2).",
	  "power_w", NULL, VC_INT },
	{ "gpuenv_amd_gpu_activity_ratio", METRIC_GAUGE,
	  "Engine activity, 0 to 1, by engine: gfx (graphics and compute), umc (memory "
	  "controller), mm (multimedia) (amdsmi_get_gpu_activity).",
	  "gfx_activity_pct", "engine=\"gfx\"", VC_RATIO },
	{ "gpuenv_amd_gpu_activity_ratio", METRIC_GAUGE, NULL, "umc_activity_pct", "engine=\"umc\"",
	  VC_RATIO },
	{ "gpuenv_amd_gpu_activity_ratio", METRIC_GAUGE, NULL, "mm_activity_pct", "engine=\"mm\"",
	  VC_RATIO },
	{ "gpuenv_amd_gpu_ecc_errors_total", METRIC_COUNTER,
	  "RAS (ECC) errors of every block by severity: correctable, uncorrectable, deferred "
	  "(amdsmi_get_gpu_total_ecc_count).",
	  "ecc_correctable", "severity=\"correctable\"", VC_INT },
	{ "gpuenv_amd_gpu_ecc_errors_total", METRIC_COUNTER, NULL, "ecc_uncorrectable",
	  "severity=\"uncorrectable\"", VC_INT },
	{ "gpuenv_amd_gpu_ecc_errors_total", METRIC_COUNTER, NULL, "ecc_deferred",
	  "severity=\"deferred\"", VC_INT },
};

static const struct vendor_series intel_series[] = {
	{ "gpuenv_intel_gpu_memory_total_bytes", METRIC_GAUGE,
	  "Device-local memory size (zeDeviceGetMemoryProperties; none on an integrated GPU).",
	  "memory_total_mib", NULL, VC_BYTES },
	{ "gpuenv_intel_gpu_memory_used_bytes", METRIC_GAUGE,
	  "Device-local memory in use, size - free of the device's memory modules "
	  "(zesMemoryGetState).",
	  "memory_used_bytes", NULL, VC_INT },
	{ "gpuenv_intel_gpu_temperature_celsius", METRIC_GAUGE,
	  "GPU temperature by sensor, the hottest of each: global (the whole device), gpu, "
	  "memory (zesTemperatureGetState).",
	  "temperature_global_c", "sensor=\"global\"", VC_INT },
	{ "gpuenv_intel_gpu_temperature_celsius", METRIC_GAUGE, NULL, "temperature_gpu_c",
	  "sensor=\"gpu\"", VC_INT },
	{ "gpuenv_intel_gpu_temperature_celsius", METRIC_GAUGE, NULL, "temperature_memory_c",
	  "sensor=\"memory\"", VC_INT },
	{ "gpuenv_intel_gpu_energy_joules_total", METRIC_COUNTER,
	  "Energy the GPU used (zesPowerGetEnergyCounter of its power domain); its rate is the "
	  "power in watts.",
	  "energy_uj", NULL, VC_MICRO },
	{ "gpuenv_intel_gpu_ras_errors_total", METRIC_COUNTER,
	  "RAS errors by severity, every category (resets, programming, driver, compute, "
	  "non-compute, cache, display) summed (zesRasGetState; usually needs root).",
	  "ras_correctable", "severity=\"correctable\"", VC_INT },
	{ "gpuenv_intel_gpu_ras_errors_total", METRIC_COUNTER, NULL, "ras_uncorrectable",
	  "severity=\"uncorrectable\"", VC_INT },
	{ "gpuenv_intel_gpu_activity_ratio", METRIC_GAUGE,
	  "Engine group activity, 0 to 1, by group: all, compute, render, media, copy (the "
	  "change of zesEngineGetActivity's active time over its timestamp's, in 50 ms).",
	  "engine_all_activity_pct", "engine=\"all\"", VC_RATIO },
	{ "gpuenv_intel_gpu_activity_ratio", METRIC_GAUGE, NULL, "engine_compute_activity_pct",
	  "engine=\"compute\"", VC_RATIO },
	{ "gpuenv_intel_gpu_activity_ratio", METRIC_GAUGE, NULL, "engine_render_activity_pct",
	  "engine=\"render\"", VC_RATIO },
	{ "gpuenv_intel_gpu_activity_ratio", METRIC_GAUGE, NULL, "engine_media_activity_pct",
	  "engine=\"media\"", VC_RATIO },
	{ "gpuenv_intel_gpu_activity_ratio", METRIC_GAUGE, NULL, "engine_copy_activity_pct",
	  "engine=\"copy\"", VC_RATIO },
};

/* What a vendor session's renderer needs: its subtree, its names and the labels of each
 * device (built once per device: `gpu="N"` plus what identifies it). */
struct vendor_view {
	const struct snap_node *session, *devices;
	const char *up, *init_error, *count; /* family names */
	const char *label;		     /* "AMD SMI", "Level Zero" */
	const char *init_call;		     /* amdsmi_init, zeInit */
	const char *count_help;
};

static bool series_value(const struct vendor_series *s, const struct snap_node *dev,
			 bool *is_double, int64_t *iv, double *dv)
{
	int64_t v;

	*is_double = false;
	if (!snap_get_int(dev, s->fact, &v))
		return false;
	switch (s->conv) {
	case VC_INT:
		*iv = v;
		return true;
	case VC_BYTES:
		if (v < 0 || v > INT64_MAX / (1024 * 1024))
			return false;
		*iv = v * 1024 * 1024;
		return true;
	case VC_RATIO:
		*is_double = true;
		*dv = (double)v / 100.0;
		return true;
	case VC_MICRO:
		*is_double = true;
		*dv = (double)v / 1e6;
		return true;
	}
	return false;
}

/* `gpu="N"` and, where the session has it, pci_bus_id; then the row's own label. */
static void device_labels(struct strbuf *sb, const struct snap_node *dev, size_t i,
			  const char *extra)
{
	const char *bus = snap_get_str(dev, "bus_id");

	strbuf_reset(sb);
	strbuf_printf(sb, "gpu=\"%zu\"", i);
	if (bus) {
		strbuf_puts(sb, ",pci_bus_id=\"");
		metrics_label_value(sb, bus);
		strbuf_putc(sb, '"');
	}
	if (extra)
		strbuf_printf(sb, ",%s", extra);
}

static void put_series(struct metrics *m, const struct vendor_series *rows, size_t n_rows,
		       const struct snap_node *devices)
{
	struct strbuf l = STRBUF_INIT;
	const char *help = NULL;
	bool header = false;

	for (size_t r = 0; r < n_rows; r++) {
		/* a new family: its help is on its first row */
		if (r == 0 || strcmp(rows[r].name, rows[r - 1].name) != 0) {
			header = false;
			help = rows[r].help;
		}
		for (size_t i = 0; i < snap_count(devices); i++) {
			const struct snap_node *dev = snap_at(devices, i);
			bool is_double;
			int64_t iv;
			double dv;

			if (!series_value(&rows[r], dev, &is_double, &iv, &dv))
				continue;
			if (!header)
				metrics_family(m, rows[r].name, rows[r].type, help);
			header = true;
			device_labels(&l, dev, i, rows[r].label);
			if (is_double)
				metrics_sample_double(m, rows[r].name, strbuf_str(&l), dv);
			else
				metrics_sample_int(m, rows[r].name, strbuf_str(&l), iv);
		}
	}
	strbuf_done(&l);
}

/* Whether the session's init call succeeded, why not (the vendor code's name, or the fact's
 * state where it was never called: unprobed, unreadable), how many GPUs it listed, and how
 * many of their calls failed with an error. */
static void put_session_state(struct metrics *m, const struct vendor_view *v)
{
	const struct snap_node *init = snap_get(v->session, "init");
	const char *err = snap_error(init);
	struct strbuf l = STRBUF_INIT;
	char help[200], code[64];
	int64_t count;

	snprintf(help, sizeof(help), "1 when %s succeeded in the last sample, else 0 (see %s).",
		 v->init_call, v->init_error);
	metrics_family(m, v->up, METRIC_GAUGE, help);
	metrics_sample_int(m, v->up, NULL, snap_present(init));
	snprintf(help, sizeof(help),
		 "1 with why %s did not succeed: the %s error code's name, or the state of a "
		 "call never made (unprobed: the GPU driver is not loaded).",
		 v->init_call, v->label);
	metrics_family(m, v->init_error, METRIC_GAUGE, help);
	if (!snap_present(init)) {
		if (snap_state(init) == FACT_ERROR && err)
			snprintf(code, sizeof(code), "%.*s", (int)strcspn(err, " ("), err);
		else
			snprintf(code, sizeof(code), "%s", fact_state_to_string(snap_state(init)));
		strbuf_puts(&l, "error=\"");
		metrics_label_value(&l, code);
		strbuf_putc(&l, '"');
		metrics_sample_int(m, v->init_error, strbuf_str(&l), 1);
	}
	strbuf_done(&l);
	if (snap_get_int(v->session, "device_count", &count)) {
		metrics_family(m, v->count, METRIC_GAUGE, v->count_help);
		metrics_sample_int(m, v->count, NULL, count);
	}
}

/* Calls on each GPU that failed with an error (not an unsupported reading). */
static void put_failed_calls(struct metrics *m, const char *name, const char *label,
			     const struct snap_node *devices)
{
	struct strbuf l = STRBUF_INIT;
	char help[160];

	if (!snap_count(devices))
		return;
	snprintf(help, sizeof(help),
		 "%s calls on this GPU that failed with an error (not an unsupported reading) "
		 "in the last sample.",
		 label);
	metrics_family(m, name, METRIC_GAUGE, help);
	for (size_t i = 0; i < snap_count(devices); i++) {
		const struct snap_node *dev = snap_at(devices, i);
		unsigned n = 0;

		for (size_t k = 0; k < snap_count(dev); k++)
			n += snap_state(snap_at(dev, k)) == FACT_ERROR;
		device_labels(&l, dev, i, NULL);
		metrics_sample_int(m, name, strbuf_str(&l), n);
	}
	strbuf_done(&l);
}

/* gpuenv_amd_gpu_device_info{gpu, pci_bus_id, model, driver_version} 1. */
static void put_amd_info(struct metrics *m, const struct snap_node *devices)
{
	struct strbuf l = STRBUF_INIT;

	if (!snap_count(devices))
		return;
	metrics_family(m, "gpuenv_amd_gpu_device_info", METRIC_INFO,
		       "Each AMD GPU AMD SMI lists: its model (market name) and amdgpu driver "
		       "version (empty where the library did not say).");
	for (size_t i = 0; i < snap_count(devices); i++) {
		const struct snap_node *dev = snap_at(devices, i);

		device_labels(&l, dev, i, NULL);
		strbuf_puts(&l, ",model=\"");
		metrics_label_value(&l, snap_get_str(dev, "market_name"));
		strbuf_puts(&l, "\",driver_version=\"");
		metrics_label_value(&l, snap_get_str(dev, "driver_version"));
		strbuf_putc(&l, '"');
		metrics_sample_int(m, "gpuenv_amd_gpu_device_info", strbuf_str(&l), 1);
	}
	strbuf_done(&l);
}

/* gpuenv_intel_gpu_device_info{gpu, model, device_id, integrated, driver_version} 1: the driver
 * version of the Level Zero driver that listed the GPU. */
static void put_intel_info(struct metrics *m, const struct snap_node *ze,
			   const struct snap_node *devices)
{
	struct strbuf l = STRBUF_INIT;
	char path[64];

	if (!snap_count(devices))
		return;
	metrics_family(m, "gpuenv_intel_gpu_device_info", METRIC_INFO,
		       "Each GPU Level Zero lists: model, PCI device id, integrated or not, and "
		       "the driverVersion of the Level Zero driver that lists it (empty where not "
		       "said).");
	for (size_t i = 0; i < snap_count(devices); i++) {
		const struct snap_node *dev = snap_at(devices, i);
		int64_t id, drv, ver;
		bool integrated;

		device_labels(&l, dev, i, NULL);
		strbuf_puts(&l, ",model=\"");
		metrics_label_value(&l, snap_get_str(dev, "name"));
		strbuf_puts(&l, "\",device_id=\"");
		if (snap_get_int(dev, "device_id", &id))
			strbuf_printf(&l, "0x%04" PRIx64, id);
		strbuf_puts(&l, "\",integrated=\"");
		if (snap_bool(snap_get(dev, "integrated"), &integrated))
			strbuf_puts(&l, integrated ? "true" : "false");
		strbuf_puts(&l, "\",driver_version=\"");
		if (snap_get_int(dev, "driver", &drv)) {
			snprintf(path, sizeof(path), "drivers.%" PRId64 ".driver_version", drv);
			if (snap_get_int(ze, path, &ver))
				strbuf_printf(&l, "%" PRId64, ver);
		}
		strbuf_putc(&l, '"');
		metrics_sample_int(m, "gpuenv_intel_gpu_device_info", strbuf_str(&l), 1);
	}
	strbuf_done(&l);
}

void out_metrics_vendor(struct metrics *m, const struct snap_node *root)
{
	const struct snap_node *amd = snap_get(root, "driver.amdsmi");
	const struct snap_node *ze = snap_get(root, "driver.level_zero");

	if (amd) {
		const struct vendor_view v = {
			.session = amd,
			.up = "gpuenv_amdsmi_up",
			.init_error = "gpuenv_amdsmi_init_error",
			.count = "gpuenv_amd_gpus",
			.label = "AMD SMI",
			.init_call = "amdsmi_init",
			.count_help = "AMD GPUs AMD SMI lists (amdsmi_get_processor_handles).",
		};
		const struct snap_node *devices = snap_get(amd, "devices");

		put_session_state(m, &v);
		put_amd_info(m, devices);
		put_series(m, amd_series, ARRAY_SIZE(amd_series), devices);
		put_failed_calls(m, "gpuenv_amd_gpu_amdsmi_failed_calls", "AMD SMI", devices);
	}
	if (ze) {
		const struct vendor_view v = {
			.session = ze,
			.up = "gpuenv_level_zero_up",
			.init_error = "gpuenv_level_zero_init_error",
			.count = "gpuenv_intel_gpus",
			.label = "Level Zero",
			.init_call = "zeInit",
			.count_help = "GPUs Level Zero lists (zeDeviceGet over every driver).",
		};
		const struct snap_node *devices = snap_get(ze, "devices");

		put_session_state(m, &v);
		put_intel_info(m, ze, devices);
		put_series(m, intel_series, ARRAY_SIZE(intel_series), devices);
		put_failed_calls(m, "gpuenv_intel_gpu_level_zero_failed_calls", "Level Zero",
				 devices);
	}
}
