// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the AMD rules (src/rules/rules-table-driver-amd.inc,
 * rules-table-runtime-amd.inc) and of the AMD chain (src/rules/rules-amd-chain.c): each rule
 * fires on a snapshot built in C that shows its problem and stays quiet with it fixed; inputs
 * that could not be read give "skipped" records. The builders and assertions:
 * rules-test-util.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "locale-fx.h"
#include "rules-test-util.h"
#include "rules/rules-internal.h"

#define KLOG  "/var/log/kern.log"
#define NODES "/sys/class/kfd/kfd/topology/nodes"

/* An RX 7900 XTX bound to amdgpu 6.7.0, KFD listing it as gfx (NULL: a CPU node only). */
static struct snap_node *amd_gpu(struct gpuenv_snapshot *s, const char *driver, const char *gfx)
{
	struct snap_node *g = gpu(s, "0x744c", driver), *kfd, *n;

	snap_set_str(g, "vendor_id", "0x1002", "x");
	snap_set_str(g, "vendor", "AMD", "x");
	snap_set_str(node(s, "driver.amdgpu"), "module_version", "6.7.0",
		     "/sys/module/amdgpu/version");
	snap_set_bool(node(s, "driver.kernel_modules"), "amdgpu", true, "/proc/modules");
	kfd = snap_array(node(s, "driver.amdgpu"), "kfd_nodes");
	n = snap_append_object(kfd);
	snap_set_int(n, "node", 0, NODES);
	snap_set_state(n, "gfx", FACT_ABSENT, NODES "/0/properties", "CPU node");
	if (gfx) {
		n = snap_append_object(kfd);
		snap_set_int(n, "node", 1, NODES);
		snap_set_str(n, "gfx", gfx, NODES "/1/properties");
	}
	return g;
}

static struct snap_node *kernel_log(struct gpuenv_snapshot *s)
{
	struct snap_node *kl = snap_object(node(s, "driver"), "kernel_log");

	snap_set_str(kl, "source", KLOG, KLOG);
	return kl;
}

/* The running kernel's release (host.kernel_release). */
static void set_release(struct gpuenv_snapshot *s, const char *rel)
{
	snap_set_str(node(s, "host"), "kernel_release", rel, "/proc/sys/kernel/osrelease");
}

static void rocm(struct gpuenv_snapshot *s, const char *version)
{
	struct snap_node *r = snap_append_object(snap_array(node(s, "runtime"), "rocm"));

	snap_set_str(r, "path", "/opt/rocm-6.2.0", "/opt");
	snap_set_str(r, "resolved_path", "/opt/rocm-6.2.0", "/opt");
	snap_set_str(r, "version", version, "/opt/rocm-6.2.0/.info/version");
	snap_set_bool(r, "is_default", true, "/opt/rocm");
}

/* torch 2.5.1+rocm6.2 in a venv whose libtorch_hip.so has a code object for gfx: that target. */
static struct snap_node *rocm_torch(struct gpuenv_snapshot *s, const char *gfx)
{
	struct snap_node *t = torch_env(s, "2.5.1+rocm6.2", NULL, NULL), *x;

	snap_set_bool(t, "cpu_only", false, "x");
	snap_set_str(t, "hip", "6.2.41133-dd7f95766", "x");
	snap_set_str(t, "local_version", "rocm6.2", "x");
	x = snap_append_object(node(s, "framework.python_envs.0.packages.torch.arch_targets"));
	snap_set_str(x, "gfx", gfx, "/v/torch/lib/libtorch_hip.so");
	return x;
}

/* The kernel log's amdgpu lines: n firmware failures, the first for file on the GPU at bus
 * ("Direct firmware load for <file> failed with error -2"). */
static struct snap_node *firmware_failure(struct gpuenv_snapshot *s, int64_t n, const char *bus,
					  const char *file)
{
	struct snap_node *a = snap_object(kernel_log(s), "amdgpu");
	char msg[160];

	snprintf(msg, sizeof(msg), "amdgpu %s: Direct firmware load for %s failed with error -2",
		 bus, file);
	snap_set_int(a, "firmware_failures", n, KLOG);
	snap_set_str(a, "firmware_file", file, KLOG);
	snap_set_str(a, "firmware_message", msg, KLOG);
	return a;
}

static void test_firmware_failed(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = amd_gpu(s, "amdgpu", "gfx1100"), *a;

	(void)state;
	SKIPPED(s, "driver.amdgpu-firmware-failed"); /* no kernel log read */
	a = snap_object(kernel_log(s), "amdgpu");
	NO(s, "driver.amdgpu-firmware-failed");
	firmware_failure(s, 2, "0000:19:00.0", "amdgpu/vega20_ta.bin");
	/* the GPU came up: what the file drives is off, not the GPU */
	YES(s, "driver.amdgpu-firmware-failed", GPUENV_SEVERITY_WARNING, "amdgpu/vega20_ta.bin");
	snap_set_int(a, "init_failures", 1, KLOG);
	snap_set_str(a, "init_message", "amdgpu 0000:19:00.0: Fatal error during GPU init", KLOG);
	YES(s, "driver.amdgpu-firmware-failed", GPUENV_SEVERITY_ERROR, "init failed");
	assert_true(fix_has(s, "driver.amdgpu-firmware-failed", "/lib/firmware/amdgpu/vega20_ta"));
	snap_set_int(a, "init_failures", 0, KLOG);
	snap_set_state(g, "driver", FACT_ABSENT, "x", "No such file or directory");
	YES(s, "driver.amdgpu-firmware-failed", GPUENV_SEVERITY_ERROR, "no driver bound");
	snap_set_int(a, "firmware_failures", 0, KLOG);
	NO(s, "driver.amdgpu-firmware-failed");
	snapshot_unref(s);
}

/* amdgpu's RAS report of an uncorrectable error in the kernel log (ROCm/legacy-rocm-build
 * #1886's MI50): a finding without any vendor session; none in the log: the rule stays the
 * NVML skip it was. */
static void test_ras_kernel_log(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *a;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx906");
	/* no session ran (--no-vendor), as the fixtures have it */
	snap_set_state(snap_object(node(s, "driver"), "nvml"), "init", FACT_UNPROBED, "options",
		       "not called: --no-vendor");
	/* a kernel log that could not be read cannot say there were none: skipped for it
	 * (tests/tools/test-sweep-unreadable.py found it passing) */
	snap_set_state(snap_object(node(s, "driver"), "kernel_log"), "source", FACT_UNREADABLE,
		       KLOG, "Permission denied");
	SKIPPED(s, "hardware.ecc-uncorrectable");
	{
		struct gpuenv_doctor *d = diag(s);

		assert_non_null(strstr(skip_of(d, "hardware.ecc-uncorrectable")->reason,
				       "the kernel log (amdgpu's RAS reports)"));
		assert_int_equal(skip_of(d, "hardware.ecc-uncorrectable")->cause, FACT_UNREADABLE);
		diagnosis_free(d);
	}
	a = snap_object(kernel_log(s), "amdgpu");
	snap_set_int(a, "ras_uncorrectable", 0, KLOG);
	SKIPPED(s, "hardware.ecc-uncorrectable");
	snap_set_int(a, "ras_uncorrectable", 1, KLOG);
	snap_set_str(a, "ras_message",
		     "amdgpu 0000:e3:00.0: amdgpu: uncorrectable hardware "
		     "error(ERREVENT_ATHUB_INTERRUPT) detected!",
		     KLOG);
	snap_set_str(a, "ras_bus", "0000:e3:00.0", KLOG);
	YES(s, "hardware.ecc-uncorrectable", GPUENV_SEVERITY_ERROR,
	    "uncorrectable hardware errors on AMD GPU 0000:e3:00.0");
	FIX(s, "hardware.ecc-uncorrectable", "reseat the GPU");
	snapshot_unref(s);
}

/* The skip of hardware.ecc-uncorrectable for AMD SMI (the rule has NVML's too). */
static const struct rule_skip *amdsmi_skip(const struct gpuenv_doctor *d)
{
	for (size_t i = 0; i < d->n_skips; i++)
		if (streq(d->skips[i].rule->id, "hardware.ecc-uncorrectable") &&
		    strstr(d->skips[i].reason, "no GPU health from AMD SMI ("))
			return &d->skips[i];
	fail_msg("no skip of hardware.ecc-uncorrectable for AMD SMI");
	return NULL;
}

/* AMD SMI not called because /sys/module/amdgpu could not be looked at (probe-amd-smi.c), or
 * failing in amdsmi_init: the GPU's ECC counts are unknown, and the rule's skip says it could
 * not tell (the layer incomplete, never ✓: tests/tools/sweep-unreadable.c found the hardware
 * layer turning ✓ with an AMD SMI session's ECC finding gone); a session that lists no GPU
 * read that, and its skip is no failure. */
