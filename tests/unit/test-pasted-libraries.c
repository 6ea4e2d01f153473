// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The library message readers of formats/pasted: cuDNN's status names (pasted-cudnn.c) and
 * NCCL's own lines (pasted-nccl.c), over real pastes (tests/fuzz/corpus/pasted-<reader>/, each
 * copied from the thread named above its test).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-cudnn.h"
#include "formats/pasted-nccl.h"
#include "pasted-test-util.h"
#include "rules/rules.h"

static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/rbgirshick/fast-rcnn/issues/44: Caffe's check prints SUCCESS beside the
 * status; a Tesla M2090 (compute capability 2.0) */
static void test_cudnn_arch_mismatch(void **state)
{
	(void)state;
	assert_int_equal(
		pasted_run_sample(pasted_read_cudnn, "pasted-cudnn", "fast-rcnn-44.txt", &f), 2);
	pasted_expect(&f, "messages.cudnn.status", "CUDNN_STATUS_ARCH_MISMATCH", 1);
	pasted_expect(
		&f, "symptoms.framework.gpu-too-old-for-build",
		"F0817 22:53:22.694056 24820 cudnn_conv_layer.cpp:32] Check failed: status == "
		"CUDNN_STATUS_SUCCESS (6 vs. 0)  CUDNN_STATUS_ARCH_MISMATCH",
		1);
	/* https://github.com/pytorch/ELF/issues/99: PyTorch's "CuDNN error: " */
	pasted_run_sample(pasted_read_cudnn, "pasted-cudnn", "elf-99.txt", &f);
	pasted_expect(&f, "messages.cudnn.status", "CUDNN_STATUS_ARCH_MISMATCH", 3);
	pasted_expect(&f, "symptoms.framework.gpu-too-old-for-build",
		      "RuntimeError: CuDNN error: CUDNN_STATUS_ARCH_MISMATCH", 3);
}

/* NOT_INITIALIZED is any failure of the CUDA runtime under cudnnCreate(): read, no rule named.
 * https://github.com/pytorch/pytorch/issues/1171 and https://github.com/PaddlePaddle/Paddle/issues/1190 */
static void test_cudnn_not_initialized(void **state)
{
	(void)state;
	assert_int_equal(
		pasted_run_sample(pasted_read_cudnn, "pasted-cudnn", "pytorch-1171.txt", &f), 1);
	pasted_expect(&f, "messages.cudnn.status", "CUDNN_STATUS_NOT_INITIALIZED", 3);
	pasted_expect_no_prefix(&f, "symptoms.");
	assert_int_equal(
		pasted_run_sample(pasted_read_cudnn, "pasted-cudnn", "paddle-1190.txt", &f), 1);
	pasted_expect(&f, "messages.cudnn.status", "CUDNN_STATUS_NOT_INITIALIZED", 1);
}

/* Names that are not cuDNN's whole status names are not read; a line that names two reads both
 * (the later wins the status). */
static void test_cudnn_bounds(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_cudnn,
		"CUDNN_STATUS_\nCUDNN_STATUS_ARCH_MISMATCHED\n"
		"CUDNN_STATUS_SUCCESS\ncudnn_status_arch_mismatch\n"
		"CUDNN_STATUS_NOT_SUPPORTED then CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH\n",
		&f);
	assert_int_equal(f.n, 2);
	pasted_expect(&f, "messages.cudnn.status", "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", 5);
	pasted_expect(&f, "symptoms.runtime.library-shadowed",
		      "CUDNN_STATUS_NOT_SUPPORTED then CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH",
		      5);
}

/* Every rule a status names is in the rule table. */
static void test_cudnn_rules_exist(void **state)
{
	static const char *const names[] = { "ARCH_MISMATCH",
					     "VERSION_MISMATCH",
					     "SUBLIBRARY_VERSION_MISMATCH",
					     "SUBLIBRARY_LOADING_FAILED",
					     "NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER",
					     "NOT_SUPPORTED_ARCH_MISMATCH",
					     "NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE" };
	char text[128];

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(text, sizeof(text), "CUDNN_STATUS_%s\n", names[i]);
		assert_int_equal(pasted_run_text(pasted_read_cudnn, text, &f), 2);
		for (size_t k = 0; k < f.n; k++)
			if (strncmp(f.v[k].path, "symptoms.", 9) == 0)
				assert_non_null(rule_find(f.v[k].path + 9));
	}
}

/* https://github.com/InternLM/lmdeploy/issues/1108: NCCL_DEBUG=INFO on a 515 driver (CUDA 11.7)
 * under an 11.8 runtime */
static void test_nccl_driver_too_old(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nccl, "pasted-nccl", "lmdeploy-1108.txt", &f);
	pasted_expect(&f, "driver.cuda.driver_version", "11.7", 3);
	pasted_expect(&f, "messages.nccl.warning",
		      "Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'",
		      5);
	pasted_expect(&f, "messages.nccl.cuda_failure",
		      "CUDA driver version is insufficient for CUDA runtime version", 5);
	pasted_expect(&f, "messages.nccl.result", "ncclUnhandledCudaError", 6);
	assert_int_equal(f.n, 4);
}

/* https://github.com/ADLab-AutoDrive/BEVHeight/issues/13: PyTorch's ProcessGroupNCCL words and
 * NCCL's name of the code */
static void test_nccl_torch(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nccl, "pasted-nccl", "bevheight-13.txt", &f);
	pasted_expect(&f, "messages.nccl.version", "2.7.8", 1);
	pasted_expect(&f, "messages.nccl.result", "ncclUnhandledCudaError", 2);
	pasted_expect_none(&f, "messages.nccl.cuda");
	/* https://github.com/NVIDIA/nccl/issues/1705: "Cuda failure <code> '<text>'" */
	pasted_run_sample(pasted_read_nccl, "pasted-nccl", "nccl-1705-nvls.txt", &f);
	pasted_expect(&f, "messages.nccl.cuda_failure", "invalid argument", 3);
	pasted_expect_none(&f, "messages.nccl.result");
	/* INFO's version line (NCCL 2.18), a remote error, and numbers that are no driver version */
	pasted_run_text(
		pasted_read_nccl,
		"host:1:1 [0] NCCL INFO NCCL version 2.18.3+cuda12.2\n"
		"host:1:1 [0] NCCL INFO cudaDriverVersion 12021\n"
		"host:1:1 [0] NCCL INFO cudaDriverVersion 99\n"
		"torch.distributed.DistBackendError: NCCL error in: x.cpp:1, remote process "
		"exited or there was a network error, NCCL version 2.18.3\n"
		"ncclInvalidUsageX\n",
		&f);
	pasted_expect(&f, "messages.nccl.version", "2.18.3", 4);
	pasted_expect(&f, "messages.nccl.cuda", "12.2", 1);
	pasted_expect(&f, "messages.nccl.result", "ncclRemoteError", 4);
	pasted_expect_none(&f, "driver.cuda.driver_version");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_cudnn_arch_mismatch, teardown),
		cmocka_unit_test_teardown(test_cudnn_not_initialized, teardown),
		cmocka_unit_test_teardown(test_cudnn_bounds, teardown),
		cmocka_unit_test_teardown(test_cudnn_rules_exist, teardown),
		cmocka_unit_test_teardown(test_nccl_driver_too_old, teardown),
		cmocka_unit_test_teardown(test_nccl_torch, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
