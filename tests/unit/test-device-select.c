/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for src/facts/device-select.c: ROCR_VISIBLE_DEVICES read as ROCr's RvdFilter reads
 * it, HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES as ROCclr's Device::init reads them,
 * ZE_AFFINITY_MASK as compute-runtime's parseAffinityMask, ONEAPI_DEVICE_SELECTOR by the DPC++
 * grammar, CUDA_VISIBLE_DEVICES by CUDA's documented semantics (CUDA C++ Programming Guide, "CUDA
 * Environment Variables"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "facts/device-select.h"

static const char *const uuids[] = { "GPU-57a3b1c2d4e5f607", "GPU-f980f88ef31631a2",
				     "GPU-f980aaaa00000000", NULL };

/* The GPUs selected, as "1,0", or the stop as "stop N entry E (text)". */
static void check(void (*fn)(const char *, const char *const *, size_t, struct device_select *),
		  const char *value, size_t n, size_t want_n, enum device_select_stop want_stop,
		  const char *want_text)
{
	struct device_select s;

	fn(value, uuids, n, &s);
	assert_int_equal(s.n_selected, want_n);
	assert_int_equal(s.stop, want_stop);
	if (want_text)
		assert_string_equal(s.stop_text, want_text);
}

static void test_rocr(void **state)
{
	struct device_select s;

	(void)state;
	check(device_select_rocr, "", 3, 0, DEVICE_SELECT_EMPTY, NULL);
	check(device_select_rocr, "0,2", 3, 2, DEVICE_SELECT_END, NULL);
	check(device_select_rocr, " 1 , 0x2", 3, 2, DEVICE_SELECT_END,
	      NULL); /* trimmed, strtol 0 */
	check(device_select_rocr, "3", 3, 0, DEVICE_SELECT_PAST_END, "3");
	check(device_select_rocr, "-1", 3, 0, DEVICE_SELECT_NOT_AN_ID, "-1");
	check(device_select_rocr, "1,5,0", 3, 1, DEVICE_SELECT_PAST_END, "5");
	check(device_select_rocr, "1,1,0", 3, 1, DEVICE_SELECT_REPEATED, "1");
	check(device_select_rocr, "0,1,2", 2, 2, DEVICE_SELECT_MORE_THAN_GPUS, "2");
	check(device_select_rocr, "0,", 3, 1, DEVICE_SELECT_END, NULL); /* getline: no last entry */
	check(device_select_rocr, ",0", 3, 0, DEVICE_SELECT_NOT_AN_ID, "");
	check(device_select_rocr, "1x", 3, 0, DEVICE_SELECT_NOT_AN_ID, "1x");
	check(device_select_rocr, "4294967296", 3, 1, DEVICE_SELECT_END, NULL); /* int32_t: 0 */
	/* UUID prefixes, upper-cased, 5 to 20 characters, matching one GPU */
	check(device_select_rocr, "gpu-57A3", 3, 1, DEVICE_SELECT_END, NULL);
	check(device_select_rocr, "GPU-f980", 3, 0, DEVICE_SELECT_AMBIGUOUS, "GPU-f980");
	check(device_select_rocr, "GPU-f980f", 3, 1, DEVICE_SELECT_END, NULL);
	check(device_select_rocr, "GPU-", 3, 0, DEVICE_SELECT_NO_MATCH, "GPU-");
	check(device_select_rocr, "GPU-57a3b1c2d4e5f6070", 3, 0, DEVICE_SELECT_NO_MATCH, NULL);
	check(device_select_rocr, "GPU-0", 4, 0, DEVICE_SELECT_NO_MATCH, NULL); /* NULL uuid */
	device_select_rocr("2,0", uuids, 3, &s);
	assert_int_equal(s.selected[0], 2);
	assert_int_equal(s.selected[1], 0);
}

