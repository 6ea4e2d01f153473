/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Tests for src/fatbin/fatbin-targets.c, the targets of a binary that `gpuenv scan` and the
 * framework probe both list: one target per (name, kind, PTX ISA), one kind per entry kind,
 * one order (CUDA by architecture, variant, kind, ISA; AMDGPU after, by processor), the cap.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fatbin/fatbin-targets.h"

static struct fatbin_entry entry(enum fatbin_kind kind, unsigned arch, char variant, int isa_major,
				 int isa_minor)
{
	struct fatbin_entry e = { .kind = kind,
				  .arch = arch,
				  .variant = variant,
				  .ptx_major = isa_major,
				  .ptx_minor = isa_minor };

	fatbin_entry_fill_target(&e);
	return e;
}

static struct fatbin_bundle_entry bundle(const char *triple, const char *target, const char *gfx)
{
	struct fatbin_bundle_entry b = { 0 };

	snprintf(b.triple, sizeof(b.triple), "%s", triple);
	snprintf(b.target, sizeof(b.target), "%s", target);
	snprintf(b.gfx, sizeof(b.gfx), "%s", gfx);
	return b;
}

static void test_merge_and_order(void **state)
{
	struct fatbin_targets ts = { 0 };
	const struct fatbin_entry es[] = {
		entry(FATBIN_KIND_PTX, 90, 0, 8, 4),   entry(FATBIN_KIND_ELF, 90, 'a', -1, -1),
		entry(FATBIN_KIND_ELF, 86, 0, -1, -1), entry(FATBIN_KIND_PTX, 90, 0, 7, 8),
		entry(FATBIN_KIND_LTO, 80, 0, -1, -1), entry(FATBIN_KIND_ELF, 90, 0, -1, -1),
		entry(FATBIN_KIND_PTX, 90, 0, 8, 4),   entry(FATBIN_KIND_OLDCUBIN, 75, 0, -1, -1),
		entry(FATBIN_KIND_ELF, 86, 0, -1, -1),
	};
	const struct fatbin_bundle_entry bs[] = {
		bundle("amdgcn-amd-amdhsa", "gfx1100", "gfx1100"),
		bundle("host-x86_64-unknown-linux-gnu", "", ""),
		bundle("amdgcn-amd-amdhsa", "gfx942:sramecc+:xnack-", "gfx942"),
		bundle("amdgcn-amd-amdhsa", "gfx90a", "gfx90a"),
		bundle("amdgcn-amd-amdhsa", "gfx942:sramecc+:xnack-", "gfx942"),
	};
	static const struct {
		const char *name, *kind;
		int isa_major;
		size_t count;
	} want[] = {
		{ "sm_75", "sass", -1, 1 },
		{ "lto_80", "lto", -1, 1 },
		{ "sm_86", "sass", -1, 2 },
		{ "sm_90", "sass", -1, 1 },
		/* the same PTX target with two ISAs: two targets, the older first */
		{ "compute_90", "ptx", 7, 1 },
		{ "compute_90", "ptx", 8, 3 }, /* twice, and once more below */
		{ "sm_90a", "sass", -1, 1 },
		{ "gfx90a", "amdgcn", -1, 1 },
		{ "gfx942:sramecc+:xnack-", "amdgcn", -1, 2 },
		{ "gfx1100", "amdgcn", -1, 1 },
	};
	size_t idx;

	(void)state;
	for (size_t i = 0; i < sizeof(es) / sizeof(es[0]); i++)
		assert_int_equal(fatbin_targets_add_entry(&ts, &es[i], &idx), 0);
	/* the first entry's target is still at index 0 (scan's modules refer to it) */
	assert_int_equal(fatbin_targets_add_entry(&ts, &es[0], &idx), 0);
	assert_int_equal(idx, 0);
	assert_int_equal(fatbin_targets_add_bundle(&ts, &bs[1]), 1); /* host: no target */
	for (size_t i = 0; i < sizeof(bs) / sizeof(bs[0]); i++)
		assert_true(fatbin_targets_add_bundle(&ts, &bs[i]) >= 0);
	assert_int_equal(ts.n_amdgcn, 3);
	fatbin_targets_sort(&ts);
	assert_int_equal(ts.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < ts.n; i++) {
		assert_string_equal(ts.t[i].name, want[i].name);
		assert_string_equal(fatbin_target_kind_name(ts.t[i].kind), want[i].kind);
		assert_int_equal(ts.t[i].ptx_major, want[i].isa_major);
		assert_int_equal(ts.t[i].count, want[i].count);
	}
	assert_string_equal(ts.t[8].gfx, "gfx942");
	assert_false(ts.truncated);
	fatbin_targets_done(&ts);
	assert_int_equal(ts.n, 0);
}

static void test_cap(void **state)
{
	struct fatbin_targets ts = { .max = 2 };
	struct fatbin_entry a = entry(FATBIN_KIND_ELF, 80, 0, -1, -1),
			    b = entry(FATBIN_KIND_ELF, 86, 0, -1, -1),
			    c = entry(FATBIN_KIND_ELF, 90, 0, -1, -1);

	(void)state;
	assert_int_equal(fatbin_targets_add_entry(&ts, &a, NULL), 0);
	assert_int_equal(fatbin_targets_add_entry(&ts, &b, NULL), 0);
	assert_int_equal(fatbin_targets_add_entry(&ts, &c, NULL), -E2BIG);
	assert_true(ts.truncated);
	/* one already there is still counted past the cap */
	assert_int_equal(fatbin_targets_add_entry(&ts, &a, NULL), 0);
	assert_int_equal(ts.n, 2);
	assert_int_equal(ts.t[0].count, 2);
	fatbin_targets_done(&ts);
	assert_int_equal(ts.max, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_and_order),
		cmocka_unit_test(test_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
