// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The readers of formats/pasted that see the GPU's health as nvidia-smi prints it: the health
 * sections of nvidia-smi -q (pasted-nvidia-smi-health.c) and nvidia-smi nvlink -s
 * (pasted-nvlink.c), over real pastes (tests/fuzz/corpus/pasted-<reader>/, each copied from
 * the page named above its test) and edge cases as strings.
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

/* https://github.com/leptonai/gpud/pull/80 (a section pasted without its GPU line: the first
 * device's, no bus id) */
static void test_remapped_rows(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi_health, "pasted-nvidia-smi-health",
			  "gpud-remapped-rows-pending.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.remapped_rows_correctable", "0", 2);
	pasted_expect(&f, "driver.nvml.devices.0.remapped_rows_uncorrectable", "4", 3);
	pasted_expect(&f, "driver.nvml.devices.0.remapped_rows_pending", "true", 4);
	pasted_expect_none(&f, "driver.nvml.devices.0.remapped_rows_failure");
	pasted_expect_none(&f, "driver.nvml.devices.0.pci_bus_id");
	assert_int_equal(f.n, 3);
	/* two GPUs, the second's remapping failed; "Pending" of another section (MIG Mode) and
	 * the histogram below the flags are not the remapper's */
	pasted_run_text(pasted_read_nvidia_smi_health,
			"GPU 00000000:18:00.0\n"
			"    MIG Mode\n"
			"        Current                           : Disabled\n"
			"        Pending                           : Enabled\n"
			"    Remapped Rows\n"
			"        Correctable Error                 : 0\n"
			"        Uncorrectable Error               : 0\n"
			"        Pending                           : No\n"
			"        Remapping Failure Occurred        : No\n"
			"        Bank Remap Availability Histogram\n"
			"            Max                           : 640 bank(s)\n"
			"    Temperature\n"
			"        GPU Current Temp                  : 34 C\n"
			"\n"
			"GPU 00000000:2A:00.0\n"
			"    Remapped Rows\n"
			"        Correctable Error                 : 2\n"
			"        Uncorrectable Error               : 8\n"
			"        Pending                           : No\n"
			"        Remapping Failure Occurred        : Yes\n",
			&f);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "00000000:18:00.0", 1);
	pasted_expect(&f, "driver.nvml.devices.0.remapped_rows_pending", "false", 8);
	pasted_expect(&f, "driver.nvml.devices.0.remapped_rows_failure", "false", 9);
	pasted_expect(&f, "driver.nvml.devices.1.pci_bus_id", "00000000:2A:00.0", 15);
	pasted_expect(&f, "driver.nvml.devices.1.remapped_rows_uncorrectable", "8", 18);
	pasted_expect(&f, "driver.nvml.devices.1.remapped_rows_failure", "true", 20);
	assert_int_equal(f.n, 10);
}

/* https://github.com/mlfoundations/open_clip/issues/703 (R535's "Clocks Event Reasons") and
 * https://github.com/kubeflow/kubeflow/issues/68 (the older "Clocks Throttle Reasons"): the
 * mask of the Active reasons, on the section's line */
static void test_clocks_event_reasons(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi_health, "pasted-nvidia-smi-health",
			  "open-clip-clocks-event-reasons.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.clocks_event_reasons", "4", 1);
	assert_int_equal(f.n, 1);
	pasted_run_sample(pasted_read_nvidia_smi_health, "pasted-nvidia-smi-health",
			  "kubeflow-clocks-throttle-reasons.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.clocks_event_reasons", "1", 2);
	pasted_run_text(pasted_read_nvidia_smi_health,
			"    Clocks Event Reasons\n"
			"        Idle                              : Not Active\n"
			"        HW Slowdown                       : Active\n"
			"            HW Thermal Slowdown           : Active\n"
			"            HW Power Brake Slowdown       : Not Active\n"
			"        SW Thermal Slowdown               : Active\n"
			"    Sync Boost                            : Active\n",
			&f);
	pasted_expect(&f, "driver.nvml.devices.0.clocks_event_reasons", "104", 1);
	/* every reason N/A (a vGPU): no mask */
	assert_int_equal(pasted_run_text(pasted_read_nvidia_smi_health,
					 "    Clocks Throttle Reasons\n"
					 "        Idle                        : N/A\n"
					 "        HW Slowdown                 : N/A\n",
					 &f),
			 0);
}