static void test_hip(void **state)
{
	(void)state;
	check(device_select_hip, "", 2, 2, DEVICE_SELECT_END, NULL); /* empty: every GPU */
	check(device_select_hip, "1", 1, 0, DEVICE_SELECT_PAST_END, "1");
	check(device_select_hip, "-1", 2, 0, DEVICE_SELECT_NOT_AN_ID, "-1");
	check(device_select_hip, "0,0,1", 2, 2, DEVICE_SELECT_END, NULL); /* repeats skipped */
	check(device_select_hip, "01", 2, 0, DEVICE_SELECT_NOT_AN_ID, "01");
	check(device_select_hip, " 1", 2, 0, DEVICE_SELECT_NOT_AN_ID, " 1"); /* not trimmed */
	check(device_select_hip, "0,", 2, 1, DEVICE_SELECT_END, NULL);
	check(device_select_hip, ",0", 2, 0, DEVICE_SELECT_NOT_AN_ID, "");
	check(device_select_hip, "1,7,0", 2, 1, DEVICE_SELECT_PAST_END, "7");
	check(device_select_hip, "GPU-f980f88e", 3, 1, DEVICE_SELECT_END, NULL);
	check(device_select_hip, "GPU-F980F88E", 3, 1, DEVICE_SELECT_END, NULL);
	check(device_select_hip, "GPU-deadbeef", 3, 0, DEVICE_SELECT_NO_MATCH, "GPU-deadbeef");
	check(device_select_hip, "99999999999", 3, 0, DEVICE_SELECT_NOT_AN_ID, NULL);
}

static void ze(const char *value, size_t roots, size_t tiles, enum ze_hierarchy h, size_t want_n,
	       enum device_select_stop want_stop)
{
	struct device_select s;

	device_select_ze_mask(value, roots, tiles, h, &s);
	assert_int_equal(s.n_selected, want_n);
	assert_int_equal(s.stop, want_stop);
}

static void test_ze_affinity_mask(void **state)
{
	(void)state;
	ze("", 2, 1, ZE_HIERARCHY_COMPOSITE, 2, DEVICE_SELECT_END);
	ze("default", 1, 1, ZE_HIERARCHY_COMPOSITE, 1, DEVICE_SELECT_END);
	ze("1", 1, 1, ZE_HIERARCHY_COMPOSITE, 0, DEVICE_SELECT_PAST_END);
	ze("3,0", 1, 1, ZE_HIERARCHY_COMPOSITE, 1, DEVICE_SELECT_PAST_END); /* skipped, read on */
	ze("0x1", 2, 1, ZE_HIERARCHY_COMPOSITE, 1, DEVICE_SELECT_END);	    /* std::stoul base 0 */
	ze("gpu0", 2, 1, ZE_HIERARCHY_COMPOSITE, 0, DEVICE_SELECT_NOT_A_NUMBER);
	ze("0,,1", 2, 1, ZE_HIERARCHY_COMPOSITE, 0, DEVICE_SELECT_NOT_A_NUMBER);
	ze("0,", 2, 1, ZE_HIERARCHY_COMPOSITE, 1, DEVICE_SELECT_END);
	ze("-1", 2, 1, ZE_HIERARCHY_COMPOSITE, 0, DEVICE_SELECT_PAST_END); /* stoul wraps it */
	/* COMPOSITE: X.Y a tile of card X; FLAT: X counts tiles, X.Y skipped */
	ze("0.1", 1, 1, ZE_HIERARCHY_COMPOSITE, 0, DEVICE_SELECT_PAST_END);
	ze("0.1", 1, 2, ZE_HIERARCHY_COMPOSITE, 1, DEVICE_SELECT_END);
	ze("0.0", 1, 2, ZE_HIERARCHY_FLAT, 0, DEVICE_SELECT_SUBDEVICE);
	ze("3", 2, 2, ZE_HIERARCHY_FLAT, 1, DEVICE_SELECT_END);
	ze("4", 2, 2, ZE_HIERARCHY_FLAT, 0, DEVICE_SELECT_PAST_END);
	ze("0.0.0", 1, 2, ZE_HIERARCHY_COMPOSITE, 0, DEVICE_SELECT_UNSURE);
}

static void oneapi(const char *value, size_t n, size_t want_n, enum device_select_stop want_stop)
{
	struct device_select s;

	device_select_oneapi(value, n, &s);
	assert_int_equal(s.n_selected, want_n);
	assert_int_equal(s.stop, want_stop);
}

