// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the rules of the framework layer (src/rules/rules-table-framework.inc): every
 * framework.* rule fires on a snapshot built in C that shows its problem (positive) and stays quiet
 * on the same snapshot with the problem fixed (negative); unreadable inputs give "skipped" records,
 * never silence. The builders and assertions: rules-test-util.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "locale-fx.h"
#include "rules-test-util.h"

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

/* The PCI bus not read (pasted text): a GPU that NVML or collect_env's "GPU models" lists is
 * a GPU all the same (pytorch#122924's Windows collect_env); none listed is no answer. */
static void test_cpu_only_listed_gpu(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *d;

	(void)state;
	snap_set_state(node(s, "hardware"), "pci_devices", FACT_UNPROBED, NULL, NULL);
	torch_env(s, "2.2.2", NULL, NULL);
	SKIPPED(s, "framework.cpu-only-build");
	d = snap_append_object(snap_array(snap_object(node(s, "driver"), "nvml"), "devices"));
	snap_set_str(d, "name", "NVIDIA GeForce RTX 4080 Laptop GPU", "pasted:18");
	YES(s, "framework.cpu-only-build", GPUENV_SEVERITY_ERROR, "with 1 GPU(s)");
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
	YES(s, "framework.gpu-too-old-for-build", GPUENV_SEVERITY_ERROR, "older than every target");
	NO(s, "framework.no-kernel-image");
	/* torch's wording changes with its release: what it says, not one release's words */
	YES(s, "framework.gpu-too-old-for-build", GPUENV_SEVERITY_ERROR,
	    "torch warns that GPU0 is of cuda capability 6.1, below the 7.5 this build supports");
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
	/* torch 2.1's cu118 runs on R470 through CUDA 11's minor-version compatibility
	 * (>= 450.80.02): the same release, not a downgrade to 1.12 (GPT-SoVITS#83) */
	FIX(s, "framework.cuda-newer-than-driver",
	    "'torch==2.1.*' --index-url https://download.pytorch.org/whl/cu118");
	FIX(s, "framework.cuda-newer-than-driver", "through minor-version compatibility");
	NO_FIX(s, "framework.cuda-newer-than-driver", "has no CUDA variant");
	/* R535: torch 2.1 published cu121 (>= 530.30.02), the newest 535 runs */
	snap_set_str(node(s, "driver.nvidia"), "module_version", "535.183.01", "x");
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "cuda", "13.0", "x");
	snap_set_str(node(s, "framework.python_envs.0.packages.torch"), "version", "2.9.0+cu130",
		     "x");
	/* torch 2.9 published cu126, cu128, cu130: none at full functionality on R535 (cu126
	 * needs 560.28.03), but cu128 through CUDA 12's minor-version compatibility (>=
	 * 525.60.13); cu130 (CUDA 13: >= 580) not */
	FIX(s, "framework.cuda-newer-than-driver",
	    "'torch==2.9.*' --index-url https://download.pytorch.org/whl/cu128");
	NO_FIX(s, "framework.cuda-newer-than-driver", "whl/cu130");
	snap_set_str(node(s, "driver.nvidia"), "module_version", "565.57.01", "x");
	FIX(s, "framework.cuda-newer-than-driver",
	    "'torch==2.9.*' --index-url https://download.pytorch.org/whl/cu126");
	snapshot_unref(s);

	/* torch 2.8 cu128 already runs on R535 through minor-version compatibility (the
	 * warning): cu129, the newest variant that also would, is the same state and no fix
	 * (open-edge-platform/anomalib#2953) */
	s = base();
	gpu(s, "0x1b02", "nvidia");
	driver_loaded(s, "535.161.08");
	torch_env(s, "2.8.0", "12.8", NULL);
	YES(s, "framework.cuda-newer-than-driver", GPUENV_SEVERITY_WARNING,
	    "minor-version compatibility");
	NO_FIX(s, "framework.cuda-newer-than-driver", "whl/cu129");
	NO_FIX(s, "framework.cuda-newer-than-driver", "whl/cu128");
	FIX(s, "framework.cuda-newer-than-driver", "needs minor-version compatibility on driver");
	snapshot_unref(s);
}

/* A snapshot of pasted text from Windows: the mark read (messages.platform.windows), nvidia-smi's
 * header (driver.nvml.*), nothing of the kernel module (unprobed, as explain leaves it). */
static struct gpuenv_snapshot *windows_paste(const char *driver, const char *cuda)
{
	struct gpuenv_snapshot *s;
	struct snap_node *root, *nvml;

	assert_int_equal(snapshot_new(&s), 0);
	root = snapshot_root(s);
	snap_set_str(snap_object(snap_object(root, "messages"), "platform"), "windows", "WDDM",
		     "pasted:4");
	nvml = snap_object(snap_object(root, "driver"), "nvml");
	snap_set_str(nvml, "driver_version", driver, "pasted:2");
	if (cuda)
		snap_set_str(nvml, "cuda_driver_version", cuda, "pasted:2");
	snap_object(root, "framework");
	return s;
}

