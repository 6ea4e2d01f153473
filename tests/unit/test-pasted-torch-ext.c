// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The torch-ext reader of formats/pasted (torch.utils.cpp_extension's CUDA check) over real
 * pastes (tests/fuzz/corpus/pasted-torch-ext/, each copied from the page named above its test):
 * the toolkit's release and torch's CUDA, each at its line.
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

static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

#define TORCH_CUDA "framework.python_envs.0.packages.torch.cuda"
#define RELEASE	   "runtime.cuda_toolkits.0.release"

/* https://github.com/vllm-project/vllm/issues/1060 (pip's indented traceback) and
 * https://github.com/open-mmlab/mmcv/issues/2038: the message over its two lines */
static void test_wrapped(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_torch_ext, "pasted-torch-ext", "vllm-1060-pip.txt", &f);
	pasted_expect(&f, RELEASE, "12.2", 10);
	pasted_expect(&f, TORCH_CUDA, "11.7", 11);
	assert_int_equal(f.n, 2);
	pasted_run_sample(pasted_read_torch_ext, "pasted-torch-ext", "mmcv-2038.txt", &f);
	pasted_expect(&f, RELEASE, "10.1", 3);
	pasted_expect(&f, TORCH_CUDA, "11.3", 4);
	assert_int_equal(f.n, 2);
}

/* https://github.com/boschresearch/DroidCalib/issues/5 (the message joined on one line), and
 * what is not the message: a second line that is not its own, a version that is not one */
static void test_one_line(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_torch_ext, "pasted-torch-ext", "droidcalib-5-one-line.txt",
			  &f);
	pasted_expect(&f, RELEASE, "12.1", 2);
	pasted_expect(&f, TORCH_CUDA, "11.3", 2);
	assert_int_equal(f.n, 2);
	pasted_run_text(pasted_read_torch_ext,
			"The detected CUDA version (12.2) mismatches the version that was used to "
			"compile\nsomething else\nPyTorch (11.7).\n"
			"The detected CUDA version (unknown) mismatches the version that was used "
			"to compile\nPyTorch (11.8).\n"
			"The detected CUDA version (12.4) is fine\n",
			&f);
	pasted_expect(&f, RELEASE, "12.2", 1);
	pasted_expect_none(&f, TORCH_CUDA);
	assert_int_equal(f.n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_wrapped, teardown),
		cmocka_unit_test_teardown(test_one_line, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
