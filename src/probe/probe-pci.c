// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * GPUs on the PCI bus, from sysfs: every entry of /sys/bus/pci/devices/ (links to
 * /sys/devices/pci<domain:bus>/.../<BDF>) whose class is a display controller (0x03xxxx),
 * or a processing accelerator (0x12xxxx) of NVIDIA (0x10de), AMD (0x1002) or Intel (0x8086).
 * Format: the kernel ABI document Documentation/ABI/testing/sysfs-bus-pci (vendor, device,
 * subsystem_vendor, subsystem_device, class: "0x%04x" / "0x%06x"; numa_node: "%d", -1 when
 * the platform has no NUMA; current_link_speed / max_link_speed: "<n> GT/s PCIe" or
 * "Unknown"; current_link_width / max_link_width: "%u"; driver and iommu_group: symlinks),
 * and drivers/pci/pci-sysfs.c resource_show() for `resource`: one line per resource,
 * "0x%016llx 0x%016llx 0x%016llx" (start, end, IORESOURCE_* flags), index = line number
 * (0-5 standard BARs, 6 expansion ROM, 7-12 SR-IOV BARs). A 64-bit BAR fills line n and
 * leaves line n+1 zero. Writes "hardware.gpus[]", "hardware.pci_devices" (entries seen) and,
 * where there are any, "hardware.nvswitches[]" (NVIDIA's class 0x0680 bridges).
 * Product name, architecture and compute capability come from the built-in GPU table
 * (facts/, src/facts/data/gpu_compute_capability.tsv, keyed by vendor:device); a device the
 * table does not know is named from pci.ids through the caller's lookup
 * (gpuenv_ctx_set_pci_name_fn(): libpci is GPL and is not linked here).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/strv.h"

#define PCI_DEVICES_DIR		 "/sys/bus/pci/devices"
#define PCI_RESOURCE_MAX_LINES	 64u
#define GPU_TABLE_SOURCE	 "facts:gpu_compute_capability"
#define GPU_TABLE_MAX_CANDIDATES 16u

/* include/linux/ioport.h */
#define IORESOURCE_IO	    0x00000100u
#define IORESOURCE_MEM	    0x00000200u
#define IORESOURCE_PREFETCH 0x00002000u
#define IORESOURCE_MEM_64   0x00100000u

static const struct {
	uint16_t id;
	const char *name;
} gpu_vendors[] = {
	{ 0x1002, "AMD" },
	{ 0x10de, "NVIDIA" },
	{ 0x8086, "Intel" },
};

static const char *gpu_vendor_name(uint64_t id)
{
	for (size_t i = 0; i < ARRAY_SIZE(gpu_vendors); i++)
		if (gpu_vendors[i].id == id)
			return gpu_vendors[i].name;
	return NULL;
}

/* "0x" and 1..16 hex digits, nothing else (parse_u64 alone would take "0x-1" and "0x0x1"). */
static int parse_hex(const char *s, uint64_t *ret)
{
	size_t n;

	if (!startswith(s, "0x"))
		return -EINVAL;
	n = strspn(s + 2, "0123456789abcdefABCDEF");
	if (n == 0 || n > 16 || s[2 + n] != '\0')
		return -EINVAL;
	return parse_u64(s, 16, ret);
}

/* One device's attribute path, e.g. "/sys/bus/pci/devices/0000:18:00.0/class". */
static int attr_path(const char *bdf, const char *attr, char **ret)
{
	return asprintf(ret, PCI_DEVICES_DIR "/%s/%s", bdf, attr) < 0 ? -ENOMEM : 0;
}

static int read_attr(struct probe_env *pe, const char *path, char **ret)
{
	return root_read_text(pe->root, path, ROOT_CAP_ATTR, ret);
}

/*
 * A hex id attribute ("0x10de"): written as "0x%0*x" when it parses and fits in max;
 * otherwise a fact state. Returns 0 with *ret_value set when present, <0 otherwise.
 */
static int set_hex_attr(struct probe_env *pe, struct snap_node *gpu, const char *bdf,
			const char *attr, const char *key, int digits, uint64_t max,
			uint64_t *ret_value)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	uint64_t v;
	int err;

	if (attr_path(bdf, attr, &path) < 0)
		return -ENOMEM;
	err = read_attr(pe, path, &text);
	if (err < 0) {
		snap_set_errno(gpu, key, err, path);
		return err;
	}
	if (parse_hex(text, &v) < 0 || v > max) {
		snap_set_malformed(gpu, key, text, path, "not a hexadecimal id");
		return -EBADMSG;
	}
	snap_set_strf(gpu, key, path, "0x%0*" PRIx64, digits, v);
	if (ret_value)
		*ret_value = v;
	return 0;
}

