// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPU's own health as NVML reports it (driver.nvml.devices[], docs/snapshot-schema.md):
 * uncorrectable ECC errors, row remapping pending or failed, pages pending retirement,
 * clocks held down for a fault (clocks event reasons), temperature at the slowdown
 * threshold, NVLink links down, PCIe replays growing while gpuenv looked, a GPU lost from
 * the bus, and the MIG layout. What each means and what to do: NVIDIA's Xid catalogue
 * (https://docs.nvidia.com/deploy/xid-errors/index.html), GPU memory error management
 * (https://docs.nvidia.com/deploy/a100-gpu-mem-error-mgmt/index.html), dynamic page
 * retirement (https://docs.nvidia.com/deploy/dynamic-page-retirement/index.html) and the
 * NVML reference (clocks event reasons, temperature thresholds).
 *
 * A value a board does not have (NOT_SUPPORTED: ECC on GeForce, row remapping before
 * Ampere) is no finding and no skip; a value NVML failed to give is a skip naming the call.
 * hardware.ecc-uncorrectable judges AMD and Intel GPUs too (rules-hardware-ras.c).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/strbuf.h"

#define DEVICES(root) snap_get(root, "driver.nvml.devices")

/* "GPU 0 (00000000:18:00.0, NVIDIA H100 80GB HBM3)" */
static void dev_label(const struct snap_node *d, size_t i, char *buf, size_t len)
{
	int64_t idx = (int64_t)i;

	snap_get_int(d, "index", &idx);
	snprintf(buf, len, "GPU %" PRId64 " (%s, %s)", idx, snap_get_str(d, "pci_bus_id") ?: "?",
		 snap_get_str(d, "name") ?: "name unknown");
}

static void dev_fact(struct finding *f, const struct snap_node *d, size_t i, const char *key)
{
	char name[96];

	snprintf(name, sizeof(name), "driver.nvml.devices.%zu.%s", i, key);
	finding_fact(f, name, snap_child(d, key));
}

const struct snap_node *health_value(struct rule_ctx *c, const struct snap_node *d,
				     const char *subject, const char *key)
{
	const struct snap_node *v = snap_child(d, key);
	enum fact_state s = snap_state(v);

	if (s == FACT_PRESENT)
		return v;
	if (!v || s == FACT_UNSUPPORTED || s == FACT_ABSENT)
		return NULL;
	rule_need(c, subject, key, v);
	return NULL;
}

static bool dev_int(struct rule_ctx *c, const struct snap_node *d, const char *subject,
		    const char *key, int64_t *ret)
{
	return snap_int(health_value(c, d, subject, key), ret);
}

static bool dev_bool(struct rule_ctx *c, const struct snap_node *d, const char *subject,
		     const char *key)
{
	bool b = false;

	return snap_bool(health_value(c, d, subject, key), &b) && b;
}

/* The NVML devices to judge, or NULL after a whole-rule skip saying why there are none
 * (NVML not called or failed, or it counted none): health that was not read is "could not
 * tell", never a pass. */
static const struct snap_node *nvml_devices(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *devs = DEVICES(root);
	char why[300];

	if (snap_count(devs) > 0)
		return devs;
	if (snap_state(devs) == FACT_PRESENT || snap_kind(devs) == SNAP_ARRAY)
		snprintf(why, sizeof(why), "NVML counts no GPU");
	else
		fact_describe(devs, why, sizeof(why));
	rule_skip(c, NULL, "no GPU health from NVML (driver.nvml.devices: %s)", why);
	return NULL;
}

/* A device whose handle NVML could not get (devices[].index failed) has no other facts. One
 * with no index at all is read from pasted text (`gpuenv explain`: nvidia-smi -q prints no
 * index), where what was read is judged. */
static bool dev_usable(const struct snap_node *d)
{
	const struct snap_node *index = snap_child(d, "index");

	return !index || snap_present(index);
}

/* ---- hardware.ecc-uncorrectable ------------------------------------------------------- */

RULE_CHECK(check_ecc_uncorrectable)
{
	/* AMD and Intel GPUs first (rules-hardware-ras.c): NVML's skip only where neither
	 * of their sessions ran either */
	bool nvml = snap_count(DEVICES(root)) > 0;
	bool others = ras_uncorrectable_amd_intel(c, root, nvml);
	const struct snap_node *devs = others && !nvml ? NULL : nvml_devices(c, root);

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		int64_t vol = 0, agg = 0;
		bool has_vol, has_agg;
		struct finding *f;
		char label[160];

		if (!dev_usable(d))
			continue;
		dev_label(d, i, label, sizeof(label));
		has_vol = dev_int(c, d, label, "ecc_errors_uncorrected_volatile", &vol);
		has_agg = dev_int(c, d, label, "ecc_errors_uncorrected_aggregate", &agg);
		/* the lifetime count only where NVML gave it: an unanswered aggregate counter
		 * is no "0 over its life" (wtdcode/vllm-backport#62 shows the volatile side) */
		if (vol > 0 && has_agg)
			f = rule_finding(c, GPUENV_SEVERITY_ERROR, label,
					 "%s has had %" PRId64 " uncorrectable ECC error(s) since "
					 "the driver loaded (%" PRId64 " over its life): the "
					 "processes that touched the memory were ended",
					 label, vol, agg);
		else if (vol > 0)
			f = rule_finding(c, GPUENV_SEVERITY_ERROR, label,
					 "%s has had %" PRId64 " uncorrectable ECC error(s) since "
					 "the driver loaded (its lifetime count not read): the "
					 "processes that touched the memory were ended",
					 label, vol);
		else if (agg > 0)
			f = rule_finding(c, GPUENV_SEVERITY_WARNING, label,
					 "%s has had %" PRId64
					 " uncorrectable ECC error(s) over its "
					 "life, none since the driver loaded",
					 label, agg);
		else
			continue;
		if (has_vol)
			dev_fact(f, d, i, "ecc_errors_uncorrected_volatile");
		if (has_agg)
			dev_fact(f, d, i, "ecc_errors_uncorrected_aggregate");
		if (snap_present(snap_child(d, "remapped_rows_uncorrectable")))
			dev_fact(f, d, i, "remapped_rows_uncorrectable");
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* ---- hardware.row-remap-pending, hardware.row-remap-failed, retired pages ------------- */

/* One finding per GPU whose remapped-rows flag `flag` is set, with the remapper's counts. */
static void remap_flag(struct rule_ctx *c, const struct snap_node *root, const char *flag,
		       enum gpuenv_severity sev, const char *what, bool reset_fix)
{
	const struct snap_node *devs = nvml_devices(c, root);

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		struct finding *f;
		char label[160];

		if (!dev_usable(d))
			continue;
		dev_label(d, i, label, sizeof(label));
		if (!dev_bool(c, d, label, flag))
			continue;
		f = rule_finding(c, sev, label, "%s %s", label, what);
		dev_fact(f, d, i, flag);
		dev_fact(f, d, i, "remapped_rows_uncorrectable");
		dev_fact(f, d, i, "remapped_rows_correctable");
		if (reset_fix)
			finding_fix(f, "sudo nvidia-smi -r -i %s   # after stopping its processes",
				    snap_get_str(d, "pci_bus_id") ?: "<bus>");
		else if (snap_present(snap_child(d, "serial")))
			dev_fact(f, d, i, "serial");
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

RULE_CHECK(check_row_remap_pending)
{
	remap_flag(c, root, "remapped_rows_pending", GPUENV_SEVERITY_WARNING,
		   "has a row remapping pending: it takes effect at the next GPU reset; until "
		   "then the failing row stays in use behind error containment",
		   true);
}

RULE_CHECK(check_row_remap_failed)
{
	remap_flag(c, root, "remapped_rows_failure", GPUENV_SEVERITY_ERROR,
		   "could not remap a failing memory row (row remapping failure flag set): "
		   "NVIDIA's RMA policy treats the board as failed",
		   false);
}

RULE_CHECK(check_retired_pages_pending)
{
	const struct snap_node *devs = nvml_devices(c, root);

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		int64_t sbe = 0, dbe = 0;
		struct finding *f;
		char label[160];

		if (!dev_usable(d))
			continue;
		dev_label(d, i, label, sizeof(label));
		if (!dev_bool(c, d, label, "retired_pages_pending"))
			continue;
		snap_int(snap_child(d, "retired_pages_sbe"), &sbe);
		snap_int(snap_child(d, "retired_pages_dbe"), &dbe);
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, label,
				 "%s has memory pages pending retirement (%" PRId64
				 " retired for double-bit, %" PRId64
				 " for single-bit errors so far): they are retired at the next "
				 "driver load",
				 label, dbe, sbe);
		dev_fact(f, d, i, "retired_pages_pending");
		if (snap_present(snap_child(d, "retired_pages_dbe")))
			dev_fact(f, d, i, "retired_pages_dbe");
		if (snap_present(snap_child(d, "retired_pages_sbe")))
			dev_fact(f, d, i, "retired_pages_sbe");
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* ---- hardware.clocks-throttled ------------------------------------------------------- */

/* The reasons that mean trouble (NVML "Clocks Event Reasons"); idle, application clocks,
 * the SW power cap, sync boost and the display clock are the governor's normal work. */
static const struct {
	uint64_t bit;
	const char *name;
} bad_reasons[] = {
	{ 0x8, "HW slowdown (thermal, power brake or an external signal)" },
	{ 0x20, "SW thermal slowdown (above the maximum operating temperature)" },
	{ 0x40, "HW thermal slowdown (temperature too high)" },
	{ 0x80, "HW power brake (asserted from outside the GPU: the power supply or the "
		"platform's management controller)" },
};

RULE_CHECK(check_clocks_throttled)
{
	const struct snap_node *devs = nvml_devices(c, root);

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		struct strbuf why = STRBUF_INIT, clock = STRBUF_INIT;
		int64_t mask = 0, sm = 0, sm_max = 0;
		struct finding *f;
		char label[160];

		if (!dev_usable(d))
			continue;
		dev_label(d, i, label, sizeof(label));
		if (!dev_int(c, d, label, "clocks_event_reasons", &mask))
			continue;
		for (size_t b = 0; b < ARRAY_SIZE(bad_reasons); b++)
			if ((uint64_t)mask & bad_reasons[b].bit)
				strbuf_printf(&why, "%s%s", why.len ? ", " : "",
					      bad_reasons[b].name);
		if (!why.len) {
			strbuf_done(&why);
			continue;
		}
		/* The clocks only where they were read: a pasted reasons block comes without them
		 * (l4rz/reverse-engineering-dell-idrac-to-get-rid-of-gpu-throttling). */
		if (snap_int(snap_child(d, "clock_sm_mhz"), &sm) &&
		    snap_int(snap_child(d, "clock_sm_max_mhz"), &sm_max))
			strbuf_printf(&clock, " (SM clock %" PRId64 " of %" PRId64 " MHz)", sm,
				      sm_max);
		else if (snap_int(snap_child(d, "clock_sm_mhz"), &sm))
			strbuf_printf(&clock, " (SM clock %" PRId64 " MHz)", sm);
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, label,
				 "%s is slowing its clocks for a fault: %s%s", label,
				 strbuf_str(&why), strbuf_str(&clock));
		finding_evidence(f, "driver.nvml.devices[].clocks_event_reasons",
				 snap_source(snap_child(d, "clocks_event_reasons")), "0x%" PRIx64,
				 (uint64_t)mask);
		if (snap_present(snap_child(d, "clock_sm_mhz")))
			dev_fact(f, d, i, "clock_sm_mhz");
		if (snap_present(snap_child(d, "temperature_c")))
			dev_fact(f, d, i, "temperature_c");
		finding_rule_fix(f);
		finding_rule_verify(f);
		strbuf_done(&why);
		strbuf_done(&clock);
	}
}

/* ---- hardware.temperature-slowdown ----------------------------------------------------- */

RULE_CHECK(check_temperature_slowdown)
{
	const struct snap_node *devs = nvml_devices(c, root);

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		int64_t t = 0, slow = 0, shut = 0, mem = 0, mem_max = 0;
		bool gpu_hot, mem_hot;
		struct finding *f;
		char label[160];

		if (!dev_usable(d))
			continue;
		dev_label(d, i, label, sizeof(label));
		gpu_hot = dev_int(c, d, label, "temperature_c", &t) &&
			  dev_int(c, d, label, "temperature_slowdown_c", &slow) && slow > 0 &&
			  t >= slow;
		mem_hot = dev_int(c, d, label, "temperature_memory_c", &mem) &&
			  dev_int(c, d, label, "temperature_memory_max_c", &mem_max) &&
			  mem_max > 0 && mem >= mem_max;
		if (!gpu_hot && !mem_hot)
			continue;
		snap_int(snap_child(d, "temperature_shutdown_c"), &shut);
		if (gpu_hot)
			f = rule_finding(c, GPUENV_SEVERITY_WARNING, label,
					 "%s is at %" PRId64 " °C, at or above its slowdown "
					 "threshold of %" PRId64 " °C (shutdown at %" PRId64 " °C)",
					 label, t, slow, shut);
		else
			f = rule_finding(c, GPUENV_SEVERITY_WARNING, label,
					 "%s's memory is at %" PRId64
					 " °C, at or above its maximum "
					 "operating temperature of %" PRId64 " °C",
					 label, mem, mem_max);
		dev_fact(f, d, i, gpu_hot ? "temperature_c" : "temperature_memory_c");
		dev_fact(f, d, i, gpu_hot ? "temperature_slowdown_c" : "temperature_memory_max_c");
		if (gpu_hot && shut)
			dev_fact(f, d, i, "temperature_shutdown_c");
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* ---- hardware.nvlink-down ------------------------------------------------------------ */

static size_t links_active(const struct snap_node *d, size_t *ret_total)
{
	const struct snap_node *links = snap_child(d, "nvlink");
	size_t up = 0, n = 0;

	for (size_t l = 0; l < snap_count(links); l++) {
		bool on = false;

		if (!snap_bool(snap_child(snap_at(links, l), "active"), &on))
			continue;
		n++;
		up += on;
	}
	*ret_total = n;
	return up;
}

/* Links down where the topology says they should be up: on a GPU whose other links are up,
 * or every link of a GPU while another GPU of the same model has its links up (a GPU can
 * only be wired to the NVLink fabric as a whole). A board with no link up and no sibling to
 * compare with (a PCIe card without a bridge) says nothing. */
RULE_CHECK(check_nvlink_down)
{
	const struct snap_node *devs = nvml_devices(c, root);

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		const struct snap_node *sibling = NULL;
		struct strbuf down = STRBUF_INIT;
		const struct snap_node *links = snap_child(d, "nvlink");
		size_t total, up, down_n = 0;
		struct finding *f;
		char label[160];

		if (!dev_usable(d))
			continue;
		dev_label(d, i, label, sizeof(label));
		up = links_active(d, &total);
		if (!total)
			continue;
		if (up == 0) {
			for (size_t j = 0; j < snap_count(devs) && !sibling; j++) {
				const struct snap_node *o = snap_at(devs, j);
				size_t ot;

				if (j != i &&
				    streq(snap_get_str(o, "name") ?: "",
					  snap_get_str(d, "name") ?: "-") &&
				    links_active(o, &ot) > 0)
					sibling = o;
			}
			if (!sibling)
				continue;
		}
		for (size_t l = 0; l < snap_count(links); l++) {
			const struct snap_node *k = snap_at(links, l);
			bool on = true;
			int64_t n = (int64_t)l;

			if (!snap_bool(snap_child(k, "active"), &on) || on)
				continue;
			snap_int(snap_child(k, "link"), &n);
			strbuf_printf(&down, "%s%" PRId64, down_n++ ? ", " : "", n);
		}
		if (up == total) {
			strbuf_done(&down);
			continue;
		}
		if (sibling)
			f = rule_finding(c, GPUENV_SEVERITY_WARNING, label,
					 "%s has none of its %zu NVLink links up, while %s of the "
					 "same model has its links up",
					 label, total, snap_get_str(sibling, "pci_bus_id") ?: "?");
		else
			f = rule_finding(c, GPUENV_SEVERITY_WARNING, label,
					 "%s has %zu of its %zu NVLink links down (link %s) while "
					 "the others are up",
					 label, down_n, total, strbuf_str(&down));
		finding_evidence(f, "driver.nvml.devices[].nvlink", "nvml:nvmlDeviceGetNvLinkState",
				 "%zu of %zu links active; down: %s", up, total, strbuf_str(&down));
		finding_rule_fix(f);
		finding_rule_verify(f);
		strbuf_done(&down);
	}
}

/* ---- hardware.pcie-replays ----------------------------------------------------------- */

RULE_CHECK(check_pcie_replays)
{
	const struct snap_node *devs = nvml_devices(c, root);

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		int64_t first = 0, again = 0, ms = 0;
		struct finding *f;
		char label[160];

		if (!dev_usable(d))
			continue;
		dev_label(d, i, label, sizeof(label));
		if (!dev_int(c, d, label, "pcie_replay_counter", &first) ||
		    !dev_int(c, d, label, "pcie_replay_counter_again", &again) ||
		    !dev_int(c, d, label, "pcie_replay_interval_ms", &ms) || again <= first)
			continue;
		/* DCGM's limit, per minute (DCGM_LIMIT_MAX_PCIREPLAY_RATE). */
		if ((again - first) * 60000 <= 8 * (ms > 0 ? ms : 1))
			continue;
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, label,
				 "%s's PCIe link retried %" PRId64 " transfer(s) between two reads "
				 "of its replay counter within one gpuenv run (%" PRId64
				 " since the "
				 "driver loaded): a rate far above the 8 a minute at which DCGM "
				 "fails a GPU",
				 label, again - first, again);
		dev_fact(f, d, i, "pcie_replay_counter");
		dev_fact(f, d, i, "pcie_replay_counter_again");
		dev_fact(f, d, i, "pcie_replay_interval_ms");
		if (snap_present(snap_child(d, "pcie_link_width")))
			dev_fact(f, d, i, "pcie_link_width");
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* ---- hardware.gpu-lost --------------------------------------------------------------- */

/* The first fact of a device that NVML answered NVML_ERROR_GPU_IS_LOST for, or NULL. A GPU
 * NVML counts but cannot give a handle for with NVML_ERROR_UNKNOWN is one that stopped
 * answering too: nvidia-smi prints "Unable to determine the device handle for GPU <bus>:
 * Unknown Error" for a board that fell off the bus (NVIDIA/open-gpu-kernel-modules#387, fixed
 * by reseating it); *ret_unknown says which. */
static const struct snap_node *lost_fact(const struct snap_node *d, const char **ret_key,
					 bool *ret_unknown)
{
	for (size_t k = 0; k < snap_count(d); k++) {
		const struct snap_node *v = snap_at(d, k);

		*ret_unknown =
			streq(snap_key(v) ?: "", "index") && error_names(v, "NVML_ERROR_UNKNOWN");
		if (error_names(v, "GPU_IS_LOST") || *ret_unknown) {
			*ret_key = snap_key(v);
			return v;
		}
	}
	return NULL;
}

/* Whether NVIDIA's Xid catalogue calls the code a GPU that left the bus (facts xid.tsv: 79,
 * ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS, "GPU has fallen off the bus"; no other code is). */
static bool xid_off_the_bus(int64_t code)
{
	const struct facts_xid *x = NULL;

	return code >= 0 && code <= UINT32_MAX && facts_xid((unsigned)code, &x) == 0 &&
	       x->mnemonic && strstr(x->mnemonic, "FALLEN_OFF_THE_BUS");
}

/* The first Xid of the kernel log that says a GPU fell off the bus, or NULL; *ret_x its index.
 * current: only one whose last line is of the running boot (driver.xid_events[].boot). */
static const struct snap_node *xid_fallen_off(const struct snap_node *xids, bool current,
					      size_t *ret_x)
{
	for (size_t x = 0; x < snap_count(xids); x++) {
		const struct snap_node *e = snap_at(xids, x);
		int64_t code = 0;

		if (!snap_int(snap_child(e, "code"), &code) || !xid_off_the_bus(code))
			continue;
		if (current && !streq(snap_get_str(e, "boot") ?: "", "current"))
			continue;
		*ret_x = x;
		return e;
	}
	return NULL;
}

/*
 * NVML's answer absent (no libnvidia-ml read: a sysroot, a pasted log) while the kernel log
 * of the running boot has Xid 79: the driver's own record that the GPU left the bus since the
 * machine started, which nothing but a power cycle undoes (NVIDIA's Xid catalogue: RESTART_BM).
 * An Xid 79 of an earlier boot says nothing of the GPU now, nor one of a log that shows no
 * boot start: the rule then could not tell.
 */
static void gpu_lost_from_log(struct rule_ctx *c, const struct snap_node *root,
			      const struct snap_node *xids)
{
	size_t xi = 0, xa = 0;
	const struct snap_node *fell = xid_fallen_off(xids, true, &xi);
	const struct snap_node *any = xid_fallen_off(xids, false, &xa);
	const struct snap_node *devs = DEVICES(root);
	const char *bus;
	struct finding *f;
	char name[96], why[300];
	int64_t count = 0;

	/* the log unreadable: the layer could not tell, never a pass */
	if (!rule_need_known(c, NULL, "driver.xid_events", xids))
		return;
	if (!fell) {
		if (any) /* the whole rule could not tell, not one GPU's part of it */
			rule_skip(
				c, NULL,
				"Xid 79 on PCI:%s is %s, and NVML's answer was not read: whether "
				"the GPU is lost now is not known",
				snap_get_str(any, "bus_id") ?: "?",
				streq(snap_get_str(any, "boot") ?: "", "earlier")
					? "of an earlier boot"
					: "of a boot the log does not date (no boot start in it)");
		else
			nvml_devices(c, root); /* records why there is no NVML answer */
		return;
	}
	bus = snap_get_str(fell, "bus_id") ?: "?";
	snap_get_int(fell, "count", &count);
	fact_describe(devs, why, sizeof(why));
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, bus,
			 "GPU at PCI:%s fell off the bus in the running boot: the kernel log "
			 "has Xid 79, \"GPU has fallen off the bus\" (%" PRId64
			 " time(s), last %s) after the boot started; NVML's answer was not read "
			 "(%s); nothing can use the GPU until the machine is power-cycled",
			 bus, count, snap_get_str(fell, "last_timestamp") ?: "?", why);
	snprintf(name, sizeof(name), "driver.xid_events.%zu.code", xi);
	finding_fact(f, name, snap_child(fell, "code"));
	snprintf(name, sizeof(name), "driver.xid_events.%zu.boot", xi);
	finding_fact(f, name, snap_child(fell, "boot"));
	snprintf(name, sizeof(name), "driver.xid_events.%zu.text", xi);
	finding_fact(f, name, snap_child(fell, "text"));
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/*
 * A GPU NVML counts but cannot open: nvmlDeviceGetHandleByIndex failed (nvidia-smi "Unable to
 * determine the device handle for GPU …: Unknown Error") while the kernel log holds an Xid 79.
 * Which error NVML gives a GPU that fell off depends on the driver and on when it is asked
 * (GPU_IS_LOST, or UNKNOWN as in NVIDIA/open-gpu-kernel-modules#387, fixed by reseating it);
 * the Xid is the driver's own record of the fall.
 */
static bool handle_failed(const struct snap_node *d)
{
	return snap_state(snap_child(d, "index")) == FACT_ERROR;
}

RULE_CHECK(check_gpu_lost)
{
	const struct snap_node *xids = snap_get(root, "driver.xid_events");
	const struct snap_node *devs = DEVICES(root);
	size_t xi = 0;
	const struct snap_node *fell = xid_fallen_off(xids, false, &xi);

	if (snap_count(devs) == 0 && snap_state(devs) != FACT_PRESENT &&
	    snap_kind(devs) != SNAP_ARRAY) {
		gpu_lost_from_log(c, root, xids);
		return;
	}
	devs = nvml_devices(c, root);

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		const char *key = NULL;
		bool unknown = false;
		const struct snap_node *v = lost_fact(d, &key, &unknown);
		struct finding *f;
		char name[96], label[160];

		if (!v && fell && handle_failed(d)) {
			v = snap_child(d, "index");
			key = "index";
		} else if (!v)
			continue;
		if (dev_usable(d))
			dev_label(d, i, label, sizeof(label));
		else
			snprintf(label, sizeof(label), "GPU %zu", i);
		if (unknown)
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, label,
				"%s does not answer: NVML counts it but cannot open it "
				"(NVML_ERROR_UNKNOWN; nvidia-smi: \"Unable to determine the "
				"device handle\"), as for a GPU that fell off the bus; nothing "
				"can use it until it is reset or the machine power-cycled",
				label);
		else if (error_names(v, "GPU_IS_LOST"))
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, label,
				"%s is lost: NVML answers NVML_ERROR_GPU_IS_LOST (it has "
				"fallen off the bus or stopped answering); nothing can use it "
				"until the machine is power-cycled",
				label);
		else
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, label,
				"%s is lost: NVML cannot open it (%s) and the kernel log has "
				"Xid 79 on PCI:%s, \"GPU has fallen off the bus\"; nothing can "
				"use it until the machine is power-cycled",
				label, snap_error(v) ?: "an error",
				snap_get_str(fell, "bus_id") ?: "?");
		snprintf(name, sizeof(name), "driver.nvml.devices.%zu.%s", i, key ?: "?");
		finding_fact(f, name, v);
		if (fell) {
			snprintf(name, sizeof(name), "driver.xid_events.%zu.code", xi);
			finding_fact(f, name, snap_child(fell, "code"));
		}
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}

