// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the framework coverage rules over every GPU library a framework's process
 * loads (gpu_libraries[], src/probe/framework-coverage.c): the weakest decides. A framework
 * whose own kernels run while its cuDNN wheel has no code for the GPU fails with "no kernel
 * image is available for execution on the device" (framework.no-kernel-image, naming the
 * library); one served through PTX JIT is named as the weakest (framework.ptx-jit-only); a
 * library whose code could not be read leaves the rule unable to tell, never passed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "rules-test-util.h"

#define SITE   "/home/user/venv/lib/python3.12/site-packages"
#define CUDNN  SITE "/nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9"
#define CUBLAS SITE "/nvidia/cublas/lib/libcublasLt.so.12"

/* An H100 SXM (CC 9.0) on driver 580.95.05 with torch 2.9 cu130 of these own targets in a
 * venv, and an empty gpu_libraries[]. */
static struct gpuenv_snapshot *machine(struct snap_node **ret_torch, const char *const *own)
{
	struct gpuenv_snapshot *s = base();

	gpu(s, NULL, "nvidia");
	driver_loaded(s, "580.95.05");
	*ret_torch = torch_env(s, "2.9.0+cu130", "13.0", own);
	snap_set_str(snap_object(*ret_torch, "kernel_library"), "path",
		     SITE "/torch/lib/libtorch_cuda.so", SITE "/torch/lib/libtorch_cuda.so");
	snap_array(*ret_torch, "gpu_libraries");
	return s;
}

/* An arch_targets[] list as the probe writes it: PTX with ISA 9.0 (CUDA 13.0's). */
static void targets(struct snap_node *obj, const char *src, const char *const *ts)
{
	struct snap_node *a = snap_array(obj, "arch_targets");

	for (size_t i = 0; ts[i]; i++) {
		struct snap_node *x = snap_append_object(a);

		snap_set_str(x, "target", ts[i], src);
		snap_set_str(x, "kind", strncmp(ts[i], "sm_", 3) == 0 ? "sass" : "ptx", src);
		if (strncmp(ts[i], "compute_", 8) == 0)
			snap_set_str(x, "ptx_isa", "9.0", src);
	}
}

/* A gpu_libraries[] entry for a library of an nvidia-* wheel. */
static struct snap_node *wheel_lib(struct snap_node *torch, const char *path, const char *wheel)
{
	struct snap_node *e =
		snap_append_object((struct snap_node *)snap_child(torch, "gpu_libraries"));

	snap_set_str(e, "name", strrchr(path, '/') + 1, path);
	snap_set_str(e, "path", path, path);
	snap_set_str(e, "origin", "wheel", path);
	snap_set_str(e, "wheel", wheel, path);
	return e;
}

/* torch's own kernels have sm_90 SASS, its cuDNN wheel only sm_80 SASS and no PTX: cuDNN's
 * kernels fail on the H100 (sm_80 SASS runs on 8.x only; docs/compatibility.md (a)). */
static void test_cudnn_no_sm90(void **state)
{
	struct snap_node *t;
	struct gpuenv_snapshot *s = machine(&t, TARGETS("sm_80", "sm_90", "compute_90"));

	targets(wheel_lib(t, CUDNN, "nvidia-cudnn-cu12"), CUDNN, TARGETS("sm_80", "sm_86"));
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR,
	    "loads libcudnn_engines_precompiled.so.9 (nvidia-cudnn-cu12 wheel), which cannot "
	    "run on");
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR, "at 0000:18:00.0");
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR,
	    "\"no kernel image is available for execution on the device\"");
	NO(s, "framework.ptx-jit-only");
	/* The fix reinstalls the version torch's own metadata pins, else the newest. */
	assert_true(fix_has(s, "framework.no-kernel-image", "pip install -U nvidia-cudnn-cu12"));
	snap_append_str(snap_array(t, "requires_nvidia"),
			"nvidia-cublas-cu12==12.4.2.65; platform_system == \"Linux\"", "METADATA");
	snap_append_str((struct snap_node *)snap_child(t, "requires_nvidia"),
			"nvidia_cudnn_cu12 == 9.1.0.70; platform_system == \"Linux\"", "METADATA");
	assert_true(fix_has(s, "framework.no-kernel-image",
			    "--force-reinstall 'nvidia_cudnn_cu12 == 9.1.0.70'"));
	snapshot_unref(s);
}

