// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The snapshot builders and assertions the rule tests share (see rules-test-util.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "rules-test-util.h"

/* ---- snapshot builders ----------------------------------------------------------------- */

struct gpuenv_snapshot *base(void)
{
	struct gpuenv_snapshot *s;
	struct snap_node *root, *drv, *km, *nv, *dn, *c;

	assert_int_equal(snapshot_new(&s), 0);
	root = snapshot_root(s);
	snap_set_str(snap_object(root, "host"), "kernel_release", "6.8.0-45-generic",
		     "/proc/sys/kernel/osrelease");
	snap_set_int(snap_object(root, "hardware"), "pci_devices", 12, "/sys/bus/pci/devices");
	snap_array(snap_object(root, "hardware"), "gpus");
	drv = snap_object(root, "driver");
	km = snap_object(drv, "kernel_modules");
	snap_set_bool(km, "modules_supported", true, "/proc/modules");
	snap_set_bool(km, "nvidia", false, "/proc/modules");
	snap_set_bool(km, "nouveau", false, "/proc/modules");
	nv = snap_object(drv, "nvidia");
	snap_set_errno(nv, "module_version", -ENOENT, "/sys/module/nvidia/version");
	snap_set_errno(nv, "proc_version", -ENOENT, "/proc/driver/nvidia/version");
	snap_set_str(snap_object(nv, "module_file"), "path",
		     "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko",
		     "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko");
	snap_set_str(snap_object(nv, "module_file"), "signature", "PKCS#7",
		     "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko");
	snap_set_str(snap_object(nv, "module_file"), "signer", "DKMS module signing key",
		     "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko");
	dn = snap_object(drv, "device_nodes");
	snap_set_errno(dn, "nvidiactl", -ENOENT, "/dev/nvidiactl");
	snap_set_errno(dn, "nvidia_uvm", -ENOENT, "/dev/nvidia-uvm");
	snap_set_errno(dn, "kfd", -ENOENT, "/dev/kfd");
	snap_array(dn, "nvidia_gpus");
	snap_set_errno(snap_object(drv, "secure_boot"), "enabled", -ENOENT,
		       "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c");
	snap_array(snap_object(root, "runtime"), "cuda_toolkits");
	snap_object(root, "framework");
	c = snap_object(root, "container");
	snap_set_errno(c, "dockerenv", -ENOENT, "/.dockerenv");
	snap_set_errno(c, "containerenv", -ENOENT, "/run/.containerenv");
	snap_set_state(c, "cgroup_engine", FACT_ABSENT, "/proc/1/cgroup", NULL);
	for (size_t i = 0; i < 4; i++) {
		static const char *const req[] = { "NVIDIA_VISIBLE_DEVICES",
						   "NVIDIA_DRIVER_CAPABILITIES",
						   "NVIDIA_REQUIRE_CUDA", "CUDA_VISIBLE_DEVICES" };

		snap_set_state(snap_object(c, "requested"), req[i], FACT_ABSENT, "environment",
			       NULL);
	}
	/* no amdgpu: no KFD topology (probe-nvidia-driver.c writes its ENOENT) */
	snap_set_errno(snap_object(drv, "amdgpu"), "kfd_nodes", -ENOENT,
		       "/sys/class/kfd/kfd/topology/nodes");
	for (size_t i = 0; i < 12; i++) {
		static const char *const vars[] = {
			"PATH",
			"LD_LIBRARY_PATH",
			"LD_PRELOAD",
			"CUDA_HOME",
			"CUDA_PATH",
			"CUDA_VERSION",
			"CUDA_VISIBLE_DEVICES",
			"HSA_OVERRIDE_GFX_VERSION",
			"ROCR_VISIBLE_DEVICES",
			"HIP_VISIBLE_DEVICES",
			"ZE_AFFINITY_MASK",
			"ONEAPI_DEVICE_SELECTOR",
		};

		snap_set_state(snap_object(root, "environment"), vars[i], FACT_ABSENT,
			       "environment", NULL);
	}
	return s;
}

struct snap_node *node(struct gpuenv_snapshot *s, const char *path)
{
	return (struct snap_node *)snap_get(snapshot_root(s), path);
}

struct snap_node *gpu(struct gpuenv_snapshot *s, const char *device, const char *driver)
{
	struct snap_node *g = snap_append_object(node(s, "hardware.gpus"));
	char bus[32], src[96];

