// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The container probes and the environment probe against trees built in a temp dir:
 * every GPU variable of the environment list recorded, TF_* keys filtered, --redact hiding
 * the values in both renderers; NVIDIA_VISIBLE_DEVICES modes and NVIDIA_REQUIRE_CUDA parsed
 * as libnvidia-container's dsl.c reads it; injected libcuda.so.1 links (dangling, regular
 * file, not versioned); /dev/nvidia* character devices (skipped where mknod is refused);
 * host configs that are malformed or unreadable.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "output/output.h"
#include "probe/probe.h"
#include "shared/strbuf.h"
#include "testhooks/testhooks.h"
#include "probe-fx.h"

static void put(struct probe_fx *f, const char *rel, const char *text)
{
	tmptree_puts(f->dir, rel, text);
}

static void lnk(struct probe_fx *f, const char *rel, const char *target)
{
	tmptree_symlink(f->dir, rel, target);
}

static int setup(void **state)
{
	struct probe_fx *f = probe_fx_new("container");
	struct gpuenv_ctx_opts o = { .sz = sizeof(o), .sysroot = f->dir };

	probe_fx_open(f, &o);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	assert_int_equal(probe_fx_free(*state), 0);
	return 0;
}

static const struct snap_node *run(struct probe_fx *f,
				   int (*probe)(struct probe_env *, struct gpuenv_snapshot *))
{
	return probe_fx_run(f, probe);
}

/* The same, into a fresh snapshot (a probe writes into an empty tree). */
static const struct snap_node *run_fresh(struct probe_fx *f,
					 int (*probe)(struct probe_env *, struct gpuenv_snapshot *))
{
	snapshot_unref(f->s);
	assert_int_equal(snapshot_new(&f->s), 0);
	return run(f, probe);
}

static void test_environment_and_redact(void **state)
{
	static const char *const listed[] = {
		"PATH",
		"LD_LIBRARY_PATH",
		"LD_PRELOAD",
		"CUDA_HOME",
		"CUDA_PATH",
		"CUDA_VISIBLE_DEVICES",
		"CUDA_MODULE_LOADING",
		"HIP_VISIBLE_DEVICES",
		"ROCR_VISIBLE_DEVICES",
		"HSA_OVERRIDE_GFX_VERSION",
		"XLA_FLAGS",
	};
	struct probe_fx *f = *state;
	const struct snap_node *r, *e;
	struct strbuf sb = STRBUF_INIT;
	char *json = NULL;

	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
		char v[64];

		snprintf(v, sizeof(v), "secret-%zu", i);
		assert_int_equal(env_set(f->ctx->env, listed[i], v), 0);
	}
	assert_int_equal(env_set(f->ctx->env, "TF_FORCE_GPU_ALLOW_GROWTH", "secret-tf"), 0);
	assert_int_equal(env_set(f->ctx->env, "TF_CUDA_PATHS", "secret-tfcuda"), 0);
	assert_int_equal(env_set(f->ctx->env, "TF_VAR_region", "terraform"), 0);
	assert_int_equal(env_set(f->ctx->env, "NVIDIA_VISIBLE_DEVICES", "GPU-secret-uuid"), 0);
	r = run(f, probe_environment);
	run(f, probe_container);
	e = snap_child(r, "environment");
	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++)
		assert_non_null(snap_str(snap_child(e, listed[i])));
	assert_string_equal(snap_get_str(e, "TF_FORCE_GPU_ALLOW_GROWTH"), "secret-tf");
	assert_string_equal(snap_get_str(e, "TF_CUDA_PATHS"), "secret-tfcuda");
	assert_null(snap_child(e, "TF_VAR_region"));
	assert_int_equal(snap_state(snap_child(e, "CUDA_DEVICE_ORDER")), FACT_ABSENT);
	assert_string_equal(snap_get_str(r, "container.visible_devices_mode"), "list");
	/* --redact: no value of the environment, nor the request, in either renderer. */
	assert_int_equal(out_report_text(f->s, GPUENV_RENDER_REDACT, &sb), 0);
	assert_int_equal(snapshot_to_json(f->s, SNAP_JSON_REDACT, &json), 0);
	assert_null(strstr(strbuf_str(&sb), "secret"));
	assert_null(strstr(json, "secret"));
	assert_non_null(strstr(json, "<redacted>"));
	/* … and without it they are there (the check above can fail). */
	strbuf_reset(&sb);
	assert_int_equal(out_report_text(f->s, 0, &sb), 0);
	assert_non_null(strstr(strbuf_str(&sb), "secret-tf"));
	assert_non_null(strstr(strbuf_str(&sb), "GPU-secret-uuid"));
	strbuf_done(&sb);
	free(json);
}

