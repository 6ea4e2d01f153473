// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The host: OS release, kernel release, CPU model and count, memory, NUMA nodes.
 * Formats: os-release(5) (/etc/os-release, then /usr/lib/os-release); proc(5) for
 * /proc/sys/kernel/osrelease, /proc/cpuinfo ("model name", one "processor" line per
 * logical CPU) and /proc/meminfo ("MemTotal: N kB"); sysfs-devices-system-cpu ABI for
 * /sys/devices/system/node/node*; proc(5) /proc/self/status ("Uid:", "Gid:", "Groups:" lines)
 * with names from group(5) /etc/group; the marks of WSL2 (Microsoft's "Windows Subsystem for
 * Linux" documentation, "GPU acceleration in WSL": the /dev/dxg paravirtual GPU device of the
 * dxgkrnl driver and the Windows driver's libraries mounted at /usr/lib/wsl/lib); ostree's
 * /run/ostree-booted mark of an image-based system; the capture's day from the clock (live
 * only). Writes
 * "host" and "collection.hostname".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/ctx.h"
#include "core/host.h"
#include "probe-text.h"
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
	char *state, *line, *v;

	for (size_t i = 0; i < ARRAY_SIZE(paths) && err == -ENOENT; i++) {
		path = paths[i];
		err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);
	}
	if (err < 0) {
		snap_set_errno(os, "pretty_name", err, path);
		return;
	}
	state = text;
	while (kv_next(&state, '=', &line, &v)) {
		static const struct {
			const char *key, *name;
		} keys[] = { { "PRETTY_NAME", "pretty_name" },
			     { "ID", "id" },
			     { "ID_LIKE", "id_like" },
			     { "VERSION_ID", "version_id" } };
		size_t n;

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

void probe_parse_cpuinfo(struct snap_node *cpu, const char *text, size_t len, const char *path)
{
	struct cpuinfo c;

	if (cpuinfo_parse(text, len, &c) < 0) {
		cpuinfo_done(&c);
		snap_set_errno(cpu, "model", -ENOMEM, path);
		return;
	}
	if (c.model)
		snap_set_str(cpu, "model", c.model, path);
	else
		snap_set_state(cpu, "model", FACT_ABSENT, path, "no \"model name\" line");
	if (c.vendor)
		snap_set_str(cpu, "vendor", c.vendor, path);
	if (c.logical_cpus > 0)
		snap_set_int(cpu, "logical_cpus", c.logical_cpus, path);
	else
		snap_set_malformed(cpu, "logical_cpus", NULL, path, "no \"processor\" lines");
	cpuinfo_done(&c);
}

static void probe_cpu(struct probe_env *pe, struct snap_node *host)
{
	static const char path[] = "/proc/cpuinfo";
	struct snap_node *cpu = snap_object(host, "cpu");
	_cleanup_free_ char *text = NULL;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(cpu, "model", err, path);
		snap_set_errno(cpu, "logical_cpus", err, path);
		return;
	}
	probe_parse_cpuinfo(cpu, text, strlen(text), path);
}

static void set_ids(struct snap_node *proc, const struct proc_status_ids *ids, const char *real_key,
		    const char *eff_key, const char *line, const char *path)
{
	const char *keys[2] = { real_key, eff_key };

	if (!ids->seen) {
		snap_set_state(proc, real_key, FACT_ABSENT, path, line);
		return;
	}
	for (size_t i = 0; i < 2; i++)
		if (ids->why[i])
			snap_set_malformed(proc, keys[i], ids->raw, path, ids->why[i]);
		else
			snap_set_int(proc, keys[i], ids->id[i], path);
}

void probe_parse_proc_status(struct snap_node *proc, const char *text, size_t len, const char *path,
			     const char *group_text, int group_err, const char *group_source)
{
	struct proc_status st;
	struct snap_node *arr;

	if (proc_status_parse(text, len, &st) < 0) {
		proc_status_done(&st);
		snap_set_errno(proc, "uid", -ENOMEM, path);
		return;
	}
	set_ids(proc, &st.uid, "uid", "euid", "no \"Uid:\" line", path);
	set_ids(proc, &st.gid, "gid", "egid", "no \"Gid:\" line", path);
	if (!st.have_groups) {
		snap_set_state(proc, "groups", FACT_ABSENT, path, "no \"Groups:\" line");
		proc_status_done(&st);
		return;
	}
	arr = snap_array(proc, "groups");
	for (size_t i = 0; i < st.n_groups; i++) {
		const struct proc_status_group *g = &st.groups[i];
		struct snap_node *o = snap_append_object(arr);
		char name[256];

		if (!g->valid) {
			snap_set_malformed(o, "gid", g->raw, path, "not a decimal gid");
			continue;
		}
		snap_set_int(o, "gid", g->gid, path);
		if (!group_text && group_err < 0 && group_err != -ENOENT)
			snap_set_errno(o, "name", group_err, group_source);
		else if (!group_text)
			snap_set_state(o, "name", FACT_ABSENT, group_source, "no group database");
		else if (group_name(group_text, g->gid, name, sizeof(name)) == 0)
			snap_set_str(o, "name", name, group_source);
		else
			snap_set_state(o, "name", FACT_ABSENT, group_source,
				       "gid not in the group database");
	}
	proc_status_done(&st);
}

