// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The `gpuenv check` policy reader (src/formats/policy.c, docs/policy.md): a full policy read
 * into its fields with their lines, version constraints and dates, every refusal with the
 * line it names (unknown keys, wrong types, bad values, waivers without an expiry, aliases,
 * two documents, nesting, NUL bytes, the size cap), and the build profile's list of
 * excluded rules holding rule ids only.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check/check.h"
#include "formats/policy.h"
#include "rules/rules.h"

static const char full[] = "# a gate\n"
			   "version: 1\n"
			   "profile: build\n"
			   "fail_on: warning\n"
			   "gpus:\n"
			   "  count: 8\n"
			   "  min_compute_capability: sm_90a\n"
			   "  model: \"*H100*\"\n"
			   "driver:\n"
			   "  version: \">=535.104, <600\"\n"
			   "  branches: [535, 550]\n"
			   "cuda:\n"
			   "  toolkit: \"==12.4.*\"\n"
			   "  runtime: \">=12.1\"\n"
			   "  consistent: yes\n"
			   "frameworks:\n"
			   "  torch: \">=2.2, !=2.3.0\"\n"
			   "architectures:\n"
			   "  targets: [sm_80, \"8.6\", compute_90]\n"
			   "  allow_ptx: true\n"
			   "waivers:\n"
			   "  - rule: driver.branch-eol\n"
			   "    reason: until Q1\n"
			   "    expires: 2028-02-29\n";

static void test_full(void **state)
{
	struct gpuenv_policy *p = NULL;
	struct policy_error e;

	assert_int_equal(policy_parse(full, strlen(full), &p, &e), 0);
	assert_int_equal(p->profile, POLICY_PROFILE_BUILD);
	assert_int_equal(p->fail_on, 1);
	assert_true(p->has_gpu_count);
	assert_int_equal(p->gpu_count, 8);
	assert_int_equal(p->line_gpu_count, 6);
	assert_int_equal(p->gpu_cc_major, 9);
	assert_int_equal(p->gpu_cc_minor, 0);
	assert_string_equal(p->gpu_model, "*H100*");
	assert_int_equal(p->driver_version.line, 10);
	assert_int_equal(p->driver_version.n, 2);
	assert_int_equal(p->n_driver_branches, 2);
	assert_int_equal(p->driver_branches[1], 550);
	assert_true(p->cuda_consistent);
	assert_int_equal(p->n_frameworks, 1);
	assert_string_equal(p->frameworks[0].name, "torch");
	assert_int_equal(p->n_arch_targets, 3);
	assert_int_equal(p->arch_targets[1].major, 8);
	assert_int_equal(p->arch_targets[1].minor, 6);
	assert_int_equal(p->arch_targets[2].major, 9);
	assert_true(p->arch_allow_ptx);
	assert_int_equal(p->n_waivers, 1);
	assert_string_equal(p->waivers[0].expires, "2028-02-29");
	assert_int_equal(p->waivers[0].line, 22);

	assert_int_equal(policy_constraint_matches(&p->driver_version, "550.54.15"), 1);
	assert_int_equal(policy_constraint_matches(&p->driver_version, "535.86.10"), 0);
	assert_int_equal(policy_constraint_matches(&p->driver_version, "600"), 0);
	assert_int_equal(policy_constraint_matches(&p->cuda_toolkit, "12.4.1"), 1);
	assert_int_equal(policy_constraint_matches(&p->cuda_toolkit, "12.4"), 1);
	assert_int_equal(policy_constraint_matches(&p->cuda_toolkit, "12.40.1"), 0);
	assert_int_equal(policy_constraint_matches(&p->cuda_toolkit, "12.5.0"), 0);
	assert_int_equal(policy_constraint_matches(&p->frameworks[0].version, "2.4.0+cu124"), 1);
	assert_int_equal(policy_constraint_matches(&p->frameworks[0].version, "2.3.0"), 0);
	assert_int_equal(policy_constraint_matches(&p->frameworks[0].version, "cpu"), -EINVAL);
	policy_free(p);
}

static void test_empty(void **state)
{
	static const char *const texts[] = { "", "# nothing\n", "---\n", "version: 1\n" };

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct gpuenv_policy *p = NULL;

		assert_int_equal(policy_parse(texts[i], strlen(texts[i]), &p, NULL), 0);
		assert_int_equal(p->profile, POLICY_PROFILE_RUNTIME);
		assert_int_equal(p->fail_on, 2);
		policy_free(p);
	}
}

