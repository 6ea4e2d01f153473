// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Readings of the snapshot that several rules share (keys as in docs/snapshot-schema.md):
 * which hardware.gpus[] entries are NVIDIA / AMD (PCI vendor ids 0x10de / 0x1002), a GPU's
 * knowledge-base row by PCI id (facts/gpu_compute_capability.tsv), the loaded NVIDIA driver
 * version (/sys/module/nvidia/version, else the NVRM line of /proc/driver/nvidia/version),
 * and whether the judged process runs in a container. Pure functions.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules-internal.h"
#include "shared/parse.h"

bool gpu_pci_ids(const struct snap_node *gpu, unsigned *ret_vendor, unsigned *ret_device)
{
	const char *v = snap_get_str(gpu, "vendor_id"), *d = snap_get_str(gpu, "device_id");
	unsigned vv, dd;

	if (!v || !d || parse_uint(v, 0, &vv) < 0 || parse_uint(d, 0, &dd) < 0 || vv > 0xffff ||
	    dd > 0xffff)
		return false;
	*ret_vendor = vv;
	*ret_device = dd;
	return true;
}

static bool gpu_vendor_is(const struct snap_node *gpu, unsigned want)
{
	unsigned v, d;

	return gpu_pci_ids(gpu, &v, &d) && v == want;
}

bool gpu_is_nvidia(const struct snap_node *gpu)
{
	return gpu_vendor_is(gpu, 0x10de);
}

bool gpu_is_amd(const struct snap_node *gpu)
{
	return gpu_vendor_is(gpu, 0x1002);
}

size_t gpus_count(const struct snap_node *root, bool (*filter)(const struct snap_node *))
{
	const struct snap_node *gpus = snap_get(root, "hardware.gpus");
	size_t n = 0;

	for (size_t i = 0; i < snap_count(gpus); i++)
		if (!filter || filter(snap_at(gpus, i)))
			n++;
	return n;
}

int gpu_facts(const struct snap_node *gpu, const struct facts_gpu **ret)
{
	unsigned v, d;

	if (!gpu_pci_ids(gpu, &v, &d))
		return -ENODATA;
	return facts_gpu_by_pci_id((uint16_t)v, (uint16_t)d, ret);
}

enum driver_state nvidia_driver(const struct snap_node *root, const char **ret_version,
				const struct snap_node **ret_fact)
{
	const struct snap_node *mod = snap_get(root, "driver.nvidia.module_version");
	const struct snap_node *proc = snap_get(root, "driver.nvidia.proc_version");
	struct version v;

	if (snap_present(mod) && version_parse(snap_str(mod), &v) == 0) {
		*ret_version = snap_str(mod);
		*ret_fact = mod;
		return DRIVER_LOADED;
	}
	if (snap_present(proc)) {
		*ret_version = snap_str(proc);
		*ret_fact = proc;
		return DRIVER_LOADED;
	}
	*ret_version = NULL;
	*ret_fact = snap_state(mod) != FACT_ABSENT ? mod : proc;
	if (snap_state(mod) == FACT_ABSENT && snap_state(proc) == FACT_ABSENT)
		return DRIVER_NONE;
	return DRIVER_UNKNOWN;
}

bool in_container(const struct snap_node *root)
{
	return snap_present(snap_get(root, "container.dockerenv")) ||
	       snap_present(snap_get(root, "container.containerenv")) ||
	       snap_present(snap_get(root, "container.cgroup_engine"));
}

bool cuda_major_minor(const char *s, unsigned *ret_major, unsigned *ret_minor)
{
	struct version v;
	const char *end;

	if (!s || version_parse_prefix(s, &v, &end) < 0 || v.n < 2)
		return false;
	*ret_major = v.part[0];
	*ret_minor = v.part[1];
	return true;
}

/*
 * The driver a CUDA toolkit version needs (facts/cuda_driver_min.tsv): the exact release row
 * when the version names one ("12.4.1"), otherwise the GA row of its major.minor, with the
 * newest update's minimum as the upper end (a version from a component such as
 * nvidia_cuda_runtime-13.0.96 does not say which update it is).
 */
int cuda_requirement(const char *toolkit_version, struct cuda_req *ret)
{
	struct cuda_req r = { 0 };
	const struct facts_cuda_release *exact = NULL;
	int err;

	if (!cuda_major_minor(toolkit_version, &r.major, &r.minor))
		return -EINVAL;
	err = facts_cuda_minor_releases(r.major, r.minor, &r.first, &r.newest);
	if (err < 0)
		return err;
	if (facts_cuda_release(toolkit_version, &exact) == 0 && exact->linux_min_driver) {
		r.first = r.newest = exact;
		r.exact = true;
	}
	(void)facts_minor_compat_floor(r.major, &r.mc);
	*ret = r;
	return 0;
}

enum link_state cuda_driver_judge(const struct cuda_req *req, const char *driver)
{
	struct version d;

	if (version_cmp_str(driver, req->first->linux_min_driver) >= 0)
		return LINK_OK;
	if (req->major >= 11 && req->mc && req->mc->linux_min_driver &&
	    version_cmp_str(driver, req->mc->linux_min_driver) >= 0 &&
	    version_parse(driver, &d) == 0 &&
	    (!req->mc->upper_bound_exclusive || d.part[0] < req->mc->upper_bound_exclusive))
		return LINK_DEGRADED;
	return LINK_BROKEN;
}

void cuda_req_describe(const struct cuda_req *req, char *buf, size_t len)
{
	if (req->exact || req->first == req->newest ||
	    version_cmp_str(req->first->linux_min_driver, req->newest->linux_min_driver) == 0)
		snprintf(buf, len, ">= %s (%s)", req->first->linux_min_driver,
			 req->first->toolkit_label);
	else
		snprintf(buf, len, ">= %s (%s; %s needs >= %s)", req->first->linux_min_driver,
			 req->first->toolkit_label, req->newest->toolkit_label,
			 req->newest->linux_min_driver);
}
