// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Shared by probe-nvml.c, probe-cuda-driver.c and probe-opencl.c (see probe-vendor.h).
 * Reads /sys/module/<module> (sysfs-module ABI: the directory exists while a module, or a
 * built-in driver with parameters, is loaded) and /dev nodes through the root, and the
 * driver probe's driver.kernel_modules facts. Vendor trees use the snapshot's own JSON
 * shape (docs/snapshot-schema.md), built by src/vendor/session.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "probe-vendor.h"

bool probe_vendor_module_ready(struct probe_env *pe, struct snapshot *s, const char *module,
			       const char *dev)
{
	char path[128], key[128];
	struct stat st;
	bool loaded;

	snprintf(key, sizeof(key), "driver.kernel_modules.%s", module);
	snprintf(path, sizeof(path), "/sys/module/%s", module);
	loaded = snap_get_bool_default(snapshot_root(s), key, false) ||
		 (root_stat(pe->root, path, &st) == 0 && S_ISDIR(st.st_mode));
	if (!loaded)
		return false;
	/* Device nodes cannot live in a fixture tree (git has no character devices): only the
	 * live machine, where the library would create them, is checked. */
	if (dev && pe->ctx->live)
		return root_stat(pe->root, dev, &st) == 0 && S_ISCHR(st.st_mode);
	return true;
}

const char *probe_vendor_gate(struct probe_env *pe, struct snapshot *s, const char *explicit_lib,
			      const char *lib_option, const char *what, bool need_module, char *buf,
			      size_t size, const char **ret_source)
{
	struct stat st;

	*ret_source = "options";
	if (pe->ctx->flags & GPUENV_CTX_NO_VENDOR)
		return "--no-vendor";
	if (!ctx_vendor_allowed(pe->ctx, explicit_lib)) {
		snprintf(buf, size,
			 "live-only probe, off under --sysroot unless %s names a library",
			 lib_option);
		return buf;
	}
	if (!need_module)
		return NULL;
	if (!probe_vendor_module_ready(pe, s, "nvidia", NULL)) {
		*ret_source = "/sys/module/nvidia";
		snprintf(buf, size,
			 "nvidia kernel module not loaded (%s would create /dev/nvidiactl)", what);
		return buf;
	}
	if (pe->ctx->live &&
	    !(root_stat(pe->root, "/dev/nvidiactl", &st) == 0 && S_ISCHR(st.st_mode))) {
		*ret_source = "/dev/nvidiactl";
		snprintf(buf, size, "/dev/nvidiactl missing (%s would create it)", what);
		return buf;
	}
	return NULL;
}

void probe_vendor_not_called(struct snap_node *obj, const char *const keys[], enum fact_state state,
			     const char *source, const char *why)
{
	char msg[320];

	snprintf(msg, sizeof(msg), "%s%s", state == FACT_UNPROBED ? "not called: " : "", why);
	for (size_t i = 0; keys[i]; i++)
		snap_set_state(obj, keys[i], state, source, msg);
}

static void write_node(struct snap_node *obj, const char *key, json_t *j);

static void write_fact(struct snap_node *obj, const char *key, json_t *j)
{
	const char *state_s = json_string_value(json_object_get(j, "state"));
	const char *source = json_string_value(json_object_get(j, "source"));
	const char *error = json_string_value(json_object_get(j, "error"));
	json_t *v = json_object_get(j, "value");
	int state = state_s ? fact_state_from_string(state_s) : -EINVAL;

	if (state < 0) {
		snap_set_state(obj, key, FACT_MALFORMED, source,
			       "unknown fact state from the vendor child");
		return;
	}
	if (state == FACT_PRESENT && json_is_string(v))
		snap_set_str(obj, key, json_string_value(v), source);
	else if (state == FACT_PRESENT && json_is_integer(v))
		snap_set_int(obj, key, json_integer_value(v), source);
	else if (state == FACT_PRESENT && json_is_boolean(v))
		snap_set_bool(obj, key, json_is_true(v), source);
	else
		snap_set_state(obj, key, (enum fact_state)state, source, error);
}

static void write_children(struct snap_node *obj, json_t *j)
{
	const char *k;
	json_t *v;

	json_object_foreach(j, k, v) write_node(obj, k, v);
}

static void write_node(struct snap_node *obj, const char *key, json_t *j)
{
	if (json_is_object(j) && json_is_string(json_object_get(j, "state"))) {
		write_fact(obj, key, j);
	} else if (json_is_object(j)) {
		write_children(snap_object(obj, key), j);
	} else if (json_is_array(j)) {
		struct snap_node *arr = snap_array(obj, key);
		size_t i;
		json_t *e;

		json_array_foreach(j, i, e) if (json_is_object(e))
			write_children(snap_append_object(arr), e);
	}
}

void probe_vendor_write(struct snap_node *obj, const struct vendor_result *r, unsigned timeout_ms,
			const char *what)
{
	char source[64];

	write_children(obj, r->tree);
	snprintf(source, sizeof(source), "%s child process (deadline %u ms)", what, timeout_ms);
	if (r->failure)
		snap_set_state(obj, "session", FACT_ERROR, source, r->failure);
	else
		snap_set_str(obj, "session", "completed", source);
}
