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
#include "shared/strbuf.h"

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

/* Other GPUs only, and the NVIDIA driver's kernel module installed for this kernel: the NVIDIA
 * GPU it was installed for is not on the bus. A laptop's dGPU turned off in the firmware
 * settings is not enumerated at all (linux-surface/surface-control#22: nvidia-smi "couldn't
 * communicate with the NVIDIA driver" until the dGPU was turned on again in the UEFI). An error
 * also where nothing else shows the GPU is expected (a card taken out on purpose): nvidia-smi
 * fails there the same way, the module cannot load without a GPU, and DCGM finds none; a
 * warning would let doctor exit 0 on surface-control#22's machine, whose nvidia-smi failed. */
static void no_nvidia_gpu(struct rule_ctx *c, const struct snap_node *root,
			  const struct snap_node *gpus)
{
	const struct snap_node *path = snap_get(root, "driver.nvidia.module_file.path");
	struct finding *f;

	/* an AMD GPU's machine is judged on that GPU: an nvidia.ko left installed there is no
	 * root cause (test-rules-amd's KFD cases) */
	for (size_t i = 0; i < snap_count(gpus); i++)
		if (gpu_is_nvidia(snap_at(gpus, i)) || gpu_is_amd(snap_at(gpus, i)))
			return;
	if (!snap_present(path) || snap_present(snap_get(root, "driver.nvidia.module_version")))
		return;
	f = rule_finding(c, GPUENV_SEVERITY_ERROR, NULL,
			 "no NVIDIA GPU on the PCI bus, though the NVIDIA driver's kernel module "
			 "is installed (%s): the bus holds %zu GPU(s), none of them NVIDIA's; a "
			 "laptop's dGPU turned off in the firmware (UEFI) settings is not on the "
			 "bus at all",
			 snap_str(path), snap_count(gpus));
	finding_fact(f, "driver.nvidia.module_file.path", path);
	finding_fact(f, "hardware.pci_devices", snap_get(root, "hardware.pci_devices"));
	finding_evidence(f, "hardware.gpus", "/sys/bus/pci/devices/*/vendor", "no 0x10de");
	finding_fix(f, "# laptop: turn the discrete GPU on again in the firmware (UEFI) setup "
		       "(a 'dGPU', 'hybrid' or 'discrete graphics' setting), then boot");
	finding_rule_fix(f);
	finding_rule_verify(f);
}

RULE_CHECK(check_no_gpu)
{
	const struct snap_node *gpus = GPUS(root);
	struct finding *f;
	int64_t n = 0;

	if (snap_count(gpus) > 0) {
		no_nvidia_gpu(c, root, gpus);
		return;
	}
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

/* "16.0 GT/s PCIe" (sysfs) or "16GT/s" (lspci's LnkSta, a pasted one) → 16000 (MT/s); false
 * for "Unknown" or garbage. Not strtod(): a program using the library may have set a comma
 * locale (parse_decimal_prefix()). */
static bool link_speed(const char *s, uint64_t *ret)
{
	const char *end;
	uint64_t v;

	if (!s || parse_decimal_prefix(s, 3, &v, &end) < 0 || v == 0 ||
	    !(startswith(end, " GT/s") || startswith(end, "GT/s")))
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
		uint64_t speed;
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
		/* Runtime PM put the GPU in D3cold (a laptop's idle dGPU): config reads answer all
		 * ones (speed "Unknown", width 63) until the next user wakes it; no fault. */
		if (streq(snap_get_str(g, "runtime_status") ?: "", "suspended")) {
			rule_skip(
				c, bus_id(g),
				"GPU %s is runtime-suspended (power/runtime_status \"suspended\"): "
				"its link state is not readable until it is woken",
				bus_id(g));
			continue;
		}
		gpu_label(g, label, sizeof(label));
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, bus_id(g),
				 "%s: PCIe link not trained (width x%" PRId64 ", speed \"%s\")",
				 label, width, snap_str(cs));
		gpu_fact(f, g, i, "current_link_width");
		gpu_fact(f, g, i, "current_link_speed");
		gpu_fact(f, g, i, "max_link_width");
		gpu_fact(f, g, i, "max_link_speed");
		gpu_fact(f, g, i, "runtime_status");
		finding_fix(f, "sudo lspci -vv -s %s | grep -E 'LnkCap|LnkSta'", bus_id(g));
		finding_fix(f,
			    "cat /sys/bus/pci/devices/%s/power/runtime_status   # 'suspended' = "
			    "powered down on purpose, not a fault",
			    bus_id(g));
		finding_fix(f, "# otherwise power-cycle the machine, reseat the card and its power "
			       "cables; if it recurs check the PSU and RMA the GPU");
		finding_verify(f, "cat /sys/bus/pci/devices/%s/current_link_width", bus_id(g));
		finding_verify(f, "nvidia-smi --query-gpu=pci.bus_id,pcie.link.width.current "
				  "--format=csv");
	}
}