/* vLLM's kernels (a torch extension's module, gpu_libraries[] of origin "extension") built
 * from 7.0 up on a 9.0 GPU run; with SASS only for 7.x and 8.x and no PTX they do not, though
 * torch's own do (vllm-project/vllm#19542 on a 6.1 GPU): the finding names the extension and
 * the fix rebuilds it, not torch or an nvidia-* wheel. */
static struct snap_node *vllm_lib(struct snap_node *torch)
{
	static const char vllm[] = SITE "/vllm/_C.abi3.so";
	struct snap_node *e =
		snap_append_object((struct snap_node *)snap_child(torch, "gpu_libraries"));

	snap_set_str(e, "name", "_C.abi3.so", vllm);
	snap_set_str(e, "path", vllm, vllm);
	snap_set_str(e, "origin", "extension", vllm);
	snap_set_str(e, "package", "vllm", vllm);
	return e;
}

static void test_extension_no_image(void **state)
{
	struct snap_node *t;
	struct gpuenv_snapshot *s = machine(&t, TARGETS("sm_80", "sm_90", "compute_90"));

	targets(vllm_lib(t), SITE "/vllm/_C.abi3.so", TARGETS("sm_70", "sm_75", "sm_80", "sm_90"));
	NO(s, "framework.no-kernel-image");
	snapshot_unref(s);
	s = machine(&t, TARGETS("sm_80", "sm_90", "compute_90"));
	targets(vllm_lib(t), SITE "/vllm/_C.abi3.so", TARGETS("sm_70", "sm_75", "sm_80", "sm_86"));
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR,
	    "loads _C.abi3.so (vllm, a torch extension), which cannot run on");
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR,
	    "though the framework's own kernels can");
	assert_true(fix_has(s, "framework.no-kernel-image",
			    "# install a vllm build whose kernels carry sm_90 SASS"));
	assert_false(fix_has(s, "framework.no-kernel-image", "pip install"));
	snapshot_unref(s);
}

/* Every library covers the GPU: nothing to say. */
static void test_all_cover(void **state)
{
	struct snap_node *t;
	struct gpuenv_snapshot *s = machine(&t, TARGETS("sm_80", "sm_90", "compute_90"));

	targets(wheel_lib(t, CUDNN, "nvidia-cudnn-cu12"), CUDNN, TARGETS("sm_80", "sm_90"));
	targets(wheel_lib(t, CUBLAS, "nvidia-cublas-cu12"), CUBLAS,
		TARGETS("sm_90a", "sm_90", "compute_90"));
	NO(s, "framework.no-kernel-image");
	NO(s, "framework.ptx-jit-only");
	NO(s, "framework.ptx-too-new-for-driver");
	/* A library without GPU code (no fat binary) is not judged. */
	snap_set_state(wheel_lib(t, SITE "/nvidia/cudnn/lib/libcudnn.so.9", "nvidia-cudnn-cu12"),
		       "arch_targets", FACT_ABSENT, SITE "/nvidia/cudnn/lib/libcudnn.so.9",
		       "no CUDA fat binary or HIP offload bundle in this library");
	NO(s, "framework.no-kernel-image");
	snapshot_unref(s);
}

/* cuBLAS runs only through PTX of compute_50 (much older than 9.0): it runs, JIT-compiled, so
 * no error; the info names it as the weakest, not the framework's own sm_90 kernels. */
