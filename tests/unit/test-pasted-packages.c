// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-packages: pip list, pip freeze, conda list and collect_env's package lines
 * over real pastes (tests/fuzz/corpus/pasted-packages/, each copied from the issue named above
 * its test).
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

#define DIR "pasted-packages"
#define ENV "framework.python_envs.0."
static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/meta-pytorch/data/issues/315 (`conda list | grep pytorch` twice: the CPU
 * build, then the CUDA one; the later line wins) */
static void test_conda_grep(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_packages, DIR, "conda-grep-pytorch-cpu-vs-cuda.txt", &f);
	pasted_expect(&f, ENV "conda_packages.0.name", "pytorch", 16);
	pasted_expect(&f, ENV "conda_packages.0.version", "1.11.0", 16);
	pasted_expect(&f, ENV "conda_packages.0.build", "py3.8_cuda11.3_cudnn8.2.0_0", 16);
	pasted_expect(&f, ENV "conda_packages.0.channel", "pytorch", 16);
	pasted_expect(&f, ENV "conda_packages.1.name", "pytorch-mutex", 17);
	pasted_expect(&f, ENV "conda_packages.1.build", "cuda", 17);
	pasted_expect_none(&f, ENV "conda_packages.2.name"); /* ffmpeg, torchaudio: not kept */
}

/* https://github.com/conda/conda/issues/13413 (`conda list --show-channel-urls` on Windows) */
static void test_conda_windows(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_packages, DIR, "conda-list-windows-cuda121.txt", &f);
	pasted_expect(&f, ENV "conda_packages.0.name", "cuda-cudart", 14);
	pasted_expect(&f, ENV "conda_packages.0.version", "12.1.105", 14);
	pasted_expect(&f, ENV "conda_packages.0.build", "0", 14);
	pasted_expect(&f, ENV "conda_packages.0.channel", "nvidia", 14);
	pasted_expect(&f, ENV "conda_packages.2.name", "cuda-nvrtc", 19);
	pasted_expect_none(&f, ENV "conda_packages.3.name");
}

/* https://github.com/pytorch/pytorch/issues/167242 (`pip list` on Windows, nvidia wheels) */
static void test_pip_list(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_packages, DIR, "pip-list-windows-nightly.txt", &f);
	pasted_expect(&f, ENV "packages.numba.dist_version", "0.62.1", 10);
	pasted_expect(&f, ENV "nvidia_wheels.0.name", "nvidia-cublas", 12);
	pasted_expect(&f, ENV "nvidia_wheels.0.version", "13.1.0.3", 12);
	pasted_expect(&f, ENV "nvidia_wheels.1.name", "nvidia-cudnn-cu13", 13);
	pasted_expect(&f, ENV "nvidia_wheels.1.version", "9.15.1.9", 13);
	pasted_expect_no_prefix(&f, ENV "packages.torch");
}

/* https://github.com/NVIDIA/TensorRT/issues/4329 (`pip freeze` with "@ url" lines and no GPU
 * package: nothing) */