/* The bus's count read, or else a GPU whose fact key was read (a pasted lspci block, judged by
 * it without the count); otherwise an unread bus is a skip, never a pass. False: skip. */
static bool bus_or_gpu_fact_read(struct rule_ctx *c, const struct snap_node *root, const char *key)
{
	const struct snap_node *gpus = GPUS(root);
	const struct snap_node *count = snap_get(root, "hardware.pci_devices");
	bool known = false;

	for (size_t i = 0; i < snap_count(gpus) && !snap_present(count); i++)
		known |= snap_child(snap_at(gpus, i), key) != NULL;
	if (!known && !rule_need(c, NULL, "hardware.pci_devices", count))
		return false;
	if (snap_present(count))
		rule_need_gpu_ids(c, root);
	return true;
}

RULE_CHECK(check_pcie_link_degraded)
{
	const struct snap_node *gpus = GPUS(root);

	/* a pasted `lspci -vv -s BUS` block */
	if (!bus_or_gpu_fact_read(c, root, "current_link_width"))
		return;

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct snap_node *cw = snap_child(g, "current_link_width");
		const struct snap_node *mw = snap_child(g, "max_link_width");
		const struct snap_node *cs = snap_child(g, "current_link_speed");
		const struct snap_node *ms = snap_child(g, "max_link_speed");
		int64_t w = 0, wmax = 0;
		uint64_t s = 0, smax = 0;
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
		f = rule_finding(
			c, narrow ? GPUENV_SEVERITY_WARNING : GPUENV_SEVERITY_INFO, bus_id(g),
			"%s: PCIe link at %s x%" PRId64 ", capable of %s x%" PRId64 "%s", label,
			snap_str(cs), w, snap_str(ms), wmax,
			narrow ? "" : " (only the speed is lower: normal while the GPU idles)");
		gpu_fact(f, g, i, "current_link_width");
		gpu_fact(f, g, i, "max_link_width");
		gpu_fact(f, g, i, "current_link_speed");
		gpu_fact(f, g, i, "max_link_speed");
		finding_fix(f, "sudo lspci -vv -s %s | grep -E 'LnkCap|LnkSta'", bus_id(g));
		if (narrow)
			finding_fix(f,
				    "# move the card to a slot wired x%" PRId64
				    ", check risers and "
				    "cables and the firmware's lane/bifurcation settings",
				    wmax);
		else
			finding_fix(f,
				    "# re-check while a CUDA program runs; a link still below "
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
		/* The driver refuses a GPU whose BAR1 was not placed: one NVML enumerates had
		 * its BAR1, whatever the resource file seemed to say. */
		if (snap_state(bar1) == FACT_ABSENT && nvml_device_for(root, g))
			continue;
		if (snap_state(bar1) == FACT_ABSENT) {
			f = rule_finding(
				c, GPUENV_SEVERITY_ERROR, bus_id(g),
				"%s: BAR1 not assigned: the firmware could not place the GPU's "
				"memory window (Above 4G Decoding off?)",
				label);
		} else {
			snap_int(bar1, &size);
			if ((uint64_t)size > t->number)
				continue;
			f = rule_finding(c, GPUENV_SEVERITY_INFO, bus_id(g),
					 "%s: BAR1 is %" PRId64
					 " MiB, the legacy aperture: Resizable "
					 "BAR is off or unsupported",
					 label, size >> 20);
		}
		gpu_fact(f, g, i, "bar1_size_bytes");
		finding_evidence(f, "facts.thresholds.bar1_legacy_aperture_bytes", t->source, "%s",
				 t->value);
		finding_rule_fix(f);
		finding_verify(f, "sudo lspci -vv -s %s | grep Region", bus_id(g));
		finding_verify(f, "nvidia-smi -q -d MEMORY | grep -A3 BAR1");
	}
}

