// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.intel-kernel-too-old: an Intel GPU no driver is bound to, on a kernel older than the
 * first upstream release whose i915 or xe binds that GPU family by default
 * (facts/data/intel_gpu_kernel.tsv). Before that release the driver lists the PCI id behind
 * force_probe (a kernel log line, judged by driver.intel-force-probe-needed) or not at all
 * (no line: this rule is the only one that can tell why /dev/dri has no node for the GPU).
 * The release compared is the running kernel's major.minor (host.kernel_release, "5.15.0-91-
 * generic" -> 5.15); a distribution kernel that carries the support earlier binds the GPU,
 * and a bound GPU is never judged here.
 */
#include <stdio.h>
#include <string.h>

#include "facts/facts-intel.h"
#include "rules/rules-intel.h"

/* "6.8.0-51-generic" / "6.12" -> 6, 8; false when the release does not start major.minor. */
static bool release_major_minor(const char *rel, unsigned *ret_major, unsigned *ret_minor)
{
	return rel && sscanf(rel, "%u.%u", ret_major, ret_minor) == 2;
}

/* a >= b for "major.minor" strings (b a knowledge-base value, always well formed). */
static bool release_at_least(unsigned major, unsigned minor, const char *b)
{
	unsigned bmaj = 0, bmin = 0;

	if (sscanf(b, "%u.%u", &bmaj, &bmin) != 2)
		return false;
	return major > bmaj || (major == bmaj && minor >= bmin);
}

const struct facts_intel_kernel *intel_kernel_row(const struct snap_node *gpu)
{
	const struct facts_intel_kernel *row;
	unsigned v = 0, d = 0;

	if (!gpu_pci_ids(gpu, &v, &d) || v != 0x8086 || facts_intel_kernel_family(d, &row) < 0 ||
	    facts_unconfirmed(row->confidence))
		return NULL;
	return row;
}

void intel_kernel_evidence(struct finding *f, const struct facts_intel_kernel *row)
{
	if (row->default_from)
		finding_evidence(f, "first_default_release", "facts:intel_gpu_kernel",
				 "%s, %s: Linux %s's %s binds it by default [%s]", row->family,
				 row->products, row->default_from, row->driver, row->source);
	else
		finding_evidence(f, "first_default_release", "facts:intel_gpu_kernel",
				 "%s, %s: no upstream release's %s binds it by default (%s) [%s]",
				 row->family, row->products, row->driver, row->notes, row->source);
}

/* A force_probe line of the kernel log names this GPU: driver.intel-force-probe-needed
 * quotes it, with the same table row. */
static bool force_probe_logged(const struct snap_node *root, const char *bus)
{
	const struct snap_node *fw = snap_get(root, "driver.intel.firmware");

	for (size_t i = 0; bus && i < snap_count(fw); i++) {
		const struct snap_node *e = snap_at(fw, i);

		if (streq(snap_get_str(e, "state") ?: "", "force_probe_needed") &&
		    bus_id_equal(snap_get_str(e, "bus_id"), bus))
			return true;
	}
	return false;
}

RULE_CHECK(check_intel_kernel_too_old)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *relf = snap_get(root, "host.kernel_release");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i), *drv = snap_child(g, "driver");
		const char *bus = snap_get_str(g, "bus_id");
		const struct facts_intel_kernel *row = intel_kernel_row(g);
		unsigned major = 0, minor = 0, dev = 0, ven = 0;
		char name[64];
		struct finding *f;

		if (!row || !row->default_from || snap_state(drv) == FACT_PRESENT)
			continue;
		if (!rule_need_known(c, bus, "the driver bound to the GPU", drv) ||
		    force_probe_logged(root, bus))
			continue;
		if (!rule_need(c, bus, "the running kernel's release", relf))
			continue;
		if (!release_major_minor(snap_str(relf), &major, &minor)) {
			rule_skip(c, bus, "kernel release '%s' does not start with major.minor",
				  snap_str(relf));
			continue;
		}
		if (release_at_least(major, minor, row->default_from))
			continue; /* new enough: something else keeps it unbound */
		gpu_pci_ids(g, &ven, &dev);
		f = rule_finding(c, GPUENV_SEVERITY_ERROR, bus,
				 "no driver is bound to the Intel GPU 8086:%04x (%s) at %s: the "
				 "running kernel %s predates Linux %s, the first release whose %s "
				 "drives it by default",
				 dev, row->family, bus ?: "?", snap_str(relf), row->default_from,
				 row->driver);
		if (!f)
			return;
		snprintf(name, sizeof(name), "hardware.gpus.%zu.driver", i);
		finding_fact(f, name, drv);
		finding_fact(f, "host.kernel_release", relf);
		intel_kernel_evidence(f, row);
		finding_fix(f,
			    "# boot a kernel of Linux %s or newer (uname -r shows the running one)",
			    row->default_from);
		finding_rule_fix(f);
		finding_rule_verify(f);
	}
}
