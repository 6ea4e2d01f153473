// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * driver.amdgpu-kmd-userspace: AMD's kernel driver (amdgpu-dkms, the "KMD") against the ROCm
 * user space that runs on it. AMD supports a ROCm release only on the KMD of a few releases
 * around it ("User and AMD GPU Driver (amdgpu) support matrix", facts/amdgpu_kmd.tsv). Which
 * release a KMD came with is in its Debian package's version, "1:6.8.5.60200-2009582.24.04":
 * the module's kernel base 6.8.5, then ROCm's five-digit release number (60200 = 6.2.0, the
 * number every ROCm package version carries: rocm-core 5.1.3.50103). The loaded module says
 * its kernel base in /sys/module/amdgpu/version; when that is not the package's, the package
 * on disk is not what runs (its DKMS build failed for the running kernel, or no reboot since).
 * The kernel's own amdgpu has no version file and no row in AMD's matrix; only the ROCm
 * releases known not to work on it for a GPU (rocm_kernel_amdgpu.tsv) are judged there.
 * A torch ROCm wheel runs on the ROCm it bundles, judged on the KMD as the system's is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts-amd.h"
#include "rules/rules-internal.h"

struct dkms_version {
	char base[32];	  /* "6.8.5" */
	char release[48]; /* "6.2" */
};

/* "1:6.8.5.60200-2009582.24.04" → base "6.8.5", release "6.2". False for any other shape
 * (the AMD GPU Driver 30.x packages of ROCm 7 carry no ROCm release number). */
static bool dkms_version_parse(const char *pkg, struct dkms_version *ret)
{
	const char *p = strchr(pkg, ':') ? strchr(pkg, ':') + 1 : pkg;
	size_t n = strcspn(p, "-"), dot = n;
	unsigned long rel = 0;

	while (dot > 0 && p[dot - 1] != '.')
		dot--;
	if (dot < 2 || n - dot != 5 || dot - 1 >= sizeof(ret->base) ||
	    strspn(p + dot, "0123456789") != 5 || strspn(p, "0123456789.") < dot)
		return false;
	for (size_t i = dot; i < n; i++)
		rel = rel * 10 + (unsigned long)(p[i] - '0');
	snprintf(ret->base, sizeof(ret->base), "%.*s", (int)(dot - 1), p);
	snprintf(ret->release, sizeof(ret->release), "%lu.%lu", rel / 10000, rel / 100 % 100);
	return strchr(ret->base, '.') != NULL;
}

/* The major.minor of a version as a number to order releases by: "6.10.1" → 610. */
static long major_minor(const char *v)
{
	unsigned ma = 0, mi = 0;

	return sscanf(v, "%u.%u", &ma, &mi) == 2 ? (long)ma * 100 + mi : -1;
}

/* Judges one ROCm user space (the system's, or b's bundled one) on the KMD of dv by AMD's
 * matrix (it has a row for dv->release): newer than the row allows is an error, older a
 * warning. */
static void judge_user_space(struct rule_ctx *c, const struct dkms_version *dv,
			     const struct snap_node *pkg, const char *user,
			     const struct fw_build *b, const char *fact_name,
			     const struct snap_node *fact)
{
	const struct facts_amdgpu_kmd *row = NULL;
	enum gpuenv_severity sev;
	unsigned ma = 0, mi = 0;
	struct finding *f;

	if (facts_amdgpu_kmd_supports(dv->release, user, &row) != 0 || !row)
		return; /* supported, or no major.minor in user */
	sev = major_minor(user) > major_minor(dv->release) ? GPUENV_SEVERITY_ERROR
							   : GPUENV_SEVERITY_WARNING;
	if (!b)
		f = rule_finding(
			c, sev, NULL,
			"ROCm %s runs on amdgpu %s, the kernel driver of ROCm %s (%s): AMD "
			"supports ROCm %s on it, not %s",
			user, dv->base, dv->release, snap_str(pkg), row->user_space, user);
	else {
		(void)sscanf(user, "%u.%u", &ma, &mi);
		f = rule_finding(
			c, sev, b->prefix,
			"%s in %s runs on the ROCm it bundles (HIP %s), whatever /opt/rocm "
			"holds, on amdgpu %s, the kernel driver of ROCm %s (%s): AMD supports "
			"ROCm %s on it, not %u.%u",
			b->label, b->prefix, user, dv->base, dv->release, snap_str(pkg),
			row->user_space, ma, mi);
	}
	finding_fact(f, fact_name, fact);
	finding_fact(f, "driver.amdgpu.dkms_package", pkg);
	finding_evidence(f, "facts.amdgpu_kmd", "amdgpu_kmd.tsv", "KMD %s: user space %s", row->kmd,
			 row->user_space);
	if (b)
		finding_fix(f,
			    "# or, in %s, a %s build for a ROCm release AMD supports on this "
			    "driver (%s): %s install torch --index-url "
			    "https://download.pytorch.org/whl/rocm<release>",
			    b->prefix, fw_module(b), row->user_space, b->pip);
	finding_rule_fix(f);
	finding_rule_verify(f);
}