/* A symlink attribute whose target's last component is the value (driver, iommu_group). */
static void set_link_basename(struct probe_env *pe, struct snap_node *gpu, const char *bdf,
			      const char *attr, const char *key)
{
	_cleanup_free_ char *path = NULL, *target = NULL;
	const char *base;
	size_t n;
	int err;

	if (attr_path(bdf, attr, &path) < 0)
		return;
	err = root_readlink(pe->root, path, &target);
	if (err < 0) {
		/* -ENOENT: no driver bound / no IOMMU group: absent. -EINVAL: not a link. */
		if (err == -EINVAL)
			snap_set_state(gpu, key, FACT_MALFORMED, path, "not a symbolic link");
		else
			snap_set_errno(gpu, key, err, path);
		return;
	}
	n = strlen(target);
	while (n > 1 && target[n - 1] == '/')
		target[--n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || streq(base, ".") || streq(base, "..")) {
		snap_set_malformed(gpu, key, target, path, "link target has no last component");
		return;
	}
	snap_set_str(gpu, key, base, path);
}

static void set_int_attr(struct probe_env *pe, struct snap_node *gpu, const char *bdf,
			 const char *attr, bool is_signed)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	int64_t v;
	int err;

	if (attr_path(bdf, attr, &path) < 0)
		return;
	err = read_attr(pe, path, &text);
	if (err < 0) {
		snap_set_errno(gpu, attr, err, path);
		return;
	}
	if (is_signed) {
		err = parse_i64(text, &v);
	} else {
		unsigned u;

		err = parse_uint(text, 10, &u);
		v = u;
	}
	if (err < 0) {
		snap_set_malformed(gpu, attr, text, path, "not a decimal number");
		return;
	}
	snap_set_int(gpu, attr, v, path);
}

/* A one-line text attribute (attr, relative to the device's directory) as `key`. */
static void set_text_attr_as(struct probe_env *pe, struct snap_node *gpu, const char *bdf,
			     const char *attr, const char *key)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	int err;

	if (attr_path(bdf, attr, &path) < 0)
		return;
	err = read_attr(pe, path, &text);
	if (err < 0) {
		snap_set_errno(gpu, key, err, path);
		return;
	}
	strstrip(text);
	if (!*text) {
		snap_set_malformed(gpu, key, text, path, "empty");
		return;
	}
	snap_set_str(gpu, key, text, path);
}

static void set_text_attr(struct probe_env *pe, struct snap_node *gpu, const char *bdf,
			  const char *attr)
{
	set_text_attr_as(pe, gpu, bdf, attr, attr);
}

/*
 * power/runtime_status (Documentation/ABI/testing/sysfs-devices-power: "active",
 * "suspended", "suspending", "resuming", "error" or "unsupported"), read where the link
 * reports no trained state (width 0 or speed "Unknown"): a GPU that runtime power
 * management put in D3cold (a laptop's idle dGPU) answers config reads with all ones, which
 * sysfs shows as speed "Unknown" and width 63, and that is no fault.
 */
static void set_runtime_status(struct probe_env *pe, struct snap_node *gpu, const char *bdf)
{
	const char *speed = snap_get_str(gpu, "current_link_speed");
	int64_t width = -1;

	if (!speed || (snap_get_int(gpu, "current_link_width", &width) && width > 0 &&
		       !streq(speed, "Unknown")))
		return;
	set_text_attr_as(pe, gpu, bdf, "power/runtime_status", "runtime_status");
}