static void test_ras_amdsmi_not_had(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *smi;
	struct gpuenv_doctor *d;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx1100");
	snap_set_state(snap_object(node(s, "driver"), "nvml"), "init", FACT_UNPROBED, "options",
		       "not called: no NVIDIA GPU");
	snap_set_int(snap_object(kernel_log(s), "amdgpu"), "ras_uncorrectable", 0, KLOG);
	smi = snap_object(node(s, "driver"), "amdsmi");
	snap_set_state(smi, "init", FACT_UNREADABLE, "/sys/module/amdgpu",
		       "not called: could not tell whether the amdgpu kernel module is loaded "
		       "(/sys/module/amdgpu: Permission denied)");
	SKIPPED(s, "hardware.ecc-uncorrectable");
	d = diag(s);
	assert_non_null(strstr(amdsmi_skip(d)->reason,
			       "(driver.amdsmi.init: unreadable: not "
			       "called: could not tell whether the amdgpu"));
	assert_int_equal(amdsmi_skip(d)->cause, FACT_UNREADABLE);
	diagnosis_free(d);
	snap_set_state(smi, "init", FACT_ERROR, "amdsmi:amdsmi_init",
		       "AMDSMI_STATUS_DRIVER_NOT_LOADED");
	d = diag(s);
	assert_int_equal(amdsmi_skip(d)->cause, FACT_ERROR);
	diagnosis_free(d);
	snap_set_str(smi, "init", "AMDSMI_STATUS_SUCCESS", "amdsmi:amdsmi_init");
	snap_array(smi, "devices");
	d = diag(s);
	assert_non_null(strstr(amdsmi_skip(d)->reason, "driver.amdsmi lists no GPU"));
	assert_false(fact_is_failure(amdsmi_skip(d)->cause));
	diagnosis_free(d);
	snapshot_unref(s);
}

static void test_no_kfd(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *kl;

	(void)state;
	amd_gpu(s, "amdgpu", NULL);
	YES(s, "driver.amdgpu-no-kfd", GPUENV_SEVERITY_ERROR, "lists no GPU node");
	kl = snap_object(kernel_log(s), "amdgpu");
	snap_set_str(kl, "kfd_message", "kfd kfd: amdgpu: PITCAIRN  not supported in kfd", KLOG);
	YES(s, "driver.amdgpu-no-kfd", GPUENV_SEVERITY_ERROR, "PITCAIRN  not supported in kfd");
	NO_FIX(s, "driver.amdgpu-no-kfd", "no entry for the GPU's device id");
	/* a KFD release without the GPU's device id (ROCm/legacy-rocm-build#719) */
	snap_set_str(kl, "kfd_message", "kfd kfd: DID 6fdf is missing in supported_devices", KLOG);
	YES(s, "driver.amdgpu-no-kfd", GPUENV_SEVERITY_ERROR, "DID 6fdf is missing");
	FIX(s, "driver.amdgpu-no-kfd", "no entry for the GPU's device id");
	/* no KFD at all (CONFIG_HSA_AMD off): absent, still judged */
	snap_set_state(node(s, "driver.amdgpu"), "kfd_nodes", FACT_ABSENT, NODES,
		       "No such file or directory");
	YES(s, "driver.amdgpu-no-kfd", GPUENV_SEVERITY_ERROR, "the kernel has no KFD");
	/* unreadable: could not tell */
	snap_set_state(node(s, "driver.amdgpu"), "kfd_nodes", FACT_UNREADABLE, NODES,
		       "Permission denied");
	SKIPPED(s, "driver.amdgpu-no-kfd");
	snapshot_unref(s);

	s = base();
	amd_gpu(s, "amdgpu", "gfx1100");
	NO(s, "driver.amdgpu-no-kfd");
	snapshot_unref(s);
}

/* /dev mounted noexec under an APU in KFD's IOMMUv2 mode (ROCm/rocminfo#40): KFD's node of
 * the APU counts CPU cores; a discrete GPU's node counts none and is not judged. Linux 6.5
 * dropped IOMMUv2 mode (thresholds.tsv): from it on nothing is mapped from /dev/kfd. */
static void test_dev_noexec(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *amd, *gpu_node, *host = node(s, "host");

	(void)state;
	set_release(s, "5.6.0-1047-oem");
	amd_gpu(s, "amdgpu", NULL);
	amd = node(s, "driver.amdgpu");
	gpu_node = snap_append_object(snap_array(amd, "kfd_nodes"));
	snap_set_int(gpu_node, "node", 1, NODES);
	snap_set_str(gpu_node, "gfx", "gfx902", NODES "/1/properties");
	snap_set_int(gpu_node, "cpu_cores_count", 8, NODES "/1/properties");
	snap_set_str(amd, "dev_mount_options", "rw,nosuid,noexec,relatime", "/proc/self/mountinfo");
	YES(s, "driver.dev-noexec", GPUENV_SEVERITY_ERROR, "(gfx902, KFD node 1 with 8 CPU cores)");
	set_release(s, "6.0.19");
	YES(s, "driver.dev-noexec", GPUENV_SEVERITY_ERROR, "(gfx902, KFD node 1 with 8 CPU cores)");
	/* the kernels without the mapping: quiet */
	set_release(s, "6.5.0-1-generic");
	NO(s, "driver.dev-noexec");
	set_release(s, "6.8.0-45-generic");
	NO(s, "driver.dev-noexec");
	set_release(s, "10.0.1");
	NO(s, "driver.dev-noexec");
	/* a 6.1 to 6.4 stable kernel may carry it, a release unknown or unreadable: could not
	 * tell, never a finding */
	set_release(s, "6.1.55-cip6");
	SKIPPED(s, "driver.dev-noexec");
	set_release(s, "6.4.16");
	SKIPPED(s, "driver.dev-noexec");
	set_release(s, "unknown");
	SKIPPED(s, "driver.dev-noexec");
	snap_set_state(host, "kernel_release", FACT_UNREADABLE, "/proc/sys/kernel/osrelease",
		       "Permission denied");
	SKIPPED(s, "driver.dev-noexec");
	snap_set_state(host, "kernel_release", FACT_ABSENT, "/proc/sys/kernel/osrelease", "none");
	SKIPPED(s, "driver.dev-noexec");
	set_release(s, "5.6.0-1047-oem");
	/* exec, or an option that only ends in "noexec": quiet */
	snap_set_str(amd, "dev_mount_options", "rw,nosuid,relatime", "/proc/self/mountinfo");
	NO(s, "driver.dev-noexec");
	snap_set_str(amd, "dev_mount_options", "rw,xnoexec", "/proc/self/mountinfo");
	NO(s, "driver.dev-noexec");
	/* nothing mounted at /dev: not judged as noexec */
	snap_set_state(amd, "dev_mount_options", FACT_ABSENT, "/proc/self/mountinfo", "none");
	NO(s, "driver.dev-noexec");
	/* the mount table unreadable: could not tell */
	snap_set_state(amd, "dev_mount_options", FACT_UNREADABLE, "/proc/self/mountinfo",
		       "Permission denied");
	SKIPPED(s, "driver.dev-noexec");
	/* a discrete GPU (no CPU cores in its node): /dev noexec does not matter */
	snap_set_str(amd, "dev_mount_options", "rw,nosuid,noexec,relatime", "/proc/self/mountinfo");
	snap_set_int(gpu_node, "cpu_cores_count", 0, NODES "/1/properties");
	NO(s, "driver.dev-noexec");
	snapshot_unref(s);
}

/* KFD skipping a GPU whose PCIe path rejects atomics (ROCm/legacy-rocm-build#1214): the
 * hardware finding, and driver.amdgpu-no-kfd's error caused by it; a firmware fix only where
 * the line names a firmware version that lifts it; quiet when KFD lists the GPU. */
static void test_pcie_atomics(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;
	struct snap_node *kl;

	(void)state;
	snap_set_str(amd_gpu(s, "amdgpu", NULL), "device_id", "0x67df", "x");
	SKIPPED(s, "hardware.pcie-atomics-unsupported"); /* no kernel log read: could not tell */
	kl = snap_object(kernel_log(s), "amdgpu");
	NO(s, "hardware.pcie-atomics-unsupported");
	snap_set_str(kl, "atomics_message",
		     "kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics", KLOG);
	snap_set_str(kl, "atomics_pci_id", "1002:67df", KLOG);
	YES(s, "hardware.pcie-atomics-unsupported", GPUENV_SEVERITY_ERROR,
	    "KFD skipped the AMD GPU 1002:67df because the PCIe path to it does not complete "
	    "atomic operations");
	NO_FIX(s, "hardware.pcie-atomics-unsupported", "MEC firmware");
	d = diag(s);
	assert_string_equal(finding_cause(d, find(d, "driver.amdgpu-no-kfd", 0))->rule->id,
			    "hardware.pcie-atomics-unsupported");
	assert_string_equal(diagnosis_root_cause(d)->rule->id, "hardware.pcie-atomics-unsupported");
	diagnosis_free(d);
	snap_set_int(kl, "atomics_mec_firmware", 123, KLOG);
	snap_set_int(kl, "atomics_firmware_needed", 145, KLOG);
	FIX(s, "hardware.pcie-atomics-unsupported", "MEC firmware 123 < 145");
	snapshot_unref(s);

	s = base();
	amd_gpu(s, "amdgpu", "gfx803");
	kl = snap_object(kernel_log(s), "amdgpu");
	snap_set_str(kl, "atomics_message",
		     "kfd kfd: amdgpu: skipped device 1002:67df, PCI rejects atomics", KLOG);
	NO(s, "hardware.pcie-atomics-unsupported");
	snapshot_unref(s);
}

