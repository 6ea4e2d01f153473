// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of src/rules: every rule of the table fires on a snapshot built in C that shows
 * its problem (positive) and stays quiet on the same snapshot with the problem fixed
 * (negative); unreadable inputs give "skipped" records, never silence; the table's ids are
 * unique and well formed; the verdict, layer status and chain follow the findings.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "output/output.h"
#include "rules/rules.h"
#include "snapshot/snapshot.h"
#include "locale-fx.h"

/* ---- snapshot builders ----------------------------------------------------------------- */

static struct gpuenv_snapshot *base(void)
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
	for (size_t i = 0; i < 7; i++) {
		static const char *const vars[] = {
			"PATH",	     "LD_LIBRARY_PATH", "LD_PRELOAD",		"CUDA_HOME",
			"CUDA_PATH", "CUDA_VERSION",	"CUDA_VISIBLE_DEVICES",
		};

		snap_set_state(snap_object(root, "environment"), vars[i], FACT_ABSENT,
			       "environment", NULL);
	}
	return s;
}

static struct snap_node *node(struct gpuenv_snapshot *s, const char *path)
{
	return (struct snap_node *)snap_get(snapshot_root(s), path);
}

/* An H100 SXM (10de:2330, CC 9.0) unless device says otherwise. */
static struct snap_node *gpu(struct gpuenv_snapshot *s, const char *device, const char *driver)
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

static void driver_loaded(struct gpuenv_snapshot *s, const char *version)
{
	snap_set_str(node(s, "driver.nvidia"), "module_version", version,
		     "/sys/module/nvidia/version");
	snap_set_bool(node(s, "driver.kernel_modules"), "nvidia", true, "/proc/modules");
	snap_set_bool(node(s, "driver.device_nodes"), "nvidiactl", true, "/dev/nvidiactl");
	snap_set_bool(node(s, "driver.device_nodes"), "nvidia_uvm", true, "/dev/nvidia-uvm");
	snap_append_str(node(s, "driver.device_nodes.nvidia_gpus"), "nvidia0", "/dev/nvidia0");
}

static struct snap_node *toolkit(struct gpuenv_snapshot *s, const char *path, const char *resolved,
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

static void env(struct gpuenv_snapshot *s, const char *key, const char *value)
{
	snap_set_str(node(s, "environment"), key, value, "environment");
	if (startswith(key, "NVIDIA_") || streq(key, "CUDA_VISIBLE_DEVICES"))
		snap_set_str(node(s, "container.requested"), key, value, "environment");
}

static void in_docker(struct gpuenv_snapshot *s)
{
	snap_set_bool(node(s, "container"), "dockerenv", true, "/.dockerenv");
	snap_set_str(node(s, "container"), "cgroup_engine", "docker", "/proc/1/cgroup");
}

/* ---- running ------------------------------------------------------------------------- */

static struct gpuenv_doctor *diag(struct gpuenv_snapshot *s)
{
	struct gpuenv_doctor *d;

	assert_int_equal(snapshot_error(s), 0);
	assert_int_equal(rules_diagnose(s, &d), 0);
	return d;
}

static const struct finding *find(const struct gpuenv_doctor *d, const char *id, size_t nth)
{
	for (size_t i = 0; i < d->n_findings; i++)
		if (streq(d->findings[i].rule->id, id) && nth-- == 0)
			return &d->findings[i];
	return NULL;
}

static size_t count(const struct gpuenv_doctor *d, const char *id)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n_findings; i++)
		n += streq(d->findings[i].rule->id, id);
	return n;
}

static const struct rule_skip *skip_of(const struct gpuenv_doctor *d, const char *id)
{
	for (size_t i = 0; i < d->n_skips; i++)
		if (streq(d->skips[i].rule->id, id))
			return &d->skips[i];
	return NULL;
}

/* Runs the rules over s: rule `id` must fire n times with severity sev (n == 0: never), and
 * be skipped (could not be evaluated) exactly when `skipped` says: a rule that did not fire
 * because its inputs were missing is not a rule that judged the machine fine. */
static void expect(struct gpuenv_snapshot *s, const char *id, size_t n, enum gpuenv_severity sev,
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

/* Does the first finding of rule id carry a fix line containing substr? */
static bool fix_has(struct gpuenv_snapshot *s, const char *id, const char *substr)
{
	struct gpuenv_doctor *d = diag(s);
	const struct finding *f = find(d, id, 0);
	bool found = false;

	for (size_t i = 0; f && f->fix && f->fix[i]; i++)
		found |= strstr(f->fix[i], substr) != NULL;
	diagnosis_free(d);
	return found;
}

/* YES: fired once. NO: evaluated and did not fire. SKIPPED: not evaluated (inputs missing). */
#define YES(s, id, sev, substr) expect(s, id, 1, sev, substr, false)
#define NO(s, id)		expect(s, id, 0, 0, NULL, false)
#define SKIPPED(s, id)		expect(s, id, 0, 0, NULL, true)

/* The first finding of rule id: its message lacks text (no_text), or a fix line has it. */
static void expect_text(struct gpuenv_snapshot *s, const char *id, const char *no_text,
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
#define NO_TEXT(s, id, text) expect_text(s, id, text, NULL)
#define FIX(s, id, text)     expect_text(s, id, NULL, text)

/* No fix line of the first finding of rule id has text. */
static void NO_FIX(struct gpuenv_snapshot *s, const char *id, const char *text)
{
	struct gpuenv_doctor *d = diag(s);
	const struct finding *f = find(d, id, 0);

	assert_non_null(f);
	for (char **l = f->fix; l && *l; l++)
		if (strstr(*l, text))
			fail_msg("%s: fix line \"%s\" has \"%s\"", id, *l, text);
	diagnosis_free(d);
}

/* ---- the table ------------------------------------------------------------------------ */

static void test_table(void **state)
{
	for (size_t i = 0; i < rule_table_len; i++) {
		const struct rule *r = &rule_table[i];
		const char *dot = strchr(r->id, '.');

		assert_non_null(dot);
		assert_int_equal((size_t)(dot - r->id), strlen(rule_layer_name(r->layer)));
		assert_true(strncmp(r->id, rule_layer_name(r->layer), (size_t)(dot - r->id)) == 0);
		assert_int_equal(strspn(dot + 1, "abcdefghijklmnopqrstuvwxyz0-123456789"),
				 strlen(dot + 1));
		assert_non_null(r->title);
		assert_non_null(r->symptom);
		assert_non_null(r->cause);
		assert_non_null(r->check);
		assert_true(r->fix && r->fix[0] && r->verify && r->verify[0]);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(rule_table[j].id, r->id);
		/* Output order: bottom layer first. */
		if (i > 0)
			assert_true(rule_table[i - 1].layer <= r->layer);
		assert_ptr_equal(rule_find(r->id), r);
	}
}

/* ---- hardware -------------------------------------------------------------------------- */

static void test_no_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();

	YES(s, "hardware.no-gpu", GPUENV_SEVERITY_ERROR, "none of the 12 PCI devices");
	gpu(s, NULL, "nvidia");
	NO(s, "hardware.no-gpu");
	snapshot_unref(s);
	/* An unreadable bus is "could not read", not "no GPU". */
	s = base();
	snap_set_errno(node(s, "hardware"), "pci_devices", -ENOENT, "/sys/bus/pci/devices");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "hardware.no-gpu"), 0);
		assert_non_null(skip_of(d, "hardware.no-gpu"));
		assert_non_null(
			strstr(skip_of(d, "hardware.no-gpu")->reason, "/sys/bus/pci/devices"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_link_down(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, "nvidia");

	NO(s, "hardware.pcie-link-down");
	snap_set_int(g, "current_link_width", 0, "x");
	snap_set_str(g, "current_link_speed", "Unknown", "x");
	YES(s, "hardware.pcie-link-down", GPUENV_SEVERITY_ERROR, "not trained");
	NO(s, "hardware.pcie-link-degraded");
	/* A laptop's idle dGPU in D3cold reads as width 63, speed "Unknown": no fault. */
	snap_set_int(g, "current_link_width", 63, "x");
	snap_set_str(g, "runtime_status", "suspended", "x");
	SKIPPED(s, "hardware.pcie-link-down");
	snap_set_str(g, "runtime_status", "active", "x");
	YES(s, "hardware.pcie-link-down", GPUENV_SEVERITY_ERROR, "not trained");
	snapshot_unref(s);
}

static void test_link_degraded(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, "nvidia");

	NO(s, "hardware.pcie-link-degraded");
	snap_set_int(g, "current_link_width", 8, "x");
	YES(s, "hardware.pcie-link-degraded", GPUENV_SEVERITY_WARNING, "x8, capable of");
	/* Only the speed lower: idle power saving, an info. */
	snap_set_int(g, "current_link_width", 16, "x");
	snap_set_str(g, "current_link_speed", "2.5 GT/s PCIe", "x");
	YES(s, "hardware.pcie-link-degraded", GPUENV_SEVERITY_INFO, "idles");
	/* Unreadable width: a per-GPU skip. */
	snap_set_errno(g, "current_link_width", -EACCES,
		       "/sys/bus/pci/devices/x/current_link_width");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "hardware.pcie-link-degraded"), 0);
		assert_non_null(skip_of(d, "hardware.pcie-link-degraded"));
		assert_non_null(strstr(skip_of(d, "hardware.pcie-link-degraded")->reason,
				       "Permission denied"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_bar1(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, "nvidia");

	NO(s, "hardware.bar1-small");
	snap_set_state(g, "bar1_size_bytes", FACT_ABSENT, "resource", "BAR1 not assigned");
	YES(s, "hardware.bar1-small", GPUENV_SEVERITY_ERROR, "BAR1 not assigned");
	snap_set_int(g, "bar1_size_bytes", 256 << 20, "resource");
	YES(s, "hardware.bar1-small", GPUENV_SEVERITY_INFO, "256 MiB");
	/* Not NVIDIA: BAR1 means something else. */
	snap_set_str(g, "vendor_id", "0x1002", "x");
	NO(s, "hardware.bar1-small");
	snapshot_unref(s);
}

static void test_gpu_without_driver(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, NULL);

	YES(s, "hardware.gpu-without-driver", GPUENV_SEVERITY_ERROR, "no kernel driver");
	snap_set_str(g, "driver", "vfio-pci", "x");
	YES(s, "hardware.gpu-without-driver", GPUENV_SEVERITY_WARNING, "passthrough");
	snap_set_str(g, "driver", "nvidia", "x");
	NO(s, "hardware.gpu-without-driver");
	snapshot_unref(s);
}

/* ---- driver -------------------------------------------------------------------------- */

