// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The jax-check reader of formats/pasted (JAX's "Outdated cuDNN installation found." check in
 * its multi-line wording) over real pastes (tests/fuzz/corpus/pasted-jax-check/, each copied
 * from the page named above its test): the installed version, the build's and the minimum,
 * each at its line, in the facts the older one-line wording fills.
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

#define JAX "framework.python_envs.0.packages.jax."

/* The two real pastes, each with the message's build, minimum and installed lines from `first`:
 * https://github.com/conda-forge/jax-feedstock/issues/149 (the message as Keras logged it) and
 * https://github.com/rgommers/pixi-dev-scipystack/issues/1 (pytest's "E   " before each line) */
static void test_samples(void **state)
{
	static const struct {
		const char *file;
		unsigned first;
	} samples[] = { { "jax-feedstock-149.txt", 4 }, { "pixi-scipystack-1-pytest.txt", 6 } };

	(void)state;
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		unsigned l = samples[i].first;

		pasted_run_sample(pasted_read_jax_check, "pasted-jax-check", samples[i].file, &f);
		pasted_expect(&f, JAX "build_info.cudnn_version", "8.9.7", l);
		pasted_expect(&f, JAX "build_info.cudnn_minimum", "9.1.0", l + 1);
		pasted_expect(&f, JAX "cudnn.version", "8.9.7", l + 2);
		assert_int_equal(f.n, 3);
	}
}

/* The CUDA runtime's numbers (jax_plugins/cuda/__init__.py: cudaRuntimeGetVersion, minimum
 * 12010), a repr that kept the message's "\n" literal, and what is not the message: a line
 * between, a field out of order, a library no rule judges, a number that is not one */
static void test_forms(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_jax_check,
		"RuntimeError('Unable to use CUDA: Outdated CUDA installation found.\\n"
		"Version JAX was built against: 12030\\nMinimum supported: 12010\\n"
		"Installed version: 12000\\nThe local installation version must be no lower "
		"than 12010.')\n",
		&f);
	pasted_expect(&f, JAX "build_info.cuda_version", "12.3", 1);
	pasted_expect(&f, JAX "build_info.cuda_minimum", "12.1", 1);
	pasted_expect(&f, JAX "cudart.version", "12.0", 1);
	assert_int_equal(f.n, 3);
	pasted_run_text(pasted_read_jax_check,
			"Outdated cuDNN installation found.\n"
			"Version JAX was built against: 8907\n"
			"something else\n"
			"Minimum supported: 9100\n"
			"Installed version: 8907\n"
			"Outdated cuDNN installation found.\n"
			"Minimum supported: 9100\n"
			"Version JAX was built against: 8907\n"
			"Installed version: 8907\n"
			"Outdated cuBLAS installation found.\n"
			"Version JAX was built against: 120304\n"
			"Minimum supported: 120100\n"
			"Installed version: 120205\n"
			"Outdated cuDNN installation found.\n"
			"Version JAX was built against: 8907\n"
			"Minimum supported: 9100\n"
			"Installed version: 8.9.7\n",
			&f);
	assert_int_equal(f.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_samples, teardown),
		cmocka_unit_test_teardown(test_forms, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
