// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One numbering of the devices several pasted-text readers each number from 0
 * (src/formats/pasted-merge.c): joined by bus id, kept apart when what identifies them
 * differs, merged by index when nothing does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "formats/pasted-merge.h"
#include "formats/pasted.h"

static struct pasted_facts f, in[4];
static const char *const names[4] = { "lspci", "rocm-smi", "nvidia-smi", "other" };

static int teardown(void **state)
{
	(void)state;
	pasted_facts_done(&f);
	for (size_t i = 0; i < 4; i++)
		pasted_facts_done(&in[i]);
	return 0;
}

/* Each reader's facts go into its own list, as explain runs them. */
static void add(const char *reader, const char *path, const char *value)
{
	for (size_t i = 0; i < 4; i++)
		if (strcmp(reader, names[i]) == 0) {
			assert_int_equal(pasted_facts_add(&in[i], names[i], path, value, 1), 0);
			return;
		}
	fail();
}

static int merge(void)
{
	return pasted_facts_merge(in, 4, &f);
}

static void expect(const char *path, const char *value, const char *reader)
{
	const struct pasted_fact *v = pasted_facts_get(&f, path);

	assert_non_null(v);
	assert_string_equal(v->value, value);
	assert_string_equal(v->reader, reader);
}

/* lspci: an Intel iGPU then the NVIDIA GPU; rocm-smi: its AMD GPU 0 (another bus); a
 * paste of lspci -D for the NVIDIA GPU again under another reader's numbering */
static void test_gpus_by_bus(void **state)
{
	(void)state;
	add("lspci", "hardware.gpus.0.bus_id", "0000:00:02.0");
	add("lspci", "hardware.gpus.0.vendor", "Intel");
	add("lspci", "hardware.gpus.1.bus_id", "0000:01:00.0");
	add("lspci", "hardware.gpus.1.device_id", "0x2204");
	add("rocm-smi", "hardware.gpus.0.bus_id", "0000:03:00.0");
	add("rocm-smi", "hardware.gpus.0.vendor", "AMD");
	add("nvidia-smi", "driver.nvml.devices.0.pci_bus_id", "00000000:01:00.0");
	add("other", "hardware.gpus.0.bus_id", "01:00.0");
	add("other", "hardware.gpus.0.driver", "nvidia");
	assert_int_equal(merge(), 0);
	expect("hardware.gpus.0.vendor", "Intel", "lspci");
	expect("hardware.gpus.1.device_id", "0x2204", "lspci");
	expect("hardware.gpus.1.driver", "nvidia", "other"); /* joined by its bus id */
	expect("hardware.gpus.2.bus_id", "0000:03:00.0", "rocm-smi");
	expect("hardware.gpus.2.vendor", "AMD", "rocm-smi");
	assert_null(pasted_facts_get(&f, "hardware.gpus.3.bus_id"));
	expect("driver.nvml.devices.0.pci_bus_id", "00000000:01:00.0", "nvidia-smi");
}

/* The errors reader's "GeForce RTX 3090 with CUDA capability sm_86" and torch's (8, 6): one
 * device; a name nvidia-smi cut and collect_env's full one: one; names that differ: two
 * (reader names here stand for the lists' order) */
static void test_devices_by_index(void **state)
{
	(void)state;
	add("lspci", "driver.cuda.devices.0.name", "NVIDIA GeForce RTX 3090");
	add("lspci", "driver.cuda.devices.0.compute_capability", "8.6");
	add("rocm-smi", "driver.cuda.devices.0.compute_capability", "8.6");
	add("nvidia-smi", "driver.nvml.devices.0.name", "NVIDIA A100-SXM...");
	add("nvidia-smi", "driver.nvml.devices.0.pci_bus_id", "00000000:07:00.0");
	add("other", "driver.nvml.devices.0.name", "NVIDIA A100-SXM4-80GB");
	add("other", "driver.nvml.devices.1.name", "NVIDIA A100-SXM4-80GB");
	add("rocm-smi", "driver.nvml.devices.1.name", "Tesla T4");
	assert_int_equal(merge(), 0);
	expect("driver.cuda.devices.0.compute_capability", "8.6", "rocm-smi");
	expect("driver.cuda.devices.0.name", "NVIDIA GeForce RTX 3090", "lspci");
	assert_null(pasted_facts_get(&f, "driver.cuda.devices.1.name"));
	expect("driver.nvml.devices.0.name", "NVIDIA A100-SXM4-80GB", "other");
	expect("driver.nvml.devices.0.pci_bus_id", "00000000:07:00.0", "nvidia-smi");
	/* the T4 (an earlier reader) keeps its index 1; the second A100 moves to 2 */
	expect("driver.nvml.devices.1.name", "Tesla T4", "rocm-smi");
	expect("driver.nvml.devices.2.name", "NVIDIA A100-SXM4-80GB", "other");
	assert_int_equal(f.n, 6);
}

/* Facts of other paths keep theirs; a failed fact stays failed. */
static void test_other_paths(void **state)
{
	(void)state;
	add("nvidia-smi", "driver.nvml.driver_version", "535.104.05");
	assert_int_equal(
		pasted_facts_add_error(&in[1], "rocm-smi", "driver.nvml.init", "Unknown Error", 2),
		0);
	add("other", "driver.nvml.devices.x.name", "not an index");
	assert_int_equal(merge(), 0);
	expect("driver.nvml.driver_version", "535.104.05", "nvidia-smi");
	assert_true(pasted_facts_get(&f, "driver.nvml.init")->failed);
	assert_non_null(pasted_facts_get(&f, "driver.nvml.devices.x.name"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_gpus_by_bus, teardown),
		cmocka_unit_test_teardown(test_devices_by_index, teardown),
		cmocka_unit_test_teardown(test_other_paths, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
