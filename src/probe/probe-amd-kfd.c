// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The AMD GPUs as ROCm sees them, for the driver probe: the KFD topology nodes
 * (/sys/class/kfd/kfd/topology/nodes/N/properties, "key value" lines) with each GPU's
 * gfx target and the two target features a code object can demand (LLVM AMDGPUUsage,
 * "Target ID": sramecc and xnack). SRAMECC is the node's capability bit
 * HSA_CAP_SRAM_EDCSUPPORTED (0x04000000, include/uapi/linux/kfd_sysfs.h; the older bit
 * 0x00080000 is reserved, "old buggy user mode depends on this being 0"). XNACK is a
 * setting of the process, not of the node: the amdgpu module parameter noretry (0: retry on,
 * so XNACK on; 1: off; -1: the chip's default) and the HSA_XNACK variable ROCm reads (1 / 0)
 * are recorded for the rules to combine. A GPU node that also counts CPU cores is an APU as
 * its ACPI CRAT table describes it; for an APU KFD maps the trap handler from /dev/kfd with
 * PROT_EXEC when a process opens it (kfd_process_init_cwsr_apu, drivers/gpu/drm/amd/amdkfd/
 * kfd_process.c, "only for mapping CWSR on APU in IOMMUv2 mode": amd-gfx, "drm/amdkfd: remove
 * obsolete codes for kfd_mmap", 2026-04-30), which a /dev mounted noexec refuses
 * (ROCm/rocminfo#40): so the options of the /dev mount are recorded too.
 * Keys: docs/snapshot-schema.md "driver.amdgpu".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/env.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/strv.h"

#define HSA_CAP_SRAM_EDCSUPPORTED 0x04000000u

/* One node's properties: gfx_target_version (→ gfx) and capability (→ sramecc). */
static void node_properties(struct snap_node *node, const char *path, char *text)
{
	bool seen = false, gpu = false;
	char *state = text, *line, *v;
	uint64_t cap = 0, uid = 0, cores = 0;
	bool have_cap = false, have_uid = false, have_cores = false;

	while (kv_next(&state, ' ', &line, &v)) {
		uint64_t val;

		if (streq(line, "capability") && !have_cap) {
			if (parse_u64(v, 10, &cap) == 0 && cap <= UINT32_MAX)
				have_cap = true;
			else
				snap_set_malformed(node, "capability", v, path, "not a number");
			continue;
		}
		if (streq(line, "cpu_cores_count") && !have_cores) {
			if (parse_u64(v, 10, &cores) == 0 && cores <= INT32_MAX)
				have_cores = true;
			else
				snap_set_malformed(node, "cpu_cores_count", v, path,
						   "not a number");
			continue;
		}
		if (streq(line, "unique_id") && !have_uid) {
			if (parse_u64(v, 10, &uid) == 0)
				have_uid = true;
			else
				snap_set_malformed(node, "uuid", v, path, "unique_id not a number");
			continue;
		}
		if (!streq(line, "gfx_target_version") || seen)
			continue;
		seen = true;
		/* "gfx_target_version 90402" → "gfx942": major*10000 + minor*100 + stepping,
		 * minor and stepping printed in hex */
		if (parse_u64(v, 10, &val) < 0 || val > INT32_MAX) {
			snap_set_malformed(node, "gfx_target_version", v, path, "not a number");
			continue;
		}
		snap_set_int(node, "gfx_target_version", (int64_t)val, path);
		if (val == 0) { /* a CPU node */
			snap_set_state(node, "gfx", FACT_ABSENT, path, "CPU node");
			continue;
		}
		gpu = true;
		snap_set_strf(node, "gfx", path, "gfx%u%x%x", (unsigned)(val / 10000),
			      (unsigned)(val / 100 % 100), (unsigned)(val % 100));
	}
	if (!seen)
		snap_set_state(node, "gfx_target_version", FACT_ABSENT, path,
			       "no gfx_target_version line");
	if (!gpu)
		return;
	if (have_cap) {
		snap_set_int(node, "capability", (int64_t)cap, path);
		snap_set_bool(node, "sramecc", cap & HSA_CAP_SRAM_EDCSUPPORTED, path);
	} else if (!snap_child(node, "capability")) {
		snap_set_state(node, "capability", FACT_ABSENT, path, "no capability line");
	}
	/* ROCr names the GPU "GPU-" and unique_id in 16 hex digits (ROCR_VISIBLE_DEVICES takes
	 * it); a unique_id of 0 gives no UUID (amd_filter_device.cpp) */
	if (have_cores)
		snap_set_int(node, "cpu_cores_count", (int64_t)cores, path);
	else if (!snap_child(node, "cpu_cores_count"))
		snap_set_state(node, "cpu_cores_count", FACT_ABSENT, path,
			       "no cpu_cores_count line");
	if (have_uid && uid)
		snap_set_strf(node, "uuid", path, "GPU-%016" PRIx64, uid);
	else if (!snap_child(node, "uuid"))
		snap_set_state(node, "uuid", FACT_ABSENT, path,
			       have_uid ? "unique_id 0" : "no unique_id line");
}

/* noretry (sysfs-module: parameters/<name>) and HSA_XNACK, only where KFD lists a GPU. */
static void xnack_settings(struct probe_env *pe, struct snap_node *amd)
{
	static const char noretry[] = "/sys/module/amdgpu/parameters/noretry";
	_cleanup_free_ char *text = NULL;
	const char *x = env_get(pe->env, "HSA_XNACK");
	int64_t v;
	int r = root_read_text(pe->root, noretry, ROOT_CAP_ATTR, &text);

	if (r < 0)
		snap_set_errno(amd, "noretry", r, noretry);
	else if (parse_i64(text, &v) < 0)
		snap_set_malformed(amd, "noretry", text, noretry, "not a number");
	else
		snap_set_int(amd, "noretry", v, noretry);
	if (x)
		snap_set_str(amd, "hsa_xnack", x, "environment");
	else
		snap_set_state(amd, "hsa_xnack", FACT_ABSENT, "environment", NULL);
}

/* The per-mount options (proc(5) mountinfo field 6: "rw,nosuid,noexec,relatime") of the mount
 * at /dev, the last one listed (a later mount there hides an earlier one). */
static void dev_mount(struct probe_env *pe, struct snap_node *amd)
{
	static const char path[] = "/proc/self/mountinfo";
	_cleanup_free_ char *text = NULL, *opts = NULL;
	char *state, *line;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(amd, "dev_mount_options", err, path);
		return;
	}
	state = text;
	while ((line = line_next(&state))) {
		_cleanup_strv_free_ char **f = NULL;

		if (strv_split(line, " ", &f) < 0 || strv_length(f) < 6 || !streq(f[4], "/dev"))
			continue;
		free(opts);
		opts = strdup(f[5]);
		if (!opts) {
			snap_set_errno(amd, "dev_mount_options", -ENOMEM, path);
			return;
		}
	}
	if (opts)
		snap_set_str(amd, "dev_mount_options", opts, path);
	else
		snap_set_state(amd, "dev_mount_options", FACT_ABSENT, path,
			       "no mount at /dev: it is a directory of /");
}

void probe_amd_kfd(struct probe_env *pe, struct snap_node *amd)
{
	static const char dir[] = "/sys/class/kfd/kfd/topology/nodes";
	_cleanup_strv_free_ char **names = NULL;
	struct snap_node *arr;
	bool any_gpu = false;
	int err = root_list_dir(pe->root, dir, ROOT_DIR_MAX_ENTRIES, &names);

	if (err < 0) {
		snap_set_errno(amd, "kfd_nodes", err, dir);
		return;
	}
	arr = snap_array(amd, "kfd_nodes");
	STRV_FOREACH(n, names) {
		_cleanup_free_ char *path = NULL, *text = NULL;
		struct snap_node *node;
		unsigned idx;

		if (parse_uint(*n, 10, &idx) < 0)
			continue;
		if (asprintf(&path, "%s/%s/properties", dir, *n) < 0) {
			path = NULL;
			return;
		}
		node = snap_append_object(arr);
		if (!node)
			return;
		snap_set_int(node, "node", idx, dir);
		err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);
		if (err < 0) {
			snap_set_errno(node, "gfx_target_version", err, path);
			continue;
		}
		node_properties(node, path, text);
		any_gpu |= snap_get_str(node, "gfx") != NULL;
	}
	if (any_gpu) {
		xnack_settings(pe, amd);
		dev_mount(pe, amd);
	}
}
