// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-collect-env: the `python -m torch.utils.collect_env` reader over real pasted
 * reports (tests/fuzz/corpus/pasted-collect-env/, each copied from the issue named above its
 * test): PyTorch 1.1 to 2.8, Linux, Windows, macOS, CUDA, ROCm and CPU builds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-readers.h"
#include "pasted-test-util.h"

#define DIR   "pasted-collect-env"
#define TORCH "framework.python_envs.0.packages.torch."
static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/pytorch/pytorch/issues/46973 (1.7 on Colab) */
static void test_linux_17(void **state)
{
	(void)state;
	assert_int_equal(
		pasted_run_sample(pasted_read_collect_env, DIR, "linux-1.7-colab-t4.txt", &f), 8);
	pasted_expect(&f, TORCH "version", "1.7.0+cu101", 2);
	pasted_expect(&f, TORCH "local_version", "cu101", 2);
	pasted_expect(&f, TORCH "cuda", "10.1", 4);
	pasted_expect_none(&f, TORCH "hip"); /* "ROCM used to build PyTorch: N/A" */
	pasted_expect(&f, "host.os.pretty_name", "Ubuntu 18.04.5 LTS", 7);
	pasted_expect(&f, "framework.python_envs.0.python_versions.0", "3.6", 12);
	pasted_expect(&f, "runtime.cuda_toolkits.0.nvcc_version", "10.1.243", 14);
	pasted_expect(&f, "driver.nvml.devices.0.name", "Tesla T4", 15);
	pasted_expect(&f, "driver.nvml.driver_version", "418.67", 16);
}

/* https://github.com/pytorch/pytorch/issues/30071 (1.3: Yes/No, eight GPUs on their own
 * lines) */
static void test_linux_13_gpus(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_collect_env, DIR, "linux-1.3-eight-titans.txt", &f);
	pasted_expect(&f, TORCH "version", "1.3.1", 1);
	pasted_expect_none(&f, TORCH "local_version");
	pasted_expect(&f, TORCH "cuda", "10.1.243", 3);
	pasted_expect(&f, "host.os.pretty_name", "Ubuntu 16.04.4 LTS", 5);
	pasted_expect(&f, "driver.nvml.devices.0.name", "TITAN Xp", 13);
	pasted_expect(&f, "driver.nvml.devices.7.name", "TITAN Xp", 20);
	pasted_expect(&f, "driver.nvml.driver_version", "410.48", 22);
}

/* https://github.com/pytorch/pytorch/issues/57922 (1.8, a MIG device line, cuDNN as a list) */
static void test_linux_18_cudnn(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_collect_env, DIR, "linux-1.8-a100-mig-cudnn.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.name", "A100-SXM4-40GB", 16);
	pasted_expect_none(&f, TORCH "cpu_only"); /* CUDA used to build PyTorch: 11.1 */
	pasted_expect_none(&f, "driver.nvml.devices.1.name");
	pasted_expect_none(&f, "runtime.cuda_toolkits.0.nvcc_version"); /* Could not collect */
	pasted_expect(&f, "driver.nvml.driver_version", "450.80.02", 19);
	pasted_expect(&f, "runtime.libraries.libcudnn.0.path",
		      "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.1.0", 21);
	pasted_expect(&f, "runtime.libraries.libcudnn.0.version", "8.1.0", 21);
	pasted_expect_none(&f, "runtime.libraries.libcudnn.1.path"); /* libcudnn_adv… is a part */
}

/* https://github.com/pytorch/pytorch/issues/91973 (2.0 source build: platform line, CUDA
 * not collected) */
static void test_linux_20(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_collect_env, DIR, "linux-2.0-source-4080.txt", &f);
	pasted_expect(&f, TORCH "version", "2.0.0a0+git7f2b5ea", 2);
	pasted_expect_none(&f, TORCH "cuda");
	pasted_expect(&f, "framework.python_envs.0.python_versions.0", "3.10", 13);
	pasted_expect(&f, "host.kernel_release", "5.15.0-57-generic", 14);
	pasted_expect(&f, "driver.nvml.devices.0.name", "NVIDIA GeForce RTX 4080", 18);
	/* the [pip3]/[conda] lines are the packages reader's */
	pasted_expect_none(&f, TORCH "dist_version");
}

/* https://github.com/pytorch/pytorch/pull/44106 (a ROCm build) */
static void test_linux_rocm(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_collect_env, DIR, "linux-1.7-rocm.txt", &f);
	pasted_expect(&f, TORCH "hip", "3.7.20315-077bcfa0", 5);
	pasted_expect_none(&f, TORCH "cuda");
	pasted_expect_no_prefix(&f, "driver.");
}

/* https://github.com/pytorch/pytorch/pull/16999 (macOS: the driver version is the CUDA
 * kext's, the GPU line has no index) */
