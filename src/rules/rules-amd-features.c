// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * framework.rocm-gfx-unsupported, its target features: a ROCm build's code objects carry target IDs
 * ("gfx90a:sramecc+:xnack-", LLVM AMDGPUUsage "Target ID"): a processor and, for the
 * processors that have them, the sramecc and xnack features, each "+" (the code object only
 * runs with the feature on), "-" (only off) or left out ("any": runs either way). The
 * runtime loads a code object only when its processor is the GPU's and every feature it
 * names agrees with the GPU's setting, else "hipErrorNoBinaryForGpu" although the gfx is in
 * the build's list. The GPU's settings: sramecc is the KFD node's capability bit
 * (driver.amdgpu.kfd_nodes[].sramecc); xnack is the process's mode, which KFD sets
 * (Linux drivers/gpu/drm/amd/amdkfd: kfd_process_xnack_mode(), kfd_ioctl_set_xnack_mode()):
 *   - gfx90a and the MI300 family (gfx940, gfx941, gfx942) switch it per process: HSA_XNACK
 *     (1 on, 0 off), else the amdgpu noretry parameter (0: on, 1: off, -1: the chip's
 *     default, not known here);
 *   - gfx900, gfx906 and gfx908 run it as the GPU booted: retry on (noretry=0) or off
 *     (noretry=1; -1 is the chip's default, noretry=1 for GC 9.0.1, 9.4.0 and 9.4.1 in
 *     amdgpu_gmc_noretry_set(), drivers/gpu/drm/amd/amdgpu/amdgpu_gmc.c). A process may
 *     always turn it off (HSA_XNACK=0: KFD refuses only turning it on), and turns it on only
 *     where the GPU booted with retry on. So "gfx906:sramecc+:xnack-" in rocminfo with
 *     HSA_XNACK=0 and =1 on a default boot (amd-lab-notes discussion 5), and a gfx906 in
 *     xnack+ mode, its rocBLAS built for gfx906:xnack- only, fixed by HSA_XNACK=0
 *     (ROCm/rocBLAS#1422).
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/strbuf.h"

static bool gfx_in(const char *gfx, const char *const list[])
{
	for (size_t i = 0; list[i]; i++)
		if (streq(gfx, list[i]))
			return true;
	return false;
}

/* The amdgpu noretry parameter as an XNACK setting at boot: 1 on, 0 off, -1 not known.
 * chip_default_off: the chip's default (noretry=-1) is known to be noretry=1. */
static int boot_xnack(bool have_nr, int64_t nr, bool chip_default_off)
{
	if (!have_nr)
		return -1;
	if (nr == 0 || nr == 1)
		return nr == 0;
	return nr == -1 && chip_default_off ? 0 : -1;
}

/* Where a boot-fixed GPU's XNACK mode comes from; nr is -1, 0 or 1. */
static const char *boot_fixed_why(int64_t nr, bool env_on)
{
	static const char *const why[3][2] = {
		{ "amdgpu noretry left to the chip's default, off; HSA_XNACK unset",
		  "amdgpu noretry left to the chip's default, off: HSA_XNACK=1 cannot turn it on" },
		{ "amdgpu noretry=0, HSA_XNACK unset", "amdgpu noretry=0, HSA_XNACK=1" },
		{ "amdgpu noretry=1, HSA_XNACK unset",
		  "amdgpu noretry=1: HSA_XNACK=1 cannot turn it on" },
	};

	return why[nr + 1][env_on];
}

void amd_node_features(const struct snap_node *root, const struct snap_node *node, const char *gfx,
		       struct amd_features *ret)
{
	static const char *const switchable[] = { "gfx90a", "gfx940", "gfx941", "gfx942", NULL };
	static const char *const boot_fixed[] = { "gfx900", "gfx906", "gfx908", NULL };
	const struct snap_node *sr = snap_child(node, "sramecc");
	const char *env = snap_get_str(root, "driver.amdgpu.hsa_xnack");
	bool env_on = env && streq(env, "1"), env_off = env && streq(env, "0");
	int64_t nr = -1;
	bool have_nr = snap_get_int(root, "driver.amdgpu.noretry", &nr);

	ret->sramecc = snap_present(sr) ? snap_get_bool_default(node, "sramecc", false) : -1;
	ret->xnack = -1;
	ret->xnack_at_boot = gfx_in(gfx, boot_fixed);
	ret->xnack_why = "the process's XNACK mode is not known";
	if (ret->xnack_at_boot) {
		int boot = boot_xnack(have_nr, nr, true);

		if (env_off) {
			ret->xnack = 0;
			ret->xnack_why = "HSA_XNACK=0";
		} else if (boot < 0) {
			ret->xnack_why = "the amdgpu noretry parameter is not known";
		} else {
			ret->xnack = boot;
			ret->xnack_why = boot_fixed_why(nr, env_on);
		}
	} else if (gfx_in(gfx, switchable)) {
		int boot = boot_xnack(have_nr, nr, false);

		if (env_on || env_off) {
			ret->xnack = env_on;
			ret->xnack_why = env_on ? "HSA_XNACK=1" : "HSA_XNACK=0";
		} else if (boot >= 0) {
			ret->xnack = boot;
			ret->xnack_why = boot ? "amdgpu noretry=0, HSA_XNACK unset"
					      : "amdgpu noretry=1, HSA_XNACK unset";
		} else {
			ret->xnack_why = "HSA_XNACK unset and amdgpu noretry left to the chip's "
					 "default";
		}
	}
}

/* A feature a target ID names: 1 "+", 0 "-", -1 not named (any). */
static int tid_feature(const char *tid, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strchr(tid, ':'); p; p = strchr(p + 1, ':'))
		if (strncmp(p + 1, name, n) == 0 && (p[1 + n] == '+' || p[1 + n] == '-'))
			return p[1 + n] == '+';
	return -1;
}

