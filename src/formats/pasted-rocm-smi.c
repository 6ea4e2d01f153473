// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `rocm-smi` (`gpuenv explain`; ROCm/rocm_smi_lib python_smi_tools
 * rocm_smi.py printLog(): "GPU[0]\t\t: <field>: <value>" lines, for --showid "GPU ID: 0x731f"
 * (older) or "Device ID: 0x740f", --showbus "PCI Bus: 0000:03:00.0", --showproductname "GFX
 * Version: gfx90a"). rocm-smi lists AMD GPUs only, in its own order (GPU[N]), so each is an AMD
 * PCI device: hardware.gpus[N].{vendor_id 0x1002, vendor, device_id, bus_id}, and the
 * processor driver.amdgpu.kfd_nodes[N].gfx. Not read: "Driver version:", which is the amdgpu
 * module's version or, for the kernel's own amdgpu, the kernel release (rocm_smi.py falls back
 * to it), and the concise table, which names no device.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define GPUS_MAX 64

static bool hex_id(const char *v)
{
	size_t n = strlen(v);

	return n >= 3 && n <= 6 && v[0] == '0' && v[1] == 'x' &&
	       strspn(v + 2, "0123456789abcdefABCDEF") == n - 2;
}

/* "0000:03:00.0" */
static bool pci_bus(const char *v)
{
	if (strlen(v) != 12 || v[4] != ':' || v[7] != ':' || v[10] != '.')
		return false;
	for (size_t i = 0; i < 12; i++)
		if (i != 4 && i != 7 && i != 10 && !isxdigit((unsigned char)v[i]))
			return false;
	return true;
}

static void amd(struct pasted_out *o, unsigned no, unsigned gpu)
{
	pasted_put(o, no, "0x1002", "hardware.gpus.%u.vendor_id", gpu);
	pasted_put(o, no, "AMD", "hardware.gpus.%u.vendor", gpu);
}

int pasted_read_rocm_smi(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "rocm-smi" };
	struct pasted_lines it;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		char *s = pasted_strip(line), *key, *v, *rest;
		const char *end;
		unsigned gpu;

		if (strncmp(s, "GPU[", 4) != 0 || !pasted_index(s + 4, &gpu, &end) || *end != ']' ||
		    gpu >= GPUS_MAX)
			continue;
		rest = (char *)end + 1;
		while (*rest == ' ' || *rest == '\t')
			rest++;
		if (*rest++ != ':' || !pasted_kv(rest, ':', &key, &v))
			continue;
		if ((strcmp(key, "GPU ID") == 0 || strcmp(key, "Device ID") == 0) && hex_id(v)) {
			char id[8];

			snprintf(id, sizeof(id), "0x%04lx", strtoul(v, NULL, 16));
			amd(&o, it.no, gpu);
			pasted_put(&o, it.no, id, "hardware.gpus.%u.device_id", gpu);
		} else if (strcmp(key, "PCI Bus") == 0 && pci_bus(v)) {
			for (char *p = v; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			amd(&o, it.no, gpu);
			pasted_put(&o, it.no, v, "hardware.gpus.%u.bus_id", gpu);
		} else if (strcmp(key, "GFX Version") == 0 && strncmp(v, "gfx", 3) == 0 &&
			   strlen(v) < 16 && v[3] &&
			   strspn(v + 3, "0123456789abcdef") == strlen(v + 3)) {
			pasted_put(&o, it.no, v, "driver.amdgpu.kfd_nodes.%u.gfx", gpu);
		}
	}
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
