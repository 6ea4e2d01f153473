// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Intel GPUs: what the kernel driver (i915 or xe) and the firmware it loads say, and which
 * Level Zero, OpenCL and oneAPI user space is installed. Read only when an Intel display or
 * processing controller is on the PCI bus or i915/xe is loaded, so other machines' snapshots
 * are unchanged. Sources:
 * - /sys/module/{i915,xe} (a loaded module's directory, sysfs-module ABI);
 * - the kernel log the kernel-log probe chose (driver.kernel_log.source: /dev/kmsg live, else
 *   the tail of the syslog file), parsed by formats/intel-gpu-log.h for GuC/HuC/DMC firmware
 *   and force_probe lines;
 * - /proc/cmdline (kernel-parameters.txt: "i915.force_probe=", "xe.force_probe=");
 * - /sys/kernel/debug/dri (debugfs; root only on most distributions: recorded as a state);
 * - the ld.so search (probe/loader.c) for libze_loader.so.1 and libze_intel_gpu.so.1 (the
 *   Level Zero loader and Intel's GPU driver for it, oneapi-src/level-zero README "Runtime
 *   dependencies"; Debian's libze1 and Ubuntu's libze-intel-gpu1 / intel-level-zero-gpu),
 *   libsycl.so.N and libur_loader.so.N (the oneAPI DPC++ runtime and its Unified Runtime);
 * - /var/lib/dpkg/status for those packages and intel-opencl-icd;
 * - /opt/intel/oneapi/<component>/<version> and its "latest" link (Intel oneAPI Base Toolkit
 *   "Installation Directory Layout": one directory a version, latest -> the newest).
 * Keys: docs/snapshot-schema.md "driver.intel", "runtime.level_zero", "runtime.oneapi".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/intel-gpu-log.h"
#include "loader.h"
#include "probe-intel.h"
#include "shared/path-util.h"
#include "shared/strv.h"

#define INTEL_LOG_TAIL ((size_t)8 << 20) /* as the kernel-log probe: the same tail */
#define ONEAPI_ROOT    "/opt/intel/oneapi"
#define ONEAPI_MAX_DIR 256u

static bool has_intel_gpu(const struct snap_node *root)
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (streq(snap_get_str(snap_at(gpus, i), "vendor") ?: "", "Intel"))
			return true;
	return false;
}

/* A torch XPU build or intel-extension-for-pytorch in some environment (probe-python.c). */
static bool has_intel_framework(const struct snap_node *root)
{
	const struct snap_node *envs = snap_get(root, "framework.python_envs");

	for (size_t i = 0; i < snap_count(envs); i++) {
		const struct snap_node *pk = snap_child(snap_at(envs, i), "packages");
		const struct snap_node *t = snap_child(pk, "torch");
		const char *v = snap_get_str(t, "version") ?: snap_get_str(t, "dist_version");

		if (snap_child(pk, "ipex") || snap_present(snap_child(t, "xpu")) ||
		    snap_present(snap_child(t, "xpu_library")) || (v && strstr(v, "+xpu")))
			return true;
	}
	return false;
}

static bool module_loaded(struct probe_env *pe, struct snap_node *o, const char *key,
			  const char *path)
{
	struct stat st;
	int r = root_stat(pe->root, path, &st);

	if (r == 0) {
		snap_set_bool(o, key, true, path);
		return true;
	}
	if (r == -ENOENT || r == -ENOTDIR)
		snap_set_bool(o, key, false, path);
	else
		snap_set_errno(o, key, r, path);
	return false;
}

static void write_events(struct snap_node *intel, const struct intel_log *l, const char *source)
{
	struct snap_node *arr = snap_array(intel, "firmware");

	for (size_t i = 0; i < l->n_ev; i++) {
		const struct intel_log_event *e = &l->ev[i];
		struct snap_node *o = snap_append_object(arr);

		snap_set_str(o, "driver", e->driver, source);
		snap_set_str(o, "bus_id", e->bus, source);
		snap_set_str(o, "kind", e->kind, source);
		snap_set_str(o, "state", intel_fw_state_name(e->state), source);
		if (e->file[0])
			snap_set_str(o, e->state == INTEL_FW_FORCE_PROBE ? "device_id" : "file",
				     e->file, source);
		if (e->version[0])
			snap_set_str(o, "version", e->version, source);
		snap_set_str(o, "text", e->text, source);
		snap_set_int(o, "line", (int64_t)e->line, source);
	}
	if (l->dropped)
		snap_set_int(intel, "firmware_events_dropped", (int64_t)l->dropped, source);
}

/* The firmware lines of the log the kernel-log probe read; its state when it read none. */
static int probe_firmware(struct probe_env *pe, const struct snap_node *root,
			  struct snap_node *intel)
{
	const struct snap_node *src = snap_get(root, "driver.kernel_log.source");
	const char *path = snap_str(src);
	_cleanup_free_ char *text = NULL;
	struct intel_log *l;
	bool truncated = false;
	size_t len = 0;
	int err;

	if (!path) {
		snap_set_state(intel, "firmware", src ? snap_state(src) : FACT_UNPROBED,
			       snap_source(src) ?: "driver.kernel_log",
			       src ? snap_error(src) : "the kernel log was not read");
		return 0;
	}
	if (streq(path, "/dev/kmsg"))
		err = probe_read_kmsg(pe, &text, &len, &truncated);
	else
		err = probe_read_tail(pe, path, INTEL_LOG_TAIL, &text, &len, &truncated);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		snap_set_errno(intel, "firmware", err, path);
		return 0;
	}
	l = malloc(sizeof(*l));
	if (!l)
		return -ENOMEM;
	intel_gpu_log_parse(text, len, l);
	write_events(intel, l, path);
	free(l);
	return 0;
}