static void test_oneapi_device_selector(void **state)
{
	(void)state;
	oneapi("level_zero:gpu", 2, 2, DEVICE_SELECT_END);
	oneapi("LEVEL_ZERO:GPU", 2, 2, DEVICE_SELECT_END); /* case insensitive */
	oneapi("level_zero:1", 2, 1, DEVICE_SELECT_END);
	oneapi("level_zero:1", 1, 0, DEVICE_SELECT_NO_LEVEL_ZERO_GPU);
	oneapi("opencl:gpu", 1, 0, DEVICE_SELECT_NO_LEVEL_ZERO_GPU);
	oneapi("*:cpu", 1, 0, DEVICE_SELECT_NO_LEVEL_ZERO_GPU);
	oneapi("opencl:*;level_zero:0", 1, 1, DEVICE_SELECT_END);
	oneapi("!*:cpu", 1, 1, DEVICE_SELECT_END); /* discard only: an implicit *:* */
	oneapi("!level_zero:*", 1, 0, DEVICE_SELECT_NO_LEVEL_ZERO_GPU);
	oneapi("*:gpu;!level_zero:0", 1, 0, DEVICE_SELECT_NO_LEVEL_ZERO_GPU);
	oneapi("level_zero:0.*", 1, 0, DEVICE_SELECT_UNSURE); /* tiles, if it has any */
	oneapi("!level_zero:0;level_zero:*", 1, 0, DEVICE_SELECT_MALFORMED); /* discard last */
	oneapi("gpu", 1, 0, DEVICE_SELECT_MALFORMED); /* the backend is required */
	oneapi("level_zero:", 1, 0, DEVICE_SELECT_MALFORMED);
	oneapi("level_zero:gpu,", 1, 0, DEVICE_SELECT_MALFORMED);
	oneapi("vulkan:gpu", 1, 0, DEVICE_SELECT_MALFORMED);
	oneapi("level_zero:*.0", 1, 0, DEVICE_SELECT_MALFORMED);
	oneapi("level_zero: gpu", 1, 0, DEVICE_SELECT_UNSURE);
	/* sycl-ls's label copied as a selector: the DPC++ runtime throws "Too many colons (:)"
	 * (uxlfoundation/oneDPL#979 on six GPUs, intel/oneapi-containers#84 on an A770 and an
	 * iGPU); backend:number is the form that picks one GPU */
	oneapi("level_zero:gpu:2", 6, 0, DEVICE_SELECT_MALFORMED);
	oneapi("level_zero:gpu:0", 2, 0, DEVICE_SELECT_MALFORMED);
	oneapi("level_zero:2", 6, 1, DEVICE_SELECT_END);
}

/* NVML's UUIDs: "GPU-" and 8-4-4-4-12 lower-case hex digits. */
static const char *const nv_uuids[] = { "GPU-8932f937-d72c-4106-c12f-20bd9faed9f6",
					"GPU-8932aa00-1111-2222-3333-444455556666",
					"GPU-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", NULL };

static void check_cuda(const char *value, size_t n, size_t want_n,
		       enum device_select_stop want_stop, const char *want_text)
{
	struct device_select s;

	device_select_cuda(value, nv_uuids, n, &s);
	assert_int_equal(s.n_selected, want_n);
	assert_int_equal(s.stop, want_stop);
	if (want_text)
		assert_string_equal(s.stop_text, want_text);
}

