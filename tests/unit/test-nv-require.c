/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests for src/facts/nv-require.c: NVIDIA_REQUIRE_* expressions judged as
 * libnvidia-container's src/cli/dsl.c judges them, quirks included. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "facts/nv-require.h"

/* nvidia/cuda 12.8.0's NVIDIA_REQUIRE_CUDA (its Dockerfile's ENV, as images built on it carry
 * it): CUDA 12.8, or one of the listed brands on the R470/R535/R550/R560/R565 branches. */
#define B(lo, hi)                                                                                  \
	"brand=unknown,driver>=" #lo ",driver<" #hi " "                                            \
	"brand=grid,driver>=" #lo ",driver<" #hi " "                                               \
	"brand=tesla,driver>=" #lo ",driver<" #hi " "                                              \
	"brand=nvidia,driver>=" #lo ",driver<" #hi " "                                             \
	"brand=quadro,driver>=" #lo ",driver<" #hi " "                                             \
	"brand=quadrortx,driver>=" #lo ",driver<" #hi " "                                          \
	"brand=nvidiartx,driver>=" #lo ",driver<" #hi " "                                          \
	"brand=vapps,driver>=" #lo ",driver<" #hi " "                                              \
	"brand=vpc,driver>=" #lo ",driver<" #hi " "                                                \
	"brand=vcs,driver>=" #lo ",driver<" #hi " "                                                \
	"brand=vws,driver>=" #lo ",driver<" #hi " "                                                \
	"brand=cloudgaming,driver>=" #lo ",driver<" #hi

static enum nv_require_result eval(const char *expr, const char *cuda, const char *driver,
				   const char *arch, const char *brand, char *msg, size_t len)
{
	struct nv_require r;
	struct nv_require_facts f = { .cuda = cuda,
				      .driver = driver,
				      .device = arch || brand,
				      .arch = arch,
				      .brand = brand };
	enum nv_require_result res;

	assert_int_equal(nv_require_parse(expr, strlen(expr), &r), 0);
	res = nv_require_eval(&r, &f, NULL);
	if (msg)
		nv_require_message(&r, res, msg, len);
	nv_require_done(&r);
	return res;
}

static void test_versions(void **state)
{
	assert_int_equal(nv_require_compare_version("12.4", NV_REQ_GE, "12.4.0"), 1);
	assert_int_equal(nv_require_compare_version("12.4", NV_REQ_EQ, "12.4.0.0"), 1);
	assert_int_equal(nv_require_compare_version("12.2", NV_REQ_GE, "12.4"), 0);
	assert_int_equal(nv_require_compare_version("535.247.01", NV_REQ_GE, "535"), 1);
	assert_int_equal(nv_require_compare_version("535.247.01", NV_REQ_LT, "536"), 1);
	assert_int_equal(nv_require_compare_version("535", NV_REQ_LT, "535.1"), 1);
	assert_int_equal(nv_require_compare_version("535", NV_REQ_NE, "535.0"), 0);
	assert_int_equal(nv_require_compare_version("12.10", NV_REQ_GT, "12.9"), 1);
	assert_int_equal(nv_require_compare_version("12.4", NV_REQ_GE, "12.x"), -1);
	assert_int_equal(nv_require_compare_version("12.4", NV_REQ_GE, ".4"), -1);
	assert_int_equal(nv_require_compare_version("12.4", NV_REQ_GE, "99999999999999999999999"),
			 -1);
}

static void test_nvidia_cuda_12_8(void **state)
{
	static const char expr[] = "cuda>=12.8 " B(470, 471) " " B(535, 536) " " B(550, 551) " " B(
		560, 561) " " B(565, 566);
	char msg[256];

	/* a laptop RTX 4050 (NVML brand GeForce) on 535.247.01: refused (MauriceNino/dashdot
	 * issue 1226) */
	assert_int_equal(eval(expr, "12.2", "535.247.01", "8.9", "GeForce", msg, sizeof(msg)),
			 NV_REQUIRE_UNSATISFIED);
	assert_string_equal(msg, "unsatisfied condition: cuda>=12.8, please update your driver "
				 "to a newer version, or use an earlier cuda container");
	/* a datacenter GPU (NVML brand NVIDIA: "Unknown" to libnvidia-container) runs it */
	assert_int_equal(eval(expr, "12.2", "535.247.01", "9.0", "Unknown", NULL, 0),
			 NV_REQUIRE_SATISFIED);
	assert_int_equal(eval(expr, "12.2", "535.247.01", "7.0", "Tesla", NULL, 0),
			 NV_REQUIRE_SATISFIED);
	/* no branch range for R545, and R570 reports CUDA 12.8 */
	assert_int_equal(eval(expr, "12.3", "545.29.06", "9.0", "Tesla", NULL, 0),
			 NV_REQUIRE_UNSATISFIED);
	assert_int_equal(eval(expr, "12.8", "570.86.10", "8.9", "GeForce", NULL, 0),
			 NV_REQUIRE_SATISFIED);
	/* no visible device: brand terms hold */
	assert_int_equal(eval(expr, "12.2", "535.247.01", NULL, NULL, NULL, 0),
			 NV_REQUIRE_SATISFIED);
}

