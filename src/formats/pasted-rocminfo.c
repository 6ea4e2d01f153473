// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reader of pasted `rocminfo` (`gpuenv explain`; ROCm/rocminfo rocminfo.cc: first "ROCk
 * module is loaded" / "ROCk module version 6.7.0 is loaded" or "ROCk module is NOT loaded,
 * possibly no GPU devices", from /sys/module/amdgpu; then one block per HSA agent, "Agent N"
 * between lines of '*', with "  Name:  gfx1030", "  Node:  1", "  Device Type:  GPU" among its
 * "key: value" lines; the ISA's own "Name: amdgcn-amd-amdhsa--gfx1030" comes later, indented
 * deeper). Facts: driver.kernel_modules.amdgpu, driver.amdgpu.module_version, and per GPU
 * agent, in order, driver.amdgpu.kfd_nodes[].{node, gfx} (the kfd topology node and its
 * processor, what the probe reads from /sys/class/kfd).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "formats/pasted-readers.h"
#include "formats/pasted-text.h"
#include "formats/pasted.h"

#define AGENTS_MAX 64

struct agent {
	bool open, gpu, typed;
	char name[32], node[16];
	unsigned name_line, node_line;
};

static void agent_end(struct pasted_out *o, struct agent *a, unsigned *n)
{
	/* a paste cut before "Device Type": a gfx name is a GPU's (CPU agents carry the CPU's) */
	if (a->open && (a->gpu || !a->typed) && a->name[0] && *n < AGENTS_MAX) {
		pasted_put(o, a->name_line, a->name, "driver.amdgpu.kfd_nodes.%u.gfx", *n);
		if (a->node[0])
			pasted_put(o, a->node_line, a->node, "driver.amdgpu.kfd_nodes.%u.node", *n);
		(*n)++;
	}
	*a = (struct agent){ 0 };
}

static bool gfx_name(const char *v)
{
	return strncmp(v, "gfx", 3) == 0 && v[3] && strlen(v) < 16 &&
	       strspn(v + 3, "0123456789abcdef") == strlen(v + 3);
}

int pasted_read_rocminfo(const char *text, size_t len, struct pasted_facts *out)
{
	struct pasted_out o = { .f = out, .reader = "rocminfo" };
	struct agent a = { 0 };
	struct pasted_lines it;
	unsigned n = 0;
	char *line;

	if (pasted_lines_init(&it, text, len) < 0)
		return -ENOMEM;
	while ((line = pasted_lines_next(&it)) && o.err >= 0) {
		char *s = pasted_strip(line), *key, *v;
		unsigned idx;
		const char *end;
		char ver[32];

		if (strcmp(s, "ROCk module is loaded") == 0) {
			pasted_put(&o, it.no, "true", "driver.kernel_modules.amdgpu");
		} else if ((v = (char *)pasted_after(s, "ROCk module version ")) &&
			   pasted_version_token(v, ver, sizeof(ver)) &&
			   strcmp(v + strlen(ver), " is loaded") == 0) {
			pasted_put(&o, it.no, "true", "driver.kernel_modules.amdgpu");
			pasted_put(&o, it.no, ver, "driver.amdgpu.module_version");
		} else if (strncmp(s, "ROCk module is NOT loaded", 25) == 0) {
			pasted_put(&o, it.no, "false", "driver.kernel_modules.amdgpu");
		} else if ((v = (char *)pasted_after(s, "Agent ")) && pasted_index(v, &idx, &end) &&
			   !*end) {
			agent_end(&o, &a, &n);
			a.open = true;
		} else if (a.open && pasted_kv(s, ':', &key, &v)) {
			if (strcmp(key, "Name") == 0 && !a.name[0] && gfx_name(v)) {
				snprintf(a.name, sizeof(a.name), "%s", v);
				a.name_line = it.no;
			} else if (strcmp(key, "Node") == 0 && !a.node[0] &&
				   pasted_index(v, &idx, &end) && !*end) {
				snprintf(a.node, sizeof(a.node), "%u", idx);
				a.node_line = it.no;
			} else if (strcmp(key, "Device Type") == 0) {
				a.gpu = strcmp(v, "GPU") == 0;
				a.typed = true;
			}
		}
	}
	agent_end(&o, &a, &n);
	pasted_lines_done(&it);
	return pasted_out_result(&o);
}
