// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Hardware-layer rules over hardware.gpus[] and hardware.pci_devices (written by
 * probe-pci.c from /sys/bus/pci/devices; attribute formats in the kernel ABI document
 * Documentation/ABI/testing/sysfs-bus-pci): no GPU at all, PCIe link down or degraded,
 * BAR1 unassigned or at the legacy aperture (threshold: facts/thresholds.tsv), and a GPU
 * that no kernel driver owns.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"

#define GPUS(root) snap_get(root, "hardware.gpus")

static const char *bus_id(const struct snap_node *gpu)
{
	const char *b = snap_get_str(gpu, "bus_id");

	return b ? b : "unknown";
}

/* "hardware.gpus.<i>.<key>" for evidence names. */
static void gpu_key(char *buf, size_t len, size_t i, const char *key)
{
	snprintf(buf, len, "hardware.gpus.%zu.%s", i, key);
}

static void gpu_fact(struct finding *f, const struct snap_node *gpu, size_t i, const char *key)
{
	char name[96];

	gpu_key(name, sizeof(name), i, key);
	finding_fact(f, name, snap_child(gpu, key));
}

/* "NVIDIA 10de:2330 (H100 SXM5 80GB)" */
static void gpu_label(const struct snap_node *gpu, char *buf, size_t len)
{
	const struct facts_gpu *g = NULL;
	unsigned v = 0, d = 0;

	if (!gpu_pci_ids(gpu, &v, &d)) {
		snprintf(buf, len, "GPU %s", bus_id(gpu));
		return;
	}
	if (gpu_facts(gpu, &g) == 0)
		snprintf(buf, len, "%04x:%04x (%s) at %s", v, d, g->product, bus_id(gpu));
	else
		snprintf(buf, len, "%04x:%04x at %s", v, d, bus_id(gpu));
}

RULE_CHECK(check_no_gpu)
{
	const struct snap_node *gpus = GPUS(root);
	struct finding *f;
	int64_t n = 0;

	if (snap_count(gpus) > 0)
		return;
	snap_get_int(root, "hardware.pci_devices", &n);
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "no GPU on the PCI bus: none of the %" PRId64
			 " PCI devices is a display, 3D or accelerator device",
			 n);
	finding_fact(f, "hardware.pci_devices", snap_get(root, "hardware.pci_devices"));
	finding_evidence(f, "hardware.gpus", "/sys/bus/pci/devices/*/class", "none");
	finding_rule_fix(f);
	finding_rule_verify(f);
}

/* "16.0 GT/s PCIe" → 16.0; false for "Unknown" or garbage. */
static bool link_speed(const char *s, double *ret)
{
	char *end;
	double v;

	if (!s)
		return false;
	v = strtod(s, &end);
	if (end == s || v <= 0 || !startswith(end, " GT/s"))
		return false;
	*ret = v;
	return true;
}

RULE_CHECK(check_pcie_link_down)
{
	const struct snap_node *gpus = GPUS(root);

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct snap_node *cw = snap_child(g, "current_link_width");
		const struct snap_node *cs = snap_child(g, "current_link_speed");
		const struct snap_node *mw = snap_child(g, "max_link_width");
		int64_t width = -1, maxw = 0;
		double speed;
		struct finding *f;
		char label[160];

		/* Conventional PCI devices (and VMs' emulated ones) have no link attributes. */
		if (snap_state(cw) == FACT_ABSENT && snap_state(cs) == FACT_ABSENT)
			continue;
		if (!rule_need(c, bus_id(g), "current_link_width", cw) ||
		    !rule_need(c, bus_id(g), "current_link_speed", cs))
			continue;
		snap_int(cw, &width);
		snap_int(mw, &maxw);
		if (width > 0 && link_speed(snap_str(cs), &speed))
			continue;
		gpu_label(g, label, sizeof(label));
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, bus_id(g),
				 "%s: PCIe link not trained (width x%" PRId64 ", speed \"%s\")", label,
				 width, snap_str(cs));
		gpu_fact(f, g, i, "current_link_width");
		gpu_fact(f, g, i, "current_link_speed");
		gpu_fact(f, g, i, "max_link_width");
		gpu_fact(f, g, i, "max_link_speed");
		finding_fix(f, "sudo lspci -vv -s %s | grep -E 'LnkCap|LnkSta'", bus_id(g));
		finding_fix(f, "cat /sys/bus/pci/devices/%s/power/runtime_status   # 'suspended' = "
			       "powered down on purpose, not a fault", bus_id(g));
		finding_fix(f, "# otherwise power-cycle the machine, reseat the card and its power "
			       "cables; if it recurs check the PSU and RMA the GPU");
		finding_verify(f, "cat /sys/bus/pci/devices/%s/current_link_width", bus_id(g));
		finding_verify(f, "nvidia-smi --query-gpu=pci.bus_id,pcie.link.width.current "
				  "--format=csv");
	}
}

