// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * runtime.cuda-compat-unsupported: a CUDA forward-compatibility libcuda (NVIDIA's cuda-compat
 * package, libcuda.so.<driver version> of a newer driver branch) is what ld.so gives programs
 * where it cannot work. NVIDIA's "CUDA Compatibility" guide (§ Forward Compatibility): the
 * compat libcuda must be newer than the kernel driver (an older one fails cuInit with
 * CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, 803), and it is supported on data-center GPUs only (others
 * get CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, 804). Newer, on data-center GPUs, the package
 * must also be one NVIDIA supports on the module's branch (§ Use the Right CUDA Forward
 * Compatibility Package: end-of-life branches and New Feature Branches are not supported
 * targets; facts/data/cuda_compat.tsv). Reads driver.userspace.{libcuda, libnvidia_ml,
 * compat_libcuda[]}, the loaded module's version and the GPUs' market segment (facts/gpus.tsv).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "facts/facts-compat.h"
#include "rules/rules-internal.h"
#include "shared/parse.h"

/* Whether the libcuda ld.so picks is a forward-compatibility copy: by its file (one of the
 * cuda-compat files found, or in a compat/ directory as the package installs it) or, wherever
 * it is mounted (containers bind it elsewhere), by its version: NVML, which cuda-compat does
 * not ship, matches the kernel module while libcuda is of a newer driver. */
bool libcuda_is_compat(const struct snap_node *root, const struct snap_node *cu, const char *drv,
		       const char **ret_how)
{
	const char *cv = snap_get_str(cu, "version"), *how;
	const struct snap_node *compat = snap_get(root, "driver.userspace.compat_libcuda");
	const char *rp = snap_get_str(cu, "resolved_path");
	const char *nv = snap_get_str(root, "driver.userspace.libnvidia_ml.version");

	if (!ret_how)
		ret_how = &how;
	if (!cv || !drv)
		return false;

	for (size_t i = 0; rp && i < snap_count(compat); i++)
		if (streq(snap_get_str(snap_at(compat, i), "resolved_path") ?: "", rp)) {
			*ret_how = "a cuda-compat package's file";
			return true;
		}
	if (snap_get_bool_default(cu, "in_compat_dir", false)) {
		*ret_how = "in a compat directory";
		return true;
	}
	if (nv && streq(nv, drv) && version_cmp_str(cv, drv) > 0) {
		*ret_how = "newer than the driver's own libnvidia-ml";
		return true;
	}
	return false;
}

const char *cuda_driver_effective(const struct snap_node *root, const char *drv)
{
	const struct snap_node *cu = snap_get(root, "driver.userspace.libcuda");
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	const char *cv = snap_get_str(cu, "version");
	size_t nv = 0;

	if (!drv || !cv || snap_get_bool_default(cu, "is_stub", false) ||
	    snap_child(cu, "undetermined") || version_cmp_str(cv, drv) <= 0 ||
	    !libcuda_is_compat(root, cu, drv, NULL))
		return drv;
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct facts_gpu *fg;

		if (!gpu_is_nvidia(snap_at(gpus, i)))
			continue;
		nv++;
		if (gpu_facts(snap_at(gpus, i), &fg) < 0 || !fg->segment ||
		    !streq(fg->segment, "datacenter"))
			return drv; /* 804, or not known to work: runtime.cuda-compat-unsupported */
	}
	return nv ? cv : drv;
}

/* The cuda-compat package a forward-compatibility libcuda of version cv is: its branch's
 * column of NVIDIA's table, else the CUDA the branch reports (driver_branches.tsv); NULL when
 * neither knows the branch. */
static const char *compat_package(const char *cv, char *buf, size_t len)
{
	const char *p = facts_cuda_compat_package_of(cv);
	struct facts_driver_cuda dc;

	if (p)
		return p;
	if (facts_cuda_newest_for_driver(cv, &dc) < 0 || dc.lower_bound || !dc.cuda)
		return NULL;
	snprintf(buf, len, "%s", dc.cuda);
	return buf;
}

/* A newer compat libcuda on data-center GPUs: whether NVIDIA supports its package on the
 * module's branch. NULL (nothing to say, or a skip recorded) or the finding. */
