// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The host side of GPU containers: how this machine would hand GPUs to a container.
 * Reads, without executing anything:
 *   - NVIDIA container toolkit binaries (nvidia-ctk, nvidia-container-cli,
 *     nvidia-container-runtime, -runtime-hook, nvidia-cdi-hook, nvidia-container-toolkit)
 *     in the PATH directories and /usr/bin, /usr/local/bin, /usr/sbin, /bin, /sbin;
 *     their package versions from /var/lib/dpkg/status (deb-control(5) stanzas) and the
 *     libnvidia-container.so.1 link target's version; where a CDI spec was found, podman's
 *     package version from the same file (which spec versions it loads is its release's);
 *   - /etc/nvidia-container-runtime/config.toml, the keys NVIDIA documents in "Installing
 *     the NVIDIA Container Toolkit" / cmd/nvidia-container-runtime/README.md (read with the
 *     strict reader of toml-min.c: Debian 12 main has no C TOML library);
 *   - Docker's /etc/docker/daemon.json (docs.docker.com "dockerd" reference: runtimes,
 *     default-runtime, features.cdi, cdi-spec-dirs) with jansson; Docker as a snap
 *     (/snap/bin/docker, /var/snap/docker/<revision>/config/daemon.json and etc/cdi);
 *   - containerd's /etc/containerd/config.toml (containerd docs/cri/config.md: config
 *     version 1 "cri", 2 "io.containerd.grpc.v1.cri", 3 "io.containerd.cri.v1.runtime";
 *     containerd.default_runtime_name (containerd's default when unset: "runc"), the
 *     deprecated containerd.default_runtime table's binary, containerd.runtimes.<name>
 *     .runtime_type and .options.BinaryName, enable_cdi; `imports` are recorded, not
 *     followed);
 *   - K3s's own containerd config, /var/lib/rancher/k3s/agent/etc/containerd/config.toml
 *     (the same facts), and whether its config.toml.tmpl is there;
 *   - rootless engines: a user namespace (/proc/self/uid_map), rootless Docker's
 *     /run/user/<uid>/docker.sock, $DOCKER_HOST;
 *   - the docker CLI's current context ($DOCKER_CONTEXT, ~/.docker/config.json) and its
 *     endpoint, and whether Docker Desktop (/opt/docker-desktop) is installed;
 *   - kubelet: its binary, the container runtime endpoint its service's flag files or
 *     config.yaml name, its device manager checkpoint (the resources device plugins
 *     registered); crictl's runtime endpoint (/etc/crictl.yaml);
 *   - how containers' cgroups are managed: the cgroup version (/sys/fs/cgroup/cgroup.controllers
 *     is cgroup v2's root file), Docker's exec-opts native.cgroupdriver, containerd's runc
 *     options.SystemdCgroup, and the /dev/char/MAJOR:MINOR links udev makes for device nodes,
 *     which the NVIDIA nodes lack unless nvidia-ctk made them (NVIDIA/nvidia-docker#1730);
 *   - CDI specs in /etc/cdi, /var/run/cdi and a docker snap's etc/cdi (*.yaml, *.json), read
 *     by cdi-spec.c.
 * A file that is missing, unreadable, a symlink loop or malformed is a fact with that
 * state and reason; nothing here judges. Writes "container.host".
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "formats/cdi-spec.h"
#include "formats/kube-endpoint.h"
#include "probe.h"
#include "service-unit.h"
#include "shared/parse.h"
#include "shared/path-util.h"
#include "shared/strv.h"
#include "formats/toml-min.h"

static const char *const lib_dirs[] = { "/usr/lib/x86_64-linux-gnu", "/usr/lib64",
					"/usr/lib/aarch64-linux-gnu" };

/* ---- binaries ------------------------------------------------------------------ */

static int search_dirs(struct probe_env *pe, char ***ret)
{
	static const char *const std[] = { "/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
					   "/usr/bin",	      "/sbin",		"/bin" };
	const char *path = env_get(pe->env, "PATH");
	_cleanup_strv_free_ char **dirs = NULL;
	int r;

	if (path && (r = strv_split(path, ":", &dirs)) < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(std); i++)
		if (!strv_contains(dirs, std[i]) && (r = strv_push(&dirs, std[i])) < 0)
			return r;
	*ret = TAKE_PTR(dirs);
	return 0;
}

/* The first executable regular file `name` in dirs: 0 with its path in path, -ENOENT when
 * there is none, or the error of a candidate that could not be looked at (its path in path). */
static int locate_binary(struct probe_env *pe, char **dirs, const char *name,
			 char path[static PATH_MAX])
{
	char failed[PATH_MAX] = "";
	int failed_err = 0;

	STRV_FOREACH(d, dirs) {
		struct stat st;
		int r;

		if ((*d)[0] != '/')
			continue; /* a relative PATH entry means nothing under a root */
		/* not listed where it could be listed: not there, no stat needed */
		if (!probe_dir_may_hold(pe, *d, name))
			continue;
		snprintf(path, PATH_MAX, "%s/%s", streq(*d, "/") ? "" : *d, name);
		r = root_stat(pe->root, path, &st);
		if (r == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111))
			return 0;
		/* A candidate that could not be looked at might be the one: not "absent". (A
		 * PATH directory that is a broken link, ELOOP, holds nothing a shell finds.) */
		if ((r == -EACCES || r == -EPERM) && !failed_err) {
			failed_err = r;
			snprintf(failed, sizeof(failed), "%s", path);
		}
	}
	snprintf(path, PATH_MAX, "%s", failed);
	return failed_err ?: -ENOENT;
}

/* The first executable regular file `name` in dirs, as a fact. */
static void find_binary(struct probe_env *pe, char **dirs, struct snap_node *obj, const char *key,
			const char *name)
{
	char path[PATH_MAX];
	int r = locate_binary(pe, dirs, name, path);

	if (r == 0)
		snap_set_str(obj, key, path, path);
	else if (r != -ENOENT)
		snap_set_errno(obj, key, r, path);
	else
		snap_set_state(obj, key, FACT_ABSENT, "PATH",
			       "not in PATH or the standard directories");
}

/* ---- dpkg status --------------------------------------------------------------- */

/* Versions of installed packages named in names, from /var/lib/dpkg/status. */
static void probe_packages(struct probe_env *pe, struct snap_node *obj, const char *const *names,
			   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char ver[128];
		int err = probe_dpkg_version(pe, names[i], ver, sizeof(ver));

		if (err == 0)
			snap_set_str(obj, names[i], ver, PROBE_DPKG_STATUS);
		else if (err == 1)
			snap_set_state(obj, names[i], FACT_ABSENT, PROBE_DPKG_STATUS,
				       "not installed");
		else
			snap_set_errno(obj, names[i], err, PROBE_DPKG_STATUS);
	}
}

/* As probe_packages(), but a host without /var/lib/dpkg/status (an RPM distribution) is
 * unsupported, not "not installed": the engine may be there, its release unread. */
static void probe_engine_packages(struct probe_env *pe, struct snap_node *obj,
				  const char *const *names, size_t n)
{
	probe_packages(pe, obj, names, n);
	for (size_t i = 0; i < n; i++) {
		const struct snap_node *v = snap_child(obj, names[i]);

		if (snap_state(v) == FACT_ABSENT && !streq(snap_error(v) ?: "", "not installed"))
			snap_set_state(obj, names[i], FACT_UNSUPPORTED, PROBE_DPKG_STATUS,
				       "no dpkg status: the package database is not dpkg's");
	}
}