/* The Windows driver a paste from Windows names is judged on the Windows column of NVIDIA's
 * Table 3 only, never Linux's: 441.66 with CUDA 10.2 (easydiffusion/easydiffusion#1900's
 * nvidia-smi header) cannot run CUDA 11.0 (>= 451.48 on Windows; 11.x's minor-version floor
 * is 452.39); 551.23 is past Linux's 550.54.14 for CUDA 12.4 but short of Windows's 551.61;
 * 535.98 runs torch 2.0.1+cu117 (pytorch/pytorch#51858's collect_env: >= 516.01). */
static void test_fw_cuda_newer_windows(void **state)
{
	struct gpuenv_snapshot *s = windows_paste("441.66", "10.2");

	torch_env(s, "1.7.1+cu110", "11.0", NULL);
	YES(s, "framework.cuda-newer-than-driver", GPUENV_SEVERITY_ERROR, "found version 10020");
	NO_TEXT(s, "framework.cuda-newer-than-driver", "450.51");
	NO_TEXT(s, "framework.cuda-newer-than-driver", "(R441)");
	FIX(s, "framework.cuda-newer-than-driver", "Windows driver 451.82 or newer");
	NO_FIX(s, "framework.cuda-newer-than-driver", "gpuenv facts driver");
	snapshot_unref(s);

	s = windows_paste("551.23", NULL);
	torch_env(s, "2.3.0+cu124", "12.4", NULL);
	YES(s, "framework.cuda-newer-than-driver", GPUENV_SEVERITY_WARNING,
	    "needs Windows driver >= 551.61");
	snapshot_unref(s);

	s = windows_paste("535.98", NULL);
	torch_env(s, "2.0.1+cu117", "11.7", NULL);
	NO(s, "framework.cuda-newer-than-driver");
	snapshot_unref(s);

	/* WSL2's nvidia-smi names the Windows host's driver too (NVIDIA-SMI 570.133.07 over
	 * Windows driver 572.83): Windows floors, though its kernel release shows Linux */
	s = windows_paste("551.23", NULL);
	snap_set_str(snap_object(snapshot_root(s), "host"), "kernel_release",
		     "5.15.153.1-microsoft-standard-WSL2", "pasted:1");
	torch_env(s, "2.3.0+cu124", "12.4", NULL);
	YES(s, "framework.cuda-newer-than-driver", GPUENV_SEVERITY_WARNING,
	    "needs Windows driver >= 551.61");
	snapshot_unref(s);
}

/* A torch that `sudo pip install` put into Debian's /usr/local/lib/python3.N/dist-packages is
 * read by /usr/bin/python3.N: the fix names that interpreter, never a /usr/local/bin/pip the
 * machine was not seen to have (sglang#11395: torch 2.9 cu130 in
 * /usr/local/lib/python3.10/dist-packages on the R550 driver). A python:3.N image's own
 * /usr/local/bin/python3 with site-packages keeps <prefix>/bin/pip. */
static void test_fw_debian_dist_packages(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *e;
	const char *site = "/usr/local/lib/python3.10/dist-packages";

	gpu(s, "0x2684", "nvidia");
	driver_loaded(s, "550.54.15");
	torch_env(s, "2.9.0+cu130", "13.0", NULL);
	e = node(s, "framework.python_envs.0");
	snap_set_str(e, "prefix", "/usr/local", "/usr/local");
	snap_set_str(e, "kind", "system", "/usr/local");
	snap_append_str(snap_array(e, "site_packages"), site, site);
	snap_append_str(snap_array(e, "python_versions"), "3.10", "lib/python3.N directory");
	YES(s, "framework.cuda-newer-than-driver", GPUENV_SEVERITY_ERROR, "found version 12040");
	FIX(s, "framework.cuda-newer-than-driver",
	    "/usr/bin/python3.10 -m pip install --force-reinstall 'torch==2.9.*'");
	NO_FIX(s, "framework.cuda-newer-than-driver", "/usr/local/bin/pip");
	/* an interpreter seen in /usr/local: its prefix's pip, as before */
	snap_append_str(snap_array(e, "interpreters"), "/usr/local/bin/python3", "/usr/local/bin");
	FIX(s, "framework.cuda-newer-than-driver",
	    "/usr/local/bin/pip install --force-reinstall 'torch==2.9.*'");
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

/* An LTO-IR entry of a library the framework loads against the nvJitLink its process would
 * link it with (docs/compatibility.md, "LTO-IR"; data/ltoir.tsv: CUDA 13.0 writes 1.65 and
 * its nvJitLink links up to it). */
static struct snap_node *lto_lib(struct gpuenv_snapshot *s, const char *ltoir)
{
	const char *p =
		"/home/user/venv/lib/python3.12/site-packages/nvidia/cufft/lib/libcufft.so.12";
	struct snap_node *l = snap_append_object(
		snap_array(node(s, "framework.python_envs.0.packages.torch"), "gpu_libraries"));
	struct snap_node *a = snap_array(l, "arch_targets"), *x;

	snap_set_str(l, "name", "libcufft.so.12", p);
	snap_set_str(l, "path", p, p);
	snap_set_str(l, "wheel", "nvidia-cufft", p);
	x = snap_append_object(a);
	snap_set_str(x, "target", "sm_90", p);
	snap_set_str(x, "kind", "sass", p);
	x = snap_append_object(a);
	snap_set_str(x, "target", "lto_90", p);
	snap_set_str(x, "kind", "lto", p);
	if (ltoir)
		snap_set_str(x, "ltoir_version", ltoir, p);
	return x;
}

static struct snap_node *nvjitlink_wheel(struct gpuenv_snapshot *s, const char *name,
					 const char *version)
{
	struct snap_node *w =
		snap_append_object(snap_array(node(s, "framework.python_envs.0"), "nvidia_wheels"));

	snap_set_str(w, "name", name, "METADATA");
	snap_set_str(w, "version", version, "METADATA");
	return w;
}

/* An H100 on R580 with a torch build of sm_90 SASS. */
static struct gpuenv_snapshot *lto_machine(const char *torch, const char *cuda)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "580.95.05");
	torch_env(s, torch, cuda, TARGETS("sm_90"));
	return s;
}