RULE_CHECK(check_gpu_without_driver)
{
	const struct snap_node *gpus = GPUS(root);

	/* a pasted `lspci -nnk | grep -A3 VGA` block */
	if (!bus_or_gpu_fact_read(c, root, "driver"))
		return;

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
		/* an amdgpu without the GPU's PCI id: modprobe cannot bind it, the kernel is the
		 * cause (driver.amdgpu-kernel-too-old); a kernel log that could not be read might
		 * have shown an amdgpu that knows the GPU (amdgpu_kernel_predates()): said so */
		if (!name && !nvidia && amdgpu_kernel_predates(root, g)) {
			const struct snap_node *log = snap_get(root, "driver.kernel_log.source");

			if (fact_is_failure(snap_state(log)))
				rule_need(c, bus_id(g), "the kernel log", log);
			continue;
		}
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
			finding_fix(f,
				    "echo %s | sudo tee /sys/bus/pci/devices/%s/driver/unbind   # "
				    "only if the GPU is not meant for a VM",
				    bus_id(g), bus_id(g));
		finding_fix(f, "sudo modprobe %s", nvidia ? "nvidia" : "amdgpu");
		finding_fix(f, "sudo dmesg | grep -iE '%s' | tail -20",
			    nvidia ? "nvrm|nvidia" : "amdgpu");
		finding_verify(f, "lspci -k -s %s", bus_id(g));
		finding_verify(f, "%s", nvidia ? "nvidia-smi -L" : "rocm-smi");
	}
}

/* The first KFD GPU node's gfx target ("gfx942"), or NULL; *others set where other GPU nodes
 * have other targets: the topology does not say which PCI GPU a node is (no bus is read), so
 * with GPUs of two targets neither can be given to one of them. */
static const struct snap_node *kfd_gfx(const struct snap_node *root, struct strbuf *all,
				       bool *others)
{
	const struct snap_node *nodes = snap_get(root, "driver.amdgpu.kfd_nodes"), *first = NULL;

	*others = false;
	for (size_t i = 0; i < snap_count(nodes); i++) {
		const struct snap_node *gfx = snap_child(snap_at(nodes, i), "gfx");
		bool seen = false;

		if (!snap_present(gfx))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = streq(snap_get_str(snap_at(nodes, j), "gfx") ?: "", snap_str(gfx));
		if (seen)
			continue;
		strbuf_printf(all, "%s%s", first ? ", " : "", snap_str(gfx));
		*others |= first != NULL;
		first = first ?: gfx;
	}
	return first;
}

