// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of the GPU health sections of pasted `nvidia-smi -q` (`gpuenv explain`), those the
 * nvidia-smi reader (pasted-nvidia-smi.c: identity, modes, memory, the current temperature)
 * leaves, as nvidia-smi(1) prints them:
 * - "Remapped Rows" (R470+): "Correctable Error : 0", "Uncorrectable Error : 4",
 *   "Pending : Yes", "Remapping Failure Occurred : No";
 * - "Retired Pages": "Single Bit ECC : 0", "Double Bit ECC : 0" and "Pending Page Blacklist :
 *   No" (spelled "Pending Page Retirement" or "Pending" by other releases);
 * - "Clocks Event Reasons" (R535+; "Clocks Throttle Reasons" before): one line per reason,
 *   "Active" or "Not Active", read as NVML's nvmlClocksEventReasons bit mask (nvml.h:
 *   GpuIdle 0x1, ApplicationsClocksSetting 0x2, SwPowerCap 0x4, HwSlowdown 0x8, SyncBoost
 *   0x10, SwThermalSlowdown 0x20, HwThermalSlowdown 0x40, HwPowerBrakeSlowdown 0x80,
 *   DisplayClockSetting 0x100), the mask of the reasons shown Active, on the section's line;
 * - "Temperature": "GPU Shutdown Temp", "GPU Slowdown Temp", "GPU Max Operating Temp",
 *   "Memory Current Temp", "Memory Max Operating Temp" (nvmlDeviceGetTemperatureThreshold);
 * - the PCI section's "GPU Link Info": "PCIe Generation" and "Link Width", each with "Max"
 *   and "Current" ("16x"), as nvmlDeviceGetMaxPcieLinkGeneration, nvmlDeviceGetCurrPcie-
 *   LinkGeneration, nvmlDeviceGetMaxPcieLinkWidth and nvmlDeviceGetCurrPcieLinkWidth give
 *   them (newer releases' "Device Current", "Device Max" and "Host Max" are not the
 *   probe's); and "Replays Since Reset" ("Replays since reset" in older releases,
 *   nvmlDeviceGetPcieReplayCounter), read on its own: the dispatcher hands it without the PCI
 *   title, past a gap. One reading gives no rate (hardware.pcie-replays judges two), so it
 *   is a fact, never a finding.
 * Facts go to driver.nvml.devices[] under the keys the NVML probe writes (src/vendor/nvml.c),
 * devices numbered as the nvidia-smi reader numbers them, by "GPU 00000000:18:00.0" section
 * order; a section pasted without its GPU line (`nvidia-smi -q | grep -A4 'Remapped Rows'`) is
 * the first device's, with no bus id. Samples: tests/unit/test-pasted-nvidia-smi-health.c.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"
#include "shared/macro.h"

#define DEV "driver.nvml.devices.%u.%s"

enum section { S_NONE, S_REMAP, S_RETIRED, S_CLOCKS, S_TEMP, S_LINK };

/* GPU Link Info's two blocks */
enum block { B_NONE, B_GEN, B_WIDTH };

struct health {
	struct pasted_out o;
	unsigned dev;	       /* the device the lines are of */
	bool seen_gpu;	       /* a "GPU <bus id>" line was read */
	enum section sec;      /* the health section the lines are in */
	unsigned sec_indent;   /* its title's indentation */
	unsigned sec_line;     /* and line */
	enum block block;      /* GPU Link Info's block the lines are in */
	unsigned block_indent; /* its title's indentation */
	uint64_t mask;	       /* Clocks Event Reasons: the Active reasons */
	bool reasons;	       /* a reason line was read */
};

static const struct {
	const char *title;
	enum section sec;
} titles[] = {
	{ "Remapped Rows", S_REMAP },
	{ "Retired Pages", S_RETIRED },
	{ "Clocks Event Reasons", S_CLOCKS },
	{ "Clocks Throttle Reasons", S_CLOCKS },
	{ "Temperature", S_TEMP },
	{ "GPU Link Info", S_LINK },
};