static void test_visible_modes(void **state)
{
	static const char *const cases[][2] = {
		{ "all", "all" }, { "none", "none" },	   { "void", "void" },
		{ "", "empty" },  { "0,1,GPU-x", "list" },
	};
	struct probe_fx *f = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct snap_node *r;

		assert_int_equal(env_set(f->ctx->env, "NVIDIA_VISIBLE_DEVICES", cases[i][0]), 0);
		r = run_fresh(f, probe_container);
		assert_string_equal(snap_get_str(r, "container.visible_devices_mode"), cases[i][1]);
	}
	{
		int64_t n = 0;

		assert_true(snap_get_int(snapshot_root_const(f->s),
					 "container.visible_devices_count", &n));
		assert_int_equal(n, 3);
	}
}

static void test_require_cuda(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	assert_int_equal(env_set(f->ctx->env, "NVIDIA_REQUIRE_CUDA",
				 "cuda>=12.4 brand=tesla,driver>=470,driver<471"),
			 0);
	r = run_fresh(f, probe_container);
	assert_string_equal(snap_get_str(r, "container.require_cuda.cuda_min"), "12.4");
	assert_string_equal(snap_get_str(r, "container.require_cuda.alternatives.1.expression"),
			    "brand=tesla,driver>=470,driver<471");
	assert_string_equal(
		snap_get_str(r, "container.require_cuda.alternatives.1.constraints.2.op"), "<");
	assert_string_equal(
		snap_get_str(r, "container.require_cuda.alternatives.1.constraints.2.value"),
		"471");
	/* Upper-case names are accepted, as dsl.c compares them case-insensitively. */
	assert_int_equal(env_set(f->ctx->env, "NVIDIA_REQUIRE_CUDA", "CUDA>=11.0 driver>=450"), 0);
	r = run_fresh(f, probe_container);
	assert_string_equal(snap_get_str(r, "container.require_cuda.cuda_min"), "11.0");
	assert_int_equal(env_set(f->ctx->env, "NVIDIA_REQUIRE_CUDA", "brand=tesla,driver>=470"), 0);
	r = run_fresh(f, probe_container);
	assert_int_equal(snap_get_state(r, "container.require_cuda.cuda_min"), FACT_ABSENT);
	/* "==" is not one of dsl.c's operators; "gpu" is not a constraint name. */
	assert_int_equal(env_set(f->ctx->env, "NVIDIA_REQUIRE_CUDA", "cuda==12.4"), 0);
	r = run_fresh(f, probe_container);
	assert_int_equal(snap_get_state(r, "container.require_cuda"), FACT_MALFORMED);
	assert_int_equal(env_set(f->ctx->env, "NVIDIA_REQUIRE_CUDA", "gpu>=1"), 0);
	r = run_fresh(f, probe_container);
	assert_int_equal(snap_get_state(r, "container.require_cuda"), FACT_MALFORMED);
	assert_string_equal(snap_raw(snap_get(r, "container.require_cuda")), "gpu>=1");
}

