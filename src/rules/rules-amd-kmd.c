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
 * The kernel's own amdgpu has no version file and no row in AMD's matrix: not judged here.
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

RULE_CHECK(check_amdgpu_kmd_userspace)
{
	const struct snap_node *mod = snap_get(root, "driver.amdgpu.module_version");
	const struct snap_node *pkg = snap_get(root, "driver.amdgpu.dkms_package");
	const struct facts_amdgpu_kmd *row = NULL;
	const struct snap_node *rocm;
	const char *user;
	struct dkms_version dv;
	struct finding *f;
	int sup;

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
	rocm = amd_chosen_rocm(root);
	user = rocm ? snap_get_str(rocm, "version") : NULL;
	if (!user)
		return; /* no ROCm release installed to judge against */
	sup = facts_amdgpu_kmd_supports(dv.release, user, &row);
	if (sup < 0) {
		rule_skip(c, NULL,
			  "AMD's support matrix has no row for the kernel driver of ROCm %s",
			  dv.release);
		return;
	}
	if (sup == 1)
		return;
	f = rule_finding(
		c,
		major_minor(user) > major_minor(dv.release) ? GPUENV_SEVERITY_ERROR
							    : GPUENV_SEVERITY_WARNING,
		NULL,
		"ROCm %s runs on amdgpu %s, the kernel driver of ROCm %s (%s): AMD supports "
		"ROCm %s on it, not %s",
		user, dv.base, dv.release, snap_str(pkg), row->user_space, user);
	finding_fact(f, "runtime.rocm.version", snap_child(rocm, "version"));
	finding_fact(f, "driver.amdgpu.dkms_package", pkg);
	finding_evidence(f, "facts.amdgpu_kmd", "amdgpu_kmd.tsv", "KMD %s: user space %s", row->kmd,
			 row->user_space);
	finding_rule_fix(f);
	finding_rule_verify(f);
}