static void bad(const char *text, size_t len, int want, unsigned line, const char *needle)
{
	struct gpuenv_policy *p = NULL;
	struct policy_error e;
	int r = policy_parse(text, len, &p, &e);

	if (r != want || e.line != line || !strstr(e.why, needle))
		fail_msg("%s: got %d line %u '%s'", needle, r, e.line, e.why);
	assert_null(p);
}

#define BAD(text, want, line, needle) bad(text, strlen(text), want, line, needle)

static void test_refused(void **state)
{
	char *big;

	BAD("version: 2\n", -EBADMSG, 1, "policy version 1");
	BAD("version: 1\ngpus:\n  count: 8\n  modle: H100\n", -EBADMSG, 4, "'modle' is not");
	BAD("drivers: {}\n", -EBADMSG, 1, "'drivers' is not a policy key");
	BAD("gpus: [1]\n", -EBADMSG, 1, "gpus: expected a mapping");
	BAD("gpus:\n  count: many\n", -EBADMSG, 2, "gpus.count");
	BAD("gpus:\n  min_compute_capability: sm_9\n", -EBADMSG, 2, "not a compute capability");
	BAD("driver:\n  branches: [550, abc]\n", -EBADMSG, 2, "'abc' is not a driver branch");
	BAD("driver:\n  branches: 550\n", -EBADMSG, 2, "expected a list");
	BAD("driver:\n  version: \">=535 <600\"\n", -EBADMSG, 2, "not a version constraint");
	BAD("cuda:\n  toolkit: \">=12.*\"\n", -EBADMSG, 2, "needs == or !=");
	BAD("cuda:\n  consistent: maybe\n", -EBADMSG, 2, "not true or false");
	BAD("frameworks:\n  Torch!: \">=2\"\n", -EBADMSG, 2, "not a package name");
	BAD("architectures:\n  targets: [gfx90a]\n", -EBADMSG, 2, "not a GPU architecture");
	BAD("architectures:\n  targets: [sm_90]\n  binaries: [opt/app]\n", -EBADMSG, 3,
	    "'opt/app' is not an absolute path");
	BAD("architectures:\n  binaries:\n    - /opt/../etc/x\n", -EBADMSG, 3, "without . or ..");
	BAD("architectures:\n  binaries: /opt/app\n", -EBADMSG, 2, "expected a list");
	BAD("profile: gpu\n", -EBADMSG, 1, "not runtime or build");
	BAD("fail_on: fatal\n", -EBADMSG, 1, "not error, warning or info");
	BAD("waivers:\n  - rule: a\n    reason: b\n", -EBADMSG, 2,
	    "needs rule, reason and expires");
	BAD("waivers:\n  - {rule: a, reason: b, expires: 2027-02-29}\n", -EBADMSG, 2, "not a date");
	BAD("waivers:\n  - {rule: a, reason: \"\", expires: 2027-01-01}\n", -EBADMSG, 2,
	    "reason is empty");
	BAD("waivers:\n  - {rule: a, reason: b, expires: 2027-01-01, by: me}\n", -EBADMSG, 2,
	    "'by' is not");
	BAD("a: &x [1]\nb: *x\n", -EBADMSG, 2, "aliases are not read");
	BAD("version: 1\n---\nversion: 1\n", -EBADMSG, 2, "more than one YAML document");
	BAD("version: 1\n  x: [\n", -EBADMSG, 2, "");
	BAD("gpus: [[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]\n", -E2BIG, 1, "nested deeper");
	bad("version: 1\n\0", 12, -EBADMSG, 0, "NUL byte");
	big = calloc(1, POLICY_MAX_INPUT + 2);
	assert_non_null(big);
	memset(big, '#', POLICY_MAX_INPUT + 1);
	bad(big, POLICY_MAX_INPUT + 1, -E2BIG, 0, "larger than");
	free(big);
}

/* architectures.binaries: parsed with lines; what the reading step found, judged per target
 * as the frameworks' code is, and every missing piece a failing "could not tell". */
