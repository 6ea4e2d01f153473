// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The Intel GPU and OpenCL rules (src/rules/rules-intel*.c, rules-opencl.c) on snapshots built
 * here: each fires on its input, stays quiet on the healthy variant, and skips when what it
 * needs could not be read. Also the i915/xe kernel log parser (formats/intel-gpu-log.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "formats/intel-gpu-log.h"
#include "locale-fx.h"
#include "rules-test-util.h"

#define LOG "/var/log/kern.log"
#define LIB "/usr/lib/x86_64-linux-gnu"

/* An Intel Arc A770 with i915 bound; the NVIDIA ids of gpu() replaced. */
static struct snap_node *arc(struct gpuenv_snapshot *s, const char *driver)
{
	struct snap_node *g = gpu(s, "0x56a0", driver);

	snap_set_str(g, "vendor_id", "0x8086", "/sys/bus/pci/devices");
	snap_set_str(g, "vendor", "Intel", "/sys/bus/pci/devices");
	return g;
}

static void fw_event(struct gpuenv_snapshot *s, const char *bus, const char *kind,
		     const char *state, int64_t line)
{
	struct snap_node *intel = snap_object(node(s, "driver"), "intel");
	struct snap_node *arr =
		(struct snap_node *)snap_get(snapshot_root(s), "driver.intel.firmware");
	struct snap_node *e;

	if (!arr)
		arr = snap_array(intel, "firmware");
	e = snap_append_object(arr);
	snap_set_str(e, "driver", "i915", LOG);
	snap_set_str(e, "bus_id", bus, LOG);
	snap_set_str(e, "kind", kind, LOG);
	snap_set_str(e, "state", state, LOG);
	if (strcmp(state, "force_probe_needed") == 0)
		snap_set_str(e, "device_id", "56a0", LOG);
	else
		snap_set_str(e, "file", "i915/dg2_guc_70.bin", LOG);
	snap_set_str(e, "text", "[drm] GuC firmware i915/dg2_guc_70.bin …", LOG);
	snap_set_int(e, "line", line, LOG);
}

static void lib(struct gpuenv_snapshot *s, const char *key, const char *path)
{
	struct snap_node *lz = snap_object(snap_object(node(s, "runtime"), "level_zero"), key);

	if (path)
		snap_set_str(lz, "path", path, path);
	else
		snap_set_state(lz, "path", FACT_ABSENT, "ld.so search", "not found");
}

static struct snap_node *xpu_env(struct gpuenv_snapshot *s, const char *torch, const char *ipex)
{
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *pk, *t;
	const char *vp = "/opt/venv/lib/python3.12/site-packages/torch/version.py";

	snap_set_str(e, "prefix", "/opt/venv", "/opt/venv");
	pk = snap_object(e, "packages");
	t = snap_object(pk, "torch");
	snap_set_str(t, "version", torch, vp);
	snap_set_bool(t, "cpu_only", ipex != NULL, vp);
	if (!ipex)
		snap_set_str(t, "xpu", "20250303", vp);
	if (ipex)
		snap_set_str(snap_object(pk, "ipex"), "dist_version", ipex,
			     "/opt/venv/lib/python3.12/site-packages");
	return pk;
}

static void oneapi(struct gpuenv_snapshot *s, const char *compiler)
{
	struct snap_node *one = snap_object(node(s, "runtime"), "oneapi"), *o;

	if (!compiler) {
		snap_set_state(one, "root", FACT_ABSENT, "/opt/intel/oneapi", NULL);
		return;
	}
	snap_set_str(one, "root", "/opt/intel/oneapi", "/opt/intel/oneapi");
	o = snap_append_object(snap_array(one, "components"));
	snap_set_str(o, "name", "compiler", "/opt/intel/oneapi/compiler");
	snap_append_str(snap_array(o, "versions"), compiler, "/opt/intel/oneapi/compiler");
}

static void test_firmware(void **state)
{
	struct gpuenv_snapshot *s = base();
	const char *bus;

	(void)state;
	bus = snap_get_str(arc(s, "i915"), "bus_id");
	fw_event(s, bus, "GuC", "loaded", 5);
	fw_event(s, bus, "HuC", "authenticated", 9);
	NO(s, "driver.intel-firmware-failed");
	fw_event(s, bus, "GuC", "load_failed", 6);
	YES(s, "driver.intel-firmware-failed", GPUENV_SEVERITY_ERROR, "failed to load");
	snapshot_unref(s);

	/* a reload that loaded it again, later: no longer a failure */
	s = base();
	bus = snap_get_str(arc(s, "i915"), "bus_id");
	fw_event(s, bus, "GuC", "fetch_failed", 3);
	YES(s, "driver.intel-firmware-failed", GPUENV_SEVERITY_ERROR, "fetch failed");
	fw_event(s, bus, "GuC", "loaded", 40);
	NO(s, "driver.intel-firmware-failed");
	snapshot_unref(s);

	/* HuC alone: media only, a warning */
	s = base();
	bus = snap_get_str(arc(s, "i915"), "bus_id");
	fw_event(s, bus, "HuC", "load_failed", 3);
	YES(s, "driver.intel-firmware-failed", GPUENV_SEVERITY_WARNING, "HuC");
	snapshot_unref(s);

	/* the kernel log could not be read: skipped, never "fine" */
	s = base();
	arc(s, "i915");
	snap_set_errno(snap_object(node(s, "driver"), "intel"), "firmware", -EACCES, LOG);
	SKIPPED(s, "driver.intel-firmware-failed");
	snapshot_unref(s);
}

static void set_release(struct gpuenv_snapshot *s, const char *rel)
{
	snap_set_str(node(s, "host"), "kernel_release", rel, "/proc/sys/kernel/osrelease");
}

/* An Intel GPU of PCI id `device` no driver is bound to, in a new snapshot *ret. */
static struct snap_node *unbound(struct gpuenv_snapshot **ret, const char *device)
{
	struct snap_node *g;

	*ret = base();
	g = arc(*ret, NULL);
	snap_set_str(g, "device_id", device, "/sys/bus/pci/devices");
	return g;
}

static void test_force_probe(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g;

	(void)state;
	g = arc(s, NULL);
	fw_event(s, snap_get_str(g, "bus_id"), "probe", "force_probe_needed", 2);
	YES(s, "driver.intel-force-probe-needed", GPUENV_SEVERITY_ERROR, "force_probe=56a0");
	/* the knowledge base says which release drives it by default */
	FIX(s, "driver.intel-force-probe-needed", "Linux 6.2 and newer");
	/* the log line is the finding: driver.intel-kernel-too-old does not repeat it */
	set_release(s, "5.19.0-50-generic");
	NO(s, "driver.intel-kernel-too-old");
	snap_set_str(g, "driver", "i915", "/sys/bus/pci/devices");
	NO(s, "driver.intel-force-probe-needed");
	snapshot_unref(s);

	/* a Flex 170 (ATS-M): no upstream release drives it, so no newer kernel is offered */
	g = unbound(&s, "0x56c0");
	fw_event(s, snap_get_str(g, "bus_id"), "probe", "force_probe_needed", 2);
	FIX(s, "driver.intel-force-probe-needed", "no upstream kernel drives ATS-M");
	NO_FIX(s, "driver.intel-force-probe-needed", "HWE");
	snapshot_unref(s);
}

static void test_kernel_too_old(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g;

	(void)state;
	/* an A770 (DG2, 6.2) unbound on Ubuntu 22.04's 5.15: no log line, the table tells */
	g = arc(s, NULL);
	set_release(s, "5.15.0-91-generic");
	YES(s, "driver.intel-kernel-too-old", GPUENV_SEVERITY_ERROR, "predates Linux 6.2");
	FIX(s, "driver.intel-kernel-too-old", "Linux 6.2 or newer");
	/* 6.2 exactly, and newer: something else keeps it unbound, not this rule's */
	set_release(s, "6.2.0-39-generic");
	NO(s, "driver.intel-kernel-too-old");
	set_release(s, "6.10.3");
	NO(s, "driver.intel-kernel-too-old");
	/* 6.1 < 6.2, and the minor compared as a number: 6.10 > 6.2 above, 5.19 < 6.2 */
	set_release(s, "5.19.0-50-generic");
	YES(s, "driver.intel-kernel-too-old", GPUENV_SEVERITY_ERROR, "5.19.0-50-generic");
	/* a distribution kernel that binds it anyway (Intel's backported i915): not judged */
	snap_set_str(g, "driver", "i915", "/sys/bus/pci/devices");
	NO(s, "driver.intel-kernel-too-old");
	snapshot_unref(s);

	/* a Battlemage B580 (xe, 6.12) on Ubuntu 24.04's 6.8 */
	g = unbound(&s, "0xe20b");
	YES(s, "driver.intel-kernel-too-old", GPUENV_SEVERITY_ERROR, "Linux 6.12");
	/* the release unreadable, or not major.minor: skipped, never fine */
	snap_set_errno(node(s, "host"), "kernel_release", -EACCES, "/proc/sys/kernel/osrelease");
	SKIPPED(s, "driver.intel-kernel-too-old");
	set_release(s, "garbage");
	SKIPPED(s, "driver.intel-kernel-too-old");
	/* whether a driver is bound could not be read: skipped */
	set_release(s, "6.8.0-51-generic");
	snap_set_errno(g, "driver", -EACCES, "/sys/bus/pci/devices");
	SKIPPED(s, "driver.intel-kernel-too-old");
	snapshot_unref(s);

	/* a family no upstream release drives by default (DG1), or an id not in the table: no
	 * release to compare with */
	g = unbound(&s, "0x4905");
	set_release(s, "5.15.0-91-generic");
	NO(s, "driver.intel-kernel-too-old");
	snap_set_str(g, "device_id", "0x56ba", "/sys/bus/pci/devices");
	NO(s, "driver.intel-kernel-too-old");
	snapshot_unref(s);
}

static void test_level_zero(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	arc(s, "i915");
	snap_array(node(s, "framework"), "python_envs");
	/* a display-only GPU with no compute stack installed: nothing asks for Level Zero */
	lib(s, "loader", NULL);
	lib(s, "gpu_driver", NULL);
	NO(s, "runtime.level-zero-missing");
	NO(s, "runtime.level-zero-no-gpu-driver");
	xpu_env(s, "2.8.0+xpu", NULL);
	YES(s, "runtime.level-zero-missing", GPUENV_SEVERITY_ERROR, "torch 2.8.0+xpu");
	lib(s, "loader", LIB "/libze_loader.so.1");
	NO(s, "runtime.level-zero-missing");
	YES(s, "runtime.level-zero-no-gpu-driver", GPUENV_SEVERITY_ERROR, "libze_intel_gpu");
	lib(s, "gpu_driver", LIB "/libze_intel_gpu.so.1");
	NO(s, "runtime.level-zero-no-gpu-driver");
	snapshot_unref(s);

	/* oneAPI's DPC++/SYCL runtime beside a bound Intel GPU and no loader (intel/compute-
	 * runtime#477: sycl-ls lists no [level_zero:gpu]): wanted without any framework */
	s = base();
	arc(s, "i915");
	snap_array(node(s, "framework"), "python_envs");
	lib(s, "loader", NULL);
	lib(s, "gpu_driver", NULL);
	oneapi(s, "2021.4.0");
	YES(s, "runtime.level-zero-missing", GPUENV_SEVERITY_ERROR,
	    "oneAPI's DPC++/SYCL runtime (/opt/intel/oneapi/compiler 2021.4.0)");
	lib(s, "loader", LIB "/libze_loader.so.1");
	NO(s, "runtime.level-zero-missing");
	snapshot_unref(s);
	/* the same with the GPU not bound (no i915/xe): the driver rules' case, not this one */
	s = base();
	arc(s, NULL);
	snap_array(node(s, "framework"), "python_envs");
	lib(s, "loader", NULL);
	lib(s, "gpu_driver", NULL);
	oneapi(s, "2021.4.0");
	NO(s, "runtime.level-zero-missing");
	snapshot_unref(s);

	/* the search itself unreadable: skipped */
	s = base();
	xpu_env(s, "2.8.0+xpu", NULL);
	snap_set_errno(snap_object(snap_object(node(s, "runtime"), "level_zero"), "loader"), "path",
		       -EACCES, LIB);
	SKIPPED(s, "runtime.level-zero-missing");
	snapshot_unref(s);
}

/* driver.level_zero as the session writes it: init, and one device of vendor (0: none). */
static void ze_session(struct gpuenv_snapshot *s, const char *init_error, int64_t vendor)
{
	struct snap_node *ze = snap_object(node(s, "driver"), "level_zero"), *d;

	snap_set_str(ze, "library", "libze_loader.so.1", "levelzero");
	if (init_error) {
		snap_set_state(ze, "init", FACT_ERROR, "zeInit", init_error);
		return;
	}
	snap_set_str(ze, "init", "ZE_RESULT_SUCCESS", "zeInit");
	d = snap_append_object(snap_array(ze, "devices"));
	if (vendor) {
		snap_set_str(d, "type", "GPU", "zeDeviceGetProperties");
		snap_set_int(d, "vendor_id", vendor, "zeDeviceGetProperties");
	}
}

static void test_level_zero_no_device(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	arc(s, "i915");
	NO(s, "runtime.level-zero-no-device"); /* no session */
	ze_session(s, "ZE_RESULT_ERROR_UNINITIALIZED (0x78000001)", 0);
	YES(s, "runtime.level-zero-no-device", GPUENV_SEVERITY_ERROR,
	    "zeInit failed (error: ZE_RESULT_ERROR_UNINITIALIZED");
	snapshot_unref(s);

	s = base();
	arc(s, "i915");
	ze_session(s, NULL, 0x8086);
	NO(s, "runtime.level-zero-no-device"); /* the Arc is listed */
	snapshot_unref(s);

	s = base();
	arc(s, "xe");
	ze_session(s, NULL, 0);
	YES(s, "runtime.level-zero-no-device", GPUENV_SEVERITY_ERROR,
	    "no Level Zero driver lists an Intel GPU while the GPU at");
	snapshot_unref(s);

	s = base();
	arc(s, NULL); /* not bound: the driver rules' */
	ze_session(s, "ZE_RESULT_ERROR_UNINITIALIZED (0x78000001)", 0);
	NO(s, "runtime.level-zero-no-device");
	snapshot_unref(s);
}

static void test_ipex(void **state)
{
	struct gpuenv_snapshot *s = base();

	(void)state;
	xpu_env(s, "1.10.0a0+git3d5f2d4", "1.10.200+gpu");
	oneapi(s, "2022.3.0");
	NO(s, "framework.ipex-torch-mismatch");
	NO(s, "framework.ipex-oneapi-mismatch");
	snapshot_unref(s);

	s = base();
	xpu_env(s, "1.10.0a0+git3d5f2d4", "1.10.200+gpu");
	oneapi(s, "2023.0.0");
	YES(s, "framework.ipex-oneapi-mismatch", GPUENV_SEVERITY_ERROR, "compiler 2023.0.0");
	snapshot_unref(s);

	s = base();
	xpu_env(s, "1.10.0a0+git3d5f2d4", "1.10.200+gpu");
	oneapi(s, NULL);
	YES(s, "framework.ipex-oneapi-mismatch", GPUENV_SEVERITY_ERROR, "no oneAPI runtime");
	snapshot_unref(s);

	/* an unconfirmed row is not judged with */
	s = base();
	xpu_env(s, "2.1.0.post2+cxx11.abi", "2.1.30+xpu");
	oneapi(s, "2023.0.0");
	NO(s, "framework.ipex-oneapi-mismatch");
	snapshot_unref(s);

	s = base();
	xpu_env(s, "2.7.1+xpu", "2.8.10+xpu");
	YES(s, "framework.ipex-torch-mismatch", GPUENV_SEVERITY_ERROR, "PyTorch 2.8");
	snapshot_unref(s);
}

static struct snap_node *icd(struct gpuenv_snapshot *s, const char *library, bool cpu, bool found)
{
	struct snap_node *ocl = snap_object(node(s, "runtime"), "opencl");
	struct snap_node *arr =
		(struct snap_node *)snap_get(snapshot_root(s), "runtime.opencl.icd_files");
	struct snap_node *f;

	if (!arr)
		arr = snap_array(ocl, "icd_files");
	f = snap_append_object(arr);
	snap_set_str(f, "path", "/etc/OpenCL/vendors/x.icd", "/etc/OpenCL/vendors");
	snap_set_str(f, "library", library, "/etc/OpenCL/vendors/x.icd");
	snap_set_bool(f, "cpu_only", cpu, "/etc/OpenCL/vendors/x.icd");
	if (found)
		snap_set_str(snap_object(f, "resolved"), "path", library, library);
	else
		snap_set_state(snap_object(f, "resolved"), "path", FACT_ABSENT, library, NULL);
	return ocl;
}

static void test_opencl(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *ocl, *f;

	(void)state;
	arc(s, "i915");
	ocl = icd(s, "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so", false, true);
	snap_set_int(ocl, "platform_count", 1, "opencl:clGetPlatformIDs");
	NO(s, "runtime.opencl-icd-library-missing");
	NO(s, "runtime.opencl-no-platforms");
	NO(s, "runtime.opencl-cpu-only");
	snap_set_int(ocl, "platform_count", 0, "opencl:clGetPlatformIDs");
	YES(s, "runtime.opencl-no-platforms", GPUENV_SEVERITY_WARNING, "no platform");
	snapshot_unref(s);

	/* the Arc's only ICD does not load: no OpenCL platform reaches the GPU */
	s = base();
	arc(s, "i915");
	icd(s, "libigdrcl.so", false, false);
	YES(s, "runtime.opencl-icd-library-missing", GPUENV_SEVERITY_ERROR, "no GPU device");
	/* the platforms were not listed (no live session): skipped, not fine */
	SKIPPED(s, "runtime.opencl-no-platforms");
	snapshot_unref(s);

	/* Mesa's Rusticl still drives it (and a CPU ICD does not count): one platform fewer */
	s = base();
	arc(s, "i915");
	icd(s, "libigdrcl.so", false, false);
	icd(s, "libpocl.so.2", true, true);
	YES(s, "runtime.opencl-icd-library-missing", GPUENV_SEVERITY_ERROR, "0000:18:00.0");
	icd(s, "libRusticlOpenCL.so.1", false, true);
	YES(s, "runtime.opencl-icd-library-missing", GPUENV_SEVERITY_WARNING, "libigdrcl.so");
	snapshot_unref(s);

	/* Intel's ICD left behind on an NVIDIA machine: no GPU it was installed for */
	s = base();
	gpu(s, NULL, "nvidia");
	icd(s, "libigdrcl.so", false, false);
	YES(s, "runtime.opencl-icd-library-missing", GPUENV_SEVERITY_WARNING, "libigdrcl.so");
	snapshot_unref(s);

	/* NVIDIA's ICD by bare name, not found: the error says so, not "not installed" */
	s = base();
	gpu(s, NULL, "nvidia");
	icd(s, "libnvidia-opencl.so.1", false, false);
	YES(s, "runtime.opencl-icd-library-missing", GPUENV_SEVERITY_ERROR,
	    "dynamic loader's search does not find");
	snapshot_unref(s);

	/* libigdrcl.so installed, gmmlib not (intel/compute-runtime#230): it does not load */
	s = base();
	arc(s, "i915");
	ocl = icd(s, LIB "/intel-opencl/libigdrcl.so", false, true);
	f = (struct snap_node *)snap_at(snap_get(ocl, "icd_files"), 0);
	NO(s, "runtime.opencl-icd-library-missing");
	snap_append_str(snap_array(f, "needed_missing"), "libigdgmm.so.11", "libigdrcl.so");
	YES(s, "runtime.opencl-icd-library-missing", GPUENV_SEVERITY_ERROR,
	    "installed but does not load: it needs libigdgmm.so.11");
	FIX(s, "runtime.opencl-icd-library-missing", "sudo apt install libigdgmm11");
	assert_true(verify_has(s, "runtime.opencl-icd-library-missing", "ldd " LIB));
	/* a library it needs that no package table knows: the search for its package */
	snap_append_str(snap_array(f, "needed_missing"), "libfoo.so.3", "libigdrcl.so");
	FIX(s, "runtime.opencl-icd-library-missing", "apt-file search libfoo.so.3");
	/* and Rusticl, installed and loading, still drives the Arc: one platform fewer */
	icd(s, "libRusticlOpenCL.so.1", false, true);
	YES(s, "runtime.opencl-icd-library-missing", GPUENV_SEVERITY_WARNING,
	    "libigdgmm.so.11, libfoo.so.3");
	/* a library below it needs one (probe-opencl.c follows the tree): which one says so */
	snap_append_str(snap_array(f, "needed_missing"), "libbar.so.1", LIB "/libfoo2.so.1");
	YES(s, "runtime.opencl-icd-library-missing", GPUENV_SEVERITY_WARNING,
	    "libfoo.so.3, libbar.so.1 (needed by " LIB "/libfoo2.so.1)");
	snapshot_unref(s);

	/* its dependencies could not be read: could not tell, not fine */
	s = base();
	arc(s, "i915");
	ocl = icd(s, LIB "/intel-opencl/libigdrcl.so", false, true);
	f = (struct snap_node *)snap_at(snap_get(ocl, "icd_files"), 0);
	snap_set_errno(f, "needed_missing", -EACCES, LIB "/intel-opencl/libigdrcl.so");
	SKIPPED(s, "runtime.opencl-icd-library-missing");
	snapshot_unref(s);

	s = base();
	arc(s, "i915");
	icd(s, "libpocl.so.2", true, true);
	YES(s, "runtime.opencl-cpu-only", GPUENV_SEVERITY_WARNING, "libpocl.so.2");
	snapshot_unref(s);

	/* no GPU: a CPU-only ICD is all there is to use; an NVIDIA GPU: CUDA does not need it */
	s = base();
	icd(s, "libpocl.so.2", true, true);
	NO(s, "runtime.opencl-cpu-only");
	gpu(s, NULL, "nvidia");
	NO(s, "runtime.opencl-cpu-only");
	snapshot_unref(s);
}

/* runtime.level_zero.packages.<name> = version, as the dpkg reader writes it */
static void pkg(struct gpuenv_snapshot *s, const char *name, const char *version)
{
	struct snap_node *lz = snap_object(node(s, "runtime"), "level_zero");

	snap_set_str(snap_object(lz, "packages"), name, version, "/var/lib/dpkg/status");
}

static void test_compute_runtime_drops_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g;

	(void)state;
	/* a Comet Lake iGPU (Gen9) with the regular NEO 26.22 from Intel's GitHub release
	 * (tphakala/birdnet-go#3923) */
	g = arc(s, "i915");
	snap_set_str(g, "device_id", "0x9bc5", "x");
	pkg(s, "intel-opencl-icd", "26.22.38646.4-0");
	YES(s, "runtime.intel-compute-runtime-drops-gpu", GPUENV_SEVERITY_ERROR,
	    "(8086:9bc5) is Comet Lake (UHD Graphics 610-630), Gen9: Intel's compute runtime left "
	    "it to its -legacy1 packages from release 24.35.30872.22 on, and intel-opencl-icd "
	    "26.22.38646.4-0 is a regular one");
	/* the -legacy1 packages beside it drive the GPU */
	pkg(s, "intel-opencl-icd-legacy1", "24.35.30872.36-0");
	NO(s, "runtime.intel-compute-runtime-drops-gpu");
	snapshot_unref(s);

	/* the release boundary: 24.35.30872.22 is the first without Gen8-Gen11, .21 is not;
	 * Intel's repository's "-NNN~22.04" and the Level Zero package's "1.3.build.hotfix" */
	s = base();
	g = arc(s, "i915");
	snap_set_str(g, "device_id", "0x3e92", "x");
	pkg(s, "intel-opencl-icd", "24.35.30872.21");
	NO(s, "runtime.intel-compute-runtime-drops-gpu");
	pkg(s, "intel-opencl-icd", "24.35.30872.22-1020~24.04");
	YES(s, "runtime.intel-compute-runtime-drops-gpu", GPUENV_SEVERITY_ERROR, "Coffee Lake");
	pkg(s, "intel-opencl-icd", "24.26.30049.10-950~22.04");
	NO(s, "runtime.intel-compute-runtime-drops-gpu");
	pkg(s, "intel-level-zero-gpu", "1.6.32224.5");
	YES(s, "runtime.intel-compute-runtime-drops-gpu", GPUENV_SEVERITY_ERROR,
	    "intel-level-zero-gpu 1.6.32224.5");
	snapshot_unref(s);

	/* a distribution's own build is not judged (it may carry the legacy platforms); nor a
	 * Gen12 GPU (the Arc A770) or a GPU no driver is bound to */
	s = base();
	g = arc(s, "i915");
	snap_set_str(g, "device_id", "0x3e92", "x");
	pkg(s, "intel-opencl-icd", "25.13.33276.16-1ubuntu1");
	NO(s, "runtime.intel-compute-runtime-drops-gpu");
	snapshot_unref(s);
	s = base();
	arc(s, "i915");
	pkg(s, "intel-opencl-icd", "26.22.38646.4-0");
	NO(s, "runtime.intel-compute-runtime-drops-gpu");
	snapshot_unref(s);
	s = base();
	g = arc(s, NULL);
	snap_set_str(g, "device_id", "0x9bc5", "x");
	pkg(s, "intel-opencl-icd", "26.22.38646.4-0");
	NO(s, "runtime.intel-compute-runtime-drops-gpu");
	snapshot_unref(s);
}