/* framework.xla-toolchain-missing: a CUDA jax whose XLA finds no libdevice or no ptxas
 * (packages.jax.xla, src/probe/framework-xla.c); a place that could not be looked at is a
 * skip, never "missing". */
static void test_fw_xla_toolchain(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *jax, *x, *pl;
	const char *site = "/home/user/venv/lib/python3.11/site-packages";

	(void)state;
	snap_set_str(e, "prefix", "/home/user/venv", "/home/user/venv");
	jax = snap_object(snap_object(e, "packages"), "jax");
	snap_set_str(jax, "version", "0.4.30", site);
	pl = snap_append_object(snap_array(jax, "plugins"));
	snap_set_str(pl, "platform", "cuda", "x");
	snap_set_int(pl, "major", 12, "x");
	driver_loaded(s, "570.133.07");
	NO(s, "framework.xla-toolchain-missing"); /* no xla facts: not a CUDA jax */
	x = snap_object(jax, "xla");
	snap_append_str(snap_array(x, "roots"), "/usr/local/cuda", "x");
	snap_set_state(x, "libdevice", FACT_ABSENT, "x", NULL);
	snap_set_str(x, "ptxas", "/opt/cuda-12.2/bin/ptxas", "PATH");
	snap_set_str(x, "path_toolkit", "/opt/cuda-12.2", "x");
	YES(s, "framework.xla-toolchain-missing", GPUENV_SEVERITY_ERROR, "holds libdevice");
	snap_set_str(x, "libdevice", "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc", "x");
	NO(s, "framework.xla-toolchain-missing");
	snap_set_state(x, "ptxas", FACT_ABSENT, "x", NULL);
	YES(s, "framework.xla-toolchain-missing", GPUENV_SEVERITY_ERROR, "holds ptxas");
	snap_set_errno(x, "ptxas", -EACCES, "/usr/local/cuda/bin/ptxas");
	SKIPPED(s, "framework.xla-toolchain-missing");
	snapshot_unref(s);
}

/* framework.numba-nvvm-not-found: numba's place for libNVVM (packages.numba.nvvm,
 * src/probe/framework-numba.c) holds none and the loader finds no bare libnvvm.so
 * (numba/numba#9216: CUDA_HOME set to a list); found there or through the loader, quiet; a
 * place that could not be looked at is a skip, never "missing"; no NVIDIA GPU, quiet. */
