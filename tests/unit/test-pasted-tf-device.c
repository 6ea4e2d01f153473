// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tf-device reader of formats/pasted (TensorFlow's and XLA's lines that name a GPU's
 * compute capability) over real pastes (tests/fuzz/corpus/pasted-tf-device/, each copied from
 * the page named above its test): each device's capability and name at their line, and the
 * capability of the messages that name no device only when no line names one.
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

#define CC0   "driver.cuda.devices.0.compute_capability"
#define NAME0 "driver.cuda.devices.0.name"

/* https://github.com/tensorflow/tensorflow/issues/62170: "Created TensorFlow device … ->
 * physical GPU (device: 0, …, compute capability: 7.5)" */
static void test_created(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_tf_device, "pasted-tf-device", "tf-62170-created.txt", &f);
	pasted_expect(&f, CC0, "7.5", 1);
	pasted_expect(&f, NAME0, "Tesla T4", 1);
	assert_int_equal(f.n, 2);
}

/* https://github.com/tensorflow/tensorflow/issues/24227 (Windows, TensorFlow 1.x's "major: 2
 * minor: 1", then "Ignoring visible gpu device") and
 * https://github.com/RedisAI/redis-inference-optimization/issues/260 (indented by tabs) */
static void test_major_minor(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_tf_device, "pasted-tf-device", "tf-24227-windows.txt", &f);
	/* line 3's facts, read again at line 6: the later line's stand */
	pasted_expect(&f, CC0, "2.1", 6);
	pasted_expect(&f, NAME0, "GeForce 820M", 6);
	assert_int_equal(f.n, 2);
	pasted_run_sample(pasted_read_tf_device, "pasted-tf-device", "redisai-260-tabs.txt", &f);
	pasted_expect(&f, CC0, "5.2", 6);
	pasted_expect(&f, NAME0, "Tesla M60", 6);
	assert_int_equal(f.n, 2);
	/* the properties alone, for the device "Found device N" names; "major:" on a line of its
	 * own (tensorflow/tensorflow#10656) gives no name; none before a "Found device" line */
	pasted_run_text(pasted_read_tf_device,
			"name: GeForce GTX 1080 major: 6 minor: 1 memoryClockRate(GHz): 1.7335\n"
			"I gpu_device.cc:940] Found device 1 with properties: \n"
			"name: GeForce GTX 1080 major: 6 minor: 1 memoryClockRate(GHz): 1.7335\n"
			"I gpu_device.cc:940] Found device 2 with properties: \n"
			"name: Quadro M1200\n"
			"major: 5 minor: 0 memoryClockRate (GHz) 1.148\n",
			&f);
	pasted_expect(&f, "driver.cuda.devices.1.compute_capability", "6.1", 3);
	pasted_expect(&f, "driver.cuda.devices.1.name", "GeForce GTX 1080", 3);
	pasted_expect(&f, "driver.cuda.devices.2.compute_capability", "5.0", 6);
	pasted_expect_none(&f, "driver.cuda.devices.2.name");
	pasted_expect_no_prefix(&f, "driver.cuda.devices.0.");
	assert_int_equal(f.n, 3);
}

/* https://github.com/tensorflow/tensorflow/issues/50562: TensorFlow 2.x's "pciBusID: … name: …
 * computeCapability: 7.5" under "Found device 0 with properties:", quoted with "> " */
static void test_properties(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_tf_device, "pasted-tf-device", "tf-50562-quoted.txt", &f);
	pasted_expect(&f, CC0, "7.5", 4);
	pasted_expect(&f, NAME0, "NVIDIA GeForce GTX 1660 Ti", 4);
	assert_int_equal(f.n, 2);
}

/* https://github.com/tensorflow/tensorflow/issues/60739 (no SASS for 9.0) and
 * https://github.com/openxla/xla/issues/5932 (ptxas too old for 9.0): a capability with no
 * device named, read as device 0's only when no line names a device */
static void test_no_device_named(void **state)
{
	(void)state;
	pasted_run_sample(pasted_read_tf_device, "pasted-tf-device", "tf-60739-not-built.txt", &f);
	pasted_expect(&f, CC0, "9.0", 1);
	assert_int_equal(f.n, 1);
	pasted_run_sample(pasted_read_tf_device, "pasted-tf-device", "xla-5932-ptxas.txt", &f);
	pasted_expect(&f, CC0, "9.0", 1);
	assert_int_equal(f.n, 1);
	pasted_run_text(
		pasted_read_tf_device,
		"Falling back to the CUDA driver for PTX compilation; ptxas does not "
		"support CC 9.0\n"
		"Created TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:1 with "
		"79 MB memory) -> physical GPU (device: 1, name: NVIDIA H100 80GB HBM3, pci "
		"bus id: 0000:1b:00.0, compute capability: 9.0)\n",
		&f);
	pasted_expect(&f, "driver.cuda.devices.1.compute_capability", "9.0", 2);
	pasted_expect_none(&f, CC0);
	assert_int_equal(f.n, 2);
}

/* What is not a capability: no closing parenthesis, a word for a number, three digits, a
 * "major:" that is not TensorFlow's properties line */
static void test_not_read(void **state)
{
	(void)state;
	pasted_run_text(
		pasted_read_tf_device,
		"physical GPU (device: 0, name: X, pci bus id: 0000:01:00.0, compute "
		"capability: 8.6\n"
		"physical GPU (device: 0, name: X, pci bus id: 0000:01:00.0, compute "
		"capability: unknown)\n"
		"pciBusID: 0000:01:00.0 name: Y computeCapability: 123.4\n"
		"release major: 12 minor: 4\n"
		"TensorFlow was not built with CUDA kernel binaries compatible with compute "
		"capability .5\n",
		&f);
	assert_int_equal(f.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_created, teardown),
		cmocka_unit_test_teardown(test_major_minor, teardown),
		cmocka_unit_test_teardown(test_properties, teardown),
		cmocka_unit_test_teardown(test_no_device_named, teardown),
		cmocka_unit_test_teardown(test_not_read, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
