/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The `gpuenv check` policy file (docs/policy.md): a YAML mapping (YAML 1.1, read with
 * libyaml, Debian libyaml-dev) of what a machine or image must have, which findings are
 * waived and which severity fails. Parsing takes (ptr, len), is pure and capped
 * (POLICY_MAX_*); every schema error names its line ("line 7: driver.branches: 'abc' is not
 * a driver branch"). The constraints are kept parsed, with the line each came from, so a
 * failed clause can point back into the file.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "shared/parse.h"

#define POLICY_MAX_INPUT ((size_t)1 << 20) /* bytes; a real policy is a few hundred */
#define POLICY_MAX_NODES 20000u
#define POLICY_MAX_DEPTH 16u
#define POLICY_MAX_ITEMS 256u /* entries of one list or mapping */
#define POLICY_MAX_CMP	 8u   /* comparisons in one version constraint */
#define POLICY_MAX_TEXT	 512u /* bytes of one scalar */
#define POLICY_MAX_BINS	 64u  /* architectures.binaries entries */

enum policy_profile {
	POLICY_PROFILE_RUNTIME = 0, /* a GPU node: everything is judged */
	POLICY_PROFILE_BUILD,	    /* a build host: no GPU, no driver needed */
};

enum policy_op {
	POLICY_OP_EQ,
	POLICY_OP_NE,
	POLICY_OP_LT,
	POLICY_OP_LE,
	POLICY_OP_GT,
	POLICY_OP_GE
};

/* ">=12.1, <13": every comparison must hold. "12.4.*" is written "==12.4.*" or "12.4.*" and
 * matches the version's first fields (PEP 440's prefix match, without its other forms). */
struct policy_cmp {
	enum policy_op op;
	struct version v;
	bool prefix; /* "==12.4.*": compare only v.n fields */
};
struct policy_constraint {
	char *text; /* as written, NULL when the key is not in the file */
	unsigned line;
	struct policy_cmp cmp[POLICY_MAX_CMP];
	size_t n;
};

struct policy_framework {
	char *name; /* the package key: torch, tensorflow, jax, cupy, … */
	struct policy_constraint version;
};

struct policy_waiver {
	char *rule;	  /* a rule id ("runtime.library-shadowed"); checked by the caller */
	char *reason;	  /* required, non-empty */
	char expires[11]; /* "YYYY-MM-DD" */
	unsigned line;
};

struct policy_target {
	char *name; /* as written: "sm_90", "9.0" */
	unsigned major, minor;
	unsigned line;
};

/* A binary whose GPU code the architecture targets also bind: an absolute path in the tree
 * judged (the machine, --sysroot, --image, a --wheel's installed place), whose components
 * may be fnmatch(3) patterns ("/usr/local/lib/python3.1?/site-packages/pkg/lib?*.so"). */
struct policy_binary {
	char *pattern;
	unsigned line;
};

/* What src/libgpuenv-check-binaries.c read of the binaries (src/check/check.h): kept with
 * the policy it was read for, freed by policy_free() through the function it set. */
struct check_binaries;

struct gpuenv_policy {
	unsigned line_profile, line_fail_on;
	enum policy_profile profile;
	int fail_on; /* enum gpuenv_severity: 0 info, 1 warning, 2 error */

	/* gpus: */
	bool has_gpu_count, has_gpu_cc;
	unsigned gpu_count, line_gpu_count;
	unsigned gpu_cc_major, gpu_cc_minor, line_gpu_cc;
	char *gpu_model; /* fnmatch(3) pattern, matched without case */
	unsigned line_gpu_model;

	/* driver: */
	struct policy_constraint driver_version;
	unsigned *driver_branches;
	size_t n_driver_branches;
	unsigned line_driver_branches;

	/* cuda: */
	struct policy_constraint cuda_toolkit, cuda_runtime;
	bool cuda_consistent;
	unsigned line_cuda_consistent;

	struct policy_framework *frameworks;
	size_t n_frameworks;

	/* architectures: */
	struct policy_target *arch_targets;
	size_t n_arch_targets;
	bool arch_allow_ptx;
	struct policy_binary *arch_binaries;
	size_t n_arch_binaries;
	unsigned line_arch_binaries;
	struct check_binaries *binaries_read; /* NULL: not read (gpuenv_policy_read_binaries) */
	void (*binaries_free)(struct check_binaries *);
	/* an image's GPU libraries, found without a pattern (gpuenv_policy_read_binaries) */
	struct check_binaries *image_libraries;

	struct policy_waiver *waivers;
	size_t n_waivers;
};

struct policy_error {
	unsigned line; /* 1-based; 0 when the error has no place (too large, not YAML) */
	char why[256];
};

/* 0; -EBADMSG (not YAML, or not a policy: err says where and why); -E2BIG (a cap);
 * -ENOMEM. An empty document is a policy with no clause. */
int policy_parse(const char *data, size_t len, struct gpuenv_policy **ret,
		 struct policy_error *err);
struct gpuenv_policy *policy_free(struct gpuenv_policy *p);
static inline void policy_freep(struct gpuenv_policy **p)
{
	policy_free(*p);
}

/* Parses a constraint ("<=560, >=535.104"); -EINVAL with why written on error. */
int policy_constraint_parse(const char *s, struct policy_constraint *ret, char *why, size_t whylen);
/* Does version (its dotted-decimal prefix: "2.4.0+cu124" is 2.4.0) satisfy c? -EINVAL when
 * version has no such prefix, else true/false. */
int policy_constraint_matches(const struct policy_constraint *c, const char *version);
/* "2027-01-31": a real calendar date. */
bool policy_date_valid(const char *s);
const char *policy_profile_name(enum policy_profile p);