static const struct {
	const char *name;
	uint64_t bit;
} reasons[] = {
	{ "Idle", 0x1 },
	{ "Applications Clocks Setting", 0x2 },
	{ "SW Power Cap", 0x4 },
	{ "HW Slowdown", 0x8 },
	{ "Sync Boost", 0x10 },
	{ "SW Thermal Slowdown", 0x20 },
	{ "HW Thermal Slowdown", 0x40 },
	{ "HW Power Brake Slowdown", 0x80 },
	{ "Display Clock Setting", 0x100 },
};

static const struct {
	enum section sec;
	enum block block;
	const char *key, *path;
	enum { K_COUNT, K_BOOL, K_C, K_LANES } kind;
} keys[] = {
	{ S_REMAP, B_NONE, "Correctable Error", "remapped_rows_correctable", K_COUNT },
	{ S_REMAP, B_NONE, "Uncorrectable Error", "remapped_rows_uncorrectable", K_COUNT },
	{ S_REMAP, B_NONE, "Pending", "remapped_rows_pending", K_BOOL },
	{ S_REMAP, B_NONE, "Remapping Failure Occurred", "remapped_rows_failure", K_BOOL },
	{ S_RETIRED, B_NONE, "Single Bit ECC", "retired_pages_sbe", K_COUNT },
	{ S_RETIRED, B_NONE, "Double Bit ECC", "retired_pages_dbe", K_COUNT },
	{ S_RETIRED, B_NONE, "Pending Page Blacklist", "retired_pages_pending", K_BOOL },
	{ S_RETIRED, B_NONE, "Pending Page Retirement", "retired_pages_pending", K_BOOL },
	{ S_RETIRED, B_NONE, "Pending", "retired_pages_pending", K_BOOL },
	{ S_TEMP, B_NONE, "GPU Shutdown Temp", "temperature_shutdown_c", K_C },
	{ S_TEMP, B_NONE, "GPU Slowdown Temp", "temperature_slowdown_c", K_C },
	{ S_TEMP, B_NONE, "GPU Max Operating Temp", "temperature_gpu_max_c", K_C },
	{ S_TEMP, B_NONE, "Memory Current Temp", "temperature_memory_c", K_C },
	{ S_TEMP, B_NONE, "Memory Max Operating Temp", "temperature_memory_max_c", K_C },
	{ S_LINK, B_GEN, "Max", "pcie_link_gen_max", K_COUNT },
	{ S_LINK, B_GEN, "Current", "pcie_link_gen", K_COUNT },
	{ S_LINK, B_WIDTH, "Max", "pcie_link_width_max", K_LANES },
	{ S_LINK, B_WIDTH, "Current", "pcie_link_width", K_LANES },
};

static unsigned indent_of(const char *s)
{
	unsigned n = 0;

	for (; *s == ' ' || *s == '\t'; s++)
		n += *s == '\t' ? 8 : 1;
	return n;
}

/* "GPU 00000000:18:00.0" or the older "GPU 0000:03:00.0": the bus id, else NULL. */
static const char *gpu_line(const char *s)
{
	size_t d = 0;

	if (strncmp(s, "GPU ", 4) != 0)
		return NULL;
	s += 4;
	while (isxdigit((unsigned char)s[d]))
		d++;
	if (d < 4 || d > 8 || s[d] != ':' || !isxdigit((unsigned char)s[d + 1]) ||
	    !isxdigit((unsigned char)s[d + 2]) || s[d + 3] != ':' ||
	    !isxdigit((unsigned char)s[d + 4]) || !isxdigit((unsigned char)s[d + 5]) ||
	    s[d + 6] != '.' || s[d + 7] < '0' || s[d + 7] > '7' || s[d + 8])
		return NULL;
	return s;
}

