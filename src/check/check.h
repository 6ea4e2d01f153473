/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * `gpuenv check` (docs/policy.md): a policy (src/formats/policy.h) judged against a diagnosis
 * (the snapshot and the doctor's findings). check_run() is a pure function of the two and
 * the date waivers are judged on: one clause per policy key (pass, fail or skipped by the
 * profile), one entry per rule of the catalogue (failing, waived, below the failing
 * severity, outside the profile, skipped by the doctor), and the result the exit code
 * says. Renderers (src/output/out-check*.c) print it and compute nothing.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "gpuenv/gpuenv.h"
#include "rules/rules.h"

struct gpuenv_policy;

enum check_status {
	CHECK_PASS = 0,
	CHECK_FAIL,
	CHECK_SKIP, /* not judged: the profile excludes it, or the doctor could not check */
};

/* One policy clause: "gpus.count", "driver.version", "frameworks.torch",
 * "architectures.sm_90", "waivers[0]". */
struct check_clause {
	char *id;
	unsigned line; /* of the policy file; 0 for a clause every check has */
	enum check_status status;
	char *message; /* what was found, one line */
};

/* One rule of the catalogue as the policy judges it. */
enum check_rule_state {
	CHECK_RULE_PASS = 0, /* ran, no finding */
	CHECK_RULE_FAILS,    /* a finding at or above fail_on, not waived */
	CHECK_RULE_WAIVED,   /* a finding a valid waiver allows */
	CHECK_RULE_BELOW,    /* findings below fail_on */
	CHECK_RULE_PROFILE,  /* its layer is not judged in this profile */
	CHECK_RULE_NOT_RUN,  /* the doctor skipped it: could not read what it needs */
};
struct check_rule {
	const struct rule *rule;
	enum check_rule_state state;
	size_t waiver; /* index + 1 into the policy's waivers, 0 none */
	char *message; /* the first finding's message, the skip reason, or NULL */
};

/* The public struct gpuenv_check (include/gpuenv/gpuenv.h). */
struct gpuenv_check {
	const struct gpuenv_doctor *doctor; /* borrowed: outlives the check */
	const struct gpuenv_policy *policy; /* borrowed, likewise */
	char *policy_path;		    /* for SARIF/annotation locations, or NULL */
	char today[11];
	struct check_clause *clauses;
	size_t n_clauses;
	struct check_rule *rules;
	size_t n_rules;
	enum gpuenv_check_result result;
	int err;
};

/* d and p are borrowed and must outlive the check; today is "YYYY-MM-DD" (waiver expiry).
 * 0, -EINVAL, -ENOMEM. */
int check_run(const struct gpuenv_doctor *d, const struct gpuenv_policy *p, const char *policy_path,
	      const char *today, struct gpuenv_check **ret);
struct gpuenv_check *check_free(struct gpuenv_check *c);
const char *check_status_name(enum check_status s);
const char *check_rule_state_name(enum check_rule_state s);
/* The finding of d behind rule entry r at or above its worst severity, or NULL. */
const struct finding *check_rule_finding(const struct gpuenv_check *c, const struct check_rule *r);
/* The rule is judged in the check's profile (build: the runtime and framework layers, less
 * the rules about the machine's driver and GPUs, check_build_host_excluded[]). */
bool check_rule_judged(const struct gpuenv_check *c, const struct rule *r);
extern const char *const check_build_host_excluded[];

/* check-target.c: the snapshot of the machine a `--target` string names (its GPUs and driver,
 * src/formats/target-spec.h), for snapshot_with_host(). 0; -EINVAL (a malformed string),
 * -ENOENT (a GPU the knowledge base does not know), -EOPNOTSUPP, each with *ret_why
 * (malloc'd: field and column for a malformed one); -ENOMEM. */
int check_target_snapshot(const char *spec, struct gpuenv_snapshot **ret, char **ret_why);