static void test_module_not_loaded(void **state)
{
	struct gpuenv_snapshot *s = base();

	NO(s, "driver.module-not-loaded"); /* no GPU: nothing to drive */
	gpu(s, NULL, NULL);
	YES(s, "driver.module-not-loaded", GPUENV_SEVERITY_ERROR, "not loaded");
	snap_set_bool(node(s, "driver.kernel_modules"), "modules_supported", false,
		      "/proc/modules");
	YES(s, "driver.module-not-loaded", GPUENV_SEVERITY_ERROR, "no loadable-module support");
	driver_loaded(s, "550.54.15");
	NO(s, "driver.module-not-loaded");
	/* Unreadable version: skipped, not passed. */
	snap_set_errno(node(s, "driver.nvidia"), "module_version", -EACCES,
		       "/sys/module/nvidia/version");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_non_null(skip_of(d, "driver.module-not-loaded"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_secure_boot(void **state)
{
	struct gpuenv_snapshot *s = base();
	const char *ko = "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko";

	gpu(s, NULL, NULL);
	snap_set_bool(node(s, "driver.secure_boot"), "enabled", true, "efivars");
	NO(s, "driver.secure-boot-unsigned-module"); /* signed */
	snap_set_state(node(s, "driver.nvidia.module_file"), "signature", FACT_ABSENT, ko,
		       "module is not signed");
	YES(s, "driver.secure-boot-unsigned-module", GPUENV_SEVERITY_ERROR, "not signed");
	/* a trailer that could not be read: not "unsigned", the rule says it skipped */
	snap_set_malformed(node(s, "driver.nvidia.module_file"), "signature", NULL, ko,
			   "signature trailer: sig_len 0 out of range");
	SKIPPED(s, "driver.secure-boot-unsigned-module");
	snap_set_bool(node(s, "driver.secure_boot"), "enabled", false, "efivars");
	NO(s, "driver.secure-boot-unsigned-module");
	snapshot_unref(s);
}

static void key(struct gpuenv_snapshot *s, const char *list, const char *cn, const char *serial)
{
	struct snap_node *o = snap_append_object(node(s, list));

	snap_set_str(o, "subject", cn, "efivars");
	snap_set_str(o, "issuer", cn, "efivars");
	snap_set_str(o, "serial", serial, "efivars");
}

static void test_secure_boot_key(void **state)
{
	struct gpuenv_snapshot *s = base();
	const char *ko = "/lib/modules/6.8.0-45-generic/updates/dkms/nvidia.ko";
	struct snap_node *sb = node(s, "driver.secure_boot");

	gpu(s, NULL, NULL);
	snap_set_str(node(s, "driver.nvidia.module_file"), "sig_key", "1A:2B:3C", ko);
	snap_set_bool(sb, "enabled", true, "efivars");
	snap_array(sb, "mok_keys");
	snap_array(sb, "db_keys");
	key(s, "driver.secure_boot.mok_keys", "Canonical Ltd. Master Certificate Authority",
	    "00:B9:41:24:A0:18:2C:92:67");
	key(s, "driver.secure_boot.db_keys", "Microsoft Corporation UEFI CA 2011",
	    "61:08:D3:C4:00:00:00:00:00:04");
	/* A DKMS module signed by a key in neither list: refused. */
	YES(s, "driver.secure-boot-key-not-enrolled", GPUENV_SEVERITY_ERROR,
	    "signed by \"DKMS module signing key\" (serial 1A:2B:3C), a key in neither MokListRT "
	    "(1 key) nor db (1 key): the kernel refuses it");
	/* A module the distribution installed may be signed by a key built into the kernel. */
	snap_set_str(node(s, "driver.nvidia.module_file"), "path",
		     "/lib/modules/6.8.0-45-generic/kernel/nvidia-550/nvidia.ko", ko);
	YES(s, "driver.secure-boot-key-not-enrolled", GPUENV_SEVERITY_WARNING,
	    "unless it is one of the kernel's built-in keys");
	snap_set_str(node(s, "driver.nvidia.module_file"), "path", ko, ko);
	/* Same name, another serial (a key made again): still not enrolled. */
	key(s, "driver.secure_boot.mok_keys", "DKMS module signing key", "77:66");
	YES(s, "driver.secure-boot-key-not-enrolled", GPUENV_SEVERITY_ERROR, "neither MokListRT");
	/* Enrolled: quiet. */
	key(s, "driver.secure_boot.mok_keys", "DKMS module signing key", "1a:2b:3c");
	NO(s, "driver.secure-boot-key-not-enrolled");
	NO(s, "driver.secure-boot-unsigned-module");
	/* MokListRT unreadable, the key not in db: says so and which key signed it. */
	snap_set_errno(sb, "mok_keys", -EACCES,
		       "/sys/firmware/efi/efivars/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23");
	YES(s, "driver.secure-boot-key-not-enrolled", GPUENV_SEVERITY_WARNING,
	    "whether that key is enrolled could not be read (unreadable");
	/* In db: enrolled whatever MokListRT says. */
	key(s, "driver.secure_boot.db_keys", "DKMS module signing key", "1A:2B:3C");
	NO(s, "driver.secure-boot-key-not-enrolled");
	snap_array(sb, "db_keys");
	snap_array(sb, "mok_keys");
	/* Loaded: the kernel accepted it, whatever the lists say. */
	driver_loaded(s, "550.120");
	NO(s, "driver.secure-boot-key-not-enrolled");
	snapshot_unref(s);
	/* Unsigned: the other rule's; Secure Boot off: nothing; signature unreadable: skipped. */
	s = base();
	gpu(s, NULL, NULL);
	sb = node(s, "driver.secure_boot");
	snap_set_bool(sb, "enabled", true, "efivars");
	snap_array(sb, "mok_keys");
	snap_array(sb, "db_keys");
	snap_set_state(node(s, "driver.nvidia.module_file"), "signature", FACT_ABSENT, ko,
		       "module is not signed");
	NO(s, "driver.secure-boot-key-not-enrolled");
	snap_set_malformed(node(s, "driver.nvidia.module_file"), "signature", NULL, ko,
			   "signature trailer: sig_len 0 out of range");
	SKIPPED(s, "driver.secure-boot-key-not-enrolled");
	snap_set_bool(sb, "enabled", false, "efivars");
	NO(s, "driver.secure-boot-key-not-enrolled");
	snapshot_unref(s);
}

static struct snap_node *lib(struct gpuenv_snapshot *s, const char *key, const char *path,
			     const char *version, const char *via)
{
	struct snap_node *o = snap_object(node(s, "driver.userspace"), key);

	snap_set_str(o, "path", path, via);
	snap_set_str(o, "resolved_path", path, via);
	if (version)
		snap_set_str(o, "version", version, path);
	snap_set_str(o, "found_via", via, via);
	return o;
}

static void test_wsl(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *cu, *sh;

	snap_object(node(s, "driver"), "userspace");
	lib(s, "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.510.85.02", "510.85.02",
	    "ld.so.cache");
	/* Not WSL: a Linux driver's libcuda is what it should be. */
	NO(s, "driver.wsl-linux-driver-installed");
	snap_set_str(node(s, "host"), "kernel_release", "5.15.90.1-microsoft-standard-WSL2",
		     "/proc/sys/kernel/osrelease");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_ERROR,
	    "WSL2: ld.so loads libcuda.so.1 from /usr/lib/x86_64-linux-gnu/libcuda.so.510.85.02 "
	    "(version 510.85.02, via ld.so.cache), a Linux NVIDIA driver");
	/* No NVIDIA GPU on the PCI bus and no nvidia.ko under WSL2: never "not loaded". */
	gpu(s, NULL, NULL);
	NO(s, "driver.module-not-loaded");
	NO(s, "driver.module-missing-for-kernel");
	/* The Windows driver's copy first, the Linux one behind it: a warning. */
	cu = lib(s, "libcuda", "/usr/lib/wsl/lib/libcuda.so.1", NULL, "ld.so.cache");
	sh = snap_append_object(snap_array(cu, "shadowed"));
	snap_set_str(sh, "path", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "ld.so.cache");
	snap_set_str(sh, "resolved_path", "/usr/lib/x86_64-linux-gnu/libcuda.so.510.85.02",
		     "ld.so.cache");
	snap_set_str(sh, "verdict", "loadable", "ld.so.cache");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_WARNING,
	    "ld.so takes the Windows driver's copy first");
	/* dlopen("libcuda.so") (numba, Warp) reaches the Linux driver's development link, an
	 * error even though libcuda.so.1 is the Windows driver's. */
	lib(s, "libcuda_so", "/usr/lib/x86_64-linux-gnu/libcuda.so.510.85.02", "510.85.02",
	    "ld.so.cache");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_ERROR,
	    "dlopen (numba, Warp …) gets libcuda.so from /usr/lib/x86_64-linux-gnu/");
	lib(s, "libcuda_so", "/usr/lib/wsl/lib/libcuda.so", NULL, "ld.so.cache");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_WARNING,
	    "ld.so takes the Windows driver's copy first");
	/* Only the Windows driver's: quiet. */
	snap_set_str(sh, "verdict", "wrong ELF class", "ld.so.cache");
	NO(s, "driver.wsl-linux-driver-installed");
	/* libnvidia-ml from the Linux driver (nvidia-utils-510 brings libnvidia-compute-510). */
	lib(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.510.85.02", "510.85.02",
	    "ld.so.cache");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_ERROR, "libnvidia-ml.so.1");
	/* /dev/dxg alone marks WSL2 too (a custom kernel's release). */
	snap_set_str(node(s, "host"), "kernel_release", "6.6.36-custom",
		     "/proc/sys/kernel/osrelease");
	snap_set_bool(snap_object(node(s, "host"), "wsl"), "dxg_device", true, "/dev/dxg");
	YES(s, "driver.wsl-linux-driver-installed", GPUENV_SEVERITY_ERROR, "libnvidia-ml.so.1");
	snap_set_bool(snap_object(node(s, "host"), "wsl"), "dxg_device", false, "/dev/dxg");
	NO(s, "driver.wsl-linux-driver-installed");
	snapshot_unref(s);
}

static void test_module_missing(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, NULL);
	NO(s, "driver.module-missing-for-kernel");
	snap_set_state(node(s, "driver.nvidia.module_file"), "path", FACT_ABSENT,
		       "/lib/modules/6.8.0-45-generic", "no nvidia.ko*");
	YES(s, "driver.module-missing-for-kernel", GPUENV_SEVERITY_ERROR, "6.8.0-45-generic");
	driver_loaded(s, "550.54.15");
	NO(s, "driver.module-missing-for-kernel");
	snapshot_unref(s);
}

static void test_nouveau(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, NULL, "nouveau");

	YES(s, "driver.nouveau-bound", GPUENV_SEVERITY_ERROR, "driven by nouveau");
	NO(s, "driver.module-not-loaded"); /* the more precise finding wins */
	snap_set_bool(snap_object(node(s, "driver"), "nouveau_blacklisted"), "blacklist", true,
		      "/etc/modprobe.d/blacklist-nouveau.conf");
	YES(s, "driver.nouveau-bound", GPUENV_SEVERITY_ERROR, "initramfs");
	snap_set_str(g, "driver", "nvidia", "x");
	NO(s, "driver.nouveau-bound");
	snapshot_unref(s);
}

static void test_device_nodes(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	NO(s, "driver.device-nodes-missing");
	snap_set_errno(node(s, "driver.device_nodes"), "nvidia_uvm", -ENOENT, "/dev/nvidia-uvm");
	YES(s, "driver.device-nodes-missing", GPUENV_SEVERITY_WARNING,
	    "/dev/nvidia-uvm is missing");
	/* In a container the same picture is container.no-gpu-devices' business. */
	in_docker(s);
	NO(s, "driver.device-nodes-missing");
	snapshot_unref(s);
}

static void test_branch_drops_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, "0x102d", "nvidia"); /* Tesla K80, Kepler 3.7 */
	driver_loaded(s, "535.183.01");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR,
	    "not supported by driver branch R535");
	/* The fix names the branch NVIDIA lists for this very GPU. */
	FIX(s, "driver.branch-drops-gpu", "NVIDIA 470.xx legacy");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	NO(s, "driver.branch-drops-gpu");
	snapshot_unref(s);
	/* A laptop Maxwell GPU outside the product table is judged by its chip (10de:1391,
	 * GM107M [GeForce GTX 850M], compute capability 5.0) under a branch that dropped it. */
	s = base();
	gpu(s, "0x1391", "nvidia");
	driver_loaded(s, "590.44.01");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR, "GeForce GTX 850M (Maxwell");
	snapshot_unref(s);
	/* Open kernel module on a pre-Turing GPU (Tesla V100, 10de:1db1). */
	s = base();
	gpu(s, "0x1db1", "nvidia");
	driver_loaded(s, "560.35.03");
	NO(s, "driver.branch-drops-gpu");
	snap_set_str(node(s, "driver.nvidia"), "flavor", "open", "/proc/driver/nvidia/version");
	YES(s, "driver.branch-drops-gpu", GPUENV_SEVERITY_ERROR, "open nvidia.ko");
	snapshot_unref(s);
}

static void test_branch_eol(void **state)
{
	struct gpuenv_snapshot *s = base();

	driver_loaded(s, "580.95.05");
	NO(s, "driver.branch-eol");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	NO(s, "driver.branch-eol"); /* R470: no lifecycle end in the table */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "450.248.02", "x");
	YES(s, "driver.branch-eol", GPUENV_SEVERITY_WARNING, "July 2023");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "550.54.15", "x");
	YES(s, "driver.branch-eol", GPUENV_SEVERITY_WARNING, "end of life");
	snapshot_unref(s);
}

/* ---- runtime --------------------------------------------------------------------------- */

static struct snap_node *torch_env(struct gpuenv_snapshot *s, const char *version, const char *cuda,
				   const char *const *targets);

static void test_no_driver_for_toolkit(void **state)
{
	struct gpuenv_snapshot *s = base();

	NO(s, "runtime.no-driver-for-toolkit");
	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-13.0", "13.0.96");
	YES(s, "runtime.no-driver-for-toolkit", GPUENV_SEVERITY_ERROR, ">= 580.65.06");
	driver_loaded(s, "580.95.05");
	NO(s, "runtime.no-driver-for-toolkit");
	snapshot_unref(s);
}