/* "0x<start> 0x<end> 0x<flags>" → 0, or -EBADMSG. */
static int parse_resource_line(char *line, uint64_t *ret_start, uint64_t *ret_end,
			       uint64_t *ret_flags)
{
	_cleanup_strv_free_ char **f = NULL;
	uint64_t v[3];

	if (strv_split(line, " \t", &f) < 0)
		return -ENOMEM;
	if (strv_length(f) != 3)
		return -EBADMSG;
	for (size_t i = 0; i < 3; i++)
		if (parse_hex(f[i], &v[i]) < 0)
			return -EBADMSG;
	*ret_start = v[0];
	*ret_end = v[1];
	*ret_flags = v[2];
	return 0;
}

static void probe_bars(struct probe_env *pe, struct snap_node *gpu, const char *bdf, bool nvidia)
{
	_cleanup_free_ char *path = NULL, *text = NULL;
	struct snap_node *bars;
	bool bar1_seen = false;
	char *state, *line;
	unsigned index = 0;
	/* The resource line of what NVIDIA calls BAR1, the VRAM aperture: the memory BAR after
	 * BAR0. On bare metal BAR0 is 32-bit and BAR1 is line 1; a 64-bit BAR takes two BAR
	 * registers (PCI Local Bus Specification 3.0, 6.2.5.1), its upper half a line of zeros,
	 * so where a hypervisor exposes BAR0 as 64-bit the aperture is line 2 (an H200 in a
	 * Firecracker VM: 16 MiB at 0, 256 GiB at 2, 32 MiB at 4). Other vendors' BAR0 is
	 * 64-bit on bare metal too, and their aperture is another BAR: line 1 as before. */
	unsigned aperture = 1;
	int err;

	if (attr_path(bdf, "resource", &path) < 0)
		return;
	err = read_attr(pe, path, &text);
	/* sysfs shows `resource` for every PCI function: without it (a capture that did not
	 * copy it) nothing is known of the BARs, which is not "BAR1 not assigned" */
	if (err == -ENOENT) {
		snap_set_state(gpu, "bars", FACT_UNPROBED, path, "no resource file: not captured");
		snap_set_state(gpu, "bar1_size_bytes", FACT_UNPROBED, path,
			       "no resource file: not captured");
		return;
	}
	if (err < 0) {
		snap_set_errno(gpu, "bars", err, path);
		snap_set_errno(gpu, "bar1_size_bytes", err, path);
		return;
	}
	bars = snap_array(gpu, "bars");
	state = text;
	while ((line = line_next(&state))) {
		uint64_t start, end, flags, size;
		struct snap_node *bar;
		char raw[128];

		if (index >= PCI_RESOURCE_MAX_LINES)
			break;
		snprintf(raw, sizeof(raw), "%s", line);
		err = parse_resource_line(line, &start, &end, &flags);
		if (err == -ENOMEM)
			return;
		if (err < 0) {
			bar = snap_append_object(bars);
			snap_set_int(bar, "index", index, path);
			snap_set_malformed(bar, "size_bytes", raw, path,
					   "not \"0x<start> 0x<end> 0x<flags>\"");
			if (index == aperture) {
				snap_set_malformed(gpu, "bar1_size_bytes", raw, path,
						   "resource line 1 is malformed");
				bar1_seen = true;
			}
			index++;
			continue;
		}
		if (start == 0 && end == 0 && flags == 0) {
			index++;
			continue;
		}
		if (nvidia && index == 0 && (flags & IORESOURCE_MEM) && (flags & IORESOURCE_MEM_64))
			aperture = 2;
		bar = snap_append_object(bars);
		snap_set_int(bar, "index", index, path);
		snap_set_strf(bar, "flags", path, "0x%08" PRIx64, flags);
		if (flags & IORESOURCE_IO)
			snap_set_str(bar, "kind", "io", path);
		else if (flags & IORESOURCE_MEM)
			snap_set_str(bar, "kind", "memory", path);
		if (flags & IORESOURCE_MEM) {
			snap_set_bool(bar, "prefetchable", flags & IORESOURCE_PREFETCH, path);
			snap_set_bool(bar, "is_64bit", flags & IORESOURCE_MEM_64, path);
		}
		if (start == 0) {
			snap_set_state(bar, "size_bytes", FACT_ABSENT, path, "BAR not assigned");
		} else if (end < start || end - start >= (uint64_t)INT64_MAX) {
			snap_set_malformed(bar, "size_bytes", raw, path, "end below start");
			if (index == aperture) {
				snap_set_malformed(gpu, "bar1_size_bytes", raw, path,
						   "end below start");
				bar1_seen = true;
			}
		} else {
			size = end - start + 1;
			snap_set_int(bar, "size_bytes", (int64_t)size, path);
			if (index == aperture && !bar1_seen) {
				snap_set_int(gpu, "bar1_size_bytes", (int64_t)size, path);
				bar1_seen = true;
			}
		}
		index++;
	}
	/* unassigned only on evidence: BAR1's own line read, zero (resource_show() prints all
	 * PCI_NUM_RESOURCES lines; a file that ends before it is cut short) */
	if (!bar1_seen && index <= aperture)
		snap_set_malformed(gpu, "bar1_size_bytes", NULL, path,
				   "the resource file ends before BAR1's line");
	else if (!bar1_seen)
		snap_set_state(gpu, "bar1_size_bytes", FACT_ABSENT, path, "BAR1 not assigned");
}

