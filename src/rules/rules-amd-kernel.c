// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.amdgpu-kernel-too-old: an AMD GPU no driver is bound to, on a kernel whose own amdgpu
 * does not drive that GPU family (facts/data/amdgpu_kernel.tsv): older than the first release
 * whose amdgpu lists the PCI id, or a release the sources show does not. Such an amdgpu has no
 * pciidlist entry for the GPU: nothing binds it, `modprobe amdgpu` loads a module that ignores
 * it and the kernel log says nothing of the GPU (ROCm/legacy-rocm-build#624, AMDVLK#184),
 * so hardware.gpu-without-driver leaves these GPUs to this rule. The release compared is the
 * running kernel's major.minor (host.kernel_release, "4.4.0-139-generic" -> 4.4); a bound GPU
 * is never judged here (a distribution kernel that carries the support earlier binds it).
 * Nor is one where the kernel log shows an amdgpu that knows the GPU: it tried to bring the GPU
 * up ("Fatal error during GPU init", printed from amdgpu's probe of the device) or to load its
 * firmware ("Direct firmware load for amdgpu/... failed"), judged per GPU by the PCI address
 * the lines name; where the log could not be read, the rule could not tell. That amdgpu (a
 * distribution kernel's backport, or amdgpu-dkms) is newer than the release says, and the GPU
 * is unbound for the reason the log gives: driver.amdgpu-firmware-failed names it
 * (ROCm/legacy-rocm-build#1357: amdgpu 5.6.19 from rock-dkms on 4.15, its firmware not
 * reinstalled).
 */
#include <stdio.h>

#include "facts/facts-amd.h"
#include "facts/facts.h"
#include "rules/rules-internal.h"
#include "shared/parse.h"

/* major.minor against b, a knowledge-base "major.minor": <0 older, 0 the same, >0 newer;
 * false when b is NULL (an empty cell). */
static bool release_cmp(unsigned major, unsigned minor, const char *b, int *ret)
{
	unsigned bmaj = 0, bmin = 0;

	if (!b || sscanf(b, "%u.%u", &bmaj, &bmin) != 2)
		return false;
	*ret = major != bmaj ? (major < bmaj ? -1 : 1) : (minor < bmin ? -1 : minor > bmin);
	return true;
}

/* Whether the kernel log shows an amdgpu that tried this GPU. A firmware or init failure line
 * names its GPU ("amdgpu 0000:03:00.0: Fatal error during GPU init", dev_err()): where the
 * lines name GPUs (driver.kernel_log.amdgpu.failed_buses), only those are known to that
 * amdgpu, so on a machine with two AMD GPUs (an APU and a card, an old card and a new one)
 * one's failure says nothing of the other. Where no line names one (only "[drm:psp_hw_init
 * [amdgpu]] *ERROR* …" lines, or a snapshot without the list), any AMD GPU may be the one. */
static bool amdgpu_log_knows_gpu(const struct snap_node *root, const struct snap_node *gpu)
{
	const struct snap_node *a = snap_get(root, "driver.kernel_log.amdgpu");
	const struct snap_node *buses = snap_child(a, "failed_buses");
	const char *bus = snap_get_str(gpu, "bus_id");
	int64_t fw = 0, fatal = 0, dropped = 0;

	if (!((snap_get_int(a, "firmware_failures", &fw) && fw > 0) ||
	      (snap_get_int(a, "init_failures", &fatal) && fatal > 0)))
		return false;
	if (snap_count(buses) == 0 || !bus ||
	    (snap_get_int(a, "failed_buses_dropped", &dropped) && dropped > 0))
		return true;
	for (size_t i = 0; i < snap_count(buses); i++)
		if (bus_id_equal(snap_str(snap_at(buses, i)), bus))
			return true;
	return false;
}

/* The GPU's PCI device id where it is AMD's: by its vendor id, or, without one, by the vendor
 * lspci names (pasted lspci without -nn prints "Advanced Micro Devices, Inc. [AMD/ATI] Device
 * 687f" for a device its pci.ids does not name: the device id alone). */
static bool amd_device_id(const struct snap_node *gpu, unsigned *ret_device)
{
	const char *d = snap_get_str(gpu, "device_id");
	unsigned v = 0, dd = 0;

	if (gpu_pci_ids(gpu, &v, &dd)) {
		*ret_device = dd;
		return v == 0x1002;
	}
	if (snap_get_str(gpu, "vendor_id") || !gpu_is_amd(gpu) || !d || parse_uint(d, 0, &dd) < 0 ||
	    dd > 0xffff)
		return false;
	*ret_device = dd;
	return true;
}

const struct facts_amdgpu_kernel *amdgpu_kernel_predates(const struct snap_node *root,
							 const struct snap_node *gpu)
{
	const struct facts_amdgpu_kernel *row;
	unsigned d = 0, major = 0, minor = 0;
	int cmp = 0;

	if (amdgpu_log_knows_gpu(root, gpu) || !amd_device_id(gpu, &d) ||
	    facts_amdgpu_kernel_family(d, &row) < 0 || facts_unconfirmed(row->confidence) ||
	    !cuda_major_minor(snap_get_str(root, "host.kernel_release"), &major, &minor))
		return NULL;
	/* older than first_release, or absent_through ("4.19") itself and older */
	if ((release_cmp(major, minor, row->first_release, &cmp) && cmp < 0) ||
	    (release_cmp(major, minor, row->absent_through, &cmp) && cmp <= 0))
		return row;
	return NULL;
}

RULE_CHECK(check_amdgpu_kernel_too_old)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *relf = snap_get(root, "host.kernel_release");
	const struct snap_node *log = snap_get(root, "driver.kernel_log.source");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i), *drv = snap_child(g, "driver");
		const char *bus = snap_get_str(g, "bus_id");
		const struct facts_amdgpu_kernel *row;
		unsigned d = 0, major = 0, minor = 0;
		char name[64];
		struct finding *f;

		if (!amd_device_id(g, &d) || facts_amdgpu_kernel_family(d, &row) < 0 ||
		    facts_unconfirmed(row->confidence))
			continue;
		if (!rule_need_known(c, bus, "the driver bound to the GPU", drv) || snap_str(drv))
			continue;
		if (!rule_need(c, bus, "the running kernel's release", relf))
			continue;
		if (!cuda_major_minor(snap_str(relf), &major, &minor)) {
			rule_skip(c, bus, "kernel release '%s' does not start with major.minor",
				  snap_str(relf));
			continue;
		}
		row = amdgpu_kernel_predates(root, g);
		if (!row)
			continue; /* new enough: something else keeps it unbound */
		/* a log that could not be read might have shown an amdgpu newer than the release
		 * that knows the GPU (a backport, amdgpu-dkms) and failed on it: could not tell */
		if (fact_is_failure(snap_state(log)) &&
		    !rule_need(c, bus,
			       "the kernel log (whether an amdgpu that knows the GPU tried it)",
			       log))
			continue;
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, bus,
			"no driver is bound to the AMD GPU 1002:%04x (%s, %s) at %s: the running "
			"kernel %s %s Linux %s, %s",
			d, row->family, row->gfx, bus ?: "?", snap_str(relf),
			row->first_release ? "predates" : "is not newer than",
			row->first_release ?: row->absent_through,
			row->first_release
				? "the first release whose amdgpu drives it"
				: "whose amdgpu does not drive it (the first release that does is "
				  "not known here)");
		if (!f)
			return;
		snprintf(name, sizeof(name), "hardware.gpus.%zu.driver", i);
		finding_fact(f, name, drv);
		finding_fact(f, "host.kernel_release", relf);
		if (row->first_release)
			finding_evidence(f, "amdgpu_first_release", "facts:amdgpu_kernel",
					 "%s (%s), %s: first driven by Linux %s's amdgpu [%s]",
					 row->family, row->gfx, row->products, row->first_release,
					 row->source);
		else
			finding_evidence(f, "amdgpu_absent_through", "facts:amdgpu_kernel",
					 "%s (%s), %s: not driven by Linux %s's amdgpu (%s) [%s]",
					 row->family, row->gfx, row->products, row->absent_through,
					 row->notes, row->source);
		if (row->first_release)
			finding_fix(
				f,
				"# boot a kernel of Linux %s or newer (uname -r shows the running "
				"one)",
				row->first_release);
		else /* no release known to drive it: name none, say how to tell */
			finding_fix(
				f,
				"# Linux %s's amdgpu does not drive it, and which later release "
				"first does is not known here: boot your distribution's newest "
				"kernel, then lspci -nnk shows whether amdgpu is in use",
				row->absent_through);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}