/* "libnvidia-container.so.1" → its link target's version ("1.16.2"). */
static void probe_libnvc(struct probe_env *pe, struct snap_node *tk)
{
	for (size_t i = 0; i < ARRAY_SIZE(lib_dirs); i++) {
		_cleanup_free_ char *target = NULL;
		char path[PATH_MAX];
		const char *base;
		struct version v;
		int r;

		snprintf(path, sizeof(path), "%s/libnvidia-container.so.1", lib_dirs[i]);
		r = root_readlink(pe->root, path, &target);
		/* not there, or not a link: the next directory; anything else (an unreadable
		 * directory) leaves the version unknown, never absent */
		if (r == -ENOENT) {
			/* no link there, as far as the directory can be looked at */
			struct stat st;
			int err = root_stat(pe->root, lib_dirs[i], &st);

			if (err >= 0 && !S_ISDIR(st.st_mode))
				err = -ENOTDIR;
			if (err < 0 && err != -ENOENT && err != -ENOTDIR)
				r = err;
		}
		if (r == -ENOENT || r == -ENOTDIR || r == -EINVAL)
			continue;
		if (r < 0) {
			snap_set_errno(tk, "libnvidia_container", r, path);
			return;
		}
		base = path_basename(target);
		if (startswith(base, "libnvidia-container.so.") &&
		    version_parse(base + strlen("libnvidia-container.so."), &v) == 0)
			snap_set_str(tk, "libnvidia_container",
				     base + strlen("libnvidia-container.so."), path);
		else
			snap_set_malformed(tk, "libnvidia_container", target, path,
					   "link target is not libnvidia-container.so.<version>");
		return;
	}
	snap_set_state(tk, "libnvidia_container", FACT_ABSENT, "/usr/lib64",
		       "no libnvidia-container.so.1 link in the library directories");
}

/* ---- TOML facts ---------------------------------------------------------------- */

/* Reads and parses a TOML file into *ret; records the file fact in obj[key]. */
static int load_toml(struct probe_env *pe, struct snap_node *obj, const char *key, const char *path,
		     struct toml_doc **ret)
{
	_cleanup_free_ char *text = NULL;
	struct toml_error terr = { 0 };
	size_t len;
	int err = root_read_file(pe->root, path, TOML_MAX_INPUT, &text, &len);

	if (err < 0) {
		snap_set_errno(obj, key, err, path);
		return err;
	}
	err = toml_parse(text, len, ret, &terr);
	if (err == -ENOMEM)
		return err;
	if (err < 0) {
		char why[128];

		if (terr.line)
			snprintf(why, sizeof(why), "line %u: %s", terr.line, terr.why);
		else
			snprintf(why, sizeof(why), "%s", terr.why ? terr.why : "not TOML");
		snap_set_malformed(obj, key, text, path, why);
		return err;
	}
	snap_set_str(obj, key, path, path);
	return 0;
}

enum want { WANT_STR, WANT_BOOL, WANT_INT, WANT_STRS };

/* One TOML value as a fact of the expected type; absent when the key is not set. */
static void toml_fact(struct snap_node *obj, const char *key, const struct toml_doc *d,
		      const char *const *tkey, enum want want, const char *path)
{
	static const enum toml_type types[] = {
		[WANT_STR] = TOML_STRING,
		[WANT_BOOL] = TOML_BOOL,
		[WANT_INT] = TOML_INTEGER,
		[WANT_STRS] = TOML_ARRAY,
	};
	const struct toml_value *v = toml_get(d, tkey);
	char why[96];

	if (!v) {
		snap_set_state(obj, key, FACT_ABSENT, path,
			       "not set (the built-in default applies)");
		return;
	}
	if (v->type != types[want])
		goto bad;
	switch (want) {
	case WANT_STR:
		snap_set_str(obj, key, v->str, path);
		return;
	case WANT_BOOL:
		snap_set_bool(obj, key, v->b, path);
		return;
	case WANT_INT:
		snap_set_int(obj, key, v->i, path);
		return;
	case WANT_STRS: {
		struct snap_node *arr;

		for (size_t i = 0; i < v->n_items; i++)
			if (v->items[i].type != TOML_STRING)
				goto bad;
		arr = snap_array(obj, key);
		for (size_t i = 0; i < v->n_items; i++)
			snap_append_str(arr, v->items[i].str, path);
		return;
	}
	}
bad:
	snprintf(why, sizeof(why), "expected %s, got %s",
		 want == WANT_STRS ? "a list of strings" : toml_type_name(types[want]),
		 toml_type_name(v->type));
	snap_set_malformed(obj, key, v->str, path, why);
}

#define TK(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The file at path on the host as a bool fact: true when there, false when not (ENOENT,
 * ENOTDIR), an errno when it could not be looked at. */
static void host_file_fact(struct probe_env *pe, struct snap_node *obj, const char *key,
			   const char *path)
{
	struct stat st;
	int r = root_stat(pe->root, path, &st);

	if (r == 0 || r == -ENOENT || r == -ENOTDIR)
		snap_set_bool(obj, key, r == 0, path);
	else
		snap_set_errno(obj, key, r, path);
}

/* nvidia-container-cli runs the configured ldconfig on the container's root; a leading '@'
 * names a file of the host's (libnvidia-container src/nvc_ldcache.c; the toolkit writes
 * "@/sbin/ldconfig.real" on Ubuntu, "@/sbin/ldconfig" elsewhere: nvidia-container-toolkit
 * internal/config/config.go). Records whether that host file is there ("ldconfig_on_host"),
 * and which of the usual ldconfig files the host has ("host_ldconfigs"), so that a name
 * taken from another distribution can be told from a tree that shows no /sbin at all. */
static void probe_ldconfig_host(struct probe_env *pe, struct snap_node *cli,
				const struct toml_doc *d, const char *cfg)
{
	static const char *const usual[] = { "/sbin/ldconfig", "/usr/sbin/ldconfig",
					     "/sbin/ldconfig.real", "/usr/sbin/ldconfig.real" };
	const struct toml_value *v = toml_get(d, TK("nvidia-container-cli", "ldconfig"));
	const char *there[ARRAY_SIZE(usual)], *failed_path = NULL;
	struct snap_node *arr;
	size_t n = 0;
	int failed = 0;

	if (!v || v->type != TOML_STRING || !startswith(v->str, "@/")) {
		snap_set_state(cli, "ldconfig_on_host", FACT_ABSENT, cfg,
			       "ldconfig does not name a host file (no leading \"@/\")");
		return;
	}
	host_file_fact(pe, cli, "ldconfig_on_host", v->str + 1);
	for (size_t i = 0; i < ARRAY_SIZE(usual); i++) {
		struct stat st;
		int r = root_stat(pe->root, usual[i], &st);

		if (r == 0 && S_ISREG(st.st_mode))
			there[n++] = usual[i];
		else if (r < 0 && r != -ENOENT && r != -ENOTDIR && !failed) {
			failed = r;
			failed_path = usual[i];
		}
	}
	/* none seen, one that could not be looked at: which ldconfig the host has is not known */
	if (n == 0 && failed) {
		snap_set_errno(cli, "host_ldconfigs", failed, failed_path);
		return;
	}
	arr = snap_array(cli, "host_ldconfigs");
	for (size_t i = 0; i < n; i++)
		snap_append_str(arr, there[i], there[i]);
}