static void kfd_gpu_node(struct gpuenv_snapshot *s, const char *gfx);

static void test_override_wrong_target(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	amd_gpu(s, "amdgpu", "gfx90a");
	NO(s, "runtime.hsa-override-wrong-target"); /* no override */
	env(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0");
	YES(s, "runtime.hsa-override-wrong-target", GPUENV_SEVERITY_ERROR,
	    "gfx1030 code on this gfx90a GPU");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "9.0.10"); /* the GPU's own target */
	NO(s, "runtime.hsa-override-wrong-target");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "gfx1030");
	YES(s, "runtime.hsa-override-wrong-target", GPUENV_SEVERITY_ERROR,
	    "not major.minor.stepping");
	snapshot_unref(s);

	/* same generation on a GPU ROCm 6.2 lists: only takes its own code away */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "11.0.2");
	YES(s, "runtime.hsa-override-wrong-target", GPUENV_SEVERITY_WARNING,
	    "which ROCm 6.2.0 supports");
	snapshot_unref(s);

	/* same generation on an unlisted GPU: the framework rule's, not this one's */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1102");
	rocm(s, "6.2.0");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "11.0.0");
	NO(s, "runtime.hsa-override-wrong-target");
	snapshot_unref(s);

	/* ROCm/legacy-rocm-build#5696: 12.0.1 names the first GPU's own target (an R9700), but
	 * the override is every GPU's: the Strix Halo's 8060S beside it becomes a gfx1201 too */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1201");
	kfd_gpu_node(s, "gfx1151");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "12.0.1");
	YES(s, "runtime.hsa-override-wrong-target", GPUENV_SEVERITY_ERROR,
	    "makes ROCm load gfx1201 code on this gfx1151 GPU (it is every GPU's: the gfx1201 "
	    "beside it is the one it names)");
	env(s, "HIP_VISIBLE_DEVICES", "0"); /* the process sees the R9700 alone */
	NO(s, "runtime.hsa-override-wrong-target");
	snapshot_unref(s);
}

static void dkms(struct gpuenv_snapshot *s, const char *module, const char *package)
{
	snap_set_str(node(s, "driver.amdgpu"), "module_version", module,
		     "/sys/module/amdgpu/version");
	snap_set_str(node(s, "driver.amdgpu"), "dkms_package", package, "/var/lib/dpkg/status");
}

static void test_kmd_userspace(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	NO(s, "driver.amdgpu-kmd-userspace"); /* no amdgpu-dkms package known */
	/* ROCm 6.2's own driver */
	dkms(s, "6.8.5", "1:6.8.5.60200-2009582.24.04");
	NO(s, "driver.amdgpu-kmd-userspace");
	/* ROCm 6.0's driver supports user space up to 6.2 */
	dkms(s, "6.3.6", "1:6.3.6.60000-1697589.22.04");
	NO(s, "driver.amdgpu-kmd-userspace");
	/* ROCm 5.6's driver: 5.4 .. 6.0, user space 6.2 is newer */
	dkms(s, "6.1.5", "1:6.1.5.50600-1609671.22.04");
	YES(s, "driver.amdgpu-kmd-userspace", GPUENV_SEVERITY_ERROR,
	    "AMD supports ROCm 5.4,5.5,5.6,5.7,6.0 on it, not 6.2.0");
	/* the package on disk is not the module that runs */
	dkms(s, "6.7.0", "1:6.8.5.60200-2009582.22.04");
	YES(s, "driver.amdgpu-kmd-userspace", GPUENV_SEVERITY_WARNING,
	    "the loaded amdgpu is 6.7.0, but the amdgpu-dkms installed is");
	/* no ROCm release number (AMD GPU Driver 30.x): could not tell */
	dkms(s, "6.14.14", "1:6.14.14-2193512.24.04");
	SKIPPED(s, "driver.amdgpu-kmd-userspace");
	/* user space older than the driver supports: a warning */
	dkms(s, "6.10.5", "1:6.10.5.60300-2084815.24.04");
	rocm(s, "5.7.1");
	snap_set_bool(node(s, "runtime.rocm.0"), "is_default", false, "/opt/rocm");
	YES(s, "driver.amdgpu-kmd-userspace", GPUENV_SEVERITY_WARNING, "not 5.7.1");
	snapshot_unref(s);
}

/* A torch +rocm wheel runs on the ROCm it bundles in torch/lib (libamdhip64), whatever
 * /opt/rocm holds: its HIP release is judged on the KMD as the system's ROCm is. */
static void test_kmd_userspace_bundled(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *bundled;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm_torch(s, "gfx1100"); /* HIP 6.2.41133 */
	/* ROCm 5.6's driver (5.4 .. 6.0), no system ROCm: torch's HIP is not its own yet */
	dkms(s, "6.1.5", "1:6.1.5.50600-1609671.22.04");
	NO(s, "driver.amdgpu-kmd-userspace"); /* no libamdhip64 in torch/lib: uses the system's */
	bundled = snap_array(node(s, "framework.python_envs.0.packages.torch"),
			     "cuda_libraries_bundled");
	snap_append_str(bundled, "libamdhip64.so", "/v/torch/lib");
	YES(s, "driver.amdgpu-kmd-userspace", GPUENV_SEVERITY_ERROR,
	    "runs on the ROCm it bundles (HIP 6.2.41133-dd7f95766), whatever /opt/rocm holds, on "
	    "amdgpu 6.1.5, the kernel driver of ROCm 5.6 (1:6.1.5.50600-1609671.22.04): AMD "
	    "supports ROCm 5.4,5.5,5.6,5.7,6.0 on it, not 6.2");
	/* a system ROCm the KMD supports does not hide the wheel's */
	rocm(s, "6.0.2");
	YES(s, "driver.amdgpu-kmd-userspace", GPUENV_SEVERITY_ERROR, "not 6.2");
	/* ROCm 6.0's driver supports 5.6 .. 6.2: the wheel and the system both fit */
	dkms(s, "6.3.6", "1:6.3.6.60000-1697589.22.04");
	NO(s, "driver.amdgpu-kmd-userspace");
	/* ROCm 6.3's driver (6.1 .. 7.0): the wheel fits, the system's 6.0.2 is older: one warning,
	 * about the system's */
	dkms(s, "6.10.5", "1:6.10.5.60300-2084815.24.04");
	YES(s, "driver.amdgpu-kmd-userspace", GPUENV_SEVERITY_WARNING, "ROCm 6.0.2 runs on");
	snapshot_unref(s);
}

/* ROCm 4.1 on the kernel's own amdgpu of 5.10-5.12 disables a Vega 20 (gfx906):
 * ROCm/legacy-rocm-build#1431 (AMD: "ROCm 4.1 does not work on any of the Linux kernels 5.10,
 * 5.11, 5.12"), #1423 (only Vega 20; rock-dkms 4.1 with ROCm 4.1 works). */
static void test_kmd_userspace_kernel_amdgpu(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *amd;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx906");
	amd = node(s, "driver.amdgpu");
	snap_set_state(amd, "module_version", FACT_ABSENT, "/sys/module/amdgpu/version", NULL);
	set_release(s, "5.11.6-1-default");
	rocm(s, "4.1.0");
	YES(s, "driver.amdgpu-kmd-userspace", GPUENV_SEVERITY_ERROR,
	    "ROCm 4.1.0 runs on the kernel's own amdgpu (Linux 5.11.6-1-default, no amdgpu-dkms "
	    "loaded), which AMD says ROCm 4.1 does not work on for gfx906 (kernels 5.10 to 5.12)");
	/* ROCm 4.0 works on these kernels (AMD, #1431) */
	snap_set_str(node(s, "runtime.rocm.0"), "version", "4.0.1", "x");
	NO(s, "driver.amdgpu-kmd-userspace");
	/* a kernel outside the range AMD named: not judged */
	snap_set_str(node(s, "runtime.rocm.0"), "version", "4.1.0", "x");
	set_release(s, "5.13.0-1-default");
	NO(s, "driver.amdgpu-kmd-userspace");
	/* only Vega 20: an RX 7900 XTX (gfx1100) on 5.11 is not named */
	set_release(s, "5.11.6-1-default");
	snap_set_str(node(s, "driver.amdgpu.kfd_nodes.1"), "gfx", "gfx1100", NODES "/1/properties");
	NO(s, "driver.amdgpu-kmd-userspace");
	/* rock-dkms 4.1 loaded (a version file): AMD's own driver, not the kernel's */
	snap_set_str(node(s, "driver.amdgpu.kfd_nodes.1"), "gfx", "gfx906", NODES "/1/properties");
	snap_set_str(amd, "module_version", "4.1-26", "/sys/module/amdgpu/version");
	NO(s, "driver.amdgpu-kmd-userspace");
	/* no version file, but /proc/modules marks amdgpu out of tree (a DKMS build whose
	 * release is not known): not judged as the kernel's amdgpu */
	snap_set_state(amd, "module_version", FACT_ABSENT, "/sys/module/amdgpu/version", NULL);
	snap_set_bool(amd, "out_of_tree", true, "/proc/modules");
	NO(s, "driver.amdgpu-kmd-userspace");
	snap_set_bool(amd, "out_of_tree", false, "/proc/modules");
	/* the kernel's amdgpu, the KFD topology unreadable: could not tell */
	snap_set_state(amd, "module_version", FACT_ABSENT, "/sys/module/amdgpu/version", NULL);
	snap_set_errno(amd, "kfd_nodes", -EACCES, NODES);
	SKIPPED(s, "driver.amdgpu-kmd-userspace");
	snapshot_unref(s);
}