RULE_CHECK(check_gpu_unknown)
{
	const struct snap_node *gpus = GPUS(root);

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct snap_node *name = snap_child(g, "name"), *ccf = NULL, *gfx = NULL;
		const struct facts_gpu *fg;
		struct strbuf buses = STRBUF_INIT, targets = STRBUF_INIT;
		unsigned v, d, ma, mi, n = 0;
		bool nvidia = gpu_is_nvidia(g), first = true, known, amdgpu = false, others;
		struct finding *f;
		char label[192];

		if ((!nvidia && !gpu_is_amd(g)) || !gpu_pci_ids(g, &v, &d))
			continue;
		known = snap_get_bool_default(g, "in_gpu_table", gpu_facts(g, &fg) == 0);
		if (known)
			continue;
		/* One finding per PCI id: the first GPU of that id reports them all. */
		for (size_t j = 0; j < snap_count(gpus); j++) {
			unsigned vj, dj;

			if (!gpu_pci_ids(snap_at(gpus, j), &vj, &dj) || vj != v || dj != d)
				continue;
			if (j < i) {
				first = false;
				break;
			}
			strbuf_printf(&buses, "%s%s", n++ ? ", " : "", bus_id(snap_at(gpus, j)));
		}
		if (!first) {
			strbuf_done(&buses);
			continue;
		}
		if (snap_str(name))
			snprintf(label, sizeof(label), "%s %04x:%04x (\"%s\", from %s)",
				 nvidia ? "NVIDIA" : "AMD", v, d, snap_str(name),
				 snap_source(name));
		else
			snprintf(label, sizeof(label),
				 "%s %04x:%04x (no name: not in pci.ids either)",
				 nvidia ? "NVIDIA" : "AMD", v, d);
		if (!nvidia) {
			amdgpu = streq(snap_get_str(g, "driver") ?: "", "amdgpu");
			gfx = kfd_gfx(root, &targets, &others);
			if (snap_str(gfx) && others)
				f = rule_finding(
					c, GPUENV_SEVERITY_INFO, bus_id(g),
					"%u x %s at %s: not in gpuenv's GPU table, which holds "
					"NVIDIA GPUs only; compute capability does not apply to "
					"AMD GPUs, the ROCm checks use the KFD gfx targets (%s; "
					"which is this GPU's is not read)",
					n, label, strbuf_str(&buses), strbuf_str(&targets));
			else if (snap_str(gfx))
				f = rule_finding(
					c, GPUENV_SEVERITY_INFO, bus_id(g),
					"%u x %s at %s: not in gpuenv's GPU table, which holds "
					"NVIDIA GPUs only; compute capability does not apply to "
					"AMD GPUs, the ROCm checks use the KFD gfx target (%s)",
					n, label, strbuf_str(&buses), snap_str(gfx));
			else
				f = rule_finding(
					c, GPUENV_SEVERITY_INFO, bus_id(g),
					"%u x %s at %s: not in gpuenv's GPU table (NVIDIA GPUs "
					"only), and no KFD gfx target is readable (%s): the ROCm "
					"gfx checks cannot judge it",
					n, label, strbuf_str(&buses),
					amdgpu ? "amdgpu drives it, KFD lists no GPU node"
					       : "amdgpu not loaded?");
			finding_fact(f,
				     gfx ? "driver.amdgpu.kfd_nodes[].gfx"
					 : "driver.amdgpu.kfd_nodes",
				     gfx ?: snap_get(root, "driver.amdgpu.kfd_nodes"));
		} else if (gpu_cc(root, g, &ma, &mi, &ccf)) {
			f = rule_finding(c, GPUENV_SEVERITY_INFO, bus_id(g),
					 "%u x %s at %s: not in gpuenv's GPU table; the compute-"
					 "capability checks use %u.%u as the driver reported it",
					 n, label, strbuf_str(&buses), ma, mi);
			finding_fact(f,
				     startswith(snap_source(ccf) ?: "", "nvml")
					     ? "driver.nvml.devices[].compute_capability"
					     : "driver.cuda.devices[].compute_capability",
				     ccf);
		} else {
			f = rule_finding(
				c, GPUENV_SEVERITY_WARNING, bus_id(g),
				"%u x %s at %s: not in gpuenv's GPU table and no driver reported "
				"its compute capability: the checks that need it (driver branch "
				"support, toolkit targets, framework kernels) skip this GPU",
				n, label, strbuf_str(&buses));
		}
		gpu_fact(f, g, i, "vendor_id");
		gpu_fact(f, g, i, "device_id");
		gpu_fact(f, g, i, "in_gpu_table");
		gpu_fact(f, g, i, "name");
		finding_fix(f, "lspci -nn -d %04x:%04x   # the device as pci.ids names it", v, d);
		if (nvidia) {
			finding_fix(f,
				    "nvidia-smi --query-gpu=name,compute_cap --format=csv   # the "
				    "compute capability from the driver");
			finding_rule_fix(f);
			finding_rule_verify(f);
		} else {
			/* the table's fix and verify are NVIDIA's (nvidia-smi's compute_cap): on an
			 * AMD GPU the gfx target is what counts, and KFD reports it */
			/* not where the kernel's amdgpu cannot drive it
			 * (driver.amdgpu-kernel-too-old) */
			if (!snap_str(gfx) && !amdgpu && !amdgpu_kernel_predates(root, g))
				finding_fix(f,
					    "sudo modprobe amdgpu && ls "
					    "/sys/class/kfd/kfd/topology/nodes   # KFD lists the "
					    "GPU once amdgpu drives it");
			finding_verify(f, "grep -h gfx_target_version "
					  "/sys/class/kfd/kfd/topology/nodes/*/properties   # "
					  "the gfx target the ROCm checks use");
		}
		strbuf_done(&buses);
		strbuf_done(&targets);
	}
}