static void probe_toolkit_config(struct probe_env *pe, struct snap_node *tk)
{
	static const char path[] = "/etc/nvidia-container-runtime/config.toml";
	struct snap_node *cfg = snap_object(tk, "config");
	_cleanup_(toml_freep) struct toml_doc *d = NULL;
	struct snap_node *cli, *rt;

	if (load_toml(pe, cfg, "file", path, &d) < 0)
		return;
	toml_fact(cfg, "accept-nvidia-visible-devices-envvar-when-unprivileged", d,
		  TK("accept-nvidia-visible-devices-envvar-when-unprivileged"), WANT_BOOL, path);
	toml_fact(cfg, "accept-nvidia-visible-devices-as-volume-mounts", d,
		  TK("accept-nvidia-visible-devices-as-volume-mounts"), WANT_BOOL, path);
	toml_fact(cfg, "disable-require", d, TK("disable-require"), WANT_BOOL, path);
	cli = snap_object(cfg, "nvidia-container-cli");
	toml_fact(cli, "root", d, TK("nvidia-container-cli", "root"), WANT_STR, path);
	toml_fact(cli, "path", d, TK("nvidia-container-cli", "path"), WANT_STR, path);
	toml_fact(cli, "ldconfig", d, TK("nvidia-container-cli", "ldconfig"), WANT_STR, path);
	probe_ldconfig_host(pe, cli, d, path);
	toml_fact(cli, "no-cgroups", d, TK("nvidia-container-cli", "no-cgroups"), WANT_BOOL, path);
	toml_fact(cli, "load-kmods", d, TK("nvidia-container-cli", "load-kmods"), WANT_BOOL, path);
	rt = snap_object(cfg, "nvidia-container-runtime");
	toml_fact(rt, "mode", d, TK("nvidia-container-runtime", "mode"), WANT_STR, path);
	toml_fact(rt, "runtimes", d, TK("nvidia-container-runtime", "runtimes"), WANT_STRS, path);
	toml_fact(rt, "cdi_default_kind", d,
		  TK("nvidia-container-runtime", "modes", "cdi", "default-kind"), WANT_STR, path);
	toml_fact(rt, "cdi_spec_dirs", d,
		  TK("nvidia-container-runtime", "modes", "cdi", "spec-dirs"), WANT_STRS, path);
}

/* ---- Docker -------------------------------------------------------------------- */

/* Reads and parses the JSON object at path; records obj[key] unreadable (errno) or malformed
 * (not JSON, not an object). NULL on failure. */
static json_t *load_json_object(struct probe_env *pe, struct snap_node *obj, const char *key,
				const char *path)
{
	_cleanup_free_ char *text = NULL;
	json_error_t jerr;
	char why[224];
	size_t len;
	json_t *j;
	int err = root_read_file(pe->root, path, ROOT_CAP_TEXT, &text, &len);

	if (err < 0) {
		snap_set_errno(obj, key, err, path);
		return NULL;
	}
	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (j && json_is_object(j))
		return j;
	if (j)
		snprintf(why, sizeof(why), "not a JSON object");
	else
		snprintf(why, sizeof(why), "line %d column %d: %s", jerr.line, jerr.column,
			 jerr.text);
	snap_set_malformed(obj, key, text, path, why);
	json_decref(j);
	return NULL;
}

/* Docker's cgroup driver as daemon.json sets it: "exec-opts": ["native.cgroupdriver=systemd"]
 * (docs.docker.com dockerd reference, "Configure cgroup driver"); absent when not set, where
 * dockerd picks systemd on a cgroup v2 host and cgroupfs on v1 (Docker 20.10). */
static void probe_cgroup_driver(struct snap_node *dk, const json_t *opts, const char *path)
{
	static const char key[] = "native.cgroupdriver=";
	const char *driver = NULL;
	size_t i;
	json_t *e;

	if (opts && !json_is_array(opts)) {
		snap_set_malformed(dk, "cgroup_driver", NULL, path, "exec-opts is not a list");
		return;
	}
	json_array_foreach(opts, i, e)
		if (json_is_string(e) && startswith(json_string_value(e), key))
			driver = json_string_value(e) + strlen(key); /* the last one counts */
	if (driver)
		snap_set_str(dk, "cgroup_driver", driver, path);
	else
		snap_set_state(dk, "cgroup_driver", FACT_ABSENT, path,
			       "exec-opts sets no native.cgroupdriver (dockerd's default applies)");
}

/* A daemon.json (/etc/docker's, or the snap's) into dk: runtimes, default-runtime, CDI. */
static void probe_daemon_json(struct probe_env *pe, struct snap_node *dk, const char *path)
{
	json_t *j = load_json_object(pe, dk, "daemon_json", path), *rts, *v;

	if (!j)
		return;
	snap_set_str(dk, "daemon_json", path, path);
	rts = json_object_get(j, "runtimes");
	if (!rts) {
		snap_array(dk, "runtimes");
	} else if (!json_is_object(rts)) {
		snap_set_malformed(dk, "runtimes", NULL, path, "\"runtimes\" is not an object");
	} else {
		struct snap_node *arr = snap_array(dk, "runtimes");
		const char *name;
		json_t *rt;

		json_object_foreach(rts, name, rt) {
			struct snap_node *o = snap_append_object(arr);
			json_t *p = json_is_object(rt) ? json_object_get(rt, "path") : NULL;

			snap_set_str(o, "name", name, path);
			if (json_is_string(p))
				snap_set_str(o, "path", json_string_value(p), path);
			else if (!p)
				snap_set_state(o, "path", FACT_ABSENT, path, "no \"path\"");
			else
				snap_set_malformed(o, "path", NULL, path,
						   "\"path\" is not a string");
		}
	}
	v = json_object_get(j, "default-runtime");
	if (json_is_string(v))
		snap_set_str(dk, "default_runtime", json_string_value(v), path);
	else if (!v)
		snap_set_state(dk, "default_runtime", FACT_ABSENT, path,
			       "not set (Docker uses runc)");
	else
		snap_set_malformed(dk, "default_runtime", NULL, path, "not a string");
	v = json_object_get(json_object_get(j, "features"), "cdi");
	if (json_is_boolean(v))
		snap_set_bool(dk, "cdi_feature", json_is_true(v), path);
	else if (!v)
		snap_set_state(dk, "cdi_feature", FACT_ABSENT, path, "features.cdi not set");
	else
		snap_set_malformed(dk, "cdi_feature", NULL, path, "features.cdi is not a boolean");
	v = json_object_get(j, "cdi-spec-dirs");
	if (json_is_array(v)) {
		struct snap_node *arr = snap_array(dk, "cdi_spec_dirs");
		size_t i;
		json_t *e;

		json_array_foreach(v, i, e)
			if (json_is_string(e))
				snap_append_str(arr, json_string_value(e), path);
	}
	probe_cgroup_driver(dk, json_object_get(j, "exec-opts"), path);
	json_decref(j);
}

static void probe_docker(struct probe_env *pe, char **dirs, struct snap_node *host)
{
	struct snap_node *dk = snap_object(host, "docker");

	find_binary(pe, dirs, dk, "dockerd", "dockerd");
	probe_daemon_json(pe, dk, "/etc/docker/daemon.json");
}

/* Docker installed as a snap (canonical/docker-snap): `docker` is /snap/bin/docker, its
 * dockerd runs confined in the snap (it sees the snap's own files, not the host's /usr/bin:
 * a host nvidia-container-runtime-hook is not on its PATH), and its configuration lives in
 * the snap's data directory, $SNAP_DATA = /var/snap/docker/<revision> ("current" links to the
 * active one): config/daemon.json, and etc/cdi for the CDI spec the snap's own
 * nvidia-container-toolkit service writes where NVIDIA support is enabled (docker-snap's
 * nvidia/ scripts and README "NVIDIA support"). */
#define SNAP_DOCKER_DATA "/var/snap/docker"

