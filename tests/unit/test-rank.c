// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests of the root-cause ranking (src/rules/rules-rank.c over rules-causes.c): the edge
 * table is well formed and acyclic (a cycle, a self edge, an unknown id, a duplicate or an
 * edge without its reason is refused here, at test time); causes chain, also across a cause
 * that did not fire; ties go by severity reached, then layer order, then table order; a
 * machine with notes only has no root cause; a cyclic table still ends with one root cause.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rules/rules.h"

#define MAX_FINDINGS 8

/* A diagnosis holding findings of the given rules (id, severity pairs, NULL-terminated). */
static struct gpuenv_doctor *diag(const char *first, ...)
{
	struct gpuenv_doctor *d = calloc(1, sizeof(*d));
	va_list ap;

	assert_non_null(d);
	d->findings = calloc(MAX_FINDINGS, sizeof(*d->findings));
	assert_non_null(d->findings);
	va_start(ap, first);
	for (const char *id = first; id; id = va_arg(ap, const char *)) {
		struct finding *f = &d->findings[d->n_findings++];

		assert_true(d->n_findings <= MAX_FINDINGS);
		f->rule = rule_find(id);
		assert_non_null(f->rule);
		f->severity = (enum gpuenv_severity)va_arg(ap, int);
		f->diag = d;
	}
	va_end(ap);
	return d;
}

static void diag_free(struct gpuenv_doctor *d)
{
	free(d->findings);
	free(d);
}

static const char *cause_of(const struct gpuenv_doctor *d, size_t i)
{
	const struct finding *c = finding_cause(d, &d->findings[i]);

	return c ? c->rule->id : NULL;
}

static const char *root_of(const struct gpuenv_doctor *d)
{
	const struct finding *r = diagnosis_root_cause(d);

	return r ? r->rule->id : NULL;
}

#define E GPUENV_SEVERITY_ERROR
#define W GPUENV_SEVERITY_WARNING
#define I GPUENV_SEVERITY_INFO

static void test_table_is_sound(void **state)
{
	char err[256] = "";

	(void)state;
	if (rule_causes_check(rule_causes, rule_causes_len, err, sizeof(err)) != 0)
		fail_msg("rules-causes.c: %s", err);
	/* every layer has its own rank */
	for (int a = 0; a < RULE_LAYERS; a++)
		for (int b = a + 1; b < RULE_LAYERS; b++)
			assert_int_not_equal(rule_layer_rank[a], rule_layer_rank[b]);
}