	snprintf(bus, sizeof(bus), "0000:%02zx:00.0", snap_count(node(s, "hardware.gpus")) + 0x17);
	snprintf(src, sizeof(src), "/sys/bus/pci/devices/%s", bus);
	snap_set_str(g, "bus_id", bus, "/sys/bus/pci/devices");
	snap_set_str(g, "vendor_id", "0x10de", src);
	snap_set_str(g, "vendor", "NVIDIA", src);
	snap_set_str(g, "device_id", device ? device : "0x2330", src);
	if (driver)
		snap_set_str(g, "driver", driver, src);
	else
		snap_set_state(g, "driver", FACT_ABSENT, src, "No such file or directory");
	snap_set_str(g, "current_link_speed", "32.0 GT/s PCIe", src);
	snap_set_str(g, "max_link_speed", "32.0 GT/s PCIe", src);
	snap_set_int(g, "current_link_width", 16, src);
	snap_set_int(g, "max_link_width", 16, src);
	snap_set_int(g, "bar1_size_bytes", (int64_t)128 << 30, src);
	return g;
}

void driver_loaded(struct gpuenv_snapshot *s, const char *version)
{
	snap_set_str(node(s, "driver.nvidia"), "module_version", version,
		     "/sys/module/nvidia/version");
	snap_set_bool(node(s, "driver.kernel_modules"), "nvidia", true, "/proc/modules");
	snap_set_bool(node(s, "driver.device_nodes"), "nvidiactl", true, "/dev/nvidiactl");
	snap_set_bool(node(s, "driver.device_nodes"), "nvidia_uvm", true, "/dev/nvidia-uvm");
	snap_append_str(node(s, "driver.device_nodes.nvidia_gpus"), "nvidia0", "/dev/nvidia0");
}

struct snap_node *toolkit(struct gpuenv_snapshot *s, const char *path, const char *resolved,
			  const char *version)
{
	struct snap_node *tk = snap_append_object(node(s, "runtime.cuda_toolkits"));
	char src[256];

	snap_set_str(tk, "path", path, path);
	snap_set_str(tk, "resolved_path", resolved, path);
	snprintf(src, sizeof(src), "%s/version.json", resolved);
	snap_set_str(tk, "version", version, src);
	snap_append_str(snap_array(tk, "found_via"), "/usr/local", NULL);
	snap_set_state(tk, "stub_libcuda", FACT_ABSENT, resolved, NULL);
	return tk;
}

void env(struct gpuenv_snapshot *s, const char *key, const char *value)
{
	snap_set_str(node(s, "environment"), key, value, "environment");
	if (startswith(key, "NVIDIA_") || streq(key, "CUDA_VISIBLE_DEVICES"))
		snap_set_str(node(s, "container.requested"), key, value, "environment");
}

void in_docker(struct gpuenv_snapshot *s)
{
	snap_set_bool(node(s, "container"), "dockerenv", true, "/.dockerenv");
	snap_set_str(node(s, "container"), "cgroup_engine", "docker", "/proc/1/cgroup");
}

struct snap_node *userspace(struct gpuenv_snapshot *s, const char *lib, const char *path,
			    const char *version)
{
	struct snap_node *l = snap_object(snap_object(node(s, "driver"), "userspace"), lib);

	snap_set_str(l, "path", path, "/usr/lib/x86_64-linux-gnu");
	snap_set_str(l, "resolved_path", path, path);
	if (version)
		snap_set_str(l, "version", version, path);
	snap_set_bool(l, "is_stub", false, path);
	snap_set_bool(l, "in_compat_dir", false, path);
	snap_set_str(l, "found_via", "ld.so.cache", "/etc/ld.so.cache");
	return l;
}

struct snap_node *torch_env(struct gpuenv_snapshot *s, const char *version, const char *cuda,
			    const char *const *targets)
{
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *t, *a;
	const char *vp = "/home/user/venv/lib/python3.12/site-packages/torch/version.py";

	snap_set_str(e, "prefix", "/home/user/venv", "/home/user/venv");
	snap_append_str(snap_array(e, "found_via"), "VIRTUAL_ENV", NULL);
	t = snap_object(snap_object(e, "packages"), "torch");
	snap_set_str(t, "version", version, vp);
	if (cuda)
		snap_set_str(t, "cuda", cuda, vp);
	else
		snap_set_state(t, "cuda", FACT_ABSENT, vp, "None");
	snap_set_state(t, "hip", FACT_ABSENT, vp, "None");
	snap_set_bool(t, "cpu_only", cuda == NULL, vp);
	a = snap_array(t, "arch_targets");
	for (size_t i = 0; targets && targets[i]; i++) {
		struct snap_node *x = snap_append_object(a);
		const char *lib =
			"/home/user/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so";

		snap_set_str(x, "target", targets[i], lib);
		snap_set_str(x, "kind", startswith(targets[i], "sm_") ? "sass" : "ptx", lib);
		if (startswith(targets[i], "compute_"))
			snap_set_str(x, "ptx_isa", "9.0", lib);
	}
	return t;
}