static void test_quirks(void **state)
{
	char msg[256];
	struct nv_require r;

	/* "!" alone is "!=", "==" is no operator */
	assert_int_equal(eval("cuda!12.2", "12.2", "535", NULL, NULL, NULL, 0),
			 NV_REQUIRE_UNSATISFIED);
	assert_int_equal(eval("cuda==12.2", "12.2", "535", NULL, NULL, msg, sizeof(msg)),
			 NV_REQUIRE_INVALID);
	assert_string_equal(msg, "invalid expression");
	/* names in any case; a malformed term is found only when reached */
	assert_int_equal(eval("CUDA>=12.0 gpu>=1", "12.2", "535", NULL, NULL, NULL, 0),
			 NV_REQUIRE_SATISFIED);
	assert_int_equal(eval("gpu>=1 cuda>=12.0", "12.2", "535", NULL, NULL, NULL, 0),
			 NV_REQUIRE_INVALID);
	assert_int_equal(eval("cuda>=13.0,gpu>=1 driver>=500", "12.2", "535", NULL, NULL, NULL, 0),
			 NV_REQUIRE_SATISFIED);
	/* brands order nothing; with no device the term is not even looked at */
	assert_int_equal(eval("brand<tesla", "12.2", "535", "8.0", "Tesla", NULL, 0),
			 NV_REQUIRE_INVALID);
	assert_int_equal(eval("brand<tesla", "12.2", "535", NULL, NULL, NULL, 0),
			 NV_REQUIRE_SATISFIED);
	assert_int_equal(eval("brand=TESLA", "12.2", "535", "8.0", "Tesla", NULL, 0),
			 NV_REQUIRE_SATISFIED);
	/* an alternative of empty terms ends the evaluation with the outcome so far */
	assert_int_equal(eval("cuda>=13.0 , driver>=500", "12.2", "535", NULL, NULL, NULL, 0),
			 NV_REQUIRE_UNSATISFIED);
	assert_int_equal(eval(", cuda>=13.0", "12.2", "535", NULL, NULL, NULL, 0),
			 NV_REQUIRE_SATISFIED);
	assert_int_equal(eval("", "12.2", "535", NULL, NULL, NULL, 0), NV_REQUIRE_SATISFIED);
	/* the message names the first word, whichever alternative failed; a leading space makes
	 * it empty */
	assert_int_equal(
		eval("driver>=600 cuda>=13.0", "12.2", "535", NULL, NULL, msg, sizeof(msg)),
		NV_REQUIRE_UNSATISFIED);
	assert_string_equal(msg, "unsatisfied condition: driver>=600");
	assert_int_equal(eval(" cuda>=13.0", "12.2", "535", NULL, NULL, msg, sizeof(msg)),
			 NV_REQUIRE_UNSATISFIED);
	assert_string_equal(msg, "unsatisfied condition: ");
	/* arch: the device's compute capability */
	assert_int_equal(eval("arch>=7.5", "12.2", "535", "7.0", "Tesla", NULL, 0),
			 NV_REQUIRE_UNSATISFIED);
	/* a failing term too long for dsl.c's 128-byte message buffer is invalid */
	{
		char big[200] = "brand=";

		memset(big + 6, 'x', 150);
		big[156] = '\0';
		assert_int_equal(eval(big, "12.2", "535", "8.0", "Tesla", NULL, 0),
				 NV_REQUIRE_INVALID);
	}
	/* term text and uses */
	assert_int_equal(nv_require_parse("cuda>=12.4 brand=tesla,driver>=470", 34, &r), 0);
	assert_int_equal(r.n_alts, 2);
	assert_int_equal(r.n_terms, 3);
	assert_string_equal(r.terms[1].text, "brand=tesla");
	assert_string_equal(r.terms[2].value, "470");
	assert_true(nv_require_uses(&r, NV_REQUIRE_BRAND));
	assert_false(nv_require_uses(&r, NV_REQUIRE_ARCH));
	nv_require_done(&r);
	assert_int_equal(nv_require_parse("cuda\0>=1", 8, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_nvidia_cuda_12_8),
		cmocka_unit_test(test_quirks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