static bool snap_docker_dir(struct probe_env *pe, char *buf, size_t size)
{
	_cleanup_strv_free_ char **revs = NULL;
	unsigned best = 0, v;
	struct stat st;

	if (root_stat(pe->root, SNAP_DOCKER_DATA "/current", &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(buf, size, SNAP_DOCKER_DATA "/current");
		return true;
	}
	if (root_list_dir(pe->root, SNAP_DOCKER_DATA, 4096, &revs) < 0)
		return false;
	STRV_FOREACH(r, revs)
		if (parse_uint(*r, 10, &v) == 0 && v > best)
			best = v;
	if (!best)
		return false;
	snprintf(buf, size, SNAP_DOCKER_DATA "/%u", best);
	return true;
}

static void probe_docker_snap(struct probe_env *pe, struct snap_node *host, char *cdi_dir,
			      size_t cdi_size)
{
	struct snap_node *ds = snap_object(host, "docker_snap");
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct stat st;
	int r = root_lstat(pe->root, "/snap/bin/docker", &st);

	if (r < 0) {
		if (r == -ENOENT || r == -ENOTDIR)
			snap_set_state(ds, "docker", FACT_ABSENT, "/snap/bin/docker",
				       "Docker is not installed as a snap");
		else
			snap_set_errno(ds, "docker", r, "/snap/bin/docker");
		return;
	}
	snap_set_str(ds, "docker", "/snap/bin/docker", "/snap/bin/docker");
	if (!snap_docker_dir(pe, dir, sizeof(dir))) {
		snap_set_state(ds, "daemon_json", FACT_ABSENT, SNAP_DOCKER_DATA,
			       "no snap data directory");
		return;
	}
	snap_set_str(ds, "data_dir", dir, dir);
	snprintf(path, sizeof(path), "%s/config/daemon.json", dir);
	probe_daemon_json(pe, ds, path);
	snprintf(cdi_dir, cdi_size, "%s/etc/cdi", dir);
}

/* ---- containerd ---------------------------------------------------------------- */

/* The CRI facts of the containerd config at path, into cd. */
static void probe_containerd_config(struct probe_env *pe, struct snap_node *cd, const char *path)
{
	_cleanup_(toml_freep) struct toml_doc *d = NULL;
	_cleanup_strv_free_ char **names = NULL;
	const struct toml_value *ver;
	const char *plugin;
	int64_t version = 1;
	struct snap_node *arr;

	if (load_toml(pe, cd, "config", path, &d) < 0)
		return;
	ver = toml_get(d, TK("version"));
	if (ver && ver->type == TOML_INTEGER)
		version = ver->i;
	if (ver)
		toml_fact(cd, "version", d, TK("version"), WANT_INT, path);
	else
		snap_set_state(cd, "version", FACT_ABSENT, path, "not set (config version 1)");
	plugin = version >= 3	? "io.containerd.cri.v1.runtime"
		 : version == 2 ? "io.containerd.grpc.v1.cri"
				: "cri";
	snap_set_str(cd, "cri_plugin", plugin, path);
	toml_fact(cd, "default_runtime_name", d,
		  TK("plugins", plugin, "containerd", "default_runtime_name"), WANT_STR, path);
	/* The deprecated default_runtime table (config versions 1 and 2) names the default
	 * runtime's binary itself: options.BinaryName (runc shim v2) or options.Runtime (the v1
	 * linux runtime, as in the k3s template of NVIDIA/nvidia-docker#1468). */
	if (toml_get(d,
		     TK("plugins", plugin, "containerd", "default_runtime", "options", "Runtime")))
		toml_fact(cd, "default_runtime_binary", d,
			  TK("plugins", plugin, "containerd", "default_runtime", "options",
			     "Runtime"),
			  WANT_STR, path);
	else
		toml_fact(cd, "default_runtime_binary", d,
			  TK("plugins", plugin, "containerd", "default_runtime", "options",
			     "BinaryName"),
			  WANT_STR, path);
	toml_fact(cd, "enable_cdi", d, TK("plugins", plugin, "enable_cdi"), WANT_BOOL, path);
	toml_fact(cd, "imports", d, TK("imports"), WANT_STRS, path);
	toml_fact(cd, "disabled_plugins", d, TK("disabled_plugins"), WANT_STRS, path);
	if (toml_children(d, TK("plugins", plugin, "containerd", "runtimes"), &names) < 0)
		return;
	arr = snap_array(cd, "runtimes");
	STRV_FOREACH(n, names) {
		struct snap_node *o = snap_append_object(arr);

		snap_set_str(o, "name", *n, path);
		toml_fact(o, "runtime_type", d,
			  TK("plugins", plugin, "containerd", "runtimes", *n, "runtime_type"),
			  WANT_STR, path);
		toml_fact(o, "binary_name", d,
			  TK("plugins", plugin, "containerd", "runtimes", *n, "options",
			     "BinaryName"),
			  WANT_STR, path);
		/* runc's options (containerd docs/cri/config.md): systemd manages the cgroup */
		toml_fact(o, "systemd_cgroup", d,
			  TK("plugins", plugin, "containerd", "runtimes", *n, "options",
			     "SystemdCgroup"),
			  WANT_BOOL, path);
	}
}

static void probe_containerd(struct probe_env *pe, char **dirs, struct snap_node *host)
{
	struct snap_node *cd = snap_object(host, "containerd");

	find_binary(pe, dirs, cd, "containerd", "containerd");
	probe_containerd_config(pe, cd, "/etc/containerd/config.toml");
}

/* K3s runs the containerd built into it, which reads the config.toml K3s writes at every
 * start under its agent directory, not /etc/containerd/config.toml; K3s adds the nvidia
 * runtimes it finds (nvidia-container-runtime in /usr/bin, /usr/local/nvidia/toolkit), not as
 * the default runtime, and takes config.toml.tmpl, a Go template beside it, in place of its
 * own template (docs.k3s.io "Advanced Options and Configuration": "Configuring containerd",
 * "NVIDIA Container Runtime Support"). The template is recorded as there or not: it is not
 * TOML. Nothing recorded without K3s (no /var/lib/rancher/k3s, no k3s binary). */
#define K3S_CONTAINERD "/var/lib/rancher/k3s/agent/etc/containerd"

static void probe_k3s(struct probe_env *pe, char **dirs, struct snap_node *host)
{
	struct snap_node *k3s;
	struct stat st;
	int r = root_stat(pe->root, "/var/lib/rancher/k3s", &st), rb = 0;

	if (r < 0)
		rb = root_stat(pe->root, "/usr/local/bin/k3s", &st);
	if (r < 0 && rb < 0) {
		/* neither there: no K3s; one that could not be looked at is said so, not as none */
		if (r != -ENOENT && r != -ENOTDIR)
			snap_set_errno(host, "k3s", r, "/var/lib/rancher/k3s");
		else if (rb != -ENOENT && rb != -ENOTDIR)
			snap_set_errno(host, "k3s", rb, "/usr/local/bin/k3s");
		return;
	}
	k3s = snap_object(host, "k3s");
	find_binary(pe, dirs, k3s, "k3s", "k3s");
	probe_containerd_config(pe, snap_object(k3s, "containerd"), K3S_CONTAINERD "/config.toml");
	host_file_fact(pe, k3s, "config_template", K3S_CONTAINERD "/config.toml.tmpl");
}

/* ---- kubelet: its runtime endpoint and device plugins ----------------------------- */

#define KUBELET_CONFIG "/var/lib/kubelet/config.yaml"

/* Where the last --container-runtime-endpoint of kubelet's expanded command line came from:
 * the variable whose value holds it, else the ExecStart= line itself. */
struct kubelet_cmd {
	size_t flag_at; /* where the last flag name begins in the expanded line */
	const struct unit_env_var *from;
	bool unknown; /* a variable used is cut short or holds a systemd specifier */
};

static void kubelet_var_used(void *userdata, const struct unit_env_var *v, size_t at, size_t end)
{
	struct kubelet_cmd *c = userdata;

	if (v->truncated || v->expands)
		c->unknown = true;
	if (c->flag_at >= at && c->flag_at < end)
		c->from = v;
}

static size_t last_flag(const char *s)
{
	static const char flag[] = "--container-runtime-endpoint";
	size_t at = SIZE_MAX;

	for (const char *p = s; (p = strstr(p, flag)); p++)
		at = (size_t)(p - s);
	return at;
}

/* kubelet's command line where systemd starts it: the last ExecStart= of kubelet.service and
 * its drop-ins with the variables of their Environment= and EnvironmentFile= lines replaced.
 * kubeadm's drop-in (kubernetes.io "Configuring each kubelet in your cluster using kubeadm",
 * "The kubelet drop-in file for systemd"; kubernetes/release cmd/krel/templates/…/
 * 10-kubeadm.conf) resets ExecStart= to "/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS
 * $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS", the last two from
 * EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env and -/etc/default/kubelet (or
 * /etc/sysconfig/kubelet); other installers put the flag on ExecStart= or in an Environment=.
 * The last --container-runtime-endpoint wins (spf13/pflag). 1 where the fact was recorded,
 * 0 where the command line names none (config.yaml then decides), -ENOENT without a unit,
 * -ENOMEM. */
static int kubelet_unit_endpoint(struct probe_env *pe, struct snap_node *kl)
{
	_cleanup_strv_free_ char **paths = NULL;
	_cleanup_free_ char *bad = NULL, *line = NULL;
	struct service_unknown u = { 0 };
	struct kubelet_cmd c = { 0 };
	struct unit_env *e;
	char ep[KUBE_ENDPOINT_MAX], src[4200];
	const size_t line_max = UNIT_LINE_MAX + UNIT_ENV_MAX * UNIT_ENV_VALUE_MAX;
	const char *badp = NULL;
	int r = service_unit_files(pe, "kubelet.service", &paths, &bad);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		snap_set_errno(kl, "runtime_endpoint", r, bad);
		return 1;
	}
	if (!paths)
		return -ENOENT;
	r = service_unit_parse(pe, paths, &e, &badp);
	if (r < 0) {
		if (r != -ENOMEM)
			snap_set_errno(kl, "runtime_endpoint", r, badp);
		return r == -ENOMEM ? r : 1;
	}
	if ((r = service_env_files(pe, e, &paths, &u)) < 0 || !(line = malloc(line_max))) {
		free(e);
		return -ENOMEM;
	}
	snprintf(src, sizeof(src), "%s:%llu", paths[e->exec_file],
		 (unsigned long long)e->exec_line);
	if (u.any)
		snap_set_state(kl, "runtime_endpoint", FACT_UNPROBED, u.src, u.why);
	else if (e->bad_lines) {
		snprintf(src, sizeof(src), "%s:%llu", paths[e->bad_file],
			 (unsigned long long)e->bad_line);
		snap_set_malformed(kl, "runtime_endpoint", NULL, src,
				   "an Environment= line systemd may read otherwise");
	} else if (e->execs != 1)
		snap_set_malformed(kl, "runtime_endpoint", NULL, e->execs ? src : paths[0],
				   e->execs ? "more than one ExecStart= (systemd starts only a "
					      "Type=oneshot service so)"
					    : "no ExecStart= (systemd does not start the service)");
	else {
		/* the flag's place first, then the variable that put it there */
		r = unit_env_expand(e, e->exec, line, line_max, NULL, NULL);
		if (r == 0) {
			c.flag_at = last_flag(line);
			r = unit_env_expand(e, e->exec, line, line_max, kubelet_var_used, &c);
		}
		if (c.from)
			snprintf(src, sizeof(src), "%s:%llu", paths[c.from->file],
				 (unsigned long long)c.from->line);
		r = r < 0 ? r : kube_flag_endpoint(line, strlen(line), ep, sizeof(ep));
		if (r == 0 && !c.unknown) {
			free(e);
			return 0;
		}
		if (c.unknown)
			snap_set_state(kl, "runtime_endpoint", FACT_UNPROBED, src,
				       "a variable of ExecStart= is longer than read or holds a "
				       "systemd specifier");
		else if (r > 0)
			snap_set_str(kl, "runtime_endpoint", ep, src);
		else if (r < 0)
			snap_set_malformed(kl, "runtime_endpoint", NULL, src,
					   r == -E2BIG ? "the command line or endpoint is too long"
						       : "a quote is not closed");
	}
	free(e);
	return 1;
}

