/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The coverage verdict (src/facts/coverage.c) on a table of (targets, device, driver) →
 * verdict, one or more rows per rule of docs/compatibility.md (a) and (b):
 * SASS minor/major, Tegra exact match, `a` and `f` targets and families, PTX JIT forward,
 * PTX newer than the driver (error 222), nothing usable (error 209), unknown inputs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "facts/coverage.h"
#include "facts/facts.h"

struct row {
	const char *targets; /* "sm_86 compute_90@9.0" (PTX ISA after @) */
	const char *device;  /* "8.9" */
	const char *driver;  /* NULL = not given */
	const char *verdict;
	const char *entry; /* the deciding target, or NULL */
	bool unconfirmed;
	const char *rule;
	const char *cudart; /* the CUDA runtime linked/bundled (coverage_judge_driver), or NULL */
};

static const struct row rows[] = {
	/* (a) SASS: same major, minor <= device minor */
	{ "sm_86", "8.6", NULL, "native", "sm_86", false, "exact SASS" },
	{ "sm_86", "8.9", NULL, "native", "sm_86", false, "minor below device minor" },
	{ "sm_89", "8.6", NULL, "no-kernel-image", NULL, false, "minor above device minor" },
	{ "sm_80", "9.0", NULL, "no-kernel-image", NULL, false,
	  "older major does not run on newer" },
	{ "sm_90", "8.9", NULL, "no-kernel-image", NULL, false,
	  "newer major does not run on older" },
	{ "sm_100", "10.3", NULL, "native", "sm_100", false, "sm_100 on 10.3" },
	{ "sm_100", "12.0", NULL, "no-kernel-image", NULL, false, "sm_100 not on 12.0" },
	{ "sm_75 sm_80 sm_86", "8.9", NULL, "native", "sm_86", false, "closest SASS below wins" },
	{ "sm_80 sm_89 sm_86", "8.9", NULL, "native", "sm_89", false, "exact SASS wins" },
	{ "sm_86 compute_86@9.0", "8.9", "520.61.05", "native", "sm_86", false, "SASS before PTX" },
	/* Tegra: exact match only, both ways; PTX still JITs */
	{ "sm_80", "8.7", NULL, "no-kernel-image", NULL, false, "desktop SASS not on Tegra" },
	{ "sm_87", "8.7", NULL, "native", "sm_87", false, "Tegra exact" },
	{ "sm_87", "8.9", NULL, "no-kernel-image", NULL, false, "Tegra SASS not on desktop" },
	{ "sm_80 compute_80@7.0", "8.7", "535.104.05", "ptx-jit", "compute_80", false,
	  "PTX on Tegra" },
	/* `a`: only the exact architecture, SASS and PTX */
	{ "sm_90a", "9.0", NULL, "native", "sm_90a", false, "sm_90a on 9.0" },
	{ "sm_90a", "10.0", NULL, "no-kernel-image", NULL, false, "sm_90a not on 10.0" },
	{ "sm_100a", "10.3", NULL, "no-kernel-image", NULL, false,
	  "sm_100a not on 10.3 (same major)" },
	{ "compute_90a@8.0", "9.0", "550.54.15", "ptx-jit", "compute_90a", false,
	  "compute_90a on 9.0" },
	{ "compute_90a@8.0", "10.0", "570.86.10", "no-kernel-image", NULL, false,
	  "compute_90a not JIT-portable" },
	/* `f`: within the family, at or above the target */
	{ "sm_100f", "10.0", NULL, "native", "sm_100f", false, "sm_100f on 10.0" },
	{ "sm_100f", "10.3", NULL, "native", "sm_100f", false, "sm_100f on 10.3" },
	{ "sm_103f", "10.0", NULL, "no-kernel-image", NULL, false, "sm_103f not below 10.3" },
	{ "sm_100f", "12.0", NULL, "no-kernel-image", NULL, false, "no edges between families" },
	{ "sm_100f", "11.0", NULL, "no-kernel-image", NULL, false, "not on Thor's family" },
	{ "sm_120f", "12.1", NULL, "native", "sm_120f", false, "sm_120f on 12.1" },
	{ "sm_110f", "11.0", NULL, "native", "sm_110f", false, "sm_110f on 11.0 (Thor)" },
	{ "compute_120f@9.0", "12.1", "580.65.06", "ptx-jit", "compute_120f", false,
	  "compute_120f on 12.1" },
	{ "compute_100f@9.0", "12.0", "580.65.06", "no-kernel-image", NULL, false,
	  "compute_100f not on 12.0" },
	/* (b) PTX JIT forward to any equal or higher CC */
	{ "sm_80 compute_80@7.0", "9.0", "535.54.03", "ptx-jit", "compute_80", false,
	  "PTX JIT forward" },
	{ "compute_75@9.0", "12.0", "580.65.06", "ptx-jit", "compute_75", false,
	  "PTX 9.0 on R580" },
	{ "compute_90@8.4", "8.9", "550.54.15", "no-kernel-image", NULL, false,
	  "PTX not to a lower CC" },
	{ "compute_75@7.0 compute_86@7.1", "8.6", "470.82.01", "ptx-jit", "compute_86", false,
	  "closest PTX chosen" },
	/* PTX newer than the driver's JIT */
	{ "compute_90@9.0", "9.0", "550.54.15", "ptx-too-new", "compute_90", false,
	  "ISA 9.0 on R550 (8.4)" },
	{ "compute_75@9.0", "12.0", "575.51.03", "ptx-too-new", "compute_75", false,
	  "ISA 9.0 on R575 (8.8)" },
	{ "compute_90@8.4", "9.0", "550.54.15", "ptx-jit", "compute_90", false, "ISA 8.4 on R550" },
	{ "compute_80@8.8 compute_86@9.0", "9.0", "575.51.03", "ptx-jit", "compute_80", false,
	  "an older PTX the driver can JIT" },
	{ "compute_80@8.8 compute_86@9.0", "9.0", "570.86.10", "ptx-too-new", "compute_80", false,
	  "the oldest too-new PTX decides" },
	{ "sm_90 compute_80@9.0", "8.6", "550.54.15", "ptx-too-new", "compute_80", false,
	  "minor-compat: SASS misses, PTX too new (rule c)" },
	/* the knowledge base's edges */
	{ "compute_90@9.9", "9.0", "700.10", "ptx-jit", "compute_90", true,
	  "driver and ISA beyond the table" },
	{ "compute_90@9.9", "9.0", "580.65.06", "ptx-too-new", "compute_90", true,
	  "ISA beyond the table, known driver" },
	{ "compute_52@5.0", "6.1", "375.26", "ptx-jit", "compute_52", true,
	  "ISA and driver older than the table" },
	{ "compute_80@9.1", "8.6", "590.44.01", "ptx-jit", "compute_80", true,
	  "unconfirmed row (R590)" },
	{ "compute_80", "8.6", "550.54.15", "ptx-jit", "compute_80", true, "PTX ISA unknown" },
	{ "compute_90@9.0", "9.0", NULL, "ptx-jit", "compute_90", false, "driver not given" },
	{ "sm_88", "8.8", NULL, "native", "sm_88", true, "unconfirmed sm row" },
	{ "sm_87", "8.8", NULL, "no-kernel-image", NULL, true,
	  "rests on 8.8's unconfirmed Tegra status" },
	{ "compute_87@9.0", "8.8", "580.65.06", "ptx-jit", "compute_87", false,
	  "PTX JIT does not depend on the Tegra status" },
	/* (d) the driver: the CUDA runtime it links or bundles, the GPUs its branch drives */
	{ "sm_80", "8.0", "550.54.15", "driver-too-old", NULL, true,
	  "a CUDA 13 build on R550 (13's floor row is unconfirmed)", "13" },
	{ "sm_80", "8.0", "550.54.15", "driver-too-old", NULL, true,
	  "static CUDA 13.0 runtime on R550", "13.0" },
	{ "sm_80", "8.0", "550.54.15", "native", "sm_80", false, "CUDA 12 on R550", "12" },
	{ "sm_80", "8.0", "520.61.05", "driver-too-old", NULL, false,
	  "CUDA 12 below its 525.60.13 floor", "12.8" },
	{ "sm_80", "8.0", "580.65.06", "native", "sm_80", false, "CUDA 13 on R580", "13" },
	{ "sm_120", "12.0", "470.82.01", "driver-gpu-unsupported", NULL, true,
	  "R470 predates compute capability 12.0 (CUDA 12.8, R570; 12.8's row is unconfirmed)" },
	{ "sm_120", "12.0", "570.86.10", "native", "sm_120", false, "R570 drives 12.0" },
	{ "sm_90", "9.0", "515.43.04", "driver-gpu-unsupported", NULL, true,
	  "R515 predates Hopper (CUDA 11.8, R520; 11.8.0's row is unconfirmed)" },
	{ "sm_70", "7.0", "595.45.04", "driver-gpu-unsupported", NULL, false,
	  "R595 dropped Volta (oldest 7.5)" },
	{ "sm_70", "7.0", "580.65.06", "native", "sm_70", false, "R580 is Volta's last branch" },
	{ "sm_61", "6.1", "375.26", "native", "sm_61", false,
	  "a CC older than the table: its first branch is not known" },
	/* no code, other kinds, garbage */
	{ "", "8.6", NULL, "no-gpu-code", NULL, false, "nothing" },
	{ "lto_80", "8.6", NULL, "no-kernel-image", NULL, false,
	  "LTO-IR only: device code the driver does not load, never \"no GPU code\"" },
	{ "lto_90 lto_80", "9.0", "580.65.06", "no-kernel-image", NULL, false,
	  "LTO-IR for the device's own architecture does not run either" },
	{ "bogus sm_ sm_8x compute_ lto_80 sm_86", "8.6", NULL, "native", "sm_86", false,
	  "garbage ignored" },
	{ "lto_80 sm_70", "8.6", NULL, "no-kernel-image", NULL, false, "only a foreign SASS" },
};