static void test_fw_numba_nvvm(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *e = snap_append_object(snap_array(node(s, "framework"), "python_envs"));
	struct snap_node *nb, *nv, *env;

	(void)state;
	snap_set_str(e, "prefix", "/home/user/miniconda3/envs/monoflex", "x");
	snap_set_str(e, "kind", "conda", "x");
	nb = snap_object(snap_object(e, "packages"), "numba");
	snap_set_str(nb, "dist_version", "0.58.0", "x");
	nv = snap_object(nb, "nvvm");
	snap_set_str(nv, "decided_by", "CUDA_HOME", "x");
	snap_set_str(nv, "dir", ":/usr/local/cuda-11.8/nvvm/lib64", "x");
	env = snap_object(nv, "env");
	snap_set_str(env, "name", "CUDA_HOME", "CUDA_HOME");
	snap_set_str(env, "value", ":/usr/local/cuda-11.8", "CUDA_HOME");
	snap_set_state(nv, "path", FACT_ABSENT, "x", NULL);
	NO(s, "framework.numba-nvvm-not-found"); /* no NVIDIA GPU: numba runs no kernel */
	driver_loaded(s, "535.104.05");
	YES(s, "framework.numba-nvvm-not-found", GPUENV_SEVERITY_ERROR,
	    "(CUDA_HOME: :/usr/local/cuda-11.8/nvvm/lib64) holds no libnvvm.so");
	/* no member of the list holds it: no CUDA_HOME to name, the nvcc package to install */
	FIX(s, "framework.numba-nvvm-not-found", "export CUDA_HOME=<the CUDA toolkit");
	FIX(s, "framework.numba-nvvm-not-found", "conda install -c nvidia cuda-nvcc");
	snap_set_str(env, "list_member", "/usr/local/cuda-11.8", "x");
	FIX(s, "framework.numba-nvvm-not-found", "export CUDA_HOME=/usr/local/cuda-11.8");
	snap_set_str(nv, "path", "/usr/lib/x86_64-linux-gnu/libnvvm.so", "ld.so search");
	NO(s, "framework.numba-nvvm-not-found"); /* the bare name loads */
	snap_set_str(nv, "path", "/usr/local/cuda-11.8/nvvm/lib64/libnvvm.so.4.0.0", "x");
	NO(s, "framework.numba-nvvm-not-found");
	snap_set_errno(nv, "path", -EACCES, "/usr/local/cuda-11.8/nvvm/lib64");
	SKIPPED(s, "framework.numba-nvvm-not-found");
	/* numba 0.46 on Debian's packages (numba/numba#4979): no place of its list is there and
	 * before 0.48 it does not ask the loader, which finds the package's libnvvm.so */
	snapshot_unref(s);
	s = base();
	driver_loaded(s, "430.50");
	e = snap_append_object(snap_array(node(s, "framework"), "python_envs"));
	snap_set_str(e, "prefix", "/home/user/miniconda3/envs/pyarrow", "x");
	nb = snap_object(snap_object(e, "packages"), "numba");
	snap_set_str(nb, "dist_version", "0.46.0", "x");
	nv = snap_object(nb, "nvvm");
	snap_set_str(nv, "decided_by", "<unknown>", "x");
	snap_set_state(nv, "path", FACT_ABSENT, "x", NULL);
	snap_set_str(nv, "loader_path", "/usr/lib/x86_64-linux-gnu/libnvvm.so", "ld.so search");
	YES(s, "framework.numba-nvvm-not-found", GPUENV_SEVERITY_ERROR,
	    "does not ask the loader, which would give it /usr/lib/x86_64-linux-gnu/libnvvm.so");
	FIX(s, "framework.numba-nvvm-not-found", "pip install -U 'numba>=0.48'");
	snapshot_unref(s);
}

/* framework.xla-toolchain-missing of TensorFlow's XLA (packages.tensorflow.xla): judged from
 * 2.11 on (Keras compiles with XLA by default), skipped before and where the release is
 * unknown; a CUDA 12 build's fix is the nvcc wheel. */
static void test_fw_xla_toolchain_tf(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *tf, *x;
	const char *site = "/opt/conda/lib/python3.11/site-packages";

	(void)state;
	snap_set_str(e, "prefix", "/opt/conda", "/opt/conda");
	tf = snap_object(snap_object(e, "packages"), "tensorflow");
	snap_set_str(snap_object(tf, "build_info"), "cuda_version", "12.2", site);
	driver_loaded(s, "570.133.07");
	NO(s, "framework.xla-toolchain-missing"); /* no xla facts: not a CUDA build */
	x = snap_object(tf, "xla");
	snap_append_str(snap_array(x, "roots"), "/usr/local/cuda-12.2", "x");
	snap_set_state(x, "libdevice", FACT_ABSENT, "x", NULL);
	snap_set_state(x, "ptxas", FACT_ABSENT, "x", NULL);
	SKIPPED(s, "framework.xla-toolchain-missing"); /* its release unknown */
	snap_set_str(tf, "dist_version", "2.10.1", site);
	SKIPPED(s, "framework.xla-toolchain-missing"); /* XLA only where a program asks */
	snap_set_str(tf, "dist_version", "2.15.0", site);
	YES(s, "framework.xla-toolchain-missing", GPUENV_SEVERITY_ERROR,
	    "TensorFlow in /opt/conda compiles");
	FIX(s, "framework.xla-toolchain-missing", "pip install nvidia-cuda-nvcc-cu12");
	snap_set_str(x, "libdevice",
		     "/opt/conda/lib/python3.11/site-packages/nvidia/cuda_nvcc/nvvm/libdevice/"
		     "libdevice.10.bc",
		     "x");
	snap_set_str(x, "ptxas",
		     "/opt/conda/lib/python3.11/site-packages/nvidia/cuda_nvcc/bin/ptxas", "x");
	NO(s, "framework.xla-toolchain-missing");
	snapshot_unref(s);
}