/* The container runtime kubelet is told to use (what decides whether containerd's CRI plugin
 * runs this node's pods). Where systemd starts kubelet, its unit's command line
 * (kubelet_unit_endpoint()), else config.yaml. Without a unit file (another service manager,
 * a copied tree), the flag files kubeadm's drop-in reads: the users' last (/etc/default/kubelet,
 * /etc/sysconfig/kubelet: KUBELET_EXTRA_ARGS comes last on kubeadm's ExecStart line), then
 * kubeadm's, then the config file kubeadm writes (containerRuntimeEndpoint, Kubernetes 1.27
 * and later; the path kubeadm's --config names, not another). A file that could not be read
 * might name it: the fact is that file's error, not the next file's answer. */
static void probe_kubelet_endpoint(struct probe_env *pe, struct snap_node *kl, int lib_err)
{
	static const char *const files[] = { "/etc/default/kubelet", "/etc/sysconfig/kubelet",
					     "/var/lib/kubelet/kubeadm-flags.env", KUBELET_CONFIG };
	char ep[KUBE_ENDPOINT_MAX], why[256];
	int unit = kubelet_unit_endpoint(pe, kl);

	if (unit == 1 || unit == -ENOMEM)
		return;
	for (size_t i = unit == 0 ? ARRAY_SIZE(files) - 1 : 0; i < ARRAY_SIZE(files); i++) {
		_cleanup_free_ char *text = NULL;
		size_t len;
		int r;

		/* /var/lib/kubelet (lib_err: its stat) could not be looked into: its files might
		 * name the endpoint */
		if (i >= 2 && lib_err < 0) {
			if (lib_err != -ENOENT && lib_err != -ENOTDIR) {
				snap_set_errno(kl, "runtime_endpoint", lib_err, "/var/lib/kubelet");
				return;
			}
			break;
		}
		r = root_read_file(pe->root, files[i], 1 << 20, &text, &len);
		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (r < 0) {
			snap_set_errno(kl, "runtime_endpoint", r, files[i]);
			return;
		}
		if (i == ARRAY_SIZE(files) - 1) {
			r = kube_yaml_endpoint(text, len, "containerRuntimeEndpoint", ep,
					       sizeof(ep), why, sizeof(why));
			if (r == -ENOMEM)
				return;
		} else {
			r = kube_flag_endpoint(text, len, ep, sizeof(ep));
			snprintf(why, sizeof(why), "%s",
				 r == -E2BIG ? "the endpoint is too long"
					     : "a quote is not closed");
		}
		if (r > 0) {
			snap_set_str(kl, "runtime_endpoint", ep, files[i]);
			return;
		}
		if (r < 0) {
			snap_set_malformed(kl, "runtime_endpoint", NULL, files[i], why);
			return;
		}
	}
	if (unit == 0)
		snap_set_state(kl, "runtime_endpoint", FACT_ABSENT, KUBELET_CONFIG,
			       "neither kubelet.service's command line nor config.yaml names it "
			       "(kubelet's default applies)");
	else
		snap_set_state(kl, "runtime_endpoint", FACT_ABSENT, "/var/lib/kubelet",
			       "no kubelet flag file or config.yaml names it (kubelet's default "
			       "applies)");
}

