// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The host: OS release, kernel release, CPU model and count, memory, NUMA nodes.
 * Formats: os-release(5) (/etc/os-release, then /usr/lib/os-release); proc(5) for
 * /proc/sys/kernel/osrelease, /proc/cpuinfo ("model name", one "processor" line per
 * logical CPU) and /proc/meminfo ("MemTotal: N kB"); sysfs-devices-system-cpu ABI for
 * /sys/devices/system/node/node*. Writes "host" and "collection.hostname".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/host.h"
#include "probe.h"
#include "shared/parse.h"
#include "shared/strv.h"

static void probe_os_release(struct probe_env *pe, struct snap_node *host)
{
	static const char *const paths[] = { "/etc/os-release", "/usr/lib/os-release" };
	struct snap_node *os = snap_object(host, "os");
	_cleanup_free_ char *text = NULL;
	const char *path = paths[0];
	int err = -ENOENT;
	char *state, *line;

	for (size_t i = 0; i < ARRAY_SIZE(paths) && err == -ENOENT; i++) {
		path = paths[i];
		err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);
	}
	if (err < 0) {
		snap_set_errno(os, "pretty_name", err, path);
		return;
	}
	state = text;
	while ((line = line_next(&state))) {
		static const struct {
			const char *key, *name;
		} keys[] = { { "PRETTY_NAME", "pretty_name" }, { "ID", "id" }, { "VERSION_ID", "version_id" } };
		char *v = kv_split(line, '=');
		size_t n;

		if (!v)
			continue;
		/* os-release values may be quoted with " or ' (os-release(5)). */
		n = strlen(v);
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
			v[n - 1] = '\0';
			v++;
		}
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (strcmp(strstrip(line), keys[i].key) == 0)
				snap_set_str(os, keys[i].name, v, path);
	}
	if (!snap_child(os, "pretty_name"))
		snap_set_state(os, "pretty_name", FACT_ABSENT, path, "no PRETTY_NAME line");
}

static void probe_cpu(struct probe_env *pe, struct snap_node *host)
{
	static const char path[] = "/proc/cpuinfo";
	struct snap_node *cpu = snap_object(host, "cpu");
	_cleanup_free_ char *text = NULL;
	int64_t logical = 0;
	char *state, *line;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(cpu, "model", err, path);
		snap_set_errno(cpu, "logical_cpus", err, path);
		return;
	}
	state = text;
	while ((line = line_next(&state))) {
		char *v = kv_split(line, ':');

		if (!v)
			continue;
		strstrip(line);
		if (strcmp(line, "processor") == 0)
			logical++;
		else if (strcmp(line, "model name") == 0 && !snap_child(cpu, "model"))
			snap_set_str(cpu, "model", v, path);
		else if (strcmp(line, "vendor_id") == 0 && !snap_child(cpu, "vendor"))
			snap_set_str(cpu, "vendor", v, path);
	}
	if (!snap_child(cpu, "model"))
		snap_set_state(cpu, "model", FACT_ABSENT, path, "no \"model name\" line");
	if (logical > 0)
		snap_set_int(cpu, "logical_cpus", logical, path);
	else
		snap_set_malformed(cpu, "logical_cpus", NULL, path, "no \"processor\" lines");
}

static void probe_memory(struct probe_env *pe, struct snap_node *host)
{
	static const char path[] = "/proc/meminfo";
	_cleanup_free_ char *text = NULL;
	char *state, *line;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(host, "memory_total_kib", err, path);
		return;
	}
	state = text;
	while ((line = line_next(&state))) {
		uint64_t kib;
		char *v = kv_split(line, ':');

		if (!v || strcmp(line, "MemTotal") != 0)
			continue;
		v[strcspn(v, " ")] = '\0';
		if (parse_u64(v, 10, &kib) < 0 || kib > INT64_MAX) {
			snap_set_malformed(host, "memory_total_kib", v, path, "MemTotal is not a number");
			return;
		}
		snap_set_int(host, "memory_total_kib", (int64_t)kib, path);
		return;
	}
	snap_set_state(host, "memory_total_kib", FACT_ABSENT, path, "no MemTotal line");
}

static void probe_numa(struct probe_env *pe, struct snap_node *host)
{
	static const char path[] = "/sys/devices/system/node";
	_cleanup_strv_free_ char **names = NULL;
	int64_t nodes = 0;
	int err = root_list_dir(pe->root, path, ROOT_DIR_MAX_ENTRIES, &names);

	if (err < 0) {
		snap_set_errno(host, "numa_nodes", err, path);
		return;
	}
	STRV_FOREACH(n, names) {
		unsigned idx;

		if (startswith(*n, "node") && parse_uint(*n + 4, 10, &idx) == 0)
			nodes++;
	}
	snap_set_int(host, "numa_nodes", nodes, path);
}

int probe_host(struct probe_env *pe, struct snapshot *s)
{
	struct snap_node *host = snap_object(snapshot_root(s), "host");
	_cleanup_free_ char *release = NULL, *hostname = NULL;
	int err;

	probe_os_release(pe, host);
	err = host_kernel_release(pe->root, &release);
	if (err < 0)
		snap_set_errno(host, "kernel_release", err, "/proc/sys/kernel/osrelease");
	else
		snap_set_str(host, "kernel_release", release, "/proc/sys/kernel/osrelease");
	probe_cpu(pe, host);
	probe_memory(pe, host);
	probe_numa(pe, host);
	/* The host name is identifying: kept out of stable output (collection is dropped). */
	if (root_read_text(pe->root, "/proc/sys/kernel/hostname", ROOT_CAP_ATTR, &hostname) == 0)
		snap_set_str(snap_object(snapshot_root(s), "collection"), "hostname", hostname,
			     "/proc/sys/kernel/hostname");
	return snapshot_error(s);
}
