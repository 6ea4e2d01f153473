// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-nvidia-version: /proc/driver/nvidia/version as pasted
 * (tests/fuzz/corpus/pasted-nvidia-version/, each copied from the issue named above its test),
 * the proprietary and the open kernel module.
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

#define DIR "pasted-nvidia-version"
static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/dylanaraps/neofetch/issues/876 (proprietary, 384) */
static void test_proprietary(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_sample(pasted_read_nvidia_version, DIR,
					   "proprietary-384-neofetch.txt", &f),
			 4);
	pasted_expect(&f, "driver.nvidia.proc_version", "384.98", 2);
	pasted_expect(&f, "driver.nvidia.module_version", "384.98", 2);
	pasted_expect(&f, "driver.nvidia.flavor", "proprietary", 2);
	pasted_expect(&f, "driver.nvidia.gcc_version", "gcc version 7.2.0 (Ubuntu 7.2.0-8ubuntu3)",
		      3);
}

/* https://github.com/nix-community/nixGL/issues/186 (open, 565, Ubuntu) and /121 (open, 525,
 * Arch) */
static void test_open(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_version, DIR, "open-565-ubuntu.txt", &f);
	pasted_expect(&f, "driver.nvidia.proc_version", "565.57.01", 1);
	pasted_expect(&f, "driver.nvidia.flavor", "open", 1);
	pasted_expect(&f, "driver.nvidia.gcc_version",
		      "gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)", 2);
	pasted_run_sample(pasted_read_nvidia_version, DIR, "open-525-arch.txt", &f);
	pasted_expect(&f, "driver.nvidia.proc_version", "525.60.11", 2);
	pasted_expect(&f, "driver.nvidia.gcc_version", "gcc version 12.2.0 (GCC)", 3);
}

/* https://github.com/nix-community/nixGL/issues/139 (a Jetson: aarch64, an L4T version) */
static void test_jetson(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_version, DIR, "open-jetson-aarch64.txt", &f);
	pasted_expect(&f, "driver.nvidia.proc_version", "35.3.1", 1);
	pasted_expect(&f, "driver.nvidia.flavor", "open", 1);
}

/* https://github.com/hyprwm/Hyprland/pull/6715 (inside another tool's output, no GCC line) */
static void test_inside_other_output(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_version, DIR, "open-555-hyprland-systeminfo.txt", &f);
	pasted_expect(&f, "driver.nvidia.proc_version", "555.58", 3);
	pasted_expect_none(&f, "driver.nvidia.gcc_version");
}

/* https://github.com/ComputationalRadiationPhysics/cuda_memtest/issues/31: each line after a
 * "[date][host][gpu]:" prefix, as cuda_memtest logs it; a word run into "NVRM" is no such line. */
static void test_prefixed(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_version, DIR, "prefixed-460-cuda-memtest.txt", &f);
	pasted_expect(&f, "driver.nvidia.proc_version", "460.80", 2);
	pasted_expect(&f, "driver.nvidia.flavor", "proprietary", 2);
	pasted_facts_done(&f);
	assert_int_equal(
		pasted_run_text(pasted_read_nvidia_version,
				"Dec 04 10:00:00 node12 kernel: NVRM version: NVIDIA UNIX x86_64 "
				"Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023\n"
				"XNVRM version: NVIDIA UNIX x86_64 Kernel Module  460.80  Fri May  "
				"7 06:55:54 UTC 2021\n",
				&f),
		3);
	pasted_expect(&f, "driver.nvidia.proc_version", "535.129.03", 1);
}

/* collect_env's "GCC version:" is the system compiler's; a garbled NVRM line gives nothing. */
static void test_not_module(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_text(pasted_read_nvidia_version,
					 "GCC version: (Ubuntu 11.3.0-1ubuntu1~22.04) 11.3.0\n"
					 "NVRM version: something else\nGCC version: gcc 12\n",
					 &f),
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_proprietary, teardown),
		cmocka_unit_test_teardown(test_open, teardown),
		cmocka_unit_test_teardown(test_jetson, teardown),
		cmocka_unit_test_teardown(test_inside_other_output, teardown),
		cmocka_unit_test_teardown(test_prefixed, teardown),
		cmocka_unit_test_teardown(test_not_module, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