static void test_log_parser(void **state)
{
	static const char text[] =
		"Oct  3 19:40:02 h kernel: [ 3.9] i915 0000:03:00.0: [drm] GT0: GuC firmware "
		"i915/dg2_guc_70.bin version 70.20.0\n"
		"[ 4.0] i915 0000:03:00.0: [drm] GT0: GUC: load failed: status = 0x40000056\n"
		"[ 4.1] i915 0000:03:00.0: [drm] *ERROR* GT0: GuC initialization failed -ENOEXEC\n"
		"[ 4.2] i915 0000:03:00.0: [drm] GuC firmware i915/dg2_guc_70.2.0.bin: fetch "
		"failed with error -2\n"
		"[ 4.3] xe 0000:04:00.0: [drm] Using GuC firmware from i915/dg2_guc_70.bin version "
		"70.36.0\n"
		"[ 4.4] i915 0000:05:00.0: Your graphics device 56a0 is not properly supported by "
		"i915 in this kernel version. To force driver probe anyway, use "
		"i915.force_probe=56a0\n"
		"[ 4.5] i915 0000:03:00.0: [drm] Finished loading DMC firmware "
		"i915/dg2_dmc_ver2_08.bin (v2.8)\n"
		"[ 4.6] i915 0000:03:00.0: [drm] GT0: HuC: authenticated for all workloads\n"
		"[ 4.7] nvidia 0000:01:00.0: GuC firmware x: fetch failed\n"
		"[ 4.8] xe0000:04:00.0: noise\n"
		"[ 4.9] xe 0000:0c:00.0: [drm] Tile0: GT0: GuC firmware xe/bmg_guc_70.bin: fetch "
		"failed with error -ENOENT\n";
	struct intel_log l;

	(void)state;
	assert_int_equal(intel_gpu_log_parse(text, sizeof(text) - 1, &l), 0);
	/* GuC loaded, load_failed (2 lines, the later kept), fetch_failed; xe GuC; probe; DMC;
	 * HuC; xe's fetch_failed behind "Tile0: GT0: " (lxc/incus-os#891) */
	assert_int_equal(l.n_ev, 8);
	assert_string_equal(l.ev[0].kind, "GuC");
	assert_int_equal(l.ev[0].state, INTEL_FW_LOADED);
	assert_string_equal(l.ev[0].version, "70.20.0");
	assert_string_equal(l.ev[0].bus, "0000:03:00.0");
	assert_int_equal(l.ev[1].state, INTEL_FW_LOAD_FAILED);
	assert_int_equal(l.ev[1].line, 3);
	assert_int_equal(l.ev[2].state, INTEL_FW_FETCH_FAILED);
	assert_string_equal(l.ev[2].file, "i915/dg2_guc_70.2.0.bin");
	assert_string_equal(l.ev[3].driver, "xe");
	assert_string_equal(l.ev[3].version, "70.36.0");
	assert_int_equal(l.ev[4].state, INTEL_FW_FORCE_PROBE);
	assert_string_equal(l.ev[4].file, "56a0");
	assert_string_equal(l.ev[5].kind, "DMC");
	assert_string_equal(l.ev[5].version, "2.8");
	assert_int_equal(l.ev[6].state, INTEL_FW_AUTHENTICATED);
	assert_string_equal(l.ev[7].driver, "xe");
	assert_string_equal(l.ev[7].kind, "GuC");
	assert_int_equal(l.ev[7].state, INTEL_FW_FETCH_FAILED);
	assert_string_equal(l.ev[7].file, "xe/bmg_guc_70.bin");
	/* an embedded NUL ends the text; an empty text has no event */
	assert_int_equal(intel_gpu_log_parse("", 0, &l), 0);
	assert_int_equal(l.n_ev, 0);
}