static void test_injected_libs(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;
	bool b = true;

	put(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15", "");
	put(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05", "");
	lnk(f, "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.550.54.15");
	lnk(f, "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", "libnvidia-ml.so.550.54.15");
	put(f, "/usr/lib64/libcuda.so.1", "a copied file, not a link");
	lnk(f, "/usr/local/nvidia/lib64/libcuda.so.1", "libcuda.so");
	r = run_fresh(f, probe_container);
	assert_string_equal(snap_get_str(r, "container.injected_libraries.0.version"), "550.54.15");
	assert_string_equal(snap_get_str(r, "container.injected_libraries.0.versioned_files.0"),
			    "libcuda.so.535.104.05");
	assert_string_equal(snap_get_str(r, "container.injected_libraries.0.versioned_files.1"),
			    "libcuda.so.550.54.15");
	/* A dangling link: the version its name claims, and that the target is missing. */
	assert_string_equal(snap_get_str(r, "container.injected_libraries.1.version"), "550.54.15");
	assert_true(snap_bool(snap_get(r, "container.injected_libraries.1.target_exists"), &b));
	assert_false(b);
	assert_string_equal(snap_get_str(r, "container.injected_libraries.2.path"),
			    "/usr/lib64/libcuda.so.1");
	assert_int_equal(snap_get_state(r, "container.injected_libraries.2.version"), FACT_ABSENT);
	assert_int_equal(snap_get_state(r, "container.injected_libraries.3.version"),
			 FACT_MALFORMED);
	assert_null(snap_get(r, "container.injected_libraries.4"));
}

/* /dev/nvidia0 (195:0) and /dev/nvidiactl (195:255) as character devices beside a regular file
 * named like one; the test is skipped where mknod is refused (no CAP_MKNOD). */
static void put_nvidia_nodes(struct probe_fx *f)
{
	char path[256];

	put(f, "/dev/nvidia-fake-regular", "");
	snprintf(path, sizeof(path), "%s/dev/nvidia0", f->dir);
	if (mknod(path, S_IFCHR | 0666, makedev(195, 0)) < 0) {
		print_message("mknod refused (%s): character devices not tested\n",
			      strerror(errno));
		skip();
	}
	snprintf(path, sizeof(path), "%s/dev/nvidiactl", f->dir);
	assert_int_equal(mknod(path, S_IFCHR | 0666, makedev(195, 255)), 0);
}

static void test_dev_nodes(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	put_nvidia_nodes(f);
	r = run_fresh(f, probe_container);
	assert_int_equal(snap_count(snap_get(r, "container.visible_devices")), 2);
	assert_string_equal(snap_get_str(r, "container.visible_devices.0"), "/dev/nvidia0");
	assert_string_equal(snap_get_str(r, "container.visible_devices.1"), "/dev/nvidiactl");
}

static void test_host_bad_input(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	put(f, "/etc/docker/daemon.json", "{\"runtimes\": [], \"default-runtime\": 1}");
	put(f, "/etc/nvidia-container-runtime/config.toml",
	    "[nvidia-container-cli]\nno-cgroups = \"yes\"\n[nvidia-container-runtime]\n"
	    "runtimes = [\"runc\", 1]\n");
	put(f, "/etc/containerd/config.toml", "version = 2\n[plugins]\n[plugins]\n");
	put(f, "/etc/cdi/huge.yaml", "kind: [");
	lnk(f, "/etc/cdi/self.yaml", "/etc/cdi/self.yaml");
	assert_int_equal(testhooks_root_inject_error(f->ctx->root, "/etc/cdi/huge.yaml", EACCES),
			 0);
	tmptree_mkdir(f->dir, "/var/run/cdi");
	r = run(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.docker.daemon_json"), FACT_PRESENT);
	assert_int_equal(snap_get_state(r, "container.host.docker.runtimes"), FACT_MALFORMED);
	assert_int_equal(snap_get_state(r, "container.host.docker.default_runtime"),
			 FACT_MALFORMED);
	assert_int_equal(
		snap_get_state(r, "container.host.toolkit.config.nvidia-container-cli.no-cgroups"),
		FACT_MALFORMED);
	assert_string_equal(
		snap_error(snap_get(
			r, "container.host.toolkit.config.nvidia-container-cli.no-cgroups")),
		"expected boolean, got string");
	assert_int_equal(
		snap_get_state(r,
			       "container.host.toolkit.config.nvidia-container-runtime.runtimes"),
		FACT_MALFORMED);
	assert_int_equal(snap_get_state(r, "container.host.containerd.config"), FACT_MALFORMED);
	assert_string_equal(snap_error(snap_get(r, "container.host.containerd.config")),
			    "line 3: table defined twice");
	assert_int_equal(snap_get_state(r, "container.host.cdi_specs.0.format"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(r, "container.host.cdi_specs.1.format"), FACT_ERROR);
	assert_string_equal(snap_get_str(r, "container.host.cdi_specs.1.path"),
			    "/etc/cdi/self.yaml");
	assert_null(snap_get(r, "container.host.cdi_specs.2"));
}

/* Docker as a snap: /snap/bin/docker (a link to /usr/bin/snap, not followed), the snap's
 * daemon.json from the highest revision when no "current" link exists, and its etc/cdi. */
static void test_host_docker_snap(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	r = run(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.docker_snap.docker"), FACT_ABSENT);
	lnk(f, "/snap/bin/docker", "/usr/bin/snap");
	put(f, "/var/snap/docker/2893/config/daemon.json", "{}");
	put(f, "/var/snap/docker/2904/config/daemon.json",
	    "{\"runtimes\": {\"nvidia\": {\"path\": "
	    "\"/snap/docker/2904/usr/bin/nvidia-container-runtime\"}}}");
	put(f, "/var/snap/docker/2904/etc/cdi/nvidia.yaml", "kind: [");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.docker_snap.docker"),
			    "/snap/bin/docker");
	assert_string_equal(snap_get_str(r, "container.host.docker_snap.data_dir"),
			    "/var/snap/docker/2904");
	assert_string_equal(snap_get_str(r, "container.host.docker_snap.runtimes.0.name"),
			    "nvidia");
	assert_string_equal(snap_get_str(r, "container.host.cdi_specs.0.path"),
			    "/var/snap/docker/2904/etc/cdi/nvidia.yaml");
	/* "current" names the active revision. */
	lnk(f, "/var/snap/docker/current", "2893");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.docker_snap.data_dir"),
			    "/var/snap/docker/current");
	assert_int_equal(snap_count(snap_get(r, "container.host.docker_snap.runtimes")), 0);
	/* The snap's daemon.json unreadable: recorded, never taken as "no runtime". */
	assert_int_equal(testhooks_root_inject_error(f->ctx->root,
						     "/var/snap/docker/current/config/daemon.json",
						     EACCES),
			 0);
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.docker_snap.daemon_json"),
			 FACT_UNREADABLE);
}

/*
 * A Kubernetes pod under containerd on cgroup v2: no /.dockerenv, /proc/1/cgroup "0::/", an
 * overlay / whose layers are containerd's snapshots, /sys/fs/cgroup a nested cgroup (its
 * cgroup.type). Each sign on its own, and a host's (ext4 /, the root cgroup) giving none.
 */
static void test_cgroup_v2_pod(void **state)
{
	static const char pod_root[] =
		"1563 1452 0:345 / / rw,relatime master:500 - overlay overlay "
		"rw,lowerdir=/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/"
		"snapshots/812/fs:/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/"
		"snapshots/811/fs,upperdir=/var/lib/containerd/"
		"io.containerd.snapshotter.v1.overlayfs/snapshots/915/fs,workdir=/var/lib/"
		"containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/915/work\n"
		"1564 1563 0:348 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n";
	static const char docker_root[] =
		"712 630 0:60 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/"
		"overlay2/l/ABC:/var/lib/docker/overlay2/l/DEF,upperdir=/var/lib/docker/overlay2/"
		"4f1/diff,workdir=/var/lib/docker/overlay2/4f1/work\n";
	static const char other_overlay[] =
		"30 1 0:27 / / rw,relatime - overlay overlay rw,lowerdir=/media/ro,upperdir=/media/"
		"rw/up,workdir=/media/rw/work\n";
	static const char host_root[] = "29 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 "
					"rw,errors=remount-ro\n";
	struct probe_fx *f = *state;
	const struct snap_node *r;

	put(f, "/proc/1/cgroup", "0::/\n");
	put(f, "/proc/self/mountinfo", host_root);
	r = run_fresh(f, probe_container);
	assert_int_equal(snap_get_state(r, "container.cgroup_engine"), FACT_ABSENT);
	assert_int_equal(snap_get_state(r, "container.overlay_engine"), FACT_ABSENT);
	assert_int_equal(snap_get_state(r, "container.cgroup_nested"), FACT_ABSENT);
	put(f, "/proc/self/mountinfo", pod_root);
	r = run_fresh(f, probe_container);
	assert_string_equal(snap_get_str(r, "container.root_fs_type"), "overlay");
	assert_string_equal(snap_get_str(r, "container.overlay_engine"), "containerd");
	put(f, "/proc/self/mountinfo", docker_root);
	r = run_fresh(f, probe_container);
	assert_string_equal(snap_get_str(r, "container.overlay_engine"), "docker");
	/* an overlay root of no known engine (a live system's, an unknown runtime): no engine */
	put(f, "/proc/self/mountinfo", other_overlay);
	r = run_fresh(f, probe_container);
	assert_string_equal(snap_get_str(r, "container.root_fs_type"), "overlay");
	assert_int_equal(snap_get_state(r, "container.overlay_engine"), FACT_ABSENT);
	/* the cgroup namespace alone */
	put(f, "/sys/fs/cgroup/cgroup.type", "domain\n");
	r = run_fresh(f, probe_container);
	assert_true(snap_get_bool_default(r, "container.cgroup_nested", false));
	/* unreadable: recorded as such, never taken as "not nested" */
	assert_int_equal(
		testhooks_root_inject_error(f->ctx->root, "/sys/fs/cgroup/cgroup.type", EACCES), 0);
	assert_int_equal(testhooks_root_inject_error(f->ctx->root, "/proc/self/mountinfo", EACCES),
			 0);
	r = run_fresh(f, probe_container);
	assert_int_equal(snap_get_state(r, "container.cgroup_nested"), FACT_UNREADABLE);
	assert_int_equal(snap_get_state(r, "container.overlay_engine"), FACT_UNREADABLE);
}

/*
 * How the host's engines manage cgroups and which NVIDIA nodes lack a /dev/char link: nothing
 * recorded without /sys/fs/cgroup or /dev/char (a bare tree says nothing), cgroup v1 and v2 by
 * the root's cgroup.controllers, Docker's exec-opts (the last native.cgroupdriver counts) and
 * containerd's SystemdCgroup, /dev/char unreadable recorded as such, never as "no link missing".
 */
static void test_host_cgroups_dev_char(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	put_nvidia_nodes(f);
	r = run_fresh(f, probe_container_host);
	assert_null(snap_get(r, "container.host.cgroup_v2"));
	assert_null(snap_get(r, "container.host.dev_char_missing"));
	/* cgroup v1: /sys/fs/cgroup without cgroup.controllers; one node linked */
	put(f, "/sys/fs/cgroup/devices/devices.list", "a *:* rwm\n");
	lnk(f, "/dev/char/195:255", "../nvidiactl");
	lnk(f, "/dev/char/1:3", "../null");
	put(f, "/etc/docker/daemon.json",
	    "{\"exec-opts\": [\"native.cgroupdriver=cgroupfs\", \"native.cgroupdriver=systemd\"]}");
	put(f, "/etc/containerd/config.toml",
	    "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia.options]\n"
	    "BinaryName = \"/usr/bin/nvidia-container-runtime\"\nSystemdCgroup = true\n");
	r = run_fresh(f, probe_container_host);
	assert_false(snap_get_bool_default(r, "container.host.cgroup_v2", true));
	assert_int_equal(snap_count(snap_get(r, "container.host.dev_char_missing")), 1);
	assert_string_equal(snap_get_str(r, "container.host.dev_char_missing.0"), "/dev/nvidia0");
	assert_string_equal(snap_get_str(r, "container.host.docker.cgroup_driver"), "systemd");
	assert_true(snap_get_bool_default(r, "container.host.containerd.runtimes.0.systemd_cgroup",
					  false));
	/* cgroup v2, both linked, exec-opts without a cgroup driver, exec-opts malformed */
	put(f, "/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
	lnk(f, "/dev/char/195:0", "../nvidia0");
	put(f, "/etc/docker/daemon.json", "{\"exec-opts\": [\"native.umask=normal\"]}");
	r = run_fresh(f, probe_container_host);
	assert_true(snap_get_bool_default(r, "container.host.cgroup_v2", false));
	assert_int_equal(snap_get_state(r, "container.host.dev_char_missing"), FACT_PRESENT);
	assert_int_equal(snap_count(snap_get(r, "container.host.dev_char_missing")), 0);
	assert_int_equal(snap_get_state(r, "container.host.docker.cgroup_driver"), FACT_ABSENT);
	put(f, "/etc/docker/daemon.json", "{\"exec-opts\": \"native.cgroupdriver=systemd\"}");
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.docker.cgroup_driver"), FACT_MALFORMED);
	/* /dev/char that cannot be looked in: could not tell */
	assert_int_equal(testhooks_root_inject_error(f->ctx->root, "/dev/char", EACCES), 0);
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.dev_char_missing"), FACT_UNREADABLE);
}

/* Rootless engines: /proc/self/uid_map (the identity map, an unprivileged container's),
 * rootless Docker's /run/user/<uid>/docker.sock, a runtime directory that cannot be entered;
 * K3s's own containerd config. Nothing recorded where the files are not there. */
static void test_host_rootless_k3s(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;

	r = run_fresh(f, probe_container_host);
	assert_null(snap_get(r, "container.host.rootless"));
	assert_null(snap_get(r, "container.host.k3s"));
	put(f, "/proc/self/uid_map", "         0          0 4294967295\n");
	put(f, "/run/user/1000/bus", "");
	r = run_fresh(f, probe_container_host);
	assert_false(snap_get_bool_default(r, "container.host.rootless.user_namespace", true));
	assert_null(snap_get(r, "container.host.rootless.docker_sockets"));
	put(f, "/proc/self/uid_map", "         0     100000      65536\n");
	put(f, "/run/user/1000/docker.sock", "");
	put(f, "/run/user/120/docker.sock", "");
	r = run_fresh(f, probe_container_host);
	assert_true(snap_get_bool_default(r, "container.host.rootless.user_namespace", false));
	assert_int_equal(snap_count(snap_get(r, "container.host.rootless.docker_sockets")), 2);
	/* another user's runtime directory: listed as not looked into */
	assert_int_equal(
		testhooks_root_inject_error(f->ctx->root, "/run/user/120/docker.sock", EACCES), 0);
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_count(snap_get(r, "container.host.rootless.docker_sockets")), 1);
	assert_string_equal(snap_get_str(r, "container.host.rootless.runtime_dirs_unreadable.0"),
			    "/run/user/120/docker.sock");
	/* uid_map unreadable: could not tell */
	assert_int_equal(testhooks_root_inject_error(f->ctx->root, "/proc/self/uid_map", EACCES),
			 0);
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.rootless.user_namespace"),
			 FACT_UNREADABLE);
	/* K3s: its own containerd config, its template */
	put(f, "/var/lib/rancher/k3s/agent/etc/containerd/config.toml",
	    "version = 2\n[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.\"nvidia\"]\n"
	    "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.\"nvidia\".options]\n"
	    "  BinaryName = \"/usr/bin/nvidia-container-runtime\"\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.k3s.containerd.runtimes.0.name"),
			    "nvidia");
	assert_string_equal(snap_get_str(r, "container.host.k3s.containerd.cri_plugin"),
			    "io.containerd.grpc.v1.cri");
	assert_int_equal(snap_get_state(r, "container.host.k3s.containerd.default_runtime_name"),
			 FACT_ABSENT);
	assert_false(snap_get_bool_default(r, "container.host.k3s.config_template", true));
	put(f, "/var/lib/rancher/k3s/agent/etc/containerd/config.toml.tmpl",
	    "{{ template \"base\" . }}\n");
	r = run_fresh(f, probe_container_host);
	assert_true(snap_get_bool_default(r, "container.host.k3s.config_template", false));
}