static void test_cuda(void **state)
{
	struct device_select s;

	(void)state;
	/* -1 or set and empty hide every GPU */
	check_cuda("", 1, 0, DEVICE_SELECT_EMPTY, NULL);
	check_cuda("-1", 1, 0, DEVICE_SELECT_NOT_AN_ID, "-1");
	check_cuda("-1", 3, 0, DEVICE_SELECT_NOT_AN_ID, "-1");
	/* an index past the GPUs ends the list: "0,1" on one GPU keeps GPU 0, "1" none */
	check_cuda("0", 1, 1, DEVICE_SELECT_END, NULL);
	check_cuda("0,1", 1, 1, DEVICE_SELECT_PAST_END, "1");
	check_cuda("1", 1, 0, DEVICE_SELECT_PAST_END, "1");
	check_cuda("2,0", 2, 0, DEVICE_SELECT_PAST_END, "2"); /* stops at the first invalid */
	/* the guide's example: "0,2,-1,1" keeps 0 and 2, hides 1 */
	check_cuda("0,2,-1,1", 3, 2, DEVICE_SELECT_NOT_AN_ID, "-1");
	device_select_cuda("2,0", nv_uuids, 3, &s);
	assert_int_equal(s.n_selected, 2);
	assert_int_equal(s.selected[0], 2);
	assert_int_equal(s.selected[1], 0);
	/* no identifier at all (Slurm's "NoDevFiles", a shell's $0 "bash") */
	check_cuda("NoDevFiles", 2, 0, DEVICE_SELECT_NOT_AN_ID, "NoDevFiles");
	/* GPU-<uuid> prefixes: enough characters to match one GPU */
	check_cuda("GPU-8932f937", 3, 1, DEVICE_SELECT_END, NULL);
	check_cuda("GPU-0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0,GPU-8932f", 3, 2, DEVICE_SELECT_END,
		   NULL);
	check_cuda("GPU-0b,1", 3, 2, DEVICE_SELECT_END, NULL);
	check_cuda("GPU-ffff", 3, 0, DEVICE_SELECT_NO_MATCH, "GPU-ffff");
	check_cuda("0,GPU-ffff,1", 3, 1, DEVICE_SELECT_NO_MATCH, "GPU-ffff");
	check_cuda("GPU-8932f937-d72c-4106-c12f-20bd9faed9f6x", 3, 0, DEVICE_SELECT_NO_MATCH, NULL);
	/* what the documentation leaves open is not judged */
	check_cuda("GPU-8932", 3, 0, DEVICE_SELECT_UNSURE, "GPU-8932"); /* two GPUs share it */
	check_cuda("GPU-8932F937", 3, 0, DEVICE_SELECT_UNSURE, NULL);	/* case */
	check_cuda("GPU-0b1c", 4, 0, DEVICE_SELECT_UNSURE, NULL);	/* GPU 3's UUID unread */
	check_cuda("GPU-", 3, 0, DEVICE_SELECT_UNSURE, NULL);
	check_cuda("MIG-5c89e1a2-0f3b-5d4e-8a7b-9c0d1e2f3a4b", 3, 0, DEVICE_SELECT_UNSURE, NULL);
	check_cuda("0,MIG-5c89e1a2", 3, 1, DEVICE_SELECT_UNSURE, NULL);
	check_cuda("0,0", 3, 1, DEVICE_SELECT_UNSURE, "0");
	check_cuda(" 0", 3, 0, DEVICE_SELECT_UNSURE, " 0");
	check_cuda("0,", 3, 1, DEVICE_SELECT_UNSURE, "");
	check_cuda("01", 3, 0, DEVICE_SELECT_UNSURE, NULL);
	check_cuda("+1", 3, 0, DEVICE_SELECT_UNSURE, NULL);
	check_cuda("1gpu", 3, 0, DEVICE_SELECT_UNSURE, NULL);
	check_cuda("cuda:0", 3, 0, DEVICE_SELECT_UNSURE, NULL);
	check_cuda("99999999999999999999", 3, 0, DEVICE_SELECT_UNSURE, NULL);
	/* ten digits or more: how CUDA reads a number past 32 bits is not documented */
	check_cuda("4294967296", 3, 0, DEVICE_SELECT_UNSURE, NULL);
	check_cuda("123456789", 3, 0, DEVICE_SELECT_PAST_END, NULL);
	/* no GPU at all: every index is past the end */
	check_cuda("0", 0, 0, DEVICE_SELECT_PAST_END, "0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rocr),
		cmocka_unit_test(test_hip),
		cmocka_unit_test(test_ze_affinity_mask),
		cmocka_unit_test(test_oneapi_device_selector),
		cmocka_unit_test(test_cuda),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