/* The end of a section: the Clocks Event Reasons mask, when a reason was read. */
static void end_section(struct health *h)
{
	if (h->sec == S_CLOCKS && h->reasons) {
		char num[24];

		snprintf(num, sizeof(num), "%" PRIu64, h->mask);
		pasted_put(&h->o, h->sec_line, num, DEV, h->dev, "clocks_event_reasons");
	}
	h->sec = S_NONE;
	h->block = B_NONE;
	h->mask = 0;
	h->reasons = false;
}

static void key_line(struct health *h, unsigned no, const char *key, const char *value)
{
	char num[24];

	if (h->sec == S_CLOCKS) {
		for (size_t i = 0; i < ARRAY_SIZE(reasons); i++)
			if (strcmp(key, reasons[i].name) == 0) {
				if (strcmp(value, "Active") == 0)
					h->mask |= reasons[i].bit;
				else if (strcmp(value, "Not Active") != 0)
					return; /* N/A: not read */
				h->reasons = true;
				return;
			}
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *b, *unit;

		if (keys[i].sec != h->sec || keys[i].block != h->block ||
		    strcmp(keys[i].key, key) != 0)
			continue;
		if (pasted_no_value(value))
			return;
		switch (keys[i].kind) {
		case K_BOOL:
			if ((b = pasted_bool_word(value)))
				pasted_put(&h->o, no, b, DEV, h->dev, keys[i].path);
			break;
		case K_COUNT:
		case K_C:
		case K_LANES:
			unit = keys[i].kind == K_C ? "C" : keys[i].kind == K_LANES ? "x" : NULL;
			if (pasted_number_unit(value, unit, num, sizeof(num)))
				pasted_put(&h->o, no, num, DEV, h->dev, keys[i].path);
			break;
		}
		return;
	}
}

static void health_line(struct health *h, unsigned no, char *line)
{
	unsigned ind = indent_of(line);
	char *s = pasted_strip(line), *key, *value;
	const char *bus;

	if (!*s) {
		end_section(h); /* an empty line ends a section (and stands for lines not given) */
		return;
	}
	if ((bus = gpu_line(s))) {
		end_section(h);
		if (h->seen_gpu)
			h->dev++;
		h->seen_gpu = true;
		pasted_put(&h->o, no, bus, DEV, h->dev, "pci_bus_id");
		return;
	}
	if (h->sec != S_NONE && ind <= h->sec_indent)
		end_section(h);
	if (h->block != B_NONE && ind <= h->block_indent)
		h->block = B_NONE;
	if (!strchr(s, ':')) {
		if (h->sec == S_LINK) {
			h->block = strcmp(s, "PCIe Generation") == 0 ? B_GEN
				   : strcmp(s, "Link Width") == 0    ? B_WIDTH
								     : B_NONE;
			h->block_indent = ind;
			return;
		}
		for (size_t i = 0; i < ARRAY_SIZE(titles); i++)
			if (strcmp(s, titles[i].title) == 0) {
				h->sec = titles[i].sec;
				h->sec_indent = ind;
				h->sec_line = no;
				return;
			}
		return;
	}
	if (!pasted_kv(s, ':', &key, &value))
		return;
	if (strcasecmp(key, "Replays Since Reset") == 0) {
		char num[24];

		end_section(h);
		if (pasted_number_unit(value, NULL, num, sizeof(num)))
			pasted_put(&h->o, no, num, DEV, h->dev, "pcie_replay_counter");
		return;
	}
	if (h->sec != S_NONE)
		key_line(h, no, key, value);
}

int pasted_read_nvidia_smi_health(const char *text, size_t len, struct pasted_facts *out)
{
	struct health h = { .o = { .f = out, .reader = "nvidia-smi-health" } };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && h.o.err >= 0)
		health_line(&h, it.no, line);
	end_section(&h);
	pasted_lines_done(&it);
	return pasted_out_result(&h.o);
}