static void judge_row(const struct row *r)
{
	struct coverage_target t[16];
	char buf[16][32], copy[256];
	size_t n = 0;
	unsigned maj, min;
	struct coverage_result res;
	const char *got_entry;

	snprintf(copy, sizeof(copy), "%s", r->targets);
	for (char *tok = strtok(copy, " "); tok && n < 16; tok = strtok(NULL, " ")) {
		char *at = strchr(tok, '@');
		int a = -1, b = -1;

		if (at) {
			*at = '\0';
			assert_int_equal(sscanf(at + 1, "%d.%d", &a, &b), 2);
		}
		snprintf(buf[n], sizeof(buf[n]), "%s", tok);
		t[n] = (struct coverage_target){ buf[n], a, b };
		n++;
	}
	assert_int_equal(sscanf(r->device, "%u.%u", &maj, &min), 2);
	assert_int_equal(coverage_judge(t, n, maj, min, r->driver, &res), 0);
	assert_int_equal(coverage_judge_driver(r->cudart, maj, min, r->driver, &res), 0);
	got_entry = res.entry == SIZE_MAX ? NULL : t[res.entry].target;
	if (strcmp(coverage_verdict_name(res.verdict), r->verdict) != 0 ||
	    (got_entry == NULL) != (r->entry == NULL) ||
	    (got_entry && strcmp(got_entry, r->entry) != 0) || res.unconfirmed != r->unconfirmed)
		fail_msg("%s: [%s] on %s, driver %s: got %s via %s%s (%s); expected %s via %s%s",
			 r->rule, r->targets, r->device, r->driver ? r->driver : "-",
			 coverage_verdict_name(res.verdict), got_entry ? got_entry : "-",
			 res.unconfirmed ? " (unconfirmed)" : "", res.reason, r->verdict,
			 r->entry ? r->entry : "-", r->unconfirmed ? " (unconfirmed)" : "");
	assert_true(res.reason[0] != '\0');
	if (res.verdict == COVERAGE_NO_KERNEL_IMAGE)
		assert_non_null(strstr(res.reason, "no kernel image is available"));
	/* LTO-IR is named, never counted: "lto_80 only: link-time IR, not loadable" */
	assert_int_equal(res.lto_only, strncmp(r->targets, "lto_", 4) == 0 &&
					       !strstr(r->targets, "sm_") &&
					       !strstr(r->targets, "compute_"));
	if (strstr(r->targets, "lto_") && res.verdict == COVERAGE_NO_KERNEL_IMAGE)
		assert_non_null(strstr(res.reason, "link-time IR"));
	if (res.verdict == COVERAGE_PTX_TOO_NEW)
		assert_non_null(strstr(res.reason, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"));
	if (res.verdict == COVERAGE_DRIVER_TOO_OLD)
		assert_non_null(strstr(res.reason, "cudaErrorInsufficientDriver"));
	if (res.verdict == COVERAGE_DRIVER_GPU_UNSUPPORTED)
		assert_non_null(strstr(res.reason, "does not drive this GPU"));
}

static void test_table(void **state)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		judge_row(&rows[i]);
	printf("# %zu verdict rows\n", sizeof(rows) / sizeof(rows[0]));
}

/* The reason names the nearest miss: a target of the GPU's own major before one of another
 * (TensorFlow 2.3 on a 5.0 GPU: its sm_52, not its sm_37; tensorflow/tensorflow#46537). */
static void test_nearest_miss(void **state)
{
	struct coverage_target tf23[] = { { "sm_35", -1, -1 }, { "sm_37", -1, -1 },
					  { "sm_52", -1, -1 }, { "sm_60", -1, -1 },
					  { "sm_61", -1, -1 }, { "compute_70", 6, 4 } };
	struct coverage_target other[] = { { "sm_35", -1, -1 }, { "sm_61", -1, -1 } };
	struct coverage_result res;

	(void)state;
	assert_int_equal(coverage_judge(tf23, 6, 5, 0, "450.57", &res), 0);
	assert_int_equal(res.verdict, COVERAGE_NO_KERNEL_IMAGE);
	assert_non_null(strstr(res.reason, "sm_52 SASS needs minor 2, device has 0"));
	/* no target of the GPU's major: the highest below it */
	assert_int_equal(coverage_judge(other, 2, 5, 2, NULL, &res), 0);
	assert_int_equal(res.verdict, COVERAGE_NO_KERNEL_IMAGE);
	assert_non_null(strstr(res.reason, "sm_35 SASS does not run across major versions"));
}

static void test_inputs(void **state)
{
	struct coverage_target t = { "sm_86", -1, -1 };
	struct coverage_target_info ti;
	struct coverage_result res;

	assert_int_equal(coverage_judge(&t, 1, 8, 10, NULL, &res), -EINVAL);
	assert_int_equal(coverage_judge(&t, 1, 8, 6, "not-a-version", &res), -EINVAL);
	assert_int_equal(coverage_judge(NULL, 1, 8, 6, NULL, &res), -EINVAL);
	assert_int_equal(coverage_judge(NULL, 0, 8, 6, NULL, &res), 0);
	assert_int_equal(res.verdict, COVERAGE_NO_GPU_CODE);
	assert_int_equal(coverage_target_parse("sm_100f", &ti), 0);
	assert_int_equal(ti.kind, COVERAGE_KIND_SASS);
	assert_int_equal(ti.arch, 100);
	assert_int_equal(ti.variant, 'f');
	assert_int_equal(coverage_target_parse("compute_90a", &ti), 0);
	assert_int_equal(ti.kind, COVERAGE_KIND_PTX);
	assert_int_equal(coverage_target_parse("sm_90x", &ti), -EINVAL);
	assert_int_equal(coverage_target_parse("sm_9", &ti), -EINVAL);
	assert_int_equal(coverage_target_parse("sm_90af", &ti), -EINVAL);
	assert_int_equal(coverage_target_parse("gfx90a", &ti), -EINVAL);
	assert_true(coverage_verdict_is_failure(COVERAGE_NO_KERNEL_IMAGE));
	assert_true(coverage_verdict_is_failure(COVERAGE_PTX_TOO_NEW));
	assert_false(coverage_verdict_is_failure(COVERAGE_PTX_JIT));
	assert_false(coverage_verdict_is_failure(COVERAGE_NO_GPU_CODE));
}

static void test_tables(void **state)
{
	const struct facts_ptx_isa *p;
	const struct facts_sm_arch *a;

	assert_int_equal(facts_ptx_isa_for_driver("550.54.15", &p), 0);
	assert_string_equal(p->ptx_isa_version, "8.4");
	assert_int_equal(facts_ptx_isa_for_driver("560.35.03", &p), 0);
	assert_string_equal(p->ptx_isa_version, "8.5");
	assert_int_equal(facts_ptx_isa_for_driver("580", &p), 0);
	assert_string_equal(p->ptx_isa_version, "9.0");
	assert_int_equal(facts_ptx_isa_for_driver("375.26", &p), -ENOENT);
	assert_int_equal(facts_ptx_isa(8, 7, &p), 0);
	assert_string_equal(p->cuda_version, "12.8");
	assert_int_equal(p->min_driver_branch, 570);
	assert_int_equal(facts_sm_arch(103, &a), 0);
	assert_int_equal(a->family, 100);
	assert_int_equal(facts_sm_arch(121, &a), 0);
	assert_int_equal(a->family, 120);
	assert_int_equal(facts_sm_arch(87, &a), 0);
	assert_true(a->tegra);
	assert_int_equal(facts_sm_arch(86, &a), 0);
	assert_false(a->tegra);
	assert_int_equal(facts_sm_arch(99, &a), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_nearest_miss),
		cmocka_unit_test(test_inputs),
		cmocka_unit_test(test_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
