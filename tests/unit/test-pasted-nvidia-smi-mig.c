// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The reader of nvidia-smi's warning for a MIG mode change left pending
 * (pasted-nvidia-smi-mig.c), over real pastes (tests/fuzz/corpus/pasted-nvidia-smi-mig/,
 * copied from the page named above its test) and edge cases as strings.
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

/* https://github.com/NVIDIA/gpu-operator/issues/118: nvidia-smi -mig DISABLED while
 * nvidia-persistenced held the GPU; the GPU's bus id repeats on the lines below the warning
 * and in nvidia-smi --gpu-reset's refusal, none of which says anything of the mode */
static void test_pending_disable(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi_mig, "pasted-nvidia-smi-mig",
			  "gpu-operator-118-pending-disable.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "00000000:C1:00.0", 2);
	pasted_expect(&f, "driver.nvml.devices.0.mig_mode", "true", 2);
	pasted_expect(&f, "driver.nvml.devices.0.mig_mode_pending", "false", 2);
	assert_int_equal(f.n, 3);
}

/* https://github.com/NVIDIA/gpu-operator/issues/1845 (A100, driver 580.65.06, a domain not
 * 0): pending enable, the line run on into the next sentence; two GPUs, one named twice */
static void test_pending_enable(void **state)
{
	(void)state;
	pasted_run_text(pasted_read_nvidia_smi_mig,
			"[root@nvidia-driver-daemonset-m4wl8 drivers]# nvidia-smi -mig 1 \n"
			"Warning: MIG mode is in pending enable state for GPU 00000001:00:00.0:In "
			"use by another client 00000001:00:00.0 is currently being used\n"
			"Warning: MIG mode is in pending enable state for GPU 00000002:00:00.0:In "
			"use by another client\n"
			"Warning: MIG mode is in pending enable state for GPU 00000001:00:00.0:In "
			"use by another client\n",
			&f);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "00000001:00:00.0", 4);
	pasted_expect(&f, "driver.nvml.devices.0.mig_mode", "false", 4);
	pasted_expect(&f, "driver.nvml.devices.0.mig_mode_pending", "true", 4);
	pasted_expect(&f, "driver.nvml.devices.1.pci_bus_id", "00000002:00:00.0", 3);
	pasted_expect(&f, "driver.nvml.devices.1.mig_mode_pending", "true", 3);
	pasted_expect_none(&f, "driver.nvml.devices.2.pci_bus_id");
}

/* What is not the warning reads nothing: nvidia-smi's success line, another word than
 * enable/disable, a bus id cut short or run on, prose about the state */
static void test_not_the_warning(void **state)
{
	(void)state;
	assert_int_equal(
		pasted_run_text(pasted_read_nvidia_smi_mig,
				"Enabled MIG Mode for GPU 00000000:07:00.0\n"
				"All done.\n"
				"MIG mode is in pending reset state for GPU 00000000:07:00.0\n"
				"MIG mode is in pending enable state for GPU 0000:07:00\n"
				"MIG mode is in pending enable state for GPU 00000000:07:00.0x\n"
				"MIG mode is in pending enable state for GPU \n"
				"MIG mode is in pending enable state for GPU 0:07:00.0\n"
				"the MIG mode is in pending enable state, reboot\n",
				&f),
		0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_pending_disable, teardown),
		cmocka_unit_test_teardown(test_pending_enable, teardown),
		cmocka_unit_test_teardown(test_not_the_warning, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