/* environment.profile_settings: name=value at line 5 of ~/.bashrc, exported or not. */
static void profile(struct gpuenv_snapshot *s, const char *name, const char *value, bool exported)
{
	static const char f[] = "/home/user/.bashrc";
	struct snap_node *o =
		snap_append_object(snap_array(node(s, "environment"), "profile_settings"));

	snap_set_str(o, "file", f, f);
	snap_set_str(o, "name", name, f);
	snap_set_str(o, "value", value, f);
	snap_set_int(o, "line", 5, f);
	snap_set_bool(o, "exported", exported, f);
	snap_set_bool(o, "expands", false, f);
}

static void test_override_not_inherited(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	amd_gpu(s, "amdgpu", "gfx1031");
	rocm(s, "6.2.0");
	snap_set_state(node(s, "environment"), "HSA_OVERRIDE_GFX_VERSION", FACT_ABSENT,
		       "environment", NULL);
	NO(s, "runtime.override-not-inherited"); /* no startup file sets anything */
	profile(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0", true);
	YES(s, "runtime.override-not-inherited", GPUENV_SEVERITY_ERROR,
	    "ROCm takes this GPU as gfx1031, which ROCm 6.2.0 does not support");
	/* the process has it: nothing missing */
	env(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0");
	NO(s, "runtime.override-not-inherited");
	snapshot_unref(s);

	/* a GPU ROCm supports, a device list not exported: a warning */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	snap_set_state(node(s, "environment"), "HIP_VISIBLE_DEVICES", FACT_ABSENT, "environment",
		       NULL);
	profile(s, "HIP_VISIBLE_DEVICES", "0", false);
	YES(s, "runtime.override-not-inherited", GPUENV_SEVERITY_WARNING, "without export");
	snapshot_unref(s);

	/* the GPU judged is the first one the process sees: a gfx1031 first in KFD and hidden by
	 * the process's HIP_VISIBLE_DEVICES=1 is not the GPU that runs without the override */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1031");
	rocm(s, "6.2.0");
	kfd_gpu_node(s, "gfx1100");
	snap_set_state(node(s, "environment"), "HSA_OVERRIDE_GFX_VERSION", FACT_ABSENT,
		       "environment", NULL);
	profile(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0", true);
	YES(s, "runtime.override-not-inherited", GPUENV_SEVERITY_ERROR, "as gfx1031");
	env(s, "HIP_VISIBLE_DEVICES", "1");
	YES(s, "runtime.override-not-inherited", GPUENV_SEVERITY_WARNING,
	    "without it ROCm loads gfx1100 code, not gfx1030");
	snapshot_unref(s);
}

/* WSL2 (ROCm/librocdxg#34, unslothai/unsloth#9729): ROCm 7.2 to 7.12 reach /dev/dxg only with
 * HSA_ENABLE_DXG_DETECTION=1; neither 6.x's WSL runtime nor 7.13 needs it. */
static void test_rocm_wsl_dxg_detection(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *wsl;

	(void)state;
	rocm(s, "7.2.1-81");
	node(s, "environment");
	NO(s, "runtime.rocm-wsl-dxg-detection-unset"); /* not WSL2 */
	set_release(s, "6.6.87.2-microsoft-standard-WSL2");
	wsl = snap_object(node(s, "host"), "wsl");
	snap_set_bool(wsl, "dxg_device", false, "/dev/dxg");
	NO(s, "runtime.rocm-wsl-dxg-detection-unset"); /* no /dev/dxg: another rule's */
	snap_set_bool(wsl, "dxg_device", true, "/dev/dxg");
	YES(s, "runtime.rocm-wsl-dxg-detection-unset", GPUENV_SEVERITY_ERROR,
	    "WSL2 with ROCm 7.2.1-81: its runtime (ROCr) looks for the GPU through /dev/dxg only "
	    "with HSA_ENABLE_DXG_DETECTION=1, which the environment lacks");
	env(s, "HSA_ENABLE_DXG_DETECTION", "0");
	YES(s, "runtime.rocm-wsl-dxg-detection-unset", GPUENV_SEVERITY_ERROR,
	    "which the environment sets to another value");
	env(s, "HSA_ENABLE_DXG_DETECTION", "1");
	NO(s, "runtime.rocm-wsl-dxg-detection-unset");
	snapshot_unref(s);

	/* 6.4's WSL runtime and 7.13 need no variable */
	for (size_t i = 0; i < 2; i++) {
		s = base();
		rocm(s, i ? "7.13.0" : "6.4.1");
		node(s, "environment");
		set_release(s, "6.6.87.2-microsoft-standard-WSL2");
		snap_set_bool(snap_object(node(s, "host"), "wsl"), "dxg_device", true, "/dev/dxg");
		NO(s, "runtime.rocm-wsl-dxg-detection-unset");
		snapshot_unref(s);
	}
}

/* WSL2 (ROCm/librocdxg#46): librocdxg in /opt/rocm/lib, which the loader's search misses. */
static void test_rocm_wsl_librocdxg(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *o = snap_object(node(s, "runtime"), "rocm_wsl");
	struct snap_node *lib = snap_object(o, "librocdxg");

	(void)state;
	snap_set_str(o, "librocdxg_file", "/opt/rocm/lib/librocdxg.so", "/opt/rocm/lib");
	snap_set_state(lib, "path", FACT_ABSENT, "ld.so search", "not found");
	NO(s, "runtime.rocm-wsl-librocdxg-not-found"); /* not WSL2 */
	set_release(s, "6.6.114.1-microsoft-standard-WSL2");
	YES(s, "runtime.rocm-wsl-librocdxg-not-found", GPUENV_SEVERITY_ERROR,
	    "is installed at /opt/rocm/lib/librocdxg.so, but the dynamic loader does not find "
	    "librocdxg.so");
	/* the loader's search could not be told: skipped, never a pass */
	snap_set_errno(lib, "path", -EACCES, "/etc/ld.so.cache");
	SKIPPED(s, "runtime.rocm-wsl-librocdxg-not-found");
	snap_set_str(lib, "path", "/opt/rocm/lib/librocdxg.so", "/etc/ld.so.cache");
	NO(s, "runtime.rocm-wsl-librocdxg-not-found");
	/* no librocdxg at /opt/rocm/lib: nothing this rule knows to be misplaced */
	snap_set_state(lib, "path", FACT_ABSENT, "ld.so search", "not found");
	snap_set_state(o, "librocdxg_file", FACT_ABSENT, "/opt/rocm/lib/librocdxg.so", NULL);
	NO(s, "runtime.rocm-wsl-librocdxg-not-found");
	snap_set_errno(o, "librocdxg_file", -EACCES, "/opt/rocm");
	SKIPPED(s, "runtime.rocm-wsl-librocdxg-not-found");
	snapshot_unref(s);
}

/* ollama's unit (framework.ollama.service_*): an enabled service never reads a startup file
 * the judged shell read; a unit not enabled leaves a hand-started `ollama serve` without what
 * only the unit sets (ollama/ollama#8679). */
static void test_override_not_inherited_ollama(void **state)
{
	const char *id = "runtime.override-not-inherited";
	struct gpuenv_snapshot *s = base();
	struct snap_node *ol, *senv;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx1031");
	rocm(s, "6.2.0");
	env(s, "PATH", "/usr/bin");
	ol = snap_object(node(s, "framework"), "ollama");
	snap_set_str(ol, "service_unit", "/usr/lib/systemd/system/ollama.service", "x");
	snap_set_bool(ol, "service_enabled", false, "/etc/systemd/system/*.wants");
	senv = snap_object(ol, "service_environment");
	NO(s, id); /* the unit sets nothing */
	snap_set_str(senv, "HSA_OVERRIDE_GFX_VERSION", "10.3.0",
		     "/etc/systemd/system/ollama.service.d/override.conf:2");
	YES(s, id, GPUENV_SEVERITY_ERROR,
	    "HSA_OVERRIDE_GFX_VERSION=10.3.0 is set for the ollama service "
	    "(/etc/systemd/system/ollama.service.d/override.conf:2), whose unit "
	    "/usr/lib/systemd/system/ollama.service is not enabled");
	assert_true(fix_has(s, id, "systemctl restart ollama   # the server as the service"));
	env(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0");
	NO(s, id); /* a hand-started server gets it from this shell */
	snap_set_bool(ol, "service_enabled", true, "x");
	snap_set_state(node(s, "environment"), "HSA_OVERRIDE_GFX_VERSION", FACT_ABSENT,
		       "environment", NULL);
	NO(s, id); /* enabled: the service is the server, and it has it */
	snapshot_unref(s);

	/* the shell has it from ~/.bashrc; the enabled service does not */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1031");
	rocm(s, "6.2.0");
	profile(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0", true);
	env(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0");
	NO(s, id); /* no ollama */
	ol = snap_object(node(s, "framework"), "ollama");
	snap_set_str(ol, "service_unit", "/etc/systemd/system/ollama.service", "x");
	snap_set_bool(ol, "service_enabled", true, "x");
	senv = snap_object(ol, "service_environment");
	YES(s, id, GPUENV_SEVERITY_WARNING,
	    "but the ollama service (/etc/systemd/system/ollama.service, enabled) never reads "
	    "that file");
	snap_set_state(senv, "HSA_OVERRIDE_GFX_VERSION", FACT_UNPROBED, "x",
		       "EnvironmentFile= may set it");
	SKIPPED(s, id);
	snap_set_str(senv, "HSA_OVERRIDE_GFX_VERSION", "10.3.0", "x");
	NO(s, id);
	snap_set_bool(ol, "service_enabled", false, "x");
	snap_set_state(senv, "HSA_OVERRIDE_GFX_VERSION", FACT_ABSENT, "x", NULL);
	NO(s, id); /* not enabled: a hand-started server from this shell has it */
	snapshot_unref(s);
}

static void test_amd_chain(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;
	const struct vendor_chain *v;

	(void)state;
	d = diag(s);
	assert_int_equal(d->n_vendor_chains, 0); /* no AMD stack: no AMD chain */
	diagnosis_free(d);

	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	rocm_torch(s, "gfx1100");
	d = diag(s);
	assert_int_equal(d->n_vendor_chains, 1);
	v = &d->vendor_chains[0];
	assert_string_equal(v->driver, "amdgpu 6.7.0");
	assert_string_equal(v->runtime, "ROCm 6.2.0");
	assert_string_equal(v->target, "gfx1100");
	assert_int_equal(v->link_state[0], LINK_OK);
	assert_int_equal(v->link_state[1], LINK_OK);
	assert_int_equal(v->target_state, LINK_OK);
	diagnosis_free(d);

	/* the build lacks the GPU's code: broken; an override to code it has: degraded */
	snap_set_str(node(s, "driver.amdgpu.kfd_nodes.1"), "gfx", "gfx1102", "x");
	d = diag(s);
	v = &d->vendor_chains[0];
	assert_int_equal(v->link_state[0], LINK_DEGRADED); /* ROCm 6.2 does not list gfx1102 */
	assert_int_equal(v->link_state[1], LINK_BROKEN);
	assert_int_equal(v->target_state, LINK_BROKEN);
	diagnosis_free(d);
	env(s, "HSA_OVERRIDE_GFX_VERSION", "11.0.0");
	d = diag(s);
	assert_int_equal(d->vendor_chains[0].link_state[1], LINK_DEGRADED);
	diagnosis_free(d);

	/* no KFD GPU node: the driver link is broken */
	snap_set_state(node(s, "driver.amdgpu.kfd_nodes.1"), "gfx", FACT_ABSENT, "x", "CPU node");
	d = diag(s);
	assert_int_equal(d->vendor_chains[0].link_state[0], LINK_BROKEN);
	assert_null(d->vendor_chains[0].target);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* The driver layer's line for the AMD driver, or NULL. */
static const char *amd_driver_line(const struct gpuenv_doctor *d)
{
	for (size_t i = 0; i < d->n_facts; i++)
		if (d->facts[i].layer == GPUENV_LAYER_DRIVER &&
		    !strcmp(d->facts[i].label, "AMD driver"))
			return d->facts[i].value;
	return NULL;
}

/* The kernel's own amdgpu (no /sys/module/amdgpu/version, listed in /proc/modules) drives the
 * GPU: the driver layer is not absent (rw-radeon-vii-rocm310-stale-rocm31-icd, from
 * ROCm/legacy-rocm-build#1331, said "driver absent" beside "AMD chain: amdgpu (kernel …)"). */
static void test_kernel_own_amdgpu(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;
	const char *line;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx906");
	snap_set_state(node(s, "driver.amdgpu"), "module_version", FACT_ABSENT,
		       "/sys/module/amdgpu/version", "no file");
	d = diag(s);
	line = amd_driver_line(d);
	assert_non_null(line);
	assert_non_null(strstr(line, "the kernel's own"));
	assert_int_not_equal(d->status[GPUENV_LAYER_DRIVER], LAYER_ABSENT);
	diagnosis_free(d);
	/* a version file that could not be read is not the kernel's own module */
	snap_set_state(node(s, "driver.amdgpu"), "module_version", FACT_UNREADABLE,
		       "/sys/module/amdgpu/version", "Permission denied");
	d = diag(s);
	line = amd_driver_line(d);
	assert_non_null(line);
	assert_null(strstr(line, "the kernel's own"));
	assert_non_null(strstr(line, "could not be read"));
	diagnosis_free(d);
	/* amdgpu not loaded at all: nothing claimed */
	snap_set_bool(node(s, "driver.kernel_modules"), "amdgpu", false, "/proc/modules");
	snap_set_state(node(s, "driver.amdgpu"), "module_version", FACT_ABSENT,
		       "/sys/module/amdgpu/version", "no file");
	d = diag(s);
	assert_null(amd_driver_line(d));
	diagnosis_free(d);
	snapshot_unref(s);
}

/* A KFD GPU node more, at index 2 (an APU's iGPU beside the discrete GPU). */
static void kfd_gpu_node(struct gpuenv_snapshot *s, const char *gfx)
{
	struct snap_node *n = snap_append_object(node(s, "driver.amdgpu.kfd_nodes"));

	snap_set_int(n, "node", 2, NODES);
	snap_set_str(n, "gfx", gfx, NODES "/2/properties");
}

/* Two kinds of GPU (an RX 7900 XTX and a Ryzen 7000's Radeon iGPU, gfx1036): the chain judges
 * each, as ROCm and torch must have code for each GPU the process sees. */
static void test_amd_chain_two_gpus(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;
	const struct vendor_chain *v;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	rocm_torch(s, "gfx1100");
	kfd_gpu_node(s, "gfx1036");
	d = diag(s);
	v = &d->vendor_chains[0];
	assert_string_equal(v->target, "gfx1100, gfx1036");
	assert_int_equal(v->n_targets, 2);
	assert_string_equal(v->targets[0].name, "gfx1100");
	assert_int_equal(v->targets[0].state, LINK_OK);
	assert_string_equal(v->targets[1].name, "gfx1036");
	assert_int_equal(v->targets[1].state, LINK_BROKEN); /* no gfx1036 code in torch */
	assert_int_equal(v->link_state[0], LINK_DEGRADED);  /* ROCm 6.2 does not list gfx1036 */
	assert_int_equal(v->link_state[1], LINK_BROKEN);
	assert_int_equal(v->target_state, LINK_BROKEN);
	assert_non_null(strstr(v->link_why[0], "KFD lists gfx1100; ROCm 6.2.0 lists it"));
	assert_non_null(strstr(v->link_why[0], "; KFD lists gfx1036; ROCm 6.2.0 does not list"));
	assert_non_null(strstr(v->link_why[1], "no code object for gfx1036"));
	diagnosis_free(d);
	snapshot_unref(s);

	/* two GPUs of one kind: one target, judged once, as with one GPU */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	rocm_torch(s, "gfx1100");
	kfd_gpu_node(s, "gfx1100");
	d = diag(s);
	v = &d->vendor_chains[0];
	assert_string_equal(v->target, "gfx1100");
	assert_int_equal(v->n_targets, 0);
	assert_int_equal(v->target_state, LINK_OK);
	assert_null(strstr(v->link_why[0] + 1, "KFD lists")); /* one reason, not two */
	diagnosis_free(d);
	snapshot_unref(s);

	/* no framework: the framework link is one for all GPUs, each GPU keeps its ROCm verdict */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	kfd_gpu_node(s, "gfx1036");
	d = diag(s);
	v = &d->vendor_chains[0];
	assert_int_equal(v->n_targets, 2);
	assert_int_equal(v->targets[0].state, LINK_UNKNOWN);
	assert_int_equal(v->targets[1].state, LINK_DEGRADED);
	assert_int_equal(v->link_state[1], LINK_UNKNOWN);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* An iGPU hidden from the process is not judged: HIP_VISIBLE_DEVICES naming the discrete GPU
 * alone is AMD's fix for the iGPU's "invalid device function" (ROCm/legacy-rocm-build#3401). */
static void test_hidden_igpu(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;
	const struct vendor_chain *v;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx1100"); /* ROCm's GPU 0 */
	rocm(s, "6.2.0");
	rocm_torch(s, "gfx1100");
	kfd_gpu_node(s, "gfx1036"); /* ROCm's GPU 1, no code for it in torch */
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "the GPU is gfx1036");
	FIX(s, "framework.rocm-gfx-unsupported",
	    "export HIP_VISIBLE_DEVICES=0   # only the GPU(s) the build has code for (gfx1100)");
	env(s, "HIP_VISIBLE_DEVICES", "0");
	NO(s, "framework.rocm-gfx-unsupported");
	d = diag(s);
	v = &d->vendor_chains[0];
	assert_string_equal(v->target, "gfx1100");
	assert_int_equal(v->n_targets, 0);
	assert_int_equal(v->target_state, LINK_OK);
	diagnosis_free(d);
	env(s, "HIP_VISIBLE_DEVICES", "1"); /* the iGPU alone */
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "the GPU is gfx1036");
	NO_FIX(s, "framework.rocm-gfx-unsupported", "export HIP_VISIBLE_DEVICES");
	env(s, "HIP_VISIBLE_DEVICES", "0,1");
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "the GPU is gfx1036");
	env(s, "HIP_VISIBLE_DEVICES", "1,0"); /* both, in another order */
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "the GPU is gfx1036");
	env(s, "HIP_VISIBLE_DEVICES", "0,7,1"); /* HIP stops at the index past the GPUs */
	NO(s, "framework.rocm-gfx-unsupported");
	snapshot_unref(s);

	/* HSA_OVERRIDE_GFX_VERSION is judged against the first GPU the process gets: with an
	 * RDNA2 iGPU first and hidden, 11.0.0 names the RDNA3 discrete GPU's own target */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1036");
	rocm(s, "6.2.0");
	kfd_gpu_node(s, "gfx1100");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "11.0.0");
	YES(s, "runtime.hsa-override-wrong-target", GPUENV_SEVERITY_ERROR,
	    "makes ROCm load gfx1100 code on this gfx1036 GPU");
	env(s, "HIP_VISIBLE_DEVICES", "1");
	NO(s, "runtime.hsa-override-wrong-target");
	env(s, "HIP_VISIBLE_DEVICES", "2"); /* none left: runtime.visible-devices-none's */
	NO(s, "runtime.hsa-override-wrong-target");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR, "the process sees 0");
	snapshot_unref(s);

	/* ROCR_VISIBLE_DEVICES, and CUDA_VISIBLE_DEVICES (read by HIP where HIP's is unset) */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	rocm_torch(s, "gfx1100");
	kfd_gpu_node(s, "gfx1036");
	env(s, "ROCR_VISIBLE_DEVICES", "0");
	NO(s, "framework.rocm-gfx-unsupported");
	env(s, "HIP_VISIBLE_DEVICES", "0"); /* HIP counts the one GPU ROCr left as 0 */
	NO(s, "framework.rocm-gfx-unsupported");
	env(s, "ROCR_VISIBLE_DEVICES", "1,0");
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "the GPU is gfx1036");
	snapshot_unref(s);
	s = base();
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	rocm_torch(s, "gfx1100");
	kfd_gpu_node(s, "gfx1036");
	env(s, "CUDA_VISIBLE_DEVICES", "0");
	NO(s, "framework.rocm-gfx-unsupported");
	/* none left: no GPU to judge; the chain says why and does not claim KFD lists none */
	env(s, "CUDA_VISIBLE_DEVICES", "");
	env(s, "ROCR_VISIBLE_DEVICES", "");
	NO(s, "framework.rocm-gfx-unsupported");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR, "is set and empty");
	d = diag(s);
	v = &d->vendor_chains[0];
	assert_int_equal(v->link_state[0], LINK_BROKEN);
	assert_non_null(strstr(v->link_why[0], "leave the process none of the GPUs KFD lists"));
	diagnosis_free(d);
	snapshot_unref(s);
}

/* A ROCm torch whose code objects for the GPU's gfx name sramecc/xnack (LLVM AMDGPUUsage,
 * Target ID): loadable only when they agree with the KFD node and the process's XNACK mode. */
static void test_target_features(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *x, *n;
	struct gpuenv_doctor *d;
	struct amd_features f;
	const char *tid;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx90a");
	n = node(s, "driver.amdgpu.kfd_nodes.1");
	snap_set_bool(n, "sramecc", true, NODES "/1/properties");
	rocm(s, "6.2.0");
	x = rocm_torch(s, "gfx90a");
	snap_set_str(x, "target", "gfx90a:xnack+", "/v/torch/lib/libtorch_hip.so");

	/* gfx90a's XNACK is the process's: unknown without HSA_XNACK or noretry → info */
	amd_node_features(snapshot_root(s), n, "gfx90a", &f);
	assert_int_equal(f.sramecc, 1);
	assert_int_equal(f.xnack, -1);
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_INFO, "gfx90a:xnack+");
	/* noretry=1, HSA_XNACK unset: XNACK off, the xnack+ code cannot load */
	snap_set_int(node(s, "driver.amdgpu"), "noretry", 1,
		     "/sys/module/amdgpu/parameters/noretry");
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "noretry=1");
	d = diag(s);
	assert_int_equal(d->vendor_chains[0].link_state[1], LINK_BROKEN);
	diagnosis_free(d);
	/* HSA_XNACK=1 turns it on: loadable */
	snap_set_str(node(s, "driver.amdgpu"), "hsa_xnack", "1", "environment");
	NO(s, "framework.rocm-gfx-unsupported");
	d = diag(s);
	assert_int_equal(d->vendor_chains[0].link_state[1], LINK_OK);
	diagnosis_free(d);
	/* sramecc- code on an sramecc+ GPU: no setting of the process helps */
	snap_set_str(x, "target", "gfx90a:sramecc-", "/v/torch/lib/libtorch_hip.so");
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "sramecc on");
	/* one object per setting, or none named: one of them agrees */
	x = snap_append_object(node(s, "framework.python_envs.0.packages.torch.arch_targets"));
	snap_set_str(x, "gfx", "gfx90a", "/v/torch/lib/libtorch_hip.so");
	snap_set_str(x, "target", "gfx90a", "/v/torch/lib/libtorch_hip.so");
	NO(s, "framework.rocm-gfx-unsupported");
	assert_int_equal(amd_targets_match(node(s, "framework.python_envs.0.packages.torch."
						   "arch_targets"),
					   "gfx90a", &f, &tid),
			 AMD_TID_MATCH);
	assert_string_equal(tid, "gfx90a:sramecc-");
	snapshot_unref(s);
}