/* https://github.com/intel/thermal_daemon/issues/300 (nvidia-smi -q -d TEMPERATURE) */
static void test_temperature(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi_health, "pasted-nvidia-smi-health",
			  "thermald-mx330-temperature.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "00000000:2D:00.0", 10);
	pasted_expect(&f, "driver.nvml.devices.0.temperature_shutdown_c", "102", 13);
	pasted_expect(&f, "driver.nvml.devices.0.temperature_slowdown_c", "97", 14);
	pasted_expect(&f, "driver.nvml.devices.0.temperature_gpu_max_c", "57", 15);
	pasted_expect_none(&f, "driver.nvml.devices.0.temperature_memory_c");
	pasted_expect_none(&f, "driver.nvml.devices.0.temperature_c"); /* the nvidia-smi reader's */
	assert_int_equal(f.n, 4);
}

static void test_retired_pages(void **state)
{
	(void)state;
	/* nvidia-smi(1) -q, R450 and later; "Pending" alone in older releases */
	pasted_run_text(pasted_read_nvidia_smi_health,
			"GPU 0000:03:00.0\n"
			"    Retired Pages\n"
			"        Single Bit ECC                    : 2\n"
			"        Double Bit ECC                    : 1\n"
			"        Pending Page Blacklist            : Yes\n"
			"    Retired Pages\n"
			"        Pending                           : N/A\n",
			&f);
	pasted_expect(&f, "driver.nvml.devices.0.retired_pages_sbe", "2", 3);
	pasted_expect(&f, "driver.nvml.devices.0.retired_pages_dbe", "1", 4);
	pasted_expect(&f, "driver.nvml.devices.0.retired_pages_pending", "true", 5);
	/* keys outside their section, and text that is no nvidia-smi -q */
	assert_int_equal(pasted_run_text(pasted_read_nvidia_smi_health,
					 "Pending : Yes\nUncorrectable Error : 4\nGPU 0: A100\n"
					 "Remapped Rows : 3\nGPU 00000000:18:00.0 extra\n",
					 &f),
			 0);
}

/* https://github.com/NVIDIA/nvidia-docker/issues/1146 (R418's PCI section: GPU Link Info) and
 * https://github.com/NVIDIA/nvidia-docker/issues/1090 (its tail: "Replays Since Reset"); the
 * keys NVML's probe writes, "16x" as 16 lanes */
