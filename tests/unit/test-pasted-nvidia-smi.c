// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * formats/pasted-nvidia-smi: the nvidia-smi reader over real pasted outputs (the samples in
 * tests/fuzz/corpus/pasted-nvidia-smi/, each copied from the issue named above its test),
 * and the lines it must leave alone.
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

#define DIR "pasted-nvidia-smi"
static struct pasted_facts f;

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	return 0;
}

/* https://github.com/Frogging-Family/nvidia-all/pull/212 (driver 550 table) */
static void test_table_550(void **state)
{
	(void)state;
	assert_int_equal(
		pasted_run_sample(pasted_read_nvidia_smi, DIR, "table-550-rtx4070.txt", &f), 6);
	pasted_expect(&f, "driver.nvml.driver_version", "550.40.07", 4);
	pasted_expect(&f, "driver.nvml.cuda_driver_version", "12.4", 4);
	pasted_expect(&f, "driver.nvml.devices.0.name", "NVIDIA GeForce RTX 4070", 10);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "00000000:2D:00.0", 10);
	pasted_expect(&f, "driver.nvml.devices.0.memory_total_mib", "12282", 11);
	pasted_expect(&f, "driver.nvml.devices.0.memory_used_mib", "430", 11);
	pasted_expect_none(&f, "driver.nvml.devices.0.mig_mode"); /* N/A on a GeForce */
}

/* https://github.com/utkuozdemir/nvidia_gpu_exporter/issues/203 (MIG enabled) */
static void test_table_mig(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "table-535-a800-mig.txt", &f);
	pasted_expect(&f, "driver.nvml.driver_version", "535.86.10", 2);
	pasted_expect(&f, "driver.nvml.devices.0.name", "NVIDIA A800-SXM4-80GB", 8);
	pasted_expect(&f, "driver.nvml.devices.0.memory_total_mib", "81920", 9);
	pasted_expect(&f, "driver.nvml.devices.0.mig_mode", "true", 10);
}

/* https://github.com/XuehaiPan/nvitop/pull/8 (two GPUs, then the MIG devices table, whose
 * rows must not be read as GPUs) */
static void test_table_two_gpus(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "table-510-a100-two-gpus-mig-devices.txt",
			  &f);
	pasted_expect(&f, "driver.nvml.cuda_driver_version", "11.6", 6);
	pasted_expect(&f, "driver.nvml.devices.0.name", "NVIDIA A100-SXM...", 12);
	pasted_expect(&f, "driver.nvml.devices.0.mig_mode", "false", 14);
	pasted_expect(&f, "driver.nvml.devices.1.pci_bus_id", "00000000:41:00.0", 16);
	pasted_expect(&f, "driver.nvml.devices.1.memory_total_mib", "81920", 17);
	pasted_expect(&f, "driver.nvml.devices.1.mig_mode", "true", 18);
	pasted_expect_no_prefix(&f, "driver.nvml.devices.2");
	pasted_expect(&f, "driver.nvml.devices.1.memory_used_mib", "24205", 17);
}

/* https://github.com/cBio/cbio-cluster/issues/38 (driver 331: no CUDA version, no MIG line,
 * 4-digit PCI domain) */
static void test_table_331(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "table-331-gtx680.txt", &f);
	pasted_expect(&f, "driver.nvml.driver_version", "331.62", 4);
	pasted_expect_none(&f, "driver.nvml.cuda_driver_version");
	pasted_expect(&f, "driver.nvml.devices.0.name", "GeForce GTX 680", 9);
	pasted_expect(&f, "driver.nvml.devices.2.pci_bus_id", "0000:83:00.0", 15);
	pasted_expect(&f, "driver.nvml.devices.2.memory_total_mib", "4095", 16);
}

/* https://github.com/shkhln/libc6-shim/issues/14 ("CUDA Version: N/A", processes table) */
static void test_table_cuda_na(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "table-575-cuda-na-processes.txt", &f);
	pasted_expect(&f, "driver.nvml.driver_version", "575.64.03", 1);
	pasted_expect_none(&f, "driver.nvml.cuda_driver_version");
	pasted_expect(&f, "driver.nvml.devices.0.name", "NVIDIA GeForce RTX 5070", 7);
}