/* gfx906's and gfx908's XNACK is the mode the GPU booted with (amdgpu noretry; -1: the
 * chip's default, noretry=1 for GC 9.4.0 and 9.4.1, amdgpu_gmc_noretry_set()); a process may
 * turn it off (HSA_XNACK=0) but on only where the GPU booted with retry on
 * (kfd_ioctl_set_xnack_mode()). gfx908 here: ROCm 6.2 lists it, so only the features judge.
 * ROCm/rocBLAS#1422: a gfx906 in xnack+ mode, rocBLAS built for gfx906:xnack-, fixed by
 * HSA_XNACK=0. */
static void test_boot_fixed_xnack(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *x, *n, *amd;
	struct amd_features f;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx908");
	n = node(s, "driver.amdgpu.kfd_nodes.1");
	amd = node(s, "driver.amdgpu");
	snap_set_bool(n, "sramecc", true, NODES "/1/properties");
	rocm(s, "6.2.0");
	x = rocm_torch(s, "gfx908");
	snap_set_str(x, "target", "gfx908:sramecc+:xnack-", "/v/torch/lib/libtorch_hip.so");

	/* noretry not read: the mode is not known, the xnack- code may not load */
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_INFO, "noretry parameter is not");
	/* booted with retry on: xnack+, the xnack- code cannot load; HSA_XNACK=0 is the fix */
	snap_set_int(amd, "noretry", 0, "/sys/module/amdgpu/parameters/noretry");
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR,
	    "xnack on (amdgpu noretry=0");
	FIX(s, "framework.rocm-gfx-unsupported", "export HSA_XNACK=0");
	snap_set_str(amd, "hsa_xnack", "0", "environment");
	NO(s, "framework.rocm-gfx-unsupported");
	/* the chip's default (noretry=-1) on gfx906 is retry off: xnack- loads */
	snap_set_state(amd, "hsa_xnack", FACT_ABSENT, "environment", NULL);
	snap_set_int(amd, "noretry", -1, "/sys/module/amdgpu/parameters/noretry");
	NO(s, "framework.rocm-gfx-unsupported");
	/* xnack+ code: HSA_XNACK=1 cannot turn XNACK on a GPU booted with retry off */
	snap_set_str(x, "target", "gfx908:xnack+", "/v/torch/lib/libtorch_hip.so");
	snap_set_str(amd, "hsa_xnack", "1", "environment");
	YES(s, "framework.rocm-gfx-unsupported", GPUENV_SEVERITY_ERROR, "cannot turn it on");
	FIX(s, "framework.rocm-gfx-unsupported", "amdgpu.noretry=0");
	NO_FIX(s, "framework.rocm-gfx-unsupported", "export HSA_XNACK=1   #");
	amd_node_features(snapshot_root(s), n, "gfx906", &f);
	assert_int_equal(f.xnack, 0); /* gfx906 (the report's GPU) runs the boot mode as gfx908 */
	assert_true(f.xnack_at_boot);
	/* booted with retry on, HSA_XNACK=1: on, the xnack+ code loads */
	snap_set_int(amd, "noretry", 0, "/sys/module/amdgpu/parameters/noretry");
	NO(s, "framework.rocm-gfx-unsupported");
	/* gfx90a switches per process: noretry=-1 alone says nothing, HSA_XNACK decides */
	amd_node_features(snapshot_root(s), n, "gfx90a", &f);
	assert_int_equal(f.xnack, 1);
	assert_false(f.xnack_at_boot);
	snapshot_unref(s);
}

