// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Intel lines of a diagnosis (rules-summary.c calls rules_summarize_intel() after its own
 * layers): the i915/xe driver bound to each Intel GPU with the GuC/HuC firmware the kernel log
 * shows loaded, the Level Zero loader and GPU driver, the oneAPI releases installed. Facts for
 * the per-vendor chain: driver name and firmware (driver.intel.firmware[]), Level Zero and
 * oneAPI versions (runtime.level_zero, runtime.oneapi), the torch XPU build (fw_xpu_text()).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-intel.h"
#include "shared/strbuf.h"

const char *fw_xpu_text(const struct fw_build *b, char *buf, size_t len)
{
	const struct snap_node *x = snap_child(b->pkg, "xpu");

	if (b->kind != FW_TORCH || !torch_is_xpu(b->pkg))
		return NULL;
	if (snap_str(x))
		snprintf(buf, len, "XPU (SYCL %s)", snap_str(x));
	else
		snprintf(buf, len, "XPU");
	return buf;
}

/* "GuC 70.20.0, HuC 7.10.15" from the latest loaded event of each kind on the bus. */
static void firmware_text(const struct snap_node *root, const char *bus, struct strbuf *sb)
{
	static const char *const kinds[] = { "GuC", "HuC" };
	const struct snap_node *fw = snap_get(root, "driver.intel.firmware");

	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		const struct snap_node *best = NULL;
		int64_t best_line = -1;

		for (size_t i = 0; i < snap_count(fw); i++) {
			const struct snap_node *e = snap_at(fw, i);
			const char *st = snap_get_str(e, "state") ?: "";
			int64_t line = 0;

			snap_get_int(e, "line", &line);
			if (!bus_id_equal(snap_get_str(e, "bus_id"), bus) ||
			    !streq(snap_get_str(e, "kind") ?: "", kinds[k]) ||
			    streq(st, "outdated") || line <= best_line)
				continue;
			best = e;
			best_line = line;
		}
		if (!best)
			continue;
		strbuf_printf(sb, "%s%s %s%s%s", sb->len ? ", " : " · ", kinds[k],
			      snap_get_str(best, "version") ?: "",
			      snap_get_str(best, "version") ? " " : "",
			      snap_get_str(best, "state") ?: "?");
	}
}

static void driver_lines(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const struct snap_node *fw = snap_get(root, "driver.intel.firmware");

	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const char *bus = snap_get_str(g, "bus_id");
		struct strbuf sb = STRBUF_INIT;
		char fwbuf[256];

		if (!gpu_is_intel(g))
			continue;
		if (!gpu_intel_bound(g)) {
			diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "Intel driver",
					   snap_source(snap_child(g, "driver")),
					   "%s: no i915 or xe bound", bus ?: "?");
			continue;
		}
		*absent = false;
		firmware_text(root, bus, &sb);
		if (snap_kind(fw) != SNAP_ARRAY) {
			fact_describe(fw, fwbuf, sizeof(fwbuf));
			strbuf_printf(&sb, " · firmware: could not read the kernel log (%s)",
				      fwbuf);
		}
		diagnosis_add_fact(d, GPUENV_LAYER_DRIVER, "Intel driver",
				   snap_source(snap_child(g, "driver")), "%s bound to %s%s",
				   snap_get_str(g, "driver"), bus ?: "?", strbuf_str(&sb));
		strbuf_done(&sb);
	}
}

static void lib_text(struct strbuf *sb, const struct snap_node *lib, const char *pkg_key,
		     const struct snap_node *pkgs, const char *const *pkg_names)
{
	const struct snap_node *p = snap_child(lib, "path");
	char buf[192];

	if (snap_present(p)) {
		strbuf_printf(sb, "%s", snap_str(p));
	} else {
		fact_describe(p, buf, sizeof(buf));
		strbuf_printf(sb, "%s", snap_state(p) == FACT_ABSENT ? "not installed" : buf);
	}
	(void)pkg_key;
	for (size_t i = 0; pkg_names[i]; i++) {
		const char *v = snap_get_str(pkgs, pkg_names[i]);

		if (v)
			strbuf_printf(sb, " (%s %s)", pkg_names[i], v);
	}
}

static void runtime_lines(struct gpuenv_doctor *d, const struct snap_node *root, bool *absent)
{
	static const char *const loader_pkgs[] = { "libze1", "level-zero", NULL };
	static const char *const driver_pkgs[] = { "libze-intel-gpu1", "intel-level-zero-gpu",
						   NULL };
	const struct snap_node *lz = snap_get(root, "runtime.level_zero");
	const struct snap_node *comps = snap_get(root, "runtime.oneapi.components");
	const struct snap_node *pkgs = snap_child(lz, "packages");
	struct strbuf sb = STRBUF_INIT;

	if (!lz)
		return;
	strbuf_puts(&sb, "loader ");
	lib_text(&sb, snap_child(lz, "loader"), "loader", pkgs, loader_pkgs);
	strbuf_puts(&sb, " · GPU driver ");
	lib_text(&sb, snap_child(lz, "gpu_driver"), "gpu_driver", pkgs, driver_pkgs);
	diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "Level Zero", "ld.so search", "%s",
			   strbuf_str(&sb));
	if (snap_get_state(lz, "loader.path") == FACT_PRESENT)
		*absent = false;
	strbuf_done(&sb);
	for (size_t i = 0; i < snap_count(comps); i++) {
		const struct snap_node *o = snap_at(comps, i), *vs = snap_child(o, "versions");
		const char *name = snap_get_str(o, "name") ?: "?";

		if (!streq(name, "compiler") && !streq(name, "mkl"))
			continue;
		for (size_t j = 0; j < snap_count(vs); j++)
			strbuf_printf(&sb, "%s%s %s", sb.len ? ", " : "", name,
				      snap_str(snap_at(vs, j)) ?: "?");
	}
	if (sb.len)
		diagnosis_add_fact(d, GPUENV_LAYER_RUNTIME, "oneAPI", "/opt/intel/oneapi", "%s",
				   strbuf_str(&sb));
	strbuf_done(&sb);
}

void rules_summarize_intel(struct gpuenv_doctor *d, const struct snap_node *root,
			   bool absent[RULE_LAYERS])
{
	if (!snap_get(root, "driver.intel") && !snap_get(root, "runtime.level_zero"))
		return;
	driver_lines(d, root, &absent[GPUENV_LAYER_DRIVER]);
	runtime_lines(d, root, &absent[GPUENV_LAYER_RUNTIME]);
}