/* name, architecture, chip, compute_capability: one state for all (id unreadable). */
static void set_identity_unknown(struct snap_node *gpu, enum fact_state state, const char *why)
{
	static const char *const keys[] = { "in_gpu_table", "name", "architecture", "chip",
					    "compute_capability" };

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		snap_set_state(gpu, keys[i], state, GPU_TABLE_SOURCE, why);
}

/* A table column: present when the row has it, absent when the row leaves it unconfirmed. */
static void set_table_str(struct snap_node *obj, const char *key, const char *value,
			  const char *source)
{
	if (value && *value && !streq(value, "?"))
		snap_set_str(obj, key, value, source);
	else
		snap_set_state(obj, key, FACT_ABSENT, source, "not confirmed in the GPU table");
}

/* The fallback: the caller's pci.ids lookup, for devices the table does not know. */
static void set_pci_ids_name(struct probe_env *pe, struct snap_node *gpu, uint16_t vendor,
			     uint16_t device, bool subvendor_ok, uint64_t subvendor,
			     bool subdevice_ok, uint64_t subdevice)
{
	char buf[256] = "";
	int err;

	if (!pe->ctx || !pe->ctx->pci_name_fn) {
		snap_set_state(gpu, "name", FACT_ABSENT, GPU_TABLE_SOURCE,
			       "not in the built-in GPU table; no PCI ID database (pci.ids) given");
		return;
	}
	err = pe->ctx->pci_name_fn(pe->ctx->pci_name_userdata, vendor, device,
				   subvendor_ok ? (uint16_t)subvendor : 0xffff,
				   subdevice_ok ? (uint16_t)subdevice : 0xffff, buf, sizeof(buf));
	buf[sizeof(buf) - 1] = '\0';
	if (err == -ENOENT || (err >= 0 && !*strstrip(buf)))
		snap_set_state(gpu, "name", FACT_ABSENT, "pci.ids",
			       "neither in the built-in GPU table nor in pci.ids");
	else if (err == -EBADMSG)
		snap_set_state(gpu, "name", FACT_MALFORMED, "pci.ids",
			       "the PCI ID database could not be parsed");
	else if (err < 0)
		snap_set_errno(gpu, "name", err, "pci.ids");
	else
		snap_set_str(gpu, "name", buf, "pci.ids");
}

/*
 * The GPU table row(s) for vendor:device. An id can name several products (10de:25b6 is both
 * A16 and A2, told apart only by the subsystem id): every one is listed in
 * gpu_table.candidates[], the first gives name/architecture/compute_capability.
 */