static void test_ptx_only_weakest(void **state)
{
	struct snap_node *t;
	struct gpuenv_snapshot *s = machine(&t, TARGETS("sm_90", "compute_90"));

	targets(wheel_lib(t, CUDNN, "nvidia-cudnn-cu12"), CUDNN, TARGETS("sm_80", "compute_80"));
	targets(wheel_lib(t, CUBLAS, "nvidia-cublas-cu12"), CUBLAS, TARGETS("compute_50"));
	NO(s, "framework.no-kernel-image");
	YES(s, "framework.ptx-jit-only", GPUENV_SEVERITY_INFO,
	    "its weakest library, libcublasLt.so.12 (nvidia-cublas-cu12 wheel)");
	YES(s, "framework.ptx-jit-only", GPUENV_SEVERITY_INFO, "compute_50");
	/* The pinned version is what JITs: no reinstall of it, a release with SASS instead. */
	snap_append_str(snap_array(t, "requires_nvidia"), "nvidia-cublas-cu12==12.4.2.65",
			"METADATA");
	assert_true(fix_has(s, "framework.ptx-jit-only", "pip install -U nvidia-cublas-cu12"));
	assert_false(fix_has(s, "framework.ptx-jit-only", "--force-reinstall"));
	snapshot_unref(s);
}

/* The framework's own kernels reach the GPU only through old PTX while cuDNN has nothing for
 * it: an error (the cuDNN launch fails), not the JIT info. */
static void test_ptx_main_lib_none(void **state)
{
	struct snap_node *t;
	struct gpuenv_snapshot *s = machine(&t, TARGETS("sm_80", "compute_80"));

	YES(s, "framework.ptx-jit-only", GPUENV_SEVERITY_INFO, "compute_80");
	targets(wheel_lib(t, CUDNN, "nvidia-cudnn-cu12"), CUDNN, TARGETS("sm_80", "sm_86"));
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR,
	    "libcudnn_engines_precompiled.so.9");
	NO(s, "framework.ptx-jit-only");
	snapshot_unref(s);
}

/* A library whose GPU code could not be read: its state stays, and the rule could not tell
 * (skipped), never a pass; a library that does fail still fires. */
static void test_unreadable(void **state)
{
	struct snap_node *t;
	struct gpuenv_snapshot *s = machine(&t, TARGETS("sm_90", "compute_90"));

	snap_set_errno(wheel_lib(t, CUDNN, "nvidia-cudnn-cu12"), "arch_targets", -EACCES, CUDNN);
	SKIPPED(s, "framework.no-kernel-image");
	NO(s, "framework.ptx-jit-only");
	targets(wheel_lib(t, CUBLAS, "nvidia-cublas-cu12"), CUBLAS, TARGETS("sm_80"));
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR, "libcublasLt.so.12");
	snapshot_unref(s);
}

/* More GPU libraries than the probe lists (gpu_libraries_truncated): those read all cover the
 * GPU, the rest were not read: could not tell, never a pass; a failure among those read still
 * fires. */
static void test_truncated(void **state)
{
	struct snap_node *t;
	struct gpuenv_snapshot *s = machine(&t, TARGETS("sm_90", "compute_90"));

	(void)state;
	targets(wheel_lib(t, CUDNN, "nvidia-cudnn-cu12"), CUDNN, TARGETS("sm_90"));
	NO(s, "framework.no-kernel-image");
	snap_set_bool(t, "gpu_libraries_truncated", true, CUBLAS);
	SKIPPED(s, "framework.no-kernel-image");
	targets(wheel_lib(t, CUBLAS, "nvidia-cublas-cu12"), CUBLAS, TARGETS("sm_80"));
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR, "libcublasLt.so.12");
	snapshot_unref(s);
}

/* A jaxlib CUDA wheel (0.1.74+cuda11.cudnn82) in the venv: XLA's xla_extension.so holds no
 * GPU code of its own (XLA compiles at run time), its ThreeFry kernel module only sm_75 SASS
 * and compute_80 PTX of ISA 9.0. */
static struct snap_node *jaxlib_cuda(struct gpuenv_snapshot *s, const char *prng_isa)
{
	const char *xla = SITE "/jaxlib/xla_extension.so",
		   *prng = SITE "/jaxlib/cuda_prng_kernels.so";
	struct snap_node *envs = snap_array(node(s, "framework"), "python_envs");
	struct snap_node *e = snap_append_object(envs), *j, *l;