/* WSL2 and containers: the driver is another system's. No module and no /proc/driver/nvidia
 * there is normal, and "install a driver" would break WSL2 (NVIDIA's CUDA on WSL guide). */
static void test_no_driver_elsewhere(void **state)
{
	struct gpuenv_snapshot *s = base();

	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.1", "12.1.1");
	YES(s, "runtime.no-driver-for-toolkit", GPUENV_SEVERITY_ERROR, "no NVIDIA kernel driver");
	snap_set_str(node(s, "host"), "kernel_release", "5.15.167.4-microsoft-standard-WSL2",
		     "/proc/sys/kernel/osrelease");
	NO(s, "runtime.no-driver-for-toolkit");
	/* the driver version cannot be read there: rules that need it say so */
	SKIPPED(s, "runtime.toolkit-needs-newer-driver");
	snap_set_str(node(s, "host"), "kernel_release", "6.8.0-45-generic", "x");
	snap_set_bool(snap_object(node(s, "host"), "wsl"), "dxg_device", true, "/dev/dxg");
	NO(s, "runtime.no-driver-for-toolkit");
	snap_set_bool(snap_object(node(s, "host"), "wsl"), "dxg_device", false, "/dev/dxg");
	YES(s, "runtime.no-driver-for-toolkit", GPUENV_SEVERITY_ERROR, "no NVIDIA kernel driver");
	/* in a container the runtime gave the GPU, the driver is the host's; in one it did not
	 * give it, there is no driver to use */
	snap_set_str(node(s, "container"), "dockerenv", "", "/.dockerenv");
	YES(s, "runtime.no-driver-for-toolkit", GPUENV_SEVERITY_ERROR, "no NVIDIA kernel driver");
	snap_set_str(snap_object(node(s, "container"), "requested"), "NVIDIA_VISIBLE_DEVICES",
		     "all", "environment");
	NO(s, "runtime.no-driver-for-toolkit");
	snapshot_unref(s);
}

static void test_toolkit_needs_newer_driver(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *tk;

	driver_loaded(s, "535.183.01");
	tk = toolkit(s, "/usr/local/cuda-12.2", "/usr/local/cuda-12.2", "12.2.0");
	NO(s, "runtime.toolkit-needs-newer-driver");
	/* 12.4 on R535: minor-version compatibility (>= 525.60.13, < 580). */
	snap_set_str(tk, "version", "12.4.1", "x");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_WARNING,
	    "minor-version compatibility");
	/* 13.0 on R535: no rescue across majors. */
	snap_set_str(tk, "version", "13.0.0", "x");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_ERROR, "580.65.06");
	/* 12.4 on R470 (below the 12.x floor). */
	snap_set_str(tk, "version", "12.4.1", "x");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_ERROR, "550.54.15");
	/* 13.2 on R580: through the 13.x minor-version compatibility floor, which
	 * cuda_driver_min.tsv marks unconfirmed; the message says so. */
	snap_set_str(tk, "version", "13.2.0", "x");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "580.95.05", "x");
	YES(s, "runtime.toolkit-needs-newer-driver", GPUENV_SEVERITY_WARNING,
	    "(CUDA 13.x on >= 580, unconfirmed)");
	snapshot_unref(s);
}

static void test_stub(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *tk = toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.4", "12.4.1");

	NO(s, "runtime.stub-libcuda");
	snap_set_str(tk, "stub_libcuda",
		     "/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so",
		     "/usr/local/cuda-12.4/lib64/stubs/libcuda.so");
	YES(s, "runtime.stub-libcuda", GPUENV_SEVERITY_INFO, "off the loader path");
	env(s, "LD_LIBRARY_PATH", "/opt/lib:/usr/local/cuda/lib64/stubs/");
	YES(s, "runtime.stub-libcuda", GPUENV_SEVERITY_ERROR, "LD_LIBRARY_PATH contains");
	env(s, "LD_LIBRARY_PATH", "/usr/local/cuda-12.4/lib64");
	env(s, "LD_PRELOAD", "/usr/local/cuda-12.4/lib64/stubs/libcuda.so");
	YES(s, "runtime.stub-libcuda", GPUENV_SEVERITY_ERROR, "LD_PRELOAD");
	snapshot_unref(s);
}

static void test_toolkits_disagree(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *a, *b;

	a = toolkit(s, "/usr/local/cuda-11.8", "/usr/local/cuda-11.8", "11.8.0");
	b = toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.4", "12.4.1");
	env(s, "PATH", "/usr/local/cuda-12.4/bin:/usr/bin");
	NO(s, "runtime.toolkits-disagree");
	env(s, "PATH", "/usr/local/cuda-11.8/bin:/usr/bin");
	YES(s, "runtime.toolkits-disagree", GPUENV_SEVERITY_WARNING, "nvcc on PATH: CUDA 11.8");
	/* the fix points at what the configuration needs, not at the nvcc first on PATH */
	FIX(s, "runtime.toolkits-disagree", "CUDA_HOME=/usr/local/cuda-12.4 ");
	FIX(s, "runtime.toolkits-disagree", "the newest of them");
	driver_loaded(s, "535.183.01"); /* R535 runs 11.8 and (minor-version compat) 12.4 */
	FIX(s, "runtime.toolkits-disagree", "CUDA_HOME=/usr/local/cuda-12.4 ");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	FIX(s, "runtime.toolkits-disagree", "CUDA_HOME=/usr/local/cuda-11.8 ");
	torch_env(s, "2.4.0+cu124", "12.4", NULL);
	FIX(s, "runtime.toolkits-disagree", "what torch 2.4.0+cu124");
	FIX(s, "runtime.toolkits-disagree", "CUDA_HOME=/usr/local/cuda-12.4 ");
	/* Same version in two places: only a note. */
	snap_set_str(a, "version", "12.4.1", "x");
	YES(s, "runtime.toolkits-disagree", GPUENV_SEVERITY_INFO, "/usr/local/cuda: CUDA 12.4.1");
	(void)b;
	snapshot_unref(s);
}

static void test_cannot_target(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *tk;

	gpu(s, "0x1db1", "nvidia"); /* Tesla V100, 7.0 */
	tk = toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.4", "12.4.1");
	NO(s, "runtime.toolkit-cannot-target-gpu");
	snap_set_str(tk, "version", "13.0.0", "x");
	YES(s, "runtime.toolkit-cannot-target-gpu", GPUENV_SEVERITY_ERROR, "nvcc rejects sm_70");
	snapshot_unref(s);
	s = base();
	gpu(s, NULL, "nvidia"); /* H100, 9.0 */
	toolkit(s, "/usr/local/cuda-11.7", "/usr/local/cuda-11.7", "11.7.1");
	YES(s, "runtime.toolkit-cannot-target-gpu", GPUENV_SEVERITY_WARNING, "only PTX");
	snapshot_unref(s);
}

static void test_cudnn(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *tk = toolkit(s, "/usr/local/cuda", "/usr/local/cuda-12.4", "12.4.1");

	snap_set_state(tk, "cudnn_version", FACT_ABSENT, "x", NULL);
	NO(s, "runtime.cudnn-cuda-mismatch");
	snap_set_str(tk, "cudnn_version", "9.5.1", "/usr/local/cuda-12.4/include/cudnn_version.h");
	NO(s, "runtime.cudnn-cuda-mismatch"); /* 9.5.x cuda12 lists 12.4 */
	snap_set_str(tk, "cudnn_version", "8.9.6", "x");
	YES(s, "runtime.cudnn-cuda-mismatch", GPUENV_SEVERITY_WARNING, "not CUDA 12.4");
	snap_set_str(tk, "version", "11.8.0", "x");
	NO(s, "runtime.cudnn-cuda-mismatch"); /* the cuda11 package lists 11.8 */
	snap_set_str(tk, "cudnn_version", "9.17.0", "x");
	YES(s, "runtime.cudnn-cuda-mismatch", GPUENV_SEVERITY_ERROR, "only for other CUDA majors");
	/* Not in the table, or only majors known: skipped with the reason, never passed. */
	snap_set_str(tk, "cudnn_version", "9.19.0", "x");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "runtime.cudnn-cuda-mismatch"), 0);
		assert_non_null(strstr(skip_of(d, "runtime.cudnn-cuda-mismatch")->reason,
				       "not in the knowledge base"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

/* ---- container ------------------------------------------------------------------------- */

static void test_container_no_devices(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, "nvidia");
	NO(s, "container.no-gpu-devices"); /* not in a container */
	in_docker(s);
	YES(s, "container.no-gpu-devices", GPUENV_SEVERITY_ERROR, "no /dev/nvidia*");
	driver_loaded(s, "550.54.15");
	NO(s, "container.no-gpu-devices");
	snapshot_unref(s);
	/* No readable bus: the image's request decides. */
	s = base();
	in_docker(s);
	snap_set_errno(node(s, "hardware"), "pci_devices", -ENOENT, "/sys/bus/pci/devices");
	NO(s, "container.no-gpu-devices");
	env(s, "NVIDIA_VISIBLE_DEVICES", "all");
	YES(s, "container.no-gpu-devices", GPUENV_SEVERITY_ERROR, "asks for GPUs");
	snapshot_unref(s);
}

static void test_visible_void(void **state)
{
	struct gpuenv_snapshot *s = base();

	env(s, "NVIDIA_VISIBLE_DEVICES", "all");
	NO(s, "container.visible-devices-void");
	env(s, "NVIDIA_VISIBLE_DEVICES", "void");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "=void");
	env(s, "NVIDIA_VISIBLE_DEVICES", "none");
	YES(s, "container.visible-devices-void", GPUENV_SEVERITY_ERROR, "driver libraries only");
	snapshot_unref(s);
}

static void test_image_cuda(void **state)
{
	struct gpuenv_snapshot *s = base();

	in_docker(s);
	driver_loaded(s, "550.54.15"); /* R550: CUDA 12.4 */
	env(s, "CUDA_VERSION", "12.4.1");
	env(s, "NVIDIA_REQUIRE_CUDA", "cuda>=12.4 brand=tesla,driver>=470,driver<471");
	NO(s, "container.image-cuda-newer-than-driver");
	/* 12.4 image on R535 (CUDA 12.2): refused by the runtime, runs by minor compat. */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "535.183.01", "x");
	YES(s, "container.image-cuda-newer-than-driver", GPUENV_SEVERITY_WARNING,
	    "NVIDIA_DISABLE_REQUIRE");
	/* 12.4 image on R470 (CUDA 11.4): nothing runs it. */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "470.256.02", "x");
	env(s, "NVIDIA_REQUIRE_CUDA", "cuda>=12.4");
	YES(s, "container.image-cuda-newer-than-driver", GPUENV_SEVERITY_ERROR, "not satisfied");
	/* No host driver visible: skipped with the reason. */
	snap_set_errno(node(s, "driver.nvidia"), "module_version", -ENOENT,
		       "/sys/module/nvidia/version");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "container.image-cuda-newer-than-driver"), 0);
		assert_non_null(skip_of(d, "container.image-cuda-newer-than-driver"));
		assert_non_null(strstr(skip_of(d, "container.image-cuda-newer-than-driver")->reason,
				       "host driver"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

/* ---- phase 2 ------------------------------------------------------------------------- */

static void test_gpu_unknown(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, "0x2bff", "nvidia"); /* not in the table */

	snap_set_bool(g, "in_gpu_table", false, "facts:gpu_compute_capability");
	YES(s, "hardware.gpu-unknown", GPUENV_SEVERITY_WARNING, "skip this GPU");
	/* NVML knows its compute capability: only a note. */
	{
		struct snap_node *d = snap_append_object(
			snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));

		snap_set_str(d, "pci_bus_id", "00000000:18:00.0", "nvml:nvmlDeviceGetPciInfo_v3");
		snap_set_str(d, "compute_capability", "12.0",
			     "nvml:nvmlDeviceGetCudaComputeCapability");
	}
	YES(s, "hardware.gpu-unknown", GPUENV_SEVERITY_INFO, "12.0");
	snap_set_str(g, "device_id", "0x2330", "x");
	snap_set_bool(g, "in_gpu_table", true, "x");
	NO(s, "hardware.gpu-unknown");
	snapshot_unref(s);
	/* AMD: judged by the KFD gfx target. */
	s = base();
	g = gpu(s, "0x74a1", "amdgpu");
	snap_set_str(g, "vendor_id", "0x1002", "x");
	snap_set_bool(g, "in_gpu_table", false, "x");
	{
		struct snap_node *n = snap_append_object(
			snap_array(snap_object(node(s, "driver"), "amdgpu"), "kfd_nodes"));

		snap_set_str(n, "gfx", "gfx942", "/sys/class/kfd/kfd/topology/nodes/2/properties");
	}
	YES(s, "hardware.gpu-unknown", GPUENV_SEVERITY_INFO, "gfx942");
	snapshot_unref(s);
}

