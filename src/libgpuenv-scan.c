/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Public gpuenv_scan_* entry points (include/gpuenv/gpuenv.h): options, devices (compute
 * capability, SM, knowledge-base GPU name, or the GPUs of a snapshot: hardware.gpus[] PCI ids
 * and driver.nvidia.module_version, docs/snapshot-schema.md), the driver, paths, summary and
 * rendering. The work is in src/scan/ (scan.c, scan-render.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"
#include "facts/facts.h"
#include "scan/scan.h"
#include "shared/macro.h"
#include "shared/parse.h"
#include "snapshot/snapshot.h"

GPUENV_API int gpuenv_scan_new(struct gpuenv_ctx *ctx, const struct gpuenv_scan_opts *opts,
			       struct gpuenv_scan **ret)
{
	struct gpuenv_scan *s;

	if (!ctx || !ret)
		return -EINVAL;
	if (opts && opts->sz < offsetof(struct gpuenv_scan_opts, flags) + sizeof(unsigned))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->ctx = ctx;
	if (opts)
		memcpy(&s->opts, opts, MIN(opts->sz, sizeof(s->opts)));
	s->opts.sz = sizeof(s->opts);
	if (!s->opts.max_depth)
		s->opts.max_depth = SCAN_DEFAULT_MAX_DEPTH;
	if (!s->opts.max_files)
		s->opts.max_files = SCAN_DEFAULT_MAX_FILES;
	if (!s->opts.max_file_size)
		s->opts.max_file_size = SCAN_DEFAULT_MAX_FILE_SIZE;
	if (!s->opts.max_member_size)
		s->opts.max_member_size = SCAN_DEFAULT_MAX_MEMBER_SIZE;
	if (!s->opts.max_ratio)
		s->opts.max_ratio = SCAN_DEFAULT_MAX_RATIO;
	if (!s->opts.member_in_memory)
		s->opts.member_in_memory = SCAN_MEMBER_IN_MEMORY;
	*ret = s;
	return 0;
}

GPUENV_API struct gpuenv_scan *gpuenv_scan_free(struct gpuenv_scan *s)
{
	if (!s)
		return NULL;
	for (size_t i = 0; i < s->n_files; i++)
		scan_file_done(&s->files[i]);
	free(s->files);
	for (size_t i = 0; i < s->n_devices; i++) {
		free(s->devices[i].name);
		free(s->devices[i].source);
	}
	free(s->driver);
	free(s->driver_source);
	free(s->seen);
	free(s);
	return NULL;
}

static int add_device(struct gpuenv_scan *s, unsigned major, unsigned minor, const char *name,
		      const char *source)
{
	struct scan_device *d;

	if (s->n_devices >= SCAN_MAX_DEVICES)
		return -E2BIG;
	/* the same device twice (eight identical GPUs) is judged once */
	for (size_t i = 0; i < s->n_devices; i++)
		if (s->devices[i].major == major && s->devices[i].minor == minor &&
		    ((!name && !s->devices[i].name) ||
		     (name && s->devices[i].name && streq(name, s->devices[i].name))))
			return 0;
	d = &s->devices[s->n_devices];
	*d = (struct scan_device){ .major = major, .minor = minor };
	d->name = name ? strdup(name) : NULL;
	d->source = source ? strdup(source) : NULL;
	if ((name && !d->name) || (source && !d->source)) {
		free(d->name);
		free(d->source);
		return -ENOMEM;
	}
	s->n_devices++;
	s->judged = false;
	return 1;
}

/* "8.6" / "12.0" → 0; -EINVAL otherwise. */
static int parse_cc(const char *s, unsigned *ret_major, unsigned *ret_minor)
{
	unsigned a = 0, b = 0;
	int da = 0, db = 0;

	while (*s >= '0' && *s <= '9' && da < 3)
		a = a * 10 + (unsigned)(*s++ - '0'), da++;
	if (!da || *s++ != '.')
		return -EINVAL;
	while (*s >= '0' && *s <= '9' && db < 2)
		b = b * 10 + (unsigned)(*s++ - '0'), db++;
	if (db != 1 || *s)
		return -EINVAL;
	*ret_major = a;
	*ret_minor = b;
	return 0;
}

GPUENV_API int gpuenv_scan_add_gpu(struct gpuenv_scan *s, const char *gpu)
{
	struct coverage_target_info t;
	const struct facts_gpu *g;
	unsigned major, minor;
	char src[160];
	int rv;

	if (!s || !gpu || !*gpu)
		return -EINVAL;
	snprintf(src, sizeof(src), "--gpu %s", gpu);
	if (parse_cc(gpu, &major, &minor) == 0)
		return MAX(add_device(s, major, minor, NULL, src), 0);
	if (coverage_target_parse(gpu, &t) == 0 && t.kind == COVERAGE_KIND_SASS && !t.variant)
		return MAX(add_device(s, t.arch / 10, t.arch % 10, NULL, src), 0);
	rv = facts_gpu_by_name(gpu, &g);
	if (rv < 0)
		return rv;
	if (g->cc_major < 0 || g->cc_minor < 0)
		return -ENODATA;
	snprintf(src, sizeof(src), "--gpu %s (knowledge base: %s)", gpu, g->product);
	return MAX(add_device(s, (unsigned)g->cc_major, (unsigned)g->cc_minor, g->product, src), 0);
}

static int set_driver(struct gpuenv_scan *s, const char *v, const char *source)
{
	struct version ver;
	char *d, *src;

	if (version_parse(v, &ver) < 0)
		return -EINVAL;
	d = strdup(v);
	src = source ? strdup(source) : NULL;
	if (!d || (source && !src)) {
		free(d);
		free(src);
		return -ENOMEM;
	}
	free(s->driver);
	free(s->driver_source);
	s->driver = d;
	s->driver_source = src;
	s->judged = false;
	return 0;
}

GPUENV_API int gpuenv_scan_set_driver(struct gpuenv_scan *s, const char *driver_version)
{
	if (!s)
		return -EINVAL;
	if (!driver_version) {
		free(s->driver);
		free(s->driver_source);
		s->driver = s->driver_source = NULL;
		s->judged = false;
		return 0;
	}
	return set_driver(s, driver_version, "--driver");
}

static int hex_of(const struct snap_node *gpu, const char *key, unsigned *ret)
{
	const char *v = snap_get_str(gpu, key);
	unsigned x;

	if (!v)
		return -ENOENT;
	if (parse_uint(v, 16, &x) < 0 || x > 0xffff)
		return -EINVAL;
	*ret = x;
	return 0;
}

GPUENV_API int gpuenv_scan_add_snapshot_gpus(struct gpuenv_scan *s,
					     const struct gpuenv_snapshot *snap)
{
	const struct snap_node *root, *gpus;
	const char *drv;
	int added = 0;

	if (!s || !snap)
		return -EINVAL;
	root = snapshot_root_const(snap);
	gpus = snap_get(root, "hardware.gpus");
	for (size_t i = 0; gpus && i < snap_count(gpus); i++) {
		const struct snap_node *g = snap_at(gpus, i);
		const struct facts_gpu *fg;
		const char *cc = snap_get_str(g, "compute_capability");
		unsigned ven, dev, major, minor;
		char src[160];
		int rv;

		if (hex_of(g, "vendor_id", &ven) < 0 || ven != 0x10de)
			continue;
		if (cc && parse_cc(cc, &major, &minor) == 0) {
			snprintf(src, sizeof(src), "snapshot: hardware.gpus.%zu.compute_capability",
				 i);
			rv = add_device(s, major, minor, snap_get_str(g, "name"), src);
		} else if (hex_of(g, "device_id", &dev) == 0 &&
			   facts_gpu_by_pci_id(0x10de, (uint16_t)dev, &fg) == 0 &&
			   fg->cc_major >= 0) {
			snprintf(src, sizeof(src),
				 "snapshot: hardware.gpus.%zu (PCI 10de:%04x, "
				 "knowledge base)",
				 i, dev);
			rv = add_device(s, (unsigned)fg->cc_major, (unsigned)fg->cc_minor,
					fg->product, src);
		} else {
			continue;
		}
		if (rv < 0)
			return rv;
		added++;
	}
	drv = snap_get_str(root, "driver.nvidia.module_version");
	if (drv && !s->driver) {
		int rv = set_driver(s, drv, "snapshot: driver.nvidia.module_version");

		if (rv == -ENOMEM)
			return rv;
	}
	return added;
}

GPUENV_API int gpuenv_scan_path(struct gpuenv_scan *s, const char *path)
{
	if (!s || !path || !*path)
		return -EINVAL;
	return scan_path(s, path);
}

GPUENV_API int gpuenv_scan_get_summary(struct gpuenv_scan *s, struct gpuenv_scan_summary *ret)
{
	if (!s || !ret || ret->sz < sizeof(size_t) + sizeof(uint64_t))
		return -EINVAL;
	return scan_summary(s, ret);
}

GPUENV_API int gpuenv_scan_render(struct gpuenv_scan *s, enum gpuenv_format format, unsigned flags,
				  char **ret)
{
	if (!s || !ret)
		return -EINVAL;
	switch (format) {
	case GPUENV_FORMAT_TEXT:
		return scan_render_text(s, flags, ret);
	case GPUENV_FORMAT_JSON:
		return scan_render_json(s, flags, ret);
	default:
		return -EOPNOTSUPP;
	}
}