static struct finding *judge_package(struct rule_ctx *c, const struct snap_node *cu, const char *cv,
				     const char *drv, const char *how)
{
	char buf[16], listed[128], name[40];
	const char *pkg = compat_package(cv, buf, sizeof(buf));
	const struct facts_cuda_compat *row = NULL;
	int s = pkg ? facts_cuda_compat_support(pkg, drv, &row) : -ENOENT;
	unsigned branch = 0;

	if (s == FACTS_COMPAT_COMPATIBLE || s == FACTS_COMPAT_NOT_NEEDED)
		return NULL; /* what forward compatibility is for */
	sscanf(drv, "%u", &branch);
	if (s < 0) {
		rule_skip(
			c, NULL,
			"the forward-compatibility libcuda %s runs over the module %s where NVIDIA "
			"supports its package on the R%u branch, and the knowledge base's table of "
			"NVIDIA's cuda-compat packages (facts:cuda_compat) has %s",
			cv, drv, branch,
			pkg ? "no row of that package" : "no package of that libcuda's branch");
		return NULL;
	}
	facts_cuda_compat_branches(pkg, listed, sizeof(listed));
	snprintf(name, sizeof(name), "cuda-compat-%.*s-%s", (int)strcspn(pkg, "."), pkg,
		 pkg + strcspn(pkg, ".") + (pkg[strcspn(pkg, ".")] == '.'));
	if (s == FACTS_COMPAT_NOT_COMPATIBLE)
		return rule_finding(
			c, GPUENV_SEVERITY_ERROR, snap_get_str(cu, "path"),
			"ld.so loads the forward-compatibility libcuda %s (%s, %s: %s) over the "
			"kernel module %s, a branch NVIDIA's CUDA Compatibility table marks not "
			"compatible with that package (facts:cuda_compat, %s); cuInit fails with "
			"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)",
			cv, snap_get_str(cu, "resolved_path") ?: "?", how, name, drv, row->source);
	return rule_finding(
		c, GPUENV_SEVERITY_WARNING, snap_get_str(cu, "path"),
		"ld.so loads the forward-compatibility libcuda %s (%s, %s: %s) over the kernel "
		"module %s, but NVIDIA's CUDA Compatibility table lists %s on %s only "
		"(facts:cuda_compat): the R%u branch is not a supported target of forward "
		"compatibility (NVIDIA: branches not listed are end of life, and New Feature "
		"Branches are not supported targets)",
		cv, snap_get_str(cu, "resolved_path") ?: "?", how, name, drv, name,
		*listed ? listed : "no branch", branch);
}

/* The fix names what puts the compat directory on the loader path: the LD_LIBRARY_PATH entry
 * ld.so found it through, or the /etc/ld.so.conf.d files that list it for ldconfig (the
 * probe's driver.userspace.libcuda.ld_so_conf[]; CUDA images ship 000_cuda_compat.conf, whose
 * removal and an ldconfig was ggml-org/llama.cpp#23111's fix), else both places in general. */
static void compat_fix(struct finding *f, const struct snap_node *cu, const char *drv)
{
	const char *via = snap_get_str(cu, "found_via") ?: "", *path = snap_get_str(cu, "path");
	const struct snap_node *conf = snap_get(cu, "ld_so_conf");
	const char *slash = path ? strrchr(path, '/') : NULL;
	char files[1024] = "";
	size_t n = 0;

	if (streq(via, "LD_LIBRARY_PATH") && slash && slash != path) {
		finding_fix(f,
			    "# take %.*s off LD_LIBRARY_PATH (where the shell, the service or the "
			    "image sets it): the driver's own libcuda %s matches its module",
			    (int)(slash - path), path, drv);
		return;
	}
	for (size_t i = 0; streq(via, "ld.so.cache") && i < snap_count(conf); i++) {
		const struct snap_node *e = snap_at(conf, i);
		char key[64];

		if (!snap_str(e))
			continue;
		snprintf(key, sizeof(key), "driver.userspace.libcuda.ld_so_conf.%zu", i);
		finding_fact(f, key, e);
		n += (size_t)snprintf(files + strlen(files), sizeof(files) - strlen(files), " %s",
				      snap_str(e));
	}
	if (n > 0 && n < sizeof(files)) {
		finding_fix(f,
			    "sudo rm%s && sudo ldconfig   # what lists %.*s for ldconfig: the "
			    "driver's own libcuda %s matches its module",
			    files, slash ? (int)(slash - path) : 0, path ?: "", drv);
		return;
	}
	finding_fix(f,
		    "# take %s's directory off LD_LIBRARY_PATH / ld.so.conf.d (or unmount it): "
		    "the driver's own libcuda %s matches its module",
		    snap_get_str(cu, "resolved_path") ?: "the compat libcuda", drv);
}