/* "i915.force_probe=56a0" / "xe.force_probe=…" on the kernel command line. */
static void probe_cmdline(struct probe_env *pe, struct snap_node *intel)
{
	static const char *const params[] = { "i915.force_probe=", "xe.force_probe=" };
	static const char *const keys[] = { "i915_force_probe", "xe_force_probe" };
	_cleanup_free_ char *cmdline = NULL;
	int err = root_read_text(pe->root, "/proc/cmdline", ROOT_CAP_ATTR, &cmdline);

	for (size_t i = 0; i < ARRAY_SIZE(params); i++) {
		const char *p;

		if (err < 0) {
			snap_set_errno(intel, keys[i], err, "/proc/cmdline");
			continue;
		}
		for (p = strstr(cmdline, params[i]); p && p != cmdline && p[-1] != ' ';
		     p = strstr(p + 1, params[i]))
			;
		if (p) {
			p += strlen(params[i]);
			snap_set_strf(intel, keys[i], "/proc/cmdline", "%.*s",
				      (int)strcspn(p, " \t\n"), p);
		} else {
			snap_set_state(intel, keys[i], FACT_ABSENT, "/proc/cmdline", NULL);
		}
	}
}

/* debugfs (GuC/HuC status files) is root-only where it is mounted: a state, not an error. */
static void probe_debugfs(struct probe_env *pe, struct snap_node *intel)
{
	_cleanup_strv_free_ char **names = NULL;
	int err = root_list_dir(pe->root, "/sys/kernel/debug/dri", ROOT_DIR_MAX_ENTRIES, &names);

	if (err == -ENOMEM)
		return;
	if (err < 0)
		snap_set_errno(intel, "debugfs", err, "/sys/kernel/debug/dri");
	else
		snap_set_str(intel, "debugfs", "readable", "/sys/kernel/debug/dri");
}

/* Every soname the search knows for a stem (libsycl.so.7, libsycl.so.8), each resolved. */
static int resolve_stem(struct loader *l, struct snap_node *arr, const char *stem)
{
	_cleanup_strv_free_ char **sonames = NULL;
	int err = loader_find_sonames(l, stem, &sonames);

	STRV_FOREACH(so, sonames) {
		if (err < 0)
			break;
		err = probe_resolve_into(l, snap_append_object(arr), *so);
	}
	return err;
}

static void dpkg_versions(struct probe_env *pe, struct snap_node *o, const char *const *pkgs)
{
	for (size_t i = 0; pkgs[i]; i++) {
		char buf[128];
		int r = probe_dpkg_version(pe, pkgs[i], buf, sizeof(buf));

		if (r == 0)
			snap_set_str(o, pkgs[i], buf, PROBE_DPKG_STATUS);
		else if (r == 1)
			snap_set_state(o, pkgs[i], FACT_ABSENT, PROBE_DPKG_STATUS, NULL);
		else
			snap_set_errno(o, pkgs[i], r, PROBE_DPKG_STATUS);
	}
}

/* The compute runtime's -legacy1 packages (Gen8-Gen11 GPUs, Intel's LEGACY_PLATFORMS.md),
 * recorded only where installed: most machines have neither, and whether dpkg's status could
 * be read at all is told by the packages of dpkg_versions(). */
static void legacy_versions(struct probe_env *pe, struct snap_node *o)
{
	static const char *const pkgs[] = { "intel-opencl-icd-legacy1",
					    "intel-level-zero-gpu-legacy1", NULL };

	for (size_t i = 0; pkgs[i]; i++) {
		char buf[128];

		if (probe_dpkg_version(pe, pkgs[i], buf, sizeof(buf)) == 0)
			snap_set_str(o, pkgs[i], buf, PROBE_DPKG_STATUS);
	}
}