struct bundled_ctx {
	struct rule_ctx *c;
	const struct dkms_version *dv;
	const struct snap_node *pkg;
};

/* A torch ROCm wheel brings its own ROCm user space in torch/lib and uses it whatever
 * /opt/rocm holds: its HIP (torch.version.hip, "6.2.41133-dd7f95766") is judged on the KMD
 * as the system's ROCm is. A build without its own libamdhip64 uses the system's, judged
 * above. */
static void bundled_one(const struct fw_build *b, void *u)
{
	const struct bundled_ctx *x = u;
	char key[160];

	if (!fw_bundles_hip(b)) {
		/* a torch whose HIP version or torch/lib could not be read may bundle a ROCm
		 * this driver does not support: could not tell */
		if (fw_hip_unread(b))
			rule_need(x->c, b->prefix, "whether the framework bundles its ROCm",
				  fw_hip_unread(b));
		return;
	}
	snprintf(key, sizeof(key), "%s.hip", b->key);
	judge_user_space(x->c, x->dv, x->pkg, snap_str(fw_hip_version(b)), b, key,
			 fw_hip_version(b));
}

/* The kernel's own amdgpu (loaded, no version file) has no row in AMD's matrix, but a ROCm
 * user space can need more than that kernel's KFD gives: ROCm 4.1 disables Vega 20 on the
 * amdgpu of kernels 5.10-5.12 (rocm_kernel_amdgpu.tsv: ROCm/legacy-rocm-build#1431, #1423).
 * Only what that table names is judged. */
static void judge_kernel_amdgpu(struct rule_ctx *c, const struct snap_node *root)
{
	const struct snap_node *kfd = snap_get(root, "driver.amdgpu.kfd_nodes");
	const struct snap_node *rel = snap_get(root, "host.kernel_release");
	const struct snap_node *rocm = amd_chosen_rocm(root);
	const char *user = rocm ? snap_get_str(rocm, "version") : NULL;
	const struct facts_rocm_kernel_amdgpu *row;
	struct finding *f;

	if (!snap_get_bool_default(root, "driver.kernel_modules.amdgpu", false) || !snap_str(rel))
		return;
	if (!user) {
		/* a ROCm release whose version, or a place ROCm is looked for, could not be
		 * read: could not tell, never "no ROCm" */
		const struct snap_node *unread = amd_rocm_unread(root);

		if (unread)
			rule_need(c, NULL, "the ROCm release on the kernel's own amdgpu", unread);
		return;
	}
	if (kfd && fact_is_failure(snap_state(kfd))) {
		/* which GPU runs is not known: say so where the table names this pair at all */
		for (size_t i = 0; i < facts_rocm_kernel_amdgpu_table_len; i++)
			if (facts_rocm_kernel_amdgpu(user,
						     facts_rocm_kernel_amdgpu_table_rows()[i].gfx,
						     snap_str(rel), NULL) == 1) {
				rule_need(c, NULL, "the GPU's target (KFD topology)", kfd);
				return;
			}
		return;
	}
	for (size_t k = 0; k < snap_count(kfd); k++) {
		const char *gfx = amd_kfd_gfx_once(root, kfd, k);
		char key[64];

		if (!gfx || facts_rocm_kernel_amdgpu(user, gfx, snap_str(rel), &row) != 1)
			continue;
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, gfx,
			"ROCm %s runs on the kernel's own amdgpu (Linux %s, no amdgpu-dkms "
			"loaded), which AMD says ROCm %s does not work on for %s (kernels "
			"%s to %s): ROCm disables the GPU (\"%s\")",
			user, snap_str(rel), row->rocm, gfx, row->kernel_from, row->kernel_to,
			row->what);
		finding_fact(f, "runtime.rocm.version", snap_child(rocm, "version"));
		finding_fact(f, "host.kernel_release", rel);
		finding_fact(f, "driver.amdgpu.module_version",
			     snap_get(root, "driver.amdgpu.module_version"));
		snprintf(key, sizeof(key), "driver.amdgpu.kfd_nodes.%zu.gfx", k);
		finding_fact(f, key, snap_get(snap_at(kfd, k), "gfx"));
		finding_evidence(f, "facts.rocm_kernel_amdgpu", "rocm_kernel_amdgpu.tsv",
				 "ROCm %s, %s: not on the kernel's amdgpu of %s to %s (%s)",
				 row->rocm, row->gfx, row->kernel_from, row->kernel_to,
				 row->source);
		finding_fix(
			f,
			"# AMD's kernel driver of the same release (ROCm %s's rock-dkms/amdgpu-dkms "
			"with its user space), or a ROCm release that works on this kernel's "
			"amdgpu",
			row->rocm);
		finding_verify(f, "rocminfo | grep -m2 -e gfx -e 'HSA Error'");
	}
}