/* A second GPU node in KFD (gfx908), each with its UUID. */
static void second_kfd_gpu(struct gpuenv_snapshot *s)
{
	struct snap_node *kfd = node(s, "driver.amdgpu.kfd_nodes"), *n;

	snap_set_str(node(s, "driver.amdgpu.kfd_nodes.1"), "uuid", "GPU-57a3b1c2d4e5f607",
		     NODES "/1/properties");
	n = snap_append_object(kfd);
	snap_set_int(n, "node", 2, NODES);
	snap_set_str(n, "gfx", "gfx908", NODES "/2/properties");
	snap_set_str(n, "uuid", "GPU-f980f88ef31631a2", NODES "/2/properties");
}

static void test_visible_devices_none(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	amd_gpu(s, "amdgpu", "gfx1030");
	second_kfd_gpu(s);
	NO(s, "runtime.visible-devices-none"); /* nothing set */
	env(s, "ROCR_VISIBLE_DEVICES", "1");
	NO(s, "runtime.visible-devices-none");
	/* SwarmUI#565: the same index in both: HIP counts the one GPU ROCr left as 0 */
	env(s, "HIP_VISIBLE_DEVICES", "1");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR,
	    "the process sees 0 of the 2 GPUs");
	env(s, "HIP_VISIBLE_DEVICES", "0");
	NO(s, "runtime.visible-devices-none");
	env(s, "ROCR_VISIBLE_DEVICES", ""); /* set and empty: ROCr exposes none */
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR, "is set and empty");
	env(s, "ROCR_VISIBLE_DEVICES", "GPU-f980f88e");
	NO(s, "runtime.visible-devices-none");
	env(s, "ROCR_VISIBLE_DEVICES", "GPU-0000000000000000");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR, "is a UUID no GPU has");
	/* an entry past the GPUs after a good one: one GPU left, a warning */
	env(s, "ROCR_VISIBLE_DEVICES", "0,4");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_WARNING,
	    "entry 2 (\"4\") is an index past the GPUs");
	snapshot_unref(s);

	/* CUDA_VISIBLE_DEVICES, which HIP reads when HIP_VISIBLE_DEVICES is unset */
	s = base();
	amd_gpu(s, "amdgpu", "gfx1100");
	env(s, "CUDA_VISIBLE_DEVICES", "1");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR,
	    "CUDA_VISIBLE_DEVICES=1: entry 1 (\"1\") is an index past the GPUs");
	env(s, "HIP_VISIBLE_DEVICES", "0"); /* HIP's own variable wins */
	NO(s, "runtime.visible-devices-none");
	snapshot_unref(s);

	/* no GPU in KFD: the driver rules' to say */
	s = base();
	amd_gpu(s, "amdgpu", NULL);
	env(s, "ROCR_VISIBLE_DEVICES", "3");
	NO(s, "runtime.visible-devices-none");
	snapshot_unref(s);
}