static struct snap_node *userspace(struct gpuenv_snapshot *s, const char *lib, const char *path,
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

/* The package manager's log names the upgrade that put the user space in place. */
static void pkg_event(struct gpuenv_snapshot *s, const char *package, const char *from,
		      const char *to, const char *upstream, const char *time)
{
	struct snap_node *e = snap_append_object(
		snap_array(snap_object(node(s, "driver"), "package_log"), "events"));
	const char *log = "/var/log/apt/history.log";

	snap_set_str(e, "action", "upgrade", log);
	snap_set_str(e, "package", package, log);
	snap_set_str(e, "from", from, log);
	snap_set_str(e, "to", to, log);
	snap_set_str(e, "to_upstream", upstream, log);
	snap_set_str(e, "time", time, log);
	snap_set_str(e, "log", log, log);
	snap_set_int(e, "line", 4, log);
}

static void test_nvml_mismatch_package_log(void **state)
{
	struct gpuenv_snapshot *s = base();

	driver_loaded(s, "550.90.07");
	userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.107.02",
		  "550.107.02");
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "550.107.02", "nvidia.ko");
	/* An older upgrade and another version: not this user space's. */
	pkg_event(s, "nvidia-driver-550:amd64", "550.54.15-0ubuntu1", "550.90.07-0ubuntu1",
		  "550.90.07", "2024-06-01  10:00:00");
	NO_TEXT(s, "driver.nvml-version-mismatch", "upgraded");
	/* The transaction that installed 550.107.02: the driver's own package is named, not the
	 * library listed after it. */
	pkg_event(s, "nvidia-driver-550:amd64", "550.90.07-0ubuntu1", "550.107.02-0ubuntu1",
		  "550.107.02", "2024-09-05  06:41:17");
	pkg_event(s, "libnvidia-compute-550:amd64", "550.90.07-0ubuntu1", "550.107.02-0ubuntu1",
		  "550.107.02", "2024-09-05  06:41:17");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "; nvidia-driver-550:amd64 upgraded from 550.90.07-0ubuntu1 to 550.107.02-0ubuntu1 at "
	    "2024-09-05  06:41:17 in /var/log/apt/history.log) and so is the nvidia.ko on disk");
	{
		struct gpuenv_doctor *d = diag(s);
		const struct finding *f = find(d, "driver.nvml-version-mismatch", 0);
		bool ev = false;

		for (size_t e = 0; e < f->n_ev; e++)
			ev |= streq(f->ev[e].name, "driver.package_log.events.1");
		assert_true(ev);
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_nvml_mismatch(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *l;

	driver_loaded(s, "535.104.05");
	userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05",
		  "535.104.05");
	NO(s, "driver.nvml-version-mismatch");
	userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.129.03",
		  "535.129.03");
	/* The module on disk unknown: a reboot is not promised. */
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "a reboot helps only if the nvidia.ko on disk is 535.129.03");
	NO_TEXT(s, "driver.nvml-version-mismatch", "a reboot loads");
	/* disk = user space != loaded: the one case a reboot fixes */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "535.129.03", "nvidia.ko");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "a reboot loads the 535.129.03 module");
	/* the module on disk is still the loaded one: DKMS did not build the new one */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "535.104.05", "nvidia.ko");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "on disk for the running kernel is still 535.104.05");
	NO_TEXT(s, "driver.nvml-version-mismatch", "a reboot loads the");
	FIX(s, "driver.nvml-version-mismatch", "dkms autoinstall");
	/* three versions */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "550.54.15", "nvidia.ko");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR, "three driver versions");
	/* user space older than the loaded module: a leftover copy, no reboot */
	snap_set_str(node(s, "driver.nvidia.module_file"), "version", "535.104.05", "nvidia.ko");
	userspace(s, "libnvidia_ml", "/opt/old/libnvidia-ml.so.470.223.02", "470.223.02");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "older than the loaded kernel module 535.104.05");
	NO_TEXT(s, "driver.nvml-version-mismatch", "reboot loads");
	FIX(s, "driver.nvml-version-mismatch", "remove the older copy");
	snap_set_state(node(s, "driver.nvidia.module_file"), "version", FACT_ABSENT, "x", "gone");
	/* A forward-compatibility libcuda is meant to differ: not a mismatch by itself. */
	l = userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.535.104.05",
		      "535.104.05");
	l = userspace(s, "libcuda", "/usr/local/cuda/compat/libcuda.so.550.54.15", "550.54.15");
	snap_set_bool(l, "in_compat_dir", true, "x");
	NO(s, "driver.nvml-version-mismatch");
	/* NVML itself says so. */
	snap_set_state(snap_object(node(s, "driver"), "nvml"), "init", FACT_ERROR,
		       "nvml:nvmlInit_v2",
		       "NVML_ERROR_LIB_RM_VERSION_MISMATCH (18): Driver/library version mismatch");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "NVML_ERROR_LIB_RM_VERSION_MISMATCH");
	/* The module's version unreadable: NVML's answer still stands (issue 13.4: this was
	 * "✓ driver ok"). */
	snap_set_state(node(s, "driver.nvidia"), "module_version", FACT_UNREADABLE,
		       "/sys/module/nvidia/version", "Permission denied");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "its version could not be read: unreadable: Permission denied");
	snap_set_state(snap_object(node(s, "driver"), "nvml"), "init", FACT_PRESENT, "x", NULL);
	snap_set_bool(l, "in_compat_dir", false, "x");
	snap_set_state(snap_object(node(s, "driver"), "cuda"), "init", FACT_ERROR, "cuda:cuInit",
		       "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803): system has unsupported display "
		       "driver / cuda driver combination");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR,
	    "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH");
	snapshot_unref(s);
	/* In a container: stale libraries of the image. */
	s = base();
	driver_loaded(s, "550.54.15");
	in_docker(s);
	l = userspace(s, "libcuda", "/usr/local/nvidia/lib64/libcuda.so.1", "535.104.05");
	snap_set_str(l, "path", "/usr/local/nvidia/lib64/libcuda.so.1", "/usr/local/nvidia/lib64");
	YES(s, "driver.nvml-version-mismatch", GPUENV_SEVERITY_ERROR, "stale driver libraries");
	snapshot_unref(s);
}

static struct snap_node *dev_node(struct gpuenv_snapshot *s, const char *path, const char *mode,
				  int gid, const char *group)
{
	struct snap_node *n =
		snap_append_object(snap_array(node(s, "driver.device_nodes"), "nodes"));

	snap_set_str(n, "path", path, path);
	snap_set_str(n, "mode", mode, path);
	snap_set_int(n, "uid", 0, path);
	snap_set_int(n, "gid", gid, path);
	snap_set_str(n, "group", group, "/etc/group");
	return n;
}

static void process(struct gpuenv_snapshot *s, int uid, int group)
{
	struct snap_node *p = snap_object(snap_object(snapshot_root(s), "host"), "process");
	struct snap_node *g;

	snap_set_int(p, "uid", uid, "/proc/self/status");
	snap_set_int(p, "euid", uid, "/proc/self/status");
	snap_set_int(p, "egid", uid, "/proc/self/status");
	g = snap_append_object(snap_array(p, "groups"));
	snap_set_int(g, "gid", group, "/proc/self/status");
	snap_set_str(g, "name", group == 44 ? "video" : "other", "/etc/group");
}

static void test_no_permission(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, "0x74a1", "amdgpu");

	snap_set_str(g, "vendor_id", "0x1002", "x");
	process(s, 1000, 44);
	dev_node(s, "/dev/kfd", "0660", 109, "render");
	YES(s, "driver.no-permission", GPUENV_SEVERITY_ERROR, "not in group render");
	snapshot_unref(s);
	s = base();
	g = gpu(s, "0x74a1", "amdgpu");
	snap_set_str(g, "vendor_id", "0x1002", "x");
	process(s, 1000, 109);
	dev_node(s, "/dev/kfd", "0660", 109, "render");
	NO(s, "driver.no-permission");
	snapshot_unref(s);
	/* NVIDIA render nodes are not used by CUDA; root may open anything. */
	s = base();
	gpu(s, NULL, "nvidia");
	process(s, 1000, 44);
	dev_node(s, "/dev/dri/renderD128", "0660", 109, "render");
	dev_node(s, "/dev/nvidiactl", "0666", 0, "root");
	NO(s, "driver.no-permission");
	dev_node(s, "/dev/nvidia0", "0660", 44, "video");
	NO(s, "driver.no-permission");
	dev_node(s, "/dev/nvidia-uvm", "0600", 0, "root");
	YES(s, "driver.no-permission", GPUENV_SEVERITY_ERROR, "/dev/nvidia-uvm");
	snapshot_unref(s);
}

static void xid(struct gpuenv_snapshot *s, int code)
{
	struct snap_node *e = snap_append_object(snap_array(node(s, "driver"), "xid_events"));

	snap_set_int(e, "code", code, "/var/log/kern.log");
	snap_set_str(e, "bus_id", "0000:46:00", "/var/log/kern.log");
	snap_set_int(e, "count", 2, "/var/log/kern.log");
	snap_set_str(e, "text", "GPU has fallen off the bus.", "/var/log/kern.log");
}

static void test_xid(void **state)
{
	struct gpuenv_snapshot *s = base();

	snap_set_state(node(s, "driver"), "xid_events", FACT_ABSENT, "/var/log", "no kernel log");
	NO(s, "driver.xid-errors");
	snapshot_unref(s);
	s = base();
	xid(s, 79);
	YES(s, "driver.xid-errors", GPUENV_SEVERITY_ERROR, "fallen off the bus");
	snapshot_unref(s);
	s = base();
	xid(s, 13); /* an application error */
	YES(s, "driver.xid-errors", GPUENV_SEVERITY_INFO, "application error");
	snapshot_unref(s);
	/* Unreadable log: skipped, not passed. */
	s = base();
	snap_set_errno(node(s, "driver"), "xid_events", -EACCES, "/dev/kmsg");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_int_equal(count(d, "driver.xid-errors"), 0);
		assert_non_null(skip_of(d, "driver.xid-errors"));
		diagnosis_free(d);
	}
	snapshot_unref(s);
}

static void test_persistence(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *d =
		snap_append_object(snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));

	snap_set_str(d, "pci_bus_id", "00000000:31:00.0", "nvml:nvmlDeviceGetPciInfo_v3");
	snap_set_str(d, "pci_device_id", "0x20b5", "nvml:nvmlDeviceGetPciInfo_v3");
	snap_set_bool(d, "persistence_mode", true, "nvml:nvmlDeviceGetPersistenceMode");
	NO(s, "driver.persistence-off");
	snap_set_bool(d, "persistence_mode", false, "nvml:nvmlDeviceGetPersistenceMode");
	YES(s, "driver.persistence-off", GPUENV_SEVERITY_INFO, "data-center");
	snap_set_str(d, "pci_device_id", "0x2684", "x"); /* GeForce: not advised */
	NO(s, "driver.persistence-off");
	snapshot_unref(s);
}