RULE_CHECK(check_amdgpu_kmd_userspace)
{
	const struct snap_node *mod = snap_get(root, "driver.amdgpu.module_version");
	const struct snap_node *pkg = snap_get(root, "driver.amdgpu.dkms_package");
	const struct snap_node *rocm;
	struct bundled_ctx x;
	const char *user;
	struct dkms_version dv;
	struct finding *f;

	if (mod && snap_state(mod) == FACT_ABSENT) {
		/* no version file: the kernel's own amdgpu, unless /proc/modules marks it out of
		 * tree (a DKMS build whose release is then not known) */
		if (!snap_get_bool_default(root, "driver.amdgpu.out_of_tree", false))
			judge_kernel_amdgpu(c, root);
		return;
	}
	if (!snap_present(mod) || !pkg)
		return; /* no versioned (AMD-built) amdgpu loaded */
	if (!rule_need_known(c, NULL, "the amdgpu-dkms package", pkg) || !snap_present(pkg))
		return; /* not installed as a Debian package: the release is not known */
	if (!dkms_version_parse(snap_str(pkg), &dv)) {
		rule_skip(c, NULL, "amdgpu-dkms %s carries no ROCm release number to judge by",
			  snap_str(pkg));
		return;
	}
	if (!streq(snap_str(mod), dv.base)) {
		f = rule_finding(c, GPUENV_SEVERITY_WARNING, NULL,
				 "the loaded amdgpu is %s, but the amdgpu-dkms installed is %s "
				 "(amdgpu %s, the driver of ROCm %s): its DKMS build did not reach "
				 "the running kernel, or the machine was not rebooted since",
				 snap_str(mod), snap_str(pkg), dv.base, dv.release);
		finding_fact(f, "driver.amdgpu.module_version", mod);
		finding_fact(f, "driver.amdgpu.dkms_package", pkg);
		finding_fix(f,
			    "sudo dkms status amdgpu   # 'installed' for $(uname -r)? else "
			    "/var/lib/dkms/amdgpu/%s-*/build/make.log says why",
			    dv.base);
		finding_rule_fix(f);
		finding_rule_verify(f);
		return;
	}
	if (facts_amdgpu_kmd_supports(dv.release, dv.release, NULL) < 0) {
		rule_skip(c, NULL,
			  "AMD's support matrix has no row for the kernel driver of ROCm %s",
			  dv.release);
		return;
	}
	rocm = amd_chosen_rocm(root);
	user = rocm ? snap_get_str(rocm, "version") : NULL;
	if (user)
		judge_user_space(c, &dv, pkg, user, NULL, "runtime.rocm.version",
				 snap_child(rocm, "version"));
	fw_need_complete(c, root); /* a wheel in an environment not read is not taken as none */
	x = (struct bundled_ctx){ c, &dv, pkg };
	fw_foreach(root, bundled_one, &x);
}