/* The runtime layer's ROCm line for the release at path, or NULL. */
static const char *rocm_line(const struct gpuenv_doctor *d, const char *path)
{
	for (size_t i = 0; i < d->n_facts; i++)
		if (d->facts[i].layer == GPUENV_LAYER_RUNTIME &&
		    !strcmp(d->facts[i].label, "ROCm") && strstr(d->facts[i].value, path))
			return d->facts[i].value;
	return NULL;
}

/* runtime.rocm[]: a second release, 5.7.1 at /opt/rocm-5.7.1, not the /opt/rocm link's. */
static struct snap_node *rocm_571(struct gpuenv_snapshot *s)
{
	struct snap_node *r = snap_append_object(snap_array(node(s, "runtime"), "rocm"));

	snap_set_str(r, "path", "/opt/rocm-5.7.1", "/opt");
	snap_set_str(r, "resolved_path", "/opt/rocm-5.7.1", "/opt");
	snap_set_str(r, "version", "5.7.1", "/opt/rocm-5.7.1/.info/version");
	snap_set_bool(r, "is_default", false, "/opt/rocm");
	return r;
}

/* The release the dynamic loader gives (src/probe/rocm-loader.c: loader_gives) is the one the
 * chain and the ROCm checks judge, whatever /opt/rocm names; with two releases and neither
 * /opt/rocm nor the loader naming one, none is chosen. */
static void test_loader_gives(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;
	struct snap_node *old;
	const char *line;

	(void)state;
	amd_gpu(s, "amdgpu", "gfx1100");
	rocm(s, "6.2.0");
	old = rocm_571(s);
	d = diag(s);
	assert_string_equal(d->vendor_chains[0].runtime, "ROCm 6.2.0"); /* /opt/rocm's */
	assert_int_equal(d->vendor_chains[0].link_state[0], LINK_OK);
	assert_null(strstr(rocm_line(d, "/opt/rocm-6.2.0"), "the loader's"));
	diagnosis_free(d);

	/* LD_LIBRARY_PATH=/opt/rocm-5.7.1/lib: programs get 5.7.1, which does not list gfx1100 */
	snap_set_bool(old, "loader_gives", true, "/opt/rocm-5.7.1/lib/libamdhip64.so.5");
	snap_set_str(old, "loader_via", "LD_LIBRARY_PATH", "/opt/rocm-5.7.1/lib/libamdhip64.so.5");
	snap_set_str(old, "loader_soname", "libamdhip64.so.5",
		     "/opt/rocm-5.7.1/lib/libamdhip64.so.5");
	d = diag(s);
	assert_string_equal(d->vendor_chains[0].runtime, "ROCm 5.7.1");
	assert_non_null(strstr(d->vendor_chains[0].runtime_source, "from LD_LIBRARY_PATH"));
	assert_int_equal(d->vendor_chains[0].link_state[0], LINK_DEGRADED);
	line = rocm_line(d, "/opt/rocm-5.7.1");
	assert_non_null(line);
	assert_non_null(strstr(line, "(the loader's libamdhip64.so.5, from LD_LIBRARY_PATH)"));
	assert_null(strstr(rocm_line(d, "/opt/rocm-6.2.0"), "the loader's"));
	diagnosis_free(d);

	/* no /opt/rocm link: the loader's release is judged, not "none chosen" */
	snap_set_bool(node(s, "runtime.rocm.0"), "is_default", false, "/opt/rocm");
	d = diag(s);
	assert_string_equal(d->vendor_chains[0].runtime, "ROCm 5.7.1");
	diagnosis_free(d);
	snap_set_bool(old, "loader_gives", false, "x");
	d = diag(s);
	assert_string_equal(d->vendor_chains[0].runtime, "ROCm none");
	assert_int_equal(d->vendor_chains[0].link_state[0], LINK_UNKNOWN);
	diagnosis_free(d);
	snapshot_unref(s);
}

/* An AMD GPU of PCI id `device` no driver is bound to and no amdgpu loaded, in a new snapshot
 * *ret (ROCm/legacy-rocm-build#624, GPUOpen-Drivers/AMDVLK#184). */
static struct snap_node *amd_unbound(struct gpuenv_snapshot **ret, const char *device)
{
	struct snap_node *g;

	*ret = base();
	g = gpu(*ret, device, NULL);
	snap_set_str(g, "vendor_id", "0x1002", "x");
	snap_set_str(g, "vendor", "AMD", "x");
	snap_set_bool(node(*ret, "driver.kernel_modules"), "amdgpu", false, "/proc/modules");
	return g;
}

