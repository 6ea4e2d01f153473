// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-ollama-log: ollama's server log lines as users paste them (journal prefixes
 * or not): the ROCm list and the GPU it skips, the override, the GPUs it keeps ("inference
 * compute": a CUDA GPU's compute capability and name, the driver's CUDA version; a CPU line
 * none), the version of "Listening on" and of `ollama -v`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "formats/pasted-readers.h"
#include "pasted-test-util.h"

static void test_cuda_gpu_and_version(void **state)
{
	/* https://github.com/ollama/ollama/pull/10569 (the maintainer's test log, Windows) */
	static const char text[] =
		"time=2025-05-05T16:11:49.700-07:00 level=INFO source=routes.go:1287 "
		"msg=\"Listening on 127.0.0.1:11434 (version 0.7.0)\"\n"
		"time=2025-05-05T16:11:49.762-07:00 level=INFO source=gpu.go:319 msg=\"detected OS "
		"VRAM overhead\" id=GPU-d6de3398 library=cuda compute=7.5 driver=12.1 "
		"name=\"NVIDIA GeForce RTX 2080 Ti\" overhead=\"590.9 MiB\"\n"
		"time=2025-05-05T16:11:49.763-07:00 level=INFO source=types.go:130 msg=\"inference "
		"compute\" id=GPU-d6de3398 library=cuda variant=v12 compute=7.5 driver=12.1 "
		"name=\"NVIDIA GeForce RTX 2080 Ti\" total=\"11.0 GiB\" available=\"9.9 GiB\"\n"
		"time=2025-05-05T16:11:49.763-07:00 level=INFO source=types.go:130 msg=\"inference "
		"compute\" id=GPU-1 library=CUDA compute=8.6 driver=12.4 name=\"B\" total=\"1 GiB\"\n";
	struct pasted_facts f = { 0 };

	(void)state;
	assert_int_equal(pasted_run_text(pasted_read_ollama_log, text, &f), 6);
	pasted_expect(&f, "framework.ollama.version", "0.7.0", 1);
	pasted_expect(&f, "driver.cuda.devices.0.compute_capability", "7.5", 3);
	pasted_expect(&f, "driver.cuda.devices.0.name", "NVIDIA GeForce RTX 2080 Ti", 3);
	pasted_expect(&f, "driver.cuda.driver_version", "12.1", 3); /* the first one */
	pasted_expect(&f, "driver.cuda.devices.1.compute_capability", "8.6", 4);
	pasted_expect_none(&f, "driver.cuda.devices.2.compute_capability");
	pasted_facts_done(&f);
}

static void test_cpu_rocm_and_cli(void **state)
{
	/* https://github.com/ollama/ollama/issues/8772 (journal prefixes, library=cpu) */
	static const char text[] =
		"2\xe6\x9c\x88 02 19:28:37 lichao ollama[20609]: time=2025-02-02T19:28:37.628+08:00 "
		"level=WARN source=amd_linux.go:378 msg=\"amdgpu is not supported (supported "
		"types:[gfx1030 gfx1100])\" gpu_type=gfx1031 gpu=0 library=/usr/local/lib/ollama\n"
		"2\xe6\x9c\x88 02 19:28:37 lichao ollama[20609]: time=2025-02-02T19:28:37.628+08:00 "
		"level=INFO source=types.go:131 msg=\"inference compute\" id=0 library=cpu "
		"variant=avx2 compute=\"\" driver=0.0 name=\"\" total=\"31.2 GiB\"\n"
		"ollama version is 0.5.7\n"
		"msg=\"inference compute\" library=cuda compute=sm_86 driver=12\n";
	struct pasted_facts f = { 0 };

	(void)state;
	assert_int_equal(pasted_run_text(pasted_read_ollama_log, text, &f), 5);
	pasted_expect(&f, "driver.amdgpu.kfd_nodes.0.gfx", "gfx1031", 1);
	pasted_expect(&f, "framework.ollama.version", "0.5.7", 3);
	pasted_expect_no_prefix(&f, "driver.cuda");
	pasted_facts_done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cuda_gpu_and_version),
		cmocka_unit_test(test_cpu_rocm_and_cli),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