/* ---- hardware.mig-layout ------------------------------------------------------------- */

RULE_CHECK(check_mig_layout)
{
	const struct snap_node *devs = nvml_devices(c, root);

	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		const struct snap_node *migs = snap_child(d, "mig_devices");
		struct strbuf layout = STRBUF_INIT;
		bool on = false, pending = false;
		struct finding *f;
		char label[160];

		if (!dev_usable(d))
			continue;
		dev_label(d, i, label, sizeof(label));
		if (!snap_present(health_value(c, d, label, "mig_mode")))
			continue;
		snap_bool(snap_child(d, "mig_mode"), &on);
		/* The pending mode not read (a pasted nvidia-smi -L): no change is claimed. */
		if (!snap_bool(snap_child(d, "mig_mode_pending"), &pending))
			pending = on;
		if (!on && !pending)
			continue;
		for (size_t m = 0; m < snap_count(migs); m++) {
			const struct snap_node *g = snap_at(migs, m);
			int64_t gi = -1, ci = -1;

			/* the instance ids not read (a pasted -L of driver R470 on): not named */
			if (snap_int(snap_child(g, "gpu_instance_id"), &gi) &&
			    snap_int(snap_child(g, "compute_instance_id"), &ci))
				strbuf_printf(&layout, "%s%s (GI %" PRId64 ", CI %" PRId64 ") %s",
					      m ? "; " : "",
					      snap_get_str(g, "name") ?: "profile unknown", gi, ci,
					      snap_get_str(g, "uuid") ?: "uuid unknown");
			else
				strbuf_printf(&layout, "%s%s %s", m ? "; " : "",
					      snap_get_str(g, "name") ?: "profile unknown",
					      snap_get_str(g, "uuid") ?: "uuid unknown");
		}
		if (on != pending)
			f = rule_finding(c, GPUENV_SEVERITY_WARNING, label,
					 "%s has MIG mode %s, changing to %s at the next GPU reset",
					 label, on ? "on" : "off", pending ? "on" : "off");
		else
			f = rule_finding(c, GPUENV_SEVERITY_INFO, label,
					 "%s is in MIG mode with %zu MIG device(s)%s%s", label,
					 snap_count(migs), snap_count(migs) ? ": " : "",
					 strbuf_str(&layout));
		dev_fact(f, d, i, "mig_mode");
		dev_fact(f, d, i, "mig_mode_pending");
		if (snap_present(snap_child(d, "mig_device_count")))
			dev_fact(f, d, i, "mig_device_count");
		finding_rule_fix(f);
		finding_rule_verify(f);
		strbuf_done(&layout);
	}
}