/* 1 agrees, 0 conflicts, -1 not known (the GPU's setting is not). */
static int feature_agrees(int want, int have)
{
	if (want < 0)
		return 1;
	if (have < 0)
		return -1;
	return want == have;
}

enum amd_tid_match amd_targets_match(const struct snap_node *targets, const char *gfx,
				     const struct amd_features *f, const char **ret_target)
{
	enum amd_tid_match best = AMD_TID_NONE;

	*ret_target = NULL;
	for (size_t i = 0; i < snap_count(targets); i++) {
		const struct snap_node *t = snap_at(targets, i);
		const char *tid = snap_get_str(t, "target") ?: snap_get_str(t, "gfx");
		int s, x;

		if (!streq(snap_get_str(t, "gfx") ?: "", gfx) || !tid)
			continue;
		if (!*ret_target)
			*ret_target = tid;
		s = feature_agrees(tid_feature(tid, "sramecc"), f->sramecc);
		x = feature_agrees(tid_feature(tid, "xnack"), f->xnack);
		if (s == 1 && x == 1)
			return AMD_TID_MATCH;
		if (s != 0 && x != 0)
			best = AMD_TID_MAYBE;
		else if (best == AMD_TID_NONE)
			best = AMD_TID_MISMATCH;
	}
	return best;
}

struct feat_ctx {
	struct rule_ctx *c;
	const struct snap_node *root, *kfd;
};

static const char *onoff(int v)
{
	return v < 0 ? "not known" : v ? "on" : "off";
}

static void feat_one(const struct fw_build *b, void *u)
{
	struct feat_ctx *x = u;
	const struct snap_node *tn;
	bool from_bi;

	if (!snap_str(fw_hip_version(b)))
		return;
	tn = fw_targets(b, &from_bi);
	if (snap_kind(tn) != SNAP_ARRAY)
		return;
	for (size_t k = 0; k < snap_count(x->kfd); k++) {
		const struct snap_node *n = snap_at(x->kfd, k);
		const char *gfx = amd_kfd_gfx_once(x->root, x->kfd, k), *tid;
		struct strbuf ids = STRBUF_INIT;
		struct amd_features f;
		enum amd_tid_match m;
		struct finding *fd;
		char key[160];

		if (!gfx)
			continue;
		amd_node_features(x->root, n, gfx, &f);
		m = amd_targets_match(tn, gfx, &f, &tid);
		if (m == AMD_TID_NONE || m == AMD_TID_MATCH)
			continue; /* no code for gfx at all: gfx_one()'s finding */
		for (size_t i = 0; i < snap_count(tn); i++)
			if (streq(snap_get_str(snap_at(tn, i), "gfx") ?: "", gfx))
				strbuf_printf(&ids, "%s%s", ids.len ? " " : "",
					      snap_get_str(snap_at(tn, i), "target") ?: gfx);
		fd = rule_finding(
			x->c, m == AMD_TID_MISMATCH ? GPUENV_SEVERITY_ERROR : GPUENV_SEVERITY_INFO,
			b->prefix,
			"%s in %s has %s code only as %s; this GPU runs with sramecc %s and xnack "
			"%s (%s): %s",
			b->label, b->prefix, gfx, strbuf_str(&ids), onoff(f.sramecc),
			onoff(f.xnack), f.xnack_why,
			m == AMD_TID_MISMATCH
				? "ROCm loads none of them, \"hipErrorNoBinaryForGpu\""
				: "could not tell whether ROCm can load them");
		snprintf(key, sizeof(key), "driver.amdgpu.kfd_nodes.%zu.gfx", k);
		finding_fact(fd, key, snap_child(n, "gfx"));
		snprintf(key, sizeof(key), "driver.amdgpu.kfd_nodes.%zu.sramecc", k);
		if (snap_child(n, "sramecc"))
			finding_fact(fd, key, snap_child(n, "sramecc"));
		for (size_t i = 0; i < 2; i++) {
			static const char *const xk[] = { "driver.amdgpu.hsa_xnack",
							  "driver.amdgpu.noretry" };

			if (snap_get(x->root, xk[i]))
				finding_fact(fd, xk[i], snap_get(x->root, xk[i]));
		}
		snprintf(key, sizeof(key), "%s.arch_targets", b->key);
		finding_evidence(fd, key, snap_source(snap_child(snap_at(tn, 0), "gfx")) ?: "?",
				 "%s", strbuf_str(&ids));
		if (tid_feature(tid, "xnack") >= 0 && tid_feature(tid, "xnack") != f.xnack) {
			int want = tid_feature(tid, "xnack");

			if (want == 0 || !f.xnack_at_boot)
				finding_fix(
					fd,
					"export HSA_XNACK=%d   # the mode %s's code was built for",
					want, tid);
			else
				finding_fix(
					fd,
					"# boot with amdgpu.noretry=0 (kernel command line) and "
					"export HSA_XNACK=1: %s turns XNACK on only where the GPU "
					"booted with retry on (%s's mode)",
					gfx, tid);
		}
		finding_fix(fd,
			    "# or a %s build whose PYTORCH_ROCM_ARCH lists %s without features (or "
			    "with this GPU's)",
			    fw_module(b), gfx);
		finding_rule_verify(fd);
		strbuf_done(&ids);
	}
}

void amd_check_target_features(struct rule_ctx *c, const struct snap_node *root)
{
	struct feat_ctx x = { c, root, snap_get(root, "driver.amdgpu.kfd_nodes") };

	if (snap_kind(x.kfd) != SNAP_ARRAY || !amd_kfd_gfx(root, NULL))
		return;
	fw_foreach(root, feat_one, &x);
}