/* crictl's runtime endpoint (/etc/crictl.yaml, kubernetes-sigs/cri-tools docs/crictl.md);
 * nothing recorded without the file (crictl then tries its default list of sockets). */
static void probe_crictl(struct probe_env *pe, struct snap_node *host)
{
	static const char path[] = "/etc/crictl.yaml";
	_cleanup_free_ char *text = NULL;
	struct snap_node *cc;
	char ep[KUBE_ENDPOINT_MAX], why[256];
	size_t len;
	int r = root_read_file(pe->root, path, KUBE_YAML_MAX_INPUT, &text, &len);

	if (r == -ENOENT || r == -ENOTDIR)
		return;
	cc = snap_object(host, "crictl");
	if (r < 0) {
		snap_set_errno(cc, "runtime_endpoint", r, path);
		return;
	}
	r = kube_yaml_endpoint(text, len, "runtime-endpoint", ep, sizeof(ep), why, sizeof(why));
	if (r > 0)
		snap_set_str(cc, "runtime_endpoint", ep, path);
	else if (r == 0)
		snap_set_state(cc, "runtime_endpoint", FACT_ABSENT, path, "not set");
	else if (r != -ENOMEM)
		snap_set_malformed(cc, "runtime_endpoint", NULL, path, why);
}

/* The resources device plugins registered with this node's kubelet: the device manager's
 * checkpoint (kubernetes pkg/kubelet/cm/devicemanager/checkpoint: {"Data": {"PodDeviceEntries":
 * …, "RegisteredDevices": {"<resource>": [device ids]}}, "Checksum": …}). No nvidia.com/gpu
 * there means no NVIDIA device plugin has offered this node's GPUs to Kubernetes. */
static void probe_kubelet(struct probe_env *pe, char **dirs, struct snap_node *host)
{
	static const char path[] = "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint";
	struct snap_node *kl, *arr;
	const char *res;
	json_t *j, *reg, *devs;
	struct stat st;
	char bin[PATH_MAX];
	int rd = root_stat(pe->root, "/var/lib/kubelet", &st);

	/* No kubelet binary and no /var/lib/kubelet: no Kubernetes node (most machines), nothing
	 * recorded. */
	if ((rd == -ENOENT || rd == -ENOTDIR) && locate_binary(pe, dirs, "kubelet", bin) == -ENOENT)
		return;
	kl = snap_object(host, "kubelet");
	find_binary(pe, dirs, kl, "kubelet", "kubelet");
	probe_kubelet_endpoint(pe, kl, rd);
	/* No checkpoint: no kubelet device manager has run here; not recorded. */
	if (root_stat(pe->root, path, &st) == -ENOENT)
		return;
	j = load_json_object(pe, kl, "device_checkpoint", path);
	if (!j)
		return;
	reg = json_object_get(json_object_get(j, "Data"), "RegisteredDevices");
	/* null: kubelet's encoding of an empty map */
	if (!reg || !(json_is_object(reg) || json_is_null(reg))) {
		snap_set_malformed(kl, "device_checkpoint", NULL, path,
				   "no Data.RegisteredDevices object");
		json_decref(j);
		return;
	}
	snap_set_str(kl, "device_checkpoint", path, path);
	arr = snap_array(kl, "registered_resources");
	json_object_foreach(reg, res, devs)
		snap_append_str(arr, res, path);
	json_decref(j);
}

/* ---- cgroups and /dev/char ------------------------------------------------------ */

/* cgroup v2: the unified hierarchy's root has cgroup.controllers (kernel
 * Documentation/admin-guide/cgroup-v2.rst); true or false only where /sys/fs/cgroup is there
 * to be looked at (a tree without it says nothing of the version: nothing recorded). */
static void probe_cgroup_version(struct probe_env *pe, struct snap_node *host)
{
	struct stat st;
	int r = root_stat(pe->root, "/sys/fs/cgroup", &st);

	if (r == -ENOENT || r == -ENOTDIR)
		return; /* nothing recorded: no cgroup file system to look at (a bare tree) */
	if (r < 0)
		snap_set_errno(host, "cgroup_v2", r, "/sys/fs/cgroup");
	else
		host_file_fact(pe, host, "cgroup_v2", "/sys/fs/cgroup/cgroup.controllers");
}

/* ---- rootless engines -------------------------------------------------------------- */

/* The identity map of the initial user namespace (user_namespaces(7)): "0 0 4294967295". */
static bool uid_map_is_initial(const char *text)
{
	unsigned long long in, out, len;
	int n = 0;

	if (sscanf(text, "%llu %llu %llu %n", &in, &out, &len, &n) != 3)
		return false;
	return in == 0 && out == 0 && len == 4294967295ULL && text[n] == '\0';
}

/* Whether this tree's engines run without real root, which can set no device cgroup (the
 * device controller of cgroup v1, the BPF device programs of v2: "The bpf device cgroup
 * requires real root", lxc/lxc#3199):
 *   - user_namespace: /proc/self/uid_map is not the initial namespace's identity map, as in an
 *     unprivileged LXC container with Docker inside (NVIDIA/libnvidia-container#154,
 *     nvidia-container-runtime#25, which added no-cgroups for "unprivileged LXC");
 *   - docker_sockets: rootless Docker's daemon sockets, $XDG_RUNTIME_DIR/docker.sock, that is
 *     /run/user/<uid>/docker.sock (docs.docker.com "Run the Docker daemon as a non-root user
 *     (Rootless mode)"); the /run/user/<uid> directories this user may not enter are listed
 *     as runtime_dirs_unreadable (another user's engine is not seen there), not passed over;
 *   - docker_host: $DOCKER_HOST, which the same page has the user export to reach it.
 * Nothing recorded where the tree has no /proc/self/uid_map, no /run/user, no DOCKER_HOST. */
static void probe_rootless(struct probe_env *pe, struct snap_node *host)
{
	static const char map[] = "/proc/self/uid_map";
	_cleanup_strv_free_ char **uids = NULL;
	_cleanup_free_ char *text = NULL;
	const char *dh = env_get(pe->env, "DOCKER_HOST");
	struct snap_node *rl = NULL, *arr = NULL, *skipped = NULL;
	char path[PATH_MAX];
	struct stat st;
	unsigned uid;
	int r;

#define RL() (rl ?: (rl = snap_object(host, "rootless")))
	r = root_read_text(pe->root, map, ROOT_CAP_TEXT, &text);
	if (r == 0)
		snap_set_bool(RL(), "user_namespace", !uid_map_is_initial(text), map);
	else if (r != -ENOENT && r != -ENOTDIR)
		snap_set_errno(RL(), "user_namespace", r, map);
	if (dh && *dh)
		snap_set_str(RL(), "docker_host", dh, "environment");
	r = root_list_dir(pe->root, "/run/user", 4096, &uids);
	if (r == -ENOENT || r == -ENOTDIR)
		return;
	if (r < 0) {
		snap_set_errno(RL(), "docker_sockets", r, "/run/user");
		return;
	}
	STRV_FOREACH(u, uids) {
		if (parse_uint(*u, 10, &uid) < 0)
			continue;
		snprintf(path, sizeof(path), "/run/user/%u/docker.sock", uid);
		r = root_lstat(pe->root, path, &st);
		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		/* another user's 0700 runtime directory: said as not looked into, not as none */
		if (r == -EACCES) {
			if (!skipped)
				skipped = snap_array(RL(), "runtime_dirs_unreadable");
			snap_append_str(skipped, path, path);
			continue;
		}
		if (r < 0) {
			snap_set_errno(RL(), "docker_sockets", r, path);
			return;
		}
		if (!arr)
			arr = snap_array(RL(), "docker_sockets");
		snap_append_str(arr, path, path);
	}
#undef RL
}

