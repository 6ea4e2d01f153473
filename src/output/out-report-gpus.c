// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The head of `gpuenv report`: each GPU NVML reported, with what nvidia-smi's table and
 * `nvidia-smi -q -d TEMPERATURE,PERFORMANCE,CLOCK,POWER` show for it (temperature and its
 * thresholds, performance state, clocks event reasons, power draw and limit, memory, use,
 * clocks, uncorrectable ECC errors) and its processes (pid, type, name, memory) as
 * nvidia-smi's process table lists them. Rendering only: a value NVML did not give is "N/A"
 * where the board lacks it (NOT_SUPPORTED), "?" where the call failed (the tree below says
 * why); nothing is computed but the unit (mW printed as W).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuenv/gpuenv.h"
#include "output.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "snapshot/snapshot.h"

/* One value: its number and unit, "N/A" (unsupported) or "?" (any other failure). */
static void put_int(struct strbuf *sb, const struct snap_node *d, const char *key, const char *unit)
{
	const struct snap_node *v = snap_child(d, key);
	int64_t i;

	if (snap_int(v, &i))
		strbuf_printf(sb, "%" PRId64 "%s", i, unit);
	else
		strbuf_puts(sb, snap_state(v) == FACT_UNSUPPORTED ? "N/A" : "?");
}

static void put_watts(struct strbuf *sb, const struct snap_node *d, const char *key)
{
	const struct snap_node *v = snap_child(d, key);
	int64_t mw;

	if (snap_int(v, &mw))
		strbuf_printf(sb, "%" PRId64 ".%02" PRId64 " W", mw / 1000, (mw % 1000) / 10);
	else
		strbuf_puts(sb, snap_state(v) == FACT_UNSUPPORTED ? "N/A" : "?");
}

static void put_str(struct strbuf *sb, const struct snap_node *d, const char *key)
{
	const char *s = snap_get_str(d, key);

	strbuf_put_escaped(sb, s ? s : "?");
}

/* nvidia-smi -q's names of the clocks event reasons (nvml.h nvmlClocksEventReason*). */
static const struct {
	uint64_t bit;
	const char *name;
} reasons[] = {
	{ 0x1, "Idle" },
	{ 0x2, "Applications Clocks Setting" },
	{ 0x4, "SW Power Cap" },
	{ 0x8, "HW Slowdown" },
	{ 0x10, "Sync Boost" },
	{ 0x20, "SW Thermal Slowdown" },
	{ 0x40, "HW Thermal Slowdown" },
	{ 0x80, "HW Power Brake Slowdown" },
	{ 0x100, "Display Clock Setting" },
};

static void put_reasons(struct strbuf *sb, const struct snap_node *d)
{
	const struct snap_node *v = snap_child(d, "clocks_event_reasons");
	int64_t mask;
	bool any = false;

	if (!snap_int(v, &mask)) {
		strbuf_puts(sb, snap_state(v) == FACT_UNSUPPORTED ? "N/A" : "?");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(reasons); i++)
		if ((uint64_t)mask & reasons[i].bit) {
			strbuf_printf(sb, "%s%s", any ? ", " : "", reasons[i].name);
			any = true;
		}
	if (!any)
		strbuf_puts(sb, "none");
}

/* The processes of one list; false (after saying so) when NVML did not give the list. */
static bool put_processes(struct strbuf *sb, const struct snap_node *d, const char *key,
			  const char *type, bool redact, size_t *n)
{
	const struct snap_node *list = snap_child(d, key);

	if (snap_kind(list) != SNAP_ARRAY) {
		strbuf_printf(sb, "      %s processes: %s\n", type,
			      snap_state(list) == FACT_UNSUPPORTED ? "N/A" : "?");
		return false;
	}
	for (size_t i = 0; i < snap_count(list); i++) {
		const struct snap_node *p = snap_at(list, i);

		strbuf_puts(sb, "      ");
		put_int(sb, p, "pid", "");
		strbuf_printf(sb, "  %s  ", type);
		if (redact)
			strbuf_puts(sb, "<redacted>");
		else
			put_str(sb, p, "name");
		strbuf_puts(sb, "  ");
		put_int(sb, p, "used_memory_mib", " MiB");
		strbuf_putc(sb, '\n');
		(*n)++;
	}
	return true;
}