	snap_set_str(e, "prefix", "/home/user/venv", "/home/user/venv");
	j = snap_object(snap_object(e, "packages"), "jax");
	snap_set_str(j, "version", "0.2.25", SITE "/jax/version.py");
	snap_set_str(j, "jaxlib_dist_version", "0.1.74+cuda11.cudnn82", SITE);
	snap_set_str(j, "jaxlib_local_version", "cuda11.cudnn82", SITE);
	snap_set_bool(j, "cpu_only", false, SITE);
	snap_set_str(snap_object(j, "kernel_library"), "path", xla, xla);
	snap_set_state(j, "arch_targets", FACT_ABSENT, xla,
		       "no CUDA fat binary or HIP offload bundle in this library");
	l = snap_append_object(snap_array(j, "gpu_libraries"));
	snap_set_str(l, "name", "cuda_prng_kernels.so", prng);
	snap_set_str(l, "path", prng, prng);
	snap_set_str(l, "origin", "own", prng);
	targets(l, prng, TARGETS("sm_75", "compute_80"));
	if (prng_isa)
		snap_set_str((struct snap_node *)snap_at(snap_child(l, "arch_targets"), 1),
			     "ptx_isa", prng_isa, prng);
	return j;
}

/* jax-ml/jax#8731: the kernel module's only code for an 8.x GPU is PTX from a newer toolchain
 * than the driver's JIT: "the provided PTX was compiled with an unsupported toolchain"; the
 * fix upgrades the driver first. A driver that JITs it: the info; a CPU jaxlib: nothing. */
static void test_jaxlib_kernel_modules(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *j;

	(void)state;
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "465.19.01");
	j = jaxlib_cuda(s, NULL);
	YES(s, "framework.ptx-too-new-for-driver", GPUENV_SEVERITY_ERROR,
	    "jax 0.2.25 (jaxlib 0.1.74+cuda11.cudnn82) in /home/user/venv loads "
	    "cuda_prng_kernels.so (jax's own), whose only code");
	assert_true(fix_has(s, "framework.ptx-too-new-for-driver", "upgrade the driver"));
	NO(s, "framework.no-kernel-image");
	snapshot_unref(s);

	s = base();
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "580.95.05");
	jaxlib_cuda(s, NULL);
	NO(s, "framework.ptx-too-new-for-driver");
	YES(s, "framework.ptx-jit-only", GPUENV_SEVERITY_INFO, "cuda_prng_kernels.so");
	snapshot_unref(s);

	/* Without a GPU library of its own, xla_extension.so alone: nothing to judge. */
	s = base();
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "465.19.01");
	j = jaxlib_cuda(s, NULL);
	snap_array(j, "gpu_libraries");
	snap_set_state(j, "gpu_libraries", FACT_ABSENT, SITE, "none");
	NO(s, "framework.ptx-too-new-for-driver");
	snapshot_unref(s);

	/* A CPU jaxlib (no "+cuda" local version) is not judged at all. */
	s = base();
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "465.19.01");
	j = jaxlib_cuda(s, NULL);
	snap_set_state(j, "jaxlib_local_version", FACT_ABSENT, SITE, "no local version");
	NO(s, "framework.ptx-too-new-for-driver");
	NO(s, "framework.no-kernel-image");
	snapshot_unref(s);
}

/* The framework's own kernel library holds no GPU code and a module has nothing for the GPU
 * at all: no kernel image, said without claiming the framework's own kernels run. */
static void test_own_module_no_image(void **state)
{
	struct gpuenv_snapshot *s = base();
	struct snap_node *j, *a;

	(void)state;
	gpu(s, NULL, "nvidia");
	driver_loaded(s, "580.95.05");
	j = jaxlib_cuda(s, NULL);
	a = (struct snap_node *)snap_child(snap_at(snap_child(j, "gpu_libraries"), 0),
					   "arch_targets");
	snap_set_str((struct snap_node *)snap_at(a, 1), "target", "sm_80", SITE);
	snap_set_str((struct snap_node *)snap_at(a, 1), "kind", "sass", SITE);
	YES(s, "framework.no-kernel-image", GPUENV_SEVERITY_ERROR,
	    "its kernel library holds no GPU code of its own");
	snapshot_unref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cudnn_no_sm90),
		cmocka_unit_test(test_extension_no_image),
		cmocka_unit_test(test_all_cover),
		cmocka_unit_test(test_ptx_only_weakest),
		cmocka_unit_test(test_ptx_main_lib_none),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_jaxlib_kernel_modules),
		cmocka_unit_test(test_own_module_no_image),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