static void test_pci_link(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi_health, "pasted-nvidia-smi-health",
			  "nvidia-docker-1146-gpu-link-info.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_link_gen_max", "3", 10);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_link_gen", "3", 11);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_link_width_max", "16", 13);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_link_width", "16", 14);
	assert_int_equal(f.n, 4);
	/* pasted from inside PCIe Generation: its "Current" and Link Width are of no section
	 * read; the replay counter is, and the throttle reasons (HW Thermal Slowdown N/A) */
	pasted_run_sample(pasted_read_nvidia_smi_health, "pasted-nvidia-smi-health",
			  "nvidia-docker-1090-replays.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_replay_counter", "0", 8);
	pasted_expect(&f, "driver.nvml.devices.0.clocks_event_reasons", "0", 14);
	pasted_expect_none(&f, "driver.nvml.devices.0.pcie_link_gen");
	pasted_expect_none(&f, "driver.nvml.devices.0.pcie_link_width");
	assert_int_equal(f.n, 2);
	/* newer releases add Device Current, Device Max and Host Max (not NVML's Max and
	 * Current); older ones spell "Replays since reset"; the dispatcher hands the replay line
	 * after a gap (an empty line); a second GPU; N/A, Unknown Error and a Max of another
	 * section */
	pasted_run_text(pasted_read_nvidia_smi_health,
			"GPU 00000000:00:04.0\n"
			"        GPU Link Info\n"
			"            PCIe Generation\n"
			"                Max                       : 4\n"
			"                Current                   : 1\n"
			"                Device Current            : 1\n"
			"                Device Max                : 4\n"
			"                Host Max                  : Unknown Error\n"
			"            Link Width\n"
			"                Max                       : 16x\n"
			"                Current                   : 8x\n"
			"\n"
			"        Replays Since Reset               : 12\n"
			"GPU 00000000:02:00.0\n"
			"        GPU Link Info\n"
			"            PCIe Generation\n"
			"                Max                       : N/A\n"
			"            Link Width\n"
			"                Max                       : x16\n"
			"        Replays since reset         : 0\n"
			"    Remapped Rows\n"
			"        Bank Remap Availability Histogram\n"
			"            Max                           : 640 bank(s)\n",
			&f);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_link_gen_max", "4", 4);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_link_gen", "1", 5);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_link_width_max", "16", 10);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_link_width", "8", 11);
	pasted_expect(&f, "driver.nvml.devices.0.pcie_replay_counter", "12", 13);
	pasted_expect(&f, "driver.nvml.devices.1.pci_bus_id", "00000000:02:00.0", 14);
	pasted_expect_none(&f, "driver.nvml.devices.1.pcie_link_gen_max");
	pasted_expect_none(&f, "driver.nvml.devices.1.pcie_link_width_max");
	pasted_expect(&f, "driver.nvml.devices.1.pcie_replay_counter", "0", 20);
	assert_int_equal(f.n, 8);
}

/* https://github.com/Azure/azhpc-diagnostics/issues/73 */
static void test_nvlink(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvlink, "pasted-nvlink", "azhpc-v100-links-inactive.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.3.index", "3", 3);
	pasted_expect(&f, "driver.nvml.devices.3.nvlink.0.link", "0", 4);
	pasted_expect(&f, "driver.nvml.devices.3.nvlink.0.active", "true", 4);
	pasted_expect(&f, "driver.nvml.devices.3.nvlink.3.active", "false", 7);
	pasted_expect(&f, "driver.nvml.devices.3.nvlink.5.link", "5", 9);
	pasted_expect(&f, "driver.nvml.devices.3.nvlink.5.active", "false", 9);
	assert_int_equal(f.n, 13);
	/* link lines with no GPU line above them, a link number past NVML's, -L without links */
	assert_int_equal(pasted_run_text(pasted_read_nvlink,
					 "Link 0: 25.781 GB/s\n"
					 "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1)\n",
					 &f),
			 1);
	pasted_expect(&f, "driver.nvml.devices.0.index", "0", 2);
	pasted_run_text(pasted_read_nvlink,
			"GPU 1: NVIDIA H100 (UUID: GPU-2)\n\t Link 99: <inactive>\n"
			"\t Link 2: N/A\n\t Link 1: <inactive>\n",
			&f);
	pasted_expect_none(&f, "driver.nvml.devices.1.nvlink.99.link");
	pasted_expect_none(&f, "driver.nvml.devices.1.nvlink.2.link");
	pasted_expect(&f, "driver.nvml.devices.1.nvlink.1.active", "false", 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_remapped_rows, teardown),
		cmocka_unit_test_teardown(test_clocks_event_reasons, teardown),
		cmocka_unit_test_teardown(test_temperature, teardown),
		cmocka_unit_test_teardown(test_retired_pages, teardown),
		cmocka_unit_test_teardown(test_pci_link, teardown),
		cmocka_unit_test_teardown(test_nvlink, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