static void test_cuda_compat(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *l, *ml;

	driver_loaded(s, "550.54.15");
	l = userspace(s, "libcuda", "/usr/local/cuda-12.2/compat/libcuda.so.1", "535.104.05");
	/* Older and not a compat file: a stale libcuda (driver.nvml-version-mismatch's). */
	NO(s, "runtime.cuda-compat-unsupported");
	snap_set_bool(l, "in_compat_dir", true, "x");
	YES(s, "runtime.cuda-compat-unsupported", GPUENV_SEVERITY_ERROR,
	    "older than the kernel module 550.54.15");
	NO(s, "runtime.library-shadowed"); /* reported once, by its own rule */
	/* Newer compat on a data-center GPU is what forward compatibility is for. */
	snap_set_str(l, "version", "580.95.05", "x");
	gpu(s, NULL, "nvidia");
	NO(s, "runtime.cuda-compat-unsupported");
	snap_set_str(node(s, "hardware.gpus.0"), "device_id", "0x2684", "x"); /* RTX 4090 */
	YES(s, "runtime.cuda-compat-unsupported", GPUENV_SEVERITY_ERROR, "(804)");
	/* Bind-mounted outside any compat/ directory (a container's multiarch dir): known by
	 * its version against the driver's own libnvidia-ml. */
	l = userspace(s, "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "580.95.05");
	snap_set_bool(l, "in_compat_dir", false, "x");
	NO(s, "runtime.cuda-compat-unsupported"); /* NVML unknown: no proof */
	ml = userspace(s, "libnvidia_ml", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
		       "550.54.15");
	snap_set_bool(ml, "in_compat_dir", false, "x");
	YES(s, "runtime.cuda-compat-unsupported", GPUENV_SEVERITY_ERROR,
	    "newer than the driver's own libnvidia-ml");
	/* ...and that copy is not also a user-space/module mismatch (said once, as compat). */
	NO(s, "driver.nvml-version-mismatch");
	/* Both newer than the module: a user-space upgrade without a reboot, not compat. */
	snap_set_str(ml, "version", "580.95.05", "x");
	NO(s, "runtime.cuda-compat-unsupported");
	/* Unknown GPU segment: could not tell. */
	snap_set_str(ml, "version", "550.54.15", "x");
	snap_set_str(node(s, "hardware.gpus.0"), "device_id", "0x0001", "x");
	SKIPPED(s, "runtime.cuda-compat-unsupported");
	snapshot_unref(s);
}

/* A conda env with one framework package whose library `names` (dlopen) nothing loads; one
 * copy of it in `dir`, found there as `where` (NULL: no copy). */
static struct snap_node *not_found_env(struct gpuenv_snapshot *s, const char *key,
				       const char *version, const char *names, const char *dir,
				       const char *where)
{
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *p, *nf;

	snap_set_str(e, "prefix", "/home/user/anaconda3/envs/tf", "x");
	snap_set_str(e, "kind", "conda", "x");
	p = snap_object(snap_object(e, "packages"), key);
	snap_set_str(p, "dist_version", version, "x");
	nf = snap_append_object(snap_array(p, "not_found"));
	snap_set_str(nf, "name", names, "x"); /* the first of them, for these tests */
	snap_set_str(nf, "names", names, "x");
	snap_set_str(nf, "request", "dlopen", "x");
	snap_array(nf, "copies");
	if (dir) {
		struct snap_node *c = snap_append_object(snap_array(nf, "copies"));
		char path[256];

		snprintf(path, sizeof(path), "%s/%s", dir, names);
		snap_set_str(c, "path", path, path);
		snap_set_str(c, "dir", dir, path);
		snap_set_str(c, "where", where, path);
	}
	return p;
}

static void test_library_not_found(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *p;

	(void)state;
	SKIPPED(s, "runtime.library-not-found"); /* no framework.python_envs */
	p = not_found_env(s, "tensorflow", "2.9.0", "libcudart.so.11.0",
			  "/home/user/anaconda3/envs/tf/lib", "PATH");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "its directory is on PATH, which the dynamic loader never searches");
	FIX(s, "runtime.library-not-found",
	    "export LD_LIBRARY_PATH=/home/user/anaconda3/envs/tf/lib");
	snapshot_unref(s);

	/* Everything it opens loads: nothing to say. */
	s = base();
	p = snap_object(
		snap_object(snap_append_object(snap_array(node(s, "framework"), "python_envs")),
			    "packages"),
		"tensorflow");
	snap_set_str(p, "dist_version", "2.9.0", "x");
	snap_array(p, "not_found");
	NO(s, "runtime.library-not-found");
	snapshot_unref(s);

	/* A conda env's lib/ that is not activated: the activate.d fix. */
	s = base();
	not_found_env(s, "tensorflow", "2.7.0", "libcudnn.so.8", "/home/user/anaconda3/envs/tf/lib",
		      "conda env lib");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR, "a conda environment's lib/");
	FIX(s, "runtime.library-not-found", "conda activate /home/user/anaconda3/envs/tf");
	snapshot_unref(s);

	/* Listed in ld.so.conf.d, not in the cache: ldconfig. */
	s = base();
	not_found_env(s, "tensorflow", "2.9.0", "libcublas.so.11", "/usr/local/cuda-11.2/lib64",
		      "ld.so.conf");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR, "ldconfig was not run");
	FIX(s, "runtime.library-not-found", "sudo ldconfig");
	snapshot_unref(s);

	/* Warp before 0.8 opens only the unversioned libcuda.so; the driver's libcuda.so.1. */
	s = base();
	driver_loaded(s, "550.54.15");
	not_found_env(s, "warp", "0.3.1", "libcuda.so", "/usr/lib/x86_64-linux-gnu",
		      "versioned only");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "only the versioned libcuda.so.1 is installed");
	FIX(s, "runtime.library-not-found", "pip install -U 'warp-lang>=0.8'");
	snapshot_unref(s);

	/* No libcuda anywhere and no driver: the driver rules say it, not this one. */
	s = base();
	not_found_env(s, "numba", "0.60.0", "libcuda.so|libcuda.so.1", NULL, NULL);
	NO(s, "runtime.library-not-found");
	/* With the driver loaded, a libcuda nowhere is this rule's. */
	driver_loaded(s, "550.54.15");
	YES(s, "runtime.library-not-found", GPUENV_SEVERITY_ERROR,
	    "libcuda.so or libcuda.so.1 (opened by name)");
	snapshot_unref(s);

	/* The framework library's DT_NEEDED could not be read: could not tell. */
	s = base();
	p = snap_object(
		snap_object(snap_append_object(snap_array(node(s, "framework"), "python_envs")),
			    "packages"),
		"torch");
	snap_set_errno(p, "needed_missing", -EACCES, "/x/torch/lib/libtorch_cuda.so");
	SKIPPED(s, "runtime.library-not-found");
	snapshot_unref(s);
}

/* A venv with torch `version` for CUDA `cuda` (NULL: CPU) and fat-binary targets. */
static struct snap_node *torch_env(struct gpuenv_snapshot *s, const char *version, const char *cuda,
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

#define TARGETS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* packages.<fw>.cudnn: the copies of libcudnn.so.<major> on the framework's search path, in
 * order (the first one loaded), each with its version (NULL: not readable). */
static struct snap_node *cudnn_copies(struct snap_node *pkg, const char *soname,
				      const char *const *paths, const char *const *versions)
{
	struct snap_node *o = snap_object(pkg, "cudnn"), *arr = snap_array(o, "copies");

	snap_set_str(o, "soname", soname, "ld.so search");
	snap_set_str(o, "request", "dlopen", "ld.so search");
	snap_set_str(o, "resolved_path", paths[0], paths[0]);
	for (size_t i = 0; paths[i]; i++) {
		struct snap_node *e = snap_append_object(arr);

		snap_set_str(e, "path", paths[i], "LD_LIBRARY_PATH");
		snap_set_str(e, "resolved_path", paths[i], paths[i]);
		snap_set_str(e, "found_via", i ? "ld.so.cache" : "LD_LIBRARY_PATH", "x");
		snap_set_bool(e, "loaded", i == 0, "ld.so search");
		if (versions[i])
			snap_set_str(e, "cudnn_version", versions[i], paths[i]);
		else
			snap_set_errno(e, "cudnn_version", -EACCES, "/x/include/cudnn_version.h");
	}
	return o;
}

/* A venv with tensorflow (dist_version) whose build_info says cuDNN bi_cudnn. */
static struct snap_node *tf_env(struct gpuenv_snapshot *s, const char *version,
				const char *bi_cudnn)
{
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *t, *bi;
	const char *bp =
		"/home/user/venv/lib/python3.8/site-packages/tensorflow/python/platform/build_info.py";

	snap_set_str(e, "prefix", "/home/user/venv", "/home/user/venv");
	t = snap_object(snap_object(e, "packages"), "tensorflow");
	snap_set_str(t, "dist_version", version, "METADATA");
	bi = snap_object(t, "build_info");
	snap_set_str(bi, "cudnn_version", bi_cudnn, bp);
	snap_set_bool(bi, "is_cuda_build", true, bp);
	snap_set_bool(t, "cpu_only", false, bp);
	return t;
}

#define PATHS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* A machine whose one environment is judged completely, with driver.userspace read. */
static struct gpuenv_snapshot *fw_base(void)
{
	struct gpuenv_snapshot *s = base();

	snap_set_bool(node(s, "framework"), "python_envs_complete", true, "x");
	snap_set_state(snap_object(node(s, "driver"), "userspace"), "libcuda", FACT_ABSENT,
		       "ld.so search", "not found");
	return s;
}

/* TensorFlow `version` with build_info cuDNN bi, and libcudnn copies paths/versions. */
static struct gpuenv_snapshot *tf_case(const char *version, const char *bi, const char *soname,
				       const char *const *paths, const char *const *versions)
{
	struct gpuenv_snapshot *s = fw_base();
	struct snap_node *t = tf_env(s, version, bi);

	if (paths)
		cudnn_copies(t, soname, paths, versions);
	return s;
}

static void test_cudnn_older(void **state)
{
	static const char *const old8 = "/usr/local/cuda/lib64/libcudnn.so.8.0.4",
				 *new8 = "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.1.0";
	const char *id = "runtime.cudnn-older-than-framework";
	struct gpuenv_snapshot *s = base();
	struct snap_node *t;

	SKIPPED(s, id); /* no framework.python_envs */
	snapshot_unref(s);
	/* TF 2.6: build_info says '8', its release line was tested (and built) with 8.1. */
	s = tf_case("2.6.0", "8", NULL, NULL, NULL);
	NO(s, id); /* no cudnn recorded: nothing asked for */
	snapshot_unref(s);
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(old8), PATHS("8.0.4"));
	YES(s, id, GPUENV_SEVERITY_ERROR,
	    "Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.");
	NO(s, "runtime.library-shadowed"); /* one copy */
	snapshot_unref(s);
	/* The newer copy later on the path: the shadowing explains it, and the fix says so. */
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(old8, new8), PATHS("8.0.4", "8.1.0"));
	YES(s, "runtime.library-shadowed", GPUENV_SEVERITY_WARNING,
	    "before the newer /usr/lib/x86_64-linux-gnu/libcudnn.so.8.1.0 (cuDNN 8.1.0");
	FIX(s, id, "drop /usr/local/cuda/lib64/libcudnn.so.8.0.4");
	snapshot_unref(s);
	/* Same minor with another patch, a newer minor: the frameworks accept both. */
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(new8), PATHS("8.1.0"));
	NO(s, id);
	snapshot_unref(s);
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(new8), PATHS("8.9.7"));
	NO(s, id);
	snapshot_unref(s);
	/* build_info with a minor (a source build) wins over the knowledge base. */
	s = tf_case("2.6.0", "8.2", "libcudnn.so.8", PATHS(new8), PATHS("8.1.0"));
	YES(s, id, GPUENV_SEVERITY_ERROR, "compiled with: 8.2.0");
	snapshot_unref(s);
	/* The loaded copy's version cannot be read: could not tell. */
	s = tf_case("2.6.0", "8", "libcudnn.so.8", PATHS(old8), PATHS(NULL));
	SKIPPED(s, id);
	snapshot_unref(s);
	/* TF 1.15 (module-level build_info '7'): the tested configuration says 7.4, the binary
	 * was compiled with 7.6.0 (tensorflow_builds.tsv); 7.4.1 from cudnn.h is too old. */
	s = tf_case("1.15.0", "7", "libcudnn.so.7",
		    PATHS("/usr/local/cuda/lib64/libcudnn.so.7.4.1"), PATHS("7.4.1"));
	YES(s, id, GPUENV_SEVERITY_ERROR, "compiled with: 7.6.0");
	snapshot_unref(s);
	/* A release line the knowledge base knows only by its major: could not tell. */
	s = tf_case("1.9.0", "7", "libcudnn.so.7", PATHS("/usr/local/cuda/lib64/libcudnn.so.7.0.5"),
		    PATHS("7.0.5"));
	SKIPPED(s, id);
	snapshot_unref(s);
	/* torch 1.12.0+cu113 bundles cuDNN 8.3.2; LD_LIBRARY_PATH's 8.0.3 comes first. */
	s = fw_base();
	t = torch_env(s, "1.12.0+cu113", "11.3", NULL);
	snap_set_str(t, "lib_dir", "/home/user/venv/lib/python3.12/site-packages/torch/lib", "x");
	cudnn_copies(t, "libcudnn.so.8",
		     PATHS("/public/apps/cudnn/v8.0.3.33-cuda.11.0/cuda/lib64/libcudnn.so.8.0.3",
			   "/home/user/venv/lib/python3.12/site-packages/torch/lib/libcudnn.so.8"),
		     PATHS("8.0.3", "8.3.2"));
	YES(s, id, GPUENV_SEVERITY_ERROR,
	    "PyTorch was compiled  against (8, 3, 2) but found runtime version (8, 0, 3)");
	YES(s, "runtime.library-shadowed", GPUENV_SEVERITY_WARNING, "cuDNN 8.3.2");
	snapshot_unref(s);
	/* No framework: the main program's search (runtime.libraries) shows the same. */
	s = fw_base();
	t = snap_append_object(snap_array(
		snap_object(snap_object(snapshot_root(s), "runtime"), "libraries"), "libcudnn"));
	snap_set_str(t, "soname", "libcudnn.so.8", "ld.so search");
	snap_set_str(t, "resolved_path", old8, old8);
	snap_set_str(t, "version", "8.0.4", old8);
	snap_set_str(t, "found_via", "LD_LIBRARY_PATH", "x");
	NO(s, "runtime.library-shadowed");
	t = snap_append_object(snap_array(t, "shadowed"));
	snap_set_str(t, "path", new8, new8);
	snap_set_str(t, "version", "8.1.0", new8);
	snap_set_str(t, "verdict", "loadable", new8);
	YES(s, "runtime.library-shadowed", GPUENV_SEVERITY_WARNING,
	    "takes /usr/local/cuda/lib64/libcudnn.so.8.0.4 (cuDNN 8.0.4, via LD_LIBRARY_PATH) before");
	snap_set_str(t, "version", "8.0.3", new8); /* the older one second: fine */
	NO(s, "runtime.library-shadowed");
	snapshot_unref(s);
}