static void test_binaries(void **state)
{
	static const char y[] = "architectures:\n"
				"  targets: [sm_90, sm_80]\n"
				"  binaries:\n"
				"    - /opt/app/bin/train\n"
				"    - /opt/app/lib/lib?*.so\n";
	struct gpuenv_policy *p = NULL;
	struct policy_error e;
	struct check_binaries *bs;
	struct gpuenv_check c = { 0 };
	char text[1024];
	bool fail;

	assert_int_equal(policy_parse(y, strlen(y), &p, &e), 0);
	assert_int_equal(p->n_arch_binaries, 2);
	assert_string_equal(p->arch_binaries[1].pattern, "/opt/app/lib/lib?*.so");
	assert_int_equal(p->arch_binaries[1].line, 5);
	c.policy = p;
	/* not read (--from): could not tell */
	text[0] = '\0';
	fail = false;
	check_binaries_on_target(&c, 9, 0, text, sizeof(text), &fail);
	assert_true(fail);
	assert_non_null(strstr(text, "named binaries: could not tell: not read"));

	bs = calloc(1, sizeof(*bs));
	assert_non_null(bs);
	bs->n_patterns = 2;
	bs->unmatched = calloc(2, sizeof(char *));
	bs->unmatched[1] = strdup("no file matches it");
	bs->n = 1;
	bs->b = calloc(1, sizeof(*bs->b));
	bs->b[0].path = strdup("/opt/app/bin/train");
	bs->b[0].t = calloc(2, sizeof(*bs->b[0].t));
	bs->b[0].t[0] = (struct coverage_target){ strdup("sm_90a"), -1, -1 };
	bs->b[0].t[1] = (struct coverage_target){ strdup("sm_80"), -1, -1 };
	bs->b[0].n = 2;
	p->binaries_read = bs;
	p->binaries_free = check_binaries_free;
	/* sm_90a runs on 9.0 only; the unmatched pattern fails the clause anyway */
	text[0] = '\0';
	fail = false;
	check_binaries_on_target(&c, 9, 0, text, sizeof(text), &fail);
	assert_true(fail);
	assert_non_null(strstr(text, "/opt/app/lib/lib?*.so: could not tell: no file matches it"));
	assert_non_null(strstr(text, "/opt/app/bin/train: native"));
	free(bs->unmatched[1]);
	bs->unmatched[1] = NULL;
	text[0] = '\0';
	fail = false;
	check_binaries_on_target(&c, 9, 0, text, sizeof(text), &fail);
	assert_false(fail);
	/* 8.6 runs sm_80 SASS natively; 7.5 runs nothing of it */
	text[0] = '\0';
	check_binaries_on_target(&c, 8, 6, text, sizeof(text), &fail);
	assert_false(fail);
	check_binaries_on_target(&c, 7, 5, text, sizeof(text), &fail);
	assert_true(fail);
	assert_non_null(strstr(text, "/opt/app/bin/train: no-kernel-image"));
	/* a file that was not parsed, or has no CUDA code: could not tell */
	bs->b[0].error = strdup("not an ELF file");
	text[0] = '\0';
	fail = false;
	check_binaries_on_target(&c, 9, 0, text, sizeof(text), &fail);
	assert_true(fail);
	assert_non_null(strstr(text, "could not tell: not an ELF file"));
	free(bs->b[0].error);
	bs->b[0].error = NULL;
	bs->b[0].n_amdgcn = 1;
	bs->b[0].n = 0;
	text[0] = '\0';
	fail = false;
	check_binaries_on_target(&c, 9, 0, text, sizeof(text), &fail);
	assert_true(fail);
	assert_non_null(strstr(text, "only AMDGPU code"));
	bs->b[0].n = 2; /* the targets are freed by count */
	policy_free(p);
}

static void test_dates(void **state)
{
	assert_true(policy_date_valid("2024-02-29"));
	assert_true(policy_date_valid("2000-02-29"));
	assert_false(policy_date_valid("1900-02-29"));
	assert_false(policy_date_valid("2023-02-29"));
	assert_false(policy_date_valid("2023-04-31"));
	assert_false(policy_date_valid("2023-13-01"));
	assert_false(policy_date_valid("2023-1-01"));
	assert_false(policy_date_valid("2023-01-01T00"));
}

/* The build profile's exclusions name rules of the table: a renamed rule would otherwise be
 * judged on a build host again without anyone noticing. */
static void test_build_exclusions_are_rules(void **state)
{
	for (const char *const *x = check_build_host_excluded; *x; x++) {
		bool found = false;

		for (size_t i = 0; i < rule_table_len; i++)
			found |= strcmp(rule_table[i].id, *x) == 0;
		if (!found)
			fail_msg("check_build_host_excluded[] names '%s', which is not a rule", *x);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full),	cmocka_unit_test(test_empty),
		cmocka_unit_test(test_refused), cmocka_unit_test(test_binaries),
		cmocka_unit_test(test_dates),	cmocka_unit_test(test_build_exclusions_are_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