static void gpu_lines(struct strbuf *sb, const struct snap_node *root, unsigned flags)
{
	const struct snap_node *devs = snap_get(root, "driver.nvml.devices");

	if (!snap_count(devs))
		return;
	strbuf_puts(sb, "\nGPUs (NVML)\n");
	for (size_t i = 0; i < snap_count(devs); i++) {
		const struct snap_node *d = snap_at(devs, i);
		size_t n = 0;
		bool lists;

		strbuf_printf(sb, "  GPU %zu  ", i);
		if (!snap_present(snap_child(d, "index"))) {
			strbuf_puts(sb, "? (no handle: see driver.nvml.devices below)\n");
			continue;
		}
		put_str(sb, d, "name");
		strbuf_puts(sb, "  ");
		put_str(sb, d, "pci_bus_id");
		strbuf_puts(sb, "\n    temp ");
		put_int(sb, d, "temperature_c", " C");
		strbuf_puts(sb, " (slowdown ");
		put_int(sb, d, "temperature_slowdown_c", " C");
		strbuf_puts(sb, ", shutdown ");
		put_int(sb, d, "temperature_shutdown_c", " C");
		strbuf_puts(sb, "), memory ");
		put_int(sb, d, "temperature_memory_c", " C");
		strbuf_puts(sb, "  fan ");
		put_int(sb, d, "fan_speed_pct", " %");
		strbuf_puts(sb, "  perf ");
		if (snap_present(snap_child(d, "performance_state")))
			strbuf_putc(sb, 'P');
		put_int(sb, d, "performance_state", "");
		strbuf_puts(sb, "\n    power ");
		put_watts(sb, d, "power_mw");
		strbuf_puts(sb, " / ");
		put_watts(sb, d, "power_limit_mw");
		strbuf_puts(sb, "  memory ");
		put_int(sb, d, "memory_used_mib", " MiB");
		strbuf_puts(sb, " / ");
		put_int(sb, d, "memory_total_mib", " MiB");
		strbuf_puts(sb, "  GPU-util ");
		put_int(sb, d, "utilization_gpu_pct", " %");
		strbuf_puts(sb, "  memory-util ");
		put_int(sb, d, "utilization_mem_pct", " %");
		strbuf_puts(sb, "\n    clocks graphics ");
		put_int(sb, d, "clock_graphics_mhz", "");
		strbuf_puts(sb, "/");
		put_int(sb, d, "clock_graphics_max_mhz", " MHz");
		strbuf_puts(sb, ", SM ");
		put_int(sb, d, "clock_sm_mhz", "");
		strbuf_puts(sb, "/");
		put_int(sb, d, "clock_sm_max_mhz", " MHz");
		strbuf_puts(sb, ", memory ");
		put_int(sb, d, "clock_memory_mhz", "");
		strbuf_puts(sb, "/");
		put_int(sb, d, "clock_memory_max_mhz", " MHz");
		strbuf_puts(sb, "\n    clocks event reasons: ");
		put_reasons(sb, d);
		strbuf_puts(sb, "\n    ECC uncorrected: volatile ");
		put_int(sb, d, "ecc_errors_uncorrected_volatile", "");
		strbuf_puts(sb, ", aggregate ");
		put_int(sb, d, "ecc_errors_uncorrected_aggregate", "");
		strbuf_puts(sb, "\n    processes (pid, type, name, memory)\n");
		lists = put_processes(sb, d, "compute_processes", "C", flags & GPUENV_RENDER_REDACT,
				      &n);
		lists &= put_processes(sb, d, "graphics_processes", "G",
				       flags & GPUENV_RENDER_REDACT, &n);
		if (lists && !n)
			strbuf_puts(sb, "      none\n");
	}
}

/* The lines wrapped at the width: lines of fields ("power …  memory …  GPU-util …") break
 * between fields only, so "71.25 W" stays whole; the others (the clocks event reasons) at any
 * space. Continuations hang two columns in. */
void out_report_gpus(struct strbuf *sb, const struct snap_node *root, unsigned flags)
{
	struct strbuf all = STRBUF_INIT;
	size_t width = out_text_width(flags);

	gpu_lines(&all, root, flags);
	for (const char *p = strbuf_str(&all); *p;) {
		size_t n = strcspn(p, "\n"), lead = strspn(p, " ");
		char *line = strndup(p + lead, n - lead);

		if (!line) {
			sb->err = sb->err ? sb->err : -ENOMEM;
			break;
		}
		strbuf_printf(sb, "%*s", (int)lead, "");
		out_wrap(sb, line, lead, lead + 2, width, NULL, strstr(line, "  ") ? 2 : 1);
		free(line);
		p += n + (p[n] == '\n');
	}
	if (all.err && !sb->err)
		sb->err = all.err;
	strbuf_done(&all);
}