/* https://github.com/MatthiasSchinzel/sysmon/issues/12 (-q, driver 450, MIG Mode N/A) */
static void test_query_450(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "q-450-gtx780.txt", &f);
	pasted_expect(&f, "driver.nvml.driver_version", "450.66", 6);
	pasted_expect(&f, "driver.nvml.cuda_driver_version", "11.0", 7);
	pasted_expect(&f, "driver.nvml.device_count", "1", 9);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "00000000:01:00.0", 10);
	pasted_expect(&f, "driver.nvml.devices.0.name", "GeForce GTX 780", 11);
	pasted_expect(&f, "driver.nvml.devices.0.persistence_mode", "false", 15);
	pasted_expect_none(&f, "driver.nvml.devices.0.mig_mode");
	pasted_expect_none(&f, "driver.nvml.devices.0.serial");
	pasted_expect(&f, "driver.nvml.devices.0.uuid", "GPU-a230e637-c9e1-1b61-3830-a437b874d88d",
		      25);
	pasted_expect(&f, "driver.nvml.devices.0.minor_number", "0", 26);
	pasted_expect(&f, "driver.nvml.devices.0.vbios_version", "80.80.31.00.0D", 27);
}

/* https://github.com/NVIDIA/nvidia-docker/issues/1226 (-q, an Azure K80 with a PCI domain
 * of its own, a serial number) */
static void test_query_418(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "q-418-tesla-k80-pci.txt", &f);
	pasted_expect(&f, "driver.nvml.driver_version", "418.40.04", 4);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "000052CE:00:00.0", 8);
	pasted_expect(&f, "driver.nvml.devices.0.serial", "0323716156865", 19);
}

/* https://github.com/anderskm/gputil/issues/38 (-q on Windows: WDDM, no minor number) */
static void test_query_windows(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "q-windows-442-wddm.txt", &f);
	pasted_expect(&f, "driver.nvml.driver_version", "442.92", 5);
	pasted_expect(&f, "driver.nvml.device_count", "4", 8);
	pasted_expect(&f, "driver.nvml.devices.0.name", "GeForce GTX 1080 Ti", 10);
	pasted_expect_none(&f, "driver.nvml.devices.0.persistence_mode");
	pasted_expect_none(&f, "driver.nvml.devices.0.minor_number");
}

/* https://github.com/pytorch/pytorch/issues/68611 (the default table on Windows: the column
 * Linux fills with the persistence mode is the driver model, "TCC/WDDM"), with the CRLF line
 * ends a Windows console's copy keeps */
static void test_table_windows_crlf(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "table-461-windows-wddm-crlf.txt", &f);
	pasted_expect(&f, "driver.nvml.driver_version", "461.72", 2);
	pasted_expect(&f, "driver.nvml.cuda_driver_version", "11.2", 2);
	pasted_expect(&f, "driver.nvml.devices.0.name", "GeForce GTX 105...", 8);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "00000000:01:00.0", 8);
	pasted_expect(&f, "driver.nvml.devices.0.memory_total_mib", "4096", 9);
	pasted_expect_none(&f, "driver.nvml.devices.0.persistence_mode");
	for (size_t i = 0; i < f.n; i++)
		assert_null(strchr(f.v[i].value, '\r'));
}

/* https://github.com/NVIDIA/nvidia-docker/issues/1146 (the middle of a -q section: with no
 * "GPU <bus id>" line the device is not known, so nothing is read) */
static void test_query_partial(void **state)
{
	(void)state;
	assert_int_equal(
		pasted_run_sample(pasted_read_nvidia_smi, DIR, "q-pci-section-turing.txt", &f), 0);
	/* With its section line the PCI sub-section's Bus Id is read. */
	pasted_run_text(
		pasted_read_nvidia_smi,
		"GPU 00000000:AF:00.0\n    PCI\n        Bus                         : 0xAF\n"
		"        Bus Id                      : 00000000:AF:00.0\n"
		"    FB Memory Usage\n        Total                       : 15360 MiB\n"
		"    BAR1 Memory Usage\n        Total                       : 256 MiB\n",
		&f);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "00000000:AF:00.0", 4);
	pasted_expect(&f, "driver.nvml.devices.0.memory_total_mib", "15360", 6);
}