/* framework.xla-ptxas-too-old: the ptxas XLA takes (packages.jax.xla.ptxas, its release
 * ptxas_version) does not know the GPU (an RTX 4090, sm_89: CUDA 11.8 on), or a toolkit's on
 * PATH is older than the environment's nvcc wheel; a release no file says is a skip. */
static void test_fw_xla_ptxas_old(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *e = snap_append_object(snap_array(node(s, "framework"), "python_envs"));
	struct snap_node *jax, *x, *pl;

	(void)state;
	gpu(s, "0x2684", "nvidia");
	driver_loaded(s, "570.133.07");
	snap_set_str(e, "prefix", "/home/user/venv", "/home/user/venv");
	jax = snap_object(snap_object(e, "packages"), "jax");
	pl = snap_append_object(snap_array(jax, "plugins"));
	snap_set_str(pl, "platform", "cuda", "x");
	snap_set_int(pl, "major", 12, "x");
	x = snap_object(jax, "xla");
	snap_set_str(x, "libdevice", "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc", "x");
	snap_set_str(x, "ptxas", "/usr/local/cuda-11.3/bin/ptxas", "PATH");
	snap_set_bool(x, "ptxas_from_path", true, "PATH");
	snap_set_state(x, "ptxas_version", FACT_ABSENT, "/usr/local/cuda-11.3", NULL);
	SKIPPED(s, "framework.xla-ptxas-too-old"); /* its release unknown: could not tell */
	snap_set_str(x, "ptxas_version", "11.3.1", "/usr/local/cuda-11.3/version.json");
	YES(s, "framework.xla-ptxas-too-old", GPUENV_SEVERITY_ERROR, "sm_89");
	snap_set_str(x, "ptxas_version", "11.8.89", "/usr/local/cuda-11.3/version.json");
	NO(s, "framework.xla-ptxas-too-old"); /* 11.8 knows sm_89 */
	/* CUDA 12.1's ptxas on PATH before the 12.6.85 nvcc wheel jax[cuda12] installed */
	snap_set_str(nvjitlink_wheel(s, "nvidia-cuda-nvcc-cu12", "12.6.85"), "dist_info",
		     "/home/user/venv/lib/python3.12/site-packages/"
		     "nvidia_cuda_nvcc_cu12-12.6.85.dist-info",
		     "x");
	snap_set_str(x, "ptxas", "/usr/local/cuda-12.1/bin/ptxas", "PATH");
	snap_set_str(x, "ptxas_version", "12.1.66", "/usr/local/cuda-12.1/version.json");
	YES(s, "framework.xla-ptxas-too-old", GPUENV_SEVERITY_ERROR, "older than the nvidia-cuda");
	FIX(s, "framework.xla-ptxas-too-old",
	    "export PATH=/home/user/venv/lib/python3.12/site-packages/nvidia/cuda_nvcc/bin:$PATH");
	/* the same toolkit found in XLA's roots, not on PATH: the wheel's root comes first */
	snap_set_bool(x, "ptxas_from_path", false, "x");
	NO(s, "framework.xla-ptxas-too-old");
	/* the wheel's own ptxas: its release is the wheel's */
	snap_set_str(x, "ptxas",
		     "/home/user/venv/lib/python3.12/site-packages/nvidia/cuda_nvcc/"
		     "bin/ptxas",
		     "x");
	snap_set_state(x, "ptxas_version", FACT_UNPROBED, "x", NULL);
	NO(s, "framework.xla-ptxas-too-old");
	snapshot_unref(s);
}

/* One of ollama's bundled CUDA libraries (probe-ollama.c); targets NULL: its code unreadable. */
static void ollama_variant(struct gpuenv_snapshot *s, const char *name, const char *const *targets)
{
	struct snap_node *o = snap_object(node(s, "framework"), "ollama");
	struct snap_node *v = snap_append_object(snap_array(o, "cuda_variants"));
	struct snap_node *t;

	snap_set_str(v, "name", name, "x");
	snap_set_str(v, "dir", name, "x");
	if (!targets) {
		snap_set_errno(v, "arch_targets", -EACCES, name);
		return;
	}
	t = snap_array(v, "arch_targets");
	for (const char *const *p = targets; *p; p++)
		snap_set_str(snap_append_object(t), "target", *p, "x");
}

/* The GPU is lost only when every variant fails; a variant whose code is unknown is "could
 * not tell" only while no other variant is seen to run, whatever the order. */