static void test_visible_devices_none(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *g;

	(void)state;
	arc(s, "i915");
	NO(s, "runtime.visible-devices-none"); /* nothing set */
	env(s, "ZE_AFFINITY_MASK", "0");
	NO(s, "runtime.visible-devices-none");
	env(s, "ZE_AFFINITY_MASK", "1"); /* one Arc: index 1 is past it */
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR,
	    "ZE_AFFINITY_MASK=1: entry 1 (\"1\") is an index past the GPUs (skipped): Level Zero "
	    "programs see 0 of the 1 Intel GPU");
	env(s, "ZE_AFFINITY_MASK", "1,0"); /* skipped, the rest read on */
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_WARNING, "see 1 of the 1");
	env(s, "ZE_AFFINITY_MASK", "");
	env(s, "ONEAPI_DEVICE_SELECTOR", "opencl:gpu");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR,
	    "ONEAPI_DEVICE_SELECTOR=opencl:gpu accepts no Level Zero GPU");
	env(s, "ONEAPI_DEVICE_SELECTOR", "level_zero:gpu");
	NO(s, "runtime.visible-devices-none");
	env(s, "ONEAPI_DEVICE_SELECTOR", "level_zero:0.*"); /* tiles: not judged */
	SKIPPED(s, "runtime.visible-devices-none");
	snapshot_unref(s);

	/* a GPU not in the knowledge base's table may have two tiles (FLAT by default on Data
	 * Center GPU Max): index 1 may be its second tile, so nothing is said */
	s = base();
	g = arc(s, "i915");
	snap_set_str(g, "device_id", "0x0bd5", "x");
	env(s, "ZE_AFFINITY_MASK", "1");
	NO(s, "runtime.visible-devices-none");
	env(s, "ZE_AFFINITY_MASK", "2");
	YES(s, "runtime.visible-devices-none", GPUENV_SEVERITY_ERROR, "see 0 of the 1 Intel GPU");
	snapshot_unref(s);

	/* no GPU seen because the PCI bus could not be read: said, not passed (sweep-unreadable
	 * found rw-intel-max1550-x6-oneapi-selector-too-many-colons silent so) */
	s = base();
	env(s, "ONEAPI_DEVICE_SELECTOR", "level_zero:gpu:2");
	snap_set_errno(node(s, "hardware"), "pci_devices", -EACCES, "/sys/bus/pci/devices");
	SKIPPED(s, "runtime.visible-devices-none");
	snapshot_unref(s);
}