static void set_identity(struct probe_env *pe, struct snap_node *gpu, uint16_t vendor,
			 uint16_t device, bool subvendor_ok, uint64_t subvendor, bool subdevice_ok,
			 uint64_t subdevice)
{
	static const char *const facts_keys[] = { "architecture", "chip", "compute_capability" };
	const struct facts_gpu *row, *cand;
	struct snap_node *tbl, *cands;
	char source[160];

	if (facts_gpu_by_pci_id(vendor, device, &row) < 0) {
		snap_set_bool(gpu, "in_gpu_table", false, GPU_TABLE_SOURCE);
		for (size_t i = 0; i < ARRAY_SIZE(facts_keys); i++)
			snap_set_state(gpu, facts_keys[i], FACT_ABSENT, GPU_TABLE_SOURCE,
				       "not in the built-in GPU table");
		set_pci_ids_name(pe, gpu, vendor, device, subvendor_ok, subvendor, subdevice_ok,
				 subdevice);
		return;
	}
	/* The fact's source names the table and the row's own sources ("CUDAGPUS;OGKM;PCIIDS"). */
	snprintf(source, sizeof(source), GPU_TABLE_SOURCE " [%s]", row->source ? row->source : "?");
	snap_set_bool(gpu, "in_gpu_table", true, GPU_TABLE_SOURCE);
	set_table_str(gpu, "name", row->product, source);
	set_table_str(gpu, "architecture", row->architecture, source);
	set_table_str(gpu, "chip", row->chip, source);
	set_table_str(gpu, "compute_capability", row->compute_capability, source);

	tbl = snap_object(gpu, "gpu_table");
	set_table_str(tbl, "product", row->product, source);
	set_table_str(tbl, "segment", row->segment, source);
	set_table_str(tbl, "confidence", row->confidence, source);
	set_table_str(tbl, "pci_id_confidence", row->pci_id_confidence, source);
	cands = snap_array(tbl, "candidates");
	for (size_t n = 0;
	     n < GPU_TABLE_MAX_CANDIDATES && facts_gpu_by_pci_id_nth(vendor, device, n, &cand) == 0;
	     n++) {
		char csrc[160];

		snprintf(csrc, sizeof(csrc), GPU_TABLE_SOURCE " [%s]",
			 cand->source ? cand->source : "?");
		snap_append_str(cands, cand->product ? cand->product : "?", csrc);
	}
}

/* Is this a device we report? Unreadable class: keep devices of the GPU vendors. */
static bool is_gpu(bool class_ok, uint64_t cls, bool vendor_ok, uint64_t vendor)
{
	const char *vname = vendor_ok ? gpu_vendor_name(vendor) : NULL;

	if (!class_ok)
		return vname != NULL;
	if ((cls >> 16) == 0x03)
		return true;
	return (cls >> 16) == 0x12 && vname != NULL;
}

/* An NVSwitch: NVIDIA's (0x10de) PCI class 0x0680, "bridge, other" (lspci on HGX boards:
 * "Bridge [0680]: NVIDIA Corporation GH100 [H100 NVSwitch] [10de:22a3]"; pci.ids: 1af1
 * "GA100 [A100 NVSwitch]", 22a3 "GH100 [H100 NVSwitch]"). Recorded in hardware.nvswitches[],
 * made with the first one. Blackwell's NVLink 5 switches are not on the host's PCI bus (the
 * Fabric Manager User Guide: NVLSM programs them through a ConnectX port), so none seen
 * there proves nothing on such boards. */
static void probe_nvswitch(struct probe_env *pe, struct snap_node *hw, const char *bdf)
{
	struct snap_node *sw = snap_append_object(snap_array(hw, "nvswitches"));

	snap_set_str(sw, "bus_id", bdf, PCI_DEVICES_DIR);
	set_hex_attr(pe, sw, bdf, "device", "device_id", 4, 0xffff, NULL);
	set_link_basename(pe, sw, bdf, "driver", "driver");
}