static void test_kernel_too_old(void **state)
{
	struct gpuenv_snapshot *s;
	struct gpuenv_doctor *d;
	struct snap_node *g, *a;

	(void)state;
	/* an RX Vega (Vega 10, 4.12) on Ubuntu 16.04's 4.4: no log line, the table tells, and
	 * `modprobe amdgpu` (hardware.gpu-without-driver's fix) is not offered */
	g = amd_unbound(&s, "0x687f");
	set_release(s, "4.4.0-139-generic");
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR, "predates Linux 4.12");
	FIX(s, "driver.amdgpu-kernel-too-old", "Linux 4.12 or newer");
	NO(s, "hardware.gpu-without-driver");
	/* 4.12 exactly, and newer: the kernel can drive it, modprobe is the fix */
	set_release(s, "4.12.0");
	NO(s, "driver.amdgpu-kernel-too-old");
	YES(s, "hardware.gpu-without-driver", GPUENV_SEVERITY_ERROR, "no kernel driver");
	set_release(s, "5.15.0-91-generic");
	NO(s, "driver.amdgpu-kernel-too-old");
	/* the minor compared as a number: 4.9 < 4.12 */
	set_release(s, "4.9.0-8-amd64");
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR, "4.9.0-8-amd64");
	/* bound (a distribution kernel with the support backported): not judged */
	snap_set_str(g, "driver", "amdgpu", "/sys/bus/pci/devices");
	NO(s, "driver.amdgpu-kernel-too-old");
	snapshot_unref(s);

	/* pasted lspci without -nn: "Advanced Micro Devices, Inc. [AMD/ATI] Device 687f", the
	 * device id with the vendor by its name and no vendor id (pasted-lspci.c) */
	s = base();
	g = snap_append_object(node(s, "hardware.gpus"));
	snap_set_str(g, "bus_id", "0000:0b:00.0", "pasted:10");
	snap_set_str(g, "vendor", "AMD", "pasted:10");
	snap_set_str(g, "device_id", "0x687f", "pasted:10");
	snap_set_state(g, "driver", FACT_ABSENT, "pasted:11", "no Kernel driver in use");
	snap_set_bool(node(s, "driver.kernel_modules"), "amdgpu", false, "/proc/modules");
	set_release(s, "4.4.0-139-generic");
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR, "predates Linux 4.12");
	snap_set_str(g, "vendor", "Intel", "x"); /* another vendor's 0x687f is not a Vega */
	NO(s, "driver.amdgpu-kernel-too-old");
	snapshot_unref(s);

	/* a Renoir APU: 4.19's amdgpu has no entry for it (AMDVLK#184), 5.5 drives it (its
	 * experimental flag dropped in 5.5's last drm fixes) */
	amd_unbound(&s, "0x1636");
	set_release(s, "4.19.0");
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR,
	    "4.19.0 predates Linux 5.5, the first release whose amdgpu drives it");
	FIX(s, "driver.amdgpu-kernel-too-old", "Linux 5.5 or newer");
	NO(s, "hardware.gpu-without-driver");
	set_release(s, "5.4.0-42-generic");
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR, "5.4.0-42-generic");
	/* 5.5 and later: the kernel is not blamed, modprobe is the fix */
	set_release(s, "5.5.0");
	NO(s, "driver.amdgpu-kernel-too-old");
	YES(s, "hardware.gpu-without-driver", GPUENV_SEVERITY_ERROR, "no kernel driver");
	snapshot_unref(s);

	/* an amdgpu that knows the GPU (rock-dkms on an older kernel, ROCm/legacy-rocm-build
	 * #1357) failed on its firmware: the kernel log names the cause, not the release */
	g = amd_unbound(&s, "0x731f");
	set_release(s, "4.15.0-130-generic");
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR, "predates Linux 5.3");
	a = firmware_failure(s, 1, "0000:05:00.0", "amdgpu/navi10_gpu_info.bin");
	snap_set_state(g, "driver", FACT_ABSENT, "/sys/bus/pci/devices", "No such file");
	NO(s, "driver.amdgpu-kernel-too-old");
	YES(s, "driver.amdgpu-firmware-failed", GPUENV_SEVERITY_ERROR, "no driver bound");
	d = diag(s);
	assert_string_equal(diagnosis_root_cause(d)->rule->id, "driver.amdgpu-firmware-failed");
	diagnosis_free(d);
	/* the init failed on another cause the log names: amdgpu probed the GPU all the same */
	snap_set_int(a, "firmware_failures", 0, KLOG);
	snap_set_int(a, "init_failures", 1, KLOG);
	NO(s, "driver.amdgpu-kernel-too-old");
	/* amdgpu's lines of none of these: the release decides again */
	snap_set_int(a, "init_failures", 0, KLOG);
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR, "predates Linux 5.3");
	snapshot_unref(s);

	/* the release unreadable, or not major.minor: skipped, never fine; the binding unread */
	g = amd_unbound(&s, "0x731f");
	snap_set_errno(node(s, "host"), "kernel_release", -EACCES, "/proc/sys/kernel/osrelease");
	SKIPPED(s, "driver.amdgpu-kernel-too-old");
	set_release(s, "garbage");
	SKIPPED(s, "driver.amdgpu-kernel-too-old");
	set_release(s, "5.2.0");
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR, "predates Linux 5.3");
	snap_set_errno(g, "driver", -EACCES, "/sys/bus/pci/devices");
	SKIPPED(s, "driver.amdgpu-kernel-too-old");
	snapshot_unref(s);

	/* an id not in the table (an RX 7900 XTX): no release to compare with */
	amd_unbound(&s, "0x744c");
	set_release(s, "4.4.0-139-generic");
	NO(s, "driver.amdgpu-kernel-too-old");
	YES(s, "hardware.gpu-without-driver", GPUENV_SEVERITY_ERROR, "no kernel driver");
	snapshot_unref(s);
}

/* Two AMD GPUs on 4.15 no driver is bound to, a Navi 10 (5.3's) at 0000:05:00.0 and a Renoir
 * APU (5.5's) at 0000:0a:00.0, and the firmware failure of ROCm/legacy-rocm-build#1357's
 * amdgpu-dkms on the GPU at failed_bus (NULL: a line that names none) */
static struct gpuenv_snapshot *two_amd_gpus(const char *failed_bus)
{
	struct gpuenv_snapshot *s;
	struct snap_node *apu, *a;

	snap_set_str(amd_unbound(&s, "0x731f"), "bus_id", "0000:05:00.0", "/sys/bus/pci/devices");
	apu = gpu(s, "0x1636", NULL);
	snap_set_str(apu, "bus_id", "0000:0a:00.0", "/sys/bus/pci/devices");
	snap_set_str(apu, "vendor_id", "0x1002", "x");
	snap_set_str(apu, "vendor", "AMD", "x");
	set_release(s, "4.15.0-130-generic");
	a = firmware_failure(s, 1, failed_bus ?: "", "amdgpu/navi10_gpu_info.bin");
	if (failed_bus)
		snap_append_str(snap_array(a, "failed_buses"), failed_bus, KLOG);
	else
		snap_array(a, "failed_buses");
	snap_set_int(a, "failed_lines_without_bus", failed_bus ? 0 : 1, KLOG);
	return s;
}

/* The log names the GPU amdgpu failed on; the other is judged on the release alone */
static void test_kernel_too_old_two_gpus(void **state)
{
	struct gpuenv_snapshot *s;

	(void)state;
	s = two_amd_gpus("0000:05:00.0");
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR,
	    "1002:1636 (RENOIR, gfx90c) at 0000:0a:00.0");
	YES(s, "driver.amdgpu-firmware-failed", GPUENV_SEVERITY_ERROR, "navi10_gpu_info.bin");
	snapshot_unref(s);
	/* the failure on the APU instead: the Navi 10 is the one the release leaves */
	s = two_amd_gpus("0000:0a:00.0");
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR, "at 0000:05:00.0");
	snapshot_unref(s);
	/* lines that name no GPU: either may be the one amdgpu knows, neither is blamed on the
	 * release */
	s = two_amd_gpus(NULL);
	NO(s, "driver.amdgpu-kernel-too-old");
	snapshot_unref(s);
}

/* The kernel log unreadable (dmesg_restrict, kern.log for group adm): an amdgpu-dkms that
 * knows the GPU may have failed on it, so the release alone does not say; could not tell */
static void test_kernel_too_old_log_unreadable(void **state)
{
	struct gpuenv_snapshot *s;

	(void)state;
	amd_unbound(&s, "0x731f");
	set_release(s, "4.15.0-130-generic");
	kernel_log(s);
	YES(s, "driver.amdgpu-kernel-too-old", GPUENV_SEVERITY_ERROR, "predates Linux 5.3");
	snap_set_errno(node(s, "driver.kernel_log"), "source", -EACCES, "/dev/kmsg");
	SKIPPED(s, "driver.amdgpu-kernel-too-old");
	SKIPPED(s, "hardware.gpu-without-driver"); /* leaves it to the rule above, as ever */
	/* new enough: the log is not needed to say the release is not the cause */
	set_release(s, "5.15.0-91-generic");
	NO(s, "driver.amdgpu-kernel-too-old");
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_firmware_failed),
		cmocka_unit_test(test_kernel_too_old_two_gpus),
		cmocka_unit_test(test_kernel_too_old_log_unreadable),
		cmocka_unit_test(test_ras_amdsmi_not_had),
		cmocka_unit_test(test_no_kfd),
		cmocka_unit_test(test_dev_noexec),
		cmocka_unit_test(test_pcie_atomics),
		cmocka_unit_test(test_ras_kernel_log),
		cmocka_unit_test(test_override_wrong_target),
		cmocka_unit_test(test_amd_chain),
		cmocka_unit_test(test_kernel_own_amdgpu),
		cmocka_unit_test(test_amd_chain_two_gpus),
		cmocka_unit_test(test_hidden_igpu),
		cmocka_unit_test(test_target_features),
		cmocka_unit_test(test_boot_fixed_xnack),
		cmocka_unit_test(test_kmd_userspace),
		cmocka_unit_test(test_kmd_userspace_bundled),
		cmocka_unit_test(test_kmd_userspace_kernel_amdgpu),
		cmocka_unit_test(test_override_not_inherited),
		cmocka_unit_test(test_override_not_inherited_ollama),
		cmocka_unit_test(test_rocm_wsl_dxg_detection),
		cmocka_unit_test(test_rocm_wsl_librocdxg),
		cmocka_unit_test(test_visible_devices_none),
		cmocka_unit_test(test_loader_gives),
		cmocka_unit_test(test_kernel_too_old),
	};

	if (test_locale_from_env() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