RULE_CHECK(check_cuda_compat_unsupported)
{
	const struct snap_node *cu = snap_get(root, "driver.userspace.libcuda");
	const struct snap_node *gpus = snap_get(root, "hardware.gpus"), *fact;
	const char *drv = NULL, *cv = snap_get_str(cu, "version"), *how = NULL;
	size_t consumer = 0, nv = 0, unknown = 0;
	struct finding *f;
	bool older;

	/* Which libcuda loads could not be told: its version judges nothing. */
	if (!lib_need_determined(c, "libcuda.so.1", cu) || !cv ||
	    snap_get_bool_default(cu, "is_stub", false))
		return;
	if (nvidia_driver(root, &drv, &fact) != DRIVER_LOADED)
		return; /* without a loaded module, cuInit fails for that reason first */
	if (version_cmp_str(cv, drv) == 0 || !libcuda_is_compat(root, cu, drv, &how))
		return;
	older = version_cmp_str(cv, drv) < 0;
	for (size_t i = 0; i < snap_count(gpus); i++) {
		const struct facts_gpu *fg;

		if (!gpu_is_nvidia(snap_at(gpus, i)))
			continue;
		nv++;
		if (gpu_facts(snap_at(gpus, i), &fg) < 0 || !fg->segment)
			unknown++;
		else if (!streq(fg->segment, "datacenter"))
			consumer++;
	}
	if (older)
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, snap_get_str(cu, "path"),
			"ld.so loads the forward-compatibility libcuda %s (%s, %s, via %s), "
			"older than the kernel module %s: forward compatibility only runs a "
			"newer libcuda on an older driver; cuInit fails with "
			"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)",
			cv, snap_get_str(cu, "resolved_path") ?: "?", how,
			snap_get_str(cu, "found_via") ?: "?", drv);
	else if (consumer > 0)
		f = rule_finding(
			c, GPUENV_SEVERITY_ERROR, snap_get_str(cu, "path"),
			"ld.so loads the forward-compatibility libcuda %s (%s, %s) over the "
			"kernel module %s, but %zu of the %zu NVIDIA GPU(s) are not data-center "
			"GPUs: cuInit fails with CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804) "
			"\"forward compatibility was attempted on non supported HW\"",
			cv, snap_get_str(cu, "resolved_path") ?: "?", how, drv, consumer, nv);
	else if (nv == 0 || unknown > 0) {
		rule_skip(c, NULL,
			  "the forward-compatibility libcuda %s runs over the module %s only on "
			  "data-center GPUs, and %s",
			  cv, drv,
			  nv == 0 ? "no NVIDIA GPU was read on the PCI bus"
				  : "the knowledge base does not know every GPU's segment");
		return;
	} else if (!(f = judge_package(c, cu, cv, drv, how)))
		return; /* newer, on data-center GPUs, on a branch NVIDIA supports the package on */
	finding_fact(f, "driver.userspace.libcuda.resolved_path", snap_child(cu, "resolved_path"));
	finding_fact(f, "driver.userspace.libcuda.version", snap_child(cu, "version"));
	finding_fact(f, "driver.userspace.libcuda.found_via", snap_child(cu, "found_via"));
	finding_fact(f, "driver.userspace.libnvidia_ml.version",
		     snap_get(root, "driver.userspace.libnvidia_ml.version"));
	finding_fact(f, driver_fact_key(root, fact), fact);
	finding_fact(f, "environment.LD_LIBRARY_PATH",
		     snap_get(root, "environment.LD_LIBRARY_PATH"));
	compat_fix(f, cu, drv);
	finding_rule_fix(f);
	finding_rule_verify(f);
}