static int probe_one(struct probe_env *pe, struct snap_node *hw, struct snap_node *gpus,
		     const char *bdf)
{
	_cleanup_free_ char *vpath = NULL, *cpath = NULL, *vtext = NULL, *ctext = NULL;
	uint64_t vendor = 0, cls = 0, device = 0, subvendor = 0, subdevice = 0;
	bool vendor_ok, class_ok, device_ok, subvendor_ok, subdevice_ok;
	struct snap_node *gpu;
	const char *vname;
	int verr, cerr;

	if (attr_path(bdf, "vendor", &vpath) < 0 || attr_path(bdf, "class", &cpath) < 0)
		return -ENOMEM;
	/* Decide first (without writing), then write every fact of a kept device. */
	verr = read_attr(pe, vpath, &vtext);
	vendor_ok = verr == 0 && parse_hex(vtext, &vendor) == 0 && vendor <= 0xffff;
	cerr = read_attr(pe, cpath, &ctext);
	class_ok = cerr == 0 && parse_hex(ctext, &cls) == 0 && cls <= 0xffffff;
	if (class_ok && vendor_ok && vendor == 0x10de && (cls >> 8) == 0x0680) {
		probe_nvswitch(pe, hw, bdf);
		return 0;
	}
	if (!is_gpu(class_ok, cls, vendor_ok, vendor)) {
		log_debug(pe->log, "pci %s: not a GPU (class %s, vendor %s)", bdf,
			  ctext ? ctext : errno_name(cerr), vtext ? vtext : errno_name(verr));
		return 0;
	}

	gpu = snap_append_object(gpus);
	snap_set_str(gpu, "bus_id", bdf, PCI_DEVICES_DIR);
	set_hex_attr(pe, gpu, bdf, "vendor", "vendor_id", 4, 0xffff, NULL);
	device_ok = set_hex_attr(pe, gpu, bdf, "device", "device_id", 4, 0xffff, &device) == 0;
	subvendor_ok = set_hex_attr(pe, gpu, bdf, "subsystem_vendor", "subsystem_vendor_id", 4,
				    0xffff, &subvendor) == 0;
	subdevice_ok = set_hex_attr(pe, gpu, bdf, "subsystem_device", "subsystem_device_id", 4,
				    0xffff, &subdevice) == 0;
	set_hex_attr(pe, gpu, bdf, "class", "class", 6, 0xffffff, NULL);

	vname = vendor_ok ? gpu_vendor_name(vendor) : NULL;
	if (vname)
		snap_set_str(gpu, "vendor", vname, vpath);
	else if (vendor_ok)
		snap_set_state(gpu, "vendor", FACT_ABSENT, vpath, "not one of NVIDIA, AMD, Intel");
	else
		snap_set_state(gpu, "vendor", snap_get_state(gpu, "vendor_id"), vpath,
			       "vendor id not readable");

	if (vendor_ok && device_ok)
		set_identity(pe, gpu, (uint16_t)vendor, (uint16_t)device, subvendor_ok, subvendor,
			     subdevice_ok, subdevice);
	else
		set_identity_unknown(gpu,
				     vendor_ok ? snap_get_state(gpu, "device_id")
					       : snap_get_state(gpu, "vendor_id"),
				     "PCI vendor/device id not readable");

	set_link_basename(pe, gpu, bdf, "driver", "driver");
	set_link_basename(pe, gpu, bdf, "iommu_group", "iommu_group");
	set_int_attr(pe, gpu, bdf, "numa_node", true);
	set_text_attr(pe, gpu, bdf, "current_link_speed");
	set_text_attr(pe, gpu, bdf, "max_link_speed");
	set_int_attr(pe, gpu, bdf, "current_link_width", false);
	set_int_attr(pe, gpu, bdf, "max_link_width", false);
	set_runtime_status(pe, gpu, bdf);
	probe_bars(pe, gpu, bdf, vendor_ok && vendor == 0x10de);
	return 0;
}

int probe_pci(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *hw = snap_object(snapshot_root(s), "hardware");
	struct snap_node *gpus = snap_array(hw, "gpus");
	_cleanup_strv_free_ char **names = NULL;
	int err;

	err = root_list_dir(pe->root, PCI_DEVICES_DIR, ROOT_DIR_MAX_ENTRIES, &names);
	if (err < 0) {
		snap_set_errno(hw, "pci_devices", err, PCI_DEVICES_DIR);
		return err == -ENOMEM ? err : snapshot_error(s);
	}
	snap_set_int(hw, "pci_devices", (int64_t)strv_length(names), PCI_DEVICES_DIR);
	STRV_FOREACH(n, names) {
		err = probe_one(pe, hw, gpus, *n);
		if (err == -ENOMEM)
			return err;
	}
	return snapshot_error(s);
}
