// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Are we inside a container, and which GPUs can it see? Markers, each recorded with its
 * source: /.dockerenv (created by Docker in every container), /run/.containerenv (Podman,
 * containers/common docs), /proc/1/cgroup lines naming docker/kubepods/containerd/libpod
 * (cgroups(7) format "hierarchy-ID:controllers:path"), and an overlay root in
 * /proc/self/mountinfo (proc(5): field 5 is the mount point, the fs type follows " - ").
 * The GPU requests come from the environment overlay (NVIDIA container toolkit variables,
 * docs.nvidia.com/datacenter/cloud-native "Specialized configurations with Docker":
 * NVIDIA_VISIBLE_DEVICES all / none / void / empty / a list; NVIDIA_REQUIRE_CUDA, a
 * logical expression whose space-separated terms are ORed and comma-separated constraints
 * ANDed, each "name op value" with name cuda/driver/arch/brand and op = != < <= > >=, as
 * libnvidia-container src/cli/dsl.c evaluates it: facts/nv-require.h).
 * What was injected: the /dev/nvidia* character devices, and the driver libraries
 * libcuda.so.1 / libnvidia-ml.so.1 in the directories the toolkit injects into
 * (/usr/lib/x86_64-linux-gnu, /usr/lib64, /usr/local/nvidia/lib64), each with the driver
 * version its link target's file name carries. Only file names are read here: which copy
 * the dynamic loader would pick is the loader emulation's question (probe/loader.c).
 * Inside a container /proc/driver/nvidia/version shows the host's kernel module (the
 * driver probe records it), so the two versions can be compared by the rules.
 * Writes "container" (the host side is probe-container-host.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "facts/nv-require.h"
#include "formats/cdi-spec.h"
#include "probe.h"
#include "shared/path-util.h"
#include "shared/strv.h"

static void probe_cgroup(struct probe_env *pe, struct snap_node *c)
{
	static const char path[] = "/proc/1/cgroup";
	static const char *const engines[] = { "kubepods", "docker", "containerd", "libpod",
					       "lxc" };
	_cleanup_free_ char *text = NULL;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(c, "cgroup_engine", err, path);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		if (strstr(text, engines[i])) {
			snap_set_str(c, "cgroup_engine", engines[i], path);
			return;
		}
	/* cgroup v2 inside a namespace shows "0::/": no engine named, not proof of a host. */
	snap_set_state(c, "cgroup_engine", FACT_ABSENT, path,
		       "no container engine in cgroup paths");
}

/*
 * The engine whose storage holds the overlay mounted as /, from its mount options (the
 * "super options" after " - fstype source", proc(5)): each engine keeps its layers in a
 * directory of its own, so the lowerdir/upperdir paths name it. Docker: data-root
 * /var/lib/docker (docs.docker.com, "OverlayFS storage driver": /var/lib/docker/overlay2;
 * with the containerd image store under /var/lib/docker/containerd); containerd, as CRI
 * runtime of Kubernetes and k3s: its overlayfs snapshotter plugin
 * io.containerd.snapshotter.v1.overlayfs; containers/storage of Podman, CRI-O and Buildah:
 * storage.conf(5) graphroot /var/lib/containers/storage, rootless
 * $HOME/.local/share/containers/storage, layers under overlay/.
 */
static const char *overlay_engine(const char *opts)
{
	static const char *const engines[][2] = {
		{ "/var/lib/docker/", "docker" },
		{ "io.containerd.snapshotter.v1.overlayfs", "containerd" },
		{ "/containers/storage/overlay", "containers/storage (podman, cri-o)" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		if (strstr(opts, engines[i][0]))
			return engines[i][1];
	return NULL;
}

static void probe_mountinfo(struct probe_env *pe, struct snap_node *c)
{
	static const char path[] = "/proc/self/mountinfo";
	_cleanup_free_ char *text = NULL;
	char *state, *line;
	int err = root_read_text(pe->root, path, ROOT_CAP_TEXT, &text);

	if (err < 0) {
		snap_set_errno(c, "root_fs_type", err, path);
		snap_set_errno(c, "overlay_engine", err, path);
		return;
	}
	state = text;
	while ((line = line_next(&state))) {
		_cleanup_strv_free_ char **f = NULL, **tail = NULL;
		char *sep = strstr(line, " - ");
		const char *engine;

		if (!sep || strv_split(line, " ", &f) < 0 || strv_length(f) < 5)
			continue;
		if (strcmp(f[4], "/") != 0)
			continue;
		if (strv_split(sep + 3, " ", &tail) < 0 || strv_length(tail) < 1)
			continue;
		snap_set_str(c, "root_fs_type", tail[0], path);
		engine = strv_length(tail) >= 3 && streq(tail[0], "overlay")
				 ? overlay_engine(tail[2])
				 : NULL;
		if (engine)
			snap_set_str(c, "overlay_engine", engine, path);
		else
			snap_set_state(c, "overlay_engine", FACT_ABSENT, path,
				       "/ is no overlay of a known engine's storage");
		return;
	}
	snap_set_malformed(c, "root_fs_type", NULL, path, "no mount of /");
	snap_set_malformed(c, "overlay_engine", NULL, path, "no mount of /");
}

/*
 * A cgroup namespace: on cgroup v2 /proc/1/cgroup reads "0::/" inside a container and names
 * no engine, but the container's /sys/fs/cgroup is a nested cgroup, which has a cgroup.type
 * file the root cgroup never has (kernel Documentation/admin-guide/cgroup-v2.rst: "exists on
 * non-root cgroups"; systemd's detect-virt, src/basic/virt.c running_in_cgroupns(), reads it
 * so and calls the machine "container-other"). On cgroup v1 /sys/fs/cgroup is a tmpfs
 * without it: there its absence says nothing.
 */
static void probe_cgroup_namespace(struct probe_env *pe, struct snap_node *c)
{
	static const char path[] = "/sys/fs/cgroup/cgroup.type";
	struct stat st;
	int err = root_stat(pe->root, path, &st);

	if (err == -ENOENT)
		snap_set_state(c, "cgroup_nested", FACT_ABSENT, path,
			       "no cgroup.type: the root cgroup, or cgroup v1");
	else if (err < 0)
		snap_set_errno(c, "cgroup_nested", err, path);
	else
		snap_set_bool(c, "cgroup_nested", true, path);
}

/* NVIDIA_VISIBLE_DEVICES → all / none / void / empty / list (+ how many entries). */
static void probe_visible_request(struct probe_env *pe, struct snap_node *c)
{
	static const char src[] = "environment NVIDIA_VISIBLE_DEVICES";
	const char *v = env_get(pe->env, "NVIDIA_VISIBLE_DEVICES");
	_cleanup_strv_free_ char **list = NULL;

	if (!v) {
		snap_set_state(c, "visible_devices_mode", FACT_ABSENT, src, "not set");
		return;
	}
	if (streq(v, "all") || streq(v, "none") || streq(v, "void")) {
		snap_set_str(c, "visible_devices_mode", v, src);
		return;
	}
	if (!*v) {
		snap_set_str(c, "visible_devices_mode", "empty", src);
		return;
	}
	if (strv_split(v, ",", &list) < 0)
		return;
	snap_set_str(c, "visible_devices_mode", "list", src);
	snap_set_int(c, "visible_devices_count", (int64_t)strv_length(list), src);
}

/*
 * NVIDIA_REQUIRE_CUDA "cuda>=12.4 brand=tesla,driver>=470,driver<471" →
 * require_cuda.alternatives[] {expression, constraints[] {name, op, value}} and
 * require_cuda.cuda_min (the value of the first cuda>= constraint), split as
 * nvidia-container-cli splits it (facts/nv-require.h, the parser the container rules judge
 * the same variable with).
 */
static void probe_require_cuda(struct probe_env *pe, struct snap_node *c)
{
	static const char src[] = "environment NVIDIA_REQUIRE_CUDA";
	const char *v = env_get(pe->env, "NVIDIA_REQUIRE_CUDA");
	struct nv_require nr;
	struct snap_node *req, *arr;
	bool have_min = false;
	int err;

	if (!v) {
		snap_set_state(c, "require_cuda", FACT_ABSENT, src, "not set");
		return;
	}
	err = nv_require_parse(v, strlen(v), &nr);
	if (err < 0) {
		if (err == -ENOMEM)
			snap_set_errno(c, "require_cuda", err, src);
		else
			snap_set_malformed(c, "require_cuda", v, src,
					   err == -E2BIG ? "too long for nvidia-container-cli"
							 : "a NUL byte inside");
		return;
	}
	/* Check the whole expression first: a malformed one is one malformed fact. */
	for (size_t i = 0; i < nr.n_terms; i++) {
		char why[160];

		if (nr.terms[i].valid)
			continue;
		snprintf(why, sizeof(why),
			 "\"%.64s\" is not a constraint (cuda, driver, arch or brand; "
			 "= != < <= > >=; a value)",
			 nr.terms[i].text);
		snap_set_malformed(c, "require_cuda", v, src, why);
		nv_require_done(&nr);
		return;
	}
	req = snap_object(c, "require_cuda");
	arr = snap_array(req, "alternatives");
	for (size_t a = 0; a < nr.n_alts; a++) {
		struct snap_node *alt = snap_append_object(arr), *cons;
		_cleanup_free_ char *expr = NULL;
		size_t len = 0;

		for (size_t i = 0; i < nr.alts[a].n; i++)
			len += strlen(nr.terms[nr.alts[a].first + i].text) + 1;
		expr = calloc(1, len + 1);
		if (!expr) {
			snap_set_errno(alt, "expression", -ENOMEM, src);
			break;
		}
		/* the alternative as written, less the empty terms the cli skips */
		for (size_t i = 0; i < nr.alts[a].n; i++) {
			if (i)
				strcat(expr, ",");
			strcat(expr, nr.terms[nr.alts[a].first + i].text);
		}
		snap_set_str(alt, "expression", expr, src);
		cons = snap_array(alt, "constraints");
		for (size_t i = 0; i < nr.alts[a].n; i++) {
			const struct nv_require_term *t = &nr.terms[nr.alts[a].first + i];
			struct snap_node *o = snap_append_object(cons);

			snap_set_str(o, "name", nv_require_key_name(t->key), src);
			snap_set_str(o, "op", nv_require_op_name(t->op), src);
			snap_set_str(o, "value", t->value, src);
			if (!have_min && t->key == NV_REQUIRE_CUDA && t->op == NV_REQ_GE) {
				snap_set_str(req, "cuda_min", t->value, src);
				have_min = true;
			}
		}
	}
	if (!have_min)
		snap_set_state(req, "cuda_min", FACT_ABSENT, src, "no cuda>= constraint");
	nv_require_done(&nr);
}

/* /dev/nvidia* character devices (nvidia0…, nvidiactl, nvidia-uvm, nvidia-modeset …). */
static void probe_dev_nodes(struct probe_env *pe, struct snap_node *c)
{
	const char *const *names = NULL;
	struct snap_node *arr;
	int err = root_list_dir_borrow(pe->root, "/dev", ROOT_DIR_MAX_ENTRIES, &names, NULL);

	if (err < 0) {
		snap_set_errno(c, "visible_devices", err, "/dev");
		return;
	}
	arr = snap_array(c, "visible_devices");
	STRV_FOREACH_CONST(n, names) {
		char path[PATH_MAX];
		struct stat st;

		if (!startswith(*n, "nvidia"))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", *n);
		if (root_stat(pe->root, path, &st) == 0 && S_ISCHR(st.st_mode))
			snap_append_str(arr, path, path);
	}
}

/*
 * libcuda.so.1 / libnvidia-ml.so.1 in each injection directory: the link target and the
 * driver version in its name, plus every lib<name>.so.<driver version> file beside it
 * (two versions side by side is what a stale image layer looks like).
 */
static void probe_injected_libs(struct probe_env *pe, struct snap_node *c)
{
	static const char *const dirs[] = { "/usr/lib/x86_64-linux-gnu", "/usr/lib64",
					    "/usr/local/nvidia/lib64" };
	static const char *const libs[][2] = { { "libcuda.so.1", "libcuda.so." },
					       { "libnvidia-ml.so.1", "libnvidia-ml.so." } };
	struct snap_node *arr = snap_array(c, "injected_libraries");

	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		const char *const *names = NULL;

		if (root_list_dir_borrow(pe->root, dirs[d], ROOT_DIR_MAX_ENTRIES, &names, NULL) < 0)
			continue;
		for (size_t l = 0; l < ARRAY_SIZE(libs); l++) {
			_cleanup_free_ char *target = NULL;
			struct snap_node *o, *files;
			char path[PATH_MAX];
			const char *base, *ver;
			struct stat st;
			int err;

			snprintf(path, sizeof(path), "%s/%s", dirs[d], libs[l][0]);
			err = root_lstat(pe->root, path, &st);
			if (err == -ENOENT)
				continue;
			o = snap_append_object(arr);
			snap_set_str(o, "path", path, path);
			files = snap_array(o, "versioned_files");
			STRV_FOREACH_CONST(n, names)
				if (startswith(*n, libs[l][1]) && cdi_driver_lib_version(*n)) {
					char fp[PATH_MAX];

					snprintf(fp, sizeof(fp), "%s/%s", dirs[d], *n);
					snap_append_str(files, *n, fp);
				}
			if (err < 0) {
				snap_set_errno(o, "version", err, path);
				continue;
			}
			if (!S_ISLNK(st.st_mode)) {
				snap_set_state(o, "target", FACT_ABSENT, path,
					       "a regular file, not a link");
				snap_set_state(o, "version", FACT_ABSENT, path,
					       "a regular file: its name carries no version");
				continue;
			}
			err = root_readlink(pe->root, path, &target);
			if (err < 0) {
				snap_set_errno(o, "target", err, path);
				snap_set_errno(o, "version", err, path);
				continue;
			}
			snap_set_str(o, "target", target, path);
			base = path_basename(target);
			ver = startswith(base, libs[l][1]) ? cdi_driver_lib_version(base) : NULL;
			if (ver)
				snap_set_str(o, "version", ver, path);
			else
				snap_set_malformed(o, "version", target, path,
						   "link target is not lib*.so.<driver version>");
			/* A dangling link loads nothing: say so beside the name. */
			snap_set_bool(o, "target_exists", root_stat(pe->root, path, &st) == 0,
				      path);
		}
	}
}

int probe_container(struct probe_env *pe, struct gpuenv_snapshot *s)
{
	static const char *const markers[][2] = {
		{ "dockerenv", "/.dockerenv" },
		{ "containerenv", "/run/.containerenv" },
	};
	static const char *const vars[] = {
		"NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "NVIDIA_REQUIRE_CUDA",
		"NVIDIA_DISABLE_REQUIRE", "CUDA_VISIBLE_DEVICES",	"CUDA_VERSION",
	};
	struct snap_node *c = snap_object(snapshot_root(s), "container");
	struct snap_node *req = snap_object(c, "requested");

	for (size_t i = 0; i < ARRAY_SIZE(markers); i++) {
		struct stat st;
		int err = root_stat(pe->root, markers[i][1], &st);

		if (err < 0)
			snap_set_errno(c, markers[i][0], err, markers[i][1]);
		else
			snap_set_bool(c, markers[i][0], true, markers[i][1]);
	}
	probe_cgroup(pe, c);
	probe_mountinfo(pe, c);
	probe_cgroup_namespace(pe, c);
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = env_get(pe->env, vars[i]);

		if (v)
			snap_set_str(req, vars[i], v, probe_env_source(pe, vars[i]));
		else
			snap_set_state(req, vars[i], FACT_ABSENT, "environment", NULL);
	}
	probe_image(pe, c);
	probe_visible_request(pe, c);
	probe_require_cuda(pe, c);
	probe_dev_nodes(pe, c);
	probe_injected_libs(pe, c);
	return snapshot_error(s);
}