/* The judged process: its ids and supplementary groups (who may open a 0660 device node). */
static void host_process_identity(struct probe_env *pe, struct snap_node *host)
{
	static const char path[] = "/proc/self/status", group_path[] = "/etc/group";
	struct snap_node *proc = snap_object(host, "process");
	_cleanup_free_ char *text = NULL, *groups = NULL;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(proc, "uid", err, path);
		snap_set_errno(proc, "groups", err, path);
		return;
	}
	err = root_read_text(pe->root, group_path, ROOT_CAP_TEXT, &groups);
	if (err < 0)
		groups = NULL;
	probe_parse_proc_status(proc, text, strlen(text), path, groups, err, group_path);
}

static void probe_memory(struct probe_env *pe, struct snap_node *host)
{
	static const char path[] = "/proc/meminfo";
	_cleanup_free_ char *text = NULL;
	char *state, *line, *v;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(host, "memory_total_kib", err, path);
		return;
	}
	state = text;
	while (kv_next(&state, ':', &line, &v)) {
		uint64_t kib;

		if (strcmp(line, "MemTotal") != 0)
			continue;
		v[strcspn(v, " ")] = '\0';
		if (parse_u64(v, 10, &kib) < 0 || kib > INT64_MAX) {
			snap_set_malformed(host, "memory_total_kib", v, path,
					   "MemTotal is not a number");
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

/* WSL2: the kernel release ("5.15.153.1-microsoft-standard-WSL2") is in host.kernel_release;
 * what else shows it: /dev/dxg (a character device) and /usr/lib/wsl/lib (a directory). */
static void probe_wsl(struct probe_env *pe, struct snap_node *host)
{
	static const struct {
		const char *key, *path;
		mode_t type;
	} marks[] = { { "dxg_device", "/dev/dxg", S_IFCHR },
		      { "lib_dir", "/usr/lib/wsl/lib", S_IFDIR } };
	struct snap_node *wsl = snap_object(host, "wsl");

	for (size_t i = 0; i < ARRAY_SIZE(marks); i++) {
		struct stat st;
		int err = root_stat(pe->root, marks[i].path, &st);

		if (err == -ENOENT || err == -ENOTDIR)
			snap_set_bool(wsl, marks[i].key, false, marks[i].path);
		else if (err < 0)
			snap_set_errno(wsl, marks[i].key, err, marks[i].path);
		else
			snap_set_bool(wsl, marks[i].key, (st.st_mode & S_IFMT) == marks[i].type,
				      marks[i].path);
	}
}

/* An image-based system (rpm-ostree, bootc): ostree-prepare-root creates /run/ostree-booted
 * when it boots a deployment (ostree's documentation, "Deployments"). Recorded only when
 * present (or unreadable): on every other system there is nothing to say. */
static void probe_ostree(struct probe_env *pe, struct snap_node *host)
{
	struct stat st;
	int err = root_stat(pe->root, "/run/ostree-booted", &st);

	if (err == 0)
		snap_set_bool(host, "ostree_booted", true, "/run/ostree-booted");
	else if (err != -ENOENT && err != -ENOTDIR)
		snap_set_errno(host, "ostree_booted", err, "/run/ostree-booted");
}

/* The day of the capture (UTC), what lifecycle rules date the machine by: only on the live
 * system, whose clock is the machine's; a sysroot (fixture, image, capture) has no clock of
 * its own, so its date stays unknown unless its files show one. */
static void probe_date(struct probe_env *pe, struct snap_node *host)
{
	struct timespec ts;
	struct tm tm;
	char day[16];

	if (!root_is_live(pe->root))
		return;
	if (clock_gettime(CLOCK_REALTIME, &ts) < 0 || !gmtime_r(&ts.tv_sec, &tm) ||
	    strftime(day, sizeof(day), "%Y-%m-%d", &tm) == 0) {
		snap_set_errno(host, "date", -errno ?: -EINVAL, "clock");
		return;
	}
	snap_set_str(host, "date", day, "clock");
}

int probe_host(struct probe_env *pe, struct gpuenv_snapshot *s)
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
	host_process_identity(pe, host);
	probe_memory(pe, host);
	probe_numa(pe, host);
	probe_wsl(pe, host);
	probe_ostree(pe, host);
	probe_date(pe, host);
	/* The host name is identifying: kept out of stable output (collection is dropped). */
	if (pe->ctx->hostname)
		snap_set_str(snap_object(snapshot_root(s), "collection"), "hostname",
			     pe->ctx->hostname, "gpuenv_ctx_opts.hostname");
	else if (root_read_text(pe->root, "/proc/sys/kernel/hostname", ROOT_CAP_ATTR, &hostname) ==
		 0)
		snap_set_str(snap_object(snapshot_root(s), "collection"), "hostname", hostname,
			     "/proc/sys/kernel/hostname");
	return snapshot_error(s);
}