static int probe_level_zero(struct probe_env *pe, struct snap_node *rt)
{
	static const char *const pkgs[] = { "libze1",		"level-zero",
					    "libze-intel-gpu1", "intel-level-zero-gpu",
					    "intel-opencl-icd", NULL };
	struct snap_node *lz = snap_object(rt, "level_zero");
	struct loader *l;
	int err = probe_loader(pe, &l);

	if (err < 0)
		return err;
	err = probe_resolve_into(l, snap_object(lz, "loader"), "libze_loader.so.1");
	if (err >= 0)
		err = probe_resolve_into(l, snap_object(lz, "gpu_driver"), "libze_intel_gpu.so.1");
	if (err < 0)
		return err;
	dpkg_versions(pe, snap_object(lz, "packages"), pkgs);
	legacy_versions(pe, snap_object(lz, "packages"));
	return 0;
}

static bool is_oneapi_version(const char *s)
{
	/* "2024.1", "2025.0.4": a year, a dot, digits and dots */
	return strlen(s) >= 6 && strspn(s, "0123456789") == 4 && s[4] == '.' &&
	       strspn(s + 5, "0123456789.") == strlen(s + 5) && s[5] != '.';
}

/* /opt/intel/oneapi/<component>/{<version>…, latest}. */
static int probe_oneapi(struct probe_env *pe, struct snap_node *rt)
{
	struct snap_node *one = snap_object(rt, "oneapi"), *arr;
	_cleanup_strv_free_ char **comps = NULL;
	struct loader *l;
	int err = root_list_dir(pe->root, ONEAPI_ROOT, ONEAPI_MAX_DIR, &comps);

	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		if (err == -ENOENT || err == -ENOTDIR)
			snap_set_state(one, "root", FACT_ABSENT, ONEAPI_ROOT, NULL);
		else
			snap_set_errno(one, "root", err, ONEAPI_ROOT);
	} else {
		snap_set_str(one, "root", ONEAPI_ROOT, ONEAPI_ROOT);
		arr = snap_array(one, "components");
		STRV_FOREACH(c, comps) {
			_cleanup_free_ char *dir = path_join(ONEAPI_ROOT, *c), *latest = NULL,
					    *target = NULL;
			_cleanup_strv_free_ char **vers = NULL;
			struct snap_node *o, *va;
			struct stat st;

			if (!dir)
				return -ENOMEM;
			/* a component that could not be looked at is kept, its versions in the
			 * error's state: never taken as not installed */
			err = root_stat(pe->root, dir, &st);
			if (err == 0 && (st.st_mode & S_IFMT) != S_IFDIR)
				continue;
			if (err == -ENOENT || err == -ENOTDIR)
				continue;
			if (err == 0)
				err = root_list_dir(pe->root, dir, ONEAPI_MAX_DIR, &vers);
			if (err == -ENOMEM)
				return err;
			o = snap_append_object(arr);
			snap_set_str(o, "name", *c, dir);
			if (err < 0) {
				snap_set_errno(o, "versions", err, dir);
				continue;
			}
			va = snap_array(o, "versions");
			STRV_FOREACH(v, vers)
				if (is_oneapi_version(*v))
					snap_append_str(va, *v, dir);
			latest = path_join(dir, "latest");
			if (!latest)
				return -ENOMEM;
			err = root_readlink(pe->root, latest, &target);
			if (err == -ENOMEM)
				return err;
			if (err == 0)
				snap_set_str(o, "latest", path_basename(target), latest);
			else if (err == -ENOENT)
				snap_set_state(o, "latest", FACT_ABSENT, latest, NULL);
			else
				snap_set_errno(o, "latest", err, latest);
		}
	}
	err = probe_loader(pe, &l);
	if (err >= 0)
		err = resolve_stem(l, snap_array(one, "libsycl"), "libsycl.so");
	if (err >= 0)
		err = resolve_stem(l, snap_array(one, "libur_loader"), "libur_loader.so");
	return err;
}

int probe_intel(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	struct snap_node *root = snapshot_root(s);
	struct snap_node *drv = snap_object(root, "driver"), *intel;
	struct stat st;
	bool gpu = has_intel_gpu(root);
	int err;

	if (!gpu && !has_intel_framework(root) &&
	    root_stat(pe->root, "/sys/module/i915", &st) < 0 &&
	    root_stat(pe->root, "/sys/module/xe", &st) < 0)
		return 0;
	intel = snap_object(drv, "intel");
	module_loaded(pe, intel, "i915_loaded", "/sys/module/i915");
	module_loaded(pe, intel, "xe_loaded", "/sys/module/xe");
	probe_cmdline(pe, intel);
	probe_debugfs(pe, intel);
	err = probe_firmware(pe, root, intel);
	if (err >= 0)
		err = probe_level_zero(pe, snap_object(root, "runtime"));
	if (err >= 0)
		err = probe_oneapi(pe, snap_object(root, "runtime"));
	return err < 0 ? err : snapshot_error(s);
}