static void refused(const struct rule_edge *e, size_t n, const char *want)
{
	char err[256] = "";

	assert_int_equal(rule_causes_check(e, n, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("want \"%s\" in \"%s\"", want, err);
}

static void test_bad_tables_refused(void **state)
{
	static const char why[] = "a reason long enough to count as one";
	const struct rule_edge cycle[] = {
		{ "driver.module-not-loaded", "hardware.gpu-without-driver", why },
		{ "hardware.gpu-without-driver", "runtime.no-driver-for-toolkit", why },
		{ "runtime.no-driver-for-toolkit", "driver.module-not-loaded", why },
	};
	const struct rule_edge self[] = { { "driver.module-not-loaded", "driver.module-not-loaded",
					    why } };
	const struct rule_edge unknown[] = { { "driver.no-such-rule", "driver.module-not-loaded",
					       why } };
	const struct rule_edge twice[] = {
		{ "driver.module-not-loaded", "hardware.gpu-without-driver", why },
		{ "driver.module-not-loaded", "hardware.gpu-without-driver", why },
	};
	const struct rule_edge no_why[] = { { "driver.module-not-loaded",
					      "hardware.gpu-without-driver", "" } };

	(void)state;
	refused(cycle, 3, "cycle");
	refused(self, 1, "explains itself");
	refused(unknown, 1, "driver.no-such-rule");
	refused(twice, 2, "twice");
	refused(no_why, 1, "no reason");
	/* the same edges without the one closing the cycle are fine */
	assert_int_equal(rule_causes_check(cycle, 2, (char[64]){ 0 }, 64), 0);
}

/* hardware.gpu-without-driver ← driver.module-not-loaded ← driver.secure-boot-unsigned-module */
static void test_chain(void **state)
{
	struct gpuenv_doctor *d = diag("hardware.gpu-without-driver", E, "driver.module-not-loaded",
				       E, "driver.secure-boot-unsigned-module", E, NULL);

	(void)state;
	rules_rank(d, rule_causes, rule_causes_len);
	assert_string_equal(cause_of(d, 0), "driver.module-not-loaded");
	assert_string_equal(cause_of(d, 1), "driver.secure-boot-unsigned-module");
	assert_null(cause_of(d, 2));
	assert_string_equal(root_of(d), "driver.secure-boot-unsigned-module");
	assert_true(finding_under_root(d, &d->findings[0]));
	diag_free(d);
}

/* A module the kernel refuses leaves the GPU to nouveau (RPM Fusion's nvidia-fallback): the
 * refusal explains nouveau owning the GPU, which explains the module not being loaded. */
static void test_refused_module_explains_nouveau(void **state)
{
	static const char *const refused[] = { "driver.secure-boot-unsigned-module",
					       "driver.secure-boot-key-not-enrolled" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct gpuenv_doctor *d = diag("driver.module-not-loaded", E,
					       "driver.nouveau-bound", E, refused[i], E, NULL);

		rules_rank(d, rule_causes, rule_causes_len);
		assert_string_equal(cause_of(d, 1), refused[i]);
		assert_string_equal(root_of(d), refused[i]);
		assert_true(finding_under_root(d, &d->findings[0]));
		diag_free(d);
	}
}

/* The middle of the chain did not fire: the consequence is explained further up. */
static void test_chain_across_a_gap(void **state)
{
	struct gpuenv_doctor *d = diag("hardware.gpu-without-driver", E,
				       "driver.secure-boot-unsigned-module", E, NULL);

	(void)state;
	rules_rank(d, rule_causes, rule_causes_len);
	assert_string_equal(cause_of(d, 0), "driver.secure-boot-unsigned-module");
	assert_string_equal(root_of(d), "driver.secure-boot-unsigned-module");
	diag_free(d);
}

/* A direct cause wins over one further up, though both fired. */
static void test_nearest_cause(void **state)
{
	struct gpuenv_doctor *d =
		diag("runtime.no-driver-for-toolkit", E, "driver.module-not-loaded", E,
		     "hardware.gpu-without-driver", E, NULL);

	(void)state;
	rules_rank(d, rule_causes, rule_causes_len);
	/* both module-not-loaded and gpu-without-driver explain it directly: the lower layer */
	assert_string_equal(cause_of(d, 0), "hardware.gpu-without-driver");
	assert_string_equal(cause_of(d, 2), "driver.module-not-loaded");
	assert_string_equal(root_of(d), "driver.module-not-loaded");
	diag_free(d);
}

static void test_ties(void **state)
{
	static const char why[] = "a reason long enough to count as one";
	/* a warning that explains an error outranks an unrelated warning of a lower layer */
	const struct rule_edge edges[] = {
		{ "runtime.toolkits-disagree", "framework.cpu-only-build", why },
	};
	struct gpuenv_doctor *d;

	(void)state;
	/* unconnected errors: the lower layer */
	d = diag("framework.no-kernel-image", E, "runtime.stub-libcuda", E, NULL);
	rules_rank(d, rule_causes, rule_causes_len);
	assert_string_equal(root_of(d), "runtime.stub-libcuda");
	diag_free(d);
	/* the same layer: the table's order */
	d = diag("driver.xid-errors", E, "driver.nvml-version-mismatch", E, NULL);
	rules_rank(d, rule_causes, rule_causes_len);
	assert_string_equal(root_of(d), "driver.nvml-version-mismatch");
	diag_free(d);
	/* an error outranks a warning of a lower layer */
	d = diag("hardware.pcie-link-degraded", W, "runtime.stub-libcuda", E, NULL);
	rules_rank(d, rule_causes, rule_causes_len);
	assert_string_equal(root_of(d), "runtime.stub-libcuda");
	diag_free(d);
	/* severity reached through consequences */
	d = diag("hardware.pcie-link-degraded", W, "runtime.toolkits-disagree", W,
		 "framework.cpu-only-build", E, NULL);
	rules_rank(d, edges, 1);
	assert_string_equal(cause_of(d, 2), "runtime.toolkits-disagree");
	assert_string_equal(root_of(d), "runtime.toolkits-disagree");
	diag_free(d);
	/* a container finding no edge connects ranks last */
	d = diag("container.no-gpu-devices", E, "driver.nvml-version-mismatch", E, NULL);
	rules_rank(d, rule_causes, rule_causes_len);
	assert_string_equal(root_of(d), "driver.nvml-version-mismatch");
	diag_free(d);
	/* an advisory warning (nothing fails today) ranks after any other warning, whatever
	 * the layers; alone, it is still the root cause */
	d = diag("driver.branch-eol", W, "runtime.mig-device-selection", W, NULL);
	rules_rank(d, rule_causes, rule_causes_len);
	assert_string_equal(root_of(d), "runtime.mig-device-selection");
	diag_free(d);
	d = diag("driver.branch-eol", W, NULL);
	rules_rank(d, rule_causes, rule_causes_len);
	assert_string_equal(root_of(d), "driver.branch-eol");
	diag_free(d);
}

static void test_no_root_cause(void **state)
{
	struct gpuenv_doctor *d =
		diag("driver.persistence-off", I, "framework.ptx-jit-only", I, NULL);

	(void)state;
	rules_rank(d, rule_causes, rule_causes_len);
	assert_null(root_of(d));
	diag_free(d);
	d = diag("driver.persistence-off", I, NULL);
	d->n_findings = 0;
	rules_rank(d, rule_causes, rule_causes_len);
	assert_null(root_of(d));
	diag_free(d);
}

/* Were a cycle ever to reach the code, the ranking still ends and still names a root cause. */
static void test_cycle_at_run_time(void **state)
{
	static const char why[] = "a reason long enough to count as one";
	const struct rule_edge cycle[] = {
		{ "driver.module-not-loaded", "hardware.gpu-without-driver", why },
		{ "hardware.gpu-without-driver", "driver.module-not-loaded", why },
	};
	struct gpuenv_doctor *d = diag("hardware.gpu-without-driver", E, "driver.module-not-loaded",
				       E, "driver.xid-errors", W, NULL);

	(void)state;
	rules_rank(d, cycle, 2);
	/* each explains the other: the worst finding, the lower layer */
	assert_string_equal(root_of(d), "hardware.gpu-without-driver");
	/* walking the looping causes towards a finding outside the loop ends, with false */
	assert_false(finding_under(d, &d->findings[0], 2));
	diag_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_is_sound),
		cmocka_unit_test(test_bad_tables_refused),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_chain_across_a_gap),
		cmocka_unit_test(test_refused_module_explains_nouveau),
		cmocka_unit_test(test_nearest_cause),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_no_root_cause),
		cmocka_unit_test(test_cycle_at_run_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