/* ---- the docker CLI's context ------------------------------------------------------ */

/* Which daemon `docker` talks to, as docker/cli resolves it (cli/command/cli.go
 * resolveContextName()): $DOCKER_HOST names one outright (the "default" context), else
 * $DOCKER_CONTEXT, else "currentContext" in $DOCKER_CONFIG/config.json (~/.docker by default),
 * else "default", the system daemon. A context's endpoint is in
 * contexts/meta/<digest of its name>/meta.json ({"Name": …, "Endpoints": {"docker": {"Host":
 * …}}}, cli/context/store/metadatastore.go), found here by its "Name". Docker Desktop for Linux
 * runs its engine in a VM and makes its own context, desktop-linux (endpoint
 * ~/.docker/desktop/docker.sock), the current one when it starts (docs.docker.com, "Docker
 * Desktop for Linux": "Docker Desktop and Docker Engine"); its package installs into
 * /opt/docker-desktop. Facts under docker_cli: current_context, context_host (with where each
 * was read), docker_desktop (/opt/docker-desktop there). Nothing recorded where $DOCKER_HOST is
 * set (the rootless facts keep it), nor where there is no config.json and no DOCKER_CONTEXT
 * (the default context). */
static void probe_context_host(struct probe_env *pe, struct snap_node *cli, const char *dir,
			       const char *name)
{
	_cleanup_strv_free_ char **metas = NULL;
	char meta_dir[PATH_MAX], path[PATH_MAX + 96], unread[PATH_MAX + 96] = "";
	int r, unread_err = 0;

	if (snprintf(meta_dir, sizeof(meta_dir), "%s/contexts/meta", dir) >= (int)sizeof(meta_dir))
		return;
	r = root_list_dir(pe->root, meta_dir, 4096, &metas);
	if (r < 0) {
		snap_set_errno(cli, "context_host", r, meta_dir);
		return;
	}
	STRV_FOREACH(m, metas) {
		_cleanup_free_ char *text = NULL;
		size_t len;
		json_t *j, *n, *h;
		int e;

		snprintf(path, sizeof(path), "%s/%s/meta.json", meta_dir, *m);
		e = root_read_file(pe->root, path, ROOT_CAP_TEXT, &text, &len);
		if (e < 0) {
			/* another context's file unread: the one named may be it */
			if (e != -ENOENT && e != -ENOTDIR && !unread[0]) {
				unread_err = e;
				snprintf(unread, sizeof(unread), "%s", path);
			}
			continue;
		}
		j = json_loadb(text, len, 0, NULL);
		n = json_object_get(j, "Name");
		h = json_object_get(json_object_get(json_object_get(j, "Endpoints"), "docker"),
				    "Host");
		if (json_is_string(n) && streq(json_string_value(n), name)) {
			if (json_is_string(h))
				snap_set_str(cli, "context_host", json_string_value(h), path);
			else
				snap_set_malformed(cli, "context_host", NULL, path,
						   "no Endpoints.docker.Host string");
			json_decref(j);
			return;
		}
		json_decref(j);
	}
	if (unread[0]) {
		snap_set_errno(cli, "context_host", unread_err, unread);
		return;
	}
	snap_set_state(cli, "context_host", FACT_ABSENT, meta_dir, "no context of that name");
}

static void probe_docker_cli(struct probe_env *pe, struct snap_node *host)
{
	const char *dh = env_get(pe->env, "DOCKER_HOST");
	const char *dc = env_get(pe->env, "DOCKER_CONTEXT");
	const char *cfg = env_get(pe->env, "DOCKER_CONFIG");
	const char *home = env_get(pe->env, "HOME");
	struct snap_node *cli;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct stat st;
	json_t *j = NULL, *cur;
	int r, e;

	if (dh && *dh)
		return;
	if (cfg && *cfg)
		snprintf(dir, sizeof(dir), "%s", cfg);
	else if (home && *home == '/')
		snprintf(dir, sizeof(dir), "%s/.docker", streq(home, "/") ? "" : home);
	else if (!dc || !*dc)
		return;
	else
		dir[0] = '\0';
	snprintf(path, sizeof(path), "%s/config.json", dir);
	r = dir[0] ? root_stat(pe->root, path, &st) : -ENOENT;
	/* neither a config.json nor DOCKER_CONTEXT: the default context, nothing to record */
	if ((r == -ENOENT || r == -ENOTDIR) && (!dc || !*dc))
		return;
	cli = snap_object(host, "docker_cli");
	e = root_lstat(pe->root, "/opt/docker-desktop", &st);
	if (e == 0)
		snap_set_bool(cli, "docker_desktop", S_ISDIR(st.st_mode), "/opt/docker-desktop");
	else if (e == -ENOENT || e == -ENOTDIR)
		snap_set_bool(cli, "docker_desktop", false, "/opt/docker-desktop");
	else
		snap_set_errno(cli, "docker_desktop", e, "/opt/docker-desktop");
	if (dc && *dc) {
		snap_set_str(cli, "current_context", dc, "environment");
	} else {
		j = load_json_object(pe, cli, "current_context", path);
		if (!j)
			return;
		cur = json_object_get(j, "currentContext");
		if (json_is_string(cur) && *json_string_value(cur))
			snap_set_str(cli, "current_context", json_string_value(cur), path);
		else if (!cur || json_is_string(cur))
			snap_set_state(cli, "current_context", FACT_ABSENT, path,
				       "no currentContext: the default context");
		else
			snap_set_malformed(cli, "current_context", NULL, path,
					   "currentContext is not a string");
		json_decref(j);
	}
	{
		const struct snap_node *c = snap_get(cli, "current_context");
		const char *name = snap_present(c) ? snap_str(c) : NULL;

		if (name && !streq(name, "default") && dir[0])
			probe_context_host(pe, cli, dir, name);
	}
}

/* The /dev/nvidia* character nodes with no /dev/char/MAJOR:MINOR: runc's systemd cgroup driver
 * names each device it allows by that path, and skips the ones missing there, so systemd's
 * rules for the container leave the GPU out and a `systemctl daemon-reload` that reapplies
 * them takes it away (opencontainers/runc#3708; NVIDIA/nvidia-docker#1730). Nothing recorded
 * without NVIDIA nodes, nor without /dev/char (a tree udev never filled says nothing). */