/* kubelet's container runtime endpoint: nothing recorded on a machine without kubelet; the
 * users' /etc/default/kubelet over kubeadm's flag file over config.yaml; an unreadable file is
 * its error, not the next file's answer; crictl.yaml's runtime-endpoint. */
static void test_host_kubelet_endpoint(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;
	char path[TMPTREE_DIR_MAX + 32];

	r = run_fresh(f, probe_container_host);
	assert_null(snap_get(r, "container.host.kubelet"));
	assert_null(snap_get(r, "container.host.crictl"));
	/* the binary alone: no endpoint named */
	put(f, "/usr/bin/kubelet", "");
	assert_int_equal(chmod(tmptree_path(path, sizeof(path), f->dir, "/usr/bin/kubelet"), 0755),
			 0);
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.kubelet"), "/usr/bin/kubelet");
	assert_int_equal(snap_get_state(r, "container.host.kubelet.runtime_endpoint"), FACT_ABSENT);
	assert_null(snap_get(r, "container.host.kubelet.device_checkpoint"));
	put(f, "/var/lib/kubelet/config.yaml",
	    "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
	    "containerRuntimeEndpoint: unix:///var/run/containerd/containerd.sock\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.runtime_endpoint"),
			    "unix:///var/run/containerd/containerd.sock");
	/* the JSON form kubelet reads too; a key given twice is not told */
	put(f, "/var/lib/kubelet/config.yaml",
	    "{\"kind\":\"KubeletConfiguration\",\"apiVersion\":\"kubelet.config.k8s.io/v1beta1\","
	    "\"containerRuntimeEndpoint\":\"unix:///run/crio/crio.sock\"}\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.runtime_endpoint"),
			    "unix:///run/crio/crio.sock");
	put(f, "/var/lib/kubelet/config.yaml",
	    "containerRuntimeEndpoint: unix:///run/crio/crio.sock\n"
	    "containerRuntimeEndpoint: unix:///var/run/containerd/containerd.sock\n");
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.kubelet.runtime_endpoint"),
			 FACT_MALFORMED);
	put(f, "/var/lib/kubelet/config.yaml",
	    "containerRuntimeEndpoint: unix:///var/run/containerd/containerd.sock\n");
	put(f, "/var/lib/kubelet/kubeadm-flags.env",
	    "KUBELET_KUBEADM_ARGS=\"--container-runtime-endpoint=unix:///var/run/cri-dockerd.sock "
	    "--pod-infra-container-image=registry.k8s.io/pause:3.9\"\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.runtime_endpoint"),
			    "unix:///var/run/cri-dockerd.sock");
	put(f, "/etc/default/kubelet",
	    "KUBELET_EXTRA_ARGS=--container-runtime-endpoint unix:///run/crio/crio.sock\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.runtime_endpoint"),
			    "unix:///run/crio/crio.sock");
	assert_int_equal(testhooks_root_inject_error(f->ctx->root, "/etc/default/kubelet", EACCES),
			 0);
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.kubelet.runtime_endpoint"),
			 FACT_UNREADABLE);
	put(f, "/etc/crictl.yaml",
	    "runtime-endpoint: \"unix:///run/containerd/containerd.sock\"\n"
	    "timeout: 10\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.crictl.runtime_endpoint"),
			    "unix:///run/containerd/containerd.sock");
	put(f, "/etc/crictl.yaml", "runtime-endpoint: 'unix:///run/containerd/containerd.sock\n");
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.crictl.runtime_endpoint"),
			 FACT_MALFORMED);
}