static void test_macos(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_collect_env, DIR, "macos-1.1.txt", &f);
	pasted_expect(&f, "host.os.pretty_name", "Mac OSX 10.13.6", 5);
	pasted_expect_no_prefix(&f, "driver.");
	pasted_expect_no_prefix(&f, "runtime.libraries");
}

/* https://github.com/pytorch/pytorch/issues/39133 (Windows, 1.5) */
static void test_windows_15(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_collect_env, DIR, "windows-1.5-yes-no.txt", &f);
	pasted_expect_none(&f, "host.os.pretty_name"); /* Could not collect */
	pasted_expect(&f, "driver.nvml.devices.0.name", "Quadro P1000", 13);
	pasted_expect(&f, "driver.nvml.driver_version", "426.25", 14);
}

/* https://github.com/pytorch/pytorch/issues/51858 (Windows, 2.0.1+cu117, cuDNN as a DLL) */
static void test_windows_20(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_collect_env, DIR, "windows-2.0-cu117-cudnn-dll.txt", &f);
	pasted_expect(&f, TORCH "cuda", "11.7", 5);
	pasted_expect(&f, "host.os.pretty_name", "Microsoft Windows 11 Pro", 8);
	pasted_expect(&f, "framework.python_envs.0.python_versions.0", "3.9", 14);
	pasted_expect_none(&f, "host.kernel_release"); /* Windows-10-… is no Linux release */
	pasted_expect(&f, "runtime.cuda_toolkits.0.nvcc_version", "11.7.64", 17);
	pasted_expect(&f, "driver.nvml.driver_version", "535.98", 20);
	pasted_expect_no_prefix(&f, "runtime.libraries");
}

/* https://github.com/pytorch/pytorch/issues/122924 (Windows, the CPU wheel on a 4080) */
static void test_windows_cpu_wheel(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_collect_env, DIR, "windows-2.2-cpu-wheel-4080.txt", &f);
	pasted_expect(&f, TORCH "version", "2.2.2", 2);
	pasted_expect_none(&f, TORCH "cuda");
	pasted_expect(&f, TORCH "cpu_only", "true", 4); /* CUDA used…: Could not collect */
	pasted_expect(&f, "driver.nvml.devices.0.name", "NVIDIA GeForce RTX 4080 Laptop GPU", 18);
	pasted_expect(&f, "driver.nvml.driver_version", "551.86", 19);
}

/* https://github.com/pytorch/pytorch/pull/137846 (Windows, 2.8 CPU build: "None", "No CUDA") */
static void test_windows_28_cpu(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_collect_env, DIR, "windows-2.8-cpu.txt", &f),
			 6);
	pasted_expect(&f, TORCH "version", "2.8.0.dev20250528+cpu", 4);
	pasted_expect(&f, TORCH "local_version", "cpu", 4);
	pasted_expect(&f, TORCH "cpu_only", "true", 4);
	pasted_expect(&f, TORCH "cuda", "None", 6);
	pasted_expect(&f, "host.os.pretty_name",
		      "Microsoft Windows 11 Enterprise (10.0.22631 64-bit)", 9);
	pasted_expect_no_prefix(&f, "driver.");
}

/* "OS:" and "Python version:" outside a report are prose; a WSL2 platform line. */
static void test_outside_report(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_text(pasted_read_collect_env,
					 "OS: Ubuntu\nPython version: 3.11\nGPU 0: A100\n"
					 "Nvidia driver version: 550\n",
					 &f),
			 0);
	pasted_run_text(pasted_read_collect_env,
			"PyTorch version: 2.4.0+cu121\nPython platform: "
			"Linux-5.15.153.1-microsoft-standard-WSL2-x86_64-with-glibc2.35\n"
			"Versions of relevant libraries:\nOS: later prose\n",
			&f);
	pasted_expect(&f, "host.kernel_release", "5.15.153.1-microsoft-standard-WSL2", 2);
	pasted_expect_none(&f, "host.os.pretty_name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_linux_17, teardown),
		cmocka_unit_test_teardown(test_linux_13_gpus, teardown),
		cmocka_unit_test_teardown(test_linux_18_cudnn, teardown),
		cmocka_unit_test_teardown(test_linux_20, teardown),
		cmocka_unit_test_teardown(test_linux_rocm, teardown),
		cmocka_unit_test_teardown(test_macos, teardown),
		cmocka_unit_test_teardown(test_windows_15, teardown),
		cmocka_unit_test_teardown(test_windows_20, teardown),
		cmocka_unit_test_teardown(test_windows_cpu_wheel, teardown),
		cmocka_unit_test_teardown(test_windows_28_cpu, teardown),
		cmocka_unit_test_teardown(test_outside_report, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