/* An A100 in NVML's devices[]: MIG mode and its MIG devices ("uuid gi ci" each). */
static struct snap_node *nvml_gpu(struct gpuenv_snapshot *s, const char *uuid, bool mig,
				  const char *const *migs)
{
	struct snap_node *nv = snap_object(node(s, "driver"), "nvml");
	struct snap_node *d = snap_append_object(snap_array(nv, "devices")), *a;

	snap_set_str(d, "uuid", uuid, "nvml:nvmlDeviceGetUUID");
	snap_set_bool(d, "mig_mode", mig, "nvml:nvmlDeviceGetMigMode");
	if (!mig)
		return d;
	a = snap_array(d, "mig_devices");
	for (size_t i = 0; migs && migs[i]; i++) {
		struct snap_node *m = snap_append_object(a);
		char u[64];
		int gi, ci;

		assert_int_equal(sscanf(migs[i], "%63s %d %d", u, &gi, &ci), 3);
		snap_set_str(m, "uuid", u, "nvml:nvmlDeviceGetUUID");
		snap_set_int(m, "gpu_instance_id", gi, "nvml:nvmlDeviceGetGpuInstanceId");
		snap_set_int(m, "compute_instance_id", ci, "nvml:nvmlDeviceGetComputeInstanceId");
	}
	snap_set_int(d, "mig_device_count", (int64_t)snap_count(a), "nvml");
	return d;
}

#define MIG_A "MIG-89c850dc-38e3-57df-85c7-690c186b68e9"
#define MIG_B "MIG-f2b5fbbd-850e-51bb-8ffa-ac9fb48126da"
#define GPU_0 "GPU-5a88edbe-90c4-2449-8c43-70c57591cca1"

static void test_mig_device_selection(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g;

	driver_loaded(s, "535.104.05");
	NO(s, "runtime.mig-device-selection"); /* no CUDA_VISIBLE_DEVICES, no NVML */
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A);
	NO(s, "runtime.mig-device-selection"); /* NVML not asked: no MIG id can match... */
	snap_set_errno(snap_object(node(s, "driver"), "nvml"), "devices", -EIO, "nvml:x");
	SKIPPED(s, "runtime.mig-device-selection"); /* ...NVML that failed might have MIG on */
	snapshot_unref(s);

	s = base();
	driver_loaded(s, "535.104.05");
	g = nvml_gpu(s, GPU_0, true, TARGETS(MIG_A " 1 0", MIG_B " 2 0"));
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A);
	NO(s, "runtime.mig-device-selection"); /* one MIG device: what CUDA gives */
	env(s, "CUDA_VISIBLE_DEVICES", "MIG-GPU-5a88edbe-90c4-2449-8c43-70c57591cca1/2/0");
	NO(s, "runtime.mig-device-selection"); /* the older form, an existing instance */
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A "," MIG_B);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING,
	    "names 2 MIG devices, but a CUDA process enumerates only one");
	env(s, "CUDA_VISIBLE_DEVICES", "0");
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING,
	    "one MIG device of it, not the GPU");
	env(s, "CUDA_VISIBLE_DEVICES", "MIG-GPU-5a88edbe-90c4-2449-8c43-70c57591cca1/3/0");
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR,
	    "instance pair that does not exist");
	env(s, "CUDA_VISIBLE_DEVICES", "MIG-5a88edbe-90c4," MIG_A);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR,
	    "entry 1 of CUDA_VISIBLE_DEVICES matches no MIG device");
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A ",MIG-GPU-5a88edbe");
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING,
	    "entry 2 of CUDA_VISIBLE_DEVICES is not of the form");
	/* torch 1.13 counts no device for a MIG id (facts framework_mig_bugs). */
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A);
	torch_env(s, "1.13.1+cu117", "11.7", NULL);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_WARNING,
	    "torch.cuda.device_count() returns 0");
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "version", "2.0.1+cu117",
		     "x");
	NO(s, "runtime.mig-device-selection");
	snapshot_unref(s);
	/* MIG on with no MIG device created: the GPU gives nothing. */
	s = base();
	driver_loaded(s, "535.104.05");
	g = nvml_gpu(s, GPU_0, true, NULL);
	env(s, "CUDA_VISIBLE_DEVICES", "0");
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR,
	    "nothing on a GPU with no MIG device created");
	/* MIG off: indices and GPU UUIDs are plain GPUs. */
	snap_set_bool(g, "mig_mode", false, "x");
	env(s, "CUDA_VISIBLE_DEVICES", GPU_0);
	NO(s, "runtime.mig-device-selection");
	/* ...but a MIG id then matches nothing. */
	env(s, "CUDA_VISIBLE_DEVICES", MIG_A);
	YES(s, "runtime.mig-device-selection", GPUENV_SEVERITY_ERROR, "matches no MIG device");
	/* An unreadable MIG mode might be on: skipped. */
	snap_set_errno(g, "mig_mode", -EACCES, "nvml:nvmlDeviceGetMigMode");
	SKIPPED(s, "runtime.mig-device-selection");
	snapshot_unref(s);
}

static void test_cpu_only(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *t;

	SKIPPED(s, "framework.cpu-only-build"); /* no framework.python_envs */
	t = torch_env(s, "2.9.0+cpu", NULL, NULL);
	YES(s, "framework.cpu-only-build", GPUENV_SEVERITY_INFO, "no GPU on the PCI bus");
	gpu(s, NULL, "nvidia");
	YES(s, "framework.cpu-only-build", GPUENV_SEVERITY_ERROR, "never uses them");
	snap_set_bool(t, "cpu_only", false, "x");
	NO(s, "framework.cpu-only-build");
	snapshot_unref(s);
}

static void test_fw_coverage(void **state)
{
	struct gpuenv_snapshot *s = base();

	/* H100 (9.0) with SASS up to sm_86 and no PTX: no kernel image. */
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "535.104.05");
	torch_env(s, "2.0.1+cu117", "11.7", TARGETS("sm_75", "sm_80", "sm_86"));
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR, "no kernel image");
	NO(s, "framework.gpu-too-old-for-build");
	NO(s, "framework.ptx-jit-only");
	/* torch's own warning, quoted with the name torch prints (the CUDA driver's), never
	 * the knowledge base's product name: unknown here, then NVML's. */
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR,
	    "torch warns \"<name> with CUDA capability sm_90 is not compatible with the current "
	    "PyTorch installation. The current PyTorch install supports CUDA capabilities sm_75 "
	    "sm_80 sm_86.\"");
	{
		struct snap_node *d = snap_append_object(
			snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));

		snap_set_str(d, "pci_bus_id", "00000000:18:00.0", "nvml");
		snap_set_str(d, "name", "NVIDIA H100 80GB HBM3", "nvml");
	}
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR,
	    "\"NVIDIA H100 80GB HBM3 with CUDA capability sm_90 is not");
	snapshot_unref(s);
	/* sm_86 SASS on an A100 (8.0): no kernel image, but torch does not warn (a target of the
	 * same major exists), so no warning is quoted. */
	s = base();
	gpu(s, "0x20b0", "nvidia");
	driver_loaded(s, "535.104.05");
	torch_env(s, "2.0.1+cu117", "11.7", TARGETS("sm_75", "sm_86"));
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR, "no kernel image");
	NO_TEXT(s, "framework.no-kernel-image", "torch warns");
	snapshot_unref(s);
	/* sm_90 SASS: native. */
	s = base();
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "580.95.05");
	torch_env(s, "2.9.0+cu130", "13.0", TARGETS("sm_75", "sm_90", "compute_120"));
	NO(s, "framework.no-kernel-image");
	NO(s, "framework.ptx-jit-only");
	snapshot_unref(s);
	/* GTX 1080 (6.1) below sm_75: too old, not "no kernel image". */
	s = base();
	gpu(s, "0x1b80", "nvidia");
	driver_loaded(s, "580.95.05");
	torch_env(s, "2.9.0+cu130", "13.0", TARGETS("sm_75", "sm_120", "compute_120"));
	YES(s, "framework.gpu-too-old-for-build", GPUENV_SEVERITY_ERROR, "too old");
	NO(s, "framework.no-kernel-image");
	/* torch prints the CUDA driver's device name: without NVML it is not known, and the
	 * knowledge base's "GeForce GTX 1080" never goes into the quote. */
	YES(s, "framework.gpu-too-old-for-build", GPUENV_SEVERITY_ERROR,
	    "\"Found GPU0 <name> which is of cuda capability 6.1.");
	snapshot_unref(s);
	/* RTX 5090 (12.0) with compute_90 PTX of ISA 9.0: JIT on R580, too new for R575. */
	s = base();
	gpu(s, "0x2b85", "nvidia");
	driver_loaded(s, "580.95.05");
	torch_env(s, "2.9.0a0", "13.0", TARGETS("sm_80", "sm_90", "compute_90"));
	YES(s, "framework.ptx-jit-only", GPUENV_SEVERITY_INFO, "JIT-compiled");
	NO(s, "framework.ptx-too-new-for-driver");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "575.64.03", "x");
	YES(s, "framework.ptx-too-new-for-driver", GPUENV_SEVERITY_ERROR, "unsupported toolchain");
	NO(s, "framework.ptx-jit-only");
	snapshot_unref(s);
}

static void test_fw_cuda_newer(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, "0x2684", "nvidia");
	driver_loaded(s, "550.54.15");
	torch_env(s, "2.4.0+cu124", "12.4", NULL);
	NO(s, "framework.cuda-newer-than-driver");
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "cuda", "12.8", "x");
	YES(s, "framework.cuda-newer-than-driver", GPUENV_SEVERITY_WARNING,
	    "minor-version compatibility");
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "cuda", "13.0", "x");
	YES(s, "framework.cuda-newer-than-driver", GPUENV_SEVERITY_ERROR, "found version 12040");
	snapshot_unref(s);
}

/* A pip fix names an index that exists for the release and that the driver runs, never a cuXY
 * made from the driver's CUDA version (R470 is CUDA 11.4: there never was a cu114 index). */