/* kubelet started by systemd: its unit's command line with the drop-ins' and environment
 * files' variables (kubeadm's 10-kubeadm.conf), a same-named drop-in of /etc hiding /usr/lib's,
 * later drop-ins overriding ExecStart= and Environment=, two ExecStart= refused, config.yaml
 * where the command line names none; a flag file the unit does not read is not kubelet's. */
static void test_host_kubelet_unit(void **state)
{
	struct probe_fx *f = *state;
	const struct snap_node *r;
	char path[TMPTREE_DIR_MAX + 32];

	put(f, "/usr/bin/kubelet", "");
	assert_int_equal(chmod(tmptree_path(path, sizeof(path), f->dir, "/usr/bin/kubelet"), 0755),
			 0);
	put(f, "/usr/lib/systemd/system/kubelet.service",
	    "[Unit]\nDescription=kubelet: The Kubernetes Node Agent\n\n[Service]\n"
	    "ExecStart=/usr/bin/kubelet\nRestart=always\n");
	put(f, "/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf",
	    "# Note: This dropin only works with kubeadm and kubelet v1.11+\n[Service]\n"
	    "Environment=\"KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/"
	    "bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf\"\n"
	    "Environment=\"KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml\"\n"
	    "EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\n"
	    "EnvironmentFile=-/etc/default/kubelet\n"
	    "ExecStart=\n"
	    "ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS "
	    "$KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS\n");
	put(f, "/var/lib/kubelet/config.yaml",
	    "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"
	    "containerRuntimeEndpoint: unix:///run/crio/crio.sock\n");
	put(f, "/var/lib/kubelet/kubeadm-flags.env",
	    "KUBELET_KUBEADM_ARGS=\"--container-runtime-endpoint=unix:///var/run/containerd/"
	    "containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.9\"\n");
	/* not named by this drop-in (RPM's names it): not kubelet's */
	put(f, "/etc/sysconfig/kubelet",
	    "KUBELET_EXTRA_ARGS=--container-runtime-endpoint=unix:///var/run/cri-dockerd.sock\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.runtime_endpoint"),
			    "unix:///var/run/containerd/containerd.sock");
	assert_string_equal(snap_source(snap_get(r, "container.host.kubelet.runtime_endpoint")),
			    "/var/lib/kubelet/kubeadm-flags.env:1");
	/* KUBELET_EXTRA_ARGS comes last on the line */
	put(f, "/etc/default/kubelet",
	    "KUBELET_EXTRA_ARGS='--container-runtime-endpoint unix:///run/crio/crio.sock'\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.runtime_endpoint"),
			    "unix:///run/crio/crio.sock");
	assert_string_equal(snap_source(snap_get(r, "container.host.kubelet.runtime_endpoint")),
			    "/etc/default/kubelet:1");
	/* /etc's 10-kubeadm.conf hides /usr/lib's: the flag on ExecStart= itself */
	put(f, "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf",
	    "[Service]\nExecStart=\n"
	    "ExecStart=/usr/bin/kubelet --container-runtime-endpoint=unix:///var/run/"
	    "cri-dockerd.sock\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.runtime_endpoint"),
			    "unix:///var/run/cri-dockerd.sock");
	assert_string_equal(snap_source(snap_get(r, "container.host.kubelet.runtime_endpoint")),
			    "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf:3");
	/* a later drop-in (lexical order across the directories) sets it in an Environment= */
	put(f, "/run/systemd/system/kubelet.service.d/20-runtime.conf",
	    "[Service]\nEnvironment=\"RT=--container-runtime-endpoint=unix:///run/k3s/containerd/"
	    "containerd.sock\"\nExecStart=\nExecStart=/usr/bin/kubelet \\\n  $RT\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.runtime_endpoint"),
			    "unix:///run/k3s/containerd/containerd.sock");
	assert_string_equal(snap_source(snap_get(r, "container.host.kubelet.runtime_endpoint")),
			    "/run/systemd/system/kubelet.service.d/20-runtime.conf:2");
	/* a second ExecStart= without a reset: systemd refuses the unit */
	put(f, "/etc/systemd/system/kubelet.service.d/30-second.conf",
	    "[Service]\nExecStart=/usr/bin/kubelet\n");
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.kubelet.runtime_endpoint"),
			 FACT_MALFORMED);
	/* no flag on the command line: config.yaml decides, the flag files are not read */
	put(f, "/etc/systemd/system/kubelet.service.d/30-second.conf",
	    "[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --v=2\n");
	r = run_fresh(f, probe_container_host);
	assert_string_equal(snap_get_str(r, "container.host.kubelet.runtime_endpoint"),
			    "unix:///run/crio/crio.sock");
	assert_string_equal(snap_source(snap_get(r, "container.host.kubelet.runtime_endpoint")),
			    "/var/lib/kubelet/config.yaml");
	put(f, "/var/lib/kubelet/config.yaml", "kind: KubeletConfiguration\n");
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.kubelet.runtime_endpoint"), FACT_ABSENT);
	/* an EnvironmentFile= without "-" that is missing: systemd does not start it */
	put(f, "/etc/systemd/system/kubelet.service.d/30-second.conf",
	    "[Service]\nEnvironmentFile=/etc/kubelet.env\n");
	r = run_fresh(f, probe_container_host);
	assert_int_equal(snap_get_state(r, "container.host.kubelet.runtime_endpoint"),
			 FACT_UNPROBED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_environment_and_redact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_visible_modes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_require_cuda, setup, teardown),
		cmocka_unit_test_setup_teardown(test_injected_libs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dev_nodes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_bad_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_docker_snap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_v2_pod, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_cgroups_dev_char, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_rootless_k3s, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_kubelet_endpoint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_kubelet_unit, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