static void test_fw_ollama(void **state)
{
	const char *id = "framework.ollama-no-usable-cuda-library";
	struct gpuenv_snapshot *s = base();

	(void)state;
	gpu(s, NULL, "nvidia"); /* an H100, 9.0 */
	driver_loaded(s, "570.133.07");
	NO(s, id); /* no ollama */
	ollama_variant(s, "cuda_v11", NULL);
	SKIPPED(s, id);
	ollama_variant(s, "cuda_v12", TARGETS("sm_50", "sm_80"));
	SKIPPED(s, id); /* cuda_v12 fails, cuda_v11 may run */
	ollama_variant(s, "cuda_v13", TARGETS("sm_75", "sm_90"));
	NO(s, id); /* cuda_v13 runs: the unknown cuda_v11 does not matter */
	snapshot_unref(s);

	s = base();
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "570.133.07");
	ollama_variant(s, "cuda_v12", TARGETS("sm_50", "sm_80"));
	YES(s, id, GPUENV_SEVERITY_ERROR, "none of ollama's CUDA libraries runs on");
	snapshot_unref(s);
}

/* ollama's ROCm (probe-ollama.c): the GPU's gfx against its rocBLAS targets, the override's
 * target instead where HSA_OVERRIDE_GFX_VERSION is set (ollama then skips its check). */
static void test_fw_ollama_rocm(void **state)
{
	const char *id = "framework.ollama-rocm-gfx-unsupported";
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, "0x73ff", "amdgpu"), *n, *v, *t;

	(void)state;
	snap_set_str(g, "vendor_id", "0x1002", "x");
	n = snap_append_object(snap_array(snap_object(node(s, "driver"), "amdgpu"), "kfd_nodes"));
	snap_set_str(n, "gfx", "gfx1032", "/sys/class/kfd/kfd/topology/nodes/1/properties");
	NO(s, id); /* no ollama */
	v = snap_append_object(
		snap_array(snap_object(node(s, "framework"), "ollama"), "rocm_variants"));
	snap_set_str(v, "dir", "/usr/local/lib/ollama/rocm", "x");
	snap_set_errno(v, "rocblas_targets", -EACCES, "/usr/local/lib/ollama/rocm/rocblas/library");
	SKIPPED(s, id); /* the list unreadable: could not tell */
	t = snap_array(v, "rocblas_targets");
	snap_set_str(snap_append_object(t), "gfx", "gfx1030", "x");
	snap_set_str(snap_append_object(t), "gfx", "gfx1100", "x");
	YES(s, id, GPUENV_SEVERITY_ERROR, "the GPU is gfx1032");
	/* gfx1032 → 10.3.0 runs gfx1030 code, which the list has: offered, unsupported */
	assert_true(fix_has(s, id, "HSA_OVERRIDE_GFX_VERSION=10.3.0   # NOT supported by AMD"));
	env(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0");
	NO(s, id); /* ROCm loads gfx1030 code, which ollama has */
	env(s, "HSA_OVERRIDE_GFX_VERSION", "9.0.6");
	YES(s, id, GPUENV_SEVERITY_ERROR, "makes ROCm load gfx906 code");
	snap_set_str(n, "gfx", "gfx1100", "x");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "11.0.0");
	NO(s, id);
	snapshot_unref(s);
}

/* ollama as a systemd service: the service's files decide the server's override, never the
 * environment gpuenv runs in; what they cannot tell is asked. */
static void test_fw_ollama_rocm_service(void **state)
{
	const char *id = "framework.ollama-rocm-gfx-unsupported";
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, "0x73df", "amdgpu"), *n, *v, *t, *ol, *senv;

	(void)state;
	snap_set_str(g, "vendor_id", "0x1002", "x");
	n = snap_append_object(snap_array(snap_object(node(s, "driver"), "amdgpu"), "kfd_nodes"));
	snap_set_str(n, "gfx", "gfx1031", "/sys/class/kfd/kfd/topology/nodes/1/properties");
	ol = snap_object(node(s, "framework"), "ollama");
	v = snap_append_object(snap_array(ol, "rocm_variants"));
	snap_set_str(v, "dir", "/usr/local/lib/ollama/rocm", "x");
	t = snap_array(v, "rocblas_targets");
	snap_set_str(snap_append_object(t), "gfx", "gfx1030", "x");
	snap_set_str(snap_append_object(t), "gfx", "gfx1100", "x");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0");
	NO(s, id); /* no service: the judged process's override stands */
	snap_set_str(ol, "service_unit", "/etc/systemd/system/ollama.service", "x");
	senv = snap_object(ol, "service_environment");
	YES(s, id, GPUENV_SEVERITY_ERROR,
	    "the ollama service (/etc/systemd/system/ollama.service and its drop-ins) sets no "
	    "HSA_OVERRIDE_GFX_VERSION (the one of the environment gpuenv ran in never reaches it)");
	assert_true(fix_has(s, id,
			    "systemctl edit ollama   # [Service] "
			    "Environment=\"HSA_OVERRIDE_GFX_VERSION=10.3.0\", then"));
	snap_set_str(senv, "HSA_OVERRIDE_GFX_VERSION", "10.3.0",
		     "/etc/systemd/system/ollama.service.d/override.conf:2");
	NO(s, id);
	env(s, "HSA_OVERRIDE_GFX_VERSION", "9.0.6");
	NO(s, id); /* the shell's wrong value does not reach the service */
	snap_set_str(senv, "HSA_OVERRIDE_GFX_VERSION", "9.0.6",
		     "/etc/systemd/system/ollama.service.d/override.conf:2");
	YES(s, id, GPUENV_SEVERITY_ERROR,
	    "HSA_OVERRIDE_GFX_VERSION=9.0.6 (the ollama service's, "
	    "/etc/systemd/system/ollama.service.d/override.conf:2) makes ROCm load gfx906 code");
	snap_set_state(senv, "HSA_OVERRIDE_GFX_VERSION", FACT_UNPROBED,
		       "/etc/systemd/system/ollama.service:3", "EnvironmentFile= may set it");
	SKIPPED(s, id); /* an EnvironmentFile= may set it */
	snap_set_errno(ol, "service_environment", -EACCES, "/etc/systemd/system/ollama.service.d");
	SKIPPED(s, id);
	snapshot_unref(s);
}