static void probe_dev_char(struct probe_env *pe, struct snap_node *host)
{
	_cleanup_strv_free_ char **dev = NULL;
	struct snap_node *arr = NULL;
	struct stat st;
	size_t nodes = 0;
	int r;

	if (root_list_dir(pe->root, "/dev", ROOT_DIR_MAX_ENTRIES, &dev) < 0)
		return; /* the driver's device_nodes say why */
	r = root_stat(pe->root, "/dev/char", &st);
	STRV_FOREACH(n, dev) {
		char node[PATH_MAX], link[64];
		int e;

		if (!startswith(*n, "nvidia"))
			continue;
		snprintf(node, sizeof(node), "/dev/%s", *n);
		if (root_stat(pe->root, node, &st) < 0 || !S_ISCHR(st.st_mode))
			continue;
		nodes++;
		if (r < 0)
			continue;
		snprintf(link, sizeof(link), "/dev/char/%u:%u", major(st.st_rdev),
			 minor(st.st_rdev));
		e = root_stat(pe->root, link, &st);
		if (e < 0 && e != -ENOENT && e != -ENOTDIR) {
			snap_set_errno(host, "dev_char_missing", e, link);
			return;
		}
		if (!arr)
			arr = snap_array(host, "dev_char_missing");
		if (e < 0)
			snap_append_str(arr, node, link);
	}
	/* no /dev/char at all: a tree udev never filled, nothing recorded (as without nodes) */
	if (nodes && r < 0 && r != -ENOENT && r != -ENOTDIR)
		snap_set_errno(host, "dev_char_missing", r, "/dev/char");
}

/* ---- CDI specs ----------------------------------------------------------------- */

static bool is_uuid_name(const char *n)
{
	return startswith(n, "GPU-") || startswith(n, "MIG-");
}

/* The host files the spec mounts that are gone: a runtime stats every mount source before
 * the container starts (crun: "cannot stat `…`: No such file or directory"), so one missing
 * file, a driver library of an older version or an EGL library a package update renamed,
 * stops every container that asks for the device. A source that cannot be checked for
 * another reason makes the list a fact in error: could not tell, not "none missing". */
static void probe_cdi_host_paths(struct probe_env *pe, struct snap_node *o, const char *path,
				 const struct cdi_spec *spec)
{
	_cleanup_strv_free_ char **missing = NULL;
	const char *unchecked = NULL;
	struct snap_node *arr;
	int uerr = 0;

	STRV_FOREACH(h, spec->host_paths) {
		struct stat st;
		int err = root_stat(pe->root, *h, &st);

		if (err == -ENOENT || err == -ENOTDIR) {
			if (strv_push(&missing, *h) < 0) {
				snap_set_errno(o, "host_paths_missing", -ENOMEM, path);
				return;
			}
		} else if (err < 0 && !unchecked) {
			unchecked = *h;
			uerr = err;
		}
	}
	if (unchecked) {
		snap_set_errno(o, "host_paths_missing", uerr, unchecked);
		return;
	}
	arr = snap_array(o, "host_paths_missing");
	STRV_FOREACH(m, missing)
		snap_append_str(arr, *m, path);
	snap_set_int(o, "host_paths", (int64_t)strv_length(spec->host_paths), path);
	if (spec->host_paths_capped)
		snap_set_bool(o, "host_paths_capped", true, path);
}

static void probe_cdi_file(struct probe_env *pe, struct snap_node *o, const char *path)
{
	_cleanup_(cdi_spec_freep) struct cdi_spec *spec = NULL;
	_cleanup_free_ char *text = NULL;
	struct snap_node *devs, *uuids;
	struct cdi_error cerr;
	size_t len;
	int err;

	snap_set_str(o, "path", path, path);
	err = root_read_file(pe->root, path, CDI_MAX_INPUT, &text, &len);
	if (err < 0) {
		snap_set_errno(o, "format", err, path);
		return;
	}
	err = cdi_spec_parse(text, len, &spec, &cerr);
	if (err == -ENOMEM) {
		snap_set_errno(o, "format", err, path);
		return;
	}
	if (err < 0) {
		snap_set_malformed(o, "format", text, path, cerr.why);
		return;
	}
	snap_set_str(o, "format", spec->json ? "json" : "yaml", path);
	snap_set_str_or_absent(o, "cdi_version", spec->cdi_version, path, "no cdiVersion");
	snap_set_str_or_absent(o, "kind", spec->kind, path, "no kind");
	/* Names that are GPU/MIG UUIDs go to their own list, which --redact hides. */
	devs = snap_array(o, "devices");
	uuids = snap_array(o, "device_uuids");
	STRV_FOREACH(n, spec->devices)
		snap_append_str(is_uuid_name(*n) ? uuids : devs, *n, path);
	if (spec->driver_version) {
		snap_set_str(o, "driver_version", spec->driver_version, path);
		snap_set_str(o, "driver_version_source", spec->driver_version_source, path);
	} else {
		snap_set_state(o, "driver_version", FACT_ABSENT, path,
			       "no versioned driver library or host-driver-version hook");
	}
	probe_cdi_host_paths(pe, o, path, spec);
}

static void probe_cdi(struct probe_env *pe, struct snap_node *host, const char *snap_dir)
{
	const char *const dirs[] = { "/etc/cdi", "/var/run/cdi", snap_dir };
	struct snap_node *arr = snap_array(host, "cdi_specs");

	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		if (!dirs[d] || !dirs[d][0])
			continue;
		_cleanup_strv_free_ char **names = NULL;
		int err = root_list_dir(pe->root, dirs[d], 4096, &names);

		if (err == -ENOENT || err == -ENOTDIR)
			continue;
		if (err < 0) {
			struct snap_node *o = snap_append_object(arr);

			snap_set_str(o, "path", dirs[d], dirs[d]);
			snap_set_errno(o, "format", err, dirs[d]);
			continue;
		}
		STRV_FOREACH(n, names) {
			const char *dot = strrchr(*n, '.');
			char path[PATH_MAX];

			/* The CDI registry loads *.json and *.yaml (pkg/cdi spec-dirs.go). */
			if (!dot || (!streq(dot, ".yaml") && !streq(dot, ".json")))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[d], *n);
			probe_cdi_file(pe, snap_append_object(arr), path);
		}
	}
}

int probe_container_host(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	static const char *const bins[] = { "nvidia-ctk",
					    "nvidia-container-cli",
					    "nvidia-container-runtime",
					    "nvidia-container-runtime-hook",
					    "nvidia-cdi-hook",
					    "nvidia-container-toolkit" };
	static const char *const pkgs[] = { "nvidia-container-toolkit",
					    "nvidia-container-toolkit-base",
					    "libnvidia-container-tools", "libnvidia-container1" };
	static const char *const engines[] = { "podman" };
	struct snap_node *host = snap_object(snap_object(snapshot_root(s), "container"), "host");
	struct snap_node *tk = snap_object(host, "toolkit");
	struct snap_node *b = snap_object(tk, "binaries");
	_cleanup_strv_free_ char **dirs = NULL;
	char snap_cdi[PATH_MAX + 16] = "";
	int r = search_dirs(pe, &dirs);

	if (r < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(bins); i++)
		find_binary(pe, dirs, b, bins[i], bins[i]);
	probe_packages(pe, snap_object(tk, "packages"), pkgs, ARRAY_SIZE(pkgs));
	probe_libnvc(pe, tk);
	probe_toolkit_config(pe, tk);
	probe_docker(pe, dirs, host);
	probe_docker_snap(pe, host, snap_cdi, sizeof(snap_cdi));
	probe_containerd(pe, dirs, host);
	probe_k3s(pe, dirs, host);
	probe_kubelet(pe, dirs, host);
	probe_crictl(pe, host);
	probe_cgroup_version(pe, host);
	probe_rootless(pe, host);
	probe_docker_cli(pe, host);
	probe_dev_char(pe, host);
	probe_cdi(pe, host, snap_cdi);
	/* only a CDI spec's loading depends on the engine's release */
	if (snap_count(snap_get(host, "cdi_specs")) > 0)
		probe_engine_packages(pe, snap_object(host, "engine_packages"), engines,
				      ARRAY_SIZE(engines));
	return snapshot_error(s);
}