static void test_fw_torch_index(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, "0x25a2", "nvidia");
	driver_loaded(s, "470.86");
	torch_env(s, "2.1.0+cu121", "12.1", NULL);
	YES(s, "framework.cuda-newer-than-driver", GPUENV_SEVERITY_ERROR, "found version 11040");
	NO_FIX(s, "framework.cuda-newer-than-driver", "whl/cu114");
	FIX(s, "framework.cuda-newer-than-driver", "torch 2.1 has no CUDA variant driver 470.86");
	FIX(s, "framework.cuda-newer-than-driver",
	    "'torch==1.12.*' --index-url "
	    "https://download.pytorch.org/whl/cu113");
	/* R535: torch 2.1 published cu121 (>= 530.30.02), the newest 535 runs */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "535.183.01", "x");
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "cuda", "13.0", "x");
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "version", "2.9.0+cu130",
		     "x");
	/* torch 2.9 published cu126, cu128, cu130: none runs on R535 (cu126 needs 560.28.03);
	 * the newest release with one R535 runs is named instead: 2.7's cu118 */
	FIX(s, "framework.cuda-newer-than-driver", "torch 2.9 has no CUDA variant driver 535");
	FIX(s, "framework.cuda-newer-than-driver",
	    "'torch==2.7.*' --index-url https://download.pytorch.org/whl/cu118");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "565.57.01", "x");
	FIX(s, "framework.cuda-newer-than-driver",
	    "'torch==2.9.*' --index-url https://download.pytorch.org/whl/cu126");
	snapshot_unref(s);
}

/* Fix commands follow /etc/os-release: never apt on Fedora. */
static void test_distro_fixes(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, "0x2684", NULL);
	snap_set_errno(node(s, "driver.nvidia.module_file"), "path", -ENOENT,
		       "/lib/modules/6.13.4-200.fc41.x86_64");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "fedora", "/etc/os-release");
	FIX(s, "driver.module-missing-for-kernel", "sudo akmods --force --kernels $(uname -r)");
	FIX(s, "driver.module-missing-for-kernel", "sudo dnf install kernel-devel-$(uname -r)");
	NO_FIX(s, "driver.module-missing-for-kernel", "apt");
	FIX(s, "driver.module-not-loaded", "sudo dnf install akmod-nvidia");
	NO_FIX(s, "driver.module-not-loaded", "apt");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "rocky", "/etc/os-release");
	FIX(s, "driver.module-missing-for-kernel", "kmod-nvidia");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "endeavouros", "/etc/os-release");
	FIX(s, "driver.module-not-loaded", "sudo pacman -S nvidia");
	/* ID unknown, ID_LIKE known */
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "someubuntuspin", "/etc/os-release");
	snap_set_str(snap_object(node(s, "host"), "os"), "id_like", "ubuntu debian",
		     "/etc/os-release");
	FIX(s, "driver.module-missing-for-kernel", "linux-modules-nvidia-<branch>-$(uname -r)");
	/* the initramfs tool of the distribution */
	gpu(s, "0x2684", "nouveau");
	FIX(s, "driver.nouveau-bound", "sudo update-initramfs -u");
	snap_set_str(snap_object(node(s, "host"), "os"), "id", "fedora", "/etc/os-release");
	FIX(s, "driver.nouveau-bound", "sudo dracut --force");
	NO_FIX(s, "driver.nouveau-bound", "update-initramfs");
	snapshot_unref(s);
}

static void test_fw_toolkit_irrelevant(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *t = torch_env(s, "2.4.0+cu124", "12.4", NULL);

	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-11.8", "11.8.0");
	NO(s, "framework.system-toolkit-irrelevant"); /* not known to bring its own runtime */
	snap_append_str(snap_array(t, "requires_nvidia"), "nvidia-cuda-runtime-cu12==12.4.99", "x");
	YES(s, "framework.system-toolkit-irrelevant", GPUENV_SEVERITY_INFO, "its own CUDA 12.4");
	snap_set_str(node(s, "runtime.cuda_toolkits.0"), "version", "12.4.1", "x");
	NO(s, "framework.system-toolkit-irrelevant");
	snapshot_unref(s);
}

static void docker_host(struct gpuenv_snapshot *s, bool nvidia_runtime)
{
	struct snap_node *h = snap_object(node(s, "container"), "host");
	struct snap_node *d = snap_object(h, "docker"), *r;

	snap_set_str(d, "dockerd", "/usr/bin/dockerd", "/usr/bin/dockerd");
	snap_set_str(d, "daemon_json", "/etc/docker/daemon.json", "/etc/docker/daemon.json");
	r = snap_array(d, "runtimes");
	if (nvidia_runtime) {
		r = snap_append_object(r);
		snap_set_str(r, "name", "nvidia", "/etc/docker/daemon.json");
		snap_set_str(r, "path", "nvidia-container-runtime", "/etc/docker/daemon.json");
	}
	snap_set_errno(snap_object(snap_object(h, "toolkit"), "binaries"),
		       "nvidia-container-runtime-hook", -ENOENT, "PATH");
	snap_set_errno(snap_object(h, "containerd"), "containerd", -ENOENT, "PATH");
}

static void test_no_nvidia_runtime(void **state)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	docker_host(s, true);
	NO(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
	s = base();
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	docker_host(s, false);
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR, "docker run --gpus all");
	/* The hook on the user's PATH only: not on systemd-started dockerd's PATH. */
	snap_set_str(node(s, "container.host.toolkit.binaries"), "nvidia-container-runtime-hook",
		     "/home/user/bin/nvidia-container-runtime-hook", "x");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR, "dockerd's PATH");
	/* In /usr/bin: dockerd registers its nvidia device driver for --gpus. */
	snap_set_str(node(s, "container.host.toolkit.binaries"), "nvidia-container-runtime-hook",
		     "/usr/bin/nvidia-container-runtime-hook", "x");
	NO(s, "container.no-nvidia-runtime");
	/* daemon.json unreadable: cannot tell, skipped. */
	snap_set_malformed(node(s, "container.host.docker"), "daemon_json", "{,", "not JSON",
			   "/etc/docker/daemon.json");
	SKIPPED(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
}

/* Docker as a snap: the host's hook is no proof; only the snap's daemon.json counts. */
static void test_no_nvidia_runtime_snap(void **state)
{
	static const char dj[] = "/var/snap/docker/2904/config/daemon.json";
	struct gpuenv_snapshot *s = base();
	struct snap_node *h, *ds, *r;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "550.54.15");
	h = snap_object(node(s, "container"), "host");
	snap_set_errno(snap_object(h, "docker"), "dockerd", -ENOENT, "PATH");
	snap_set_errno(snap_object(h, "containerd"), "containerd", -ENOENT, "PATH");
	snap_set_str(snap_object(snap_object(h, "toolkit"), "binaries"),
		     "nvidia-container-runtime-hook", "/usr/bin/nvidia-container-runtime-hook",
		     "/usr/bin/nvidia-container-runtime-hook");
	ds = snap_object(h, "docker_snap");
	snap_set_state(ds, "docker", FACT_ABSENT, "/snap/bin/docker", NULL);
	NO(s, "container.no-nvidia-runtime");
	snap_set_str(ds, "docker", "/snap/bin/docker", "/snap/bin/docker");
	snap_set_str(ds, "daemon_json", dj, dj);
	snap_array(ds, "runtimes");
	YES(s, "container.no-nvidia-runtime", GPUENV_SEVERITY_ERROR,
	    "does not see the host's nvidia-container-runtime-hook (installed here");
	r = snap_append_object(snap_array(ds, "runtimes"));
	snap_set_str(r, "name", "nvidia", dj);
	snap_set_str(r, "path", "/snap/docker/2904/usr/bin/nvidia-container-runtime", dj);
	NO(s, "container.no-nvidia-runtime");
	snap_set_errno(ds, "daemon_json", -EACCES, dj);
	SKIPPED(s, "container.no-nvidia-runtime");
	snapshot_unref(s);
}

static void test_cdi_stale(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *sp = snap_append_object(
		snap_array(snap_object(node(s, "container"), "host"), "cdi_specs"));

	driver_loaded(s, "550.54.15");
	snap_set_str(sp, "path", "/etc/cdi/nvidia.yaml", "/etc/cdi/nvidia.yaml");
	snap_set_str(sp, "format", "yaml", "/etc/cdi/nvidia.yaml");
	snap_set_str(sp, "kind", "nvidia.com/gpu", "/etc/cdi/nvidia.yaml");
	snap_set_str(sp, "driver_version", "550.54.15", "/etc/cdi/nvidia.yaml");
	NO(s, "container.cdi-spec-stale");
	snap_set_str(sp, "driver_version", "535.104.05", "/etc/cdi/nvidia.yaml");
	YES(s, "container.cdi-spec-stale", GPUENV_SEVERITY_ERROR, "535.104.05");
	snapshot_unref(s);
}

/* A CDI spec that cannot be judged (unreadable, empty or malformed, no kind, no versioned
 * library) is a skip record for that spec and leaves the container layer incomplete, never a
 * silent pass (issue 13.4). */
static void test_cdi_unjudged(void **state)
{
	static const struct {
		enum fact_state st;
		const char *key, *error, *reason;
		bool incomplete;
	} cases[] = {
		{ FACT_UNREADABLE, "format", "Permission denied", "unreadable: Permission denied",
		  true },
		{ FACT_MALFORMED, "format", "empty document", "malformed: empty document", true },
		{ FACT_MALFORMED, "format", "did not find expected key",
		  "malformed: did not find expected key", true },
		{ FACT_ABSENT, "kind", "no kind", "absent: no kind", false },
		{ FACT_ABSENT, "driver_version", "no versioned driver library",
		  "absent: no versioned driver library", false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct gpuenv_snapshot *s = base();
		struct snap_node *sp = snap_append_object(
			snap_array(snap_object(node(s, "container"), "host"), "cdi_specs"));
		const struct rule_skip *k;
		struct gpuenv_doctor *d;

		driver_loaded(s, "550.54.15");
		snap_set_str(sp, "path", "/etc/cdi/nvidia.yaml", "/etc/cdi/nvidia.yaml");
		snap_set_str(sp, "format", "yaml", "/etc/cdi/nvidia.yaml");
		snap_set_str(sp, "kind", "nvidia.com/gpu", "/etc/cdi/nvidia.yaml");
		snap_set_state(sp, cases[i].key, cases[i].st, "/etc/cdi/nvidia.yaml",
			       cases[i].error);
		d = diag(s);
		k = skip_of(d, "container.cdi-spec-stale");
		assert_non_null(k);
		assert_string_equal(k->subject, "/etc/cdi/nvidia.yaml");
		if (!strstr(k->reason, cases[i].reason))
			fail_msg("case %zu: reason \"%s\" lacks \"%s\"", i, k->reason,
				 cases[i].reason);
		assert_int_equal(count(d, "container.cdi-spec-stale"), 0);
		assert_int_equal(d->status[GPUENV_LAYER_CONTAINER] == LAYER_INCOMPLETE,
				 cases[i].incomplete);
		diagnosis_free(d);
		snapshot_unref(s);
	}
}

/* No layer is ✓ (ok, info) or "absent" while one of its facts could not be read, and the
 * facts are listed (issue 13.4). */
static void test_layer_incomplete(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "580.95.05");
	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-13.0", "13.0.2");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_OK);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_ABSENT);
	diagnosis_free(d);
	/* An error state no rule needs. */
	snap_set_state(node(s, "driver.nvidia"), "proc_version", FACT_ERROR,
		       "/proc/driver/nvidia/version", "Input/output error");
	snap_set_malformed(snap_object(node(s, "container"), "host"), "cdi_spec", "x",
			   "/etc/cdi/a.yaml", "empty document");
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_HEALTHY);
	assert_int_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_INCOMPLETE);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_INCOMPLETE);
	assert_int_equal(d->status[GPUENV_LAYER_HARDWARE], LAYER_OK);
	assert_int_equal(d->n_problems, 2);
	assert_string_equal(d->problems[0].name, "driver.nvidia.proc_version");
	assert_int_equal(d->problems[0].state, FACT_ERROR);
	assert_string_equal(d->problems[1].name, "container.host.cdi_spec");
	diagnosis_free(d);
	/* A fact of another section a rule of the layer needed: host.kernel_release. */
	snap_set_state(node(s, "driver.nvidia"), "proc_version", FACT_ABSENT, "x", NULL);
	snap_set_state(node(s, "host"), "kernel_release", FACT_UNREADABLE,
		       "/proc/sys/kernel/osrelease", "Permission denied");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_INCOMPLETE);
	diagnosis_free(d);
	/* A warning stays a warning. */
	snap_set_int(node(s, "hardware.gpus.0"), "current_link_width", 8, "x");
	snap_set_state(node(s, "hardware.gpus.0"), "numa_node", FACT_UNREADABLE, "x", "EACCES");
	d = diag(s);
	assert_int_equal(d->status[GPUENV_LAYER_HARDWARE], LAYER_WARNING);
	diagnosis_free(d);
	snapshot_unref(s);
}