/* https://github.com/influxdata/telegraf/issues/5812 (-L with MIG devices) */
static void test_list_mig(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "L-mig-a100.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.name", "NVIDIA A100-SXM4-80GB", 2);
	pasted_expect(&f, "driver.nvml.devices.0.uuid", "GPU-513536b6-7d19-9063-b049-1e69664bb298",
		      2);
	pasted_expect(&f, "driver.nvml.devices.0.mig_devices.3.uuid",
		      "MIG-930574a9-d43a-5d2b-95da-3e68384c8d6b", 6);
	pasted_expect(&f, "driver.nvml.devices.3.uuid", "GPU-69ec2344-ebac-b028-f88f-452abb3d7f11",
		      9);
	pasted_expect_none(&f, "driver.nvml.devices.1.mig_devices.0.uuid");
	/* MIG devices listed: MIG mode on, each device's profile; no instance ids in a bare
	 * "MIG-<uuid>"; nothing said of GPU 1's mode (on with no instance is listed alike) */
	pasted_expect(&f, "driver.nvml.devices.0.mig_mode", "true", 3);
	pasted_expect(&f, "driver.nvml.devices.0.mig_devices.3.name", "1g.20gb", 6);
	pasted_expect_none(&f, "driver.nvml.devices.0.mig_devices.0.gpu_instance_id");
	pasted_expect_none(&f, "driver.nvml.devices.1.mig_mode");
	/* before R470 the UUID held the GPU and compute instance ids (NVIDIA MIG User Guide) */
	pasted_run_text(
		pasted_read_nvidia_smi,
		"GPU 0: A100-SXM4-40GB (UUID: GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f)\n"
		"  MIG 3g.20gb Device 0: (UUID: "
		"MIG-GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f/1/0)\n"
		"  MIG 3g.20gb Device 1: (UUID: MIG-GPU-5c89852c-d268-c3f3-1b07-005d5ae1dc3f/x)\n",
		&f);
	pasted_expect(&f, "driver.nvml.devices.0.mig_mode", "true", 2);
	pasted_expect(&f, "driver.nvml.devices.0.mig_devices.0.gpu_instance_id", "1", 2);
	pasted_expect(&f, "driver.nvml.devices.0.mig_devices.0.compute_instance_id", "0", 2);
	pasted_expect(&f, "driver.nvml.devices.0.mig_devices.1.name", "3g.20gb", 3);
	pasted_expect_none(&f, "driver.nvml.devices.0.mig_devices.1.gpu_instance_id");
}

/* https://github.com/akash-network/provider-configs/pull/12 (-L, then the table) */
static void test_list_and_table(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "L-and-table-quadro.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.1.uuid", "GPU-d6de6afc-bdfe-75c4-5273-0544439153fc",
		      3);
	pasted_expect(&f, "driver.nvml.devices.0.pci_bus_id", "00000000:06:00.0", 14);
	pasted_expect(&f, "driver.nvml.devices.1.pci_bus_id", "00000000:07:00.0", 18);
	pasted_expect(&f, "driver.nvml.devices.1.name", "Quadro RTX 4000", 18);
	pasted_expect(&f, "driver.nvml.driver_version", "535.129.03", 8);
}