RULE_CHECK(check_pcie_link_degraded)
{
	const struct snap_node *gpus = GPUS(root);

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct snap_node *cw = snap_child(g, "current_link_width");
		const struct snap_node *mw = snap_child(g, "max_link_width");
		const struct snap_node *cs = snap_child(g, "current_link_speed");
		const struct snap_node *ms = snap_child(g, "max_link_speed");
		int64_t w = 0, wmax = 0;
		double s = 0, smax = 0;
		bool narrow, slow;
		struct finding *f;
		char label[160];

		if (snap_state(cw) == FACT_ABSENT && snap_state(mw) == FACT_ABSENT)
			continue;
		if (!rule_need(c, bus_id(g), "current_link_width", cw) ||
		    !rule_need(c, bus_id(g), "max_link_width", mw) ||
		    !rule_need(c, bus_id(g), "current_link_speed", cs) ||
		    !rule_need(c, bus_id(g), "max_link_speed", ms))
			continue;
		snap_int(cw, &w);
		snap_int(mw, &wmax);
		/* A link that is down is hardware.pcie-link-down's finding. */
		if (w <= 0 || !link_speed(snap_str(cs), &s) || !link_speed(snap_str(ms), &smax))
			continue;
		narrow = w < wmax;
		slow = s < smax;
		if (!narrow && !slow)
			continue;
		gpu_label(g, label, sizeof(label));
		f = rule_finding(c, narrow ? GPUENV_SEVERITY_WARNING : GPUENV_SEVERITY_INFO, bus_id(g),
				 "%s: PCIe link at %s x%" PRId64 ", capable of %s x%" PRId64 "%s", label,
				 snap_str(cs), w, snap_str(ms), wmax,
				 narrow ? "" : " (only the speed is lower: normal while the GPU idles)");
		gpu_fact(f, g, i, "current_link_width");
		gpu_fact(f, g, i, "max_link_width");
		gpu_fact(f, g, i, "current_link_speed");
		gpu_fact(f, g, i, "max_link_speed");
		finding_fix(f, "sudo lspci -vv -s %s | grep -E 'LnkCap|LnkSta'", bus_id(g));
		if (narrow)
			finding_fix(f, "# move the card to a slot wired x%" PRId64 ", check risers and "
				       "cables and the firmware's lane/bifurcation settings", wmax);
		else
			finding_fix(f, "# re-check while a CUDA program runs; a link still below "
				       "%s under load points at the slot, riser or firmware",
				    snap_str(ms));
		finding_rule_verify(f);
	}
}

RULE_CHECK(check_bar1_small)
{
	const struct snap_node *gpus = GPUS(root);
	const struct facts_threshold *t;

	if (facts_threshold("bar1_legacy_aperture_bytes", &t) < 0) {
		rule_skip(c, NULL, "knowledge base has no bar1_legacy_aperture_bytes threshold");
		return;
	}
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct snap_node *bar1 = snap_child(g, "bar1_size_bytes");
		struct finding *f;
		char label[160];
		int64_t size;

		/* BAR1 is the VRAM aperture on NVIDIA GPUs only (AMD: BAR0, others vary). */
		if (!gpu_is_nvidia(g))
			continue;
		if (!rule_need_known(c, bus_id(g), "bar1_size_bytes", bar1))
			continue;
		gpu_label(g, label, sizeof(label));
		if (snap_state(bar1) == FACT_ABSENT) {
			f = rule_finding(c, GPUENV_SEVERITY_ERROR, bus_id(g),
					 "%s: BAR1 not assigned: the firmware could not place the GPU's "
					 "memory window (Above 4G Decoding off?)",
					 label);
		} else {
			snap_int(bar1, &size);
			if ((uint64_t)size > t->number)
				continue;
			f = rule_finding(c, GPUENV_SEVERITY_INFO, bus_id(g),
					 "%s: BAR1 is %" PRId64 " MiB, the legacy aperture: Resizable "
					 "BAR is off or unsupported",
					 label, size >> 20);
		}
		gpu_fact(f, g, i, "bar1_size_bytes");
		finding_evidence(f, "facts.thresholds.bar1_legacy_aperture_bytes",
				 t->source, "%s", t->value);
		finding_rule_fix(f);
		finding_verify(f, "sudo lspci -vv -s %s | grep -A2 'Region 1'", bus_id(g));
		finding_verify(f, "nvidia-smi -q -d MEMORY | grep -A3 BAR1");
	}
}

RULE_CHECK(check_gpu_without_driver)
{
	const struct snap_node *gpus = GPUS(root);

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct snap_node *drv = snap_child(g, "driver");
		const char *name = snap_str(drv);
		bool nvidia = gpu_is_nvidia(g);
		struct finding *f;
		char label[160];

		if (!nvidia && !gpu_is_amd(g))
			continue;
		if (!rule_need_known(c, bus_id(g), "driver", drv))
			continue;
		gpu_label(g, label, sizeof(label));
		if (!name) {
			f = rule_finding(c, GPUENV_SEVERITY_ERROR, bus_id(g),
					 "%s: no kernel driver is bound to the GPU", label);
		} else if (streq(name, "vfio-pci") || streq(name, "pci-stub")) {
			f = rule_finding(c, GPUENV_SEVERITY_WARNING, bus_id(g),
					 "%s: held by %s for passthrough: this host cannot use it",
					 label, name);
		} else {
			continue; /* nvidia, amdgpu; nouveau is driver.nouveau-bound's */
		}
		gpu_fact(f, g, i, "driver");
		gpu_fact(f, g, i, "vendor_id");
		gpu_fact(f, g, i, "device_id");
		if (name)
			finding_fix(f, "echo %s | sudo tee /sys/bus/pci/devices/%s/driver/unbind   # "
				       "only if the GPU is not meant for a VM", bus_id(g), bus_id(g));
		finding_fix(f, "sudo modprobe %s", nvidia ? "nvidia" : "amdgpu");
		finding_fix(f, "sudo dmesg | grep -iE '%s' | tail -20",
			    nvidia ? "nvrm|nvidia" : "amdgpu");
		finding_verify(f, "lspci -k -s %s", bus_id(g));
		finding_verify(f, "%s", nvidia ? "nvidia-smi -L" : "rocm-smi");
	}
}