static void test_intel_chain(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct gpuenv_doctor *d;
	const struct vendor_chain *v;

	(void)state;
	arc(s, "i915");
	d = diag(s);
	assert_int_equal(d->n_vendor_chains, 0); /* an Intel GPU without Level Zero: no chain */
	diagnosis_free(d);

	lib(s, "loader", "/usr/lib/x86_64-linux-gnu/libze_loader.so.1");
	lib(s, "gpu_driver", "/usr/lib/x86_64-linux-gnu/libze_intel_gpu.so.1");
	snap_set_str(node(s, "runtime.level_zero.loader"), "version", "1.17.6", "x");
	xpu_env(s, "2.8.0+xpu", NULL);
	d = diag(s);
	assert_int_equal(d->n_vendor_chains, 1);
	v = &d->vendor_chains[0];
	assert_string_equal(v->vendor, "intel");
	assert_true(strncmp(v->driver, "i915 (kernel ", 13) == 0);
	assert_string_equal(v->runtime, "Level Zero 1.17.6, GPU driver (version unknown)");
	assert_string_equal(v->target, "DG2");
	assert_int_equal(v->link_state[0], LINK_OK);
	assert_int_equal(v->link_state[1], LINK_OK);
	assert_int_equal(v->target_state, LINK_OK);
	diagnosis_free(d);

	/* no GPU driver for Level Zero: the driver link is broken */
	lib(s, "gpu_driver", NULL);
	d = diag(s);
	assert_int_equal(d->vendor_chains[0].link_state[0], LINK_BROKEN);
	assert_int_equal(d->vendor_chains[0].target_state, LINK_BROKEN);
	assert_string_equal(d->vendor_chains[0].runtime, "Level Zero 1.17.6, GPU driver none");
	diagnosis_free(d);
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_firmware),
		cmocka_unit_test(test_force_probe),
		cmocka_unit_test(test_kernel_too_old),
		cmocka_unit_test(test_level_zero),
		cmocka_unit_test(test_ipex),
		cmocka_unit_test(test_level_zero_no_device),
		cmocka_unit_test(test_opencl),
		cmocka_unit_test(test_compute_runtime_drops_gpu),
		cmocka_unit_test(test_log_parser),
		cmocka_unit_test(test_visible_devices_none),
		cmocka_unit_test(test_intel_chain),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