static void test_stub_loader(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *l =
		userspace(s, "libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "550.54.15");

	NO(s, "runtime.stub-libcuda");
	/* ld.so.cache names a stubs directory: flagged without any LD_LIBRARY_PATH. */
	snap_set_str(l, "path", "/usr/local/cuda-12.4/lib64/stubs/libcuda.so.1",
		     "/etc/ld.so.cache");
	snap_set_bool(l, "is_stub", true, "x");
	YES(s, "runtime.stub-libcuda", GPUENV_SEVERITY_ERROR, "ld.so loads libcuda.so.1");
	snapshot_unref(s);
}

static void test_rocm_gfx(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, "0x7480", "amdgpu"), *t, *x, *n;
	const char *lib = "/v/torch/lib/libtorch_hip.so";

	snap_set_str(g, "vendor_id", "0x1002", "x");
	n = snap_append_object(snap_array(snap_object(node(s, "driver"), "amdgpu"), "kfd_nodes"));
	snap_set_str(n, "gfx", "gfx1100", "/sys/class/kfd/kfd/topology/nodes/1/properties");
	t = torch_env(s, "2.5.1+rocm6.2", NULL, NULL);
	snap_set_bool(t, "cpu_only", false, "x");
	snap_set_str(t, "hip", "6.2.41133-dd7f95766", "x");
	snap_set_str(t, "local_version", "rocm6.2", "x");
	x = snap_append_object(node(s, "framework.python_envs.0.packages.torch.arch_targets"));
	snap_set_str(x, "gfx", "gfx1100", lib);
	NO(s, "framework.rocm-gfx-unsupported");
	snap_set_str(n, "gfx", "gfx1102", "x");
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "invalid device function");
	/* The override is suggested from the knowledge base only (gfx1102 → 11.0.0, the build
	 * has gfx1100 code), and said to be unsupported by AMD. */
	assert_true(fix_has(s, "framework.rocm-gfx-unsupported",
			    "HSA_OVERRIDE_GFX_VERSION=11.0.0   # NOT supported by AMD"));
	/* No row for gfx1010 holds a value: nothing is suggested. */
	snap_set_str(n, "gfx", "gfx1010", "x");
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "invalid device function");
	assert_false(fix_has(s, "framework.rocm-gfx-unsupported", "HSA_OVERRIDE_GFX_VERSION="));
	/* gfx1031 → 10.3.0 runs gfx1030 code, which this build lacks: not suggested either. */
	snap_set_str(n, "gfx", "gfx1031", "x");
	assert_false(fix_has(s, "framework.rocm-gfx-unsupported", "HSA_OVERRIDE_GFX_VERSION="));
	snap_set_str(n, "gfx", "gfx1102", "x");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "11.0.0");
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_WARNING, "an override");
	snapshot_unref(s);
}

static void test_chain_framework(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;

	gpu(s, "0x2684", "nvidia");
	driver_loaded(s, "550.54.15");
	torch_env(s, "2.9.0+cu130", "13.0", NULL);
	d = diag(s);
	assert_non_null(strstr(d->chain.framework, "torch 2.9.0+cu130 (CUDA 13.0)"));
	assert_int_equal(d->chain.link_state[1], LINK_BROKEN);
	diagnosis_free(d);
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "cuda", "12.4", "x");
	d = diag(s);
	assert_int_equal(d->chain.link_state[1], LINK_OK);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* ---- verdict, status, chain ----------------------------------------------------------- */

static void test_verdict(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "580.95.05");
	toolkit(s, "/usr/local/cuda", "/usr/local/cuda-13.0", "13.0.2");
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_HEALTHY);
	assert_int_equal(d->status[GPUENV_LAYER_HARDWARE], LAYER_OK);
	assert_int_equal(d->status[GPUENV_LAYER_FRAMEWORK], LAYER_UNKNOWN);
	assert_int_equal(d->status[GPUENV_LAYER_CONTAINER], LAYER_ABSENT);
	assert_int_equal(d->chain.link_state[0], LINK_OK);
	assert_string_equal(d->chain.driver_cuda, "13.0");
	assert_string_equal(d->chain.toolkit, "13.0.2");
	diagnosis_free(d);
	/* A warning only. */
	snap_set_int(node(s, "hardware.gpus.0"), "current_link_width", 8, "x");
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_WARNINGS);
	assert_int_equal(d->status[GPUENV_LAYER_HARDWARE], LAYER_WARNING);
	diagnosis_free(d);
	/* 13.0 on R535: the chain's first link is broken. */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "535.183.01", "x");
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_ERRORS);
	assert_int_equal(d->chain.link_state[0], LINK_BROKEN);
	diagnosis_free(d);
	snapshot_unref(s);
	/* Nothing readable: could not evaluate. */
	assert_int_equal(snapshot_new(&s), 0);
	d = diag(s);
	assert_int_equal(d->verdict, GPUENV_VERDICT_UNEVALUATED);
	assert_int_equal(d->n_findings, 0);
	assert_true(d->n_skips > 0);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* Appends a runtime.library-shadowed warning saying message, with room for one evidence. */
static struct finding *add_finding(struct gpuenv_doctor *d, const char *message)
{
	struct finding *f;

	d->findings = realloc(d->findings, (d->n_findings + 1) * sizeof(*f));
	assert_non_null(d->findings);
	d->alloc_findings = d->n_findings + 1;
	f = &d->findings[d->n_findings++];
	*f = (struct finding){ .diag = d,
			       .rule = rule_find("runtime.library-shadowed"),
			       .severity = GPUENV_SEVERITY_WARNING,
			       .message = strdup(message),
			       .ev = calloc(1, sizeof(*f->ev)),
			       .n_ev = 1 };
	assert_non_null(f->rule);
	assert_non_null(f->ev);
	return f;
}

/* --redact of an identifying value that is itself part of "<redacted>" ("red") ends, in
 * both renderers that rewrite the text of a finding. */
static void test_redact_value_inside_marker(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d = diag(s);
	struct strbuf sb = STRBUF_INIT;
	struct finding *f = add_finding(d, "X=red is red");

	f->ev[0] = (struct rule_evidence){ strdup("environment.X"), strdup("red"),
					   strdup("environment"), true };
	assert_int_equal(out_doctor_json(d, GPUENV_RENDER_REDACT, &sb), 0);
	assert_non_null(strstr(strbuf_str(&sb), "X=<redacted> is <redacted>"));
	strbuf_reset(&sb);
	assert_int_equal(out_doctor_text(d, GPUENV_RENDER_REDACT, &sb), 0);
	assert_non_null(strstr(strbuf_str(&sb), "X=<redacted> is <redacted>"));
	strbuf_done(&sb);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* Every byte below 0x20 but the newline, and 0x7f, is absent from text. */
static void assert_no_controls(const char *text)
{
	for (const char *p = text; *p; p++)
		if (*p != '\n' && ((unsigned char)*p < 0x20 || *p == 0x7f))
			fail_msg("control byte 0x%02x at offset %td of:\n%s", (unsigned char)*p,
				 p - text, text);
}

/* Text read from the machine reaches the text, Markdown and Mermaid renderers with its
 * control characters escaped, and cannot open code spans, links, HTML or table cells in
 * Markdown. */
static void test_render_escapes(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d = diag(s);
	struct strbuf sb = STRBUF_INIT;
	struct finding *f = add_finding(d, "os \033]0;owned\007 [x](http://e) <b>|</b>\nnext");

	f->fix = calloc(2, sizeof(char *));
	assert_non_null(f->fix);
	f->ev[0] = (struct rule_evidence){ strdup("driver.x"), strdup("a``b\033[2J"),
					   strdup("/etc/`x`"), false };
	f->fix[0] = strdup("echo ```\033[31m");
	d->facts = realloc(d->facts, (d->n_facts + 1) * sizeof(*d->facts));
	assert_non_null(d->facts);
	d->alloc_facts = d->n_facts + 1;
	d->facts[d->n_facts++] = (struct layer_fact){ GPUENV_LAYER_DRIVER, strdup("NVIDIA driver"),
						      strdup("550|<i>`x`\033[8m\xc2\x9b"),
						      strdup("/sys/module/nvidia/version") };

	assert_int_equal(out_doctor_text(d, 0, &sb), 0);
	assert_no_controls(strbuf_str(&sb));
	assert_non_null(strstr(strbuf_str(&sb), "os \\x1b]0;owned\\x07 [x](http://e)"));
	assert_non_null(strstr(strbuf_str(&sb), "</b>\\nnext"));
	assert_non_null(strstr(strbuf_str(&sb), "driver.x = a``b\\x1b[2J [/etc/`x`]"));
	assert_non_null(strstr(strbuf_str(&sb), "550|<i>`x`\\x1b[8m\\xc2\\x9b"));
	strbuf_reset(&sb);

	assert_int_equal(out_doctor_markdown(d, 0, &sb), 0);
	assert_no_controls(strbuf_str(&sb));
	/* message: link, HTML and pipe characters escaped */
	assert_non_null(strstr(
		strbuf_str(&sb),
		"os \\\\x1b\\]0;owned\\\\x07 \\[x\\](http://e) \\<b\\>\\|\\</b\\>\\\\nnext"));
	/* a code span longer than the backtick run inside */
	assert_non_null(strstr(strbuf_str(&sb), "``` a``b\\x1b[2J ``` (`` /etc/`x` ``)"));
	/* a fence longer than the commands' backtick run */
	assert_non_null(strstr(strbuf_str(&sb), "  ````sh\n  echo ```\\x1b[31m\n  ````\n"));
	/* the table cell keeps its pipe and backticks as text */
	assert_non_null(strstr(strbuf_str(&sb), "NVIDIA driver: 550\\|\\<i\\>\\`x\\`\\\\x1b\\[8m"));
	strbuf_reset(&sb);

	assert_int_equal(out_doctor_mermaid(d, 0, &sb), 0);
	assert_no_controls(strbuf_str(&sb));
	strbuf_done(&sb);
	diagnosis_free(d);
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_escapes),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_no_gpu),
		cmocka_unit_test(test_link_down),
		cmocka_unit_test(test_link_degraded),
		cmocka_unit_test(test_bar1),
		cmocka_unit_test(test_gpu_without_driver),
		cmocka_unit_test(test_module_not_loaded),
		cmocka_unit_test(test_secure_boot),
		cmocka_unit_test(test_secure_boot_key),
		cmocka_unit_test(test_wsl),
		cmocka_unit_test(test_module_missing),
		cmocka_unit_test(test_nouveau),
		cmocka_unit_test(test_device_nodes),
		cmocka_unit_test(test_branch_drops_gpu),
		cmocka_unit_test(test_branch_eol),
		cmocka_unit_test(test_no_driver_for_toolkit),
		cmocka_unit_test(test_no_driver_elsewhere),
		cmocka_unit_test(test_toolkit_needs_newer_driver),
		cmocka_unit_test(test_stub),
		cmocka_unit_test(test_toolkits_disagree),
		cmocka_unit_test(test_cannot_target),
		cmocka_unit_test(test_cudnn),
		cmocka_unit_test(test_container_no_devices),
		cmocka_unit_test(test_visible_void),
		cmocka_unit_test(test_image_cuda),
		cmocka_unit_test(test_gpu_unknown),
		cmocka_unit_test(test_nvml_mismatch),
		cmocka_unit_test(test_nvml_mismatch_package_log),
		cmocka_unit_test(test_no_permission),
		cmocka_unit_test(test_xid),
		cmocka_unit_test(test_persistence),
		cmocka_unit_test(test_cuda_compat),
		cmocka_unit_test(test_library_not_found),
		cmocka_unit_test(test_mig_device_selection),
		cmocka_unit_test(test_cpu_only),
		cmocka_unit_test(test_cudnn_older),
		cmocka_unit_test(test_fw_coverage),
		cmocka_unit_test(test_fw_cuda_newer),
		cmocka_unit_test(test_fw_torch_index),
		cmocka_unit_test(test_distro_fixes),
		cmocka_unit_test(test_fw_toolkit_irrelevant),
		cmocka_unit_test(test_no_nvidia_runtime),
		cmocka_unit_test(test_no_nvidia_runtime_snap),
		cmocka_unit_test(test_cdi_stale),
		cmocka_unit_test(test_cdi_unjudged),
		cmocka_unit_test(test_layer_incomplete),
		cmocka_unit_test(test_stub_loader),
		cmocka_unit_test(test_rocm_gfx),
		cmocka_unit_test(test_chain_framework),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_redact_value_inside_marker),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
