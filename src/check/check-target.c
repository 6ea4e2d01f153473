// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A machine that is not here, from a `--target` string (src/formats/target-spec.h): the
 * snapshot `gpuenv report --json` of such a machine would hold for its GPUs and driver, and
 * nothing else, so that `gpuenv check` judges an image, wheel or tree on it exactly as with
 * `--host` (snapshot_with_host()). Each GPU is resolved by the knowledge base (a product name
 * or PCI id → gpu_compute_capability.tsv; a bare compute capability stays one); the driver's
 * CUDA version comes from driver_branches.tsv. Every fact names the target string as its
 * source; what the string does not say (device nodes, the kernel, the GPUs' health) is not
 * in the snapshot, so the rules that need it say they could not check. The GPUs' PCI bus ids
 * are positions (0000:00:00.0, 0000:00:01.0 …) that tie a GPU to its driver-side entry: the
 * target string names no bus.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "facts/facts.h"
#include "facts/nv-require.h"
#include "formats/target-spec.h"
#include "shared/macro.h"
#include "snapshot/snapshot.h"

static json_t *fact(json_t *value, const char *source)
{
	json_t *o = json_object();

	if (!o || !value) {
		json_decref(o);
		json_decref(value);
		return NULL;
	}
	if (json_object_set_new(o, "state", json_string("present")) < 0 ||
	    json_object_set_new(o, "source", json_string(source)) < 0 ||
	    json_object_set_new(o, "value", value) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int set_fact(json_t *obj, const char *key, json_t *value, const char *source)
{
	json_t *f = fact(value, source);

	return f ? json_object_set_new(obj, key, f) : -ENOMEM;
}

/* What the knowledge base says of g: its row (NULL for a bare compute capability), and the
 * compute capability. -ENOENT with *why when it does not know the GPU. */
static int resolve_gpu(const struct target_gpu *g, const struct facts_gpu **ret_row,
		       unsigned *ret_major, unsigned *ret_minor, char *why, size_t why_len)
{
	const struct facts_gpu *row = NULL;
	int r;

	*ret_row = NULL;
	if (g->kind == TARGET_GPU_CC) {
		*ret_major = g->cc_major;
		*ret_minor = g->cc_minor;
		return 0;
	}
	r = g->kind == TARGET_GPU_PCI ? facts_gpu_by_pci_id(g->vendor, g->device, &row)
				      : facts_gpu_by_name(g->text, &row);
	if (r < 0 || row->cc_major < 0) {
		snprintf(why, why_len,
			 "gpu=%s: the knowledge base does not know this GPU (name it by compute "
			 "capability, e.g. gpu=9.0)",
			 g->text);
		return -ENOENT;
	}
	*ret_row = row;
	*ret_major = (unsigned)row->cc_major;
	*ret_minor = (unsigned)row->cc_minor;
	return 0;
}

/* One GPU: hardware.gpus[i] and driver.nvml.devices[i]. */
static int add_gpu(json_t *gpus, json_t *devs, size_t i, const struct target_gpu *g,
		   const struct facts_gpu *row, unsigned major, unsigned minor, const char *brand,
		   const char *src)
{
	json_t *hw = json_object(), *dev = json_object();
	char bus[16], cc[8], id[8];
	int r = 0;

	if (!hw || !dev || json_array_append_new(gpus, hw) < 0 ||
	    json_array_append_new(devs, dev) < 0)
		return -ENOMEM;
	snprintf(bus, sizeof(bus), "0000:00:%02zx.0", i);
	snprintf(cc, sizeof(cc), "%u.%u", major, minor);
	r |= set_fact(hw, "bus_id", json_string(bus), src);
	r |= set_fact(dev, "pci_bus_id", json_string(bus), src);
	r |= set_fact(dev, "index", json_integer((json_int_t)i), src);
	r |= set_fact(hw, "compute_capability", json_string(cc), src);
	r |= set_fact(dev, "compute_capability", json_string(cc), src);
	/* the brand as libnvidia-container names it (NVIDIA_REQUIRE_CUDA's brand= terms) */
	if (*brand)
		r |= set_fact(dev, "brand", json_string(nv_require_brand(brand)), src);
	/* NVIDIA's vendor id for every target GPU (the string names NVIDIA GPUs), the device id
	 * where the string or the knowledge base gives one */
	snprintf(id, sizeof(id), "0x%04x", g->kind == TARGET_GPU_PCI ? g->vendor : 0x10de);
	r |= set_fact(hw, "vendor_id", json_string(id), src);
	if (g->kind == TARGET_GPU_PCI || (row && row->n_pci_device_ids)) {
		snprintf(id, sizeof(id), "0x%04x",
			 g->kind == TARGET_GPU_PCI ? g->device : row->pci_device_ids[0]);
		r |= set_fact(hw, "device_id", json_string(id), src);
	}
	if (row) {
		r |= set_fact(hw, "name", json_string(row->product), src);
		r |= set_fact(dev, "name", json_string(row->product), src);
		if (row->architecture)
			r |= set_fact(hw, "architecture", json_string(row->architecture), src);
	}
	return r ? -ENOMEM : 0;
}

/* host-cuda-compat=X.Y: the target's programs load the libcuda of NVIDIA's cuda-compat-X-Y
 * package (CUDA Compatibility guide, § Forward Compatibility: installed under
 * /usr/local/cuda-X.Y/compat and put on the loader path), of the driver branch CUDA X.Y's
 * releases need: driver.userspace.libcuda and compat_libcuda[] as the loader emulation records
 * such a copy (probe-libraries.c), so that runtime.cuda-compat-unsupported judges it (an
 * older branch than the module: 803; a GPU that is not a data-center one: 804) and the rules
 * that judge a CUDA runtime meet it where it works (cuda_driver_effective()). Its exact
 * version is not in the string: the least the package's branch holds, the newest X.Y
 * release's minimum driver (cuda_driver_min.tsv), named as such in the source. */
static int add_compat(json_t *drv, const char *compat, const char *src, char *why, size_t why_len)
{
	const struct facts_cuda_release *first, *newest;
	_cleanup_free_ char *dir = NULL, *file = NULL, *vsrc = NULL;
	json_t *us = json_object(), *cu = json_object(), *arr = json_array(), *entry;
	unsigned ma, mi;
	int r = 0;

	if (!us || !cu || !arr || json_object_set_new(drv, "userspace", us) < 0) {
		json_decref(us);
		json_decref(cu);
		json_decref(arr);
		return -ENOMEM;
	}
	if (json_object_set_new(us, "libcuda", cu) < 0 ||
	    json_object_set_new(us, "compat_libcuda", arr) < 0) {
		json_decref(arr);
		return -ENOMEM;
	}
	if (sscanf(compat, "%u.%u", &ma, &mi) != 2 ||
	    facts_cuda_minor_releases(ma, mi, &first, &newest) < 0 || !newest->linux_min_driver) {
		snprintf(why, why_len,
			 "host-cuda-compat=%s: the knowledge base knows no driver of CUDA %s "
			 "(the cuda-compat package's libcuda is of that driver's branch)",
			 compat, compat);
		return -ENOENT;
	}
	if (asprintf(&dir, "/usr/local/cuda-%u.%u/compat", ma, mi) < 0 ||
	    asprintf(&file, "%s/libcuda.so.%s", dir, newest->linux_min_driver) < 0 ||
	    asprintf(&vsrc,
		     "%s (cuda-compat-%u-%u; facts:cuda_driver_min: the R%s branch, at least "
		     "%s, the driver %s needs; the package's exact version is not named)",
		     src, ma, mi, newest->driver_branch ?: "?", newest->linux_min_driver,
		     newest->toolkit_label) < 0)
		return -ENOMEM;
	r |= set_fact(cu, "path", json_string("/usr/local/cuda/compat/libcuda.so.1"), src);
	r |= set_fact(cu, "resolved_path", json_string(file), src);
	r |= set_fact(cu, "version", json_string(newest->linux_min_driver), vsrc);
	r |= set_fact(cu, "in_compat_dir", json_true(), src);
	r |= set_fact(cu, "is_stub", json_false(), src);
	r |= set_fact(cu, "found_via", json_string("LD_LIBRARY_PATH"), src);
	entry = json_object();
	if (!entry || json_array_append_new(arr, entry) < 0)
		return -ENOMEM;
	r |= set_fact(entry, "path", json_string("/usr/local/cuda/compat/libcuda.so.1"), src);
	r |= set_fact(entry, "resolved_path", json_string(file), src);
	r |= set_fact(entry, "version", json_string(newest->linux_min_driver), vsrc);
	return r ? -ENOMEM : 0;
}

int check_target_snapshot(const char *spec, struct gpuenv_snapshot **ret, char **ret_why)
{
	struct target_spec t;
	struct target_spec_error err;
	_cleanup_free_ char *src = NULL, *text = NULL;
	json_t *root = NULL, *hw, *gpus, *drv, *nvml, *devs, *nv;
	char why[256] = "";
	int r;

	*ret_why = NULL;
	r = target_spec_parse(spec, strlen(spec), &t, &err);
	if (r < 0) {
		if (err.field)
			r = asprintf(ret_why, "field %u, column %u: %s", err.field, err.column,
				     err.why);
		else
			r = asprintf(ret_why, "column %u: %s", err.column, err.why);
		return r < 0 ? -ENOMEM : -EINVAL;
	}
	if (asprintf(&src, "--target %s", spec) < 0)
		return -ENOMEM;
	root = json_object();
	hw = json_object();
	gpus = json_array();
	drv = json_object();
	nvml = json_object();
	devs = json_array();
	nv = json_object();
	r = !root || json_object_set_new(root, "schema_version", json_integer(2)) < 0 ||
	    json_object_set_new(root, "hardware", hw) < 0 ||
	    json_object_set_new(hw, "gpus", gpus) < 0 ||
	    json_object_set_new(root, "driver", drv) < 0 ||
	    json_object_set_new(drv, "nvml", nvml) < 0 ||
	    json_object_set_new(nvml, "devices", devs) < 0 ||
	    json_object_set_new(drv, "nvidia", nv) < 0;
	if (r) {
		json_decref(root);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t.n_gpus; i++) {
		const struct facts_gpu *row;
		unsigned ma, mi;

		r = resolve_gpu(&t.gpus[i], &row, &ma, &mi, why, sizeof(why));
		if (r < 0)
			break;
		r = add_gpu(gpus, devs, i, &t.gpus[i], row, ma, mi, t.brand, src);
		if (r < 0)
			break;
	}
	/* the bus holds at least the GPUs the string names: the rules that judge code on them
	 * need the bus read (hardware.pci_devices); its other devices stay unknown */
	if (r >= 0) {
		_cleanup_free_ char *bus_src = NULL;

		r = asprintf(&bus_src,
			     "%s (its GPUs; the target's other PCI devices are not known)", src) < 0
			    ? -ENOMEM
			    : set_fact(hw, "pci_devices", json_integer((json_int_t)t.n_gpus),
				       bus_src);
	}
	if (r >= 0 && t.driver[0]) {
		struct facts_driver_cuda dc;

		r = set_fact(nv, "module_version", json_string(t.driver), src);
		r = r ?: set_fact(nvml, "driver_version", json_string(t.driver), src);
		if (r >= 0 && facts_cuda_newest_for_driver(t.driver, &dc) == 0 && !dc.lower_bound)
			r = set_fact(nvml, "cuda_driver_version", json_string(dc.cuda),
				     "facts:driver_branches (the CUDA the branch reports)");
	}
	if (r >= 0 && t.host_cuda_compat[0])
		r = add_compat(drv, t.host_cuda_compat, src, why, sizeof(why));
	if (r < 0) {
		json_decref(root);
		if (r == -ENOENT && !(*ret_why = strdup(why)))
			return -ENOMEM;
		return r;
	}
	text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	if (!text)
		return -ENOMEM;
	return snapshot_from_json(text, strlen(text), ret, ret_why);
}