/* https://github.com/lestofante/ksysguard-gpu/issues/27 (--query-gpu … --format=csv) */
static void test_csv(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_nvidia_smi, DIR, "csv-query-520.txt", &f);
	pasted_expect(&f, "driver.nvml.devices.0.index", "0", 3);
	pasted_expect(&f, "driver.nvml.devices.0.temperature_c", "55", 3);
	/* nvidia-smi's own documented fields, with units and N/A */
	pasted_run_text(
		pasted_read_nvidia_smi,
		"$ nvidia-smi --query-gpu=name,pci.bus_id,driver_version,memory.total,"
		"compute_cap,mig.mode.current --format=csv\n"
		"name, pci.bus_id, driver_version, memory.total [MiB], compute_cap, "
		"mig.mode.current\n"
		"NVIDIA H100 80GB HBM3, 00000000:18:00.0, 550.54.15, 81559 MiB, 9.0, Enabled\n"
		"NVIDIA GeForce RTX 4090, 00000000:3B:00.0, 550.54.15, 24564 MiB, 8.9, [N/A]\n"
		"\nsee, the first one.\n",
		&f);
	pasted_expect(&f, "driver.nvml.devices.0.name", "NVIDIA H100 80GB HBM3", 3);
	pasted_expect(&f, "driver.nvml.devices.0.memory_total_mib", "81559", 3);
	pasted_expect(&f, "driver.nvml.devices.0.compute_capability", "9.0", 3);
	pasted_expect(&f, "driver.nvml.devices.0.mig_mode", "true", 3);
	pasted_expect(&f, "driver.nvml.devices.1.compute_capability", "8.9", 4);
	pasted_expect(&f, "driver.nvml.devices.1.pci_bus_id", "00000000:3B:00.0", 4);
	pasted_expect_none(&f, "driver.nvml.devices.1.mig_mode");
	pasted_expect(&f, "driver.nvml.driver_version", "550.54.15", 4);
	pasted_expect_no_prefix(&f, "driver.nvml.devices.2");
}

/* Prose, other tools' key: value lines and a collect_env paste give nothing. */
static void test_not_nvidia_smi(void **state)
{
	(void)state;
	assert_int_equal(pasted_run_text(pasted_read_nvidia_smi,
					 "My GPU is a 4090 | driver 550\n"
					 "Driver Version: 535 is what I have, CUDA 12.1.\n"
					 "PyTorch version: 2.1.0+cu121\nIs debug build: False\n"
					 "name, age\nbob, 3\n| a | b | c |\n| 0 x | y | z |\n"
					 "GPU 0000:01:00\nProduct Name : X\n",
					 &f),
			 0);
}

/* Hostile input: long lines, many GPUs, absurd indices, stay bounded. */
static void test_hostile(void **state)
{
	static char big[1 << 20];
	size_t n = 0;

	(void)state;
	for (unsigned i = 0; n + 64 < sizeof(big); i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "GPU %u: X (UUID: GPU-%u)\n",
				      i % 10000, i);
	assert_true(pasted_run_text(pasted_read_nvidia_smi, big, &f) > 0);
	assert_true(f.n <= PASTED_FACTS_MAX);
	assert_true(f.dropped > 0);
	memset(big, '|', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(pasted_run_text(pasted_read_nvidia_smi, big, &f), 0);
	pasted_run_text(pasted_read_nvidia_smi,
			"|   9999  X Off | 00000000:01:00.0 Off | N/A |\n"
			"|   99999999999  X Off | 00000000:01:00.0 Off | N/A |\n"
			"GPU 99999999999999999999: x\n",
			&f);
	pasted_expect(&f, "driver.nvml.devices.9999.name", "X", 1);
	assert_int_equal(f.n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_table_550, teardown),
		cmocka_unit_test_teardown(test_table_mig, teardown),
		cmocka_unit_test_teardown(test_table_two_gpus, teardown),
		cmocka_unit_test_teardown(test_table_331, teardown),
		cmocka_unit_test_teardown(test_table_cuda_na, teardown),
		cmocka_unit_test_teardown(test_query_450, teardown),
		cmocka_unit_test_teardown(test_query_418, teardown),
		cmocka_unit_test_teardown(test_query_windows, teardown),
		cmocka_unit_test_teardown(test_query_partial, teardown),
		cmocka_unit_test_teardown(test_list_mig, teardown),
		cmocka_unit_test_teardown(test_list_and_table, teardown),
		cmocka_unit_test_teardown(test_table_windows_crlf, teardown),
		cmocka_unit_test_teardown(test_csv, teardown),
		cmocka_unit_test_teardown(test_not_nvidia_smi, teardown),
		cmocka_unit_test_teardown(test_hostile, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