/* A unit that is not enabled (no <target>.wants link): the server is the service or an
 * `ollama serve` started by hand (ollama/ollama#8679); judged where both say the same, could
 * not tell where they differ. Enabled: the service's alone. */
static void test_fw_ollama_rocm_not_enabled(void **state)
{
	const char *id = "framework.ollama-rocm-gfx-unsupported";
	struct gpuenv_snapshot *s = base();
	struct snap_node *g = gpu(s, "0x73df", "amdgpu"), *n, *v, *t, *ol, *senv;

	(void)state;
	snap_set_str(g, "vendor_id", "0x1002", "x");
	n = snap_append_object(snap_array(snap_object(node(s, "driver"), "amdgpu"), "kfd_nodes"));
	snap_set_str(n, "gfx", "gfx1031", "/sys/class/kfd/kfd/topology/nodes/1/properties");
	ol = snap_object(node(s, "framework"), "ollama");
	v = snap_append_object(snap_array(ol, "rocm_variants"));
	snap_set_str(v, "dir", "/usr/local/lib/ollama/rocm", "x");
	t = snap_array(v, "rocblas_targets");
	snap_set_str(snap_append_object(t), "gfx", "gfx1030", "x");
	snap_set_str(ol, "service_unit", "/usr/lib/systemd/system/ollama.service", "x");
	snap_set_bool(ol, "service_enabled", false, "/etc/systemd/system/*.wants");
	senv = snap_object(ol, "service_environment");
	snap_set_str(senv, "HSA_OVERRIDE_GFX_VERSION", "10.3.0",
		     "/etc/systemd/system/ollama.service.d/override.conf:2");
	env(s, "PATH", "/usr/bin");
	SKIPPED(s, id); /* the service runs it, a hand-started server does not */
	{
		struct gpuenv_doctor *d = diag(s);

		assert_non_null(strstr(skip_of(d, id)->reason,
				       "which of them is the server could not be told"));
		diagnosis_free(d);
	}
	env(s, "HSA_OVERRIDE_GFX_VERSION", "10.3.0");
	NO(s, id); /* both run it */
	snap_set_str(senv, "HSA_OVERRIDE_GFX_VERSION", "9.0.6", "x");
	env(s, "HSA_OVERRIDE_GFX_VERSION", "9.0.6");
	YES(s, id, GPUENV_SEVERITY_ERROR, "makes ROCm load gfx906 code"); /* both fail */
	snap_set_str(senv, "HSA_OVERRIDE_GFX_VERSION", "10.3.0", "x");
	snap_set_errno(ol, "service_enabled", -EACCES, "/etc/systemd/system");
	SKIPPED(s, id); /* unknown: as not enabled */
	snap_set_bool(ol, "service_enabled", true, "x");
	NO(s, id); /* enabled: the service's override alone */
	snapshot_unref(s);
}