/* ---- running ------------------------------------------------------------------------- */

struct gpuenv_doctor *diag(struct gpuenv_snapshot *s)
{
	struct gpuenv_doctor *d;

	assert_int_equal(snapshot_error(s), 0);
	assert_int_equal(rules_diagnose(s, &d), 0);
	return d;
}

const struct finding *find(const struct gpuenv_doctor *d, const char *id, size_t nth)
{
	for (size_t i = 0; i < d->n_findings; i++)
		if (streq(d->findings[i].rule->id, id) && nth-- == 0)
			return &d->findings[i];
	return NULL;
}

size_t count(const struct gpuenv_doctor *d, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n_findings; i++)
		n += streq(d->findings[i].rule->id, id);
	return n;
}

const struct rule_skip *skip_of(const struct gpuenv_doctor *d, const char *id)
{
	for (size_t i = 0; i < d->n_skips; i++)
		if (streq(d->skips[i].rule->id, id))
			return &d->skips[i];
	return NULL;
}

void expect(struct gpuenv_snapshot *s, const char *id, size_t n, enum gpuenv_severity sev,
	    const char *substr, bool skipped)
{
	struct gpuenv_doctor *d = diag(s);
	const struct finding *f = find(d, id, 0);
	const struct rule_skip *sk = skip_of(d, id);

	if (!rule_find(id))
		fail_msg("%s: no such rule", id);
	if (count(d, id) != n || !!sk != skipped) {
		for (size_t i = 0; i < d->n_findings; i++)
			fprintf(stderr, "  %s: %s\n", d->findings[i].rule->id,
				d->findings[i].message);
		for (size_t i = 0; i < d->n_skips; i++)
			fprintf(stderr, "  skipped %s: %s\n", d->skips[i].rule->id,
				d->skips[i].reason);
		if (count(d, id) != n)
			fail_msg("%s fired %zu times, want %zu (\"%s\")", id, count(d, id), n,
				 substr ? substr : "");
		fail_msg("%s was %sskipped%s%s, want %sskipped", id, sk ? "" : "not ",
			 sk ? ": " : "", sk ? sk->reason : "", skipped ? "" : "not ");
	}
	if (n > 0) {
		assert_int_equal(f->severity, sev);
		assert_non_null(f->message);
		assert_true(f->n_ev > 0);
		if (substr && !strstr(f->message, substr))
			fail_msg("%s: message \"%s\" lacks \"%s\"", id, f->message, substr);
		for (size_t e = 0; e < f->n_ev; e++) {
			assert_non_null(f->ev[e].name);
			assert_non_null(f->ev[e].value);
			assert_non_null(f->ev[e].source);
		}
		if (sev > GPUENV_SEVERITY_INFO)
			assert_true(f->fix && f->fix[0] && f->verify && f->verify[0]);
	}
	diagnosis_free(d);
}

/* Does a fix (verify false) or verify line of the first finding of rule id contain substr? */
static bool line_has(struct gpuenv_snapshot *s, const char *id, const char *substr, bool verify)
{
	struct gpuenv_doctor *d = diag(s);
	const struct finding *f = find(d, id, 0);
	char **lines = f ? (verify ? f->verify : f->fix) : NULL;
	bool found = false;

	for (size_t i = 0; lines && lines[i]; i++)
		found |= strstr(lines[i], substr) != NULL;
	diagnosis_free(d);
	return found;
}

bool fix_has(struct gpuenv_snapshot *s, const char *id, const char *substr)
{
	return line_has(s, id, substr, false);
}

bool verify_has(struct gpuenv_snapshot *s, const char *id, const char *substr)
{
	return line_has(s, id, substr, true);
}

void expect_text(struct gpuenv_snapshot *s, const char *id, const char *no_text,
		 const char *fix_text)
{
	struct gpuenv_doctor *d = diag(s);
	const struct finding *f = find(d, id, 0);
	bool found = false;

	assert_non_null(f);
	if (no_text && strstr(f->message, no_text))
		fail_msg("%s: message \"%s\" says \"%s\"", id, f->message, no_text);
	for (char **l = f->fix; fix_text && l && *l; l++)
		found |= strstr(*l, fix_text) != NULL;
	if (fix_text && !found)
		fail_msg("%s: no fix line has \"%s\"", id, fix_text);
	diagnosis_free(d);
}

void NO_FIX(struct gpuenv_snapshot *s, const char *id, const char *text)
{
	struct gpuenv_doctor *d = diag(s);
	const struct finding *f = find(d, id, 0);

	assert_non_null(f);
	for (char **l = f->fix; l && *l; l++)
		if (strstr(*l, text))
			fail_msg("%s: fix line \"%s\" has \"%s\"", id, *l, text);
	diagnosis_free(d);
}
