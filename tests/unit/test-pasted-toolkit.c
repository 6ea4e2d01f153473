// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-toolkit: `nvcc --version`, version.txt and version.json as pasted
 * (tests/fuzz/corpus/pasted-toolkit/, each copied from the page named above its test).
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

#define DIR "pasted-toolkit"
#define TK  "runtime.cuda_toolkits.0."
static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/pytorch/builder/pull/580 (two nvcc outputs: the later one wins) */
static void test_nvcc_two(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_toolkit, DIR, "nvcc-11.1-and-11.0.txt", &f);
	pasted_expect(&f, TK "release", "11.0", 13);
	pasted_expect(&f, TK "nvcc_version", "11.0.221", 13);
	/* no version file pasted: nvcc's is the toolkit's version, as the probe takes it */
	pasted_expect(&f, TK "version", "11.0.221", 13);
	pasted_expect(&f, TK "version_source", "nvcc version string", 13);
}

/* A version file wins over nvcc pasted after it (the probe's order), and one pasted after
 * nvcc replaces nvcc's (the later fact). */
static void test_nvcc_and_version_file(void **state)
{
	(void)state;
	pasted_run_text(pasted_read_toolkit,
			"CUDA Version 11.0.228\n"
			"Cuda compilation tools, release 11.0, V11.0.221\n",
			&f);
	pasted_expect(&f, TK "version", "11.0.228", 1);
	pasted_expect(&f, TK "version_source", "version.txt", 1);
	pasted_expect(&f, TK "nvcc_version", "11.0.221", 2);
	pasted_run_text(pasted_read_toolkit,
			"Cuda compilation tools, release 12.4, V12.4.131\n"
			"{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n"
			"      \"version\" : \"12.4.1\"\n   }\n}\n",
			&f);
	pasted_expect(&f, TK "version", "12.4.1", 5);
	pasted_expect(&f, TK "version_source", "version.json", 5);
}

/* https://github.com/NVlabs/nvbio/issues/18 (CUDA 7.5) and
 * https://github.com/3dem/relion/issues/988 (nvcc 11.5 under an nvidia-smi saying 12.2) */
static void test_nvcc_old_and_cut(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_toolkit, DIR, "nvcc-7.5.txt", &f);
	pasted_expect(&f, TK "release", "7.5", 5);
	pasted_expect(&f, TK "nvcc_version", "7.5.17", 5);
	pasted_run_sample(pasted_read_toolkit, DIR, "nvcc-11.5-after-smi-12.2.txt", &f);
	pasted_expect(&f, TK "nvcc_version", "11.5.119", 3);
	assert_int_equal(f.n, 4); /* release, nvcc_version, version and its source: "CUDA
				   * 12.2" in prose is nothing */
}

/* https://medium.com/repro-repo/install-cuda-and-cudnn-for-tensorflow-gpu-on-ubuntu-79306e4ac04e
 * (`cat /usr/local/cuda/version.txt`) */
static void test_version_txt(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_toolkit, DIR, "version-txt-9.0.txt", &f);
	pasted_expect(&f, TK "version", "9.0.176", 2);
	pasted_expect(&f, TK "version_source", "version.txt", 2);
	pasted_expect(&f, TK "release", "9.0", 2);
}

/* https://github.com/ROCm/HIPIFY/issues/2143 (the "cuda" object of version.json), then a whole
 * file as CUDA 12.4.1 writes it, components included */
static void test_version_json(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_toolkit, DIR, "version-json-13.0.txt", &f);
	pasted_expect(&f, TK "version", "13.0.2", 4);
	pasted_expect(&f, TK "version_source", "version.json", 4);
	pasted_expect(&f, TK "release", "13.0", 4);
	pasted_run_text(
		pasted_read_toolkit,
		"{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n"
		"      \"version\" : \"12.4.1\"\n   },\n   \"cuda_cudart\" : {\n"
		"      \"name\" : \"CUDA Runtime (cudart)\",\n      \"version\" : \"12.4.127\"\n"
		"   },\n   \"libcublas\" : {\n      \"name\" : \"CUDA cuBLAS\",\n"
		"      \"version\" : \"12.4.5.8\"\n   },\n   \"nsight_compute\" : {\n"
		"      \"version\" : \"2024.1.1.4\"\n   }\n}\n",
		&f);
	pasted_expect(&f, TK "version", "12.4.1", 4);
	pasted_expect(&f, TK "components.cudart.version", "12.4.127", 8);
	pasted_expect(&f, TK "components.cublas.version", "12.4.5.8", 12);
	assert_int_equal(f.n, 5);
}

/* nvidia-smi's "CUDA Version:" is the driver's, not a toolkit's. */
static void test_not_toolkit(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_text(pasted_read_toolkit,
					 "| NVIDIA-SMI 535.86.10  Driver Version: 535.86.10  CUDA "
					 "Version: 12.2 |\nCUDA Version                  : 12.2\n"
					 "\"version\" : \"1.0\"\n",
					 &f),
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_nvcc_two, teardown),
		cmocka_unit_test_teardown(test_nvcc_and_version_file, teardown),
		cmocka_unit_test_teardown(test_nvcc_old_and_cut, teardown),
		cmocka_unit_test_teardown(test_version_txt, teardown),
		cmocka_unit_test_teardown(test_version_json, teardown),
		cmocka_unit_test_teardown(test_not_toolkit, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