static void test_fw_ltoir(void **state)
{
	const char *id = "framework.ltoir-needs-newer-nvjitlink";
	struct gpuenv_snapshot *s = lto_machine("2.9.0+cu130", "13.0");
	struct snap_node *x, *libs, *l;

	(void)state;
	NO(s, id); /* no LTO-IR: nothing to judge, whatever the nvJitLink */
	x = lto_lib(s, "1.66");
	SKIPPED(s, id); /* LTO-IR, and which nvJitLink the process loads could not be read */
	libs = snap_array(snap_object(node(s, "runtime"), "libraries"), "libnvJitLink");
	NO(s, id); /* none found: nothing to link it with here (the program brings one) */
	nvjitlink_wheel(s, "nvidia-nvjitlink", "13.0.88");
	YES(s, id, GPUENV_SEVERITY_WARNING,
	    "libcufft.so.12 (nvidia-cufft wheel) carries LTO-IR newer than the nvidia-nvjitlink "
	    "13.0.88 wheel links: lto_90 (LTO-IR 1.66): nvJitLink 13.0 too old to link it");
	NO_TEXT(s, id, "(unconfirmed)"); /* nvJitLink 13.0's own row decides */
	assert_true(fix_has(s, id, "/home/user/venv/bin/pip install -U nvidia-nvjitlink   #"));
	assert_true(verify_has(s, id,
			       "gpuenv scan /home/user/venv/lib/python3.12/site-packages/"
			       "nvidia/cufft/lib/libcufft.so.12"));
	snap_set_str(x, "ltoir_version", "1.65", "x"); /* what CUDA 13.0 writes */
	NO(s, id);
	snapshot_unref(s);

	/* nvJitLink 12.4 (a wheel): 1.66 is past even CUDA 13.0's 1.65 (unconfirmed: the order
	 * of releases, not 12.4's own row); 1.65 could not be told (no 12.x row). */
	s = lto_machine("2.4.0+cu124", "12.4");
	x = lto_lib(s, "1.66");
	nvjitlink_wheel(s, "nvidia-nvjitlink-cu12", "12.4.99");
	YES(s, id, GPUENV_SEVERITY_WARNING,
	    "nvidia-nvjitlink-cu12 12.4.99 wheel links (unconfirmed): lto_90 (LTO-IR 1.66): "
	    "nvJitLink 12.4 too old to link it (even CUDA 13.0 writes only LTO-IR 1.65");
	assert_true(fix_has(s, id, "install -U nvidia-nvjitlink-cu12   # an nvJitLink"));
	snap_set_str(x, "ltoir_version", "1.65", "x");
	SKIPPED(s, id);
	snapshot_unref(s);

	/* No wheel: the library the system's loader finds, by its file's version, else by its
	 * soname's major only; an entry without a version is could not tell. */
	s = lto_machine("2.9.0+cu130", "13.0");
	x = lto_lib(s, "1.66");
	libs = snap_array(snap_object(node(s, "runtime"), "libraries"), "libnvJitLink");
	l = snap_append_object(libs);
	snap_set_str(l, "soname", "libnvJitLink.so.13", "ld.so.cache");
	snap_set_str(l, "path", "/usr/local/cuda/lib64/libnvJitLink.so.13", "ld.so.cache");
	snap_set_str(l, "version", "13.0.88", "/usr/local/cuda/lib64/libnvJitLink.so.13.0.88");
	YES(s, id, GPUENV_SEVERITY_WARNING,
	    "LTO-IR newer than the nvJitLink the loader finds "
	    "(/usr/local/cuda/lib64/libnvJitLink.so.13) links: lto_90 (LTO-IR 1.66): nvJitLink "
	    "13.0 too old");
	assert_true(fix_has(s, id, "# or upgrade the system's nvJitLink"));
	snap_set_state(l, "version", FACT_ABSENT, "x", "no version in the file name");
	SKIPPED(s, id); /* "13": which 13.x could not be told */
	snap_set_str(l, "version", "13.0.88", "x");
	snap_set_state(x, "ltoir_version", FACT_ABSENT, "x", "no version in the entry header");
	SKIPPED(s, id);
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_only),
		cmocka_unit_test(test_cpu_only_listed_gpu),
		cmocka_unit_test(test_fw_coverage),
		cmocka_unit_test(test_fw_cuda_newer),
		cmocka_unit_test(test_fw_cuda_newer_windows),
		cmocka_unit_test(test_fw_torch_index),
		cmocka_unit_test(test_fw_toolkit_irrelevant),
		cmocka_unit_test(test_rocm_gfx),
		cmocka_unit_test(test_fw_debian_dist_packages),
		cmocka_unit_test(test_fw_ltoir),
		cmocka_unit_test(test_fw_numba_nvvm),
		cmocka_unit_test(test_fw_xla_toolchain),
		cmocka_unit_test(test_fw_xla_toolchain_tf),
		cmocka_unit_test(test_fw_xla_ptxas_old),
		cmocka_unit_test(test_fw_ollama),
		cmocka_unit_test(test_fw_ollama_rocm),
		cmocka_unit_test(test_fw_ollama_rocm_service),
		cmocka_unit_test(test_fw_ollama_rocm_not_enabled),
	};

	if (test_locale_from_env() < 0) /* with-comma-locale.sh: LC_NUMERIC=de_DE */
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