static void test_pip_freeze(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_packages, DIR, "pip-freeze-forge.txt", &f),
			 0);
	pasted_run_text(
		pasted_read_packages,
		"torch==2.3.1+cu121\nnvidia_cudnn_cu12==8.9.2.26\nNVIDIA-NCCL-CU12==2.20.5\n"
		"jax==0.4.30\njaxlib==0.4.1+cuda11.cudnn86\njax-cuda12-plugin==0.4.30\n"
		"jax-cuda12-pjrt==0.4.30\ncupy-cuda12x==13.2.0\ntensorflow==2.16.1\n"
		"torch @ file:///tmp/torch.whl\nnvidia-cudnn-cu12==9.1.0.70\n",
		&f);
	pasted_expect(&f, ENV "packages.torch.dist_name", "torch", 1);
	pasted_expect(&f, ENV "packages.torch.dist_version", "2.3.1+cu121", 1);
	/* the same wheel twice: one element, the later version */
	pasted_expect(&f, ENV "nvidia_wheels.0.name", "nvidia-cudnn-cu12", 11);
	pasted_expect(&f, ENV "nvidia_wheels.0.version", "9.1.0.70", 11);
	pasted_expect(&f, ENV "nvidia_wheels.1.name", "NVIDIA-NCCL-CU12", 3);
	pasted_expect(&f, ENV "packages.jax.dist_version", "0.4.30", 4);
	pasted_expect(&f, ENV "packages.jax.jaxlib_dist_version", "0.4.1+cuda11.cudnn86", 5);
	pasted_expect(&f, ENV "packages.jax.jaxlib_local_version", "cuda11.cudnn86", 5);
	pasted_expect(&f, ENV "packages.jax.plugins.0.platform", "cuda", 7); /* the pjrt line too */
	pasted_expect(&f, ENV "packages.jax.plugins.0.major", "12", 7);
	pasted_expect(&f, ENV "packages.jax.plugins.0.plugin_version", "0.4.30", 6);
	pasted_expect(&f, ENV "packages.jax.plugins.0.pjrt", "jax-cuda12-pjrt", 7);
	pasted_expect_none(&f, ENV "packages.jax.plugins.1.platform");
	pasted_expect(&f, ENV "packages.cupy.dist_name", "cupy-cuda12x", 8);
	pasted_expect(&f, ENV "packages.cupy.dists.0.dist_version", "13.2.0", 8);
	pasted_expect(&f, ENV "packages.tensorflow.dist_version", "2.16.1", 9);
}

/* https://github.com/pytorch/pytorch/issues/51858 and /91973 (collect_env's package lines) */
static void test_collect_env_lines(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_packages, DIR, "collect-env-lines-windows.txt", &f);
	pasted_expect(&f, ENV "packages.torch.dist_version", "2.0.1+cu117", 3);
	pasted_expect_no_prefix(&f, ENV "conda_packages");
	pasted_run_sample(pasted_read_packages, DIR, "collect-env-lines-conda.txt", &f);
	pasted_expect(&f, ENV "packages.torch.dist_version", "1.13.1", 3);
	pasted_expect(&f, ENV "conda_packages.0.name", "cudatoolkit", 5);
	pasted_expect(&f, ENV "conda_packages.0.version", "11.3.1", 5);
	pasted_expect(&f, ENV "conda_packages.0.build", "h2bc3f7f_2", 5);
	pasted_expect_none(&f, ENV "conda_packages.0.channel");
	/* conda-forge's magma-cuda116: the probe keeps the names of gpu-names.h only */
	pasted_expect_none(&f, ENV "conda_packages.1.name");
}

/* Prose and other tables give nothing; an editable pip install is read. */
static void test_prose(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_text(pasted_read_packages,
					 "I have torch 2.1 and it fails\n"
					 "pytorch is at 2.1.0 here\nPackage    Version\n"
					 "torch      latest\ncudnn 8 9 10 11 12\n",
					 &f),
			 0);
	pasted_run_text(pasted_read_packages,
			"torch                     2.1.0a0+git32f93b1 /home/user/src/pytorch\n",
			&f);
	pasted_expect(&f, ENV "packages.torch.dist_version", "2.1.0a0+git32f93b1", 1);
}

/* Many distinct names stay bounded. */
static void test_hostile(void **state)
{
	static char big[1 << 20];
	size_t n = 0;

	(void)state;
	for (unsigned i = 0; n + 64 < sizeof(big); i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "nvidia-x%u==1.%u\n", i, i);
	assert_true(pasted_run_text(pasted_read_packages, big, &f) > 0);
	assert_true(f.n <= PASTED_FACTS_MAX);
	pasted_expect_none(&f, ENV "nvidia_wheels.1024.name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_conda_grep, teardown),
		cmocka_unit_test_teardown(test_conda_windows, teardown),
		cmocka_unit_test_teardown(test_pip_list, teardown),
		cmocka_unit_test_teardown(test_pip_freeze, teardown),
		cmocka_unit_test_teardown(test_collect_env_lines, teardown),
		cmocka_unit_test_teardown(test_prose, teardown),
		cmocka_unit_test_teardown(test_hostile, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
